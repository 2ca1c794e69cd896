// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Unit tests of the library's side of ABI evolution, on the fake device
 * playing the current kernel, an older one (no SET_EVENTS) and a newer
 * one (longer events and member entries, with non-zero tails): the ABI
 * version check, the event negotiation, the event types the application
 * asked for, the sizes of what is passed to the kernel, and that no
 * struct of the application is written past its LIBRDMAMCM_1.0 size.
 *
 * Built three times: as the library is, as the "old library" (MCM_TEST_OLD:
 * no SET_EVENTS) and as the "new library" (MCM_TEST_GROW=8).
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>

#include "fake_dev.h"
#include "harness.h"
#include "rdma_mcm_priv.h"
#include "tutil.h"

#define CANARY		0x5a
#define DEV_REMOVED	RDMA_MCM_EVENT_BIT(RDMA_MCM_EVENT_DEVICE_REMOVED)

#ifdef MCM_TEST_OLD
#define NEGOTIATES	0
#else
#define NEGOTIATES	1
#endif

/* The event size the library reads from a kernel with @kernel_size */
static size_t expected_ev_size(size_t kernel_size)
{
	size_t mine = sizeof(struct rdma_mcm_event) + MCM_TEST_GROW;

	if (!NEGOTIATES || fake.old_kernel)
		return RDMA_MCM_EVENT_SIZE_VER0;
	return mine < kernel_size ? mine : kernel_size;
}

static int canary_intact(const uint8_t *p, size_t n)
{
	while (n--)
		if (*p++ != CANARY)
			return 0;
	return 1;
}

/* --- the ABI version ------------------------------------------------------- */

static void test_abi_version(void)
{
	static const uint32_t bad[] = { 0, 2, 0xffffffff };
	struct rdma_mcm_channel *ch;
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		fake_install();
		fake.abi_version = bad[i];
		errno = 0;
		ch = rdma_mcm_open_channel(0);
		CHECK(!ch && errno == EPROTONOSUPPORT);
		/* nothing is left open, and nothing else was asked */
		CHECK(fake.efd == -1 && fake.nr_opens == 1);
		CHECK(fake.nr_set_events == 0);
	}
	/* the kernel does not answer VERSION: open fails with its errno */
	fake_install();
	fake.version_errno = ENOTTY;
	errno = 0;
	CHECK(!rdma_mcm_open_channel(0));
	CHECK(errno == ENOTTY && fake.efd == -1);
}

/* --- negotiation ------------------------------------------------------------ */

/* Open, join, complete, get the event; check sizes on the way. */
static void events_flow(const char *what, int old_kernel, int new_kernel)
{
	uint8_t buf[sizeof(struct rdma_mcm_event) + 32];
	struct rdma_mcm_event *ev = (void *)buf;
	struct rdma_mcm_channel *ch;
	uint32_t ctx, h;

	ch = setup_kernel(O_NONBLOCK, &ctx, old_kernel, new_kernel);
	h_check(fake.nr_set_events == (NEGOTIATES && !fake.old_kernel), what,
		__FILE__, __LINE__);
	h_check(fake.ev_size == expected_ev_size(fake_event_size()), what,
		__FILE__, __LINE__);
	h = join(ch, ctx, "239.8.8.1", 0xfeed);
	fake_complete(ctx, h, 0);
	memset(buf, CANARY, sizeof(buf));
	CHECK(rdma_mcm_get_event(ch, ev) == 0);
	CHECK(ev->event == RDMA_MCM_EVENT_JOINED && ev->handle == h);
	CHECK(ev->cookie == 0xfeed && ev->qkey == 0x01234567u);
	CHECK(ev->is_global == 1 && ev->reserved == 0);
	/* the application's struct is written up to its size, not past */
	h_check(canary_intact(buf + MCM_API_EVENT_SIZE,
			      sizeof(buf) - MCM_API_EVENT_SIZE), what,
		__FILE__, __LINE__);
	/* read() asked for whole events of the negotiated size */
	CHECK(fake.read_len && fake.read_len % fake.ev_size == 0);
	rdma_mcm_close_channel(ch);
}

static void test_negotiate_current(void)
{
	events_flow("current kernel", 0, 0);
	CHECK(fake.ioc_size[_IOC_NR(RDMA_MCM_IOC_SET_EVENTS)] ==
	      (NEGOTIATES ? sizeof(struct rdma_mcm_set_events) +
	       MCM_TEST_GROW : 0));
}

/* A kernel without SET_EVENTS: 72-byte events of the default types */
static void test_old_kernel(void)
{
	struct rdma_mcm_channel *ch;
	struct rdma_mcm_event ev;
	uint64_t delivered = 0;
	uint32_t ctx;

	events_flow("kernel without SET_EVENTS", 1, 0);
	ch = setup_kernel(O_NONBLOCK, &ctx, 1, 0);
	CHECK(rdma_mcm_set_event_mask(ch, RDMA_MCM_EVENTS_DEFAULT | DEV_REMOVED,
				      &delivered) == 0);
	CHECK(delivered == RDMA_MCM_EVENTS_DEFAULT);
	CHECK(fake_device_removed(ctx) == 0);
	CHECK_ERRNO(rdma_mcm_get_event(ch, &ev), EAGAIN);
	rdma_mcm_close_channel(ch);
}

/* A kernel whose events and members are 8 bytes longer, tails non-zero */
static void test_new_kernel(void)
{
	uint8_t buf[2 * MCM_API_MEMBER_SIZE + 32];
	struct rdma_mcm_member *mb = (void *)buf;
	struct rdma_mcm_channel *ch;
	uint32_t ctx, h, next;

	events_flow("newer kernel", 0, 1);
	ch = setup_kernel(O_NONBLOCK, &ctx, 0, 1);
	h = join(ch, ctx, "239.8.8.2", 1);
	join(ch, ctx, "239.8.8.3", 2);
	memset(buf, CANARY, sizeof(buf));
	CHECK(rdma_mcm_query(ch, ctx, h, mb) == 0);
	CHECK(mb->handle == h && mb->cookie == 1);
	CHECK(canary_intact(buf + MCM_API_MEMBER_SIZE,
			    sizeof(buf) - MCM_API_MEMBER_SIZE));
	memset(buf, CANARY, sizeof(buf));
	CHECK(rdma_mcm_list(ch, ctx, 0, mb, 2, &next) == 2);
	CHECK(mb[0].handle == h && mb[1].cookie == 2 && next == 0);
	CHECK(canary_intact(buf + 2 * MCM_API_MEMBER_SIZE,
			    sizeof(buf) - 2 * MCM_API_MEMBER_SIZE));
	rdma_mcm_close_channel(ch);
}

/* Every struct handed to the kernel has the library's size */
static void test_ioctl_sizes(void)
{
	struct rdma_mcm_join_entry je[2];
	struct rdma_mcm_leave_entry le[1];
	struct rdma_mcm_member mb[1];
	struct rdma_mcm_channel *ch;
	uint32_t ctx, h, next;

	ch = setup(O_NONBLOCK, &ctx);
	h = join(ch, ctx, "239.8.9.1", 1);
	CHECK(rdma_mcm_query(ch, ctx, h, mb) == 0);
	CHECK(rdma_mcm_list(ch, ctx, 0, mb, 1, &next) == 1);
	memset(je, 0, sizeof(je));
	entry_addr(je[0].addr, "239.8.9.2");
	entry_addr(je[1].addr, "239.8.9.2");
	CHECK(rdma_mcm_join_batch(ch, ctx, je, 2) == 2);
	CHECK(je[0].result == 0 && je[1].result == -EADDRINUSE);
	memset(le, 0, sizeof(le));
	le[0].handle = je[0].handle;
	CHECK(rdma_mcm_leave_batch(ch, ctx, le, 1) == 1 && le[0].result == 0);
	CHECK(rdma_mcm_leave(ch, ctx, h) == 0);
	CHECK(rdma_mcm_destroy_ctx(ch, ctx) == 0);
#define IOC_SIZE(cmd, type)						\
	CHECK(fake.ioc_size[_IOC_NR(cmd)] == sizeof(type) + MCM_TEST_GROW)
	IOC_SIZE(RDMA_MCM_IOC_VERSION, struct rdma_mcm_version);
	IOC_SIZE(RDMA_MCM_IOC_CREATE_CTX, struct rdma_mcm_create_ctx);
	IOC_SIZE(RDMA_MCM_IOC_DESTROY_CTX, struct rdma_mcm_destroy_ctx);
	IOC_SIZE(RDMA_MCM_IOC_JOIN, struct rdma_mcm_join);
	IOC_SIZE(RDMA_MCM_IOC_LEAVE, struct rdma_mcm_leave);
	IOC_SIZE(RDMA_MCM_IOC_QUERY, struct rdma_mcm_query);
	IOC_SIZE(RDMA_MCM_IOC_LIST, struct rdma_mcm_list);
	IOC_SIZE(RDMA_MCM_IOC_BATCH_JOIN, struct rdma_mcm_batch);
	IOC_SIZE(RDMA_MCM_IOC_BATCH_LEAVE, struct rdma_mcm_batch);
#undef IOC_SIZE
	CHECK(fake.entry_size[_IOC_NR(RDMA_MCM_IOC_LIST)] ==
	      MCM_API_MEMBER_SIZE + MCM_TEST_GROW);
	CHECK(fake.entry_size[_IOC_NR(RDMA_MCM_IOC_BATCH_JOIN)] ==
	      MCM_API_JOIN_ENTRY_SIZE + MCM_TEST_GROW);
	CHECK(fake.entry_size[_IOC_NR(RDMA_MCM_IOC_BATCH_LEAVE)] ==
	      MCM_API_LEAVE_ENTRY_SIZE + MCM_TEST_GROW);
	rdma_mcm_close_channel(ch);
}

/* Batch entries: the application's array is not written past its end */
static void test_batch_bounds(void)
{
	uint8_t jbuf[3 * MCM_API_JOIN_ENTRY_SIZE + 16];
	uint8_t lbuf[3 * MCM_API_LEAVE_ENTRY_SIZE + 16];
	struct rdma_mcm_join_entry *je = (void *)jbuf;
	struct rdma_mcm_leave_entry *le = (void *)lbuf;
	struct rdma_mcm_channel *ch;
	uint32_t ctx;
	int i;

	ch = setup(O_NONBLOCK, &ctx);
	memset(jbuf, CANARY, sizeof(jbuf));
	memset(je, 0, 3 * sizeof(*je));
	for (i = 0; i < 3; i++) {
		entry_addr(je[i].addr, i == 2 ? "239.8.10.1" : "239.8.10.2");
		je[i].cookie = (uint64_t)i;
	}
	CHECK(rdma_mcm_join_batch(ch, ctx, je, 3) == 3);
	CHECK(je[0].result == 0 && je[1].result == -EADDRINUSE);
	/* a failed entry keeps its inputs */
	CHECK(je[1].cookie == 1 && je[1].handle == 0);
	CHECK(je[2].result == 0 && je[2].cookie == 2);
	CHECK(canary_intact(jbuf + 3 * sizeof(*je), 16));
	memset(lbuf, CANARY, sizeof(lbuf));
	memset(le, 0, 3 * sizeof(*le));
	le[0].handle = je[0].handle;
	le[1].handle = 777;
	le[2].handle = je[2].handle;
	fake_complete(ctx, je[2].handle, 0);
	CHECK(rdma_mcm_leave_batch(ch, ctx, le, 3) == 3);
	CHECK(le[0].result == 0 && le[1].result == -EADDRNOTAVAIL);
	CHECK(le[1].handle == 777 && le[2].result == 0);
	CHECK(canary_intact(lbuf + 3 * sizeof(*le), 16));
	rdma_mcm_close_channel(ch);
}

/* --- event types the application asked for --------------------------------- */

static void test_event_mask(void)
{
	struct sockaddr_storage g = addr("239.8.11.3");
	uint8_t buf[sizeof(struct rdma_mcm_event) + 16];
	struct rdma_mcm_event *ev = (void *)buf;
	struct rdma_mcm_channel *ch;
	uint64_t d = 0;
	uint32_t ctx, h;

	ch = setup(O_NONBLOCK, &ctx);
	/* by default: JOINED and ERROR only */
	CHECK(fake_device_removed(ctx) == 0);
	CHECK_ERRNO(rdma_mcm_get_event(ch, ev), EAGAIN);
	CHECK(fake.qlen == 0);

	CHECK_ERRNO(rdma_mcm_set_event_mask(ch, 0, &d), EINVAL);
	CHECK_ERRNO(rdma_mcm_set_event_mask(ch, DEV_REMOVED, &d), EINVAL);
	CHECK_ERRNO(rdma_mcm_set_event_mask(NULL, RDMA_MCM_EVENTS_DEFAULT,
					    &d), EINVAL);
	/* a type this library does not know is not delivered */
	CHECK(rdma_mcm_set_event_mask(ch, RDMA_MCM_EVENTS_DEFAULT |
				      RDMA_MCM_EVENT_BIT(9), &d) == 0);
	CHECK(d == RDMA_MCM_EVENTS_DEFAULT);
	CHECK(rdma_mcm_set_event_mask(ch, RDMA_MCM_EVENTS_DEFAULT |
				      DEV_REMOVED, &d) == 0);
	CHECK(d == (NEGOTIATES ? RDMA_MCM_EVENTS_DEFAULT | DEV_REMOVED :
		    RDMA_MCM_EVENTS_DEFAULT));
	CHECK(rdma_mcm_set_event_mask(ch, RDMA_MCM_EVENTS_DEFAULT |
				      DEV_REMOVED, NULL) == 0);
	h = join(ch, ctx, "239.8.11.1", 5);
	fake_complete(ctx, h, 0);
	CHECK(fake_device_removed(ctx) == 0);
	memset(buf, CANARY, sizeof(buf));
	CHECK(rdma_mcm_get_event(ch, ev) == 0 && ev->handle == h);
	if (NEGOTIATES) {
		CHECK(rdma_mcm_get_event(ch, ev) == 0);
		CHECK(ev->event == RDMA_MCM_EVENT_DEVICE_REMOVED);
		CHECK(ev->status == -ENODEV && ev->ctx_id == ctx);
		CHECK(ev->handle == 0 && ev->cookie == 0);
		CHECK(canary_intact(buf + MCM_API_EVENT_SIZE, 16));
	}
	CHECK_ERRNO(rdma_mcm_get_event(ch, ev), EAGAIN);

	/* narrowed again: a DEVICE_REMOVED the library holds is dropped */
	CHECK(fake_device_removed(ctx) == 0);
	fake.auto_complete = 1;
	CHECK(rdma_mcm_join_sync(ch, ctx, SA(g), 0, 7, 1000, NULL) == 0);
	fake.auto_complete = 0;
	CHECK(ch->queue.live == (NEGOTIATES ? 1 : 0));
	CHECK(rdma_mcm_set_event_mask(ch, RDMA_MCM_EVENTS_DEFAULT, &d) == 0);
	CHECK_ERRNO(rdma_mcm_get_event(ch, ev), EAGAIN);
	rdma_mcm_close_channel(ch);
}

/* destroy_ctx drops the context's own events the library holds */
static void test_ctx_events_purged(void)
{
	struct sockaddr_storage g = addr("239.8.12.9");
	struct sockaddr_storage src = addr("10.0.0.2");
	struct rdma_mcm_channel *ch;
	struct rdma_mcm_event ev;
	uint32_t ctx, ctx2;

	ch = setup(O_NONBLOCK, &ctx);
	CHECK(rdma_mcm_create_ctx(ch, SA(src), &ctx2) == 0);
	CHECK(rdma_mcm_set_event_mask(ch, RDMA_MCM_EVENTS_DEFAULT |
				      DEV_REMOVED, NULL) == 0);
	CHECK(fake_device_removed(ctx) == 0);
	CHECK(fake_device_removed(ctx2) == 0);
	fake.auto_complete = 1;
	CHECK(rdma_mcm_join_sync(ch, ctx2, SA(g), 0, 1, 1000, &ev) == 0);
	CHECK(ch->queue.live == (NEGOTIATES ? 2 : 0));
	CHECK(rdma_mcm_destroy_ctx(ch, ctx) == 0);
	CHECK(ch->queue.live == (NEGOTIATES ? 1 : 0));
	if (NEGOTIATES) {
		CHECK(rdma_mcm_get_event(ch, &ev) == 0);
		CHECK(ev.event == RDMA_MCM_EVENT_DEVICE_REMOVED);
		CHECK(ev.ctx_id == ctx2);
	}
	CHECK_ERRNO(rdma_mcm_get_event(ch, &ev), EAGAIN);
	rdma_mcm_close_channel(ch);
}

void abi_tests(void)
{
	h_run("ABI version other than 1: EPROTONOSUPPORT, nothing left open",
	      test_abi_version);
	h_run("SET_EVENTS right after VERSION; events of the agreed size",
	      test_negotiate_current);
	h_run("kernel without SET_EVENTS: 72-byte events, default types",
	      test_old_kernel);
	h_run("newer kernel: longer events and members, struct bounds kept",
	      test_new_kernel);
	h_run("ioctl and entry sizes are the library's", test_ioctl_sizes);
	h_run("batch entries: bounds kept, failed entries keep their inputs",
	      test_batch_bounds);
	h_run("event mask: only the types the application asked for",
	      test_event_mask);
	h_run("destroy_ctx drops the context's queued events",
	      test_ctx_events_purged);
}
