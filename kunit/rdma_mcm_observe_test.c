// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * KUnit: what the netlink family shows, against the fake backend.
 *
 *  - the dump's walk resumes where it stopped: across joins and leaves
 *    between its rounds (each round of a netlink dump is a recvmsg() of
 *    its own) and beside a thread that joins and leaves all along, every
 *    membership that exists for the whole walk is reported exactly once,
 *    and the walk never goes back;
 *  - who sees what: a caller without CAP_NET_ADMIN sees the contexts its
 *    effective uid opened through /dev/rdma_mcm, one with it every context
 *    of its network namespace, nobody another namespace's;
 *  - every path that fails or loses a membership counts, in the context,
 *    its device and module-wide, with its errno: one case per path.
 */
#include <kunit/test.h>
#include <linux/cred.h>
#include <linux/delay.h>
#include <linux/kthread.h>
#include <linux/sort.h>
#include <net/net_namespace.h>

#include "rdma_mcm_test_util.h"

#define OBS_GROUPS	40	/* per context */
#define OBS_ROUND	5	/* entries per round of a walk */

struct obs_entry {
	u32 ctx_id;
	u32 handle;
};

/* A walk's rounds: each takes OBS_ROUND entries, then says "full". */
struct obs_walk {
	struct kunit *test;
	struct obs_entry *seen;
	unsigned int n, max, in_round;
	bool out_of_order;
};

static int obs_fill(void *arg, const struct rdma_mcm_ctx_view *cv,
		    const struct rdma_mcm_membership *mb)
{
	struct obs_walk *w = arg;
	struct obs_entry e = { cv->ctx->id, mb->handle };

	if (w->in_round == OBS_ROUND)
		return -EMSGSIZE;
	if (w->n) {
		struct obs_entry *last = &w->seen[w->n - 1];

		if (e.ctx_id < last->ctx_id ||
		    (e.ctx_id == last->ctx_id && e.handle <= last->handle))
			w->out_of_order = true;
	}
	if (w->n < w->max)
		w->seen[w->n++] = e;
	w->in_round++;
	return 0;
}

/* How many times the walk reported (ctx, handle). */
static int obs_count(const struct obs_walk *w, u32 ctx_id, u32 handle)
{
	unsigned int i;
	int n = 0;

	for (i = 0; i < w->n; i++)
		n += w->seen[i].ctx_id == ctx_id && w->seen[i].handle == handle;
	return n;
}

static void obs_walk_init(struct kunit *test, struct obs_walk *w,
			  unsigned int max)
{
	memset(w, 0, sizeof(*w));
	w->test = test;
	w->max = max;
	w->seen = kunit_kcalloc(test, max, sizeof(*w->seen), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, w->seen);
}

/* One round: returns true when the walk is over. */
static bool obs_round(struct kunit *test, const struct rdma_mcm_dump_filter *f,
		      struct rdma_mcm_dump_pos *pos, struct obs_walk *w)
{
	int ret;

	w->in_round = 0;
	ret = rdma_mcm_walk_members(f, pos, obs_fill, w);
	if (ret) {
		KUNIT_EXPECT_EQ(test, ret, -EMSGSIZE);
		KUNIT_EXPECT_EQ(test, w->in_round, OBS_ROUND);
		KUNIT_EXPECT_FALSE(test, pos->done);
		return false;
	}
	KUNIT_EXPECT_TRUE(test, pos->done);
	return true;
}

static struct rdma_mcm_ctx *obs_open(struct kunit *test, u32 flags)
{
	struct mcm_test *t = test->priv;
	struct sockaddr_in src = mcm_v4(MCM_SRC);
	struct rdma_mcm_ctx *ctx;

	ctx = rdma_mcm_open_backend(&init_net, (struct sockaddr *)&src,
				    &mcm_rec_ops, &t->rec, &t->fake->be, flags);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, ctx);
	return ctx;
}

static u32 obs_join(struct kunit *test, struct rdma_mcm_ctx *ctx, u32 group)
{
	return mcm_join(test, ctx, group, NULL, RDMA_MCM_SENDONLY_FULLMEMBER);
}

/*
 * Rounds of five entries over two contexts of 40 memberships each;
 * between two rounds, one of the odd groups is left and a new group
 * joined. Every even group (there from start to end) is reported once;
 * nothing is reported twice; the order never goes back.
 */
static void mcm_obs_dump_resumes_across_changes(struct kunit *test)
{
	struct rdma_mcm_dump_filter f = { .net = &init_net, .all = true };
	u32 stable[2][OBS_GROUPS / 2], churn[2][OBS_GROUPS / 2];
	struct rdma_mcm_dump_pos pos = {};
	struct rdma_mcm_ctx *ctx[2];
	unsigned int i, c, left = 0, joined = 0, rounds = 0;
	struct obs_walk w;

	obs_walk_init(test, &w, 1024);
	for (c = 0; c < 2; c++) {
		ctx[c] = obs_open(test, 0);
		for (i = 0; i < OBS_GROUPS; i++) {
			u32 h = obs_join(test, ctx[c], MCM_GROUP(i));

			if (i % 2)
				churn[c][i / 2] = h;
			else
				stable[c][i / 2] = h;
		}
	}
	while (!obs_round(test, &f, &pos, &w)) {
		KUNIT_ASSERT_LT(test, ++rounds, 100U);
		/* a change in each context, behind and ahead of the cursor */
		c = rounds % 2;
		if (left < OBS_GROUPS) {
			u32 h = churn[c][(left / 2) % (OBS_GROUPS / 2)];

			KUNIT_EXPECT_EQ(test, rdma_mcm_leave(ctx[c], h), 0);
			left++;
		}
		obs_join(test, ctx[c], MCM_GROUP(100 + joined++));
	}
	KUNIT_EXPECT_FALSE(test, w.out_of_order);
	for (c = 0; c < 2; c++)
		for (i = 0; i < OBS_GROUPS / 2; i++)
			KUNIT_EXPECT_EQ_MSG(test, obs_count(&w, ctx[c]->id,
							    stable[c][i]), 1,
					    "ctx %u handle %u", ctx[c]->id,
					    stable[c][i]);
	for (i = 0; i < w.n; i++)
		KUNIT_EXPECT_EQ(test, obs_count(&w, w.seen[i].ctx_id,
						w.seen[i].handle), 1);
	kunit_info(test, "%u rounds, %u entries, %u left, %u joined\n",
		   rounds + 1, w.n, left, joined);
	rdma_mcm_close(ctx[0]);
	rdma_mcm_close(ctx[1]);
}

/*
 * A thread that joins and leaves groups 200.. on its context, OBS_CHURN
 * times (the fake keeps a record of every join: a bound keeps the case
 * linear), then waits to be stopped.
 */
#define OBS_CHURN	400

struct obs_churn {
	struct rdma_mcm_ctx *ctx;
	struct completion churned;
	unsigned int cycles;
	int errors;
};

static int obs_churn_fn(void *arg)
{
	struct obs_churn *ch = arg;
	struct sockaddr_in g;
	u32 handle;

	for (; ch->cycles < OBS_CHURN; ch->cycles++) {
		g = mcm_v4(MCM_GROUP(200 + ch->cycles % 50));
		if (rdma_mcm_join(ch->ctx, (struct sockaddr *)&g,
				  RDMA_MCM_SENDONLY_FULLMEMBER, NULL, NULL,
				  &handle) ||
		    rdma_mcm_leave(ch->ctx, handle))
			ch->errors++;
		cond_resched();
	}
	complete(&ch->churned);
	for (;;) {
		set_current_state(TASK_INTERRUPTIBLE);
		if (kthread_should_stop())
			break;
		schedule();
	}
	__set_current_state(TASK_RUNNING);
	return 0;
}

/*
 * Whole walks, in rounds of five, while another thread joins and leaves
 * memberships of the same context without a pause (at least twenty walks,
 * and as many as it takes the thread to finish): the stable memberships,
 * each exactly once per walk, in order.
 */
static void mcm_obs_dump_beside_churn(struct kunit *test)
{
	struct rdma_mcm_dump_filter f = { .net = &init_net, .all = true };
	u32 stable[OBS_GROUPS / 2];
	struct obs_churn ch = {};
	struct task_struct *task;
	struct obs_walk w;
	unsigned int i, walk;

	ch.ctx = obs_open(test, 0);
	for (i = 0; i < OBS_GROUPS / 2; i++)
		stable[i] = obs_join(test, ch.ctx, MCM_GROUP(i));
	init_completion(&ch.churned);
	task = kthread_run(obs_churn_fn, &ch, "mcm_obs_churn");
	KUNIT_ASSERT_FALSE(test, IS_ERR(task));
	obs_walk_init(test, &w, 1024);
	for (walk = 0; walk < 20 || !completion_done(&ch.churned); walk++) {
		struct rdma_mcm_dump_pos pos = {};
		unsigned int rounds = 0;

		w.n = 0;
		w.out_of_order = false;
		while (!obs_round(test, &f, &pos, &w) && rounds++ < 100)
			cond_resched();
		KUNIT_EXPECT_FALSE(test, w.out_of_order);
		for (i = 0; i < OBS_GROUPS / 2; i++)
			KUNIT_EXPECT_EQ(test, obs_count(&w, ch.ctx->id,
							stable[i]), 1);
	}
	kthread_stop(task);
	KUNIT_EXPECT_EQ(test, ch.cycles, OBS_CHURN);
	KUNIT_EXPECT_EQ(test, ch.errors, 0);
	kunit_info(test, "%u join/leave cycles beside %u walks\n", ch.cycles,
		   walk);
	rdma_mcm_close(ch.ctx);
}

/* A context opened through /dev/rdma_mcm by a process of effective @uid */
static struct rdma_mcm_ctx *obs_open_as(struct kunit *test, uid_t uid)
{
	const struct cred *old;
	struct rdma_mcm_ctx *ctx;
	struct cred *new;

	new = prepare_creds();
	KUNIT_ASSERT_NOT_NULL(test, new);
	new->euid = KUIDT_INIT(uid);
	old = override_creds(new);
	ctx = obs_open(test, RDMA_MCM_OPEN_USER);
	revert_creds(old);
	put_cred(new);
	return ctx;
}

static unsigned int obs_walk_all(struct kunit *test,
				 const struct rdma_mcm_dump_filter *f,
				 struct obs_walk *w)
{
	struct rdma_mcm_dump_pos pos = {};
	unsigned int rounds = 0;

	w->n = 0;
	while (!obs_round(test, f, &pos, w))
		KUNIT_ASSERT_LT(test, ++rounds, 100U);
	return w->n;
}

/*
 * A kernel ULP's context, and contexts of processes of uid 0 and 1000,
 * three memberships each: each user sees its own, CAP_NET_ADMIN all nine,
 * another namespace none, and the owner is recorded as it was.
 */
static void mcm_obs_permissions(struct kunit *test)
{
	struct rdma_mcm_dump_filter f = { .net = &init_net };
	static struct net other_net;	/* only its address is compared */
	struct rdma_mcm_ctx *kern, *root, *user;
	u32 hk[3], hr[3], hu[3];
	struct obs_walk w;
	int i;

	obs_walk_init(test, &w, 64);
	kern = obs_open(test, 0);
	root = obs_open_as(test, 0);
	user = obs_open_as(test, 1000);
	for (i = 0; i < 3; i++) {
		hk[i] = obs_join(test, kern, MCM_GROUP(i));
		hr[i] = obs_join(test, root, MCM_GROUP(i));
		hu[i] = obs_join(test, user, MCM_GROUP(i));
	}

	KUNIT_EXPECT_TRUE(test, kern->owner.kernel);
	KUNIT_EXPECT_STREQ(test, kern->owner.name, "kernel");
	KUNIT_EXPECT_NULL(test, kern->owner.pid);
	KUNIT_EXPECT_FALSE(test, user->owner.kernel);
	KUNIT_EXPECT_EQ(test, __kuid_val(user->owner.uid), 1000U);
	KUNIT_EXPECT_PTR_EQ(test, user->owner.pid, task_tgid(current));
	KUNIT_EXPECT_STREQ(test, user->owner.name, current->comm);

	f.uid = KUIDT_INIT(1000);
	KUNIT_EXPECT_EQ(test, obs_walk_all(test, &f, &w), 3U);
	for (i = 0; i < 3; i++)
		KUNIT_EXPECT_EQ(test, obs_count(&w, user->id, hu[i]), 1);

	f.uid = GLOBAL_ROOT_UID;	/* root, but without CAP_NET_ADMIN */
	KUNIT_EXPECT_EQ(test, obs_walk_all(test, &f, &w), 3U);
	for (i = 0; i < 3; i++)
		KUNIT_EXPECT_EQ(test, obs_count(&w, root->id, hr[i]), 1);

	f.uid = KUIDT_INIT(2000);	/* a user without contexts */
	KUNIT_EXPECT_EQ(test, obs_walk_all(test, &f, &w), 0U);

	f.all = true;
	KUNIT_EXPECT_EQ(test, obs_walk_all(test, &f, &w), 9U);
	for (i = 0; i < 3; i++)
		KUNIT_EXPECT_EQ(test, obs_count(&w, kern->id, hk[i]), 1);

	f.ctx_id = user->id;		/* one context asked for */
	KUNIT_EXPECT_EQ(test, obs_walk_all(test, &f, &w), 3U);
	KUNIT_EXPECT_EQ(test, w.seen[0].ctx_id, user->id);
	f.ctx_id = 0;

	f.net = &other_net;		/* another namespace, even privileged */
	KUNIT_EXPECT_EQ(test, obs_walk_all(test, &f, &w), 0U);
	KUNIT_EXPECT_FALSE(test, rdma_mcm_may_see(&f, kern));

	rdma_mcm_close(kern);
	rdma_mcm_close(root);
	rdma_mcm_close(user);
}

/* ---------------------------------------------------------- counters */

/* The fake's join of @group completes (0) or fails (MULTICAST_ERROR) */
static void obs_complete(struct kunit *test, u32 group, int status)
{
	struct mcm_test *t = test->priv;

	KUNIT_ASSERT_TRUE(test, mcm_fake_complete(t->fake,
						  mcm_fake_join_of(test, group),
						  status, false));
}

/*
 * What a path must count, in its context and module-wide: @counter (and
 * @err in its breakdown) by one, and every counter of the context exactly
 * as @want says (nothing counted twice, nothing else moved).
 */
struct obs_path {
	const char *name;
	u32 open_flags;
	void (*run)(struct kunit *test, struct rdma_mcm_ctx *ctx);
	enum rdma_mcm_nl_counter counter;
	int breakdown;		/* 0: none, 1: join_failed, 2: errors */
	int err;		/* the errno of the breakdown */
	u8 want[__RDMA_MCM_CNT_MAX];
};

static void obs_path_join_einval(struct kunit *test, struct rdma_mcm_ctx *ctx)
{
	struct sockaddr_in g = mcm_v4(0x0a000001);	/* not multicast */
	u32 h;

	KUNIT_EXPECT_EQ(test, rdma_mcm_join(ctx, (struct sockaddr *)&g,
					    RDMA_MCM_FULLMEMBER, NULL, NULL,
					    &h), -EINVAL);
}

static void obs_path_join_eaddrinuse(struct kunit *test,
				     struct rdma_mcm_ctx *ctx)
{
	struct sockaddr_in g = mcm_v4(MCM_GROUP(1));
	u32 h;

	obs_join(test, ctx, MCM_GROUP(1));
	KUNIT_EXPECT_EQ(test, rdma_mcm_join(ctx, (struct sockaddr *)&g,
					    RDMA_MCM_FULLMEMBER, NULL, NULL,
					    &h), -EADDRINUSE);
}

static void obs_path_join_enomem(struct kunit *test, struct rdma_mcm_ctx *ctx)
{
	struct sockaddr_in g = mcm_v4(MCM_GROUP(1));
	int verbose = rdma_mcm_fail_alloc_attr.verbose;
	u32 h;
	int ret;

	rdma_mcm_fail_alloc_attr.verbose = 0;
	WRITE_ONCE(current->fail_nth, 1);
	ret = rdma_mcm_join(ctx, (struct sockaddr *)&g, RDMA_MCM_FULLMEMBER,
			    NULL, NULL, &h);
	WRITE_ONCE(current->fail_nth, 0);
	rdma_mcm_fail_alloc_attr.verbose = verbose;
	KUNIT_EXPECT_EQ(test, ret, -ENOMEM);
}

/* rdma_join_multicast() refuses it: published, then unpublished */
static void obs_path_join_cm_refused(struct kunit *test,
				     struct rdma_mcm_ctx *ctx)
{
	struct mcm_test *t = test->priv;
	struct sockaddr_in g = mcm_v4(MCM_GROUP(1));
	u32 h;

	t->fake->join_ret = -EADDRNOTAVAIL;
	KUNIT_EXPECT_EQ(test, rdma_mcm_join(ctx, (struct sockaddr *)&g,
					    RDMA_MCM_FULLMEMBER, NULL, NULL,
					    &h), -ENETDOWN);
	t->fake->join_ret = 0;
}

static void obs_path_join_enodev(struct kunit *test, struct rdma_mcm_ctx *ctx)
{
	struct mcm_test *t = test->priv;
	struct sockaddr_in g = mcm_v4(MCM_GROUP(1));
	u32 h;

	mcm_fake_remove_device(t->fake, 0);
	rdma_mcm_flush();
	KUNIT_EXPECT_EQ(test, rdma_mcm_join(ctx, (struct sockaddr *)&g,
					    RDMA_MCM_FULLMEMBER, NULL, NULL,
					    &h), -ENODEV);
}

/* MULTICAST_ERROR from the SA: the membership fails */
static void obs_path_mc_error(struct kunit *test, struct rdma_mcm_ctx *ctx)
{
	obs_join(test, ctx, MCM_GROUP(1));
	obs_complete(test, MCM_GROUP(1), -EINVAL);
	rdma_mcm_flush();
}

/* The QP cannot be attached: the membership fails */
static void obs_path_attach_failed(struct kunit *test,
				   struct rdma_mcm_ctx *ctx)
{
	struct mcm_test *t = test->priv;

	t->fake->attach_ret = -ENOMEM;
	mcm_join(test, ctx, MCM_GROUP(1), &t->fake->qp, RDMA_MCM_FULLMEMBER);
	obs_complete(test, MCM_GROUP(1), 0);
	rdma_mcm_flush();
	t->fake->attach_ret = 0;
}

static void obs_path_device_lost(struct kunit *test, struct rdma_mcm_ctx *ctx)
{
	struct mcm_test *t = test->priv;

	obs_join(test, ctx, MCM_GROUP(1));
	mcm_fake_remove_device(t->fake, 0);
	rdma_mcm_flush();
}

/* a healing context's membership loses its group to a port event */
static void obs_path_wait(struct kunit *test, struct rdma_mcm_ctx *ctx)
{
	obs_join(test, ctx, MCM_GROUP(1));
	obs_complete(test, MCM_GROUP(1), 0);
	rdma_mcm_flush();
	obs_complete(test, MCM_GROUP(1), -ENETRESET);
	rdma_mcm_flush();
}

/* ... and is joined again once its backoff is over */
static void obs_path_rejoin(struct kunit *test, struct rdma_mcm_ctx *ctx)
{
	struct mcm_test *t = test->priv;

	obs_path_wait(test, ctx);
	t->fake->clock_ms += 60 * 1000;
	rdma_mcm_rejoin_run(ctx);
	rdma_mcm_flush();
}

/* ... and is left while that rejoin is in flight: a leave, no cancel */
static void obs_path_leave_rejoining(struct kunit *test,
				     struct rdma_mcm_ctx *ctx)
{
	struct sockaddr_in g = mcm_v4(MCM_GROUP(1));
	struct rdma_mcm_member_info info;
	u32 h;

	obs_path_rejoin(test, ctx);
	KUNIT_ASSERT_EQ(test, rdma_mcm_find_handle(ctx, (struct sockaddr *)&g,
						   &h), 0);
	KUNIT_ASSERT_EQ(test, rdma_mcm_query(ctx, h, &info), 0);
	KUNIT_EXPECT_EQ(test, info.state, RDMA_MCM_JOINING);
	KUNIT_EXPECT_EQ(test, rdma_mcm_leave(ctx, h), 0);
}

static void obs_path_cancel(struct kunit *test, struct rdma_mcm_ctx *ctx)
{
	u32 h = obs_join(test, ctx, MCM_GROUP(1));

	KUNIT_EXPECT_EQ(test, rdma_mcm_leave(ctx, h), 0);
}

static void obs_path_leave(struct kunit *test, struct rdma_mcm_ctx *ctx)
{
	u32 h = obs_join(test, ctx, MCM_GROUP(1));

	obs_complete(test, MCM_GROUP(1), 0);
	rdma_mcm_flush();
	KUNIT_EXPECT_EQ(test, rdma_mcm_leave(ctx, h), 0);
}

static void obs_path_delivered(struct kunit *test, struct rdma_mcm_ctx *ctx)
{
	struct mcm_test *t = test->priv;

	obs_join(test, ctx, MCM_GROUP(1));
	obs_complete(test, MCM_GROUP(1), 0);
	rdma_mcm_flush();
	KUNIT_EXPECT_EQ(test, t->rec.joined, 1);
}

/*
 * A JOINED still queued when its membership is left: the work is held
 * inside the callback of an earlier membership, so the second one's
 * JOINED waits in the queue for sure when the leave drops it.
 */
static void obs_path_purged(struct kunit *test, struct rdma_mcm_ctx *ctx)
{
	struct mcm_test *t = test->priv;
	u32 h;

	t->rec.ctx = ctx;
	t->rec.on_joined = MCM_ACT_BLOCK;
	obs_join(test, ctx, MCM_GROUP(1));
	h = obs_join(test, ctx, MCM_GROUP(2));
	obs_complete(test, MCM_GROUP(1), 0);
	wait_for_completion(&t->rec.block_entered);
	obs_complete(test, MCM_GROUP(2), 0);
	KUNIT_EXPECT_EQ(test, rdma_mcm_leave(ctx, h), 0);
	t->rec.on_joined = MCM_ACT_NONE;
	complete_all(&t->rec.block_release);
	rdma_mcm_flush();
}

static const struct obs_path obs_paths[] = {
	{ "join refused: bad group", 0, obs_path_join_einval,
	  RDMA_MCM_CNT_JOIN_FAILED, 1, EINVAL,
	  { [RDMA_MCM_CNT_JOIN_FAILED] = 1 } },
	{ "join refused: group joined already", 0, obs_path_join_eaddrinuse,
	  RDMA_MCM_CNT_JOIN_FAILED, 1, EADDRINUSE,
	  { [RDMA_MCM_CNT_JOINS] = 1,
	    [RDMA_MCM_CNT_JOIN_FAILED] = 1 } },
	{ "join refused: no memory", 0, obs_path_join_enomem,
	  RDMA_MCM_CNT_JOIN_FAILED, 1, ENOMEM,
	  { [RDMA_MCM_CNT_JOIN_FAILED] = 1 } },
	/* published, refused by rdma_cm: not a join, nothing purged */
	{ "join refused by rdma_cm", 0, obs_path_join_cm_refused,
	  RDMA_MCM_CNT_JOIN_FAILED, 1, ENETDOWN,
	  { [RDMA_MCM_CNT_JOIN_FAILED] = 1 } },
	/* ->device_removed() delivered before the join */
	{ "join refused: device gone", 0, obs_path_join_enodev,
	  RDMA_MCM_CNT_JOIN_FAILED, 1, ENODEV,
	  { [RDMA_MCM_CNT_JOIN_FAILED] = 1,
	    [RDMA_MCM_CNT_DEVICE_LOSSES] = 1,
	    [RDMA_MCM_CNT_DELIVERED] = 1 } },
	{ "membership failed: SA refused", 0, obs_path_mc_error,
	  RDMA_MCM_CNT_ERRORS, 2, ECONNREFUSED,
	  { [RDMA_MCM_CNT_JOINS] = 1,
	    [RDMA_MCM_CNT_ERRORS] = 1,
	    [RDMA_MCM_CNT_DELIVERED] = 1 } },
	/* never joined: the attach failed before */
	{ "membership failed: QP attach", 0, obs_path_attach_failed,
	  RDMA_MCM_CNT_ERRORS, 2, ENOMEM,
	  { [RDMA_MCM_CNT_JOINS] = 1,
	    [RDMA_MCM_CNT_ERRORS] = 1,
	    [RDMA_MCM_CNT_DELIVERED] = 1 } },
	/* ->error(), then ->device_removed() */
	{ "membership failed: device lost", 0, obs_path_device_lost,
	  RDMA_MCM_CNT_ERRORS, 2, ENODEV,
	  { [RDMA_MCM_CNT_JOINS] = 1,
	    [RDMA_MCM_CNT_ERRORS] = 1,
	    [RDMA_MCM_CNT_DEVICE_LOSSES] = 1,
	    [RDMA_MCM_CNT_DELIVERED] = 2 } },
	{ "device lost", 0, obs_path_device_lost,
	  RDMA_MCM_CNT_DEVICE_LOSSES, 0, 0,
	  { [RDMA_MCM_CNT_JOINS] = 1,
	    [RDMA_MCM_CNT_ERRORS] = 1,
	    [RDMA_MCM_CNT_DEVICE_LOSSES] = 1,
	    [RDMA_MCM_CNT_DELIVERED] = 2 } },
	/* ->joined(), then ->rejoining() */
	{ "membership waits: port event", RDMA_MCM_OPEN_HEAL, obs_path_wait,
	  RDMA_MCM_CNT_WAITS, 2, ENETRESET,
	  { [RDMA_MCM_CNT_JOINS] = 1,
	    [RDMA_MCM_CNT_JOINED] = 1,
	    [RDMA_MCM_CNT_WAITS] = 1,
	    [RDMA_MCM_CNT_DELIVERED] = 2 } },
	/* the rejoin is sent, not completed: not joined again yet */
	{ "rejoin sent", RDMA_MCM_OPEN_HEAL, obs_path_rejoin,
	  RDMA_MCM_CNT_REJOINS, 0, 0,
	  { [RDMA_MCM_CNT_JOINS] = 1,
	    [RDMA_MCM_CNT_JOINED] = 1,
	    [RDMA_MCM_CNT_WAITS] = 1,
	    [RDMA_MCM_CNT_REJOINS] = 1,
	    [RDMA_MCM_CNT_DELIVERED] = 2 } },
	{ "leave during a rejoin", RDMA_MCM_OPEN_HEAL,
	  obs_path_leave_rejoining, RDMA_MCM_CNT_LEAVES, 0, 0,
	  { [RDMA_MCM_CNT_JOINS] = 1,
	    [RDMA_MCM_CNT_JOINED] = 1,
	    [RDMA_MCM_CNT_WAITS] = 1,
	    [RDMA_MCM_CNT_REJOINS] = 1,
	    [RDMA_MCM_CNT_LEAVES] = 1,
	    [RDMA_MCM_CNT_DELIVERED] = 2 } },
	{ "cancel", 0, obs_path_cancel, RDMA_MCM_CNT_CANCELS, 0, 0,
	  { [RDMA_MCM_CNT_JOINS] = 1,
	    [RDMA_MCM_CNT_CANCELS] = 1 } },
	{ "leave", 0, obs_path_leave, RDMA_MCM_CNT_LEAVES, 0, 0,
	  { [RDMA_MCM_CNT_JOINS] = 1,
	    [RDMA_MCM_CNT_JOINED] = 1,
	    [RDMA_MCM_CNT_DELIVERED] = 1,
	    [RDMA_MCM_CNT_LEAVES] = 1 } },
	{ "event delivered", 0, obs_path_delivered,
	  RDMA_MCM_CNT_DELIVERED, 0, 0,
	  { [RDMA_MCM_CNT_JOINS] = 1,
	    [RDMA_MCM_CNT_JOINED] = 1,
	    [RDMA_MCM_CNT_DELIVERED] = 1 } },
	/*
	 * the first JOINED delivered (held); the second's event waits for
	 * the work, which makes it JOINED: its leave is a cancel, and its
	 * JOINED purged
	 */
	{ "event purged", 0, obs_path_purged, RDMA_MCM_CNT_PURGED, 0, 0,
	  { [RDMA_MCM_CNT_JOINS] = 2,
	    [RDMA_MCM_CNT_JOINED] = 1,
	    [RDMA_MCM_CNT_DELIVERED] = 1,
	    [RDMA_MCM_CNT_CANCELS] = 1,
	    [RDMA_MCM_CNT_PURGED] = 1 } },
};

static void obs_path_desc(const struct obs_path *p, char *desc)
{
	strscpy(desc, p->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(obs_paths, obs_paths, obs_path_desc);

static u64 obs_breakdown(const struct rdma_mcm_counters *c, int which,
			 int err)
{
	int slot = rdma_mcm_errno_slot(err);

	return which == 1 ? atomic64_read(&c->join_failed[slot]) :
			    atomic64_read(&c->errors[slot]);
}

/*
 * Every counter of @c as @p->want says, and each breakdown sums to its
 * counters (join_failed to JOIN_FAILED, errors to ERRORS and WAITS).
 */
static void obs_expect_vector(struct kunit *test, const struct obs_path *p,
			      const struct rdma_mcm_counters *c)
{
	u64 jf = 0, er = 0;
	int i;

	for (i = RDMA_MCM_CNT_UNSPEC + 1; i < __RDMA_MCM_CNT_MAX; i++)
		KUNIT_EXPECT_EQ_MSG(test, rdma_mcm_counter_read(c, i),
				    (u64)p->want[i], "counter %d", i);
	for (i = 0; i < RDMA_MCM_ERRNO_SLOTS; i++) {
		jf += atomic64_read(&c->join_failed[i]);
		er += atomic64_read(&c->errors[i]);
	}
	KUNIT_EXPECT_EQ(test, jf,
			rdma_mcm_counter_read(c, RDMA_MCM_CNT_JOIN_FAILED));
	KUNIT_EXPECT_EQ(test, er,
			rdma_mcm_counter_read(c, RDMA_MCM_CNT_ERRORS) +
			rdma_mcm_counter_read(c, RDMA_MCM_CNT_WAITS));
}

/*
 * Each path counts once in its counter, in the context and module-wide,
 * and its errno once in its breakdown, told apart from "any other".
 */
static void mcm_obs_counts_each_path(struct kunit *test)
{
	const struct obs_path *p = test->param_value;
	const struct rdma_mcm_counters *g = &rdma_mcm_global_counters;
	u64 global_before, global_bd_before = 0;
	struct rdma_mcm_ctx *ctx;

	/* a known errno, not "any other": it is told apart */
	if (p->breakdown)
		KUNIT_ASSERT_NE(test, rdma_mcm_errno_slot(p->err), 0);
	ctx = obs_open(test, p->open_flags);
	global_before = rdma_mcm_counter_read(g, p->counter);
	if (p->breakdown)
		global_bd_before = obs_breakdown(g, p->breakdown, p->err);

	p->run(test, ctx);

	KUNIT_EXPECT_EQ(test, rdma_mcm_counter_read(&ctx->counters,
						    p->counter), 1ULL);
	KUNIT_EXPECT_EQ(test, p->want[p->counter], 1);
	obs_expect_vector(test, p, &ctx->counters);
	KUNIT_EXPECT_EQ(test, rdma_mcm_counter_read(g, p->counter) -
			global_before, 1ULL);
	if (p->breakdown) {
		KUNIT_EXPECT_EQ(test, obs_breakdown(&ctx->counters,
						    p->breakdown, p->err),
				1ULL);
		KUNIT_EXPECT_EQ(test, obs_breakdown(g, p->breakdown, p->err) -
				global_bd_before, 1ULL);
		KUNIT_EXPECT_EQ(test, obs_breakdown(&ctx->counters,
						    p->breakdown, 0), 0ULL);
	}
	rdma_mcm_close(ctx);
}

/* Counted in the device's counters too, and a failed join is not a join */
static void mcm_obs_counts_device_and_joins(struct kunit *test)
{
	struct rdma_mcm_counters *dev;
	struct rdma_mcm_ctx *ctx;
	u64 before;

	ctx = obs_open(test, 0);
	dev = READ_ONCE(ctx->dev_counters);
	KUNIT_ASSERT_NOT_NULL(test, dev);
	before = rdma_mcm_counter_read(dev, RDMA_MCM_CNT_JOIN_FAILED);
	obs_path_join_cm_refused(test, ctx);
	KUNIT_EXPECT_EQ(test, rdma_mcm_counter_read(dev,
						    RDMA_MCM_CNT_JOIN_FAILED) -
			before, 1ULL);
	KUNIT_EXPECT_EQ(test, rdma_mcm_counter_read(&ctx->counters,
						    RDMA_MCM_CNT_JOINS), 0ULL);
	obs_join(test, ctx, MCM_GROUP(2));
	KUNIT_EXPECT_EQ(test, rdma_mcm_counter_read(&ctx->counters,
						    RDMA_MCM_CNT_JOINS), 1ULL);
	rdma_mcm_close(ctx);
}

static struct kunit_case rdma_mcm_observe_cases[] = {
	KUNIT_CASE(mcm_obs_dump_resumes_across_changes),
	KUNIT_CASE_SLOW(mcm_obs_dump_beside_churn),
	KUNIT_CASE(mcm_obs_permissions),
	KUNIT_CASE_PARAM(mcm_obs_counts_each_path, obs_paths_gen_params),
	KUNIT_CASE(mcm_obs_counts_device_and_joins),
	{}
};

static struct kunit_suite rdma_mcm_observe_suite = {
	.name = "rdma_mcm_observe",
	.init = mcm_test_init,
	.exit = mcm_test_exit,
	.test_cases = rdma_mcm_observe_cases,
};

kunit_test_suite(rdma_mcm_observe_suite);
