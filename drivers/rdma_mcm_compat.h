/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * rdma_mcm: the one place for differences between supported kernels
 * (Debian 11's 5.10, Debian 12's 6.1 and 6.12, Debian unstable's 7.2).
 * Each shim names the kernel that brought the interface; newer kernels use
 * their own. An interface that is a macro is tested by name; a function is
 * found in the kernel's headers by Kbuild (RDMA_MCM_HAVE_*).
 */
#ifndef _RDMA_MCM_COMPAT_H
#define _RDMA_MCM_COMPAT_H

#include <linux/lockdep.h>
#include <linux/pagemap.h>
#include <linux/rbtree.h>
#include <linux/sched/mm.h>
#include <linux/slab.h>
#include <linux/timer.h>
#include <net/genetlink.h>

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
 * rb_add(), rb_find_add(), rb_find() and rb_find_first() (5.12): a tree
 * walked with a comparison callback. On 5.10 the same four, written here
 * on rb_link_node() and rb_insert_color(), with the kernel's signatures.
 */
#ifndef RDMA_MCM_HAVE_RB_FIND
static __always_inline void rb_add(struct rb_node *node, struct rb_root *tree,
				   bool (*less)(struct rb_node *,
						const struct rb_node *))
{
	struct rb_node **link = &tree->rb_node, *parent = NULL;

	while (*link) {
		parent = *link;
		link = less(node, parent) ? &parent->rb_left : &parent->rb_right;
	}
	rb_link_node(node, parent, link);
	rb_insert_color(node, tree);
}

static __always_inline struct rb_node *
rb_find_add(struct rb_node *node, struct rb_root *tree,
	    int (*cmp)(struct rb_node *, const struct rb_node *))
{
	struct rb_node **link = &tree->rb_node, *parent = NULL;
	int c;

	while (*link) {
		parent = *link;
		c = cmp(node, parent);
		if (c < 0)
			link = &parent->rb_left;
		else if (c > 0)
			link = &parent->rb_right;
		else
			return parent;
	}
	rb_link_node(node, parent, link);
	rb_insert_color(node, tree);
	return NULL;
}

static __always_inline struct rb_node *
rb_find(const void *key, const struct rb_root *tree,
	int (*cmp)(const void *key, const struct rb_node *))
{
	struct rb_node *node = tree->rb_node;
	int c;

	while (node) {
		c = cmp(key, node);
		if (c < 0)
			node = node->rb_left;
		else if (c > 0)
			node = node->rb_right;
		else
			return node;
	}
	return NULL;
}

/* the leftmost node equal to @key */
static __always_inline struct rb_node *
rb_find_first(const void *key, const struct rb_root *tree,
	      int (*cmp)(const void *key, const struct rb_node *))
{
	struct rb_node *node = tree->rb_node, *match = NULL;
	int c;

	while (node) {
		c = cmp(key, node);
		if (c <= 0) {
			if (!c)
				match = node;
			node = node->rb_left;
		} else {
			node = node->rb_right;
		}
	}
	return match;
}
#endif

/*
 * fault_in_writeable() (5.16) returns the bytes it could not fault in;
 * 5.10's fault_in_pages_writeable() returns -EFAULT for the same: either
 * is non-zero exactly when the buffer cannot be written, all rdma_mcm
 * asks of it.
 */
#ifndef RDMA_MCM_HAVE_FAULT_IN_WRITEABLE
#define fault_in_writeable(uaddr, size) \
	fault_in_pages_writeable(uaddr, size)
#endif

/*
 * set_active_memcg() is inline, and reads the per-CPU int_active_memcg in
 * interrupt context; 5.10 does not export that variable (its modules
 * cannot link the inline). rdma_mcm charges a context's memory cgroup
 * from process context only (ioctls, its work items), the half that
 * needs no export: on 5.10 that half alone.
 */
#if defined(CONFIG_MEMCG) && !defined(RDMA_MCM_HAVE_INT_ACTIVE_MEMCG_EXPORT)
static inline struct mem_cgroup *
rdma_mcm_set_active_memcg(struct mem_cgroup *memcg)
{
	struct mem_cgroup *old = current->active_memcg;

	WARN_ON_ONCE(in_interrupt());
	current->active_memcg = memcg;
	return old;
}

#define set_active_memcg(memcg) rdma_mcm_set_active_memcg(memcg)
#endif

/* lockdep_assert_not_held() (5.16); without it, nothing is checked */
#ifndef lockdep_assert_not_held
#define lockdep_assert_not_held(l) ((void)(l))
#endif

/*
 * GENL_MCAST_CAP_NET_ADMIN (6.6, and Debian's 6.1 from stable): joining
 * a multicast group needs CAP_NET_ADMIN in the namespace's user
 * namespace. 5.10's stable kernels have only cap_sys_admin: on 5.10 the
 * events group needs CAP_SYS_ADMIN (documented in netlink.rst).
 */
#ifdef GENL_MCAST_CAP_NET_ADMIN
#define RDMA_MCM_MCGRP_ADMIN .flags = GENL_MCAST_CAP_NET_ADMIN
#else
#define RDMA_MCM_MCGRP_ADMIN .cap_sys_admin = 1
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

/*
 * The port argument of the device's port ops is a u32 from 5.13, a u8
 * before: the type the kernel's query_port() takes, for softib's ops.
 */
#define RDMA_MCM_PORT_U32 \
	(__same_type(RDMA_MCM_NO_OPS->query_port, \
		     int (*)(struct ib_device *, u32, struct ib_port_attr *)))
typedef typeof(__builtin_choose_expr(RDMA_MCM_PORT_U32, (u32)0, (u8)0))
	rdma_mcm_port_t;

/*
 * ib_device_ops.create_qp() fills a QP the core allocated from 5.15
 * (RDMA_MCM_HAVE_CORE_QP_ALLOC, with the ops' size of the driver's QP);
 * on 5.10 the driver allocates it in create_qp() and frees it in
 * destroy_qp(). Device capabilities for kernel users moved from
 * device_cap_flags to kernel_cap_flags in 6.0 (RDMA_MCM_HAVE_KERNEL_CAP_FLAGS).
 */

#endif /* _RDMA_MCM_COMPAT_H */
