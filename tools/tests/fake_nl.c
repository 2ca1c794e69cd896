// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * A fake generic netlink kernel for librdmamcm's netlink.c: the
 * controller resolves "rdma_mcm" and its "events" group; the family
 * answers MEMBER_GET and CTX_GET dumps (built lazily, one datagram per
 * recv, so 100,000 memberships cost no memory), STATS_GET, and sends a
 * scripted series of events to a socket that joins "events", with an
 * ENOBUFS in the middle if asked. Every canned message carries an
 * attribute of a type the library does not know and a padding attribute.
 *
 * A socket is an eventfd, readable while the socket has something to
 * receive, so that poll(2) works on it.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <netinet/in.h>
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

/* A datagram queued on a socket */
struct dgram {
	struct dgram *next;
	size_t len;
	uint8_t data[];
};

struct fnl_sock {
	int used;
	int fd;				/* eventfd */
	int readable;			/* the eventfd's count is 1 */
	int group;			/* joined "events" */
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

static int has_input(const struct fnl_sock *s)
{
	return s->head || s->dump || s->enobufs ||
	       (s->group && s->ev_next < fnl.events);
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

static void queue(struct fnl_sock *s, const struct nlb *b)
{
	struct dgram *d;

	if (!b->len)
		return;
	d = malloc(sizeof(*d) + b->len);
	if (!d)
		abort();
	d->next = NULL;
	d->len = b->len;
	memcpy(d->data, b->buf, b->len);
	if (s->tail)
		s->tail->next = d;
	else
		s->head = d;
	s->tail = d;
}

static int f_socket(void *priv)
{
	int i;

	(void)priv;
	for (i = 0; i < FNL_SOCKETS; i++) {
		struct fnl_sock *s = &socks[i];

		if (s->used)
			continue;
		memset(s, 0, sizeof(*s));
		s->fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
		if (s->fd < 0)
			return -1;
		s->used = 1;
		fnl.sockets++;
		fnl.opened++;
		return s->fd;
	}
	errno = EMFILE;
	return -1;
}

static void f_close(void *priv, int fd)
{
	struct fnl_sock *s = sock_of(fd);
	struct dgram *d;

	(void)priv;
	if (!s)
		abort();
	while ((d = s->head)) {
		s->head = d->next;
		free(d);
	}
	close(s->fd);
	s->used = 0;
	fnl.sockets--;
}

static int f_join_group(void *priv, int fd, uint32_t group)
{
	struct fnl_sock *s = sock_of(fd);

	(void)priv;
	if (!s)
		abort();
	if (group != FNL_MCGRP) {
		errno = EINVAL;
		return -1;
	}
	if (fnl.deny_monitor) {
		errno = EPERM;
		return -1;
	}
	s->group = 1;
	sync_fd(s);
	return 0;
}

static void reply_family(struct fnl_sock *s, const struct nlmsghdr *nlh)
{
	uint8_t buf[512];
	struct nlb b;
	size_t hdr = NLMSG_LENGTH(GENL_HDRLEN);
	const struct nlattr *a = (const void *)((const uint8_t *)nlh + hdr);

	nlb_init(&b, buf, sizeof(buf));
	if (nlh->nlmsg_len < hdr + NLA_HDRLEN ||
	    a->nla_type != CTRL_ATTR_FAMILY_NAME ||
	    strcmp((const char *)(a + 1), RDMA_MCM_GENL_NAME) || fnl.absent) {
		nlb_error(&b, nlh->nlmsg_seq, -ENOENT);
		queue(s, &b);
		return;
	}
	nlb_msg(&b, GENL_ID_CTRL, 0, nlh->nlmsg_seq, CTRL_CMD_NEWFAMILY);
	nlb_str(&b, CTRL_ATTR_FAMILY_NAME, RDMA_MCM_GENL_NAME);
	nlb_u16(&b, CTRL_ATTR_FAMILY_ID, FNL_FAMILY);
	nlb_u32(&b, CTRL_ATTR_VERSION, RDMA_MCM_GENL_VERSION);
	nlb_nest(&b, CTRL_ATTR_MCAST_GROUPS);
	nlb_nest(&b, 1);
	nlb_str(&b, CTRL_ATTR_MCAST_GRP_NAME, "other");
	nlb_u32(&b, CTRL_ATTR_MCAST_GRP_ID, FNL_MCGRP + 1);
	nlb_nest_end(&b);
	nlb_nest(&b, 2);
	nlb_str(&b, CTRL_ATTR_MCAST_GRP_NAME, RDMA_MCM_GENL_MCGRP_EVENTS);
	nlb_u32(&b, CTRL_ATTR_MCAST_GRP_ID, FNL_MCGRP);
	nlb_nest_end(&b);
	nlb_nest_end(&b);
	nlb_end(&b);
	queue(s, &b);
}

/* The family's request: strict, as the kernel is */
static void request(struct fnl_sock *s, const struct nlmsghdr *nlh)
{
	const struct genlmsghdr *g = NLMSG_DATA(nlh);
	size_t hdr = NLMSG_LENGTH(GENL_HDRLEN);
	const uint8_t *p = (const uint8_t *)nlh + hdr;
	size_t left = nlh->nlmsg_len - hdr;
	uint32_t filter = 0;
	uint8_t buf[4096];
	struct nlb b;

	nlb_init(&b, buf, sizeof(buf));
	while (left >= NLA_HDRLEN) {
		const struct nlattr *a = (const void *)p;

		if (a->nla_type != RDMA_MCM_A_CTX_ID || a->nla_len != 8 ||
		    g->cmd != RDMA_MCM_CMD_MEMBER_GET) {
			nlb_error(&b, nlh->nlmsg_seq, -EINVAL);
			queue(s, &b);
			return;
		}
		memcpy(&filter, a + 1, 4);
		p += NLA_ALIGN(8);
		left -= left < NLA_ALIGN(8) ? left : NLA_ALIGN(8);
	}
	switch (g->cmd) {
	case RDMA_MCM_CMD_MEMBER_GET:
	case RDMA_MCM_CMD_CTX_GET:
		if (!(nlh->nlmsg_flags & NLM_F_DUMP))
			break;
		s->dump = g->cmd == RDMA_MCM_CMD_MEMBER_GET ? DUMP_MEMBERS :
							      DUMP_CONTEXTS;
		s->next = 0;
		s->dump_seq = nlh->nlmsg_seq;
		s->filter_ctx = filter;
		return;
	case RDMA_MCM_CMD_STATS_GET:
		nlb_msg(&b, FNL_FAMILY, 0, nlh->nlmsg_seq,
			RDMA_MCM_CMD_STATS_GET);
		fnl_put_stats(&b);
		if (nlb_end(&b))
			queue(s, &b);
		return;
	}
	nlb_error(&b, nlh->nlmsg_seq, -EOPNOTSUPP);
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
	if (len < NLMSG_LENGTH(GENL_HDRLEN) || nlh->nlmsg_len != len ||
	    !(nlh->nlmsg_flags & NLM_F_REQUEST)) {
		errno = EINVAL;
		return -1;
	}
	if (nlh->nlmsg_type == GENL_ID_CTRL) {
		reply_family(s, nlh);
	} else if (nlh->nlmsg_type == FNL_FAMILY && !fnl.absent) {
		request(s, nlh);
	} else {
		uint8_t b0[64];
		struct nlb b;

		nlb_init(&b, b0, sizeof(b0));
		nlb_error(&b, nlh->nlmsg_seq, -ENOENT);
		queue(s, &b);
	}
	sync_fd(s);
	return (ssize_t)len;
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
		if (nlb_msg(b, FNL_FAMILY, NLM_F_MULTI, s->dump_seq, cmd))
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
		nlb_done(b, s->dump_seq);
		s->dump = DUMP_NONE;
	}
}

static ssize_t f_recv(void *priv, int fd, void *buf, size_t len, int flags)
{
	static uint8_t dg[32768];
	struct fnl_sock *s = sock_of(fd);
	struct dgram *d;
	struct nlb b;
	size_t n;

	(void)priv;
	if (!s)
		abort();
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
	d = s->head;
	if (d) {
		s->head = d->next;
		if (!s->head)
			s->tail = NULL;
		n = d->len < len ? d->len : len;
		memcpy(buf, d->data, n);
		n = flags & MSG_TRUNC ? d->len : n;
		free(d);
		sync_fd(s);
		return (ssize_t)n;
	}
	if (s->dump) {
		dump_next(s, &b);
	} else if (s->group && s->ev_next < fnl.events) {
		if (fnl.enobufs_at && s->ev_next == fnl.enobufs_at) {
			/* the socket overflowed: events lost meanwhile */
			s->ev_next += fnl.lost;
			fnl.events_lost += fnl.lost;
			fnl.enobufs_at = 0;
			s->enobufs = 0;
			sync_fd(s);
			errno = ENOBUFS;
			return -1;
		}
		nlb_msg(&b, FNL_FAMILY, 0, 0, RDMA_MCM_CMD_EVENT);
		fnl_put_event(&b, s->ev_next++);
		nlb_end(&b);
	} else {
		errno = EAGAIN;
		return -1;
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
	fnl.comm = "rdma-mcm";
	fnl.dev = "rxe0";
	fnl.netdev = "veth0";
	mcm_nl_io = &fake_nl_io;
	mcm_nl_io_priv = NULL;
}

static unsigned int env_uint(const char *name, unsigned int def)
{
	const char *v = getenv(name);

	return v ? (unsigned int)strtoul(v, NULL, 10) : def;
}

void fake_nl_env(void)
{
	fake_nl_install();
	fnl.absent = !!getenv("FAKE_NL_ABSENT");
	fnl.deny_monitor = !!getenv("FAKE_NL_DENY");
	fnl.members = env_uint("FAKE_NL_MEMBERS", 6);
	fnl.contexts = env_uint("FAKE_NL_CONTEXTS", (fnl.members + 1) / 2);
	fnl.events = env_uint("FAKE_NL_EVENTS", 5);
	fnl.enobufs_at = env_uint("FAKE_NL_ENOBUFS_AT", 0);
	fnl.lost = env_uint("FAKE_NL_LOST", 2);
	fnl.events_lost = env_uint("FAKE_NL_EVENTS_LOST", 0);
	fnl.comm = getenv("FAKE_NL_COMM") ? : fnl.comm;
	fnl.dev = getenv("FAKE_NL_DEV") ? : fnl.dev;
	fnl.netdev = getenv("FAKE_NL_NETDEV") ? : fnl.netdev;
	fnl.self_pid = getenv("FAKE_NL_SELF") ? (uint32_t)getpid() : 0;
	fnl.newer = !!getenv("FAKE_NL_NEWER");
	fnl.no_port_group = !!getenv("FAKE_NL_NO_PORT_GROUP");
}
