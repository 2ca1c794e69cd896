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

/* Detach one record's QP from its group (verbs errors ignored) */
static void detach_one(struct mcm_attach *a)
{
	union ibv_gid mgid;

	memcpy(mgid.raw, a->mgid, sizeof(mgid.raw));
	ibv_detach_mcast(a->qp, &mgid, a->mlid);
}

/*
 * heal.c, when @m is lost to a rejoin: detach its QPs and keep them for
 * rdma_mcm_reattach_qp(), or (@forget: the device is going, the QPs with
 * it) detach and forget them.
 */
static void detach_for_rejoin(struct mcm_member *m, int forget)
{
	struct mcm_attach **pp = &m->attached, *a;

	while ((a = *pp)) {
		if (!a->detached)
			detach_one(a);
		a->detached = 1;
		if (!forget) {
			pp = &a->next;
			continue;
		}
		*pp = a->next;
		free(a);
	}
}

/* @qp's record on @m that a rejoin detached, or NULL */
static struct mcm_attach *find_attach(struct mcm_member *m, struct ibv_qp *qp)
{
	struct mcm_attach *a;

	for (a = m->attached; a; a = a->next)
		if (a->qp == qp && a->detached)
			return a;
	return NULL;
}

/* Attach @a's QP to the group of @ev (JOINED or REJOINED); 0 or -errno */
static int attach_rec(struct mcm_attach *a, const struct rdma_mcm_event *ev)
{
	union ibv_gid mgid;
	int ret;

	memcpy(mgid.raw, ev->mgid, sizeof(mgid.raw));
	ret = verbs_err(ibv_attach_mcast(a->qp, &mgid, ev->mlid));
	if (ret)
		return ret;
	memcpy(a->mgid, ev->mgid, sizeof(a->mgid));
	a->mlid = ev->mlid;
	a->detached = 0;
	return 0;
}

/*
 * The membership of @ev, if a QP may be attached to its group now:
 * -EADDRNOTAVAIL (not this channel's), -EOPNOTSUPP (send-only), -EAGAIN
 * (waiting to be joined again: attach on REJOINED), -EINVAL (a healing
 * context whose REJOINED the application does not get: it could never
 * attach again after a rejoin).
 */
static struct mcm_member *attachable(struct rdma_mcm_channel *ch,
				     const struct rdma_mcm_event *ev, int *err)
{
	struct mcm_member *m;
	struct mcm_ctx *c;

	m = mcm_table_find(&ch->members, ev->ctx_id, ev->handle);
	c = mcm_ctx_find(ch, ev->ctx_id);
	*err = -EADDRNOTAVAIL;
	if (!m || !c)
		return NULL;
	*err = -EOPNOTSUPP;
	if (m->join_flags == RDMA_MCM_JOIN_SENDONLY_FULLMEMBER)
		return NULL;
	*err = -EAGAIN;
	if (m->waiting)
		return NULL;
	*err = -EINVAL;
	if (c->flags & RDMA_MCM_CTX_HEAL &&
	    !mcm_wanted(ch->app_events, RDMA_MCM_EVENT_REJOINED))
		return NULL;
	return m;
}

static int attach_qp(struct rdma_mcm_channel *ch, struct ibv_qp *qp,
		     const struct rdma_mcm_event *joined)
{
	struct mcm_attach *a;
	struct mcm_member *m;
	int ret, fresh = 0;

	m = attachable(ch, joined, &ret);
	if (!m)
		return ret;
	/* a QP the library detached for a rejoin is attached again */
	a = find_attach(m, qp);
	if (!a) {
		a = calloc(1, sizeof(*a));
		if (!a)
			return -ENOMEM;
		a->qp = qp;
		fresh = 1;
	}
	ret = attach_rec(a, joined);
	if (ret) {
		if (fresh)
			free(a);
		return ret;
	}
	/* remembered, so that leave_detach detaches whatever the state */
	if (fresh) {
		a->next = m->attached;
		m->attached = a;
	}
	ch->detach_hook = detach_for_rejoin;
	return 0;
}

MCM_EXPORT int rdma_mcm_attach_qp(struct rdma_mcm_channel *ch,
				  struct ibv_qp *qp,
				  const struct rdma_mcm_event *joined)
{
	int ret;

	if (!ch || !qp || !joined || !mcm_is_joined_event(joined->event))
		return mcm_result(-EINVAL);
	pthread_mutex_lock(&ch->lock);
	ret = attach_qp(ch, qp, joined);
	pthread_mutex_unlock(&ch->lock);
	return mcm_result(ret);
}

/* LIBRDMAMCM_1.3: every QP detached at REJOINING, to the new group */
static int reattach(struct rdma_mcm_channel *ch,
		    const struct rdma_mcm_event *ev)
{
	struct mcm_attach *a;
	struct mcm_member *m;
	int ret, n = 0;

	m = attachable(ch, ev, &ret);
	if (!m)
		return ret;
	for (a = m->attached; a; a = a->next) {
		if (!a->detached)
			continue;
		ret = attach_rec(a, ev);
		if (ret)
			return ret;
		n++;
	}
	return n;
}

MCM_EXPORT int rdma_mcm_reattach_qp(struct rdma_mcm_channel *ch,
				    const struct rdma_mcm_event *rejoined)
{
	int ret;

	if (!ch || !rejoined || !mcm_is_joined_event(rejoined->event))
		return mcm_result(-EINVAL);
	pthread_mutex_lock(&ch->lock);
	ret = reattach(ch, rejoined);
	pthread_mutex_unlock(&ch->lock);
	return mcm_result(ret);
}

/*
 * Detach @qp from each group the library attached it to for @m (a record
 * detached for a rejoin is only forgotten). Returns whether there was one.
 */
static int detach_recorded(struct mcm_member *m, struct ibv_qp *qp)
{
	struct mcm_attach **pp = &m->attached, *a;
	int found = 0;

	while ((a = *pp)) {
		if (a->qp != qp) {
			pp = &a->next;
			continue;
		}
		if (!a->detached)
			detach_one(a);
		*pp = a->next;
		free(a);
		found = 1;
	}
	return found;
}

struct detach_arg {
	struct ibv_qp *qp;
};

/* Detach (unless a rejoin did) and forget @qp's records on @m, or all */
static void forget_qp(struct mcm_member *m, void *arg)
{
	struct ibv_qp *qp = ((struct detach_arg *)arg)->qp;
	struct mcm_attach **pp = &m->attached, *a;

	while ((a = *pp)) {
		if (qp && a->qp != qp) {
			pp = &a->next;
			continue;
		}
		if (!a->detached)
			detach_one(a);
		*pp = a->next;
		free(a);
	}
}

/* LIBRDMAMCM_1.3: detach without leaving, before the QP is destroyed */
MCM_EXPORT int rdma_mcm_detach_qp(struct rdma_mcm_channel *ch,
				  uint32_t ctx_id, uint32_t handle,
				  struct ibv_qp *qp)
{
	struct detach_arg arg = { .qp = qp };
	struct mcm_member *m = NULL;
	int ret = 0;

	if (!ch)
		return mcm_result(-EINVAL);
	pthread_mutex_lock(&ch->lock);
	if (!mcm_ctx_find(ch, ctx_id)) {
		ret = -ENOENT;
	} else if (!handle) {
		mcm_table_each_ctx(&ch->members, ctx_id, forget_qp, &arg);
	} else {
		m = mcm_table_find(&ch->members, ctx_id, handle);
		if (m)
			forget_qp(m, &arg);
		else
			ret = -EADDRNOTAVAIL;
	}
	pthread_mutex_unlock(&ch->lock);
	return mcm_result(ret);
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
	if (!joined || !attr || !mcm_is_joined_event(joined->event)) {
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
	if (!pd || !joined || !mcm_is_joined_event(joined->event)) {
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
	struct mcm_where w;
	struct mcm_src src;
	struct mcm_ctx *c;
	uint32_t scope;
	int known = 0, ret;

	if (!ch || !pd || !joined || !mcm_is_joined_event(joined->event)) {
		errno = EINVAL;
		return NULL;
	}
	pthread_mutex_lock(&ch->lock);
	c = mcm_ctx_find(ch, joined->ctx_id);
	if (c && c->src_known) {
		memcpy(src.gid, c->src_gid, sizeof(src.gid));
		src.ifindex = c->src_ifindex;
		known = 1;
	}
	pthread_mutex_unlock(&ch->lock);
	if (!c) {
		errno = ENOENT;
		return NULL;
	}
	/* a ROUTE context's source: the kernel's (or the route's), once */
	if (!known) {
		ret = mcm_ctx_where(ch, joined->ctx_id, &w);
		if (ret == -ENOENT) {
			errno = ENOENT;
			return NULL;
		}
		memset(src.gid, 0, sizeof(src.gid));
		src.ifindex = w.ifindex;
		if (!ret)
			mcm_addr_gid((struct sockaddr *)&w.src, src.gid, &scope);
	}
	return create_ah(pd, joined, &src);
}
