// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * mcm_fuzz: what a batch or a list must leave in its array.
 *
 * The array room a batch or list could reach was saved before the call
 * (save_call()). Afterwards:
 *  - batch entries: only the outputs (join: handle and result; leave:
 *    result and events_reported) of entries below done changed, all other
 *    bytes of the array are as passed; each result is 0 or a negative
 *    errno, counted in the histogram (BATCH_JOIN_ENTRY, ...), and a
 *    BATCH_JOIN entry's held to the model of joins (mcm_fuzz_src_model.c);
 *  - LIST entries: those below count hold a member and zeros after the
 *    kernel's size; nothing past them changed, nor anything when the list
 *    was refused.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <string.h>

#include "mcm_fuzz.h"

/* The result of a batch entry @e, below done: into the histogram. */
static void count_entry(struct worker *w, const struct call *c, int cmd,
			const uint8_t *e, const uint8_t *in, uint32_t esize,
			int model)
{
	int32_t result;
	uint32_t handle;
	int hc = cmd == C_BATCH_JOIN ? C_JOIN_ENTRY : C_LEAVE_ENTRY;

	if (cmd == C_BATCH_JOIN) {
		memcpy(&result, e + AT(rdma_mcm_join_entry, result), 4);
		memcpy(&handle, e + AT(rdma_mcm_join_entry, handle), 4);
		if (!result && !handle)
			violated(w, "BATCH_JOIN entry worked with handle 0");
		if (model && result <= 0 && result > -4096)
			judge_entry(w, c, in, esize, result);
	} else {
		memcpy(&result, e + AT(rdma_mcm_leave_entry, result), 4);
	}
	if (result > 0 || result < -4095) {
		violated(w, "%s entry result %d", cmd_name[cmd], result);
		return;
	}
	if (!result)
		w->st->ok[hc]++;
	else
		w->st->err[hc][-result < MAX_ERRNO ? -result : MAX_ERRNO - 1]++;
}

/*
 * The array of a batch: entries below @lim may have their outputs
 * written, nothing else may change; entries below @done are counted.
 */
static void check_batch_array(struct worker *w, const struct call *c,
			      int cmd, uint32_t esize, uint64_t lim,
			      uint64_t done, int model)
{
	const struct layout *l = cmd == C_BATCH_JOIN ? &join_entry_layout :
							 &leave_entry_layout;
	size_t i, n = c->arr_saved;
	uint64_t k;

	w->st->arrays_checked++;
	for (k = 0; k < done && (k + 1) * esize <= n; k++)
		count_entry(w, c, cmd, c->arr_at + k * esize,
			    c->saved_arr + k * esize, esize, model);
	if (!memcmp(c->saved_arr, c->arr_at, n))
		return;
	for (i = 0; i < n; i++) {
		if (c->saved_arr[i] == c->arr_at[i])
			continue;
		k = i / esize;
		if (k < lim && i % esize >= l->out_off &&
		    i % esize < (size_t)l->out_off + l->out_len)
			continue;
		violated(w, "%s (entry_size %u, %llu written) changed byte %zu of entry %llu",
			 cmd_name[cmd], esize, (unsigned long long)lim,
			 i % esize, (unsigned long long)k);
		return;
	}
}

/*
 * The array of a list: entries below @written hold members, with zeros
 * after the kernel's size; nothing after them changed.
 */
static void check_list_array(struct worker *w, const struct call *c,
			     uint32_t esize, uint64_t written)
{
	size_t i, n = c->arr_saved, from = written * esize;
	struct rdma_mcm_member m;
	uint64_t k;

	w->st->arrays_checked++;
	for (k = 0; k < written && (k + 1) * esize <= n; k++) {
		/* an entry may be shorter than this header's member */
		memset(&m, 0, sizeof(m));
		memcpy(&m, c->arr_at + k * esize,
		       esize < sizeof(m) ? esize : sizeof(m));
		check_member(w, "LIST", &m);
		for (i = sizeof(m); i < esize; i++)
			if (c->arr_at[k * esize + i]) {
				violated(w, "LIST entry %llu (%u bytes): byte %zu is 0x%02x",
					 (unsigned long long)k, esize, i,
					 c->arr_at[k * esize + i]);
				break;
			}
	}
	if (from < n && memcmp(c->saved_arr + from, c->arr_at + from,
			       n - from)) {
		for (i = from; c->saved_arr[i] == c->arr_at[i]; i++)
			;
		violated(w, "LIST of %llu entries of %u bytes wrote byte %zu",
			 (unsigned long long)written, esize, i);
	}
}

/* Batch and list arrays. */
void check_array(struct worker *w, const struct call *c, int cmd,
		 int err, int ran, int raced)
{
	const struct layout *l = &layouts[cmd];
	uint32_t esize = 0, count = 0, done;
	uint64_t lim;

	if (!c->arr_saved)
		return;
	saved32(c, l->entry_size - 1, &esize);
	saved32(c, l->count - 1, &count);
	if (!ran || err == ENOENT || err == EINVAL || err == E2BIG) {
		/* refused before its first entry: nothing written */
		w->st->arrays_checked++;
		if (memcmp(c->saved_arr, c->arr_at, c->arr_saved))
			violated(w, "%s failed with %s, yet its array changed",
				 cmd_name[cmd],
				 err ? strerrorname_np(err) : "0");
		return;
	}
	if (cmd == C_LIST) {
		if (!err)
			check_list_array(w, c, esize,
					 get32(c->argp, OFF(rdma_mcm_list,
							    count)));
		return;
	}
	/* the batch ran: done tells how far, when it was written back */
	if (arg_writable(c)) {
		done = get32(c->argp, OFF(rdma_mcm_batch, done));
		lim = (uint64_t)done + (err == EFAULT);
	} else {
		done = 0;
		lim = count;
	}
	check_batch_array(w, c, cmd, esize, lim, done, !raced);
}
