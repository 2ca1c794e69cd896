// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * librdmamcm: libibverbs helpers: attach a UD QP to a joined group,
 * detach and leave, and build an address handle from a JOINED event.
 */
#include <errno.h>
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

MCM_EXPORT int rdma_mcm_attach_qp(struct rdma_mcm_channel *ch,
				  struct ibv_qp *qp,
				  const struct rdma_mcm_event *joined)
{
	union ibv_gid mgid;
	struct mcm_member *m;
	int ret;

	if (!ch || !qp || !joined || joined->event != RDMA_MCM_EVENT_JOINED) {
		errno = EINVAL;
		return -1;
	}
	m = mcm_table_find(&ch->members, joined->ctx_id, joined->handle);
	if (!m) {
		errno = EADDRNOTAVAIL;
		return -1;
	}
	if (m->join_flags == RDMA_MCM_JOIN_SENDONLY_FULLMEMBER) {
		errno = EOPNOTSUPP;
		return -1;
	}
	memcpy(mgid.raw, joined->mgid, sizeof(mgid.raw));
	ret = verbs_err(ibv_attach_mcast(qp, &mgid, joined->mlid));
	if (ret) {
		errno = -ret;
		return -1;
	}
	return 0;
}

MCM_EXPORT int rdma_mcm_leave_detach(struct rdma_mcm_channel *ch,
				     uint32_t ctx_id, uint32_t handle,
				     struct ibv_qp *qp)
{
	struct rdma_mcm_member mb;
	union ibv_gid mgid;

	if (!ch) {
		errno = EINVAL;
		return -1;
	}
	/*
	 * Only a joined full member can have been attached. A failed detach
	 * (the QP was not attached) does not stop the leave.
	 */
	if (qp && !rdma_mcm_query(ch, ctx_id, handle, &mb) &&
	    mb.state == RDMA_MCM_STATE_JOINED &&
	    mb.join_flags != RDMA_MCM_JOIN_SENDONLY_FULLMEMBER) {
		memcpy(mgid.raw, mb.mgid, sizeof(mgid.raw));
		ibv_detach_mcast(qp, &mgid, mb.mlid);
	}
	return rdma_mcm_leave(ch, ctx_id, handle);
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

/*
 * The source GID index for a group's address handle. InfiniBand: 0, the
 * port GID. RoCE: the first RoCE v2 GID of the group's kind (IPv4-mapped
 * or not), else the first GID of that kind, else 0.
 */
static uint8_t pick_sgid_index(struct ibv_context *ctx, uint8_t port,
			       const uint8_t *mgid)
{
	struct ibv_port_attr pattr;
	struct ibv_gid_entry e;
	int want_v4 = gid_is_v4mapped(mgid);
	int any = -1;
	int i;

	if (ibv_query_port(ctx, port, &pattr) ||
	    pattr.link_layer != IBV_LINK_LAYER_ETHERNET)
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

MCM_EXPORT struct ibv_ah *rdma_mcm_create_ah(struct ibv_pd *pd,
					     const struct rdma_mcm_event *joined)
{
	struct ibv_ah_attr attr;
	uint8_t sgid;

	if (!pd || !joined || joined->event != RDMA_MCM_EVENT_JOINED) {
		errno = EINVAL;
		return NULL;
	}
	sgid = pick_sgid_index(pd->context, joined->port_num, joined->mgid);
	if (rdma_mcm_init_ah_attr(joined, sgid, &attr))
		return NULL;
	return ibv_create_ah(pd, &attr);
}
