// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * rdma_mcm_test_ulp: a small kernel ULP for the VM tests. It uses only
 * rdma_mcm's exported API, with a real kernel UD QP (its own PD, CQ and
 * posted receives) on the context's device, and counts the datagrams that
 * reach it. Driven through debugfs:
 *
 *   /sys/kernel/debug/rdma_mcm_test_ulp/control   (write one command)
 *	open ADDR          context on source ADDR (IPv4 or IPv6), QP on its
 *	                   device
 *	openheal ADDR      the same, a healing context: when its device
 *	                   comes back the ULP builds its QP anew there and
 *	                   gives it to rdma_mcm_set_qp()
 *	join GROUP [SRC...]  full-member join, QP attached once joined; with
 *	                   sources, source-specific (rdma_mcm_join_ex())
 *	sendonly GROUP     send-only join
 *	leave GROUP        leave by address
 *	joinleave GROUP [SRC...]  join and leave at once (cancel of a join in
 *	                   flight)
 *	close              close the context, then free the QP
 *	send COUNT         send COUNT datagrams (64 bytes) from the QP to the
 *	                   last group a send-only join made joined, with the
 *	                   address handle of its JOINED, one at a time, each
 *	                   completion awaited (tx, tx_errors)
 *	join_many GROUP N  send-only joins of N groups from GROUP up, timed
 *	leave_many GROUP N leaves of those N groups, timed
 *   /sys/kernel/debug/rdma_mcm_test_ulp/status    (read)
 *	counters, then one line per membership: handle, group, state,
 *	status, attached=, rejoins=, sources=, joined_by= (rdma_cm|rdma_mcm)
 *   /sys/kernel/debug/rdma_mcm_test_ulp/counters  (read)
 *	the counters alone
 *
 * When the context loses its device, the ULP frees its verbs objects from
 * the ->device_removed() callback, as rdma_mcm's contract asks, so that
 * the device can go; it builds them under the same lock, after asking
 * rdma_mcm_device() for the device, so the two cannot race. A healing
 * context's ->device_added() builds them again on the new device.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/debugfs.h>
#include <linux/inet.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <net/net_namespace.h>
#include <rdma/ib_verbs.h>
#include <rdma/rdma_cm_ib.h>
#include <rdma/rdma_mcm.h>

/* a second instance is this file built again as rdma_mcm_test_ulp2 */
#ifndef TULP_NAME
#define TULP_NAME	"rdma_mcm_test_ulp"
#endif

#define TULP_NR_RECV	64
#define TULP_TX_SIZE	64
#define TULP_MAX_SOURCES	4
#define TULP_BUF_SIZE	(4096 + sizeof(struct ib_grh))

struct tulp_buf {
	struct ib_cqe cqe;
	void *data;
	u64 dma;
};

struct tulp {
	struct mutex lock;		/* serialises commands */
	struct mutex verbs_lock;	/* verbs set-up and teardown */
	struct rdma_mcm_ctx *ctx;
	struct ib_device *dev;
	u32 port;
	struct ib_pd *pd;
	struct ib_cq *cq;
	struct ib_qp *qp;
	struct tulp_buf bufs[TULP_NR_RECV];
	bool verbs_up;
	/* sending: the last send-only join's address handle, one buffer */
	struct ib_ah *ah;
	u32 ah_qkey;
	struct tulp_buf txbuf;
	struct completion tx_done;
	int tx_status;
	atomic_t tx;
	atomic_t tx_errors;

	atomic_t rx;
	atomic_t rx_errors;
	atomic_t joined_cbs;
	atomic_t error_cbs;
	atomic_t late_cbs;	/* callbacks for left_handle after its leave */
	atomic_t removed_cbs;	/* ->device_removed() calls */
	atomic_t added_cbs;	/* ->device_added() calls */
	atomic_t rejoining_cbs;
	atomic_t rejoined_cbs;
	atomic_t set_qp_errors;
	u32 left_handle;	/* last handle joinleave left; 0: none */
	atomic_t last_status;
	u64 last_batch_ns;
	unsigned int last_batch_n;
};

static struct tulp tulp;
static struct dentry *tulp_dir;

static int tulp_post_recv(struct tulp_buf *buf)
{
	struct ib_sge sge = {
		.addr = buf->dma,
		.length = TULP_BUF_SIZE,
		.lkey = tulp.pd->local_dma_lkey,
	};
	struct ib_recv_wr wr = {
		.wr_cqe = &buf->cqe,
		.sg_list = &sge,
		.num_sge = 1,
	};

	return ib_post_recv(tulp.qp, &wr, NULL);
}

static void tulp_recv_done(struct ib_cq *cq, struct ib_wc *wc)
{
	struct tulp_buf *buf = container_of(wc->wr_cqe, struct tulp_buf, cqe);

	if (wc->status == IB_WC_WR_FLUSH_ERR)
		return;		/* the QP is going away */
	if (wc->status != IB_WC_SUCCESS) {
		atomic_inc(&tulp.rx_errors);
		return;
	}
	atomic_inc(&tulp.rx);
	ib_dma_sync_single_for_device(tulp.dev, buf->dma, TULP_BUF_SIZE,
				      DMA_FROM_DEVICE);
	if (tulp_post_recv(buf))
		atomic_inc(&tulp.rx_errors);
}

static void tulp_send_done(struct ib_cq *cq, struct ib_wc *wc)
{
	if (wc->status == IB_WC_SUCCESS)
		atomic_inc(&tulp.tx);
	else
		atomic_inc(&tulp.tx_errors);
	tulp.tx_status = wc->status;
	complete(&tulp.tx_done);
}

/* Send @n datagrams to the last send-only join's group, one at a time */
static int tulp_send(const char *arg)
{
	struct ib_sge sge = {
		.length = TULP_TX_SIZE,
	};
	struct ib_ud_wr wr = {
		.wr = {
			.sg_list = &sge,
			.num_sge = 1,
			.opcode = IB_WR_SEND,
			.send_flags = IB_SEND_SIGNALED,
		},
		.remote_qpn = 0xffffff,		/* multicast */
	};
	unsigned int n, i;
	int ret = 0;

	if (kstrtouint(arg, 0, &n) || !n)
		return -EINVAL;
	mutex_lock(&tulp.verbs_lock);
	if (!tulp.verbs_up || !tulp.ah) {
		ret = -ENOTCONN;
		goto out;
	}
	sge.addr = tulp.txbuf.dma;
	sge.lkey = tulp.pd->local_dma_lkey;
	wr.wr.wr_cqe = &tulp.txbuf.cqe;
	wr.ah = tulp.ah;
	wr.remote_qkey = tulp.ah_qkey;
	for (i = 0; i < n && !ret; i++) {
		*(__be32 *)tulp.txbuf.data = cpu_to_be32(i);
		ib_dma_sync_single_for_device(tulp.dev, tulp.txbuf.dma,
					      TULP_TX_SIZE, DMA_TO_DEVICE);
		reinit_completion(&tulp.tx_done);
		ret = ib_post_send(tulp.qp, &wr.wr, NULL);
		if (ret)
			break;
		if (!wait_for_completion_timeout(&tulp.tx_done, 10 * HZ))
			ret = -ETIMEDOUT;
		else if (tulp.tx_status != IB_WC_SUCCESS)
			ret = -EIO;
	}
out:
	mutex_unlock(&tulp.verbs_lock);
	return ret;
}

static void tulp_verbs_down(void)
{
	int i;

	mutex_lock(&tulp.verbs_lock);
	if (!tulp.verbs_up)
		goto out;
	ib_drain_rq(tulp.qp);	/* no send is in flight: tulp_send() waits */
	ib_destroy_qp(tulp.qp);
	ib_free_cq(tulp.cq);
	if (tulp.ah)
		rdma_destroy_ah(tulp.ah, RDMA_DESTROY_AH_SLEEPABLE);
	tulp.ah = NULL;
	ib_dma_unmap_single(tulp.dev, tulp.txbuf.dma, TULP_TX_SIZE, DMA_TO_DEVICE);
	kfree(tulp.txbuf.data);
	for (i = 0; i < TULP_NR_RECV; i++) {
		ib_dma_unmap_single(tulp.dev, tulp.bufs[i].dma, TULP_BUF_SIZE,
				    DMA_FROM_DEVICE);
		kfree(tulp.bufs[i].data);
	}
	ib_dealloc_pd(tulp.pd);
	tulp.verbs_up = false;
	pr_info("verbs objects released\n");
out:
	mutex_unlock(&tulp.verbs_lock);
}

static int tulp_qp_ready(void)
{
	struct ib_qp_attr attr = {
		.qp_state = IB_QPS_INIT,
		.pkey_index = 0,
		.port_num = tulp.port,
		.qkey = RDMA_UDP_QKEY,
	};
	int ret;

	ret = ib_modify_qp(tulp.qp, &attr, IB_QP_STATE | IB_QP_PKEY_INDEX |
			   IB_QP_PORT | IB_QP_QKEY);
	if (ret)
		return ret;
	attr.qp_state = IB_QPS_RTR;
	ret = ib_modify_qp(tulp.qp, &attr, IB_QP_STATE);
	if (ret)
		return ret;
	attr.qp_state = IB_QPS_RTS;
	attr.sq_psn = 0;
	return ib_modify_qp(tulp.qp, &attr, IB_QP_STATE | IB_QP_SQ_PSN);
}

static int __tulp_verbs_up(void)
{
	struct ib_qp_init_attr init = {
		.qp_type = IB_QPT_UD,
		.sq_sig_type = IB_SIGNAL_REQ_WR,
		.cap = {
			.max_send_wr = 1,
			.max_recv_wr = TULP_NR_RECV,
			.max_send_sge = 1,
			.max_recv_sge = 1,
		},
	};
	int i, ret, nbufs = 0;

	lockdep_assert_held(&tulp.verbs_lock);
	tulp.dev = rdma_mcm_device(tulp.ctx, &tulp.port);
	if (!tulp.dev)
		return -ENODEV;
	tulp.pd = ib_alloc_pd(tulp.dev, 0);
	if (IS_ERR(tulp.pd))
		return PTR_ERR(tulp.pd);
	tulp.cq = ib_alloc_cq(tulp.dev, &tulp, 2 * TULP_NR_RECV, 0,
			      IB_POLL_WORKQUEUE);
	if (IS_ERR(tulp.cq)) {
		ret = PTR_ERR(tulp.cq);
		goto err_pd;
	}
	init.send_cq = tulp.cq;
	init.recv_cq = tulp.cq;
	tulp.qp = ib_create_qp(tulp.pd, &init);
	if (IS_ERR(tulp.qp)) {
		ret = PTR_ERR(tulp.qp);
		goto err_cq;
	}
	ret = tulp_qp_ready();
	if (ret)
		goto err_qp;
	tulp.txbuf.data = kzalloc(TULP_TX_SIZE, GFP_KERNEL);
	if (!tulp.txbuf.data) {
		ret = -ENOMEM;
		goto err_qp;
	}
	tulp.txbuf.dma = ib_dma_map_single(tulp.dev, tulp.txbuf.data,
					   TULP_TX_SIZE, DMA_TO_DEVICE);
	if (ib_dma_mapping_error(tulp.dev, tulp.txbuf.dma)) {
		kfree(tulp.txbuf.data);
		ret = -ENOMEM;
		goto err_qp;
	}
	tulp.txbuf.cqe.done = tulp_send_done;
	for (nbufs = 0; nbufs < TULP_NR_RECV; nbufs++) {
		struct tulp_buf *buf = &tulp.bufs[nbufs];

		buf->data = kmalloc(TULP_BUF_SIZE, GFP_KERNEL);
		if (!buf->data) {
			ret = -ENOMEM;
			goto err_bufs;
		}
		buf->dma = ib_dma_map_single(tulp.dev, buf->data,
					     TULP_BUF_SIZE, DMA_FROM_DEVICE);
		if (ib_dma_mapping_error(tulp.dev, buf->dma)) {
			kfree(buf->data);
			ret = -ENOMEM;
			goto err_bufs;
		}
		buf->cqe.done = tulp_recv_done;
	}
	for (i = 0; i < TULP_NR_RECV; i++) {
		ret = tulp_post_recv(&tulp.bufs[i]);
		if (ret)
			goto err_drain;
	}
	tulp.verbs_up = true;
	pr_info("verbs objects up on %s port %u\n", dev_name(&tulp.dev->dev),
		tulp.port);
	return 0;

err_drain:
	ib_drain_rq(tulp.qp);
err_bufs:
	while (nbufs--) {
		ib_dma_unmap_single(tulp.dev, tulp.bufs[nbufs].dma,
				    TULP_BUF_SIZE, DMA_FROM_DEVICE);
		kfree(tulp.bufs[nbufs].data);
	}
	ib_dma_unmap_single(tulp.dev, tulp.txbuf.dma, TULP_TX_SIZE, DMA_TO_DEVICE);
	kfree(tulp.txbuf.data);
err_qp:
	ib_destroy_qp(tulp.qp);
err_cq:
	ib_free_cq(tulp.cq);
err_pd:
	ib_dealloc_pd(tulp.pd);
	return ret;
}

/* Under verbs_lock: ->device_removed() cannot run in between. */
static int tulp_verbs_up(void)
{
	int ret;

	mutex_lock(&tulp.verbs_lock);
	ret = __tulp_verbs_up();
	mutex_unlock(&tulp.verbs_lock);
	return ret;
}

static void tulp_count_late(u32 handle)
{
	if (handle && handle == READ_ONCE(tulp.left_handle))
		atomic_inc(&tulp.late_cbs);
}

static void tulp_joined(void *priv, const struct rdma_mcm_join_info *info)
{
	struct ib_ah *ah;

	tulp_count_late(info->handle);
	atomic_inc(&tulp.joined_cbs);
	pr_info("joined handle %u mgid %pI6 qkey 0x%x\n", info->handle,
		info->mgid.raw, info->qkey);
	if (info->join_type != RDMA_MCM_SENDONLY_FULLMEMBER)
		return;
	/* the address handle to send to it with, as a sender makes it */
	mutex_lock(&tulp.verbs_lock);
	if (tulp.verbs_up) {
		ah = rdma_create_ah(tulp.pd, (struct rdma_ah_attr *)&info->ah_attr,
				    RDMA_CREATE_AH_SLEEPABLE);
		if (IS_ERR(ah)) {
			pr_info("no address handle: %ld\n", PTR_ERR(ah));
		} else {
			if (tulp.ah)
				rdma_destroy_ah(tulp.ah,
						RDMA_DESTROY_AH_SLEEPABLE);
			tulp.ah = ah;
			tulp.ah_qkey = info->qkey;
		}
	}
	mutex_unlock(&tulp.verbs_lock);
}

static void tulp_error(void *priv, u32 handle, void *context, int status)
{
	tulp_count_late(handle);
	atomic_inc(&tulp.error_cbs);
	atomic_set(&tulp.last_status, status);
	pr_info("error on handle %u: %d\n", handle, status);
}

/* The device is going: give its objects back before it waits on us. */
static void tulp_device_removed(void *priv)
{
	atomic_inc(&tulp.removed_cbs);
	pr_info("device removed\n");
	tulp_verbs_down();
}

static void tulp_rejoining(void *priv, u32 handle, void *context, int reason)
{
	atomic_inc(&tulp.rejoining_cbs);
	pr_info("handle %u waits to rejoin: %d\n", handle, reason);
}

static void tulp_rejoined(void *priv, const struct rdma_mcm_join_info *info)
{
	atomic_inc(&tulp.rejoined_cbs);
	pr_info("rejoined handle %u mgid %pI6 (rejoins %u)\n", info->handle,
		info->mgid.raw, info->rejoins);
}

/* A healing context has a device again: the QP anew, given to rdma_mcm. */
static void tulp_device_added(void *priv)
{
	atomic_inc(&tulp.added_cbs);
	mutex_lock(&tulp.verbs_lock);
	if (!tulp.verbs_up && !__tulp_verbs_up() &&
	    rdma_mcm_set_qp(tulp.ctx, tulp.qp))
		atomic_inc(&tulp.set_qp_errors);
	mutex_unlock(&tulp.verbs_lock);
	pr_info("device added: verbs objects %s\n",
		tulp.verbs_up ? "up" : "not up");
}

static const struct rdma_mcm_ops tulp_ops = {
	.owner = THIS_MODULE,
	.joined = tulp_joined,
	.error = tulp_error,
	.device_removed = tulp_device_removed,
	.rejoining = tulp_rejoining,
	.rejoined = tulp_rejoined,
	.device_added = tulp_device_added,
};

static int tulp_parse_v4(const char *s, struct sockaddr_in *sin)
{
	memset(sin, 0, sizeof(*sin));
	sin->sin_family = AF_INET;
	return in4_pton(s, -1, (u8 *)&sin->sin_addr, -1, NULL) ? 0 : -EINVAL;
}

/* An IPv4 or IPv6 literal */
static int tulp_parse_addr(const char *s, struct sockaddr_storage *ss)
{
	struct sockaddr_in6 *sin6 = (struct sockaddr_in6 *)ss;

	memset(ss, 0, sizeof(*ss));
	if (!strchr(s, ':'))
		return tulp_parse_v4(s, (struct sockaddr_in *)ss);
	sin6->sin6_family = AF_INET6;
	return in6_pton(s, -1, sin6->sin6_addr.s6_addr, -1, NULL) ? 0 : -EINVAL;
}

/* "GROUP [SRC...]": the group, then up to TULP_MAX_SOURCES sources */
static int tulp_parse_join(char *arg, struct sockaddr_storage *grp,
			   struct sockaddr_storage *srcs, unsigned int *nr)
{
	char *tok;

	*nr = 0;
	tok = strsep(&arg, " ");
	if (!tok || tulp_parse_addr(tok, grp))
		return -EINVAL;
	while ((tok = strsep(&arg, " "))) {
		if (!*tok)
			continue;
		if (*nr == TULP_MAX_SOURCES || tulp_parse_addr(tok, &srcs[*nr]))
			return -EINVAL;
		(*nr)++;
	}
	return 0;
}

static int tulp_open(const char *arg, u32 flags)
{
	struct sockaddr_storage src;
	struct rdma_mcm_ctx *ctx;
	int ret;

	if (tulp.ctx)
		return -EBUSY;
	ret = tulp_parse_addr(arg, &src);
	if (ret)
		return ret;
	ctx = rdma_mcm_open_flags(&init_net, (struct sockaddr *)&src, &tulp_ops,
				  &tulp, flags);
	if (IS_ERR(ctx))
		return PTR_ERR(ctx);
	tulp.ctx = ctx;
	ret = tulp_verbs_up();
	if (ret) {
		rdma_mcm_close(ctx);	/* no verbs object was made */
		tulp.ctx = NULL;
	}
	return ret;
}

/* Leave every membership that carries the QP: each leave detaches it. */
static void tulp_leave_attached(void)
{
	struct rdma_mcm_member_info info[8];
	u32 start = 0, next;
	int i, n;

	do {
		n = rdma_mcm_list(tulp.ctx, start, info, ARRAY_SIZE(info),
				  &next);
		for (i = 0; i < n; i++)
			if (info[i].qp_attached ||
			    info[i].join_type == RDMA_MCM_FULLMEMBER)
				rdma_mcm_leave(tulp.ctx, info[i].handle);
		start = next;
	} while (next);
}

/*
 * rdma_mcm's order: the device may go as soon as close destroyed the
 * context's ids, and close tells no ->device_removed(). So the verbs
 * objects go first (the QP once detached), under the lock that
 * ->device_removed() takes, then the context.
 */
static void tulp_close(void)
{
	if (!tulp.ctx)
		return;
	tulp_leave_attached();
	tulp_verbs_down();
	rdma_mcm_close(tulp.ctx);
	tulp.ctx = NULL;
}

/* Join or leave N consecutive groups from @first; the time is reported. */
static int tulp_many(bool join, struct sockaddr_in *first, char *count)
{
	u32 base = ntohl(first->sin_addr.s_addr), handle;
	struct sockaddr_in grp = *first;
	unsigned int n, i;
	u64 start;
	int ret = 0;

	if (kstrtouint(count, 0, &n) || !n)
		return -EINVAL;
	start = ktime_get_ns();
	for (i = 0; i < n && !ret; i++) {
		grp.sin_addr.s_addr = htonl(base + i);
		if (join)
			ret = rdma_mcm_join(tulp.ctx, (struct sockaddr *)&grp,
					    RDMA_MCM_SENDONLY_FULLMEMBER, NULL,
					    NULL, &handle);
		else
			ret = rdma_mcm_leave_addr(tulp.ctx,
						  (struct sockaddr *)&grp);
		cond_resched();
	}
	tulp.last_batch_ns = ktime_get_ns() - start;
	tulp.last_batch_n = i;
	return ret;
}

static int tulp_command(char *cmd)
{
	struct sockaddr_storage srcs[TULP_MAX_SOURCES];
	struct rdma_mcm_join_req req = {};
	struct sockaddr_storage grp;
	struct sockaddr_in grp4;
	unsigned int nr;
	char *arg;
	u32 handle;
	int ret;

	arg = strchr(strim(cmd), ' ');
	if (arg)
		*arg++ = '\0';
	if (!strcmp(cmd, "open"))
		return arg ? tulp_open(arg, 0) : -EINVAL;
	if (!strcmp(cmd, "openheal"))
		return arg ? tulp_open(arg, RDMA_MCM_OPEN_HEAL) : -EINVAL;
	if (!strcmp(cmd, "send"))
		return arg ? tulp_send(arg) : -EINVAL;
	if (!strcmp(cmd, "close")) {
		tulp_close();
		return 0;
	}
	if (!tulp.ctx)
		return -ENOTCONN;
	if (!arg)
		return -EINVAL;
	if (!strcmp(cmd, "join_many") || !strcmp(cmd, "leave_many")) {
		char *count = strchr(arg, ' ');

		if (!count)
			return -EINVAL;
		*count++ = '\0';
		if (tulp_parse_v4(arg, &grp4))
			return -EINVAL;
		return tulp_many(cmd[0] == 'j', &grp4, count);
	}
	if (tulp_parse_join(arg, &grp, srcs, &nr))
		return -EINVAL;
	if (nr && strcmp(cmd, "join") && strcmp(cmd, "joinleave"))
		return -EINVAL;
	if (!strcmp(cmd, "join") || !strcmp(cmd, "joinleave")) {
		req.group = (struct sockaddr *)&grp;
		req.join_type = RDMA_MCM_FULLMEMBER;
		req.qp = tulp.verbs_up ? tulp.qp : NULL;
		req.sources = nr ? srcs : NULL;
		req.nr_sources = nr;
		ret = rdma_mcm_join_ex(tulp.ctx, &req, &handle);
	} else if (!strcmp(cmd, "sendonly")) {
		ret = rdma_mcm_join(tulp.ctx, (struct sockaddr *)&grp,
				    RDMA_MCM_SENDONLY_FULLMEMBER, NULL, NULL,
				    &handle);
	} else if (!strcmp(cmd, "leave")) {
		return rdma_mcm_leave_addr(tulp.ctx, (struct sockaddr *)&grp);
	} else {
		return -EINVAL;
	}
	if (!ret && !strcmp(cmd, "joinleave")) {
		/*
		 * The join may complete before the leave (its callback then
		 * comes first, legitimately); once rdma_mcm_leave() has
		 * returned, no callback may mention the handle again.
		 */
		ret = rdma_mcm_leave(tulp.ctx, handle);
		if (!ret)
			WRITE_ONCE(tulp.left_handle, handle);
	}
	return ret;
}

static ssize_t tulp_control_write(struct file *file, const char __user *ubuf,
				  size_t len, loff_t *ppos)
{
	char buf[512];
	int ret;

	if (len >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, len))
		return -EFAULT;
	buf[len] = '\0';
	mutex_lock(&tulp.lock);
	ret = tulp_command(buf);
	mutex_unlock(&tulp.lock);
	return ret ? ret : len;
}

static const struct file_operations tulp_control_fops = {
	.owner = THIS_MODULE,
	.write = tulp_control_write,
};

static void tulp_show_counters(struct seq_file *m)
{
	seq_printf(m, "open %d\nverbs %d\nrx %d\nrx_errors %d\n",
		   !!tulp.ctx, tulp.verbs_up, atomic_read(&tulp.rx),
		   atomic_read(&tulp.rx_errors));
	seq_printf(m, "tx %d\ntx_errors %d\n", atomic_read(&tulp.tx),
		   atomic_read(&tulp.tx_errors));
	seq_printf(m, "joined_callbacks %d\nerror_callbacks %d\nlast_status %d\n",
		   atomic_read(&tulp.joined_cbs), atomic_read(&tulp.error_cbs),
		   atomic_read(&tulp.last_status));
	seq_printf(m, "late_callbacks %d\nremoved_callbacks %d\n",
		   atomic_read(&tulp.late_cbs), atomic_read(&tulp.removed_cbs));
	seq_printf(m, "added_callbacks %d\nrejoining_callbacks %d\nrejoined_callbacks %d\nset_qp_errors %d\n",
		   atomic_read(&tulp.added_cbs),
		   atomic_read(&tulp.rejoining_cbs),
		   atomic_read(&tulp.rejoined_cbs),
		   atomic_read(&tulp.set_qp_errors));
	seq_printf(m, "last_batch %u %llu\n", tulp.last_batch_n,
		   tulp.last_batch_ns);
}

static int tulp_counters_show(struct seq_file *m, void *unused)
{
	mutex_lock(&tulp.lock);
	tulp_show_counters(m);
	mutex_unlock(&tulp.lock);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(tulp_counters);

static int tulp_status_show(struct seq_file *m, void *unused)
{
	struct rdma_mcm_member_info info[4];
	u32 start = 0, next;
	int i, n;

	mutex_lock(&tulp.lock);
	tulp_show_counters(m);

	while (tulp.ctx) {
		n = rdma_mcm_list(tulp.ctx, start, info, ARRAY_SIZE(info),
				  &next);
		for (i = 0; i < n; i++)
			seq_printf(m, "member %u %pISc %s %d attached=%d rejoins=%u sources=%u joined_by=%s\n",
				   info[i].handle, &info[i].group,
				   rdma_mcm_state_name(info[i].state),
				   info[i].status, info[i].qp_attached,
				   info[i].rejoins, info[i].nr_sources,
				   info[i].joined_by_mcm ? "rdma_mcm" :
							   "rdma_cm");
		if (!next)
			break;
		start = next;
	}
	mutex_unlock(&tulp.lock);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(tulp_status);

static int __init tulp_init(void)
{
	mutex_init(&tulp.lock);
	mutex_init(&tulp.verbs_lock);
	init_completion(&tulp.tx_done);
	tulp_dir = debugfs_create_dir(TULP_NAME, NULL);
	debugfs_create_file("control", 0200, tulp_dir, NULL,
			    &tulp_control_fops);
	debugfs_create_file("status", 0444, tulp_dir, NULL, &tulp_status_fops);
	debugfs_create_file("counters", 0444, tulp_dir, NULL,
			    &tulp_counters_fops);
	return 0;
}

static void __exit tulp_exit(void)
{
	debugfs_remove_recursive(tulp_dir);
	mutex_lock(&tulp.lock);
	tulp_close();
	mutex_unlock(&tulp.lock);
}

module_init(tulp_init);
module_exit(tulp_exit);

MODULE_LICENSE("Dual BSD/GPL");
MODULE_AUTHOR("The rdma_mcm developers");
MODULE_DESCRIPTION("rdma_mcm test ULP: a kernel UD QP receiving multicast");
