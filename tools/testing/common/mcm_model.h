/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * mcm_model: the module's rules for the addresses of a join, as the tests
 * hold it to them (tools/testing/common/mcm_model.c): the fuzzer's oracle
 * (fuzz/mcm_fuzz_src_model.c) predicts from them what a join must get, and
 * the host tests' fake device (host/fake/fake_dev.c, fake_src.c) answers
 * from them.
 */
#ifndef MCM_MODEL_H
#define MCM_MODEL_H

#include <stdbool.h>
#include <stdint.h>

int addr_errno(const void *a, uint32_t len, int *family);
bool source_unicast(int family, const uint8_t *ip);

#endif
