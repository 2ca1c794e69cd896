// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * rdma-mcm-groups' configuration and reload plan (tools/rdma-mcm-groups,
 * conf.c and plan.c), without a device: what a line means, every error
 * with its file and line, duplicates, the files of a directory, and what a
 * reload changes (kept, left, joined, replaced) for small and large sets.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "groups.h"
#include "harness.h"
#include "querier.h"

/* --- errors, as the service reports them --------------------------------------- */

struct errs {
	unsigned int n;
	char text[8][512];
};

static void on_err(void *arg, const char *file, unsigned int line,
		   const char *msg)
{
	struct errs *e = arg;

	if (e->n < 8)
		snprintf(e->text[e->n], sizeof(e->text[0]), "%s:%u: %s", file,
			 line, msg);
	e->n++;
}

/* @text as file "t.conf", then the checks of a whole configuration */
static int parse(struct grp_conf *c, struct errs *e, const char *text)
{
	memset(e, 0, sizeof(*e));
	grp_conf_init(c, on_err, e);
	grp_conf_parse(c, "t.conf", text);
	return grp_conf_finish(c);
}

/* --- lines that are good -------------------------------------------------------- */

struct good {
	const char *line;
	const char *text;	/* grp_entry_text() of the entry */
};

static const struct good goods[] = {
	{ "group 239.1.1.1 dev eth0", "group 239.1.1.1 dev eth0 type full" },
	{ "dev eth0 group 239.1.1.1", "group 239.1.1.1 dev eth0 type full" },
	{ "  group\t239.1.1.1   dev eth0\t", "group 239.1.1.1 dev eth0 type full" },
	{ "group 239.1.1.1 dev eth0 # a comment", "group 239.1.1.1 dev eth0 type full" },
	{ "group 239.1.1.1 dev eth0#comment", "group 239.1.1.1 dev eth0 type full" },
	{ "group 239.1.1.1 dev eth0\r", "group 239.1.1.1 dev eth0 type full" },
	{ "group 224.0.0.0 dev e", "group 224.0.0.0 dev e type full" },
	{ "group 239.255.255.255 dev eth0.100",
	  "group 239.255.255.255 dev eth0.100 type full" },
	{ "group 239.1.1.1 dev abcdefghijklmno", "group 239.1.1.1 dev abcdefghijklmno type full" },
	{ "group 239.1.1.1 dev eth0 type send-only", "group 239.1.1.1 dev eth0 type send-only" },
	{ "group 239.1.1.1 dev eth0 type sendonly", "group 239.1.1.1 dev eth0 type send-only" },
	{ "type full group 239.1.1.1 local 192.0.2.2",
	  "group 239.1.1.1 local 192.0.2.2 type full" },
	{ "group ff3e::1 dev eth0", "group ff3e::1 dev eth0 type full" },
	{ "group FF3E:0::1 local 2001:db8::2", "group ff3e::1 local 2001:db8::2 type full" },
	{ "group ff3e::1 local [2001:db8::2]", "group ff3e::1 local 2001:db8::2 type full" },
	{ "group ff02::1:3 dev eth0", "group ff02::1:3 dev eth0 type full" },
	{ "group 232.1.1.1 dev eth0 source 192.0.2.1",
	  "group 232.1.1.1 dev eth0 source 192.0.2.1 type full" },
	/* sources sorted, from one list or several */
	{ "group 232.1.1.1 dev eth0 source 192.0.2.9,192.0.2.1",
	  "group 232.1.1.1 dev eth0 source 192.0.2.1,192.0.2.9 type full" },
	{ "source 192.0.2.9 group 232.1.1.1 source 192.0.2.1 dev eth0",
	  "group 232.1.1.1 dev eth0 source 192.0.2.1,192.0.2.9 type full" },
	{ "group ff3e::2 local 2001:db8::2 source 2001:db8::1,2001:db8::3",
	  "group ff3e::2 local 2001:db8::2 source 2001:db8::1,2001:db8::3 type full" },
};

static void test_good_lines(void)
{
	char text[GRP_LINE_MAX];
	struct grp_conf c;
	struct errs e;
	size_t i;

	for (i = 0; i < sizeof(goods) / sizeof(goods[0]); i++) {
		if (parse(&c, &e, goods[i].line) || c.n != 1) {
			printf("#   '%s': %u errors, %zu entries: %s\n",
			       goods[i].line, e.n, c.n, e.text[0]);
			CHECK(0);
			grp_conf_free(&c);
			continue;
		}
		grp_entry_text(&c.v[0], text, sizeof(text));
		if (strcmp(text, goods[i].text))
			printf("#   '%s' reads '%s', wanted '%s'\n",
			       goods[i].line, text, goods[i].text);
		CHECK(!strcmp(text, goods[i].text));
		CHECK(c.v[0].line == 1 && !strcmp(c.v[0].file, "t.conf"));
		grp_conf_free(&c);
	}
}

/* An entry's fields, not only its text */
static void test_entry_fields(void)
{
	struct sockaddr_in *sin;
	struct grp_conf c;
	struct errs e;

	CHECK(!parse(&c, &e, "group 232.1.2.3 local 192.0.2.2 source 192.0.2.7"));
	CHECK(c.n == 1);
	if (c.n == 1) {
		sin = (struct sockaddr_in *)&c.v[0].group;
		CHECK(sin->sin_family == AF_INET &&
		      sin->sin_addr.s_addr == inet_addr("232.1.2.3"));
		CHECK(!*c.v[0].dev && c.v[0].local.ss_family == AF_INET);
		CHECK(c.v[0].nr_src == 1 && c.v[0].type == RDMA_MCM_JOIN_FULLMEMBER);
		sin = (struct sockaddr_in *)&c.v[0].src[0];
		CHECK(sin->sin_addr.s_addr == inet_addr("192.0.2.7"));
	}
	grp_conf_free(&c);
	CHECK(!parse(&c, &e, "group ff3e::5 dev ib0 type send-only"));
	CHECK(c.n == 1 && !strcmp(c.v[0].dev, "ib0") &&
	      c.v[0].local.ss_family == AF_UNSPEC && !c.v[0].nr_src &&
	      c.v[0].type == RDMA_MCM_JOIN_SENDONLY_FULLMEMBER);
	grp_conf_free(&c);
}

/* --- lines that are not --------------------------------------------------------- */

struct bad {
	const char *text;
	const char *err;	/* in the error, after "t.conf:LINE: " */
	unsigned int line;
};

static char long_line[GRP_LINE_MAX + 40];
static char many_sources[GRP_LINE_MAX];
static char max_sources[GRP_LINE_MAX];

static const struct bad bads[] = {
	{ "bogus", "unknown keyword 'bogus'", 1 },
	{ "group 239.1.1.1 dev eth0 ttl 3", "unknown keyword 'ttl'", 1 },
	{ "group", "'group' needs a value", 1 },
	{ "group 239.1.1.1 dev", "'dev' needs a value", 1 },
	{ "group 239.1.1.1 group 239.1.1.2 dev eth0", "'group' given twice", 1 },
	{ "group 239.1.1.1 dev eth0 dev eth1", "'dev' given twice", 1 },
	{ "group 239.1.1.1 dev eth0 type full type full", "'type' given twice", 1 },
	{ "dev eth0", "no group", 1 },
	{ "group 239.1.1.1", "no dev NETDEV or local ADDRESS", 1 },
	{ "group 239.1.1.1 dev eth0 local 192.0.2.2", "dev and local both given", 1 },
	{ "group 239.1.1 dev eth0", "bad group address '239.1.1'", 1 },
	{ "group 192.0.2.1 dev eth0", "group 192.0.2.1 is not a multicast address", 1 },
	{ "group 2001:db8::1 dev eth0", "is not a multicast address", 1 },
	{ "group :: dev eth0", "is not a multicast address", 1 },
	{ "group ff3e::1%1 dev eth0", "a group takes no %scope", 1 },
	{ "group 239.1.1.1 dev eth0/1", "'eth0/1' is not a netdev name", 1 },
	{ "group 239.1.1.1 dev eth0:1", "is not a netdev name", 1 },
	{ "group 239.1.1.1 dev ..", "is not a netdev name", 1 },
	{ "group 239.1.1.1 dev abcdefghijklmnop", "is too long (15 characters at most)", 1 },
	{ "group 239.1.1.1 local 192.0.2", "bad local address '192.0.2'", 1 },
	{ "group 239.1.1.1 local 239.1.1.2", "is not a unicast address", 1 },
	{ "group 239.1.1.1 local 0.0.0.0", "is not a unicast address", 1 },
	{ "group 239.1.1.1 local 2001:db8::2", "local is an IPv6 address, the group IPv4", 1 },
	{ "group ff3e::1 local fe80::2", "a link-local address needs its netdev", 1 },
	{ "group ff3e::1 local fe80::2%no-such-netdev", "no such netdev for its %scope", 1 },
	{ "group 239.1.1.1 dev eth0 type both", "bad type 'both': full or send-only", 1 },
	{ "group 232.1.1.1 dev eth0 source 192.0.2.1 type send-only",
	  "sources need a full member, not type send-only", 1 },
	{ "group 232.1.1.1 dev eth0 type sendonly source 192.0.2.1",
	  "sources need a full member", 1 },
	{ "group 232.1.1.1 dev eth0 source 2001:db8::1",
	  "source 2001:db8::1 is not an IPv4 address", 1 },
	{ "group ff3e::1 dev eth0 source 192.0.2.1", "source 192.0.2.1 is not an IPv6 address", 1 },
	{ "group 232.1.1.1 dev eth0 source 239.0.0.1",
	  "source 239.0.0.1 is a multicast address", 1 },
	{ "group 232.1.1.1 dev eth0 source 0.0.0.0", "bad source address '0.0.0.0'", 1 },
	{ "group 232.1.1.1 dev eth0 source 192.0.2.x", "bad source address '192.0.2.x'", 1 },
	{ "group 232.1.1.1 dev eth0 source 192.0.2.1,192.0.2.1",
	  "source 192.0.2.1 given twice", 1 },
	{ "group 232.1.1.1 dev eth0 source 192.0.2.1 source 192.0.2.1", "given twice", 1 },
	{ "group ff3e::1 dev eth0 source 2001:db8::1,2001:DB8:0::1", "given twice", 1 },
	{ "group 232.1.1.1 dev eth0 source 192.0.2.1,,192.0.2.2", "bad source list", 1 },
	{ "group 232.1.1.1 dev eth0 source 192.0.2.1,", "bad source list", 1 },
	{ "group 232.1.1.1 dev eth0 source ,192.0.2.1", "bad source list", 1 },
	{ many_sources, "more than 64 sources", 1 },
	{ long_line, "line longer than 4096 characters", 1 },
	/* the line that is wrong, among comments and blank lines */
	{ "# head\n\ngroup 239.1.1.1 dev eth0\n  # more\ngroup 239.1.1.2 dev eth0 bogus 1\n",
	  "unknown keyword 'bogus'", 5 },
	{ "group 239.1.1.1 dev eth0\ngroup 239.1.1.1 dev eth0\n",
	  "group 239.1.1.1 dev eth0 is already at t.conf:1", 2 },
	/* the same key written otherwise: one group on one netdev */
	{ "group ff3e::1 dev eth0\ngroup FF3E:0:0::1 dev eth0 type send-only\n",
	  "group ff3e::1 dev eth0 is already at t.conf:1", 2 },
	{ "group 239.1.1.1 local 192.0.2.2\n\ngroup 239.1.1.1 local 192.0.2.2 source 192.0.2.1\n",
	  "group 239.1.1.1 local 192.0.2.2 is already at t.conf:1", 3 },
};

static void build_lines(void)
{
	size_t at;
	int i;

	memset(long_line, ' ', sizeof(long_line) - 1);
	memcpy(long_line, "group 239.1.1.1 dev eth0", 24);
	at = (size_t)sprintf(many_sources, "group 232.1.1.1 dev eth0 source ");
	for (i = 0; i < 65; i++)
		at += (size_t)sprintf(many_sources + at, "%s10.0.%d.%d",
				      i ? "," : "", i / 200, i % 200 + 1);
	at = (size_t)sprintf(max_sources, "group 232.1.1.1 dev eth0 source ");
	for (i = 0; i < RDMA_MCM_MAX_SOURCES; i++)
		at += (size_t)sprintf(max_sources + at, "%s10.0.%d.%d",
				      i ? "," : "", i / 200, i % 200 + 1);
}

static void test_bad_lines(void)
{
	char want[64];
	struct grp_conf c;
	struct errs e;
	size_t i;
	int ret;

	for (i = 0; i < sizeof(bads) / sizeof(bads[0]); i++) {
		ret = parse(&c, &e, bads[i].text);
		snprintf(want, sizeof(want), "t.conf:%u: ", bads[i].line);
		if (!ret || e.n != 1 || strncmp(e.text[0], want, strlen(want)) ||
		    !strstr(e.text[0], bads[i].err) ||
		    strcmp(c.first_error, e.text[0])) {
			printf("#   '%.60s': %u errors, first '%s', wanted '%s%s'\n",
			       bads[i].text, e.n, e.n ? e.text[0] : "",
			       want, bads[i].err);
			CHECK(0);
		}
		grp_conf_free(&c);
	}
}

/* 64 sources are fine; every error of a file is told, not only the first */
static void test_limits_and_counts(void)
{
	struct grp_conf c;
	struct errs e;

	CHECK(!parse(&c, &e, max_sources));
	CHECK(c.n == 1 && c.v[0].nr_src == RDMA_MCM_MAX_SOURCES);
	grp_conf_free(&c);
	CHECK(parse(&c, &e, "bogus\ngroup 239.1.1.1 dev eth0\ngroup 1.1.1.1 dev x\n"
		       "group 239.1.1.2\n") == -1);
	CHECK(e.n == 3 && c.errors == 3);
	CHECK(strstr(e.text[0], "t.conf:1: ") == e.text[0]);
	CHECK(strstr(e.text[1], "t.conf:3: ") == e.text[1]);
	CHECK(strstr(e.text[2], "t.conf:4: ") == e.text[2]);
	CHECK(!strcmp(c.first_error, e.text[0]));
	/* the good line is read all the same; the caller refuses the whole */
	CHECK(c.n == 1);
	grp_conf_free(&c);
	/* nothing at all is a configuration: no membership */
	CHECK(!parse(&c, &e, "") && !c.n && !e.n);
	grp_conf_free(&c);
	CHECK(!parse(&c, &e, "# only comments\n\n\t\n") && !c.n && !e.n);
	grp_conf_free(&c);
}

/* Keys: a group on another netdev or address, or as v4 and v6, is another */
static void test_keys(void)
{
	struct grp_conf c;
	struct errs e;

	CHECK(!parse(&c, &e,
		     "group 239.1.1.1 dev eth0\n"
		     "group 239.1.1.1 dev eth1\n"
		     "group 239.1.1.1 local 192.0.2.2\n"
		     "group 239.1.1.1 local 192.0.2.3\n"
		     "group ff3e::1 dev eth0\n"
		     "group ff3e::1 local fe80::1%lo\n"
		     "group ff3e::1 local 2001:db8::1\n"));
	CHECK(c.n == 7 && !e.n);
	grp_conf_free(&c);
}

/* --- a directory ----------------------------------------------------------------- */

static void write_file(const char *dir, const char *name, const char *text)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	CHECK(f);
	if (!f)
		return;
	fputs(text, f);
	fclose(f);
}

static void test_directory(void)
{
	char dir[] = "/tmp/test_groups.XXXXXX", path[200], want[700];
	struct grp_conf c;
	struct errs e;

	CHECK(mkdtemp(dir));
	write_file(dir, "20-b.conf", "group 239.2.0.1 dev eth0\n");
	write_file(dir, "10-a.conf", "group 239.1.0.1 dev eth0\n\ngroup 239.1.0.2 dev eth0\n");
	/* not read: another suffix, a hidden file, a backup */
	write_file(dir, "30-c.txt", "bogus\n");
	write_file(dir, ".40-d.conf", "bogus\n");
	write_file(dir, "50-e.conf~", "bogus\n");
	write_file(dir, ".conf", "bogus\n");
	memset(&e, 0, sizeof(e));
	grp_conf_init(&c, on_err, &e);
	CHECK(!grp_conf_load(&c, dir));
	CHECK(c.n == 3 && !e.n && c.nfiles == 2);
	/* in the order of the names, then of the lines */
	snprintf(path, sizeof(path), "%s/10-a.conf", dir);
	CHECK(c.n == 3 && !strcmp(c.v[0].file, path) && c.v[0].line == 1 &&
	      c.v[1].line == 3 && strstr(c.v[2].file, "/20-b.conf"));
	grp_conf_free(&c);

	/* a duplicate across files names both */
	write_file(dir, "60-f.conf", "# again\ngroup 239.1.0.2 dev eth0 type send-only\n");
	memset(&e, 0, sizeof(e));
	grp_conf_init(&c, on_err, &e);
	CHECK(grp_conf_load(&c, dir) == -1);
	snprintf(want, sizeof(want),
		 "%s/60-f.conf:2: group 239.1.0.2 dev eth0 is already at %s/10-a.conf:3",
		 dir, dir);
	CHECK(e.n == 1 && !strncmp(e.text[0], want, strlen(want)));
	if (e.n)
		printf("#   %s\n", e.text[0]);
	grp_conf_free(&c);
	snprintf(path, sizeof(path), "%s/60-f.conf", dir);
	unlink(path);

	/* a *.conf that is a directory, a NUL byte: the file is named */
	snprintf(path, sizeof(path), "%s/70-g.conf", dir);
	CHECK(!mkdir(path, 0755));
	memset(&e, 0, sizeof(e));
	grp_conf_init(&c, on_err, &e);
	CHECK(grp_conf_load(&c, dir) == -1);
	snprintf(want, sizeof(want), "%s:0: not a regular file", path);
	CHECK(e.n == 1 && strstr(e.text[0], want));
	grp_conf_free(&c);
	rmdir(path);
	snprintf(path, sizeof(path), "%s/80-h.conf", dir);
	{
		FILE *f = fopen(path, "w");

		CHECK(f);
		if (f) {
			fwrite("group 239.1.1.1\0 dev eth0\n", 1, 26, f);
			fclose(f);
		}
	}
	memset(&e, 0, sizeof(e));
	grp_conf_init(&c, on_err, &e);
	CHECK(grp_conf_load(&c, dir) == -1);
	CHECK(e.n == 1 && strstr(e.text[0], "a NUL byte"));
	grp_conf_free(&c);
	unlink(path);

	/* no directory: said, with its name */
	snprintf(path, sizeof(path), "%s/none", dir);
	memset(&e, 0, sizeof(e));
	grp_conf_init(&c, on_err, &e);
	CHECK(grp_conf_load(&c, path) == -1);
	snprintf(want, sizeof(want), "%s:0: No such file or directory", path);
	CHECK(e.n == 1 && !strcmp(e.text[0], want));
	grp_conf_free(&c);

	snprintf(path, sizeof(path), "rm -rf '%s'", dir);
	CHECK(!system(path));
}

/* --- reload plans ------------------------------------------------------------------ */

struct changes {
	unsigned int n[4];
	char log[2048];
	size_t at;
};

static void record(void *arg, enum grp_change what, size_t o, size_t n)
{
	struct changes *ch = arg;

	ch->n[what]++;
	if (ch->at < sizeof(ch->log))
		ch->at += (size_t)snprintf(ch->log + ch->at,
					   sizeof(ch->log) - ch->at, "%s%s:%zd:%zd",
					   ch->at ? " " : "", grp_change_name(what),
					   o == SIZE_MAX ? (ssize_t)-1 : (ssize_t)o,
					   n == SIZE_MAX ? (ssize_t)-1 : (ssize_t)n);
}

/*
 * The changes from configuration @a to @b, as "what:old:new ...", old and
 * new the indexes in each sorted by key (-1: none)
 */
static void plan(const char *a, const char *b, struct changes *ch)
{
	const struct grp_entry **va, **vb;
	struct grp_conf ca, cb;
	struct errs e;
	size_t i;

	memset(ch, 0, sizeof(*ch));
	CHECK(!parse(&ca, &e, a));
	CHECK(!parse(&cb, &e, b));
	va = malloc((ca.n + 1) * sizeof(*va));
	vb = malloc((cb.n + 1) * sizeof(*vb));
	for (i = 0; i < ca.n; i++)
		va[i] = &ca.v[i];
	for (i = 0; i < cb.n; i++)
		vb[i] = &cb.v[i];
	grp_sort(va, ca.n);
	grp_sort(vb, cb.n);
	grp_diff(va, ca.n, vb, cb.n, record, ch);
	free(va);
	free(vb);
	grp_conf_free(&ca);
	grp_conf_free(&cb);
}

struct plan_case {
	const char *name, *a, *b, *want;
};

static const struct plan_case plans[] = {
	{ "the same", "group 239.1.1.1 dev eth0\n", "group 239.1.1.1 dev eth0\n",
	  "keep:0:0" },
	{ "the same, moved to another line, written otherwise",
	  "group 239.1.1.1 dev eth0 type full\n",
	  "# now here\n\ntype full   dev eth0 group 239.1.1.1 # same\n", "keep:0:0" },
	{ "sources in another order", "group 232.1.1.1 dev eth0 source 10.0.0.1,10.0.0.2\n",
	  "group 232.1.1.1 dev eth0 source 10.0.0.2 source 10.0.0.1\n", "keep:0:0" },
	{ "one added", "group 239.1.1.1 dev eth0\n",
	  "group 239.1.1.1 dev eth0\ngroup 239.1.1.2 dev eth0\n", "keep:0:0 join:-1:1" },
	{ "one removed", "group 239.1.1.1 dev eth0\ngroup 239.1.1.2 dev eth0\n",
	  "group 239.1.1.2 dev eth0\n", "leave:0:-1 keep:1:0" },
	{ "type changed", "group 239.1.1.1 dev eth0\n",
	  "group 239.1.1.1 dev eth0 type send-only\n", "replace:0:0" },
	{ "a source added", "group 232.1.1.1 dev eth0 source 10.0.0.1\n",
	  "group 232.1.1.1 dev eth0 source 10.0.0.1,10.0.0.2\n", "replace:0:0" },
	{ "sources dropped: any source", "group 232.1.1.1 dev eth0 source 10.0.0.1\n",
	  "group 232.1.1.1 dev eth0\n", "replace:0:0" },
	{ "another netdev is another membership", "group 239.1.1.1 dev eth0\n",
	  "group 239.1.1.1 dev eth1\n", "leave:0:-1 join:-1:0" },
	{ "dev and local are other keys", "group 239.1.1.1 dev eth0\n",
	  "group 239.1.1.1 local 10.0.0.1\n", "leave:0:-1 join:-1:0" },
	{ "from nothing", "", "group 239.1.1.2 dev eth0\ngroup 239.1.1.1 dev eth0\n",
	  "join:-1:0 join:-1:1" },
	{ "to nothing", "group 239.1.1.1 dev eth0\ngroup ff3e::1 dev eth0\n", "",
	  "leave:0:-1 leave:1:-1" },
	{ "IPv4 and IPv6 of one netdev",
	  "group 239.1.1.1 dev eth0\ngroup ff3e::1 dev eth0\ngroup ff3e::2 dev eth0\n",
	  "group ff3e::2 dev eth0 type send-only\ngroup 239.1.1.1 dev eth0\n",
	  "keep:0:0 leave:1:-1 replace:2:1" },
};

static void test_plans(void)
{
	struct changes ch;
	size_t i;

	for (i = 0; i < sizeof(plans) / sizeof(plans[0]); i++) {
		plan(plans[i].a, plans[i].b, &ch);
		if (strcmp(ch.log, plans[i].want))
			printf("#   %s: '%s', wanted '%s'\n", plans[i].name,
			       ch.log, plans[i].want);
		CHECK(!strcmp(ch.log, plans[i].want));
	}
}

/*
 * 20,000 memberships, every tenth changed in some way: the plan is one
 * walk (a comparison of every pair would take minutes), and counts what
 * changed exactly
 */
static void test_large_plan(void)
{
	size_t at = 0, bt = 0, cap = 20000 * 80;
	char *a = malloc(cap), *b = malloc(cap);
	struct timespec t0, t1;
	struct changes ch;
	int i;

	CHECK(a && b);
	if (!a || !b)
		goto out;
	for (i = 0; i < 20000; i++) {
		at += (size_t)snprintf(a + at, cap - at, "group 239.%d.%d.%d dev eth%d\n",
				       i / 62500, i / 250 % 250, i % 250 + 1, i % 4);
		switch (i % 10) {
		case 1:		/* left */
			break;
		case 2:		/* replaced */
			bt += (size_t)snprintf(b + bt, cap - bt,
					       "group 239.%d.%d.%d dev eth%d type send-only\n",
					       i / 62500, i / 250 % 250, i % 250 + 1, i % 4);
			break;
		case 3:		/* kept, and one more joined */
			bt += (size_t)snprintf(b + bt, cap - bt,
					       "group 238.%d.%d.%d dev eth%d\n",
					       i / 62500, i / 250 % 250, i % 250 + 1, i % 4);
			bt += (size_t)snprintf(b + bt, cap - bt, "group 239.%d.%d.%d dev eth%d\n",
					       i / 62500, i / 250 % 250, i % 250 + 1, i % 4);
			break;
		default:	/* kept */
			bt += (size_t)snprintf(b + bt, cap - bt, "group 239.%d.%d.%d dev eth%d\n",
					       i / 62500, i / 250 % 250, i % 250 + 1, i % 4);
			break;
		}
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	plan(a, b, &ch);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	CHECK(ch.n[GRP_LEAVE] == 2000 && ch.n[GRP_REPLACE] == 2000 &&
	      ch.n[GRP_JOIN] == 2000 && ch.n[GRP_KEEP] == 16000);
	printf("#   20,000 memberships: parsed twice and planned in %.2f s\n",
	       (double)(t1.tv_sec - t0.tv_sec) +
	       (double)(t1.tv_nsec - t0.tv_nsec) / 1e9);
out:
	free(a);
	free(b);
}

/* --- the querier watchdog (watch.c), on times the test gives ------------------- */

static struct mcm_query query(int family, int version, const char *src,
			      uint32_t qqi_s, uint8_t qrv, uint32_t mrt_ms)
{
	struct mcm_query q = { .family = family, .version = version,
			       .qqi_s = qqi_s, .qrv = qrv,
			       .max_resp_ms = mrt_ms };

	inet_pton(family, src, q.src);
	return q;
}

/* One sync: @dev watched for @family (NULL: nothing) */
static void want(struct grp_watch *w, const char *dev, int family, int64_t now)
{
	grp_watch_begin(w);
	if (dev)
		grp_watch_want(w, dev, family, now);
	grp_watch_end(w);
}

static void test_watch_silence(void)
{
	struct grp_watch *w = grp_watch_new(0, NULL, 1);
	struct grp_watch_stats st;
	struct mcm_query q;
	char status[200];

	CHECK(w);
	if (!w)
		return;
	want(w, "eth0", AF_INET, 1000);
	grp_watch_stats(w, "eth0", AF_INET, &st);
	/* RFC 3376's defaults until a querier says other: 2 x 125 + 10 / 2 s */
	CHECK(st.listening == 1 && st.interval_ms == 255000);
	CHECK(grp_watch_timeout_ms(w, 1000) == 255000);
	/* a sync later does not restart the wait */
	want(w, "eth0", AF_INET, 200000);
	CHECK(grp_watch_timeout_ms(w, 200000) == 56000);
	grp_watch_tick(w, 255999);
	grp_watch_stats(w, "eth0", AF_INET, &st);
	CHECK(!st.silent && !st.silences);
	grp_watch_status(w, status, sizeof(status));
	CHECK(!strcmp(status, ""));
	grp_watch_tick(w, 256000);
	grp_watch_stats(w, "eth0", AF_INET, &st);
	CHECK(st.silent && st.silences == 1);
	grp_watch_status(w, status, sizeof(status));
	CHECK(!strcmp(status, "; no querier: IGMP on eth0"));
	/* silent: no timer until a query comes, and counted once */
	CHECK(grp_watch_timeout_ms(w, 300000) == -1);
	grp_watch_tick(w, 900000);
	grp_watch_stats(w, "eth0", AF_INET, &st);
	CHECK(st.silences == 1);

	/* an IGMPv3 query: its robustness and interval make the timeout */
	q = query(AF_INET, 3, "192.0.2.1", 10, 3, 2000);
	CHECK(!grp_watch_heard(w, "eth0", &q, 1000000));
	grp_watch_stats(w, "eth0", AF_INET, &st);
	CHECK(!st.silent && st.queries == 1 && st.interval_ms == 31000);
	grp_watch_status(w, status, sizeof(status));
	CHECK(!strcmp(status, ""));
	CHECK(grp_watch_timeout_ms(w, 1000000) == 31000);
	/* robustness 0 counts as the default 2 */
	q = query(AF_INET, 3, "192.0.2.1", 10, 0, 0);
	grp_watch_heard(w, "eth0", &q, 1000000);
	grp_watch_stats(w, "eth0", AF_INET, &st);
	CHECK(st.interval_ms == 20000);
	/* IGMPv2 says no interval: the defaults again */
	q = query(AF_INET, 2, "192.0.2.1", 0, 0, 10000);
	grp_watch_heard(w, "eth0", &q, 1000000);
	grp_watch_stats(w, "eth0", AF_INET, &st);
	CHECK(st.interval_ms == 255000 && st.queries == 3);
	grp_watch_tick(w, 1254999);
	grp_watch_stats(w, "eth0", AF_INET, &st);
	CHECK(!st.silent);
	grp_watch_tick(w, 1255000);
	grp_watch_stats(w, "eth0", AF_INET, &st);
	CHECK(st.silent && st.silences == 2);
	grp_watch_free(w);
}

static void test_watch_ignored_and_places(void)
{
	struct grp_watch *w = grp_watch_new(5, NULL, 1);
	struct grp_watch_stats st;
	struct mcm_query q;
	char status[200];

	CHECK(w);
	if (!w)
		return;
	grp_watch_begin(w);
	grp_watch_want(w, "eth0", AF_INET6, 0);
	grp_watch_want(w, "eth1", AF_INET, 0);
	grp_watch_want(w, "eth1", AF_INET6, 0);
	grp_watch_end(w);
	CHECK(grp_watch_count(w) == 3);
	/* a timeout set: the queries' intervals do not change it */
	q = query(AF_INET6, 2, "fe80::1", 60, 2, 10000);
	CHECK(!grp_watch_heard(w, "eth0", &q, 1000));
	grp_watch_stats(w, "eth0", AF_INET6, &st);
	CHECK(st.interval_ms == 5000 && st.queries == 1);
	/* a query the host ignores refreshes nothing: the silence comes */
	q = query(AF_INET6, 2, "2001:db8::1", 60, 2, 10000);
	q.ignored = "its source is not link-local";
	CHECK(!grp_watch_heard(w, "eth0", &q, 3000));
	grp_watch_stats(w, "eth0", AF_INET6, &st);
	CHECK(st.ignored == 1 && st.queries == 1);
	grp_watch_tick(w, 5999);
	grp_watch_stats(w, "eth0", AF_INET6, &st);
	CHECK(!st.silent);
	grp_watch_tick(w, 6000);
	grp_watch_stats(w, "eth0", AF_INET6, &st);
	CHECK(st.silent && st.silences == 1);
	grp_watch_status(w, status, sizeof(status));
	/* eth1's both, which heard nothing since 0, and eth0's MLD */
	CHECK(strstr(status, "; no querier: ") == status &&
	      strstr(status, "MLD on eth0") && strstr(status, "IGMP on eth1") &&
	      strstr(status, "MLD on eth1"));
	/* a query on a netdev not watched, or of the other family */
	q = query(AF_INET, 3, "192.0.2.1", 10, 2, 1000);
	CHECK(grp_watch_heard(w, "eth9", &q, 7000) == -1);
	CHECK(grp_watch_heard(w, "eth0", &q, 7000) == -1);
	/* the full members on eth1 are gone: eth1 is no longer watched */
	want(w, "eth0", AF_INET6, 8000);
	CHECK(grp_watch_count(w) == 1);
	grp_watch_stats(w, "eth1", AF_INET, &st);
	CHECK(st.listening == -1);
	grp_watch_status(w, status, sizeof(status));
	CHECK(!strcmp(status, "; no querier: MLD on eth0"));
	want(w, NULL, 0, 9000);
	CHECK(grp_watch_count(w) == 0 && grp_watch_timeout_ms(w, 9000) == -1);
	grp_watch_free(w);
}

/* Lines of stderr that contain @what, while @fn runs (the log is stderr) */
static unsigned int logged(void (*fn)(struct grp_watch *), struct grp_watch *w,
			   const char *what)
{
	char path[] = "/tmp/grp-log-XXXXXX", line[1024];
	unsigned int n = 0;
	int fd = mkstemp(path), saved = dup(2);
	FILE *f;

	if (fd < 0 || saved < 0)
		return 0;
	fflush(stderr);
	dup2(fd, 2);
	fn(w);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	f = fdopen(fd, "r");
	if (f) {
		rewind(f);
		while (fgets(line, sizeof(line), f))
			n += !!strstr(line, what);
		fclose(f);
	}
	unlink(path);
	return n;
}

/* Ignored queries from a misconfigured router among a querier's */
static void ignored_among_good(struct grp_watch *w)
{
	struct mcm_query good = query(AF_INET6, 2, "fe80::1", 60, 2, 10000);
	struct mcm_query bad = query(AF_INET6, 2, "2001:db8::9", 60, 2, 10000);
	struct mcm_query other = query(AF_INET6, 2, "fe80::2", 60, 2, 10000);
	int64_t t;

	bad.ignored = "its source is not link-local";
	for (t = 0; t < 10 * 60000; t += 60000) {
		grp_watch_heard(w, "eth0", &good, t);
		grp_watch_heard(w, "eth0", &bad, t + 1);
		/* and a second querier, every other minute */
		if (t % 120000)
			grp_watch_heard(w, "eth0", &other, t + 2);
	}
}

static void test_watch_log_once(void)
{
	struct grp_watch *w = grp_watch_new(0, NULL, 1);
	struct grp_watch_stats st;
	struct mcm_query q;
	unsigned int n;

	CHECK(w);
	if (!w)
		return;
	want(w, "eth0", AF_INET6, 0);
	CHECK(logged(ignored_among_good, w, "ignored, as the host ignores it") == 1);
	grp_watch_stats(w, "eth0", AF_INET6, &st);
	CHECK(st.ignored == 10 && st.queries == 15 && !st.silent);
	/* two queriers that alternate for 10 min: at most once an interval (125 s) */
	want(w, NULL, 0, 0);
	want(w, "eth0", AF_INET6, 0);
	n = logged(ignored_among_good, w, "MLD querier ");
	CHECK(n >= 2 && n <= 5);
	/*
	 * a group-specific query's response time (the Last Member Query
	 * Interval) is not the general queries' one
	 */
	q = query(AF_INET6, 2, "fe80::1", 60, 2, 10000);
	grp_watch_heard(w, "eth0", &q, 700000);
	grp_watch_stats(w, "eth0", AF_INET6, &st);
	CHECK(st.interval_ms == 125000);
	q.max_resp_ms = 1000;
	inet_pton(AF_INET6, "ff3e::1", q.group);
	grp_watch_heard(w, "eth0", &q, 701000);
	grp_watch_stats(w, "eth0", AF_INET6, &st);
	CHECK(st.interval_ms == 125000);
	CHECK(grp_watch_timeout_ms(w, 701000) == 125000);
	grp_watch_free(w);
}

/* The netdev's type, which keeps IPoIB out of the watch */
static void test_netdev_type(void)
{
	CHECK(grp_netdev_type("lo") == 772);	/* ARPHRD_LOOPBACK */
	CHECK(grp_netdev_type("no-such-netdev") == -1);
}

/* The state file: one JSON line per netdev and family, and gone at the end */
static void test_watch_state_file(void)
{
	char dir[] = "/tmp/grp-watch-XXXXXX", path[64], buf[4096];
	struct grp_watch *w;
	struct mcm_query q;
	struct stat sb;
	size_t n;
	FILE *f;

	CHECK(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/queriers.json", dir);
	w = grp_watch_new(0, path, 1);
	CHECK(w);
	if (!w)
		return;
	want(w, "eth0", AF_INET, 0);
	q = query(AF_INET, 3, "192.0.2.7", 60, 2, 10000);
	grp_watch_heard(w, "eth0", &q, 1000);
	grp_watch_tick(w, 1000 + 125000);
	grp_watch_flush(w);
	f = fopen(path, "r");
	CHECK(f);
	n = f ? fread(buf, 1, sizeof(buf) - 1, f) : 0;
	buf[n] = '\0';
	if (f)
		fclose(f);
	CHECK(strstr(buf, "\"dev\":\"eth0\"") && strstr(buf, "\"protocol\":\"igmp\""));
	CHECK(strstr(buf, "\"querier\":\"192.0.2.7\"") &&
	      strstr(buf, "\"version\":\"igmpv3\""));
	CHECK(strstr(buf, "\"silent\":true") && strstr(buf, "\"silences\":1") &&
	      strstr(buf, "\"timeout_ms\":125000") && strstr(buf, "\"qqi_s\":60"));
	CHECK(strchr(buf, '\n') == buf + n - 1);
	grp_watch_free(w);
	CHECK(stat(path, &sb) && errno == ENOENT);
	rmdir(dir);
}

int main(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	build_lines();
	h_run("groups.conf: good lines, as the service reads them", test_good_lines);
	h_run("groups.conf: an entry's fields", test_entry_fields);
	h_run("groups.conf: each bad line refused with FILE:LINE and why", test_bad_lines);
	h_run("groups.conf: 64 sources; every error told", test_limits_and_counts);
	h_run("groups.conf: a group on other netdevs, addresses, families", test_keys);
	h_run("groups.d: files by name, *.conf only, duplicates across files",
	      test_directory);
	h_run("reload plan: kept, left, joined, replaced", test_plans);
	h_run("reload plan: 20,000 memberships, one walk", test_large_plan);
	h_run("querier watchdog: a silence at the RFCs' interval, once; the query's own",
	      test_watch_silence);
	h_run("querier watchdog: a timeout set, ignored queries, the places followed",
	      test_watch_ignored_and_places);
	h_run("querier watchdog: the state file", test_watch_state_file);
	h_run("querier watchdog: ignored queries and new queriers logged once; group-specific ones",
	      test_watch_log_once);
	h_run("querier watchdog: a netdev's type (IPoIB is not watched)", test_netdev_type);
	return h_finish();
}
