// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * fake_preload.so: the fake /dev/rdma_mcm for a program linked with the
 * real librdmamcm.so (LD_PRELOAD): open(2) of /dev/rdma_mcm gets the
 * fake's file, and ioctl(2), read(2) and close(2) on it reach the fake;
 * everything else goes to libc. So a program built long ago runs,
 * unchanged, against today's library and a fake kernel.
 *
 * Environment: joins complete at once; FAKE_FAIL_GROUP=IPv4 fails with
 * -ETIMEDOUT, FAKE_REMOVE_GROUP=IPv4 is joined then loses its device;
 * FAKE_NEW_KERNEL: a kernel whose members and events are longer than
 * today's (non-zero tails); FAKE_NO_SOURCES: the module before sources;
 * FAKE_NO_HEAL: the module before healing.
 */
#include <arpa/inet.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "fake_dev.h"

#define DEVICE	"/dev/" RDMA_MCM_DEVICE_NAME

static int is_fake(int fd)
{
	return fd >= 0 && fd == fake.efd;
}

/* The libc functions this library stands in front of */
typedef int (*open_fn)(const char *path, int flags, ...);
typedef int (*ioctl_fn)(int fd, unsigned long req, ...);
typedef ssize_t (*read_fn)(int fd, void *buf, size_t len);
typedef int (*close_fn)(int fd);

static int open_mode(const char *name, const char *path, int flags,
		     va_list ap)
{
	open_fn real = (open_fn)dlsym(RTLD_NEXT, name);
	mode_t mode = 0;

	if (!strcmp(path, DEVICE))
		return fake_file_open();
	if (flags & (O_CREAT | O_TMPFILE))
		mode = va_arg(ap, mode_t);
	return real(path, flags, mode);
}

int open(const char *path, int flags, ...)
{
	va_list ap;
	int ret;

	va_start(ap, flags);
	ret = open_mode("open", path, flags, ap);
	va_end(ap);
	return ret;
}

int open64(const char *path, int flags, ...)
{
	va_list ap;
	int ret;

	va_start(ap, flags);
	ret = open_mode("open64", path, flags, ap);
	va_end(ap);
	return ret;
}

int ioctl(int fd, unsigned long req, ...)
{
	ioctl_fn real = (ioctl_fn)dlsym(RTLD_NEXT, "ioctl");
	va_list ap;
	void *arg;

	va_start(ap, req);
	arg = va_arg(ap, void *);
	va_end(ap);
	if (is_fake(fd))
		return fake_file_ioctl(fd, req, arg);
	return real(fd, req, arg);
}

ssize_t read(int fd, void *buf, size_t len)
{
	read_fn real = (read_fn)dlsym(RTLD_NEXT, "read");

	if (is_fake(fd))
		return fake_file_read(fd, buf, len);
	return real(fd, buf, len);
}

int close(int fd)
{
	close_fn real = (close_fn)dlsym(RTLD_NEXT, "close");

	if (is_fake(fd)) {
		fake_file_close(fd);
		return 0;
	}
	return real(fd);
}

__attribute__((constructor)) static void preload_setup(void)
{
	const char *fail = getenv("FAKE_FAIL_GROUP");
	const char *remove = getenv("FAKE_REMOVE_GROUP");

	fake_reset();
	fake.auto_complete = 1;
	if (fail && inet_pton(AF_INET, fail, fake.fail_group) == 1)
		fake.fail_status = -ETIMEDOUT;
	if (remove && inet_pton(AF_INET, remove, fake.remove_group) != 1)
		abort();
	fake.new_kernel = !!getenv("FAKE_NEW_KERNEL");
	fake.no_heal = !!getenv("FAKE_NO_HEAL");
	fake.no_sources = !!getenv("FAKE_NO_SOURCES");
}
