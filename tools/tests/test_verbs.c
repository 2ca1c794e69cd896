// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Unit tests of the library's verbs helpers. ibv_attach_mcast() and
 * ibv_detach_mcast() are defined here: the test links the library's
 * objects, so they take the place of libibverbs' and record each call.
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>

#include <infiniband/verbs.h>

#include "fake_dev.h"
#include "harness.h"
#include "rdma_mcm_priv.h"
#include "tutil.h"

#define MAX_CALLS	8

struct mcast_call {
	struct ibv_qp *qp;
	uint8_t gid[16];
	uint16_t lid;
};

static struct mcast_call attached[MAX_CALLS], detached[MAX_CALLS];
static int nr_attached, nr_detached;

int ibv_attach_mcast(struct ibv_qp *qp, const union ibv_gid *gid,
		     uint16_t lid)
{
	struct mcast_call *c = &attached[nr_attached++ % MAX_CALLS];

	c->qp = qp;
	memcpy(c->gid, gid->raw, 16);
	c->lid = lid;
	return 0;
}

int ibv_detach_mcast(struct ibv_qp *qp, const union ibv_gid *gid,
		     uint16_t lid)
{
	struct mcast_call *c = &detached[nr_detached++ % MAX_CALLS];

	c->qp = qp;
	memcpy(c->gid, gid->raw, 16);
	c->lid = lid;
	return 0;
}

static void reset_calls(void)
{
	nr_attached = 0;
	nr_detached = 0;
	memset(attached, 0, sizeof(attached));
	memset(detached, 0, sizeof(detached));
}

static void test_verbs_helpers(void)
{
	struct rdma_mcm_channel *ch;
	struct rdma_mcm_join_entry je[1];
	struct rdma_mcm_event ev;
	struct ibv_ah_attr attr;
	struct ibv_qp *qp = (struct ibv_qp *)&attr;	/* never used */
	uint32_t ctx, h;

	reset_calls();
	ch = setup(O_NONBLOCK, &ctx);
	memset(je, 0, sizeof(je));
	entry_addr(je[0].addr, "239.6.6.1");
	je[0].join_flags = RDMA_MCM_JOIN_SENDONLY_FULLMEMBER;
	CHECK(rdma_mcm_join_batch(ch, ctx, je, 1) == 1);
	fake_complete(ctx, je[0].handle, 0);
	CHECK(rdma_mcm_get_event(ch, &ev) == 0);
	CHECK_ERRNO(rdma_mcm_attach_qp(ch, qp, &ev), EOPNOTSUPP);
	ev.handle = 99;
	CHECK_ERRNO(rdma_mcm_attach_qp(ch, qp, &ev), EADDRNOTAVAIL);
	ev.event = RDMA_MCM_EVENT_ERROR;
	CHECK_ERRNO(rdma_mcm_attach_qp(ch, qp, &ev), EINVAL);
	CHECK_ERRNO(rdma_mcm_attach_qp(ch, NULL, &ev), EINVAL);
	CHECK(!rdma_mcm_create_ah(NULL, &ev) && errno == EINVAL);
	CHECK_ERRNO(rdma_mcm_init_ah_attr(&ev, 0, &attr), EINVAL);
	CHECK(nr_attached == 0);

	h = join(ch, ctx, "239.6.6.2", 7);
	fake_complete(ctx, h, 0);
	CHECK(rdma_mcm_get_event(ch, &ev) == 0 && ev.handle == h);
	ev.mlid = 0xc001;
	ev.sl = 3;
	ev.flow_label = 0x12345;
	ev.traffic_class = 0x20;
	ev.hop_limit = 64;
	CHECK(rdma_mcm_init_ah_attr(&ev, 3, &attr) == 0);
	CHECK(attr.dlid == 0xc001 && attr.sl == 3 && attr.port_num == 1);
	CHECK(attr.is_global == 1 && attr.grh.sgid_index == 3);
	CHECK(!memcmp(attr.grh.dgid.raw, ev.dgid, 16));
	CHECK(attr.grh.flow_label == 0x12345 && attr.grh.hop_limit == 64);
	CHECK(attr.grh.traffic_class == 0x20);
	/* leave_detach with no QP is a plain leave */
	CHECK(rdma_mcm_leave_detach(ch, ctx, h, NULL) == 0);
	CHECK(nr_detached == 0);
	CHECK_ERRNO(rdma_mcm_leave_detach(ch, ctx, h, NULL), EADDRNOTAVAIL);
	rdma_mcm_close_channel(ch);
}

/* Two QPs attached to a membership that then went to ERROR */
static void test_detach_after_error(void)
{
	struct ibv_qp qp1, qp2;
	struct rdma_mcm_channel *ch;
	struct rdma_mcm_event ev, lost;
	struct rdma_mcm_member mb;
	uint32_t ctx, h;

	reset_calls();
	ch = setup(O_NONBLOCK, &ctx);
	h = join(ch, ctx, "239.6.7.1", 1);
	fake_complete(ctx, h, 0);
	CHECK(rdma_mcm_get_event(ch, &ev) == 0);
	ev.mlid = 0xc002;	/* as InfiniBand would give */
	CHECK(rdma_mcm_attach_qp(ch, &qp1, &ev) == 0);
	CHECK(rdma_mcm_attach_qp(ch, &qp2, &ev) == 0);
	CHECK(nr_attached == 2 && attached[0].qp == &qp1);
	CHECK(!memcmp(attached[0].gid, ev.mgid, 16));
	CHECK(attached[0].lid == 0xc002);

	/* the group is lost: the QPs are still attached */
	CHECK(fake_lose(ctx, h, -ENETRESET) == 0);
	CHECK(rdma_mcm_get_event(ch, &lost) == 0);
	CHECK(lost.event == RDMA_MCM_EVENT_ERROR && lost.handle == h);
	CHECK(rdma_mcm_query(ch, ctx, h, &mb) == 0);
	CHECK(mb.state == RDMA_MCM_STATE_ERROR);

	/* detached with what was attached (MGID and MLID), then left */
	CHECK(rdma_mcm_leave_detach(ch, ctx, h, &qp1) == 0);
	CHECK(nr_detached == 1 && detached[0].qp == &qp1);
	CHECK(!memcmp(detached[0].gid, ev.mgid, 16));
	CHECK(detached[0].lid == 0xc002);
	CHECK(!fake_find(ctx, h));
	rdma_mcm_close_channel(ch);
}

/* A QP the application attached itself: the kernel's MGID is used. */
static void test_detach_unrecorded(void)
{
	struct ibv_qp qp;
	struct rdma_mcm_channel *ch;
	struct rdma_mcm_event ev;
	uint32_t ctx, h;

	reset_calls();
	ch = setup(O_NONBLOCK, &ctx);
	h = join(ch, ctx, "239.6.7.2", 1);
	/* still joining: there is no group to detach from */
	CHECK(rdma_mcm_leave_detach(ch, ctx, h, &qp) == 0);
	CHECK(nr_detached == 0);
	h = join(ch, ctx, "239.6.7.2", 1);
	fake_complete(ctx, h, 0);
	CHECK(rdma_mcm_get_event(ch, &ev) == 0);
	CHECK(rdma_mcm_leave_detach(ch, ctx, h, &qp) == 0);
	CHECK(nr_detached == 1 && detached[0].qp == &qp);
	CHECK(!memcmp(detached[0].gid, ev.mgid, 16));
	rdma_mcm_close_channel(ch);
}

void verbs_tests(void)
{
	h_run("verbs helpers", test_verbs_helpers);
	h_run("leave_detach detaches a QP from a group lost to ERROR",
	      test_detach_after_error);
	h_run("leave_detach of a QP the application attached",
	      test_detach_unrecorded);
}
