// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * rdma_mcm: the multicast membership manager.
 *
 * Locking, outermost first:
 *   ctx->mutex   join, leave, close, slot (rdma_cm_id) management, QP
 *                attach/detach, device-loss teardown. Held across rdma_cm
 *                calls; never taken by the rdma_cm event handler, so that
 *                rdma_leave_multicast()/rdma_destroy_id(), which wait for a
 *                running handler, cannot deadlock against it.
 *   ctx->lock    member states and notifications, the pending list, the
 *                callback bookkeeping, erasure from ctx->members. Taken by
 *                the rdma_cm event handler.
 * ULP callbacks run from ctx->work with neither held.
 *
 * Lifetime: a member holds one reference for being in the tables and the
 * work takes one while it delivers a notification. rdma_cm events name a
 * member by handle (the private data of the join), looked up under
 * ctx->lock, so an event that arrives after the member was left finds
 * nothing and is dropped.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/err.h>
#include <linux/lockdep.h>
#include <linux/module.h>
#include <linux/rhashtable.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <net/net_namespace.h>
#include <rdma/ib_addr.h>
#include <rdma/ib_sa.h>

#include "rdma_mcm_compat.h"
#include "rdma_mcm_internal.h"

unsigned int rdma_mcm_slot_size = 64;
module_param_named(slot_size, rdma_mcm_slot_size, uint, 0444);
MODULE_PARM_DESC(slot_size,
		 "memberships joined on one rdma_cm_id (default 64, minimum 1)");

static struct kmem_cache *rdma_mcm_member_cache;
static struct workqueue_struct *rdma_mcm_wq;
static atomic_t rdma_mcm_live_contexts = ATOMIC_INIT(0);
static atomic_t rdma_mcm_live_members = ATOMIC_INIT(0);
static atomic_t rdma_mcm_live_slots = ATOMIC_INIT(0);

static const struct rhashtable_params rdma_mcm_group_params = {
	.key_len		= sizeof(struct rdma_mcm_key),
	.key_offset		= offsetof(struct rdma_mcm_membership, key),
	.head_offset		= offsetof(struct rdma_mcm_membership, hnode),
	.automatic_shrinking	= true,
};

static int rdma_mcm_cm_handler(struct rdma_cm_id *id,
			       struct rdma_cm_event *event);
static bool rdma_mcm_deliver_one(struct rdma_mcm_ctx *ctx);

/* ------------------------------------------------------------ members */

static void rdma_mcm_member_put(struct rdma_mcm_membership *mb)
{
	might_sleep();	/* rdma_destroy_ah_attr() may drop the last GID ref */
	if (!refcount_dec_and_test(&mb->ref))
		return;
	if (mb->have_ah)
		rdma_destroy_ah_attr(&mb->ah_attr);
	kmem_cache_free(rdma_mcm_member_cache, mb);
	atomic_dec(&rdma_mcm_live_members);
}

/* Queue a notification for the ULP; the caller kicks the work. */
static void rdma_mcm_notify(struct rdma_mcm_ctx *ctx,
			    struct rdma_mcm_membership *mb, unsigned int what)
{
	lockdep_assert_held(&ctx->lock);
	if (!mb->pending)
		list_add_tail(&mb->pending_node, &ctx->pending);
	mb->pending |= what;
}

static void rdma_mcm_fill_info(struct rdma_mcm_membership *mb,
			       struct rdma_mcm_member_info *info)
{
	lockdep_assert_held(&mb->ctx->lock);
	memset(info, 0, sizeof(*info));
	info->handle = mb->handle;
	info->state = mb->state;
	info->status = mb->status;
	info->join_type = mb->join_type;
	rdma_mcm_addr_to_storage(&mb->group, &info->group);
	info->context = mb->context;
	info->qp_attached = mb->qp_attached;
	if (mb->have_join) {
		info->mgid = mb->mgid;
		info->mlid = mb->mlid;
		info->qkey = mb->qkey;
	}
}

#ifdef CONFIG_FAULT_INJECTION
DECLARE_FAULT_ATTR(rdma_mcm_fail_alloc_attr);
#endif

/* ------------------------------------------------------------ slots */

static struct rdma_mcm_slot *rdma_mcm_slot_create(struct rdma_mcm_ctx *ctx)
{
	struct rdma_mcm_slot *slot;
	struct rdma_cm_id *id;
	int ret;

	lockdep_assert_held(&ctx->mutex);
	slot = rdma_mcm_fail_alloc() ? NULL : kzalloc(sizeof(*slot), GFP_KERNEL);
	if (!slot)
		return ERR_PTR(-ENOMEM);
	slot->ctx = ctx;
	INIT_LIST_HEAD(&slot->free_node);

	/* rdma_create_id() allocates: its -ENOMEM is injected here too */
	if (rdma_mcm_fail_alloc())
		id = ERR_PTR(-ENOMEM);
	else
		id = ctx->be->create_id(ctx->be, ctx->net, rdma_mcm_cm_handler,
					slot);
	if (IS_ERR(id)) {
		ret = PTR_ERR(id);
		goto err_free;
	}
	ret = ctx->be->bind_addr(ctx->be, id, (struct sockaddr *)&ctx->src);
	if (ret)
		goto err_destroy;
	/* A wildcard or loopback address binds without a device. */
	if (!id->device) {
		ret = -ENODEV;
		goto err_destroy;
	}
	slot->id = id;
	list_add_tail(&slot->node, &ctx->slots);
	list_add(&slot->free_node, &ctx->free_slots);
	ctx->nr_slots++;
	atomic_inc(&rdma_mcm_live_slots);
	return slot;

err_destroy:
	ctx->be->destroy_id(ctx->be, id);
err_free:
	kfree(slot);
	return ERR_PTR(ret);
}

static void rdma_mcm_slot_destroy(struct rdma_mcm_ctx *ctx,
				  struct rdma_mcm_slot *slot)
{
	lockdep_assert_held(&ctx->mutex);
	list_del(&slot->node);
	list_del_init(&slot->free_node);
	ctx->nr_slots--;
	/* Leaves every group still joined on it; no event after this. */
	ctx->be->destroy_id(ctx->be, slot->id);
	kfree(slot);
	atomic_dec(&rdma_mcm_live_slots);
}

/* A slot with room for one more membership, creating one if need be. */
static struct rdma_mcm_slot *rdma_mcm_slot_get(struct rdma_mcm_ctx *ctx)
{
	unsigned int size = max(1U, READ_ONCE(rdma_mcm_slot_size));
	struct rdma_mcm_slot *slot;

	lockdep_assert_held(&ctx->mutex);
	slot = list_first_entry_or_null(&ctx->free_slots, struct rdma_mcm_slot,
					free_node);
	if (!slot) {
		slot = rdma_mcm_slot_create(ctx);
		if (IS_ERR(slot))
			return slot;
	}
	if (++slot->count >= size)
		list_del_init(&slot->free_node);
	return slot;
}

/* Give a membership's place back; an empty slot goes, unless it is the last. */
static void rdma_mcm_slot_put(struct rdma_mcm_ctx *ctx,
			      struct rdma_mcm_slot *slot)
{
	lockdep_assert_held(&ctx->mutex);
	if (WARN_ON_ONCE(!slot->count))
		return;
	if (!--slot->count && ctx->nr_slots > 1) {
		rdma_mcm_slot_destroy(ctx, slot);
		return;
	}
	if (list_empty(&slot->free_node))
		list_add(&slot->free_node, &ctx->free_slots);
}

/* ------------------------------------------------------------ rdma_cm events */

static void rdma_mcm_mc_event(struct rdma_mcm_ctx *ctx,
			      struct rdma_mcm_slot *slot,
			      struct rdma_cm_event *event)
{
	u32 handle = (uintptr_t)event->param.ud.private_data;
	struct rdma_mcm_membership *mb;
	bool queued = false;

	spin_lock(&ctx->lock);
	mb = xa_load(&ctx->members, handle);
	if (!mb || mb->slot != slot || ctx->closing)
		goto out;

	if (event->event == RDMA_CM_EVENT_MULTICAST_JOIN) {
		if (mb->state != RDMA_MCM_JOINING || mb->have_join)
			goto out;
		rdma_copy_ah_attr(&mb->ah_attr, &event->param.ud.ah_attr);
		mb->have_ah = true;
		mb->mgid = rdma_ah_read_grh(&mb->ah_attr)->dgid;
		mb->mlid = rdma_ah_get_dlid(&mb->ah_attr);
		mb->qkey = event->param.ud.qkey;
		mb->have_join = true;
		rdma_mcm_notify(ctx, mb, RDMA_MCM_NOTIFY_JOINED);
	} else {
		if (mb->state != RDMA_MCM_JOINING && mb->state != RDMA_MCM_JOINED)
			goto out;
		rdma_mcm_set_state(mb, RDMA_MCM_ERROR,
				   event->status ? event->status : -EIO);
		rdma_mcm_notify(ctx, mb, RDMA_MCM_NOTIFY_ERROR);
	}
	queued = true;
out:
	spin_unlock(&ctx->lock);
	if (queued)
		queue_work(rdma_mcm_wq, &ctx->work);
	else
		pr_debug("dropped %s for handle %u: no such membership in that state\n",
			 rdma_event_msg(event->event), handle);
}

static int rdma_mcm_cm_handler(struct rdma_cm_id *id,
			       struct rdma_cm_event *event)
{
	struct rdma_mcm_slot *slot = id->context;
	struct rdma_mcm_ctx *ctx = slot->ctx;

	switch (event->event) {
	case RDMA_CM_EVENT_MULTICAST_JOIN:
	case RDMA_CM_EVENT_MULTICAST_ERROR:
		rdma_mcm_mc_event(ctx, slot, event);
		break;
	case RDMA_CM_EVENT_DEVICE_REMOVAL:
		/*
		 * rdma_cm forbids destroying the id from here; its device
		 * removal waits until the ids are destroyed, which the work
		 * does at once.
		 */
		spin_lock(&ctx->lock);
		ctx->device_lost_pending = true;
		spin_unlock(&ctx->lock);
		queue_work(rdma_mcm_wq, &ctx->work);
		break;
	default:
		break;
	}
	return 0;
}

/* ------------------------------------------------------------ the work */

/*
 * The device went away. rdma_cm's device removal waits until our ids on it
 * are destroyed, so the ULP still has its device while the error callbacks
 * run: every membership fails with -ENODEV, QPs are detached first, and
 * the ULP can release its own verbs objects from ->error(). Only then are
 * the ids destroyed, letting the removal finish.
 */
static void rdma_mcm_device_lost(struct rdma_mcm_ctx *ctx)
{
	struct rdma_mcm_slot *slot, *tmp;
	struct rdma_mcm_membership *mb;
	unsigned int failed = 0;
	unsigned long idx;

	mutex_lock(&ctx->mutex);
	if (ctx->device_lost || ctx->closing) {
		mutex_unlock(&ctx->mutex);
		return;
	}
	ctx->device_lost = true;
	xa_for_each(&ctx->members, idx, mb) {
		struct rdma_ah_attr ah_attr;
		bool had_ah;

		if (mb->qp_attached)
			ctx->be->detach(ctx->be, mb->qp, &mb->mgid, mb->mlid);
		mb->qp_attached = false;
		mb->cm_joined = false;
		/*
		 * The address handle attributes hold a reference on the
		 * device's GID table, which must be gone before the device
		 * is: drop it now, not when the ULP leaves.
		 */
		spin_lock(&ctx->lock);
		had_ah = mb->have_ah;
		ah_attr = mb->ah_attr;
		mb->have_ah = false;
		memset(&mb->ah_attr, 0, sizeof(mb->ah_attr));
		if (mb->state == RDMA_MCM_JOINING || mb->state == RDMA_MCM_JOINED) {
			rdma_mcm_set_state(mb, RDMA_MCM_ERROR, -ENODEV);
			rdma_mcm_notify(ctx, mb, RDMA_MCM_NOTIFY_ERROR);
			failed++;
		}
		spin_unlock(&ctx->lock);
		if (had_ah)
			rdma_destroy_ah_attr(&ah_attr);
	}
	mutex_unlock(&ctx->mutex);
	pr_debug("device removed: %u memberships of a context failed\n",
		 failed);

	while (rdma_mcm_deliver_one(ctx))
		cond_resched();

	/* A callback may have closed the context: its ids are gone then. */
	mutex_lock(&ctx->mutex);
	xa_for_each(&ctx->members, idx, mb)
		mb->slot = NULL;
	list_for_each_entry_safe(slot, tmp, &ctx->slots, node)
		rdma_mcm_slot_destroy(ctx, slot);
	mutex_unlock(&ctx->mutex);
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
	spin_lock(&ctx->lock);
	if (mb->state != RDMA_MCM_JOINING) {	/* left, or failed meanwhile */
		spin_unlock(&ctx->lock);
		goto out;
	}
	spin_unlock(&ctx->lock);

	if (mb->qp && mb->join_type == RDMA_MCM_FULLMEMBER) {
		ret = ctx->be->attach(ctx->be, mb->qp, &mb->mgid, mb->mlid);
		if (ret) {
			if (mb->cm_joined && mb->slot)
				ctx->be->leave(ctx->be, mb->slot->id,
					       (struct sockaddr *)&mb->group);
			mb->cm_joined = false;
		} else {
			mb->qp_attached = true;
		}
	}

	spin_lock(&ctx->lock);
	if (mb->state == RDMA_MCM_JOINING) {
		if (ret) {
			rdma_mcm_set_state(mb, RDMA_MCM_ERROR, ret);
			*what = (*what & ~RDMA_MCM_NOTIFY_JOINED) |
				RDMA_MCM_NOTIFY_ERROR;
		} else {
			rdma_mcm_set_state(mb, RDMA_MCM_JOINED, 0);
		}
	}
	spin_unlock(&ctx->lock);
out:
	mutex_unlock(&ctx->mutex);
}

/* Call one ULP callback, if the membership is still in the state it reports. */
static void rdma_mcm_callback(struct rdma_mcm_ctx *ctx,
			      struct rdma_mcm_membership *mb, unsigned int what)
{
	enum rdma_mcm_state want = what == RDMA_MCM_NOTIFY_JOINED ?
				   RDMA_MCM_JOINED : RDMA_MCM_ERROR;
	struct rdma_mcm_join_info info;
	int status;

	spin_lock(&ctx->lock);
	if (ctx->closing || mb->state != want) {
		spin_unlock(&ctx->lock);
		return;
	}
	ctx->cb_member = mb;
	ctx->cb_task = current;
	status = mb->status;
	if (want == RDMA_MCM_JOINED) {
		memset(&info, 0, sizeof(info));
		info.handle = mb->handle;
		info.context = mb->context;
		rdma_mcm_addr_to_storage(&mb->group, &info.group);
		info.join_type = mb->join_type;
		info.mgid = mb->mgid;
		info.mlid = mb->mlid;
		info.qkey = mb->qkey;
		info.ah_attr = mb->ah_attr; /* our reference, valid meanwhile */
	}
	spin_unlock(&ctx->lock);

	lockdep_assert_not_held(&ctx->mutex);
	if (want == RDMA_MCM_JOINED) {
		if (ctx->ops->joined)
			ctx->ops->joined(ctx->priv, &info);
	} else if (ctx->ops->error) {
		ctx->ops->error(ctx->priv, mb->handle, mb->context, status);
	}

	spin_lock(&ctx->lock);
	ctx->cb_member = NULL;
	ctx->cb_task = NULL;
	spin_unlock(&ctx->lock);
	wake_up_all(&ctx->cb_wq);
}

/* Deliver the oldest pending notification. Returns false when none is left. */
static bool rdma_mcm_deliver_one(struct rdma_mcm_ctx *ctx)
{
	struct rdma_mcm_membership *mb;
	unsigned int what;

	spin_lock(&ctx->lock);
	mb = list_first_entry_or_null(&ctx->pending, struct rdma_mcm_membership,
				      pending_node);
	if (!mb || ctx->closing) {
		spin_unlock(&ctx->lock);
		return false;
	}
	list_del_init(&mb->pending_node);
	what = mb->pending;
	mb->pending = 0;
	refcount_inc(&mb->ref);
	spin_unlock(&ctx->lock);

	if (what & RDMA_MCM_NOTIFY_JOINED)
		rdma_mcm_finish_join(ctx, mb, &what);
	if (what & RDMA_MCM_NOTIFY_JOINED)
		rdma_mcm_callback(ctx, mb, RDMA_MCM_NOTIFY_JOINED);
	if (what & RDMA_MCM_NOTIFY_ERROR)
		rdma_mcm_callback(ctx, mb, RDMA_MCM_NOTIFY_ERROR);
	rdma_mcm_member_put(mb);
	return true;
}

static void rdma_mcm_work(struct work_struct *work)
{
	struct rdma_mcm_ctx *ctx = container_of(work, struct rdma_mcm_ctx,
						work);
	bool lost;

	spin_lock(&ctx->lock);
	lost = ctx->device_lost_pending;
	ctx->device_lost_pending = false;
	spin_unlock(&ctx->lock);
	if (lost)
		rdma_mcm_device_lost(ctx);

	while (rdma_mcm_deliver_one(ctx))
		cond_resched();
}

/* ------------------------------------------------------------ contexts */

static void rdma_mcm_ctx_free(struct rdma_mcm_ctx *ctx)
{
	WARN_ON_ONCE(!list_empty(&ctx->slots));
	WARN_ON_ONCE(!xa_empty(&ctx->members));
	rhashtable_destroy(&ctx->groups);
	xa_destroy(&ctx->members);
	mutex_destroy(&ctx->mutex);
	put_net(ctx->net);
	kfree(ctx);
	atomic_dec(&rdma_mcm_live_contexts);
	module_put(THIS_MODULE);
}

static void rdma_mcm_free_work(struct work_struct *work)
{
	struct rdma_mcm_ctx *ctx = container_of(work, struct rdma_mcm_ctx,
						free_work);

	/* The work whose callback closed the context may still be running. */
	cancel_work_sync(&ctx->work);
	rdma_mcm_ctx_free(ctx);
}

/* Length of a kernel caller's sockaddr, by its family. */
static size_t rdma_mcm_sockaddr_len(const struct sockaddr *sa)
{
	size_t len;

	if (!sa)
		return 0;
	len = rdma_addr_size(sa);
	return len ? len : sizeof(sa->sa_family);
}

/**
 * rdma_mcm_open_backend() - open a context on a given backend
 * @net: network namespace
 * @src: local source address
 * @ops: callbacks
 * @priv: passed to the callbacks
 * @be: rdma_cm/verbs backend (the real one, or a KUnit fake)
 *
 * See rdma_mcm_open().
 *
 * Return: the context or an ERR_PTR().
 */
struct rdma_mcm_ctx *rdma_mcm_open_backend(struct net *net,
					   const struct sockaddr *src,
					   const struct rdma_mcm_ops *ops,
					   void *priv,
					   const struct rdma_mcm_backend *be)
{
	struct rdma_mcm_slot *slot;
	struct rdma_mcm_ctx *ctx;
	int ret;

	might_sleep();
	if (!net || !ops || !be)
		return ERR_PTR(-EINVAL);
	ctx = rdma_mcm_fail_alloc() ? NULL : kzalloc(sizeof(*ctx), GFP_KERNEL);
	if (!ctx)
		return ERR_PTR(-ENOMEM);
	ret = rdma_mcm_addr_parse(src, rdma_mcm_sockaddr_len(src), &ctx->src);
	if (ret)
		goto err_free;
	ret = rdma_mcm_fail_alloc() ? -ENOMEM :
	      rhashtable_init(&ctx->groups, &rdma_mcm_group_params);
	if (ret)
		goto err_free;
	if (!try_module_get(THIS_MODULE)) {
		ret = -ENODEV;
		goto err_rht;
	}
	ctx->net = get_net(net);
	ctx->ops = ops;
	ctx->priv = priv;
	ctx->be = be;
	mutex_init(&ctx->mutex);
	spin_lock_init(&ctx->lock);
	xa_init_flags(&ctx->members, XA_FLAGS_ALLOC1);
	INIT_LIST_HEAD(&ctx->slots);
	INIT_LIST_HEAD(&ctx->free_slots);
	INIT_LIST_HEAD(&ctx->pending);
	INIT_WORK(&ctx->work, rdma_mcm_work);
	INIT_WORK(&ctx->free_work, rdma_mcm_free_work);
	init_waitqueue_head(&ctx->cb_wq);
	atomic_inc(&rdma_mcm_live_contexts);

	/* The first id checks the address: it must have an RDMA device. */
	mutex_lock(&ctx->mutex);
	slot = rdma_mcm_slot_create(ctx);
	mutex_unlock(&ctx->mutex);
	if (IS_ERR(slot)) {
		ret = PTR_ERR(slot);
		rdma_mcm_ctx_free(ctx);
		return ERR_PTR(ret);
	}
	return ctx;

err_rht:
	rhashtable_destroy(&ctx->groups);
err_free:
	kfree(ctx);
	return ERR_PTR(ret);
}

/**
 * rdma_mcm_open() - open a multicast manager context
 * @net: network namespace of @src; the context holds a reference
 * @src: local source address (AF_INET, AF_INET6 or AF_IB) of an RDMA
 *	device; every membership of the context is joined from it
 * @ops: the ULP's callbacks; must stay valid until rdma_mcm_close()
 * @priv: passed to the callbacks
 *
 * Creates and binds the context's first rdma_cm_id (RDMA_PS_UDP,
 * IB_QPT_UD), so that a bad address fails here, not at the first join.
 * The context holds a reference on the rdma_mcm module.
 *
 * Context: process context; may sleep.
 * Return: the context, or an ERR_PTR(): -EINVAL for a NULL argument or an
 * address too short for its family, -EAFNOSUPPORT for another family,
 * -EADDRNOTAVAIL when no netdev of @net owns @src, -ENODEV when its
 * netdev has no RDMA device (or @src is a wildcard or loopback address),
 * -ENOMEM.
 */
struct rdma_mcm_ctx *rdma_mcm_open(struct net *net, const struct sockaddr *src,
				   const struct rdma_mcm_ops *ops, void *priv)
{
	return rdma_mcm_open_backend(net, src, ops, priv,
				     &rdma_mcm_rdma_cm_backend);
}
EXPORT_SYMBOL_GPL(rdma_mcm_open);

/*
 * Drop one membership: no more notifications, QP detached, rdma_cm's
 * membership left (unless @cm_leave is false because the id is about to be
 * destroyed, which leaves it anyway), out of the tables. The caller waits
 * for a callback in flight and drops the tables' reference.
 */
static void __rdma_mcm_leave(struct rdma_mcm_ctx *ctx,
			     struct rdma_mcm_membership *mb, bool cm_leave)
{
	lockdep_assert_held(&ctx->mutex);

	spin_lock(&ctx->lock);
	rdma_mcm_set_state(mb, RDMA_MCM_LEAVING, 0);
	if (mb->pending) {
		list_del_init(&mb->pending_node);
		mb->pending = 0;
	}
	xa_erase(&ctx->members, mb->handle);
	spin_unlock(&ctx->lock);
	rhashtable_remove_fast(&ctx->groups, &mb->hnode, rdma_mcm_group_params);

	/* Like librdmacm: detach the QP first, then leave the group. */
	if (mb->qp_attached)
		ctx->be->detach(ctx->be, mb->qp, &mb->mgid, mb->mlid);
	mb->qp_attached = false;
	if (mb->cm_joined && cm_leave && mb->slot)
		ctx->be->leave(ctx->be, mb->slot->id,
			       (struct sockaddr *)&mb->group);
	mb->cm_joined = false;
	if (mb->slot)
		rdma_mcm_slot_put(ctx, mb->slot);
	mb->slot = NULL;

	spin_lock(&ctx->lock);
	rdma_mcm_set_state(mb, RDMA_MCM_LEFT, 0);
	spin_unlock(&ctx->lock);
}

static bool rdma_mcm_cb_idle(struct rdma_mcm_ctx *ctx,
			     struct rdma_mcm_membership *mb)
{
	bool idle;

	spin_lock(&ctx->lock);
	idle = ctx->cb_member != mb;
	spin_unlock(&ctx->lock);
	return idle;
}

/* Wait until no callback for @mb runs, unless the caller is that callback. */
static void rdma_mcm_cb_barrier(struct rdma_mcm_ctx *ctx,
				struct rdma_mcm_membership *mb)
{
	if (READ_ONCE(ctx->cb_task) == current)
		return;
	wait_event(ctx->cb_wq, rdma_mcm_cb_idle(ctx, mb));
}

/**
 * rdma_mcm_close() - leave every group and free a context
 * @ctx: the context
 *
 * Detaches every attached QP, leaves every group (a join still in flight
 * is cancelled), destroys the context's rdma_cm_ids and waits for a
 * callback in flight to return. No callback of @ctx runs after
 * rdma_mcm_close() returns, and @ctx must not be used again.
 *
 * Called from one of @ctx's own callbacks, it does all of this but the
 * wait, and the context is freed once the callback returns.
 * Must not be called from a callback of another context that this
 * context's callbacks could close in turn.
 *
 * Context: process context; may sleep.
 */
void rdma_mcm_close(struct rdma_mcm_ctx *ctx)
{
	struct rdma_mcm_slot *slot, *tmp;
	struct rdma_mcm_membership *mb;
	unsigned long idx;
	bool in_callback;

	might_sleep();
	spin_lock(&ctx->lock);
	if (WARN_ON_ONCE(ctx->closing)) {
		spin_unlock(&ctx->lock);
		return;
	}
	ctx->closing = true;
	in_callback = ctx->cb_task == current;
	spin_unlock(&ctx->lock);

	mutex_lock(&ctx->mutex);
	xa_for_each(&ctx->members, idx, mb) {
		__rdma_mcm_leave(ctx, mb, false);
		rdma_mcm_member_put(mb);
	}
	list_for_each_entry_safe(slot, tmp, &ctx->slots, node)
		rdma_mcm_slot_destroy(ctx, slot);
	mutex_unlock(&ctx->mutex);

	if (in_callback) {
		queue_work(rdma_mcm_wq, &ctx->free_work);
		return;
	}
	cancel_work_sync(&ctx->work);
	rdma_mcm_ctx_free(ctx);
}
EXPORT_SYMBOL_GPL(rdma_mcm_close);

/**
 * rdma_mcm_join() - join a multicast group
 * @ctx: the context
 * @group: the group: an address of the context's family (AF_INET,
 *	AF_INET6) that is multicast, or for AF_IB an MGID starting with 0xff.
 *	A port in it is ignored.
 * @join_type: %RDMA_MCM_FULLMEMBER or %RDMA_MCM_SENDONLY_FULLMEMBER
 * @qp: a UD QP on the context's device to attach once joined, or NULL.
 *	Not attached for a send-only join. The QP must stay alive until the
 *	membership is left (ib_attach_mcast() holds it busy anyway).
 * @context: the ULP's per-membership context, passed to the callbacks
 * @handle: set to the membership's handle (never 0) on success
 *
 * Sends the join and returns at once. ->joined() follows when the join
 * completes (after @qp is attached); ->error() when it fails.
 * Unlike rdma_join_multicast(), the same group cannot be joined twice on
 * one context.
 *
 * Context: process context; may sleep. May be called from a callback.
 * Return: 0; -EINVAL for a malformed, non-multicast or other-family group
 * or a bad @join_type; -EAFNOSUPPORT for an unsupported family;
 * -EADDRINUSE when the context already has a membership of @group;
 * -ENODEV when the context's device is gone; -ESHUTDOWN when the context
 * is being closed; -ENOMEM, -EBUSY, or any error of rdma_join_multicast().
 */
int rdma_mcm_join(struct rdma_mcm_ctx *ctx, const struct sockaddr *group,
		  enum rdma_mcm_join_type join_type, struct ib_qp *qp,
		  void *context, u32 *handle)
{
	struct rdma_mcm_membership *mb;
	struct rdma_mcm_slot *slot;
	u8 join_state;
	int ret;

	might_sleep();
	if (!handle)
		return -EINVAL;
	switch (join_type) {
	case RDMA_MCM_FULLMEMBER:
		join_state = BIT(FULLMEMBER_JOIN);
		break;
	case RDMA_MCM_SENDONLY_FULLMEMBER:
		join_state = BIT(SENDONLY_FULLMEMBER_JOIN);
		break;
	default:
		return -EINVAL;
	}

	mb = rdma_mcm_fail_alloc() ? NULL :
	     kmem_cache_zalloc(rdma_mcm_member_cache, GFP_KERNEL);
	if (!mb)
		return -ENOMEM;
	atomic_inc(&rdma_mcm_live_members);
	refcount_set(&mb->ref, 1);
	ret = rdma_mcm_group_parse(group, rdma_mcm_sockaddr_len(group),
				   ctx->src.sa.sa_family, &mb->group, &mb->key);
	if (ret)
		goto err_free;
	mb->ctx = ctx;
	mb->join_type = join_type;
	mb->qp = qp;
	mb->context = context;
	mb->state = RDMA_MCM_JOINING;
	INIT_LIST_HEAD(&mb->pending_node);

	mutex_lock(&ctx->mutex);
	if (ctx->closing) {
		ret = -ESHUTDOWN;
		goto err_unlock;
	}
	if (ctx->device_lost) {
		ret = -ENODEV;
		goto err_unlock;
	}
	ret = rdma_mcm_fail_alloc() ? -ENOMEM :
	      rhashtable_lookup_insert_fast(&ctx->groups, &mb->hnode,
					    rdma_mcm_group_params);
	if (ret) {
		if (ret == -EEXIST)
			ret = -EADDRINUSE;
		goto err_unlock;
	}
	slot = rdma_mcm_slot_get(ctx);
	if (IS_ERR(slot)) {
		ret = PTR_ERR(slot);
		goto err_unhash;
	}
	mb->slot = slot;
	/* Published before the join: its event may come before we return. */
	ret = rdma_mcm_fail_alloc() ? -ENOMEM :
	      xa_alloc_cyclic(&ctx->members, &mb->handle, mb,
			      XA_LIMIT(1, U32_MAX), &ctx->next_handle,
			      GFP_KERNEL);
	if (ret < 0)
		goto err_slot;

	mb->cm_joined = true;
	/* rdma_join_multicast() allocates: its -ENOMEM is injected here */
	ret = rdma_mcm_fail_alloc() ? -ENOMEM :
	      ctx->be->join(ctx->be, slot->id, (struct sockaddr *)&mb->group,
			    join_state, (void *)(uintptr_t)mb->handle);
	if (ret) {
		mb->cm_joined = false;
		spin_lock(&ctx->lock);
		xa_erase(&ctx->members, mb->handle);
		if (mb->pending)
			list_del_init(&mb->pending_node);
		spin_unlock(&ctx->lock);
		goto err_slot;
	}
	*handle = mb->handle;
	mutex_unlock(&ctx->mutex);
	return 0;

err_slot:
	mb->slot = NULL;
	rdma_mcm_slot_put(ctx, slot);
err_unhash:
	rhashtable_remove_fast(&ctx->groups, &mb->hnode, rdma_mcm_group_params);
err_unlock:
	mutex_unlock(&ctx->mutex);
err_free:
	rdma_mcm_member_put(mb);
	return ret;
}
EXPORT_SYMBOL_GPL(rdma_mcm_join);

static int rdma_mcm_leave_member(struct rdma_mcm_ctx *ctx,
				 struct rdma_mcm_membership *mb)
{
	lockdep_assert_held(&ctx->mutex);
	__rdma_mcm_leave(ctx, mb, true);
	mutex_unlock(&ctx->mutex);
	rdma_mcm_cb_barrier(ctx, mb);
	rdma_mcm_member_put(mb);
	return 0;
}

/**
 * rdma_mcm_leave() - leave a group, or cancel a join in flight
 * @ctx: the context
 * @handle: the membership, as rdma_mcm_join() returned it
 *
 * Detaches the QP (if attached), then leaves the group; a join that has
 * not completed is cancelled, and no IGMP or SA membership is left
 * behind. A membership in %RDMA_MCM_ERROR is left the same way.
 *
 * This is a barrier: when rdma_mcm_leave() returns, no callback for this
 * membership runs, and none ever will (it waits for one in flight, unless
 * called from that very callback). Receive completions already queued on
 * the ULP's CQ may still arrive, as with rdma_leave_multicast().
 *
 * Context: process context; may sleep. May be called from a callback.
 * Return: 0, or -EADDRNOTAVAIL when @ctx has no membership @handle.
 */
int rdma_mcm_leave(struct rdma_mcm_ctx *ctx, u32 handle)
{
	struct rdma_mcm_membership *mb;

	might_sleep();
	mutex_lock(&ctx->mutex);
	mb = xa_load(&ctx->members, handle);
	if (!mb) {
		mutex_unlock(&ctx->mutex);
		return -EADDRNOTAVAIL;
	}
	return rdma_mcm_leave_member(ctx, mb);
}
EXPORT_SYMBOL_GPL(rdma_mcm_leave);

/**
 * rdma_mcm_leave_addr() - leave a group by its address
 * @ctx: the context
 * @group: the group address, as given to rdma_mcm_join()
 *
 * Like rdma_mcm_leave(), found by address in O(1).
 *
 * Context: process context; may sleep. May be called from a callback.
 * Return: 0; -EINVAL for a malformed, non-multicast or other-family
 * address; -EAFNOSUPPORT for an unsupported family; -EADDRNOTAVAIL when
 * @ctx has no membership of @group.
 */
int rdma_mcm_leave_addr(struct rdma_mcm_ctx *ctx, const struct sockaddr *group)
{
	u32 handle;
	int ret;

	might_sleep();
	ret = rdma_mcm_find_handle(ctx, group, &handle);
	if (ret)
		return ret;
	/* Left meanwhile by another caller: then it is no longer a member. */
	return rdma_mcm_leave(ctx, handle);
}
EXPORT_SYMBOL_GPL(rdma_mcm_leave_addr);

/**
 * rdma_mcm_find_handle() - the handle of a context's membership of a group
 * @ctx: the context
 * @group: the group address
 * @handle: set to the membership's handle
 *
 * Context: process context.
 * Return: 0; the address errors of rdma_mcm_leave_addr(); -EADDRNOTAVAIL
 * when @ctx has no membership of @group.
 */
int rdma_mcm_find_handle(struct rdma_mcm_ctx *ctx, const struct sockaddr *group,
			 u32 *handle)
{
	struct rdma_mcm_membership *mb;
	union rdma_mcm_addr addr;
	struct rdma_mcm_key key;
	int ret;

	ret = rdma_mcm_group_parse(group, rdma_mcm_sockaddr_len(group),
				   ctx->src.sa.sa_family, &addr, &key);
	if (ret)
		return ret;
	mutex_lock(&ctx->mutex);
	mb = rhashtable_lookup_fast(&ctx->groups, &key, rdma_mcm_group_params);
	if (mb)
		*handle = mb->handle;
	mutex_unlock(&ctx->mutex);
	return mb ? 0 : -EADDRNOTAVAIL;
}

/**
 * rdma_mcm_query() - the state of one membership
 * @ctx: the context
 * @handle: the membership
 * @info: filled with a snapshot
 *
 * Context: any context that may take a spinlock.
 * Return: 0, or -EADDRNOTAVAIL when @ctx has no membership @handle.
 */
int rdma_mcm_query(struct rdma_mcm_ctx *ctx, u32 handle,
		   struct rdma_mcm_member_info *info)
{
	struct rdma_mcm_membership *mb;
	int ret = -EADDRNOTAVAIL;

	spin_lock(&ctx->lock);
	mb = xa_load(&ctx->members, handle);
	if (mb) {
		rdma_mcm_fill_info(mb, info);
		ret = 0;
	}
	spin_unlock(&ctx->lock);
	return ret;
}
EXPORT_SYMBOL_GPL(rdma_mcm_query);

/**
 * rdma_mcm_list() - walk a context's memberships, a page at a time
 * @ctx: the context
 * @start: the first handle to consider (0 or 1 for the beginning)
 * @infos: room for @max snapshots
 * @max: how many to return at most
 * @next: set to the handle to pass as @start for the next page, or to 0
 *	when the walk is complete
 *
 * Memberships are returned in handle order; each is a consistent snapshot,
 * the page as a whole is not.
 *
 * Context: any context that may take a spinlock.
 * Return: the number of snapshots written.
 */
int rdma_mcm_list(struct rdma_mcm_ctx *ctx, u32 start,
		  struct rdma_mcm_member_info *infos, unsigned int max,
		  u32 *next)
{
	struct rdma_mcm_membership *mb;
	unsigned long idx;
	unsigned int n = 0;

	*next = 0;
	spin_lock(&ctx->lock);
	xa_for_each_start(&ctx->members, idx, mb, start) {
		if (n == max) {
			*next = idx;
			break;
		}
		rdma_mcm_fill_info(mb, &infos[n++]);
	}
	spin_unlock(&ctx->lock);
	return n;
}
EXPORT_SYMBOL_GPL(rdma_mcm_list);

/**
 * rdma_mcm_device() - the RDMA device and port a context joins on
 * @ctx: the context
 * @port_num: set to the port number
 *
 * A ULP creates the QP it passes to rdma_mcm_join() on this device. The
 * device stays registered at least until the ULP's ->error() callbacks
 * with -ENODEV have returned.
 *
 * Context: process context; may sleep.
 * Return: the device, or NULL once the device is gone.
 */
struct ib_device *rdma_mcm_device(struct rdma_mcm_ctx *ctx, u32 *port_num)
{
	struct ib_device *device = NULL;
	struct rdma_mcm_slot *slot;

	mutex_lock(&ctx->mutex);
	slot = list_first_entry_or_null(&ctx->slots, struct rdma_mcm_slot, node);
	if (slot && !ctx->device_lost) {
		device = slot->id->device;
		*port_num = slot->id->port_num;
	}
	mutex_unlock(&ctx->mutex);
	return device;
}
EXPORT_SYMBOL_GPL(rdma_mcm_device);

/**
 * rdma_mcm_flush() - wait until every queued notification is delivered
 *
 * For tests: the notifications queued before the call have been delivered
 * (or dropped) when it returns.
 */
void rdma_mcm_flush(void)
{
	flush_workqueue(rdma_mcm_wq);
}

/**
 * rdma_mcm_live_objects() - count the objects alive in the module
 * @live: filled with the counts
 */
void rdma_mcm_live_objects(struct rdma_mcm_live *live)
{
	live->contexts = atomic_read(&rdma_mcm_live_contexts);
	live->members = atomic_read(&rdma_mcm_live_members);
	live->slots = atomic_read(&rdma_mcm_live_slots);
	rdma_mcm_cdev_live_objects(live);
}

int rdma_mcm_core_init(void)
{
	rdma_mcm_member_cache = KMEM_CACHE(rdma_mcm_membership, SLAB_NO_MERGE);
	if (!rdma_mcm_member_cache)
		return -ENOMEM;
	rdma_mcm_wq = alloc_workqueue("rdma_mcm", WQ_UNBOUND, 0);
	if (!rdma_mcm_wq) {
		kmem_cache_destroy(rdma_mcm_member_cache);
		return -ENOMEM;
	}
	return 0;
}

void rdma_mcm_core_exit(void)
{
	struct rdma_mcm_live live;

	/* Also waits for a context's free work, which runs module code. */
	destroy_workqueue(rdma_mcm_wq);
	rdma_mcm_live_objects(&live);
	WARN_ON_ONCE(live.contexts || live.members || live.slots ||
		     live.files || live.ucontexts || live.umembers);
	kmem_cache_destroy(rdma_mcm_member_cache);
}
