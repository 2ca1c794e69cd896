// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Configuration, read once from the environment and a file
 * (librdmamcm-preload(7)):
 *   RDMA_MCM_PRELOAD=0          pass every call to librdmacm
 *   RDMA_MCM_PRELOAD_DEBUG=1    one line on stderr per decision
 *   RDMA_MCM_PRELOAD_HEAL=0     contexts that do not heal
 *   RDMA_MCM_PRELOAD_SOURCES    "GROUP=SRC[,SRC...][;GROUP=...]": joins of
 *                               GROUP are source-specific (IGMPv3/MLDv2)
 *   RDMA_MCM_PRELOAD_CONFIG     a file of "source GROUP SRC [SRC...]" lines
 *                               (default /etc/rdma-mcm/preload.conf)
 * librdmacm has no call for a source-specific join, hence the
 * configuration. A malformed entry is reported on stderr and ignored.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>
#include <netinet/in.h>

#include "preload.h"

#define PL_DEFAULT_CONFIG	"/etc/rdma-mcm/preload.conf"

struct pl_config pl_config = { .heal = 1 };

void pl_debug(const char *fmt, ...)
{
	va_list ap;

	if (!pl_config.debug)
		return;
	va_start(ap, fmt);
	fprintf(stderr, "librdmamcm-preload[%d]: ", (int)getpid());
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
}

static int env_flag(const char *name, int dflt)
{
	const char *v = getenv(name);

	if (!v || !*v)
		return dflt;
	return strcmp(v, "0") && strcasecmp(v, "no") && strcasecmp(v, "off") &&
	       strcasecmp(v, "false");
}

/* "GROUP" and its sources, separated by any of @seps */
static void add_entry(char *group, char *srcs, const char *seps,
		      const char *where)
{
	struct pl_sources *n, *s;
	char *tok, *save = NULL;

	n = realloc(pl_config.sources,
		    (pl_config.nr_sources + 1) * sizeof(*n));
	if (!n)
		return;
	pl_config.sources = n;
	s = &n[pl_config.nr_sources];
	memset(s, 0, sizeof(*s));
	if (rdma_mcm_parse_addr(group, &s->group)) {
		fprintf(stderr, "librdmamcm-preload: %s: bad group '%s'\n",
			where, group);
		return;
	}
	for (tok = strtok_r(srcs, seps, &save); tok;
	     tok = strtok_r(NULL, seps, &save)) {
		if (s->count == RDMA_MCM_MAX_SOURCES ||
		    rdma_mcm_parse_addr(tok, &s->addr[s->count]) ||
		    s->addr[s->count].ss_family != s->group.ss_family) {
			fprintf(stderr,
				"librdmamcm-preload: %s: bad source '%s' for %s\n",
				where, tok, group);
			return;
		}
		s->count++;
	}
	if (!s->count) {
		fprintf(stderr, "librdmamcm-preload: %s: %s has no source\n",
			where, group);
		return;
	}
	pl_config.nr_sources++;
}

static void parse_env_sources(const char *v)
{
	char *copy = strdup(v), *ent, *save = NULL;

	if (!copy)
		return;
	for (ent = strtok_r(copy, ";", &save); ent;
	     ent = strtok_r(NULL, ";", &save)) {
		char *eq = strchr(ent, '=');

		if (!eq) {
			fprintf(stderr,
				"librdmamcm-preload: RDMA_MCM_PRELOAD_SOURCES: '%s' is not GROUP=SRC[,SRC]\n",
				ent);
			continue;
		}
		*eq = '\0';
		add_entry(ent, eq + 1, ",", "RDMA_MCM_PRELOAD_SOURCES");
	}
	free(copy);
}

static void parse_file(const char *path, int must_exist)
{
	char line[4096], where[512];
	FILE *f = fopen(path, "re");
	unsigned int no = 0;

	if (!f) {
		if (must_exist)
			fprintf(stderr, "librdmamcm-preload: %s: %m\n", path);
		return;
	}
	while (fgets(line, sizeof(line), f)) {
		char *p = line, *word, *rest;

		no++;
		p[strcspn(p, "#\r\n")] = '\0';
		p += strspn(p, " \t");
		if (!*p)
			continue;
		snprintf(where, sizeof(where), "%s:%u", path, no);
		word = p;
		p += strcspn(p, " \t");
		if (*p)
			*p++ = '\0';
		if (strcmp(word, "source")) {
			fprintf(stderr, "librdmamcm-preload: %s: unknown '%s'\n",
				where, word);
			continue;
		}
		p += strspn(p, " \t");
		rest = p + strcspn(p, " \t");
		if (*rest)
			*rest++ = '\0';
		add_entry(p, rest, " \t", where);
	}
	fclose(f);
}

void pl_config_load(void)
{
	const char *v;

	pl_config.disabled = !env_flag("RDMA_MCM_PRELOAD", 1);
	pl_config.debug = env_flag("RDMA_MCM_PRELOAD_DEBUG", 0);
	pl_config.heal = env_flag("RDMA_MCM_PRELOAD_HEAL", 1);
	v = getenv("RDMA_MCM_PRELOAD_SOURCES");
	if (v && *v)
		parse_env_sources(v);
	v = getenv("RDMA_MCM_PRELOAD_CONFIG");
	if (v && *v)
		parse_file(v, 1);
	else
		parse_file(PL_DEFAULT_CONFIG, 0);
	pl_debug("%s, %s, %u source-specific group(s)",
		 pl_config.disabled ? "disabled" : "enabled",
		 pl_config.heal ? "healing" : "not healing",
		 pl_config.nr_sources);
}

static int same_addr(const struct sockaddr_storage *a, const struct sockaddr *b)
{
	if (a->ss_family != b->sa_family)
		return 0;
	if (b->sa_family == AF_INET)
		return ((const struct sockaddr_in *)a)->sin_addr.s_addr ==
		       ((const struct sockaddr_in *)b)->sin_addr.s_addr;
	if (b->sa_family == AF_INET6)
		return !memcmp(&((const struct sockaddr_in6 *)a)->sin6_addr,
			       &((const struct sockaddr_in6 *)b)->sin6_addr,
			       sizeof(struct in6_addr));
	return 0;
}

const struct pl_sources *pl_sources_for(const struct sockaddr *g)
{
	unsigned int i;

	for (i = 0; i < pl_config.nr_sources; i++)
		if (same_addr(&pl_config.sources[i].group, g))
			return &pl_config.sources[i];
	return NULL;
}
