// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * rdma_mcm: joining. A membership's first join (rdma_mcm_join_ex(),
 * rdma_mcm_join()), a healing context's rejoin (rdma_mcm_member_join()),
 * what is sent for either (rdma_mcm_send_join(): on RoCE the IGMP/MLD side
 * of rdma_mcm_ipmc.c first, then rdma_cm, then rdma_mcm's own join where
 * rdma_cm refuses), the one way back (rdma_mcm_member_unjoin()), and the
 * QP a context's full memberships are attached to (rdma_mcm_set_qp()).
 *
 * A membership is published (rdma_mcm_member.c's tables) before rdma_cm is
 * asked to join, because the join's event may arrive before the call
 * returns; rdma_cm events name a membership by handle (the join's private
 * data), looked up under ctx->lock, so an event for a membership already
 * left finds nothing and is dropped.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/err.h>
#include <linux/lockdep.h>
#include <linux/module.h>
#include <rdma/ib_sa.h>
#include <rdma/ib_verbs.h>

#include "rdma_mcm_internal.h"

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
 * Anything else is logged and reported as -EIO. (An IPv6 group that
 * rdma_cm refuses on RoCE v2, rdma_mcm joins itself: rdma_mcm_ipmc.c.)
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

/* The key @mb's group is counted by on its device (NULL: its own) */
static const struct rdma_mcm_key *
rdma_mcm_attach_key(struct rdma_mcm_ctx *ctx,
		    const struct rdma_mcm_membership *mb,
		    struct rdma_mcm_key *key)
{
	if (rdma_mcm_group_sa_assigned(&mb->group))
		return NULL;
	rdma_mcm_group_key(&mb->group, ctx->ib_mgid, key);
	return key;
}

/**
 * rdma_mcm_attach_hold() - a place for a membership's QP on its device
 * @ctx: the context
 * @mb: the membership, on a slot
 *
 * Held by a full member with a QP from its join (or from the QP it gets
 * while joined) until it lets go of the group: rdma_mcm_admit.c.
 *
 * Context: process context, @ctx->mutex held.
 * Return: 0; the errors of rdma_mcm_admit_hold(): -EOPNOTSUPP (the device
 * attaches no QP to a group), -ENOSPC (at one of its limits), -ENOMEM.
 */
int rdma_mcm_attach_hold(struct rdma_mcm_ctx *ctx,
			 struct rdma_mcm_membership *mb)
{
	struct rdma_mcm_key key;
	int ret;

	lockdep_assert_held(&ctx->mutex);
	if (!mb->qp || mb->join_type != RDMA_MCM_FULLMEMBER ||
	    (mb->held & RDMA_MCM_HELD_ATTACH))
		return 0;
	if (WARN_ON_ONCE(!mb->slot))
		return -EIO;
	ret = rdma_mcm_admit_hold(mb->slot->id->device,
				  rdma_mcm_attach_key(ctx, mb, &key));
	if (!ret)
		mb->held |= RDMA_MCM_HELD_ATTACH;
	return ret;
}

/**
 * rdma_mcm_attach_release() - give the place of rdma_mcm_attach_hold() back
 * @ctx: the context
 * @mb: the membership, on the slot it was held on
 *
 * Context: process context, @ctx->mutex held.
 */
void rdma_mcm_attach_release(struct rdma_mcm_ctx *ctx,
			     struct rdma_mcm_membership *mb)
{
	struct rdma_mcm_key key;

	lockdep_assert_held(&ctx->mutex);
	if (!(mb->held & RDMA_MCM_HELD_ATTACH))
		return;
	mb->held &= ~RDMA_MCM_HELD_ATTACH;
	if (WARN_ON_ONCE(!mb->slot))
		return;
	rdma_mcm_admit_release(mb->slot->id->device,
			       rdma_mcm_attach_key(ctx, mb, &key));
}

/*
 * The address rdma_cm joins and leaves @mb's group by: its group, or with
 * @by_mgid the MGID the SA assigned to it (a group of zeros, joined
 * before): as an IPv6 address when it is an SA-assigned one (ff1x:a01b,
 * which cma_set_mgid() takes as it is), as an AF_IB one's MGID. A rejoin
 * of an SA-assigned group is of that group, not of a new one. Returns
 * false when the MGID cannot be said so (then the group is asked anew).
 */
static bool rdma_mcm_cm_addr(const struct rdma_mcm_membership *mb,
			     bool by_mgid, union rdma_mcm_addr *addr)
{
	*addr = mb->group;
	if (!by_mgid)
		return true;
	switch (addr->sa.sa_family) {
	case AF_INET6:
		if (mb->mgid.raw[0] != 0xff || (mb->mgid.raw[1] & 0xf0) != 0x10 ||
		    mb->mgid.raw[2] != 0xa0 || mb->mgid.raw[3] != 0x1b)
			return false;
		memcpy(&addr->in6.sin6_addr, mb->mgid.raw, sizeof(mb->mgid));
		return true;
	case AF_IB:
		memcpy(&addr->ib.sib_addr, mb->mgid.raw, sizeof(mb->mgid));
		return true;
	default:
		return false;
	}
}

/*
 * Join @mb's group on @slot's id. On RoCE: its IGMP/MLD side first (a
 * full member's, in rdma_mcm's sockets), then rdma_cm for the RDMA side
 * only (a send-only join: no IGMP of rdma_cm's), then, for an IPv6 group
 * that rdma_cm refuses on RoCE v2, rdma_mcm itself (rdma_mcm_ipmc.c). On
 * InfiniBand: rdma_cm's SA join, and no sources. The join's event may
 * come before this returns, but only once nothing can fail any more.
 * Returns 0 or a documented errno.
 */
static int rdma_mcm_send_join(struct rdma_mcm_ctx *ctx,
			      struct rdma_mcm_membership *mb,
			      struct rdma_mcm_slot *slot)
{
	u8 join_state = rdma_mcm_join_state(mb->join_type);
	struct rdma_cm_id *id = slot->id;
	union rdma_mcm_addr addr;
	u8 how = RDMA_MCM_HELD_CM;
	int ret;

	lockdep_assert_held(&ctx->mutex);
	mb->slot = slot;
	/* an SA-assigned group joined before: by its MGID (no event writes it) */
	if (rdma_mcm_group_sa_assigned(&mb->group) &&
	    memchr_inv(mb->mgid.raw, 0, sizeof(mb->mgid)) &&
	    rdma_mcm_cm_addr(mb, true, &addr))
		how = RDMA_MCM_HELD_CM_MGID;
	else
		addr = mb->group;
	if (mb->ipmc)	/* who joins it this time is still to be seen */
		WRITE_ONCE(mb->ipmc->own, false);
	if (!rdma_protocol_roce(id->device, id->port_num) &&
	    rdma_mcm_nr_sources(mb))
		return -EOPNOTSUPP;	/* the SA has no source filters */
	/* nothing is sent for a join whose QP the device could not attach */
	ret = rdma_mcm_attach_hold(ctx, mb);
	if (ret)
		return ret;
	if (rdma_protocol_roce(id->device, id->port_num)) {
		ret = rdma_mcm_ipmc_hold(ctx, mb, id);
		if (ret)
			goto err_attach;
		join_state = BIT(SENDONLY_FULLMEMBER_JOIN);
	}
	mb->held |= how;
	/* rdma_join_multicast() allocates: its -ENOMEM is injected here */
	ret = rdma_mcm_fail_alloc() ? -ENOMEM :
	      ctx->be->join(ctx->be, slot->id, &addr.sa, join_state,
			    (void *)(uintptr_t)mb->handle);
	if (!ret)
		return 0;
	mb->held &= ~how;
	if (rdma_mcm_own_join_wanted(mb, slot->id, ret))
		ret = rdma_mcm_own_join(ctx, mb, slot);
	else
		ret = rdma_mcm_join_errno(slot->id, ret);
	if (!ret)
		return 0;
	rdma_mcm_ipmc_release(ctx, mb);
err_attach:
	rdma_mcm_attach_release(ctx, mb);
	return ret;
}

/**
 * rdma_mcm_member_unjoin() - let go of a membership's group
 * @ctx: the context
 * @mb: the membership
 * @cm_leave: leave rdma_cm's membership; false when its id is about to be
 *	destroyed, which leaves it anyway
 *
 * rdma_cm's membership, the source filter or MLD membership rdma_mcm
 * holds itself, and the place its QP's attachment held on the device.
 * The QP is detached before, by the caller.
 *
 * Context: process context, @ctx->mutex held.
 */
void rdma_mcm_member_unjoin(struct rdma_mcm_ctx *ctx,
			    struct rdma_mcm_membership *mb, bool cm_leave)
{
	u8 cm = mb->held & (RDMA_MCM_HELD_CM | RDMA_MCM_HELD_CM_MGID);
	union rdma_mcm_addr addr;

	lockdep_assert_held(&ctx->mutex);
	if (cm && cm_leave && mb->slot) {
		rdma_mcm_cm_addr(mb, cm == RDMA_MCM_HELD_CM_MGID, &addr);
		ctx->be->leave(ctx->be, mb->slot->id, &addr.sa);
	}
	mb->held &= ~cm;
	rdma_mcm_ipmc_release(ctx, mb);
	rdma_mcm_attach_release(ctx, mb);
}

/**
 * rdma_mcm_member_join() - join a waiting membership again
 * @ctx: the context, with a device
 * @mb: the membership, %RDMA_MCM_WAITING and off the waiting list
 *
 * On success the membership is JOINING again: a rejoin, which ends in
 * ->rejoined(), if it was joined before; else its first join tried again,
 * which ends in ->joined(). On failure it is JOINING without an id: the
 * caller makes it wait again or fail.
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
	rdma_mcm_mb_rejoining(mb);
	spin_unlock_bh(&ctx->lock);
	/* a healing context may have moved to a port without multicast */
	if (!ctx->mcast)
		return -EOPNOTSUPP;
	if (rdma_mcm_group_sa_assigned(&mb->group)) {
		/* or to RoCE, which has no SA to assign a group */
		if (!ctx->ib_mgid)
			return -EOPNOTSUPP;
		slot = rdma_mcm_slot_get_own(ctx);
	} else {
		slot = rdma_mcm_slot_get(ctx);
	}
	if (IS_ERR(slot))
		return PTR_ERR(slot);
	ret = rdma_mcm_send_join(ctx, mb, slot);
	if (ret) {
		mb->slot = NULL;
		rdma_mcm_slot_put(ctx, slot);
	}
	return ret;
}

/* rdma_mcm_join_ex() but for the counting of its failures */
static int __rdma_mcm_join(struct rdma_mcm_ctx *ctx,
			   const struct rdma_mcm_join_req *req, u32 *handle)
{
	enum rdma_mcm_join_type join_type = req->join_type;
	struct rdma_mcm_membership *mb;
	struct rdma_mcm_slot *slot;
	bool sa_assigned;
	int ret;

	might_sleep();
	if (!handle || !rdma_mcm_join_state(join_type))
		return -EINVAL;

	mb = rdma_mcm_member_alloc(ctx, join_type);
	if (!mb)
		return -ENOMEM;
	mb->qp = req->qp;
	mb->context = req->context;

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
	ret = rdma_mcm_group_parse(req->group,
				   rdma_mcm_sockaddr_len(req->group),
				   ctx->src.sa.sa_family, &mb->group);
	if (ret)
		goto err_unlock;
	sa_assigned = rdma_mcm_group_sa_assigned(&mb->group);
	/* only an SA assigns a group: on RoCE, zeros are no group */
	if (sa_assigned && !ctx->ib_mgid) {
		ret = -EINVAL;
		goto err_unlock;
	}
	ret = rdma_mcm_sources_parse(&mb->group, join_type, req->sources,
				     req->nr_sources, &mb->ipmc);
	if (ret)
		goto err_unlock;
	/* each SA-assigned group is its own, on an id of its own */
	ret = sa_assigned ? 0 : rdma_mcm_group_add(ctx, mb);
	if (ret)
		goto err_unlock;
	slot = sa_assigned ? rdma_mcm_slot_get_own(ctx) :
			     rdma_mcm_slot_get(ctx);
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
		rdma_mcm_mb_refused(ctx, mb, ret);
		rdma_mcm_handle_del(ctx, mb);
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
	rdma_mcm_group_del(ctx, mb);
err_unlock:
	mutex_unlock(&ctx->mutex);
	rdma_mcm_member_put(mb);
	return ret;
}

/**
 * rdma_mcm_join_ex() - join a multicast group, any-source or source-specific
 * @ctx: the context
 * @req: the join (see struct rdma_mcm_join_req and rdma_mcm_join()); with
 *	sources, a source-specific join: the host's IGMPv3 / MLDv2 report
 *	includes exactly those sources for this membership. On RoCE the
 *	IGMP/MLD membership of every full member is rdma_mcm's, in kernel
 *	sockets, so joins of one group by several owners compose as the
 *	kernel's source filters of sockets do (an any-source member makes
 *	the netdev take every source); a leave takes back only its own part.
 *	RoCE only; the HCA does not filter by source itself.
 * @handle: set to the membership's handle (never 0) on success
 *
 * As rdma_mcm_join(); an IPv6 group on RoCE v2, which rdma_cm refuses,
 * rdma_mcm joins itself (MGID: the group address; a full member sends
 * MLD reports, a send-only one does not; the address handle attributes
 * are those of the bound source's RoCE v2 GID, hop limit 64, as rdma_cm
 * gives an IPv4 group), with the same states, events and leave.
 *
 * Context: process context; may sleep. May be called from a callback.
 * Return: the errors of rdma_mcm_join(); also -EINVAL for sources of a
 * send-only join, more than %RDMA_MCM_MAX_SOURCES of them, a NULL
 * @req->sources with @req->nr_sources, a source of another family than
 * the group, one that is not unicast (multicast, the any address, 0/8, the
 * IPv4 broadcast address) or one given twice; -EAFNOSUPPORT for a source
 * of an unknown family; -EOPNOTSUPP for sources on InfiniBand (an AF_IB
 * group, or an InfiniBand port: the SA has no source filters); -ENOBUFS
 * when fewer sources are allowed (the namespace's net.ipv4.igmp_max_msf,
 * the host's net.ipv6.mld_max_msf) or no IPv4 group at all (the
 * namespace's igmp_max_memberships 0); -EADDRNOTAVAIL also when the netdev
 * has no IPv6 (an MTU below 1280) or the source address has no RoCE v2
 * GID (any more); -EAFNOSUPPORT also without IPv6 sockets; -EIO also for
 * an IGMP/MLD or address handle error rdma_mcm does not expect (logged).
 */
int rdma_mcm_join_ex(struct rdma_mcm_ctx *ctx,
		     const struct rdma_mcm_join_req *req, u32 *handle)
{
	int ret = req ? __rdma_mcm_join(ctx, req, handle) : -EINVAL;

	if (ret)
		rdma_mcm_count_join_failed(ctx, ret);
	else
		rdma_mcm_count(ctx, RDMA_MCM_CNT_JOINS);
	return ret;
}
EXPORT_SYMBOL_GPL(rdma_mcm_join_ex);

/**
 * rdma_mcm_join() - join a multicast group
 * @ctx: the context
 * @group: the group: an address of the context's family (AF_INET,
 *	AF_INET6) that is multicast, or for AF_IB an MGID starting with 0xff.
 *	On InfiniBand also a group for the SA to make: IPv6 :: or an AF_IB
 *	MGID of zeros (as mckey -M 0 and UCC ask): each such join is a new
 *	group, whose MGID the JOINED tells (&rdma_mcm_member_info.mgid
 *	too); it is left by handle, and healing rejoins it by that MGID.
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
 * maps to one MGID (they differ only in their first six bytes). IPv6
 * groups work on RoCE v2 too (see rdma_mcm_join_ex()).
 *
 * Context: process context; may sleep. May be called from a callback.
 * Return: 0; -EINVAL for a NULL @handle, a malformed, non-multicast or
 * other-family group, an IPv6 group of interface-local or reserved scope,
 * a group of zeros on RoCE (no SA assigns one there), or a bad
 * @join_type; -EAFNOSUPPORT for an unsupported
 * family; -EADDRINUSE when the context already has a membership of @group;
 * -ENODEV when the context's device (or netdev) is gone or going;
 * -ESHUTDOWN when the context is being closed; -EOPNOTSUPP when the device
 * cannot join the group (a port without multicast, a netdev MTU too small
 * for RoCE) or, for a full member with @qp, attaches no QP to a group (a
 * multicast limit of 0); -ENOSPC for a full member with @qp when the
 * device's limits (max_mcast_grp, max_mcast_qp_attach,
 * max_total_mcast_qp_attach) are reached by rdma_mcm's memberships
 * (nothing is sent); -ENETDOWN on InfiniBand when the port has no SA
 * record of its partition yet; -EADDRNOTAVAIL when a new rdma_cm_id could
 * not bind the
 * source address (gone from the host, or rdma_cm's UDP port space
 * exhausted); in a context opened with %RDMA_MCM_OPEN_ROUTE,
 * -ENETUNREACH or -ETIMEDOUT when the route for a new rdma_cm_id cannot be
 * found or resolved; -ENOMEM; -EIO for an error of rdma_cm that rdma_mcm
 * does not expect (logged).
 */
int rdma_mcm_join(struct rdma_mcm_ctx *ctx, const struct sockaddr *group,
		  enum rdma_mcm_join_type join_type, struct ib_qp *qp,
		  void *context, u32 *handle)
{
	struct rdma_mcm_join_req req = {
		.group = group,
		.join_type = join_type,
		.qp = qp,
		.context = context,
	};

	return rdma_mcm_join_ex(ctx, &req, handle);
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
 * ib_attach_mcast(), or of the device's multicast limits (-ENOSPC,
 * -EOPNOTSUPP, as rdma_mcm_join() says them): that membership fails with
 * it, as a join whose attach fails does.
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
		if (!qp) {
			rdma_mcm_attach_release(ctx, mb);
			continue;
		}
		/* joining or joined: its place on the device, if it has none */
		err = mb->slot ? rdma_mcm_attach_hold(ctx, mb) : 0;
		if (!err) {
			spin_lock_bh(&ctx->lock);
			joined = mb->state == RDMA_MCM_JOINED && mb->have_join;
			spin_unlock_bh(&ctx->lock);
			if (mb->qp_attached || !joined)
				continue;
			err = ctx->be->attach(ctx->be, qp, &mb->mgid, mb->mlid);
			if (!err) {
				mb->qp_attached = true;
				continue;
			}
		}
		ret = ret ?: err;
		/*
		 * ERROR first, then let go: a JOINED the work is about to
		 * deliver finds ERROR and is skipped, never JOINED without
		 * its address handle.
		 */
		spin_lock_bh(&ctx->lock);
		rdma_mcm_mb_failed(ctx, mb, err, true);
		spin_unlock_bh(&ctx->lock);
		rdma_mcm_member_let_go(ctx, mb, true, false);
		notified = true;
	}
out:
	mutex_unlock(&ctx->mutex);
	if (notified)
		queue_work(rdma_mcm_wq, &ctx->work);
	return ret;
}
EXPORT_SYMBOL_GPL(rdma_mcm_set_qp);
