// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * rdma_mcm: RDMA multicast membership manager.
 *
 * Module entry points. Each responsibility lives in its own file:
 * rdma_mcm_core.c is the manager, rdma_mcm_state.c its state machine,
 * rdma_mcm_addr.c checks addresses, rdma_mcm_rdma_cm.c calls rdma_cm and
 * verbs, rdma_mcm_ib.c tracks RDMA devices, rdma_mcm_cdev.c owns
 * /dev/rdma_mcm.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/init.h>

#include <rdma/rdma_mcm.h>
#include "rdma_mcm_internal.h"

static int __init rdma_mcm_init(void)
{
	int ret;

	ret = rdma_mcm_core_init();
	if (ret)
		return ret;

	ret = rdma_mcm_ib_client_register();
	if (ret)
		goto err_core;

	ret = rdma_mcm_cdev_register();
	if (ret)
		goto err_client;
	rdma_mcm_debugfs_init();

	pr_debug("loaded, version %s\n", RDMA_MCM_VERSION);
	return 0;

err_client:
	rdma_mcm_ib_client_unregister();
err_core:
	rdma_mcm_core_exit();
	return ret;
}

static void __exit rdma_mcm_exit(void)
{
	/* Reverse order of init: no new opens, then no device callbacks. */
	rdma_mcm_debugfs_exit();
	rdma_mcm_cdev_unregister();
	rdma_mcm_ib_client_unregister();
	rdma_mcm_core_exit();
	pr_debug("unloaded\n");
}

module_init(rdma_mcm_init);
module_exit(rdma_mcm_exit);

MODULE_LICENSE("Dual BSD/GPL");
MODULE_AUTHOR("The rdma_mcm developers");
MODULE_DESCRIPTION("RDMA multicast membership manager");
MODULE_VERSION(RDMA_MCM_VERSION);
