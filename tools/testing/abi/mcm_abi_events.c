// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * mcm_abi_test: SET_EVENTS (the types and the size a file reads), a
 * blocking read() interrupted, and the source address's port being
 * ignored (also for an unprivileged user). IPv6 groups on RoCE v2, which
 * rdma_mcm joins itself, are mcm_abi_v6.c's.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <grp.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "mcm_abi.h"

#define BIT(t)		RDMA_MCM_EVENT_BIT(t)
#define KNOWN		(BIT(RDMA_MCM_EVENT_JOINED) | BIT(RDMA_MCM_EVENT_ERROR) | \
			 BIT(RDMA_MCM_EVENT_DEVICE_REMOVED) | \
			 BIT(RDMA_MCM_EVENT_REJOINING) | \
			 BIT(RDMA_MCM_EVENT_REJOINED) | \
			 BIT(RDMA_MCM_EVENT_DEVICE_ADDED))
#define NOBODY		65534

/*
 * SET_EVENTS: unknown bits dropped, the size the smaller of the caller's
 * and the kernel's; read() returns the kernel's records whatever larger
 * size was asked; a smaller buffer is EINVAL; types no longer asked for
 * are dropped from the queue.
 */
void test_set_events(void)
{
	struct rdma_mcm_member m;
	uint8_t buf[160];
	uint64_t mask;
	uint32_t size, c, h;
	int fs = open_dev();
	ssize_t n;

	printf("    # SET_EVENTS\n");
	expect_errno(create_ctx(fs, SRC_ADDR, &c), 0, "CREATE_CTX in a new file");
	mask = ~0ULL;
	size = 80;
	expect_errno(set_events(fs, &mask, &size), 0,
		     "SET_EVENTS every bit, 80-byte events");
	report(mask == KNOWN && size == RDMA_MCM_EVENT_SIZE_VER0,
	       "... the kernel delivers JOINED, ERROR, DEVICE_REMOVED, REJOINING, REJOINED, DEVICE_ADDED (mask 0x%llx), in 72 bytes (got %u)",
	       (unsigned long long)mask, size);
	mask = BIT(RDMA_MCM_EVENT_JOINED) | BIT(0) | BIT(7) | (1ULL << 63);
	size = RDMA_MCM_EVENT_SIZE_VER0;
	expect_errno(set_events(fs, &mask, &size), 0,
		     "SET_EVENTS JOINED and unknown types 0, 7, 63");
	report(mask == BIT(RDMA_MCM_EVENT_JOINED) && size == 72,
	       "... unknown types dropped (mask 0x%llx, size %u)",
	       (unsigned long long)mask, size);
	mask = 0;
	size = 4096;
	expect_errno(set_events(fs, &mask, &size), 0,
		     "SET_EVENTS no type, 4096-byte events");
	report(!mask && size == 72, "... mask 0, size 72 (got 0x%llx, %u)",
	       (unsigned long long)mask, size);

	mask = KNOWN;
	size = 80;
	expect_errno(set_events(fs, &mask, &size), 0,
		     "SET_EVENTS every known type, 80-byte events");
	expect_errno(join(fs, c, "239.6.8.1", 0, 1, &h), 0, "JOIN 239.6.8.1");
	report(wait_readable(fs, 20000), "its JOINED is queued");
	expect_errno(read(fs, buf, 71), EINVAL,
		     "read() into 71 bytes (the file's events are 72)");
	report(wait_readable(fs, 0), "... the event is still queued");
	memset(buf, PAT, sizeof(buf));
	n = read(fs, buf, sizeof(buf));
	report(n == 72 && all_bytes(buf + 72, sizeof(buf) - 72, PAT),
	       "a file that asked for 80-byte events reads 72-byte records (got %zd), nothing written past them",
	       n);
	report(((struct rdma_mcm_event *)buf)->handle == h &&
	       ((struct rdma_mcm_event *)buf)->event == RDMA_MCM_EVENT_JOINED,
	       "... it is the JOINED of 239.6.8.1");

	expect_errno(join(fs, c, "239.6.8.2", 0, 2, &h), 0, "JOIN 239.6.8.2");
	report(wait_readable(fs, 20000), "its JOINED is queued");
	mask = BIT(RDMA_MCM_EVENT_ERROR);
	expect_errno(set_events(fs, &mask, &size), 0, "SET_EVENTS ERROR only");
	report(!wait_readable(fs, 0), "the queued JOINED is dropped");
	mask = KNOWN;
	expect_errno(set_events(fs, &mask, &size), 0, "SET_EVENTS every type again");
	report(!wait_readable(fs, 0), "... and does not come back");
	n = query(fs, c, h, &m);
	report(!n && m.state == RDMA_MCM_STATE_JOINED &&
	       !m.events_reported,
	       "the membership is joined, with no event reported (got %u)",
	       m.events_reported);
	close(fs);
}

static void on_alarm(int sig)
{
	(void)sig;
}

/* A blocking read() with nothing to read ends with a signal: EINTR */
void test_read_eintr(void)
{
	struct sigaction sa = { .sa_handler = on_alarm };	/* no SA_RESTART */
	struct rdma_mcm_event ev;
	int fd = open_dev();
	ssize_t n;

	sigemptyset(&sa.sa_mask);
	sigaction(SIGALRM, &sa, NULL);
	alarm(1);
	n = read(fd, &ev, sizeof(ev));
	expect_errno(n, EINTR, "a blocking read() with no event, interrupted by a signal");
	alarm(0);
	signal(SIGALRM, SIG_DFL);
	close(fd);
}

/* ------------------------------------------------------------ ports */

static int create_ctx_port(int fd, const char *src, uint16_t port,
			   uint32_t *ctx_id)
{
	struct rdma_mcm_create_ctx cc = { 0 };
	int ret;

	set_v4_port(cc.src, &cc.src_len, src, port);
	ret = ioctl(fd, RDMA_MCM_IOC_CREATE_CTX, &cc);
	*ctx_id = cc.ctx_id;
	return ret;
}

/* Join @n send-only groups 239.7.x.y on @ctx; how many worked */
static int join_many(int fd, uint32_t ctx, int n, int *first_err)
{
	char group[32];
	int i, ok = 0;

	*first_err = 0;
	for (i = 0; i < n; i++) {
		snprintf(group, sizeof(group), "239.7.%d.%d", i / 200, i % 200 + 1);
		if (!join(fd, ctx, group, 1, i, NULL))
			ok++;
		else if (!*first_err)
			*first_err = errno;
	}
	return ok;
}

/* Read JOINED events of @ctx until @n (60 s at most); how many */
static int count_joined(int fd, uint32_t ctx, int n)
{
	struct rdma_mcm_event ev[16];
	double t0 = now();
	ssize_t r;
	int got = 0, i;

	while (got < n && now() - t0 < 60) {
		if (!wait_readable(fd, 1000))
			continue;
		r = read(fd, ev, sizeof(ev));
		for (i = 0; r > 0 && i < r / (ssize_t)sizeof(ev[0]); i++)
			got += ev[i].event == RDMA_MCM_EVENT_JOINED &&
			       ev[i].ctx_id == ctx;
	}
	return got;
}

/* What uid 65534 may do with a port: bits of the child's exit status */
enum {
	PORT_NOBODY	= 1 << 0,
	PORT_80		= 1 << 1,
	PORT_1		= 1 << 2,
	PORT_TWICE	= 1 << 3,
	PORT_JOINS	= 1 << 4,
};

static int nobody_ports(int joins)
{
	uint32_t c1, c2, c3;
	int fd, res = 0, err;

	if (setgroups(0, NULL) || setresgid(NOBODY, NOBODY, NOBODY) ||
	    setresuid(NOBODY, NOBODY, NOBODY))
		return 0;
	if (getuid() == NOBODY && geteuid() == NOBODY)
		res |= PORT_NOBODY;
	fd = open_dev();
	if (!create_ctx_port(fd, SRC_ADDR, 80, &c1))
		res |= PORT_80;
	if (!create_ctx_port(fd, SRC_ADDR, 1, &c2))
		res |= PORT_1;
	if (!create_ctx_port(fd, SRC_ADDR, 80, &c3))
		res |= PORT_TWICE;
	if ((res & PORT_80) && join_many(fd, c1, joins, &err) == joins)
		res |= PORT_JOINS;
	close(fd);
	return res;
}

/*
 * The source port is ignored: ports below 1024 for anyone, the same
 * address and port twice, and more than slot_size joins on a context
 * with a port (each rdma_cm_id of the context binds a port of its own).
 */
void test_src_port(void)
{
	long slot = get_param("slot_size");
	int n = 2 * (slot > 0 ? slot : 64) + 1;
	int fp = open_dev(), fp2 = open_dev();
	uint32_t c1, c2, c3;
	int ok, err, status, res;
	pid_t pid;

	printf("    # the source port is ignored (slot_size %ld)\n", slot);
	expect_errno(create_ctx_port(fp, SRC_ADDR, 80, &c1), 0,
		     "CREATE_CTX on 192.0.2.2:80");
	expect_errno(create_ctx_port(fp, SRC_ADDR, 80, &c2), 0,
		     "CREATE_CTX on 192.0.2.2:80 again, same file");
	expect_errno(create_ctx_port(fp2, SRC_ADDR, 80, &c3), 0,
		     "CREATE_CTX on 192.0.2.2:80 in another file");
	ok = join_many(fp, c1, n, &err);
	report(ok == n,
	       "%d send-only joins on the context with port 80 all work (%d did, first error %s)",
	       n, ok, errname(err));
	report(count_joined(fp, c1, n) == n, "... and all %d report JOINED", n);
	printf("    # live rdma_cm_id slots: %ld\n", live_count("slots"));
	report(join_many(fp2, c3, 1, &err) == 1,
	       "a join on the other file's 192.0.2.2:80 context (%s)",
	       errname(err));
	close(fp);
	close(fp2);

	fflush(stdout);
	pid = fork();
	if (!pid)
		_exit(nobody_ports(slot + 1));
	res = waitpid(pid, &status, 0) == pid && WIFEXITED(status) ?
	      WEXITSTATUS(status) : 0;
	report(res & PORT_NOBODY, "a child runs as uid %d", NOBODY);
	report(res & PORT_80, "uid %d: CREATE_CTX on 192.0.2.2:80", NOBODY);
	report(res & PORT_1, "uid %d: CREATE_CTX on 192.0.2.2:1", NOBODY);
	report(res & PORT_TWICE, "uid %d: CREATE_CTX on 192.0.2.2:80 twice",
	       NOBODY);
	report(res & PORT_JOINS, "uid %d: %ld joins on the context with port 80",
	       NOBODY, slot + 1);
}
