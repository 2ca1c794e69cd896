// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * rdma-mcm: the context, and the RDMA device it lives on.
 *
 * The context heals its memberships (RDMA_MCM_CTX_HEAL) unless --no-heal
 * is given. With -b ADDR it is created on ADDR; without, it is bound by
 * route (RDMA_MCM_CTX_ROUTE) toward the first group: the kernel resolves
 * the route to the group, as mckey without -b does, and the device and
 * source address are the route's. Its device is the one
 * rdma_mcm_open_device() finds: the GID table that holds the source
 * address (RoCE), else the parent of the netdev that has it (IPoIB).
 *
 * A module older than context flags (healing) is told by what it says of
 * itself, never by an errno (EINVAL is also a route the kernel refuses):
 * it grants no healing event and has no features. Then the context is
 * made without flags, and without -b each device's GIDs that are
 * addresses of the group's family are tried in turn (RoCE v2 entries
 * first), the first the kernel accepts as a source winning, as before.
 */
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <infiniband/verbs.h>

#include "rdma_mcm_cli.h"

/* Called for each GID entry; returns 1 to stop the walk there. */
typedef int (*gid_fn)(void *arg, const struct ibv_gid_entry *e);

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
		if (fn(arg, &e))
			return 1;
	}
	return 0;
}

/* Walk every GID of every port until @fn stops it; 1 if it did */
static int walk_gids(gid_fn fn, void *arg)
{
	struct ibv_device **list;
	struct ibv_context *ctx;
	struct ibv_device_attr attr;
	int n, i, p, found = 0;

	list = ibv_get_device_list(&n);
	if (!list)
		return 0;
	for (i = 0; i < n && !found; i++) {
		ctx = ibv_open_device(list[i]);
		if (!ctx)
			continue;
		if (!ibv_query_device(ctx, &attr))
			for (p = 1; p <= attr.phys_port_cnt && !found; p++)
				found = walk_port(ctx, (uint8_t)p, fn, arg);
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

struct auto_arg {
	struct cli *cli;
	int family;
	int v2_only;
	int tried;
};

static int try_source(void *arg, const struct ibv_gid_entry *e)
{
	struct auto_arg *a = arg;
	struct sockaddr_storage ss;

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
	return 1;
}

/* A module without ROUTE contexts: the devices' GIDs in turn */
static int walk_source(struct cli *cli, int family)
{
	struct auto_arg a = { .cli = cli, .family = family, .v2_only = 1 };

	if (walk_gids(try_source, &a))
		return 0;
	a.v2_only = 0;
	if (walk_gids(try_source, &a))
		return 0;
	cli_err("no RDMA device has an %s address this kernel accepts as a source%s; give one with -b ADDR",
		family == AF_INET ? "IPv4" : "IPv6",
		a.tried ? "" : " (none found)");
	return -1;
}

/*
 * Whether the module takes context flags (RDMA_MCM_CTX_HEAL and _ROUTE
 * came with healing), as it says: a module with features (sources, which
 * came later) has them; else it has them if it delivers healing's events
 * (the CLI asks for CLI_EVENTS in any case).
 */
static int module_has_ctx_flags(struct cli *cli)
{
	uint32_t features = 0;
	uint64_t granted = 0;

	if (!rdma_mcm_get_features(cli->ch, &features) && features)
		return 1;
	return !rdma_mcm_set_event_mask(cli->ch, CLI_EVENTS, &granted) &&
	       (granted & RDMA_MCM_EVENT_BIT(RDMA_MCM_EVENT_REJOINING));
}

/* A module before context flags: a context without them, as before */
static int create_ctx_old(struct cli *cli, const struct sockaddr *group)
{
	if (!cli->bind && walk_source(cli, group->sa_family))
		return -1;
	if (cli->bind) {
		if (rdma_mcm_create_ctx(cli->ch, (struct sockaddr *)&cli->src,
					&cli->ctx_id)) {
			cli_err("source %s: %s", cli->bind, strerror(errno));
			return -1;
		}
		cli->have_ctx = 1;
	}
	if (!cli->no_heal)
		cli_err("the rdma_mcm module takes no context flags (it is older than healing): memberships will not heal");
	return 0;
}

/* The context: on -b's address, or by route to @group */
static int create_ctx(struct cli *cli, const struct sockaddr *group)
{
	uint32_t flags = cli->no_heal ? 0 : RDMA_MCM_CTX_HEAL;
	char name[80];

	if (cli->bind) {
		if (rdma_mcm_parse_addr(cli->bind, &cli->src)) {
			cli_err("bad source address '%s': %s", cli->bind,
				strerror(errno));
			return -1;
		}
		if (cli->src.ss_family != group->sa_family) {
			cli_err("source %s and group are of different families",
				cli->bind);
			return -1;
		}
	}
	if (!module_has_ctx_flags(cli))
		return create_ctx_old(cli, group);
	if (!cli->bind) {
		memcpy(&cli->src, group, group->sa_family == AF_INET ?
		       sizeof(struct sockaddr_in) : sizeof(struct sockaddr_in6));
		flags |= RDMA_MCM_CTX_ROUTE;
	}
	if (!rdma_mcm_create_ctx_ex(cli->ch, (struct sockaddr *)&cli->src,
				    flags, &cli->ctx_id)) {
		cli->ctx_flags = flags;
		cli->have_ctx = 1;
		return 0;
	}
	addr_name((struct sockaddr *)&cli->src, name, sizeof(name));
	if (cli->bind)
		cli_err("source %s: %s", cli->bind, strerror(errno));
	else
		cli_err("route to %s: %s", name, strerror(errno));
	return -1;
}

/*
 * Make sure the channel has a context for @group's family (the first
 * group makes it). 0 or -1 (reported).
 */
int cli_ensure_ctx(struct cli *cli, const struct sockaddr *group)
{
	if (cli->have_ctx && cli->src.ss_family != group->sa_family) {
		cli_err("all groups must be of the source's family");
		return -1;
	}
	if (cli->have_ctx)
		return 0;
	return create_ctx(cli, group);
}

/* The context's RDMA device, opened; NULL (reported) if there is none */
struct ibv_context *cli_open_dev(struct cli *cli)
{
	struct ibv_context *ctx;
	char name[80];

	ctx = rdma_mcm_open_device(cli->ch, cli->ctx_id);
	if (ctx)
		return ctx;
	addr_name((struct sockaddr *)&cli->src, name, sizeof(name));
	if (cli->ctx_flags & RDMA_MCM_CTX_ROUTE)
		cli_err("no RDMA device on the route to %s: %s", name,
			strerror(errno));
	else
		cli_err("no RDMA device has the address %s", name);
	return NULL;
}
