// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * KUnit: a healing context looking for its device, and every context
 * checking that its address still leads to it, against the fake backend
 * on the fake's clock: a failed search is tried again, an address that
 * moves to another netdev of the same port (or to another GID entry) is
 * a move, and a storm of GID changes costs one check per context in
 * RDMA_MCM_LOOK_MIN_MS (kernel review findings 3, 4 and 6).
 */
#include <kunit/test.h>
#include <net/net_namespace.h>

#include "rdma_mcm_test_util.h"

#define MCM_VLAN_IFINDEX	150	/* an upper of device 0's netdev */

static struct rdma_mcm_ctx *mcm_open_heal(struct kunit *test, u32 flags)
{
	struct sockaddr_in src = mcm_v4(MCM_SRC);
	struct sockaddr_in dst = mcm_v4(MCM_GROUP(99));

	return mcm_open_at(test, flags & RDMA_MCM_OPEN_ROUTE ?
			   (struct sockaddr *)&dst : (struct sockaddr *)&src,
			   flags | RDMA_MCM_OPEN_HEAL);
}

/* How long from now the context's rejoin work is armed for (-1: not). */
static long mcm_armed_in(struct mcm_fake *fake, struct rdma_mcm_ctx *ctx)
{
	u64 due = mcm_fake_armed_for(fake, ctx);

	return due ? (long)(due - fake->clock_ms) : -1;
}

/*
 * A route context loses its device, and its search for the next one
 * fails: no route for the moment (a route comes back without an RDMA
 * event). The search is tried again after the backoff (the work is armed
 * for it), and again, doubling, until the route is back: then the device
 * is found and the membership rejoined. At 8998c5d nothing tried again:
 * the membership waited for good (finding 3).
 */
static void mcm_look_route_search_retried(struct kunit *test)
{
	struct mcm_test *t = test->priv;
	struct rdma_mcm_ctx *ctx = mcm_open_heal(test, RDMA_MCM_OPEN_ROUTE);
	u32 h, port;
	long wait;

	h = mcm_join(test, ctx, MCM_GROUP(1), NULL, RDMA_MCM_FULLMEMBER);
	mcm_fake_complete_all(t->fake);
	rdma_mcm_flush();
	mcm_fake_remove_device(t->fake, 0);
	rdma_mcm_flush();
	mcm_fake_add_device(t->fake, 0);
	t->fake->resolve_ret = -ENETUNREACH;
	mcm_tick(test, ctx, 0);			/* searches, fails */
	KUNIT_EXPECT_NULL(test, rdma_mcm_device(ctx, &port));
	wait = mcm_armed_in(t->fake, ctx);
	/* the backoff's first wait, with the fake's jitter 0: 3/4 of it */
	KUNIT_EXPECT_EQ(test, wait, (long)MCM_MIN_MS * 3 / 4);
	mcm_tick(test, ctx, wait);		/* fails again: waits longer */
	KUNIT_EXPECT_EQ(test, mcm_armed_in(t->fake, ctx),
			(long)MCM_MIN_MS * 2 * 3 / 4);
	KUNIT_EXPECT_EQ(test, t->rec.added, 0);

	t->fake->resolve_ret = 0;			/* the route is back */
	mcm_tick(test, ctx, mcm_armed_in(t->fake, ctx));
	KUNIT_EXPECT_PTR_EQ(test, rdma_mcm_device(ctx, &port),
			    t->fake->ibdev[0]);
	KUNIT_EXPECT_EQ(test, t->rec.added, 1);
	mcm_fake_complete_all(t->fake);
	rdma_mcm_flush();
	KUNIT_EXPECT_EQ(test, mcm_state(test, ctx, h), RDMA_MCM_JOINED);
	KUNIT_EXPECT_EQ(test, t->rec.rejoined, 1);
	rdma_mcm_close(ctx);
}

/*
 * The same for a context bound to an address whose search fails for
 * memory (the opener's memory cgroup at its limit, say): tried again.
 */
static void mcm_look_search_enomem_retried(struct kunit *test)
{
	struct mcm_test *t = test->priv;
	struct rdma_mcm_ctx *ctx = mcm_open_heal(test, 0);
	u32 port;

	mcm_fake_remove_device(t->fake, 0);
	rdma_mcm_flush();
	t->fake->create_ret = -ENOMEM;
	mcm_fake_add_device(t->fake, 0);
	mcm_tick(test, ctx, 0);
	KUNIT_EXPECT_NULL(test, rdma_mcm_device(ctx, &port));
	KUNIT_EXPECT_GT(test, mcm_armed_in(t->fake, ctx), 0L);
	t->fake->create_ret = 0;
	mcm_tick(test, ctx, mcm_armed_in(t->fake, ctx));
	KUNIT_EXPECT_PTR_EQ(test, rdma_mcm_device(ctx, &port),
			    t->fake->ibdev[0]);
	KUNIT_EXPECT_EQ(test, t->rec.added, 1);
	rdma_mcm_close(ctx);
}

/*
 * The source address moves to a VLAN of its netdev: the same device and
 * port, another netdev. The GID change makes the context check; the
 * check finds the address elsewhere, which is a move: the device is lost
 * and found again, and the full member's IGMP membership and rdma_cm's
 * join are on the VLAN from then on. At 8998c5d the check passed, the
 * membership stayed JOINED with IGMP on the old netdev (finding 4).
 */
static void mcm_look_address_moves_to_vlan(struct kunit *test)
{
	struct mcm_test *t = test->priv;
	struct rdma_mcm_ctx *ctx = mcm_open_heal(test, 0);
	struct sockaddr_in grp = mcm_v4(MCM_GROUP(2));
	struct mcm_fake_ipstate st;
	u32 h;

	h = mcm_join(test, ctx, MCM_GROUP(2), &t->fake->qp,
		     RDMA_MCM_FULLMEMBER);
	mcm_fake_complete_all(t->fake);
	rdma_mcm_flush();
	st = mcm_fake_ip_state(t->fake, MCM_FAKE_IFINDEX0,
			       (struct sockaddr *)&grp);
	KUNIT_ASSERT_EQ(test, st.users, 1);

	t->fake->bind_ifindex = MCM_VLAN_IFINDEX;
	rdma_mcm_dev_changed(t->fake->ibdev[0], 1, RDMA_MCM_DEV_GID_CHANGED);
	mcm_tick(test, ctx, 0);		/* checks: moved */
	rdma_mcm_flush();
	KUNIT_EXPECT_EQ(test, t->rec.removed, 1);
	KUNIT_EXPECT_EQ(test, t->rec.rejoining, 1);
	KUNIT_EXPECT_EQ(test, mcm_state(test, ctx, h), RDMA_MCM_WAITING);
	st = mcm_fake_ip_state(t->fake, MCM_FAKE_IFINDEX0,
			       (struct sockaddr *)&grp);
	KUNIT_EXPECT_EQ(test, st.users, 0);

	t->rec.qp_on_added = &t->fake->qp2;
	mcm_tick(test, ctx, 0);		/* finds the device again */
	KUNIT_EXPECT_EQ(test, t->rec.added, 1);
	mcm_fake_complete_all(t->fake);
	rdma_mcm_flush();
	KUNIT_EXPECT_EQ(test, mcm_state(test, ctx, h), RDMA_MCM_JOINED);
	KUNIT_EXPECT_EQ(test, t->rec.rejoined, 1);
	st = mcm_fake_ip_state(t->fake, MCM_VLAN_IFINDEX,
			       (struct sockaddr *)&grp);
	KUNIT_EXPECT_EQ(test, st.users, 1);
	st = mcm_fake_ip_state(t->fake, MCM_FAKE_IFINDEX0,
			       (struct sockaddr *)&grp);
	KUNIT_EXPECT_EQ(test, st.users, 0);
	KUNIT_EXPECT_EQ(test, mcm_fake_attached_to(t->fake, &t->fake->qp2), 1);

	/* where it is now is where it stays: the next check passes */
	rdma_mcm_dev_changed(t->fake->ibdev[0], 1, RDMA_MCM_DEV_GID_CHANGED);
	mcm_tick(test, ctx, RDMA_MCM_LOOK_MIN_MS);
	rdma_mcm_flush();
	KUNIT_EXPECT_EQ(test, t->rec.removed, 1);
	KUNIT_EXPECT_EQ(test, mcm_state(test, ctx, h), RDMA_MCM_JOINED);
	rdma_mcm_close(ctx);
}

/*
 * The address was removed and added again on the same netdev: its GID
 * came back at another index. The ids' source GID entry is gone (and the
 * address handles a ULP holds name it): a move too.
 */
static void mcm_look_gid_index_changes(struct kunit *test)
{
	struct mcm_test *t = test->priv;
	struct rdma_mcm_ctx *ctx = mcm_open_heal(test, 0);
	u32 h;

	h = mcm_join(test, ctx, MCM_GROUP(3), NULL, RDMA_MCM_FULLMEMBER);
	mcm_fake_complete_all(t->fake);
	rdma_mcm_flush();
	t->fake->bind_gid_index = 3;
	rdma_mcm_dev_changed(t->fake->ibdev[0], 1, RDMA_MCM_DEV_GID_CHANGED);
	mcm_tick(test, ctx, 0);
	rdma_mcm_flush();
	KUNIT_EXPECT_EQ(test, t->rec.removed, 1);
	mcm_tick(test, ctx, 0);
	mcm_fake_complete_all(t->fake);
	rdma_mcm_flush();
	KUNIT_EXPECT_EQ(test, t->rec.added, 1);
	KUNIT_EXPECT_EQ(test, mcm_state(test, ctx, h), RDMA_MCM_JOINED);
	KUNIT_EXPECT_EQ(test, t->rec.rejoined, 1);
	rdma_mcm_close(ctx);
}

/*
 * A check that cannot tell (no memory for the probe's id) is tried again
 * with the backoff, armed for it: a move that happened meanwhile is not
 * missed for want of another GID change.
 */
static void mcm_look_check_retried(struct kunit *test)
{
	struct mcm_test *t = test->priv;
	struct rdma_mcm_ctx *ctx = mcm_open_heal(test, 0);
	long wait;

	mcm_join(test, ctx, MCM_GROUP(4), NULL, RDMA_MCM_FULLMEMBER);
	mcm_fake_complete_all(t->fake);
	rdma_mcm_flush();
	t->fake->bind_ifindex = MCM_VLAN_IFINDEX;
	t->fake->create_ret = -ENOMEM;
	rdma_mcm_dev_changed(t->fake->ibdev[0], 1, RDMA_MCM_DEV_GID_CHANGED);
	mcm_tick(test, ctx, 0);		/* the check fails: no id */
	rdma_mcm_flush();
	KUNIT_EXPECT_EQ(test, t->rec.removed, 0);
	wait = mcm_armed_in(t->fake, ctx);
	KUNIT_EXPECT_EQ(test, wait, (long)MCM_MIN_MS * 3 / 4);
	t->fake->create_ret = 0;
	mcm_tick(test, ctx, wait);	/* tried again: the move is seen */
	rdma_mcm_flush();
	KUNIT_EXPECT_EQ(test, t->rec.removed, 1);
	rdma_mcm_close(ctx);
}

/*
 * A storm of GID changes (a user adding and removing an address of a
 * macvlan of the port in a loop): each context is kicked once until its
 * work runs, and checks its address (an rdma_cm id created, bound and
 * destroyed) at most once in RDMA_MCM_LOOK_MIN_MS, the last change never
 * lost. At 8998c5d every change kicked every context, and every kick
 * checked (finding 6).
 */
static void mcm_look_gid_storm_rate_limited(struct kunit *test)
{
	const int nr_ctx = 4, nr_changes = 200, per_ms = 10;
	struct mcm_test *t = test->priv;
	struct rdma_mcm_ctx *ctx[4];
	int i, j, arms, binds, checks = 0;
	u64 start;

	for (i = 0; i < nr_ctx; i++)
		ctx[i] = mcm_open_heal(test, 0);
	start = t->fake->clock_ms;
	arms = t->fake->armed;
	for (j = 0; j < nr_changes; j++) {
		rdma_mcm_dev_changed(t->fake->ibdev[0], 1,
				     RDMA_MCM_DEV_GID_CHANGED);
		/* the works run as their timers come, 10 changes a ms */
		if ((j + 1) % per_ms)
			continue;
		t->fake->clock_ms++;
		for (i = 0; i < nr_ctx; i++) {
			u64 due = mcm_fake_armed_for(t->fake, ctx[i]);

			if (!due || due > t->fake->clock_ms)
				continue;
			mcm_fake_clear_armed(t->fake, ctx[i]);
			binds = t->fake->binds;
			rdma_mcm_rejoin_run(ctx[i]);
			checks += t->fake->binds - binds;
		}
	}
	/*
	 * 20 ms of storm: each context checked once, at the first run;
	 * armed three times: the first change's kick, the kick of the first
	 * change after that run, and the second run's arming for the check
	 * held back; no kick for the 197 changes after that.
	 */
	KUNIT_EXPECT_EQ(test, checks, nr_ctx);
	KUNIT_EXPECT_EQ(test, t->fake->armed - arms, 3 * nr_ctx);
	/* the changes after the check are checked once the interval ends */
	for (i = 0; i < nr_ctx; i++) {
		KUNIT_EXPECT_EQ(test, mcm_fake_armed_for(t->fake, ctx[i]),
				start + 1 + RDMA_MCM_LOOK_MIN_MS);
	}
	t->fake->clock_ms = start + 1 + RDMA_MCM_LOOK_MIN_MS;
	for (i = 0; i < nr_ctx; i++) {
		mcm_fake_clear_armed(t->fake, ctx[i]);
		binds = t->fake->binds;
		rdma_mcm_rejoin_run(ctx[i]);
		KUNIT_EXPECT_EQ(test, t->fake->binds - binds, 1);
		/* nothing owed after that */
		KUNIT_EXPECT_EQ(test, mcm_fake_armed_for(t->fake, ctx[i]), 0ULL);
	}
	for (i = 0; i < nr_ctx; i++)
		rdma_mcm_close(ctx[i]);
	KUNIT_EXPECT_EQ(test, t->rec.removed, 0);
}

static struct kunit_case rdma_mcm_look_cases[] = {
	KUNIT_CASE(mcm_look_route_search_retried),
	KUNIT_CASE(mcm_look_search_enomem_retried),
	KUNIT_CASE(mcm_look_address_moves_to_vlan),
	KUNIT_CASE(mcm_look_gid_index_changes),
	KUNIT_CASE(mcm_look_check_retried),
	KUNIT_CASE(mcm_look_gid_storm_rate_limited),
	{}
};

static struct kunit_suite rdma_mcm_look_suite = {
	.name = "rdma_mcm_look",
	.init = mcm_test_init,
	.exit = mcm_test_exit,
	.test_cases = rdma_mcm_look_cases,
};

kunit_test_suite(rdma_mcm_look_suite);
