// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The fake libibverbs: the GRH area of a received UD datagram, as an HCA
 * writes it in the first 40 bytes of the receive's buffer (see
 * fake_verbs.h), from the next of the senders in fv.src of the group's
 * family (IPv4-mapped MGID: IPv4):
 *
 *   FV_GRH_ROCE_V2  IPv4: 20 bytes left as they were, then the datagram's
 *                   IPv4 header (its checksum right); IPv6: the IPv6
 *                   header (next header UDP)
 *   FV_GRH_IB       the GRH: the IPv6 header's layout, next header BTH
 *                   (0x1b), the sender as an IPv4-mapped GID for IPv4
 *   FV_GRH_NONE     nothing written, and no IBV_WC_GRH
 */
#include <arpa/inet.h>
#include <string.h>

#include "fake_verbs.h"

#define PAYLOAD		100	/* the sender's datagrams (rdma-mcm send) */
#define UDP_BTH		(8 + 12)
#define IP_UDP		17
#define IP_BTH		0x1b

static int is_v4mapped(const uint8_t *a)
{
	static const uint8_t prefix[12] = { [10] = 0xff, [11] = 0xff };

	return !memcmp(a, prefix, sizeof(prefix));
}

/* The next sender of the group's family */
static void next_sender(int v4, uint8_t src[16])
{
	static const uint8_t def4[16] = { [10] = 0xff, [11] = 0xff,
					  10, 0, 0, 2 };
	static const uint8_t def6[16] = { 0x20, 0x01, 0x0d, 0xb8,
					  [15] = 2 };
	unsigned long n = 0, k;
	int i;

	for (i = 0; i < fv.nsrc; i++)
		n += is_v4mapped(fv.src[i]) == v4;
	memcpy(src, v4 ? def4 : def6, 16);
	if (!n)
		return;
	k = fv.next_src++ % n;
	for (i = 0; i < fv.nsrc; i++) {
		if (is_v4mapped(fv.src[i]) != v4)
			continue;
		if (!k--) {
			memcpy(src, fv.src[i], 16);
			return;
		}
	}
}

static void put16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

/* An IPv4 header, checksum included, at @h */
static void ip4_header(uint8_t *h, const uint8_t *src, const uint8_t *dst)
{
	uint32_t sum = 0;
	int i;

	memset(h, 0, 20);
	h[0] = 0x45;
	put16(h + 2, 20 + UDP_BTH + PAYLOAD);
	put16(h + 6, 0x4000);			/* DF */
	h[8] = 64;
	h[9] = IP_UDP;
	memcpy(h + 12, src, 4);
	memcpy(h + 16, dst, 4);
	for (i = 0; i < 20; i += 2)
		sum += (uint32_t)h[i] << 8 | h[i + 1];
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	put16(h + 10, (uint16_t)~sum);
}

/* The IPv6 header, or the GRH: the same layout */
static void ip6_header(uint8_t *h, const uint8_t *src, const uint8_t *dst,
		       uint8_t next)
{
	memset(h, 0, 40);
	h[0] = 0x60;
	put16(h + 4, UDP_BTH + PAYLOAD);
	h[6] = next;
	h[7] = 64;
	memcpy(h + 8, src, 16);
	memcpy(h + 24, dst, 16);
}

int fv_grh_fill(uint8_t *buf, size_t len, const uint8_t mgid[16])
{
	int v4 = is_v4mapped(mgid);
	uint8_t src[16];

	if (fv.grh == FV_GRH_NONE || !buf || len < 40)
		return 0;
	next_sender(v4, src);
	if (fv.grh == FV_GRH_ROCE_V2 && v4)
		ip4_header(buf + 20, src + 12, mgid + 12);
	else
		ip6_header(buf, src, mgid,
			   fv.grh == FV_GRH_IB ? IP_BTH : IP_UDP);
	return 1;
}
