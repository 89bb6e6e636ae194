/* SPDX-License-Identifier: GPL-2.0-or-later OR MIT */
/*
 * swai-cost.c - the costs of jobs and instructions (swai-cost.h).
 */
#include "swai-cost.h"
#include "swai-le.h"

uint64_t swai_cost_launch_ps(const struct swai_timing_props *tp)
{
    return swai_timing_ns_to_ps(tp->t_launch_ns);
}

uint64_t swai_cost_issue_ps(const struct swai_timing_props *tp, uint8_t op)
{
    return swai_timing_ns_to_ps(op == SWAI_OP_COPY ? tp->t_step_ns
                                                   : tp->t_dma_ns);
}

uint64_t swai_cost_ldm_op_ps(const struct swai_timing_props *tp, uint8_t op,
                             uint64_t bytes)
{
    return swai_timing_ps((op == SWAI_OP_DIV ? 2 : 3) * bytes, tp->ldm_mbps);
}

uint64_t swai_cost_compute_ps(const struct swai_timing_props *tp,
                              const struct swai_cop *c)
{
    const struct swai_insn_gemm *g = &c->u.gemm;
    uint64_t flops, bytes, mn, es, f, b;
    bool bf16 = false;

    /* Inside an LDM of at most 64 MiB, none of this can overflow. */
    switch (c->u.op) {
    case SWAI_OP_GEMM:
        es = swai_isa_compute_esize(g->dtype);
        mn = (uint64_t)g->m * g->n;
        flops = 2 * mn * g->k + (g->epilogue == SWAI_EPI_GELU ? 8 * mn : 0);
        bf16 = g->dtype == SWAI_DT_BF16;
        bytes = ((uint64_t)g->m * g->k + (uint64_t)g->k * g->n) * es +
                mn * 4 * (bits_f32(g->beta) != 0.0f ? 2 : 1);
        break;
    case SWAI_OP_LAYERNORM:
        mn = (uint64_t)c->u.ln.rows * c->u.ln.cols;
        flops = 8 * mn;
        bytes = 2 * mn * swai_isa_compute_esize(c->u.ln.dtype) +
                8ull * c->u.ln.cols;
        break;
    case SWAI_OP_DROPOUT:
        flops = 4ull * c->u.drop.n;
        bytes = 2ull * c->u.drop.n * swai_isa_compute_esize(c->u.drop.dtype);
        break;
    default:    /* CVT */
        flops = 0;
        bytes = c->u.cvt.len * (swai_isa_compute_esize(c->u.cvt.dtype) +
                                swai_isa_compute_esize(c->u.cvt.rop));
        break;
    }
    f = swai_timing_flops_ps(flops, bf16 ? tp->bf16_gflops : tp->f32_gflops);
    b = swai_timing_ps(bytes, tp->ldm_mbps);
    return f > b ? f : b;
}

uint64_t swai_cost_wake_ps(const struct swai_timing_props *tp,
                           const struct swai_insn *in)
{
    bool host = in->op == SWAI_OP_BARRIER && (in->flags & SWAI_BARRIER_HOST);

    return swai_timing_ns_to_ps(host ? tp->t_sync_ns : tp->t_barrier_ns);
}
