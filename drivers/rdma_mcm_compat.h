/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * rdma_mcm: the one place for differences between supported kernels
 * (Debian's 6.1 and 6.12, Debian unstable's 7.2). Each shim names the
 * kernel that brought the interface; newer kernels use their own.
 */
#ifndef _RDMA_MCM_COMPAT_H
#define _RDMA_MCM_COMPAT_H

#include <linux/slab.h>
#include <linux/timer.h>

/*
 * SLAB_NO_MERGE (6.5) keeps the membership cache visible under its own
 * name in /proc/slabinfo; on 6.1 the cache may be merged with another of
 * the same size, and only the module's own counters show leaks.
 */
#ifndef SLAB_NO_MERGE
#define SLAB_NO_MERGE 0
#endif

/*
 * kmalloc_obj() and kzalloc_obj() (7.0, and stable 6.12.97, so Debian's
 * 6.12 has them): an allocation sized and typed by the object it is for,
 * which 7.x's checkpatch asks for. On 6.1 they are the sizeof() forms,
 * typed like the kernel's: the result converts only to a pointer to the
 * object's type. rdma_mcm always passes the GFP flags (most of its
 * allocations are GFP_KERNEL_ACCOUNT), so the kernel's default of
 * GFP_KERNEL when they are left out is not needed here.
 */
#ifndef kmalloc_obj
#define kmalloc_obj(OBJ, GFP) \
	({ typeof(OBJ) *__obj = kmalloc(sizeof(OBJ), GFP); __obj; })
#endif
#ifndef kzalloc_obj
#define kzalloc_obj(OBJ, GFP) \
	({ typeof(OBJ) *__obj = kzalloc(sizeof(OBJ), GFP); __obj; })
#endif

/*
 * timer_container_of() (6.16) is from_timer() renamed; 7.x has only the
 * new name, 6.1 and 6.12 only the old. (timer_delete_sync() needs no shim:
 * 6.2 has it, and so does Debian's 6.1 from stable.)
 */
#ifndef timer_container_of
#define timer_container_of(var, timer, field) from_timer(var, timer, field)
#endif

/*
 * Driver ops whose arguments changed (tools/testing/softib, a test HCA):
 * ib_device_ops.create_cq() takes the uverbs attribute bundle from 6.11,
 * the udata before; reg_user_mr() takes a DMA handle before the udata
 * from 6.17. Each test below is true when the kernel's op has the newer
 * type: the driver defines the op both ways (__maybe_unused) and picks one
 * with __builtin_choose_expr(), a test of the interface itself, not of a
 * version number.
 */
struct ib_dmah;		/* named in a test below; not in kernels before 6.17 */
#define RDMA_MCM_NO_OPS ((const struct ib_device_ops *)NULL)
#define RDMA_MCM_CREATE_CQ_ATTRS \
	(__same_type(RDMA_MCM_NO_OPS->create_cq, \
		     int (*)(struct ib_cq *, const struct ib_cq_init_attr *, \
			     struct uverbs_attr_bundle *)))
#define RDMA_MCM_REG_USER_MR_DMAH \
	(__same_type(RDMA_MCM_NO_OPS->reg_user_mr, \
		     struct ib_mr *(*)(struct ib_pd *, u64, u64, u64, int, \
				       struct ib_dmah *, struct ib_udata *)))

#endif /* _RDMA_MCM_COMPAT_H */
