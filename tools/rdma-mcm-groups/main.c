// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * rdma-mcm-groups: hold the RDMA multicast memberships the configuration
 * names (rdma-mcm-groups.conf(5)), with healing, until SIGTERM or SIGINT;
 * on SIGHUP read it again and apply only what changed. The program of
 * rdma-mcm-groups.service (systemd, Type=notify); see rdma-mcm-groups(8).
 *
 * Exit status: 0 when stopped (every membership left) or when --check
 * found the configuration valid; 1 when /dev/rdma_mcm does not open or
 * its channel fails; 2 for a usage error or a configuration refused at
 * start (the unit does not restart it for that: RestartPreventExitStatus).
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <net/if_arp.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <syslog.h>
#include <unistd.h>

#include "groups.h"
#include "rdma_mcm_cli.h"

#ifndef MCM_VERSION
#define MCM_VERSION	"unknown"
#endif

/* The event types handled: all of healing's */
#define GRP_EVENTS	(RDMA_MCM_EVENTS_DEFAULT | \
			 RDMA_MCM_EVENT_BIT(RDMA_MCM_EVENT_DEVICE_REMOVED) | \
			 RDMA_MCM_EVENT_BIT(RDMA_MCM_EVENT_REJOINING) | \
			 RDMA_MCM_EVENT_BIT(RDMA_MCM_EVENT_REJOINED) | \
			 RDMA_MCM_EVENT_BIT(RDMA_MCM_EVENT_DEVICE_ADDED))

static const char usage_text[] =
"Usage: rdma-mcm-groups [-d DIR] [-q auto|off|SECONDS] [-s FILE]\n"
"       rdma-mcm-groups [-d DIR] --check [-j [-p]]\n"
"       rdma-mcm-groups -h | --help | -V | --version\n"
"\n"
"Holds the RDMA multicast memberships that DIR/*.conf name (one a line:\n"
"group GROUP dev NETDEV|local ADDRESS [source ADDRESS[,ADDRESS]...]\n"
"[type full|send-only]; rdma-mcm-groups.conf(5)), joined again when they\n"
"are lost, until SIGTERM or SIGINT, which leave them all. SIGHUP reads the\n"
"configuration again and applies only what changed; a configuration with\n"
"an error is refused whole (at start: exit status 2; on SIGHUP the\n"
"memberships held stay). The program of rdma-mcm-groups.service\n"
"(systemd, Type=notify: READY=1, STATUS=, RELOADING=1, STOPPING=1).\n"
"Where it holds a full member it listens for IGMP/MLD queries (needs\n"
"CAP_NET_RAW) and warns when no querier is heard for the timeout.\n"
"\n"
"  -d, --config-dir DIR  the configuration (default " GRP_CONF_DIR ")\n"
"  -q, --querier-timeout auto|off|SECONDS\n"
"                        warn when no query is heard for this long (auto,\n"
"                        the default: the RFCs' Other Querier Present\n"
"                        Interval, 255 s unless the querier says other)\n"
"  -s, --state-file FILE the queriers heard, as JSON lines (default\n"
"                        $RUNTIME_DIRECTORY/queriers.json under systemd)\n"
"  -c, --check           check the configuration, print its memberships\n"
"                        and exit: 0 valid, 2 not (FILE:LINE: on stderr)\n"
"  -j, --json            with --check, JSON lines (errors too)\n"
"  -p, --pretty          with --check, JSON indented (implies -j)\n"
"  -h, --help            this help\n"
"  -V, --version         the program's version\n";

struct opts {
	const char *dir;
	int check;
	int json;
	int watch_off;
	unsigned int querier_timeout_s;	/* 0: auto */
	const char *state_file;
};

/* An error of the configuration, in the log (the service) */
static void log_conf_error(void *arg, const char *file, unsigned int line,
			   const char *msg)
{
	(void)arg;
	if (line)
		grp_log(LOG_ERR, "%s:%u: %s", file, line, msg);
	else
		grp_log(LOG_ERR, "%s: %s", file, msg);
}

/* An error of the configuration, on stderr (--check), as JSON with -j */
static void print_conf_error(void *arg, const char *file, unsigned int line,
			     const char *msg)
{
	const struct opts *o = arg;
	char text[1024];
	struct rec r;

	if (line)
		snprintf(text, sizeof(text), "%s:%u: %s", file, line, msg);
	else
		snprintf(text, sizeof(text), "%s: %s", file, msg);
	if (!o->json) {
		fprintf(stderr, "rdma-mcm-groups: %s\n", text);
		return;
	}
	rec_begin(&r);
	rec_str(&r, "error", text);
	rec_str(&r, "file", file);
	if (line)
		rec_u64(&r, "line", line);
	rec_end_to(&r, stderr);
}

/* --check: the memberships, as the configuration has them */
static void print_entry(const struct opts *o, const struct grp_entry *e)
{
	char text[GRP_LINE_MAX], a[80];
	struct rec r;
	unsigned int i;

	if (!o->json) {
		grp_entry_text(e, text, sizeof(text));
		printf("%s:%u: %s\n", e->file, e->line, text);
		return;
	}
	rec_begin(&r);
	grp_addr_text(&e->group, a, sizeof(a));
	rec_str(&r, "group", a);
	if (*e->dev) {
		rec_str(&r, "dev", e->dev);
	} else {
		grp_addr_text(&e->local, a, sizeof(a));
		rec_str(&r, "local", a);
	}
	rec_str(&r, "type", grp_type_name(e->type));
	rec_open(&r, "sources", '[');
	for (i = 0; i < e->nr_src; i++) {
		grp_addr_text(&e->src[i], a, sizeof(a));
		rec_item(&r, a);
	}
	rec_close(&r, ']');
	rec_str(&r, "file", e->file);
	rec_u64(&r, "line", e->line);
	rec_end(&r);
}

static int do_check(struct opts *o)
{
	struct grp_conf c;
	size_t i;
	int ret;

	grp_conf_init(&c, print_conf_error, o);
	ret = grp_conf_load(&c, o->dir);
	for (i = 0; !ret && i < c.n; i++)
		print_entry(o, &c.v[i]);
	grp_conf_free(&c);
	return ret ? GRP_EXIT_CONFIG : 0;
}

/* --- the service ----------------------------------------------------------- */

struct service {
	const char *dir;
	struct rdma_mcm_channel *ch;
	struct grp_hold *h;
	struct grp_watch *w;		/* NULL: the watchdog is off */
	int rtnl;
	char reload_error[600];	/* the last reload's refusal, until one passes */
	char status[800];	/* the last STATUS= sent */
};

/* STATUS=, when it changed: the counts, and a refused reload */
static void update_status(struct service *s)
{
	static const char *const names[GRP_NR_STATES] = {
		[GRP_PENDING] = "pending", [GRP_JOINING] = "joining",
		[GRP_JOINED] = "joined", [GRP_WAITING] = "waiting",
		[GRP_FAILED] = "failed",
	};
	static const enum grp_state order[] = {
		GRP_JOINED, GRP_JOINING, GRP_WAITING, GRP_PENDING, GRP_FAILED,
	};
	struct grp_counts c;
	char text[800];
	size_t at = 0, i;

	grp_hold_counts(s->h, &c);
	if (*s->reload_error)
		at = (size_t)snprintf(text, sizeof(text),
				      "reload refused (%s); ", s->reload_error);
	at += (size_t)snprintf(text + at, sizeof(text) - at,
			       "%u membership%s: %u joined", c.total,
			       c.total == 1 ? "" : "s", c.n[GRP_JOINED]);
	for (i = 1; i < sizeof(order) / sizeof(order[0]) && at < sizeof(text); i++)
		if (c.n[order[i]])
			at += (size_t)snprintf(text + at, sizeof(text) - at,
					       ", %u %s", c.n[order[i]],
					       names[order[i]]);
	if (s->w && at < sizeof(text))
		grp_watch_status(s->w, text + at, sizeof(text) - at);
	if (!strcmp(text, s->status))
		return;
	snprintf(s->status, sizeof(s->status), "%s", text);
	grp_notify("STATUS=%s", text);
}

/* SIGHUP: the configuration again, its differences applied */
static void on_sighup(struct service *s)
{
	unsigned int last[4];
	struct grp_conf c;

	grp_notify_reloading();
	grp_log(LOG_INFO, "reloading %s", s->dir);
	grp_conf_init(&c, log_conf_error, NULL);
	if (grp_conf_load(&c, s->dir)) {
		snprintf(s->reload_error, sizeof(s->reload_error), "%s%s",
			 c.first_error, c.errors > 1 ? " and more" : "");
		grp_log(LOG_ERR,
			"reload refused: %u error%s in %s; the memberships held stay as they were",
			c.errors, c.errors == 1 ? "" : "s", s->dir);
	} else {
		*s->reload_error = '\0';
		grp_hold_apply(s->h, &c);
		grp_hold_last_apply(s->h, last);
		grp_log(LOG_INFO, "reloaded: %u joined, %u left, %u replaced, %u unchanged",
			last[GRP_JOIN], last[GRP_LEAVE], last[GRP_REPLACE],
			last[GRP_KEEP]);
	}
	grp_conf_free(&c);
	update_status(s);
	grp_notify("READY=1");
}

/* The channel, its events, the first apply; 0, 1 or GRP_EXIT_CONFIG */
static int start(struct service *s)
{
	struct grp_conf c;
	int err;

	grp_conf_init(&c, log_conf_error, NULL);
	if (grp_conf_load(&c, s->dir)) {
		grp_log(LOG_ERR, "configuration refused: %u error%s in %s; nothing joined",
			c.errors, c.errors == 1 ? "" : "s", s->dir);
		grp_conf_free(&c);
		return GRP_EXIT_CONFIG;
	}
	s->ch = rdma_mcm_open_channel(O_NONBLOCK);
	if (!s->ch) {
		err = errno;
		grp_log(LOG_ERR, "/dev/%s: %s%s", RDMA_MCM_DEVICE_NAME,
			strerror(err), err == ENOENT ?
			" (is the rdma_mcm module loaded?)" : "");
		grp_conf_free(&c);
		return 1;
	}
	if (rdma_mcm_set_event_mask(s->ch, GRP_EVENTS, NULL))
		grp_log(LOG_WARNING, "event types: %s (the rdma_mcm module is older than healing)",
			strerror(errno));
	s->h = grp_hold_open(s->ch);
	s->rtnl = grp_rtnl_open();
	if (s->rtnl < 0)
		grp_log(LOG_WARNING,
			"rtnetlink: %s: an address that comes is seen by the retry timer only",
			strerror(errno));
	if (!s->h) {
		grp_conf_free(&c);
		return 1;
	}
	grp_log(LOG_INFO, "%s: %zu membership%s in %zu file%s", s->dir, c.n,
		c.n == 1 ? "" : "s", c.nfiles, c.nfiles == 1 ? "" : "s");
	err = grp_hold_apply(s->h, &c);
	grp_conf_free(&c);
	return err ? 1 : 0;
}

/* The signals that came: 1 when one of them stops the service */
static int read_signals(struct service *s, int sfd, struct signalfd_siginfo *si)
{
	while (read(sfd, si, sizeof(*si)) == sizeof(*si)) {
		if (si->ssi_signo == SIGHUP) {
			on_sighup(s);
			continue;
		}
		grp_log(LOG_INFO, "%s: leaving every membership",
			strsignal((int)si->ssi_signo));
		return 1;
	}
	return 0;
}

/* SIGHUP, SIGTERM and SIGINT, blocked, as a descriptor to poll */
static int signal_fd(void)
{
	sigset_t set;

	signal(SIGPIPE, SIG_IGN);
	sigemptyset(&set);
	sigaddset(&set, SIGHUP);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGINT);
	if (sigprocmask(SIG_BLOCK, &set, NULL))
		return -1;
	return signalfd(-1, &set, SFD_CLOEXEC | SFD_NONBLOCK);
}

struct place_arg {
	struct grp_watch *w;
	int64_t now;
};

/* A place of a full member: its netdev and family are watched */
static void want_place(void *arg, const char *dev, int family,
		       const struct sockaddr_storage *src)
{
	struct place_arg *a = arg;
	char name[IF_NAMESIZE];
	int type;

	if (!*dev) {
		/* bound by address: the netdev that has it now */
		if (grp_netdev_of(src, name))
			return;
		dev = name;
	}
	/*
	 * Ethernet only (RoCE): on InfiniBand, rdma_mcm joins through the
	 * subnet administrator, and no IGMP/MLD membership is made
	 */
	type = grp_netdev_type(dev);
	if (type > 0 && type != ARPHRD_ETHER)
		return;
	grp_watch_want(a->w, dev, family, a->now);
}

/*
 * The watchdog follows the places of the full members held, when they may
 * have changed (@sync: an event, a retry, a reload, an address or a link);
 * its silences are due on time
 */
static void watch_sync(struct service *s, int sync, int64_t now)
{
	struct place_arg a = { .w = s->w, .now = now };

	if (!s->w)
		return;
	if (sync) {
		grp_watch_begin(s->w);
		grp_hold_places(s->h, want_place, &a);
		grp_watch_end(s->w);
	}
	grp_watch_tick(s->w, now);
	grp_watch_flush(s->w);
}

/* The sooner of two poll timeouts (-1: none) */
static int sooner(int a, int b)
{
	if (a < 0)
		return b;
	return b < 0 || a < b ? a : b;
}

/* Until SIGTERM or SIGINT (0), or the channel fails (1) */
static int serve(struct service *s, int sfd)
{
	struct signalfd_siginfo si;
	struct pollfd *p = NULL, *np;
	size_t n, cap = 0;
	int ret = 0, ms, sync = 1;

	for (;;) {
		watch_sync(s, sync, grp_now_ms());
		sync = 0;
		update_status(s);
		n = 3 + (s->w ? grp_watch_count(s->w) : 0);
		if (n > cap) {
			np = realloc(p, n * sizeof(*p));
			if (!np) {
				grp_log(LOG_ERR, "poll: out of memory");
				ret = 1;
				break;
			}
			p = np;
			cap = n;
		}
		p[0] = (struct pollfd){ .fd = sfd, .events = POLLIN };
		p[1] = (struct pollfd){ .fd = rdma_mcm_get_fd(s->ch),
					.events = POLLIN };
		p[2] = (struct pollfd){ .fd = s->rtnl, .events = POLLIN };
		n = 3 + (s->w ? grp_watch_fds(s->w, p + 3, cap - 3) : 0);
		ms = grp_hold_retry_ms(s->h);
		if (s->w)
			ms = sooner(ms, grp_watch_timeout_ms(s->w, grp_now_ms()));
		if (poll(p, (nfds_t)n, ms) < 0 && errno != EINTR) {
			grp_log(LOG_ERR, "poll: %s", strerror(errno));
			ret = 1;
			break;
		}
		if (s->w)
			grp_watch_read(s->w, grp_now_ms());
		if (grp_hold_events(s->h)) {
			ret = 1;
			break;
		}
		if (p[1].revents)
			sync = 1;
		if (p[2].revents && grp_rtnl_read(s->rtnl) > 0) {
			grp_hold_retry(s->h);
			sync = 1;
		} else if (!grp_hold_retry_ms(s->h)) {
			grp_hold_retry_due(s->h);
			sync = 1;
		}
		if (p[0].revents)
			sync = 1;
		if (read_signals(s, sfd, &si))
			break;
	}
	free(p);
	return ret;
}

static int run(const struct opts *o)
{
	struct service s = { .dir = o->dir, .rtnl = -1 };
	const char *rt = getenv("RUNTIME_DIRECTORY");
	char state[4096] = "";
	int sfd, ret;

	sfd = signal_fd();
	if (sfd < 0) {
		grp_log(LOG_ERR, "signalfd: %s", strerror(errno));
		return 1;
	}
	if (o->state_file)
		snprintf(state, sizeof(state), "%s", o->state_file);
	else if (rt && *rt)
		/* systemd's RuntimeDirectory=: the first, if several */
		snprintf(state, sizeof(state), "%.*s/queriers.json",
			 (int)strcspn(rt, ":"), rt);
	if (!o->watch_off) {
		s.w = grp_watch_new(o->querier_timeout_s, state, 0);
		if (!s.w) {
			grp_log(LOG_ERR, "querier watchdog: out of memory");
			close(sfd);
			return 1;
		}
	}
	ret = start(&s);
	if (!ret) {
		update_status(&s);
		grp_notify("READY=1");
		ret = serve(&s, sfd);
		grp_notify("STOPPING=1");
	}
	grp_watch_free(s.w);
	grp_hold_close(s.h);
	rdma_mcm_close_channel(s.ch);
	if (s.rtnl >= 0)
		close(s.rtnl);
	close(sfd);
	return ret;
}

/* -q auto|off|SECONDS (1 to 86400); 0, or -1 with the error printed */
static int parse_timeout(const char *arg, struct opts *o)
{
	unsigned long v;
	char *end;

	o->watch_off = 0;
	o->querier_timeout_s = 0;
	if (!strcmp(arg, "auto"))
		return 0;
	if (!strcmp(arg, "off") || !strcmp(arg, "0")) {
		o->watch_off = 1;
		return 0;
	}
	errno = 0;
	v = strtoul(arg, &end, 10);
	if (errno || end == arg || *end || *arg == '-' || v > 86400) {
		fprintf(stderr,
			"rdma-mcm-groups: querier timeout '%s': auto, off or 1 to 86400 seconds\n",
			arg);
		return -1;
	}
	o->querier_timeout_s = (unsigned int)v;
	return 0;
}

static const struct option long_options[] = {
	{ "config-dir", required_argument, NULL, 'd' },
	{ "check", no_argument, NULL, 'c' },
	{ "json", no_argument, NULL, 'j' },
	{ "pretty", no_argument, NULL, 'p' },
	{ "querier-timeout", required_argument, NULL, 'q' },
	{ "state-file", required_argument, NULL, 's' },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
	{ NULL, 0, NULL, 0 },
};

int main(int argc, char **argv)
{
	struct opts o = { .dir = GRP_CONF_DIR };
	int c;

	setvbuf(stdout, NULL, _IOLBF, 0);
	setvbuf(stderr, NULL, _IOLBF, 0);
	opterr = 0;
	while ((c = getopt_long(argc, argv, "d:cjpq:s:hV", long_options,
				NULL)) != -1) {
		switch (c) {
		case 'd':
			o.dir = optarg;
			break;
		case 'c':
			o.check = 1;
			break;
		case 'q':
			if (parse_timeout(optarg, &o))
				return GRP_EXIT_CONFIG;
			break;
		case 's':
			o.state_file = optarg;
			break;
		case 'p':
			cli_pretty = 1;
			o.json = 1;
			break;
		case 'j':
			o.json = 1;
			break;
		case 'h':
			fputs(usage_text, stdout);
			return 0;
		case 'V':
			printf("rdma-mcm-groups %s\n", MCM_VERSION);
			return 0;
		default:
			if (optopt == 'd')
				fprintf(stderr, "rdma-mcm-groups: option -d needs a directory\n");
			else if (optopt == 'q')
				fprintf(stderr,
					"rdma-mcm-groups: option -q needs auto, off or a number of seconds\n");
			else if (optopt == 's')
				fprintf(stderr, "rdma-mcm-groups: option -s needs a file\n");
			else if (optopt)
				fprintf(stderr, "rdma-mcm-groups: invalid option -%c\n",
					optopt);
			else
				fprintf(stderr, "rdma-mcm-groups: invalid option '%s'\n",
					argv[optind - 1]);
			fputs(usage_text, stderr);
			return GRP_EXIT_CONFIG;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "rdma-mcm-groups: unexpected argument '%s'\n",
			argv[optind]);
		fputs(usage_text, stderr);
		return GRP_EXIT_CONFIG;
	}
	if (o.json && !o.check) {
		fprintf(stderr, "rdma-mcm-groups: -j and -p go with --check\n");
		return GRP_EXIT_CONFIG;
	}
	if (o.check)
		return do_check(&o);
	return run(&o);
}
