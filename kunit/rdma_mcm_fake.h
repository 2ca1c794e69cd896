/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * rdma_mcm KUnit: a fake rdma_cm/verbs backend that misbehaves like the
 * real one.
 *
 * struct mcm_fake embeds the manager's backend ops and records every call.
 * Joins stay pending until a test completes them (or auto_complete does it
 * from inside the join call). What rdma_cm and ib_core can do, the fake
 * can do too:
 *  - deliver any event (MULTICAST_JOIN, MULTICAST_ERROR, DEVICE_REMOVAL)
 *    from inside bind, join, leave or destroy (struct mcm_fake_inject), the
 *    way rdma_cm's handlers run concurrently with those calls;
 *  - remove a device the way ib_core does (mcm_fake_remove_device()):
 *    rdma_mcm's ib_client hears of it first, then rdma_cm sends
 *    DEVICE_REMOVAL to every id still on it and waits until each is
 *    destroyed; also from another thread, started at any point of a call;
 *  - pause inside a call until the test lets it go;
 *  - keep rdma_cm's UDP port space: a second id bound to an address and a
 *    non-zero port fails with -EADDRINUSE;
 *  - map IPv6 groups to MGIDs as rdma_cm does on InfiniBand (only the
 *    last ten bytes count), and refuse a QP attached twice to one MGID;
 *  - resolve a route context's route (ADDR_RESOLVED from inside the call,
 *    or ADDR_ERROR);
 *  - keep a clock of its own, which only the test moves, and record when
 *    (on that clock) each join was asked for: backoff and rate limits are
 *    checked without sleeping. The manager's rejoin work is not armed: a
 *    test runs it with rdma_mcm_rejoin_run().
 * Like rdma_cm, it calls the event handler under a lock that
 * rdma_destroy_id() also takes, so no event reaches a destroyed id.
 */
#ifndef _RDMA_MCM_FAKE_H
#define _RDMA_MCM_FAKE_H

#include <kunit/test.h>
#include <linux/completion.h>
#include <linux/mutex.h>
#include <linux/wait.h>
#include <rdma/ib_verbs.h>
#include <rdma/rdma_cm.h>

#include "../drivers/rdma_mcm_internal.h"

#define MCM_FAKE_NR_DEVS	2
#define MCM_FAKE_QKEY		0x01234567
#define MCM_FAKE_MLID		0xc001
#define MCM_FAKE_ROUTE_SRC	0xc0000263	/* 192.0.2.99: a route's source */

struct mcm_fake_id {
	struct rdma_cm_id id;
	struct list_head node;
	struct sockaddr_storage bound;
	bool destroyed;
};

struct mcm_fake_join {
	struct list_head node;
	struct mcm_fake_id *fid;
	struct sockaddr_storage addr;
	u8 join_state;
	void *context;
	int leaves;		/* rdma_leave_multicast() calls for it */
	int events;		/* events delivered for it */
	unsigned int leave_seq;	/* call sequence number of the leave */
};

/* Where in a call an injection fires */
enum mcm_fake_at {
	MCM_FAKE_AT_NONE,
	MCM_FAKE_AT_BIND,	/* after bind acquired the device */
	MCM_FAKE_AT_JOIN,	/* after the join was recorded */
	MCM_FAKE_AT_LEAVE,	/* before the leave takes effect */
	MCM_FAKE_AT_DESTROY,	/* before the id is destroyed */
	MCM_FAKE_AT_NR,
};

/* What an injection does */
enum mcm_fake_do {
	MCM_FAKE_DO_DEVICE_REMOVAL,	/* that event to the call's id */
	MCM_FAKE_DO_MC_ERROR,		/* MULTICAST_ERROR for a join of the id */
	MCM_FAKE_DO_MC_JOIN,		/* MULTICAST_JOIN for a join of the id */
	MCM_FAKE_DO_REMOVE_DEVICE,	/* start ib_core's removal, other thread */
	MCM_FAKE_DO_PAUSE,		/* block until mcm_fake_resume() */
	MCM_FAKE_DO_GID_CHANGE,		/* ib_core's GID_CHANGE of the device */
	MCM_FAKE_DO_NR,
};

/**
 * struct mcm_fake_inject - something the fake does from inside a call
 * @at: the call (MCM_FAKE_AT_NONE: nothing)
 * @what: what it does there
 * @status: the MULTICAST_ERROR status
 * @skip: let this many calls at @at pass first
 * @fired: how many times it fired (at most once)
 */
struct mcm_fake_inject {
	enum mcm_fake_at at;
	enum mcm_fake_do what;
	int status;
	unsigned int skip;
	int fired;
};

struct mcm_fake {
	struct rdma_mcm_backend be;
	struct kunit *test;
	struct mutex lock;	/* the fake's handler_mutex */
	struct list_head ids;
	struct list_head joins;
	struct list_head attachments;
	wait_queue_head_t wq;	/* an id was destroyed */
	struct ib_device *ibdev[MCM_FAKE_NR_DEVS];
	bool ib[MCM_FAKE_NR_DEVS];	/* InfiniBand, not RoCE */
	bool gone[MCM_FAKE_NR_DEVS];	/* removed: binds fail -ENODEV */
	struct ib_qp qp;	/* a QP a test can hand to joins */
	struct ib_qp qp2;

	/* knobs: the next calls fail with these */
	int create_ret;
	int bind_ret;
	int join_ret;
	int attach_ret;
	bool no_device;		/* bind succeeds but leaves id->device NULL */
	int resolve_ret;	/* rdma_resolve_addr() fails with it */
	int resolve_status;	/* ADDR_ERROR with it instead of ADDR_RESOLVED */
	struct sockaddr_storage route_src;	/* the source a route gives */
	bool auto_complete;	/* join events from inside the join call */
	int bind_dev;		/* the device binds land on */
	u32 bind_port;		/* and the port (1 or 2) */
	struct mcm_fake_inject inject;
	struct completion paused;
	struct completion resume;

	/* counters */
	unsigned int seq;	/* every call bumps it */
	int creates, binds, destroys, joins_called, leaves, attaches, detaches;
	int live_ids;
	int attached;		/* attach minus detach */
	unsigned int last_detach_seq;
	int nonzero_port_binds;	/* binds of an address with a port */

	/* the clock, the randomness, the rejoin work's arming */
	u64 clock_ms;
	u32 jitter;		/* random(range) answers min(jitter, range - 1) */
	int armed;		/* times the manager armed a rejoin run */
	/*
	 * arm the real rejoin work too, an hour ahead (it never runs in a
	 * test): a case can see whether it is still pending
	 */
	bool real_arm;
	unsigned long armed_delay_ms;

	/* when each rdma_join_multicast() was called, on the clock */
	u64 *join_times;
	unsigned int nr_join_times;
	unsigned int max_join_times;

	/* a device removal running in another thread */
	struct task_struct *remover;
	struct completion removed;
	int remove_idx;
};

struct mcm_fake *mcm_fake_create(struct kunit *test);
void mcm_fake_destroy(struct mcm_fake *fake);
void mcm_fake_set_ib(struct mcm_fake *fake, int idx, bool ib);
int mcm_fake_count_joins(struct mcm_fake *fake);
struct mcm_fake_join *mcm_fake_find_join(struct mcm_fake *fake,
					 const struct sockaddr *addr);
bool mcm_fake_complete(struct mcm_fake *fake, struct mcm_fake_join *join,
		       int status, bool even_if_left);
int mcm_fake_complete_all(struct mcm_fake *fake);
void mcm_fake_remove_device(struct mcm_fake *fake, int idx);
void mcm_fake_remove_device_async(struct mcm_fake *fake, int idx);
void mcm_fake_remove_wait(struct mcm_fake *fake);
void mcm_fake_add_device(struct mcm_fake *fake, int idx);
void mcm_fake_resume(struct mcm_fake *fake);
int mcm_fake_live_ids_on(struct mcm_fake *fake, int idx);
void mcm_fake_mgid(bool ib, const struct sockaddr *addr, union ib_gid *mgid);
void mcm_fake_record_joins(struct mcm_fake *fake, unsigned int max);
int mcm_fake_attached_to(struct mcm_fake *fake, struct ib_qp *qp);

#endif /* _RDMA_MCM_FAKE_H */
