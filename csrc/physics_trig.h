/* physics_trig.h: physics.c's four-lane sin/cos and atan2 (issue 17,
** physics): obtrig_kernel.h's operations lane by lane, so the same bits as
** ob_sincos_v4p / ob_atan2_v4p (tests/test_physics_trig.py compares them
** bit for bit), with cheaper lane bookkeeping.  Included by physics.c only. */
#ifndef OB_PHYSICS_TRIG_H
#define OB_PHYSICS_TRIG_H

#include "obtrig.h"

/* issue 17 (physics): obtrig_kernel.h's sin/cos at four lanes, for the AVX2
** variant only: the same operations lane by lane (the same bits), but the
** out-of-domain test or-ed across the lanes in two shuffles instead of a
** loop over the lanes, the quadrant's swap as xors and cos's sign from
** (q + 1) & 2 */
#define PH_SEL4(m, a, b) ((ob_v4d)(((ob_v4l)(a) & (m)) | ((ob_v4l)(b) & ~(m))))
__attribute__((always_inline)) static inline void ph_sincos4(const ob_v4d *xp, ob_v4d *sin_out, ob_v4d *cos_out)
{
    ob_v4d x = *xp;
    const double magic = 0x1.8p52;
    ob_v4d k = x * 0x1.45f306dc9c883p-1 + magic;  /* x·2/π rounded to an integer q, in the low bits */
    ob_v4l quad = (ob_v4l)k;
    ob_v4d q = k - magic;
    ob_v4d r = x - q * 0x1.921fb544p+0;           /* π/2 in 33 + 33 + 53 bits */
    r = r - q * 0x1.0b4611a6p-34;
    r = r - q * 0x1.3198a2e037073p-69;
    ob_v4d z = r * r;
    /* sin r = r + r·z·S(z), cos r = 1 − z/2 + z²·C(z): S of degree 6 and C of
    ** degree 5, the Chebyshev fits of (sin √z/√z − 1)/z and (cos √z − 1 + z/2)/z²
    ** on [0, (π/4)²] (mpmath.chebyfit, 200 bits; fit errors 7e-21 and 5e-19) */
    ob_v4d ps = z * -0x1.ab17d404de5b3p-41 + 0x1.61217f0b800d5p-33;
    ps = ps * z + -0x1.ae645412c560cp-26;
    ps = ps * z + 0x1.71de3a546095bp-19;
    ps = ps * z + -0x1.a01a01a019938p-13;
    ps = ps * z + 0x1.1111111111110p-7;
    ps = ps * z + -0x1.5555555555555p-3;
    ob_v4d s = r + r * z * ps;
    s = PH_SEL4(z == 0.0, r, s);  /* sin(−0) = −0 (the sum would give +0) */
    ob_v4d pc = z * -0x1.907da367a37cbp-37 + 0x1.1eeb68e93b64cp-29;
    pc = pc * z + -0x1.27e4fa17da09ep-22;
    pc = pc * z + 0x1.a01a019f4eb01p-16;
    pc = pc * z + -0x1.6c16c16c16967p-10;
    pc = pc * z + 0x1.5555555555555p-5;
    ob_v4d hz = z * 0.5, w = 1.0 - hz;
    ob_v4d c = w + (((1.0 - w) - hz) + z * z * pc);
    /* quadrant: odd swaps; sin negated for 2, 3; cos negated for 1, 2 */
    ob_v4l sw = ((ob_v4l)s ^ (ob_v4l)c) & -(quad & 1);  /* odd: s and c swapped by one xor each */
    ob_v4d so = (ob_v4d)((ob_v4l)s ^ sw ^ ((quad << 62) & INT64_MIN));
    ob_v4d co = (ob_v4d)((ob_v4l)c ^ sw ^ (((quad + 1) << 62) & INT64_MIN));  /* (q ^ q >> 1) & 1 = ((q + 1) & 2) >> 1 */
    ob_v4l big = ~((ob_v4d)((ob_v4l)x & INT64_MAX) <= OB_TRIG_SIN_COS_MAX);  /* NaN, ±inf, huge */
    ob_v4l any = big | OB_SHUF4(big, big, 2, 3, 0, 1);  /* the lanes or-ed in two shuffles */
    any |= OB_SHUF4(any, any, 1, 0, 3, 2);
    if (__builtin_expect(any[0] != 0, 0)) {
        for (int i = 0; i < 4; i++)
            if (big[i]) { so[i] = sin(x[i]); co[i] = cos(x[i]); }
    }
    *sin_out = so;
    *cos_out = co;
}

/* and its atan2: the octant's m·π/4 (head + tail) as m times π/4's, not
** a table read per lane */
__attribute__((always_inline)) static inline void ph_atan2_4(const ob_v4d *yp, const ob_v4d *xp, ob_v4d *out)
{
    ob_v4d y = *yp, x = *xp;
    ob_v4d ax = (ob_v4d)((ob_v4l)x & INT64_MAX), ay = (ob_v4d)((ob_v4l)y & INT64_MAX);
    ob_v4l yb = ay > ax;
    ob_v4d mx = PH_SEL4(yb, ay, ax), mn = PH_SEL4(yb, ax, ay);
    ob_v4d t = mn / PH_SEL4(mx == 0.0, mx + 1.0, mx);     /* both 0: t = 0 */
    ob_v4l red = t > 0x1.a827999fcef32p-2;                  /* tan(π/8) */
    ob_v4d u = PH_SEL4(red, (t - 1.0) / (t + 1.0), t);
    ob_v4d s = u * u;
    /* Estrin's scheme (issue 17): pairs, then by s², s⁴, s⁸: four
    ** multiply-add levels instead of twelve (Q weighs ≤ 0.06 in the result) */
    ob_v4d s2 = s * s, s4 = s2 * s2, s8 = s4 * s4;
    ob_v4d e0 = -0x1.5555555555555p-2 + 0x1.9999999999953p-3 * s;
    ob_v4d e1 = -0x1.249249248d7eep-3 + 0x1.c71c71c304b68p-4 * s;
    ob_v4d e2 = -0x1.745d165df3f95p-4 + 0x1.3b1392d9e785cp-4 * s;
    ob_v4d e3 = -0x1.110e880a7a521p-4 + 0x1.e19a13b9fc6dfp-5 * s;
    ob_v4d e4 = -0x1.ac7a938b69c93p-5 + 0x1.74ddd408bb4c1p-5 * s;
    ob_v4d e5 = -0x1.1b33b923aa954p-5 + 0x1.0ad36a455cafbp-6 * s;
    ob_v4d p = ((e0 + s2 * e1) + s4 * (e2 + s2 * e3)) + s8 * (e4 + s2 * e5);
    p = u + u * s * p;
    /* the result is m·π/4 ± p, m from the octant (m·π/4 as head + tail):
    ** |y| > |x| gives π/2 − p, x < 0 (−0 too) π − p, both π/2 + p; the
    ** reduction adds π/4 with p's sign */
    ob_v4l xneg = ((ob_v4l)x & INT64_MIN) != 0;
    ob_v4l neg = yb ^ xneg;
    ob_v4l m = (yb & 2) + (xneg & ~yb & 4) + (red & ((neg & -2) + 1));
    /* head[m], tail[m] = m·head[1], m·tail[1] (exact for m ≤ 4: the tables'
    ** values); m as a double by the 2^52 trick */
    ob_v4d mf = (ob_v4d)(m | 0x4330000000000000) - 0x1p52;
    ob_v4d hi = mf * 0x1.921fb54442d18p-1, lo = mf * 0x1.1a62633145c07p-55;
    ob_v4d r = hi + (lo + (ob_v4d)((ob_v4l)p ^ (neg & INT64_MIN)));
    r = (ob_v4d)((ob_v4l)r | ((ob_v4l)y & INT64_MIN));  /* r ≥ 0 here: the sign of y */
    ob_v4l odd = ~(ax <= 0x1.fffffffffffffp+1023) | ~(ay <= 0x1.fffffffffffffp+1023);  /* NaN, ±inf */
    ob_v4l any = odd | OB_SHUF4(odd, odd, 2, 3, 0, 1);
    any |= OB_SHUF4(any, any, 1, 0, 3, 2);
    if (__builtin_expect(any[0] != 0, 0)) {
        for (int i = 0; i < 4; i++)
            if (odd[i]) r[i] = atan2(y[i], x[i]);
    }
    *out = r;
}

#undef PH_SEL4

#endif
