/* SPDX-License-Identifier: GPL-2.0-or-later OR MIT */
/*
 * swai-milp.h - seed 003's exact model, the MILP of its eqs. (1)-(14), on
 * the project's MTEG (swai-mteg.h), solved by COIN-OR CBC: the optimum
 * MTEGCCA is measured against (Documentation/cluster.md §10.1).
 *
 * Per tree k (source s's chunk c, laid out as MTEGCCA's trees) the
 * variables are binary x(k, e, t) -- edge e's chunk leaves u_e at slot t --,
 * y(k, v, t) -- v holds it at slot t --, z(k, v, t) -- v first holds it at
 * t --, integer D(k, v), and one integer Dmax:
 *   (1)  min Dmax, Dmax >= D(k, v)
 *   (2)  y(k, s, 0) = 1;  (3) y(k, v, 0) = 0, v != s
 *   (4)  s sends each chunk at least once
 *   (5)  x(k, e, t) <= y(k, u_e, t)
 *   (6)  y(k, v, t) = y(k, v, t-1) + sum over e into v of x(k, e, t - L_e)
 *   (7)  per link direction r and slot t: the x occupying r in t sum to <= 1
 *   (8)  y(k, v, H) = 1
 *   (9)-(13) z marks the first slot y is 1;  (14) D = sum_t t z(k, v, t)
 * The seed writes (6) with x at t - L - 1 and (5) with t + 1: its y is held
 * "before slot t" and its x starts after it.  Here y is held in slot t and
 * the chunk may leave in that slot, as the MTEG's edges u_t -> v_t+L go: the
 * same model, shifted by one slot, so an optimum is in MTEGCCA's slots.  An
 * x exists only where all of its edge fits in slots 0..H.
 *
 * Why CBC (not GLPK): CBC is a branch-and-cut solver -- cutting planes,
 * preprocessing and primal heuristics around its branch and bound -- and
 * its C API takes a time limit and a MIP start, so a limited run still
 * ends with MTEGCCA's solution or a better one.  GLPK's branch and bound
 * is markedly slower on 0-1 models of this kind.
 */
#ifndef SWAI_MILP_H
#define SWAI_MILP_H

#include <stddef.h>
#include <stdint.h>

#include "swai-mteg.h"

/* More columns than this and the model is refused, not built. */
#define SWAI_MILP_MAX_COLS  2000000

struct swai_milp_result {
    int status;         /* 0 proven optimal, 1 time limit with a solution,
                           2 time limit without, -1 infeasible */
    int slots;          /* the best solution's last arrival (max D) */
    double bound_slots; /* CBC's best bound on it */
    double solve_s;     /* building the model and solving it, wall clock */
    int ncols, nrows;
};

/*
 * The MILP for @coll (SWAI_COLL_ALLGATHER: every card a source;
 * SWAI_COLL_BROADCAST: @root) with @chunks chunks a source on @m (its H;
 * its taken slots are not looked at), stopped after @time_limit_s.
 * @start/@nstart (NULL: none) a feasible solution in swai_mteg_plan's
 * layout, planned on an MTEG of the same H: CBC's MIP start.  The best
 * solution's hops into @hops (room for ntrees x ncards x ncards) and
 * @nhops[ntrees] in the same layout (none unless res->status is 0 or 1).
 * 0 (res->status says what CBC reached), or -EINVAL (bad input, too many
 * columns) / -ENOMEM with @why.  SWAI_MILP_LOG in the environment: CBC's
 * log on stdout.
 */
int swai_milp_solve(const struct swai_mteg *m, enum swai_coll coll, int root, uint32_t chunks,
                    double time_limit_s, const struct swai_mteg_hop *start, const int *nstart,
                    struct swai_mteg_hop *hops, int *nhops, struct swai_milp_result *res,
                    char *why, size_t n);

#endif /* SWAI_MILP_H */
