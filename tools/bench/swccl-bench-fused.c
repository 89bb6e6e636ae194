// SPDX-License-Identifier: MIT
/*
 * swccl-bench-fused.c - swccl-bench fused-ag | fused-rs: the paper's
 * Tables 3 and 4 (communication-computation overlap by bidirectional
 * operator fusion) on the emulated card, in modeled time.
 *
 *   swccl-bench fused-ag|fused-rs [-b MIN] [-e MAX] [-f FACTOR] [-d bf16|f32]
 *     [-n ITERS] [-w WARMUP] [-c CHECK] [-g NRANKS] [--hidden H] [--ffn N]
 *     [--json] [--no-summary]
 *
 * Per size (default 2M..32M, x2; AG: the gathered activations, RS: the f32
 * partial sums each rank reduces), the workload is tokens x hidden
 * activations (tokens = size / (hidden x element size), split over the
 * ranks), GEMM width --ffn per rank (AG: out = gelu(Y W), W hidden x ffn;
 * RS: P = A W, A tokens x ffn).  Measured: each stage of the unfused
 * sequence on its own (AG: sdaaLayerNorm, swcclAllGather CSC, sdaaGemm; RS:
 * sdaaGemm, swcclReduceScatter CSC, sdaaDropout), the unfused library call
 * (swcclFusionOff) and the fused one; comm = the CSC collective's time,
 * gain = unfused - fused, % = gain / comm as the paper's tables; the fused
 * results are compared bitwise with the unfused ones (-c).  Eqs. (9)-(11)
 * with V = size / 4 and the card's Local-HBM/ring bandwidths and t_launch.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "swai-cli.h"
#include "swccl-bench.h"
#include "swccl-tp.h"

struct fopts {
	int rs, iters, warmup, check, nranks, json, summary;
	size_t minb, maxb, hidden, ffn;
	int factor;
	swcclDataType_t type;
};

/* One rank's buffers (Local-HBM), sized for the largest shape. */
struct fbufs {
	void *x, *y, *w, *p;		/* AG: x, gathered, W; RS: A, -, W, P (stage runs) */
	float *gamma, *beta, *out;
};

struct fb {
	struct fopts o;
	struct tp t;
	struct fbufs b[TP_MAX_RANKS];
	struct bench_fused_shape sh;
	char *h1, *h2;			/* host images for the check */
	size_t hcap;
};

static void fusage(void)
{
	fprintf(stderr, "usage: swccl-bench fused-ag|fused-rs [-b MIN] [-e MAX] [-f FACTOR] "
		"[-d bf16|f32]\n         [-n ITERS] [-w WARMUP] [-c CHECK] [-g NRANKS] "
		"[--hidden H] [--ffn N] [--json] [--no-summary]\n");
	exit(2);
}

static size_t fsize(const char *opt, const char *s)
{
	return swai_cli_size_or_exit("swccl-bench", opt, s);
}

static int fint(const char *opt, const char *s, int min)
{
	return (int)swai_cli_long_or_exit("swccl-bench", opt, s, min, 1 << 20);
}

static void fparse(struct fopts *o, int argc, char **argv)
{
	static const struct option lopts[] = {
		{ "minbytes", required_argument, NULL, 'b' },
		{ "maxbytes", required_argument, NULL, 'e' },
		{ "stepfactor", required_argument, NULL, 'f' },
		{ "datatype", required_argument, NULL, 'd' },
		{ "iters", required_argument, NULL, 'n' },
		{ "warmup_iters", required_argument, NULL, 'w' },
		{ "check", required_argument, NULL, 'c' },
		{ "ngpus", required_argument, NULL, 'g' },
		{ "hidden", required_argument, NULL, 'H' },
		{ "ffn", required_argument, NULL, 'F' },
		{ "json", no_argument, NULL, 'j' },
		{ "no-summary", no_argument, NULL, 'S' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	int c;

	*o = (struct fopts){ .minb = 2 << 20, .maxb = 32 << 20, .factor = 2, .iters = 3,
		.warmup = 1, .check = 1, .nranks = 4, .summary = 1, .hidden = 1024,
		.type = swcclBfloat16 };
	while ((c = getopt_long(argc, argv, "b:e:f:d:n:w:c:g:jh", lopts, NULL)) != -1) {
		switch (c) {
		case 'b': o->minb = fsize("-b", optarg); break;
		case 'e': o->maxb = fsize("-e", optarg); break;
		case 'f': o->factor = fint("-f", optarg, 2); break;
		case 'd':
			if (bench_type_parse(optarg, &o->type) ||
			    (o->type != swcclFloat32 && o->type != swcclBfloat16))
				fusage();
			break;
		case 'n': o->iters = fint("-n", optarg, 1); break;
		case 'w': o->warmup = fint("-w", optarg, 0); break;
		case 'c': o->check = fint("-c", optarg, 0); break;
		case 'g': o->nranks = fint("-g", optarg, 1); break;
		case 'H': o->hidden = (size_t)fint("--hidden", optarg, 1); break;
		case 'F': o->ffn = (size_t)fint("--ffn", optarg, 1); break;
		case 'j': o->json = 1; break;
		case 'S': o->summary = 0; break;
		default: fusage();
		}
	}
	if (optind != argc - 1 || (strcasecmp(argv[optind], "fused-ag") &&
				   strcasecmp(argv[optind], "fused-rs")) ||
	    o->nranks > TP_MAX_RANKS || !o->maxb || o->minb > o->maxb)
		fusage();
	o->rs = !strcasecmp(argv[optind], "fused-rs");
	if (!o->ffn)
		o->ffn = o->hidden / 4 ? o->hidden / 4 : 1;
	if (!o->minb)
		o->minb = 1;
}

/* Bytes of each rank buffer for shape @s. */
static void sizes(const struct fb *f, const struct bench_fused_shape *s, size_t *z)
{
	size_t es = tp_esize(f->o.type), m = s->tokens, h = s->hidden, n = s->n;

	memset(z, 0, 7 * sizeof(*z));
	if (!f->o.rs) {
		z[0] = s->rows * h * es;	/* x */
		z[1] = m * h * es;		/* gathered */
		z[2] = h * n * es;		/* W */
		z[4] = m * n * 4;		/* out */
	} else {
		z[0] = m * n * es;		/* A */
		z[2] = n * h * es;		/* W */
		z[3] = m * h * 4;		/* P */
		z[4] = s->rows * h * 4;		/* out */
	}
}

static void setup(struct fb *f)
{
	struct bench_fused_shape s;
	size_t z[7], es = tp_esize(f->o.type), total;

	tp_open(&f->t, f->o.nranks, "swccl-bench");
	/* the largest size whose buffers (and the library's Local scratch) fit */
	for (;;) {
		bench_fused_shape(f->o.rs, f->o.maxb, es, f->o.hidden, f->o.ffn, f->o.nranks, &s);
		sizes(f, &s, z);
		total = z[0] + z[1] + z[2] + z[3] + z[4] + (f->o.rs ? z[3] : 0) + (1 << 20);
		if (total <= f->t.local_bytes / 10 * 9 || f->o.maxb <= f->o.minb)
			break;
		f->o.maxb /= 2;
		fprintf(stderr, "swccl-bench: sizes above %zu B do not fit Local-HBM; stopping "
			"there\n", f->o.maxb);
	}
	f->sh = s;
	for (int r = 0; r < f->o.nranks; r++) {
		struct fbufs *b = &f->b[r];
		float *g = malloc(f->o.hidden * 4), *be = malloc(f->o.hidden * 4);

		b->x = tp_malloc(&f->t, r, z[0]);
		b->y = z[1] ? tp_malloc(&f->t, r, z[1]) : NULL;
		b->w = tp_malloc(&f->t, r, z[2]);
		b->p = z[3] ? tp_malloc(&f->t, r, z[3]) : NULL;
		b->out = tp_malloc(&f->t, r, z[4]);
		b->gamma = tp_malloc(&f->t, r, f->o.hidden * 4);
		b->beta = tp_malloc(&f->t, r, f->o.hidden * 4);
		tp_fill(g, f->o.hidden, swcclFloat32, 100 + r, 0.5f, 1.5f);
		tp_fill(be, f->o.hidden, swcclFloat32, 200 + r, -0.1f, 0.1f);
		tp_upload(&f->t, r, b->gamma, g, f->o.hidden * 4);
		tp_upload(&f->t, r, b->beta, be, f->o.hidden * 4);
		free(g);
		free(be);
	}
	f->hcap = z[1] > z[4] ? z[1] : z[4];
	f->hcap = f->hcap > z[0] ? f->hcap : z[0];
	f->h1 = malloc(f->hcap);
	f->h2 = malloc(f->hcap);
	if (!f->h1 || !f->h2)
		exit(1);
}

/* Fresh random inputs for shape @s on every rank. */
static void inputs(struct fb *f, const struct bench_fused_shape *s)
{
	size_t z[7], es = tp_esize(f->o.type);

	sizes(f, s, z);
	for (int r = 0; r < f->o.nranks; r++) {
		tp_fill(f->h1, z[0] / es, f->o.type, 1000 + r, -1, 1);
		tp_upload(&f->t, r, f->b[r].x, f->h1, z[0]);
		tp_fill(f->h1, z[2] / es, f->o.type, 2000 + r, -0.1f, 0.1f);
		tp_upload(&f->t, r, f->b[r].w, f->h1, z[2]);
	}
}

enum { RUN_FUSED, RUN_UNFUSED, RUN_STAGE0, RUN_STAGE1, RUN_STAGE2 };

static void launch(struct fb *f, const struct bench_fused_shape *s, int what)
{
	struct tp *t = &f->t;
	size_t es = tp_esize(f->o.type), blk = s->rows * s->hidden;
	sdaaDataType_t st = f->o.type == swcclBfloat16 ? SDAA_R_16BF : SDAA_R_32F;
	int m = (int)s->tokens, h = (int)s->hidden, n = (int)s->n;

	if (what == RUN_STAGE1 || what <= RUN_UNFUSED)
		TP_CCL(t, swcclGroupStart());
	for (int r = 0; r < t->n; r++) {
		struct fbufs *b = &f->b[r];
		swcclLnAgGemmArgs ag = { .x = b->x, .gathered = b->y, .gamma = b->gamma,
			.beta = b->beta, .eps = 1e-5f, .w = b->w, .out = b->out,
			.rowsPerRank = s->rows, .hidden = s->hidden, .ffn = s->n, .type = f->o.type,
			.gelu = 1, .fusion = what == RUN_FUSED ? swcclFusionOn : swcclFusionOff };
		swcclGemmRsDropoutArgs rs = { .a = b->x, .w = b->w, .out = b->out,
			.rowsPerRank = s->rows, .k = s->n, .hidden = s->hidden, .type = f->o.type,
			.keep = 0.9f, .seed = 1234, .offset = 0,
			.fusion = what == RUN_FUSED ? swcclFusionOn : swcclFusionOff };
		void *own = (char *)(f->o.rs ? b->p : b->y) + r * blk * (f->o.rs ? 4 : es);

		TP_TRY(t, sdaaSetDevice(t->dev[r]));
		if (what <= RUN_UNFUSED && !f->o.rs)
			TP_CCL(t, swcclLayerNormAllGatherGemm(&ag, t->comm[r], t->s[r]));
		else if (what <= RUN_UNFUSED)
			TP_CCL(t, swcclGemmReduceScatterDropout(&rs, t->comm[r], t->s[r]));
		else if (what == RUN_STAGE0 && !f->o.rs)
			TP_TRY(t, sdaaLayerNorm(own, b->x, b->gamma, b->beta, (int)s->rows, h, 1e-5f,
						st, t->s[r]));
		else if (what == RUN_STAGE0)
			TP_TRY(t, sdaaGemm(SDAA_OP_N, SDAA_OP_N, m, h, n, 1.0f, b->x, n, b->w, h,
					   0.0f, b->p, h, st, SDAA_EPILOGUE_DEFAULT, t->s[r]));
		else if (what == RUN_STAGE1 && !f->o.rs)
			TP_CCL(t, swcclAllGather(own, b->y, blk, f->o.type, t->comm[r], t->s[r]));
		else if (what == RUN_STAGE1)
			TP_CCL(t, swcclReduceScatter(b->p, own, blk, swcclFloat32, swcclSum,
						     t->comm[r], t->s[r]));
		else if (!f->o.rs)
			TP_TRY(t, sdaaGemm(SDAA_OP_N, SDAA_OP_N, m, n, h, 1.0f, b->y, h, b->w, n,
					   0.0f, b->out, n, st, SDAA_EPILOGUE_GELU, t->s[r]));
		else
			TP_TRY(t, sdaaDropout(b->out, own, blk, 0.9f, 1234, r * blk, SDAA_R_32F,
					      t->s[r]));
	}
	if (what == RUN_STAGE1 || what <= RUN_UNFUSED)
		TP_CCL(t, swcclGroupEnd());
}

static double timed(struct fb *f, const struct bench_fused_shape *s, int what, double *wall)
{
	double m = 0, w = 0, wi;

	for (int i = 0; i < f->o.warmup; i++) {
		tp_begin(&f->t);
		launch(f, s, what);
		tp_end(&f->t, &wi);
	}
	for (int i = 0; i < f->o.iters; i++) {
		tp_begin(&f->t);
		launch(f, s, what);
		m += tp_end(&f->t, &wi);
		w += wi;
	}
	if (wall)
		*wall = w / f->o.iters;
	return m / f->o.iters;
}

/* The outputs (AG: gathered and out; RS: out) of rank @r into @dst. */
static void outputs(struct fb *f, const struct bench_fused_shape *s, int r, char *dst,
		    size_t *bytes)
{
	size_t z[7], off = 0;

	sizes(f, s, z);
	if (!f->o.rs) {
		tp_download(&f->t, r, dst, f->b[r].y, z[1]);
		off = z[1];
	}
	tp_download(&f->t, r, dst + off, f->b[r].out, z[4]);
	*bytes = off + z[4];
}

/* Elements (4-byte words) where fused and unfused differ, all ranks. */
static long compare(struct fb *f, const struct bench_fused_shape *s)
{
	size_t z[7], n1, n2;
	char *a, *b;
	long wrong = 0;

	sizes(f, s, z);
	a = malloc(z[1] + z[4]);
	b = malloc(z[1] + z[4]);
	if (!a || !b)
		exit(1);
	for (int r = 0; r < f->o.nranks; r++) {
		tp_sync(&f->t);
		launch(f, s, RUN_UNFUSED);
		tp_sync(&f->t);
		outputs(f, s, r, a, &n1);
		launch(f, s, RUN_FUSED);
		tp_sync(&f->t);
		outputs(f, s, r, b, &n2);
		for (size_t i = 0; i + 4 <= n1; i += 4)
			wrong += memcmp(a + i, b + i, 4) != 0;
	}
	free(a);
	free(b);
	return wrong;
}

static struct bench_fused_row measure(struct fb *f, size_t bytes)
{
	struct bench_fused_row row = { .rs = f->o.rs, .nranks = f->o.nranks, .type = f->o.type,
				       .wrong = -1 };
	struct bench_fused_shape s;
	struct bench_paper_overlap po;
	struct bench_fusion_eq eq;
	struct swcclCallInfo info;

	row.bytes = bench_fused_shape(f->o.rs, bytes, tp_esize(f->o.type), f->o.hidden, f->o.ffn,
				      f->o.nranks, &s);
	row.rows = s.rows;
	row.hidden = s.hidden;
	row.n = s.n;
	inputs(f, &s);
	for (int r = 0; r < f->o.nranks; r++)
		TP_CCL(&f->t, swcclCommSetAlgo(f->t.comm[r], swcclAlgoCsc));
	for (int k = 0; k < 3; k++)
		row.stage_us[k] = timed(f, &s, RUN_STAGE0 + k, NULL);
	row.unfused_us = timed(f, &s, RUN_UNFUSED, &row.wall_unfused_us);
	TP_CCL(&f->t, swcclCommLastCallInfo(f->t.comm[0], &info));
	if (info.fused != 0)
		fprintf(stderr, "swccl-bench: the unfused call reports fused %d\n", info.fused);
	row.predicted_unfused_us = info.predicted_us;
	row.fused_us = timed(f, &s, RUN_FUSED, &row.wall_fused_us);
	TP_CCL(&f->t, swcclCommLastCallInfo(f->t.comm[0], &info));
	if (info.fused != 1)
		fprintf(stderr, "swccl-bench: the fused call reports fused %d\n", info.fused);
	row.predicted_fused_us = info.predicted_us;
	for (int r = 0; r < f->o.nranks; r++)
		TP_CCL(&f->t, swcclCommSetAlgo(f->t.comm[r], swcclAlgoAuto));
	bench_fused_derive(&row);
	if (!bench_paper_overlap(f->o.rs, row.bytes, &po)) {
		row.have_paper = 1;
		row.paper_comm_us = po.comm_us;
		row.paper_gain_us = po.gain_us;
		row.paper_pct = po.pct;
	}
	eq = bench_eq9_11((double)row.bytes / 4, f->t.tp.localMBps, f->t.tp.ringMBps,
			  f->t.tp.launchNs / 1e3);
	row.t1_us = eq.t1_us;
	row.t2_us = eq.t2_us;
	row.p = eq.p;
	if (f->o.check)
		row.wrong = compare(f, &s);
	return row;
}

static void banner(const struct fb *f)
{
	const struct fopts *o = &f->o;

	printf("# swccl-bench %s: %d ranks = core groups 0..%d of SW-AI card %d; %s activations, "
	       "hidden %zu, %s %zu per rank\n"
	       "# %s; %d warmup + %d timed run(s); check %d (fused vs unfused, bitwise)\n"
	       "# model: Local-HBM %u MB/s, ring %u MB/s per CG, launch %u ns, host sync %u ns, "
	       "barrier %u ns; f32 %u / bf16 %u GFLOP/s per CG\n"
	       "# stages of the unfused sequence timed one by one; comm = the CSC collective; "
	       "gain = unfused - fused; gain%% = gain / comm\n"
	       "# paper: Table %d (KB = KiB); eqs. (9)-(11) with V = size / 4%s\n#\n",
	       o->rs ? "fused-rs" : "fused-ag", o->nranks, o->nranks - 1, f->t.card,
	       bench_type_name(o->type), o->hidden, o->rs ? "GEMM k" : "GEMM ffn", o->ffn,
	       o->rs ? "size = the f32 partial sums of a rank (tokens x hidden x 4 B); "
	       "GemmReduceScatterDropout, keep 0.9" :
	       "size = the gathered activations (tokens x hidden); LayerNormAllGatherGemm, GELU",
	       o->warmup, o->iters, o->check, f->t.tp.localMBps, f->t.tp.ringMBps,
	       f->t.tp.launchNs, f->t.tp.syncNs, f->t.tp.barrierNs, f->t.tp.f32Gflops,
	       f->t.tp.bf16Gflops, o->rs ? 4 : 3,
	       o->rs ? " (the paper derives them for AG; the same forms for RS)" : "");
}

static void summary(const struct fb *f, const struct bench_fused_row *rows, int n)
{
	double best = 0, sum = 0;

	for (int i = 0; i < n; i++) {
		best = rows[i].pct > best ? rows[i].pct : best;
		sum += rows[i].pct;
	}
	if (f->o.json) {
		printf("{\"kind\":\"fused_summary\",\"op\":\"%s\",\"sizes\":%d,\"max_gain_pct\":%.3f,"
		       "\"mean_gain_pct\":%.3f,\"paper_max_gain_pct\":%d}\n",
		       f->o.rs ? "fused-rs" : "fused-ag", n, best, n ? sum / n : 0,
		       f->o.rs ? 35 : 59);
		return;
	}
	printf("#\n# overlap gain / communication time: max %.0f%%, mean %.0f%% over %d sizes "
	       "(paper: max %d%%, Table %d)\n", best, n ? sum / n : 0, n, f->o.rs ? 35 : 59,
	       f->o.rs ? 4 : 3);
	/* The eqs. count data movement only; our gain is measured with the compute. */
	printf("# our gain / eqs. (9)-(10)'s T1 - T2:");
	for (int i = 0; i < n; i++)
		printf(" %.2f", rows[i].t1_us > rows[i].t2_us ?
		       rows[i].gain_us / (rows[i].t1_us - rows[i].t2_us) : 0);
	printf(f->o.rs ? " (the eqs. are the paper's for AG; fused RS also saves the GEMM's "
	       "write-back and the Dropout's read and write)\n" :
	       " (1.00: the timing model saves what the analysis says)\n");
	for (int i = 0; i < n; i++) {
		if (rows[i].gain_us > rows[i].comm_us) {
			printf("# gain > comm: fusion also saved the launches of the separate "
			       "kernels (eq. (10) keeps 2 of the 3; our fused call is one job "
			       "per rank)\n");
			break;
		}
	}
}

int bench_fused_main(int argc, char **argv)
{
	struct fb f;
	struct bench_fused_row rows[64];
	int n = 0, failed = 0;

	memset(&f, 0, sizeof(f));
	fparse(&f.o, argc, argv);
	setup(&f);
	if (!f.o.json) {
		banner(&f);
		bench_fused_header(stdout, f.o.rs);
	}
	for (size_t bytes = f.o.minb; bytes <= f.o.maxb && n < 64;
	     bytes *= (size_t)f.o.factor) {
		rows[n] = measure(&f, bytes);
		if (f.o.json)
			bench_fused_json_row(stdout, &rows[n]);
		else
			bench_fused_table_row(stdout, &rows[n]);
		fflush(stdout);
		failed |= rows[n].wrong > 0;
		n++;
	}
	if (f.o.summary)
		summary(&f, rows, n);
	for (int r = 0; r < f.o.nranks; r++) {
		struct fbufs *b = &f.b[r];

		tp_sync(&f.t);
		tp_free(&f.t, r, b->x);
		if (b->y)
			tp_free(&f.t, r, b->y);
		tp_free(&f.t, r, b->w);
		if (b->p)
			tp_free(&f.t, r, b->p);
		tp_free(&f.t, r, b->out);
		tp_free(&f.t, r, b->gamma);
		tp_free(&f.t, r, b->beta);
	}
	tp_close(&f.t);
	free(f.h1);
	free(f.h2);
	return failed ? 1 : 0;
}
