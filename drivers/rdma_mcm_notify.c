// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * rdma_mcm: rdma_cm's events in, the ULP's callbacks out.
 *
 * rdma_cm's event handler only records: under ctx->lock it moves a
 * membership's state, queues a notification and kicks the context's work;
 * a DEVICE_REMOVAL only asks the work to take the device away (rdma_cm
 * forbids destroying the id from its handler). The work, one per context
 * on rdma_mcm's workqueue, does everything that sleeps: attaching the QP
 * of a joined membership, letting go of a waiting one (rdma_mcm_heal.c),
 * losing the device (rdma_mcm_ctx.c), and calling the ULP, one callback at
 * a time, with no lock of ours held, in the order of one queue of notices
 * per context (struct rdma_mcm_notice).
 *
 * One shortcut: in a context whose callbacks only queue (the char
 * device's, RDMA_MCM_OPEN_DIRECT), a JOINED with no QP to attach and
 * nothing queued before it goes to the callback from rdma_cm's handler
 * itself, which saves the work's wakeup on the way to the application.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bitops.h>
#include <linux/lockdep.h>
#include <linux/sched.h>
#include <rdma/ib_verbs.h>

#include "rdma_mcm_internal.h"

/**
 * rdma_mcm_notify() - queue a notification for the ULP
 * @ctx: the context
 * @mb: the membership
 * @what: RDMA_MCM_NOTIFY_*
 *
 * The caller kicks the work.
 *
 * Context: @ctx->lock held.
 */
void rdma_mcm_notify(struct rdma_mcm_ctx *ctx, struct rdma_mcm_membership *mb,
		     unsigned int what)
{
	lockdep_assert_held(&ctx->lock);
	if (!mb->pending)
		list_add_tail(&mb->notice.node, &ctx->pending);
	mb->pending |= what;
}

/**
 * rdma_mcm_unnotify() - drop a membership's queued notifications
 * @ctx: the context
 * @mb: the membership
 *
 * Context: @ctx->lock held.
 */
void rdma_mcm_unnotify(struct rdma_mcm_ctx *ctx, struct rdma_mcm_membership *mb)
{
	lockdep_assert_held(&ctx->lock);
	if (mb->pending) {
		list_del_init(&mb->notice.node);
		rdma_mcm_count_n(ctx, RDMA_MCM_CNT_PURGED,
				 hweight8(mb->pending));
	}
	mb->pending = 0;
}

/**
 * rdma_mcm_notify_ctx() - queue a context's notice (device removed, added)
 * @ctx: the context
 * @notice: &rdma_mcm_ctx.removed_notice or .added_notice
 *
 * The caller kicks the work.
 *
 * Context: @ctx->lock held.
 */
void rdma_mcm_notify_ctx(struct rdma_mcm_ctx *ctx,
			 struct rdma_mcm_notice *notice)
{
	lockdep_assert_held(&ctx->lock);
	if (list_empty(&notice->node))
		list_add_tail(&notice->node, &ctx->pending);
}

/*
 * What a membership's ERROR reports, from a MULTICAST_ERROR's status: the
 * table "Membership status" of Documentation/uapi.rst.
 *  -ENETRESET     a port or SM event (ib_sa: port error, LID or SM
 *                 change, client reregister), or an SA query flushed by
 *                 one (-EINTR)
 *  -ETIMEDOUT     the SA did not answer
 *  -ECONNREFUSED  the SA refused the join (-EINVAL: an error MAD status,
 *                 or a record that does not match the group's)
 *  -EADDRNOTAVAIL no status at all (0): rdma_cm could not build the
 *                 group's address handle from the join, which happens
 *                 when the source GID went away meanwhile (a healing
 *                 context waits, and its next look finds where the
 *                 address went)
 *  -ENOMEM, -ENODEV as they are; anything else -EIO (logged)
 */
static int rdma_mcm_mc_status(int status)
{
	switch (status) {
	case 0:
		return -EADDRNOTAVAIL;
	case -ENETRESET:
	case -ETIMEDOUT:
	case -ENOMEM:
	case -ENODEV:
		return status;
	case -EINTR:
		return -ENETRESET;
	case -EINVAL:
		return -ECONNREFUSED;
	default:
		pr_warn_ratelimited("unexpected multicast error status %d, reported as -EIO\n",
				    status);
		return -EIO;
	}
}

/*
 * Can @mb's JOINED go to the ULP from rdma_cm's handler, now? Only in a
 * context whose callbacks allow it (the char device's only queue an event
 * under the file's lock), when there is no QP to attach (that sleeps),
 * nothing queued before it (order) and no callback running (one at a
 * time): then the work's hop, a wakeup of another thread, is saved.
 */
static bool rdma_mcm_can_deliver_now(struct rdma_mcm_ctx *ctx,
				     struct rdma_mcm_membership *mb)
{
	lockdep_assert_held(&ctx->lock);
	return ctx->direct && ctx->open_done && !ctx->closing &&
	       !ctx->delivering && !ctx->device_lost_pending &&
	       !READ_ONCE(ctx->device_lost) &&
	       list_empty(&ctx->pending) &&
	       !(mb->qp && mb->join_type == RDMA_MCM_FULLMEMBER);
}

/* The joined membership's callback information, from rdma_cm's event. */
static void rdma_mcm_join_info(struct rdma_mcm_membership *mb,
			       const struct rdma_ah_attr *ah_attr,
			       struct rdma_mcm_join_info *info)
{
	memset(info, 0, sizeof(*info));
	info->handle = mb->handle;
	info->context = mb->context;
	rdma_mcm_addr_to_storage(&mb->group, &info->group);
	info->join_type = mb->join_type;
	info->mgid = mb->mgid;
	info->mlid = mb->mlid;
	info->qkey = mb->qkey;
	info->rejoins = mb->rejoins;
	info->ah_attr = *ah_attr;
}

/*
 * The callback marked running (rdma_mcm_cb_enter(), rdma_mcm_claim_now())
 * returned; the caller wakes ctx->cb_wq once it dropped the lock.
 */
static void rdma_mcm_cb_returned(struct rdma_mcm_ctx *ctx)
{
	lockdep_assert_held(&ctx->lock);
	/* the callback's doings before it, for rdma_mcm_cb_barrier() */
	smp_store_release(&ctx->cb_member, NULL);
	ctx->cb_task = NULL;
}

/*
 * A JOINED that rdma_cm's handler delivers itself (the claim, under
 * ctx->lock; the callback, after it): one callback the work does not
 * overlap (ctx->delivering); a notice queued meanwhile is left to the
 * work. The event's address handle attributes are lent to the callback
 * for its duration, as the work lends a copy.
 */
struct rdma_mcm_direct {
	struct rdma_mcm_membership *mb;
	struct rdma_mcm_join_info info;
	bool rejoined;
};

static void rdma_mcm_claim_now(struct rdma_mcm_ctx *ctx,
			       struct rdma_mcm_membership *mb,
			       const struct rdma_ah_attr *ah_attr,
			       struct rdma_mcm_direct *d)
{
	lockdep_assert_held(&ctx->lock);
	d->mb = mb;
	d->rejoined = mb->ever_joined;
	rdma_mcm_mb_joined(mb);
	mb->ever_joined = true;
	rdma_mcm_join_info(mb, ah_attr, &d->info);
	rdma_mcm_observe_deliver(ctx, mb, RDMA_MCM_NOTIFY_JOINED);
	ctx->delivering = true;
	WRITE_ONCE(ctx->cb_member, mb);
	ctx->cb_task = current;
	refcount_inc(&mb->ref);
}

static void rdma_mcm_deliver_claimed(struct rdma_mcm_ctx *ctx,
				     struct rdma_mcm_direct *d)
{
	const struct rdma_mcm_ops *ops = ctx->ops;
	bool kick;

	if (d->rejoined && ops->rejoined)
		ops->rejoined(ctx->priv, &d->info);
	else if (ops->joined)
		ops->joined(ctx->priv, &d->info);

	spin_lock_bh(&ctx->lock);
	rdma_mcm_cb_returned(ctx);
	ctx->delivering = false;
	kick = !list_empty(&ctx->pending);
	spin_unlock_bh(&ctx->lock);
	wake_up_all(&ctx->cb_wq);
	if (kick)
		queue_work(rdma_mcm_wq, &ctx->work);
	rdma_mcm_member_put(d->mb);
}

/* What rdma_mcm_mc_event_locked() did with an event */
enum rdma_mcm_ev_action {
	RDMA_MCM_EV_DROPPED,	/* no such membership in that state */
	RDMA_MCM_EV_QUEUED,	/* a notice for the work */
	RDMA_MCM_EV_DIRECT,	/* a JOINED claimed for the handler to deliver */
	RDMA_MCM_EV_NEED_ROOM,	/* the work's JOINED needs @ah: allocate, retry */
};

/*
 * An event for a membership, with ctx->lock held. @ah: room for the
 * address handle attributes of a JOINED the work delivers, taken (set to
 * NULL) when used; @allocated: it was allocated already (NULL: it failed).
 */
static enum rdma_mcm_ev_action
rdma_mcm_mc_event_locked(struct rdma_mcm_ctx *ctx, struct rdma_mcm_slot *slot,
			 struct rdma_cm_event *event, struct rdma_ah_attr **ah,
			 bool allocated, struct rdma_mcm_direct *d)
{
	const struct rdma_ah_attr *ev_ah = &event->param.ud.ah_attr;
	u32 handle = (uintptr_t)event->param.ud.private_data;
	struct rdma_mcm_membership *mb;
	bool now;

	lockdep_assert_held(&ctx->lock);
	mb = rdma_mcm_member_find(ctx, handle);
	if (!mb || mb->slot != slot || ctx->closing)
		return RDMA_MCM_EV_DROPPED;

	if (event->event != RDMA_CM_EVENT_MULTICAST_JOIN) {
		if (mb->state != RDMA_MCM_JOINING && mb->state != RDMA_MCM_JOINED)
			return RDMA_MCM_EV_DROPPED;
		/* a waiting one lets go of the group in the work, then waits */
		rdma_mcm_mb_lost(ctx, mb, rdma_mcm_mc_status(event->status),
				 true);
		return RDMA_MCM_EV_QUEUED;
	}

	if (mb->state != RDMA_MCM_JOINING || mb->have_join)
		return RDMA_MCM_EV_DROPPED;
	now = rdma_mcm_can_deliver_now(ctx, mb);
	if (!now && !allocated)
		return RDMA_MCM_EV_NEED_ROOM;
	mb->mgid = rdma_ah_read_grh(ev_ah)->dgid;
	mb->mlid = rdma_ah_get_dlid(ev_ah);
	mb->qkey = event->param.ud.qkey;
	mb->have_join = true;
	if (now) {
		rdma_mcm_claim_now(ctx, mb, ev_ah, d);
		return RDMA_MCM_EV_DIRECT;
	}
	if (!*ah) {
		/*
		 * Joined, but the ULP could not be told how to send: a loss
		 * like any -ENOMEM (a healing context joins it again)
		 */
		rdma_mcm_mb_lost(ctx, mb, -ENOMEM, true);
		return RDMA_MCM_EV_QUEUED;
	}
	rdma_copy_ah_attr(*ah, ev_ah);
	mb->ah = *ah;
	*ah = NULL;
	rdma_mcm_notify(ctx, mb, RDMA_MCM_NOTIFY_JOINED);
	return RDMA_MCM_EV_QUEUED;
}

/**
 * rdma_mcm_mc_event() - a multicast event of one of a context's ids
 * @ctx: the context
 * @slot: the slot of the id
 * @event: MULTICAST_JOIN or MULTICAST_ERROR, rdma_cm's or one rdma_mcm
 *	made for a group it joined itself (rdma_mcm_ipmc.c)
 *
 * Context: process context (rdma_cm's handler, or a call of the manager on
 * @ctx: then with @ctx->mutex held); may sleep.
 */
void rdma_mcm_mc_event(struct rdma_mcm_ctx *ctx, struct rdma_mcm_slot *slot,
		       struct rdma_cm_event *event)
{
	enum rdma_mcm_ev_action act;
	struct rdma_ah_attr *ah = NULL;
	struct rdma_mcm_direct d;
	bool allocated = false;

	/* the work's JOINED keeps the attributes until its callback */
	if (event->event == RDMA_CM_EVENT_MULTICAST_JOIN && !ctx->direct) {
		ah = rdma_mcm_ah_alloc(ctx);
		allocated = true;
	}
	for (;;) {
		spin_lock_bh(&ctx->lock);
		act = rdma_mcm_mc_event_locked(ctx, slot, event, &ah,
					       allocated, &d);
		spin_unlock_bh(&ctx->lock);
		if (act != RDMA_MCM_EV_NEED_ROOM)
			break;
		/* room, where sleeping is allowed; then look again */
		ah = rdma_mcm_ah_alloc(ctx);
		allocated = true;
	}
	kfree(ah);	/* not needed after all (never filled) */

	switch (act) {
	case RDMA_MCM_EV_DIRECT:
		rdma_mcm_deliver_claimed(ctx, &d);
		break;
	case RDMA_MCM_EV_QUEUED:
		queue_work(rdma_mcm_wq, &ctx->work);
		break;
	default:
		pr_debug("dropped %s for handle %u: no such membership in that state\n",
			 rdma_event_msg(event->event),
			 (u32)(uintptr_t)event->param.ud.private_data);
		break;
	}
}

/**
 * rdma_mcm_cm_handler() - the event handler of every id of the manager
 * @id: the id
 * @event: the event
 *
 * Context: rdma_cm's handler context (process context, under the id's
 * handler mutex); may be called from inside any rdma_cm call on @id.
 * Return: 0: rdma_cm must never destroy the id itself.
 */
int rdma_mcm_cm_handler(struct rdma_cm_id *id, struct rdma_cm_event *event)
{
	struct rdma_mcm_slot *slot = id->context;
	struct rdma_mcm_ctx *ctx = slot->ctx;

	switch (event->event) {
	case RDMA_CM_EVENT_MULTICAST_JOIN:
	case RDMA_CM_EVENT_MULTICAST_ERROR:
		rdma_mcm_mc_event(ctx, slot, event);
		break;
	case RDMA_CM_EVENT_ADDR_RESOLVED:
	case RDMA_CM_EVENT_ADDR_ERROR:
		/* a route context's id: rdma_mcm_slot_create() waits for it */
		if (slot->resolving) {
			slot->resolve_status = event->event ==
				RDMA_CM_EVENT_ADDR_RESOLVED ? 0 :
				(event->status ?: -EHOSTUNREACH);
			complete(&slot->resolved);	/* slot may go now */
		}
		break;
	case RDMA_CM_EVENT_DEVICE_REMOVAL:
		/*
		 * Usually rdma_mcm's ib_client took the device away first;
		 * this catches an id that was bound in the meantime.
		 * rdma_cm waits until the id is destroyed, which the work
		 * does at once.
		 */
		rdma_mcm_ctx_lose_device(ctx);
		break;
	default:
		break;
	}
	return 0;
}

/*
 * The join event arrived: attach the QP, then the membership is joined.
 * A failed attach leaves the group again and turns into an error.
 */
static void rdma_mcm_finish_join(struct rdma_mcm_ctx *ctx,
				 struct rdma_mcm_membership *mb, unsigned int *what)
{
	int ret = 0;

	mutex_lock(&ctx->mutex);
	spin_lock_bh(&ctx->lock);
	/* left, or failed meanwhile; or a join again with no event yet */
	if (mb->state != RDMA_MCM_JOINING || !mb->have_join) {
		spin_unlock_bh(&ctx->lock);
		goto out;
	}
	spin_unlock_bh(&ctx->lock);

	if (mb->qp && mb->join_type == RDMA_MCM_FULLMEMBER) {
		ret = ctx->be->attach(ctx->be, mb->qp, &mb->mgid, mb->mlid);
		if (ret)
			rdma_mcm_member_let_go(ctx, mb, true, false);
		else
			mb->qp_attached = true;
	}

	spin_lock_bh(&ctx->lock);
	if (mb->state == RDMA_MCM_JOINING) {
		if (ret) {
			/* its ERROR goes out in this pass, for its JOINED */
			rdma_mcm_mb_failed(ctx, mb, ret, false);
			*what = (*what & ~RDMA_MCM_NOTIFY_JOINED) |
				RDMA_MCM_NOTIFY_ERROR;
		} else {
			rdma_mcm_mb_joined(mb);
		}
	}
	spin_unlock_bh(&ctx->lock);
out:
	mutex_unlock(&ctx->mutex);
}

/* Mark the callback about to run (@mb NULL: a context's callback). */
static bool rdma_mcm_cb_enter(struct rdma_mcm_ctx *ctx,
			      struct rdma_mcm_membership *mb)
{
	lockdep_assert_held(&ctx->lock);
	if (ctx->closing)
		return false;
	WRITE_ONCE(ctx->cb_member, mb);
	ctx->cb_task = current;
	return true;
}

static void rdma_mcm_cb_exit(struct rdma_mcm_ctx *ctx)
{
	spin_lock_bh(&ctx->lock);
	rdma_mcm_cb_returned(ctx);
	spin_unlock_bh(&ctx->lock);
	wake_up_all(&ctx->cb_wq);
}

/*
 * Call one ULP callback, if the membership is still in the state it
 * reports (a ->rejoining() is a loss already made: it is told unless the
 * membership is on its way out).
 */
static void rdma_mcm_callback(struct rdma_mcm_ctx *ctx,
			      struct rdma_mcm_membership *mb, unsigned int what)
{
	const struct rdma_mcm_ops *ops = ctx->ops;
	struct rdma_ah_attr *ah = NULL;
	struct rdma_mcm_join_info info;
	bool rejoined = false;
	int status;

	spin_lock_bh(&ctx->lock);
	switch (what) {
	case RDMA_MCM_NOTIFY_JOINED:
		/* the attributes are the callback's now, told or not */
		ah = mb->ah;
		mb->ah = NULL;
		if (mb->state != RDMA_MCM_JOINED || WARN_ON_ONCE(!ah))
			goto skip;
		break;
	case RDMA_MCM_NOTIFY_ERROR:
		if (mb->state != RDMA_MCM_ERROR)
			goto skip;
		break;
	default:
		if (mb->state == RDMA_MCM_LEAVING || mb->state == RDMA_MCM_LEFT)
			goto skip;
		/*
		 * Before its first JOINED a membership is still joining, as
		 * far as its ULP knows: its first join tried again is not a
		 * rejoin, and the JOINED that ends it is a ->joined().
		 */
		if (!mb->ever_joined)
			goto skip;
		break;
	}
	if (!rdma_mcm_cb_enter(ctx, mb))
		goto skip;
	rdma_mcm_observe_deliver(ctx, mb, what);
	status = what == RDMA_MCM_NOTIFY_REJOINING ? mb->last_status :
						     mb->status;
	if (what == RDMA_MCM_NOTIFY_JOINED) {
		/* lent for the call; freed (with its GID reference) after */
		rdma_mcm_join_info(mb, ah, &info);
		rejoined = mb->ever_joined;
		mb->ever_joined = true;
	}
	spin_unlock_bh(&ctx->lock);

	lockdep_assert_not_held(&ctx->mutex);
	switch (what) {
	case RDMA_MCM_NOTIFY_JOINED:
		if (rejoined && ops->rejoined)
			ops->rejoined(ctx->priv, &info);
		else if (ops->joined)
			ops->joined(ctx->priv, &info);
		break;
	case RDMA_MCM_NOTIFY_ERROR:
		if (ops->error)
			ops->error(ctx->priv, mb->handle, mb->context, status);
		break;
	default:
		if (ops->rejoining)
			ops->rejoining(ctx->priv, mb->handle, mb->context,
				       status);
		break;
	}
	rdma_mcm_cb_exit(ctx);
	rdma_mcm_ah_free(ah);
	return;
skip:
	spin_unlock_bh(&ctx->lock);
	rdma_mcm_ah_free(ah);
}

/* A waiting membership lets go of its group before ->rejoining(). */
static void rdma_mcm_start_rejoining(struct rdma_mcm_ctx *ctx,
				     struct rdma_mcm_membership *mb)
{
	mutex_lock(&ctx->mutex);
	rdma_mcm_wait_start(ctx, mb, false);
	mutex_unlock(&ctx->mutex);
}

/* The context's own notice: ->device_removed() or ->device_added(). */
static void rdma_mcm_ctx_callback(struct rdma_mcm_ctx *ctx,
				  struct rdma_mcm_notice *notice)
{
	void (*fn)(void *priv) = notice == &ctx->removed_notice ?
		ctx->ops->device_removed : ctx->ops->device_added;

	lockdep_assert_not_held(&ctx->mutex);
	rdma_mcm_observe_deliver(ctx, NULL, notice == &ctx->removed_notice ?
				 RDMA_MCM_NOTIFY_DEVICE_REMOVED :
				 RDMA_MCM_NOTIFY_DEVICE_ADDED);
	if (fn)
		fn(ctx->priv);
	rdma_mcm_cb_exit(ctx);
}

/* The work's notice, or the handler's JOINED, is delivered. */
static void rdma_mcm_delivered(struct rdma_mcm_ctx *ctx)
{
	spin_lock_bh(&ctx->lock);
	ctx->delivering = false;
	spin_unlock_bh(&ctx->lock);
}

static bool rdma_mcm_is_delivering(struct rdma_mcm_ctx *ctx)
{
	bool delivering;

	spin_lock_bh(&ctx->lock);
	delivering = ctx->delivering;
	spin_unlock_bh(&ctx->lock);
	return delivering;
}

/*
 * Deliver the oldest notice: a membership's notifications (the join's
 * attach first), or the context's ->device_removed() or ->device_added().
 * Returns false when none is left.
 */
static bool rdma_mcm_deliver_one(struct rdma_mcm_ctx *ctx)
{
	struct rdma_mcm_membership *mb;
	struct rdma_mcm_notice *notice;
	unsigned int what;

	spin_lock_bh(&ctx->lock);
	notice = list_first_entry_or_null(&ctx->pending,
					  struct rdma_mcm_notice, node);
	/* a JOINED going out from rdma_cm's handler: see rdma_mcm_work() */
	if (!notice || ctx->closing || ctx->delivering) {
		spin_unlock_bh(&ctx->lock);
		return false;
	}
	list_del_init(&notice->node);
	/*
	 * A device found, then lost again before the notice went out: the
	 * ULP is not told of a device it can no longer use (the removal's
	 * notice follows).
	 */
	if (notice == &ctx->added_notice &&
	    (!READ_ONCE(ctx->device) || READ_ONCE(ctx->device_lost))) {
		spin_unlock_bh(&ctx->lock);
		return true;
	}
	if (notice == &ctx->removed_notice || notice == &ctx->added_notice) {
		if (!rdma_mcm_cb_enter(ctx, NULL)) {
			spin_unlock_bh(&ctx->lock);
			return true;
		}
		ctx->delivering = true;
		spin_unlock_bh(&ctx->lock);
		rdma_mcm_ctx_callback(ctx, notice);
		rdma_mcm_delivered(ctx);
		return true;
	}
	mb = container_of(notice, struct rdma_mcm_membership, notice);
	what = mb->pending;
	mb->pending = 0;
	refcount_inc(&mb->ref);
	ctx->delivering = true;
	spin_unlock_bh(&ctx->lock);

	if (what & RDMA_MCM_NOTIFY_REJOINING) {
		/*
		 * The loss came after the join it had queued: that JOINED is
		 * stale. Only a rejoin leaves WAITING, and none can start
		 * before this REJOINING is taken: a membership lost by an
		 * event joins the waiting list in rdma_mcm_start_rejoining()
		 * below; one lost with its device waits there until the ids
		 * are destroyed, which the work does after delivering. The
		 * rejoin, which may even run during ->rejoining(), brings a
		 * JOINED of its own.
		 */
		what &= ~RDMA_MCM_NOTIFY_JOINED;
		rdma_mcm_start_rejoining(ctx, mb);
		rdma_mcm_callback(ctx, mb, RDMA_MCM_NOTIFY_REJOINING);
	}
	if (what & RDMA_MCM_NOTIFY_JOINED)
		rdma_mcm_finish_join(ctx, mb, &what);
	if (what & RDMA_MCM_NOTIFY_JOINED)
		rdma_mcm_callback(ctx, mb, RDMA_MCM_NOTIFY_JOINED);
	if (what & RDMA_MCM_NOTIFY_ERROR)
		rdma_mcm_callback(ctx, mb, RDMA_MCM_NOTIFY_ERROR);
	rdma_mcm_delivered(ctx);
	rdma_mcm_member_put(mb);
	return true;
}

/*
 * A JOINED delivered from rdma_cm's handler held the work back: wait for
 * it to return, so that the work's run ends with nothing left to deliver
 * (a device removal waits for that run). Returns true to look again.
 */
static bool rdma_mcm_wait_direct(struct rdma_mcm_ctx *ctx)
{
	bool busy;

	spin_lock_bh(&ctx->lock);
	busy = ctx->delivering && !ctx->closing && !list_empty(&ctx->pending);
	spin_unlock_bh(&ctx->lock);
	if (busy)
		wait_event(ctx->cb_wq, !rdma_mcm_is_delivering(ctx));
	return busy;
}

/**
 * rdma_mcm_work() - the context's work
 * @work: &rdma_mcm_ctx.work
 *
 * Takes the device away when asked to, then delivers every queued notice
 * in order (a lost device's ->device_removed() after its memberships'
 * notifications), then destroys the ids of a lost device. Idle until
 * rdma_mcm_open() has done its work.
 */
void rdma_mcm_work(struct work_struct *work)
{
	struct rdma_mcm_ctx *ctx = container_of(work, struct rdma_mcm_ctx,
						work);
	bool lost;

	spin_lock_bh(&ctx->lock);
	if (!ctx->open_done) {
		spin_unlock_bh(&ctx->lock);
		return;		/* rdma_mcm_open() kicks the work again */
	}
	lost = ctx->device_lost_pending;
	ctx->device_lost_pending = false;
	spin_unlock_bh(&ctx->lock);

	if (lost)
		rdma_mcm_ctx_take_device(ctx);
	do {
		while (rdma_mcm_deliver_one(ctx))
			cond_resched();
	} while (rdma_mcm_wait_direct(ctx));
	if (lost)
		rdma_mcm_ctx_destroy_ids(ctx);
}

static bool rdma_mcm_cb_idle(struct rdma_mcm_ctx *ctx,
			     struct rdma_mcm_membership *mb)
{
	bool idle;

	spin_lock_bh(&ctx->lock);
	idle = ctx->cb_member != mb;
	spin_unlock_bh(&ctx->lock);
	return idle;
}

/**
 * rdma_mcm_cb_barrier() - wait until no callback for a membership runs
 * @ctx: the context
 * @mb: the membership, already out of the tables
 *
 * Returns at once when called from that very callback.
 *
 * Context: process context; may sleep.
 */
void rdma_mcm_cb_barrier(struct rdma_mcm_ctx *ctx,
			 struct rdma_mcm_membership *mb)
{
	if (READ_ONCE(ctx->cb_task) == current)
		return;
	/*
	 * No callback for @mb can start any more (it is LEAVING or LEFT, and
	 * callbacks check under ctx->lock); one that started set cb_member
	 * under that lock, which the caller took since: seen here without it.
	 * Acquire: what a callback that ended did is seen by the caller.
	 */
	if (smp_load_acquire(&ctx->cb_member) != mb)
		return;
	wait_event(ctx->cb_wq, rdma_mcm_cb_idle(ctx, mb));
}
