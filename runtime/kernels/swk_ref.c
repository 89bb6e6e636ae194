// SPDX-License-Identifier: MIT
/*
 * swk_ref.c - the host reference of the card's compute instructions: the
 * bit-exact definitions of datasheet §13.7 (bf16 rounding, Philox dropout,
 * LayerNorm, GELU) and a GEMM in double for the tolerance checks.
 *
 * Built with -ffp-contract=off: a fused multiply-add would round once where
 * the card rounds twice, and LayerNorm must agree bit for bit.
 */
#include <math.h>
#include <string.h>

#include "swk.h"

uint16_t swk_bf16_from_f32(float f)
{
	uint32_t u;

	memcpy(&u, &f, sizeof(u));
	if ((u & 0x7fffffffu) > 0x7f800000u)
		return (uint16_t)((u >> 16) | 0x0040u);	/* NaN: keep sign and payload, quiet */
	/* Round to nearest, ties to even; overflows round to infinity. */
	return (uint16_t)((u + 0x7fffu + ((u >> 16) & 1u)) >> 16);
}

float swk_f32_from_bf16(uint16_t h)
{
	uint32_t u = (uint32_t)h << 16;
	float f;

	memcpy(&f, &u, sizeof(f));
	return f;
}

float swk_load(uint8_t dtype, const void *p, size_t i)
{
	if (dtype == SWAI_DT_BF16) {
		uint16_t h;

		memcpy(&h, (const uint8_t *)p + i * 2, sizeof(h));
		return swk_f32_from_bf16(h);
	} else {
		float f;

		memcpy(&f, (const uint8_t *)p + i * 4, sizeof(f));
		return f;
	}
}

void swk_store(uint8_t dtype, void *p, size_t i, float v)
{
	if (dtype == SWAI_DT_BF16) {
		uint16_t h = swk_bf16_from_f32(v);

		memcpy((uint8_t *)p + i * 2, &h, sizeof(h));
	} else {
		memcpy((uint8_t *)p + i * 4, &v, sizeof(v));
	}
}

void swk_philox4x32_10(const uint32_t ctr[4], const uint32_t key[2], uint32_t out[4])
{
	uint32_t c0 = ctr[0], c1 = ctr[1], c2 = ctr[2], c3 = ctr[3];
	uint32_t k0 = key[0], k1 = key[1];

	for (int r = 0; r < 10; r++) {
		uint64_t p0 = (uint64_t)0xD2511F53u * c0, p1 = (uint64_t)0xCD9E8D57u * c2;
		uint32_t hi0 = (uint32_t)(p0 >> 32), lo0 = (uint32_t)p0;
		uint32_t hi1 = (uint32_t)(p1 >> 32), lo1 = (uint32_t)p1;

		c0 = hi1 ^ c1 ^ k0;
		c1 = lo1;
		c2 = hi0 ^ c3 ^ k1;
		c3 = lo0;
		k0 += 0x9E3779B9u;
		k1 += 0xBB67AE85u;
	}
	out[0] = c0;
	out[1] = c1;
	out[2] = c2;
	out[3] = c3;
}

float swk_dropout_u(uint64_t seed, uint64_t c)
{
	uint64_t q = c / 4;
	uint32_t ctr[4] = { (uint32_t)q, (uint32_t)(q >> 32), 0, 0 };
	uint32_t key[2] = { (uint32_t)seed, (uint32_t)(seed >> 32) };
	uint32_t w[4];

	swk_philox4x32_10(ctr, key, w);
	return (float)(w[c % 4] >> 8) * 0x1p-24f;
}

float swk_gelu(float x)
{
	return 0.5f * x * (1.0f + tanhf(0.7978845608028654f * (x + 0.044715f * x * x * x)));
}

void swk_ref_gemm(int trans_a, int trans_b, uint32_t m, uint32_t n, uint32_t k, float alpha,
		  const void *a, uint32_t lda, const void *b, uint32_t ldb, float beta, float *c,
		  uint32_t ldc, uint8_t dtype, uint8_t epilogue, float *tol)
{
	for (uint32_t i = 0; i < m; i++) {
		for (uint32_t j = 0; j < n; j++) {
			double sum = 0, mag = 0, r;
			float *cij = &c[(size_t)i * ldc + j];

			for (uint32_t l = 0; l < k; l++) {
				double x = swk_load(dtype, a, trans_a ? (size_t)l * lda + i :
								       (size_t)i * lda + l);
				double y = swk_load(dtype, b, trans_b ? (size_t)j * ldb + l :
								       (size_t)l * ldb + j);

				sum += x * y;
				mag += fabs(x * y);
			}
			r = (double)alpha * sum;
			if (beta != 0.0f)
				r += (double)beta * *cij;
			if (tol) {
				double t = 1e-5 * fabs((double)alpha) * mag * sqrt((double)k) +
					   1e-6 * (1 + (beta != 0.0f ? fabs((double)beta * *cij) : 0));

				tol[(size_t)i * ldc + j] = (float)(epilogue == SWAI_EPI_GELU ? 1.2 * t : t);
			}
			*cij = epilogue == SWAI_EPI_GELU ? swk_gelu((float)r) : (float)r;
		}
	}
}

void swk_ref_layernorm(uint32_t rows, uint32_t cols, float eps, uint8_t dtype, const void *x,
		       uint32_t ldx, const float *gamma, const float *beta, void *y, uint32_t ldy)
{
	for (uint32_t r = 0; r < rows; r++) {
		const size_t xr = (size_t)r * ldx, yr = (size_t)r * ldy;
		float sum = 0.0f, var = 0.0f, mean, rstd;

		for (uint32_t j = 0; j < cols; j++)
			sum += swk_load(dtype, x, xr + j);
		mean = sum / (float)cols;
		for (uint32_t j = 0; j < cols; j++) {
			float d = swk_load(dtype, x, xr + j) - mean;

			var += d * d;
		}
		var = var / (float)cols;
		rstd = 1.0f / sqrtf(var + eps);
		for (uint32_t j = 0; j < cols; j++) {
			float v = ((swk_load(dtype, x, xr + j) - mean) * rstd) * gamma[j] + beta[j];

			swk_store(dtype, y, yr + j, v);
		}
	}
}

void swk_ref_dropout(uint64_t n, uint8_t dtype, float keep, uint64_t seed, uint64_t offset,
		     const void *x, void *y)
{
	float scale = 1.0f / keep;

	for (uint64_t i = 0; i < n; i++) {
		float v = swk_load(dtype, x, i);

		swk_store(dtype, y, i, swk_dropout_u(seed, offset + i) < keep ? v * scale : 0.0f);
	}
}

void swk_ref_cvt(uint64_t n, uint8_t from, uint8_t to, const void *x, void *y)
{
	for (uint64_t i = 0; i < n; i++)
		swk_store(to, y, i, swk_load(from, x, i));
}
