/* obmath.h: §4 maths, 2×3 affine matrices {a b; c d | x y} with column
** vectors: world·(x, y) = (a·x + b·y + x0, c·x + d·y + y0). */
#ifndef OB_MATH_H
#define OB_MATH_H

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "obtrig.h"

#define OB_PI 3.141592653589793
#define OB_DEG (OB_PI / 180)   /* JS: Math.PI / 180 */
#define OB_RAD (180 / OB_PI)   /* JS: 180 / Math.PI */

typedef struct ob_mat { double a, b, c, d, x, y; } ob_mat;

/* A product kept apart from the sum it feeds, where the compiler may emit
** FMA (-mfma, -march=native): GCC 12's SLP addsub pattern fuses a·b ± c·d
** into vfmaddsub despite -ffp-contract=off (seen in the rotations of
** physics.c and path.c), which rounds once instead of twice.  The empty asm
** hides the product, so the sum is not fused; without FMA it is the product
** itself (setup.py's builds and the wheels: the same code). */
#if defined(__FMA__) && (defined(__GNUC__) || defined(__clang__))
#define OB_UNFUSED(x) ({ double ob_unfused_ = (x); __asm__("" : "+x"(ob_unfused_)); ob_unfused_; })
#else
#define OB_UNFUSED(x) (x)
#endif

/* (x, y) turned by the angle whose cosine and sine are c and s: c·x − s·y
** and s·x + c·y, each product rounded on its own (OB_UNFUSED) */
static inline void ob_turn(double c, double s, double x, double y, double *ox, double *oy)
{
    *ox = OB_UNFUSED(c * x) - OB_UNFUSED(s * y);
    *oy = OB_UNFUSED(s * x) + OB_UNFUSED(c * y);
}

/* A bone's local pose (the seven keyable values). */
typedef struct ob_pose { double x, y, rotation, scale_x, scale_y, shear_x, shear_y; } ob_pose;

static inline ob_mat ob_mat_identity(void) { return (ob_mat){1, 0, 0, 1, 0, 0}; }

/* §4: multiply(P, L) = P·L */
static inline ob_mat ob_mat_mul(ob_mat p, ob_mat l)
{
    return (ob_mat){p.a * l.a + p.b * l.c, p.a * l.b + p.b * l.d,
                    p.c * l.a + p.d * l.c, p.c * l.b + p.d * l.d,
                    p.a * l.x + p.b * l.y + p.x, p.c * l.x + p.d * l.y + p.y};
}

/* §4: invert, det replaced by 1e-9 when exactly 0 */
static inline ob_mat ob_mat_invert(ob_mat m)
{
    double det = m.a * m.d - m.b * m.c;
    if (det == 0) det = 1e-9;
    double ia = m.d / det, ib = -m.b / det, ic = -m.c / det, id = m.a / det;
    return (ob_mat){ia, ib, ic, id, -(ia * m.x + ib * m.y), -(ic * m.x + id * m.y)};
}

/* §4.1 localMatrix, written (issue 17) with cos(θ + 90°) = −sin θ and
** sin(θ + 90°) = cos θ: θx = (rotation + shearX)·π/180, θy = (rotation +
** shearY)·π/180 and the matrix {cos θx·sx, −sin θy·sy; sin θx·sx, cos θy·sy}.
** The same numbers as the spec's (rotation + 90 + shearY) angle up to the
** rounding of the +90 (1e-16); a bone with shearX = shearY (nearly all) has
** θx = θy bit for bit and needs one sin/cos instead of two (the trig pass). */
static inline double ob_angle_x(const ob_pose *p) { return (p->rotation + p->shear_x) * OB_DEG; }
static inline double ob_angle_y(const ob_pose *p) { return (p->rotation + p->shear_y) * OB_DEG; }

static inline ob_mat ob_local_matrix(const ob_pose *p)
{
    ob_v2d s, c;  /* both angles in one call of the runtime's trig (obtrig.h) */
    ob_sincos_v2((ob_v2d){ob_angle_x(p), ob_angle_y(p)}, &s, &c);
    return (ob_mat){c[0] * p->scale_x, -s[1] * p->scale_y, s[0] * p->scale_x, c[1] * p->scale_y, p->x, p->y};
}

/* One bone's localMatrix trig, unscaled (a = cos θx, b = −sin θy, c = sin θx,
** d = cos θy), under the bits of the three pose values it came from.  Most
** bones keep their angles from frame to frame (unkeyed, or keyed to the same
** value), so ob_local_matrix_cached recomputes only when one of rotation,
** shearX, shearY changed bits: the result is the one ob_local_matrix gives. */
typedef struct ob_trig { uint64_t rotation, shear_x, shear_y; double a, b, c, d; } ob_trig;

/* a key no pose value is expected to carry (a signalling NaN's bits) */
#define OB_TRIG_NEVER 0x7ff4b0e5b0e5b0e5ULL

static inline uint64_t ob_bits(double v)
{
    uint64_t u;
    memcpy(&u, &v, sizeof u);
    return u;
}

static inline int ob_same_bits(double a, double b) { return ob_bits(a) == ob_bits(b); }

static inline int ob_trig_current(const ob_pose *p, const ob_trig *t)
{
    return ((ob_bits(p->rotation) ^ t->rotation) | (ob_bits(p->shear_x) ^ t->shear_x) |
            (ob_bits(p->shear_y) ^ t->shear_y)) == 0;
}

/* the entry's key and values from sin/cos of θx and θy */
static inline void ob_trig_store(ob_trig *t, const ob_pose *p, double sx, double cx, double sy, double cy)
{
    *t = (ob_trig){ob_bits(p->rotation), ob_bits(p->shear_x), ob_bits(p->shear_y), cx, -sy, sx, cy};
}

/* The trig of one bone's localMatrix angles, recomputed when their inputs
** changed (both angles in one call of the runtime's trig, obtrig.h). */
void ob_trig_set(ob_trig *t, const ob_pose *p);  /* trig.c: the recompute, out of line */
static inline void ob_trig_update(const ob_pose *p, ob_trig *t)
{
    if (!ob_trig_current(p, t)) ob_trig_set(t, p);
}

/* localMatrix from a trig entry that ob_trig_update made current */
static inline ob_mat ob_local_matrix_trig(const ob_pose *p, const ob_trig *t)
{
    return (ob_mat){t->a * p->scale_x, t->b * p->scale_y, t->c * p->scale_x, t->d * p->scale_y, p->x, p->y};
}

static inline ob_mat ob_local_matrix_cached(const ob_pose *p, ob_trig *t)
{
    ob_trig_update(p, t);
    return ob_local_matrix_trig(p, t);
}

/* §4.4 wrapDeg: JS % keeps the dividend's sign, like fmod; range (−180, 180] */
static inline double ob_wrap_deg(double d)
{
    if (!(d > -360 && d < 360)) d = fmod(d, 360);  /* fmod(d, 360) = d when |d| < 360 */
    if (d > 180) d -= 360;
    else if (d <= -180) d += 360;
    return d;
}

/* spine-core's one-turn wrap of a radian angle into [-pi, pi] (its transform and path constraints) */
static inline double ob_wrap_pi(double r)
{
    return r > OB_PI ? r - 2 * OB_PI : r < -OB_PI ? r + 2 * OB_PI : r;
}

/* A world's 2x2 turned by r radians (both columns; the translation kept) */
static inline void ob_mat_rotate(ob_mat *w, double r)
{
    double a = w->a, b = w->b, c = w->c, d = w->d, cs, sn;
    ob_sincos(r, &sn, &cs);
    w->a = cs * a - sn * c;
    w->b = cs * b - sn * d;
    w->c = sn * a + cs * c;
    w->d = sn * b + cs * d;
}

/* JS ((x % m) + m) % m for m > 0, without fmod where it is not needed: for
** 0 ≤ x < m, x % m = x; and for m ≤ s < 2m, s % m = s − m, exact (Sterbenz). */
static inline double ob_mod_pos(double x, double m)
{
    double r = x >= 0 && x < m ? x : fmod(x, m);
    double s = r + m;
    if (s >= m && s < 2 * m) return s - m;
    if (s >= 0 && s < m) return s;
    return fmod(s, m);
}

/* §4.2 derived values */
static inline double ob_world_rotation(ob_mat m) { return ob_atan2(m.c, m.a) * OB_RAD; }
static inline double ob_world_scale_x(ob_mat m) { return hypot(m.a, m.c); }
static inline double ob_world_scale_y(ob_mat m) { return hypot(m.b, m.d); }

#endif
