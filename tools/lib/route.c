// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * librdmamcm: the route to a ROUTE context's destination, as the kernel
 * resolves it for the context (rdma_resolve_addr(): a route lookup from
 * no source address): RTM_GETROUTE over rtnetlink, as "ip route get"
 * does, in the caller's network namespace. The answer's preferred source
 * (RTA_PREFSRC) and output netdev (RTA_OIF) name the context's source
 * address and so its RDMA device (device.c).
 */
#include <errno.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <netinet/in.h>
#include <poll.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>

#include "rdma_mcm_priv.h"

#define MCM_NL_BUF	4096
/* the kernel answers at once; never hang on it */
#define ROUTE_WAIT_MS	5000

struct route_req {
	struct nlmsghdr n;
	struct rtmsg r;
	uint8_t attrs[64];
};

static void add_attr(struct route_req *req, unsigned short type,
		     const void *data, size_t len)
{
	struct rtattr *rta = (void *)((uint8_t *)req +
				      NLMSG_ALIGN(req->n.nlmsg_len));

	rta->rta_type = type;
	rta->rta_len = (unsigned short)RTA_LENGTH(len);
	memcpy(RTA_DATA(rta), data, len);
	req->n.nlmsg_len = NLMSG_ALIGN(req->n.nlmsg_len) + RTA_ALIGN(rta->rta_len);
}

/* The answer's source and netdev; 0 or -errno */
static int parse_route(const struct nlmsghdr *h, int family,
		       struct sockaddr_storage *src, uint32_t *ifindex)
{
	const struct rtmsg *r = NLMSG_DATA(h);
	const struct rtattr *rta = RTM_RTA(r);
	int len, have_src = 0;
	struct sockaddr_in *sin = (struct sockaddr_in *)src;
	struct sockaddr_in6 *sin6 = (struct sockaddr_in6 *)src;

	if (h->nlmsg_len < NLMSG_LENGTH(sizeof(*r)))
		return -EBADMSG;
	len = (int)RTM_PAYLOAD(h);
	memset(src, 0, sizeof(*src));
	*ifindex = 0;
	for (; RTA_OK(rta, len); rta = RTA_NEXT(rta, len)) {
		if (rta->rta_type == RTA_OIF &&
		    RTA_PAYLOAD(rta) >= sizeof(uint32_t))
			memcpy(ifindex, RTA_DATA(rta), sizeof(*ifindex));
		if (rta->rta_type != RTA_PREFSRC)
			continue;
		if (family == AF_INET && RTA_PAYLOAD(rta) == 4) {
			sin->sin_family = AF_INET;
			memcpy(&sin->sin_addr, RTA_DATA(rta), 4);
			have_src = 1;
		} else if (family == AF_INET6 && RTA_PAYLOAD(rta) == 16) {
			sin6->sin6_family = AF_INET6;
			memcpy(&sin6->sin6_addr, RTA_DATA(rta), 16);
			have_src = 1;
		}
	}
	if (!have_src)
		return -EADDRNOTAVAIL;
	/* a link-local source is scoped to the route's netdev */
	if (family == AF_INET6 && IN6_IS_ADDR_LINKLOCAL(&sin6->sin6_addr))
		sin6->sin6_scope_id = *ifindex;
	return 0;
}

/* Milliseconds left until @end (CLOCK_MONOTONIC), 0 once it passed */
static int ms_left(const struct timespec *end)
{
	struct timespec now;
	long long ms;

	clock_gettime(CLOCK_MONOTONIC, &now);
	ms = (end->tv_sec - now.tv_sec) * 1000LL +
	     (end->tv_nsec - now.tv_nsec) / 1000000;
	return ms > 0 ? (int)ms : 0;
}

/*
 * One request, its one answer (the kernel's: mcm_nl_recv() drops another
 * port's datagrams, and one of another sequence number is not it); 0 or
 * -errno
 */
static int ask(const struct mcm_nl_io *io, void *priv, int fd,
	       struct route_req *req, int family,
	       struct sockaddr_storage *src, uint32_t *ifindex)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	struct timespec end;
	uint8_t buf[MCM_NL_BUF];
	struct nlmsghdr *h;
	ssize_t n;
	int len, err;

	if (mcm_nl_send(io, priv, fd, req, req->n.nlmsg_len))
		return -errno;
	clock_gettime(CLOCK_MONOTONIC, &end);
	end.tv_sec += ROUTE_WAIT_MS / 1000;
	for (;;) {
		n = poll(&p, 1, ms_left(&end));
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (!n)
			return -ETIMEDOUT;
		n = mcm_nl_recv(io, priv, fd, buf, sizeof(buf), MSG_DONTWAIT);
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
			continue;
		if (n < 0)
			return -errno;
		len = (int)n;
		for (h = (void *)buf; NLMSG_OK(h, (unsigned int)len);
		     h = NLMSG_NEXT(h, len)) {
			if (h->nlmsg_seq != req->n.nlmsg_seq)
				continue;
			if (h->nlmsg_type == NLMSG_ERROR) {
				int32_t e;

				if (h->nlmsg_len < NLMSG_LENGTH(sizeof(e)))
					return -EBADMSG;
				memcpy(&e, NLMSG_DATA(h), sizeof(e));
				err = mcm_nl_errno(e);
				if (err < 0)
					return -EBADMSG;
				return err ? -err : -EPROTO;
			}
			if (h->nlmsg_type == RTM_NEWROUTE)
				return parse_route(h, family, src, ifindex);
			if (h->nlmsg_type == NLMSG_DONE)
				return -EPROTO;
		}
		if (len > 0)
			return -EBADMSG;	/* runs past the datagram */
	}
}

/* A sequence number another process cannot guess from the last one's */
static uint32_t next_seq(void)
{
	static uint32_t seq;
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return __atomic_add_fetch(&seq, 1, __ATOMIC_RELAXED) ^
	       (uint32_t)t.tv_nsec ^ ((uint32_t)t.tv_sec << 20);
}

int mcm_route_lookup(const struct sockaddr *dst, struct sockaddr_storage *src,
		     uint32_t *ifindex)
{
	const struct sockaddr_in6 *sin6 = (const void *)dst;
	const struct mcm_nl_io *io = mcm_nl_io;
	void *priv = mcm_nl_io_priv;
	struct route_req req;
	int fd, ret;

	memset(&req, 0, sizeof(req));
	req.n.nlmsg_len = NLMSG_LENGTH(sizeof(struct rtmsg));
	req.n.nlmsg_type = RTM_GETROUTE;
	req.n.nlmsg_flags = NLM_F_REQUEST;
	req.n.nlmsg_seq = next_seq();
	req.r.rtm_family = (unsigned char)dst->sa_family;
	switch (dst->sa_family) {
	case AF_INET:
		req.r.rtm_dst_len = 32;
		add_attr(&req, RTA_DST,
			 &((const struct sockaddr_in *)(const void *)dst)->sin_addr, 4);
		break;
	case AF_INET6:
		req.r.rtm_dst_len = 128;
		add_attr(&req, RTA_DST, &sin6->sin6_addr, 16);
		/* a scoped group: the route out of its netdev */
		if (sin6->sin6_scope_id)
			add_attr(&req, RTA_OIF, &sin6->sin6_scope_id,
				 sizeof(sin6->sin6_scope_id));
		break;
	default:
		return -EAFNOSUPPORT;	/* AF_IB has no routing table */
	}
	fd = io->socket(priv, NETLINK_ROUTE, -1);
	if (fd < 0)
		return -errno;
	ret = ask(io, priv, fd, &req, dst->sa_family, src, ifindex);
	io->close(priv, fd);
	return ret;
}
