// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * mcm_abi_test: every errno of a join with sources, each in its own
 * check, with nothing written back, in the order the char device checks
 * them (context, flags, group, sources, the limits, the manager's checks,
 * EADDRINUSE); nr_sources 0 is any source, whatever the rest says; source
 * entries of up to 4096 bytes.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "mcm_abi.h"

#define MSF		"/proc/sys/net/ipv4/igmp_max_msf"

/* The source entry errors: each its own check, nothing written back */
static void src_entry_errnos(int fd, uint32_t c)
{
	const uint32_t S = RDMA_MCM_SOURCE_SIZE_VER0;
	struct sockaddr_un sun = { .sun_family = AF_UNIX };
	struct sockaddr_in6 s6 = { .sin6_family = AF_INET6 };
	struct fake_sockaddr_ib {
		uint16_t sib_family;
		uint16_t sib_pkey;
		uint32_t sib_flowinfo;
		uint8_t sib_addr[16];
		uint64_t sib_sid, sib_sid_mask, sib_scope_id;
	} sib = { .sib_family = AF_IB };
	struct rdma_mcm_join j;
	struct rdma_mcm_source *s;
	uint8_t *page;
	uint32_t h;

	memset(sarr, 0, sizeof(sarr));
	put_src4(sarr, S, 0, SRC_A, 0);
	s = src_at(sarr, S, 0);
	join_arg(&j, c, "239.5.21.1", sarr, 1, S);
	s->reserved = 1;
	join_fails(fd, &j, EINVAL, "JOIN, a source's reserved field set");
	s->reserved = 0;
	s->addr_len = RDMA_MCM_ADDR_SIZE + 1;
	join_fails(fd, &j, EINVAL, "JOIN, a source's addr_len 129");
	s->addr_len = 0;
	join_fails(fd, &j, EINVAL, "JOIN, a source's addr_len 0");
	s->addr_len = sizeof(struct sockaddr_in) - 1;
	join_fails(fd, &j, EINVAL,
		   "JOIN, a source's addr_len 15 (short of sockaddr_in)");
	memset(s, 0, S);
	memcpy(s->addr, &sun, sizeof(sun.sun_family));
	s->addr_len = sizeof(sun);
	join_fails(fd, &j, EAFNOSUPPORT, "JOIN, an AF_UNIX source");
	memset(s->addr, 0, 2);
	join_fails(fd, &j, EAFNOSUPPORT, "JOIN, an AF_UNSPEC source");
	inet_pton(AF_INET6, V6_SRC_A, &s6.sin6_addr);
	memset(s, 0, S);
	memcpy(s->addr, &s6, sizeof(s6));
	s->addr_len = sizeof(s6);
	join_fails(fd, &j, EINVAL,
		   "JOIN of an IPv4 group, an IPv6 source (another family)");
	memset(s, 0, S);
	sib.sib_addr[15] = 1;
	memcpy(s->addr, &sib, sizeof(sib));
	s->addr_len = sizeof(sib);
	join_fails(fd, &j, EINVAL, "JOIN of an IPv4 group, an AF_IB source");
	put_src4(sarr, S, 0, "239.1.2.3", 0);
	join_fails(fd, &j, EINVAL, "JOIN, a multicast source (239.1.2.3)");
	put_src4(sarr, S, 0, "224.0.0.1", 0);
	join_fails(fd, &j, EINVAL, "JOIN, a multicast source (224.0.0.1)");
	put_src4(sarr, S, 0, "0.0.0.0", 0);
	join_fails(fd, &j, EINVAL, "JOIN, source 0.0.0.0");
	put_src4(sarr, S, 0, "0.1.2.3", 0);
	join_fails(fd, &j, EINVAL, "JOIN, source 0.1.2.3 (0.0.0.0/8)");
	put_src4(sarr, S, 0, "255.255.255.255", 0);
	join_fails(fd, &j, EINVAL, "JOIN, source 255.255.255.255");

	/* twice: the second entry; the port is ignored, so twice again */
	put_src4(sarr, S, 0, SRC_A, 0);
	put_src4(sarr, S, 1, SRC_B, 0);
	put_src4(sarr, S, 2, SRC_A, 0);
	j.nr_sources = 3;
	join_fails(fd, &j, EINVAL, "JOIN, a source given twice");
	put_src4(sarr, S, 2, SRC_A, 4791);
	join_fails(fd, &j, EINVAL,
		   "JOIN, a source given twice with another port");
	j.nr_sources = 2;
	j.join_flags = RDMA_MCM_JOIN_SENDONLY_FULLMEMBER;
	join_fails(fd, &j, EINVAL, "JOIN send-only with sources");
	j.join_flags = RDMA_MCM_JOIN_FULLMEMBER;

	/* entries longer than the kernel's: their tail */
	memset(sarr, 0, sizeof(sarr));
	put_src4(sarr, 200, 0, SRC_A, 0);
	put_src4(sarr, 200, 1, SRC_B, 0);
	j.source_size = 200;
	sarr[200 + 150] = 1;
	join_fails(fd, &j, E2BIG,
		   "JOIN, 200-byte sources, the second's tail not zero");
	sarr[200 + 150] = 0;
	/* the first entry bad, the second unreadable: entries in turn */
	page = guarded_page();
	put_src4(page, S, 0, SRC_A, 0);
	src_at(page, S, 0)->reserved = 7;
	put_src4(page + 4096 - S, S, 0, SRC_B, 0);
	j.sources = (uintptr_t)page;
	j.nr_sources = 1;
	j.source_size = S;
	join_fails(fd, &j, EINVAL, "JOIN, sources checked in turn: the first bad");
	j.sources = (uintptr_t)(page + 4096 - S);
	j.nr_sources = 2;
	join_fails(fd, &j, EFAULT,
		   "JOIN, the second source on a PROT_NONE page");
	/* 192 of its 200 bytes readable: the 56 of its tail there zero */
	memset(page + 4096 - 200, 0, 200);
	put_src4(page + 4096 - 192, S, 0, SRC_B, 0);
	j.sources = (uintptr_t)(page + 4096 - 192);
	j.nr_sources = 1;
	j.source_size = 200;
	join_fails(fd, &j, EFAULT,
		   "JOIN, a 200-byte source whose (zero) tail runs into a PROT_NONE page");
	memset(page + 4096 - 200, 0, 200);
	put_src4(page + 4096 - 200, 200, 0, SRC_B, 0);
	j.sources = (uintptr_t)(page + 4096 - 200);
	h = join_works(fd, &j,
		       "JOIN, a 200-byte source that ends where the PROT_NONE page begins");
	report(h && query_src(fd, c, h, 1, 0, NULL) && !leave(fd, c, h, NULL),
	       "... QUERY says 1 source; LEAVE");
	munmap(page, 8192);
}

/* The array's errors, the order of the checks, the limits */
static void src_array_errnos(int fd, uint32_t c)
{
	const uint32_t S = RDMA_MCM_SOURCE_SIZE_VER0;
	struct rdma_mcm_join j, b, bm;
	long msf = read_long(MSF), members;
	uint32_t h, c2;
	int fd2, ok;

	members = live_count("file_members");
	memset(sarr, 0, sizeof(sarr));
	put_many4(sarr, S, 65);
	join_arg(&j, c, "239.5.21.2", sarr, 65, S);
	join_fails(fd, &j, EINVAL, "JOIN with 65 sources (RDMA_MCM_MAX_SOURCES 64)");
	j.nr_sources = 2;
	j.source_size = S - 1;
	join_fails(fd, &j, EINVAL, "JOIN, source_size 135 (below the first version)");
	j.source_size = 0;
	join_fails(fd, &j, EINVAL, "JOIN, source_size 0");
	j.source_size = RDMA_MCM_MAX_ENTRY_SIZE + 1;
	join_fails(fd, &j, E2BIG, "JOIN, source_size 4097");
	j.source_size = S;
	j.sources = 0;
	join_fails(fd, &j, EFAULT, "JOIN, sources NULL with nr_sources 2");
	j.sources = (uintptr_t)unmapped_page();
	join_fails(fd, &j, EFAULT, "JOIN, sources unmapped");
	if (sizeof(void *) == 4) {
		/* the 64-bit field is the pointer: no bits of it dropped */
		j.sources = (1ULL << 32) | (uintptr_t)sarr;
		join_fails(fd, &j, EFAULT,
			   "JOIN (32-bit process), sources with bit 32 set above a good pointer");
	}

	/* what comes first: the context, the group, then the sources */
	join_arg(&j, c + 1000, "239.5.21.2", sarr, 65, S);
	join_fails(fd, &j, ENOENT, "JOIN on no context, 65 sources: ENOENT first");
	join_arg(&j, c, "239.5.21.2", sarr, 65, S);
	memset(j.addr, 0, 2);
	join_fails(fd, &j, EAFNOSUPPORT,
		   "JOIN of an AF_UNSPEC group, 65 sources: the group first");
	join_arg(&j, c, "239.5.21.2", sarr, 2, S);
	j.join_flags = 2;
	j.sources = (uintptr_t)unmapped_page();
	join_fails(fd, &j, EINVAL,
		   "JOIN, bad flags, sources unmapped: the flags first");

	/*
	 * the source count against igmp_max_msf, read (Debian's default is
	 * 10; the ABI's most, 64, is over it unless the host raised it)
	 */
	printf("    # net.ipv4.igmp_max_msf is %ld\n", msf);
	put_many4(sarr, S, 64);
	join_arg(&j, c, "239.5.21.3", sarr, 64, S);
	if (msf < 64) {
		join_fails(fd, &j, ENOBUFS,
			   "JOIN with 64 sources (the ABI's most), over igmp_max_msf: ENOBUFS");
	} else {
		h = join_works(fd, &j,
			       "JOIN with 64 sources (the ABI's most), igmp_max_msf 64 or more");
		if (h)
			leave(fd, c, h, NULL);
	}
	if (msf > 0 && msf < 64) {
		j.nr_sources = msf + 1;
		join_fails(fd, &j, ENOBUFS, "JOIN with igmp_max_msf + 1 sources");
		j.nr_sources = msf;
		h = join_works(fd, &j, "JOIN with igmp_max_msf sources");
		report(h && query_src(fd, c, h, msf, 0, NULL) &&
		       filter_inc("veth1", "239.5.21.3", "10.9.0.1") == 1 &&
		       !leave(fd, c, h, NULL) &&
		       filters_of("239.5.21.3") == 0,
		       "... QUERY says %ld sources, /proc/net/mcfilter lists them; LEAVE takes them away",
		       msf);
	} else {
		skip("igmp_max_msf is not below 64", "JOIN with igmp_max_msf + 1 sources");
	}
	ok = !write_long(MSF, 2);
	j.nr_sources = 3;
	join_fails(fd, &j, ENOBUFS, "JOIN with 3 sources, igmp_max_msf set to 2");
	j.nr_sources = 2;
	h = join_works(fd, &j, "JOIN with 2 sources, igmp_max_msf 2");
	if (h)
		leave(fd, c, h, NULL);
	ok &= !write_long(MSF, msf);
	report(ok && read_long(MSF) == msf, "igmp_max_msf set back to %ld", msf);

	/* sources before the limits; then the limits; EADDRINUSE last */
	fd2 = open_dev();
	expect_errno(create_ctx(fd2, SRC_ADDR, &c2), 0, "CREATE_CTX in a new file");
	expect_errno(join(fd2, c2, "239.5.21.4", 0, 0, NULL), 0,
		     "JOIN 239.5.21.4 there");
	put_src4(sarr, S, 0, SRC_A, 0);
	put_src4(sarr, S, 1, SRC_B, 0);
	join_arg(&j, c2, "239.5.21.5", sarr, 2, S);
	/*
	 * the char device's checks of a source, then the limits, then the
	 * manager's (multicast, family, twice)
	 */
	b = j;
	put_src4(sarr + 4 * S, S, 0, SRC_C, 0);
	src_at(sarr + 4 * S, S, 0)->reserved = 1;
	b.sources = (uintptr_t)(sarr + 4 * S);
	b.nr_sources = 1;
	bm = j;
	put_src4(sarr + 6 * S, S, 0, "239.9.9.9", 0);
	bm.sources = (uintptr_t)(sarr + 6 * S);
	bm.nr_sources = 1;
	set_param("max_memberships", 1);
	join_fails(fd2, &b, EINVAL,
		   "JOIN, a source's reserved field set, max_memberships reached: the source first");
	join_fails(fd2, &bm, ENOBUFS,
		   "JOIN, a multicast source, max_memberships reached: the limit before the manager's checks");
	join_fails(fd2, &j, ENOBUFS,
		   "JOIN, good sources, max_memberships reached");
	set_param("max_memberships", 131072);
	set_param("max_user_memberships", 0);
	join_fails(fd2, &b, EINVAL,
		   "JOIN, a source's reserved field set, max_user_memberships 0: the source first");
	join_fails(fd2, &bm, ENOSPC,
		   "JOIN, a multicast source, max_user_memberships 0: the limit before the manager's checks");
	join_fails(fd2, &j, ENOSPC,
		   "JOIN, good sources, max_user_memberships 0");
	set_param("max_user_memberships", 262144);
	b = bm;
	j.addr[4 + 3] = 4;	/* 239.5.21.4: joined already */
	b.addr[4 + 3] = 4;
	join_fails(fd2, &b, EINVAL,
		   "JOIN of a group joined already, a multicast source: the sources first");
	join_fails(fd2, &j, EADDRINUSE,
		   "JOIN with sources of a group joined already (any source)");
	j.addr[4 + 3] = 6;
	h = join_works(fd2, &j, "JOIN 239.5.21.6 with 2 sources");
	j.sources = (uintptr_t)(sarr + 8 * S);
	put_src4(sarr + 8 * S, S, 0, SRC_C, 0);
	j.nr_sources = 1;
	join_fails(fd2, &j, EADDRINUSE,
		   "JOIN with other sources of a group joined with sources");
	j.nr_sources = 0;
	join_fails(fd2, &j, EADDRINUSE,
		   "JOIN without sources of a group joined with sources");
	close(fd2);
	report(live_count("file_members") == members,
	       "no membership is left of the failed joins (%ld, %ld before)",
	       live_count("file_members"), members);
	report(filters_of("239.5.21.6") == 0,
	       "the closed file's filter is gone from /proc/net/mcfilter");
}

/* nr_sources 0 is any source: the rest is ignored; bigger entries work */
static void src_ignored(int fd, uint32_t c)
{
	static uint8_t big[2 * RDMA_MCM_MAX_ENTRY_SIZE];
	struct rdma_mcm_join j;
	uint32_t h;

	join_arg(&j, c, "239.5.21.7", (void *)(uintptr_t)0x10, 0, 3);
	h = join_works(fd, &j,
		       "JOIN, nr_sources 0 with a bad pointer and source_size 3: any source");
	report(h && query_src(fd, c, h, 0, 0, NULL) &&
	       filters_of("239.5.21.7") == 0 && igmp_on("veth1", "239.5.21.7"),
	       "... nr_sources 0, flags 0, no source filter, in /proc/net/igmp on veth1");
	leave(fd, c, h, NULL);

	memset(big, 0, sizeof(big));
	put_src4(big, RDMA_MCM_MAX_ENTRY_SIZE, 0, SRC_A, 0);
	put_src4(big, RDMA_MCM_MAX_ENTRY_SIZE, 1, SRC_B, 0);
	join_arg(&j, c, "239.5.21.8", big, 2, RDMA_MCM_MAX_ENTRY_SIZE);
	h = join_works(fd, &j, "JOIN with 2 sources of 4096 bytes (zero tails)");
	report(h && query_src(fd, c, h, 2, 0, NULL) &&
	       filter_inc("veth1", "239.5.21.8", SRC_A) == 1 &&
	       filter_inc("veth1", "239.5.21.8", SRC_B) == 1,
	       "... both in /proc/net/mcfilter");
	leave(fd, c, h, NULL);
	big[RDMA_MCM_MAX_ENTRY_SIZE + RDMA_MCM_MAX_ENTRY_SIZE - 1] = 1;
	join_fails(fd, &j, E2BIG,
		   "JOIN, 4096-byte sources, the last byte of the second not zero");
}

void test_source_errnos(void)
{
	uint32_t c;
	int fd = open_dev();

	printf("    # JOIN with sources: each errno\n");
	expect_errno(create_ctx(fd, SRC_ADDR, &c), 0, "CREATE_CTX in a new file");
	src_entry_errnos(fd, c);
	src_array_errnos(fd, c);
	src_ignored(fd, c);
	close(fd);
	report(filters_of("239.5.21.1") == 0 &&
	       filters_of("239.5.21.2") == 0 &&
	       filters_of("239.5.21.3") == 0 &&
	       filters_of("239.5.21.8") == 0,
	       "no filter of a failed or left join is in /proc/net/mcfilter");
}
