// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * mcm_limits: the limits on what one user holds through /dev/rdma_mcm,
 * driven by tools/testing/vm/73-limits.sh, which checks what it prints.
 *
 * mcm_limits fill [--files F] [--max N] [--batch B] [--sources S] [--hold]
 *                 [--report-after-release]
 *   opens F files with one context each on 192.0.2.2 (rxe1) and joins
 *   send-only groups round robin over them, B per BATCH_JOIN (1: one JOIN
 *   per call), until an entry fails or N are joined. With S > 0 each join
 *   is a full member's with S sources (198.51.100.1 .. S), a
 *   source-specific join. Prints
 *     uid U / userns INODE       who it runs as, in which user namespace
 *     contexts C / ctx_error E   contexts made, the errno that stopped
 *                                CREATE_CTX (none)
 *     joins J / join_error E     memberships held, the errno that stopped
 *                                the joins (none)
 *     per_file J1 J2 ...         memberships of each file
 *   With --hold it then stops itself (SIGSTOP) holding everything, so
 *   that the test can measure; once continued it closes its files and
 *   exits. --report-after-release prints only after closing: a process
 *   stopped by its memory cgroup's limit has no memory to print with.
 *
 * mcm_limits killbatch [--entries N] [--entry-size S]
 *   a child runs one BATCH_JOIN of N entries of S bytes (default 65536 of
 *   4096: 256 MiB, mapped shared with this parent, which sees each
 *   entry's result as the kernel writes it). Once the first entry is
 *   done the parent SIGKILLs the child and prints
 *     entries N / done_at_kill D1 / done_at_end D2
 *     reaped yes|no / signal SIG
 *   D1 is counted after kill() returned: a kernel that stops a batch on
 *   a fatal signal does at most the entry in flight after it.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <rdma/rdma_mcm_abi.h>

#define SRC_ADDR	"192.0.2.2"
#define MAX_SOURCES	64
#define MAX_FILES	64
#define MAX_BATCH	1024
#define SENTINEL	0x7eadbeef

static const char *errname(int err)
{
	const char *name = err ? strerrorname_np(err) : "none";

	return name ? name : "unknown";
}

static void set_v4(uint8_t *buf, uint32_t *len, uint32_t addr)
{
	struct sockaddr_in sin = { .sin_family = AF_INET };

	sin.sin_addr.s_addr = htonl(addr);
	memset(buf, 0, RDMA_MCM_ADDR_SIZE);
	memcpy(buf, &sin, sizeof(sin));
	*len = sizeof(sin);
}

/* The k-th group of a context: 239.x.y.z, k from 1 (16M of them) */
static uint32_t group(uint32_t k)
{
	return (239U << 24) | (k & 0xffffff);
}

static int create_ctx(int fd, uint32_t *ctx_id)
{
	struct rdma_mcm_create_ctx c = { 0 };
	struct sockaddr_in sin = { .sin_family = AF_INET };
	int ret;

	inet_pton(AF_INET, SRC_ADDR, &sin.sin_addr);
	memcpy(c.src, &sin, sizeof(sin));
	c.src_len = sizeof(sin);
	ret = ioctl(fd, RDMA_MCM_IOC_CREATE_CTX, &c);
	*ctx_id = c.ctx_id;
	return ret;
}

struct fill {
	int files, max, batch, hold, report_late, nr_sources;
	struct rdma_mcm_source sources[MAX_SOURCES];
	int fd[MAX_FILES];
	uint32_t ctx[MAX_FILES];
	uint32_t next[MAX_FILES];	/* next group of each context */
	long joined[MAX_FILES];
	int contexts, ctx_error;
	long joins;
	int join_error;
};

/* The sources of every join: 198.51.100.1 and up */
static void make_sources(struct fill *s)
{
	int i;

	for (i = 0; i < s->nr_sources; i++)
		set_v4(s->sources[i].addr, &s->sources[i].addr_len,
		       (198U << 24) | (51U << 16) | (100U << 8) | (i + 1));
}

/* A join's flags and sources: send-only, or full with the sources */
static void join_of(const struct fill *s, __u32 *join_flags,
		    __u64 *sources, __u32 *nr_sources,
		    __u32 *source_size)
{
	*join_flags = s->nr_sources ? RDMA_MCM_JOIN_FULLMEMBER :
				      RDMA_MCM_JOIN_SENDONLY_FULLMEMBER;
	*sources = s->nr_sources ? (uintptr_t)s->sources : 0;
	*nr_sources = s->nr_sources;
	*source_size = s->nr_sources ? sizeof(s->sources[0]) : 0;
}

/* Join @n groups on file @f; returns 0 or the first failing errno */
static int join_some(struct fill *s, int f, int n,
		     struct rdma_mcm_join_entry *e)
{
	struct rdma_mcm_batch b = { .entries = (uintptr_t)e,
				    .ctx_id = s->ctx[f], .count = n,
				    .entry_size = sizeof(*e) };
	struct rdma_mcm_join j = { .ctx_id = s->ctx[f] };
	int i, err = 0;

	if (s->batch == 1) {
		join_of(s, &j.join_flags, &j.sources, &j.nr_sources,
			&j.source_size);
		set_v4(j.addr, &j.addr_len, group(++s->next[f]));
		if (ioctl(s->fd[f], RDMA_MCM_IOC_JOIN, &j))
			return errno;
		s->joined[f]++;
		s->joins++;
		return 0;
	}
	for (i = 0; i < n; i++) {
		e[i] = (struct rdma_mcm_join_entry){ 0 };
		join_of(s, &e[i].join_flags, &e[i].sources, &e[i].nr_sources,
			&e[i].source_size);
		set_v4(e[i].addr, &e[i].addr_len, group(++s->next[f]));
		e[i].result = SENTINEL;
	}
	if (ioctl(s->fd[f], RDMA_MCM_IOC_BATCH_JOIN, &b))
		return errno;
	for (i = 0; i < n; i++) {
		if (!e[i].result) {
			s->joined[f]++;
			s->joins++;
		} else if (!err) {
			err = -e[i].result;
		}
	}
	return err;
}

static void fill_report(const struct fill *s)
{
	char ns[64] = "?";
	ssize_t n;
	int f;

	n = readlink("/proc/self/ns/user", ns, sizeof(ns) - 1);
	ns[n > 0 ? n : 1] = 0;
	printf("uid %u\nuserns %s\n", getuid(), ns);
	printf("files %d\ncontexts %d\nctx_error %s\n", s->files, s->contexts,
	       errname(s->ctx_error));
	printf("joins %ld\njoin_error %s\nper_file", s->joins,
	       errname(s->join_error));
	for (f = 0; f < s->contexts; f++)
		printf(" %ld", s->joined[f]);
	printf("\n");
	fflush(stdout);
}

static int cmd_fill(struct fill *s)
{
	static struct rdma_mcm_join_entry e[MAX_BATCH];
	int f, n, err = 0;

	/* every page this process needs, before a memory limit can bite */
	memset(e, 0, sizeof(e));
	for (f = 0; f < s->files; f++) {
		s->fd[f] = open("/dev/" RDMA_MCM_DEVICE_NAME, O_RDWR);
		if (s->fd[f] < 0) {
			perror("open /dev/rdma_mcm");
			return 1;
		}
		if (create_ctx(s->fd[f], &s->ctx[f])) {
			s->ctx_error = errno;
			close(s->fd[f]);
			break;
		}
		s->contexts++;
	}
	for (f = 0; s->contexts && !err; f = (f + 1) % s->contexts) {
		n = s->batch;
		if (s->max >= 0 && s->joins + n > s->max)
			n = s->max - s->joins;
		if (n <= 0)
			break;
		err = join_some(s, f, n, e);
	}
	s->join_error = err;
	if (!s->report_late)
		fill_report(s);
	if (s->hold)
		raise(SIGSTOP);
	for (f = 0; f < s->contexts; f++)
		close(s->fd[f]);
	if (s->report_late)
		fill_report(s);
	printf("done\n");
	return 0;
}

/* ------------------------------------------------------------ killbatch */

static long done_entries(uint8_t *map, long n, size_t esz, long from)
{
	struct rdma_mcm_join_entry *e;

	for (; from < n; from++) {
		e = (void *)(map + from * esz);
		if (__atomic_load_n(&e->result, __ATOMIC_RELAXED) ==
		    (int32_t)SENTINEL)
			break;
	}
	return from;
}

static int cmd_killbatch(long n, size_t esz)
{
	struct rdma_mcm_join_entry *e;
	struct rdma_mcm_batch b = { .count = n, .entry_size = esz };
	long d1, d2, i;
	int fd, status = 0, reaped = 0;
	uint32_t ctx;
	uint8_t *map;
	pid_t pid;
	double t0;

	map = mmap(NULL, n * esz, PROT_READ | PROT_WRITE,
		   MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (map == MAP_FAILED) {
		perror("mmap");
		return 1;
	}
	for (i = 0; i < n; i++) {
		e = (void *)(map + i * esz);
		e->join_flags = RDMA_MCM_JOIN_SENDONLY_FULLMEMBER;
		set_v4(e->addr, &e->addr_len, group(i + 1));
		e->result = SENTINEL;
	}
	printf("entries %ld\nentry_size %zu\nmapped_mib %zu\n", n, esz,
	       n * esz >> 20);
	fflush(stdout);
	pid = fork();
	if (!pid) {
		fd = open("/dev/" RDMA_MCM_DEVICE_NAME, O_RDWR);
		if (fd < 0 || create_ctx(fd, &ctx))
			_exit(2);
		b.entries = (uintptr_t)map;
		b.ctx_id = ctx;
		ioctl(fd, RDMA_MCM_IOC_BATCH_JOIN, &b);
		_exit(3);	/* only when the batch was not killed */
	}
	t0 = time(NULL);
	while (done_entries(map, n, esz, 0) == 0 && time(NULL) - t0 < 60 &&
	       waitpid(pid, &status, WNOHANG) == 0)
		usleep(1000);
	kill(pid, SIGKILL);
	d1 = done_entries(map, n, esz, 0);
	t0 = time(NULL);
	while (time(NULL) - t0 < 60) {
		if (waitpid(pid, &status, WNOHANG) == pid) {
			reaped = 1;
			break;
		}
		usleep(10000);
	}
	d2 = done_entries(map, n, esz, d1);
	printf("done_at_kill %ld\ndone_at_end %ld\nreaped %s\n", d1, d2,
	       reaped ? "yes" : "no");
	printf("signal %s\n", reaped && WIFSIGNALED(status) ?
	       sigabbrev_np(WTERMSIG(status)) : "none");
	munmap(map, n * esz);
	return 0;
}

static long arg_num(int argc, char **argv, const char *name, long def)
{
	int i;

	for (i = 2; i < argc - 1; i++)
		if (!strcmp(argv[i], name))
			return strtol(argv[i + 1], NULL, 0);
	return def;
}

static int arg_flag(int argc, char **argv, const char *name)
{
	int i;

	for (i = 2; i < argc; i++)
		if (!strcmp(argv[i], name))
			return 1;
	return 0;
}

int main(int argc, char **argv)
{
	static struct fill s;

	if (argc >= 2 && !strcmp(argv[1], "fill")) {
		s.files = arg_num(argc, argv, "--files", 1);
		s.max = arg_num(argc, argv, "--max", -1);
		s.batch = arg_num(argc, argv, "--batch", 64);
		s.hold = arg_flag(argc, argv, "--hold");
		s.report_late = arg_flag(argc, argv, "--report-after-release");
		s.nr_sources = arg_num(argc, argv, "--sources", 0);
		if (s.files < 1 || s.files > MAX_FILES || s.batch < 1 ||
		    s.batch > MAX_BATCH || s.nr_sources < 0 ||
		    s.nr_sources > MAX_SOURCES) {
			fprintf(stderr, "mcm_limits: bad --files, --batch or --sources\n");
			return 2;
		}
		make_sources(&s);
		return cmd_fill(&s);
	}
	if (argc >= 2 && !strcmp(argv[1], "killbatch"))
		return cmd_killbatch(arg_num(argc, argv, "--entries", 65536),
				     arg_num(argc, argv, "--entry-size", 4096));
	fprintf(stderr, "usage: mcm_limits fill|killbatch [options]\n");
	return 2;
}
