// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * rdma_mcm: the hooks the manager calls at each change of a membership or
 * context. Each counts (rdma_mcm_counters.c), fires its tracepoint
 * (rdma_mcm_trace.h) and tells the netlink "events" group
 * (rdma_mcm_netlink.c), in that order, in the caller's context: under the
 * context's spinlock for state changes, so that one context's events are
 * sent in the order they happen. Nothing here sleeps or calls a ULP.
 */
#include <linux/bitops.h>
#include <linux/string.h>

#include "rdma_mcm_internal.h"

#define CREATE_TRACE_POINTS
#include "rdma_mcm_trace.h"

/* A group as the tracepoints show it: IPv6, IPv4-mapped, or the MGID. */
static void rdma_mcm_group_bytes(const struct rdma_mcm_membership *mb,
				 u8 out[16])
{
	switch (mb->group.sa.sa_family) {
	case AF_INET:
		ipv6_addr_set_v4mapped(mb->group.in.sin_addr.s_addr,
				       (struct in6_addr *)out);
		break;
	case AF_INET6:
		memcpy(out, &mb->group.in6.sin6_addr, 16);
		break;
	case AF_IB:
		memcpy(out, &mb->group.ib.sib_addr, 16);
		break;
	default:
		memset(out, 0, 16);
		break;
	}
}

/**
 * rdma_mcm_observe_join() - a join was asked for; the membership is
 *	published and its join about to be sent
 * @mb: the membership
 *
 * rdma_mcm_join() counts it once it knows whether the join was sent.
 *
 * Context: @mb's context's mutex and spinlock held.
 */
void rdma_mcm_observe_join(struct rdma_mcm_membership *mb)
{
	u8 group[16];

	if (trace_mcm_join_enabled()) {
		rdma_mcm_group_bytes(mb, group);
		trace_mcm_join(mb->ctx->id, mb->handle, group, mb->join_type);
	}
	rdma_mcm_nl_member_event(mb, RDMA_MCM_NL_EV_JOIN, 0,
				 mb->state);
}

/**
 * rdma_mcm_observe_join_refused() - a published join failed to be sent
 * @mb: the membership, unpublished in the same hold of the context's lock
 * @err: the errno its caller gets
 *
 * Its JOIN event was sent: a LEAVE with the errno ends it.
 */
void rdma_mcm_observe_join_refused(struct rdma_mcm_membership *mb, int err)
{
	rdma_mcm_nl_member_event(mb, RDMA_MCM_NL_EV_LEAVE, err,
				 RDMA_MCM_JOINING);
}

/**
 * rdma_mcm_observe_state() - a membership changed state
 * @mb: the membership
 * @from: its old state
 * @to: its new state
 * @status: its status (error, or reason to wait)
 *
 * Context: @mb's context's spinlock held.
 */
void rdma_mcm_observe_state(struct rdma_mcm_membership *mb, int from, int to,
			    int status)
{
	struct rdma_mcm_ctx *ctx = mb->ctx;

	trace_mcm_state(ctx->id, mb->handle, from, to, status);
	switch (to) {
	case RDMA_MCM_JOINED:
		rdma_mcm_count(ctx, RDMA_MCM_CNT_JOINED);
		rdma_mcm_nl_member_event(mb, RDMA_MCM_NL_EV_JOINED, 0, to);
		break;
	case RDMA_MCM_ERROR:
		rdma_mcm_count_error(ctx, RDMA_MCM_CNT_ERRORS, status);
		rdma_mcm_nl_member_event(mb, RDMA_MCM_NL_EV_ERROR, status, to);
		break;
	case RDMA_MCM_WAITING:
		rdma_mcm_count_error(ctx, RDMA_MCM_CNT_WAITS, status);
		rdma_mcm_nl_member_event(mb, RDMA_MCM_NL_EV_WAITING, status,
					 to);
		break;
	default:
		break;
	}
}

/**
 * rdma_mcm_observe_leave() - a published membership is being left
 * @mb: the membership
 * @from: its state before the leave (JOINING: a cancel)
 *
 * Context: @mb's context's spinlock held.
 */
void rdma_mcm_observe_leave(struct rdma_mcm_membership *mb, int from)
{
	u8 group[16];

	/*
	 * a cancel is the leave of a join in flight of a membership never
	 * joined (its first join, or that join tried again after a transient
	 * error); a rejoin in flight is left, not cancelled
	 */
	rdma_mcm_count(mb->ctx, from == RDMA_MCM_JOINING && !mb->ever_joined ?
				RDMA_MCM_CNT_CANCELS : RDMA_MCM_CNT_LEAVES);
	if (trace_mcm_leave_enabled()) {
		rdma_mcm_group_bytes(mb, group);
		trace_mcm_leave(mb->ctx->id, mb->handle, group, from);
	}
	rdma_mcm_nl_member_event(mb, RDMA_MCM_NL_EV_LEAVE, 0, from);
}

/**
 * rdma_mcm_observe_rejoin() - a waiting membership is joined again
 * @mb: the membership, JOINING again
 *
 * Context: @mb's context's spinlock held.
 */
void rdma_mcm_observe_rejoin(struct rdma_mcm_membership *mb)
{
	rdma_mcm_count(mb->ctx, RDMA_MCM_CNT_REJOINS);
	trace_mcm_rejoin(mb->ctx->id, mb->handle, mb->rejoins,
			 mb->last_status);
	rdma_mcm_nl_member_event(mb, RDMA_MCM_NL_EV_REJOIN, mb->last_status,
				 mb->state);
}

/**
 * rdma_mcm_observe_deliver() - an event goes to its owner
 * @ctx: the context
 * @mb: the membership, or NULL for the context's own notice
 * @what: RDMA_MCM_NOTIFY_*, or RDMA_MCM_NOTIFY_DEVICE_REMOVED/_ADDED
 *
 * Context: any; does not sleep.
 */
void rdma_mcm_observe_deliver(struct rdma_mcm_ctx *ctx,
			      struct rdma_mcm_membership *mb, int what)
{
	rdma_mcm_count(ctx, RDMA_MCM_CNT_DELIVERED);
	trace_mcm_deliver(ctx->id, mb ? mb->handle : 0, what,
			  mb ? mb->status : 0);
}

/**
 * rdma_mcm_observe_device() - a context lost its device, or found one
 * @ctx: the context
 * @lost: lost (else found again)
 * @dev_name: the device's name
 *
 * Context: the context's mutex held.
 */
void rdma_mcm_observe_device(struct rdma_mcm_ctx *ctx, bool lost,
			     const char *dev_name)
{
	rdma_mcm_count(ctx, lost ? RDMA_MCM_CNT_DEVICE_LOSSES :
				   RDMA_MCM_CNT_DEVICE_ADDS);
	trace_mcm_device_loss(ctx->id, dev_name, lost);
	rdma_mcm_nl_ctx_event(ctx, lost ? RDMA_MCM_NL_EV_DEVICE_LOST :
					  RDMA_MCM_NL_EV_DEVICE_ADDED, dev_name);
}
