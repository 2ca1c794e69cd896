// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * rdma_mcm: what rdma_cm cannot do, and the IGMP/MLD side of RoCE
 * memberships, which rdma_mcm holds itself.
 *
 * The IGMP/MLD side. On RoCE rdma_cm joins a group's IPv4 address on the
 * netdev with ip_mc_inc_group() and leaves it with ip_mc_dec_group(); the
 * kernel's device-level calls are not symmetric when the netdev has
 * another member of the group: the join adds an any-source (EXCLUDE) count
 * that the leave never takes back (the same holds for ipv6_dev_mc_inc()
 * and ipv6_dev_mc_dec()), so after such a leave the netdev stays in
 * EXCLUDE mode and a source-specific member receives, and reports, every
 * source. Sockets are symmetric: a socket's leave takes back exactly its
 * part of the netdev's filter. So on RoCE rdma_mcm asks rdma_cm for the
 * RDMA side only (a send-only join: MGID, address handle, no IGMP) and
 * holds the IP side of every full member itself, in kernel UDP sockets of
 * the context's namespace: any-source memberships share sockets (many
 * groups each), a source-specific one has a socket of its own, and the
 * context keeps one socket left empty for the next (creating and
 * releasing a socket cost about as much as the join and the leave
 * themselves). Joins of
 * one group by several owners, rdma_mcm's or anyone's sockets, then
 * compose as the kernel composes sockets' filters: the netdev's mode for
 * the group is EXCLUDE while an owner joined it any-source, else INCLUDE
 * of the union of the owners' sources; each leave takes back its own part.
 * (rdma_cm's own users, through librdmacm, still leave the count behind.)
 * The HCA filters by group, not by source: a source filter is what the
 * host reports to the network. InfiniBand has neither IGMP nor source
 * filters: the SA join is rdma_cm's, and a join with sources there is
 * refused (-EOPNOTSUPP).
 *
 * IPv6 groups on RoCE v2. rdma_cm refuses them (rdma_join_multicast()
 * returns -ENOTSUPP when the port's GID type is RoCE v2, as on rxe and
 * mlx5, and no MLD report is ever sent). rdma_mcm then joins the group on
 * the device itself, as rdma_cm's RoCE join does an IPv4 one: the MGID is
 * the group address, the address handle attributes those of the bound
 * source's RoCE v2 GID, Q_Key RDMA_UDP_QKEY, and the join's event goes
 * through the same path as rdma_cm's MULTICAST_JOIN. The MLD side is the
 * IGMP/MLD side above, as for any RoCE full member.
 *
 * The order of a join (rdma_mcm_send_join()): the IGMP/MLD side first,
 * then rdma_cm, then, where rdma_cm refused, rdma_mcm's own join; every
 * step that can fail comes before the join's event can be delivered, so a
 * failed join never reported JOINED, and a failed step takes back the
 * steps before it.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/in.h>
#include <linux/in6.h>
#include <linux/lockdep.h>
#include <linux/overflow.h>
#include <linux/sched/mm.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <net/ipv6.h>
#include <rdma/ib_verbs.h>
#include <rdma/rdma_cm_ib.h>

#include "rdma_mcm_internal.h"

static bool rdma_mcm_source_ok(const union rdma_mcm_addr *src)
{
	__be32 a4;

	switch (src->sa.sa_family) {
	case AF_INET:
		a4 = src->in.sin_addr.s_addr;
		/* 0.0.0.0/8 ("this network"; ipv4_is_zeronet() is 0 alone) */
		return (a4 & htonl(0xff000000)) && !ipv4_is_multicast(a4) &&
		       !ipv4_is_lbcast(a4);
	case AF_INET6:
		return !ipv6_addr_any(&src->in6.sin6_addr) &&
		       !ipv6_addr_is_multicast(&src->in6.sin6_addr);
	default:
		return false;
	}
}

static void rdma_mcm_source_copy(const union rdma_mcm_addr *src,
				 union rdma_mcm_ipaddr *out)
{
	memset(out, 0, sizeof(*out));
	if (src->sa.sa_family == AF_INET)
		out->v4 = src->in.sin_addr.s_addr;
	else
		out->v6 = src->in6.sin6_addr;
}

static struct rdma_mcm_ipmc *rdma_mcm_ipmc_alloc(unsigned int nr_sources)
{
	struct rdma_mcm_ipmc *ipmc;

	if (rdma_mcm_fail_alloc())
		return NULL;
	ipmc = kzalloc(struct_size(ipmc, sources, nr_sources),
		       GFP_KERNEL_ACCOUNT);
	if (ipmc)
		ipmc->nr_sources = nr_sources;
	return ipmc;
}

/**
 * rdma_mcm_ipmc_free() - free a membership's IGMP/MLD side
 * @ipmc: the membership's, no longer held; or NULL
 */
void rdma_mcm_ipmc_free(struct rdma_mcm_ipmc *ipmc)
{
	WARN_ON_ONCE(ipmc && ipmc->ipsock);
	kfree(ipmc);
}

/**
 * rdma_mcm_sources_parse() - check a join's sources and keep them
 * @group: the group, checked already
 * @join_type: the join's type
 * @sources: the sources, or NULL when @nr_sources is 0
 * @nr_sources: how many
 * @ipmc: set to the new IGMP/MLD side with the sources; NULL for none
 *
 * Context: process context (allocates, charged to the caller's memory
 * cgroup).
 * Return: 0; -EINVAL for more than %RDMA_MCM_MAX_SOURCES, NULL @sources,
 * sources of a send-only join, a source of another family than @group,
 * one that is not unicast (multicast, the any address, the IPv4 broadcast
 * address) or one given twice; -EAFNOSUPPORT for a source of an unknown
 * family; -EOPNOTSUPP for sources of an InfiniBand (AF_IB) group;
 * -ENOMEM.
 */
int rdma_mcm_sources_parse(const union rdma_mcm_addr *group,
			   enum rdma_mcm_join_type join_type,
			   const struct sockaddr_storage *sources,
			   unsigned int nr_sources, struct rdma_mcm_ipmc **ipmc)
{
	struct rdma_mcm_ipmc *new;
	union rdma_mcm_addr src;
	unsigned int i, j;
	int ret;

	*ipmc = NULL;
	if (!nr_sources)
		return 0;
	if (!sources || nr_sources > RDMA_MCM_MAX_SOURCES ||
	    join_type != RDMA_MCM_FULLMEMBER)
		return -EINVAL;
	if (group->sa.sa_family == AF_IB)
		return -EOPNOTSUPP;	/* the SA has no source filters */
	new = rdma_mcm_ipmc_alloc(nr_sources);
	if (!new)
		return -ENOMEM;
	for (i = 0; i < nr_sources; i++) {
		ret = rdma_mcm_addr_parse((const struct sockaddr *)&sources[i],
					  sizeof(sources[i]), &src);
		if (ret)
			goto err;
		ret = -EINVAL;
		if (src.sa.sa_family != group->sa.sa_family ||
		    !rdma_mcm_source_ok(&src))
			goto err;
		rdma_mcm_source_copy(&src, &new->sources[i]);
		for (j = 0; j < i; j++)
			if (!memcmp(&new->sources[j], &new->sources[i],
				    sizeof(new->sources[i])))
				goto err;
	}
	*ipmc = new;
	return 0;
err:
	kfree(new);
	return ret;
}

/* The sources of @mb's join (0: any source); its context's lock or mutex. */
unsigned int rdma_mcm_nr_sources(const struct rdma_mcm_membership *mb)
{
	return mb->ipmc ? mb->ipmc->nr_sources : 0;
}

/**
 * rdma_mcm_joined_by_mcm() - did rdma_mcm join the group itself
 * @mb: the membership
 *
 * Context: its context's lock or mutex held (a snapshot under the lock).
 * Return: true for a group rdma_cm refused and rdma_mcm joined.
 */
bool rdma_mcm_joined_by_mcm(const struct rdma_mcm_membership *mb)
{
	/* @own changes under the mutex: under the lock alone, a snapshot */
	return mb->ipmc && READ_ONCE(mb->ipmc->own);
}

/*
 * Groups an any-source socket takes at most. IPv4 sockets take at most the
 * namespace's igmp_max_memberships (20 by default): a socket that refuses
 * one more (-ENOBUFS) is full from then on. IPv6 sockets have no such
 * limit, only their option memory (net.core.optmem_max), which 64 groups
 * stay well within.
 */
#define RDMA_MCM_IPSOCK_GROUPS	64

static struct rdma_mcm_ipsock *rdma_mcm_ipsock_open(struct rdma_mcm_ctx *ctx,
						    int ifindex,
						    unsigned int room, int *err)
{
	struct rdma_mcm_ipsock *ips;
	struct mem_cgroup *old;
	int ret;

	ips = rdma_mcm_fail_alloc() ? NULL :
	      kzalloc_obj(*ips, GFP_KERNEL_ACCOUNT);
	if (!ips) {
		*err = -ENOMEM;
		return NULL;
	}
	/* the socket is charged to the context's opener, as its ids are */
	old = set_active_memcg(ctx->memcg);
	ret = rdma_mcm_fail_alloc() ? -ENOMEM :
	      ctx->be->ip_open(ctx->be, ctx->net, ctx->src.sa.sa_family,
			       &ips->sock);
	set_active_memcg(old);
	if (ret) {
		kfree(ips);
		/* sock_create_kern(): no IPv6, or memory (-ENOBUFS, -ENFILE) */
		*err = ret == -EAFNOSUPPORT ? -EAFNOSUPPORT : -ENOMEM;
		return NULL;
	}
	ips->ifindex = ifindex;
	ips->room = room;
	INIT_LIST_HEAD(&ips->node);
	rdma_mcm_live_inc(RDMA_MCM_LIVE_IPSOCKS);
	return ips;
}

static void rdma_mcm_ipsock_close(struct rdma_mcm_ctx *ctx,
				  struct rdma_mcm_ipsock *ips)
{
	list_del(&ips->node);
	ctx->be->ip_close(ctx->be, ips->sock);
	kfree(ips);
	rdma_mcm_live_dec(RDMA_MCM_LIVE_IPSOCKS);
}

/*
 * A socket for memberships on @ifindex, @room of them (0: a filter's own):
 * the context's spare if it has one, else a new one. An empty socket has
 * nothing of a netdev, so the spare serves any netdev and either kind.
 */
static struct rdma_mcm_ipsock *rdma_mcm_ipsock_get(struct rdma_mcm_ctx *ctx,
						   int ifindex,
						   unsigned int room, int *err)
{
	struct rdma_mcm_ipsock *ips = ctx->ipsock_spare;

	if (!ips)
		return rdma_mcm_ipsock_open(ctx, ifindex, room, err);
	ctx->ipsock_spare = NULL;
	ips->ifindex = ifindex;
	ips->room = room;
	return ips;
}

/*
 * @ips holds nothing any more: the context keeps it as its spare, so that
 * a join after a leave creates no socket (sock_create_kern() and
 * sock_release() were about half of what the IGMP/MLD side cost), or
 * closes it when it has one already. A leave dropped each group with its filter
 * (IP_DROP_MEMBERSHIP, IPV6_DROP_MEMBERSHIP), and a failed join took back
 * what it added, so a source filter's own socket is as clean as a shared
 * one.
 */
static void rdma_mcm_ipsock_put(struct rdma_mcm_ctx *ctx,
				struct rdma_mcm_ipsock *ips)
{
	if (ctx->ipsock_spare) {
		rdma_mcm_ipsock_close(ctx, ips);
		return;
	}
	list_del_init(&ips->node);
	ips->count = 0;
	ips->room = 0;
	ctx->ipsock_spare = ips;
}

/**
 * rdma_mcm_ipmc_drop_spare() - close the context's empty IGMP/MLD socket
 * @ctx: the context
 *
 * The socket kept for the next membership (&rdma_mcm_ctx.ipsock_spare):
 * closed when the context loses its device, whose netdev's memberships
 * its next ones will not be, and when it is closed: its sockets must be
 * gone before its namespace may be.
 *
 * Context: process context, @ctx->mutex held.
 */
void rdma_mcm_ipmc_drop_spare(struct rdma_mcm_ctx *ctx)
{
	struct rdma_mcm_ipsock *ips = ctx->ipsock_spare;

	lockdep_assert_held(&ctx->mutex);
	if (!ips)
		return;
	ctx->ipsock_spare = NULL;
	rdma_mcm_ipsock_close(ctx, ips);
}

/* A place for one more membership in @ips: off the free list when full */
static void rdma_mcm_ipsock_take(struct rdma_mcm_ipsock *ips)
{
	ips->count++;
	if (ips->room && !--ips->room)
		list_del_init(&ips->node);
}

/*
 * The backend's IGMP/MLD errors, as rdma_mcm documents them: more sources
 * than net.ipv4.igmp_max_msf (the namespace's) or net.ipv6.mld_max_msf (the
 * host's) allow: -ENOBUFS; the netdev is gone or going: -ENODEV; no IPv6
 * on it (no inet6_dev: an MTU below 1280), or no such interface for the
 * filter: -EADDRNOTAVAIL; -ENOMEM; no sockets of the family: -EAFNOSUPPORT.
 * Anything else is logged and reported as -EIO.
 */
static int rdma_mcm_ip_join_errno(int err)
{
	switch (err) {
	case -ENOBUFS:
	case -ENODEV:
	case -EADDRNOTAVAIL:
	case -ENOMEM:
	case -EAFNOSUPPORT:	/* no sockets of the family (IPv6 unloaded) */
		return err;
	case -EINVAL:
		return -EADDRNOTAVAIL;
	default:
		pr_warn_ratelimited("unexpected error %d from an IGMP/MLD join, reported as -EIO\n",
				    err);
		return -EIO;
	}
}

/* Join @mb's group through @ips; on success it holds @mb's place. */
static int rdma_mcm_ipsock_join(struct rdma_mcm_ctx *ctx,
				struct rdma_mcm_ipsock *ips,
				struct rdma_mcm_membership *mb)
{
	int ret;

	ret = rdma_mcm_fail_alloc() ? -ENOMEM :
	      ctx->be->ip_join(ctx->be, ips->sock, ips->ifindex, &mb->group,
			       mb->ipmc);
	if (ret)
		return ret;
	rdma_mcm_ipsock_take(ips);
	mb->ipmc->ipsock = ips;
	return 0;
}

/*
 * An any-source membership: in a shared socket of the netdev with room (a
 * route context's ids may be on several netdevs), or the spare, or a new
 * one
 */
static int rdma_mcm_ipmc_hold_any(struct rdma_mcm_ctx *ctx,
				  struct rdma_mcm_membership *mb, int ifindex)
{
	struct rdma_mcm_ipsock *ips;
	int ret;

	list_for_each_entry(ips, &ctx->ipsocks_free, node) {
		if (ips->ifindex != ifindex)
			continue;
		ret = rdma_mcm_ipsock_join(ctx, ips, mb);
		/*
		 * -ENOBUFS: the namespace allows the socket no more IPv4
		 * groups; -ENOMEM: no more option memory for another IPv6
		 * group (net.core.optmem_max). Full from now: a new socket.
		 */
		if (ret != -ENOBUFS && ret != -ENOMEM)
			return ret;
		ips->room = 0;
		list_del_init(&ips->node);
		break;
	}
	ips = rdma_mcm_ipsock_get(ctx, ifindex, RDMA_MCM_IPSOCK_GROUPS, &ret);
	if (!ips)
		return ret;
	list_add(&ips->node, &ctx->ipsocks_free);
	ret = rdma_mcm_ipsock_join(ctx, ips, mb);
	if (ret)
		rdma_mcm_ipsock_put(ctx, ips);
	return ret;
}

/* A source filter, in a socket of its own: the spare, or a new one */
static int rdma_mcm_ipmc_hold_filter(struct rdma_mcm_ctx *ctx,
				     struct rdma_mcm_membership *mb,
				     int ifindex)
{
	struct rdma_mcm_ipsock *ips;
	int ret;

	ips = rdma_mcm_ipsock_get(ctx, ifindex, 0, &ret);
	if (!ips)
		return ret;
	ret = rdma_mcm_ipsock_join(ctx, ips, mb);
	if (ret)
		rdma_mcm_ipsock_put(ctx, ips);
	return ret;
}

/**
 * rdma_mcm_ipmc_hold() - the IGMP/MLD side of a RoCE full membership
 * @ctx: the context
 * @mb: the membership, about to be joined on @id
 * @id: its id, bound on a RoCE port
 *
 * Joins the group on @id's netdev, any-source or, with sources, with a
 * filter that includes exactly them. Does nothing for a send-only
 * membership.
 *
 * Context: process context, @ctx->mutex held; takes the RTNL.
 * Return: 0; -ENOMEM; -ENODEV (no netdev); -EAFNOSUPPORT (no IPv6 in the
 * kernel); the errors of the IGMP/MLD join (-ENOBUFS, -EADDRNOTAVAIL,
 * -EIO).
 */
int rdma_mcm_ipmc_hold(struct rdma_mcm_ctx *ctx, struct rdma_mcm_membership *mb,
		       struct rdma_cm_id *id)
{
	int ifindex = id->route.addr.dev_addr.bound_dev_if;
	struct rdma_mcm_ipmc *ipmc;
	int ret;

	lockdep_assert_held(&ctx->mutex);
	if (mb->join_type != RDMA_MCM_FULLMEMBER)
		return 0;
	if (!ifindex)
		return -ENODEV;
	if (!mb->ipmc) {
		ipmc = rdma_mcm_ipmc_alloc(0);
		if (!ipmc)
			return -ENOMEM;
		spin_lock_bh(&ctx->lock);
		mb->ipmc = ipmc;
		spin_unlock_bh(&ctx->lock);
	}
	if (WARN_ON_ONCE(mb->ipmc->ipsock))
		return 0;
	ret = mb->ipmc->nr_sources ? rdma_mcm_ipmc_hold_filter(ctx, mb, ifindex) :
				     rdma_mcm_ipmc_hold_any(ctx, mb, ifindex);
	return ret ? rdma_mcm_ip_join_errno(ret) : 0;
}

/**
 * rdma_mcm_own_join_wanted() - does rdma_mcm join this group itself
 * @mb: the membership
 * @id: the id rdma_cm refused to join it on
 * @cm_ret: what rdma_join_multicast() returned
 *
 * Return: true for an IPv6 group that rdma_cm refused on RoCE v2.
 */
bool rdma_mcm_own_join_wanted(const struct rdma_mcm_membership *mb,
			      struct rdma_cm_id *id, int cm_ret)
{
	return cm_ret == -ENOTSUPP && mb->group.sa.sa_family == AF_INET6 &&
	       rdma_protocol_roce(id->device, id->port_num);
}

/*
 * The address handle errors of rdma_mcm's own join: the netdev is gone
 * (-ENODEV); its MTU is too small for RoCE (-EINVAL: -EOPNOTSUPP, as
 * rdma_cm's join would say); the bound source has no RoCE v2 GID on the
 * port any more, the address is leaving (-ENOENT: -EADDRNOTAVAIL);
 * -ENOMEM. Anything else is logged and reported as -EIO.
 */
static int rdma_mcm_roce_ah_errno(int err)
{
	switch (err) {
	case -ENODEV:
	case -ENOMEM:
		return err;
	case -EINVAL:
		return -EOPNOTSUPP;
	case -ENOENT:
		return -EADDRNOTAVAIL;
	default:
		pr_warn_ratelimited("unexpected error %d building a RoCE v2 address handle, reported as -EIO\n",
				    err);
		return -EIO;
	}
}

/**
 * rdma_mcm_own_join() - join a group rdma_cm refused, as rdma_cm would
 * @ctx: the context
 * @mb: the membership, JOINING on @slot, published, its IGMP/MLD side
 *	held already (rdma_mcm_ipmc_hold())
 * @slot: the slot whose id rdma_cm refused the group on
 *
 * Builds the address handle attributes from the id's source and delivers
 * the join's event as rdma_cm's handler would have: the membership is
 * JOINING with its JOINED queued (or delivered, to a char device's
 * context) when this returns 0.
 *
 * Context: process context, @ctx->mutex held.
 * Return: 0; -ENOMEM; the errors of the address handle (-ENODEV,
 * -EOPNOTSUPP, -EADDRNOTAVAIL, -EIO).
 */
int rdma_mcm_own_join(struct rdma_mcm_ctx *ctx, struct rdma_mcm_membership *mb,
		      struct rdma_mcm_slot *slot)
{
	struct rdma_cm_event ev = { .event = RDMA_CM_EVENT_MULTICAST_JOIN };
	struct rdma_ah_attr *ah = &ev.param.ud.ah_attr;
	struct rdma_mcm_ipmc *ipmc;
	union ib_gid mgid;
	int ret;

	lockdep_assert_held(&ctx->mutex);
	if (!mb->ipmc) {	/* send-only: nothing held, nothing kept yet */
		ipmc = rdma_mcm_ipmc_alloc(0);
		if (!ipmc)
			return -ENOMEM;
		spin_lock_bh(&ctx->lock);
		mb->ipmc = ipmc;
		spin_unlock_bh(&ctx->lock);
	}
	/* the MGID of an IPv6 group on RoCE is its address */
	memcpy(mgid.raw, &mb->group.in6.sin6_addr, sizeof(mgid.raw));
	ret = ctx->be->roce_ah(ctx->be, slot->id, &mgid, ah);
	if (ret)
		return rdma_mcm_roce_ah_errno(ret);
	WRITE_ONCE(mb->ipmc->own, true);

	/* what rdma_cm's MULTICAST_JOIN of the group would carry */
	ev.param.ud.qp_num = 0xFFFFFF;
	ev.param.ud.qkey = RDMA_UDP_QKEY;
	ev.param.ud.private_data = (void *)(uintptr_t)mb->handle;
	rdma_mcm_mc_event(ctx, slot, &ev);
	rdma_destroy_ah_attr(ah);	/* the event path took a copy */
	return 0;
}

/**
 * rdma_mcm_ipmc_release() - let go of what rdma_mcm holds for a membership
 * @ctx: the context
 * @mb: the membership
 *
 * Leaves the group through the socket that holds it (a leave report,
 * unless another member of the group remains on the netdev, whose part of
 * the filter stays as it was); a socket left empty is kept as the
 * context's spare (closed if it has one: rdma_mcm_ipmc_drop_spare()).
 * Does nothing when nothing is held.
 *
 * Context: process context, @ctx->mutex held; takes the RTNL.
 */
void rdma_mcm_ipmc_release(struct rdma_mcm_ctx *ctx,
			   struct rdma_mcm_membership *mb)
{
	struct rdma_mcm_ipmc *ipmc = mb->ipmc;
	struct rdma_mcm_ipsock *ips;

	lockdep_assert_held(&ctx->mutex);
	if (!ipmc)
		return;
	ips = ipmc->ipsock;
	if (!ips)
		return;
	ipmc->ipsock = NULL;
	ctx->be->ip_leave(ctx->be, ips->sock, ips->ifindex, &mb->group);
	if (WARN_ON_ONCE(!ips->count) || !--ips->count) {
		rdma_mcm_ipsock_put(ctx, ips);
		return;
	}
	/*
	 * A shared socket has one more place (a filter's own socket is empty
	 * now, and was put above): count + room stays within
	 * RDMA_MCM_IPSOCK_GROUPS.
	 */
	if (list_empty(&ips->node)) {
		ips->room = 1;
		list_add_tail(&ips->node, &ctx->ipsocks_free);
	} else {
		ips->room++;
	}
}
