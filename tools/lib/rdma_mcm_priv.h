/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * librdmamcm internals: the channel, its event queue and its membership
 * table. Nothing here is exported from librdmamcm.so; the host unit tests
 * link librdmamcm.a and replace rdma_mcm_io to run without a kernel.
 */
#ifndef RDMA_MCM_PRIV_H
#define RDMA_MCM_PRIV_H

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
#define MCM_MAX_BATCH	65536

/**
 * struct rdma_mcm_io - how a channel talks to its device
 * @open: open the device; returns an fd (always non-blocking) or -1/errno
 * @ioctl: ioctl(2) on it: 0 or -1/errno
 * @read: read(2) on it: bytes or -1/errno
 * @close: close(2) it
 *
 * rdma_mcm_io points at the real device; the tests point it at a fake.
 * The fd must be pollable: POLLIN while events are queued.
 */
struct rdma_mcm_io {
	int (*open)(void *priv);
	int (*ioctl)(void *priv, int fd, unsigned long req, void *arg);
	ssize_t (*read)(void *priv, int fd, void *buf, size_t len);
	void (*close)(void *priv, int fd);
};

extern MCM_HIDDEN const struct rdma_mcm_io *rdma_mcm_io;
extern MCM_HIDDEN void *rdma_mcm_io_priv;
extern MCM_HIDDEN const struct rdma_mcm_io rdma_mcm_dev_io;

/* Events read from the kernel but not yet returned to the application */
struct mcm_queue {
	struct rdma_mcm_event *ev;
	size_t cap;
	size_t head;
	size_t len;
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
};

struct mcm_table {
	struct mcm_member **by_handle;
	struct mcm_member **by_addr;
	size_t nbuckets;
	size_t count;
};

struct rdma_mcm_channel {
	int fd;
	int flags;			/* O_NONBLOCK as the application asked */
	uint32_t abi_version;
	const struct rdma_mcm_io *io;
	void *io_priv;
	struct mcm_queue queue;
	struct mcm_table members;
};

/* channel.c */
MCM_HIDDEN int mcm_ioctl(struct rdma_mcm_channel *ch, unsigned long req,
			 void *arg);
MCM_HIDDEN int mcm_fill(struct rdma_mcm_channel *ch);
MCM_HIDDEN int mcm_poll(struct rdma_mcm_channel *ch, int timeout_ms);

/* queue.c */
MCM_HIDDEN void mcm_queue_free(struct mcm_queue *q);
MCM_HIDDEN int mcm_queue_reserve(struct mcm_queue *q, size_t n);
MCM_HIDDEN void mcm_queue_push(struct mcm_queue *q,
			       const struct rdma_mcm_event *ev);
MCM_HIDDEN int mcm_queue_pop(struct mcm_queue *q, struct rdma_mcm_event *ev);
MCM_HIDDEN int mcm_queue_take(struct mcm_queue *q, uint32_t ctx_id,
			      uint32_t handle, struct rdma_mcm_event *ev);
MCM_HIDDEN size_t mcm_queue_drop(struct mcm_queue *q, uint32_t ctx_id,
				 uint32_t handle, int any_handle);
MCM_HIDDEN size_t mcm_queue_count(const struct mcm_queue *q, uint32_t ctx_id,
				  uint32_t handle);

/* members.c */
MCM_HIDDEN void mcm_table_free(struct mcm_table *t);
MCM_HIDDEN int mcm_table_add(struct mcm_table *t, uint32_t ctx_id,
			     uint32_t handle, uint32_t join_flags,
			     const struct sockaddr *group);
MCM_HIDDEN struct mcm_member *mcm_table_find(struct mcm_table *t,
					     uint32_t ctx_id, uint32_t handle);
MCM_HIDDEN struct mcm_member *mcm_table_find_addr(struct mcm_table *t,
						  uint32_t ctx_id,
						  const struct sockaddr *group);
MCM_HIDDEN void mcm_table_del(struct mcm_table *t, struct mcm_member *m);
MCM_HIDDEN void mcm_table_del_ctx(struct mcm_table *t, uint32_t ctx_id);

/* addr.c */
MCM_HIDDEN size_t mcm_addr_len(const struct sockaddr *sa);
MCM_HIDDEN int mcm_addr_key(const struct sockaddr *sa, uint8_t key[16],
			    uint32_t *key_len);
MCM_HIDDEN int mcm_addr_copy(const struct sockaddr *sa, uint8_t *buf,
			     uint32_t *len);
MCM_HIDDEN int mcm_status_errno(int32_t status);

#endif /* RDMA_MCM_PRIV_H */
