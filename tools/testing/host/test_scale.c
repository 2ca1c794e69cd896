// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The cost of leave, list and batch leave against the library's backlog:
 * N memberships whose N JOINED events the library holds (read while a
 * join_sync waited for another one), then list them all, leave half one
 * at a time and half in batches. The checks count the queue records the
 * library looks at (they must not grow with the backlog); the times are
 * printed as information only, never compared.
 *
 * A minimal in-process kernel (not fake_dev, whose tables are small and
 * linear) answers the ioctls: every join completes at once.
 *
 *   test_scale [N...]     default: 4096 65536
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <time.h>
#include <unistd.h>

#include "harness.h"
#include "rdma_mcm_priv.h"

/* --- a minimal kernel --------------------------------------------------- */

static struct {
	int fd;
	uint32_t next_handle;
	uint32_t *reported;	/* per handle: events read */
	uint8_t *live;		/* per handle: joined and not left */
	struct rdma_mcm_event *q;
	size_t qhead, qlen, cap;
} k;

static int k_open(void *priv)
{
	(void)priv;
	k.fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	return k.fd;
}

static void k_close(void *priv, int fd)
{
	(void)priv;
	close(fd);
}

static int k_join(struct rdma_mcm_join *j)
{
	struct rdma_mcm_event *ev;
	uint32_t h = ++k.next_handle;

	if (h >= k.cap)
		return -ENOBUFS;
	k.live[h] = 1;
	j->handle = h;
	ev = &k.q[(k.qhead + k.qlen++) % k.cap];
	memset(ev, 0, sizeof(*ev));
	ev->event = RDMA_MCM_EVENT_JOINED;
	ev->cookie = j->cookie;
	ev->ctx_id = j->ctx_id;
	ev->handle = h;
	return 0;
}

static int k_leave(uint32_t handle, uint32_t *reported)
{
	if (handle >= k.cap || !k.live[handle])
		return -EADDRNOTAVAIL;
	k.live[handle] = 0;
	*reported = k.reported[handle];
	return 0;
}

static int k_list(struct rdma_mcm_list *l)
{
	struct rdma_mcm_member *out = (void *)(uintptr_t)l->entries;
	uint32_t h = l->start ? l->start : 1, n = 0;

	for (; h <= k.next_handle && n < l->count; h++) {
		if (!k.live[h])
			continue;
		memset(&out[n], 0, sizeof(out[n]));
		out[n].handle = h;
		out[n].state = RDMA_MCM_STATE_JOINED;
		out[n].events_reported = k.reported[h];
		n++;
	}
	while (h <= k.next_handle && !k.live[h])
		h++;
	l->next = h <= k.next_handle ? h : 0;
	l->count = n;
	return 0;
}

static int k_batch_leave(struct rdma_mcm_batch *b)
{
	struct rdma_mcm_leave_entry *e = (void *)(uintptr_t)b->entries;
	uint32_t i;

	for (i = 0; i < b->count; i++)
		e[i].result = k_leave(e[i].handle, &e[i].events_reported);
	b->done = b->count;
	return 0;
}

static int k_dispatch(unsigned long req, void *arg)
{
	switch (_IOC_NR(req)) {
	case _IOC_NR(RDMA_MCM_IOC_VERSION):
		((struct rdma_mcm_version *)arg)->abi_version = 1;
		return 0;
	case _IOC_NR(RDMA_MCM_IOC_CREATE_CTX):
		((struct rdma_mcm_create_ctx *)arg)->ctx_id = 1;
		return 0;
	case _IOC_NR(RDMA_MCM_IOC_JOIN):
		return k_join(arg);
	case _IOC_NR(RDMA_MCM_IOC_LEAVE):
		return k_leave(((struct rdma_mcm_leave *)arg)->handle,
			       &((struct rdma_mcm_leave *)arg)->events_reported);
	case _IOC_NR(RDMA_MCM_IOC_LIST):
		return k_list(arg);
	case _IOC_NR(RDMA_MCM_IOC_BATCH_LEAVE):
		return k_batch_leave(arg);
	default:
		return -ENOTTY;	/* SET_EVENTS too: an older kernel */
	}
}

static int k_ioctl(void *priv, int fd, unsigned long req, void *arg)
{
	int ret;

	(void)priv;
	(void)fd;
	ret = k_dispatch(req, arg);
	if (ret) {
		errno = -ret;
		return -1;
	}
	return 0;
}

static ssize_t k_read(void *priv, int fd, void *buf, size_t len)
{
	struct rdma_mcm_event *out = buf;
	size_t n = len / sizeof(*out), i;

	(void)priv;
	(void)fd;
	if (!k.qlen) {
		errno = EAGAIN;
		return -1;
	}
	if (n > k.qlen)
		n = k.qlen;
	for (i = 0; i < n; i++) {
		out[i] = k.q[k.qhead];
		k.reported[out[i].handle]++;
		k.qhead = (k.qhead + 1) % k.cap;
		k.qlen--;
	}
	return (ssize_t)(n * sizeof(*out));
}

static const struct rdma_mcm_io k_io = {
	.open = k_open, .ioctl = k_ioctl, .read = k_read, .close = k_close,
};

/* --- the measurement ----------------------------------------------------- */

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void group_of(uint32_t i, struct sockaddr_in *sin)
{
	memset(sin, 0, sizeof(*sin));
	sin->sin_family = AF_INET;
	sin->sin_addr.s_addr = htonl(0xef000000u | i);	/* 239.x.y.z */
}

struct phase {
	double seconds;
	unsigned long visits;
};

struct scale {
	uint32_t n;
	struct phase list, leave, batch;
	int ok;
};

/* A phase's time and queue visits, from its start (t0, v0) to now. */
static void phase_end(struct rdma_mcm_channel *ch, struct phase *p, double t0,
		      unsigned long v0)
{
	p->seconds = now_s() - t0;
	p->visits = ch->queue.visits - v0;
}

static void run(struct scale *s)
{
	struct rdma_mcm_member page[1024];
	struct rdma_mcm_leave_entry *le;
	struct rdma_mcm_channel *ch;
	struct sockaddr_in sin;
	uint32_t ctx, i, h, next, start = 0, half = s->n / 2, listed = 0;
	unsigned long v0;
	double t0;
	int n;

	memset(&k, 0, sizeof(k));
	k.cap = s->n + 2;
	k.reported = calloc(k.cap, sizeof(*k.reported));
	k.live = calloc(k.cap, 1);
	k.q = calloc(k.cap, sizeof(*k.q));
	le = calloc(half ? half : 1, sizeof(*le));
	if (!k.reported || !k.live || !k.q || !le)
		abort();
	rdma_mcm_io = &k_io;
	ch = rdma_mcm_open_channel(O_NONBLOCK);
	group_of(0, &sin);
	s->ok = ch && !rdma_mcm_create_ctx(ch, (struct sockaddr *)&sin, &ctx);
	for (i = 1; s->ok && i <= s->n; i++) {
		group_of(i, &sin);
		s->ok = !rdma_mcm_join(ch, ctx, (struct sockaddr *)&sin, 0, i,
				       &h);
	}
	/* the library reads all N events while it waits for this one */
	group_of(s->n + 1, &sin);
	s->ok = s->ok && !rdma_mcm_join_sync(ch, ctx, (struct sockaddr *)&sin,
					     0, 0, 0, NULL);
	s->ok = s->ok && ch->queue.live == s->n;

	t0 = now_s();
	v0 = ch->queue.visits;
	do {
		n = rdma_mcm_list(ch, ctx, start, page, 1024, &next);
		for (i = 0; n > 0 && i < (uint32_t)n; i++)
			s->ok &= page[i].events_reported == 0 ||
				 page[i].handle == s->n + 1;
		listed += n > 0 ? (uint32_t)n : 0;
		start = next;
	} while (n > 0 && next);
	phase_end(ch, &s->list, t0, v0);
	s->ok &= listed == s->n + 1;

	t0 = now_s();
	v0 = ch->queue.visits;
	for (i = 1; i <= half; i++) {
		uint32_t rep = 99;

		s->ok &= !rdma_mcm_leave_ex(ch, ctx, i, NULL, &rep) && !rep;
	}
	phase_end(ch, &s->leave, t0, v0);

	for (i = 0; i < half; i++)
		le[i].handle = half + 1 + i;
	t0 = now_s();
	v0 = ch->queue.visits;
	s->ok &= rdma_mcm_leave_batch(ch, ctx, le, half) == (int)half;
	phase_end(ch, &s->batch, t0, v0);
	for (i = 0; i < half; i++)
		s->ok &= !le[i].result && !le[i].events_reported;
	/* the events of the memberships left are gone, the others kept */
	s->ok &= ch->queue.live == s->n - 2 * half;
	rdma_mcm_close_channel(ch);
	rdma_mcm_io = &rdma_mcm_dev_io;
	free(le);
	free(k.reported);
	free(k.live);
	free(k.q);
}

static void report(const char *what, const struct phase *p, uint32_t ops)
{
	printf("#   %-11s %8.3f s  %6.2f us/op  %5.2f records/op\n", what,
	       p->seconds, p->seconds * 1e6 / ops, (double)p->visits / ops);
}

static struct scale runs[8];
static int nruns;

static void test_scale(void)
{
	int i;

	for (i = 0; i < nruns; i++) {
		struct scale *r = &runs[i];

		run(r);
		printf("# N = %u memberships, N events held by the library\n",
		       r->n);
		report("list", &r->list, r->n + 1);
		report("leave", &r->leave, r->n / 2);
		report("batch leave", &r->batch, r->n / 2);
		/* at most the records of the memberships left */
		CHECK(r->ok);
		CHECK(r->list.visits == 0);
		CHECK(r->leave.visits <= 3ul * (r->n / 2));
		CHECK(r->batch.visits <= 3ul * (r->n / 2));
	}
}

int main(int argc, char **argv)
{
	int i;

	setvbuf(stdout, NULL, _IOLBF, 0);
	nruns = argc > 1 ? argc - 1 : 2;
	if (nruns > 8)
		nruns = 8;
	for (i = 0; i < nruns; i++)
		runs[i].n = argc > 1 ? (uint32_t)strtoul(argv[i + 1], NULL, 0) :
			    (i ? 65536 : 4096);
	h_run("leave, list and batch leave cost does not grow with the backlog",
	      test_scale);
	if (nruns == 2)
		printf("# per op, N=%u vs N=%u: list %.2fx leave %.2fx batch %.2fx (info)\n",
		       runs[1].n, runs[0].n,
		       (runs[1].list.seconds / runs[1].n) /
		       (runs[0].list.seconds / runs[0].n),
		       (runs[1].leave.seconds / runs[1].n) /
		       (runs[0].leave.seconds / runs[0].n),
		       (runs[1].batch.seconds / runs[1].n) /
		       (runs[0].batch.seconds / runs[0].n));
	return h_finish();
}
