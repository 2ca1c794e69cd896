// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * librdmamcm: joins and leaves in batches, one ioctl per chunk of up to
 * RDMA_MCM_MAX_BATCH entries, each entry with its own result.
 *
 * The kernel reads and writes the application's array in place: the
 * entry_size is that of the symbol version's entries (join entries: 152
 * bytes in LIBRDMAMCM_1.0, 168 with their sources since LIBRDMAMCM_1.5;
 * every module takes both, an older one the 168 bytes while an entry
 * has no sources). Only a test build whose entries are longer
 * (MCM_TEST_GROW) goes through a bounce buffer.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "rdma_mcm_priv.h"

/* Entries per ioctl through a bounce buffer */
#define MCM_BATCH_BOUNCE	4096

MCM_WIRE(struct rdma_mcm_batch, w_batch);

/* addr_len 0 in a batch entry: take it from the address family */
static void entry_addr_len(const uint8_t *addr, uint32_t *addr_len)
{
	struct sockaddr_storage ss;

	if (*addr_len)
		return;
	memcpy(&ss, addr, sizeof(ss) < RDMA_MCM_ADDR_SIZE ?
	       sizeof(ss) : RDMA_MCM_ADDR_SIZE);
	*addr_len = (uint32_t)mcm_addr_len((struct sockaddr *)&ss);
}

static const struct sockaddr *entry_sa(const uint8_t *addr,
				       struct sockaddr_storage *ss)
{
	memset(ss, 0, sizeof(*ss));
	memcpy(ss, addr, sizeof(*ss) < RDMA_MCM_ADDR_SIZE ?
	       sizeof(*ss) : RDMA_MCM_ADDR_SIZE);
	return (const struct sockaddr *)ss;
}

/* How one kind of batch moves its entries */
struct batch_kind {
	unsigned long req;
	size_t api_size;		/* the application's entry */
	size_t wire_size;		/* the kernel's, as the library knows it */
	void (*done)(struct rdma_mcm_channel *ch, uint32_t ctx_id,
		     void *entry);
};

/*
 * One batch ioctl over @n entries at @entries (the application's array,
 * or a bounce copy of it). Returns entries done or -errno.
 */
static int batch_ioctl(struct rdma_mcm_channel *ch,
		       const struct batch_kind *k, uint32_t ctx_id,
		       void *entries, uint32_t n, size_t size)
{
	struct w_batch b;
	int ret;

	memset(&b, 0, sizeof(b));
	b.s.entries = (uintptr_t)entries;
	b.s.ctx_id = ctx_id;
	b.s.count = n;
	b.s.entry_size = (uint32_t)size;
	ret = mcm_ioctl(ch, k->req, &b, sizeof(b));
	if (b.s.done > n)
		return -EPROTO;
	if (ret && !b.s.done)
		return ret;
	return (int)b.s.done;
}

/*
 * In place: the application's entries as they are; the kernel takes any
 * size from an entry's first version up. A test build whose structs grow
 * passes entries of its own size, as a later library would.
 */
static int in_place(const struct batch_kind *k)
{
	return !MCM_TEST_GROW || k->wire_size == k->api_size;
}

/* One chunk: in place, or through a bounce buffer of wire-size entries */
static int chunk(struct rdma_mcm_channel *ch, const struct batch_kind *k,
		 uint32_t ctx_id, uint8_t *app, uint32_t n)
{
	uint8_t *buf;
	int ret, i;

	if (in_place(k))
		return batch_ioctl(ch, k, ctx_id, app, n, k->api_size);
	buf = calloc(n, k->wire_size);
	if (!buf)
		return -ENOMEM;
	for (i = 0; i < (int)n; i++)
		memcpy(buf + i * k->wire_size, app + i * k->api_size,
		       k->api_size);
	ret = batch_ioctl(ch, k, ctx_id, buf, n, k->wire_size);
	for (i = 0; i < ret; i++)
		memcpy(app + i * k->api_size, buf + i * k->wire_size,
		       k->api_size);
	free(buf);
	return ret;
}

static int run_batch(struct rdma_mcm_channel *ch, const struct batch_kind *k,
		     uint32_t ctx_id, uint8_t *entries, unsigned int n)
{
	unsigned int limit = in_place(k) ? MCM_MAX_BATCH : MCM_BATCH_BOUNCE;
	unsigned int done = 0, i, max;
	int ret;

	while (done < n) {
		max = n - done > limit ? limit : n - done;
		ret = chunk(ch, k, ctx_id, entries + done * k->api_size, max);
		if (ret < 0)
			return done ? (int)done : ret;
		for (i = done; i < done + (unsigned int)ret; i++)
			k->done(ch, ctx_id, entries + i * k->api_size);
		done += (unsigned int)ret;
		if ((unsigned int)ret < max)
			break;
	}
	return (int)done;
}

/*
 * A joined entry goes in the table (@entry is a LIBRDMAMCM_1.0 entry or a
 * longer one: only its first 152 bytes are read here).
 */
static void joined_entry(struct rdma_mcm_channel *ch, uint32_t ctx_id,
			 void *entry)
{
	struct rdma_mcm_join_entry *e = entry;
	struct sockaddr_storage ss;
	int ret;

	if (e->result)
		return;
	if (!mcm_table_add(&ch->members, ctx_id, e->handle, e->join_flags,
			   entry_sa(e->addr, &ss), &ret)) {
		mcm_unjoin(ch, ctx_id, e->handle);
		e->result = ret;
		e->handle = 0;
	}
}

/*
 * LIBRDMAMCM_1.5's entries: an entry with sources that a module older
 * than sources refused (its non-zero tail: -E2BIG) is -EOPNOTSUPP, as
 * rdma_mcm_join_source() says it. From a module that has sources, E2BIG
 * is the entry's own (a source_size or a source's tail it cannot take).
 */
static void joined_entry_1_5(struct rdma_mcm_channel *ch, uint32_t ctx_id,
			     void *entry)
{
	struct rdma_mcm_join_entry *e = entry;

	if (e->result == -E2BIG && e->nr_sources &&
	    !(ch->features & RDMA_MCM_FEATURE_SOURCES))
		e->result = -EOPNOTSUPP;
	joined_entry(ch, ctx_id, entry);
}

static const struct batch_kind join_kind_1_0 = {
	.req = RDMA_MCM_IOC_BATCH_JOIN,
	.api_size = MCM_API_JOIN_ENTRY_SIZE_1_0,
	.wire_size = sizeof(struct mcm_wire_join_entry),
	.done = joined_entry,
};

static const struct batch_kind join_kind = {
	.req = RDMA_MCM_IOC_BATCH_JOIN,
	.api_size = MCM_API_JOIN_ENTRY_SIZE,
	.wire_size = sizeof(struct mcm_wire_join_entry),
	.done = joined_entry_1_5,
};

/*
 * The entries' defaults (addr_len 0: the family's; source_size 0 with
 * sources: the caller's struct rdma_mcm_source), then the batch.
 */
static int join_batch(struct rdma_mcm_channel *ch, const struct batch_kind *k,
		      uint32_t ctx_id, uint8_t *entries, unsigned int n)
{
	struct rdma_mcm_join_entry *e;
	unsigned int i;
	int ret;

	if (!ch || (!entries && n) || n > INT_MAX)
		return -EINVAL;
	for (i = 0; i < n; i++) {
		e = (void *)(entries + (size_t)i * k->api_size);
		entry_addr_len(e->addr, &e->addr_len);
		if (k->api_size == MCM_API_JOIN_ENTRY_SIZE && e->nr_sources &&
		    !e->source_size)
			e->source_size = MCM_API_SOURCE_SIZE;
	}
	pthread_mutex_lock(&ch->lock);
	ret = run_batch(ch, k, ctx_id, entries, n);
	pthread_mutex_unlock(&ch->lock);
	return ret;
}

/* LIBRDMAMCM_1.5: 168-byte entries, with their sources */
MCM_EXPORT int rdma_mcm_join_batch_v1_5(struct rdma_mcm_channel *ch,
					uint32_t ctx_id,
					struct rdma_mcm_join_entry *entries,
					unsigned int n)
{
	return mcm_result(join_batch(ch, &join_kind, ctx_id,
				     (uint8_t *)entries, n));
}

MCM_SYMVER(rdma_mcm_join_batch_v1_5, "rdma_mcm_join_batch@@LIBRDMAMCM_1.5");

/* LIBRDMAMCM_1.0: 152-byte entries, for programs linked before 1.5 */
MCM_EXPORT int rdma_mcm_join_batch_v1_0(struct rdma_mcm_channel *ch,
					uint32_t ctx_id, void *entries,
					unsigned int n)
{
	return mcm_result(join_batch(ch, &join_kind_1_0, ctx_id, entries, n));
}

MCM_SYMVER(rdma_mcm_join_batch_v1_0, "rdma_mcm_join_batch@LIBRDMAMCM_1.0");

static void left_entry(struct rdma_mcm_channel *ch, uint32_t ctx_id,
		       void *entry)
{
	struct rdma_mcm_leave_entry *e = entry;
	struct sockaddr_storage ss;
	struct mcm_member *m;
	uint32_t dropped = 0;

	if (e->result && e->result != -EADDRNOTAVAIL)
		return;
	if (e->flags & RDMA_MCM_LEAVE_BY_ADDR)
		m = mcm_table_find_addr(&ch->members, ctx_id,
					entry_sa(e->addr, &ss));
	else
		m = mcm_table_find(&ch->members, ctx_id, e->handle);
	if (m)
		dropped = mcm_table_del(&ch->members, &ch->queue, m);
	if (!e->result)
		e->events_reported = mcm_seen(e->events_reported, dropped);
}

static const struct batch_kind leave_kind = {
	.req = RDMA_MCM_IOC_BATCH_LEAVE,
	.api_size = MCM_API_LEAVE_ENTRY_SIZE,
	.wire_size = sizeof(struct mcm_wire_leave_entry),
	.done = left_entry,
};

MCM_EXPORT int rdma_mcm_leave_batch(struct rdma_mcm_channel *ch,
				    uint32_t ctx_id,
				    struct rdma_mcm_leave_entry *entries,
				    unsigned int n)
{
	unsigned int i;
	int ret;

	if (!ch || (!entries && n) || n > INT_MAX)
		return mcm_result(-EINVAL);
	for (i = 0; i < n; i++)
		if (entries[i].flags & RDMA_MCM_LEAVE_BY_ADDR)
			entry_addr_len(entries[i].addr, &entries[i].addr_len);
	pthread_mutex_lock(&ch->lock);
	ret = run_batch(ch, &leave_kind, ctx_id, (uint8_t *)entries, n);
	pthread_mutex_unlock(&ch->lock);
	return mcm_result(ret);
}
