// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * mcm_heal_bench: how long a healing context takes to come back after a
 * device reset, for the benchmark (make bench).
 *
 *   mcm_heal_bench N sendonly|full
 *
 * Opens /dev/rdma_mcm, asks for every event type, creates a healing
 * context (RDMA_MCM_CTX_HEAL) on 192.0.2.2 (rxe1 on veth1), joins N groups
 * in batches and waits for every JOINED. Then it runs 'rdma link delete
 * rxe1' and reads a REJOINING for every membership and the context's
 * DEVICE_REMOVED; then it notes the time and runs 'rdma link add rxe1 type
 * rxe netdev veth1', reading events all along, until every membership has
 * its REJOINED. It prints one line:
 *
 *   HEAL TYPE N added_ms first_ms last_ms max_per_s mean_per_s rejoin_rate
 *
 * with the times from the start of 'rdma link add' to DEVICE_ADDED, to
 * the first and to the last REJOINED; the most REJOINED events in any
 * second after the first (a sliding window over the event times) and
 * their mean rate; and the module's rejoin_rate parameter. Or
 * "HEAL TYPE N timeout|error_WHAT" when it cannot. Raw ioctls (the ABI),
 * so that the figure is the kernel's, not a library's.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <rdma/rdma_mcm_abi.h>

#include "mcm_test.h"

#define SRC_ADDR	"192.0.2.2"
#define FIRST_GROUP	0xef110000u	/* 239.17.0.0 */
#define BATCH		65536u

static const char *g_type;
static unsigned int g_n;

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static void fail(const char *what)
{
	printf("HEAL %s %u error_%s:%s\n", g_type, g_n, what,
	       errno ? strerror(errno) : "unexpected");
	exit(1);
}

static void on_alarm(int sig)
{
	static const char msg[] = "HEAL timeout\n";

	(void)sig;
	if (write(1, msg, sizeof(msg) - 1) < 0)
		_exit(4);
	_exit(3);
}

/* Run a command without waiting for it; its output goes to stderr. */
static pid_t spawn(const char *const argv[])
{
	pid_t pid = fork();

	if (pid < 0)
		fail("fork");
	if (!pid) {
		dup2(2, 1);
		execvp(argv[0], (char *const *)argv);
		_exit(127);
	}
	return pid;
}

static void reap(pid_t pid, const char *what)
{
	int status;

	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
	    WEXITSTATUS(status))
		fail(what);
}

/* One event, waiting for it */
static void next_event(int fd, struct rdma_mcm_event *ev)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };

	for (;;) {
		ssize_t n = read(fd, ev, sizeof(*ev));

		if (n == sizeof(*ev))
			return;
		if (n >= 0 || errno != EAGAIN)
			fail("read");
		poll(&p, 1, -1);
	}
}

static void join_all(int fd, uint32_t ctx, int flags)
{
	struct rdma_mcm_join_entry *je = calloc(g_n, sizeof(*je));
	struct rdma_mcm_batch b = { 0 };
	struct sockaddr_in sin = { .sin_family = AF_INET };
	unsigned int i, k;

	if (!je)
		fail("calloc");
	for (i = 0; i < g_n; i++) {
		sin.sin_addr.s_addr = htonl(FIRST_GROUP + i);
		memcpy(je[i].addr, &sin, sizeof(sin));
		je[i].addr_len = sizeof(sin);
		je[i].join_flags = flags;
		je[i].cookie = i;
	}
	for (i = 0; i < g_n; i += k) {
		k = g_n - i < BATCH ? g_n - i : BATCH;
		b.entries = (uintptr_t)(je + i);
		b.ctx_id = ctx;
		b.count = k;
		b.entry_size = sizeof(*je);
		if (ioctl(fd, RDMA_MCM_IOC_BATCH_JOIN, &b) || b.done != k)
			fail("batch_join");
	}
	free(je);
}

/* The most events within any 1000 ms, over sorted times @t[0..n) */
static unsigned int max_per_second(const double *t, unsigned int n)
{
	unsigned int i, j = 0, best = 0;

	for (i = 0; i < n; i++) {
		while (t[i] - t[j] >= 1000.0)
			j++;
		if (i - j + 1 > best)
			best = i - j + 1;
	}
	return best;
}

int main(int argc, char **argv)
{
	static const char *const del[] = {
		"rdma", "link", "delete", "rxe1", NULL,
	};
	static const char *const add[] = {
		"rdma", "link", "add", "rxe1", "type", "rxe", "netdev", "veth1",
		NULL,
	};
	struct rdma_mcm_set_events se = {
		.event_mask = ~0ULL,
		.event_size = sizeof(struct rdma_mcm_event),
	};
	struct rdma_mcm_create_ctx cc = { .flags = RDMA_MCM_CTX_HEAL };
	struct sockaddr_in src = { .sin_family = AF_INET };
	unsigned int joined = 0, lost = 0, rejoined = 0;
	struct rdma_mcm_event ev;
	double t0, added = -1, *t;
	int fd, removed = 0;
	pid_t pid;

	if (argc != 3 || (strcmp(argv[2], "sendonly") && strcmp(argv[2], "full"))) {
		fprintf(stderr, "usage: %s N sendonly|full\n", argv[0]);
		return 2;
	}
	g_n = strtoul(argv[1], NULL, 0);
	g_type = argv[2];
	t = calloc(g_n ? g_n : 1, sizeof(*t));
	if (!t || !g_n)
		fail("n");
	signal(SIGALRM, on_alarm);
	alarm(600);

	fd = open("/dev/rdma_mcm", O_RDWR | O_NONBLOCK);
	if (fd < 0)
		fail("open");
	if (ioctl(fd, RDMA_MCM_IOC_SET_EVENTS, &se))
		fail("set_events");
	inet_pton(AF_INET, SRC_ADDR, &src.sin_addr);
	memcpy(cc.src, &src, sizeof(src));
	cc.src_len = sizeof(src);
	if (ioctl(fd, RDMA_MCM_IOC_CREATE_CTX, &cc))
		fail("create_ctx");
	join_all(fd, cc.ctx_id, !strcmp(g_type, "sendonly") ?
		 RDMA_MCM_JOIN_SENDONLY_FULLMEMBER : RDMA_MCM_JOIN_FULLMEMBER);
	while (joined < g_n) {
		next_event(fd, &ev);
		if (ev.event != RDMA_MCM_EVENT_JOINED)
			fail("join_failed");
		joined++;
	}

	pid = spawn(del);
	while (lost < g_n || !removed) {
		next_event(fd, &ev);
		if (ev.event == RDMA_MCM_EVENT_REJOINING)
			lost++;
		else if (ev.event == RDMA_MCM_EVENT_DEVICE_REMOVED)
			removed = 1;
		else
			fail("unexpected_event_on_delete");
	}
	reap(pid, "rdma_link_delete");

	t0 = now_ms();
	pid = spawn(add);
	while (rejoined < g_n) {
		next_event(fd, &ev);
		if (ev.event == RDMA_MCM_EVENT_DEVICE_ADDED && added < 0)
			added = now_ms() - t0;
		else if (ev.event == RDMA_MCM_EVENT_REJOINED)
			t[rejoined++] = now_ms() - t0;
		else if (ev.event != RDMA_MCM_EVENT_REJOINING)
			fail("unexpected_event_on_add");	/* ERROR */
	}
	reap(pid, "rdma_link_add");
	printf("HEAL %s %u %.0f %.0f %.0f %u %.0f %ld\n", g_type, g_n, added,
	       t[0], t[g_n - 1], max_per_second(t, g_n),
	       g_n > 1 && t[g_n - 1] > t[0] ?
	       (g_n - 1) * 1000.0 / (t[g_n - 1] - t[0]) : 0.0,
	       get_param("rejoin_rate"));
	close(fd);
	free(t);
	return 0;
}
