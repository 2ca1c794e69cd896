// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Unit tests of healing and route-bound contexts (LIBRDMAMCM_1.3) on the
 * fake device: rdma_mcm_create_ctx_ex() and its flags, the new event
 * types (only when asked for), a membership lost to a transient error and
 * joined again, a device going and coming back, join_sync across a
 * rejoin, the grown struct rdma_mcm_member (rejoins, last_status,
 * state_time_ns) through rdma_mcm_query and rdma_mcm_list of
 * LIBRDMAMCM_1.3 (200 bytes) and of LIBRDMAMCM_1.0 (184 bytes, for
 * programs linked before), against the current module and the one before
 * healing, and a ROUTE context's source address (the fake's routing
 * table, and the real one through rtnetlink).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <net/if.h>
#include <netinet/in.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "fake_dev.h"
#include "harness.h"
#include "rdma_mcm_priv.h"
#include "tutil.h"

#define CANARY		0x5a

#ifdef MCM_TEST_OLD
#define NEGOTIATES	0
#else
#define NEGOTIATES	1
#endif

static int canary_intact(const uint8_t *p, size_t n)
{
	while (n--)
		if (*p++ != CANARY)
			return 0;
	return 1;
}

/* The next event: of @type, and its fields */
static int next_is(struct rdma_mcm_channel *ch, uint32_t type,
		   uint32_t handle, int32_t status, struct rdma_mcm_event *ev)
{
	struct rdma_mcm_event e;

	if (!ev)
		ev = &e;
	memset(ev, 0, sizeof(*ev));
	if (rdma_mcm_get_event(ch, ev))
		return 0;
	return ev->event == type && ev->handle == handle &&
	       ev->status == status;
}

static void test_strings(void)
{
	CHECK(!strcmp(rdma_mcm_state_str(RDMA_MCM_STATE_WAITING), "waiting"));
	CHECK(!strcmp(rdma_mcm_state_str(4), "unknown"));
	CHECK(!strcmp(rdma_mcm_event_str(RDMA_MCM_EVENT_REJOINING),
		      "rejoining"));
	CHECK(!strcmp(rdma_mcm_event_str(RDMA_MCM_EVENT_REJOINED), "rejoined"));
	CHECK(!strcmp(rdma_mcm_event_str(RDMA_MCM_EVENT_DEVICE_ADDED),
		      "device-added"));
	CHECK(!strcmp(rdma_mcm_event_str(7), "unknown"));
}

static void test_create_ctx_ex(void)
{
	struct sockaddr_storage src = addr("10.0.0.1"), g = addr("239.1.1.1");
	struct sockaddr_storage u = addr("10.1.1.1");
	struct rdma_mcm_channel *ch;
	uint32_t ctx = 0, a = 0, b = 0, c = 0;

	fake_install();
	ch = rdma_mcm_open_channel(O_NONBLOCK);
	CHECK(ch);
	CHECK(rdma_mcm_create_ctx_ex(ch, SA(src), RDMA_MCM_CTX_HEAL, &a) == 0);
	CHECK(fake_find_ctx(a)->flags == RDMA_MCM_CTX_HEAL);
	CHECK(rdma_mcm_create_ctx_ex(ch, SA(g), RDMA_MCM_CTX_ROUTE |
				     RDMA_MCM_CTX_HEAL, &b) == 0);
	CHECK(fake_find_ctx(b)->flags ==
	      (RDMA_MCM_CTX_ROUTE | RDMA_MCM_CTX_HEAL));
	CHECK(rdma_mcm_create_ctx_ex(ch, SA(src), 0, &c) == 0);
	CHECK(fake_find_ctx(c)->flags == 0);
	CHECK(a && b && c && a != b && b != c);
	/* the flags reach the kernel, which refuses those it does not know */
	CHECK_ERRNO(rdma_mcm_create_ctx_ex(ch, SA(src), 1U << 7, &ctx), EINVAL);
	/* the route to a unicast address: refused (as the fake's kernel) */
	CHECK_ERRNO(rdma_mcm_create_ctx_ex(ch, SA(u), RDMA_MCM_CTX_ROUTE, &ctx),
		    EINVAL);
	CHECK_ERRNO(rdma_mcm_create_ctx_ex(NULL, SA(src), 0, &ctx), EINVAL);
	CHECK_ERRNO(rdma_mcm_create_ctx_ex(ch, NULL, 0, &ctx), EINVAL);
	CHECK_ERRNO(rdma_mcm_create_ctx_ex(ch, SA(src), 0, NULL), EINVAL);
	/* a group joined in a ROUTE context, as in any other */
	join(ch, b, "239.1.1.1", 1);
	rdma_mcm_close_channel(ch);

	/* the module before healing takes no flag: EINVAL, nothing made */
	fake_install();
	fake.no_heal = 1;
	ch = rdma_mcm_open_channel(O_NONBLOCK);
	CHECK(ch);
	CHECK_ERRNO(rdma_mcm_create_ctx_ex(ch, SA(src), RDMA_MCM_CTX_HEAL,
					   &ctx), EINVAL);
	CHECK_ERRNO(rdma_mcm_create_ctx_ex(ch, SA(g), RDMA_MCM_CTX_ROUTE, &ctx),
		    EINVAL);
	CHECK(!ch->ctxs);
	CHECK(rdma_mcm_create_ctx_ex(ch, SA(src), 0, &ctx) == 0);
	rdma_mcm_close_channel(ch);
}

/* The new types: asked for by the library, returned only when asked */
static void test_event_types(void)
{
	struct sockaddr_storage src = addr("10.0.0.1");
	struct rdma_mcm_channel *ch;
	struct rdma_mcm_event ev;
	uint64_t d = 0;
	uint32_t ctx, h;

	fake_install();
	ch = rdma_mcm_open_channel(O_NONBLOCK);
	CHECK(ch);
	CHECK(fake.ev_mask == (NEGOTIATES ? ALL_EVENTS :
			       RDMA_MCM_EVENTS_DEFAULT));
	CHECK(rdma_mcm_create_ctx_ex(ch, SA(src), RDMA_MCM_CTX_HEAL,
				     &ctx) == 0);
	h = join(ch, ctx, "239.2.1.1", 7);
	fake_complete(ctx, h, 0);
	CHECK(fake_lose(ctx, h, -ENETRESET) == 0);
	CHECK(fake_rejoin(ctx, h, 0) == 0);
	CHECK(fake_device_gone(ctx) == 0);
	CHECK(fake_device_back(ctx, 1, 1) == 0);
	/* by default: JOINED (and ERROR) only */
	CHECK(next_is(ch, RDMA_MCM_EVENT_JOINED, h, 0, &ev));
	CHECK_ERRNO(rdma_mcm_get_event(ch, &ev), EAGAIN);

	CHECK(rdma_mcm_set_event_mask(ch, ALL_EVENTS, &d) == 0);
	CHECK(d == (NEGOTIATES ? ALL_EVENTS : RDMA_MCM_EVENTS_DEFAULT));
	CHECK(fake_lose(ctx, h, -ETIMEDOUT) == 0);
	CHECK(fake_rejoin(ctx, h, 0) == 0);
	if (NEGOTIATES) {
		CHECK(next_is(ch, RDMA_MCM_EVENT_REJOINING, h, -ETIMEDOUT, &ev));
		CHECK(ev.cookie == 7 && ev.ctx_id == ctx);
		CHECK(next_is(ch, RDMA_MCM_EVENT_REJOINED, h, 0, &ev));
		CHECK(ev.cookie == 7 && ev.qkey == 0x01234567u);
	}
	CHECK_ERRNO(rdma_mcm_get_event(ch, &ev), EAGAIN);
	rdma_mcm_close_channel(ch);

	/* the module before healing delivers none of them */
	fake_install();
	fake.no_heal = 1;
	ch = rdma_mcm_open_channel(O_NONBLOCK);
	CHECK(ch);
	CHECK(rdma_mcm_set_event_mask(ch, ALL_EVENTS, &d) == 0);
	CHECK(d == (NEGOTIATES ? RDMA_MCM_EVENTS_DEFAULT | BIT(DEVICE_REMOVED) :
		    RDMA_MCM_EVENTS_DEFAULT));
	rdma_mcm_close_channel(ch);
}

/* A transient error, then the same handle joined again */
static void test_rejoin(void)
{
	struct rdma_mcm_channel *ch;
	struct rdma_mcm_member mb;
	struct rdma_mcm_event ev;
	uint64_t t0;
	uint32_t ctx, h;

	if (!NEGOTIATES)
		return;
	ch = heal_setup(RDMA_MCM_CTX_HEAL, &ctx);
	h = join(ch, ctx, "239.2.2.1", 5);
	fake_complete(ctx, h, 0);
	CHECK(next_is(ch, RDMA_MCM_EVENT_JOINED, h, 0, NULL));
	CHECK(rdma_mcm_query(ch, ctx, h, &mb) == 0);
	CHECK(mb.state == RDMA_MCM_STATE_JOINED && mb.rejoins == 0);
	CHECK(mb.last_status == 0 && mb.state_time_ns != 0);
	t0 = mb.state_time_ns;

	CHECK(fake_lose(ctx, h, -ENETRESET) == 0);
	CHECK(next_is(ch, RDMA_MCM_EVENT_REJOINING, h, -ENETRESET, &ev));
	CHECK(ev.cookie == 5);
	CHECK(ch->members.count == 1 && mcm_table_find(&ch->members, ctx, h));
	CHECK(mcm_table_find(&ch->members, ctx, h)->waiting);
	CHECK(rdma_mcm_query(ch, ctx, h, &mb) == 0);
	CHECK(mb.state == RDMA_MCM_STATE_WAITING && mb.status == -ENETRESET);
	CHECK(mb.last_status == -ENETRESET && mb.rejoins == 0);
	CHECK(mb.state_time_ns >= t0);

	CHECK(fake_rejoin(ctx, h, 0xc007) == 0);
	CHECK(next_is(ch, RDMA_MCM_EVENT_REJOINED, h, 0, &ev));
	CHECK(ev.mlid == 0xc007 && ev.is_global == 1 && ev.port_num == 1);
	CHECK(!mcm_table_find(&ch->members, ctx, h)->waiting);
	CHECK(rdma_mcm_query(ch, ctx, h, &mb) == 0);
	CHECK(mb.state == RDMA_MCM_STATE_JOINED && mb.rejoins == 1);
	/* the last error is kept after the recovery */
	CHECK(mb.last_status == -ENETRESET && mb.mlid == 0xc007);
	/* its events: JOINED, REJOINING, REJOINED */
	CHECK(mb.events_reported == 3);

	/* a permanent error is not healed */
	CHECK(fake_lose(ctx, h, -ECONNREFUSED) == 0);
	CHECK(next_is(ch, RDMA_MCM_EVENT_ERROR, h, -ECONNREFUSED, NULL));
	CHECK(rdma_mcm_query(ch, ctx, h, &mb) == 0);
	CHECK(mb.state == RDMA_MCM_STATE_ERROR && mb.status == -ECONNREFUSED);
	CHECK(mb.last_status == -ECONNREFUSED && mb.rejoins == 1);
	CHECK(rdma_mcm_leave(ch, ctx, h) == 0);
	rdma_mcm_close_channel(ch);

	/* a context without HEAL: the same error ends in ERROR */
	ch = heal_setup(0, &ctx);
	h = join(ch, ctx, "239.2.2.1", 5);
	fake_complete(ctx, h, 0);
	CHECK(fake_lose(ctx, h, -ENETRESET) == 0);
	CHECK(next_is(ch, RDMA_MCM_EVENT_JOINED, h, 0, NULL));
	CHECK(next_is(ch, RDMA_MCM_EVENT_ERROR, h, -ENETRESET, NULL));
	CHECK(fake_rejoin(ctx, h, 0) == -1);
	rdma_mcm_close_channel(ch);
}

/* The device goes and comes back under a healing context */
static void test_device_cycle(void)
{
	struct sockaddr_storage g = addr("239.2.3.9");
	struct rdma_mcm_channel *ch;
	struct rdma_mcm_member mb;
	struct rdma_mcm_event ev;
	uint32_t ctx, a, b, h;

	if (!NEGOTIATES)
		return;
	ch = heal_setup(RDMA_MCM_CTX_HEAL, &ctx);
	a = join(ch, ctx, "239.2.3.1", 1);
	b = join(ch, ctx, "239.2.3.2", 2);
	fake_complete(ctx, a, 0);	/* b is still joining */
	CHECK(fake_device_gone(ctx) == 0);
	CHECK(next_is(ch, RDMA_MCM_EVENT_JOINED, a, 0, NULL));
	CHECK(next_is(ch, RDMA_MCM_EVENT_REJOINING, a, -ENODEV, NULL));
	CHECK(next_is(ch, RDMA_MCM_EVENT_REJOINING, b, -ENODEV, NULL));
	CHECK(next_is(ch, RDMA_MCM_EVENT_DEVICE_REMOVED, 0, -ENODEV, &ev));
	CHECK(ev.ctx_id == ctx && ev.cookie == 0);
	CHECK(rdma_mcm_query(ch, ctx, b, &mb) == 0);
	CHECK(mb.state == RDMA_MCM_STATE_WAITING && mb.last_status == -ENODEV);
	/* no device: a join waits for none, it fails */
	CHECK_ERRNO(rdma_mcm_join(ch, ctx, SA(g), 0, 3, &h), ENODEV);
	CHECK_ERRNO(rdma_mcm_get_event(ch, &ev), EAGAIN);

	/* back, on port 2: DEVICE_ADDED first, then each REJOINED */
	CHECK(fake_device_back(ctx, 2, 1) == 0);
	CHECK(next_is(ch, RDMA_MCM_EVENT_DEVICE_ADDED, 0, 0, &ev));
	CHECK(ev.ctx_id == ctx && ev.port_num == 2 && ev.cookie == 0);
	CHECK(next_is(ch, RDMA_MCM_EVENT_REJOINED, a, 0, &ev));
	CHECK(ev.port_num == 2 && ev.cookie == 1);
	CHECK(next_is(ch, RDMA_MCM_EVENT_REJOINED, b, 0, &ev));
	CHECK(ev.port_num == 2 && ev.cookie == 2);
	CHECK(rdma_mcm_query(ch, ctx, b, &mb) == 0);
	CHECK(mb.state == RDMA_MCM_STATE_JOINED && mb.rejoins == 1);
	CHECK(rdma_mcm_join(ch, ctx, SA(g), 0, 3, &h) == 0);

	/* DEVICE_ADDED belongs to the context: destroy_ctx drops it */
	CHECK(fake_device_gone(ctx) == 0);
	CHECK(fake_device_back(ctx, 1, 0) == 0);
	CHECK(mcm_fill(ch) > 0);
	CHECK(rdma_mcm_destroy_ctx(ch, ctx) == 0);
	CHECK(ch->queue.live == 0);
	CHECK_ERRNO(rdma_mcm_get_event(ch, &ev), EAGAIN);
	rdma_mcm_close_channel(ch);
}

/*
 * join_sync in a healing context: a join that meets a transient error is
 * WAITING and joined again; join_sync waits for that, whatever types the
 * application asked for, and returns it as JOINED.
 */
static void test_join_sync_rejoin(void)
{
	struct sockaddr_storage g = addr("239.2.4.1");
	struct rdma_mcm_channel *ch;
	struct rdma_mcm_event ev;
	uint32_t ctx;
	int pass;

	if (!NEGOTIATES)
		return;
	for (pass = 0; pass < 2; pass++) {
		ch = heal_setup(RDMA_MCM_CTX_HEAL, &ctx);
		if (!pass)
			CHECK(rdma_mcm_set_event_mask(ch, RDMA_MCM_EVENTS_DEFAULT,
						      NULL) == 0);
		/* JOIN: REJOINING -ETIMEDOUT, then REJOINED, both queued */
		fake.auto_complete = 1;
		memcpy(fake.fail_group,
		       &((struct sockaddr_in *)&g)->sin_addr, 4);
		fake.fail_status = -ETIMEDOUT;
		fake.auto_rejoin = 1;
		memset(&ev, 0, sizeof(ev));
		CHECK(rdma_mcm_join_sync(ch, ctx, SA(g), 0, 9, 1000, &ev) == 0);
		CHECK(ev.event == RDMA_MCM_EVENT_JOINED && ev.cookie == 9);
		CHECK(ev.qkey == 0x01234567u && ev.port_num == 1);
		/* both were join_sync's: none is left for get_event */
		CHECK_ERRNO(rdma_mcm_get_event(ch, &ev), EAGAIN);
		CHECK(fake.nr_members == 1 && ch->members.count == 1);
		rdma_mcm_close_channel(ch);
	}

	/* still waiting at the timeout: ETIMEDOUT, and it is left */
	ch = heal_setup(RDMA_MCM_CTX_HEAL, &ctx);
	fake.auto_complete = 1;
	memcpy(fake.fail_group, &((struct sockaddr_in *)&g)->sin_addr, 4);
	fake.fail_status = -ENETRESET;
	CHECK_ERRNO(rdma_mcm_join_sync(ch, ctx, SA(g), 0, 9, 50, &ev),
		    ETIMEDOUT);
	CHECK(fake.nr_members == 0 && ch->members.count == 0);
	/* a permanent error still fails it */
	fake.fail_status = -ECONNREFUSED;
	CHECK_ERRNO(rdma_mcm_join_sync(ch, ctx, SA(g), 0, 9, 1000, &ev),
		    ECONNREFUSED);
	rdma_mcm_close_channel(ch);
}

/*
 * struct rdma_mcm_member: 200 bytes through LIBRDMAMCM_1.3's query and
 * list, the first 184 through LIBRDMAMCM_1.0's, whatever the kernel.
 */
static void member_sizes(int no_heal)
{
	struct sockaddr_storage src = addr("10.0.0.1");
	uint8_t buf[3 * MCM_API_MEMBER_SIZE + 32];
	struct rdma_mcm_member *mb = (void *)buf;
	struct rdma_mcm_channel *ch;
	uint32_t ctx, h, h2, next = 99;
	size_t n;

	fake_install();
	fake.no_heal = no_heal;
	ch = rdma_mcm_open_channel(O_NONBLOCK);
	CHECK(ch);
	CHECK(rdma_mcm_create_ctx_ex(ch, SA(src), no_heal ? 0 : RDMA_MCM_CTX_HEAL,
				     &ctx) == 0);
	h = join(ch, ctx, "239.2.5.1", 1);
	h2 = join(ch, ctx, "239.2.5.2", 2);
	fake_complete(ctx, h, 0);
	fake_complete(ctx, h2, 0);
	if (!no_heal) {
		fake_lose(ctx, h2, -ETIMEDOUT);
		fake_rejoin(ctx, h2, 0);
	}

	/* 1.3: the whole struct; the kernel before healing: zeros */
	memset(buf, CANARY, sizeof(buf));
	CHECK(rdma_mcm_query(ch, ctx, h2, mb) == 0);
	CHECK(mb->handle == h2 && mb->cookie == 2);
	CHECK(mb->rejoins == (no_heal ? 0 : 1));
	CHECK(mb->last_status == (no_heal ? 0 : -ETIMEDOUT));
	CHECK(no_heal ? mb->state_time_ns == 0 : mb->state_time_ns != 0);
	CHECK(canary_intact(buf + MCM_API_MEMBER_SIZE,
			    sizeof(buf) - MCM_API_MEMBER_SIZE));
	memset(buf, CANARY, sizeof(buf));
	CHECK(rdma_mcm_list(ch, ctx, 0, mb, 2, &next) == 2);
	CHECK(mb[0].handle == h && mb[1].handle == h2 && next == 0);
	CHECK(mb[1].rejoins == (no_heal ? 0 : 1));
	CHECK(mb[0].rejoins == 0 && mb[0].last_status == 0);
	CHECK(canary_intact(buf + 2 * MCM_API_MEMBER_SIZE,
			    sizeof(buf) - 2 * MCM_API_MEMBER_SIZE));
	if (!MCM_TEST_GROW)
		CHECK(fake.entry_size[_IOC_NR(RDMA_MCM_IOC_LIST)] ==
		      MCM_API_MEMBER_SIZE);

	/* 1.0: 184 bytes each, never more */
	memset(buf, CANARY, sizeof(buf));
	CHECK(rdma_mcm_query_v1_0(ch, ctx, h2, buf) == 0);
	CHECK(mb->handle == h2 && mb->cookie == 2);
	CHECK(mb->state == RDMA_MCM_STATE_JOINED);
	CHECK(canary_intact(buf + MCM_API_MEMBER_SIZE_1_0,
			    sizeof(buf) - MCM_API_MEMBER_SIZE_1_0));
	memset(buf, CANARY, sizeof(buf));
	CHECK(rdma_mcm_list_v1_0(ch, ctx, 0, buf, 2, &next) == 2);
	for (n = 0; n < 2; n++) {
		struct rdma_mcm_member *e = (void *)(buf + n *
						     MCM_API_MEMBER_SIZE_1_0);

		CHECK(e->handle == (n ? h2 : h) && e->cookie == n + 1);
		CHECK(e->events_reported == 0);
	}
	CHECK(canary_intact(buf + 2 * MCM_API_MEMBER_SIZE_1_0,
			    sizeof(buf) - 2 * MCM_API_MEMBER_SIZE_1_0));
	if (!MCM_TEST_GROW)
		CHECK(fake.entry_size[_IOC_NR(RDMA_MCM_IOC_LIST)] ==
		      MCM_API_MEMBER_SIZE_1_0);
	CHECK_ERRNO(rdma_mcm_query_v1_0(ch, ctx, 77, buf), EADDRNOTAVAIL);
	CHECK_ERRNO(rdma_mcm_query_v1_0(NULL, ctx, h, buf), EINVAL);
	CHECK_ERRNO(rdma_mcm_list_v1_0(ch, ctx, 0, NULL, 1, &next), EINVAL);
	rdma_mcm_close_channel(ch);
}

static void test_member_sizes(void)
{
	member_sizes(0);
}

static void test_member_sizes_no_heal(void)
{
	member_sizes(1);
}

/*
 * Where a context is: the module says (QUERY_CTX): its source, port and
 * device, nothing while it has no device. A module without QUERY_CTX:
 * the source it was created on, or the route's, looked up again after a
 * change of device.
 */
static void test_ctx_where(void)
{
	struct sockaddr_storage src = addr("10.0.0.2");
	struct sockaddr_in *sin = (struct sockaddr_in *)&src;
	struct rdma_mcm_channel *ch;
	struct mcm_where w;
	uint32_t ctx, ctx2;
	int q;

	if (!NEGOTIATES)
		return;
	for (q = 0; q < 2; q++) {
		ch = heal_setup(RDMA_MCM_CTX_HEAL | RDMA_MCM_CTX_ROUTE, &ctx);
		fake.no_query_ctx = !q;
		CHECK(fake.nr_routes == 0);	/* looked up when needed */
		CHECK(mcm_ctx_where(ch, ctx, &w) == 0);
		sin = (struct sockaddr_in *)&w.src;
		CHECK(w.src.ss_family == AF_INET);
		CHECK(sin->sin_addr.s_addr == htonl(0x0a000001));
		CHECK(w.flags == (RDMA_MCM_CTX_HEAL | RDMA_MCM_CTX_ROUTE));
		CHECK(mcm_ctx_find(ch, ctx)->src_known);
		if (q) {
			/* the module's answer: no route looked up */
			CHECK(fake.nr_routes == 0 && w.port_num == 1);
			CHECK(!strcmp(w.dev_name, "fake0"));
		} else {
			CHECK(fake.nr_routes == 1 && w.ifindex == 2);
			CHECK(w.port_num == 0 && !w.dev_name[0]);
			CHECK(ch->no_query_ctx);
		}
		/* the device goes: forgotten until asked again */
		fake_device_gone(ctx);
		CHECK(mcm_fill(ch) > 0);
		CHECK(!mcm_ctx_find(ch, ctx)->src_known);
		if (q)
			CHECK(mcm_ctx_where(ch, ctx, &w) == -ENODEV);
		/* back, the route leaves from 10.0.0.9 on the VLAN */
		sin = (struct sockaddr_in *)&fake.route_src;
		sin->sin_addr.s_addr = htonl(0x0a000009);
		fake.route_ifindex = 3;
		fake_find_ctx(ctx)->src = fake.route_src;
		fake_device_back(ctx, 2, 1);
		CHECK(mcm_ctx_where(ch, ctx, &w) == 0);
		sin = (struct sockaddr_in *)&w.src;
		CHECK(sin->sin_addr.s_addr == htonl(0x0a000009));
		CHECK(q ? w.port_num == 2 : w.ifindex == 3);
		CHECK(fake.nr_routes == (q ? 0 : 2));
		fake.route_errno = ENETUNREACH;
		if (!q)
			CHECK(mcm_ctx_where(ch, ctx, &w) == -ENETUNREACH);
		/* a context bound to a source needs no route */
		CHECK(rdma_mcm_create_ctx_ex(ch, SA(src), 0, &ctx2) == 0);
		CHECK(mcm_ctx_where(ch, ctx2, &w) == 0);
		sin = (struct sockaddr_in *)&w.src;
		CHECK(sin->sin_addr.s_addr == htonl(0x0a000002) && w.flags == 0);
		CHECK(fake.nr_routes == (q ? 0 : 3));
		CHECK(mcm_ctx_where(ch, 99, &w) == -ENOENT);
		rdma_mcm_close_channel(ch);
	}
}

/* The real routing table, through rtnetlink: the loopback routes */
static void test_route_lookup(void)
{
	struct sockaddr_storage dst = addr("127.0.0.1"), src;
	struct sockaddr_in6 *sin6 = (struct sockaddr_in6 *)&src;
	struct sockaddr_in *sin = (struct sockaddr_in *)&src;
	uint32_t ifindex = 0, lo = if_nametoindex("lo");
	int ret;

	CHECK(mcm_route_lookup(SA(dst), &src, &ifindex) == 0);
	CHECK(src.ss_family == AF_INET && ifindex == lo);
	CHECK(sin->sin_addr.s_addr == htonl(INADDR_LOOPBACK));
	dst = addr("::1");
	ret = mcm_route_lookup(SA(dst), &src, &ifindex);
	/* a host without IPv6 has no route to ::1 */
	if (ret != -ENETUNREACH && ret != -EAFNOSUPPORT) {
		CHECK(ret == 0 && src.ss_family == AF_INET6 && ifindex == lo);
		CHECK(IN6_IS_ADDR_LOOPBACK(&sin6->sin6_addr));
	}
	dst.ss_family = AF_IB;
	CHECK(mcm_route_lookup(SA(dst), &src, &ifindex) == -EAFNOSUPPORT);
}

void heal_tests(void)
{
	h_run("heal: state and event names", test_strings);
	h_run("heal: create_ctx_ex flags; the module before healing: EINVAL",
	      test_create_ctx_ex);
	h_run("heal: the new event types only when asked", test_event_types);
	h_run("heal: transient error, WAITING, REJOINED on the same handle",
	      test_rejoin);
	h_run("heal: the device goes and comes back", test_device_cycle);
	h_run("heal: join_sync waits across a rejoin", test_join_sync_rejoin);
	h_run("heal: member of 200 bytes (1.3), 184 (1.0), canaries",
	      test_member_sizes);
	h_run("heal: member sizes on the module before healing",
	      test_member_sizes_no_heal);
	h_run("heal: where a context is: QUERY_CTX, else its source or route",
	      test_ctx_where);
	h_run("heal: the route through rtnetlink (loopback)",
	      test_route_lookup);
}
