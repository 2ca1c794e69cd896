/* SPDX-License-Identifier: ((GPL-2.0 WITH Linux-syscall-note) OR Linux-OpenIB) */
/*
 * rdma_mcm: userspace ABI of /dev/rdma_mcm.
 *
 * Each open file owns the contexts and memberships created through it;
 * context ids and membership handles are per file and mean nothing in
 * another file. The opener's network namespace is used. Closing the file
 * (also on exit or SIGKILL) leaves every membership.
 *
 * Rules that let the structs grow without breaking old binaries:
 *  - every ioctl argument's size is the size encoded in the command number
 *    (_IOC_SIZE). A newer kernel accepts an older, shorter struct down to
 *    the size of the struct's first version (RDMA_MCM_*_SIZE_VER0; the
 *    missing tail reads as zero, and only the caller's bytes are written
 *    back) and a newer, longer one whose unknown tail is zero (else
 *    -E2BIG), as copy_struct_from_user() does. Shorter than VER0: -EINVAL;
 *  - arrays (batch and list entries) carry their entry size, from the
 *    entry's VER0 size up to RDMA_MCM_MAX_ENTRY_SIZE, with the same rules;
 *  - events are read() in the size the file asked for with
 *    RDMA_MCM_IOC_SET_EVENTS (RDMA_MCM_EVENT_SIZE_VER0 until it asks),
 *    and a file only ever reads the event types it asked for (JOINED and
 *    ERROR until it asks);
 *  - reserved fields and unknown flags must be zero (else -EINVAL);
 *  - every struct has a fixed layout with explicit padding and 64-bit
 *    fields aligned with __aligned_u64, identical for 32- and 64-bit
 *    processes (compat_ioctl passes them through unchanged).
 * RDMA_MCM_ABI_VERSION changes only if a rule above is ever broken.
 * Every errno is listed in Documentation/uapi.rst.
 */
#ifndef _UAPI_RDMA_MCM_ABI_H
#define _UAPI_RDMA_MCM_ABI_H

#include <linux/ioctl.h>
#include <linux/types.h>

/* Name of the misc device node: /dev/rdma_mcm */
#define RDMA_MCM_DEVICE_NAME	"rdma_mcm"

/*
 * ioctl type byte. 0xBA is not claimed in the kernel's registry,
 * Documentation/userspace-api/ioctl/ioctl-number.rst (checked on 6.12).
 */
#define RDMA_MCM_IOCTL_MAGIC	0xBA

/* Version of this ABI, reported by RDMA_MCM_IOC_VERSION. */
#define RDMA_MCM_ABI_VERSION	1

/* Room for any socket address rdma_mcm takes (sockaddr_in, _in6, _ib). */
#define RDMA_MCM_ADDR_SIZE	128

/*
 * Sizes of the first version of each struct: the smallest a kernel takes
 * (and, for events, the size read() returns until the file asks for
 * another with RDMA_MCM_IOC_SET_EVENTS).
 */
#define RDMA_MCM_VERSION_SIZE_VER0	8
#define RDMA_MCM_CREATE_CTX_SIZE_VER0	144
#define RDMA_MCM_DESTROY_CTX_SIZE_VER0	8
#define RDMA_MCM_JOIN_SIZE_VER0		152
#define RDMA_MCM_LEAVE_SIZE_VER0	152
#define RDMA_MCM_MEMBER_SIZE_VER0	184
#define RDMA_MCM_QUERY_SIZE_VER0	192
#define RDMA_MCM_LIST_SIZE_VER0		32
#define RDMA_MCM_JOIN_ENTRY_SIZE_VER0	152
#define RDMA_MCM_LEAVE_ENTRY_SIZE_VER0	152
#define RDMA_MCM_BATCH_SIZE_VER0	24
#define RDMA_MCM_EVENT_SIZE_VER0	72
#define RDMA_MCM_SET_EVENTS_SIZE_VER0	16
#define RDMA_MCM_QUERY_CTX_SIZE_VER0	224
#define RDMA_MCM_SOURCE_SIZE_VER0	136

/* The largest entry_size BATCH and LIST take (else -E2BIG). */
#define RDMA_MCM_MAX_ENTRY_SIZE		4096
/* The most entries one BATCH call takes (else -EINVAL). */
#define RDMA_MCM_MAX_BATCH		65536
/* The most sources one source-specific join takes (else -EINVAL). */
#define RDMA_MCM_MAX_SOURCES		64

/*
 * VERSION features: what the running module does beyond ABI 1's first
 * commands. A kernel without the field reports 0.
 *  SOURCES    JOIN and BATCH_JOIN take source addresses: a source-specific
 *             join (IGMPv3 / MLDv2 INCLUDE) on RoCE
 *  IPV6_ROCE  IPv6 groups on RoCE v2, which rdma_cm refuses: rdma_mcm
 *             joins them itself and sends the MLD reports
 */
#define RDMA_MCM_FEATURE_SOURCES	(1U << 0)
#define RDMA_MCM_FEATURE_IPV6_ROCE	(1U << 1)

/*
 * CREATE_CTX flags.
 *  HEAL   the context heals its memberships: after a transient error
 *         (status -ENETRESET, -ETIMEDOUT, -ENOMEM: a port or SM event, an
 *         SA that did not answer) or the loss of the device (or of the
 *         source address), a membership is WAITING, not in ERROR, and is
 *         joined again, with backoff and within a rate limit, on the same
 *         handle; the context outlives its device and takes the next one
 *         that has its source address. Events REJOINING, REJOINED and
 *         DEVICE_ADDED tell what happens (to a file that asked for them).
 *  ROUTE  the context's address (CREATE_CTX's src) is a destination, not
 *         a source: the device, port and source address come from the
 *         route to it (rdma_resolve_addr(), as an rdma_cm id without a
 *         bind), and a change of that route is a change of device.
 */
#define RDMA_MCM_CTX_HEAL	(1U << 0)
#define RDMA_MCM_CTX_ROUTE	(1U << 1)

/* Join flags, as librdmacm's RDMA_MC_JOIN_FLAG_*. */
#define RDMA_MCM_JOIN_FULLMEMBER		0
#define RDMA_MCM_JOIN_SENDONLY_FULLMEMBER	1

/*
 * Membership flags, as QUERY and LIST report them.
 *  JOINED_BY_MCM  rdma_mcm joined the group on the RDMA device itself and
 *                 sends its MLD reports: an IPv6 group on RoCE v2, which
 *                 rdma_cm refuses. Without it, rdma_cm joined it.
 */
#define RDMA_MCM_MEMBER_JOINED_BY_MCM	(1U << 0)

/* Leave flags */
#define RDMA_MCM_LEAVE_BY_ADDR	(1U << 0)	/* use addr, not handle */

/*
 * Membership states, as reported by QUERY and LIST. WAITING: a healing
 * context's membership that lost its group (or its device) and waits to
 * be joined again (backoff, rate limit, or no device yet).
 */
#define RDMA_MCM_STATE_JOINING	0
#define RDMA_MCM_STATE_JOINED	1
#define RDMA_MCM_STATE_ERROR	2
#define RDMA_MCM_STATE_WAITING	3

/*
 * Event types, read() from the file. A file reads only the types it asked
 * for with RDMA_MCM_IOC_SET_EVENTS; until it asks, JOINED and ERROR.
 *  JOINED          a join completed: the address handle attributes
 *  ERROR           a membership failed or was lost (status: negative errno)
 *  DEVICE_REMOVED  the context's RDMA device went away (status -ENODEV,
 *                  handle 0): release every verbs object on it (QPs, AHs,
 *                  CQs, PDs, the device context) at once, the device is
 *                  being unregistered. The context stays, without a device:
 *                  joins fail with ENODEV (a healing context's wait),
 *                  leave and destroy work.
 *  REJOINING       a healing context's membership lost its group and will
 *                  be joined again (status: the reason, a negative errno;
 *                  the membership is WAITING): detach the QP from the
 *                  group, stop sending to it
 *  REJOINED        it was joined again: the address handle attributes,
 *                  MGID, MLID, Q_Key and port, as JOINED (they may have
 *                  changed); attach the QP again
 *  DEVICE_ADDED    a healing context has a device again (handle 0,
 *                  port_num): open it (its GID is the context's source
 *                  address), build the verbs objects again; REJOINED
 *                  events follow for every waiting membership
 */
#define RDMA_MCM_EVENT_JOINED		1
#define RDMA_MCM_EVENT_ERROR		2
#define RDMA_MCM_EVENT_DEVICE_REMOVED	3
#define RDMA_MCM_EVENT_REJOINING	4
#define RDMA_MCM_EVENT_REJOINED		5
#define RDMA_MCM_EVENT_DEVICE_ADDED	6

/* The bit of an event type in an event mask */
#define RDMA_MCM_EVENT_BIT(type)	(1ULL << (type))
/* The types a file reads until it asks for others */
#define RDMA_MCM_EVENTS_DEFAULT		(RDMA_MCM_EVENT_BIT(RDMA_MCM_EVENT_JOINED) | \
					 RDMA_MCM_EVENT_BIT(RDMA_MCM_EVENT_ERROR))

/**
 * struct rdma_mcm_version - RDMA_MCM_IOC_VERSION
 * @abi_version: out: RDMA_MCM_ABI_VERSION of the running module
 * @features: out: RDMA_MCM_FEATURE_* of the running module (a module
 *	older than the field writes 0 there)
 *
 * Also the cheapest command: benchmarks use it as the syscall floor.
 */
struct rdma_mcm_version {
	__u32 abi_version;
	__u32 features;
};

/**
 * struct rdma_mcm_create_ctx - RDMA_MCM_IOC_CREATE_CTX
 * @src: in: local source address (sockaddr_in, sockaddr_in6 or sockaddr_ib)
 *	of an RDMA device; with RDMA_MCM_CTX_ROUTE, the destination whose
 *	route gives the device and source address (a multicast group). Its
 *	port (sin_port, sin6_port; for sockaddr_ib the service id) is
 *	ignored, as the port of a group is: every rdma_cm_id of the context
 *	binds a port of its own.
 * @src_len: in: bytes of @src used
 * @flags: in: RDMA_MCM_CTX_* (others: EINVAL)
 * @ctx_id: out: the context's id in this file (never 0)
 * @reserved: must be zero
 */
struct rdma_mcm_create_ctx {
	__u8 src[RDMA_MCM_ADDR_SIZE];
	__u32 src_len;
	__u32 flags;
	__u32 ctx_id;
	__u32 reserved;
};

/**
 * struct rdma_mcm_destroy_ctx - RDMA_MCM_IOC_DESTROY_CTX
 * @ctx_id: in: the context; every membership of it is left
 * @reserved: must be zero
 */
struct rdma_mcm_destroy_ctx {
	__u32 ctx_id;
	__u32 reserved;
};

/**
 * struct rdma_mcm_source - one source of a source-specific join
 * @addr_len: in: bytes of @addr used
 * @reserved: must be zero
 * @addr: in: a unicast address of the group's family (sockaddr_in,
 *	sockaddr_in6); its port is ignored
 */
struct rdma_mcm_source {
	__u32 addr_len;
	__u32 reserved;
	__u8 addr[RDMA_MCM_ADDR_SIZE];
};

/**
 * struct rdma_mcm_join - RDMA_MCM_IOC_JOIN
 * @cookie: in: returned in this membership's events and queries
 * @ctx_id: in: the context
 * @join_flags: in: RDMA_MCM_JOIN_FULLMEMBER or _SENDONLY_FULLMEMBER
 * @addr_len: in: bytes of @addr used
 * @handle: out: the membership's handle in this file (never 0)
 * @addr: in: the group address, of the context's family
 * @sources: in: user pointer to @nr_sources struct rdma_mcm_source: a
 *	source-specific join, which receives only from these sources
 *	(IGMPv3 / MLDv2 INCLUDE; RoCE only, a full member only). 0 with
 *	@nr_sources 0: any source
 * @nr_sources: in: sources at @sources, at most RDMA_MCM_MAX_SOURCES,
 *	each once
 * @source_size: in: sizeof(struct rdma_mcm_source) as the caller knows
 *	it, from RDMA_MCM_SOURCE_SIZE_VER0 up to RDMA_MCM_MAX_ENTRY_SIZE
 *	(ignored when @nr_sources is 0)
 *
 * @sources and what follows are new in the second version of the struct
 * (RDMA_MCM_JOIN_SIZE_VER0 is the first's size): a kernel without them
 * fails a join that has sources with E2BIG.
 */
struct rdma_mcm_join {
	__aligned_u64 cookie;
	__u32 ctx_id;
	__u32 join_flags;
	__u32 addr_len;
	__u32 handle;
	__u8 addr[RDMA_MCM_ADDR_SIZE];
	__aligned_u64 sources;
	__u32 nr_sources;
	__u32 source_size;
};

/**
 * struct rdma_mcm_leave - RDMA_MCM_IOC_LEAVE
 * @ctx_id: in: the context
 * @flags: in: 0 to leave @handle, RDMA_MCM_LEAVE_BY_ADDR to leave @addr
 * @handle: in: the membership (without RDMA_MCM_LEAVE_BY_ADDR)
 * @addr_len: in: bytes of @addr used (with RDMA_MCM_LEAVE_BY_ADDR)
 * @events_reported: out: events of this membership already read()
 * @reserved: must be zero
 * @addr: in: the group address (with RDMA_MCM_LEAVE_BY_ADDR)
 *
 * Leave purges the membership's events not yet read and never waits for
 * the application.
 */
struct rdma_mcm_leave {
	__u32 ctx_id;
	__u32 flags;
	__u32 handle;
	__u32 addr_len;
	__u32 events_reported;
	__u32 reserved;
	__u8 addr[RDMA_MCM_ADDR_SIZE];
};

/**
 * struct rdma_mcm_member - one membership, as QUERY and LIST report it
 * @cookie: the join's cookie
 * @handle: the membership's handle
 * @state: RDMA_MCM_STATE_*
 * @status: the error in RDMA_MCM_STATE_ERROR, the reason it waits in
 *	RDMA_MCM_STATE_WAITING (a negative errno), else 0
 * @join_flags: the join's flags
 * @addr_len: bytes of @addr used
 * @qkey: Q_Key, once joined
 * @mlid: multicast LID, once joined (0 on RoCE)
 * @reserved: zero
 * @events_reported: events of this membership read() so far
 * @mgid: multicast GID, once joined
 * @addr: the group address
 * @rejoins: times a healing context joined it again
 * @last_status: the last error it had, kept after it recovered (0: none)
 * @state_time_ns: CLOCK_BOOTTIME of its last change of state, in ns, at
 *	the scheduler tick's resolution (the coarse clock)
 * @nr_sources: the sources of a source-specific join (0: any source)
 * @flags: RDMA_MCM_MEMBER_*
 *
 * @rejoins and what follows are new in the second version of the struct
 * (RDMA_MCM_MEMBER_SIZE_VER0 is the first's size), @nr_sources and @flags
 * in the third (200 bytes before them).
 */
struct rdma_mcm_member {
	__aligned_u64 cookie;
	__u32 handle;
	__u32 state;
	__s32 status;
	__u32 join_flags;
	__u32 addr_len;
	__u32 qkey;
	__u16 mlid;
	__u16 reserved;
	__u32 events_reported;
	__u8 mgid[16];
	__u8 addr[RDMA_MCM_ADDR_SIZE];
	__u32 rejoins;
	__s32 last_status;
	__aligned_u64 state_time_ns;
	__u32 nr_sources;
	__u32 flags;
};

/**
 * struct rdma_mcm_query - RDMA_MCM_IOC_QUERY
 * @ctx_id: in: the context
 * @handle: in: the membership
 * @member: out: its state
 */
struct rdma_mcm_query {
	__u32 ctx_id;
	__u32 handle;
	struct rdma_mcm_member member;
};

/**
 * struct rdma_mcm_list - RDMA_MCM_IOC_LIST
 * @entries: in: user pointer to an array of struct rdma_mcm_member
 * @ctx_id: in: the context
 * @start: in: first handle to report (0 for the beginning)
 * @count: in: room in @entries; out: entries written
 * @next: out: @start for the next page, 0 when the walk is complete (with
 *	@count 0: the first handle from @start, 0 if there is none)
 * @entry_size: in: sizeof(struct rdma_mcm_member) as the caller knows it
 * @reserved: must be zero
 */
struct rdma_mcm_list {
	__aligned_u64 entries;
	__u32 ctx_id;
	__u32 start;
	__u32 count;
	__u32 next;
	__u32 entry_size;
	__u32 reserved;
};

/**
 * struct rdma_mcm_join_entry - one join of a batch
 * @cookie: in: as in struct rdma_mcm_join
 * @join_flags: in: as in struct rdma_mcm_join
 * @addr_len: in: bytes of @addr used
 * @handle: out: the handle, when @result is 0
 * @result: out: 0 or a negative errno, as RDMA_MCM_IOC_JOIN would return
 * @addr: in: the group address
 * @sources: in: as in struct rdma_mcm_join
 * @nr_sources: in: as in struct rdma_mcm_join
 * @source_size: in: as in struct rdma_mcm_join
 *
 * @sources and what follows are new in the second version of the entry
 * (RDMA_MCM_JOIN_ENTRY_SIZE_VER0 is the first's size).
 */
struct rdma_mcm_join_entry {
	__aligned_u64 cookie;
	__u32 join_flags;
	__u32 addr_len;
	__u32 handle;
	__s32 result;
	__u8 addr[RDMA_MCM_ADDR_SIZE];
	__aligned_u64 sources;
	__u32 nr_sources;
	__u32 source_size;
};

/**
 * struct rdma_mcm_leave_entry - one leave of a batch
 * @flags: in: as in struct rdma_mcm_leave
 * @handle: in: as in struct rdma_mcm_leave
 * @addr_len: in: as in struct rdma_mcm_leave
 * @result: out: 0 or a negative errno
 * @events_reported: out: as in struct rdma_mcm_leave
 * @reserved: must be zero
 * @addr: in: as in struct rdma_mcm_leave
 */
struct rdma_mcm_leave_entry {
	__u32 flags;
	__u32 handle;
	__u32 addr_len;
	__s32 result;
	__u32 events_reported;
	__u32 reserved;
	__u8 addr[RDMA_MCM_ADDR_SIZE];
};

/**
 * struct rdma_mcm_batch - RDMA_MCM_IOC_BATCH_JOIN and _BATCH_LEAVE
 * @entries: in: user pointer to @count struct rdma_mcm_join_entry (or
 *	_leave_entry); each entry's outputs are written back
 * @ctx_id: in: the context
 * @count: in: entries in the array (at most RDMA_MCM_MAX_BATCH)
 * @entry_size: in: the size of one entry as the caller knows it
 * @done: out: entries processed (all of them unless the call failed; 0
 *	when it failed before the first entry; an argument the kernel could
 *	not take at all, too short or with a non-zero tail, is not written
 *	back, as for every failed command)
 *
 * A failing entry does not stop the batch: it gets its own @result, and
 * only its outputs (@result, and @handle or @events_reported) are written;
 * its inputs are left as they were. The call itself fails only for a bad
 * argument, a fault on the array or a fatal signal (-EINTR: @done tells how
 * far it got).
 */
struct rdma_mcm_batch {
	__aligned_u64 entries;
	__u32 ctx_id;
	__u32 count;
	__u32 entry_size;
	__u32 done;
};

/**
 * struct rdma_mcm_event - what read() returns, one or more at a time
 * @cookie: the join's cookie (0 for a context's event)
 * @event: RDMA_MCM_EVENT_*
 * @status: for RDMA_MCM_EVENT_ERROR and _DEVICE_REMOVED, a negative errno;
 *	for _REJOINING, the reason (a negative errno); else 0
 * @ctx_id: the context
 * @handle: the membership (0 for a context's event)
 * @qkey: Q_Key to send with and to set on the QP
 * @mlid: multicast LID (for ibv_attach_mcast(); 0 on RoCE)
 * @sl: service level, for ibv_create_ah()
 * @hop_limit: GRH hop limit, for ibv_create_ah()
 * @mgid: multicast GID (for ibv_attach_mcast())
 * @dgid: destination GID, for ibv_create_ah()
 * @flow_label: GRH flow label, for ibv_create_ah()
 * @traffic_class: GRH traffic class, for ibv_create_ah()
 * @port_num: port number, for ibv_create_ah()
 * @is_global: the address handle needs a GRH (always 1 for multicast)
 * @reserved: zero
 */
struct rdma_mcm_event {
	__aligned_u64 cookie;
	__u32 event;
	__s32 status;
	__u32 ctx_id;
	__u32 handle;
	__u32 qkey;
	__u16 mlid;
	__u8 sl;
	__u8 hop_limit;
	__u8 mgid[16];
	__u8 dgid[16];
	__u32 flow_label;
	__u8 traffic_class;
	__u8 port_num;
	__u8 is_global;
	__u8 reserved;
};

/**
 * struct rdma_mcm_set_events - RDMA_MCM_IOC_SET_EVENTS
 * @event_mask: in: the event types the caller handles, as
 *	RDMA_MCM_EVENT_BIT(type); out: those of them this kernel delivers.
 *	Events of other types are never read() by this file.
 * @event_size: in: sizeof(struct rdma_mcm_event) as the caller knows it,
 *	at least RDMA_MCM_EVENT_SIZE_VER0 (else -EINVAL); out: the size of
 *	each event read() returns from now on, the smaller of the caller's
 *	and the kernel's. A caller with a longer struct zero-fills its tail.
 * @reserved: must be zero
 *
 * A kernel without this command fails it with ENOTTY: its events are
 * RDMA_MCM_EVENT_SIZE_VER0 bytes, of the default types.
 */
struct rdma_mcm_set_events {
	__aligned_u64 event_mask;
	__u32 event_size;
	__u32 reserved;
};

/* The longest RDMA device name QUERY_CTX reports, NUL included. */
#define RDMA_MCM_DEV_NAME_SIZE		64

/**
 * struct rdma_mcm_query_ctx - RDMA_MCM_IOC_QUERY_CTX
 * @ctx_id: in: the context
 * @flags: out: the RDMA_MCM_CTX_* it was created with
 * @src: out: the source address its rdma_cm ids are bound to, port 0:
 *	CREATE_CTX's, or, for a ROUTE context, the route's. All zero while
 *	the context has no device.
 * @src_len: out: bytes of @src used (0 while it has no device)
 * @port_num: out: the port of its RDMA device (0: no device)
 * @node_guid: out: the device's node GUID, in network byte order (as
 *	ibv_get_device_guid() returns it; 0: no device)
 * @dev_name: out: the device's name, NUL-terminated, as ibv_get_device_name()
 *	reports it ("" while the context has no device)
 * @reserved: zero
 *
 * Which device a context is on, as the kernel chose it: a program opens
 * that device (after CREATE_CTX, and after each DEVICE_ADDED of a healing
 * context) to build its QP there. The name may change (a rename), the
 * node GUID does not.
 */
struct rdma_mcm_query_ctx {
	__u32 ctx_id;
	__u32 flags;
	__u8 src[RDMA_MCM_ADDR_SIZE];
	__u32 src_len;
	__u32 port_num;
	__aligned_u64 node_guid;
	char dev_name[RDMA_MCM_DEV_NAME_SIZE];
	__u32 reserved[2];
};

#define RDMA_MCM_IOC_VERSION	 _IOR(RDMA_MCM_IOCTL_MAGIC, 0x00, struct rdma_mcm_version)
#define RDMA_MCM_IOC_CREATE_CTX	 _IOWR(RDMA_MCM_IOCTL_MAGIC, 0x01, struct rdma_mcm_create_ctx)
#define RDMA_MCM_IOC_DESTROY_CTX _IOW(RDMA_MCM_IOCTL_MAGIC, 0x02, struct rdma_mcm_destroy_ctx)
#define RDMA_MCM_IOC_JOIN	 _IOWR(RDMA_MCM_IOCTL_MAGIC, 0x03, struct rdma_mcm_join)
#define RDMA_MCM_IOC_LEAVE	 _IOWR(RDMA_MCM_IOCTL_MAGIC, 0x04, struct rdma_mcm_leave)
#define RDMA_MCM_IOC_QUERY	 _IOWR(RDMA_MCM_IOCTL_MAGIC, 0x05, struct rdma_mcm_query)
#define RDMA_MCM_IOC_LIST	 _IOWR(RDMA_MCM_IOCTL_MAGIC, 0x06, struct rdma_mcm_list)
#define RDMA_MCM_IOC_BATCH_JOIN	 _IOWR(RDMA_MCM_IOCTL_MAGIC, 0x07, struct rdma_mcm_batch)
#define RDMA_MCM_IOC_BATCH_LEAVE _IOWR(RDMA_MCM_IOCTL_MAGIC, 0x08, struct rdma_mcm_batch)
#define RDMA_MCM_IOC_SET_EVENTS	 _IOWR(RDMA_MCM_IOCTL_MAGIC, 0x09, struct rdma_mcm_set_events)
#define RDMA_MCM_IOC_QUERY_CTX	 _IOWR(RDMA_MCM_IOCTL_MAGIC, 0x0a, struct rdma_mcm_query_ctx)

#endif /* _UAPI_RDMA_MCM_ABI_H */
