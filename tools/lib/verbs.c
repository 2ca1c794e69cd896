// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * librdmamcm: libibverbs helpers: attach a UD QP to a joined group,
 * detach and leave, and build an address handle from a JOINED event,
 * with the GID of the context's source address as its source.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <infiniband/verbs.h>

#include "rdma_mcm_priv.h"

/* A verbs call's result (0, errno, or -1 with errno) as 0 or -errno */
static int verbs_err(int ret)
{
	if (!ret)
		return 0;
	if (ret > 0)
		return -ret;
	if (ret != -1)
		return ret;
	return errno ? -errno : -EIO;
}

static int attach_qp(struct rdma_mcm_channel *ch, struct ibv_qp *qp,
		     const struct rdma_mcm_event *joined)
{
	struct mcm_attach *a;
	struct mcm_member *m;
	union ibv_gid mgid;
	int ret;

	m = mcm_table_find(&ch->members, joined->ctx_id, joined->handle);
	if (!m)
		return -EADDRNOTAVAIL;
	if (m->join_flags == RDMA_MCM_JOIN_SENDONLY_FULLMEMBER)
		return -EOPNOTSUPP;
	a = calloc(1, sizeof(*a));
	if (!a)
		return -ENOMEM;
	memcpy(mgid.raw, joined->mgid, sizeof(mgid.raw));
	ret = verbs_err(ibv_attach_mcast(qp, &mgid, joined->mlid));
	if (ret) {
		free(a);
		return ret;
	}
	/* remembered, so that leave_detach detaches whatever the state */
	a->qp = qp;
	memcpy(a->mgid, joined->mgid, sizeof(a->mgid));
	a->mlid = joined->mlid;
	a->next = m->attached;
	m->attached = a;
	return 0;
}

MCM_EXPORT int rdma_mcm_attach_qp(struct rdma_mcm_channel *ch,
				  struct ibv_qp *qp,
				  const struct rdma_mcm_event *joined)
{
	int ret;

	if (!ch || !qp || !joined || joined->event != RDMA_MCM_EVENT_JOINED)
		return mcm_result(-EINVAL);
	pthread_mutex_lock(&ch->lock);
	ret = attach_qp(ch, qp, joined);
	pthread_mutex_unlock(&ch->lock);
	return mcm_result(ret);
}

/* Detach @qp from each group the library attached it to for @m. */
static int detach_recorded(struct mcm_member *m, struct ibv_qp *qp)
{
	struct mcm_attach **pp = &m->attached, *a;
	union ibv_gid mgid;
	int found = 0;

	while ((a = *pp)) {
		if (a->qp != qp) {
			pp = &a->next;
			continue;
		}
		memcpy(mgid.raw, a->mgid, sizeof(mgid.raw));
		ibv_detach_mcast(qp, &mgid, a->mlid);
		*pp = a->next;
		free(a);
		found = 1;
	}
	return found;
}

static int is_zero(const uint8_t *p, size_t n)
{
	while (n--)
		if (*p++)
			return 0;
	return 1;
}

/*
 * A QP the application attached itself: detach it from the group the
 * kernel reports, if it reports one (joined, or in error after joining).
 */
static void detach_reported(struct rdma_mcm_channel *ch, uint32_t ctx_id,
			    uint32_t handle, struct ibv_qp *qp)
{
	MCM_WIRE(struct rdma_mcm_query, w_query) q;
	union ibv_gid mgid;

	memset(&q, 0, sizeof(q));
	q.s.ctx_id = ctx_id;
	q.s.handle = handle;
	if (mcm_ioctl(ch, RDMA_MCM_IOC_QUERY, &q, sizeof(q)) ||
	    q.s.member.join_flags == RDMA_MCM_JOIN_SENDONLY_FULLMEMBER ||
	    is_zero(q.s.member.mgid, sizeof(q.s.member.mgid)))
		return;
	memcpy(mgid.raw, q.s.member.mgid, sizeof(mgid.raw));
	ibv_detach_mcast(qp, &mgid, q.s.member.mlid);
}

MCM_EXPORT int rdma_mcm_leave_detach(struct rdma_mcm_channel *ch,
				     uint32_t ctx_id, uint32_t handle,
				     struct ibv_qp *qp)
{
	struct mcm_member *m;
	int ret;

	if (!ch)
		return mcm_result(-EINVAL);
	pthread_mutex_lock(&ch->lock);
	/* a failed detach (not attached) does not stop the leave */
	m = mcm_table_find(&ch->members, ctx_id, handle);
	if (qp && !(m && detach_recorded(m, qp)))
		detach_reported(ch, ctx_id, handle, qp);
	ret = mcm_leave_locked(ch, ctx_id, handle, NULL, NULL);
	pthread_mutex_unlock(&ch->lock);
	return mcm_result(ret);
}

MCM_EXPORT int rdma_mcm_init_ah_attr(const struct rdma_mcm_event *joined,
				     uint8_t sgid_index,
				     struct ibv_ah_attr *attr)
{
	if (!joined || !attr || joined->event != RDMA_MCM_EVENT_JOINED) {
		errno = EINVAL;
		return -1;
	}
	memset(attr, 0, sizeof(*attr));
	attr->dlid = joined->mlid;
	attr->sl = joined->sl;
	attr->port_num = joined->port_num;
	attr->is_global = joined->is_global;
	memcpy(attr->grh.dgid.raw, joined->dgid, sizeof(attr->grh.dgid.raw));
	attr->grh.flow_label = joined->flow_label;
	attr->grh.hop_limit = joined->hop_limit;
	attr->grh.traffic_class = joined->traffic_class;
	attr->grh.sgid_index = sgid_index;
	return 0;
}

static int gid_is_v4mapped(const uint8_t *gid)
{
	static const uint8_t prefix[12] = {
		0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff
	};

	return !memcmp(gid, prefix, sizeof(prefix));
}

static int gid_is_zero(const uint8_t *gid)
{
	static const uint8_t zero[16];

	return !memcmp(gid, zero, sizeof(zero));
}

/* A context's source address, as a GID */
struct mcm_src {
	uint8_t gid[16];
	uint32_t ifindex;		/* netdev of a scoped IPv6 address, or 0 */
};

/*
 * The index of the source address's own GID on @port: on RoCE a RoCE v2
 * entry (on the source's netdev, for a scoped IPv6 address), on
 * InfiniBand any entry (an AF_IB source). -1 if the table has none.
 */
static int source_gid_index(struct ibv_context *ctx, uint8_t port,
			    const struct ibv_port_attr *pattr,
			    const struct mcm_src *src)
{
	int eth = pattr->link_layer == IBV_LINK_LAYER_ETHERNET;
	struct ibv_gid_entry e;
	int i;

	if (gid_is_zero(src->gid))
		return -1;
	for (i = 0; i < pattr->gid_tbl_len && i <= 255; i++) {
		if (ibv_query_gid_ex(ctx, port, (uint32_t)i, &e, 0) ||
		    memcmp(e.gid.raw, src->gid, sizeof(src->gid)))
			continue;
		if (eth && (e.gid_type != IBV_GID_TYPE_ROCE_V2 ||
			    (src->ifindex && e.ndev_ifindex != src->ifindex)))
			continue;
		return i;
	}
	return -1;
}

/*
 * The source GID index for a group's address handle. With @src (the
 * context's source address): that address's GID on the port, if the
 * table has it. Else, InfiniBand: 0, the port GID; RoCE: the first RoCE
 * v2 GID of the group's kind (IPv4-mapped or not), else the first GID of
 * that kind, else 0.
 */
static uint8_t pick_sgid_index(struct ibv_context *ctx, uint8_t port,
			       const uint8_t *mgid, const struct mcm_src *src)
{
	struct ibv_port_attr pattr;
	struct ibv_gid_entry e;
	int want_v4 = gid_is_v4mapped(mgid);
	int any = -1;
	int i;

	if (ibv_query_port(ctx, port, &pattr))
		return 0;
	if (src) {
		i = source_gid_index(ctx, port, &pattr, src);
		if (i >= 0)
			return (uint8_t)i;
	}
	if (pattr.link_layer != IBV_LINK_LAYER_ETHERNET)
		return 0;
	for (i = 0; i < pattr.gid_tbl_len && i <= 255; i++) {
		if (ibv_query_gid_ex(ctx, port, (uint32_t)i, &e, 0))
			continue;
		if (gid_is_zero(e.gid.raw) ||
		    gid_is_v4mapped(e.gid.raw) != want_v4)
			continue;
		if (e.gid_type == IBV_GID_TYPE_ROCE_V2)
			return (uint8_t)i;
		if (any < 0)
			any = i;
	}
	return any < 0 ? 0 : (uint8_t)any;
}

static struct ibv_ah *create_ah(struct ibv_pd *pd,
				const struct rdma_mcm_event *joined,
				const struct mcm_src *src)
{
	struct ibv_ah_attr attr;
	uint8_t sgid;

	sgid = pick_sgid_index(pd->context, joined->port_num, joined->mgid,
			       src);
	if (rdma_mcm_init_ah_attr(joined, sgid, &attr))
		return NULL;
	return ibv_create_ah(pd, &attr);
}

/* LIBRDMAMCM_1.0: the event alone does not say which context's source */
MCM_EXPORT struct ibv_ah *rdma_mcm_create_ah(struct ibv_pd *pd,
					     const struct rdma_mcm_event *joined)
{
	if (!pd || !joined || joined->event != RDMA_MCM_EVENT_JOINED) {
		errno = EINVAL;
		return NULL;
	}
	return create_ah(pd, joined, NULL);
}

/* LIBRDMAMCM_1.2: the channel names the context, hence its source */
MCM_EXPORT struct ibv_ah *rdma_mcm_create_ah_ex(struct rdma_mcm_channel *ch,
						struct ibv_pd *pd,
						const struct rdma_mcm_event *joined)
{
	struct mcm_src src;
	struct mcm_ctx *c;

	if (!ch || !pd || !joined || joined->event != RDMA_MCM_EVENT_JOINED) {
		errno = EINVAL;
		return NULL;
	}
	pthread_mutex_lock(&ch->lock);
	c = mcm_ctx_find(ch, joined->ctx_id);
	if (c) {
		memcpy(src.gid, c->src_gid, sizeof(src.gid));
		src.ifindex = c->src_ifindex;
	}
	pthread_mutex_unlock(&ch->lock);
	if (!c) {
		errno = ENOENT;
		return NULL;
	}
	return create_ah(pd, joined, &src);
}
