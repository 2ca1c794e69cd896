/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * rdma-mcm: command line tool for /dev/rdma_mcm (see rdma-mcm(8)).
 */
#ifndef RDMA_MCM_CLI_H
#define RDMA_MCM_CLI_H

#include <stdint.h>
#include <stdio.h>
#include <sys/socket.h>

#include "librdmamcm.h"

#define EXIT_USAGE	2
/*
 * check's exit statuses, a monitoring plugin's: all good, warnings,
 * problems, and no check made (a usage error too)
 */
#define CHECK_OK	0
#define CHECK_WARNING	1
#define CHECK_PROBLEM	2
#define CHECK_UNKNOWN	3
/* The longest session command line; a longer one is refused whole */
#define CLI_LINE_MAX	(1 << 20)

struct ibv_context;

/*
 * The --source addresses of a command: every group of it is joined
 * source-specific with all of them (rdma_mcm_join_source())
 */
struct cli_sources {
	struct sockaddr_storage addr[RDMA_MCM_MAX_SOURCES];
	const struct sockaddr *ptr[RDMA_MCM_MAX_SOURCES];
	unsigned int n;
};

/* One source address a recv's datagrams came from (from.c) */
struct cli_from_src {
	uint8_t addr[16];		/* IPv6, or IPv4 as ::ffff:a.b.c.d */
	unsigned long datagrams;
};

/*
 * Where a recv's datagrams came from, as their GRHs say: a count per
 * source address, in the order they were first seen; @unknown counts
 * those without a GRH the tool can read, and those from more distinct
 * sources than it keeps (CLI_FROM_MAX)
 */
struct cli_from {
	struct cli_from_src *v;
	size_t n, cap;
	size_t last;			/* the entry the last datagram hit */
	unsigned long unknown;
};

#define CLI_FROM_MAX	1024

/* A group as the user named it and as it is joined */
struct cli_member {
	int used;
	int join_flags;
	uint32_t handle;
	struct sockaddr_storage addr;
	char name[80];
};

struct cli {
	int json;			/* -j (or -p) */
	int pretty;			/* -p: JSON indented */
	const char *bind;		/* -b ADDR, or NULL */
	int timeout_s;			/* -t SECONDS */
	int no_heal;			/* --no-heal */
	struct rdma_mcm_channel *ch;
	int have_ctx;
	uint32_t ctx_id;
	uint32_t ctx_flags;		/* RDMA_MCM_CTX_* the context has */
	struct sockaddr_storage src;	/* -b's address, or the route's group */
	struct cli_member *mem;		/* cookie = index + 1 */
	size_t nmem;
	unsigned long events;		/* events read */
};

/* The event types the CLI handles: all it knows */
#define CLI_EVENTS	(RDMA_MCM_EVENTS_DEFAULT | \
			 RDMA_MCM_EVENT_BIT(RDMA_MCM_EVENT_DEVICE_REMOVED) | \
			 RDMA_MCM_EVENT_BIT(RDMA_MCM_EVENT_REJOINING) | \
			 RDMA_MCM_EVENT_BIT(RDMA_MCM_EVENT_REJOINED) | \
			 RDMA_MCM_EVENT_BIT(RDMA_MCM_EVENT_DEVICE_ADDED))

/* The session's standard input */
struct cli_input {
	char *buf;
	size_t len;
	size_t cap;
	int eof;
	int skipping;			/* the rest of a refused line */
	unsigned long line;		/* lines seen */
};

/* Runs one command line; returns 1 to quit */
typedef int (*cli_line_fn)(struct cli *cli, char *line);

/* main.c */
extern int cli_json;			/* -j: errors as JSON too */
/* The module's directory in sysfs (a test may point it elsewhere) */
extern const char *cli_sys_module;
/* Where the processes' cgroups are read (/proc; "": not read) */
extern const char *cli_proc_root;
void cli_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void cli_usage(FILE *f);
/* -j (@pretty 0) or -p (1), wherever it stands */
void cli_set_json(struct cli *cli, int pretty);
int cli_parse_uint(const char *s, unsigned long max, unsigned long *out);
int cli_signal_fd(void);
/*
 * The word of @names (NULL-terminated) that @word names: itself or, as
 * iproute2 matches them, the one it is a prefix of; NULL when none is or
 * several are (*@ambiguous set), or @word is empty
 */
const char *cli_match(const char *word, const char *const *names,
		      int *ambiguous);
/* "unknown WHAT 'WORD'", or "ambiguous WHAT 'WORD' (the names it fits)" */
void cli_bad_word(const char *what, const char *word,
		  const char *const *names, int ambiguous);
/* Whether the module is loaded: /sys/module/rdma_mcm, or the device opens */
int cli_module_loaded(void);

/* json.c: the JSON writer of every command (-j, -p) */
extern int cli_pretty;			/* -p: JSON indented */

/* A JSON object under construction, printed by rec_end() */
struct rec {
	char *text;
	size_t len;
	FILE *f;
	int first;			/* no key yet in the innermost object */
};

void json_str(FILE *f, const char *s);
/* The well-formed UTF-8 sequence at @p: its length, or 0 (*@skip bytes) */
size_t utf8_seq(const unsigned char *p, size_t *skip);
void rec_begin(struct rec *r);
void rec_key(struct rec *r, const char *k);
void rec_u64(struct rec *r, const char *k, uint64_t v);
void rec_int(struct rec *r, const char *k, long long v);
void rec_ms(struct rec *r, const char *k, double v);
void rec_str(struct rec *r, const char *k, const char *v);
void rec_str_or_null(struct rec *r, const char *k, const char *v);
void rec_bool(struct rec *r, const char *k, int v);
void rec_null(struct rec *r, const char *k);
void rec_open(struct rec *r, const char *k, char bracket);
void rec_close(struct rec *r, char bracket);
void rec_item(struct rec *r, const char *v);
void rec_end(struct rec *r);
void rec_end_to(struct rec *r, FILE *f);
/* A text record: as it is, or with -j {"KEY":"TEXT"} */
void out_text(int json, FILE *f, const char *key, const char *text);

/* input.c */
int cli_input_read(struct cli *cli, struct cli_input *in, int fd,
		   cli_line_fn fn);
void cli_input_free(struct cli_input *in);
int cli_split(char *line, char ***words);

/* output.c */
void addr_name(const struct sockaddr *sa, char *buf, size_t len);
void gid_name(const uint8_t *gid, char *buf, size_t len);
const char *errno_name(int err);
void status_text(int32_t status, char *buf, size_t len);
/* "K":S and, when negative, "ERRK":"ENAME" (or null) [, "TEXTK":"text"] */
void rec_status(struct rec *r, const char *k, const char *errk,
		const char *textk, int32_t status);
/* @s as text, bytes not printable ASCII (nor a space) as \ooo */
void print_escaped(FILE *f, const char *s, int space);
/* A name any process or driver chose, as text: \ooo for unsafe bytes */
void print_name(const char *name);
/* A join type: "full", "send-only", or "unknown" for a later one */
const char *join_type_name(uint32_t type);
void out_event(struct cli *cli, const struct rdma_mcm_event *ev,
	       const char *group);
void out_left(struct cli *cli, const char *group, uint32_t handle,
	      uint32_t events);
void out_member(struct cli *cli, const struct rdma_mcm_member *mb);
void out_stats(struct cli *cli, const unsigned int counts[4],
	       unsigned int total);
void out_count(struct cli *cli, const char *what, const char *group,
	       unsigned long count, unsigned long want,
	       const struct cli_from *from);

/* source.c */
int cli_ensure_ctx(struct cli *cli, const struct sockaddr *group);
struct ibv_context *cli_open_dev(struct cli *cli);

/* from.c: the GRH of a receive (its first 40 bytes), if it has one */
void from_add(struct cli_from *f, const uint8_t *grh, int has_grh);
void from_free(struct cli_from *f);
/* The text of source @i, as inet_ntop() writes an IPv4 or IPv6 one */
void from_name(const struct cli_from *f, size_t i, char *buf, size_t len);

/* session.c */
int cli_open(struct cli *cli, int flags);
struct cli_member *cli_member_new(struct cli *cli, const char *text,
				  int join_flags);
void cli_member_free(struct cli *cli, struct cli_member *m);
/* --source @text: 0, or -1 (reported) */
int cli_source_add(struct cli_sources *s, const char *text);
/* The sources for @m's join: the group's family, a full member; 0 or -1 */
int cli_sources_check(const struct cli_member *m,
		      const struct cli_sources *s);
/* A failed join of @name (@family) with @nr sources: errno @err, plainly */
void cli_join_failed(struct cli *cli, const char *name, int family, int err,
		     unsigned int nr);
int cli_join(struct cli *cli, struct cli_member *m,
	     const struct cli_sources *s);
int cli_leave(struct cli *cli, struct cli_member *m);
void cli_leave_all(struct cli *cli);
int cli_list(struct cli *cli);
int cli_stats(struct cli *cli);
int cmd_join(struct cli *cli, int argc, char **argv);
int cmd_list(struct cli *cli, int argc, char **argv);
/* @text as a group: parsed, and a multicast address; 0 or -1 (reported) */
int cli_parse_group(const char *text, struct sockaddr_storage *ss);

/* nl.c: the host's view through netlink */
/* The family "rdma_mcm": 0, or 1 with the reason said (an error line) */
int cli_nl_open(struct rdma_mcm_nl **nl);
/* "; the kernel says: ..." of the handle's last failed request, or "" */
const char *cli_nl_why(struct rdma_mcm_nl *nl);
int cmd_show(struct cli *cli, int argc, char **argv);
/* The session's show: the netlink view of this process's memberships */
int cli_show_own(struct cli *cli, int argc, char **argv);
int cmd_ctx(struct cli *cli, int argc, char **argv);
int cmd_nl_stats(struct cli *cli, int argc, char **argv);
int cmd_monitor(struct cli *cli, int argc, char **argv);

/* check.c: what the network sees of the memberships (check.h) */
int cmd_check(struct cli *cli, int argc, char **argv);
/* prom.c: stats as Prometheus text 0.0.4 or OpenMetrics; exit status */
int stats_prometheus(struct rdma_mcm_nl *nl,
		     const struct rdma_mcm_nl_stats *st, int openmetrics);

/* ud.c */
int cmd_send(struct cli *cli, int argc, char **argv);
int cmd_exec(struct cli *cli, int argc, char **argv);
int cmd_recv(struct cli *cli, int argc, char **argv);

#endif /* RDMA_MCM_CLI_H */
