// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * mcm_stress: what each file asked to read, and what it reads.
 *
 * Every file negotiates at random when it is opened (a quarter never
 * ask; thread 0's private file and every shared file ask for every known
 * type), some with unknown types or a larger size in the mask; a private
 * file renegotiates now and then, and is refused a size below 72 or a
 * non-zero reserved field (EINVAL, nothing changes). SET_EVENTS answers
 * with the known types asked for and the smaller size. Then:
 *   - every read() returns whole records of the negotiated size, of the
 *     types asked for only (JOINED and ERROR for a file that never
 *     asked), and a buffer smaller than one record is EINVAL; an ERROR's
 *     status is one uapi.rst lists;
 *   - no event names a membership that was left, never joined, or whose
 *     context was destroyed (leave and destroy purge unread events);
 *   - DEVICE_REMOVED: handle and cookie 0, status -ENODEV; at most one
 *     per context, for a context of the source whose device the run
 *     removes (--lost-src) and of no other; read after the ERROR events
 *     of all of its memberships (each JOINING or JOINED one gets one,
 *     one already in ERROR had its own before) when the file asked for
 *     ERROR since they were joined; no event of its memberships after it;
 *   - a healing context (a third of them): DEVICE_REMOVED of one of the
 *     lost source only, its memberships REJOINING (not ERROR) with a
 *     status uapi.rst lists for waiting, REJOINED, DEVICE_ADDED; no
 *     REJOINING, REJOINED or DEVICE_ADDED for a context that does not
 *     heal, and no membership of one WAITING;
 *   - a context on which JOIN failed with ENODEV has lost its device, or
 *     is losing it: its DEVICE_REMOVED must come. At the end of the run,
 *     each thread waits for those its private file asked for (a liveness
 *     bound of DR_WAIT seconds, far beyond the milliseconds the kernel
 *     needs).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "mcm_stress.h"

#define DR_WAIT		60	/* seconds */

/* Ask for @a; the file reads what the kernel answers from now on. */
static void set_events(struct thread *t, struct file *f,
		       struct rdma_mcm_set_events *a)
{
	uint64_t want = a->event_mask & EVENTS_KNOWN, old = f->mask;
	uint32_t size = a->event_size < EV_SIZE ? a->event_size : EV_SIZE;
	int ret;

	ret = xioctl(f->fd, RDMA_MCM_IOC_SET_EVENTS, a);
	count(t, C_SET_EVENTS, ret);
	if (ret)
		return;
	if (a->event_mask != want || a->event_size != size)
		violated(t, "SET_EVENTS of mask 0x%llx size %u answered mask 0x%llx size %u",
			 (unsigned long long)want, size,
			 (unsigned long long)a->event_mask, a->event_size);
	/* what the file asked for, as the ABI says */
	f->mask = want;
	f->evsize = size;
	if (WANTS(f, RDMA_MCM_EVENT_ERROR) !=
	    !!(old & RDMA_MCM_EVENT_BIT(RDMA_MCM_EVENT_ERROR)))
		f->err_epoch++;
	if (WANTS(f, RDMA_MCM_EVENT_DEVICE_REMOVED) !=
	    !!(old & RDMA_MCM_EVENT_BIT(RDMA_MCM_EVENT_DEVICE_REMOVED)))
		f->dr_epoch++;
}

/*
 * What a file reads: at random (a quarter never ask), or every known
 * type (@all), in a size from 72 up, now and then with unknown types.
 */
void negotiate(struct thread *t, struct file *f, bool all)
{
	static const uint32_t sizes[] = {
		EV_SIZE, EV_SIZE, EV_SIZE, EV_SIZE + 4, EV_SIZE + 8, 128,
		4096, 65536,
	};
	struct rdma_mcm_set_events a = { 0 };
	int type;

	if (!all && !pick(t, 4))
		return;
	for (type = RDMA_MCM_EVENT_JOINED;
	     type <= RDMA_MCM_EVENT_DEVICE_ADDED; type++)
		if (all || pick(t, 4))
			a.event_mask |= RDMA_MCM_EVENT_BIT(type);
	if (!pick(t, 4))	/* and a type the kernel does not know */
		a.event_mask |= 1ULL << (pick(t, 2) ? 0 : 7 + pick(t, 57));
	a.event_size = sizes[pick(t, sizeof(sizes) / sizeof(sizes[0]))];
	set_events(t, f, &a);
}

/* A private file asks again: or asks wrongly, and nothing changes. */
void op_set_events(struct thread *t, struct file *f)
{
	struct rdma_mcm_set_events a = {
		.event_mask = f->mask, .event_size = f->evsize,
	};
	int ret;

	if (pick(t, 4)) {
		negotiate(t, f, t->all_events);
		return;
	}
	if (pick(t, 2))
		a.event_size = pick(t, RDMA_MCM_EVENT_SIZE_VER0);
	else
		a.reserved = 1U << pick(t, 32);
	ret = xioctl(f->fd, RDMA_MCM_IOC_SET_EVENTS, &a);
	if (ret != EINVAL)
		violated(t, "SET_EVENTS of size %u reserved 0x%x: %s, not EINVAL",
			 a.event_size, a.reserved,
			 ret ? strerrorname_np(ret) : "worked");
	t->st.err[C_SET_EVENTS][EINVAL] += ret == EINVAL;
}

/* DEVICE_REMOVED of context @id, read from a private file. */
static void device_removed(struct thread *t, struct file *f, uint32_t id)
{
	struct ctxinfo *c = ctx_find(f, id);
	int i;

	if (!c) {
		violated(t, "DEVICE_REMOVED of context %u, which the file does not hold",
			 id);
		return;
	}
	if (lost_src < 0 || c->src != (unsigned int)lost_src)
		violated(t, "DEVICE_REMOVED of context %u on source %u",
			 id, c->src);
	c->dr_seen = true;
	/*
	 * A healing context's: once per loss, its memberships wait (no
	 * ERROR). Losses and finds whose events were not read yet merge
	 * (the latest of each type read last): no order to check here.
	 */
	if (c->heal)
		return;
	if (c->removed)
		violated(t, "a second DEVICE_REMOVED of context %u", id);
	for (i = 0; WANTS(f, RDMA_MCM_EVENT_ERROR) && i < f->nlive; i++)
		if (f->live[i].ctx == id && !f->live[i].err_seen &&
		    f->live[i].err_epoch == f->err_epoch)
			violated(t, "DEVICE_REMOVED of context %u before ERROR of handle %u",
				 id, f->live[i].handle);
	c->removed = true;
}

/* DEVICE_REMOVED of context @id, read from the shared file. */
static void device_removed_shared(struct thread *t, struct file *f,
				  uint32_t id)
{
	struct ctxinfo *c;

	pthread_mutex_lock(&f->lock);
	c = ctx_find(f, id);	/* another thread may have destroyed it */
	if (c && c->heal) {
		c->dr_seen = true;
		pthread_mutex_unlock(&f->lock);
		return;
	}
	if (c && c->removed)
		violated(t, "a second DEVICE_REMOVED of context %u (shared file)",
			 id);
	if (c && (lost_src < 0 || c->src != (unsigned int)lost_src))
		violated(t, "DEVICE_REMOVED of context %u on source %u (shared)",
			 id, c->src);
	if (c)
		c->removed = true;
	pthread_mutex_unlock(&f->lock);
}

/* DEVICE_ADDED of context @id, read from a private file. */
static void device_added(struct thread *t, struct file *f, uint32_t id)
{
	struct ctxinfo *c = ctx_find(f, id);

	if (!c) {
		violated(t, "DEVICE_ADDED of context %u, which the file does not hold",
			 id);
		return;
	}
	if (!c->heal)
		violated(t, "DEVICE_ADDED of context %u, which does not heal",
			 id);
	if (lost_src < 0 || c->src != (unsigned int)lost_src)
		violated(t, "DEVICE_ADDED of context %u on source %u",
			 id, c->src);
}

/* One record read from @f. */
static void check_event(struct thread *t, struct file *f,
			const struct rdma_mcm_event *e)
{
	struct ctxinfo *c;
	struct live *l;

	t->st.records++;
	if (e->event >= 64 || !WANTS(f, e->event) ||
	    !(EVENTS_KNOWN & RDMA_MCM_EVENT_BIT(e->event))) {
		violated(t, "read an event of type %u; the file asked for mask 0x%llx",
			 e->event, (unsigned long long)f->mask);
		return;
	}
	if (!e->ctx_id || e->reserved)
		violated(t, "event %u: ctx_id %u reserved %u", e->event,
			 e->ctx_id, e->reserved);
	switch (e->event) {
	case RDMA_MCM_EVENT_JOINED:
	case RDMA_MCM_EVENT_REJOINED:
		if (e->event == RDMA_MCM_EVENT_JOINED)
			t->st.ev_joined++;
		else
			t->st.ev_rejoined++;
		if (!e->handle || e->status || e->is_global != 1)
			violated(t, "%s: handle %u status %d is_global %u",
				 e->event == RDMA_MCM_EVENT_JOINED ?
				 "JOINED" : "REJOINED",
				 e->handle, e->status, e->is_global);
		break;
	case RDMA_MCM_EVENT_REJOINING:
		t->st.ev_rejoining++;
		if (!e->handle || !status_waiting(e->status))
			violated(t, "REJOINING: handle %u status %d",
				 e->handle, e->status);
		break;
	case RDMA_MCM_EVENT_DEVICE_ADDED:
		t->st.ev_added++;
		if (e->handle || e->cookie || e->status || !e->port_num)
			violated(t, "DEVICE_ADDED: handle %u cookie %llu status %d port %u",
				 e->handle, (unsigned long long)e->cookie,
				 e->status, e->port_num);
		if (f->own)
			device_added(t, f, e->ctx_id);
		return;
	case RDMA_MCM_EVENT_ERROR:
		t->st.ev_error[-e->status > 0 && -e->status < MAX_ERRNO ?
			       -e->status : 0]++;
		if (!e->handle || !status_documented(e->status))
			violated(t, "ERROR: handle %u status %d", e->handle,
				 e->status);
		break;
	default:
		t->st.ev_removed++;
		if (e->handle || e->cookie || e->status != -ENODEV)
			violated(t, "DEVICE_REMOVED: handle %u cookie %llu status %d",
				 e->handle, (unsigned long long)e->cookie,
				 e->status);
		if (f->own)
			device_removed(t, f, e->ctx_id);
		else
			device_removed_shared(t, f, e->ctx_id);
		return;
	}
	if (!f->own)
		return;
	l = live_find(f, e->cookie);
	if (!l) {
		violated(t, "event %u for handle %u (cookie %llu), not held",
			 e->event, e->handle, (unsigned long long)e->cookie);
		return;
	}
	c = ctx_find(f, l->ctx);
	if (c && c->removed)
		violated(t, "event %u for handle %u after its context's DEVICE_REMOVED",
			 e->event, e->handle);
	if (c && !c->heal && (e->event == RDMA_MCM_EVENT_REJOINING ||
			      e->event == RDMA_MCM_EVENT_REJOINED))
		violated(t, "event %u for handle %u of context %u, which does not heal",
			 e->event, e->handle, c->id);

	if (e->event == RDMA_MCM_EVENT_ERROR)
		l->err_seen = true;
}

void op_read(struct thread *t, struct file *f)
{
	uint8_t buf[MAX_READ * EV_SIZE + EV_SIZE];
	struct rdma_mcm_event e;
	size_t len, at;
	ssize_t n;
	int err;

	len = (1 + pick(t, MAX_READ)) * f->evsize;
	if (!pick(t, 4))
		len += pick(t, f->evsize);
	if (!pick(t, 32))
		len = pick(t, f->evsize);	/* not room for one: EINVAL */
	n = read(f->fd, buf, len);
	err = n < 0 ? errno : 0;
	if (len < f->evsize) {
		if (err != EINVAL)
			violated(t, "read of %zu bytes, less than a %u-byte record: %s, not EINVAL",
				 len, f->evsize,
				 err ? strerrorname_np(err) : "worked");
		t->st.err[C_READ][EINVAL] += err == EINVAL;
		return;
	}
	count(t, C_READ, err);
	if (n <= 0)
		return;
	if ((size_t)n > len || n % f->evsize) {
		violated(t, "read of %zu bytes returned %zd: not whole %u-byte records",
			 len, n, f->evsize);
		return;
	}
	for (at = 0; at < (size_t)n; at += f->evsize) {
		memcpy(&e, buf + at, sizeof(e));
		check_event(t, f, &e);
	}
}

/* The contexts whose DEVICE_REMOVED a private file must still read. */
static int notices_due(struct file *f, bool report, struct thread *t)
{
	int i, n = 0;

	if (lost_src < 0 || !WANTS(f, RDMA_MCM_EVENT_DEVICE_REMOVED))
		return 0;
	for (i = 0; i < f->nctx; i++) {
		struct ctxinfo *c = &f->ctx[i];

		if (!c->enodev || c->dr_seen ||
		    c->src != (unsigned int)lost_src ||
		    c->dr_epoch != f->dr_epoch)
			continue;
		n++;
		if (report)
			violated(t, "context %u: JOIN ENODEV, no DEVICE_REMOVED in %d s",
				 c->id, DR_WAIT);
	}
	return n;
}

/*
 * The end of a thread's run: the DEVICE_REMOVED of every context of its
 * private file that lost its device (a JOIN on it said ENODEV) must come.
 */
void await_device_notices(struct thread *t, struct file *f)
{
	struct pollfd p = { .fd = f->fd, .events = POLLIN };
	time_t end = time(NULL) + DR_WAIT;

	while (notices_due(f, false, t)) {
		if (time(NULL) > end) {
			notices_due(f, true, t);
			return;
		}
		poll(&p, 1, 500);
		t->st.op[C_READ]++;
		op_read(t, f);
	}
}
