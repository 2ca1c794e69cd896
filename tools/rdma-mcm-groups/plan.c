// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * rdma-mcm-groups: what a reload changes. A membership is known by its
 * key: where it is joined (dev NETDEV, or local ADDRESS) and its group;
 * a configuration has each key once (conf.c refuses a duplicate). A
 * reload compares the keys held with the keys read, both sorted: one walk
 * of the two lists, whatever their sizes (no entry is compared with every
 * other). A key in both whose type and sources are unchanged is left
 * alone: the membership keeps its handle, its join time and its state.
 */
#include <netinet/in.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "groups.h"

int grp_addr_cmp(const struct sockaddr_storage *a,
		 const struct sockaddr_storage *b)
{
	const struct sockaddr_in6 *a6 = (const struct sockaddr_in6 *)a;
	const struct sockaddr_in6 *b6 = (const struct sockaddr_in6 *)b;
	const struct sockaddr_in *a4 = (const struct sockaddr_in *)a;
	const struct sockaddr_in *b4 = (const struct sockaddr_in *)b;
	int d;

	if (a->ss_family != b->ss_family)
		return a->ss_family < b->ss_family ? -1 : 1;
	if (a->ss_family == AF_INET)
		return memcmp(&a4->sin_addr, &b4->sin_addr, 4);
	if (a->ss_family != AF_INET6)
		return 0;
	d = memcmp(&a6->sin6_addr, &b6->sin6_addr, 16);
	if (d)
		return d;
	if (a6->sin6_scope_id != b6->sin6_scope_id)
		return a6->sin6_scope_id < b6->sin6_scope_id ? -1 : 1;
	return 0;
}

int grp_key_cmp(const struct grp_entry *a, const struct grp_entry *b)
{
	int d;

	/* netdevs first, then addresses */
	if (!*a->dev != !*b->dev)
		return *a->dev ? -1 : 1;
	d = *a->dev ? strcmp(a->dev, b->dev) : grp_addr_cmp(&a->local, &b->local);
	return d ? d : grp_addr_cmp(&a->group, &b->group);
}

int grp_entry_same(const struct grp_entry *a, const struct grp_entry *b)
{
	unsigned int i;

	if (grp_key_cmp(a, b) || a->type != b->type || a->nr_src != b->nr_src)
		return 0;
	/* both sorted (conf.c) */
	for (i = 0; i < a->nr_src; i++)
		if (grp_addr_cmp(&a->src[i], &b->src[i]))
			return 0;
	return 1;
}

/* By key; among equal keys, by place in memory: the order they were read */
static int entry_ptr_cmp(const void *x, const void *y)
{
	const struct grp_entry *a = *(const struct grp_entry *const *)x;
	const struct grp_entry *b = *(const struct grp_entry *const *)y;
	int d = grp_key_cmp(a, b);

	if (d)
		return d;
	return a < b ? -1 : a > b;
}

void grp_sort(const struct grp_entry **v, size_t n)
{
	if (n > 1)
		qsort(v, n, sizeof(*v), entry_ptr_cmp);
}

void grp_diff(const struct grp_entry *const *old, size_t nold,
	      const struct grp_entry *const *new, size_t nnew,
	      grp_diff_fn fn, void *arg)
{
	size_t o = 0, n = 0;
	int d;

	while (o < nold || n < nnew) {
		if (o == nold)
			d = 1;
		else if (n == nnew)
			d = -1;
		else
			d = grp_key_cmp(old[o], new[n]);
		if (d < 0) {
			fn(arg, GRP_LEAVE, o++, SIZE_MAX);
		} else if (d > 0) {
			fn(arg, GRP_JOIN, SIZE_MAX, n++);
		} else {
			fn(arg, grp_entry_same(old[o], new[n]) ? GRP_KEEP :
			   GRP_REPLACE, o, n);
			o++;
			n++;
		}
	}
}

const char *grp_change_name(enum grp_change what)
{
	static const char *const names[] = {
		[GRP_KEEP] = "keep", [GRP_LEAVE] = "leave",
		[GRP_JOIN] = "join", [GRP_REPLACE] = "replace",
	};

	return (unsigned int)what < 4 ? names[what] : "unknown";
}
