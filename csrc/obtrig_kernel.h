/* obtrig_kernel.h: the one source of obtrig.h's sin/cos and atan2 kernels,
** included once per vector width with OB_TK_V (N doubles), OB_TK_L (N
** int64), OB_TK_N and the two function names defined.  Every width runs the
** same operations lane by lane (IEEE +, −, ×, ÷, bit masks), so a value's
** bits do not depend on the width it was computed at.  See obtrig.h. */

/* m ? a : b, lane by lane (a macro: no vector is passed by value, whose
** ABI GCC notes for the four-lane width) */
#define OB_TK_SEL(m, a, b) ((OB_TK_V)(((OB_TK_L)(a) & (m)) | ((OB_TK_L)(b) & ~(m))))
/* whether any lane of a mask is set: four lanes or-ed in two shuffles, two
** lanes or-ed */
#if OB_TK_N == 4
#define OB_TK_ANY(m) ({ OB_TK_L any_ = (m) | OB_SHUF4(m, m, 2, 3, 0, 1); any_ |= OB_SHUF4(any_, any_, 1, 0, 3, 2); any_[0] != 0; })
#else
#define OB_TK_ANY(m) (((m)[0] | (m)[1]) != 0)
#endif

/* The kernels' coefficients, each written once: (name, value).  The four-lane
** width reads them as whole vectors through a pointer the compiler cannot see
** through, so that they stay memory operands (GCC 12 otherwise broadcasts each
** ahead of a loop and spills it: physics' rounds, the trig pass); the two-lane
** width reads the scalar table, which the compiler folds into literals.  The
** same values and operations either way: the bits do not change. */
#ifndef OB_TK_CONSTS
#define OB_TK_CONSTS(X)                                                                       \
    X(INV_PIO2, 0x1.45f306dc9c883p-1)                      /* 2/π */                          \
    X(PIO2_1, 0x1.921fb544p+0) X(PIO2_2, 0x1.0b4611a6p-34) /* π/2 in 33 + 33 + 53 bits */     \
    X(PIO2_3, 0x1.3198a2e037073p-69)                                                          \
    X(S6, -0x1.ab17d404de5b3p-41) X(S5, 0x1.61217f0b800d5p-33) X(S4, -0x1.ae645412c560cp-26)  \
    X(S3, 0x1.71de3a546095bp-19) X(S2, -0x1.a01a01a019938p-13) X(S1, 0x1.1111111111110p-7)    \
    X(S0, -0x1.5555555555555p-3)                                                              \
    X(C5, -0x1.907da367a37cbp-37) X(C4, 0x1.1eeb68e93b64cp-29) X(C3, -0x1.27e4fa17da09ep-22)  \
    X(C2, 0x1.a01a019f4eb01p-16) X(C1, -0x1.6c16c16c16967p-10) X(C0, 0x1.5555555555555p-5)    \
    X(TAN_PI8, 0x1.a827999fcef32p-2)                                                          \
    X(A0, -0x1.5555555555555p-2) X(A1, 0x1.9999999999953p-3) X(A2, -0x1.249249248d7eep-3)     \
    X(A3, 0x1.c71c71c304b68p-4) X(A4, -0x1.745d165df3f95p-4) X(A5, 0x1.3b1392d9e785cp-4)      \
    X(A6, -0x1.110e880a7a521p-4) X(A7, 0x1.e19a13b9fc6dfp-5) X(A8, -0x1.ac7a938b69c93p-5)     \
    X(A9, 0x1.74ddd408bb4c1p-5) X(A10, -0x1.1b33b923aa954p-5) X(A11, 0x1.0ad36a455cafbp-6)    \
    X(PIO4_HI, 0x1.921fb54442d18p-1) X(PIO4_LO, 0x1.1a62633145c07p-55) /* π/4, head + tail */
#define OB_TK_INDEX(name, v) OB_TK_##name,
#define OB_TK_VALUE(name, v) v,
#define OB_TK_ROW4(name, v) {v, v, v, v},
enum { OB_TK_CONSTS(OB_TK_INDEX) OB_TK_CONST_COUNT };
static const double ob_tk_const[OB_TK_CONST_COUNT] __attribute__((unused)) = {OB_TK_CONSTS(OB_TK_VALUE)};
#if defined(__GNUC__)
static const double ob_tk_const4[OB_TK_CONST_COUNT][4] __attribute__((aligned(32), unused)) = {OB_TK_CONSTS(OB_TK_ROW4)};
#endif
#undef OB_TK_INDEX
#undef OB_TK_VALUE
#undef OB_TK_ROW4
#endif
#if OB_TK_N == 4 && defined(__GNUC__)
#define OB_TK_KBASE const OB_TK_V *ob_tk_kp_ = (const OB_TK_V *)ob_tk_const4; __asm__("" : "+r"(ob_tk_kp_))
#define OB_TK_K(name) (ob_tk_kp_[OB_TK_##name])
#else
#define OB_TK_KBASE (void)0
#define OB_TK_K(name) (ob_tk_const[OB_TK_##name])
#endif

__attribute__((always_inline)) static inline void OB_TK_SINCOS(const OB_TK_V *xp, OB_TK_V *sin_out, OB_TK_V *cos_out)
{
    OB_TK_V x = *xp;
    OB_TK_KBASE;
    const double magic = 0x1.8p52;
    OB_TK_V k = x * OB_TK_K(INV_PIO2) + magic;  /* x·2/π rounded to an integer q, in the low bits */
    OB_TK_L quad = (OB_TK_L)k;
    OB_TK_V q = k - magic;
    OB_TK_V r = x - q * OB_TK_K(PIO2_1);  /* π/2 in 33 + 33 + 53 bits */
    r = r - q * OB_TK_K(PIO2_2);
    r = r - q * OB_TK_K(PIO2_3);
    OB_TK_V z = r * r;
    /* sin r = r + r·z·S(z), cos r = 1 − z/2 + z²·C(z): S of degree 6 and C of
    ** degree 5, the Chebyshev fits of (sin √z/√z − 1)/z and (cos √z − 1 + z/2)/z²
    ** on [0, (π/4)²] (mpmath.chebyfit, 200 bits; fit errors 7e-21 and 5e-19) */
    OB_TK_V ps = z * OB_TK_K(S6) + OB_TK_K(S5);
    ps = ps * z + OB_TK_K(S4);
    ps = ps * z + OB_TK_K(S3);
    ps = ps * z + OB_TK_K(S2);
    ps = ps * z + OB_TK_K(S1);
    ps = ps * z + OB_TK_K(S0);
    OB_TK_V s = r + r * z * ps;
    s = OB_TK_SEL(z == 0.0, r, s);  /* sin(−0) = −0 (the sum would give +0) */
    OB_TK_V pc = z * OB_TK_K(C5) + OB_TK_K(C4);
    pc = pc * z + OB_TK_K(C3);
    pc = pc * z + OB_TK_K(C2);
    pc = pc * z + OB_TK_K(C1);
    pc = pc * z + OB_TK_K(C0);
    OB_TK_V hz = z * 0.5, w = 1.0 - hz;
    OB_TK_V c = w + (((1.0 - w) - hz) + z * z * pc);
    /* quadrant: odd swaps; sin negated for 2, 3; cos negated for 1, 2 */
    OB_TK_L sw = ((OB_TK_L)s ^ (OB_TK_L)c) & -(quad & 1);  /* odd: s and c swapped by one xor each */
    OB_TK_V so = (OB_TK_V)((OB_TK_L)s ^ sw ^ ((quad << 62) & INT64_MIN));
    OB_TK_V co = (OB_TK_V)((OB_TK_L)c ^ sw ^ (((quad + 1) << 62) & INT64_MIN));  /* (q ^ q >> 1) & 1 = ((q + 1) & 2) >> 1 */
    OB_TK_L big = ~((OB_TK_V)((OB_TK_L)x & INT64_MAX) <= OB_TRIG_SIN_COS_MAX);  /* NaN, ±inf, huge */
    if (__builtin_expect(OB_TK_ANY(big), 0)) {
        for (int i = 0; i < OB_TK_N; i++)
            if (big[i]) { so[i] = sin(x[i]); co[i] = cos(x[i]); }
    }
    *sin_out = so;
    *cos_out = co;
}

__attribute__((always_inline)) static inline void OB_TK_ATAN2(const OB_TK_V *yp, const OB_TK_V *xp, OB_TK_V *out)
{
    OB_TK_V y = *yp, x = *xp;
    OB_TK_KBASE;
    OB_TK_V ax = (OB_TK_V)((OB_TK_L)x & INT64_MAX), ay = (OB_TK_V)((OB_TK_L)y & INT64_MAX);
    OB_TK_L yb = ay > ax;
    OB_TK_V mx = OB_TK_SEL(yb, ay, ax), mn = OB_TK_SEL(yb, ax, ay);
    OB_TK_V t = mn / OB_TK_SEL(mx == 0.0, mx + 1.0, mx);     /* both 0: t = 0 */
    OB_TK_L red = t > OB_TK_K(TAN_PI8);
    OB_TK_V u = OB_TK_SEL(red, (t - 1.0) / (t + 1.0), t);
    OB_TK_V s = u * u;
    /* Estrin's scheme (issue 17): pairs, then by s², s⁴, s⁸: four
    ** multiply-add levels instead of twelve (Q weighs ≤ 0.06 in the result) */
    OB_TK_V s2 = s * s, s4 = s2 * s2, s8 = s4 * s4;
    OB_TK_V e0 = OB_TK_K(A0) + OB_TK_K(A1) * s;
    OB_TK_V e1 = OB_TK_K(A2) + OB_TK_K(A3) * s;
    OB_TK_V e2 = OB_TK_K(A4) + OB_TK_K(A5) * s;
    OB_TK_V e3 = OB_TK_K(A6) + OB_TK_K(A7) * s;
    OB_TK_V e4 = OB_TK_K(A8) + OB_TK_K(A9) * s;
    OB_TK_V e5 = OB_TK_K(A10) + OB_TK_K(A11) * s;
    OB_TK_V p = ((e0 + s2 * e1) + s4 * (e2 + s2 * e3)) + s8 * (e4 + s2 * e5);
    p = u + u * s * p;
    /* the result is m·π/4 ± p, m from the octant (m·π/4 as head + tail):
    ** |y| > |x| gives π/2 − p, x < 0 (−0 too) π − p, both π/2 + p; the
    ** reduction adds π/4 with p's sign */
    OB_TK_L xneg = ((OB_TK_L)x & INT64_MIN) != 0;
    OB_TK_L neg = yb ^ xneg;
    OB_TK_L m = (yb & 2) + (xneg & ~yb & 4) + (red & ((neg & -2) + 1));
    /* m·π/4 as head + tail: m times π/4's head and tail (exact for m ≤ 4: the
    ** values a table would hold), m as a double by the 2^52 trick */
    OB_TK_V mf = (OB_TK_V)(m | 0x4330000000000000) - 0x1p52;
    OB_TK_V hi = mf * OB_TK_K(PIO4_HI), lo = mf * OB_TK_K(PIO4_LO);
    OB_TK_V r = hi + (lo + (OB_TK_V)((OB_TK_L)p ^ (neg & INT64_MIN)));
    r = (OB_TK_V)((OB_TK_L)r | ((OB_TK_L)y & INT64_MIN));  /* r ≥ 0 here: the sign of y */
    OB_TK_L odd = ~(ax <= 0x1.fffffffffffffp+1023) | ~(ay <= 0x1.fffffffffffffp+1023);  /* NaN, ±inf */
    if (__builtin_expect(OB_TK_ANY(odd), 0)) {
        for (int i = 0; i < OB_TK_N; i++)
            if (odd[i]) r[i] = atan2(y[i], x[i]);
    }
    *out = r;
}

#undef OB_TK_SEL
#undef OB_TK_K
#undef OB_TK_KBASE
#undef OB_TK_ANY
