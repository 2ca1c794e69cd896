// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * mcm_insn_plugin: a QEMU TCG plugin that counts the guest's instructions,
 * user and kernel apart, summed over every vCPU, and writes the running
 * totals each time the guest executes a marker (tools/testing/bench/
 * mcm_mark.h). make bench loads it into every bench VM; the differences
 * between a program's markers are its phases' instruction counts, which
 * neither host load nor TCG's translation of first-run code changes.
 *
 *   qemu-system-x86_64 ... -plugin mcm_insn_plugin.so,out=FILE
 *
 * Output lines (FILE; stderr without out=):
 *   MARK tag arg vcpu user kernel c0 i0 c1 i1 c2 i2 c3 i3 unmatched
 *	at a boundary marker: the tag in force, the marker's argument and
 *	vCPU, the instructions executed so far on all vCPUs in user and in
 *	kernel mode (up to and including the marker), and for each measured
 *	call kind w (0-3, the kernel's 'K'/'k' markers) the calls closed so
 *	far and the instructions executed on the calling vCPU between their
 *	enter and exit markers; unmatched: exits with no enter on that vCPU
 *	(the task moved between vCPUs inside the call), not counted. One
 *	call of a kind is measured at a time: an enter drops any call of its
 *	kind still open on another vCPU. A call's count is everything its
 *	vCPU ran meanwhile: interrupts, and other tasks while it slept
 *   END user kernel markers
 *	when QEMU exits
 *
 * With profile=PATH, it also counts what each translation block executed
 * while the guest's 'P' markers had profiling on (arg 1: on, 0: off), and
 * writes "PROF address instructions" for every block start that ran then
 * to PATH at exit (scripts/insn-profile maps them to the guest's symbols).
 *
 * Counting: a callback at each translation block's start adds the block's
 * instruction count to its vCPU's user or kernel total (by the block's
 * address: the upper half is the kernel's). A marker's own callback takes
 * off the instructions of its block that follow it, so a boundary is exact
 * to the instruction. A block left early (an exception or fault inside it)
 * was still counted whole: the counts are exact for code that does not
 * fault, and slightly high for code that does; likewise, under -icount,
 * a block that stops at an I/O access (it is translated again from there)
 * counts the rest of the block twice (Documentation/benchmark.rst).
 * Reading another vCPU's totals while it runs is a snapshot of a moving
 * count: instructions that vCPU executes concurrently, in the
 * window or not, belong to whichever side of the snapshot they fall on.
 *
 * QEMU's plugin API, version 1 (Debian 12 ships QEMU 7.2 with plugins
 * enabled but no header): qemu_plugin_v1.h declares what this plugin calls.
 */
#include <inttypes.h>
#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "qemu_plugin_v1.h"

/* ------------------------------------------------------------ counting */
#define KINDS	4	/* measured call kinds ('K'/'k' markers' argument) */

struct vcpu {
	uint64_t user;		/* written by this vCPU's thread only */
	uint64_t kernel;
	uint64_t enter[KINDS];	/* its total at an open 'K' marker */
	unsigned int open;	/* bit w: a 'K' of kind w is open */
} __attribute__((aligned(64)));

static struct vcpu *vcpus;
static unsigned int nr_vcpus;
static FILE *out;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static uint32_t tag;			/* under lock */
static uint64_t calls[KINDS], insns[KINDS], unmatched;	/* under lock */
static uint64_t markers;		/* under lock */

/* profiling: one record per translated block, kept to the end */
struct tbprof {
	uint64_t pc;
	uint64_t execs;		/* while profiling was on */
	uint32_t n;		/* instructions */
	uint32_t kernel;
};

static FILE *prof_out;
static int profiling;			/* 'P' markers; read racily */
static struct tbprof **profs;		/* under lock */
static size_t nr_profs, max_profs;

/* a block's callback data: its instruction count, and 1 for the kernel */
#define TB_KERNEL	1u

/* Add a block's @n instructions to @vcpu's user or kernel total */
static inline void count(unsigned int vcpu, uint64_t n, bool kernel)
{
	if (vcpu >= nr_vcpus)
		return;
	if (kernel)
		vcpus[vcpu].kernel += n;
	else
		vcpus[vcpu].user += n;
}

static void tb_exec(unsigned int vcpu, void *udata)
{
	uintptr_t d = (uintptr_t)udata;

	count(vcpu, d >> 1, d & TB_KERNEL);
}

static void tb_exec_prof(unsigned int vcpu, void *udata)
{
	struct tbprof *p = udata;

	count(vcpu, p->n, p->kernel);
	if (__atomic_load_n(&profiling, __ATOMIC_RELAXED))
		__atomic_fetch_add(&p->execs, 1, __ATOMIC_RELAXED);
}

/*
 * A marker's callback data: the instructions of its block after it (bits
 * 24 and up), its block's mode (bit 16), kind (bits 8-15), argument (0-7).
 */
static void mark_exec(unsigned int vcpu, void *udata)
{
	uintptr_t d = (uintptr_t)udata;
	uint64_t after = d >> 24, user = 0, kernel = 0, now;
	bool in_kernel = d >> 16 & 1;
	unsigned int kind = d >> 8 & 0xff, arg = d & 0xff, i;
	struct vcpu *c;

	if (vcpu >= nr_vcpus)
		return;
	c = &vcpus[vcpu];
	now = c->user + c->kernel - after;
	pthread_mutex_lock(&lock);
	markers++;
	switch (kind) {
	case 'R':
		tag = 0;
		break;
	case 'P':
		__atomic_store_n(&profiling, arg & 1, __ATOMIC_RELAXED);
		break;
	case 'T':
		tag = tag << 1 | (arg & 1);
		break;
	case 'K':
		if (!in_kernel || arg >= KINDS)
			break;
		/*
		 * One measured call of a kind at a time: an enter closes what
		 * another vCPU left open (a call whose exit ran elsewhere), so
		 * that no later exit there matches it.
		 */
		for (i = 0; i < nr_vcpus; i++)
			vcpus[i].open &= ~(1u << arg);
		c->enter[arg] = now;
		c->open |= 1u << arg;
		break;
	case 'k':
		if (!in_kernel || arg >= KINDS)
			break;
		if (c->open & 1u << arg) {
			c->open &= ~(1u << arg);
			calls[arg]++;
			insns[arg] += now - c->enter[arg];
		} else {
			unmatched++;
		}
		break;
	case 'B':
		for (i = 0; i < nr_vcpus; i++) {
			user += __atomic_load_n(&vcpus[i].user,
						__ATOMIC_RELAXED);
			kernel += __atomic_load_n(&vcpus[i].kernel,
						  __ATOMIC_RELAXED);
		}
		if (in_kernel)
			kernel -= after;
		else
			user -= after;
		fprintf(out, "MARK %" PRIu32 " %u %u %" PRIu64 " %" PRIu64,
			tag, arg, vcpu, user, kernel);
		for (i = 0; i < KINDS; i++)
			fprintf(out, " %" PRIu64 " %" PRIu64, calls[i],
				insns[i]);
		fprintf(out, " %" PRIu64 "\n", unmatched);
		fflush(out);
		break;
	}
	pthread_mutex_unlock(&lock);
}

/* 0f 1f 80 <arg> <kind> 43 4d: nopl disp32(%rax), disp32 'M' 'C' kind arg */
static bool is_marker(const uint8_t *b, size_t len)
{
	return len == 7 && b[0] == 0x0f && b[1] == 0x1f && b[2] == 0x80 &&
	       b[5] == 0x43 && b[6] == 0x4d;
}

/* A profiling record for a new block, or NULL (then it is not profiled) */
static struct tbprof *prof_new(struct qemu_plugin_tb *tb, size_t n,
			       unsigned int kernel)
{
	struct tbprof *p = calloc(1, sizeof(*p)), **q;

	if (!p)
		return NULL;
	p->pc = qemu_plugin_tb_vaddr(tb);
	p->n = n;
	p->kernel = kernel;
	pthread_mutex_lock(&lock);
	if (nr_profs == max_profs) {
		size_t m = max_profs ? 2 * max_profs : 65536;

		q = realloc(profs, m * sizeof(*q));
		if (q) {
			profs = q;
			max_profs = m;
		}
	}
	if (nr_profs < max_profs) {
		profs[nr_profs++] = p;
	} else {
		free(p);
		p = NULL;
	}
	pthread_mutex_unlock(&lock);
	return p;
}

static void tb_trans(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	size_t n = qemu_plugin_tb_n_insns(tb), i;
	uintptr_t mode = qemu_plugin_tb_vaddr(tb) >> 63;
	struct tbprof *p;

	(void)id;
	p = prof_out ? prof_new(tb, n, mode) : NULL;
	if (p)
		qemu_plugin_register_vcpu_tb_exec_cb(tb, tb_exec_prof,
						     QEMU_PLUGIN_CB_NO_REGS, p);
	else
		qemu_plugin_register_vcpu_tb_exec_cb(tb, tb_exec,
						     QEMU_PLUGIN_CB_NO_REGS,
						     (void *)(n << 1 | mode));
	for (i = 0; i < n; i++) {
		struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
		const uint8_t *b = qemu_plugin_insn_data(insn);
		uintptr_t d;

		if (!is_marker(b, qemu_plugin_insn_size(insn)))
			continue;
		d = (uintptr_t)(n - 1 - i) << 24 | mode << 16 |
		    (uintptr_t)b[4] << 8 | b[3];
		qemu_plugin_register_vcpu_insn_exec_cb(insn, mark_exec,
						       QEMU_PLUGIN_CB_NO_REGS,
						       (void *)d);
	}
}

static void at_exit(qemu_plugin_id_t id, void *udata)
{
	uint64_t user = 0, kernel = 0;
	unsigned int i;

	(void)id;
	(void)udata;
	for (i = 0; i < nr_vcpus; i++) {
		user += vcpus[i].user;
		kernel += vcpus[i].kernel;
	}
	pthread_mutex_lock(&lock);
	fprintf(out, "END %" PRIu64 " %" PRIu64 " %" PRIu64 "\n", user,
		kernel, markers);
	fflush(out);
	for (i = 0; prof_out && i < nr_profs; i++)
		if (profs[i]->execs)
			fprintf(prof_out, "PROF %" PRIx64 " %" PRIu64 "\n",
				profs[i]->pc, profs[i]->execs * profs[i]->n);
	if (prof_out)
		fflush(prof_out);
	pthread_mutex_unlock(&lock);
}

QEMU_PLUGIN_EXPORT int qemu_plugin_version = 1;

QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id,
					   const struct qemu_info *info,
					   int argc, char **argv)
{
	const char *path = NULL, *prof_path = NULL;
	int i;

	if (info->version.cur != 1) {
		qemu_plugin_outs("mcm_insn_plugin: needs plugin API version 1\n");
		return -1;
	}
	if (!info->system_emulation || strcmp(info->target_name, "x86_64")) {
		qemu_plugin_outs("mcm_insn_plugin: x86_64 system emulation only\n");
		return -1;
	}
	for (i = 0; i < argc; i++) {
		if (!strncmp(argv[i], "out=", 4)) {
			path = argv[i] + 4;
		} else if (!strncmp(argv[i], "profile=", 8)) {
			prof_path = argv[i] + 8;
		} else {
			fprintf(stderr, "mcm_insn_plugin: unknown option %s\n",
				argv[i]);
			return -1;
		}
	}
	out = path ? fopen(path, "w") : stderr;
	if (!out) {
		perror(path);
		return -1;
	}
	if (prof_path) {
		prof_out = fopen(prof_path, "w");
		if (!prof_out) {
			perror(prof_path);
			return -1;
		}
	}
	nr_vcpus = info->system.max_vcpus > 0 ? info->system.max_vcpus : 1;
	vcpus = aligned_alloc(64, nr_vcpus * sizeof(*vcpus));
	if (!vcpus)
		return -1;
	memset(vcpus, 0, nr_vcpus * sizeof(*vcpus));
	qemu_plugin_register_vcpu_tb_trans_cb(id, tb_trans);
	qemu_plugin_register_atexit_cb(id, at_exit, NULL);
	return 0;
}
