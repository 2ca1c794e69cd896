// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Unit tests of waiting: a caught signal (SA_RESTART or not) does not end
 * a blocking wait early.
 *
 * A timer sends SIGALRM every millisecond. The waiting thread raises
 * in_call right before the blocking call (join_sync, a blocking get_event,
 * wait_event) and lowers it right after; the handler counts a signal only
 * while it is raised. The fake holds the membership's event back: a
 * helper thread (SIGALRM blocked, so that the waiter gets every signal)
 * queues it only once SIGNALS_IN_CALL signals have been caught inside the
 * call. The call can only return success after that many signals hit it,
 * and since it blocks in poll() for all but a few microseconds of that
 * time, they interrupted its wait. No assertion on time: the deadlines
 * only bound a broken run.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>

#include "fake_dev.h"
#include "harness.h"
#include "rdma_mcm_priv.h"
#include "tutil.h"

#define SIGNALS_IN_CALL	20

/* lock-free, so also safe in a signal handler */
static atomic_int in_call;	/* the waiter is inside the blocking call */
static atomic_int caught;	/* signals caught while it was */
static atomic_int returned;	/* the blocking call has returned */

static void on_alarm(int sig)
{
	int saved = errno;

	(void)sig;
	if (atomic_load(&in_call))
		atomic_fetch_add(&caught, 1);
	errno = saved;
}

/* SIGALRM every millisecond, with or without SA_RESTART */
static void ticks(int on, int restart)
{
	struct itimerval it = { { 0, 1000 }, { 0, 1000 } };
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on ? on_alarm : SIG_IGN;
	sa.sa_flags = restart ? SA_RESTART : 0;
	sigaction(SIGALRM, &sa, NULL);
	if (!on)
		memset(&it, 0, sizeof(it));
	setitimer(ITIMER_REAL, &it, NULL);
}

/* The membership whose event the fake holds back */
struct holder {
	pthread_t thread;
	uint32_t ctx_id;
	uint32_t handle;
	int32_t status;
	int released;		/* its event was queued */
};

static void *hold_then_release(void *arg)
{
	struct holder *h = arg;
	struct timespec ms = { 0, 1000000 };
	int64_t end = now_ms() + HANG_MS;

	/* a call that returned early will not see its event: stop */
	while (!atomic_load(&returned) && now_ms() < end) {
		if (atomic_load(&caught) >= SIGNALS_IN_CALL &&
		    !fake_complete(h->ctx_id, h->handle, h->status)) {
			h->released = 1;
			break;
		}
		nanosleep(&ms, NULL);
	}
	return NULL;
}

/* The helper thread, with SIGALRM blocked so that the waiter gets it */
static void start_holder(struct holder *h)
{
	sigset_t set, old;

	atomic_store(&in_call, 0);
	atomic_store(&caught, 0);
	atomic_store(&returned, 0);
	sigemptyset(&set);
	sigaddset(&set, SIGALRM);
	pthread_sigmask(SIG_BLOCK, &set, &old);
	if (pthread_create(&h->thread, NULL, hold_then_release, h))
		abort();
	pthread_sigmask(SIG_SETMASK, &old, NULL);
}

enum wait_kind { JOIN_SYNC, GET_EVENT, WAIT_EVENT };

/*
 * One blocking call of @kind under SIGALRM, @restart with SA_RESTART or
 * not; its event is released only after SIGNALS_IN_CALL signals caught
 * inside the call.
 */
static void wait_through_signals(enum wait_kind kind, int restart)
{
	struct sockaddr_storage g = addr("239.9.1.1");
	struct holder h = { .handle = 1 };
	struct rdma_mcm_channel *ch;
	struct rdma_mcm_event ev;
	int ret, n;

	/* wait_event waits whatever the channel's mode: make it O_NONBLOCK */
	ch = setup(kind == WAIT_EVENT ? O_NONBLOCK : 0, &h.ctx_id);
	if (kind != JOIN_SYNC) {
		h.handle = join(ch, h.ctx_id, "239.9.1.2", 4);
		h.status = -ENETRESET;
	}
	/* else: the fake's first handle is 1, joined by join_sync itself */
	start_holder(&h);
	ticks(1, restart);
	memset(&ev, 0, sizeof(ev));
	errno = 0;
	atomic_store(&in_call, 1);
	switch (kind) {
	case JOIN_SYNC:
		ret = rdma_mcm_join_sync(ch, h.ctx_id, SA(g), 0, 9, HANG_MS, &ev);
		break;
	case GET_EVENT:
		ret = rdma_mcm_get_event(ch, &ev);
		break;
	default:
		ret = rdma_mcm_wait_event(ch, &ev, HANG_MS);
		break;
	}
	atomic_store(&in_call, 0);
	n = atomic_load(&caught);
	atomic_store(&returned, 1);
	ticks(0, 0);
	pthread_join(h.thread, NULL);
	CHECK(ret == 0);
	/* the event was held back until the signals hit the call */
	CHECK(h.released);
	CHECK(n >= SIGNALS_IN_CALL);
	CHECK(ev.handle == h.handle);
	if (kind == JOIN_SYNC) {
		CHECK(ev.event == RDMA_MCM_EVENT_JOINED && ev.cookie == 9);
		CHECK(fake.nr_members == 1);
	} else {
		CHECK(ev.event == RDMA_MCM_EVENT_ERROR && ev.cookie == 4);
		CHECK(ev.status == -ENETRESET);
	}
	rdma_mcm_close_channel(ch);
}

static void test_join_sync_sa_restart(void)
{
	wait_through_signals(JOIN_SYNC, 1);
}

static void test_join_sync_no_restart(void)
{
	wait_through_signals(JOIN_SYNC, 0);
}

static void test_get_event_sa_restart(void)
{
	wait_through_signals(GET_EVENT, 1);
}

static void test_get_event_no_restart(void)
{
	wait_through_signals(GET_EVENT, 0);
}

static void test_wait_event_sa_restart(void)
{
	wait_through_signals(WAIT_EVENT, 1);
}

static void test_wait_event_no_restart(void)
{
	wait_through_signals(WAIT_EVENT, 0);
}

static void test_timeouts_with_signals(void)
{
	struct sockaddr_storage g = addr("239.9.1.3");
	struct rdma_mcm_channel *ch;
	struct rdma_mcm_event ev;
	uint32_t ctx;

	ch = setup(0, &ctx);
	ticks(1, 0);
	/* nothing comes: the deadline, not a signal, ends the wait */
	CHECK_ERRNO(rdma_mcm_wait_event(ch, &ev, 50), ETIMEDOUT);
	CHECK_ERRNO(rdma_mcm_join_sync(ch, ctx, SA(g), 0, 1, 50, &ev),
		    ETIMEDOUT);
	ticks(0, 0);
	CHECK(fake.nr_members == 0);
	rdma_mcm_close_channel(ch);
}

struct later {
	pthread_t thread;
	uint32_t ctx_id;
	uint32_t handle;
};

static void *complete_later(void *arg)
{
	struct later *l = arg;
	struct timespec ms50 = { 0, 50000000 };

	nanosleep(&ms50, NULL);
	fake_complete(l->ctx_id, l->handle, 0);
	return NULL;
}

/*
 * A wait for an event still to come polls first and reads once (the
 * kernel's queue was empty at the last read): no read() that can only
 * say EAGAIN. Had the event come before the wait, poll() returns at
 * once, and it is one read all the same.
 */
static void test_wait_reads_once(void)
{
	struct rdma_mcm_channel *ch;
	struct rdma_mcm_event ev;
	struct later l;
	unsigned int reads;

	ch = setup(0, &l.ctx_id);
	l.handle = join(ch, l.ctx_id, "239.9.1.4", 5);
	reads = fake.nr_reads;
	if (pthread_create(&l.thread, NULL, complete_later, &l))
		abort();
	CHECK(rdma_mcm_wait_event(ch, &ev, HANG_MS) == 0);
	pthread_join(l.thread, NULL);
	CHECK(ev.event == RDMA_MCM_EVENT_JOINED && ev.handle == l.handle);
	CHECK(fake.nr_reads - reads == 1);
	rdma_mcm_close_channel(ch);
}

/*
 * 20 events queued: one read takes a full batch (16), the next the last
 * 4: two reads for 20 waits, every event once. (Whether the library
 * polls before the second read is not seen here: poll() is not the
 * fake's; it would return at once.)
 */
static void test_wait_batches(void)
{
	struct rdma_mcm_channel *ch;
	struct rdma_mcm_event ev;
	char group[32];
	unsigned int reads;
	uint32_t ctx;
	int i, got = 0;

	ch = setup(0, &ctx);
	for (i = 0; i < 20; i++) {
		snprintf(group, sizeof(group), "239.9.2.%d", i + 1);
		join(ch, ctx, group, i);
	}
	CHECK(fake_complete_all() == 20);
	reads = fake.nr_reads;
	for (i = 0; i < 20; i++)
		got += rdma_mcm_wait_event(ch, &ev, HANG_MS) == 0 &&
		       ev.event == RDMA_MCM_EVENT_JOINED;
	CHECK(got == 20);
	CHECK(fake.nr_reads - reads == 2);
	rdma_mcm_close_channel(ch);
}

void wait_tests(void)
{
	h_run("join_sync waits through signals in the call (SA_RESTART)",
	      test_join_sync_sa_restart);
	h_run("join_sync waits through signals in the call (no SA_RESTART)",
	      test_join_sync_no_restart);
	h_run("blocking get_event waits through signals in the call (SA_RESTART)",
	      test_get_event_sa_restart);
	h_run("blocking get_event waits through signals in the call (no SA_RESTART)",
	      test_get_event_no_restart);
	h_run("wait_event waits through signals in the call (SA_RESTART)",
	      test_wait_event_sa_restart);
	h_run("wait_event waits through signals in the call (no SA_RESTART)",
	      test_wait_event_no_restart);
	h_run("wait_event and join_sync time out, not EINTR, under signals",
	      test_timeouts_with_signals);
	h_run("a wait for an event still to come reads once",
	      test_wait_reads_once);
	h_run("20 queued events come in two reads, each once",
	      test_wait_batches);
}
