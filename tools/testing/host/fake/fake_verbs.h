/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * A fake libibverbs in the test process: the functions of libibverbs the
 * library and the CLI call are defined here, so a program linked with
 * fake_verbs.o uses them instead of libibverbs'. It plays RDMA devices
 * with ports and GID tables, and the verbs objects a UD application makes
 * (PDs, completion channels, CQs, MRs, QPs, AHs), with the rules of the
 * real ones: a PD, CQ or channel still in use cannot be destroyed
 * (EBUSY), and each rule broken is counted.
 *
 * Datagrams: a QP in RTR that is attached to a group and has receives
 * posted gets one receive completion each time its CQ is polled, with
 * the GRH an HCA writes in the first 40 bytes of the receive's buffer
 * (fake_grh.c: RoCE v2 by default, from the senders of fv.src in turn);
 * a send completes at once. A device can be removed as the kernel removes one:
 * it leaves the device list and delivers nothing more, and it is gone
 * only once every context on it is closed and every object destroyed
 * (then on_released runs); it can come back.
 */
#ifndef FAKE_VERBS_H
#define FAKE_VERBS_H

#include <stdint.h>

#include <infiniband/verbs.h>

#define FV_MAX_DEV	2
#define FV_MAX_PORT	3
#define FV_MAX_GID	16
#define FV_MAX_CALLS	16
#define FV_MAX_SRC	8

/* The GRH of a received datagram (fake_grh.c) */
enum fv_grh {
	FV_GRH_ROCE_V2,			/* IPv4: its header in bytes 20..39 */
	FV_GRH_IB,			/* the GRH (RoCE v1, InfiniBand) */
	FV_GRH_NONE,			/* none: no IBV_WC_GRH */
};

struct fv_gid {
	uint8_t gid[16];
	uint32_t type;			/* enum ibv_gid_type */
	uint32_t ifindex;		/* its netdev */
};

struct fv_port {
	uint8_t link_layer;
	int ngids;
	struct fv_gid gid[FV_MAX_GID];
};

struct fv_dev {
	struct ibv_device ibdev;	/* its name */
	uint64_t guid;			/* its node GUID, network order */
	int used;
	int present;			/* listed, can be opened */
	int removing;			/* going: waits for its users */
	int nports;
	struct fv_port port[FV_MAX_PORT + 1];	/* from 1 */
	int contexts;			/* open ibv_contexts */
	int objects;			/* live PDs, channels, CQs, MRs, QPs, AHs */
	unsigned int opens;		/* ibv_open_device() calls that worked */
};

/* An ibv_attach_mcast() or ibv_detach_mcast() call */
struct fv_mcast_call {
	struct ibv_qp *qp;
	uint8_t gid[16];
	uint16_t lid;
};

struct fake_verbs {
	struct fv_dev dev[FV_MAX_DEV];
	/* calls, for the library's tests */
	struct fv_mcast_call attached[FV_MAX_CALLS];
	struct fv_mcast_call detached[FV_MAX_CALLS];
	int nr_attached;
	int nr_detached;
	int nr_create_ah;
	struct ibv_ah_attr ah_attr;	/* what the last ibv_create_ah() got */
	/* traffic */
	enum fv_grh grh;		/* what receives get */
	uint8_t src[FV_MAX_SRC][16];	/* senders (IPv4 as ::ffff:a.b.c.d) */
	int nsrc;			/* 0: 10.0.0.2, 2001:db8::2 */
	unsigned long next_src;		/* datagrams given a GRH */
	unsigned long delivered;	/* receive completions given */
	unsigned long sent;		/* send completions given */
	/* rules broken: EBUSY destroys, close with live objects */
	int violations;
	int destroyed_attached;		/* QPs destroyed while attached */
	/* hooks: after each datagram; when a removed device's users left */
	void (*on_datagram)(void);
	void (*on_released)(struct fv_dev *d);
};

extern struct fake_verbs fv;

/* Forget every device and object count; hooks off */
void fv_reset(void);
/* A device, present, without ports */
struct fv_dev *fv_add_dev(const char *name);
/* Its next port (IBV_LINK_LAYER_ETHERNET or _INFINIBAND) */
int fv_add_port(struct fv_dev *d, uint8_t link_layer);
/* A GID entry (text as inet_pton AF_INET6 takes it) on @port */
void fv_add_gid(struct fv_dev *d, int port, const char *gid, uint32_t type,
		uint32_t ifindex);
/* The kernel starts removing it: unlisted, no traffic, waits for users */
void fv_remove(struct fv_dev *d);
/* It is registered again */
void fv_restore(struct fv_dev *d);
/* Whether @qp (one this fake created) is attached to any group */
int fv_qp_attached(struct ibv_qp *qp);
/* A sender of the datagrams: an IPv4 or IPv6 literal; 0 or -1 */
int fv_add_source(const char *text);
/*
 * fake_grh.c: the GRH of a datagram to group @mgid (as attached) from the
 * next sender of its family, in the first 40 bytes of @buf (@len bytes);
 * returns 1 if it wrote one (IBV_WC_GRH), 0 if not
 */
int fv_grh_fill(uint8_t *buf, size_t len, const uint8_t mgid[16]);

#endif /* FAKE_VERBS_H */
