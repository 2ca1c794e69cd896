// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * mcm_bench: join and leave N multicast groups through one contender and
 * print the time each phase took, for the benchmark (issue: make bench).
 *
 *   mcm_bench CONTENDER WORKLOAD N TYPE
 *	CONTENDER  shim   librdmamcm, one call per group
 *		   batch  librdmamcm batch join/leave (rdma_mcm in one call)
 *		   ucma   librdmacm: rdma_join_multicast/rdma_leave_multicast
 *			  on one rdma_cm_id with an event channel
 *		   preload the ucma contender's code, run with
 *			  LD_PRELOAD=librdmamcm-preload.so (checked): an
 *			  unmodified librdmacm program served by rdma_mcm
 *		   noop   N VERSION ioctls on /dev/rdma_mcm (the syscall floor)
 *	WORKLOAD   joinleave  join all, wait for every joined event, leave all
 *		   cancel     join and leave each group at once
 *		   hold       join all, wait for the events, print "HOLDING",
 *			      then wait for SIGTERM (memory measurements)
 *		   latency    N times: join one group, wait for its joined
 *			      event, leave; the join-to-event time of each
 *			      (shim, ucma and preload only)
 *		   dump       join all, wait for the events, then dump the
 *			      host's memberships through netlink
 *			      (rdma_mcm_nl_dump_members()) DUMP_ROUNDS
 *			      times (shim and batch only)
 *	TYPE       sendonly | full
 *
 * Prints one line: "RESULT contender workload type N phase1_us phase2_us"
 * (joinleave: join+wait and leave; cancel and noop: total and 0), or
 * "RESULT ... timeout" when the MCM_BENCH_BUDGET seconds (default 120)
 * run out, which is a result too: the contender could not reach N.
 * The latency workload prints "LATENCY contender type N median_us p99_us
 * min_us max_us" instead, the dump workload "DUMP contender type N
 * entries median_us min_us max_us" (entries: what the last dump saw).
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include <librdmamcm.h>
#include <rdma/rdma_cma.h>

#include "mcm_mark.h"

#define SRC_ADDR	"192.0.2.2"
#define FIRST_GROUP	0xef100000u	/* 239.16.0.0 */
#define BATCH		65536u

static const char *g_contender, *g_workload, *g_type;
static unsigned int g_n;
static uint32_t g_tag;
static int g_profile = -1;	/* MCM_BENCH_PROFILE: the phase to profile */

static double now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

/*
 * The time at phase boundary @b (0: the first phase starts, 1: it ends and
 * the second starts, 2: the second ends), marked for the instruction
 * counter (mcm_mark.h): under make bench's QEMU plugin, the instructions
 * between two boundaries are the phase's.
 */
static double stamp(int b)
{
	/* the instruction counter's profile of one phase (scripts/insn-profile) */
	if (b == g_profile + 1)
		MCM_MARK(MCM_MARK_PROFILE, 0);
	switch (b) {
	case 0:
		MCM_MARK(MCM_MARK_BOUNDARY, 0);
		break;
	case 1:
		MCM_MARK(MCM_MARK_BOUNDARY, 1);
		break;
	default:
		MCM_MARK(MCM_MARK_BOUNDARY, 2);
		break;
	}
	if (b == g_profile)
		MCM_MARK(MCM_MARK_PROFILE, 1);
	return now_us();
}

static void result(const char *what)
{
	printf("RESULT %s %s %s %u %s tag=%u\n", g_contender, g_workload,
	       g_type, g_n, what, g_tag);
	fflush(stdout);
}

static void on_alarm(int sig)
{
	(void)sig;
	result("timeout");
	_exit(3);
}

static void fail(const char *what)
{
	char buf[160];

	snprintf(buf, sizeof(buf), "error %s:%s", what, strerror(errno));
	for (char *p = buf; *p; p++)
		if (*p == ' ')
			*p = '_';
	result(buf);
	exit(1);
}

static void group(unsigned int i, struct sockaddr_in *sin)
{
	memset(sin, 0, sizeof(*sin));
	sin->sin_family = AF_INET;
	sin->sin_addr.s_addr = htonl(FIRST_GROUP + i);
}

static void report(double a, double b)
{
	char buf[64];

	snprintf(buf, sizeof(buf), "%.0f %.0f", a, b);
	result(buf);
}

#define DUMP_ROUNDS	5

static int count_member(const struct rdma_mcm_nl_member *m, void *arg)
{
	(void)m;
	++*(unsigned long *)arg;
	return 0;
}

static int cmp_double(const void *a, const void *b);

/* In the dump workload, time DUMP_ROUNDS dumps of every membership. */
static void dump_rounds(void)
{
	double t[DUMP_ROUNDS], t0;
	unsigned long entries = 0;
	struct rdma_mcm_nl *nl;
	int r;

	if (strcmp(g_workload, "dump"))
		return;
	nl = rdma_mcm_nl_open();
	if (!nl)
		fail("rdma_mcm_nl_open");
	for (r = 0; r < DUMP_ROUNDS; r++) {
		entries = 0;
		t0 = now_us();
		if (rdma_mcm_nl_dump_members(nl, 0, count_member, &entries))
			fail("rdma_mcm_nl_dump_members");
		t[r] = now_us() - t0;
	}
	rdma_mcm_nl_close(nl);
	qsort(t, DUMP_ROUNDS, sizeof(t[0]), cmp_double);
	printf("DUMP %s %s %u %lu %.0f %.0f %.0f\n", g_contender, g_type, g_n,
	       entries, t[DUMP_ROUNDS / 2], t[0], t[DUMP_ROUNDS - 1]);
	fflush(stdout);
	exit(0);
}

/* In the hold workload, keep every membership until SIGTERM. */
static void hold(void)
{
	if (strcmp(g_workload, "hold"))
		return;
	alarm(0);
	printf("HOLDING %s %u\n", g_contender, g_n);
	fflush(stdout);
	for (;;)
		pause();
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* The latency workload's line: median, p99 (nearest rank), min, max. */
static void report_latency(double *lat, unsigned int n)
{
	unsigned int p99 = (unsigned int)(0.99 * n + 0.999999);

	qsort(lat, n, sizeof(*lat), cmp_double);
	if (p99 < 1)
		p99 = 1;
	printf("LATENCY %s %s %u %.1f %.1f %.1f %.1f\n", g_contender, g_type,
	       n, n % 2 ? lat[n / 2] : (lat[n / 2 - 1] + lat[n / 2]) / 2,
	       lat[p99 - 1], lat[0], lat[n - 1]);
	fflush(stdout);
}

/* ---------------------------------------------------------- rdma_mcm */

static struct rdma_mcm_channel *shim_open(uint32_t *ctx)
{
	struct sockaddr_in src = { .sin_family = AF_INET };
	struct rdma_mcm_channel *ch;

	inet_pton(AF_INET, SRC_ADDR, &src.sin_addr);
	ch = rdma_mcm_open_channel(0);
	if (!ch)
		fail("open_channel");
	if (rdma_mcm_create_ctx(ch, (struct sockaddr *)&src, ctx))
		fail("create_ctx");
	return ch;
}

static void shim_wait_joined(struct rdma_mcm_channel *ch, unsigned int n)
{
	struct rdma_mcm_event ev;

	while (n) {
		if (rdma_mcm_wait_event(ch, &ev, -1))
			fail("wait_event");
		if (ev.event != RDMA_MCM_EVENT_JOINED)
			fail("join_error_event");
		n--;
	}
}

static void shim_run(int flags, int batch)
{
	struct rdma_mcm_join_entry *je;
	struct rdma_mcm_leave_entry *le;
	struct rdma_mcm_channel *ch;
	struct sockaddr_in sin;
	double t0, t1, t2;
	unsigned int i, k;
	uint32_t ctx;

	je = calloc(g_n, sizeof(*je));
	le = calloc(g_n, sizeof(*le));
	if (!je || !le)
		fail("calloc");
	for (i = 0; i < g_n; i++) {
		group(i, &sin);
		memcpy(je[i].addr, &sin, sizeof(sin));
		je[i].addr_len = sizeof(sin);
		je[i].join_flags = flags;
		je[i].cookie = i;
	}
	ch = shim_open(&ctx);
	t0 = stamp(0);
	for (i = 0; i < g_n; i += k) {
		k = batch ? (g_n - i < BATCH ? g_n - i : BATCH) : 1;
		if (batch) {
			if (rdma_mcm_join_batch(ch, ctx, je + i, k) != (int)k)
				fail("join_batch");
		} else if (rdma_mcm_join(ch, ctx, (struct sockaddr *)je[i].addr,
					 flags, i, &je[i].handle)) {
			fail("join");
		}
		if (!strcmp(g_workload, "cancel") && !batch &&
		    rdma_mcm_leave(ch, ctx, je[i].handle))
			fail("leave");
	}
	if (!strcmp(g_workload, "cancel") && !batch) {
		report(stamp(1) - t0, 0);
		return;
	}
	if (strcmp(g_workload, "cancel"))
		shim_wait_joined(ch, g_n);
	hold();
	dump_rounds();
	/* batch cancel: one phase, the joins and the leaves */
	t1 = strcmp(g_workload, "cancel") ? stamp(1) : now_us();
	for (i = 0; i < g_n; i++)
		le[i].handle = je[i].handle;
	for (i = 0; i < g_n; i += k) {
		k = batch ? (g_n - i < BATCH ? g_n - i : BATCH) : 1;
		if (batch) {
			if (rdma_mcm_leave_batch(ch, ctx, le + i, k) != (int)k)
				fail("leave_batch");
		} else if (rdma_mcm_leave(ch, ctx, le[i].handle)) {
			fail("leave");
		}
	}
	if (!strcmp(g_workload, "cancel")) {
		t2 = stamp(1);
		report(t2 - t0, 0);
	} else {
		t2 = stamp(2);
		report(t1 - t0, t2 - t1);
	}
	rdma_mcm_close_channel(ch);
}

/* One group, joined and left N times; each join timed to its event. */
static void shim_latency(int flags)
{
	struct rdma_mcm_channel *ch;
	struct rdma_mcm_event ev;
	struct sockaddr_in sin;
	unsigned int i;
	uint32_t ctx, h;
	double *lat, t0;

	lat = calloc(g_n, sizeof(*lat));
	if (!lat)
		fail("calloc");
	group(0, &sin);
	ch = shim_open(&ctx);
	for (i = 0; i < g_n; i++) {
		t0 = now_us();
		if (rdma_mcm_join(ch, ctx, (struct sockaddr *)&sin, flags, i,
				  &h))
			fail("join");
		if (rdma_mcm_wait_event(ch, &ev, -1))
			fail("wait_event");
		lat[i] = now_us() - t0;
		if (ev.event != RDMA_MCM_EVENT_JOINED || ev.handle != h)
			fail("join_error_event");
		if (rdma_mcm_leave(ch, ctx, h))
			fail("leave");
	}
	report_latency(lat, g_n);
	rdma_mcm_close_channel(ch);
}

static void noop_run(void)
{
	struct rdma_mcm_version v;
	unsigned int i;
	double t0;
	int fd = open("/dev/rdma_mcm", O_RDWR);

	if (fd < 0)
		fail("open");
	t0 = stamp(0);
	for (i = 0; i < g_n; i++)
		if (ioctl(fd, RDMA_MCM_IOC_VERSION, &v))
			fail("ioctl");
	report(stamp(1) - t0, 0);
	close(fd);
}

/* ---------------------------------------------------------- librdmacm */

static void ucma_join(struct rdma_cm_id *id, unsigned int i, int flags)
{
	struct rdma_cm_join_mc_attr_ex attr = { 0 };
	struct sockaddr_in sin;

	group(i, &sin);
	attr.comp_mask = RDMA_CM_JOIN_MC_ATTR_ADDRESS |
			 RDMA_CM_JOIN_MC_ATTR_JOIN_FLAGS;
	attr.addr = (struct sockaddr *)&sin;
	attr.join_flags = flags ? RDMA_MC_JOIN_FLAG_SENDONLY_FULLMEMBER :
				  RDMA_MC_JOIN_FLAG_FULLMEMBER;
	if (rdma_join_multicast_ex(id, &attr, (void *)(uintptr_t)i))
		fail("rdma_join_multicast_ex");
}

static void ucma_leave(struct rdma_cm_id *id, unsigned int i)
{
	struct sockaddr_in sin;

	group(i, &sin);
	if (rdma_leave_multicast(id, (struct sockaddr *)&sin))
		fail("rdma_leave_multicast");
}

/* An event channel and a UD rdma_cm_id bound to the source address */
static struct rdma_cm_id *ucma_open(struct rdma_event_channel **ec)
{
	struct sockaddr_in src = { .sin_family = AF_INET };
	struct rdma_cm_id *id;

	inet_pton(AF_INET, SRC_ADDR, &src.sin_addr);
	*ec = rdma_create_event_channel();
	if (!*ec || rdma_create_id(*ec, &id, NULL, RDMA_PS_UDP))
		fail("rdma_create_id");
	if (rdma_bind_addr(id, (struct sockaddr *)&src))
		fail("rdma_bind_addr");
	return id;
}

static void ucma_run(int flags)
{
	struct rdma_event_channel *ec;
	struct rdma_cm_event *ev;
	struct rdma_cm_id *id;
	double t0, t1, t2;
	unsigned int i;

	id = ucma_open(&ec);
	t0 = stamp(0);
	for (i = 0; i < g_n; i++) {
		ucma_join(id, i, flags);
		/*
		 * The leave waits until every event of the membership that
		 * the kernel reported was acknowledged: a join event already
		 * fetched but not acked makes it hang (librdmacm's trap).
		 */
		if (!strcmp(g_workload, "cancel"))
			ucma_leave(id, i);
	}
	if (!strcmp(g_workload, "cancel")) {
		report(stamp(1) - t0, 0);
		return;
	}
	for (i = 0; i < g_n; i++) {
		if (rdma_get_cm_event(ec, &ev))
			fail("rdma_get_cm_event");
		if (ev->event != RDMA_CM_EVENT_MULTICAST_JOIN)
			fail("join_error_event");
		rdma_ack_cm_event(ev);
	}
	hold();
	t1 = stamp(1);
	for (i = 0; i < g_n; i++)
		ucma_leave(id, i);
	t2 = stamp(2);
	report(t1 - t0, t2 - t1);
	rdma_destroy_id(id);
	rdma_destroy_event_channel(ec);
}

static void ucma_latency(int flags)
{
	struct rdma_event_channel *ec;
	struct rdma_cm_event *ev;
	struct rdma_cm_id *id;
	unsigned int i;
	double *lat, t0;

	lat = calloc(g_n, sizeof(*lat));
	if (!lat)
		fail("calloc");
	id = ucma_open(&ec);
	for (i = 0; i < g_n; i++) {
		t0 = now_us();
		ucma_join(id, 0, flags);
		if (rdma_get_cm_event(ec, &ev))
			fail("rdma_get_cm_event");
		lat[i] = now_us() - t0;
		if (ev->event != RDMA_CM_EVENT_MULTICAST_JOIN)
			fail("join_error_event");
		rdma_ack_cm_event(ev);
		ucma_leave(id, 0);
	}
	report_latency(lat, g_n);
	rdma_destroy_id(id);
	rdma_destroy_event_channel(ec);
}

/* The preload contender: rdma_join_multicast must be the preload's */
static void check_preloaded(void)
{
	void *f = dlsym(RTLD_DEFAULT, "rdma_join_multicast");
	Dl_info info;

	if (!f || !dladdr(f, &info) || !info.dli_fname ||
	    !strstr(info.dli_fname, "librdmamcm-preload"))
		fail("preload_not_loaded");
}

int main(int argc, char **argv)
{
	const char *budget = getenv("MCM_BENCH_BUDGET");
	int sendonly;

	if (argc != 5) {
		fprintf(stderr,
			"usage: %s shim|batch|ucma|preload|noop joinleave|cancel|hold|latency|dump N sendonly|full\n",
			argv[0]);
		return 2;
	}
	g_contender = argv[1];
	g_workload = argv[2];
	g_n = strtoul(argv[3], NULL, 0);
	g_type = argv[4];
	/* the instruction counter's name for this run (mcm_mark.h) */
	g_tag = getenv("MCM_BENCH_TAG") ?
		(uint32_t)strtoul(getenv("MCM_BENCH_TAG"), NULL, 0) :
		(uint32_t)getpid();
	mcm_mark_tag(g_tag);
	if (getenv("MCM_BENCH_PROFILE"))
		g_profile = atoi(getenv("MCM_BENCH_PROFILE"));
	sendonly = !strcmp(g_type, "sendonly");
	if (!strcmp(g_contender, "preload"))
		check_preloaded();
	signal(SIGALRM, on_alarm);
	alarm(budget ? atoi(budget) : 120);

	if (!strcmp(g_workload, "latency")) {
		if (!g_n)
			return 2;
		if (!strcmp(g_contender, "shim"))
			shim_latency(sendonly);
		else if (!strcmp(g_contender, "ucma") ||
			 !strcmp(g_contender, "preload"))
			ucma_latency(sendonly);
		else
			return 2;
		return 0;
	}
	if (!strcmp(g_contender, "shim"))
		shim_run(sendonly, 0);
	else if (!strcmp(g_contender, "batch"))
		shim_run(sendonly, 1);
	else if (!strcmp(g_contender, "ucma") ||
		 !strcmp(g_contender, "preload"))
		ucma_run(sendonly);
	else if (!strcmp(g_contender, "noop"))
		noop_run();
	else
		return 2;
	return 0;
}
