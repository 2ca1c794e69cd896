// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * rdma_mcm: healing. A context opened with RDMA_MCM_OPEN_HEAL keeps its
 * memberships through what happens below it.
 *
 * Which losses wait (everything else is an ERROR, as without healing):
 *   -ENETRESET      a port or SM event (ib_sa: port error, LID or SM
 *                   change, client reregister), or an SA query it flushed
 *   -ETIMEDOUT      the SA did not answer
 *   -ENOMEM         memory, below or in rdma_mcm
 *   -ENETDOWN       (a rejoin) the port has no SA record of its partition
 *                   yet: IPoIB is not up again
 *   -ENODEV,        the device went away, or the source address is no
 *   -EADDRNOTAVAIL  longer where it was: the context waits for a device
 *                   (rdma_mcm_device.c tells it when one appears)
 *   -ENETUNREACH    (a route context's rejoin) no route to the group for
 *                   the moment: retried with backoff
 * Permanent: -ECONNREFUSED (the SA refused the join), -EOPNOTSUPP (the
 * device cannot join the group), -EINVAL (a rejoin's bind refused), -EIO
 * (what rdma_mcm does not expect).
 *
 * A waiting membership is on its context's list of waiting memberships,
 * in the order they are due. Its wait is the backoff (rejoin_backoff_min_ms
 * doubling up to rejoin_backoff_max_ms, each scaled by a random factor in
 * [3/4, 5/4) so that memberships that failed together do not come back
 * together), reset when it is joined again; after a device loss there is
 * no wait once a device is found. One delayed work per context
 * (rdma_mcm_rejoin_run()) joins the due memberships in order, one per turn
 * it is given in its device's rejoin budget (rejoin_rate a second, in
 * bursts of a tenth of it; the contexts waiting on a device take turns,
 * rdma_mcm_dev_rejoin_turn()), and arms itself for the next. Everything it
 * does happens under the context's mutex, as join and leave do: a leave
 * or close takes the membership off the list, and no rejoin of it reaches
 * rdma_cm after that.
 *
 * The same work looks for a device when rdma_mcm_device.c says one
 * appeared or changed (a context without one), or checks that the
 * context's address still leads to its device (one with a device): for a
 * GID change at most once in RDMA_MCM_LOOK_MIN_MS, however many come (an
 * unprivileged user can make them with the addresses of a macvlan). A
 * search or a check that failed is tried again with the backoff above,
 * since what made it fail (no route for a route context, memory, rdma_cm's
 * port space) may come back without any RDMA event to say so.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/jiffies.h>
#include <linux/lockdep.h>
#include <linux/module.h>
#include <linux/sched.h>
#include <linux/sched/mm.h>
#include <linux/workqueue.h>

#include "rdma_mcm_internal.h"

unsigned int rdma_mcm_rejoin_rate = 1000;
module_param_named(rejoin_rate, rdma_mcm_rejoin_rate, uint, 0644);
MODULE_PARM_DESC(rejoin_rate,
		 "rejoins per second per RDMA device, in bursts of a tenth of it (default 1000; 0: no limit)");

unsigned int rdma_mcm_backoff_min_ms = 1000;
module_param_named(rejoin_backoff_min_ms, rdma_mcm_backoff_min_ms, uint,
		   0644);
MODULE_PARM_DESC(rejoin_backoff_min_ms,
		 "wait before the first rejoin after an error, in ms (default 1000)");

unsigned int rdma_mcm_backoff_max_ms = 16000;
module_param_named(rejoin_backoff_max_ms, rdma_mcm_backoff_max_ms, uint,
		   0644);
MODULE_PARM_DESC(rejoin_backoff_max_ms,
		 "longest wait between rejoins, in ms (default 16000, as IPoIB)");

/**
 * rdma_mcm_heals() - does a loss of this status wait for a rejoin
 * @ctx: the context
 * @status: the status (an event's, mapped) or a rejoin's error
 *
 * Return: true when @ctx heals and @status is transient (see above).
 */
bool rdma_mcm_heals(struct rdma_mcm_ctx *ctx, int status)
{
	if (!(ctx->flags & RDMA_MCM_OPEN_HEAL))
		return false;
	switch (status) {
	case -ENETRESET:
	case -ETIMEDOUT:
	case -ENOMEM:
	case -ENETDOWN:
	case -ENODEV:
	case -EADDRNOTAVAIL:
		return true;
	case -ENETUNREACH:
		/* a route context's route, gone for a moment: retried */
		return ctx->flags & RDMA_MCM_OPEN_ROUTE;
	default:
		return false;
	}
}

/**
 * rdma_mcm_backoff_next() - the backoff after one more failure
 * @backoff_ms: the current backoff (0: none yet)
 *
 * Return: rejoin_backoff_min_ms, then twice @backoff_ms, at most
 * rejoin_backoff_max_ms.
 */
u32 rdma_mcm_backoff_next(u32 backoff_ms)
{
	u32 min = max(1U, READ_ONCE(rdma_mcm_backoff_min_ms));
	u32 max = max(min, READ_ONCE(rdma_mcm_backoff_max_ms));

	if (!backoff_ms)
		return min;
	return backoff_ms >= max / 2 ? max : max(min, 2 * backoff_ms);
}

/**
 * rdma_mcm_backoff_due() - when a membership that waits @backoff_ms is due
 * @be: the backend (its clock and randomness)
 * @now_ms: now, on the backend's clock
 * @backoff_ms: the backoff
 *
 * Return: @now_ms plus @backoff_ms scaled by a random factor in [3/4, 5/4).
 */
u64 rdma_mcm_backoff_due(const struct rdma_mcm_backend *be, u64 now_ms,
			 u32 backoff_ms)
{
	u32 quarter = backoff_ms / 4;

	return now_ms + backoff_ms - quarter +
	       (quarter ? be->random(be, 2 * quarter) : 0);
}

/* Put a waiting member on the list, in due order (from the tail: new dues
 * are mostly the latest).
 */
static void rdma_mcm_wait_insert(struct rdma_mcm_ctx *ctx,
				 struct rdma_mcm_membership *mb)
{
	struct rdma_mcm_membership *pos;

	lockdep_assert_held(&ctx->mutex);
	list_for_each_entry_reverse(pos, &ctx->waiting, wait_node) {
		if (pos->due_ms <= mb->due_ms) {
			list_add(&mb->wait_node, &pos->wait_node);
			return;
		}
	}
	list_add(&mb->wait_node, &ctx->waiting);
}

/**
 * rdma_mcm_wait_start() - a WAITING membership lets go and waits
 * @ctx: the context
 * @mb: the membership, in %RDMA_MCM_WAITING
 * @device: it waits for a device (no backoff once one is found), else for
 *	its backoff
 *
 * It lets go of its group (rdma_mcm_member_let_go(): QP detached,
 * rdma_cm's membership left and what rdma_mcm holds itself, a source
 * filter, MLD; its id's place given back, its address handle dropped),
 * then goes on the waiting list. Does nothing to a membership no longer
 * waiting, or already on the list (it let go when it went there).
 *
 * Context: process context, @ctx->mutex held.
 */
void rdma_mcm_wait_start(struct rdma_mcm_ctx *ctx,
			 struct rdma_mcm_membership *mb, bool device)
{
	bool waiting;

	lockdep_assert_held(&ctx->mutex);
	spin_lock_bh(&ctx->lock);
	waiting = mb->state == RDMA_MCM_WAITING;
	if (waiting)
		mb->have_join = false;
	spin_unlock_bh(&ctx->lock);
	if (!waiting || !list_empty(&mb->wait_node))
		return;

	rdma_mcm_member_let_go(ctx, mb, true, true);
	if (device) {
		mb->backoff_ms = 0;
		mb->due_ms = 0;
	} else {
		mb->backoff_ms = rdma_mcm_backoff_next(mb->backoff_ms);
		mb->due_ms = rdma_mcm_backoff_due(ctx->be,
						  ctx->be->now_ms(ctx->be),
						  mb->backoff_ms);
	}
	rdma_mcm_wait_insert(ctx, mb);
	rdma_mcm_rejoin_kick(ctx);
}

/**
 * rdma_mcm_wait_for_device() - a membership waits for its context's next device
 * @ctx: the context, losing its device
 * @mb: the membership, in %RDMA_MCM_WAITING, already let go of the device
 *
 * It is joined again as soon as a device is found, without backoff.
 *
 * Context: @ctx->mutex held.
 */
void rdma_mcm_wait_for_device(struct rdma_mcm_ctx *ctx,
			      struct rdma_mcm_membership *mb)
{
	lockdep_assert_held(&ctx->mutex);
	list_del_init(&mb->wait_node);
	mb->backoff_ms = 0;
	mb->due_ms = 0;
	rdma_mcm_wait_insert(ctx, mb);
}

/**
 * rdma_mcm_wait_stop() - take a membership off the waiting list
 * @ctx: the context
 * @mb: the membership
 *
 * Context: @ctx->mutex held.
 */
void rdma_mcm_wait_stop(struct rdma_mcm_ctx *ctx,
			struct rdma_mcm_membership *mb)
{
	lockdep_assert_held(&ctx->mutex);
	list_del_init(&mb->wait_node);
}

/*
 * Run @ctx's rejoins in @delay_ms: its rejoin work, on rdma_mcm's
 * workqueue, unless the backend arms them itself (KUnit's fake). Any
 * context but hard interrupt; does not sleep.
 */
static void rdma_mcm_rejoin_arm(struct rdma_mcm_ctx *ctx,
				unsigned long delay_ms)
{
	if (ctx->be->arm)
		ctx->be->arm(ctx->be, ctx, delay_ms);
	else
		mod_delayed_work(rdma_mcm_wq, &ctx->rejoin_work,
				 msecs_to_jiffies(delay_ms));
}

/**
 * rdma_mcm_rejoin_kick() - run a context's rejoins now
 * @ctx: the context
 *
 * Context: any context but hard interrupt; does not sleep.
 */
void rdma_mcm_rejoin_kick(struct rdma_mcm_ctx *ctx)
{
	rdma_mcm_rejoin_arm(ctx, 0);
}

/*
 * A rejoin failed with @ret: wait again, wait for a device, or give up.
 * Returns true when the device is gone (or going): no rejoin can work.
 */
static bool rdma_mcm_rejoin_failed(struct rdma_mcm_ctx *ctx,
				   struct rdma_mcm_membership *mb, int ret)
{
	bool device = ret == -ENODEV || ret == -EADDRNOTAVAIL;
	bool waits;

	lockdep_assert_held(&ctx->mutex);
	/* its ULP was told REJOINING when it first waited: not again */
	spin_lock_bh(&ctx->lock);
	waits = rdma_mcm_mb_lost(ctx, mb, ret, false);
	spin_unlock_bh(&ctx->lock);
	if (waits)
		rdma_mcm_wait_start(ctx, mb, device);
	else
		queue_work(rdma_mcm_wq, &ctx->work);
	if (device)
		rdma_mcm_ctx_lose_device(ctx);
	return device;
}

/*
 * Join the due memberships in order, one per turn of the device's budget.
 * Returns when the next one is due (0: none waits).
 */
static u64 rdma_mcm_rejoin_due(struct rdma_mcm_ctx *ctx, u64 now)
{
	struct rdma_mcm_membership *mb;
	bool going;
	int ret;

	lockdep_assert_held(&ctx->mutex);
	while ((mb = list_first_entry_or_null(&ctx->waiting,
					      struct rdma_mcm_membership,
					      wait_node))) {
		/*
		 * A rejoin that found the device gone (or going) asked the
		 * work to take it away: the rest wait for the next device,
		 * not for the same failure once more each. (The work clears
		 * the flag before it has the mutex: the loop stops on its
		 * own failure below.)
		 */
		spin_lock_bh(&ctx->lock);
		going = ctx->device_lost_pending;
		spin_unlock_bh(&ctx->lock);
		if (!ctx->device || ctx->device_lost || going)
			return now + READ_ONCE(rdma_mcm_backoff_max_ms);
		if (mb->due_ms > now)
			return mb->due_ms;
		/* one turn at a time: the others waiting on the device get theirs */
		if (!ctx->has_turn) {
			ctx->turn_ms = rdma_mcm_dev_rejoin_turn(ctx->device,
								now);
			ctx->has_turn = true;
		}
		if (ctx->turn_ms > now)
			return ctx->turn_ms;
		ctx->has_turn = false;
		rdma_mcm_wait_stop(ctx, mb);
		ret = rdma_mcm_member_join(ctx, mb);
		if (ret && rdma_mcm_rejoin_failed(ctx, mb, ret))
			return now + READ_ONCE(rdma_mcm_backoff_max_ms);
		cond_resched();
	}
	return 0;
}

/* When a look for a GID change may go (no sooner than this). */
static u64 rdma_mcm_look_earliest(struct rdma_mcm_ctx *ctx)
{
	return ctx->look_ms + RDMA_MCM_LOOK_MIN_MS;
}

/* Look for (or check) the device now; a look that failed is owed again. */
static void rdma_mcm_look(struct rdma_mcm_ctx *ctx, u64 now)
{
	int ret;

	ctx->look_ms = now;
	ret = rdma_mcm_look_for_device(ctx);
	if (!ret) {
		ctx->retry_backoff_ms = 0;
		ctx->retry_due_ms = 0;
		return;
	}
	ctx->retry_backoff_ms = rdma_mcm_backoff_next(ctx->retry_backoff_ms);
	ctx->retry_due_ms = rdma_mcm_backoff_due(ctx->be, now,
						 ctx->retry_backoff_ms);
}

/* The earliest of @a and @b, where 0 is "none". */
static u64 rdma_mcm_earliest(u64 a, u64 b)
{
	return !a || (b && b < a) ? b : a;
}

/*
 * When the run owes its next look or port event, 0 for never: a look
 * asked for, or a port event, at once; a GID change's check at the end
 * of the rate limit's interval; a failed look's next try.
 */
static u64 rdma_mcm_owed(struct rdma_mcm_ctx *ctx, u64 now)
{
	u64 owed = ctx->retry_due_ms;

	spin_lock_bh(&ctx->lock);
	if (ctx->gid_changed)
		owed = rdma_mcm_earliest(owed, max(now,
						   rdma_mcm_look_earliest(ctx)));
	if (ctx->look_for_device || ctx->rejoin_now)
		owed = now;
	spin_unlock_bh(&ctx->lock);
	return owed;
}

/**
 * rdma_mcm_rejoin_run() - a context's rejoins, once
 * @ctx: the context
 *
 * Looks for a device first when asked to (a device appeared, the
 * context's ids are gone; a GID table changed and the last look is
 * RDMA_MCM_LOOK_MIN_MS old; a failed look is due again); then joins
 * again the waiting memberships that are due, and arms itself for the
 * next of all of these. The context's rejoin work runs it; KUnit calls it
 * with the fake backend's clock.
 *
 * Context: process context; sleeps.
 */
void rdma_mcm_rejoin_run(struct rdma_mcm_ctx *ctx)
{
	struct mem_cgroup *old_memcg;
	struct rdma_mcm_membership *mb;
	bool look, now_all;
	u64 now, next, owed;

	mutex_lock(&ctx->mutex);
	if (ctx->closing) {
		mutex_unlock(&ctx->mutex);
		return;
	}
	/* a worker's allocations, charged to the context's opener */
	old_memcg = set_active_memcg(ctx->memcg);
	now = ctx->be->now_ms(ctx->be);
	spin_lock_bh(&ctx->lock);
	look = ctx->look_for_device ||
	       (ctx->gid_changed && now >= rdma_mcm_look_earliest(ctx)) ||
	       (ctx->retry_due_ms && now >= ctx->retry_due_ms);
	if (look) {
		ctx->look_for_device = false;
		ctx->gid_changed = false;
	}
	now_all = ctx->rejoin_now;
	ctx->rejoin_now = false;
	spin_unlock_bh(&ctx->lock);

	if (look) {
		rdma_mcm_look(ctx, now);
		/* a route context's look may have waited for its route */
		now = ctx->be->now_ms(ctx->be);
	}
	if (now_all) {
		/* the port came back: no one waits for a backoff any more */
		list_for_each_entry(mb, &ctx->waiting, wait_node)
			mb->due_ms = now;
	}
	next = (ctx->flags & RDMA_MCM_OPEN_HEAL) ?
	       rdma_mcm_rejoin_due(ctx, now) : 0;
	next = rdma_mcm_earliest(next, rdma_mcm_owed(ctx, now));
	if (next)
		rdma_mcm_rejoin_arm(ctx, next > now ? next - now : 0);
	/*
	 * A kick during this run (a device added, a GID change, a port
	 * event) queued the work at once, and the arming above pushed that
	 * back: arm for what it owes. Read after the arming, so a kick after
	 * the read arms for itself, after ours. (rdma_mcm_dev_changed() does
	 * not kick while the flag it would set is set: a flag set before the
	 * read is seen here.)
	 */
	owed = rdma_mcm_owed(ctx, now);
	if (owed && (!next || owed < next))
		rdma_mcm_rejoin_arm(ctx, owed > now ? owed - now : 0);
	set_active_memcg(old_memcg);
	mutex_unlock(&ctx->mutex);
}

/**
 * rdma_mcm_rejoin_work() - the context's rejoin work
 * @work: &rdma_mcm_ctx.rejoin_work's work
 */
void rdma_mcm_rejoin_work(struct work_struct *work)
{
	struct rdma_mcm_ctx *ctx = container_of(to_delayed_work(work),
						struct rdma_mcm_ctx,
						rejoin_work);

	rdma_mcm_rejoin_run(ctx);
}
