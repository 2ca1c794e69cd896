// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * softib: the verbs objects (PD, AH, CQ, QP), QP state and receive
 * queues, and multicast attach. Kernel consumers only: no ucontext, so
 * ib_uverbs leaves the device alone; every verb not here is missing from
 * the ops and the core answers -EOPNOTSUPP for it.
 */
#include <linux/slab.h>
#include <rdma/ib_mad.h>
#include "rdma_mcm_compat.h"
#include "softib.h"

static int sib_alloc_pd(struct ib_pd *ibpd, struct ib_udata *udata)
{
	return udata ? -EOPNOTSUPP : 0;
}

static int sib_dealloc_pd(struct ib_pd *ibpd, struct ib_udata *udata)
{
	return 0;
}

static int sib_create_ah(struct ib_ah *ibah, struct rdma_ah_init_attr *init,
			 struct ib_udata *udata)
{
	if (udata)
		return -EOPNOTSUPP;
	to_sah(ibah)->attr = *init->ah_attr;
	return 0;
}

/* ib_sa reads its SM address back before every query (alloc_mad()) */
static int sib_query_ah(struct ib_ah *ibah, struct rdma_ah_attr *attr)
{
	*attr = to_sah(ibah)->attr;
	return 0;
}

static int sib_destroy_ah(struct ib_ah *ibah, u32 flags)
{
	return 0;
}

static void sib_cq_notify(struct work_struct *work);

static int sib_cq_init(struct ib_cq *ibcq, const struct ib_cq_init_attr *attr)
{
	struct sib_cq *cq = to_scq(ibcq);

	if (attr->flags || !attr->cqe || attr->cqe > 65536)
		return -EINVAL;
	cq->ring = kvcalloc(attr->cqe, sizeof(*cq->ring), GFP_KERNEL);
	if (!cq->ring)
		return -ENOMEM;
	spin_lock_init(&cq->lock);
	INIT_WORK(&cq->notify_work, sib_cq_notify);
	cq->size = attr->cqe;
	ibcq->cqe = attr->cqe;
	return 0;
}

/* create_cq() of 6.11 and later: kernel CQs only, so no attribute to read */
static int __maybe_unused sib_create_cq(struct ib_cq *ibcq,
					const struct ib_cq_init_attr *attr,
					struct uverbs_attr_bundle *attrs)
{
	return sib_cq_init(ibcq, attr);
}

/* create_cq() before 6.11 */
static int __maybe_unused sib_create_cq_udata(struct ib_cq *ibcq,
					      const struct ib_cq_init_attr *attr,
					      struct ib_udata *udata)
{
	return udata ? -EOPNOTSUPP : sib_cq_init(ibcq, attr);
}

static int sib_destroy_cq(struct ib_cq *ibcq, struct ib_udata *udata)
{
	/* no handler runs once the CQ is gone */
	cancel_work_sync(&to_scq(ibcq)->notify_work);
	kvfree(to_scq(ibcq)->ring);
	return 0;
}

/*
 * Queues a completion; if the CQ was armed, its completion handler runs
 * from the CQ's work. A full CQ loses the completion and reports
 * IB_EVENT_CQ_ERR once, then goes on taking completions when there is
 * room (a lossy CQ: IBA would put it in error). Any context, any lock of
 * softib's held.
 */
int sib_cq_push(struct sib_cq *cq, const struct ib_wc *wc)
{
	unsigned long flags;
	bool kick = false, lost = false;

	spin_lock_irqsave(&cq->lock, flags);
	if (cq->count == cq->size) {
		lost = true;
		if (!cq->overflow) {
			cq->overflow = true;
			cq->overrun_pending = true;
			kick = true;
		}
	} else {
		cq->ring[(cq->head + cq->count) % cq->size] = *wc;
		cq->count++;
		if (cq->armed) {
			cq->armed = false;
			cq->notify_pending = true;
			kick = true;
		}
	}
	spin_unlock_irqrestore(&cq->lock, flags);
	if (kick)
		queue_work(sib_wq, &cq->notify_work);
	return lost ? -ENOSPC : 0;
}

static void sib_cq_notify(struct work_struct *work)
{
	struct sib_cq *cq = container_of(work, struct sib_cq, notify_work);
	bool notify, overrun;

	spin_lock_irq(&cq->lock);
	notify = cq->notify_pending;
	overrun = cq->overrun_pending;
	cq->notify_pending = false;
	cq->overrun_pending = false;
	spin_unlock_irq(&cq->lock);

	if (overrun && cq->ibcq.event_handler) {
		struct ib_event ev = {
			.device = cq->ibcq.device,
			.event = IB_EVENT_CQ_ERR,
			.element.cq = &cq->ibcq,
		};

		cq->ibcq.event_handler(&ev, cq->ibcq.cq_context);
	}
	if (notify && cq->ibcq.comp_handler)
		cq->ibcq.comp_handler(&cq->ibcq, cq->ibcq.cq_context);
}

static int sib_poll_cq(struct ib_cq *ibcq, int n, struct ib_wc *wc)
{
	struct sib_cq *cq = to_scq(ibcq);
	unsigned long flags;
	int i;

	spin_lock_irqsave(&cq->lock, flags);
	for (i = 0; i < n && cq->count; i++) {
		wc[i] = cq->ring[cq->head];
		cq->head = (cq->head + 1) % cq->size;
		cq->count--;
	}
	spin_unlock_irqrestore(&cq->lock, flags);
	return i;
}

static int sib_req_notify_cq(struct ib_cq *ibcq, enum ib_cq_notify_flags flags)
{
	struct sib_cq *cq = to_scq(ibcq);
	unsigned long irqflags;
	int ret = 0;

	spin_lock_irqsave(&cq->lock, irqflags);
	cq->armed = true;
	if ((flags & IB_CQ_REPORT_MISSED_EVENTS) && cq->count)
		ret = 1;
	spin_unlock_irqrestore(&cq->lock, irqflags);
	return ret;
}

/*
 * Memory registration: only the DMA MR the core insists a kernel verbs
 * provider has (ib_device_check_mandatory()); softib's lkey 0 reaches all
 * of kernel memory, and it has no user memory to register.
 */
static struct ib_mr *sib_get_dma_mr(struct ib_pd *ibpd, int access)
{
	struct ib_mr *mr = kzalloc_obj(*mr, GFP_KERNEL);

	if (!mr)
		return ERR_PTR(-ENOMEM);
	mr->lkey = 0;
	mr->rkey = 0;
	return mr;
}

/* reg_user_mr() of 6.17 and later (a DMA handle), and before */
static struct ib_mr *__maybe_unused
sib_reg_user_mr(struct ib_pd *ibpd, u64 start, u64 len, u64 iova, int access,
		struct ib_dmah *dmah, struct ib_udata *udata)
{
	return ERR_PTR(-EOPNOTSUPP);
}

static struct ib_mr *__maybe_unused
sib_reg_user_mr_old(struct ib_pd *ibpd, u64 start, u64 len, u64 iova,
		    int access, struct ib_udata *udata)
{
	return ERR_PTR(-EOPNOTSUPP);
}

static int sib_dereg_mr(struct ib_mr *mr, struct ib_udata *udata)
{
	kfree(mr);
	return 0;
}

/* ------------------------------------------------------------------ QPs */

struct sib_qp *sib_qp_get(struct sib_dev *dev, u32 qpn)
{
	struct sib_qp *qp;
	unsigned long flags;

	xa_lock_irqsave(&dev->qps, flags);
	qp = xa_load(&dev->qps, qpn);
	if (qp && !refcount_inc_not_zero(&qp->refs))
		qp = NULL;
	xa_unlock_irqrestore(&dev->qps, flags);
	return qp;
}

void sib_qp_put(struct sib_qp *qp)
{
	if (refcount_dec_and_test(&qp->refs))
		complete(&qp->gone);
}

static int sib_create_qp(struct ib_qp *ibqp, struct ib_qp_init_attr *init,
			 struct ib_udata *udata)
{
	struct sib_dev *dev = to_sdev(ibqp->device);
	struct sib_qp *qp = to_sqp(ibqp);
	struct ib_qp_cap *cap = &init->cap;
	u32 qpn;
	int ret;

	if (udata || init->srq || init->qp_type > IB_QPT_UD)
		return -EOPNOTSUPP;
	if (!init->send_cq || !init->recv_cq)
		return -EINVAL;
	if (init->qp_type != IB_QPT_UD && init->qp_type != IB_QPT_GSI &&
	    init->qp_type != IB_QPT_SMI)
		return -EOPNOTSUPP;
	if (init->create_flags & ~IB_QP_CREATE_BLOCK_MULTICAST_LOOPBACK)
		return -EOPNOTSUPP;
	if (cap->max_send_wr > 4096 || cap->max_recv_wr > 4096 ||
	    cap->max_send_sge > SIB_MAX_SGE || cap->max_recv_sge > SIB_MAX_SGE ||
	    cap->max_inline_data > SIB_MTU_BYTES)
		return -EINVAL;

	qp->dev = dev;
	refcount_set(&qp->refs, 1);
	init_completion(&qp->gone);
	spin_lock_init(&qp->lock);
	qp->state = IB_QPS_RESET;
	qp->port = 1;
	qp->block_loopback = init->create_flags &
			     IB_QP_CREATE_BLOCK_MULTICAST_LOOPBACK;
	qp->signal_all = init->sq_sig_type == IB_SIGNAL_ALL_WR;
	qp->max_send_wr = cap->max_send_wr;
	qp->max_recv_wr = max(cap->max_recv_wr, 1U);
	qp->max_send_sge = cap->max_send_sge;
	qp->max_recv_sge = cap->max_recv_sge;
	qp->rq = kvcalloc(qp->max_recv_wr, sizeof(*qp->rq), GFP_KERNEL);
	if (!qp->rq)
		return -ENOMEM;

	switch (init->qp_type) {
	case IB_QPT_SMI:
		qpn = 0;
		ret = xa_insert_irq(&dev->qps, 0, qp, GFP_KERNEL);
		break;
	case IB_QPT_GSI:
		qpn = 1;
		qp->qkey = IB_QP1_QKEY;
		ret = xa_insert_irq(&dev->qps, 1, qp, GFP_KERNEL);
		break;
	default:
		ret = xa_alloc_cyclic_irq(&dev->qps, &qpn, qp,
					  XA_LIMIT(0x10, 0xffffff),
					  &dev->next_qpn, GFP_KERNEL);
		if (ret > 0)
			ret = 0;
	}
	if (ret) {
		kvfree(qp->rq);
		return ret;
	}
	/* inline data is copied at post time like any other */
	ibqp->qp_num = qpn;
	return 0;
}

/*
 * Completes every posted receive with a flush error, under qp->lock: a
 * delivery (which holds it from the state check to its completion) comes
 * before all of them or finds the QP in error.
 */
static void sib_qp_flush_rq(struct sib_qp *qp)
{
	struct sib_rwqe w;
	struct ib_wc wc = {
		.status = IB_WC_WR_FLUSH_ERR,
		.opcode = IB_WC_RECV,
		.qp = &qp->ibqp,
	};

	lockdep_assert_held(&qp->lock);
	while (!__sib_qp_take_rwqe(qp, &w)) {
		wc.wr_id = w.wr_id;
		sib_cq_push(to_scq(qp->ibqp.recv_cq), &wc);
	}
}

static void sib_mc_detach_all(struct sib_qp *qp);

static int sib_destroy_qp(struct ib_qp *ibqp, struct ib_udata *udata)
{
	struct sib_qp *qp = to_sqp(ibqp);

	sib_mc_detach_all(qp);
	xa_erase_irq(&qp->dev->qps, ibqp->qp_num);
	/* deliveries that found the QP finish before it goes */
	sib_qp_put(qp);
	wait_for_completion(&qp->gone);
	/*
	 * and the handlers of its completions have run: a consumer frees
	 * its CQs once their QPs are destroyed (ib_free_cq() cancels its
	 * own work first, which a late handler would queue again)
	 */
	flush_work(&to_scq(ibqp->send_cq)->notify_work);
	if (ibqp->recv_cq != ibqp->send_cq)
		flush_work(&to_scq(ibqp->recv_cq)->notify_work);
	kvfree(qp->rq);
	return 0;
}

#ifndef RDMA_MCM_HAVE_CORE_QP_ALLOC
/* 5.10: the driver allocates and frees its QPs (rdma_mcm_compat.h) */
static struct ib_qp *sib_create_qp_alloc(struct ib_pd *pd,
					 struct ib_qp_init_attr *init,
					 struct ib_udata *udata)
{
	struct sib_qp *qp = kzalloc_obj(*qp, GFP_KERNEL);
	int ret;

	if (!qp)
		return ERR_PTR(-ENOMEM);
	/* what the core sets before create_qp() from 5.15 */
	qp->ibqp.device = pd->device;
	qp->ibqp.pd = pd;
	qp->ibqp.send_cq = init->send_cq;
	qp->ibqp.recv_cq = init->recv_cq;
	ret = sib_create_qp(&qp->ibqp, init, udata);
	if (ret) {
		kfree(qp);
		return ERR_PTR(ret);
	}
	return &qp->ibqp;
}

static int sib_destroy_qp_free(struct ib_qp *ibqp, struct ib_udata *udata)
{
	int ret = sib_destroy_qp(ibqp, udata);

	if (!ret)
		kfree(to_sqp(ibqp));
	return ret;
}
#endif

static int sib_modify_qp(struct ib_qp *ibqp, struct ib_qp_attr *attr,
			 int mask, struct ib_udata *udata)
{
	struct sib_qp *qp = to_sqp(ibqp);
	enum ib_qp_state cur, next;
	unsigned long flags;

	if (udata)
		return -EOPNOTSUPP;
	spin_lock_irqsave(&qp->lock, flags);
	cur = mask & IB_QP_CUR_STATE ? attr->cur_qp_state : qp->state;
	next = mask & IB_QP_STATE ? attr->qp_state : cur;
	if (!ib_modify_qp_is_ok(cur, next, ibqp->qp_type, mask)) {
		spin_unlock_irqrestore(&qp->lock, flags);
		return -EINVAL;
	}
	if (mask & IB_QP_PORT) {
		if (attr->port_num != 1) {
			spin_unlock_irqrestore(&qp->lock, flags);
			return -EINVAL;
		}
		qp->port = attr->port_num;
	}
	if ((mask & IB_QP_PKEY_INDEX) && attr->pkey_index != 0) {
		spin_unlock_irqrestore(&qp->lock, flags);
		return -EINVAL;
	}
	if ((mask & IB_QP_QKEY) && ibqp->qp_type == IB_QPT_UD)
		qp->qkey = attr->qkey;
	qp->state = next;
	if (next == IB_QPS_RESET) {
		qp->rq_head = 0;
		qp->rq_count = 0;
	}
	if (next == IB_QPS_ERR)
		sib_qp_flush_rq(qp);
	spin_unlock_irqrestore(&qp->lock, flags);
	return 0;
}

static int sib_query_qp(struct ib_qp *ibqp, struct ib_qp_attr *attr, int mask,
			struct ib_qp_init_attr *init)
{
	struct sib_qp *qp = to_sqp(ibqp);
	unsigned long flags;

	memset(attr, 0, sizeof(*attr));
	memset(init, 0, sizeof(*init));
	spin_lock_irqsave(&qp->lock, flags);
	attr->qp_state = qp->state;
	attr->cur_qp_state = qp->state;
	attr->qkey = qp->qkey;
	attr->pkey_index = 0;		/* the only one modify_qp takes */
	attr->port_num = qp->port;
	spin_unlock_irqrestore(&qp->lock, flags);
	attr->path_mtu = SIB_MTU;
	attr->cap.max_send_wr = qp->max_send_wr;
	attr->cap.max_recv_wr = qp->max_recv_wr;
	attr->cap.max_send_sge = qp->max_send_sge;
	attr->cap.max_recv_sge = qp->max_recv_sge;
	init->qp_type = ibqp->qp_type;
	init->send_cq = ibqp->send_cq;
	init->recv_cq = ibqp->recv_cq;
	init->cap = attr->cap;
	init->sq_sig_type = qp->signal_all ? IB_SIGNAL_ALL_WR : IB_SIGNAL_REQ_WR;
	return 0;
}

static int sib_post_recv(struct ib_qp *ibqp, const struct ib_recv_wr *wr,
			 const struct ib_recv_wr **bad_wr)
{
	struct sib_qp *qp = to_sqp(ibqp);
	struct ib_wc wc = {
		.status = IB_WC_WR_FLUSH_ERR,
		.opcode = IB_WC_RECV,
		.qp = ibqp,
	};
	unsigned long flags;
	int ret = 0;

	for (; wr; wr = wr->next) {
		struct sib_rwqe *w;

		if (wr->num_sge > qp->max_recv_sge) {
			ret = -EINVAL;
			break;
		}
		spin_lock_irqsave(&qp->lock, flags);
		if (qp->state == IB_QPS_RESET) {
			ret = -EINVAL;
		} else if (qp->state == IB_QPS_ERR) {
			/* as ib_drain_rq() expects of a QP in error */
			wc.wr_id = wr->wr_id;
			sib_cq_push(to_scq(ibqp->recv_cq), &wc);
		} else if (qp->rq_count == qp->max_recv_wr) {
			ret = -ENOMEM;
		} else {
			w = &qp->rq[(qp->rq_head + qp->rq_count) %
				    qp->max_recv_wr];
			w->wr_id = wr->wr_id;
			w->num_sge = wr->num_sge;
			memcpy(w->sge, wr->sg_list,
			       wr->num_sge * sizeof(*wr->sg_list));
			qp->rq_count++;
		}
		spin_unlock_irqrestore(&qp->lock, flags);
		if (ret)
			break;
	}
	if (ret && bad_wr)
		*bad_wr = wr;
	return ret;
}

/* The oldest posted receive, taken off the queue; -ENOENT if none. */
int __sib_qp_take_rwqe(struct sib_qp *qp, struct sib_rwqe *out)
{
	lockdep_assert_held(&qp->lock);
	if (!qp->rq_count)
		return -ENOENT;
	*out = qp->rq[qp->rq_head];
	qp->rq_head = (qp->rq_head + 1) % qp->max_recv_wr;
	qp->rq_count--;
	return 0;
}

/* ------------------------------------------------------------ multicast */

static struct sib_mc_group *sib_mc_find(struct sib_dev *dev,
					const union ib_gid *mgid)
{
	struct sib_mc_group *g;

	lockdep_assert_held(&dev->mc_lock);
	list_for_each_entry(g, &dev->mc_groups, node)
		if (!memcmp(&g->mgid, mgid, sizeof(*mgid)))
			return g;
	return NULL;
}

/*
 * The device's limits, as an HCA enforces them: a new group past
 * max_mcast_grp, a QP past max_mcast_qp_attach in one group or an
 * attachment past max_total_mcast_qp_attach fails with -ENOMEM (what rxe
 * and mlx4 answer). Attaching a QP twice is not an error.
 */
static int sib_attach_mcast(struct ib_qp *ibqp, union ib_gid *mgid, u16 mlid)
{
	struct sib_qp *qp = to_sqp(ibqp);
	struct sib_dev *dev = qp->dev;
	struct sib_mc_group *g, *fresh;
	struct sib_mc_attach *a, *at;
	int ret = 0;

	fresh = kzalloc_obj(*fresh, GFP_KERNEL);
	at = kzalloc_obj(*at, GFP_KERNEL);
	if (!fresh || !at) {
		ret = -ENOMEM;
		goto out;
	}
	spin_lock_irq(&dev->mc_lock);
	g = sib_mc_find(dev, mgid);
	if (g) {
		list_for_each_entry(a, &g->attached, node)
			if (a->qp == qp)
				goto unlock;
	} else if (dev->mc_groups_used >= dev->limits.max_mcast_grp) {
		ret = -ENOMEM;
		goto unlock;
	}
	if ((g && g->nr_qps >= dev->limits.max_mcast_qp_attach) ||
	    dev->mc_attach_used >= dev->limits.max_total_mcast_qp_attach ||
	    !dev->limits.max_mcast_qp_attach) {
		ret = -ENOMEM;
		goto unlock;
	}
	if (!g) {
		g = fresh;
		fresh = NULL;
		g->mgid = *mgid;
		INIT_LIST_HEAD(&g->attached);
		list_add_tail(&g->node, &dev->mc_groups);
		dev->mc_groups_used++;
	}
	at->qp = qp;
	at->mlid = mlid;
	list_add_tail(&at->node, &g->attached);
	at = NULL;
	g->nr_qps++;
	dev->mc_attach_used++;
unlock:
	spin_unlock_irq(&dev->mc_lock);
out:
	kfree(fresh);
	kfree(at);
	return ret;
}

static void sib_mc_unlink(struct sib_dev *dev, struct sib_mc_group *g,
			  struct sib_mc_attach *a)
{
	list_del(&a->node);
	kfree(a);
	g->nr_qps--;
	dev->mc_attach_used--;
	if (!g->nr_qps) {
		list_del(&g->node);
		kfree(g);
		dev->mc_groups_used--;
	}
}

static int sib_detach_mcast(struct ib_qp *ibqp, union ib_gid *mgid, u16 mlid)
{
	struct sib_qp *qp = to_sqp(ibqp);
	struct sib_dev *dev = qp->dev;
	struct sib_mc_group *g;
	struct sib_mc_attach *a;
	int ret = -EINVAL;

	spin_lock_irq(&dev->mc_lock);
	g = sib_mc_find(dev, mgid);
	if (g) {
		list_for_each_entry(a, &g->attached, node) {
			if (a->qp == qp) {
				sib_mc_unlink(dev, g, a);
				ret = 0;
				break;
			}
		}
	}
	spin_unlock_irq(&dev->mc_lock);
	return ret;
}

static void sib_mc_detach_all(struct sib_qp *qp)
{
	struct sib_dev *dev = qp->dev;
	struct sib_mc_group *g, *gn;
	struct sib_mc_attach *a, *an;

	spin_lock_irq(&dev->mc_lock);
	list_for_each_entry_safe(g, gn, &dev->mc_groups, node)
		list_for_each_entry_safe(a, an, &g->attached, node)
			if (a->qp == qp)
				sib_mc_unlink(dev, g, a);
	spin_unlock_irq(&dev->mc_lock);
}

/*
 * The QPs of DEV attached to MGID, each with a reference the caller puts,
 * at most MAX of them; SENDER is left out if it blocks loopback.
 */
int sib_mc_receivers(struct sib_dev *dev, const union ib_gid *mgid,
		     struct sib_qp *sender, struct sib_qp **out, int max)
{
	struct sib_mc_group *g;
	struct sib_mc_attach *a;
	unsigned long flags;
	int n = 0;

	spin_lock_irqsave(&dev->mc_lock, flags);
	g = sib_mc_find(dev, mgid);
	if (g) {
		list_for_each_entry(a, &g->attached, node) {
			if (n == max)
				break;
			if (a->qp == sender && sender->block_loopback)
				continue;
			if (refcount_inc_not_zero(&a->qp->refs))
				out[n++] = a->qp;
		}
	}
	spin_unlock_irqrestore(&dev->mc_lock, flags);
	return n;
}

const struct ib_device_ops sib_verbs_ops = {
	.owner = THIS_MODULE,
	.driver_id = RDMA_DRIVER_UNKNOWN,
	.alloc_pd = sib_alloc_pd,
	.dealloc_pd = sib_dealloc_pd,
	.create_ah = sib_create_ah,
	.query_ah = sib_query_ah,
	.destroy_ah = sib_destroy_ah,
	.create_cq = __builtin_choose_expr(RDMA_MCM_CREATE_CQ_ATTRS,
					   sib_create_cq, sib_create_cq_udata),
	.destroy_cq = sib_destroy_cq,
	.poll_cq = sib_poll_cq,
	.req_notify_cq = sib_req_notify_cq,
	.get_dma_mr = sib_get_dma_mr,
	.reg_user_mr = __builtin_choose_expr(RDMA_MCM_REG_USER_MR_DMAH,
					     sib_reg_user_mr,
					     sib_reg_user_mr_old),
	.dereg_mr = sib_dereg_mr,
#ifdef RDMA_MCM_HAVE_CORE_QP_ALLOC
	.create_qp = sib_create_qp,
	.destroy_qp = sib_destroy_qp,
#else
	.create_qp = sib_create_qp_alloc,
	.destroy_qp = sib_destroy_qp_free,
#endif
	.modify_qp = sib_modify_qp,
	.query_qp = sib_query_qp,
	.post_send = sib_post_send,
	.post_recv = sib_post_recv,
	.attach_mcast = sib_attach_mcast,
	.detach_mcast = sib_detach_mcast,
	INIT_RDMA_OBJ_SIZE(ib_pd, sib_pd, ibpd),
	INIT_RDMA_OBJ_SIZE(ib_ah, sib_ah, ibah),
	INIT_RDMA_OBJ_SIZE(ib_cq, sib_cq, ibcq),
#ifdef RDMA_MCM_HAVE_CORE_QP_ALLOC
	INIT_RDMA_OBJ_SIZE(ib_qp, sib_qp, ibqp),
#endif
};
