// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * rdma_mcm: the membership state machine. Every state change of every
 * membership goes through rdma_mcm_set_state(); the table below is the
 * whole of it (Documentation/manager.rst draws it).
 *
 *   JOINING --join event, QP attached--> JOINED
 *   JOINING --permanent error, attach failed, device gone--> ERROR
 *   JOINED  --permanent error, device gone--> ERROR
 *   JOINING/JOINED --healing context: transient error, device gone--> WAITING
 *   WAITING --rejoin sent--> JOINING
 *   WAITING --the rejoin was refused for good--> ERROR
 *   JOINING/JOINED/WAITING/ERROR --leave (of a JOINING one: cancel)--> LEAVING
 *   LEAVING --rdma_cm membership dropped, QP detached--> LEFT
 *
 * A context that does not heal never sees WAITING. ERROR is final until
 * the membership is left: only transient losses wait.
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

/**
 * rdma_mcm_set_state() - the one place a membership changes state
 * @mb: the membership
 * @to: the new state
 * @status: the error for %RDMA_MCM_ERROR, the reason for %RDMA_MCM_WAITING;
 *	ignored otherwise
 *
 * Context: the context's spinlock held.
 * Return: true if the transition was made; false (with a one-time warning:
 * it is a bug in the caller) if the state machine forbids it.
 */
bool rdma_mcm_set_state(struct rdma_mcm_membership *mb, enum rdma_mcm_state to,
			int status)
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
		mb->state_time_ns = ktime_get_boottime_ns();
	rdma_mcm_observe_state(mb, from, to, mb->status);
	return true;
}
