/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * librdmamcm: userspace library for /dev/rdma_mcm, the RDMA multicast
 * membership manager.
 *
 * A channel is one open file of /dev/rdma_mcm: it owns the contexts and
 * memberships created through it, and closing it leaves them all. Every
 * function that returns int returns 0 (or a count) on success and -1 with
 * errno set on failure.
 *
 * Threads: every function may be called on one channel from several
 * threads at once (one thread waiting in rdma_mcm_get_event(), others
 * joining and leaving); a thread waiting for events never holds up the
 * others. Only rdma_mcm_close_channel() must not overlap any other call
 * on the channel. A blocking call restarts after a signal (no EINTR).
 *
 * fork(): the child shares the open file, hence the memberships and the
 * event stream, but not the library's state: use a channel in one process
 * only (open one per process; the file is close-on-exec).
 *
 * The structs of the kernel ABI (struct rdma_mcm_event, _member,
 * _join_entry, _leave_entry, _source) are used as they are: see
 * <rdma/rdma_mcm_abi.h> and the man pages, librdmamcm(7). The functions
 * never read or write more of them than their size in the symbol version
 * a program was linked against: 72 bytes for events, 152 for leave
 * entries; struct rdma_mcm_member is 184 bytes for a program linked
 * before LIBRDMAMCM_1.3 (rdma_mcm_query@LIBRDMAMCM_1.0, rdma_mcm_list@...),
 * 200 bytes for one linked before LIBRDMAMCM_1.5 (@LIBRDMAMCM_1.3:
 * rejoins, last_status, state_time_ns) and 208 since (nr_sources, flags);
 * struct rdma_mcm_join_entry is 152 bytes before LIBRDMAMCM_1.5
 * (rdma_mcm_join_batch@LIBRDMAMCM_1.0) and 168 since (sources,
 * nr_sources, source_size). Objects compiled against an older header are
 * compiled again before they are linked against this library.
 */
#ifndef LIBRDMAMCM_H
#define LIBRDMAMCM_H

#include <stdint.h>
#include <sys/socket.h>
#include <rdma/rdma_mcm_abi.h>
#include <rdma/rdma_mcm_netlink.h>

#ifdef __cplusplus
extern "C" {
#endif

struct ibv_context;
struct ibv_qp;
struct ibv_pd;
struct ibv_ah;
struct ibv_ah_attr;

/* An open /dev/rdma_mcm; opaque. */
struct rdma_mcm_channel;

/* Channel: open, close, fd for poll/epoll, the running module's ABI. */
struct rdma_mcm_channel *rdma_mcm_open_channel(int flags);
void rdma_mcm_close_channel(struct rdma_mcm_channel *ch);
int rdma_mcm_get_fd(struct rdma_mcm_channel *ch);
int rdma_mcm_abi_version(struct rdma_mcm_channel *ch);
/* 1.5: the module's RDMA_MCM_FEATURE_* (0 from a module older than them) */
int rdma_mcm_get_features(struct rdma_mcm_channel *ch, uint32_t *features);

/* Contexts: one per local source address. */
int rdma_mcm_create_ctx(struct rdma_mcm_channel *ch,
			const struct sockaddr *src, uint32_t *ctx_id);
/*
 * 1.3: flags RDMA_MCM_CTX_HEAL (memberships are joined again after a
 * transient error or the loss of the device) and RDMA_MCM_CTX_ROUTE
 * (@addr is a destination, a group: the route to it gives the source)
 */
int rdma_mcm_create_ctx_ex(struct rdma_mcm_channel *ch,
			   const struct sockaddr *addr, uint32_t flags,
			   uint32_t *ctx_id);
int rdma_mcm_destroy_ctx(struct rdma_mcm_channel *ch, uint32_t ctx_id);

/* Joins. */
int rdma_mcm_join(struct rdma_mcm_channel *ch, uint32_t ctx_id,
		  const struct sockaddr *group, int join_flags,
		  uint64_t cookie, uint32_t *handle);
int rdma_mcm_join_sync(struct rdma_mcm_channel *ch, uint32_t ctx_id,
		       const struct sockaddr *group, int join_flags,
		       uint64_t cookie, int timeout_ms,
		       struct rdma_mcm_event *joined);
/* 1.5: 168-byte entries, which may have sources (1.0: 152 bytes) */
int rdma_mcm_join_batch(struct rdma_mcm_channel *ch, uint32_t ctx_id,
			struct rdma_mcm_join_entry *entries, unsigned int n);
/*
 * 1.5: a source-specific join (IGMPv3 / MLDv2 INCLUDE, RoCE only): the
 * group from these @nr_sources unicast addresses only, at most
 * RDMA_MCM_MAX_SOURCES, of the group's family; 0 sources is a join of
 * any source. EOPNOTSUPP: a module older than sources, or InfiniBand.
 */
int rdma_mcm_join_source(struct rdma_mcm_channel *ch, uint32_t ctx_id,
			 const struct sockaddr *group,
			 const struct sockaddr *const *sources,
			 unsigned int nr_sources, int join_flags,
			 uint64_t cookie, uint32_t *handle);
int rdma_mcm_join_source_sync(struct rdma_mcm_channel *ch, uint32_t ctx_id,
			      const struct sockaddr *group,
			      const struct sockaddr *const *sources,
			      unsigned int nr_sources, int join_flags,
			      uint64_t cookie, int timeout_ms,
			      struct rdma_mcm_event *joined);

/* Events. */
int rdma_mcm_get_event(struct rdma_mcm_channel *ch, struct rdma_mcm_event *ev);
int rdma_mcm_wait_event(struct rdma_mcm_channel *ch, struct rdma_mcm_event *ev,
			int timeout_ms);
/* Event types handled: RDMA_MCM_EVENTS_DEFAULT until this is called. */
int rdma_mcm_set_event_mask(struct rdma_mcm_channel *ch, uint64_t mask,
			    uint64_t *delivered);

/* Leaves: 0 or -1 with errno, as rdma_leave_multicast(3). */
int rdma_mcm_leave(struct rdma_mcm_channel *ch, uint32_t ctx_id,
		   uint32_t handle);
int rdma_mcm_leave_addr(struct rdma_mcm_channel *ch, uint32_t ctx_id,
			const struct sockaddr *group);
int rdma_mcm_leave_ex(struct rdma_mcm_channel *ch, uint32_t ctx_id,
		      uint32_t handle, const struct sockaddr *group,
		      uint32_t *events_reported);
int rdma_mcm_leave_batch(struct rdma_mcm_channel *ch, uint32_t ctx_id,
			 struct rdma_mcm_leave_entry *entries, unsigned int n);

/*
 * Membership state (1.5: the 208-byte struct; 1.3: its first 200 bytes;
 * 1.0: its first 184).
 */
int rdma_mcm_query(struct rdma_mcm_channel *ch, uint32_t ctx_id,
		   uint32_t handle, struct rdma_mcm_member *out);
int rdma_mcm_list(struct rdma_mcm_channel *ch, uint32_t ctx_id, uint32_t start,
		  struct rdma_mcm_member *out, unsigned int max,
		  uint32_t *next);

/* Verbs helpers (libibverbs). */
int rdma_mcm_attach_qp(struct rdma_mcm_channel *ch, struct ibv_qp *qp,
		       const struct rdma_mcm_event *joined);
int rdma_mcm_leave_detach(struct rdma_mcm_channel *ch, uint32_t ctx_id,
			  uint32_t handle, struct ibv_qp *qp);
struct ibv_ah *rdma_mcm_create_ah(struct ibv_pd *pd,
				  const struct rdma_mcm_event *joined);
/* 1.2: the source GID is that of the context's source address */
struct ibv_ah *rdma_mcm_create_ah_ex(struct rdma_mcm_channel *ch,
				     struct ibv_pd *pd,
				     const struct rdma_mcm_event *joined);
int rdma_mcm_init_ah_attr(const struct rdma_mcm_event *joined,
			  uint8_t sgid_index, struct ibv_ah_attr *attr);
/*
 * 1.3: detach a QP (NULL: every QP) the library attached, from membership
 * @handle (0: every membership of the context), without leaving: before
 * the QP is destroyed
 */
int rdma_mcm_detach_qp(struct rdma_mcm_channel *ch, uint32_t ctx_id,
		       uint32_t handle, struct ibv_qp *qp);
/* 1.3: attach again the QPs the library detached at REJOINING */
int rdma_mcm_reattach_qp(struct rdma_mcm_channel *ch,
			 const struct rdma_mcm_event *rejoined);
/* 1.3: open the RDMA device of a context's source address */
struct ibv_context *rdma_mcm_open_device(struct rdma_mcm_channel *ch,
					 uint32_t ctx_id);

/* Helpers. */
int rdma_mcm_parse_addr(const char *text, struct sockaddr_storage *out);
const char *rdma_mcm_state_str(uint32_t state);
const char *rdma_mcm_event_str(uint32_t event);

/*
 * 1.4: the host's view through the generic netlink family "rdma_mcm"
 * (<rdma/rdma_mcm_netlink.h>, librdmamcm(7) "Netlink"). A handle is one
 * AF_NETLINK socket; it needs no /dev/rdma_mcm. A caller without
 * CAP_NET_ADMIN sees only the contexts its uid opened. The handle is not
 * thread-safe: one thread at a time per handle. Nor is it reentrant:
 * while a dump's callback runs, every call on its handle fails with
 * EBUSY (rdma_mcm_nl_close() does nothing); rdma_mcm_nl_get_fd() and
 * rdma_mcm_nl_last_error() work. Use a second handle for a nested dump.
 *
 * The module unloaded (modprobe -r): rdma_mcm_nl_read_event() fails with
 * ESHUTDOWN, and rdma_mcm_nl_monitor() joins the family's events again
 * once it is back. A request that the kernel refuses with ENOENT
 * resolves the family again, once, and is sent again to a family that
 * came back under another id (a module loaded again); ENOENT while it is
 * gone.
 *
 * The structs below are filled by the library. Their size is fixed in
 * LIBRDMAMCM_1.4 (checked at build time): a later version adds fields in
 * the reserved space, never elsewhere. @present has bit N set when
 * attribute N (enum rdma_mcm_nl_attr) was in the kernel's message and
 * this library parsed it into the struct (1.6; before, every attribute
 * below 64 the kernel sent, parsed or not): the field holds the kernel's
 * value. A field whose bit is clear is zero. Counters, limits and usage
 * are indexed by their enum; @counters_present etc. say which the kernel
 * sent.
 *
 * Attributes 64 to 127 are bits 0 to 63 of @present_hi (1.6: zero until
 * the family has such attributes; a later version of the header will
 * name them, and test them as RDMA_MCM_NL_HAS() tests @present).
 * Attributes from 128 on are never reported in a mask: the family adds
 * them in nests, which a later version of the structs describes.
 * RDMA_MCM_NL_HAS() tests @present only (any struct with a uint64_t
 * present), and is 0 for an attribute from 64 on.
 */
struct rdma_mcm_nl;

/* Bit @bit of @mask, 0 from 64 on (no undefined shift): for the macro */
static inline int librdmamcm_bit(uint64_t mask, unsigned int bit)
{
	return bit < 64 && (int)((mask >> (bit & 63)) & 1);
}

#define RDMA_MCM_NL_HAS(obj, attr)					\
	librdmamcm_bit((obj)->present, (unsigned int)(attr))

#define RDMA_MCM_NL_NAME_LEN	64	/* owner, device: NUL-terminated */
#define RDMA_MCM_NL_IFNAME_LEN	16	/* IFNAMSIZ */
#define RDMA_MCM_NL_COUNTERS	32	/* >= __RDMA_MCM_CNT_MAX */
#define RDMA_MCM_NL_LIMITS	16	/* >= __RDMA_MCM_LIMIT_MAX */
#define RDMA_MCM_NL_USAGE	16	/* >= __RDMA_MCM_USAGE_MAX */
#define RDMA_MCM_NL_MCAST	6	/* >= __RDMA_MCM_MCAST_MAX */
#define RDMA_MCM_NL_ERRNOS	16	/* errno entries kept per breakdown */

/*
 * One entry of a breakdown by errno: @err positive, 0 for "any other".
 * The kernel sends up to 20. Beyond RDMA_MCM_NL_ERRNOS (1.6), the
 * library keeps by name the limit errnos (ENOSPC, EMFILE, ENOBUFS), then
 * those with the largest counts (on a tie, the one sent first), up to
 * RDMA_MCM_NL_ERRNOS - 1 of them, each with its own count; one entry of
 * errno 0 counts the kernel's "any other" and every errno not kept. The
 * entries keep the kernel's order; that of errno 0 is where the kernel
 * sent its own, else last. A named entry never holds another's count.
 */
struct rdma_mcm_nl_errno_count {
	uint32_t err;
	uint32_t reserved;
	uint64_t count;
};

/* Counters with their breakdowns: the module's, a device's, a context's */
struct rdma_mcm_nl_counters {
	uint64_t present;			/* bit: counter sent */
	uint64_t value[RDMA_MCM_NL_COUNTERS];	/* enum rdma_mcm_nl_counter */
	uint32_t n_join_failures;
	uint32_t n_errors;
	struct rdma_mcm_nl_errno_count join_failures[RDMA_MCM_NL_ERRNOS];
	struct rdma_mcm_nl_errno_count errors[RDMA_MCM_NL_ERRNOS];
};

/*
 * A membership (RDMA_MCM_CMD_MEMBER_GET) or the subject of an event.
 * @src and @group are a struct sockaddr_in, _in6 or _ib (the GID at
 * offset 8) of @family, port 0; family AF_UNSPEC when absent.
 *
 * 1.5, in what was reserved space: @sources points at @nr_sources
 * addresses (struct sockaddr_in or _in6, port 0), the sources of a
 * source-specific join (RDMA_MCM_A_SOURCES; none: any source). The array
 * is the handle's: valid during the dump's callback, or until the next
 * rdma_mcm_nl_read_event() for an event; NULL when @nr_sources is 0.
 * @joined_by is enum rdma_mcm_nl_joiner (RDMA_MCM_A_JOINED_BY), 0 when
 * absent (not joined yet, or a module older than the attribute).
 */
struct rdma_mcm_nl_member {
	uint64_t present;
	uint32_t ctx_id;
	uint32_t handle;
	uint32_t owner_kind;		/* enum rdma_mcm_nl_owner */
	uint32_t owner_pid;
	uint32_t owner_uid;
	uint32_t file_ctx;
	uint32_t netns;
	uint32_t port;
	char owner_name[RDMA_MCM_NL_NAME_LEN];
	char dev_name[RDMA_MCM_NL_NAME_LEN];
	char netdev[RDMA_MCM_NL_IFNAME_LEN];
	uint32_t family;
	uint32_t qkey;
	struct sockaddr_storage src;
	struct sockaddr_storage group;
	uint8_t mgid[16];
	uint16_t mlid;
	uint8_t join_type;		/* RDMA_MCM_JOIN_* */
	uint8_t state;			/* enum rdma_mcm_nl_state */
	int32_t status;
	int32_t last_status;
	uint32_t rejoins;
	uint32_t queued;
	uint32_t qp_attached;
	uint64_t age_ms;
	uint64_t state_age_ms;
	uint32_t nr_sources;		/* 1.5 */
	uint8_t joined_by;		/* 1.5: enum rdma_mcm_nl_joiner */
	uint8_t reserved1[3];
	const struct sockaddr_storage *sources;	/* 1.5 */
#if UINTPTR_MAX == UINT32_MAX
	uint32_t reserved2;		/* the pointer's 8 bytes on 32-bit */
#endif
	uint64_t present_hi;		/* 1.6: attributes 64 to 127 */
	uint64_t reserved[5];
};

/* A context (RDMA_MCM_CMD_CTX_GET) */
struct rdma_mcm_nl_context {
	uint64_t present;
	uint32_t ctx_id;
	uint32_t owner_kind;
	uint32_t owner_pid;
	uint32_t owner_uid;
	uint32_t file_ctx;
	uint32_t netns;
	uint32_t port;
	uint32_t flags;			/* RDMA_MCM_OPEN_* (1 heal, 2 route) */
	uint32_t members;
	uint32_t family;
	char owner_name[RDMA_MCM_NL_NAME_LEN];
	char dev_name[RDMA_MCM_NL_NAME_LEN];
	char netdev[RDMA_MCM_NL_IFNAME_LEN];
	struct sockaddr_storage src;
	struct rdma_mcm_nl_counters cnt;
	uint64_t present_hi;		/* 1.6: attributes 64 to 127 */
	uint64_t reserved[7];
};

/* An RDMA device's counters in struct rdma_mcm_nl_stats */
struct rdma_mcm_nl_device {
	char name[RDMA_MCM_NL_NAME_LEN];
	struct rdma_mcm_nl_counters cnt;
	/* the device's multicast limits and rdma_mcm's places (was reserved) */
	uint32_t mcast_present;			/* bit: value sent */
	uint32_t mcast[RDMA_MCM_NL_MCAST];	/* enum rdma_mcm_nl_mcast */
	uint32_t reserved;
};

/* RDMA_MCM_CMD_STATS_GET; rdma_mcm_nl_free_stats() frees it */
struct rdma_mcm_nl_stats {
	uint64_t present;
	struct rdma_mcm_nl_counters cnt;
	uint32_t limits_present;		/* bit: limit sent */
	uint32_t usage_present;			/* bit: count sent */
	uint32_t limits[RDMA_MCM_NL_LIMITS];	/* enum rdma_mcm_nl_limit */
	uint32_t usage[RDMA_MCM_NL_USAGE];	/* enum rdma_mcm_nl_usage */
	uint64_t events_lost;
	uint32_t n_devices;
	uint32_t reserved0;
	struct rdma_mcm_nl_device *devices;
	uint64_t present_hi;		/* 1.6: attributes 64 to 127 */
	uint64_t reserved[7];
};

/*
 * An event of the "events" group. (Not "struct rdma_mcm_nl_event": that
 * tag is the uapi header's enum.) @m holds the attributes the event
 * carried, @m.present which (RDMA_MCM_A_EVENT and RDMA_MCM_A_TIME_NS
 * among them).
 */
struct rdma_mcm_nl_notice {
	uint32_t event;			/* enum rdma_mcm_nl_event */
	uint32_t reserved0;
	uint64_t time_ns;		/* CLOCK_BOOTTIME */
	struct rdma_mcm_nl_member m;
	uint64_t reserved[4];
};

/*
 * Dump callbacks: return 0 to go on, anything else to stop the dump. A
 * callback's calls on the dump's handle fail with EBUSY.
 */
typedef int (*rdma_mcm_nl_member_cb)(const struct rdma_mcm_nl_member *m,
				     void *arg);
typedef int (*rdma_mcm_nl_context_cb)(const struct rdma_mcm_nl_context *c,
				      void *arg);

/* 1.4: open (ENOENT: the family is not registered), close */
struct rdma_mcm_nl *rdma_mcm_nl_open(void);
void rdma_mcm_nl_close(struct rdma_mcm_nl *nl);
/*
 * 1.6: the kernel's text (extended ACK) for the error of the handle's
 * last request, as "Unknown attribute type (attribute 5)", or NULL when
 * the kernel gave none (or the request did not fail). The handle's
 * string: valid until the next call on the handle.
 */
const char *rdma_mcm_nl_last_error(struct rdma_mcm_nl *nl);
/*
 * 1.4: streaming dumps. Return 0 when the dump ended, the callback's
 * non-zero value when it stopped it, or -1/errno.
 */
int rdma_mcm_nl_dump_members(struct rdma_mcm_nl *nl, uint32_t ctx_id,
			     rdma_mcm_nl_member_cb cb, void *arg);
int rdma_mcm_nl_dump_contexts(struct rdma_mcm_nl *nl,
			      rdma_mcm_nl_context_cb cb, void *arg);
/* 1.4: the module's counters, limits, usage and per-device counters */
struct rdma_mcm_nl_stats *rdma_mcm_nl_get_stats(struct rdma_mcm_nl *nl);
void rdma_mcm_nl_free_stats(struct rdma_mcm_nl_stats *st);
/*
 * 1.4: events. rdma_mcm_nl_monitor() joins the "events" group (EPERM
 * without CAP_NET_ADMIN) and the controller's "notify" group;
 * rdma_mcm_nl_read_event() returns 1 with an event, 0 when none is
 * waiting (the socket is non-blocking: poll the fd), -1/ENOBUFS when
 * events were lost (call again to go on), -1/ESHUTDOWN once the module
 * was unloaded (the family went away: no event comes any more; again
 * until rdma_mcm_nl_monitor() joins its events once it is back, ENOENT
 * while it is not). rdma_mcm_nl_get_fd() keeps its number for the
 * handle's life (the request socket's until rdma_mcm_nl_monitor(), then
 * the events socket's).
 */
int rdma_mcm_nl_monitor(struct rdma_mcm_nl *nl);
int rdma_mcm_nl_get_fd(struct rdma_mcm_nl *nl);
int rdma_mcm_nl_read_event(struct rdma_mcm_nl *nl,
			   struct rdma_mcm_nl_notice *ev);
/* 1.4: names: "joins", "join", "user"; "unknown" for any other value */
const char *rdma_mcm_nl_counter_str(uint32_t counter);
const char *rdma_mcm_nl_limit_str(uint32_t limit);
const char *rdma_mcm_nl_usage_str(uint32_t usage);
const char *rdma_mcm_nl_event_str(uint32_t event);
const char *rdma_mcm_nl_owner_str(uint32_t kind);
/* 1.5: "rdma_cm", "rdma_mcm"; "unknown" for any other value */
const char *rdma_mcm_nl_joiner_str(uint32_t joiner);

#ifdef __cplusplus
}
#endif

#endif /* LIBRDMAMCM_H */
