// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * mcm_abi_test: what the checks of joins with sources and of IPv6 groups
 * share: guarded and unmapped pages, source arrays (IPv4 and IPv6
 * entries of any size), JOIN arguments with them and the two ways a JOIN
 * must end (refused with nothing written back, or a handle), the JOINED
 * event of a handle, what QUERY and LIST report of a membership, and
 * reading and writing a sysctl (igmp_max_msf, mld_max_msf).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <unistd.h>

#include "mcm_abi.h"

/* Source arrays of the checks; each fills what it passes */
uint8_t sarr[NSRC * 256];

/* Two pages: the first writable, the second PROT_NONE (a guard). */
uint8_t *guarded_page(void)
{
	uint8_t *p = mmap(NULL, 8192, PROT_READ | PROT_WRITE,
			  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED) {
		perror("mmap");
		exit(1);
	}
	memset(p, 0, 4096);
	mprotect(p + 4096, 4096, PROT_NONE);
	return p;
}

/* An address that is not mapped */
void *unmapped_page(void)
{
	void *p = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	munmap(p, 4096);
	return p;
}

struct rdma_mcm_source *src_at(uint8_t *arr, uint32_t size, int i)
{
	return (struct rdma_mcm_source *)(arr + (size_t)i * size);
}

/* Source @i of @arr (entries of @size bytes): IPv4 @addr, port @port */
void put_src4(uint8_t *arr, uint32_t size, int i, const char *addr,
	      uint16_t port)
{
	struct rdma_mcm_source *s = src_at(arr, size, i);

	memset(s, 0, size);
	set_v4_port(s->addr, &s->addr_len, addr, port);
}

void put_src6(uint8_t *arr, uint32_t size, int i, const char *addr)
{
	struct sockaddr_in6 s6 = { .sin6_family = AF_INET6 };
	struct rdma_mcm_source *s = src_at(arr, size, i);

	memset(s, 0, size);
	inet_pton(AF_INET6, addr, &s6.sin6_addr);
	memcpy(s->addr, &s6, sizeof(s6));
	s->addr_len = sizeof(s6);
}

/* @n distinct unicast IPv4 sources 10.9.0.1 ... */
void put_many4(uint8_t *arr, uint32_t size, int n)
{
	char a[32];
	int i;

	for (i = 0; i < n; i++) {
		snprintf(a, sizeof(a), "10.9.%d.%d", i / 200, i % 200 + 1);
		put_src4(arr, size, i, a, 0);
	}
}

void put_group6(uint8_t *buf, uint32_t *len, const char *group)
{
	struct sockaddr_in6 s6 = { .sin6_family = AF_INET6 };

	memset(buf, 0, RDMA_MCM_ADDR_SIZE);
	inet_pton(AF_INET6, group, &s6.sin6_addr);
	memcpy(buf, &s6, sizeof(s6));
	*len = sizeof(s6);
}

/* A full join of IPv4 @group on @ctx with @nr sources of @size at @srcs */
void join_arg(struct rdma_mcm_join *j, uint32_t ctx, const char *group,
	      const void *srcs, uint32_t nr, uint32_t size)
{
	memset(j, 0, sizeof(*j));
	j->ctx_id = ctx;
	j->cookie = 0x0102030405060708ULL;
	j->join_flags = RDMA_MCM_JOIN_FULLMEMBER;
	j->handle = PAT32;
	set_v4(j->addr, &j->addr_len, group);
	j->sources = (uintptr_t)srcs;
	j->nr_sources = nr;
	j->source_size = size;
}

/* JOIN @j must fail with @want and write nothing back. */
void join_fails(int fd, const struct rdma_mcm_join *j, int want,
		const char *what)
{
	struct rdma_mcm_join a = *j;
	int ret, err, same;

	ret = ioctl(fd, RDMA_MCM_IOC_JOIN, &a);
	err = ret < 0 ? errno : 0;
	note_errno(err);
	same = !memcmp(&a, j, sizeof(a));
	report(ret < 0 && err == want && same,
	       "%s: %s, nothing written (got %s%s)", what, errname(want),
	       errname(err), same ? "" : ", argument changed");
	if (!ret)
		leave(fd, a.ctx_id, a.handle, NULL);
}

/* JOIN @j must work; returns the handle (0 when it failed) */
uint32_t join_works(int fd, struct rdma_mcm_join *j, const char *what)
{
	int ret = ioctl(fd, RDMA_MCM_IOC_JOIN, j);

	expect_errno(ret, 0, what);
	return ret ? 0 : j->handle;
}

/* Wait for the JOINED (or ERROR) of @h; 1 when JOINED came */
int joined_event(int fd, uint32_t h, struct rdma_mcm_event *out)
{
	struct rdma_mcm_event ev;
	double t0 = now();

	while (now() - t0 < 20) {
		if (!wait_readable(fd, 1000))
			continue;
		if (read(fd, &ev, sizeof(ev)) != sizeof(ev) || ev.handle != h)
			continue;
		if (out)
			*out = ev;
		return ev.event == RDMA_MCM_EVENT_JOINED;
	}
	return 0;
}

/* QUERY @h: its nr_sources and flags are these */
int query_src(int fd, uint32_t ctx, uint32_t h, uint32_t nr,
	      uint32_t flags, struct rdma_mcm_member *out)
{
	struct rdma_mcm_member m = { 0 };

	if (query(fd, ctx, h, &m))
		return 0;
	if (out)
		*out = m;
	return m.nr_sources == nr && m.flags == flags;
}

/* LIST of @ctx: the entry of @cookie (entries of 208 bytes), 1 if found */
int list_cookie(int fd, uint32_t ctx, uint64_t cookie,
		struct rdma_mcm_member *out)
{
	struct rdma_mcm_member m[32];
	struct rdma_mcm_list l = { .ctx_id = ctx, .entry_size = sizeof(m[0]),
				   .entries = (uintptr_t)m };
	uint32_t i;

	do {
		l.count = 32;
		if (ioctl(fd, RDMA_MCM_IOC_LIST, &l))
			return 0;
		for (i = 0; i < l.count; i++)
			if (m[i].cookie == cookie) {
				*out = m[i];
				return 1;
			}
		l.start = l.next;
	} while (l.next);
	return 0;
}
