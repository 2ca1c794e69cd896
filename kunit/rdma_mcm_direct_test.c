// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * KUnit: JOINED delivered from rdma_cm's handler (RDMA_MCM_OPEN_DIRECT,
 * the char device's contexts), and the guarantees it must keep: one
 * callback at a time, in order, the leave barrier, and the work still
 * doing whatever sleeps (a QP to attach).
 */
#include <kunit/test.h>
#include <linux/completion.h>
#include <linux/delay.h>
#include <linux/kthread.h>
#include <net/net_namespace.h>

#include "../drivers/rdma_mcm_internal.h"
#include "rdma_mcm_test_util.h"

static struct rdma_mcm_ctx *mcm_open_direct(struct kunit *test)
{
	struct mcm_test *t = test->priv;
	struct sockaddr_in src = mcm_v4(MCM_SRC);
	struct rdma_mcm_ctx *ctx;

	ctx = rdma_mcm_open_backend(&init_net, (struct sockaddr *)&src,
				    &mcm_rec_ops, &t->rec, &t->fake->be,
				    RDMA_MCM_OPEN_DIRECT);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, ctx);
	t->rec.ctx = ctx;
	return ctx;
}

/* Complete @group's join here: rdma_cm's handler runs in this thread. */
static void mcm_complete(struct kunit *test, u32 group)
{
	struct mcm_test *t = test->priv;
	struct mcm_fake_join *join = mcm_fake_join_of(test, group);

	KUNIT_ASSERT_TRUE(test, mcm_fake_complete(t->fake, join, 0, false));
}

/* The send-only JOINED reaches the callback inside rdma_cm's handler. */
static void mcm_direct_joined_from_handler(struct kunit *test)
{
	struct mcm_test *t = test->priv;
	struct rdma_mcm_ctx *ctx = mcm_open_direct(test);
	u32 h;

	h = mcm_join(test, ctx, MCM_GROUP(1), NULL,
		     RDMA_MCM_SENDONLY_FULLMEMBER);
	mcm_complete(test, MCM_GROUP(1));
	/* no flush: it ran before the handler returned, in this thread */
	KUNIT_EXPECT_EQ(test, t->rec.joined, 1);
	KUNIT_EXPECT_PTR_EQ(test, t->rec.joined_task, current);
	KUNIT_EXPECT_FALSE(test, t->rec.joined_in_work);
	KUNIT_EXPECT_EQ(test, t->rec.last_join.handle, h);
	KUNIT_EXPECT_EQ(test, t->rec.last_join.qkey, MCM_FAKE_QKEY);
	KUNIT_EXPECT_EQ(test, t->rec.last_join.mlid, MCM_FAKE_MLID);
	KUNIT_EXPECT_EQ(test, mcm_state(test, ctx, h), RDMA_MCM_JOINED);
	KUNIT_EXPECT_EQ(test, rdma_mcm_leave(ctx, h), 0);
	rdma_mcm_flush();
	KUNIT_EXPECT_EQ(test, t->rec.joined, 1);	/* once: not the work too */
	rdma_mcm_close(ctx);
}

/* Without the flag (a ULP's context), JOINED always comes from the work. */
static void mcm_direct_not_without_flag(struct kunit *test)
{
	struct mcm_test *t = test->priv;
	struct rdma_mcm_ctx *ctx = mcm_open(test);

	mcm_join(test, ctx, MCM_GROUP(2), NULL, RDMA_MCM_SENDONLY_FULLMEMBER);
	mcm_complete(test, MCM_GROUP(2));
	rdma_mcm_flush();
	KUNIT_EXPECT_EQ(test, t->rec.joined, 1);
	KUNIT_EXPECT_TRUE(test, t->rec.joined_in_work);
	rdma_mcm_close(ctx);
}

/* A ULP cannot ask for it: its callbacks may sleep or call the manager. */
static void mcm_direct_refused_to_ulps(struct kunit *test)
{
	struct mcm_test *t = test->priv;
	struct sockaddr_in src = mcm_v4(MCM_SRC);
	struct rdma_mcm_ctx *ctx;

	ctx = rdma_mcm_open_flags(&init_net, (struct sockaddr *)&src,
				  &mcm_rec_ops, &t->rec, RDMA_MCM_OPEN_DIRECT);
	KUNIT_EXPECT_EQ(test, PTR_ERR(ctx), -EINVAL);
}

/* A QP to attach sleeps: that JOINED goes through the work, attached. */
static void mcm_direct_attach_goes_through_work(struct kunit *test)
{
	struct mcm_test *t = test->priv;
	struct rdma_mcm_ctx *ctx = mcm_open_direct(test);
	u32 h;

	h = mcm_join(test, ctx, MCM_GROUP(3), &t->fake->qp,
		     RDMA_MCM_FULLMEMBER);
	mcm_complete(test, MCM_GROUP(3));
	rdma_mcm_flush();
	KUNIT_EXPECT_EQ(test, t->rec.joined, 1);
	KUNIT_EXPECT_TRUE(test, t->rec.joined_in_work);
	KUNIT_EXPECT_EQ(test, t->fake->attached, 1);
	KUNIT_EXPECT_EQ(test, rdma_mcm_leave(ctx, h), 0);
	KUNIT_EXPECT_EQ(test, t->fake->attached, 0);
	rdma_mcm_close(ctx);
}

/* The event comes from inside the join call: the callback runs at once. */
static void mcm_direct_inside_join(struct kunit *test)
{
	struct mcm_test *t = test->priv;
	struct rdma_mcm_ctx *ctx = mcm_open_direct(test);
	u32 h;

	t->fake->auto_complete = true;
	h = mcm_join(test, ctx, MCM_GROUP(4), NULL,
		     RDMA_MCM_SENDONLY_FULLMEMBER);
	KUNIT_EXPECT_EQ(test, t->rec.joined, 1);
	KUNIT_EXPECT_EQ(test, t->rec.last_join.handle, h);
	KUNIT_EXPECT_EQ(test, mcm_state(test, ctx, h), RDMA_MCM_JOINED);
	KUNIT_EXPECT_EQ(test, rdma_mcm_leave(ctx, h), 0);
	rdma_mcm_close(ctx);
}

/*
 * While the work is inside a callback, a JOINED from the handler waits its
 * turn: no two callbacks at once, and in the order the events came.
 */
static void mcm_direct_waits_for_the_work(struct kunit *test)
{
	struct mcm_test *t = test->priv;
	struct rdma_mcm_ctx *ctx = mcm_open_direct(test);
	u32 a, b;

	init_completion(&t->rec.block_entered);
	init_completion(&t->rec.block_release);
	t->rec.on_joined = MCM_ACT_BLOCK;
	a = mcm_join(test, ctx, MCM_GROUP(5), &t->fake->qp,
		     RDMA_MCM_FULLMEMBER);
	b = mcm_join(test, ctx, MCM_GROUP(6), NULL,
		     RDMA_MCM_SENDONLY_FULLMEMBER);
	mcm_complete(test, MCM_GROUP(5));
	KUNIT_ASSERT_GT(test, wait_for_completion_timeout(&t->rec.block_entered,
							  10 * HZ), 0UL);
	t->rec.on_joined = MCM_ACT_NONE;
	/* a's ->joined() blocks in the work; b's event comes now */
	mcm_complete(test, MCM_GROUP(6));
	KUNIT_EXPECT_EQ(test, t->rec.joined, 1);
	KUNIT_EXPECT_EQ(test, t->rec.last_join.handle, a);
	complete(&t->rec.block_release);
	rdma_mcm_flush();
	KUNIT_EXPECT_EQ(test, t->rec.joined, 2);
	KUNIT_EXPECT_EQ(test, t->rec.last_join.handle, b);
	KUNIT_EXPECT_TRUE(test, t->rec.joined_in_work);
	KUNIT_EXPECT_EQ(test, t->rec.overlaps, 0);
	rdma_mcm_close(ctx);
}

struct mcm_completer {
	struct mcm_fake *fake;
	struct mcm_fake_join *join;
	struct completion ready;	/* running, about to complete */
	struct completion done;
};

static int mcm_completer_fn(void *arg)
{
	struct mcm_completer *c = arg;

	complete(&c->ready);
	mcm_fake_complete(c->fake, c->join, 0, false);
	complete(&c->done);
	return 0;
}

/*
 * A leave does not return while a JOINED callback runs in rdma_cm's
 * handler, and nothing is delivered after it. Here, as with rdma_cm, the
 * leave's rdma_leave_multicast() itself waits for the running handler
 * (the fake's handler lock); rdma_mcm's own barrier for a callback of the
 * work is mcm_leave_waits_for_running_callback's.
 */
static void mcm_direct_leave_waits_for_handler_callback(struct kunit *test)
{
	struct mcm_test *t = test->priv;
	struct rdma_mcm_ctx *ctx = mcm_open_direct(test);
	struct mcm_leaver l = { .ctx = ctx };
	struct mcm_completer c = { .fake = t->fake };
	struct task_struct *task;

	init_completion(&t->rec.block_entered);
	init_completion(&t->rec.block_release);
	init_completion(&c.ready);
	init_completion(&c.done);
	t->rec.on_joined = MCM_ACT_BLOCK;
	l.handle = mcm_join(test, ctx, MCM_GROUP(7), NULL,
			    RDMA_MCM_SENDONLY_FULLMEMBER);
	c.join = mcm_fake_join_of(test, MCM_GROUP(7));
	task = kthread_run(mcm_completer_fn, &c, "mcm_completer");
	KUNIT_ASSERT_FALSE(test, IS_ERR(task));
	KUNIT_ASSERT_GT(test, wait_for_completion_timeout(&t->rec.block_entered,
							  10 * HZ), 0UL);
	KUNIT_EXPECT_FALSE(test, t->rec.joined_in_work);

	mcm_leave_in_thread(test, &l);
	msleep(200);
	KUNIT_EXPECT_FALSE(test, READ_ONCE(l.returned));
	complete(&t->rec.block_release);
	KUNIT_ASSERT_GT(test, wait_for_completion_timeout(&l.done, 10 * HZ), 0UL);
	KUNIT_ASSERT_GT(test, wait_for_completion_timeout(&c.done, 10 * HZ), 0UL);
	KUNIT_EXPECT_EQ(test, l.ret, 0);
	rdma_mcm_flush();
	KUNIT_EXPECT_EQ(test, t->rec.joined, 1);
	rdma_mcm_close(ctx);
}

/*
 * A leave and rdma_cm's handler on two CPUs, round after round: the
 * JOINED comes before the leave returns or never, and no two callbacks
 * run at once. Run with KCSAN (make kcsan, two CPUs) it is the data-race
 * check of the direct path and of the work's path against a leave.
 */
#define MCM_RACE_ROUNDS	300

static void mcm_race_leave_with_handler(struct kunit *test,
					struct rdma_mcm_ctx *ctx)
{
	struct mcm_test *t = test->priv;
	struct mcm_completer c = { .fake = t->fake };
	struct task_struct *task;
	int round, seen;
	u32 h;

	for (round = 0; round < MCM_RACE_ROUNDS; round++) {
		init_completion(&c.ready);
		init_completion(&c.done);
		h = mcm_join(test, ctx, MCM_GROUP(16 + round), NULL,
			     RDMA_MCM_SENDONLY_FULLMEMBER);
		c.join = mcm_fake_join_of(test, MCM_GROUP(16 + round));
		task = kthread_run(mcm_completer_fn, &c, "mcm_completer");
		KUNIT_ASSERT_FALSE(test, IS_ERR(task));
		/* both start together, the leave a little later each round */
		wait_for_completion(&c.ready);
		udelay(round % 16);
		KUNIT_ASSERT_EQ(test, rdma_mcm_leave(ctx, h), 0);
		seen = READ_ONCE(t->rec.joined);
		KUNIT_ASSERT_GT(test, wait_for_completion_timeout(&c.done,
								  10 * HZ),
				0UL);
		rdma_mcm_flush();
		KUNIT_ASSERT_EQ_MSG(test, READ_ONCE(t->rec.joined), seen,
				    "a JOINED after its leave returned (round %d)",
				    round);
	}
	KUNIT_EXPECT_EQ(test, t->rec.overlaps, 0);
	KUNIT_EXPECT_EQ(test, t->rec.errors, 0);
	kunit_info(test, "%d of %d JOINED before their leave\n",
		   t->rec.joined, MCM_RACE_ROUNDS);
	rdma_mcm_close(ctx);
}

static void mcm_direct_leave_races_handler(struct kunit *test)
{
	mcm_race_leave_with_handler(test, mcm_open_direct(test));
}

static void mcm_work_leave_races_handler(struct kunit *test)
{
	mcm_race_leave_with_handler(test, mcm_open(test));
}

static struct kunit_case rdma_mcm_direct_cases[] = {
	KUNIT_CASE(mcm_direct_joined_from_handler),
	KUNIT_CASE(mcm_direct_not_without_flag),
	KUNIT_CASE(mcm_direct_refused_to_ulps),
	KUNIT_CASE(mcm_direct_attach_goes_through_work),
	KUNIT_CASE(mcm_direct_inside_join),
	KUNIT_CASE(mcm_direct_waits_for_the_work),
	KUNIT_CASE(mcm_direct_leave_waits_for_handler_callback),
	KUNIT_CASE_SLOW(mcm_direct_leave_races_handler),
	KUNIT_CASE_SLOW(mcm_work_leave_races_handler),
	{}
};

static struct kunit_suite rdma_mcm_direct_suite = {
	.name = "rdma_mcm_direct",
	.init = mcm_test_init,
	.exit = mcm_test_exit,
	.test_cases = rdma_mcm_direct_cases,
};

kunit_test_suite(rdma_mcm_direct_suite);
