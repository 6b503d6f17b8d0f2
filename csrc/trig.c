/* trig.c: the array forms of obtrig.h's sin/cos/atan2 (issue 17): four lanes
** per step, the rest on pairs and a broadcast pair, so every value gets the
** bits the scalar call gives. */
#include "obmath.h"

void ob_trig_set(ob_trig *t, const ob_pose *p)
{
    ob_v2d s, c;
    ob_sincos_v2((ob_v2d){ob_angle_x(p), ob_angle_y(p)}, &s, &c);
    ob_trig_store(t, p, s[0], c[0], s[1], c[1]);
}

OB_TRIG_CLONES void ob_sincos_n(const double *x, double *s, double *c, int32_t n)
{
    int32_t i = 0;
    for (; i + 4 <= n; i += 4) {
        ob_v4d vx, vs, vc;
        memcpy(&vx, x + i, sizeof vx);
        ob_sincos_v4p(&vx, &vs, &vc);
        memcpy(s + i, &vs, sizeof vs);
        memcpy(c + i, &vc, sizeof vc);
    }
    for (; i + 2 <= n; i += 2) {
        ob_v2d vs, vc;
        ob_sincos_v2(ob_v2_load(x + i), &vs, &vc);
        ob_v2_store(s + i, vs);
        ob_v2_store(c + i, vc);
    }
    if (i < n) ob_sincos(x[i], s + i, c + i);
}

OB_TRIG_CLONES void ob_atan2_n(const double *y, const double *x, double *out, int32_t n)
{
    int32_t i = 0;
    for (; i + 4 <= n; i += 4) {
        ob_v4d vy, vx;
        memcpy(&vy, y + i, sizeof vy);
        memcpy(&vx, x + i, sizeof vx);
        ob_v4d r;
        ob_atan2_v4p(&vy, &vx, &r);
        memcpy(out + i, &r, sizeof r);
    }
    for (; i + 2 <= n; i += 2) ob_v2_store(out + i, ob_atan2_v2(ob_v2_load(y + i), ob_v2_load(x + i)));
    if (i < n) out[i] = ob_atan2(y[i], x[i]);
}

