/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * librdmamcm internals: the channel, its event queue, its membership
 * table and its contexts. Nothing here is exported from librdmamcm.so or
 * librdmamcm.a; the host unit tests link the objects and replace
 * rdma_mcm_io to run without a kernel.
 *
 * Locking: every field of struct rdma_mcm_channel below "lock" is
 * protected by it. It is held across each ioctl together with the
 * bookkeeping that goes with it, and across each non-blocking read(); it
 * is never held while waiting (poll(2), the condition variable).
 */
#ifndef RDMA_MCM_PRIV_H
#define RDMA_MCM_PRIV_H

#include <errno.h>
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>
#include <sys/types.h>

#include "librdmamcm.h"

#define MCM_HIDDEN	__attribute__((visibility("hidden")))
#define MCM_EXPORT	__attribute__((visibility("default")))

#ifndef AF_IB
#define AF_IB		27
#endif
/* sizeof(struct sockaddr_ib), <infiniband/ib.h>; checked by the tests */
#define MCM_SOCKADDR_IB_LEN	48

/* Events read from the kernel in one read() */
#define MCM_READ_BATCH	16
/* The kernel's limit on entries in one batch ioctl */
#define MCM_MAX_BATCH	RDMA_MCM_MAX_BATCH

/*
 * The sizes of the structs the application shares with the library. The
 * functions of a symbol version never read or write more of an
 * application's struct than that version defines, whatever the uapi
 * header says later (librdmamcm(7), "ABI growth"); mcm.c checks at build
 * time that the header still has these sizes. struct rdma_mcm_member grew
 * in LIBRDMAMCM_1.3 (rejoins, last_status, state_time_ns) and in
 * LIBRDMAMCM_1.5 (nr_sources, flags): rdma_mcm_query and rdma_mcm_list of
 * LIBRDMAMCM_1.0 write its first 184 bytes, those of LIBRDMAMCM_1.3 its
 * first 200, those of LIBRDMAMCM_1.5 all 208. struct rdma_mcm_join_entry
 * grew in LIBRDMAMCM_1.5 (sources, nr_sources, source_size):
 * rdma_mcm_join_batch of LIBRDMAMCM_1.0 takes 152-byte entries, that of
 * LIBRDMAMCM_1.5 168-byte ones.
 */
#define MCM_API_EVENT_SIZE	72
#define MCM_API_MEMBER_SIZE_1_0	184
#define MCM_API_MEMBER_SIZE_1_3	200
#define MCM_API_MEMBER_SIZE	208
#define MCM_API_JOIN_ENTRY_SIZE_1_0 152
#define MCM_API_JOIN_ENTRY_SIZE	168
#define MCM_API_LEAVE_ENTRY_SIZE 152
#define MCM_API_SOURCE_SIZE	136

/*
 * Export @impl as the versioned symbol @sym, "name@@NODE" (the default,
 * what a program linked now gets) or "name@NODE" (kept for programs
 * linked against an older library). Makefile gives the static library
 * the default ones under their plain names.
 */
#define MCM_SYMVER(impl, sym)	__asm__(".symver " #impl ", " sym)

/* The implementations behind the versioned symbols (mcm.c, batch.c) */
MCM_EXPORT int rdma_mcm_query_v1_5(struct rdma_mcm_channel *ch,
				   uint32_t ctx_id, uint32_t handle,
				   struct rdma_mcm_member *out);
MCM_EXPORT int rdma_mcm_query_v1_3(struct rdma_mcm_channel *ch,
				   uint32_t ctx_id, uint32_t handle,
				   void *out);
MCM_EXPORT int rdma_mcm_query_v1_0(struct rdma_mcm_channel *ch,
				   uint32_t ctx_id, uint32_t handle,
				   void *out);
MCM_EXPORT int rdma_mcm_list_v1_5(struct rdma_mcm_channel *ch,
				  uint32_t ctx_id, uint32_t start,
				  struct rdma_mcm_member *out,
				  unsigned int max, uint32_t *next);
MCM_EXPORT int rdma_mcm_list_v1_3(struct rdma_mcm_channel *ch,
				  uint32_t ctx_id, uint32_t start, void *out,
				  unsigned int max, uint32_t *next);
MCM_EXPORT int rdma_mcm_list_v1_0(struct rdma_mcm_channel *ch,
				  uint32_t ctx_id, uint32_t start, void *out,
				  unsigned int max, uint32_t *next);
MCM_EXPORT int rdma_mcm_join_batch_v1_5(struct rdma_mcm_channel *ch,
					uint32_t ctx_id,
					struct rdma_mcm_join_entry *entries,
					unsigned int n);
MCM_EXPORT int rdma_mcm_join_batch_v1_0(struct rdma_mcm_channel *ch,
					uint32_t ctx_id, void *entries,
					unsigned int n);

/*
 * Test builds only. MCM_TEST_GROW=N makes every struct the library passes
 * to the kernel N bytes longer, with a zero tail (and asks for events of
 * that size), as a library built against a later uapi header does.
 * MCM_TEST_OLD makes it skip RDMA_MCM_IOC_SET_EVENTS, as librdmamcm 0.2.0
 * did. Neither changes a struct the application sees.
 */
#ifndef MCM_TEST_GROW
#define MCM_TEST_GROW	0
#endif
#define MCM_WIRE(type, name)					\
	struct name {						\
		type s;						\
		uint8_t tail[MCM_TEST_GROW];			\
	}

MCM_WIRE(struct rdma_mcm_event, mcm_wire_event);
MCM_WIRE(struct rdma_mcm_member, mcm_wire_member);
MCM_WIRE(struct rdma_mcm_join_entry, mcm_wire_join_entry);
MCM_WIRE(struct rdma_mcm_leave_entry, mcm_wire_leave_entry);
MCM_WIRE(struct rdma_mcm_source, mcm_wire_source);

/* The event types this library knows */
#define MCM_EVENTS_KNOWN	(RDMA_MCM_EVENTS_DEFAULT | \
				 RDMA_MCM_EVENT_BIT(RDMA_MCM_EVENT_DEVICE_REMOVED) | \
				 RDMA_MCM_EVENT_BIT(RDMA_MCM_EVENT_REJOINING) | \
				 RDMA_MCM_EVENT_BIT(RDMA_MCM_EVENT_REJOINED) | \
				 RDMA_MCM_EVENT_BIT(RDMA_MCM_EVENT_DEVICE_ADDED))
/* The context flags this library knows */
#define MCM_CTX_FLAGS		(RDMA_MCM_CTX_HEAL | RDMA_MCM_CTX_ROUTE)

/**
 * struct rdma_mcm_io - how a channel talks to its device
 * @open: open the device; returns an fd (always non-blocking) or -1/errno
 * @ioctl: ioctl(2) on it: 0 or -1/errno
 * @read: read(2) on it: bytes or -1/errno
 * @close: close(2) it
 * @route: the route to @dst (a ROUTE context's address): the source
 *	address it would leave from and its netdev, as the kernel resolves
 *	it (route.c: the routing table, through rtnetlink); 0 or -errno
 *
 * rdma_mcm_io points at the real device; the tests point it at a fake.
 * The fd must be pollable: POLLIN while events are queued.
 */
struct rdma_mcm_io {
	int (*open)(void *priv);
	int (*ioctl)(void *priv, int fd, unsigned long req, void *arg);
	ssize_t (*read)(void *priv, int fd, void *buf, size_t len);
	void (*close)(void *priv, int fd);
	int (*route)(void *priv, const struct sockaddr *dst,
		     struct sockaddr_storage *src, uint32_t *ifindex);
};

extern MCM_HIDDEN const struct rdma_mcm_io *rdma_mcm_io;
extern MCM_HIDDEN void *rdma_mcm_io_priv;
extern MCM_HIDDEN const struct rdma_mcm_io rdma_mcm_dev_io;

/**
 * struct mcm_nl_io - how the library talks to the kernel over netlink
 *	(netlink.c's generic netlink handles, route.c's route lookups)
 * @socket: a netlink socket of @protocol (NETLINK_GENERIC or
 *	NETLINK_ROUTE), bound, close-on-exec, with NETLINK_EXT_ACK and
 *	NETLINK_CAP_ACK where the kernel has them (pollable: POLLIN while a
 *	message waits). @at < 0: a new descriptor; @at >= 0: the new socket
 *	takes descriptor @at, whose socket it closes (dup3(2)), so that a
 *	caller's saved number stays valid. The descriptor, or -1/errno (@at
 *	untouched)
 * @send: send(2) one request to the kernel: bytes or -1/errno
 * @recv: recvfrom(2) one datagram; @flags may hold MSG_DONTWAIT and
 *	MSG_TRUNC (then the datagram's whole length is returned); *@port is
 *	the sender's port id (0: the kernel): bytes or -1/errno
 * @join_group: NETLINK_ADD_MEMBERSHIP of multicast group @group: 0 or
 *	-1/errno
 * @close: close(2) it
 *
 * mcm_nl_io points at the real sockets; the tests point it at a fake
 * kernel (testing/host/fake/fake_nl.c).
 */
struct mcm_nl_io {
	int (*socket)(void *priv, int protocol, int at);
	ssize_t (*send)(void *priv, int fd, const void *buf, size_t len);
	ssize_t (*recv)(void *priv, int fd, void *buf, size_t len, int flags,
			uint32_t *port);
	int (*join_group)(void *priv, int fd, uint32_t group);
	void (*close)(void *priv, int fd);
};

extern MCM_HIDDEN const struct mcm_nl_io *mcm_nl_io;
extern MCM_HIDDEN void *mcm_nl_io_priv;
extern MCM_HIDDEN const struct mcm_nl_io mcm_nl_sock_io;

/*
 * The socket helpers of netlink.c that route.c shares: one request sent
 * whole (EINTR restarted); one datagram of the kernel received into @buf
 * of @cap bytes (EINTR restarted, another port's datagrams dropped,
 * EMSGSIZE for one longer than @cap): bytes or -1/errno.
 */
MCM_HIDDEN int mcm_nl_send(const struct mcm_nl_io *io, void *priv, int fd,
			   const void *buf, size_t len);
MCM_HIDDEN ssize_t mcm_nl_recv(const struct mcm_nl_io *io, void *priv, int fd,
			       void *buf, size_t cap, int flags);
/*
 * The errno in the error field of an NLMSG_ERROR or an NLMSG_DONE: 0 (an
 * ack, a dump's end), a positive errno, or -1 for a value no kernel sends
 * (positive, or below -4095: INT_MIN among them)
 */
MCM_HIDDEN int mcm_nl_errno(int32_t error);

/*
 * Bytes of one receive: a dump's datagram is at most 32 KiB, STATS_GET's
 * reply up to 82 KiB. The man pages give it once, in rdma_mcm_nl_open(3)
 * (EMSGSIZE), and testing/host/test_nl.c checks that they give this size.
 */
#define MCM_GENL_BUF	(128 * 1024)

struct nlmsghdr;

/*
 * Room for the sources of a membership as a parser finds them (struct
 * rdma_mcm_nl_member's @sources point into it): grown as needed, kept
 * for the next message, freed by mcm_nl_srcs_free().
 */
struct mcm_nl_srcs {
	struct sockaddr_storage *v;
	uint32_t cap;
};

MCM_HIDDEN void mcm_nl_srcs_free(struct mcm_nl_srcs *s);

/*
 * Parsers of one kernel message (nl_parse.c; after its nlmsghdr and
 * genlmsghdr are checked): 0, or -1/EBADMSG for a truncated or malformed
 * attribute (-1/ENOMEM: no room for the sources in @srcs). Attributes
 * they do not know are skipped, as is a source of a length that is not
 * its family's.
 */
MCM_HIDDEN int mcm_nl_parse_member(const struct nlmsghdr *nlh,
				   struct rdma_mcm_nl_member *m,
				   struct mcm_nl_srcs *srcs);
MCM_HIDDEN int mcm_nl_parse_context(const struct nlmsghdr *nlh,
				    struct rdma_mcm_nl_context *c);
MCM_HIDDEN int mcm_nl_parse_stats(const struct nlmsghdr *nlh,
				  struct rdma_mcm_nl_stats *st);
MCM_HIDDEN int mcm_nl_parse_event(const struct nlmsghdr *nlh,
				  struct rdma_mcm_nl_notice *ev,
				  struct mcm_nl_srcs *srcs);

/*
 * The controller's message about a family (CTRL_CMD_NEWFAMILY, the answer
 * to CTRL_CMD_GETFAMILY or a notification; CTRL_CMD_DELFAMILY): its id,
 * its name and the id of its multicast group named @group (the caller's;
 * NULL: none looked for), 0 when it has none.
 */
struct mcm_nl_family {
	const char *group;
	uint16_t id;
	uint32_t mcgrp;
	char name[16];			/* GENL_NAMSIZ */
};

MCM_HIDDEN int mcm_nl_parse_family(const struct nlmsghdr *nlh,
				   struct mcm_nl_family *f);

/*
 * The extended ACK of an NLMSG_ERROR or NLMSG_DONE (NLM_F_ACK_TLVS set),
 * whose attributes start @hlen bytes (aligned) into its payload: the
 * kernel's message into @msg (@size bytes, NUL-terminated, bytes below
 * 0x20 and 0x7f as '?'; "" when none) and the offset of the request's
 * attribute it blames into @offs (UINT32_MAX when none). 0, or -1/EBADMSG.
 */
MCM_HIDDEN int mcm_nl_parse_extack(const struct nlmsghdr *nlh, size_t hlen,
				   char *msg, size_t size, uint32_t *offs);

struct mcm_member;
struct mcm_ctx;

/*
 * An event read from the kernel. It sits in the channel's FIFO and in its
 * owner's (a membership's, or for an event of a context or of a
 * membership the library does not know, the context's). Taking an event
 * out of order, or purging an owner, only marks records dead: the FIFO
 * frees them when they reach its head. So a leave costs the events of
 * that membership, not the channel's backlog.
 */
struct mcm_rec {
	struct mcm_rec *next;		/* in the channel's FIFO */
	struct mcm_rec *next_own;	/* in its owner's FIFO */
	struct mcm_member *m;		/* owner, or NULL */
	struct mcm_ctx *c;		/* owner, or NULL */
	int dead;
	struct mcm_wire_event w;
};

/* An owner's live events, oldest first */
struct mcm_fifo {
	struct mcm_rec *head;
	struct mcm_rec *tail;
	uint32_t count;
};

struct mcm_queue {
	struct mcm_rec *head;		/* oldest record, live or dead */
	struct mcm_rec *tail;
	struct mcm_rec *free;		/* spare records */
	size_t nfree;
	size_t live;			/* records not dead */
	unsigned long visits;		/* records looked at (tests) */
};

/*
 * A QP that rdma_mcm_attach_qp() attached to a membership's group. When
 * the membership is WAITING (REJOINING), the library detaches it and keeps
 * it here, @detached, for rdma_mcm_reattach_qp(); when the device goes,
 * it forgets it.
 */
struct mcm_attach {
	struct mcm_attach *next;
	struct ibv_qp *qp;
	uint8_t mgid[16];
	uint16_t mlid;
	int detached;
};

/* A membership this channel created and has not left */
struct mcm_member {
	struct mcm_member *next_h;	/* chain in by_handle */
	struct mcm_member *next_a;	/* chain in by_addr */
	uint32_t ctx_id;
	uint32_t handle;
	uint32_t join_flags;
	uint32_t key_len;
	uint8_t key[16];		/* group address bytes, port left out */
	struct mcm_fifo q;		/* its events the library holds */
	int claimed;			/* join_sync waits for its event */
	int waiting;			/* REJOINING read, REJOINED not yet */
	struct mcm_attach *attached;	/* QPs attached through the library */
};

struct mcm_table {
	struct mcm_member **by_handle;
	struct mcm_member **by_addr;
	size_t nbuckets;
	size_t count;
};

/*
 * A context of this channel. A ROUTE context's source address is the one
 * the route to @addr takes: looked up when it is needed (open_device,
 * create_ah_ex) and again after its device changed (@src_known).
 */
struct mcm_ctx {
	struct mcm_ctx *next;
	uint32_t ctx_id;
	uint32_t flags;			/* RDMA_MCM_CTX_* */
	struct sockaddr_storage addr;	/* as created: source, or destination */
	int src_known;			/* src_gid and src_ifindex are set */
	uint8_t src_gid[16];		/* its source address as a GID */
	uint32_t src_ifindex;		/* its netdev (IPv6 scope, route), or 0 */
	struct mcm_fifo q;		/* its own events, and orphans' */
};

struct rdma_mcm_channel {
	int fd;
	int wake_fd;			/* eventfd: kicks the thread in poll() */
	int flags;			/* O_NONBLOCK as the application asked */
	uint32_t abi_version;
	uint32_t ev_size;		/* bytes per event read() returns */
	uint64_t kernel_events;		/* types the kernel delivers */
	const struct rdma_mcm_io *io;
	void *io_priv;

	pthread_mutex_t lock;
	pthread_cond_t cond;		/* the queue changed, or no poller */
	int poller;			/* a thread waits in poll() */
	/*
	 * The last read() found the kernel's queue empty (EAGAIN, or less
	 * than a full batch): a waiter polls before it reads again, one
	 * system call less for an event still to come.
	 */
	int drained;
	uint64_t app_events;		/* types the application asked for */
	struct mcm_queue queue;
	struct mcm_table members;
	struct mcm_ctx *ctxs;
	/*
	 * verbs.c, once a QP was attached: detach the QPs of @m for a
	 * rejoin (keeping them for rdma_mcm_reattach_qp()), or forget them
	 * too (@forget: their device is going).
	 */
	void (*detach_hook)(struct mcm_member *m, int forget);
	int no_query_ctx;		/* the module has no QUERY_CTX */
	uint32_t features;		/* RDMA_MCM_FEATURE_*, from VERSION */
};

/*
 * Where a context is: as the kernel says (QUERY_CTX), else as the library
 * finds it (the source it was created on, or the route's).
 */
struct mcm_where {
	struct sockaddr_storage src;	/* its source address, port 0 */
	uint32_t ifindex;		/* the source's netdev, or 0 */
	uint32_t flags;			/* RDMA_MCM_CTX_* */
	uint32_t port_num;		/* its port; 0: not known */
	uint64_t node_guid;		/* its device's, network order; 0: not known */
	char dev_name[64];		/* its device's name; "": not known */
};

/* channel.c */
MCM_HIDDEN int mcm_ioctl(struct rdma_mcm_channel *ch, unsigned long req,
			 void *arg, size_t size);
MCM_HIDDEN int mcm_fill(struct rdma_mcm_channel *ch);
MCM_HIDDEN void mcm_kick(struct rdma_mcm_channel *ch);
MCM_HIDDEN struct mcm_ctx *mcm_ctx_find(struct rdma_mcm_channel *ch,
					uint32_t ctx_id);
MCM_HIDDEN int mcm_wanted(uint64_t types, uint32_t type);
MCM_HIDDEN int mcm_ctx_where(struct rdma_mcm_channel *ch, uint32_t ctx_id,
			     struct mcm_where *w);

/*
 * The sources of a source-specific join as the kernel takes them
 * (source.c): @nr entries at @v, or none.
 */
struct mcm_sources {
	struct mcm_wire_source *v;
	uint32_t nr;
};

/* source.c: checked and filled, without ch->lock; 0 or -errno */
MCM_HIDDEN int mcm_sources_make(const struct sockaddr *const *sources,
				unsigned int nr, int join_flags,
				struct mcm_sources *out);
MCM_HIDDEN void mcm_sources_free(struct mcm_sources *s);

/*
 * mcm.c: with ch->lock held; 0 or -errno. @srcs may be NULL (any source);
 * a module older than sources makes a join with sources -EOPNOTSUPP.
 */
MCM_HIDDEN int mcm_join_locked(struct rdma_mcm_channel *ch, uint32_t ctx_id,
			       const struct sockaddr *group,
			       const struct mcm_sources *srcs, int join_flags,
			       uint64_t cookie, uint32_t *handle);
MCM_HIDDEN int mcm_leave_locked(struct rdma_mcm_channel *ch, uint32_t ctx_id,
				uint32_t handle, const struct sockaddr *group,
				uint32_t *events_reported);
MCM_HIDDEN void mcm_unjoin(struct rdma_mcm_channel *ch, uint32_t ctx_id,
			   uint32_t handle);
MCM_HIDDEN uint32_t mcm_seen(uint32_t reported, uint32_t dropped);
MCM_HIDDEN void mcm_fix_member(struct rdma_mcm_channel *ch, uint32_t ctx_id,
			       struct rdma_mcm_member *mb);
MCM_HIDDEN int mcm_query_sized(struct rdma_mcm_channel *ch, uint32_t ctx_id,
			       uint32_t handle, void *out, size_t size);
MCM_HIDDEN int mcm_list_sized(struct rdma_mcm_channel *ch, uint32_t ctx_id,
			      uint32_t start, void *out, unsigned int max,
			      uint32_t *next, size_t size);

/* heal.c: the library's view of healing, with ch->lock held */
MCM_HIDDEN void mcm_track_event(struct rdma_mcm_channel *ch,
				struct mcm_member *m,
				const struct rdma_mcm_event *ev);
MCM_HIDDEN int mcm_is_joined_event(uint32_t type);

/* route.c */
MCM_HIDDEN int mcm_route_lookup(const struct sockaddr *dst,
				struct sockaddr_storage *src,
				uint32_t *ifindex);

/* queue.c */
MCM_HIDDEN void mcm_queue_free(struct mcm_queue *q);
MCM_HIDDEN int mcm_queue_reserve(struct mcm_queue *q, size_t n);
MCM_HIDDEN struct mcm_rec *mcm_queue_push(struct mcm_queue *q,
					  const void *ev, size_t size);
MCM_HIDDEN void mcm_queue_own(struct mcm_rec *r, struct mcm_member *m,
			      struct mcm_ctx *c);
MCM_HIDDEN int mcm_queue_pop(struct mcm_queue *q, uint64_t types,
			     struct mcm_wire_event *ev);
MCM_HIDDEN int mcm_queue_take(struct mcm_queue *q, struct mcm_member *m,
			      struct mcm_wire_event *ev);
MCM_HIDDEN uint32_t mcm_queue_purge(struct mcm_queue *q,
				    struct mcm_fifo *f);

/* members.c */
MCM_HIDDEN void mcm_table_free(struct mcm_table *t);
MCM_HIDDEN int mcm_table_prepare(struct mcm_table *t);
MCM_HIDDEN struct mcm_member *mcm_table_add(struct mcm_table *t,
					    uint32_t ctx_id, uint32_t handle,
					    uint32_t join_flags,
					    const struct sockaddr *group,
					    int *err);
MCM_HIDDEN struct mcm_member *mcm_table_find(struct mcm_table *t,
					     uint32_t ctx_id, uint32_t handle);
MCM_HIDDEN struct mcm_member *mcm_table_find_addr(struct mcm_table *t,
						  uint32_t ctx_id,
						  const struct sockaddr *group);
MCM_HIDDEN uint32_t mcm_table_del(struct mcm_table *t, struct mcm_queue *q,
				  struct mcm_member *m);
MCM_HIDDEN void mcm_table_del_ctx(struct mcm_table *t, struct mcm_queue *q,
				  uint32_t ctx_id);
MCM_HIDDEN void mcm_table_each_ctx(struct mcm_table *t, uint32_t ctx_id,
				   void (*fn)(struct mcm_member *m, void *arg),
				   void *arg);

/* addr.c */
MCM_HIDDEN size_t mcm_addr_len(const struct sockaddr *sa);
MCM_HIDDEN int mcm_addr_key(const struct sockaddr *sa, uint8_t key[16],
			    uint32_t *key_len);
MCM_HIDDEN int mcm_addr_copy(const struct sockaddr *sa, uint8_t *buf,
			     uint32_t *len);
MCM_HIDDEN int mcm_status_errno(int32_t status);
MCM_HIDDEN void mcm_addr_gid(const struct sockaddr *sa, uint8_t gid[16],
			     uint32_t *ifindex);

/* Return -1 with errno = -@ret when @ret is negative, else @ret. */
static inline int mcm_result(int ret)
{
	if (ret < 0) {
		errno = -ret;
		return -1;
	}
	return ret;
}

#endif /* RDMA_MCM_PRIV_H */
