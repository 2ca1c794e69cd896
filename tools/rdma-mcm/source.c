// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * rdma-mcm: the source address of the context, and the RDMA device and
 * port it lives on.
 *
 * With -b ADDR the context is created on ADDR, and the device is the one
 * whose GID table holds ADDR (RoCE), else the parent of the netdev that
 * has ADDR (IPoIB). Without -b, each device's GIDs that are addresses of
 * the group's family are tried in turn (RoCE v2 entries first): the first
 * the kernel accepts as a source wins.
 */
#include <dirent.h>
#include <errno.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <infiniband/verbs.h>

#include "rdma_mcm_cli.h"

/* Called for each GID entry; returns 1 to stop the walk there. */
typedef int (*gid_fn)(void *arg, struct ibv_context *ctx, uint8_t port,
		      const struct ibv_gid_entry *e);

static int walk_port(struct ibv_context *ctx, uint8_t port, gid_fn fn,
		     void *arg)
{
	struct ibv_port_attr pattr;
	struct ibv_gid_entry e;
	int i;

	if (ibv_query_port(ctx, port, &pattr))
		return 0;
	for (i = 0; i < pattr.gid_tbl_len; i++) {
		if (ibv_query_gid_ex(ctx, port, (uint32_t)i, &e, 0))
			continue;
		if (fn(arg, ctx, port, &e))
			return 1;
	}
	return 0;
}

/* Walk every GID of every port; the context where @fn stopped stays open. */
static struct ibv_context *walk_gids(gid_fn fn, void *arg)
{
	struct ibv_device **list;
	struct ibv_context *ctx, *found = NULL;
	struct ibv_device_attr attr;
	int n, i, p;

	list = ibv_get_device_list(&n);
	if (!list)
		return NULL;
	for (i = 0; i < n && !found; i++) {
		ctx = ibv_open_device(list[i]);
		if (!ctx)
			continue;
		if (!ibv_query_device(ctx, &attr))
			for (p = 1; p <= attr.phys_port_cnt && !found; p++)
				if (walk_port(ctx, (uint8_t)p, fn, arg))
					found = ctx;
		if (!found)
			ibv_close_device(ctx);
	}
	ibv_free_device_list(list);
	return found;
}

static int gid_is_v4mapped(const uint8_t *gid)
{
	static const uint8_t prefix[12] = {
		0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff
	};

	return !memcmp(gid, prefix, sizeof(prefix));
}

/* The GID form of an IP address, as RoCE puts it in the GID table */
static void addr_gid(const struct sockaddr *sa, uint8_t gid[16])
{
	memset(gid, 0, 16);
	if (sa->sa_family == AF_INET) {
		gid[10] = 0xff;
		gid[11] = 0xff;
		memcpy(gid + 12,
		       &((const struct sockaddr_in *)(const void *)sa)->sin_addr, 4);
	} else {
		memcpy(gid,
		       &((const struct sockaddr_in6 *)(const void *)sa)->sin6_addr, 16);
	}
}

/* A RoCE GID entry as an address of @family; 0 or -1 */
static int gid_addr(const struct ibv_gid_entry *e, int family,
		    struct sockaddr_storage *ss)
{
	struct sockaddr_in *sin = (struct sockaddr_in *)ss;
	struct sockaddr_in6 *sin6 = (struct sockaddr_in6 *)ss;
	const uint8_t *g = e->gid.raw;

	if (e->gid_type == IBV_GID_TYPE_IB || !e->ndev_ifindex)
		return -1;
	memset(ss, 0, sizeof(*ss));
	if (family == AF_INET && gid_is_v4mapped(g)) {
		sin->sin_family = AF_INET;
		memcpy(&sin->sin_addr, g + 12, 4);
		return 0;
	}
	if (family == AF_INET6 && !gid_is_v4mapped(g)) {
		sin6->sin6_family = AF_INET6;
		memcpy(&sin6->sin6_addr, g, 16);
		if (g[0] == 0xfe && (g[1] & 0xc0) == 0x80)
			sin6->sin6_scope_id = e->ndev_ifindex;
		return 0;
	}
	return -1;
}

struct find_arg {
	uint8_t gid[16];
	uint32_t ifindex;		/* a scoped IPv6 address's netdev, or 0 */
	int v2_only;
	struct cli_dev *dev;
};

static int find_gid(void *arg, struct ibv_context *ctx, uint8_t port,
		    const struct ibv_gid_entry *e)
{
	struct find_arg *f = arg;

	(void)ctx;
	if (memcmp(e->gid.raw, f->gid, 16))
		return 0;
	if (f->v2_only && e->gid_type != IBV_GID_TYPE_ROCE_V2)
		return 0;
	/* a link-local address is on every VLAN of the port: take its own */
	if (f->ifindex && e->ndev_ifindex != f->ifindex)
		return 0;
	f->dev->port = port;
	f->dev->gid_index = (int)e->gid_index;
	return 1;
}

/* IPoIB: the RDMA device under the netdev that has the address */
static int find_by_netdev(const struct sockaddr *sa, struct cli_dev *dev)
{
	struct ifaddrs *ifa, *i;
	uint8_t want[16], have[16];
	char path[300], name[IF_NAMESIZE + 1] = "";
	struct ibv_device **list;
	struct dirent *de;
	DIR *d;
	int n, k;

	addr_gid(sa, want);
	if (getifaddrs(&ifa))
		return -1;
	for (i = ifa; i; i = i->ifa_next) {
		if (!i->ifa_addr || i->ifa_addr->sa_family != sa->sa_family)
			continue;
		addr_gid(i->ifa_addr, have);
		if (!memcmp(want, have, 16)) {
			snprintf(name, sizeof(name), "%s", i->ifa_name);
			break;
		}
	}
	freeifaddrs(ifa);
	if (!*name)
		return -1;
	snprintf(path, sizeof(path), "/sys/class/net/%s/device/infiniband",
		 name);
	d = opendir(path);
	if (!d)
		return -1;
	while ((de = readdir(d)) && de->d_name[0] == '.')
		;
	list = ibv_get_device_list(&n);
	for (k = 0; de && list && k < n && !dev->ctx; k++)
		if (!strcmp(ibv_get_device_name(list[k]), de->d_name))
			dev->ctx = ibv_open_device(list[k]);
	if (list)
		ibv_free_device_list(list);
	closedir(d);
	dev->port = 0;		/* from the JOINED event */
	dev->gid_index = -1;
	return dev->ctx ? 0 : -1;
}

static int find_dev(const struct sockaddr *sa, struct cli_dev *dev)
{
	const struct sockaddr_in6 *sin6 = (const void *)sa;
	struct find_arg f = { .dev = dev, .v2_only = 1 };

	addr_gid(sa, f.gid);
	if (sa->sa_family == AF_INET6)
		f.ifindex = sin6->sin6_scope_id;
	dev->ctx = walk_gids(find_gid, &f);
	if (!dev->ctx) {
		f.v2_only = 0;
		dev->ctx = walk_gids(find_gid, &f);
	}
	if (dev->ctx || !find_by_netdev(sa, dev))
		return 0;
	return -1;
}

struct auto_arg {
	struct cli *cli;
	int family;
	int v2_only;
	int tried;
	struct cli_dev *dev;
};

static int try_source(void *arg, struct ibv_context *ctx, uint8_t port,
		      const struct ibv_gid_entry *e)
{
	struct auto_arg *a = arg;
	struct sockaddr_storage ss;

	(void)ctx;
	if (a->v2_only && e->gid_type != IBV_GID_TYPE_ROCE_V2)
		return 0;
	if (gid_addr(e, a->family, &ss))
		return 0;
	a->tried++;
	if (rdma_mcm_create_ctx(a->cli->ch, (struct sockaddr *)&ss,
				&a->cli->ctx_id))
		return 0;
	a->cli->src = ss;
	a->cli->have_ctx = 1;
	if (a->dev) {
		a->dev->port = port;
		a->dev->gid_index = (int)e->gid_index;
	}
	return 1;
}

static int auto_source(struct cli *cli, int family, struct cli_dev *dev)
{
	struct auto_arg a = {
		.cli = cli, .family = family, .v2_only = 1, .dev = dev,
	};
	struct ibv_context *ctx;

	ctx = walk_gids(try_source, &a);
	if (!ctx) {
		a.v2_only = 0;
		ctx = walk_gids(try_source, &a);
	}
	if (!ctx) {
		cli_err("no RDMA device has an %s address this kernel accepts as a source%s; give one with -b ADDR",
			family == AF_INET ? "IPv4" : "IPv6",
			a.tried ? "" : " (none found)");
		return -1;
	}
	if (dev)
		dev->ctx = ctx;
	else
		ibv_close_device(ctx);
	return 0;
}

static int bind_source(struct cli *cli, int family)
{
	if (rdma_mcm_parse_addr(cli->bind, &cli->src)) {
		cli_err("bad source address '%s': %s", cli->bind,
			strerror(errno));
		return -1;
	}
	if (cli->src.ss_family != family) {
		cli_err("source %s and group are of different families",
			cli->bind);
		return -1;
	}
	if (rdma_mcm_create_ctx(cli->ch, (struct sockaddr *)&cli->src,
				&cli->ctx_id)) {
		cli_err("source %s: %s", cli->bind, strerror(errno));
		return -1;
	}
	cli->have_ctx = 1;
	return 0;
}

/*
 * Make sure the channel has a context for groups of @family; with @dev,
 * also find the RDMA device and port of its source. 0 or -1 (reported).
 */
int cli_ensure_ctx(struct cli *cli, int family, struct cli_dev *dev)
{
	char name[80];

	if (dev)
		memset(dev, 0, sizeof(*dev));
	if (cli->have_ctx && cli->src.ss_family != family) {
		cli_err("all groups must be of the source's family");
		return -1;
	}
	if (!cli->have_ctx && !cli->bind)
		return auto_source(cli, family, dev);
	if (!cli->have_ctx && bind_source(cli, family))
		return -1;
	if (!dev)
		return 0;
	if (find_dev((struct sockaddr *)&cli->src, dev)) {
		addr_name((struct sockaddr *)&cli->src, name, sizeof(name));
		cli_err("no RDMA device has the address %s", name);
		return -1;
	}
	return 0;
}

void cli_dev_close(struct cli_dev *dev)
{
	if (dev->ctx)
		ibv_close_device(dev->ctx);
	dev->ctx = NULL;
}
