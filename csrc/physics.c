/* physics.c: §7.4 applyPhysics: two spring particles (bone origin and tip)
** stepped at fixed steps of 1/fps; state kept per constraint across frames
** and setToSetupPose. */
#include <string.h>

#include "constraints.h"

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
    for (int32_t i = 0; i < inst->doc->constraint_count; i++) inst->cons->physics[i].initialised = 0;
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
            ob_rotate_axes(w, ob_wrap_deg((atan2(dy, dx) - atan2(ty - oy, tx - ox)) * OB_RAD) * cd->protate * mix * OB_DEG);
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
