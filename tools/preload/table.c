// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * A chained hash table of intrusive nodes keyed by 64 bits, doubling when
 * it holds more nodes than slots: the lookups of join, leave and event
 * delivery stay O(1) at 100k memberships. Several nodes may share a key
 * (the hash of an id and a group); callers compare the record.
 */
#include <stdlib.h>
#include <string.h>

#include "preload.h"

/* FNV-1a, seeded, then a 64-bit finaliser (splitmix64's) */
uint64_t pl_hash(const void *data, size_t len, uint64_t seed)
{
	const unsigned char *p = data;
	uint64_t h = 0xcbf29ce484222325ULL ^ seed;

	while (len--)
		h = (h ^ *p++) * 0x100000001b3ULL;
	h ^= h >> 30;
	h *= 0xbf58476d1ce4e5b9ULL;
	h ^= h >> 27;
	h *= 0x94d049bb133111ebULL;
	return h ^ (h >> 31);
}

/* Fibonacci hashing: aligned pointers and sequential cookies spread */
static size_t slot_of(const struct pl_table *t, uint64_t key)
{
	uint64_t h = key * 0x9e3779b97f4a7c15ULL;

	return (size_t)(h ^ (h >> 29) ^ (h >> 47)) & t->mask;
}

static int grow(struct pl_table *t)
{
	size_t n = t->slots ? (t->mask + 1) * 2 : 64, i;
	struct pl_node **slots = calloc(n, sizeof(*slots));
	struct pl_table nt = { .slots = slots, .mask = n - 1 };

	if (!slots)
		return -1;
	for (i = 0; t->slots && i <= t->mask; i++) {
		struct pl_node *node = t->slots[i], *next;

		for (; node; node = next) {
			size_t s = slot_of(&nt, node->key);

			next = node->next;
			node->next = slots[s];
			slots[s] = node;
		}
	}
	free(t->slots);
	t->slots = slots;
	t->mask = nt.mask;
	return 0;
}

int pl_table_add(struct pl_table *t, struct pl_node *n, uint64_t key)
{
	size_t s;

	if ((!t->slots || t->count > t->mask) && grow(t) && !t->slots)
		return -1;
	n->key = key;
	s = slot_of(t, key);
	n->next = t->slots[s];
	t->slots[s] = n;
	t->count++;
	return 0;
}

void pl_table_del(struct pl_table *t, struct pl_node *n)
{
	struct pl_node **pp;

	if (!t->slots)
		return;
	for (pp = &t->slots[slot_of(t, n->key)]; *pp; pp = &(*pp)->next) {
		if (*pp == n) {
			*pp = n->next;
			n->next = NULL;
			t->count--;
			return;
		}
	}
}

struct pl_node *pl_table_find(const struct pl_table *t, uint64_t key,
			      struct pl_node *from)
{
	struct pl_node *n;

	if (!t->slots)
		return NULL;
	n = from ? from->next : t->slots[slot_of(t, key)];
	for (; n; n = n->next)
		if (n->key == key)
			return n;
	return NULL;
}
