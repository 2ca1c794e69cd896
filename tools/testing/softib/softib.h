/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * softib: a software InfiniBand HCA for rdma_mcm's VM bench, with its own
 * subnet administrator. A test component, never loaded on a real host.
 *
 * The fabric: NDEV single-port devices (sib0, sib1, ...) behind one
 * switch whose subnet manager and SA sit at LID 1; port N has LID N + 2.
 * Unicast goes by LID and QPN; a datagram to a multicast LID goes, as a
 * switch forwards it, to every port the SA holds a receiving member of the
 * group for (and back to the sender's own port, as an HCA loops multicast
 * back, unless its QP blocks loopback), and on each of those ports to every
 * QP attached to the packet's MGID. A QP attached to a group whose port
 * never joined it through the SA receives nothing, as on a real fabric.
 *
 * Files: softib_main.c (module, fabric, devices, ports, events),
 * softib_verbs.c (PD, AH, CQ, QP objects and their queues),
 * softib_wire.c (post_send and delivery), softib_sa.c (the SA),
 * softib_debugfs.c (the control files the tests use).
 */
#ifndef _SOFTIB_H
#define _SOFTIB_H

#include <linux/completion.h>
#include <linux/list.h>
#include <linux/refcount.h>
#include <linux/spinlock.h>
#include <linux/xarray.h>
#include <rdma/ib_verbs.h>

#define SIB_MAX_DEV		4
#define SIB_SA_LID		1
#define SIB_FIRST_LID		2
#define SIB_MLID_BASE		0xc000
#define SIB_MTU			IB_MTU_2048
#define SIB_MTU_BYTES		2048
#define SIB_MAX_SGE		8
#define SIB_SUBNET_PREFIX	0xfe80000000000000ULL
#define SIB_GUID_BASE		0x0002c90300a1b200ULL
#define SIB_INJECT_QPN		0xfffff0	/* the generator's QPN */
#define SIB_MAX_FANOUT		64	/* QPs one datagram can reach */

/* a device's multicast limits (module parameters; 0 means no attach) */
struct sib_limits {
	u32 max_mcast_grp;
	u32 max_mcast_qp_attach;
	u32 max_total_mcast_qp_attach;
};

struct sib_dev {
	struct ib_device ibdev;
	unsigned int index;		/* sibN, and its port's LID N + 2 */
	/* port 1: state, lid and counters, under the fabric's lock */
	enum ib_port_state state;
	u16 lid;
	u32 cap_flags;			/* PortInfo:CapabilityMask */
	u64 guid;
	struct sib_limits limits;
	struct ib_qp *gsi;		/* QP1, the SA's peer */
	struct xarray qps;		/* UD QPN -> struct sib_qp */
	u32 next_qpn;
	/* multicast attachments of this device's QPs */
	spinlock_t mc_lock;
	struct list_head mc_groups;	/* struct sib_mc_group */
	u32 mc_groups_used;
	u32 mc_attach_used;
	/* counters, read in debugfs */
	atomic64_t tx, rx, drop_qkey, drop_norecv, drop_nogroup,
		drop_len, drop_state;
};

struct sib_mc_group {
	struct list_head node;
	union ib_gid mgid;
	u32 nr_qps;
	struct list_head attached;	/* struct sib_mc_attach */
};

struct sib_mc_attach {
	struct list_head node;
	struct sib_qp *qp;
	u16 mlid;
};

struct sib_pd {
	struct ib_pd ibpd;
};

struct sib_ah {
	struct ib_ah ibah;
	struct rdma_ah_attr attr;
};

/*
 * A CQ's handlers run from notify_work, never inside the verb that
 * completed the work request (post_send delivers in the sender's call, and
 * consumers post under locks of their own), as an HCA interrupts later.
 */
struct sib_cq {
	struct ib_cq ibcq;
	spinlock_t lock;		/* the ring and the flags below */
	struct ib_wc *ring;
	u32 size, head, count;
	bool armed;
	bool overflow;
	bool notify_pending, overrun_pending;
	struct work_struct notify_work;
};

struct sib_rwqe {
	u64 wr_id;
	u32 num_sge;
	struct ib_sge sge[SIB_MAX_SGE];
};

struct sib_qp {
	struct ib_qp ibqp;
	struct sib_dev *dev;
	refcount_t refs;		/* deliveries in progress, plus one */
	struct completion gone;
	spinlock_t lock;		/* state, attributes, receive queue */
	enum ib_qp_state state;
	u32 qkey;
	u8 port;
	bool block_loopback;
	bool signal_all;
	u32 max_send_wr, max_recv_wr, max_send_sge, max_recv_sge;
	struct sib_rwqe *rq;
	u32 rq_head, rq_count;
};

static inline struct sib_dev *to_sdev(struct ib_device *ibdev)
{
	return container_of(ibdev, struct sib_dev, ibdev);
}

static inline struct sib_qp *to_sqp(struct ib_qp *ibqp)
{
	return container_of(ibqp, struct sib_qp, ibqp);
}

static inline struct sib_cq *to_scq(struct ib_cq *ibcq)
{
	return container_of(ibcq, struct sib_cq, ibcq);
}

static inline struct sib_ah *to_sah(struct ib_ah *ibah)
{
	return container_of(ibah, struct sib_ah, ibah);
}

/* softib_main.c: the fabric */
extern struct workqueue_struct *sib_wq;	/* CQ notifications */
extern spinlock_t sib_fabric_lock;
extern struct sib_dev *sib_devs[SIB_MAX_DEV];
extern unsigned int sib_ndev;
void sib_port_gid(const struct sib_dev *dev, union ib_gid *gid);
struct sib_dev *sib_dev_by_lid(u16 lid);
void sib_port_event(struct sib_dev *dev, enum ib_event_type type);
int sib_port_set_state(unsigned int index, bool up);
int sib_set_lid(unsigned int index, unsigned int lid);
void sib_event_all(enum ib_event_type ev);
int sib_dev_add(unsigned int index);
int sib_dev_remove(unsigned int index);

/* softib_verbs.c */
extern const struct ib_device_ops sib_verbs_ops;
struct sib_qp *sib_qp_get(struct sib_dev *dev, u32 qpn);
void sib_qp_put(struct sib_qp *qp);
int sib_cq_push(struct sib_cq *cq, const struct ib_wc *wc);
int __sib_qp_take_rwqe(struct sib_qp *qp, struct sib_rwqe *out);
int sib_mc_receivers(struct sib_dev *dev, const union ib_gid *mgid,
		     struct sib_qp *sender, struct sib_qp **out, int max);

/* softib_wire.c */
int sib_post_send(struct ib_qp *ibqp, const struct ib_send_wr *wr,
		  const struct ib_send_wr **bad_wr);
/* a MAD from the SA (LID 1, QP1) to a port's QP1 */
void sib_wire_sa_reply(u16 dlid, const void *mad, size_t len);
/* the tests' traffic generator at LID 1 */
int sib_wire_inject(const union ib_gid *mgid, u32 qkey, u32 count, u32 size);

/* softib_sa.c */
int sib_sa_init(void);
void sib_sa_exit(void);
/* a MAD sent to the SA; called in any context, copies what it keeps */
void sib_sa_receive(u16 slid, const void *mad, size_t len);
/* does a port hold a receiving membership of the group with this MLID */
bool sib_sa_port_receives(u16 mlid, const union ib_gid *port_gid);
/* the MLID of the group MGID, 0 if the SA has none */
u16 sib_sa_mlid(const union ib_gid *mgid);
void sib_sa_port_down(const union ib_gid *port_gid);
void sib_sa_restart(void);
struct seq_file;
void sib_sa_show_records(struct seq_file *m);
void sib_sa_show_log(struct seq_file *m);
int sib_sa_control(const char *cmd, const char *arg);

/* softib_debugfs.c */
void sib_debugfs_init(void);
void sib_debugfs_exit(void);

#endif /* _SOFTIB_H */
