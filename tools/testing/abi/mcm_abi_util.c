// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * mcm_abi_test: KTAP reporting and the small helpers every part uses.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "mcm_abi.h"

static int checks, failures;
static unsigned char seen[256];	/* errnos the module returned */

static void vreport(const char *prefix, const char *suffix, const char *fmt,
		    va_list ap)
{
	printf("    %sok %d ", prefix, ++checks);
	vprintf(fmt, ap);
	printf("%s\n", suffix);
	fflush(stdout);
}

void report(int ok, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport(ok ? "" : "not ", "", fmt, ap);
	va_end(ap);
	if (!ok)
		failures++;
}

/* A KTAP SKIP: counted, neither passed nor failed; @why says why. */
void skip(const char *why, const char *fmt, ...)
{
	char suffix[256];
	va_list ap;

	snprintf(suffix, sizeof(suffix), " # SKIP %s", why);
	va_start(ap, fmt);
	vreport("", suffix, fmt, ap);
	va_end(ap);
}

int failed_checks(void)
{
	return failures;
}

int nr_checks(void)
{
	return checks;
}

const char *errname(int err)
{
	const char *name = err ? strerrorname_np(err) : "success";

	return name ? name : "unknown errno";
}

/* An errno the module returned (a batch entry's result negated) */
void note_errno(int err)
{
	if (err > 0 && err < (int)sizeof(seen))
		seen[err] = 1;
}

/*
 * The errno names of the table in Documentation/uapi.rst (copied into
 * the guest), as lib.sh's documented_errnos reads them: the rows between
 * the second and third rule after the "Errors" title. 0 when there is
 * no such file.
 */
static int documented(char *names, size_t len)
{
	FILE *f = fopen(UAPI_RST, "r");
	char line[256], name[32];
	int errors = 0, rules = 0;

	if (!f)
		return 0;
	snprintf(names, len, " ");
	while (fgets(line, sizeof(line), f)) {
		if (!strcmp(line, "Errors\n"))
			errors = 1;
		else if (errors && line[0] == '=' && strstr(line, " ="))
			rules++;
		else if (errors && rules == 2 && line[0] == 'E' &&
			 sscanf(line, "%31[A-Z0-9]", name) == 1)
			snprintf(names + strlen(names), len - strlen(names),
				 "%s ", name);
	}
	fclose(f);
	return 1;
}

/* Every errno the module returned in this run is in the ABI's table */
void check_errnos_documented(void)
{
	char doc[1024], missing[256] = "", all[512] = "", key[40];
	int e;

	if (!documented(doc, sizeof(doc))) {
		skip("no " UAPI_RST,
		     "every errno returned is in Documentation/uapi.rst");
		return;
	}
	for (e = 1; e < (int)sizeof(seen); e++) {
		if (!seen[e])
			continue;
		snprintf(key, sizeof(key), " %s ", errname(e));
		snprintf(all + strlen(all), sizeof(all) - strlen(all), "%s",
			 key + 1);
		if (!strstr(doc, key))
			snprintf(missing + strlen(missing),
				 sizeof(missing) - strlen(missing), "%s",
				 key + 1);
	}
	report(!missing[0],
	       "every errno returned in this run is in Documentation/uapi.rst's table (%s; not there: %s)",
	       all, missing[0] ? missing : "none");
}

/* expect_errno(ret, want, what): ret is an ioctl/read result */
void expect_errno(int ret, int want, const char *what)
{
	int err = ret < 0 ? errno : 0;

	note_errno(err);

	if (want)
		report(ret < 0 && err == want, "%s: %s (got %s)", what,
		       strerror(want), ret < 0 ? strerror(err) : "success");
	else
		report(ret >= 0, "%s: succeeds (got %s)", what,
		       ret < 0 ? strerror(err) : "success");
}

void set_v4_port(uint8_t *buf, uint32_t *len, const char *addr,
		 uint16_t port)
{
	struct sockaddr_in sin = { .sin_family = AF_INET };

	inet_pton(AF_INET, addr, &sin.sin_addr);
	sin.sin_port = htons(port);
	memset(buf, 0, RDMA_MCM_ADDR_SIZE);
	memcpy(buf, &sin, sizeof(sin));
	*len = sizeof(sin);
}

void set_v4(uint8_t *buf, uint32_t *len, const char *addr)
{
	set_v4_port(buf, len, addr, 0);
}

int open_dev(void)
{
	int fd = open("/dev/" RDMA_MCM_DEVICE_NAME, O_RDWR | O_CLOEXEC);

	if (fd < 0) {
		perror("open /dev/rdma_mcm");
		exit(1);
	}
	return fd;
}

int create_ctx(int fd, const char *src, uint32_t *ctx_id)
{
	struct rdma_mcm_create_ctx c = { 0 };
	int ret;

	set_v4(c.src, &c.src_len, src);
	ret = ioctl(fd, RDMA_MCM_IOC_CREATE_CTX, &c);
	*ctx_id = c.ctx_id;
	return ret;
}

int destroy_ctx(int fd, uint32_t ctx_id)
{
	struct rdma_mcm_destroy_ctx d = { .ctx_id = ctx_id };

	return ioctl(fd, RDMA_MCM_IOC_DESTROY_CTX, &d);
}

int join(int fd, uint32_t ctx_id, const char *group, uint32_t flags,
	 uint64_t cookie, uint32_t *handle)
{
	struct rdma_mcm_join j = { .ctx_id = ctx_id, .join_flags = flags,
				   .cookie = cookie };
	int ret;

	set_v4(j.addr, &j.addr_len, group);
	ret = ioctl(fd, RDMA_MCM_IOC_JOIN, &j);
	if (handle)
		*handle = j.handle;
	return ret;
}

int leave(int fd, uint32_t ctx_id, uint32_t handle,
	  uint32_t *events_reported)
{
	struct rdma_mcm_leave l = { .ctx_id = ctx_id, .handle = handle };
	int ret;

	ret = ioctl(fd, RDMA_MCM_IOC_LEAVE, &l);
	if (events_reported)
		*events_reported = l.events_reported;
	return ret;
}

int query(int fd, uint32_t ctx_id, uint32_t handle, struct rdma_mcm_member *m)
{
	struct rdma_mcm_query q = { .ctx_id = ctx_id, .handle = handle };
	int ret;

	ret = ioctl(fd, RDMA_MCM_IOC_QUERY, &q);
	*m = q.member;
	return ret;
}

int set_events(int fd, uint64_t *mask, uint32_t *size)
{
	struct rdma_mcm_set_events s = { .event_mask = *mask,
					 .event_size = *size };
	int ret;

	ret = ioctl(fd, RDMA_MCM_IOC_SET_EVENTS, &s);
	*mask = s.event_mask;
	*size = s.event_size;
	return ret;
}

/* ioctl @cmd with its size bits set to @size: an older or newer binary */
int ioctl_sized(int fd, unsigned long cmd, void *arg, size_t size)
{
	cmd &= ~((unsigned long)_IOC_SIZEMASK << _IOC_SIZESHIFT);
	cmd |= (unsigned long)size << _IOC_SIZESHIFT;
	return ioctl(fd, cmd, arg);
}

/* live_count("members"): rdma_mcm's live objects of a kind (debugfs) */
long live_count(const char *kind)
{
	FILE *f = fopen("/sys/kernel/debug/rdma_mcm/live", "r");
	char name[32];
	long v, ret = -1;

	if (!f)
		return -1;
	while (fscanf(f, "%31s %ld", name, &v) == 2)
		if (!strcmp(name, kind))
			ret = v;
	fclose(f);
	return ret;
}

/* Every live counter of rdma_mcm is zero (and there are some). */
int live_zero(void)
{
	FILE *f = fopen("/sys/kernel/debug/rdma_mcm/live", "r");
	char name[32];
	long v;
	int n = 0, zero = 1;

	if (!f)
		return 0;
	while (fscanf(f, "%31s %ld", name, &v) == 2) {
		n++;
		if (v)
			zero = 0;
	}
	fclose(f);
	return zero && n >= 6;
}

/* Does LIST show a membership of @group on @ctx? -1 when LIST fails. */
int list_has_group(int fd, uint32_t ctx, const char *group)
{
	struct rdma_mcm_member m[16];
	struct rdma_mcm_list l = { .ctx_id = ctx, .entry_size = sizeof(m[0]) };
	uint8_t want[RDMA_MCM_ADDR_SIZE];
	uint32_t len, i;

	set_v4(want, &len, group);
	l.entries = (uintptr_t)m;
	do {
		l.count = 16;
		if (ioctl(fd, RDMA_MCM_IOC_LIST, &l))
			return -1;
		for (i = 0; i < l.count; i++)
			if (m[i].addr_len == len && !memcmp(m[i].addr, want, len))
				return 1;
		l.start = l.next;
	} while (l.next);
	return 0;
}

/* A page holding @len bytes of @src, then made read-only. */
void *ro_copy(const void *src, size_t len)
{
	void *p = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		return NULL;
	memcpy(p, src, len);
	mprotect(p, 4096, PROT_READ);
	return p;
}

int wait_readable(int fd, int ms)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };

	return poll(&p, 1, ms) == 1 && (p.revents & POLLIN);
}

/* Does /proc/net/igmp list @hex (as it prints groups: 239.5.2.3 = 030205EF)? */
int igmp_lists(const char *hex)
{
	char line[256];
	int found = 0;
	FILE *f = fopen("/proc/net/igmp", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (strstr(line, hex))
			found = 1;
	fclose(f);
	return found;
}

double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Run a program (found in PATH) to its end; its exit status, or -1. */
int run_cmd(const char *const argv[])
{
	int status;
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid < 0)
		return -1;
	if (!pid) {
		/* its chatter goes to the console, not the KTAP channel */
		dup2(2, 1);
		execvp(argv[0], (char *const *)argv);
		_exit(127);
	}
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

int all_bytes(const void *p, size_t len, uint8_t b)
{
	const uint8_t *c = p;

	while (len--)
		if (*c++ != b)
			return 0;
	return 1;
}

int has_byte(const void *p, size_t len, uint8_t b)
{
	return !!memchr(p, b, len);
}

/*
 * A member of @msz bytes the kernel wrote over a buffer of @b: no byte of
 * @b left, but in state_time_ns, a clock value that may hold any byte
 * (it must not be all @b).
 */
int member_has_byte(const void *m, size_t msz, uint8_t b)
{
	size_t t = offsetof(struct rdma_mcm_member, state_time_ns);
	size_t n = sizeof(((struct rdma_mcm_member *)0)->state_time_ns);

	if (msz <= t)
		return has_byte(m, msz, b);
	return has_byte(m, t, b) || all_bytes((const char *)m + t, n, b) ||
	       has_byte((const char *)m + t + n, msz - t - n, b);
}
