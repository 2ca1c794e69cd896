// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * rdma_mcm: memberships. Join, leave (and cancel), leave by address,
 * query and list, and what the manager does to one membership when it is
 * dropped or its device goes away.
 *
 * A membership is in two tables of its context, both trees in the
 * memberships themselves: ctx->members by handle and ctx->groups by group
 * key, which refuses a second membership of a group. It is published
 * before rdma_cm is asked to join, because the join's event may arrive
 * before the call returns; rdma_cm events name a membership by handle
 * (the join's private data), looked up under ctx->lock, so an event for
 * a membership already left finds nothing and is dropped.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/err.h>
#include <linux/lockdep.h>
#include <linux/module.h>
#include <linux/sched/mm.h>
#include <linux/slab.h>
#include <linux/ktime.h>
#include <linux/timekeeping.h>
#include <net/ipv6.h>
#include <rdma/ib_sa.h>

#include "rdma_mcm_compat.h"
#include "rdma_mcm_internal.h"

static struct kmem_cache *rdma_mcm_member_cache;

/*
 * The order of ctx->groups: memcmp() of the group keys. Every group of a
 * context has the context's family; an IPv4 key is the address and
 * zeros, so IPv4 groups compare by their four bytes alone, without a key
 * built at every step of a walk.
 */
/* The bytes @mb's group compares by (see above), in @buf if need be. */
static const void *rdma_mcm_member_key(const struct rdma_mcm_membership *mb,
				       struct rdma_mcm_key *buf, size_t *len)
{
	if (mb->group.sa.sa_family == AF_INET) {
		*len = sizeof(mb->group.in.sin_addr);
		return &mb->group.in.sin_addr;
	}
	rdma_mcm_group_key(&mb->group, mb->ctx->ib_mgid, buf);
	*len = sizeof(*buf);
	return buf;
}

static int rdma_mcm_key_cmp(const void *key, const struct rb_node *node)
{
	const struct rdma_mcm_membership *mb =
		rb_entry(node, struct rdma_mcm_membership, gnode);
	struct rdma_mcm_key buf;
	const void *mkey;
	size_t len;

	mkey = rdma_mcm_member_key(mb, &buf, &len);
	return memcmp(key, mkey, len);
}

static int rdma_mcm_node_cmp(struct rb_node *a, const struct rb_node *b)
{
	const struct rdma_mcm_membership *mb =
		rb_entry(a, struct rdma_mcm_membership, gnode);
	struct rdma_mcm_key buf;
	size_t len;

	return rdma_mcm_key_cmp(rdma_mcm_member_key(mb, &buf, &len), b);
}

static bool rdma_mcm_node_less(struct rb_node *a, const struct rb_node *b)
{
	return rdma_mcm_node_cmp(a, b) < 0;
}

/**
 * rdma_mcm_groups_rekey() - order a context's groups by its link layer's keys
 * @ctx: the context, whose ib_mgid just changed (a healing context found a
 *	device of the other link layer)
 *
 * The tree is built again with the keys of the new link layer. Two IPv6
 * groups joined on RoCE that InfiniBand maps to one MGID both stay, side
 * by side (rdma_mcm_find_handle() tells them apart); a new join of either
 * is refused as before.
 *
 * Context: @ctx->mutex held.
 */
void rdma_mcm_groups_rekey(struct rdma_mcm_ctx *ctx)
{
	struct rdma_mcm_membership *mb, *tmp;
	struct rb_root old = ctx->groups;

	lockdep_assert_held(&ctx->mutex);
	ctx->groups = RB_ROOT;
	/* postorder: a node is moved only once its subtrees were */
	rbtree_postorder_for_each_entry_safe(mb, tmp, &old, gnode)
		rb_add(&mb->gnode, &ctx->groups, rdma_mcm_node_less);
}

static int rdma_mcm_handle_cmp(const void *key, const struct rb_node *node)
{
	u32 handle = *(const u32 *)key;
	u32 other = rb_entry(node, struct rdma_mcm_membership, hnode)->handle;

	return handle < other ? -1 : handle > other;
}

static int rdma_mcm_handle_node_cmp(struct rb_node *a, const struct rb_node *b)
{
	return rdma_mcm_handle_cmp(&rdma_mcm_member_of(a)->handle, b);
}

/**
 * rdma_mcm_member_find() - a membership by handle
 * @ctx: the context
 * @handle: the handle
 *
 * Context: @ctx->lock or @ctx->mutex held.
 * Return: the membership, or NULL.
 */
struct rdma_mcm_membership *rdma_mcm_member_find(struct rdma_mcm_ctx *ctx,
						 u32 handle)
{
	return rdma_mcm_member_of(rb_find(&handle, &ctx->members,
					  rdma_mcm_handle_cmp));
}

/* The membership with the lowest handle >= @start, or NULL; ctx->lock. */
struct rdma_mcm_membership *rdma_mcm_member_from(struct rdma_mcm_ctx *ctx,
						 u32 start)
{
	struct rb_node *node = ctx->members.rb_node, *best = NULL;

	lockdep_assert_held(&ctx->lock);
	while (node) {
		if (rdma_mcm_member_of(node)->handle >= start) {
			best = node;
			node = node->rb_left;
		} else {
			node = node->rb_right;
		}
	}
	return rdma_mcm_member_of(best);
}

/*
 * Give @mb the next free handle, cyclically (a handle is not soon used
 * again), never 0, and publish it. Only 4G live memberships could make
 * this loop for good.
 */
static void rdma_mcm_handle_add(struct rdma_mcm_ctx *ctx,
				struct rdma_mcm_membership *mb)
{
	lockdep_assert_held(&ctx->mutex);
	lockdep_assert_held(&ctx->lock);
	do {
		mb->handle = ctx->next_handle++;
	} while (!mb->handle ||
		 rb_find_add(&mb->hnode, &ctx->members,
			     rdma_mcm_handle_node_cmp));
	ctx->nr_members++;
}

/* Unpublish @mb: no lookup finds it any more; ctx->lock held */
static void rdma_mcm_handle_del(struct rdma_mcm_ctx *ctx,
				struct rdma_mcm_membership *mb)
{
	lockdep_assert_held(&ctx->lock);
	rb_erase(&mb->hnode, &ctx->members);
	ctx->nr_members--;
}

/**
 * rdma_mcm_ah_alloc() - room for a join event's address handle attributes
 * @ctx: the context, whose memory cgroup is charged
 *
 * Context: process context (rdma_cm's handler); may sleep.
 * Return: the room, or NULL.
 */
struct rdma_ah_attr *rdma_mcm_ah_alloc(struct rdma_mcm_ctx *ctx)
{
	struct mem_cgroup *old;
	struct rdma_ah_attr *ah;

	if (rdma_mcm_fail_alloc())
		return NULL;
	old = set_active_memcg(ctx->memcg);
	ah = kmalloc_obj(*ah, GFP_KERNEL_ACCOUNT);
	set_active_memcg(old);
	return ah;
}

/**
 * rdma_mcm_ah_free() - free kept address handle attributes
 * @ah: from rdma_mcm_ah_alloc(), filled by rdma_copy_ah_attr(); or NULL
 *
 * Context: process context (drops a GID table reference).
 */
void rdma_mcm_ah_free(struct rdma_ah_attr *ah)
{
	if (!ah)
		return;
	rdma_destroy_ah_attr(ah);
	kfree(ah);
}

/**
 * rdma_mcm_member_put() - drop a reference on a membership
 * @mb: the membership
 *
 * Context: process context (the last reference may drop a GID reference).
 */
void rdma_mcm_member_put(struct rdma_mcm_membership *mb)
{
	might_sleep();
	if (!refcount_dec_and_test(&mb->ref))
		return;
	rdma_mcm_ah_free(mb->ah);
	kmem_cache_free(rdma_mcm_member_cache, mb);
	atomic_dec(&rdma_mcm_live_members);
}

/*
 * A member on its way out (LEAVING, between its state change and its
 * erasure from the handle table) is no longer a member to callers.
 */
bool rdma_mcm_member_visible(const struct rdma_mcm_membership *mb)
{
	lockdep_assert_held(&mb->ctx->lock);
	return mb->state == RDMA_MCM_JOINING || mb->state == RDMA_MCM_JOINED ||
	       mb->state == RDMA_MCM_ERROR || mb->state == RDMA_MCM_WAITING;
}

/* The membership @handle, if a caller may see it; ctx->lock held. */
static struct rdma_mcm_membership *
rdma_mcm_find_visible(struct rdma_mcm_ctx *ctx, u32 handle)
{
	struct rdma_mcm_membership *mb = rdma_mcm_member_find(ctx, handle);

	return mb && rdma_mcm_member_visible(mb) ? mb : NULL;
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
	info->rejoins = mb->rejoins;
	info->last_status = mb->last_status;
	info->state_time_ns = mb->state_time_ns;
	if (mb->have_join) {
		info->mgid = mb->mgid;
		info->mlid = mb->mlid;
		info->qkey = mb->qkey;
	}
}

/**
 * rdma_mcm_member_drop() - take a membership out of its context
 * @ctx: the context
 * @mb: the membership
 * @cm_leave: leave rdma_cm's membership; false when its id is about to be
 *	destroyed, which leaves it anyway
 *
 * No more notifications, QP detached (before the group is left, as
 * librdmacm does), out of the tables. The caller waits for a callback in
 * flight and drops the tables' reference.
 *
 * Context: process context, @ctx->mutex held.
 */
void rdma_mcm_member_drop(struct rdma_mcm_ctx *ctx,
			  struct rdma_mcm_membership *mb, bool cm_leave)
{
	struct rdma_ah_attr *ah;
	int from;

	lockdep_assert_held(&ctx->mutex);

	rdma_mcm_wait_stop(ctx, mb);
	spin_lock_bh(&ctx->lock);
	from = mb->state;
	rdma_mcm_set_state(mb, RDMA_MCM_LEAVING, 0);
	rdma_mcm_observe_leave(mb, from);
	rdma_mcm_unnotify(ctx, mb);
	/*
	 * The GID reference goes now, under the mutex, not with the last
	 * reference: once out of the tables, a device's loss no longer sees
	 * this member, and the device must not wait on (nor be outlived by)
	 * a caller still in the barrier below. A callback in flight holds a
	 * reference of its own.
	 */
	ah = mb->ah;
	mb->ah = NULL;
	/* no event, query or list finds it from now on */
	rdma_mcm_handle_del(ctx, mb);
	spin_unlock_bh(&ctx->lock);
	rdma_mcm_ah_free(ah);
	rb_erase(&mb->gnode, &ctx->groups);

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

	spin_lock_bh(&ctx->lock);
	rdma_mcm_set_state(mb, RDMA_MCM_LEFT, 0);
	spin_unlock_bh(&ctx->lock);
}

/**
 * rdma_mcm_member_lose_device() - a membership's device is going away
 * @ctx: the context
 * @mb: the membership
 *
 * Detaches the QP, drops the address handle's GID table reference (it
 * must be gone before the device is, not when the ULP leaves), and fails
 * a JOINING or JOINED membership with -ENODEV. rdma_cm's membership goes
 * with the ids.
 *
 * Context: the context's work, @ctx->mutex held.
 */
void rdma_mcm_member_lose_device(struct rdma_mcm_ctx *ctx,
				 struct rdma_mcm_membership *mb)
{
	bool heal = ctx->flags & RDMA_MCM_OPEN_HEAL;
	struct rdma_ah_attr *ah;

	lockdep_assert_held(&ctx->mutex);
	if (mb->qp_attached)
		ctx->be->detach(ctx->be, mb->qp, &mb->mgid, mb->mlid);
	mb->qp_attached = false;
	mb->cm_joined = false;
	/* the ULP's QP is of the device: a new one comes by rdma_mcm_set_qp() */
	if (heal)
		mb->qp = NULL;

	spin_lock_bh(&ctx->lock);
	ah = mb->ah;
	mb->ah = NULL;
	mb->have_join = false;
	if (mb->state == RDMA_MCM_JOINING || mb->state == RDMA_MCM_JOINED) {
		rdma_mcm_set_state(mb, heal ? RDMA_MCM_WAITING : RDMA_MCM_ERROR,
				   -ENODEV);
		rdma_mcm_notify(ctx, mb, heal ? RDMA_MCM_NOTIFY_REJOINING :
						RDMA_MCM_NOTIFY_ERROR);
	}
	spin_unlock_bh(&ctx->lock);
	rdma_mcm_ah_free(ah);
	if (mb->state == RDMA_MCM_WAITING)
		rdma_mcm_wait_for_device(ctx, mb);
}

/*
 * rdma_join_multicast()'s errors, as rdma_mcm documents them. The manager
 * hands rdma_cm only checked multicast groups of the id's family on a
 * bound UD id, so:
 *  -ENOTSUPP (RoCE v2 and a group that is not IPv4): the device cannot
 *   join this group, -EOPNOTSUPP (a port without multicast at all is
 *   refused before rdma_cm is asked, with the same errno);
 *  -EINVAL: the id left the bound state because its device is being
 *   removed (-ENODEV), or else the netdev's MTU is too small for RoCE
 *   (-EOPNOTSUPP);
 *  -EADDRNOTAVAIL (InfiniBand): the port has no SA record of its
 *   partition's broadcast group yet, IPoIB is not up: -ENETDOWN;
 *  -ENODEV (the netdev went away), -ENOMEM: as they are.
 * Anything else is logged and reported as -EIO.
 */
static int rdma_mcm_join_errno(struct rdma_cm_id *id, int err)
{
	switch (err) {
	case -ENODEV:
	case -ENOMEM:
		return err;
	case -ENOTSUPP:
	case -EOPNOTSUPP:
		return -EOPNOTSUPP;
	case -EINVAL:
		return rdma_mcm_dev_removing(id->device) ? -ENODEV : -EOPNOTSUPP;
	case -EADDRNOTAVAIL:
		return -ENETDOWN;
	default:
		pr_warn_ratelimited("unexpected error %d from rdma_join_multicast(), reported as -EIO\n",
				    err);
		return -EIO;
	}
}

/**
 * rdma_mcm_join_state() - rdma_cm's join state of a join type
 * @join_type: %RDMA_MCM_FULLMEMBER or %RDMA_MCM_SENDONLY_FULLMEMBER
 *
 * Return: the JoinState bit, or 0 for another type.
 */
u8 rdma_mcm_join_state(enum rdma_mcm_join_type join_type)
{
	switch (join_type) {
	case RDMA_MCM_FULLMEMBER:
		return BIT(FULLMEMBER_JOIN);
	case RDMA_MCM_SENDONLY_FULLMEMBER:
		return BIT(SENDONLY_FULLMEMBER_JOIN);
	default:
		return 0;
	}
}

/*
 * Ask rdma_cm to join @mb's group on @slot's id. Its event may come before
 * this returns. Returns 0 or a documented errno.
 */
static int rdma_mcm_send_join(struct rdma_mcm_ctx *ctx,
			      struct rdma_mcm_membership *mb,
			      struct rdma_mcm_slot *slot)
{
	int ret;

	lockdep_assert_held(&ctx->mutex);
	mb->slot = slot;
	mb->cm_joined = true;
	/* rdma_join_multicast() allocates: its -ENOMEM is injected here */
	ret = rdma_mcm_fail_alloc() ? -ENOMEM :
	      ctx->be->join(ctx->be, slot->id, (struct sockaddr *)&mb->group,
			    rdma_mcm_join_state(mb->join_type),
			    (void *)(uintptr_t)mb->handle);
	if (!ret)
		return 0;
	mb->cm_joined = false;
	return rdma_mcm_join_errno(slot->id, ret);
}

/**
 * rdma_mcm_member_join() - join a waiting membership again
 * @ctx: the context, with a device
 * @mb: the membership, %RDMA_MCM_WAITING and off the waiting list
 *
 * On success the membership is JOINING again, its join a rejoin (it ends
 * in ->rejoined()). On failure it is JOINING without an id: the caller
 * makes it wait again or fail.
 *
 * Context: process context, @ctx->mutex held.
 * Return: 0, or the errors of rdma_mcm_join().
 */
int rdma_mcm_member_join(struct rdma_mcm_ctx *ctx,
			 struct rdma_mcm_membership *mb)
{
	struct rdma_mcm_slot *slot;
	int ret;

	lockdep_assert_held(&ctx->mutex);
	spin_lock_bh(&ctx->lock);
	rdma_mcm_set_state(mb, RDMA_MCM_JOINING, 0);
	mb->rejoin = true;
	rdma_mcm_observe_rejoin(mb);
	spin_unlock_bh(&ctx->lock);
	slot = rdma_mcm_slot_get(ctx);
	if (IS_ERR(slot))
		return PTR_ERR(slot);
	ret = rdma_mcm_send_join(ctx, mb, slot);
	if (ret) {
		mb->slot = NULL;
		rdma_mcm_slot_put(ctx, slot);
	}
	return ret;
}

/* rdma_mcm_join() but for the counting of its failures */
static int __rdma_mcm_join(struct rdma_mcm_ctx *ctx,
			   const struct sockaddr *group,
			   enum rdma_mcm_join_type join_type, struct ib_qp *qp,
			   void *context, u32 *handle)
{
	struct rdma_mcm_membership *mb;
	struct rdma_mcm_slot *slot;
	int ret;

	might_sleep();
	if (!handle || !rdma_mcm_join_state(join_type))
		return -EINVAL;

	mb = rdma_mcm_fail_alloc() ? NULL :
	     kmem_cache_zalloc(rdma_mcm_member_cache, GFP_KERNEL_ACCOUNT);
	if (!mb)
		return -ENOMEM;
	atomic_inc(&rdma_mcm_live_members);
	refcount_set(&mb->ref, 1);
	mb->ctx = ctx;
	mb->join_type = join_type;
	mb->qp = qp;
	mb->context = context;
	mb->state = RDMA_MCM_JOINING;
	mb->state_time_ns = ktime_get_boottime_ns();
	mb->join_ns = mb->state_time_ns;
	INIT_LIST_HEAD(&mb->notice.node);
	INIT_LIST_HEAD(&mb->wait_node);

	mutex_lock(&ctx->mutex);
	if (ctx->closing) {
		ret = -ESHUTDOWN;
		goto err_unlock;
	}
	if (ctx->device_lost) {
		ret = -ENODEV;
		goto err_unlock;
	}
	if (!ctx->mcast) {
		ret = -EOPNOTSUPP;	/* rdma_cm would say so with -ENOSYS */
		goto err_unlock;
	}
	ret = rdma_mcm_group_parse(group, rdma_mcm_sockaddr_len(group),
				   ctx->src.sa.sa_family, &mb->group);
	if (ret)
		goto err_unlock;
	if (rb_find_add(&mb->gnode, &ctx->groups, rdma_mcm_node_cmp)) {
		ret = -EADDRINUSE;
		goto err_unlock;
	}
	slot = rdma_mcm_slot_get(ctx);
	if (IS_ERR(slot)) {
		ret = PTR_ERR(slot);
		goto err_unhash;
	}
	/* Published before the join: its event may come before we return. */
	spin_lock_bh(&ctx->lock);
	rdma_mcm_handle_add(ctx, mb);
	rdma_mcm_observe_join(mb);
	spin_unlock_bh(&ctx->lock);

	ret = rdma_mcm_send_join(ctx, mb, slot);
	if (ret) {
		spin_lock_bh(&ctx->lock);
		/* a failed join's queued event is dropped: unqueue, unpublish */
		rdma_mcm_set_state(mb, RDMA_MCM_LEAVING, 0);
		rdma_mcm_unnotify(ctx, mb);
		rdma_mcm_handle_del(ctx, mb);
		rdma_mcm_observe_join_refused(mb, ret);
		spin_unlock_bh(&ctx->lock);
		goto err_slot;
	}
	*handle = mb->handle;
	mutex_unlock(&ctx->mutex);
	return 0;

err_slot:
	mb->slot = NULL;
	rdma_mcm_slot_put(ctx, slot);
err_unhash:
	rb_erase(&mb->gnode, &ctx->groups);
err_unlock:
	mutex_unlock(&ctx->mutex);
	rdma_mcm_member_put(mb);
	return ret;
}

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
 * one context; on InfiniBand, neither can two IPv6 groups that rdma_cm
 * maps to one MGID (they differ only in their first six bytes).
 *
 * Context: process context; may sleep. May be called from a callback.
 * Return: 0; -EINVAL for a NULL @handle, a malformed, non-multicast or
 * other-family group or a bad @join_type; -EAFNOSUPPORT for an unsupported
 * family; -EADDRINUSE when the context already has a membership of @group;
 * -ENODEV when the context's device is gone or going; -ESHUTDOWN when the
 * context is being closed; -EOPNOTSUPP when the device cannot join the
 * group (RoCE v2 and an IPv6 group, a port without multicast, a netdev MTU
 * too small for RoCE); -ENETDOWN on InfiniBand when the port has no SA
 * record of its partition yet; -EADDRNOTAVAIL when a new rdma_cm_id could
 * not bind the source address (gone from the host, or rdma_cm's UDP port
 * space exhausted); in a context opened with %RDMA_MCM_OPEN_ROUTE,
 * -ENETUNREACH or -ETIMEDOUT when the route for a new rdma_cm_id cannot be
 * found or resolved; -ENOMEM; -EIO for an error of rdma_cm that rdma_mcm
 * does not expect (logged).
 */
int rdma_mcm_join(struct rdma_mcm_ctx *ctx, const struct sockaddr *group,
		  enum rdma_mcm_join_type join_type, struct ib_qp *qp,
		  void *context, u32 *handle)
{
	int ret = __rdma_mcm_join(ctx, group, join_type, qp, context, handle);

	if (ret)
		rdma_mcm_count_join_failed(ctx, ret);
	else
		rdma_mcm_count(ctx, RDMA_MCM_CNT_JOINS);
	return ret;
}
EXPORT_SYMBOL_GPL(rdma_mcm_join);

/**
 * rdma_mcm_set_qp() - the QP of a context's full memberships
 * @ctx: the context
 * @qp: a UD QP on the context's device, or NULL
 *
 * Every full membership of @ctx uses @qp from now on: one that is joined
 * is detached from its QP (if another) and attached to @qp at once; one
 * that is joining or waiting is attached when it is joined. NULL detaches
 * them all. A healing context that found a new device gets its ULP's new
 * QP this way, from &rdma_mcm_ops.device_added or later.
 *
 * Context: process context; may sleep. May be called from a callback.
 * Return: 0; -ENODEV when the context has no device (and @qp is not NULL);
 * -ESHUTDOWN when it is being closed; or the first error of
 * ib_attach_mcast() (that membership fails with it, as a join whose
 * attach fails does).
 */
int rdma_mcm_set_qp(struct rdma_mcm_ctx *ctx, struct ib_qp *qp)
{
	struct rdma_mcm_membership *mb;
	bool joined, notified = false;
	int ret = 0, err;

	might_sleep();
	mutex_lock(&ctx->mutex);
	if (ctx->closing) {
		ret = -ESHUTDOWN;
		goto out;
	}
	if (qp && (!ctx->device || ctx->device_lost)) {
		ret = -ENODEV;
		goto out;
	}
	for (mb = rdma_mcm_member_first(ctx); mb;
	     mb = rdma_mcm_member_next(mb)) {
		if (mb->join_type != RDMA_MCM_FULLMEMBER)
			continue;
		if (mb->qp_attached && mb->qp != qp) {
			ctx->be->detach(ctx->be, mb->qp, &mb->mgid, mb->mlid);
			mb->qp_attached = false;
		}
		mb->qp = qp;
		spin_lock_bh(&ctx->lock);
		joined = mb->state == RDMA_MCM_JOINED && mb->have_join;
		spin_unlock_bh(&ctx->lock);
		if (!qp || mb->qp_attached || !joined)
			continue;
		err = ctx->be->attach(ctx->be, qp, &mb->mgid, mb->mlid);
		if (!err) {
			mb->qp_attached = true;
			continue;
		}
		ret = ret ?: err;
		if (mb->cm_joined && mb->slot)
			ctx->be->leave(ctx->be, mb->slot->id,
				       (struct sockaddr *)&mb->group);
		mb->cm_joined = false;
		spin_lock_bh(&ctx->lock);
		rdma_mcm_set_state(mb, RDMA_MCM_ERROR, err);
		rdma_mcm_notify(ctx, mb, RDMA_MCM_NOTIFY_ERROR);
		spin_unlock_bh(&ctx->lock);
		notified = true;
	}
out:
	mutex_unlock(&ctx->mutex);
	if (notified)
		queue_work(rdma_mcm_wq, &ctx->work);
	return ret;
}
EXPORT_SYMBOL_GPL(rdma_mcm_set_qp);

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
	mb = rdma_mcm_member_find(ctx, handle);
	if (!mb) {
		mutex_unlock(&ctx->mutex);
		return -EADDRNOTAVAIL;
	}
	rdma_mcm_member_drop(ctx, mb, true);
	mutex_unlock(&ctx->mutex);
	rdma_mcm_cb_barrier(ctx, mb);
	rdma_mcm_member_put(mb);
	return 0;
}
EXPORT_SYMBOL_GPL(rdma_mcm_leave);

/**
 * rdma_mcm_leave_addr() - leave a group by its address
 * @ctx: the context
 * @group: the group address, as given to rdma_mcm_join()
 *
 * Like rdma_mcm_leave(), found by address in O(log n).
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
 * Only a membership of exactly @group is found: on InfiniBand, not one of
 * another IPv6 group that maps to the same MGID.
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
	struct rb_node *node;
	int ret;

	mutex_lock(&ctx->mutex);
	ret = rdma_mcm_group_parse(group, rdma_mcm_sockaddr_len(group),
				   ctx->src.sa.sa_family, &addr);
	if (!ret) {
		rdma_mcm_group_key(&addr, ctx->ib_mgid, &key);
		ret = -EADDRNOTAVAIL;
		/* one key, two IPv6 groups (see rdma_mcm_groups_rekey()) */
		for (node = rb_find_first(&key, &ctx->groups, rdma_mcm_key_cmp);
		     node && !rdma_mcm_key_cmp(&key, node);
		     node = rb_next(node)) {
			mb = rb_entry(node, struct rdma_mcm_membership, gnode);
			if (addr.sa.sa_family == AF_INET6 &&
			    !ipv6_addr_equal(&mb->group.in6.sin6_addr,
					     &addr.in6.sin6_addr))
				continue;
			*handle = mb->handle;
			ret = 0;
			break;
		}
	}
	mutex_unlock(&ctx->mutex);
	return ret;
}

/**
 * rdma_mcm_query() - the state of one membership
 * @ctx: the context
 * @handle: the membership
 * @info: filled with a snapshot
 *
 * Context: process or softirq context (a CQ's softirq handler may call
 * it), not with hard interrupts disabled; does not sleep.
 * Return: 0, or -EADDRNOTAVAIL when @ctx has no membership @handle.
 */
int rdma_mcm_query(struct rdma_mcm_ctx *ctx, u32 handle,
		   struct rdma_mcm_member_info *info)
{
	struct rdma_mcm_membership *mb;
	int ret = -EADDRNOTAVAIL;

	spin_lock_bh(&ctx->lock);
	mb = rdma_mcm_find_visible(ctx, handle);
	if (mb) {
		rdma_mcm_fill_info(mb, info);
		ret = 0;
	}
	spin_unlock_bh(&ctx->lock);
	return ret;
}
EXPORT_SYMBOL_GPL(rdma_mcm_query);

/**
 * rdma_mcm_find_context() - a visible membership's ULP context
 * @ctx: the context
 * @handle: the membership
 * @context: set to what rdma_mcm_join() was given
 *
 * For the char device, which finds its own per-membership data this way.
 *
 * Context: process or softirq context; does not sleep.
 * Return: 0, or -EADDRNOTAVAIL when @ctx has no membership @handle.
 */
int rdma_mcm_find_context(struct rdma_mcm_ctx *ctx, u32 handle,
			  void **context)
{
	struct rdma_mcm_membership *mb;
	int ret = -EADDRNOTAVAIL;

	spin_lock_bh(&ctx->lock);
	mb = rdma_mcm_find_visible(ctx, handle);
	if (mb) {
		*context = mb->context;
		ret = 0;
	}
	spin_unlock_bh(&ctx->lock);
	return ret;
}

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
 * Context: process or softirq context, not with hard interrupts
 * disabled; does not sleep.
 * Return: the number of snapshots written.
 */
int rdma_mcm_list(struct rdma_mcm_ctx *ctx, u32 start,
		  struct rdma_mcm_member_info *infos, unsigned int max,
		  u32 *next)
{
	struct rdma_mcm_membership *mb;
	unsigned int n = 0;

	*next = 0;
	spin_lock_bh(&ctx->lock);
	for (mb = rdma_mcm_member_from(ctx, start); mb;
	     mb = rdma_mcm_member_of(rb_next(&mb->hnode))) {
		if (!rdma_mcm_member_visible(mb))
			continue;
		if (n == max) {
			*next = mb->handle;
			break;
		}
		rdma_mcm_fill_info(mb, &infos[n++]);
	}
	spin_unlock_bh(&ctx->lock);
	return n;
}
EXPORT_SYMBOL_GPL(rdma_mcm_list);

int rdma_mcm_member_init(void)
{
	rdma_mcm_member_cache = KMEM_CACHE(rdma_mcm_membership,
					   SLAB_NO_MERGE | SLAB_ACCOUNT);
	return rdma_mcm_member_cache ? 0 : -ENOMEM;
}

void rdma_mcm_member_exit(void)
{
	kmem_cache_destroy(rdma_mcm_member_cache);
}
