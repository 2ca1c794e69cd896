// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * KUnit: the contracts between rdma_mcm, rdma_cm and a ULP, against the
 * fake backend: which errnos a caller can see, what becomes of a source
 * address's port, how InfiniBand's MGIDs tell groups apart, and from which
 * context query and list may be called.
 */
#include <kunit/test.h>
#include <linux/inet.h>
#include <linux/timer.h>
#include <net/net_namespace.h>

#include "rdma_mcm_test_util.h"

/* ------------------------------------------------------------ errnos */

struct mcm_errno_case {
	const char *desc;
	int from_rdma_cm;
	int expected;
};

/* What rdma_join_multicast() returns, and what a caller of rdma_mcm sees */
static const struct mcm_errno_case mcm_join_errno_cases[] = {
	{ "-ENOTSUPP (RoCE v2, IPv6 group) is -EOPNOTSUPP", -ENOTSUPP,
	  -EOPNOTSUPP },
	{ "-EINVAL, device not going (netdev MTU) is -EOPNOTSUPP", -EINVAL,
	  -EOPNOTSUPP },
	{ "-EADDRNOTAVAIL (IB: no broadcast group) is -ENETDOWN",
	  -EADDRNOTAVAIL, -ENETDOWN },
	{ "-ENODEV stays", -ENODEV, -ENODEV },
	{ "-ENOMEM stays", -ENOMEM, -ENOMEM },
	{ "-EBUSY is unexpected: -EIO", -EBUSY, -EIO },
	{ "-EPERM is unexpected: -EIO", -EPERM, -EIO },
};

static void mcm_errno_to_desc(const struct mcm_errno_case *c, char *desc)
{
	strscpy(desc, c->desc, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(mcm_join_errno, mcm_join_errno_cases, mcm_errno_to_desc);

/* rdma_cm's join errors reach the caller as documented errnos. */
static void mcm_join_errno_map(struct kunit *test)
{
	const struct mcm_errno_case *c = test->param_value;
	struct mcm_test *t = test->priv;
	struct rdma_mcm_ctx *ctx = mcm_open(test);
	struct sockaddr_in grp = mcm_v4(MCM_GROUP(1));
	struct rdma_mcm_live live;
	u32 h = 0;

	t->fake->join_ret = c->from_rdma_cm;
	KUNIT_EXPECT_EQ(test, rdma_mcm_join(ctx, (struct sockaddr *)&grp,
					    RDMA_MCM_FULLMEMBER, NULL, NULL, &h),
			c->expected);
	rdma_mcm_live_objects(&live);
	KUNIT_EXPECT_EQ(test, live.members, 0);
	rdma_mcm_close(ctx);
}

/* A MULTICAST_ERROR's status, and what a membership in error reports */
static const struct mcm_errno_case mcm_status_cases[] = {
	{ "-ENETRESET (port or SM event) stays", -ENETRESET, -ENETRESET },
	{ "-ETIMEDOUT (SA silent) stays", -ETIMEDOUT, -ETIMEDOUT },
	{ "-EINTR (SA query flushed) is -ENETRESET", -EINTR, -ENETRESET },
	{ "-EINVAL (SA refused) is -ECONNREFUSED", -EINVAL, -ECONNREFUSED },
	{ "-ENOMEM stays", -ENOMEM, -ENOMEM },
	{ "0 (no address handle: the source GID went) is -EADDRNOTAVAIL",
	  MCM_FAKE_NO_AH, -EADDRNOTAVAIL },
	{ "-EBADMSG is unexpected: -EIO", -EBADMSG, -EIO },
};

KUNIT_ARRAY_PARAM(mcm_status, mcm_status_cases, mcm_errno_to_desc);

/* rdma_cm's error statuses reach the ULP as documented statuses. */
static void mcm_status_map(struct kunit *test)
{
	const struct mcm_errno_case *c = test->param_value;
	struct mcm_test *t = test->priv;
	struct rdma_mcm_ctx *ctx = mcm_open(test);
	struct rdma_mcm_member_info info;
	u32 h;

	h = mcm_join(test, ctx, MCM_GROUP(5), NULL, RDMA_MCM_FULLMEMBER);
	mcm_fake_complete(t->fake, mcm_fake_join_of(test, MCM_GROUP(5)),
			  c->from_rdma_cm, false);
	rdma_mcm_flush();
	KUNIT_EXPECT_EQ(test, t->rec.errors, 1);
	KUNIT_EXPECT_EQ(test, t->rec.last_status, c->expected);
	KUNIT_ASSERT_EQ(test, rdma_mcm_query(ctx, h, &info), 0);
	KUNIT_EXPECT_EQ(test, info.status, c->expected);
	rdma_mcm_close(ctx);
}

static const struct mcm_errno_case mcm_bind_errno_cases[] = {
	{ "-EADDRNOTAVAIL stays", -EADDRNOTAVAIL, -EADDRNOTAVAIL },
	{ "-ENODEV stays", -ENODEV, -ENODEV },
	{ "-ENOMEM stays", -ENOMEM, -ENOMEM },
	{ "-EADDRINUSE is unexpected: -EIO", -EADDRINUSE, -EIO },
	{ "-EACCES is unexpected: -EIO", -EACCES, -EIO },
	{ "-EINVAL (IPv6 link-local without scope) stays", -EINVAL, -EINVAL },
};

KUNIT_ARRAY_PARAM(mcm_bind_errno, mcm_bind_errno_cases, mcm_errno_to_desc);

/* rdma_bind_addr()'s errors reach the opener as documented errnos. */
static void mcm_bind_errno_map(struct kunit *test)
{
	const struct mcm_errno_case *c = test->param_value;
	struct mcm_test *t = test->priv;
	struct sockaddr_in src = mcm_v4(MCM_SRC);
	struct rdma_mcm_ctx *ctx;

	t->fake->bind_ret = c->from_rdma_cm;
	ctx = rdma_mcm_open_backend(&init_net, (struct sockaddr *)&src,
				    &mcm_rec_ops, &t->rec, &t->fake->be, 0);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(ctx), c->expected);
	if (!IS_ERR(ctx))
		rdma_mcm_close(ctx);
}

/*
 * rdma_cm refuses a join with -EINVAL when the id left the bound state
 * because its device is being removed; rdma_mcm's ib_client hears of the
 * removal before rdma_cm does, so the caller sees -ENODEV.
 */
static void mcm_join_einval_during_removal_is_enodev(struct kunit *test)
{
	struct mcm_test *t = test->priv;
	struct mcm_joiner j = { .ctx = mcm_open(test), .group = MCM_GROUP(2) };

	t->fake->join_ret = -EINVAL;
	t->fake->inject = (struct mcm_fake_inject){
		.at = MCM_FAKE_AT_JOIN, .what = MCM_FAKE_DO_PAUSE,
	};
	mcm_join_in_thread(test, &j);
	wait_for_completion(&t->fake->paused);
	mcm_fake_remove_device_async(t->fake, 0);
	mcm_wait_removing(test, t->fake->ibdev[0]);
	mcm_fake_resume(t->fake);
	wait_for_completion(&j.done);
	mcm_fake_remove_wait(t->fake);
	KUNIT_EXPECT_EQ(test, j.ret, -ENODEV);
	rdma_mcm_close(j.ctx);
}

/*
 * A port without multicast (iWARP): the join is refused with -EOPNOTSUPP
 * before rdma_cm is asked (it would answer with an errno meant for
 * syscalls).
 */
static void mcm_join_port_without_multicast(struct kunit *test)
{
	struct mcm_test *t = test->priv;
	struct sockaddr_in grp = mcm_v4(MCM_GROUP(4));
	struct rdma_mcm_ctx *ctx;
	u32 h = 0;

	t->fake->ibdev[0]->port_data[1].immutable.core_cap_flags =
		RDMA_CORE_PORT_IWARP;
	ctx = mcm_open(test);
	KUNIT_EXPECT_EQ(test, rdma_mcm_join(ctx, (struct sockaddr *)&grp,
					    RDMA_MCM_FULLMEMBER, NULL, NULL, &h),
			-EOPNOTSUPP);
	KUNIT_EXPECT_EQ(test, t->fake->joins_called, 0);
	rdma_mcm_close(ctx);
}

/* ------------------------------------------------------------ source port */

/*
 * The source address's port is ignored: every id binds port 0 (an
 * ephemeral one of its own), so a context with a port joins more groups
 * than fit on one id, and two contexts share an address and port. At
 * 66fc0e7 the fake's port space refused the second id: -EADDRINUSE.
 */
static void mcm_source_port_ignored(struct kunit *test)
{
	struct mcm_test *t = test->priv;
	struct sockaddr_in src = mcm_v4(MCM_SRC);
	unsigned int size = rdma_mcm_slot_size;
	struct rdma_mcm_ctx *ctx, *ctx2;
	u32 h, i;
	int ret;

	src.sin_port = htons(80);
	ctx = rdma_mcm_open_backend(&init_net, (struct sockaddr *)&src,
				    &mcm_rec_ops, &t->rec, &t->fake->be, 0);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, ctx);
	ctx2 = rdma_mcm_open_backend(&init_net, (struct sockaddr *)&src,
				     &mcm_rec_ops, &t->rec, &t->fake->be, 0);
	KUNIT_EXPECT_FALSE(test, IS_ERR(ctx2));
	for (i = 0, ret = 0; i < size + 1 && !ret; i++) {
		struct sockaddr_in grp = mcm_v4(0xef030000 + i);

		ret = rdma_mcm_join(ctx, (struct sockaddr *)&grp,
				    RDMA_MCM_SENDONLY_FULLMEMBER, NULL, NULL,
				    &h);
	}
	KUNIT_EXPECT_EQ(test, ret, 0);
	KUNIT_EXPECT_EQ(test, i, size + 1);
	KUNIT_EXPECT_EQ(test, t->fake->nonzero_port_binds, 0);
	if (!IS_ERR(ctx2))
		rdma_mcm_close(ctx2);
	rdma_mcm_close(ctx);
}

/* rdma_mcm_src_parse() clears the port of every family, nothing else. */
static void mcm_src_parse_clears_port(struct kunit *test)
{
	struct sockaddr_in6 s6 = { .sin6_family = AF_INET6,
				   .sin6_port = htons(4791),
				   .sin6_scope_id = 3 };
	struct sockaddr_ib sib = { .sib_family = AF_IB,
				   .sib_sid = cpu_to_be64(0x0106000000001234ULL),
				   .sib_sid_mask = cpu_to_be64(~0ULL) };
	struct sockaddr_in s4 = mcm_v4(MCM_SRC);
	union rdma_mcm_addr out;

	s4.sin_port = htons(1);
	KUNIT_ASSERT_EQ(test, rdma_mcm_src_parse((struct sockaddr *)&s4,
						 sizeof(s4), &out), 0);
	KUNIT_EXPECT_EQ(test, out.in.sin_port, 0);
	KUNIT_EXPECT_EQ(test, out.in.sin_addr.s_addr, s4.sin_addr.s_addr);
	KUNIT_ASSERT_EQ(test, rdma_mcm_src_parse((struct sockaddr *)&s6,
						 sizeof(s6), &out), 0);
	KUNIT_EXPECT_EQ(test, out.in6.sin6_port, 0);
	KUNIT_EXPECT_EQ(test, out.in6.sin6_scope_id, 3U);
	KUNIT_ASSERT_EQ(test, rdma_mcm_src_parse((struct sockaddr *)&sib,
						 sizeof(sib), &out), 0);
	KUNIT_EXPECT_EQ(test, out.ib.sib_sid, 0ULL);
	KUNIT_EXPECT_EQ(test, out.ib.sib_sid_mask, 0ULL);
}

/* ------------------------------------------------------------ IB MGIDs */

static struct rdma_mcm_ctx *mcm_open6(struct kunit *test)
{
	struct mcm_test *t = test->priv;
	struct sockaddr_in6 src = { .sin6_family = AF_INET6 };
	struct rdma_mcm_ctx *ctx;

	KUNIT_ASSERT_EQ(test, in6_pton("2001:db8::1", -1,
				       src.sin6_addr.s6_addr, -1, NULL), 1);
	ctx = rdma_mcm_open_backend(&init_net, (struct sockaddr *)&src,
				    &mcm_rec_ops, &t->rec, &t->fake->be, 0);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, ctx);
	t->rec.ctx = ctx;
	return ctx;
}

/*
 * On InfiniBand, rdma_cm maps ff0e::1:2 and ff05::1:2 (they differ in
 * their first six bytes) to one MGID: rdma_mcm refuses the second as the
 * same group, and a leave by the other address leaves nothing. At 66fc0e7
 * both joined, the QP was attached twice to one MGID (the fake fails the
 * case), and the first leave detached it from the other. On RoCE they are
 * two groups.
 */
static void mcm_ib_ipv6_groups_one_mgid(struct kunit *test)
{
	struct mcm_test *t = test->priv;
	struct sockaddr_in6 g1 = mcm_v6(test, "ff0e::1:2");
	struct sockaddr_in6 g2 = mcm_v6(test, "ff05::1:2");
	struct sockaddr_in6 sa = mcm_v6(test, "ff12:a01b::1:2");
	struct rdma_mcm_ctx *ctx;
	u32 h1, h2, h3;

	mcm_fake_set_ib(t->fake, 0, true);
	ctx = mcm_open6(test);
	KUNIT_ASSERT_EQ(test, rdma_mcm_join(ctx, (struct sockaddr *)&g1,
					    RDMA_MCM_FULLMEMBER, &t->fake->qp,
					    NULL, &h1), 0);
	KUNIT_EXPECT_EQ(test, rdma_mcm_join(ctx, (struct sockaddr *)&g2,
					    RDMA_MCM_FULLMEMBER, &t->fake->qp,
					    NULL, &h2), -EADDRINUSE);
	/* an SA-assigned MGID is its own group */
	KUNIT_EXPECT_EQ(test, rdma_mcm_join(ctx, (struct sockaddr *)&sa,
					    RDMA_MCM_FULLMEMBER, &t->fake->qp,
					    NULL, &h3), 0);
	mcm_fake_complete_all(t->fake);
	rdma_mcm_flush();
	KUNIT_EXPECT_EQ(test, t->fake->attached, 2);
	KUNIT_EXPECT_EQ(test, rdma_mcm_leave_addr(ctx, (struct sockaddr *)&g2),
			-EADDRNOTAVAIL);
	KUNIT_EXPECT_EQ(test, t->fake->attached, 2);
	KUNIT_EXPECT_EQ(test, rdma_mcm_leave_addr(ctx, (struct sockaddr *)&g1),
			0);
	KUNIT_EXPECT_EQ(test, t->fake->attached, 1);
	rdma_mcm_close(ctx);
}

static void mcm_roce_ipv6_groups_two_mgids(struct kunit *test)
{
	struct mcm_test *t = test->priv;
	struct sockaddr_in6 g1 = mcm_v6(test, "ff0e::1:2");
	struct sockaddr_in6 g2 = mcm_v6(test, "ff05::1:2");
	struct rdma_mcm_ctx *ctx = mcm_open6(test);
	u32 h1, h2;

	KUNIT_EXPECT_EQ(test, rdma_mcm_join(ctx, (struct sockaddr *)&g1,
					    RDMA_MCM_FULLMEMBER, &t->fake->qp,
					    NULL, &h1), 0);
	KUNIT_EXPECT_EQ(test, rdma_mcm_join(ctx, (struct sockaddr *)&g2,
					    RDMA_MCM_FULLMEMBER, &t->fake->qp,
					    NULL, &h2), 0);
	mcm_fake_complete_all(t->fake);
	rdma_mcm_flush();
	KUNIT_EXPECT_EQ(test, t->fake->attached, 2);
	rdma_mcm_close(ctx);
}

/* The fake's latest join sent for membership @handle (its private data) */
static struct mcm_fake_join *mcm_join_for(struct mcm_fake *fake, u32 handle)
{
	struct mcm_fake_join *join, *found = NULL;

	mutex_lock(&fake->lock);
	list_for_each_entry(join, &fake->joins, node)
		if ((u32)(uintptr_t)join->context == handle)
			found = join;
	mutex_unlock(&fake->lock);
	return found;
}

/*
 * On InfiniBand a group of zeros (IPv6 ::) asks the SA for a new group:
 * two such joins are two groups, each on an rdma_cm_id of its own (so
 * that rdma_leave_multicast(), which matches by address, leaves the right
 * one), reported with the MGID the SA made; leave is by handle, a leave
 * by the address of zeros is refused.
 */
static void mcm_ib_sa_assigned_groups(struct kunit *test)
{
	struct mcm_test *t = test->priv;
	struct sockaddr_in6 any = { .sin6_family = AF_INET6 };
	struct rdma_mcm_member_info i1, i2;
	struct mcm_fake_join *j1, *j2;
	struct rdma_mcm_ctx *ctx;
	u32 h1, h2;

	mcm_fake_set_ib(t->fake, 0, true);
	ctx = mcm_open6(test);
	KUNIT_ASSERT_EQ(test, rdma_mcm_join(ctx, (struct sockaddr *)&any,
					    RDMA_MCM_FULLMEMBER, &t->fake->qp,
					    NULL, &h1), 0);
	KUNIT_ASSERT_EQ(test, rdma_mcm_join(ctx, (struct sockaddr *)&any,
					    RDMA_MCM_FULLMEMBER, &t->fake->qp,
					    NULL, &h2), 0);
	KUNIT_EXPECT_NE(test, h1, h2);
	j1 = mcm_join_for(t->fake, h1);
	j2 = mcm_join_for(t->fake, h2);
	KUNIT_ASSERT_NOT_NULL(test, j1);
	KUNIT_ASSERT_NOT_NULL(test, j2);
	KUNIT_EXPECT_PTR_NE(test, j1->fid, j2->fid);
	mcm_fake_complete_all(t->fake);
	rdma_mcm_flush();
	KUNIT_EXPECT_EQ(test, t->rec.joined, 2);
	KUNIT_EXPECT_EQ(test, t->fake->attached, 2);
	KUNIT_ASSERT_EQ(test, rdma_mcm_query(ctx, h1, &i1), 0);
	KUNIT_ASSERT_EQ(test, rdma_mcm_query(ctx, h2, &i2), 0);
	KUNIT_EXPECT_EQ(test, i1.state, RDMA_MCM_JOINED);
	KUNIT_EXPECT_EQ(test, i1.mgid.raw[0], 0xff);
	KUNIT_EXPECT_EQ(test, i1.mgid.raw[2], 0xa0);
	KUNIT_EXPECT_EQ(test, i1.mgid.raw[3], 0x1b);
	KUNIT_EXPECT_NE(test, memcmp(i1.mgid.raw, i2.mgid.raw, 16), 0);
	KUNIT_EXPECT_TRUE(test, ipv6_addr_any(&((struct sockaddr_in6 *)
						&i1.group)->sin6_addr));

	KUNIT_EXPECT_EQ(test, rdma_mcm_leave_addr(ctx, (struct sockaddr *)&any),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, t->fake->attached, 2);
	KUNIT_EXPECT_EQ(test, rdma_mcm_leave(ctx, h1), 0);
	KUNIT_EXPECT_EQ(test, j1->leaves, 1);
	KUNIT_EXPECT_EQ(test, j2->leaves, 0);
	KUNIT_EXPECT_EQ(test, t->fake->attached, 1);
	rdma_mcm_close(ctx);
	KUNIT_EXPECT_EQ(test, t->fake->attached, 0);
}

/* On RoCE no SA assigns a group: zeros are refused, nothing is sent. */
static void mcm_roce_zero_group_refused(struct kunit *test)
{
	struct mcm_test *t = test->priv;
	struct sockaddr_in6 any = { .sin6_family = AF_INET6 };
	struct rdma_mcm_ctx *ctx = mcm_open6(test);
	u32 h;

	KUNIT_EXPECT_EQ(test, rdma_mcm_join(ctx, (struct sockaddr *)&any,
					    RDMA_MCM_FULLMEMBER, &t->fake->qp,
					    NULL, &h), -EINVAL);
	KUNIT_EXPECT_EQ(test, t->fake->joins_called, 0);
	rdma_mcm_close(ctx);
}

/* ---------------------------------------------- the HCA's multicast limits */

static int mcm_join_ret(struct rdma_mcm_ctx *ctx, u32 group, struct ib_qp *qp,
			enum rdma_mcm_join_type type, u32 *h)
{
	struct sockaddr_in sin = mcm_v4(group);

	return rdma_mcm_join(ctx, (struct sockaddr *)&sin, type, qp, NULL, h);
}

static void mcm_expect_usage(struct kunit *test, struct ib_device *dev,
			     u32 groups, u32 attaches)
{
	u32 v[__RDMA_MCM_MCAST_MAX] = {};

	rdma_mcm_admit_usage(dev, v);
	KUNIT_EXPECT_EQ(test, v[RDMA_MCM_MCAST_GROUPS], groups);
	KUNIT_EXPECT_EQ(test, v[RDMA_MCM_MCAST_ATTACHES], attaches);
	KUNIT_EXPECT_EQ(test, v[RDMA_MCM_MCAST_GROUPS_MAX],
			(u32)dev->attrs.max_mcast_grp);
	KUNIT_EXPECT_EQ(test, v[RDMA_MCM_MCAST_ATTACHES_MAX],
			(u32)dev->attrs.max_total_mcast_qp_attach);
	KUNIT_EXPECT_EQ(test, v[RDMA_MCM_MCAST_QP_ATTACH_MAX],
			(u32)dev->attrs.max_mcast_qp_attach);
}

/*
 * max_mcast_grp 2: two groups with a QP are admitted, a third is refused
 * with ENOSPC before rdma_cm is asked; one that attaches nothing (send-only,
 * no QP) is not counted; a leave gives its place back, and the places of
 * a joined membership are held until it is left (close: none).
 */
static void mcm_admit_groups_limit(struct kunit *test)
{
	struct mcm_test *t = test->priv;
	struct ib_device *dev = t->fake->ibdev[0];
	struct rdma_mcm_ctx *ctx;
	u32 h1, h;

	dev->attrs.max_mcast_grp = 2;
	ctx = mcm_open(test);
	KUNIT_ASSERT_EQ(test, mcm_join_ret(ctx, MCM_GROUP(1), &t->fake->qp,
					   RDMA_MCM_FULLMEMBER, &h1), 0);
	KUNIT_ASSERT_EQ(test, mcm_join_ret(ctx, MCM_GROUP(2), &t->fake->qp,
					   RDMA_MCM_FULLMEMBER, &h), 0);
	mcm_expect_usage(test, dev, 2, 2);
	KUNIT_EXPECT_EQ(test, mcm_join_ret(ctx, MCM_GROUP(3), &t->fake->qp,
					   RDMA_MCM_FULLMEMBER, &h), -ENOSPC);
	KUNIT_EXPECT_EQ(test, t->fake->joins_called, 2);
	KUNIT_EXPECT_EQ(test, mcm_join_ret(ctx, MCM_GROUP(3), &t->fake->qp,
					   RDMA_MCM_SENDONLY_FULLMEMBER, &h), 0);
	KUNIT_EXPECT_EQ(test, mcm_join_ret(ctx, MCM_GROUP(4), NULL,
					   RDMA_MCM_FULLMEMBER, &h), 0);
	mcm_expect_usage(test, dev, 2, 2);
	mcm_fake_complete_all(t->fake);
	rdma_mcm_flush();
	KUNIT_EXPECT_EQ(test, t->fake->attached, 2);
	KUNIT_EXPECT_EQ(test, rdma_mcm_leave(ctx, h1), 0);
	mcm_expect_usage(test, dev, 1, 1);
	KUNIT_EXPECT_EQ(test, mcm_join_ret(ctx, MCM_GROUP(5), &t->fake->qp,
					   RDMA_MCM_FULLMEMBER, &h), 0);
	mcm_expect_usage(test, dev, 2, 2);
	rdma_mcm_close(ctx);
	mcm_expect_usage(test, dev, 0, 0);
}

/* max_mcast_qp_attach 1: a second context's QP in the same group is refused */
static void mcm_admit_qp_attach_limit(struct kunit *test)
{
	struct mcm_test *t = test->priv;
	struct ib_device *dev = t->fake->ibdev[0];
	struct rdma_mcm_ctx *a, *b;
	u32 ha, h;

	dev->attrs.max_mcast_qp_attach = 1;
	a = mcm_open(test);
	b = mcm_open(test);
	KUNIT_ASSERT_EQ(test, mcm_join_ret(a, MCM_GROUP(1), &t->fake->qp,
					   RDMA_MCM_FULLMEMBER, &ha), 0);
	KUNIT_EXPECT_EQ(test, mcm_join_ret(b, MCM_GROUP(1), &t->fake->qp,
					   RDMA_MCM_FULLMEMBER, &h), -ENOSPC);
	KUNIT_EXPECT_EQ(test, mcm_join_ret(b, MCM_GROUP(2), &t->fake->qp,
					   RDMA_MCM_FULLMEMBER, &h), 0);
	mcm_expect_usage(test, dev, 2, 2);
	KUNIT_EXPECT_EQ(test, rdma_mcm_leave(a, ha), 0);
	KUNIT_EXPECT_EQ(test, mcm_join_ret(b, MCM_GROUP(1), &t->fake->qp,
					   RDMA_MCM_FULLMEMBER, &h), 0);
	rdma_mcm_close(a);
	rdma_mcm_close(b);
	mcm_expect_usage(test, dev, 0, 0);
}

/*
 * max_total_mcast_qp_attach 1: one attachment in all. A QP given later
 * (rdma_mcm_set_qp()) takes the one place; the other membership fails
 * with ENOSPC, as if its attach had failed.
 */
static void mcm_admit_total_limit_set_qp(struct kunit *test)
{
	struct mcm_test *t = test->priv;
	struct ib_device *dev = t->fake->ibdev[0];
	struct rdma_mcm_ctx *ctx;
	u32 h;

	dev->attrs.max_total_mcast_qp_attach = 1;
	ctx = mcm_open(test);
	KUNIT_ASSERT_EQ(test, mcm_join_ret(ctx, MCM_GROUP(1), NULL,
					   RDMA_MCM_FULLMEMBER, &h), 0);
	KUNIT_ASSERT_EQ(test, mcm_join_ret(ctx, MCM_GROUP(2), NULL,
					   RDMA_MCM_FULLMEMBER, &h), 0);
	mcm_fake_complete_all(t->fake);
	rdma_mcm_flush();
	mcm_expect_usage(test, dev, 0, 0);
	KUNIT_EXPECT_EQ(test, rdma_mcm_set_qp(ctx, &t->fake->qp), -ENOSPC);
	rdma_mcm_flush();
	KUNIT_EXPECT_EQ(test, t->fake->attached, 1);
	KUNIT_EXPECT_EQ(test, t->rec.errors, 1);
	KUNIT_EXPECT_EQ(test, t->rec.last_status, -ENOSPC);
	mcm_expect_usage(test, dev, 1, 1);
	KUNIT_EXPECT_EQ(test, rdma_mcm_set_qp(ctx, NULL), 0);
	KUNIT_EXPECT_EQ(test, t->fake->attached, 0);
	mcm_expect_usage(test, dev, 0, 0);
	rdma_mcm_close(ctx);
}

/* A device whose limit is 0 attaches no QP: EOPNOTSUPP, nothing sent */
static void mcm_admit_no_multicast_attach(struct kunit *test)
{
	struct mcm_test *t = test->priv;
	struct ib_device *dev = t->fake->ibdev[0];
	struct rdma_mcm_ctx *ctx;
	u32 h;

	dev->attrs.max_mcast_grp = 0;
	ctx = mcm_open(test);
	KUNIT_EXPECT_EQ(test, mcm_join_ret(ctx, MCM_GROUP(1), &t->fake->qp,
					   RDMA_MCM_FULLMEMBER, &h), -EOPNOTSUPP);
	KUNIT_EXPECT_EQ(test, t->fake->joins_called, 0);
	KUNIT_EXPECT_EQ(test, mcm_join_ret(ctx, MCM_GROUP(1), &t->fake->qp,
					   RDMA_MCM_SENDONLY_FULLMEMBER, &h), 0);
	rdma_mcm_close(ctx);
}

/* ------------------------------------------------------------ softirq */

struct mcm_softirq {
	struct timer_list timer;
	struct rdma_mcm_ctx *ctx;
	u32 handle;
	int query_ret;
	int listed;
	bool in_softirq;
	struct rdma_mcm_member_info info;
	struct completion done;
};

static void mcm_softirq_fn(struct timer_list *timer)
{
	struct mcm_softirq *s = timer_container_of(s, timer, timer);
	struct rdma_mcm_member_info infos[2];
	u32 next;

	s->in_softirq = in_softirq();
	s->query_ret = rdma_mcm_query(s->ctx, s->handle, &s->info);
	s->listed = rdma_mcm_list(s->ctx, 0, infos, ARRAY_SIZE(infos), &next);
	complete(&s->done);
}

/*
 * rdma_mcm_query() and rdma_mcm_list() may be called from softirq context
 * (a CQ's handler): under lockdep, the context's lock taken there and in
 * process context with softirqs on was an inconsistent lock state at
 * 66fc0e7.
 */
static void mcm_query_list_from_softirq(struct kunit *test)
{
	struct mcm_test *t = test->priv;
	struct mcm_softirq *s;

	/* on the heap: destroy_timer_on_stack() was renamed in 6.16 */
	s = kunit_kzalloc(test, sizeof(*s), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, s);
	s->ctx = mcm_open(test);
	init_completion(&s->done);
	s->handle = mcm_join(test, s->ctx, MCM_GROUP(3), NULL,
			     RDMA_MCM_FULLMEMBER);
	mcm_fake_complete_all(t->fake);
	rdma_mcm_flush();
	timer_setup(&s->timer, mcm_softirq_fn, 0);
	mod_timer(&s->timer, jiffies + 1);
	wait_for_completion(&s->done);
	timer_delete_sync(&s->timer);
	KUNIT_EXPECT_TRUE(test, s->in_softirq);
	KUNIT_EXPECT_EQ(test, s->query_ret, 0);
	KUNIT_EXPECT_EQ(test, s->info.state, RDMA_MCM_JOINED);
	KUNIT_EXPECT_EQ(test, s->listed, 1);
	/* and in process context again, after the softirq use */
	KUNIT_EXPECT_EQ(test, mcm_state(test, s->ctx, s->handle),
			RDMA_MCM_JOINED);
	rdma_mcm_close(s->ctx);
}

static struct kunit_case rdma_mcm_contract_cases[] = {
	KUNIT_CASE_PARAM(mcm_join_errno_map, mcm_join_errno_gen_params),
	KUNIT_CASE_PARAM(mcm_bind_errno_map, mcm_bind_errno_gen_params),
	KUNIT_CASE_PARAM(mcm_status_map, mcm_status_gen_params),
	KUNIT_CASE(mcm_join_einval_during_removal_is_enodev),
	KUNIT_CASE(mcm_join_port_without_multicast),
	KUNIT_CASE(mcm_source_port_ignored),
	KUNIT_CASE(mcm_src_parse_clears_port),
	KUNIT_CASE(mcm_ib_ipv6_groups_one_mgid),
	KUNIT_CASE(mcm_roce_ipv6_groups_two_mgids),
	KUNIT_CASE(mcm_ib_sa_assigned_groups),
	KUNIT_CASE(mcm_roce_zero_group_refused),
	KUNIT_CASE(mcm_admit_groups_limit),
	KUNIT_CASE(mcm_admit_qp_attach_limit),
	KUNIT_CASE(mcm_admit_total_limit_set_qp),
	KUNIT_CASE(mcm_admit_no_multicast_attach),
	KUNIT_CASE(mcm_query_list_from_softirq),
	{}
};

static struct kunit_suite rdma_mcm_contract_suite = {
	.name = "rdma_mcm_contract",
	.init = mcm_test_init,
	.exit = mcm_test_exit,
	.test_cases = rdma_mcm_contract_cases,
};

kunit_test_suite(rdma_mcm_contract_suite);
