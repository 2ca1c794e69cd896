/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * rdma_mcm KUnit: a fake rdma_cm/verbs backend that misbehaves like the
 * real one.
 *
 * struct mcm_fake embeds the manager's backend ops and records every call.
 * Joins stay pending until a test completes them (or auto_complete does it
 * from inside the join call). What rdma_cm and ib_core can do, the fake
 * can do too:
 *  - deliver any event (MULTICAST_JOIN, MULTICAST_ERROR, DEVICE_REMOVAL)
 *    from inside bind, join, leave or destroy (struct mcm_fake_inject), the
 *    way rdma_cm's handlers run concurrently with those calls;
 *  - remove a device the way ib_core does (mcm_fake_remove_device()):
 *    rdma_mcm's ib_client hears of it first, then rdma_cm sends
 *    DEVICE_REMOVAL to every id still on it and waits until each is
 *    destroyed; also from another thread, started at any point of a call;
 *  - pause inside a call until the test lets it go;
 *  - tell when another thread's leave, destroy, IGMP/MLD leave or socket
 *    close waits behind a handler that a test holds in flight (inside a
 *    callback of rdma_mcm's), as rdma_cm's calls wait for a running one;
 *  - keep rdma_cm's UDP port space: a second id bound to an address and a
 *    non-zero port fails with -EADDRINUSE;
 *  - map IPv6 groups to MGIDs as rdma_cm does on InfiniBand (only the
 *    last ten bytes count), and refuse a QP attached twice to one MGID;
 *  - resolve a route context's route (ADDR_RESOLVED from inside the call,
 *    or ADDR_ERROR);
 *  - refuse an IPv6 group on a RoCE v2 port with -ENOTSUPP, as rdma_cm
 *    does (a device can be RoCE v1 instead, which takes it);
 *  - keep the netdev's IGMP/MLD state per group as the kernel does: the
 *    sockets rdma_mcm opens, each with its groups (at most 20 IPv4 groups
 *    a socket, igmp_max_memberships; at most 10 IPv4 or 64 IPv6 sources
 *    a group, igmp_max_msf / mld_max_msf: -ENOBUFS), and rdma_cm's own
 *    IGMP join of a full IPv4 member on RoCE v2, which is device-level:
 *    its join adds an any-source count that its leave does not take back
 *    while the group has other members, as ip_mc_dec_group() does not;
 *    the netdev's mode is EXCLUDE while an any-source count is there, else
 *    INCLUDE of the sources' union; a leave of a group a socket does not
 *    hold, a socket closed with groups, or a socket left open at the end
 *    fails the test; a device removal or a pause can fire from inside an
 *    IGMP/MLD join;
 *  - keep a clock of its own, which only the test moves, and record when
 *    (on that clock) each join was asked for: backoff and rate limits are
 *    checked without sleeping. The manager's rejoin work is not armed: a
 *    test runs it with rdma_mcm_rejoin_run().
 * Like rdma_cm, it calls the event handler under a lock that
 * rdma_destroy_id() also takes, so no event reaches a destroyed id.
 */
#ifndef _RDMA_MCM_FAKE_H
#define _RDMA_MCM_FAKE_H

#include <kunit/test.h>
#include <linux/completion.h>
#include <linux/hashtable.h>
#include <linux/mutex.h>
#include <linux/wait.h>
#include <rdma/ib_verbs.h>
#include <rdma/rdma_cm.h>

#include "../drivers/rdma_mcm_internal.h"

#define MCM_FAKE_NR_DEVS	2
#define MCM_FAKE_QKEY		0x01234567
#define MCM_FAKE_MLID		0xc001
#define MCM_FAKE_ROUTE_SRC	0xc0000263	/* 192.0.2.99: a route's source */
#define MCM_FAKE_IFINDEX0	100	/* device i's netdev: ifindex 100 + i */
#define MCM_FAKE_ARMS		4	/* contexts whose arming is kept */
/*
 * The status of mcm_fake_complete() for a MULTICAST_ERROR with status 0:
 * what rdma_cm sends when it cannot build the group's address handle
 * (cma_make_mc_event(): ib_init_ah_from_mcmember() failed)
 */
#define MCM_FAKE_NO_AH		1

struct mcm_fake_id {
	struct rdma_cm_id id;
	struct list_head node;
	struct sockaddr_storage bound;
	struct ib_gid_attr gid;		/* its source GID (sgid_attr) */
	bool destroyed;
};

struct mcm_fake_join {
	struct list_head node;
	struct hlist_node hnode;	/* in mcm_fake.join_hash */
	struct mcm_fake_id *fid;
	struct sockaddr_storage addr;
	u8 join_state;
	void *context;
	int leaves;		/* rdma_leave_multicast() calls for it */
	int events;		/* events delivered for it */
	unsigned int leave_seq;	/* call sequence number of the leave */
	bool igmp;		/* rdma_cm's device-level IGMP join is held */
	union ib_gid sa_mgid;	/* the MGID the SA made for a group of zeros */
};

/* Where in a call an injection fires */
enum mcm_fake_at {
	MCM_FAKE_AT_NONE,
	MCM_FAKE_AT_BIND,	/* after bind acquired the device */
	MCM_FAKE_AT_JOIN,	/* after the join was recorded */
	MCM_FAKE_AT_LEAVE,	/* before the leave takes effect */
	MCM_FAKE_AT_DESTROY,	/* before the id is destroyed */
	MCM_FAKE_AT_IP_JOIN,	/* inside an IGMP/MLD join, before it holds */
	MCM_FAKE_AT_NR,
};

/* What an injection does */
enum mcm_fake_do {
	MCM_FAKE_DO_DEVICE_REMOVAL,	/* that event to the call's id */
	MCM_FAKE_DO_MC_ERROR,		/* MULTICAST_ERROR for a join of the id */
	MCM_FAKE_DO_MC_JOIN,		/* MULTICAST_JOIN for a join of the id */
	MCM_FAKE_DO_REMOVE_DEVICE,	/* start ib_core's removal, other thread */
	MCM_FAKE_DO_PAUSE,		/* block until mcm_fake_resume() */
	MCM_FAKE_DO_GID_CHANGE,		/* ib_core's GID_CHANGE of the device */
	MCM_FAKE_DO_NR,
};

/**
 * struct mcm_fake_inject - something the fake does from inside a call
 * @at: the call (MCM_FAKE_AT_NONE: nothing)
 * @what: what it does there
 * @status: the MULTICAST_ERROR status
 * @skip: let this many calls at @at pass first
 * @fired: how many times it fired (at most once)
 */
struct mcm_fake_inject {
	enum mcm_fake_at at;
	enum mcm_fake_do what;
	int status;
	unsigned int skip;
	int fired;
};

/* A kernel socket rdma_mcm opened to hold IGMP/MLD memberships */
struct mcm_fake_sock {
	struct list_head node;
	struct list_head groups;	/* struct mcm_fake_sockgroup */
	sa_family_t family;
	int nr_groups;
	bool closed;
};

/* One group a socket holds, with its sources (none: any source) */
struct mcm_fake_sockgroup {
	struct list_head node;
	int ifindex;
	union rdma_mcm_addr group;
	unsigned int nr_sources;
	union rdma_mcm_ipaddr sources[RDMA_MCM_MAX_SOURCES];
};

/* The netdev's state of one group, as the kernel keeps it (ip_mc_list) */
struct mcm_fake_kgroup {
	struct list_head node;
	int ifindex;
	union rdma_mcm_addr group;
	int users;		/* sockets and device-level joins */
	int sfcount_ex;		/* any-source counts */
	int sfcount_in;		/* source-filtered members */
	unsigned int nr_sources;
	union rdma_mcm_ipaddr sources[RDMA_MCM_MAX_SOURCES];
	int source_count[RDMA_MCM_MAX_SOURCES];
};

/* The netdev's state of a group, as a test sees it */
struct mcm_fake_ipstate {
	int users;		/* members of any kind */
	int any_source;		/* any-source counts (EXCLUDE {}) */
	int source_specific;	/* INCLUDE members */
	bool exclude;		/* the netdev's mode: EXCLUDE (else INCLUDE) */
};

struct mcm_fake {
	struct rdma_mcm_backend be;
	struct kunit *test;
	struct mutex lock;	/* the fake's handler_mutex */
	/* leaves, destroys, closes waiting for @lock (an event handler's) */
	atomic_t lock_waiters;
	struct list_head ids;
	struct list_head joins;
	u32 sa_assigned;	/* groups the "SA" made (their MGIDs' serial) */
	/* the joins by id and group: a leave finds its own in O(1) */
	DECLARE_HASHTABLE(join_hash, 10);
	struct list_head attachments;
	struct list_head socks;		/* struct mcm_fake_sock */
	struct list_head kgroups;	/* struct mcm_fake_kgroup */
	struct list_head own_mgids;	/* MGIDs of roce_ah(): MLID 0 */
	wait_queue_head_t wq;	/* an id was destroyed */
	struct ib_device *ibdev[MCM_FAKE_NR_DEVS];
	bool ib[MCM_FAKE_NR_DEVS];	/* InfiniBand, not RoCE */
	bool roce_v1[MCM_FAKE_NR_DEVS];	/* RoCE v1: rdma_cm takes IPv6 groups */
	bool gone[MCM_FAKE_NR_DEVS];	/* removed: binds fail -ENODEV */
	struct ib_qp qp;	/* a QP a test can hand to joins */
	struct ib_qp qp2;

	/* knobs: the next calls fail with these */
	int create_ret;
	int bind_ret;
	int join_ret;
	int attach_ret;
	int ip_join_ret;	/* IGMP/MLD joins fail with it */
	int ip_sock_max;	/* groups a socket takes (0: IPv4 20, IPv6 any) */
	int ip_open_ret;	/* sock_create_kern() fails with it */
	int roce_ah_ret;	/* address handles of own joins fail with it */
	bool no_device;		/* bind succeeds but leaves id->device NULL */
	int resolve_ret;	/* rdma_resolve_addr() fails with it */
	int resolve_status;	/* ADDR_ERROR with it instead of ADDR_RESOLVED */
	struct sockaddr_storage route_src;	/* the source a route gives */
	bool auto_complete;	/* join events from inside the join call */
	int bind_dev;		/* the device binds land on */
	u32 bind_port;		/* and the port (1 or 2) */
	int bind_ifindex;	/* and the netdev (0: the device's own) */
	u32 bind_gid_index;	/* and the source GID's index */
	struct mcm_fake_inject inject;
	struct completion paused;
	struct completion resume;

	/* counters */
	unsigned int seq;	/* every call bumps it */
	int creates, binds, destroys, joins_called, leaves, attaches, detaches;
	int joins_v6_refused;	/* rdma_join_multicast() -ENOTSUPP: RoCE v2 */
	int ip_joins, ip_leaves, roce_ahs, ip_opens;
	int ip_live;		/* groups held in rdma_mcm's sockets */
	int ip_socks;		/* rdma_mcm's sockets open */
	int live_ids;
	int attached;		/* attach minus detach */
	unsigned int last_detach_seq;
	int nonzero_port_binds;	/* binds of an address with a port */

	/* the clock, the randomness, the rejoin work's arming */
	u64 clock_ms;
	u32 jitter;		/* random(range) answers min(jitter, range - 1) */
	int armed;		/* times the manager armed a rejoin run */
	/*
	 * arm the real rejoin work too, an hour ahead (it never runs in a
	 * test): a case can see whether it is still pending
	 */
	bool real_arm;
	unsigned long armed_delay_ms;
	/* the fake clock's time each context's rejoin work is armed for */
	spinlock_t arm_lock;
	struct {
		struct rdma_mcm_ctx *ctx;
		u64 due_ms;
	} arms[MCM_FAKE_ARMS];
	bool arms_full;		/* a context found no room: see mcm_fake_armed_for() */

	/* when each rdma_join_multicast() was called, on the clock */
	u64 *join_times;
	unsigned int nr_join_times;
	unsigned int max_join_times;

	/* a device removal running in another thread */
	struct task_struct *remover;
	struct completion removed;
	int remove_idx;
};

/* For the fake's own files (rdma_mcm_fake.c, rdma_mcm_fake_ip.c) */
static inline struct mcm_fake *to_fake(const struct rdma_mcm_backend *be)
{
	return container_of(be, struct mcm_fake, be);
}

static inline struct mcm_fake_id *to_fid(struct rdma_cm_id *id)
{
	return container_of(id, struct mcm_fake_id, id);
}

int mcm_fake_dev_idx(struct mcm_fake *fake, struct ib_device *dev);
bool mcm_fake_is_ib(struct mcm_fake *fake, struct ib_device *dev);
void mcm_fake_lock_waiting(struct mcm_fake *fake);
void mcm_fake_inject(struct mcm_fake *fake, enum mcm_fake_at at,
		     struct mcm_fake_id *fid, struct mcm_fake_join *join);
void mcm_fake_ip_init(struct mcm_fake *fake);
void mcm_fake_cm_igmp(struct mcm_fake *fake, struct mcm_fake_join *join,
		      bool leave);
u16 mcm_fake_mlid_of(struct mcm_fake *fake, const union ib_gid *gid);

struct mcm_fake *mcm_fake_create(struct kunit *test);
void mcm_fake_destroy(struct mcm_fake *fake);
void mcm_fake_set_ib(struct mcm_fake *fake, int idx, bool ib);
int mcm_fake_count_joins(struct mcm_fake *fake);
struct mcm_fake_join *mcm_fake_find_join(struct mcm_fake *fake,
					 const struct sockaddr *addr);
bool mcm_fake_complete(struct mcm_fake *fake, struct mcm_fake_join *join,
		       int status, bool even_if_left);
int mcm_fake_complete_all(struct mcm_fake *fake);
void mcm_fake_remove_device(struct mcm_fake *fake, int idx);
void mcm_fake_remove_device_async(struct mcm_fake *fake, int idx);
void mcm_fake_remove_wait(struct mcm_fake *fake);
void mcm_fake_add_device(struct mcm_fake *fake, int idx);
void mcm_fake_resume(struct mcm_fake *fake);
bool mcm_fake_wait_lock_waiters(struct mcm_fake *fake, int n);
int mcm_fake_live_ids_on(struct mcm_fake *fake, int idx);
void mcm_fake_mgid(bool ib, const struct sockaddr *addr, union ib_gid *mgid);
void mcm_fake_record_joins(struct mcm_fake *fake, unsigned int max);
int mcm_fake_attached_to(struct mcm_fake *fake, struct ib_qp *qp);
u64 mcm_fake_armed_for(struct mcm_fake *fake, struct rdma_mcm_ctx *ctx);
void mcm_fake_clear_armed(struct mcm_fake *fake, struct rdma_mcm_ctx *ctx);
struct mcm_fake_ipstate mcm_fake_ip_state(struct mcm_fake *fake, int ifindex,
					  const struct sockaddr *group);
int mcm_fake_ip_includes(struct mcm_fake *fake, int ifindex,
			 const struct sockaddr *group,
			 const struct sockaddr *src);

#endif /* _RDMA_MCM_FAKE_H */
