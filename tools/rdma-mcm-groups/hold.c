// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * rdma-mcm-groups: the memberships held on /dev/rdma_mcm.
 *
 * One healing context (RDMA_MCM_CTX_HEAL) per place the configuration
 * names: a "local ADDRESS", or a "dev NETDEV" and a family (bound to the
 * netdev's address of that family, netdev.c). A context lives while it
 * has memberships. Its memberships are joined without a QP: rdma_mcm
 * holds the IGMP/MLD side of a RoCE full member itself, and heals it
 * (a device reset, a port flap, an address that goes and comes back:
 * REJOINING, then REJOINED on the same handle), so what the network sees
 * is what the configuration says while the service runs.
 *
 * A membership is PENDING while its context cannot be made (no such
 * netdev, no address, no RDMA device for it yet, ENODEV): it is tried
 * again at every address or link event and on a timer (1 s, doubling up
 * to 30 s). A join the kernel refuses for good (EINVAL, EOPNOTSUPP,
 * ENOSPC, ENOBUFS, an ERROR event) is FAILED and tried again at the next
 * reload. Every change is logged; main.c turns the counts into STATUS=.
 *
 * Each membership's cookie is its slot and a generation: an event of a
 * membership left (and its slot given to another) is not taken for the
 * new one's.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>
#include <time.h>

#include "groups.h"

#define RETRY_MIN_MS	1000
#define RETRY_MAX_MS	30000

struct grp_ctx {
	struct grp_ctx *next;
	char dev[IF_NAMESIZE];		/* bound by netdev; "" by address */
	int family;
	struct sockaddr_storage src;	/* the address it is bound to */
	uint32_t id;
	unsigned int members;
	int lost;			/* its device went away */
};

struct grp_member {
	struct grp_entry e;		/* @e.src its own, @e.file the conf's */
	struct grp_ctx *ctx;		/* NULL while none is joined */
	uint32_t handle;
	enum grp_state state;
	int err;			/* why it is PENDING or FAILED */
	uint32_t slot;
	uint32_t gen;
};

struct grp_hold {
	struct rdma_mcm_channel *ch;
	struct grp_ctx *ctxs;
	struct grp_member **m;		/* sorted by key */
	size_t n;
	struct grp_member **slots;	/* cookie's slot -> membership */
	uint32_t *free_slots;
	size_t nslots, nfree;
	uint32_t gen;
	char **files;			/* the names the entries point at */
	size_t nfiles;
	int retry_ms;			/* the backoff of the pending ones */
	struct timespec retry_at;
	unsigned int last[4];		/* the last apply's changes */
};

static const char *const state_names[GRP_NR_STATES] = {
	[GRP_PENDING] = "pending", [GRP_JOINING] = "joining",
	[GRP_JOINED] = "joined", [GRP_WAITING] = "waiting",
	[GRP_FAILED] = "failed",
};

/* "group G dev D" of a membership, for the log */
static const char *who(const struct grp_member *m)
{
	static char buf[200];
	char g[80], b[80];

	grp_addr_text(&m->e.group, g, sizeof(g));
	grp_binding_text(&m->e, b, sizeof(b));
	snprintf(buf, sizeof(buf), "group %s %s", g, b);
	return buf;
}

static const char *ctx_src(const struct grp_ctx *c)
{
	static char buf[80];

	grp_addr_text(&c->src, buf, sizeof(buf));
	return buf;
}

static const char *status_text(int32_t status)
{
	static char buf[120];

	if (status < 0 && status > -4096)
		snprintf(buf, sizeof(buf), "%s", strerror(-status));
	else
		snprintf(buf, sizeof(buf), "status %d", status);
	return buf;
}

/* --- contexts ---------------------------------------------------------------- */

static struct grp_ctx *ctx_find(struct grp_hold *h, const struct grp_entry *e)
{
	struct grp_ctx *c;

	for (c = h->ctxs; c; c = c->next) {
		if (*e->dev && !strcmp(c->dev, e->dev) &&
		    c->family == e->group.ss_family)
			return c;
		if (!*e->dev && !*c->dev && !grp_addr_cmp(&c->src, &e->local))
			return c;
	}
	return NULL;
}

static struct grp_ctx *ctx_by_id(struct grp_hold *h, uint32_t id)
{
	struct grp_ctx *c;

	for (c = h->ctxs; c && c->id != id; c = c->next)
		;
	return c;
}

/*
 * The context of @e's place, made if need be; NULL with *@err and, in
 * @why, what could not be done
 */
static struct grp_ctx *ctx_get(struct grp_hold *h, const struct grp_entry *e,
			       int *err, char *why, size_t len)
{
	struct sockaddr_storage src;
	struct grp_ctx *c = ctx_find(h, e);
	char a[80];

	if (c)
		return c;
	src = e->local;
	if (*e->dev) {
		*err = -grp_netdev_addr(e->dev, e->group.ss_family, &src);
		if (*err == ENODEV) {
			snprintf(why, len, "no such netdev");
			return NULL;
		}
		if (*err == EADDRNOTAVAIL) {
			snprintf(why, len, "no %s address on the netdev",
				 e->group.ss_family == AF_INET ? "IPv4" : "IPv6");
			return NULL;
		}
		if (*err) {
			snprintf(why, len, "its addresses: %s", strerror(*err));
			return NULL;
		}
	}
	grp_addr_text(&src, a, sizeof(a));
	c = calloc(1, sizeof(*c));
	if (!c) {
		*err = ENOMEM;
		snprintf(why, len, "%s", strerror(ENOMEM));
		return NULL;
	}
	if (rdma_mcm_create_ctx_ex(h->ch, (struct sockaddr *)&src,
				   RDMA_MCM_CTX_HEAL, &c->id)) {
		*err = errno;
		snprintf(why, len, "a context on %s: %s%s", a, strerror(*err),
			 *err == ENODEV ? " (no RDMA device has it)" : "");
		free(c);
		return NULL;
	}
	snprintf(c->dev, sizeof(c->dev), "%s", e->dev);
	c->family = e->group.ss_family;
	c->src = src;
	c->next = h->ctxs;
	h->ctxs = c;
	grp_log(LOG_INFO, "context %u on %s%s%s", c->id, a,
		*c->dev ? " of dev " : "", c->dev);
	return c;
}

/* A membership less: the context goes with its last one */
static void ctx_put(struct grp_hold *h, struct grp_ctx *c)
{
	struct grp_ctx **p;

	if (--c->members)
		return;
	if (rdma_mcm_destroy_ctx(h->ch, c->id))
		grp_log(LOG_WARNING, "context %u: destroy: %s", c->id,
			strerror(errno));
	for (p = &h->ctxs; *p != c; p = &(*p)->next)
		;
	*p = c->next;
	free(c);
}

/* --- memberships ------------------------------------------------------------- */

static struct grp_member *member_new(struct grp_hold *h,
				     const struct grp_entry *e)
{
	struct grp_member *m, **slots;
	uint32_t *free_slots;

	m = calloc(1, sizeof(*m));
	if (!m)
		return NULL;
	m->e = *e;
	m->e.src = NULL;
	if (e->nr_src) {
		m->e.src = malloc(e->nr_src * sizeof(*e->src));
		if (!m->e.src)
			goto err;
		memcpy(m->e.src, e->src, e->nr_src * sizeof(*e->src));
	}
	if (h->nfree) {
		m->slot = h->free_slots[--h->nfree];
	} else {
		slots = realloc(h->slots, (h->nslots + 1) * sizeof(*slots));
		if (slots)
			h->slots = slots;
		free_slots = realloc(h->free_slots,
				     (h->nslots + 1) * sizeof(*free_slots));
		if (free_slots)
			h->free_slots = free_slots;
		if (!slots || !free_slots)
			goto err;
		m->slot = (uint32_t)h->nslots++;
	}
	h->slots[m->slot] = m;
	m->gen = ++h->gen;
	m->state = GRP_PENDING;
	return m;
err:
	free(m->e.src);
	free(m);
	return NULL;
}

static void member_free(struct grp_hold *h, struct grp_member *m)
{
	h->slots[m->slot] = NULL;
	h->free_slots[h->nfree++] = m->slot;
	free(m->e.src);
	free(m);
}

static uint64_t cookie_of(const struct grp_member *m)
{
	return (uint64_t)m->gen << 32 | (m->slot + 1);
}

static struct grp_member *by_cookie(struct grp_hold *h, uint64_t cookie)
{
	uint32_t slot = (uint32_t)cookie;
	struct grp_member *m;

	if (!slot || slot > h->nslots)
		return NULL;
	m = h->slots[slot - 1];
	return m && m->gen == (uint32_t)(cookie >> 32) ? m : NULL;
}

/* What may pass: tried again later, not failed */
static int transient(int err)
{
	switch (err) {
	case ENODEV:
	case EADDRNOTAVAIL:
	case ENETUNREACH:
	case ENETDOWN:
	case ENOMEM:
	case EAGAIN:
	case EBUSY:
	case ETIMEDOUT:
		return 1;
	default:
		return 0;
	}
}

static void schedule_retry(struct grp_hold *h)
{
	if (h->retry_ms)
		return;
	h->retry_ms = RETRY_MIN_MS;
	clock_gettime(CLOCK_MONOTONIC, &h->retry_at);
	h->retry_at.tv_sec += RETRY_MIN_MS / 1000;
}

/* @m is not joined: PENDING (tried again) or FAILED for @err, @what says why */
static void member_not_joined(struct grp_hold *h, struct grp_member *m,
			      const char *what, int err)
{
	enum grp_state state = transient(err) ? GRP_PENDING : GRP_FAILED;

	/* a pending one says why once, not at every retry */
	if (state != m->state || err != m->err)
		grp_log(state == GRP_FAILED ? LOG_ERR : LOG_NOTICE,
			"%s: %s%s", who(m), what,
			state == GRP_PENDING ? " (tried again later)" :
			" (tried again at the next reload)");
	m->state = state;
	m->err = err;
	if (state == GRP_PENDING)
		schedule_retry(h);
}

static void member_join(struct grp_hold *h, struct grp_member *m)
{
	const struct sockaddr *srcs[RDMA_MCM_MAX_SOURCES];
	struct grp_ctx *c;
	unsigned int i;
	int err = 0, ret;
	char why[160];

	c = ctx_get(h, &m->e, &err, why, sizeof(why));
	if (!c) {
		member_not_joined(h, m, why, err);
		return;
	}
	for (i = 0; i < m->e.nr_src; i++)
		srcs[i] = (const struct sockaddr *)&m->e.src[i];
	c->members++;
	if (m->e.nr_src)
		ret = rdma_mcm_join_source(h->ch, c->id,
					   (struct sockaddr *)&m->e.group, srcs,
					   m->e.nr_src, m->e.type, cookie_of(m),
					   &m->handle);
	else
		ret = rdma_mcm_join(h->ch, c->id, (struct sockaddr *)&m->e.group,
				    m->e.type, cookie_of(m), &m->handle);
	if (ret) {
		err = errno;
		m->handle = 0;
		ctx_put(h, c);
		snprintf(why, sizeof(why), "join: %s", strerror(err));
		member_not_joined(h, m, why, err);
		return;
	}
	m->ctx = c;
	m->state = GRP_JOINING;
	m->err = 0;
}

/* Leave @m if it is joined; its state then says nothing held */
static void member_leave(struct grp_hold *h, struct grp_member *m)
{
	if (!m->ctx)
		return;
	if (rdma_mcm_leave(h->ch, m->ctx->id, m->handle))
		grp_log(LOG_WARNING, "%s: leave of handle %u: %s", who(m),
			m->handle, strerror(errno));
	ctx_put(h, m->ctx);
	m->ctx = NULL;
	m->handle = 0;
	m->state = GRP_PENDING;
}

/* --- the whole ----------------------------------------------------------------- */

struct grp_hold *grp_hold_open(struct rdma_mcm_channel *ch)
{
	struct grp_hold *h = calloc(1, sizeof(*h));

	if (!h)
		return NULL;
	h->ch = ch;
	return h;
}

void grp_hold_close(struct grp_hold *h)
{
	unsigned int held = 0;
	struct grp_ctx *c;
	size_t i;

	if (!h)
		return;
	for (i = 0; i < h->n; i++)
		held += !!h->m[i]->ctx;
	/* a context destroyed leaves every membership of it */
	while ((c = h->ctxs)) {
		h->ctxs = c->next;
		if (rdma_mcm_destroy_ctx(h->ch, c->id))
			grp_log(LOG_WARNING, "context %u: destroy: %s", c->id,
				strerror(errno));
		free(c);
	}
	for (i = 0; i < h->n; i++)
		member_free(h, h->m[i]);
	if (held)
		grp_log(LOG_INFO, "left %u memberships", held);
	free(h->m);
	free(h->slots);
	free(h->free_slots);
	for (i = 0; i < h->nfiles; i++)
		free(h->files[i]);
	free(h->files);
	free(h);
}

/* A reload's plan: the changes the diff found, done leaves first */
struct plan {
	struct grp_hold *h;
	const struct grp_entry **new;
	struct grp_member **next;	/* the memberships after it, by key */
	size_t n;
	struct grp_member **leave;	/* left and freed */
	size_t nleave;
	struct grp_member **join;	/* joined (replaced ones left first) */
	size_t njoin;
	int nomem;
};

static void plan_one(void *arg, enum grp_change what, size_t o, size_t n)
{
	struct plan *p = arg;
	struct grp_member *m = o == SIZE_MAX ? NULL : p->h->m[o];

	p->h->last[what]++;
	switch (what) {
	case GRP_LEAVE:
		p->leave[p->nleave++] = m;
		return;
	case GRP_JOIN:
		m = member_new(p->h, p->new[n]);
		if (!m) {
			p->nomem = 1;
			return;
		}
		p->join[p->njoin++] = m;
		break;
	case GRP_REPLACE:
		grp_log(LOG_INFO, "%s: type or sources changed: left, to be joined again",
			who(m));
		member_leave(p->h, m);
		free(m->e.src);
		m->e = *p->new[n];
		m->e.src = NULL;
		if (m->e.nr_src) {
			m->e.src = malloc(m->e.nr_src * sizeof(*m->e.src));
			if (!m->e.src) {
				m->e.nr_src = 0;
				p->nomem = 1;
			} else {
				memcpy(m->e.src, p->new[n]->src,
				       m->e.nr_src * sizeof(*m->e.src));
			}
		}
		p->join[p->njoin++] = m;
		break;
	case GRP_KEEP:
		/* where the configuration says it now */
		m->e.file = p->new[n]->file;
		m->e.line = p->new[n]->line;
		/* one that failed is tried again */
		if (m->state == GRP_FAILED)
			p->join[p->njoin++] = m;
		break;
	}
	p->next[p->n++] = m;
}

int grp_hold_apply(struct grp_hold *h, struct grp_conf *c)
{
	struct plan p = { .h = h };
	size_t i, max = h->n + c->n, nfiles;
	char **files;

	memset(h->last, 0, sizeof(h->last));
	p.new = malloc((c->n + 1) * sizeof(*p.new));
	p.next = malloc((max + 1) * sizeof(*p.next));
	p.leave = malloc((h->n + 1) * sizeof(*p.leave));
	p.join = malloc((max + 1) * sizeof(*p.join));
	if (!p.new || !p.next || !p.leave || !p.join) {
		p.nomem = 1;
		goto out;
	}
	for (i = 0; i < c->n; i++)
		p.new[i] = &c->v[i];
	grp_sort(p.new, c->n);
	grp_diff((const struct grp_entry *const *)h->m, h->n, p.new, c->n,
		 plan_one, &p);
	/*
	 * Every membership now points at @c's file names: they become the
	 * hold's, and the old ones @c's, freed with it
	 */
	files = h->files;
	nfiles = h->nfiles;
	h->files = c->files;
	h->nfiles = c->nfiles;
	c->files = files;
	c->nfiles = nfiles;
	for (i = 0; i < p.nleave; i++) {
		grp_log(LOG_INFO, "%s: left (no longer configured)",
			who(p.leave[i]));
		member_leave(h, p.leave[i]);
		member_free(h, p.leave[i]);
	}
	for (i = 0; i < p.njoin; i++)
		member_join(h, p.join[i]);
	free(h->m);
	h->m = p.next;
	h->n = p.n;
	p.next = NULL;
out:
	free(p.new);
	free(p.next);
	free(p.leave);
	free(p.join);
	if (p.nomem)
		grp_log(LOG_ERR, "apply: %s", strerror(ENOMEM));
	return p.nomem ? -1 : 0;
}

void grp_hold_last_apply(const struct grp_hold *h, unsigned int out[4])
{
	memcpy(out, h->last, sizeof(h->last));
}

/* --- events ---------------------------------------------------------------- */

static void ctx_event(struct grp_hold *h, const struct rdma_mcm_event *ev)
{
	struct grp_ctx *c = ctx_by_id(h, ev->ctx_id);

	if (!c)
		return;
	if (ev->event == RDMA_MCM_EVENT_DEVICE_REMOVED) {
		c->lost = 1;
		grp_log(LOG_WARNING,
			"context %u on %s: its RDMA device went away (%s): its memberships wait for one",
			c->id, ctx_src(c), status_text(ev->status));
	} else if (ev->event == RDMA_MCM_EVENT_DEVICE_ADDED) {
		c->lost = 0;
		grp_log(LOG_NOTICE, "context %u on %s: an RDMA device again (port %u)",
			c->id, ctx_src(c), ev->port_num);
	}
}

static void member_event(struct grp_hold *h, struct grp_member *m,
			 const struct rdma_mcm_event *ev)
{
	switch (ev->event) {
	case RDMA_MCM_EVENT_JOINED:
		m->state = GRP_JOINED;
		grp_log(LOG_INFO, "%s: joined (context %u on %s, handle %u, %s)",
			who(m), m->ctx->id, ctx_src(m->ctx), m->handle,
			grp_type_name(m->e.type));
		break;
	case RDMA_MCM_EVENT_REJOINED:
		m->state = GRP_JOINED;
		grp_log(LOG_NOTICE, "%s: joined again (handle %u)", who(m),
			m->handle);
		break;
	case RDMA_MCM_EVENT_REJOINING:
		m->state = GRP_WAITING;
		grp_log(LOG_WARNING, "%s: lost (%s): waiting to be joined again",
			who(m), status_text(ev->status));
		break;
	case RDMA_MCM_EVENT_ERROR:
		grp_log(LOG_ERR, "%s: failed: %s (tried again at the next reload)",
			who(m), status_text(ev->status));
		member_leave(h, m);
		m->state = GRP_FAILED;
		m->err = ev->status < 0 && ev->status > -4096 ? -ev->status : EIO;
		break;
	default:
		break;
	}
}

int grp_hold_events(struct grp_hold *h)
{
	struct rdma_mcm_event ev;
	struct grp_member *m;

	while (!rdma_mcm_get_event(h->ch, &ev)) {
		if (!ev.handle) {
			ctx_event(h, &ev);
			continue;
		}
		m = by_cookie(h, ev.cookie);
		/* an event of a membership left since */
		if (m && m->ctx && m->handle == ev.handle)
			member_event(h, m, &ev);
	}
	if (errno == EAGAIN || errno == EINTR)
		return 0;
	grp_log(LOG_ERR, "reading events: %s", strerror(errno));
	return -1;
}

/* --- retries ----------------------------------------------------------------- */

/*
 * Contexts bound by netdev whose address is gone while the netdev has
 * another of the family: their memberships are left and joined from the
 * new one (new handles). A netdev with no address of the family keeps its
 * context: rdma_mcm joins again when the address comes back.
 */
static void move_contexts(struct grp_hold *h)
{
	struct sockaddr_storage now;
	struct grp_ctx *c, *next;
	char was[80];
	size_t i;

	for (c = h->ctxs; c; c = next) {
		next = c->next;
		if (!*c->dev || grp_netdev_has(c->dev, &c->src) ||
		    grp_netdev_addr(c->dev, c->family, &now) ||
		    !grp_addr_cmp(&now, &c->src))
			continue;
		grp_addr_text(&now, was, sizeof(was));
		grp_log(LOG_NOTICE, "dev %s: %s is gone: its memberships move to %s",
			c->dev, ctx_src(c), was);
		/* the context goes with its last membership */
		for (i = 0; i < h->n; i++)
			if (h->m[i]->ctx == c)
				member_leave(h, h->m[i]);
	}
}

void grp_hold_retry(struct grp_hold *h)
{
	size_t i;

	move_contexts(h);
	/* what still waits after this is scheduled anew (member_join()) */
	h->retry_ms = 0;
	for (i = 0; i < h->n; i++)
		if (h->m[i]->state == GRP_PENDING)
			member_join(h, h->m[i]);
}

int grp_hold_retry_ms(const struct grp_hold *h)
{
	struct timespec now;
	long long ms;

	if (!h->retry_ms)
		return -1;
	clock_gettime(CLOCK_MONOTONIC, &now);
	ms = (h->retry_at.tv_sec - now.tv_sec) * 1000LL +
	     (h->retry_at.tv_nsec - now.tv_nsec) / 1000000;
	return ms > 0 ? (int)ms : 0;
}

/* The retry timer went off: try, then wait twice as long */
void grp_hold_retry_due(struct grp_hold *h)
{
	int backoff = h->retry_ms;

	grp_hold_retry(h);
	if (!h->retry_ms)
		return;
	backoff = backoff * 2 > RETRY_MAX_MS ? RETRY_MAX_MS : backoff * 2;
	h->retry_ms = backoff;
	clock_gettime(CLOCK_MONOTONIC, &h->retry_at);
	h->retry_at.tv_sec += backoff / 1000;
}

void grp_hold_counts(const struct grp_hold *h, struct grp_counts *c)
{
	size_t i;

	memset(c, 0, sizeof(*c));
	for (i = 0; i < h->n; i++)
		c->n[h->m[i]->state]++;
	c->total = (unsigned int)h->n;
}

void grp_hold_places(const struct grp_hold *h, grp_place_fn fn, void *arg)
{
	const struct grp_ctx *c;
	const struct grp_member *m;
	size_t i;

	for (c = h->ctxs; c; c = c->next) {
		for (i = 0; i < h->n; i++) {
			m = h->m[i];
			if (m->ctx == c && m->e.type == RDMA_MCM_JOIN_FULLMEMBER &&
			    (m->state == GRP_JOINING || m->state == GRP_JOINED ||
			     m->state == GRP_WAITING))
				break;
		}
		if (i < h->n)
			fn(arg, c->dev, c->family, &c->src);
	}
}

const char *grp_state_name(enum grp_state s)
{
	return (unsigned int)s < GRP_NR_STATES ? state_names[s] : "unknown";
}
