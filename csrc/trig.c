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

/* issue 17 (cons): ob_trig_set of two bones, in one pair call when both
** have equal shears: the same bits as two ob_trig_set calls (constraints.h) */
void ob_trig_set2(ob_trig *t0, const ob_pose *p0, ob_trig *t1, const ob_pose *p1)
{
    if (ob_same_bits(p0->shear_x, p0->shear_y) && ob_same_bits(p1->shear_x, p1->shear_y)) {
        /* equal shears: θy = θx bit for bit (obmath.h), one lane per bone */
        ob_v2d s, c;
        ob_sincos_v2((ob_v2d){ob_angle_x(p0), ob_angle_x(p1)}, &s, &c);
        ob_trig_store(t0, p0, s[0], c[0], s[0], c[0]);
        ob_trig_store(t1, p1, s[1], c[1], s[1], c[1]);
        return;
    }
    ob_trig_set(t0, p0);  /* (pairs: GCC's four-lane form costs more on the SSE2 baseline) */
    ob_trig_set(t1, p1);
}
