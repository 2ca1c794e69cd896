// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * A fake netlink kernel for librdmamcm's netlink.c and route.c, which
 * answers as af_netlink and the generic netlink controller do:
 *
 *  - the controller resolves "rdma_mcm" (its "events" group) and
 *    "nlctrl" (its "notify" group); fnl_unregister() and fnl_register()
 *    do what genl_unregister_family() and genl_register_family() do: the
 *    family's listeners are dropped from its groups, requests to its id
 *    get ENOENT, and the "notify" group hears CTRL_CMD_DELMCAST_GRP and
 *    CTRL_CMD_DELFAMILY (then CTRL_CMD_NEWFAMILY and _NEWMCAST_GRP);
 *  - the family answers MEMBER_GET and CTX_GET dumps (built lazily, one
 *    datagram per recv, so 100,000 memberships cost no memory; the first
 *    at the request, as __netlink_dump_start() does), a second dump on a
 *    socket whose dump runs with EBUSY (nlk->cb_running), STATS_GET, and
 *    a policy error with an extended ACK (NLMSGERR_ATTR_MSG, _OFFS; the
 *    request echoed when the socket has no NETLINK_CAP_ACK);
 *  - a socket in the "events" group gets a scripted series of events in
 *    order with what else is queued to it, with an ENOBUFS in the middle
 *    if asked;
 *  - rtnetlink answers RTM_GETROUTE with a route;
 *  - another port's datagram can be put ahead of a reply, as any local
 *    process may send one.
 *
 * Every canned message carries an attribute of a type the library does
 * not know and a padding attribute. A socket is an eventfd, readable
 * while the socket has something to receive, so that poll(2) works on it.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <unistd.h>

#include "fake_nl.h"
#include "rdma_mcm_priv.h"

struct fake_nl fnl;

/* --- the message builder ------------------------------------------------- */

void nlb_init(struct nlb *b, void *buf, size_t cap)
{
	memset(b, 0, sizeof(*b));
	b->buf = buf;
	b->cap = cap;
}

static int nlb_room(struct nlb *b, size_t n)
{
	if (b->len + n > b->cap) {
		b->len = b->cap + 1;	/* overflowed: nlb_end() says so */
		return 0;
	}
	return 1;
}

int nlb_msg(struct nlb *b, uint16_t type, uint16_t flags, uint32_t seq,
	    uint8_t cmd)
{
	struct nlmsghdr *nlh;
	struct genlmsghdr *g;
	size_t n = NLMSG_LENGTH(GENL_HDRLEN);

	if (b->len + n > b->cap)
		return -1;
	b->msg = b->len;
	nlh = (void *)(b->buf + b->len);
	memset(nlh, 0, n);
	nlh->nlmsg_type = type;
	nlh->nlmsg_flags = flags;
	nlh->nlmsg_seq = seq;
	g = NLMSG_DATA(nlh);
	g->cmd = cmd;
	g->version = 1;
	b->len += n;
	b->depth = 0;
	return 0;
}

void nlb_put(struct nlb *b, uint16_t type, const void *data, size_t len)
{
	struct nlattr *a;

	if (!nlb_room(b, NLA_ALIGN(NLA_HDRLEN + len)))
		return;
	a = (void *)(b->buf + b->len);
	a->nla_type = type;
	a->nla_len = (uint16_t)(NLA_HDRLEN + len);
	if (len)
		memcpy(a + 1, data, len);
	memset((uint8_t *)a + a->nla_len, 0,
	       NLA_ALIGN(a->nla_len) - a->nla_len);
	b->len += NLA_ALIGN(a->nla_len);
}

void nlb_u8(struct nlb *b, uint16_t type, uint8_t v)
{
	nlb_put(b, type, &v, 1);
}

void nlb_u16(struct nlb *b, uint16_t type, uint16_t v)
{
	nlb_put(b, type, &v, 2);
}

void nlb_u32(struct nlb *b, uint16_t type, uint32_t v)
{
	nlb_put(b, type, &v, 4);
}

void nlb_u64(struct nlb *b, uint16_t type, uint64_t v)
{
	nlb_put(b, type, &v, 8);
}

void nlb_str(struct nlb *b, uint16_t type, const char *s)
{
	nlb_put(b, type, s, strlen(s) + 1);
}

void nlb_nest(struct nlb *b, uint16_t type)
{
	if (b->depth >= 8 || !nlb_room(b, NLA_HDRLEN))
		return;
	b->nest[b->depth++] = b->len;
	nlb_put(b, type | NLA_F_NESTED, NULL, 0);
}

void nlb_nest_end(struct nlb *b)
{
	struct nlattr *a;

	if (!b->depth || b->len > b->cap)
		return;
	a = (void *)(b->buf + b->nest[--b->depth]);
	a->nla_len = (uint16_t)(b->len - b->nest[b->depth]);
}

size_t nlb_end(struct nlb *b)
{
	struct nlmsghdr *nlh = (void *)(b->buf + b->msg);

	if (b->len > b->cap) {
		b->len = b->msg;
		return 0;
	}
	nlh->nlmsg_len = (uint32_t)(b->len - b->msg);
	return nlh->nlmsg_len;
}

void nlb_error(struct nlb *b, uint32_t seq, int error)
{
	struct nlmsghdr *nlh = (void *)(b->buf + b->len);
	struct nlmsgerr *e = NLMSG_DATA(nlh);
	size_t n = NLMSG_LENGTH(sizeof(*e));

	if (b->len + n > b->cap)
		return;
	memset(nlh, 0, n);
	nlh->nlmsg_len = (uint32_t)n;
	nlh->nlmsg_type = NLMSG_ERROR;
	nlh->nlmsg_seq = seq;
	e->error = error;
	b->len += NLMSG_ALIGN(n);
}

void nlb_done(struct nlb *b, uint32_t seq)
{
	struct nlmsghdr *nlh = (void *)(b->buf + b->len);
	size_t n = NLMSG_LENGTH(sizeof(int));

	if (b->len + n > b->cap)
		return;
	memset(nlh, 0, n);
	nlh->nlmsg_len = (uint32_t)n;
	nlh->nlmsg_type = NLMSG_DONE;
	nlh->nlmsg_flags = NLM_F_MULTI;
	nlh->nlmsg_seq = seq;
	b->len += NLMSG_ALIGN(n);
}

/* --- the canned objects ------------------------------------------------ */

/*
 * Membership i: context i / 2 + 1, handle i % 2 + 1. Contexts whose id is
 * a multiple of 3 belong to a kernel ULP; the others to pid 1000 + ctx,
 * uid 0 (odd ctx) or 1000 (even). Every fifth membership failed. Contexts
 * whose id is a multiple of 4 are IPv6 (src 2001:db8::a, groups
 * ff0e::1:N), whose groups rdma_mcm joined (RDMA_MCM_A_JOINED_BY); the
 * others' rdma_cm did. A joined full member i with i % 6 == 2 or
 * i % 8 == 6 joined source-specific (RDMA_MCM_A_SOURCES): two sources of
 * its family, with a source of a malformed length and an attribute of a
 * later kernel's type in the nest, which the library skips.
 */
uint32_t fnl_member_ctx(unsigned int i)
{
	return i / 2 + 1;
}

uint32_t fnl_member_handle(unsigned int i)
{
	return i % 2 + 1;
}

static void put_owner(struct nlb *b, uint32_t ctx)
{
	if (ctx % 3 == 0) {
		nlb_u8(b, RDMA_MCM_A_OWNER_KIND, RDMA_MCM_OWNER_KERNEL);
		nlb_str(b, RDMA_MCM_A_OWNER_NAME, "rdma_mcm_test_ulp");
		return;
	}
	nlb_u8(b, RDMA_MCM_A_OWNER_KIND, RDMA_MCM_OWNER_USER);
	nlb_u32(b, RDMA_MCM_A_OWNER_PID, ctx == 1 && fnl.self_pid ?
		fnl.self_pid : 1000 + ctx);
	nlb_u32(b, RDMA_MCM_A_OWNER_UID, ctx % 2 ? 0 : 1000);
	nlb_str(b, RDMA_MCM_A_OWNER_NAME, fnl.comm);
	nlb_u32(b, RDMA_MCM_A_FILE_CTX, 1);
}

static int ctx_is_ip6(uint32_t ctx)
{
	return ctx % 4 == 0;
}

static void put_ctx_common(struct nlb *b, uint32_t ctx)
{
	uint8_t src[4] = { 10, 0, 0, (uint8_t)(ctx % 2 ? 1 : 2) };
	uint8_t src6[16] = { 0x20, 0x01, 0x0d, 0xb8, [15] = 0x0a };

	nlb_u32(b, RDMA_MCM_A_CTX_ID, ctx);
	put_owner(b, ctx);
	nlb_u32(b, RDMA_MCM_A_NETNS, 4026531840u);
	nlb_str(b, RDMA_MCM_A_DEV_NAME, ctx % 2 ? fnl.dev : "rxe1");
	if (!fnl.no_port_group)
		nlb_u32(b, RDMA_MCM_A_PORT, 1);
	nlb_str(b, RDMA_MCM_A_NETDEV, ctx % 2 ? fnl.netdev : "veth1");
	if (ctx_is_ip6(ctx)) {
		nlb_u16(b, RDMA_MCM_A_FAMILY, AF_INET6);
		nlb_put(b, RDMA_MCM_A_SRC, src6, 16);
		return;
	}
	nlb_u16(b, RDMA_MCM_A_FAMILY, AF_INET);
	nlb_put(b, RDMA_MCM_A_SRC, src, 4);
}

/* Membership @i's group, 239.1.X.Y or ff0e::1:X:Y: its length */
static size_t group_of(unsigned int i, uint8_t g[16])
{
	memset(g, 0, 16);
	if (ctx_is_ip6(fnl_member_ctx(i))) {
		g[0] = 0xff;
		g[1] = 0x0e;
		g[11] = 1;
		g[13] = (uint8_t)(i / 250);
		g[15] = (uint8_t)(i % 250 + 1);
		return 16;
	}
	g[0] = 239;
	g[1] = 1;
	g[2] = (uint8_t)(i / 250);
	g[3] = (uint8_t)(i % 250 + 1);
	return 4;
}

/* A source-specific join's sources, with what a library must skip */
static void put_sources(struct nlb *b, int ip6)
{
	uint8_t s4[2][4] = { { 192, 0, 2, 1 }, { 192, 0, 2, 2 } };
	uint8_t s6[2][16] = { { 0x20, 0x01, 0x0d, 0xb8, [15] = 1 },
			      { 0x20, 0x01, 0x0d, 0xb8, [15] = 2 } };
	uint8_t odd[3] = { 192, 0, 2 };
	int k;

	nlb_nest(b, RDMA_MCM_A_SOURCES);
	for (k = 0; k < 2; k++) {
		if (ip6)
			nlb_put(b, RDMA_MCM_A_SOURCE, s6[k], 16);
		else
			nlb_put(b, RDMA_MCM_A_SOURCE, s4[k], 4);
		if (!k) {
			nlb_put(b, RDMA_MCM_A_SOURCE, odd, sizeof(odd));
			nlb_u32(b, FNL_A_FUTURE, 7);
		}
	}
	nlb_nest_end(b);
}

void fnl_put_member(struct nlb *b, unsigned int i)
{
	uint32_t ctx = fnl_member_ctx(i);
	uint8_t g[16], mgid[16] = { [10] = 0xff, [11] = 0xff };
	size_t glen = group_of(i, g);
	int failed = i % 5 == 4;

	if (glen == 16)
		memcpy(mgid, g, 16);
	else
		memcpy(mgid + 12, g, 4);
	put_ctx_common(b, ctx);
	nlb_u32(b, RDMA_MCM_A_HANDLE, fnl_member_handle(i));
	if (!fnl.no_port_group)
		nlb_put(b, RDMA_MCM_A_GROUP, g, glen);
	nlb_u32(b, FNL_A_FUTURE, 0xdeadbeef);
	nlb_put(b, RDMA_MCM_A_PAD, NULL, 0);
	nlb_u8(b, RDMA_MCM_A_JOIN_TYPE,
	       (uint8_t)(i % 2 + (fnl.newer ? 6 : 0)));
	nlb_u8(b, RDMA_MCM_A_STATE, failed ? RDMA_MCM_NL_ERROR :
					     RDMA_MCM_NL_JOINED);
	nlb_u32(b, RDMA_MCM_A_STATUS, failed ? (uint32_t)-ETIMEDOUT : 0);
	nlb_u32(b, RDMA_MCM_A_LAST_STATUS, failed ? (uint32_t)-ETIMEDOUT : 0);
	if (!failed) {
		nlb_put(b, RDMA_MCM_A_MGID, mgid, 16);
		nlb_u16(b, RDMA_MCM_A_MLID, 0);
		nlb_u32(b, RDMA_MCM_A_QKEY, 0x1234567);
		nlb_u8(b, RDMA_MCM_A_JOINED_BY, glen == 16 ?
		       RDMA_MCM_JOINER_RDMA_MCM : RDMA_MCM_JOINER_RDMA_CM);
		if (i % 2 == 0 && (i % 6 == 2 || i % 8 == 6))
			put_sources(b, glen == 16);
	}
	nlb_u64(b, RDMA_MCM_A_AGE_MS, 12300 + i);
	nlb_u64(b, RDMA_MCM_A_STATE_AGE_MS, 2000);
	nlb_u32(b, RDMA_MCM_A_REJOINS, i % 3 == 2);
	nlb_u32(b, RDMA_MCM_A_QUEUED, 0);
	if (!failed && i % 2 == 0)
		nlb_put(b, RDMA_MCM_A_QP_ATTACHED, NULL, 0);
}

static void put_errno_count(struct nlb *b, uint32_t err, uint64_t count)
{
	nlb_nest(b, RDMA_MCM_A_ERRNO_COUNT);
	nlb_u32(b, RDMA_MCM_A_ERRNO, err);
	nlb_u64(b, RDMA_MCM_A_COUNT, count);
	nlb_nest_end(b);
}

/* Counters @base + their index, a breakdown of each kind */
static void put_counters(struct nlb *b, uint64_t base)
{
	int c;

	nlb_nest(b, RDMA_MCM_A_COUNTERS);
	/* the padding a kernel puts before a u64 (type 1 = JOINS) */
	nlb_put(b, RDMA_MCM_A_PAD, NULL, 0);
	for (c = 1; c < __RDMA_MCM_CNT_MAX; c++)
		nlb_u64(b, (uint16_t)c, base + (uint64_t)c);
	nlb_u64(b, 30, 99);		/* a later kernel's counter */
	nlb_nest_end(b);
	nlb_nest(b, RDMA_MCM_A_JOIN_FAILURES);
	put_errno_count(b, ENOBUFS, 3);
	put_errno_count(b, 0, 1);
	nlb_nest_end(b);
	nlb_nest(b, RDMA_MCM_A_ERRORS);
	put_errno_count(b, ETIMEDOUT, base + 1);
	nlb_nest_end(b);
}

void fnl_put_context(struct nlb *b, unsigned int i)
{
	uint32_t ctx = i + 1;
	unsigned int n = 0, m;

	for (m = 2 * i; m < 2 * i + 2 && m < fnl.members; m++)
		n++;
	put_ctx_common(b, ctx);
	nlb_u32(b, RDMA_MCM_A_CTX_FLAGS, ctx % 3 ? 1 : 0);
	nlb_u32(b, RDMA_MCM_A_MEMBERS, n);
	nlb_u32(b, FNL_A_FUTURE, 1);
	put_counters(b, 100 * ctx);
}

/* A device's multicast figures (RDMA_MCM_A_MCAST), fnl.mcast's */
static void put_mcast(struct nlb *b)
{
	int i;

	nlb_nest(b, RDMA_MCM_A_MCAST);
	for (i = 0; i < 5; i++)
		nlb_u32(b, (uint16_t)(RDMA_MCM_MCAST_GROUPS + i), fnl.mcast[i]);
	nlb_nest_end(b);
}

void fnl_put_stats(struct nlb *b)
{
	int i;

	put_counters(b, 1000);
	nlb_nest(b, RDMA_MCM_A_LIMITS);
	for (i = 1; i < __RDMA_MCM_LIMIT_MAX; i++)
		nlb_u32(b, (uint16_t)i, 1000u * (uint32_t)i);
	for (i = 6; fnl.newer && i < 8; i++)
		nlb_u32(b, (uint16_t)i, 100u * (uint32_t)i);
	nlb_nest_end(b);
	nlb_nest(b, RDMA_MCM_A_USAGE);
	nlb_u32(b, RDMA_MCM_USAGE_CONTEXTS, fnl.contexts);
	nlb_u32(b, RDMA_MCM_USAGE_MEMBERSHIPS, fnl.members);
	nlb_u32(b, RDMA_MCM_USAGE_CM_IDS, 2);
	nlb_u32(b, RDMA_MCM_USAGE_FILES, 3);
	nlb_u32(b, RDMA_MCM_USAGE_USERS, 2);
	for (i = 6; fnl.newer && i < 8; i++)
		nlb_u32(b, (uint16_t)i, (uint32_t)i);
	nlb_nest_end(b);
	nlb_u64(b, RDMA_MCM_A_EVENTS_LOST, fnl.events_lost);
	nlb_u32(b, FNL_A_FUTURE, 7);
	for (i = 0; i < 2; i++) {
		nlb_nest(b, RDMA_MCM_A_DEVICE);
		nlb_str(b, RDMA_MCM_A_DEV_NAME, i ? "rxe1" : fnl.dev);
		put_counters(b, 10 * (uint64_t)(i + 1));
		if (i && fnl.has_mcast)
			put_mcast(b);
		if (fnl.mcast0 && !i) {
			/* used, max: groups 3/8, attaches 5/16, 4 per group */
			nlb_nest(b, RDMA_MCM_A_MCAST);
			nlb_u32(b, RDMA_MCM_MCAST_GROUPS, 3);
			nlb_u32(b, RDMA_MCM_MCAST_GROUPS_MAX, 8);
			nlb_u32(b, RDMA_MCM_MCAST_ATTACHES, 5);
			nlb_u32(b, RDMA_MCM_MCAST_ATTACHES_MAX, 16);
			nlb_u32(b, RDMA_MCM_MCAST_QP_ATTACH_MAX, 4);
			nlb_nest_end(b);
		}
		nlb_nest_end(b);
	}
}

/*
 * Event i of the script, for membership ctx 1 handle 1 of 239.9.0.1:
 * join, joined, leave, then a context's device-lost and device-added,
 * again and again
 */
void fnl_put_event(struct nlb *b, unsigned int i)
{
	static const uint8_t type[] = {
		RDMA_MCM_NL_EV_JOIN, RDMA_MCM_NL_EV_JOINED,
		RDMA_MCM_NL_EV_LEAVE, RDMA_MCM_NL_EV_DEVICE_LOST,
		RDMA_MCM_NL_EV_DEVICE_ADDED,
	};
	uint8_t ev = type[i % sizeof(type)];
	uint8_t g[4] = { 239, 9, 0, 1 };

	nlb_u8(b, RDMA_MCM_A_EVENT, ev);
	nlb_u64(b, RDMA_MCM_A_TIME_NS, 1000000000ull + i * 1000ull);
	nlb_u32(b, RDMA_MCM_A_CTX_ID, 1);
	put_owner(b, 1);
	nlb_u32(b, FNL_A_FUTURE, 5);
	/* as the kernel sends them: a context's events name the device */
	if (ev == RDMA_MCM_NL_EV_DEVICE_LOST ||
	    ev == RDMA_MCM_NL_EV_DEVICE_ADDED) {
		nlb_u16(b, RDMA_MCM_A_FAMILY, AF_INET);
		nlb_u32(b, RDMA_MCM_A_STATUS, 0);
		nlb_str(b, RDMA_MCM_A_DEV_NAME, fnl.dev);
		return;
	}
	nlb_u32(b, RDMA_MCM_A_HANDLE, 1);
	nlb_u16(b, RDMA_MCM_A_FAMILY, AF_INET);
	nlb_put(b, RDMA_MCM_A_GROUP, g, 4);
	nlb_u8(b, RDMA_MCM_A_JOIN_TYPE, fnl.newer ? 7 : 0);
	/* a leave: the state it was left in */
	nlb_u8(b, RDMA_MCM_A_STATE, ev == RDMA_MCM_NL_EV_JOIN ? 0 :
				    ev == RDMA_MCM_NL_EV_JOINED ? 1 : 1);
	nlb_u32(b, RDMA_MCM_A_STATUS, 0);
}

/* --- sockets ----------------------------------------------------------- */

enum { DUMP_NONE, DUMP_MEMBERS, DUMP_CONTEXTS };

#define GRP_EVENTS	1		/* the family's "events" */
#define GRP_NOTIFY	2		/* the controller's "notify" */
#define RUN_OPEN	UINT_MAX	/* a run up to fnl.events, as they come */

/*
 * What is queued on a socket, in order: a datagram, or a run of the
 * script's events (those the socket gets while in the "events" group)
 */
struct dgram {
	struct dgram *next;
	uint32_t port;			/* the sender's: 0, the kernel */
	int run;			/* a run of events, not a datagram */
	unsigned int run_end;		/* its end, or RUN_OPEN */
	size_t len;
	uint8_t data[];
};

struct fnl_sock {
	int used;
	int fd;				/* eventfd */
	int protocol;			/* NETLINK_GENERIC, NETLINK_ROUTE */
	int readable;			/* the eventfd's count is 1 */
	int groups;			/* GRP_* joined */
	struct dgram *head, *tail;
	int dump;			/* DUMP_* in progress */
	unsigned int next;		/* its next object */
	uint32_t dump_seq;
	uint32_t filter_ctx;
	unsigned int ev_next;		/* the script's next event */
	int enobufs;			/* ENOBUFS is due */
};

static struct fnl_sock socks[FNL_SOCKETS];

static struct fnl_sock *sock_of(int fd)
{
	int i;

	for (i = 0; i < FNL_SOCKETS; i++)
		if (socks[i].used && socks[i].fd == fd)
			return &socks[i];
	return NULL;
}

static unsigned int run_end(const struct dgram *d)
{
	return d->run_end == RUN_OPEN ? fnl.events : d->run_end;
}

/* Drop the runs at the head that have nothing more to give */
static void skip_spent(struct fnl_sock *s)
{
	struct dgram *d;

	while ((d = s->head) && d->run && d->run_end != RUN_OPEN &&
	       s->ev_next >= d->run_end) {
		s->head = d->next;
		if (!s->head)
			s->tail = NULL;
		free(d);
	}
}

static int has_input(struct fnl_sock *s)
{
	skip_spent(s);
	if (s->enobufs || s->dump)
		return 1;
	if (!s->head)
		return 0;
	return !s->head->run || s->ev_next < run_end(s->head);
}

/* The eventfd is readable exactly while the socket has input */
static void sync_fd(struct fnl_sock *s)
{
	uint64_t v = 1;

	if (has_input(s) && !s->readable) {
		if (write(s->fd, &v, sizeof(v)) == sizeof(v))
			s->readable = 1;
	} else if (!has_input(s) && s->readable) {
		if (read(s->fd, &v, sizeof(v)) == sizeof(v))
			s->readable = 0;
	}
}

static void append(struct fnl_sock *s, struct dgram *d)
{
	d->next = NULL;
	if (s->tail)
		s->tail->next = d;
	else
		s->head = d;
	s->tail = d;
}

/* The events sent so far were queued before what comes now */
static void close_run(struct fnl_sock *s)
{
	if (s->tail && s->tail->run && s->tail->run_end == RUN_OPEN)
		s->tail->run_end = fnl.events;
}

/* A datagram from port @port, behind what is queued */
static void queue_from(struct fnl_sock *s, const struct nlb *b,
		       uint32_t port)
{
	struct dgram *d;

	if (!b->len)
		return;
	d = calloc(1, sizeof(*d) + b->len);
	if (!d)
		abort();
	d->port = port;
	d->len = b->len;
	memcpy(d->data, b->buf, b->len);
	close_run(s);
	append(s, d);
	sync_fd(s);
}

static void queue(struct fnl_sock *s, const struct nlb *b)
{
	queue_from(s, b, 0);
}

static void free_queue(struct fnl_sock *s)
{
	struct dgram *d;

	while ((d = s->head)) {
		s->head = d->next;
		free(d);
	}
	s->tail = NULL;
}

static int f_socket(void *priv, int protocol, int at)
{
	struct fnl_sock *s = NULL;
	int i, fd;

	(void)priv;
	if (at >= 0) {
		s = sock_of(at);
		if (!s)
			abort();
	}
	for (i = 0; i < FNL_SOCKETS && !s; i++)
		if (!socks[i].used)
			s = &socks[i];
	if (!s) {
		errno = EMFILE;
		return -1;
	}
	fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (fd < 0)
		return -1;
	if (at >= 0) {
		/* dup3(): the old socket goes, its number stays */
		free_queue(s);
		if (dup3(fd, at, O_CLOEXEC) < 0)
			abort();
		close(fd);
		fd = at;
		fnl.sockets--;
	}
	memset(s, 0, sizeof(*s));
	s->fd = fd;
	s->protocol = protocol;
	s->used = 1;
	fnl.sockets++;
	fnl.opened++;
	return fd;
}

static void f_close(void *priv, int fd)
{
	struct fnl_sock *s = sock_of(fd);

	(void)priv;
	if (!s)
		abort();
	free_queue(s);
	close(s->fd);
	s->used = 0;
	fnl.sockets--;
}

/* As genl_bind(): a group no family has is joined, and hears nothing */
static int f_join_group(void *priv, int fd, uint32_t group)
{
	struct fnl_sock *s = sock_of(fd);
	struct dgram *d;

	(void)priv;
	if (!s)
		abort();
	if (group == GENL_ID_CTRL) {
		s->groups |= GRP_NOTIFY;
		return 0;
	}
	if (fnl.absent || group != fnl.mcgrp_id || (s->groups & GRP_EVENTS))
		return 0;
	if (fnl.deny_monitor) {
		errno = EPERM;
		return -1;
	}
	s->groups |= GRP_EVENTS;
	d = calloc(1, sizeof(*d));
	if (!d)
		abort();
	d->run = 1;
	d->run_end = RUN_OPEN;
	append(s, d);
	sync_fd(s);
	return 0;
}

/*
 * A controller's message about the family (as ctrl_fill_info() and
 * ctrl_fill_mcgrp_info()): @cmd CTRL_CMD_NEWFAMILY, _DELFAMILY,
 * _NEWMCAST_GRP or _DELMCAST_GRP, to request @seq (0: a notification)
 */
static void put_family(struct nlb *b, uint8_t cmd, uint32_t seq)
{
	nlb_msg(b, GENL_ID_CTRL, 0, seq, cmd);
	nlb_str(b, CTRL_ATTR_FAMILY_NAME, RDMA_MCM_GENL_NAME);
	nlb_u16(b, CTRL_ATTR_FAMILY_ID, fnl.family_id);
	nlb_u32(b, CTRL_ATTR_VERSION, RDMA_MCM_GENL_VERSION);
	nlb_nest(b, CTRL_ATTR_MCAST_GROUPS);
	if (cmd == CTRL_CMD_NEWFAMILY) {
		nlb_nest(b, 1);
		nlb_str(b, CTRL_ATTR_MCAST_GRP_NAME, "other");
		nlb_u32(b, CTRL_ATTR_MCAST_GRP_ID, fnl.mcgrp_id + 1);
		nlb_nest_end(b);
	}
	nlb_nest(b, 2);
	nlb_str(b, CTRL_ATTR_MCAST_GRP_NAME, RDMA_MCM_GENL_MCGRP_EVENTS);
	nlb_u32(b, CTRL_ATTR_MCAST_GRP_ID, fnl.mcgrp_id);
	nlb_nest_end(b);
	nlb_nest_end(b);
	nlb_end(b);
}

/* A notification of the controller to every socket in "notify" */
static void notify(uint8_t cmd)
{
	uint8_t buf[512];
	struct nlb b;
	int i;

	nlb_init(&b, buf, sizeof(buf));
	put_family(&b, cmd, 0);
	for (i = 0; i < FNL_SOCKETS; i++)
		if (socks[i].used && (socks[i].groups & GRP_NOTIFY))
			queue(&socks[i], &b);
}

void fnl_unregister(int notified)
{
	int i;

	if (fnl.absent)
		return;
	/* genl_unregister_mc_groups(): every listener dropped */
	for (i = 0; i < FNL_SOCKETS; i++) {
		if (!socks[i].used || !(socks[i].groups & GRP_EVENTS))
			continue;
		close_run(&socks[i]);
		socks[i].groups &= ~GRP_EVENTS;
	}
	if (notified) {
		notify(CTRL_CMD_DELMCAST_GRP);
		notify(CTRL_CMD_DELFAMILY);
	}
	fnl.absent = 1;
}

void fnl_register(uint16_t family, uint32_t mcgrp, int notified)
{
	fnl.family_id = family;
	fnl.mcgrp_id = mcgrp;
	fnl.absent = 0;
	if (notified) {
		notify(CTRL_CMD_NEWFAMILY);
		notify(CTRL_CMD_NEWMCAST_GRP);
	}
}

/*
 * The kernel's answer of @error to request @req, as netlink_ack() gives
 * it: the request's header (all of it without NETLINK_CAP_ACK), and with
 * NETLINK_EXT_ACK the text @msg and the offset of attribute @bad in the
 * request
 */
static void ack(struct fnl_sock *s, const struct nlmsghdr *req, int error,
		const char *msg, const void *bad)
{
	uint8_t buf[1024];
	struct nlmsghdr *nlh = (void *)buf;
	struct nlmsgerr *e = NLMSG_DATA(nlh);
	size_t echo = error && fnl.no_cap_ack ? req->nlmsg_len : NLMSG_HDRLEN;
	struct nlb b;

	memset(buf, 0, sizeof(buf));
	nlh->nlmsg_type = NLMSG_ERROR;
	nlh->nlmsg_seq = req->nlmsg_seq;
	nlh->nlmsg_flags = echo == NLMSG_HDRLEN ? NLM_F_CAPPED : 0;
	e->error = error;
	memcpy(&e->msg, req, echo);
	/* the attributes go on from here, as nla_put() does */
	nlb_init(&b, buf, sizeof(buf));
	b.len = NLMSG_ALIGN(NLMSG_LENGTH(sizeof(*e) - NLMSG_HDRLEN + echo));
	if (error && !fnl.no_ext_ack && (msg || bad)) {
		nlh->nlmsg_flags |= NLM_F_ACK_TLVS;
		if (msg)
			nlb_str(&b, NLMSGERR_ATTR_MSG, msg);
		if (bad)
			nlb_u32(&b, NLMSGERR_ATTR_OFFS,
				(uint32_t)((const uint8_t *)bad -
					   (const uint8_t *)req));
	}
	nlh->nlmsg_len = (uint32_t)b.len;
	queue(s, &b);
}

/* Another process's datagram, sent to our port ahead of @seq's answer */
static void forge(struct fnl_sock *s, uint32_t seq)
{
	uint8_t buf[64];
	struct nlb b;

	if (!fnl.inject_port)
		return;
	nlb_init(&b, buf, sizeof(buf));
	nlb_done(&b, seq);
	queue_from(s, &b, fnl.inject_port);
}

static void reply_family(struct fnl_sock *s, const struct nlmsghdr *nlh)
{
	uint8_t buf[512];
	struct nlb b;
	size_t hdr = NLMSG_LENGTH(GENL_HDRLEN);
	const struct nlattr *a = (const void *)((const uint8_t *)nlh + hdr);
	const char *name = (const char *)(a + 1);

	fnl.resolves++;
	nlb_init(&b, buf, sizeof(buf));
	if (nlh->nlmsg_len < hdr + NLA_HDRLEN ||
	    a->nla_type != CTRL_ATTR_FAMILY_NAME) {
		ack(s, nlh, -EINVAL, NULL, NULL);
		return;
	}
	if (!strcmp(name, "nlctrl")) {
		nlb_msg(&b, GENL_ID_CTRL, 0, nlh->nlmsg_seq,
			CTRL_CMD_NEWFAMILY);
		nlb_str(&b, CTRL_ATTR_FAMILY_NAME, "nlctrl");
		nlb_u16(&b, CTRL_ATTR_FAMILY_ID, GENL_ID_CTRL);
		nlb_nest(&b, CTRL_ATTR_MCAST_GROUPS);
		nlb_nest(&b, 1);
		nlb_str(&b, CTRL_ATTR_MCAST_GRP_NAME, "notify");
		nlb_u32(&b, CTRL_ATTR_MCAST_GRP_ID, GENL_ID_CTRL);
		nlb_nest_end(&b);
		nlb_nest_end(&b);
		nlb_end(&b);
	} else if (!strcmp(name, RDMA_MCM_GENL_NAME) && !fnl.absent) {
		put_family(&b, CTRL_CMD_NEWFAMILY, nlh->nlmsg_seq);
	} else {
		/* ctrl_getfamily(): no such family */
		ack(s, nlh, -ENOENT, NULL, NULL);
		return;
	}
	queue(s, &b);
}

/* The dump's next datagram into @b, NLMSG_DONE when it is over */
static void dump_next(struct fnl_sock *s, struct nlb *b)
{
	unsigned int total = s->dump == DUMP_MEMBERS ? fnl.members :
						       fnl.contexts;
	unsigned int n = 0;
	uint8_t cmd = s->dump == DUMP_MEMBERS ? RDMA_MCM_CMD_MEMBER_GET :
						RDMA_MCM_CMD_CTX_GET;

	while (s->next < total && (!fnl.per_dgram || n < fnl.per_dgram)) {
		unsigned int i = s->next;

		if (s->dump == DUMP_MEMBERS && s->filter_ctx &&
		    fnl_member_ctx(i) != s->filter_ctx) {
			s->next++;
			continue;
		}
		if (nlb_msg(b, fnl.family_id, NLM_F_MULTI, s->dump_seq, cmd))
			break;
		if (s->dump == DUMP_MEMBERS)
			fnl_put_member(b, i);
		else
			fnl_put_context(b, i);
		if (!nlb_end(b))
			break;		/* full: in the next datagram */
		fnl.generated++;
		s->next++;
		n++;
	}
	if (s->next >= total && b->len + NLMSG_LENGTH(4) <= b->cap) {
		/* the end: nlk->cb_running is false from here on */
		nlb_done(b, s->dump_seq);
		memcpy(b->buf + b->len - 4, &fnl.done_error, 4);
		s->dump = DUMP_NONE;
	}
}

static uint8_t dg[32768];

/* The family's request: strict, as the kernel's policy is */
static void request(struct fnl_sock *s, const struct nlmsghdr *nlh)
{
	const struct genlmsghdr *g = NLMSG_DATA(nlh);
	size_t hdr = NLMSG_LENGTH(GENL_HDRLEN);
	const uint8_t *p = (const uint8_t *)nlh + hdr;
	size_t left = nlh->nlmsg_len - hdr, step;
	uint32_t filter = 0;
	struct nlb b;
	int dump = g->cmd == RDMA_MCM_CMD_MEMBER_GET ||
		   g->cmd == RDMA_MCM_CMD_CTX_GET;

	if (!dump && g->cmd != RDMA_MCM_CMD_STATS_GET) {
		ack(s, nlh, -EOPNOTSUPP, NULL, NULL);
		return;
	}
	if (fnl.error_value) {
		/* whatever a broken kernel would say */
		ack(s, nlh, fnl.error_value, NULL, NULL);
		fnl.error_value = 0;
		return;
	}
	if (dump && !(nlh->nlmsg_flags & NLM_F_DUMP)) {
		/* a dump command without NLM_F_DUMP: no doit */
		ack(s, nlh, -EOPNOTSUPP, NULL, NULL);
		return;
	}
	/* __netlink_dump_start(): one dump at a time per socket */
	if (dump && s->dump) {
		ack(s, nlh, -EBUSY, NULL, NULL);
		return;
	}
	/* __nla_validate_parse() of rdma_mcm_nl_dump_policy, strict */
	while (left >= NLA_HDRLEN) {
		const struct nlattr *a = (const void *)p;

		if (a->nla_len < NLA_HDRLEN || a->nla_len > left) {
			ack(s, nlh, -EINVAL, "Invalid attribute", NULL);
			return;
		}
		if (!dump || fnl.old_policy || a->nla_type != RDMA_MCM_A_CTX_ID) {
			ack(s, nlh, -EINVAL, "Unknown attribute type", a);
			return;
		}
		if (a->nla_len != NLA_HDRLEN + 4) {
			ack(s, nlh, -EINVAL, "invalid attribute length", a);
			return;
		}
		memcpy(&filter, a + 1, 4);
		if (!filter) {
			ack(s, nlh, -ERANGE, "integer out of range", a);
			return;
		}
		step = NLA_ALIGN(a->nla_len);
		p += step;
		left -= step < left ? step : left;
	}
	/* the host's figures are the administrator's (GENL_ADMIN_PERM) */
	if (!dump && fnl.deny_stats) {
		ack(s, nlh, -EPERM, NULL, NULL);
		return;
	}
	nlb_init(&b, dg, sizeof(dg));
	if (!dump) {
		nlb_msg(&b, fnl.family_id, 0, nlh->nlmsg_seq,
			RDMA_MCM_CMD_STATS_GET);
		fnl_put_stats(&b);
		if (nlb_end(&b))
			queue(s, &b);
		return;
	}
	s->dump = g->cmd == RDMA_MCM_CMD_MEMBER_GET ? DUMP_MEMBERS :
						      DUMP_CONTEXTS;
	s->next = 0;
	s->dump_seq = nlh->nlmsg_seq;
	s->filter_ctx = filter;
	/* the first datagram comes at once, as netlink_dump() does it */
	dump_next(s, &b);
	queue(s, &b);
}

/* RTM_GETROUTE: the route fnl.route_src says, out of fnl.route_oif */
static void route_request(struct fnl_sock *s, const struct nlmsghdr *nlh)
{
	uint8_t buf[256], forged[4] = { 198, 51, 100, 66 };
	struct nlmsghdr *r = (void *)buf;
	struct rtmsg *rt = NLMSG_DATA(r);
	struct nlb b;

	if (nlh->nlmsg_type != RTM_GETROUTE ||
	    nlh->nlmsg_len < NLMSG_LENGTH(sizeof(*rt))) {
		ack(s, nlh, -EINVAL, NULL, NULL);
		return;
	}
	fnl.route_seq = nlh->nlmsg_seq;
	nlb_init(&b, buf, sizeof(buf));
	memset(buf, 0, sizeof(buf));
	r->nlmsg_seq = nlh->nlmsg_seq;
	if (fnl.route_short) {
		/* a header and two bytes: no room for what it claims */
		r->nlmsg_type = fnl.route_errno ? NLMSG_ERROR : RTM_NEWROUTE;
		r->nlmsg_len = NLMSG_LENGTH(2);
		b.len = NLMSG_ALIGN(r->nlmsg_len);
		queue(s, &b);
		return;
	}
	if (fnl.route_errno) {
		ack(s, nlh, fnl.route_errno, NULL, NULL);
		return;
	}
	r->nlmsg_type = RTM_NEWROUTE;
	rt->rtm_family = AF_INET;
	rt->rtm_dst_len = 32;
	b.len = NLMSG_LENGTH(sizeof(*rt));
	if (fnl.inject_port) {
		/* another process's answer, first: what it would have us use */
		nlb_put(&b, RTA_PREFSRC, forged, 4);
		nlb_u32(&b, RTA_OIF, 666);
		r->nlmsg_len = (uint32_t)b.len;
		queue_from(s, &b, fnl.inject_port);
		b.len = NLMSG_LENGTH(sizeof(*rt));
	}
	nlb_put(&b, RTA_PREFSRC, &fnl.route_src, 4);
	nlb_u32(&b, RTA_OIF, fnl.route_oif);
	r->nlmsg_len = (uint32_t)b.len;
	queue(s, &b);
}

static ssize_t f_send(void *priv, int fd, const void *buf, size_t len)
{
	struct fnl_sock *s = sock_of(fd);
	const struct nlmsghdr *nlh = buf;

	(void)priv;
	if (!s)
		abort();
	fnl.requests++;
	if (len < NLMSG_HDRLEN || nlh->nlmsg_len != len ||
	    !(nlh->nlmsg_flags & NLM_F_REQUEST)) {
		errno = EINVAL;
		return -1;
	}
	if (s->protocol == NETLINK_ROUTE) {
		route_request(s, nlh);
	} else if (len < NLMSG_LENGTH(GENL_HDRLEN)) {
		ack(s, nlh, -EINVAL, NULL, NULL);
	} else if (nlh->nlmsg_type == GENL_ID_CTRL) {
		forge(s, nlh->nlmsg_seq);
		reply_family(s, nlh);
	} else if (nlh->nlmsg_type == fnl.family_id && !fnl.absent) {
		forge(s, nlh->nlmsg_seq);
		request(s, nlh);
	} else {
		/* genl_rcv_msg(): no family of that id */
		ack(s, nlh, -ENOENT, NULL, NULL);
	}
	sync_fd(s);
	return (ssize_t)len;
}

/*
 * The socket's next event into @b: 1; 0 when the run at the head has
 * none now; -1/ENOBUFS; 2 when the family went at this event (the queue
 * changed: look at it again)
 */
static int next_event(struct fnl_sock *s, struct nlb *b)
{
	struct dgram *d = s->head;

	if (s->ev_next >= run_end(d))
		return 0;
	if (fnl.unregister_at && s->ev_next == fnl.unregister_at) {
		/* the module goes: no event after this one was sent */
		fnl.unregister_at = 0;
		fnl.events = s->ev_next;
		fnl_unregister(1);
		return 2;
	}
	if (fnl.enobufs_at && s->ev_next == fnl.enobufs_at) {
		/* the socket overflowed: events lost meanwhile */
		s->ev_next += fnl.lost;
		fnl.events_lost += fnl.lost;
		fnl.enobufs_at = 0;
		errno = ENOBUFS;
		return -1;
	}
	if (fnl.event_delay_us)
		usleep(fnl.event_delay_us);
	nlb_msg(b, fnl.family_id, 0, 0, RDMA_MCM_CMD_EVENT);
	fnl_put_event(b, s->ev_next++);
	nlb_end(b);
	return 1;
}

static ssize_t f_recv(void *priv, int fd, void *buf, size_t len, int flags,
		      uint32_t *port)
{
	struct fnl_sock *s = sock_of(fd);
	struct dgram *d;
	struct nlb b;
	size_t n;
	int ret;

	(void)priv;
	if (!s)
		abort();
	*port = 0;
	if (fnl.recv_eintr) {
		fnl.recv_eintr--;
		errno = EINTR;
		return -1;
	}
	nlb_init(&b, dg, sizeof(dg));
	if (s->enobufs) {
		s->enobufs = 0;
		sync_fd(s);
		errno = ENOBUFS;
		return -1;
	}
	for (;;) {
		skip_spent(s);
		d = s->head;
		if (d && d->run) {
			ret = next_event(s, &b);
			if (ret < 0) {
				sync_fd(s);
				return -1;
			}
			if (ret == 1)
				break;
			if (ret == 2 || d->run_end != RUN_OPEN)
				continue;	/* d may be gone, or spent */
			d = NULL;		/* nothing more yet */
		}
		if (d) {
			s->head = d->next;
			if (!s->head)
				s->tail = NULL;
			*port = d->port;
			n = d->len < len ? d->len : len;
			memcpy(buf, d->data, n);
			n = flags & MSG_TRUNC ? d->len : n;
			free(d);
			sync_fd(s);
			return (ssize_t)n;
		}
		if (!s->dump) {
			sync_fd(s);
			errno = EAGAIN;
			return -1;
		}
		dump_next(s, &b);
		break;
	}
	n = b.len < len ? b.len : len;
	memcpy(buf, b.buf, n);
	sync_fd(s);
	return (ssize_t)(flags & MSG_TRUNC ? b.len : n);
}

static const struct mcm_nl_io fake_nl_io = {
	.socket = f_socket,
	.send = f_send,
	.recv = f_recv,
	.join_group = f_join_group,
	.close = f_close,
};

void fake_nl_install(void)
{
	int i;

	for (i = 0; i < FNL_SOCKETS; i++)
		if (socks[i].used)
			f_close(NULL, socks[i].fd);
	memset(&fnl, 0, sizeof(fnl));
	fnl.family_id = FNL_FAMILY;
	fnl.mcgrp_id = FNL_MCGRP;
	fnl.route_src = htonl(0x0a000001);
	fnl.route_oif = 2;
	fnl.comm = "rdma-mcm";
	fnl.dev = "rxe0";
	fnl.netdev = "veth0";
	mcm_nl_io = &fake_nl_io;
	mcm_nl_io_priv = NULL;
}

void fake_nl_uninstall(void)
{
	fake_nl_install();
	mcm_nl_io = &mcm_nl_sock_io;
}

static unsigned int env_uint(const char *name, unsigned int def)
{
	const char *v = getenv(name);

	return v ? (unsigned int)strtoul(v, NULL, 10) : def;
}

void fake_nl_env(void)
{
	const char *mcast;

	fake_nl_install();
	fnl.absent = !!getenv("FAKE_NL_ABSENT");
	fnl.deny_monitor = !!getenv("FAKE_NL_DENY");
	fnl.members = env_uint("FAKE_NL_MEMBERS", 6);
	fnl.contexts = env_uint("FAKE_NL_CONTEXTS", (fnl.members + 1) / 2);
	fnl.events = env_uint("FAKE_NL_EVENTS", 5);
	fnl.enobufs_at = env_uint("FAKE_NL_ENOBUFS_AT", 0);
	fnl.lost = env_uint("FAKE_NL_LOST", 2);
	fnl.events_lost = env_uint("FAKE_NL_EVENTS_LOST", 0);
	fnl.unregister_at = env_uint("FAKE_NL_UNREGISTER_AT", 0);
	fnl.old_policy = !!getenv("FAKE_NL_OLD_POLICY");
	fnl.event_delay_us = env_uint("FAKE_NL_EVENT_US", 0);
	fnl.comm = getenv("FAKE_NL_COMM") ? : fnl.comm;
	fnl.dev = getenv("FAKE_NL_DEV") ? : fnl.dev;
	fnl.netdev = getenv("FAKE_NL_NETDEV") ? : fnl.netdev;
	fnl.self_pid = getenv("FAKE_NL_SELF") ? (uint32_t)getpid() : 0;
	fnl.newer = !!getenv("FAKE_NL_NEWER");
	fnl.no_port_group = !!getenv("FAKE_NL_NO_PORT_GROUP");
	fnl.deny_stats = !!getenv("FAKE_NL_DENY_STATS");
	mcast = getenv("FAKE_NL_MCAST");
	fnl.has_mcast = mcast &&
			sscanf(mcast, "%u,%u,%u,%u,%u", &fnl.mcast[0],
			       &fnl.mcast[1], &fnl.mcast[2], &fnl.mcast[3],
			       &fnl.mcast[4]) == 5;
	fnl.mcast0 = !!getenv("FAKE_NL_MCAST0");
}
