/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * mcm_mark.h: the marker instructions that make bench programs' phases
 * visible to the instruction counter (tools/testing/bench/mcm_insn_plugin.c,
 * a QEMU TCG plugin; Documentation/benchmark.rst, "Instruction counts").
 *
 * A marker is one x86 multi-byte NOP, "nopl disp32(%rax)", whose 32-bit
 * displacement spells 'M' 'C' in its top bytes, a kind and an argument:
 *
 *	0f 1f 80 <arg> <kind> 43 4d
 *
 * It does nothing on a CPU; under the plugin, executing it is an event.
 * Kinds:
 *	'R'	start a new tag (the tag becomes 0)
 *	'T'	shift one bit into the tag (arg 0 or 1), most significant first
 *	'B'	a phase boundary (arg: its number): the plugin writes the
 *		instructions counted so far on every vCPU, user and kernel,
 *		with the current tag
 *	'K', 'k' (kernel only) enter and leave a measured call (arg: what),
 *		see rdma_mcm_mark() in drivers/rdma_mcm_internal.h
 *	'P'	profiling on (arg 1) or off (0): with the plugin's profile=,
 *		what each code address executed meanwhile
 *
 * A program names its run with a tag (mcm_mark_tag()) and prints the tag
 * beside its results; the host pairs the two.
 */
#ifndef MCM_MARK_H
#define MCM_MARK_H

#include <stdint.h>

/*
 * @kind and @arg must be constants: they are the instruction's bytes (so
 * build with optimisation, which makes them constants after inlining).
 * The tag is the plugin's, not the program's: one tagged program at a time.
 */
#define MCM_MARK(kind, arg) mcm_mark(kind, arg)

static inline __attribute__((always_inline)) void mcm_mark(const uint8_t kind,
							   const uint8_t arg)
{
#if defined(__x86_64__)
	__asm__ volatile(".byte 0x0f, 0x1f, 0x80, %c0, %c1, 0x43, 0x4d"
			 : : "i" (arg), "i" (kind) : "memory");
#else
	(void)kind;
	(void)arg;
#endif
}

#define MCM_MARK_RESET		'R'
#define MCM_MARK_TAG_BIT	'T'
#define MCM_MARK_BOUNDARY	'B'
#define MCM_MARK_ENTER		'K'
#define MCM_MARK_EXIT		'k'
#define MCM_MARK_PROFILE	'P'

/* Name what follows, until the next tag, by @tag (32 bits). */
static inline void mcm_mark_tag(uint32_t tag)
{
	int i;

	MCM_MARK(MCM_MARK_RESET, 0);
	for (i = 31; i >= 0; i--) {
		if (tag >> i & 1)
			MCM_MARK(MCM_MARK_TAG_BIT, 1);
		else
			MCM_MARK(MCM_MARK_TAG_BIT, 0);
	}
}

#endif /* MCM_MARK_H */
