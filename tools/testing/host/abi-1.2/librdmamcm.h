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
 * _join_entry, _leave_entry) are used as they are: see
 * <rdma/rdma_mcm_abi.h> and the man pages, librdmamcm(7). The functions
 * never read or write more of them than their size in LIBRDMAMCM_1.0
 * (72, 184, 152 and 152 bytes).
 */
#ifndef LIBRDMAMCM_H
#define LIBRDMAMCM_H

#include <stdint.h>
#include <sys/socket.h>
#include <rdma/rdma_mcm_abi.h>

#ifdef __cplusplus
extern "C" {
#endif

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

/* Contexts: one per local source address. */
int rdma_mcm_create_ctx(struct rdma_mcm_channel *ch,
			const struct sockaddr *src, uint32_t *ctx_id);
int rdma_mcm_destroy_ctx(struct rdma_mcm_channel *ch, uint32_t ctx_id);

/* Joins. */
int rdma_mcm_join(struct rdma_mcm_channel *ch, uint32_t ctx_id,
		  const struct sockaddr *group, int join_flags,
		  uint64_t cookie, uint32_t *handle);
int rdma_mcm_join_sync(struct rdma_mcm_channel *ch, uint32_t ctx_id,
		       const struct sockaddr *group, int join_flags,
		       uint64_t cookie, int timeout_ms,
		       struct rdma_mcm_event *joined);
int rdma_mcm_join_batch(struct rdma_mcm_channel *ch, uint32_t ctx_id,
			struct rdma_mcm_join_entry *entries, unsigned int n);

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

/* Membership state. */
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

/* Helpers. */
int rdma_mcm_parse_addr(const char *text, struct sockaddr_storage *out);
const char *rdma_mcm_state_str(uint32_t state);
const char *rdma_mcm_event_str(uint32_t event);

#ifdef __cplusplus
}
#endif

#endif /* LIBRDMAMCM_H */
