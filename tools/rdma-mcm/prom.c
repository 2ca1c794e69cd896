// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * rdma-mcm stats --format prometheus | openmetrics: the figures of
 * "stats -j" as metrics, for node_exporter's textfile collector or any
 * scraper of the Prometheus text formats.
 *
 * prometheus: the text exposition format 0.0.4, what node_exporter's
 * textfile collector reads. openmetrics: OpenMetrics 1.0 text; the same
 * samples, a counter's family named without its "_total", "# EOF" last.
 *
 * Names: rdma_mcm_ and the key of stats -j; a counter ends in "_total";
 * a device's figures are rdma_mcm_dev_* with a "dev" label (a family
 * of its own beside the module's, so that sum() over a family counts
 * nothing twice); the by-errno breakdowns carry an "errno" label (its
 * name, "other" for the kernel's 0, "errno_N" for one this tool cannot
 * name). The contexts and memberships of the network namespace the tool
 * runs in, by device and port, come from the contexts' dump: labels
 * "netns" (the namespace's inode number), "dev" and "port". No figure
 * has a unit: all are counts.
 *
 * The querier watchdog of rdma-mcm-groups (rdma-mcm-groups(8)) comes from
 * its state file, when there is one ($RDMA_MCM_GROUPS_STATE, by default
 * /run/rdma-mcm-groups/queriers.json: one flat JSON object a line, which
 * only that program writes): rdma_mcm_groups_querier_* by "dev" and
 * "protocol" (igmp, mld).
 *
 * Label values are escaped as both formats want (a backslash, a double
 * quote and a newline each after a backslash) and written
 * as valid UTF-8 (each ill-formed sequence as U+FFFD): a device's name is
 * its driver's choice.
 */
#include <ctype.h>
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rdma_mcm_cli.h"

struct prom {
	FILE *f;
	int om;			/* OpenMetrics, not text 0.0.4 */
};

/* One label: its name and value */
struct label {
	const char *k, *v;
};

static void label_value(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t n, skip;

	while (*p) {
		if (*p == '\\' || *p == '"') {
			fprintf(f, "\\%c", *p++);
			continue;
		}
		if (*p == '\n') {
			fputs("\\n", f);
			p++;
			continue;
		}
		n = utf8_seq(p, &skip);
		if (n) {
			fwrite(p, 1, n, f);
			p += n;
		} else {
			fputs("\xef\xbf\xbd", f);
			p += skip;
		}
	}
}

/*
 * "# HELP" and "# TYPE" of family @name (@type "counter" or "gauge"): a
 * counter's family is NAME_total in text 0.0.4, NAME in OpenMetrics
 */
static void family(const struct prom *p, const char *name, const char *type,
		   const char *help)
{
	const char *tail = p->om || strcmp(type, "counter") ? "" : "_total";

	fprintf(p->f, "# HELP rdma_mcm_%s%s %s\n", name, tail, help);
	fprintf(p->f, "# TYPE rdma_mcm_%s%s %s\n", name, tail, type);
}

/* A sample of family @name: a counter's is NAME_total in either format */
static void sample(const struct prom *p, const char *name, int counter,
		   const struct label *l, unsigned int n, uint64_t v)
{
	unsigned int i;

	fprintf(p->f, "rdma_mcm_%s%s", name, counter ? "_total" : "");
	for (i = 0; i < n; i++) {
		fprintf(p->f, "%s%s=\"", i ? "," : "{", l[i].k);
		label_value(p->f, l[i].v);
		fputc('"', p->f);
	}
	fprintf(p->f, "%s %llu\n", n ? "}" : "", (unsigned long long)v);
}

/* The name of counter, limit or count @i: the library's, or @prefix_N */
static const char *stat_name(const char *name, const char *prefix, uint32_t i,
			     char *buf, size_t len)
{
	if (strcmp(name, "unknown"))
		return name;
	snprintf(buf, len, "%s_%u", prefix, i);
	return buf;
}

static const char *const counter_help[RDMA_MCM_NL_COUNTERS] = {
	[RDMA_MCM_CNT_JOINS] = "joins asked for and accepted",
	[RDMA_MCM_CNT_JOIN_FAILED] = "joins refused when asked for",
	[RDMA_MCM_CNT_JOINED] = "joins and rejoins that completed",
	[RDMA_MCM_CNT_LEAVES] = "memberships left after their join completed or failed",
	[RDMA_MCM_CNT_CANCELS] = "memberships left before their first join completed",
	[RDMA_MCM_CNT_ERRORS] = "memberships that failed",
	[RDMA_MCM_CNT_WAITS] = "memberships that lost their group and wait to be joined again",
	[RDMA_MCM_CNT_REJOINS] = "rejoins sent",
	[RDMA_MCM_CNT_DEVICE_LOSSES] = "contexts that lost their device",
	[RDMA_MCM_CNT_DEVICE_ADDS] = "healing contexts that found a device again",
	[RDMA_MCM_CNT_DELIVERED] = "events handed to their owner",
	[RDMA_MCM_CNT_PURGED] = "events dropped before their owner had them",
};

/* Counter @i of the module and of each device, two families */
static void counter_families(const struct prom *p,
			     const struct rdma_mcm_nl_stats *st, uint32_t i)
{
	const char *name, *help = i < RDMA_MCM_NL_COUNTERS && counter_help[i] ?
				  counter_help[i] : "a counter of a later module";
	char buf[64], dname[80], h[160];
	struct label l;
	uint32_t d;
	int said = 0;

	name = stat_name(rdma_mcm_nl_counter_str(i), "counter", i, buf,
			 sizeof(buf));
	if (st->cnt.present & (1ULL << i)) {
		family(p, name, "counter", help);
		sample(p, name, 1, NULL, 0, st->cnt.value[i]);
	}
	snprintf(dname, sizeof(dname), "dev_%s", name);
	snprintf(h, sizeof(h), "%s, on the device", help);
	for (d = 0; d < st->n_devices; d++) {
		if (!(st->devices[d].cnt.present & (1ULL << i)))
			continue;
		if (!said++)
			family(p, dname, "counter", h);
		l = (struct label){ "dev", st->devices[d].name };
		sample(p, dname, 1, &l, 1, st->devices[d].cnt.value[i]);
	}
}

/* The errno label's value of a breakdown's entry */
static const char *errno_label(uint32_t err, char *buf, size_t len)
{
	const char *name = err ? errno_name((int)err) : "other";

	if (name)
		return name;
	snprintf(buf, len, "errno_%u", err);
	return buf;
}

/* A by-errno breakdown of the module (@dev NULL) or of a device */
static void errno_samples(const struct prom *p, const char *name,
			  const char *dev,
			  const struct rdma_mcm_nl_errno_count *e, uint32_t n)
{
	struct label l[2];
	char buf[32];
	uint32_t i;

	for (i = 0; i < n; i++) {
		l[0] = (struct label){ "dev", dev };
		l[1] = (struct label){ "errno", errno_label(e[i].err, buf,
							    sizeof(buf)) };
		if (dev)
			sample(p, name, 1, l, 2, e[i].count);
		else
			sample(p, name, 1, &l[1], 1, e[i].count);
	}
}

static void breakdowns(const struct prom *p, const struct rdma_mcm_nl_stats *st)
{
	uint32_t d;

	family(p, "join_failures_by_errno", "counter",
	       "joins refused when asked for, by errno");
	errno_samples(p, "join_failures_by_errno", NULL,
		      st->cnt.join_failures, st->cnt.n_join_failures);
	family(p, "errors_by_errno", "counter",
	       "memberships that failed or started waiting, by status");
	errno_samples(p, "errors_by_errno", NULL, st->cnt.errors,
		      st->cnt.n_errors);
	family(p, "dev_join_failures_by_errno", "counter",
	       "joins refused when asked for, by device and errno");
	for (d = 0; d < st->n_devices; d++)
		errno_samples(p, "dev_join_failures_by_errno",
			      st->devices[d].name,
			      st->devices[d].cnt.join_failures,
			      st->devices[d].cnt.n_join_failures);
	family(p, "dev_errors_by_errno", "counter",
	       "memberships that failed or started waiting, by device and status");
	for (d = 0; d < st->n_devices; d++)
		errno_samples(p, "dev_errors_by_errno",
			      st->devices[d].name, st->devices[d].cnt.errors,
			      st->devices[d].cnt.n_errors);
}

static const char *const usage_help[RDMA_MCM_NL_USAGE] = {
	[RDMA_MCM_USAGE_CONTEXTS] = "contexts open on the host",
	[RDMA_MCM_USAGE_MEMBERSHIPS] = "memberships on the host",
	[RDMA_MCM_USAGE_CM_IDS] = "rdma_cm_ids rdma_mcm holds",
	[RDMA_MCM_USAGE_FILES] = "open files of /dev/rdma_mcm",
	[RDMA_MCM_USAGE_USERS] = "users holding contexts through /dev/rdma_mcm",
};

/* The limits and the objects alive: gauges, one family each */
static void module_gauges(const struct prom *p,
			  const struct rdma_mcm_nl_stats *st)
{
	char buf[64], name[80], help[160];
	const char *k;
	uint32_t i;

	for (i = 1; i < RDMA_MCM_NL_LIMITS; i++) {
		if (!(st->limits_present & (1U << i)))
			continue;
		/* limit_NAME, or limit_N for a later module's */
		k = stat_name(rdma_mcm_nl_limit_str(i), "", i, buf, sizeof(buf));
		snprintf(name, sizeof(name), "limit%s%s", *k == '_' ? "" : "_",
			 k);
		snprintf(help, sizeof(help), "the limit %s (a module parameter)",
			 name + 6);
		family(p, name, "gauge", help);
		sample(p, name, 0, NULL, 0, st->limits[i]);
	}
	for (i = 1; i < RDMA_MCM_NL_USAGE; i++) {
		if (!(st->usage_present & (1U << i)))
			continue;
		k = stat_name(rdma_mcm_nl_usage_str(i), "usage", i, buf,
			      sizeof(buf));
		family(p, k, "gauge", usage_help[i] ? usage_help[i] :
		       "objects of a later module's kind alive on the host");
		sample(p, k, 0, NULL, 0, st->usage[i]);
	}
	family(p, "events_lost", "counter",
	       "events of the events group lost since the module loaded");
	sample(p, "events_lost", 1, NULL, 0, st->events_lost);
}

/* A device's multicast limits and rdma_mcm's places held against them */
static const struct {
	const char *name, *help;
} mcast[RDMA_MCM_NL_MCAST] = {
	[RDMA_MCM_MCAST_GROUPS] = { "groups",
		"multicast groups held by rdma_mcm's kernel ULP memberships" },
	[RDMA_MCM_MCAST_GROUPS_MAX] = { "groups_max",
		"the device's max_mcast_grp" },
	[RDMA_MCM_MCAST_ATTACHES] = { "attaches",
		"QP attachments held by rdma_mcm's kernel ULP memberships" },
	[RDMA_MCM_MCAST_ATTACHES_MAX] = { "attaches_max",
		"the device's max_total_mcast_qp_attach" },
	[RDMA_MCM_MCAST_QP_ATTACH_MAX] = { "qp_attach_max",
		"the device's max_mcast_qp_attach" },
};

static void device_gauges(const struct prom *p,
			  const struct rdma_mcm_nl_stats *st)
{
	char name[64];
	struct label l;
	uint32_t i, d;
	int said;

	for (i = 1; i < RDMA_MCM_NL_MCAST; i++) {
		if (!mcast[i].name)
			continue;
		snprintf(name, sizeof(name), "dev_mcast_%s", mcast[i].name);
		said = 0;
		for (d = 0; d < st->n_devices; d++) {
			if (!(st->devices[d].mcast_present & (1U << i)))
				continue;
			if (!said++)
				family(p, name, "gauge", mcast[i].help);
			l = (struct label){ "dev", st->devices[d].name };
			sample(p, name, 0, &l, 1, st->devices[d].mcast[i]);
		}
	}
}

/* --- contexts and memberships by namespace, device and port ------------ */

struct place {
	uint32_t netns, port, contexts, members;
	int has_dev, has_port;
	char dev[RDMA_MCM_NL_NAME_LEN];
};

struct places {
	struct place *v;
	size_t n, cap;
	int err;
};

static int on_place(const struct rdma_mcm_nl_context *c, void *arg)
{
	struct places *ps = arg;
	int has_dev = !!RDMA_MCM_NL_HAS(c, RDMA_MCM_A_DEV_NAME);
	int has_port = !!RDMA_MCM_NL_HAS(c, RDMA_MCM_A_PORT);
	struct place *pl, *v;
	size_t i;

	for (i = 0; i < ps->n; i++) {
		pl = &ps->v[i];
		if (pl->netns == c->netns && pl->has_dev == has_dev &&
		    pl->has_port == has_port &&
		    (!has_port || pl->port == c->port) &&
		    (!has_dev || !strcmp(pl->dev, c->dev_name)))
			goto count;
	}
	if (ps->n == ps->cap) {
		v = realloc(ps->v, (ps->cap * 2 + 8) * sizeof(*v));
		if (!v) {
			ps->err = ENOMEM;
			return 1;
		}
		ps->v = v;
		ps->cap = ps->cap * 2 + 8;
	}
	pl = &ps->v[ps->n++];
	memset(pl, 0, sizeof(*pl));
	pl->netns = c->netns;
	pl->port = c->port;
	pl->has_dev = has_dev;
	pl->has_port = has_port;
	if (has_dev)
		snprintf(pl->dev, sizeof(pl->dev), "%s", c->dev_name);
count:
	pl->contexts++;
	pl->members += c->members;
	return 0;
}

static void place_samples(const struct prom *p, const char *name,
			  const struct places *ps, int members)
{
	char netns[16], port[16];
	struct label l[3];
	size_t i;

	for (i = 0; i < ps->n; i++) {
		snprintf(netns, sizeof(netns), "%u", ps->v[i].netns);
		snprintf(port, sizeof(port), "%u", ps->v[i].port);
		/* a context bound to no device yet: "" (Prometheus: absent) */
		l[0] = (struct label){ "netns", netns };
		l[1] = (struct label){ "dev", ps->v[i].has_dev ? ps->v[i].dev : "" };
		l[2] = (struct label){ "port", ps->v[i].has_port ? port : "" };
		sample(p, name, 0, l, 3,
		       members ? ps->v[i].members : ps->v[i].contexts);
	}
}

/* The contexts' dump, by place: 0, or -1 (reported) */
static int places(struct rdma_mcm_nl *nl, struct places *ps)
{
	memset(ps, 0, sizeof(*ps));
	if (rdma_mcm_nl_dump_contexts(nl, on_place, ps) < 0 || ps->err) {
		cli_err("dump of contexts: %s",
			strerror(ps->err ? ps->err : errno));
		free(ps->v);
		return -1;
	}
	return 0;
}

/* --- the querier watchdog's state file ------------------------------------ */

#define GROUPS_STATE	"/run/rdma-mcm-groups/queriers.json"
#define QROWS_MAX	4096

/* One line of the state file: what the metrics need of it */
struct qrow {
	char dev[64];
	char proto[8];
	int has_last;
	uint64_t listening, silent, silences, queries, ignored, last_query;
};

/*
 * A JSON string at @p (its opening quote) into @out, with the escapes
 * the writer uses undone (a quote, a backslash, a slash, the named
 * control characters, and \u00XX); past its closing quote, or NULL
 */
/* A hex digit's value */
static unsigned int hex_value(char c)
{
	if (isdigit((unsigned char)c))
		return (unsigned int)(c - '0');
	return (unsigned int)(tolower((unsigned char)c) - 'a' + 10);
}

/* Code point @u (below 0x10000) as UTF-8 at @out[@n], if it fits; the new @n */
static size_t utf8_put(char *out, size_t len, size_t n, unsigned int u)
{
	char b[3];
	size_t k;

	if (u < 0x800) {
		b[0] = (char)(0xc0 | u >> 6);
		b[1] = (char)(0x80 | (u & 0x3f));
		k = 2;
	} else {
		b[0] = (char)(0xe0 | u >> 12);
		b[1] = (char)(0x80 | (u >> 6 & 0x3f));
		b[2] = (char)(0x80 | (u & 0x3f));
		k = 3;
	}
	if (n + k < len) {
		memcpy(out + n, b, k);
		n += k;
	}
	return n;
}

static const char *json_string(const char *p, char *out, size_t len)
{
	size_t n = 0, i;
	unsigned int u;
	char c;

	if (*p++ != '"')
		return NULL;
	while (*p && *p != '"') {
		c = *p++;
		if (c == '\\') {
			c = *p++;
			switch (c) {
			case 'n':
				c = '\n';
				break;
			case 't':
				c = '\t';
				break;
			case 'r':
				c = '\r';
				break;
			case 'b':
				c = '\b';
				break;
			case 'f':
				c = '\f';
				break;
			case 'u':
				/* four hex digits; a character past ASCII as UTF-8 */
				for (u = 0, i = 0; i < 4; i++) {
					if (!isxdigit((unsigned char)p[i]))
						return NULL;
					u = u << 4 | hex_value(p[i]);
				}
				p += 4;
				if (u >= 0x80) {
					n = utf8_put(out, len, n, u);
					continue;
				}
				c = (char)u;
				break;
			case '"':
			case '\\':
			case '/':
				break;
			default:
				return NULL;
			}
		}
		if (n + 1 < len)
			out[n++] = c;
	}
	if (len)
		out[n] = '\0';
	return *p == '"' ? p + 1 : NULL;
}

/* One flat JSON object into @r; 0, or -1 when it is not one */
static int qrow_parse(const char *p, struct qrow *r)
{
	char key[32], val[64];
	unsigned long long v;
	int n;

	memset(r, 0, sizeof(*r));
	if (*p++ != '{')
		return -1;
	while (*p == '"') {
		p = json_string(p, key, sizeof(key));
		if (!p || *p++ != ':')
			return -1;
		if (*p == '"') {
			p = json_string(p, val, sizeof(val));
			if (!p)
				return -1;
			if (!strcmp(key, "dev"))
				snprintf(r->dev, sizeof(r->dev), "%s", val);
			else if (!strcmp(key, "protocol"))
				snprintf(r->proto, sizeof(r->proto), "%.7s", val);
		} else if (!strncmp(p, "true", 4) || !strncmp(p, "false", 5)) {
			if (!strcmp(key, "listening"))
				r->listening = *p == 't';
			else if (!strcmp(key, "silent"))
				r->silent = *p == 't';
			p += *p == 't' ? 4 : 5;
		} else if (!strncmp(p, "null", 4)) {
			p += 4;
		} else if (sscanf(p, "%llu%n", &v, &n) == 1) {
			if (!strcmp(key, "silences"))
				r->silences = v;
			else if (!strcmp(key, "queries"))
				r->queries = v;
			else if (!strcmp(key, "ignored"))
				r->ignored = v;
			if (!strcmp(key, "last_query")) {
				r->last_query = v;
				r->has_last = 1;
			}
			p += n;
		} else {
			return -1;
		}
		if (*p == ',')
			p++;
	}
	return *p == '}' && *r->dev && *r->proto ? 0 : -1;
}

/* The state file's lines; how many (0: no file, or none readable) */
static size_t qrows_read(struct qrow *rows, size_t max)
{
	const char *path = getenv("RDMA_MCM_GROUPS_STATE");
	char line[4096];
	size_t n = 0;
	FILE *f;

	f = fopen(path && *path ? path : GROUPS_STATE, "re");
	if (!f)
		return 0;
	while (n < max && fgets(line, sizeof(line), f))
		if (!qrow_parse(line, &rows[n]))
			n++;
	fclose(f);
	return n;
}

/* The families of the state file: each a field of struct qrow */
static const struct {
	const char *name, *type, *help;
	size_t off;
} qfamilies[] = {
	{ "groups_querier_listening", "gauge",
	  "1 while rdma-mcm-groups listens for queries there",
	  offsetof(struct qrow, listening) },
	{ "groups_querier_silent", "gauge",
	  "1 while no query has been heard there for the timeout",
	  offsetof(struct qrow, silent) },
	{ "groups_querier_silences", "counter",
	  "times no query was heard there for the timeout",
	  offsetof(struct qrow, silences) },
	{ "groups_querier_queries", "counter", "queries heard there",
	  offsetof(struct qrow, queries) },
	{ "groups_querier_ignored_queries", "counter",
	  "queries heard there that the host ignores",
	  offsetof(struct qrow, ignored) },
	{ "groups_querier_last_query_seconds", "gauge",
	  "when the last query was heard there (seconds since the epoch)",
	  offsetof(struct qrow, last_query) },
};

static void querier_families(const struct prom *p)
{
	struct qrow *rows = calloc(QROWS_MAX, sizeof(*rows));
	size_t n = rows ? qrows_read(rows, QROWS_MAX) : 0;
	const size_t last = offsetof(struct qrow, last_query);
	struct label l[2];
	size_t f, i;
	uint64_t v;

	for (f = 0; n && f < sizeof(qfamilies) / sizeof(qfamilies[0]); f++) {
		family(p, qfamilies[f].name, qfamilies[f].type,
		       qfamilies[f].help);
		for (i = 0; i < n; i++) {
			/* no last query before one was heard */
			if (qfamilies[f].off == last && !rows[i].has_last)
				continue;
			memcpy(&v, (const char *)&rows[i] + qfamilies[f].off,
			       sizeof(v));
			l[0] = (struct label){ "dev", rows[i].dev };
			l[1] = (struct label){ "protocol", rows[i].proto };
			sample(p, qfamilies[f].name,
			       !strcmp(qfamilies[f].type, "counter"), l, 2, v);
		}
	}
	free(rows);
}

int stats_prometheus(struct rdma_mcm_nl *nl,
		     const struct rdma_mcm_nl_stats *st, int openmetrics)
{
	struct prom p = { stdout, openmetrics };
	struct places ps;
	uint32_t i;

	if (places(nl, &ps))
		return 1;
	for (i = 1; i < RDMA_MCM_NL_COUNTERS; i++)
		counter_families(&p, st, i);
	breakdowns(&p, st);
	module_gauges(&p, st);
	device_gauges(&p, st);
	family(&p, "port_contexts", "gauge",
	       "contexts open in this network namespace, by device and port");
	place_samples(&p, "port_contexts", &ps, 0);
	family(&p, "port_memberships", "gauge",
	       "memberships of this network namespace's contexts, by device and port");
	place_samples(&p, "port_memberships", &ps, 1);
	free(ps.v);
	querier_families(&p);
	if (openmetrics)
		fputs("# EOF\n", stdout);
	return fflush(stdout) ? 1 : 0;
}
