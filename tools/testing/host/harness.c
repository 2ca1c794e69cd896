// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#include <stdio.h>
#include <string.h>

#include "harness.h"

static int passed, failed, case_failed;

void h_check(int ok, const char *what, const char *file, int line)
{
	int err = errno;

	if (ok)
		return;
	case_failed = 1;
	printf("#   check failed: %s (%s:%d, errno %d %s)\n", what, file, line,
	       err, strerror(err));
}

void h_run(const char *name, void (*fn)(void))
{
	case_failed = 0;
	fn();
	if (case_failed) {
		failed++;
		printf("not ok - %s\n", name);
	} else {
		passed++;
		printf("ok - %s\n", name);
	}
	fflush(stdout);
}

int h_finish(void)
{
	printf("%d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}
