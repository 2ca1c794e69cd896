// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * rdma_mcm_test_ulp2: a second instance of the test ULP (its own context,
 * QP and /sys/kernel/debug/rdma_mcm_test_ulp2/), for tests that need two
 * kernel receivers, or a sender beside a receiver.
 */
#define TULP_NAME	"rdma_mcm_test_ulp2"
#include "rdma_mcm_test_ulp.c"
