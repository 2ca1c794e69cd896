/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * rdma_mcm KUnit: reach Soft-RoCE from a test.
 *
 * rxe_net_add() is not exported and its header is private to rxe, but when
 * rxe is built in (CONFIG_RDMA_RXE=y, as kunit/.kunitconfig asks) a test can
 * call it to put an rxe device on a netdev, as 'rdma link add' would.
 */
#ifndef _RDMA_MCM_TEST_RXE_H
#define _RDMA_MCM_TEST_RXE_H

struct net_device;

/* drivers/infiniband/sw/rxe/rxe_net.h, unchanged from 6.1 to 6.12 */
int rxe_net_add(const char *ibdev_name, struct net_device *ndev);

#endif /* _RDMA_MCM_TEST_RXE_H */
