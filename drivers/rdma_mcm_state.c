// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * rdma_mcm: the membership state machine. The table below is the whole of
 * it (Documentation/manager.rst draws it), and every transition is made,
 * with what it does besides, by one function of this file; each is called
 * with the context's spinlock held. Each arrow names its function:
 *
 *   JOINING --join event, QP attached--> JOINED      rdma_mcm_mb_joined()
 *   JOINING --permanent error, device gone--> ERROR  rdma_mcm_mb_lost()
 *   JOINING --attach failed--> ERROR                 rdma_mcm_mb_failed()
 *   JOINED  --permanent error, device gone--> ERROR  rdma_mcm_mb_lost()
 *   JOINED  --attach of a new QP failed--> ERROR     rdma_mcm_mb_failed()
 *   JOINING/JOINED --healing context: transient error, device gone-->
 *           WAITING                                  rdma_mcm_mb_lost()
 *   WAITING --rejoin sent--> JOINING                 rdma_mcm_mb_rejoining()
 *   JOINING (a rejoin) --not sent: transient--> WAITING, or
 *           --refused for good--> ERROR              rdma_mcm_mb_lost()
 *   JOINING --first join not sent--> LEAVING         rdma_mcm_mb_refused()
 *   JOINING/JOINED/WAITING/ERROR --leave (of a JOINING one: cancel)-->
 *           LEAVING                                  rdma_mcm_mb_leaving()
 *   LEAVING --rdma_cm membership dropped, QP detached--> LEFT
 *                                                    rdma_mcm_mb_left()
 *
 * A context that does not heal never sees WAITING. ERROR is final until
 * the membership is left: only transient losses wait. What a membership
 * holds of its group (QP attachment, rdma_cm's and rdma_mcm's own
 * membership, its place on an id, the join's address handle) is let go of
 * by rdma_mcm_member_let_go() (rdma_mcm_member.c), after it left JOINING
 * or JOINED for WAITING or LEAVING, or when an attach failed.
 */
#include <linux/bug.h>
#include <linux/lockdep.h>
#include <linux/ktime.h>
#include <linux/timekeeping.h>

#include "rdma_mcm_internal.h"

static const bool rdma_mcm_transitions[RDMA_MCM_NR_STATES][RDMA_MCM_NR_STATES] = {
	[RDMA_MCM_JOINING] = {
		[RDMA_MCM_JOINED]  = true,
		[RDMA_MCM_ERROR]   = true,
		[RDMA_MCM_WAITING] = true,
		[RDMA_MCM_LEAVING] = true,
	},
	[RDMA_MCM_JOINED] = {
		[RDMA_MCM_ERROR]   = true,
		[RDMA_MCM_WAITING] = true,
		[RDMA_MCM_LEAVING] = true,
	},
	[RDMA_MCM_ERROR] = {
		[RDMA_MCM_LEAVING] = true,
	},
	[RDMA_MCM_WAITING] = {
		[RDMA_MCM_JOINING] = true,
		[RDMA_MCM_ERROR]   = true,
		[RDMA_MCM_LEAVING] = true,
	},
	[RDMA_MCM_LEAVING] = {
		[RDMA_MCM_LEFT]    = true,
	},
};

static const char * const rdma_mcm_state_names[RDMA_MCM_NR_STATES] = {
	[RDMA_MCM_JOINING] = "joining",
	[RDMA_MCM_JOINED]  = "joined",
	[RDMA_MCM_ERROR]   = "error",
	[RDMA_MCM_WAITING] = "waiting",
	[RDMA_MCM_LEAVING] = "leaving",
	[RDMA_MCM_LEFT]    = "left",
};

/**
 * rdma_mcm_state_name() - printable name of a membership state
 * @state: the state
 *
 * Return: "joining", "joined", "error", "waiting", "leaving", "left", or
 * "invalid".
 */
const char *rdma_mcm_state_name(enum rdma_mcm_state state)
{
	if ((unsigned int)state >= RDMA_MCM_NR_STATES)
		return "invalid";
	return rdma_mcm_state_names[state];
}
EXPORT_SYMBOL_GPL(rdma_mcm_state_name);

/**
 * rdma_mcm_transition_valid() - may a membership go from one state to another
 * @from: current state
 * @to: next state
 *
 * Return: true when the state machine allows it.
 */
bool rdma_mcm_transition_valid(enum rdma_mcm_state from, enum rdma_mcm_state to)
{
	if ((unsigned int)from >= RDMA_MCM_NR_STATES ||
	    (unsigned int)to >= RDMA_MCM_NR_STATES)
		return false;
	return rdma_mcm_transitions[from][to];
}

/*
 * The one place a membership changes state: @status is the error for
 * %RDMA_MCM_ERROR, the reason for %RDMA_MCM_WAITING, ignored otherwise.
 * Returns true if the transition was made; false (with a one-time warning:
 * it is a bug in the caller) if the state machine forbids it. The
 * context's spinlock held.
 */
static bool rdma_mcm_set_state(struct rdma_mcm_membership *mb,
			       enum rdma_mcm_state to, int status)
{
	enum rdma_mcm_state from = mb->state;

	lockdep_assert_held(&mb->ctx->lock);

	if (WARN_ON_ONCE(!rdma_mcm_transition_valid(from, to)))
		return false;
	mb->state = to;
	mb->status = to == RDMA_MCM_ERROR || to == RDMA_MCM_WAITING ? status : 0;
	if (mb->status)
		mb->last_status = mb->status;
	/* nobody sees a leaving or left membership, nor when it became so */
	if (to != RDMA_MCM_LEAVING && to != RDMA_MCM_LEFT)
		mb->state_time_ns = ktime_get_coarse_boottime_ns();
	rdma_mcm_observe_state(mb, from, to, mb->status);
	return true;
}

/**
 * rdma_mcm_mb_joined() - JOINING to JOINED: the join's event came, its QP
 *	(if any) is attached
 * @mb: the membership
 *
 * Joined again, if its ULP was told of a JOINED before: then it counts in
 * @mb->rejoins. Its backoff starts over.
 *
 * Context: the context's spinlock held.
 */
void rdma_mcm_mb_joined(struct rdma_mcm_membership *mb)
{
	rdma_mcm_set_state(mb, RDMA_MCM_JOINED, 0);
	if (mb->ever_joined)
		mb->rejoins++;
	mb->backoff_ms = 0;
}

/**
 * rdma_mcm_mb_lost() - JOINING or JOINED to WAITING or ERROR: a loss
 * @ctx: the context
 * @mb: the membership, %RDMA_MCM_JOINING or %RDMA_MCM_JOINED
 * @status: why: an event's status (mapped), -ENODEV for a lost device, or
 *	the error of a rejoin that could not be sent
 * @tell: queue a REJOINING for a loss that waits; false for a rejoin that
 *	failed, whose ULP was told when the membership first waited
 *
 * The decision to wait or fail, made once: a loss waits for a rejoin
 * (WAITING) when @ctx heals and @status is transient (rdma_mcm_heals()),
 * else it fails (ERROR, with an ERROR queued). The caller kicks the work,
 * and makes a waiting membership let go (rdma_mcm_wait_start(),
 * rdma_mcm_member_lose_device()).
 *
 * Context: @ctx->lock held.
 * Return: true when the membership now waits.
 */
bool rdma_mcm_mb_lost(struct rdma_mcm_ctx *ctx, struct rdma_mcm_membership *mb,
		      int status, bool tell)
{
	lockdep_assert_held(&ctx->lock);
	if (rdma_mcm_heals(ctx, status)) {
		if (!rdma_mcm_set_state(mb, RDMA_MCM_WAITING, status))
			return false;
		if (tell)
			rdma_mcm_notify(ctx, mb, RDMA_MCM_NOTIFY_REJOINING);
		return true;
	}
	rdma_mcm_set_state(mb, RDMA_MCM_ERROR, status);
	rdma_mcm_notify(ctx, mb, RDMA_MCM_NOTIFY_ERROR);
	return false;
}

/**
 * rdma_mcm_mb_failed() - JOINING or JOINED to ERROR: its QP's attach failed
 * @ctx: the context
 * @mb: the membership, already let go of its group
 * @err: the attach's error
 * @tell: queue its ERROR; false when the caller delivers it in the same
 *	pass (the work's join that failed to attach, rdma_mcm_finish_join())
 *
 * Context: @ctx->lock held.
 */
void rdma_mcm_mb_failed(struct rdma_mcm_ctx *ctx,
			struct rdma_mcm_membership *mb, int err, bool tell)
{
	lockdep_assert_held(&ctx->lock);
	rdma_mcm_set_state(mb, RDMA_MCM_ERROR, err);
	if (tell)
		rdma_mcm_notify(ctx, mb, RDMA_MCM_NOTIFY_ERROR);
}

/**
 * rdma_mcm_mb_rejoining() - WAITING to JOINING: its rejoin is being sent
 * @mb: the membership, off the waiting list
 *
 * Context: the context's mutex and spinlock held.
 */
void rdma_mcm_mb_rejoining(struct rdma_mcm_membership *mb)
{
	rdma_mcm_set_state(mb, RDMA_MCM_JOINING, 0);
	rdma_mcm_observe_rejoin(mb);
}

/**
 * rdma_mcm_mb_refused() - JOINING to LEAVING: a published first join could
 *	not be sent
 * @ctx: the context
 * @mb: the membership
 * @err: the errno rdma_mcm_join() returns
 *
 * An event it queued meanwhile is dropped; the caller unpublishes it
 * (rdma_mcm_handle_del()) in the same hold of the lock.
 *
 * Context: @ctx->mutex and @ctx->lock held.
 */
void rdma_mcm_mb_refused(struct rdma_mcm_ctx *ctx,
			 struct rdma_mcm_membership *mb, int err)
{
	lockdep_assert_held(&ctx->lock);
	rdma_mcm_set_state(mb, RDMA_MCM_LEAVING, 0);
	rdma_mcm_unnotify(ctx, mb);
	rdma_mcm_observe_join_refused(mb, err);
}

/**
 * rdma_mcm_mb_leaving() - to LEAVING: left (or, JOINING, cancelled)
 * @ctx: the context
 * @mb: the membership, off the waiting list
 *
 * Nothing queued for it is delivered any more; no callback for it starts.
 * The caller unpublishes it in the same hold of the lock, then lets go of
 * its group and makes it LEFT.
 *
 * Context: @ctx->mutex and @ctx->lock held.
 */
void rdma_mcm_mb_leaving(struct rdma_mcm_ctx *ctx,
			 struct rdma_mcm_membership *mb)
{
	enum rdma_mcm_state from = mb->state;

	lockdep_assert_held(&ctx->lock);
	rdma_mcm_set_state(mb, RDMA_MCM_LEAVING, 0);
	rdma_mcm_observe_leave(mb, from);
	rdma_mcm_unnotify(ctx, mb);
}

/**
 * rdma_mcm_mb_left() - LEAVING to LEFT: it holds nothing of its group
 * @mb: the membership, out of its context's tables
 *
 * Context: the context's spinlock held.
 */
void rdma_mcm_mb_left(struct rdma_mcm_membership *mb)
{
	rdma_mcm_set_state(mb, RDMA_MCM_LEFT, 0);
}
