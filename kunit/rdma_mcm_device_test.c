// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * KUnit: a context losing its device, in every state a context can be in,
 * and rdma_cm's events delivered from inside every backend call, against
 * the fake backend.
 *
 * What must hold whatever happens (checked by mcm_test_exit() after every
 * case): nothing leaks, every rdma_cm id is destroyed, no QP stays
 * attached, callbacks of a context never overlap, ->device_removed() runs
 * at most once. Run under KASAN and lockdep (kunit/debug.kunitconfig), a
 * use-after-free or a lock inversion on any of these paths fails the run.
 */
#include <kunit/test.h>
#include <linux/delay.h>
#include <linux/kthread.h>
#include <net/net_namespace.h>

#include "rdma_mcm_test_util.h"

static void mcm_restore_slot_size(void *size)
{
	rdma_mcm_slot_size = (uintptr_t)size;
}

/* One membership per rdma_cm id for the rest of the case: joins bind. */
static void mcm_one_per_slot(struct kunit *test)
{
	void *size = (void *)(uintptr_t)rdma_mcm_slot_size;

	int ret;

	ret = kunit_add_action_or_reset(test, mcm_restore_slot_size, size);
	KUNIT_ASSERT_EQ(test, ret, 0);
	rdma_mcm_slot_size = 1;
}

/* A context without a membership still hears of its device's loss. */
static void mcm_dev_lost_without_memberships(struct kunit *test)
{
	struct mcm_test *t = test->priv;
	struct rdma_mcm_ctx *ctx = mcm_open(test);
	struct sockaddr_in grp = mcm_v4(MCM_GROUP(1));
	u32 h = 0, port;

	KUNIT_EXPECT_PTR_EQ(test, rdma_mcm_device(ctx, &port), t->fake->ibdev[0]);
	mcm_fake_remove_device(t->fake, 0);
	KUNIT_EXPECT_EQ(test, t->rec.removed, 1);
	KUNIT_EXPECT_EQ(test, t->rec.errors, 0);
	KUNIT_EXPECT_FALSE(test, t->rec.device_at_removed);
	KUNIT_EXPECT_NULL(test, rdma_mcm_device(ctx, &port));
	KUNIT_EXPECT_EQ(test, mcm_fake_live_ids_on(t->fake, 0), 0);
	KUNIT_EXPECT_EQ(test, rdma_mcm_join(ctx, (struct sockaddr *)&grp,
					    RDMA_MCM_FULLMEMBER, NULL, NULL, &h),
			-ENODEV);
	rdma_mcm_close(ctx);
	KUNIT_EXPECT_EQ(test, t->rec.removed, 1);
}

/* Only ERROR memberships: the notice comes, the errors are not repeated. */
static void mcm_dev_lost_with_error_memberships(struct kunit *test)
{
	struct mcm_test *t = test->priv;
	struct rdma_mcm_ctx *ctx = mcm_open(test);
	u32 h;

	h = mcm_join(test, ctx, MCM_GROUP(2), &t->fake->qp, RDMA_MCM_FULLMEMBER);
	mcm_fake_complete(t->fake, mcm_fake_join_of(test, MCM_GROUP(2)),
			  -ETIMEDOUT, false);
	rdma_mcm_flush();
	KUNIT_EXPECT_EQ(test, t->rec.errors, 1);
	mcm_fake_remove_device(t->fake, 0);
	KUNIT_EXPECT_EQ(test, t->rec.removed, 1);
	KUNIT_EXPECT_EQ(test, t->rec.errors, 1);
	KUNIT_EXPECT_EQ(test, t->rec.last_status, -ETIMEDOUT);
	KUNIT_EXPECT_EQ(test, mcm_state(test, ctx, h), RDMA_MCM_ERROR);
	KUNIT_EXPECT_EQ(test, rdma_mcm_leave(ctx, h), 0);
	rdma_mcm_close(ctx);
}

/* Joins in flight fail with -ENODEV before the notice; none joins later. */
static void mcm_dev_lost_with_joins_in_flight(struct kunit *test)
{
	struct mcm_test *t = test->priv;
	struct rdma_mcm_ctx *ctx = mcm_open(test);
	struct mcm_fake_join *join;
	u32 h[2];

	h[0] = mcm_join(test, ctx, MCM_GROUP(3), &t->fake->qp,
			RDMA_MCM_FULLMEMBER);
	h[1] = mcm_join(test, ctx, MCM_GROUP(4), NULL,
			RDMA_MCM_SENDONLY_FULLMEMBER);
	mcm_fake_remove_device(t->fake, 0);
	KUNIT_EXPECT_EQ(test, t->rec.enodev_errors, 2);
	KUNIT_EXPECT_EQ(test, t->rec.removed, 1);
	KUNIT_EXPECT_EQ(test, t->rec.errors_at_removed, 2);
	KUNIT_EXPECT_EQ(test, t->rec.joined, 0);
	KUNIT_EXPECT_EQ(test, mcm_state(test, ctx, h[0]), RDMA_MCM_ERROR);
	KUNIT_EXPECT_EQ(test, mcm_state(test, ctx, h[1]), RDMA_MCM_ERROR);
	/* the ids are gone: a late completion cannot be delivered */
	join = mcm_fake_join_of(test, MCM_GROUP(3));
	KUNIT_EXPECT_FALSE(test, mcm_fake_complete(t->fake, join, 0, true));
	rdma_mcm_close(ctx);
}

/*
 * The device goes while the first id of a context binds: the open fails
 * with -ENODEV, and nothing of it is left (nor run later).
 */
static void mcm_dev_lost_during_open(struct kunit *test)
{
	struct mcm_test *t = test->priv;
	struct sockaddr_in src = mcm_v4(MCM_SRC);
	struct rdma_mcm_ctx *ctx;

	t->fake->inject = (struct mcm_fake_inject){
		.at = MCM_FAKE_AT_BIND, .what = MCM_FAKE_DO_REMOVE_DEVICE,
	};
	ctx = rdma_mcm_open_backend(&init_net, (struct sockaddr *)&src,
				    &mcm_rec_ops, &t->rec, &t->fake->be, 0);
	mcm_fake_remove_wait(t->fake);
	rdma_mcm_flush();
	/* the removal may have begun before or after the bind's check */
	if (IS_ERR(ctx)) {
		KUNIT_EXPECT_EQ(test, PTR_ERR(ctx), -ENODEV);
		KUNIT_EXPECT_EQ(test, t->rec.removed, 0);
	} else {
		t->rec.ctx = ctx;
		KUNIT_EXPECT_EQ(test, t->rec.removed, 1);
		rdma_mcm_close(ctx);
	}
	KUNIT_EXPECT_EQ(test, t->fake->live_ids, 0);
}

struct mcm_opener {
	struct kunit *test;
	struct rdma_mcm_ctx *ctx;
	struct completion done;
};

static int mcm_opener_fn(void *arg)
{
	struct mcm_opener *o = arg;
	struct mcm_test *t = o->test->priv;
	struct sockaddr_in src = mcm_v4(MCM_SRC);

	o->ctx = rdma_mcm_open_backend(&init_net, (struct sockaddr *)&src,
				       &mcm_rec_ops, &t->rec, &t->fake->be, 0);
	complete(&o->done);
	return 0;
}

/*
 * The same, in the order that matters: the removal has begun (and seen no
 * context on the device) while the bind still ran. The bind's device is
 * refused.
 */
static void mcm_dev_removal_begun_during_bind(struct kunit *test)
{
	struct mcm_test *t = test->priv;
	struct mcm_opener o = { .test = test };
	struct task_struct *task;

	init_completion(&o.done);
	t->fake->inject = (struct mcm_fake_inject){
		.at = MCM_FAKE_AT_BIND, .what = MCM_FAKE_DO_PAUSE,
	};
	task = kthread_run(mcm_opener_fn, &o, "mcm_opener");
	KUNIT_ASSERT_FALSE(test, IS_ERR(task));
	wait_for_completion(&t->fake->paused);
	mcm_fake_remove_device_async(t->fake, 0);
	mcm_wait_removing(test, t->fake->ibdev[0]);
	mcm_fake_resume(t->fake);
	wait_for_completion(&o.done);
	mcm_fake_remove_wait(t->fake);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(o.ctx), -ENODEV);
	KUNIT_EXPECT_EQ(test, t->rec.removed, 0);
}

/*
 * rdma_cm tells the id of the device removal from inside the bind, then
 * the bind fails: the open fails, and the work that the event queued must
 * not run on the freed context (a use-after-free under KASAN at 66fc0e7).
 */
static void mcm_event_in_bind_then_bind_fails(struct kunit *test)
{
	struct mcm_test *t = test->priv;
	struct sockaddr_in src = mcm_v4(MCM_SRC);
	struct rdma_mcm_ctx *ctx;

	t->fake->bind_ret = -EADDRNOTAVAIL;
	t->fake->inject = (struct mcm_fake_inject){
		.at = MCM_FAKE_AT_BIND, .what = MCM_FAKE_DO_DEVICE_REMOVAL,
	};
	ctx = rdma_mcm_open_backend(&init_net, (struct sockaddr *)&src,
				    &mcm_rec_ops, &t->rec, &t->fake->be, 0);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(ctx), -EADDRNOTAVAIL);
	KUNIT_EXPECT_EQ(test, t->fake->inject.fired, 1);
	rdma_mcm_flush();	/* the queued work, had it survived */
	KUNIT_EXPECT_EQ(test, t->rec.removed, 0);
	KUNIT_EXPECT_EQ(test, t->fake->live_ids, 0);
}

struct mcm_closer {
	struct rdma_mcm_ctx *ctx;
	struct completion done;
};

static int mcm_closer_fn(void *arg)
{
	struct mcm_closer *c = arg;

	rdma_mcm_close(c->ctx);
	complete(&c->done);
	return 0;
}

/*
 * The device goes while the context closes: close wins or the removal
 * does, but no callback runs after close returned, and nothing leaks.
 */
static void mcm_dev_lost_during_close(struct kunit *test)
{
	struct mcm_test *t = test->priv;
	struct rdma_mcm_ctx *ctx = mcm_open(test);
	struct mcm_closer c = { .ctx = ctx };
	struct task_struct *task;
	int removed;

	init_completion(&c.done);
	mcm_join(test, ctx, MCM_GROUP(5), &t->fake->qp, RDMA_MCM_FULLMEMBER);
	mcm_fake_complete_all(t->fake);
	rdma_mcm_flush();
	t->fake->inject = (struct mcm_fake_inject){
		.at = MCM_FAKE_AT_DESTROY, .what = MCM_FAKE_DO_PAUSE,
	};
	task = kthread_run(mcm_closer_fn, &c, "mcm_closer");
	KUNIT_ASSERT_FALSE(test, IS_ERR(task));
	wait_for_completion(&t->fake->paused);
	mcm_fake_remove_device_async(t->fake, 0);
	mcm_wait_removing(test, t->fake->ibdev[0]);
	mcm_fake_resume(t->fake);
	wait_for_completion(&c.done);
	removed = t->rec.removed;
	mcm_fake_remove_wait(t->fake);
	rdma_mcm_flush();
	KUNIT_EXPECT_EQ(test, t->rec.removed, removed);
	KUNIT_EXPECT_EQ(test, t->rec.removed, 0);
}

/*
 * The device goes while a callback of the context runs: the notice waits
 * for the callback (callbacks never overlap), then comes once.
 */
static void mcm_dev_lost_during_callback(struct kunit *test)
{
	struct mcm_test *t = test->priv;
	struct rdma_mcm_ctx *ctx = mcm_open(test);
	u32 h;

	init_completion(&t->rec.block_entered);
	init_completion(&t->rec.block_release);
	t->rec.on_joined = MCM_ACT_BLOCK;
	h = mcm_join(test, ctx, MCM_GROUP(6), &t->fake->qp, RDMA_MCM_FULLMEMBER);
	mcm_fake_complete(t->fake, mcm_fake_join_of(test, MCM_GROUP(6)), 0,
			  false);
	wait_for_completion(&t->rec.block_entered);
	mcm_fake_remove_device_async(t->fake, 0);
	mcm_wait_removing(test, t->fake->ibdev[0]);
	KUNIT_EXPECT_EQ(test, t->rec.removed, 0);
	complete(&t->rec.block_release);
	mcm_fake_remove_wait(t->fake);
	KUNIT_EXPECT_EQ(test, t->rec.removed, 1);
	KUNIT_EXPECT_EQ(test, t->rec.enodev_errors, 1);
	KUNIT_EXPECT_EQ(test, t->rec.attached_at_removed, 0);
	KUNIT_EXPECT_EQ(test, mcm_state(test, ctx, h), RDMA_MCM_ERROR);
	rdma_mcm_close(ctx);
}

/* ->device_removed() may close its context. */
static void mcm_dev_lost_callback_closes(struct kunit *test)
{
	struct mcm_test *t = test->priv;
	struct rdma_mcm_ctx *ctx = mcm_open(test);

	mcm_join(test, ctx, MCM_GROUP(7), &t->fake->qp, RDMA_MCM_FULLMEMBER);
	mcm_fake_complete_all(t->fake);
	rdma_mcm_flush();
	t->rec.close_on_removed = true;
	mcm_fake_remove_device(t->fake, 0);
	rdma_mcm_flush();
	KUNIT_EXPECT_EQ(test, t->rec.removed, 1);
	KUNIT_EXPECT_NULL(test, t->rec.ctx);
}

/* A join in rdma_cm when the removal begins: it fails with -ENODEV after. */
static void mcm_dev_lost_during_join(struct kunit *test)
{
	struct mcm_test *t = test->priv;
	struct mcm_joiner j = { .ctx = mcm_open(test), .group = MCM_GROUP(8) };

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
	KUNIT_ASSERT_EQ(test, j.ret, 0);
	KUNIT_EXPECT_EQ(test, mcm_state(test, j.ctx, j.handle), RDMA_MCM_ERROR);
	KUNIT_EXPECT_EQ(test, t->rec.enodev_errors, 1);
	KUNIT_EXPECT_EQ(test, t->rec.removed, 1);
	rdma_mcm_close(j.ctx);
}

/*
 * A new id of the context lands on another device, or another port: the
 * source address moved. The join fails with -ENODEV and the context loses
 * its device, as if it had been removed.
 */
static void mcm_moved_address_is_device_loss(struct kunit *test)
{
	static const struct { int dev; u32 port; } moves[] = {
		{ 1, 1 }, { 0, 2 },
	};
	struct mcm_test *t = test->priv;
	struct sockaddr_in grp = mcm_v4(MCM_GROUP(11));
	struct rdma_mcm_ctx *ctx;
	u32 h, h2 = 0, port;
	int i;

	mcm_one_per_slot(test);
	for (i = 0; i < ARRAY_SIZE(moves); i++) {
		t->fake->bind_dev = 0;
		t->fake->bind_port = 1;
		t->rec.removed = 0;
		t->rec.enodev_errors = 0;
		ctx = mcm_open(test);
		h = mcm_join(test, ctx, MCM_GROUP(10), &t->fake->qp,
			     RDMA_MCM_FULLMEMBER);
		mcm_fake_complete_all(t->fake);
		rdma_mcm_flush();
		t->fake->bind_dev = moves[i].dev;
		t->fake->bind_port = moves[i].port;
		KUNIT_EXPECT_EQ(test, rdma_mcm_join(ctx, (struct sockaddr *)&grp,
						    RDMA_MCM_FULLMEMBER, NULL,
						    NULL, &h2), -ENODEV);
		rdma_mcm_flush();
		KUNIT_EXPECT_EQ(test, t->rec.removed, 1);
		KUNIT_EXPECT_EQ(test, t->rec.enodev_errors, 1);
		KUNIT_EXPECT_EQ(test, mcm_state(test, ctx, h), RDMA_MCM_ERROR);
		KUNIT_EXPECT_NULL(test, rdma_mcm_device(ctx, &port));
		KUNIT_EXPECT_EQ(test, t->fake->live_ids, 0);
		KUNIT_EXPECT_EQ(test, t->fake->attached, 0);
		rdma_mcm_close(ctx);
	}
}

/* ------------------------------------------------ events from inside calls */

struct mcm_inject_case {
	enum mcm_fake_at at;
	enum mcm_fake_do what;
};

static const char * const mcm_at_names[] = {
	[MCM_FAKE_AT_BIND] = "bind", [MCM_FAKE_AT_JOIN] = "join",
	[MCM_FAKE_AT_LEAVE] = "leave", [MCM_FAKE_AT_DESTROY] = "destroy",
};

static const char * const mcm_do_names[] = {
	[MCM_FAKE_DO_DEVICE_REMOVAL] = "DEVICE_REMOVAL",
	[MCM_FAKE_DO_MC_ERROR] = "MULTICAST_ERROR",
	[MCM_FAKE_DO_MC_JOIN] = "MULTICAST_JOIN",
	[MCM_FAKE_DO_REMOVE_DEVICE] = "device unregistered",
};

static const struct mcm_inject_case mcm_inject_cases[] = {
	{ MCM_FAKE_AT_BIND, MCM_FAKE_DO_DEVICE_REMOVAL },
	{ MCM_FAKE_AT_BIND, MCM_FAKE_DO_MC_ERROR },
	{ MCM_FAKE_AT_BIND, MCM_FAKE_DO_MC_JOIN },
	{ MCM_FAKE_AT_BIND, MCM_FAKE_DO_REMOVE_DEVICE },
	{ MCM_FAKE_AT_JOIN, MCM_FAKE_DO_DEVICE_REMOVAL },
	{ MCM_FAKE_AT_JOIN, MCM_FAKE_DO_MC_ERROR },
	{ MCM_FAKE_AT_JOIN, MCM_FAKE_DO_MC_JOIN },
	{ MCM_FAKE_AT_JOIN, MCM_FAKE_DO_REMOVE_DEVICE },
	{ MCM_FAKE_AT_LEAVE, MCM_FAKE_DO_DEVICE_REMOVAL },
	{ MCM_FAKE_AT_LEAVE, MCM_FAKE_DO_MC_ERROR },
	{ MCM_FAKE_AT_LEAVE, MCM_FAKE_DO_MC_JOIN },
	{ MCM_FAKE_AT_LEAVE, MCM_FAKE_DO_REMOVE_DEVICE },
	{ MCM_FAKE_AT_DESTROY, MCM_FAKE_DO_DEVICE_REMOVAL },
	{ MCM_FAKE_AT_DESTROY, MCM_FAKE_DO_MC_ERROR },
	{ MCM_FAKE_AT_DESTROY, MCM_FAKE_DO_MC_JOIN },
	{ MCM_FAKE_AT_DESTROY, MCM_FAKE_DO_REMOVE_DEVICE },
};

static void mcm_inject_to_desc(const struct mcm_inject_case *c, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s from inside %s",
		 mcm_do_names[c->what], mcm_at_names[c->at]);
}

KUNIT_ARRAY_PARAM(mcm_inject, mcm_inject_cases, mcm_inject_to_desc);

/* Join @group allowing the device to be gone: returns the handle or 0. */
static u32 mcm_try_join(struct kunit *test, struct rdma_mcm_ctx *ctx,
			u32 group)
{
	struct mcm_test *t = test->priv;
	struct sockaddr_in sin = mcm_v4(group);
	u32 h = 0;
	int ret;

	ret = rdma_mcm_join(ctx, (struct sockaddr *)&sin, RDMA_MCM_FULLMEMBER,
			    &t->fake->qp, NULL, &h);
	if (ret)
		KUNIT_EXPECT_EQ(test, ret, -ENODEV);
	return ret ? 0 : h;
}

/*
 * Every event rdma_cm can deliver, from inside every call it can come
 * from, in a life of a context (one membership per id, so that joins bind
 * and leaves destroy ids): join A, A joined, join B, leave A, join C,
 * leave C, close. Whatever the event did, the invariants of
 * mcm_test_exit() hold, a lost device is told once, and no callback
 * names a membership after its leave returned.
 */
static void mcm_event_from_inside_calls(struct kunit *test)
{
	const struct mcm_inject_case *c = test->param_value;
	struct mcm_test *t = test->priv;
	struct rdma_mcm_ctx *ctx;
	bool lost_before_close;
	int joined, errors;
	u32 a, b, cc;

	mcm_one_per_slot(test);
	ctx = mcm_open(test);
	t->fake->inject = (struct mcm_fake_inject){
		.at = c->at, .what = c->what, .status = -ENETRESET,
	};
	a = mcm_try_join(test, ctx, MCM_GROUP(20));
	mcm_fake_complete_all(t->fake);
	rdma_mcm_flush();
	b = mcm_try_join(test, ctx, MCM_GROUP(21));
	if (a)
		KUNIT_EXPECT_EQ(test, rdma_mcm_leave(ctx, a), 0);
	joined = t->rec.joined;
	errors = t->rec.errors;
	rdma_mcm_flush();
	KUNIT_EXPECT_EQ(test, t->rec.joined - joined, 0);
	/* only B can fail now */
	KUNIT_EXPECT_LE(test, t->rec.errors - errors, b ? 1 : 0);
	cc = mcm_try_join(test, ctx, MCM_GROUP(22));
	if (cc)
		KUNIT_EXPECT_EQ(test, rdma_mcm_leave(ctx, cc), 0);
	mcm_fake_remove_wait(t->fake);
	rdma_mcm_flush();
	lost_before_close = t->fake->inject.fired &&
			    (c->what == MCM_FAKE_DO_DEVICE_REMOVAL ||
			     c->what == MCM_FAKE_DO_REMOVE_DEVICE);
	if (lost_before_close) {
		KUNIT_EXPECT_EQ(test, t->rec.removed, 1);
		KUNIT_EXPECT_EQ(test, t->fake->live_ids, 0);
	}
	rdma_mcm_close(ctx);
	mcm_fake_remove_wait(t->fake);
	rdma_mcm_flush();
	kunit_info(test, "fired %d, joined %d, errors %d, removed %d\n",
		   t->fake->inject.fired, t->rec.joined, t->rec.errors,
		   t->rec.removed);
	KUNIT_EXPECT_EQ(test, t->fake->inject.fired, 1);
	KUNIT_EXPECT_EQ(test, t->fake->live_ids, 0);
}

/* A device removal as ib_core runs it, in a thread of its own */
struct mcm_remover {
	struct mcm_fake *fake;
	int idx;
	struct completion done;
};

static int mcm_remover_fn(void *arg)
{
	struct mcm_remover *r = arg;

	mcm_fake_remove_device(r->fake, r->idx);
	complete(&r->done);
	return 0;
}

static void mcm_remove_in_thread(struct kunit *test, struct mcm_remover *r,
				 int idx)
{
	struct mcm_test *t = test->priv;
	struct task_struct *task;

	r->fake = t->fake;
	r->idx = idx;
	init_completion(&r->done);
	task = kthread_run(mcm_remover_fn, r, "mcm_remover%d", idx);
	KUNIT_ASSERT_FALSE(test, IS_ERR(task));
}

/*
 * Two device removals that overlap (kernel review finding 1). Context c1
 * (first in the registry) and healing context c2 are on device 0. Its
 * removal tells both, then waits for c1, whose ->device_removed() is
 * slow. Meanwhile c2 has let go of device 0, finds device 1, and device
 * 1's removal tells it and waits for it. Each removal must wait for the
 * contexts it told and return; at 8998c5d both linked c2's one list node
 * into their lists (a list corruption that CONFIG_DEBUG_LIST reports, or
 * an oops, when the first removal goes on).
 */
static void mcm_dev_removals_overlap(struct kunit *test)
{
	struct mcm_test *t = test->priv;
	struct sockaddr_in src = mcm_v4(MCM_SRC);
	struct rdma_mcm_ctx *c1, *c2;
	struct mcm_remover *r0, *r1;
	struct mcm_rec *rec2;
	u32 port;
	int i;

	/* the removers outlive a failed assertion: not on this stack */
	r0 = kunit_kzalloc(test, sizeof(*r0), GFP_KERNEL);
	r1 = kunit_kzalloc(test, sizeof(*r1), GFP_KERNEL);
	rec2 = kunit_kzalloc(test, sizeof(*rec2), GFP_KERNEL);
	KUNIT_ASSERT_TRUE(test, r0 && r1 && rec2);
	mcm_rec_init(test, rec2, t->fake);
	c1 = mcm_open(test);
	c2 = rdma_mcm_open_backend(&init_net, (struct sockaddr *)&src,
				   &mcm_rec_ops, rec2, &t->fake->be,
				   RDMA_MCM_OPEN_HEAL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, c2);
	rec2->ctx = c2;
	mcm_join(test, c2, MCM_GROUP(60), NULL, RDMA_MCM_SENDONLY_FULLMEMBER);
	mcm_fake_complete_all(t->fake);
	rdma_mcm_flush();

	t->rec.block_on_removed = true;
	mcm_remove_in_thread(test, r0, 0);
	KUNIT_ASSERT_GT(test,
			wait_for_completion_timeout(&t->rec.removed_entered,
						    10 * HZ), 0UL);
	/*
	 * both are told before the removal waits (the telling may let the
	 * CPU go between them): c2 lets go of device 0; a state waited for,
	 * the bound only a hang guard
	 */
	for (i = 0; i < 60000 && !READ_ONCE(rec2->removed); i++)
		usleep_range(500, 1000);
	flush_work(&c2->work);
	KUNIT_ASSERT_EQ(test, rec2->removed, 1);
	t->fake->bind_dev = 1;
	rdma_mcm_rejoin_run(c2);
	KUNIT_ASSERT_PTR_EQ(test, rdma_mcm_device(c2, &port),
			    t->fake->ibdev[1]);

	mcm_remove_in_thread(test, r1, 1);
	KUNIT_EXPECT_GT(test, wait_for_completion_timeout(&r1->done, 30 * HZ),
			0UL);
	KUNIT_EXPECT_EQ(test, rec2->removed, 2);
	KUNIT_EXPECT_FALSE(test, completion_done(&r0->done));

	complete(&t->rec.removed_release);
	KUNIT_EXPECT_GT(test, wait_for_completion_timeout(&r0->done, 30 * HZ),
			0UL);
	KUNIT_EXPECT_EQ(test, t->rec.removed, 1);
	KUNIT_EXPECT_NULL(test, rdma_mcm_device(c2, &port));
	KUNIT_EXPECT_EQ(test, t->fake->live_ids, 0);
	rdma_mcm_close(c2);
	rdma_mcm_close(c1);
	mcm_rec_release(rec2);
}

static struct kunit_case rdma_mcm_device_cases[] = {
	KUNIT_CASE(mcm_dev_lost_without_memberships),
	KUNIT_CASE(mcm_dev_lost_with_error_memberships),
	KUNIT_CASE(mcm_dev_lost_with_joins_in_flight),
	KUNIT_CASE(mcm_dev_lost_during_open),
	KUNIT_CASE(mcm_dev_removal_begun_during_bind),
	KUNIT_CASE(mcm_event_in_bind_then_bind_fails),
	KUNIT_CASE(mcm_dev_lost_during_close),
	KUNIT_CASE(mcm_dev_lost_during_callback),
	KUNIT_CASE(mcm_dev_lost_callback_closes),
	KUNIT_CASE(mcm_dev_lost_during_join),
	KUNIT_CASE(mcm_moved_address_is_device_loss),
	KUNIT_CASE(mcm_dev_removals_overlap),
	KUNIT_CASE_PARAM(mcm_event_from_inside_calls, mcm_inject_gen_params),
	{}
};

static struct kunit_suite rdma_mcm_device_suite = {
	.name = "rdma_mcm_device",
	.init = mcm_test_init,
	.exit = mcm_test_exit,
	.test_cases = rdma_mcm_device_cases,
};

kunit_test_suite(rdma_mcm_device_suite);
