// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Unit tests of the library's verbs helpers, on the fake libibverbs
 * (fake_verbs.c: its ibv_attach_mcast(), ibv_detach_mcast(),
 * ibv_query_port(), ibv_query_gid_ex() and ibv_create_ah() take the
 * place of libibverbs' and record each call, or play a device's GID
 * tables), and the fake device: attaching, detaching, the QPs of a
 * healing context's membership across a rejoin and across the loss of
 * the device, the address handle's source GID, and the device of a
 * context (rdma_mcm_open_device()).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <infiniband/ib.h>	/* librdmacm-dev: struct sockaddr_ib */
#include <infiniband/verbs.h>

#include "fake_dev.h"
#include "fake_verbs.h"
#include "harness.h"
#include "rdma_mcm_priv.h"
#include "tutil.h"

/* --- a device's GID tables ------------------------------------------- */

struct gid_row {
	const char *gid;
	uint32_t type;			/* enum ibv_gid_type */
	uint32_t ifindex;		/* its netdev */
};

#define V1	IBV_GID_TYPE_ROCE_V1
#define V2	IBV_GID_TYPE_ROCE_V2
#define LL	"fe80::211:22ff:fe33:4455"

/*
 * Port 1, RoCE: the netdev (ifindex 2) has 10.0.0.1 and 2001:db8::1, a
 * VLAN on it (ifindex 3) has 10.0.0.9; both have the same link-local
 * address. Each address has a RoCE v1 and a v2 entry, as the kernel
 * makes them; the VLAN's come first.
 */
static const struct gid_row port1[] = {
	{ LL, V1, 2 }, { LL, V2, 2 },
	{ "::ffff:10.0.0.9", V1, 3 }, { "::ffff:10.0.0.9", V2, 3 },
	{ "::ffff:10.0.0.1", V1, 2 }, { "::ffff:10.0.0.1", V2, 2 },
	{ LL, V1, 3 }, { LL, V2, 3 },
	{ "2001:db8::1", V1, 2 }, { "2001:db8::1", V2, 2 },
};

/* Port 2, RoCE: 10.0.0.2, then 10.0.0.1 */
static const struct gid_row port2[] = {
	{ "::ffff:10.0.0.2", V2, 4 }, { "::ffff:10.0.0.1", V2, 4 },
};

/* Port 3, InfiniBand: the port GID and an alias GID */
static const struct gid_row port3[] = {
	{ "fe80::2:c903:1:1", IBV_GID_TYPE_IB, 0 },
	{ "fe80::2:c903:1:2", IBV_GID_TYPE_IB, 0 },
};

static void add_rows(struct fv_dev *d, uint8_t link_layer,
		     const struct gid_row *rows, size_t n)
{
	int port = fv_add_port(d, link_layer);
	size_t i;

	for (i = 0; i < n; i++)
		fv_add_gid(d, port, rows[i].gid, rows[i].type, rows[i].ifindex);
}

/* Device "mlx0" with the three ports above; returns it */
static struct fv_dev *three_ports(void)
{
	struct fv_dev *d;

	fv_reset();
	d = fv_add_dev("mlx0");
	add_rows(d, IBV_LINK_LAYER_ETHERNET, port1,
		 sizeof(port1) / sizeof(port1[0]));
	add_rows(d, IBV_LINK_LAYER_ETHERNET, port2,
		 sizeof(port2) / sizeof(port2[0]));
	add_rows(d, IBV_LINK_LAYER_INFINIBAND, port3,
		 sizeof(port3) / sizeof(port3[0]));
	return d;
}

static void reset_calls(void)
{
	three_ports();
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
	CHECK(fv.nr_attached == 0);

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
	CHECK(fv.nr_detached == 0);
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
	CHECK(fv.nr_attached == 2 && fv.attached[0].qp == &qp1);
	CHECK(!memcmp(fv.attached[0].gid, ev.mgid, 16));
	CHECK(fv.attached[0].lid == 0xc002);

	/* the group is lost: the QPs are still attached */
	CHECK(fake_lose(ctx, h, -ENETRESET) == 0);
	CHECK(rdma_mcm_get_event(ch, &lost) == 0);
	CHECK(lost.event == RDMA_MCM_EVENT_ERROR && lost.handle == h);
	CHECK(rdma_mcm_query(ch, ctx, h, &mb) == 0);
	CHECK(mb.state == RDMA_MCM_STATE_ERROR);

	/* detached with what was attached (MGID and MLID), then left */
	CHECK(rdma_mcm_leave_detach(ch, ctx, h, &qp1) == 0);
	CHECK(fv.nr_detached == 1 && fv.detached[0].qp == &qp1);
	CHECK(!memcmp(fv.detached[0].gid, ev.mgid, 16));
	CHECK(fv.detached[0].lid == 0xc002);
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
	CHECK(fv.nr_detached == 0);
	h = join(ch, ctx, "239.6.7.2", 1);
	fake_complete(ctx, h, 0);
	CHECK(rdma_mcm_get_event(ch, &ev) == 0);
	CHECK(rdma_mcm_leave_detach(ch, ctx, h, &qp) == 0);
	CHECK(fv.nr_detached == 1 && fv.detached[0].qp == &qp);
	CHECK(!memcmp(fv.detached[0].gid, ev.mgid, 16));
	rdma_mcm_close_channel(ch);
}

/* A context on @src, a membership of @group in it, and its JOINED event */
static uint32_t joined_on(struct rdma_mcm_channel *ch,
			  const struct sockaddr *src,
			  const struct sockaddr *group,
			  struct rdma_mcm_event *ev)
{
	uint32_t ctx = 0, h = 0;

	CHECK(rdma_mcm_create_ctx(ch, src, &ctx) == 0);
	CHECK(rdma_mcm_join(ch, ctx, group, 0, 1, &h) == 0);
	CHECK(fake_complete(ctx, h, 0) == 0);
	CHECK(rdma_mcm_get_event(ch, ev) == 0);
	CHECK(ev->event == RDMA_MCM_EVENT_JOINED && ev->handle == h);
	return ctx;
}

/* The source GID index create_ah_ex() (@ex) or create_ah() gave; -1: none */
static int sgid_of(struct rdma_mcm_channel *ch, struct ibv_pd *pd,
		   const struct rdma_mcm_event *ev, int ex)
{
	struct ibv_ah *ah;
	int n = fv.nr_create_ah;

	ah = ex ? rdma_mcm_create_ah_ex(ch, pd, ev) :
		  rdma_mcm_create_ah(pd, ev);
	if (!ah || fv.nr_create_ah != n + 1)
		return -1;
	ibv_destroy_ah(ah);
	return fv.ah_attr.grh.sgid_index;
}

static void ib_addr(struct sockaddr_storage *ss, const char *gid)
{
	struct sockaddr_ib *sib = (struct sockaddr_ib *)ss;

	memset(ss, 0, sizeof(*ss));
	sib->sib_family = AF_IB;
	if (inet_pton(AF_INET6, gid, &sib->sib_addr) != 1)
		abort();
}

/*
 * create_ah_ex() sends from the GID of the context's source address: on
 * the event's port, RoCE v2, on the source's netdev for a scoped IPv6
 * address; the rule of create_ah() (which it keeps) only if the table has
 * no such GID.
 */
static void test_create_ah_source(void)
{
	struct sockaddr_storage src, g;
	struct rdma_mcm_channel *ch;
	struct rdma_mcm_event ev, ev2, ev6, evll, evib;
	struct ibv_context vctx;
	struct ibv_pd pd;
	uint32_t ctx, ctx2;

	memset(&vctx, 0, sizeof(vctx));
	memset(&pd, 0, sizeof(pd));
	pd.context = &vctx;
	three_ports();
	ch = setup(O_NONBLOCK, &ctx);	/* on 10.0.0.1 */
	g = addr("239.6.8.1");
	CHECK(rdma_mcm_join(ch, ctx, SA(g), 0, 1, NULL) == 0);
	CHECK(fake_complete_all() == 1);
	CHECK(rdma_mcm_get_event(ch, &ev) == 0 && ev.port_num == 1);

	/* 10.0.0.1's RoCE v2 entry, not the VLAN's 10.0.0.9 before it */
	CHECK(sgid_of(ch, &pd, &ev, 1) == 5);
	CHECK(!memcmp(fv.ah_attr.grh.dgid.raw, ev.dgid, 16));
	CHECK(fv.ah_attr.port_num == 1 && fv.ah_attr.is_global == 1);
	CHECK(fv.ah_attr.grh.hop_limit == ev.hop_limit);
	/* create_ah() as before: the first RoCE v2 IPv4 entry */
	CHECK(sgid_of(ch, &pd, &ev, 0) == 3);
	/* the event's port: 10.0.0.1 is entry 1 of port 2 */
	ev.port_num = 2;
	CHECK(sgid_of(ch, &pd, &ev, 1) == 1);
	CHECK(sgid_of(ch, &pd, &ev, 0) == 0);
	ev.port_num = 1;

	/* a source the table does not have: create_ah()'s rule */
	src = addr("10.0.0.77");
	g = addr("239.6.8.2");
	ctx2 = joined_on(ch, SA(src), SA(g), &ev2);
	CHECK(sgid_of(ch, &pd, &ev2, 1) == 3);

	/* IPv6: the global address; the link-local one of the VLAN */
	src = addr("2001:db8::1");
	g = addr("ff0e::8");
	joined_on(ch, SA(src), SA(g), &ev6);
	CHECK(sgid_of(ch, &pd, &ev6, 1) == 9);
	CHECK(sgid_of(ch, &pd, &ev6, 0) == 1);
	src = addr(LL "%3");
	g = addr("ff12::8");
	joined_on(ch, SA(src), SA(g), &evll);
	CHECK(sgid_of(ch, &pd, &evll, 1) == 7);
	CHECK(sgid_of(ch, &pd, &evll, 0) == 1);

	/* InfiniBand, AF_IB: the alias GID the context is bound to */
	ib_addr(&src, "fe80::2:c903:1:2");
	ib_addr(&g, "ff12:401b::1");
	joined_on(ch, SA(src), SA(g), &evib);
	evib.port_num = 3;
	CHECK(sgid_of(ch, &pd, &evib, 1) == 1);
	CHECK(sgid_of(ch, &pd, &evib, 0) == 0);
	ib_addr(&src, "fe80::2:c903:1:9");
	ib_addr(&g, "ff12:401b::2");
	joined_on(ch, SA(src), SA(g), &evib);
	evib.port_num = 3;
	CHECK(sgid_of(ch, &pd, &evib, 1) == 0);

	/* refusals: nothing is created */
	fv.nr_create_ah = 0;
	CHECK(!rdma_mcm_create_ah_ex(NULL, &pd, &ev) && errno == EINVAL);
	CHECK(!rdma_mcm_create_ah_ex(ch, NULL, &ev) && errno == EINVAL);
	CHECK(!rdma_mcm_create_ah_ex(ch, &pd, NULL) && errno == EINVAL);
	ev.event = RDMA_MCM_EVENT_ERROR;
	CHECK(!rdma_mcm_create_ah_ex(ch, &pd, &ev) && errno == EINVAL);
	ev.event = RDMA_MCM_EVENT_JOINED;
	/* a context this channel does not have (any more) */
	ev.ctx_id = 99;
	CHECK(!rdma_mcm_create_ah_ex(ch, &pd, &ev) && errno == ENOENT);
	CHECK(rdma_mcm_destroy_ctx(ch, ctx2) == 0);
	CHECK(!rdma_mcm_create_ah_ex(ch, &pd, &ev2) && errno == ENOENT);
	CHECK(fv.nr_create_ah == 0);
	rdma_mcm_close_channel(ch);
}

#ifdef MCM_TEST_OLD
#define NEGOTIATES	0
#else
#define NEGOTIATES	1
#endif

/* A healing context on 10.0.0.1, a membership of @group, JOINED */
static struct rdma_mcm_channel *heal_joined(uint32_t *ctx, uint32_t *h,
					    struct rdma_mcm_event *ev)
{
	struct rdma_mcm_channel *ch = heal_setup(RDMA_MCM_CTX_HEAL, ctx);

	*h = join(ch, *ctx, "239.6.9.1", 1);
	fake_complete(*ctx, *h, 0);
	CHECK(rdma_mcm_get_event(ch, ev) == 0);
	CHECK(ev->event == RDMA_MCM_EVENT_JOINED);
	return ch;
}

/*
 * A transient error: the library detaches the QP it attached (the group
 * is WAITING), refuses to attach to a waiting membership, and attaches it
 * again with rdma_mcm_reattach_qp() to what REJOINED reports; leave_detach
 * then detaches it once, from the new group.
 */
static void test_rejoin_reattach(void)
{
	struct rdma_mcm_channel *ch;
	struct rdma_mcm_event ev, lost, back;
	struct ibv_qp qp;
	uint32_t ctx, h;

	if (!NEGOTIATES)
		return;
	three_ports();
	ch = heal_joined(&ctx, &h, &ev);
	ev.mlid = 0xc001;
	CHECK(rdma_mcm_attach_qp(ch, &qp, &ev) == 0);
	CHECK(fv.nr_attached == 1 && fv.nr_detached == 0);

	CHECK(fake_lose(ctx, h, -ENETRESET) == 0);
	/* detached as soon as the library reads REJOINING */
	CHECK(mcm_fill(ch) == 1);
	CHECK(fv.nr_detached == 1 && fv.detached[0].qp == &qp);
	CHECK(!memcmp(fv.detached[0].gid, ev.mgid, 16) && fv.detached[0].lid == 0xc001);
	CHECK(rdma_mcm_get_event(ch, &lost) == 0);
	CHECK(lost.event == RDMA_MCM_EVENT_REJOINING);
	/* waiting: no attach, no re-attach */
	CHECK_ERRNO(rdma_mcm_attach_qp(ch, &qp, &ev), EAGAIN);
	CHECK_ERRNO(rdma_mcm_reattach_qp(ch, &ev), EAGAIN);
	CHECK(fv.nr_attached == 1);

	CHECK(fake_rejoin(ctx, h, 0xc002) == 0);
	CHECK(rdma_mcm_get_event(ch, &back) == 0);
	CHECK(back.event == RDMA_MCM_EVENT_REJOINED && back.mlid == 0xc002);
	CHECK(rdma_mcm_reattach_qp(ch, &back) == 1);
	CHECK(fv.nr_attached == 2 && fv.attached[1].qp == &qp);
	CHECK(fv.attached[1].lid == 0xc002);
	/* nothing more to attach again */
	CHECK(rdma_mcm_reattach_qp(ch, &back) == 0);
	CHECK(fv.nr_attached == 2);

	/* once more, attached again with attach_qp: the same record */
	CHECK(fake_lose(ctx, h, -ETIMEDOUT) == 0);
	CHECK(rdma_mcm_get_event(ch, &lost) == 0 && fv.nr_detached == 2);
	CHECK(fv.detached[1].lid == 0xc002);
	CHECK(fake_rejoin(ctx, h, 0xc003) == 0);
	CHECK(rdma_mcm_get_event(ch, &back) == 0);
	CHECK(rdma_mcm_attach_qp(ch, &qp, &back) == 0);
	CHECK(fv.nr_attached == 3 && fv.attached[2].lid == 0xc003);
	CHECK(rdma_mcm_reattach_qp(ch, &back) == 0);

	/* detached once, from what is attached now, and left */
	CHECK(rdma_mcm_leave_detach(ch, ctx, h, &qp) == 0);
	CHECK(fv.nr_detached == 3 && fv.detached[2].lid == 0xc003);
	CHECK(!fake_find(ctx, h));
	CHECK_ERRNO(rdma_mcm_reattach_qp(ch, &back), EADDRNOTAVAIL);
	CHECK_ERRNO(rdma_mcm_reattach_qp(NULL, &back), EINVAL);
	lost.handle = h;
	CHECK_ERRNO(rdma_mcm_reattach_qp(ch, &lost), EINVAL);
	rdma_mcm_close_channel(ch);
}

/*
 * A source-specific membership is the library's as any other: its QP
 * attached, detached at REJOINING and attached again at REJOINED (the
 * kernel joins it again with its sources), detached at its leave
 */
static void test_source_member_qp(void)
{
	struct sockaddr_storage g = addr("239.6.8.1"), s1 = addr("192.0.2.1");
	const struct sockaddr *src[1] = { SA(s1) };
	struct rdma_mcm_channel *ch;
	struct rdma_mcm_event ev;
	struct rdma_mcm_member mb;
	struct ibv_qp qp;
	uint32_t ctx;

	if (!NEGOTIATES)
		return;
	three_ports();
	ch = heal_setup(RDMA_MCM_CTX_HEAL, &ctx);
	fake.auto_complete = 1;
	CHECK(rdma_mcm_join_source_sync(ch, ctx, SA(g), src, 1, 0, 1, 1000,
					&ev) == 0);
	CHECK(rdma_mcm_attach_qp(ch, &qp, &ev) == 0 && fv.nr_attached == 1);
	CHECK(fake_lose(ctx, ev.handle, -ENETRESET) == 0);
	CHECK(rdma_mcm_get_event(ch, &ev) == 0);
	CHECK(ev.event == RDMA_MCM_EVENT_REJOINING && fv.nr_detached == 1);
	CHECK(fake_rejoin(ctx, ev.handle, 0) == 0);
	CHECK(rdma_mcm_get_event(ch, &ev) == 0);
	CHECK(ev.event == RDMA_MCM_EVENT_REJOINED);
	CHECK(rdma_mcm_reattach_qp(ch, &ev) == 1 && fv.nr_attached == 2);
	CHECK(rdma_mcm_query(ch, ctx, ev.handle, &mb) == 0);
	CHECK(mb.nr_sources == 1 && mb.rejoins == 1);
	CHECK(rdma_mcm_leave_detach(ch, ctx, ev.handle, &qp) == 0);
	CHECK(fv.nr_detached == 2 && !fake_find(ctx, ev.handle));
	rdma_mcm_close_channel(ch);
}

/* A membership WAITING when left: its QP is not detached a second time */
static void test_leave_while_waiting(void)
{
	struct rdma_mcm_channel *ch;
	struct rdma_mcm_event ev;
	struct ibv_qp qp;
	uint32_t ctx, h;

	if (!NEGOTIATES)
		return;
	three_ports();
	ch = heal_joined(&ctx, &h, &ev);
	CHECK(rdma_mcm_attach_qp(ch, &qp, &ev) == 0);
	CHECK(fake_lose(ctx, h, -ENETRESET) == 0);
	CHECK(mcm_fill(ch) == 1 && fv.nr_detached == 1);
	CHECK(rdma_mcm_leave_detach(ch, ctx, h, &qp) == 0);
	CHECK(fv.nr_detached == 1 && !fake_find(ctx, h));
	rdma_mcm_close_channel(ch);
}

/*
 * The device goes: REJOINING -ENODEV makes the library detach and forget
 * the QP (it dies with its device); after DEVICE_ADDED and REJOINED a QP
 * on the new device is attached with attach_qp, and the old one is never
 * touched again.
 */
static void test_device_loss_qps(void)
{
	struct rdma_mcm_channel *ch;
	struct rdma_mcm_event ev, back;
	struct ibv_qp old, fresh;
	uint32_t ctx, h;
	int i;

	if (!NEGOTIATES)
		return;
	three_ports();
	ch = heal_joined(&ctx, &h, &ev);
	CHECK(rdma_mcm_attach_qp(ch, &old, &ev) == 0);
	CHECK(fake_device_gone(ctx) == 0);
	CHECK(rdma_mcm_get_event(ch, &ev) == 0);
	CHECK(ev.event == RDMA_MCM_EVENT_REJOINING && ev.status == -ENODEV);
	CHECK(fv.nr_detached == 1 && fv.detached[0].qp == &old);
	CHECK(!mcm_table_find(&ch->members, ctx, h)->attached);
	CHECK(rdma_mcm_get_event(ch, &ev) == 0);
	CHECK(ev.event == RDMA_MCM_EVENT_DEVICE_REMOVED);
	CHECK(fake_device_back(ctx, 1, 1) == 0);
	CHECK(rdma_mcm_get_event(ch, &ev) == 0);
	CHECK(ev.event == RDMA_MCM_EVENT_DEVICE_ADDED);
	CHECK(rdma_mcm_get_event(ch, &back) == 0);
	CHECK(back.event == RDMA_MCM_EVENT_REJOINED);
	CHECK(rdma_mcm_reattach_qp(ch, &back) == 0);
	CHECK(rdma_mcm_attach_qp(ch, &fresh, &back) == 0);
	CHECK(fv.nr_attached == 2 && fv.attached[1].qp == &fresh);
	CHECK(rdma_mcm_leave_detach(ch, ctx, h, &fresh) == 0);
	CHECK(fv.nr_detached == 2 && fv.detached[1].qp == &fresh);
	for (i = 1; i < fv.nr_attached; i++)
		CHECK(fv.attached[i].qp != &old);
	rdma_mcm_close_channel(ch);

	/* QPs already detached for a rejoin are forgotten at DEVICE_REMOVED */
	three_ports();
	ch = heal_joined(&ctx, &h, &ev);
	CHECK(rdma_mcm_attach_qp(ch, &old, &ev) == 0);
	CHECK(fake_lose(ctx, h, -ENETRESET) == 0);
	CHECK(mcm_fill(ch) == 1 && fv.nr_detached == 1);
	CHECK(mcm_table_find(&ch->members, ctx, h)->attached);
	CHECK(fake_device_gone(ctx) == 0);
	CHECK(mcm_fill(ch) == 1);
	CHECK(!mcm_table_find(&ch->members, ctx, h)->attached);
	CHECK(fv.nr_detached == 1);
	rdma_mcm_close_channel(ch);
}

/* detach_qp: detach and forget, without leaving; for a QP to destroy */
static void test_detach_qp(void)
{
	struct rdma_mcm_channel *ch;
	struct rdma_mcm_event ev, ev2;
	struct ibv_qp qp, qp2;
	uint32_t ctx, h, h2;

	if (!NEGOTIATES)
		return;
	three_ports();
	ch = heal_joined(&ctx, &h, &ev);
	h2 = join(ch, ctx, "239.6.9.2", 2);
	fake_complete(ctx, h2, 0);
	CHECK(rdma_mcm_get_event(ch, &ev2) == 0 && ev2.handle == h2);
	CHECK(rdma_mcm_attach_qp(ch, &qp, &ev) == 0);
	CHECK(rdma_mcm_attach_qp(ch, &qp2, &ev) == 0);
	CHECK(rdma_mcm_attach_qp(ch, &qp, &ev2) == 0);
	/* one QP of one membership */
	CHECK(rdma_mcm_detach_qp(ch, ctx, h, &qp) == 0);
	CHECK(fv.nr_detached == 1 && fv.detached[0].qp == &qp);
	CHECK(!memcmp(fv.detached[0].gid, ev.mgid, 16));
	CHECK(rdma_mcm_detach_qp(ch, ctx, h, &qp) == 0);
	CHECK(fv.nr_detached == 1);
	/* a QP detached for a rejoin is only forgotten */
	CHECK(fake_lose(ctx, h, -ENETRESET) == 0);
	CHECK(mcm_fill(ch) == 1 && fv.nr_detached == 2);
	CHECK(fv.detached[1].qp == &qp2);
	/* every QP of every membership of the context */
	CHECK(rdma_mcm_detach_qp(ch, ctx, 0, NULL) == 0);
	CHECK(fv.nr_detached == 3 && fv.detached[2].qp == &qp);
	CHECK(!memcmp(fv.detached[2].gid, ev2.mgid, 16));
	CHECK(!mcm_table_find(&ch->members, ctx, h)->attached);
	CHECK(!mcm_table_find(&ch->members, ctx, h2)->attached);
	/* nothing was left */
	CHECK(fake_find(ctx, h) && fake_find(ctx, h2));
	CHECK(fake_rejoin(ctx, h, 0) == 0);
	CHECK(rdma_mcm_get_event(ch, &ev) == 0);
	CHECK(rdma_mcm_get_event(ch, &ev) == 0);
	CHECK(ev.event == RDMA_MCM_EVENT_REJOINED);
	CHECK(rdma_mcm_reattach_qp(ch, &ev) == 0);
	CHECK_ERRNO(rdma_mcm_detach_qp(ch, ctx, 99, &qp), EADDRNOTAVAIL);
	CHECK_ERRNO(rdma_mcm_detach_qp(ch, ctx + 9, 0, &qp), ENOENT);
	CHECK_ERRNO(rdma_mcm_detach_qp(NULL, ctx, 0, &qp), EINVAL);
	rdma_mcm_close_channel(ch);
}

/*
 * A healing context whose REJOINED the application does not get: it
 * could never attach again after a rejoin, so attach_qp refuses.
 */
static void test_attach_needs_rejoined(void)
{
	struct rdma_mcm_channel *ch;
	struct rdma_mcm_event ev;
	struct ibv_qp qp;
	uint32_t ctx, h;

	if (!NEGOTIATES)
		return;
	three_ports();
	ch = heal_joined(&ctx, &h, &ev);
	CHECK(rdma_mcm_set_event_mask(ch, ALL_EVENTS & ~BIT(REJOINED),
				      NULL) == 0);
	CHECK_ERRNO(rdma_mcm_attach_qp(ch, &qp, &ev), EINVAL);
	CHECK(fv.nr_attached == 0);
	CHECK(rdma_mcm_set_event_mask(ch, ALL_EVENTS, NULL) == 0);
	CHECK(rdma_mcm_attach_qp(ch, &qp, &ev) == 0);
	rdma_mcm_close_channel(ch);
}

/* REJOINED builds address handles as JOINED does; a ROUTE context's source */
static void test_ah_rejoined_route(void)
{
	struct sockaddr_storage g = addr("239.6.9.7");
	struct rdma_mcm_channel *ch;
	struct rdma_mcm_event ev;
	struct ibv_ah_attr attr;
	struct ibv_context vctx;
	struct ibv_pd pd;
	uint32_t ctx, h;
	int q;

	if (!NEGOTIATES)
		return;
	three_ports();
	memset(&vctx, 0, sizeof(vctx));
	memset(&pd, 0, sizeof(pd));
	pd.context = &vctx;
	ch = heal_joined(&ctx, &h, &ev);
	fake_lose(ctx, h, -ENETRESET);
	fake_rejoin(ctx, h, 0);
	CHECK(rdma_mcm_get_event(ch, &ev) == 0);
	CHECK(rdma_mcm_get_event(ch, &ev) == 0);
	CHECK(ev.event == RDMA_MCM_EVENT_REJOINED);
	CHECK(rdma_mcm_init_ah_attr(&ev, 2, &attr) == 0);
	CHECK(attr.grh.sgid_index == 2 && attr.port_num == 1);
	CHECK(sgid_of(ch, &pd, &ev, 1) == 5);
	CHECK(sgid_of(ch, &pd, &ev, 0) == 3);
	rdma_mcm_close_channel(ch);

	/*
	 * ROUTE: the route leaves from 10.0.0.9 on the VLAN (ifindex 3); the
	 * module says so (QUERY_CTX), or the routing table, looked up once
	 */
	for (q = 0; q < 2; q++) {
		fake_install();
		fake.no_query_ctx = !q;
		((struct sockaddr_in *)&fake.route_src)->sin_addr.s_addr =
			htonl(0x0a000009);
		fake.route_ifindex = 3;
		ch = rdma_mcm_open_channel(O_NONBLOCK);
		CHECK(ch && rdma_mcm_create_ctx_ex(ch, SA(g), RDMA_MCM_CTX_ROUTE,
						   &ctx) == 0);
		h = join(ch, ctx, "239.6.9.7", 1);
		fake_complete(ctx, h, 0);
		CHECK(rdma_mcm_get_event(ch, &ev) == 0);
		CHECK(sgid_of(ch, &pd, &ev, 1) == 3);
		CHECK(sgid_of(ch, &pd, &ev, 1) == 3);
		CHECK(fake.nr_routes == (q ? 0 : 1));
		rdma_mcm_close_channel(ch);
	}
}

/* Open the device of context @ctx; its name, or NULL (errno) */
static const char *device_of(struct rdma_mcm_channel *ch, uint32_t ctx)
{
	static char name[IBV_SYSFS_NAME_MAX];
	struct ibv_context *v = rdma_mcm_open_device(ch, ctx);

	if (!v)
		return NULL;
	snprintf(name, sizeof(name), "%s", v->device->name);
	ibv_close_device(v);
	return name;
}

/*
 * rdma_mcm_open_device() with a module without QUERY_CTX: the device
 * whose table has the source (or the route's source, on its netdev)
 */
static void test_open_device_by_gid(void)
{
	struct sockaddr_storage src, g = addr("239.6.9.8");
	struct rdma_mcm_channel *ch;
	struct fv_dev *mlx, *other;
	const char *name;
	uint32_t ctx;

	mlx = three_ports();
	other = fv_add_dev("rxe9");
	fv_add_port(other, IBV_LINK_LAYER_ETHERNET);
	fv_add_gid(other, 1, "::ffff:10.0.0.1", V1, 9);
	fv_add_gid(other, 1, "::ffff:10.0.0.5", V2, 9);
	fake_install();
	fake.no_query_ctx = 1;
	ch = rdma_mcm_open_channel(O_NONBLOCK);
	CHECK(ch);

	/* 10.0.0.1: rxe9 has it too, but only as RoCE v1 */
	src = addr("10.0.0.1");
	CHECK(rdma_mcm_create_ctx(ch, SA(src), &ctx) == 0);
	name = device_of(ch, ctx);
	CHECK(name && !strcmp(name, "mlx0"));
	src = addr("10.0.0.5");
	CHECK(rdma_mcm_create_ctx(ch, SA(src), &ctx) == 0);
	name = device_of(ch, ctx);
	CHECK(name && !strcmp(name, "rxe9"));
	/* a scoped link-local address: on its netdev's entries */
	src = addr(LL "%3");
	CHECK(rdma_mcm_create_ctx(ch, SA(src), &ctx) == 0);
	name = device_of(ch, ctx);
	CHECK(name && !strcmp(name, "mlx0"));
	/* InfiniBand: an AF_IB source's GID */
	ib_addr(&src, "fe80::2:c903:1:2");
	CHECK(rdma_mcm_create_ctx(ch, SA(src), &ctx) == 0);
	name = device_of(ch, ctx);
	CHECK(name && !strcmp(name, "mlx0"));
	/* no table has it (nor an IPoIB netdev): ENODEV */
	src = addr("10.0.0.77");
	CHECK(rdma_mcm_create_ctx(ch, SA(src), &ctx) == 0);
	CHECK(!device_of(ch, ctx) && errno == ENODEV);

	/* ROUTE: the route's source, on the route's netdev */
	CHECK(rdma_mcm_create_ctx_ex(ch, SA(g), RDMA_MCM_CTX_ROUTE, &ctx) == 0);
	name = device_of(ch, ctx);
	CHECK(name && !strcmp(name, "mlx0"));
	fake.route_ifindex = 9;
	name = device_of(ch, ctx);
	CHECK(name && !strcmp(name, "rxe9"));	/* its v1 entry, ifindex 9 */
	fake.route_errno = ENETUNREACH;
	CHECK(!device_of(ch, ctx) && errno == ENETUNREACH);
	fake.route_errno = 0;
	fake.route_ifindex = 2;

	/* a removed device is not opened; back, it is */
	fv_remove(mlx);
	CHECK(!device_of(ch, ctx) && errno == ENODEV);
	fv_restore(mlx);
	name = device_of(ch, ctx);
	CHECK(name && !strcmp(name, "mlx0"));
	CHECK(!rdma_mcm_open_device(ch, 999) && errno == ENOENT);
	CHECK(!rdma_mcm_open_device(NULL, ctx) && errno == EINVAL);
	/* every context it opened was closed by the test: none left */
	CHECK(mlx->contexts == 0 && other->contexts == 0);
	rdma_mcm_close_channel(ch);
}

/*
 * rdma_mcm_open_device() with QUERY_CTX: the device the module names, by
 * node GUID, else by name, whatever the GID tables say; none while the
 * context has no device
 */
static void test_open_device_named(void)
{
	struct sockaddr_storage src = addr("10.0.0.1");
	struct rdma_mcm_channel *ch;
	struct fv_dev *mlx, *other;
	const char *name;
	uint32_t ctx;

	if (!NEGOTIATES)
		return;
	mlx = three_ports();
	other = fv_add_dev("rxe9");
	fv_add_port(other, IBV_LINK_LAYER_ETHERNET);
	fake_install();
	ch = rdma_mcm_open_channel(O_NONBLOCK);
	CHECK(ch);
	CHECK(rdma_mcm_set_event_mask(ch, ALL_EVENTS, NULL) == 0);
	CHECK(rdma_mcm_create_ctx_ex(ch, SA(src), RDMA_MCM_CTX_HEAL,
				     &ctx) == 0);
	/* by node GUID: rxe9, though only mlx0's table has 10.0.0.1 */
	fake.node_guid = other->guid;
	name = device_of(ch, ctx);
	CHECK(name && !strcmp(name, "rxe9"));
	/* by name, without a GUID */
	fake.node_guid = 0;
	strcpy(fake.dev_name, "rxe9");
	name = device_of(ch, ctx);
	CHECK(name && !strcmp(name, "rxe9"));
	/* a device libibverbs does not list: the GID tables' */
	strcpy(fake.dev_name, "mlx5_7");
	name = device_of(ch, ctx);
	CHECK(name && !strcmp(name, "mlx0"));
	/* no device: ENODEV, without a look at the tables */
	fake.node_guid = mlx->guid;
	CHECK(fake_device_gone(ctx) == 0);
	CHECK(!device_of(ch, ctx) && errno == ENODEV);
	CHECK(fake_device_back(ctx, 1, 1) == 0);
	name = device_of(ch, ctx);
	CHECK(name && !strcmp(name, "mlx0"));
	CHECK(!ch->no_query_ctx && fake.nr_routes == 0);
	CHECK(mlx->contexts == 0 && other->contexts == 0);
	rdma_mcm_close_channel(ch);
}

void verbs_tests(void)
{
	h_run("verbs helpers", test_verbs_helpers);
	h_run("leave_detach detaches a QP from a group lost to ERROR",
	      test_detach_after_error);
	h_run("leave_detach of a QP the application attached",
	      test_detach_unrecorded);
	h_run("create_ah_ex: the GID of the context's source address",
	      test_create_ah_source);
	h_run("heal: REJOINING detaches, reattach_qp attaches to REJOINED's group",
	      test_rejoin_reattach);
	h_run("heal: leave_detach of a waiting membership", test_leave_while_waiting);
	h_run("heal: a source-specific membership's QP, detached and attached again",
	      test_source_member_qp);
	h_run("heal: device loss forgets the QPs; a new QP is attached",
	      test_device_loss_qps);
	h_run("heal: detach_qp detaches and forgets without leaving",
	      test_detach_qp);
	h_run("heal: attach_qp needs REJOINED events in a healing context",
	      test_attach_needs_rejoined);
	h_run("heal: REJOINED builds an AH; a ROUTE context's source GID",
	      test_ah_rejoined_route);
	h_run("open_device without QUERY_CTX: the GID tables, the route",
	      test_open_device_by_gid);
	h_run("open_device: the device QUERY_CTX names", test_open_device_named);
}
