// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * One channel, three threads, as an application and a kernel would have
 * them: an event thread blocked in rdma_mcm_get_event(), a control thread
 * joining (one at a time, in batches, and with join_sync), querying,
 * listing and leaving, and a "kernel" thread completing joins on the
 * fake device meanwhile. Run as it is and under ThreadSanitizer
 * (make -C tools check), which must report nothing.
 *
 * Checks: every join_sync gets its own membership's event (the event
 * thread never takes it); the event thread gets only events of
 * memberships the control thread made; nothing deadlocks (a leave while
 * the event thread waits); the event thread ends on the STOP cookie.
 */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "fake_dev.h"
#include "harness.h"
#include "tutil.h"

#define ROUNDS		200
#define PER_ROUND	8
#define SYNC_COOKIE	(1ULL << 40)	/* cookies of join_sync */
#define STOP_COOKIE	(1ULL << 50)

static struct rdma_mcm_channel *ch;
static uint32_t ctx;
static atomic_int stop_kernel;
static atomic_int bad_events, sync_stolen, events_seen;

static void *event_thread(void *arg)
{
	struct rdma_mcm_event ev;

	(void)arg;
	for (;;) {
		if (rdma_mcm_get_event(ch, &ev)) {
			atomic_fetch_add(&bad_events, 1);
			fprintf(stderr, "get_event: %s\n", strerror(errno));
			return NULL;
		}
		if (ev.cookie == STOP_COOKIE)
			return NULL;
		if (ev.cookie & SYNC_COOKIE)
			atomic_fetch_add(&sync_stolen, 1);
		else if (!ev.cookie || ev.ctx_id != ctx ||
			 (ev.event != RDMA_MCM_EVENT_JOINED &&
			  ev.event != RDMA_MCM_EVENT_ERROR))
			atomic_fetch_add(&bad_events, 1);
		atomic_fetch_add(&events_seen, 1);
	}
}

static void *kernel_thread(void *arg)
{
	struct timespec t = { 0, 200000 };

	(void)arg;
	while (!atomic_load(&stop_kernel)) {
		fake_complete_all();
		nanosleep(&t, NULL);
	}
	return NULL;
}

static void group(char *buf, size_t len, int round, int i)
{
	snprintf(buf, len, "239.10.%d.%d", round, i + 1);
}

/* One round of the control thread; returns 0 when all went as expected */
static int control_round(int round)
{
	struct rdma_mcm_join_entry je[PER_ROUND];
	struct rdma_mcm_leave_entry le[PER_ROUND];
	struct rdma_mcm_member mb[PER_ROUND * 2];
	struct sockaddr_storage g;
	struct rdma_mcm_event ev;
	uint32_t h[PER_ROUND], next;
	char text[32];
	int i, bad = 0;

	for (i = 0; i < PER_ROUND; i++) {
		group(text, sizeof(text), round, i);
		g = addr(text);
		bad |= rdma_mcm_join(ch, ctx, SA(g), 0,
				     (uint64_t)(round * 100 + i + 1), &h[i]);
	}
	memset(je, 0, sizeof(je));
	for (i = 0; i < PER_ROUND; i++) {
		group(text, sizeof(text), round, i + 100);
		entry_addr(je[i].addr, text);
		je[i].cookie = (uint64_t)(round * 100 + 50 + i);
	}
	bad |= rdma_mcm_join_batch(ch, ctx, je, PER_ROUND) != PER_ROUND;
	group(text, sizeof(text), round, 200);
	g = addr(text);
	/* the kernel thread completes it; the event thread must not take it */
	if (rdma_mcm_join_sync(ch, ctx, SA(g), 0, SYNC_COOKIE | (uint64_t)round,
			       HANG_MS, &ev) ||
	    ev.cookie != (SYNC_COOKIE | (uint64_t)round))
		bad = 1;
	bad |= rdma_mcm_query(ch, ctx, h[0], &mb[0]) != 0;
	bad |= rdma_mcm_list(ch, ctx, 0, mb, PER_ROUND * 2, &next) < 0;
	for (i = 0; i < PER_ROUND; i++)
		bad |= rdma_mcm_leave(ch, ctx, h[i]) != 0;
	memset(le, 0, sizeof(le));
	for (i = 0; i < PER_ROUND; i++)
		le[i].handle = je[i].handle;
	bad |= rdma_mcm_leave_batch(ch, ctx, le, PER_ROUND) != PER_ROUND;
	bad |= rdma_mcm_leave(ch, ctx, ev.handle) != 0;
	return bad;
}

static void test_threads(void)
{
	struct sockaddr_storage g = addr("239.10.255.1");
	pthread_t ev_thr, k_thr;
	int round, bad = 0;

	ch = setup(0, &ctx);
	CHECK(pthread_create(&ev_thr, NULL, event_thread, NULL) == 0);
	CHECK(pthread_create(&k_thr, NULL, kernel_thread, NULL) == 0);
	/*
	 * The first bad round ends the loop: a stolen join_sync event costs
	 * that join_sync its whole HANG_MS, which more rounds would repeat.
	 */
	for (round = 0; round < ROUNDS && !bad; round++)
		bad |= control_round(round);
	CHECK(!bad);
	/* the event thread ends on this membership's JOINED */
	CHECK(rdma_mcm_join(ch, ctx, SA(g), 0, STOP_COOKIE, NULL) == 0);
	pthread_join(ev_thr, NULL);
	atomic_store(&stop_kernel, 1);
	pthread_join(k_thr, NULL);
	CHECK(atomic_load(&bad_events) == 0);
	CHECK(atomic_load(&sync_stolen) == 0);
	printf("# event thread got %d events over %d rounds\n",
	       atomic_load(&events_seen), round);
	rdma_mcm_close_channel(ch);
	CHECK(fake.nr_members == 0);
}

int main(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	h_run("event thread, control thread and kernel thread on one channel",
	      test_threads);
	return h_finish();
}
