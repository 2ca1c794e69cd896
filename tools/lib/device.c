// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * librdmamcm: rdma_mcm_open_device(), the RDMA device of a context, as
 * the kernel chose it. The module names it (QUERY_CTX: its node GUID and
 * name), asked anew each time: after DEVICE_ADDED it may be another. A
 * module without QUERY_CTX does not: then it is the device whose GID
 * table holds the context's source address (RoCE: a RoCE v2 entry first,
 * on the address's netdev when it is known; InfiniBand: an AF_IB source's
 * GID), else, for an IP address on an IPoIB netdev, that netdev's parent
 * device; a ROUTE context's source and netdev are then those of the route
 * to its group (route.c).
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

#include "rdma_mcm_priv.h"

struct want_gid {
	uint8_t gid[16];
	uint32_t ifindex;		/* the entry's netdev, or 0: any */
	int v2_only;			/* RoCE: RoCE v2 entries only */
};

/* Does @port of @ctx have the GID? */
static int port_has(struct ibv_context *ctx, uint8_t port,
		    const struct want_gid *w)
{
	struct ibv_port_attr pattr;
	struct ibv_gid_entry e;
	int i;

	if (ibv_query_port(ctx, port, &pattr))
		return 0;
	for (i = 0; i < pattr.gid_tbl_len; i++) {
		if (ibv_query_gid_ex(ctx, port, (uint32_t)i, &e, 0) ||
		    memcmp(e.gid.raw, w->gid, sizeof(w->gid)))
			continue;
		if (pattr.link_layer != IBV_LINK_LAYER_ETHERNET)
			return 1;
		if (w->v2_only && e.gid_type != IBV_GID_TYPE_ROCE_V2)
			continue;
		if (w->ifindex && e.ndev_ifindex != w->ifindex)
			continue;
		return 1;
	}
	return 0;
}

static int dev_has(struct ibv_context *ctx, const struct want_gid *w)
{
	struct ibv_device_attr attr;
	int p;

	if (ibv_query_device(ctx, &attr))
		return 0;
	for (p = 1; p <= attr.phys_port_cnt && p <= 255; p++)
		if (port_has(ctx, (uint8_t)p, w))
			return 1;
	return 0;
}

/* The first device whose table has the GID, opened; NULL if none */
static struct ibv_context *open_by_gid(const struct want_gid *w)
{
	struct ibv_context *ctx, *found = NULL;
	struct ibv_device **list;
	int n, i;

	list = ibv_get_device_list(&n);
	if (!list)
		return NULL;
	for (i = 0; i < n && !found; i++) {
		ctx = ibv_open_device(list[i]);
		if (!ctx)
			continue;
		if (dev_has(ctx, w))
			found = ctx;
		else
			ibv_close_device(ctx);
	}
	ibv_free_device_list(list);
	return found;
}

/* The name of the netdev that has the IP address @sa, or "" */
static void netdev_of(const struct sockaddr *sa, char name[IF_NAMESIZE + 1])
{
	struct ifaddrs *ifa, *i;
	uint8_t want[16], have[16];
	uint32_t scope;

	name[0] = '\0';
	mcm_addr_gid(sa, want, &scope);
	if (getifaddrs(&ifa))
		return;
	for (i = ifa; i; i = i->ifa_next) {
		if (!i->ifa_addr || i->ifa_addr->sa_family != sa->sa_family)
			continue;
		mcm_addr_gid(i->ifa_addr, have, &scope);
		if (!memcmp(want, have, sizeof(want))) {
			snprintf(name, IF_NAMESIZE + 1, "%s", i->ifa_name);
			break;
		}
	}
	freeifaddrs(ifa);
}

/* IPoIB: the RDMA device under the netdev (by name, or @ifindex) */
static struct ibv_context *open_by_netdev(const struct sockaddr *sa,
					  uint32_t ifindex)
{
	char name[IF_NAMESIZE + 1], path[300];
	struct ibv_context *ctx = NULL;
	struct ibv_device **list;
	struct dirent *de;
	DIR *d;
	int n, k;

	if (!ifindex || !if_indextoname(ifindex, name))
		netdev_of(sa, name);
	if (!name[0])
		return NULL;
	snprintf(path, sizeof(path), "/sys/class/net/%s/device/infiniband",
		 name);
	d = opendir(path);
	if (!d)
		return NULL;
	while ((de = readdir(d)) && de->d_name[0] == '.')
		;
	list = de ? ibv_get_device_list(&n) : NULL;
	for (k = 0; list && k < n && !ctx; k++)
		if (!strcmp(ibv_get_device_name(list[k]), de->d_name))
			ctx = ibv_open_device(list[k]);
	if (list)
		ibv_free_device_list(list);
	closedir(d);
	return ctx;
}

/* The device the kernel named: by node GUID, else by name; or NULL */
static struct ibv_context *open_named(const struct mcm_where *where)
{
	struct ibv_context *ctx = NULL;
	struct ibv_device **list;
	int n, i, match;

	if (!where->node_guid && !where->dev_name[0])
		return NULL;
	list = ibv_get_device_list(&n);
	if (!list)
		return NULL;
	for (i = 0; i < n && !ctx; i++) {
		if (where->node_guid)
			match = ibv_get_device_guid(list[i]) == where->node_guid;
		else
			match = !strcmp(ibv_get_device_name(list[i]),
					where->dev_name);
		if (match)
			ctx = ibv_open_device(list[i]);
	}
	ibv_free_device_list(list);
	return ctx;
}

MCM_EXPORT struct ibv_context *rdma_mcm_open_device(struct rdma_mcm_channel *ch,
						    uint32_t ctx_id)
{
	struct mcm_where where;
	struct ibv_context *ctx;
	struct want_gid w;
	uint32_t scope;
	int ret;

	if (!ch) {
		errno = EINVAL;
		return NULL;
	}
	ret = mcm_ctx_where(ch, ctx_id, &where);
	if (ret) {
		errno = -ret;
		return NULL;
	}
	ctx = open_named(&where);
	if (ctx)
		return ctx;
	memset(&w, 0, sizeof(w));
	mcm_addr_gid((struct sockaddr *)&where.src, w.gid, &scope);
	/* a scoped IPv6 source's netdev, or the route's */
	w.ifindex = where.ifindex ? where.ifindex : scope;
	w.v2_only = 1;
	ctx = open_by_gid(&w);
	if (!ctx) {
		w.v2_only = 0;
		ctx = open_by_gid(&w);
	}
	if (!ctx && where.src.ss_family != AF_IB)
		ctx = open_by_netdev((struct sockaddr *)&where.src, w.ifindex);
	if (!ctx)
		errno = ENODEV;
	return ctx;
}
