// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * rdma-mcm check [netdev NETDEV] [dev DEV] [group GROUP] [listen SECONDS]:
 * for each netdev that carries rdma_mcm memberships (or the one named),
 * what the host reports to the network and what the network answers
 * (check.h; rdma-mcm-check(8)).
 *
 * The run: the memberships (a netlink dump), the module's figures of each
 * RDMA device (netlink stats), the listen for queries if asked, then the
 * host's tables and sysctls (read after the listen, so that they show
 * what its queries did), the findings, the report. Exit status as a
 * monitoring plugin's: 0 all good, 1 warnings, 2 problems, 3 the check
 * could not be made (a usage error too).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "check.h"

/* --- arguments ----------------------------------------------------------- */

static const char *const check_keys[] = {
	"netdev", "dev", "group", "listen", NULL,
};

/* Seconds a listen may last: a day */
#define CK_LISTEN_MAX	86400

/* @key's value: 0, or CHECK_UNKNOWN (reported) */
static int check_value(struct check *ck, const char *key, const char *val)
{
	struct sockaddr_storage ss;
	unsigned long v;

	if (!strcmp(key, "netdev")) {
		if (!*val || strlen(val) >= IF_NAMESIZE || strchr(val, '/')) {
			cli_err("bad netdev '%.100s'", val);
			return CHECK_UNKNOWN;
		}
		ck->f_netdev = val;
	} else if (!strcmp(key, "dev")) {
		ck->f_dev = val;
	} else if (!strcmp(key, "group")) {
		if (cli_parse_group(val, &ss))
			return CHECK_UNKNOWN;
		addr_name((struct sockaddr *)&ss, ck->f_group,
			  sizeof(ck->f_group));
	} else {
		if (cli_parse_uint(val, CK_LISTEN_MAX, &v) || !v) {
			cli_err("bad listen '%.100s': whole seconds, 1 to %d",
				val, CK_LISTEN_MAX);
			return CHECK_UNKNOWN;
		}
		ck->listen_s = v;
	}
	return 0;
}

/* 0, CHECK_UNKNOWN (reported), or -1: "help", the usage printed */
static int check_args(struct check *ck, int argc, char **argv)
{
	unsigned int seen = 0;
	int i, k, ambiguous, ret;
	const char *key;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-j") || !strcmp(argv[i], "--json")) {
			cli_set_json(ck->cli, 0);
			continue;
		}
		if (!strcmp(argv[i], "-p") || !strcmp(argv[i], "--pretty")) {
			cli_set_json(ck->cli, 1);
			continue;
		}
		if (!strcmp(argv[i], "help")) {
			cli_usage(stdout);
			return -1;
		}
		key = cli_match(argv[i], check_keys, &ambiguous);
		if (!key) {
			cli_bad_word("argument", argv[i], check_keys, ambiguous);
			return CHECK_UNKNOWN;
		}
		for (k = 0; strcmp(check_keys[k], key); k++)
			;
		if (seen & (1U << k)) {
			cli_err("'%s' given twice", key);
			return CHECK_UNKNOWN;
		}
		seen |= 1U << k;
		if (i + 1 >= argc) {
			cli_err("'%s' needs a value", key);
			return CHECK_UNKNOWN;
		}
		ret = check_value(ck, key, argv[++i]);
		if (ret)
			return ret;
	}
	return 0;
}

/* --- the memberships --------------------------------------------------------- */

static size_t family_bytes(int family)
{
	return family == AF_INET ? 4 : 16;
}

/* The address of @ss (IPv4 in the first 4 bytes): its family, or 0 */
static int addr_bytes(const struct sockaddr_storage *ss, uint8_t *out)
{
	memset(out, 0, 16);
	if (ss->ss_family == AF_INET) {
		memcpy(out, &((const struct sockaddr_in *)ss)->sin_addr, 4);
		return AF_INET;
	}
	if (ss->ss_family == AF_INET6) {
		memcpy(out, &((const struct sockaddr_in6 *)ss)->sin6_addr, 16);
		return AF_INET6;
	}
	return 0;
}

#define HAS(obj, a)	RDMA_MCM_NL_HAS(obj, RDMA_MCM_A_##a)

static int on_member(const struct rdma_mcm_nl_member *m, void *arg)
{
	struct check *ck = arg;
	struct ck_mem *c;
	char name[64];
	uint32_t i;

	if (ck->f_dev && (!HAS(m, DEV_NAME) || strcmp(ck->f_dev, m->dev_name)))
		return 0;
	if (ck->f_netdev && (!HAS(m, NETDEV) || strcmp(ck->f_netdev, m->netdev)))
		return 0;
	if (*ck->f_group) {
		addr_name((const struct sockaddr *)&m->group, name, sizeof(name));
		if (!HAS(m, GROUP) || strcmp(name, ck->f_group))
			return 0;
	}
	/* an InfiniBand group of its own (AF_IB) has no IP side to check */
	if (!HAS(m, GROUP) || (m->group.ss_family != AF_INET &&
			       m->group.ss_family != AF_INET6))
		return 0;
	if (hostmc_grow((void **)&ck->mem, ck->nmem, &ck->mcap, sizeof(*ck->mem)))
		return -1;
	c = &ck->mem[ck->nmem];
	memset(c, 0, sizeof(*c));
	if (HAS(m, NETDEV))
		snprintf(c->netdev, sizeof(c->netdev), "%s", m->netdev);
	if (HAS(m, DEV_NAME))
		snprintf(c->dev, sizeof(c->dev), "%s", m->dev_name);
	c->port = HAS(m, PORT) ? m->port : 0;
	c->netns = HAS(m, NETNS) ? m->netns : 0;
	c->ctx = m->ctx_id;
	c->handle = m->handle;
	c->family = addr_bytes(&m->group, c->group);
	c->type = HAS(m, JOIN_TYPE) ? m->join_type : 0xff;
	c->state = m->state;
	c->status = m->status;
	c->qp = !!m->qp_attached;
	if (HAS(m, SOURCES) && m->nr_sources) {
		c->src = calloc(m->nr_sources, sizeof(*c->src));
		if (!c->src)
			return -1;
		for (i = 0; i < m->nr_sources; i++)
			if (addr_bytes(&m->sources[i], c->src[c->nsrc]) ==
			    c->family)
				c->nsrc++;
	}
	ck->nmem++;
	return 0;
}

static struct ck_netdev *netdev_of(struct check *ck, const char *name,
				   unsigned long netns)
{
	struct ck_netdev *nd;
	size_t i;

	for (i = 0; i < ck->nnd; i++)
		if (!strcmp(ck->nd[i].name, name) && ck->nd[i].netns == netns)
			return &ck->nd[i];
	if (hostmc_grow((void **)&ck->nd, ck->nnd, &ck->ndcap, sizeof(*ck->nd)))
		return NULL;
	nd = &ck->nd[ck->nnd++];
	memset(nd, 0, sizeof(*nd));
	snprintf(nd->name, sizeof(nd->name), "%s", name);
	nd->netns = netns;
	nd->other_ns = netns && ck->netns && netns != ck->netns;
	nd->multicast = -1;
	nd->igmp.force = -1;
	nd->igmp.force_all = -1;
	nd->mld.force = -1;
	nd->mld.force_all = -1;
	return nd;
}

static struct ck_group *group_of(struct ck_netdev *nd, int family,
				 const uint8_t *addr)
{
	struct sockaddr_storage ss;
	struct ck_group *g;
	size_t i;

	for (i = 0; i < nd->ngrp; i++)
		if (nd->grp[i].family == family &&
		    !memcmp(nd->grp[i].addr, addr, family_bytes(family)))
			return &nd->grp[i];
	if (hostmc_grow((void **)&nd->grp, nd->ngrp, &nd->gcap, sizeof(*nd->grp)))
		return NULL;
	g = &nd->grp[nd->ngrp++];
	memset(g, 0, sizeof(*g));
	g->family = family;
	memcpy(g->addr, addr, 16);
	memset(&ss, 0, sizeof(ss));
	ss.ss_family = (sa_family_t)family;
	if (family == AF_INET)
		memcpy(&((struct sockaddr_in *)&ss)->sin_addr, addr, 4);
	else
		memcpy(&((struct sockaddr_in6 *)&ss)->sin6_addr, addr, 16);
	addr_name((struct sockaddr *)&ss, g->name, sizeof(g->name));
	g->host = -1;
	g->refreshed = -1;
	return g;
}

static int add_dev(struct ck_netdev *nd, const struct ck_mem *m)
{
	unsigned int i;

	if (!*m->dev)
		return 0;
	for (i = 0; i < nd->ndevs; i++)
		if (!strcmp(nd->devs[i], m->dev))
			return 0;
	if (nd->ndevs == sizeof(nd->devs) / sizeof(nd->devs[0]))
		return 0;
	snprintf(nd->devs[nd->ndevs], sizeof(nd->devs[0]), "%s", m->dev);
	nd->ports[nd->ndevs++] = m->port;
	return 0;
}

/* @m's sources into the group's, each once */
static int add_sources(struct ck_group *g, const struct ck_mem *m)
{
	size_t i, k;
	void *p;

	for (i = 0; i < m->nsrc; i++) {
		for (k = 0; k < g->nsrc; k++)
			if (!memcmp(g->src[k], m->src[i], 16))
				break;
		if (k < g->nsrc)
			continue;
		p = realloc(g->src, (g->nsrc + 1) * sizeof(*g->src));
		if (!p)
			return -1;
		g->src = p;
		memcpy(g->src[g->nsrc++], m->src[i], 16);
	}
	return 0;
}

static int add_member(struct check *ck, const struct ck_mem *m)
{
	struct ck_netdev *nd = netdev_of(ck, m->netdev, m->netns);
	struct ck_group *g = nd ? group_of(nd, m->family, m->group) : NULL;
	int full = m->type == RDMA_MCM_JOIN_FULLMEMBER;

	if (!g)
		return -1;
	nd->members++;
	add_dev(nd, m);
	g->qps += m->qp;
	switch (m->state) {
	case RDMA_MCM_NL_JOINING:
		g->joining++;
		return 0;
	case RDMA_MCM_NL_WAITING:
		if (!g->waiting++)
			g->first_waiting = m;
		return 0;
	case RDMA_MCM_NL_ERROR:
		if (!g->error++)
			g->first_error = m;
		return 0;
	default:
		break;
	}
	if (full)
		g->full++;
	else if (m->type == RDMA_MCM_JOIN_SENDONLY_FULLMEMBER)
		g->send_only++;
	else
		g->other++;
	if (!full)
		return 0;
	if (!m->nsrc) {
		g->any_source++;
		return 0;
	}
	if (!nd->other_ns) {
		if (m->family == AF_INET && m->nsrc > ck->most_src4)
			ck->most_src4 = m->nsrc;
		if (m->family == AF_INET6 && m->nsrc > ck->most_src6)
			ck->most_src6 = m->nsrc;
	}
	return add_sources(g, m);
}

/*
 * The memberships the filters keep, by netdev and group; the netdev named
 * even without any. 0, or CHECK_UNKNOWN (reported).
 */
static int collect(struct check *ck)
{
	struct rdma_mcm_nl *nl;
	size_t i;
	int ret;

	if (cli_nl_open(&nl))
		return CHECK_UNKNOWN;
	ret = rdma_mcm_nl_dump_members(nl, 0, on_member, ck);
	if (ret < 0) {
		cli_err("dump of memberships: %s%s", strerror(errno),
			cli_nl_why(nl));
		rdma_mcm_nl_close(nl);
		return CHECK_UNKNOWN;
	}
	ck->stats = rdma_mcm_nl_get_stats(nl);
	ck->stats_err = ck->stats ? 0 : errno;
	rdma_mcm_nl_close(nl);
	for (i = 0; i < ck->nmem; i++)
		if (add_member(ck, &ck->mem[i]))
			goto nomem;
	if (ck->f_netdev && !netdev_of(ck, ck->f_netdev, ck->netns))
		goto nomem;
	return 0;
nomem:
	cli_err("%s", strerror(ENOMEM));
	return CHECK_UNKNOWN;
}

/* --- the listen --------------------------------------------------------------- */

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Whether a netdev's IP side is this host's to listen on and check */
static int ip_side(const struct ck_netdev *nd)
{
	return *nd->name && !nd->other_ns && nd->link != CK_LL_INFINIBAND;
}

static void heard(struct ck_heard *h, const struct mcm_query *q, double t)
{
	static const uint8_t zero[16];
	unsigned int i;

	if (q->ignored) {
		h->ignored++;
		if (!h->queries)
			h->q = *q;
		return;
	}
	h->queries++;
	h->last = t;
	h->q = *q;
	if (!memcmp(q->group, zero, 16)) {
		h->general = 1;
	} else {
		for (i = 0; i < h->nasked; i++)
			if (!memcmp(h->asked[i], q->group, 16))
				break;
		if (i == h->nasked && h->nasked < 8)
			memcpy(h->asked[h->nasked++], q->group, 16);
	}
	for (i = 0; i < h->nfrom; i++)
		if (!memcmp(h->from[i], q->src, 16))
			return;
	if (h->nfrom < 4)
		memcpy(h->from[h->nfrom++], q->src, 16);
}

/* A querier socket for @h: 0, 1 (not for this netdev: skipped), -1 */
static int listen_open(struct ck_netdev *nd, struct ck_heard *h, int family)
{
	h->qr = mcm_querier_open(nd->name, family);
	if (h->qr) {
		h->listened = 1;
		return 0;
	}
	/* gone since, or a kernel without IPv6: said, not listened */
	if (errno == ENODEV || errno == EAFNOSUPPORT) {
		h->not_open = errno;
		return 1;
	}
	if (errno == EPERM || errno == EACCES)
		cli_err("listen on %s: %s (raw sockets need CAP_NET_RAW: run it as root)",
			nd->name, strerror(errno));
	else
		cli_err("listen on %s: %s", nd->name, strerror(errno));
	return -1;
}

/* Read what @h's socket has: 0, or -1 (reported) */
static int listen_read(struct ck_netdev *nd, struct ck_heard *h, double t)
{
	struct mcm_query q;
	int n;

	for (;;) {
		n = mcm_querier_read(h->qr, &q);
		if (n == 1)
			heard(h, &q, t);
		else if (n < 0 && errno == EAGAIN)
			return 0;
		else if (n < 0 && errno != EINTR)
			break;
	}
	cli_err("listen on %s: %s", nd->name, strerror(errno));
	return -1;
}

/*
 * The queries heard on every netdev checked, for listen_s seconds or
 * until SIGINT or SIGTERM: 0, or CHECK_UNKNOWN (reported)
 */
static int listen_all(struct check *ck)
{
	struct ck_heard **who = NULL;
	struct ck_netdev **where = NULL;
	struct pollfd *pfd = NULL;
	double start, end, t;
	size_t i, n = 0, k;
	int sfd = -1, ret = CHECK_UNKNOWN, r;

	pfd = calloc(2 * ck->nnd + 1, sizeof(*pfd));
	who = calloc(2 * ck->nnd + 1, sizeof(*who));
	where = calloc(2 * ck->nnd + 1, sizeof(*where));
	if (!pfd || !who || !where) {
		cli_err("%s", strerror(ENOMEM));
		goto out;
	}
	for (i = 0; i < ck->nnd; i++) {
		struct ck_netdev *nd = &ck->nd[i];

		if (!ip_side(nd) || !nd->ifindex)
			continue;
		for (k = 0; k < 2; k++) {
			struct ck_heard *h = k ? &nd->mld.heard : &nd->igmp.heard;

			r = listen_open(nd, h, k ? AF_INET6 : AF_INET);
			if (r < 0)
				goto out;
			if (r)
				continue;
			pfd[n] = (struct pollfd){ .fd = mcm_querier_fd(h->qr),
						  .events = POLLIN };
			who[n] = h;
			where[n++] = nd;
		}
	}
	sfd = cli_signal_fd();
	if (sfd < 0) {
		cli_err("signalfd: %s", strerror(errno));
		goto out;
	}
	pfd[n] = (struct pollfd){ .fd = sfd, .events = POLLIN };
	start = now_s();
	/* nothing to listen on: no wait for nothing */
	end = start + (n ? (double)ck->listen_s : 0);
	for (t = start; t < end; t = now_s()) {
		r = poll(pfd, n + 1, (int)((end - t) * 1000) + 1);
		if (r < 0 && errno != EINTR) {
			cli_err("poll: %s", strerror(errno));
			goto out;
		}
		t = now_s();
		for (i = 0; r > 0 && i < n; i++)
			if (pfd[i].revents &&
			    listen_read(where[i], who[i], t - start))
				goto out;
		if (r > 0 && pfd[n].revents)
			break;
	}
	ck->listened_s = (t < end ? t : end) - start;
	ret = 0;
out:
	for (i = 0; i < n; i++) {
		mcm_querier_close(who[i]->qr);
		who[i]->qr = NULL;
	}
	if (sfd >= 0)
		close(sfd);
	free(pfd);
	free(who);
	free(where);
	return ret;
}

/* --- the run -------------------------------------------------------------------- */

/*
 * What the kernel says of each netdev: its index, whether it is up (and
 * running: the link is, IFF_RUNNING) and has multicast; and its RDMA
 * devices' link layer (a netdev of an InfiniBand port is IPoIB's: the SA
 * holds its groups, not IGMP)
 */
static void netdev_info(struct ck_netdev *nd)
{
	struct hm_netdev h;
	char buf[64];
	unsigned int i;

	if (!*nd->name || nd->other_ns || hm_netdev(nd->name, &h))
		return;
	nd->ifindex = h.ifindex;
	nd->state = !(h.flags & IFF_UP) ? "down" :
		    !(h.flags & IFF_RUNNING) ? "no-carrier" : "up";
	nd->multicast = !!(h.flags & IFF_MULTICAST);
	for (i = 0; i < nd->ndevs; i++) {
		if (hm_read_line(buf, sizeof(buf),
				 "/sys/class/infiniband/%s/ports/%u/link_layer",
				 nd->devs[i], nd->ports[i]))
			continue;
		if (!strcmp(buf, "InfiniBand"))
			nd->link = CK_LL_INFINIBAND;
		else if (!strcmp(buf, "Ethernet") && !nd->link)
			nd->link = CK_LL_ETHERNET;
	}
}

static void check_free(struct check *ck)
{
	size_t i, k;

	for (i = 0; i < ck->nmem; i++)
		free(ck->mem[i].src);
	free(ck->mem);
	for (i = 0; i < ck->nnd; i++) {
		for (k = 0; k < ck->nd[i].ngrp; k++)
			free(ck->nd[i].grp[k].src);
		free(ck->nd[i].grp);
	}
	free(ck->nd);
	free(ck->fnd);
	rdma_mcm_nl_free_stats(ck->stats);
	hm_free(&ck->hm);
}

int cmd_check(struct cli *cli, int argc, char **argv)
{
	struct ck_netdev *named;
	struct check ck;
	size_t i;
	int ret;

	memset(&ck, 0, sizeof(ck));
	ck.cli = cli;
	ret = check_args(&ck, argc, argv);
	if (ret)
		return ret < 0 ? 0 : ret;
	ck.netns = hm_netns();
	ret = collect(&ck);
	for (i = 0; !ret && i < ck.nnd; i++)
		netdev_info(&ck.nd[i]);
	/* the netdev named is there: collect() made its entry */
	named = ck.f_netdev && !ret ? netdev_of(&ck, ck.f_netdev, ck.netns) :
		NULL;
	if (named && !named->ifindex) {
		cli_err("no netdev '%s' in this network namespace",
			ck.f_netdev);
		ret = CHECK_UNKNOWN;
	}
	if (!ret && ck.listen_s)
		ret = listen_all(&ck);
	if (!ret) {
		hm_load(&ck.hm);
		ck_evaluate(&ck);
		ck_print(&ck);
		ret = ck_status(&ck);
	}
	check_free(&ck);
	return ret;
}
