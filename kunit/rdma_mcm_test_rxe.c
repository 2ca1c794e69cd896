// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * rdma_mcm KUnit: Soft-RoCE on dummy0 for the suites on the real rdma_cm
 * (see rdma_mcm_test_rxe.h).
 */
#include <kunit/test.h>
#include <linux/netdevice.h>
#include <net/net_namespace.h>
#include <rdma/ib_verbs.h>

#include "rdma_mcm_test_rxe.h"

/**
 * mcm_rxe_remove() - unregister the Soft-RoCE device of dummy0, if any
 * @unused: a kunit action's argument
 *
 * Found by its netdev, not its name: ib_device_get_by_name() is gone in
 * 7.x, ib_device_get_by_netdev() is in every kernel the suites build on.
 */
void mcm_rxe_remove(void *unused)
{
	struct net_device *ndev;
	struct ib_device *ibdev;

	ndev = dev_get_by_name(&init_net, MCM_DUMMY_IFNAME);
	if (!ndev)
		return;
	ibdev = ib_device_get_by_netdev(ndev, RDMA_DRIVER_RXE);
	dev_put(ndev);
	if (ibdev)
		ib_unregister_device_and_put(ibdev);
}

/**
 * mcm_rxe_add() - Soft-RoCE on dummy0 for the rest of the case
 * @test: the case; skipped without a built-in rxe
 */
void mcm_rxe_add(struct kunit *test)
{
	struct net_device *ndev;
	int ret;

	if (!IS_BUILTIN(CONFIG_RDMA_RXE))
		kunit_skip(test, "needs CONFIG_RDMA_RXE=y");
	ndev = dev_get_by_name(&init_net, MCM_DUMMY_IFNAME);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, ndev);
	ret = rxe_net_add(MCM_RXE_NAME, ndev);
	dev_put(ndev);
	KUNIT_ASSERT_EQ(test, ret, 0);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, mcm_rxe_remove,
							NULL), 0);
}
