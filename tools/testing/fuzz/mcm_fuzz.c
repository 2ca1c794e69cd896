// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * mcm_fuzz: a random and structure-aware fuzzer of the /dev/rdma_mcm ABI
 * (include/uapi/rdma/rdma_mcm_abi.h, Documentation/uapi.rst).
 *
 * Each worker thread keeps a few open files of the device and the contexts
 * and membership handles it got from them, and issues ioctl(), read() and
 * poll() calls: every command, SET_EVENTS included, from a valid argument
 * with up to three mutations (mcm_fuzz_gen.c, mcm_fuzz_mutate.c). A racer
 * thread per worker closes the worker's files, or dup2()s a fresh file of
 * the device or /dev/null over them, while calls are in flight, and
 * interrupts blocking reads. Now and then a worker calls into another
 * worker's file.
 *
 * Every call is held to the ABI's rules (mcm_fuzz_check.c): the bytes a
 * command may write back (nothing when it fails, only its outputs within
 * the caller's size when it works, only the outputs of a batch's entries
 * below done), the errnos whose cause is known (shorter than the first
 * version, a non-zero tail, an unknown command, SET_EVENTS's reserved
 * field and event size; a join's, JOIN's or a BATCH_JOIN entry's, from
 * its flags, group and source array, in the order the kernel checks
 * them), and every read() of a worker's own file to what
 * the file asked to read (mcm_fuzz_model.c): whole records of the
 * negotiated size, of the types asked for only (JOINED and ERROR for a
 * file that never asked). A broken rule is a violation: printed as it is
 * found, counted, and the exit status is 1.
 *
 * Output on stdout, after the run:
 *   violation: WHAT (worker N)  each broken rule (the first 100)
 *   ok COMMAND COUNT            successful calls
 *   errno COMMAND ENAME COUNT   failed calls, by errno (the module's)
 *   raced COMMAND ENAME COUNT   EBADF, and ENOTTY of a file the racer
 *                               closed or replaced (the VFS's, not the
 *                               module's)
 *   checked arguments N arrays N reads N records N sources N
 *                               how many calls the rules compared
 *   sources built N predicted N joined N refused N
 *                               joins (and batch entries) built with a
 *                               source array, held to the model, that
 *                               worked, that failed as the model said
 *   ipv6 joined N               IPv6 members that QUERY or LIST
 *                               reported joined, by rdma_mcm
 *                               (JOINED_BY_MCM: an IPv6 group really
 *                               joined on RoCE v2)
 *   calls N ok N failed N seconds S seed SEED violations N
 * COMMAND is VERSION ... SET_EVENTS, READ, POLL, UNKNOWN (a number the
 * module does not know), or BATCH_JOIN_ENTRY / BATCH_LEAVE_ENTRY (the
 * results of batch entries). The seed is printed first, so that --seed
 * replays a run (up to the interleaving of the threads). The exit status
 * is 1 when a rule was broken or the fuzzer itself failed (no device, no
 * memory).
 *
 * Needs the bench: 192.0.2.1 (rxe0) and 192.0.2.2 (rxe1), by default;
 * --src adds others (IPv6 too: contexts of IPv6 sources join IPv6 groups).
 * The model of a join with more sources than the namespace takes reads
 * net.ipv4.igmp_max_msf and net.ipv6.mld_max_msf at the start.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "mcm_fuzz.h"

const char * const cmd_name[NR_CMDS] = {
	"VERSION", "CREATE_CTX", "DESTROY_CTX", "JOIN", "LEAVE", "QUERY",
	"LIST", "BATCH_JOIN", "BATCH_LEAVE", "SET_EVENTS", "QUERY_CTX",
	"READ", "POLL",
	"UNKNOWN", "BATCH_JOIN_ENTRY", "BATCH_LEAVE_ENTRY",
};

const unsigned int cmd_num[NR_IOCTLS] = {
	RDMA_MCM_IOC_VERSION, RDMA_MCM_IOC_CREATE_CTX,
	RDMA_MCM_IOC_DESTROY_CTX, RDMA_MCM_IOC_JOIN, RDMA_MCM_IOC_LEAVE,
	RDMA_MCM_IOC_QUERY, RDMA_MCM_IOC_LIST, RDMA_MCM_IOC_BATCH_JOIN,
	RDMA_MCM_IOC_BATCH_LEAVE, RDMA_MCM_IOC_SET_EVENTS,
	RDMA_MCM_IOC_QUERY_CTX,
};

/* How often each kind of call is made (out of their sum). */
static const unsigned char cmd_weight[NR_CMDS] = {
	[C_VERSION] = 3, [C_CREATE_CTX] = 6, [C_DESTROY_CTX] = 3,
	[C_JOIN] = 22, [C_LEAVE] = 16, [C_QUERY] = 10, [C_LIST] = 8,
	[C_BATCH_JOIN] = 7, [C_BATCH_LEAVE] = 6, [C_SET_EVENTS] = 4,
	[C_QUERY_CTX] = 5,
	[C_READ] = 12, [C_POLL] = 5, [C_UNKNOWN] = 4,
};

const struct layout layouts[NR_IOCTLS] = {
	[C_VERSION] = {
		.size = sizeof(struct rdma_mcm_version),
		.ver0 = RDMA_MCM_VERSION_SIZE_VER0,
		.out_off = 0,
		.out_len = sizeof(struct rdma_mcm_version),
	},
	[C_CREATE_CTX] = {
		.size = sizeof(struct rdma_mcm_create_ctx),
		.ver0 = RDMA_MCM_CREATE_CTX_SIZE_VER0,
		.ctx_id = OFF(rdma_mcm_create_ctx, ctx_id),
		.flags = OFF(rdma_mcm_create_ctx, flags),
		.addr_len = OFF(rdma_mcm_create_ctx, src_len),
		.addr = OFF(rdma_mcm_create_ctx, src),
		.reserved = OFF(rdma_mcm_create_ctx, reserved),
		.out_off = AT(rdma_mcm_create_ctx, ctx_id),
		.out_len = sizeof(uint32_t),
	},
	[C_DESTROY_CTX] = {
		.size = sizeof(struct rdma_mcm_destroy_ctx),
		.ver0 = RDMA_MCM_DESTROY_CTX_SIZE_VER0,
		.ctx_id = OFF(rdma_mcm_destroy_ctx, ctx_id),
		.reserved = OFF(rdma_mcm_destroy_ctx, reserved),
	},
	[C_JOIN] = {
		.size = sizeof(struct rdma_mcm_join),
		.ver0 = RDMA_MCM_JOIN_SIZE_VER0,
		.ctx_id = OFF(rdma_mcm_join, ctx_id),
		.handle = OFF(rdma_mcm_join, handle),
		.flags = OFF(rdma_mcm_join, join_flags),
		.addr_len = OFF(rdma_mcm_join, addr_len),
		.addr = OFF(rdma_mcm_join, addr),
		.sources = OFF(rdma_mcm_join, sources),
		.out_off = AT(rdma_mcm_join, handle),
		.out_len = sizeof(uint32_t),
	},
	[C_LEAVE] = {
		.size = sizeof(struct rdma_mcm_leave),
		.ver0 = RDMA_MCM_LEAVE_SIZE_VER0,
		.ctx_id = OFF(rdma_mcm_leave, ctx_id),
		.handle = OFF(rdma_mcm_leave, handle),
		.flags = OFF(rdma_mcm_leave, flags),
		.addr_len = OFF(rdma_mcm_leave, addr_len),
		.addr = OFF(rdma_mcm_leave, addr),
		.reserved = OFF(rdma_mcm_leave, reserved),
		.out_off = AT(rdma_mcm_leave, events_reported),
		.out_len = sizeof(uint32_t),
	},
	[C_QUERY] = {
		.size = sizeof(struct rdma_mcm_query),
		.ver0 = RDMA_MCM_QUERY_SIZE_VER0,
		.ctx_id = OFF(rdma_mcm_query, ctx_id),
		.handle = OFF(rdma_mcm_query, handle),
		.reserved = OFF(rdma_mcm_query, member.status),
		.out_off = AT(rdma_mcm_query, member),
		.out_len = sizeof(struct rdma_mcm_member),
	},
	[C_LIST] = {
		.size = sizeof(struct rdma_mcm_list),
		.ver0 = RDMA_MCM_LIST_SIZE_VER0,
		.ctx_id = OFF(rdma_mcm_list, ctx_id),
		.entries = OFF(rdma_mcm_list, entries),
		.count = OFF(rdma_mcm_list, count),
		.entry_size = OFF(rdma_mcm_list, entry_size),
		.start = OFF(rdma_mcm_list, start),
		.reserved = OFF(rdma_mcm_list, reserved),
		/* count and next */
		.out_off = AT(rdma_mcm_list, count),
		.out_len = 2 * sizeof(uint32_t),
	},
	[C_BATCH_JOIN] = {
		.size = sizeof(struct rdma_mcm_batch),
		.ver0 = RDMA_MCM_BATCH_SIZE_VER0,
		.ctx_id = OFF(rdma_mcm_batch, ctx_id),
		.entries = OFF(rdma_mcm_batch, entries),
		.count = OFF(rdma_mcm_batch, count),
		.entry_size = OFF(rdma_mcm_batch, entry_size),
		.done = OFF(rdma_mcm_batch, done),
		.out_off = AT(rdma_mcm_batch, done),
		.out_len = sizeof(uint32_t),
	},
	[C_BATCH_LEAVE] = {
		.size = sizeof(struct rdma_mcm_batch),
		.ver0 = RDMA_MCM_BATCH_SIZE_VER0,
		.ctx_id = OFF(rdma_mcm_batch, ctx_id),
		.entries = OFF(rdma_mcm_batch, entries),
		.count = OFF(rdma_mcm_batch, count),
		.entry_size = OFF(rdma_mcm_batch, entry_size),
		.done = OFF(rdma_mcm_batch, done),
		.out_off = AT(rdma_mcm_batch, done),
		.out_len = sizeof(uint32_t),
	},
	[C_SET_EVENTS] = {
		.size = sizeof(struct rdma_mcm_set_events),
		.ver0 = RDMA_MCM_SET_EVENTS_SIZE_VER0,
		/* the low half of the mask, for M_FLAGS */
		.flags = OFF(rdma_mcm_set_events, event_mask),
		.reserved = OFF(rdma_mcm_set_events, reserved),
		/* event_mask and event_size */
		.out_off = AT(rdma_mcm_set_events, event_mask),
		.out_len = sizeof(uint64_t) + sizeof(uint32_t),
	},
	[C_QUERY_CTX] = {
		.size = sizeof(struct rdma_mcm_query_ctx),
		.ver0 = RDMA_MCM_QUERY_CTX_SIZE_VER0,
		.ctx_id = OFF(rdma_mcm_query_ctx, ctx_id),
		.reserved = OFF(rdma_mcm_query_ctx, reserved),
		/* flags .. dev_name: outputs, zero on input */
		.out_off = AT(rdma_mcm_query_ctx, flags),
		.out_len = AT(rdma_mcm_query_ctx, reserved) -
			   AT(rdma_mcm_query_ctx, flags),
	},
};

/* Batch entries; their outputs are [out_off, out_off + out_len). */
const struct layout join_entry_layout = {
	.size = sizeof(struct rdma_mcm_join_entry),
	.ver0 = RDMA_MCM_JOIN_ENTRY_SIZE_VER0,
	.handle = OFF(rdma_mcm_join_entry, handle),
	.flags = OFF(rdma_mcm_join_entry, join_flags),
	.addr_len = OFF(rdma_mcm_join_entry, addr_len),
	.addr = OFF(rdma_mcm_join_entry, addr),
	.sources = OFF(rdma_mcm_join_entry, sources),
	.reserved = OFF(rdma_mcm_join_entry, result),
	/* handle and result */
	.out_off = AT(rdma_mcm_join_entry, handle),
	.out_len = 2 * sizeof(uint32_t),
};

const struct layout leave_entry_layout = {
	.size = sizeof(struct rdma_mcm_leave_entry),
	.ver0 = RDMA_MCM_LEAVE_ENTRY_SIZE_VER0,
	.handle = OFF(rdma_mcm_leave_entry, handle),
	.flags = OFF(rdma_mcm_leave_entry, flags),
	.addr_len = OFF(rdma_mcm_leave_entry, addr_len),
	.addr = OFF(rdma_mcm_leave_entry, addr),
	.reserved = OFF(rdma_mcm_leave_entry, reserved),
	/* result and events_reported */
	.out_off = AT(rdma_mcm_leave_entry, result),
	.out_len = 2 * sizeof(uint32_t),
};

/* The namespace's source limits (-1: not known, not modelled) */
long igmp_max_msf = -1, mld_max_msf = -1;

/* Settings */
static uint64_t seed;
static unsigned long max_calls = 20000;
static unsigned int max_seconds;
int nr_threads = 2;
struct src srcs[MAX_SRCS];
int nr_srcs;

/* Shared state */
struct worker *workers;
size_t page_size;
uint8_t *none_page;
int null_fd = -1;
static unsigned long issued;
static int stopping;
static double t_start;
static unsigned int progress_shown;

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* ------------------------------------------------------------ calls */

void record(struct worker *w, int cmd, int err, int raced)
{
	int e = err < MAX_ERRNO ? err : MAX_ERRNO - 1;

	/*
	 * EBADF is always the VFS's: the module never returns it (the
	 * descriptor was closed under the call, in a window the generation
	 * check cannot always see). ENOTTY is the VFS's or /dev/null's only
	 * when the file changed under the call.
	 */
	w->st->calls++;
	if (!err)
		w->st->ok[cmd]++;
	else if ((raced && err == ENOTTY) || err == EBADF)
		w->st->raced[cmd][e]++;
	else
		w->st->err[cmd][e]++;
}

/* A u32 field (offset plus one) of the argument as passed, else 0. */
static uint32_t in32(const struct call *c, unsigned int off1)
{
	uint32_t v = 0;

	saved32(c, off1 - 1, &v);
	return v;
}

/* Read a u32 of the argument back, if it is ours and readable. */
static int arg_get32(struct call *c, unsigned int off1, uint32_t *v)
{
	size_t avail = c->usize - c->arg_cut;

	if (c->arg_where == W_BAD || !off1 || off1 - 1 + 4 > avail)
		return 0;
	*v = get32(c->argp, off1);
	return 1;
}

/* What a successful (or partly done) call tells about the slot. */
static void track(struct worker *w, struct slot *s, struct call *c, int cmd,
		  int err)
{
	const struct layout *l = &layouts[c->op];
	uint32_t id, handle, done, i, evicted, flags;
	struct rdma_mcm_destroy_ctx d = { 0 };
	uint16_t family;
	const uint8_t *e;
	int32_t result;

	if (cmd != c->op)
		return;
	switch (cmd) {
	case C_CREATE_CTX:
		if (err || !arg_get32(c, l->ctx_id, &id))
			return;
		/* the family the kernel took, mutated or not */
		family = c->ctx.family;
		if (c->saved_len >= AT(rdma_mcm_create_ctx, src) + 2)
			memcpy(&family, c->saved + AT(rdma_mcm_create_ctx, src),
			       sizeof(family));
		add_ctx(w, s, id, family, &evicted);
		if (!evicted)
			return;
		/* keep the file's contexts bounded: destroy the one dropped */
		d.ctx_id = evicted;
		err = ioctl(s->fd, RDMA_MCM_IOC_DESTROY_CTX, &d) ? errno : 0;
		record(w, C_DESTROY_CTX, err, 0);
		del_ctx(w, s, evicted);
		return;
	case C_DESTROY_CTX:
		if (!err)
			del_ctx(w, s, in32(c, l->ctx_id));
		return;
	case C_JOIN:
		if (!err && arg_get32(c, l->handle, &handle))
			add_member(w, s, in32(c, l->ctx_id), handle, c->group);
		return;
	case C_LEAVE:
		if (err)
			return;
		flags = in32(c, l->flags);
		del_member(w, s, in32(c, l->ctx_id), in32(c, l->handle),
			   flags & RDMA_MCM_LEAVE_BY_ADDR, c->group);
		return;
	case C_BATCH_JOIN:
	case C_BATCH_LEAVE:
		if (!c->arr || c->arr_where == W_BAD ||
		    in32(c, l->entry_size) != c->entry_size ||
		    !arg_get32(c, l->done, &done))
			return;
		id = in32(c, l->ctx_id);
		for (i = 0; i < done && i < c->nr_built; i++) {
			e = c->arr + (size_t)i * c->entry_size;
			if ((size_t)(i + 1) * c->entry_size >
			    c->arr_len - c->arr_cut)
				return;
			if (c->egroup[i] == -2)
				continue;
			if (cmd == C_BATCH_JOIN) {
				result = get32(e, OFF(rdma_mcm_join_entry,
						      result));
				handle = get32(e, OFF(rdma_mcm_join_entry,
						      handle));
				if (!result)
					add_member(w, s, id, handle,
						   c->egroup[i]);
			} else {
				result = get32(e, OFF(rdma_mcm_leave_entry,
						      result));
				handle = get32(e, OFF(rdma_mcm_leave_entry,
						      handle));
				flags = get32(e, OFF(rdma_mcm_leave_entry,
						     flags));
				if (!result)
					del_member(w, s, id, handle, flags,
						   c->egroup[i]);
			}
		}
		return;
	default:
		return;
	}
}

static int blocking_read_ok(struct worker *w, int fd)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };

	if (poll(&p, 1, 0) == 1 && (p.revents & POLLIN))
		return 1;
	/* now and then, block until the racer interrupts us */
	return one_in(&w->rng, 32);
}

/*
 * A read(); returns 0 when it would block for long (and was not made).
 * On the worker's own file (not @peer), unless the racer got in, what it
 * returned is held to what the file asked to read.
 */
static int do_read(struct worker *w, struct slot *s, int fd, int st,
		   unsigned long g1, int peer)
{
	static const size_t lens[] = {
		0, 1, EV_SIZE - 1, EV_SIZE, EV_SIZE + 1, 2 * EV_SIZE,
		8 * EV_SIZE, 4096, 1 << 20, SSIZE_MAX, SIZE_MAX,
	};
	struct rng *r = &w->rng;
	uint8_t *buf;
	size_t len;
	ssize_t ret;
	int err, raced;

	len = one_in(r, 3) ? rnd_below(r, 2048) :
			     lens[rnd_below(r, ARRAY_LEN(lens))];
	switch (rnd_below(r, 8)) {
	case 0:
		buf = (uint8_t *)(uintptr_t)bad_ptr(r);
		break;
	case 1:
		buf = w->ro + ARG_ROOM;
		break;
	case 2:	/* room for a whole number of events, or not, then guard */
		buf = w->ge_end - (len < ARR_ROOM ? len : ARR_ROOM) +
		      (one_in(r, 2) ? rnd_below(r, 16) : 0);
		break;
	default:
		buf = w->ge + rnd_below(r, 8);
		break;
	}
	if (!load_int(&s->nonblock) && st == S_DEV &&
	    !blocking_read_ok(w, fd))
		return 0;
	/* the fd may be another slot's blocking file by now: always */
	store_int(&w->in_block, 1);
	ret = read(fd, buf, len);
	err = ret < 0 ? errno : 0;
	store_int(&w->in_block, 0);
	raced = (g1 & 1) || g1 != load_ul(&s->gen) || st != S_DEV;
	record(w, C_READ, err, raced);
	if (!peer && !raced)
		model_read(w, s, buf, len, ret, err);
	return 1;
}

static void do_poll(struct worker *w, struct slot *s, unsigned long g1,
		    int st)
{
	struct pollfd p[NR_SLOTS + 1];
	struct rng *r = &w->rng;
	int i, n = 0, ret, err, nval = 0;

	p[n].fd = load_int(&s->fd);
	p[n++].events = POLLIN | (one_in(r, 4) ? (short)rnd(r) : 0);
	for (i = 0; i < NR_SLOTS; i++) {
		if (&w->slot[i] == s || one_in(r, 2))
			continue;
		p[n].fd = load_int(&w->slot[i].fd);
		p[n++].events = POLLIN | POLLOUT;
	}
	ret = poll(p, n, one_in(r, 16) ? 1 : 0);
	err = ret < 0 ? errno : 0;
	for (i = 0; ret > 0 && i < n; i++)
		nval |= p[i].revents & POLLNVAL;
	if (nval && !err)
		err = EBADF;	/* as raced */
	record(w, C_POLL, err, nval || (g1 & 1) || st != S_DEV ||
	       g1 != load_ul(&s->gen));
}

/*
 * SET_EVENTS goes to the slot's own file and no other: made under the
 * slot's lock, which keeps the racer out, and only while the file is the
 * one the model describes. Returns the descriptor, or -1 (the lock is not
 * held then, and the call is not made).
 */
static int lock_own_file(struct slot *s, unsigned long g1)
{
	pthread_mutex_lock(&s->lock);
	if (s->state == S_DEV && load_ul(&s->gen) == g1 &&
	    g1 == s->seen_gen)
		return s->fd;
	pthread_mutex_unlock(&s->lock);
	return -1;
}

/*
 * One call: mostly on a file of the worker's (@s, whose ids it tracks in
 * the same struct), now and then on a peer's file, with the peer's
 * contexts (@t, a view) and nothing tracked: then read() and poll() race
 * the owner's commands on one file. What a file reads is its owner's
 * business: a peer never makes SET_EVENTS. Returns 0 when no call was
 * made (a SET_EVENTS whose file the racer had changed).
 */
static int one_call(struct worker *w)
{
	struct rng *r = &w->rng;
	struct call c = { 0 };
	struct slot *s, *t;
	unsigned long g1;
	int i, n, cmd, fd, st, err, raced, tries, peer = 0, locked = 0;

	i = rnd_below(r, NR_SLOTS);
	s = &w->slot[i];
	t = s;
	if (nr_threads > 1 && one_in(r, 16)) {
		n = rnd_below(r, nr_threads);
		peer = n != w->index;
		s = &workers[n].slot[i];
		t = s;
		if (peer) {
			t = &w->view;
			borrow(t, s);
		}
	}
	if (!peer)
		store_int(&w->cur, i);
	g1 = load_ul(&s->gen);
	if (!peer && g1 != s->seen_gen && !(g1 & 1)) {
		/* the racer closed or replaced the file: a new life */
		forget_all(s);
		s->seen_gen = g1;
	}
	st = load_int(&s->state);
	if (!peer && ((st != S_DEV && !one_in(r, 4)) || one_in(r, 2000))) {
		reopen(w, s);
		g1 = load_ul(&s->gen);
		st = load_int(&s->state);
	}
	fd = load_int(&s->fd);

	c.op = pick_weighted(r, cmd_weight, NR_CMDS);
	if (!t->nr_ctx && !peer && !one_in(r, 4))
		c.op = C_CREATE_CTX;
	if (c.op == C_SET_EVENTS && peer)
		c.op = C_VERSION;
	if (c.op == C_READ && do_read(w, s, fd, st, g1, peer))
		return 1;
	if (c.op == C_READ || c.op == C_POLL) {
		do_poll(w, s, g1, st);
		return 1;
	}

	memset(w->abuf, 0, w->dirty);
	w->dirty = 256;
	if (c.op == C_UNKNOWN) {
		build_unknown(w, &c);
	} else {
		build(w, t, &c);
		/*
		 * a peer's view of the owner's contexts may be stale, or torn
		 * (an id of the file the racer replaced with the family of
		 * another): the model takes no family from it
		 */
		if (peer)
			c.ctx_known = 0;
		n = rnd_below(r, 100);
		n = n < 45 ? 0 : n < 75 ? 1 : n < 90 ? 2 : 3;
		for (tries = 0; n && tries < 16; tries++) {
			if (mutate(w, t, &c)) {
				n--;
				c.mutated++;
			}
		}
		place_array(w, &c);
	}
	place_arg(w, &c);
	save_call(w, &c);
	save_sources(w);
	if (c.op == C_SET_EVENTS) {
		fd = lock_own_file(s, g1);
		if (fd < 0)
			return 0;
		locked = 1;
	}

	cmd = classify(c.ioc);
	c.fd = fd;
	err = ioctl(fd, c.ioc, c.argp) ? errno : 0;
	raced = (g1 & 1) || g1 != load_ul(&s->gen) || st != S_DEV;
	record(w, cmd, err, raced);
	check_call(w, &c, cmd, err, raced);
	check_sources_unwritten(w);
	if (locked) {
		if (cmd == C_SET_EVENTS && !raced)
			model_set_events(s, &c, err);
		pthread_mutex_unlock(&s->lock);
	}
	if (!peer && !raced &&
	    (!err || cmd == C_BATCH_JOIN || cmd == C_BATCH_LEAVE))
		track(w, s, &c, cmd, err);
	return 1;
}

/* ------------------------------------------------------------ threads */

static void show_progress(unsigned long n)
{
	double t = now() - t_start;
	unsigned int tenth = 0, x;

	if (max_calls)
		tenth = n * 10 / max_calls;
	if (max_seconds) {
		x = t * 10 / max_seconds;
		if (x > tenth)
			tenth = x;
	}
	x = __atomic_load_n(&progress_shown, __ATOMIC_SEQ_CST);
	if (tenth <= x || tenth >= 10 ||
	    !__atomic_compare_exchange_n(&progress_shown, &x, tenth, 0,
					 __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST))
		return;
	fprintf(stderr, "mcm_fuzz: %u0%%: %lu calls in %.1f s\n", tenth, n, t);
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	unsigned long n;

	for (;;) {
		if (load_int(&stopping))
			break;
		n = __atomic_fetch_add(&issued, 1, __ATOMIC_SEQ_CST);
		if (max_calls && n >= max_calls)
			break;
		if (!(n & 255)) {
			if (max_seconds && now() - t_start >= max_seconds) {
				store_int(&stopping, 1);
				break;
			}
			show_progress(n);
		}
		/* a call not made is not counted: another one is */
		if (!one_call(w))
			__atomic_fetch_sub(&issued, 1, __ATOMIC_SEQ_CST);
	}
	store_int(&w->done, 1);
	return NULL;
}

static void *racer_main(void *arg)
{
	struct worker *w = arg;
	struct rng *r = &w->racer_rng;
	int i;

	while (!load_int(&w->done)) {
		usleep(100 + rnd_below(r, 1500));
		if (load_int(&w->in_block)) {
			pthread_kill(w->thread, SIGUSR1);
			continue;
		}
		if (!one_in(r, 8))
			continue;
		i = load_int(&w->cur);
		if (one_in(r, 2))
			i = rnd_below(r, NR_SLOTS);
		race_slot(&w->slot[i], r);
	}
	return NULL;
}

static void on_kick(int sig)
{
	(void)sig;
}

static uint8_t *map_guarded(size_t len)
{
	uint8_t *p = mmap(NULL, len + page_size, PROT_READ | PROT_WRITE,
			  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		die("mmap");
	if (mprotect(p + len, page_size, PROT_NONE))
		die("mprotect");
	return p;
}

static void worker_init(struct worker *w, int index)
{
	int i;

	w->index = index;
	rng_init(&w->rng, seed + 2 * index);
	rng_init(&w->racer_rng, seed + 2 * index + 1);
	w->st = calloc(1, sizeof(*w->st));
	w->abuf = calloc(1, ARG_ROOM + 64);
	if (!w->st || !w->abuf)
		die("calloc");
	w->dirty = ARG_ROOM;
	w->ga = map_guarded(ARG_ROOM);
	w->ga_end = w->ga + ARG_ROOM;
	w->ge = map_guarded(ARR_ROOM);
	w->ge_end = w->ge + ARR_ROOM;
	w->ro = map_guarded(ARG_ROOM + ARR_ROOM);
	w->ro_open = 1;
	w->gs = map_guarded(SRC_ROOM);
	w->gs_end = w->gs + SRC_ROOM;
	w->save_src = malloc(SRC_ROOM);
	if (!w->save_src)
		die("malloc");
	w->save_arg = malloc(ARG_ROOM + 64);
	w->save_arr = malloc(ARR_ROOM);
	if (!w->save_arg || !w->save_arr)
		die("malloc");
	ro_sealed(w);
	w->stale_ctx = 1;
	w->stale_handle = 1;
	for (i = 0; i < NR_SLOTS; i++) {
		struct slot *s = &w->slot[i];

		pthread_mutex_init(&s->lock, NULL);
		s->nonblock = 1;
		s->fd = open_dev(1);
		if (s->fd < 0)
			die("open " DEV_PATH);
		s->state = S_DEV;
		forget_all(s);
	}
}

/* ------------------------------------------------------------ main */

static void add_src(const char *text)
{
	struct sockaddr_in *sin;
	struct sockaddr_in6 *sin6;

	if (nr_srcs == MAX_SRCS) {
		fprintf(stderr, "mcm_fuzz: at most %d --src\n", MAX_SRCS);
		exit(2);
	}
	sin = (struct sockaddr_in *)&srcs[nr_srcs].ss;
	sin6 = (struct sockaddr_in6 *)&srcs[nr_srcs].ss;
	if (inet_pton(AF_INET, text, &sin->sin_addr) == 1) {
		sin->sin_family = AF_INET;
		srcs[nr_srcs++].len = sizeof(*sin);
	} else if (inet_pton(AF_INET6, text, &sin6->sin6_addr) == 1) {
		sin6->sin6_family = AF_INET6;
		srcs[nr_srcs++].len = sizeof(*sin6);
	} else {
		fprintf(stderr, "mcm_fuzz: bad --src %s\n", text);
		exit(2);
	}
}

static void usage(void)
{
	fprintf(stderr,
		"Usage: mcm_fuzz [--seed N] [--calls N] [--seconds S]\n"
		"                [--threads T] [--src ADDR]...\n"
		"  --calls 0 runs until --seconds; --seconds 0 has no limit\n");
	exit(2);
}

static void parse_args(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "seed", required_argument, NULL, 's' },
		{ "calls", required_argument, NULL, 'n' },
		{ "seconds", required_argument, NULL, 't' },
		{ "threads", required_argument, NULL, 'j' },
		{ "src", required_argument, NULL, 'a' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c, have_seed = 0;

	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 's':
			seed = strtoull(optarg, NULL, 0);
			have_seed = 1;
			break;
		case 'n':
			max_calls = strtoul(optarg, NULL, 0);
			break;
		case 't':
			max_seconds = strtoul(optarg, NULL, 0);
			break;
		case 'j':
			nr_threads = atoi(optarg);
			break;
		case 'a':
			add_src(optarg);
			break;
		default:
			usage();
		}
	}
	if (optind != argc || nr_threads < 1 || nr_threads > MAX_THREADS ||
	    (!max_calls && !max_seconds))
		usage();
	if (!nr_srcs) {
		add_src("192.0.2.1");
		add_src("192.0.2.2");
	}
	if (!have_seed)
		seed = (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 32);
}

static const char *errname(int e, char *buf, size_t len)
{
	const char *name = e == MAX_ERRNO - 1 ? NULL : strerrorname_np(e);

	if (name)
		return name;
	snprintf(buf, len, "E%d", e);
	return buf;
}

/* The histogram and the counts; returns the number of violations. */
static unsigned long report(double seconds)
{
	struct stats *t = calloc(1, sizeof(*t));
	unsigned long v;
	unsigned long ok = 0;
	char buf[16];
	int i, c, e;

	if (!t)
		die("calloc");
	for (i = 0; i < nr_threads; i++) {
		struct stats *s = workers[i].st;

		t->calls += s->calls;
		t->violations += s->violations;
		t->args_checked += s->args_checked;
		t->arrays_checked += s->arrays_checked;
		t->reads_checked += s->reads_checked;
		t->records += s->records;
		t->src_built += s->src_built;
		t->src_predicted += s->src_predicted;
		t->src_ok += s->src_ok;
		t->src_refused += s->src_refused;
		t->v6_joined += s->v6_joined;
		for (c = 0; c < NR_CMDS; c++) {
			t->ok[c] += s->ok[c];
			for (e = 0; e < MAX_ERRNO; e++) {
				t->err[c][e] += s->err[c][e];
				t->raced[c][e] += s->raced[c][e];
			}
		}
	}
	for (c = 0; c < NR_CMDS; c++) {
		printf("ok %s %lu\n", cmd_name[c], t->ok[c]);
		if (c < C_JOIN_ENTRY)
			ok += t->ok[c];
	}
	for (c = 0; c < NR_CMDS; c++)
		for (e = 0; e < MAX_ERRNO; e++)
			if (t->err[c][e])
				printf("errno %s %s %lu\n", cmd_name[c],
				       errname(e, buf, sizeof(buf)),
				       t->err[c][e]);
	for (c = 0; c < NR_CMDS; c++)
		for (e = 0; e < MAX_ERRNO; e++)
			if (t->raced[c][e])
				printf("raced %s %s %lu\n", cmd_name[c],
				       errname(e, buf, sizeof(buf)),
				       t->raced[c][e]);
	printf("checked arguments %lu arrays %lu reads %lu records %lu sources %lu\n",
	       t->args_checked, t->arrays_checked, t->reads_checked,
	       t->records, t->src_predicted);
	printf("sources built %lu predicted %lu joined %lu refused %lu\n",
	       t->src_built, t->src_predicted, t->src_ok, t->src_refused);
	printf("ipv6 joined %lu\n", t->v6_joined);
	printf("calls %lu ok %lu failed %lu seconds %.1f seed %llu violations %lu\n",
	       t->calls, ok, t->calls - ok, seconds,
	       (unsigned long long)seed, t->violations);
	v = t->violations;
	free(t);
	return v;
}

int main(int argc, char **argv)
{
	struct sigaction sa = { .sa_handler = on_kick };
	int i, j;

	parse_args(argc, argv);
	igmp_max_msf = read_long("/proc/sys/net/ipv4/igmp_max_msf");
	mld_max_msf = read_long("/proc/sys/net/ipv6/mld_max_msf");
	printf("mcm_fuzz: seed %llu calls %lu seconds %u threads %d",
	       (unsigned long long)seed, max_calls, max_seconds, nr_threads);
	printf(" igmp_max_msf %ld mld_max_msf %ld\n", igmp_max_msf,
	       mld_max_msf);
	fflush(stdout);

	/* no SA_RESTART: a blocking read() the racer kicks returns EINTR */
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGUSR1, &sa, NULL))
		die("sigaction");
	page_size = sysconf(_SC_PAGESIZE);
	none_page = mmap(NULL, page_size, PROT_NONE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (none_page == MAP_FAILED)
		die("mmap");
	null_fd = open("/dev/null", O_RDWR | O_CLOEXEC);
	if (null_fd < 0)
		die("open /dev/null");
	workers = calloc(nr_threads, sizeof(*workers));
	if (!workers)
		die("calloc");
	for (i = 0; i < nr_threads; i++)
		worker_init(&workers[i], i);

	t_start = now();
	for (i = 0; i < nr_threads; i++) {
		if (pthread_create(&workers[i].thread, NULL, worker_main,
				   &workers[i]))
			die("pthread_create");
		if (pthread_create(&workers[i].racer, NULL, racer_main,
				   &workers[i]))
			die("pthread_create");
	}
	for (i = 0; i < nr_threads; i++) {
		pthread_join(workers[i].thread, NULL);
		pthread_join(workers[i].racer, NULL);
	}

	/* every membership goes with its file */
	for (i = 0; i < nr_threads; i++)
		for (j = 0; j < NR_SLOTS; j++)
			if (workers[i].slot[j].state != S_CLOSED)
				close(workers[i].slot[j].fd);
	return report(now() - t_start) ? 1 : 0;
}
