// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * mcm_abi_test: healing contexts (RDMA_MCM_CTX_HEAL), route contexts
 * (RDMA_MCM_CTX_ROUTE) and QUERY_CTX.
 *
 *  - CREATE_CTX takes the two flags and refuses others;
 *  - QUERY_CTX reports the device (name and node GUID as sysfs has them),
 *    the port and the source address without its port; refuses a set
 *    output field and an unknown context;
 *  - a route context lands where the route to its group goes (rxe1 or
 *    rxe0 as a route names veth1 or veth0), with the route's source, and
 *    fails with ENETUNREACH without a route;
 *  - 'rdma link delete rxe1' under a healing context: REJOINING (-ENODEV)
 *    per membership then DEVICE_REMOVED, memberships WAITING, no device;
 *    a file that never asked for the new types reads nothing; a leave
 *    while waiting works; once rxe1 is back, DEVICE_ADDED then REJOINED,
 *    on the same handles, JOINED with one rejoin, in IGMP again.
 */
#include <endian.h>
#include <errno.h>
#include <netinet/in.h>
#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mcm_abi.h"

#define BIT(t)		RDMA_MCM_EVENT_BIT(t)
#define ALL_TYPES	(BIT(RDMA_MCM_EVENT_JOINED) | BIT(RDMA_MCM_EVENT_ERROR) | \
			 BIT(RDMA_MCM_EVENT_DEVICE_REMOVED) | \
			 BIT(RDMA_MCM_EVENT_REJOINING) | \
			 BIT(RDMA_MCM_EVENT_REJOINED) | \
			 BIT(RDMA_MCM_EVENT_DEVICE_ADDED))

static int create_ctx_flags(int fd, const char *addr, uint32_t flags,
			    uint32_t *ctx_id)
{
	struct rdma_mcm_create_ctx c = { .flags = flags };
	int ret;

	set_v4(c.src, &c.src_len, addr);
	ret = ioctl(fd, RDMA_MCM_IOC_CREATE_CTX, &c);
	*ctx_id = c.ctx_id;
	return ret;
}

static int query_ctx(int fd, uint32_t ctx_id, struct rdma_mcm_query_ctx *q)
{
	memset(q, 0, sizeof(*q));
	q->ctx_id = ctx_id;
	return ioctl(fd, RDMA_MCM_IOC_QUERY_CTX, q);
}

/* The node GUID of an RDMA device as sysfs prints it, in network order */
static uint64_t sysfs_node_guid(const char *dev)
{
	unsigned int a, b, c, d;
	char path[128];
	FILE *f;
	int n;

	snprintf(path, sizeof(path), "/sys/class/infiniband/%s/node_guid",
		 dev);
	f = fopen(path, "r");
	if (!f)
		return 0;
	n = fscanf(f, "%x:%x:%x:%x", &a, &b, &c, &d);
	fclose(f);
	if (n != 4)
		return 0;
	return htobe64((uint64_t)a << 48 | (uint64_t)b << 32 |
		       (uint64_t)c << 16 | d);
}

/* QUERY_CTX says @dev, port 1, source @src port 0, in every byte */
static int query_says(const struct rdma_mcm_query_ctx *q, const char *dev,
		      const char *src)
{
	const struct sockaddr_in *sin = (const void *)q->src;
	struct in_addr want;

	inet_pton(AF_INET, src, &want);
	return !strcmp(q->dev_name, dev) && q->port_num == 1 &&
	       q->node_guid && q->node_guid == sysfs_node_guid(dev) &&
	       q->src_len == sizeof(*sin) && sin->sin_family == AF_INET &&
	       sin->sin_addr.s_addr == want.s_addr && !sin->sin_port &&
	       all_bytes(q->src + q->src_len, sizeof(q->src) - q->src_len, 0) &&
	       all_bytes(q->dev_name + strlen(q->dev_name),
			 sizeof(q->dev_name) - strlen(q->dev_name), 0) &&
	       all_bytes(q->reserved, sizeof(q->reserved), 0);
}

/* No device: the flags and zeros */
static int query_says_none(const struct rdma_mcm_query_ctx *q)
{
	return all_bytes(q->src, sizeof(q->src), 0) && !q->src_len &&
	       !q->port_num && !q->node_guid &&
	       all_bytes(q->dev_name, sizeof(q->dev_name), 0);
}

void test_ctx_flags(void)
{
	uint32_t c;
	int fd = open_dev();

	printf("    # CREATE_CTX flags\n");
	expect_errno(create_ctx_flags(fd, SRC_ADDR, 1U << 2, &c), EINVAL,
		     "CREATE_CTX with an unknown flag");
	expect_errno(create_ctx_flags(fd, SRC_ADDR, ~0U, &c), EINVAL,
		     "CREATE_CTX with every flag");
	expect_errno(create_ctx_flags(fd, SRC_ADDR, RDMA_MCM_CTX_HEAL, &c), 0,
		     "CREATE_CTX HEAL");
	expect_errno(create_ctx_flags(fd, "239.6.20.1", RDMA_MCM_CTX_HEAL, &c),
		     EADDRNOTAVAIL,
		     "CREATE_CTX HEAL on a group address, no ROUTE: no netdev has it");
	close(fd);
}

void test_query_ctx(void)
{
	struct rdma_mcm_query_ctx q;
	uint32_t c, h;
	int fd = open_dev();

	printf("    # QUERY_CTX\n");
	if (create_ctx_flags(fd, SRC_ADDR, RDMA_MCM_CTX_HEAL, &c)) {
		report(0, "CREATE_CTX HEAL on %s: %s", SRC_ADDR, strerror(errno));
		close(fd);
		return;
	}
	memset(&q, PAT, sizeof(q));
	expect_errno(query_ctx(fd, c, &q), 0, "QUERY_CTX");
	report(q.ctx_id == c && q.flags == RDMA_MCM_CTX_HEAL,
	       "... the context's id and flags (%u, 0x%x)", q.ctx_id, q.flags);
	report(query_says(&q, "rxe1", SRC_ADDR),
	       "... rxe1, port 1, its sysfs node GUID, source 192.0.2.2 port 0, zeros after them (%s, %u)",
	       q.dev_name, q.port_num);
	expect_errno(join(fd, c, "239.6.20.2", 0, 1, &h), 0,
		     "a join does not change it");
	expect_errno(query_ctx(fd, c, &q), 0, "QUERY_CTX again");
	report(query_says(&q, "rxe1", SRC_ADDR), "... the same");
	expect_errno(query_ctx(fd, c + 100, &q), ENOENT,
		     "QUERY_CTX of no context");
	memset(&q, 0, sizeof(q));
	q.ctx_id = c;
	q.port_num = 1;
	expect_errno(ioctl(fd, RDMA_MCM_IOC_QUERY_CTX, &q), EINVAL,
		     "QUERY_CTX with an output field set");
	memset(&q, 0, sizeof(q));
	q.ctx_id = c;
	q.dev_name[63] = 'x';
	expect_errno(ioctl(fd, RDMA_MCM_IOC_QUERY_CTX, &q), EINVAL,
		     "QUERY_CTX with a byte of dev_name set");
	memset(&q, 0, sizeof(q));
	q.ctx_id = c;
	expect_errno(ioctl_sized(fd, RDMA_MCM_IOC_QUERY_CTX, &q,
				 RDMA_MCM_QUERY_CTX_SIZE_VER0 - 8), EINVAL,
		     "QUERY_CTX shorter than its first version");
	close(fd);
}

void test_route_ctx(void)
{
	static const char *const add1[] = {
		"ip", "route", "add", "239.6.64.0/24", "dev", "veth1", NULL,
	};
	static const char *const add0[] = {
		"ip", "route", "add", "239.6.65.0/24", "dev", "veth0", NULL,
	};
	static const char *const del1[] = {
		"ip", "route", "del", "239.6.64.0/24", "dev", "veth1", NULL,
	};
	static const char *const del0[] = {
		"ip", "route", "del", "239.6.65.0/24", "dev", "veth0", NULL,
	};
	struct rdma_mcm_event ev;
	struct rdma_mcm_query_ctx q;
	uint32_t c1, c0, x, h;
	int fd = open_dev(), ok;

	printf("    # ROUTE contexts\n");
	report(!run_cmd(add1) && !run_cmd(add0),
	       "routes: 239.6.64.0/24 via veth1, 239.6.65.0/24 via veth0");
	expect_errno(create_ctx_flags(fd, "239.6.64.1", RDMA_MCM_CTX_ROUTE,
				      &c1), 0, "CREATE_CTX ROUTE to 239.6.64.1");
	ok = !query_ctx(fd, c1, &q);
	report(ok && q.flags == RDMA_MCM_CTX_ROUTE &&
	       query_says(&q, "rxe1", SRC_ADDR),
	       "... QUERY_CTX: rxe1, the route's source 192.0.2.2 (%s)",
	       q.dev_name);
	expect_errno(create_ctx_flags(fd, "239.6.65.1",
				      RDMA_MCM_CTX_ROUTE | RDMA_MCM_CTX_HEAL,
				      &c0), 0,
		     "CREATE_CTX ROUTE|HEAL to 239.6.65.1");
	ok = !query_ctx(fd, c0, &q);
	report(ok && q.flags == (RDMA_MCM_CTX_ROUTE | RDMA_MCM_CTX_HEAL) &&
	       query_says(&q, "rxe0", SRC_ADDR0),
	       "... QUERY_CTX: rxe0, source 192.0.2.1 (%s)", q.dev_name);
	expect_errno(join(fd, c1, "239.6.64.2", 0, 7, &h), 0,
		     "JOIN on the route context");
	ok = 0;
	while (!ok && wait_readable(fd, 20000) &&
	       read(fd, &ev, sizeof(ev)) > 0)
		ok = ev.event == RDMA_MCM_EVENT_JOINED && ev.handle == h;
	report(ok, "... JOINED");
	report(igmp_lists("024006EF") == 1,
	       "... /proc/net/igmp lists 239.6.64.2");
	expect_errno(create_ctx_flags(fd, "239.6.66.1", RDMA_MCM_CTX_ROUTE,
				      &x), ENETUNREACH,
		     "CREATE_CTX ROUTE to a group without a route");
	expect_errno(create_ctx_flags(fd, "239.6.66.1", 0, &x), EADDRNOTAVAIL,
		     "... and without ROUTE, a group is no source address");
	close(fd);
	report(igmp_lists("024006EF") == 0,
	       "closed: /proc/net/igmp no longer lists 239.6.64.2");
	report(!run_cmd(del1) && !run_cmd(del0), "routes removed");
}

/* Wait up to 20 s for membership @h to be JOINED; @m: its last QUERY */
static int wait_joined(int fd, uint32_t ctx, uint32_t h,
		       struct rdma_mcm_member *m)
{
	double t0 = now();

	do {
		if (!query(fd, ctx, h, m) && m->state == RDMA_MCM_STATE_JOINED)
			return 1;
		usleep(100000);
	} while (now() - t0 < 20);
	return 0;
}

/* Read events of @fd for up to @sec seconds until REJOINED of @h */
static int read_until_rejoined(int fd, uint32_t h, struct got *g, int sec)
{
	double t0 = now();
	struct rdma_mcm_event ev;

	g->n = 0;
	g->clean = 1;
	while (now() - t0 < sec && g->n < MAXEV) {
		if (!wait_readable(fd, 500))
			continue;
		if (read(fd, &ev, sizeof(ev)) != sizeof(ev))
			return 0;
		g->ev[g->n++] = ev;
		if (ev.event == RDMA_MCM_EVENT_REJOINED && ev.handle == h)
			return 1;
	}
	return 0;
}

/* The index of the last event of @type for @ctx and @handle, or -1 */
static int last_event(const struct got *g, uint32_t type, uint32_t ctx,
		      uint32_t handle)
{
	int i;

	for (i = g->n - 1; i >= 0; i--)
		if (g->ev[i].event == type && g->ev[i].ctx_id == ctx &&
		    g->ev[i].handle == handle)
			return i;
	return -1;
}

/*
 * Two resets before the file reads: an event of a type still queued moves
 * to the end, so what is read last is the state the context and the
 * membership @h are in (REJOINED then REJOINING, DEVICE_ADDED then
 * DEVICE_REMOVED), one event of each type. Then the device comes back.
 */
static void two_resets_unread(int fd, uint32_t ctx, uint32_t h)
{
	static const char *const del[] = {
		"rdma", "link", "delete", "rxe1", NULL,
	};
	struct rdma_mcm_member m;
	int add, rem, rjg, rjd, ok;
	struct got g;

	read_all(fd, &g);
	ok = !run_cmd(del) && readd_rxe1() && wait_joined(fd, ctx, h, &m) &&
	     !run_cmd(del);
	report(ok, "rdma link delete, add (joined again), delete, nothing read");
	read_all(fd, &g);
	add = last_event(&g, RDMA_MCM_EVENT_DEVICE_ADDED, ctx, 0);
	rem = last_event(&g, RDMA_MCM_EVENT_DEVICE_REMOVED, ctx, 0);
	rjd = last_event(&g, RDMA_MCM_EVENT_REJOINED, ctx, h);
	rjg = last_event(&g, RDMA_MCM_EVENT_REJOINING, ctx, h);
	report(g.n == 4 && g.clean && add >= 0 && add < rjd && rjd < rjg &&
	       rjg < rem,
	       "... read: DEVICE_ADDED, REJOINED, REJOINING, DEVICE_REMOVED, the latest last (%d events: %d %d %d %d)",
	       g.n, add, rjd, rjg, rem);
	ok = !query(fd, ctx, h, &m);
	report(ok && m.state == RDMA_MCM_STATE_WAITING && m.rejoins == 2,
	       "... the membership waits, joined again twice before (%u, %u)",
	       m.state, m.rejoins);
	report(readd_rxe1() && read_until_rejoined(fd, h, &g, 60),
	       "rxe1 is back: DEVICE_ADDED and REJOINED once more");
}

void test_heal_device_reset(void)
{
	static const char *const del[] = {
		"rdma", "link", "delete", "rxe1", NULL,
	};
	struct rdma_mcm_query_ctx q;
	struct rdma_mcm_member m;
	struct rdma_mcm_event *e;
	uint32_t a = 0, o = 0, h1 = 0, h2 = 0, ho = 0, x, rep = 0;
	int fa, fo, ok, i1, i2, r, add, rj;
	struct got g;

	printf("    # a healing context across rdma link delete and add\n");
	fa = open_asking(ALL_TYPES);
	fo = open_dev();
	ok = !create_ctx_flags(fa, SRC_ADDR, RDMA_MCM_CTX_HEAL, &a) &&
	     !create_ctx_flags(fo, SRC_ADDR, RDMA_MCM_CTX_HEAL, &o) &&
	     !join(fa, a, "239.6.21.1", 0, 31, &h1) &&
	     !join(fa, a, "239.6.21.2", 1, 32, &h2) &&
	     !join(fo, o, "239.6.21.3", 0, 33, &ho);
	report(ok, "two files, a healing context each on rxe1, 3 joins");
	report(wait_joined(fa, a, h1, &m) && wait_joined(fa, a, h2, &m) &&
	       wait_joined(fo, o, ho, &m), "... all three joined");
	read_all(fo, &g);	/* its JOINED */
	report(igmp_lists("011506EF") == 1, "... IGMP lists 239.6.21.1");
	read_all(fa, &g);	/* the JOINED events */

	report(!run_cmd(del), "rdma link delete rxe1");
	read_all(fa, &g);
	i1 = find_event(&g, RDMA_MCM_EVENT_REJOINING, a, h1);
	i2 = find_event(&g, RDMA_MCM_EVENT_REJOINING, a, h2);
	r = find_event(&g, RDMA_MCM_EVENT_DEVICE_REMOVED, a, 0);
	report(g.n == 3 && g.clean && i1 >= 0 && i2 >= 0 && r > i1 && r > i2,
	       "the asking file reads REJOINING for each membership, then DEVICE_REMOVED (%d events)",
	       g.n);
	report(i1 >= 0 && g.ev[i1].status == -ENODEV &&
	       g.ev[i1].cookie == 31 && i2 >= 0 && g.ev[i2].status == -ENODEV &&
	       g.ev[i2].cookie == 32 &&
	       all_bytes(&g.ev[i1].qkey, sizeof(g.ev[i1]) -
			 offsetof(struct rdma_mcm_event, qkey), 0),
	       "... REJOINING: reason -ENODEV, the cookie, the rest 0");
	report(find_event(&g, RDMA_MCM_EVENT_ERROR, a, 0) < 0,
	       "... no ERROR: the memberships wait");
	report(igmp_lists("011506EF") == 0,
	       "IGMP no longer lists 239.6.21.1 (the device took it along)");
	read_all(fo, &g);
	report(g.n == 0,
	       "the file that never asked for the new types reads nothing (%d)",
	       g.n);
	ok = !query(fa, a, h1, &m);
	report(ok && m.state == RDMA_MCM_STATE_WAITING &&
	       m.status == -ENODEV && m.last_status == -ENODEV &&
	       !m.rejoins && m.state_time_ns,
	       "QUERY: waiting, status -ENODEV, last_status -ENODEV, no rejoin yet (%u, %d, %d, %u)",
	       m.state, m.status, m.last_status, m.rejoins);
	ok = !query_ctx(fa, a, &q);
	report(ok && q.flags == RDMA_MCM_CTX_HEAL && query_says_none(&q),
	       "QUERY_CTX: no device, no source");
	expect_errno(join(fa, a, "239.6.21.4", 0, 0, &x), ENODEV,
		     "JOIN while the context waits for a device");
	expect_errno(leave(fa, a, h2, &rep), 0, "LEAVE of a waiting membership");
	report(rep == 2, "... 2 events reported (JOINED, REJOINING; got %u)",
	       rep);

	report(readd_rxe1(), "rxe1 is back");
	ok = read_until_rejoined(fa, h1, &g, 60);
	add = find_event(&g, RDMA_MCM_EVENT_DEVICE_ADDED, a, 0);
	rj = find_event(&g, RDMA_MCM_EVENT_REJOINED, a, h1);
	report(ok && add >= 0 && add < rj,
	       "DEVICE_ADDED, then REJOINED of the waiting membership, on its handle (%d events)",
	       g.n);
	e = rj >= 0 ? &g.ev[rj] : NULL;
	report(e && e->cookie == 31 && !e->status && e->qkey &&
	       e->is_global == 1 && e->port_num == 1 &&
	       e->mgid[10] == 0xff && e->mgid[11] == 0xff &&
	       e->mgid[12] == 239 && e->mgid[13] == 6 && e->mgid[15] == 1,
	       "... REJOINED: the cookie, the Q_Key, MGID ::ffff:239.6.21.1, port 1");
	report(add >= 0 && g.ev[add].port_num == 1 && !g.ev[add].handle &&
	       !g.ev[add].status,
	       "... DEVICE_ADDED: port 1, handle 0, status 0");
	report(find_event(&g, RDMA_MCM_EVENT_REJOINED, a, h2) < 0,
	       "... nothing for the membership left while waiting");
	ok = !query(fa, a, h1, &m);
	report(ok && m.state == RDMA_MCM_STATE_JOINED && !m.status &&
	       m.rejoins == 1 && m.last_status == -ENODEV,
	       "QUERY: joined, one rejoin, last_status -ENODEV (%u, %u, %d)",
	       m.state, m.rejoins, m.last_status);
	report(igmp_lists("011506EF") == 1,
	       "/proc/net/igmp lists 239.6.21.1 again");
	ok = !query_ctx(fa, a, &q);
	report(ok && query_says(&q, "rxe1", SRC_ADDR),
	       "QUERY_CTX: rxe1 again, its node GUID as sysfs has it now");
	ok = wait_joined(fo, o, ho, &m);
	report(ok && m.rejoins == 1,
	       "the other file's membership is joined again, silently (rejoins %u)",
	       m.rejoins);
	read_all(fo, &g);
	report(g.n == 0, "... it reads no event (%d)", g.n);
	two_resets_unread(fa, a, h1);
	close(fa);
	close(fo);
	report(igmp_lists("011506EF") == 0 && igmp_lists("031506EF") == 0,
	       "closed: /proc/net/igmp lists neither group");
}
