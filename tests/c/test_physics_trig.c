/* test_physics_trig.c: csrc/physics_trig.h's four-lane sin/cos and atan2
** against obtrig.h's (ob_sincos_v4p, ob_atan2_v4p), bit for bit, over
** random arguments of many magnitudes plus the special values (issue 17,
** physics).  Prints "ok N" or the first mismatch; exit status 1 on one. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "physics_trig.h"

static uint64_t rng = 0x9e3779b97f4a7c15u;
static uint64_t next(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

static double pick(void)
{
    static const double special[] = {0.0, -0.0, 1.0, -1.0, 0.5, 1e5, -1e5, 1e5 + 1, 1e300, -1e-300, 5e-324,
                                     INFINITY, -INFINITY, NAN, 0.78539816339744828, 1.5707963267948966,
                                     3.1415926535897931, -3.1415926535897931, 0.41421356237309503};
    uint64_t r = next();
    if (r % 8 == 0) return special[(r >> 8) % (sizeof special / sizeof special[0])];
    double u = (double)(next() >> 11) * 0x1p-53;  /* [0, 1) */
    int e = (int)((r >> 8) % 48) - 30;            /* 2^-30 .. 2^17 */
    double v = ldexp(u, e);
    return (r >> 16) & 1 ? -v : v;
}

static int same(double a, double b) { return memcmp(&a, &b, sizeof a) == 0; }

int main(void)
{
    long n = 0;
    for (long it = 0; it < 400000; it++) {
        ob_v4d x, y, s0, c0, s1, c1, a0, a1;
        for (int i = 0; i < 4; i++) x[i] = pick(), y[i] = pick();
        ob_sincos_v4p(&x, &s0, &c0);
        ph_sincos4(&x, &s1, &c1);
        ob_atan2_v4p(&y, &x, &a0);
        ph_atan2_4(&y, &x, &a1);
        for (int i = 0; i < 4; i++, n++) {
            if (!same(s0[i], s1[i]) || !same(c0[i], c1[i])) {
                printf("sincos(%a): %a %a, want %a %a\n", x[i], s1[i], c1[i], s0[i], c0[i]);
                return 1;
            }
            if (!same(a0[i], a1[i])) {
                printf("atan2(%a, %a): %a, want %a\n", y[i], x[i], a1[i], a0[i]);
                return 1;
            }
        }
    }
    printf("ok %ld\n", n);
    return 0;
}
