/* obtrig.h: the runtime's own sin, cos and atan2 (issue 17, §1 exactness,
** §12 doubles): deterministic and vectorisable.
**
** glibc's scalar sin/cos/atan2 and its vector variants (libmvec AVX2,
** AVX-512) differ in their last bits, so a pose computed with whichever one
** runs would depend on the machine.  These are written once over GCC/Clang
** vector extensions of two doubles (SSE2, the x86-64 baseline; NEON on arm64):
** a scalar call runs the very same kernel on a broadcast pair and keeps one
** lane, so scalar and vector results are bit-identical by construction.  The
** operations are IEEE +, −, ×, ÷ and bit masks only, each rounded on its own
** (the files are compiled with -ffp-contract=off, so no FMA is formed), which
** makes the bits the same on every machine and at every vector width.
**
** sin/cos: |x| ≤ 1e5 rad: x = q·π/2 + r with q = rint(x·2/π) (the 1.5·2^52
**   trick) and π/2 in three parts (the first two of 33 bits, so q·P1 and q·P2
**   are exact for |q| < 2^20: Cody and Waite); then on |r| ≤ π/4, z = r²,
**   sin r = r + r·z·S(z) and cos r = w + ((1 − w) − z/2 + z²·C(z)) with
**   w = 1 − z/2, S and C Chebyshev fits of degree 6 and 5 (obtrig_kernel.h),
**   by Horner; the quadrant q mod 4 swaps and negates.
** atan2: t = min(|x|,|y|)/max(|x|,|y|) ∈ [0, 1]; t > tan(π/8) is taken to
**   (t − 1)/(t + 1) with π/4 added back; atan(u) = u + u·s·Q(s), s = u²,
**   Q of degree 11, the Chebyshev fit of (atan(√s)/√s − 1)/s on
**   [0, tan²(π/8)] (mpmath.chebyfit at 200 bits, fit error 2e-19), by
**   Estrin's scheme (four multiply-add levels, not twelve: the latency of a
**   lone call in a constraint; Q weighs ≤ 0.06 in the result); the
**   result m·π/4 ± atan(u) (m·π/4 as head + tail, one rounding where they
**   meet) with m and the sign from the octant, then the sign of y.
** Error bound (tests/test_trig.py checks it against long double, and mpmath
**   when installed, over 2^19 arguments a range plus the quadrant and octant
**   edges): sin, cos ≤ 1.5 ulp on |x| ≤ 50 rad, ≤ 2.5 ulp on |x| ≤ 1e5;
**   atan2 ≤ 3 ulp everywhere (measured maxima 1.45, 2.3 and 2.6).  Outside that domain (|x| > 1e5 rad for
**   sin/cos, a non-finite argument) the lane takes libm's value, in the
**   scalar and the vector path alike.
*/
#ifndef OB_TRIG_H
#define OB_TRIG_H

#include <math.h>
#include <stdint.h>
#include <string.h>

#if !defined(__GNUC__) && !defined(__clang__)
#error "obtrig.h needs GCC or Clang vector extensions"
#endif

typedef double ob_v2d __attribute__((vector_size(16)));
typedef int64_t ob_v2l __attribute__((vector_size(16)));

#define OB_TRIG_SIN_COS_MAX 1e5

/* Runtime dispatch for the array loops (x86-64 Linux, GCC: an ifunc picks
** the AVX2 clone where the CPU has it, else the SSE2 baseline).  The clones
** run the same operations per lane (no FMA: -ffp-contract=off, and AVX2 alone
** does not enable it), so they give the same bits; test_trig checks. */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && defined(__linux__) && !defined(OB_NO_DISPATCH)
#define OB_TRIG_CLONES __attribute__((target_clones("avx2", "default")))
#else
#define OB_TRIG_CLONES
#endif

static inline ob_v2d ob_v2_load(const double *p) { ob_v2d v; memcpy(&v, p, sizeof v); return v; }
static inline void ob_v2_store(double *p, ob_v2d v) { memcpy(p, &v, sizeof v); }

/* ob_sincos_v2p(&x, &sin, &cos), ob_atan2_v2p(&y, &x, &out): two lanes */
#define OB_TK_V ob_v2d
#define OB_TK_L ob_v2l
#define OB_TK_N 2
#define OB_TK_SINCOS ob_sincos_v2p
#define OB_TK_ATAN2 ob_atan2_v2p
#include "obtrig_kernel.h"
#undef OB_TK_V
#undef OB_TK_L
#undef OB_TK_N
#undef OB_TK_SINCOS
#undef OB_TK_ATAN2

/* ob_sincos_v4p, ob_atan2_v4p: four lanes (two SSE2 pairs interleaved, or
** one AVX register): the same bits per lane */
typedef double ob_v4d __attribute__((vector_size(32)));
typedef int64_t ob_v4l __attribute__((vector_size(32)));
/* a four-lane shuffle with constant lane indices (0-3 from a, 4-7 from b): clang
** and GCC >= 12 spell it __builtin_shufflevector, older GCC __builtin_shuffle */
#if defined(__clang__) || (defined(__GNUC__) && __GNUC__ >= 12)
#define OB_SHUF4(a, b, i, j, k, l) __builtin_shufflevector(a, b, i, j, k, l)
#else
#define OB_SHUF4(a, b, i, j, k, l) __builtin_shuffle(a, b, (ob_v4l){i, j, k, l})
#endif
#define OB_TK_V ob_v4d
#define OB_TK_L ob_v4l
#define OB_TK_N 4
#define OB_TK_SINCOS ob_sincos_v4p
#define OB_TK_ATAN2 ob_atan2_v4p
#include "obtrig_kernel.h"
#undef OB_TK_V
#undef OB_TK_L
#undef OB_TK_N
#undef OB_TK_SINCOS
#undef OB_TK_ATAN2

/* the two-lane kernels by value */
static inline void ob_sincos_v2(ob_v2d x, ob_v2d *s, ob_v2d *c) { ob_sincos_v2p(&x, s, c); }
static inline ob_v2d ob_atan2_v2(ob_v2d y, ob_v2d x)
{
    ob_v2d r;
    ob_atan2_v2p(&y, &x, &r);
    return r;
}

/* atan2 and sin/cos of n values from arrays, on pairs: each lane's bits
** whatever its neighbour, so the arrays are padded to an even count (the
** slot past an odd n holds a finite value).  Pairs, not four-lane calls: on
** the SSE2 baseline GCC's four-lane form costs more than two pairs (issue 17),
** where trig.c's ob_atan2_n/ob_sincos_n take four lanes a step. */
static inline void ob_atan2_pairs(const double *y, const double *x, double *out, int32_t n)
{
    for (int32_t j = 0; j < n; j += 2) ob_v2_store(out + j, ob_atan2_v2(ob_v2_load(y + j), ob_v2_load(x + j)));
}
static inline void ob_sincos_pairs(const double *x, double *s, double *c, int32_t n)
{
    for (int32_t j = 0; j < n; j += 2) {
        ob_v2d vs, vc;
        ob_sincos_v2(ob_v2_load(x + j), &vs, &vc);
        ob_v2_store(s + j, vs);
        ob_v2_store(c + j, vc);
    }
}

/* The scalar calls: the vector kernel on a broadcast pair, lane 0. */
static inline void ob_sincos(double x, double *s, double *c)
{
    ob_v2d vs, vc;
    ob_sincos_v2((ob_v2d){x, x}, &vs, &vc);
    *s = vs[0];
    *c = vc[0];
}
static inline double ob_sin(double x) { double s, c; ob_sincos(x, &s, &c); return s; }
static inline double ob_cos(double x) { double s, c; ob_sincos(x, &s, &c); return c; }
static inline double ob_atan2(double y, double x) { return ob_atan2_v2((ob_v2d){y, y}, (ob_v2d){x, x})[0]; }
/* two independent atan2 in one call (the bits of two ob_atan2 calls) */
static inline void ob_atan2_2(double y0, double x0, double y1, double x1, double *r0, double *r1)
{
    ob_v2d r = ob_atan2_v2((ob_v2d){y0, y1}, (ob_v2d){x0, x1});
    *r0 = r[0];
    *r1 = r[1];
}

/* trig.c: n values at a time, two lanes per step (an odd last one on a
** padded pair): the same bits as the scalar calls. */
void ob_sincos_n(const double *x, double *s, double *c, int32_t n);
void ob_atan2_n(const double *y, const double *x, double *out, int32_t n);

#endif
