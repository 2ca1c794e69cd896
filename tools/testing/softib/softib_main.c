// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * softib: the module, the fabric and its devices' ports. See softib.h for
 * what the fabric models.
 */
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <rdma/ib_mad.h>
#include "rdma_mcm_compat.h"
#include "softib.h"

static unsigned int ndev = 2;
module_param(ndev, uint, 0444);
MODULE_PARM_DESC(ndev, "devices (sib0 ...), one port each (1-4, default 2)");

/* each device's multicast limits, as query_device reports them */
static unsigned int max_mcast_grp = 256;
module_param(max_mcast_grp, uint, 0444);
MODULE_PARM_DESC(max_mcast_grp, "groups a device can attach QPs to");
static unsigned int max_mcast_qp_attach = 16;
module_param(max_mcast_qp_attach, uint, 0444);
MODULE_PARM_DESC(max_mcast_qp_attach,
		 "QPs one group can have attached (at most 16, the default)");
static unsigned int max_total_mcast_qp_attach = 1024;
module_param(max_total_mcast_qp_attach, uint, 0444);
MODULE_PARM_DESC(max_total_mcast_qp_attach, "attachments per device");

struct workqueue_struct *sib_wq;
DEFINE_SPINLOCK(sib_fabric_lock);
struct sib_dev *sib_devs[SIB_MAX_DEV];
unsigned int sib_ndev;
static DEFINE_MUTEX(sib_config_mutex);	/* adds and removes */

void sib_port_gid(const struct sib_dev *dev, union ib_gid *gid)
{
	gid->global.subnet_prefix = cpu_to_be64(SIB_SUBNET_PREFIX);
	gid->global.interface_id = cpu_to_be64(dev->guid);
}

/* Runs under sib_fabric_lock, which the caller holds. */
struct sib_dev *sib_dev_by_lid(u16 lid)
{
	unsigned int i;

	lockdep_assert_held(&sib_fabric_lock);
	for (i = 0; i < sib_ndev; i++)
		if (sib_devs[i] && sib_devs[i]->lid == lid)
			return sib_devs[i];
	return NULL;
}

void sib_port_event(struct sib_dev *dev, enum ib_event_type type)
{
	struct ib_event ev = {
		.device = &dev->ibdev,
		.event = type,
		.element.port_num = 1,
	};

	ib_dispatch_event(&ev);
}

/*
 * A port goes down or up. Down: the SM forgets the port's memberships (as
 * a sweep does), and the port reports PORT_ERR; up: PORT_ACTIVE.
 */
int sib_port_set_state(unsigned int index, bool up)
{
	struct sib_dev *dev;
	union ib_gid gid;
	int ret = 0;

	mutex_lock(&sib_config_mutex);
	dev = index < sib_ndev ? sib_devs[index] : NULL;
	if (!dev) {
		ret = -ENODEV;
		goto out;
	}
	spin_lock_irq(&sib_fabric_lock);
	dev->state = up ? IB_PORT_ACTIVE : IB_PORT_DOWN;
	spin_unlock_irq(&sib_fabric_lock);
	if (!up) {
		sib_port_gid(dev, &gid);
		sib_sa_port_down(&gid);
	}
	sib_port_event(dev, up ? IB_EVENT_PORT_ACTIVE : IB_EVENT_PORT_ERR);
out:
	mutex_unlock(&sib_config_mutex);
	return ret;
}

/* The port of sibINDEX gets LID (unused by any other): LID_CHANGE. */
int sib_set_lid(unsigned int index, unsigned int lid)
{
	struct sib_dev *dev;
	unsigned int i;

	if (lid < SIB_FIRST_LID || lid >= SIB_MLID_BASE)
		return -EINVAL;
	mutex_lock(&sib_config_mutex);
	spin_lock_irq(&sib_fabric_lock);
	dev = index < sib_ndev ? sib_devs[index] : NULL;
	for (i = 0; i < sib_ndev; i++)
		if (sib_devs[i] && sib_devs[i] != dev && sib_devs[i]->lid == lid)
			dev = NULL;
	if (dev)
		dev->lid = lid;
	spin_unlock_irq(&sib_fabric_lock);
	if (dev)
		sib_port_event(dev, IB_EVENT_LID_CHANGE);
	mutex_unlock(&sib_config_mutex);
	return dev ? 0 : -EINVAL;
}

/* EV on every device's port, as an SM raises it on the subnet. */
void sib_event_all(enum ib_event_type ev)
{
	unsigned int i;

	mutex_lock(&sib_config_mutex);
	for (i = 0; i < sib_ndev; i++)
		if (sib_devs[i])
			sib_port_event(sib_devs[i], ev);
	mutex_unlock(&sib_config_mutex);
}

static int sib_query_device(struct ib_device *ibdev,
			    struct ib_device_attr *attr, struct ib_udata *udata)
{
	struct sib_dev *dev = to_sdev(ibdev);

	if (udata && (udata->inlen || udata->outlen))
		return -EINVAL;
	memset(attr, 0, sizeof(*attr));
	attr->fw_ver = 1;
	attr->sys_image_guid = cpu_to_be64(dev->guid);
	attr->max_mr_size = ~0ULL;
	attr->page_size_cap = PAGE_SIZE;
	attr->vendor_id = 0x2c9;
	attr->vendor_part_id = 0x5ab;
	attr->max_qp = 1024;
	attr->max_qp_wr = 4096;
	attr->max_send_sge = SIB_MAX_SGE;
	attr->max_recv_sge = SIB_MAX_SGE;
	attr->max_sge_rd = 1;
	attr->max_cq = 1024;
	attr->max_cqe = 65536;
	attr->max_pd = 1024;
	attr->max_ah = 65536;
	attr->max_pkeys = 1;
	attr->local_ca_ack_delay = 15;
#ifdef RDMA_MCM_HAVE_KERNEL_CAP_FLAGS
	attr->kernel_cap_flags = IBK_LOCAL_DMA_LKEY |
				 IBK_BLOCK_MULTICAST_LOOPBACK;
#else
	attr->device_cap_flags = IB_DEVICE_LOCAL_DMA_LKEY |
				 IB_DEVICE_BLOCK_MULTICAST_LOOPBACK;
#endif
	attr->max_mcast_grp = dev->limits.max_mcast_grp;
	attr->max_mcast_qp_attach = dev->limits.max_mcast_qp_attach;
	attr->max_total_mcast_qp_attach = dev->limits.max_total_mcast_qp_attach;
	return 0;
}

static int sib_query_port(struct ib_device *ibdev, rdma_mcm_port_t port,
			  struct ib_port_attr *attr)
{
	struct sib_dev *dev = to_sdev(ibdev);
	unsigned long flags;

	/* the core has zeroed *attr */
	spin_lock_irqsave(&sib_fabric_lock, flags);
	attr->state = dev->state;
	attr->lid = dev->lid;
	spin_unlock_irqrestore(&sib_fabric_lock, flags);
	attr->phys_state = attr->state == IB_PORT_ACTIVE ?
		IB_PORT_PHYS_STATE_LINK_UP : IB_PORT_PHYS_STATE_DISABLED;
	attr->max_mtu = SIB_MTU;
	attr->active_mtu = SIB_MTU;
	attr->gid_tbl_len = 1;
	attr->pkey_tbl_len = 1;
	attr->port_cap_flags = dev->cap_flags;
	attr->max_msg_sz = SIB_MTU_BYTES;
	attr->sm_lid = SIB_SA_LID;
	attr->sm_sl = 0;
	attr->lmc = 0;
	attr->max_vl_num = 1;
	attr->active_width = IB_WIDTH_4X;
	attr->active_speed = IB_SPEED_EDR;
	attr->subnet_timeout = 18;
	return 0;
}

/*
 * The port's capability mask, as ib_cm (IB_PORT_CM_SUP) and ib_umad's
 * issm (IB_PORT_SM) set and clear it; an HCA would tell the SM, softib's SM
 * reads nothing of it.
 */
static int sib_modify_port(struct ib_device *ibdev, rdma_mcm_port_t port, int mask,
			   struct ib_port_modify *pm)
{
	struct sib_dev *dev = to_sdev(ibdev);

	/* no shutdown, no init type; there is no Q_Key counter to reset */
	if (mask & ~IB_PORT_RESET_QKEY_CNTR)
		return -EOPNOTSUPP;
	spin_lock_irq(&sib_fabric_lock);
	dev->cap_flags = (dev->cap_flags | pm->set_port_cap_mask) &
			 ~pm->clr_port_cap_mask;
	spin_unlock_irq(&sib_fabric_lock);
	return 0;
}

static int sib_query_gid(struct ib_device *ibdev, rdma_mcm_port_t port, int index,
			 union ib_gid *gid)
{
	if (index != 0)
		return -EINVAL;
	sib_port_gid(to_sdev(ibdev), gid);
	return 0;
}

static int sib_query_pkey(struct ib_device *ibdev, rdma_mcm_port_t port, u16 index,
			  u16 *pkey)
{
	if (index != 0)
		return -EINVAL;
	*pkey = IB_DEFAULT_PKEY_FULL;
	return 0;
}

static int sib_port_immutable(struct ib_device *ibdev, rdma_mcm_port_t port,
			      struct ib_port_immutable *imm)
{
	imm->pkey_tbl_len = 1;
	imm->gid_tbl_len = 1;
	imm->core_cap_flags = RDMA_CORE_PORT_IBA_IB;
	imm->max_mad_size = IB_MGMT_MAD_SIZE;
	return 0;
}

static enum rdma_link_layer sib_link_layer(struct ib_device *ibdev, rdma_mcm_port_t port)
{
	return IB_LINK_LAYER_INFINIBAND;
}

static const struct ib_device_ops sib_port_ops = {
	.query_device = sib_query_device,
	.query_port = sib_query_port,
	.modify_port = sib_modify_port,
	.query_gid = sib_query_gid,
	.query_pkey = sib_query_pkey,
	.get_port_immutable = sib_port_immutable,
	.get_link_layer = sib_link_layer,
};

/* Adds sibINDEX (its port active, LID INDEX + 2); sib_config_mutex held. */
static int __sib_dev_add(unsigned int index)
{
	struct sib_dev *dev;
	char name[IB_DEVICE_NAME_MAX];
	int ret;

	dev = ib_alloc_device(sib_dev, ibdev);
	if (!dev)
		return -ENOMEM;
	dev->index = index;
	dev->lid = SIB_FIRST_LID + index;
	dev->guid = SIB_GUID_BASE + index;
	dev->state = IB_PORT_ACTIVE;
	dev->cap_flags = IB_PORT_CLIENT_REG_SUP;
	dev->limits.max_mcast_grp = max_mcast_grp;
	dev->limits.max_mcast_qp_attach = max_mcast_qp_attach;
	dev->limits.max_total_mcast_qp_attach = max_total_mcast_qp_attach;
	xa_init_flags(&dev->qps, XA_FLAGS_ALLOC | XA_FLAGS_LOCK_IRQ);
	dev->next_qpn = 0x10;
	spin_lock_init(&dev->mc_lock);
	INIT_LIST_HEAD(&dev->mc_groups);

	dev->ibdev.node_type = RDMA_NODE_IB_CA;
	dev->ibdev.node_guid = cpu_to_be64(dev->guid);
	dev->ibdev.phys_port_cnt = 1;
	dev->ibdev.num_comp_vectors = 1;
	dev->ibdev.local_dma_lkey = 0;
	strscpy(dev->ibdev.node_desc, "softib", sizeof(dev->ibdev.node_desc));
	ib_set_device_ops(&dev->ibdev, &sib_port_ops);
	ib_set_device_ops(&dev->ibdev, &sib_verbs_ops);

	snprintf(name, sizeof(name), "sib%u", index);
	/* no DMA device: the core maps with virtual addresses (rxe, siw) */
	ret = ib_register_device(&dev->ibdev, name, NULL);
	if (ret) {
		xa_destroy(&dev->qps);
		ib_dealloc_device(&dev->ibdev);
		return ret;
	}
	spin_lock_irq(&sib_fabric_lock);
	sib_devs[index] = dev;
	spin_unlock_irq(&sib_fabric_lock);
	/* as a port that has just come up: ib_sa reads the SA's ClassPortInfo */
	sib_port_event(dev, IB_EVENT_PORT_ACTIVE);
	return 0;
}

/*
 * Removes sibINDEX: its memberships go from the SA (the port is gone) and
 * ib_unregister_device() takes every consumer off it first.
 */
static int __sib_dev_remove(unsigned int index)
{
	struct sib_dev *dev = index < sib_ndev ? sib_devs[index] : NULL;
	union ib_gid gid;

	if (!dev)
		return -ENODEV;
	ib_unregister_device(&dev->ibdev);
	spin_lock_irq(&sib_fabric_lock);
	sib_devs[index] = NULL;
	spin_unlock_irq(&sib_fabric_lock);
	sib_port_gid(dev, &gid);
	sib_sa_port_down(&gid);
	WARN_ON_ONCE(!xa_empty(&dev->qps));
	xa_destroy(&dev->qps);
	ib_dealloc_device(&dev->ibdev);
	return 0;
}

int sib_dev_add(unsigned int index)
{
	int ret;

	if (index >= sib_ndev)
		return -EINVAL;
	mutex_lock(&sib_config_mutex);
	ret = sib_devs[index] ? -EEXIST : __sib_dev_add(index);
	mutex_unlock(&sib_config_mutex);
	return ret;
}

int sib_dev_remove(unsigned int index)
{
	int ret;

	mutex_lock(&sib_config_mutex);
	ret = __sib_dev_remove(index);
	mutex_unlock(&sib_config_mutex);
	return ret;
}

static int __init sib_init(void)
{
	unsigned int i;
	int ret;

	/* a datagram reaches at most SIB_MAX_FANOUT QPs: none is lost */
	if (!ndev || ndev > SIB_MAX_DEV ||
	    max_mcast_qp_attach > SIB_MAX_FANOUT / SIB_MAX_DEV)
		return -EINVAL;
	sib_ndev = ndev;
	/* reclaim-safe: destroy_qp() flushes it, also from such workers */
	sib_wq = alloc_workqueue("softib", WQ_UNBOUND | WQ_HIGHPRI |
				 WQ_MEM_RECLAIM, 0);
	if (!sib_wq)
		return -ENOMEM;
	ret = sib_sa_init();
	if (ret) {
		destroy_workqueue(sib_wq);
		return ret;
	}
	for (i = 0; i < sib_ndev; i++) {
		ret = sib_dev_add(i);
		if (ret)
			goto err;
	}
	sib_debugfs_init();
	return 0;
err:
	while (i--)
		sib_dev_remove(i);
	sib_sa_exit();
	destroy_workqueue(sib_wq);
	return ret;
}

static void __exit sib_exit(void)
{
	unsigned int i;

	sib_debugfs_exit();
	for (i = 0; i < sib_ndev; i++)
		sib_dev_remove(i);
	sib_sa_exit();
	destroy_workqueue(sib_wq);
}

module_init(sib_init);
module_exit(sib_exit);
MODULE_DESCRIPTION("softib: a software InfiniBand HCA and SA for rdma_mcm's tests");
MODULE_LICENSE("Dual BSD/GPL");
