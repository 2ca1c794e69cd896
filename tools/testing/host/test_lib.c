// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Host unit tests of librdmamcm: its own logic, on the fake device
 * (fake_dev.c), with no kernel module and no RDMA device.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <infiniband/ib.h>	/* librdmacm-dev: struct sockaddr_ib */

#include "fake_dev.h"
#include "harness.h"
#include "mcm_test.h"
#include "rdma_mcm_priv.h"
#include "tutil.h"

/* --- addresses and strings ------------------------------------------------ */

struct parse_case {
	const char *text;
	int err;		/* 0: parses */
	int family;
	const char *canon;	/* inet_ntop of the result */
	uint32_t scope;
};

static const struct parse_case parse_cases[] = {
	{ "239.1.1.1", 0, AF_INET, "239.1.1.1", 0 },
	{ "224.0.0.251", 0, AF_INET, "224.0.0.251", 0 },
	{ "10.0.0.1", 0, AF_INET, "10.0.0.1", 0 },
	{ "0.0.0.0", 0, AF_INET, "0.0.0.0", 0 },
	{ "ff0e::1", 0, AF_INET6, "ff0e::1", 0 },
	{ "FF02::1:FF00:1", 0, AF_INET6, "ff02::1:ff00:1", 0 },
	{ "[ff12::8000:1]", 0, AF_INET6, "ff12::8000:1", 0 },
	{ "fe80::1%7", 0, AF_INET6, "fe80::1", 7 },
	{ "[fe80::2%3]", 0, AF_INET6, "fe80::2", 3 },
	{ "::ffff:239.1.1.1", 0, AF_INET6, "::ffff:239.1.1.1", 0 },
	{ "", EINVAL, 0, NULL, 0 },
	{ "239.1.1", EINVAL, 0, NULL, 0 },
	{ "239.1.1.256", EINVAL, 0, NULL, 0 },
	{ "1.2.3.4.5", EINVAL, 0, NULL, 0 },
	{ " 239.1.1.1", EINVAL, 0, NULL, 0 },
	{ "239.1.1.1:4791", EINVAL, 0, NULL, 0 },
	{ "[239.1.1.1]", EINVAL, 0, NULL, 0 },
	{ "ff0e::1::2", EINVAL, 0, NULL, 0 },
	{ "[ff02::1", EINVAL, 0, NULL, 0 },
	{ "ff02::1]", EINVAL, 0, NULL, 0 },
	{ "[]", EINVAL, 0, NULL, 0 },
	{ "fe80::1%", EINVAL, 0, NULL, 0 },
	{ "fe80::1%99999999999", EINVAL, 0, NULL, 0 },
	{ "fe80::1%no-such-if0", ENODEV, 0, NULL, 0 },
	{ "mcast.example", EINVAL, 0, NULL, 0 },
	{ "ff0e:0000:0000:0000:0000:0000:0000:0000:0001", EINVAL, 0, NULL, 0 },
};

static void test_parse_addr(void)
{
	char buf[INET6_ADDRSTRLEN];
	size_t i;

	for (i = 0; i < sizeof(parse_cases) / sizeof(parse_cases[0]); i++) {
		const struct parse_case *c = &parse_cases[i];
		struct sockaddr_storage ss;
		const void *a;
		int ret;

		memset(&ss, 0xa5, sizeof(ss));
		errno = 0;
		ret = rdma_mcm_parse_addr(c->text, &ss);
		if (c->err) {
			h_check(ret == -1 && errno == c->err, c->text,
				__FILE__, __LINE__);
			continue;
		}
		h_check(ret == 0 && ss.ss_family == c->family, c->text,
			__FILE__, __LINE__);
		if (ret)
			continue;
		if (c->family == AF_INET) {
			a = &((struct sockaddr_in *)&ss)->sin_addr;
			CHECK(((struct sockaddr_in *)&ss)->sin_port == 0);
		} else {
			a = &((struct sockaddr_in6 *)&ss)->sin6_addr;
			CHECK(((struct sockaddr_in6 *)&ss)->sin6_port == 0);
			h_check(((struct sockaddr_in6 *)&ss)->sin6_scope_id ==
				c->scope, c->text, __FILE__, __LINE__);
		}
		inet_ntop(c->family, a, buf, sizeof(buf));
		h_check(!strcmp(buf, c->canon), c->text, __FILE__, __LINE__);
	}
	CHECK_ERRNO(rdma_mcm_parse_addr(NULL, NULL), EINVAL);
	{
		struct sockaddr_storage ss;
		char longtext[200];

		memset(longtext, '1', sizeof(longtext) - 1);
		longtext[sizeof(longtext) - 1] = '\0';
		CHECK_ERRNO(rdma_mcm_parse_addr(longtext, &ss), EINVAL);
		CHECK_ERRNO(rdma_mcm_parse_addr("239.1.1.1", NULL), EINVAL);
		CHECK(rdma_mcm_parse_addr("fe80::1%lo", &ss) == 0);
		CHECK(((struct sockaddr_in6 *)&ss)->sin6_scope_id != 0);
	}
}

static void test_strings(void)
{
	CHECK(!strcmp(rdma_mcm_state_str(RDMA_MCM_STATE_JOINING), "joining"));
	CHECK(!strcmp(rdma_mcm_state_str(RDMA_MCM_STATE_JOINED), "joined"));
	CHECK(!strcmp(rdma_mcm_state_str(RDMA_MCM_STATE_ERROR), "error"));
	CHECK(!strcmp(rdma_mcm_state_str(5), "unknown"));
	CHECK(!strcmp(rdma_mcm_state_str(UINT32_MAX), "unknown"));
	CHECK(!strcmp(rdma_mcm_event_str(RDMA_MCM_EVENT_JOINED), "joined"));
	CHECK(!strcmp(rdma_mcm_event_str(RDMA_MCM_EVENT_ERROR), "error"));
	CHECK(!strcmp(rdma_mcm_event_str(RDMA_MCM_EVENT_DEVICE_REMOVED),
		      "device-removed"));
	CHECK(!strcmp(rdma_mcm_event_str(0), "unknown"));
	CHECK(!strcmp(rdma_mcm_event_str(64), "unknown"));
}

static void test_addr_lengths(void)
{
	struct sockaddr_storage ss;
	uint8_t buf[RDMA_MCM_ADDR_SIZE] = { 0 };
	uint32_t len = 0;

	CHECK(sizeof(struct sockaddr_ib) == MCM_SOCKADDR_IB_LEN);
	CHECK(offsetof(struct sockaddr_ib, sib_addr) == 8);
	CHECK(sizeof(struct sockaddr_in6) <= RDMA_MCM_ADDR_SIZE);
	ss = addr("239.1.1.1");
	CHECK(mcm_addr_copy(SA(ss), buf, &len) == 0);
	CHECK(len == sizeof(struct sockaddr_in));
	ss = addr("ff0e::1");
	CHECK(mcm_addr_copy(SA(ss), buf, &len) == 0);
	CHECK(len == sizeof(struct sockaddr_in6));
	ss.ss_family = AF_UNIX;
	CHECK(mcm_addr_copy(SA(ss), buf, &len) == -EAFNOSUPPORT);
	CHECK(mcm_addr_copy(NULL, buf, &len) == -EINVAL);
}

static void test_status_errno(void)
{
	CHECK(mcm_status_errno(-ETIMEDOUT) == ETIMEDOUT);
	CHECK(mcm_status_errno(-ENETUNREACH) == ENETUNREACH);
	CHECK(mcm_status_errno(-EHOSTUNREACH) == EHOSTUNREACH);
	CHECK(mcm_status_errno(-1) == EPERM);
	CHECK(mcm_status_errno(0) == EIO);
	CHECK(mcm_status_errno(5) == EIO);
	CHECK(mcm_status_errno(-5000) == EIO);
	CHECK(mcm_status_errno(INT32_MIN) == EIO);
}

/* --- channel ------------------------------------------------------------- */

static void test_open_close(void)
{
	struct rdma_mcm_channel *ch;

	fake_install();
	CHECK(!rdma_mcm_open_channel(O_RDWR | O_NONBLOCK));
	CHECK(errno == EINVAL);
	CHECK(!rdma_mcm_open_channel(O_APPEND));
	ch = rdma_mcm_open_channel(O_NONBLOCK | O_CLOEXEC);
	CHECK(ch);
	CHECK(rdma_mcm_get_fd(ch) == fake.efd);
	CHECK(rdma_mcm_abi_version(ch) == RDMA_MCM_ABI_VERSION);
	rdma_mcm_close_channel(ch);
	CHECK(fake.efd == -1);
	rdma_mcm_close_channel(NULL);
	CHECK_ERRNO(rdma_mcm_get_fd(NULL), EINVAL);
	CHECK_ERRNO(rdma_mcm_abi_version(NULL), EINVAL);

	/* the kernel does not answer VERSION: open fails with its errno */
	fake_install();
	fake.version_errno = ENOTTY;
	errno = 0;
	CHECK(!rdma_mcm_open_channel(0));
	CHECK(errno == ENOTTY);
	CHECK(fake.efd == -1);
}

static void test_create_ctx(void)
{
	struct sockaddr_storage ss = addr("203.0.113.5");
	struct rdma_mcm_channel *ch;
	uint32_t ctx, ctx2 = 0;

	ch = setup(O_NONBLOCK, &ctx);
	CHECK(ctx != 0);
	CHECK_ERRNO(rdma_mcm_create_ctx(ch, SA(ss), &ctx2), EADDRNOTAVAIL);
	CHECK_ERRNO(rdma_mcm_create_ctx(ch, NULL, &ctx2), EINVAL);
	CHECK_ERRNO(rdma_mcm_create_ctx(ch, SA(ss), NULL), EINVAL);
	CHECK_ERRNO(rdma_mcm_create_ctx(NULL, SA(ss), &ctx2), EINVAL);
	ss.ss_family = AF_UNIX;
	CHECK_ERRNO(rdma_mcm_create_ctx(ch, SA(ss), &ctx2), EAFNOSUPPORT);
	ss = addr("fe80::1%1");
	CHECK(rdma_mcm_create_ctx(ch, SA(ss), &ctx2) == 0);
	CHECK(ctx2 != ctx);
	CHECK(rdma_mcm_destroy_ctx(ch, ctx2) == 0);
	CHECK_ERRNO(rdma_mcm_destroy_ctx(ch, ctx2), ENOENT);
	rdma_mcm_close_channel(ch);
}

/* --- joins and events ------------------------------------------------------ */

static void test_join_async(void)
{
	struct rdma_mcm_channel *ch;
	struct rdma_mcm_event ev;
	uint8_t mgid[16];
	uint32_t ctx, h;

	ch = setup(O_NONBLOCK, &ctx);
	CHECK_ERRNO(rdma_mcm_get_event(ch, &ev), EAGAIN);
	h = join(ch, ctx, "239.1.1.1", 0xc0ffee);
	CHECK_ERRNO(rdma_mcm_get_event(ch, &ev), EAGAIN);
	CHECK(fake_complete(ctx, h, 0) == 0);
	CHECK(rdma_mcm_get_event(ch, &ev) == 0);
	CHECK(ev.event == RDMA_MCM_EVENT_JOINED);
	CHECK(ev.cookie == 0xc0ffee);
	CHECK(ev.handle == h && ev.ctx_id == ctx && ev.status == 0);
	fake_mgid(fake_find(ctx, h)->m.addr, mgid);
	CHECK(!memcmp(ev.mgid, mgid, 16));
	CHECK_ERRNO(rdma_mcm_get_event(ch, &ev), EAGAIN);
	CHECK_ERRNO(rdma_mcm_get_event(ch, NULL), EINVAL);
	CHECK_ERRNO(rdma_mcm_get_event(NULL, &ev), EINVAL);
	rdma_mcm_close_channel(ch);
}

static void test_join_errors(void)
{
	struct sockaddr_storage g = addr("239.1.1.1");
	struct sockaddr_storage u = addr("10.1.1.1");
	struct sockaddr_storage g6 = addr("ff0e::1");
	struct rdma_mcm_channel *ch;
	uint32_t ctx, h;

	ch = setup(O_NONBLOCK, &ctx);
	CHECK(rdma_mcm_join(ch, ctx, SA(g), 0, 1, &h) == 0);
	CHECK_ERRNO(rdma_mcm_join(ch, ctx, SA(g), 0, 2, &h), EADDRINUSE);
	CHECK_ERRNO(rdma_mcm_join(ch, ctx + 100, SA(g), 0, 2, &h), ENOENT);
	CHECK_ERRNO(rdma_mcm_join(ch, ctx, SA(u), 0, 2, &h), EINVAL);
	CHECK_ERRNO(rdma_mcm_join(ch, ctx, SA(g6), 0, 2, &h), EINVAL);
	CHECK_ERRNO(rdma_mcm_join(ch, ctx, NULL, 0, 2, &h), EINVAL);
	CHECK_ERRNO(rdma_mcm_join(ch, ctx, SA(u), -1, 2, &h), EINVAL);
	g = addr("239.1.1.2");
	CHECK_ERRNO(rdma_mcm_join(ch, ctx, SA(g), 7, 2, &h), EINVAL);
	fake.max_members = 1;
	CHECK_ERRNO(rdma_mcm_join(ch, ctx, SA(g), 0, 2, &h), ENOBUFS);
	fake.max_members = FAKE_MAX_MEMBERS;
	CHECK(rdma_mcm_join(ch, ctx, SA(g), 0, 2, NULL) == 0);
	u.ss_family = AF_UNIX;
	CHECK_ERRNO(rdma_mcm_join(ch, ctx, SA(u), 0, 2, &h), EAFNOSUPPORT);
	CHECK(ch->members.count == 2);
	rdma_mcm_close_channel(ch);
}

static void test_join_sync_keeps_others(void)
{
	struct sockaddr_storage g = addr("239.1.1.3");
	struct rdma_mcm_channel *ch;
	struct rdma_mcm_event ev;
	uint32_t ctx, a, b;

	ch = setup(O_NONBLOCK, &ctx);
	a = join(ch, ctx, "239.1.1.1", 11);
	b = join(ch, ctx, "239.1.1.2", 22);
	fake_complete(ctx, a, 0);
	fake_complete(ctx, b, -ENETUNREACH);
	fake.auto_complete = 1;
	memset(&ev, 0, sizeof(ev));
	CHECK(rdma_mcm_join_sync(ch, ctx, SA(g), 0, 33, 1000, &ev) == 0);
	CHECK(ev.event == RDMA_MCM_EVENT_JOINED && ev.cookie == 33);
	CHECK(ch->queue.live == 2);
	/* the others come back first, in the order the kernel gave them */
	CHECK(rdma_mcm_get_event(ch, &ev) == 0);
	CHECK(ev.handle == a && ev.cookie == 11);
	CHECK(ev.event == RDMA_MCM_EVENT_JOINED);
	CHECK(rdma_mcm_get_event(ch, &ev) == 0);
	CHECK(ev.handle == b && ev.cookie == 22);
	CHECK(ev.event == RDMA_MCM_EVENT_ERROR && ev.status == -ENETUNREACH);
	CHECK_ERRNO(rdma_mcm_get_event(ch, &ev), EAGAIN);
	rdma_mcm_close_channel(ch);
}

static void test_join_sync_many(void)
{
	struct sockaddr_storage g = addr("239.2.0.0");
	struct rdma_mcm_channel *ch;
	struct rdma_mcm_event ev;
	uint32_t ctx, h[300];
	char text[32];
	int i, ok = 1;

	/* more events than the queue's first size and than one read() */
	ch = setup(0, &ctx);
	for (i = 0; i < 300; i++) {
		snprintf(text, sizeof(text), "239.1.%d.%d", i / 200, i % 200 + 1);
		h[i] = join(ch, ctx, text, (uint64_t)i);
		fake_complete(ctx, h[i], 0);
	}
	fake.auto_complete = 1;
	CHECK(rdma_mcm_join_sync(ch, ctx, SA(g), 0, 999, 1000, NULL) == 0);
	CHECK(ch->queue.live == 300);
	for (i = 0; i < 300; i++) {
		/* a blocking channel returns queued events at once */
		if (rdma_mcm_get_event(ch, &ev) || ev.handle != h[i] ||
		    ev.cookie != (uint64_t)i)
			ok = 0;
	}
	CHECK(ok);
	CHECK(ch->queue.live == 0);
	rdma_mcm_close_channel(ch);
}

static void test_join_sync_error(void)
{
	struct sockaddr_storage g = addr("239.9.9.9");
	struct rdma_mcm_channel *ch;
	struct rdma_mcm_event ev;
	uint32_t ctx, leaves;
	size_t i;
	int ret;

	ch = setup(0, &ctx);
	fake.auto_complete = 1;
	memcpy(fake.fail_group, &((struct sockaddr_in *)&g)->sin_addr, 4);
	fake.fail_status = -EHOSTUNREACH;
	leaves = fake.nr_leaves;
	memset(&ev, 0, sizeof(ev));
	CHECK_ERRNO(rdma_mcm_join_sync(ch, ctx, SA(g), 0, 5, 1000, &ev),
		    EHOSTUNREACH);
	CHECK(ev.event == RDMA_MCM_EVENT_ERROR);
	CHECK(ev.status == -EHOSTUNREACH && ev.cookie == 5);
	/* the failed membership is left: nothing to clean up */
	CHECK(fake.nr_leaves == leaves + 1);
	CHECK(fake.nr_members == 0);
	CHECK(ch->members.count == 0);

	/* a status that is no negative errno reads as EIO */
	fake.fail_status = 5;
	CHECK_ERRNO(rdma_mcm_join_sync(ch, ctx, SA(g), 0, 5, 1000, NULL), EIO);
	/* every status of uapi.rst's "Membership status" is its errno */
	for (i = 0; i < mcm_nr_statuses; i++) {
		fake.fail_status = -mcm_statuses[i].err;
		errno = 0;
		ret = rdma_mcm_join_sync(ch, ctx, SA(g), 0, 5, 1000, &ev);
		h_check(ret == -1 && errno == mcm_statuses[i].err &&
			ev.status == -mcm_statuses[i].err, "status to errno",
			__FILE__, __LINE__);
	}
	CHECK(fake.nr_members == 0 && ch->members.count == 0);
	/* errors of the JOIN ioctl itself */
	CHECK_ERRNO(rdma_mcm_join_sync(ch, ctx + 9, SA(g), 0, 5, 1000, NULL),
		    ENOENT);
	rdma_mcm_close_channel(ch);
}

static void test_join_sync_timeout(void)
{
	struct sockaddr_storage g = addr("239.1.1.1");
	struct rdma_mcm_channel *ch;
	struct rdma_mcm_event ev;
	uint32_t ctx, other;
	int64_t t0, dt;

	ch = setup(O_NONBLOCK, &ctx);
	other = join(ch, ctx, "239.1.1.2", 2);
	fake_complete(ctx, other, 0);
	t0 = now_ms();
	CHECK_ERRNO(rdma_mcm_join_sync(ch, ctx, SA(g), 0, 1, 100, &ev),
		    ETIMEDOUT);
	dt = now_ms() - t0;
	/* waited its timeout; the upper bound only catches a hang */
	CHECK(dt >= 100 && dt < HANG_MS);
	/* the join was cancelled; the other membership's event is kept */
	CHECK(fake.nr_members == 1);
	CHECK(rdma_mcm_get_event(ch, &ev) == 0 && ev.handle == other);
	/* timeout 0: one look, no wait */
	CHECK_ERRNO(rdma_mcm_join_sync(ch, ctx, SA(g), 0, 1, 0, &ev),
		    ETIMEDOUT);
	CHECK(fake.nr_members == 1);
	rdma_mcm_close_channel(ch);
}

static void test_wait_event(void)
{
	struct rdma_mcm_channel *ch;
	struct rdma_mcm_event ev;
	uint32_t ctx, h;
	int64_t t0, dt;

	ch = setup(0, &ctx);
	t0 = now_ms();
	CHECK_ERRNO(rdma_mcm_wait_event(ch, &ev, 50), ETIMEDOUT);
	dt = now_ms() - t0;
	CHECK(dt >= 50 && dt < HANG_MS);
	CHECK_ERRNO(rdma_mcm_wait_event(ch, &ev, 0), ETIMEDOUT);
	h = join(ch, ctx, "239.1.1.1", 1);
	fake_complete(ctx, h, 0);
	CHECK(rdma_mcm_wait_event(ch, &ev, 0) == 0 && ev.handle == h);
	h = join(ch, ctx, "239.1.1.2", 1);
	fake_complete(ctx, h, 0);
	/* blocking channel with an event queued in the kernel */
	CHECK(rdma_mcm_get_event(ch, &ev) == 0 && ev.handle == h);
	CHECK_ERRNO(rdma_mcm_wait_event(NULL, &ev, 0), EINVAL);
	rdma_mcm_close_channel(ch);
}

/* --- leaves ---------------------------------------------------------------- */

/* Join A and B, complete both, and pull their events into the library. */
static struct rdma_mcm_channel *queued_pair(uint32_t *ctx, uint32_t *a,
					    uint32_t *b, uint32_t *c)
{
	struct sockaddr_storage g = addr("239.1.1.3");
	struct rdma_mcm_event ev;
	struct rdma_mcm_channel *ch;

	ch = setup(O_NONBLOCK, ctx);
	*a = join(ch, *ctx, "239.1.1.1", 1);
	*b = join(ch, *ctx, "239.1.1.2", 2);
	fake_complete(*ctx, *a, 0);
	fake_complete(*ctx, *b, 0);
	fake.auto_complete = 1;
	CHECK(rdma_mcm_join_sync(ch, *ctx, SA(g), 0, 3, 1000, &ev) == 0);
	*c = ev.handle;
	fake.auto_complete = 0;
	CHECK(ch->queue.live == 2);
	return ch;
}

static void test_leave_drops_queued(void)
{
	struct rdma_mcm_channel *ch;
	struct rdma_mcm_event ev;
	uint32_t ctx, a, b, c, rep = 99;

	ch = queued_pair(&ctx, &a, &b, &c);
	/* the kernel has reported A's event; the application has not seen it */
	CHECK(fake_find(ctx, a)->m.events_reported == 1);
	CHECK(rdma_mcm_leave_ex(ch, ctx, a, NULL, &rep) == 0);
	CHECK(rep == 0);
	CHECK(ch->queue.live == 1);
	CHECK(rdma_mcm_get_event(ch, &ev) == 0 && ev.handle == b);
	CHECK_ERRNO(rdma_mcm_get_event(ch, &ev), EAGAIN);
	/* C's JOINED went to the application through join_sync */
	CHECK(rdma_mcm_leave_ex(ch, ctx, c, NULL, &rep) == 0);
	CHECK(rep == 1);
	CHECK(rdma_mcm_leave(ch, ctx, b) == 0);
	CHECK(ch->members.count == 0);
	rdma_mcm_close_channel(ch);
}

static void test_leave_addr_drops_queued(void)
{
	struct sockaddr_storage ga = addr("239.1.1.1");
	struct rdma_mcm_channel *ch;
	struct rdma_mcm_event ev;
	uint32_t ctx, a, b, c;

	ch = queued_pair(&ctx, &a, &b, &c);
	/* a port in the group address does not matter */
	((struct sockaddr_in *)&ga)->sin_port = htons(4791);
	CHECK(rdma_mcm_leave_addr(ch, ctx, SA(ga)) == 0);
	CHECK(!fake_find(ctx, a));
	CHECK(rdma_mcm_get_event(ch, &ev) == 0 && ev.handle == b);
	CHECK_ERRNO(rdma_mcm_get_event(ch, &ev), EAGAIN);
	CHECK_ERRNO(rdma_mcm_leave_addr(ch, ctx, SA(ga)), EADDRNOTAVAIL);
	rdma_mcm_close_channel(ch);
}

static void test_leave_errors(void)
{
	struct sockaddr_storage g = addr("239.1.1.1");
	struct rdma_mcm_channel *ch;
	uint32_t ctx, h;

	ch = setup(O_NONBLOCK, &ctx);
	h = join(ch, ctx, "239.1.1.1", 1);
	CHECK_ERRNO(rdma_mcm_leave(ch, ctx, h + 1), EADDRNOTAVAIL);
	CHECK_ERRNO(rdma_mcm_leave_addr(ch, ctx, NULL), EINVAL);
	CHECK_ERRNO(rdma_mcm_leave_ex(ch, ctx, h, SA(g), NULL), EINVAL);
	CHECK_ERRNO(rdma_mcm_leave(NULL, ctx, h), EINVAL);
	CHECK_ERRNO(rdma_mcm_leave(ch, ctx + 5, h), ENOENT);
	/* leave of a join in flight cancels it */
	CHECK(fake_find(ctx, h)->m.state == RDMA_MCM_STATE_JOINING);
	CHECK(rdma_mcm_leave(ch, ctx, h) == 0);
	CHECK(!fake_find(ctx, h));
	CHECK_ERRNO(rdma_mcm_leave(ch, ctx, h), EADDRNOTAVAIL);
	/* the kernel purged what it had not delivered */
	h = join(ch, ctx, "239.1.1.1", 1);
	fake_complete(ctx, h, 0);
	CHECK(fake.qlen == 1);
	CHECK(rdma_mcm_leave(ch, ctx, h) == 0);
	CHECK(fake.qlen == 0);
	CHECK(ch->members.count == 0);
	rdma_mcm_close_channel(ch);
}

static void test_destroy_ctx_drops(void)
{
	struct sockaddr_storage src = addr("10.0.0.2");
	struct rdma_mcm_channel *ch;
	struct rdma_mcm_event ev;
	uint32_t ctx, ctx2, a, b, c, d;

	ch = queued_pair(&ctx, &a, &b, &c);
	CHECK(rdma_mcm_create_ctx(ch, SA(src), &ctx2) == 0);
	d = join(ch, ctx2, "239.1.1.1", 4);
	fake_complete(ctx2, d, 0);
	CHECK(rdma_mcm_destroy_ctx(ch, ctx) == 0);
	CHECK(ch->members.count == 1);
	CHECK(rdma_mcm_get_event(ch, &ev) == 0);
	CHECK(ev.ctx_id == ctx2 && ev.handle == d);
	CHECK_ERRNO(rdma_mcm_get_event(ch, &ev), EAGAIN);
	rdma_mcm_close_channel(ch);
}

static void test_close_leaves_all(void)
{
	struct rdma_mcm_channel *ch;
	uint32_t ctx;

	ch = setup(0, &ctx);
	join(ch, ctx, "239.1.1.1", 1);
	join(ch, ctx, "239.1.1.2", 1);
	CHECK(fake.nr_members == 2);
	rdma_mcm_close_channel(ch);
	CHECK(fake.nr_members == 0);
}

/* --- query, list, batches -------------------------------------------------- */

static void test_query(void)
{
	struct rdma_mcm_channel *ch;
	struct rdma_mcm_member mb;
	struct rdma_mcm_event ev;
	uint32_t ctx, a, b, c;

	ch = queued_pair(&ctx, &a, &b, &c);
	CHECK(rdma_mcm_query(ch, ctx, a, &mb) == 0);
	CHECK(mb.handle == a && mb.cookie == 1);
	CHECK(mb.state == RDMA_MCM_STATE_JOINED && mb.qkey != 0);
	/* read by the library, not yet by the application */
	CHECK(mb.events_reported == 0);
	CHECK(rdma_mcm_get_event(ch, &ev) == 0 && ev.handle == a);
	CHECK(rdma_mcm_query(ch, ctx, a, &mb) == 0);
	CHECK(mb.events_reported == 1);
	CHECK(rdma_mcm_query(ch, ctx, c, &mb) == 0 && mb.events_reported == 1);
	CHECK_ERRNO(rdma_mcm_query(ch, ctx, 77, &mb), EADDRNOTAVAIL);
	CHECK_ERRNO(rdma_mcm_query(ch, ctx, a, NULL), EINVAL);
	rdma_mcm_close_channel(ch);
}

static void test_list_pages(void)
{
	struct rdma_mcm_member out[2];
	struct rdma_mcm_channel *ch;
	uint32_t ctx, h[5], start = 0, next;
	unsigned int seen = 0;
	char text[32];
	int i, n, pages = 0;

	ch = setup(O_NONBLOCK, &ctx);
	for (i = 0; i < 5; i++) {
		snprintf(text, sizeof(text), "239.3.3.%d", i + 1);
		h[i] = join(ch, ctx, text, (uint64_t)i);
	}
	fake_complete(ctx, h[2], -ETIMEDOUT);
	do {
		n = rdma_mcm_list(ch, ctx, start, out, 2, &next);
		CHECK(n >= 0 && n <= 2);
		for (i = 0; i < n; i++, seen++) {
			CHECK(out[i].handle == h[seen]);
			CHECK(out[i].state == (seen == 2 ?
					       RDMA_MCM_STATE_ERROR :
					       RDMA_MCM_STATE_JOINING));
		}
		start = next;
		pages++;
	} while (next && n > 0 && pages < 10);
	CHECK(seen == 5 && pages == 3);
	CHECK(rdma_mcm_list(ch, ctx, 0, NULL, 0, &next) == 0);
	CHECK_ERRNO(rdma_mcm_list(ch, ctx, 0, NULL, 2, &next), EINVAL);
	CHECK_ERRNO(rdma_mcm_list(ch, ctx + 1, 0, out, 2, &next), ENOENT);
	rdma_mcm_close_channel(ch);
}

static void test_batches(void)
{
	struct rdma_mcm_join_entry je[4];
	struct rdma_mcm_leave_entry le[4];
	struct rdma_mcm_channel *ch;
	struct rdma_mcm_event ev;
	uint32_t ctx;
	int i;

	ch = setup(O_NONBLOCK, &ctx);
	memset(je, 0, sizeof(je));
	entry_addr(je[0].addr, "239.4.4.1");
	entry_addr(je[1].addr, "239.4.4.2");
	entry_addr(je[2].addr, "239.4.4.1");	/* duplicate */
	entry_addr(je[3].addr, "ff0e::4");	/* wrong family */
	je[1].join_flags = RDMA_MCM_JOIN_SENDONLY_FULLMEMBER;
	for (i = 0; i < 4; i++)
		je[i].cookie = (uint64_t)i;
	/* addr_len 0: the library sets it from the family */
	CHECK(rdma_mcm_join_batch(ch, ctx, je, 4) == 4);
	CHECK(je[0].addr_len == sizeof(struct sockaddr_in));
	CHECK(je[3].addr_len == sizeof(struct sockaddr_in6));
	CHECK(je[0].result == 0 && je[0].handle != 0);
	CHECK(je[1].result == 0 && je[1].handle != 0);
	CHECK(je[2].result == -EADDRINUSE);
	CHECK(je[3].result == -EINVAL);
	CHECK(ch->members.count == 2);
	CHECK(mcm_table_find(&ch->members, ctx, je[1].handle)->join_flags ==
	      RDMA_MCM_JOIN_SENDONLY_FULLMEMBER);
	fake_complete(ctx, je[0].handle, 0);
	fake_complete(ctx, je[1].handle, 0);
	CHECK(mcm_fill(ch) == 2);

	memset(le, 0, sizeof(le));
	le[0].handle = je[0].handle;
	le[1].flags = RDMA_MCM_LEAVE_BY_ADDR;
	entry_addr(le[1].addr, "239.4.4.2");
	le[2].handle = 4242;
	le[3].flags = RDMA_MCM_LEAVE_BY_ADDR;
	entry_addr(le[3].addr, "239.4.4.9");
	CHECK(rdma_mcm_leave_batch(ch, ctx, le, 4) == 4);
	CHECK(le[0].result == 0 && le[1].result == 0);
	CHECK(le[0].events_reported == 0 && le[1].events_reported == 0);
	CHECK(le[2].result == -EADDRNOTAVAIL);
	CHECK(le[3].result == -EADDRNOTAVAIL);
	CHECK(le[1].addr_len == sizeof(struct sockaddr_in));
	CHECK(ch->members.count == 0);
	CHECK_ERRNO(rdma_mcm_get_event(ch, &ev), EAGAIN);
	CHECK(rdma_mcm_join_batch(ch, ctx, NULL, 0) == 0);
	CHECK_ERRNO(rdma_mcm_join_batch(ch, ctx, NULL, 1), EINVAL);
	CHECK_ERRNO(rdma_mcm_join_batch(ch, ctx + 3, je, 1), ENOENT);
	rdma_mcm_close_channel(ch);
}

/* --- internals ------------------------------------------------------------ */

static void test_table(void)
{
	struct mcm_table t = { 0 };
	struct mcm_queue q = { 0 };
	struct sockaddr_storage g;
	char text[32];
	int i, ok = 1, err;

	for (i = 0; i < 2000; i++) {
		snprintf(text, sizeof(text), "239.5.%d.%d", i / 250, i % 250);
		g = addr(text);
		if (!mcm_table_add(&t, 1 + i % 3, (uint32_t)i + 1, i & 1, SA(g),
				   &err))
			ok = 0;
	}
	CHECK(ok && t.count == 2000);
	for (i = 0; i < 2000; i++) {
		struct mcm_member *m = mcm_table_find(&t, 1 + i % 3,
						      (uint32_t)i + 1);

		snprintf(text, sizeof(text), "239.5.%d.%d", i / 250, i % 250);
		g = addr(text);
		if (!m || m->join_flags != (uint32_t)(i & 1) ||
		    mcm_table_find_addr(&t, 1 + i % 3, SA(g)) != m ||
		    mcm_table_find_addr(&t, 4, SA(g)))
			ok = 0;
	}
	CHECK(ok);
	g.ss_family = AF_UNIX;
	CHECK(!mcm_table_add(&t, 1, 9999, 0, SA(g), &err));
	CHECK(err == -EAFNOSUPPORT);
	mcm_table_del_ctx(&t, &q, 2);
	CHECK(t.count == 2000 - 667);
	CHECK(!mcm_table_find(&t, 2, 2));
	CHECK(mcm_table_find(&t, 1, 1));
	mcm_table_del(&t, &q, mcm_table_find(&t, 1, 1));
	CHECK(!mcm_table_find(&t, 1, 1));
	mcm_table_free(&t);
	CHECK(t.count == 0 && !mcm_table_find(&t, 1, 4));
}

/* Push an event of (@ctx_id, @handle) owned by @m or @c */
static void push(struct mcm_queue *q, uint32_t ctx_id, uint32_t handle,
		 struct mcm_member *m, struct mcm_ctx *c)
{
	struct rdma_mcm_event ev = { 0 };

	ev.event = RDMA_MCM_EVENT_JOINED;
	ev.ctx_id = ctx_id;
	ev.handle = handle;
	if (mcm_queue_reserve(q, 1))
		abort();
	mcm_queue_own(mcm_queue_push(q, &ev, sizeof(ev)), m, c);
}

static void test_queue(void)
{
	const uint64_t all = ~0ULL;
	struct mcm_member a = { .ctx_id = 1, .handle = 1 };
	struct mcm_member b = { .ctx_id = 1, .handle = 2 };
	struct mcm_ctx c = { .ctx_id = 1 };
	struct mcm_queue q = { 0 };
	struct mcm_wire_event ev;
	int i, ok = 1;

	/* a b a c b a: in order, each owner's FIFO in step */
	push(&q, 1, 1, &a, NULL);
	push(&q, 1, 2, &b, NULL);
	push(&q, 1, 1, &a, NULL);
	push(&q, 1, 0, NULL, &c);
	push(&q, 1, 2, &b, NULL);
	push(&q, 1, 1, &a, NULL);
	CHECK(q.live == 6 && a.q.count == 3 && b.q.count == 2);
	CHECK(c.q.count == 1);
	/* join_sync takes a's oldest out of order; a's FIFO moves on */
	CHECK(mcm_queue_take(&q, &a, &ev) == 1 && ev.s.handle == 1);
	CHECK(q.live == 5 && a.q.count == 2);
	/* a claimed membership's events are skipped by pop */
	a.claimed = 1;
	CHECK(mcm_queue_pop(&q, all, &ev) == 1 && ev.s.handle == 2);
	CHECK(mcm_queue_pop(&q, all, &ev) == 1 && ev.s.handle == 0);
	CHECK(c.q.count == 0 && b.q.count == 1);
	a.claimed = 0;
	/* events of a type not asked for are dropped by pop */
	CHECK(mcm_queue_pop(&q, RDMA_MCM_EVENT_BIT(RDMA_MCM_EVENT_ERROR),
			    &ev) == 0);
	CHECK(q.live == 0 && a.q.count == 0 && b.q.count == 0 && !q.head);

	/* purge: only the owner's records are visited */
	for (i = 0; i < 1000; i++)
		push(&q, 1, 2, &b, NULL);
	push(&q, 1, 1, &a, NULL);
	q.visits = 0;
	CHECK(mcm_queue_purge(&q, &a.q) == 1);
	CHECK(q.visits == 1 && q.live == 1000);
	CHECK(mcm_queue_purge(&q, &b.q) == 1000);
	CHECK(q.live == 0 && !q.head && !q.tail);
	/* records are recycled, and freed past a bound */
	CHECK(q.nfree > 0 && q.nfree <= 256);
	for (i = 0; i < 10; i++)
		push(&q, 1, 1, &a, NULL);
	for (i = 0; i < 10; i++)
		ok &= mcm_queue_pop(&q, all, &ev) == 1;
	CHECK(ok && a.q.count == 0 && !a.q.head && !a.q.tail);
	mcm_queue_free(&q);
	CHECK(!q.head && !q.free && q.nfree == 0);
}

int main(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	h_run("parse_addr table", test_parse_addr);
	h_run("state and event strings", test_strings);
	h_run("address lengths", test_addr_lengths);
	h_run("event status to errno", test_status_errno);
	h_run("open and close", test_open_close);
	h_run("create and destroy contexts", test_create_ctx);
	h_run("join and get_event", test_join_async);
	h_run("join errors", test_join_errors);
	h_run("join_sync keeps other events", test_join_sync_keeps_others);
	h_run("join_sync with 300 queued events", test_join_sync_many);
	h_run("join_sync error event to errno", test_join_sync_error);
	h_run("join_sync timeout", test_join_sync_timeout);
	h_run("wait_event", test_wait_event);
	h_run("leave drops queued events", test_leave_drops_queued);
	h_run("leave_addr drops queued events", test_leave_addr_drops_queued);
	h_run("leave errors and cancel", test_leave_errors);
	h_run("destroy_ctx drops queued events", test_destroy_ctx_drops);
	h_run("close leaves all", test_close_leaves_all);
	h_run("query", test_query);
	h_run("list pages", test_list_pages);
	h_run("batch join and leave", test_batches);
	h_run("membership table", test_table);
	h_run("event queue and owners", test_queue);
	abi_tests();
	heal_tests();
	wait_tests();
	nl_tests();
	source_tests();
#ifndef MCM_TEST_NO_VERBS
	verbs_tests();
#endif
	return h_finish();
}
