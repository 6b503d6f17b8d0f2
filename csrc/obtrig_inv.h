/* obtrig_inv.h: the runtime's own acos (issue 17, cons), on obtrig.h's
** atan2: deterministic (IEEE +, −, ×, √ and that kernel) and free of libm's
** acos, whose last bits differ between libm builds.
**
** acos(c) = atan2(s, c) with s = √((1 − c)·(1 + c)) for c ∈ [−1, 1]: s is
** sin(acos c), which the caller often needs too (the law of cosines), and
** the atan2 runs on two lanes, so a second, independent atan2 rides along.
** (1 − c)(1 + c) rather than 1 − c² keeps s accurate near |c| = 1: one of
** the two factors is exact (Sterbenz) and the other rounded once.
** Error bound (tests/test_trig_inv.py, against mpmath at 100 bits over 2^18
** arguments plus the ends and ±0): ≤ 4 ulp of acos(c) and ≤ 2 ulp of
** sin(acos c) for c ∈ [−1, 1] (measured maxima 2.5 and 1.5).  Outside [−1, 1] the root is NaN and so is
** the result, as acos gives; a NaN argument gives NaN. */
#ifndef OB_TRIG_INV_H
#define OB_TRIG_INV_H

#include "obtrig.h"

/* acos(c), with s = sin(acos c) in *sin_out and atan2(y, x) in *atan2_yx */
static inline double ob_acos_sin(double c, double y, double x, double *sin_out, double *atan2_yx)
{
    double s = sqrt((1 - c) * (1 + c)), r0, r1;
    ob_atan2_2(s, c, y, x, &r0, &r1);
    *sin_out = s;
    *atan2_yx = r1;
    return r0;
}

static inline double ob_acos(double c)
{
    double s, r;
    return ob_acos_sin(c, 0, 1, &s, &r);
}

#endif
