// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * rdma-mcm: the host's view through the generic netlink family
 * "rdma_mcm" (librdmamcm's rdma_mcm_nl_*): show (memberships), ctx
 * (contexts), stats (the module's counters), monitor (events).
 *
 * Output as the rest of the tool: one "key value" line per record, or
 * with -j one JSON object per line (-p: the same objects indented over
 * several lines; json.c). The keys are Documentation/rdma-mcm.schema.json's.
 * Names a process or a driver chose (comm, dev, netdev) are escaped in
 * text (print_name()) and valid UTF-8 in JSON (json_str()).
 */
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <time.h>
#include <unistd.h>

#include "rdma_mcm_cli.h"

#ifndef AF_IB
#define AF_IB	27
#endif

/* What parse_filters() and monitor_args() return for "help": exit 0 */
#define SAID_HELP	(-1)

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

#define HAS(obj, a)	RDMA_MCM_NL_HAS(obj, RDMA_MCM_A_##a)

/* " KEY NAME", the name escaped (a device's, a netdev's, a unit's) */
static void name_text(const char *k, const char *name)
{
	printf(" %s ", k);
	print_name(name);
}

/* The owner's fields of an object with @present */
struct owner {
	uint64_t present;
	uint32_t kind, pid, uid;
	const char *name;
};

/*
 * The systemd unit of cgroup path @path: its last component that is a
 * service or a scope (/system.slice/rdma-mcm-groups.service,
 * /user.slice/user-1000.slice/session-2.scope), else none
 */
static int unit_of_path(char *path, char *unit, size_t len)
{
	char *c, *save = NULL;
	size_t n;

	*unit = '\0';
	for (c = strtok_r(path, "/", &save); c; c = strtok_r(NULL, "/", &save)) {
		n = strlen(c);
		if ((n > 8 && !strcmp(c + n - 8, ".service")) ||
		    (n > 6 && !strcmp(c + n - 6, ".scope")))
			snprintf(unit, len, "%s", c);
	}
	return !!*unit;
}

/*
 * The systemd unit a process runs in, as /proc/PID/cgroup says (the
 * unified hierarchy's line, else the name=systemd one of a legacy
 * hierarchy); NULL for none (no systemd, a kernel owner, a process gone or
 * of another pid namespace). The last answer is kept: a dump lists a
 * context's memberships one after the other.
 */
static const char *owner_unit(const struct owner *o)
{
	static char unit[256];
	static uint32_t last_pid;
	char path[64], line[1024], v2[1024] = "", v1[1024] = "";
	FILE *f;

	if (o->kind != RDMA_MCM_OWNER_USER || !HAS(o, OWNER_PID) || !o->pid ||
	    !*cli_proc_root)
		return NULL;
	if (o->pid == last_pid)
		return *unit ? unit : NULL;
	last_pid = o->pid;
	*unit = '\0';
	snprintf(path, sizeof(path), "%s/%u/cgroup", cli_proc_root, o->pid);
	f = fopen(path, "re");
	if (!f)
		return NULL;
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		if (!strncmp(line, "0::", 3))
			snprintf(v2, sizeof(v2), "%s", line + 3);
		else if (strstr(line, ":name=systemd:"))
			snprintf(v1, sizeof(v1), "%s",
				 strstr(line, ":name=systemd:") + 14);
	}
	fclose(f);
	if (!unit_of_path(v2, unit, sizeof(unit)))
		unit_of_path(v1, unit, sizeof(unit));
	return *unit ? unit : NULL;
}

static void owner_json(struct rec *r, const struct owner *o)
{
	const char *unit = owner_unit(o);

	rec_str(r, "owner", rdma_mcm_nl_owner_str(o->kind));
	if (HAS(o, OWNER_PID))
		rec_u64(r, "pid", o->pid);
	if (HAS(o, OWNER_UID))
		rec_u64(r, "uid", o->uid);
	if (HAS(o, OWNER_NAME))
		rec_str(r, "comm", o->name);
	if (unit)
		rec_str(r, "unit", unit);
}

static void owner_text(const struct owner *o)
{
	const char *unit = owner_unit(o);

	printf(" owner %s", rdma_mcm_nl_owner_str(o->kind));
	if (HAS(o, OWNER_PID))
		printf(" pid %u", o->pid);
	if (HAS(o, OWNER_UID))
		printf(" uid %u", o->uid);
	if (HAS(o, OWNER_NAME)) {
		/* as iproute2's rdma tool names a kernel owner: [module] */
		printf(" comm %s", o->kind == RDMA_MCM_OWNER_KERNEL ? "[" : "");
		print_name(o->name);
		if (o->kind == RDMA_MCM_OWNER_KERNEL)
			putchar(']');
	}
	if (unit)
		name_text("unit", unit);
}

static void addr_text(const struct sockaddr_storage *ss, char *buf,
		      size_t len)
{
	addr_name((const struct sockaddr *)ss, buf, len);
}

/* --- show: memberships ------------------------------------------------------- */

/* The filters' keys, and the bit of each in struct filter's seen */
static const char *const filter_keys[] = {
	"dev", "group", "state", "pid", "ctx", "unit", NULL,
};

enum { F_DEV, F_GROUP, F_STATE, F_PID, F_CTX, F_UNIT };

#define F_BIT(k)	(1U << (k))

struct filter {
	const char *dev;
	char group[80];			/* as addr_name() writes it */
	int state;			/* -1: any */
	long pid;			/* -1: any */
	uint32_t ctx;			/* 0: any */
	char unit[256];			/* "": any */
	unsigned int seen;		/* F_BIT()s given */
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

/* The value of filter @key: 0, or EXIT_USAGE (reported) */
static int filter_value(struct filter *f, int key, const char *val)
{
	struct sockaddr_storage ss;
	unsigned long v;

	switch (key) {
	case F_DEV:
		f->dev = val;
		return 0;
	case F_GROUP:
		if (rdma_mcm_parse_addr(val, &ss)) {
			cli_err("bad group '%.100s'", val);
			return EXIT_USAGE;
		}
		addr_text(&ss, f->group, sizeof(f->group));
		return 0;
	case F_STATE:
		f->state = parse_state(val);
		if (f->state >= 0)
			return 0;
		cli_err("bad state '%.100s': joining, joined, error or waiting",
			val);
		return EXIT_USAGE;
	case F_PID:
		if (cli_parse_uint(val, UINT32_MAX, &v)) {
			cli_err("bad pid '%.100s'", val);
			return EXIT_USAGE;
		}
		f->pid = (long)v;
		return 0;
	case F_UNIT:
		if (!*val || strchr(val, '/') ||
		    strlen(val) + sizeof(".service") > sizeof(f->unit)) {
			cli_err("bad unit '%.100s'", val);
			return EXIT_USAGE;
		}
		/* a name without a type is a service's, as for systemctl */
		snprintf(f->unit, sizeof(f->unit), "%s%s", val,
			 strchr(val, '.') ? "" : ".service");
		return 0;
	default:
		if (cli_parse_uint(val, UINT32_MAX, &v) || !v) {
			cli_err("bad ctx '%.100s'", val);
			return EXIT_USAGE;
		}
		f->ctx = (uint32_t)v;
		return 0;
	}
}

/*
 * KEY VALUE filters of show and ctx, each key at most once, by any prefix
 * that names one only; @keys are the F_BIT()s the command takes; -j and
 * -p among them when @json_opts. 0, EXIT_USAGE (reported), or SAID_HELP
 * (the usage printed).
 */
static int parse_filters(struct cli *cli, int argc, char **argv,
			 unsigned int keys, int json_opts, struct filter *f)
{
	const char *names[F_UNIT + 2], *k;
	int i, n = 0, key, ambiguous, ret;

	memset(f, 0, sizeof(*f));
	f->state = -1;
	f->pid = -1;
	f->cli = cli;
	for (i = 0; filter_keys[i]; i++)
		if (keys & F_BIT(i))
			names[n++] = filter_keys[i];
	names[n] = NULL;
	for (i = 1; i < argc; i++) {
		if (json_opts && (!strcmp(argv[i], "-j") ||
				  !strcmp(argv[i], "--json"))) {
			cli_set_json(cli, 0);
			continue;
		}
		if (json_opts && (!strcmp(argv[i], "-p") ||
				  !strcmp(argv[i], "--pretty"))) {
			cli_set_json(cli, 1);
			continue;
		}
		if (!strcmp(argv[i], "help")) {
			cli_usage(stdout);
			return SAID_HELP;
		}
		k = cli_match(argv[i], names, &ambiguous);
		if (!k) {
			cli_bad_word("argument", argv[i], names, ambiguous);
			return EXIT_USAGE;
		}
		for (key = 0; strcmp(filter_keys[key], k); key++)
			;
		if (f->seen & F_BIT(key)) {
			cli_err("'%s' given twice: one %s filter at most", k, k);
			return EXIT_USAGE;
		}
		f->seen |= F_BIT(key);
		if (i + 1 >= argc) {
			cli_err("'%s' needs a value", k);
			return EXIT_USAGE;
		}
		ret = filter_value(f, key, argv[++i]);
		if (ret)
			return ret;
	}
	return 0;
}

int cli_nl_open(struct rdma_mcm_nl **nl)
{
	int err;

	*nl = rdma_mcm_nl_open();
	if (*nl)
		return 0;
	err = errno;
	if (err != ENOENT)
		cli_err("netlink family %s: %s", RDMA_MCM_GENL_NAME,
			strerror(err));
	else if (cli_module_loaded())
		cli_err("netlink family %s: %s (the rdma_mcm module loaded is older than its netlink family: show, ctx, stats and monitor need a newer one)",
			RDMA_MCM_GENL_NAME, strerror(err));
	else
		cli_err("netlink family %s: %s (the rdma_mcm module is not loaded)",
			RDMA_MCM_GENL_NAME, strerror(err));
	return 1;
}

/*
 * The kernel's word on the handle's last request that failed (its
 * extended ack), as "; the kernel says: ..." for an error line, or "".
 */
const char *cli_nl_why(struct rdma_mcm_nl *nl)
{
	static char why[320];
	const char *msg = rdma_mcm_nl_last_error(nl);

	if (!msg)
		return "";
	snprintf(why, sizeof(why), "; the kernel says: %s", msg);
	return why;
}

static void member_json(const struct rdma_mcm_nl_member *m)
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
	rec_status(&r, "status", "errno", NULL, m->status);
	rec_status(&r, "last_status", "last_errno", NULL, m->last_status);
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
			rec_item(&r, a);
		}
		rec_close(&r, ']');
	}
	if (HAS(m, JOINED_BY))
		rec_str(&r, "joined_by", rdma_mcm_nl_joiner_str(m->joined_by));
	rec_end(&r);
}

/* " dev D port P netdev N", of what the kernel sent (@o's present) */
static void where_text(const struct owner *o, const char *dev, uint32_t port,
		       const char *netdev)
{
	if (HAS(o, DEV_NAME))
		name_text("dev", dev);
	if (HAS(o, PORT))
		printf(" port %u", port);
	if (HAS(o, NETDEV))
		name_text("netdev", netdev);
}

static const uint8_t zero_gid[16];

/* The group of zeros, :: or an AF_IB MGID of zeros: the SA assigns it */
static int sa_assigned(const struct sockaddr_storage *ss)
{
	const struct sockaddr_in6 *sin6 = (const struct sockaddr_in6 *)ss;

	if (ss->ss_family == AF_INET6)
		return IN6_IS_ADDR_UNSPECIFIED(&sin6->sin6_addr);
	/* sockaddr_ib's sib_addr, 8 bytes in */
	if (ss->ss_family == AF_IB)
		return !memcmp((const uint8_t *)ss + 8, zero_gid,
			       sizeof(zero_gid));
	return 0;
}

static void member_text(const struct rdma_mcm_nl_member *m)
{
	struct owner o = { m->present, m->owner_kind, m->owner_pid,
			   m->owner_uid, m->owner_name };
	char a[80], status[128];
	uint32_t i;

	printf("ctx %u handle %u", m->ctx_id, m->handle);
	where_text(&o, m->dev_name, m->port, m->netdev);
	if (HAS(m, GROUP)) {
		addr_text(&m->group, a, sizeof(a));
		printf(" group %s", a);
		/* a group the SA assigned (::) is known by its MGID */
		if (sa_assigned(&m->group) && HAS(m, MGID) &&
		    memcmp(m->mgid, zero_gid, sizeof(zero_gid))) {
			gid_name(m->mgid, a, sizeof(a));
			printf(" mgid %s", a);
		}
	}
	printf(" state %s", rdma_mcm_state_str(m->state));
	if (HAS(m, JOIN_TYPE))
		printf(" type %s", join_type_name(m->join_type));
	if (m->status) {
		status_text(m->status, status, sizeof(status));
		printf(" status %s", status);
	}
	owner_text(&o);
	if (HAS(m, AGE_MS))
		printf(" age %.1fs", (double)m->age_ms / 1000);
	if (HAS(m, STATE_AGE_MS))
		printf(" state-age %.1fs", (double)m->state_age_ms / 1000);
	printf(" rejoins %u queued %u", m->rejoins, m->queued);
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

/* Whether the owner runs in the unit the filter names */
static int unit_matches(const struct filter *f, const struct owner *o)
{
	const char *unit;

	if (!*f->unit)
		return 1;
	unit = owner_unit(o);
	return unit && !strcmp(unit, f->unit);
}

static int on_member(const struct rdma_mcm_nl_member *m, void *arg)
{
	struct owner o = { m->present, m->owner_kind, m->owner_pid,
			   m->owner_uid, m->owner_name };
	struct filter *f = arg;
	char a[80];

	if (f->dev && (!HAS(m, DEV_NAME) || strcmp(f->dev, m->dev_name)))
		return 0;
	if (!unit_matches(f, &o))
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
		member_json(m);
	else
		member_text(m);
	return 0;
}

/* The memberships @f lets through; the command's exit status */
static int show_members(struct filter *f)
{
	struct rdma_mcm_nl *nl;
	int ret;

	if (cli_nl_open(&nl))
		return 1;
	ret = rdma_mcm_nl_dump_members(nl, f->ctx, on_member, f);
	if (ret < 0)
		cli_err("dump of memberships: %s%s", strerror(errno),
			cli_nl_why(nl));
	rdma_mcm_nl_close(nl);
	return ret < 0 ? 1 : 0;
}

int cmd_show(struct cli *cli, int argc, char **argv)
{
	struct filter f;
	int ret;

	ret = parse_filters(cli, argc, argv, F_BIT(F_DEV) | F_BIT(F_GROUP) |
			    F_BIT(F_STATE) | F_BIT(F_PID) | F_BIT(F_CTX) |
			    F_BIT(F_UNIT), 1, &f);
	if (ret)
		return ret == SAID_HELP ? 0 : ret;
	return show_members(&f);
}

/*
 * A session's show [dev DEV] [group GROUP] [state STATE] [ctx ID]: the
 * host's view of this process's memberships (pid is its own)
 */
int cli_show_own(struct cli *cli, int argc, char **argv)
{
	struct filter f;
	int ret;

	ret = parse_filters(cli, argc, argv, F_BIT(F_DEV) | F_BIT(F_GROUP) |
			    F_BIT(F_STATE) | F_BIT(F_CTX), 0, &f);
	if (ret)
		return ret == SAID_HELP ? 0 : ret;
	f.pid = (long)getpid();
	return show_members(&f);
}

/* --- ctx: contexts ----------------------------------------------------------- */

/*
 * The key of counter, limit or usage @i: the library's name for it, or
 * @prefix_N for a later module's that this library does not know, so
 * that two unknown ones never share a key
 */
static const char *stat_key(const char *name, const char *prefix, uint32_t i,
			    char *buf, size_t len)
{
	if (strcmp(name, "unknown"))
		return name;
	snprintf(buf, len, "%s_%u", prefix, i);
	return buf;
}

static const char *counter_key(uint32_t i, char *buf, size_t len)
{
	return stat_key(rdma_mcm_nl_counter_str(i), "counter", i, buf, len);
}

static void errnos_json(struct rec *r, const char *k,
			const struct rdma_mcm_nl_errno_count *e, uint32_t n)
{
	uint32_t i;

	rec_open(r, k, '[');
	for (i = 0; i < n; i++) {
		rec_open(r, NULL, '{');
		rec_u64(r, "errno", e[i].err);
		rec_str_or_null(r, "name", e[i].err ?
				errno_name((int)e[i].err) : "other");
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

static void ctx_json(const struct rdma_mcm_nl_context *c)
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
	rec_open(&r, "flags", '[');
	if (c->flags & RDMA_MCM_CTX_HEAL)
		rec_item(&r, "heal");
	if (c->flags & RDMA_MCM_CTX_ROUTE)
		rec_item(&r, "route");
	rec_close(&r, ']');
	rec_u64(&r, "members", c->members);
	counters_json(&r, &c->cnt);
	rec_end(&r);
}

static void ctx_text(const struct rdma_mcm_nl_context *c)
{
	struct owner o = { c->present, c->owner_kind, c->owner_pid,
			   c->owner_uid, c->owner_name };
	char a[80];

	printf("ctx %u", c->ctx_id);
	where_text(&o, c->dev_name, c->port, c->netdev);
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
	struct owner o = { c->present, c->owner_kind, c->owner_pid,
			   c->owner_uid, c->owner_name };
	struct filter *f = arg;

	if (f->dev && (!HAS(c, DEV_NAME) || strcmp(f->dev, c->dev_name)))
		return 0;
	if (!unit_matches(f, &o))
		return 0;
	if (f->pid >= 0 && (!HAS(c, OWNER_PID) || c->owner_pid != f->pid))
		return 0;
	if (f->ctx && c->ctx_id != f->ctx)
		return 0;
	f->shown++;
	if (f->cli->json)
		ctx_json(c);
	else
		ctx_text(c);
	return 0;
}

int cmd_ctx(struct cli *cli, int argc, char **argv)
{
	static const char *const objects[] = { "show", NULL };
	static const char *const keys[] = { "dev", "pid", "ctx", "unit", NULL };
	struct rdma_mcm_nl *nl;
	struct filter f;
	int ret, ambiguous;

	/* "ctx show ..." as "ctx ..." ("ctx sh ..." too) */
	if (argc > 1 && cli_match(argv[1], objects, &ambiguous) &&
	    !cli_match(argv[1], keys, &ambiguous)) {
		argc--;
		argv++;
	}
	ret = parse_filters(cli, argc, argv, F_BIT(F_DEV) | F_BIT(F_PID) |
			    F_BIT(F_CTX) | F_BIT(F_UNIT), 1, &f);
	if (ret)
		return ret == SAID_HELP ? 0 : ret;
	if (cli_nl_open(&nl))
		return 1;
	ret = rdma_mcm_nl_dump_contexts(nl, on_context, &f);
	if (ret < 0)
		cli_err("dump of contexts: %s%s", strerror(errno),
			cli_nl_why(nl));
	rdma_mcm_nl_close(nl);
	return ret < 0 ? 1 : 0;
}

/* --- stats ---------------------------------------------------------------------- */

/* A device's multicast limits and places (absent: an older kernel's) */
static const char *const mcast_keys[RDMA_MCM_NL_MCAST] = {
	[RDMA_MCM_MCAST_GROUPS] = "groups",
	[RDMA_MCM_MCAST_GROUPS_MAX] = "groups_max",
	[RDMA_MCM_MCAST_ATTACHES] = "attaches",
	[RDMA_MCM_MCAST_ATTACHES_MAX] = "attaches_max",
	[RDMA_MCM_MCAST_QP_ATTACH_MAX] = "qp_attach_max",
};

static void mcast_json(struct rec *r, const struct rdma_mcm_nl_device *d)
{
	uint32_t i;

	if (!d->mcast_present)
		return;
	rec_open(r, "mcast", '{');
	for (i = 1; i < RDMA_MCM_NL_MCAST; i++)
		if (mcast_keys[i] && (d->mcast_present & (1U << i)))
			rec_u64(r, mcast_keys[i], d->mcast[i]);
	rec_close(r, '}');
}

/* " groups USED/MAX attaches USED/MAX qp-per-group MAX", as rdma resource */
static void mcast_text(const struct rdma_mcm_nl_device *d)
{
	uint32_t want = (1U << RDMA_MCM_MCAST_GROUPS) |
			(1U << RDMA_MCM_MCAST_GROUPS_MAX) |
			(1U << RDMA_MCM_MCAST_ATTACHES) |
			(1U << RDMA_MCM_MCAST_ATTACHES_MAX) |
			(1U << RDMA_MCM_MCAST_QP_ATTACH_MAX);

	if ((d->mcast_present & want) != want)
		return;
	printf(" groups %u/%u attaches %u/%u qp-per-group %u",
	       d->mcast[RDMA_MCM_MCAST_GROUPS],
	       d->mcast[RDMA_MCM_MCAST_GROUPS_MAX],
	       d->mcast[RDMA_MCM_MCAST_ATTACHES],
	       d->mcast[RDMA_MCM_MCAST_ATTACHES_MAX],
	       d->mcast[RDMA_MCM_MCAST_QP_ATTACH_MAX]);
}

static void stats_json(const struct rdma_mcm_nl_stats *st)
{
	char buf[32];
	struct rec r;
	uint32_t i;

	rec_begin(&r);
	counters_json(&r, &st->cnt);
	rec_open(&r, "limits", '{');
	for (i = 1; i < RDMA_MCM_NL_LIMITS; i++)
		if (st->limits_present & (1U << i))
			rec_u64(&r, stat_key(rdma_mcm_nl_limit_str(i), "limit",
					     i, buf, sizeof(buf)),
				st->limits[i]);
	rec_close(&r, '}');
	rec_open(&r, "usage", '{');
	for (i = 1; i < RDMA_MCM_NL_USAGE; i++)
		if (st->usage_present & (1U << i))
			rec_u64(&r, stat_key(rdma_mcm_nl_usage_str(i), "usage",
					     i, buf, sizeof(buf)),
				st->usage[i]);
	rec_close(&r, '}');
	rec_u64(&r, "events_lost", st->events_lost);
	rec_open(&r, "devices", '[');
	for (i = 0; i < st->n_devices; i++) {
		rec_open(&r, NULL, '{');
		rec_str(&r, "dev", st->devices[i].name);
		counters_json(&r, &st->devices[i].cnt);
		mcast_json(&r, &st->devices[i]);
		rec_close(&r, '}');
	}
	rec_close(&r, ']');
	rec_end(&r);
}

static void stats_text(const struct rdma_mcm_nl_stats *st)
{
	char buf[32];
	uint32_t i;

	fputs("module", stdout);
	counters_text(&st->cnt);
	printf("\nlimits");
	for (i = 1; i < RDMA_MCM_NL_LIMITS; i++)
		if (st->limits_present & (1U << i))
			printf(" %s %u", stat_key(rdma_mcm_nl_limit_str(i),
						  "limit", i, buf, sizeof(buf)),
			       st->limits[i]);
	printf("\nusage");
	for (i = 1; i < RDMA_MCM_NL_USAGE; i++)
		if (st->usage_present & (1U << i))
			printf(" %s %u", stat_key(rdma_mcm_nl_usage_str(i),
						  "usage", i, buf, sizeof(buf)),
			       st->usage[i]);
	printf(" events_lost %llu\n", (unsigned long long)st->events_lost);
	for (i = 0; i < st->n_devices; i++) {
		fputs("dev ", stdout);
		print_name(st->devices[i].name);
		mcast_text(&st->devices[i]);
		counters_text(&st->devices[i].cnt);
		putchar('\n');
	}
}

/* stats --format FMT: text and json as without, or a Prometheus format */
enum { FMT_TEXT, FMT_JSON, FMT_PROMETHEUS, FMT_OPENMETRICS };

/*
 * --format FMT (or --format=FMT) among @argv, taken out of it: 0 with
 * *@fmt, or EXIT_USAGE (reported)
 */
static int stats_format(struct cli *cli, int *argc, char **argv, int *fmt)
{
	static const char *const fmts[] = { "text", "json", "prometheus",
					    "openmetrics", NULL };
	const char *v = NULL;
	int i, n = 1, seen = 0;

	*fmt = FMT_TEXT;
	for (i = 1; i < *argc; i++) {
		if (!strcmp(argv[i], "--format") && i + 1 == *argc) {
			cli_err("'--format' needs a value: text, json, prometheus or openmetrics");
			return EXIT_USAGE;
		}
		if (!strcmp(argv[i], "--format")) {
			v = argv[++i];
		} else if (!strncmp(argv[i], "--format=", 9)) {
			v = argv[i] + 9;
		} else {
			argv[n++] = argv[i];
			continue;
		}
		if (seen++) {
			cli_err("'--format' given twice");
			return EXIT_USAGE;
		}
		for (*fmt = 0; fmts[*fmt] && strcmp(fmts[*fmt], v); (*fmt)++)
			;
		if (!fmts[*fmt]) {
			cli_err("bad format '%.100s': text, json, prometheus or openmetrics",
				v);
			return EXIT_USAGE;
		}
	}
	*argc = n;
	if (*fmt == FMT_JSON)
		cli_set_json(cli, 0);
	return 0;
}

int cmd_nl_stats(struct cli *cli, int argc, char **argv)
{
	struct rdma_mcm_nl_stats *st;
	struct rdma_mcm_nl *nl;
	struct filter f;
	int ret, fmt;

	ret = stats_format(cli, &argc, argv, &fmt);
	if (ret)
		return ret;
	ret = parse_filters(cli, argc, argv, 0, 1, &f);
	if (ret)
		return ret == SAID_HELP ? 0 : ret;
	if (fmt >= FMT_PROMETHEUS && cli->json) {
		cli_err("--format %s and -j or -p: one output format only",
			fmt == FMT_PROMETHEUS ? "prometheus" : "openmetrics");
		return EXIT_USAGE;
	}
	if (cli_nl_open(&nl))
		return 1;
	st = rdma_mcm_nl_get_stats(nl);
	if (st) {
		if (fmt >= FMT_PROMETHEUS)
			ret = stats_prometheus(nl, st, fmt == FMT_OPENMETRICS);
		else if (cli->json)
			stats_json(st);
		else
			stats_text(st);
	} else {
		int err = errno;

		cli_err("stats: %s%s%s", strerror(err),
			err == EPERM ?
			" (the host's figures need CAP_NET_ADMIN)" : "",
			cli_nl_why(nl));
	}
	rdma_mcm_nl_free_stats(st);
	rdma_mcm_nl_close(nl);
	return st ? ret : 1;
}

/* --- monitor ----------------------------------------------------------------- */

/* monitor -t, -ts: each event's wall-clock time, as iproute2's -t, -ts */
enum { TS_NONE, TS_LONG, TS_SHORT };
static int monitor_ts;

/*
 * The wall-clock time (CLOCK_REALTIME) of @boot_ns, a CLOCK_BOOTTIME
 * time as the kernel stamps events: the clocks' offset now, added. 0, or
 * -1 when a clock cannot be read.
 */
static int wall_time(uint64_t boot_ns, struct timespec *wall)
{
	struct timespec real, boot;
	int64_t ns;

	if (clock_gettime(CLOCK_REALTIME, &real) ||
	    clock_gettime(CLOCK_BOOTTIME, &boot))
		return -1;
	ns = ((int64_t)real.tv_sec - boot.tv_sec) * 1000000000LL +
	     (real.tv_nsec - boot.tv_nsec) + (int64_t)boot_ns;
	wall->tv_sec = (time_t)(ns / 1000000000LL);
	wall->tv_nsec = (long)(ns % 1000000000LL);
	return 0;
}

/* "wall_time":"2026-12-01T10:00:00.123456Z" (RFC 3339, UTC) */
static void wall_json(struct rec *r, uint64_t boot_ns)
{
	struct timespec ts;
	char buf[64];
	struct tm tm;

	if (wall_time(boot_ns, &ts) || !gmtime_r(&ts.tv_sec, &tm) ||
	    !strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%S", &tm))
		return;
	rec_key(r, "wall_time");
	fprintf(r->f, "\"%s.%06ldZ\"", buf, ts.tv_nsec / 1000);
}

/*
 * Before an event's line, as iproute2 prints them (local time): -t
 * "Timestamp: Tue Dec  1 10:00:00 2026 123456 usec" on a line of its
 * own, -ts "[2026-12-01T10:00:00.123456] " in front of it
 */
static void wall_text(uint64_t boot_ns)
{
	struct timespec ts;
	char buf[64];
	struct tm tm;

	if (monitor_ts == TS_NONE || wall_time(boot_ns, &ts) ||
	    !localtime_r(&ts.tv_sec, &tm))
		return;
	if (monitor_ts == TS_SHORT &&
	    strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%S", &tm))
		printf("[%s.%06ld] ", buf, ts.tv_nsec / 1000);
	else if (monitor_ts == TS_LONG &&
		 strftime(buf, sizeof(buf), "%a %b %e %H:%M:%S %Y", &tm))
		printf("Timestamp: %s %ld usec\n", buf, ts.tv_nsec / 1000);
}

/*
 * Membership events name a handle and a group; context events do not.
 * "time_ns" is the kernel's CLOCK_BOOTTIME stamp, "wall_time" the same
 * instant on the wall clock.
 */
static void event_json(struct cli *cli, const struct rdma_mcm_nl_notice *ev)
{
	const struct rdma_mcm_nl_member *m = &ev->m;
	struct owner o = { m->present, m->owner_kind, m->owner_pid,
			   m->owner_uid, m->owner_name };
	char a[80];
	struct rec r;

	(void)cli;
	rec_begin(&r);
	rec_str(&r, "event", rdma_mcm_nl_event_str(ev->event));
	rec_u64(&r, "time_ns", ev->time_ns);
	wall_json(&r, ev->time_ns);
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
	rec_status(&r, "status", "errno", NULL, m->status);
	owner_json(&r, &o);
	rec_end(&r);
}

static void event_text(const struct rdma_mcm_nl_notice *ev)
{
	const struct rdma_mcm_nl_member *m = &ev->m;
	struct owner o = { m->present, m->owner_kind, m->owner_pid,
			   m->owner_uid, m->owner_name };
	char a[80], status[128];

	wall_text(ev->time_ns);
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
		name_text("dev", m->dev_name);
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
		rec_end(&r);
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

/*
 * monitor's arguments: [-j] [-p] [-c COUNT] [-t | -ts] [help], each at
 * most once. 0, EXIT_USAGE (reported), or SAID_HELP (the usage printed).
 */
static int monitor_args(struct cli *cli, int argc, char **argv,
			unsigned long *count)
{
	int i;

	*count = 0;
	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-j") || !strcmp(argv[i], "--json")) {
			cli_set_json(cli, 0);
		} else if (!strcmp(argv[i], "-p") ||
			   !strcmp(argv[i], "--pretty")) {
			cli_set_json(cli, 1);
		} else if (!strcmp(argv[i], "help")) {
			cli_usage(stdout);
			return SAID_HELP;
		} else if ((!strcmp(argv[i], "-t") ||
			    !strcmp(argv[i], "-ts")) && monitor_ts) {
			cli_err("-t or -ts once only");
			return EXIT_USAGE;
		} else if (!strcmp(argv[i], "-t")) {
			monitor_ts = TS_LONG;
		} else if (!strcmp(argv[i], "-ts")) {
			monitor_ts = TS_SHORT;
		} else if (!strcmp(argv[i], "-c") && *count) {
			cli_err("-c given twice");
			return EXIT_USAGE;
		} else if (!strcmp(argv[i], "-c") && i + 1 < argc) {
			if (cli_parse_uint(argv[++i], UINT32_MAX, count) ||
			    !*count) {
				cli_err("bad count '%.100s'", argv[i]);
				return EXIT_USAGE;
			}
		} else {
			cli_err("usage: monitor [-j] [-c COUNT] [-t | -ts]");
			return EXIT_USAGE;
		}
	}
	return 0;
}

int cmd_monitor(struct cli *cli, int argc, char **argv)
{
	struct rdma_mcm_nl_notice ev;
	unsigned long count = 0, seen = 0;
	struct rdma_mcm_nl *nl;
	struct pollfd pfd[2];
	int n, sfd, ret;

	ret = monitor_args(cli, argc, argv, &count);
	if (ret)
		return ret == SAID_HELP ? 0 : ret;
	if (cli_nl_open(&nl))
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
