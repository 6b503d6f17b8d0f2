/* curve_spine.c: bezier curves of skeleton JSON 4.2 documents (issue 9).
** See curve_spine.h; the rule for handles outside their span is in
** conformance/NOTES.md "Skeleton JSON import (issue 9)". */
#include "curve_spine.h"

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

double ob_curve_spine_sampled(const double s[OB_SPINE_SAMPLES], double t)
{
    const double *xs = s, *ys = s + 9;
    if (s[18] != 0 && !(xs[0] > t)) {
        /* x ascending: the first of x1..x8 with x ≥ t is 1 + the number
        ** of them below t (eight independent compares: no branch to
        ** mispredict, no chain of dependent loads), the same sample the scan
        ** below finds */
        int i = 1 + (xs[1] < t) + (xs[2] < t) + (xs[3] < t) + (xs[4] < t) + (xs[5] < t) + (xs[6] < t) +
                (xs[7] < t) + (xs[8] < t);  /* 1..9; 9: past the last sample */
        double px = xs[i - 1], py = ys[i - 1];
        double x = i < 9 ? xs[i] : 1, y = i < 9 ? ys[i] : 1, span = x - px;
        return span != 0 ? py + (t - px) / span * (y - py) : (i < 9 ? y : 1);
    }
    double px = 0, py = 0;  /* the previous point: the span start (0, 0) */
    for (int i = 0; i < 9; i++) {
        /* getBezierValue: the first sample with x ≥ t (the first one: x > t) */
        if (i == 0 ? xs[0] > t : xs[i] >= t) {
            double span = xs[i] - px;
            return span != 0 ? py + (t - px) / span * (ys[i] - py) : ys[i];
        }
        px = xs[i];
        py = ys[i];
    }
    /* past the 9th sample: towards the next key (1, 1) */
    double span = 1 - px;
    return span != 0 ? py + (t - px) / span * (1 - py) : 1;
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
