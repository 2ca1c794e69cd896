/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * rdma_mcm KUnit: reach Soft-RoCE from a test.
 *
 * rxe_net_add() is not exported and its header is private to rxe, but when
 * rxe is built in (CONFIG_RDMA_RXE=y, as kunit/.kunitconfig asks) a test can
 * call it to put an rxe device on a netdev, as 'rdma link add' would.
 * The suites on the real rdma_cm share mcm_rxe_add() (rdma_mcm_test_rxe.c).
 */
#ifndef _RDMA_MCM_TEST_RXE_H
#define _RDMA_MCM_TEST_RXE_H

#include <kunit/test.h>

struct net_device;

/* drivers/infiniband/sw/rxe/rxe_net.h, unchanged from 6.1 to 7.2 */
int rxe_net_add(const char *ibdev_name, struct net_device *ndev);

/* set by scripts/kunit-run's ip=192.0.2.1::::kt:dummy0:off */
#define MCM_DUMMY_IFNAME	"dummy0"
#define MCM_DUMMY_ADDR		"192.0.2.1"
#define MCM_RXE_NAME		"rxe_kt0"

void mcm_rxe_add(struct kunit *test);
void mcm_rxe_remove(void *unused);

#endif /* _RDMA_MCM_TEST_RXE_H */
