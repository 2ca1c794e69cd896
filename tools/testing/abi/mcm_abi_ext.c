// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * mcm_abi_test, extensibility and the caller's bytes:
 *  - every command takes its argument from its first version's size up:
 *    shorter is EINVAL, longer with a non-zero tail E2BIG (and nothing is
 *    done), longer with a zero tail works and the kernel writes nothing
 *    beyond its own size (the tail sits on a read-only page);
 *  - a failing non-batch command writes nothing back, whatever the errno;
 *  - what the kernel writes (events, QUERY, LIST entries, batch outputs)
 *    leaves no byte of the caller's fill pattern: nothing uninitialised
 *    reaches the caller, and reserved fields are zero;
 *  - batch entries: only their outputs are written, an entry with a
 *    non-zero tail fails alone with -E2BIG, and a batch that fails before
 *    its first entry says done = 0.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "mcm_abi.h"

#define TAIL		64	/* a newer binary's extra bytes */
#define ARGMAX		512	/* room for any argument and its tail */
#define PAT32		0xa5a5a5a5U
#define COOKIE		0x0102030405060708ULL	/* no byte is PAT or PAT2 */

struct cmd {
	const char *name;
	unsigned long nr;
	size_t size;		/* the kernel's size, as this header says */
	size_t ver0;
};

static const struct cmd cmds[] = {
	{ "VERSION", RDMA_MCM_IOC_VERSION, sizeof(struct rdma_mcm_version),
	  RDMA_MCM_VERSION_SIZE_VER0 },
	{ "CREATE_CTX", RDMA_MCM_IOC_CREATE_CTX,
	  sizeof(struct rdma_mcm_create_ctx), RDMA_MCM_CREATE_CTX_SIZE_VER0 },
	{ "DESTROY_CTX", RDMA_MCM_IOC_DESTROY_CTX,
	  sizeof(struct rdma_mcm_destroy_ctx),
	  RDMA_MCM_DESTROY_CTX_SIZE_VER0 },
	{ "JOIN", RDMA_MCM_IOC_JOIN, sizeof(struct rdma_mcm_join),
	  RDMA_MCM_JOIN_SIZE_VER0 },
	{ "LEAVE", RDMA_MCM_IOC_LEAVE, sizeof(struct rdma_mcm_leave),
	  RDMA_MCM_LEAVE_SIZE_VER0 },
	{ "QUERY", RDMA_MCM_IOC_QUERY, sizeof(struct rdma_mcm_query),
	  RDMA_MCM_QUERY_SIZE_VER0 },
	{ "LIST", RDMA_MCM_IOC_LIST, sizeof(struct rdma_mcm_list),
	  RDMA_MCM_LIST_SIZE_VER0 },
	{ "BATCH_JOIN", RDMA_MCM_IOC_BATCH_JOIN, sizeof(struct rdma_mcm_batch),
	  RDMA_MCM_BATCH_SIZE_VER0 },
	{ "BATCH_LEAVE", RDMA_MCM_IOC_BATCH_LEAVE,
	  sizeof(struct rdma_mcm_batch), RDMA_MCM_BATCH_SIZE_VER0 },
	{ "SET_EVENTS", RDMA_MCM_IOC_SET_EVENTS,
	  sizeof(struct rdma_mcm_set_events), RDMA_MCM_SET_EVENTS_SIZE_VER0 },
	{ "QUERY_CTX", RDMA_MCM_IOC_QUERY_CTX,
	  sizeof(struct rdma_mcm_query_ctx), RDMA_MCM_QUERY_CTX_SIZE_VER0 },
};

/*
 * The structs that grew since their first version, and the size this
 * header has: QUERY's member gained rejoins, last_status, state_time_ns
 * (16 bytes), then nr_sources and flags (8); JOIN gained sources,
 * nr_sources and source_size (16).
 */
static size_t header_size(const struct cmd *c)
{
	if (c->nr == RDMA_MCM_IOC_QUERY)
		return RDMA_MCM_QUERY_SIZE_VER0 + 16 + 8;
	if (c->nr == RDMA_MCM_IOC_JOIN)
		return RDMA_MCM_JOIN_SIZE_VER0 + 16;
	return c->ver0;
}

/*
 * A fresh argument of @size bytes ending where a read-only page of
 * @tail_byte begins: the kernel may read a tail there, a write past
 * @size faults (EFAULT). Freed with tail_free().
 */
static uint8_t *tail_arg(size_t size, int tail_byte)
{
	uint8_t *p = mmap(NULL, 8192, PROT_READ | PROT_WRITE,
			  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED) {
		perror("mmap");
		exit(1);
	}
	memset(p + 4096, tail_byte, 4096);
	mprotect(p + 4096, 4096, PROT_READ);
	return p + 4096 - size;
}

static void tail_free(uint8_t *arg, size_t size)
{
	munmap(arg + size - 4096, 8192);
}

/*
 * Run @nr on a copy of @arg at @size bytes and at @size + 32 (zero tail):
 * each must fail with @want and leave every byte as it was.
 */
static void fail_same(int fd, unsigned long nr, const void *arg, size_t size,
		      int want, const char *what)
{
	uint8_t buf[ARGMAX], copy[ARGMAX];
	size_t sz;
	int i, ret, err, same;

	for (i = 0; i < 2; i++) {
		sz = size + (i ? 32 : 0);
		memset(buf, 0, sizeof(buf));
		memcpy(buf, arg, size);
		memcpy(copy, buf, sizeof(buf));
		ret = ioctl_sized(fd, nr, buf, sz);
		err = ret < 0 ? errno : 0;
		note_errno(err);
		same = !memcmp(buf, copy, sizeof(buf));
		report(ret < 0 && err == want && same,
		       "%s (%zu-byte argument): %s, nothing written (got %s%s)",
		       what, sz, errname(want), errname(err),
		       same ? "" : ", argument changed");
	}
}

/* ------------------------------------------------------------ sizes */

/* A valid argument for @c, that succeeds (@ctx, @h: a live membership). */
static void valid_arg(const struct cmd *c, uint8_t *a, int fd, uint32_t ctx,
		      uint32_t h, void *entries, uint32_t *victim_ctx)
{
	struct rdma_mcm_create_ctx *cc = (void *)a;
	struct rdma_mcm_destroy_ctx *dc = (void *)a;
	struct rdma_mcm_join *j = (void *)a;
	struct rdma_mcm_leave *l = (void *)a;
	struct rdma_mcm_query *q = (void *)a;
	struct rdma_mcm_list *li = (void *)a;
	struct rdma_mcm_batch *b = (void *)a;
	struct rdma_mcm_set_events *s = (void *)a;
	struct rdma_mcm_query_ctx *qc = (void *)a;

	memset(a, 0, c->size);
	switch (_IOC_NR(c->nr)) {
	case _IOC_NR(RDMA_MCM_IOC_VERSION):
		memset(a, PAT, c->size);
		break;
	case _IOC_NR(RDMA_MCM_IOC_CREATE_CTX):
		set_v4(cc->src, &cc->src_len, SRC_ADDR);
		cc->ctx_id = PAT32;
		break;
	case _IOC_NR(RDMA_MCM_IOC_DESTROY_CTX):
		create_ctx(fd, SRC_ADDR, victim_ctx);
		dc->ctx_id = *victim_ctx;
		break;
	case _IOC_NR(RDMA_MCM_IOC_JOIN):
		j->ctx_id = ctx;
		j->cookie = COOKIE;
		j->join_flags = RDMA_MCM_JOIN_SENDONLY_FULLMEMBER;
		set_v4(j->addr, &j->addr_len, "239.6.1.1");
		j->handle = PAT32;
		break;
	case _IOC_NR(RDMA_MCM_IOC_LEAVE):
		l->ctx_id = ctx;
		l->handle = h;
		l->events_reported = PAT32;
		break;
	case _IOC_NR(RDMA_MCM_IOC_QUERY):
		q->ctx_id = ctx;
		q->handle = h;
		memset(&q->member, PAT, sizeof(q->member));
		break;
	case _IOC_NR(RDMA_MCM_IOC_LIST):
		li->ctx_id = ctx;
		li->entries = (uintptr_t)entries;
		li->count = 1;
		li->next = PAT32;
		li->entry_size = sizeof(struct rdma_mcm_member);
		break;
	case _IOC_NR(RDMA_MCM_IOC_BATCH_JOIN):
	case _IOC_NR(RDMA_MCM_IOC_BATCH_LEAVE):
		b->ctx_id = ctx;
		b->entries = (uintptr_t)entries;
		b->count = 1;
		b->entry_size = 152;
		b->done = PAT32;
		break;
	case _IOC_NR(RDMA_MCM_IOC_SET_EVENTS):
		s->event_mask = RDMA_MCM_EVENTS_DEFAULT;
		s->event_size = RDMA_MCM_EVENT_SIZE_VER0;
		break;
	case _IOC_NR(RDMA_MCM_IOC_QUERY_CTX):
		qc->ctx_id = ctx;
		break;
	}
}

/* One batch entry of each kind, for valid_arg()'s batches */
static void batch_entries(uint8_t *e, const struct cmd *c, uint32_t h)
{
	struct rdma_mcm_join_entry *je = (void *)e;
	struct rdma_mcm_leave_entry *le = (void *)e;

	memset(e, 0, 4096);
	if (c->nr == RDMA_MCM_IOC_BATCH_JOIN) {
		je->cookie = COOKIE;
		je->join_flags = RDMA_MCM_JOIN_SENDONLY_FULLMEMBER;
		set_v4(je->addr, &je->addr_len, "239.6.1.2");
		je->handle = PAT32;
		je->result = (int32_t)PAT32;
	} else if (c->nr == RDMA_MCM_IOC_BATCH_LEAVE) {
		le->handle = h;
		le->result = (int32_t)PAT32;
		le->events_reported = PAT32;
	} else {
		memset(e, PAT, 4096);
	}
}

/*
 * What a command's success must have written into @a (@before: the
 * argument as the caller wrote it): its outputs, and only them.
 */
static int outputs_ok(const struct cmd *c, const uint8_t *a,
		      const uint8_t *before, const uint8_t *entries)
{
	const struct rdma_mcm_version *v = (const void *)a;
	const struct rdma_mcm_create_ctx *cc = (const void *)a;
	const struct rdma_mcm_join *j = (const void *)a;
	const struct rdma_mcm_leave *l = (const void *)a;
	const struct rdma_mcm_query *q = (const void *)a;
	const struct rdma_mcm_list *li = (const void *)a;
	const struct rdma_mcm_batch *b = (const void *)a;
	const struct rdma_mcm_set_events *s = (const void *)a;
	const struct rdma_mcm_query_ctx *qc = (const void *)a;
	const struct rdma_mcm_join_entry *je = (const void *)entries;
	const struct rdma_mcm_leave_entry *le = (const void *)entries;
	size_t off;

	switch (_IOC_NR(c->nr)) {
	case _IOC_NR(RDMA_MCM_IOC_VERSION):
		return v->abi_version == RDMA_MCM_ABI_VERSION &&
		       v->features == (RDMA_MCM_FEATURE_SOURCES |
				       RDMA_MCM_FEATURE_IPV6_ROCE);
	case _IOC_NR(RDMA_MCM_IOC_CREATE_CTX):
		off = offsetof(struct rdma_mcm_create_ctx, ctx_id);
		return cc->ctx_id && cc->ctx_id != PAT32 &&
		       !memcmp(a, before, off) && !cc->reserved;
	case _IOC_NR(RDMA_MCM_IOC_DESTROY_CTX):
		return !memcmp(a, before, c->size);
	case _IOC_NR(RDMA_MCM_IOC_JOIN):
		off = offsetof(struct rdma_mcm_join, handle);
		return j->handle && j->handle != PAT32 &&
		       !memcmp(a, before, off) &&
		       !memcmp(a + off + 4, before + off + 4,
			       c->size - off - 4);
	case _IOC_NR(RDMA_MCM_IOC_LEAVE):
		off = offsetof(struct rdma_mcm_leave, events_reported);
		return l->events_reported == 0 && !memcmp(a, before, off) &&
		       !memcmp(a + off + 4, before + off + 4,
			       c->size - off - 4);
	case _IOC_NR(RDMA_MCM_IOC_QUERY):
		return !memcmp(a, before, 8) &&
		       q->member.state <= RDMA_MCM_STATE_JOINED &&
		       q->member.cookie == COOKIE &&
		       !member_has_byte(&q->member, sizeof(q->member), PAT) &&
		       !q->member.reserved;
	case _IOC_NR(RDMA_MCM_IOC_LIST):
		return li->count == 1 && li->next != PAT32 &&
		       !memcmp(a, before, offsetof(struct rdma_mcm_list,
						   count)) &&
		       !memcmp(&li->entry_size, before +
			       offsetof(struct rdma_mcm_list, entry_size), 8);
	case _IOC_NR(RDMA_MCM_IOC_BATCH_JOIN):
		return b->done == 1 && !memcmp(a, before, 20) &&
		       je->result == 0 && je->handle && je->handle != PAT32;
	case _IOC_NR(RDMA_MCM_IOC_BATCH_LEAVE):
		return b->done == 1 && !memcmp(a, before, 20) &&
		       le->result == 0 && le->events_reported == 0;
	case _IOC_NR(RDMA_MCM_IOC_SET_EVENTS):
		return s->event_mask == RDMA_MCM_EVENTS_DEFAULT &&
		       s->event_size == RDMA_MCM_EVENT_SIZE_VER0 &&
		       !s->reserved;
	case _IOC_NR(RDMA_MCM_IOC_QUERY_CTX):
		return !memcmp(a, before, 4) && !qc->flags &&
		       qc->src_len == 16 && qc->port_num == 1 &&
		       !strcmp(qc->dev_name, "rxe1") && qc->node_guid &&
		       !qc->reserved[0] && !qc->reserved[1];
	}
	return 0;
}

/* Did the command with a non-zero tail do anything? 1 when it did not. */
static int no_effect(const struct cmd *c, int fd, uint32_t ctx, uint32_t h,
		     uint32_t victim, long contexts)
{
	struct rdma_mcm_member m;

	switch (_IOC_NR(c->nr)) {
	case _IOC_NR(RDMA_MCM_IOC_CREATE_CTX):
		return live_count("file_contexts") == contexts;
	case _IOC_NR(RDMA_MCM_IOC_DESTROY_CTX):
		return live_count("file_contexts") == contexts &&
		       !destroy_ctx(fd, victim);
	case _IOC_NR(RDMA_MCM_IOC_JOIN):
		return list_has_group(fd, ctx, "239.6.1.1") == 0;
	case _IOC_NR(RDMA_MCM_IOC_LEAVE):
		return !query(fd, ctx, h, &m);
	case _IOC_NR(RDMA_MCM_IOC_BATCH_JOIN):
		return list_has_group(fd, ctx, "239.6.1.2") == 0;
	case _IOC_NR(RDMA_MCM_IOC_BATCH_LEAVE):
		return !query(fd, ctx, h, &m);
	}
	return 1;
}

/* Undo what a successful command made, so the next one starts clean */
static void undo(const struct cmd *c, int fd, uint32_t ctx, const uint8_t *a,
		 const uint8_t *entries, uint32_t *h)
{
	const struct rdma_mcm_join_entry *je = (const void *)entries;

	switch (_IOC_NR(c->nr)) {
	case _IOC_NR(RDMA_MCM_IOC_CREATE_CTX):
		destroy_ctx(fd, ((const struct rdma_mcm_create_ctx *)a)->ctx_id);
		break;
	case _IOC_NR(RDMA_MCM_IOC_JOIN):
		leave(fd, ctx, ((const struct rdma_mcm_join *)a)->handle, NULL);
		break;
	case _IOC_NR(RDMA_MCM_IOC_BATCH_JOIN):
		leave(fd, ctx, je->handle, NULL);
		break;
	case _IOC_NR(RDMA_MCM_IOC_LEAVE):
	case _IOC_NR(RDMA_MCM_IOC_BATCH_LEAVE):
		/* the next leave needs a membership again */
		join(fd, ctx, "239.6.1.3", 1, COOKIE, h);
		break;
	}
}

/*
 * Every command from its first version's size up: shorter is EINVAL with
 * nothing written; longer with a non-zero tail is E2BIG with nothing
 * written and nothing done; longer with a zero tail works, writes the
 * outputs and nothing past the kernel's size. VERSION only writes: it
 * reads no tail.
 */
void test_ext_sizes(int fd, uint32_t ctx)
{
	static uint8_t entries[4096];
	uint8_t before[ARGMAX], buf[ARGMAX];
	const struct cmd *c;
	uint32_t h, victim = 0;
	uint8_t *a;
	long contexts;
	int ret, err, same;
	size_t i, sz;

	printf("    # argument sizes of every command\n");
	expect_errno(join(fd, ctx, "239.6.1.3", 1, COOKIE, &h), 0,
		     "JOIN 239.6.1.3 for the size checks");
	for (i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++) {
		c = &cmds[i];
		report(c->size == header_size(c),
		       "%s: this header's size %zu is its version's (first version %zu)",
		       c->name, c->size, c->ver0);

		for (sz = 0; sz < c->ver0; sz += c->ver0 - 1) {
			memset(buf, PAT, sizeof(buf));
			ret = ioctl_sized(fd, c->nr, buf, sz);
			err = ret < 0 ? errno : 0;
			note_errno(err);
			same = all_bytes(buf, sizeof(buf), PAT);
			report(ret < 0 && err == EINVAL && same,
			       "%s with a %zu-byte argument (VER0 %zu): EINVAL, nothing written (got %s%s)",
			       c->name, sz, c->ver0, errname(err),
			       same ? "" : ", argument changed");
		}

		/* longer, tail not zero: E2BIG, nothing written, nothing done */
		valid_arg(c, buf, fd, ctx, h, entries, &victim);
		batch_entries(entries, c, h);
		memset(buf + c->size, 0, TAIL);
		buf[c->size + TAIL - 1] = 1;
		memcpy(before, buf, sizeof(before));
		contexts = live_count("file_contexts");
		ret = ioctl_sized(fd, c->nr, buf, c->size + TAIL);
		err = ret < 0 ? errno : 0;
		note_errno(err);
		if (c->nr == RDMA_MCM_IOC_VERSION) {
			report(!ret && outputs_ok(c, buf, before, entries) &&
			       !memcmp(buf + c->size, before + c->size, TAIL),
			       "VERSION (only written) with a longer, non-zero argument: works, writes %zu bytes (got %s)",
			       c->size, errname(err));
		} else {
			same = !memcmp(buf, before, sizeof(buf));
			report(ret < 0 && err == E2BIG && same,
			       "%s, %zu bytes with a non-zero tail: E2BIG, nothing written (got %s%s)",
			       c->name, c->size + TAIL, errname(err),
			       same ? "" : ", argument changed");
			report(no_effect(c, fd, ctx, h, victim, contexts),
			       "%s with a non-zero tail did nothing", c->name);
		}

		/* longer, tail zero and read-only: works, nothing past size */
		a = tail_arg(c->size, 0);
		valid_arg(c, a, fd, ctx, h, entries, &victim);
		batch_entries(entries, c, h);
		memcpy(before, a, c->size);
		ret = ioctl_sized(fd, c->nr, a, c->size + TAIL);
		err = ret < 0 ? errno : 0;
		note_errno(err);
		report(!ret && outputs_ok(c, a, before, entries),
		       "%s, %zu bytes with a zero tail (read-only past %zu): works, outputs written, nothing else (got %s)",
		       c->name, c->size + TAIL, c->size, errname(err));
		if (!ret)
			undo(c, fd, ctx, a, entries, &h);
		tail_free(a, c->size);

		/* VERSION never reads: a non-zero read-only tail is fine too */
		if (c->nr == RDMA_MCM_IOC_VERSION) {
			a = tail_arg(c->size, PAT);
			memset(a, PAT, c->size);
			ret = ioctl_sized(fd, c->nr, a, c->size + TAIL);
			report(!ret && outputs_ok(c, a, NULL, NULL),
			       "VERSION, %zu bytes, tail of 0x%02x read-only: works (got %s)",
			       c->size + TAIL, PAT,
			       errname(ret < 0 ? errno : 0));
			tail_free(a, c->size);
		}
	}
	expect_errno(destroy_ctx(fd, victim), ENOENT,
		     "DESTROY_CTX with a zero tail destroyed its context");
	expect_errno(leave(fd, ctx, h, NULL), 0, "LEAVE 239.6.1.3");
}

/* ------------------------------------------------------------ failures */

static void fail_create(int fd)
{
	struct rdma_mcm_create_ctx c, a;
	struct sockaddr_un sun = { .sun_family = AF_UNIX };
	int fd2 = open_dev();
	uint32_t id;

	memset(&c, 0, sizeof(c));
	set_v4(c.src, &c.src_len, SRC_ADDR);
	c.ctx_id = PAT32;
	memset(c.src + c.src_len, PAT2, sizeof(c.src) - c.src_len);

	a = c;
	a.reserved = 1;
	fail_same(fd, RDMA_MCM_IOC_CREATE_CTX, &a, sizeof(a), EINVAL,
		  "CREATE_CTX, reserved set");
	a = c;
	a.flags = 1U << 2;
	fail_same(fd, RDMA_MCM_IOC_CREATE_CTX, &a, sizeof(a), EINVAL,
		  "CREATE_CTX, unknown flag");
	a = c;
	a.src_len = RDMA_MCM_ADDR_SIZE + 1;
	fail_same(fd, RDMA_MCM_IOC_CREATE_CTX, &a, sizeof(a), EINVAL,
		  "CREATE_CTX, src_len 129");
	a.src_len = 3;
	fail_same(fd, RDMA_MCM_IOC_CREATE_CTX, &a, sizeof(a), EINVAL,
		  "CREATE_CTX, src_len 3");
	a = c;
	memcpy(a.src, &sun, sizeof(sun.sun_family));
	fail_same(fd, RDMA_MCM_IOC_CREATE_CTX, &a, sizeof(a), EAFNOSUPPORT,
		  "CREATE_CTX, AF_UNIX");
	a = c;
	set_v4(a.src, &a.src_len, "198.51.100.1");
	fail_same(fd, RDMA_MCM_IOC_CREATE_CTX, &a, sizeof(a), EADDRNOTAVAIL,
		  "CREATE_CTX, no netdev has the address");
	set_v4(a.src, &a.src_len, "0.0.0.0");
	fail_same(fd, RDMA_MCM_IOC_CREATE_CTX, &a, sizeof(a), ENODEV,
		  "CREATE_CTX, wildcard address");
	set_v4(a.src, &a.src_len, "127.0.0.1");
	fail_same(fd, RDMA_MCM_IOC_CREATE_CTX, &a, sizeof(a), ENODEV,
		  "CREATE_CTX, loopback address");

	/* the limits: per file EMFILE, per user ENOSPC */
	expect_errno(create_ctx(fd2, SRC_ADDR, &id), 0, "CREATE_CTX in a new file");
	set_param("max_contexts", 1);
	fail_same(fd2, RDMA_MCM_IOC_CREATE_CTX, &c, sizeof(c), EMFILE,
		  "CREATE_CTX over max_contexts=1");
	set_param("max_contexts", 256);
	set_param("max_user_contexts", 0);
	fail_same(fd2, RDMA_MCM_IOC_CREATE_CTX, &c, sizeof(c), ENOSPC,
		  "CREATE_CTX over max_user_contexts=0");
	set_param("max_user_contexts", 1024);
	close(fd2);
}

static void fail_join_leave(int fd, uint32_t ctx)
{
	struct sockaddr_in6 s6 = { .sin6_family = AF_INET6 };
	struct rdma_mcm_destroy_ctx d = { .ctx_id = ctx + 1000 };
	struct rdma_mcm_join j, a;
	struct rdma_mcm_leave l, b;
	struct rdma_mcm_query q;
	uint32_t h, ctx2;
	int fd2 = open_dev();

	fail_same(fd, RDMA_MCM_IOC_DESTROY_CTX, &d, sizeof(d), ENOENT,
		  "DESTROY_CTX, no such context");
	d.ctx_id = ctx;
	d.reserved = 1;
	fail_same(fd, RDMA_MCM_IOC_DESTROY_CTX, &d, sizeof(d), EINVAL,
		  "DESTROY_CTX, reserved set");

	memset(&j, 0, sizeof(j));
	j.ctx_id = ctx;
	j.cookie = COOKIE;
	j.handle = PAT32;
	set_v4(j.addr, &j.addr_len, "239.6.2.1");
	memset(j.addr + j.addr_len, PAT2, sizeof(j.addr) - j.addr_len);
	a = j;
	a.join_flags = 2;
	fail_same(fd, RDMA_MCM_IOC_JOIN, &a, sizeof(a), EINVAL,
		  "JOIN, unknown join flags");
	a = j;
	set_v4(a.addr, &a.addr_len, "192.0.2.7");
	fail_same(fd, RDMA_MCM_IOC_JOIN, &a, sizeof(a), EINVAL,
		  "JOIN, unicast group");
	a = j;
	s6.sin6_addr.s6_addr[0] = 0xff;
	memcpy(a.addr, &s6, sizeof(s6));
	a.addr_len = sizeof(s6);
	fail_same(fd, RDMA_MCM_IOC_JOIN, &a, sizeof(a), EINVAL,
		  "JOIN, IPv6 group on an IPv4 context");
	a = j;
	a.addr[0] = 0;	/* AF_UNSPEC */
	a.addr[1] = 0;
	fail_same(fd, RDMA_MCM_IOC_JOIN, &a, sizeof(a), EAFNOSUPPORT,
		  "JOIN, AF_UNSPEC group");
	a = j;
	a.addr_len = 500;
	fail_same(fd, RDMA_MCM_IOC_JOIN, &a, sizeof(a), EINVAL,
		  "JOIN, addr_len 500");
	a.addr_len = 1;
	fail_same(fd, RDMA_MCM_IOC_JOIN, &a, sizeof(a), EINVAL,
		  "JOIN, addr_len 1");
	a = j;
	a.ctx_id = ctx + 1000;
	fail_same(fd, RDMA_MCM_IOC_JOIN, &a, sizeof(a), ENOENT,
		  "JOIN, no such context");
	expect_errno(join(fd, ctx, "239.6.2.1", 0, 0, &h), 0, "JOIN 239.6.2.1");
	fail_same(fd, RDMA_MCM_IOC_JOIN, &j, sizeof(j), EADDRINUSE,
		  "JOIN, group already joined");

	/* the limits: per file ENOBUFS, per user ENOSPC */
	expect_errno(create_ctx(fd2, SRC_ADDR, &ctx2), 0, "CREATE_CTX in a new file");
	a = j;
	a.ctx_id = ctx2;
	expect_errno(join(fd2, ctx2, "239.6.2.2", 0, 0, NULL), 0,
		     "JOIN 239.6.2.2 in the new file");
	set_param("max_memberships", 1);
	fail_same(fd2, RDMA_MCM_IOC_JOIN, &a, sizeof(a), ENOBUFS,
		  "JOIN over max_memberships=1");
	set_param("max_memberships", 131072);
	set_param("max_user_memberships", 0);
	fail_same(fd2, RDMA_MCM_IOC_JOIN, &a, sizeof(a), ENOSPC,
		  "JOIN over max_user_memberships=0");
	set_param("max_user_memberships", 262144);
	close(fd2);

	memset(&l, 0, sizeof(l));
	l.ctx_id = ctx;
	l.handle = h + 1000;
	l.addr_len = PAT32;
	l.events_reported = PAT32;
	memset(l.addr, PAT2, sizeof(l.addr));
	fail_same(fd, RDMA_MCM_IOC_LEAVE, &l, sizeof(l), EADDRNOTAVAIL,
		  "LEAVE, handle never returned");
	b = l;
	b.ctx_id = ctx + 1000;
	fail_same(fd, RDMA_MCM_IOC_LEAVE, &b, sizeof(b), ENOENT,
		  "LEAVE, no such context");
	b = l;
	b.handle = h;
	b.flags = 2;
	fail_same(fd, RDMA_MCM_IOC_LEAVE, &b, sizeof(b), EINVAL,
		  "LEAVE, unknown flag");
	b.flags = 0;
	b.reserved = 1;
	fail_same(fd, RDMA_MCM_IOC_LEAVE, &b, sizeof(b), EINVAL,
		  "LEAVE, reserved set");
	b = l;
	b.flags = RDMA_MCM_LEAVE_BY_ADDR;
	set_v4(b.addr, &b.addr_len, "239.6.2.9");
	fail_same(fd, RDMA_MCM_IOC_LEAVE, &b, sizeof(b), EADDRNOTAVAIL,
		  "LEAVE by address, group not joined");
	b.addr_len = 600;
	fail_same(fd, RDMA_MCM_IOC_LEAVE, &b, sizeof(b), EINVAL,
		  "LEAVE by address, addr_len 600");
	b.addr_len = 16;
	b.addr[0] = 0;
	b.addr[1] = 0;
	fail_same(fd, RDMA_MCM_IOC_LEAVE, &b, sizeof(b), EAFNOSUPPORT,
		  "LEAVE by address, AF_UNSPEC");

	memset(&q, PAT, sizeof(q));
	q.ctx_id = ctx + 1000;
	q.handle = h;
	fail_same(fd, RDMA_MCM_IOC_QUERY, &q, sizeof(q), ENOENT,
		  "QUERY, no such context");
	q.ctx_id = ctx;
	q.handle = h + 1000;
	fail_same(fd, RDMA_MCM_IOC_QUERY, &q, sizeof(q), EADDRNOTAVAIL,
		  "QUERY, handle never returned");
	expect_errno(leave(fd, ctx, h, NULL), 0, "LEAVE 239.6.2.1");
}

static void fail_list_events(int fd, uint32_t ctx)
{
	static uint8_t entries[2 * 4096];
	struct rdma_mcm_list l, a;
	struct rdma_mcm_set_events s;
	uint32_t h;
	int same;

	expect_errno(join(fd, ctx, "239.6.3.1", 1, 0, &h), 0, "JOIN 239.6.3.1");
	memset(entries, PAT, sizeof(entries));
	memset(&l, 0, sizeof(l));
	l.entries = (uintptr_t)entries;
	l.ctx_id = ctx;
	l.count = 2;
	l.next = PAT32;
	l.entry_size = sizeof(struct rdma_mcm_member);
	a = l;
	a.ctx_id = ctx + 1000;
	fail_same(fd, RDMA_MCM_IOC_LIST, &a, sizeof(a), ENOENT,
		  "LIST, no such context");
	a = l;
	a.reserved = 1;
	fail_same(fd, RDMA_MCM_IOC_LIST, &a, sizeof(a), EINVAL,
		  "LIST, reserved set");
	a = l;
	a.entry_size = RDMA_MCM_MEMBER_SIZE_VER0 - 1;
	fail_same(fd, RDMA_MCM_IOC_LIST, &a, sizeof(a), EINVAL,
		  "LIST, entry_size below VER0");
	a.entry_size = RDMA_MCM_MAX_ENTRY_SIZE + 1;
	fail_same(fd, RDMA_MCM_IOC_LIST, &a, sizeof(a), E2BIG,
		  "LIST, entry_size 4097");
	same = all_bytes(entries, sizeof(entries), PAT);
	report(same, "... and no failed LIST wrote an entry");
	expect_errno(leave(fd, ctx, h, NULL), 0, "LEAVE 239.6.3.1");

	memset(&s, 0, sizeof(s));
	s.event_mask = ~0ULL;
	s.event_size = 80;
	s.reserved = 1;
	fail_same(fd, RDMA_MCM_IOC_SET_EVENTS, &s, sizeof(s), EINVAL,
		  "SET_EVENTS, reserved set");
	s.reserved = 0;
	s.event_size = RDMA_MCM_EVENT_SIZE_VER0 - 1;
	fail_same(fd, RDMA_MCM_IOC_SET_EVENTS, &s, sizeof(s), EINVAL,
		  "SET_EVENTS, event_size 71");
	s.event_size = 0;
	fail_same(fd, RDMA_MCM_IOC_SET_EVENTS, &s, sizeof(s), EINVAL,
		  "SET_EVENTS, event_size 0");
}

/*
 * Each documented failure of each non-batch command, with every output
 * field holding the caller's pattern: the errno, and not one byte
 * written back (at the kernel's size and with a zero tail).
 */
void test_ext_failures(int fd, uint32_t ctx)
{
	printf("    # failing commands write nothing back\n");
	fail_create(fd);
	fail_join_leave(fd, ctx);
	fail_list_events(fd, ctx);
}
