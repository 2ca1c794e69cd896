/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * mcm_fuzz: what the fuzzer's parts share.
 *
 *   mcm_fuzz.c               settings, the threads, one call, the histogram
 *   mcm_fuzz_gen.c           random numbers; building and placing an argument
 *   mcm_fuzz_src_gen.c       the source arrays of joins
 *   mcm_fuzz_mutate.c        mutating an argument
 *   mcm_fuzz_model.c         the files: their contexts, handles and what
 *                            they asked to read (event types and size)
 *   mcm_fuzz_check.c         what every call must leave behind: the bytes
 *                            it may write, the errnos of known causes, the
 *                            events read; violations
 *   mcm_fuzz_check_arrays.c  what a batch or a list leaves in its array
 *   mcm_fuzz_src_model.c     the answer a join must get (the model of its
 *                            flags, group and sources), JOINs and
 *                            BATCH_JOIN entries held to it; the sources
 *                            never written
 *
 * scripts/vm-run compiles the parts together with the tests' shared
 * helpers, tools/testing/common/mcm_test.c (its TEST_PROGRAMS).
 */
#ifndef MCM_FUZZ_H
#define MCM_FUZZ_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/types.h>

#include <rdma/rdma_mcm_abi.h>

#include "mcm_test.h"

#define DEV_PATH	"/dev/" RDMA_MCM_DEVICE_NAME
#define MAX_SRCS	16
#define MAX_THREADS	64
#define NR_SLOTS	3	/* open files per worker */
#define NR_CTX		8	/* contexts tracked per file */
#define NR_MEMBERS	64	/* memberships tracked per file */
#define NR_GROUPS	64	/* 239.77.0.0/26, ff0e::77:0/122, AF_IB */
#define MAX_BATCH	16	/* entries of a valid batch */
#define MAX_LIST	32	/* entries of a valid list */
#define MAX_IOC_SIZE	16383	/* _IOC_SIZEMASK */
#define ARG_ROOM	(20 * 1024)	/* >= MAX_IOC_SIZE + 1, page multiple */
#define ARR_ROOM	(128 * 1024)	/* arrays and read() buffers */
/* source arrays of joins: the most a join's may take, and some */
#define SRC_ROOM	(RDMA_MCM_MAX_SOURCES * RDMA_MCM_MAX_ENTRY_SIZE + \
			 64 * 1024)
#define CANARY		32	/* bytes after an argument nothing may write */
#define CANARY_BYTE	0xa5
#define DONE_POISON	0xdddddddd	/* batch done and list next, as passed */
#define MAX_ERRNO	256
#define KERNEL_PTR	0xffff888000000000ULL
#define EV_SIZE		sizeof(struct rdma_mcm_event)
/* The event types this header knows */
#define EVENTS_KNOWN	(RDMA_MCM_EVENTS_DEFAULT | \
			 RDMA_MCM_EVENT_BIT(RDMA_MCM_EVENT_DEVICE_REMOVED) | \
			 RDMA_MCM_EVENT_BIT(RDMA_MCM_EVENT_REJOINING) | \
			 RDMA_MCM_EVENT_BIT(RDMA_MCM_EVENT_REJOINED) | \
			 RDMA_MCM_EVENT_BIT(RDMA_MCM_EVENT_DEVICE_ADDED))

/* What VERSION reports: the features this header knows, all of them */
#define FEATURES_KNOWN	(RDMA_MCM_FEATURE_SOURCES | RDMA_MCM_FEATURE_IPV6_ROCE)

#define ARRAY_LEN(a)	(sizeof(a) / sizeof((a)[0]))

/*
 * What the histogram counts: the eleven commands, read(), poll(), others,
 * and the entries of batches (by their result).
 */
enum {
	C_VERSION, C_CREATE_CTX, C_DESTROY_CTX, C_JOIN, C_LEAVE, C_QUERY,
	C_LIST, C_BATCH_JOIN, C_BATCH_LEAVE, C_SET_EVENTS, C_QUERY_CTX,
	C_READ, C_POLL,
	C_UNKNOWN, C_JOIN_ENTRY, C_LEAVE_ENTRY, NR_CMDS
};

#define NR_IOCTLS	C_READ

/*
 * Where the fields of a struct are, for the mutations: offsets plus one,
 * so that 0 means "no such field". @ver0 is the struct's first version's
 * size; [@out_off, @out_off + @out_len) (plain offsets) are the bytes a
 * successful call writes.
 */
struct layout {
	unsigned short size, ver0;
	unsigned short ctx_id, handle, flags, addr_len, addr, reserved;
	unsigned short entries, count, entry_size, start, done;
	unsigned short sources;	/* a join's: sources, nr_sources, source_size */
	unsigned short out_off, out_len;
};

#define OFF(type, member)	(offsetof(struct type, member) + 1)
#define AT(type, member)	offsetof(struct type, member)

/* The mutations */
enum {
	M_BITFLIP, M_BYTE, M_RESERVED, M_FLAGS, M_ADDR, M_CTX, M_HANDLE,
	M_COUNT, M_ENTRY_SIZE, M_START, M_ENTRY, M_ARR_PTR, M_ARG_PTR,
	M_SIZE, M_TAIL, M_DIR, M_NR, M_TYPE, M_EVENTS, NR_MUTATIONS
};

/* Where an argument or an array is passed from. */
enum { W_NORMAL, W_UNALIGNED, W_GUARD, W_RO, W_BAD };

/* The state of a slot's descriptor. */
enum { S_DEV, S_NULL, S_CLOSED };

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
 * What a file asked to read (RDMA_MCM_IOC_SET_EVENTS): the types it may
 * read and the size of each record (0: one of two, not checked).
 */
struct evmodel {
	uint64_t mask;
	uint32_t size;
};

/*
 * An open file of a worker. The racer changes @fd and @state under @lock,
 * bumping @gen before and after; the worker reads them without the lock
 * and compares @gen around a call to know whether the racer got in.
 * SET_EVENTS is made under @lock, so that it reaches the file the model
 * describes and no other.
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
	struct evmodel ev;
};

struct stats {
	unsigned long calls;
	unsigned long src_built;	/* joins and entries built with sources */
	unsigned long src_predicted;	/* results held to the sources model */
	unsigned long src_ok;		/* source-specific joins that worked */
	unsigned long src_refused;	/* ... refused as the model said */
	unsigned long v6_joined;	/* IPv6 members joined by rdma_mcm */
	unsigned long ok[NR_CMDS];
	unsigned long err[NR_CMDS][MAX_ERRNO];
	unsigned long raced[NR_CMDS][MAX_ERRNO];
	unsigned long violations;
	unsigned long args_checked;	/* arguments compared after a call */
	unsigned long arrays_checked;	/* batch and list arrays compared */
	unsigned long reads_checked;	/* read()s held to the model */
	unsigned long records;		/* event records checked */
};

/* One call being built. */
struct call {
	int fd;			/* the descriptor the call is made on */
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
	int mutated;		/* mutations applied */
	struct ctx ctx;
	int group;
	int egroup[MAX_BATCH];
	int ctx_known;		/* c->ctx is a context of the slot's model */
	/* what was passed, saved for the checks (mcm_fuzz_check.c) */
	const uint8_t *saved;	/* the argument's bytes, then the canary's */
	size_t saved_len;	/* bytes of the argument saved */
	size_t canary;		/* bytes after it saved too: 0 or CANARY */
	const uint8_t *saved_arr;	/* the array's bytes */
	uint8_t *arr_at;	/* where they were */
	size_t arr_saved;	/* how many */
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
	uint8_t *gs, *gs_end;	/* source arrays, a guard page at the end */
	uint8_t *gs_lo, *gs_hi;	/* the part of it this call filled */
	uint8_t *gs_cur;	/* where the next array goes */
	uint8_t *save_src;	/* what the call's source arrays held */
	int ro_open;
	uint8_t *save_arg;	/* the argument as passed */
	uint8_t *save_arr;	/* the array as passed */
	uint32_t stale_ctx, stale_handle;
	struct slot view;	/* a peer's slot, as borrow() sees it */
	struct stats *st;
};

/* mcm_fuzz.c */
extern long igmp_max_msf, mld_max_msf;
extern const char * const cmd_name[NR_CMDS];
extern const unsigned int cmd_num[NR_IOCTLS];
extern const struct layout layouts[NR_IOCTLS];
extern const struct layout join_entry_layout, leave_entry_layout;
extern struct src srcs[MAX_SRCS];
extern int nr_srcs;
extern int nr_threads;
extern struct worker *workers;
extern size_t page_size;
extern uint8_t *none_page;
extern int null_fd;
void record(struct worker *w, int cmd, int err, int raced);

/* mcm_fuzz_gen.c */
uint64_t rnd(struct rng *r);
uint32_t rnd_below(struct rng *r, uint32_t n);
int one_in(struct rng *r, uint32_t n);
void rng_init(struct rng *r, uint64_t s);
int pick_weighted(struct rng *r, const unsigned char *w, int n);
int classify(unsigned int ioc);
uint64_t bad_ptr(struct rng *r);
void build(struct worker *w, struct slot *s, struct call *c);
void build_unknown(struct worker *w, struct call *c);
void place_array(struct worker *w, struct call *c);
void place_arg(struct worker *w, struct call *c);
void ro_sealed(struct worker *w);
uint32_t interesting32(struct rng *r);
uint32_t put_group(uint8_t *addr, int family, unsigned int i);
void set_usize(struct worker *w, struct call *c, size_t usize);
unsigned int other_type(struct rng *r);

/* mcm_fuzz_src_gen.c */
void build_sources(struct worker *w, struct call *c, uint8_t *fields,
		   int family, uint32_t *join_flags, int whole);

/* mcm_fuzz_mutate.c */
int mutate(struct worker *w, struct slot *s, struct call *c);

/* mcm_fuzz_model.c */
int open_dev(int nonblock);
unsigned long load_ul(unsigned long *p);
int load_int(int *p);
void store_int(int *p, int v);
void forget_all(struct slot *s);
void borrow(struct slot *view, struct slot *s);
void reopen(struct worker *w, struct slot *s);
void race_slot(struct slot *s, struct rng *r);
void add_ctx(struct worker *w, struct slot *s, uint32_t id, int family,
	     uint32_t *evicted);
void del_ctx(struct worker *w, struct slot *s, uint32_t id);
void add_member(struct worker *w, struct slot *s, uint32_t ctx_id,
		uint32_t handle, int group);
void del_member(struct worker *w, struct slot *s, uint32_t ctx_id,
		uint32_t handle, int by_addr, int group);
struct ctx pick_ctx(struct worker *w, struct slot *s);
uint32_t pick_handle(struct worker *w, struct slot *s, uint32_t ctx_id,
		     int *group);
void model_set_events(struct slot *s, const struct call *c, int err);
void model_read(struct worker *w, struct slot *s, const uint8_t *buf,
		size_t len, ssize_t ret, int err);

/* mcm_fuzz_check.c */
void violated(struct worker *w, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
int violation_shown(void);
void save_call(struct worker *w, struct call *c);
int saved32(const struct call *c, unsigned int off, uint32_t *v);
int saved64(const struct call *c, unsigned int off, uint64_t *v);
void check_call(struct worker *w, struct call *c, int cmd, int err,
		int raced);
int arg_writable(const struct call *c);
void check_member(struct worker *w, const char *what,
		  const struct rdma_mcm_member *m);

/* mcm_fuzz_check_arrays.c */
void check_array(struct worker *w, const struct call *c, int cmd,
		 int err, int ran, int raced);

/* mcm_fuzz_src_model.c */
void check_join(struct worker *w, const struct call *c, int err);
void judge_entry(struct worker *w, const struct call *c,
		 const uint8_t *in, uint32_t esize, int32_t result);
void save_sources(struct worker *w);
void check_sources_unwritten(struct worker *w);

/* ------------------------------------------------------------ fields */

static inline void put32(uint8_t *base, unsigned int off1, uint32_t v)
{
	memcpy(base + off1 - 1, &v, sizeof(v));
}

static inline uint32_t get32(const uint8_t *base, unsigned int off1)
{
	uint32_t v;

	memcpy(&v, base + off1 - 1, sizeof(v));
	return v;
}

static inline void put64(uint8_t *base, unsigned int off1, uint64_t v)
{
	memcpy(base + off1 - 1, &v, sizeof(v));
}

static inline uint64_t get64(const uint8_t *base, unsigned int off1)
{
	uint64_t v;

	memcpy(&v, base + off1 - 1, sizeof(v));
	return v;
}

#endif /* MCM_FUZZ_H */
