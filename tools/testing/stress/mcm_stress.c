// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * mcm_stress: several processes, each with several threads, doing random
 * join / leave / batch join / batch leave / query / list / read / destroy /
 * close on /dev/rdma_mcm, across the bench's two Soft-RoCE devices, for a
 * bounded time. Meant to run while something else deletes and re-adds an
 * RDMA device and takes a netdev down and up (tools/testing/vm/70-stress.sh).
 *
 * Each thread owns a private file (closed and reopened now and then) and
 * shares one file with the other threads of its process. On its private
 * file a thread knows exactly which memberships are live, so it checks:
 *   - no event names a membership that was left, never joined, or whose
 *     context was destroyed (leave and destroy purge unread events);
 *   - QUERY of a left handle is EADDRNOTAVAIL, of a live one succeeds;
 *   - the file never holds more than max_memberships memberships, and
 *     LIST returns no handle twice;
 *   - a well-formed call fails only with the errnos its situation allows
 *     (never EINVAL: every argument is valid).
 * A violated check is printed as "violation ..." and fails the run.
 *
 * At the end it prints, summed over every thread and process:
 *   op <OP> <COUNT>              operations attempted, per kind
 *   ok <COMMAND> <COUNT>         calls that succeeded
 *   errno <COMMAND> <NAME> <N>   the errno histogram (batch entries count
 *                                under BATCH_JOIN_ENTRY / BATCH_LEAVE_ENTRY)
 *   event <TYPE> <STATUS> <N>    events read
 *   stress: ops N violations N seconds S processes P threads T
 *
 * Usage: mcm_stress [--seconds S] [--procs P] [--threads T] [--groups G]
 *                   [--seed N] [--src ADDR]... [--max-memberships M]
 *                   [--uid UID]
 * --uid drops to that uid (and gid) before opening anything.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <grp.h>
#include <time.h>
#include <unistd.h>

#include <rdma/rdma_mcm_abi.h>

#define DEV		"/dev/" RDMA_MCM_DEVICE_NAME
#define MAX_SRC		4
#define MAX_CTX		4
#define MAX_LIVE	1024
#define MAX_BATCH	32
#define MAX_ERRNO	160

enum cmd {
	C_CREATE, C_DESTROY, C_JOIN, C_LEAVE, C_LEAVE_ADDR, C_QUERY, C_LIST,
	C_BATCH_JOIN, C_BATCH_JOIN_ENTRY, C_BATCH_LEAVE, C_BATCH_LEAVE_ENTRY,
	C_READ, C_CLOSE, C_NR
};

static const char *const cmd_name[C_NR] = {
	"CREATE_CTX", "DESTROY_CTX", "JOIN", "LEAVE", "LEAVE_BY_ADDR",
	"QUERY", "LIST", "BATCH_JOIN", "BATCH_JOIN_ENTRY", "BATCH_LEAVE",
	"BATCH_LEAVE_ENTRY", "READ", "CLOSE",
};

/* Per-process totals live in shared memory so the parent can sum them. */
struct stats {
	unsigned long op[C_NR];
	unsigned long ok[C_NR];
	unsigned long err[C_NR][MAX_ERRNO];
	unsigned long ev_joined;
	unsigned long ev_error[MAX_ERRNO];
	unsigned long violations;
};

struct live {
	uint64_t cookie;
	uint32_t ctx;
	uint32_t handle;
	uint32_t group;
};

/* A file and what this program knows of it. */
struct file {
	int fd;
	int nctx;
	uint32_t ctx[MAX_CTX];
	uint32_t ctx_src[MAX_CTX];
	int nlive;		/* exact on a private file only */
	struct live live[MAX_LIVE];
	pthread_mutex_t lock;	/* bookkeeping of a shared file */
};

struct thread {
	int index;
	uint64_t rng;
	uint64_t next_cookie;
	struct file own;
	struct file *shared;
	struct stats st;
	pthread_t tid;
};

static struct sockaddr_in src[MAX_SRC];
static int nsrc;
static unsigned int seconds = 20, procs = 2, threads = 3, ngroups = 128;
static unsigned int max_memberships;
static uint64_t seed;
static struct timespec deadline;

static uint64_t rnd(struct thread *t)
{
	/* splitmix64 */
	uint64_t z = (t->rng += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static unsigned int pick(struct thread *t, unsigned int n)
{
	return n ? rnd(t) % n : 0;
}

static void violated(struct thread *t, const char *fmt, ...)
{
	va_list ap;

	t->st.violations++;
	printf("violation (pid %d thread %d): ", getpid(), t->index);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
}

/*
 * The errnos a well-formed call may meet here (the program never passes a
 * malformed argument): anything else, EINVAL above all, is a violation.
 */
static bool errno_expected(enum cmd c, int err)
{
	switch (c) {
	case C_CREATE:
		return err == ENODEV || err == EMFILE || err == ENOMEM;
	case C_DESTROY:
	case C_LIST:
	case C_BATCH_JOIN:
	case C_BATCH_LEAVE:
		return err == ENOENT;
	case C_JOIN:
	case C_BATCH_JOIN_ENTRY:
		return err == ENOENT || err == ENODEV || err == EADDRINUSE ||
		       err == ENOBUFS || err == ENOMEM;
	case C_LEAVE:
	case C_LEAVE_ADDR:
	case C_QUERY:
	case C_BATCH_LEAVE_ENTRY:
		return err == ENOENT || err == EADDRNOTAVAIL;
	case C_READ:
		return err == EAGAIN;
	default:
		return false;
	}
}

static void count(struct thread *t, enum cmd c, int ret)
{
	if (!ret) {
		t->st.ok[c]++;
		return;
	}
	t->st.err[c][ret < MAX_ERRNO ? ret : 0]++;
	if (!errno_expected(c, ret))
		violated(t, "%s of a well-formed argument failed with %s",
			 cmd_name[c], strerrorname_np(ret));
}

static int xioctl(int fd, unsigned long req, void *arg)
{
	return ioctl(fd, req, arg) ? errno : 0;
}

static void group_addr(unsigned int g, uint8_t *buf, uint32_t *len)
{
	struct sockaddr_in sin = { .sin_family = AF_INET };

	sin.sin_addr.s_addr = htonl(0xef030000 | g);	/* 239.3.x.y */
	memcpy(buf, &sin, sizeof(sin));
	*len = sizeof(sin);
}

static int file_open(struct file *f)
{
	f->fd = open(DEV, O_RDWR | O_NONBLOCK | O_CLOEXEC);
	f->nctx = 0;
	f->nlive = 0;
	return f->fd < 0 ? -1 : 0;
}

static struct live *live_find(struct file *f, uint64_t cookie)
{
	int i;

	for (i = 0; i < f->nlive; i++)
		if (f->live[i].cookie == cookie)
			return &f->live[i];
	return NULL;
}

static void live_drop(struct file *f, struct live *l)
{
	*l = f->live[--f->nlive];
}

static void live_add(struct thread *t, struct file *f, uint64_t cookie,
		     uint32_t ctx, uint32_t handle, uint32_t group)
{
	if (f->nlive >= MAX_LIVE) {
		/* max_memberships <= MAX_LIVE (checked in main) */
		violated(t, "more than %d memberships joined on one file",
			 MAX_LIVE);
		return;
	}
	f->live[f->nlive++] = (struct live){ cookie, ctx, handle, group };
	if (max_memberships && (unsigned int)f->nlive > max_memberships)
		violated(t, "a file holds %d memberships, max_memberships %u",
			 f->nlive, max_memberships);
}

/* Forget what a destroyed context held (the kernel purged it all). */
static void ctx_forget(struct file *f, int i)
{
	int j;

	for (j = f->nlive - 1; j >= 0; j--)
		if (f->live[j].ctx == f->ctx[i])
			live_drop(f, &f->live[j]);
	f->ctx[i] = f->ctx[--f->nctx];
	f->ctx_src[i] = f->ctx_src[f->nctx];
}

static void op_create(struct thread *t, struct file *f, int own)
{
	struct rdma_mcm_create_ctx a = { .src_len = sizeof(src[0]) };
	unsigned int s = pick(t, nsrc);
	int ret;

	if (f->nctx >= MAX_CTX)
		return;
	memcpy(a.src, &src[s], sizeof(src[s]));
	ret = xioctl(f->fd, RDMA_MCM_IOC_CREATE_CTX, &a);
	count(t, C_CREATE, ret);
	if (ret)
		return;
	if (!own)
		pthread_mutex_lock(&f->lock);
	if (f->nctx < MAX_CTX) {
		f->ctx_src[f->nctx] = s;
		f->ctx[f->nctx++] = a.ctx_id;
	}
	if (!own)
		pthread_mutex_unlock(&f->lock);
}

static int ctx_pick(struct thread *t, struct file *f, int own,
		    uint32_t *ctx)
{
	int i;

	if (!own)
		pthread_mutex_lock(&f->lock);
	i = f->nctx ? (int)pick(t, f->nctx) : -1;
	if (i >= 0)
		*ctx = f->ctx[i];
	if (!own)
		pthread_mutex_unlock(&f->lock);
	return i;
}

static void op_destroy(struct thread *t, struct file *f, int own)
{
	struct rdma_mcm_destroy_ctx a = { 0 };
	int i, ret;

	i = ctx_pick(t, f, own, &a.ctx_id);
	if (i < 0)
		return;
	ret = xioctl(f->fd, RDMA_MCM_IOC_DESTROY_CTX, &a);
	count(t, C_DESTROY, ret);
	if (!own) {
		pthread_mutex_lock(&f->lock);
		for (i = 0; i < f->nctx; i++)
			if (f->ctx[i] == a.ctx_id)
				break;
		if (i < f->nctx) {
			f->ctx[i] = f->ctx[--f->nctx];
			f->ctx_src[i] = f->ctx_src[f->nctx];
		}
		pthread_mutex_unlock(&f->lock);
	} else if (!ret) {
		ctx_forget(f, i);
	} else {
		violated(t, "DESTROY_CTX %u of a live context: %s", a.ctx_id,
			 strerrorname_np(ret));
	}
}

static void op_join(struct thread *t, struct file *f, int own)
{
	struct rdma_mcm_join a = { 0 };
	unsigned int g = pick(t, ngroups);
	int ret;

	if (ctx_pick(t, f, own, &a.ctx_id) < 0)
		return;
	a.cookie = ++t->next_cookie;
	a.join_flags = pick(t, 3) ? RDMA_MCM_JOIN_SENDONLY_FULLMEMBER :
				    RDMA_MCM_JOIN_FULLMEMBER;
	group_addr(g, a.addr, &a.addr_len);
	ret = xioctl(f->fd, RDMA_MCM_IOC_JOIN, &a);
	count(t, C_JOIN, ret);
	if (!ret && own)
		live_add(t, f, a.cookie, a.ctx_id, a.handle, g);
}

static struct live *live_find_handle(struct file *f, uint32_t ctx,
				     uint32_t handle)
{
	int i;

	for (i = 0; i < f->nlive; i++)
		if (f->live[i].ctx == ctx && f->live[i].handle == handle)
			return &f->live[i];
	return NULL;
}

static struct live *live_find_group(struct file *f, uint32_t ctx,
				    uint32_t group)
{
	int i;

	for (i = 0; i < f->nlive; i++)
		if (f->live[i].ctx == ctx && f->live[i].group == group)
			return &f->live[i];
	return NULL;
}

/*
 * A membership to leave or query: a live one mostly, a random handle or
 * group now and then (handle 0 is never issued). Only a private file's
 * live memberships are known; on the shared file every pick is random.
 */
static int member_pick(struct thread *t, struct file *f, int own,
		       struct live *out)
{
	if (!own || !f->nlive || !pick(t, 8)) {
		if (ctx_pick(t, f, own, &out->ctx) < 0)
			return -1;
		out->handle = pick(t, 4) ? (uint32_t)pick(t, 4096) : 0;
		out->group = pick(t, ngroups);
		out->cookie = 0;
		return 0;
	}
	*out = f->live[pick(t, f->nlive)];
	return 0;
}

static void op_leave(struct thread *t, struct file *f, int own, int by_addr)
{
	struct rdma_mcm_leave a = { 0 };
	enum cmd c = by_addr ? C_LEAVE_ADDR : C_LEAVE;
	struct live m, *l;
	int ret;

	if (member_pick(t, f, own, &m) < 0)
		return;
	a.ctx_id = m.ctx;
	a.handle = m.handle;
	if (by_addr) {
		a.flags = RDMA_MCM_LEAVE_BY_ADDR;
		a.handle = 0;
		group_addr(m.group, a.addr, &a.addr_len);
	}
	ret = xioctl(f->fd, RDMA_MCM_IOC_LEAVE, &a);
	count(t, c, ret);
	if (!own)
		return;
	l = by_addr ? live_find_group(f, m.ctx, m.group) :
		      live_find_handle(f, m.ctx, m.handle);
	if (l && ret)
		violated(t, "%s of a held membership (handle %u): %s",
			 cmd_name[c], l->handle, strerrorname_np(ret));
	else if (!l && !ret)
		violated(t, "%s of handle %u group %u succeeded, not held",
			 cmd_name[c], m.handle, m.group);
	else if (l)
		live_drop(f, l);
}

static void op_query(struct thread *t, struct file *f, int own)
{
	struct rdma_mcm_query a = { 0 };
	struct live m, *l;
	int ret;

	if (member_pick(t, f, own, &m) < 0)
		return;
	a.ctx_id = m.ctx;
	a.handle = m.handle;
	ret = xioctl(f->fd, RDMA_MCM_IOC_QUERY, &a);
	count(t, C_QUERY, ret);
	if (!own)
		return;
	l = live_find_handle(f, m.ctx, m.handle);
	if (l && ret)
		violated(t, "QUERY of held handle %u: %s", m.handle,
			 strerrorname_np(ret));
	else if (!l && !ret)
		violated(t, "QUERY of handle %u succeeded, not held", m.handle);
	else if (l && a.member.cookie != l->cookie)
		violated(t, "QUERY of handle %u: cookie %llu, joined with %llu",
			 m.handle, (unsigned long long)a.member.cookie,
			  (unsigned long long)l->cookie);
}

static void op_list(struct thread *t, struct file *f, int own)
{
	static __thread struct rdma_mcm_member ent[64];
	struct rdma_mcm_list a = { 0 };
	unsigned int i, j, seen = 0;
	uint32_t handles[MAX_LIVE];
	int ret;

	if (ctx_pick(t, f, own, &a.ctx_id) < 0)
		return;
	a.entries = (uintptr_t)ent;
	a.entry_size = sizeof(ent[0]);
	do {
		a.count = 64;
		ret = xioctl(f->fd, RDMA_MCM_IOC_LIST, &a);
		count(t, C_LIST, ret);
		if (ret)
			return;
		for (i = 0; own && i < a.count; i++) {
			for (j = 0; j < seen; j++)
				if (handles[j] == ent[i].handle)
					violated(t, "LIST returned handle %u twice",
						 ent[i].handle);
			if (seen < MAX_LIVE)
				handles[seen++] = ent[i].handle;
			if (!live_find(f, ent[i].cookie))
				violated(t, "LIST shows handle %u, not held",
					 ent[i].handle);
		}
		a.start = a.next;
	} while (a.count && a.next);
}

static void op_batch_join(struct thread *t, struct file *f, int own)
{
	struct rdma_mcm_join_entry e[MAX_BATCH];
	struct rdma_mcm_batch a = { 0 };
	unsigned int i, n = 1 + pick(t, MAX_BATCH), g[MAX_BATCH];
	int ret;

	if (ctx_pick(t, f, own, &a.ctx_id) < 0)
		return;
	memset(e, 0, sizeof(e));
	for (i = 0; i < n; i++) {
		g[i] = pick(t, ngroups);
		e[i].cookie = ++t->next_cookie;
		e[i].join_flags = RDMA_MCM_JOIN_SENDONLY_FULLMEMBER;
		group_addr(g[i], e[i].addr, &e[i].addr_len);
	}
	a.entries = (uintptr_t)e;
	a.count = n;
	a.entry_size = sizeof(e[0]);
	ret = xioctl(f->fd, RDMA_MCM_IOC_BATCH_JOIN, &a);
	count(t, C_BATCH_JOIN, ret);
	if (a.done > n)
		violated(t, "BATCH_JOIN done %u of %u", a.done, n);
	for (i = 0; i < a.done && i < n; i++) {
		count(t, C_BATCH_JOIN_ENTRY, -e[i].result);
		if (!e[i].result && own)
			live_add(t, f, e[i].cookie, a.ctx_id, e[i].handle, g[i]);
	}
}

static void op_batch_leave(struct thread *t, struct file *f, int own)
{
	struct rdma_mcm_leave_entry e[MAX_BATCH];
	struct rdma_mcm_batch a = { 0 };
	unsigned int i, n = 1 + pick(t, MAX_BATCH);
	struct live m, *l;
	int ret;

	if (ctx_pick(t, f, own, &a.ctx_id) < 0)
		return;
	memset(e, 0, sizeof(e));
	for (i = 0; i < n; i++) {
		/* handles of other contexts are just "not a member" here */
		if (member_pick(t, f, own, &m) < 0)
			return;
		e[i].handle = m.handle;
	}
	a.entries = (uintptr_t)e;
	a.count = n;
	a.entry_size = sizeof(e[0]);
	ret = xioctl(f->fd, RDMA_MCM_IOC_BATCH_LEAVE, &a);
	count(t, C_BATCH_LEAVE, ret);
	if (a.done > n)
		violated(t, "BATCH_LEAVE done %u of %u", a.done, n);
	for (i = 0; i < a.done && i < n; i++) {
		count(t, C_BATCH_LEAVE_ENTRY, -e[i].result);
		if (!own)
			continue;
		/* entries run in order: a handle given twice is left once */
		l = live_find_handle(f, a.ctx_id, e[i].handle);
		if (l && e[i].result)
			violated(t, "BATCH_LEAVE of held handle %u: %s",
				 e[i].handle, strerrorname_np(-e[i].result));
		else if (!l && !e[i].result)
			violated(t, "BATCH_LEAVE left handle %u, not held",
				 e[i].handle);
		else if (l)
			live_drop(f, l);
	}
}

static void op_read(struct thread *t, struct file *f, int own)
{
	struct rdma_mcm_event ev[16];
	ssize_t n;
	int i;

	n = read(f->fd, ev, sizeof(ev));
	count(t, C_READ, n < 0 ? errno : 0);
	for (i = 0; n > 0 && i < n / (int)sizeof(ev[0]); i++) {
		if (ev[i].event == RDMA_MCM_EVENT_JOINED)
			t->st.ev_joined++;
		else
			t->st.ev_error[-ev[i].status < MAX_ERRNO ?
				       -ev[i].status : 0]++;
		if (own && !live_find(f, ev[i].cookie))
			violated(t, "event %u for handle %u (cookie %llu), not held",
				 ev[i].event, ev[i].handle,
				  (unsigned long long)ev[i].cookie);
	}
}

static void op_close(struct thread *t, struct file *f)
{
	count(t, C_CLOSE, close(f->fd) ? errno : 0);
	if (file_open(f))
		violated(t, "reopening %s: %s", DEV, strerror(errno));
}

static void one_op(struct thread *t)
{
	int own = pick(t, 4) != 0;
	struct file *f = own ? &t->own : t->shared;
	unsigned int r = pick(t, 100);
	enum cmd c;

	if (r < 6)
		c = C_CREATE;
	else if (r < 8)
		c = C_DESTROY;
	else if (r < 38)
		c = C_JOIN;
	else if (r < 58)
		c = C_LEAVE;
	else if (r < 63)
		c = C_LEAVE_ADDR;
	else if (r < 70)
		c = C_QUERY;
	else if (r < 74)
		c = C_LIST;
	else if (r < 80)
		c = C_BATCH_JOIN;
	else if (r < 86)
		c = C_BATCH_LEAVE;
	else if (r < 99)
		c = C_READ;
	else
		c = own ? C_CLOSE : C_READ;
	if (!f->nctx && c != C_READ && c != C_CLOSE)
		c = C_CREATE;
	t->st.op[c]++;
	switch (c) {
	case C_CREATE:
		op_create(t, f, own);
		break;
	case C_DESTROY:
		op_destroy(t, f, own);
		break;
	case C_JOIN:
		op_join(t, f, own);
		break;
	case C_LEAVE:
	case C_LEAVE_ADDR:
		op_leave(t, f, own, c == C_LEAVE_ADDR);
		break;
	case C_QUERY:
		op_query(t, f, own);
		break;
	case C_LIST:
		op_list(t, f, own);
		break;
	case C_BATCH_JOIN:
		op_batch_join(t, f, own);
		break;
	case C_BATCH_LEAVE:
		op_batch_leave(t, f, own);
		break;
	case C_READ:
		op_read(t, f, own);
		break;
	default:
		op_close(t, f);
		break;
	}
}

/* Checked between operations: the run stops at the deadline. */
static bool past_deadline(void)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return now.tv_sec > deadline.tv_sec ||
	       (now.tv_sec == deadline.tv_sec &&
		now.tv_nsec >= deadline.tv_nsec);
}

static void *thread_main(void *arg)
{
	struct thread *t = arg;

	if (file_open(&t->own)) {
		violated(t, "opening %s: %s", DEV, strerror(errno));
		return NULL;
	}
	while (!past_deadline())
		one_op(t);
	close(t->own.fd);
	return NULL;
}

static void stats_add(struct stats *to, const struct stats *from)
{
	int c, e;

	for (c = 0; c < C_NR; c++) {
		to->op[c] += from->op[c];
		to->ok[c] += from->ok[c];
		for (e = 0; e < MAX_ERRNO; e++)
			to->err[c][e] += from->err[c][e];
	}
	to->ev_joined += from->ev_joined;
	for (e = 0; e < MAX_ERRNO; e++)
		to->ev_error[e] += from->ev_error[e];
	to->violations += from->violations;
}

static int process_main(unsigned int p, struct stats *out)
{
	struct thread *t = calloc(threads, sizeof(*t));
	struct file *shared = calloc(1, sizeof(*shared));
	unsigned int i;

	if (!t || !shared || file_open(shared)) {
		perror("mcm_stress");
		return 1;
	}
	pthread_mutex_init(&shared->lock, NULL);
	for (i = 0; i < threads; i++) {
		t[i].index = p * threads + i;
		t[i].rng = seed * 1000003 + t[i].index;
		t[i].next_cookie = (uint64_t)t[i].index << 40;
		t[i].shared = shared;
		if (pthread_create(&t[i].tid, NULL, thread_main, &t[i])) {
			perror("pthread_create");
			return 1;
		}
	}
	for (i = 0; i < threads; i++) {
		pthread_join(t[i].tid, NULL);
		stats_add(out, &t[i].st);
	}
	close(shared->fd);
	return 0;
}

static void print_stats(const struct stats *s, double secs)
{
	unsigned long ops = 0;
	int c, e;

	for (c = 0; c < C_NR; c++) {
		ops += s->op[c];
		if (s->op[c])
			printf("op %s %lu\n", cmd_name[c], s->op[c]);
	}
	for (c = 0; c < C_NR; c++)
		if (s->ok[c])
			printf("ok %s %lu\n", cmd_name[c], s->ok[c]);
	for (c = 0; c < C_NR; c++)
		for (e = 0; e < MAX_ERRNO; e++)
			if (s->err[c][e])
				printf("errno %s %s %lu\n", cmd_name[c],
				       e ? strerrorname_np(e) : "E_OUT_OF_RANGE",
				       s->err[c][e]);
	printf("event JOINED 0 %lu\n", s->ev_joined);
	for (e = 0; e < MAX_ERRNO; e++)
		if (s->ev_error[e])
			printf("event ERROR %s %lu\n",
			       e ? strerrorname_np(e) : "E_OUT_OF_RANGE",
			       s->ev_error[e]);
	printf("stress: ops %lu violations %lu seconds %.1f processes %u threads %u seed %llu\n",
	       ops, s->violations, secs, procs, threads,
	       (unsigned long long)seed);
}

static unsigned int read_param(const char *name)
{
	char path[128];
	unsigned int v = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/sys/module/rdma_mcm/parameters/%s",
		 name);
	f = fopen(path, "r");
	if (!f)
		return 0;
	if (fscanf(f, "%u", &v) != 1)
		v = 0;
	fclose(f);
	return v;
}

static void die_usage(void)
{
	fprintf(stderr,
		"usage: mcm_stress [--seconds S] [--procs P] [--threads T] [--groups G]\n"
		"                  [--seed N] [--src ADDR]... [--max-memberships M]\n"
		"                  [--uid UID]\n");
	exit(2);
}

static void add_src(const char *addr)
{
	src[nsrc].sin_family = AF_INET;
	if (inet_pton(AF_INET, addr, &src[nsrc++].sin_addr) != 1)
		die_usage();
}

int main(int argc, char **argv)
{
	struct timespec t0, t1;
	struct stats *all;
	unsigned int p;
	int i, bad = 0;
	long uid = -1;

	seed = time(NULL);
	for (i = 1; i < argc; i++) {
		const char *v = i + 1 < argc ? argv[i + 1] : NULL;

		if (!v)
			die_usage();
		if (!strcmp(argv[i], "--seconds"))
			seconds = strtoul(v, NULL, 0);
		else if (!strcmp(argv[i], "--procs"))
			procs = strtoul(v, NULL, 0);
		else if (!strcmp(argv[i], "--threads"))
			threads = strtoul(v, NULL, 0);
		else if (!strcmp(argv[i], "--groups"))
			ngroups = strtoul(v, NULL, 0);
		else if (!strcmp(argv[i], "--seed"))
			seed = strtoull(v, NULL, 0);
		else if (!strcmp(argv[i], "--uid"))
			uid = strtol(v, NULL, 0);
		else if (!strcmp(argv[i], "--max-memberships"))
			max_memberships = strtoul(v, NULL, 0);
		else if (!strcmp(argv[i], "--src") && nsrc < MAX_SRC)
			add_src(v);
		else
			die_usage();
		i++;
	}
	if (!seconds || !procs || !threads || !ngroups || ngroups > 65535)
		die_usage();
	if (!nsrc) {
		add_src("192.0.2.1");
		add_src("192.0.2.2");
	}
	if (!max_memberships)
		max_memberships = read_param("max_memberships");
	if (uid >= 0 && (setgroups(0, NULL) || setgid(uid) || setuid(uid))) {
		perror("mcm_stress: dropping to --uid");
		return 1;
	}
	if (!max_memberships || max_memberships > MAX_LIVE) {
		fprintf(stderr, "mcm_stress: max_memberships is %u; ",
			max_memberships);
		fprintf(stderr, "set the module parameter to at most %d\n",
			MAX_LIVE);
		return 2;
	}
	all = mmap(NULL, sizeof(*all) * (procs + 1), PROT_READ | PROT_WRITE,
		   MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (all == MAP_FAILED) {
		perror("mmap");
		return 1;
	}
	printf("mcm_stress: %u processes x %u threads, %u s, %u groups, ",
	       procs, threads, seconds, ngroups);
	printf("seed %llu, max_memberships %u, uid %d\n",
	       (unsigned long long)seed, max_memberships, (int)getuid());
	fflush(stdout);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	deadline = t0;
	deadline.tv_sec += seconds;
	for (p = 0; p < procs; p++) {
		pid_t pid = fork();

		if (pid < 0) {
			perror("fork");
			return 1;
		}
		if (!pid) {
			/* a killed parent takes its workers along */
			prctl(PR_SET_PDEATHSIG, SIGKILL);
			_exit(process_main(p, &all[p + 1]));
		}
	}
	for (p = 0; p < procs; p++) {
		int status;

		if (wait(&status) < 0 || !WIFEXITED(status) ||
		    WEXITSTATUS(status)) {
			fprintf(stderr, "mcm_stress: a worker process failed\n");
			bad = 1;
		}
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	for (p = 0; p < procs; p++)
		stats_add(&all[0], &all[p + 1]);
	print_stats(&all[0], (t1.tv_sec - t0.tv_sec) +
		    (t1.tv_nsec - t0.tv_nsec) / 1e9);
	return bad || all[0].violations ? 1 : 0;
}
