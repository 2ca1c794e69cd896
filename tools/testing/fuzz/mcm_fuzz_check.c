// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * mcm_fuzz: what every call must leave behind.
 *
 * Before each ioctl the argument as passed is saved (with CANARY bytes
 * after it where the fuzzer owns them), and so is every byte of the array
 * room that a batch or list could reach. Afterwards, whatever the racer
 * did to the file (the rules hold for any file of the device, and
 * /dev/null or a closed descriptor writes nothing):
 *  - a failed command wrote nothing back, not a byte (but the prefix a
 *    write-back reached before it faulted, for a command that reads no
 *    argument: VERSION); a batch whose handler ran wrote only done, and
 *    done = 0 when it failed before its first entry (ENOENT, EINVAL,
 *    E2BIG);
 *  - a successful one wrote only its outputs, within the smaller of the
 *    caller's and the kernel's size (nothing of a longer caller's zero
 *    tail, nothing past the argument); a batch that succeeded did all its
 *    entries; the outputs are sane (ids and handles not 0, VERSION 1,
 *    QUERY and LIST members consistent, LIST's next 0 after a short page,
 *    SET_EVENTS the known types asked for and the smaller size);
 *  - batch and list arrays: only the outputs of the entries written
 *    changed (mcm_fuzz_check_arrays.c).
 * When the file was the device's own the whole call long, errnos of a
 * known cause are checked too: an argument shorter than its first version
 * is EINVAL, a longer one with a non-zero tail E2BIG, an unknown command
 * ENOTTY, SET_EVENTS with a non-zero reserved field or an event size
 * below 72 EINVAL (else it works; from read-only memory it fails),
 * CREATE_CTX with any source port fails for none of the port's reasons
 * (EADDRINUSE, EACCES, EINVAL), and no command fails with EIO: that is an
 * rdma_cm error the module did not expect, i.e. an argument it should
 * have refused itself. The status of an ERROR event or of a member in
 * state error is one of those uapi.rst lists. A JOIN read whole from the
 * fuzzer's memory, and every BATCH_JOIN entry below done, gets the answer
 * the model of its flags, group and source array says, and the source
 * arrays are never written (mcm_fuzz_src_model.c). QUERY and LIST members
 * report nr_sources and flags that can be: at most 64 sources, of full
 * members only, JOINED_BY_MCM the only flag, never for an IPv4 group.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdarg.h>
#include <stdio.h>
#include <sys/ioctl.h>

#include "mcm_fuzz.h"

#define MAX_SHOWN	100	/* violations printed; all are counted */

static unsigned int shown;

void violated(struct worker *w, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	w->st->violations++;
	if (__atomic_fetch_add(&shown, 1, __ATOMIC_SEQ_CST) >= MAX_SHOWN)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	printf("violation: %s (worker %d)\n", msg, w->index);
	fflush(stdout);
}

/* Was the violation found last printed (the first MAX_SHOWN are)? */
int violation_shown(void)
{
	return __atomic_load_n(&shown, __ATOMIC_SEQ_CST) <= MAX_SHOWN;
}

/* ------------------------------------------------------------ saving */

/* A u32 of the argument as passed, if the fuzzer saw it. */
int saved32(const struct call *c, unsigned int off, uint32_t *v)
{
	if (off + sizeof(*v) > c->saved_len)
		return 0;
	memcpy(v, c->saved + off, sizeof(*v));
	return 1;
}

int saved64(const struct call *c, unsigned int off, uint64_t *v)
{
	if (off + sizeof(*v) > c->saved_len)
		return 0;
	memcpy(v, c->saved + off, sizeof(*v));
	return 1;
}

static int is_batch(int cmd)
{
	return cmd == C_BATCH_JOIN || cmd == C_BATCH_LEAVE;
}

/* The bytes of the array room a batch or list passed as @c could reach. */
static size_t array_reach(const struct call *c, int cmd, uint8_t *end)
{
	const struct layout *l = &layouts[cmd];
	uint32_t count, esize;
	uint64_t n;

	if (saved32(c, l->count - 1, &count) &&
	    saved32(c, l->entry_size - 1, &esize))
		n = (uint64_t)count * esize;
	else
		n = c->arr_len - c->arr_cut;
	return n < (uint64_t)(end - c->arr) ? n : (size_t)(end - c->arr);
}

/*
 * Save what @c passes, after it is placed: the argument, CANARY bytes
 * after it where they are ours (the kernel must not write past the
 * caller's size), and the array room a batch or list could reach.
 */
void save_call(struct worker *w, struct call *c)
{
	int cmd = classify(c->ioc);
	size_t at;

	c->saved = w->save_arg;
	c->saved_len = 0;
	c->canary = 0;
	c->arr_saved = 0;
	if (c->arg_where != W_BAD) {
		c->saved_len = c->usize - c->arg_cut;
		if (c->arg_where == W_NORMAL || c->arg_where == W_UNALIGNED) {
			at = c->argp - w->abuf + c->usize;
			memset(c->argp + c->usize, CANARY_BYTE, CANARY);
			if (w->dirty < at + CANARY)
				w->dirty = at + CANARY;
			c->canary = CANARY;
		}
		memcpy(w->save_arg, c->argp, c->saved_len + c->canary);
	}
	if ((cmd == C_LIST || is_batch(cmd)) && cmd == c->op && c->arr &&
	    (c->arr_where == W_NORMAL || c->arr_where == W_UNALIGNED ||
	     c->arr_where == W_GUARD)) {
		c->arr_at = c->arr;
		c->arr_saved = array_reach(c, cmd, w->ge_end);
		c->saved_arr = w->save_arr;
		memcpy(w->save_arr, c->arr, c->arr_saved);
	}
}

/* ------------------------------------------------------------ the rules */

/*
 * Did the command's handler run: the module found the command, the
 * argument was long enough and, for a command that reads it, readable
 * and without a non-zero tail. (Only then can a batch write done.)
 */
static int handler_ran(const struct call *c, int cmd, int err)
{
	const struct layout *l = &layouts[cmd];
	size_t i;

	if (err == ENOTTY || err == EBADF || c->usize < l->ver0)
		return 0;
	if (!(_IOC_DIR(c->ioc) & _IOC_WRITE))
		return 1;
	if (c->arg_where == W_BAD || c->arg_cut)
		return 0;
	for (i = l->size; i < c->usize; i++)
		if (c->saved[i])
			return 0;
	return 1;
}

/* The argument can be written back (the kernel's copy reaches it all). */
int arg_writable(const struct call *c)
{
	return c->arg_where != W_BAD && c->arg_where != W_RO && !c->arg_cut;
}

static int tail_nonzero(const struct call *c, size_t from)
{
	size_t i;

	for (i = from; i < c->usize; i++)
		if (c->saved[i])
			return 1;
	return 0;
}

/* The source address CREATE_CTX was given, as text. */
static const char *src_text(const struct call *c, char *buf, size_t len)
{
	struct sockaddr_in6 sin6;
	struct sockaddr_in sin;
	const uint8_t *a = c->saved + AT(rdma_mcm_create_ctx, src);
	char ip[INET6_ADDRSTRLEN];
	uint16_t family;

	snprintf(buf, len, "?");
	if (c->saved_len < sizeof(struct rdma_mcm_create_ctx))
		return buf;
	memcpy(&family, a, sizeof(family));
	if (family == AF_INET) {
		memcpy(&sin, a, sizeof(sin));
		inet_ntop(AF_INET, &sin.sin_addr, ip, sizeof(ip));
		snprintf(buf, len, "%s", ip);
	} else if (family == AF_INET6) {
		memcpy(&sin6, a, sizeof(sin6));
		inet_ntop(AF_INET6, &sin6.sin6_addr, ip, sizeof(ip));
		snprintf(buf, len, "%s scope %u", ip, sin6.sin6_scope_id);
	} else {
		snprintf(buf, len, "family %u", family);
	}
	return buf;
}

/* The errnos whose cause the fuzzer knows; the file was the device's. */
static void check_errno(struct worker *w, const struct call *c, int cmd,
			int err)
{
	const struct layout *l;
	uint32_t rsv, size;
	unsigned int port;
	char text[80];
	int want = -1;

	if (cmd == C_UNKNOWN) {
		if (err != ENOTTY)
			violated(w, "unknown command 0x%08x: %s, not ENOTTY",
				 c->ioc, err ? strerrorname_np(err) : "0");
		return;
	}
	if (cmd >= NR_IOCTLS)
		return;
	l = &layouts[cmd];
	/*
	 * EIO is an rdma_cm error the module did not expect (the kernel log
	 * names it): an argument it let through unchecked.
	 */
	if (err == EIO)
		violated(w, "%s: EIO, an rdma_cm error the module did not expect (source %s)",
			 cmd_name[cmd], cmd == C_CREATE_CTX ?
			 src_text(c, text, sizeof(text)) : "-");
	if (c->usize < l->ver0)
		want = EINVAL;
	else if ((_IOC_DIR(c->ioc) & _IOC_WRITE) && c->arg_where != W_BAD &&
		 !c->arg_cut && tail_nonzero(c, l->size))
		want = E2BIG;
	else if (cmd == C_SET_EVENTS && c->arg_where != W_BAD &&
		 c->arg_where != W_RO && !c->arg_cut &&
		 saved32(c, AT(rdma_mcm_set_events, reserved), &rsv) &&
		 saved32(c, AT(rdma_mcm_set_events, event_size), &size))
		want = rsv || size < RDMA_MCM_EVENT_SIZE_VER0 ? EINVAL : 0;
	/* a read-only one: EFAULT, or EINVAL if the kernel checks first */
	if (cmd == C_SET_EVENTS && c->arg_where == W_RO && want < 0 &&
	    err != EFAULT && err != EINVAL)
		violated(w, "SET_EVENTS from read-only memory: %s",
			 err ? strerrorname_np(err) : "worked");
	if (want >= 0 && err != want)
		violated(w, "%s of %zu bytes (ver0 %u, size %u): %s, not %s",
			 cmd_name[cmd], c->usize, l->ver0, l->size,
			 err ? strerrorname_np(err) : "0 (it worked)",
			 want ? strerrorname_np(want) : "0");
	if (want < 0 && cmd == C_JOIN)
		check_join(w, c, err);
	/* sin_port and sin6_port, in network order */
	port = c->saved_len > AT(rdma_mcm_create_ctx, src) + 3 ?
	       c->saved[AT(rdma_mcm_create_ctx, src) + 2] << 8 |
	       c->saved[AT(rdma_mcm_create_ctx, src) + 3] : 0;
	if (cmd == C_CREATE_CTX && !c->mutated && c->arg_where == W_NORMAL &&
	    (err == EADDRINUSE || err == EACCES || err == EINVAL ||
	     err == EPERM))
		violated(w, "CREATE_CTX with source port %u: %s", port,
			 strerrorname_np(err));
}

void check_member(struct worker *w, const char *what,
		  const struct rdma_mcm_member *m)
{
	uint16_t family;
	int bad_status;

	/* a mutated CREATE_CTX flag may make a healing context: WAITING */
	if (m->state == RDMA_MCM_STATE_ERROR)
		bad_status = !status_documented(m->status);
	else if (m->state == RDMA_MCM_STATE_WAITING)
		bad_status = m->status != -ENETRESET &&
			     m->status != -ETIMEDOUT &&
			     m->status != -ENOMEM && m->status != -ENODEV &&
			     m->status != -EADDRNOTAVAIL &&
			     m->status != -ENETDOWN &&
			     m->status != -ENETUNREACH;
	else
		bad_status = m->status != 0;
	if (!m->handle || m->state > RDMA_MCM_STATE_WAITING || bad_status ||
	    m->reserved || m->join_flags > RDMA_MCM_JOIN_SENDONLY_FULLMEMBER ||
	    m->addr_len > RDMA_MCM_ADDR_SIZE)
		violated(w, "%s: handle %u state %u status %d flags %u addr_len %u rsvd %u",
			 what, m->handle, m->state, m->status, m->join_flags,
			 m->addr_len, m->reserved);
	/* the third version's: sources, and who joined (never an IPv4 group) */
	memcpy(&family, m->addr, sizeof(family));
	if (m->nr_sources > RDMA_MCM_MAX_SOURCES ||
	    (m->nr_sources && m->join_flags != RDMA_MCM_JOIN_FULLMEMBER) ||
	    (m->flags & ~RDMA_MCM_MEMBER_JOINED_BY_MCM) ||
	    (family == AF_INET && m->flags))
		violated(w, "%s: handle %u of family %u, join flags %u: nr_sources %u flags 0x%x",
			 what, m->handle, family, m->join_flags,
			 m->nr_sources, m->flags);
	/* an IPv6 group that rdma_mcm really joined on RoCE v2 */
	if (family == AF_INET6 && m->state == RDMA_MCM_STATE_JOINED &&
	    (m->flags & RDMA_MCM_MEMBER_JOINED_BY_MCM))
		w->st->v6_joined++;
}

/* QUERY_CTX answered: the context asked for, where it is */
static void check_query_ctx(struct worker *w, const struct call *c)
{
	struct rdma_mcm_query_ctx q;
	uint32_t in = 0;

	memcpy(&q, c->argp, sizeof(q));
	saved32(c, AT(rdma_mcm_query_ctx, ctx_id), &in);
	if (q.ctx_id != in ||
	    q.flags & ~(RDMA_MCM_CTX_HEAL | RDMA_MCM_CTX_ROUTE) ||
	    !q.src_len || q.src_len > RDMA_MCM_ADDR_SIZE || !q.port_num ||
	    !q.dev_name[0] || !memchr(q.dev_name, 0, sizeof(q.dev_name)) ||
	    q.reserved[0] || q.reserved[1])
		violated(w, "QUERY_CTX of %u: ctx_id %u flags 0x%x src_len %u port %u",
			 in, q.ctx_id, q.flags, q.src_len, q.port_num);
}

/* The outputs of a successful command, which wrote them back. */
static void check_outputs(struct worker *w, const struct call *c, int cmd)
{
	const uint8_t *a = c->argp;
	struct rdma_mcm_query q;
	uint32_t in = 0, out, next;
	uint64_t mask = 0, got;

	switch (cmd) {
	case C_VERSION:
		if (get32(a, OFF(rdma_mcm_version, abi_version)) !=
		    RDMA_MCM_ABI_VERSION ||
		    get32(a, OFF(rdma_mcm_version, features)) !=
		    FEATURES_KNOWN)
			violated(w, "VERSION: abi_version %u features 0x%x",
				 get32(a, OFF(rdma_mcm_version, abi_version)),
				 get32(a, OFF(rdma_mcm_version, features)));
		break;
	case C_CREATE_CTX:
		if (!get32(a, OFF(rdma_mcm_create_ctx, ctx_id)))
			violated(w, "CREATE_CTX worked with ctx_id 0");
		break;
	case C_JOIN:
		if (!get32(a, OFF(rdma_mcm_join, handle)))
			violated(w, "JOIN worked with handle 0");
		break;
	case C_QUERY_CTX:
		check_query_ctx(w, c);
		break;
	case C_QUERY:
		/* what the kernel wrote: the caller's size of it at most */
		memset(&q, 0, sizeof(q));
		memcpy(&q, a, c->usize < sizeof(q) ? c->usize : sizeof(q));
		check_member(w, "QUERY", &q.member);
		saved32(c, AT(rdma_mcm_query, handle), &in);
		if (q.member.handle != in)
			violated(w, "QUERY of handle %u reports handle %u",
				 in, q.member.handle);
		break;
	case C_LIST:
		saved32(c, AT(rdma_mcm_list, count), &in);
		out = get32(a, OFF(rdma_mcm_list, count));
		next = get32(a, OFF(rdma_mcm_list, next));
		if (out > in || (out < in && next))
			violated(w, "LIST of %u entries returned %u, next %u",
				 in, out, next);
		break;
	case C_BATCH_JOIN:
	case C_BATCH_LEAVE:
		saved32(c, AT(rdma_mcm_batch, count), &in);
		out = get32(a, OFF(rdma_mcm_batch, done));
		if (out != in)
			violated(w, "%s of %u entries worked with done %u",
				 cmd_name[cmd], in, out);
		break;
	case C_SET_EVENTS:
		saved64(c, AT(rdma_mcm_set_events, event_mask), &mask);
		saved32(c, AT(rdma_mcm_set_events, event_size), &in);
		got = get64(a, OFF(rdma_mcm_set_events, event_mask));
		out = get32(a, OFF(rdma_mcm_set_events, event_size));
		if (got != (mask & EVENTS_KNOWN) ||
		    out != (in < EV_SIZE ? in : EV_SIZE))
			violated(w, "SET_EVENTS mask 0x%llx size %u answered mask 0x%llx size %u",
				 (unsigned long long)mask, in,
				 (unsigned long long)got, out);
		break;
	default:
		break;
	}
}

/*
 * The argument: nothing but [@lo, @hi) may differ from what was passed,
 * nor any canary byte after it.
 */
static void check_arg_bytes(struct worker *w, const struct call *c, int cmd,
			    int err, size_t lo, size_t hi)
{
	size_t i, n = c->saved_len + c->canary;

	w->st->args_checked++;
	if (!memcmp(c->saved, c->argp, n))
		return;
	for (i = 0; i < n; i++) {
		if (c->saved[i] == c->argp[i] || (i >= lo && i < hi))
			continue;
		violated(w, "%s of %zu bytes (%s) wrote byte %zu%s: 0x%02x -> 0x%02x",
			 cmd < NR_CMDS ? cmd_name[cmd] : "?", c->usize,
			 err ? strerrorname_np(err) : "worked", i,
			 i >= c->saved_len ? " (past the caller's size)" : "",
			 c->saved[i], c->argp[i]);
		return;
	}
}

/*
 * After the ioctl @c, classified as @cmd, returned @err; @raced: the
 * file may not have been the device's the whole call long.
 */
void check_call(struct worker *w, struct call *c, int cmd, int err,
		int raced)
{
	const struct layout *l;
	size_t lo = 0, hi = 0, kept;
	uint32_t done;
	int ran;

	if (!raced)
		check_errno(w, c, cmd, err);
	if (cmd >= NR_IOCTLS) {
		if (c->saved_len || c->canary)
			check_arg_bytes(w, c, cmd, err, 0, 0);
		return;
	}
	l = &layouts[cmd];
	ran = handler_ran(c, cmd, err);
	kept = c->usize < l->size ? c->usize : l->size;
	if (!err && (_IOC_DIR(c->ioc) & _IOC_READ)) {
		lo = l->out_off;
		hi = l->out_off + l->out_len < kept ? l->out_off + l->out_len :
						      kept;
		check_outputs(w, c, cmd);
	} else if (err == EFAULT && c->arg_cut &&
		   !(_IOC_DIR(c->ioc) & _IOC_WRITE)) {
		/*
		 * Nothing was read in (VERSION): the write-back itself ran
		 * into the guard page, after writing what it could.
		 */
		hi = kept;
	} else if (err && is_batch(cmd) && ran && arg_writable(c)) {
		lo = AT(rdma_mcm_batch, done);
		hi = lo + sizeof(uint32_t);
		done = get32(c->argp, OFF(rdma_mcm_batch, done));
		if ((err == ENOENT || err == EINVAL || err == E2BIG) && done)
			violated(w, "%s failed with %s before its first entry, done %u, not 0",
				 cmd_name[cmd], strerrorname_np(err), done);
	}
	if (c->saved_len || c->canary)
		check_arg_bytes(w, c, cmd, err, lo, hi);
	if (cmd == c->op && (cmd == C_LIST || is_batch(cmd)))
		check_array(w, c, cmd, err, ran, raced);
}
