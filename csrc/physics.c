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
** continuation per trig result), so that the constraints of a group
** (constraints.c) run in lockstep with their trig in shared calls
** (ph_group).  issue 17 (physics): each member's trig arguments sit in its
** own fixed lanes (no packing, no result pointers), one pass per round on
** all lanes: four-lane calls where the CPU has AVX2, pairs on the SSE2
** baseline.  The trig is lane-independent: the same bits. */
/* FINAL2: two final angles.  issue 17 (phys6): the state also says what the continuation would
** otherwise test: FINALX shearX only (the X axis), FINAL rotate only (both axes); LOOPS the steps
** with scaleX, LOOP without (rotate only) */
enum { PH_DONE, PH_ATAN2, PH_FIRST, PH_LOOP, PH_FINAL, PH_FINAL2, PH_FINALX, PH_LOOPS };

/* (inlined into each ph_group variant: AVX2's three-operand forms there) */
#define PH_INLINE __attribute__((always_inline)) static inline

typedef struct ph_lane {
    ob_instance *inst;
    const ob_constraint_data *cd;
    const double *v;
    ob_spine_physics *s;
    ob_mat *bone;
    int32_t c;
    int rsx;
    /* m, e, w, g, h: the rotate/scale loop's constants; hk: length / referenceScale (creation).
    ** issue 17 (phys6): the fields one continuation stores are not next to each other (m, e, w, g
    ** and h; c, b, rsx and scale_x), else GCC packs them into a vector by shuffles to store them */
    double mix, d, l, hk, i, m, t, e, dx, w, dy, g, mr, h, ca, a;
    int32_t b;
    int scale_x;
} ph_lane;

#if defined(__GNUC__) && !defined(__clang__)
/* GCC cannot see that a lane is read only after ph_begin filled it (a member
** ph_begin finishes at once is in neither live nor at): its
** -Wmaybe-uninitialized reports here are false, and zeroing the lanes would
** cost every update */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif

/* the member's angles: ang[0], and ang[4] for the second of the final rotation.
** issue 17 (phys6): sx, rs (the ..._k forms): the member's scale_x and rsx, constants where the
** caller knows them (a rotate-only member's steps: no flag tests, no scale state) */
PH_INLINE int ph_finish_k(ph_lane *L, const int sx)
{
    ob_spine_physics *s = L->s;
    ob_mat *bone = L->bone;
    double ba = bone->a, bc = bone->c;
    if (sx) {
        double sc = 1 + s->scale_offset * L->mix * L->cd->pscale_x;
        ba *= sc;
        bc *= sc;
        bone->a = ba;
        bone->c = bc;
    }
    s->tx = L->l * ba;
    s->ty = L->l * bc;
    ob_spine_applied_after(L->inst, L->c, 0, L->b);
    return PH_DONE;
}

PH_INLINE int ph_finish(ph_lane *L) { return ph_finish_k(L, L->scale_x); }

PH_INLINE int ph_tail_k(ph_lane *L, double *ang, const int sx, const int rs)
{
    ob_spine_physics *s = L->s;
    const ob_constraint_data *cd = L->cd;
    s->cx = L->bone->x;
    s->cy = L->bone->y;
    if (!rs) return ph_finish_k(L, sx);
    double o = s->rotate_offset * L->mix;
    if (cd->pshear_x > 0) {
        if (cd->protate > 0) {  /* the Y axis by the rotation only, the X axis by rotation + shear */
            double r = o * cd->protate;
            ang[0] = r;
            ang[4] = r + o * cd->pshear_x;
            return PH_FINAL2;
        } else {
            ang[0] = 0 + o * cd->pshear_x;
            return PH_FINALX;
        }
    } else {
        ang[0] = o * cd->protate;
    }
    return PH_FINAL;
}

PH_INLINE int ph_tail(ph_lane *L, double *ang) { return ph_tail_k(L, ang, L->scale_x, L->rsx); }

/* ph: the member's state, PH_FINAL, PH_FINAL2 or PH_FINALX (ph_tail's tests of protate and pshearX) */
PH_INLINE int ph_after_final(ph_lane *L, const double *sn, const double *cs, int ph)
{
    ob_mat *bone = L->bone;
    double s0 = sn[0], c0 = cs[0], a = bone->a, b = bone->b, c = bone->c, d = bone->d;
    /* FINAL turns both axes by the angle, FINALX the X axis only, FINAL2 the Y axis
    ** by the first angle and the X axis by the second (the two branches: GCC's
    ** code for one costs celestial ~110 instructions a frame more) */
    if (ph != PH_FINAL) {
        if (ph == PH_FINAL2) {
            ob_turn(c0, s0, b, d, &bone->b, &bone->d);
            s0 = sn[4];
            c0 = cs[4];
        }
        ob_turn(c0, s0, a, c, &bone->a, &bone->c);
    } else {
        ob_turn(c0, s0, a, c, &bone->a, &bone->c);
        ob_turn(c0, s0, b, d, &bone->b, &bone->d);
    }
    return ph_finish(L);
}

/* the rotate/scale steps from L->a on, with cos/sin (cs, sn) of the current angle */
PH_INLINE int ph_loop_k(ph_lane *L, double cs, double sn, double *ang, const int sx, const int rs)
{
    ob_spine_physics *s = L->s;
    double t = L->t, m = L->m, e = L->e, w = L->w, g = L->g, h = L->h, d = L->d, a = L->a;
    double so = 0, sv = 0, ro = s->rotate_offset, rv = s->rotate_velocity;
    if (sx) so = s->scale_offset, sv = s->scale_velocity;
    int more = 0;
    for (;;) {
        a -= t;
        if (sx) {
            sv += (w * cs - g * sn - so * e) * m;
            so += sv * t;
            sv *= d;
        }
        if (rs) {
            rv -= ((w * sn + g * cs) * h + ro * e) * m;
            ro += rv * t;
            rv *= d;
            if (a < t) break;
            ang[0] = ro * L->mr + L->ca;
            more = 1;
            break;
        } else if (a < t) {
            break;
        }
    }
    if (sx) {
        s->scale_offset = so;
        s->scale_velocity = sv;
    }
    s->rotate_offset = ro;
    s->rotate_velocity = rv;
    if (more) {
        L->a = a;
        return sx ? PH_LOOPS : PH_LOOP;  /* (LOOPS: with scale_x) */
    }
    s->remaining = a;
    return ph_tail_k(L, ang, sx, rs);
}

PH_INLINE int ph_after_first_k(ph_lane *L, double sn, double cs, double *ang, const int sx, const int rs)
{
    ob_spine_physics *s = L->s;
    if (sx) {  /* (rotateOrShearX: with scaleX only; else scaleX is set) */
        ob_mat *bone = L->bone;
        double r = L->l * sqrt(bone->a * bone->a + bone->c * bone->c);
        if (r > 0) s->scale_offset += (L->dx * cs + L->dy * sn) * L->i / r;
    }
    double a = L->a = s->remaining;
    if (a >= L->t) {
        const double *v = L->v;
        L->m = (1 / v[OB_CV_MASS]) * L->t;
        L->e = v[OB_CV_STRENGTH];
        L->w = v[OB_CV_WIND];
        L->g = v[OB_CV_GRAVITY];
        L->h = L->hk;
        return ph_loop_k(L, cs, sn, ang, sx, rs);
    }
    return ph_tail_k(L, ang, sx, rs);  /* (remaining = a: unchanged) */
}

/* (a member here steps rotation or scale: no scale_x, so rsx; the same for PH_LOOP, PH_LOOPS) */
PH_INLINE int ph_after_first(ph_lane *L, double sn, double cs, double *ang)
{
    if (L->scale_x) return ph_after_first_k(L, sn, cs, ang, 1, L->rsx);
    return ph_after_first_k(L, sn, cs, ang, 0, 1);
}

PH_INLINE int ph_after_atan2(ph_lane *L, double ca, double ta, double *ang, const int wide)
{
    ob_spine_physics *s = L->s;
    L->ca = ca;
    if (L->rsx) {
        double r = ta - ca - s->rotate_offset * L->mr, u = r * (1 / (2 * OB_PI)) - 0.5;
        s->rotate_offset += (r - (wide ? ceil(u) : ph_ceil(u)) * (2 * OB_PI)) * L->i;  /* (AVX2: roundsd) */
        ang[0] = s->rotate_offset * L->mr + ca;
    } else {
        ang[0] = ca;
    }
    return PH_FIRST;
}

/* up to the first trig: atan2(y[0], x[0]) and atan2(y[1], x[1]) asked for (PH_ATAN2) */
PH_INLINE int ph_begin(ph_lane *L, ob_instance *inst, int32_t c, double *y, double *x, double *ang)
{
    const ob_document *doc = inst->doc;
    const ob_constraint_data *cd = &doc->constraints[c];
    const double *v = &inst->con_values[(size_t)c * OB_CV_COUNT];
    ob_spine_physics *s = &inst->cons->spine_physics[c];
    double mix = L->mix = v[OB_CV_MIX];
    if (mix == 0 || cd->bone < 0) return PH_DONE;
    L->inst = inst;
    L->c = c;
    L->cd = cd;
    L->v = v;
    L->s = s;
    const ob_physics_const *k = &inst->cons->physics_const[c];  /* (constraints.c) */
    int px = k->x, py = k->y, rsx = L->rsx = k->rsx, scale_x = L->scale_x = k->scale_x;
    L->b = cd->bone;
    ob_mat *bone = L->bone = &inst->world[cd->bone];
    L->l = k->length;
    L->hk = k->h;

    double delta = inst->clock - s->last_time, step = k->step;
    delta = delta > 0 ? delta : 0;  /* max(delta, 0), NaN: 0 (fmax without the call) */
    double a = s->remaining + delta;
    s->last_time = inst->clock;
    /* not in spine-core, for bad input only: no steps unless 1/fps > 0, and at most
    ** OB_SPINE_PHYSICS_STEPS of them per update (past that the oldest time is dropped;
    ** 166 s at 60 fps), so that fps ≤ 0 or 1e300 cannot hang the frame */
    if (a > step * OB_SPINE_PHYSICS_STEPS) a = step * OB_SPINE_PHYSICS_STEPS;  /* (step +inf: never) */
    s->remaining = a;
    double bx = bone->x, by = bone->y;
    if (s->reset) {
        s->reset = 0;
        s->ux = bx;
        s->uy = by;
        return ph_tail(L, ang);
    }
    double i = L->i = v[OB_CV_INERTIA], t = L->t = step, f = doc->reference_scale, d = 0;
    /* issue 17 (phys6): the decay once for every channel (the same a, so the same test as the
    ** rotate/scale loop's in ph_after_first) */
    if (a >= t) d = spine_decay(s, v[OB_CV_DAMPING], t);
    double qx = cd->plimit * delta, qy = qx;  /* × |skeleton scale| = 1 */
    if (px || py) {
        if (px) {
            s->x_offset += clamp_abs((s->ux - bx) * i, qx);
            s->ux = bx;
        }
        if (py) {
            s->y_offset += clamp_abs((s->uy - by) * i, qy);
            s->uy = by;
        }
        if (a >= t) {
            double m = (1 / v[OB_CV_MASS]) * t, e = v[OB_CV_STRENGTH], w = v[OB_CV_WIND] * f,
                   g = v[OB_CV_GRAVITY] * f;
            double xo = s->x_offset, xv = s->x_velocity, yo = s->y_offset, yv = s->y_velocity;
            do {
                if (px) {
                    xv += (w - xo * e) * m;
                    xo += xv * t;
                    xv *= d;
                }
                if (py) {
                    yv -= (g + yo * e) * m;
                    yo += yv * t;
                    yv *= d;
                }
                a -= t;
            } while (a >= t);
            s->x_offset = xo;
            s->x_velocity = xv;
            s->y_offset = yo;
            s->y_velocity = yv;
        }
        if (px) bone->x += s->x_offset * mix * cd->px;
        if (py) bone->y += s->y_offset * mix * cd->py;
    }
    L->d = d;
    if (rsx || scale_x) {
        double dx = L->dx = clamp_abs(s->cx - bone->x, qx);
        double dy = L->dy = clamp_abs(s->cy - bone->y, qy);
        L->mr = k->rs * mix;  /* (used only where rsx) */
        y[0] = bone->c;
        x[0] = bone->a;
        y[1] = dy + s->ty;  /* (scaleX only: the spare lane's 0, 0 kept) */
        x[1] = dx + s->tx;
        return PH_ATAN2;
    }
    s->remaining = a;
    return ph_tail_k(L, ang, 0, 0);  /* (neither rsx nor scale_x) */
}


/* (macros: no four-lane vector passed by value, whose ABI GCC notes) */
#define PH_V4_LOAD(v, p) memcpy(&(v), (p), sizeof(ob_v4d))
#define PH_V4_STORE(p, v) memcpy((p), &(v), sizeof(ob_v4d))

/* the group's members (n ≤ 4, in the cache's order), each to its end: per
** round one trig pass over the lanes (member k: atan2 lanes 2k, 2k + 1;
** sin/cos lane k, and 4 + k for a second final angle), then each
** member's continuation on its lanes; wide: four-lane calls (AVX2) */
__attribute__((always_inline)) static inline void ph_group(ob_instance *inst, const int32_t *member, int n,
                                                           const int wide)
{
    ph_lane L[OB_PHYSICS_GROUP];
    int ph[OB_PHYSICS_GROUP];
    double y[8], x[8], ang[8], sn[8], cs[8], ra[8];  /* (spare lanes: atan2(0, 0), sin/cos 0) */
    if (wide) {  /* issue 17 (phys6): zeroed four lanes a store */
        const ob_v4d z = {0, 0, 0, 0};
        PH_V4_STORE(y, z), PH_V4_STORE(y + 4, z), PH_V4_STORE(x, z), PH_V4_STORE(x + 4, z);
        PH_V4_STORE(ang, z), PH_V4_STORE(ang + 4, z);
    } else {
        memset(y, 0, sizeof y), memset(x, 0, sizeof x), memset(ang, 0, sizeof ang);
    }
    unsigned live = 0, two = 0, at = 0;  /* bit k: member k not done, at PH_FINAL2, at PH_ATAN2 */
    for (int k = 0; k < n; k++) {
        int p = ph[k] = ph_begin(&L[k], inst, member[k], y + 2 * k, x + 2 * k, ang + k);
        live |= (unsigned)(p != PH_DONE) << k;
        two |= (unsigned)(p == PH_FINAL2) << k;
        at |= (unsigned)(p == PH_ATAN2) << k;
    }
    if (at) {
        if (wide) {
            ob_v4d vy, vx, r;
            PH_V4_LOAD(vy, y), PH_V4_LOAD(vx, x);
            ob_atan2_v4p(&vy, &vx, &r);
            PH_V4_STORE(ra, r);
            if (at > 3) {
                PH_V4_LOAD(vy, y + 4), PH_V4_LOAD(vx, x + 4);
                ob_atan2_v4p(&vy, &vx, &r);
                PH_V4_STORE(ra + 4, r);
            }
        } else {
            for (unsigned m = at; m; m &= m - 1) {
                int k = __builtin_ctz(m);
                ob_v2d vy = ob_v2_load(y + 2 * k), vx = ob_v2_load(x + 2 * k), r;
                ob_atan2_v2p(&vy, &vx, &r);
                ob_v2_store(ra + 2 * k, r);
            }
        }
        for (unsigned m = at; m; m &= m - 1) {
            int k = __builtin_ctz(m);
            ph[k] = ph_after_atan2(&L[k], ra[2 * k], ra[2 * k + 1], ang + k, wide);
        }
    }
    while (live) {
        if (wide) {
            ob_v4d va, vs, vc;
            PH_V4_LOAD(va, ang);
            ob_sincos_v4p(&va, &vs, &vc);
            PH_V4_STORE(sn, vs);
            PH_V4_STORE(cs, vc);
            if (two) {
                PH_V4_LOAD(va, ang + 4);
                ob_sincos_v4p(&va, &vs, &vc);
                PH_V4_STORE(sn + 4, vs);
                PH_V4_STORE(cs + 4, vc);
            }
        } else {
            for (int j = 0; j < (two ? 8 : 4); j += 4)
                for (int p = 0; p < n; p += 2) {
                    ob_v2d va = ob_v2_load(ang + j + p), vs, vc;
                    ob_sincos_v2p(&va, &vs, &vc);
                    ob_v2_store(sn + j + p, vs);
                    ob_v2_store(cs + j + p, vc);
                }
        }
        unsigned next = 0;
        two = 0;
        for (unsigned m = live; m; m &= m - 1) {
            int k = __builtin_ctz(m), p;
            if (ph[k] == PH_LOOP) p = ph_loop_k(&L[k], cs[k], sn[k], ang + k, 0, 1);
            else if (ph[k] == PH_FIRST) p = ph_after_first(&L[k], sn[k], cs[k], ang + k);
            else if (ph[k] == PH_LOOPS) p = ph_loop_k(&L[k], cs[k], sn[k], ang + k, 1, L[k].rsx);
            else p = ph_after_final(&L[k], sn + k, cs + k, ph[k]);  /* PH_FINAL, PH_FINAL2, PH_FINALX */
            ph[k] = p;
            next |= (unsigned)(p != PH_DONE) << k;
            two |= (unsigned)(p == PH_FINAL2) << k;
        }
        live = next;
    }
}

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && !defined(OB_NO_DISPATCH)
__attribute__((target("avx2"))) static void ph_group_avx2(ob_instance *inst, const int32_t *member, int n)
{
    if (n == 1) ph_group(inst, member, 1, 1);  /* a lone constraint (a chain's): its lane loops unrolled */
    else ph_group(inst, member, n, 1);
}
#define PH_AVX2_HERE() (__builtin_cpu_supports("avx2") != 0)
#else
#define ph_group_avx2 ph_group_base
#define PH_AVX2_HERE() 0
#endif
static void ph_group_base(ob_instance *inst, const int32_t *member, int n) { ph_group(inst, member, n, 0); }
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif

void ob_apply_physics_spine(ob_instance *inst, int32_t c)
{
    /* issue 17 (physics): the members it runs, listed when the groups are made (constraints.c) */
    const int32_t *g = &inst->cons->physics_group[(size_t)c * (1 + OB_PHYSICS_GROUP)];
    int n = g[0];
    if (n == 0) return;  /* run with a later member of its group */
    if (PH_AVX2_HERE()) ph_group_avx2(inst, g + 1, n);
    else ph_group_base(inst, g + 1, n);
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
