/* SPDX-License-Identifier: ((GPL-2.0 WITH Linux-syscall-note) OR Linux-OpenIB) */
/*
 * rdma_mcm: the generic netlink family "rdma_mcm", the host's view of every
 * multicast membership rdma_mcm holds. Documentation/netlink.rst describes
 * it, Documentation/netlink/specs/rdma_mcm.yaml is its spec.
 *
 * Per network namespace: a socket sees the contexts opened in its own
 * namespace. A caller with CAP_NET_ADMIN in the namespace's user namespace
 * sees all of them, kernel ULPs' included; any other caller sees only the
 * contexts its effective uid opened through /dev/rdma_mcm. The "events"
 * multicast group needs CAP_NET_ADMIN there too; STATS_GET, whose figures
 * are the host's, CAP_NET_ADMIN in the initial user namespace.
 *
 * Rules of the family, as for any generic netlink ABI: attributes are only
 * ever added (a reader skips those it does not know), a request carrying
 * an attribute the kernel does not know is refused (strict validation,
 * the generic netlink header's reserved field too), and numbers never
 * change.
 */
#ifndef _UAPI_RDMA_MCM_NETLINK_H
#define _UAPI_RDMA_MCM_NETLINK_H

#define RDMA_MCM_GENL_NAME		"rdma_mcm"
#define RDMA_MCM_GENL_VERSION		1
#define RDMA_MCM_GENL_MCGRP_EVENTS	"events"

/**
 * enum rdma_mcm_nl_cmd - commands of the family
 * @RDMA_MCM_CMD_UNSPEC: not a command
 * @RDMA_MCM_CMD_MEMBER_GET: dump the memberships the caller may see, one
 *	message each, ordered by (%RDMA_MCM_A_CTX_ID, %RDMA_MCM_A_HANDLE). A
 *	dump resumes where its last message ended: a membership that exists
 *	for the whole dump is reported exactly once; one joined or left
 *	meanwhile may or may not be. Request attributes (all optional)
 *	filter: %RDMA_MCM_A_CTX_ID.
 * @RDMA_MCM_CMD_CTX_GET: dump the contexts the caller may see, with their
 *	owner, device and %RDMA_MCM_A_COUNTERS; same order and resumption
 * @RDMA_MCM_CMD_STATS_GET: one message: the module's counters, limits and
 *	usage, and the counters of each RDMA device it has seen
 *	(%RDMA_MCM_A_DEVICE nests). Host-wide: needs CAP_NET_ADMIN in the
 *	initial user namespace; takes no attribute
 * @RDMA_MCM_CMD_EVENT: a notification on the "events" group; its type is
 *	in %RDMA_MCM_A_EVENT
 * @__RDMA_MCM_CMD_MAX: number of commands
 */
enum rdma_mcm_nl_cmd {
	RDMA_MCM_CMD_UNSPEC,
	RDMA_MCM_CMD_MEMBER_GET,
	RDMA_MCM_CMD_CTX_GET,
	RDMA_MCM_CMD_STATS_GET,
	RDMA_MCM_CMD_EVENT,
	__RDMA_MCM_CMD_MAX,
};

#define RDMA_MCM_CMD_MAX	(__RDMA_MCM_CMD_MAX - 1)

/**
 * enum rdma_mcm_nl_attr - attributes of the family
 * @RDMA_MCM_A_UNSPEC: not an attribute
 * @RDMA_MCM_A_PAD: padding of 64-bit attributes
 * @RDMA_MCM_A_CTX_ID: u32, the context's id, unique on the host while it
 *	is open
 * @RDMA_MCM_A_HANDLE: u32, the membership's handle in its context
 * @RDMA_MCM_A_OWNER_KIND: u8, enum rdma_mcm_nl_owner
 * @RDMA_MCM_A_OWNER_PID: u32, the process that created the context, in
 *	the reader's pid namespace (absent for a kernel ULP, a process that
 *	has exited, or one the reader cannot see). In events: the initial
 *	pid namespace's, and only for contexts of a network namespace of the
 *	initial user namespace
 * @RDMA_MCM_A_OWNER_UID: u32, its effective uid in the reader's user
 *	namespace (absent for a kernel ULP)
 * @RDMA_MCM_A_OWNER_NAME: string, the process's command name, or the
 *	kernel ULP's module name ("kernel" when it gave none)
 * @RDMA_MCM_A_FILE_CTX: u32, the context's id in its /dev/rdma_mcm file
 *	(the ctx_id of the ioctl ABI; absent for a kernel ULP)
 * @RDMA_MCM_A_NETNS: u32, inode number of the context's network namespace
 *	(as in /proc/PID/ns/net)
 * @RDMA_MCM_A_DEV_NAME: string, the RDMA device (absent while the
 *	context has none)
 * @RDMA_MCM_A_PORT: u32, its port
 * @RDMA_MCM_A_NETDEV: string, the port's network device, if any
 * @RDMA_MCM_A_FAMILY: u16, address family of @RDMA_MCM_A_SRC and
 *	@RDMA_MCM_A_GROUP (AF_INET, AF_INET6, AF_IB)
 * @RDMA_MCM_A_SRC: binary, the context's source address (4 bytes for
 *	AF_INET, 16 for AF_INET6 and AF_IB: the address or GID, network
 *	order); for a route context, the destination it resolves
 * @RDMA_MCM_A_GROUP: binary, the group, as @RDMA_MCM_A_SRC
 * @RDMA_MCM_A_MGID: binary, 16 bytes, the multicast GID (once joined)
 * @RDMA_MCM_A_MLID: u16, the multicast LID (once joined; 0 on RoCE)
 * @RDMA_MCM_A_QKEY: u32, the Q_Key (once joined)
 * @RDMA_MCM_A_JOIN_TYPE: u8, RDMA_MCM_JOIN_FULLMEMBER (0) or
 *	RDMA_MCM_JOIN_SENDONLY_FULLMEMBER (1) of rdma_mcm_abi.h
 * @RDMA_MCM_A_STATE: u8, enum rdma_mcm_nl_state
 * @RDMA_MCM_A_STATUS: s32, the error of an error state, the reason of a
 *	waiting one (a negative errno), else 0
 * @RDMA_MCM_A_LAST_STATUS: s32, the last error it had, kept after it
 *	recovered (0: none)
 * @RDMA_MCM_A_AGE_MS: u64, milliseconds since the join was asked for
 *	(in CTX_GET: since the context was opened)
 * @RDMA_MCM_A_STATE_AGE_MS: u64, milliseconds in its present state
 * @RDMA_MCM_A_REJOINS: u32, times it was joined again
 * @RDMA_MCM_A_QUEUED: u32, events of it not yet delivered to its owner
 *	(not yet read, for /dev/rdma_mcm)
 * @RDMA_MCM_A_QP_ATTACHED: flag, a QP is attached to the group for it
 * @RDMA_MCM_A_CTX_FLAGS: u32, the context's flags, as RDMA_MCM_CTX_HEAL
 *	(1) and RDMA_MCM_CTX_ROUTE (2) of rdma_mcm_abi.h
 * @RDMA_MCM_A_MEMBERS: u32, memberships of the context
 * @RDMA_MCM_A_COUNTERS: nest of u64 counters, each attribute type an
 *	enum rdma_mcm_nl_counter; type 0 (%RDMA_MCM_CNT_UNSPEC) in the nest
 *	is padding, to be skipped
 * @RDMA_MCM_A_JOIN_FAILURES: nest of %RDMA_MCM_A_ERRNO_COUNT: joins
 *	refused when asked for, by errno
 * @RDMA_MCM_A_ERRORS: nest of %RDMA_MCM_A_ERRNO_COUNT: memberships that
 *	failed or started waiting, by status
 * @RDMA_MCM_A_ERRNO_COUNT: nest of %RDMA_MCM_A_ERRNO and %RDMA_MCM_A_COUNT
 * @RDMA_MCM_A_ERRNO: u32, a positive errno (0: any other)
 * @RDMA_MCM_A_COUNT: u64, how many times
 * @RDMA_MCM_A_LIMITS: nest of u32 limits, each attribute type an
 *	enum rdma_mcm_nl_limit (the module parameters)
 * @RDMA_MCM_A_USAGE: nest of u32 counts of objects alive, each attribute
 *	type an enum rdma_mcm_nl_usage
 * @RDMA_MCM_A_DEVICE: nest: one RDMA device's name (%RDMA_MCM_A_DEV_NAME)
 *	and %RDMA_MCM_A_COUNTERS, %RDMA_MCM_A_JOIN_FAILURES, %RDMA_MCM_A_ERRORS
 * @RDMA_MCM_A_EVENT: u8, enum rdma_mcm_nl_event, in %RDMA_MCM_CMD_EVENT
 * @RDMA_MCM_A_TIME_NS: u64, CLOCK_BOOTTIME of the event
 * @RDMA_MCM_A_EVENTS_LOST: u64, events that could not be built, or that
 *	a listener which set NETLINK_BROADCAST_ERROR could not take (its
 *	socket full), since the module loaded. A listener whose socket
 *	overflowed gets ENOBUFS from recv() in any case
 * @RDMA_MCM_A_SOURCES: nest of %RDMA_MCM_A_SOURCE: the sources of a
 *	source-specific join (absent: any source)
 * @RDMA_MCM_A_SOURCE: binary, one source, as @RDMA_MCM_A_SRC
 * @RDMA_MCM_A_JOINED_BY: u8, enum rdma_mcm_nl_joiner: who joined the group
 *	on the RDMA device (once joined)
 * @RDMA_MCM_A_MCAST: nest of u32, each attribute type an
 *	enum rdma_mcm_nl_mcast: in %RDMA_MCM_A_DEVICE, the device's multicast
 *	limits and rdma_mcm's places held against them (a device rdma_mcm
 *	knows as registered now)
 * @__RDMA_MCM_A_MAX: number of attributes
 */
enum rdma_mcm_nl_attr {
	RDMA_MCM_A_UNSPEC,
	RDMA_MCM_A_PAD,
	RDMA_MCM_A_CTX_ID,
	RDMA_MCM_A_HANDLE,
	RDMA_MCM_A_OWNER_KIND,
	RDMA_MCM_A_OWNER_PID,
	RDMA_MCM_A_OWNER_UID,
	RDMA_MCM_A_OWNER_NAME,
	RDMA_MCM_A_FILE_CTX,
	RDMA_MCM_A_NETNS,
	RDMA_MCM_A_DEV_NAME,
	RDMA_MCM_A_PORT,
	RDMA_MCM_A_NETDEV,
	RDMA_MCM_A_FAMILY,
	RDMA_MCM_A_SRC,
	RDMA_MCM_A_GROUP,
	RDMA_MCM_A_MGID,
	RDMA_MCM_A_MLID,
	RDMA_MCM_A_QKEY,
	RDMA_MCM_A_JOIN_TYPE,
	RDMA_MCM_A_STATE,
	RDMA_MCM_A_STATUS,
	RDMA_MCM_A_LAST_STATUS,
	RDMA_MCM_A_AGE_MS,
	RDMA_MCM_A_STATE_AGE_MS,
	RDMA_MCM_A_REJOINS,
	RDMA_MCM_A_QUEUED,
	RDMA_MCM_A_QP_ATTACHED,
	RDMA_MCM_A_CTX_FLAGS,
	RDMA_MCM_A_MEMBERS,
	RDMA_MCM_A_COUNTERS,
	RDMA_MCM_A_JOIN_FAILURES,
	RDMA_MCM_A_ERRORS,
	RDMA_MCM_A_ERRNO_COUNT,
	RDMA_MCM_A_ERRNO,
	RDMA_MCM_A_COUNT,
	RDMA_MCM_A_LIMITS,
	RDMA_MCM_A_USAGE,
	RDMA_MCM_A_DEVICE,
	RDMA_MCM_A_EVENT,
	RDMA_MCM_A_TIME_NS,
	RDMA_MCM_A_EVENTS_LOST,
	RDMA_MCM_A_SOURCES,
	RDMA_MCM_A_SOURCE,
	RDMA_MCM_A_JOINED_BY,
	RDMA_MCM_A_MCAST,
	__RDMA_MCM_A_MAX,
};

#define RDMA_MCM_A_MAX	(__RDMA_MCM_A_MAX - 1)

/**
 * enum rdma_mcm_nl_owner - who opened a context
 * @RDMA_MCM_OWNER_USER: a process, through /dev/rdma_mcm
 * @RDMA_MCM_OWNER_KERNEL: a kernel ULP, through rdma_mcm_open()
 */
enum rdma_mcm_nl_owner {
	RDMA_MCM_OWNER_USER,
	RDMA_MCM_OWNER_KERNEL,
};

/**
 * enum rdma_mcm_nl_joiner - who joined a group on the RDMA device
 * @RDMA_MCM_JOINER_RDMA_CM: rdma_cm (rdma_join_multicast(): the SA on
 *	InfiniBand, IGMP for an IPv4 group on RoCE v2)
 * @RDMA_MCM_JOINER_RDMA_MCM: rdma_mcm itself: an IPv6 group on RoCE v2,
 *	which rdma_cm refuses; rdma_mcm sends its MLD reports
 *
 * A source-specific join's IGMPv3 / MLDv2 source filter is rdma_mcm's in
 * either case.
 */
enum rdma_mcm_nl_joiner {
	RDMA_MCM_JOINER_RDMA_CM = 1,
	RDMA_MCM_JOINER_RDMA_MCM = 2,
};

/**
 * enum rdma_mcm_nl_state - a membership's state (as the kernel API's)
 * @RDMA_MCM_NL_JOINING: the join was sent; no answer yet
 * @RDMA_MCM_NL_JOINED: joined (and the QP, if any, attached)
 * @RDMA_MCM_NL_ERROR: failed or lost; %RDMA_MCM_A_STATUS says why
 * @RDMA_MCM_NL_WAITING: lost, to be joined again (healing context)
 */
enum rdma_mcm_nl_state {
	RDMA_MCM_NL_JOINING,
	RDMA_MCM_NL_JOINED,
	RDMA_MCM_NL_ERROR,
	RDMA_MCM_NL_WAITING,
};

/**
 * enum rdma_mcm_nl_counter - counters (attribute types in a
 *	%RDMA_MCM_A_COUNTERS nest)
 * @RDMA_MCM_CNT_UNSPEC: not a counter
 * @RDMA_MCM_CNT_JOINS: joins asked for and accepted
 * @RDMA_MCM_CNT_JOIN_FAILED: joins refused when asked for (by errno in
 *	%RDMA_MCM_A_JOIN_FAILURES)
 * @RDMA_MCM_CNT_JOINED: joins (and rejoins) that completed
 * @RDMA_MCM_CNT_LEAVES: memberships left after their join completed or
 *	failed (by leave, or by closing the context)
 * @RDMA_MCM_CNT_CANCELS: memberships left before their first join
 *	completed (a leave during a rejoin counts in %RDMA_MCM_CNT_LEAVES)
 * @RDMA_MCM_CNT_ERRORS: memberships that failed (by status in
 *	%RDMA_MCM_A_ERRORS)
 * @RDMA_MCM_CNT_WAITS: memberships that lost their group and wait to be
 *	joined again (by reason in %RDMA_MCM_A_ERRORS)
 * @RDMA_MCM_CNT_REJOINS: rejoins sent
 * @RDMA_MCM_CNT_DEVICE_LOSSES: contexts that lost their device
 * @RDMA_MCM_CNT_DEVICE_ADDS: healing contexts that found a device again
 * @RDMA_MCM_CNT_DELIVERED: events handed to their owner: a kernel ULP's
 *	callback called, or an event queued on a /dev/rdma_mcm file
 * @RDMA_MCM_CNT_PURGED: events dropped before their owner had them: queued
 *	for a membership that was left (or whose context closed) first, or
 *	queued on a file and not read before the membership was left (such
 *	an event counted in %RDMA_MCM_CNT_DELIVERED too; after a close, it
 *	counts module-wide only). An event that a newer one of the same
 *	membership replaces before delivery (a newer error, a loss over a
 *	join) counts in neither: the owner gets the latest state
 * @__RDMA_MCM_CNT_MAX: number of counters
 */
enum rdma_mcm_nl_counter {
	RDMA_MCM_CNT_UNSPEC,
	RDMA_MCM_CNT_JOINS,
	RDMA_MCM_CNT_JOIN_FAILED,
	RDMA_MCM_CNT_JOINED,
	RDMA_MCM_CNT_LEAVES,
	RDMA_MCM_CNT_CANCELS,
	RDMA_MCM_CNT_ERRORS,
	RDMA_MCM_CNT_WAITS,
	RDMA_MCM_CNT_REJOINS,
	RDMA_MCM_CNT_DEVICE_LOSSES,
	RDMA_MCM_CNT_DEVICE_ADDS,
	RDMA_MCM_CNT_DELIVERED,
	RDMA_MCM_CNT_PURGED,
	__RDMA_MCM_CNT_MAX,
};

#define RDMA_MCM_CNT_MAX	(__RDMA_MCM_CNT_MAX - 1)

/**
 * enum rdma_mcm_nl_limit - limits (attribute types in %RDMA_MCM_A_LIMITS)
 * @RDMA_MCM_LIMIT_UNSPEC: not a limit
 * @RDMA_MCM_LIMIT_FILE_MEMBERSHIPS: memberships per file
 * @RDMA_MCM_LIMIT_FILE_CONTEXTS: contexts per file
 * @RDMA_MCM_LIMIT_USER_MEMBERSHIPS: memberships per user
 * @RDMA_MCM_LIMIT_USER_CONTEXTS: contexts per user
 * @RDMA_MCM_LIMIT_USER_SOURCES: sources of source-specific joins per user
 * @__RDMA_MCM_LIMIT_MAX: number of limits
 */
enum rdma_mcm_nl_limit {
	RDMA_MCM_LIMIT_UNSPEC,
	RDMA_MCM_LIMIT_FILE_MEMBERSHIPS,
	RDMA_MCM_LIMIT_FILE_CONTEXTS,
	RDMA_MCM_LIMIT_USER_MEMBERSHIPS,
	RDMA_MCM_LIMIT_USER_CONTEXTS,
	RDMA_MCM_LIMIT_USER_SOURCES,
	__RDMA_MCM_LIMIT_MAX,
};

#define RDMA_MCM_LIMIT_MAX	(__RDMA_MCM_LIMIT_MAX - 1)

/**
 * enum rdma_mcm_nl_usage - objects alive (attribute types in
 *	%RDMA_MCM_A_USAGE), host-wide
 * @RDMA_MCM_USAGE_UNSPEC: not a count
 * @RDMA_MCM_USAGE_CONTEXTS: contexts open
 * @RDMA_MCM_USAGE_MEMBERSHIPS: memberships
 * @RDMA_MCM_USAGE_CM_IDS: rdma_cm_ids the manager holds
 * @RDMA_MCM_USAGE_FILES: open files of /dev/rdma_mcm
 * @RDMA_MCM_USAGE_USERS: users holding contexts through /dev/rdma_mcm
 * @__RDMA_MCM_USAGE_MAX: number of counts
 */
enum rdma_mcm_nl_usage {
	RDMA_MCM_USAGE_UNSPEC,
	RDMA_MCM_USAGE_CONTEXTS,
	RDMA_MCM_USAGE_MEMBERSHIPS,
	RDMA_MCM_USAGE_CM_IDS,
	RDMA_MCM_USAGE_FILES,
	RDMA_MCM_USAGE_USERS,
	__RDMA_MCM_USAGE_MAX,
};

#define RDMA_MCM_USAGE_MAX	(__RDMA_MCM_USAGE_MAX - 1)

/**
 * enum rdma_mcm_nl_mcast - a device's multicast limits and rdma_mcm's use
 *	of them (attribute types in %RDMA_MCM_A_MCAST)
 * @RDMA_MCM_MCAST_UNSPEC: not a value
 * @RDMA_MCM_MCAST_GROUPS: groups rdma_mcm's memberships attach QPs to (or
 *	will, once joined) on the device
 * @RDMA_MCM_MCAST_GROUPS_MAX: the device's max_mcast_grp
 * @RDMA_MCM_MCAST_ATTACHES: QP attachments of rdma_mcm's memberships (held
 *	from the join on)
 * @RDMA_MCM_MCAST_ATTACHES_MAX: the device's max_total_mcast_qp_attach
 * @RDMA_MCM_MCAST_QP_ATTACH_MAX: the device's max_mcast_qp_attach (QPs
 *	in one group)
 * @__RDMA_MCM_MCAST_MAX: number of values
 *
 * The limits are the device's attributes read as unsigned; 0 means the
 * device attaches no QP to a group (a full join with a QP is then
 * refused with EOPNOTSUPP). Only rdma_mcm's own attachments are counted.
 */
enum rdma_mcm_nl_mcast {
	RDMA_MCM_MCAST_UNSPEC,
	RDMA_MCM_MCAST_GROUPS,
	RDMA_MCM_MCAST_GROUPS_MAX,
	RDMA_MCM_MCAST_ATTACHES,
	RDMA_MCM_MCAST_ATTACHES_MAX,
	RDMA_MCM_MCAST_QP_ATTACH_MAX,
	__RDMA_MCM_MCAST_MAX,
};

#define RDMA_MCM_MCAST_MAX	(__RDMA_MCM_MCAST_MAX - 1)

/**
 * enum rdma_mcm_nl_event - events of the "events" group
 * @RDMA_MCM_NL_EV_UNSPEC: not an event
 * @RDMA_MCM_NL_EV_JOIN: a join was asked for (the membership exists)
 * @RDMA_MCM_NL_EV_JOINED: it is joined
 * @RDMA_MCM_NL_EV_ERROR: it failed (%RDMA_MCM_A_STATUS)
 * @RDMA_MCM_NL_EV_WAITING: it lost its group and waits to be joined again
 *	(%RDMA_MCM_A_STATUS: why)
 * @RDMA_MCM_NL_EV_REJOIN: a rejoin was sent for it
 * @RDMA_MCM_NL_EV_LEAVE: it is gone: left, cancelled, its context closed,
 *	or its join refused (%RDMA_MCM_A_STATUS: the errno of the refusal)
 * @RDMA_MCM_NL_EV_DEVICE_LOST: a context lost its device
 *	(%RDMA_MCM_A_DEV_NAME: which)
 * @RDMA_MCM_NL_EV_DEVICE_ADDED: a healing context has a device again
 * @__RDMA_MCM_NL_EV_MAX: number of events
 *
 * Membership events carry %RDMA_MCM_A_CTX_ID, %RDMA_MCM_A_HANDLE, the
 * owner, %RDMA_MCM_A_FAMILY, %RDMA_MCM_A_GROUP, %RDMA_MCM_A_JOIN_TYPE,
 * %RDMA_MCM_A_STATE (its state then; for LEAVE, the state it was left in:
 * joining for a cancel, a leave during a rejoin (after its REJOIN event),
 * or a refused join (non-zero status)), %RDMA_MCM_A_STATUS and
 * %RDMA_MCM_A_TIME_NS; context events the
 * same without handle, group, join type and state, with
 * %RDMA_MCM_A_DEV_NAME.
 * Events of one context are sent in the order they happened.
 */
enum rdma_mcm_nl_event {
	RDMA_MCM_NL_EV_UNSPEC,
	RDMA_MCM_NL_EV_JOIN,
	RDMA_MCM_NL_EV_JOINED,
	RDMA_MCM_NL_EV_ERROR,
	RDMA_MCM_NL_EV_WAITING,
	RDMA_MCM_NL_EV_REJOIN,
	RDMA_MCM_NL_EV_LEAVE,
	RDMA_MCM_NL_EV_DEVICE_LOST,
	RDMA_MCM_NL_EV_DEVICE_ADDED,
	__RDMA_MCM_NL_EV_MAX,
};

#endif /* _UAPI_RDMA_MCM_NETLINK_H */
