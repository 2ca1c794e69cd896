// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * librdmamcm: socket addresses: lengths, group keys, the ABI's address
 * buffers, text parsing; event status to errno.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <limits.h>
#include <net/if.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>

#include "rdma_mcm_priv.h"

/* Offset of sib_addr in struct sockaddr_ib */
#define MCM_SIB_ADDR_OFFSET	8

size_t mcm_addr_len(const struct sockaddr *sa)
{
	switch (sa->sa_family) {
	case AF_INET:
		return sizeof(struct sockaddr_in);
	case AF_INET6:
		return sizeof(struct sockaddr_in6);
	case AF_IB:
		return MCM_SOCKADDR_IB_LEN;
	default:
		return 0;
	}
}

/*
 * The bytes that name a group: its address without port or scope, as the
 * kernel compares groups. Returns 0 or -EINVAL/-EAFNOSUPPORT.
 */
int mcm_addr_key(const struct sockaddr *sa, uint8_t key[16],
		 uint32_t *key_len)
{
	const uint8_t *p = (const uint8_t *)sa;

	if (!sa)
		return -EINVAL;
	memset(key, 0, 16);
	switch (sa->sa_family) {
	case AF_INET:
		memcpy(key, &((const struct sockaddr_in *)sa)->sin_addr, 4);
		*key_len = 4;
		return 0;
	case AF_INET6:
		memcpy(key, &((const struct sockaddr_in6 *)sa)->sin6_addr, 16);
		*key_len = 16;
		return 0;
	case AF_IB:
		memcpy(key, p + MCM_SIB_ADDR_OFFSET, 16);
		*key_len = 16;
		return 0;
	default:
		return -EAFNOSUPPORT;
	}
}

/*
 * Copy @sa into an ABI address buffer of RDMA_MCM_ADDR_SIZE bytes, which
 * the caller has zeroed. Returns 0 or -EINVAL/-EAFNOSUPPORT.
 */
int mcm_addr_copy(const struct sockaddr *sa, uint8_t *buf, uint32_t *len)
{
	size_t n;

	if (!sa)
		return -EINVAL;
	n = mcm_addr_len(sa);
	if (!n)
		return -EAFNOSUPPORT;
	memcpy(buf, sa, n);
	*len = (uint32_t)n;
	return 0;
}

/*
 * A source address as the port's GID table holds it (IPv4 as
 * ::ffff:a.b.c.d, IPv6 as it is, AF_IB's sib_addr), and the netdev an
 * IPv6 address is scoped to (sin6_scope_id), else 0. @sa is an address
 * mcm_addr_copy() accepted.
 */
void mcm_addr_gid(const struct sockaddr *sa, uint8_t gid[16],
		  uint32_t *ifindex)
{
	const struct sockaddr_in6 *sin6 = (const struct sockaddr_in6 *)sa;

	memset(gid, 0, 16);
	*ifindex = 0;
	switch (sa->sa_family) {
	case AF_INET:
		gid[10] = 0xff;
		gid[11] = 0xff;
		memcpy(gid + 12, &((const struct sockaddr_in *)sa)->sin_addr, 4);
		break;
	case AF_INET6:
		memcpy(gid, &sin6->sin6_addr, 16);
		*ifindex = sin6->sin6_scope_id;
		break;
	case AF_IB:
		memcpy(gid, (const uint8_t *)sa + MCM_SIB_ADDR_OFFSET, 16);
		break;
	}
}

/* An ERROR event's status as an errno; EIO if it is not a negative errno */
int mcm_status_errno(int32_t status)
{
	if (status < 0 && status > -4096)
		return -status;
	return EIO;
}

static int parse_scope(const char *scope, uint32_t *id)
{
	char *end;
	unsigned long v;

	if (!*scope)
		return -EINVAL;
	if (*scope >= '0' && *scope <= '9') {
		errno = 0;
		v = strtoul(scope, &end, 10);
		if (errno || *end || v > UINT32_MAX)
			return -EINVAL;
		*id = (uint32_t)v;
		return 0;
	}
	*id = if_nametoindex(scope);
	return *id ? 0 : -ENODEV;
}

static int parse_in6(char *text, struct sockaddr_in6 *sin6)
{
	char *scope = strchr(text, '%');
	int ret;

	if (scope) {
		*scope++ = '\0';
		ret = parse_scope(scope, &sin6->sin6_scope_id);
		if (ret)
			return ret;
	}
	if (inet_pton(AF_INET6, text, &sin6->sin6_addr) != 1)
		return -EINVAL;
	sin6->sin6_family = AF_INET6;
	return 0;
}

/* "[addr]" -> "addr"; anything else unchanged. -EINVAL if unbalanced. */
static int strip_brackets(char *buf)
{
	size_t n = strlen(buf);

	if (buf[0] != '[')
		return buf[n - 1] == ']' ? -EINVAL : 0;
	if (n < 3 || buf[n - 1] != ']')
		return -EINVAL;
	memmove(buf, buf + 1, n - 2);
	buf[n - 2] = '\0';
	return 0;
}

MCM_EXPORT int rdma_mcm_parse_addr(const char *text,
				   struct sockaddr_storage *out)
{
	char buf[INET6_ADDRSTRLEN + IF_NAMESIZE + 4];
	struct sockaddr_storage ss;
	struct sockaddr_in *sin = (struct sockaddr_in *)&ss;
	int ret;

	if (!text || !out || !*text || strlen(text) >= sizeof(buf)) {
		errno = EINVAL;
		return -1;
	}
	memset(&ss, 0, sizeof(ss));
	strcpy(buf, text);
	if (inet_pton(AF_INET, buf, &sin->sin_addr) == 1) {
		sin->sin_family = AF_INET;
		ret = 0;
	} else {
		ret = strip_brackets(buf);
		if (!ret)
			ret = parse_in6(buf, (struct sockaddr_in6 *)&ss);
	}
	if (ret) {
		errno = -ret;
		return -1;
	}
	*out = ss;
	return 0;
}
