// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * rdma-mcm: where recv's datagrams came from, counted per source address
 * from the GRH of each receive: the first 40 bytes of its buffer, which
 * the HCA fills (IBV_WC_GRH). What they hold:
 *
 *  - RoCE v2, an IPv4 datagram: its IPv4 header, in the last 20 bytes
 *    (the first 20 are undefined); the source at byte 20 + 12;
 *  - RoCE v2 IPv6, RoCE v1 and InfiniBand: the IPv6 header (or the GRH,
 *    its layout), the source GID at byte 8; an IPv4-mapped one
 *    (::ffff:a.b.c.d, RoCE v1) is shown as IPv4.
 *
 * An IPv6 header's bytes 20..39 are its addresses, which can look like an
 * IPv4 header: as rdma-core's ibv_init_ah_from_wc() does, bytes 20..39
 * are taken for IPv4 when byte 0 is not an IPv6 version, or when they
 * are an IPv4 header without options whose checksum is right.
 *
 * The HCA does not filter by source: a source-specific join asks the
 * switches and routers (IGMPv3 / MLDv2), and this report shows what came.
 */
#include <arpa/inet.h>
#include <stdlib.h>
#include <string.h>

#include "rdma_mcm_cli.h"

#define GRH_IP4		20		/* the IPv4 header in the GRH area */
#define IP4_SRC		12		/* ... its source address */
#define GRH_SGID	8		/* the IPv6 header's source, the GRH's SGID */

/* An IPv4 header without options whose checksum adds up */
static int ip4_header_ok(const uint8_t *h)
{
	uint32_t sum = 0;
	int i;

	if (h[0] != 0x45)
		return 0;
	for (i = 0; i < 20; i += 2)
		sum += (uint32_t)h[i] << 8 | h[i + 1];
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return sum == 0xffff;
}

/* The source of @grh as a 16-byte address; 0, or -1 if it has none */
static int grh_source(const uint8_t *grh, uint8_t addr[16])
{
	const uint8_t *ip4 = grh + GRH_IP4;

	if (grh[0] >> 4 != 6 ? ip4[0] >> 4 == 4 : ip4_header_ok(ip4)) {
		memset(addr, 0, 10);
		addr[10] = 0xff;
		addr[11] = 0xff;
		memcpy(addr + 12, ip4 + IP4_SRC, 4);
		return 0;
	}
	if (grh[0] >> 4 != 6)
		return -1;
	memcpy(addr, grh + GRH_SGID, 16);
	return 0;
}

static struct cli_from_src *find(struct cli_from *f, const uint8_t *addr)
{
	size_t i;

	/* datagrams come in runs from one sender: the last one first */
	if (f->last < f->n && !memcmp(f->v[f->last].addr, addr, 16))
		return &f->v[f->last];
	for (i = 0; i < f->n; i++) {
		if (!memcmp(f->v[i].addr, addr, 16)) {
			f->last = i;
			return &f->v[i];
		}
	}
	return NULL;
}

static struct cli_from_src *add(struct cli_from *f, const uint8_t *addr)
{
	struct cli_from_src *v;
	size_t cap;

	if (f->n == CLI_FROM_MAX)
		return NULL;
	if (f->n == f->cap) {
		cap = f->cap ? 2 * f->cap : 16;
		v = realloc(f->v, cap * sizeof(*v));
		if (!v)
			return NULL;
		f->v = v;
		f->cap = cap;
	}
	v = &f->v[f->n];
	memcpy(v->addr, addr, 16);
	v->datagrams = 0;
	f->last = f->n++;
	return v;
}

void from_add(struct cli_from *f, const uint8_t *grh, int has_grh)
{
	struct cli_from_src *s = NULL;
	uint8_t addr[16];

	if (has_grh && !grh_source(grh, addr)) {
		s = find(f, addr);
		if (!s)
			s = add(f, addr);
	}
	if (s)
		s->datagrams++;
	else
		f->unknown++;
}

void from_free(struct cli_from *f)
{
	free(f->v);
	memset(f, 0, sizeof(*f));
}

void from_name(const struct cli_from *f, size_t i, char *buf, size_t len)
{
	static const uint8_t v4mapped[12] = { [10] = 0xff, [11] = 0xff };
	const uint8_t *a = f->v[i].addr;

	if (!memcmp(a, v4mapped, sizeof(v4mapped)))
		inet_ntop(AF_INET, a + 12, buf, (socklen_t)len);
	else
		inet_ntop(AF_INET6, a, buf, (socklen_t)len);
}
