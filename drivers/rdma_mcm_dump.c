// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * rdma_mcm: the walk of every context and membership on the host, for the
 * netlink family's dumps, and who may see what.
 *
 * A walk goes by context id, then by handle: both are keys a context or a
 * membership keeps for its whole life, so a walk that stops (its netlink
 * message is full) resumes from the last (context id, handle) it reached,
 * with an O(log n) search, whatever joined or left meanwhile: an entry
 * present for the whole dump is reported exactly once, never twice, never
 * skipped. Nothing is held between two rounds of a walk.
 *
 * Each context is looked at under its spinlock, one at a time: joins and
 * leaves of other contexts go on; the context's own wait at most one
 * netlink message's worth of entries.
 */
#include <linux/bitops.h>
#include <linux/cred.h>
#include <linux/inetdevice.h>
#include <linux/lockdep.h>
#include <linux/netdevice.h>
#include <linux/rcupdate.h>
#include <net/addrconf.h>
#include <net/net_namespace.h>

#include "rdma_mcm_internal.h"

/**
 * rdma_mcm_may_see() - may a caller see a context and its memberships
 * @f: the caller
 * @ctx: the context
 *
 * Only contexts of the caller's network namespace; all of them with
 * CAP_NET_ADMIN in its user namespace, otherwise those the caller's
 * effective uid opened through /dev/rdma_mcm.
 *
 * Return: true if it may.
 */
bool rdma_mcm_may_see(const struct rdma_mcm_dump_filter *f,
		      const struct rdma_mcm_ctx *ctx)
{
	if (!net_eq(ctx->net, f->net))
		return false;
	if (f->ctx_id && ctx->id != f->ctx_id)
		return false;
	return f->all || (!ctx->owner.kernel && uid_eq(ctx->owner.uid, f->uid));
}

/* rdma_mcm_may_see() as the registry asks it */
static bool rdma_mcm_visible_to(const struct rdma_mcm_ctx *ctx, const void *f)
{
	return rdma_mcm_may_see(f, ctx);
}

/* The network device of a context's source address, if it has one. */
static void rdma_mcm_view_netdev(struct rdma_mcm_ctx_view *cv)
{
	struct rdma_mcm_ctx *ctx = cv->ctx;
	struct net_device *ndev = NULL;

	cv->netdev[0] = 0;
	if (ctx->flags & RDMA_MCM_OPEN_ROUTE)
		return;		/* the source is the route's, not known here */
	rcu_read_lock();
	if (ctx->src.sa.sa_family == AF_INET)
		ndev = __ip_dev_find(ctx->net, ctx->src.in.sin_addr.s_addr,
				     false);
	else if (IS_ENABLED(CONFIG_IPV6) && ctx->src.sa.sa_family == AF_INET6)
		ndev = ipv6_dev_find(ctx->net, &ctx->src.in6.sin6_addr, NULL);
	if (ndev)
		strscpy(cv->netdev, ndev->name, sizeof(cv->netdev));
	rcu_read_unlock();
}

/* Done with the context @pos is at: on to the next one. */
static void rdma_mcm_walk_past(struct rdma_mcm_dump_pos *pos)
{
	if (pos->ctx_id == U32_MAX) {
		pos->done = true;
		return;
	}
	pos->ctx_id++;
	pos->handle = 0;
}

/*
 * The first context from @pos->ctx_id on that @f may see, with a
 * reference, and what the walk tells of it; NULL at the end.
 */
static struct rdma_mcm_ctx *rdma_mcm_walk_next(const struct rdma_mcm_dump_filter *f,
					       struct rdma_mcm_dump_pos *pos,
					       struct rdma_mcm_ctx_view *cv)
{
	struct rdma_mcm_ctx *ctx;

	cond_resched();		/* between two contexts, no lock held */
	if (f->ctx_id && pos->ctx_id < f->ctx_id) {
		pos->ctx_id = f->ctx_id;
		pos->handle = 0;
	}
	ctx = rdma_mcm_registry_get(pos->ctx_id, f->ctx_id ?: U32_MAX,
				    rdma_mcm_visible_to, f, cv->dev_name,
				    sizeof(cv->dev_name), &cv->port);
	if (!ctx) {
		pos->done = true;
		return NULL;
	}
	if (ctx->id != pos->ctx_id) {
		pos->ctx_id = ctx->id;
		pos->handle = 0;
	}
	cv->ctx = ctx;
	cv->members = 0;
	rdma_mcm_view_netdev(cv);
	return ctx;
}

/**
 * rdma_mcm_walk_members() - walk the memberships a caller may see
 * @f: the caller, and what it asks for
 * @pos: where to start; updated to where the walk stopped
 * @fill: called for each membership, in (context id, handle) order, under
 *	the context's spinlock (it must not sleep); a non-zero return stops
 *	the walk before that membership, which the next walk starts with
 * @arg: passed to @fill
 *
 * Memberships on their way out (leaving) are not reported.
 *
 * Context: process context.
 * Return: 0 at the end (@pos->done), or what @fill returned.
 */
int rdma_mcm_walk_members(const struct rdma_mcm_dump_filter *f,
			  struct rdma_mcm_dump_pos *pos,
			  int (*fill)(void *arg,
				      const struct rdma_mcm_ctx_view *cv,
				      const struct rdma_mcm_membership *mb),
			  void *arg)
{
	struct rdma_mcm_membership *mb;
	struct rdma_mcm_ctx_view cv;
	struct rdma_mcm_ctx *ctx;
	int ret = 0;

	might_sleep();
	while (!pos->done) {
		ctx = rdma_mcm_walk_next(f, pos, &cv);
		if (!ctx)
			break;
		spin_lock_bh(&ctx->lock);
		for (mb = rdma_mcm_member_from(ctx, pos->handle); mb;
		     mb = rdma_mcm_member_next(mb)) {
			if (!rdma_mcm_member_visible(mb))
				continue;
			ret = fill(arg, &cv, mb);
			if (ret) {
				pos->handle = mb->handle;
				break;
			}
		}
		spin_unlock_bh(&ctx->lock);
		rdma_mcm_ctx_put(ctx);
		if (ret)
			return ret;
		rdma_mcm_walk_past(pos);
	}
	return 0;
}

/**
 * rdma_mcm_walk_contexts() - walk the contexts a caller may see
 * @f: the caller, and what it asks for
 * @pos: where to start (@pos->handle is unused); updated
 * @fill: called for each context in id order, in process context with no
 *	lock of ours held; a non-zero return stops the walk before it
 * @arg: passed to @fill
 *
 * Context: process context.
 * Return: 0 at the end (@pos->done), or what @fill returned.
 */
int rdma_mcm_walk_contexts(const struct rdma_mcm_dump_filter *f,
			   struct rdma_mcm_dump_pos *pos,
			   int (*fill)(void *arg,
				       const struct rdma_mcm_ctx_view *cv),
			   void *arg)
{
	struct rdma_mcm_ctx_view cv;
	struct rdma_mcm_ctx *ctx;
	int ret;

	might_sleep();
	while (!pos->done) {
		ctx = rdma_mcm_walk_next(f, pos, &cv);
		if (!ctx)
			break;
		/* a leaving one leaves the tree in the lock it becomes so */
		spin_lock_bh(&ctx->lock);
		cv.members = ctx->nr_members;
		spin_unlock_bh(&ctx->lock);
		ret = fill(arg, &cv);
		rdma_mcm_ctx_put(ctx);
		if (ret)
			return ret;
		rdma_mcm_walk_past(pos);
	}
	return 0;
}

/**
 * rdma_mcm_member_queued() - events of a membership its owner has not had
 * @mb: the membership
 *
 * The manager's notifications not yet delivered, and those the context's
 * face queued and its owner has not read yet (for /dev/rdma_mcm, the
 * events queued on the file: &rdma_mcm_face.queued).
 *
 * Context: @mb's context's spinlock held.
 * Return: their number.
 */
u32 rdma_mcm_member_queued(const struct rdma_mcm_membership *mb)
{
	const struct rdma_mcm_face *face = mb->ctx->face;
	u32 n = hweight8(mb->pending);

	lockdep_assert_held(&mb->ctx->lock);
	if (face && face->queued && mb->context)
		n += face->queued(mb->context);
	return n;
}
