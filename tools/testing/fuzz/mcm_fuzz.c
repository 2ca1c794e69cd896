// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * mcm_fuzz: a random and structure-aware fuzzer of the /dev/rdma_mcm ABI
 * (include/uapi/rdma/rdma_mcm_abi.h, Documentation/uapi.rst).
 *
 * Each worker thread keeps a few open files of the device and the contexts
 * and membership handles it got from them, and issues ioctl(), read() and
 * poll() calls. Every ioctl starts from a valid argument (a join of a group
 * of a small pool on a live context, a leave of a real handle, a list or a
 * batch into a real array, ...) and then gets up to three random
 * mutations: flipped bits and bytes, reserved fields, flags, address
 * lengths and families, stale or random context ids and handles, batch and
 * list counts, starts and entry sizes, pointers (the argument itself or
 * its array) to NULL, to unmapped, read-only or kernel memory or into a
 * buffer that runs into a guard page, and command numbers with another
 * size (a zero or non-zero tail), direction, number or type. A racer
 * thread per worker closes the worker's files, or dup2()s a fresh file of
 * the device or /dev/null over them, while calls are in flight, and
 * interrupts blocking reads.
 *
 * Output on stdout, after the run:
 *   ok COMMAND COUNT            successful calls
 *   errno COMMAND ENAME COUNT   failed calls, by errno (the module's)
 *   raced COMMAND ENAME COUNT   EBADF, and ENOTTY of a file the racer
 *                               closed or replaced (the VFS's, not the
 *                               module's)
 *   calls N ok N failed N seconds S seed SEED
 * COMMAND is VERSION ... BATCH_LEAVE, READ, POLL or UNKNOWN (a number the
 * module does not know). The seed is printed first, so that --seed replays
 * a run (up to the interleaving of the threads). The exit status is
 * non-zero only when the fuzzer itself fails (no device, no memory).
 *
 * Needs the bench: 192.0.2.1 (rxe0) and 192.0.2.2 (rxe1), by default.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <rdma/rdma_mcm_abi.h>

#define DEV_PATH	"/dev/" RDMA_MCM_DEVICE_NAME
#define MAX_SRCS	16
#define MAX_THREADS	64
#define NR_SLOTS	3	/* open files per worker */
#define NR_CTX		8	/* contexts tracked per file */
#define NR_MEMBERS	64	/* memberships tracked per file */
#define NR_GROUPS	64	/* 239.77.0.0/26, ff0e::77:0/122, AF_IB */
#define MAX_BATCH	16	/* entries of a valid batch */
#define MAX_IOC_SIZE	16383	/* _IOC_SIZEMASK */
#define ARG_ROOM	(20 * 1024)	/* >= MAX_IOC_SIZE + 1, page multiple */
#define ARR_ROOM	(128 * 1024)	/* arrays and read() buffers */
#define MAX_ERRNO	256
#define KERNEL_PTR	0xffff888000000000ULL
#define EV_SIZE		sizeof(struct rdma_mcm_event)

#define ARRAY_LEN(a)	(sizeof(a) / sizeof((a)[0]))

/* What the histogram counts: the nine commands, read(), poll(), others. */
enum {
	C_VERSION, C_CREATE_CTX, C_DESTROY_CTX, C_JOIN, C_LEAVE, C_QUERY,
	C_LIST, C_BATCH_JOIN, C_BATCH_LEAVE, C_READ, C_POLL, C_UNKNOWN,
	NR_CMDS
};

#define NR_IOCTLS	C_READ

static const char * const cmd_name[NR_CMDS] = {
	"VERSION", "CREATE_CTX", "DESTROY_CTX", "JOIN", "LEAVE", "QUERY",
	"LIST", "BATCH_JOIN", "BATCH_LEAVE", "READ", "POLL", "UNKNOWN",
};

static const unsigned int cmd_num[NR_IOCTLS] = {
	RDMA_MCM_IOC_VERSION, RDMA_MCM_IOC_CREATE_CTX,
	RDMA_MCM_IOC_DESTROY_CTX, RDMA_MCM_IOC_JOIN, RDMA_MCM_IOC_LEAVE,
	RDMA_MCM_IOC_QUERY, RDMA_MCM_IOC_LIST, RDMA_MCM_IOC_BATCH_JOIN,
	RDMA_MCM_IOC_BATCH_LEAVE,
};

/* How often each kind of call is made (out of their sum). */
static const unsigned char cmd_weight[NR_CMDS] = {
	[C_VERSION] = 3, [C_CREATE_CTX] = 6, [C_DESTROY_CTX] = 3,
	[C_JOIN] = 22, [C_LEAVE] = 16, [C_QUERY] = 10, [C_LIST] = 8,
	[C_BATCH_JOIN] = 7, [C_BATCH_LEAVE] = 6, [C_READ] = 10,
	[C_POLL] = 5, [C_UNKNOWN] = 4,
};

/*
 * Where the fields of a struct are, for the mutations: offsets plus one,
 * so that 0 means "no such field".
 */
struct layout {
	unsigned short size;
	unsigned short ctx_id, handle, flags, addr_len, addr, reserved;
	unsigned short entries, count, entry_size, start, done;
};

#define OFF(type, member)	(offsetof(struct type, member) + 1)

static const struct layout layouts[NR_IOCTLS] = {
	[C_VERSION] = {
		.size = sizeof(struct rdma_mcm_version),
		.reserved = OFF(rdma_mcm_version, reserved),
	},
	[C_CREATE_CTX] = {
		.size = sizeof(struct rdma_mcm_create_ctx),
		.ctx_id = OFF(rdma_mcm_create_ctx, ctx_id),
		.flags = OFF(rdma_mcm_create_ctx, flags),
		.addr_len = OFF(rdma_mcm_create_ctx, src_len),
		.addr = OFF(rdma_mcm_create_ctx, src),
		.reserved = OFF(rdma_mcm_create_ctx, reserved),
	},
	[C_DESTROY_CTX] = {
		.size = sizeof(struct rdma_mcm_destroy_ctx),
		.ctx_id = OFF(rdma_mcm_destroy_ctx, ctx_id),
		.reserved = OFF(rdma_mcm_destroy_ctx, reserved),
	},
	[C_JOIN] = {
		.size = sizeof(struct rdma_mcm_join),
		.ctx_id = OFF(rdma_mcm_join, ctx_id),
		.handle = OFF(rdma_mcm_join, handle),
		.flags = OFF(rdma_mcm_join, join_flags),
		.addr_len = OFF(rdma_mcm_join, addr_len),
		.addr = OFF(rdma_mcm_join, addr),
	},
	[C_LEAVE] = {
		.size = sizeof(struct rdma_mcm_leave),
		.ctx_id = OFF(rdma_mcm_leave, ctx_id),
		.handle = OFF(rdma_mcm_leave, handle),
		.flags = OFF(rdma_mcm_leave, flags),
		.addr_len = OFF(rdma_mcm_leave, addr_len),
		.addr = OFF(rdma_mcm_leave, addr),
		.reserved = OFF(rdma_mcm_leave, reserved),
	},
	[C_QUERY] = {
		.size = sizeof(struct rdma_mcm_query),
		.ctx_id = OFF(rdma_mcm_query, ctx_id),
		.handle = OFF(rdma_mcm_query, handle),
		.reserved = OFF(rdma_mcm_query, member.status),
	},
	[C_LIST] = {
		.size = sizeof(struct rdma_mcm_list),
		.ctx_id = OFF(rdma_mcm_list, ctx_id),
		.entries = OFF(rdma_mcm_list, entries),
		.count = OFF(rdma_mcm_list, count),
		.entry_size = OFF(rdma_mcm_list, entry_size),
		.start = OFF(rdma_mcm_list, start),
		.reserved = OFF(rdma_mcm_list, reserved),
	},
	[C_BATCH_JOIN] = {
		.size = sizeof(struct rdma_mcm_batch),
		.ctx_id = OFF(rdma_mcm_batch, ctx_id),
		.entries = OFF(rdma_mcm_batch, entries),
		.count = OFF(rdma_mcm_batch, count),
		.entry_size = OFF(rdma_mcm_batch, entry_size),
		.done = OFF(rdma_mcm_batch, done),
	},
	[C_BATCH_LEAVE] = {
		.size = sizeof(struct rdma_mcm_batch),
		.ctx_id = OFF(rdma_mcm_batch, ctx_id),
		.entries = OFF(rdma_mcm_batch, entries),
		.count = OFF(rdma_mcm_batch, count),
		.entry_size = OFF(rdma_mcm_batch, entry_size),
		.done = OFF(rdma_mcm_batch, done),
	},
};

static const struct layout join_entry_layout = {
	.size = sizeof(struct rdma_mcm_join_entry),
	.handle = OFF(rdma_mcm_join_entry, handle),
	.flags = OFF(rdma_mcm_join_entry, join_flags),
	.addr_len = OFF(rdma_mcm_join_entry, addr_len),
	.addr = OFF(rdma_mcm_join_entry, addr),
	.reserved = OFF(rdma_mcm_join_entry, result),
};

static const struct layout leave_entry_layout = {
	.size = sizeof(struct rdma_mcm_leave_entry),
	.handle = OFF(rdma_mcm_leave_entry, handle),
	.flags = OFF(rdma_mcm_leave_entry, flags),
	.addr_len = OFF(rdma_mcm_leave_entry, addr_len),
	.addr = OFF(rdma_mcm_leave_entry, addr),
	.reserved = OFF(rdma_mcm_leave_entry, reserved),
};

/* The mutations, and how often each is picked. */
enum {
	M_BITFLIP, M_BYTE, M_RESERVED, M_FLAGS, M_ADDR, M_CTX, M_HANDLE,
	M_COUNT, M_ENTRY_SIZE, M_START, M_ENTRY, M_ARR_PTR, M_ARG_PTR,
	M_SIZE, M_TAIL, M_DIR, M_NR, M_TYPE, NR_MUTATIONS
};

static const unsigned char mut_weight[NR_MUTATIONS] = {
	[M_BITFLIP] = 4, [M_BYTE] = 3, [M_RESERVED] = 3, [M_FLAGS] = 3,
	[M_ADDR] = 6, [M_CTX] = 3, [M_HANDLE] = 3, [M_COUNT] = 3,
	[M_ENTRY_SIZE] = 3, [M_START] = 2, [M_ENTRY] = 4, [M_ARR_PTR] = 3,
	[M_ARG_PTR] = 3, [M_SIZE] = 2, [M_TAIL] = 2, [M_DIR] = 1, [M_NR] = 1,
	[M_TYPE] = 1,
};

/* Where an argument or an array is passed from. */
enum { W_NORMAL, W_UNALIGNED, W_GUARD, W_RO, W_BAD };

/* The state of a slot's descriptor. */
enum { S_DEV, S_NULL, S_CLOSED };

/* sockaddr_ib, which userspace headers do not have */
struct fuzz_sockaddr_ib {
	uint16_t sib_family;
	uint16_t sib_pkey;
	uint32_t sib_flowinfo;
	uint8_t sib_addr[16];
	uint64_t sib_sid;
	uint64_t sib_sid_mask;
	uint64_t sib_scope_id;
};

struct src {
	struct sockaddr_storage ss;
	uint32_t len;
};

struct rng {
	uint64_t s;
};

struct ctx {
	uint32_t id;
	int family;
};

struct member {
	uint32_t ctx_id;
	uint32_t handle;
	int group;
};

/*
 * An open file of a worker. The racer changes @fd and @state under @lock,
 * bumping @gen before and after; the worker reads them without the lock
 * and compares @gen around a call to know whether the racer got in.
 */
struct slot {
	pthread_mutex_t lock;
	int fd;
	int state;
	unsigned long gen;
	int nonblock;
	/* the ids of @ctx, for other workers calling into this file */
	uint32_t pub_ctx[NR_CTX];
	int pub_family[NR_CTX];
	/* the worker's alone: */
	unsigned long seen_gen;
	struct ctx ctx[NR_CTX];
	int nr_ctx;
	struct member mem[NR_MEMBERS];
	int nr_mem;
};

struct stats {
	unsigned long calls;
	unsigned long ok[NR_CMDS];
	unsigned long err[NR_CMDS][MAX_ERRNO];
	unsigned long raced[NR_CMDS][MAX_ERRNO];
};

/* One call being built. */
struct call {
	int op;			/* the command built */
	unsigned int ioc;	/* the command number passed */
	size_t usize;		/* its _IOC_SIZE */
	int arg_where, arr_where;
	size_t arg_cut, arr_cut;	/* bytes cut off by the guard page */
	uint8_t *argp;		/* what is passed */
	uint8_t *arr;		/* the array (at the worker's @ge) */
	size_t arr_len;		/* bytes of it that were built */
	uint32_t nr_built;	/* entries built */
	uint32_t entry_size;	/* as built */
	struct ctx ctx;
	int group;
	int egroup[MAX_BATCH];
};

struct worker {
	int index;
	pthread_t thread, racer;
	struct rng rng, racer_rng;
	struct slot slot[NR_SLOTS];
	int cur;		/* the slot in use: the racer aims at it */
	int in_block;		/* in a blocking read(): the racer kicks it */
	int done;
	uint8_t *abuf;		/* the argument is built here */
	size_t dirty;		/* bytes of @abuf to clear */
	uint8_t *ga, *ga_end;	/* argument room, a guard page at the end */
	uint8_t *ge, *ge_end;	/* array room, a guard page at the end */
	uint8_t *ro;		/* read-only: arguments, then arrays */
	int ro_open;
	uint32_t stale_ctx, stale_handle;
	struct slot view;	/* a peer's slot, as borrow() sees it */
	struct stats *st;
};

/* Settings */
static uint64_t seed;
static unsigned long max_calls = 20000;
static unsigned int max_seconds;
static int nr_threads = 2;
static struct src srcs[MAX_SRCS];
static int nr_srcs;

/* Shared state */
static struct worker *workers;
static size_t page_size;
static uint8_t *none_page;
static int null_fd = -1;
static unsigned long issued;
static int stopping;
static double t_start;
static unsigned int progress_shown;

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void die(const char *what)
{
	perror(what);
	exit(1);
}

/* ------------------------------------------------------------ random */

static uint64_t splitmix64(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static void rng_init(struct rng *r, uint64_t s)
{
	r->s = splitmix64(&s);
	if (!r->s)
		r->s = 1;
}

/* xorshift64* */
static uint64_t rnd(struct rng *r)
{
	r->s ^= r->s >> 12;
	r->s ^= r->s << 25;
	r->s ^= r->s >> 27;
	return r->s * 0x2545f4914f6cdd1dULL;
}

static uint32_t rnd_below(struct rng *r, uint32_t n)
{
	return n ? (uint32_t)((rnd(r) >> 32) % n) : 0;
}

static int one_in(struct rng *r, uint32_t n)
{
	return rnd_below(r, n) == 0;
}

static int pick_weighted(struct rng *r, const unsigned char *w, int n)
{
	unsigned int sum = 0, x;
	int i;

	for (i = 0; i < n; i++)
		sum += w[i];
	x = rnd_below(r, sum);
	for (i = 0; i < n; i++) {
		if (x < w[i])
			return i;
		x -= w[i];
	}
	return n - 1;
}

/* A 32-bit value likely to sit on a boundary. */
static uint32_t interesting32(struct rng *r)
{
	static const uint32_t v[] = {
		0, 1, 2, 3, 4, 7, 8, 15, 16, 0x7f, 0x80, 0xff, 0x100, 0x3fff,
		0x4000, 0x7fff, 0x8000, 0xffff, 0x10000, 0x10001, 0x7fffffff,
		0x80000000, 0xfffffffe, 0xffffffff,
	};

	if (one_in(r, 4))
		return (uint32_t)rnd(r);
	return v[rnd_below(r, ARRAY_LEN(v))];
}

/* ------------------------------------------------------------ fields */

static void put32(uint8_t *base, unsigned int off1, uint32_t v)
{
	memcpy(base + off1 - 1, &v, sizeof(v));
}

static uint32_t get32(const uint8_t *base, unsigned int off1)
{
	uint32_t v;

	memcpy(&v, base + off1 - 1, sizeof(v));
	return v;
}

static void put64(uint8_t *base, unsigned int off1, uint64_t v)
{
	memcpy(base + off1 - 1, &v, sizeof(v));
}

/* ------------------------------------------------------------ addresses */

static uint32_t family_len(int family)
{
	switch (family) {
	case AF_INET:
		return sizeof(struct sockaddr_in);
	case AF_INET6:
		return sizeof(struct sockaddr_in6);
	case AF_IB:
		return sizeof(struct fuzz_sockaddr_ib);
	default:
		return 16;
	}
}

/* Group @i of the pool, of @family, into @addr; returns its length. */
static uint32_t put_group(uint8_t *addr, int family, unsigned int i)
{
	struct sockaddr_in sin = { .sin_family = AF_INET };
	struct sockaddr_in6 sin6 = { .sin6_family = AF_INET6 };
	struct fuzz_sockaddr_ib sib = { .sib_family = AF_IB };

	i %= NR_GROUPS;
	memset(addr, 0, RDMA_MCM_ADDR_SIZE);
	switch (family) {
	case AF_INET:
		sin.sin_addr.s_addr = htonl(0xef4d0000 | i);
		memcpy(addr, &sin, sizeof(sin));
		return sizeof(sin);
	case AF_INET6:
		sin6.sin6_addr.s6_addr[0] = 0xff;
		sin6.sin6_addr.s6_addr[1] = 0x0e;
		sin6.sin6_addr.s6_addr[13] = 0x77;
		sin6.sin6_addr.s6_addr[15] = i;
		memcpy(addr, &sin6, sizeof(sin6));
		return sizeof(sin6);
	case AF_IB:
		sib.sib_addr[0] = 0xff;
		sib.sib_addr[1] = 0x12;
		sib.sib_addr[13] = 0x77;
		sib.sib_addr[15] = i;
		memcpy(addr, &sib, sizeof(sib));
		return sizeof(sib);
	default:
		memcpy(addr, &family, sizeof(uint16_t));
		return 16;
	}
}

/* An address not in the pool: unicast, wildcard, odd multicast, ... */
static uint32_t put_odd_addr(struct rng *r, uint8_t *addr, int is_src)
{
	static const char * const v4[] = {
		"10.1.2.3", "127.0.0.1", "0.0.0.0", "255.255.255.255",
		"224.0.0.1", "224.0.0.0", "239.255.255.255", "192.0.2.255",
		"198.51.100.1", "192.0.2.1", "192.0.2.2", "239.77.0.1",
	};
	static const char * const v6[] = {
		"::", "::1", "fe80::1", "ff02::1", "ff0e::77:1", "2001:db8::1",
		"::ffff:192.0.2.2", "ff00::",
	};
	struct sockaddr_in sin = { .sin_family = AF_INET };
	struct sockaddr_in6 sin6 = { .sin6_family = AF_INET6 };
	struct fuzz_sockaddr_ib sib = { .sib_family = AF_IB };

	memset(addr, 0, RDMA_MCM_ADDR_SIZE);
	switch (rnd_below(r, is_src ? 4 : 3)) {
	case 0:
		inet_pton(AF_INET, v4[rnd_below(r, ARRAY_LEN(v4))],
			  &sin.sin_addr);
		sin.sin_port = one_in(r, 4) ? (uint16_t)rnd(r) : 0;
		if (one_in(r, 8))
			sin.sin_zero[rnd_below(r, 8)] = 1;
		memcpy(addr, &sin, sizeof(sin));
		return sizeof(sin);
	case 1:
		inet_pton(AF_INET6, v6[rnd_below(r, ARRAY_LEN(v6))],
			  &sin6.sin6_addr);
		if (one_in(r, 4))
			sin6.sin6_scope_id = rnd_below(r, 4);
		if (one_in(r, 8))
			sin6.sin6_flowinfo = (uint32_t)rnd(r);
		memcpy(addr, &sin6, sizeof(sin6));
		return sizeof(sin6);
	case 2:
		sib.sib_addr[0] = one_in(r, 2) ? 0xff : (uint8_t)rnd(r);
		sib.sib_addr[15] = (uint8_t)rnd(r);
		sib.sib_pkey = (uint16_t)rnd(r);
		memcpy(addr, &sib, sizeof(sib));
		return sizeof(sib);
	default:
		/* a source of the other bench device, or a group as source */
		return put_group(addr, AF_INET, rnd_below(r, NR_GROUPS));
	}
}

/* Mutate an address field and its length. */
static void mutate_addr(struct rng *r, uint8_t *addr, uint8_t *len_field,
			int family, int is_src)
{
	static const uint32_t lens[] = {
		0, 1, 2, 3, 15, 16, 27, 28, 47, 48, 127, 128, 129, 256, 4096,
		0x80000000, 0xffffffff,
	};
	static const int families[] = {
		AF_UNSPEC, AF_UNIX, AF_INET, AF_INET6, AF_IB, AF_PACKET,
		AF_NETLINK, 255, 0xffff,
	};
	uint32_t len;
	uint16_t fam;

	switch (rnd_below(r, 6)) {
	case 0:		/* the length */
		len = one_in(r, 4) ? (uint32_t)rnd(r) :
				     lens[rnd_below(r, ARRAY_LEN(lens))];
		memcpy(len_field, &len, sizeof(len));
		break;
	case 1:		/* a group of another family, of the right length */
		len = put_group(addr, families[rnd_below(r,
							 ARRAY_LEN(families))],
				rnd_below(r, NR_GROUPS));
		if (family == AF_INET && one_in(r, 2))
			len = put_group(addr, AF_INET6,
					rnd_below(r, NR_GROUPS));
		memcpy(len_field, &len, sizeof(len));
		break;
	case 2:		/* the family field alone */
		fam = one_in(r, 2) ? (uint16_t)rnd(r) :
			families[rnd_below(r, ARRAY_LEN(families))];
		memcpy(addr, &fam, sizeof(fam));
		break;
	case 3:		/* an address not in the pool */
		len = put_odd_addr(r, addr, is_src);
		memcpy(len_field, &len, sizeof(len));
		break;
	case 4:		/* a length one short of, or past, the family's */
		len = family_len(family) + rnd_below(r, 3) - 1;
		if (one_in(r, 2))
			len = family_len(family) + 1 +
			      rnd_below(r, RDMA_MCM_ADDR_SIZE -
					   family_len(family));
		memcpy(len_field, &len, sizeof(len));
		break;
	default:	/* garbage past the sockaddr, or in it */
		addr[rnd_below(r, RDMA_MCM_ADDR_SIZE)] = (uint8_t)rnd(r);
		break;
	}
}

/* ------------------------------------------------------------ slots */

static int open_dev(int nonblock)
{
	return open(DEV_PATH, O_RDWR | O_CLOEXEC | (nonblock ? O_NONBLOCK : 0));
}

static unsigned long load_ul(unsigned long *p)
{
	return __atomic_load_n(p, __ATOMIC_SEQ_CST);
}

static int load_int(int *p)
{
	return __atomic_load_n(p, __ATOMIC_SEQ_CST);
}

static void store_int(int *p, int v)
{
	__atomic_store_n(p, v, __ATOMIC_SEQ_CST);
}

static void bump_gen(struct slot *s)
{
	__atomic_add_fetch(&s->gen, 1, __ATOMIC_SEQ_CST);
}

/* Show the slot's contexts to the other workers. */
static void publish(struct slot *s)
{
	int i;

	for (i = 0; i < NR_CTX; i++) {
		__atomic_store_n(&s->pub_ctx[i],
				 i < s->nr_ctx ? s->ctx[i].id : 0,
				 __ATOMIC_RELAXED);
		__atomic_store_n(&s->pub_family[i], s->ctx[i].family,
				 __ATOMIC_RELAXED);
	}
}

/* A view of another worker's slot @s: its contexts, no memberships. */
static void borrow(struct slot *view, struct slot *s)
{
	uint32_t id;
	int i;

	view->nr_ctx = 0;
	view->nr_mem = 0;
	for (i = 0; i < NR_CTX; i++) {
		id = __atomic_load_n(&s->pub_ctx[i], __ATOMIC_RELAXED);
		if (!id)
			continue;
		view->ctx[view->nr_ctx].id = id;
		view->ctx[view->nr_ctx++].family =
			__atomic_load_n(&s->pub_family[i], __ATOMIC_RELAXED);
	}
}

static void forget_all(struct slot *s)
{
	s->nr_ctx = 0;
	s->nr_mem = 0;
	publish(s);
}

/* The worker closes (unless already closed) and reopens a slot. */
static void reopen(struct worker *w, struct slot *s)
{
	int fd;

	pthread_mutex_lock(&s->lock);
	bump_gen(s);
	if (s->state != S_CLOSED)
		close(s->fd);
	store_int(&s->nonblock, !one_in(&w->rng, 4));
	fd = open_dev(s->nonblock);
	if (fd < 0) {
		fprintf(stderr, "mcm_fuzz: open %s again: %s\n", DEV_PATH,
			strerror(errno));
		store_int(&s->state, S_CLOSED);
	} else {
		store_int(&s->fd, fd);
		store_int(&s->state, S_DEV);
	}
	bump_gen(s);
	s->seen_gen = load_ul(&s->gen);
	pthread_mutex_unlock(&s->lock);
	forget_all(s);
}

/* The racer: close the slot's file, or put another file in its place. */
static void race_slot(struct slot *s, struct rng *r)
{
	int fd;

	pthread_mutex_lock(&s->lock);
	if (s->state == S_CLOSED) {
		/* its number may be another slot's now: leave it */
		pthread_mutex_unlock(&s->lock);
		return;
	}
	bump_gen(s);
	switch (rnd_below(r, 3)) {
	case 0:
		close(s->fd);
		store_int(&s->state, S_CLOSED);
		break;
	case 1:
		fd = open_dev(s->nonblock);
		if (fd >= 0) {
			if (dup2(fd, s->fd) >= 0)
				store_int(&s->state, S_DEV);
			close(fd);
		}
		break;
	default:
		if (dup2(null_fd, s->fd) >= 0)
			store_int(&s->state, S_NULL);
		break;
	}
	bump_gen(s);
	pthread_mutex_unlock(&s->lock);
}

static void add_ctx(struct worker *w, struct slot *s, uint32_t id,
		    int family, uint32_t *evicted)
{
	int i = s->nr_ctx;

	*evicted = 0;
	if (s->nr_ctx == NR_CTX) {
		i = rnd_below(&w->rng, NR_CTX);
		*evicted = s->ctx[i].id;
	} else {
		s->nr_ctx++;
	}
	s->ctx[i].id = id;
	s->ctx[i].family = family;
	publish(s);
}

static void del_ctx(struct worker *w, struct slot *s, uint32_t id)
{
	int i;

	for (i = 0; i < s->nr_ctx; i++)
		if (s->ctx[i].id == id)
			s->ctx[i--] = s->ctx[--s->nr_ctx];
	for (i = 0; i < s->nr_mem; i++)
		if (s->mem[i].ctx_id == id)
			s->mem[i--] = s->mem[--s->nr_mem];
	w->stale_ctx = id;
	publish(s);
}

static void add_member(struct worker *w, struct slot *s, uint32_t ctx_id,
		       uint32_t handle, int group)
{
	int i = s->nr_mem;

	if (s->nr_mem == NR_MEMBERS)
		i = rnd_below(&w->rng, NR_MEMBERS);	/* forget one */
	else
		s->nr_mem++;
	s->mem[i].ctx_id = ctx_id;
	s->mem[i].handle = handle;
	s->mem[i].group = group;
}

/*
 * Forget a membership left by handle, or by group (@by_addr): @group is
 * its index in the pool, negative when not known.
 */
static void del_member(struct worker *w, struct slot *s, uint32_t ctx_id,
		       uint32_t handle, int by_addr, int group)
{
	int i;

	if (by_addr && group < 0)
		return;
	for (i = 0; i < s->nr_mem; i++) {
		if (s->mem[i].ctx_id != ctx_id)
			continue;
		if (by_addr ? s->mem[i].group == group :
			      s->mem[i].handle == handle) {
			w->stale_handle = s->mem[i].handle;
			s->mem[i] = s->mem[--s->nr_mem];
			return;
		}
	}
}

/* A context: mostly a live one of the slot, sometimes not. */
static struct ctx pick_ctx(struct worker *w, struct slot *s)
{
	struct rng *r = &w->rng;
	struct ctx c = { .id = 1 + rnd_below(r, 4), .family = AF_INET };
	struct slot *o;
	unsigned int x = rnd_below(r, 100);

	if (s->nr_ctx && x < 90)
		return s->ctx[rnd_below(r, s->nr_ctx)];
	if (x < 94) {
		c.id = w->stale_ctx;
	} else if (x < 97) {
		o = &w->slot[rnd_below(r, NR_SLOTS)];
		if (o->nr_ctx)
			c = o->ctx[rnd_below(r, o->nr_ctx)];
	} else if (x < 99) {
		c.id = interesting32(r);
	}
	return c;
}

/* A membership handle of @ctx_id: mostly a live one, sometimes not. */
static uint32_t pick_handle(struct worker *w, struct slot *s,
			    uint32_t ctx_id, int *group)
{
	struct rng *r = &w->rng;
	int i, n = 0, which;

	*group = -1;
	for (i = 0; i < s->nr_mem; i++)
		n += s->mem[i].ctx_id == ctx_id;
	if (n && !one_in(r, 12)) {
		which = rnd_below(r, n);
		for (i = 0; i < s->nr_mem; i++) {
			if (s->mem[i].ctx_id != ctx_id)
				continue;
			if (!which--) {
				*group = s->mem[i].group;
				return s->mem[i].handle;
			}
		}
	}
	switch (rnd_below(r, 4)) {
	case 0:
		return w->stale_handle;
	case 1:
		return s->nr_mem ? s->mem[rnd_below(r, s->nr_mem)].handle : 1;
	case 2:
		return 1 + rnd_below(r, 64);
	default:
		return interesting32(r);
	}
}

/* ------------------------------------------------------------ builders */

static void build_join_entry(struct worker *w, struct call *c, uint8_t *e,
			     int i)
{
	struct rdma_mcm_join_entry je = { 0 };
	int g = rnd_below(&w->rng, NR_GROUPS);

	je.cookie = rnd(&w->rng);
	je.join_flags = rnd_below(&w->rng, 2);
	je.addr_len = put_group(je.addr, c->ctx.family, g);
	memcpy(e, &je, sizeof(je));
	c->egroup[i] = g;
}

static void build_leave_entry(struct worker *w, struct slot *s,
			      struct call *c, uint8_t *e, int i)
{
	struct rdma_mcm_leave_entry le = { 0 };
	int g;

	le.handle = pick_handle(w, s, c->ctx.id, &g);
	if (g < 0 || one_in(&w->rng, 4)) {
		g = rnd_below(&w->rng, NR_GROUPS);
		le.flags = RDMA_MCM_LEAVE_BY_ADDR;
		le.addr_len = put_group(le.addr, c->ctx.family, g);
	}
	memcpy(e, &le, sizeof(le));
	c->egroup[i] = g;
}

/* A valid argument for @c->op in the worker's @abuf (and array at @ge). */
static void set_usize(struct worker *w, struct call *c, size_t usize)
{
	c->usize = usize;
	if (w->dirty < usize + 8)
		w->dirty = usize + 8;
}

static void build(struct worker *w, struct slot *s, struct call *c)
{
	const struct layout *l = &layouts[c->op];
	struct rng *r = &w->rng;
	uint8_t *a = w->abuf;
	const struct src *src;
	uint32_t i, len, handle;
	uint8_t *e;

	c->ioc = cmd_num[c->op];
	set_usize(w, c, l->size);
	c->ctx = pick_ctx(w, s);
	c->group = -1;
	if (l->ctx_id)
		put32(a, l->ctx_id, c->ctx.id);

	switch (c->op) {
	case C_CREATE_CTX:
		src = &srcs[rnd_below(r, nr_srcs)];
		memcpy(a + l->addr - 1, &src->ss, src->len);
		put32(a, l->addr_len, src->len);
		put32(a, l->ctx_id, 0);
		c->ctx.family = src->ss.ss_family;
		break;
	case C_JOIN:
		c->group = rnd_below(r, NR_GROUPS);
		len = put_group(a + l->addr - 1, c->ctx.family, c->group);
		put32(a, l->addr_len, len);
		put32(a, l->flags, rnd_below(r, 2));
		put64(a, OFF(rdma_mcm_join, cookie), rnd(r));
		break;
	case C_LEAVE:
		handle = pick_handle(w, s, c->ctx.id, &c->group);
		put32(a, l->handle, handle);
		if (c->group < 0 || one_in(r, 4)) {
			c->group = rnd_below(r, NR_GROUPS);
			len = put_group(a + l->addr - 1, c->ctx.family,
					c->group);
			put32(a, l->addr_len, len);
			put32(a, l->flags, RDMA_MCM_LEAVE_BY_ADDR);
		} else {
			c->group = -1;
		}
		break;
	case C_QUERY:
		put32(a, l->handle, pick_handle(w, s, c->ctx.id, &c->group));
		break;
	case C_LIST:
		c->entry_size = sizeof(struct rdma_mcm_member);
		if (one_in(r, 4))
			c->entry_size += 8 * rnd_below(r, 16);
		c->nr_built = one_in(r, 16) ? 0 : 1 + rnd_below(r, 32);
		c->arr = w->ge;
		c->arr_len = (size_t)c->nr_built * c->entry_size;
		put32(a, l->count, c->nr_built);
		put32(a, l->entry_size, c->entry_size);
		if (one_in(r, 4))
			put32(a, l->start, pick_handle(w, s, c->ctx.id,
						       &c->group));
		break;
	case C_BATCH_JOIN:
	case C_BATCH_LEAVE:
		c->entry_size = sizeof(struct rdma_mcm_join_entry);
		if (one_in(r, 4))
			c->entry_size += 8 * rnd_below(r, 16);
		c->nr_built = 1 + rnd_below(r, MAX_BATCH);
		c->arr = w->ge;
		c->arr_len = (size_t)c->nr_built * c->entry_size;
		for (i = 0; i < c->nr_built; i++) {
			e = w->ge + (size_t)i * c->entry_size;
			memset(e, 0, c->entry_size);
			if (c->op == C_BATCH_JOIN)
				build_join_entry(w, c, e, i);
			else
				build_leave_entry(w, s, c, e, i);
		}
		put32(a, l->count, c->nr_built);
		put32(a, l->entry_size, c->entry_size);
		break;
	default:
		break;
	}
}

/* A pointer nothing may be read from or written to. */
static uint64_t bad_ptr(struct rng *r)
{
	switch (rnd_below(r, 9)) {
	case 0:
		return 0;
	case 1:
		return (uintptr_t)none_page;
	case 2:
		return (uintptr_t)none_page + page_size - 1;
	case 3:
		return KERNEL_PTR;
	case 4:
		return 0xffffffff81000000ULL;
	case 5:
		return 0x8000000000000000ULL;	/* not canonical */
	case 6:
		return 0x10;
	case 7:
		return KERNEL_PTR - 8;	/* user, running into the kernel */
	default:
		return UINT64_MAX - 7;
	}
}

/* A type byte other than rdma_mcm's and those the VFS handles itself. */
static unsigned int other_type(struct rng *r)
{
	unsigned int t;

	do {
		t = one_in(r, 2) ? RDMA_MCM_IOCTL_MAGIC + 1 -
				   2 * rnd_below(r, 2) : rnd_below(r, 256);
	} while (t == RDMA_MCM_IOCTL_MAGIC || t == 0 || t == 'T' ||
		 t == 'X' || t == 'f' || t == 0x94 || t == 0x15);
	return t;
}

/* The histogram's command for a command number. */
static int classify(unsigned int ioc)
{
	int i;

	for (i = 0; i < NR_IOCTLS; i++)
		if ((ioc & ~(_IOC_SIZEMASK << _IOC_SIZESHIFT)) ==
		    (cmd_num[i] & ~(_IOC_SIZEMASK << _IOC_SIZESHIFT)))
			return i;
	return C_UNKNOWN;
}

/* Mutate one entry of a batch; returns 0 when not applicable. */
static int mutate_entry(struct worker *w, struct call *c)
{
	const struct layout *l = c->op == C_BATCH_JOIN ? &join_entry_layout :
							 &leave_entry_layout;
	struct rng *r = &w->rng;
	uint8_t *e;
	uint32_t i;

	if (!c->nr_built)
		return 0;
	i = rnd_below(r, c->nr_built);
	e = c->arr + (size_t)i * c->entry_size;
	c->egroup[i] = -2;	/* unknown now */
	switch (rnd_below(r, 6)) {
	case 0:
		e[rnd_below(r, l->size)] ^= 1 << rnd_below(r, 8);
		break;
	case 1:
		put32(e, l->flags, interesting32(r));
		break;
	case 2:
		put32(e, l->reserved, 1 + rnd_below(r, 0xffff));
		break;
	case 3:
		put32(e, l->handle, interesting32(r));
		break;
	case 4:
		if (c->entry_size <= l->size)
			return 0;
		e[l->size + rnd_below(r, c->entry_size - l->size)] = 1;
		break;
	default:
		mutate_addr(r, e + l->addr - 1, e + l->addr_len - 1,
			    c->ctx.family, 0);
		break;
	}
	return 1;
}

/* Apply one mutation to @c; returns 0 when it does not apply. */
static int mutate(struct worker *w, struct slot *s, struct call *c)
{
	const struct layout *l = &layouts[c->op];
	struct rng *r = &w->rng;
	uint8_t *a = w->abuf;
	unsigned int off, size = l->size;
	uint32_t v;
	int g;

	switch (pick_weighted(r, mut_weight, NR_MUTATIONS)) {
	case M_BITFLIP:
	case M_BYTE:
		off = rnd_below(r, size);
		/* never a user pointer: it must stay in our guard rooms */
		if (l->entries && off + 1 >= l->entries &&
		    off + 1 < l->entries + sizeof(uint64_t))
			return 0;
		if (one_in(r, 2))
			a[off] ^= 1 << rnd_below(r, 8);
		else
			a[off] = (uint8_t)rnd(r);
		return 1;
	case M_RESERVED:
		if (!l->reserved)
			return 0;
		put32(a, l->reserved, 1U << rnd_below(r, 32));
		return 1;
	case M_FLAGS:
		if (!l->flags)
			return 0;
		v = one_in(r, 2) ? interesting32(r) : get32(a, l->flags) ^ 1;
		put32(a, l->flags, v);
		return 1;
	case M_ADDR:
		if (!l->addr)
			return 0;
		mutate_addr(r, a + l->addr - 1, a + l->addr_len - 1,
			    c->ctx.family, c->op == C_CREATE_CTX);
		c->group = -2;
		return 1;
	case M_CTX:
		if (!l->ctx_id || c->op == C_CREATE_CTX)
			return 0;
		v = get32(a, l->ctx_id);
		switch (rnd_below(r, 5)) {
		case 0:
			v = 0;
			break;
		case 1:
			v = w->stale_ctx;
			break;
		case 2:
			v += 1;
			break;
		default:
			v = interesting32(r);
			break;
		}
		put32(a, l->ctx_id, v);
		return 1;
	case M_HANDLE:
		if (!l->handle || c->op == C_JOIN)
			return 0;
		if (one_in(r, 2))
			v = pick_handle(w, &w->slot[rnd_below(r, NR_SLOTS)],
					rnd_below(r, 8), &g);
		else
			v = one_in(r, 2) ? w->stale_handle : interesting32(r);
		put32(a, l->handle, v);
		c->group = -2;
		return 1;
	case M_COUNT:
		if (!l->count)
			return 0;
		switch (rnd_below(r, 6)) {
		case 0:
			v = rnd_below(r, 3);
			break;
		case 1:
			v = c->nr_built + 1 + rnd_below(r, 8);
			break;
		case 2:
			v = 65535 + rnd_below(r, 3);
			break;
		case 3:
			v = c->nr_built * 2 + rnd_below(r, 1000);
			break;
		default:
			v = interesting32(r);
			break;
		}
		put32(a, l->count, v);
		return 1;
	case M_ENTRY_SIZE:
		if (!l->entry_size)
			return 0;
		size = c->op == C_LIST ? sizeof(struct rdma_mcm_member) :
					 sizeof(struct rdma_mcm_join_entry);
		switch (rnd_below(r, 5)) {
		case 0:
			v = size - 1 - rnd_below(r, size);
			break;
		case 1:
			v = size + 1 + rnd_below(r, 7);
			break;
		case 2:
			v = size + rnd_below(r, 4096);
			break;
		default:
			v = interesting32(r);
			break;
		}
		put32(a, l->entry_size, v);
		return 1;
	case M_START:
		if (!l->start)
			return 0;
		v = one_in(r, 2) ? interesting32(r) :
				   pick_handle(w, s, c->ctx.id, &g) + 1;
		put32(a, l->start, v);
		return 1;
	case M_ENTRY:
		if (c->op != C_BATCH_JOIN && c->op != C_BATCH_LEAVE)
			return 0;
		return mutate_entry(w, c);
	case M_ARR_PTR:
		if (!l->entries)
			return 0;
		c->arr_where = W_UNALIGNED + rnd_below(r, 4);
		return 1;
	case M_ARG_PTR:
		c->arg_where = W_UNALIGNED + rnd_below(r, 4);
		return 1;
	case M_SIZE:
		if (one_in(r, 2) && size > 0)
			set_usize(w, c, rnd_below(r, size));
		else if (one_in(r, 2))
			set_usize(w, c, size + 1 + rnd_below(r, 64));
		else
			set_usize(w, c, size + 1 +
				  rnd_below(r, MAX_IOC_SIZE - size));
		c->ioc = _IOC(_IOC_DIR(c->ioc), RDMA_MCM_IOCTL_MAGIC,
			      _IOC_NR(c->ioc), c->usize);
		return 1;
	case M_TAIL:
		set_usize(w, c, size + 1 + rnd_below(r, 256));
		a[size + rnd_below(r, c->usize - size)] = 1 + rnd_below(r, 255);
		c->ioc = _IOC(_IOC_DIR(c->ioc), RDMA_MCM_IOCTL_MAGIC,
			      _IOC_NR(c->ioc), c->usize);
		return 1;
	case M_DIR:
		v = (_IOC_DIR(c->ioc) + 1 + rnd_below(r, 3)) & 3;
		c->ioc = _IOC(v, RDMA_MCM_IOCTL_MAGIC, _IOC_NR(c->ioc),
			      c->usize);
		return 1;
	case M_NR:
		c->ioc = _IOC(_IOC_DIR(c->ioc), RDMA_MCM_IOCTL_MAGIC,
			      NR_IOCTLS + rnd_below(r, 256 - NR_IOCTLS),
			      c->usize);
		return 1;
	default:
		c->ioc = _IOC(_IOC_DIR(c->ioc), other_type(r), _IOC_NR(c->ioc),
			      c->usize);
		return 1;
	}
}

/* ------------------------------------------------------------ placement */

static void ro_writable(struct worker *w)
{
	if (w->ro_open)
		return;
	if (mprotect(w->ro, ARG_ROOM + ARR_ROOM, PROT_READ | PROT_WRITE))
		die("mprotect");
	w->ro_open = 1;
}

static void ro_sealed(struct worker *w)
{
	if (!w->ro_open)
		return;
	if (mprotect(w->ro, ARG_ROOM + ARR_ROOM, PROT_READ))
		die("mprotect");
	w->ro_open = 0;
}

/* Move the array where the call wants it; sets the entries field. */
static void place_array(struct worker *w, struct call *c)
{
	const struct layout *l = &layouts[c->op];
	struct rng *r = &w->rng;
	uint8_t *p = c->arr;
	size_t len = c->arr_len;

	if (!l->entries || classify(c->ioc) == C_UNKNOWN)
		return;
	switch (c->arr_where) {
	case W_UNALIGNED:
		p = w->ge + 1 + rnd_below(r, 7);
		memmove(p, c->arr, len);
		break;
	case W_GUARD:
		/* end at the guard page, or cut the last bytes off */
		c->arr_cut = len && one_in(r, 2) ? 1 + rnd_below(r, len) : 0;
		p = w->ge_end - len + c->arr_cut;
		memmove(p, c->arr, len - c->arr_cut);
		break;
	case W_RO:
		ro_writable(w);
		p = w->ro + ARG_ROOM;
		memcpy(p, c->arr, len);
		break;
	case W_BAD:
		put64(w->abuf, l->entries, bad_ptr(r));
		c->arr = NULL;
		return;
	default:
		break;
	}
	c->arr = p;
	put64(w->abuf, l->entries, (uintptr_t)p);
}

/* Pass the argument from where the call wants it. */
static void place_arg(struct worker *w, struct call *c)
{
	struct rng *r = &w->rng;

	c->argp = w->abuf;
	switch (c->arg_where) {
	case W_UNALIGNED:
		c->argp = w->abuf + 1 + rnd_below(r, 7);
		memmove(c->argp, w->abuf, c->usize);	/* dirty covers it */
		break;
	case W_GUARD:
		c->arg_cut = c->usize && one_in(r, 2) ?
			     1 + rnd_below(r, c->usize) : 0;
		c->argp = w->ga_end - c->usize + c->arg_cut;
		memcpy(c->argp, w->abuf, c->usize - c->arg_cut);
		break;
	case W_RO:
		ro_writable(w);
		c->argp = w->ro;
		memcpy(c->argp, w->abuf, c->usize);
		break;
	case W_BAD:
		c->argp = (uint8_t *)(uintptr_t)bad_ptr(r);
		break;
	default:
		break;
	}
	ro_sealed(w);
}

/* Read a u32 of the argument back, if it is ours and readable. */
static int arg_get32(struct call *c, unsigned int off1, uint32_t *v)
{
	size_t avail = c->usize - c->arg_cut;

	if (c->arg_where == W_BAD || !off1 || off1 - 1 + 4 > avail)
		return 0;
	*v = get32(c->argp, off1);
	return 1;
}

/* ------------------------------------------------------------ calls */

static void record(struct worker *w, int cmd, int err, int raced)
{
	int e = err < MAX_ERRNO ? err : MAX_ERRNO - 1;

	/*
	 * EBADF is always the VFS's: the module never returns it (the
	 * descriptor was closed under the call, in a window the generation
	 * check cannot always see). ENOTTY is the VFS's or /dev/null's only
	 * when the file changed under the call.
	 */
	w->st->calls++;
	if (!err)
		w->st->ok[cmd]++;
	else if ((raced && err == ENOTTY) || err == EBADF)
		w->st->raced[cmd][e]++;
	else
		w->st->err[cmd][e]++;
}

/* What a successful (or partly done) call tells about the slot. */
static void track(struct worker *w, struct slot *s, struct call *c, int cmd,
		  int err)
{
	const struct layout *l = &layouts[c->op];
	uint32_t id, handle, done, i, evicted, flags;
	struct rdma_mcm_destroy_ctx d = { 0 };
	const uint8_t *e;
	int32_t result;

	if (cmd != c->op)
		return;
	switch (cmd) {
	case C_CREATE_CTX:
		if (err || !arg_get32(c, l->ctx_id, &id))
			return;
		add_ctx(w, s, id, c->ctx.family, &evicted);
		if (!evicted)
			return;
		/* keep the file's contexts bounded: destroy the one dropped */
		d.ctx_id = evicted;
		err = ioctl(s->fd, RDMA_MCM_IOC_DESTROY_CTX, &d) ? errno : 0;
		record(w, C_DESTROY_CTX, err, 0);
		del_ctx(w, s, evicted);
		return;
	case C_DESTROY_CTX:
		if (!err)
			del_ctx(w, s, get32(w->abuf, l->ctx_id));
		return;
	case C_JOIN:
		if (!err && arg_get32(c, l->handle, &handle))
			add_member(w, s, get32(w->abuf, l->ctx_id), handle,
				   c->group);
		return;
	case C_LEAVE:
		if (err)
			return;
		flags = get32(w->abuf, l->flags);
		del_member(w, s, get32(w->abuf, l->ctx_id),
			   get32(w->abuf, l->handle),
			   flags & RDMA_MCM_LEAVE_BY_ADDR, c->group);
		return;
	case C_BATCH_JOIN:
	case C_BATCH_LEAVE:
		if (!c->arr || c->arr_where == W_BAD ||
		    get32(w->abuf, l->entry_size) != c->entry_size ||
		    !arg_get32(c, l->done, &done))
			return;
		id = get32(w->abuf, l->ctx_id);
		for (i = 0; i < done && i < c->nr_built; i++) {
			e = c->arr + (size_t)i * c->entry_size;
			if ((size_t)(i + 1) * c->entry_size >
			    c->arr_len - c->arr_cut)
				return;
			if (c->egroup[i] == -2)
				continue;
			if (cmd == C_BATCH_JOIN) {
				result = get32(e, OFF(rdma_mcm_join_entry,
						      result));
				handle = get32(e, OFF(rdma_mcm_join_entry,
						      handle));
				if (!result)
					add_member(w, s, id, handle,
						   c->egroup[i]);
			} else {
				result = get32(e, OFF(rdma_mcm_leave_entry,
						      result));
				handle = get32(e, OFF(rdma_mcm_leave_entry,
						      handle));
				flags = get32(e, OFF(rdma_mcm_leave_entry,
						     flags));
				if (!result)
					del_member(w, s, id, handle, flags,
						   c->egroup[i]);
			}
		}
		return;
	default:
		return;
	}
}

/* A random command number the module does not know, on random bytes. */
static void build_unknown(struct worker *w, struct call *c)
{
	struct rng *r = &w->rng;
	unsigned int dir, nr, type, size;
	size_t i;

	do {
		dir = rnd_below(r, 4);
		nr = one_in(r, 2) ? rnd_below(r, 16) : rnd_below(r, 256);
		type = one_in(r, 2) ? RDMA_MCM_IOCTL_MAGIC : other_type(r);
		size = one_in(r, 2) ? rnd_below(r, 256) :
				      rnd_below(r, MAX_IOC_SIZE + 1);
		c->ioc = _IOC(dir, type, nr, size);
	} while (classify(c->ioc) != C_UNKNOWN);
	set_usize(w, c, size);
	for (i = 0; i < 64 && i < size; i++)
		w->abuf[i] = one_in(r, 2) ? 0 : (uint8_t)rnd(r);
}

static int blocking_read_ok(struct worker *w, int fd)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };

	if (poll(&p, 1, 0) == 1 && (p.revents & POLLIN))
		return 1;
	/* now and then, block until the racer interrupts us */
	return one_in(&w->rng, 32);
}

/* A read(); returns 0 when it would block for long (and was not made). */
static int do_read(struct worker *w, struct slot *s, int fd, int st,
		   unsigned long g1)
{
	static const size_t lens[] = {
		0, 1, EV_SIZE - 1, EV_SIZE, EV_SIZE + 1, 2 * EV_SIZE,
		8 * EV_SIZE, 4096, 1 << 20, SSIZE_MAX, SIZE_MAX,
	};
	struct rng *r = &w->rng;
	uint8_t *buf;
	size_t len;
	ssize_t ret;
	int err, raced;

	len = one_in(r, 3) ? rnd_below(r, 2048) :
			     lens[rnd_below(r, ARRAY_LEN(lens))];
	switch (rnd_below(r, 8)) {
	case 0:
		buf = (uint8_t *)(uintptr_t)bad_ptr(r);
		break;
	case 1:
		buf = w->ro + ARG_ROOM;
		break;
	case 2:	/* room for a whole number of events, or not, then guard */
		buf = w->ge_end - (len < ARR_ROOM ? len : ARR_ROOM) +
		      (one_in(r, 2) ? rnd_below(r, 16) : 0);
		break;
	default:
		buf = w->ge + rnd_below(r, 8);
		break;
	}
	if (!load_int(&s->nonblock) && st == S_DEV &&
	    !blocking_read_ok(w, fd))
		return 0;
	/* the fd may be another slot's blocking file by now: always */
	store_int(&w->in_block, 1);
	ret = read(fd, buf, len);
	err = ret < 0 ? errno : 0;
	store_int(&w->in_block, 0);
	raced = (g1 & 1) || g1 != load_ul(&s->gen) || st != S_DEV;
	record(w, C_READ, err, raced);
	return 1;
}

static void do_poll(struct worker *w, struct slot *s, unsigned long g1,
		    int st)
{
	struct pollfd p[NR_SLOTS + 1];
	struct rng *r = &w->rng;
	int i, n = 0, ret, err, nval = 0;

	p[n].fd = load_int(&s->fd);
	p[n++].events = POLLIN | (one_in(r, 4) ? (short)rnd(r) : 0);
	for (i = 0; i < NR_SLOTS; i++) {
		if (&w->slot[i] == s || one_in(r, 2))
			continue;
		p[n].fd = load_int(&w->slot[i].fd);
		p[n++].events = POLLIN | POLLOUT;
	}
	ret = poll(p, n, one_in(r, 16) ? 1 : 0);
	err = ret < 0 ? errno : 0;
	for (i = 0; ret > 0 && i < n; i++)
		nval |= p[i].revents & POLLNVAL;
	if (nval && !err)
		err = EBADF;	/* as raced */
	record(w, C_POLL, err, nval || (g1 & 1) || st != S_DEV ||
	       g1 != load_ul(&s->gen));
}

/*
 * One call: mostly on a file of the worker's (@s, whose ids it tracks in
 * the same struct), now and then on a peer's file, with the peer's
 * contexts (@t, a view) and nothing tracked: then read() and poll() race
 * the owner's commands on one file.
 */
static void one_call(struct worker *w)
{
	struct rng *r = &w->rng;
	struct call c = { 0 };
	struct slot *s, *t;
	unsigned long g1;
	int i, n, cmd, fd, st, err, raced, tries, peer = 0;

	i = rnd_below(r, NR_SLOTS);
	s = &w->slot[i];
	t = s;
	if (nr_threads > 1 && one_in(r, 16)) {
		n = rnd_below(r, nr_threads);
		peer = n != w->index;
		s = &workers[n].slot[i];
		t = s;
		if (peer) {
			t = &w->view;
			borrow(t, s);
		}
	}
	if (!peer)
		store_int(&w->cur, i);
	g1 = load_ul(&s->gen);
	if (!peer && g1 != s->seen_gen && !(g1 & 1)) {
		/* the racer closed or replaced the file: a new life */
		forget_all(s);
		s->seen_gen = g1;
	}
	st = load_int(&s->state);
	if (!peer && ((st != S_DEV && !one_in(r, 4)) || one_in(r, 2000))) {
		reopen(w, s);
		g1 = load_ul(&s->gen);
		st = load_int(&s->state);
	}
	fd = load_int(&s->fd);

	c.op = pick_weighted(r, cmd_weight, NR_CMDS);
	if (!t->nr_ctx && !peer && !one_in(r, 4))
		c.op = C_CREATE_CTX;
	if (c.op == C_READ && do_read(w, s, fd, st, g1))
		return;
	if (c.op == C_READ || c.op == C_POLL) {
		do_poll(w, s, g1, st);
		return;
	}

	memset(w->abuf, 0, w->dirty);
	w->dirty = 256;
	if (c.op == C_UNKNOWN) {
		build_unknown(w, &c);
	} else {
		build(w, t, &c);
		n = rnd_below(r, 100);
		n = n < 45 ? 0 : n < 75 ? 1 : n < 90 ? 2 : 3;
		for (tries = 0; n && tries < 16; tries++)
			n -= mutate(w, t, &c);
		place_array(w, &c);
	}
	place_arg(w, &c);

	cmd = classify(c.ioc);
	err = ioctl(fd, c.ioc, c.argp) ? errno : 0;
	raced = (g1 & 1) || g1 != load_ul(&s->gen) || st != S_DEV;
	record(w, cmd, err, raced);
	if (!peer && !raced &&
	    (!err || cmd == C_BATCH_JOIN || cmd == C_BATCH_LEAVE))
		track(w, s, &c, cmd, err);
}

/* ------------------------------------------------------------ threads */

static void show_progress(unsigned long n)
{
	double t = now() - t_start;
	unsigned int tenth = 0, x;

	if (max_calls)
		tenth = n * 10 / max_calls;
	if (max_seconds) {
		x = t * 10 / max_seconds;
		if (x > tenth)
			tenth = x;
	}
	x = __atomic_load_n(&progress_shown, __ATOMIC_SEQ_CST);
	if (tenth <= x || tenth >= 10 ||
	    !__atomic_compare_exchange_n(&progress_shown, &x, tenth, 0,
					 __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST))
		return;
	fprintf(stderr, "mcm_fuzz: %u0%%: %lu calls in %.1f s\n", tenth, n, t);
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	unsigned long n;

	for (;;) {
		if (load_int(&stopping))
			break;
		n = __atomic_fetch_add(&issued, 1, __ATOMIC_SEQ_CST);
		if (max_calls && n >= max_calls)
			break;
		if (!(n & 255)) {
			if (max_seconds && now() - t_start >= max_seconds) {
				store_int(&stopping, 1);
				break;
			}
			show_progress(n);
		}
		one_call(w);
	}
	store_int(&w->done, 1);
	return NULL;
}

static void *racer_main(void *arg)
{
	struct worker *w = arg;
	struct rng *r = &w->racer_rng;
	int i;

	while (!load_int(&w->done)) {
		usleep(100 + rnd_below(r, 1500));
		if (load_int(&w->in_block)) {
			pthread_kill(w->thread, SIGUSR1);
			continue;
		}
		if (!one_in(r, 8))
			continue;
		i = load_int(&w->cur);
		if (one_in(r, 2))
			i = rnd_below(r, NR_SLOTS);
		race_slot(&w->slot[i], r);
	}
	return NULL;
}

static void on_kick(int sig)
{
	(void)sig;
}

static uint8_t *map_guarded(size_t len)
{
	uint8_t *p = mmap(NULL, len + page_size, PROT_READ | PROT_WRITE,
			  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		die("mmap");
	if (mprotect(p + len, page_size, PROT_NONE))
		die("mprotect");
	return p;
}

static void worker_init(struct worker *w, int index)
{
	int i;

	w->index = index;
	rng_init(&w->rng, seed + 2 * index);
	rng_init(&w->racer_rng, seed + 2 * index + 1);
	w->st = calloc(1, sizeof(*w->st));
	w->abuf = calloc(1, ARG_ROOM + 64);
	if (!w->st || !w->abuf)
		die("calloc");
	w->dirty = ARG_ROOM;
	w->ga = map_guarded(ARG_ROOM);
	w->ga_end = w->ga + ARG_ROOM;
	w->ge = map_guarded(ARR_ROOM);
	w->ge_end = w->ge + ARR_ROOM;
	w->ro = map_guarded(ARG_ROOM + ARR_ROOM);
	w->ro_open = 1;
	ro_sealed(w);
	w->stale_ctx = 1;
	w->stale_handle = 1;
	for (i = 0; i < NR_SLOTS; i++) {
		struct slot *s = &w->slot[i];

		pthread_mutex_init(&s->lock, NULL);
		s->nonblock = 1;
		s->fd = open_dev(1);
		if (s->fd < 0)
			die("open " DEV_PATH);
		s->state = S_DEV;
	}
}

/* ------------------------------------------------------------ main */

static void add_src(const char *text)
{
	struct sockaddr_in *sin;
	struct sockaddr_in6 *sin6;

	if (nr_srcs == MAX_SRCS) {
		fprintf(stderr, "mcm_fuzz: at most %d --src\n", MAX_SRCS);
		exit(2);
	}
	sin = (struct sockaddr_in *)&srcs[nr_srcs].ss;
	sin6 = (struct sockaddr_in6 *)&srcs[nr_srcs].ss;
	if (inet_pton(AF_INET, text, &sin->sin_addr) == 1) {
		sin->sin_family = AF_INET;
		srcs[nr_srcs++].len = sizeof(*sin);
	} else if (inet_pton(AF_INET6, text, &sin6->sin6_addr) == 1) {
		sin6->sin6_family = AF_INET6;
		srcs[nr_srcs++].len = sizeof(*sin6);
	} else {
		fprintf(stderr, "mcm_fuzz: bad --src %s\n", text);
		exit(2);
	}
}

static void usage(void)
{
	fprintf(stderr,
		"Usage: mcm_fuzz [--seed N] [--calls N] [--seconds S]\n"
		"                [--threads T] [--src ADDR]...\n"
		"  --calls 0 runs until --seconds; --seconds 0 has no limit\n");
	exit(2);
}

static void parse_args(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "seed", required_argument, NULL, 's' },
		{ "calls", required_argument, NULL, 'n' },
		{ "seconds", required_argument, NULL, 't' },
		{ "threads", required_argument, NULL, 'j' },
		{ "src", required_argument, NULL, 'a' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c, have_seed = 0;

	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 's':
			seed = strtoull(optarg, NULL, 0);
			have_seed = 1;
			break;
		case 'n':
			max_calls = strtoul(optarg, NULL, 0);
			break;
		case 't':
			max_seconds = strtoul(optarg, NULL, 0);
			break;
		case 'j':
			nr_threads = atoi(optarg);
			break;
		case 'a':
			add_src(optarg);
			break;
		default:
			usage();
		}
	}
	if (optind != argc || nr_threads < 1 || nr_threads > MAX_THREADS ||
	    (!max_calls && !max_seconds))
		usage();
	if (!nr_srcs) {
		add_src("192.0.2.1");
		add_src("192.0.2.2");
	}
	if (!have_seed)
		seed = (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 32);
}

static const char *errname(int e, char *buf, size_t len)
{
	const char *name = e == MAX_ERRNO - 1 ? NULL : strerrorname_np(e);

	if (name)
		return name;
	snprintf(buf, len, "E%d", e);
	return buf;
}

static void report(double seconds)
{
	struct stats *t = calloc(1, sizeof(*t));
	unsigned long ok = 0;
	char buf[16];
	int i, c, e;

	if (!t)
		die("calloc");
	for (i = 0; i < nr_threads; i++) {
		struct stats *s = workers[i].st;

		t->calls += s->calls;
		for (c = 0; c < NR_CMDS; c++) {
			t->ok[c] += s->ok[c];
			for (e = 0; e < MAX_ERRNO; e++) {
				t->err[c][e] += s->err[c][e];
				t->raced[c][e] += s->raced[c][e];
			}
		}
	}
	for (c = 0; c < NR_CMDS; c++) {
		printf("ok %s %lu\n", cmd_name[c], t->ok[c]);
		ok += t->ok[c];
	}
	for (c = 0; c < NR_CMDS; c++)
		for (e = 0; e < MAX_ERRNO; e++)
			if (t->err[c][e])
				printf("errno %s %s %lu\n", cmd_name[c],
				       errname(e, buf, sizeof(buf)),
				       t->err[c][e]);
	for (c = 0; c < NR_CMDS; c++)
		for (e = 0; e < MAX_ERRNO; e++)
			if (t->raced[c][e])
				printf("raced %s %s %lu\n", cmd_name[c],
				       errname(e, buf, sizeof(buf)),
				       t->raced[c][e]);
	printf("calls %lu ok %lu failed %lu seconds %.1f seed %llu\n",
	       t->calls, ok, t->calls - ok, seconds,
	       (unsigned long long)seed);
	free(t);
}

int main(int argc, char **argv)
{
	struct sigaction sa = { .sa_handler = on_kick };
	int i, j;

	parse_args(argc, argv);
	printf("mcm_fuzz: seed %llu calls %lu seconds %u threads %d\n",
	       (unsigned long long)seed, max_calls, max_seconds, nr_threads);
	fflush(stdout);

	/* no SA_RESTART: a blocking read() the racer kicks returns EINTR */
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGUSR1, &sa, NULL))
		die("sigaction");
	page_size = sysconf(_SC_PAGESIZE);
	none_page = mmap(NULL, page_size, PROT_NONE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (none_page == MAP_FAILED)
		die("mmap");
	null_fd = open("/dev/null", O_RDWR | O_CLOEXEC);
	if (null_fd < 0)
		die("open /dev/null");
	workers = calloc(nr_threads, sizeof(*workers));
	if (!workers)
		die("calloc");
	for (i = 0; i < nr_threads; i++)
		worker_init(&workers[i], i);

	t_start = now();
	for (i = 0; i < nr_threads; i++) {
		if (pthread_create(&workers[i].thread, NULL, worker_main,
				   &workers[i]))
			die("pthread_create");
		if (pthread_create(&workers[i].racer, NULL, racer_main,
				   &workers[i]))
			die("pthread_create");
	}
	for (i = 0; i < nr_threads; i++) {
		pthread_join(workers[i].thread, NULL);
		pthread_join(workers[i].racer, NULL);
	}

	/* every membership goes with its file */
	for (i = 0; i < nr_threads; i++)
		for (j = 0; j < NR_SLOTS; j++)
			if (workers[i].slot[j].state != S_CLOSED)
				close(workers[i].slot[j].fd);
	report(now() - t_start);
	return 0;
}
