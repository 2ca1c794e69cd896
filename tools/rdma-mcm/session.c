// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * rdma-mcm: join, and the session that keeps the memberships: events on
 * stdout, commands on stdin, until SIGINT, SIGTERM or "quit".
 *
 * Memberships belong to the open /dev/rdma_mcm file, so they live exactly
 * as long as this process: a second rdma-mcm cannot leave or list them.
 * Hence the session reads further commands on stdin (rdma-mcm(8)).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <unistd.h>

#include "rdma_mcm_cli.h"

#define LIST_PAGE	64

/* --- the process's memberships ------------------------------------------ */

struct cli_member *cli_member_new(struct cli *cli, const char *text,
				  int join_flags)
{
	struct cli_member *m = NULL, *mem;
	size_t i;

	for (i = 0; i < cli->nmem && !m; i++)
		if (!cli->mem[i].used)
			m = &cli->mem[i];
	if (!m) {
		mem = realloc(cli->mem, (cli->nmem + 16) * sizeof(*mem));
		if (!mem) {
			cli_err("%s", strerror(ENOMEM));
			return NULL;
		}
		memset(mem + cli->nmem, 0, 16 * sizeof(*mem));
		cli->mem = mem;
		m = &mem[cli->nmem];
		cli->nmem += 16;
	}
	if (cli_parse_group(text, &m->addr))
		return NULL;
	addr_name((struct sockaddr *)&m->addr, m->name, sizeof(m->name));
	m->join_flags = join_flags;
	m->handle = 0;
	m->used = 1;
	return m;
}

/*
 * Only a multicast address is a group: a unicast one is refused here,
 * before anything is asked of the kernel (which refuses it too, with an
 * EINVAL that says less). :: asks the InfiniBand SA for a new group (the
 * joined event tells its MGID); the kernel refuses it on RoCE.
 */
int cli_parse_group(const char *text, struct sockaddr_storage *ss)
{
	const struct sockaddr_in *sin = (const struct sockaddr_in *)ss;
	const struct sockaddr_in6 *sin6 = (const struct sockaddr_in6 *)ss;

	if (rdma_mcm_parse_addr(text, ss)) {
		cli_err("bad group address '%s': %s", text, strerror(errno));
		return -1;
	}
	if ((ss->ss_family == AF_INET &&
	     IN_MULTICAST(ntohl(sin->sin_addr.s_addr))) ||
	    (ss->ss_family == AF_INET6 &&
	     (IN6_IS_ADDR_MULTICAST(&sin6->sin6_addr) ||
	      IN6_IS_ADDR_UNSPECIFIED(&sin6->sin6_addr))))
		return 0;
	cli_err("group address '%s' is not a multicast address (IPv4 224.0.0.0/4, IPv6 ff00::/8; :: for a group the InfiniBand SA assigns)",
		text);
	return -1;
}

void cli_member_free(struct cli *cli, struct cli_member *m)
{
	(void)cli;
	memset(m, 0, sizeof(*m));
}

static struct cli_member *find_group(struct cli *cli, const char *text)
{
	struct sockaddr_storage ss;
	char name[80];
	size_t i;

	if (rdma_mcm_parse_addr(text, &ss))
		return NULL;
	addr_name((struct sockaddr *)&ss, name, sizeof(name));
	for (i = 0; i < cli->nmem; i++)
		if (cli->mem[i].used && cli->mem[i].handle &&
		    !strcmp(cli->mem[i].name, name))
			return &cli->mem[i];
	return NULL;
}

static struct cli_member *by_cookie(struct cli *cli, uint64_t cookie)
{
	if (!cookie || cookie > cli->nmem || !cli->mem[cookie - 1].used)
		return NULL;
	return &cli->mem[cookie - 1];
}

/* --- sources ----------------------------------------------------------- */

int cli_source_add(struct cli_sources *s, const char *text)
{
	struct sockaddr_storage *ss;

	if (!text) {
		cli_err("--source needs an address");
		return -1;
	}
	if (s->n == RDMA_MCM_MAX_SOURCES) {
		cli_err("at most %d --source addresses", RDMA_MCM_MAX_SOURCES);
		return -1;
	}
	ss = &s->addr[s->n];
	if (rdma_mcm_parse_addr(text, ss)) {
		cli_err("bad source address '%s': %s", text, strerror(errno));
		return -1;
	}
	s->ptr[s->n++] = (const struct sockaddr *)ss;
	return 0;
}

int cli_sources_check(const struct cli_member *m, const struct cli_sources *s)
{
	char name[80];
	unsigned int i;

	if (!s || !s->n)
		return 0;
	if (m->join_flags == RDMA_MCM_JOIN_SENDONLY_FULLMEMBER) {
		cli_err("--source needs a full-member join, not --send-only");
		return -1;
	}
	for (i = 0; i < s->n; i++) {
		if (s->addr[i].ss_family == m->addr.ss_family)
			continue;
		addr_name(s->ptr[i], name, sizeof(name));
		cli_err("join %s: source %s is not of the group's family",
			m->name, name);
		return -1;
	}
	return 0;
}

/*
 * With sources, EOPNOTSUPP is a module older than them, or a port that
 * cannot filter (InfiniBand: the features say which); ENOBUFS more
 * sources than the host's IGMPv3 / MLDv2 filters take.
 */
void cli_join_failed(struct cli *cli, const char *name, int family, int err,
		     unsigned int nr)
{
	uint32_t features = 0;

	if (nr && err == EOPNOTSUPP && cli->ch &&
	    !rdma_mcm_get_features(cli->ch, &features) &&
	    !(features & RDMA_MCM_FEATURE_SOURCES))
		cli_err("join %s: the rdma_mcm module is too old for source-specific joins",
			name);
	else if (nr && err == EOPNOTSUPP)
		cli_err("join %s: %s (source-specific joins need RoCE: InfiniBand has no source filter)",
			name, strerror(err));
	else if (nr && err == ENOBUFS)
		cli_err("join %s: %s (%u sources: more than %s allows?)", name,
			strerror(err), nr, family == AF_INET ? "net.ipv4.igmp_max_msf" :
			"net.ipv6.mld_max_msf");
	else
		cli_err("join %s: %s", name, strerror(err));
}

/* Start a join of @m (async), with the sources @s if any; 0 or -1, reported. */
int cli_join(struct cli *cli, struct cli_member *m,
	     const struct cli_sources *s)
{
	uint64_t cookie = (uint64_t)(m - cli->mem) + 1;
	unsigned int nr = s ? s->n : 0;
	int ret;

	if (cli_sources_check(m, s) ||
	    cli_ensure_ctx(cli, (struct sockaddr *)&m->addr))
		return -1;
	if (nr)
		ret = rdma_mcm_join_source(cli->ch, cli->ctx_id,
					   (struct sockaddr *)&m->addr,
					   s->ptr, nr, m->join_flags, cookie,
					   &m->handle);
	else
		ret = rdma_mcm_join(cli->ch, cli->ctx_id,
				    (struct sockaddr *)&m->addr, m->join_flags,
				    cookie, &m->handle);
	if (ret) {
		cli_join_failed(cli, m->name, m->addr.ss_family, errno, nr);
		m->handle = 0;
		return -1;
	}
	return 0;
}

int cli_leave(struct cli *cli, struct cli_member *m)
{
	uint32_t events = 0;

	if (rdma_mcm_leave_ex(cli->ch, cli->ctx_id, m->handle, NULL,
			      &events)) {
		cli_err("leave %s: %s", m->name, strerror(errno));
		return -1;
	}
	out_left(cli, m->name, m->handle, events);
	cli_member_free(cli, m);
	return 0;
}

void cli_leave_all(struct cli *cli)
{
	size_t i;

	for (i = 0; i < cli->nmem; i++)
		if (cli->mem[i].used && cli->mem[i].handle)
			cli_leave(cli, &cli->mem[i]);
}

/* Print every event queued; 0, or -1 on a channel error (reported). */
static int drain_events(struct cli *cli)
{
	struct rdma_mcm_event ev;
	struct cli_member *m;
	char name[32];

	while (!rdma_mcm_get_event(cli->ch, &ev)) {
		cli->events++;
		m = by_cookie(cli, ev.cookie);
		if (!m)
			snprintf(name, sizeof(name), "handle-%u", ev.handle);
		out_event(cli, &ev, m ? m->name : name);
	}
	if (errno == EAGAIN || errno == EINTR)
		return 0;
	cli_err("reading events: %s", strerror(errno));
	return -1;
}

/* Walk the kernel's list of our memberships; @fn sees each. */
static int walk_members(struct cli *cli,
			void (*fn)(struct cli *, const struct rdma_mcm_member *,
				   void *), void *arg)
{
	struct rdma_mcm_member page[LIST_PAGE];
	uint32_t start = 0, next;
	int n, i;

	if (!cli->have_ctx)
		return 0;
	do {
		n = rdma_mcm_list(cli->ch, cli->ctx_id, start, page, LIST_PAGE,
				  &next);
		if (n < 0) {
			cli_err("list: %s", strerror(errno));
			return -1;
		}
		for (i = 0; i < n; i++)
			fn(cli, &page[i], arg);
		start = next;
	} while (next && n);
	return 0;
}

static void print_member(struct cli *cli, const struct rdma_mcm_member *mb,
			 void *arg)
{
	(void)arg;
	out_member(cli, mb);
}

/* counts[state] for the four states, counts[4] all of them */
static void count_member(struct cli *cli, const struct rdma_mcm_member *mb,
			 void *arg)
{
	unsigned int *counts = arg;

	(void)cli;
	if (mb->state <= RDMA_MCM_STATE_WAITING)
		counts[mb->state]++;
	counts[4]++;
}

int cli_list(struct cli *cli)
{
	return walk_members(cli, print_member, NULL);
}

int cli_stats(struct cli *cli)
{
	unsigned int counts[5] = { 0 };

	if (walk_members(cli, count_member, counts))
		return -1;
	out_stats(cli, counts, counts[4]);
	return 0;
}

/* --- commands on stdin ------------------------------------------------- */

/* A session's join line, as help and its usage error say it */
#define SESSION_JOIN	"join GROUP... [--send-only] [--source ADDR]..."

static const char session_help[] =
	"commands: " SESSION_JOIN " | leave GROUP... | list | show [dev DEV]\n"
	"  [group GROUP] [state STATE] [ctx ID] | stats | help | quit\n"
	"(show: the host's view of this process's memberships, through netlink;\n"
	"a command may be shortened to a prefix that names one only)\n";

static const char *const session_commands[] = {
	"join", "leave", "list", "show", "stats", "help", "quit", "exit",
	NULL,
};

/* Whether args[i] is a group: not an option, not the value of --source */
static int is_group(char **args, int i)
{
	return args[i][0] != '-' &&
	       !(i > 0 && !strcmp(args[i - 1], "--source"));
}

/*
 * GROUP... [--send-only] [--source ADDR]..., and on the command line
 * [--no-heal]. 0; -1 for a usage error; -2 for one already reported.
 */
static int parse_join_args(char **args, int n, int *flags, int *no_heal,
			   struct cli_sources *srcs)
{
	int i, groups = 0;

	*flags = RDMA_MCM_JOIN_FULLMEMBER;
	srcs->n = 0;
	for (i = 0; i < n; i++) {
		if (!strcmp(args[i], "--send-only")) {
			*flags = RDMA_MCM_JOIN_SENDONLY_FULLMEMBER;
			continue;
		}
		if (no_heal && !strcmp(args[i], "--no-heal")) {
			*no_heal = 1;
			continue;
		}
		if (!strcmp(args[i], "--source")) {
			if (cli_source_add(srcs, i + 1 < n ? args[i + 1] : NULL))
				return -2;
			i++;
			continue;
		}
		if (args[i][0] == '-')
			return -1;
		groups++;
	}
	if (srcs->n && *flags == RDMA_MCM_JOIN_SENDONLY_FULLMEMBER) {
		cli_err("--source needs a full-member join, not --send-only");
		return -2;
	}
	return groups ? 0 : -1;
}

static void session_join(struct cli *cli, char **args, int n)
{
	struct cli_sources *srcs = malloc(sizeof(*srcs));
	struct sockaddr_storage ss;
	struct cli_member *m;
	int flags, i, ret;

	if (!srcs) {
		cli_err("%s", strerror(ENOMEM));
		return;
	}
	ret = parse_join_args(args, n, &flags, NULL, srcs);
	if (ret == -1)
		cli_err("usage: " SESSION_JOIN);
	/* a line with a group that is none is refused whole */
	for (i = 0; !ret && i < n; i++)
		if (is_group(args, i) && cli_parse_group(args[i], &ss))
			ret = -2;
	for (i = 0; !ret && i < n; i++) {
		if (!is_group(args, i))
			continue;
		m = cli_member_new(cli, args[i], flags);
		if (m && cli_join(cli, m, srcs))
			cli_member_free(cli, m);
	}
	free(srcs);
}

/* A group this session did not join: the kernel has the last word. */
static void leave_unknown(struct cli *cli, const char *text)
{
	struct sockaddr_storage ss;
	char name[80];
	uint32_t events = 0;

	if (rdma_mcm_parse_addr(text, &ss)) {
		cli_err("bad group address '%s': %s", text, strerror(errno));
		return;
	}
	addr_name((struct sockaddr *)&ss, name, sizeof(name));
	errno = EADDRNOTAVAIL;
	if (!cli->have_ctx ||
	    rdma_mcm_leave_ex(cli->ch, cli->ctx_id, 0, (struct sockaddr *)&ss,
			      &events)) {
		cli_err("leave %s: %s", name, strerror(errno));
		return;
	}
	out_left(cli, name, 0, events);
}

static void session_leave(struct cli *cli, char **args, int n)
{
	struct cli_member *m;
	int i;

	if (!n)
		cli_err("usage: leave GROUP...");
	for (i = 0; i < n; i++) {
		m = find_group(cli, args[i]);
		if (m)
			cli_leave(cli, m);
		else
			leave_unknown(cli, args[i]);
	}
}

/* One command line; returns 1 for quit. */
static int session_command(struct cli *cli, char *line)
{
	const char *cmd;
	char **args;
	int n, ambiguous, quit = 0;

	n = cli_split(line, &args);
	if (n < 0) {
		cli_err("%s", strerror(ENOMEM));
		return 0;
	}
	if (!n || args[0][0] == '#')
		goto out;
	cmd = cli_match(args[0], session_commands, &ambiguous);
	if (!cmd && ambiguous)
		cli_bad_word("command", args[0], session_commands, ambiguous);
	else if (!cmd)
		cli_err("unknown command '%.100s'; try help", args[0]);
	else if (!strcmp(cmd, "quit") || !strcmp(cmd, "exit"))
		quit = 1;
	else if (!strcmp(cmd, "join"))
		session_join(cli, args + 1, n - 1);
	else if (!strcmp(cmd, "leave"))
		session_leave(cli, args + 1, n - 1);
	else if (!strcmp(cmd, "list"))
		cli_list(cli);
	else if (!strcmp(cmd, "show"))
		cli_show_own(cli, n, args);
	else if (!strcmp(cmd, "stats"))
		cli_stats(cli);
	else
		out_text(cli->json, stdout, "help", session_help);
out:
	free(args);
	/* the events this command brought, before the next one */
	drain_events(cli);
	return quit;
}

/* SIGINT and SIGTERM, blocked, as a file descriptor to poll */
int cli_signal_fd(void)
{
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	if (sigprocmask(SIG_BLOCK, &set, NULL))
		return -1;
	return signalfd(-1, &set, SFD_CLOEXEC);
}

static int session_loop(struct cli *cli)
{
	struct cli_input in = { .buf = NULL };
	struct pollfd pfd[3];
	int sfd, quit = 0, ret = 0;

	sfd = cli_signal_fd();
	if (sfd < 0) {
		cli_err("signalfd: %s", strerror(errno));
		return 1;
	}
	pfd[0] = (struct pollfd){ .fd = rdma_mcm_get_fd(cli->ch), .events = POLLIN };
	pfd[1] = (struct pollfd){ .fd = sfd, .events = POLLIN };
	pfd[2] = (struct pollfd){ .fd = STDIN_FILENO, .events = POLLIN };
	while (!quit) {
		if (drain_events(cli)) {
			ret = 1;
			break;
		}
		pfd[2].fd = in.eof ? -1 : STDIN_FILENO;
		if (poll(pfd, 3, -1) < 0 && errno != EINTR) {
			cli_err("poll: %s", strerror(errno));
			ret = 1;
			break;
		}
		if (pfd[1].revents)
			break;
		if (pfd[2].revents)
			quit = cli_input_read(cli, &in, STDIN_FILENO,
					      session_command);
	}
	cli_input_free(&in);
	close(sfd);
	return ret;
}

/* Open the channel; 0 or -1 (reported) */
int cli_open(struct cli *cli, int flags)
{
	int err;

	cli->ch = rdma_mcm_open_channel(flags);
	if (cli->ch)
		return 0;
	err = errno;
	cli_err("/dev/%s: %s%s", RDMA_MCM_DEVICE_NAME, strerror(err),
		err != ENOENT ? "" : cli_module_loaded() ?
		" (the rdma_mcm module is loaded: its device node is missing)" :
		" (the rdma_mcm module is not loaded)");
	return -1;
}

static void close_channel(struct cli *cli)
{
	rdma_mcm_close_channel(cli->ch);
	cli->ch = NULL;
	free(cli->mem);
	cli->mem = NULL;
	cli->nmem = 0;
}

int cmd_join(struct cli *cli, int argc, char **argv)
{
	static struct cli_sources srcs;
	struct sockaddr_storage ss;
	struct cli_member *m;
	int flags, i, joined = 0, ret;

	ret = parse_join_args(argv + 1, argc - 1, &flags, &cli->no_heal,
			      &srcs);
	if (ret) {
		if (ret == -1)
			cli_err("usage: join GROUP... [--send-only] [--source ADDR]... [--no-heal]");
		return EXIT_USAGE;
	}
	/* a group that is none is a usage error, before anything is done */
	for (i = 1; i < argc; i++)
		if (is_group(argv, i) && cli_parse_group(argv[i], &ss))
			return EXIT_USAGE;
	if (cli_open(cli, O_NONBLOCK))
		return 1;
	/*
	 * No verbs objects here: a device that goes away, a membership lost
	 * and joined again, are only reported.
	 */
	rdma_mcm_set_event_mask(cli->ch, CLI_EVENTS, NULL);
	for (i = 1; i < argc; i++) {
		if (!is_group(argv, i))
			continue;
		m = cli_member_new(cli, argv[i], flags);
		if (!m)
			continue;
		if (cli_join(cli, m, &srcs))
			cli_member_free(cli, m);
		else
			joined++;
	}
	ret = joined ? session_loop(cli) : 1;
	cli_leave_all(cli);
	close_channel(cli);
	return ret;
}

int cmd_list(struct cli *cli, int argc, char **argv)
{
	(void)argv;
	if (argc > 1) {
		cli_err("usage: list");
		return EXIT_USAGE;
	}
	if (cli_open(cli, O_NONBLOCK))
		return 1;
	/* A new open file has no memberships: say why nothing is listed. */
	if (!cli->json)
		cli_err("no memberships: they belong to the open file; use 'list' on the stdin of 'rdma-mcm join'");
	cli_list(cli);
	close_channel(cli);
	return 0;
}
