/* test_curve_spine.c: the Spine curve look-up (csrc/curve_spine.c) bisects
** when a key's samples ascend; it must find the sample the plain scan finds
** (spine-core getBezierValue), bit for bit, for any handles and any t. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "curve_spine.h"

static unsigned long long rng = 88172645463325252ULL;
static double uniform(double lo, double hi)  /* xorshift64 */
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return lo + (hi - lo) * (double)(rng >> 11) / 9007199254740992.0;
}

int main(void)
{
    long n = 0, ascending = 0, bad = 0;
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
        }
    }
    printf("%ld look-ups (%ld ascending curves): %ld differ\n", n, ascending, bad);
    return bad != 0 || ascending == 0;
}
