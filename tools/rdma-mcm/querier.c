// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * rdma-mcm: the IGMP and MLD queries heard on a netdev, through raw
 * sockets (querier.h says why and how to use them).
 *
 * What makes a message a query of a version is the RFCs' rule, which the
 * kernel follows (igmp_heard_query(), __mld_query_work()): an IGMP query
 * of 8 bytes is IGMPv1 with a zero code, else IGMPv2; one of 12 bytes or
 * more IGMPv3 (RFC 3376 7.1); an MLD query of 24 bytes MLDv1, of 28 or
 * more MLDv2 (RFC 3810 8.1); other lengths are not queries.
 *
 * An IGMP socket gets every IGMP message (the reports of every host on the
 * link, too): a socket filter keeps the queries only, so that a program
 * that polls it wakes for a query and nothing else. An MLD socket has
 * ICMPv6's type filter for that.
 */
#include <errno.h>
#include <linux/filter.h>
#include <net/if.h>
#include <netinet/icmp6.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "querier.h"

#define IGMP_QUERY		0x11
#define MLD_QUERY		130
#define IGMP_V3_QUERY_LEN	12
#define MLD_V1_QUERY_LEN	24
#define MLD_V2_QUERY_LEN	28
/* The largest message read: what an Ethernet jumbo frame carries */
#define QUERIER_BUF		9216

struct mcm_querier {
	int fd;
	int family;
	uint8_t buf[QUERIER_BUF];
};

uint32_t mcm_igmp_code_value(uint8_t code)
{
	if (code < 128)
		return code;
	return (uint32_t)((code & 0x0f) | 0x10) << (((code >> 4) & 0x07) + 3);
}

uint32_t mcm_mld_mrc_value(uint16_t mrc)
{
	if (mrc < 32768)
		return mrc;
	return (uint32_t)((mrc & 0x0fff) | 0x1000) << (((mrc >> 12) & 0x07) + 3);
}

static uint16_t get16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

/* The Internet checksum of @len bytes is right: they sum to 0xffff */
static int csum_ok(const uint8_t *p, size_t len)
{
	uint32_t sum = 0;
	size_t i;

	for (i = 0; i + 1 < len; i += 2)
		sum += get16(p + i);
	if (len & 1)
		sum += (uint32_t)p[len - 1] << 8;
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return sum == 0xffff;
}

int mcm_query_parse_igmp(const void *pkt, size_t len, struct mcm_query *q)
{
	const uint8_t *ip = pkt, *m;
	size_t hl, tot;

	if (len < 20 || ip[0] >> 4 != 4 || ip[9] != IPPROTO_IGMP)
		return -1;
	hl = (size_t)(ip[0] & 0x0f) * 4;
	tot = get16(ip + 2);
	if (hl < 20 || tot < hl || tot > len)
		return -1;
	m = ip + hl;
	len = tot - hl;
	if (len < 8 || !csum_ok(m, len))
		return -1;
	if (m[0] != IGMP_QUERY)
		return 0;
	if (len != 8 && len < IGMP_V3_QUERY_LEN)
		return -1;
	memset(q, 0, sizeof(*q));
	q->family = AF_INET;
	memcpy(q->src, ip + 12, 4);
	memcpy(q->group, m + 4, 4);
	if (len == 8) {
		/* IGMPv1 has no code: its hosts answer within 10 s */
		q->version = m[1] ? 2 : 1;
		q->max_resp_ms = m[1] ? 100U * m[1] : 10000;
		return 1;
	}
	q->version = 3;
	q->nsrcs = get16(m + 10);
	if (IGMP_V3_QUERY_LEN + 4 * (size_t)q->nsrcs > len)
		return -1;
	q->max_resp_ms = 100 * mcm_igmp_code_value(m[1]);
	q->s_flag = (m[8] >> 3) & 1;
	q->qrv = m[8] & 0x07;
	q->qqi_s = mcm_igmp_code_value(m[9]);
	/* igmp_heard_query(): "no sources allowed" in a general query */
	if (!get16(m + 4) && !get16(m + 6) && q->nsrcs)
		q->ignored = "a general query with sources";
	return 1;
}

static const uint8_t zero16[16];

int mcm_query_parse_mld(const void *msg, size_t len, const uint8_t *src,
			int hops, int ra, struct mcm_query *q)
{
	const uint8_t *m = msg;

	if (len < 4 || m[0] != MLD_QUERY)
		return 0;
	if (len != MLD_V1_QUERY_LEN && len < MLD_V2_QUERY_LEN)
		return -1;
	memset(q, 0, sizeof(*q));
	q->family = AF_INET6;
	memcpy(q->src, src, 16);
	memcpy(q->group, m + 8, 16);
	if (len == MLD_V1_QUERY_LEN) {
		q->version = 1;
		q->max_resp_ms = get16(m + 4);
	} else {
		q->version = 2;
		q->nsrcs = get16(m + 26);
		if (MLD_V2_QUERY_LEN + 16 * (size_t)q->nsrcs > len)
			return -1;
		q->max_resp_ms = mcm_mld_mrc_value(get16(m + 4));
		q->s_flag = (m[24] >> 3) & 1;
		q->qrv = m[24] & 0x07;
		q->qqi_s = mcm_igmp_code_value(m[25]);
	}
	/* RFC 3810 6.2, as __mld_query_work() checks it */
	if (src[0] != 0xfe || (src[1] & 0xc0) != 0x80)
		q->ignored = "its source is not link-local";
	else if (hops >= 0 && hops != 1)
		q->ignored = "its hop limit is not 1";
	else if (!ra)
		q->ignored = "it has no MLD Router Alert";
	else if (q->group[0] != 0xff && memcmp(q->group, zero16, 16))
		q->ignored = "its group is not multicast";
	return 1;
}

const char *mcm_query_name(const struct mcm_query *q)
{
	static const char *const igmp[] = { "igmp", "igmpv1", "igmpv2",
					    "igmpv3" };
	static const char *const mld[] = { "mld", "mldv1", "mldv2" };

	if (q->family == AF_INET)
		return igmp[q->version >= 1 && q->version <= 3 ? q->version : 0];
	return mld[q->version >= 1 && q->version <= 2 ? q->version : 0];
}

/*
 * The IGMP socket's filter: a query (type 0x11 at the start of the IGMP
 * message, past the IP header and its options) passes whole, anything
 * else is dropped
 */
static int igmp_filter(int fd)
{
	static struct sock_filter code[] = {
		BPF_STMT(BPF_LDX | BPF_B | BPF_MSH, 0),	/* x = IP header length */
		BPF_STMT(BPF_LD | BPF_B | BPF_IND, 0),	/* a = IGMP type */
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, IGMP_QUERY, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, 0xffff),
		BPF_STMT(BPF_RET | BPF_K, 0),
	};
	struct sock_fprog prog = {
		.len = sizeof(code) / sizeof(code[0]), .filter = code,
	};

	return setsockopt(fd, SOL_SOCKET, SO_ATTACH_FILTER, &prog,
			  sizeof(prog));
}

struct mcm_querier *mcm_querier_open(const char *ifname, int family)
{
	struct icmp6_filter filter;
	struct mcm_querier *qr;
	int on = 1, err;

	if (!if_nametoindex(ifname)) {
		errno = ENODEV;
		return NULL;
	}
	qr = calloc(1, sizeof(*qr));
	if (!qr)
		return NULL;
	qr->family = family;
	qr->fd = socket(family, SOCK_RAW | SOCK_NONBLOCK | SOCK_CLOEXEC,
			family == AF_INET ? IPPROTO_IGMP : IPPROTO_ICMPV6);
	if (qr->fd < 0)
		goto fail;
	if (setsockopt(qr->fd, SOL_SOCKET, SO_BINDTODEVICE, ifname,
		       (socklen_t)strlen(ifname) + 1))
		goto fail;
	if (family == AF_INET && igmp_filter(qr->fd))
		goto fail;
	if (family == AF_INET6) {
		ICMP6_FILTER_SETBLOCKALL(&filter);
		ICMP6_FILTER_SETPASS(MLD_QUERY, &filter);
		if (setsockopt(qr->fd, IPPROTO_ICMPV6, ICMP6_FILTER, &filter,
			       sizeof(filter)) ||
		    setsockopt(qr->fd, IPPROTO_IPV6, IPV6_RECVHOPLIMIT, &on,
			       sizeof(on)) ||
		    setsockopt(qr->fd, IPPROTO_IPV6, IPV6_RECVHOPOPTS, &on,
			       sizeof(on)))
			goto fail;
	}
	return qr;
fail:
	err = errno;
	mcm_querier_close(qr);
	errno = err;
	return NULL;
}

int mcm_querier_fd(const struct mcm_querier *qr)
{
	return qr->fd;
}

/* The hop limit a message came with (IPV6_HOPLIMIT), or -1 */
static int hop_limit(struct msghdr *mh)
{
	struct cmsghdr *c;
	int hops;

	for (c = CMSG_FIRSTHDR(mh); c; c = CMSG_NXTHDR(mh, c))
		if (c->cmsg_level == IPPROTO_IPV6 &&
		    c->cmsg_type == IPV6_HOPLIMIT &&
		    c->cmsg_len >= CMSG_LEN(sizeof(hops))) {
			memcpy(&hops, CMSG_DATA(c), sizeof(hops));
			return hops;
		}
	return -1;
}

/*
 * Whether a message came with MLD's Router Alert: a hop-by-hop header
 * (IPV6_HOPOPTS) with a Router Alert option (type 5, 2 bytes) of value 0
 * (RFC 2711, RFC 3810 5). 1, or 0.
 */
static int mld_router_alert(struct msghdr *mh)
{
	const uint8_t *h;
	struct cmsghdr *c;
	size_t len, i;

	for (c = CMSG_FIRSTHDR(mh); c; c = CMSG_NXTHDR(mh, c)) {
		if (c->cmsg_level != IPPROTO_IPV6 ||
		    c->cmsg_type != IPV6_HOPOPTS ||
		    c->cmsg_len < CMSG_LEN(2))
			continue;
		h = CMSG_DATA(c);
		len = c->cmsg_len - CMSG_LEN(0);
		if ((size_t)(h[1] + 1) * 8 < len)
			len = (size_t)(h[1] + 1) * 8;
		/* the options, past next header and length */
		for (i = 2; i < len;) {
			if (h[i] == 0) {		/* Pad1 */
				i++;
				continue;
			}
			if (i + 1 >= len || i + 2 + h[i + 1] > len)
				break;
			if (h[i] == 5 && h[i + 1] == 2)
				return !h[i + 2] && !h[i + 3];
			i += 2 + (size_t)h[i + 1];
		}
	}
	return 0;
}

int mcm_querier_read(struct mcm_querier *qr, struct mcm_query *q)
{
	union {
		struct cmsghdr align;
		/* the hop limit, and a hop-by-hop header (at most 2 KiB) */
		char buf[CMSG_SPACE(sizeof(int)) + CMSG_SPACE(2048)];
	} control;
	struct sockaddr_in6 from;
	struct iovec iov = { qr->buf, sizeof(qr->buf) };
	struct msghdr mh = {
		.msg_name = &from, .msg_namelen = sizeof(from),
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = control.buf,
		.msg_controllen = sizeof(control.buf),
	};
	ssize_t n;

	n = recvmsg(qr->fd, &mh, MSG_DONTWAIT);
	if (n < 0)
		return -1;
	if (mh.msg_flags & MSG_TRUNC)
		return 0;
	if (qr->family == AF_INET)
		return mcm_query_parse_igmp(qr->buf, (size_t)n, q) == 1;
	if (mh.msg_namelen < sizeof(from) || from.sin6_family != AF_INET6)
		return 0;
	return mcm_query_parse_mld(qr->buf, (size_t)n,
				   from.sin6_addr.s6_addr, hop_limit(&mh),
				   mh.msg_flags & MSG_CTRUNC ? -1 :
				   mld_router_alert(&mh), q) == 1;
}

void mcm_querier_close(struct mcm_querier *qr)
{
	if (!qr)
		return;
	if (qr->fd >= 0)
		close(qr->fd);
	free(qr);
}
