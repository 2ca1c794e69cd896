// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * librdmamcm: the channel's table of its memberships, by (ctx_id, handle)
 * and by (ctx_id, group). It remembers each join's flags (so that
 * rdma_mcm_attach_qp() can refuse a send-only membership) and maps a group
 * to its handle (so that a leave by address can drop the membership's
 * queued events). A file may hold 131072 memberships: both are hashes.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "rdma_mcm_priv.h"

#define MCM_TABLE_MIN	64

static size_t hash32(uint32_t h, uint32_t x)
{
	h ^= x;
	h *= 0x9e3779b1u;
	return h ^ (h >> 15);
}

static size_t hash_handle(uint32_t ctx_id, uint32_t handle)
{
	return hash32(hash32(0, ctx_id), handle);
}

static size_t hash_key(uint32_t ctx_id, const uint8_t *key, uint32_t len)
{
	size_t h = hash32(0, ctx_id);
	uint32_t i;

	for (i = 0; i < len; i++)
		h = hash32((uint32_t)h, key[i]);
	return h;
}

static void link_member(struct mcm_table *t, struct mcm_member *m)
{
	size_t bh = hash_handle(m->ctx_id, m->handle) % t->nbuckets;
	size_t ba = hash_key(m->ctx_id, m->key, m->key_len) % t->nbuckets;

	m->next_h = t->by_handle[bh];
	t->by_handle[bh] = m;
	m->next_a = t->by_addr[ba];
	t->by_addr[ba] = m;
}

static int grow(struct mcm_table *t)
{
	size_t n = t->nbuckets ? t->nbuckets * 2 : MCM_TABLE_MIN;
	struct mcm_member **bh, **ba, *m, *next;
	struct mcm_table old = *t;
	size_t i;

	bh = calloc(n, sizeof(*bh));
	ba = calloc(n, sizeof(*ba));
	if (!bh || !ba) {
		free(bh);
		free(ba);
		return -ENOMEM;
	}
	t->by_handle = bh;
	t->by_addr = ba;
	t->nbuckets = n;
	for (i = 0; i < old.nbuckets; i++) {
		for (m = old.by_handle[i]; m; m = next) {
			next = m->next_h;
			link_member(t, m);
		}
	}
	free(old.by_handle);
	free(old.by_addr);
	return 0;
}

static void free_member(struct mcm_member *m)
{
	struct mcm_attach *a, *next;

	for (a = m->attached; a; a = next) {
		next = a->next;
		free(a);
	}
	free(m);
}

/* Free every membership; the caller has freed the queue first. */
void mcm_table_free(struct mcm_table *t)
{
	struct mcm_member *m, *next;
	size_t i;

	for (i = 0; i < t->nbuckets; i++) {
		for (m = t->by_handle[i]; m; m = next) {
			next = m->next_h;
			free_member(m);
		}
	}
	free(t->by_handle);
	free(t->by_addr);
	memset(t, 0, sizeof(*t));
}

/* Buckets for the first memberships; 0 or -ENOMEM. */
int mcm_table_prepare(struct mcm_table *t)
{
	return t->nbuckets ? 0 : grow(t);
}

/* The new membership, or NULL with *@err -ENOMEM or mcm_addr_key()'s. */
struct mcm_member *mcm_table_add(struct mcm_table *t, uint32_t ctx_id,
				 uint32_t handle, uint32_t join_flags,
				 const struct sockaddr *group, int *err)
{
	struct mcm_member *m;

	*err = -ENOMEM;
	if (t->count >= t->nbuckets && grow(t))
		return NULL;
	m = calloc(1, sizeof(*m));
	if (!m)
		return NULL;
	*err = mcm_addr_key(group, m->key, &m->key_len);
	if (*err) {
		free(m);
		return NULL;
	}
	m->ctx_id = ctx_id;
	m->handle = handle;
	m->join_flags = join_flags;
	link_member(t, m);
	t->count++;
	return m;
}

struct mcm_member *mcm_table_find(struct mcm_table *t, uint32_t ctx_id,
				  uint32_t handle)
{
	struct mcm_member *m;

	if (!t->nbuckets)
		return NULL;
	m = t->by_handle[hash_handle(ctx_id, handle) % t->nbuckets];
	for (; m; m = m->next_h)
		if (m->ctx_id == ctx_id && m->handle == handle)
			return m;
	return NULL;
}

struct mcm_member *mcm_table_find_addr(struct mcm_table *t, uint32_t ctx_id,
				       const struct sockaddr *group)
{
	struct mcm_member *m;
	uint8_t key[16];
	uint32_t len;

	if (!t->nbuckets || mcm_addr_key(group, key, &len))
		return NULL;
	m = t->by_addr[hash_key(ctx_id, key, len) % t->nbuckets];
	for (; m; m = m->next_a)
		if (m->ctx_id == ctx_id && m->key_len == len &&
		    !memcmp(m->key, key, len))
			return m;
	return NULL;
}

static void unlink_member(struct mcm_table *t, struct mcm_member *m)
{
	struct mcm_member **pp;

	pp = &t->by_handle[hash_handle(m->ctx_id, m->handle) % t->nbuckets];
	while (*pp != m)
		pp = &(*pp)->next_h;
	*pp = m->next_h;
	pp = &t->by_addr[hash_key(m->ctx_id, m->key, m->key_len) % t->nbuckets];
	while (*pp != m)
		pp = &(*pp)->next_a;
	*pp = m->next_a;
	t->count--;
}

/*
 * Forget a membership the kernel no longer has, and drop the events of it
 * the library holds. Returns how many were dropped.
 */
uint32_t mcm_table_del(struct mcm_table *t, struct mcm_queue *q,
		       struct mcm_member *m)
{
	uint32_t n = mcm_queue_purge(q, &m->q);

	unlink_member(t, m);
	free_member(m);
	return n;
}

void mcm_table_del_ctx(struct mcm_table *t, struct mcm_queue *q,
		       uint32_t ctx_id)
{
	struct mcm_member *m, *next;
	size_t i;

	for (i = 0; i < t->nbuckets; i++) {
		for (m = t->by_handle[i]; m; m = next) {
			next = m->next_h;
			if (m->ctx_id == ctx_id)
				mcm_table_del(t, q, m);
		}
	}
}

/* Call @fn for every membership of context @ctx_id (@fn frees none). */
void mcm_table_each_ctx(struct mcm_table *t, uint32_t ctx_id,
			void (*fn)(struct mcm_member *m, void *arg), void *arg)
{
	struct mcm_member *m;
	size_t i;

	for (i = 0; i < t->nbuckets; i++)
		for (m = t->by_handle[i]; m; m = m->next_h)
			if (m->ctx_id == ctx_id)
				fn(m, arg);
}
