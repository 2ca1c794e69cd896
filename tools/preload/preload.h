/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * librdmamcm-preload: librdmacm's multicast calls, served by rdma_mcm.
 *
 * Loaded with LD_PRELOAD (or by "rdma-mcm exec"), the library defines
 * rdma_join_multicast(), rdma_join_multicast_ex(), rdma_leave_multicast(),
 * rdma_get_cm_event(), rdma_ack_cm_event(), rdma_destroy_id(),
 * rdma_migrate_id() and rdma_destroy_event_channel() with librdmacm's
 * symbol versions. A join on a UD rdma_cm_id becomes a membership of an
 * rdma_mcm context bound to the id's source address (one context per id,
 * a healing one); its JOINED or ERROR event becomes a MULTICAST_JOIN or
 * MULTICAST_ERROR rdma_cm_event that the id's event channel delivers,
 * and the QP is attached when the program fetches the event, as
 * librdmacm does. Everything else goes to the real librdmacm.
 *
 * Files: real.c finds the real functions; table.c is the hash table the
 * records live in; config.c reads the environment and the sources file;
 * events.c is the event side (the reader thread, the per-channel queue,
 * the doorbell that makes channel->fd readable, get and ack); calls.c is
 * the call side (join, leave, destroy_id, migrate, destroy_event_channel).
 *
 * Locking: one mutex, pl.lock, protects every record. It is held across
 * the rdma_mcm ioctls that go with a record's change (so the reader
 * thread never sees an event before its record exists), across
 * ibv_attach_mcast()/ibv_detach_mcast(), and across librdmacm's
 * rdma_destroy_qp() (so that the reader never attaches or detaches a QP
 * being destroyed); it is held across no other librdmacm call, which may
 * block or call back into this library.
 */
#ifndef RDMA_MCM_PRELOAD_H
#define RDMA_MCM_PRELOAD_H

#include <pthread.h>
#include <stdint.h>
#include <sys/socket.h>
#include <rdma/rdma_cma.h>

#include "librdmamcm.h"

#define PL_HIDDEN	__attribute__((visibility("hidden")))

/* librdmacm's qp_num for a multicast destination */
#define PL_MCAST_QPN	0xFFFFFFu

/* --- real.c: librdmacm's own functions --------------------------------- */
struct pl_real {
	int (*join)(struct rdma_cm_id *id, struct sockaddr *addr, void *context);
	int (*join_ex)(struct rdma_cm_id *id,
		       struct rdma_cm_join_mc_attr_ex *attr, void *context);
	int (*leave)(struct rdma_cm_id *id, struct sockaddr *addr);
	int (*get_event)(struct rdma_event_channel *channel,
			 struct rdma_cm_event **event);
	int (*ack_event)(struct rdma_cm_event *event);
	int (*destroy_id)(struct rdma_cm_id *id);
	int (*migrate_id)(struct rdma_cm_id *id,
			  struct rdma_event_channel *channel);
	void (*destroy_channel)(struct rdma_event_channel *channel);
	void (*destroy_qp)(struct rdma_cm_id *id);
	int (*create_id)(struct rdma_event_channel *channel,
			 struct rdma_cm_id **id, void *context,
			 enum rdma_port_space ps);
	int (*create_ep)(struct rdma_cm_id **id, struct rdma_addrinfo *res,
			 struct ibv_pd *pd, struct ibv_qp_init_attr *attr);
	int (*resolve_addr)(struct rdma_cm_id *id, struct sockaddr *src,
			    struct sockaddr *dst, int timeout_ms);
};

PL_HIDDEN extern struct pl_real pl_real;
PL_HIDDEN void pl_real_init(void);

/* --- table.c: a chained hash table of records with a 64-bit key -------- */
struct pl_node {
	struct pl_node *next;
	uint64_t key;
};

struct pl_table {
	struct pl_node **slots;
	size_t mask;		/* slots - 1, a power of two minus one */
	size_t count;
};

PL_HIDDEN uint64_t pl_hash(const void *data, size_t len, uint64_t seed);
PL_HIDDEN int pl_table_add(struct pl_table *t, struct pl_node *n,
			   uint64_t key);
PL_HIDDEN void pl_table_del(struct pl_table *t, struct pl_node *n);
/* The first node of @key at or after @from (NULL: the start) */
PL_HIDDEN struct pl_node *pl_table_find(const struct pl_table *t,
					uint64_t key, struct pl_node *from);

/* --- config.c ----------------------------------------------------------- */
struct pl_sources {
	struct sockaddr_storage group;
	unsigned int count;
	struct sockaddr_storage addr[RDMA_MCM_MAX_SOURCES];
};

struct pl_config {
	int disabled;		/* RDMA_MCM_PRELOAD=0: every call is librdmacm's */
	int debug;		/* RDMA_MCM_PRELOAD_DEBUG: a line per decision */
	int heal;		/* RDMA_MCM_PRELOAD_HEAL (default 1) */
	unsigned int nr_sources;
	struct pl_sources *sources;
};

PL_HIDDEN extern struct pl_config pl_config;
PL_HIDDEN void pl_config_load(void);
PL_HIDDEN const struct pl_sources *pl_sources_for(const struct sockaddr *g);
PL_HIDDEN void pl_debug(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));

/* --- the records -------------------------------------------------------- */
struct pl_channel;

/* An rdma_cm_id with an rdma_mcm context (joined through us) */
struct pl_id {
	struct pl_node by_id;		/* key: the id's address */
	struct pl_node by_ctx;		/* key: ctx_id */
	struct rdma_cm_id *id;
	uint32_t ctx_id;
	int sgid_index;			/* -1 until a JOINED needs it */
	int removal_told;		/* a DEVICE_REMOVAL was queued */
	struct pl_mc *mcs;		/* its memberships */
};

/* One rdma_join_multicast() that rdma_mcm serves */
struct pl_mc {
	struct pl_node by_cookie;	/* key: cookie */
	struct pl_node by_addr;		/* key: hash of (id, group) */
	struct pl_mc *next;		/* in pl_id.mcs */
	struct pl_id *owner;
	uint64_t cookie;
	uint32_t handle;
	int sendonly;
	int attached;			/* QP attached to mgid/mlid */
	int healing;			/* detached at REJOINING, to attach again */
	int delivered;			/* its MULTICAST_JOIN was fetched */
	void *context;
	struct sockaddr_storage group;
	socklen_t group_len;
	union ibv_gid mgid;
	uint16_t mlid;
	struct pl_event *queued;	/* its undelivered events */
};

/* An event we made, as the program sees it */
struct pl_event {
	struct rdma_cm_event ev;	/* first: what get_cm_event hands out */
	struct pl_node by_ptr;		/* outstanding (fetched, not acked) */
	struct pl_event *prev, *next;	/* in the channel's queue */
	struct pl_event *mc_next;	/* in pl_mc.queued */
	struct pl_mc *mc;		/* while queued, a membership's */
	struct pl_id *pid;		/* while queued, the id's own */
	struct pl_channel *chan;	/* while queued */
};

/* An event channel that one of our ids uses */
struct pl_channel {
	struct pl_node by_ch;		/* key: the channel's address */
	struct rdma_event_channel *ch;
	struct pl_event *head, *tail;	/* events to deliver, oldest first */
	unsigned int queued;
	/* the doorbell: an id of ours whose ADDR_RESOLVED/ERROR makes fd readable */
	int bell_state;
	struct rdma_cm_id *bell;
	struct sockaddr_storage bell_addr;	/* a local address of the device */
	int bell_fired;			/* its event came while RINGING */
	int bell_failed;		/* logged once */
	/*
	 * Threads blocked in our rdma_get_cm_event() on this channel: they
	 * poll channel->fd and wake_fd, so events for them need no bell,
	 * only a write to wake_fd (an eventfd, made by the first of them)
	 */
	unsigned int waiters;
	int wake_fd;
};

/* RINGING: being created; UNRINGING: being destroyed, its event unwanted */
enum { PL_BELL_IDLE, PL_BELL_RINGING, PL_BELL_RUNG, PL_BELL_UNRINGING };

struct pl_state {
	pthread_mutex_t lock;
	int ready;			/* /dev/rdma_mcm is open, thread runs */
	int failed;			/* no /dev/rdma_mcm: librdmacm's calls */
	pid_t pid;			/* of the process that opened it */
	struct rdma_mcm_channel *mcm;
	int wake_fd;			/* eventfd: stops the reader */
	pthread_t reader;
	uint64_t next_cookie;
	uint64_t seed;
	/* outstanding last: a forked child keeps it (events.c) */
	struct pl_table ids, ctxs, mcs, addrs, chans, outstanding;
};

PL_HIDDEN extern struct pl_state pl;

/* events.c */
PL_HIDDEN int pl_start_reader(void);
PL_HIDDEN struct pl_channel *pl_channel_get(struct rdma_event_channel *ch,
					    const struct sockaddr *local);
PL_HIDDEN struct pl_channel *pl_channel_find(struct rdma_event_channel *ch);
PL_HIDDEN void pl_channel_free(struct pl_channel *c);
PL_HIDDEN void pl_event_unqueue(struct pl_event *e);
PL_HIDDEN void pl_mc_purge(struct pl_mc *mc);
PL_HIDDEN void pl_id_purge(struct pl_id *pid);
PL_HIDDEN void pl_ring(struct rdma_event_channel *ch);
PL_HIDDEN void pl_bell_wait(struct pl_channel *c);
PL_HIDDEN void pl_unring(struct rdma_event_channel *ch);
PL_HIDDEN int pl_needs_bell(const struct pl_channel *c);
PL_HIDDEN struct rdma_event_channel *pl_tell(struct pl_channel *c);
PL_HIDDEN void pl_lock(void);
PL_HIDDEN void pl_unlock(void);

/* calls.c */
PL_HIDDEN struct pl_id *pl_id_find(const struct rdma_cm_id *id);
PL_HIDDEN struct pl_id *pl_id_by_ctx(uint32_t ctx_id);
PL_HIDDEN struct pl_mc *pl_mc_by_cookie(uint64_t cookie);
PL_HIDDEN int pl_sgid_index(struct pl_id *pid);
PL_HIDDEN socklen_t pl_addr_len(const struct sockaddr *sa);

#endif
