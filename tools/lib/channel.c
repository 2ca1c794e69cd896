// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * librdmamcm: the channel: opening /dev/rdma_mcm, the ioctl and read
 * paths, and waiting for events.
 *
 * The file is always opened non-blocking; a blocking channel blocks in
 * poll(2) instead of read(2), so that the library never sleeps in read()
 * with events of its own queue waiting, and join_sync can wait with a
 * timeout.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
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

const struct rdma_mcm_io rdma_mcm_dev_io = {
	.open = dev_open,
	.ioctl = dev_ioctl,
	.read = dev_read,
	.close = dev_close,
};

const struct rdma_mcm_io *rdma_mcm_io = &rdma_mcm_dev_io;
void *rdma_mcm_io_priv;

/* ioctl on the channel: 0 or -errno */
int mcm_ioctl(struct rdma_mcm_channel *ch, unsigned long req, void *arg)
{
	if (ch->io->ioctl(ch->io_priv, ch->fd, req, arg) < 0)
		return errno ? -errno : -EIO;
	return 0;
}

/*
 * Read what the kernel has queued (up to MCM_READ_BATCH events) into the
 * channel's queue. Returns the number of events read, or -errno (-EAGAIN
 * when none is queued). Room is made first, so an event read is never
 * lost for want of memory.
 */
int mcm_fill(struct rdma_mcm_channel *ch)
{
	struct rdma_mcm_event buf[MCM_READ_BATCH];
	ssize_t n;
	size_t i, cnt;
	int ret;

	ret = mcm_queue_reserve(&ch->queue, MCM_READ_BATCH);
	if (ret)
		return ret;
	n = ch->io->read(ch->io_priv, ch->fd, buf, sizeof(buf));
	if (n < 0)
		return errno ? -errno : -EIO;
	if (n == 0 || n % sizeof(buf[0]))
		return -EPROTO;
	cnt = (size_t)n / sizeof(buf[0]);
	for (i = 0; i < cnt; i++)
		mcm_queue_push(&ch->queue, &buf[i]);
	return (int)cnt;
}

/* Wait for POLLIN: 1 when readable, 0 on timeout, or -errno. */
int mcm_poll(struct rdma_mcm_channel *ch, int timeout_ms)
{
	struct pollfd pfd = { .fd = ch->fd, .events = POLLIN };
	int n;

	n = poll(&pfd, 1, timeout_ms);
	if (n < 0)
		return -errno;
	if (n && (pfd.revents & (POLLERR | POLLNVAL)))
		return -EIO;
	return n;
}

MCM_EXPORT struct rdma_mcm_channel *rdma_mcm_open_channel(int flags)
{
	struct rdma_mcm_version ver = { 0 };
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
	ch->fd = ch->io->open(ch->io_priv);
	if (ch->fd < 0) {
		ret = errno;
		free(ch);
		errno = ret;
		return NULL;
	}
	ret = mcm_ioctl(ch, RDMA_MCM_IOC_VERSION, &ver);
	if (!ret && !ver.abi_version)
		ret = -EPROTO;
	if (ret) {
		ch->io->close(ch->io_priv, ch->fd);
		free(ch);
		errno = -ret;
		return NULL;
	}
	ch->abi_version = ver.abi_version;
	return ch;
}

MCM_EXPORT void rdma_mcm_close_channel(struct rdma_mcm_channel *ch)
{
	int saved = errno;

	if (!ch)
		return;
	ch->io->close(ch->io_priv, ch->fd);
	mcm_queue_free(&ch->queue);
	mcm_table_free(&ch->members);
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
