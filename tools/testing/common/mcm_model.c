// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * mcm_model: the address rules of a join (mcm_model.h).
 */
#include <errno.h>
#include <string.h>
#include <sys/socket.h>
#include <arpa/inet.h>

#include <rdma/rdma_mcm_abi.h>

#include "mcm_model.h"
#include "mcm_test.h"

/*
 * rdma_mcm_addr_parse() of @len bytes at @a, at most RDMA_MCM_ADDR_SIZE
 * (the ioctl's): 0, EINVAL (a length out of range, or short of the
 * family's sockaddr) or EAFNOSUPPORT (a family the ABI does not take).
 * *@family is set to the address's family once @len holds it.
 */
int addr_errno(const void *a, uint32_t len, int *family)
{
	uint16_t f;

	if (len > RDMA_MCM_ADDR_SIZE || len < sizeof(f))
		return EINVAL;
	memcpy(&f, a, sizeof(f));
	*family = f;
	if (!family_len(f))
		return EAFNOSUPPORT;
	return len < family_len(f) ? EINVAL : 0;
}

/*
 * A source the manager takes (uapi.rst): unicast, that is no multicast,
 * 0.0.0.0/8 or ::, and not 255.255.255.255. @ip holds the 4 bytes of an
 * AF_INET address, else the 16 of an AF_INET6 one.
 */
bool source_unicast(int family, const uint8_t *ip)
{
	static const uint8_t zero[16];
	uint32_t a;

	if (family == AF_INET6)
		return memcmp(ip, zero, 16) && ip[0] != 0xff;
	memcpy(&a, ip, 4);
	a = ntohl(a);
	return (a >> 24) != 0 && (a >> 28) != 0xe && a != 0xffffffff;
}
