// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * mcm_fuzz: the answer a join must get, and the sources it passed.
 *
 * A JOIN the kernel read whole from the fuzzer's memory, and every
 * BATCH_JOIN entry below done, gets the answer the model of its flags,
 * group and source array says (below); a violation of it is printed with
 * what QUERY_CTX says of the join's context. The source arrays are never
 * written.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <sys/ioctl.h>

#include "mcm_fuzz.h"
#include "mcm_model.h"

/* ------------------------------------------------------------ joins */

/*
 * The model of a join's answer, from what the kernel sees of it (the
 * flags, the group, the sources): the char device checks, in this order,
 * the flags (EINVAL), the group's length and family (EINVAL,
 * EAFNOSUPPORT), then the sources: more than 64 (EINVAL), source_size
 * below 136 (EINVAL) or past 4096 (E2BIG), then each entry in turn as
 * copy_struct_from_user() reads it (a non-zero byte in the readable part
 * of its tail E2BIG, else EFAULT when not all of it is readable), its
 * reserved field (EINVAL), its length and family as the group's. Then
 * the limits (not modelled: never reached here), then the manager: the
 * group of another family than the context, or not multicast, or an IPv6
 * group of scope 0, 1 (interface-local) or 15 (EINVAL);
 * sources of a send-only join (EINVAL), of an AF_IB group (EOPNOTSUPP);
 * each source of another family, not unicast (multicast, 0.0.0.0/8,
 * 255.255.255.255, ::) or given twice (EINVAL). Past those, more sources
 * than the namespace's igmp_max_msf / mld_max_msf fail the join
 * (ENOBUFS, unless something else does first); fewer never give an
 * errno of the checks above, nor ENOBUFS.
 */
#define P_NONE		(-1)	/* not modelled */

struct jview {
	uint32_t flags, addr_len, nr, size;
	uint64_t sources;
	const uint8_t *addr;
};

struct pred {
	int cdev;	/* the char device's answer: 0 (passed) or an errno */
	int mgr;	/* the manager's checks: 0, an errno, or P_NONE */
	int over;	/* more sources than the namespace takes */
	uint32_t nr;	/* sources the kernel was given */
	char why[96];	/* the check that decided */
};

struct ipsrc {
	int family;
	uint8_t a[16];
};

/*
 * Bytes readable of the @size at user address @p (a prefix: 0 for none),
 * -1 when not known: the source room is followed by its guard page, which
 * is longer than any entry; the PROT_NONE page by anything.
 */
static long readable(const struct worker *w, uint64_t p, uint32_t size)
{
	uint64_t gs = (uintptr_t)w->gs, end = (uintptr_t)w->gs_end;
	uint64_t none = (uintptr_t)none_page;

	if (p >= gs && p < end)
		return end - p;
	if (p >= end && p < end + page_size)
		return 0;	/* the guard page */
	if (p >= none && p < none + page_size)
		return p + size <= none + page_size ? 0 : -1;
	if (p < 0x10000 || p >= 0x7ffffffff000ULL)
		return 0;	/* below mmap_min_addr, or not the user's */
	return -1;
}

static int is_multicast(int family, const uint8_t *sa)
{
	const struct sockaddr_in *sin = (const void *)sa;
	const struct sockaddr_in6 *sin6 = (const void *)sa;
	const struct mcm_sockaddr_ib *sib = (const void *)sa;
	struct sockaddr_in a4;
	struct sockaddr_in6 a6;
	struct mcm_sockaddr_ib ib;

	switch (family) {
	case AF_INET:
		memcpy(&a4, sin, sizeof(a4));
		return (ntohl(a4.sin_addr.s_addr) >> 28) == 0xe;
	case AF_INET6:
		/* and of a scope a link carries: not 0, 1 (interface-local), 15 */
		memcpy(&a6, sin6, sizeof(a6));
		return a6.sin6_addr.s6_addr[0] == 0xff &&
		       (a6.sin6_addr.s6_addr[1] & 0xf) > 1 &&
		       (a6.sin6_addr.s6_addr[1] & 0xf) != 0xf;
	default:
		memcpy(&ib, sib, sizeof(ib));
		return ib.sib_addr[0] == 0xff;
	}
}

/* What a join of @v on a context of @family (0: not known) gets */
static struct pred predict(const struct worker *w, const struct jview *v,
			   int family)
{
	struct pred p = { .cdev = 0, .mgr = 0, .nr = v->nr };
	char ip[INET6_ADDRSTRLEN];
	struct ipsrc src[RDMA_MCM_MAX_SOURCES];
	struct rdma_mcm_source e;
	int gfam = 0, sfam, err;
	uint32_t i, k, n;
	long avail;
	uint8_t b;

	if (v->flags > RDMA_MCM_JOIN_SENDONLY_FULLMEMBER) {
		p.cdev = EINVAL;
		snprintf(p.why, sizeof(p.why), "join flags");
		return p;
	}
	p.cdev = addr_errno(v->addr, v->addr_len, &gfam);
	snprintf(p.why, sizeof(p.why), "the group's length or family");
	if (p.cdev || !v->nr)
		goto manager;
	snprintf(p.why, sizeof(p.why), "nr_sources or source_size");
	if (v->nr > RDMA_MCM_MAX_SOURCES ||
	    v->size < RDMA_MCM_SOURCE_SIZE_VER0) {
		p.cdev = EINVAL;
		return p;
	}
	if (v->size > RDMA_MCM_MAX_ENTRY_SIZE) {
		p.cdev = E2BIG;
		return p;
	}
	for (i = 0; i < v->nr; i++) {
		const uint8_t *at = (const uint8_t *)(uintptr_t)
				    (v->sources + (uint64_t)i * v->size);

		avail = readable(w, (uintptr_t)at, v->size);
		if (avail < 0) {
			p.cdev = P_NONE;
			return p;
		}
		/* copy_struct_from_user(): the tail first, then the struct */
		n = avail < v->size ? avail : v->size;
		for (k = sizeof(e); k < n; k++) {
			memcpy(&b, at + k, 1);
			if (b)
				break;
		}
		snprintf(p.why, sizeof(p.why),
			 "source %u: %ld of %u bytes readable%s", i, avail,
			 v->size, k < n ? ", its tail not zero" : "");
		if (k < n) {
			p.cdev = E2BIG;
			return p;
		}
		if (n < v->size) {
			p.cdev = EFAULT;
			return p;
		}
		memcpy(&e, at, sizeof(e));
		snprintf(p.why, sizeof(p.why), "source %u: reserved %u, addr_len %u",
			 i, e.reserved, e.addr_len);
		if (e.reserved) {
			p.cdev = EINVAL;
			return p;
		}
		err = addr_errno(e.addr, e.addr_len, &sfam);
		if (err) {
			p.cdev = err;
			return p;
		}
		src[i].family = sfam;
		memset(src[i].a, 0, sizeof(src[i].a));
		if (sfam == AF_INET)
			memcpy(src[i].a, e.addr + offsetof(struct sockaddr_in,
							   sin_addr), 4);
		else if (sfam == AF_INET6)
			memcpy(src[i].a, e.addr + offsetof(struct sockaddr_in6,
							   sin6_addr), 16);
	}
manager:
	if (p.cdev)
		return p;
	if (!family) {
		p.mgr = P_NONE;
		return p;
	}
	snprintf(p.why, sizeof(p.why),
		 "a group of family %d on a context of %d, or not multicast",
		 gfam, family);
	if (gfam != family || !is_multicast(gfam, v->addr)) {
		p.mgr = EINVAL;
		return p;
	}
	if (!v->nr)
		return p;
	snprintf(p.why, sizeof(p.why), "sources of a send-only join");
	if (v->flags != RDMA_MCM_JOIN_FULLMEMBER) {
		p.mgr = EINVAL;
		return p;
	}
	snprintf(p.why, sizeof(p.why), "sources of an AF_IB group");
	if (gfam == AF_IB) {
		p.mgr = EOPNOTSUPP;
		return p;
	}
	for (i = 0; i < v->nr; i++) {
		if (src[i].family == AF_INET || src[i].family == AF_INET6)
			inet_ntop(src[i].family, src[i].a, ip, sizeof(ip));
		else
			snprintf(ip, sizeof(ip), "?");
		snprintf(p.why, sizeof(p.why),
			 "source %u: %s of family %d, not unicast or twice",
			 i, ip, src[i].family);
		if (src[i].family != gfam || !source_unicast(src[i].family, src[i].a)) {
			p.mgr = EINVAL;
			return p;
		}
		for (k = 0; k < i; k++)
			if (!memcmp(src[k].a, src[i].a, 16)) {
				p.mgr = EINVAL;
				return p;
			}
	}
	snprintf(p.why, sizeof(p.why), "%u sources, the namespace takes %ld",
		 v->nr, gfam == AF_INET ? igmp_max_msf : mld_max_msf);
	if (gfam == AF_INET && igmp_max_msf >= 0)
		p.over = v->nr > igmp_max_msf;
	else if (gfam == AF_INET6 && mld_max_msf >= 0)
		p.over = v->nr > mld_max_msf;
	else
		p.over = P_NONE;
	return p;
}

/* The errnos the checks the model knows of give */
static int check_errno_of(int err)
{
	return err == EINVAL || err == E2BIG || err == EAFNOSUPPORT ||
	       err == EFAULT || err == EOPNOTSUPP;
}

/*
 * After a violation of a join: where its context is, as QUERY_CTX says
 * (printed with the violations, to tell what kind of context it was).
 */
static void describe_ctx(const struct call *c, unsigned int ctx_off)
{
	struct rdma_mcm_query_ctx q = { 0 };
	char ip[INET6_ADDRSTRLEN] = "?";
	uint16_t family;

	if (!violation_shown() || !saved32(c, ctx_off, &q.ctx_id))
		return;
	if (ioctl(c->fd, RDMA_MCM_IOC_QUERY_CTX, &q)) {
		printf("violation: ... context %u: QUERY_CTX %s\n", q.ctx_id,
		       strerrorname_np(errno));
		return;
	}
	memcpy(&family, q.src, sizeof(family));
	if (family == AF_INET)
		inet_ntop(AF_INET, q.src + 4, ip, sizeof(ip));
	else if (family == AF_INET6)
		inet_ntop(AF_INET6, q.src + 8, ip, sizeof(ip));
	printf("violation: ... context %u: flags 0x%x, family %u, source %s, %s port %u\n",
	       q.ctx_id, q.flags, family, ip, q.dev_name, q.port_num);
}

/*
 * Hold a join's answer @err to the model (@entry: a batch entry, whose
 * context was looked up already: no ENOENT). Returns 1 on a violation.
 */
static int judge_join(struct worker *w, const char *what,
		      const struct jview *v, int family, int err, int entry)
{
	struct pred p = predict(w, v, family);
	const char *want;
	int ok;

	if (p.cdev == P_NONE)
		return 0;
	if (p.cdev) {
		ok = err == p.cdev || (!entry && err == ENOENT);
		want = strerrorname_np(p.cdev);
	} else if (p.mgr == P_NONE) {
		/* the group against a context of unknown family: EINVAL */
		ok = !err || err == EINVAL || !check_errno_of(err);
		want = "what the context's family says";
	} else if (p.mgr) {
		ok = err == p.mgr || (!entry && err == ENOENT);
		want = strerrorname_np(p.mgr);
	} else if (p.over == 1) {
		ok = err && !check_errno_of(err);
		want = "a failure: more sources than the namespace takes";
	} else {
		ok = !check_errno_of(err) && (err != ENOBUFS || p.over);
		want = "no errno of a check (nor ENOBUFS)";
	}
	if (p.nr) {
		w->st->src_predicted++;
		if (!err)
			w->st->src_ok++;
		else if (ok)
			w->st->src_refused++;
	}
	if (!ok)
		violated(w,
			 "%s (flags %u, addr_len %u, %u sources of %u at %llx): %s, not %s (%s)",
			 what, v->flags, v->addr_len, v->nr, v->size,
			 (unsigned long long)v->sources,
			 err ? strerrorname_np(err) : "0 (it worked)", want,
			 p.why);
	return !ok;
}

/*
 * The join's fields as the kernel sees @len bytes of @a: a JOIN, or a
 * BATCH_JOIN entry (@entry), its missing tail zero. @room: as big as the
 * struct (the two are of one size).
 */
static void join_view(struct jview *v, const uint8_t *a, size_t len,
		      uint8_t *room, size_t size, int entry)
{
	memset(room, 0, size);
	memcpy(room, a, len < size ? len : size);
	if (!entry) {
		const struct rdma_mcm_join *j = (const void *)room;

		v->flags = j->join_flags;
		v->addr_len = j->addr_len;
		v->addr = j->addr;
		v->sources = j->sources;
		v->nr = j->nr_sources;
		v->size = j->source_size;
	} else {
		const struct rdma_mcm_join_entry *e = (const void *)room;

		v->flags = e->join_flags;
		v->addr_len = e->addr_len;
		v->addr = e->addr;
		v->sources = e->sources;
		v->nr = e->nr_sources;
		v->size = e->source_size;
	}
}

/* The family of the call's context, if the model knows it (else 0) */
static int ctx_family(const struct call *c, unsigned int ctx_off)
{
	uint32_t id;

	if (!c->ctx_known || !saved32(c, ctx_off, &id) || id != c->ctx.id)
		return 0;
	return c->ctx.family;
}

/* A JOIN the kernel read whole from our memory: the model's answer */
void check_join(struct worker *w, const struct call *c, int err)
{
	uint8_t room[sizeof(struct rdma_mcm_join)] __attribute__((aligned(8)));
	struct jview v;

	if (c->op != C_JOIN || c->arg_cut ||
	    (c->arg_where != W_NORMAL && c->arg_where != W_UNALIGNED))
		return;
	join_view(&v, c->saved, c->saved_len, room, sizeof(room), 0);
	if (judge_join(w, "JOIN", &v, ctx_family(c, AT(rdma_mcm_join, ctx_id)),
		       err, 0))
		describe_ctx(c, AT(rdma_mcm_join, ctx_id));
}

/*
 * A BATCH_JOIN entry as passed (@in, @esize bytes) got @result: held to
 * the model, as the kernel saw the entry (a tail past its struct that is
 * not zero is the entry's E2BIG).
 */
void judge_entry(struct worker *w, const struct call *c,
		 const uint8_t *in, uint32_t esize, int32_t result)
{
	uint8_t room[sizeof(struct rdma_mcm_join_entry)]
		__attribute__((aligned(8)));
	struct jview v;
	uint32_t i;

	for (i = sizeof(room); i < esize; i++)
		if (in[i]) {
			if (result != -E2BIG)
				violated(w, "BATCH_JOIN entry of %u bytes, byte %u set: %d",
					 esize, i, result);
			return;
		}
	join_view(&v, in, esize, room, sizeof(room), 1);
	if (judge_join(w, "BATCH_JOIN entry", &v,
		       ctx_family(c, AT(rdma_mcm_batch, ctx_id)), -result, 1))
		describe_ctx(c, AT(rdma_mcm_batch, ctx_id));
}

/* ------------------------------------------------------------ sources */

/* The source arrays as passed, to tell what the kernel wrote there. */
void save_sources(struct worker *w)
{
	if (w->gs_lo)
		memcpy(w->save_src, w->gs_lo, w->gs_hi - w->gs_lo);
}

/* The kernel reads the sources; it never writes them. */
void check_sources_unwritten(struct worker *w)
{
	size_t i, n;

	if (!w->gs_lo)
		return;
	n = w->gs_hi - w->gs_lo;
	if (!memcmp(w->save_src, w->gs_lo, n))
		return;
	for (i = 0; w->save_src[i] == w->gs_lo[i]; i++)
		;
	violated(w, "a join wrote byte %zu of its %zu bytes of sources", i, n);
}
