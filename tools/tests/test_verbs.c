// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Unit tests of the library's verbs helpers. ibv_attach_mcast(),
 * ibv_detach_mcast(), ibv_query_port(), ibv_query_gid_ex() (its
 * _ibv_query_gid_ex()) and ibv_create_ah() are defined here: the test
 * links the library's objects, so they take the place of libibverbs' and
 * record each call, or play a device's GID tables.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>

#include <infiniband/ib.h>	/* librdmacm-dev: struct sockaddr_ib */
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

static const struct {
	uint8_t link_layer;
	const struct gid_row *rows;
	int n;
} ports[] = {
	[1] = { IBV_LINK_LAYER_ETHERNET, port1, sizeof(port1) / sizeof(port1[0]) },
	[2] = { IBV_LINK_LAYER_ETHERNET, port2, sizeof(port2) / sizeof(port2[0]) },
	[3] = { IBV_LINK_LAYER_INFINIBAND, port3, sizeof(port3) / sizeof(port3[0]) },
};

#define NR_PORTS	3

/* ibv_query_port() calls this for a context without the extended ops */
int (ibv_query_port)(struct ibv_context *context, uint8_t port_num,
		     struct _compat_ibv_port_attr *out)
{
	struct ibv_port_attr *pa = (struct ibv_port_attr *)(void *)out;

	(void)context;
	if (port_num < 1 || port_num > NR_PORTS)
		return EINVAL;
	memset(pa, 0, sizeof(*pa));
	pa->state = IBV_PORT_ACTIVE;
	pa->link_layer = ports[port_num].link_layer;
	pa->gid_tbl_len = ports[port_num].n;
	return 0;
}

int _ibv_query_gid_ex(struct ibv_context *context, uint32_t port_num,
		      uint32_t gid_index, struct ibv_gid_entry *entry,
		      uint32_t flags, size_t entry_size)
{
	const struct gid_row *r;

	(void)context;
	if (port_num < 1 || port_num > NR_PORTS || flags ||
	    entry_size < sizeof(*entry) ||
	    gid_index >= (uint32_t)ports[port_num].n)
		return EINVAL;
	r = &ports[port_num].rows[gid_index];
	memset(entry, 0, entry_size);
	if (inet_pton(AF_INET6, r->gid, entry->gid.raw) != 1)
		abort();
	entry->gid_index = gid_index;
	entry->port_num = port_num;
	entry->gid_type = r->type;
	entry->ndev_ifindex = r->ifindex;
	return 0;
}

static struct ibv_ah the_ah;
static struct ibv_ah_attr ah_attr;	/* what ibv_create_ah() was given */
static int nr_create_ah;

struct ibv_ah *ibv_create_ah(struct ibv_pd *pd, struct ibv_ah_attr *attr)
{
	nr_create_ah++;
	ah_attr = *attr;
	the_ah.context = pd->context;
	the_ah.pd = pd;
	return &the_ah;
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
	int n = nr_create_ah;

	ah = ex ? rdma_mcm_create_ah_ex(ch, pd, ev) :
		  rdma_mcm_create_ah(pd, ev);
	if (!ah || ah != &the_ah || nr_create_ah != n + 1)
		return -1;
	return ah_attr.grh.sgid_index;
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
	nr_create_ah = 0;
	ch = setup(O_NONBLOCK, &ctx);	/* on 10.0.0.1 */
	g = addr("239.6.8.1");
	CHECK(rdma_mcm_join(ch, ctx, SA(g), 0, 1, NULL) == 0);
	CHECK(fake_complete_all() == 1);
	CHECK(rdma_mcm_get_event(ch, &ev) == 0 && ev.port_num == 1);

	/* 10.0.0.1's RoCE v2 entry, not the VLAN's 10.0.0.9 before it */
	CHECK(sgid_of(ch, &pd, &ev, 1) == 5);
	CHECK(!memcmp(ah_attr.grh.dgid.raw, ev.dgid, 16));
	CHECK(ah_attr.port_num == 1 && ah_attr.is_global == 1);
	CHECK(ah_attr.grh.hop_limit == ev.hop_limit);
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
	nr_create_ah = 0;
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
	CHECK(nr_create_ah == 0);
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
}
