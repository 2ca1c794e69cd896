// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * KUnit: healing contexts against the fake backend, on the fake's clock.
 *
 * The fake does not run the manager's rejoin work (it records the arming;
 * with real_arm it also arms the real work an hour ahead, to be seen
 * pending): each case moves the fake's clock and runs the rejoins itself
 * (rdma_mcm_rejoin_run()), so backoff and rate limits are checked without
 * sleeping, against the clock values the fake recorded for each
 * rdma_join_multicast().
 */
#include <kunit/test.h>
#include <linux/inet.h>
#include <net/net_namespace.h>

#include "rdma_mcm_test_util.h"

/* A healing context on 192.0.2.1, with the module's default knobs. */
static struct rdma_mcm_ctx *mcm_open_heal(struct kunit *test)
{
	struct sockaddr_in src = mcm_v4(MCM_SRC);

	return mcm_open_at(test, (struct sockaddr *)&src, RDMA_MCM_OPEN_HEAL);
}

/* The backoff doubles from the minimum to the maximum, then stays. */
static void mcm_backoff_sequence(struct kunit *test)
{
	static const u32 want[] = { 1000, 2000, 4000, 8000, 16000, 16000 };
	u32 b = 0;
	int i;

	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, mcm_restore_params,
							NULL), 0);
	mcm_restore_params(NULL);
	for (i = 0; i < ARRAY_SIZE(want); i++) {
		b = rdma_mcm_backoff_next(b);
		KUNIT_EXPECT_EQ(test, b, want[i]);
	}
	rdma_mcm_backoff_max_ms = 5000;		/* not a power of two */
	KUNIT_EXPECT_EQ(test, rdma_mcm_backoff_next(4000), 5000U);
	KUNIT_EXPECT_EQ(test, rdma_mcm_backoff_next(5000), 5000U);
}

/*
 * MULTICAST_ERROR(-ENETRESET) on a joined membership: ->rejoining() with
 * the reason, the QP detached and rdma_cm's membership left, WAITING;
 * after the backoff the same handle is joined again, ->rejoined(), the QP
 * attached again, one rejoin counted.
 */
static void mcm_heal_rejoins_same_handle(struct kunit *test)
{
	struct mcm_test *t = test->priv;
	struct rdma_mcm_ctx *ctx = mcm_open_heal(test);
	struct rdma_mcm_member_info info;
	struct mcm_fake_join *join;
	u32 h;

	h = mcm_join(test, ctx, MCM_GROUP(1), &t->fake->qp, RDMA_MCM_FULLMEMBER);
	mcm_fake_complete_all(t->fake);
	rdma_mcm_flush();
	KUNIT_ASSERT_EQ(test, t->fake->attached, 1);
	join = mcm_fake_join_of(test, MCM_GROUP(1));

	mcm_fake_complete(t->fake, join, -ENETRESET, false);
	rdma_mcm_flush();
	KUNIT_EXPECT_EQ(test, t->rec.errors, 0);
	KUNIT_EXPECT_EQ(test, t->rec.rejoining, 1);
	KUNIT_EXPECT_EQ(test, t->rec.last_reason, -ENETRESET);
	KUNIT_EXPECT_EQ(test, t->rec.last_rejoining_handle, h);
	KUNIT_EXPECT_EQ(test, mcm_state(test, ctx, h), RDMA_MCM_WAITING);
	KUNIT_EXPECT_EQ(test, t->fake->attached, 0);
	KUNIT_EXPECT_EQ(test, join->leaves, 1);
	KUNIT_EXPECT_GT(test, t->fake->armed, 0);

	/* not before the backoff (3/4 of 1 s with the fake's jitter 0) */
	mcm_tick(test, ctx, 700);
	KUNIT_EXPECT_EQ(test, t->fake->joins_called, 1);
	mcm_tick(test, ctx, 100);
	KUNIT_EXPECT_EQ(test, t->fake->joins_called, 2);
	KUNIT_EXPECT_EQ(test, mcm_state(test, ctx, h), RDMA_MCM_JOINING);
	join = mcm_fake_join_of(test, MCM_GROUP(1));
	KUNIT_EXPECT_EQ(test, (u32)(uintptr_t)join->context, h);
	mcm_fake_complete(t->fake, join, 0, false);
	rdma_mcm_flush();
	KUNIT_EXPECT_EQ(test, t->rec.rejoined, 1);
	KUNIT_EXPECT_EQ(test, t->rec.joined, 1);	/* the first join only */
	KUNIT_EXPECT_EQ(test, t->rec.last_rejoin.handle, h);
	KUNIT_EXPECT_EQ(test, t->rec.last_rejoin.rejoins, 1U);
	KUNIT_EXPECT_EQ(test, t->fake->attached, 1);
	KUNIT_ASSERT_EQ(test, rdma_mcm_query(ctx, h, &info), 0);
	KUNIT_EXPECT_EQ(test, info.state, RDMA_MCM_JOINED);
	KUNIT_EXPECT_EQ(test, info.rejoins, 1U);
	KUNIT_EXPECT_EQ(test, info.last_status, -ENETRESET);
	KUNIT_EXPECT_NE(test, info.state_time_ns, 0ULL);
	rdma_mcm_close(ctx);
}

/* rdma_mcm's places for QP attachments on the fake's device 0 */
static u32 mcm_attaches_held(struct mcm_test *t)
{
	u32 v[__RDMA_MCM_MCAST_MAX] = {};

	rdma_mcm_admit_usage(t->fake->ibdev[0], v);
	return v[RDMA_MCM_MCAST_ATTACHES];
}

/*
 * A group the SA assigned (joined as ::) is rejoined by its MGID after a
 * loss: the same group, not a new one; its rdma_cm membership is left by
 * the address it was joined with each time (:: first, the MGID after).
 */
static void mcm_heal_sa_assigned_rejoins_its_mgid(struct kunit *test)
{
	struct mcm_test *t = test->priv;
	struct sockaddr_in6 src = mcm_v6(test, "2001:db8::1");
	struct sockaddr_in6 any = { .sin6_family = AF_INET6 };
	struct rdma_mcm_member_info info;
	struct mcm_fake_join *join;
	struct rdma_mcm_ctx *ctx;
	union ib_gid mgid;
	u32 h;

	mcm_fake_set_ib(t->fake, 0, true);
	ctx = mcm_open_at(test, (struct sockaddr *)&src, RDMA_MCM_OPEN_HEAL);
	KUNIT_ASSERT_EQ(test, rdma_mcm_join(ctx, (struct sockaddr *)&any,
					    RDMA_MCM_FULLMEMBER, &t->fake->qp,
					    NULL, &h), 0);
	mcm_fake_complete_all(t->fake);
	rdma_mcm_flush();
	KUNIT_ASSERT_EQ(test, rdma_mcm_query(ctx, h, &info), 0);
	mgid = info.mgid;
	KUNIT_ASSERT_EQ(test, mgid.raw[3], 0x1b);
	join = mcm_fake_find_join(t->fake, (struct sockaddr *)&any);
	KUNIT_ASSERT_NOT_NULL(test, join);

	KUNIT_EXPECT_EQ(test, mcm_attaches_held(t), 1U);
	mcm_fake_complete(t->fake, join, -ENETRESET, false);
	rdma_mcm_flush();
	KUNIT_EXPECT_EQ(test, join->leaves, 1);
	/* a waiting membership holds no place against the device's limits */
	KUNIT_EXPECT_EQ(test, mcm_attaches_held(t), 0U);
	mcm_tick(test, ctx, MCM_MIN_MS);
	KUNIT_EXPECT_EQ(test, mcm_attaches_held(t), 1U);
	KUNIT_ASSERT_EQ(test, t->fake->joins_called, 2);
	memcpy(&src.sin6_addr, mgid.raw, 16);	/* the MGID as an address */
	join = mcm_fake_find_join(t->fake, (struct sockaddr *)&src);
	KUNIT_ASSERT_NOT_NULL(test, join);
	KUNIT_EXPECT_EQ(test, (u32)(uintptr_t)join->context, h);
	mcm_fake_complete(t->fake, join, 0, false);
	rdma_mcm_flush();
	KUNIT_EXPECT_EQ(test, t->rec.rejoined, 1);
	KUNIT_ASSERT_EQ(test, rdma_mcm_query(ctx, h, &info), 0);
	KUNIT_EXPECT_EQ(test, memcmp(info.mgid.raw, mgid.raw, 16), 0);
	KUNIT_EXPECT_EQ(test, t->fake->attached, 1);
	KUNIT_EXPECT_EQ(test, rdma_mcm_leave(ctx, h), 0);
	KUNIT_EXPECT_EQ(test, join->leaves, 1);
	KUNIT_EXPECT_EQ(test, t->fake->attached, 0);
	KUNIT_EXPECT_EQ(test, mcm_attaches_held(t), 0U);
	rdma_mcm_close(ctx);
}

/*
 * Membership y is joined, told so, loses its group and is rejoined; then
 * queue the rejoin's JOINED and another loss for y before the work gets
 * to them (it is held in membership x's ->joined()), let the work go on,
 * and return with the work inside y's second ->rejoining(), its next
 * rejoin due on the fake's clock, and rdma_mcm_rejoin_run() called: that
 * rejoin is sent.
 */
static void mcm_stale_joined_setup(struct kunit *test,
				   struct rdma_mcm_ctx *ctx, u32 x_group,
				   u32 y_group)
{
	struct mcm_test *t = test->priv;
	struct mcm_fake_join *join;

	join = mcm_fake_join_of(test, y_group);
	mcm_fake_complete(t->fake, join, 0, false);
	rdma_mcm_flush();
	KUNIT_ASSERT_EQ(test, t->rec.joined, 1);
	mcm_fake_complete(t->fake, join, -ENETRESET, false);
	rdma_mcm_flush();
	KUNIT_ASSERT_EQ(test, t->rec.rejoining, 1);
	mcm_tick(test, ctx, 1000);
	KUNIT_ASSERT_EQ(test, mcm_fake_count_joins(t->fake), 3);

	t->rec.on_joined = MCM_ACT_BLOCK;
	mcm_fake_complete(t->fake, mcm_fake_join_of(test, x_group), 0, false);
	KUNIT_ASSERT_GT(test, wait_for_completion_timeout(&t->rec.block_entered,
							  10 * HZ), 0UL);
	t->rec.on_joined = MCM_ACT_NONE;
	join = mcm_fake_join_of(test, y_group);
	mcm_fake_complete(t->fake, join, 0, false);
	mcm_fake_complete(t->fake, join, -ENETRESET, false);
	t->rec.block_on_rejoining = true;
	complete(&t->rec.block_release);
	KUNIT_ASSERT_GT(test,
			wait_for_completion_timeout(&t->rec.rejoining_entered,
						    10 * HZ), 0UL);
	/* the backoff doubled: the stale JOINED reset nothing */
	t->fake->clock_ms += 2000;
	rdma_mcm_rejoin_run(ctx);
}

/* Let the work out of ->rejoining() and deliver the rest. */
static void mcm_stale_joined_release(struct kunit *test)
{
	struct mcm_test *t = test->priv;

	t->rec.block_on_rejoining = false;
	complete(&t->rec.rejoining_release);
	rdma_mcm_flush();
}

/*
 * A rejoin's event, then its loss, both queued before the work gets to
 * them: the JOINED is stale. The next rejoin runs, and its event comes,
 * while ->rejoining() runs: the ULP hears ->rejoining() and then one
 * ->rejoined(), never one of the lost rejoin (nor a JOINED without its
 * address handle attributes: WARN).
 */
static void mcm_heal_stale_joined_after_loss(struct kunit *test)
{
	struct mcm_test *t = test->priv;
	struct rdma_mcm_ctx *ctx = mcm_open_heal(test);
	u32 x, y;

	x = mcm_join(test, ctx, MCM_GROUP(90), NULL,
		     RDMA_MCM_SENDONLY_FULLMEMBER);
	y = mcm_join(test, ctx, MCM_GROUP(91), NULL,
		     RDMA_MCM_SENDONLY_FULLMEMBER);
	mcm_stale_joined_setup(test, ctx, MCM_GROUP(90), MCM_GROUP(91));
	/* inside y's ->rejoining(): the rejoin's event comes */
	KUNIT_EXPECT_EQ(test, mcm_state(test, ctx, y), RDMA_MCM_JOINING);
	mcm_fake_complete(t->fake, mcm_fake_join_of(test, MCM_GROUP(91)), 0,
			  false);
	mcm_stale_joined_release(test);

	KUNIT_EXPECT_EQ(test, t->rec.joined, 2);	/* y's first join, x */
	KUNIT_EXPECT_EQ(test, t->rec.last_join.handle, x);
	KUNIT_EXPECT_EQ(test, t->rec.rejoining, 2);
	KUNIT_EXPECT_EQ(test, t->rec.rejoined, 1);
	KUNIT_EXPECT_EQ(test, t->rec.last_rejoin.handle, y);
	KUNIT_EXPECT_EQ(test, t->rec.last_rejoin.rejoins, 1U);
	KUNIT_EXPECT_EQ(test, mcm_state(test, ctx, y), RDMA_MCM_JOINED);
	rdma_mcm_close(ctx);
}

/*
 * As above, but the rejoin's event comes only after ->rejoining() has
 * returned: the stale JOINED must not mark the rejoin in flight joined
 * (nor its QP attached) and then drop the rejoin's real event; the ULP
 * hears ->rejoined() when that event comes, with the QP attached.
 */
static void mcm_heal_stale_joined_rejoin_later(struct kunit *test)
{
	struct mcm_test *t = test->priv;
	struct rdma_mcm_ctx *ctx = mcm_open_heal(test);
	u32 y;

	mcm_join(test, ctx, MCM_GROUP(92), NULL, RDMA_MCM_SENDONLY_FULLMEMBER);
	y = mcm_join(test, ctx, MCM_GROUP(93), &t->fake->qp,
		     RDMA_MCM_FULLMEMBER);
	mcm_stale_joined_setup(test, ctx, MCM_GROUP(92), MCM_GROUP(93));
	mcm_stale_joined_release(test);	/* the rejoin is sent; no event yet */
	KUNIT_EXPECT_EQ(test, mcm_state(test, ctx, y), RDMA_MCM_JOINING);
	KUNIT_EXPECT_EQ(test, t->rec.rejoined, 0);
	KUNIT_EXPECT_EQ(test, t->fake->attached, 0);

	mcm_fake_complete(t->fake, mcm_fake_join_of(test, MCM_GROUP(93)), 0,
			  false);
	rdma_mcm_flush();
	KUNIT_EXPECT_EQ(test, mcm_state(test, ctx, y), RDMA_MCM_JOINED);
	KUNIT_EXPECT_EQ(test, t->rec.rejoined, 1);
	KUNIT_EXPECT_EQ(test, t->rec.last_rejoin.handle, y);
	KUNIT_EXPECT_EQ(test, t->fake->attached, 1);
	KUNIT_EXPECT_EQ(test, t->rec.joined, 2);
	rdma_mcm_close(ctx);
}

#ifdef CONFIG_FAULT_INJECTION
/*
 * A first join's event whose address handle attributes find no room: in
 * a healing context a loss like any -ENOMEM, rdma_cm's membership left,
 * joined again after the backoff. Its ULP was never told of a JOINED, so
 * it hears no ->rejoining(), and the JOINED that ends the retry is a
 * ->joined() (kernel review finding 2: ->rejoining() then ->rejoined()
 * at 8998c5d, never ->joined()).
 */
static void mcm_heal_join_event_enomem(struct kunit *test)
{
	struct mcm_test *t = test->priv;
	struct rdma_mcm_ctx *ctx = mcm_open_heal(test);
	struct rdma_mcm_member_info info;
	struct mcm_fake_join *join;
	u32 h;

	h = mcm_join(test, ctx, MCM_GROUP(94), NULL,
		     RDMA_MCM_SENDONLY_FULLMEMBER);
	join = mcm_fake_join_of(test, MCM_GROUP(94));
	/* the handler runs in this thread: its first allocation fails */
	WRITE_ONCE(current->fail_nth, 1);
	mcm_fake_complete(t->fake, join, 0, false);
	KUNIT_EXPECT_EQ(test, READ_ONCE(current->fail_nth), 0U);
	WRITE_ONCE(current->fail_nth, 0);
	rdma_mcm_flush();
	KUNIT_EXPECT_EQ(test, t->rec.joined, 0);
	KUNIT_EXPECT_EQ(test, t->rec.errors, 0);
	KUNIT_EXPECT_EQ(test, t->rec.rejoining, 0);
	KUNIT_ASSERT_EQ(test, rdma_mcm_query(ctx, h, &info), 0);
	KUNIT_EXPECT_EQ(test, info.state, RDMA_MCM_WAITING);
	KUNIT_EXPECT_EQ(test, info.status, -ENOMEM);
	KUNIT_EXPECT_EQ(test, join->leaves, 1);
	mcm_tick(test, ctx, 1000);
	mcm_fake_complete(t->fake, mcm_fake_join_of(test, MCM_GROUP(94)), 0,
			  false);
	rdma_mcm_flush();
	KUNIT_EXPECT_EQ(test, t->rec.joined, 1);
	KUNIT_EXPECT_EQ(test, t->rec.rejoined, 0);
	KUNIT_EXPECT_EQ(test, t->rec.last_join.rejoins, 0U);
	KUNIT_EXPECT_EQ(test, mcm_state(test, ctx, h), RDMA_MCM_JOINED);
	rdma_mcm_close(ctx);
}
#else
static void mcm_heal_join_event_enomem(struct kunit *test)
{
	kunit_skip(test, "needs CONFIG_FAULT_INJECTION");
}
#endif

/*
 * Every rejoin that fails waits twice as long, up to the maximum; with
 * the fake's jitter at its highest, a quarter more. The clock of each
 * join says when it was asked for.
 */
static void mcm_heal_backoff_schedule(struct kunit *test)
{
	struct mcm_test *t = test->priv;
	struct rdma_mcm_ctx *ctx = mcm_open_heal(test);
	static const u32 backoff[] = { 1000, 2000, 4000, 8000, 16000, 16000 };
	u64 last;
	int i, jitter;

	for (jitter = 0; jitter < 2; jitter++) {
		u32 group = MCM_GROUP(10 + jitter);
		u32 h;

		t->fake->jitter = jitter ? U32_MAX : 0;
		mcm_fake_record_joins(t->fake, 16);
		h = mcm_join(test, ctx, group, NULL,
			     RDMA_MCM_SENDONLY_FULLMEMBER);
		last = t->fake->clock_ms;
		for (i = 0; i < ARRAY_SIZE(backoff); i++) {
			u32 b = backoff[i];
			u64 due = last + b - b / 4 + (jitter ? b / 2 - 1 : 0);

			/* -ETIMEDOUT: the SA did not answer; it heals */
			mcm_fake_complete(t->fake, mcm_fake_join_of(test, group),
					  -ETIMEDOUT, false);
			rdma_mcm_flush();
			KUNIT_EXPECT_EQ(test, mcm_state(test, ctx, h),
					RDMA_MCM_WAITING);
			/* 1 ms before it is due: nothing */
			t->fake->clock_ms = due - 1;
			mcm_tick(test, ctx, 0);
			KUNIT_EXPECT_EQ(test, t->fake->nr_join_times, i + 1);
			t->fake->clock_ms = due;
			mcm_tick(test, ctx, 0);
			KUNIT_ASSERT_EQ(test, t->fake->nr_join_times, i + 2);
			KUNIT_EXPECT_EQ(test, t->fake->join_times[i + 1], due);
			last = due;
		}
		mcm_fake_complete(t->fake, mcm_fake_join_of(test, group), 0,
				  false);
		rdma_mcm_flush();
		KUNIT_EXPECT_EQ(test, mcm_state(test, ctx, h), RDMA_MCM_JOINED);
		KUNIT_EXPECT_EQ(test, rdma_mcm_leave(ctx, h), 0);
	}
	rdma_mcm_close(ctx);
}

/*
 * 10,000 memberships lose their groups at once: they rejoin within the
 * rate limit (1,000 a second per device, bursts of 100), none twice, and
 * all of them in about ten seconds after their backoff.
 */
static void mcm_heal_rate_limit_10k(struct kunit *test)
{
	struct mcm_test *t = test->priv;
	struct rdma_mcm_ctx *ctx;
	const unsigned int n = 10000, rate = 1000, burst = rate / 10;
	unsigned int i, j, lo = 0, worst = 0;
	struct mcm_fake_join *join;
	u64 start;

	ctx = mcm_open_heal(test);
	t->fake->auto_complete = true;
	for (i = 0; i < n; i++)
		mcm_join(test, ctx, 0xef200000 + i, NULL,
			 RDMA_MCM_SENDONLY_FULLMEMBER);
	rdma_mcm_flush();
	KUNIT_ASSERT_EQ(test, t->rec.joined, (int)n);
	t->fake->auto_complete = false;

	/* the SM went away and came back: every group is lost */
	list_for_each_entry(join, &t->fake->joins, node)
		mcm_fake_complete(t->fake, join, -ENETRESET, false);
	rdma_mcm_flush();
	KUNIT_ASSERT_EQ(test, t->rec.rejoining, (int)n);

	mcm_fake_record_joins(t->fake, n + 1);
	t->fake->auto_complete = true;
	start = t->fake->clock_ms;
	for (i = 0; i < 100000 && t->fake->nr_join_times < n; i++)
		mcm_tick(test, ctx, 10);
	KUNIT_ASSERT_EQ(test, t->fake->nr_join_times, n);
	KUNIT_EXPECT_EQ(test, t->rec.rejoined, (int)n);

	/* in any second, at most a second's rate and one burst */
	for (j = 0; j < n; j++) {
		while (t->fake->join_times[j] - t->fake->join_times[lo] >= 1000)
			lo++;
		worst = max(worst, j - lo + 1);
	}
	kunit_info(test, "10000 rejoins from %llu ms to %llu ms after the loss, at most %u in a second\n",
		   t->fake->join_times[0] - start,
		   t->fake->join_times[n - 1] - start, worst);
	KUNIT_EXPECT_LE(test, worst, rate + burst);
	/* and no slower than the limit: ten seconds plus the backoff */
	KUNIT_EXPECT_LE(test, t->fake->join_times[n - 1] - start,
			(u64)(n / rate) * 1000 + MCM_MIN_MS * 5 / 4 + 100);
	rdma_mcm_close(ctx);
}

/* A leave while the membership waits: it is never joined again. */
static void mcm_heal_leave_during_backoff(struct kunit *test)
{
	struct mcm_test *t = test->priv;
	struct rdma_mcm_ctx *ctx = mcm_open_heal(test);
	u32 h;

	h = mcm_join(test, ctx, MCM_GROUP(2), NULL, RDMA_MCM_FULLMEMBER);
	mcm_fake_complete(t->fake, mcm_fake_join_of(test, MCM_GROUP(2)),
			  -ENETRESET, false);
	rdma_mcm_flush();
	KUNIT_ASSERT_EQ(test, mcm_state(test, ctx, h), RDMA_MCM_WAITING);
	KUNIT_EXPECT_EQ(test, rdma_mcm_leave(ctx, h), 0);
	mcm_tick(test, ctx, MCM_MAX_MS * 2);
	KUNIT_EXPECT_EQ(test, t->fake->joins_called, 1);
	KUNIT_EXPECT_EQ(test, t->rec.rejoined, 0);
	rdma_mcm_close(ctx);
}

/*
 * A close while memberships wait: the rejoin the backoff armed is no
 * longer pending once close returns (the context is kept alive by a
 * reference to look), nothing is joined again, nothing is left.
 */
static void mcm_heal_close_during_backoff(struct kunit *test)
{
	struct mcm_test *t = test->priv;
	struct rdma_mcm_ctx *ctx = mcm_open_heal(test);

	t->fake->real_arm = true;
	mcm_join(test, ctx, MCM_GROUP(3), NULL, RDMA_MCM_FULLMEMBER);
	mcm_join(test, ctx, MCM_GROUP(4), NULL, RDMA_MCM_FULLMEMBER);
	mcm_fake_complete(t->fake, mcm_fake_join_of(test, MCM_GROUP(3)),
			  -ENETRESET, false);
	rdma_mcm_flush();
	KUNIT_ASSERT_TRUE(test, delayed_work_pending(&ctx->rejoin_work));
	t->fake->clock_ms += MCM_MAX_MS * 2;	/* the rejoin is due */
	refcount_inc(&ctx->ref);
	rdma_mcm_close(ctx);
	KUNIT_EXPECT_FALSE(test, delayed_work_pending(&ctx->rejoin_work));
	t->fake->real_arm = false;
	rdma_mcm_rejoin_run(ctx);	/* as a rejoin work that ran late */
	rdma_mcm_ctx_put(ctx);
	rdma_mcm_flush();
	KUNIT_EXPECT_EQ(test, t->fake->joins_called, 2);
	KUNIT_EXPECT_EQ(test, t->fake->live_ids, 0);
}

/*
 * A rejoin that finds the device gone stops the context's rejoins: the
 * other due memberships wait for the next device instead of failing the
 * same way, one rdma_join_multicast() each, as fast as the rate allows
 * (with rejoin_rate 0, for ever, under the context's mutex).
 */
static void mcm_heal_rejoin_finds_device_gone(struct kunit *test)
{
	struct mcm_test *t = test->priv;
	struct rdma_mcm_ctx *ctx = mcm_open_heal(test);
	u32 h[3];
	int i;

	for (i = 0; i < 3; i++)
		h[i] = mcm_join(test, ctx, MCM_GROUP(40 + i), NULL,
				RDMA_MCM_FULLMEMBER);
	mcm_fake_complete_all(t->fake);
	rdma_mcm_flush();
	for (i = 0; i < 3; i++)
		mcm_fake_complete(t->fake,
				  mcm_fake_join_of(test, MCM_GROUP(40 + i)),
				  -ENETRESET, false);
	rdma_mcm_flush();
	KUNIT_ASSERT_EQ(test, t->rec.rejoining, 3);
	t->fake->join_ret = -ENODEV;
	mcm_tick(test, ctx, MCM_MAX_MS * 2);	/* all three are due */
	KUNIT_EXPECT_EQ(test, t->fake->joins_called, 4);
	KUNIT_EXPECT_EQ(test, t->rec.removed, 1);
	KUNIT_EXPECT_EQ(test, t->rec.errors, 0);
	for (i = 0; i < 3; i++)
		KUNIT_EXPECT_EQ(test, mcm_state(test, ctx, h[i]),
				RDMA_MCM_WAITING);
	t->fake->join_ret = 0;
	rdma_mcm_close(ctx);
}

/* A leave while the rejoin is in rdma_cm: the rejoin is cancelled. */
static void mcm_heal_leave_during_rejoin(struct kunit *test)
{
	struct mcm_test *t = test->priv;
	struct rdma_mcm_ctx *ctx = mcm_open_heal(test);
	struct mcm_fake_join *join;
	u32 h;

	h = mcm_join(test, ctx, MCM_GROUP(5), &t->fake->qp,
		     RDMA_MCM_FULLMEMBER);
	mcm_fake_complete_all(t->fake);
	rdma_mcm_flush();
	mcm_fake_complete(t->fake, mcm_fake_join_of(test, MCM_GROUP(5)),
			  -ENETRESET, false);
	rdma_mcm_flush();
	mcm_tick(test, ctx, MCM_MIN_MS * 2);
	KUNIT_ASSERT_EQ(test, t->fake->joins_called, 2);
	join = mcm_fake_join_of(test, MCM_GROUP(5));
	KUNIT_EXPECT_EQ(test, rdma_mcm_leave(ctx, h), 0);
	KUNIT_EXPECT_EQ(test, join->leaves, 1);
	/* a late completion is dropped */
	mcm_fake_complete(t->fake, join, 0, true);
	rdma_mcm_flush();
	KUNIT_EXPECT_EQ(test, t->rec.rejoined, 0);
	KUNIT_EXPECT_EQ(test, t->fake->attached, 0);
	rdma_mcm_close(ctx);
}

/*
 * A device change heard while the rejoins run (here: a GID change from
 * inside the rejoin's rdma_join_multicast()) is not pushed back to the
 * next backoff: the run arms the work again at once.
 */
static void mcm_heal_kick_during_rejoin_run(struct kunit *test)
{
	struct mcm_test *t = test->priv;
	struct rdma_mcm_ctx *ctx = mcm_open_heal(test);

	mcm_join(test, ctx, MCM_GROUP(44), NULL, RDMA_MCM_FULLMEMBER);
	mcm_join(test, ctx, MCM_GROUP(45), NULL, RDMA_MCM_FULLMEMBER);
	mcm_fake_complete_all(t->fake);
	rdma_mcm_flush();
	/* one waits, due in about a second; the other one much later */
	mcm_fake_complete(t->fake, mcm_fake_join_of(test, MCM_GROUP(44)),
			  -ENETRESET, false);
	rdma_mcm_flush();
	t->fake->clock_ms += MCM_MIN_MS * 2;
	mcm_fake_complete(t->fake, mcm_fake_join_of(test, MCM_GROUP(45)),
			  -ENETRESET, false);
	rdma_mcm_flush();
	t->fake->inject = (struct mcm_fake_inject){
		.at = MCM_FAKE_AT_JOIN, .what = MCM_FAKE_DO_GID_CHANGE,
	};
	rdma_mcm_rejoin_run(ctx);	/* 44 is due: its join hears the kick */
	KUNIT_ASSERT_EQ(test, t->fake->inject.fired, 1);
	KUNIT_EXPECT_EQ(test, t->fake->armed_delay_ms, 0UL);
	rdma_mcm_rejoin_run(ctx);	/* the look the kick asked for */
	KUNIT_EXPECT_GT(test, t->fake->armed_delay_ms, 0UL);
	rdma_mcm_close(ctx);
}

/*
 * A close while a rejoin is in rdma_cm: the id goes with the membership, a
 * completion rdma_cm delivers from inside that destroy is dropped, nothing
 * is left.
 */
static void mcm_heal_close_during_rejoin(struct kunit *test)
{
	struct mcm_test *t = test->priv;
	struct rdma_mcm_ctx *ctx = mcm_open_heal(test);
	struct mcm_fake_join *join;
	int events;

	mcm_join(test, ctx, MCM_GROUP(8), &t->fake->qp, RDMA_MCM_FULLMEMBER);
	mcm_fake_complete_all(t->fake);
	rdma_mcm_flush();
	mcm_fake_complete(t->fake, mcm_fake_join_of(test, MCM_GROUP(8)),
			  -ENETRESET, false);
	rdma_mcm_flush();
	mcm_tick(test, ctx, MCM_MIN_MS * 2);
	KUNIT_ASSERT_EQ(test, t->fake->joins_called, 2);
	join = mcm_fake_join_of(test, MCM_GROUP(8));
	events = join->events;
	/* rdma_cm completes the rejoin from inside close's destroy */
	t->fake->inject = (struct mcm_fake_inject){
		.at = MCM_FAKE_AT_DESTROY, .what = MCM_FAKE_DO_MC_JOIN,
	};
	rdma_mcm_close(ctx);
	KUNIT_EXPECT_EQ(test, join->events, events + 1);	/* delivered */
	KUNIT_EXPECT_EQ(test, join->leaves, 1);
	rdma_mcm_flush();
	KUNIT_EXPECT_EQ(test, t->rec.rejoined, 0);
	KUNIT_EXPECT_EQ(test, t->fake->attached, 0);
	KUNIT_EXPECT_EQ(test, t->fake->live_ids, 0);
}

/*
 * ->rejoining() of a joined membership closes the context (a callback
 * may): the context goes once the callback returns, with the rejoin it
 * had armed; nothing is joined again, nothing is left.
 */
static void mcm_heal_close_from_rejoining(struct kunit *test)
{
	struct mcm_test *t = test->priv;
	struct rdma_mcm_ctx *ctx = mcm_open_heal(test);
	int before = rdma_mcm_live_read(RDMA_MCM_LIVE_CONTEXTS);

	t->fake->real_arm = true;
	t->rec.close_on_rejoining = true;
	mcm_join(test, ctx, MCM_GROUP(9), NULL, RDMA_MCM_FULLMEMBER);
	mcm_join(test, ctx, MCM_GROUP(10), NULL, RDMA_MCM_FULLMEMBER);
	mcm_fake_complete_all(t->fake);
	rdma_mcm_flush();
	mcm_fake_complete(t->fake, mcm_fake_join_of(test, MCM_GROUP(9)),
			  -ENETRESET, false);
	rdma_mcm_flush();
	rdma_mcm_flush();		/* the free work */
	KUNIT_EXPECT_EQ(test, t->rec.rejoining, 1);
	KUNIT_EXPECT_EQ(test, rdma_mcm_live_read(RDMA_MCM_LIVE_CONTEXTS),
			before - 1);
	KUNIT_EXPECT_EQ(test, t->fake->joins_called, 2);
	KUNIT_EXPECT_EQ(test, t->fake->live_ids, 0);
	t->fake->real_arm = false;
}

/* ->rejoining() may leave its own membership: it is not joined again. */
static void mcm_heal_leave_from_rejoining(struct kunit *test)
{
	struct mcm_test *t = test->priv;
	struct rdma_mcm_ctx *ctx = mcm_open_heal(test);
	u32 h;

	t->rec.leave_on_rejoining = true;
	t->rec.action_ret = 1;
	h = mcm_join(test, ctx, MCM_GROUP(6), NULL, RDMA_MCM_FULLMEMBER);
	mcm_fake_complete_all(t->fake);
	rdma_mcm_flush();
	mcm_fake_complete(t->fake, mcm_fake_join_of(test, MCM_GROUP(6)),
			  -ENETRESET, false);
	rdma_mcm_flush();
	KUNIT_EXPECT_EQ(test, t->rec.action_ret, 0);
	KUNIT_EXPECT_EQ(test, rdma_mcm_leave(ctx, h), -EADDRNOTAVAIL);
	mcm_tick(test, ctx, MCM_MAX_MS * 2);
	KUNIT_EXPECT_EQ(test, t->fake->joins_called, 1);
	rdma_mcm_close(ctx);
}

/*
 * Permanent errors are not retried: the SA's refusal (-EINVAL, reported
 * as -ECONNREFUSED) is an ERROR on a healing context too; and a context
 * that does not heal never waits.
 */
static void mcm_heal_permanent_errors(struct kunit *test)
{
	struct mcm_test *t = test->priv;
	struct rdma_mcm_ctx *ctx = mcm_open_heal(test), *plain;
	u32 h, h2;

	h = mcm_join(test, ctx, MCM_GROUP(7), NULL, RDMA_MCM_FULLMEMBER);
	mcm_fake_complete(t->fake, mcm_fake_join_of(test, MCM_GROUP(7)),
			  -EINVAL, false);
	rdma_mcm_flush();
	KUNIT_EXPECT_EQ(test, mcm_state(test, ctx, h), RDMA_MCM_ERROR);
	KUNIT_EXPECT_EQ(test, t->rec.last_status, -ECONNREFUSED);
	mcm_tick(test, ctx, MCM_MAX_MS * 2);
	KUNIT_EXPECT_EQ(test, t->fake->joins_called, 1);
	rdma_mcm_close(ctx);

	plain = mcm_open(test);
	h2 = mcm_join(test, plain, MCM_GROUP(8), NULL, RDMA_MCM_FULLMEMBER);
	mcm_fake_complete(t->fake, mcm_fake_join_of(test, MCM_GROUP(8)),
			  -ENETRESET, false);
	rdma_mcm_flush();
	KUNIT_EXPECT_EQ(test, mcm_state(test, plain, h2), RDMA_MCM_ERROR);
	KUNIT_EXPECT_EQ(test, t->rec.rejoining, 0);
	rdma_mcm_rejoin_run(plain);
	KUNIT_EXPECT_EQ(test, t->fake->joins_called, 2);
	rdma_mcm_close(plain);
}

/*
 * The device goes: every membership waits (-ENODEV), the context hears
 * ->device_removed() and stays open; the device comes back: the context
 * finds it, ->device_added() (where the ULP gives its new QP), and every
 * membership is joined again on the same handle, attached to the new QP.
 */
static void mcm_heal_device_gone_and_back(struct kunit *test)
{
	struct mcm_test *t = test->priv;
	struct rdma_mcm_ctx *ctx = mcm_open_heal(test);
	u32 h[3], port;
	int i;

	for (i = 0; i < 3; i++)
		h[i] = mcm_join(test, ctx, MCM_GROUP(20 + i), &t->fake->qp,
				RDMA_MCM_FULLMEMBER);
	mcm_fake_complete_all(t->fake);
	rdma_mcm_flush();
	KUNIT_ASSERT_EQ(test, t->fake->attached, 3);

	mcm_fake_remove_device(t->fake, 0);
	rdma_mcm_flush();
	KUNIT_EXPECT_EQ(test, t->rec.rejoining, 3);
	KUNIT_EXPECT_EQ(test, t->rec.last_reason, -ENODEV);
	KUNIT_EXPECT_EQ(test, t->rec.errors, 0);
	KUNIT_EXPECT_EQ(test, t->rec.removed, 1);
	KUNIT_EXPECT_EQ(test, t->fake->live_ids, 0);
	KUNIT_EXPECT_EQ(test, t->fake->attached, 0);
	KUNIT_EXPECT_NULL(test, rdma_mcm_device(ctx, &port));
	for (i = 0; i < 3; i++)
		KUNIT_EXPECT_EQ(test, mcm_state(test, ctx, h[i]),
				RDMA_MCM_WAITING);
	/* without a device, nothing to find */
	mcm_tick(test, ctx, MCM_MAX_MS);
	KUNIT_EXPECT_EQ(test, t->rec.added, 0);

	t->rec.qp_on_added = &t->fake->qp2;
	mcm_fake_add_device(t->fake, 0);	/* kicks the context */
	mcm_tick(test, ctx, 0);
	KUNIT_EXPECT_EQ(test, t->rec.added, 1);
	KUNIT_EXPECT_EQ(test, t->rec.set_qp_ret, 0);
	KUNIT_EXPECT_PTR_EQ(test, rdma_mcm_device(ctx, &port),
			    t->fake->ibdev[0]);
	KUNIT_EXPECT_EQ(test, t->fake->joins_called, 6);
	mcm_fake_complete_all(t->fake);
	rdma_mcm_flush();
	KUNIT_EXPECT_EQ(test, t->rec.rejoined, 3);
	for (i = 0; i < 3; i++)
		KUNIT_EXPECT_EQ(test, mcm_state(test, ctx, h[i]),
				RDMA_MCM_JOINED);
	KUNIT_EXPECT_EQ(test, mcm_fake_attached_to(t->fake, &t->fake->qp2), 3);
	KUNIT_EXPECT_EQ(test, mcm_fake_attached_to(t->fake, &t->fake->qp), 0);
	rdma_mcm_close(ctx);
}

/*
 * The source address moved to another device: a GID change on the old
 * device makes the context check its address, lose the old device and
 * take the new one; its memberships are joined again there.
 */
static void mcm_heal_address_moves(struct kunit *test)
{
	struct mcm_test *t = test->priv;
	struct rdma_mcm_ctx *ctx = mcm_open_heal(test);
	u32 h, port;

	h = mcm_join(test, ctx, MCM_GROUP(30), NULL, RDMA_MCM_FULLMEMBER);
	mcm_fake_complete_all(t->fake);
	rdma_mcm_flush();
	t->fake->bind_dev = 1;
	rdma_mcm_dev_changed(t->fake->ibdev[0], 1, RDMA_MCM_DEV_GID_CHANGED);
	mcm_tick(test, ctx, 0);		/* checks: moved; loses device 0 */
	rdma_mcm_flush();
	KUNIT_EXPECT_EQ(test, t->rec.removed, 1);
	KUNIT_EXPECT_EQ(test, mcm_state(test, ctx, h), RDMA_MCM_WAITING);
	mcm_tick(test, ctx, 0);		/* finds device 1 */
	KUNIT_EXPECT_EQ(test, t->rec.added, 1);
	KUNIT_EXPECT_PTR_EQ(test, rdma_mcm_device(ctx, &port),
			    t->fake->ibdev[1]);
	mcm_fake_complete_all(t->fake);
	rdma_mcm_flush();
	KUNIT_EXPECT_EQ(test, mcm_state(test, ctx, h), RDMA_MCM_JOINED);
	KUNIT_EXPECT_EQ(test, t->rec.rejoined, 1);
	rdma_mcm_close(ctx);
}

/*
 * A healing IPv6 context whose address moves from a RoCE port to an
 * InfiniBand one: ff0e::1:2 and ff05::1:2 are two groups on RoCE, one
 * MGID on InfiniBand, and groups sort differently by InfiniBand's keys
 * (the last ten bytes). After the move every group is still found and
 * left by address, and a new join of an address with the shared MGID is
 * refused as the same group.
 */
static void mcm_heal_groups_follow_link_layer(struct kunit *test)
{
	/* the first two share an MGID on IB; ff02::9 and ff0e::1 swap order */
	static const char * const groups[] = { "ff0e::1:2", "ff05::1:2",
					       "ff0e::1", "ff02::9",
					       "ff0e::7:7" };
	struct mcm_test *t = test->priv;
	struct sockaddr_in6 src = mcm_v6(test, "2001:db8::1");
	struct sockaddr_in6 g, other = mcm_v6(test, "ff08::1:2");
	struct rdma_mcm_ctx *ctx;
	u32 h;
	int i;

	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, mcm_restore_params,
							NULL), 0);
	mcm_restore_params(NULL);
	mcm_fake_set_ib(t->fake, 1, true);
	ctx = rdma_mcm_open_backend(&init_net, (struct sockaddr *)&src,
				    &mcm_rec_ops, &t->rec, &t->fake->be,
				    RDMA_MCM_OPEN_HEAL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, ctx);
	t->rec.ctx = ctx;
	for (i = 0; i < ARRAY_SIZE(groups); i++) {
		g = mcm_v6(test, groups[i]);
		KUNIT_ASSERT_EQ(test, rdma_mcm_join(ctx, (struct sockaddr *)&g,
						    RDMA_MCM_SENDONLY_FULLMEMBER,
						    NULL, NULL, &h), 0);
	}
	t->fake->bind_dev = 1;
	rdma_mcm_dev_changed(t->fake->ibdev[0], 1, RDMA_MCM_DEV_GID_CHANGED);
	mcm_tick(test, ctx, 0);		/* loses device 0 */
	mcm_tick(test, ctx, 0);		/* finds device 1, InfiniBand */
	KUNIT_ASSERT_PTR_EQ(test, rdma_mcm_device(ctx, &h), t->fake->ibdev[1]);
	KUNIT_EXPECT_EQ(test, rdma_mcm_join(ctx, (struct sockaddr *)&other,
					    RDMA_MCM_SENDONLY_FULLMEMBER, NULL,
					    NULL, &h), -EADDRINUSE);
	for (i = ARRAY_SIZE(groups) - 1; i >= 0; i--) {
		g = mcm_v6(test, groups[i]);
		KUNIT_EXPECT_EQ_MSG(test,
				    rdma_mcm_leave_addr(ctx,
							(struct sockaddr *)&g),
				    0, "leave of %s", groups[i]);
	}
	rdma_mcm_close(ctx);
}

/* A port or SM event: waiting memberships need not wait their backoff. */
static void mcm_heal_port_event_rejoins_now(struct kunit *test)
{
	struct mcm_test *t = test->priv;
	struct rdma_mcm_ctx *ctx = mcm_open_heal(test);
	u32 h;

	h = mcm_join(test, ctx, MCM_GROUP(31), NULL, RDMA_MCM_FULLMEMBER);
	mcm_fake_complete(t->fake, mcm_fake_join_of(test, MCM_GROUP(31)),
			  -ENETRESET, false);
	rdma_mcm_flush();
	mcm_tick(test, ctx, 10);
	KUNIT_EXPECT_EQ(test, t->fake->joins_called, 1);
	rdma_mcm_dev_changed(t->fake->ibdev[0], 1, RDMA_MCM_DEV_PORT_UP);
	mcm_tick(test, ctx, 0);
	KUNIT_EXPECT_EQ(test, t->fake->joins_called, 2);
	KUNIT_EXPECT_EQ(test, mcm_state(test, ctx, h), RDMA_MCM_JOINING);
	rdma_mcm_close(ctx);
}

/* A route context resolves its route; a failed resolution is mapped. */
static void mcm_route_context(struct kunit *test)
{
	struct mcm_test *t = test->priv;
	struct sockaddr_in dst = mcm_v4(MCM_GROUP(40));
	struct rdma_mcm_ctx *ctx;
	u32 port;

	ctx = rdma_mcm_open_backend(&init_net, (struct sockaddr *)&dst,
				    &mcm_rec_ops, &t->rec, &t->fake->be,
				    RDMA_MCM_OPEN_ROUTE);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, ctx);
	t->rec.ctx = ctx;
	KUNIT_EXPECT_PTR_EQ(test, rdma_mcm_device(ctx, &port),
			    t->fake->ibdev[0]);
	mcm_join(test, ctx, MCM_GROUP(41), NULL, RDMA_MCM_FULLMEMBER);
	KUNIT_EXPECT_EQ(test, t->fake->binds, 1);	/* resolved, not bound */
	rdma_mcm_close(ctx);

	t->fake->resolve_status = -EHOSTUNREACH;
	ctx = rdma_mcm_open_backend(&init_net, (struct sockaddr *)&dst,
				    &mcm_rec_ops, &t->rec, &t->fake->be,
				    RDMA_MCM_OPEN_ROUTE);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(ctx), -ENETUNREACH);
	t->fake->resolve_status = 0;
	t->fake->resolve_ret = -ETIMEDOUT;
	ctx = rdma_mcm_open_backend(&init_net, (struct sockaddr *)&dst,
				    &mcm_rec_ops, &t->rec, &t->fake->be,
				    RDMA_MCM_OPEN_ROUTE);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(ctx), -ETIMEDOUT);
	KUNIT_EXPECT_EQ(test, t->fake->live_ids, 0);
}

/* The source (port 0), device and port QUERY_CTX reports, as they change */
static void mcm_ctx_query_follows_device(struct kunit *test)
{
	struct mcm_test *t = test->priv;
	struct sockaddr_in dst = mcm_v4(MCM_GROUP(42));
	struct rdma_mcm_ctx_info info;
	struct sockaddr_in *src = (struct sockaddr_in *)&info.src;
	struct rdma_mcm_ctx *ctx = mcm_open_heal(test);

	rdma_mcm_ctx_query(ctx, &info);
	KUNIT_EXPECT_EQ(test, info.flags, (u32)RDMA_MCM_OPEN_HEAL);
	KUNIT_EXPECT_STREQ(test, info.dev_name, "mcm_fake0");
	KUNIT_EXPECT_EQ(test, info.port_num, 1U);
	KUNIT_EXPECT_EQ(test, be64_to_cpu(info.node_guid),
			0x0002c90300a0b0c0ULL);
	KUNIT_EXPECT_EQ(test, src->sin_family, (sa_family_t)AF_INET);
	KUNIT_EXPECT_EQ(test, ntohl(src->sin_addr.s_addr), (u32)MCM_SRC);
	KUNIT_EXPECT_EQ(test, src->sin_port, 0);	/* rdma_cm's is not */

	mcm_fake_remove_device(t->fake, 0);
	rdma_mcm_flush();
	rdma_mcm_ctx_query(ctx, &info);
	KUNIT_EXPECT_EQ(test, info.flags, (u32)RDMA_MCM_OPEN_HEAL);
	KUNIT_EXPECT_STREQ(test, info.dev_name, "");
	KUNIT_EXPECT_EQ(test, info.port_num, 0U);
	KUNIT_EXPECT_EQ(test, info.node_guid, 0);
	KUNIT_EXPECT_EQ(test, info.src.ss_family, (sa_family_t)AF_UNSPEC);

	/* device 0 is back, but the address is on device 1, port 2 now */
	t->fake->bind_dev = 1;
	t->fake->bind_port = 2;
	mcm_fake_add_device(t->fake, 0);
	mcm_tick(test, ctx, 0);
	rdma_mcm_ctx_query(ctx, &info);
	KUNIT_EXPECT_STREQ(test, info.dev_name, "mcm_fake1");
	KUNIT_EXPECT_EQ(test, info.port_num, 2U);
	KUNIT_EXPECT_EQ(test, ntohl(src->sin_addr.s_addr), (u32)MCM_SRC);
	rdma_mcm_close(ctx);

	/* a route context: the route's source, not the destination */
	ctx = rdma_mcm_open_backend(&init_net, (struct sockaddr *)&dst,
				    &mcm_rec_ops, &t->rec, &t->fake->be,
				    RDMA_MCM_OPEN_ROUTE);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, ctx);
	t->rec.ctx = ctx;
	rdma_mcm_ctx_query(ctx, &info);
	KUNIT_EXPECT_EQ(test, info.flags, (u32)RDMA_MCM_OPEN_ROUTE);
	KUNIT_EXPECT_EQ(test, ntohl(src->sin_addr.s_addr),
			(u32)MCM_FAKE_ROUTE_SRC);
	KUNIT_EXPECT_EQ(test, src->sin_port, 0);
	KUNIT_EXPECT_STREQ(test, info.dev_name, "mcm_fake1");
	rdma_mcm_close(ctx);
}

static struct kunit_case rdma_mcm_heal_cases[] = {
	KUNIT_CASE(mcm_backoff_sequence),
	KUNIT_CASE(mcm_heal_rejoins_same_handle),
	KUNIT_CASE(mcm_heal_sa_assigned_rejoins_its_mgid),
	KUNIT_CASE(mcm_heal_stale_joined_after_loss),
	KUNIT_CASE(mcm_heal_stale_joined_rejoin_later),
	KUNIT_CASE(mcm_heal_join_event_enomem),
	KUNIT_CASE(mcm_heal_backoff_schedule),
	KUNIT_CASE_SLOW(mcm_heal_rate_limit_10k),
	KUNIT_CASE(mcm_heal_leave_during_backoff),
	KUNIT_CASE(mcm_heal_close_during_backoff),
	KUNIT_CASE(mcm_heal_rejoin_finds_device_gone),
	KUNIT_CASE(mcm_heal_leave_during_rejoin),
	KUNIT_CASE(mcm_heal_close_during_rejoin),
	KUNIT_CASE(mcm_heal_kick_during_rejoin_run),
	KUNIT_CASE(mcm_heal_close_from_rejoining),
	KUNIT_CASE(mcm_heal_leave_from_rejoining),
	KUNIT_CASE(mcm_heal_permanent_errors),
	KUNIT_CASE(mcm_heal_device_gone_and_back),
	KUNIT_CASE(mcm_heal_address_moves),
	KUNIT_CASE(mcm_heal_groups_follow_link_layer),
	KUNIT_CASE(mcm_heal_port_event_rejoins_now),
	KUNIT_CASE(mcm_route_context),
	KUNIT_CASE(mcm_ctx_query_follows_device),
	{}
};

static struct kunit_suite rdma_mcm_heal_suite = {
	.name = "rdma_mcm_heal",
	.init = mcm_test_init,
	.exit = mcm_test_exit,
	.test_cases = rdma_mcm_heal_cases,
};

kunit_test_suite(rdma_mcm_heal_suite);
