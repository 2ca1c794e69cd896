// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * rdma-mcm check: the host's view of each netdev and group, and what is
 * wrong with it (check.h). A finding is a problem (the network does not
 * get, or cannot act on, what a membership needs), a warning (it works,
 * worse than asked, or will stop working) or a note (worth knowing).
 *
 *   problem  member-error        a membership failed
 *            absent              a joined full member's group is not in
 *                                /proc/net/igmp(6): the host reports
 *                                nothing for it
 *            filter-missing      a source of a source-specific member is
 *                                not in the netdev's filter
 *            link-down           the netdev is not up
 *            no-multicast        the netdev has no IFF_MULTICAST
 *            no-netdev           the memberships' netdev is not there
 *            hca-groups-full     the RDMA device's groups (or attaches)
 *            hca-attaches-full   are all taken: the next join is refused
 *   warning  member-waiting      a membership waits to be joined again
 *            sources-not-reported  a source-specific member on a netdev in
 *                                IGMPv1/v2 or MLDv1: the reports carry no
 *                                source, the network forwards them all
 *            no-querier          no query heard in a listen of a query
 *                                interval or more
 *            query-ignored       queries came that the host drops
 *            mld-v1-ignored      an MLDv1 querier, and force_mld_version 2
 *            hca-groups-near     90% of a device's groups (attaches) taken
 *            hca-attaches-near
 *            group-qps-full      a group has its device's QPs per group
 *            igmp-max-msf-full   a membership has as many sources as
 *            mld-max-msf-full    igmp_max_msf / mld_max_msf allow
 *            igmp-max-memberships-zero  no IPv4 group can be joined
 *            table-unreadable    /proc/net/igmp(6) could not be read
 *   note     querier-version     an older querier put the host in IGMPv1/v2
 *            other-netns         memberships of another network namespace
 *            infiniband          an InfiniBand port: the SA, not IGMP/MLD
 *            limits-unknown      the module's figures need CAP_NET_ADMIN
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

void ck_find(struct check *ck, int level, const char *code,
	     const char *netdev, const char *group, const char *dev,
	     const char *fmt, ...)
{
	struct ck_finding *f;
	size_t cap = ck->fcap ? 2 * ck->fcap : 16;
	va_list ap;
	void *p;

	if (ck->nfnd == ck->fcap) {
		p = realloc(ck->fnd, cap * sizeof(*ck->fnd));
		if (!p) {
			/* counted still: the exit status stays right */
			ck->counts[level]++;
			return;
		}
		ck->fnd = p;
		ck->fcap = cap;
	}
	f = &ck->fnd[ck->nfnd++];
	memset(f, 0, sizeof(*f));
	f->level = level;
	f->code = code;
	snprintf(f->netdev, sizeof(f->netdev), "%s", netdev ? netdev : "");
	snprintf(f->group, sizeof(f->group), "%s", group ? group : "");
	snprintf(f->dev, sizeof(f->dev), "%s", dev ? dev : "");
	va_start(ap, fmt);
	vsnprintf(f->text, sizeof(f->text), fmt, ap);
	va_end(ap);
	ck->counts[level]++;
}

int ck_status(const struct check *ck)
{
	if (ck->counts[CK_PROBLEM])
		return CHECK_PROBLEM;
	return ck->counts[CK_WARNING] ? CHECK_WARNING : CHECK_OK;
}

/* net/@family/conf/@dev/@key, or -1 when it cannot be read */
static long conf_sysctl(const char *family, const char *dev, const char *key)
{
	char path[128];
	long v;

	snprintf(path, sizeof(path), "net/%s/conf/%s/%s", family, dev, key);
	return hm_sysctl(path, &v) ? -1 : v;
}

/*
 * The IGMP version in force on @nd, as igmp.c decides it: IGMPv1 when
 * force_igmp_version (the netdev's or all's) is 1 or an IGMPv1 querier
 * was heard within its Older Version Querier Present Timeout, IGMPv2 the
 * same with 2, else IGMPv3 (3 forces nothing: it is 0's behaviour). The
 * Querier column of /proc/net/igmp is that version; whether it is forced
 * is the sysctls'.
 */
static void igmp_version(struct check *ck, struct ck_netdev *nd)
{
	const struct hm_dev *d = hm_dev_by_name(&ck->hm.v4, nd->name);
	struct ck_proto *p = &nd->igmp;

	p->force = conf_sysctl("ipv4", nd->name, "force_igmp_version");
	p->force_all = conf_sysctl("ipv4", "all", "force_igmp_version");
	if (!d || !d->querier)
		return;
	p->version = d->querier;
	if (p->version < 3 && (p->force == p->version ||
			       p->force_all == p->version))
		p->why = "force";
	else if (p->version < 3)
		p->why = "querier";
	else
		p->why = "default";
}

/*
 * The MLD version in force: force_mld_version, all's over the netdev's
 * when set (mld_force_mld_version()); else MLDv2, MLDv1 for a while after
 * an MLDv1 query, which /proc does not show: only a listen tells.
 */
static void mld_version(struct check *ck, struct ck_netdev *nd)
{
	struct ck_proto *p = &nd->mld;
	long force;

	p->force = conf_sysctl("ipv6", nd->name, "force_mld_version");
	p->force_all = conf_sysctl("ipv6", "all", "force_mld_version");
	if (!hm_dev_by_name(&ck->hm.v6, nd->name))
		return;
	force = p->force_all > 0 ? p->force_all : p->force;
	if (force == 1 || force == 2) {
		p->version = (int)force;
		p->why = "force";
	} else if (p->heard.queries && p->heard.q.version == 1) {
		p->version = 1;
		p->why = "querier";
	} else {
		p->version = 2;
		p->why = "default";
	}
}

static const char *proto_name(int family)
{
	return family == AF_INET ? "IGMP" : "MLD";
}

static void member_states(struct check *ck, const struct ck_netdev *nd,
			  const struct ck_group *g)
{
	const struct ck_mem *m;
	char st[128];

	if (g->error) {
		m = g->first_error;
		status_text(m->status, st, sizeof(st));
		ck_find(ck, CK_PROBLEM, "member-error", nd->name, g->name,
			m->dev, "%u membership%s in error (ctx %u handle %u: %s)",
			g->error, g->error > 1 ? "s" : "", m->ctx, m->handle,
			st);
	}
	if (g->waiting) {
		m = g->first_waiting;
		status_text(m->status, st, sizeof(st));
		ck_find(ck, CK_WARNING, "member-waiting", nd->name, g->name,
			m->dev,
			"%u membership%s waiting to be joined again (ctx %u handle %u: %s)",
			g->waiting, g->waiting > 1 ? "s" : "", m->ctx,
			m->handle, st);
	}
}

/* A source-specific group's sources in the netdev's filter */
static void group_filter(struct check *ck, const struct ck_netdev *nd,
			 struct ck_group *g, const struct hm_family *fam)
{
	const struct hm_filter *e;
	char missing[256] = "", a[64];
	size_t i, len = 0;

	if (g->any_source || !g->nsrc || g->host != 1)
		return;
	if (!hm_filters_listed(fam, nd->ifindex)) {
		g->filter = CK_FILTER_UNLISTED;
		return;
	}
	for (i = 0; i < g->nsrc; i++) {
		e = hm_filter_find(fam, nd->ifindex, g->addr, g->src[i]);
		if (e && e->inc)
			continue;
		inet_ntop(g->family, g->src[i], a, sizeof(a));
		if (len < sizeof(missing))
			len += (size_t)snprintf(missing + len,
						sizeof(missing) - len, "%s%s",
						len ? "," : "", a);
	}
	g->filter = len ? CK_FILTER_MISSING : CK_FILTER_YES;
	if (len)
		ck_find(ck, CK_PROBLEM, "filter-missing", nd->name, g->name,
			NULL,
			"source-specific member, but /proc/net/mcfilter%s has no INCLUDE entry for %s: the host does not report %s",
			g->family == AF_INET ? "" : "6", missing,
			strchr(missing, ',') ? "them" : "it");
}

/* Whether a query of @h asked for @g: 1, 0, or -1 (cannot tell) */
static int refreshed(const struct check *ck, const struct ck_heard *h,
		     const struct ck_group *g)
{
	unsigned int i;

	if (!h->listened)
		return -1;
	if (h->general)
		return 1;
	for (i = 0; i < h->nasked; i++)
		if (!memcmp(h->asked[i], g->addr, 16))
			return 1;
	return ck->listened_s >= CK_QUERY_INTERVAL_S ? 0 : -1;
}

static void group_view(struct check *ck, struct ck_netdev *nd,
		       struct ck_group *g)
{
	const struct hm_family *fam = g->family == AF_INET ? &ck->hm.v4 :
							      &ck->hm.v6;
	const struct ck_proto *p = g->family == AF_INET ? &nd->igmp : &nd->mld;
	const struct hm_group *hg;

	if (fam->read && nd->ifindex) {
		hg = hm_group_find(fam, nd->ifindex, g->addr);
		g->host = !!hg;
		g->users = hg ? hg->users : 0;
	}
	if (!g->full)
		return;
	if (!fam->read && !(ck->unreadable & (1U << g->family))) {
		ck->unreadable |= 1U << g->family;
		ck_find(ck, CK_WARNING, "table-unreadable", NULL, NULL, NULL,
			"/proc/net/igmp%s cannot be read: the host's %s groups are not known",
			g->family == AF_INET ? "" : "6",
			proto_name(g->family));
	}
	g->refreshed = refreshed(ck, &p->heard, g);
	if (!g->host)
		ck_find(ck, CK_PROBLEM, "absent", nd->name, g->name, NULL,
			"%u joined full member%s, but /proc/net/igmp%s does not list the group on %s: the host sends no %s report for it, the network does not forward it here",
			g->full, g->full > 1 ? "s" : "",
			g->family == AF_INET ? "" : "6", nd->name,
			proto_name(g->family));
	group_filter(ck, nd, g, fam);
	if (!g->any_source && g->nsrc && p->version &&
	    p->version < (g->family == AF_INET ? 3 : 2))
		ck_find(ck, CK_WARNING, "sources-not-reported", nd->name,
			g->name, NULL,
			"source-specific member, but %s is in %sv%d (%s): its reports carry no source, the network forwards every source",
			nd->name, proto_name(g->family), p->version,
			!strcmp(p->why, "force") ?
			(g->family == AF_INET ? "force_igmp_version" :
			 "force_mld_version") : "an older querier");
}

/* What the listen says of a family on @nd, which has @full members */
static void querier_findings(struct check *ck, struct ck_netdev *nd,
			     int family, unsigned int full)
{
	const struct ck_proto *p = family == AF_INET ? &nd->igmp : &nd->mld;
	const struct ck_heard *h = &p->heard;
	char a[64];

	if (!h->listened || (!full && !nd->members))
		return;
	if (h->ignored && !h->queries) {
		inet_ntop(family, h->q.src, a, sizeof(a));
		ck_find(ck, CK_WARNING, "query-ignored", nd->name, NULL, NULL,
			"%lu %s quer%s from %s, which the host drops: %s",
			h->ignored, proto_name(family),
			h->ignored > 1 ? "ies" : "y", a, h->q.ignored);
	} else if (!h->queries && full &&
		   ck->listened_s >= CK_QUERY_INTERVAL_S) {
		ck_find(ck, CK_WARNING, "no-querier", nd->name, NULL, NULL,
			"no %s query in %.0f s: without a querier nothing refreshes the %u full member group%s' reports, and snooping switches drop or flood them after their timeout",
			proto_name(family), ck->listened_s, full,
			full > 1 ? "s" : "");
	}
	if (family == AF_INET6 && h->queries && h->q.version == 1 &&
	    (p->force_all == 2 || (p->force_all <= 0 && p->force == 2)))
		ck_find(ck, CK_WARNING, "mld-v1-ignored", nd->name, NULL, NULL,
			"an MLDv1 querier, and force_mld_version 2: the host ignores its queries, and it never hears the host's reports");
}

static void netdev_findings(struct check *ck, struct ck_netdev *nd)
{
	unsigned int full4 = 0, full6 = 0;
	size_t i;

	if (!nd->ifindex) {
		ck_find(ck, CK_PROBLEM, "no-netdev", nd->name, NULL, NULL,
			"its memberships' netdev is not in this network namespace");
		return;
	}
	if (nd->state && strcmp(nd->state, "up"))
		ck_find(ck, CK_PROBLEM, "link-down", nd->name, NULL, NULL,
			"the netdev is %s: nothing is sent or received on it",
			!strcmp(nd->state, "down") ? "down" :
			"up, its link is not (no carrier)");
	if (!nd->multicast)
		ck_find(ck, CK_PROBLEM, "no-multicast", nd->name, NULL, NULL,
			"the netdev has no multicast (ip link set %s multicast on)",
			nd->name);
	igmp_version(ck, nd);
	mld_version(ck, nd);
	for (i = 0; i < nd->ngrp; i++) {
		group_view(ck, nd, &nd->grp[i]);
		if (nd->grp[i].family == AF_INET)
			full4 += nd->grp[i].full;
		else
			full6 += nd->grp[i].full;
	}
	if (nd->igmp.version && nd->igmp.version < 3 &&
	    !strcmp(nd->igmp.why, "querier"))
		ck_find(ck, CK_NOTE, "querier-version", nd->name, NULL, NULL,
			"an IGMPv%d querier was heard in the last few minutes (its query interval times its robustness, 260 s by default): the host answers in IGMPv%d",
			nd->igmp.version, nd->igmp.version);
	querier_findings(ck, nd, AF_INET, full4);
	querier_findings(ck, nd, AF_INET6, full6);
}

/* The module's figures of @dev: its groups and attaches against its limits */
static void device_findings(struct check *ck,
			    const struct rdma_mcm_nl_device *d)
{
	static const struct {
		int used, max;
		const char *what, *near, *full;
	} lim[] = {
		{ RDMA_MCM_MCAST_GROUPS, RDMA_MCM_MCAST_GROUPS_MAX, "groups",
		  "hca-groups-near", "hca-groups-full" },
		{ RDMA_MCM_MCAST_ATTACHES, RDMA_MCM_MCAST_ATTACHES_MAX,
		  "QP attachments", "hca-attaches-near", "hca-attaches-full" },
	};
	uint32_t used, max;
	size_t i;

	for (i = 0; i < sizeof(lim) / sizeof(lim[0]); i++) {
		if (!(d->mcast_present & (1U << lim[i].used)) ||
		    !(d->mcast_present & (1U << lim[i].max)))
			continue;
		used = d->mcast[lim[i].used];
		max = d->mcast[lim[i].max];
		if (!max)
			continue;
		if (used >= max)
			ck_find(ck, CK_PROBLEM, lim[i].full, NULL, NULL,
				d->name,
				"%u of its %u multicast %s are taken: the next join that attaches a QP is refused (ENOSPC)",
				used, max, lim[i].what);
		else if ((uint64_t)used * 10 >= (uint64_t)max * 9)
			ck_find(ck, CK_WARNING, lim[i].near, NULL, NULL,
				d->name,
				"%u of its %u multicast %s are taken (90%% or more)",
				used, max, lim[i].what);
	}
}

int ck_covers_dev(const struct check *ck, const char *dev)
{
	size_t i, k;

	if (!ck->f_netdev && !ck->f_dev && !*ck->f_group)
		return 1;
	for (i = 0; i < ck->nnd; i++)
		for (k = 0; k < ck->nd[i].ndevs; k++)
			if (!strcmp(ck->nd[i].devs[k], dev))
				return 1;
	return 0;
}

/* The module's figures of RDMA device @dev, or NULL */
static const struct rdma_mcm_nl_device *device_of(const struct check *ck,
						  const char *dev)
{
	size_t i;

	if (!ck->stats)
		return NULL;
	for (i = 0; i < ck->stats->n_devices; i++)
		if (!strcmp(ck->stats->devices[i].name, dev))
			return &ck->stats->devices[i];
	return NULL;
}

static void group_qps(struct check *ck, const struct ck_netdev *nd)
{
	const struct rdma_mcm_nl_device *d;
	uint32_t max;
	size_t i;

	if (nd->ndevs != 1)
		return;
	d = device_of(ck, nd->devs[0]);
	if (!d || !(d->mcast_present & (1U << RDMA_MCM_MCAST_QP_ATTACH_MAX)))
		return;
	max = d->mcast[RDMA_MCM_MCAST_QP_ATTACH_MAX];
	for (i = 0; max && i < nd->ngrp; i++)
		if (nd->grp[i].qps >= max)
			ck_find(ck, CK_WARNING, "group-qps-full", nd->name,
				nd->grp[i].name, d->name,
				"%u QPs attached, the most %s attaches to one group: one more is refused",
				nd->grp[i].qps, d->name);
}

/* The namespace's IGMP and MLD limits, against what the members hold */
static void ip_limits(struct check *ck)
{
	long v;

	ck->max_memberships = hm_sysctl("net/ipv4/igmp_max_memberships", &v) ?
			      -1 : v;
	ck->max_msf = hm_sysctl("net/ipv4/igmp_max_msf", &v) ? -1 : v;
	ck->mld_max_msf = hm_sysctl("net/ipv6/mld_max_msf", &v) ? -1 : v;
	if (!ck->max_memberships)
		ck_find(ck, CK_WARNING, "igmp-max-memberships-zero", NULL,
			NULL, NULL,
			"net.ipv4.igmp_max_memberships is 0: no IPv4 full member can join");
	if (ck->most_src4 && ck->max_msf >= 0 &&
	    ck->most_src4 >= (unsigned long)ck->max_msf)
		ck_find(ck, CK_WARNING, "igmp-max-msf-full", NULL, NULL, NULL,
			"a membership has %u sources, net.ipv4.igmp_max_msf %ld: a join with more is refused (ENOBUFS)",
			ck->most_src4, ck->max_msf);
	if (ck->most_src6 && ck->mld_max_msf >= 0 &&
	    ck->most_src6 >= (unsigned long)ck->mld_max_msf)
		ck_find(ck, CK_WARNING, "mld-max-msf-full", NULL, NULL, NULL,
			"a membership has %u sources, net.ipv6.mld_max_msf %ld: a join with more is refused (ENOBUFS)",
			ck->most_src6, ck->mld_max_msf);
}

static int cmp_netdev(const void *a, const void *b)
{
	const struct ck_netdev *x = a, *y = b;

	if (x->other_ns != y->other_ns)
		return x->other_ns - y->other_ns;
	if (x->netns != y->netns)
		return x->netns < y->netns ? -1 : 1;
	return strcmp(x->name, y->name);
}

static int cmp_group(const void *a, const void *b)
{
	const struct ck_group *x = a, *y = b;

	if (x->family != y->family)
		return x->family == AF_INET ? -1 : 1;
	return memcmp(x->addr, y->addr, 16);
}

void ck_evaluate(struct check *ck)
{
	struct ck_netdev *nd;
	size_t i, k;

	qsort(ck->nd, ck->nnd, sizeof(*ck->nd), cmp_netdev);
	for (i = 0; i < ck->nnd; i++) {
		nd = &ck->nd[i];
		qsort(nd->grp, nd->ngrp, sizeof(*nd->grp), cmp_group);
		for (k = 0; k < nd->ngrp; k++)
			member_states(ck, nd, &nd->grp[k]);
		if (nd->other_ns) {
			ck_find(ck, CK_NOTE, "other-netns", nd->name, NULL,
				NULL,
				"%u membership%s in network namespace %lu: its /proc/net is not this one's (run the check there: ip netns exec)",
				nd->members, nd->members > 1 ? "s" : "",
				nd->netns);
			continue;
		}
		if (!*nd->name)
			continue;
		if (nd->link == CK_LL_INFINIBAND) {
			ck_find(ck, CK_NOTE, "infiniband", nd->name, NULL,
				nd->devs[0],
				"an InfiniBand port: the subnet administrator holds its groups, not IGMP or MLD");
			continue;
		}
		netdev_findings(ck, nd);
		group_qps(ck, nd);
	}
	ip_limits(ck);
	if (!ck->stats && ck->stats_err == EPERM)
		ck_find(ck, CK_NOTE, "limits-unknown", NULL, NULL, NULL,
			"the RDMA devices' multicast figures need CAP_NET_ADMIN; without it only your own memberships are listed, and checked");
	else if (!ck->stats)
		ck_find(ck, CK_NOTE, "limits-unknown", NULL, NULL, NULL,
			"the RDMA devices' multicast figures: %s",
			strerror(ck->stats_err));
	for (i = 0; ck->stats && i < ck->stats->n_devices; i++)
		if (ck_covers_dev(ck, ck->stats->devices[i].name))
			device_findings(ck, &ck->stats->devices[i]);
}
