/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * rdma_mcm KUnit: a fake rdma_cm/verbs backend.
 *
 * struct mcm_fake embeds the manager's backend ops and records every call.
 * Joins stay pending until a test completes them (or auto_complete does it
 * from inside the join call); a test can fail any call, deliver a join
 * event late, after the membership was left, and inject MULTICAST_ERROR
 * and DEVICE_REMOVAL. Like rdma_cm, it calls the event handler under a
 * lock that rdma_destroy_id() also takes, so no event reaches a destroyed
 * id.
 */
#ifndef _RDMA_MCM_FAKE_H
#define _RDMA_MCM_FAKE_H

#include <kunit/test.h>
#include <linux/mutex.h>
#include <rdma/ib_verbs.h>
#include <rdma/rdma_cm.h>

#include "../drivers/rdma_mcm_internal.h"

struct mcm_fake_id {
	struct rdma_cm_id id;
	struct list_head node;
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

struct mcm_fake {
	struct rdma_mcm_backend be;
	struct kunit *test;
	struct mutex lock;	/* the fake's handler_mutex */
	struct list_head ids;
	struct list_head joins;
	struct ib_device *ibdev;
	struct ib_qp qp;	/* a QP a test can hand to joins */

	/* knobs: the next calls fail with these */
	int create_ret;
	int bind_ret;
	int join_ret;
	int attach_ret;
	bool no_device;		/* bind succeeds but leaves id->device NULL */
	bool auto_complete;	/* join events from inside the join call */

	/* counters */
	unsigned int seq;	/* every call bumps it */
	int creates, binds, destroys, joins_called, leaves, attaches, detaches;
	int live_ids;
	int attached;		/* attach minus detach */
	unsigned int last_detach_seq;
};

struct mcm_fake *mcm_fake_create(struct kunit *test);
int mcm_fake_count_joins(struct mcm_fake *fake);
struct mcm_fake_join *mcm_fake_find_join(struct mcm_fake *fake,
					 const struct sockaddr *addr);
bool mcm_fake_complete(struct mcm_fake *fake, struct mcm_fake_join *join,
		       int status, bool even_if_left);
int mcm_fake_complete_all(struct mcm_fake *fake);
void mcm_fake_remove_device(struct mcm_fake *fake);
void mcm_fake_mgid(const struct sockaddr *addr, union ib_gid *mgid);

#define MCM_FAKE_QKEY	0x01234567
#define MCM_FAKE_MLID	0xc001

#endif /* _RDMA_MCM_FAKE_H */
