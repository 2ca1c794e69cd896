// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * rdma_mcm: the ioctl commands of /dev/rdma_mcm (include/uapi/rdma/
 * rdma_mcm_abi.h, Documentation/uapi.rst), and their dispatch.
 *
 * Every command runs under the file's mutex, taken killably. Arguments of
 * any size from their first version's up are taken, as
 * copy_struct_from_user() does, and only the caller's bytes are written
 * back. A result the caller cannot learn (a context id, a handle, because
 * the copy back faulted) is undone before the mutex is dropped.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/build_bug.h>
#include <linux/nospec.h>
#include <linux/sched/signal.h>
#include <linux/uaccess.h>
#include <net/net_namespace.h>
#include <rdma/ib_verbs.h>

#include "rdma_mcm_cdev.h"

/* An address from an ioctl argument: at most RDMA_MCM_ADDR_SIZE bytes. */
static int rdma_mcm_uaddr_parse(const u8 *addr, u32 addr_len,
				union rdma_mcm_addr *out)
{
	if (addr_len > RDMA_MCM_ADDR_SIZE)
		return -EINVAL;
	return rdma_mcm_addr_parse((const struct sockaddr *)addr, addr_len,
				   out);
}

static struct rdma_mcm_uctx *rdma_mcm_get_uctx(struct rdma_mcm_ufile *file,
					       u32 ctx_id)
{
	lockdep_assert_held(&file->mutex);
	return xa_load(&file->contexts, ctx_id);
}

/*
 * Room for one more object of a file: the file's own limit (@held of @max,
 * else @err), then its user's (-ENOSPC), which is charged.
 */
static int rdma_mcm_file_charge(struct rdma_mcm_ufile *file, unsigned int held,
				unsigned int max, int err,
				enum rdma_mcm_user_res res)
{
	if (held >= max)
		return err;
	return rdma_mcm_user_charge(file->user, res, 1);
}

/*
 * Room for one more membership of a file, with @nr_sources sources: the
 * file's limit (-ENOBUFS), then its user's memberships and sources
 * (-ENOSPC); charged when it returns 0.
 */
static int rdma_mcm_member_charge(struct rdma_mcm_ufile *file, u32 nr_sources)
{
	int ret;

	ret = rdma_mcm_file_charge(file, file->nr_members,
				   READ_ONCE(rdma_mcm_max_memberships), -ENOBUFS,
				   RDMA_MCM_USER_MEMBERSHIPS);
	if (ret)
		return ret;
	ret = rdma_mcm_user_charge(file->user, RDMA_MCM_USER_SOURCES,
				   nr_sources);
	if (ret)
		rdma_mcm_user_uncharge(file->user, RDMA_MCM_USER_MEMBERSHIPS, 1);
	return ret;
}

static void rdma_mcm_member_uncharge(struct rdma_mcm_ufile *file,
				     u32 nr_sources)
{
	rdma_mcm_user_uncharge(file->user, RDMA_MCM_USER_SOURCES, nr_sources);
	rdma_mcm_user_uncharge(file->user, RDMA_MCM_USER_MEMBERSHIPS, 1);
}

/* A membership the manager has left: its events gone, free it. */
static void rdma_mcm_umember_release(struct rdma_mcm_ufile *file,
				     struct rdma_mcm_umember *um)
{
	list_del(&um->node);
	rdma_mcm_member_uncharge(file, um->nr_sources);
	rdma_mcm_umember_free(um);
	file->nr_members--;
}

/* ------------------------------------------------------------ contexts */

static void rdma_mcm_free_members(struct rdma_mcm_uctx *uctx)
{
	struct rdma_mcm_ufile *file = uctx->file;
	struct rdma_mcm_umember *um, *tmp;

	list_for_each_entry_safe(um, tmp, &uctx->members, node) {
		rdma_mcm_purge_member(file, um, NULL);	/* ctx closed */
		rdma_mcm_umember_release(file, um);
	}
}

/**
 * rdma_mcm_destroy_uctx() - close a file's context, leaving everything
 * @uctx: the context, already out of the file's table
 *
 * Context: the file's mutex held.
 */
void rdma_mcm_destroy_uctx(struct rdma_mcm_uctx *uctx)
{
	struct rdma_mcm_ufile *file = uctx->file;

	rdma_mcm_close(uctx->ctx);	/* no callback after this */
	rdma_mcm_purge_uctx(file, uctx);
	rdma_mcm_free_members(uctx);
	file->nr_contexts--;
	rdma_mcm_user_uncharge(file->user, RDMA_MCM_USER_CONTEXTS, 1);
	rdma_mcm_uctx_free(uctx);
}

/* CREATE_CTX's flags, as the kernel API's */
static u32 rdma_mcm_ctx_flags(u32 flags)
{
	return (flags & RDMA_MCM_CTX_HEAL ? RDMA_MCM_OPEN_HEAL : 0) |
	       (flags & RDMA_MCM_CTX_ROUTE ? RDMA_MCM_OPEN_ROUTE : 0);
}

static int rdma_mcm_cmd_create_ctx(struct rdma_mcm_ufile *file,
				   struct rdma_mcm_create_ctx *arg)
{
	union rdma_mcm_addr src;
	struct rdma_mcm_uctx *uctx;
	int ret;

	if ((arg->flags & ~(RDMA_MCM_CTX_HEAL | RDMA_MCM_CTX_ROUTE)) ||
	    arg->reserved)
		return -EINVAL;
	ret = rdma_mcm_uaddr_parse(arg->src, arg->src_len, &src);
	if (ret)
		return ret;
	ret = rdma_mcm_file_charge(file, file->nr_contexts,
				   READ_ONCE(rdma_mcm_max_contexts), -EMFILE,
				   RDMA_MCM_USER_CONTEXTS);
	if (ret)
		return ret;

	uctx = rdma_mcm_uctx_alloc();
	if (!uctx) {
		ret = -ENOMEM;
		goto err_uncharge;
	}
	uctx->file = file;
	ret = rdma_mcm_fail_alloc() ? -ENOMEM :
	      xa_alloc_cyclic(&file->contexts, &uctx->id, NULL,
			      XA_LIMIT(1, U32_MAX), &file->next_ctx,
			      GFP_KERNEL_ACCOUNT);
	if (ret < 0) {
		ret = -ENOMEM;	/* -EBUSY would take 4G contexts */
		goto err_free;
	}
	/* its callbacks only queue events: JOINED may skip the work */
	uctx->ctx = rdma_mcm_open_face(file->net, (struct sockaddr *)&src,
				       &rdma_mcm_ufile_ops, uctx,
				       rdma_mcm_ufile_backend(file),
				       &rdma_mcm_ufile_face,
				       rdma_mcm_ctx_flags(arg->flags) |
				       RDMA_MCM_OPEN_DIRECT |
				       RDMA_MCM_OPEN_USER);
	if (IS_ERR(uctx->ctx)) {
		ret = PTR_ERR(uctx->ctx);
		xa_erase(&file->contexts, uctx->id);
		goto err_free;
	}
	xa_store(&file->contexts, uctx->id, uctx, GFP_KERNEL_ACCOUNT);
	WRITE_ONCE(uctx->ctx->owner.file_ctx, uctx->id);
	file->nr_contexts++;
	arg->ctx_id = uctx->id;
	return 0;

err_free:
	rdma_mcm_uctx_free(uctx);
err_uncharge:
	rdma_mcm_user_uncharge(file->user, RDMA_MCM_USER_CONTEXTS, 1);
	return ret;
}

/* CREATE_CTX's result could not be written back: destroy the context. */
static void rdma_mcm_undo_create_ctx(struct rdma_mcm_ufile *file,
				     struct rdma_mcm_create_ctx *arg)
{
	struct rdma_mcm_uctx *uctx = xa_erase(&file->contexts, arg->ctx_id);

	if (!WARN_ON_ONCE(!uctx))
		rdma_mcm_destroy_uctx(uctx);
}

static int rdma_mcm_cmd_destroy_ctx(struct rdma_mcm_ufile *file,
				    struct rdma_mcm_destroy_ctx *arg)
{
	struct rdma_mcm_uctx *uctx;

	if (arg->reserved)
		return -EINVAL;
	uctx = rdma_mcm_get_uctx(file, arg->ctx_id);
	if (!uctx)
		return -ENOENT;
	xa_erase(&file->contexts, arg->ctx_id);
	rdma_mcm_destroy_uctx(uctx);
	return 0;
}

static int rdma_mcm_cmd_query_ctx(struct rdma_mcm_ufile *file,
				  struct rdma_mcm_query_ctx *arg)
{
	struct rdma_mcm_uctx *uctx;
	struct rdma_mcm_ctx_info info;
	size_t len;

	if (arg->flags || arg->src_len || arg->port_num || arg->node_guid ||
	    memchr_inv(arg->src, 0, sizeof(arg->src)) ||
	    memchr_inv(arg->dev_name, 0, sizeof(arg->dev_name)) ||
	    memchr_inv(arg->reserved, 0, sizeof(arg->reserved)))
		return -EINVAL;
	uctx = rdma_mcm_get_uctx(file, arg->ctx_id);
	if (!uctx)
		return -ENOENT;
	rdma_mcm_ctx_query(uctx->ctx, &info);
	arg->flags = (info.flags & RDMA_MCM_OPEN_HEAL ? RDMA_MCM_CTX_HEAL : 0) |
		     (info.flags & RDMA_MCM_OPEN_ROUTE ? RDMA_MCM_CTX_ROUTE : 0);
	len = info.src.ss_family == AF_UNSPEC ? 0 :
	      rdma_mcm_sockaddr_len((struct sockaddr *)&info.src);
	len = min(len, sizeof(arg->src));
	memcpy(arg->src, &info.src, len);
	arg->src_len = len;
	arg->port_num = info.port_num;
	arg->node_guid = (__force u64)info.node_guid;
	BUILD_BUG_ON(sizeof(arg->dev_name) < sizeof(info.dev_name));
	strscpy(arg->dev_name, info.dev_name, sizeof(arg->dev_name));
	return 0;
}

/* ------------------------------------------------------------ memberships */

/* An array's entry size: from the entry's first version up to a page. */
static int rdma_mcm_check_entry_size(u32 entry_size, size_t ver0)
{
	if (entry_size < ver0)
		return -EINVAL;
	if (entry_size > RDMA_MCM_MAX_ENTRY_SIZE)
		return -E2BIG;
	return 0;
}

/* What JOIN, or one entry of BATCH_JOIN, asks for */
struct rdma_mcm_join_args {
	u64 cookie;
	u32 join_flags;
	u32 addr_len;
	const u8 *addr;
	u64 sources;
	u32 nr_sources;
	u32 source_size;
};

/*
 * A join's sources, from the caller's array of struct rdma_mcm_source (of
 * any size from its first version's up, as copy_struct_from_user() takes
 * them): *@out is a kfree()able array of @j->nr_sources sockaddrs, or
 * NULL for none. The manager checks what they are.
 */
static int rdma_mcm_usources(const struct rdma_mcm_join_args *j,
			     struct sockaddr_storage **out)
{
	u8 __user *p = u64_to_user_ptr(j->sources);
	struct rdma_mcm_source src;
	struct sockaddr_storage *ss;
	union rdma_mcm_addr a;
	u32 i;
	int ret;

	*out = NULL;
	if (!j->nr_sources)
		return 0;
	if (j->nr_sources > RDMA_MCM_MAX_SOURCES)
		return -EINVAL;
	ret = rdma_mcm_check_entry_size(j->source_size,
					RDMA_MCM_SOURCE_SIZE_VER0);
	if (ret)
		return ret;
	ss = rdma_mcm_fail_alloc() ? NULL :
	     kcalloc(j->nr_sources, sizeof(*ss), GFP_KERNEL_ACCOUNT);
	if (!ss)
		return -ENOMEM;
	for (i = 0; i < j->nr_sources; i++) {
		ret = copy_struct_from_user(&src, sizeof(src),
					    p + (size_t)i * j->source_size,
					    j->source_size);
		if (!ret && src.reserved)
			ret = -EINVAL;
		if (!ret)
			ret = rdma_mcm_uaddr_parse(src.addr, src.addr_len, &a);
		if (ret) {
			kfree(ss);
			return ret;
		}
		rdma_mcm_addr_to_storage(&a, &ss[i]);
	}
	*out = ss;
	return 0;
}

static int rdma_mcm_do_join(struct rdma_mcm_ufile *file,
			    struct rdma_mcm_uctx *uctx,
			    const struct rdma_mcm_join_args *j, u32 *handle)
{
	struct rdma_mcm_join_req req = {};
	struct sockaddr_storage *sources;
	union rdma_mcm_addr group;
	struct rdma_mcm_umember *um;
	int ret;

	switch (j->join_flags) {
	case RDMA_MCM_JOIN_FULLMEMBER:
		req.join_type = RDMA_MCM_FULLMEMBER;
		break;
	case RDMA_MCM_JOIN_SENDONLY_FULLMEMBER:
		req.join_type = RDMA_MCM_SENDONLY_FULLMEMBER;
		break;
	default:
		ret = -EINVAL;
		goto err_count;
	}
	ret = rdma_mcm_uaddr_parse(j->addr, j->addr_len, &group);
	if (ret)
		goto err_count;
	sources = NULL;
	if (j->nr_sources) {
		ret = rdma_mcm_usources(j, &sources);
		if (ret)
			goto err_count;
	}
	/* before any charge: a limit's ENOSPC must not hide this */
	if (j->nr_sources && req.join_type != RDMA_MCM_FULLMEMBER) {
		ret = -EINVAL;
		goto err_count_free;
	}
	ret = rdma_mcm_member_charge(file, j->nr_sources);
	if (ret)
		goto err_count_free;

	um = rdma_mcm_umember_alloc();
	if (!um) {
		ret = -ENOMEM;
		goto err_count_uncharge;
	}
	um->uctx = uctx;
	um->cookie = j->cookie;
	um->join_flags = j->join_flags;
	um->nr_sources = j->nr_sources;
	um->joined.type = RDMA_MCM_EVENT_JOINED;
	um->error.type = RDMA_MCM_EVENT_ERROR;
	um->rejoining.type = RDMA_MCM_EVENT_REJOINING;
	um->rejoined.type = RDMA_MCM_EVENT_REJOINED;
	req.group = (struct sockaddr *)&group;
	req.context = um;
	req.sources = sources;
	req.nr_sources = j->nr_sources;
	ret = rdma_mcm_join_ex(uctx->ctx, &req, handle);
	kfree(sources);
	if (ret)
		goto err_free;
	list_add_tail(&um->node, &uctx->members);
	file->nr_members++;
	return 0;

err_free:
	rdma_mcm_umember_free(um);	/* rdma_mcm_join_ex() counted it */
	rdma_mcm_member_uncharge(file, j->nr_sources);
	return ret;

err_count_uncharge:
	rdma_mcm_member_uncharge(file, j->nr_sources);
err_count_free:
	kfree(sources);
err_count:
	/* refused before the manager saw it: counted here */
	rdma_mcm_count_join_failed(uctx->ctx, ret);
	return ret;
}

static int rdma_mcm_do_leave(struct rdma_mcm_ufile *file,
			     struct rdma_mcm_uctx *uctx, u32 flags, u32 handle,
			     const u8 *addr, u32 addr_len, u32 *events_reported)
{
	union rdma_mcm_addr group;
	struct rdma_mcm_umember *um;
	void *context;
	int ret;

	if (flags & ~RDMA_MCM_LEAVE_BY_ADDR)
		return -EINVAL;
	if (flags & RDMA_MCM_LEAVE_BY_ADDR) {
		ret = rdma_mcm_uaddr_parse(addr, addr_len, &group);
		if (ret)
			return ret;
		ret = rdma_mcm_find_handle(uctx->ctx,
					   (struct sockaddr *)&group, &handle);
		if (ret)
			return ret;
	}
	ret = rdma_mcm_leave_context(uctx->ctx, handle, &context); /* a barrier */
	if (ret)
		return ret;
	um = context;
	*events_reported = rdma_mcm_purge_member(file, um, uctx->ctx);
	rdma_mcm_umember_release(file, um);
	return 0;
}

static int rdma_mcm_cmd_join(struct rdma_mcm_ufile *file,
			     struct rdma_mcm_join *arg)
{
	struct rdma_mcm_uctx *uctx = rdma_mcm_get_uctx(file, arg->ctx_id);
	const struct rdma_mcm_join_args j = {
		.cookie = arg->cookie, .join_flags = arg->join_flags,
		.addr_len = arg->addr_len, .addr = arg->addr,
		.sources = arg->sources, .nr_sources = arg->nr_sources,
		.source_size = arg->source_size,
	};

	if (!uctx)
		return -ENOENT;
	return rdma_mcm_do_join(file, uctx, &j, &arg->handle);
}

/* A join whose handle the caller cannot learn: leave it again. */
static void rdma_mcm_undo_join(struct rdma_mcm_ufile *file,
			       struct rdma_mcm_uctx *uctx, u32 handle)
{
	u32 reported;

	WARN_ON_ONCE(rdma_mcm_do_leave(file, uctx, 0, handle, NULL, 0,
				       &reported));
}

static void rdma_mcm_undo_cmd_join(struct rdma_mcm_ufile *file,
				   struct rdma_mcm_join *arg)
{
	rdma_mcm_undo_join(file, rdma_mcm_get_uctx(file, arg->ctx_id),
			   arg->handle);
}

static int rdma_mcm_cmd_leave(struct rdma_mcm_ufile *file,
			      struct rdma_mcm_leave *arg)
{
	struct rdma_mcm_uctx *uctx;

	if (arg->reserved)
		return -EINVAL;
	uctx = rdma_mcm_get_uctx(file, arg->ctx_id);
	if (!uctx)
		return -ENOENT;
	return rdma_mcm_do_leave(file, uctx, arg->flags, arg->handle, arg->addr,
				 arg->addr_len, &arg->events_reported);
}

/* A membership as QUERY and LIST report it; the file's mutex held. */
static void rdma_mcm_fill_member(struct rdma_mcm_ufile *file,
				 const struct rdma_mcm_member_info *info,
				 struct rdma_mcm_member *m)
{
	const struct rdma_mcm_umember *um = info->context;

	memset(m, 0, sizeof(*m));
	m->handle = info->handle;
	switch (info->state) {
	case RDMA_MCM_JOINED:
		m->state = RDMA_MCM_STATE_JOINED;
		break;
	case RDMA_MCM_ERROR:
		m->state = RDMA_MCM_STATE_ERROR;
		break;
	case RDMA_MCM_WAITING:
		m->state = RDMA_MCM_STATE_WAITING;
		break;
	default:
		m->state = RDMA_MCM_STATE_JOINING;
		break;
	}
	m->status = info->status;
	m->rejoins = info->rejoins;
	m->last_status = info->last_status;
	m->state_time_ns = info->state_time_ns;
	m->nr_sources = info->nr_sources;
	m->flags = info->joined_by_mcm ? RDMA_MCM_MEMBER_JOINED_BY_MCM : 0;
	m->qkey = info->qkey;
	m->mlid = info->mlid;
	memcpy(m->mgid, info->mgid.raw, sizeof(m->mgid));
	m->addr_len = rdma_addr_size((struct sockaddr *)&info->group);
	memcpy(m->addr, &info->group, min_t(size_t, m->addr_len,
					    sizeof(m->addr)));
	m->cookie = um->cookie;
	m->join_flags = um->join_flags;
	spin_lock(&file->ev_lock);
	m->events_reported = um->events_reported;
	spin_unlock(&file->ev_lock);
}

static int rdma_mcm_cmd_query(struct rdma_mcm_ufile *file,
			      struct rdma_mcm_query *arg)
{
	struct rdma_mcm_uctx *uctx = rdma_mcm_get_uctx(file, arg->ctx_id);
	struct rdma_mcm_member_info info;
	int ret;

	if (!uctx)
		return -ENOENT;
	ret = rdma_mcm_query(uctx->ctx, arg->handle, &info);
	if (ret)
		return ret;
	rdma_mcm_fill_member(file, &info, &arg->member);
	return 0;
}

static int rdma_mcm_cmd_list(struct rdma_mcm_ufile *file,
			     struct rdma_mcm_list *arg)
{
	struct rdma_mcm_uctx *uctx = rdma_mcm_get_uctx(file, arg->ctx_id);
	u8 __user *out = u64_to_user_ptr(arg->entries);
	struct rdma_mcm_member_info info[8];
	struct rdma_mcm_member m;
	u32 start = arg->start, next = 0, written = 0;
	size_t copy = min_t(size_t, arg->entry_size, sizeof(m));
	u8 __user *p;
	int i, n, ret;

	if (!uctx)
		return -ENOENT;
	if (arg->reserved)
		return -EINVAL;
	ret = rdma_mcm_check_entry_size(arg->entry_size,
					RDMA_MCM_MEMBER_SIZE_VER0);
	if (ret)
		return ret;
	/* no room: say where the walk would go on (0 if nowhere) */
	if (!arg->count)
		rdma_mcm_list(uctx->ctx, start, info, 0, &next);
	while (written < arg->count) {
		if (fatal_signal_pending(current))
			return -EINTR;
		n = rdma_mcm_list(uctx->ctx, start, info,
				  min_t(u32, ARRAY_SIZE(info),
					arg->count - written), &next);
		for (i = 0; i < n; i++, written++) {
			rdma_mcm_fill_member(file, &info[i], &m);
			p = out + (size_t)written * arg->entry_size;
			if (copy_to_user(p, &m, copy) ||
			    clear_user(p + copy, arg->entry_size - copy))
				return -EFAULT;
		}
		if (!next)
			break;
		start = next;
		cond_resched();
	}
	if (written < arg->count)
		next = 0;
	arg->count = written;
	arg->next = next;
	return 0;
}

/* ------------------------------------------------------------ batches */

/**
 * struct rdma_mcm_batch_op - one kind of batch entry
 * @size: the kernel's size of an entry
 * @ver0: the size of the entry's first version
 * @out_off: offset of the entry's outputs
 * @out_len: their length: only they are written back
 * @run: do one entry (@err: copy_struct_from_user()'s error, then only
 *	record it); sets the entry's outputs
 * @undo: revert an entry whose outputs could not be written, or NULL
 */
struct rdma_mcm_batch_op {
	size_t size;
	size_t ver0;
	size_t out_off;
	size_t out_len;
	void (*run)(struct rdma_mcm_ufile *file, struct rdma_mcm_uctx *uctx,
		    void *entry, int err);
	void (*undo)(struct rdma_mcm_ufile *file, struct rdma_mcm_uctx *uctx,
		     void *entry);
};

static void rdma_mcm_batch_join_one(struct rdma_mcm_ufile *file,
				    struct rdma_mcm_uctx *uctx, void *entry,
				    int err)
{
	struct rdma_mcm_join_entry *e = entry;
	const struct rdma_mcm_join_args j = {
		.cookie = e->cookie, .join_flags = e->join_flags,
		.addr_len = e->addr_len, .addr = e->addr,
		.sources = e->sources, .nr_sources = e->nr_sources,
		.source_size = e->source_size,
	};

	if (!err)
		err = rdma_mcm_do_join(file, uctx, &j, &e->handle);
	e->result = err;
	if (err)
		e->handle = 0;
}

static void rdma_mcm_batch_join_undo(struct rdma_mcm_ufile *file,
				     struct rdma_mcm_uctx *uctx, void *entry)
{
	struct rdma_mcm_join_entry *e = entry;

	if (!e->result)
		rdma_mcm_undo_join(file, uctx, e->handle);
}

static void rdma_mcm_batch_leave_one(struct rdma_mcm_ufile *file,
				     struct rdma_mcm_uctx *uctx, void *entry,
				     int err)
{
	struct rdma_mcm_leave_entry *e = entry;

	e->events_reported = 0;
	if (!err && e->reserved)
		err = -EINVAL;
	if (!err)
		err = rdma_mcm_do_leave(file, uctx, e->flags, e->handle, e->addr,
					e->addr_len, &e->events_reported);
	e->result = err;
}

static const struct rdma_mcm_batch_op rdma_mcm_batch_join_op = {
	.size = sizeof(struct rdma_mcm_join_entry),
	.ver0 = RDMA_MCM_JOIN_ENTRY_SIZE_VER0,
	.out_off = offsetof(struct rdma_mcm_join_entry, handle),
	.out_len = sizeof(u32) + sizeof(s32),	/* handle, result */
	.run = rdma_mcm_batch_join_one,
	.undo = rdma_mcm_batch_join_undo,
};

static const struct rdma_mcm_batch_op rdma_mcm_batch_leave_op = {
	.size = sizeof(struct rdma_mcm_leave_entry),
	.ver0 = RDMA_MCM_LEAVE_ENTRY_SIZE_VER0,
	.out_off = offsetof(struct rdma_mcm_leave_entry, result),
	.out_len = sizeof(s32) + sizeof(u32),	/* result, events_reported */
	.run = rdma_mcm_batch_leave_one,
};

/*
 * Run @op on each entry of a batch, writing back only each entry's
 * outputs. A fatal signal stops it (done says how far it got).
 */
static int rdma_mcm_batch(struct rdma_mcm_ufile *file,
			  struct rdma_mcm_batch *arg,
			  const struct rdma_mcm_batch_op *op)
{
	u8 __user *entries = u64_to_user_ptr(arg->entries);
	union {
		struct rdma_mcm_join_entry join;
		struct rdma_mcm_leave_entry leave;
	} e;
	struct rdma_mcm_uctx *uctx;
	int ret;

	arg->done = 0;
	uctx = rdma_mcm_get_uctx(file, arg->ctx_id);
	if (!uctx)
		return -ENOENT;
	if (arg->count > RDMA_MCM_MAX_BATCH || WARN_ON_ONCE(op->size > sizeof(e)))
		return -EINVAL;
	ret = rdma_mcm_check_entry_size(arg->entry_size, op->ver0);
	if (ret)
		return ret;
	for (; arg->done < arg->count; arg->done++) {
		u8 __user *p = entries + (size_t)arg->done * arg->entry_size;

		if (fatal_signal_pending(current))
			return -EINTR;
		memset(&e, 0, sizeof(e));
		ret = copy_struct_from_user(&e, op->size, p, arg->entry_size);
		if (ret == -EFAULT)
			return ret;
		op->run(file, uctx, &e, ret);
		if (copy_to_user(p + op->out_off, (u8 *)&e + op->out_off,
				 op->out_len)) {
			/*
			 * A join the caller cannot learn of is left again and
			 * not counted in done; a leave cannot be undone, so it
			 * counts: done entries are the ones that took effect.
			 */
			if (op->undo)
				op->undo(file, uctx, &e);
			else
				arg->done++;
			return -EFAULT;
		}
		cond_resched();
	}
	return 0;
}

static int rdma_mcm_cmd_batch_join(struct rdma_mcm_ufile *file,
				   struct rdma_mcm_batch *arg)
{
	return rdma_mcm_batch(file, arg, &rdma_mcm_batch_join_op);
}

static int rdma_mcm_cmd_batch_leave(struct rdma_mcm_ufile *file,
				    struct rdma_mcm_batch *arg)
{
	return rdma_mcm_batch(file, arg, &rdma_mcm_batch_leave_op);
}

/* ------------------------------------------------------------ the rest */

static int rdma_mcm_cmd_version(struct rdma_mcm_ufile *file,
				struct rdma_mcm_version *arg)
{
	arg->abi_version = RDMA_MCM_ABI_VERSION;
	arg->features = RDMA_MCM_FEATURE_SOURCES |
			(IS_ENABLED(CONFIG_IPV6) ? RDMA_MCM_FEATURE_IPV6_ROCE : 0);
	return 0;
}

static int rdma_mcm_cmd_set_events(struct rdma_mcm_ufile *file,
				   struct rdma_mcm_set_events *arg)
{
	if (arg->reserved)
		return -EINVAL;
	return rdma_mcm_set_events(file, &arg->event_mask, &arg->event_size);
}

/* ------------------------------------------------------------ dispatch */

union rdma_mcm_ioctl_arg {
	struct rdma_mcm_version version;
	struct rdma_mcm_create_ctx create_ctx;
	struct rdma_mcm_destroy_ctx destroy_ctx;
	struct rdma_mcm_join join;
	struct rdma_mcm_leave leave;
	struct rdma_mcm_query query;
	struct rdma_mcm_list list;
	struct rdma_mcm_batch batch;
	struct rdma_mcm_set_events set_events;
	struct rdma_mcm_query_ctx query_ctx;
};

/**
 * struct rdma_mcm_ioctl_desc - one command
 * @cmd: its number (the size bits are not compared)
 * @size: the kernel's size of its argument
 * @ver0: the size of the argument's first version: the least accepted
 * @partial: the outputs are copied back even when the command fails, so a
 *	batch tells how far it got
 * @out_u32: 1 + the offset of the command's only output, a u32 within
 *	@ver0, written back alone (the hot commands, JOIN and LEAVE: one
 *	put_user() instead of a copy of the whole argument); 0: the whole
 *	argument is written back
 * @handler: runs the command
 * @undo: reverts a command whose result could not be copied back, or NULL
 */
struct rdma_mcm_ioctl_desc {
	unsigned int cmd;
	size_t size;
	size_t ver0;
	bool partial;
	size_t out_u32;
	int (*handler)(struct rdma_mcm_ufile *file, void *arg);
	void (*undo)(struct rdma_mcm_ufile *file, void *arg);
};

#define RDMA_MCM_IOCTL_UNDO(c, s, v0, h, p, u) \
	{ .cmd = (c), .size = sizeof(s), .ver0 = (v0), .partial = (p), \
	  .handler = (int (*)(struct rdma_mcm_ufile *, void *))(h), \
	  .undo = (void (*)(struct rdma_mcm_ufile *, void *))(u) }
#define RDMA_MCM_IOCTL(c, s, v0, h, p) \
	RDMA_MCM_IOCTL_UNDO(c, s, v0, h, p, NULL)
#define RDMA_MCM_IOCTL_U32(c, s, v0, h, f, u) \
	{ .cmd = (c), .size = sizeof(s), .ver0 = (v0), \
	  .out_u32 = 1 + offsetof(s, f), \
	  .handler = (int (*)(struct rdma_mcm_ufile *, void *))(h), \
	  .undo = (void (*)(struct rdma_mcm_ufile *, void *))(u) }

/* A command number without its size bits: old and new binaries match. */
#define RDMA_MCM_IOC_NOSIZE(cmd)	((cmd) & ~(_IOC_SIZEMASK << _IOC_SIZESHIFT))

/* Indexed by the command's number (_IOC_NR) */
static const struct rdma_mcm_ioctl_desc rdma_mcm_ioctls[] = {
	[_IOC_NR(RDMA_MCM_IOC_VERSION)] =
	RDMA_MCM_IOCTL(RDMA_MCM_IOC_VERSION, struct rdma_mcm_version,
		       RDMA_MCM_VERSION_SIZE_VER0, rdma_mcm_cmd_version, false),
	[_IOC_NR(RDMA_MCM_IOC_CREATE_CTX)] =
	RDMA_MCM_IOCTL_UNDO(RDMA_MCM_IOC_CREATE_CTX, struct rdma_mcm_create_ctx,
			    RDMA_MCM_CREATE_CTX_SIZE_VER0,
			    rdma_mcm_cmd_create_ctx, false,
			    rdma_mcm_undo_create_ctx),
	[_IOC_NR(RDMA_MCM_IOC_DESTROY_CTX)] =
	RDMA_MCM_IOCTL(RDMA_MCM_IOC_DESTROY_CTX, struct rdma_mcm_destroy_ctx,
		       RDMA_MCM_DESTROY_CTX_SIZE_VER0, rdma_mcm_cmd_destroy_ctx,
		       false),
	[_IOC_NR(RDMA_MCM_IOC_JOIN)] =
	RDMA_MCM_IOCTL_U32(RDMA_MCM_IOC_JOIN, struct rdma_mcm_join,
			   RDMA_MCM_JOIN_SIZE_VER0, rdma_mcm_cmd_join, handle,
			   rdma_mcm_undo_cmd_join),
	[_IOC_NR(RDMA_MCM_IOC_LEAVE)] =
	RDMA_MCM_IOCTL_U32(RDMA_MCM_IOC_LEAVE, struct rdma_mcm_leave,
			   RDMA_MCM_LEAVE_SIZE_VER0, rdma_mcm_cmd_leave,
			   events_reported, NULL),
	[_IOC_NR(RDMA_MCM_IOC_QUERY)] =
	RDMA_MCM_IOCTL(RDMA_MCM_IOC_QUERY, struct rdma_mcm_query,
		       RDMA_MCM_QUERY_SIZE_VER0, rdma_mcm_cmd_query, false),
	[_IOC_NR(RDMA_MCM_IOC_LIST)] =
	RDMA_MCM_IOCTL(RDMA_MCM_IOC_LIST, struct rdma_mcm_list,
		       RDMA_MCM_LIST_SIZE_VER0, rdma_mcm_cmd_list, false),
	[_IOC_NR(RDMA_MCM_IOC_BATCH_JOIN)] =
	RDMA_MCM_IOCTL(RDMA_MCM_IOC_BATCH_JOIN, struct rdma_mcm_batch,
		       RDMA_MCM_BATCH_SIZE_VER0, rdma_mcm_cmd_batch_join, true),
	[_IOC_NR(RDMA_MCM_IOC_BATCH_LEAVE)] =
	RDMA_MCM_IOCTL(RDMA_MCM_IOC_BATCH_LEAVE, struct rdma_mcm_batch,
		       RDMA_MCM_BATCH_SIZE_VER0, rdma_mcm_cmd_batch_leave, true),
	[_IOC_NR(RDMA_MCM_IOC_SET_EVENTS)] =
	RDMA_MCM_IOCTL(RDMA_MCM_IOC_SET_EVENTS, struct rdma_mcm_set_events,
		       RDMA_MCM_SET_EVENTS_SIZE_VER0, rdma_mcm_cmd_set_events,
		       false),
	[_IOC_NR(RDMA_MCM_IOC_QUERY_CTX)] =
	RDMA_MCM_IOCTL(RDMA_MCM_IOC_QUERY_CTX, struct rdma_mcm_query_ctx,
		       RDMA_MCM_QUERY_CTX_SIZE_VER0, rdma_mcm_cmd_query_ctx,
		       false),
};

/* Write a command's outputs back; nonzero when they could not be. */
static int rdma_mcm_copy_out(const struct rdma_mcm_ioctl_desc *desc,
			     void __user *argp,
			     const union rdma_mcm_ioctl_arg *arg, size_t usize)
{
	size_t off = desc->out_u32 - 1;

	if (desc->out_u32)
		return put_user(*(const u32 *)((const u8 *)arg + off),
				(u32 __user *)((u8 __user *)argp + off));
	return copy_to_user(argp, arg, min(usize, desc->size)) ? -EFAULT : 0;
}

/**
 * rdma_mcm_cdev_dispatch() - run one ioctl command
 * @file: the file
 * @cmd: the command number, with the caller's argument size
 * @argp: the caller's argument
 *
 * Return: 0 or a negative errno of Documentation/uapi.rst.
 */
long rdma_mcm_cdev_dispatch(struct rdma_mcm_ufile *file, unsigned int cmd,
			    void __user *argp)
{
	const struct rdma_mcm_ioctl_desc *desc;
	union rdma_mcm_ioctl_arg arg;
	size_t usize = _IOC_SIZE(cmd);
	unsigned int nr = _IOC_NR(cmd);
	int ret;

	/* Same type, number and direction; the size may differ. */
	if (_IOC_TYPE(cmd) != RDMA_MCM_IOCTL_MAGIC ||
	    nr >= ARRAY_SIZE(rdma_mcm_ioctls))
		return -ENOTTY;
	desc = &rdma_mcm_ioctls[array_index_nospec(nr,
						   ARRAY_SIZE(rdma_mcm_ioctls))];
	if (RDMA_MCM_IOC_NOSIZE(cmd) != RDMA_MCM_IOC_NOSIZE(desc->cmd))
		return -ENOTTY;
	if (usize < desc->ver0)
		return -EINVAL;

	if (!(_IOC_DIR(cmd) & _IOC_WRITE)) {
		memset(&arg, 0, desc->size);
	} else if (usize == desc->size && nr == _IOC_NR(RDMA_MCM_IOC_JOIN)) {
		/* the hot commands at their own size: a copy of known length */
		if (copy_from_user(&arg.join, argp, sizeof(arg.join)))
			return -EFAULT;
	} else if (usize == desc->size && nr == _IOC_NR(RDMA_MCM_IOC_LEAVE)) {
		/* the address only for a leave by address */
		if (copy_from_user(&arg.leave, argp,
				   offsetof(struct rdma_mcm_leave, addr)))
			return -EFAULT;
		if ((arg.leave.flags & RDMA_MCM_LEAVE_BY_ADDR) &&
		    copy_from_user(arg.leave.addr,
				   (u8 __user *)argp +
				   offsetof(struct rdma_mcm_leave, addr),
				   sizeof(arg.leave.addr)))
			return -EFAULT;
	} else {
		/* zero-extends a shorter argument; EFAULT, or E2BIG */
		ret = copy_struct_from_user(&arg, desc->size, argp, usize);
		if (ret)
			return ret;
	}
	/*
	 * Where the result goes must be writable before anything is done
	 * (its own bytes are written back, a no-op): a batch's joins, or a
	 * context, are not made for a caller who cannot learn of them. Only
	 * another thread unmapping the argument during the call can still
	 * make the final copy fail; undo() covers what can be undone.
	 */
	if ((_IOC_DIR(cmd) & _IOC_READ) &&
	    rdma_mcm_copy_out(desc, argp, &arg, usize))
		return -EFAULT;
	/*
	 * The result is written back under the file's mutex, so that what
	 * the caller cannot learn (a new context id, a handle) is undone
	 * before anyone else can act on it: EFAULT means "nothing made".
	 */
	if (mutex_lock_killable(&file->mutex))
		return -EINTR;
	ret = desc->handler(file, &arg);
	if ((_IOC_DIR(cmd) & _IOC_READ) && (!ret || desc->partial) &&
	    rdma_mcm_copy_out(desc, argp, &arg, usize)) {
		if (!ret && desc->undo)
			desc->undo(file, &arg);
		ret = -EFAULT;
	}
	mutex_unlock(&file->mutex);
	return ret;
}

/**
 * rdma_mcm_abi_layout_check() - pin the ABI's layouts at build time
 *
 * The ABI is the same for 32- and 64-bit processes, and each struct's
 * first version is what RDMA_MCM_*_SIZE_VER0 says.
 */
void rdma_mcm_abi_layout_check(void)
{
	BUILD_BUG_ON(sizeof(struct rdma_mcm_version) != 8);
	BUILD_BUG_ON(sizeof(struct rdma_mcm_create_ctx) != 144);
	BUILD_BUG_ON(sizeof(struct rdma_mcm_destroy_ctx) != 8);
	BUILD_BUG_ON(sizeof(struct rdma_mcm_join) != 168);
	BUILD_BUG_ON(offsetof(struct rdma_mcm_join, sources) !=
		     RDMA_MCM_JOIN_SIZE_VER0);
	BUILD_BUG_ON(sizeof(struct rdma_mcm_source) !=
		     RDMA_MCM_SOURCE_SIZE_VER0);
	BUILD_BUG_ON(RDMA_MCM_SOURCE_SIZE_VER0 != 136);
	BUILD_BUG_ON(RDMA_MCM_MAX_SOURCES != 64);
	BUILD_BUG_ON(sizeof(struct rdma_mcm_leave) != 152);
	BUILD_BUG_ON(sizeof(struct rdma_mcm_member) != 208);
	BUILD_BUG_ON(offsetof(struct rdma_mcm_member, nr_sources) != 200);
	BUILD_BUG_ON(sizeof(struct rdma_mcm_query) != 216);
	BUILD_BUG_ON(offsetof(struct rdma_mcm_query, member) != 8);
	BUILD_BUG_ON(sizeof(struct rdma_mcm_list) != 32);
	BUILD_BUG_ON(sizeof(struct rdma_mcm_join_entry) != 168);
	BUILD_BUG_ON(offsetof(struct rdma_mcm_join_entry, sources) !=
		     RDMA_MCM_JOIN_ENTRY_SIZE_VER0);
	BUILD_BUG_ON(sizeof(struct rdma_mcm_leave_entry) != 152);
	BUILD_BUG_ON(sizeof(struct rdma_mcm_batch) != 24);
	BUILD_BUG_ON(sizeof(struct rdma_mcm_event) != 72);
	BUILD_BUG_ON(sizeof(struct rdma_mcm_set_events) != 16);
	BUILD_BUG_ON(sizeof(struct rdma_mcm_query_ctx) != 224);
	BUILD_BUG_ON(RDMA_MCM_QUERY_CTX_SIZE_VER0 != 224);
	BUILD_BUG_ON(offsetof(struct rdma_mcm_query_ctx, node_guid) != 144);
	BUILD_BUG_ON(RDMA_MCM_EVENT_SIZE_VER0 != 72);
	BUILD_BUG_ON(RDMA_MCM_MEMBER_SIZE_VER0 != 184);
	BUILD_BUG_ON(RDMA_MCM_QUERY_SIZE_VER0 != 192);
	BUILD_BUG_ON(offsetof(struct rdma_mcm_member, rejoins) !=
		     RDMA_MCM_MEMBER_SIZE_VER0);
	BUILD_BUG_ON(RDMA_MCM_JOIN_ENTRY_SIZE_VER0 != 152);
	BUILD_BUG_ON(RDMA_MCM_LEAVE_ENTRY_SIZE_VER0 != 152);
	/* JOIN's and LEAVE's only outputs, within their first version */
	BUILD_BUG_ON(offsetof(struct rdma_mcm_join, handle) + 4 >
		     RDMA_MCM_JOIN_SIZE_VER0);
	BUILD_BUG_ON(offsetof(struct rdma_mcm_leave, events_reported) + 4 >
		     RDMA_MCM_LEAVE_SIZE_VER0);
	/* a batch entry's outputs are one run of bytes */
	BUILD_BUG_ON(offsetof(struct rdma_mcm_join_entry, result) !=
		     offsetof(struct rdma_mcm_join_entry, handle) + 4);
	BUILD_BUG_ON(offsetof(struct rdma_mcm_leave_entry, events_reported) !=
		     offsetof(struct rdma_mcm_leave_entry, result) + 4);
}
