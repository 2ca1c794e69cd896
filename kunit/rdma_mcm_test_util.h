/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * rdma_mcm KUnit: what the suites on the fake backend share. A test's
 * callbacks record what they saw (struct mcm_rec) and can act when
 * called; the suite's init makes the fake, its exit checks that nothing
 * is left behind.
 */
#ifndef _RDMA_MCM_TEST_UTIL_H
#define _RDMA_MCM_TEST_UTIL_H

#include <kunit/test.h>
#include <linux/completion.h>
#include <linux/in.h>
#include <linux/in6.h>

#include "../drivers/rdma_mcm_internal.h"
#include "rdma_mcm_fake.h"

enum mcm_action {
	MCM_ACT_NONE,
	MCM_ACT_LEAVE_SELF,
	MCM_ACT_JOIN_OTHER,
	MCM_ACT_CLOSE,
	MCM_ACT_BLOCK,
};

/* What a test's callbacks saw, and what they do when called. */
struct mcm_rec {
	struct kunit *test;
	struct mcm_fake *fake;
	struct rdma_mcm_ctx *ctx;
	int joined;
	int errors;
	int enodev_errors;
	struct rdma_mcm_join_info last_join;
	u32 last_error_handle;
	void *last_error_context;
	int last_status;

	/* ->device_removed() */
	int removed;
	int errors_at_removed;	/* ->error() calls before it */
	int attached_at_removed; /* QPs the fake had attached then */
	bool device_at_removed;	/* rdma_mcm_device() still gave one */
	bool close_on_removed;	/* it closes the context */
	bool block_on_removed;	/* it waits for the test */
	struct completion removed_entered;
	struct completion removed_release;

	/* healing */
	int rejoining;
	int last_reason;
	u32 last_rejoining_handle;
	int rejoined;
	struct rdma_mcm_join_info last_rejoin;
	int added;
	int set_qp_ret;
	struct ib_qp *qp_on_added;	/* rdma_mcm_set_qp() in ->device_added() */
	bool leave_on_rejoining;	/* ->rejoining() leaves its membership */
	bool close_on_rejoining;	/* ->rejoining() closes the context */
	bool block_on_rejoining;	/* ->rejoining() waits for the test */
	struct completion rejoining_entered;
	struct completion rejoining_release;
	int order_errors;		/* ->rejoined() before ->device_added() */

	struct task_struct *joined_task;	/* ran the last ->joined() */
	bool joined_in_work;	/* ... from the context's work */

	atomic_t in_callback;	/* callbacks running now */
	int overlaps;		/* callbacks that ran beside another */

	enum mcm_action on_joined;
	int action_ret;
	u32 action_handle;
	struct completion block_entered;
	struct completion block_release;
};

struct mcm_test {
	struct mcm_fake *fake;
	struct mcm_rec rec;
	void *suite;	/* a suite's own state, for its init and exit */
};

extern const struct rdma_mcm_ops mcm_rec_ops;

#define MCM_SRC		0xc0000201	/* 192.0.2.1 */
#define MCM_MIN_MS	1000	/* rejoin_backoff_min_ms's default */
#define MCM_MAX_MS	16000	/* rejoin_backoff_max_ms's default */
#define MCM_GROUP(n)	(0xef010100 + (n))	/* 239.1.1.n */

struct sockaddr_in mcm_v4(u32 host_order);
struct sockaddr_in6 mcm_v6(struct kunit *test, const char *text);
struct rdma_mcm_ctx *mcm_open(struct kunit *test);
u32 mcm_join(struct kunit *test, struct rdma_mcm_ctx *ctx, u32 group,
	     struct ib_qp *qp, enum rdma_mcm_join_type type);
struct mcm_fake_join *mcm_fake_join_of(struct kunit *test, u32 group);
enum rdma_mcm_state mcm_state(struct kunit *test, struct rdma_mcm_ctx *ctx,
			      u32 handle);
/* A join in a thread of its own, for a test to act while it is inside. */
struct mcm_joiner {
	struct rdma_mcm_ctx *ctx;
	u32 group;
	u32 handle;
	int ret;
	struct completion done;
};

void mcm_join_in_thread(struct kunit *test, struct mcm_joiner *j);

/* A leave in a thread of its own: is it still inside (returned false)? */
struct mcm_leaver {
	struct rdma_mcm_ctx *ctx;
	u32 handle;
	int ret;
	bool returned;
	struct completion done;
};

void mcm_leave_in_thread(struct kunit *test, struct mcm_leaver *l);
void mcm_wait_removing(struct kunit *test, struct ib_device *dev);
void mcm_restore_params(void *unused);
struct rdma_mcm_ctx *mcm_open_at(struct kunit *test, const struct sockaddr *src,
				 u32 flags);
void mcm_tick(struct kunit *test, struct rdma_mcm_ctx *ctx, u64 ms);
void mcm_rec_init(struct kunit *test, struct mcm_rec *rec,
		  struct mcm_fake *fake);
void mcm_rec_release(struct mcm_rec *rec);
int mcm_test_init(struct kunit *test);
void mcm_test_exit(struct kunit *test);

#endif /* _RDMA_MCM_TEST_UTIL_H */
