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
 *     carry random ports, which must make no difference;
 *   - some full joins (JOIN, and batch entries of 168 bytes and more) are
 *     source-specific: 1 to 3 distinct unicast sources of the group's
 *     family (entries of 136 or 200 bytes), within igmp_max_msf. QUERY and
 *     LIST report them (nr_sources) and who joined: rdma_cm for an IPv4
 *     group (flags 0), rdma_mcm itself for an IPv6 one on RoCE v2
 *     (RDMA_MCM_MEMBER_JOINED_BY_MCM, once joined); a send-only join never
 *     has sources. Contexts of an IPv6 --src join IPv6 groups.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "mcm_stress.h"

#define FILL		0x5a	/* what the arrays hold before a call */

/* A port for a source address: it must make no difference. */
static uint16_t any_port(struct thread *t)
{
	static const uint16_t ports[] = { 0, 1, 80, 1023, 4791, 65535 };

	return pick(t, 2) ? ports[pick(t, 6)] : (uint16_t)rnd(t);
}

/* Group @g of the pool, of @family: 239.3.x.y, ff0e::7003:g */
static void group_addr(int family, unsigned int g, uint8_t *buf,
		       uint32_t *len)
{
	struct sockaddr_in sin = { .sin_family = AF_INET };
	struct sockaddr_in6 sin6 = { .sin6_family = AF_INET6 };

	if (family == AF_INET6) {
		sin6.sin6_addr.s6_addr[0] = 0xff;
		sin6.sin6_addr.s6_addr[1] = 0x0e;
		sin6.sin6_addr.s6_addr[12] = 0x70;
		sin6.sin6_addr.s6_addr[13] = 0x03;
		sin6.sin6_addr.s6_addr[14] = g >> 8;
		sin6.sin6_addr.s6_addr[15] = g;
		memcpy(buf, &sin6, sizeof(sin6));
		*len = sizeof(sin6);
		return;
	}
	sin.sin_addr.s_addr = htonl(0xef030000 | g);
	memcpy(buf, &sin, sizeof(sin));
	*len = sizeof(sin);
}

/*
 * The sources of a source-specific join of a group of @family: 1 to 3
 * distinct unicast ones of veth0's subnet (192.0.2.1, .3 ... .6), or of
 * 2001:db8:70::/64, in entries of 136 bytes or of 200 with a zero tail,
 * at @arr. Returns how many; *@size the entry size.
 */
static uint32_t pick_sources(struct thread *t, int family, uint8_t *arr,
			     uint32_t *size)
{
	static const uint8_t last[] = { 1, 3, 4, 5, 6 };
	uint32_t n = 1 + pick(t, MAX_JSRC), i, first = pick(t, 5);
	struct rdma_mcm_source *e;
	struct sockaddr_in6 sin6 = { .sin6_family = AF_INET6 };
	struct sockaddr_in sin = { .sin_family = AF_INET };

	*size = pick(t, 4) ? RDMA_MCM_SOURCE_SIZE_VER0 : JSRC_SIZE;
	memset(arr, 0, (size_t)n * *size);
	for (i = 0; i < n; i++) {
		e = (void *)(arr + (size_t)i * *size);
		if (family == AF_INET6) {
			inet_pton(AF_INET6, "2001:db8:70::", &sin6.sin6_addr);
			sin6.sin6_addr.s6_addr[15] = last[(first + i) % 5];
			sin6.sin6_port = htons(any_port(t));
			memcpy(e->addr, &sin6, sizeof(sin6));
			e->addr_len = sizeof(sin6);
		} else {
			sin.sin_addr.s_addr = htonl(0xc0000200 |
						    last[(first + i) % 5]);
			sin.sin_port = htons(any_port(t));
			memcpy(e->addr, &sin, sizeof(sin));
			e->addr_len = sizeof(sin);
		}
	}
	return n;
}

/*
 * What QUERY and LIST report of a membership the file holds: its sources,
 * and who joined it (rdma_mcm itself for an IPv6 group on RoCE v2).
 */
static void reported_sources(struct thread *t, const struct live *l,
			     const struct rdma_mcm_member *m,
			     const char *what)
{
	uint32_t want = l->family == AF_INET6 ?
			RDMA_MCM_MEMBER_JOINED_BY_MCM : 0;

	if (m->nr_sources != l->nr_sources)
		violated(t, "%s of handle %u: nr_sources %u, joined with %u",
			 what, m->handle, m->nr_sources, l->nr_sources);
	if ((m->flags & ~RDMA_MCM_MEMBER_JOINED_BY_MCM) ||
	    (m->flags && !want) ||
	    (m->state == RDMA_MCM_STATE_JOINED && m->flags != want))
		violated(t, "%s of handle %u (%s group, state %u): flags 0x%x",
			 what, m->handle,
			 l->family == AF_INET6 ? "an IPv6" : "an IPv4",
			 m->state, m->flags);
}

void op_create(struct thread *t, struct file *f)
{
	struct rdma_mcm_create_ctx a = { 0 };
	unsigned int s = pick(t, nsrc);
	union srcaddr sa = src[s];
	int ret;

	if (f->nctx >= MAX_CTX)
		return;
	if (sa.sa.sa_family == AF_INET6) {
		sa.in6.sin6_port = htons(any_port(t));
		a.src_len = sizeof(sa.in6);
	} else {
		sa.in.sin_port = htons(any_port(t));
		a.src_len = sizeof(sa.in);
	}
	memcpy(a.src, &sa, a.src_len);
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
	int ret, family;

	if (ctx_pick_family(t, f, &a.ctx_id, &family) < 0)
		return;
	a.cookie = ++t->next_cookie;
	a.join_flags = pick(t, 3) ? RDMA_MCM_JOIN_SENDONLY_FULLMEMBER :
				    RDMA_MCM_JOIN_FULLMEMBER;
	group_addr(family, g, a.addr, &a.addr_len);
	if (a.join_flags == RDMA_MCM_JOIN_FULLMEMBER && pick(t, 2)) {
		a.nr_sources = pick_sources(t, family, t->srcs,
					    &a.source_size);
		a.sources = (uintptr_t)t->srcs;
	}
	ret = xioctl(f->fd, RDMA_MCM_IOC_JOIN, &a);
	count(t, C_JOIN, ret);
	if (!ret) {
		t->st.ssm_ok += !!a.nr_sources;
		t->st.v6_ok += family == AF_INET6;
	}
	if (!f->own)
		return;
	c = ctx_find(f, a.ctx_id);
	joined_on(t, c, ret, "JOIN");
	if (!ret)
		live_add(t, f, a.cookie, a.ctx_id, a.handle, g, family,
			 a.nr_sources);
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
		group_addr(m.family, m.group, a.addr, &a.addr_len);
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
	if (l && ret) {
		violated(t, "QUERY of held handle %u: %s", m.handle,
			 strerrorname_np(ret));
	} else if (!l && !ret) {
		violated(t, "QUERY of handle %u succeeded, not held", m.handle);
	} else if (l && a.member.cookie != l->cookie) {
		violated(t, "QUERY of handle %u: cookie %llu, joined with %llu",
			 m.handle, (unsigned long long)a.member.cookie,
			  (unsigned long long)l->cookie);
	} else if (l) {
		reported(t, ctx_find(f, m.ctx), &a.member, "QUERY");
		reported_sources(t, l, &a.member, "QUERY");
	}
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
	struct live *l;
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
			l = live_find(f, m.cookie);
			if (!l)
				violated(t, "LIST shows handle %u, not held",
					 m.handle);
			else if (a.entry_size >= sizeof(m))
				reported_sources(t, l, &m, "LIST");
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
	int ret, family;
	uint8_t *s;

	if (ctx_pick_family(t, f, &a.ctx_id, &family) < 0)
		return;
	a.entry_size = entry_size(t, RDMA_MCM_JOIN_ENTRY_SIZE_VER0);
	memset(t->arr, 0, (size_t)n * a.entry_size);
	for (i = 0; i < n; i++) {
		e = (void *)(t->arr + (size_t)i * a.entry_size);
		g[i] = pick(t, ngroups);
		e->cookie = ++t->next_cookie;
		e->join_flags = RDMA_MCM_JOIN_SENDONLY_FULLMEMBER;
		group_addr(family, g[i], e->addr, &e->addr_len);
		e->handle = 0xdeadbeef;	/* outputs: the kernel ignores them */
		e->result = 1;
		/* a 168-byte entry (or longer) may carry sources */
		if (a.entry_size >= sizeof(*e) && !pick(t, 4)) {
			s = t->srcs + (size_t)i * MAX_JSRC * JSRC_SIZE;
			e->join_flags = RDMA_MCM_JOIN_FULLMEMBER;
			e->nr_sources = pick_sources(t, family, s,
						     &e->source_size);
			e->sources = (uintptr_t)s;
		}
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
			live_add(t, f, e->cookie, a.ctx_id, e->handle, g[i],
				 family, a.entry_size >= sizeof(*e) ?
				 e->nr_sources : 0);
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
