// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * rdma_mcm: the real backend, rdma_cm and verbs. Each call is a thin
 * wrapper so that KUnit can put a fake in its place; the manager maps
 * rdma_cm's errors to the ones it documents (rdma_mcm_member.c,
 * rdma_mcm_slot.c), so that the fake's errors go through the same map.
 */
#include <linux/random.h>
#include <linux/ktime.h>
#include <linux/timekeeping.h>
#include <rdma/ib_verbs.h>
#include <rdma/rdma_cm.h>

#include "rdma_mcm_internal.h"

static struct rdma_cm_id *mcm_cm_create_id(const struct rdma_mcm_backend *be,
					   struct net *net,
					   rdma_cm_event_handler handler,
					   void *context)
{
	return rdma_create_id(net, handler, context, RDMA_PS_UDP, IB_QPT_UD);
}

static int mcm_cm_bind_addr(const struct rdma_mcm_backend *be,
			    struct rdma_cm_id *id, struct sockaddr *addr)
{
	return rdma_bind_addr(id, addr);
}

static void mcm_cm_destroy_id(const struct rdma_mcm_backend *be,
			      struct rdma_cm_id *id)
{
	rdma_destroy_id(id);
}

static int mcm_cm_join(const struct rdma_mcm_backend *be,
		       struct rdma_cm_id *id, struct sockaddr *addr,
		       u8 join_state, void *context)
{
	u64 t = rdma_mcm_time_start(RDMA_MCM_TIMED_CM_JOIN);
	int ret;

	ret = rdma_join_multicast(id, addr, join_state, context);
	rdma_mcm_time_end(RDMA_MCM_TIMED_CM_JOIN, t);
	return ret;
}

static void mcm_cm_leave(const struct rdma_mcm_backend *be,
			 struct rdma_cm_id *id, struct sockaddr *addr)
{
	u64 t = rdma_mcm_time_start(RDMA_MCM_TIMED_CM_LEAVE);

	rdma_leave_multicast(id, addr);
	rdma_mcm_time_end(RDMA_MCM_TIMED_CM_LEAVE, t);
}

static int mcm_cm_attach(const struct rdma_mcm_backend *be, struct ib_qp *qp,
			 union ib_gid *gid, u16 lid)
{
	return ib_attach_mcast(qp, gid, lid);
}

static int mcm_cm_detach(const struct rdma_mcm_backend *be, struct ib_qp *qp,
			 union ib_gid *gid, u16 lid)
{
	return ib_detach_mcast(qp, gid, lid);
}

static int mcm_cm_resolve_addr(const struct rdma_mcm_backend *be,
			       struct rdma_cm_id *id, struct sockaddr *dst,
			       unsigned long timeout_ms)
{
	return rdma_resolve_addr(id, NULL, dst, timeout_ms);
}

static u64 mcm_cm_now_ms(const struct rdma_mcm_backend *be)
{
	return ktime_to_ms(ktime_get());
}

static u32 mcm_cm_random(const struct rdma_mcm_backend *be, u32 range)
{
	/* jitter: the modulo's slight bias does not matter */
	return range ? get_random_u32() % range : 0;
}

const struct rdma_mcm_backend rdma_mcm_rdma_cm_backend = {
	.create_id	= mcm_cm_create_id,
	.bind_addr	= mcm_cm_bind_addr,
	.destroy_id	= mcm_cm_destroy_id,
	.join		= mcm_cm_join,
	.leave		= mcm_cm_leave,
	.attach		= mcm_cm_attach,
	.detach		= mcm_cm_detach,
	.resolve_addr	= mcm_cm_resolve_addr,
	.ip_open	= rdma_mcm_net_ip_open,
	.ip_close	= rdma_mcm_net_ip_close,
	.ip_join	= rdma_mcm_net_ip_join,
	.ip_leave	= rdma_mcm_net_ip_leave,
	.roce_ah	= rdma_mcm_net_roce_ah,
	.now_ms		= mcm_cm_now_ms,
	.random		= mcm_cm_random,
};
