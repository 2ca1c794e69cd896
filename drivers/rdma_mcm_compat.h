/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * rdma_mcm: the one place for differences between supported kernels
 * (Debian's 6.1 and 6.12).
 */
#ifndef _RDMA_MCM_COMPAT_H
#define _RDMA_MCM_COMPAT_H

#include <linux/slab.h>

/*
 * SLAB_NO_MERGE (6.4) keeps the membership cache visible under its own
 * name in /proc/slabinfo; on 6.1 the cache may be merged with another of
 * the same size, and only the module's own counters show leaks.
 */
#ifndef SLAB_NO_MERGE
#define SLAB_NO_MERGE 0
#endif

#endif /* _RDMA_MCM_COMPAT_H */
