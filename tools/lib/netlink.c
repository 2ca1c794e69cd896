// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * librdmamcm: the generic netlink family "rdma_mcm" (uapi
 * <rdma/rdma_mcm_netlink.h>) on raw AF_NETLINK sockets, without libnl:
 * the family and its "events" group resolved through the controller,
 * dumps streamed to a callback one message at a time, the "events" group
 * read from a second socket so that a dump never meets an event. That
 * socket also listens to the controller's "notify" group, whose
 * CTRL_CMD_DELFAMILY says the module was unloaded: the kernel then drops
 * every listener of the family's groups, silently.
 *
 * The messages are parsed in nl_parse.c; route.c shares the socket
 * helpers (mcm_nl_send(), mcm_nl_recv()).
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "rdma_mcm_priv.h"

#ifndef SOL_NETLINK
#define SOL_NETLINK	270
#endif

/* The kernel's text of an error, and the attribute it names */
#define ERR_TEXT	160

struct rdma_mcm_nl {
	int fd;				/* requests and their replies */
	int mon_fd;			/* the "events" group, or -1 */
	uint16_t family;		/* the id requests go to */
	uint32_t mcgrp;			/* "events" group id, 0: none */
	uint16_t mon_family;		/* the id whose "events" mon_fd joined */
	int mon_gone;			/* that family went away */
	int stale;			/* family may be stale: resolve first */
	int busy;			/* a dump's callback runs */
	unsigned long delivered;	/* replies given to a callback */
	uint32_t seq;
	const struct mcm_nl_io *io;
	void *io_priv;
	uint8_t *buf;			/* MCM_GENL_BUF bytes */
	size_t ev_pos, ev_len;		/* events received, not yet read */
	uint8_t *ev_buf;		/* MCM_GENL_BUF bytes, once monitoring */
	struct mcm_nl_srcs srcs;	/* the sources of a dump's member */
	struct mcm_nl_srcs ev_srcs;	/* those of the last event */
	char err_text[ERR_TEXT];	/* rdma_mcm_nl_last_error() */
};

/* --- the real sockets --------------------------------------------------- */

static int sock_socket(void *priv, int protocol, int at)
{
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK };
	int fd, err, one = 1, rcvbuf = 1 << 20;

	(void)priv;
	fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, protocol);
	if (fd < 0)
		return -1;
	if (bind(fd, (struct sockaddr *)&sa, sizeof(sa)))
		goto fail;
	/* best effort: room for bursts of events; the error's text, alone */
	setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &rcvbuf, sizeof(rcvbuf));
	setsockopt(fd, SOL_NETLINK, NETLINK_EXT_ACK, &one, sizeof(one));
	setsockopt(fd, SOL_NETLINK, NETLINK_CAP_ACK, &one, sizeof(one));
	if (at < 0)
		return fd;
	/* the caller's number, which may sit in an epoll set: kept */
	if (dup3(fd, at, O_CLOEXEC) < 0)
		goto fail;
	close(fd);
	return at;
fail:
	err = errno;
	close(fd);
	errno = err;
	return -1;
}

static ssize_t sock_send(void *priv, int fd, const void *buf, size_t len)
{
	struct sockaddr_nl to = { .nl_family = AF_NETLINK };

	(void)priv;
	return sendto(fd, buf, len, 0, (struct sockaddr *)&to, sizeof(to));
}

static ssize_t sock_recv(void *priv, int fd, void *buf, size_t len,
			 int flags, uint32_t *port)
{
	struct sockaddr_nl from = { .nl_family = AF_NETLINK };
	socklen_t fromlen = sizeof(from);
	ssize_t n;

	(void)priv;
	n = recvfrom(fd, buf, len, flags, (struct sockaddr *)&from, &fromlen);
	*port = from.nl_pid;
	return n;
}

static int sock_join_group(void *priv, int fd, uint32_t group)
{
	int one = 1, rcvbuf = 4 << 20;

	(void)priv;
	if (setsockopt(fd, SOL_NETLINK, NETLINK_ADD_MEMBERSHIP, &group,
		       sizeof(group)))
		return -1;
	/*
	 * A full socket makes the kernel's send fail, so that it counts the
	 * event in events_lost; and room beyond rmem_max where allowed
	 * (SO_RCVBUFFORCE needs CAP_NET_ADMIN in the initial user namespace;
	 * in another, the group's CAP_NET_ADMIN is not enough and the socket
	 * keeps SO_RCVBUF's room, bounded by rmem_max).
	 */
	setsockopt(fd, SOL_NETLINK, NETLINK_BROADCAST_ERROR, &one, sizeof(one));
	setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &rcvbuf, sizeof(rcvbuf));
	return 0;
}

static void sock_close(void *priv, int fd)
{
	(void)priv;
	close(fd);
}

const struct mcm_nl_io mcm_nl_sock_io = {
	.socket = sock_socket,
	.send = sock_send,
	.recv = sock_recv,
	.join_group = sock_join_group,
	.close = sock_close,
};

const struct mcm_nl_io *mcm_nl_io = &mcm_nl_sock_io;
void *mcm_nl_io_priv;

/* --- the helpers route.c shares ------------------------------------------ */

int mcm_nl_send(const struct mcm_nl_io *io, void *priv, int fd,
		const void *buf, size_t len)
{
	ssize_t n;

	do
		n = io->send(priv, fd, buf, len);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return -1;
	if ((size_t)n != len) {
		errno = EIO;
		return -1;
	}
	return 0;
}

/* Only the kernel's messages: another process may send to our port */
ssize_t mcm_nl_recv(const struct mcm_nl_io *io, void *priv, int fd,
		    void *buf, size_t cap, int flags)
{
	uint32_t port;
	ssize_t n;

	for (;;) {
		port = 0;
		n = io->recv(priv, fd, buf, cap, flags | MSG_TRUNC, &port);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		if (port)
			continue;	/* another port's, received and dropped */
		if ((size_t)n > cap) {
			errno = EMSGSIZE;
			return -1;
		}
		return n;
	}
}

int mcm_nl_errno(int32_t error)
{
	return error > 0 || error < -4095 ? -1 : -error;
}

static int bad(void)
{
	errno = EBADMSG;
	return -1;
}

/* --- requests and replies ------------------------------------------------ */

struct request {
	struct nlmsghdr nlh;
	struct genlmsghdr genl;
	uint8_t attrs[64];
};

static void req_init(struct request *r, uint16_t type, uint8_t cmd,
		     uint16_t flags)
{
	memset(r, 0, sizeof(*r));
	r->nlh.nlmsg_len = NLMSG_LENGTH(GENL_HDRLEN);
	r->nlh.nlmsg_type = type;
	r->nlh.nlmsg_flags = NLM_F_REQUEST | flags;
	r->genl.cmd = cmd;
	r->genl.version = type == GENL_ID_CTRL ? 1 : RDMA_MCM_GENL_VERSION;
}

static void req_put(struct request *r, uint16_t type, const void *data,
		    size_t len)
{
	struct nlattr *a = (void *)((uint8_t *)r + NLMSG_ALIGN(r->nlh.nlmsg_len));

	a->nla_type = type;
	a->nla_len = (uint16_t)(NLA_HDRLEN + len);
	memcpy((uint8_t *)a + NLA_HDRLEN, data, len);
	r->nlh.nlmsg_len = NLMSG_ALIGN(r->nlh.nlmsg_len) + NLA_ALIGN(a->nla_len);
}

/* @r with the next sequence number, on the request socket */
static int req_send(struct rdma_mcm_nl *nl, struct request *r)
{
	r->nlh.nlmsg_seq = ++nl->seq;
	return mcm_nl_send(nl->io, nl->io_priv, nl->fd, r, r->nlh.nlmsg_len);
}

/* The bytes before the attributes of an NLMSG_ERROR's payload */
static int error_hlen(const struct nlmsghdr *nlh, size_t *hlen)
{
	const struct nlmsgerr *e = NLMSG_DATA(nlh);

	*hlen = sizeof(*e);
	if (nlh->nlmsg_flags & NLM_F_CAPPED)
		return 0;
	/* not capped: the request follows its header (a kernel before 4.3) */
	if (e->msg.nlmsg_len < NLMSG_HDRLEN ||
	    NLMSG_LENGTH(*hlen) + e->msg.nlmsg_len - NLMSG_HDRLEN >
	    nlh->nlmsg_len)
		return bad();
	*hlen += e->msg.nlmsg_len - NLMSG_HDRLEN;
	return 0;
}

/*
 * The extended ACK of an error (NLMSG_ERROR or NLMSG_DONE) to @r into
 * nl->err_text: the kernel's message and the type of the request's
 * attribute it names, if any
 */
static int ext_ack(struct rdma_mcm_nl *nl, const struct nlmsghdr *nlh,
		   const struct request *r)
{
	size_t n, hlen = sizeof(int32_t);
	char msg[ERR_TEXT];
	const struct nlattr *a;
	uint32_t offs;

	if (!(nlh->nlmsg_flags & NLM_F_ACK_TLVS))
		return 0;
	if ((nlh->nlmsg_type == NLMSG_ERROR && error_hlen(nlh, &hlen)) ||
	    mcm_nl_parse_extack(nlh, hlen, msg, sizeof(msg), &offs))
		return -1;
	n = (size_t)snprintf(nl->err_text, sizeof(nl->err_text), "%s", msg);
	/* the attribute's offset in the request, from its nlmsghdr */
	if (offs < UINT32_MAX && offs >= NLMSG_LENGTH(GENL_HDRLEN) &&
	    offs + NLA_HDRLEN <= r->nlh.nlmsg_len && n < sizeof(nl->err_text)) {
		a = (const void *)((const uint8_t *)r + offs);
		snprintf(nl->err_text + n, sizeof(nl->err_text) - n,
			 "%sattribute %u%s", n ? " (" : "",
			 a->nla_type & NLA_TYPE_MASK, n ? ")" : "");
	}
	return 0;
}

/*
 * An NLMSG_ERROR or NLMSG_DONE, which ends @r's replies: 0, or -1/errno
 * (the kernel's, or EBADMSG for an error no kernel sends)
 */
static int reply_end(struct rdma_mcm_nl *nl, const struct nlmsghdr *nlh,
		     const struct request *r)
{
	int32_t error = 0;
	int err;

	if (nlh->nlmsg_type == NLMSG_ERROR &&
	    nlh->nlmsg_len < NLMSG_LENGTH(sizeof(struct nlmsgerr)))
		return bad();
	if (nlh->nlmsg_len >= NLMSG_LENGTH(sizeof(error)))
		memcpy(&error, NLMSG_DATA(nlh), sizeof(error));
	err = mcm_nl_errno(error);
	if (err < 0)
		return bad();
	if (!err)
		return 0;
	if (ext_ack(nl, nlh, r))
		return -1;
	errno = err;
	return -1;
}

typedef int (*reply_fn)(const struct nlmsghdr *nlh, void *arg);

/*
 * The replies to request @r on nl->fd: @fn for each message of type
 * @type. Returns 0 at NLMSG_DONE, an ack, or after a reply that is not
 * part of a dump; fn's positive value when it stopped; -1/errno (an
 * error the kernel sent, or fn's -1).
 */
static int replies(struct rdma_mcm_nl *nl, const struct request *r,
		   uint16_t type, reply_fn fn, void *arg)
{
	for (;;) {
		ssize_t n = mcm_nl_recv(nl->io, nl->io_priv, nl->fd, nl->buf,
					MCM_GENL_BUF, 0);
		const struct nlmsghdr *nlh = (const void *)nl->buf;
		int ret, left, end = 0;

		if (n < 0)
			return -1;
		if (!n) {
			errno = EIO;
			return -1;
		}
		left = (int)n;
		for (; NLMSG_OK(nlh, left); nlh = NLMSG_NEXT(nlh, left)) {
			if (nlh->nlmsg_seq != r->nlh.nlmsg_seq)
				continue;	/* an answer to an older request */
			if (nlh->nlmsg_type == NLMSG_ERROR ||
			    nlh->nlmsg_type == NLMSG_DONE)
				return reply_end(nl, nlh, r);
			if (nlh->nlmsg_type != type)
				continue;	/* NOOP, OVERRUN, others */
			if (nlh->nlmsg_len < NLMSG_LENGTH(GENL_HDRLEN))
				return bad();
			nl->delivered++;
			ret = fn(nlh, arg);
			if (ret)
				return ret;
			if (!(nlh->nlmsg_flags & NLM_F_MULTI))
				end = 1;
		}
		if (left > 0) {
			/* a message longer than what is left of the datagram */
			return bad();
		}
		if (end)
			return 0;
	}
}

/*
 * A dump or a request stopped before its end: the kernel's remaining
 * replies would meet the next request. A fresh socket drops them (and
 * ends the kernel's dump) without reading them; it takes the old one's
 * descriptor, which the caller may have saved (rdma_mcm_nl_get_fd()).
 */
static int reopen(struct rdma_mcm_nl *nl)
{
	return nl->io->socket(nl->io_priv, NETLINK_GENERIC, nl->fd) < 0 ? -1 : 0;
}

static int family_msg(const struct nlmsghdr *nlh, void *arg)
{
	struct mcm_nl_family *f = arg;

	return mcm_nl_parse_family(nlh, f);
}

/*
 * The controller's answer about family @name into @f (its multicast
 * group f->group): 0, or -1/ENOENT if absent
 */
static int ask_family(struct rdma_mcm_nl *nl, const char *name,
		      struct mcm_nl_family *f)
{
	struct request r;

	req_init(&r, GENL_ID_CTRL, CTRL_CMD_GETFAMILY, 0);
	req_put(&r, CTRL_ATTR_FAMILY_NAME, name, strlen(name) + 1);
	f->id = 0;
	f->mcgrp = 0;
	if (req_send(nl, &r) ||
	    replies(nl, &r, GENL_ID_CTRL, family_msg, f))
		return -1;
	if (!f->id) {
		errno = ENOENT;
		return -1;
	}
	return 0;
}

/* The family's id and its "events" group: 0, or -1/ENOENT if absent */
static int resolve(struct rdma_mcm_nl *nl)
{
	struct mcm_nl_family f = { .group = RDMA_MCM_GENL_MCGRP_EVENTS };

	if (ask_family(nl, RDMA_MCM_GENL_NAME, &f))
		return -1;
	nl->family = f.id;
	nl->mcgrp = f.mcgrp;
	nl->stale = 0;
	return 0;
}

MCM_EXPORT struct rdma_mcm_nl *rdma_mcm_nl_open(void)
{
	struct rdma_mcm_nl *nl = calloc(1, sizeof(*nl));
	int err;

	if (!nl)
		return NULL;
	nl->io = mcm_nl_io;
	nl->io_priv = mcm_nl_io_priv;
	nl->mon_fd = -1;
	nl->buf = malloc(MCM_GENL_BUF);
	if (!nl->buf)
		goto fail;
	nl->fd = nl->io->socket(nl->io_priv, NETLINK_GENERIC, -1);
	if (nl->fd < 0)
		goto fail;
	if (resolve(nl)) {
		/* the controller says ENOENT for a family not registered */
		err = errno;
		nl->io->close(nl->io_priv, nl->fd);
		errno = err;
		goto fail;
	}
	return nl;
fail:
	err = errno;
	free(nl->buf);
	free(nl);
	errno = err;
	return NULL;
}

/*
 * A call on @nl may go on: -1/EINVAL for no handle, -1/EBUSY from a
 * dump's callback (the dump's replies are in the handle's buffer and on
 * its socket: a request now would take them for its own)
 */
static int usable(struct rdma_mcm_nl *nl)
{
	if (!nl) {
		errno = EINVAL;
		return -1;
	}
	if (nl->busy) {
		errno = EBUSY;
		return -1;
	}
	return 0;
}

MCM_EXPORT void rdma_mcm_nl_close(struct rdma_mcm_nl *nl)
{
	if (!nl)
		return;
	/* from a callback: the dump still uses it (the man page says so) */
	if (usable(nl))
		return;
	nl->io->close(nl->io_priv, nl->fd);
	if (nl->mon_fd >= 0)
		nl->io->close(nl->io_priv, nl->mon_fd);
	free(nl->buf);
	free(nl->ev_buf);
	mcm_nl_srcs_free(&nl->srcs);
	mcm_nl_srcs_free(&nl->ev_srcs);
	free(nl);
}

MCM_EXPORT const char *rdma_mcm_nl_last_error(struct rdma_mcm_nl *nl)
{
	if (!nl) {
		errno = EINVAL;
		return NULL;
	}
	return nl->err_text[0] ? nl->err_text : NULL;
}

/*
 * Send a request of the family and read its replies: see replies().
 * Whatever stopped it before the end, the socket is fresh afterwards.
 * The family unregistered and registered again (a module unloaded and
 * loaded again) may have another id: a request the kernel refuses with
 * ENOENT before any reply resolves the family again, and is sent again
 * if its id changed; so is one after the monitor saw the family go.
 */
static int transact(struct rdma_mcm_nl *nl, struct request *r, reply_fn fn,
		    void *arg)
{
	int ret, err, again = 1;
	uint16_t old;

	nl->err_text[0] = 0;
	if (nl->stale && resolve(nl))
		return -1;
	for (;;) {
		r->nlh.nlmsg_type = nl->family;
		nl->delivered = 0;
		if (req_send(nl, r))
			return -1;
		ret = replies(nl, r, nl->family, fn, arg);
		if (!ret)
			return 0;
		err = errno;
		if (ret < 0 && err == ENOENT && !nl->delivered && again) {
			again = 0;
			old = nl->family;
			if (resolve(nl))
				return -1;	/* ENOENT: it is gone */
			if (nl->family != old) {
				nl->err_text[0] = 0;
				continue;
			}
			errno = ENOENT;
			return -1;
		}
		break;
	}
	if (reopen(nl) && ret > 0)
		return -1;
	errno = err;
	return ret;
}

/* A callback's value, positive: stop; never -1 by mistake */
static int callback_ret(int ret)
{
	return ret ? (ret < 0 ? INT32_MAX : ret) : 0;
}

struct member_dump {
	struct rdma_mcm_nl *nl;
	rdma_mcm_nl_member_cb cb;
	void *arg;
	struct rdma_mcm_nl_member m;
};

static int member_msg(const struct nlmsghdr *nlh, void *arg)
{
	struct member_dump *d = arg;
	int ret;

	if (mcm_nl_parse_member(nlh, &d->m, &d->nl->srcs))
		return -1;
	d->nl->busy = 1;
	ret = d->cb(&d->m, d->arg);
	d->nl->busy = 0;
	return callback_ret(ret);
}

MCM_EXPORT int rdma_mcm_nl_dump_members(struct rdma_mcm_nl *nl,
					uint32_t ctx_id,
					rdma_mcm_nl_member_cb cb, void *arg)
{
	struct member_dump d = { .nl = nl, .cb = cb, .arg = arg };
	struct request r;

	if (usable(nl))
		return -1;
	if (!cb) {
		errno = EINVAL;
		return -1;
	}
	req_init(&r, 0, RDMA_MCM_CMD_MEMBER_GET, NLM_F_DUMP);
	if (ctx_id)
		req_put(&r, RDMA_MCM_A_CTX_ID, &ctx_id, sizeof(ctx_id));
	return transact(nl, &r, member_msg, &d);
}

struct context_dump {
	struct rdma_mcm_nl *nl;
	rdma_mcm_nl_context_cb cb;
	void *arg;
	struct rdma_mcm_nl_context c;
};

static int context_msg(const struct nlmsghdr *nlh, void *arg)
{
	struct context_dump *d = arg;
	int ret;

	if (mcm_nl_parse_context(nlh, &d->c))
		return -1;
	d->nl->busy = 1;
	ret = d->cb(&d->c, d->arg);
	d->nl->busy = 0;
	return callback_ret(ret);
}

MCM_EXPORT int rdma_mcm_nl_dump_contexts(struct rdma_mcm_nl *nl,
					 rdma_mcm_nl_context_cb cb, void *arg)
{
	struct context_dump d = { .nl = nl, .cb = cb, .arg = arg };
	struct request r;

	if (usable(nl))
		return -1;
	if (!cb) {
		errno = EINVAL;
		return -1;
	}
	req_init(&r, 0, RDMA_MCM_CMD_CTX_GET, NLM_F_DUMP);
	return transact(nl, &r, context_msg, &d);
}

struct stats_reply {
	struct rdma_mcm_nl_stats *st;
	int messages;
};

static int stats_msg(const struct nlmsghdr *nlh, void *arg)
{
	struct stats_reply *s = arg;

	s->messages++;
	return mcm_nl_parse_stats(nlh, s->st) ? -1 : 0;
}

MCM_EXPORT void rdma_mcm_nl_free_stats(struct rdma_mcm_nl_stats *st)
{
	if (!st)
		return;
	free(st->devices);
	free(st);
}

MCM_EXPORT struct rdma_mcm_nl_stats *rdma_mcm_nl_get_stats(struct rdma_mcm_nl *nl)
{
	struct stats_reply s = { NULL, 0 };
	struct request r;
	int err;

	if (usable(nl))
		return NULL;
	s.st = calloc(1, sizeof(*s.st));
	if (!s.st)
		return NULL;
	req_init(&r, 0, RDMA_MCM_CMD_STATS_GET, 0);
	if (transact(nl, &r, stats_msg, &s)) {
		err = errno;
		rdma_mcm_nl_free_stats(s.st);
		errno = err;
		return NULL;
	}
	if (!s.messages) {
		/* no reply of the family came */
		rdma_mcm_nl_free_stats(s.st);
		errno = EPROTO;
		return NULL;
	}
	return s.st;
}

/* --- events ------------------------------------------------------------- */

/*
 * Join the family's "events" group on the events socket, which listens
 * to the controller's "notify" group already
 */
static int join_events(struct rdma_mcm_nl *nl)
{
	if (!nl->mcgrp) {
		errno = EOPNOTSUPP;
		return -1;
	}
	if (nl->io->join_group(nl->io_priv, nl->mon_fd, nl->mcgrp))
		return -1;
	nl->mon_family = nl->family;
	nl->mon_gone = 0;
	nl->ev_pos = 0;
	nl->ev_len = 0;
	return 0;
}

MCM_EXPORT int rdma_mcm_nl_monitor(struct rdma_mcm_nl *nl)
{
	struct mcm_nl_family ctrl = { .group = "notify" };
	int fd, err;

	if (usable(nl))
		return -1;
	nl->err_text[0] = 0;
	if (nl->mon_fd >= 0) {
		if (!nl->mon_gone)
			return 0;
		/* the family went away: its new group, on the same socket */
		if (resolve(nl))
			return -1;
		return join_events(nl);
	}
	if (ask_family(nl, "nlctrl", &ctrl))
		return -1;
	if (!ctrl.mcgrp) {
		errno = EOPNOTSUPP;
		return -1;
	}
	if (!nl->ev_buf) {
		nl->ev_buf = malloc(MCM_GENL_BUF);
		if (!nl->ev_buf)
			return -1;
	}
	fd = nl->io->socket(nl->io_priv, NETLINK_GENERIC, -1);
	if (fd < 0)
		return -1;
	nl->mon_fd = fd;
	/*
	 * The controller's news first, then the family as it is now: a
	 * DELFAMILY after the answer cannot be missed, and the group joined
	 * is not that of a family that went since rdma_mcm_nl_open()
	 */
	if (nl->io->join_group(nl->io_priv, fd, ctrl.mcgrp) || resolve(nl) ||
	    join_events(nl)) {
		err = errno;
		nl->io->close(nl->io_priv, fd);
		nl->mon_fd = -1;
		errno = err;
		return -1;
	}
	return 0;
}

MCM_EXPORT int rdma_mcm_nl_get_fd(struct rdma_mcm_nl *nl)
{
	if (!nl) {
		errno = EINVAL;
		return -1;
	}
	return nl->mon_fd >= 0 ? nl->mon_fd : nl->fd;
}

/* The family went away: the events socket hears nothing of it any more */
static int gone(struct rdma_mcm_nl *nl)
{
	nl->mon_gone = 1;
	nl->stale = 1;
	errno = ESHUTDOWN;
	return -1;
}

/*
 * A notification of the controller: 0 (another family's, or news the
 * handle knows), or -1/ESHUTDOWN when the family the events socket
 * listens to went away: its CTRL_CMD_DELFAMILY, or a CTRL_CMD_NEWFAMILY
 * of "rdma_mcm" under another id (the DELFAMILY before it was lost)
 */
static int ctrl_notice(struct rdma_mcm_nl *nl, const struct nlmsghdr *nlh)
{
	const struct genlmsghdr *g = NLMSG_DATA(nlh);
	struct mcm_nl_family f = { .group = NULL };

	if (g->cmd != CTRL_CMD_DELFAMILY && g->cmd != CTRL_CMD_NEWFAMILY)
		return 0;	/* its groups, its policies */
	if (mcm_nl_parse_family(nlh, &f))
		return -1;
	if (g->cmd == CTRL_CMD_DELFAMILY ? f.id == nl->mon_family :
	    !strcmp(f.name, RDMA_MCM_GENL_NAME) && f.id != nl->mon_family)
		return gone(nl);
	return 0;
}

/*
 * The socket overflowed: a DELFAMILY may be among what was lost. Is the
 * family the events socket listens to still there? 1 if so (or if the
 * controller cannot say), 0 if not.
 */
static int still_there(struct rdma_mcm_nl *nl)
{
	struct mcm_nl_family f = { .group = NULL };

	if (ask_family(nl, RDMA_MCM_GENL_NAME, &f))
		return errno != ENOENT;
	return f.id == nl->mon_family;
}

MCM_EXPORT int rdma_mcm_nl_read_event(struct rdma_mcm_nl *nl,
				      struct rdma_mcm_nl_notice *ev)
{
	ssize_t n;

	if (usable(nl))
		return -1;
	if (!ev) {
		errno = EINVAL;
		return -1;
	}
	if (nl->mon_fd < 0) {
		errno = ENOTCONN;
		return -1;
	}
	if (nl->mon_gone) {
		errno = ESHUTDOWN;
		return -1;
	}
	for (;;) {
		while (nl->ev_pos < nl->ev_len) {
			const struct nlmsghdr *nlh =
				(const void *)(nl->ev_buf + nl->ev_pos);
			int left = (int)(nl->ev_len - nl->ev_pos);
			const struct genlmsghdr *g = NLMSG_DATA(nlh);

			if (!NLMSG_OK(nlh, left)) {
				nl->ev_pos = nl->ev_len;
				return bad();
			}
			nl->ev_pos += NLMSG_ALIGN(nlh->nlmsg_len);
			if (nlh->nlmsg_len < NLMSG_LENGTH(GENL_HDRLEN))
				continue;
			/* a bad one fails alone: the next call goes on */
			if (nlh->nlmsg_type == GENL_ID_CTRL) {
				if (ctrl_notice(nl, nlh))
					return -1;
				continue;
			}
			if (nlh->nlmsg_type != nl->mon_family ||
			    g->cmd != RDMA_MCM_CMD_EVENT)
				continue;
			if (mcm_nl_parse_event(nlh, ev, &nl->ev_srcs))
				return -1;
			return 1;
		}
		n = mcm_nl_recv(nl->io, nl->io_priv, nl->mon_fd, nl->ev_buf,
				MCM_GENL_BUF, MSG_DONTWAIT);
		if (n < 0) {
			if (errno == EAGAIN || errno == EWOULDBLOCK)
				return 0;
			/* ENOBUFS: the socket overflowed, events were lost */
			if (errno == ENOBUFS) {
				if (!still_there(nl))
					return gone(nl);
				errno = ENOBUFS;
			}
			return -1;
		}
		nl->ev_pos = 0;
		nl->ev_len = (size_t)n;
	}
}

/* --- names ------------------------------------------------------------------ */

static const char *name_of(const char *const *table, size_t n, unsigned int i)
{
	return i < n && table[i] ? table[i] : "unknown";
}

#define NAME(table, i)	name_of(table, sizeof(table) / sizeof(table[0]), i)

static const char *const counter_names[] = {
	[RDMA_MCM_CNT_JOINS] = "joins",
	[RDMA_MCM_CNT_JOIN_FAILED] = "join_failed",
	[RDMA_MCM_CNT_JOINED] = "joined",
	[RDMA_MCM_CNT_LEAVES] = "leaves",
	[RDMA_MCM_CNT_CANCELS] = "cancels",
	[RDMA_MCM_CNT_ERRORS] = "errors",
	[RDMA_MCM_CNT_WAITS] = "waits",
	[RDMA_MCM_CNT_REJOINS] = "rejoins",
	[RDMA_MCM_CNT_DEVICE_LOSSES] = "device_losses",
	[RDMA_MCM_CNT_DEVICE_ADDS] = "device_adds",
	[RDMA_MCM_CNT_DELIVERED] = "delivered",
	[RDMA_MCM_CNT_PURGED] = "purged",
};

static const char *const limit_names[] = {
	[RDMA_MCM_LIMIT_FILE_MEMBERSHIPS] = "file_memberships",
	[RDMA_MCM_LIMIT_FILE_CONTEXTS] = "file_contexts",
	[RDMA_MCM_LIMIT_USER_MEMBERSHIPS] = "user_memberships",
	[RDMA_MCM_LIMIT_USER_CONTEXTS] = "user_contexts",
	[RDMA_MCM_LIMIT_USER_SOURCES] = "user_sources",
};

static const char *const usage_names[] = {
	[RDMA_MCM_USAGE_CONTEXTS] = "contexts",
	[RDMA_MCM_USAGE_MEMBERSHIPS] = "memberships",
	[RDMA_MCM_USAGE_CM_IDS] = "cm_ids",
	[RDMA_MCM_USAGE_FILES] = "files",
	[RDMA_MCM_USAGE_USERS] = "users",
};

static const char *const event_names[] = {
	[RDMA_MCM_NL_EV_JOIN] = "join",
	[RDMA_MCM_NL_EV_JOINED] = "joined",
	[RDMA_MCM_NL_EV_ERROR] = "error",
	[RDMA_MCM_NL_EV_WAITING] = "waiting",
	[RDMA_MCM_NL_EV_REJOIN] = "rejoin",
	[RDMA_MCM_NL_EV_LEAVE] = "leave",
	[RDMA_MCM_NL_EV_DEVICE_LOST] = "device-lost",
	[RDMA_MCM_NL_EV_DEVICE_ADDED] = "device-added",
};

static const char *const owner_names[] = {
	[RDMA_MCM_OWNER_USER] = "user",
	[RDMA_MCM_OWNER_KERNEL] = "kernel",
};

static const char *const joiner_names[] = {
	[RDMA_MCM_JOINER_RDMA_CM] = "rdma_cm",
	[RDMA_MCM_JOINER_RDMA_MCM] = "rdma_mcm",
};

MCM_EXPORT const char *rdma_mcm_nl_counter_str(uint32_t counter)
{
	return NAME(counter_names, counter);
}

MCM_EXPORT const char *rdma_mcm_nl_limit_str(uint32_t limit)
{
	return NAME(limit_names, limit);
}

MCM_EXPORT const char *rdma_mcm_nl_usage_str(uint32_t usage)
{
	return NAME(usage_names, usage);
}

MCM_EXPORT const char *rdma_mcm_nl_event_str(uint32_t event)
{
	return NAME(event_names, event);
}

MCM_EXPORT const char *rdma_mcm_nl_owner_str(uint32_t kind)
{
	return NAME(owner_names, kind);
}

MCM_EXPORT const char *rdma_mcm_nl_joiner_str(uint32_t joiner)
{
	return NAME(joiner_names, joiner);
}
