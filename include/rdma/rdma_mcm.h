/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * rdma_mcm: kernel API of the RDMA multicast membership manager.
 *
 * A kernel ULP opens a context on a local source address, joins multicast
 * groups through it and leaves them again. The manager owns the rdma_cm_ids
 * (RDMA_PS_UDP, IB_QPT_UD) it joins on, routes their events, attaches and
 * detaches the ULP's UD QP, and tracks the state of every membership.
 * See Documentation/manager.rst for the state machine and the design.
 */
#ifndef _RDMA_MCM_H
#define _RDMA_MCM_H

#include <linux/bits.h>
#include <linux/socket.h>
#include <linux/types.h>
#include <rdma/ib_verbs.h>

/* Module version, reported by modinfo and at load time. */
#define RDMA_MCM_VERSION	"0.6.0"

/* The most sources one source-specific join takes (rdma_mcm_join_ex()). */
#define RDMA_MCM_MAX_SOURCES	64

struct net;
struct rdma_mcm_ctx;

/**
 * enum rdma_mcm_state - state of one membership
 * @RDMA_MCM_JOINING: the join was sent; no answer yet
 * @RDMA_MCM_JOINED: joined (and the QP, if any, attached)
 * @RDMA_MCM_ERROR: the join failed or the membership was lost; see the
 *	status. The handle stays valid until it is left.
 * @RDMA_MCM_WAITING: a healing context's membership lost its group (a
 *	transient error, or the device) and waits to be joined again: backoff,
 *	the rejoin rate limit, or no device yet. The handle stays valid.
 * @RDMA_MCM_LEAVING: a leave (or the cancel of a join in flight) is under
 *	way; never seen by a caller, who is the one leaving
 * @RDMA_MCM_LEFT: gone; never seen by a caller either
 * @RDMA_MCM_NR_STATES: the number of states, not a state
 */
enum rdma_mcm_state {
	RDMA_MCM_JOINING,
	RDMA_MCM_JOINED,
	RDMA_MCM_ERROR,
	RDMA_MCM_WAITING,
	RDMA_MCM_LEAVING,
	RDMA_MCM_LEFT,
	RDMA_MCM_NR_STATES,
};

/**
 * enum rdma_mcm_join_type - how to join a group
 * @RDMA_MCM_FULLMEMBER: send and receive (IB FullMember; RoCE IGMP or MLD
 *	join)
 * @RDMA_MCM_SENDONLY_FULLMEMBER: send only (IB SendOnlyFullMember; RoCE
 *	sends no IGMP or MLD join). A QP is never attached for a send-only
 *	join.
 */
enum rdma_mcm_join_type {
	RDMA_MCM_FULLMEMBER,
	RDMA_MCM_SENDONLY_FULLMEMBER,
};

/*
 * rdma_mcm_open_flags() flags.
 * RDMA_MCM_OPEN_HEAL: heal memberships (see &rdma_mcm_ops.rejoining).
 * RDMA_MCM_OPEN_ROUTE: @addr is a destination; the device and source
 *	address come from the route to it.
 */
#define RDMA_MCM_OPEN_HEAL	BIT(0)
#define RDMA_MCM_OPEN_ROUTE	BIT(1)

/**
 * struct rdma_mcm_join_info - what a ULP needs to use a joined group
 * @handle: the membership handle rdma_mcm_join() returned
 * @context: the per-membership context given to rdma_mcm_join()
 * @group: the group address
 * @join_type: the join type given to rdma_mcm_join()
 * @mgid: the multicast GID
 * @mlid: the multicast LID (0 on RoCE)
 * @qkey: the Q_Key to send with and to set on the QP
 * @ah_attr: address handle attributes for sending to the group; pass them
 *	to rdma_create_ah(). Valid during the callback only (copy them with
 *	rdma_copy_ah_attr() to keep them).
 * @rejoins: 0 for a first join, then how many times it was joined again
 */
struct rdma_mcm_join_info {
	u32 handle;
	void *context;
	struct sockaddr_storage group;
	enum rdma_mcm_join_type join_type;
	union ib_gid mgid;
	u16 mlid;
	u32 qkey;
	struct rdma_ah_attr ah_attr;
	u32 rejoins;
};

/**
 * struct rdma_mcm_ops - a ULP's callbacks
 * @joined: a join completed (and the QP, if any, is attached).
 * @error: a membership failed or was lost: the join was refused, the QP
 *	could not be attached (the group was left again), rdma_cm reported
 *	%RDMA_CM_EVENT_MULTICAST_ERROR, or the context lost its device
 *	(-ENODEV, before ->device_removed()). The membership is in
 *	%RDMA_MCM_ERROR until the ULP leaves it.
 * @device_removed: the context's RDMA device is going away (unregistered,
 *	or the source address moved to another device or port). Called once
 *	per context, whatever its memberships, after the ->error() calls of
 *	its memberships; every QP the manager attached is already detached.
 *	The device stays registered until this callback returns and no
 *	longer: the ULP releases every verbs object it made on the device
 *	(QPs, CQs, PDs, AHs, DMA mappings) before returning. The context
 *	stays open without a device: rdma_mcm_device() returns NULL, joins
 *	fail with -ENODEV, leave and close work. To build verbs objects on
 *	the device without a race against this callback, take the same lock
 *	in both, and call rdma_mcm_device() under it: once it has returned
 *	the device, this callback has not run yet and will wait for the lock.
 *
 * Callbacks run in process context on rdma_mcm's workqueue, one at a time
 * per context, never under a lock of rdma_mcm's, and not before
 * rdma_mcm_open() has done its work, but possibly before its caller has
 * stored the context it returns: @priv must be ready before
 * rdma_mcm_open() is called. They may sleep, and may call rdma_mcm_join(),
 * rdma_mcm_leave() and rdma_mcm_close() on their own context. Any of them
 * may be NULL.
 *
 * A context opened with %RDMA_MCM_OPEN_HEAL heals its memberships: a
 * transient error (-ENETRESET: a port or SM event; -ETIMEDOUT: the SA did
 * not answer; -ENOMEM) or the loss of the device makes a membership
 * %RDMA_MCM_WAITING, not %RDMA_MCM_ERROR, and the manager joins it again
 * on the same handle, with exponential backoff and within a rate limit per
 * device (module parameters rejoin_backoff_max_ms, rejoin_rate):
 *
 * @rejoining: a joined membership lost its group and will be joined again
 *	(@reason: the status that made it wait). The QP, if any, is detached.
 *	Only after ->joined(): a first join that fails transiently is tried
 *	again without a word (the membership is %RDMA_MCM_WAITING meanwhile,
 *	as rdma_mcm_query() shows), and ends in ->joined() or ->error().
 * @rejoined: it was joined again, with the new address handle attributes;
 *	the QP given to rdma_mcm_set_qp() (or to the join) is attached first.
 *	When NULL, ->joined() is called instead. A membership gets exactly
 *	one ->joined() before any ->rejoining() or ->rejoined().
 * @device_added: a healing context that lost its device has one again
 *	(rdma_mcm_device() returns it): the ULP builds its verbs objects on it
 *	and gives the manager its new QP with rdma_mcm_set_qp(); the waiting
 *	memberships are then joined again, each attached as it is rejoined.
 *
 * Closing a context tells nothing to ->device_removed(), and the device may
 * go as soon as rdma_mcm_close() has destroyed the context's ids: a ULP
 * releases its verbs objects on the device *before* it closes. As a QP
 * attached to a group cannot be destroyed, the order is: leave the
 * memberships that carry a QP (a leave detaches it), release the verbs
 * objects (under the lock ->device_removed() takes, which may have
 * released them already), then rdma_mcm_close().
 *
 * @owner: the ULP's module (THIS_MODULE): its name is the contexts' owner
 *	in the host's membership table (rdma-mcm show, the netlink family);
 *	"kernel" when NULL. No reference is taken: a ULP closes its contexts
 *	before it unloads anyway.
 */
struct rdma_mcm_ops {
	struct module *owner;
	void (*joined)(void *priv, const struct rdma_mcm_join_info *info);
	void (*error)(void *priv, u32 handle, void *context, int status);
	void (*device_removed)(void *priv);
	void (*rejoining)(void *priv, u32 handle, void *context, int reason);
	void (*rejoined)(void *priv, const struct rdma_mcm_join_info *info);
	void (*device_added)(void *priv);
};

/**
 * struct rdma_mcm_member_info - a snapshot of one membership
 * @handle: its handle
 * @state: its state
 * @status: the error when @state is %RDMA_MCM_ERROR, else 0
 * @join_type: the join type
 * @group: the group address
 * @context: the ULP's per-membership context
 * @qp_attached: the ULP's QP is attached to the group
 * @mgid: the multicast GID, once joined
 * @mlid: the multicast LID, once joined
 * @qkey: the Q_Key, once joined
 * @rejoins: times it was joined again
 * @last_status: the last error it had, kept after it recovered (0: none)
 * @state_time_ns: CLOCK_BOOTTIME of its last change of state, at the
 *	scheduler tick's resolution
 * @nr_sources: the sources of a source-specific join (0: any source)
 * @joined_by_mcm: rdma_mcm joined the group on the device itself (an IPv6
 *	group on RoCE v2, which rdma_cm refuses), not rdma_cm
 */
struct rdma_mcm_member_info {
	u32 handle;
	enum rdma_mcm_state state;
	int status;
	enum rdma_mcm_join_type join_type;
	struct sockaddr_storage group;
	void *context;
	bool qp_attached;
	union ib_gid mgid;
	u16 mlid;
	u32 qkey;
	u32 rejoins;
	int last_status;
	u64 state_time_ns;
	unsigned int nr_sources;
	bool joined_by_mcm;
};

/**
 * struct rdma_mcm_join_req - a join, with all it may say
 * @group: the group, as for rdma_mcm_join()
 * @join_type: as for rdma_mcm_join()
 * @qp: as for rdma_mcm_join()
 * @context: as for rdma_mcm_join()
 * @sources: @nr_sources unicast addresses of @group's family: a
 *	source-specific join (IGMPv3 / MLDv2 INCLUDE), or NULL
 * @nr_sources: 0 (any source) to %RDMA_MCM_MAX_SOURCES, each source once
 *
 * A struct, so that a ULP built against this header keeps building when a
 * field is added: zero-initialise it (designated initialisers).
 */
struct rdma_mcm_join_req {
	const struct sockaddr *group;
	enum rdma_mcm_join_type join_type;
	struct ib_qp *qp;
	void *context;
	const struct sockaddr_storage *sources;
	unsigned int nr_sources;
};

struct rdma_mcm_ctx *rdma_mcm_open(struct net *net, const struct sockaddr *src,
				   const struct rdma_mcm_ops *ops, void *priv);
struct rdma_mcm_ctx *rdma_mcm_open_flags(struct net *net,
					 const struct sockaddr *addr,
					 const struct rdma_mcm_ops *ops,
					 void *priv, u32 flags);
void rdma_mcm_close(struct rdma_mcm_ctx *ctx);
int rdma_mcm_set_qp(struct rdma_mcm_ctx *ctx, struct ib_qp *qp);
int rdma_mcm_join(struct rdma_mcm_ctx *ctx, const struct sockaddr *group,
		  enum rdma_mcm_join_type join_type, struct ib_qp *qp,
		  void *context, u32 *handle);
int rdma_mcm_join_ex(struct rdma_mcm_ctx *ctx,
		     const struct rdma_mcm_join_req *req, u32 *handle);
int rdma_mcm_leave(struct rdma_mcm_ctx *ctx, u32 handle);
int rdma_mcm_leave_addr(struct rdma_mcm_ctx *ctx, const struct sockaddr *group);
int rdma_mcm_query(struct rdma_mcm_ctx *ctx, u32 handle,
		   struct rdma_mcm_member_info *info);
int rdma_mcm_list(struct rdma_mcm_ctx *ctx, u32 start,
		  struct rdma_mcm_member_info *infos, unsigned int max,
		  u32 *next);
struct ib_device *rdma_mcm_device(struct rdma_mcm_ctx *ctx, u32 *port_num);
const char *rdma_mcm_state_name(enum rdma_mcm_state state);

#endif /* _RDMA_MCM_H */
