// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * librdmamcm: what the library does itself when a healing context's
 * membership is lost and joined again, whatever event types the
 * application asked for (every event read from the kernel passes here
 * first, under the channel's lock):
 *
 *  - REJOINING: the membership is WAITING; the QPs the library attached
 *    to its group are detached (verbs.c) and kept, to be attached again
 *    with rdma_mcm_reattach_qp() once REJOINED comes; with status
 *    -ENODEV (the device goes) they are forgotten instead: they must be
 *    destroyed with their device;
 *  - DEVICE_REMOVED of a healing context: what is left attached in it is
 *    detached and forgotten, for the same reason;
 *  - DEVICE_REMOVED and DEVICE_ADDED: a ROUTE context's source address is
 *    looked up again when it is next needed (the route may have changed);
 *  - JOINED, REJOINED: the membership is no longer waiting.
 *
 * A non-healing context's QPs are left alone: its memberships end in
 * ERROR, and rdma_mcm_leave_detach() detaches them (librdmamcm(7)).
 */
#include "rdma_mcm_priv.h"

int mcm_is_joined_event(uint32_t type)
{
	return type == RDMA_MCM_EVENT_JOINED || type == RDMA_MCM_EVENT_REJOINED;
}

static void forget_attached(struct mcm_member *m, void *arg)
{
	struct rdma_mcm_channel *ch = arg;

	if (m->attached)
		ch->detach_hook(m, 1);
}

void mcm_track_event(struct rdma_mcm_channel *ch, struct mcm_member *m,
		     const struct rdma_mcm_event *ev)
{
	struct mcm_ctx *c;

	switch (ev->event) {
	case RDMA_MCM_EVENT_JOINED:
	case RDMA_MCM_EVENT_REJOINED:
		if (m)
			m->waiting = 0;
		break;
	case RDMA_MCM_EVENT_REJOINING:
		if (!m)
			break;
		m->waiting = 1;
		if (m->attached && ch->detach_hook)
			ch->detach_hook(m, ev->status == -ENODEV);
		break;
	case RDMA_MCM_EVENT_DEVICE_REMOVED:
	case RDMA_MCM_EVENT_DEVICE_ADDED:
		c = mcm_ctx_find(ch, ev->ctx_id);
		if (!c)
			break;
		if (c->flags & RDMA_MCM_CTX_ROUTE)
			c->src_known = 0;
		if (ev->event == RDMA_MCM_EVENT_DEVICE_REMOVED &&
		    c->flags & RDMA_MCM_CTX_HEAL && ch->detach_hook)
			mcm_table_each_ctx(&ch->members, c->ctx_id,
					   forget_attached, ch);
		break;
	default:
		break;
	}
}
