// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * mcm_stress: several processes of one user, each with several threads,
 * doing random create / destroy / join / leave / batch join / batch leave
 * / query / list / read / SET_EVENTS / close on /dev/rdma_mcm, across the
 * bench's two Soft-RoCE devices, for a bounded time. Meant to run while
 * something else deletes and re-adds the RDMA device of one source
 * (--lost-src) and takes a netdev down and up
 * (tools/testing/vm/70-stress.sh).
 *
 * Each thread owns a private file (closed and reopened now and then) and
 * shares one file with the other threads of its process. Every file asks
 * for the events it reads (SET_EVENTS) at random, or never asks. What the
 * program checks, per command (mcm_stress_ops.c) and per event read
 * (mcm_stress_events.c), is described there; in short: exact bookkeeping
 * of a private file's contexts and memberships against every command's
 * result, the per-file and per-user limits, batch and list arrays of any
 * entry size written only where the ABI says, every read() held to what
 * its file asked for, and DEVICE_REMOVED once per context that lost its
 * device, after its memberships' errors, with JOIN refused afterwards.
 * A violated check is printed as "violation ..." and fails the run.
 *
 * At the end it prints, summed over every thread and process:
 *   op <OP> <COUNT>              operations attempted, per kind
 *   ok <COMMAND> <COUNT>         calls that succeeded
 *   errno <COMMAND> <NAME> <N>   the errno histogram (batch entries count
 *                                under BATCH_JOIN_ENTRY / BATCH_LEAVE_ENTRY)
 *   event <TYPE> <STATUS> <N>    events read
 *   records <N>                  event records checked
 *   healing contexts <N>         contexts created with RDMA_MCM_CTX_HEAL
 *   sources joined <N>           source-specific joins that worked
 *   ipv6 joined <N>              joins of IPv6 groups that worked
 *   stress: ops N violations N seconds S processes P threads T seed N
 *
 * Usage: mcm_stress [--seconds S] [--procs P] [--threads T] [--groups G]
 *                   [--seed N] [--src ADDR]... [--lost-src ADDR]
 *                   [--max-memberships M] [--close-percent C] [--uid UID]
 *        mcm_stress --budget [--src ADDR] [--uid UID]
 * --src: IPv4 or IPv6 (a context of an IPv6 source joins IPv6 groups, on
 * RoCE v2 rdma_mcm's own); --lost-src: the source (one of --src, IPv4 or
 * IPv6) whose device the run removes;
 * without it, no context may lose its device. --close-percent: how many
 * operations of a private file close and reopen it (default 1). --uid
 * drops to that uid (and gid) before opening anything. --budget: with no
 * other file of the user open, the user can hold exactly
 * max_user_memberships memberships (the per-user account is whole again)
 * and the next join is ENOSPC; it joins on the first --src.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
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
#include <time.h>
#include <unistd.h>

#include "mcm_stress.h"

const char *const cmd_name[C_NR] = {
	"CREATE_CTX", "DESTROY_CTX", "JOIN", "LEAVE", "LEAVE_BY_ADDR",
	"QUERY", "LIST", "BATCH_JOIN", "BATCH_JOIN_ENTRY", "BATCH_LEAVE",
	"BATCH_LEAVE_ENTRY", "READ", "CLOSE", "SET_EVENTS",
};

union srcaddr src[MAX_SRC];
int nsrc;
int lost_src = -1;
static unsigned int seconds = 20, procs = 2, threads = 3;
unsigned int ngroups = 128, max_memberships, close_percent = 1;
unsigned int max_user_memberships, max_user_contexts;
bool user_mem_limited, user_ctx_limited;
struct run *run;
static uint64_t seed;
static struct timespec deadline;

uint64_t rnd(struct thread *t)
{
	/* splitmix64 */
	uint64_t z = (t->rng += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

unsigned int pick(struct thread *t, unsigned int n)
{
	return n ? rnd(t) % n : 0;
}

void violated(struct thread *t, const char *fmt, ...)
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
 * malformed argument unless it says so): anything else, EINVAL above all,
 * is a violation. ENOSPC only when the per-user limit is below what the
 * run's files can hold.
 */
static bool errno_expected(enum cmd c, int err)
{
	switch (c) {
	case C_CREATE:
		return err == ENODEV || err == EMFILE || err == ENOMEM ||
		       (err == ENOSPC && user_ctx_limited);
	case C_DESTROY:
	case C_LIST:
	case C_BATCH_JOIN:
	case C_BATCH_LEAVE:
		return err == ENOENT;
	case C_JOIN:
	case C_BATCH_JOIN_ENTRY:
		return err == ENOENT || err == ENODEV || err == EADDRINUSE ||
		       err == ENOBUFS || err == ENOMEM ||
		       (err == ENOSPC && user_mem_limited);
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

void count(struct thread *t, enum cmd c, int ret)
{
	if (!ret) {
		t->st.ok[c]++;
		return;
	}
	t->st.err[c][ret > 0 && ret < MAX_ERRNO ? ret : 0]++;
	if (!errno_expected(c, ret))
		violated(t, "%s of a well-formed argument failed with %s (%d)",
			 cmd_name[c], strerrorname_np(ret) ?: "?", ret);
}

int xioctl(int fd, unsigned long req, void *arg)
{
	return ioctl(fd, req, arg) ? errno : 0;
}

/* The shared file's bookkeeping is under its lock; a private one's not. */
void lock_shared(struct file *f)
{
	if (!f->own)
		pthread_mutex_lock(&f->lock);
}

void unlock_shared(struct file *f)
{
	if (!f->own)
		pthread_mutex_unlock(&f->lock);
}

/*
 * Memberships the private files of the run certainly hold: the user
 * holds at least as many, and never more than max_user_memberships.
 */
void held_add(struct thread *t, long n)
{
	long v = __atomic_add_fetch(&run->held, n, __ATOMIC_SEQ_CST);

	if (n > 0 && max_user_memberships && v > (long)max_user_memberships)
		violated(t, "the user holds at least %ld memberships, max_user_memberships is %u",
			 v, max_user_memberships);
}

static void one_op(struct thread *t)
{
	bool own = pick(t, 4) != 0;
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
	else if (r < 98)
		c = C_READ;
	else
		c = own ? C_SET_EVENTS : C_READ;
	if (own && pick(t, 100) < close_percent)
		c = C_CLOSE;
	if (!f->nctx && c != C_READ && c != C_CLOSE && c != C_SET_EVENTS)
		c = C_CREATE;
	t->st.op[c]++;
	switch (c) {
	case C_CREATE:
		op_create(t, f);
		break;
	case C_DESTROY:
		op_destroy(t, f);
		break;
	case C_JOIN:
		op_join(t, f);
		break;
	case C_LEAVE:
	case C_LEAVE_ADDR:
		op_leave(t, f, c == C_LEAVE_ADDR);
		break;
	case C_QUERY:
		op_query(t, f);
		break;
	case C_LIST:
		op_list(t, f);
		break;
	case C_BATCH_JOIN:
		op_batch_join(t, f);
		break;
	case C_BATCH_LEAVE:
		op_batch_leave(t, f);
		break;
	case C_READ:
		op_read(t, f);
		break;
	case C_SET_EVENTS:
		op_set_events(t, f);
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

	t->own.own = true;
	if (file_open(&t->own)) {
		violated(t, "opening %s: %s", DEV, strerror(errno));
		return NULL;
	}
	negotiate(t, &t->own, t->all_events);
	while (!past_deadline())
		one_op(t);
	await_device_notices(t, &t->own);
	held_add(t, -t->own.nlive);
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
	to->ev_removed += from->ev_removed;
	to->ev_rejoining += from->ev_rejoining;
	to->ev_rejoined += from->ev_rejoined;
	to->ev_added += from->ev_added;
	to->heal_ctx += from->heal_ctx;
	to->ssm_ok += from->ssm_ok;
	to->v6_ok += from->v6_ok;
	to->records += from->records;
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
		t[i].all_events = i == 0;
		t[i].arr = malloc(ARR_BYTES);
		t[i].copy = malloc(ARR_BYTES);
		t[i].srcs = calloc(MAX_BATCH * MAX_JSRC, JSRC_SIZE);
		if (!t[i].arr || !t[i].copy || !t[i].srcs) {
			perror("malloc");
			return 1;
		}
	}
	/* before the threads: what the shared file reads never changes */
	negotiate(&t[0], shared, true);
	for (i = 0; i < threads; i++) {
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

static const char *ename(int e)
{
	return e ? strerrorname_np(e) ?: "E?" : "E_OUT_OF_RANGE";
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
				       ename(e), s->err[c][e]);
	printf("event JOINED 0 %lu\n", s->ev_joined);
	for (e = 0; e < MAX_ERRNO; e++)
		if (s->ev_error[e])
			printf("event ERROR %s %lu\n", ename(e),
			       s->ev_error[e]);
	printf("event DEVICE_REMOVED ENODEV %lu\n", s->ev_removed);
	printf("event REJOINING 0 %lu\n", s->ev_rejoining);
	printf("event REJOINED 0 %lu\n", s->ev_rejoined);
	printf("event DEVICE_ADDED 0 %lu\n", s->ev_added);
	printf("healing contexts %lu\n", s->heal_ctx);
	printf("sources joined %lu\n", s->ssm_ok);
	printf("ipv6 joined %lu\n", s->v6_ok);
	printf("records %lu\n", s->records);
	printf("stress: ops %lu violations %lu seconds %.1f processes %u threads %u seed %llu\n",
	       ops, s->violations, secs, procs, threads,
	       (unsigned long long)seed);
}

/* A module parameter, 0 when it cannot be read */
static unsigned int param_or_0(const char *name)
{
	long v = get_param(name);

	return v < 0 ? 0 : v;
}

/*
 * --budget: no file of the user is open, so its account must be empty:
 * it joins exactly max_user_memberships memberships over as many files
 * as max_memberships needs, then ENOSPC.
 */
static int check_budget(void)
{
	unsigned int nfiles, i, g, total = 0;
	struct rdma_mcm_create_ctx cc;
	struct rdma_mcm_join j;
	int *fd, ret = 0;

	if (!max_user_memberships || max_user_memberships > 100000 ||
	    !max_memberships || max_memberships > 65535) {
		fprintf(stderr, "mcm_stress: max_user_memberships %u, max_memberships %u\n",
			max_user_memberships, max_memberships);
		return 2;
	}
	nfiles = max_user_memberships / max_memberships + 2;
	fd = calloc(nfiles, sizeof(*fd));
	if (!fd)
		return 1;
	for (i = 0; i < nfiles && !ret; i++) {
		memset(&cc, 0, sizeof(cc));
		memcpy(cc.src, &src[0].in, sizeof(src[0].in));
		cc.src_len = sizeof(src[0].in);
		fd[i] = open(DEV, O_RDWR | O_CLOEXEC);
		if (fd[i] < 0 || xioctl(fd[i], RDMA_MCM_IOC_CREATE_CTX, &cc)) {
			perror("mcm_stress --budget: a file and its context");
			return 1;
		}
		for (g = 0; !ret; g++) {
			memset(&j, 0, sizeof(j));
			j.ctx_id = cc.ctx_id;
			j.join_flags = RDMA_MCM_JOIN_SENDONLY_FULLMEMBER;
			j.addr_len = sizeof(struct sockaddr_in);
			((struct sockaddr_in *)j.addr)->sin_family = AF_INET;
			((struct sockaddr_in *)j.addr)->sin_addr.s_addr =
				htonl(0xef030000 | g);
			ret = xioctl(fd[i], RDMA_MCM_IOC_JOIN, &j);
			if (ret == ENOBUFS) {	/* the file is full */
				ret = 0;
				break;
			}
			total += !ret;
		}
	}
	printf("budget: joined %u of max_user_memberships %u over %u files, then %s\n",
	       total, max_user_memberships, i, ret ? ename(ret) : "nothing");
	while (i--)
		close(fd[i]);
	return total == max_user_memberships && ret == ENOSPC ? 0 : 1;
}

static void die_usage(void)
{
	fprintf(stderr,
		"usage: mcm_stress [--seconds S] [--procs P] [--threads T] [--groups G]\n"
		"                  [--seed N] [--src ADDR]... [--lost-src ADDR]\n"
		"                  [--max-memberships M] [--close-percent C] [--uid UID]\n"
		"       mcm_stress --budget [--src ADDR] [--uid UID]\n");
	exit(2);
}

/* A source address, IPv4 or IPv6 */
static void add_src(const char *addr)
{
	if (nsrc == MAX_SRC)
		die_usage();
	memset(&src[nsrc], 0, sizeof(src[nsrc]));
	if (inet_pton(AF_INET, addr, &src[nsrc].in.sin_addr) == 1)
		src[nsrc].in.sin_family = AF_INET;
	else if (inet_pton(AF_INET6, addr, &src[nsrc].in6.sin6_addr) == 1)
		src[nsrc].in6.sin6_family = AF_INET6;
	else
		die_usage();
	nsrc++;
}

static const char *src_text(int i)
{
	static char buf[INET6_ADDRSTRLEN];

	if (src[i].sa.sa_family == AF_INET6)
		return inet_ntop(AF_INET6, &src[i].in6.sin6_addr, buf,
				 sizeof(buf));
	return inet_ntop(AF_INET, &src[i].in.sin_addr, buf, sizeof(buf));
}

/* --lost-src: the index of the source it names (added if not yet). */
static void set_lost_src(const char *addr)
{
	union srcaddr a;
	int i, n = nsrc;

	add_src(addr);
	a = src[--nsrc];
	for (i = 0; i < n; i++)
		if (!memcmp(&src[i], &a, sizeof(a)))
			break;
	if (i == n)
		src[nsrc++] = a;
	lost_src = i;
}

int main(int argc, char **argv)
{
	const char *lost = NULL;
	struct timespec t0, t1;
	bool do_budget = false;
	unsigned int p;
	int i, bad = 0;
	long uid = -1;

	seed = time(NULL);
	for (i = 1; i < argc; i++) {
		const char *v = i + 1 < argc ? argv[i + 1] : NULL;

		if (!strcmp(argv[i], "--budget")) {
			do_budget = true;
			continue;
		}
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
		else if (!strcmp(argv[i], "--close-percent"))
			close_percent = strtoul(v, NULL, 0);
		else if (!strcmp(argv[i], "--src"))
			add_src(v);
		else if (!strcmp(argv[i], "--lost-src"))
			lost = v;
		else
			die_usage();
		i++;
	}
	if (!seconds || !procs || !threads || !ngroups || ngroups > 65535 ||
	    close_percent > 100)
		die_usage();
	if (!nsrc) {
		add_src("192.0.2.1");
		add_src("192.0.2.2");
	}
	if (lost)
		set_lost_src(lost);
	if (!max_memberships)
		max_memberships = param_or_0("max_memberships");
	max_user_memberships = param_or_0("max_user_memberships");
	max_user_contexts = param_or_0("max_user_contexts");
	user_mem_limited = max_user_memberships <
			   procs * (threads + 1) * max_memberships;
	user_ctx_limited = max_user_contexts < procs * (threads + 1) * MAX_CTX;
	if (uid >= 0 && (setgroups(0, NULL) || setgid(uid) || setuid(uid))) {
		perror("mcm_stress: dropping to --uid");
		return 1;
	}
	if (do_budget)
		return check_budget();
	if (!max_memberships || max_memberships > MAX_LIVE) {
		fprintf(stderr, "mcm_stress: max_memberships is %u; ",
			max_memberships);
		fprintf(stderr, "set the module parameter to at most %d\n",
			MAX_LIVE);
		return 2;
	}
	run = mmap(NULL, sizeof(*run) + sizeof(struct stats) * (procs + 1),
		   PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (run == MAP_FAILED) {
		perror("mmap");
		return 1;
	}
	printf("mcm_stress: %u processes x %u threads, %u s, %u groups, ",
	       procs, threads, seconds, ngroups);
	printf("seed %llu, max_memberships %u, max_user_memberships %u%s, ",
	       (unsigned long long)seed, max_memberships,
	       max_user_memberships, user_mem_limited ? " (reached)" : "");
	printf("lost source %s, uid %d\n",
	       lost_src < 0 ? "none" : src_text(lost_src),
	       (int)getuid());
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
			_exit(process_main(p, &run->sum[p + 1]));
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
		stats_add(&run->sum[0], &run->sum[p + 1]);
	print_stats(&run->sum[0], (t1.tv_sec - t0.tv_sec) +
		    (t1.tv_nsec - t0.tv_nsec) / 1e9);
	return bad || run->sum[0].violations ? 1 : 0;
}
