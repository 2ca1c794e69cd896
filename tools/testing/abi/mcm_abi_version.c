// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * mcm_abi_test: the second version of JOIN (sources) and the third of
 * struct rdma_mcm_member (nr_sources, flags), as a binary sees them:
 *
 *  - the structs' sizes: this header's and the previous one's;
 *  - VERSION reports the features SOURCES and IPV6_ROCE;
 *  - an old binary (structs of the previous header: 152-byte JOIN and
 *    join entries, 200-byte members) works unchanged: nothing after its
 *    JOIN is read as sources, exactly 200 bytes of each member are
 *    written (QUERY, LIST), the caller's bytes after them untouched.
 */
#include <assert.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "mcm_abi.h"

/* ------------------------------------------------------ the old header */

/* What a binary built against the previous header passes. */
struct old_join {
	__aligned_u64 cookie;
	__u32 ctx_id;
	__u32 join_flags;
	__u32 addr_len;
	__u32 handle;
	__u8 addr[RDMA_MCM_ADDR_SIZE];
};

struct old_member {
	__aligned_u64 cookie;
	__u32 handle;
	__u32 state;
	__s32 status;
	__u32 join_flags;
	__u32 addr_len;
	__u32 qkey;
	__u16 mlid;
	__u16 reserved;
	__u32 events_reported;
	__u8 mgid[16];
	__u8 addr[RDMA_MCM_ADDR_SIZE];
	__u32 rejoins;
	__s32 last_status;
	__aligned_u64 state_time_ns;
};

struct old_query {
	__u32 ctx_id;
	__u32 handle;
	struct old_member member;
};

static_assert(sizeof(struct old_join) == RDMA_MCM_JOIN_SIZE_VER0, "old join");
static_assert(sizeof(struct old_member) == 200, "old member");
static_assert(sizeof(struct old_query) == 208, "old query");
static_assert(sizeof(struct rdma_mcm_join) == 168, "join");
static_assert(sizeof(struct rdma_mcm_join_entry) == 168, "join entry");
static_assert(sizeof(struct rdma_mcm_member) == 208, "member");
static_assert(sizeof(struct rdma_mcm_source) == RDMA_MCM_SOURCE_SIZE_VER0,
	      "source");

#define OLD_IOC_JOIN	_IOWR(RDMA_MCM_IOCTL_MAGIC, 0x03, struct old_join)
#define OLD_IOC_QUERY	_IOWR(RDMA_MCM_IOCTL_MAGIC, 0x05, struct old_query)

/* ------------------------------------------------------------ VERSION */

void test_features(int fd)
{
	struct rdma_mcm_version v;
	const uint32_t want = RDMA_MCM_FEATURE_SOURCES |
			      RDMA_MCM_FEATURE_IPV6_ROCE;

	memset(&v, PAT, sizeof(v));
	expect_errno(ioctl(fd, RDMA_MCM_IOC_VERSION, &v), 0,
		     "VERSION into a pattern");
	report(v.abi_version == RDMA_MCM_ABI_VERSION && v.features == want,
	       "VERSION: ABI %u, features SOURCES | IPV6_ROCE (0x%x; got %u, 0x%x)",
	       RDMA_MCM_ABI_VERSION, want, v.abi_version, v.features);
}

/* -------------------------------------------------------- old binaries */

/*
 * A binary built against the previous header: its 152-byte JOIN works
 * whatever follows it in memory (nothing there is read as sources), its
 * 208-byte QUERY gets exactly the 200 bytes of its member, its LIST of
 * 200-byte entries exactly 200 bytes each.
 */
void test_old_binary(void)
{
	const size_t msz = sizeof(struct rdma_mcm_member);
	static uint8_t buf[4 * 256];
	struct old_join *oj;
	struct old_query *oq;
	struct rdma_mcm_list l;
	struct rdma_mcm_member m = { 0 };
	uint32_t c, h1, h2;
	uint8_t *page;
	int fd = open_dev(), ok, i;

	printf("    # an old binary: JOIN of 152 bytes, members of 200\n");
	expect_errno(create_ctx(fd, SRC_ADDR, &c), 0, "CREATE_CTX in a new file");

	/* a 152-byte JOIN with a pattern after it: the pattern is no source */
	page = guarded_page();
	memset(page, PAT, 4096);
	oj = (struct old_join *)(page + 4096 - 256);
	memset(oj, 0, sizeof(*oj));
	oj->ctx_id = c;
	oj->cookie = 11;
	oj->handle = PAT32;
	set_v4(oj->addr, &oj->addr_len, "239.5.30.1");
	expect_errno(ioctl(fd, OLD_IOC_JOIN, oj), 0,
		     "an old binary's 152-byte JOIN, 0xa5 bytes after it");
	h1 = oj->handle;
	report(h1 && h1 != PAT32 &&
	       all_bytes(page + 4096 - 256 + sizeof(*oj),
			 256 - sizeof(*oj), PAT),
	       "... handle %u written, nothing after the 152 bytes", h1);
	report(query_src(fd, c, h1, 0, 0, NULL),
	       "... an any-source join: QUERY says nr_sources 0, flags 0");
	/* the same at the very end of the page: nothing past it is touched */
	oj = (struct old_join *)(page + 4096 - sizeof(*oj));
	memset(oj, 0, sizeof(*oj));
	oj->ctx_id = c;
	oj->cookie = 12;
	oj->join_flags = RDMA_MCM_JOIN_SENDONLY_FULLMEMBER;
	set_v4(oj->addr, &oj->addr_len, "239.5.30.2");
	expect_errno(ioctl(fd, OLD_IOC_JOIN, oj), 0,
		     "an old binary's 152-byte JOIN that ends at a PROT_NONE page");
	h2 = oj->handle;

	/* QUERY of 208 bytes (a 200-byte member), a pattern after it */
	memset(buf, PAT, sizeof(buf));
	oq = (struct old_query *)buf;
	oq->ctx_id = c;
	oq->handle = h1;
	expect_errno(ioctl(fd, OLD_IOC_QUERY, oq), 0,
		     "an old binary's 208-byte QUERY");
	report(oq->member.handle == h1 && oq->member.cookie == 11 &&
	       !member_has_byte(&oq->member, sizeof(oq->member), PAT) &&
	       all_bytes(buf + sizeof(*oq), sizeof(buf) - sizeof(*oq), PAT),
	       "... its 200-byte member written whole, not one byte after it");
	/* and at the end of a page before a PROT_NONE one */
	oq = (struct old_query *)(page + 4096 - sizeof(*oq));
	memset(oq, PAT, sizeof(*oq));
	oq->ctx_id = c;
	oq->handle = h2;
	expect_errno(ioctl(fd, OLD_IOC_QUERY, oq), 0,
		     "an old binary's QUERY that ends at a PROT_NONE page");
	report(oq->member.handle == h2 && oq->member.cookie == 12,
	       "... the member of the send-only join");

	/* LIST of 200-byte entries */
	memset(buf, PAT, sizeof(buf));
	memset(&l, 0, sizeof(l));
	l.entries = (uintptr_t)buf;
	l.ctx_id = c;
	l.count = 4;
	l.entry_size = 200;
	expect_errno(ioctl(fd, RDMA_MCM_IOC_LIST, &l), 0,
		     "LIST of 200-byte entries (the second version's)");
	for (i = 0, ok = l.count == 2 && !l.next; i < 2; i++) {
		memset(&m, 0, sizeof(m));
		memcpy(&m, buf + i * 200, 200);
		ok &= (m.handle == h1 || m.handle == h2) &&
		      !member_has_byte(&m, 200, PAT);
	}
	report(ok && all_bytes(buf + 400, sizeof(buf) - 400, PAT),
	       "... 2 entries of exactly 200 bytes, nothing after them (count %u)",
	       l.count);
	memset(buf, PAT, sizeof(buf));
	l.count = 4;
	l.entry_size = RDMA_MCM_MEMBER_SIZE_VER0;
	expect_errno(ioctl(fd, RDMA_MCM_IOC_LIST, &l), 0,
		     "LIST of 184-byte entries (the first version's)");
	report(l.count == 2 && all_bytes(buf + 368, sizeof(buf) - 368, PAT) &&
	       !has_byte(buf, 368, PAT),
	       "... 2 entries of 184 bytes, nothing after them");
	memset(buf, PAT, sizeof(buf));
	l.count = 4;
	l.entry_size = msz;
	expect_errno(ioctl(fd, RDMA_MCM_IOC_LIST, &l), 0,
		     "LIST of 208-byte entries (this header's)");
	for (i = 0, ok = l.count == 2; i < 2; i++) {
		memcpy(&m, buf + i * msz, msz);
		ok &= !member_has_byte(&m, msz, PAT) && !m.nr_sources &&
		      !m.flags;
	}
	report(ok && all_bytes(buf + 2 * msz, sizeof(buf) - 2 * msz, PAT),
	       "... nr_sources and flags written (0: IPv4, any source)");
	munmap(page, 8192);
	close(fd);
}
