// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * mcm_stress: the commands, and what each must do.
 *
 * On its private file a thread knows exactly which contexts and
 * memberships are live, so it checks:
 *   - QUERY of a left handle is EADDRNOTAVAIL, of a live one succeeds;
 *     LEAVE and DESTROY_CTX of what it holds succeed, of anything else
 *     fail;
 *   - the file never holds more than max_memberships memberships, the
 *     user never more than max_user_memberships (counting only what the
 *     private files certainly hold, across every process of the run), and
 *     LIST returns no handle twice;
 *   - a member in state error has a status uapi.rst lists, others 0;
 *   - once the file read a context's DEVICE_REMOVED, JOIN on it fails
 *     (ENODEV, or a limit that comes first), while LEAVE, QUERY (state
 *     ERROR), LIST (every member in ERROR) and DESTROY_CTX work;
 *   - batch and list arrays of any entry size from the first version's
 *     to RDMA_MCM_MAX_ENTRY_SIZE: a batch writes only the outputs of its
 *     entries below done, a list only its count of entries, each with
 *     zeros after the kernel's size;
 *   - a well-formed call fails only with the errnos its situation allows
 *     (never EINVAL: every argument is valid; ENOSPC only when the
 *     per-user limits are below what the run can hold). Source addresses
 *     carry random ports, which must make no difference.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "mcm_stress.h"

#define FILL		0x5a	/* what the arrays hold before a call */

int file_open(struct file *f)
{
	f->fd = open(DEV, O_RDWR | O_NONBLOCK | O_CLOEXEC);
	f->nctx = 0;
	f->nlive = 0;
	f->mask = RDMA_MCM_EVENTS_DEFAULT;
	f->evsize = RDMA_MCM_EVENT_SIZE_VER0;
	return f->fd < 0 ? -1 : 0;
}

static void group_addr(unsigned int g, uint8_t *buf, uint32_t *len)
{
	struct sockaddr_in sin = { .sin_family = AF_INET };

	sin.sin_addr.s_addr = htonl(0xef030000 | g);	/* 239.3.x.y */
	memcpy(buf, &sin, sizeof(sin));
	*len = sizeof(sin);
}

struct live *live_find(struct file *f, uint64_t cookie)
{
	int i;

	for (i = 0; i < f->nlive; i++)
		if (f->live[i].cookie == cookie)
			return &f->live[i];
	return NULL;
}

struct ctxinfo *ctx_find(struct file *f, uint32_t id)
{
	int i;

	for (i = 0; i < f->nctx; i++)
		if (f->ctx[i].id == id)
			return &f->ctx[i];
	return NULL;
}

static void live_drop(struct file *f, struct live *l)
{
	*l = f->live[--f->nlive];
}

static void live_add(struct thread *t, struct file *f, uint64_t cookie,
		     uint32_t ctx, uint32_t handle, uint32_t group)
{
	if (f->nlive >= MAX_LIVE) {
		/* max_memberships <= MAX_LIVE (checked in main) */
		violated(t, "more than %d memberships joined on one file",
			 MAX_LIVE);
		return;
	}
	f->live[f->nlive++] = (struct live){
		.cookie = cookie, .ctx = ctx, .handle = handle,
		.group = group, .err_epoch = f->err_epoch,
	};
	if (max_memberships && (unsigned int)f->nlive > max_memberships)
		violated(t, "a file holds %d memberships, max_memberships %u",
			 f->nlive, max_memberships);
	held_add(t, 1);
}

static int live_in_ctx(struct file *f, uint32_t ctx)
{
	int i, n = 0;

	for (i = 0; i < f->nlive; i++)
		n += f->live[i].ctx == ctx;
	return n;
}

/* Forget what a destroyed context held (the kernel purged it all). */
static void ctx_forget(struct file *f, int i)
{
	int j;

	for (j = f->nlive - 1; j >= 0; j--)
		if (f->live[j].ctx == f->ctx[i].id)
			live_drop(f, &f->live[j]);
	f->ctx[i] = f->ctx[--f->nctx];
}

/* A port for a source address: it must make no difference. */
static uint16_t any_port(struct thread *t)
{
	static const uint16_t ports[] = { 0, 1, 80, 1023, 4791, 65535 };

	return pick(t, 2) ? ports[pick(t, 6)] : (uint16_t)rnd(t);
}

void op_create(struct thread *t, struct file *f)
{
	struct rdma_mcm_create_ctx a = { .src_len = sizeof(src[0]) };
	unsigned int s = pick(t, nsrc);
	struct sockaddr_in sin = src[s];
	int ret;

	if (f->nctx >= MAX_CTX)
		return;
	sin.sin_port = htons(any_port(t));
	memcpy(a.src, &sin, sizeof(sin));
	if (!pick(t, 3))
		a.flags = RDMA_MCM_CTX_HEAL;
	ret = xioctl(f->fd, RDMA_MCM_IOC_CREATE_CTX, &a);
	count(t, C_CREATE, ret);
	if (ret)
		return;
	t->st.heal_ctx += !!a.flags;
	lock_shared(f);
	if (f->nctx < MAX_CTX)
		f->ctx[f->nctx++] = (struct ctxinfo){
			.id = a.ctx_id, .src = s, .dr_epoch = f->dr_epoch,
			.heal = !!a.flags,
		};
	unlock_shared(f);
}

static int ctx_pick(struct thread *t, struct file *f, uint32_t *ctx)
{
	int i;

	lock_shared(f);
	i = f->nctx ? (int)pick(t, f->nctx) : -1;
	if (i >= 0)
		*ctx = f->ctx[i].id;
	unlock_shared(f);
	return i;
}

void op_destroy(struct thread *t, struct file *f)
{
	struct rdma_mcm_destroy_ctx a = { 0 };
	int i, ret, held = 0;

	i = ctx_pick(t, f, &a.ctx_id);
	if (i < 0)
		return;
	if (f->own) {
		held = live_in_ctx(f, a.ctx_id);
		held_add(t, -held);
	}
	ret = xioctl(f->fd, RDMA_MCM_IOC_DESTROY_CTX, &a);
	count(t, C_DESTROY, ret);
	if (!f->own) {
		pthread_mutex_lock(&f->lock);
		for (i = 0; i < f->nctx; i++)
			if (f->ctx[i].id == a.ctx_id)
				break;
		if (i < f->nctx)
			f->ctx[i] = f->ctx[--f->nctx];
		pthread_mutex_unlock(&f->lock);
	} else if (!ret) {
		ctx_forget(f, i);
	} else {
		held_add(t, held);
		violated(t, "DESTROY_CTX %u of a live context: %s", a.ctx_id,
			 strerrorname_np(ret));
	}
}

/*
 * A JOIN (or a batch's entry) on a private file's context returned @ret:
 * ENODEV says the context's device is gone or going (its
 * DEVICE_REMOVED must come); after DEVICE_REMOVED was read, nothing but
 * ENODEV, or a limit checked before the device, may come.
 */
static void joined_on(struct thread *t, struct ctxinfo *c, int ret,
		      const char *what)
{
	if (ret == ENODEV)
		c->enodev = true;
	if (!c->removed)	/* never set for a healing context */
		return;
	if (!ret)
		violated(t, "%s on context %u worked after its DEVICE_REMOVED",
			 what, c->id);
	else if (ret != ENODEV && ret != ENOBUFS && ret != ENOSPC &&
		 ret != ENOMEM)
		violated(t, "%s on context %u after its DEVICE_REMOVED failed with %s, not ENODEV",
			 what, c->id, strerrorname_np(ret));
}

void op_join(struct thread *t, struct file *f)
{
	struct rdma_mcm_join a = { 0 };
	unsigned int g = pick(t, ngroups);
	struct ctxinfo *c;
	int ret;

	if (ctx_pick(t, f, &a.ctx_id) < 0)
		return;
	a.cookie = ++t->next_cookie;
	a.join_flags = pick(t, 3) ? RDMA_MCM_JOIN_SENDONLY_FULLMEMBER :
				    RDMA_MCM_JOIN_FULLMEMBER;
	group_addr(g, a.addr, &a.addr_len);
	ret = xioctl(f->fd, RDMA_MCM_IOC_JOIN, &a);
	count(t, C_JOIN, ret);
	if (!f->own)
		return;
	c = ctx_find(f, a.ctx_id);
	joined_on(t, c, ret, "JOIN");
	if (!ret)
		live_add(t, f, a.cookie, a.ctx_id, a.handle, g);
}

static struct live *live_find_handle(struct file *f, uint32_t ctx,
				     uint32_t handle)
{
	int i;

	for (i = 0; i < f->nlive; i++)
		if (f->live[i].ctx == ctx && f->live[i].handle == handle)
			return &f->live[i];
	return NULL;
}

static struct live *live_find_group(struct file *f, uint32_t ctx,
				    uint32_t group)
{
	int i;

	for (i = 0; i < f->nlive; i++)
		if (f->live[i].ctx == ctx && f->live[i].group == group)
			return &f->live[i];
	return NULL;
}

/*
 * A membership to leave or query: a live one mostly, a random handle or
 * group now and then (handle 0 is never issued). Only a private file's
 * live memberships are known; on the shared file every pick is random.
 */
static int member_pick(struct thread *t, struct file *f, struct live *out)
{
	if (!f->own || !f->nlive || !pick(t, 8)) {
		if (ctx_pick(t, f, &out->ctx) < 0)
			return -1;
		out->handle = pick(t, 4) ? (uint32_t)pick(t, 4096) : 0;
		out->group = pick(t, ngroups);
		out->cookie = 0;
		return 0;
	}
	*out = f->live[pick(t, f->nlive)];
	return 0;
}

void op_leave(struct thread *t, struct file *f, int by_addr)
{
	struct rdma_mcm_leave a = { 0 };
	enum cmd c = by_addr ? C_LEAVE_ADDR : C_LEAVE;
	struct live m, *l = NULL;
	int ret;

	if (member_pick(t, f, &m) < 0)
		return;
	a.ctx_id = m.ctx;
	a.handle = m.handle;
	if (by_addr) {
		a.flags = RDMA_MCM_LEAVE_BY_ADDR;
		a.handle = 0;
		group_addr(m.group, a.addr, &a.addr_len);
	}
	if (f->own) {
		l = by_addr ? live_find_group(f, m.ctx, m.group) :
			      live_find_handle(f, m.ctx, m.handle);
		if (l)
			held_add(t, -1);
	}
	ret = xioctl(f->fd, RDMA_MCM_IOC_LEAVE, &a);
	count(t, c, ret);
	if (!f->own)
		return;
	if (l && ret) {
		held_add(t, 1);
		violated(t, "%s of a held membership (handle %u): %s",
			 cmd_name[c], l->handle, strerrorname_np(ret));
	} else if (!l && !ret) {
		violated(t, "%s of handle %u group %u succeeded, not held",
			 cmd_name[c], m.handle, m.group);
	} else if (l) {
		live_drop(f, l);
	}
}

/* A member QUERY or LIST reported, of context @c of a private file. */
static void reported(struct thread *t, struct ctxinfo *c,
		     const struct rdma_mcm_member *m, const char *what)
{
	bool bad;

	if (m->state == RDMA_MCM_STATE_ERROR)
		bad = !status_documented(m->status);
	else if (m->state == RDMA_MCM_STATE_WAITING)
		bad = !status_waiting(m->status) || (c && !c->heal);
	else
		bad = m->status || m->state > RDMA_MCM_STATE_WAITING;
	if (bad)
		violated(t, "%s of handle %u: state %u status %d%s", what,
			 m->handle, m->state, m->status,
			 c && !c->heal ? " (a context that does not heal)" : "");
	if (c && c->removed && m->state != RDMA_MCM_STATE_ERROR)
		violated(t, "%s of handle %u, context %u removed: state %u",
			 what, m->handle, c->id, m->state);
}

void op_query(struct thread *t, struct file *f)
{
	struct rdma_mcm_query a = { 0 };
	struct live m, *l;
	int ret;

	if (member_pick(t, f, &m) < 0)
		return;
	a.ctx_id = m.ctx;
	a.handle = m.handle;
	ret = xioctl(f->fd, RDMA_MCM_IOC_QUERY, &a);
	count(t, C_QUERY, ret);
	if (!f->own) {
		if (!ret)
			reported(t, NULL, &a.member, "QUERY");
		return;
	}
	l = live_find_handle(f, m.ctx, m.handle);
	if (l && ret)
		violated(t, "QUERY of held handle %u: %s", m.handle,
			 strerrorname_np(ret));
	else if (!l && !ret)
		violated(t, "QUERY of handle %u succeeded, not held", m.handle);
	else if (l && a.member.cookie != l->cookie)
		violated(t, "QUERY of handle %u: cookie %llu, joined with %llu",
			 m.handle, (unsigned long long)a.member.cookie,
			  (unsigned long long)l->cookie);
	else if (l)
		reported(t, ctx_find(f, m.ctx), &a.member, "QUERY");
}

/* An entry size from the first version's up to the largest. */
static uint32_t entry_size(struct thread *t, uint32_t ver0)
{
	switch (pick(t, 8)) {
	case 0:
		return RDMA_MCM_MAX_ENTRY_SIZE;
	case 1:
		return ver0 + 1 + pick(t, RDMA_MCM_MAX_ENTRY_SIZE - ver0);
	case 2:
		return ver0 + 8 * pick(t, 8);
	default:
		return ver0;
	}
}

/* LIST's entries beyond the kernel's struct are zeros. */
static void list_entry_tail(struct thread *t, const uint8_t *e,
			    uint32_t esize)
{
	uint32_t i;

	for (i = sizeof(struct rdma_mcm_member); i < esize; i++)
		if (e[i]) {
			violated(t, "LIST entry of %u bytes: byte %u is 0x%02x, not 0",
				 esize, i, e[i]);
			return;
		}
}

void op_list(struct thread *t, struct file *f)
{
	struct rdma_mcm_list a = { 0 };
	struct rdma_mcm_member m;
	unsigned int i, j, seen = 0, room;
	uint32_t handles[MAX_LIVE];
	struct ctxinfo *c;
	int ret;

	if (ctx_pick(t, f, &a.ctx_id) < 0)
		return;
	a.entries = (uintptr_t)t->arr;
	a.entry_size = entry_size(t, RDMA_MCM_MEMBER_SIZE_VER0);
	room = ARR_BYTES / a.entry_size;
	c = f->own ? ctx_find(f, a.ctx_id) : NULL;
	do {
		a.count = room < 64 ? room : 64;
		memset(t->arr, FILL, (size_t)a.count * a.entry_size);
		i = a.count;
		ret = xioctl(f->fd, RDMA_MCM_IOC_LIST, &a);
		count(t, C_LIST, ret);
		if (ret)
			return;
		if (a.count > i || (a.count < i && a.next))
			violated(t, "LIST of %u entries: count %u, next %u",
				 i, a.count, a.next);
		for (j = (size_t)a.count * a.entry_size;
		     j < (size_t)i * a.entry_size; j++)
			if (t->arr[j] != FILL) {
				violated(t, "LIST of %u entries wrote byte %u of its array",
					 a.count, j);
				break;
			}
		for (i = 0; i < a.count; i++) {
			uint8_t *e = t->arr + (size_t)i * a.entry_size;

			/* an entry may be shorter than this header's member */
			memset(&m, 0, sizeof(m));
			memcpy(&m, e, a.entry_size < sizeof(m) ?
				      a.entry_size : sizeof(m));
			list_entry_tail(t, e, a.entry_size);
			reported(t, c, &m, "LIST");
			if (!f->own)
				continue;
			for (j = 0; j < seen; j++)
				if (handles[j] == m.handle)
					violated(t, "LIST returned handle %u twice",
						 m.handle);
			if (seen < MAX_LIVE)
				handles[seen++] = m.handle;
			if (!live_find(f, m.cookie))
				violated(t, "LIST shows handle %u, not held",
					 m.handle);
		}
		a.start = a.next;
	} while (a.count && a.next);
}

/*
 * A batch's array after the call: only the outputs [@out, @out + 8) of
 * entries below @done may have changed.
 */
static void batch_written(struct thread *t, const char *what, uint32_t n,
			  uint32_t esize, uint32_t done, size_t out)
{
	size_t i, len = (size_t)n * esize;

	if (!memcmp(t->arr, t->copy, len))
		return;
	for (i = 0; i < len; i++) {
		if (t->arr[i] == t->copy[i] ||
		    (i / esize < done && i % esize >= out &&
		     i % esize < out + 8))
			continue;
		violated(t, "%s: byte %zu of entry %zu (of %u, done %u) changed",
			 what, i % esize, i / esize, esize, done);
		return;
	}
}

void op_batch_join(struct thread *t, struct file *f)
{
	struct rdma_mcm_batch a = { 0 };
	unsigned int i, n = 1 + pick(t, MAX_BATCH), g[MAX_BATCH];
	struct rdma_mcm_join_entry *e;
	struct ctxinfo *c;
	int ret;

	if (ctx_pick(t, f, &a.ctx_id) < 0)
		return;
	a.entry_size = entry_size(t, RDMA_MCM_JOIN_ENTRY_SIZE_VER0);
	memset(t->arr, 0, (size_t)n * a.entry_size);
	for (i = 0; i < n; i++) {
		e = (void *)(t->arr + (size_t)i * a.entry_size);
		g[i] = pick(t, ngroups);
		e->cookie = ++t->next_cookie;
		e->join_flags = RDMA_MCM_JOIN_SENDONLY_FULLMEMBER;
		group_addr(g[i], e->addr, &e->addr_len);
		e->handle = 0xdeadbeef;	/* outputs: the kernel ignores them */
		e->result = 1;
	}
	memcpy(t->copy, t->arr, (size_t)n * a.entry_size);
	a.entries = (uintptr_t)t->arr;
	a.count = n;
	a.done = 0xdddddddd;
	ret = xioctl(f->fd, RDMA_MCM_IOC_BATCH_JOIN, &a);
	count(t, C_BATCH_JOIN, ret);
	if (a.done > n || (!ret && a.done != n) ||
	    (ret == ENOENT && a.done))
		violated(t, "BATCH_JOIN of %u entries (%s): done %u", n,
			 ret ? strerrorname_np(ret) : "worked", a.done);
	if (a.done > n)
		return;
	batch_written(t, "BATCH_JOIN", n, a.entry_size, a.done,
		      offsetof(struct rdma_mcm_join_entry, handle));
	c = f->own ? ctx_find(f, a.ctx_id) : NULL;
	for (i = 0; i < a.done; i++) {
		e = (void *)(t->arr + (size_t)i * a.entry_size);
		count(t, C_BATCH_JOIN_ENTRY, -e->result);
		if (!c)
			continue;
		joined_on(t, c, -e->result, "BATCH_JOIN entry");
		if (!e->result)
			live_add(t, f, e->cookie, a.ctx_id, e->handle, g[i]);
	}
}

void op_batch_leave(struct thread *t, struct file *f)
{
	struct rdma_mcm_batch a = { 0 };
	unsigned int i, j, n = 1 + pick(t, MAX_BATCH);
	struct rdma_mcm_leave_entry *e;
	bool held[MAX_BATCH];
	struct live m, *l;
	int ret, nheld = 0;

	if (ctx_pick(t, f, &a.ctx_id) < 0)
		return;
	a.entry_size = entry_size(t, RDMA_MCM_LEAVE_ENTRY_SIZE_VER0);
	memset(t->arr, 0, (size_t)n * a.entry_size);
	for (i = 0; i < n; i++) {
		e = (void *)(t->arr + (size_t)i * a.entry_size);
		/* handles of other contexts are just "not a member" here */
		if (member_pick(t, f, &m) < 0)
			return;
		e->handle = m.handle;
		e->result = 1;		/* outputs: the kernel ignores them */
		e->events_reported = 0xdeadbeef;
		/* a handle given twice is left once: the first time */
		held[i] = f->own && live_find_handle(f, a.ctx_id, m.handle);
		for (j = 0; held[i] && j < i; j++)
			if (held[j] &&
			    ((struct rdma_mcm_leave_entry *)(t->arr +
				(size_t)j * a.entry_size))->handle == m.handle)
				held[i] = false;
		nheld += held[i];
	}
	memcpy(t->copy, t->arr, (size_t)n * a.entry_size);
	a.entries = (uintptr_t)t->arr;
	a.count = n;
	a.done = 0xdddddddd;
	held_add(t, -nheld);
	ret = xioctl(f->fd, RDMA_MCM_IOC_BATCH_LEAVE, &a);
	count(t, C_BATCH_LEAVE, ret);
	if (a.done > n || (!ret && a.done != n) ||
	    (ret == ENOENT && a.done))
		violated(t, "BATCH_LEAVE of %u entries (%s): done %u", n,
			 ret ? strerrorname_np(ret) : "worked", a.done);
	if (a.done > n)
		return;
	batch_written(t, "BATCH_LEAVE", n, a.entry_size, a.done,
		      offsetof(struct rdma_mcm_leave_entry, result));
	for (i = 0; i < n; i++) {
		e = (void *)(t->arr + (size_t)i * a.entry_size);
		if (i < a.done)
			count(t, C_BATCH_LEAVE_ENTRY, -e->result);
		if (!f->own)
			continue;
		l = live_find_handle(f, a.ctx_id, e->handle);
		if (i >= a.done) {
			if (held[i])
				held_add(t, 1);	/* not left */
			continue;
		}
		if (l && e->result) {
			held_add(t, held[i]);
			violated(t, "BATCH_LEAVE of held handle %u: %s",
				 e->handle, strerrorname_np(-e->result));
		} else if (!l && !e->result) {
			violated(t, "BATCH_LEAVE left handle %u, not held",
				 e->handle);
		} else if (l) {
			live_drop(f, l);
		}
	}
}

void op_close(struct thread *t, struct file *f)
{
	held_add(t, -f->nlive);
	count(t, C_CLOSE, close(f->fd) ? errno : 0);
	if (file_open(f))
		violated(t, "reopening %s: %s", DEV, strerror(errno));
	else
		negotiate(t, f, t->all_events);
}
