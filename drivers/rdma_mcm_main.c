// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * rdma_mcm: RDMA multicast membership manager.
 *
 * Module entry points. Each responsibility lives in its own file: see
 * rdma_mcm_internal.h for the manager's, rdma_mcm_cdev.h for those of the
 * /dev/rdma_mcm char device.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/init.h>

#include <rdma/rdma_mcm.h>
#include "rdma_mcm_cdev.h"
#include "rdma_mcm_internal.h"

static int __init rdma_mcm_init(void)
{
	int ret;

	ret = rdma_mcm_ctx_init();
	if (ret)
		return ret;
	ret = rdma_mcm_member_init();
	if (ret)
		goto err_ctx;
	/* before any context: their events go to the family's group */
	ret = rdma_mcm_netlink_init();
	if (ret)
		goto err_member;
	ret = rdma_mcm_device_register();
	if (ret)
		goto err_netlink;
	ret = rdma_mcm_cdev_register();
	if (ret)
		goto err_device;
	rdma_mcm_debugfs_init();

	pr_debug("loaded, version %s\n", RDMA_MCM_VERSION);
	return 0;

err_device:
	rdma_mcm_device_unregister();
err_netlink:
	rdma_mcm_netlink_exit();
	rdma_mcm_counters_exit();
err_member:
	rdma_mcm_member_exit();
err_ctx:
	rdma_mcm_ctx_exit();
	return ret;
}

static void __exit rdma_mcm_exit(void)
{
	/* Reverse order of init: no new opens, then no device callbacks. */
	rdma_mcm_debugfs_exit();
	rdma_mcm_cdev_unregister();
	rdma_mcm_device_unregister();
	rdma_mcm_netlink_exit();
	rdma_mcm_ctx_exit();
	rdma_mcm_member_exit();
	rdma_mcm_counters_exit();
	pr_debug("unloaded\n");
}

module_init(rdma_mcm_init);
module_exit(rdma_mcm_exit);

MODULE_LICENSE("Dual BSD/GPL");
MODULE_AUTHOR("The rdma_mcm developers");
MODULE_DESCRIPTION("RDMA multicast membership manager");
MODULE_VERSION(RDMA_MCM_VERSION);
/*
 * ib_uverbs first: rdma_mcm's ib_client must register after uverbs' so
 * that ib_core tells rdma_mcm of a device's removal before uverbs waits
 * for userspace (rdma_mcm_device.c).
 */
MODULE_SOFTDEP("pre: ib_uverbs");
