/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * rdma-mcm: the IGMP and MLD queries heard on a netdev (querier.c).
 *
 * Linux keeps no record of the queries it heard: /proc/net/igmp shows the
 * IGMP version a querier of an older version put the host in, and
 * nothing else. To know whether a querier is there, when it last asked,
 * and what it asked (its version, its query interval), one listens: a raw
 * socket per netdev and family, which sees every IGMP message (IPv4
 * protocol 2) or every MLD query (ICMPv6 type 130) that arrives on it,
 * as the host's own stack does. Raw sockets need CAP_NET_RAW.
 *
 * The sockets are non-blocking and each has a file descriptor, so a
 * program with a poll loop of its own (rdma-mcm check; a service that
 * watches for a querier that goes quiet) adds them to it and calls
 * mcm_querier_read() when one is readable. Times are the caller's.
 *
 * The parsers take a message as it comes off such a socket and need no
 * socket: mcm_query_parse_igmp() an IPv4 packet, header included;
 * mcm_query_parse_mld() an ICMPv6 message.
 */
#ifndef RDMA_MCM_QUERIER_H
#define RDMA_MCM_QUERIER_H

#include <stddef.h>
#include <stdint.h>

/* A membership query, as RFC 3376 (IGMP) and RFC 3810 (MLD) define it */
struct mcm_query {
	int family;			/* AF_INET (IGMP), AF_INET6 (MLD) */
	int version;			/* IGMP 1, 2, 3; MLD 1, 2 */
	uint8_t src[16];		/* the querier (IPv4: the first 4) */
	uint8_t group[16];		/* zeros: a general query */
	uint32_t max_resp_ms;		/* maximum response time */
	uint32_t qqi_s;			/* IGMPv3 / MLDv2: query interval */
	uint8_t qrv;			/* IGMPv3 / MLDv2: robustness */
	uint8_t s_flag;			/* suppress router-side processing */
	uint16_t nsrcs;			/* sources of a source-specific query */
	/*
	 * NULL, or why the host's own stack drops this query (an MLD query
	 * from an address that is not link-local, with a hop limit other
	 * than 1, without MLD's Router Alert, for a group that is not
	 * multicast; a general IGMPv3 query with sources): it then answers
	 * nothing to it
	 */
	const char *ignored;
};

/*
 * RFC 3376 4.1.1 and 4.1.7, RFC 3810 5.1.3 and 5.1.9: a code below 128
 * (MLD's Maximum Response Code: 32768) is the value itself; above, a
 * floating-point form, mantissa and exponent
 */
uint32_t mcm_igmp_code_value(uint8_t code);
uint32_t mcm_mld_mrc_value(uint16_t mrc);

/*
 * An IPv4 packet of @len bytes, IP header first: 1 and *@q filled when it
 * is an IGMP membership query; 0 when it is IGMP but another message (a
 * report, a leave); -1 when it is not a well-formed IGMP message (not
 * IGMP, cut short, a bad checksum, a query of a length RFC 3376 7.1 does
 * not know).
 */
int mcm_query_parse_igmp(const void *pkt, size_t len, struct mcm_query *q);

/*
 * An ICMPv6 message of @len bytes from @src (16 bytes), which came with
 * hop limit @hops (-1: not known) and, in @ra, MLD's Router Alert (1: a
 * hop-by-hop Router Alert option of value 0; 0: none, or another value;
 * -1: not known): 1 and *@q filled when it is an MLD query; 0 when it is
 * another ICMPv6 message; -1 when it is an MLD query of a length RFC 3810
 * 8.1 does not know.
 */
int mcm_query_parse_mld(const void *msg, size_t len, const uint8_t *src,
			int hops, int ra, struct mcm_query *q);

/* "igmpv3", "mldv1", ... */
const char *mcm_query_name(const struct mcm_query *q);

struct mcm_querier;

/*
 * A raw socket on netdev @ifname that hears the queries of @family
 * (AF_INET: IGMP; AF_INET6: MLD). NULL with errno: EPERM without
 * CAP_NET_RAW, ENODEV when there is no such netdev, EAFNOSUPPORT when the
 * kernel has no such family.
 */
struct mcm_querier *mcm_querier_open(const char *ifname, int family);
/* Its file descriptor, readable (POLLIN) when a message waits */
int mcm_querier_fd(const struct mcm_querier *qr);
/*
 * The next message: 1 and *@q when it is a query; 0 when it was another
 * (a report, a malformed message); -1 with errno EAGAIN when nothing
 * waits, or another errno on a socket error. A poll loop calls it until
 * it fails with EAGAIN.
 */
int mcm_querier_read(struct mcm_querier *qr, struct mcm_query *q);
void mcm_querier_close(struct mcm_querier *qr);

#endif /* RDMA_MCM_QUERIER_H */
