// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The fake /dev/rdma_mcm, in place of the device for the library linked
 * into the same program: its struct rdma_mcm_io points at fake_io.c's
 * file and fake_dev.c's routing table.
 */
#include "fake_dev.h"
#include "rdma_mcm_priv.h"

static int hook_open(void *priv)
{
	(void)priv;
	return fake_file_open();
}

static int hook_ioctl(void *priv, int fd, unsigned long req, void *arg)
{
	(void)priv;
	return fake_file_ioctl(fd, req, arg);
}

static ssize_t hook_read(void *priv, int fd, void *buf, size_t len)
{
	(void)priv;
	return fake_file_read(fd, buf, len);
}

static void hook_close(void *priv, int fd)
{
	(void)priv;
	fake_file_close(fd);
}

static const struct rdma_mcm_io fake_io = {
	.open = hook_open,
	.ioctl = hook_ioctl,
	.read = hook_read,
	.close = hook_close,
	.route = fake_route,
};

void fake_install(void)
{
	fake_reset();
	fake_lock();
	rdma_mcm_io = &fake_io;
	rdma_mcm_io_priv = NULL;
	fake_unlock();
}
