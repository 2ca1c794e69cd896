// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * librdmamcm: getting events, with or without a timeout, and waiting for
 * the event of one membership while keeping the others queued.
 */
#include <errno.h>
#include <fcntl.h>
#include <time.h>

#include "rdma_mcm_priv.h"

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
		struct rdma_mcm_event *ev)
{
	if (!w)
		return mcm_queue_pop(&ch->queue, ev);
	return mcm_queue_take(&ch->queue, w->ctx_id, w->handle, ev);
}

/*
 * The next event (of @w's membership, or any when @w is NULL): from the
 * channel's queue first, then from the kernel, waiting up to @timeout_ms
 * (-1: forever). Events of other memberships read meanwhile stay queued.
 * Returns 0, -ETIMEDOUT, or -errno.
 */
static int next_event(struct rdma_mcm_channel *ch, const struct want *w,
		      int timeout_ms, struct rdma_mcm_event *ev)
{
	int64_t deadline = timeout_ms < 0 ? -1 : now_ms() + timeout_ms;
	int ret, left;

	for (;;) {
		if (take(ch, w, ev))
			return 0;
		ret = mcm_fill(ch);
		if (ret > 0)
			continue;
		if (ret != -EAGAIN)
			return ret;
		left = remaining(deadline);
		if (!left)
			return -ETIMEDOUT;
		ret = mcm_poll(ch, left);
		if (ret < 0)
			return ret;
	}
}

MCM_EXPORT int rdma_mcm_get_event(struct rdma_mcm_channel *ch,
				  struct rdma_mcm_event *ev)
{
	int nonblock, ret;

	if (!ch || !ev) {
		errno = EINVAL;
		return -1;
	}
	nonblock = ch->flags & O_NONBLOCK;
	ret = next_event(ch, NULL, nonblock ? 0 : -1, ev);
	if (ret == -ETIMEDOUT)
		ret = -EAGAIN;
	if (ret) {
		errno = -ret;
		return -1;
	}
	return 0;
}

MCM_EXPORT int rdma_mcm_wait_event(struct rdma_mcm_channel *ch,
				   struct rdma_mcm_event *ev, int timeout_ms)
{
	int ret;

	if (!ch || !ev) {
		errno = EINVAL;
		return -1;
	}
	ret = next_event(ch, NULL, timeout_ms, ev);
	if (ret) {
		errno = -ret;
		return -1;
	}
	return 0;
}

/* Leave a membership that join_sync gave up on; its errno is kept. */
static void give_up(struct rdma_mcm_channel *ch, uint32_t ctx_id,
		    uint32_t handle, int err)
{
	rdma_mcm_leave(ch, ctx_id, handle);
	errno = err;
}

MCM_EXPORT int rdma_mcm_join_sync(struct rdma_mcm_channel *ch,
				  uint32_t ctx_id,
				  const struct sockaddr *group, int join_flags,
				  uint64_t cookie, int timeout_ms,
				  struct rdma_mcm_event *joined)
{
	struct rdma_mcm_event ev;
	struct want w = { .ctx_id = ctx_id };
	int ret;

	if (rdma_mcm_join(ch, ctx_id, group, join_flags, cookie, &w.handle))
		return -1;
	ret = next_event(ch, &w, timeout_ms, &ev);
	if (ret) {
		give_up(ch, ctx_id, w.handle, -ret);
		return -1;
	}
	if (joined)
		*joined = ev;
	if (ev.event == RDMA_MCM_EVENT_JOINED)
		return 0;
	if (ev.event == RDMA_MCM_EVENT_ERROR)
		give_up(ch, ctx_id, w.handle, mcm_status_errno(ev.status));
	else
		give_up(ch, ctx_id, w.handle, EPROTO);
	return -1;
}
