/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * rdma_mcm: internal declarations of the manager, shared by its source
 * files (the char device has its own, rdma_mcm_cdev.h, on top of this).
 *
 * Who does what:
 *   rdma_mcm_ctx.c      contexts: open, close, lifetime, losing the device
 *   rdma_mcm_member.c   memberships: their tables, leave, query, list
 *   rdma_mcm_join.c     joining: first joins, rejoins, set_qp
 *   rdma_mcm_slot.c     the rdma_cm_ids a context joins on
 *   rdma_mcm_heal.c     healing: waiting memberships, backoff, rejoins
 *   rdma_mcm_notify.c   rdma_cm events, the work, the ULP's callbacks
 *   rdma_mcm_state.c    the membership state machine
 *   rdma_mcm_device.c   RDMA devices and the contexts on them
 *   rdma_mcm_ib_client.c  the ib_client: ib_core's devices, their events,
 *                       and the order of its removal against ib_uverbs'
 *   rdma_mcm_addr.c     address checks
 *   rdma_mcm_admit.c    admission by the HCA's multicast limits
 *   rdma_mcm_ipmc.c     what rdma_cm cannot do: IPv6 groups on RoCE v2,
 *                       source-specific joins (the memberships' IGMP/MLD
 *                       side that rdma_mcm holds itself)
 *   rdma_mcm_rdma_cm.c  the rdma_cm and verbs calls (KUnit fakes them)
 *   rdma_mcm_net.c      the real backend's IGMP/MLD and address handle
 *                       calls for those (KUnit fakes them too)
 *   rdma_mcm_timing.c   kernel time of joins and leaves (make bench)
 *   rdma_mcm_observe.h  counters, tracepoints, the netlink family (and the
 *                       files behind them)
 *   rdma_mcm_cdev.h     the /dev/rdma_mcm char device (and its limits,
 *                       rdma_mcm_limits.h)
 *
 * Who may call whom (a function another file defines, or a variable it
 * keeps), in layers from the top:
 *   faces    rdma_mcm_cdev*.c, rdma_mcm_netlink.c, rdma_mcm_debugfs.c, and
 *            the exported API (in ctx, member, join, state): call the
 *            views, the manager and the leaves (the manager picks the
 *            backend: a face passes none, or a KUnit test's)
 *   views    rdma_mcm_dump.c, rdma_mcm_observe.c: call the manager and
 *            the leaves
 *   manager  ctx, member, join, slot, notify, heal, state, ipmc, device,
 *            ib_client: call each other, the backend (through ctx->be,
 *            and rdma_mcm_open_flags()'s rdma_mcm_rdma_cm_backend), the
 *            hooks of rdma_mcm_observe.c, and the leaves
 *   backend  rdma_mcm_rdma_cm.c, rdma_mcm_net.c (struct rdma_mcm_backend)
 *   leaves   addr, admit, counters, timing, limits, compat.h, trace.h
 * The backend and the leaves call nothing of the module (but each other).
 * The one call up: rdma_mcm_observe.c sends the netlink family's events
 * (rdma_mcm_nl_*_event()) where a change happens, as devlink and ethtool
 * notify from their cores. Below a face, nothing knows a face's types:
 * what the manager asks of one goes through struct rdma_mcm_face (the
 * views' filters likewise through callbacks). rdma_mcm_main.c, which
 * inits and exits every part in order, is above them all.
 *
 * Locking, outermost first:
 *   ctx->mutex          join, leave, close, slots, QP attach and detach,
 *                       the context's device, its IGMP/MLD sockets. Held
 *                       across rdma_cm calls and the IGMP/MLD ones (which
 *                       take the RTNL and the socket's lock);
 *                       never taken by the rdma_cm event handler, so that
 *                       rdma_leave_multicast() and rdma_destroy_id(), which
 *                       wait for a running handler, cannot deadlock on it.
 *   rdma_mcm_dev_lock   (rdma_mcm_device.c) ctx->device, the device list
 *   ctx->lock           member states and notifications, the pending list,
 *                       the callback bookkeeping, changes of ctx->members
 *                       (the handle tree). Taken with softirqs off (query
 *                       and list may be called from softirq context) by
 *                       the event handler.
 *   rdma_mcm_dev_counters_lock  (rdma_mcm_counters.c) a mutex: the list of
 *                       devices' counters, taken when a device is added
 *                       and by STATS_GET, under none of the above
 * The observation hooks (rdma_mcm_observe.c) run where a change happens,
 * state changes under ctx->lock: they count, trace and send the netlink
 * event there (GFP_ATOMIC, a socket's queue, no callback), which keeps a
 * context's events in order; so ctx->lock is never taken in hard
 * interrupt context. The netlink dump reads a /dev/rdma_mcm membership's
 * queued events under ctx->lock without the file's ev_lock (a snapshot).
 * ULP callbacks run from ctx->work with none of them held; in a context
 * opened with RDMA_MCM_OPEN_DIRECT, a JOINED may also be delivered from
 * rdma_cm's handler (rdma_mcm_notify.c), still one callback at a time, and
 * then possibly inside a call of the manager (ctx->mutex, and the char
 * device's file mutex, held by that caller).
 */
#ifndef _RDMA_MCM_INTERNAL_H
#define _RDMA_MCM_INTERNAL_H

#include <linux/completion.h>
#include <linux/fault-inject.h>
#include <linux/in.h>
#include <linux/in6.h>
#include <linux/jump_label.h>
#include <linux/ktime.h>
#include <linux/list.h>
#include <linux/memcontrol.h>
#include <linux/mutex.h>
#include <linux/refcount.h>
#include <linux/rbtree.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/types.h>
#include <linux/wait.h>
#include <linux/workqueue.h>
#include <linux/xarray.h>
#include <rdma/ib.h>
#include <rdma/rdma_cm.h>
#include <rdma/rdma_mcm.h>

#include "rdma_mcm_compat.h"
#include "rdma_mcm_observe.h"

struct dentry;
struct ib_device;
struct rdma_mcm_ipmc;

/*
 * RDMA_MCM_OPEN_DIRECT: the context's ->joined() and ->rejoined() only
 * queue something under a lock of their own, never sleep and never call
 * the manager, so they may run from rdma_cm's event handler, even inside
 * a call of the manager on the same context. Only the char device's
 * callbacks are such; rdma_mcm_open_flags() refuses the flag.
 */
#define RDMA_MCM_OPEN_DIRECT	BIT(31)

/*
 * RDMA_MCM_OPEN_USER: the context is a process's, opened through
 * /dev/rdma_mcm: its owner is the calling process (pid, command name,
 * effective uid), not a kernel ULP. Internal, like RDMA_MCM_OPEN_DIRECT.
 */
#define RDMA_MCM_OPEN_USER	BIT(30)

/*
 * Any address rdma_mcm keeps: 48 bytes (sockaddr_ib), not the 128 of a
 * sockaddr_storage, in every membership.
 */
union rdma_mcm_addr {
	struct sockaddr sa;
	struct sockaddr_in in;
	struct sockaddr_in6 in6;
	struct sockaddr_ib ib;
};

/**
 * struct rdma_mcm_backend - the rdma_cm and verbs calls the manager makes
 * @create_id: rdma_create_id() with RDMA_PS_UDP and IB_QPT_UD
 * @bind_addr: rdma_bind_addr()
 * @destroy_id: rdma_destroy_id()
 * @join: rdma_join_multicast()
 * @leave: rdma_leave_multicast()
 * @attach: ib_attach_mcast()
 * @detach: ib_detach_mcast()
 * @resolve_addr: rdma_resolve_addr() from no source to @dst (a route
 *	context); the outcome comes as ADDR_RESOLVED or ADDR_ERROR
 * @ip_open: a kernel UDP socket of @family in @net, to hold IGMP/MLD
 *	memberships in (*@sock)
 * @ip_close: close it (it holds none any more)
 * @ip_join: join @group on the netdev @ifindex through @sock: any-source
 *	when @ipmc has no sources, else with a source filter that includes
 *	exactly @ipmc's sources (IGMPv3 / MLDv2); -ENOBUFS when @sock holds
 *	as many groups as it may
 * @ip_leave: leave @group on @ifindex through @sock (all of its filter)
 * @roce_ah: the address handle attributes for sending to the group with
 *	MGID @mgid from @id's bound source address (its RoCE v2 GID), as
 *	rdma_cm's MULTICAST_JOIN would carry them
 * @now_ms: a monotonic clock in milliseconds (backoff, rate limit)
 * @random: a random number below @range (backoff jitter)
 * @arm: optional; run @ctx's rejoins in @delay_ms in its place (NULL, the
 *	real backend: rdma_mcm_heal.c arms the context's rejoin work itself;
 *	KUnit's fake records the delay and runs the rejoins on its own clock)
 *
 * rdma_mcm_rdma_cm.c has the real one; KUnit replaces it with a fake that
 * completes, delays, fails or drops joins and delivers events from inside
 * any call, as rdma_cm can. Every call gets the backend so that a fake can
 * find its own state. Errors are rdma_cm's own: the manager maps them to
 * the errnos it documents.
 */
struct rdma_mcm_backend {
	struct rdma_cm_id *(*create_id)(const struct rdma_mcm_backend *be,
					struct net *net,
					rdma_cm_event_handler handler,
					void *context);
	int (*bind_addr)(const struct rdma_mcm_backend *be,
			 struct rdma_cm_id *id, struct sockaddr *addr);
	void (*destroy_id)(const struct rdma_mcm_backend *be,
			   struct rdma_cm_id *id);
	int (*join)(const struct rdma_mcm_backend *be, struct rdma_cm_id *id,
		    struct sockaddr *addr, u8 join_state, void *context);
	void (*leave)(const struct rdma_mcm_backend *be, struct rdma_cm_id *id,
		      struct sockaddr *addr);
	int (*attach)(const struct rdma_mcm_backend *be, struct ib_qp *qp,
		      union ib_gid *gid, u16 lid);
	int (*detach)(const struct rdma_mcm_backend *be, struct ib_qp *qp,
		      union ib_gid *gid, u16 lid);
	int (*resolve_addr)(const struct rdma_mcm_backend *be,
			    struct rdma_cm_id *id, struct sockaddr *dst,
			    unsigned long timeout_ms);
	int (*ip_open)(const struct rdma_mcm_backend *be, struct net *net,
		       sa_family_t family, void **sock);
	void (*ip_close)(const struct rdma_mcm_backend *be, void *sock);
	int (*ip_join)(const struct rdma_mcm_backend *be, void *sock,
		       int ifindex, const union rdma_mcm_addr *group,
		       const struct rdma_mcm_ipmc *ipmc);
	void (*ip_leave)(const struct rdma_mcm_backend *be, void *sock,
			 int ifindex, const union rdma_mcm_addr *group);
	int (*roce_ah)(const struct rdma_mcm_backend *be, struct rdma_cm_id *id,
		       const union ib_gid *mgid, struct rdma_ah_attr *ah);
	u64 (*now_ms)(const struct rdma_mcm_backend *be);
	u32 (*random)(const struct rdma_mcm_backend *be, u32 range);
	void (*arm)(const struct rdma_mcm_backend *be, struct rdma_mcm_ctx *ctx,
		    unsigned long delay_ms);
};

extern const struct rdma_mcm_backend rdma_mcm_rdma_cm_backend;

/* rdma_mcm_net.c: the real backend's IGMP/MLD and address handle calls */
int rdma_mcm_net_ip_open(const struct rdma_mcm_backend *be, struct net *net,
			 sa_family_t family, void **sock);
void rdma_mcm_net_ip_close(const struct rdma_mcm_backend *be, void *sock);
int rdma_mcm_net_ip_join(const struct rdma_mcm_backend *be, void *sock,
			 int ifindex, const union rdma_mcm_addr *group,
			 const struct rdma_mcm_ipmc *ipmc);
void rdma_mcm_net_ip_leave(const struct rdma_mcm_backend *be, void *sock,
			   int ifindex, const union rdma_mcm_addr *group);
int rdma_mcm_net_roce_ah(const struct rdma_mcm_backend *be,
			 struct rdma_cm_id *id, const union ib_gid *mgid,
			 struct rdma_ah_attr *ah);

/**
 * struct rdma_mcm_face - what the manager may ask of the face that opened
 *	a context
 * @queued: how many events of a membership (known by its ULP context) the
 *	face queued and its owner has not read yet, a snapshot for the
 *	netlink dump; called under the context's spinlock: it must not sleep
 *	nor call the manager
 *
 * The char device's contexts have one (rdma_mcm_ufile_face); a kernel
 * ULP's has none. The manager and the views know a face only through
 * this, never by its types or its &rdma_mcm_ops.
 */
struct rdma_mcm_face {
	u32 (*queued)(const void *context);
};

/**
 * struct rdma_mcm_notice - a place on a context's queue of notifications
 * @node: entry in &rdma_mcm_ctx.pending while queued
 *
 * A membership's (see its @pending bits), or the context's device removed
 * or added (&rdma_mcm_ctx.removed_notice, .added_notice: told apart by
 * address). One queue per context keeps the order the ULP must see: a
 * membership's ->error() or ->rejoining() for a lost device before
 * ->device_removed(), ->device_added() before the ->rejoined() that
 * follow.
 */
struct rdma_mcm_notice {
	struct list_head node;
};

/* Notifications a membership has queued for its ULP (member->pending). */
#define RDMA_MCM_NOTIFY_JOINED		BIT(0)
#define RDMA_MCM_NOTIFY_ERROR		BIT(1)
#define RDMA_MCM_NOTIFY_REJOINING	BIT(2)
/* A context's own notices, as the mcm_deliver tracepoint names them */
#define RDMA_MCM_NOTIFY_DEVICE_REMOVED	BIT(3)
#define RDMA_MCM_NOTIFY_DEVICE_ADDED	BIT(4)

/**
 * struct rdma_mcm_slot - one rdma_cm_id and the memberships joined on it
 * @ctx: the owning context
 * @id: the rdma_cm_id, bound to the context's source address
 * @node: entry in @ctx->slots
 * @free_node: entry in @ctx->free_slots while it has room
 * @count: memberships joined on @id
 * @resolving: a route context's id waits for rdma_resolve_addr()
 * @resolve_status: its outcome (0: resolved)
 * @resolved: completed when it is known
 *
 * rdma_leave_multicast() scans the id's list of groups, so a context
 * spreads its memberships over several ids of at most rdma_mcm_slot_size
 * groups each: a leave then costs O(slot size), not O(memberships).
 * Every id of a context is bound to the context's device and port.
 * Protected by the context's mutex.
 */
struct rdma_mcm_slot {
	struct rdma_mcm_ctx *ctx;
	struct rdma_cm_id *id;
	struct list_head node;
	struct list_head free_node;
	unsigned int count;
	bool resolving;
	int resolve_status;
	struct completion resolved;
};

/*
 * Group as a tree key: the address bytes, zero padded; on InfiniBand the
 * bytes of an IPv6 group that rdma_cm's MGID keeps (see rdma_mcm_addr.c).
 */
struct rdma_mcm_key {
	u8 raw[16];
};

/* A source of a source-specific join: 4 or 16 bytes, of its group's family */
union rdma_mcm_ipaddr {
	__be32 v4;
	struct in6_addr v6;
};

/**
 * struct rdma_mcm_ipsock - a kernel socket that holds IGMP/MLD memberships
 * @node: entry in &rdma_mcm_ctx.ipsocks_free while it has @room
 * @sock: the backend's socket
 * @ifindex: the netdev its memberships are on
 * @count: memberships it holds
 * @room: how many more it takes (0: full, or a source filter's own)
 *
 * Any-source memberships share sockets (up to RDMA_MCM_IPSOCK_GROUPS, or
 * fewer where the namespace's igmp_max_memberships says so); a source
 * filter has a socket of its own, so that its source list is bounded by
 * the socket's option memory alone. A socket left empty holds nothing of
 * any netdev (a leave drops the group with its filter): it is kept as
 * &rdma_mcm_ctx.ipsock_spare, for the next membership of either kind on
 * any netdev. Protected by the context's mutex.
 */
struct rdma_mcm_ipsock {
	struct list_head node;
	void *sock;
	int ifindex;
	unsigned int count;
	unsigned int room;
};

/**
 * struct rdma_mcm_ipmc - the IGMP/MLD side of a RoCE full membership
 * @ipsock: the socket its membership of the group is held in; NULL while
 *	none is held
 * @own: its last join was rdma_mcm's own on the RDMA device, because
 *	rdma_cm refused (an IPv6 group on RoCE v2): rdma_cm holds nothing;
 *	reset when it is joined again
 * @nr_sources: sources of a source-specific join (0: any source)
 * @sources: their addresses
 *
 * Allocated with a source-specific join, or at a membership's first join
 * that needs it, and freed with the membership. @ipsock and @own change
 * under the context's mutex; the rest never.
 */
struct rdma_mcm_ipmc {
	struct rdma_mcm_ipsock *ipsock;
	bool own;
	u16 nr_sources;
	union rdma_mcm_ipaddr sources[];
};

/* What a membership holds of its group that leave gives back (->held) */
#define RDMA_MCM_HELD_CM	BIT(0)	/* rdma_cm's, joined by the group */
#define RDMA_MCM_HELD_CM_MGID	BIT(1)	/* ... by the MGID the SA assigned */
#define RDMA_MCM_HELD_ATTACH	BIT(2)	/* a place against the HCA's limits */

/**
 * struct rdma_mcm_membership - one membership
 * @ctx: the owning context
 * @slot: the slot it is joined on; NULL once its id is gone
 * @hnode: entry in @ctx->members, keyed by @handle
 * @gnode: entry in @ctx->groups, keyed by rdma_mcm_group_key() of @group
 * @group: the group address
 * @qp: the ULP's QP to attach, or NULL
 * @context: the ULP's per-membership context
 * @ah: the join event's address handle attributes (holding a GID table
 *	reference), kept only while its JOINED waits for the work: the
 *	callback takes them; NULL otherwise
 * @ipmc: the IGMP/MLD side rdma_mcm holds itself, or NULL (set once,
 *	under the context's mutex and lock)
 * @notice: its place in @ctx->pending while @pending is not zero
 * @wait_node: entry in @ctx->waiting while it waits for a rejoin
 * @state_time_ns: CLOCK_BOOTTIME of its last state change (coarse: a tick)
 * @join_ns: CLOCK_BOOTTIME of the join that made it (its age; coarse)
 * @due_ms: when a waiting membership may be joined again (be->now_ms)
 * @mgid: multicast GID
 * @handle: its handle in @ctx->members
 * @ref: references: the tables hold one, a callback in flight another
 * @state: see enum rdma_mcm_state; changed only by the transitions of
 *	rdma_mcm_state.c
 * @status: the error in %RDMA_MCM_ERROR
 * @last_status: the last error or reason it had (kept when it recovers)
 * @qkey: Q_Key
 * @rejoins: times it was joined again
 * @backoff_ms: the wait after its next failure
 * @join_type: full or send-only
 * @pending: RDMA_MCM_NOTIFY_* not yet delivered
 * @mlid: multicast LID
 * @held: RDMA_MCM_HELD_*: rdma_cm holds a membership that leave must
 *	drop, and the address it was joined with (@group, or the MGID the SA
 *	assigned to a group of zeros), and whether it holds a place for its
 *	QP's attachment against the device's limits (rdma_mcm_admit.c);
 *	see also @ipmc's @ipsock and @own: what rdma_mcm holds itself
 * @qp_attached: @qp is attached to the group
 * @have_join: @mgid, @mlid and @qkey are valid
 * @ever_joined: its ULP was told of a JOINED (under the spinlock): a JOINED
 *	from now on is a rejoin, which goes to ->rejoined() and counts in
 *	@rejoins; before it, a first join tried again after a transient
 *	error is not a rejoin, and no ->rejoining() is told (see &struct
 *	rdma_mcm_ops)
 *
 * @state, @status, @last_status, @state_time_ns, @pending, @ah and the
 * join data are protected by the context's spinlock; @rejoins and
 * @backoff_ms too when the membership becomes JOINED (the state machine
 * keeps that from racing with the mutex's holders); the rest is set
 * before the member is published or changed under the context's mutex.
 * Ordered by size, so that no byte is padding: every joined group costs
 * one of these (see Documentation/benchmark.rst, memory).
 */
struct rdma_mcm_membership {
	struct rdma_mcm_ctx *ctx;
	struct rdma_mcm_slot *slot;
	struct rb_node hnode;
	struct rb_node gnode;
	union rdma_mcm_addr group;
	struct ib_qp *qp;
	void *context;
	struct rdma_ah_attr *ah;
	struct rdma_mcm_ipmc *ipmc;
	struct rdma_mcm_notice notice;
	struct list_head wait_node;
	u64 state_time_ns;
	u64 join_ns;
	u64 due_ms;
	union ib_gid mgid;

	u32 handle;
	refcount_t ref;
	enum rdma_mcm_state state;
	int status;
	int last_status;
	u32 qkey;
	u32 rejoins;
	u32 backoff_ms;
	u8 join_type;		/* enum rdma_mcm_join_type */
	u8 pending;
	u16 mlid;
	u8 held;
	bool qp_attached;
	bool have_join;
	bool ever_joined;
};

/**
 * struct rdma_mcm_ctx - a ULP's manager context
 * @ref: the opener holds one reference until rdma_mcm_close() is done;
 *	device removal holds one while it waits for the context
 * @id: the context's index in the registry of every context
 * @net: network namespace (a reference is held)
 * @src: the local source address every id is bound to, port cleared; for
 *	a route context, the destination every id resolves a route to
 * @flags: RDMA_MCM_OPEN_*
 * @ops: the ULP's callbacks
 * @priv: the ULP's private pointer, passed to the callbacks
 * @be: rdma_cm/verbs backend
 * @face: the face that opened it (rdma_mcm_open_face()), or NULL
 * @mutex: see the locking notes at the top of this file
 * @lock: see the locking notes at the top of this file
 * @members: handle -> member, a tree in the members (lookups under
 *	@lock or @mutex; changes under both): nothing to allocate per
 *	membership, no node freed after RCU at each leave, and its memory
 *	follows the live memberships however scattered their handles
 * @groups: group key -> member, a tree in the members themselves: nothing
 *	to allocate, so all of it is charged with the memberships (an
 *	rhashtable's bucket tables come from lib/rhashtable, uncharged)
 * @next_handle: the next handle to try (handles are cyclic, never 0)
 * @nr_members: memberships in @members (under @lock)
 * @slots: every slot
 * @free_slots: slots with room for another membership
 * @nr_slots: length of @slots
 * @ipsocks_free: the IGMP/MLD sockets (struct rdma_mcm_ipsock) with room
 * @ipsock_spare: an IGMP/MLD socket left empty, kept for the next one
 *	needed (so that a join after a leave creates none), or NULL; closed
 *	when the context loses its device or is closed
 * @device: the RDMA device every id is bound to; NULL before the first
 *	bind and once the device is lost. Written under @mutex and
 *	rdma_mcm_dev_lock, read under either.
 * @port_num: the port of @device
 * @ib_mgid: the port is InfiniBand: groups are told apart by their MGID
 *	(set with @device; @groups is ordered again when it changes)
 * @mcast: the port can join multicast groups (RoCE, or IB with an SA)
 * @ifindex: the netdev its ids are bound on (their bound_dev_if; 0: none),
 *	set with @device: an id bound elsewhere means the address moved
 * @sgid_index: the index of their source GID, or -1 (not known), set with
 *	@device: an id with another means the GID entry changed
 * @removal: the device removal that told the context last (its number;
 *	under rdma_mcm_dev_lock, rdma_mcm_device.c)
 * @work: delivers notifications and handles device loss
 * @free_work: drops the opener's reference after a close from a callback
 * @pending: notices to deliver, in order (struct rdma_mcm_notice)
 * @cb_member: the member whose callback is running, or NULL
 * @cb_task: the task running a callback, or NULL
 * @cb_wq: woken when a callback returns
 * @direct: opened with RDMA_MCM_OPEN_DIRECT
 * @delivering: the work, or rdma_cm's handler, is delivering a notice:
 *	nobody else starts one
 * @open_done: rdma_mcm_open() has done its work: callbacks may run
 * @closing: rdma_mcm_close() was called: no more callbacks or joins
 * @device_lost: the device went away; joins fail with -ENODEV (a healing
 *	context's wait), until a device with the source address is found
 * @device_lost_pending: the work must take the device away
 * @removed_notice: ->device_removed(), when queued
 * @added_notice: ->device_added(), when queued
 * @waiting: memberships waiting for a rejoin, by @due_ms
 * @rejoin_work: joins waiting memberships again (rdma_mcm_heal.c)
 * @look_for_device: a device appeared, or the context's ids were destroyed:
 *	a context without a device tries to find one
 * @gid_changed: a GID table changed: a context without a device tries to
 *	find one, one with a device checks it is still its, at most once in
 *	RDMA_MCM_LOOK_MIN_MS (see @look_ms)
 * @rejoin_now: the port came back: waiting memberships need not wait
 * @look_ms: when the rejoin work last looked (or checked), on the
 *	backend's clock (under @mutex)
 * @retry_due_ms: when a look that failed (a healing context's search for a
 *	device, or a context's check of its device) is tried again (0: none
 *	owed; under @mutex)
 * @retry_backoff_ms: the backoff of those retries (under @mutex)
 * @turn_ms: when the rejoin turn the context holds in its device's budget
 *	comes (under @mutex; see rdma_mcm_dev_rejoin_turn())
 * @has_turn: it holds one (given up with its device)
 * @memcg: the opener's memory cgroup: what the context's works allocate
 *	(slots and ids of rejoins, a new device's) is charged to it
 * @owner: who opened it (set at open; @owner.file_ctx once after)
 * @counters: its counters (rdma_mcm_counters.c)
 * @dev_counters: its device's counters, or NULL (set with @device; kept
 *	for the module's life, so a stale pointer only counts in the
 *	previous device)
 */
struct rdma_mcm_ctx {
	refcount_t ref;
	u32 id;
	struct net *net;
	struct mem_cgroup *memcg;
	union rdma_mcm_addr src;
	u32 flags;
	const struct rdma_mcm_ops *ops;
	void *priv;
	const struct rdma_mcm_backend *be;
	const struct rdma_mcm_face *face;

	struct mutex mutex;	/* see above */
	spinlock_t lock;	/* see above */
	struct rb_root members;
	struct rb_root groups;
	u32 next_handle;
	u32 nr_members;
	struct list_head slots;
	struct list_head free_slots;
	unsigned int nr_slots;
	struct list_head ipsocks_free;
	struct rdma_mcm_ipsock *ipsock_spare;

	struct ib_device *device;
	u32 port_num;
	bool ib_mgid;
	bool mcast;
	int ifindex;
	int sgid_index;
	u64 removal;

	struct work_struct work;
	struct work_struct free_work;
	struct list_head pending;
	struct rdma_mcm_membership *cb_member;
	struct task_struct *cb_task;
	wait_queue_head_t cb_wq;
	bool direct;
	bool delivering;
	bool open_done;
	bool closing;
	bool device_lost;
	bool device_lost_pending;
	struct rdma_mcm_notice removed_notice;
	struct rdma_mcm_notice added_notice;

	struct list_head waiting;
	struct delayed_work rejoin_work;
	bool look_for_device;
	bool gid_changed;
	bool rejoin_now;
	bool has_turn;
	u32 retry_backoff_ms;
	u64 look_ms;
	u64 retry_due_ms;
	u64 turn_ms;

	struct rdma_mcm_owner owner;
	struct rdma_mcm_counters counters;
	struct rdma_mcm_counters *dev_counters;
};

/* rdma_mcm_state.c: the membership state machine */
bool rdma_mcm_transition_valid(enum rdma_mcm_state from,
			       enum rdma_mcm_state to);
void rdma_mcm_mb_joined(struct rdma_mcm_membership *mb);
bool rdma_mcm_mb_lost(struct rdma_mcm_ctx *ctx, struct rdma_mcm_membership *mb,
		      int status, bool tell);
void rdma_mcm_mb_failed(struct rdma_mcm_ctx *ctx,
			struct rdma_mcm_membership *mb, int err, bool tell);
void rdma_mcm_mb_rejoining(struct rdma_mcm_membership *mb);
void rdma_mcm_mb_refused(struct rdma_mcm_ctx *ctx,
			 struct rdma_mcm_membership *mb, int err);
void rdma_mcm_mb_leaving(struct rdma_mcm_ctx *ctx,
			 struct rdma_mcm_membership *mb);
void rdma_mcm_mb_left(struct rdma_mcm_membership *mb);

/* rdma_mcm_admit.c: admission by the HCA's multicast limits */
int rdma_mcm_admit_hold(const struct ib_device *device,
			const struct rdma_mcm_key *key);
void rdma_mcm_admit_release(const struct ib_device *device,
			    const struct rdma_mcm_key *key);
void rdma_mcm_admit_limits(const struct ib_device *device, u32 *vals);
void rdma_mcm_admit_usage(const struct ib_device *device, u32 *vals);

/* rdma_mcm_addr.c: address checks */
int rdma_mcm_addr_parse(const struct sockaddr *sa, size_t len,
			union rdma_mcm_addr *out);
void rdma_mcm_addr_clear_port(struct sockaddr *sa);
int rdma_mcm_src_parse(const struct sockaddr *sa, size_t len,
		       union rdma_mcm_addr *out);
int rdma_mcm_group_parse(const struct sockaddr *sa, size_t len,
			 sa_family_t family, union rdma_mcm_addr *out);
void rdma_mcm_group_key(const union rdma_mcm_addr *group, bool ib_mgid,
			struct rdma_mcm_key *key);
bool rdma_mcm_group_sa_assigned(const union rdma_mcm_addr *group);
void rdma_mcm_addr_to_storage(const union rdma_mcm_addr *addr,
			      struct sockaddr_storage *ss);
size_t rdma_mcm_sockaddr_len(const struct sockaddr *sa);

/* rdma_mcm_ctx.c: contexts */
struct rdma_mcm_ctx *rdma_mcm_open_face(struct net *net,
					const struct sockaddr *src,
					const struct rdma_mcm_ops *ops,
					void *priv,
					const struct rdma_mcm_backend *be,
					const struct rdma_mcm_face *face,
					u32 flags);
struct rdma_mcm_ctx *rdma_mcm_open_backend(struct net *net,
					   const struct sockaddr *src,
					   const struct rdma_mcm_ops *ops,
					   void *priv,
					   const struct rdma_mcm_backend *be,
					   u32 flags);
void rdma_mcm_ctx_put(struct rdma_mcm_ctx *ctx);

/**
 * struct rdma_mcm_ctx_info - where a context is (rdma_mcm_ctx_query())
 * @flags: its RDMA_MCM_OPEN_* flags
 * @src: the source address of its ids, port 0 (AF_UNSPEC: no device)
 * @port_num: its port (0: no device)
 * @node_guid: its device's node GUID (0: no device)
 * @dev_name: its device's name ("": no device)
 */
struct rdma_mcm_ctx_info {
	u32 flags;
	struct sockaddr_storage src;
	u32 port_num;
	__be64 node_guid;
	char dev_name[IB_DEVICE_NAME_MAX];
};

void rdma_mcm_ctx_query(struct rdma_mcm_ctx *ctx,
			struct rdma_mcm_ctx_info *info);
void rdma_mcm_ctx_lose_device(struct rdma_mcm_ctx *ctx);
void rdma_mcm_ctx_wait_device_lost(struct rdma_mcm_ctx *ctx);
void rdma_mcm_ctx_take_device(struct rdma_mcm_ctx *ctx);
int rdma_mcm_look_for_device(struct rdma_mcm_ctx *ctx);
void rdma_mcm_ctx_destroy_ids(struct rdma_mcm_ctx *ctx);
void rdma_mcm_flush(void);
int rdma_mcm_ctx_init(void);
void rdma_mcm_ctx_exit(void);
extern struct workqueue_struct *rdma_mcm_wq;

/* rdma_mcm_member.c: memberships */
struct rdma_mcm_membership *rdma_mcm_member_alloc(struct rdma_mcm_ctx *ctx,
						  enum rdma_mcm_join_type join_type);
void rdma_mcm_handle_add(struct rdma_mcm_ctx *ctx,
			 struct rdma_mcm_membership *mb);
void rdma_mcm_handle_del(struct rdma_mcm_ctx *ctx,
			 struct rdma_mcm_membership *mb);
int rdma_mcm_group_add(struct rdma_mcm_ctx *ctx, struct rdma_mcm_membership *mb);
void rdma_mcm_group_del(struct rdma_mcm_ctx *ctx,
			struct rdma_mcm_membership *mb);
int rdma_mcm_member_init(void);
void rdma_mcm_member_exit(void);
void rdma_mcm_member_put(struct rdma_mcm_membership *mb);
struct rdma_mcm_membership *rdma_mcm_member_find(struct rdma_mcm_ctx *ctx,
						 u32 handle);
int rdma_mcm_leave_context(struct rdma_mcm_ctx *ctx, u32 handle,
			   void **context);
void rdma_mcm_groups_rekey(struct rdma_mcm_ctx *ctx);
bool rdma_mcm_member_visible(const struct rdma_mcm_membership *mb);
struct rdma_mcm_membership *rdma_mcm_member_from(struct rdma_mcm_ctx *ctx,
						 u32 start);

static inline struct rdma_mcm_membership *rdma_mcm_member_of(struct rb_node *n)
{
	return n ? rb_entry(n, struct rdma_mcm_membership, hnode) : NULL;
}

/* A context's first membership by handle, or NULL; @ctx->mutex held. */
static inline struct rdma_mcm_membership *
rdma_mcm_member_first(struct rdma_mcm_ctx *ctx)
{
	return rdma_mcm_member_of(rb_first(&ctx->members));
}

/* The next membership by handle, or NULL; its context's mutex held. */
static inline struct rdma_mcm_membership *
rdma_mcm_member_next(struct rdma_mcm_membership *mb)
{
	return rdma_mcm_member_of(rb_next(&mb->hnode));
}

struct rdma_ah_attr *rdma_mcm_ah_alloc(struct rdma_mcm_ctx *ctx);
void rdma_mcm_ah_free(struct rdma_ah_attr *ah);
void rdma_mcm_member_let_go(struct rdma_mcm_ctx *ctx,
			    struct rdma_mcm_membership *mb, bool cm_leave,
			    bool give_slot);
void rdma_mcm_member_drop(struct rdma_mcm_ctx *ctx,
			  struct rdma_mcm_membership *mb, bool cm_leave);
void rdma_mcm_member_lose_device(struct rdma_mcm_ctx *ctx,
				 struct rdma_mcm_membership *mb);
int rdma_mcm_find_handle(struct rdma_mcm_ctx *ctx, const struct sockaddr *group,
			 u32 *handle);

/* rdma_mcm_join.c: joining */
int rdma_mcm_member_join(struct rdma_mcm_ctx *ctx,
			 struct rdma_mcm_membership *mb);
void rdma_mcm_member_unjoin(struct rdma_mcm_ctx *ctx,
			    struct rdma_mcm_membership *mb, bool cm_leave);
u8 rdma_mcm_join_state(enum rdma_mcm_join_type join_type);
int rdma_mcm_attach_hold(struct rdma_mcm_ctx *ctx,
			 struct rdma_mcm_membership *mb);
void rdma_mcm_attach_release(struct rdma_mcm_ctx *ctx,
			     struct rdma_mcm_membership *mb);

/* rdma_mcm_ipmc.c: IPv6 groups on RoCE v2, source-specific joins */
int rdma_mcm_sources_parse(const union rdma_mcm_addr *group,
			   enum rdma_mcm_join_type join_type,
			   const struct sockaddr_storage *sources,
			   unsigned int nr_sources, struct rdma_mcm_ipmc **ipmc);
void rdma_mcm_ipmc_free(struct rdma_mcm_ipmc *ipmc);
unsigned int rdma_mcm_nr_sources(const struct rdma_mcm_membership *mb);
int rdma_mcm_ipmc_hold(struct rdma_mcm_ctx *ctx, struct rdma_mcm_membership *mb,
		       struct rdma_cm_id *id);
bool rdma_mcm_own_join_wanted(const struct rdma_mcm_membership *mb,
			      struct rdma_cm_id *id, int cm_ret);
int rdma_mcm_own_join(struct rdma_mcm_ctx *ctx, struct rdma_mcm_membership *mb,
		      struct rdma_mcm_slot *slot);
void rdma_mcm_ipmc_release(struct rdma_mcm_ctx *ctx,
			   struct rdma_mcm_membership *mb);
void rdma_mcm_ipmc_drop_spare(struct rdma_mcm_ctx *ctx);
bool rdma_mcm_joined_by_mcm(const struct rdma_mcm_membership *mb);

/* rdma_mcm_slot.c: the context's rdma_cm_ids */
struct rdma_mcm_slot *rdma_mcm_slot_create(struct rdma_mcm_ctx *ctx);
int rdma_mcm_slot_probe(struct rdma_mcm_ctx *ctx);
struct rdma_mcm_slot *rdma_mcm_slot_get(struct rdma_mcm_ctx *ctx);
struct rdma_mcm_slot *rdma_mcm_slot_get_own(struct rdma_mcm_ctx *ctx);
void rdma_mcm_slot_put(struct rdma_mcm_ctx *ctx, struct rdma_mcm_slot *slot);
void rdma_mcm_slot_destroy(struct rdma_mcm_ctx *ctx,
			   struct rdma_mcm_slot *slot);
extern unsigned int rdma_mcm_slot_size;

/* rdma_mcm_heal.c: healing */
bool rdma_mcm_heals(struct rdma_mcm_ctx *ctx, int status);
void rdma_mcm_wait_start(struct rdma_mcm_ctx *ctx,
			 struct rdma_mcm_membership *mb, bool device);
void rdma_mcm_wait_stop(struct rdma_mcm_ctx *ctx,
			struct rdma_mcm_membership *mb);
void rdma_mcm_wait_for_device(struct rdma_mcm_ctx *ctx,
			      struct rdma_mcm_membership *mb);
u32 rdma_mcm_backoff_next(u32 backoff_ms);
u64 rdma_mcm_backoff_due(const struct rdma_mcm_backend *be, u64 now_ms,
			 u32 backoff_ms);
void rdma_mcm_rejoin_run(struct rdma_mcm_ctx *ctx);
void rdma_mcm_rejoin_work(struct work_struct *work);
void rdma_mcm_rejoin_kick(struct rdma_mcm_ctx *ctx);
/* The shortest time between two looks (or checks) of a context's device */
#define RDMA_MCM_LOOK_MIN_MS	250
extern unsigned int rdma_mcm_rejoin_rate;
extern unsigned int rdma_mcm_backoff_min_ms;
extern unsigned int rdma_mcm_backoff_max_ms;

/* rdma_mcm_notify.c: rdma_cm events and the ULP's callbacks */
int rdma_mcm_cm_handler(struct rdma_cm_id *id, struct rdma_cm_event *event);
void rdma_mcm_mc_event(struct rdma_mcm_ctx *ctx, struct rdma_mcm_slot *slot,
		       struct rdma_cm_event *event);
void rdma_mcm_notify(struct rdma_mcm_ctx *ctx, struct rdma_mcm_membership *mb,
		     unsigned int what);
void rdma_mcm_notify_ctx(struct rdma_mcm_ctx *ctx,
			 struct rdma_mcm_notice *notice);
void rdma_mcm_unnotify(struct rdma_mcm_ctx *ctx,
		       struct rdma_mcm_membership *mb);
void rdma_mcm_work(struct work_struct *work);
void rdma_mcm_cb_barrier(struct rdma_mcm_ctx *ctx,
			 struct rdma_mcm_membership *mb);

/* rdma_mcm_device.c: RDMA devices and the contexts bound to them */
unsigned int rdma_mcm_ib_device_count(void);
int rdma_mcm_dev_add(struct ib_device *device);
void rdma_mcm_dev_remove(struct ib_device *device);
void rdma_mcm_dev_rename(struct ib_device *device);
void rdma_mcm_dev_forget_all(void);
bool rdma_mcm_dev_removing(struct ib_device *device);
bool rdma_mcm_dev_mcast(const char *name, u32 *vals);
int rdma_mcm_registry_add(struct rdma_mcm_ctx *ctx);
void rdma_mcm_registry_del(struct rdma_mcm_ctx *ctx);
struct rdma_mcm_ctx *
rdma_mcm_registry_get(u32 from, u32 last,
		      bool (*match)(const struct rdma_mcm_ctx *ctx,
				    const void *arg),
		      const void *arg, char *name, size_t len, u32 *port_num);
void rdma_mcm_ctx_dev_name(struct rdma_mcm_ctx *ctx, char *name, size_t len);

/**
 * struct rdma_mcm_where - where an rdma_cm_id of a context landed
 * @device: its RDMA device
 * @port_num: its port
 * @ifindex: the netdev it is bound on (bound_dev_if)
 * @sgid_index: its source GID's index, or -1 when rdma_cm gave none
 */
struct rdma_mcm_where {
	struct ib_device *device;
	u32 port_num;
	int ifindex;
	int sgid_index;
};

void rdma_mcm_id_where(const struct rdma_cm_id *id, struct rdma_mcm_where *w);
int rdma_mcm_ctx_set_device(struct rdma_mcm_ctx *ctx,
			    const struct rdma_mcm_where *w);
bool rdma_mcm_ctx_is_at(struct rdma_mcm_ctx *ctx,
			const struct rdma_mcm_where *w);
void rdma_mcm_ctx_clear_device(struct rdma_mcm_ctx *ctx);
u64 rdma_mcm_dev_rejoin_turn(struct ib_device *device, u64 now_ms);
/* What rdma_mcm_dev_changed() is told */
enum rdma_mcm_dev_change {
	RDMA_MCM_DEV_ADDED,
	RDMA_MCM_DEV_GID_CHANGED,
	RDMA_MCM_DEV_PORT_UP,
};

void rdma_mcm_dev_changed(struct ib_device *device, u32 port_num,
			  enum rdma_mcm_dev_change what);
/* contexts a registry walk passes under its lock at a time (KUnit: fewer) */
extern unsigned int rdma_mcm_walk_batch;

/* rdma_mcm_ib_client.c: the ib_client (devices, their events, removal) */
int rdma_mcm_device_register(void);
void rdma_mcm_device_unregister(void);

/* rdma_mcm_debugfs.c: /sys/kernel/debug/rdma_mcm */
void rdma_mcm_debugfs_init(void);
void rdma_mcm_debugfs_exit(void);

/*
 * rdma_mcm_timing.c: a join's and a leave's kernel time and instructions
 * (make bench). While timing is on, each measured call is also framed by
 * two marker instructions, multi-byte NOPs that the bench's instruction
 * counter (tools/testing/bench/mcm_insn_plugin.c, a QEMU plugin) sees:
 * "nopl disp32(%rax)" with disp32 = 'M' 'C' <kind> <what>, kind 'K' at
 * the call's start and 'k' at its end (tools/testing/bench/mcm_mark.h has
 * the layout; the kinds and values here must match the plugin's).
 */
enum rdma_mcm_timed {
	RDMA_MCM_TIMED_JOIN_IOCTL,
	RDMA_MCM_TIMED_LEAVE_IOCTL,
	RDMA_MCM_TIMED_CM_JOIN,
	RDMA_MCM_TIMED_CM_LEAVE,
	RDMA_MCM_TIMED_NR,
};

/* @kind and @what are constants: they are the instruction's immediates */
static __always_inline void rdma_mcm_mark(const u8 kind, const u8 what)
{
#ifdef CONFIG_X86_64
	asm volatile(".byte 0x0f, 0x1f, 0x80, %c0, %c1, 0x43, 0x4d"
		     : : "i" (what), "i" (kind) : "memory");
#endif
}

DECLARE_STATIC_KEY_FALSE(rdma_mcm_timing_on);
void __rdma_mcm_time_end(enum rdma_mcm_timed what, u64 start);
void rdma_mcm_timing_init(struct dentry *dir);
void rdma_mcm_timing_exit(void);

/*
 * 0 when timing is off: rdma_mcm_time_end() then does nothing. @what is
 * a constant (the marker's immediate).
 */
static __always_inline u64 rdma_mcm_time_start(const enum rdma_mcm_timed what)
{
	u64 t;

	if (!static_branch_unlikely(&rdma_mcm_timing_on))
		return 0;
	t = ktime_get_ns() ?: 1;
	rdma_mcm_mark('K', what);
	return t;
}

static __always_inline void rdma_mcm_time_end(const enum rdma_mcm_timed what,
					      u64 start)
{
	if (unlikely(start)) {
		rdma_mcm_mark('k', what);
		__rdma_mcm_time_end(what, start);
	}
}

/*
 * Fault injection (the attribute is rdma_mcm_counters.c's). Every
 * allocation on the open, join and create-context paths (ours, and the
 * ones rdma_cm makes for us) asks rdma_mcm_fail_alloc() first and fails
 * with -ENOMEM when told to. With CONFIG_FAULT_INJECTION
 * it is a fault_attr: the Nth call fails after "N > fail-nth" (the
 * task's current->fail_nth, which the KUnit fault cases use), or at the
 * rate set in debugfs rdma_mcm/fail_alloc/ with
 * CONFIG_FAULT_INJECTION_DEBUG_FS (Documentation/fault-injection). Without
 * it, it compiles away. Leave and close paths allocate nothing.
 */
#ifdef CONFIG_FAULT_INJECTION
extern struct fault_attr rdma_mcm_fail_alloc_attr;

static inline bool rdma_mcm_fail_alloc(void)
{
	return should_fail(&rdma_mcm_fail_alloc_attr, 1);
}
#else
static inline bool rdma_mcm_fail_alloc(void)
{
	return false;
}
#endif

#endif /* _RDMA_MCM_INTERNAL_H */
