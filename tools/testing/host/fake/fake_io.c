// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The fake /dev/rdma_mcm's file: open, ioctl, read, close, with the
 * kernel's rules for the size of an ioctl argument (see fake_dev.h). One
 * lock around each. fake_hook.c makes the library call them (struct
 * rdma_mcm_io); fake_preload.c makes a program's libc calls reach them.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include "fake_dev.h"

/* Room for any command's argument, in the kernel's size */
#define FAKE_ARG_MAX	512

static int fail(int err)
{
	errno = err;
	return -1;
}

/* The first and the kernel's own size of a command's argument */
static int arg_sizes(unsigned long nr, size_t *ver0, size_t *ksize)
{
	static const size_t v0[] = {
		[_IOC_NR(RDMA_MCM_IOC_VERSION)] = RDMA_MCM_VERSION_SIZE_VER0,
		[_IOC_NR(RDMA_MCM_IOC_CREATE_CTX)] = RDMA_MCM_CREATE_CTX_SIZE_VER0,
		[_IOC_NR(RDMA_MCM_IOC_DESTROY_CTX)] = RDMA_MCM_DESTROY_CTX_SIZE_VER0,
		[_IOC_NR(RDMA_MCM_IOC_JOIN)] = RDMA_MCM_JOIN_SIZE_VER0,
		[_IOC_NR(RDMA_MCM_IOC_LEAVE)] = RDMA_MCM_LEAVE_SIZE_VER0,
		[_IOC_NR(RDMA_MCM_IOC_QUERY)] = RDMA_MCM_QUERY_SIZE_VER0,
		[_IOC_NR(RDMA_MCM_IOC_LIST)] = RDMA_MCM_LIST_SIZE_VER0,
		[_IOC_NR(RDMA_MCM_IOC_BATCH_JOIN)] = RDMA_MCM_BATCH_SIZE_VER0,
		[_IOC_NR(RDMA_MCM_IOC_BATCH_LEAVE)] = RDMA_MCM_BATCH_SIZE_VER0,
		[_IOC_NR(RDMA_MCM_IOC_SET_EVENTS)] = RDMA_MCM_SET_EVENTS_SIZE_VER0,
		[_IOC_NR(RDMA_MCM_IOC_QUERY_CTX)] = RDMA_MCM_QUERY_CTX_SIZE_VER0,
	};
	static const size_t ks[] = {
		[_IOC_NR(RDMA_MCM_IOC_VERSION)] = sizeof(struct rdma_mcm_version),
		[_IOC_NR(RDMA_MCM_IOC_CREATE_CTX)] = sizeof(struct rdma_mcm_create_ctx),
		[_IOC_NR(RDMA_MCM_IOC_DESTROY_CTX)] = sizeof(struct rdma_mcm_destroy_ctx),
		[_IOC_NR(RDMA_MCM_IOC_JOIN)] = sizeof(struct rdma_mcm_join),
		[_IOC_NR(RDMA_MCM_IOC_LEAVE)] = sizeof(struct rdma_mcm_leave),
		[_IOC_NR(RDMA_MCM_IOC_QUERY)] = sizeof(struct rdma_mcm_query),
		[_IOC_NR(RDMA_MCM_IOC_LIST)] = sizeof(struct rdma_mcm_list),
		[_IOC_NR(RDMA_MCM_IOC_BATCH_JOIN)] = sizeof(struct rdma_mcm_batch),
		[_IOC_NR(RDMA_MCM_IOC_BATCH_LEAVE)] = sizeof(struct rdma_mcm_batch),
		[_IOC_NR(RDMA_MCM_IOC_SET_EVENTS)] = sizeof(struct rdma_mcm_set_events),
		[_IOC_NR(RDMA_MCM_IOC_QUERY_CTX)] = sizeof(struct rdma_mcm_query_ctx),
	};

	if (nr >= sizeof(v0) / sizeof(v0[0]))
		return -ENOTTY;
	*ver0 = v0[nr];
	*ksize = ks[nr];
	/* a newer kernel's member is longer, an older one's shorter: QUERY */
	if (nr == _IOC_NR(RDMA_MCM_IOC_QUERY))
		*ksize = *ksize - sizeof(struct rdma_mcm_member) +
			 fake_member_size();
	/* the module before sources: the join's first version */
	if (nr == _IOC_NR(RDMA_MCM_IOC_JOIN))
		*ksize = fake_join_size();
	return 0;
}

/*
 * As the kernel's ioctl: the argument is copied in at the caller's size
 * (_IOC_SIZE), from VER0 up; a longer one's unknown tail must be zero;
 * only the caller's bytes are written back.
 */
static int do_ioctl(unsigned long req, void *uarg)
{
	uint8_t karg[FAKE_ARG_MAX];
	unsigned long nr = _IOC_NR(req);
	size_t usize = _IOC_SIZE(req), ver0, ksize, i;
	int ret;

	if (_IOC_TYPE(req) != RDMA_MCM_IOCTL_MAGIC)
		return -ENOTTY;
	ret = arg_sizes(nr, &ver0, &ksize);
	if (ret)
		return ret;
	if (nr < sizeof(fake.ioc_size) / sizeof(fake.ioc_size[0]))
		fake.ioc_size[nr] = (uint32_t)usize;
	if (nr == _IOC_NR(RDMA_MCM_IOC_SET_EVENTS) && fake.old_kernel)
		return -ENOTTY;
	if (usize < ver0)
		return -EINVAL;
	memset(karg, 0, sizeof(karg));
	memcpy(karg, uarg, usize < ksize ? usize : ksize);
	for (i = ksize; i < usize; i++)
		if (((uint8_t *)uarg)[i])
			return -E2BIG;
	ret = fake_dispatch(nr, karg);
	if (_IOC_DIR(req) & _IOC_READ)
		memcpy(uarg, karg, usize < ksize ? usize : ksize);
	return ret;
}

int fake_file_open(void)
{
	int fd;

	fake_lock();
	if (fake.efd >= 0) {
		fake_unlock();
		return fail(EBUSY);	/* one open file at a time */
	}
	fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK | EFD_SEMAPHORE);
	if (fd >= 0) {
		fake.efd = fd;
		fake.nr_opens++;
		/* a new file: old-style events until it asks */
		fake.ev_size = RDMA_MCM_EVENT_SIZE_VER0;
		fake.ev_mask = RDMA_MCM_EVENTS_DEFAULT;
	}
	fake_unlock();
	return fd;
}

int fake_file_ioctl(int fd, unsigned long req, void *arg)
{
	int ret;

	fake_lock();
	if (fd != fake.efd) {
		fake_unlock();
		return fail(EBADF);
	}
	fake.nr_ioctls++;
	ret = do_ioctl(req, arg);
	fake_unlock();
	return ret ? fail(-ret) : 0;
}

ssize_t fake_file_read(int fd, void *buf, size_t len)
{
	ssize_t n;

	fake_lock();
	if (fd != fake.efd) {
		fake_unlock();
		return fail(EBADF);
	}
	n = fake_read_events(buf, len);
	fake_unlock();
	return n < 0 ? fail((int)-n) : n;
}

void fake_file_close(int fd)
{
	fake_lock();
	if (fd != fake.efd)
		abort();
	fake_close_file();
	/* no longer the fake's when closed (fake_preload.c's close()) */
	fake.efd = -1;
	close(fd);
	fake_unlock();
}

void fake_reset(void)
{
	struct sockaddr_in *sin;
	int fd;

	fake_lock();
	fd = fake.efd;
	memset(&fake, 0, sizeof(fake));
	fake.efd = -1;
	if (fd >= 0)
		close(fd);
	fake.max_members = FAKE_MAX_MEMBERS;
	/* the kernel's defaults of the sysctls */
	fake.igmp_max_msf = 10;
	fake.mld_max_msf = 64;
	fake.abi_version = RDMA_MCM_ABI_VERSION;
	/* the route to any IPv4 group leaves from 10.0.0.1 on ifindex 2 */
	sin = (struct sockaddr_in *)&fake.route_src;
	sin->sin_family = AF_INET;
	sin->sin_addr.s_addr = htonl(0x0a000001);
	fake.route_ifindex = 2;
	/* the contexts' device, as QUERY_CTX names it */
	strcpy(fake.dev_name, "fake0");
	fake_unlock();
}
