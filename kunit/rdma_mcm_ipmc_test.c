// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * rdma_mcm KUnit: what rdma_cm cannot do. IPv6 groups on RoCE v2, which
 * the fake refuses with -ENOTSUPP as rdma_cm does, and source-specific
 * joins, and the IGMP/MLD side of RoCE full members, which the fake keeps
 * as the kernel composes it per netdev and group: sockets are symmetric,
 * rdma_cm's own device-level IGMP join is not. Every case ends with no
 * IGMP/MLD membership and no socket left in the fake (its destroy
 * checks), besides the manager's live objects.
 */
#include <kunit/test.h>
#include <linux/in.h>
#include <linux/in6.h>
#include <linux/inet.h>
#include <net/net_namespace.h>
#include <rdma/ib_sa.h>
#include <rdma/rdma_cm_ib.h>

#include "rdma_mcm_test_util.h"

#define MCM_IF0	MCM_FAKE_IFINDEX0	/* device 0's netdev */

static struct sockaddr_storage mcm_ss(const void *sa, size_t len)
{
	struct sockaddr_storage ss = {};

	memcpy(&ss, sa, len);
	return ss;
}

/* An IPv4 or IPv6 literal as a sockaddr_storage */
static struct sockaddr_storage mcm_addr(struct kunit *test, const char *text)
{
	struct sockaddr_in6 sin6;
	struct sockaddr_in sin;

	if (strchr(text, ':')) {
		sin6 = mcm_v6(test, text);
		return mcm_ss(&sin6, sizeof(sin6));
	}
	sin = mcm_v4(0);
	KUNIT_ASSERT_EQ(test, in4_pton(text, -1, (u8 *)&sin.sin_addr, -1,
				       NULL), 1);
	return mcm_ss(&sin, sizeof(sin));
}

/* A context on @src (2001:db8::1 or 192.0.2.1), healing or not */
static struct rdma_mcm_ctx *mcm_open_on(struct kunit *test, const char *src,
					u32 flags)
{
	struct sockaddr_storage ss = mcm_addr(test, src);

	return mcm_open_at(test, (struct sockaddr *)&ss, flags);
}

/* Join @group with the @srcs (NULL-terminated, or NULL): the errno */
static int mcm_try_join(struct kunit *test, struct rdma_mcm_ctx *ctx,
			const char *group, const char * const *srcs,
			enum rdma_mcm_join_type type, struct ib_qp *qp,
			u32 *handle)
{
	struct sockaddr_storage g = mcm_addr(test, group);
	struct sockaddr_storage ss[4];
	struct rdma_mcm_join_req req = {
		.group = (struct sockaddr *)&g,
		.join_type = type,
		.qp = qp,
		.sources = ss,
	};

	while (srcs && srcs[req.nr_sources]) {
		KUNIT_ASSERT_LT(test, req.nr_sources, ARRAY_SIZE(ss));
		ss[req.nr_sources] = mcm_addr(test, srcs[req.nr_sources]);
		req.nr_sources++;
	}
	return rdma_mcm_join_ex(ctx, &req, handle);
}

static u32 mcm_join_src(struct kunit *test, struct rdma_mcm_ctx *ctx,
			const char *group, const char * const *srcs,
			enum rdma_mcm_join_type type, struct ib_qp *qp)
{
	u32 handle = 0;

	KUNIT_ASSERT_EQ(test, mcm_try_join(test, ctx, group, srcs, type, qp,
					   &handle), 0);
	KUNIT_EXPECT_NE(test, handle, 0);
	return handle;
}

static struct mcm_fake_ipstate mcm_ip(struct kunit *test, const char *group)
{
	struct mcm_test *t = test->priv;
	struct sockaddr_storage g = mcm_addr(test, group);

	return mcm_fake_ip_state(t->fake, MCM_IF0, (struct sockaddr *)&g);
}

static int mcm_ip_includes(struct kunit *test, const char *group,
			   const char *src)
{
	struct mcm_test *t = test->priv;
	struct sockaddr_storage g = mcm_addr(test, group);
	struct sockaddr_storage s = mcm_addr(test, src);

	return mcm_fake_ip_includes(t->fake, MCM_IF0, (struct sockaddr *)&g,
				    (struct sockaddr *)&s);
}

static struct rdma_mcm_member_info mcm_info(struct kunit *test,
					    struct rdma_mcm_ctx *ctx, u32 h)
{
	struct rdma_mcm_member_info info;

	KUNIT_ASSERT_EQ(test, rdma_mcm_query(ctx, h, &info), 0);
	return info;
}

/*
 * An IPv6 group on RoCE v2: rdma_cm refuses it; rdma_mcm joins it, with
 * an MLD membership on the netdev, the group as MGID and rdma_cm's Q_Key,
 * attaches the QP, and a leave takes all of it back without asking
 * rdma_cm to leave what it never joined.
 */
static void mcm_ipmc_v6_roce_v2_full(struct kunit *test)
{
	struct mcm_test *t = test->priv;
	struct rdma_mcm_ctx *ctx = mcm_open_on(test, "2001:db8::1", 0);
	struct sockaddr_in6 g = mcm_v6(test, "ff1e::1:1");
	struct rdma_mcm_member_info info;
	u32 h;

	h = mcm_join_src(test, ctx, "ff1e::1:1", NULL, RDMA_MCM_FULLMEMBER,
			 &t->fake->qp);
	KUNIT_EXPECT_EQ(test, t->fake->joins_v6_refused, 1);
	KUNIT_EXPECT_EQ(test, mcm_fake_count_joins(t->fake), 0);
	KUNIT_EXPECT_EQ(test, t->fake->roce_ahs, 1);
	KUNIT_EXPECT_EQ(test, mcm_ip(test, "ff1e::1:1").any_source, 1);
	KUNIT_EXPECT_EQ(test, t->fake->ip_socks, 1);
	rdma_mcm_flush();
	KUNIT_ASSERT_EQ(test, t->rec.joined, 1);
	KUNIT_EXPECT_MEMEQ(test, t->rec.last_join.mgid.raw, &g.sin6_addr, 16);
	KUNIT_EXPECT_MEMEQ(test,
			   rdma_ah_read_grh(&t->rec.last_join.ah_attr)->dgid.raw,
			   &g.sin6_addr, 16);
	KUNIT_EXPECT_EQ(test, t->rec.last_join.qkey, RDMA_UDP_QKEY);
	KUNIT_EXPECT_EQ(test, mcm_fake_attached_to(t->fake, &t->fake->qp), 1);
	info = mcm_info(test, ctx, h);
	KUNIT_EXPECT_EQ(test, info.state, RDMA_MCM_JOINED);
	KUNIT_EXPECT_TRUE(test, info.joined_by_mcm);
	KUNIT_EXPECT_EQ(test, info.nr_sources, 0U);

	KUNIT_EXPECT_EQ(test, rdma_mcm_leave(ctx, h), 0);
	KUNIT_EXPECT_EQ(test, mcm_ip(test, "ff1e::1:1").users, 0);
	KUNIT_EXPECT_EQ(test, t->fake->ip_leaves, 1);
	KUNIT_EXPECT_EQ(test, t->fake->ip_live, 0);
	KUNIT_EXPECT_EQ(test, t->fake->ip_socks, 1);	/* empty, kept */
	KUNIT_EXPECT_EQ(test, t->fake->leaves, 0);	/* rdma_cm holds nothing */
	KUNIT_EXPECT_EQ(test, t->fake->attached, 0);
	rdma_mcm_close(ctx);
	KUNIT_EXPECT_EQ(test, t->fake->ip_socks, 0);
}

/*
 * An IPv6 group rdma_mcm joined itself whose QP cannot be attached: the
 * membership fails, drops its MLD membership, and still says who joined it.
 */
static void mcm_ipmc_v6_attach_fails(struct kunit *test)
{
	struct mcm_test *t = test->priv;
	struct rdma_mcm_ctx *ctx = mcm_open_on(test, "2001:db8::1", 0);
	struct rdma_mcm_member_info info;
	u32 h;

	t->fake->attach_ret = -ENOMEM;
	h = mcm_join_src(test, ctx, "ff1e::1:5", NULL, RDMA_MCM_FULLMEMBER,
			 &t->fake->qp);
	rdma_mcm_flush();
	info = mcm_info(test, ctx, h);
	KUNIT_EXPECT_EQ(test, info.state, RDMA_MCM_ERROR);
	KUNIT_EXPECT_EQ(test, info.status, -ENOMEM);
	KUNIT_EXPECT_TRUE(test, info.joined_by_mcm);
	KUNIT_EXPECT_EQ(test, t->fake->ip_live, 0);
	KUNIT_EXPECT_EQ(test, t->rec.errors, 1);
	t->fake->attach_ret = 0;
	rdma_mcm_close(ctx);
}

/* Send-only: no MLD membership, as rdma_cm's send-only IPv4 joins send no IGMP. */
static void mcm_ipmc_v6_send_only(struct kunit *test)
{
	struct mcm_test *t = test->priv;
	struct rdma_mcm_ctx *ctx = mcm_open_on(test, "2001:db8::1", 0);
	u32 h;

	h = mcm_join_src(test, ctx, "ff1e::1:2", NULL,
			 RDMA_MCM_SENDONLY_FULLMEMBER, NULL);
	rdma_mcm_flush();
	KUNIT_EXPECT_EQ(test, t->rec.joined, 1);
	KUNIT_EXPECT_EQ(test, t->fake->ip_joins, 0);
	KUNIT_EXPECT_EQ(test, mcm_state(test, ctx, h), RDMA_MCM_JOINED);
	KUNIT_EXPECT_TRUE(test, mcm_info(test, ctx, h).joined_by_mcm);
	rdma_mcm_close(ctx);
	KUNIT_EXPECT_EQ(test, t->fake->ip_leaves, 0);
}

/*
 * Where rdma_cm takes an IPv6 group, it joins it on the device: RoCE v1
 * (a send-only join, the MLD membership rdma_mcm's, as for any RoCE full
 * member) and InfiniBand (the SA's full join, no MLD).
 */
static void mcm_ipmc_v6_where_rdma_cm_joins(struct kunit *test)
{
	struct mcm_test *t = test->priv;
	struct sockaddr_storage g = mcm_addr(test, "ff1e::1:3");
	struct mcm_fake_join *join;
	struct rdma_mcm_ctx *ctx;
	int ib;
	u32 h;

	for (ib = 0; ib < 2; ib++) {
		t->fake->roce_v1[0] = !ib;
		mcm_fake_set_ib(t->fake, 0, ib);
		ctx = mcm_open_on(test, "2001:db8::1", 0);
		h = mcm_join_src(test, ctx, "ff1e::1:3", NULL,
				 RDMA_MCM_FULLMEMBER, NULL);
		join = mcm_fake_find_join(t->fake, (struct sockaddr *)&g);
		KUNIT_ASSERT_NOT_NULL(test, join);
		KUNIT_EXPECT_EQ(test, join->join_state,
				ib ? BIT(FULLMEMBER_JOIN) :
				     BIT(SENDONLY_FULLMEMBER_JOIN));
		KUNIT_EXPECT_EQ(test, mcm_ip(test, "ff1e::1:3").any_source,
				!ib);
		KUNIT_EXPECT_EQ(test, mcm_fake_complete_all(t->fake), 1);
		rdma_mcm_flush();
		KUNIT_EXPECT_EQ(test, t->rec.joined, ib + 1);
		KUNIT_EXPECT_EQ(test, mcm_state(test, ctx, h), RDMA_MCM_JOINED);
		KUNIT_EXPECT_FALSE(test, mcm_info(test, ctx, h).joined_by_mcm);
		KUNIT_EXPECT_EQ(test, t->fake->joins_v6_refused, 0);
		KUNIT_EXPECT_EQ(test, t->fake->ip_joins, 1);	/* v1's */
		KUNIT_EXPECT_EQ(test, t->fake->roce_ahs, 0);
		rdma_mcm_close(ctx);
		KUNIT_EXPECT_EQ(test, t->fake->leaves, 0);	/* ids destroyed */
		KUNIT_EXPECT_EQ(test, mcm_ip(test, "ff1e::1:3").users, 0);
	}
}

/*
 * IPv4 full members on RoCE v2 hold their IGMP membership in rdma_mcm's
 * sockets, not through rdma_cm's device-level join, whose leave leaves the
 * netdev in EXCLUDE: so an any-source member's leave gives a
 * source-specific member of the group its INCLUDE filter back.
 */
static void mcm_ipmc_v4_any_source_leave_restores_include(struct kunit *test)
{
	static const char * const srcs[] = { "192.0.2.7", NULL };
	struct mcm_test *t = test->priv;
	const char *g = "232.1.1.9";
	struct rdma_mcm_ctx *a, *b;
	struct mcm_fake_ipstate st;
	u32 ha, hb;

	a = mcm_open_on(test, "192.0.2.1", 0);
	b = mcm_open_on(test, "192.0.2.1", 0);
	hb = mcm_join_src(test, b, g, srcs, RDMA_MCM_FULLMEMBER, NULL);
	ha = mcm_join_src(test, a, g, NULL, RDMA_MCM_FULLMEMBER, NULL);
	st = mcm_ip(test, g);
	KUNIT_EXPECT_EQ(test, st.users, 2);
	KUNIT_EXPECT_TRUE(test, st.exclude);
	KUNIT_EXPECT_EQ(test, rdma_mcm_leave(a, ha), 0);
	st = mcm_ip(test, g);
	KUNIT_EXPECT_EQ(test, st.users, 1);
	KUNIT_EXPECT_FALSE_MSG(test, st.exclude,
			       "the any-source member's leave left EXCLUDE");
	KUNIT_EXPECT_EQ(test, mcm_ip_includes(test, g, "192.0.2.7"), 1);
	KUNIT_EXPECT_EQ(test, rdma_mcm_leave(b, hb), 0);
	KUNIT_EXPECT_EQ(test, mcm_ip(test, g).users, 0);
	t->rec.ctx = NULL;
	rdma_mcm_close(a);
	rdma_mcm_close(b);
}

/*
 * Any-source memberships share sockets, as many as a socket takes (here
 * 3: the namespace's igmp_max_memberships), a socket that refuses one
 * more is full; a socket that has room again is used again, an empty one
 * is kept for the next socket needed; a source-specific membership has a
 * socket of its own (here the kept one).
 */
static void mcm_ipmc_sockets_shared(struct kunit *test)
{
	static const char * const srcs[] = { "192.0.2.7", NULL };
	struct mcm_test *t = test->priv;
	struct rdma_mcm_ctx *ctx = mcm_open_on(test, "192.0.2.1", 0);
	struct sockaddr_in g;
	u32 h[7];
	int i;

	t->fake->ip_sock_max = 3;
	for (i = 0; i < 7; i++)
		h[i] = mcm_join(test, ctx, MCM_GROUP(60 + i), NULL,
				RDMA_MCM_FULLMEMBER);
	KUNIT_EXPECT_EQ(test, t->fake->ip_socks, 3);	/* 3 + 3 + 1 */
	KUNIT_EXPECT_EQ(test, t->fake->ip_live, 7);
	KUNIT_EXPECT_EQ(test, t->fake->ip_joins, 9);	/* 2 refused: full */
	for (i = 0; i < 7; i++) {
		g = mcm_v4(MCM_GROUP(60 + i));
		KUNIT_EXPECT_EQ(test,
				mcm_fake_ip_state(t->fake, MCM_IF0,
						  (struct sockaddr *)&g).users,
				1);
	}
	/* the first socket has room again; the last one is left empty, kept */
	KUNIT_EXPECT_EQ(test, rdma_mcm_leave(ctx, h[0]), 0);
	KUNIT_EXPECT_EQ(test, rdma_mcm_leave(ctx, h[6]), 0);
	KUNIT_EXPECT_EQ(test, t->fake->ip_socks, 3);
	KUNIT_EXPECT_EQ(test, t->fake->ip_live, 5);
	mcm_join(test, ctx, MCM_GROUP(70), NULL, RDMA_MCM_FULLMEMBER);
	KUNIT_EXPECT_EQ(test, t->fake->ip_socks, 3);
	KUNIT_EXPECT_EQ(test, t->fake->ip_joins, 10);	/* the first socket */
	mcm_join_src(test, ctx, "232.1.1.10", srcs, RDMA_MCM_FULLMEMBER, NULL);
	KUNIT_EXPECT_EQ(test, t->fake->ip_socks, 3);
	KUNIT_EXPECT_EQ(test, t->fake->ip_opens, 3);
	rdma_mcm_close(ctx);
	KUNIT_EXPECT_EQ(test, t->fake->ip_socks, 0);
}

/*
 * Every leave gives its socket a place back: joins after leaves (churn)
 * fill the sockets there are instead of opening new ones. IPv6 sockets
 * have no group limit in the fake (as in the kernel, but option memory).
 */
static void mcm_ipmc_sockets_churn(struct kunit *test)
{
	struct mcm_test *t = test->priv;
	struct rdma_mcm_ctx *ctx = mcm_open_on(test, "2001:db8::1", 0);
	struct sockaddr_in6 g;
	char text[32];
	u32 *h;
	int i, round;

	h = kunit_kcalloc(test, 64, sizeof(*h), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, h);
	for (i = 0; i < 64; i++) {
		snprintf(text, sizeof(text), "ff1e::6:%x", i);
		h[i] = mcm_join_src(test, ctx, text, NULL, RDMA_MCM_FULLMEMBER,
				    NULL);
	}
	KUNIT_EXPECT_EQ(test, t->fake->ip_socks, 1);
	for (round = 1; round <= 4; round++) {
		for (i = 0; i < 32; i++)
			KUNIT_EXPECT_EQ(test, rdma_mcm_leave(ctx, h[i]), 0);
		for (i = 0; i < 32; i++) {
			snprintf(text, sizeof(text), "ff1e::6:%x", i);
			h[i] = mcm_join_src(test, ctx, text, NULL,
					    RDMA_MCM_FULLMEMBER, NULL);
		}
		KUNIT_EXPECT_EQ_MSG(test, t->fake->ip_socks, 1,
				    "round %d of churn", round);
	}
	g = mcm_v6(test, "ff1e::6:3f");
	KUNIT_EXPECT_EQ(test, mcm_fake_ip_state(t->fake, MCM_IF0,
						(struct sockaddr *)&g).users,
			1);
	rdma_mcm_close(ctx);
}

/*
 * A socket out of option memory for one more IPv6 group (-ENOMEM, where
 * IPv4's limit says -ENOBUFS) is full: the join goes to a new socket.
 */
static void mcm_ipmc_socket_out_of_optmem(struct kunit *test)
{
	struct mcm_test *t = test->priv;
	struct rdma_mcm_ctx *ctx = mcm_open_on(test, "2001:db8::1", 0);

	t->fake->ip_sock_max = 2;	/* the fake: -ENOMEM for IPv6 */
	mcm_join_src(test, ctx, "ff1e::7:1", NULL, RDMA_MCM_FULLMEMBER, NULL);
	mcm_join_src(test, ctx, "ff1e::7:2", NULL, RDMA_MCM_FULLMEMBER, NULL);
	mcm_join_src(test, ctx, "ff1e::7:3", NULL, RDMA_MCM_FULLMEMBER, NULL);
	KUNIT_EXPECT_EQ(test, t->fake->ip_socks, 2);
	KUNIT_EXPECT_EQ(test, t->fake->ip_live, 3);
	rdma_mcm_close(ctx);
}

/* InfiniBand: the SA's join, full or send-only, and no IGMP at all. */
static void mcm_ipmc_ib_has_no_ip_side(struct kunit *test)
{
	struct mcm_test *t = test->priv;
	struct rdma_mcm_ctx *ctx;
	struct mcm_fake_join *join;

	mcm_fake_set_ib(t->fake, 0, true);
	ctx = mcm_open_on(test, "192.0.2.1", 0);
	mcm_join(test, ctx, MCM_GROUP(71), NULL, RDMA_MCM_FULLMEMBER);
	join = mcm_fake_join_of(test, MCM_GROUP(71));
	KUNIT_EXPECT_EQ(test, join->join_state, BIT(FULLMEMBER_JOIN));
	KUNIT_EXPECT_EQ(test, t->fake->ip_opens, 0);
	KUNIT_EXPECT_EQ(test, t->fake->ip_joins, 0);
	rdma_mcm_close(ctx);
}

/*
 * IPv4, source-specific: the filter holds exactly the sources, rdma_cm is
 * asked for a send-only join (no IGMP of its own), the QP is attached as
 * for a full member, and a leave drops both.
 */
static void mcm_ipmc_ssm_v4(struct kunit *test)
{
	static const char * const srcs[] = { "192.0.2.7", "192.0.2.8", NULL };
	struct mcm_test *t = test->priv;
	struct rdma_mcm_ctx *ctx = mcm_open_on(test, "192.0.2.1", 0);
	struct sockaddr_storage g = mcm_addr(test, "232.1.1.1");
	struct mcm_fake_join *join;
	u32 h;

	h = mcm_join_src(test, ctx, "232.1.1.1", srcs, RDMA_MCM_FULLMEMBER,
			 &t->fake->qp);
	KUNIT_EXPECT_EQ(test, mcm_ip(test, "232.1.1.1").source_specific, 1);
	KUNIT_EXPECT_FALSE(test, mcm_ip(test, "232.1.1.1").exclude);
	KUNIT_EXPECT_EQ(test, mcm_ip_includes(test, "232.1.1.1", "192.0.2.7"), 1);
	KUNIT_EXPECT_EQ(test, mcm_ip_includes(test, "232.1.1.1", "192.0.2.8"), 1);
	KUNIT_EXPECT_EQ(test, mcm_ip_includes(test, "232.1.1.1", "192.0.2.9"), 0);
	join = mcm_fake_find_join(t->fake, (struct sockaddr *)&g);
	KUNIT_ASSERT_NOT_NULL(test, join);
	KUNIT_EXPECT_EQ(test, join->join_state, BIT(SENDONLY_FULLMEMBER_JOIN));
	mcm_fake_complete(t->fake, join, 0, false);
	rdma_mcm_flush();
	KUNIT_EXPECT_EQ(test, mcm_state(test, ctx, h), RDMA_MCM_JOINED);
	KUNIT_EXPECT_EQ(test, mcm_fake_attached_to(t->fake, &t->fake->qp), 1);
	KUNIT_EXPECT_EQ(test, mcm_info(test, ctx, h).nr_sources, 2U);
	KUNIT_EXPECT_FALSE(test, mcm_info(test, ctx, h).joined_by_mcm);

	KUNIT_EXPECT_EQ(test, rdma_mcm_leave(ctx, h), 0);
	KUNIT_EXPECT_EQ(test, join->leaves, 1);
	KUNIT_EXPECT_EQ(test, mcm_ip(test, "232.1.1.1").source_specific, 0);
	rdma_mcm_close(ctx);
}

/* IPv6, source-specific on RoCE v2: rdma_mcm's join, the filter only. */
static void mcm_ipmc_ssm_v6(struct kunit *test)
{
	static const char * const srcs[] = { "2001:db8::7", NULL };
	struct mcm_test *t = test->priv;
	struct rdma_mcm_ctx *ctx = mcm_open_on(test, "2001:db8::1", 0);
	struct mcm_fake_ipstate st;
	u32 h;

	h = mcm_join_src(test, ctx, "ff3e::8000:1", srcs, RDMA_MCM_FULLMEMBER,
			 NULL);
	/* rdma_cm refused the send-only join too: it holds nothing */
	KUNIT_EXPECT_EQ(test, t->fake->joins_v6_refused, 1);
	KUNIT_EXPECT_EQ(test, mcm_fake_count_joins(t->fake), 0);
	st = mcm_ip(test, "ff3e::8000:1");
	KUNIT_EXPECT_EQ(test, st.source_specific, 1);
	KUNIT_EXPECT_EQ(test, st.any_source, 0);
	KUNIT_EXPECT_EQ(test, mcm_ip_includes(test, "ff3e::8000:1",
					      "2001:db8::7"), 1);
	rdma_mcm_flush();
	KUNIT_EXPECT_EQ(test, mcm_state(test, ctx, h), RDMA_MCM_JOINED);
	KUNIT_EXPECT_TRUE(test, mcm_info(test, ctx, h).joined_by_mcm);
	KUNIT_EXPECT_EQ(test, mcm_info(test, ctx, h).nr_sources, 1U);
	rdma_mcm_close(ctx);
	KUNIT_EXPECT_EQ(test, mcm_ip(test, "ff3e::8000:1").source_specific, 0);
}

/*
 * Two owners of one group, one any-source and one source-specific: the
 * interface excludes nothing while the any-source member is there; when
 * it leaves, the interface includes the other's source; each leave takes
 * back only its own part.
 */
static void mcm_ipmc_owners_compose(struct kunit *test)
{
	static const char * const srcs[] = { "2001:db8::7", NULL };
	struct mcm_test *t = test->priv;
	struct rdma_mcm_ctx *a, *b;
	struct mcm_fake_ipstate st;
	const char *g = "ff1e::2:1";
	u32 ha, hb;

	a = mcm_open_on(test, "2001:db8::1", 0);
	b = mcm_open_on(test, "2001:db8::1", 0);
	/* one context's callbacks at a time: they share the recorder */
	ha = mcm_join_src(test, a, g, NULL, RDMA_MCM_FULLMEMBER, NULL);
	rdma_mcm_flush();
	hb = mcm_join_src(test, b, g, srcs, RDMA_MCM_FULLMEMBER, NULL);
	rdma_mcm_flush();
	st = mcm_ip(test, g);
	KUNIT_EXPECT_EQ(test, st.any_source, 1);
	KUNIT_EXPECT_EQ(test, st.source_specific, 1);
	KUNIT_EXPECT_TRUE(test, st.exclude);

	KUNIT_EXPECT_EQ(test, rdma_mcm_leave(a, ha), 0);
	st = mcm_ip(test, g);
	KUNIT_EXPECT_EQ(test, st.any_source, 0);
	KUNIT_EXPECT_FALSE(test, st.exclude);
	KUNIT_EXPECT_EQ(test, mcm_ip_includes(test, g, "2001:db8::7"), 1);

	ha = mcm_join_src(test, a, g, NULL, RDMA_MCM_FULLMEMBER, NULL);
	rdma_mcm_flush();
	KUNIT_EXPECT_EQ(test, rdma_mcm_leave(b, hb), 0);
	st = mcm_ip(test, g);
	KUNIT_EXPECT_EQ(test, st.any_source, 1);
	KUNIT_EXPECT_EQ(test, st.source_specific, 0);
	KUNIT_EXPECT_EQ(test, mcm_ip_includes(test, g, "2001:db8::7"), 0);
	rdma_mcm_flush();
	t->rec.ctx = NULL;
	rdma_mcm_close(a);
	rdma_mcm_close(b);
}

struct mcm_bad_sources_case {
	const char *desc;
	const char *group;
	const char *srcs[4];
	enum rdma_mcm_join_type type;
	int nr_override;	/* -1: one, with NULL sources; else that many */
	int want;
};

static const struct mcm_bad_sources_case mcm_bad_sources_cases[] = {
	{ "sources of a send-only join", "232.1.1.2", { "192.0.2.7" },
	  RDMA_MCM_SENDONLY_FULLMEMBER, 0, -EINVAL },
	{ "a multicast source", "232.1.1.2", { "239.1.1.1" },
	  RDMA_MCM_FULLMEMBER, 0, -EINVAL },
	{ "the any address", "232.1.1.2", { "0.0.0.0" },
	  RDMA_MCM_FULLMEMBER, 0, -EINVAL },
	{ "a source in 0.0.0.0/8", "232.1.1.2", { "0.1.2.3" },
	  RDMA_MCM_FULLMEMBER, 0, -EINVAL },
	{ "the broadcast address", "232.1.1.2", { "255.255.255.255" },
	  RDMA_MCM_FULLMEMBER, 0, -EINVAL },
	{ "an IPv6 source of an IPv4 group", "232.1.1.2", { "2001:db8::7" },
	  RDMA_MCM_FULLMEMBER, 0, -EINVAL },
	{ "a source given twice", "232.1.1.2",
	  { "192.0.2.7", "192.0.2.8", "192.0.2.7" }, RDMA_MCM_FULLMEMBER, 0,
	  -EINVAL },
	{ "NULL sources", "232.1.1.2", {}, RDMA_MCM_FULLMEMBER, -1, -EINVAL },
	{ "more than RDMA_MCM_MAX_SOURCES", "232.1.1.2", {},
	  RDMA_MCM_FULLMEMBER, RDMA_MCM_MAX_SOURCES + 1, -EINVAL },
};

static void mcm_bad_sources_to_desc(const struct mcm_bad_sources_case *c,
				    char *desc)
{
	strscpy(desc, c->desc, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(mcm_bad_sources, mcm_bad_sources_cases,
		  mcm_bad_sources_to_desc);

/* Each refused before rdma_cm or the IGMP side is asked for anything. */
static void mcm_ipmc_bad_sources(struct kunit *test)
{
	const struct mcm_bad_sources_case *c = test->param_value;
	struct mcm_test *t = test->priv;
	struct rdma_mcm_ctx *ctx = mcm_open_on(test, "192.0.2.1", 0);
	struct sockaddr_storage g = mcm_addr(test, c->group);
	struct rdma_mcm_join_req req = {
		.group = (struct sockaddr *)&g,
		.join_type = c->type,
	};
	struct sockaddr_storage *many;
	struct sockaddr_in *sin;
	u32 h = 0;
	int i;

	if (c->nr_override > 0) {
		/* that many distinct, valid sources */
		many = kunit_kcalloc(test, c->nr_override, sizeof(*many),
				     GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, many);
		for (i = 0; i < c->nr_override; i++) {
			sin = (struct sockaddr_in *)&many[i];
			*sin = mcm_v4(0xc0000300 + i);	/* 192.0.3.i */
		}
		req.sources = many;
	}
	if (c->nr_override) {
		req.nr_sources = c->nr_override > 0 ? c->nr_override : 1;
		KUNIT_EXPECT_EQ(test, rdma_mcm_join_ex(ctx, &req, &h), c->want);
	} else {
		KUNIT_EXPECT_EQ(test, mcm_try_join(test, ctx, c->group, c->srcs,
						   c->type, NULL, &h), c->want);
	}
	KUNIT_EXPECT_EQ(test, t->fake->joins_called, 0);
	KUNIT_EXPECT_EQ(test, t->fake->ip_joins, 0);
	KUNIT_EXPECT_EQ(test, rdma_mcm_live_read(RDMA_MCM_LIVE_MEMBERS), 0);
	rdma_mcm_close(ctx);
}

/* A source of an unknown family, and sources on InfiniBand. */
static void mcm_ipmc_sources_refused(struct kunit *test)
{
	static const char * const srcs[] = { "192.0.2.7", NULL };
	struct mcm_test *t = test->priv;
	struct sockaddr_storage g = mcm_addr(test, "232.1.1.3");
	struct sockaddr_storage unix_src = { .ss_family = AF_UNIX };
	struct rdma_mcm_join_req req = {
		.group = (struct sockaddr *)&g,
		.join_type = RDMA_MCM_FULLMEMBER,
		.sources = &unix_src,
		.nr_sources = 1,
	};
	struct rdma_mcm_ctx *ctx;
	u32 h;

	ctx = mcm_open_on(test, "192.0.2.1", 0);
	KUNIT_EXPECT_EQ(test, rdma_mcm_join_ex(ctx, &req, &h), -EAFNOSUPPORT);
	rdma_mcm_close(ctx);

	mcm_fake_set_ib(t->fake, 0, true);
	ctx = mcm_open_on(test, "192.0.2.1", 0);
	KUNIT_EXPECT_EQ(test, mcm_try_join(test, ctx, "232.1.1.3", srcs,
					   RDMA_MCM_FULLMEMBER, NULL, &h),
			-EOPNOTSUPP);
	KUNIT_EXPECT_EQ(test, t->fake->joins_called, 0);
	KUNIT_EXPECT_EQ(test, t->fake->ip_joins, 0);
	/* any-source still works there, with no IGMP side */
	mcm_join_src(test, ctx, "232.1.1.3", NULL, RDMA_MCM_FULLMEMBER, NULL);
	KUNIT_EXPECT_EQ(test, t->fake->ip_opens, 0);
	rdma_mcm_close(ctx);
}

/*
 * A step that fails takes back the steps before it: the filter when
 * rdma_cm fails, nothing of the MLD side when the address handle fails,
 * and no JOINED is ever reported for a join that failed.
 */
static void mcm_ipmc_join_failures_unwind(struct kunit *test)
{
	static const char * const srcs4[] = { "192.0.2.7", NULL };
	struct mcm_test *t = test->priv;
	struct rdma_mcm_ctx *ctx;
	u32 h;

	ctx = mcm_open_on(test, "192.0.2.1", 0);
	t->fake->ip_join_ret = -ENOBUFS;	/* over igmp_max_msf */
	KUNIT_EXPECT_EQ(test, mcm_try_join(test, ctx, "232.1.1.4", srcs4,
					   RDMA_MCM_FULLMEMBER, NULL, &h),
			-ENOBUFS);
	KUNIT_EXPECT_EQ(test, t->fake->joins_called, 0);
	t->fake->ip_join_ret = 0;
	t->fake->join_ret = -ENOMEM;
	KUNIT_EXPECT_EQ(test, mcm_try_join(test, ctx, "232.1.1.4", srcs4,
					   RDMA_MCM_FULLMEMBER, NULL, &h),
			-ENOMEM);
	KUNIT_EXPECT_EQ(test, t->fake->ip_live, 0);
	KUNIT_EXPECT_EQ(test, t->fake->ip_leaves, 1);
	KUNIT_EXPECT_EQ(test, t->fake->ip_socks, 1);	/* empty, kept */
	KUNIT_EXPECT_EQ(test, t->fake->ip_opens, 1);	/* for both joins */
	t->fake->join_ret = 0;
	rdma_mcm_close(ctx);
	KUNIT_EXPECT_EQ(test, t->fake->ip_socks, 0);

	ctx = mcm_open_on(test, "2001:db8::1", 0);
	/*
	 * sock_create_kern(): memory (inet6_create()'s -ENOBUFS), or no IPv6;
	 * first, while the context has no socket kept to use instead
	 */
	t->fake->ip_open_ret = -ENOBUFS;
	KUNIT_EXPECT_EQ(test, mcm_try_join(test, ctx, "ff1e::1:4", NULL,
					   RDMA_MCM_FULLMEMBER, NULL, &h),
			-ENOMEM);
	t->fake->ip_open_ret = -EAFNOSUPPORT;
	KUNIT_EXPECT_EQ(test, mcm_try_join(test, ctx, "ff1e::1:4", NULL,
					   RDMA_MCM_FULLMEMBER, NULL, &h),
			-EAFNOSUPPORT);
	t->fake->ip_open_ret = 0;
	t->fake->roce_ah_ret = -ENOENT;		/* the source's GID is gone */
	KUNIT_EXPECT_EQ(test, mcm_try_join(test, ctx, "ff1e::1:4", NULL,
					   RDMA_MCM_FULLMEMBER, NULL, &h),
			-EADDRNOTAVAIL);
	/* its MLD membership was held first, and taken back */
	KUNIT_EXPECT_EQ(test, t->fake->ip_joins, 3);
	KUNIT_EXPECT_EQ(test, t->fake->ip_live, 0);
	t->fake->roce_ah_ret = -EINVAL;		/* MTU too small */
	KUNIT_EXPECT_EQ(test, mcm_try_join(test, ctx, "ff1e::1:4", NULL,
					   RDMA_MCM_FULLMEMBER, NULL, &h),
			-EOPNOTSUPP);
	t->fake->roce_ah_ret = 0;
	t->fake->ip_join_ret = -ENODEV;
	KUNIT_EXPECT_EQ(test, mcm_try_join(test, ctx, "ff1e::1:4", NULL,
					   RDMA_MCM_FULLMEMBER, NULL, &h),
			-ENODEV);
	t->fake->ip_join_ret = -EINVAL;		/* IPv6 disabled on the netdev */
	KUNIT_EXPECT_EQ(test, mcm_try_join(test, ctx, "ff1e::1:4", NULL,
					   RDMA_MCM_FULLMEMBER, NULL, &h),
			-EADDRNOTAVAIL);
	t->fake->ip_join_ret = 0;
	/* every failed join after the first open used the one socket kept */
	KUNIT_EXPECT_EQ(test, t->fake->ip_opens, 4);
	rdma_mcm_flush();
	KUNIT_EXPECT_EQ(test, t->rec.joined, 0);
	KUNIT_EXPECT_EQ(test, t->fake->ip_live, 0);
	KUNIT_EXPECT_EQ(test, rdma_mcm_live_read(RDMA_MCM_LIVE_MEMBERS), 0);
	rdma_mcm_close(ctx);
}

/*
 * A leave while the JOINED of a group rdma_mcm joined itself still waits
 * for the work (behind another callback) cancels it: no ->joined(), the
 * MLD membership dropped, counted as a cancel.
 */
static void mcm_ipmc_cancel_queued_join(struct kunit *test)
{
	struct mcm_test *t = test->priv;
	struct rdma_mcm_ctx *ctx = mcm_open_on(test, "2001:db8::1", 0);
	u32 h1, h2;

	t->rec.on_joined = MCM_ACT_BLOCK;
	h1 = mcm_join_src(test, ctx, "ff1e::3:1", NULL, RDMA_MCM_FULLMEMBER,
			  NULL);
	wait_for_completion(&t->rec.block_entered);	/* the work is inside */
	t->rec.on_joined = MCM_ACT_NONE;
	h2 = mcm_join_src(test, ctx, "ff1e::3:2", NULL, RDMA_MCM_FULLMEMBER,
			  NULL);
	KUNIT_EXPECT_EQ(test, mcm_ip(test, "ff1e::3:2").any_source, 1);
	KUNIT_EXPECT_EQ(test, rdma_mcm_leave(ctx, h2), 0);
	KUNIT_EXPECT_EQ(test, mcm_ip(test, "ff1e::3:2").any_source, 0);
	KUNIT_EXPECT_EQ(test,
			atomic64_read(&ctx->counters.cnt[RDMA_MCM_CNT_CANCELS]),
			1);
	complete(&t->rec.block_release);
	rdma_mcm_flush();
	KUNIT_EXPECT_EQ(test, t->rec.joined, 1);
	KUNIT_EXPECT_EQ(test, t->rec.last_join.handle, h1);
	rdma_mcm_close(ctx);
}

/* Closing a context drops every filter and MLD membership it held. */
static void mcm_ipmc_close_leaves_all(struct kunit *test)
{
	static const char * const srcs[] = { "2001:db8::7", "2001:db8::8",
					     NULL };
	static const char * const groups[] = { "ff1e::4:1", "ff1e::4:2",
					       "ff3e::4:3", "ff3e::4:4" };
	struct mcm_test *t = test->priv;
	struct rdma_mcm_ctx *ctx = mcm_open_on(test, "2001:db8::1", 0);
	int i;

	for (i = 0; i < ARRAY_SIZE(groups); i++)
		mcm_join_src(test, ctx, groups[i], i >= 2 ? srcs : NULL,
			     RDMA_MCM_FULLMEMBER, &t->fake->qp);
	mcm_join_src(test, ctx, "ff1e::4:5", NULL, RDMA_MCM_SENDONLY_FULLMEMBER,
		     NULL);
	rdma_mcm_flush();
	KUNIT_EXPECT_EQ(test, t->fake->ip_live, 4);
	KUNIT_EXPECT_EQ(test, t->fake->ip_socks, 3);	/* 2 any-source: 1 */
	KUNIT_EXPECT_EQ(test, t->fake->attached, 4);
	KUNIT_EXPECT_EQ(test, mcm_ip_includes(test, "ff3e::4:4",
					      "2001:db8::8"), 1);
	rdma_mcm_close(ctx);
	KUNIT_EXPECT_EQ(test, t->fake->ip_live, 0);
	KUNIT_EXPECT_EQ(test, t->fake->ip_leaves, 4);
	KUNIT_EXPECT_EQ(test, t->fake->attached, 0);
}

/*
 * The device goes away from inside the MLD join, as ib_core's removal can
 * run beside any call: the join completes, then the membership loses the
 * device with its MLD membership dropped, waits, and is joined again by
 * rdma_mcm on the device's return, MLD and all.
 */
static void mcm_ipmc_device_lost_inside_ip_join(struct kunit *test)
{
	struct mcm_test *t = test->priv;
	struct rdma_mcm_ctx *ctx = mcm_open_on(test, "2001:db8::1",
					       RDMA_MCM_OPEN_HEAL);
	u32 h;

	t->fake->inject.at = MCM_FAKE_AT_IP_JOIN;
	t->fake->inject.what = MCM_FAKE_DO_REMOVE_DEVICE;
	h = mcm_join_src(test, ctx, "ff1e::5:1", NULL, RDMA_MCM_FULLMEMBER,
			 NULL);
	mcm_fake_remove_wait(t->fake);
	rdma_mcm_flush();
	KUNIT_EXPECT_EQ(test, t->fake->inject.fired, 1);
	KUNIT_EXPECT_EQ(test, mcm_state(test, ctx, h), RDMA_MCM_WAITING);
	KUNIT_EXPECT_EQ(test, t->fake->ip_live, 0);
	KUNIT_EXPECT_EQ(test, t->rec.removed, 1);

	mcm_fake_add_device(t->fake, 0);
	mcm_tick(test, ctx, 0);		/* finds the device again */
	mcm_tick(test, ctx, 0);		/* and rejoins */
	KUNIT_EXPECT_EQ(test, t->rec.added, 1);
	KUNIT_EXPECT_EQ(test, mcm_state(test, ctx, h), RDMA_MCM_JOINED);
	/*
	 * The first JOINED reaches the ULP before the loss (then REJOINING
	 * and REJOINED follow) or not (the loss takes its place, and the
	 * rejoin's JOINED is the first the ULP hears of): which, depends on
	 * whether the work or the remover gets there first, on two CPUs.
	 */
	KUNIT_EXPECT_EQ(test, t->rec.joined, 1);
	KUNIT_EXPECT_LE(test, t->rec.rejoined, 1);
	KUNIT_EXPECT_EQ(test, t->rec.rejoining, t->rec.rejoined);
	KUNIT_EXPECT_EQ(test, t->rec.order_errors, 0);
	KUNIT_EXPECT_EQ(test, mcm_ip(test, "ff1e::5:1").any_source, 1);
	KUNIT_EXPECT_EQ(test, t->fake->joins_v6_refused, 2);
	rdma_mcm_close(ctx);
}

/*
 * A port event (-ENETRESET) on a source-specific IPv4 membership: it
 * lets go of its filter while it waits, and its rejoin holds it again,
 * again with a send-only join of rdma_cm.
 */
static void mcm_ipmc_ssm_rejoins_with_filter(struct kunit *test)
{
	static const char * const srcs[] = { "192.0.2.7", NULL };
	struct mcm_test *t = test->priv;
	struct rdma_mcm_ctx *ctx = mcm_open_on(test, "192.0.2.1",
					       RDMA_MCM_OPEN_HEAL);
	struct sockaddr_storage g = mcm_addr(test, "232.1.1.5");
	struct mcm_fake_join *join;
	u32 h;

	h = mcm_join_src(test, ctx, "232.1.1.5", srcs, RDMA_MCM_FULLMEMBER,
			 NULL);
	join = mcm_fake_find_join(t->fake, (struct sockaddr *)&g);
	KUNIT_ASSERT_NOT_NULL(test, join);
	mcm_fake_complete(t->fake, join, 0, false);
	rdma_mcm_flush();
	mcm_fake_complete(t->fake, join, -ENETRESET, false);
	rdma_mcm_flush();
	KUNIT_EXPECT_EQ(test, mcm_state(test, ctx, h), RDMA_MCM_WAITING);
	KUNIT_EXPECT_EQ(test, t->fake->ip_live, 0);
	mcm_tick(test, ctx, MCM_MAX_MS);
	KUNIT_EXPECT_EQ(test, t->fake->joins_called, 2);
	KUNIT_EXPECT_EQ(test, t->fake->ip_joins, 2);
	KUNIT_EXPECT_EQ(test, mcm_ip_includes(test, "232.1.1.5", "192.0.2.7"), 1);
	join = mcm_fake_find_join(t->fake, (struct sockaddr *)&g);
	KUNIT_EXPECT_EQ(test, join->join_state, BIT(SENDONLY_FULLMEMBER_JOIN));
	mcm_fake_complete(t->fake, join, 0, false);
	rdma_mcm_flush();
	KUNIT_EXPECT_EQ(test, mcm_state(test, ctx, h), RDMA_MCM_JOINED);
	KUNIT_EXPECT_EQ(test, t->rec.rejoined, 1);
	rdma_mcm_close(ctx);
}

/*
 * A healing context whose address moves to an InfiniBand port: its
 * source-specific membership cannot be joined there (-EOPNOTSUPP, not a
 * state that heals) and ends in error, holding nothing; its any-source
 * membership is joined again through the SA.
 */
static void mcm_ipmc_ssm_moves_to_ib(struct kunit *test)
{
	static const char * const srcs[] = { "192.0.2.7", NULL };
	struct mcm_test *t = test->priv;
	struct rdma_mcm_ctx *ctx;
	u32 hs, ha, port;

	mcm_fake_set_ib(t->fake, 1, true);
	ctx = mcm_open_on(test, "192.0.2.1", RDMA_MCM_OPEN_HEAL);
	hs = mcm_join_src(test, ctx, "232.1.1.6", srcs, RDMA_MCM_FULLMEMBER,
			  NULL);
	ha = mcm_join_src(test, ctx, "239.1.1.6", NULL, RDMA_MCM_FULLMEMBER,
			  NULL);
	mcm_fake_complete_all(t->fake);
	rdma_mcm_flush();
	t->fake->bind_dev = 1;
	rdma_mcm_dev_changed(t->fake->ibdev[0], 1, RDMA_MCM_DEV_GID_CHANGED);
	mcm_tick(test, ctx, 0);		/* loses device 0 */
	mcm_tick(test, ctx, 0);		/* finds device 1, rejoins */
	KUNIT_ASSERT_PTR_EQ(test, rdma_mcm_device(ctx, &port),
			    t->fake->ibdev[1]);
	KUNIT_EXPECT_EQ(test, mcm_state(test, ctx, hs), RDMA_MCM_ERROR);
	KUNIT_EXPECT_EQ(test, mcm_info(test, ctx, hs).status, -EOPNOTSUPP);
	KUNIT_EXPECT_EQ(test, t->fake->ip_live, 0);
	KUNIT_EXPECT_EQ(test, mcm_state(test, ctx, ha), RDMA_MCM_JOINING);
	rdma_mcm_close(ctx);
}

/*
 * A socket left empty is kept for the next membership that needs one: a
 * join after a leave creates no socket, any-source or source-specific in
 * either order (a leave dropped the group with its filter: a filter's
 * socket is as clean as a shared one), and the kept socket holds nothing
 * of the netdev meanwhile.
 */
static void mcm_ipmc_socket_reused(struct kunit *test)
{
	static const char * const srcs[] = { "192.0.2.7", NULL };
	struct mcm_test *t = test->priv;
	struct rdma_mcm_ctx *ctx = mcm_open_on(test, "192.0.2.1", 0);
	const char *g = "232.1.1.11";
	struct mcm_fake_ipstate st;
	u32 h;

	h = mcm_join_src(test, ctx, g, NULL, RDMA_MCM_FULLMEMBER, NULL);
	KUNIT_EXPECT_EQ(test, rdma_mcm_leave(ctx, h), 0);
	KUNIT_EXPECT_EQ(test, t->fake->ip_socks, 1);
	KUNIT_EXPECT_EQ(test, t->fake->ip_live, 0);
	KUNIT_EXPECT_EQ(test, mcm_ip(test, g).users, 0);
	KUNIT_EXPECT_EQ(test, rdma_mcm_live_read(RDMA_MCM_LIVE_IPSOCKS), 1);

	h = mcm_join_src(test, ctx, g, NULL, RDMA_MCM_FULLMEMBER, NULL);
	KUNIT_EXPECT_EQ(test, t->fake->ip_opens, 1);
	KUNIT_EXPECT_EQ(test, mcm_ip(test, g).any_source, 1);
	KUNIT_EXPECT_EQ(test, rdma_mcm_leave(ctx, h), 0);

	/* the shared socket, empty, holds a source filter next */
	h = mcm_join_src(test, ctx, g, srcs, RDMA_MCM_FULLMEMBER, NULL);
	KUNIT_EXPECT_EQ(test, t->fake->ip_opens, 1);
	st = mcm_ip(test, g);
	KUNIT_EXPECT_EQ(test, st.any_source, 0);
	KUNIT_EXPECT_EQ(test, st.source_specific, 1);
	KUNIT_EXPECT_FALSE(test, st.exclude);
	KUNIT_EXPECT_EQ(test, mcm_ip_includes(test, g, "192.0.2.7"), 1);
	KUNIT_EXPECT_EQ(test, rdma_mcm_leave(ctx, h), 0);

	/* and the filter's socket, empty, any-source groups */
	mcm_join_src(test, ctx, g, NULL, RDMA_MCM_FULLMEMBER, NULL);
	mcm_join_src(test, ctx, "239.1.1.11", NULL, RDMA_MCM_FULLMEMBER, NULL);
	KUNIT_EXPECT_EQ(test, t->fake->ip_opens, 1);
	KUNIT_EXPECT_EQ(test, t->fake->ip_socks, 1);
	st = mcm_ip(test, g);
	KUNIT_EXPECT_EQ(test, st.any_source, 1);
	KUNIT_EXPECT_EQ(test, st.source_specific, 0);
	KUNIT_EXPECT_TRUE(test, st.exclude);
	KUNIT_EXPECT_EQ(test, mcm_ip_includes(test, g, "192.0.2.7"), 0);
	KUNIT_EXPECT_EQ(test, t->fake->ip_joins, 5);
	KUNIT_EXPECT_EQ(test, t->fake->ip_leaves, 3);
	rdma_mcm_close(ctx);
	KUNIT_EXPECT_EQ(test, t->fake->ip_socks, 0);
	KUNIT_EXPECT_EQ(test, t->fake->ip_live, 0);
	KUNIT_EXPECT_EQ(test, rdma_mcm_live_read(RDMA_MCM_LIVE_IPSOCKS), 0);
}

/*
 * A context keeps one empty socket: of two sockets left empty, the second
 * is closed; the kept one serves the next join, and the one after it
 * needs a new socket again.
 */
static void mcm_ipmc_spare_one_per_context(struct kunit *test)
{
	static const char * const s1[] = { "192.0.2.7", NULL };
	static const char * const s2[] = { "192.0.2.8", NULL };
	struct mcm_test *t = test->priv;
	struct rdma_mcm_ctx *ctx = mcm_open_on(test, "192.0.2.1", 0);
	u32 h1, h2;

	h1 = mcm_join_src(test, ctx, "232.1.1.12", s1, RDMA_MCM_FULLMEMBER,
			  NULL);
	h2 = mcm_join_src(test, ctx, "232.1.1.13", s2, RDMA_MCM_FULLMEMBER,
			  NULL);
	KUNIT_EXPECT_EQ(test, t->fake->ip_socks, 2);
	KUNIT_EXPECT_EQ(test, rdma_mcm_leave(ctx, h1), 0);
	KUNIT_EXPECT_EQ(test, t->fake->ip_socks, 2);	/* h1's, kept */
	KUNIT_EXPECT_EQ(test, rdma_mcm_leave(ctx, h2), 0);
	KUNIT_EXPECT_EQ(test, t->fake->ip_socks, 1);	/* h2's, closed */
	KUNIT_EXPECT_EQ(test, t->fake->ip_live, 0);
	KUNIT_EXPECT_EQ(test, rdma_mcm_live_read(RDMA_MCM_LIVE_IPSOCKS), 1);
	mcm_join_src(test, ctx, "232.1.1.12", s1, RDMA_MCM_FULLMEMBER, NULL);
	KUNIT_EXPECT_EQ(test, t->fake->ip_opens, 2);
	mcm_join_src(test, ctx, "232.1.1.13", s2, RDMA_MCM_FULLMEMBER, NULL);
	KUNIT_EXPECT_EQ(test, t->fake->ip_opens, 3);
	KUNIT_EXPECT_EQ(test, t->fake->ip_socks, 2);
	rdma_mcm_close(ctx);
	KUNIT_EXPECT_EQ(test, t->fake->ip_socks, 0);
}

/*
 * Closing a context closes its kept socket: alone (no membership left),
 * or beside the sockets of the memberships close leaves.
 */
static void mcm_ipmc_spare_closed_with_context(struct kunit *test)
{
	static const char * const srcs[] = { "2001:db8::7", NULL };
	struct mcm_test *t = test->priv;
	struct rdma_mcm_ctx *ctx;
	u32 h;

	ctx = mcm_open_on(test, "2001:db8::1", 0);
	h = mcm_join_src(test, ctx, "ff1e::8:1", NULL, RDMA_MCM_FULLMEMBER,
			 NULL);
	KUNIT_EXPECT_EQ(test, rdma_mcm_leave(ctx, h), 0);
	KUNIT_EXPECT_EQ(test, t->fake->ip_socks, 1);
	rdma_mcm_flush();
	rdma_mcm_close(ctx);
	KUNIT_EXPECT_EQ(test, t->fake->ip_socks, 0);
	KUNIT_EXPECT_EQ(test, rdma_mcm_live_read(RDMA_MCM_LIVE_IPSOCKS), 0);

	ctx = mcm_open_on(test, "2001:db8::1", 0);
	mcm_join_src(test, ctx, "ff1e::8:2", NULL, RDMA_MCM_FULLMEMBER, NULL);
	h = mcm_join_src(test, ctx, "ff3e::8:3", srcs, RDMA_MCM_FULLMEMBER,
			 NULL);
	KUNIT_EXPECT_EQ(test, rdma_mcm_leave(ctx, h), 0);
	KUNIT_EXPECT_EQ(test, t->fake->ip_socks, 2);	/* one kept, empty */
	KUNIT_EXPECT_EQ(test, t->fake->ip_live, 1);
	rdma_mcm_flush();
	rdma_mcm_close(ctx);
	KUNIT_EXPECT_EQ(test, t->fake->ip_socks, 0);
	KUNIT_EXPECT_EQ(test, t->fake->ip_live, 0);
	KUNIT_EXPECT_EQ(test, t->fake->ip_opens, 3);
	KUNIT_EXPECT_EQ(test, rdma_mcm_live_read(RDMA_MCM_LIVE_IPSOCKS), 0);
}

/*
 * Losing the device closes the kept socket with the memberships' (a
 * healing context may wait long for the next device); the rejoin on the
 * device's return opens a socket again.
 */
static void mcm_ipmc_spare_closed_on_device_loss(struct kunit *test)
{
	static const char * const srcs[] = { "2001:db8::7", NULL };
	struct mcm_test *t = test->priv;
	struct rdma_mcm_ctx *ctx = mcm_open_on(test, "2001:db8::1",
					       RDMA_MCM_OPEN_HEAL);
	u32 h1, h2;

	h1 = mcm_join_src(test, ctx, "ff1e::9:1", NULL, RDMA_MCM_FULLMEMBER,
			  NULL);
	h2 = mcm_join_src(test, ctx, "ff3e::9:2", srcs, RDMA_MCM_FULLMEMBER,
			  NULL);
	rdma_mcm_flush();
	KUNIT_EXPECT_EQ(test, rdma_mcm_leave(ctx, h2), 0);
	KUNIT_EXPECT_EQ(test, t->fake->ip_socks, 2);	/* h2's, kept */
	mcm_fake_remove_device(t->fake, 0);
	rdma_mcm_flush();
	KUNIT_EXPECT_EQ(test, t->rec.removed, 1);
	KUNIT_EXPECT_EQ(test, mcm_state(test, ctx, h1), RDMA_MCM_WAITING);
	KUNIT_EXPECT_EQ(test, t->fake->ip_live, 0);
	KUNIT_EXPECT_EQ(test, t->fake->ip_socks, 0);
	KUNIT_EXPECT_EQ(test, rdma_mcm_live_read(RDMA_MCM_LIVE_IPSOCKS), 0);

	mcm_fake_add_device(t->fake, 0);
	mcm_tick(test, ctx, 0);		/* finds the device again */
	mcm_tick(test, ctx, 0);		/* and rejoins */
	KUNIT_EXPECT_EQ(test, mcm_state(test, ctx, h1), RDMA_MCM_JOINED);
	KUNIT_EXPECT_EQ(test, mcm_ip(test, "ff1e::9:1").any_source, 1);
	KUNIT_EXPECT_EQ(test, t->fake->ip_socks, 1);
	KUNIT_EXPECT_EQ(test, t->fake->ip_opens, 3);
	rdma_mcm_close(ctx);
	KUNIT_EXPECT_EQ(test, t->fake->ip_socks, 0);
}

static struct kunit_case rdma_mcm_ipmc_cases[] = {
	KUNIT_CASE(mcm_ipmc_v6_roce_v2_full),
	KUNIT_CASE(mcm_ipmc_v6_attach_fails),
	KUNIT_CASE(mcm_ipmc_v6_send_only),
	KUNIT_CASE(mcm_ipmc_v6_where_rdma_cm_joins),
	KUNIT_CASE(mcm_ipmc_v4_any_source_leave_restores_include),
	KUNIT_CASE(mcm_ipmc_sockets_shared),
	KUNIT_CASE(mcm_ipmc_sockets_churn),
	KUNIT_CASE(mcm_ipmc_socket_out_of_optmem),
	KUNIT_CASE(mcm_ipmc_ib_has_no_ip_side),
	KUNIT_CASE(mcm_ipmc_ssm_v4),
	KUNIT_CASE(mcm_ipmc_ssm_v6),
	KUNIT_CASE(mcm_ipmc_owners_compose),
	KUNIT_CASE_PARAM(mcm_ipmc_bad_sources, mcm_bad_sources_gen_params),
	KUNIT_CASE(mcm_ipmc_sources_refused),
	KUNIT_CASE(mcm_ipmc_join_failures_unwind),
	KUNIT_CASE(mcm_ipmc_cancel_queued_join),
	KUNIT_CASE(mcm_ipmc_close_leaves_all),
	KUNIT_CASE(mcm_ipmc_device_lost_inside_ip_join),
	KUNIT_CASE(mcm_ipmc_ssm_rejoins_with_filter),
	KUNIT_CASE(mcm_ipmc_ssm_moves_to_ib),
	KUNIT_CASE(mcm_ipmc_socket_reused),
	KUNIT_CASE(mcm_ipmc_spare_one_per_context),
	KUNIT_CASE(mcm_ipmc_spare_closed_with_context),
	KUNIT_CASE(mcm_ipmc_spare_closed_on_device_loss),
	{}
};

static struct kunit_suite rdma_mcm_ipmc_suite = {
	.name = "rdma_mcm_ipmc",
	.init = mcm_test_init,
	.exit = mcm_test_exit,
	.test_cases = rdma_mcm_ipmc_cases,
};

kunit_test_suite(rdma_mcm_ipmc_suite);
