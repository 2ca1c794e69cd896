// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * librdmamcm: the generic netlink family "rdma_mcm" (uapi
 * <rdma/rdma_mcm_netlink.h>) on raw AF_NETLINK sockets, without libnl:
 * the family and its "events" group resolved through the controller,
 * dumps streamed to a callback one message at a time, the "events" group
 * read from a second socket so that a dump never meets an event.
 *
 * The messages are parsed in nl_parse.c.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "rdma_mcm_priv.h"

#ifndef SOL_NETLINK
#define SOL_NETLINK	270
#endif

struct rdma_mcm_nl {
	int fd;				/* requests and their replies */
	int mon_fd;			/* the "events" group, or -1 */
	uint16_t family;
	uint32_t mcgrp;			/* "events" group id, 0: none */
	uint32_t seq;
	const struct mcm_nl_io *io;
	void *io_priv;
	uint8_t *buf;			/* MCM_GENL_BUF bytes */
	size_t ev_pos, ev_len;		/* events received, not yet read */
	uint8_t *ev_buf;		/* MCM_GENL_BUF bytes, once monitoring */
	struct mcm_nl_srcs srcs;	/* the sources of a dump's member */
	struct mcm_nl_srcs ev_srcs;	/* those of the last event */
};

/* --- the real sockets --------------------------------------------------- */

static int sock_socket(void *priv)
{
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK };
	int fd, one = 1, rcvbuf = 1 << 20;

	(void)priv;
	fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_GENERIC);
	if (fd < 0)
		return -1;
	if (bind(fd, (struct sockaddr *)&sa, sizeof(sa))) {
		int err = errno;

		close(fd);
		errno = err;
		return -1;
	}
	/* best effort: room for bursts of events; the error's text */
	setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &rcvbuf, sizeof(rcvbuf));
	setsockopt(fd, SOL_NETLINK, NETLINK_EXT_ACK, &one, sizeof(one));
	return fd;
}

static ssize_t sock_send(void *priv, int fd, const void *buf, size_t len)
{
	struct sockaddr_nl to = { .nl_family = AF_NETLINK };

	(void)priv;
	return sendto(fd, buf, len, 0, (struct sockaddr *)&to, sizeof(to));
}

/* Only the kernel's messages: another process may send to our port */
static ssize_t sock_recv(void *priv, int fd, void *buf, size_t len,
			 int flags)
{
	struct sockaddr_nl from;
	socklen_t fromlen;
	ssize_t n;

	(void)priv;
	for (;;) {
		fromlen = sizeof(from);
		n = recvfrom(fd, buf, len, flags, (struct sockaddr *)&from,
			     &fromlen);
		if (n < 0 || from.nl_pid == 0)
			return n;
		/* another port's datagram, received and so dropped */
	}
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

static void req_init(struct rdma_mcm_nl *nl, struct request *r,
		     uint16_t type, uint8_t cmd, uint16_t flags)
{
	memset(r, 0, sizeof(*r));
	r->nlh.nlmsg_len = NLMSG_LENGTH(GENL_HDRLEN);
	r->nlh.nlmsg_type = type;
	r->nlh.nlmsg_flags = NLM_F_REQUEST | flags;
	r->nlh.nlmsg_seq = ++nl->seq;
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

static int req_send(struct rdma_mcm_nl *nl, int fd, struct request *r)
{
	ssize_t n;

	do
		n = nl->io->send(nl->io_priv, fd, r, r->nlh.nlmsg_len);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return -1;
	if ((size_t)n != r->nlh.nlmsg_len) {
		errno = EIO;
		return -1;
	}
	return 0;
}

/* One datagram into @buf: its length, or -1/errno */
static ssize_t recv_one(struct rdma_mcm_nl *nl, int fd, uint8_t *buf,
			int flags)
{
	ssize_t n;

	do
		n = nl->io->recv(nl->io_priv, fd, buf, MCM_GENL_BUF,
				 flags | MSG_TRUNC);
	while (n < 0 && errno == EINTR);
	if (n > MCM_GENL_BUF) {
		errno = EMSGSIZE;
		return -1;
	}
	return n;
}

typedef int (*reply_fn)(const struct nlmsghdr *nlh, void *arg);

/*
 * The replies to request @seq on nl->fd: @fn for each message of type
 * @type. Returns 0 at NLMSG_DONE, an ack, or after a reply that is not
 * part of a dump; fn's positive value when it stopped; -1/errno (an
 * error the kernel sent, or fn's -1).
 */
static int replies(struct rdma_mcm_nl *nl, uint32_t seq, uint16_t type,
		   reply_fn fn, void *arg)
{
	for (;;) {
		ssize_t n = recv_one(nl, nl->fd, nl->buf, 0);
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
			if (nlh->nlmsg_seq != seq)
				continue;	/* an answer to an older request */
			if (nlh->nlmsg_type == NLMSG_ERROR) {
				const struct nlmsgerr *e = NLMSG_DATA(nlh);

				if (nlh->nlmsg_len < NLMSG_LENGTH(sizeof(int)))
					return bad();
				if (!e->error)
					return 0;	/* ack */
				errno = -e->error;
				return -1;
			}
			if (nlh->nlmsg_type == NLMSG_DONE) {
				int err = 0;

				if (nlh->nlmsg_len >= NLMSG_LENGTH(sizeof(int)))
					memcpy(&err, NLMSG_DATA(nlh), sizeof(err));
				if (err < 0) {
					errno = -err;
					return -1;
				}
				return 0;
			}
			if (nlh->nlmsg_type != type)
				continue;	/* NOOP, OVERRUN, others */
			if (nlh->nlmsg_len < NLMSG_LENGTH(GENL_HDRLEN))
				return bad();
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
 * ends the kernel's dump) without reading them.
 */
static int reopen(struct rdma_mcm_nl *nl)
{
	int fd = nl->io->socket(nl->io_priv);

	if (fd < 0)
		return -1;
	nl->io->close(nl->io_priv, nl->fd);
	nl->fd = fd;
	return 0;
}

static int family_msg(const struct nlmsghdr *nlh, void *arg)
{
	struct mcm_nl_family *f = arg;

	return mcm_nl_parse_family(nlh, f);
}

/* The family's id and its "events" group: 0, or -1/ENOENT if absent */
static int resolve(struct rdma_mcm_nl *nl)
{
	struct mcm_nl_family f = { 0 };
	struct request r;

	req_init(nl, &r, GENL_ID_CTRL, CTRL_CMD_GETFAMILY, 0);
	req_put(&r, CTRL_ATTR_FAMILY_NAME, RDMA_MCM_GENL_NAME,
		sizeof(RDMA_MCM_GENL_NAME));
	if (req_send(nl, nl->fd, &r) ||
	    replies(nl, r.nlh.nlmsg_seq, GENL_ID_CTRL, family_msg, &f))
		return -1;
	if (!f.id) {
		errno = ENOENT;
		return -1;
	}
	nl->family = f.id;
	nl->mcgrp = f.mcgrp;
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
	nl->fd = nl->io->socket(nl->io_priv);
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

MCM_EXPORT void rdma_mcm_nl_close(struct rdma_mcm_nl *nl)
{
	if (!nl)
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

/*
 * Send a request of the family and read its replies: see replies().
 * Whatever stopped it before the end, the socket is fresh afterwards.
 */
static int transact(struct rdma_mcm_nl *nl, struct request *r, reply_fn fn,
		    void *arg)
{
	int ret, err;

	if (req_send(nl, nl->fd, r))
		return -1;
	ret = replies(nl, r->nlh.nlmsg_seq, nl->family, fn, arg);
	if (!ret)
		return 0;
	err = errno;
	if (reopen(nl) && ret > 0)
		return -1;
	errno = err;
	return ret;
}

struct member_dump {
	rdma_mcm_nl_member_cb cb;
	void *arg;
	struct mcm_nl_srcs *srcs;
	struct rdma_mcm_nl_member m;
};

static int member_msg(const struct nlmsghdr *nlh, void *arg)
{
	struct member_dump *d = arg;
	int ret;

	if (mcm_nl_parse_member(nlh, &d->m, d->srcs))
		return -1;
	ret = d->cb(&d->m, d->arg);
	/* the callback's value, positive: stop; never -1 by mistake */
	return ret ? (ret < 0 ? INT32_MAX : ret) : 0;
}

static int check_args(struct rdma_mcm_nl *nl, const void *cb)
{
	if (!nl || !cb) {
		errno = EINVAL;
		return -1;
	}
	return 0;
}

MCM_EXPORT int rdma_mcm_nl_dump_members(struct rdma_mcm_nl *nl,
					uint32_t ctx_id,
					rdma_mcm_nl_member_cb cb, void *arg)
{
	struct member_dump d = { .cb = cb, .arg = arg, .srcs = &nl->srcs };
	struct request r;

	if (check_args(nl, (const void *)cb))
		return -1;
	req_init(nl, &r, nl->family, RDMA_MCM_CMD_MEMBER_GET, NLM_F_DUMP);
	if (ctx_id)
		req_put(&r, RDMA_MCM_A_CTX_ID, &ctx_id, sizeof(ctx_id));
	return transact(nl, &r, member_msg, &d);
}

struct context_dump {
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
	ret = d->cb(&d->c, d->arg);
	return ret ? (ret < 0 ? INT32_MAX : ret) : 0;
}

MCM_EXPORT int rdma_mcm_nl_dump_contexts(struct rdma_mcm_nl *nl,
					 rdma_mcm_nl_context_cb cb, void *arg)
{
	struct context_dump d = { .cb = cb, .arg = arg };
	struct request r;

	if (check_args(nl, (const void *)cb))
		return -1;
	req_init(nl, &r, nl->family, RDMA_MCM_CMD_CTX_GET, NLM_F_DUMP);
	return transact(nl, &r, context_msg, &d);
}

static int stats_msg(const struct nlmsghdr *nlh, void *arg)
{
	return mcm_nl_parse_stats(nlh, arg) ? -1 : 0;
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
	struct rdma_mcm_nl_stats *st;
	struct request r;
	int err;

	if (!nl) {
		errno = EINVAL;
		return NULL;
	}
	st = calloc(1, sizeof(*st));
	if (!st)
		return NULL;
	req_init(nl, &r, nl->family, RDMA_MCM_CMD_STATS_GET, 0);
	if (transact(nl, &r, stats_msg, st)) {
		err = errno;
		rdma_mcm_nl_free_stats(st);
		errno = err;
		return NULL;
	}
	if (!st->present) {
		/* no reply of the family came */
		rdma_mcm_nl_free_stats(st);
		errno = EPROTO;
		return NULL;
	}
	return st;
}

MCM_EXPORT int rdma_mcm_nl_monitor(struct rdma_mcm_nl *nl)
{
	int fd, err;

	if (!nl) {
		errno = EINVAL;
		return -1;
	}
	if (nl->mon_fd >= 0)
		return 0;
	if (!nl->mcgrp) {
		errno = EOPNOTSUPP;
		return -1;
	}
	if (!nl->ev_buf) {
		nl->ev_buf = malloc(MCM_GENL_BUF);
		if (!nl->ev_buf)
			return -1;
	}
	fd = nl->io->socket(nl->io_priv);
	if (fd < 0)
		return -1;
	if (nl->io->join_group(nl->io_priv, fd, nl->mcgrp)) {
		err = errno;
		nl->io->close(nl->io_priv, fd);
		errno = err;
		return -1;
	}
	nl->mon_fd = fd;
	nl->ev_pos = 0;
	nl->ev_len = 0;
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

MCM_EXPORT int rdma_mcm_nl_read_event(struct rdma_mcm_nl *nl,
				      struct rdma_mcm_nl_notice *ev)
{
	ssize_t n;

	if (!nl || !ev) {
		errno = EINVAL;
		return -1;
	}
	if (nl->mon_fd < 0) {
		errno = ENOTCONN;
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
			if (nlh->nlmsg_type != nl->family ||
			    nlh->nlmsg_len < NLMSG_LENGTH(GENL_HDRLEN) ||
			    g->cmd != RDMA_MCM_CMD_EVENT)
				continue;
			/* a bad one fails alone: the next call goes on */
			if (mcm_nl_parse_event(nlh, ev, &nl->ev_srcs))
				return -1;
			return 1;
		}
		n = recv_one(nl, nl->mon_fd, nl->ev_buf, MSG_DONTWAIT);
		if (n < 0) {
			/* ENOBUFS: the socket overflowed, events were lost */
			if (errno == EAGAIN || errno == EWOULDBLOCK)
				return 0;
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
