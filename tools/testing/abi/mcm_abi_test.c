// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * mcm_abi_test: the /dev/rdma_mcm ABI driven by raw ioctls, one check per
 * errno the ABI documents, plus events, extensibility, the caller's bytes
 * and per-file isolation. Prints KTAP subtest lines (indented for the VM
 * runner) and exits non-zero when a check fails. Built 64-bit and 32-bit:
 * the same source checks compat_ioctl. mcm_abi.h says what each source
 * file checks.
 *
 * Needs the bench: 192.0.2.2 on veth1 with rxe1, 192.0.2.1 on veth0 with
 * rxe0 (scripts/guest/bench.sh), and root: it sets module parameters,
 * reads debugfs, and deletes and re-adds rxe1.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "mcm_abi.h"

void test_commands(int fd)
{
	struct rdma_mcm_version v = { 0 };
	unsigned char big[256];

	expect_errno(ioctl(fd, RDMA_MCM_IOC_VERSION, &v), 0, "VERSION");
	report(v.abi_version == RDMA_MCM_ABI_VERSION, "ABI version is %u (got %u)",
	       RDMA_MCM_ABI_VERSION, v.abi_version);
	test_features(fd);
	expect_errno(ioctl(fd, _IOWR(RDMA_MCM_IOCTL_MAGIC, 0x7f, int), big),
		     ENOTTY, "unknown command number");
	expect_errno(ioctl(fd, _IOWR('x', 0x01, struct rdma_mcm_create_ctx), big),
		     ENOTTY, "foreign ioctl type");
	expect_errno(ioctl(fd, _IOW(RDMA_MCM_IOCTL_MAGIC, 0x01,
				    struct rdma_mcm_create_ctx), big),
		     ENOTTY, "CREATE_CTX with the wrong direction");
	expect_errno(ioctl(fd, _IOC(_IOC_READ | _IOC_WRITE, RDMA_MCM_IOCTL_MAGIC,
				    0x01, 8), big),
		     EINVAL, "CREATE_CTX with a garbage (too small) size");
	expect_errno(ioctl(fd, RDMA_MCM_IOC_VERSION, NULL), EFAULT,
		     "VERSION to a NULL pointer");
}

void test_create(int fd)
{
	struct rdma_mcm_create_ctx c;
	struct sockaddr_un sun = { .sun_family = AF_UNIX };
	unsigned char big[sizeof(c) + 16];
	uint32_t id;
	void *ro, *unmapped;
	long contexts;

	memset(&c, 0, sizeof(c));
	set_v4(c.src, &c.src_len, SRC_ADDR);
	c.reserved = 1;
	expect_errno(ioctl(fd, RDMA_MCM_IOC_CREATE_CTX, &c), EINVAL,
		     "CREATE_CTX with a reserved field set");
	c.reserved = 0;
	c.flags = 1U << 2;
	expect_errno(ioctl(fd, RDMA_MCM_IOC_CREATE_CTX, &c), EINVAL,
		     "CREATE_CTX with an unknown flag");
	c.flags = 0;
	c.src_len = RDMA_MCM_ADDR_SIZE + 1;
	expect_errno(ioctl(fd, RDMA_MCM_IOC_CREATE_CTX, &c), EINVAL,
		     "CREATE_CTX with src_len beyond the buffer");
	c.src_len = 3;
	expect_errno(ioctl(fd, RDMA_MCM_IOC_CREATE_CTX, &c), EINVAL,
		     "CREATE_CTX with src_len shorter than sockaddr_in");
	memset(c.src, 0, sizeof(c.src));
	memcpy(c.src, &sun, sizeof(sun.sun_family));
	c.src_len = sizeof(sun);
	expect_errno(ioctl(fd, RDMA_MCM_IOC_CREATE_CTX, &c), EAFNOSUPPORT,
		     "CREATE_CTX on an AF_UNIX address");
	expect_errno(create_ctx(fd, "198.51.100.1", &id), EADDRNOTAVAIL,
		     "CREATE_CTX on an address no netdev has");
	expect_errno(create_ctx(fd, "0.0.0.0", &id), ENODEV,
		     "CREATE_CTX on the wildcard address (no RDMA device)");

	/* a newer binary's longer struct: zero tail accepted, else E2BIG */
	memset(big, 0, sizeof(big));
	set_v4(((struct rdma_mcm_create_ctx *)big)->src,
	       &((struct rdma_mcm_create_ctx *)big)->src_len, SRC_ADDR);
	big[sizeof(c) + 3] = 1;
	expect_errno(ioctl(fd, _IOWR(RDMA_MCM_IOCTL_MAGIC, 0x01, big), big),
		     E2BIG, "CREATE_CTX, longer struct with a non-zero tail");
	big[sizeof(c) + 3] = 0;
	expect_errno(ioctl(fd, _IOWR(RDMA_MCM_IOCTL_MAGIC, 0x01, big), big), 0,
		     "CREATE_CTX, longer struct with a zero tail");
	id = ((struct rdma_mcm_create_ctx *)big)->ctx_id;
	struct rdma_mcm_destroy_ctx d = { .ctx_id = id };

	expect_errno(ioctl(fd, RDMA_MCM_IOC_DESTROY_CTX, &d), 0, "DESTROY_CTX");
	expect_errno(ioctl(fd, RDMA_MCM_IOC_DESTROY_CTX, &d), ENOENT,
		     "DESTROY_CTX of a context already destroyed");
	d.reserved = 7;
	expect_errno(ioctl(fd, RDMA_MCM_IOC_DESTROY_CTX, &d), EINVAL,
		     "DESTROY_CTX with a reserved field set");

	unmapped = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
			MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	munmap(unmapped, 4096);
	expect_errno(ioctl(fd, RDMA_MCM_IOC_CREATE_CTX, unmapped), EFAULT,
		     "CREATE_CTX from unmapped memory");
	ro = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
		  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	memset(&c, 0, sizeof(c));
	set_v4(c.src, &c.src_len, SRC_ADDR);
	memcpy(ro, &c, sizeof(c));
	mprotect(ro, 4096, PROT_READ);
	contexts = live_count("contexts");
	expect_errno(ioctl(fd, RDMA_MCM_IOC_CREATE_CTX, ro), EFAULT,
		     "CREATE_CTX into read-only memory");
	report(contexts >= 0 && live_count("contexts") == contexts,
	       "... and no context is left behind (%ld before, %ld after)",
	       contexts, live_count("contexts"));
	munmap(ro, 4096);
}

void test_join_leave(int fd, uint32_t ctx)
{
	struct rdma_mcm_join j;
	struct rdma_mcm_leave l;
	struct sockaddr_in6 s6 = { .sin6_family = AF_INET6 };
	uint32_t h, h2, rep;

	memset(&j, 0, sizeof(j));
	j.ctx_id = ctx;
	set_v4(j.addr, &j.addr_len, "239.5.0.1");
	j.join_flags = 2;
	expect_errno(ioctl(fd, RDMA_MCM_IOC_JOIN, &j), EINVAL,
		     "JOIN with unknown join flags");
	expect_errno(join(fd, ctx, "192.0.2.7", 0, 0, &h), EINVAL,
		     "JOIN of a unicast address");
	s6.sin6_addr.s6_addr[0] = 0xff;
	memset(&j, 0, sizeof(j));
	j.ctx_id = ctx;
	memcpy(j.addr, &s6, sizeof(s6));
	j.addr_len = sizeof(s6);
	expect_errno(ioctl(fd, RDMA_MCM_IOC_JOIN, &j), EINVAL,
		     "JOIN of an IPv6 group on an IPv4 context");
	memset(j.addr, 0, sizeof(j.addr));
	expect_errno(ioctl(fd, RDMA_MCM_IOC_JOIN, &j), EAFNOSUPPORT,
		     "JOIN of an AF_UNSPEC address");
	j.addr_len = 500;
	expect_errno(ioctl(fd, RDMA_MCM_IOC_JOIN, &j), EINVAL,
		     "JOIN with addr_len beyond the buffer");
	expect_errno(join(fd, ctx + 1000, "239.5.0.1", 0, 0, &h), ENOENT,
		     "JOIN on a context id that does not exist");
	expect_errno(join(fd, ctx, "239.5.0.1", 0, 1, &h), 0, "JOIN 239.5.0.1");
	report(h != 0, "the handle is not 0 (got %u)", h);
	expect_errno(join(fd, ctx, "239.5.0.1", 1, 2, &h2), EADDRINUSE,
		     "JOIN of the same group again");

	expect_errno(leave(fd, ctx, h + 1000, NULL), EADDRNOTAVAIL,
		     "LEAVE of a handle never returned");
	memset(&l, 0, sizeof(l));
	l.ctx_id = ctx;
	l.handle = h;
	l.flags = 2;
	expect_errno(ioctl(fd, RDMA_MCM_IOC_LEAVE, &l), EINVAL,
		     "LEAVE with an unknown flag");
	l.flags = 0;
	l.reserved = 1;
	expect_errno(ioctl(fd, RDMA_MCM_IOC_LEAVE, &l), EINVAL,
		     "LEAVE with a reserved field set");
	memset(&l, 0, sizeof(l));
	l.ctx_id = ctx;
	l.flags = RDMA_MCM_LEAVE_BY_ADDR;
	set_v4(l.addr, &l.addr_len, "239.5.0.2");
	expect_errno(ioctl(fd, RDMA_MCM_IOC_LEAVE, &l), EADDRNOTAVAIL,
		     "LEAVE by address of a group never joined");
	set_v4(l.addr, &l.addr_len, "239.5.0.1");
	expect_errno(ioctl(fd, RDMA_MCM_IOC_LEAVE, &l), 0,
		     "LEAVE by address");
	expect_errno(leave(fd, ctx, h, &rep), EADDRNOTAVAIL,
		     "LEAVE of a membership already left");
}

void test_other_file(int fd, uint32_t ctx)
{
	uint32_t h, ctx2, rep;
	int fd2 = open_dev();

	expect_errno(join(fd, ctx, "239.5.1.1", 0, 0, &h), 0,
		     "JOIN 239.5.1.1 in file 1");
	expect_errno(create_ctx(fd2, SRC_ADDR, &ctx2), 0,
		     "CREATE_CTX in file 2");
	expect_errno(leave(fd2, ctx2, h, &rep), EADDRNOTAVAIL,
		     "file 2 cannot leave file 1's handle");
	expect_errno(join(fd2, ctx2, "239.5.1.1", 0, 0, NULL), 0,
		     "file 2 joins the same group on its own context");
	close(fd2);
	expect_errno(leave(fd, ctx, h, &rep), 0,
		     "file 1's membership survives file 2's close");
}

void test_events(int fd, uint32_t ctx)
{
	struct rdma_mcm_event ev;
	struct rdma_mcm_query q;
	uint32_t h, rep = 99;
	double t0;
	int nb;

	nb = open("/dev/" RDMA_MCM_DEVICE_NAME, O_RDWR | O_NONBLOCK);
	expect_errno(read(nb, &ev, sizeof(ev)), EAGAIN,
		     "non-blocking read with no event");
	close(nb);
	expect_errno(join(fd, ctx, "239.5.2.1", 0, 0xfeedbeefcafeULL, &h), 0,
		     "JOIN 239.5.2.1 with a 64-bit cookie");
	report(wait_readable(fd, 20000), "poll() reports the joined event");
	expect_errno(read(fd, &ev, sizeof(ev) - 1), EINVAL,
		     "read() into a buffer smaller than one event");
	expect_errno(read(fd, &ev, sizeof(ev)), 0, "read() the event");
	report(ev.event == RDMA_MCM_EVENT_JOINED && ev.handle == h &&
	       ev.cookie == 0xfeedbeefcafeULL && ev.ctx_id == ctx,
	       "JOINED event with handle, context and cookie");
	report(ev.mgid[10] == 0xff && ev.mgid[11] == 0xff && ev.mgid[12] == 239 &&
	       ev.mgid[15] == 1 && ev.qkey == 0x01234567 && ev.is_global &&
	       !memcmp(ev.mgid, ev.dgid, 16),
	       "the event carries MGID ::ffff:239.5.2.1, qkey and AH attributes");
	memset(&q, 0, sizeof(q));
	q.ctx_id = ctx;
	q.handle = h;
	expect_errno(ioctl(fd, RDMA_MCM_IOC_QUERY, &q), 0, "QUERY");
	report(q.member.state == RDMA_MCM_STATE_JOINED &&
	       q.member.events_reported == 1 &&
	       q.member.cookie == 0xfeedbeefcafeULL,
	       "QUERY: joined, 1 event reported, cookie");
	expect_errno(leave(fd, ctx, h, &rep), 0, "LEAVE after reading");
	report(rep == 1, "LEAVE reports 1 event read (got %u)", rep);
	q.handle = h;
	expect_errno(ioctl(fd, RDMA_MCM_IOC_QUERY, &q), EADDRNOTAVAIL,
		     "QUERY of a left membership");

	/* the librdmacm hang: an event queued and never read */
	expect_errno(join(fd, ctx, "239.5.2.2", 0, 0, &h), 0, "JOIN 239.5.2.2");
	report(wait_readable(fd, 20000), "its joined event is queued");
	t0 = now();
	expect_errno(leave(fd, ctx, h, &rep), 0,
		     "LEAVE with the event unread does not block");
	report(now() - t0 < 2.0 && rep == 0,
	       "LEAVE took %.3f s and reports 0 events read", now() - t0);
	report(!wait_readable(fd, 500), "the unread event was purged");

	/* cancel: join and leave at once, no event ever */
	expect_errno(join(fd, ctx, "239.5.2.3", 0, 0, &h), 0, "JOIN 239.5.2.3");
	expect_errno(leave(fd, ctx, h, &rep), 0, "LEAVE at once (cancel)");
	report(!wait_readable(fd, 1500), "a cancelled join never reports");
	report(igmp_lists("030205EF") == 0,
	       "a cancelled join leaves no IGMP entry");
}

/*
 * Results that cannot be written back: what the caller cannot learn of is
 * undone (EFAULT means nothing was made), and an event whose copy faults
 * stays queued.
 */
void test_unwritable_results(int fd, uint32_t ctx)
{
	struct rdma_mcm_join j = { .ctx_id = ctx };
	struct rdma_mcm_join_entry je = { 0 };
	struct rdma_mcm_batch b = { .ctx_id = ctx, .count = 1,
				    .entry_size = sizeof(je) };
	struct rdma_mcm_query q = { .ctx_id = ctx };
	struct rdma_mcm_event ev;
	uint32_t h, rep = 99;
	void *ro;

	set_v4(j.addr, &j.addr_len, "239.5.4.1");
	ro = ro_copy(&j, sizeof(j));
	expect_errno(ioctl(fd, RDMA_MCM_IOC_JOIN, ro), EFAULT,
		     "JOIN into read-only memory");
	report(list_has_group(fd, ctx, "239.5.4.1") == 0,
	       "... leaves no membership behind");
	expect_errno(join(fd, ctx, "239.5.4.1", 0, 0, &h), 0,
		     "... and the same group joins afterwards");
	expect_errno(leave(fd, ctx, h, NULL), 0, "LEAVE it");
	munmap(ro, 4096);

	set_v4(je.addr, &je.addr_len, "239.5.4.2");
	je.join_flags = RDMA_MCM_JOIN_SENDONLY_FULLMEMBER;
	ro = ro_copy(&je, sizeof(je));
	b.entries = (uintptr_t)ro;
	expect_errno(ioctl(fd, RDMA_MCM_IOC_BATCH_JOIN, &b), EFAULT,
		     "BATCH_JOIN with read-only entries");
	report(b.done == 0 && list_has_group(fd, ctx, "239.5.4.2") == 0,
	       "... done is 0 (got %u) and no membership is left", b.done);
	munmap(ro, 4096);

	expect_errno(join(fd, ctx, "239.5.4.3", 0, 0x5a5a, &h), 0,
		     "JOIN 239.5.4.3");
	report(wait_readable(fd, 20000), "its joined event is queued");
	memset(&ev, 0, sizeof(ev));
	ro = ro_copy(&ev, sizeof(ev));
	expect_errno(read(fd, ro, sizeof(ev)), EFAULT,
		     "read() into read-only memory");
	munmap(ro, 4096);
	report(wait_readable(fd, 0), "... the event is still queued");
	expect_errno(read(fd, &ev, sizeof(ev)), 0, "read() it into a good buffer");
	report(ev.handle == h && ev.cookie == 0x5a5a,
	       "... it is the join's event");
	q.handle = h;
	expect_errno(ioctl(fd, RDMA_MCM_IOC_QUERY, &q), 0, "QUERY");
	report(q.member.events_reported == 1,
	       "events_reported counts the one event read (got %u)",
	       q.member.events_reported);
	expect_errno(leave(fd, ctx, h, &rep), 0, "LEAVE 239.5.4.3");
}

void test_batches(int fd, uint32_t ctx)
{
	struct rdma_mcm_join_entry je[3];
	struct rdma_mcm_leave_entry le[3];
	struct rdma_mcm_member m[2];
	struct rdma_mcm_batch b;
	struct rdma_mcm_list li;
	static const char * const groups[] = {
		"239.5.3.1", "192.0.2.9", "239.5.3.3",
	};
	uint32_t seen = 0, start = 0;
	int i, pages = 0;
	void *unmapped;

	memset(je, 0, sizeof(je));
	for (i = 0; i < 3; i++) {
		set_v4(je[i].addr, &je[i].addr_len, groups[i]);
		je[i].cookie = 100 + i;
	}
	memset(&b, 0, sizeof(b));
	b.ctx_id = ctx;
	b.entries = (uintptr_t)je;
	b.count = 3;
	b.entry_size = sizeof(je[0]);
	expect_errno(ioctl(fd, RDMA_MCM_IOC_BATCH_JOIN, &b), 0, "BATCH_JOIN of 3");
	report(b.done == 3 && je[0].result == 0 && je[1].result == -EINVAL &&
	       je[2].result == 0 && je[0].handle && je[2].handle,
	       "per-entry results: 0, -EINVAL, 0 (got %d %d %d)",
	       je[0].result, je[1].result, je[2].result);

	memset(&li, 0, sizeof(li));
	li.ctx_id = ctx;
	li.entries = (uintptr_t)m;
	li.entry_size = sizeof(m[0]);
	do {
		li.count = 1;
		li.start = start;
		if (ioctl(fd, RDMA_MCM_IOC_LIST, &li))
			break;
		seen += li.count;
		start = li.next;
		pages++;
	} while (li.next && pages < 10);
	report(seen == 2, "LIST one at a time pages through 2 memberships (saw %u)",
	       seen);
	li.entry_size = 8;
	expect_errno(ioctl(fd, RDMA_MCM_IOC_LIST, &li), EINVAL,
		     "LIST with a too small entry_size");

	memset(le, 0, sizeof(le));
	le[0].handle = je[0].handle;
	le[1].handle = 0x7fffffff;
	le[2].flags = RDMA_MCM_LEAVE_BY_ADDR;
	set_v4(le[2].addr, &le[2].addr_len, groups[2]);
	b.entries = (uintptr_t)le;
	b.entry_size = sizeof(le[0]);
	expect_errno(ioctl(fd, RDMA_MCM_IOC_BATCH_LEAVE, &b), 0,
		     "BATCH_LEAVE of 3");
	report(b.done == 3 && le[0].result == 0 &&
	       le[1].result == -EADDRNOTAVAIL && le[2].result == 0,
	       "per-entry results: 0, -EADDRNOTAVAIL, 0 (got %d %d %d)",
	       le[0].result, le[1].result, le[2].result);

	unmapped = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
			MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	munmap(unmapped, 4096);
	b.entries = (uintptr_t)unmapped;
	expect_errno(ioctl(fd, RDMA_MCM_IOC_BATCH_JOIN, &b), EFAULT,
		     "BATCH_JOIN from an unmapped array");
	b.entries = (uintptr_t)je;
	b.count = 65537;
	expect_errno(ioctl(fd, RDMA_MCM_IOC_BATCH_JOIN, &b), EINVAL,
		     "BATCH_JOIN of more than 65536 entries");
	b.count = 1;
	b.entry_size = 16;
	expect_errno(ioctl(fd, RDMA_MCM_IOC_BATCH_JOIN, &b), EINVAL,
		     "BATCH_JOIN with a too small entry_size");
}

void test_limits(void)
{
	uint32_t ctx, ctx2, h, h2, h3;
	int fd = open_dev();

	if (set_param("max_memberships", 2) || set_param("max_contexts", 1)) {
		report(0, "cannot set the module's limits");
		close(fd);
		return;
	}
	expect_errno(create_ctx(fd, SRC_ADDR, &ctx), 0, "CREATE_CTX");
	expect_errno(create_ctx(fd, SRC_ADDR, &ctx2), EMFILE,
		     "a second context over max_contexts=1");
	expect_errno(join(fd, ctx, "239.5.4.1", 1, 0, &h), 0, "JOIN 1 of 2");
	expect_errno(join(fd, ctx, "239.5.4.2", 1, 0, &h2), 0, "JOIN 2 of 2");
	expect_errno(join(fd, ctx, "239.5.4.3", 1, 0, &h3), ENOBUFS,
		     "a third membership over max_memberships=2");
	expect_errno(leave(fd, ctx, h2, NULL), 0, "LEAVE one");
	expect_errno(join(fd, ctx, "239.5.4.3", 1, 0, &h3), 0,
		     "JOIN again once under the limit");
	set_param("max_memberships", 131072);
	set_param("max_contexts", 256);
	close(fd);
}

int main(void)
{
	uint32_t ctx;
	int fd;

	printf("    # %zu-bit process\n", sizeof(void *) * 8);
	fd = open_dev();
	test_commands(fd);
	test_create(fd);
	if (create_ctx(fd, SRC_ADDR, &ctx)) {
		report(0, "CREATE_CTX on %s: %s", SRC_ADDR, strerror(errno));
		return 1;
	}
	test_join_leave(fd, ctx);
	test_other_file(fd, ctx);
	test_events(fd, ctx);
	test_unwritable_results(fd, ctx);
	test_batches(fd, ctx);
	test_ext_sizes(fd, ctx);
	test_ext_failures(fd, ctx);
	test_ext_outputs(fd, ctx);
	test_ext_batches(fd, ctx);
	test_ext_list(fd, ctx);
	close(fd);
	test_limits();
	test_set_events();
	test_read_eintr();
	test_src_port();
	test_old_binary();
	test_source_errnos();
	test_source_filter();
	test_source_batches();
	test_v6_roce();
	test_device_removed();
	test_ctx_flags();
	test_query_ctx();
	test_route_ctx();
	test_heal_device_reset();
	report(live_zero(), "at the end, rdma_mcm's live objects are all zero");
	check_errnos_documented();
	printf("    1..%d\n", nr_checks());
	return failed_checks() ? 1 : 0;
}
