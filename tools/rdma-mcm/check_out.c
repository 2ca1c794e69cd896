// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * rdma-mcm check: the report (check.h). Text: a "netdev" line per netdev
 * with indented "igmp", "mld" and "group" lines under it, then "limits",
 * a "dev" line per RDMA device, a line per finding ("problem", "warning",
 * "note") and the "status" line. With -j one object, Documentation/
 * rdma-mcm.schema.json's "check", the same fields.
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <string.h>

#include "check.h"

static const char *const levels[] = { "note", "warning", "problem" };
static const char *const statuses[] = { "ok", "warning", "problem" };

static const char *link_name(int link)
{
	return link == CK_LL_ETHERNET ? "ethernet" :
	       link == CK_LL_INFINIBAND ? "infiniband" : "unknown";
}

static const char *filter_name(int filter)
{
	return filter == CK_FILTER_YES ? "yes" :
	       filter == CK_FILTER_MISSING ? "missing" : "unlisted";
}

/* Whether the host's IGMP and MLD are shown for @nd */
static int with_ip(const struct ck_netdev *nd)
{
	return *nd->name && !nd->other_ns && nd->ifindex &&
	       nd->link != CK_LL_INFINIBAND;
}

/* The time since the last query, at the end of the listen */
static double age_of(const struct check *ck, const struct ck_heard *h)
{
	double age = ck->listened_s - h->last;

	return age > 0 ? age : 0;
}

static void ntop(int family, const uint8_t *a, char *buf, size_t len)
{
	inet_ntop(family, a, buf, (socklen_t)len);
}

/* --- text ------------------------------------------------------------------ */

static void querier_text(const struct check *ck, const struct ck_heard *h,
			 int family)
{
	const struct mcm_query *q = &h->q;
	char a[64];
	unsigned int i;

	if (!h->listened) {
		fputs(" querier not-listened", stdout);
		if (h->not_open)
			printf(" (%s)", strerror(h->not_open));
		return;
	}
	if (!h->queries && !h->ignored) {
		printf(" querier none listen %.0fs", ck->listened_s);
		return;
	}
	if (!h->queries) {
		ntop(family, q->src, a, sizeof(a));
		printf(" querier ignored %lu from %s %s (", h->ignored, a,
		       mcm_query_name(q));
		print_name(q->ignored);
		putchar(')');
		return;
	}
	printf(" querier heard queries %lu age %.1fs from", h->queries,
	       age_of(ck, h));
	for (i = 0; i < h->nfrom; i++) {
		ntop(family, h->from[i], a, sizeof(a));
		printf("%s%s", i ? "," : " ", a);
	}
	printf(" %s max-resp %.1fs", mcm_query_name(q),
	       (double)q->max_resp_ms / 1000);
	if (q->qqi_s)
		printf(" qqi %us", q->qqi_s);
	if (q->qrv)
		printf(" qrv %u", q->qrv);
	if (h->ignored)
		printf(" ignored %lu", h->ignored);
}

static void proto_text(const struct check *ck, const char *name,
		       const char *sysctl, const struct ck_proto *p,
		       int family)
{
	printf("    %s version ", name);
	if (p->version)
		printf("%d by %s", p->version, p->why);
	else
		fputs("unknown", stdout);
	if (p->force >= 0)
		printf(" %s %ld", sysctl, p->force);
	if (p->force_all >= 0)
		printf(" all %ld", p->force_all);
	querier_text(ck, &p->heard, family);
	putchar('\n');
}

static void group_text(const struct check *ck, const struct ck_netdev *nd,
		       const struct ck_group *g)
{
	static const char *const yes_no[] = { "no", "yes" };
	char a[64];
	size_t i;

	printf("    group %s", g->name);
	if (g->full)
		printf(" full %u", g->full);
	if (g->send_only)
		printf(" send-only %u", g->send_only);
	if (g->other)
		printf(" other %u", g->other);
	if (g->joining)
		printf(" joining %u", g->joining);
	if (g->waiting)
		printf(" waiting %u", g->waiting);
	if (g->error)
		printf(" error %u", g->error);
	if (g->qps)
		printf(" qps %u", g->qps);
	for (i = 0; !g->any_source && i < g->nsrc; i++) {
		ntop(g->family, g->src[i], a, sizeof(a));
		printf("%s%s", i ? "," : " sources ", a);
	}
	if (with_ip(nd)) {
		printf(" host-table %s", g->host < 0 ? "unknown" :
		       yes_no[g->host]);
		if (g->host > 0)
			printf(" users %u", g->users);
		if (g->filter != CK_FILTER_NONE)
			printf(" filter %s", filter_name(g->filter));
		if (ck->listen_s && g->full)
			printf(" refreshed %s", g->refreshed < 0 ? "unknown" :
			       yes_no[g->refreshed]);
	}
	putchar('\n');
}

static void netdev_text(const struct check *ck, const struct ck_netdev *nd)
{
	unsigned int i;
	size_t k;

	fputs("netdev ", stdout);
	if (*nd->name)
		print_name(nd->name);
	else
		fputs("none", stdout);
	if (nd->other_ns)
		printf(" netns %lu", nd->netns);
	if (nd->ifindex)
		printf(" ifindex %d", nd->ifindex);
	if (nd->state)
		printf(" state %s", nd->state);
	if (nd->multicast >= 0)
		printf(" multicast %s", nd->multicast ? "on" : "off");
	for (i = 0; i < nd->ndevs; i++) {
		fputs(" dev ", stdout);
		print_name(nd->devs[i]);
		printf(" port %u", nd->ports[i]);
	}
	if (*nd->name && !nd->other_ns)
		printf(" link-layer %s", link_name(nd->link));
	printf(" memberships %u\n", nd->members);
	if (with_ip(nd)) {
		proto_text(ck, "igmp", "force_igmp_version", &nd->igmp,
			   AF_INET);
		proto_text(ck, "mld", "force_mld_version", &nd->mld, AF_INET6);
	}
	for (k = 0; k < nd->ngrp; k++)
		group_text(ck, nd, &nd->grp[k]);
}

static void limits_text(const struct check *ck)
{
	fputs("limits", stdout);
	if (ck->max_memberships >= 0)
		printf(" igmp_max_memberships %ld", ck->max_memberships);
	if (ck->max_msf >= 0)
		printf(" igmp_max_msf %ld", ck->max_msf);
	if (ck->mld_max_msf >= 0)
		printf(" mld_max_msf %ld", ck->mld_max_msf);
	printf(" most-sources-inet %u most-sources-inet6 %u\n",
	       ck->most_src4, ck->most_src6);
}

/* " groups USED/MAX attaches USED/MAX qp-per-group MAX", as stats has it */
static void device_text(const struct rdma_mcm_nl_device *d)
{
	static const struct {
		int used, max;
		const char *key;
	} f[] = {
		{ RDMA_MCM_MCAST_GROUPS, RDMA_MCM_MCAST_GROUPS_MAX, "groups" },
		{ RDMA_MCM_MCAST_ATTACHES, RDMA_MCM_MCAST_ATTACHES_MAX,
		  "attaches" },
	};
	size_t i;

	if (!d->mcast_present)
		return;
	fputs("dev ", stdout);
	print_name(d->name);
	for (i = 0; i < sizeof(f) / sizeof(f[0]); i++)
		if ((d->mcast_present & (1U << f[i].used)) &&
		    (d->mcast_present & (1U << f[i].max)))
			printf(" %s %u/%u", f[i].key, d->mcast[f[i].used],
			       d->mcast[f[i].max]);
	if (d->mcast_present & (1U << RDMA_MCM_MCAST_QP_ATTACH_MAX))
		printf(" qp-per-group %u",
		       d->mcast[RDMA_MCM_MCAST_QP_ATTACH_MAX]);
	putchar('\n');
}

static void finding_text(const struct ck_finding *f)
{
	printf("%s %s", levels[f->level], f->code);
	if (*f->netdev) {
		fputs(" netdev ", stdout);
		print_name(f->netdev);
	}
	if (*f->group)
		printf(" group %s", f->group);
	if (*f->dev) {
		fputs(" dev ", stdout);
		print_name(f->dev);
	}
	fputs(": ", stdout);
	print_escaped(stdout, f->text, 1);
	putchar('\n');
}

static void check_text(const struct check *ck)
{
	size_t i;

	for (i = 0; i < ck->nnd; i++)
		netdev_text(ck, &ck->nd[i]);
	limits_text(ck);
	for (i = 0; ck->stats && i < ck->stats->n_devices; i++)
		if (ck_covers_dev(ck, ck->stats->devices[i].name))
			device_text(&ck->stats->devices[i]);
	for (i = 0; i < ck->nfnd; i++)
		finding_text(&ck->fnd[i]);
	printf("status %s problems %u warnings %u notes %u\n",
	       statuses[ck_status(ck)], ck->counts[CK_PROBLEM],
	       ck->counts[CK_WARNING], ck->counts[CK_NOTE]);
}

/* --- JSON -------------------------------------------------------------------- */

static void rec_addr(struct rec *r, const char *k, int family,
		     const uint8_t *a)
{
	char buf[64];

	ntop(family, a, buf, sizeof(buf));
	if (k)
		rec_str(r, k, buf);
	else
		rec_item(r, buf);
}

static void rec_long_or_null(struct rec *r, const char *k, long v)
{
	if (v >= 0)
		rec_int(r, k, v);
	else
		rec_null(r, k);
}

static void query_json(struct rec *r, const struct mcm_query *q)
{
	static const uint8_t zero[16];

	rec_open(r, "last", '{');
	rec_str(r, "version", mcm_query_name(q));
	rec_addr(r, "from", q->family, q->src);
	if (memcmp(q->group, zero, 16))
		rec_addr(r, "group", q->family, q->group);
	else
		rec_null(r, "group");
	rec_u64(r, "max_resp_ms", q->max_resp_ms);
	if (q->version == (q->family == AF_INET ? 3 : 2)) {
		rec_u64(r, "qqi_s", q->qqi_s);
		rec_u64(r, "qrv", q->qrv);
		rec_bool(r, "s_flag", q->s_flag);
		rec_u64(r, "sources", q->nsrcs);
	}
	rec_str_or_null(r, "ignored", q->ignored);
	rec_close(r, '}');
}

static void querier_json(struct rec *r, const struct check *ck,
			 const struct ck_heard *h, int family)
{
	unsigned int i;

	rec_open(r, "querier", '{');
	rec_bool(r, "listened", h->listened);
	if (h->not_open)
		rec_str(r, "error", strerror(h->not_open));
	if (h->listened) {
		rec_u64(r, "queries", h->queries);
		rec_u64(r, "ignored", h->ignored);
		if (h->queries)
			rec_ms(r, "age_s", age_of(ck, h));
		else
			rec_null(r, "age_s");
		rec_open(r, "queriers", '[');
		for (i = 0; i < h->nfrom; i++)
			rec_addr(r, NULL, family, h->from[i]);
		rec_close(r, ']');
		if (h->queries || h->ignored)
			query_json(r, &h->q);
	}
	rec_close(r, '}');
}

static void proto_json(struct rec *r, const struct check *ck,
		       const char *k, const struct ck_proto *p, int family)
{
	rec_open(r, k, '{');
	if (p->version) {
		rec_u64(r, "version", (uint64_t)p->version);
		rec_str(r, "by", p->why);
	} else {
		rec_null(r, "version");
		rec_null(r, "by");
	}
	rec_long_or_null(r, "force", p->force);
	rec_long_or_null(r, "force_all", p->force_all);
	querier_json(r, ck, &p->heard, family);
	rec_close(r, '}');
}

static void group_json(struct rec *r, const struct check *ck,
		       const struct ck_netdev *nd, const struct ck_group *g)
{
	size_t i;

	rec_open(r, NULL, '{');
	rec_str(r, "group", g->name);
	rec_str(r, "family", g->family == AF_INET ? "inet" : "inet6");
	rec_u64(r, "full", g->full);
	rec_u64(r, "send_only", g->send_only);
	rec_u64(r, "other", g->other);
	rec_u64(r, "joining", g->joining);
	rec_u64(r, "waiting", g->waiting);
	rec_u64(r, "error", g->error);
	rec_u64(r, "qps", g->qps);
	if (!g->any_source && g->nsrc) {
		rec_open(r, "sources", '[');
		for (i = 0; i < g->nsrc; i++)
			rec_addr(r, NULL, g->family, g->src[i]);
		rec_close(r, ']');
	}
	if (with_ip(nd)) {
		if (g->host < 0)
			rec_null(r, "host_table");
		else
			rec_bool(r, "host_table", g->host);
		if (g->host > 0)
			rec_u64(r, "users", g->users);
		if (g->filter != CK_FILTER_NONE)
			rec_str(r, "filter", filter_name(g->filter));
		if (ck->listen_s && g->full && g->refreshed >= 0)
			rec_bool(r, "refreshed", g->refreshed);
		else if (ck->listen_s && g->full)
			rec_null(r, "refreshed");
	}
	rec_close(r, '}');
}

static void netdev_json(struct rec *r, const struct check *ck,
			const struct ck_netdev *nd)
{
	unsigned int i;
	size_t k;

	rec_open(r, NULL, '{');
	rec_str_or_null(r, "netdev", *nd->name ? nd->name : NULL);
	if (nd->netns)
		rec_u64(r, "netns", nd->netns);
	rec_bool(r, "other_netns", nd->other_ns);
	if (nd->ifindex)
		rec_u64(r, "ifindex", (uint64_t)nd->ifindex);
	if (nd->state)
		rec_str(r, "state", nd->state);
	if (nd->multicast >= 0)
		rec_bool(r, "multicast", nd->multicast);
	rec_open(r, "devs", '[');
	for (i = 0; i < nd->ndevs; i++) {
		rec_open(r, NULL, '{');
		rec_str(r, "dev", nd->devs[i]);
		rec_u64(r, "port", nd->ports[i]);
		rec_close(r, '}');
	}
	rec_close(r, ']');
	if (*nd->name && !nd->other_ns)
		rec_str(r, "link_layer", link_name(nd->link));
	rec_u64(r, "memberships", nd->members);
	if (with_ip(nd)) {
		proto_json(r, ck, "igmp", &nd->igmp, AF_INET);
		proto_json(r, ck, "mld", &nd->mld, AF_INET6);
	}
	rec_open(r, "groups", '[');
	for (k = 0; k < nd->ngrp; k++)
		group_json(r, ck, nd, &nd->grp[k]);
	rec_close(r, ']');
	rec_close(r, '}');
}

static void limits_json(struct rec *r, const struct check *ck)
{
	rec_open(r, "limits", '{');
	rec_long_or_null(r, "igmp_max_memberships", ck->max_memberships);
	rec_long_or_null(r, "igmp_max_msf", ck->max_msf);
	rec_long_or_null(r, "mld_max_msf", ck->mld_max_msf);
	rec_u64(r, "most_sources_inet", ck->most_src4);
	rec_u64(r, "most_sources_inet6", ck->most_src6);
	rec_close(r, '}');
}

static void devices_json(struct rec *r, const struct check *ck)
{
	static const char *const keys[RDMA_MCM_NL_MCAST] = {
		[RDMA_MCM_MCAST_GROUPS] = "groups",
		[RDMA_MCM_MCAST_GROUPS_MAX] = "groups_max",
		[RDMA_MCM_MCAST_ATTACHES] = "attaches",
		[RDMA_MCM_MCAST_ATTACHES_MAX] = "attaches_max",
		[RDMA_MCM_MCAST_QP_ATTACH_MAX] = "qp_attach_max",
	};
	const struct rdma_mcm_nl_device *d;
	uint32_t k;
	size_t i;

	rec_open(r, "devices", '[');
	for (i = 0; ck->stats && i < ck->stats->n_devices; i++) {
		d = &ck->stats->devices[i];
		if (!d->mcast_present || !ck_covers_dev(ck, d->name))
			continue;
		rec_open(r, NULL, '{');
		rec_str(r, "dev", d->name);
		for (k = 1; k < RDMA_MCM_NL_MCAST; k++)
			if (keys[k] && (d->mcast_present & (1U << k)))
				rec_u64(r, keys[k], d->mcast[k]);
		rec_close(r, '}');
	}
	rec_close(r, ']');
}

static void findings_json(struct rec *r, const struct check *ck)
{
	const struct ck_finding *f;
	size_t i;

	rec_open(r, "findings", '[');
	for (i = 0; i < ck->nfnd; i++) {
		f = &ck->fnd[i];
		rec_open(r, NULL, '{');
		rec_str(r, "level", levels[f->level]);
		rec_str(r, "code", f->code);
		rec_str_or_null(r, "netdev", *f->netdev ? f->netdev : NULL);
		rec_str_or_null(r, "group", *f->group ? f->group : NULL);
		rec_str_or_null(r, "dev", *f->dev ? f->dev : NULL);
		rec_str(r, "text", f->text);
		rec_close(r, '}');
	}
	rec_close(r, ']');
}

static void check_json(const struct check *ck)
{
	struct rec r;
	size_t i;

	rec_begin(&r);
	rec_str(&r, "status", statuses[ck_status(ck)]);
	rec_u64(&r, "problems", ck->counts[CK_PROBLEM]);
	rec_u64(&r, "warnings", ck->counts[CK_WARNING]);
	rec_u64(&r, "notes", ck->counts[CK_NOTE]);
	if (ck->netns)
		rec_u64(&r, "netns", ck->netns);
	if (ck->listen_s)
		rec_ms(&r, "listen_s", ck->listened_s);
	else
		rec_null(&r, "listen_s");
	rec_open(&r, "netdevs", '[');
	for (i = 0; i < ck->nnd; i++)
		netdev_json(&r, ck, &ck->nd[i]);
	rec_close(&r, ']');
	limits_json(&r, ck);
	devices_json(&r, ck);
	findings_json(&r, ck);
	rec_end(&r);
}

void ck_print(struct check *ck)
{
	if (ck->cli->json)
		check_json(ck);
	else
		check_text(ck);
}
