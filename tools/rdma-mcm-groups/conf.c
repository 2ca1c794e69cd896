// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * rdma-mcm-groups: the configuration, rdma-mcm-groups.conf(5). Every
 * *.conf file of the directory (not those whose name starts with a dot),
 * in the order of their names, one membership a line:
 *
 *   group GROUP (dev NETDEV | local ADDRESS) [source ADDRESS[,ADDRESS]...]
 *         [type full|send-only]
 *
 * the keywords in any order, "#" to the end of the line a comment. Every
 * line is checked before anything is joined, and every error is reported
 * as FILE:LINE: what is wrong; a configuration with one error is refused
 * whole (at start: exit status 2; on reload: the memberships held stay).
 */
#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "groups.h"

/* A configuration file larger than this is refused */
#define GRP_FILE_MAX	(16 << 20)

static const char line_syntax[] =
	"group GROUP dev NETDEV|local ADDRESS [source ADDRESS[,ADDRESS]...] [type full|send-only]";

void grp_conf_init(struct grp_conf *c, grp_err_fn err, void *arg)
{
	memset(c, 0, sizeof(*c));
	c->err = err;
	c->err_arg = arg;
}

void grp_conf_free(struct grp_conf *c)
{
	size_t i;

	for (i = 0; i < c->n; i++)
		free(c->v[i].src);
	for (i = 0; i < c->nfiles; i++)
		free(c->files[i]);
	free(c->v);
	free(c->files);
	c->v = NULL;
	c->files = NULL;
	c->n = 0;
	c->cap = 0;
	c->nfiles = 0;
}

static void conf_error(struct grp_conf *c, const char *file, unsigned int line,
		       const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static void conf_error(struct grp_conf *c, const char *file, unsigned int line,
		       const char *fmt, ...)
{
	char msg[400];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (!c->errors++) {
		if (line)
			snprintf(c->first_error, sizeof(c->first_error),
				 "%s:%u: %s", file, line, msg);
		else
			snprintf(c->first_error, sizeof(c->first_error),
				 "%s: %s", file, msg);
	}
	if (c->err)
		c->err(c->err_arg, file, line, msg);
}

const char *grp_type_name(int type)
{
	return type == RDMA_MCM_JOIN_SENDONLY_FULLMEMBER ? "send-only" : "full";
}

void grp_addr_text(const struct sockaddr_storage *ss, char *buf, size_t len)
{
	const struct sockaddr_in6 *sin6 = (const struct sockaddr_in6 *)ss;
	const struct sockaddr_in *sin = (const struct sockaddr_in *)ss;
	char a[INET6_ADDRSTRLEN], dev[IF_NAMESIZE];

	if (ss->ss_family == AF_INET) {
		inet_ntop(AF_INET, &sin->sin_addr, a, sizeof(a));
		snprintf(buf, len, "%s", a);
	} else if (ss->ss_family == AF_INET6) {
		inet_ntop(AF_INET6, &sin6->sin6_addr, a, sizeof(a));
		if (!sin6->sin6_scope_id)
			snprintf(buf, len, "%s", a);
		else if (if_indextoname(sin6->sin6_scope_id, dev))
			snprintf(buf, len, "%s%%%s", a, dev);
		else
			snprintf(buf, len, "%s%%%u", a, sin6->sin6_scope_id);
	} else {
		snprintf(buf, len, "none");
	}
}

void grp_binding_text(const struct grp_entry *e, char *buf, size_t len)
{
	char a[INET6_ADDRSTRLEN + IF_NAMESIZE + 2];

	if (*e->dev) {
		snprintf(buf, len, "dev %s", e->dev);
		return;
	}
	grp_addr_text(&e->local, a, sizeof(a));
	snprintf(buf, len, "local %s", a);
}

void grp_entry_text(const struct grp_entry *e, char *buf, size_t len)
{
	char a[INET6_ADDRSTRLEN + IF_NAMESIZE + 2], b[80];
	size_t at;
	unsigned int i;

	grp_addr_text(&e->group, a, sizeof(a));
	grp_binding_text(e, b, sizeof(b));
	at = (size_t)snprintf(buf, len, "group %s %s", a, b);
	for (i = 0; i < e->nr_src && at < len; i++) {
		grp_addr_text(&e->src[i], a, sizeof(a));
		at += (size_t)snprintf(buf + at, len - at, "%s%s",
				       i ? "," : " source ", a);
	}
	if (at < len)
		snprintf(buf + at, len - at, " type %s", grp_type_name(e->type));
}

/* --- one line -------------------------------------------------------------- */

static int is_multicast(const struct sockaddr_storage *ss)
{
	const struct sockaddr_in *sin = (const struct sockaddr_in *)ss;
	const struct sockaddr_in6 *sin6 = (const struct sockaddr_in6 *)ss;

	if (ss->ss_family == AF_INET)
		return IN_MULTICAST(ntohl(sin->sin_addr.s_addr));
	return IN6_IS_ADDR_MULTICAST(&sin6->sin6_addr);
}

static int is_unspecified(const struct sockaddr_storage *ss)
{
	const struct sockaddr_in *sin = (const struct sockaddr_in *)ss;
	const struct sockaddr_in6 *sin6 = (const struct sockaddr_in6 *)ss;

	if (ss->ss_family == AF_INET)
		return sin->sin_addr.s_addr == htonl(INADDR_ANY);
	return IN6_IS_ADDR_UNSPECIFIED(&sin6->sin6_addr);
}

static const char *family_name(int family)
{
	return family == AF_INET ? "IPv4" : "IPv6";
}

/* Where the line is, for its errors */
struct line_ctx {
	struct grp_conf *c;
	const char *file;
	unsigned int line;
};

static void line_err(struct line_ctx *l, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void line_err(struct line_ctx *l, const char *fmt, ...)
{
	char msg[400];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	conf_error(l->c, l->file, l->line, "%s", msg);
}

/* A netdev's name as the kernel takes one (dev_valid_name()) */
static int parse_dev(struct line_ctx *l, const char *v, struct grp_entry *e)
{
	if (strlen(v) >= IF_NAMESIZE) {
		line_err(l, "netdev name '%.100s' is too long (%d characters at most)",
			 v, IF_NAMESIZE - 1);
		return -1;
	}
	if (!strcmp(v, ".") || !strcmp(v, "..") || strchr(v, '/') ||
	    strchr(v, ':')) {
		line_err(l, "'%s' is not a netdev name", v);
		return -1;
	}
	strcpy(e->dev, v);
	return 0;
}

static int parse_group(struct line_ctx *l, const char *v, struct grp_entry *e)
{
	const struct sockaddr_in6 *sin6 = (const struct sockaddr_in6 *)&e->group;

	if (rdma_mcm_parse_addr(v, &e->group)) {
		line_err(l, "bad group address '%.100s'", v);
		return -1;
	}
	if (!is_multicast(&e->group)) {
		line_err(l, "group %s is not a multicast address (IPv4 224.0.0.0/4, IPv6 ff00::/8)",
			 v);
		return -1;
	}
	if (e->group.ss_family == AF_INET6 && sin6->sin6_scope_id) {
		line_err(l, "group %s: a group takes no %%scope (the netdev is dev's or local's)",
			 v);
		return -1;
	}
	return 0;
}

static int parse_local(struct line_ctx *l, const char *v, struct grp_entry *e)
{
	const struct sockaddr_in6 *sin6 = (const struct sockaddr_in6 *)&e->local;

	if (rdma_mcm_parse_addr(v, &e->local)) {
		line_err(l, errno == ENODEV ?
			 "local address '%.100s': no such netdev for its %%scope" :
			 "bad local address '%.100s'", v);
		return -1;
	}
	if (is_multicast(&e->local) || is_unspecified(&e->local)) {
		line_err(l, "local %s is not a unicast address of this host", v);
		return -1;
	}
	if (e->local.ss_family == AF_INET6 &&
	    IN6_IS_ADDR_LINKLOCAL(&sin6->sin6_addr) && !sin6->sin6_scope_id) {
		line_err(l,
			 "local %s: a link-local address needs its netdev (%s%%NETDEV), or use dev NETDEV",
			 v, v);
		return -1;
	}
	return 0;
}

static int add_source(struct line_ctx *l, const char *v,
		      struct sockaddr_storage *src, unsigned int *n)
{
	struct sockaddr_storage ss;
	unsigned int i;

	if (rdma_mcm_parse_addr(v, &ss) || is_unspecified(&ss)) {
		line_err(l, "bad source address '%.100s'", v);
		return -1;
	}
	if (is_multicast(&ss)) {
		line_err(l,
			 "source %s is a multicast address: a source is a sender's unicast address",
			 v);
		return -1;
	}
	for (i = 0; i < *n; i++)
		if (!grp_addr_cmp(&src[i], &ss)) {
			line_err(l, "source %s given twice", v);
			return -1;
		}
	if (*n == RDMA_MCM_MAX_SOURCES) {
		line_err(l, "more than %d sources", RDMA_MCM_MAX_SOURCES);
		return -1;
	}
	src[(*n)++] = ss;
	return 0;
}

/* "A,B,C": each a source; 0 or -1 (reported) */
static int parse_sources(struct line_ctx *l, char *v,
			 struct sockaddr_storage *src, unsigned int *n)
{
	char *tok, *save = NULL;

	if (*v == ',' || v[strlen(v) - 1] == ',' || strstr(v, ",,")) {
		line_err(l, "bad source list '%.100s': addresses separated by commas",
			 v);
		return -1;
	}
	for (tok = strtok_r(v, ",", &save); tok; tok = strtok_r(NULL, ",", &save))
		if (add_source(l, tok, src, n))
			return -1;
	return 0;
}

static int parse_type(struct line_ctx *l, const char *v, struct grp_entry *e)
{
	if (!strcmp(v, "full")) {
		e->type = RDMA_MCM_JOIN_FULLMEMBER;
		return 0;
	}
	if (!strcmp(v, "send-only") || !strcmp(v, "sendonly")) {
		e->type = RDMA_MCM_JOIN_SENDONLY_FULLMEMBER;
		return 0;
	}
	line_err(l, "bad type '%.100s': full or send-only", v);
	return -1;
}

enum { K_GROUP, K_DEV, K_LOCAL, K_SOURCE, K_TYPE, K_NR };

static const char *const keywords[K_NR] = {
	"group", "dev", "local", "source", "type",
};

/* The line's entry as a whole: what one keyword alone cannot tell */
static int check_entry(struct line_ctx *l, const unsigned int seen[K_NR],
		       struct grp_entry *e)
{
	char g[INET6_ADDRSTRLEN + IF_NAMESIZE + 2];
	char s[INET6_ADDRSTRLEN + IF_NAMESIZE + 2];
	unsigned int i;

	if (!seen[K_GROUP]) {
		line_err(l, "no group: a line is %s", line_syntax);
		return -1;
	}
	grp_addr_text(&e->group, g, sizeof(g));
	if (seen[K_DEV] && seen[K_LOCAL]) {
		line_err(l, "group %s: dev and local both given; one of them", g);
		return -1;
	}
	if (!seen[K_DEV] && !seen[K_LOCAL]) {
		line_err(l, "group %s: no dev NETDEV or local ADDRESS to join it on",
			 g);
		return -1;
	}
	if (seen[K_LOCAL] && e->local.ss_family != e->group.ss_family) {
		line_err(l, "group %s: local is an %s address, the group %s",
			 g, family_name(e->local.ss_family),
			 family_name(e->group.ss_family));
		return -1;
	}
	for (i = 0; i < e->nr_src; i++) {
		if (e->src[i].ss_family == e->group.ss_family)
			continue;
		grp_addr_text(&e->src[i], s, sizeof(s));
		line_err(l, "group %s: source %s is not an %s address", g, s,
			 family_name(e->group.ss_family));
		return -1;
	}
	if (e->nr_src && e->type == RDMA_MCM_JOIN_SENDONLY_FULLMEMBER) {
		line_err(l, "group %s: sources need a full member, not type send-only",
			 g);
		return -1;
	}
	return 0;
}

static int src_cmp(const void *a, const void *b)
{
	return grp_addr_cmp(a, b);
}

static int conf_add(struct grp_conf *c, const struct grp_entry *e)
{
	struct grp_entry *v;

	if (c->n == c->cap) {
		v = realloc(c->v, (c->cap ? c->cap * 2 : 64) * sizeof(*v));
		if (!v)
			return -1;
		c->v = v;
		c->cap = c->cap ? c->cap * 2 : 64;
	}
	c->v[c->n++] = *e;
	return 0;
}

/*
 * The words of @text (modified: NULs end them), at most @max; the
 * number, or -1 for more
 */
static int split_words(char *text, char **w, int max)
{
	int n = 0;

	for (;;) {
		text += strspn(text, " \t\r\f\v");
		if (!*text)
			return n;
		if (n == max)
			return -1;
		w[n++] = text;
		text += strcspn(text, " \t\r\f\v");
		if (*text)
			*text++ = '\0';
	}
}

/* One line (its text modified); 0, or -1 (reported) */
static int parse_line(struct line_ctx *l, char *text)
{
	static struct sockaddr_storage src[RDMA_MCM_MAX_SOURCES];
	unsigned int seen[K_NR] = { 0 };
	struct grp_entry e;
	char *w[2 * (K_NR + RDMA_MCM_MAX_SOURCES)];
	int n, i, k;

	text[strcspn(text, "#")] = '\0';
	n = split_words(text, w, (int)(sizeof(w) / sizeof(w[0])));
	if (!n)
		return 0;
	if (n < 0) {
		line_err(l, "too many words: a line is %s", line_syntax);
		return -1;
	}
	memset(&e, 0, sizeof(e));
	for (i = 0; i < n; i += 2) {
		for (k = 0; k < K_NR && strcmp(w[i], keywords[k]); k++)
			;
		if (k == K_NR) {
			line_err(l, "unknown keyword '%.100s': a line is %s", w[i],
				 line_syntax);
			return -1;
		}
		if (seen[k]++ && k != K_SOURCE) {
			line_err(l, "'%s' given twice", keywords[k]);
			return -1;
		}
		if (i + 1 == n) {
			line_err(l, "'%s' needs a value", keywords[k]);
			return -1;
		}
		if ((k == K_GROUP && parse_group(l, w[i + 1], &e)) ||
		    (k == K_DEV && parse_dev(l, w[i + 1], &e)) ||
		    (k == K_LOCAL && parse_local(l, w[i + 1], &e)) ||
		    (k == K_SOURCE && parse_sources(l, w[i + 1], src, &e.nr_src)) ||
		    (k == K_TYPE && parse_type(l, w[i + 1], &e)))
			return -1;
	}
	e.src = src;
	if (check_entry(l, seen, &e))
		return -1;
	e.src = NULL;
	if (e.nr_src) {
		e.src = malloc(e.nr_src * sizeof(*e.src));
		if (!e.src)
			goto nomem;
		memcpy(e.src, src, e.nr_src * sizeof(*e.src));
		qsort(e.src, e.nr_src, sizeof(*e.src), src_cmp);
	}
	e.file = l->file;
	e.line = l->line;
	if (!conf_add(l->c, &e))
		return 0;
	free(e.src);
nomem:
	line_err(l, "%s", strerror(ENOMEM));
	return -1;
}

/* --- files ----------------------------------------------------------------- */

/* @file's name, kept for the entries and the errors; NULL (reported) */
static const char *intern(struct grp_conf *c, const char *file)
{
	char **files, *copy;

	files = realloc(c->files, (c->nfiles + 1) * sizeof(*files));
	if (files)
		c->files = files;
	copy = files ? strdup(file) : NULL;
	if (!copy) {
		conf_error(c, file, 0, "%s", strerror(ENOMEM));
		return NULL;
	}
	c->files[c->nfiles++] = copy;
	return copy;
}

int grp_conf_parse(struct grp_conf *c, const char *file, const char *text)
{
	struct line_ctx l = { .c = c };
	unsigned int errors = c->errors;
	char *buf, *p, *end;
	size_t len;

	l.file = intern(c, file);
	if (!l.file)
		return -1;
	buf = strdup(text);
	if (!buf) {
		conf_error(c, file, 0, "%s", strerror(ENOMEM));
		return -1;
	}
	for (p = buf; *p; p = end) {
		l.line++;
		end = p + strcspn(p, "\n");
		len = (size_t)(end - p);
		if (*end)
			*end++ = '\0';
		if (len > GRP_LINE_MAX) {
			line_err(&l, "line longer than %d characters", GRP_LINE_MAX);
			continue;
		}
		parse_line(&l, p);
	}
	free(buf);
	return c->errors == errors ? 0 : -1;
}

/* The whole of @path as a string; NULL (reported) */
static char *read_file(struct grp_conf *c, const char *path)
{
	struct stat st;
	size_t len = 0;
	ssize_t n;
	char *buf;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		conf_error(c, path, 0, "%s", strerror(errno));
		return NULL;
	}
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || st.st_size > GRP_FILE_MAX) {
		conf_error(c, path, 0, "%s", fstat(fd, &st) ? strerror(errno) :
			   !S_ISREG(st.st_mode) ? "not a regular file" :
			   "larger than 16 MiB");
		close(fd);
		return NULL;
	}
	buf = malloc((size_t)st.st_size + 1);
	while (buf && len < (size_t)st.st_size) {
		n = read(fd, buf + len, (size_t)st.st_size - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		len += (size_t)n;
	}
	close(fd);
	if (!buf || len != (size_t)st.st_size) {
		conf_error(c, path, 0, "%s", buf ? "could not be read whole" :
			   strerror(ENOMEM));
		free(buf);
		return NULL;
	}
	buf[len] = '\0';
	if (memchr(buf, '\0', len)) {
		conf_error(c, path, 0, "a NUL byte: not a text file");
		free(buf);
		return NULL;
	}
	return buf;
}

static int name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The *.conf names of @dir, sorted; their number, or -1 (reported) */
static int conf_names(struct grp_conf *c, const char *dir, char ***out)
{
	struct dirent *d;
	char **v = NULL, **nv;
	size_t len;
	int n = 0;
	DIR *dp;

	dp = opendir(dir);
	if (!dp) {
		conf_error(c, dir, 0, "%s", strerror(errno));
		return -1;
	}
	while ((d = readdir(dp))) {
		len = strlen(d->d_name);
		if (d->d_name[0] == '.' || len <= 5 ||
		    strcmp(d->d_name + len - 5, ".conf"))
			continue;
		nv = realloc(v, (size_t)(n + 1) * sizeof(*v));
		if (nv)
			nv[n] = strdup(d->d_name);
		if (!nv || !nv[n]) {
			v = nv ? nv : v;
			conf_error(c, dir, 0, "%s", strerror(ENOMEM));
			n = -n - 1;
			break;
		}
		v = nv;
		n++;
	}
	closedir(dp);
	if (n < 0) {
		while (++n < 0)
			free(v[-n - 1]);
		free(v);
		return -1;
	}
	if (n)
		qsort(v, (size_t)n, sizeof(*v), name_cmp);
	*out = v;
	return n;
}

int grp_conf_load(struct grp_conf *c, const char *dir)
{
	char **names = NULL, *path, *text;
	int n, i;

	n = conf_names(c, dir, &names);
	for (i = 0; i < n; i++) {
		if (asprintf(&path, "%s/%s", dir, names[i]) < 0) {
			conf_error(c, dir, 0, "%s", strerror(ENOMEM));
			continue;
		}
		text = read_file(c, path);
		if (text)
			grp_conf_parse(c, path, text);
		free(text);
		free(path);
	}
	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
	return grp_conf_finish(c);
}

int grp_conf_finish(struct grp_conf *c)
{
	const struct grp_entry **v;
	char t[600], b[80];
	size_t i;

	if (!c->n)
		return c->errors ? -1 : 0;
	v = malloc(c->n * sizeof(*v));
	if (!v) {
		conf_error(c, "configuration", 0, "%s", strerror(ENOMEM));
		return -1;
	}
	for (i = 0; i < c->n; i++)
		v[i] = &c->v[i];
	grp_sort(v, c->n);
	for (i = 1; i < c->n; i++) {
		if (grp_key_cmp(v[i - 1], v[i]))
			continue;
		grp_addr_text(&v[i]->group, t, sizeof(t));
		grp_binding_text(v[i], b, sizeof(b));
		conf_error(c, v[i]->file, v[i]->line,
			   "group %s %s is already at %s:%u (one membership of a group on a netdev or address)",
			   t, b, v[i - 1]->file, v[i - 1]->line);
	}
	free(v);
	return c->errors ? -1 : 0;
}
