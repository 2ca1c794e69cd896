// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * librdmamcm: the messages of the generic netlink family "rdma_mcm"
 * (uapi <rdma/rdma_mcm_netlink.h>) and of the controller, parsed into the
 * structs of librdmamcm.h; netlink.c sends the requests and reads the
 * replies and events.
 *
 * An attribute the library does not know is skipped; one that runs past
 * its message or is shorter than its type fails the message with
 * EBADMSG. A source of a membership (RDMA_MCM_A_SOURCE) whose length is
 * not that of an address of the member's family is skipped, not fatal: a
 * later kernel may send other kinds.
 */
#include <errno.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <netinet/in.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "rdma_mcm_priv.h"

/*
 * The sizes of LIBRDMAMCM_1.4: a later version grows into reserved[],
 * and every field before it stays where it was.
 */
_Static_assert(sizeof(struct rdma_mcm_nl_member) == 568, "member size");
_Static_assert(offsetof(struct rdma_mcm_nl_member, state_age_ms) == 496 &&
	       offsetof(struct rdma_mcm_nl_member, nr_sources) == 504 &&
	       offsetof(struct rdma_mcm_nl_member, joined_by) == 508 &&
	       offsetof(struct rdma_mcm_nl_member, sources) == 512 &&
	       offsetof(struct rdma_mcm_nl_member, present_hi) == 520 &&
	       offsetof(struct rdma_mcm_nl_member, reserved) == 528,
	       "LIBRDMAMCM_1.5's and 1.6's fields of struct rdma_mcm_nl_member");
_Static_assert(offsetof(struct rdma_mcm_nl_context, present_hi) ==
	       sizeof(struct rdma_mcm_nl_context) - 64 &&
	       offsetof(struct rdma_mcm_nl_stats, present_hi) ==
	       sizeof(struct rdma_mcm_nl_stats) - 64,
	       "LIBRDMAMCM_1.6's present_hi: the first reserved word");
_Static_assert(offsetof(struct rdma_mcm_nl_notice, m) == 16 &&
	       offsetof(struct rdma_mcm_nl_notice, reserved) == 584,
	       "notice layout");
_Static_assert(sizeof(struct rdma_mcm_nl_context) == 1168, "context size");
_Static_assert(sizeof(struct rdma_mcm_nl_stats) == 1008 + sizeof(void *),
	       "stats size");
_Static_assert(sizeof(struct rdma_mcm_nl_notice) == 616, "notice size");
_Static_assert(RDMA_MCM_NL_COUNTERS >= __RDMA_MCM_CNT_MAX, "counters");
_Static_assert(RDMA_MCM_NL_LIMITS >= __RDMA_MCM_LIMIT_MAX, "limits");
_Static_assert(RDMA_MCM_NL_USAGE >= __RDMA_MCM_USAGE_MAX, "usage");
_Static_assert(RDMA_MCM_NL_MCAST >= __RDMA_MCM_MCAST_MAX, "mcast");
/* the mcast fields took the place of reserved[4]: the size stays */
_Static_assert(sizeof(struct rdma_mcm_nl_device) ==
	       RDMA_MCM_NL_NAME_LEN + sizeof(struct rdma_mcm_nl_counters) + 32,
	       "rdma_mcm_nl_device");
/* attributes 64 to 127 go to present_hi, which nothing fills yet */
_Static_assert(RDMA_MCM_A_MAX < 64, "present is a 64-bit mask");

/*
 * What each struct holds: the attributes this library parses into it,
 * which are the bits @present may have (see librdmamcm.h). An attribute
 * the kernel sends that is not here (a later kernel's, or one whose
 * value has no field, as a context's AGE_MS) leaves its bit clear.
 */
#define A(x)		(1ULL << RDMA_MCM_A_##x)
#define OWNER_ATTRS	(A(OWNER_KIND) | A(OWNER_PID) | A(OWNER_UID) | \
			 A(OWNER_NAME))
#define PLACE_ATTRS	(A(CTX_ID) | OWNER_ATTRS | A(FILE_CTX) | A(NETNS) | \
			 A(DEV_NAME) | A(PORT) | A(NETDEV) | A(FAMILY) | A(SRC))
#define COUNTER_ATTRS	(A(COUNTERS) | A(JOIN_FAILURES) | A(ERRORS))
#define MEMBER_ATTRS	(PLACE_ATTRS | A(HANDLE) | A(GROUP) | A(MGID) | \
			 A(MLID) | A(QKEY) | A(JOIN_TYPE) | A(STATE) | \
			 A(STATUS) | A(LAST_STATUS) | A(AGE_MS) | \
			 A(STATE_AGE_MS) | A(REJOINS) | A(QUEUED) | \
			 A(QP_ATTACHED) | A(SOURCES) | A(JOINED_BY))
#define EVENT_ATTRS	(MEMBER_ATTRS | A(EVENT) | A(TIME_NS))
#define CONTEXT_ATTRS	(PLACE_ATTRS | A(CTX_FLAGS) | A(MEMBERS) | \
			 COUNTER_ATTRS)
#define STATS_ATTRS	(COUNTER_ATTRS | A(LIMITS) | A(USAGE) | \
			 A(EVENTS_LOST) | A(DEVICE))

/* --- attributes ----------------------------------------------------------- */

#define ATTR_MAX	63		/* the types a table holds */

struct attrs {
	const struct nlattr *tb[ATTR_MAX + 1];
	uint64_t present;
};

static const void *nla_data(const struct nlattr *a)
{
	return (const uint8_t *)a + NLA_HDRLEN;
}

static size_t nla_len(const struct nlattr *a)
{
	return a->nla_len - NLA_HDRLEN;
}

/*
 * Walk the attributes of @data: @fn for each; 0, fn's non-zero, or
 * -1/EBADMSG when one runs past the end
 */
static int nla_walk(const void *data, size_t len,
		    int (*fn)(const struct nlattr *a, void *arg), void *arg)
{
	const uint8_t *p = data;
	int ret;

	while (len >= NLA_HDRLEN) {
		const struct nlattr *a = (const void *)p;
		size_t step;

		if (a->nla_len < NLA_HDRLEN || a->nla_len > len) {
			errno = EBADMSG;
			return -1;
		}
		ret = fn(a, arg);
		if (ret)
			return ret;
		step = NLA_ALIGN(a->nla_len);
		if (step >= len)
			return 0;
		p += step;
		len -= step;
	}
	/* bytes left that cannot hold an attribute: a truncated one */
	if (len) {
		errno = EBADMSG;
		return -1;
	}
	return 0;
}

static int table_add(const struct nlattr *a, void *arg)
{
	struct attrs *at = arg;
	unsigned int type = a->nla_type & NLA_TYPE_MASK;

	if (type <= ATTR_MAX) {
		at->tb[type] = a;
		at->present |= 1ULL << type;
	}
	return 0;
}

static int nla_table(const void *data, size_t len, struct attrs *at)
{
	memset(at, 0, sizeof(*at));
	return nla_walk(data, len, table_add, at);
}

static int nest_table(const struct nlattr *a, struct attrs *at)
{
	return nla_table(nla_data(a), nla_len(a), at);
}

static int bad(void)
{
	errno = EBADMSG;
	return -1;
}

/* A fixed-size attribute of at least @size bytes, if present */
static int get_fixed(const struct attrs *at, int type, void *out,
		     size_t size)
{
	const struct nlattr *a = at->tb[type];

	if (!a)
		return 0;
	if (nla_len(a) < size)
		return bad();
	memcpy(out, nla_data(a), size);
	return 0;
}

static int get_u8(const struct attrs *at, int type, uint8_t *out)
{
	return get_fixed(at, type, out, 1);
}

static int get_u16(const struct attrs *at, int type, uint16_t *out)
{
	return get_fixed(at, type, out, 2);
}

static int get_u32(const struct attrs *at, int type, uint32_t *out)
{
	return get_fixed(at, type, out, 4);
}

static int get_u64(const struct attrs *at, int type, uint64_t *out)
{
	return get_fixed(at, type, out, 8);
}

/* A string attribute into @out (@size bytes, always NUL-terminated) */
static void get_str(const struct attrs *at, int type, char *out, size_t size)
{
	const struct nlattr *a = at->tb[type];
	size_t n;

	if (!a)
		return;
	n = strnlen(nla_data(a), nla_len(a));
	if (n >= size)
		n = size - 1;
	memcpy(out, nla_data(a), n);
	out[n] = 0;
}

/*
 * An address of @family from attribute @type into @ss; 0, or -1/EBADMSG
 * when it is shorter than the family's. An unknown family is kept with
 * no address.
 */
static int get_addr(const struct attrs *at, int type, uint32_t family,
		    struct sockaddr_storage *ss)
{
	const struct nlattr *a = at->tb[type];

	if (!a)
		return 0;
	memset(ss, 0, sizeof(*ss));
	ss->ss_family = (sa_family_t)family;
	switch (family) {
	case AF_INET:
		if (nla_len(a) < 4)
			return bad();
		memcpy(&((struct sockaddr_in *)ss)->sin_addr, nla_data(a), 4);
		break;
	case AF_INET6:
		if (nla_len(a) < 16)
			return bad();
		memcpy(&((struct sockaddr_in6 *)ss)->sin6_addr, nla_data(a),
		       16);
		break;
	case AF_IB:
		/* struct sockaddr_ib: the GID at offset 8 */
		if (nla_len(a) < 16)
			return bad();
		memcpy((uint8_t *)ss + 8, nla_data(a), 16);
		break;
	}
	return 0;
}

/* --- counters --------------------------------------------------------- */

static int counter_add(const struct nlattr *a, void *arg)
{
	struct rdma_mcm_nl_counters *cnt = arg;
	unsigned int type = a->nla_type & NLA_TYPE_MASK;

	/*
	 * A zero-length attribute is the padding of a u64 (type 0,
	 * RDMA_MCM_CNT_UNSPEC, in this nest): not a counter
	 */
	if (!nla_len(a))
		return 0;
	if (nla_len(a) < 8)
		return bad();
	if (type && type < RDMA_MCM_NL_COUNTERS) {
		memcpy(&cnt->value[type], nla_data(a), 8);
		cnt->present |= 1ULL << type;
	}
	return 0;
}

/*
 * A breakdown by errno as the kernel sent it (up to 20 entries; from a
 * later kernel maybe more: past ERRNO_SEEN they count as "any other")
 */
#define ERRNO_SEEN	64

struct errno_list {
	struct rdma_mcm_nl_errno_count e[ERRNO_SEEN];
	unsigned int n;
	uint64_t spilled;		/* the counts past ERRNO_SEEN */
	int spill;
};

static int errno_add(const struct nlattr *a, void *arg)
{
	struct errno_list *l = arg;
	struct rdma_mcm_nl_errno_count ec = { 0 };
	struct attrs at;

	if ((a->nla_type & NLA_TYPE_MASK) != RDMA_MCM_A_ERRNO_COUNT)
		return 0;
	if (nest_table(a, &at) || get_u32(&at, RDMA_MCM_A_ERRNO, &ec.err) ||
	    get_u64(&at, RDMA_MCM_A_COUNT, &ec.count))
		return -1;
	if (l->n < ERRNO_SEEN) {
		l->e[l->n++] = ec;
	} else {
		l->spilled += ec.count;
		l->spill = 1;
	}
	return 0;
}

/* The errnos of the limits, which an administrator looks for first */
static int limit_errno(uint32_t err)
{
	return err == ENOSPC || err == EMFILE || err == ENOBUFS;
}

/* Whether entry @a is to be kept by name before entry @b (@a sent first) */
static int keep_before(const struct rdma_mcm_nl_errno_count *a,
		       const struct rdma_mcm_nl_errno_count *b)
{
	if (limit_errno(a->err) != limit_errno(b->err))
		return limit_errno(a->err);
	return a->count >= b->count;
}

/*
 * Into at most RDMA_MCM_NL_ERRNOS entries @out (librdmamcm.h): all of
 * them when they fit, else RDMA_MCM_NL_ERRNOS - 1 named ones and one of
 * errno 0 that counts the others
 */
static void errno_fold(const struct errno_list *l,
		       struct rdma_mcm_nl_errno_count *out, uint32_t *n)
{
	unsigned char keep[ERRNO_SEEN] = { 0 };
	unsigned int i, j, rank, kept = 0, other_at = l->n;
	uint64_t other = l->spilled;

	*n = 0;
	if (l->n <= RDMA_MCM_NL_ERRNOS && !l->spill) {
		memcpy(out, l->e, l->n * sizeof(*out));
		*n = l->n;
		return;
	}
	/* a named entry is kept when fewer than ERRNOS - 1 go before it */
	for (i = 0; i < l->n; i++) {
		if (!l->e[i].err)
			continue;
		for (rank = 0, j = 0; j < l->n; j++)
			if (j != i && l->e[j].err &&
			    (j < i ? keep_before(&l->e[j], &l->e[i]) :
				     !keep_before(&l->e[i], &l->e[j])))
				rank++;
		keep[i] = rank < RDMA_MCM_NL_ERRNOS - 1;
	}
	for (i = 0; i < l->n; i++) {
		if (keep[i])
			continue;
		other += l->e[i].count;
		if (!l->e[i].err && other_at == l->n)
			other_at = i;
	}
	for (i = 0; i <= l->n; i++) {
		if (i == other_at) {
			out[*n].err = 0;
			out[*n].reserved = 0;
			out[(*n)++].count = other;
		}
		if (i < l->n && keep[i] && kept++ < RDMA_MCM_NL_ERRNOS - 1)
			out[(*n)++] = l->e[i];
	}
}

/* A breakdown nest into @out and @n */
static int get_breakdown(const struct nlattr *a,
			 struct rdma_mcm_nl_errno_count *out, uint32_t *n)
{
	struct errno_list l;

	if (!a)
		return 0;
	l.n = 0;
	l.spilled = 0;
	l.spill = 0;
	if (nla_walk(nla_data(a), nla_len(a), errno_add, &l))
		return -1;
	errno_fold(&l, out, n);
	return 0;
}

static int get_counters(const struct attrs *at,
			struct rdma_mcm_nl_counters *cnt)
{
	const struct nlattr *a = at->tb[RDMA_MCM_A_COUNTERS];

	if (a && nla_walk(nla_data(a), nla_len(a), counter_add, cnt))
		return -1;
	if (get_breakdown(at->tb[RDMA_MCM_A_JOIN_FAILURES],
			  cnt->join_failures, &cnt->n_join_failures) ||
	    get_breakdown(at->tb[RDMA_MCM_A_ERRORS], cnt->errors,
			  &cnt->n_errors))
		return -1;
	return 0;
}

/* --- sources ------------------------------------------------------------- */

void mcm_nl_srcs_free(struct mcm_nl_srcs *s)
{
	free(s->v);
	s->v = NULL;
	s->cap = 0;
}

/* The bytes of a source of @family; 0 for one the library cannot read */
static size_t source_len(uint32_t family, size_t len)
{
	switch (family) {
	case AF_INET:
		return 4;
	case AF_INET6:
		return 16;
	default:
		/* no family sent: the length says it */
		return len == 4 || len == 16 ? len : 0;
	}
}

struct source_walk {
	struct rdma_mcm_nl_member *m;
	struct mcm_nl_srcs *srcs;
};

/* Room for one more source in @s; 0 or -1/ENOMEM */
static int srcs_room(struct mcm_nl_srcs *s, uint32_t n)
{
	struct sockaddr_storage *v;
	uint32_t cap;

	if (n < s->cap)
		return 0;
	cap = s->cap ? 2 * s->cap : RDMA_MCM_MAX_SOURCES;
	v = realloc(s->v, cap * sizeof(*v));
	if (!v) {
		errno = ENOMEM;
		return -1;
	}
	s->v = v;
	s->cap = cap;
	return 0;
}

/*
 * One attribute of the RDMA_MCM_A_SOURCES nest: a RDMA_MCM_A_SOURCE of
 * the member's family (4 or 16 bytes) is added; another type, or another
 * length (a later kernel's, or a broken one), is skipped. As many as the
 * kernel sends are kept, more than RDMA_MCM_MAX_SOURCES too.
 */
static int source_add(const struct nlattr *a, void *arg)
{
	struct source_walk *w = arg;
	struct rdma_mcm_nl_member *m = w->m;
	size_t n = source_len(m->family, nla_len(a));
	struct sockaddr_storage *ss;

	if ((a->nla_type & NLA_TYPE_MASK) != RDMA_MCM_A_SOURCE || !n ||
	    nla_len(a) != n)
		return 0;
	if (srcs_room(w->srcs, m->nr_sources))
		return -1;
	ss = &w->srcs->v[m->nr_sources++];
	memset(ss, 0, sizeof(*ss));
	if (n == 4) {
		ss->ss_family = AF_INET;
		memcpy(&((struct sockaddr_in *)ss)->sin_addr, nla_data(a), 4);
	} else {
		ss->ss_family = AF_INET6;
		memcpy(&((struct sockaddr_in6 *)ss)->sin6_addr, nla_data(a),
		       16);
	}
	return 0;
}

static int get_sources(const struct attrs *at, struct rdma_mcm_nl_member *m,
		       struct mcm_nl_srcs *srcs)
{
	const struct nlattr *a = at->tb[RDMA_MCM_A_SOURCES];
	struct source_walk w = { m, srcs };

	if (!a || !srcs)
		return 0;
	if (nla_walk(nla_data(a), nla_len(a), source_add, &w))
		return -1;
	m->sources = m->nr_sources ? srcs->v : NULL;
	return 0;
}

/* --- messages ------------------------------------------------------------- */

/* The attributes of a message of the family */
static int msg_table(const struct nlmsghdr *nlh, struct attrs *at)
{
	size_t hdr = NLMSG_LENGTH(GENL_HDRLEN);

	if (nlh->nlmsg_len < hdr)
		return bad();
	return nla_table((const uint8_t *)nlh + hdr, nlh->nlmsg_len - hdr,
			 at);
}

static int get_owner(const struct attrs *at, uint32_t *kind, uint32_t *pid,
		     uint32_t *uid, char *name)
{
	uint8_t k = 0;

	if (get_u8(at, RDMA_MCM_A_OWNER_KIND, &k) ||
	    get_u32(at, RDMA_MCM_A_OWNER_PID, pid) ||
	    get_u32(at, RDMA_MCM_A_OWNER_UID, uid))
		return -1;
	*kind = k;
	get_str(at, RDMA_MCM_A_OWNER_NAME, name, RDMA_MCM_NL_NAME_LEN);
	return 0;
}

static int member_from(const struct attrs *at, struct rdma_mcm_nl_member *m,
		       struct mcm_nl_srcs *srcs)
{
	uint16_t family = 0;

	memset(m, 0, sizeof(*m));
	m->present = at->present & MEMBER_ATTRS;
	if (get_u32(at, RDMA_MCM_A_CTX_ID, &m->ctx_id) ||
	    get_u32(at, RDMA_MCM_A_HANDLE, &m->handle) ||
	    get_owner(at, &m->owner_kind, &m->owner_pid, &m->owner_uid,
		      m->owner_name) ||
	    get_u32(at, RDMA_MCM_A_FILE_CTX, &m->file_ctx) ||
	    get_u32(at, RDMA_MCM_A_NETNS, &m->netns) ||
	    get_u32(at, RDMA_MCM_A_PORT, &m->port) ||
	    get_u16(at, RDMA_MCM_A_FAMILY, &family) ||
	    get_u32(at, RDMA_MCM_A_QKEY, &m->qkey) ||
	    get_fixed(at, RDMA_MCM_A_MGID, m->mgid, 16) ||
	    get_u16(at, RDMA_MCM_A_MLID, &m->mlid) ||
	    get_u8(at, RDMA_MCM_A_JOIN_TYPE, &m->join_type) ||
	    get_u8(at, RDMA_MCM_A_STATE, &m->state) ||
	    get_fixed(at, RDMA_MCM_A_STATUS, &m->status, 4) ||
	    get_fixed(at, RDMA_MCM_A_LAST_STATUS, &m->last_status, 4) ||
	    get_u32(at, RDMA_MCM_A_REJOINS, &m->rejoins) ||
	    get_u32(at, RDMA_MCM_A_QUEUED, &m->queued) ||
	    get_u64(at, RDMA_MCM_A_AGE_MS, &m->age_ms) ||
	    get_u64(at, RDMA_MCM_A_STATE_AGE_MS, &m->state_age_ms) ||
	    get_u8(at, RDMA_MCM_A_JOINED_BY, &m->joined_by))
		return -1;
	m->family = family;
	if (get_addr(at, RDMA_MCM_A_SRC, family, &m->src) ||
	    get_addr(at, RDMA_MCM_A_GROUP, family, &m->group) ||
	    get_sources(at, m, srcs))
		return -1;
	get_str(at, RDMA_MCM_A_DEV_NAME, m->dev_name, sizeof(m->dev_name));
	get_str(at, RDMA_MCM_A_NETDEV, m->netdev, sizeof(m->netdev));
	m->qp_attached = !!at->tb[RDMA_MCM_A_QP_ATTACHED];
	return 0;
}

int mcm_nl_parse_member(const struct nlmsghdr *nlh,
			struct rdma_mcm_nl_member *m, struct mcm_nl_srcs *srcs)
{
	struct attrs at;

	if (msg_table(nlh, &at))
		return -1;
	return member_from(&at, m, srcs);
}

int mcm_nl_parse_context(const struct nlmsghdr *nlh,
			 struct rdma_mcm_nl_context *c)
{
	struct attrs at;
	uint16_t family = 0;

	memset(c, 0, sizeof(*c));
	if (msg_table(nlh, &at))
		return -1;
	c->present = at.present & CONTEXT_ATTRS;
	if (get_u32(&at, RDMA_MCM_A_CTX_ID, &c->ctx_id) ||
	    get_owner(&at, &c->owner_kind, &c->owner_pid, &c->owner_uid,
		      c->owner_name) ||
	    get_u32(&at, RDMA_MCM_A_FILE_CTX, &c->file_ctx) ||
	    get_u32(&at, RDMA_MCM_A_NETNS, &c->netns) ||
	    get_u32(&at, RDMA_MCM_A_PORT, &c->port) ||
	    get_u32(&at, RDMA_MCM_A_CTX_FLAGS, &c->flags) ||
	    get_u32(&at, RDMA_MCM_A_MEMBERS, &c->members) ||
	    get_u16(&at, RDMA_MCM_A_FAMILY, &family) ||
	    get_counters(&at, &c->cnt))
		return -1;
	c->family = family;
	if (get_addr(&at, RDMA_MCM_A_SRC, family, &c->src))
		return -1;
	get_str(&at, RDMA_MCM_A_DEV_NAME, c->dev_name, sizeof(c->dev_name));
	get_str(&at, RDMA_MCM_A_NETDEV, c->netdev, sizeof(c->netdev));
	return 0;
}

struct u32_nest {
	uint32_t *v;
	uint32_t *present;
	unsigned int n;
};

static int u32_add(const struct nlattr *a, void *arg)
{
	struct u32_nest *u = arg;
	unsigned int type = a->nla_type & NLA_TYPE_MASK;

	if (nla_len(a) < 4)
		return bad();
	if (type && type < u->n) {
		memcpy(&u->v[type], nla_data(a), 4);
		*u->present |= 1U << type;
	}
	return 0;
}

static int device_add(const struct nlattr *a, void *arg)
{
	struct rdma_mcm_nl_stats *st = arg;
	struct u32_nest mc = { NULL, NULL, RDMA_MCM_NL_MCAST };
	struct rdma_mcm_nl_device *d;
	struct attrs at;

	if ((a->nla_type & NLA_TYPE_MASK) != RDMA_MCM_A_DEVICE)
		return 0;
	if (nest_table(a, &at))
		return -1;
	d = realloc(st->devices, (st->n_devices + 1) * sizeof(*d));
	if (!d)
		return -1;
	st->devices = d;
	d += st->n_devices;
	memset(d, 0, sizeof(*d));
	get_str(&at, RDMA_MCM_A_DEV_NAME, d->name, sizeof(d->name));
	if (get_counters(&at, &d->cnt))
		return -1;
	mc.v = d->mcast;
	mc.present = &d->mcast_present;
	a = at.tb[RDMA_MCM_A_MCAST];
	if (a && nla_walk(nla_data(a), nla_len(a), u32_add, &mc))
		return -1;
	st->n_devices++;
	return 0;
}

/* @st must be zeroed, or hold devices from a message before */
int mcm_nl_parse_stats(const struct nlmsghdr *nlh,
		       struct rdma_mcm_nl_stats *st)
{
	struct u32_nest lim = { st->limits, &st->limits_present,
				RDMA_MCM_NL_LIMITS };
	struct u32_nest use = { st->usage, &st->usage_present,
				RDMA_MCM_NL_USAGE };
	size_t hdr = NLMSG_LENGTH(GENL_HDRLEN);
	const struct nlattr *a;
	struct attrs at;

	if (msg_table(nlh, &at))
		return -1;
	st->present |= at.present & STATS_ATTRS;
	if (get_counters(&at, &st->cnt) ||
	    get_u64(&at, RDMA_MCM_A_EVENTS_LOST, &st->events_lost))
		return -1;
	a = at.tb[RDMA_MCM_A_LIMITS];
	if (a && nla_walk(nla_data(a), nla_len(a), u32_add, &lim))
		return -1;
	a = at.tb[RDMA_MCM_A_USAGE];
	if (a && nla_walk(nla_data(a), nla_len(a), u32_add, &use))
		return -1;
	/* every device nest, not only the last */
	return nla_walk((const uint8_t *)nlh + hdr, nlh->nlmsg_len - hdr,
			device_add, st);
}

int mcm_nl_parse_event(const struct nlmsghdr *nlh,
		       struct rdma_mcm_nl_notice *ev, struct mcm_nl_srcs *srcs)
{
	struct attrs at;
	uint8_t type = 0;

	memset(ev, 0, sizeof(*ev));
	if (msg_table(nlh, &at) || member_from(&at, &ev->m, srcs) ||
	    get_u8(&at, RDMA_MCM_A_EVENT, &type) ||
	    get_u64(&at, RDMA_MCM_A_TIME_NS, &ev->time_ns))
		return -1;
	ev->event = type;
	ev->m.present = at.present & EVENT_ATTRS;
	return 0;
}

/* --- the controller ------------------------------------------------------ */

static int mcgrp_add(const struct nlattr *a, void *arg)
{
	struct mcm_nl_family *f = arg;
	struct attrs at;
	char name[32] = "";
	uint32_t id = 0;

	if (nest_table(a, &at) || get_u32(&at, CTRL_ATTR_MCAST_GRP_ID, &id))
		return -1;
	get_str(&at, CTRL_ATTR_MCAST_GRP_NAME, name, sizeof(name));
	if (f->group && !strcmp(name, f->group))
		f->mcgrp = id;
	return 0;
}

int mcm_nl_parse_family(const struct nlmsghdr *nlh, struct mcm_nl_family *f)
{
	const struct nlattr *a;
	struct attrs at;

	if (msg_table(nlh, &at) || get_u16(&at, CTRL_ATTR_FAMILY_ID, &f->id))
		return -1;
	get_str(&at, CTRL_ATTR_FAMILY_NAME, f->name, sizeof(f->name));
	a = at.tb[CTRL_ATTR_MCAST_GROUPS];
	if (a && nla_walk(nla_data(a), nla_len(a), mcgrp_add, f))
		return -1;
	return 0;
}

/* --- extended ACKs ------------------------------------------------------- */

int mcm_nl_parse_extack(const struct nlmsghdr *nlh, size_t hlen, char *msg,
			size_t size, uint32_t *offs)
{
	size_t start = NLMSG_HDRLEN + NLA_ALIGN(hlen);
	struct attrs at;
	char *p;

	msg[0] = 0;
	*offs = UINT32_MAX;
	if (nlh->nlmsg_len < start)
		return bad();
	if (nla_table((const uint8_t *)nlh + start, nlh->nlmsg_len - start,
		      &at) ||
	    get_u32(&at, NLMSGERR_ATTR_OFFS, offs))
		return -1;
	get_str(&at, NLMSGERR_ATTR_MSG, msg, size);
	for (p = msg; *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			*p = '?';
	return 0;
}
