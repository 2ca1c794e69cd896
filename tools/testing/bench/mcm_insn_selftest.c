// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * mcm_insn_selftest: the instruction counter's own test. For each N on
 * the command line, a loop of exactly 2N + 1 user instructions between
 * two boundary markers (tools/testing/bench/mcm_mark.h), under a tag of
 * its own; prints "SELFTEST tag=T n=N expect=E", where E counts every
 * instruction after the first marker up to and including the second:
 * what the plugin must report as that window's user instructions.
 *
 *   mcm_insn_selftest N...
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "mcm_mark.h"

int main(int argc, char **argv)
{
	int i;

	if (argc < 2) {
		fprintf(stderr, "usage: %s N...\n", argv[0]);
		return 2;
	}
	for (i = 1; i < argc; i++) {
		uint64_t n = strtoull(argv[i], NULL, 0), left;
		uint32_t tag = (uint32_t)getpid() << 8 | (uint32_t)i;

		if (!n) {
			fprintf(stderr, "N must be at least 1\n");
			return 2;
		}
		mcm_mark_tag(tag);
		/* marker, mov, N x (dec, jnz), marker */
		__asm__ volatile(".byte 0x0f, 0x1f, 0x80, 0, %c2, 0x43, 0x4d\n\t"
				 "mov %1, %0\n"
				 "1:\n\t"
				 "dec %0\n\t"
				 "jnz 1b\n\t"
				 ".byte 0x0f, 0x1f, 0x80, 1, %c2, 0x43, 0x4d"
				 : "=&r" (left) : "r" (n), "i" (MCM_MARK_BOUNDARY)
				 : "cc", "memory");
		printf("SELFTEST tag=%u n=%llu expect=%llu\n", tag,
		       (unsigned long long)n,
		       (unsigned long long)(2 * n + 2));
	}
	return 0;
}
