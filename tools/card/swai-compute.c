/* SPDX-License-Identifier: GPL-2.0-or-later OR MIT */
/*
 * swai-compute.c - REDUCE, DIV and the compute instructions on a CG's LDM
 * (swai-compute.h).
 */
#include "swai-cg.h"
#include "swai-compute.h"
#include "swai-cost.h"

/*
 * Start an instruction that reads in[] and writes out (out is also read:
 * REDUCE and DIV read it, GEMM may) and takes cost ps: read after write,
 * write after read and write after write against everything in flight.
 */
static void charge(struct swai_engine_cg *c, const struct swai_ldm_range *out,
                   const struct swai_ldm_range *in, unsigned nin,
                   uint64_t cost)
{
    uint64_t t = c->clock_ps, end;
    unsigned i;

    for (i = 0; i < nin; i++) {
        t = swai_cg_max(t, swai_seq_sb_read_ready(&c->sb, in[i].off,
                                                  in[i].len));
    }
    t = swai_cg_max(t, swai_seq_sb_write_ready(&c->sb, out->off, out->len));
    end = t + cost;
    for (i = 0; i < nin; i++) {
        swai_seq_sb_read(&c->sb, in[i].off, in[i].len, end);
    }
    swai_seq_sb_write(&c->sb, out->off, out->len, end);
    c->clock_ps = end;
    c->job.seq.horizon_ps = swai_cg_max(c->job.seq.horizon_ps, end);
}

int swai_compute_kernel(struct swai_engine *e, unsigned cg,
                        const uint8_t *raw)
{
    struct swai_engine_cg *c = &e->cg[cg];
    uint8_t *ldm = swai_cg_ldm(e, cg);
    uint32_t gen = e->gen;
    struct swai_cop op;
    int r;

    r = swai_isa_compute_prepare(raw, e->ldm_bytes, &op);
    if (r) {
        return r;
    }
    charge(c, &op.out, op.in, op.nin, swai_cost_compute_ps(&e->tp, &op));
    swai_cg_ldm_dirty(&c->job, op.out.off, op.out.off + op.out.len);
    if (ldm) {
        /* A large GEMM takes a while on the host: without the lock. */
        swai_cg_unlock(e);
        e->arith->compute(&op, ldm);
        if (!swai_cg_relock(e, cg, gen)) {
            return SWAI_CG_GONE;
        }
    }
    swai_cg_next(&c->job);
    return SWAI_JOB_OK;
}

int swai_compute_elementwise(struct swai_engine *e, unsigned cg,
                             const struct swai_insn *in)
{
    struct swai_engine_cg *c = &e->cg[cg];
    struct swai_engine_job *j = &c->job;
    uint8_t *ldm = swai_cg_ldm(e, cg);
    unsigned es = swai_isa_esize(in->dtype);
    bool div = in->op == SWAI_OP_DIV;
    uint32_t gen = e->gen;
    uint64_t bytes, n, done;

    /* DIV's src is the divisor, not an LDM offset. */
    if (in->dst % es || (!div && in->src % es)) {
        return SWAI_JOB_ERR_ALIGN;
    }
    if (__builtin_mul_overflow(in->len, (uint64_t)es, &bytes) ||
        !swai_cg_in_ldm(e, in->dst, bytes) ||
        (!div && !swai_cg_in_ldm(e, in->src, bytes))) {
        return SWAI_JOB_ERR_LDM;
    }
    if (!j->started) {
        struct swai_ldm_range out = { in->dst, bytes };
        struct swai_ldm_range src = { div ? 0 : in->src, div ? 0 : bytes };

        charge(c, &out, &src, 1, swai_cost_ldm_op_ps(&e->tp, in->op, bytes));
        swai_cg_ldm_dirty(j, in->dst, in->dst + bytes);
        j->started = true;
    }
    done = j->done;
    n = in->len - done;
    n = n < SWAI_CHUNK / es ? n : SWAI_CHUNK / es;
    if (ldm) {
        swai_cg_unlock(e);
        if (div) {
            e->arith->div(ldm + in->dst + done * es, n, in->dtype, in->src);
        } else {
            e->arith->reduce(ldm + in->dst + done * es,
                             ldm + in->src + done * es, n, in->dtype,
                             in->rop);
        }
        if (!swai_cg_relock(e, cg, gen)) {
            return SWAI_CG_GONE;
        }
    }
    j->done = done + n;
    if (j->done == in->len) {
        swai_cg_next(j);
    }
    return SWAI_JOB_OK;
}
