// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * An application of librdmamcm, built four times (Makefile):
 *
 *   app-1.2  against the headers of librdmamcm 1.2 (testing/host/abi-1.2: a
 *            184-byte struct rdma_mcm_member) and linked against a stub
 *            with 1.2's symbol versions, as a program built then was: it
 *            calls rdma_mcm_query@LIBRDMAMCM_1.0 and rdma_mcm_list@...
 *   app-1.4  against those of librdmamcm 1.4 (testing/host/abi-1.4: 200-byte
 *            members, 152-byte join entries) and a stub of 1.4's: it calls
 *            rdma_mcm_query@LIBRDMAMCM_1.3, rdma_mcm_list@LIBRDMAMCM_1.3
 *            and rdma_mcm_join_batch@LIBRDMAMCM_1.0
 *   app-1.5  against those of librdmamcm 1.5 (testing/host/abi-1.5: 208-byte
 *            members, 168-byte join entries, the LIBRDMAMCM_1.5 versions)
 *            and a stub of 1.5's, with a source-specific join
 *   app-1.6  the same against today's headers and library
 *
 * "app-X --layout" prints, for each function that fills or reads a
 * struct of the application, the layout of those structs as the program
 * was built (the offset of their reserved space, their size), and runs
 * nothing: run-checks checks with them that debian/librdmamcm1.symbols
 * gives each function at least the package of the first library whose
 * header has that layout, as the program binds it.
 *
 * All run against today's librdmamcm.so and the fake device
 * (fake_preload.so), playing today's module, a newer one, the one before
 * sources and the one before healing (run-checks). The library must
 * write each struct of the application at the size the application was
 * built with, never past it (a canary follows each), read no more of it
 * either (the batch entries are followed by bytes that are no entry's),
 * deliver only the event types it asked for, and do what 1.2 did.
 */
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <librdmamcm.h>

#include "harness.h"

#define CANARY		0x5a
#define SA(ss)		((const struct sockaddr *)&(ss))

/*
 * The headers this program is built against: today's (sources), 1.4's
 * (healing, no sources) or 1.2's (neither)
 */
#if defined(RDMA_MCM_FEATURE_SOURCES)
#define MEMBER_SIZE	208
#define JOIN_ENTRY_SIZE	168
#elif defined(RDMA_MCM_CTX_HEAL)
#define MEMBER_SIZE	200
#define JOIN_ENTRY_SIZE	152
#else
#define MEMBER_SIZE	184
#define JOIN_ENTRY_SIZE	152
#endif

_Static_assert(sizeof(struct rdma_mcm_member) == MEMBER_SIZE,
	       "the headers this program is built against");
_Static_assert(sizeof(struct rdma_mcm_join_entry) == JOIN_ENTRY_SIZE,
	       "the headers this program is built against");

struct padded_members {
	struct rdma_mcm_member m[2];
	uint8_t canary[64];
};

struct padded_event {
	struct rdma_mcm_event ev;
	uint8_t canary[64];
};

static int intact(const uint8_t *p, size_t n)
{
	while (n--)
		if (*p++ != CANARY)
			return 0;
	return 1;
}

static struct sockaddr_storage addr(const char *text)
{
	struct sockaddr_storage ss;

	if (rdma_mcm_parse_addr(text, &ss))
		abort();
	return ss;
}

static struct rdma_mcm_channel *ch;
static uint32_t ctx;

static void test_join_and_events(void)
{
	struct sockaddr_storage g1 = addr("239.1.1.1"), g2 = addr("239.1.1.2");
	struct padded_event pe;
	uint32_t h2 = 0;

	memset(&pe, CANARY, sizeof(pe));
	CHECK(rdma_mcm_join_sync(ch, ctx, SA(g1), RDMA_MCM_JOIN_FULLMEMBER, 1,
				 1000, &pe.ev) == 0);
	CHECK(pe.ev.event == RDMA_MCM_EVENT_JOINED && pe.ev.cookie == 1);
	CHECK(pe.ev.handle == 1 && pe.ev.qkey == 0x01234567u);
	CHECK(intact(pe.canary, sizeof(pe.canary)));
	CHECK(rdma_mcm_join(ch, ctx, SA(g2), RDMA_MCM_JOIN_FULLMEMBER, 2,
			    &h2) == 0);
	memset(&pe, CANARY, sizeof(pe));
	CHECK(rdma_mcm_wait_event(ch, &pe.ev, 1000) == 0);
	CHECK(pe.ev.event == RDMA_MCM_EVENT_JOINED && pe.ev.handle == h2);
	CHECK(intact(pe.canary, sizeof(pe.canary)));
}

/* Query and list: the application's size, and no byte past it */
static void test_query_list(void)
{
	struct padded_members pm;
	uint32_t next = 99;

	memset(&pm, CANARY, sizeof(pm));
	CHECK(rdma_mcm_query(ch, ctx, 1, &pm.m[0]) == 0);
	CHECK(pm.m[0].handle == 1 && pm.m[0].cookie == 1);
	CHECK(pm.m[0].state == RDMA_MCM_STATE_JOINED);
	CHECK(pm.m[0].events_reported == 1);
	CHECK(intact((uint8_t *)&pm.m[1], sizeof(pm) - sizeof(pm.m[0])));
#ifdef RDMA_MCM_CTX_HEAL
	/* the 1.3 fields: written (zeros on the module before healing) */
	CHECK(pm.m[0].rejoins == 0 && pm.m[0].last_status == 0);
	CHECK(getenv("FAKE_NO_HEAL") ? pm.m[0].state_time_ns == 0 :
	      pm.m[0].state_time_ns != 0);
#endif
#ifdef RDMA_MCM_FEATURE_SOURCES
	/* the 1.5 fields: written, zeros for an IPv4 group of any source */
	CHECK(pm.m[0].nr_sources == 0 && pm.m[0].flags == 0);
#endif
	memset(&pm, CANARY, sizeof(pm));
	CHECK(rdma_mcm_list(ch, ctx, 0, pm.m, 2, &next) == 2);
	CHECK(pm.m[0].handle == 1 && pm.m[1].handle == 2 && next == 0);
	CHECK(pm.m[1].cookie == 2 && pm.m[1].state == RDMA_MCM_STATE_JOINED);
	CHECK(intact(pm.canary, sizeof(pm.canary)));
}

/* A failed join: its status as errno; the membership is left */
static void test_join_error(void)
{
	struct sockaddr_storage g = addr("239.9.9.9");
	struct padded_event pe;

	memset(&pe, CANARY, sizeof(pe));
	CHECK_ERRNO(rdma_mcm_join_sync(ch, ctx, SA(g), 0, 9, 1000, &pe.ev),
		    ETIMEDOUT);
	CHECK(pe.ev.event == RDMA_MCM_EVENT_ERROR);
	CHECK(pe.ev.status == -ETIMEDOUT);
	CHECK(intact(pe.canary, sizeof(pe.canary)));
}

/*
 * The join entries are followed by a canary: were the library to read
 * them at a later size than this program's, it would pass the canary's
 * bytes to the kernel as the entry's tail (E2BIG), and write past them.
 */
struct padded_join_entries {
	struct rdma_mcm_join_entry e[2];
	uint8_t canary[64];
};

static void test_batches(void)
{
	struct padded_join_entries pj;
	struct rdma_mcm_leave_entry le[2];
	struct sockaddr_storage g;
	int i;

	memset(&pj, CANARY, sizeof(pj));
	memset(pj.e, 0, sizeof(pj.e));
	for (i = 0; i < 2; i++) {
		g = addr(i ? "239.2.2.2" : "239.2.2.1");
		memcpy(pj.e[i].addr, &g, sizeof(struct sockaddr_in));
		pj.e[i].cookie = 10 + (uint64_t)i;
	}
	CHECK(rdma_mcm_join_batch(ch, ctx, pj.e, 2) == 2);
	CHECK(pj.e[0].result == 0 && pj.e[1].result == 0);
	CHECK(pj.e[0].handle && pj.e[1].handle);
	CHECK(intact(pj.canary, sizeof(pj.canary)));
	memset(le, 0, sizeof(le));
	le[0].handle = pj.e[0].handle;
	le[1].handle = pj.e[1].handle;
	CHECK(rdma_mcm_leave_batch(ch, ctx, le, 2) == 2);
	CHECK(le[0].result == 0 && le[1].result == 0);
}

#ifdef RDMA_MCM_FEATURE_SOURCES
/*
 * A source-specific join, alone and in a batch: joined with its sources
 * on a module that has them, EOPNOTSUPP on one before them
 */
static void test_sources(void)
{
	struct sockaddr_storage g = addr("239.3.3.1"), s1 = addr("192.0.2.1"),
				s2 = addr("192.0.2.2");
	const struct sockaddr *src[2] = { SA(s1), SA(s2) };
	int old = getenv("FAKE_NO_SOURCES") || getenv("FAKE_NO_HEAL");
	struct rdma_mcm_source bs[1];
	struct padded_join_entries pj;
	struct padded_members pm;
	uint32_t features = 99, h = 0;

	CHECK(rdma_mcm_get_features(ch, &features) == 0);
	CHECK(features == (old ? 0 : RDMA_MCM_FEATURE_SOURCES |
			   RDMA_MCM_FEATURE_IPV6_ROCE));
	if (old) {
		CHECK_ERRNO(rdma_mcm_join_source(ch, ctx, SA(g), src, 2, 0,
						 30, &h), EOPNOTSUPP);
	} else {
		CHECK(rdma_mcm_join_source(ch, ctx, SA(g), src, 2, 0, 30,
					   &h) == 0);
		memset(&pm, CANARY, sizeof(pm));
		CHECK(rdma_mcm_query(ch, ctx, h, &pm.m[0]) == 0);
		CHECK(pm.m[0].nr_sources == 2 && pm.m[0].cookie == 30);
		CHECK(intact((uint8_t *)&pm.m[1],
			     sizeof(pm) - sizeof(pm.m[0])));
		CHECK(rdma_mcm_leave(ch, ctx, h) == 0);
	}
	memset(&pj, CANARY, sizeof(pj));
	memset(pj.e, 0, sizeof(pj.e));
	memset(bs, 0, sizeof(bs));
	bs[0].addr_len = sizeof(struct sockaddr_in);
	memcpy(bs[0].addr, &s1, sizeof(struct sockaddr_in));
	memcpy(pj.e[0].addr, &g, sizeof(struct sockaddr_in));
	pj.e[0].sources = (uintptr_t)bs;
	pj.e[0].nr_sources = 1;
	g = addr("239.3.3.2");
	memcpy(pj.e[1].addr, &g, sizeof(struct sockaddr_in));
	CHECK(rdma_mcm_join_batch(ch, ctx, pj.e, 2) == 2);
	CHECK(pj.e[0].result == (old ? -EOPNOTSUPP : 0));
	CHECK(pj.e[0].source_size == sizeof(struct rdma_mcm_source));
	CHECK(pj.e[1].result == 0);
	CHECK(intact(pj.canary, sizeof(pj.canary)));
	if (!old)
		CHECK(rdma_mcm_leave(ch, ctx, pj.e[0].handle) == 0);
	CHECK(rdma_mcm_leave(ch, ctx, pj.e[1].handle) == 0);
}
#endif

/*
 * The device goes: JOINED, ERROR -ENODEV for each of the three joined
 * memberships, DEVICE_REMOVED (asked for, 1.1), and nothing of a type
 * this program did not ask for.
 */
static void test_device_removed(void)
{
	struct sockaddr_storage g = addr("239.9.9.8");
	struct rdma_mcm_event ev;
	uint32_t h, events = 0;
	int n = 0;

	CHECK(rdma_mcm_join(ch, ctx, SA(g), 0, 8, &h) == 0);
	while (!rdma_mcm_wait_event(ch, &ev, 100)) {
		CHECK(ev.event <= RDMA_MCM_EVENT_DEVICE_REMOVED);
		n++;
	}
	CHECK(errno == ETIMEDOUT);
	CHECK(n == 5);
	CHECK(ev.event == RDMA_MCM_EVENT_DEVICE_REMOVED);
	CHECK(ev.status == -ENODEV && ev.ctx_id == ctx);
	CHECK(rdma_mcm_leave_ex(ch, ctx, h, NULL, &events) == 0);
	CHECK(events == 2);
}

/*
 * The layouts of the structs each function fills or reads, as this
 * program sees them: "FUNCTION STRUCT:SIZE" for a struct of the kernel
 * ABI, "FUNCTION STRUCT:END/SIZE ..." for one of librdmamcm.h, END the
 * offset of its reserved space (the fields before are the ones the
 * program reads)
 */
static void size_line(const char *fn, const char *name, size_t size)
{
	printf("%s %s:%u\n", fn, name, (unsigned int)size);
}

/* where a struct's reserved tail begins, and its size */
#define END_OF(type, reserved)	((unsigned int)offsetof(struct type, reserved))
#define SIZE_OF(type)		((unsigned int)sizeof(struct type))

static void print_layouts(void)
{
	size_line("rdma_mcm_query", "member", sizeof(struct rdma_mcm_member));
	size_line("rdma_mcm_list", "member", sizeof(struct rdma_mcm_member));
	size_line("rdma_mcm_join_batch", "join_entry",
		  sizeof(struct rdma_mcm_join_entry));
	size_line("rdma_mcm_leave_batch", "leave_entry",
		  sizeof(struct rdma_mcm_leave_entry));
	size_line("rdma_mcm_get_event", "event", sizeof(struct rdma_mcm_event));
	size_line("rdma_mcm_wait_event", "event",
		  sizeof(struct rdma_mcm_event));
	size_line("rdma_mcm_join_sync", "event", sizeof(struct rdma_mcm_event));
#ifdef RDMA_MCM_NL_NAME_LEN
	printf("rdma_mcm_nl_dump_members nl_member:%u/%u\n",
	       END_OF(rdma_mcm_nl_member, reserved),
	       SIZE_OF(rdma_mcm_nl_member));
	printf("rdma_mcm_nl_read_event nl_notice:%u/%u nl_member:%u/%u\n",
	       END_OF(rdma_mcm_nl_notice, reserved),
	       SIZE_OF(rdma_mcm_nl_notice),
	       END_OF(rdma_mcm_nl_member, reserved),
	       SIZE_OF(rdma_mcm_nl_member));
	printf("rdma_mcm_nl_dump_contexts nl_context:%u/%u nl_counters:%u\n",
	       END_OF(rdma_mcm_nl_context, reserved),
	       SIZE_OF(rdma_mcm_nl_context),
	       (unsigned int)sizeof(struct rdma_mcm_nl_counters));
	printf("rdma_mcm_nl_get_stats nl_stats:%u/%u nl_device:%u/%u\n",
	       END_OF(rdma_mcm_nl_stats, reserved),
	       SIZE_OF(rdma_mcm_nl_stats),
	       END_OF(rdma_mcm_nl_device, reserved),
	       SIZE_OF(rdma_mcm_nl_device));
#endif
}

/* The functions of --layout, bound whether or not they are called */
typedef void (*any_fn)(void);

static const any_fn bound[] __attribute__((used)) = {
	(any_fn)rdma_mcm_query, (any_fn)rdma_mcm_list,
	(any_fn)rdma_mcm_join_batch, (any_fn)rdma_mcm_leave_batch,
	(any_fn)rdma_mcm_get_event, (any_fn)rdma_mcm_wait_event,
	(any_fn)rdma_mcm_join_sync,
#ifdef RDMA_MCM_NL_NAME_LEN
	(any_fn)rdma_mcm_nl_dump_members, (any_fn)rdma_mcm_nl_read_event,
	(any_fn)rdma_mcm_nl_dump_contexts, (any_fn)rdma_mcm_nl_get_stats,
#endif
};

int main(int argc, char **argv)
{
	struct sockaddr_storage src = addr("10.0.0.1");
	uint64_t got = 0;

	if (argc > 1 && !strcmp(argv[1], "--layout")) {
		print_layouts();
		return !bound[0];
	}
	ch = rdma_mcm_open_channel(O_NONBLOCK);
	if (!ch) {
		CHECK(ch);
		return h_finish();
	}
	CHECK(rdma_mcm_abi_version(ch) == 1);
	CHECK(rdma_mcm_set_event_mask(ch, RDMA_MCM_EVENTS_DEFAULT |
				      RDMA_MCM_EVENT_BIT(RDMA_MCM_EVENT_DEVICE_REMOVED),
				      &got) == 0);
	CHECK(rdma_mcm_create_ctx(ch, SA(src), &ctx) == 0);
	h_run("join, join_sync, events of the application's size",
	      test_join_and_events);
	h_run("query and list: the application's struct, no byte past it",
	      test_query_list);
	h_run("a failed join_sync: errno", test_join_error);
	h_run("batch join and leave: the application's entries", test_batches);
#ifdef RDMA_MCM_FEATURE_SOURCES
	h_run("source-specific joins, the features", test_sources);
#endif
	h_run("device removed: only the types asked for", test_device_removed);
	rdma_mcm_close_channel(ch);
	return h_finish();
}
