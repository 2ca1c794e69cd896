// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * rdma-mcm: the host's view through the generic netlink family
 * "rdma_mcm" (librdmamcm's rdma_mcm_nl_*): show (memberships), ctx
 * (contexts), stats (the module's counters), monitor (events).
 *
 * Output as the rest of the tool: one "key value" line per record, or
 * with -j one JSON object per line (-p: the same objects indented over
 * several lines). The keys are Documentation/rdma-mcm.schema.json's.
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <unistd.h>

#include "rdma_mcm_cli.h"

#ifndef AF_IB
#define AF_IB	27
#endif

/* --- JSON records --------------------------------------------------------- */

/* A JSON object under construction (compact), printed by rec_end() */
struct rec {
	char *text;
	size_t len;
	FILE *f;
	int first;			/* no key yet in the innermost object */
};

static void rec_begin(struct rec *r)
{
	r->text = NULL;
	r->f = open_memstream(&r->text, &r->len);
	if (!r->f) {
		perror("rdma-mcm");
		exit(1);
	}
	fputc('{', r->f);
	r->first = 1;
}

static void key(struct rec *r, const char *k)
{
	fprintf(r->f, "%s\"%s\":", r->first ? "" : ",", k);
	r->first = 0;
}

static void rec_u64(struct rec *r, const char *k, uint64_t v)
{
	key(r, k);
	fprintf(r->f, "%llu", (unsigned long long)v);
}

static void rec_int(struct rec *r, const char *k, long long v)
{
	key(r, k);
	fprintf(r->f, "%lld", v);
}

static void rec_str(struct rec *r, const char *k, const char *v)
{
	key(r, k);
	json_str(r->f, v);
}

static void rec_bool(struct rec *r, const char *k, int v)
{
	key(r, k);
	fputs(v ? "true" : "false", r->f);
}

static void rec_null(struct rec *r, const char *k)
{
	key(r, k);
	fputs("null", r->f);
}

static void rec_open(struct rec *r, const char *k, char bracket)
{
	if (k)
		key(r, k);
	else if (!r->first)
		fputc(',', r->f);
	fputc(bracket, r->f);
	r->first = 1;
}

static void rec_close(struct rec *r, char bracket)
{
	fputc(bracket, r->f);
	r->first = 0;
}

/* Print @text indented, two spaces a level */
static void pretty(const char *text)
{
	int depth = 0, in_str = 0, esc = 0;
	const char *p;

	for (p = text; *p; p++) {
		char c = *p;

		if (in_str) {
			putchar(c);
			if (esc)
				esc = 0;
			else if (c == '\\')
				esc = 1;
			else if (c == '"')
				in_str = 0;
			continue;
		}
		switch (c) {
		case '"':
			in_str = 1;
			putchar(c);
			break;
		case '{':
		case '[':
			/* an empty one stays on its line */
			if (p[1] == (c == '{' ? '}' : ']')) {
				printf("%c%c", c, p[1]);
				p++;
				break;
			}
			printf("%c\n%*s", c, 2 * ++depth, "");
			break;
		case '}':
		case ']':
			printf("\n%*s%c", 2 * --depth, "", c);
			break;
		case ',':
			printf(",\n%*s", 2 * depth, "");
			break;
		case ':':
			fputs(": ", stdout);
			break;
		default:
			putchar(c);
		}
	}
	putchar('\n');
}

static void rec_end(struct cli *cli, struct rec *r)
{
	fputc('}', r->f);
	fclose(r->f);
	if (cli->pretty)
		pretty(r->text);
	else
		puts(r->text);
	free(r->text);
	fflush(stdout);
}

/* --- fields ------------------------------------------------------------------ */

static const char *family_name(uint32_t family)
{
	switch (family) {
	case AF_INET:
		return "inet";
	case AF_INET6:
		return "inet6";
	case AF_IB:
		return "ib";
	default:
		return "unknown";
	}
}

static const char *join_type_name(uint8_t type)
{
	return type == RDMA_MCM_JOIN_SENDONLY_FULLMEMBER ? "send-only" : "full";
}

#define HAS(obj, a)	RDMA_MCM_NL_HAS(obj, RDMA_MCM_A_##a)

/* A status as JSON: "status":-110,"errno":"ETIMEDOUT" (or null) */
static void rec_status(struct rec *r, const char *k, const char *errk,
		       int32_t status)
{
	const char *name = status < 0 ? errno_name(-status) : NULL;

	rec_int(r, k, status);
	if (status >= 0)
		return;
	if (name)
		rec_str(r, errk, name);
	else
		rec_null(r, errk);
}

/* The owner's fields of an object with @present */
struct owner {
	uint64_t present;
	uint32_t kind, pid, uid;
	const char *name;
};

static void owner_json(struct rec *r, const struct owner *o)
{
	rec_str(r, "owner", rdma_mcm_nl_owner_str(o->kind));
	if (HAS(o, OWNER_PID))
		rec_u64(r, "pid", o->pid);
	if (HAS(o, OWNER_UID))
		rec_u64(r, "uid", o->uid);
	if (HAS(o, OWNER_NAME))
		rec_str(r, "comm", o->name);
}

/*
 * A command name is any process's choice: a byte that is not a printable
 * character other than a space or a backslash is written \ooo (octal), so
 * that it cannot drive the reader's terminal nor split a key-value pair.
 */
static void print_name(const char *name)
{
	const unsigned char *p;

	for (p = (const unsigned char *)name; *p; p++) {
		if (*p > ' ' && *p < 0x7f && *p != '\\')
			putchar(*p);
		else
			printf("\\%03o", *p);
	}
}

static void owner_text(const struct owner *o)
{
	printf(" owner %s", rdma_mcm_nl_owner_str(o->kind));
	if (HAS(o, OWNER_PID))
		printf(" pid %u", o->pid);
	if (HAS(o, OWNER_UID))
		printf(" uid %u", o->uid);
	if (!HAS(o, OWNER_NAME))
		return;
	/* as iproute2's rdma tool names a kernel owner: [module] */
	printf(" comm %s", o->kind == RDMA_MCM_OWNER_KERNEL ? "[" : "");
	print_name(o->name);
	if (o->kind == RDMA_MCM_OWNER_KERNEL)
		putchar(']');
}

static void addr_text(const struct sockaddr_storage *ss, char *buf,
		      size_t len)
{
	addr_name((const struct sockaddr *)ss, buf, len);
}

/* --- show: memberships ------------------------------------------------------- */

struct filter {
	const char *dev;
	char group[80];			/* as addr_name() writes it */
	int state;			/* -1: any */
	long pid;			/* -1: any */
	uint32_t ctx;			/* 0: any */
	unsigned long shown;
	struct cli *cli;
};

static int parse_state(const char *s)
{
	static const char *const names[] = { "joining", "joined", "error",
					     "waiting" };
	int i;

	for (i = 0; i < 4; i++)
		if (!strcmp(s, names[i]))
			return i;
	return -1;
}

/* @word is one of the space-separated words of @list */
static int word_in(const char *list, const char *word)
{
	size_t n = strlen(word);

	while (n && *list) {
		if (!strncmp(list, word, n) && (!list[n] || list[n] == ' '))
			return 1;
		list = strchr(list, ' ');
		if (!list)
			break;
		list++;
	}
	return 0;
}

/*
 * KEY VALUE filters of show and ctx; @keys says which it takes. 0, or
 * EXIT_USAGE (reported).
 */
static int parse_filters(struct cli *cli, int argc, char **argv,
			 const char *keys, struct filter *f)
{
	struct sockaddr_storage ss;
	unsigned long v;
	int i;

	memset(f, 0, sizeof(*f));
	f->state = -1;
	f->pid = -1;
	f->cli = cli;
	for (i = 1; i < argc; i++) {
		const char *k = argv[i], *val = argv[i + 1];

		if (!strcmp(k, "-j") || !strcmp(k, "--json")) {
			cli->json = 1;
			cli_json = 1;
			continue;
		}
		if (!strcmp(k, "-p") || !strcmp(k, "--pretty")) {
			cli->json = 1;
			cli_json = 1;
			cli->pretty = 1;
			continue;
		}
		if (!word_in(keys, k)) {
			cli_err("unknown argument '%.100s'", k);
			return EXIT_USAGE;
		}
		if (!val) {
			cli_err("'%s' needs a value", k);
			return EXIT_USAGE;
		}
		i++;
		if (!strcmp(k, "dev")) {
			f->dev = val;
		} else if (!strcmp(k, "group")) {
			if (rdma_mcm_parse_addr(val, &ss)) {
				cli_err("bad group '%.100s'", val);
				return EXIT_USAGE;
			}
			addr_text(&ss, f->group, sizeof(f->group));
		} else if (!strcmp(k, "state")) {
			f->state = parse_state(val);
			if (f->state < 0) {
				cli_err("bad state '%.100s': joining, joined, error or waiting",
					val);
				return EXIT_USAGE;
			}
		} else if (!strcmp(k, "pid")) {
			if (cli_parse_uint(val, UINT32_MAX, &v)) {
				cli_err("bad pid '%.100s'", val);
				return EXIT_USAGE;
			}
			f->pid = (long)v;
		} else if (!strcmp(k, "ctx")) {
			if (cli_parse_uint(val, UINT32_MAX, &v) || !v) {
				cli_err("bad ctx '%.100s'", val);
				return EXIT_USAGE;
			}
			f->ctx = (uint32_t)v;
		}
	}
	return 0;
}

static int nl_open(struct rdma_mcm_nl **nl)
{
	*nl = rdma_mcm_nl_open();
	if (*nl)
		return 0;
	cli_err("netlink family %s: %s%s", RDMA_MCM_GENL_NAME, strerror(errno),
		errno == ENOENT ? " (is the rdma_mcm module loaded?)" : "");
	return 1;
}

static void member_json(struct cli *cli, const struct rdma_mcm_nl_member *m)
{
	struct owner o = { m->present, m->owner_kind, m->owner_pid,
			   m->owner_uid, m->owner_name };
	char a[80];
	struct rec r;
	uint32_t i;

	rec_begin(&r);
	rec_u64(&r, "ctx", m->ctx_id);
	rec_u64(&r, "handle", m->handle);
	owner_json(&r, &o);
	if (HAS(m, FILE_CTX))
		rec_u64(&r, "file_ctx", m->file_ctx);
	if (HAS(m, NETNS))
		rec_u64(&r, "netns", m->netns);
	if (HAS(m, DEV_NAME))
		rec_str(&r, "dev", m->dev_name);
	if (HAS(m, PORT))
		rec_u64(&r, "port", m->port);
	if (HAS(m, NETDEV))
		rec_str(&r, "netdev", m->netdev);
	if (HAS(m, FAMILY))
		rec_str(&r, "family", family_name(m->family));
	if (HAS(m, SRC)) {
		addr_text(&m->src, a, sizeof(a));
		rec_str(&r, "src", a);
	}
	if (HAS(m, GROUP)) {
		addr_text(&m->group, a, sizeof(a));
		rec_str(&r, "group", a);
	}
	if (HAS(m, MGID)) {
		gid_name(m->mgid, a, sizeof(a));
		rec_str(&r, "mgid", a);
	}
	if (HAS(m, MLID))
		rec_u64(&r, "mlid", m->mlid);
	if (HAS(m, QKEY))
		rec_u64(&r, "qkey", m->qkey);
	if (HAS(m, JOIN_TYPE))
		rec_str(&r, "type", join_type_name(m->join_type));
	rec_str(&r, "state", rdma_mcm_state_str(m->state));
	rec_status(&r, "status", "errno", m->status);
	rec_status(&r, "last_status", "last_errno", m->last_status);
	if (HAS(m, AGE_MS))
		rec_u64(&r, "age_ms", m->age_ms);
	if (HAS(m, STATE_AGE_MS))
		rec_u64(&r, "state_age_ms", m->state_age_ms);
	if (HAS(m, REJOINS))
		rec_u64(&r, "rejoins", m->rejoins);
	if (HAS(m, QUEUED))
		rec_u64(&r, "queued", m->queued);
	rec_bool(&r, "qp_attached", m->qp_attached);
	if (HAS(m, SOURCES)) {
		rec_open(&r, "sources", '[');
		for (i = 0; i < m->nr_sources; i++) {
			addr_text(&m->sources[i], a, sizeof(a));
			fprintf(r.f, "%s", i ? "," : "");
			json_str(r.f, a);
		}
		rec_close(&r, ']');
	}
	if (HAS(m, JOINED_BY))
		rec_str(&r, "joined_by", rdma_mcm_nl_joiner_str(m->joined_by));
	rec_end(cli, &r);
}

static void member_text(const struct rdma_mcm_nl_member *m)
{
	struct owner o = { m->present, m->owner_kind, m->owner_pid,
			   m->owner_uid, m->owner_name };
	char a[80], status[128];
	uint32_t i;

	printf("ctx %u handle %u", m->ctx_id, m->handle);
	if (HAS(m, DEV_NAME))
		printf(" dev %s port %u", m->dev_name, m->port);
	if (HAS(m, NETDEV))
		printf(" netdev %s", m->netdev);
	addr_text(&m->group, a, sizeof(a));
	printf(" group %s state %s type %s", a, rdma_mcm_state_str(m->state),
	       join_type_name(m->join_type));
	if (m->status) {
		status_text(m->status, status, sizeof(status));
		printf(" status %s", status);
	}
	owner_text(&o);
	printf(" age %.1fs rejoins %u queued %u", (double)m->age_ms / 1000,
	       m->rejoins, m->queued);
	if (m->qp_attached)
		fputs(" qp attached", stdout);
	/* a source-specific join's sources: "sources A,B" */
	for (i = 0; i < m->nr_sources; i++) {
		addr_text(&m->sources[i], a, sizeof(a));
		printf("%s%s", i ? "," : " sources ", a);
	}
	if (HAS(m, JOINED_BY))
		printf(" joined-by %s", rdma_mcm_nl_joiner_str(m->joined_by));
	putchar('\n');
}

static int on_member(const struct rdma_mcm_nl_member *m, void *arg)
{
	struct filter *f = arg;
	char a[80];

	if (f->dev && (!HAS(m, DEV_NAME) || strcmp(f->dev, m->dev_name)))
		return 0;
	if (f->state >= 0 && m->state != f->state)
		return 0;
	if (f->pid >= 0 && (!HAS(m, OWNER_PID) || m->owner_pid != f->pid))
		return 0;
	if (f->ctx && m->ctx_id != f->ctx)
		return 0;
	if (*f->group) {
		addr_text(&m->group, a, sizeof(a));
		if (!HAS(m, GROUP) || strcmp(a, f->group))
			return 0;
	}
	f->shown++;
	if (f->cli->json)
		member_json(f->cli, m);
	else
		member_text(m);
	return 0;
}

int cmd_show(struct cli *cli, int argc, char **argv)
{
	struct rdma_mcm_nl *nl;
	struct filter f;
	int ret;

	ret = parse_filters(cli, argc, argv, "dev group state pid ctx", &f);
	if (ret)
		return ret;
	if (nl_open(&nl))
		return 1;
	ret = rdma_mcm_nl_dump_members(nl, f.ctx, on_member, &f);
	if (ret < 0)
		cli_err("dump of memberships: %s", strerror(errno));
	rdma_mcm_nl_close(nl);
	return ret < 0 ? 1 : 0;
}

/* --- ctx: contexts ----------------------------------------------------------- */

static const char *counter_key(uint32_t i, char *buf, size_t len)
{
	const char *name = rdma_mcm_nl_counter_str(i);

	if (strcmp(name, "unknown"))
		return name;
	snprintf(buf, len, "counter_%u", i);
	return buf;
}

static void errnos_json(struct rec *r, const char *k,
			const struct rdma_mcm_nl_errno_count *e, uint32_t n)
{
	const char *name;
	uint32_t i;

	rec_open(r, k, '[');
	for (i = 0; i < n; i++) {
		rec_open(r, NULL, '{');
		rec_u64(r, "errno", e[i].err);
		name = e[i].err ? errno_name((int)e[i].err) : "other";
		if (name)
			rec_str(r, "name", name);
		else
			rec_null(r, "name");
		rec_u64(r, "count", e[i].count);
		rec_close(r, '}');
	}
	rec_close(r, ']');
}

static void counters_json(struct rec *r, const struct rdma_mcm_nl_counters *c)
{
	char buf[32];
	uint32_t i;

	rec_open(r, "counters", '{');
	for (i = 1; i < RDMA_MCM_NL_COUNTERS; i++)
		if (c->present & (1ULL << i))
			rec_u64(r, counter_key(i, buf, sizeof(buf)),
				c->value[i]);
	rec_close(r, '}');
	errnos_json(r, "join_failures", c->join_failures, c->n_join_failures);
	errnos_json(r, "errors", c->errors, c->n_errors);
}

static void errnos_text(const char *k, const struct rdma_mcm_nl_errno_count *e,
			uint32_t n)
{
	const char *name;
	uint32_t i;

	if (!n)
		return;
	printf(" %s", k);
	for (i = 0; i < n; i++) {
		name = e[i].err ? errno_name((int)e[i].err) : "other";
		if (name)
			printf(" %s %llu", name, (unsigned long long)e[i].count);
		else
			printf(" errno-%u %llu", e[i].err,
			       (unsigned long long)e[i].count);
	}
}

static void counters_text(const struct rdma_mcm_nl_counters *c)
{
	char buf[32];
	uint32_t i;

	for (i = 1; i < RDMA_MCM_NL_COUNTERS; i++)
		if (c->present & (1ULL << i))
			printf(" %s %llu", counter_key(i, buf, sizeof(buf)),
			       (unsigned long long)c->value[i]);
	errnos_text("join_failures", c->join_failures, c->n_join_failures);
	errnos_text("errors", c->errors, c->n_errors);
}

static void ctx_json(struct cli *cli, const struct rdma_mcm_nl_context *c)
{
	struct owner o = { c->present, c->owner_kind, c->owner_pid,
			   c->owner_uid, c->owner_name };
	char a[80];
	struct rec r;

	rec_begin(&r);
	rec_u64(&r, "ctx", c->ctx_id);
	owner_json(&r, &o);
	if (HAS(c, FILE_CTX))
		rec_u64(&r, "file_ctx", c->file_ctx);
	if (HAS(c, NETNS))
		rec_u64(&r, "netns", c->netns);
	if (HAS(c, DEV_NAME))
		rec_str(&r, "dev", c->dev_name);
	if (HAS(c, PORT))
		rec_u64(&r, "port", c->port);
	if (HAS(c, NETDEV))
		rec_str(&r, "netdev", c->netdev);
	if (HAS(c, FAMILY))
		rec_str(&r, "family", family_name(c->family));
	if (HAS(c, SRC)) {
		addr_text(&c->src, a, sizeof(a));
		rec_str(&r, "src", a);
	}
	key(&r, "flags");
	fprintf(r.f, "[%s%s%s]", c->flags & 1 ? "\"heal\"" : "",
		(c->flags & 3) == 3 ? "," : "",
		c->flags & 2 ? "\"route\"" : "");
	rec_u64(&r, "members", c->members);
	counters_json(&r, &c->cnt);
	rec_end(cli, &r);
}

static void ctx_text(const struct rdma_mcm_nl_context *c)
{
	struct owner o = { c->present, c->owner_kind, c->owner_pid,
			   c->owner_uid, c->owner_name };
	char a[80];

	printf("ctx %u", c->ctx_id);
	if (HAS(c, DEV_NAME))
		printf(" dev %s port %u", c->dev_name, c->port);
	if (HAS(c, NETDEV))
		printf(" netdev %s", c->netdev);
	if (HAS(c, SRC)) {
		addr_text(&c->src, a, sizeof(a));
		printf(" src %s", a);
	}
	printf(" flags %s members %u",
	       (c->flags & 3) == 3 ? "heal,route" : c->flags & 1 ? "heal" :
	       c->flags & 2 ? "route" : "none", c->members);
	owner_text(&o);
	counters_text(&c->cnt);
	putchar('\n');
}

static int on_context(const struct rdma_mcm_nl_context *c, void *arg)
{
	struct filter *f = arg;

	if (f->dev && (!HAS(c, DEV_NAME) || strcmp(f->dev, c->dev_name)))
		return 0;
	if (f->pid >= 0 && (!HAS(c, OWNER_PID) || c->owner_pid != f->pid))
		return 0;
	if (f->ctx && c->ctx_id != f->ctx)
		return 0;
	f->shown++;
	if (f->cli->json)
		ctx_json(f->cli, c);
	else
		ctx_text(c);
	return 0;
}

int cmd_ctx(struct cli *cli, int argc, char **argv)
{
	struct rdma_mcm_nl *nl;
	struct filter f;
	int ret;

	/* "ctx show ..." as "ctx ..." */
	if (argc > 1 && !strcmp(argv[1], "show")) {
		argc--;
		argv++;
	}
	ret = parse_filters(cli, argc, argv, "dev pid ctx", &f);
	if (ret)
		return ret;
	if (nl_open(&nl))
		return 1;
	ret = rdma_mcm_nl_dump_contexts(nl, on_context, &f);
	if (ret < 0)
		cli_err("dump of contexts: %s", strerror(errno));
	rdma_mcm_nl_close(nl);
	return ret < 0 ? 1 : 0;
}

/* --- stats ---------------------------------------------------------------------- */

static void stats_json(struct cli *cli, const struct rdma_mcm_nl_stats *st)
{
	struct rec r;
	uint32_t i;

	rec_begin(&r);
	counters_json(&r, &st->cnt);
	rec_open(&r, "limits", '{');
	for (i = 1; i < RDMA_MCM_NL_LIMITS; i++)
		if (st->limits_present & (1U << i))
			rec_u64(&r, rdma_mcm_nl_limit_str(i), st->limits[i]);
	rec_close(&r, '}');
	rec_open(&r, "usage", '{');
	for (i = 1; i < RDMA_MCM_NL_USAGE; i++)
		if (st->usage_present & (1U << i))
			rec_u64(&r, rdma_mcm_nl_usage_str(i), st->usage[i]);
	rec_close(&r, '}');
	rec_u64(&r, "events_lost", st->events_lost);
	rec_open(&r, "devices", '[');
	for (i = 0; i < st->n_devices; i++) {
		rec_open(&r, NULL, '{');
		rec_str(&r, "dev", st->devices[i].name);
		counters_json(&r, &st->devices[i].cnt);
		rec_close(&r, '}');
	}
	rec_close(&r, ']');
	rec_end(cli, &r);
}

static void stats_text(const struct rdma_mcm_nl_stats *st)
{
	uint32_t i;

	fputs("module", stdout);
	counters_text(&st->cnt);
	printf("\nlimits");
	for (i = 1; i < RDMA_MCM_NL_LIMITS; i++)
		if (st->limits_present & (1U << i))
			printf(" %s %u", rdma_mcm_nl_limit_str(i), st->limits[i]);
	printf("\nusage");
	for (i = 1; i < RDMA_MCM_NL_USAGE; i++)
		if (st->usage_present & (1U << i))
			printf(" %s %u", rdma_mcm_nl_usage_str(i), st->usage[i]);
	printf(" events_lost %llu\n", (unsigned long long)st->events_lost);
	for (i = 0; i < st->n_devices; i++) {
		printf("dev %s", st->devices[i].name);
		counters_text(&st->devices[i].cnt);
		putchar('\n');
	}
}

int cmd_nl_stats(struct cli *cli, int argc, char **argv)
{
	struct rdma_mcm_nl_stats *st;
	struct rdma_mcm_nl *nl;
	struct filter f;
	int ret;

	ret = parse_filters(cli, argc, argv, "", &f);
	if (ret)
		return ret;
	if (nl_open(&nl))
		return 1;
	st = rdma_mcm_nl_get_stats(nl);
	if (st) {
		if (cli->json)
			stats_json(cli, st);
		else
			stats_text(st);
	} else {
		cli_err("stats: %s%s", strerror(errno),
			errno == EPERM ?
			" (the host's figures need CAP_NET_ADMIN)" : "");
	}
	rdma_mcm_nl_free_stats(st);
	rdma_mcm_nl_close(nl);
	return st ? 0 : 1;
}

/* --- monitor ----------------------------------------------------------------- */

/* Membership events name a handle and a group; context events do not */
static void event_json(struct cli *cli, const struct rdma_mcm_nl_notice *ev)
{
	const struct rdma_mcm_nl_member *m = &ev->m;
	struct owner o = { m->present, m->owner_kind, m->owner_pid,
			   m->owner_uid, m->owner_name };
	char a[80];
	struct rec r;

	rec_begin(&r);
	rec_str(&r, "event", rdma_mcm_nl_event_str(ev->event));
	rec_u64(&r, "time_ns", ev->time_ns);
	rec_u64(&r, "ctx", m->ctx_id);
	if (HAS(m, HANDLE))
		rec_u64(&r, "handle", m->handle);
	if (HAS(m, FAMILY))
		rec_str(&r, "family", family_name(m->family));
	if (HAS(m, GROUP)) {
		addr_text(&m->group, a, sizeof(a));
		rec_str(&r, "group", a);
	}
	if (HAS(m, JOIN_TYPE))
		rec_str(&r, "type", join_type_name(m->join_type));
	/* of a leave: the state it was left in (joining: a cancel) */
	if (HAS(m, STATE))
		rec_str(&r, "state", rdma_mcm_state_str(m->state));
	if (HAS(m, DEV_NAME))
		rec_str(&r, "dev", m->dev_name);
	rec_status(&r, "status", "errno", m->status);
	owner_json(&r, &o);
	rec_end(cli, &r);
}

static void event_text(const struct rdma_mcm_nl_notice *ev)
{
	const struct rdma_mcm_nl_member *m = &ev->m;
	struct owner o = { m->present, m->owner_kind, m->owner_pid,
			   m->owner_uid, m->owner_name };
	char a[80], status[128];

	printf("%s ctx %u", rdma_mcm_nl_event_str(ev->event), m->ctx_id);
	if (HAS(m, HANDLE))
		printf(" handle %u", m->handle);
	if (HAS(m, GROUP)) {
		addr_text(&m->group, a, sizeof(a));
		printf(" group %s", a);
	}
	if (HAS(m, STATE))
		printf(" state %s", rdma_mcm_state_str(m->state));
	if (HAS(m, DEV_NAME))
		printf(" dev %s", m->dev_name);
	if (m->status) {
		status_text(m->status, status, sizeof(status));
		printf(" status %s", status);
	}
	owner_text(&o);
	printf(" time %llu.%09llu\n",
	       (unsigned long long)(ev->time_ns / 1000000000ULL),
	       (unsigned long long)(ev->time_ns % 1000000000ULL));
	fflush(stdout);
}

/* Events were lost: say so, with the kernel's count if it gives it */
static void out_lost(struct cli *cli, struct rdma_mcm_nl *nl)
{
	struct rdma_mcm_nl_stats *st = rdma_mcm_nl_get_stats(nl);
	struct rec r;

	if (cli->json) {
		rec_begin(&r);
		rec_str(&r, "event", "lost");
		if (st)
			rec_u64(&r, "events_lost", st->events_lost);
		else
			rec_null(&r, "events_lost");
		rec_end(cli, &r);
	} else if (st) {
		printf("lost events: the socket overflowed (events_lost %llu %s)\n",
		       (unsigned long long)st->events_lost,
		       "since the module loaded");
	} else {
		printf("lost events: the socket overflowed\n");
	}
	fflush(stdout);
	rdma_mcm_nl_free_stats(st);
}

int cmd_monitor(struct cli *cli, int argc, char **argv)
{
	struct rdma_mcm_nl_notice ev;
	unsigned long count = 0, seen = 0;
	struct rdma_mcm_nl *nl;
	struct pollfd pfd[2];
	int i, n, sfd, ret = 0;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-j") || !strcmp(argv[i], "--json")) {
			cli->json = 1;
			cli_json = 1;
		} else if (!strcmp(argv[i], "-p") ||
			   !strcmp(argv[i], "--pretty")) {
			cli->json = 1;
			cli_json = 1;
			cli->pretty = 1;
		} else if (!strcmp(argv[i], "-c") && i + 1 < argc) {
			if (cli_parse_uint(argv[++i], UINT32_MAX, &count) ||
			    !count) {
				cli_err("bad count '%.100s'", argv[i]);
				return EXIT_USAGE;
			}
		} else {
			cli_err("usage: monitor [-j] [-c COUNT]");
			return EXIT_USAGE;
		}
	}
	if (nl_open(&nl))
		return 1;
	if (rdma_mcm_nl_monitor(nl)) {
		cli_err("events group: %s%s", strerror(errno),
			errno == EPERM ? " (needs CAP_NET_ADMIN)" : "");
		rdma_mcm_nl_close(nl);
		return 1;
	}
	sfd = cli_signal_fd();
	if (sfd < 0) {
		cli_err("signalfd: %s", strerror(errno));
		rdma_mcm_nl_close(nl);
		return 1;
	}
	pfd[0] = (struct pollfd){ .fd = rdma_mcm_nl_get_fd(nl), .events = POLLIN };
	pfd[1] = (struct pollfd){ .fd = sfd, .events = POLLIN };
	while (!count || seen < count) {
		/*
		 * SIGINT, SIGTERM: before each event, for events may come
		 * faster than they are printed (a heal storm) for minutes
		 */
		if (poll(&pfd[1], 1, 0) > 0)
			break;
		n = rdma_mcm_nl_read_event(nl, &ev);
		if (n == 1) {
			seen++;
			if (cli->json)
				event_json(cli, &ev);
			else
				event_text(&ev);
			continue;
		}
		if (n < 0 && errno == ENOBUFS) {
			out_lost(cli, nl);
			continue;
		}
		if (n < 0 && errno == EBADMSG) {
			cli_err("an event the tool cannot read: %s",
				strerror(errno));
			continue;
		}
		if (n < 0 && errno == ESHUTDOWN) {
			/* no event comes any more: say so, do not hang */
			cli_err("the rdma_mcm module was unloaded");
			ret = 1;
			break;
		}
		if (n < 0) {
			cli_err("events: %s", strerror(errno));
			ret = 1;
			break;
		}
		if (poll(pfd, 2, -1) < 0 && errno != EINTR) {
			cli_err("poll: %s", strerror(errno));
			ret = 1;
			break;
		}
		if (pfd[1].revents)
			break;
	}
	close(sfd);
	rdma_mcm_nl_close(nl);
	return ret;
}
