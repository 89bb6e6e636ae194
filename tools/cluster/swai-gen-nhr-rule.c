/* SPDX-License-Identifier: GPL-2.0-or-later OR MIT */
/*
 * swai-gen-nhr-rule.c - seed 000's step rule for NHR (swai-gen.h): the
 * number of steps, ceil(log2 N), and the slices D = round((N - 1) /
 * 2^(k + 1)) that step k sends, rounding half up (banker's rounding gives
 * D = 0 at N = 3, k = 1).  The generator (swai-gen-nhr.c) and the slice
 * order's search (swai-gen-nhr-order.c) both follow it.
 */
#include "swai-gen.h"

int swai_nhr_steps(int N)
{
    int S = 0;

    while ((1 << S) < N) {
        S++;
    }
    return S;
}

int swai_nhr_slices(int N, int k)
{
    return (N - 1 + (1 << k)) >> (k + 1);
}
