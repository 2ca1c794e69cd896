// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * mcm_stress: the files, and what this program knows of each: the
 * contexts it created (with their source, hence the family of their
 * groups) and, on a thread's private file, exactly the memberships it
 * holds; picking a context or a membership for the next command.
 * live_add() counts the membership in the run's held total too (the
 * callers take it out before a leave, a destroy, a close).
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stddef.h>

#include "mcm_stress.h"

int file_open(struct file *f)
{
	f->fd = open(DEV, O_RDWR | O_NONBLOCK | O_CLOEXEC);
	f->nctx = 0;
	f->nlive = 0;
	f->mask = RDMA_MCM_EVENTS_DEFAULT;
	f->evsize = RDMA_MCM_EVENT_SIZE_VER0;
	return f->fd < 0 ? -1 : 0;
}

static int ctx_family(const struct ctxinfo *c)
{
	return src[c->src].sa.sa_family;
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

void live_drop(struct file *f, struct live *l)
{
	*l = f->live[--f->nlive];
}

void live_add(struct thread *t, struct file *f, uint64_t cookie,
	      uint32_t ctx, uint32_t handle, uint32_t group,
	      int family, uint32_t nr_sources)
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
		.family = family, .nr_sources = nr_sources,
	};
	if (max_memberships && (unsigned int)f->nlive > max_memberships)
		violated(t, "a file holds %d memberships, max_memberships %u",
			 f->nlive, max_memberships);
	held_add(t, 1);
}

int live_in_ctx(struct file *f, uint32_t ctx)
{
	int i, n = 0;

	for (i = 0; i < f->nlive; i++)
		n += f->live[i].ctx == ctx;
	return n;
}

/* Forget what a destroyed context held (the kernel purged it all). */
void ctx_forget(struct file *f, int i)
{
	int j;

	for (j = f->nlive - 1; j >= 0; j--)
		if (f->live[j].ctx == f->ctx[i].id)
			live_drop(f, &f->live[j]);
	f->ctx[i] = f->ctx[--f->nctx];
}

int ctx_pick_family(struct thread *t, struct file *f, uint32_t *ctx,
		    int *family)
{
	int i;

	lock_shared(f);
	i = f->nctx ? (int)pick(t, f->nctx) : -1;
	if (i >= 0) {
		*ctx = f->ctx[i].id;
		*family = ctx_family(&f->ctx[i]);
	}
	unlock_shared(f);
	return i;
}

int ctx_pick(struct thread *t, struct file *f, uint32_t *ctx)
{
	int family;

	return ctx_pick_family(t, f, ctx, &family);
}

struct live *live_find_handle(struct file *f, uint32_t ctx,
			      uint32_t handle)
{
	int i;

	for (i = 0; i < f->nlive; i++)
		if (f->live[i].ctx == ctx && f->live[i].handle == handle)
			return &f->live[i];
	return NULL;
}

struct live *live_find_group(struct file *f, uint32_t ctx,
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
int member_pick(struct thread *t, struct file *f, struct live *out)
{
	int family;

	if (!f->own || !f->nlive || !pick(t, 8)) {
		if (ctx_pick_family(t, f, &out->ctx, &family) < 0)
			return -1;
		out->handle = pick(t, 4) ? (uint32_t)pick(t, 4096) : 0;
		out->group = pick(t, ngroups);
		out->family = family;
		out->cookie = 0;
		return 0;
	}
	*out = f->live[pick(t, f->nlive)];
	return 0;
}
