/* test_curve_spine.c: the Spine curve look-up (csrc/curve_spine.c) bisects
** when a key's samples ascend; it must find the sample the plain scan finds
** (spine-core getBezierValue), bit for bit, for any handles and any t.  The
** per-frame form (ob_curve_spine_fast, issue 17: slopes divided at load) must
** give the same value to within 4 ulp of the curve's range, and exactly the
** sample's y on a zero-width segment. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "curve_spine.h"
#include "testutil.h"

static uint64_t rng = 88172645463325252ULL;
static double uniform(double lo, double hi)
{
    return lo + (hi - lo) * (double)(ob_test_xorshift64(&rng) >> 11) / 9007199254740992.0;
}

int main(void)
{
    long n = 0, ascending = 0, bad = 0, fast_n = 0;
    double fast_worst = 0;
    for (int k = 0; k < 40000; k++) {
        double c[4];
        for (int i = 0; i < 4; i++) c[i] = uniform(-0.3, 1.3);
        if (k % 3 == 0) {  /* time handles inside the span: x ascends */
            c[0] = c[0] < 0 ? 0 : c[0] > 1 ? 1 : c[0];
            c[2] = c[2] < 0 ? 0 : c[2] > 1 ? 1 : c[2];
        }
        if (k % 7 == 0) c[0] = c[2] = 0;  /* flat starts, repeated samples */
        if (k % 11 == 0) c[0] = c[2] = 1;
        if (k % 13 == 0) { c[0] = 0.25; c[2] = 0.75; c[1] = 0.25; c[3] = 0.75; }  /* linear */
        double s[OB_SPINE_SAMPLES], scan[OB_SPINE_SAMPLES];
        ob_curve_spine_samples(c, s);
        memcpy(scan, s, sizeof s);
        scan[18] = 0;  /* force the scan */
        ascending += s[18] != 0;
        double fast[OB_SPINE_FAST];
        int has_fast = ob_curve_spine_fast(s, fast);
        if (s[18] != 0 && !has_fast) bad++;  /* finite handles: every slope is finite */
        for (int j = 0; j < 60; j++) {
            /* t on the samples themselves (ties), at the ends, and anywhere */
            double t = j < 9 ? s[j] : j == 9 ? 0 : j == 10 ? 1 : uniform(-0.05, 1.05);
            double a = ob_curve_spine_sampled(s, t), b = ob_curve_spine_sampled(scan, t);
            n++;
            if (memcmp(&a, &b, sizeof a) != 0) {
                if (bad < 5) printf("differ: handles %g %g %g %g t=%.17g: %.17g vs %.17g\n", c[0], c[1], c[2], c[3], t, a, b);
                bad++;
            }
            double direct = ob_curve_spine(c, t);  /* samples computed on the fly: the same */
            if (memcmp(&a, &direct, sizeof a) != 0) bad++;
            if (has_fast && t >= 0 && t < 1) {  /* the span fractions sampling asks for */
                double v = ob_curve_spine_fast_eval(fast, t), e = fabs(v - a);
                double scale = 1;
                for (int q = 9; q < 18; q++) scale = fmax(scale, fabs(s[q]));
                fast_n++;
                if (e > fast_worst) fast_worst = e;
                if (!(e <= 4 * 2.220446049250313e-16 * scale)) {
                    if (bad < 5) printf("fast differs: handles %g %g %g %g t=%.17g: %.17g vs %.17g\n", c[0], c[1], c[2], c[3], t, v, a);
                    bad++;
                }
            }
        }
    }
    for (int j = 0; j < 1000; j++) {  /* the linear and stepped keys' constant forms: t and +0, exactly */
        double t = j == 0 ? 0 : j == 1 ? 4.9e-324 : j == 2 ? 0.99999999999999989 : uniform(0, 1);
        double lin = ob_curve_spine_fast_eval(ob_curve_fast_linear, t), hold = ob_curve_spine_fast_eval(ob_curve_fast_hold, t);
        if (memcmp(&lin, &t, sizeof t) != 0 || hold != 0 || signbit(hold)) bad++;
    }
    printf("%ld look-ups (%ld ascending curves, %ld fast look-ups, worst |fast - scan| %.3g): %ld differ\n", n,
           ascending, fast_n, fast_worst, bad);
    return bad != 0 || ascending == 0;
}
