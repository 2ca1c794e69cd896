// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * softib: the wire. A UD send is delivered inside post_send, as a packet
 * on an idle fabric arrives before the sender could poll: the payload is
 * copied from the sender's SGEs into each receiver's posted buffer (the
 * core maps with virtual addresses: an SGE's addr is a kernel address),
 * behind the 40 bytes every UD receive buffer keeps for a GRH. What a
 * fabric loses, softib loses too, and counts: a datagram to a QP with no
 * receive posted, with the wrong Q_Key, on a port that is down, or to a
 * multicast LID the SA has no group for.
 *
 * A traffic generator stands on the switch's own port (LID 1, beside the
 * SM) for the tests: sib_wire_inject() sends datagrams to a group as a
 * host on another switch port would, forwarded by the SA's records.
 */
#include <rdma/ib_mad.h>
#include "softib.h"

struct sib_pkt {
	const struct ib_sge *sge;
	int num_sge;
	u32 len;
	struct ib_grh grh;
	bool has_grh;
	u16 slid;
	u32 sqpn;
	u32 qkey;
	u8 sl;
	bool has_imm;
	__be32 imm;
};

/* Writes LEN bytes from SRC at offset OFF of a receive's buffer. */
static void sib_scatter(const struct sib_rwqe *w, u32 off, const void *src,
			u32 len)
{
	u32 i;

	for (i = 0; i < w->num_sge && len; i++) {
		u32 l = w->sge[i].length, n;

		if (off >= l) {
			off -= l;
			continue;
		}
		n = min(len, l - off);
		memcpy((void *)(uintptr_t)w->sge[i].addr + off, src, n);
		src += n;
		len -= n;
		off = 0;
	}
}

static u32 sib_rwqe_len(const struct sib_rwqe *w)
{
	u32 i, len = 0;

	for (i = 0; i < w->num_sge; i++)
		len += w->sge[i].length;
	return len;
}

/*
 * Hands PKT to RQP's oldest posted receive, if RQP may take it; true when
 * it was received. Under rqp->lock from the state check to the completion,
 * so that a move to ERR flushes after it or before it, never in between.
 */
static bool sib_deliver(struct sib_qp *rqp, const struct sib_pkt *pkt)
{
	struct sib_dev *dev = rqp->dev;
	struct ib_wc wc = {};
	struct sib_rwqe w;
	unsigned long flags;
	bool received = false;
	u32 off;
	int i;

	spin_lock_irqsave(&rqp->lock, flags);
	if (rqp->state != IB_QPS_RTR && rqp->state != IB_QPS_RTS) {
		atomic64_inc(&dev->drop_state);
		goto out;
	}
	if (rqp->qkey != pkt->qkey) {
		atomic64_inc(&dev->drop_qkey);
		goto out;
	}
	if (__sib_qp_take_rwqe(rqp, &w)) {
		atomic64_inc(&dev->drop_norecv);
		goto out;
	}
	wc.wr_id = w.wr_id;
	wc.qp = &rqp->ibqp;
	wc.opcode = IB_WC_RECV;
	if (sib_rwqe_len(&w) < sizeof(struct ib_grh) + pkt->len) {
		wc.status = IB_WC_LOC_LEN_ERR;
		atomic64_inc(&dev->drop_len);
		goto done;
	}
	if (pkt->has_grh)
		sib_scatter(&w, 0, &pkt->grh, sizeof(pkt->grh));
	off = sizeof(struct ib_grh);
	for (i = 0; i < pkt->num_sge; i++) {
		sib_scatter(&w, off, (void *)(uintptr_t)pkt->sge[i].addr,
			    pkt->sge[i].length);
		off += pkt->sge[i].length;
	}
	wc.status = IB_WC_SUCCESS;
	wc.byte_len = sizeof(struct ib_grh) + pkt->len;
	wc.src_qp = pkt->sqpn;
	wc.slid = pkt->slid;
	wc.sl = pkt->sl;
	wc.port_num = 1;
	wc.pkey_index = 0;
	wc.wc_flags = (pkt->has_grh ? IB_WC_GRH : 0) |
		      (pkt->has_imm ? IB_WC_WITH_IMM : 0);
	wc.ex.imm_data = pkt->imm;
	atomic64_inc(&dev->rx);
	received = true;
done:
	sib_cq_push(to_scq(rqp->ibqp.recv_cq), &wc);
out:
	spin_unlock_irqrestore(&rqp->lock, flags);
	return received;
}

/*
 * A multicast datagram: to every port the SA forwards the MLID to (a port
 * with a receiving member) but the sender's, and back to the sender's own
 * port as HCA loopback; on each, to the QPs attached to the GRH's MGID.
 */
/* Returns how many QPs received the datagram. SENDER may be NULL. */
static int sib_send_mcast(struct sib_qp *sender, u16 mlid,
			  const struct sib_pkt *pkt)
{
	struct sib_qp *rqps[SIB_MAX_FANOUT];
	union ib_gid gid;
	unsigned int i;
	unsigned long flags;
	int n = 0, k, got;

	spin_lock_irqsave(&sib_fabric_lock, flags);
	for (i = 0; i < sib_ndev; i++) {
		struct sib_dev *d = sib_devs[i];

		if (!d || d->state != IB_PORT_ACTIVE)
			continue;
		sib_port_gid(d, &gid);
		if ((!sender || d != sender->dev) &&
		    !sib_sa_port_receives(mlid, &gid))
			continue;
		n += sib_mc_receivers(d, &pkt->grh.dgid, sender, rqps + n,
				      SIB_MAX_FANOUT - n);
	}
	spin_unlock_irqrestore(&sib_fabric_lock, flags);
	if (!n && sender)
		atomic64_inc(&sender->dev->drop_nogroup);
	for (k = 0, got = 0; k < n; k++) {
		got += sib_deliver(rqps[k], pkt);
		sib_qp_put(rqps[k]);
	}
	return got;
}

/* PKT to QP DQPN of the active port at DLID; false when there is none. */
static bool sib_deliver_ucast(u16 dlid, u32 dqpn, const struct sib_pkt *pkt)
{
	struct sib_qp *rqp = NULL;
	struct sib_dev *d;
	unsigned long flags;

	spin_lock_irqsave(&sib_fabric_lock, flags);
	d = sib_dev_by_lid(dlid);
	if (d && d->state == IB_PORT_ACTIVE)
		rqp = sib_qp_get(d, dqpn);
	spin_unlock_irqrestore(&sib_fabric_lock, flags);
	if (!rqp)
		return false;
	sib_deliver(rqp, pkt);
	sib_qp_put(rqp);
	return true;
}

static void sib_send_ucast(struct sib_qp *sender, u16 dlid, u32 dqpn,
			   const struct sib_pkt *pkt)
{
	if (dlid == SIB_SA_LID) {
		u8 mad[IB_MGMT_MAD_SIZE];
		u32 off = 0;
		int i;

		if (dqpn != 1 || pkt->len > sizeof(mad)) {
			atomic64_inc(&sender->dev->drop_norecv);
			return;
		}
		for (i = 0; i < pkt->num_sge; i++) {
			memcpy(mad + off, (void *)(uintptr_t)pkt->sge[i].addr,
			       pkt->sge[i].length);
			off += pkt->sge[i].length;
		}
		sib_sa_receive(pkt->slid, mad, off);
		return;
	}
	if (!sib_deliver_ucast(dlid, dqpn, pkt))
		atomic64_inc(&sender->dev->drop_norecv);
}

/* One send work request; returns the status its completion carries. */
static enum ib_wc_status sib_transmit(struct sib_qp *qp,
				      const struct ib_ud_wr *uwr, u32 len)
{
	const struct rdma_ah_attr *ah = &to_sah(uwr->ah)->attr;
	struct sib_dev *dev = qp->dev;
	struct sib_pkt pkt = {
		.sge = uwr->wr.sg_list,
		.num_sge = uwr->wr.num_sge,
		.len = len,
		.sqpn = qp->ibqp.qp_num,
		.qkey = uwr->remote_qkey,
		.sl = rdma_ah_get_sl(ah),
		.has_imm = uwr->wr.opcode == IB_WR_SEND_WITH_IMM,
		.imm = uwr->wr.ex.imm_data,
	};
	u16 dlid = rdma_ah_get_dlid(ah);
	unsigned long flags;
	bool up;

	if (len > SIB_MTU_BYTES)
		return IB_WC_LOC_LEN_ERR;
	spin_lock_irqsave(&sib_fabric_lock, flags);
	up = dev->state == IB_PORT_ACTIVE;
	pkt.slid = dev->lid;
	spin_unlock_irqrestore(&sib_fabric_lock, flags);
	atomic64_inc(&dev->tx);
	if (!up) {
		/* the link is down: the datagram is lost, the send completes */
		atomic64_inc(&dev->drop_state);
		return IB_WC_SUCCESS;
	}
	/* a Q_Key with its high bit set means the QP's own (not QP1's) */
	if ((pkt.qkey & 0x80000000) && qp->ibqp.qp_type == IB_QPT_UD)
		pkt.qkey = qp->qkey;
	if (rdma_ah_get_ah_flags(ah) & IB_AH_GRH) {
		const struct ib_global_route *grh = rdma_ah_read_grh(ah);

		pkt.has_grh = true;
		pkt.grh.version_tclass_flow =
			cpu_to_be32(6U << 28 | (u32)grh->traffic_class << 20 |
				    (grh->flow_label & 0xfffff));
		pkt.grh.paylen = cpu_to_be16(len);
		pkt.grh.next_hdr = 0x1b;
		pkt.grh.hop_limit = grh->hop_limit;
		sib_port_gid(dev, &pkt.grh.sgid);
		pkt.grh.dgid = grh->dgid;
	}
	if (dlid >= SIB_MLID_BASE && dlid != be16_to_cpu(IB_LID_PERMISSIVE)) {
		if (!pkt.has_grh)	/* a multicast packet carries a GRH */
			return IB_WC_LOC_QP_OP_ERR;
		sib_send_mcast(qp, dlid, &pkt);
	} else {
		sib_send_ucast(qp, dlid, uwr->remote_qpn, &pkt);
	}
	return IB_WC_SUCCESS;
}

int sib_post_send(struct ib_qp *ibqp, const struct ib_send_wr *wr,
		  const struct ib_send_wr **bad_wr)
{
	struct sib_qp *qp = to_sqp(ibqp);
	unsigned long flags;
	int ret = 0;

	for (; wr; wr = wr->next) {
		struct ib_wc wc = { .wr_id = wr->wr_id, .qp = ibqp,
				    .opcode = IB_WC_SEND };
		enum ib_qp_state state;
		u32 len = 0;
		int i;

		spin_lock_irqsave(&qp->lock, flags);
		state = qp->state;
		spin_unlock_irqrestore(&qp->lock, flags);
		if (state == IB_QPS_ERR) {
			/*
			 * Flushed whatever it is: ib_drain_sq()'s marker is an
			 * RDMA WRITE with no address handle.
			 */
			wc.status = IB_WC_WR_FLUSH_ERR;
			sib_cq_push(to_scq(ibqp->send_cq), &wc);
			continue;
		}
		if (wr->num_sge > qp->max_send_sge ||
		    (wr->opcode != IB_WR_SEND &&
		     wr->opcode != IB_WR_SEND_WITH_IMM)) {
			ret = -EINVAL;
			break;
		}
		if (state != IB_QPS_RTS && state != IB_QPS_SQD) {
			ret = -EINVAL;
			break;
		}
		for (i = 0; i < wr->num_sge; i++)
			len += wr->sg_list[i].length;
		wc.byte_len = len;
		wc.status = sib_transmit(qp, ud_wr(wr), len);
		if (wc.status != IB_WC_SUCCESS || qp->signal_all ||
		    (wr->send_flags & IB_SEND_SIGNALED))
			sib_cq_push(to_scq(ibqp->send_cq), &wc);
	}
	if (ret && bad_wr)
		*bad_wr = wr;
	return ret;
}

/* A MAD from the SA (LID 1, QP1) to the QP1 of the port at DLID. */
void sib_wire_sa_reply(u16 dlid, const void *mad, size_t len)
{
	struct ib_sge sge = { .addr = (uintptr_t)mad, .length = len };
	struct sib_pkt pkt = {
		.sge = &sge,
		.num_sge = 1,
		.len = len,
		.slid = SIB_SA_LID,
		.sqpn = 1,
		.qkey = IB_QP1_QKEY,
	};

	/* a port gone meanwhile: the answer is lost, as on a fabric */
	sib_deliver_ucast(dlid, 1, &pkt);
}

/*
 * The generator: COUNT datagrams of SIZE bytes (a counter in the first 4)
 * from LID 1 to the group MGID with Q_Key QKEY, forwarded as the SA's
 * records say. Returns how many times a QP received one (datagrams times
 * QPs that took them), -ENOENT when the SA has no such group.
 */
int sib_wire_inject(const union ib_gid *mgid, u32 qkey, u32 count, u32 size)
{
	struct ib_sge sge;
	struct sib_pkt pkt = {
		.sge = &sge,
		.num_sge = 1,
		.len = size,
		.has_grh = true,
		.slid = SIB_SA_LID,
		.sqpn = SIB_INJECT_QPN,
		.qkey = qkey,
	};
	u32 i, total = 0;
	__be32 *buf;
	u16 mlid;

	if (size < sizeof(*buf) || size > SIB_MTU_BYTES || !count ||
	    count > 100000)
		return -EINVAL;
	mlid = sib_sa_mlid(mgid);
	if (!mlid)
		return -ENOENT;
	buf = kzalloc(size, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	sge.addr = (uintptr_t)buf;
	sge.length = size;
	pkt.grh.version_tclass_flow = cpu_to_be32(6U << 28);
	pkt.grh.paylen = cpu_to_be16(size);
	pkt.grh.next_hdr = 0x1b;
	pkt.grh.hop_limit = 1;
	pkt.grh.sgid.global.subnet_prefix = cpu_to_be64(SIB_SUBNET_PREFIX);
	pkt.grh.sgid.global.interface_id = cpu_to_be64(SIB_GUID_BASE - 1);
	pkt.grh.dgid = *mgid;
	for (i = 0; i < count; i++) {
		*buf = cpu_to_be32(i);
		total += sib_send_mcast(NULL, mlid, &pkt);
		cond_resched();
	}
	kfree(buf);
	return total;
}
