// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * mcm_abi_test: source-specific IPv4 joins, as the kernel makes them.
 *
 *  - a source-specific IPv4 join makes the IGMPv3 filter on veth1, as
 *    /proc/net/mcfilter shows it (the kernel builds the socket option in
 *    the caller's layout: from the 32-bit build, through compat), and
 *    leave, a second file's leave, DESTROY_CTX and close take back
 *    exactly their part; QUERY and LIST report nr_sources and flags;
 *  - BATCH_JOIN with 168-byte entries carrying sources (a result each),
 *    152-byte entries (any source), 160-byte ones (the sources pointer but
 *    not nr_sources: any source), 256-byte ones (zero tail or E2BIG).
 *
 * Every errno of a join with sources: mcm_abi_src_errno.c.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "mcm_abi.h"

/* ------------------------------------------------------------ filters */

/*
 * A source-specific IPv4 join is an IGMPv3 INCLUDE filter on veth1
 * (/proc/net/mcfilter); a second file's join of the group with a source
 * of the first adds to its count; each leave, DESTROY_CTX and close
 * takes back its own part.
 */
void test_source_filter(void)
{
	const uint32_t S = RDMA_MCM_SOURCE_SIZE_VER0;
	static uint8_t s2[2 * 200];
	struct rdma_mcm_member m = { 0 };
	struct rdma_mcm_join j;
	uint32_t c, c2, h, h2, any;
	int fd = open_dev(), fd2 = open_dev(), ok;

	printf("    # a source-specific join in /proc/net/mcfilter (%zu-bit process)\n",
	       sizeof(void *) * 8);
	ok = !create_ctx(fd, SRC_ADDR, &c) && !create_ctx(fd2, SRC_ADDR, &c2);
	report(ok, "two files, a context each on %s (veth1)", SRC_ADDR);
	memset(sarr, 0, sizeof(sarr));
	put_src4(sarr, S, 0, SRC_A, 4791);	/* the port is ignored */
	put_src4(sarr, S, 1, SRC_B, 0);
	join_arg(&j, c, "239.5.20.1", sarr, 2, S);
	j.cookie = 21;
	h = join_works(fd, &j, "JOIN 239.5.20.1 with sources 192.0.2.1 and 198.51.100.7");
	report(filter_inc("veth1", "239.5.20.1", SRC_A) == 1 &&
	       filter_inc("veth1", "239.5.20.1", SRC_B) == 1 &&
	       filters_of("239.5.20.1") == 2,
	       "/proc/net/mcfilter: veth1 0xef051401 includes 0xc0000201 and 0xc6336407, once each");
	report(igmp_on("veth1", "239.5.20.1") == 1,
	       "/proc/net/igmp lists 011405EF on veth1");
	report(query_src(fd, c, h, 2, 0, &m),
	       "QUERY: nr_sources 2, flags 0 (got %u, 0x%x)", m.nr_sources,
	       m.flags);
	report(joined_event(fd, h, NULL), "its JOINED event is read");
	report(query_src(fd, c, h, 2, 0, &m) &&
	       m.state == RDMA_MCM_STATE_JOINED,
	       "QUERY: joined, nr_sources 2, flags 0");
	expect_errno(join(fd, c, "239.5.20.2", 0, 22, &any), 0,
		     "JOIN 239.5.20.2, any source");
	report(list_cookie(fd, c, 21, &m) && m.nr_sources == 2 && !m.flags &&
	       list_cookie(fd, c, 22, &m) && !m.nr_sources && !m.flags,
	       "LIST: nr_sources 2 and 0, flags 0 and 0");
	report(filters_of("239.5.20.2") == 0,
	       "... the any-source join has no filter entry");

	/* a second file: 200-byte entries, one source of the first */
	memset(s2, 0, sizeof(s2));
	put_src4(s2, 200, 0, SRC_A, 0);
	join_arg(&j, c2, "239.5.20.1", s2, 1, 200);
	h2 = join_works(fd2, &j,
			"a second file joins 239.5.20.1 with 192.0.2.1 (200-byte sources)");
	report(filter_inc("veth1", "239.5.20.1", SRC_A) == 2 &&
	       filter_inc("veth1", "239.5.20.1", SRC_B) == 1,
	       "... 192.0.2.1 counted twice, 198.51.100.7 once (INC %ld and %ld)",
	       filter_inc("veth1", "239.5.20.1", SRC_A),
	       filter_inc("veth1", "239.5.20.1", SRC_B));
	expect_errno(leave(fd2, c2, h2, NULL), 0, "the second file leaves");
	report(filter_inc("veth1", "239.5.20.1", SRC_A) == 1 &&
	       filter_inc("veth1", "239.5.20.1", SRC_B) == 1,
	       "... its part is taken back, the first's stays (INC %ld and %ld)",
	       filter_inc("veth1", "239.5.20.1", SRC_A),
	       filter_inc("veth1", "239.5.20.1", SRC_B));
	expect_errno(leave(fd, c, h, NULL), 0, "LEAVE the first");
	report(filters_of("239.5.20.1") == 0 &&
	       igmp_on("veth1", "239.5.20.1") == 0,
	       "... 239.5.20.1 is in neither /proc/net/mcfilter nor /proc/net/igmp");

	join_arg(&j, c2, "239.5.20.3", sarr, 2, S);
	h2 = join_works(fd2, &j, "JOIN 239.5.20.3 with 2 sources");
	report(h2 && filters_of("239.5.20.3") == 2, "... in /proc/net/mcfilter");
	expect_errno(destroy_ctx(fd2, c2), 0, "DESTROY_CTX of its context");
	report(filters_of("239.5.20.3") == 0, "... its filter is gone");
	expect_errno(create_ctx(fd2, SRC_ADDR, &c2), 0, "CREATE_CTX again");
	join_arg(&j, c2, "239.5.20.4", sarr, 2, S);
	h2 = join_works(fd2, &j, "JOIN 239.5.20.4 with 2 sources");
	report(h2 && filters_of("239.5.20.4") == 2, "... in /proc/net/mcfilter");
	close(fd2);
	report(filters_of("239.5.20.4") == 0 &&
	       igmp_on("veth1", "239.5.20.4") == 0,
	       "close() takes its filter and its IGMP membership away");
	close(fd);
	report(igmp_on("veth1", "239.5.20.2") == 0,
	       "the first file's close takes its any-source join away");
}

/* ------------------------------------------------------------ batches */

struct bcase {
	const char *group;
	uint32_t flags;
	int nsrc;		/* sources 10.9.0.x, or: */
	int kind;
	int want;
};

enum { K_GOOD, K_MCAST, K_MANY, K_TAIL, K_NULL, K_GARBAGE, K_BIG, K_UNIX };

#define MSF		"/proc/sys/net/ipv4/igmp_max_msf"

/*
 * Entries of @esz bytes carrying sources: a result each. Entry 6 has one
 * source more than net.ipv4.igmp_max_msf (read, not assumed: Debian's
 * default is 10) allows: ENOBUFS. A host whose limit is at the ABI's
 * most or above has it lowered to RDMA_MCM_MAX_SOURCES - 1 for the batch.
 */
static void batch_sources(int fd, uint32_t c, uint32_t esz)
{
	struct bcase bc[] = {
		{ "239.5.22.1", 0, 2, K_GOOD, 0 },
		{ "239.5.22.2", 0, 1, K_MCAST, -EINVAL },
		{ "239.5.22.3", 0, 65, K_MANY, -EINVAL },
		{ "239.5.22.4", 1, 1, K_GOOD, -EINVAL },
		{ "239.5.22.5", 0, 1, K_TAIL, -E2BIG },
		{ "239.5.22.6", 0, 1, K_NULL, -EFAULT },
		{ "239.5.22.7", 0, 0, K_GOOD, -ENOBUFS },	/* nsrc: below */
		{ "239.5.22.8", 0, 0, K_GARBAGE, 0 },
		{ "239.5.22.9", 0, 1, K_BIG, 0 },
		{ "239.5.22.1", 0, 1, K_GOOD, -EADDRINUSE },
		{ "239.5.22.10", 0, 1, K_UNIX, -EAFNOSUPPORT },
	};
	enum { N = sizeof(bc) / sizeof(bc[0]) };
	static uint8_t e[(N + 1) * 256], copy[(N + 1) * 256];
	static uint8_t srcs[N][65 * 200];
	const uint32_t S = RDMA_MCM_SOURCE_SIZE_VER0;
	struct rdma_mcm_batch b = { .ctx_id = c, .count = N,
				    .entry_size = esz, .done = PAT32 };
	struct rdma_mcm_leave_entry le[N];
	struct rdma_mcm_join_entry *je;
	struct rdma_mcm_member m = { 0 };
	struct sockaddr_un sun = { .sun_family = AF_UNIX };
	long msf = read_long(MSF), was = msf;
	int i, ok, left;
	size_t off;

	printf("    # BATCH_JOIN of %u-byte entries with sources\n", esz);
	if (msf >= RDMA_MCM_MAX_SOURCES) {
		msf = RDMA_MCM_MAX_SOURCES - 1;
		report(!write_long(MSF, msf),
		       "igmp_max_msf %ld lowered to %ld for the batch", was, msf);
	}
	report(msf > 0, "net.ipv4.igmp_max_msf is %ld: entry 6 has %ld sources",
	       msf, msf + 1);
	bc[6].nsrc = (int)msf + 1;
	memset(e, 0, sizeof(e));
	memset(srcs, 0, sizeof(srcs));
	for (i = 0; i < N; i++) {
		je = (void *)(e + i * esz);
		je->cookie = 300 + i;
		je->join_flags = bc[i].flags;
		set_v4(je->addr, &je->addr_len, bc[i].group);
		je->handle = PAT32;
		je->result = (int32_t)PAT32;
		je->nr_sources = bc[i].nsrc;
		je->source_size = bc[i].kind == K_TAIL ? 144 :
				  bc[i].kind == K_BIG ? 200 : S;
		je->sources = (uintptr_t)srcs[i];
		put_many4(srcs[i], je->source_size, bc[i].nsrc);
		switch (bc[i].kind) {
		case K_MCAST:
			put_src4(srcs[i], S, 0, "239.9.9.9", 0);
			break;
		case K_TAIL:
			srcs[i][140] = 1;
			break;
		case K_NULL:
			je->sources = 0;
			break;
		case K_GARBAGE:
			je->sources = (uintptr_t)unmapped_page();
			je->source_size = 1;
			break;
		case K_UNIX:
			memset(srcs[i], 0, S);
			memcpy(src_at(srcs[i], S, 0)->addr, &sun,
			       sizeof(sun.sun_family));
			src_at(srcs[i], S, 0)->addr_len = sizeof(sun);
			break;
		}
	}
	memset(e + N * esz, PAT, esz);
	memcpy(copy, e, sizeof(copy));
	b.entries = (uintptr_t)e;
	expect_errno(ioctl(fd, RDMA_MCM_IOC_BATCH_JOIN, &b), 0,
		     esz == 168 ? "BATCH_JOIN of 11 entries of 168 bytes" :
				  "BATCH_JOIN of 11 entries of 256 bytes");
	report(b.done == N, "done is %d (got %u)", N, b.done);
	off = offsetof(struct rdma_mcm_join_entry, handle);
	for (i = 0; i < N; i++) {
		je = (void *)(e + i * esz);
		note_errno(-je->result);
		ok = je->result == bc[i].want &&
		     (bc[i].want ? !je->handle :
		      je->handle && je->handle != PAT32) &&
		     !memcmp(e + i * esz, copy + i * esz, off) &&
		     !memcmp(e + i * esz + off + 8, copy + i * esz + off + 8,
			     esz - off - 8);
		report(ok, "entry %d (%s, %d sources): result %d (got %d), only outputs written",
		       i, bc[i].group, bc[i].nsrc, bc[i].want,
		       je->result);
	}
	report(!memcmp(e + N * esz, copy + N * esz, esz),
	       "the entry past count is untouched");
	if (msf != was)
		report(!write_long(MSF, was) && read_long(MSF) == was,
		       "igmp_max_msf set back to %ld", was);
	je = (void *)e;
	report(filter_inc("veth1", "239.5.22.1", "10.9.0.1") == 1 &&
	       filter_inc("veth1", "239.5.22.1", "10.9.0.2") == 1 &&
	       filter_inc("veth1", "239.5.22.9", "10.9.0.1") == 1 &&
	       filters_of("239.5.22.8") == 0 &&
	       filters_of("239.5.22.7") == 0,
	       "/proc/net/mcfilter: the filters of entries 0 and 8, none of the others");
	report(list_cookie(fd, c, 300, &m) && m.nr_sources == 2 &&
	       list_cookie(fd, c, 307, &m) && m.nr_sources == 0 &&
	       list_cookie(fd, c, 308, &m) && m.nr_sources == 1 &&
	       !list_cookie(fd, c, 306, &m),
	       "LIST: nr_sources 2, 0 and 1 for the joined entries, no failed one");

	memset(le, 0, sizeof(le));
	for (i = 0, left = 0; i < N; i++)
		if (!bc[i].want)
			le[left++].handle = ((struct rdma_mcm_join_entry *)
					     (e + i * esz))->handle;
	b.entries = (uintptr_t)le;
	b.count = left;
	b.entry_size = sizeof(le[0]);
	expect_errno(ioctl(fd, RDMA_MCM_IOC_BATCH_LEAVE, &b), 0,
		     "BATCH_LEAVE of the joined");
	for (i = 0, ok = b.done == (uint32_t)left; i < left; i++)
		ok &= !le[i].result;
	report(ok && filters_of("239.5.22.1") == 0 &&
	       filters_of("239.5.22.9") == 0,
	       "... all left, no filter left in /proc/net/mcfilter");
}

/* Entries of 152 and 160 bytes: no sources, whatever follows them */
static void batch_old_entries(int fd, uint32_t c)
{
	static uint8_t e[3 * 160];
	struct rdma_mcm_join_entry je;
	struct rdma_mcm_batch b = { .ctx_id = c, .count = 2, .done = PAT32,
				    .entries = (uintptr_t)e };
	struct rdma_mcm_member m = { 0 };
	uint32_t hs[4], esz;
	int i, k = 0;

	for (esz = 152; esz <= 160; esz += 8) {
		memset(e, PAT, sizeof(e));
		for (i = 0; i < 2; i++) {
			memset(&je, 0, sizeof(je));
			je.cookie = 400 + esz + i;
			je.join_flags = i;
			set_v4(je.addr, &je.addr_len,
			       esz == 152 ? (i ? "239.5.23.2" : "239.5.23.1") :
					    (i ? "239.5.23.4" : "239.5.23.3"));
			/* a 160-byte entry has the pointer, not nr_sources */
			je.sources = (uintptr_t)unmapped_page();
			memcpy(e + i * esz, &je, esz);
		}
		b.entry_size = esz;
		b.done = PAT32;
		expect_errno(ioctl(fd, RDMA_MCM_IOC_BATCH_JOIN, &b), 0,
			     esz == 152 ?
			     "BATCH_JOIN of 2 entries of 152 bytes (the first version's)" :
			     "BATCH_JOIN of 2 entries of 160 bytes (a sources pointer, no nr_sources)");
		for (i = 0; i < 2; i++) {
			memcpy(&je, e + i * esz, esz);
			hs[k++] = je.handle;
			report(!je.result && je.handle &&
			       list_cookie(fd, c, 400 + esz + i, &m) &&
			       !m.nr_sources && m.join_flags == (uint32_t)i,
			       "... entry %d joined any source (result %d, nr_sources %u)",
			       i, je.result, m.nr_sources);
		}
		report(all_bytes(e + 2 * esz, sizeof(e) - 2 * esz, PAT),
		       "... nothing written past the 2 entries");
	}
	for (i = 0; i < k; i++)
		leave(fd, c, hs[i], NULL);
}

void test_source_batches(void)
{
	uint32_t c;
	int fd = open_dev();

	expect_errno(create_ctx(fd, SRC_ADDR, &c), 0, "CREATE_CTX in a new file");
	batch_sources(fd, c, sizeof(struct rdma_mcm_join_entry));
	batch_sources(fd, c, 256);
	batch_old_entries(fd, c);
	close(fd);
}
