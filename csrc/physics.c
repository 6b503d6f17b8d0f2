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

/* issue 17: ceil(x) without the libm call on the x86-64 baseline (no
** roundsd): exact, ±0 included, for |x| < 2^52; else ceil itself */
static inline double ph_ceil(double x)
{
    if (!(fabs(x) < 4503599627370496.0)) return ceil(x);
    double t = (double)(int64_t)x;  /* truncated toward 0 */
    return copysign(t < x ? t + 1 : t, x);
}

/* spine-core 4.2 PhysicsConstraint.update(Physics.update): one damped
** spring per channel (x, y, rotate + shearX, scaleX) driven by the bone's
** movement since the last update (× inertia, limited to limit·delta), stepped
** at 1/fps on skeleton.time with the remainder carried; then the offsets
** applied to the bone's world and its applied pose taken from it.
**
** issue 17: written as the steps between its trig calls (ph_begin, then one
** continuation per trig result), so that two independent constraints run in
** lockstep with their trig in shared calls (ph_run); alone, the same steps
** on one constraint's lanes.  The trig is lane-independent: the same bits. */
enum { PH_DONE, PH_ATAN2, PH_FIRST, PH_LOOP, PH_FINAL };

typedef struct ph_lane {
    ob_instance *inst;
    int32_t c, b;
    const ob_constraint_data *cd;
    const double *v;
    ob_spine_physics *s;
    ob_mat *bone;
    double mix, l, i, t, f, d, mass_inverse, damping, strength, qx, qy, a, ca, mr, dx, dy;
    double m, e, w, g, h;        /* the rotate/scale loop's constants */
    int x, y, rsx, scale_x;
    int need, n;                 /* the trig asked for (PH_*) and its lanes (1, 2) */
    double in_y[2], in_x[2];     /* atan2(in_y, in_x) into out_a */
    double in_s[2];              /* sin, cos of in_s into out_s, out_c */
    const double *out_a, *out_s, *out_c;  /* the results, in the group's arrays (ph_run) */
} ph_lane;

static void ph_finish(ph_lane *L)
{
    ob_spine_physics *s = L->s;
    ob_mat *bone = L->bone;
    if (L->scale_x) {
        double sc = 1 + s->scale_offset * L->mix * L->cd->pscale_x;
        bone->a *= sc;
        bone->c *= sc;
    }
    s->tx = L->l * bone->a;
    s->ty = L->l * bone->c;
    ob_spine_applied_after(L->inst, L->c, 0, L->b);
    L->need = PH_DONE;
}

static void ph_tail(ph_lane *L)
{
    ob_spine_physics *s = L->s;
    const ob_constraint_data *cd = L->cd;
    s->cx = L->bone->x;
    s->cy = L->bone->y;
    if (!L->rsx) {
        ph_finish(L);
        return;
    }
    double o = s->rotate_offset * L->mix;
    L->need = PH_FINAL;
    if (cd->pshear_x > 0) {
        if (cd->protate > 0) {  /* the Y axis by the rotation only, the X axis by rotation + shear */
            double r = o * cd->protate;
            L->in_s[0] = r;
            L->in_s[1] = r + o * cd->pshear_x;
            L->n = 2;
        } else {
            L->in_s[0] = 0 + o * cd->pshear_x;
            L->n = 1;
        }
    } else {
        L->in_s[0] = o * cd->protate;
        L->n = 1;
    }
}

static void ph_after_final(ph_lane *L)
{
    const ob_constraint_data *cd = L->cd;
    ob_mat *bone = L->bone;
    double sn = L->out_s[0], cs = L->out_c[0], a;
    if (cd->pshear_x > 0) {
        if (cd->protate > 0) {
            a = bone->b;
            bone->b = cs * a - sn * bone->d;
            bone->d = sn * a + cs * bone->d;
            sn = L->out_s[1];
            cs = L->out_c[1];
        }
        a = bone->a;
        bone->a = cs * a - sn * bone->c;
        bone->c = sn * a + cs * bone->c;
    } else {
        a = bone->a;
        bone->a = cs * a - sn * bone->c;
        bone->c = sn * a + cs * bone->c;
        a = bone->b;
        bone->b = cs * a - sn * bone->d;
        bone->d = sn * a + cs * bone->d;
    }
    ph_finish(L);
}

/* the rotate/scale steps from L->a on, with cos/sin (cs, sn) of the current angle */
static void ph_loop(ph_lane *L, double cs, double sn)
{
    ob_spine_physics *s = L->s;
    double t = L->t, m = L->m, e = L->e, w = L->w, g = L->g, h = L->h;
    for (;;) {
        L->a -= t;
        if (L->scale_x) {
            s->scale_velocity += (w * cs - g * sn - s->scale_offset * e) * m;
            s->scale_offset += s->scale_velocity * t;
            s->scale_velocity *= L->d;
        }
        if (L->rsx) {
            s->rotate_velocity -= ((w * sn + g * cs) * h + s->rotate_offset * e) * m;
            s->rotate_offset += s->rotate_velocity * t;
            s->rotate_velocity *= L->d;
            if (L->a < t) break;
            L->in_s[0] = s->rotate_offset * L->mr + L->ca;
            L->n = 1;
            L->need = PH_LOOP;
            return;
        } else if (L->a < t) {
            break;
        }
    }
    s->remaining = L->a;
    ph_tail(L);
}

static void ph_after_first(ph_lane *L)
{
    ob_spine_physics *s = L->s;
    ob_mat *bone = L->bone;
    double sn = L->out_s[0], cs = L->out_c[0], i = L->i;
    if (!L->rsx || L->scale_x) {
        double r = L->l * sqrt(bone->a * bone->a + bone->c * bone->c);
        if (r > 0) s->scale_offset += (L->dx * cs + L->dy * sn) * i / r;
    }
    L->a = s->remaining;
    if (L->a >= L->t) {
        const double *v = L->v;
        if (L->d == -1) L->d = spine_decay(s, L->damping, L->t);
        L->m = L->mass_inverse * L->t;
        L->e = L->strength;
        L->w = v[OB_CV_WIND];
        L->g = v[OB_CV_GRAVITY];
        L->h = L->l / L->f;
        ph_loop(L, cs, sn);
        return;
    }
    s->remaining = L->a;
    ph_tail(L);
}

static void ph_after_atan2(ph_lane *L)
{
    ob_spine_physics *s = L->s;
    L->ca = L->out_a[0];
    L->need = PH_FIRST;
    L->n = 1;
    if (L->rsx) {
        double r = L->out_a[1] - L->ca - s->rotate_offset * L->mr;
        s->rotate_offset += (r - ph_ceil(r * (1 / (2 * OB_PI)) - 0.5) * (2 * OB_PI)) * L->i;
        L->in_s[0] = s->rotate_offset * L->mr + L->ca;
    } else {
        L->in_s[0] = L->ca;
    }
}

static void ph_begin(ph_lane *L, ob_instance *inst, int32_t c)
{
    const ob_document *doc = inst->doc;
    const ob_constraint_data *cd = &doc->constraints[c];
    const double *v = &inst->con_values[(size_t)c * OB_CV_COUNT];
    ob_spine_physics *s = &inst->cons->spine_physics[c];
    L->need = PH_DONE;
    L->mix = v[OB_CV_MIX];
    if (L->mix == 0 || cd->bone < 0) return;
    L->inst = inst;
    L->c = c;
    L->cd = cd;
    L->v = v;
    L->s = s;
    const ob_physics_const *k = &inst->cons->physics_const[c];  /* (constraints.c) */
    L->x = k->x;
    L->y = k->y;
    L->rsx = k->rsx;
    L->scale_x = k->scale_x;
    L->b = cd->bone;
    ob_mat *bone = L->bone = &inst->world[cd->bone];
    L->l = k->length;

    double delta = inst->clock - s->last_time, step = k->step;
    delta = delta > 0 ? delta : 0;  /* max(delta, 0), NaN: 0 (fmax without the call) */
    s->remaining += delta;
    s->last_time = inst->clock;
    /* not in spine-core, for bad input only: no steps unless 1/fps > 0, and at most
    ** OB_SPINE_PHYSICS_STEPS of them per update (past that the oldest time is dropped;
    ** 166 s at 60 fps), so that fps ≤ 0 or 1e300 cannot hang the frame */
    if (s->remaining > step * OB_SPINE_PHYSICS_STEPS) s->remaining = step * OB_SPINE_PHYSICS_STEPS;  /* (step +inf: never) */
    double bx = bone->x, by = bone->y;
    if (s->reset) {
        s->reset = 0;
        s->ux = bx;
        s->uy = by;
        ph_tail(L);
        return;
    }
    double a = s->remaining, i = L->i = v[OB_CV_INERTIA], t = L->t = step, f = L->f = doc->reference_scale, d = -1;
    double mass_inverse = L->mass_inverse = 1 / v[OB_CV_MASS], damping = L->damping = v[OB_CV_DAMPING];
    double strength = L->strength = v[OB_CV_STRENGTH];
    double qx = L->qx = cd->plimit * delta, qy = L->qy = qx;  /* × |skeleton scale| = 1 */
    if (L->x || L->y) {
        if (L->x) {
            s->x_offset += clamp_abs((s->ux - bx) * i, qx);
            s->ux = bx;
        }
        if (L->y) {
            s->y_offset += clamp_abs((s->uy - by) * i, qy);
            s->uy = by;
        }
        if (a >= t) {
            d = spine_decay(s, damping, t);
            double m = mass_inverse * t, e = strength, w = v[OB_CV_WIND] * f, g = v[OB_CV_GRAVITY] * f;
            do {
                if (L->x) {
                    s->x_velocity += (w - s->x_offset * e) * m;
                    s->x_offset += s->x_velocity * t;
                    s->x_velocity *= d;
                }
                if (L->y) {
                    s->y_velocity -= (g + s->y_offset * e) * m;
                    s->y_offset += s->y_velocity * t;
                    s->y_velocity *= d;
                }
                a -= t;
            } while (a >= t);
        }
        if (L->x) bone->x += s->x_offset * L->mix * cd->px;
        if (L->y) bone->y += s->y_offset * L->mix * cd->py;
    }
    L->d = d;
    L->a = a;
    if (L->rsx || L->scale_x) {
        L->dx = clamp_abs(s->cx - bone->x, qx);
        L->dy = clamp_abs(s->cy - bone->y, qy);
        L->mr = L->rsx ? (cd->protate + cd->pshear_x) * L->mix : 0;
        L->in_y[0] = bone->c;
        L->in_x[0] = bone->a;
        L->in_y[1] = L->dy + s->ty;
        L->in_x[1] = L->dx + s->tx;
        L->n = L->rsx ? 2 : 1;
        L->need = PH_ATAN2;
        return;
    }
    s->remaining = a;
    ph_tail(L);
}

/* the lanes' constraints, each to its end, their trig in shared calls: per
** round the lanes' arguments packed (atan2 and sin/cos apart), one pass of
** each kernel, then each lane's continuation on its results */
static void ph_run(ph_lane *L, int count)
{
    enum { N = 2 * OB_PHYSICS_GROUP + 4 };  /* the packed slots, and a spare vector */
    double ay[N], ax[N], as[N], ra[N], rs[N], rc[N];
    for (;;) {
        int na = 0, ns = 0;
        for (int k = 0; k < count; k++) {
            ph_lane *q = &L[k];
            if (q->need == PH_DONE) continue;
            if (q->need == PH_ATAN2) {  /* both slots written, the second kept when n = 2 */
                ay[na] = q->in_y[0], ax[na] = q->in_x[0];
                ay[na + 1] = q->in_y[1], ax[na + 1] = q->in_x[1];
                q->out_a = ra + na;
                na += q->n;
            } else {
                as[ns] = q->in_s[0];
                as[ns + 1] = q->in_s[1];
                q->out_s = rs + ns;
                q->out_c = rc + ns;
                ns += q->n;
            }
        }
        if (!(na | ns)) return;
        ay[na] = 0, ax[na] = 1, as[ns] = 0;  /* the pairs read one slot past an odd count */
        if (na) ob_atan2_pairs(ay, ax, ra, na);  /* ph_run pads an odd count */
        if (ns) ob_sincos_pairs(as, rs, rc, ns);
        for (int k = 0; k < count; k++) {
            ph_lane *q = &L[k];
            switch (q->need) {
            case PH_ATAN2: ph_after_atan2(q); break;
            case PH_FIRST: ph_after_first(q); break;
            case PH_LOOP: ph_loop(q, q->out_c[0], q->out_s[0]); break;
            case PH_FINAL: ph_after_final(q); break;
            default: break;
            }
        }
    }
}

void ob_apply_physics_spine(ob_instance *inst, int32_t c)
{
    const ob_constraint_state *st = inst->cons;
    if (st->physics_with[c] == -2) return;  /* run with a later member of its group (constraints.c) */
    int32_t member[OB_PHYSICS_GROUP], n = 0;
    for (int32_t m = c; m >= 0 && n < OB_PHYSICS_GROUP; m = st->physics_prev[m]) member[n++] = m;
    ph_lane L[OB_PHYSICS_GROUP];
    for (int32_t k = 0; k < n; k++) {  /* in the cache's order: the first member first */
        L[k].in_s[1] = 0;  /* (a finite value for a slot whose result nobody reads) */
        ph_begin(&L[k], inst, member[n - 1 - k]);
    }
    ph_run(L, (int)n);
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
