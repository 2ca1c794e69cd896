// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * rdma_mcm: the generic netlink family "rdma_mcm" (the ABI is
 * include/uapi/rdma/rdma_mcm_netlink.h, its description
 * Documentation/netlink.rst).
 *
 * RDMA netlink's clients are a fixed table in ib_core, which a module out
 * of the tree cannot extend; a generic netlink family is how such a module
 * offers a documented ABI (ethtool, devlink, team and wireguard do so).
 *
 *   MEMBER_GET  dump of the memberships the caller may see
 *               (rdma_mcm_dump.c walks them; the cursor is in cb->ctx)
 *   CTX_GET     dump of the contexts, with their counters
 *   STATS_GET   the module's counters, limits and usage, per device too
 *   "events"    a multicast group: a message per join, joined, error,
 *               wait, rejoin, leave, device lost or found
 *
 * Events are built and sent where they happen, in atomic context when a
 * state changes under a context's spinlock (GFP_ATOMIC; nothing is built
 * when nobody listens). A message that cannot be allocated, or that a
 * listener's full socket refuses, counts in events_lost: the listener sees
 * ENOBUFS from recv(), and STATS_GET tells how many went; never a silent
 * drop.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cred.h>
#include <linux/pid.h>
#include <linux/pid_namespace.h>
#include <linux/sched.h>
#include <linux/timekeeping.h>
#include <linux/user_namespace.h>
#include <net/genetlink.h>
#include <net/net_namespace.h>
#include <net/netlink.h>
#include <uapi/rdma/rdma_mcm_abi.h>

#include "rdma_mcm_internal.h"
#include "rdma_mcm_limits.h"

enum rdma_mcm_nl_mcgrp {
	RDMA_MCM_NL_MCGRP_EVENTS,
};

static const struct genl_multicast_group rdma_mcm_nl_mcgrps[] = {
	[RDMA_MCM_NL_MCGRP_EVENTS] = {
		.name = RDMA_MCM_GENL_MCGRP_EVENTS,
		/* events name every owner of the namespace */
		RDMA_MCM_MCGRP_ADMIN,
	},
};

/*
 * What a dump request may carry; any other attribute is refused (strict),
 * as is any attribute of STATS_GET (no policy).
 */
static const struct nla_policy rdma_mcm_nl_dump_policy[RDMA_MCM_A_CTX_ID + 1] = {
	[RDMA_MCM_A_CTX_ID] = NLA_POLICY_MIN(NLA_U32, 1),
};

static struct genl_family rdma_mcm_genl_family;

/**
 * struct rdma_mcm_nl_dump - a dump's state, in its netlink_callback
 * @pos: where it resumes
 * @filter: who asked (fixed when the dump starts)
 * @pid_ns: the asker's pid namespace, in which pids are told (a
 *	reference is held until the dump is done)
 */
struct rdma_mcm_nl_dump {
	struct rdma_mcm_dump_pos pos;
	struct rdma_mcm_dump_filter filter;
	struct pid_namespace *pid_ns;
};

/**
 * struct rdma_mcm_nl_fill - one round of a dump
 * @skb: the message being filled
 * @cb: the dump
 * @pid_ns: the asker's pid namespace
 * @user_ns: the asker's socket's user namespace, in which uids are told
 * @now_ns: CLOCK_BOOTTIME of the round (ages)
 * @entries: entries put in @skb
 */
struct rdma_mcm_nl_fill {
	struct sk_buff *skb;
	struct netlink_callback *cb;
	struct pid_namespace *pid_ns;
	struct user_namespace *user_ns;
	u64 now_ns;
	unsigned int entries;
};

static struct rdma_mcm_nl_dump *rdma_mcm_nl_dump_of(struct netlink_callback *cb)
{
	BUILD_BUG_ON(sizeof(struct rdma_mcm_nl_dump) > sizeof(cb->ctx));
	return (struct rdma_mcm_nl_dump *)cb->ctx;
}

/* An address's bytes: 4 for IPv4, 16 for IPv6 and AF_IB */
static int rdma_mcm_nl_put_addr(struct sk_buff *skb, int attr,
				const union rdma_mcm_addr *a)
{
	switch (a->sa.sa_family) {
	case AF_INET:
		return nla_put_in_addr(skb, attr, a->in.sin_addr.s_addr);
	case AF_INET6:
		return nla_put_in6_addr(skb, attr, &a->in6.sin6_addr);
	case AF_IB:
		return nla_put(skb, attr, 16, &a->ib.sib_addr);
	default:
		return 0;
	}
}

/*
 * The owner of a context. Pids and uids are told as the reader sees them
 * (@pid_ns, @user_ns): a pid outside the reader's namespace (or with no
 * @pid_ns) is left out, as is the pid of a process that is gone; a uid
 * without a mapping is the overflow uid.
 */
static int rdma_mcm_nl_put_owner(struct sk_buff *skb,
				 const struct rdma_mcm_ctx *ctx,
				 struct pid_namespace *pid_ns,
				 struct user_namespace *user_ns)
{
	const struct rdma_mcm_owner *o = &ctx->owner;
	pid_t pid;

	if (nla_put_u32(skb, RDMA_MCM_A_CTX_ID, ctx->id) ||
	    nla_put_u8(skb, RDMA_MCM_A_OWNER_KIND, o->kernel ?
		       RDMA_MCM_OWNER_KERNEL : RDMA_MCM_OWNER_USER) ||
	    nla_put_string(skb, RDMA_MCM_A_OWNER_NAME, o->name))
		return -EMSGSIZE;
	if (o->kernel)
		return 0;
	/* none once the process is gone: its number may be another's now */
	pid = pid_ns && pid_has_task(o->pid, PIDTYPE_TGID) ?
	      pid_nr_ns(o->pid, pid_ns) : 0;
	if ((pid && nla_put_u32(skb, RDMA_MCM_A_OWNER_PID, pid)) ||
	    nla_put_u32(skb, RDMA_MCM_A_OWNER_UID,
			from_kuid_munged(user_ns, o->uid)))
		return -EMSGSIZE;
	if (READ_ONCE(o->file_ctx) &&
	    nla_put_u32(skb, RDMA_MCM_A_FILE_CTX, READ_ONCE(o->file_ctx)))
		return -EMSGSIZE;
	return 0;
}

/* Where a context is: namespace, device, port, netdev, family, source */
static int rdma_mcm_nl_put_where(struct sk_buff *skb,
				 const struct rdma_mcm_ctx_view *cv)
{
	const struct rdma_mcm_ctx *ctx = cv->ctx;

	if (nla_put_u32(skb, RDMA_MCM_A_NETNS, ctx->net->ns.inum) ||
	    nla_put_u16(skb, RDMA_MCM_A_FAMILY, ctx->src.sa.sa_family) ||
	    rdma_mcm_nl_put_addr(skb, RDMA_MCM_A_SRC, &ctx->src))
		return -EMSGSIZE;
	if (cv->dev_name[0] &&
	    (nla_put_string(skb, RDMA_MCM_A_DEV_NAME, cv->dev_name) ||
	     nla_put_u32(skb, RDMA_MCM_A_PORT, cv->port)))
		return -EMSGSIZE;
	if (cv->netdev[0] &&
	    nla_put_string(skb, RDMA_MCM_A_NETDEV, cv->netdev))
		return -EMSGSIZE;
	return 0;
}

/* A source-specific join's sources (none: any source); its context's lock */
static int rdma_mcm_nl_put_sources(struct sk_buff *skb,
				   const struct rdma_mcm_membership *mb)
{
	unsigned int i, n = rdma_mcm_nr_sources(mb);
	int len = mb->group.sa.sa_family == AF_INET ? 4 : 16;
	struct nlattr *nest;

	if (!n)
		return 0;
	nest = nla_nest_start(skb, RDMA_MCM_A_SOURCES);
	if (!nest)
		return -EMSGSIZE;
	for (i = 0; i < n; i++) {
		if (nla_put(skb, RDMA_MCM_A_SOURCE, len,
			    &mb->ipmc->sources[i])) {
			nla_nest_cancel(skb, nest);
			return -EMSGSIZE;
		}
	}
	nla_nest_end(skb, nest);
	return 0;
}

static u64 rdma_mcm_nl_ms(u64 now_ns, u64 then_ns)
{
	return now_ns > then_ns ? div_u64(now_ns - then_ns, NSEC_PER_MSEC) : 0;
}

/* One membership's attributes (a dump entry); its context's lock held */
static int rdma_mcm_nl_put_member(struct sk_buff *skb,
				  const struct rdma_mcm_membership *mb,
				  u64 now_ns)
{
	if (nla_put_u32(skb, RDMA_MCM_A_HANDLE, mb->handle) ||
	    rdma_mcm_nl_put_addr(skb, RDMA_MCM_A_GROUP, &mb->group) ||
	    nla_put_u8(skb, RDMA_MCM_A_JOIN_TYPE, mb->join_type) ||
	    nla_put_u8(skb, RDMA_MCM_A_STATE, mb->state) ||
	    nla_put_s32(skb, RDMA_MCM_A_STATUS, mb->status) ||
	    nla_put_s32(skb, RDMA_MCM_A_LAST_STATUS, mb->last_status) ||
	    nla_put_u64_64bit(skb, RDMA_MCM_A_AGE_MS,
			      rdma_mcm_nl_ms(now_ns, mb->join_ns),
			      RDMA_MCM_A_PAD) ||
	    nla_put_u64_64bit(skb, RDMA_MCM_A_STATE_AGE_MS,
			      rdma_mcm_nl_ms(now_ns, mb->state_time_ns),
			      RDMA_MCM_A_PAD) ||
	    nla_put_u32(skb, RDMA_MCM_A_REJOINS, mb->rejoins) ||
	    nla_put_u32(skb, RDMA_MCM_A_QUEUED, rdma_mcm_member_queued(mb)))
		return -EMSGSIZE;
	/* changed under the context's mutex, not its lock: a snapshot */
	if (data_race(mb->qp_attached) &&
	    nla_put_flag(skb, RDMA_MCM_A_QP_ATTACHED))
		return -EMSGSIZE;
	if (mb->have_join &&
	    (nla_put(skb, RDMA_MCM_A_MGID, sizeof(mb->mgid), &mb->mgid) ||
	     nla_put_u16(skb, RDMA_MCM_A_MLID, mb->mlid) ||
	     nla_put_u32(skb, RDMA_MCM_A_QKEY, mb->qkey) ||
	     nla_put_u8(skb, RDMA_MCM_A_JOINED_BY,
			rdma_mcm_joined_by_mcm(mb) ? RDMA_MCM_JOINER_RDMA_MCM :
						     RDMA_MCM_JOINER_RDMA_CM)))
		return -EMSGSIZE;
	return rdma_mcm_nl_put_sources(skb, mb);
}

static int rdma_mcm_nl_fill_member(void *arg,
				   const struct rdma_mcm_ctx_view *cv,
				   const struct rdma_mcm_membership *mb)
{
	struct rdma_mcm_nl_fill *fill = arg;
	struct sk_buff *skb = fill->skb;
	void *hdr;

	hdr = genlmsg_put(skb, NETLINK_CB(fill->cb->skb).portid,
			  fill->cb->nlh->nlmsg_seq, &rdma_mcm_genl_family,
			  NLM_F_MULTI, RDMA_MCM_CMD_MEMBER_GET);
	if (!hdr)
		return -EMSGSIZE;
	if (rdma_mcm_nl_put_owner(skb, cv->ctx, fill->pid_ns, fill->user_ns) ||
	    rdma_mcm_nl_put_where(skb, cv) ||
	    rdma_mcm_nl_put_member(skb, mb, fill->now_ns)) {
		genlmsg_cancel(skb, hdr);
		return -EMSGSIZE;
	}
	genlmsg_end(skb, hdr);
	fill->entries++;
	return 0;
}

/*
 * An errno breakdown: only the errnos that happened, each errno told
 * apart first, "any other" (errno 0) last: a reader with room for fewer
 * entries keeps the named ones (librdmamcm's struct has 16)
 */
static int rdma_mcm_nl_put_breakdown(struct sk_buff *skb, int attr,
				     const atomic64_t *slots)
{
	struct nlattr *nest, *entry;
	int k, i;
	u64 n;

	nest = nla_nest_start(skb, attr);
	if (!nest)
		return -EMSGSIZE;
	for (k = 1; k <= RDMA_MCM_ERRNO_SLOTS; k++) {
		i = k % RDMA_MCM_ERRNO_SLOTS;
		n = atomic64_read(&slots[i]);
		if (!n)
			continue;
		entry = nla_nest_start(skb, RDMA_MCM_A_ERRNO_COUNT);
		if (!entry ||
		    nla_put_u32(skb, RDMA_MCM_A_ERRNO, rdma_mcm_slot_errno(i)) ||
		    nla_put_u64_64bit(skb, RDMA_MCM_A_COUNT, n, RDMA_MCM_A_PAD))
			return -EMSGSIZE;
		nla_nest_end(skb, entry);
	}
	nla_nest_end(skb, nest);
	return 0;
}

/* A set of counters: the counters' nest and both breakdowns */
static int rdma_mcm_nl_put_counters(struct sk_buff *skb,
				    const struct rdma_mcm_counters *c)
{
	struct nlattr *nest;
	int i;

	nest = nla_nest_start(skb, RDMA_MCM_A_COUNTERS);
	if (!nest)
		return -EMSGSIZE;
	/* in the nest, type 0 (RDMA_MCM_CNT_UNSPEC) is the padding */
	for (i = RDMA_MCM_CNT_UNSPEC + 1; i < __RDMA_MCM_CNT_MAX; i++)
		if (nla_put_u64_64bit(skb, i, atomic64_read(&c->cnt[i]),
				      RDMA_MCM_CNT_UNSPEC))
			return -EMSGSIZE;
	nla_nest_end(skb, nest);
	if (rdma_mcm_nl_put_breakdown(skb, RDMA_MCM_A_JOIN_FAILURES,
				      c->join_failed) ||
	    rdma_mcm_nl_put_breakdown(skb, RDMA_MCM_A_ERRORS, c->errors))
		return -EMSGSIZE;
	return 0;
}

static int rdma_mcm_nl_fill_ctx(void *arg, const struct rdma_mcm_ctx_view *cv)
{
	struct rdma_mcm_nl_fill *fill = arg;
	const struct rdma_mcm_ctx *ctx = cv->ctx;
	struct sk_buff *skb = fill->skb;
	void *hdr;

	hdr = genlmsg_put(skb, NETLINK_CB(fill->cb->skb).portid,
			  fill->cb->nlh->nlmsg_seq, &rdma_mcm_genl_family,
			  NLM_F_MULTI, RDMA_MCM_CMD_CTX_GET);
	if (!hdr)
		return -EMSGSIZE;
	if (rdma_mcm_nl_put_owner(skb, ctx, fill->pid_ns, fill->user_ns) ||
	    rdma_mcm_nl_put_where(skb, cv) ||
	    nla_put_u32(skb, RDMA_MCM_A_CTX_FLAGS, ctx->flags) ||
	    nla_put_u32(skb, RDMA_MCM_A_MEMBERS, cv->members) ||
	    nla_put_u64_64bit(skb, RDMA_MCM_A_AGE_MS,
			      rdma_mcm_nl_ms(fill->now_ns,
					     ctx->owner.start_ns),
			      RDMA_MCM_A_PAD) ||
	    rdma_mcm_nl_put_counters(skb, &ctx->counters)) {
		genlmsg_cancel(skb, hdr);
		return -EMSGSIZE;
	}
	genlmsg_end(skb, hdr);
	fill->entries++;
	return 0;
}

/*
 * A request whose genetlink header's reserved byte is set: genetlink
 * refuses it for every command of the family from 6.1 (resv_start_op 0);
 * 5.10's does not, so rdma_mcm says the same itself.
 */
static bool rdma_mcm_nl_reserved(const struct nlmsghdr *nlh,
				 struct netlink_ext_ack *extack)
{
	const struct genlmsghdr *hdr = nlmsg_data(nlh);

	if (!hdr->reserved)
		return false;
	NL_SET_ERR_MSG(extack, "reserved field must be zero");
	return true;
}

/*
 * Who asks, and for what: fixed when the dump starts, in the asker's task
 * (the policy validated the request already: a context id is not 0).
 */
static int rdma_mcm_nl_dump_start(struct netlink_callback *cb)
{
	struct rdma_mcm_nl_dump *d = rdma_mcm_nl_dump_of(cb);
	const struct nlattr *attr;

	/* what genetlink refuses itself from 6.1 (resv_start_op), on 5.10 */
	if (rdma_mcm_nl_reserved(cb->nlh, cb->extack))
		return -EINVAL;
	memset(d, 0, sizeof(*d));
	d->filter.net = sock_net(cb->skb->sk);
	d->filter.uid = current_euid();
	d->filter.all = netlink_net_capable(cb->skb, CAP_NET_ADMIN);
	attr = nlmsg_find_attr(cb->nlh, GENL_HDRLEN, RDMA_MCM_A_CTX_ID);
	if (attr)
		d->filter.ctx_id = nla_get_u32(attr);
	d->pid_ns = get_pid_ns(task_active_pid_ns(current));
	return 0;
}

static int rdma_mcm_nl_dump_done(struct netlink_callback *cb)
{
	struct rdma_mcm_nl_dump *d = rdma_mcm_nl_dump_of(cb);

	if (d->pid_ns)
		put_pid_ns(d->pid_ns);
	return 0;
}

static void rdma_mcm_nl_fill_init(struct rdma_mcm_nl_fill *fill,
				  struct sk_buff *skb,
				  struct netlink_callback *cb)
{
	fill->skb = skb;
	fill->cb = cb;
	fill->pid_ns = rdma_mcm_nl_dump_of(cb)->pid_ns;
	fill->user_ns = sk_user_ns(NETLINK_CB(cb->skb).sk);
	fill->now_ns = ktime_get_boottime_ns();
	fill->entries = 0;
}

/*
 * A round's end: what it put, or its error if it could put nothing (an
 * entry larger than a whole message cannot happen: a membership's
 * attributes take less than 400 bytes).
 */
static int rdma_mcm_nl_dump_end(struct rdma_mcm_nl_fill *fill, int ret)
{
	if (ret == -EMSGSIZE && fill->entries)
		ret = 0;
	return ret ?: fill->skb->len;
}

static int rdma_mcm_nl_member_dumpit(struct sk_buff *skb,
				     struct netlink_callback *cb)
{
	struct rdma_mcm_nl_dump *d = rdma_mcm_nl_dump_of(cb);
	struct rdma_mcm_nl_fill fill;

	rdma_mcm_nl_fill_init(&fill, skb, cb);
	return rdma_mcm_nl_dump_end(&fill,
		rdma_mcm_walk_members(&d->filter, &d->pos,
				      rdma_mcm_nl_fill_member, &fill));
}

static int rdma_mcm_nl_ctx_dumpit(struct sk_buff *skb,
				  struct netlink_callback *cb)
{
	struct rdma_mcm_nl_dump *d = rdma_mcm_nl_dump_of(cb);
	struct rdma_mcm_nl_fill fill;

	rdma_mcm_nl_fill_init(&fill, skb, cb);
	return rdma_mcm_nl_dump_end(&fill,
		rdma_mcm_walk_contexts(&d->filter, &d->pos,
				       rdma_mcm_nl_fill_ctx, &fill));
}

static int rdma_mcm_nl_put_u32_nest(struct sk_buff *skb, int attr,
				    const u32 *vals, int n)
{
	struct nlattr *nest = nla_nest_start(skb, attr);
	int i;

	if (!nest)
		return -EMSGSIZE;
	for (i = 1; i < n; i++)
		if (nla_put_u32(skb, i, vals[i]))
			return -EMSGSIZE;
	nla_nest_end(skb, nest);
	return 0;
}

static int rdma_mcm_nl_put_device(void *arg, const char *name,
				  const struct rdma_mcm_counters *c)
{
	struct sk_buff *skb = arg;
	struct nlattr *nest = nla_nest_start(skb, RDMA_MCM_A_DEVICE);
	u32 mcast[__RDMA_MCM_MCAST_MAX] = {};

	if (!nest || nla_put_string(skb, RDMA_MCM_A_DEV_NAME, name) ||
	    rdma_mcm_nl_put_counters(skb, c))
		return -EMSGSIZE;
	/* a device registered now: its limits and rdma_mcm's places */
	if (rdma_mcm_dev_mcast(name, mcast) &&
	    rdma_mcm_nl_put_u32_nest(skb, RDMA_MCM_A_MCAST, mcast,
				     __RDMA_MCM_MCAST_MAX))
		return -EMSGSIZE;
	nla_nest_end(skb, nest);
	return 0;
}

/* A set of counters, its breakdowns full (the most it can take) */
static size_t rdma_mcm_nl_counters_size(void)
{
	size_t bd = nla_total_size(0) + RDMA_MCM_ERRNO_SLOTS *
		    (nla_total_size(0) + nla_total_size(sizeof(u32)) +
		     nla_total_size_64bit(sizeof(u64)));

	return nla_total_size(0) +
	       (__RDMA_MCM_CNT_MAX - 1) * nla_total_size_64bit(sizeof(u64)) +
	       2 * bd;
}

/* STATS_GET's reply, with room for @devices devices */
static size_t rdma_mcm_nl_stats_size(unsigned int devices)
{
	return rdma_mcm_nl_counters_size() +
	       nla_total_size(0) + __RDMA_MCM_LIMIT_MAX * nla_total_size(4) +
	       nla_total_size(0) + __RDMA_MCM_USAGE_MAX * nla_total_size(4) +
	       nla_total_size_64bit(sizeof(u64)) +
	       devices * (nla_total_size(0) +
			  nla_total_size(IB_DEVICE_NAME_MAX) +
			  rdma_mcm_nl_counters_size() + nla_total_size(0) +
			  __RDMA_MCM_MCAST_MAX * nla_total_size(4));
}

static int rdma_mcm_nl_stats_doit(struct sk_buff *skb, struct genl_info *info)
{
	u32 limits[__RDMA_MCM_LIMIT_MAX] = {}, usage[__RDMA_MCM_USAGE_MAX] = {};
	struct rdma_mcm_live live;
	struct sk_buff *msg;
	void *hdr;

	/*
	 * No policy: genetlink refuses any attribute from 6.1 (strict
	 * validation of a new command); 5.10 parses none and would take it.
	 */
	if (rdma_mcm_nl_reserved(info->nlhdr, info->extack))
		return -EINVAL;
	if (nlmsg_attrlen(info->nlhdr, GENL_HDRLEN)) {
		NL_SET_ERR_MSG(info->extack, "STATS_GET takes no attribute");
		return -EINVAL;
	}
	rdma_mcm_file_limits(&limits[RDMA_MCM_LIMIT_FILE_MEMBERSHIPS],
			     &limits[RDMA_MCM_LIMIT_FILE_CONTEXTS]);
	rdma_mcm_user_limits(&limits[RDMA_MCM_LIMIT_USER_CONTEXTS],
			     &limits[RDMA_MCM_LIMIT_USER_MEMBERSHIPS],
			     &limits[RDMA_MCM_LIMIT_USER_SOURCES]);
	rdma_mcm_live_objects(&live);
	usage[RDMA_MCM_USAGE_CONTEXTS] = live.contexts;
	usage[RDMA_MCM_USAGE_MEMBERSHIPS] = live.members;
	usage[RDMA_MCM_USAGE_CM_IDS] = live.slots;
	usage[RDMA_MCM_USAGE_FILES] = live.files;
	usage[RDMA_MCM_USAGE_USERS] = live.users;

	msg = genlmsg_new(rdma_mcm_nl_stats_size(rdma_mcm_dev_counters_nr() +
						 4), GFP_KERNEL);
	if (!msg)
		return -ENOMEM;
	hdr = genlmsg_put_reply(msg, info, &rdma_mcm_genl_family, 0,
				RDMA_MCM_CMD_STATS_GET);
	if (!hdr)
		goto err;
	if (rdma_mcm_nl_put_counters(msg, &rdma_mcm_global_counters) ||
	    rdma_mcm_nl_put_u32_nest(msg, RDMA_MCM_A_LIMITS, limits,
				     __RDMA_MCM_LIMIT_MAX) ||
	    rdma_mcm_nl_put_u32_nest(msg, RDMA_MCM_A_USAGE, usage,
				     __RDMA_MCM_USAGE_MAX) ||
	    nla_put_u64_64bit(msg, RDMA_MCM_A_EVENTS_LOST,
			      atomic64_read(&rdma_mcm_events_lost),
			      RDMA_MCM_A_PAD) ||
	    rdma_mcm_dev_counters_walk(rdma_mcm_nl_put_device, msg))
		goto err;
	genlmsg_end(msg, hdr);
	return genlmsg_reply(msg, info);

err:
	nlmsg_free(msg);
	return -EMSGSIZE;
}

static const struct genl_ops rdma_mcm_nl_ops[] = {
	{
		.cmd = RDMA_MCM_CMD_MEMBER_GET,
		.start = rdma_mcm_nl_dump_start,
		.dumpit = rdma_mcm_nl_member_dumpit,
		.done = rdma_mcm_nl_dump_done,
		.policy = rdma_mcm_nl_dump_policy,
		.maxattr = RDMA_MCM_A_CTX_ID,
	},
	{
		.cmd = RDMA_MCM_CMD_CTX_GET,
		.start = rdma_mcm_nl_dump_start,
		.dumpit = rdma_mcm_nl_ctx_dumpit,
		.done = rdma_mcm_nl_dump_done,
		.policy = rdma_mcm_nl_dump_policy,
		.maxattr = RDMA_MCM_A_CTX_ID,
	},
	{
		/* host-wide figures: the initial namespace's administrator */
		.cmd = RDMA_MCM_CMD_STATS_GET,
		.doit = rdma_mcm_nl_stats_doit,
		.flags = GENL_ADMIN_PERM,
	},
};

static struct genl_family rdma_mcm_genl_family __ro_after_init = {
	.name = RDMA_MCM_GENL_NAME,
	.version = RDMA_MCM_GENL_VERSION,
	.netnsok = true,
	/* the walks take their own locks: no need for genl_mutex */
	.parallel_ops = true,
	.module = THIS_MODULE,
	.ops = rdma_mcm_nl_ops,
	.n_ops = ARRAY_SIZE(rdma_mcm_nl_ops),
	/*
	 * resv_start_op 0: every command is a new one, whose header's
	 * reserved field and attributes are validated strictly
	 */
	.mcgrps = rdma_mcm_nl_mcgrps,
	.n_mcgrps = ARRAY_SIZE(rdma_mcm_nl_mcgrps),
};

/* The most an event takes: each is allocated in atomic context */
static size_t rdma_mcm_nl_event_size(void)
{
	return nla_total_size(sizeof(u8)) +		/* EVENT */
	       nla_total_size_64bit(sizeof(u64)) +	/* TIME_NS */
	       5 * nla_total_size(sizeof(u32)) +	/* CTX_ID, HANDLE, PID, */
							/* UID, FILE_CTX */
	       3 * nla_total_size(sizeof(u8)) +		/* KIND, JOIN_TYPE, STATE */
	       nla_total_size(RDMA_MCM_OWNER_NAME_LEN) +
	       nla_total_size(sizeof(u16)) +		/* FAMILY */
	       nla_total_size(16) +			/* GROUP */
	       nla_total_size(sizeof(s32)) +		/* STATUS */
	       nla_total_size(IB_DEVICE_NAME_MAX);	/* DEV_NAME */
}

/*
 * Send an event built by @put, if anyone listens in @net. A listener
 * whose socket is full gets ENOBUFS from recv(); when it asked for
 * NETLINK_BROADCAST_ERROR (librdmamcm's monitor does), the send fails too
 * and the event counts in events_lost.
 */
static void rdma_mcm_nl_send(struct net *net, enum rdma_mcm_nl_event ev,
			     int (*put)(struct sk_buff *skb, const void *arg),
			     const void *arg)
{
	struct sk_buff *skb;
	void *hdr;
	int ret;

	if (!genl_has_listeners(&rdma_mcm_genl_family, net,
				RDMA_MCM_NL_MCGRP_EVENTS))
		return;
	skb = genlmsg_new(rdma_mcm_nl_event_size(), GFP_ATOMIC);
	if (!skb)
		goto lost;
	hdr = genlmsg_put(skb, 0, 0, &rdma_mcm_genl_family, 0,
			  RDMA_MCM_CMD_EVENT);
	if (!hdr || nla_put_u8(skb, RDMA_MCM_A_EVENT, ev) ||
	    nla_put_u64_64bit(skb, RDMA_MCM_A_TIME_NS,
			      ktime_get_boottime_ns(), RDMA_MCM_A_PAD) ||
	    put(skb, arg)) {
		WARN_ON_ONCE(1);	/* the message is far from full */
		nlmsg_free(skb);
		goto lost;
	}
	genlmsg_end(skb, hdr);
	ret = genlmsg_multicast_netns(&rdma_mcm_genl_family, net, skb, 0,
				      RDMA_MCM_NL_MCGRP_EVENTS, GFP_ATOMIC);
	if (!ret || ret == -ESRCH)	/* sent, or the listener went */
		return;
lost:
	atomic64_inc(&rdma_mcm_events_lost);
}

/*
 * An event's owner, for listeners in any pid namespace: the initial pid
 * namespace's pid, told only for a context whose network namespace
 * belongs to the initial user namespace (its listeners are the host's
 * administrators); uids as the network namespace's user namespace maps
 * them.
 */
static int rdma_mcm_nl_put_ev_owner(struct sk_buff *skb,
				    const struct rdma_mcm_ctx *ctx)
{
	return rdma_mcm_nl_put_owner(skb, ctx,
				     ctx->net->user_ns == &init_user_ns ?
				     &init_pid_ns : NULL,
				     ctx->net->user_ns);
}

struct rdma_mcm_nl_member_ev {
	const struct rdma_mcm_membership *mb;
	int status;
	int state;
};

static int rdma_mcm_nl_put_member_ev(struct sk_buff *skb, const void *arg)
{
	const struct rdma_mcm_nl_member_ev *e = arg;
	const struct rdma_mcm_membership *mb = e->mb;

	if (rdma_mcm_nl_put_ev_owner(skb, mb->ctx) ||
	    nla_put_u32(skb, RDMA_MCM_A_HANDLE, mb->handle) ||
	    nla_put_u16(skb, RDMA_MCM_A_FAMILY, mb->group.sa.sa_family) ||
	    rdma_mcm_nl_put_addr(skb, RDMA_MCM_A_GROUP, &mb->group) ||
	    nla_put_u8(skb, RDMA_MCM_A_JOIN_TYPE, mb->join_type) ||
	    nla_put_u8(skb, RDMA_MCM_A_STATE, e->state) ||
	    nla_put_s32(skb, RDMA_MCM_A_STATUS, e->status))
		return -EMSGSIZE;
	return 0;
}

/**
 * rdma_mcm_nl_member_event() - tell the "events" group of a membership
 * @mb: the membership
 * @ev: what happened
 * @status: its errno, or 0
 * @state: its state (for a leave, the state it was left in)
 *
 * Context: any; does not sleep. Under the context's spinlock for state
 * changes, which orders one context's events.
 */
void rdma_mcm_nl_member_event(struct rdma_mcm_membership *mb,
			      enum rdma_mcm_nl_event ev, int status, int state)
{
	struct rdma_mcm_nl_member_ev e = {
		.mb = mb,
		.status = status,
		.state = state,
	};

	rdma_mcm_nl_send(mb->ctx->net, ev, rdma_mcm_nl_put_member_ev, &e);
}

struct rdma_mcm_nl_ctx_ev {
	const struct rdma_mcm_ctx *ctx;
	const char *dev_name;
};

static int rdma_mcm_nl_put_ctx_ev(struct sk_buff *skb, const void *arg)
{
	const struct rdma_mcm_nl_ctx_ev *e = arg;

	if (rdma_mcm_nl_put_ev_owner(skb, e->ctx) ||
	    nla_put_u16(skb, RDMA_MCM_A_FAMILY, e->ctx->src.sa.sa_family) ||
	    nla_put_s32(skb, RDMA_MCM_A_STATUS, 0))
		return -EMSGSIZE;
	if (e->dev_name && e->dev_name[0] &&
	    nla_put_string(skb, RDMA_MCM_A_DEV_NAME, e->dev_name))
		return -EMSGSIZE;
	return 0;
}

/**
 * rdma_mcm_nl_ctx_event() - tell the "events" group of a context
 * @ctx: the context
 * @ev: %RDMA_MCM_NL_EV_DEVICE_LOST or %RDMA_MCM_NL_EV_DEVICE_ADDED
 * @dev_name: the device's name
 *
 * Context: any; does not sleep.
 */
void rdma_mcm_nl_ctx_event(struct rdma_mcm_ctx *ctx,
			   enum rdma_mcm_nl_event ev, const char *dev_name)
{
	struct rdma_mcm_nl_ctx_ev e = { .ctx = ctx, .dev_name = dev_name };

	rdma_mcm_nl_send(ctx->net, ev, rdma_mcm_nl_put_ctx_ev, &e);
}

int rdma_mcm_netlink_init(void)
{
	/* the netlink states are the kernel API's */
	static_assert((int)RDMA_MCM_JOINING == RDMA_MCM_NL_JOINING);
	static_assert((int)RDMA_MCM_JOINED == RDMA_MCM_NL_JOINED);
	static_assert((int)RDMA_MCM_ERROR == RDMA_MCM_NL_ERROR);
	static_assert((int)RDMA_MCM_WAITING == RDMA_MCM_NL_WAITING);
	static_assert(RDMA_MCM_FULLMEMBER == RDMA_MCM_JOIN_FULLMEMBER);
	static_assert(RDMA_MCM_SENDONLY_FULLMEMBER ==
		      RDMA_MCM_JOIN_SENDONLY_FULLMEMBER);
	return genl_register_family(&rdma_mcm_genl_family);
}

void rdma_mcm_netlink_exit(void)
{
	genl_unregister_family(&rdma_mcm_genl_family);
}
