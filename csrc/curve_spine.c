/* curve_spine.c: bezier curves of skeleton JSON 4.2 documents (issue 9).
** See curve_spine.h; the rule for handles outside their span is in
** conformance/NOTES.md "Skeleton JSON import (issue 9)". */
#include "curve_spine.h"

#include <math.h>
#include <string.h>

int ob_curve_mode_parse(const char *s)
{
    if (!s) return OB_CURVE_MODE_OPENBONE;
    if (strcmp(s, "spine") == 0) return OB_CURVE_MODE_SPINE;
    if (strcmp(s, "exact") == 0) return OB_CURVE_MODE_EXACT;
    return OB_CURVE_MODE_OPENBONE;
}

void ob_curve_spine_samples(const double c[4], double s[OB_SPINE_SAMPLES])
{
    /* rigby2d / spine-core setBezier with time1 = value1 = 0, time2 = value2 = 1:
    ** third-order forward differences over 10 steps (h = 0.1: 3h² = 0.03, 6h³ = 0.006) */
    const double cx1 = c[0], cy1 = c[1], cx2 = c[2], cy2 = c[3];
    double tmpx = (-cx1 * 2 + cx2) * 0.03, tmpy = (-cy1 * 2 + cy2) * 0.03;
    double dddx = ((cx1 - cx2) * 3 + 1) * 0.006, dddy = ((cy1 - cy2) * 3 + 1) * 0.006;
    double ddx = tmpx * 2 + dddx, ddy = tmpy * 2 + dddy;
    double dx = cx1 * 0.3 + tmpx + dddx * 0.16666667, dy = cy1 * 0.3 + tmpy + dddy * 0.16666667;
    double x = dx, y = dy;
    for (int i = 0; i < 9; i++) {
        s[i] = x;
        s[9 + i] = y;
        dx += ddx;
        dy += ddy;
        ddx += dddx;
        ddy += dddy;
        x += dx;
        y += dy;
    }
    int monotonic = 1;
    for (int i = 1; i < 9; i++)
        if (!(s[i - 1] <= s[i])) monotonic = 0;
    s[18] = monotonic;
}

/* no sample below any t (x1..x8 = +inf, x0 = −inf), segment 1 from (0, 0):
** the identity (slope 1) and zero (slope 0), constants */
#define OB_FAST_ONE_SEGMENT(slope) \
    {INFINITY, INFINITY, INFINITY, INFINITY, INFINITY, INFINITY, INFINITY, INFINITY, -INFINITY, 0, \
     0, 0, 0, 0, 0, (slope)}
const double ob_curve_fast_linear[OB_SPINE_FAST] = OB_FAST_ONE_SEGMENT(1);
const double ob_curve_fast_hold[OB_SPINE_FAST] = OB_FAST_ONE_SEGMENT(0);

int ob_curve_spine_fast(const double s[OB_SPINE_SAMPLES], double f[OB_SPINE_FAST])
{
    if (s[18] == 0) return 0;  /* x not ascending: the scan (ob_curve_spine_sampled) */
    int ok = 1;
    for (int i = 0; i < 8; i++) f[i] = s[1 + i];
    f[8] = s[0];
    f[9] = 0;
    double px = 0, py = 0;  /* segment i: from the previous point to sample i (i = 9: to (1, 1)) */
    for (int i = 0; i < 10; i++) {
        double x = i < 9 ? s[i] : 1, y = i < 9 ? s[9 + i] : 1, span = x - px;
        double *seg = f + 10 + 3 * i;
        if (span != 0) {
            seg[0] = px;
            seg[1] = py;
            seg[2] = (y - py) / span;
            if (!(seg[2] - seg[2] == 0)) ok = 0;  /* inf/NaN: a near-vertical segment, scan it */
        } else {  /* zero width: its end value */
            seg[0] = x;
            seg[1] = y;
            seg[2] = 0;
        }
        px = x;
        py = y;
    }
    return ok;
}

double ob_curve_spine(const double c[4], double t)
{
    double s[OB_SPINE_SAMPLES];
    ob_curve_spine_samples(c, s);
    return ob_curve_spine_sampled(s, t);
}

static inline double clamp01(double v) { return v < 0 ? 0 : v > 1 ? 1 : v; }

static inline double bez(double p1, double p2, double s)
{
    double u = 1 - s;
    return 3 * u * u * s * p1 + 3 * u * s * s * p2 + s * s * s;
}

double ob_curve_exact(const double c[4], double t)
{
    const double x1 = clamp01(c[0]), x2 = clamp01(c[2]);
    if (t <= 0) return t < 0 ? t : 0;  /* outside the span: identity (never sampled there) */
    if (t >= 1) return t > 1 ? t : 1;
    double lo = 0, hi = 1;
    for (int i = 0; i < 64 && hi - lo > 1e-15; i++) {  /* x(s) is monotonic on [0, 1] */
        double s = (lo + hi) * 0.5;
        if (bez(x1, x2, s) < t) lo = s;
        else hi = s;
    }
    return bez(c[1], c[3], (lo + hi) * 0.5);
}
