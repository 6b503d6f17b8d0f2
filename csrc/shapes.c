/* shapes.c: §8.5 shape outlines (core/geometry.ts:shapeOutline, 32 segments). */
#include <math.h>

#include "drawlist.h"

#define OB_SHAPE_SEGMENTS 32

static double shape_r(const ob_attachment *a)
{
    double hw = a->width / 2, hh = a->height / 2;
    /* §8.5 r = min(radius, hw, hh) */
    return fmin(a->radius, fmin(hw, hh));
}

/* §8.5 seg = max(2, round(32/4)) = 8 steps per corner */
static int corner_steps(void)
{
    int seg = (int)floor(OB_SHAPE_SEGMENTS / 4.0 + 0.5);
    return seg > 2 ? seg : 2;
}

int32_t ob_shape_outline_count(const ob_attachment *a)
{
    switch (a->shape) {
    case OB_SHAPE_RECT: return shape_r(a) <= 0 ? 4 : 4 * (corner_steps() + 1);
    case OB_SHAPE_ELLIPSE: return OB_SHAPE_SEGMENTS;
    case OB_SHAPE_POLYGON: return a->point_count;
    }
    return 0;
}

int32_t ob_shape_outline(const ob_attachment *a, double *out)
{
    double hw = a->width / 2, hh = a->height / 2;
    int32_t n = 0;
    switch (a->shape) {
    case OB_SHAPE_RECT: {
        double r = shape_r(a);
        if (r <= 0) {
            /* §8.5 r ≤ 0 ⇒ (−hw,−hh) (hw,−hh) (hw,hh) (−hw,hh) */
            const double p[8] = {-hw, -hh, hw, -hh, hw, hh, -hw, hh};
            for (int i = 0; i < 8; i++) out[i] = p[i];
            n = 4;
            break;
        }
        /* §8.5 4 arcs centred at (hw−r, −hh+r) from −90°, (hw−r, hh−r) from 0°,
        ** (−hw+r, hh−r) from 90°, (−hw+r, −hh+r) from 180°; point i at start + 90·i/seg */
        const double cx[4] = {hw - r, hw - r, -hw + r, -hw + r};
        const double cy[4] = {-hh + r, hh - r, hh - r, -hh + r};
        const double start[4] = {-90, 0, 90, 180};
        int seg = corner_steps();
        for (int k = 0; k < 4; k++)
            for (int i = 0; i <= seg; i++) {
                double t = (start[k] + 90.0 * i / seg) * OB_DEG;
                out[2 * n] = cx[k] + cos(t) * r;
                out[2 * n + 1] = cy[k] + sin(t) * r;
                n++;
            }
        break;
    }
    case OB_SHAPE_ELLIPSE:
        /* §8.5 i = 0..31, (cos(2πi/32)·hw, sin(2πi/32)·hh) */
        for (int i = 0; i < OB_SHAPE_SEGMENTS; i++) {
            double t = 2 * OB_PI * i / OB_SHAPE_SEGMENTS;
            out[2 * n] = cos(t) * hw;
            out[2 * n + 1] = sin(t) * hh;
            n++;
        }
        break;
    case OB_SHAPE_POLYGON:
        for (int32_t i = 0; i < 2 * a->point_count; i++) out[i] = a->points[i];
        n = a->point_count;
        break;
    }
    /* §8.5 then rotate by rotation and add (x, y) */
    double c = cos(a->rotation * OB_DEG), s = sin(a->rotation * OB_DEG);
    for (int32_t i = 0; i < n; i++) {
        double x = out[2 * i], y = out[2 * i + 1];
        out[2 * i] = c * x - s * y + a->x;
        out[2 * i + 1] = s * x + c * y + a->y;
    }
    return n;
}
