/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * rdma_mcm: the char device's limits (rdma_mcm_limits.c), per open file
 * and per user across all of a user's files. The char device charges
 * them, the netlink family reports them; rdma_mcm_limits.c calls nothing
 * of the module.
 */
#ifndef _RDMA_MCM_LIMITS_H
#define _RDMA_MCM_LIMITS_H

#include <linux/types.h>

struct cred;
struct rdma_mcm_user;

/* Per file: more fail with ENOBUFS (memberships) or EMFILE (contexts) */
extern unsigned int rdma_mcm_max_memberships;
extern unsigned int rdma_mcm_max_contexts;

/* What a user's account counts */
enum rdma_mcm_user_res {
	RDMA_MCM_USER_CONTEXTS,
	RDMA_MCM_USER_MEMBERSHIPS,
	RDMA_MCM_USER_SOURCES,
	RDMA_MCM_USER_NR_RES,
};

struct rdma_mcm_user *rdma_mcm_user_get(const struct cred *cred);
void rdma_mcm_user_put(struct rdma_mcm_user *user);
int rdma_mcm_user_charge(struct rdma_mcm_user *user,
			 enum rdma_mcm_user_res res, unsigned int n);
void rdma_mcm_user_uncharge(struct rdma_mcm_user *user,
			    enum rdma_mcm_user_res res, unsigned int n);
void rdma_mcm_file_limits(u32 *memberships, u32 *contexts);
void rdma_mcm_user_limits(u32 *contexts, u32 *memberships, u32 *sources);

#endif /* _RDMA_MCM_LIMITS_H */
