/* test_trig_lanes.c: obtrig.h's four-lane sin/cos and atan2 (ob_sincos_v4p,
** ob_atan2_v4p, whose lane tests are shuffles) against its two-lane ones
** (ob_sincos_v2p, ob_atan2_v2p: a loop), bit for bit, over random arguments
** of many magnitudes plus the special values (issue 17).  Prints "ok N" or
** the first mismatch; exit status 1 on one. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "obtrig.h"
#include "testutil.h"

static uint64_t rng = 0x9e3779b97f4a7c15u;
static uint64_t next(void) { return ob_test_xorshift64(&rng); }

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
        ob_atan2_v4p(&y, &x, &a0);
        for (int h = 0; h < 4; h += 2) {  /* the same lanes as two pairs */
            ob_v2d x2, y2, s2, c2, a2;
            memcpy(&x2, (double *)&x + h, sizeof x2);
            memcpy(&y2, (double *)&y + h, sizeof y2);
            ob_sincos_v2p(&x2, &s2, &c2);
            ob_atan2_v2p(&y2, &x2, &a2);
            memcpy((double *)&s1 + h, &s2, sizeof s2);
            memcpy((double *)&c1 + h, &c2, sizeof c2);
            memcpy((double *)&a1 + h, &a2, sizeof a2);
        }
        for (int i = 0; i < 4; i++, n++) {
            if (!same(s0[i], s1[i]) || !same(c0[i], c1[i])) {
                printf("sincos(%a): four lanes %a %a, two lanes %a %a\n", x[i], s0[i], c0[i], s1[i], c1[i]);
                return 1;
            }
            if (!same(a0[i], a1[i])) {
                printf("atan2(%a, %a): four lanes %a, two lanes %a\n", y[i], x[i], a0[i], a1[i]);
                return 1;
            }
        }
    }
    printf("ok %ld\n", n);
    return 0;
}
