// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * KUnit: the multicast manager against the fake backend.
 *
 * Every case ends by checking that the module's live-object counters are
 * back to zero (mcm_test_exit()), so a leak fails the case that caused it.
 * Device removal, events from inside calls and the contracts with rdma_cm
 * have suites of their own (rdma_mcm_device_test.c, rdma_mcm_contract_test.c).
 */
#include <kunit/test.h>
#include <linux/completion.h>
#include <linux/delay.h>
#include <linux/in.h>
#include <linux/in6.h>
#include <linux/inet.h>
#include <net/net_namespace.h>

#include "../drivers/rdma_mcm_internal.h"
#include "rdma_mcm_test_util.h"

/* ---------------------------------------------------------------- cases */

struct mcm_transition_case {
	enum rdma_mcm_state from;
	enum rdma_mcm_state to;
	bool valid;
};

#define T(f, t, v) { RDMA_MCM_##f, RDMA_MCM_##t, v }
static const struct mcm_transition_case mcm_transition_cases[] = {
	T(JOINING, JOINING, false), T(JOINING, JOINED, true),
	T(JOINING, ERROR, true), T(JOINING, WAITING, true),
	T(JOINING, LEAVING, true), T(JOINING, LEFT, false),
	T(JOINED, JOINING, false), T(JOINED, JOINED, false),
	T(JOINED, ERROR, true), T(JOINED, WAITING, true),
	T(JOINED, LEAVING, true), T(JOINED, LEFT, false),
	T(ERROR, JOINING, false), T(ERROR, JOINED, false),
	T(ERROR, ERROR, false), T(ERROR, WAITING, false),
	T(ERROR, LEAVING, true), T(ERROR, LEFT, false),
	T(WAITING, JOINING, true), T(WAITING, JOINED, false),
	T(WAITING, ERROR, true), T(WAITING, WAITING, false),
	T(WAITING, LEAVING, true), T(WAITING, LEFT, false),
	T(LEAVING, JOINING, false), T(LEAVING, JOINED, false),
	T(LEAVING, ERROR, false), T(LEAVING, WAITING, false),
	T(LEAVING, LEAVING, false), T(LEAVING, LEFT, true),
	T(LEFT, JOINING, false), T(LEFT, JOINED, false),
	T(LEFT, ERROR, false), T(LEFT, WAITING, false),
	T(LEFT, LEAVING, false), T(LEFT, LEFT, false),
};

#undef T

static void mcm_transition_to_desc(const struct mcm_transition_case *c,
				   char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s -> %s %s",
		 rdma_mcm_state_name(c->from), rdma_mcm_state_name(c->to),
		 c->valid ? "allowed" : "refused");
}

KUNIT_ARRAY_PARAM(mcm_transition, mcm_transition_cases, mcm_transition_to_desc);

/* The state machine's table, every pair of states. */
static void mcm_state_transition(struct kunit *test)
{
	const struct mcm_transition_case *c = test->param_value;

	KUNIT_EXPECT_EQ(test, rdma_mcm_transition_valid(c->from, c->to),
			c->valid);
}

/* Out-of-range states are refused, and named "invalid". */
static void mcm_state_out_of_range(struct kunit *test)
{
	KUNIT_EXPECT_FALSE(test, rdma_mcm_transition_valid(RDMA_MCM_NR_STATES,
							   RDMA_MCM_LEFT));
	KUNIT_EXPECT_FALSE(test, rdma_mcm_transition_valid(RDMA_MCM_JOINING,
							   RDMA_MCM_NR_STATES));
	KUNIT_EXPECT_STREQ(test, rdma_mcm_state_name(RDMA_MCM_NR_STATES),
			   "invalid");
	KUNIT_EXPECT_STREQ(test, rdma_mcm_state_name(RDMA_MCM_JOINED), "joined");
}

/*
 * A join completes: joined callback with the send parameters, then leave.
 * On RoCE rdma_cm is asked for the RDMA side only (send-only: no IGMP of
 * its own) and rdma_mcm holds the IGMP membership (rdma_mcm_ipmc.c).
 */
static void mcm_join_completes_then_leave(struct kunit *test)
{
	struct mcm_test *t = test->priv;
	struct rdma_mcm_ctx *ctx = mcm_open(test);
	struct sockaddr_in g = mcm_v4(MCM_GROUP(1));
	struct mcm_fake_join *join;
	union ib_gid mgid;
	u32 h;

	h = mcm_join(test, ctx, MCM_GROUP(1), NULL, RDMA_MCM_FULLMEMBER);
	KUNIT_EXPECT_EQ(test, mcm_state(test, ctx, h), RDMA_MCM_JOINING);
	join = mcm_fake_join_of(test, MCM_GROUP(1));
	KUNIT_EXPECT_EQ(test, join->join_state,
			(u8)BIT(SENDONLY_FULLMEMBER_JOIN));
	KUNIT_EXPECT_EQ(test, mcm_fake_ip_state(t->fake, MCM_FAKE_IFINDEX0,
						(struct sockaddr *)&g).any_source,
			1);

	KUNIT_ASSERT_TRUE(test, mcm_fake_complete(t->fake, join, 0, false));
	rdma_mcm_flush();
	KUNIT_EXPECT_EQ(test, t->rec.joined, 1);
	KUNIT_EXPECT_EQ(test, t->rec.errors, 0);
	KUNIT_EXPECT_EQ(test, t->rec.last_join.handle, h);
	KUNIT_EXPECT_PTR_EQ(test, t->rec.last_join.context,
			    (void *)(uintptr_t)MCM_GROUP(1));
	KUNIT_EXPECT_EQ(test, t->rec.last_join.qkey, MCM_FAKE_QKEY);
	KUNIT_EXPECT_EQ(test, t->rec.last_join.mlid, MCM_FAKE_MLID);
	mcm_fake_mgid(false, (struct sockaddr *)&join->addr, &mgid);
	KUNIT_EXPECT_MEMEQ(test, t->rec.last_join.mgid.raw, mgid.raw, 16);
	KUNIT_EXPECT_MEMEQ(test, rdma_ah_read_grh(&t->rec.last_join.ah_attr)->dgid.raw,
			   mgid.raw, 16);
	KUNIT_EXPECT_EQ(test, mcm_state(test, ctx, h), RDMA_MCM_JOINED);

	KUNIT_EXPECT_EQ(test, rdma_mcm_leave(ctx, h), 0);
	KUNIT_EXPECT_EQ(test, join->leaves, 1);
	KUNIT_EXPECT_EQ(test, t->fake->leaves, 1);
	KUNIT_EXPECT_EQ(test, mcm_fake_ip_state(t->fake, MCM_FAKE_IFINDEX0,
						(struct sockaddr *)&g).users,
			0);
	KUNIT_EXPECT_EQ(test, rdma_mcm_leave(ctx, h), -EADDRNOTAVAIL);
	rdma_mcm_close(ctx);
}

/* A QP is attached before ->joined() and detached before the group is left. */
static void mcm_join_attaches_qp_leave_detaches(struct kunit *test)
{
	struct mcm_test *t = test->priv;
	struct rdma_mcm_ctx *ctx = mcm_open(test);
	struct rdma_mcm_member_info info;
	struct mcm_fake_join *join;
	u32 h;

	h = mcm_join(test, ctx, MCM_GROUP(2), &t->fake->qp, RDMA_MCM_FULLMEMBER);
	join = mcm_fake_join_of(test, MCM_GROUP(2));
	KUNIT_EXPECT_EQ(test, t->fake->attaches, 0);
	mcm_fake_complete(t->fake, join, 0, false);
	rdma_mcm_flush();
	KUNIT_EXPECT_EQ(test, t->fake->attaches, 1);
	KUNIT_EXPECT_EQ(test, t->fake->attached, 1);
	KUNIT_ASSERT_EQ(test, rdma_mcm_query(ctx, h, &info), 0);
	KUNIT_EXPECT_TRUE(test, info.qp_attached);
	KUNIT_EXPECT_EQ(test, t->rec.joined, 1);

	KUNIT_EXPECT_EQ(test, rdma_mcm_leave(ctx, h), 0);
	KUNIT_EXPECT_EQ(test, t->fake->detaches, 1);
	KUNIT_EXPECT_EQ(test, t->fake->attached, 0);
	KUNIT_EXPECT_LT(test, t->fake->last_detach_seq, join->leave_seq);
	rdma_mcm_close(ctx);
}

/* Send-only joins never attach the QP, and ask rdma_cm for send-only. */
static void mcm_sendonly_join_never_attaches(struct kunit *test)
{
	struct mcm_test *t = test->priv;
	struct rdma_mcm_ctx *ctx = mcm_open(test);
	struct mcm_fake_join *join;
	u32 h;

	h = mcm_join(test, ctx, MCM_GROUP(3), &t->fake->qp,
		     RDMA_MCM_SENDONLY_FULLMEMBER);
	join = mcm_fake_join_of(test, MCM_GROUP(3));
	KUNIT_EXPECT_EQ(test, join->join_state,
			(u8)BIT(SENDONLY_FULLMEMBER_JOIN));
	mcm_fake_complete(t->fake, join, 0, false);
	rdma_mcm_flush();
	KUNIT_EXPECT_EQ(test, t->rec.joined, 1);
	KUNIT_EXPECT_EQ(test, t->fake->attaches, 0);
	KUNIT_EXPECT_EQ(test, rdma_mcm_leave(ctx, h), 0);
	KUNIT_EXPECT_EQ(test, t->fake->detaches, 0);
	rdma_mcm_close(ctx);
}

/*
 * Leave of a join in flight cancels it: rdma_cm's leave is called exactly
 * once, and a completion that still arrives afterwards is dropped.
 */
static void mcm_leave_cancels_join_in_flight(struct kunit *test)
{
	struct mcm_test *t = test->priv;
	struct rdma_mcm_ctx *ctx = mcm_open(test);
	struct rdma_mcm_live live;
	struct mcm_fake_join *join;
	u32 h;

	h = mcm_join(test, ctx, MCM_GROUP(4), &t->fake->qp, RDMA_MCM_FULLMEMBER);
	join = mcm_fake_join_of(test, MCM_GROUP(4));
	KUNIT_EXPECT_EQ(test, rdma_mcm_leave(ctx, h), 0);
	KUNIT_EXPECT_EQ(test, join->leaves, 1);
	KUNIT_EXPECT_EQ(test, t->fake->leaves, 1);
	rdma_mcm_live_objects(&live);
	KUNIT_EXPECT_EQ(test, live.members, 0);

	/* the late completion: delivered, and dropped */
	KUNIT_EXPECT_TRUE(test, mcm_fake_complete(t->fake, join, 0, true));
	rdma_mcm_flush();
	KUNIT_EXPECT_EQ(test, t->rec.joined, 0);
	KUNIT_EXPECT_EQ(test, t->rec.errors, 0);
	KUNIT_EXPECT_EQ(test, t->fake->attaches, 0);
	KUNIT_EXPECT_EQ(test, t->fake->leaves, 1);
	rdma_mcm_close(ctx);
	KUNIT_EXPECT_EQ(test, join->leaves, 1);
}

/*
 * A join event queued but not yet delivered is purged by leave. The
 * context's work is held in another membership's ->joined() (MCM_ACT_BLOCK)
 * while the event is queued and the membership left, so the leave always
 * comes first. (Holding ctx->mutex around the completion instead, as this
 * case once did, left a window after the unlock in which the work could
 * deliver before the leave: 7.2's preemptible UML took it.)
 */
static void mcm_leave_purges_queued_join_event(struct kunit *test)
{
	struct mcm_test *t = test->priv;
	struct rdma_mcm_ctx *ctx = mcm_open(test);
	u32 blocker, h;

	t->rec.on_joined = MCM_ACT_BLOCK;
	blocker = mcm_join(test, ctx, MCM_GROUP(6), NULL, RDMA_MCM_FULLMEMBER);
	h = mcm_join(test, ctx, MCM_GROUP(5), NULL, RDMA_MCM_FULLMEMBER);
	KUNIT_ASSERT_TRUE(test, mcm_fake_complete(t->fake,
						  mcm_fake_join_of(test, MCM_GROUP(6)),
						  0, false));
	KUNIT_ASSERT_GT(test, wait_for_completion_timeout(&t->rec.block_entered,
							  10 * HZ), 0UL);
	KUNIT_ASSERT_TRUE(test, mcm_fake_complete(t->fake,
						  mcm_fake_join_of(test, MCM_GROUP(5)),
						  0, false));
	KUNIT_EXPECT_EQ(test, rdma_mcm_leave(ctx, h), 0);
	t->rec.on_joined = MCM_ACT_NONE;
	complete_all(&t->rec.block_release);
	rdma_mcm_flush();
	/* the blocker's callback only, never the left membership's */
	KUNIT_EXPECT_EQ(test, t->rec.joined, 1);
	KUNIT_EXPECT_EQ(test, t->rec.last_join.handle, blocker);
	rdma_mcm_close(ctx);
}

/* Close cancels every join in flight: no callback, every id destroyed. */
static void mcm_close_with_joins_in_flight(struct kunit *test)
{
	struct mcm_test *t = test->priv;
	struct rdma_mcm_ctx *ctx = mcm_open(test);
	struct mcm_fake_join *join;
	int i;

	for (i = 0; i < 3; i++)
		mcm_join(test, ctx, MCM_GROUP(10 + i), &t->fake->qp,
			 RDMA_MCM_FULLMEMBER);
	mcm_fake_complete(t->fake, mcm_fake_join_of(test, MCM_GROUP(10)), 0,
			  false);
	rdma_mcm_close(ctx);
	rdma_mcm_flush();
	KUNIT_EXPECT_LE(test, t->rec.joined, 1);
	KUNIT_EXPECT_EQ(test, t->fake->live_ids, 0);
	KUNIT_EXPECT_EQ(test, t->fake->attached, 0);
	for (i = 0; i < 3; i++)
		KUNIT_EXPECT_EQ(test,
				mcm_fake_join_of(test, MCM_GROUP(10 + i))->leaves, 1);
	/* the ids are gone: nothing can be delivered any more */
	join = mcm_fake_join_of(test, MCM_GROUP(11));
	KUNIT_EXPECT_FALSE(test, mcm_fake_complete(t->fake, join, 0, true));
}

/* The same group twice on one context: -EADDRINUSE, and fine once left. */
static void mcm_duplicate_join_is_eaddrinuse(struct kunit *test)
{
	struct rdma_mcm_ctx *ctx = mcm_open(test);
	struct sockaddr_in sin = mcm_v4(MCM_GROUP(20));
	u32 h, h2 = 0;

	h = mcm_join(test, ctx, MCM_GROUP(20), NULL, RDMA_MCM_FULLMEMBER);
	KUNIT_EXPECT_EQ(test, rdma_mcm_join(ctx, (struct sockaddr *)&sin,
					    RDMA_MCM_SENDONLY_FULLMEMBER, NULL,
					    NULL, &h2), -EADDRINUSE);
	KUNIT_EXPECT_EQ(test, h2, 0);
	/* a port in the address does not make it another group */
	sin.sin_port = htons(4791);
	KUNIT_EXPECT_EQ(test, rdma_mcm_join(ctx, (struct sockaddr *)&sin,
					    RDMA_MCM_FULLMEMBER, NULL, NULL,
					    &h2), -EADDRINUSE);
	KUNIT_EXPECT_EQ(test, rdma_mcm_leave(ctx, h), 0);
	KUNIT_EXPECT_EQ(test, rdma_mcm_join(ctx, (struct sockaddr *)&sin,
					    RDMA_MCM_FULLMEMBER, NULL, NULL,
					    &h2), 0);
	KUNIT_EXPECT_NE(test, h2, h);
	rdma_mcm_close(ctx);
}

struct mcm_addr_case {
	const char *desc;
	sa_family_t family;
	const char *addr;	/* NULL: all zero */
	size_t len;		/* 0: the family's sockaddr size */
	int expected;
	sa_family_t ctx_family;	/* the context's (0: AF_INET) */
};

static const struct mcm_addr_case mcm_addr_cases[] = {
	{ "IPv4 multicast", AF_INET, "239.1.2.3", 0, 0 },
	{ "IPv4 224.0.0.1", AF_INET, "224.0.0.1", 0, 0 },
	{ "IPv4 unicast", AF_INET, "192.0.2.7", 0, -EINVAL },
	{ "IPv4 broadcast", AF_INET, "255.255.255.255", 0, -EINVAL },
	{ "IPv4 any", AF_INET, "0.0.0.0", 0, -EINVAL },
	{ "IPv6 group on an IPv4 context", AF_INET6, "ff0e::1", 0, -EINVAL },
	{ "AF_UNSPEC", AF_UNSPEC, NULL, sizeof(struct sockaddr_storage),
	  -EAFNOSUPPORT },
	{ "AF_UNIX", AF_UNIX, NULL, sizeof(struct sockaddr_storage),
	  -EAFNOSUPPORT },
	{ "IPv4, length one byte short", AF_INET, "239.1.2.3",
	  sizeof(struct sockaddr_in) - 1, -EINVAL },
	{ "length shorter than a family", AF_INET, "239.1.2.3", 1, -EINVAL },
	/* an IPv6 group must be of a scope a link carries (finding 9) */
	{ "IPv6 global ff0e::1", AF_INET6, "ff0e::1", 0, 0, AF_INET6 },
	{ "IPv6 link-local ff02::1:2", AF_INET6, "ff02::1:2", 0, 0, AF_INET6 },
	{ "IPv6 site-local, flags 1: ff15::2", AF_INET6, "ff15::2", 0, 0,
	  AF_INET6 },
	{ "IPv6 interface-local ff01::1", AF_INET6, "ff01::1", 0, -EINVAL,
	  AF_INET6 },
	{ "IPv6 interface-local, flags 3: ff31::8000:1", AF_INET6,
	  "ff31::8000:1", 0, -EINVAL, AF_INET6 },
	{ "IPv6 reserved scope 0: ff00::1", AF_INET6, "ff00::1", 0, -EINVAL,
	  AF_INET6 },
	{ "IPv6 reserved scope 15: ff1f::1", AF_INET6, "ff1f::1", 0, -EINVAL,
	  AF_INET6 },
	{ "IPv6 unicast", AF_INET6, "2001:db8::1", 0, -EINVAL, AF_INET6 },
};

static void mcm_addr_to_desc(const struct mcm_addr_case *c, char *desc)
{
	strscpy(desc, c->desc, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(mcm_addr, mcm_addr_cases, mcm_addr_to_desc);

/* Group addresses, good and bad, checked against an IPv4 (or IPv6) context. */
static void mcm_group_address_checks(struct kunit *test)
{
	const struct mcm_addr_case *c = test->param_value;
	struct sockaddr_storage ss = {};
	union rdma_mcm_addr out;
	size_t len = c->len;

	ss.ss_family = c->family;
	if (c->family == AF_INET && c->addr)
		KUNIT_ASSERT_EQ(test, in4_pton(c->addr, -1, (u8 *)
			&((struct sockaddr_in *)&ss)->sin_addr, -1, NULL), 1);
	if (c->family == AF_INET6 && c->addr)
		KUNIT_ASSERT_EQ(test, in6_pton(c->addr, -1, (u8 *)
			&((struct sockaddr_in6 *)&ss)->sin6_addr, -1, NULL), 1);
	if (!len)
		len = c->family == AF_INET6 ? sizeof(struct sockaddr_in6) :
					      sizeof(struct sockaddr_in);
	KUNIT_EXPECT_EQ(test, rdma_mcm_group_parse((struct sockaddr *)&ss, len,
						   c->ctx_family ?: AF_INET,
						   &out),
			c->expected);
}

/* The kernel API applies the same checks, and refuses bad arguments. */
static void mcm_join_bad_arguments(struct kunit *test)
{
	struct mcm_test *t = test->priv;
	struct rdma_mcm_ctx *ctx = mcm_open(test);
	struct sockaddr_in uni = mcm_v4(0xc0000207), grp = mcm_v4(MCM_GROUP(1));
	struct sockaddr_in6 g6 = { .sin6_family = AF_INET6 };
	struct sockaddr unspec = { .sa_family = AF_UNSPEC };
	u32 h = 0;

	g6.sin6_addr.s6_addr[0] = 0xff;
	KUNIT_EXPECT_EQ(test, rdma_mcm_join(ctx, (struct sockaddr *)&uni,
					    RDMA_MCM_FULLMEMBER, NULL, NULL, &h),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, rdma_mcm_join(ctx, (struct sockaddr *)&g6,
					    RDMA_MCM_FULLMEMBER, NULL, NULL, &h),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, rdma_mcm_join(ctx, &unspec, RDMA_MCM_FULLMEMBER,
					    NULL, NULL, &h), -EAFNOSUPPORT);
	KUNIT_EXPECT_EQ(test, rdma_mcm_join(ctx, NULL, RDMA_MCM_FULLMEMBER,
					    NULL, NULL, &h), -EINVAL);
	KUNIT_EXPECT_EQ(test, rdma_mcm_join(ctx, (struct sockaddr *)&grp, 7,
					    NULL, NULL, &h), -EINVAL);
	KUNIT_EXPECT_EQ(test, rdma_mcm_join(ctx, (struct sockaddr *)&grp,
					    RDMA_MCM_FULLMEMBER, NULL, NULL,
					    NULL), -EINVAL);
	KUNIT_EXPECT_EQ(test, rdma_mcm_leave_addr(ctx, (struct sockaddr *)&uni),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, rdma_mcm_leave_addr(ctx, &unspec), -EAFNOSUPPORT);
	KUNIT_EXPECT_EQ(test, h, 0);
	KUNIT_EXPECT_EQ(test, t->fake->joins_called, 0);
	rdma_mcm_close(ctx);
}

/* Leave of something the context does not have: -EADDRNOTAVAIL. */
static void mcm_leave_unknown_is_eaddrnotavail(struct kunit *test)
{
	struct rdma_mcm_ctx *ctx = mcm_open(test);
	struct sockaddr_in grp = mcm_v4(MCM_GROUP(30));

	KUNIT_EXPECT_EQ(test, rdma_mcm_leave(ctx, 0), -EADDRNOTAVAIL);
	KUNIT_EXPECT_EQ(test, rdma_mcm_leave(ctx, 12345), -EADDRNOTAVAIL);
	KUNIT_EXPECT_EQ(test, rdma_mcm_leave_addr(ctx, (struct sockaddr *)&grp),
			-EADDRNOTAVAIL);
	rdma_mcm_close(ctx);
}

/* Leave by address finds the membership and leaves it. */
static void mcm_leave_by_address(struct kunit *test)
{
	struct mcm_test *t = test->priv;
	struct rdma_mcm_ctx *ctx = mcm_open(test);
	struct sockaddr_in grp = mcm_v4(MCM_GROUP(31));
	u32 h;

	h = mcm_join(test, ctx, MCM_GROUP(31), NULL, RDMA_MCM_FULLMEMBER);
	grp.sin_port = htons(1234);
	KUNIT_EXPECT_EQ(test, rdma_mcm_leave_addr(ctx, (struct sockaddr *)&grp),
			0);
	KUNIT_EXPECT_EQ(test, t->fake->leaves, 1);
	KUNIT_EXPECT_EQ(test, rdma_mcm_leave(ctx, h), -EADDRNOTAVAIL);
	rdma_mcm_close(ctx);
}

/* MULTICAST_ERROR after the join: error callback, state error, leave works. */
static void mcm_multicast_error_after_join(struct kunit *test)
{
	struct mcm_test *t = test->priv;
	struct rdma_mcm_ctx *ctx = mcm_open(test);
	struct rdma_mcm_member_info info;
	struct mcm_fake_join *join;
	u32 h;

	h = mcm_join(test, ctx, MCM_GROUP(40), &t->fake->qp, RDMA_MCM_FULLMEMBER);
	join = mcm_fake_join_of(test, MCM_GROUP(40));
	mcm_fake_complete(t->fake, join, 0, false);
	rdma_mcm_flush();
	KUNIT_EXPECT_EQ(test, t->rec.joined, 1);

	mcm_fake_complete(t->fake, join, -ENETRESET, false);
	rdma_mcm_flush();
	KUNIT_EXPECT_EQ(test, t->rec.errors, 1);
	KUNIT_EXPECT_EQ(test, t->rec.last_error_handle, h);
	KUNIT_EXPECT_EQ(test, t->rec.last_status, -ENETRESET);
	KUNIT_EXPECT_PTR_EQ(test, t->rec.last_error_context,
			    (void *)(uintptr_t)MCM_GROUP(40));
	KUNIT_ASSERT_EQ(test, rdma_mcm_query(ctx, h, &info), 0);
	KUNIT_EXPECT_EQ(test, info.state, RDMA_MCM_ERROR);
	KUNIT_EXPECT_EQ(test, info.status, -ENETRESET);

	/* a second error for a membership already in error is dropped */
	mcm_fake_complete(t->fake, join, -ENETRESET, false);
	rdma_mcm_flush();
	KUNIT_EXPECT_EQ(test, t->rec.errors, 1);

	KUNIT_EXPECT_EQ(test, rdma_mcm_leave(ctx, h), 0);
	KUNIT_EXPECT_EQ(test, join->leaves, 1);
	KUNIT_EXPECT_EQ(test, t->fake->attached, 0);
	rdma_mcm_close(ctx);
}

/* The join itself fails asynchronously: error callback, no joined. */
static void mcm_join_error_event(struct kunit *test)
{
	struct mcm_test *t = test->priv;
	struct rdma_mcm_ctx *ctx = mcm_open(test);
	u32 h;

	h = mcm_join(test, ctx, MCM_GROUP(41), &t->fake->qp, RDMA_MCM_FULLMEMBER);
	mcm_fake_complete(t->fake, mcm_fake_join_of(test, MCM_GROUP(41)),
			  -ETIMEDOUT, false);
	rdma_mcm_flush();
	KUNIT_EXPECT_EQ(test, t->rec.joined, 0);
	KUNIT_EXPECT_EQ(test, t->rec.errors, 1);
	KUNIT_EXPECT_EQ(test, t->rec.last_status, -ETIMEDOUT);
	KUNIT_EXPECT_EQ(test, mcm_state(test, ctx, h), RDMA_MCM_ERROR);
	KUNIT_EXPECT_EQ(test, t->fake->attaches, 0);
	rdma_mcm_close(ctx);
}

/* rdma_join_multicast() fails: the error is returned, nothing is kept. */
static void mcm_join_call_fails(struct kunit *test)
{
	struct mcm_test *t = test->priv;
	struct rdma_mcm_ctx *ctx = mcm_open(test);
	struct sockaddr_in grp = mcm_v4(MCM_GROUP(42));
	struct rdma_mcm_live live;
	u32 h = 0, next;

	t->fake->join_ret = -ENOMEM;
	KUNIT_EXPECT_EQ(test, rdma_mcm_join(ctx, (struct sockaddr *)&grp,
					    RDMA_MCM_FULLMEMBER, NULL, NULL, &h),
			-ENOMEM);
	KUNIT_EXPECT_EQ(test, h, 0);
	rdma_mcm_live_objects(&live);
	KUNIT_EXPECT_EQ(test, live.members, 0);
	KUNIT_EXPECT_EQ(test, rdma_mcm_list(ctx, 0, NULL, 0, &next), 0);
	t->fake->join_ret = 0;
	KUNIT_EXPECT_EQ(test, rdma_mcm_join(ctx, (struct sockaddr *)&grp,
					    RDMA_MCM_FULLMEMBER, NULL, NULL, &h),
			0);
	rdma_mcm_close(ctx);
}

/* A failed attach turns into an error and leaves the group at once. */
static void mcm_attach_failure_leaves_group(struct kunit *test)
{
	struct mcm_test *t = test->priv;
	struct rdma_mcm_ctx *ctx = mcm_open(test);
	struct mcm_fake_join *join;
	u32 h;

	t->fake->attach_ret = -EINVAL;
	h = mcm_join(test, ctx, MCM_GROUP(43), &t->fake->qp, RDMA_MCM_FULLMEMBER);
	join = mcm_fake_join_of(test, MCM_GROUP(43));
	mcm_fake_complete(t->fake, join, 0, false);
	rdma_mcm_flush();
	KUNIT_EXPECT_EQ(test, t->rec.joined, 0);
	KUNIT_EXPECT_EQ(test, t->rec.errors, 1);
	KUNIT_EXPECT_EQ(test, t->rec.last_status, -EINVAL);
	KUNIT_EXPECT_EQ(test, join->leaves, 1);
	KUNIT_EXPECT_EQ(test, mcm_state(test, ctx, h), RDMA_MCM_ERROR);
	KUNIT_EXPECT_EQ(test, rdma_mcm_leave(ctx, h), 0);
	KUNIT_EXPECT_EQ(test, t->fake->leaves, 1);	/* not twice */
	KUNIT_EXPECT_EQ(test, t->fake->detaches, 0);
	rdma_mcm_close(ctx);
}

/*
 * The device goes away: every membership fails with -ENODEV, QPs are
 * detached, ->device_removed() follows the errors, the ids are destroyed,
 * and leave/close still work.
 */
static void mcm_device_removal(struct kunit *test)
{
	struct mcm_test *t = test->priv;
	struct rdma_mcm_ctx *ctx = mcm_open(test);
	struct sockaddr_in grp = mcm_v4(MCM_GROUP(53));
	u32 h[3], h4 = 0, port;
	int i;

	for (i = 0; i < 3; i++)
		h[i] = mcm_join(test, ctx, MCM_GROUP(50 + i), &t->fake->qp,
				RDMA_MCM_FULLMEMBER);
	mcm_fake_complete(t->fake, mcm_fake_join_of(test, MCM_GROUP(50)), 0,
			  false);
	mcm_fake_complete(t->fake, mcm_fake_join_of(test, MCM_GROUP(51)), 0,
			  false);
	rdma_mcm_flush();
	KUNIT_EXPECT_EQ(test, t->fake->attached, 2);

	mcm_fake_remove_device(t->fake, 0);
	KUNIT_EXPECT_EQ(test, t->rec.errors, 3);
	KUNIT_EXPECT_EQ(test, t->rec.last_status, -ENODEV);
	KUNIT_EXPECT_EQ(test, t->rec.removed, 1);
	KUNIT_EXPECT_EQ(test, t->rec.errors_at_removed, 3);
	KUNIT_EXPECT_EQ(test, t->rec.attached_at_removed, 0);
	KUNIT_EXPECT_FALSE(test, t->rec.device_at_removed);
	KUNIT_EXPECT_EQ(test, t->fake->live_ids, 0);
	KUNIT_EXPECT_EQ(test, t->fake->attached, 0);
	KUNIT_EXPECT_NULL(test, rdma_mcm_device(ctx, &port));
	for (i = 0; i < 3; i++)
		KUNIT_EXPECT_EQ(test, mcm_state(test, ctx, h[i]), RDMA_MCM_ERROR);

	KUNIT_EXPECT_EQ(test, rdma_mcm_join(ctx, (struct sockaddr *)&grp,
					    RDMA_MCM_FULLMEMBER, NULL, NULL,
					    &h4), -ENODEV);
	KUNIT_EXPECT_EQ(test, rdma_mcm_leave(ctx, h[0]), 0);
	KUNIT_EXPECT_EQ(test, t->fake->leaves, 0);	/* the ids are gone */
	rdma_mcm_close(ctx);
	KUNIT_EXPECT_EQ(test, t->fake->destroys, t->fake->creates);
}

/* A joined callback leaves its own membership. */
static void mcm_callback_leaves_itself(struct kunit *test)
{
	struct mcm_test *t = test->priv;
	struct rdma_mcm_ctx *ctx = mcm_open(test);
	u32 h;

	t->rec.on_joined = MCM_ACT_LEAVE_SELF;
	t->rec.action_ret = 1;
	h = mcm_join(test, ctx, MCM_GROUP(60), &t->fake->qp, RDMA_MCM_FULLMEMBER);
	mcm_fake_complete(t->fake, mcm_fake_join_of(test, MCM_GROUP(60)), 0,
			  false);
	rdma_mcm_flush();
	KUNIT_EXPECT_EQ(test, t->rec.joined, 1);
	KUNIT_EXPECT_EQ(test, t->rec.action_ret, 0);
	KUNIT_EXPECT_EQ(test, rdma_mcm_leave(ctx, h), -EADDRNOTAVAIL);
	KUNIT_EXPECT_EQ(test, t->fake->leaves, 1);
	KUNIT_EXPECT_EQ(test, t->fake->attached, 0);
	rdma_mcm_close(ctx);
}

/* A joined callback joins another group on the same context. */
static void mcm_callback_joins_another(struct kunit *test)
{
	struct mcm_test *t = test->priv;
	struct rdma_mcm_ctx *ctx = mcm_open(test);

	t->rec.on_joined = MCM_ACT_JOIN_OTHER;
	t->fake->auto_complete = true;
	mcm_join(test, ctx, MCM_GROUP(61), NULL, RDMA_MCM_FULLMEMBER);
	rdma_mcm_flush();
	KUNIT_EXPECT_EQ(test, t->rec.action_ret, 0);
	KUNIT_EXPECT_NE(test, t->rec.action_handle, 0);
	KUNIT_EXPECT_EQ(test, t->rec.joined, 2);
	KUNIT_EXPECT_EQ(test, mcm_state(test, ctx, t->rec.action_handle),
			RDMA_MCM_JOINED);
	rdma_mcm_close(ctx);
}

/* A joined callback closes its context: no deadlock, everything freed. */
static void mcm_callback_closes_context(struct kunit *test)
{
	struct mcm_test *t = test->priv;
	struct rdma_mcm_ctx *ctx = mcm_open(test);
	struct rdma_mcm_live live;

	t->rec.on_joined = MCM_ACT_CLOSE;
	mcm_join(test, ctx, MCM_GROUP(62), &t->fake->qp, RDMA_MCM_FULLMEMBER);
	mcm_join(test, ctx, MCM_GROUP(63), &t->fake->qp, RDMA_MCM_FULLMEMBER);
	mcm_fake_complete_all(t->fake);
	rdma_mcm_flush();
	rdma_mcm_flush();	/* the deferred free */
	KUNIT_EXPECT_EQ(test, t->rec.joined, 1);
	KUNIT_EXPECT_NULL(test, t->rec.ctx);
	rdma_mcm_live_objects(&live);
	KUNIT_EXPECT_EQ(test, live.contexts, 0);
	KUNIT_EXPECT_EQ(test, t->fake->live_ids, 0);
	KUNIT_EXPECT_EQ(test, t->fake->attached, 0);
}

/* Leave is a barrier: it does not return while the callback still runs. */
static void mcm_leave_waits_for_running_callback(struct kunit *test)
{
	struct mcm_test *t = test->priv;
	struct rdma_mcm_ctx *ctx = mcm_open(test);
	struct mcm_leaver l = { .ctx = ctx };

	init_completion(&t->rec.block_entered);
	init_completion(&t->rec.block_release);
	t->rec.on_joined = MCM_ACT_BLOCK;
	l.handle = mcm_join(test, ctx, MCM_GROUP(64), NULL, RDMA_MCM_FULLMEMBER);
	mcm_fake_complete(t->fake, mcm_fake_join_of(test, MCM_GROUP(64)), 0,
			  false);
	KUNIT_ASSERT_GT(test, wait_for_completion_timeout(&t->rec.block_entered,
							  10 * HZ), 0UL);

	mcm_leave_in_thread(test, &l);
	msleep(200);
	KUNIT_EXPECT_FALSE(test, READ_ONCE(l.returned));
	complete(&t->rec.block_release);
	KUNIT_ASSERT_GT(test, wait_for_completion_timeout(&l.done, 10 * HZ), 0UL);
	KUNIT_EXPECT_EQ(test, l.ret, 0);
	rdma_mcm_close(ctx);
}

struct mcm_open_case {
	const char *desc;
	int create_ret;
	int bind_ret;
	bool no_device;
	sa_family_t family;
	int expected;
};

static const struct mcm_open_case mcm_open_cases[] = {
	{ "address owned by no netdev", 0, -EADDRNOTAVAIL, false, AF_INET,
	  -EADDRNOTAVAIL },
	{ "netdev without an RDMA device", 0, -ENODEV, false, AF_INET, -ENODEV },
	{ "wildcard address: bound, no device", 0, 0, true, AF_INET, -ENODEV },
	{ "rdma_create_id fails", -ENOMEM, 0, false, AF_INET, -ENOMEM },
	{ "AF_UNSPEC source", 0, 0, false, AF_UNSPEC, -EAFNOSUPPORT },
};

static void mcm_open_to_desc(const struct mcm_open_case *c, char *desc)
{
	strscpy(desc, c->desc, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(mcm_open, mcm_open_cases, mcm_open_to_desc);

/* Opening a context reports address problems at once. */
static void mcm_open_errors(struct kunit *test)
{
	const struct mcm_open_case *c = test->param_value;
	struct mcm_test *t = test->priv;
	struct sockaddr_in src = mcm_v4(MCM_SRC);
	struct rdma_mcm_ctx *ctx;

	src.sin_family = c->family;
	t->fake->create_ret = c->create_ret;
	t->fake->bind_ret = c->bind_ret;
	t->fake->no_device = c->no_device;
	ctx = rdma_mcm_open_backend(&init_net, (struct sockaddr *)&src,
				    &mcm_rec_ops, &t->rec, &t->fake->be, 0);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(ctx), c->expected);
	if (!IS_ERR(ctx))
		rdma_mcm_close(ctx);
	KUNIT_EXPECT_EQ(test, t->fake->live_ids, 0);
}

/* Memberships spread over ids of rdma_mcm_slot_size; empty ones go. */
static void mcm_slots_fan_out(struct kunit *test)
{
	struct mcm_test *t = test->priv;
	struct rdma_mcm_ctx *ctx = mcm_open(test);
	unsigned int size = rdma_mcm_slot_size, n = 2 * size + 2, i;
	u32 *h;

	h = kunit_kcalloc(test, n, sizeof(*h), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, h);
	for (i = 0; i < n; i++)
		h[i] = mcm_join(test, ctx, 0xef020000 + i, NULL,
				RDMA_MCM_SENDONLY_FULLMEMBER);
	KUNIT_EXPECT_EQ(test, t->fake->live_ids, 3);
	for (i = 0; i < n; i++)
		KUNIT_EXPECT_EQ(test, rdma_mcm_leave(ctx, h[i]), 0);
	KUNIT_EXPECT_EQ(test, t->fake->live_ids, 1);
	KUNIT_EXPECT_EQ(test, t->fake->leaves, n);
	rdma_mcm_close(ctx);
}

/* rdma_mcm_list() pages through every membership once, in handle order. */
static void mcm_list_pages(struct kunit *test)
{
	struct rdma_mcm_ctx *ctx = mcm_open(test);
	struct rdma_mcm_member_info infos[4];
	u32 h[10], start = 0, next, seen = 0, last = 0;
	int i, n, pages = 0;

	for (i = 0; i < 10; i++)
		h[i] = mcm_join(test, ctx, MCM_GROUP(70 + i), NULL,
				RDMA_MCM_FULLMEMBER);
	KUNIT_EXPECT_EQ(test, rdma_mcm_leave(ctx, h[3]), 0);
	do {
		n = rdma_mcm_list(ctx, start, infos, ARRAY_SIZE(infos), &next);
		for (i = 0; i < n; i++) {
			KUNIT_EXPECT_GT(test, infos[i].handle, last);
			KUNIT_EXPECT_NE(test, infos[i].handle, h[3]);
			KUNIT_EXPECT_EQ(test, infos[i].state, RDMA_MCM_JOINING);
			last = infos[i].handle;
		}
		seen += n;
		pages++;
		start = next;
	} while (next && pages < 10);
	KUNIT_EXPECT_EQ(test, seen, 9);
	KUNIT_EXPECT_EQ(test, pages, 3);
	rdma_mcm_close(ctx);
}

/*
 * 100k; 10k under KASAN or lockdep, whose instrumentation slows every join
 * and leave, and which check the same paths at 10k (157 rdma_cm ids of 64).
 */
#define MCM_MANY	(IS_ENABLED(CONFIG_KASAN) || \
			 IS_ENABLED(CONFIG_PROVE_LOCKING) ? 10000 : 100000)

/* A context holds many memberships: all join, all complete, all leave. */
static void mcm_many_memberships(struct kunit *test)
{
	struct mcm_test *t = test->priv;
	struct rdma_mcm_ctx *ctx = mcm_open(test);
	struct rdma_mcm_live live;
	int i, failed = 0;
	u32 *h;

	h = kvcalloc(MCM_MANY, sizeof(*h), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, h);
	t->fake->auto_complete = true;
	for (i = 0; i < MCM_MANY && !failed; i++) {
		struct sockaddr_in sin = mcm_v4(0xef100000 + i);

		failed = rdma_mcm_join(ctx, (struct sockaddr *)&sin,
				       RDMA_MCM_SENDONLY_FULLMEMBER, NULL, NULL,
				       &h[i]);
	}
	KUNIT_EXPECT_EQ(test, failed, 0);
	rdma_mcm_flush();
	KUNIT_EXPECT_EQ(test, t->rec.joined, MCM_MANY);
	rdma_mcm_live_objects(&live);
	KUNIT_EXPECT_EQ(test, live.members, MCM_MANY);
	KUNIT_EXPECT_EQ(test, live.slots,
			DIV_ROUND_UP(MCM_MANY, rdma_mcm_slot_size));
	for (i = 0; i < MCM_MANY && !failed; i++)
		failed = rdma_mcm_leave(ctx, h[i]);
	KUNIT_EXPECT_EQ(test, failed, 0);
	KUNIT_EXPECT_EQ(test, t->fake->leaves, MCM_MANY);
	rdma_mcm_close(ctx);
	kvfree(h);
	kunit_info(test, "%d memberships\n", MCM_MANY);
}

#ifdef CONFIG_FAULT_INJECTION
/*
 * One pass of open, three joins (one with a QP) and a leave, then close,
 * with one slot per membership so that joins create rdma_cm ids too.
 * Each step either works or fails with -ENOMEM; a failed join is retried
 * and must then work (nothing of the failed attempt is left, not even its
 * group in the hash). Returns how many steps failed.
 */
static int mcm_fault_pass(struct kunit *test)
{
	struct mcm_test *t = test->priv;
	struct sockaddr_in src = mcm_v4(MCM_SRC), grp;
	struct rdma_mcm_ctx *ctx;
	int i, ret, failed = 0, joined = 0;
	u32 h[3];

	ctx = rdma_mcm_open_backend(&init_net, (struct sockaddr *)&src,
				    &mcm_rec_ops, &t->rec, &t->fake->be, 0);
	if (IS_ERR(ctx)) {
		KUNIT_EXPECT_EQ(test, PTR_ERR(ctx), -ENOMEM);
		return 1;
	}
	t->rec.ctx = ctx;
	for (i = 0; i < 3; i++) {
		grp = mcm_v4(MCM_GROUP(200 + i));
		ret = rdma_mcm_join(ctx, (struct sockaddr *)&grp,
				    i ? RDMA_MCM_SENDONLY_FULLMEMBER :
					RDMA_MCM_FULLMEMBER,
				    i ? NULL : &t->fake->qp, NULL, &h[i]);
		if (ret) {
			KUNIT_EXPECT_EQ(test, ret, -ENOMEM);
			failed++;
			ret = rdma_mcm_join(ctx, (struct sockaddr *)&grp,
					    RDMA_MCM_SENDONLY_FULLMEMBER, NULL,
					    NULL, &h[i]);
			KUNIT_EXPECT_EQ_MSG(test, ret, 0,
					    "retry of a join that failed");
		}
		joined += !ret;
		if (i == 1)
			KUNIT_EXPECT_EQ(test, rdma_mcm_leave(ctx, h[0]), 0);
	}
	mcm_fake_complete_all(t->fake);
	rdma_mcm_flush();
	/*
	 * A join event whose address handle attributes found no room fails
	 * its membership with -ENOMEM: one failed step too.
	 */
	if (t->rec.errors) {
		KUNIT_EXPECT_EQ(test, t->rec.last_status, -ENOMEM);
		failed += t->rec.errors;
	}
	/* the left one may or may not have completed before its leave */
	KUNIT_EXPECT_GE(test, t->rec.joined, joined - 1 - t->rec.errors);
	rdma_mcm_close(ctx);
	return failed;
}

static void mcm_restore_slot_size(void *size)
{
	rdma_mcm_slot_size = (uintptr_t)size;
}

/*
 * Handles are cyclic: a left handle is not given again at once, the
 * counter wraps past 0 (never a handle) and past handles still in use,
 * and lookups, leaves and pages of the list follow the handles, not the
 * order of the joins.
 */
static void mcm_handles_cyclic_wrap(struct kunit *test)
{
	struct rdma_mcm_ctx *ctx = mcm_open(test);
	struct rdma_mcm_member_info infos[4];
	u32 a, b, c, d, next;

	a = mcm_join(test, ctx, MCM_GROUP(80), NULL, RDMA_MCM_FULLMEMBER);
	KUNIT_EXPECT_EQ(test, a, 1U);
	ctx->next_handle = U32_MAX;
	b = mcm_join(test, ctx, MCM_GROUP(81), NULL, RDMA_MCM_FULLMEMBER);
	c = mcm_join(test, ctx, MCM_GROUP(82), NULL, RDMA_MCM_FULLMEMBER);
	KUNIT_EXPECT_EQ(test, b, U32_MAX);
	KUNIT_EXPECT_EQ(test, c, 2U);		/* not 0, not a's 1 */
	KUNIT_EXPECT_EQ(test, rdma_mcm_leave(ctx, a), 0);
	d = mcm_join(test, ctx, MCM_GROUP(83), NULL, RDMA_MCM_FULLMEMBER);
	KUNIT_EXPECT_EQ(test, d, 3U);		/* a's handle rests */
	KUNIT_EXPECT_EQ(test, rdma_mcm_leave(ctx, a), -EADDRNOTAVAIL);
	KUNIT_EXPECT_EQ(test, mcm_state(test, ctx, b), RDMA_MCM_JOINING);

	KUNIT_EXPECT_EQ(test, rdma_mcm_list(ctx, 0, infos, 2, &next), 2);
	KUNIT_EXPECT_EQ(test, infos[0].handle, c);
	KUNIT_EXPECT_EQ(test, infos[1].handle, d);
	KUNIT_EXPECT_EQ(test, next, b);
	KUNIT_EXPECT_EQ(test, rdma_mcm_list(ctx, next, infos, 2, &next), 1);
	KUNIT_EXPECT_EQ(test, infos[0].handle, b);
	KUNIT_EXPECT_EQ(test, next, 0U);
	KUNIT_EXPECT_EQ(test, rdma_mcm_list(ctx, 3, infos, 4, &next), 2);
	KUNIT_EXPECT_EQ(test, infos[0].handle, d);
	rdma_mcm_close(ctx);
}

/*
 * Fail every allocation of the open/join paths in turn (the Nth one, for
 * N = 1, 2, ... until a pass reaches no Nth): each failure is one clean
 * -ENOMEM, leaks nothing, and leaves the fake rdma_cm without ids. Leave
 * and close must not allocate: no step but open, join and a join's event
 * (its address handle attributes, when the work delivers it) may fail.
 */
static void mcm_alloc_failure_each_point(struct kunit *test)
{
	struct mcm_test *t = test->priv;
	int verbose = rdma_mcm_fail_alloc_attr.verbose;
	struct rdma_mcm_live live;
	void *size = (void *)(uintptr_t)rdma_mcm_slot_size;
	unsigned int n, left;
	int failed, ret;

	ret = kunit_add_action_or_reset(test, mcm_restore_slot_size, size);
	KUNIT_ASSERT_EQ(test, ret, 0);
	rdma_mcm_slot_size = 1;
	rdma_mcm_fail_alloc_attr.verbose = 0;	/* no stack dump per point */
	for (n = 1; n < 100; n++) {
		t->rec.joined = 0;
		t->rec.errors = 0;
		WRITE_ONCE(current->fail_nth, n);
		failed = mcm_fault_pass(test);
		left = READ_ONCE(current->fail_nth);
		WRITE_ONCE(current->fail_nth, 0);
		rdma_mcm_flush();
		rdma_mcm_live_objects(&live);
		KUNIT_EXPECT_EQ_MSG(test, live.contexts + live.members +
				    live.slots, 0,
				    "objects leaked when allocation %u failed", n);
		KUNIT_EXPECT_EQ_MSG(test, t->fake->live_ids, 0,
				    "rdma_cm ids leaked when allocation %u failed",
				    n);
		if (left) {
			/* fewer than n points: this pass failed nothing */
			KUNIT_EXPECT_EQ(test, failed, 0);
			break;
		}
		KUNIT_EXPECT_EQ_MSG(test, failed, 1,
				    "allocation %u failed, not one step", n);
	}
	rdma_mcm_fail_alloc_attr.verbose = verbose;
	kunit_info(test, "%u allocation points failed in turn\n", n - 1);
	/*
	 * open: 4 points (ctx, registry, slot, id); a join 2 (member,
	 * rdma_cm's join; the handle tree allocates nothing), 2 more when it
	 * needs an id of its own (slot, id): the first join fits on the
	 * open's id, the other two do not; and each join event completed in
	 * this thread 1 (its address handle attributes), not counted here.
	 */
	KUNIT_EXPECT_GE(test, n - 1, 4 + 3 * 2 + 2 * 2);
	KUNIT_EXPECT_LT(test, n, 100);
}
#else
static void mcm_alloc_failure_each_point(struct kunit *test)
{
	kunit_skip(test, "needs CONFIG_FAULT_INJECTION");
}
#endif

static struct kunit_case rdma_mcm_core_cases[] = {
	KUNIT_CASE_PARAM(mcm_state_transition, mcm_transition_gen_params),
	KUNIT_CASE(mcm_state_out_of_range),
	KUNIT_CASE(mcm_join_completes_then_leave),
	KUNIT_CASE(mcm_join_attaches_qp_leave_detaches),
	KUNIT_CASE(mcm_sendonly_join_never_attaches),
	KUNIT_CASE(mcm_leave_cancels_join_in_flight),
	KUNIT_CASE(mcm_leave_purges_queued_join_event),
	KUNIT_CASE(mcm_close_with_joins_in_flight),
	KUNIT_CASE(mcm_duplicate_join_is_eaddrinuse),
	KUNIT_CASE_PARAM(mcm_group_address_checks, mcm_addr_gen_params),
	KUNIT_CASE(mcm_join_bad_arguments),
	KUNIT_CASE(mcm_leave_unknown_is_eaddrnotavail),
	KUNIT_CASE(mcm_leave_by_address),
	KUNIT_CASE(mcm_multicast_error_after_join),
	KUNIT_CASE(mcm_join_error_event),
	KUNIT_CASE(mcm_join_call_fails),
	KUNIT_CASE(mcm_attach_failure_leaves_group),
	KUNIT_CASE(mcm_device_removal),
	KUNIT_CASE(mcm_callback_leaves_itself),
	KUNIT_CASE(mcm_callback_joins_another),
	KUNIT_CASE(mcm_callback_closes_context),
	KUNIT_CASE(mcm_leave_waits_for_running_callback),
	KUNIT_CASE_PARAM(mcm_open_errors, mcm_open_gen_params),
	KUNIT_CASE(mcm_slots_fan_out),
	KUNIT_CASE(mcm_list_pages),
	KUNIT_CASE(mcm_handles_cyclic_wrap),
	KUNIT_CASE(mcm_alloc_failure_each_point),
	KUNIT_CASE_SLOW(mcm_many_memberships),
	{}
};

static struct kunit_suite rdma_mcm_core_suite = {
	.name = "rdma_mcm_core",
	.init = mcm_test_init,
	.exit = mcm_test_exit,
	.test_cases = rdma_mcm_core_cases,
};

kunit_test_suite(rdma_mcm_core_suite);
