// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * mcm_abi_test, what the kernel writes into the caller's memory: every
 * buffer is filled with a pattern first (PAT, PAT2: no value the kernel
 * legitimately writes here has such a byte), so that a byte the kernel
 * owns but did not write shows up, as does a byte it wrote where it must
 * not.
 *  - read(): the event's 72 bytes are all written, nothing past them;
 *  - QUERY: the whole struct rdma_mcm_member;
 *  - LIST: each entry is the kernel's struct then zeros up to entry_size,
 *    nothing past count entries;
 *  - BATCH_JOIN/BATCH_LEAVE: only each entry's outputs, a failed entry
 *    (among them one whose own tail is not zero: -E2BIG) gets handle 0 or
 *    events_reported 0 and its result, the others run normally, and a
 *    batch that fails before its first entry writes done = 0 only.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mcm_abi.h"

#define PAT32		0xa5a5a5a5U
#define COOKIE		0x0102030405060708ULL
#define ESZ		256	/* a newer binary's batch entry */
#define NENT		6

/* The membership's group, as the kernel reports it: 239.6.x.y:0 */
static int is_group(const uint8_t *addr, const char *group)
{
	uint8_t want[RDMA_MCM_ADDR_SIZE];
	uint32_t len;

	set_v4(want, &len, group);
	return !memcmp(addr, want, sizeof(want));
}

/* MGID ::ffff:a.b.c.d of an IPv4 group on RoCE */
static int is_mgid(const uint8_t *mgid, const char *group)
{
	uint8_t want[16] = { [10] = 0xff, [11] = 0xff };

	inet_pton(AF_INET, group, want + 12);
	return !memcmp(mgid, want, 16);
}

/* read() one JOINED event into a buffer of @pat and check every byte */
static void check_joined_read(int fd, uint32_t ctx, uint32_t h,
			      uint64_t cookie, const char *group, uint8_t pat)
{
	uint8_t buf[100];
	struct rdma_mcm_event *ev = (void *)buf;
	ssize_t n;

	report(wait_readable(fd, 20000), "JOINED of %s is queued", group);
	memset(buf, pat, sizeof(buf));
	n = read(fd, buf, sizeof(buf));
	report(n == RDMA_MCM_EVENT_SIZE_VER0,
	       "read() of 100 bytes returns one 72-byte event (got %zd)", n);
	report(!has_byte(buf, RDMA_MCM_EVENT_SIZE_VER0, pat) && !ev->reserved,
	       "no byte of the event is left as the caller's 0x%02x, reserved is 0",
	       pat);
	report(all_bytes(buf + RDMA_MCM_EVENT_SIZE_VER0,
			 sizeof(buf) - RDMA_MCM_EVENT_SIZE_VER0, pat),
	       "the 28 bytes past the event are untouched");
	report(ev->event == RDMA_MCM_EVENT_JOINED && !ev->status &&
	       ev->ctx_id == ctx && ev->handle == h && ev->cookie == cookie &&
	       ev->qkey == 0x01234567 && !ev->mlid && ev->is_global &&
	       ev->port_num == 1 && is_mgid(ev->mgid, group) &&
	       !memcmp(ev->mgid, ev->dgid, 16),
	       "JOINED of %s: handle, context, cookie, Q_Key, MGID, DGID, port",
	       group);
	printf("    # JOINED %s: sl %u hop_limit %u flow_label %u traffic_class %u\n",
	       group, ev->sl, ev->hop_limit, ev->flow_label,
	       ev->traffic_class);
}

/*
 * read() and QUERY into buffers full of the caller's pattern: every byte
 * the kernel owns is written, nothing past it.
 */
void test_ext_outputs(int fd, uint32_t ctx)
{
	struct rdma_mcm_query q;
	uint32_t c, h, h2;
	int fo = open_dev();

	(void)fd;
	(void)ctx;
	printf("    # what read() and QUERY write\n");
	expect_errno(create_ctx(fo, SRC_ADDR, &c), 0, "CREATE_CTX in a new file");
	expect_errno(join(fo, c, "239.6.4.1", 0, COOKIE, &h), 0,
		     "JOIN 239.6.4.1");
	check_joined_read(fo, c, h, COOKIE, "239.6.4.1", PAT);
	expect_errno(join(fo, c, "239.6.4.2", 1, COOKIE + 1, &h2), 0,
		     "JOIN 239.6.4.2 send-only");
	check_joined_read(fo, c, h2, COOKIE + 1, "239.6.4.2", PAT2);

	memset(&q, PAT, sizeof(q));
	q.ctx_id = c;
	q.handle = h;
	expect_errno(ioctl(fo, RDMA_MCM_IOC_QUERY, &q), 0, "QUERY 239.6.4.1");
	report(!member_has_byte(&q.member, sizeof(q.member), PAT) &&
	       !q.member.reserved,
	       "QUERY leaves no byte of the caller's 0x%02x, reserved is 0", PAT);
	report(q.member.state == RDMA_MCM_STATE_JOINED && !q.member.status &&
	       q.member.handle == h && q.member.cookie == COOKIE &&
	       !q.member.join_flags && q.member.addr_len == 16 &&
	       is_group(q.member.addr, "239.6.4.1") &&
	       q.member.qkey == 0x01234567 && !q.member.mlid &&
	       q.member.events_reported == 1 &&
	       is_mgid(q.member.mgid, "239.6.4.1"),
	       "QUERY: joined, handle, cookie, flags, group, Q_Key, MGID, 1 event read");
	close(fo);
}

/* Wait until every membership of @ctx in @hs is joined (QUERY) */
static int all_joined(int fd, uint32_t ctx, const uint32_t *hs, int n)
{
	struct rdma_mcm_member m;
	double t0 = now();
	int i, done;

	do {
		for (i = 0, done = 0; i < n; i++)
			done += !query(fd, ctx, hs[i], &m) &&
				m.state == RDMA_MCM_STATE_JOINED;
		if (done == n)
			return 1;
		usleep(50000);
	} while (now() - t0 < 20);
	return 0;
}

/*
 * LIST with entries of the kernel's size, longer, and the longest: the
 * kernel's bytes, then zeros, and nothing past count entries.
 */
void test_ext_list(int fd, uint32_t ctx)
{
	static uint8_t buf[5 * 4096];
	uint8_t ref[3][sizeof(struct rdma_mcm_member)];
	const size_t msz = sizeof(struct rdma_mcm_member);
	struct rdma_mcm_list l;
	struct rdma_mcm_member *m;
	uint32_t c, hs[3];
	int fl = open_dev(), i, ok;

	(void)fd;
	(void)ctx;
	printf("    # LIST entry sizes\n");
	expect_errno(create_ctx(fl, SRC_ADDR, &c), 0, "CREATE_CTX in a new file");
	ok = !join(fl, c, "239.6.5.1", 1, COOKIE, &hs[0]) &&
	     !join(fl, c, "239.6.5.2", 1, COOKIE + 1, &hs[1]) &&
	     !join(fl, c, "239.6.5.3", 1, COOKIE + 2, &hs[2]);
	report(ok, "JOIN 239.6.5.1, .2, .3");
	report(all_joined(fl, c, hs, 3), "all three are joined (QUERY)");

	memset(buf, PAT, sizeof(buf));
	memset(&l, 0, sizeof(l));
	l.entries = (uintptr_t)buf;
	l.ctx_id = c;
	l.count = 4;
	l.entry_size = msz;
	expect_errno(ioctl(fl, RDMA_MCM_IOC_LIST, &l), 0,
		     "LIST, entry_size sizeof(struct rdma_mcm_member)");
	report(l.count == 3 && !l.next, "3 entries, walk complete (got %u, next %u)",
	       l.count, l.next);
	for (i = 0, ok = 1; i < 3; i++) {
		m = (void *)(buf + i * msz);
		ok &= !member_has_byte(m, msz, PAT) && !m->reserved &&
		      m->handle == hs[i] && m->cookie == COOKIE + i;
		memcpy(ref[i], m, msz);
	}
	report(ok, "each entry: handle and cookie, no byte left as 0x%02x, reserved 0",
	       PAT);
	report(all_bytes(buf + 3 * msz, sizeof(buf) - 3 * msz, PAT),
	       "nothing written past the 3 entries");

	memset(buf, PAT, sizeof(buf));
	l.start = 0;
	l.count = 4;
	l.entry_size = 256;
	expect_errno(ioctl(fl, RDMA_MCM_IOC_LIST, &l), 0, "LIST, entry_size 256");
	for (i = 0, ok = l.count == 3; i < 3; i++)
		ok &= !memcmp(buf + i * 256, ref[i], msz) &&
		      all_bytes(buf + i * 256 + msz, 256 - msz, 0);
	report(ok, "3 entries of 256 bytes: the kernel's %zu, then %zu zeros",
	       msz, 256 - msz);
	report(all_bytes(buf + 3 * 256, sizeof(buf) - 3 * 256, PAT),
	       "nothing written past the 3 entries of 256");

	memset(buf, PAT, sizeof(buf));
	l.count = 2;
	l.entry_size = RDMA_MCM_MAX_ENTRY_SIZE;
	expect_errno(ioctl(fl, RDMA_MCM_IOC_LIST, &l), 0, "LIST, entry_size 4096");
	for (i = 0, ok = l.count == 2 && l.next; i < 2; i++)
		ok &= !memcmp(buf + i * 4096, ref[i], msz) &&
		      all_bytes(buf + i * 4096 + msz, 4096 - msz, 0);
	report(ok, "a page of 2 entries of 4096 bytes: the kernel's %zu, then zeros",
	       msz);
	report(all_bytes(buf + 2 * 4096, sizeof(buf) - 2 * 4096, PAT),
	       "nothing written past the 2 entries of 4096");
	l.start = l.next;
	l.count = 2;
	memset(buf, PAT, sizeof(buf));
	expect_errno(ioctl(fl, RDMA_MCM_IOC_LIST, &l), 0, "LIST, the next page");
	report(l.count == 1 && !l.next && !memcmp(buf, ref[2], msz) &&
	       all_bytes(buf + msz, 4096 - msz, 0) &&
	       all_bytes(buf + 4096, sizeof(buf) - 4096, PAT),
	       "the last entry, then zeros, walk complete");
	close(fl);
}

/* ------------------------------------------------------------ batches */

static struct rdma_mcm_join_entry *jent(uint8_t (*e)[ESZ], int i)
{
	return (void *)e[i];
}

static struct rdma_mcm_leave_entry *lent(uint8_t (*e)[ESZ], int i)
{
	return (void *)e[i];
}

/* Entry @i of @e and @copy are equal but for [@off, @off + 8) */
static int same_but(uint8_t (*e)[ESZ], uint8_t (*copy)[ESZ], int i,
		    size_t off)
{
	return !memcmp(e[i], copy[i], off) &&
	       !memcmp(e[i] + off + 8, copy[i] + off + 8, ESZ - off - 8);
}

static void batch_joins(int fb, uint32_t c, uint8_t (*e)[ESZ],
			uint32_t *hs)
{
	static const int want[NENT] = { 0, 0, -E2BIG, 0, -EINVAL, 0 };
	uint8_t copy[NENT + 1][ESZ];
	struct rdma_mcm_batch b = { .ctx_id = c, .count = NENT,
				    .entry_size = ESZ, .done = PAT32 };
	struct rdma_mcm_join_entry *je;
	char group[32];
	int i, ok;

	memset(e, 0, (NENT + 1) * ESZ);
	for (i = 0; i < NENT; i++) {
		je = jent(e, i);
		je->cookie = COOKIE + i;
		je->join_flags = RDMA_MCM_JOIN_SENDONLY_FULLMEMBER;
		snprintf(group, sizeof(group), "239.6.6.%d", i + 1);
		set_v4(je->addr, &je->addr_len, group);
		memset(je->addr + 16, PAT2, sizeof(je->addr) - 16);
		je->handle = PAT32;
		je->result = (int32_t)PAT32;
	}
	e[2][ESZ - 1] = 1;		/* its own tail is not zero */
	jent(e, 4)->join_flags = 7;	/* bad flags */
	memset(e[NENT], PAT, ESZ);	/* past count */
	memcpy(copy, e, sizeof(copy));
	b.entries = (uintptr_t)e;
	expect_errno(ioctl(fb, RDMA_MCM_IOC_BATCH_JOIN, &b), 0,
		     "BATCH_JOIN of 6 entries of 256 bytes");
	report(b.done == NENT, "done is 6 (got %u)", b.done);
	for (i = 0; i < NENT; i++) {
		je = jent(e, i);
		note_errno(-je->result);
		ok = je->result == want[i] &&
		     (want[i] ? !je->handle :
		      je->handle && je->handle != PAT32) &&
		     same_but(e, copy, i, offsetof(struct rdma_mcm_join_entry,
						   handle));
		report(ok,
		       "join entry %d: result %d (got %d), handle %s, other bytes as written",
		       i, want[i], je->result, want[i] ? "0" : "set");
		hs[i] = je->handle;
	}
	report(!memcmp(e[NENT], copy[NENT], ESZ),
	       "the entry past count is untouched");
	report(list_has_group(fb, c, "239.6.6.3") == 0 &&
	       list_has_group(fb, c, "239.6.6.5") == 0 &&
	       list_has_group(fb, c, "239.6.6.4") == 1,
	       "the failed entries' groups are not joined, the one after is");
}

static void batch_leaves(int fb, uint32_t c, uint8_t (*e)[ESZ],
			 const uint32_t *hs)
{
	static const int want[NENT] = {
		0, 0, -E2BIG, -EADDRNOTAVAIL, -EINVAL, 0,
	};
	static const uint32_t reported[NENT] = { 1, 1, 0, 0, 0, 1 };
	uint8_t copy[NENT + 1][ESZ];
	struct rdma_mcm_batch b = { .ctx_id = c, .count = NENT,
				    .entry_size = ESZ, .done = PAT32 };
	struct rdma_mcm_leave_entry *le;
	struct rdma_mcm_member m;
	int i, ok;

	memset(e, 0, (NENT + 1) * ESZ);
	for (i = 0; i < NENT; i++) {
		le = lent(e, i);
		le->addr_len = PAT32;
		memset(le->addr, PAT2, sizeof(le->addr));
		le->result = (int32_t)PAT32;
		le->events_reported = PAT32;
	}
	lent(e, 0)->handle = hs[0];
	lent(e, 1)->flags = RDMA_MCM_LEAVE_BY_ADDR;
	lent(e, 1)->handle = PAT32;	/* not used by address */
	set_v4(lent(e, 1)->addr, &lent(e, 1)->addr_len, "239.6.6.2");
	memset(lent(e, 1)->addr + 16, PAT2, sizeof(lent(e, 1)->addr) - 16);
	lent(e, 2)->handle = hs[3];
	e[2][ESZ - 1] = 1;		/* its own tail is not zero */
	lent(e, 3)->handle = 0x7fffffff;
	lent(e, 4)->handle = hs[5];
	lent(e, 4)->reserved = 1;
	lent(e, 5)->handle = hs[5];
	memset(e[NENT], PAT, ESZ);
	memcpy(copy, e, sizeof(copy));
	b.entries = (uintptr_t)e;
	expect_errno(ioctl(fb, RDMA_MCM_IOC_BATCH_LEAVE, &b), 0,
		     "BATCH_LEAVE of 6 entries of 256 bytes");
	report(b.done == NENT, "done is 6 (got %u)", b.done);
	for (i = 0; i < NENT; i++) {
		le = lent(e, i);
		note_errno(-le->result);
		ok = le->result == want[i] &&
		     le->events_reported == reported[i] &&
		     same_but(e, copy, i, offsetof(struct rdma_mcm_leave_entry,
						   result));
		report(ok,
		       "leave entry %d: result %d (got %d), events_reported %u (got %u), other bytes as written",
		       i, want[i], le->result, reported[i],
		       le->events_reported);
	}
	report(!memcmp(e[NENT], copy[NENT], ESZ),
	       "the entry past count is untouched");
	report(!query(fb, c, hs[3], &m),
	       "the membership of the -E2BIG entry was not left");
	expect_errno(leave(fb, c, hs[3], NULL), 0, "LEAVE it");
}

/* A batch that fails before its first entry: done 0, nothing else */
static void batch_fails(int fb, uint32_t c, uint8_t (*e)[ESZ])
{
	static const struct {
		const char *what;
		uint32_t ctx_add, count, entry_size;
		int err;
	} cases[] = {
		{ "no such context", 1000, 1, ESZ, ENOENT },
		{ "65537 entries", 0, 65537, ESZ, EINVAL },
		{ "entry_size 151", 0, 1, 151, EINVAL },
		{ "entry_size 4097", 0, 1, 4097, E2BIG },
	};
	static const unsigned long nrs[] = {
		RDMA_MCM_IOC_BATCH_JOIN, RDMA_MCM_IOC_BATCH_LEAVE,
	};
	uint8_t copy[NENT + 1][ESZ];
	struct rdma_mcm_batch b, before;
	unsigned int i, k;
	const char *name;
	int ret, err;

	memset(e, PAT2, (NENT + 1) * ESZ);
	memcpy(copy, e, sizeof(copy));
	for (k = 0; k < 2; k++)
		for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
			b.entries = (uintptr_t)e;
			b.ctx_id = c + cases[i].ctx_add;
			b.count = cases[i].count;
			b.entry_size = cases[i].entry_size;
			b.done = PAT32;
			before = b;
			ret = ioctl(fb, nrs[k], &b);
			err = ret < 0 ? errno : 0;
			note_errno(err);
			name = k ? "BATCH_LEAVE" : "BATCH_JOIN";
			report(ret < 0 && err == cases[i].err && b.done == 0 &&
			       !memcmp(&b, &before, 20) &&
			       !memcmp(e, copy, sizeof(copy)),
			       "%s, %s: %s, done 0 (got %s, done 0x%x), nothing else written",
			       name, cases[i].what,
			       errname(cases[i].err), errname(err), b.done);
		}
}

/* The largest entry_size, 4096, works */
static void batch_max_entry(int fb, uint32_t c)
{
	static uint8_t e[2][4096];
	struct rdma_mcm_join_entry *je;
	struct rdma_mcm_leave_entry *le;
	struct rdma_mcm_batch b = { .entries = (uintptr_t)e, .ctx_id = c,
				    .count = 2, .entry_size = 4096 };
	uint32_t hs[2];
	int i;

	memset(e, 0, sizeof(e));
	for (i = 0; i < 2; i++) {
		je = (void *)e[i];
		je->join_flags = RDMA_MCM_JOIN_SENDONLY_FULLMEMBER;
		set_v4(je->addr, &je->addr_len, i ? "239.6.7.2" : "239.6.7.1");
	}
	expect_errno(ioctl(fb, RDMA_MCM_IOC_BATCH_JOIN, &b), 0,
		     "BATCH_JOIN of 2 entries of 4096 bytes");
	je = (void *)e[1];
	report(b.done == 2 && !((struct rdma_mcm_join_entry *)e[0])->result &&
	       !je->result && all_bytes(e[0] + 152, 4096 - 152, 0) &&
	       all_bytes(e[1] + 152, 4096 - 152, 0),
	       "both joined, their tails untouched");
	hs[0] = ((struct rdma_mcm_join_entry *)e[0])->handle;
	hs[1] = je->handle;
	memset(e, 0, sizeof(e));
	for (i = 0; i < 2; i++) {
		le = (void *)e[i];
		le->handle = hs[i];
	}
	b.done = 0;
	expect_errno(ioctl(fb, RDMA_MCM_IOC_BATCH_LEAVE, &b), 0,
		     "BATCH_LEAVE of 2 entries of 4096 bytes");
	report(b.done == 2 && !((struct rdma_mcm_leave_entry *)e[0])->result &&
	       !((struct rdma_mcm_leave_entry *)e[1])->result,
	       "both left");
}

/*
 * Odd sizes: entries of 153 bytes (every other one's u64 misaligned) in
 * a batch, members of 201 bytes (the second version's 200 and one: the
 * kernel's third version cut there) and 209 bytes (the third version's
 * 208 and one) in a LIST.
 */
static void list_odd(int fb, uint32_t c, uint8_t *e, size_t len,
		     uint32_t esz, const uint32_t *hs)
{
	const size_t msz = sizeof(struct rdma_mcm_member);
	const size_t n = esz < msz ? esz : msz;
	struct rdma_mcm_list l = { .entries = (uintptr_t)e, .ctx_id = c,
				   .count = 4, .entry_size = esz };
	struct rdma_mcm_member m;
	char what[64];
	int i, ok;

	memset(e, PAT, len);
	snprintf(what, sizeof(what), "LIST, entry_size %u", esz);
	expect_errno(ioctl(fb, RDMA_MCM_IOC_LIST, &l), 0, what);
	for (i = 0, ok = l.count == 3 && !l.next; i < 3; i++) {
		memset(&m, 0, sizeof(m));
		memcpy(&m, e + i * esz, n);
		ok &= m.handle == hs[i] && m.cookie == COOKIE + i &&
		      !member_has_byte(&m, n, PAT) &&
		      all_bytes(e + i * esz + n, esz - n, 0);
	}
	report(ok && all_bytes(e + 3 * esz, len - 3 * esz, PAT),
	       "3 members of %u bytes: the first %zu of the kernel's %zu, %zu zeros, nothing past them",
	       esz, n, msz, esz - n);
}

static void batch_odd_entry(int fb, uint32_t c)
{
	static uint8_t e[3 * 209 + 64];
	struct rdma_mcm_join_entry je;
	struct rdma_mcm_leave_entry le;
	struct rdma_mcm_batch b = { .entries = (uintptr_t)e, .ctx_id = c,
				    .count = 3, .entry_size = 153 };
	uint32_t hs[3];
	char group[32];
	int i, ok;

	memset(e, PAT, sizeof(e));
	for (i = 0; i < 3; i++) {
		memset(&je, 0, sizeof(je));
		je.cookie = COOKIE + i;
		je.join_flags = RDMA_MCM_JOIN_SENDONLY_FULLMEMBER;
		snprintf(group, sizeof(group), "239.6.7.%d", i + 11);
		set_v4(je.addr, &je.addr_len, group);
		memcpy(e + i * 153, &je, 153);
	}
	expect_errno(ioctl(fb, RDMA_MCM_IOC_BATCH_JOIN, &b), 0,
		     "BATCH_JOIN of 3 entries of 153 bytes");
	for (i = 0, ok = b.done == 3; i < 3; i++) {
		memset(&je, 0, sizeof(je));
		memcpy(&je, e + i * 153, 153);
		ok &= !je.result && je.handle && je.cookie == COOKIE + i &&
		      !e[i * 153 + 152];
		hs[i] = je.handle;
	}
	report(ok && all_bytes(e + 3 * 153, sizeof(e) - 3 * 153, PAT),
	       "each joined at its 153-byte offset, nothing written past them");

	list_odd(fb, c, e, sizeof(e), 201, hs);
	list_odd(fb, c, e, sizeof(e), 209, hs);

	memset(e, 0, sizeof(e));
	for (i = 0; i < 3; i++) {
		memset(&le, 0, sizeof(le));
		le.handle = hs[i];
		memcpy(e + i * 153, &le, sizeof(le));
	}
	b.done = 0;
	expect_errno(ioctl(fb, RDMA_MCM_IOC_BATCH_LEAVE, &b), 0,
		     "BATCH_LEAVE of 3 entries of 153 bytes");
	for (i = 0, ok = b.done == 3; i < 3; i++) {
		memcpy(&le, e + i * 153, sizeof(le));
		ok &= !le.result && le.handle == hs[i];
	}
	report(ok, "each left");
}

/* Read the JOINED events of @n memberships (20 s at most) */
static int read_joined(int fd, int n)
{
	struct rdma_mcm_event ev;
	double t0 = now();
	int got = 0;

	while (got < n && now() - t0 < 20) {
		if (!wait_readable(fd, 1000))
			continue;
		if (read(fd, &ev, sizeof(ev)) == sizeof(ev) &&
		    ev.event == RDMA_MCM_EVENT_JOINED)
			got++;
	}
	return got == n;
}

void test_ext_batches(int fd, uint32_t ctx)
{
	static uint8_t e[NENT + 1][ESZ];
	uint32_t c, hs[NENT];
	int fb = open_dev();

	(void)fd;
	(void)ctx;
	printf("    # batch entries: only their outputs are written\n");
	expect_errno(create_ctx(fb, SRC_ADDR, &c), 0, "CREATE_CTX in a new file");
	batch_joins(fb, c, e, hs);
	report(read_joined(fb, 4), "the 4 joined entries' JOINED events are read");
	batch_leaves(fb, c, e, hs);
	batch_fails(fb, c, e);
	batch_max_entry(fb, c);
	batch_odd_entry(fb, c);
	close(fb);
}
