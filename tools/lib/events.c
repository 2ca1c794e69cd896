// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * librdmamcm: getting events, with or without a timeout, waiting for the
 * event of one membership while keeping the others queued, and the event
 * types the application handles.
 *
 * Several threads may wait on one channel. One of them at a time waits in
 * poll(2) on the device and on the channel's wake eventfd, without the
 * channel's lock; the others wait on the channel's condition variable.
 * Whoever moves events into the library's queue (or gives back a
 * membership's events) broadcasts the condition and writes the eventfd,
 * so that no waiter sleeps on an event the library already holds. A
 * signal does not end a wait: poll() is restarted against the same
 * deadline, as librdmacm's rdma_get_cm_event() is.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "rdma_mcm_priv.h"

/* The membership a waiter wants the event of; ctx_id 0: any event */
struct want {
	uint32_t ctx_id;
	uint32_t handle;
};

static int64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Milliseconds left until @deadline (-1: none), for poll(2) */
static int remaining(int64_t deadline)
{
	int64_t left;

	if (deadline < 0)
		return -1;
	left = deadline - now_ms();
	if (left <= 0)
		return 0;
	return left > 0x7fffffff ? 0x7fffffff : (int)left;
}

static int take(struct rdma_mcm_channel *ch, const struct want *w,
		struct mcm_wire_event *ev)
{
	struct mcm_member *m;

	if (!w->ctx_id)
		return mcm_queue_pop(&ch->queue, ch->app_events, ev);
	m = mcm_table_find(&ch->members, w->ctx_id, w->handle);
	if (!m)
		return -ECANCELED;	/* another thread left it */
	return mcm_queue_take(&ch->queue, m, ev);
}

/* Wait in poll() without the lock; 0 (look again) or -errno. */
static int wait_poll(struct rdma_mcm_channel *ch, int timeout_ms)
{
	struct pollfd pfd[2] = {
		{ .fd = ch->fd, .events = POLLIN },
		{ .fd = ch->wake_fd, .events = POLLIN },
	};
	uint64_t v;
	int n, err;

	ch->poller = 1;
	pthread_mutex_unlock(&ch->lock);
	n = poll(pfd, 2, timeout_ms);
	err = errno;
	pthread_mutex_lock(&ch->lock);
	ch->poller = 0;
	/* another thread may now take its turn in poll() */
	pthread_cond_broadcast(&ch->cond);
	if (n < 0)
		return err == EINTR ? 0 : -err;
	if (pfd[1].revents & POLLIN && read(ch->wake_fd, &v, sizeof(v)) < 0)
		v = 0;	/* drained by a poll before: nothing to do */
	if (pfd[0].revents & (POLLERR | POLLNVAL))
		return -EIO;
	return 0;
}

/* Wait on the condition until it is signalled or @deadline (-1: none). */
static void wait_cond(struct rdma_mcm_channel *ch, int64_t deadline)
{
	struct timespec ts;

	if (deadline < 0) {
		pthread_cond_wait(&ch->cond, &ch->lock);
		return;
	}
	ts.tv_sec = (time_t)(deadline / 1000);
	ts.tv_nsec = (long)(deadline % 1000) * 1000000;
	pthread_cond_timedwait(&ch->cond, &ch->lock, &ts);
}

/*
 * The next event (of @w's membership, or any), with ch->lock held: from
 * the channel's queue first, then from the kernel, waiting up to
 * @timeout_ms (-1: forever). Events of other memberships read meanwhile
 * stay queued. Returns 0, -ETIMEDOUT, or -errno.
 */
static int next_event(struct rdma_mcm_channel *ch, const struct want *w,
		      int timeout_ms, struct mcm_wire_event *ev)
{
	int64_t deadline = timeout_ms < 0 ? -1 : now_ms() + timeout_ms;
	int ret, left;

	for (;;) {
		ret = take(ch, w, ev);
		if (ret)
			return ret < 0 ? ret : 0;
		left = remaining(deadline);
		/* an empty queue before: wait (poll) first, then read */
		if (!ch->drained || !left) {
			ret = mcm_fill(ch);
			if (ret > 0)
				continue;
			if (ret != -EAGAIN)
				return ret;
			if (!left)
				return -ETIMEDOUT;
		}
		if (ch->poller) {
			wait_cond(ch, deadline);
			continue;
		}
		ret = wait_poll(ch, left);
		ch->drained = 0;	/* something came, or time to look */
		if (ret)
			return ret;
	}
}

/* The application's copy: the size LIBRDMAMCM_1.0 defines, no more. */
static void copy_event(struct rdma_mcm_event *dst,
		       const struct mcm_wire_event *src)
{
	memcpy(dst, &src->s, MCM_API_EVENT_SIZE);
}

static int get_event(struct rdma_mcm_channel *ch, struct rdma_mcm_event *ev,
		     int timeout_ms)
{
	const struct want any = { 0 };
	struct mcm_wire_event w;
	int ret;

	pthread_mutex_lock(&ch->lock);
	ret = next_event(ch, &any, timeout_ms, &w);
	pthread_mutex_unlock(&ch->lock);
	if (!ret)
		copy_event(ev, &w);
	return ret;
}

MCM_EXPORT int rdma_mcm_get_event(struct rdma_mcm_channel *ch,
				  struct rdma_mcm_event *ev)
{
	int ret;

	if (!ch || !ev)
		return mcm_result(-EINVAL);
	ret = get_event(ch, ev, ch->flags & O_NONBLOCK ? 0 : -1);
	return mcm_result(ret == -ETIMEDOUT ? -EAGAIN : ret);
}

MCM_EXPORT int rdma_mcm_wait_event(struct rdma_mcm_channel *ch,
				   struct rdma_mcm_event *ev, int timeout_ms)
{
	if (!ch || !ev)
		return mcm_result(-EINVAL);
	return mcm_result(get_event(ch, ev, timeout_ms));
}

/* Leave a membership that join_sync gave up on; returns -@err. */
static int give_up(struct rdma_mcm_channel *ch, const struct want *w,
		   int err)
{
	mcm_leave_locked(ch, w->ctx_id, w->handle, NULL, NULL);
	return -err;
}

/* Wait for @w's event; the other waiters do not take it meanwhile. */
static int wait_claimed(struct rdma_mcm_channel *ch, const struct want *w,
			int timeout_ms, struct mcm_wire_event *ev)
{
	struct mcm_member *m;
	int ret;

	m = mcm_table_find(&ch->members, w->ctx_id, w->handle);
	m->claimed = 1;
	ret = next_event(ch, w, timeout_ms, ev);
	m = mcm_table_find(&ch->members, w->ctx_id, w->handle);
	if (m) {
		m->claimed = 0;
		if (m->q.count)		/* its later events are anyone's */
			mcm_kick(ch);
	}
	return ret;
}

/* Milliseconds left until @deadline (-1: none), as a timeout argument */
static int left_ms(int64_t deadline)
{
	return deadline < 0 ? -1 : remaining(deadline);
}

/*
 * The join's result. In a healing context a join that met a transient
 * error is WAITING (REJOINING) and joined again (REJOINED): wait on for
 * that, within the same timeout; REJOINED is returned as the JOINED it
 * stands for, with the same fields.
 */
static int join_sync(struct rdma_mcm_channel *ch, uint32_t ctx_id,
		     const struct sockaddr *group,
		     const struct mcm_sources *srcs, int join_flags,
		     uint64_t cookie, int timeout_ms,
		     struct rdma_mcm_event *joined)
{
	int64_t deadline = timeout_ms < 0 ? -1 : now_ms() + timeout_ms;
	struct want w = { .ctx_id = ctx_id };
	struct mcm_wire_event ev;
	int ret;

	ret = mcm_join_locked(ch, ctx_id, group, srcs, join_flags, cookie,
			      &w.handle);
	if (ret)
		return ret;
	do {
		ret = wait_claimed(ch, &w, left_ms(deadline), &ev);
		if (ret)
			return give_up(ch, &w, -ret);
	} while (ev.s.event == RDMA_MCM_EVENT_REJOINING);
	if (ev.s.event == RDMA_MCM_EVENT_REJOINED)
		ev.s.event = RDMA_MCM_EVENT_JOINED;
	if (joined)
		copy_event(joined, &ev);
	if (ev.s.event == RDMA_MCM_EVENT_JOINED)
		return 0;
	if (ev.s.event == RDMA_MCM_EVENT_ERROR)
		return give_up(ch, &w, mcm_status_errno(ev.s.status));
	return give_up(ch, &w, EPROTO);
}

MCM_EXPORT int rdma_mcm_join_sync(struct rdma_mcm_channel *ch,
				  uint32_t ctx_id,
				  const struct sockaddr *group, int join_flags,
				  uint64_t cookie, int timeout_ms,
				  struct rdma_mcm_event *joined)
{
	int ret;

	if (!ch)
		return mcm_result(-EINVAL);
	pthread_mutex_lock(&ch->lock);
	ret = join_sync(ch, ctx_id, group, NULL, join_flags, cookie,
			timeout_ms, joined);
	pthread_mutex_unlock(&ch->lock);
	return mcm_result(ret);
}

/* LIBRDMAMCM_1.5: join_sync with sources (source.c checks them) */
MCM_EXPORT int rdma_mcm_join_source_sync(struct rdma_mcm_channel *ch,
					 uint32_t ctx_id,
					 const struct sockaddr *group,
					 const struct sockaddr *const *sources,
					 unsigned int nr_sources,
					 int join_flags, uint64_t cookie,
					 int timeout_ms,
					 struct rdma_mcm_event *joined)
{
	struct mcm_sources srcs;
	int ret;

	if (!ch)
		return mcm_result(-EINVAL);
	ret = mcm_sources_make(sources, nr_sources, join_flags, &srcs);
	if (ret)
		return mcm_result(ret);
	pthread_mutex_lock(&ch->lock);
	ret = join_sync(ch, ctx_id, group, &srcs, join_flags, cookie,
			timeout_ms, joined);
	pthread_mutex_unlock(&ch->lock);
	mcm_sources_free(&srcs);
	return mcm_result(ret);
}

MCM_EXPORT int rdma_mcm_set_event_mask(struct rdma_mcm_channel *ch,
				       uint64_t mask, uint64_t *delivered)
{
	uint64_t d;

	if (!ch || (mask & RDMA_MCM_EVENTS_DEFAULT) != RDMA_MCM_EVENTS_DEFAULT)
		return mcm_result(-EINVAL);
	pthread_mutex_lock(&ch->lock);
	ch->app_events = mask & MCM_EVENTS_KNOWN;
	d = ch->app_events & ch->kernel_events;
	pthread_mutex_unlock(&ch->lock);
	if (delivered)
		*delivered = d;
	return 0;
}
