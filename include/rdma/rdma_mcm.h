/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * rdma_mcm: kernel API of the RDMA multicast membership manager.
 *
 * Kernel ULPs include this header. The manager's join/leave API is added
 * on top of the module skeleton; see Documentation/ for the plan.
 */
#ifndef _RDMA_MCM_H
#define _RDMA_MCM_H

/* Module version, reported by modinfo and at load time. */
#define RDMA_MCM_VERSION	"0.1.0"

#endif /* _RDMA_MCM_H */
