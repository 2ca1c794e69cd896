// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * mcm_abi_test: the RDMA device of open files' contexts goes away
 * ('rdma link delete rxe1'). A file reads, per context on rxe1, the ERROR
 * (-ENODEV) of each of its joined memberships then one DEVICE_REMOVED, of
 * the types it asked for only; a context on rxe0 hears nothing. Then joins
 * on those contexts fail with ENODEV while leave, query, list and destroy
 * work, and once rxe1 is back new contexts work. rxe1 is re-added as the
 * bench adds it (scripts/guest/bench.sh).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mcm_abi.h"

#define BIT(t)		RDMA_MCM_EVENT_BIT(t)
#define ALL		(BIT(RDMA_MCM_EVENT_JOINED) | BIT(RDMA_MCM_EVENT_ERROR) | \
			 BIT(RDMA_MCM_EVENT_DEVICE_REMOVED))
/*
 * Read every event queued on @fd with one read() into a PAT-filled
 * buffer with room for more (each record is built in the same place in
 * the kernel: one that keeps bytes of the one before shows). rdma link
 * delete returns once rdma_mcm has run every callback of the device's
 * contexts, so the queue is complete by then.
 */
void read_all(int fd, struct got *g)
{
	static uint8_t buf[MAXEV * sizeof(struct rdma_mcm_event) + 8];
	int fl = fcntl(fd, F_GETFL);
	ssize_t n;

	fcntl(fd, F_SETFL, fl | O_NONBLOCK);
	memset(buf, PAT, sizeof(buf));
	n = read(fd, buf, sizeof(buf));
	fcntl(fd, F_SETFL, fl);
	g->n = n > 0 ? n / sizeof(g->ev[0]) : 0;
	g->clean = n < 0 || (n % sizeof(g->ev[0]) == 0 &&
			     !has_byte(buf, n, PAT) &&
			     all_bytes(buf + n, sizeof(buf) - n, PAT));
	memcpy(g->ev, buf, g->n * sizeof(g->ev[0]));
}

/* Index of the event of @type for @ctx (and @handle, unless 0), or -1 */
int find_event(const struct got *g, uint32_t type, uint32_t ctx,
	       uint32_t handle)
{
	int i;

	for (i = 0; i < g->n; i++)
		if (g->ev[i].event == type && g->ev[i].ctx_id == ctx &&
		    (!handle || g->ev[i].handle == handle))
			return i;
	return -1;
}

/* The ERROR of a membership lost with its device: exactly these bytes */
static int is_lost(const struct got *g, int i, uint32_t ctx, uint32_t h,
		   uint64_t cookie)
{
	const struct rdma_mcm_event *ev = &g->ev[i];

	return i >= 0 && g->clean && ev->event == RDMA_MCM_EVENT_ERROR &&
	       ev->status == -ENODEV && ev->ctx_id == ctx &&
	       ev->handle == h && ev->cookie == cookie &&
	       all_bytes(&ev->qkey, sizeof(*ev) -
			 offsetof(struct rdma_mcm_event, qkey), 0);
}

/* DEVICE_REMOVED {event 3, status -ENODEV, ctx_id}, every other byte 0 */
static int is_removed(const struct got *g, int i, uint32_t ctx)
{
	const struct rdma_mcm_event *ev = &g->ev[i];

	return i >= 0 && g->clean &&
	       ev->event == RDMA_MCM_EVENT_DEVICE_REMOVED &&
	       ev->status == -ENODEV && ev->ctx_id == ctx && !ev->handle &&
	       !ev->cookie && all_bytes(&ev->qkey, sizeof(*ev) -
					offsetof(struct rdma_mcm_event, qkey),
					0);
}

int open_asking(uint64_t mask)
{
	uint32_t size = RDMA_MCM_EVENT_SIZE_VER0 + 8;
	int fd = open_dev();

	if (set_events(fd, &mask, &size))
		report(0, "SET_EVENTS 0x%llx: %s", (unsigned long long)mask,
		       strerror(errno));
	return fd;
}

/* Read the JOINED events of @n memberships of @fd (20 s at most) */
static int joined_read(int fd, int n)
{
	struct rdma_mcm_event ev;
	double t0 = now();
	int got = 0;

	while (got < n && now() - t0 < 20)
		if (wait_readable(fd, 1000) &&
		    read(fd, &ev, sizeof(ev)) == sizeof(ev) &&
		    ev.event == RDMA_MCM_EVENT_JOINED)
			got++;
	return got == n;
}

int readd_rxe1(void)
{
	static const char *const add[] = {
		"rdma", "link", "add", "rxe1", "type", "rxe", "netdev", "veth1",
		NULL,
	};
	double t0 = now();
	uint32_t c;
	int fd, ret;

	if (run_cmd(add))
		return 0;
	/* rxe1's GIDs come from a work item: wait until a context binds */
	fd = open_dev();
	while ((ret = create_ctx(fd, SRC_ADDR, &c)) && now() - t0 < 30)
		usleep(100000);
	close(fd);
	return !ret;
}

void test_device_removed(void)
{
	static const char *const del[] = {
		"rdma", "link", "delete", "rxe1", NULL,
	};
	struct rdma_mcm_member m;
	struct rdma_mcm_join j, jb;
	struct rdma_mcm_join_entry je = { 0 };
	struct rdma_mcm_batch b = { 0 };
	struct rdma_mcm_leave l = { 0 };
	uint32_t a1, a2, a3, bc, cc, dc, ha1, ha2, ha3, hb, hc, hd, rep, x;
	int fa, fb, fc, fd, ok, e1, e2, r1, r2;
	struct got g;

	printf("    # DEVICE_REMOVED: rxe1 deleted under open files\n");
	fa = open_asking(ALL);
	fb = open_dev();
	fc = open_asking(BIT(RDMA_MCM_EVENT_DEVICE_REMOVED));
	fd = open_asking(BIT(RDMA_MCM_EVENT_JOINED));
	ok = !create_ctx(fa, SRC_ADDR, &a1) && !create_ctx(fa, SRC_ADDR, &a2) &&
	     !create_ctx(fa, SRC_ADDR0, &a3) && !create_ctx(fb, SRC_ADDR, &bc) &&
	     !create_ctx(fc, SRC_ADDR, &cc) && !create_ctx(fd, SRC_ADDR, &dc);
	report(ok, "4 files, 5 contexts on rxe1 and one on rxe0");
	ok = !join(fa, a1, "239.6.11.1", 0, 11, &ha1) &&
	     !join(fa, a1, "239.6.11.2", 1, 12, &ha2) &&
	     !join(fa, a3, "239.6.11.3", 0, 13, &ha3) &&
	     !join(fb, bc, "239.6.11.4", 0, 14, &hb) &&
	     !join(fc, cc, "239.6.11.5", 0, 15, &hc) &&
	     !join(fd, dc, "239.6.11.6", 0, 16, &hd);
	report(ok, "6 joins; the second context of file 1 has none");
	report(joined_read(fa, 3) && joined_read(fd, 1),
	       "files 1 and 4 read their joins' JOINED events");
	report(wait_readable(fb, 20000),
	       "file 2's JOINED is queued, and left unread");
	ok = !query(fc, cc, hc, &m);
	report(ok && m.state <= RDMA_MCM_STATE_JOINED,
	       "the DEVICE_REMOVED-only file's membership is there");

	report(!run_cmd(del), "rdma link delete rxe1");

	read_all(fa, &g);
	e1 = find_event(&g, RDMA_MCM_EVENT_ERROR, a1, ha1);
	e2 = find_event(&g, RDMA_MCM_EVENT_ERROR, a1, ha2);
	r1 = find_event(&g, RDMA_MCM_EVENT_DEVICE_REMOVED, a1, 0);
	r2 = find_event(&g, RDMA_MCM_EVENT_DEVICE_REMOVED, a2, 0);
	report(g.n == 4, "file 1 (all types) reads 4 events (got %d)", g.n);
	report(is_lost(&g, e1, a1, ha1, 11) && is_lost(&g, e2, a1, ha2, 12),
	       "... the ERROR of each membership on rxe1: status -ENODEV, handle, cookie, the rest 0, every byte written");
	report(is_removed(&g, r1, a1) && is_removed(&g, r2, a2),
	       "... one DEVICE_REMOVED per context on rxe1, the one without memberships too: {3, -ENODEV, ctx_id, handle 0, cookie 0}");
	report(r1 > e1 && r1 > e2,
	       "... a context's DEVICE_REMOVED comes after its memberships' ERRORs (%d, %d before %d)",
	       e1, e2, r1);
	report(find_event(&g, RDMA_MCM_EVENT_ERROR, a3, 0) < 0 &&
	       find_event(&g, RDMA_MCM_EVENT_DEVICE_REMOVED, a3, 0) < 0,
	       "... nothing for its context on rxe0");
	read_all(fb, &g);
	report(g.n == 2 && g.ev[0].event == RDMA_MCM_EVENT_JOINED &&
	       g.ev[0].handle == hb && is_lost(&g, 1, bc, hb, 14),
	       "file 2 (never asked) reads its unread JOINED then the ERROR, in one read(), every byte written (%d events)",
	       g.n);
	read_all(fc, &g);
	report(g.n == 1 && is_removed(&g, 0, cc),
	       "file 3 (DEVICE_REMOVED only) reads only DEVICE_REMOVED (%d events)",
	       g.n);
	read_all(fd, &g);
	report(g.n == 0, "file 4 (JOINED only) reads nothing (%d events)", g.n);

	memset(&j, 0, sizeof(j));
	j.ctx_id = a1;
	j.handle = 0xa5a5a5a5;
	set_v4(j.addr, &j.addr_len, "239.6.11.7");
	jb = j;
	expect_errno(ioctl(fa, RDMA_MCM_IOC_JOIN, &j), ENODEV,
		     "JOIN on a context whose device went away");
	report(!memcmp(&j, &jb, sizeof(j)), "... nothing written");
	expect_errno(join(fa, a2, "239.6.11.7", 0, 0, &x), ENODEV,
		     "JOIN on the context without memberships");
	je.join_flags = RDMA_MCM_JOIN_SENDONLY_FULLMEMBER;
	je.handle = 0xa5a5a5a5;
	set_v4(je.addr, &je.addr_len, "239.6.11.8");
	b.entries = (uintptr_t)&je;
	b.ctx_id = a1;
	b.count = 1;
	b.entry_size = sizeof(je);
	expect_errno(ioctl(fa, RDMA_MCM_IOC_BATCH_JOIN, &b), 0,
		     "BATCH_JOIN on it");
	note_errno(-je.result);
	report(b.done == 1 && je.result == -ENODEV && !je.handle,
	       "... its entry: -ENODEV, handle 0 (got %d)", je.result);
	ok = !query(fa, a1, ha1, &m);
	report(ok && m.state == RDMA_MCM_STATE_ERROR &&
	       m.status == -ENODEV && m.events_reported == 2,
	       "QUERY: error, -ENODEV, 2 events read (got %u, %d, %u)",
	       m.state, m.status, m.events_reported);
	report(list_has_group(fa, a1, "239.6.11.2") == 1, "LIST works");
	report(!query(fa, a3, ha3, &m) && m.state == RDMA_MCM_STATE_JOINED,
	       "the membership on rxe0 is still joined");
	expect_errno(leave(fa, a1, ha1, &rep), 0, "LEAVE by handle");
	report(rep == 2, "... 2 events reported (got %u)", rep);
	l.ctx_id = a1;
	l.flags = RDMA_MCM_LEAVE_BY_ADDR;
	set_v4(l.addr, &l.addr_len, "239.6.11.2");
	expect_errno(ioctl(fa, RDMA_MCM_IOC_LEAVE, &l), 0, "LEAVE by address");
	expect_errno(destroy_ctx(fa, a2), 0, "DESTROY_CTX of the context without memberships");
	expect_errno(create_ctx(fa, SRC_ADDR, &x), ENODEV,
		     "CREATE_CTX on 192.0.2.2 while rxe1 is gone");

	report(readd_rxe1(), "rxe1 is back: a new context on 192.0.2.2 works");
	expect_errno(join(fa, a1, "239.6.11.9", 0, 0, &x), ENODEV,
		     "JOIN on the old context still fails");
	expect_errno(create_ctx(fa, SRC_ADDR, &x), 0, "CREATE_CTX on 192.0.2.2");
	expect_errno(join(fa, x, "239.6.11.9", 0, 0, &hb), 0,
		     "JOIN on the new context");
	report(joined_read(fa, 1), "... it is joined");
	close(fa);
	close(fb);
	close(fc);
	close(fd);
}
