// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * rdma_mcm KUnit: what the suites on the fake backend share (see
 * rdma_mcm_test_util.h).
 */
#include <kunit/test.h>
#include <linux/delay.h>
#include <linux/in.h>
#include <linux/in6.h>
#include <linux/inet.h>
#include <linux/kthread.h>
#include <net/net_namespace.h>

#include "rdma_mcm_test_util.h"

static void mcm_rec_enter(struct mcm_rec *rec)
{
	if (atomic_inc_return(&rec->in_callback) > 1)
		rec->overlaps++;
}

static void mcm_rec_leave(struct mcm_rec *rec)
{
	atomic_dec(&rec->in_callback);
}

static void mcm_rec_joined(void *priv, const struct rdma_mcm_join_info *info)
{
	struct mcm_rec *rec = priv;
	struct sockaddr_in other = mcm_v4(0xef0a0a0a);	/* 239.10.10.10 */

	mcm_rec_enter(rec);
	rec->joined++;
	rec->last_join = *info;
	rec->joined_task = current;
	rec->joined_in_work = rec->ctx && current_work() == &rec->ctx->work;
	switch (rec->on_joined) {
	case MCM_ACT_LEAVE_SELF:
		rec->action_ret = rdma_mcm_leave(rec->ctx, info->handle);
		break;
	case MCM_ACT_JOIN_OTHER:
		rec->on_joined = MCM_ACT_NONE;
		rec->action_ret = rdma_mcm_join(rec->ctx,
						(struct sockaddr *)&other,
						RDMA_MCM_FULLMEMBER, NULL, NULL,
						&rec->action_handle);
		break;
	case MCM_ACT_CLOSE:
		rdma_mcm_close(rec->ctx);
		rec->ctx = NULL;
		break;
	case MCM_ACT_BLOCK:
		complete(&rec->block_entered);
		wait_for_completion(&rec->block_release);
		break;
	case MCM_ACT_NONE:
		break;
	}
	mcm_rec_leave(rec);
}

static void mcm_rec_error(void *priv, u32 handle, void *context, int status)
{
	struct mcm_rec *rec = priv;

	mcm_rec_enter(rec);
	rec->errors++;
	rec->enodev_errors += status == -ENODEV;
	rec->last_error_handle = handle;
	rec->last_error_context = context;
	rec->last_status = status;
	mcm_rec_leave(rec);
}

static void mcm_rec_device_removed(void *priv)
{
	struct mcm_rec *rec = priv;
	u32 port;

	mcm_rec_enter(rec);
	rec->removed++;
	rec->errors_at_removed = rec->errors;
	rec->attached_at_removed = rec->fake->attached;
	rec->device_at_removed = rec->ctx && rdma_mcm_device(rec->ctx, &port);
	if (rec->close_on_removed && rec->ctx) {
		rdma_mcm_close(rec->ctx);
		rec->ctx = NULL;
	}
	if (rec->block_on_removed) {
		complete(&rec->removed_entered);
		wait_for_completion(&rec->removed_release);
	}
	mcm_rec_leave(rec);
}

static void mcm_rec_rejoining(void *priv, u32 handle, void *context,
			      int reason)
{
	struct mcm_rec *rec = priv;

	mcm_rec_enter(rec);
	rec->rejoining++;
	rec->last_reason = reason;
	rec->last_rejoining_handle = handle;
	if (rec->leave_on_rejoining)
		rec->action_ret = rdma_mcm_leave(rec->ctx, handle);
	if (rec->close_on_rejoining)
		rdma_mcm_close(rec->ctx);
	if (rec->block_on_rejoining) {
		complete(&rec->rejoining_entered);
		wait_for_completion(&rec->rejoining_release);
	}
	mcm_rec_leave(rec);
}

static void mcm_rec_rejoined(void *priv, const struct rdma_mcm_join_info *info)
{
	struct mcm_rec *rec = priv;

	mcm_rec_enter(rec);
	rec->rejoined++;
	rec->last_rejoin = *info;
	if (rec->removed > rec->added)
		rec->order_errors++;
	mcm_rec_leave(rec);
}

static void mcm_rec_device_added(void *priv)
{
	struct mcm_rec *rec = priv;

	mcm_rec_enter(rec);
	rec->added++;
	if (rec->qp_on_added)
		rec->set_qp_ret = rdma_mcm_set_qp(rec->ctx, rec->qp_on_added);
	mcm_rec_leave(rec);
}

const struct rdma_mcm_ops mcm_rec_ops = {
	.joined	= mcm_rec_joined,
	.error	= mcm_rec_error,
	.device_removed = mcm_rec_device_removed,
	.rejoining = mcm_rec_rejoining,
	.rejoined = mcm_rec_rejoined,
	.device_added = mcm_rec_device_added,
};

struct sockaddr_in mcm_v4(u32 host_order)
{
	struct sockaddr_in sin = {
		.sin_family = AF_INET,
		.sin_addr.s_addr = htonl(host_order),
	};

	return sin;
}

/* An IPv6 address from its text; the test fails on a malformed one. */
struct sockaddr_in6 mcm_v6(struct kunit *test, const char *text)
{
	struct sockaddr_in6 sin6 = { .sin6_family = AF_INET6 };

	KUNIT_ASSERT_EQ(test, in6_pton(text, -1, sin6.sin6_addr.s6_addr, -1,
				       NULL), 1);
	return sin6;
}

/* A context on 192.0.2.1 over the test's fake; the test fails if not. */
struct rdma_mcm_ctx *mcm_open(struct kunit *test)
{
	struct mcm_test *t = test->priv;
	struct sockaddr_in src = mcm_v4(MCM_SRC);
	struct rdma_mcm_ctx *ctx;

	ctx = rdma_mcm_open_backend(&init_net, (struct sockaddr *)&src,
				    &mcm_rec_ops, &t->rec, &t->fake->be, 0);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, ctx);
	t->rec.ctx = ctx;
	return ctx;
}

u32 mcm_join(struct kunit *test, struct rdma_mcm_ctx *ctx, u32 group,
	     struct ib_qp *qp, enum rdma_mcm_join_type type)
{
	struct sockaddr_in sin = mcm_v4(group);
	u32 handle = 0;

	KUNIT_ASSERT_EQ(test, rdma_mcm_join(ctx, (struct sockaddr *)&sin, type,
					    qp, (void *)(uintptr_t)group,
					    &handle), 0);
	KUNIT_EXPECT_NE(test, handle, 0);
	return handle;
}

struct mcm_fake_join *mcm_fake_join_of(struct kunit *test, u32 group)
{
	struct mcm_test *t = test->priv;
	struct sockaddr_in sin = mcm_v4(group);
	struct mcm_fake_join *join;

	join = mcm_fake_find_join(t->fake, (struct sockaddr *)&sin);
	KUNIT_ASSERT_NOT_NULL(test, join);
	return join;
}

enum rdma_mcm_state mcm_state(struct kunit *test, struct rdma_mcm_ctx *ctx,
			      u32 handle)
{
	struct rdma_mcm_member_info info;

	KUNIT_ASSERT_EQ(test, rdma_mcm_query(ctx, handle, &info), 0);
	return info.state;
}

static int mcm_joiner_fn(void *arg)
{
	struct mcm_joiner *j = arg;
	struct sockaddr_in grp = mcm_v4(j->group);

	j->ret = rdma_mcm_join(j->ctx, (struct sockaddr *)&grp,
			       RDMA_MCM_FULLMEMBER, NULL, NULL, &j->handle);
	complete(&j->done);
	return 0;
}

/* Start @j's join (of @j->group on @j->ctx); wait_for_completion(&j->done). */
void mcm_join_in_thread(struct kunit *test, struct mcm_joiner *j)
{
	struct task_struct *task;

	init_completion(&j->done);
	task = kthread_run(mcm_joiner_fn, j, "mcm_joiner");
	KUNIT_ASSERT_FALSE(test, IS_ERR(task));
}

static int mcm_leaver_fn(void *arg)
{
	struct mcm_leaver *l = arg;

	l->ret = rdma_mcm_leave(l->ctx, l->handle);
	WRITE_ONCE(l->returned, true);
	complete(&l->done);
	return 0;
}

/* Start @l's leave; wait_for_completion(&l->done) for its end. */
void mcm_leave_in_thread(struct kunit *test, struct mcm_leaver *l)
{
	struct task_struct *task;

	init_completion(&l->done);
	task = kthread_run(mcm_leaver_fn, l, "mcm_leaver");
	KUNIT_ASSERT_FALSE(test, IS_ERR(task));
}

/*
 * Wait until rdma_mcm's ib_client has begun removing a device (a state,
 * not a time: the bound only keeps a broken build from hanging).
 */
void mcm_wait_removing(struct kunit *test, struct ib_device *dev)
{
	int i;

	for (i = 0; i < 60000 && !rdma_mcm_dev_removing(dev); i++)
		usleep_range(500, 1000);
	KUNIT_EXPECT_TRUE_MSG(test, rdma_mcm_dev_removing(dev),
			      "the device removal never began");
}

/* A recorder for a context of @fake's (zeroed first). */
void mcm_rec_init(struct kunit *test, struct mcm_rec *rec,
		  struct mcm_fake *fake)
{
	memset(rec, 0, sizeof(*rec));
	rec->test = test;
	rec->fake = fake;
	init_completion(&rec->block_entered);
	init_completion(&rec->block_release);
	init_completion(&rec->rejoining_entered);
	init_completion(&rec->rejoining_release);
	init_completion(&rec->removed_entered);
	init_completion(&rec->removed_release);
}

/* Nothing of @rec blocks any more (a case that stopped on an assertion). */
void mcm_rec_release(struct mcm_rec *rec)
{
	rec->on_joined = MCM_ACT_NONE;
	rec->block_on_rejoining = false;
	rec->block_on_removed = false;
	complete_all(&rec->block_release);
	complete_all(&rec->rejoining_release);
	complete_all(&rec->removed_release);
}

static void mcm_restore_walk_batch(void *batch)
{
	rdma_mcm_walk_batch = (uintptr_t)batch;
}

int mcm_test_init(struct kunit *test)
{
	struct mcm_test *t;
	int ret;

	/*
	 * every registry walk lets go of its lock at every context, so that
	 * the cases' walks (removals, changes, dumps) resume across it
	 */
	ret = kunit_add_action_or_reset(test, mcm_restore_walk_batch,
					(void *)(uintptr_t)rdma_mcm_walk_batch);
	if (ret)
		return ret;
	rdma_mcm_walk_batch = 1;
	t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);
	if (!t)
		return -ENOMEM;
	t->fake = mcm_fake_create(test);
	mcm_rec_init(test, &t->rec, t->fake);
	test->priv = t;
	return 0;
}

/* Every case must leave nothing behind, and no callback ran beside another. */
/* The healing knobs as the module's defaults (a kunit action too). */
void mcm_restore_params(void *unused)
{
	rdma_mcm_rejoin_rate = 1000;
	rdma_mcm_backoff_min_ms = MCM_MIN_MS;
	rdma_mcm_backoff_max_ms = MCM_MAX_MS;
}

/*
 * A context on @src with @flags over the test's fake, the healing knobs
 * at their defaults for the case; the test fails if it cannot be opened.
 */
struct rdma_mcm_ctx *mcm_open_at(struct kunit *test, const struct sockaddr *src,
				 u32 flags)
{
	struct mcm_test *t = test->priv;
	struct rdma_mcm_ctx *ctx;

	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, mcm_restore_params,
							NULL), 0);
	mcm_restore_params(NULL);
	ctx = rdma_mcm_open_backend(&init_net, src, &mcm_rec_ops, &t->rec,
				    &t->fake->be, flags);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, ctx);
	t->rec.ctx = ctx;
	return ctx;
}

/* Move the fake clock by @ms and run the rejoins, then deliver. */
void mcm_tick(struct kunit *test, struct rdma_mcm_ctx *ctx, u64 ms)
{
	struct mcm_test *t = test->priv;

	t->fake->clock_ms += ms;
	rdma_mcm_rejoin_run(ctx);
	rdma_mcm_flush();
}

void mcm_test_exit(struct kunit *test)
{
	struct mcm_test *t = test->priv;
	struct rdma_mcm_live live;

	/* a case that stopped on a failed assertion leaves nothing blocked */
	mcm_rec_release(&t->rec);
	rdma_mcm_flush();
	rdma_mcm_flush();
	mcm_fake_destroy(t->fake);
	rdma_mcm_live_objects(&live);
	KUNIT_EXPECT_EQ_MSG(test, live.contexts, 0, "contexts leaked");
	KUNIT_EXPECT_EQ_MSG(test, live.members, 0, "memberships leaked");
	KUNIT_EXPECT_EQ_MSG(test, live.slots, 0, "rdma_cm_ids leaked");
	KUNIT_EXPECT_EQ_MSG(test, live.ipsocks, 0, "IGMP/MLD sockets leaked");
	KUNIT_EXPECT_EQ_MSG(test, t->fake->live_ids, 0, "fake ids leaked");
	KUNIT_EXPECT_EQ_MSG(test, t->rec.overlaps, 0,
			    "a callback ran beside another of its context");
	KUNIT_EXPECT_LE_MSG(test, t->rec.removed, t->rec.added + 1,
			    "->device_removed() more than once per device");
	KUNIT_EXPECT_EQ_MSG(test, t->rec.order_errors, 0,
			    "->rejoined() before ->device_added()");
}
