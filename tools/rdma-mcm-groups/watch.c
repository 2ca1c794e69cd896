// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * rdma-mcm-groups: the querier watchdog.
 *
 * A snooping switch keeps a port in a group while the host's reports
 * refresh it, and a host reports only when a querier asks (past the
 * unsolicited reports of a join). On a network without a querier, or
 * when the querier goes away, the switch ages the port out after its
 * membership interval (260 s by default) and the group's RoCE traffic no
 * longer arrives, while everything on the host still says joined. Linux
 * keeps no record of the queries it heard, so the watchdog listens
 * itself: for each netdev where the service holds a full member (IGMP
 * for IPv4 groups, MLD for IPv6; a send-only member reports nothing),
 * a raw socket of rdma-mcm's querier.c. When no query the host would
 * answer has come for the timeout, it logs once, counts a silence and
 * names it in STATUS=; when a query comes again, it logs that too.
 *
 * The timeout by default is RFC 3376 8.5's (RFC 3810 9.5's) Other
 * Querier Present Interval: robustness times query interval plus half
 * the maximum response time, from what the last query announced
 * (IGMPv3, MLDv2), or from the RFCs' defaults (2 x 125 s + 10 s / 2 =
 * 255 s) until then. --querier-timeout sets it instead, or turns the
 * watchdog off.
 *
 * It does not rejoin: a leave and a join make the switch prune the port
 * for a moment, and the kernel's unsolicited reports stop after the
 * robustness count anyway. The remedy is a querier (the switch's, or a
 * Linux bridge's multicast_querier); rdma-mcm-check(8) says which
 * netdevs lack one.
 *
 * Times are the caller's, in milliseconds of CLOCK_MONOTONIC (the tests
 * pass their own).
 */
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <syslog.h>
#include <time.h>
#include <unistd.h>

#include "groups.h"
#include "querier.h"
#include "rdma_mcm_cli.h"

/* RFC 3376 8.1-8.3 and RFC 3810 9.1-9.3: robustness, query interval, QRI */
#define DEFAULT_QRV		2
#define DEFAULT_QI_MS		125000
#define DEFAULT_QRI_MS		10000
/* The most messages read from one socket at a time */
#define READ_BATCH		64

struct watch_ent {
	struct watch_ent *next;
	char dev[IF_NAMESIZE];
	int family;
	struct mcm_querier *qr;	/* NULL: no socket, @err says why */
	int open;		/* listening (the tests: without a socket) */
	unsigned int ifindex;	/* the netdev's, when the socket was bound */
	int err;
	int wanted;
	int64_t since_ms;	/* when the watch began */
	int64_t heard_ms;	/* the last query heard; -1: none yet */
	struct mcm_query last;	/* that query */
	time_t heard_wall;	/* the same, as wall-clock time */
	int silent;
	time_t silent_wall;	/* when the silence was seen */
	const char *ignored;	/* a reason logged for an ignored one */
	int64_t changed_ms;	/* a new querier logged then; -1: never */
	uint64_t queries, ignored_n, silences;
};

struct grp_watch {
	struct watch_ent *ents;
	unsigned int timeout_s;	/* 0: the RFCs' interval */
	int no_sockets;
	char *state_file;
	int state_err;		/* the last write's errno, logged once */
	int written;		/* the state file is ours to remove */
	int dirty;
};

static const char *proto(int family)
{
	return family == AF_INET6 ? "MLD" : "IGMP";
}

int64_t grp_now_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (int64_t)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

static void addr_text(int family, const uint8_t *a, char *buf, size_t len)
{
	struct sockaddr_storage ss = { .ss_family = (sa_family_t)family };

	if (family == AF_INET6)
		memcpy(&((struct sockaddr_in6 *)&ss)->sin6_addr, a, 16);
	else
		memcpy(&((struct sockaddr_in *)&ss)->sin_addr, a, 4);
	grp_addr_text(&ss, buf, len);
}

struct grp_watch *grp_watch_new(unsigned int timeout_s, const char *state_file,
				int no_sockets)
{
	struct grp_watch *w = calloc(1, sizeof(*w));

	if (!w)
		return NULL;
	w->timeout_s = timeout_s;
	w->no_sockets = no_sockets;
	if (state_file && *state_file) {
		w->state_file = strdup(state_file);
		if (!w->state_file) {
			free(w);
			return NULL;
		}
	}
	return w;
}

static void ent_free(struct watch_ent *e)
{
	mcm_querier_close(e->qr);
	free(e);
}

void grp_watch_free(struct grp_watch *w)
{
	struct watch_ent *e, *next;

	if (!w)
		return;
	for (e = w->ents; e; e = next) {
		next = e->next;
		ent_free(e);
	}
	if (w->state_file && w->written)
		unlink(w->state_file);
	free(w->state_file);
	free(w);
}

static struct watch_ent *find(struct grp_watch *w, const char *dev, int family)
{
	struct watch_ent *e;

	for (e = w->ents; e; e = e->next)
		if (e->family == family && !strcmp(e->dev, dev))
			return e;
	return NULL;
}

/* Listen on @e's netdev, when it does not yet; a failure logged once */
static void ent_open(struct grp_watch *w, struct watch_ent *e, int64_t now)
{
	int err;

	if (e->open)
		return;
	if (w->no_sockets) {
		e->err = 0;
	} else {
		e->ifindex = if_nametoindex(e->dev);
		e->qr = mcm_querier_open(e->dev, e->family);
		err = e->qr ? 0 : errno;
		if (err && err != e->err)
			grp_log(LOG_WARNING, "dev %s: querier watchdog off for %s: %s%s",
				e->dev, proto(e->family), strerror(err),
				err == EPERM ? " (it needs CAP_NET_RAW)" : "");
		else if (!err && e->err)
			grp_log(LOG_INFO, "dev %s: querier watchdog on for %s",
				e->dev, proto(e->family));
		e->err = err;
		if (err)
			return;
	}
	/* the silence is counted from when it began to listen */
	e->open = 1;
	e->since_ms = now;
	w->dirty = 1;
}

/* Stop listening on @e: what it heard is forgotten, a new wait begins */
static void ent_close(struct grp_watch *w, struct watch_ent *e)
{
	mcm_querier_close(e->qr);
	e->qr = NULL;
	e->open = 0;
	e->silent = 0;
	e->heard_ms = -1;
	w->dirty = 1;
}

void grp_watch_begin(struct grp_watch *w)
{
	struct watch_ent *e;

	for (e = w->ents; e; e = e->next)
		e->wanted = 0;
}

void grp_watch_want(struct grp_watch *w, const char *dev, int family,
		    int64_t now)
{
	struct watch_ent *e = find(w, dev, family);

	if (!e) {
		e = calloc(1, sizeof(*e));
		if (!e) {
			grp_log(LOG_ERR, "querier watchdog: out of memory");
			return;
		}
		snprintf(e->dev, sizeof(e->dev), "%s", dev);
		e->family = family;
		e->heard_ms = -1;
		e->changed_ms = -1;
		e->next = w->ents;
		w->ents = e;
		w->dirty = 1;
	}
	e->wanted = 1;
	/*
	 * A socket is bound to an ifindex: a netdev removed and made again
	 * (a veth, a VF) under the same name needs a new one
	 */
	if (e->qr && if_nametoindex(dev) != e->ifindex) {
		grp_log(LOG_INFO, "dev %s: the netdev changed: listening again for %s queries",
			dev, proto(family));
		ent_close(w, e);
	}
	/* a permanent refusal is not tried again and again */
	if (e->err != EPERM && e->err != EACCES && e->err != EAFNOSUPPORT)
		ent_open(w, e, now);
}

void grp_watch_end(struct grp_watch *w)
{
	struct watch_ent **p = &w->ents, *e;

	while ((e = *p)) {
		if (e->wanted) {
			p = &e->next;
			continue;
		}
		*p = e->next;
		ent_free(e);
		w->dirty = 1;
	}
}

/* @e's interval: the timeout set, or the RFCs' from its last query */
static int64_t interval_ms(const struct grp_watch *w,
			   const struct watch_ent *e)
{
	const struct mcm_query *q = &e->last;

	if (w->timeout_s)
		return (int64_t)w->timeout_s * 1000;
	if (e->heard_ms >= 0 && q->qqi_s)
		return (int64_t)(q->qrv ? q->qrv : DEFAULT_QRV) * q->qqi_s * 1000 +
		       q->max_resp_ms / 2;
	return (int64_t)DEFAULT_QRV * DEFAULT_QI_MS + DEFAULT_QRI_MS / 2;
}

static int64_t deadline(const struct grp_watch *w, const struct watch_ent *e)
{
	return (e->heard_ms >= 0 ? e->heard_ms : e->since_ms) +
	       interval_ms(w, e);
}

static int general(const struct mcm_query *q)
{
	static const uint8_t zero[16];

	return !memcmp(q->group, zero, sizeof(zero));
}

static void on_query(struct grp_watch *w, struct watch_ent *e,
		     const struct mcm_query *q, int64_t now)
{
	char a[64], b[64];
	uint32_t mrt;
	int changed;

	if (q->ignored) {
		e->ignored_n++;
		w->dirty = 1;
		/* each reason once while the watch lasts (it is counted) */
		if (e->ignored != q->ignored) {
			addr_text(q->family, q->src, a, sizeof(a));
			grp_log(LOG_WARNING,
				"dev %s: %s query from %s ignored, as the host ignores it (%s): it refreshes no membership",
				e->dev, mcm_query_name(q), a, q->ignored);
			e->ignored = q->ignored;
		}
		return;
	}
	addr_text(q->family, q->src, a, sizeof(a));
	changed = e->heard_ms < 0 || e->last.version != q->version ||
		  memcmp(e->last.src, q->src, sizeof(q->src));
	if (e->silent) {
		grp_log(LOG_NOTICE,
			"dev %s: %s query heard again, from %s (%s), %lld s after the last",
			e->dev, proto(e->family), a, mcm_query_name(q),
			(long long)(now - (e->heard_ms >= 0 ? e->heard_ms :
					   e->since_ms)) / 1000);
		e->silent = 0;
		e->changed_ms = now;
	} else if (changed &&
		   (e->changed_ms < 0 || now - e->changed_ms >= interval_ms(w, e))) {
		/* at most once an interval: two queriers that alternate */
		*b = '\0';
		if (e->heard_ms >= 0) {
			addr_text(e->last.family, e->last.src, b, sizeof(b) - 20);
			snprintf(b + strlen(b), 20, " %s", mcm_query_name(&e->last));
		}
		grp_log(LOG_INFO, "dev %s: %s querier %s (%s)%s%s", e->dev,
			proto(e->family), a, mcm_query_name(q),
			*b ? ", was " : "", b);
		e->changed_ms = now;
	}
	/*
	 * A group-specific query's response time is the Last Member Query
	 * Interval, not the Query Response Interval: the last general one's
	 * stays
	 */
	mrt = e->heard_ms >= 0 ? e->last.max_resp_ms : DEFAULT_QRI_MS;
	e->queries++;
	e->last = *q;
	if (!general(q))
		e->last.max_resp_ms = mrt;
	e->heard_ms = now;
	e->heard_wall = time(NULL);
	w->dirty = 1;
}

int grp_watch_heard(struct grp_watch *w, const char *dev,
		    const struct mcm_query *q, int64_t now)
{
	struct watch_ent *e = find(w, dev, q->family);

	if (!e || !e->open)
		return -1;
	on_query(w, e, q, now);
	return 0;
}

void grp_watch_read(struct grp_watch *w, int64_t now)
{
	struct mcm_query q;
	struct watch_ent *e;
	int r, n, err;

	for (e = w->ents; e; e = e->next) {
		if (!e->qr)
			continue;
		/* a bounded batch: the loop's other descriptors wait meanwhile */
		for (n = 0; n < READ_BATCH; n++) {
			r = mcm_querier_read(e->qr, &q);
			if (r < 0)
				break;
			if (r == 1)
				on_query(w, e, &q, now);
		}
		err = errno;
		if (n == READ_BATCH || err == EAGAIN || err == EWOULDBLOCK ||
		    err == EINTR)
			continue;
		/* the netdev went (ENODEV, ENXIO): listen again when it comes */
		grp_log(LOG_WARNING, "dev %s: %s queries: %s", e->dev,
			proto(e->family), strerror(err));
		e->err = err;
		ent_close(w, e);
	}
}

void grp_watch_tick(struct grp_watch *w, int64_t now)
{
	struct watch_ent *e;
	char a[64];

	for (e = w->ents; e; e = e->next) {
		if (!e->open || e->silent || now < deadline(w, e))
			continue;
		e->silent = 1;
		e->silences++;
		e->silent_wall = time(NULL);
		w->dirty = 1;
		if (e->heard_ms < 0) {
			grp_log(LOG_WARNING,
				"dev %s: no %s query heard in %lld s: without a querier, a snooping switch ages out the memberships reported here (rdma-mcm-check(8))",
				e->dev, proto(e->family),
				(long long)(now - e->since_ms) / 1000);
			continue;
		}
		addr_text(e->last.family, e->last.src, a, sizeof(a));
		grp_log(LOG_WARNING,
			"dev %s: no %s query heard in %lld s, since %s's (%s): without a querier, a snooping switch ages out the memberships reported here (rdma-mcm-check(8))",
			e->dev, proto(e->family),
			(long long)(now - e->heard_ms) / 1000, a,
			mcm_query_name(&e->last));
	}
}

int grp_watch_timeout_ms(const struct grp_watch *w, int64_t now)
{
	const struct watch_ent *e;
	int64_t best = -1, d;

	for (e = w->ents; e; e = e->next) {
		if (!e->open || e->silent)
			continue;
		d = deadline(w, e) - now;
		if (d < 0)
			d = 0;
		if (best < 0 || d < best)
			best = d;
	}
	return best > 24 * 3600 * 1000 ? 24 * 3600 * 1000 : (int)best;
}

size_t grp_watch_fds(const struct grp_watch *w, struct pollfd *p, size_t max)
{
	const struct watch_ent *e;
	size_t n = 0;

	for (e = w->ents; e && n < max; e = e->next)
		if (e->qr)
			p[n++] = (struct pollfd){ .fd = mcm_querier_fd(e->qr),
						  .events = POLLIN };
	return n;
}

size_t grp_watch_count(const struct grp_watch *w)
{
	const struct watch_ent *e;
	size_t n = 0;

	for (e = w->ents; e; e = e->next)
		n++;
	return n;
}

void grp_watch_status(const struct grp_watch *w, char *buf, size_t len)
{
	const struct watch_ent *e;
	size_t at = 0;

	if (len)
		*buf = '\0';
	for (e = w->ents; e && at < len; e = e->next)
		if (e->silent)
			at += (size_t)snprintf(buf + at, len - at, "%s%s on %s",
					       at ? ", " : "; no querier: ",
					       proto(e->family), e->dev);
}

void grp_watch_stats(const struct grp_watch *w, const char *dev, int family,
		     struct grp_watch_stats *st)
{
	const struct watch_ent *e;

	memset(st, 0, sizeof(*st));
	st->listening = -1;
	for (e = w->ents; e; e = e->next) {
		if (e->family != family || strcmp(e->dev, dev))
			continue;
		st->listening = e->open;
		st->silent = e->silent;
		st->queries = e->queries;
		st->ignored = e->ignored_n;
		st->silences = e->silences;
		st->interval_ms = interval_ms(w, e);
	}
}

/* --- the state file ---------------------------------------------------------- */

static void ent_record(const struct grp_watch *w, const struct watch_ent *e,
		       FILE *f)
{
	char a[64];
	struct rec r;

	rec_begin(&r);
	rec_str(&r, "dev", e->dev);
	rec_str(&r, "family", e->family == AF_INET6 ? "inet6" : "inet");
	rec_str(&r, "protocol", e->family == AF_INET6 ? "mld" : "igmp");
	rec_bool(&r, "listening", e->open);
	rec_str_or_null(&r, "error", e->err ? strerror(e->err) : NULL);
	rec_u64(&r, "timeout_ms", (uint64_t)interval_ms(w, e));
	rec_bool(&r, "silent", e->silent);
	if (e->silent)
		rec_int(&r, "silent_since", (long long)e->silent_wall);
	else
		rec_null(&r, "silent_since");
	rec_u64(&r, "silences", e->silences);
	rec_u64(&r, "queries", e->queries);
	rec_u64(&r, "ignored", e->ignored_n);
	if (e->heard_ms >= 0) {
		addr_text(e->last.family, e->last.src, a, sizeof(a));
		rec_str(&r, "querier", a);
		rec_str(&r, "version", mcm_query_name(&e->last));
		rec_int(&r, "last_query", (long long)e->heard_wall);
		rec_u64(&r, "qqi_s", e->last.qqi_s);
		rec_u64(&r, "qrv", e->last.qrv);
		rec_u64(&r, "max_resp_ms", e->last.max_resp_ms);
	} else {
		rec_null(&r, "querier");
		rec_null(&r, "version");
		rec_null(&r, "last_query");
		rec_null(&r, "qqi_s");
		rec_null(&r, "qrv");
		rec_null(&r, "max_resp_ms");
	}
	rec_end_to(&r, f);
}

void grp_watch_flush(struct grp_watch *w)
{
	const struct watch_ent *e;
	char tmp[4200];
	FILE *f = NULL;
	int err = 0, fd;

	if (!w->dirty || !w->state_file)
		return;
	w->dirty = 0;
	snprintf(tmp, sizeof(tmp), "%s.tmp", w->state_file);
	/*
	 * Not through a link someone left there; readable by all (a monitor
	 * that is not root), whatever the umask
	 */
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC,
		  0644);
	if (fd >= 0 && !fchmod(fd, 0644))
		f = fdopen(fd, "w");
	if (!f) {
		err = errno;
		if (fd >= 0) {
			close(fd);
			unlink(tmp);
		}
	} else {
		for (e = w->ents; e; e = e->next)
			ent_record(w, e, f);
		if (fflush(f) || ferror(f))
			err = errno ? errno : EIO;
		if (fclose(f) && !err)
			err = errno;
		if (!err && rename(tmp, w->state_file))
			err = errno;
		if (err)
			unlink(tmp);
		else
			w->written = 1;
	}
	if (err && err != w->state_err)
		grp_log(LOG_WARNING, "%s: %s", w->state_file, strerror(err));
	w->state_err = err;
}
