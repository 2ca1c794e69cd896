// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * mcm_test: the helpers the tests share (mcm_test.h says which).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <netinet/in.h>

#include "mcm_test.h"

#ifndef AF_IB
#define AF_IB		27
#endif

/*
 * Documentation/uapi.rst, "Membership state and status", row by row. The
 * oracles of the fuzzer and of the stress test (and so the flags) take the
 * contexts they make: -EADDRNOTAVAIL of an error without healing (a source
 * GID gone during the join) is not among what they accept.
 */
const struct mcm_status mcm_statuses[] = {
	{ ENETRESET,		MCM_ST_ERROR | MCM_ST_WAITING },
	{ ETIMEDOUT,		MCM_ST_ERROR | MCM_ST_WAITING },
	{ ECONNREFUSED,		MCM_ST_ERROR },
	{ ENODEV,		MCM_ST_ERROR | MCM_ST_WAITING },
	{ EADDRNOTAVAIL,	MCM_ST_WAITING },
	{ ENETDOWN,		MCM_ST_WAITING },
	{ ENETUNREACH,		MCM_ST_ROUTE },
	{ EOPNOTSUPP,		MCM_ST_REJOIN },
	{ EINVAL,		MCM_ST_REJOIN },
	{ ENOBUFS,		MCM_ST_REJOIN },
	{ EAFNOSUPPORT,		MCM_ST_REJOIN },
	{ ENOMEM,		MCM_ST_ERROR | MCM_ST_WAITING },
	{ EIO,			MCM_ST_ERROR },
};

const unsigned int mcm_nr_statuses = sizeof(mcm_statuses) /
				     sizeof(mcm_statuses[0]);

static bool status_is(int32_t status, unsigned int when)
{
	unsigned int i;

	for (i = 0; i < mcm_nr_statuses; i++)
		if (-status == mcm_statuses[i].err)
			return mcm_statuses[i].when & when;
	return false;
}

/* The status of an ERROR event and of a membership in state error */
bool status_documented(int32_t status)
{
	return status_is(status, MCM_ST_ERROR);
}

/*
 * The reason of a REJOINING event, and the status of a waiting member: the
 * transient ones (rdma_mcm_heals()) of a context that is not a route
 * context (no -ENETUNREACH)
 */
bool status_waiting(int32_t status)
{
	return status_is(status, MCM_ST_WAITING);
}

/* The length of a sockaddr of @family; 0 for a family the ABI does not take */
uint32_t family_len(int family)
{
	switch (family) {
	case AF_INET:
		return sizeof(struct sockaddr_in);
	case AF_INET6:
		return sizeof(struct sockaddr_in6);
	case AF_IB:
		return sizeof(struct mcm_sockaddr_ib);
	default:
		return 0;
	}
}

/* The number in a sysctl's or parameter's file; -1 when it cannot be read */
long read_long(const char *path)
{
	FILE *f = fopen(path, "r");
	long v = -1;

	if (!f)
		return -1;
	if (fscanf(f, "%ld", &v) != 1)
		v = -1;
	fclose(f);
	return v;
}

int write_long(const char *path, long v)
{
	FILE *f = fopen(path, "w");

	if (!f)
		return -1;
	fprintf(f, "%ld\n", v);
	return fclose(f);
}

/* rdma_mcm's module parameter @name; -1 when it cannot be read */
long get_param(const char *name)
{
	char path[128];

	snprintf(path, sizeof(path), MCM_PARAMS "%s", name);
	return read_long(path);
}

int set_param(const char *name, unsigned int value)
{
	char path[128];
	FILE *f;

	snprintf(path, sizeof(path), MCM_PARAMS "%s", name);
	f = fopen(path, "w");
	if (!f)
		return -1;
	fprintf(f, "%u\n", value);
	return fclose(f);
}

void die(const char *what)
{
	perror(what);
	exit(1);
}
