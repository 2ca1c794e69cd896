// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Unit tests of waiting: a caught signal (SA_RESTART or not) does not end
 * a blocking wait early. A timer sends SIGALRM every millisecond to the
 * test's thread; a helper thread (SIGALRM blocked) completes the join once
 * the waiter has caught a number of signals. No assertion on time: the
 * deadlines only bound a broken run.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>

#include "fake_dev.h"
#include "harness.h"
#include "rdma_mcm_priv.h"
#include "tutil.h"

#define SIGNALS_BEFORE	20

/* lock-free, so also safe in a signal handler */
static atomic_int caught;

static void on_alarm(int sig)
{
	int saved = errno;

	(void)sig;
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
	atomic_store(&caught, 0);
	setitimer(ITIMER_REAL, &it, NULL);
}

struct completer {
	pthread_t thread;
	uint32_t ctx_id;
	uint32_t handle;
	int32_t status;
};

static void *complete_later(void *arg)
{
	struct completer *c = arg;
	struct timespec ms = { 0, 1000000 };
	int64_t end = now_ms() + 10000;

	while (atomic_load(&caught) < SIGNALS_BEFORE && now_ms() < end)
		nanosleep(&ms, NULL);
	fake_complete(c->ctx_id, c->handle, c->status);
	return NULL;
}

/* The helper thread, with SIGALRM blocked so that the waiter gets it */
static void start_completer(struct completer *c)
{
	sigset_t set, old;

	sigemptyset(&set);
	sigaddset(&set, SIGALRM);
	pthread_sigmask(SIG_BLOCK, &set, &old);
	if (pthread_create(&c->thread, NULL, complete_later, c))
		abort();
	pthread_sigmask(SIG_SETMASK, &old, NULL);
}

static void join_sync_signals(int restart)
{
	struct sockaddr_storage g = addr("239.9.1.1");
	struct completer c = { .handle = 1 };
	struct rdma_mcm_channel *ch;
	struct rdma_mcm_event ev;
	int ret, n;

	ch = setup(0, &c.ctx_id);
	/* the fake's first handle is 1: complete it from the helper */
	ticks(1, restart);
	start_completer(&c);
	errno = 0;
	ret = rdma_mcm_join_sync(ch, c.ctx_id, SA(g), 0, 9, 20000, &ev);
	n = atomic_load(&caught);
	ticks(0, 0);
	pthread_join(c.thread, NULL);
	CHECK(ret == 0);
	/* the helper completed the join only after signals were caught */
	CHECK(n >= SIGNALS_BEFORE);
	CHECK(ev.event == RDMA_MCM_EVENT_JOINED && ev.cookie == 9);
	CHECK(fake.nr_members == 1);
	rdma_mcm_close_channel(ch);
}

static void test_join_sync_sa_restart(void)
{
	join_sync_signals(1);
}

static void test_join_sync_no_restart(void)
{
	join_sync_signals(0);
}

static void test_get_event_signals(void)
{
	struct completer c;
	struct rdma_mcm_channel *ch;
	struct rdma_mcm_event ev;
	int ret;

	ch = setup(0, &c.ctx_id);
	c.handle = join(ch, c.ctx_id, "239.9.1.2", 4);
	c.status = -ENETUNREACH;
	ticks(1, 1);
	start_completer(&c);
	/* a blocking channel: get_event keeps waiting through signals */
	errno = 0;
	ret = rdma_mcm_get_event(ch, &ev);
	ticks(0, 0);
	pthread_join(c.thread, NULL);
	CHECK(ret == 0);
	CHECK(ev.event == RDMA_MCM_EVENT_ERROR && ev.handle == c.handle);
	rdma_mcm_close_channel(ch);
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

void wait_tests(void)
{
	h_run("join_sync waits through signals (SA_RESTART)",
	      test_join_sync_sa_restart);
	h_run("join_sync waits through signals (no SA_RESTART)",
	      test_join_sync_no_restart);
	h_run("blocking get_event waits through signals",
	      test_get_event_signals);
	h_run("wait_event and join_sync time out, not EINTR, under signals",
	      test_timeouts_with_signals);
}
