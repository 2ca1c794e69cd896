// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * librdmamcm: the channel: opening /dev/rdma_mcm, the ioctl and read
 * paths, and waiting for events.
 *
 * The file is always opened non-blocking; a blocking channel blocks in
 * poll(2) instead of read(2), so that the library never sleeps in read()
 * with events of its own queue waiting, and join_sync can wait with a
 * timeout. The waiting itself is in events.c.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "rdma_mcm_priv.h"

static int dev_open(void *priv)
{
	(void)priv;
	return open("/dev/" RDMA_MCM_DEVICE_NAME,
		    O_RDWR | O_CLOEXEC | O_NONBLOCK);
}

static int dev_ioctl(void *priv, int fd, unsigned long req, void *arg)
{
	(void)priv;
	return ioctl(fd, req, arg);
}

static ssize_t dev_read(void *priv, int fd, void *buf, size_t len)
{
	(void)priv;
	return read(fd, buf, len);
}

static void dev_close(void *priv, int fd)
{
	(void)priv;
	close(fd);
}

static int dev_route(void *priv, const struct sockaddr *dst,
		     struct sockaddr_storage *src, uint32_t *ifindex)
{
	(void)priv;
	return mcm_route_lookup(dst, src, ifindex);
}

const struct rdma_mcm_io rdma_mcm_dev_io = {
	.open = dev_open,
	.ioctl = dev_ioctl,
	.read = dev_read,
	.close = dev_close,
	.route = dev_route,
};

const struct rdma_mcm_io *rdma_mcm_io = &rdma_mcm_dev_io;
void *rdma_mcm_io_priv;

/*
 * ioctl on the channel: 0 or -errno. @size is the size of @arg as the
 * library built it; it replaces the size in @req when they differ (test
 * builds that emulate a library built against a later header).
 */
int mcm_ioctl(struct rdma_mcm_channel *ch, unsigned long req, void *arg,
	      size_t size)
{
	const unsigned long mask = (unsigned long)_IOC_SIZEMASK << _IOC_SIZESHIFT;

	if (size != _IOC_SIZE(req))
		req = (req & ~mask) | ((unsigned long)size << _IOC_SIZESHIFT);
	if (ch->io->ioctl(ch->io_priv, ch->fd, req, arg) < 0)
		return errno ? -errno : -EIO;
	return 0;
}

/* Wake the thread waiting in poll(), if any; with ch->lock held. */
void mcm_kick(struct rdma_mcm_channel *ch)
{
	uint64_t one = 1;

	pthread_cond_broadcast(&ch->cond);
	if (ch->poller && write(ch->wake_fd, &one, sizeof(one)) < 0)
		return;	/* the counter is full: it is readable anyway */
}

struct mcm_ctx *mcm_ctx_find(struct rdma_mcm_channel *ch, uint32_t ctx_id)
{
	struct mcm_ctx *c;

	for (c = ch->ctxs; c; c = c->next)
		if (c->ctx_id == ctx_id)
			return c;
	return NULL;
}

int mcm_wanted(uint64_t types, uint32_t type)
{
	return type < 64 && (types >> type) & 1;
}

/*
 * Queue one event read from the kernel, with its owner. The library
 * looks at every event first (heal.c: the QPs it attached, a ROUTE
 * context's source), then keeps those the application asked for, and
 * those a join_sync waits for: it succeeds on REJOINED too.
 */
static int queue_event(struct rdma_mcm_channel *ch, const uint8_t *rec)
{
	struct mcm_wire_event w;
	struct mcm_member *m = NULL;
	struct mcm_rec *r;

	memset(&w, 0, sizeof(w));
	memcpy(&w, rec, ch->ev_size);
	if (w.s.handle)
		m = mcm_table_find(&ch->members, w.s.ctx_id, w.s.handle);
	mcm_track_event(ch, m, &w.s);
	if (!mcm_wanted(ch->app_events, w.s.event) &&
	    !(m && m->claimed && (w.s.event == RDMA_MCM_EVENT_REJOINING ||
				  w.s.event == RDMA_MCM_EVENT_REJOINED)))
		return 0;
	r = mcm_queue_push(&ch->queue, &w, sizeof(w));
	mcm_queue_own(r, m, m ? NULL : mcm_ctx_find(ch, w.s.ctx_id));
	return 1;
}

/*
 * Read what the kernel has queued (up to MCM_READ_BATCH events, each of
 * the size negotiated at open, zero-extended to the library's struct)
 * into the channel's queue; with ch->lock held. Returns the number of
 * events read, or -errno (-EAGAIN when none is queued). Room is made
 * first, so an event read is never lost for want of memory.
 */
int mcm_fill(struct rdma_mcm_channel *ch)
{
	uint8_t buf[MCM_READ_BATCH * sizeof(struct mcm_wire_event)];
	size_t i, cnt, added = 0;
	ssize_t n;
	int ret;

	ret = mcm_queue_reserve(&ch->queue, MCM_READ_BATCH);
	if (ret)
		return ret;
	n = ch->io->read(ch->io_priv, ch->fd, buf,
			 (size_t)MCM_READ_BATCH * ch->ev_size);
	if (n < 0) {
		ch->drained = errno == EAGAIN;
		return errno ? -errno : -EIO;
	}
	ch->drained = (size_t)n < (size_t)MCM_READ_BATCH * ch->ev_size;
	if (n == 0 || (size_t)n % ch->ev_size ||
	    (size_t)n > (size_t)MCM_READ_BATCH * ch->ev_size)
		return -EPROTO;
	cnt = (size_t)n / ch->ev_size;
	for (i = 0; i < cnt; i++)
		added += queue_event(ch, buf + i * ch->ev_size);
	if (added)
		mcm_kick(ch);
	return (int)cnt;
}

/*
 * Tell the kernel which events the library handles and in which size,
 * right after VERSION. A kernel without SET_EVENTS (ENOTTY) sends
 * RDMA_MCM_EVENT_SIZE_VER0 bytes of the default types.
 */
static int negotiate(struct rdma_mcm_channel *ch)
{
	MCM_WIRE(struct rdma_mcm_set_events, set_events) se;
	int ret;

	ch->ev_size = RDMA_MCM_EVENT_SIZE_VER0;
	ch->kernel_events = RDMA_MCM_EVENTS_DEFAULT;
	ch->app_events = RDMA_MCM_EVENTS_DEFAULT;
#ifdef MCM_TEST_OLD
	if (ch)
		return 0;
#endif
	memset(&se, 0, sizeof(se));
	se.s.event_mask = MCM_EVENTS_KNOWN;
	se.s.event_size = sizeof(struct mcm_wire_event);
	ret = mcm_ioctl(ch, RDMA_MCM_IOC_SET_EVENTS, &se, sizeof(se));
	if (ret == -ENOTTY)
		return 0;
	if (ret)
		return ret;
	if (se.s.event_size < RDMA_MCM_EVENT_SIZE_VER0 ||
	    se.s.event_size > sizeof(struct mcm_wire_event))
		return -EPROTO;
	ch->ev_size = se.s.event_size;
	ch->kernel_events = se.s.event_mask & MCM_EVENTS_KNOWN;
	return 0;
}

/* The device's answers: its ABI version, then the events. 0 or -errno */
static int handshake(struct rdma_mcm_channel *ch)
{
	MCM_WIRE(struct rdma_mcm_version, version) ver;
	int ret;

	memset(&ver, 0, sizeof(ver));
	ret = mcm_ioctl(ch, RDMA_MCM_IOC_VERSION, &ver, sizeof(ver));
	if (ret)
		return ret;
	if (ver.s.abi_version != RDMA_MCM_ABI_VERSION)
		return -EPROTONOSUPPORT;
	ch->abi_version = ver.s.abi_version;
	/* a module older than features had the field reserved: 0 */
	ch->features = ver.s.features;
	return negotiate(ch);
}

static int init_sync(struct rdma_mcm_channel *ch)
{
	pthread_condattr_t attr;
	int ret;

	ret = pthread_condattr_init(&attr);
	if (ret)
		return -ret;
	ret = pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
	if (!ret)
		ret = pthread_cond_init(&ch->cond, &attr);
	pthread_condattr_destroy(&attr);
	if (ret)
		return -ret;
	ret = pthread_mutex_init(&ch->lock, NULL);
	if (ret) {
		pthread_cond_destroy(&ch->cond);
		return -ret;
	}
	return 0;
}

MCM_EXPORT struct rdma_mcm_channel *rdma_mcm_open_channel(int flags)
{
	struct rdma_mcm_channel *ch;
	int ret;

	if (flags & ~(O_NONBLOCK | O_CLOEXEC)) {
		errno = EINVAL;
		return NULL;
	}
	ch = calloc(1, sizeof(*ch));
	if (!ch)
		return NULL;
	ch->flags = flags & O_NONBLOCK;
	ch->io = rdma_mcm_io;
	ch->io_priv = rdma_mcm_io_priv;
	ch->wake_fd = -1;
	ret = init_sync(ch);
	if (ret) {
		free(ch);
		errno = -ret;
		return NULL;
	}
	ch->fd = ch->io->open(ch->io_priv);
	if (ch->fd < 0) {
		ret = errno ? -errno : -EIO;
		goto err_sync;
	}
	ret = handshake(ch);
	if (!ret) {
		ch->wake_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
		if (ch->wake_fd < 0)
			ret = -errno;
	}
	/*
	 * Room for the first events and memberships now, so that the first
	 * join and the first wait allocate nothing; a new file has no
	 * event queued.
	 */
	if (!ret)
		ret = mcm_queue_reserve(&ch->queue, MCM_READ_BATCH);
	if (!ret)
		ret = mcm_table_prepare(&ch->members);
	ch->drained = 1;
	if (!ret)
		return ch;
	if (ch->wake_fd >= 0)
		close(ch->wake_fd);
	mcm_queue_free(&ch->queue);
	mcm_table_free(&ch->members);
	ch->io->close(ch->io_priv, ch->fd);
err_sync:
	pthread_mutex_destroy(&ch->lock);
	pthread_cond_destroy(&ch->cond);
	free(ch);
	errno = -ret;
	return NULL;
}

MCM_EXPORT void rdma_mcm_close_channel(struct rdma_mcm_channel *ch)
{
	struct mcm_ctx *c, *next;
	int saved = errno;

	if (!ch)
		return;
	ch->io->close(ch->io_priv, ch->fd);
	close(ch->wake_fd);
	mcm_queue_free(&ch->queue);
	mcm_table_free(&ch->members);
	for (c = ch->ctxs; c; c = next) {
		next = c->next;
		free(c);
	}
	pthread_mutex_destroy(&ch->lock);
	pthread_cond_destroy(&ch->cond);
	free(ch);
	errno = saved;
}

MCM_EXPORT int rdma_mcm_get_fd(struct rdma_mcm_channel *ch)
{
	if (!ch) {
		errno = EINVAL;
		return -1;
	}
	return ch->fd;
}

MCM_EXPORT int rdma_mcm_abi_version(struct rdma_mcm_channel *ch)
{
	if (!ch) {
		errno = EINVAL;
		return -1;
	}
	return (int)ch->abi_version;
}

/* LIBRDMAMCM_1.5: what VERSION said at open; the module cannot change */
MCM_EXPORT int rdma_mcm_get_features(struct rdma_mcm_channel *ch,
				     uint32_t *features)
{
	if (!ch || !features)
		return mcm_result(-EINVAL);
	*features = ch->features;
	return 0;
}
