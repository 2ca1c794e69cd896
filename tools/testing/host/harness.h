/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * A small test harness: CHECK() records a failed condition and goes on;
 * each test case passes when none of its checks failed. h_finish() prints
 * the closing line "N passed, N failed" and returns the exit status.
 */
#ifndef HARNESS_H
#define HARNESS_H

#include <errno.h>

void h_check(int ok, const char *what, const char *file, int line);
void h_run(const char *name, void (*fn)(void));
int h_finish(void);

#define CHECK(cond)	h_check(!!(cond), #cond, __FILE__, __LINE__)

/* @expr returns -1 (or NULL) and sets errno to @err */
#define CHECK_ERRNO(expr, err)						\
	do {								\
		errno = 0;						\
		CHECK((expr) == -1);					\
		h_check(errno == (err), "errno == " #err, __FILE__,	\
			__LINE__);					\
	} while (0)

#endif /* HARNESS_H */
