/* physics.c: §7.4 applyPhysics: two spring particles (bone origin and tip)
** stepped at fixed steps of 1/fps; state kept per constraint across frames
** and setToSetupPose.  Under the Spine pose model spine-core 4.2's
** PhysicsConstraint instead (the behaviour reference: spine-runtimes 4.2,
** spine-ts/spine-core/src/PhysicsConstraint.ts update(Physics.update) and
** reset; our own code). */
#include <string.h>

#include "constraints.h"
#include "curve_spine.h"
#include "timeline.h"

static double clamp01(double v) { return v < 0 ? 0 : v > 1 ? 1 : v; }

/* §7.4 step(p, g) */
static void step(ob_particle *p, double gx, double gy, double k, double wind, double gravity,
                 double h, double decay)
{
    p->px = p->x;
    p->py = p->y;
    p->vx = (p->vx + ((gx - p->x) * k + wind) * h) * decay;
    p->vy = (p->vy + ((gy - p->y) * k - gravity) * h) * decay;
    p->x += p->vx * h;
    p->y += p->vy * h;
}

void ob_physics_reset(ob_instance *inst)
{
    for (int32_t i = 0; i < inst->doc->constraint_count; i++) {
        inst->cons->physics[i].initialised = 0;
        ob_physics_reset_spine(inst, i);
    }
}

void ob_apply_physics(ob_instance *inst, int32_t c, double dt)
{
    const ob_document *doc = inst->doc;
    const ob_constraint_data *cd = &doc->constraints[c];
    if (cd->bone < 0) return;
    const double *v = &inst->con_values[(size_t)c * OB_CV_COUNT];
    ob_physics_state *s = &inst->cons->physics[c];
    int32_t b = cd->bone;
    ob_bone_fresh(inst, b);
    ob_bone_edit(inst, b);
    ob_mat *w = &inst->world[b];
    double data_len = doc->bones[b].length;
    double len = data_len > 1e-6 ? data_len : 1;
    double ox = w->x, oy = w->y;
    double tx = w->a * len + w->x, ty = w->c * len + w->y;  /* w·(len, 0) */
    if (!s->initialised) {
        /* §7.4 first call: particles at rest */
        memset(s, 0, sizeof *s);
        s->decay_arg = NAN;  /* no exp cached yet */
        s->initialised = 1;
        s->origin = (ob_particle){ox, oy, 0, 0, ox, oy};
        s->tip = (ob_particle){tx, ty, 0, 0, tx, ty};
        s->last_ox = ox; s->last_oy = oy;
        s->last_tx = tx; s->last_ty = ty;
    }
    /* §7.4 inertia: carry = 1 − clamp(inertia, 0, 1) */
    double carry = 1 - clamp01(v[OB_CV_INERTIA]);
    double sox = (ox - s->last_ox) * carry, soy = (oy - s->last_oy) * carry;
    double stx = (tx - s->last_tx) * carry, sty = (ty - s->last_ty) * carry;
    s->origin.x += sox; s->origin.px += sox; s->origin.y += soy; s->origin.py += soy;
    s->tip.x += stx; s->tip.px += stx; s->tip.y += sty; s->tip.py += sty;
    s->last_ox = ox; s->last_oy = oy;
    s->last_tx = tx; s->last_ty = ty;

    double fps = cd->fps != 0 && !isnan(cd->fps) ? cd->fps : 60;  /* fps ‖ 60 */
    double h = 1 / (fps > 1 ? fps : 1);
    s->time += dt;
    if (!isfinite(s->time)) {  /* issue 21: never stuck non-finite: restart at rest (time 0) */
        s->time = 0;
        s->steps = 0;
    }
    double due = floor(s->time / h + 1e-6);
    if (due - s->steps > 8) s->steps = due - 8;  /* drop the excess */
    double k = fmax(0, v[OB_CV_STRENGTH]) / fmax(1e-6, v[OB_CV_MASS]);
    if (k > 1 / (h * h)) k = 1 / (h * h);
    double decay_arg = -fmax(0, v[OB_CV_DAMPING]) * h;
    if (!ob_same_bits(decay_arg, s->decay_arg)) {  /* exp only when damping or fps change */
        s->decay_arg = decay_arg;
        s->decay = exp(decay_arg);
    }
    double decay = s->decay;
    double wind = v[OB_CV_WIND] * ob_unit_scale_x(inst);
    double gravity = v[OB_CV_GRAVITY] * ob_unit_scale_y(inst);
    double rest = hypot(tx - ox, ty - oy);  /* before simulating */
    if (rest == 0) rest = len;
    /* while steps < due: step both, steps++ — counted with an int (at most 8
    ** after the cap) so that huge step numbers (steps + 1 == steps) end */
    double n = due - s->steps;
    for (int i = 0; i < n && i < 8; i++) {
        step(&s->origin, ox, oy, k, wind, gravity, h, decay);
        step(&s->tip, tx, ty, k, wind, gravity, h, decay);
    }
    if (n > 0) s->steps = due;
    if (!isfinite(s->origin.x + s->origin.y + s->origin.vx + s->origin.vy + s->tip.x + s->tip.y + s->tip.vx +
                  s->tip.vy))
        s->initialised = 0;  /* issue 21: a non-finite state (NaN pose) restarts at rest next frame */
    double mix = clamp01(v[OB_CV_MIX]);
    if (mix <= 0) return;  /* state still advanced */
    double f = clamp01(s->time / h - s->steps);
    /* §7.4 S(p) = p.prev + (p − p.prev)·f */
    double sox2 = s->origin.px + (s->origin.x - s->origin.px) * f;
    double soy2 = s->origin.py + (s->origin.y - s->origin.py) * f;
    double stx2 = s->tip.px + (s->tip.x - s->tip.px) * f;
    double sty2 = s->tip.py + (s->tip.y - s->tip.py) * f;
    w->x = ox + (sox2 - ox) * cd->px * mix;
    w->y = oy + (soy2 - oy) * cd->py * mix;
    if (cd->protate > 0 || cd->pscale_x > 0) {
        double dx = stx2 - w->x, dy = sty2 - w->y, d = hypot(dx, dy);
        if (d > 1e-9) {
            ob_rotate_axes(w, ob_wrap_deg((ob_atan2(dy, dx) - ob_atan2(ty - oy, tx - ox)) * OB_RAD) * cd->protate * mix * OB_DEG);
            if (cd->pscale_x > 0 && data_len > 1e-6) {
                double sc = 1 + (d / rest - 1) * cd->pscale_x * mix;
                w->a *= sc;
                w->c *= sc;
            }
        }
    }
    ob_bone_sync_applied(inst, b);
    ob_bone_update_subtree(inst, b, 0);
}

/* ---- the Spine pose model ---------------------------------------------- */

/* spine-core 4.2 PhysicsConstraint.reset: at rest, the clock read now */
void ob_physics_reset_spine(ob_instance *inst, int32_t c)
{
    ob_spine_physics *s = &inst->cons->spine_physics[c];
    double pd = s->pow_damping, ps = s->pow_step, pv = s->pow_value;  /* the cache survives */
    memset(s, 0, sizeof *s);
    s->pow_damping = pd;
    s->pow_step = ps;
    s->pow_value = pv;
    s->last_time = inst->clock;
    s->reset = 1;
}

#define OB_SPINE_PHYSICS_STEPS 10000

/* damping^(60·step): pow only when the damping or the step changes (the same bits) */
static double spine_decay(ob_spine_physics *s, double damping, double t)
{
    if (!ob_same_bits(damping, s->pow_damping) || !ob_same_bits(t, s->pow_step)) {
        s->pow_damping = damping;
        s->pow_step = t;
        s->pow_value = pow(damping, 60 * t);
    }
    return s->pow_value;
}

static inline double clamp_abs(double u, double q) { return u > q ? q : u < -q ? -q : u; }

/* spine-core 4.2 PhysicsConstraint.update(Physics.update): one damped
** spring per channel (x, y, rotate + shearX, scaleX) driven by the bone's
** movement since the last update (× inertia, limited to limit·delta), stepped
** at 1/fps on skeleton.time with the remainder carried; then the offsets
** applied to the bone's world and its applied pose taken from it */
void ob_apply_physics_spine(ob_instance *inst, int32_t c)
{
    const ob_document *doc = inst->doc;
    const ob_constraint_data *cd = &doc->constraints[c];
    const double *v = &inst->con_values[(size_t)c * OB_CV_COUNT];
    ob_spine_physics *s = &inst->cons->spine_physics[c];
    double mix = v[OB_CV_MIX];
    if (mix == 0 || cd->bone < 0) return;
    int x = cd->px > 0, y = cd->py > 0, rotate_or_shear_x = cd->protate > 0 || cd->pshear_x > 0;
    int scale_x = cd->pscale_x > 0;
    int32_t b = cd->bone;
    ob_mat *bone = &inst->world[b];
    double l = doc->bones[b].length;

    double delta = fmax(inst->clock - s->last_time, 0), step = 1 / cd->fps;
    s->remaining += delta;
    s->last_time = inst->clock;
    /* not in spine-core, for bad input only: no steps unless 1/fps > 0, and at most
    ** OB_SPINE_PHYSICS_STEPS of them per update (past that the oldest time is dropped;
    ** 166 s at 60 fps), so that fps ≤ 0 or 1e300 cannot hang the frame */
    if (!(step > 0)) step = INFINITY;
    else if (s->remaining > step * OB_SPINE_PHYSICS_STEPS) s->remaining = step * OB_SPINE_PHYSICS_STEPS;
    double bx = bone->x, by = bone->y;
    if (s->reset) {
        s->reset = 0;
        s->ux = bx;
        s->uy = by;
    } else {
        double a = s->remaining, i = v[OB_CV_INERTIA], t = step, f = doc->reference_scale, d = -1;
        double mass_inverse = 1 / v[OB_CV_MASS], damping = v[OB_CV_DAMPING], strength = v[OB_CV_STRENGTH];
        double qx = cd->plimit * delta, qy = qx;  /* × |skeleton scale| = 1 */
        if (x || y) {
            if (x) {
                s->x_offset += clamp_abs((s->ux - bx) * i, qx);
                s->ux = bx;
            }
            if (y) {
                s->y_offset += clamp_abs((s->uy - by) * i, qy);
                s->uy = by;
            }
            if (a >= t) {
                d = spine_decay(s, damping, t);
                double m = mass_inverse * t, e = strength, w = v[OB_CV_WIND] * f, g = v[OB_CV_GRAVITY] * f;
                do {
                    if (x) {
                        s->x_velocity += (w - s->x_offset * e) * m;
                        s->x_offset += s->x_velocity * t;
                        s->x_velocity *= d;
                    }
                    if (y) {
                        s->y_velocity -= (g + s->y_offset * e) * m;
                        s->y_offset += s->y_velocity * t;
                        s->y_velocity *= d;
                    }
                    a -= t;
                } while (a >= t);
            }
            if (x) bone->x += s->x_offset * mix * cd->px;
            if (y) bone->y += s->y_offset * mix * cd->py;
        }
        if (rotate_or_shear_x || scale_x) {
            double ca, cs, sn, mr = 0;
            double dx = clamp_abs(s->cx - bone->x, qx), dy = clamp_abs(s->cy - bone->y, qy);
            if (rotate_or_shear_x) {
                mr = (cd->protate + cd->pshear_x) * mix;
                double ta;
                ob_atan2_2(bone->c, bone->a, dy + s->ty, dx + s->tx, &ca, &ta);  /* issue 17: one call */
                double r = ta - ca - s->rotate_offset * mr;
                s->rotate_offset += (r - ceil(r * (1 / (2 * OB_PI)) - 0.5) * (2 * OB_PI)) * i;
                r = s->rotate_offset * mr + ca;
                ob_sincos(r, &sn, &cs);
                if (scale_x) {
                    r = l * sqrt(bone->a * bone->a + bone->c * bone->c);
                    if (r > 0) s->scale_offset += (dx * cs + dy * sn) * i / r;
                }
            } else {
                ca = ob_atan2(bone->c, bone->a);
                ob_sincos(ca, &sn, &cs);
                double r = l * sqrt(bone->a * bone->a + bone->c * bone->c);
                if (r > 0) s->scale_offset += (dx * cs + dy * sn) * i / r;
            }
            a = s->remaining;
            if (a >= t) {
                if (d == -1) d = spine_decay(s, damping, t);
                double m = mass_inverse * t, e = strength, w = v[OB_CV_WIND], g = v[OB_CV_GRAVITY], h = l / f;
                for (;;) {
                    a -= t;
                    if (scale_x) {
                        s->scale_velocity += (w * cs - g * sn - s->scale_offset * e) * m;
                        s->scale_offset += s->scale_velocity * t;
                        s->scale_velocity *= d;
                    }
                    if (rotate_or_shear_x) {
                        s->rotate_velocity -= ((w * sn + g * cs) * h + s->rotate_offset * e) * m;
                        s->rotate_offset += s->rotate_velocity * t;
                        s->rotate_velocity *= d;
                        if (a < t) break;
                        ob_sincos(s->rotate_offset * mr + ca, &sn, &cs);
                    } else if (a < t) {
                        break;
                    }
                }
            }
        }
        s->remaining = a;
    }
    s->cx = bone->x;
    s->cy = bone->y;

    if (rotate_or_shear_x) {
        double o = s->rotate_offset * mix, sn, cs, a;
        if (cd->pshear_x > 0) {
            if (cd->protate > 0) {  /* the Y axis turns by the rotation only */
                double r = o * cd->protate;
                ob_v2d vs, vc;  /* issue 17: both angles in one call (the bits of two) */
                ob_sincos_v2((ob_v2d){r, r + o * cd->pshear_x}, &vs, &vc);
                sn = vs[0];
                cs = vc[0];
                a = bone->b;
                bone->b = cs * a - sn * bone->d;
                bone->d = sn * a + cs * bone->d;
                sn = vs[1];
                cs = vc[1];
            } else {
                ob_sincos(0 + o * cd->pshear_x, &sn, &cs);  /* the X axis by rotation + shear */
            }
            a = bone->a;
            bone->a = cs * a - sn * bone->c;
            bone->c = sn * a + cs * bone->c;
        } else {
            o *= cd->protate;
            ob_sincos(o, &sn, &cs);
            a = bone->a;
            bone->a = cs * a - sn * bone->c;
            bone->c = sn * a + cs * bone->c;
            a = bone->b;
            bone->b = cs * a - sn * bone->d;
            bone->d = sn * a + cs * bone->d;
        }
    }
    if (scale_x) {
        double sc = 1 + s->scale_offset * mix * cd->pscale_x;
        bone->a *= sc;
        bone->c *= sc;
    }
    s->tx = l * bone->a;
    s->ty = l * bone->c;
    ob_spine_applied_after(inst, c, 0, b);
}

typedef struct reset_ctx { ob_instance *inst; const ob_timeline *tl; } reset_ctx;

static void fire_reset(void *ctx, int32_t key)
{
    (void)key;
    reset_ctx *r = ctx;
    ob_instance *inst = r->inst;
    if (!r->tl->global) {
        if (inst->con_active[r->tl->index]) ob_physics_reset_spine(inst, r->tl->index);
        return;
    }
    for (int32_t c = r->tl->index; c < inst->doc->constraint_count; c++)  /* every active physics one */
        if (inst->con_active[c]) ob_physics_reset_spine(inst, c);
}

/* spine-core 4.2 PhysicsConstraintResetTimeline: a reset key crossed from
** prev (exclusive) to next (inclusive) track time resets its constraint (a
** key at 0 on every loop, as spine-core's wrap to the start does) */
void ob_physics_resets_between(ob_instance *inst, int32_t anim, double prev, double next, int loop)
{
    const ob_animation_data *a = &inst->doc->animations[anim];
    if (!a->has_resets) return;
    for (int32_t i = 0; i < a->timeline_count; i++) {
        const ob_timeline *tl = &a->timelines[i];
        if (tl->property != OB_P_RESET || tl->index < 0) continue;
        reset_ctx r = {inst, tl};
        ob_timeline_keys_between(a, tl, prev, next, loop, fire_reset, &r);
    }
}
