// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * rdma_mcm: memberships. Their two tables, their lifetime, leave (and
 * cancel), leave by address, query and list, and what the manager does to
 * one membership when it is dropped or its device goes away. Joining is
 * rdma_mcm_join.c's.
 *
 * A membership is in two tables of its context, both trees in the
 * memberships themselves: ctx->members by handle and ctx->groups by group
 * key, which refuses a second membership of a group. Lookups by handle
 * run under ctx->lock, so an rdma_cm event for a membership already left
 * finds nothing and is dropped.
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
 * The order of ctx->groups: memcmp() of the group keys (compared as
 * big-endian words, which is the same order). Every group of a
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

/* memcmp()'s order of two big-endian words, without a call */
static __always_inline int rdma_mcm_cmp_u64(u64 a, u64 b)
{
	return a < b ? -1 : a > b;
}

/* The big-endian word at @p, of any alignment (one load) */
static __always_inline u32 rdma_mcm_be32_at(const void *p)
{
	__be32 v;

	memcpy(&v, p, sizeof(v));
	return be32_to_cpu(v);
}

static __always_inline u64 rdma_mcm_be64_at(const void *p)
{
	__be64 v;

	memcpy(&v, p, sizeof(v));
	return be64_to_cpu(v);
}

static int rdma_mcm_key_cmp(const void *key, const struct rb_node *node)
{
	const struct rdma_mcm_membership *mb =
		rb_entry(node, struct rdma_mcm_membership, gnode);
	struct rdma_mcm_key buf;
	const u8 *mkey;
	size_t len;
	int ret;

	mkey = rdma_mcm_member_key(mb, &buf, &len);
	if (len == sizeof(__be32))
		return rdma_mcm_cmp_u64(rdma_mcm_be32_at(key),
					rdma_mcm_be32_at(mkey));
	BUILD_BUG_ON(sizeof(buf) != 2 * sizeof(u64));
	ret = rdma_mcm_cmp_u64(rdma_mcm_be64_at(key), rdma_mcm_be64_at(mkey));
	return ret ?: rdma_mcm_cmp_u64(rdma_mcm_be64_at((const u8 *)key + 8),
				       rdma_mcm_be64_at(mkey + 8));
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

/**
 * rdma_mcm_group_add() - enter a membership in its context's group tree
 * @ctx: the context
 * @mb: the membership, its group set
 *
 * Context: @ctx->mutex held.
 * Return: 0, or -EADDRINUSE when the context has a membership of the group.
 */
int rdma_mcm_group_add(struct rdma_mcm_ctx *ctx, struct rdma_mcm_membership *mb)
{
	lockdep_assert_held(&ctx->mutex);
	return rb_find_add(&mb->gnode, &ctx->groups, rdma_mcm_node_cmp) ?
	       -EADDRINUSE : 0;
}

/*
 * Take @mb out of its context's group tree, if it is in it (a group the
 * SA assigns never is); @ctx->mutex held
 */
void rdma_mcm_group_del(struct rdma_mcm_ctx *ctx, struct rdma_mcm_membership *mb)
{
	lockdep_assert_held(&ctx->mutex);
	if (RB_EMPTY_NODE(&mb->gnode))
		return;
	rb_erase(&mb->gnode, &ctx->groups);
	RB_CLEAR_NODE(&mb->gnode);
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
void rdma_mcm_handle_add(struct rdma_mcm_ctx *ctx,
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
void rdma_mcm_handle_del(struct rdma_mcm_ctx *ctx,
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
 * rdma_mcm_member_alloc() - a new membership of a context, JOINING
 * @ctx: the context
 * @join_type: its join type
 *
 * Charged to the caller's memory cgroup; one reference, the tables'.
 *
 * Context: process context; may sleep.
 * Return: the membership, or NULL.
 */
struct rdma_mcm_membership *rdma_mcm_member_alloc(struct rdma_mcm_ctx *ctx,
						  enum rdma_mcm_join_type join_type)
{
	struct rdma_mcm_membership *mb;

	mb = rdma_mcm_fail_alloc() ? NULL :
	     kmem_cache_zalloc(rdma_mcm_member_cache, GFP_KERNEL_ACCOUNT);
	if (!mb)
		return NULL;
	rdma_mcm_live_inc(RDMA_MCM_LIVE_MEMBERS);
	refcount_set(&mb->ref, 1);
	mb->ctx = ctx;
	mb->join_type = join_type;
	mb->state = RDMA_MCM_JOINING;
	/* the tick's clock: a state's age needs no finer grain */
	mb->state_time_ns = ktime_get_coarse_boottime_ns();
	mb->join_ns = mb->state_time_ns;
	INIT_LIST_HEAD(&mb->notice.node);
	INIT_LIST_HEAD(&mb->wait_node);
	RB_CLEAR_NODE(&mb->gnode);
	return mb;
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
	rdma_mcm_ipmc_free(mb->ipmc);
	kmem_cache_free(rdma_mcm_member_cache, mb);
	rdma_mcm_live_dec(RDMA_MCM_LIVE_MEMBERS);
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
	info->nr_sources = rdma_mcm_nr_sources(mb);
	info->joined_by_mcm = rdma_mcm_joined_by_mcm(mb);
	if (mb->have_join) {
		info->mgid = mb->mgid;
		info->mlid = mb->mlid;
		info->qkey = mb->qkey;
	}
}

/**
 * rdma_mcm_member_let_go() - let go of what a membership holds of its group
 * @ctx: the context
 * @mb: the membership, no longer JOINING or JOINED (or its attach failed)
 * @cm_leave: leave rdma_cm's membership; false when its id is about to be
 *	destroyed, which leaves it anyway
 * @give_slot: give its place on its id back (false: it keeps the id, to
 *	be left later, or the id goes with its device)
 *
 * Detaches the QP (before the group is left, as librdmacm does), leaves
 * the group (rdma_mcm_member_unjoin(): rdma_cm's membership, and what
 * rdma_mcm holds itself), gives its id's place back, and drops the join's
 * address handle attributes. Their GID table reference goes now, under
 * the mutex, not with the last reference: a device must not wait on (nor
 * be outlived by) a membership that left it, or a caller of
 * rdma_mcm_leave() still in its barrier; a callback in flight holds a
 * reference of its own. What the membership does not hold is skipped.
 *
 * Context: process context, @ctx->mutex held.
 */
void rdma_mcm_member_let_go(struct rdma_mcm_ctx *ctx,
			    struct rdma_mcm_membership *mb, bool cm_leave,
			    bool give_slot)
{
	struct rdma_ah_attr *ah;

	lockdep_assert_held(&ctx->mutex);
	if (mb->qp_attached)
		ctx->be->detach(ctx->be, mb->qp, &mb->mgid, mb->mlid);
	mb->qp_attached = false;
	rdma_mcm_member_unjoin(ctx, mb, cm_leave);
	if (give_slot && mb->slot) {
		rdma_mcm_slot_put(ctx, mb->slot);
		mb->slot = NULL;
	}
	spin_lock_bh(&ctx->lock);
	ah = mb->ah;
	mb->ah = NULL;
	spin_unlock_bh(&ctx->lock);
	rdma_mcm_ah_free(ah);
}

/**
 * rdma_mcm_member_drop() - take a membership out of its context
 * @ctx: the context
 * @mb: the membership
 * @cm_leave: leave rdma_cm's membership; false when its id is about to be
 *	destroyed, which leaves it anyway
 *
 * No more notifications, out of the tables, then it lets go of its group
 * (rdma_mcm_member_let_go()) and is LEFT. The caller waits for a callback
 * in flight and drops the tables' reference.
 *
 * Context: process context, @ctx->mutex held.
 */
void rdma_mcm_member_drop(struct rdma_mcm_ctx *ctx,
			  struct rdma_mcm_membership *mb, bool cm_leave)
{
	lockdep_assert_held(&ctx->mutex);

	rdma_mcm_wait_stop(ctx, mb);
	spin_lock_bh(&ctx->lock);
	rdma_mcm_mb_leaving(ctx, mb);
	/* no event, query or list finds it from now on */
	rdma_mcm_handle_del(ctx, mb);
	spin_unlock_bh(&ctx->lock);
	rdma_mcm_group_del(ctx, mb);

	rdma_mcm_member_let_go(ctx, mb, cm_leave, true);

	spin_lock_bh(&ctx->lock);
	rdma_mcm_mb_left(mb);
	spin_unlock_bh(&ctx->lock);
}

/**
 * rdma_mcm_member_lose_device() - a membership's device is going away
 * @ctx: the context
 * @mb: the membership
 *
 * A JOINING or JOINED membership is lost with -ENODEV (rdma_mcm_mb_lost():
 * it fails, or in a healing context waits for the next device); then,
 * whatever its state, it lets go of the device: QP detached, the IGMP/MLD
 * membership rdma_mcm holds for it dropped, the address handle's GID
 * table reference dropped (it must be gone before the device is, not
 * when the ULP leaves). rdma_cm's membership goes with the ids. The state
 * changes first, so that no join event finds it JOINING once it let go.
 *
 * Context: the context's work, @ctx->mutex held.
 */
void rdma_mcm_member_lose_device(struct rdma_mcm_ctx *ctx,
				 struct rdma_mcm_membership *mb)
{
	lockdep_assert_held(&ctx->mutex);
	spin_lock_bh(&ctx->lock);
	mb->have_join = false;
	if (mb->state == RDMA_MCM_JOINING || mb->state == RDMA_MCM_JOINED)
		rdma_mcm_mb_lost(ctx, mb, -ENODEV, true);
	spin_unlock_bh(&ctx->lock);
	rdma_mcm_member_let_go(ctx, mb, false, false);
	/* the ULP's QP is of the device: a new one comes by rdma_mcm_set_qp() */
	if (ctx->flags & RDMA_MCM_OPEN_HEAL)
		mb->qp = NULL;
	if (mb->state == RDMA_MCM_WAITING)
		rdma_mcm_wait_for_device(ctx, mb);
}

/**
 * rdma_mcm_leave() - leave a group, or cancel a join in flight
 * @ctx: the context
 * @handle: the membership, as rdma_mcm_join() returned it
 *
 * Detaches the QP (if attached), then leaves the group; a join that has
 * not completed is cancelled, and no IGMP, MLD or SA membership (nor
 * source filter) is left behind. A membership in %RDMA_MCM_ERROR is left the same way.
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
	return rdma_mcm_leave_context(ctx, handle, NULL);
}
EXPORT_SYMBOL_GPL(rdma_mcm_leave);

/**
 * rdma_mcm_leave_context() - rdma_mcm_leave(), and the membership's context
 * @ctx: the context
 * @handle: the membership
 * @context: set to the ULP context the membership was joined with, or NULL
 *
 * For a face (the char device), whose per-membership state is what
 * the membership was joined with: one lookup finds, leaves and returns it.
 *
 * Context: process context; may sleep.
 * Return: as rdma_mcm_leave().
 */
int rdma_mcm_leave_context(struct rdma_mcm_ctx *ctx, u32 handle,
			   void **context)
{
	struct rdma_mcm_membership *mb;

	might_sleep();
	mutex_lock(&ctx->mutex);
	/* under the mutex no member is half left: every one found is seen */
	mb = rdma_mcm_member_find(ctx, handle);
	if (!mb) {
		mutex_unlock(&ctx->mutex);
		return -EADDRNOTAVAIL;
	}
	if (context)
		*context = mb->context;
	rdma_mcm_member_drop(ctx, mb, true);
	mutex_unlock(&ctx->mutex);
	rdma_mcm_cb_barrier(ctx, mb);
	rdma_mcm_member_put(mb);
	return 0;
}

/**
 * rdma_mcm_leave_addr() - leave a group by its address
 * @ctx: the context
 * @group: the group address, as given to rdma_mcm_join()
 *
 * Like rdma_mcm_leave(), found by address in O(log n).
 *
 * Context: process context; may sleep. May be called from a callback.
 * Return: 0; -EINVAL for a malformed, non-multicast or other-family
 * address, or the address of a group the SA assigns (IPv6 ::, an AF_IB
 * MGID of zeros: such memberships are left by handle); -EAFNOSUPPORT for
 * an unsupported family; -EADDRNOTAVAIL when @ctx has no membership of
 * @group.
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
	/* groups the SA assigns share one address: left by handle only */
	if (!ret && rdma_mcm_group_sa_assigned(&addr))
		ret = -EINVAL;
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
