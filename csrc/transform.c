/* transform.c: §7.2 applyTransform (local and world, absolute and relative);
** under the Spine pose model spine-core 4.2's TransformConstraint (the
** behaviour reference: spine-runtimes 4.2, spine-ts/spine-core/src/
** TransformConstraint.ts; our own code). */
#include "constraints.h"
#include "curve_spine.h"

/* §7.2 a channel applies when its mix is > 0; under the Spine pose model
** (curve_spine.h) when it is ≠ 0, as spine-core does (a negative mix mirrors) */
static inline int on(int spine, double m) { return spine ? m != 0 && !isnan(m) : m > 0; }

/* §7.2 local mode has no per-channel gate (CLARIFICATIONS "Runtime rules the text leaves
** open"): every channel runs with its mix as it is, negative included (§4.3 no clamp);
** the Spine pose model keeps spine-core's m ≠ 0 */
static inline int on_local(int spine, double m) { return spine ? on(1, m) : 1; }

/* §7.2 skewOf(m) = wrap((ob_atan2(d, b) − ob_atan2(c, a))·RAD − 90) */
static double skew_of(ob_mat m)
{
    double y, x;
    ob_atan2_2(m.d, m.b, m.c, m.a, &y, &x);  /* issue 17: both in one call */
    return ob_wrap_deg((y - x) * OB_RAD - 90);
}

/* §7.2 setSkew(w, k): ly = hypot(b, d), ang = ob_atan2(c, a) + (90 + k)·DEG */
static void set_skew(ob_mat *w, double k)
{
    double ly = hypot(w->b, w->d), ang = ob_atan2(w->c, w->a) + (90 + k) * OB_DEG;
    w->b = ob_cos(ang) * ly;
    w->d = ob_sin(ang) * ly;
}

static void transform_local(ob_instance *inst, const ob_constraint_data *cd, int32_t b,
                            double mr, double mt, double ms, double mh)
{
    int spine = inst->doc->pose_model == OB_POSE_MODEL_SPINE;
    const ob_pose *t = ob_bone_applied(inst, cd->target);
    ob_pose *p = ob_bone_applied(inst, b);
    const ob_bone_data *s = &inst->doc->bones[cd->target];
    if (!cd->relative) {
        /* §7.2 local absolute */
        if (on_local(spine, mr)) p->rotation += ob_wrap_deg(t->rotation + cd->offset_rotation - p->rotation) * mr;
        if (on_local(spine, mt)) {
            p->x += (t->x + cd->offset_x - p->x) * mt;
            p->y += (t->y + cd->offset_y - p->y) * mt;
        }
        if (on_local(spine, ms)) {
            p->scale_x += (t->scale_x + cd->offset_scale_x - p->scale_x) * ms;
            p->scale_y += (t->scale_y + cd->offset_scale_y - p->scale_y) * ms;
        }
        if (on_local(spine, mh)) p->shear_y += (t->shear_y + cd->offset_shear - p->shear_y) * mh;
    } else {
        /* §7.2 local relative (s = target data) */
        if (on_local(spine, mr)) p->rotation += (ob_wrap_deg(t->rotation - s->rotation) + cd->offset_rotation) * mr;
        if (on_local(spine, mt)) {
            p->x += (t->x - s->x + cd->offset_x) * mt;
            p->y += (t->y - s->y + cd->offset_y) * mt;
        }
        if (on_local(spine, ms)) {
            p->scale_x *= 1 + ((s->scale_x != 0 ? t->scale_x / s->scale_x : 1) - 1 + cd->offset_scale_x) * ms;
            p->scale_y *= 1 + ((s->scale_y != 0 ? t->scale_y / s->scale_y : 1) - 1 + cd->offset_scale_y) * ms;
        }
        if (on_local(spine, mh)) p->shear_y += (t->shear_y - s->shear_y + cd->offset_shear) * mh;
    }
    ob_bone_update_subtree(inst, b, 1);
}

static void transform_world(ob_instance *inst, const ob_constraint_data *cd, int32_t b,
                            double mr, double mt, double ms, double mh)
{
    int spine = inst->doc->pose_model == OB_POSE_MODEL_SPINE;
    ob_mat *w = &inst->world[b];
    ob_mat t = inst->world[cd->target];
    ob_bone_edit(inst, b);
    if (!cd->relative) {
        /* §7.2 world absolute */
        if (on(spine, mr))
            ob_rotate_axes(w, ob_wrap_deg(ob_world_rotation(t) + cd->offset_rotation - ob_world_rotation(*w)) * mr * OB_DEG);
        if (on(spine, mt)) {
            double gx = t.a * cd->offset_x + t.b * cd->offset_y + t.x;  /* t·(offX, offY) */
            double gy = t.c * cd->offset_x + t.d * cd->offset_y + t.y;
            w->x += (gx - w->x) * mt;
            w->y += (gy - w->y) * mt;
        }
        if (on(spine, ms)) {
            double sx = hypot(w->a, w->c), sy = hypot(w->b, w->d);
            if (sx == 0) sx = 1;
            if (sy == 0) sy = 1;
            double kx = (sx + (hypot(t.a, t.c) + cd->offset_scale_x - sx) * ms) / sx;
            double ky = (sy + (hypot(t.b, t.d) + cd->offset_scale_y - sy) * ms) / sy;
            w->a *= kx; w->c *= kx; w->b *= ky; w->d *= ky;
        }
        if (on(spine, mh)) {
            double sb = skew_of(*w);
            set_skew(w, sb + ob_wrap_deg(skew_of(t) + cd->offset_shear - sb) * mh);
        }
    } else {
        /* §7.2 world relative, s = root·setupWorld(target), cached at creation */
        ob_mat s = ob_mat_mul(inst->root, inst->cons->setup_world[cd->target]);
        if (on(spine, mr))
            ob_rotate_axes(w, (ob_wrap_deg(ob_world_rotation(t) - ob_world_rotation(s)) + cd->offset_rotation) * mr * OB_DEG);
        if (on(spine, mt)) {
            w->x += (t.x - s.x + cd->offset_x) * mt;
            w->y += (t.y - s.y + cd->offset_y) * mt;
        }
        if (on(spine, ms)) {
            double ssx = hypot(s.a, s.c), ssy = hypot(s.b, s.d);
            if (ssx == 0) ssx = 1;
            if (ssy == 0) ssy = 1;
            double kx = 1 + (hypot(t.a, t.c) / ssx - 1 + cd->offset_scale_x) * ms;
            double ky = 1 + (hypot(t.b, t.d) / ssy - 1 + cd->offset_scale_y) * ms;
            w->a *= kx; w->c *= kx; w->b *= ky; w->d *= ky;
        }
        if (on(spine, mh)) set_skew(w, skew_of(*w) + (ob_wrap_deg(skew_of(t) - skew_of(s)) + cd->offset_shear) * mh);
    }
    ob_bone_sync_applied(inst, b);  /* §3.2: world edited directly */
    ob_bone_update_subtree(inst, b, 0);
}

void ob_apply_transform(ob_instance *inst, int32_t c)
{
    const ob_constraint_data *cd = &inst->doc->constraints[c];
    const double *v = &inst->con_values[(size_t)c * OB_CV_COUNT];
    /* §7.2 m = values.mix ‖ 1 */
    double m = v[OB_CV_MIX] != 0 && !isnan(v[OB_CV_MIX]) ? v[OB_CV_MIX] : 1;
    double mr = v[OB_CV_MIX_ROTATE] * m, mt = v[OB_CV_MIX_TRANSLATE] * m;
    double ms = v[OB_CV_MIX_SCALE] * m, mh = v[OB_CV_MIX_SHEAR] * m;
    int spine = inst->doc->pose_model == OB_POSE_MODEL_SPINE;
    int none = spine ? !on(1, mr) && !on(1, mt) && !on(1, ms) && !on(1, mh)
                     : mr <= 0 && mt <= 0 && ms <= 0 && mh <= 0;  /* (NaN passes, as written) */
    if (none || cd->target < 0) return;
    for (int32_t k = 0; k < cd->bone_count; k++) {
        int32_t b = cd->bones[k];
        if (b < 0 || b == cd->target) continue;
        ob_bone_fresh(inst, b);  /* a bone moved above may be the target's or b's ancestor */
        ob_bone_fresh(inst, cd->target);
        if (cd->local) transform_local(inst, cd, b, mr, mt, ms, mh);
        else transform_world(inst, cd, b, mr, mt, ms, mh);
    }
}

/* ---- the Spine pose model ---------------------------------------------- */

typedef struct spine_mix { double rotate, x, y, scale_x, scale_y, shear_y; } spine_mix;

/* spine-core 4.2 applyAbsoluteWorld / applyRelativeWorld: each bone's world
** edited toward the target's (relative: by the target's), then its applied
** pose taken from the world */
static void spine_world(ob_instance *inst, int32_t c, spine_mix m)
{
    const ob_constraint_data *cd = &inst->doc->constraints[c];
    const ob_mat t = inst->world[cd->target];
    double ta = t.a, tb = t.b, tc = t.c, td = t.d;
    double deg_rad_reflect = ta * td - tb * tc > 0 ? OB_DEG : -OB_DEG;
    double offset_rotation = cd->offset_rotation * deg_rad_reflect;
    double offset_shear_y = cd->offset_shear * deg_rad_reflect;
    const double *oc = inst->cons->transform_offset + 4 * (size_t)c;  /* sin, cos of ±offset_rotation */
    double off_s = deg_rad_reflect > 0 ? oc[0] : oc[2], off_c = deg_rad_reflect > 0 ? oc[1] : oc[3];
    double tn2 = ta * ta + tc * tc;
    int translate = m.x != 0 || m.y != 0;
    for (int32_t k = 0; k < cd->bone_count; k++) {
        int32_t bi = cd->bones[k];
        if (bi < 0) continue;
        ob_mat *w = &inst->world[bi];
        /* target.localToWorld(offsetX, offsetY), read live (a listed target moves) */
        const ob_mat *tl = &inst->world[cd->target];
        double ox = cd->offset_x * tl->a + cd->offset_y * tl->b + tl->x;
        double oy = cd->offset_x * tl->c + cd->offset_y * tl->d + tl->y;
        if (m.rotate != 0) {
            double wa = w->a, wc = w->c, wn2 = wa * wa + wc * wc;
            if (m.rotate == 1 && tn2 > 1e-300 && tn2 < 1e300 && (cd->relative || (wn2 > 1e-300 && wn2 < 1e300))) {
                /* issue 17: at mix 1 the turn by r = atan2(tc, ta) [− atan2(c, a)] +
                ** offset is the product of the unit vectors' turns and the offset's
                ** (its sin/cos kept from creation): the same matrix without trig,
                ** to a few ulp */
                double cs, sn;
                if (cd->relative) {
                    double q = sqrt(tn2);
                    cs = ta / q;
                    sn = tc / q;
                } else {
                    double q = sqrt(tn2) * sqrt(wn2);
                    cs = (ta * wa + tc * wc) / q;
                    sn = (tc * wa - ta * wc) / q;
                }
                double rc = cs * off_c - sn * off_s, rs = sn * off_c + cs * off_s, b = w->b, d = w->d;
                w->a = rc * wa - rs * wc;
                w->b = rc * b - rs * d;
                w->c = rs * wa + rc * wc;
                w->d = rs * b + rc * d;
            } else {
                double tr, own;
                ob_atan2_2(tc, ta, wc, wa, &tr, &own);  /* issue 17: both in one call */
                double r = cd->relative ? tr + offset_rotation : tr - own + offset_rotation;
                ob_mat_rotate(w, ob_wrap_pi(r) * m.rotate);
            }
        }
        if (translate) {
            if (cd->relative) {
                w->x += ox * m.x;
                w->y += oy * m.y;
            } else {
                w->x += (ox - w->x) * m.x;
                w->y += (oy - w->y) * m.y;
            }
        }
        if (m.scale_x != 0) {
            double s;
            if (cd->relative) {
                s = (sqrt(ta * ta + tc * tc) - 1 + cd->offset_scale_x) * m.scale_x + 1;
            } else {
                s = sqrt(w->a * w->a + w->c * w->c);
                if (s != 0) s = (s + (sqrt(ta * ta + tc * tc) - s + cd->offset_scale_x) * m.scale_x) / s;
            }
            w->a *= s;
            w->c *= s;
        }
        if (m.scale_y != 0) {
            double s;
            if (cd->relative) {
                s = (sqrt(tb * tb + td * td) - 1 + cd->offset_scale_y) * m.scale_y + 1;
            } else {
                s = sqrt(w->b * w->b + w->d * w->d);
                if (s != 0) s = (s + (sqrt(tb * tb + td * td) - s + cd->offset_scale_y) * m.scale_y) / s;
            }
            w->b *= s;
            w->d *= s;
        }
        if (m.shear_y > 0) {  /* > 0 here, in spine-core (the other channels: ≠ 0) */
            /* issue 17: the four angles in two pair calls, the sin/cos in one (the bits of one at a time) */
            double b = w->b, d = w->d, r;
            ob_v2d v01 = ob_atan2_v2((ob_v2d){d, td}, (ob_v2d){b, tb});
            ob_v2d v23 = ob_atan2_v2((ob_v2d){tc, w->c}, (ob_v2d){ta, w->a});
            double va[4] = {v01[0], v01[1], v23[0], v23[1]};
            double by = va[0];
            if (cd->relative) {
                r = ob_wrap_pi(va[1] - va[2]);
                r = by + (r - OB_PI / 2 + offset_shear_y) * m.shear_y;
            } else {
                r = ob_wrap_pi(va[1] - va[2] - (by - va[3]));
                r = by + (r + offset_shear_y) * m.shear_y;
            }
            double s = sqrt(b * b + d * d), sn, cs;
            ob_sincos(r, &sn, &cs);
            w->b = cs * s;
            w->d = sn * s;
        }
        ob_spine_applied_after(inst, c, k, bi);
    }
}

/* spine-core 4.2 applyAbsoluteLocal / applyRelativeLocal: on applied values,
** then each bone's world from its parent's (absolute scale as spine-core
** 4.2 computes it: the mixed scale divided by the bone's own) */
static void spine_local(ob_instance *inst, const ob_constraint_data *cd, spine_mix m)
{
    for (int32_t k = 0; k < cd->bone_count; k++) {
        int32_t bi = cd->bones[k];
        if (bi < 0) continue;
        const ob_pose t = inst->applied[cd->target];  /* read live (a listed target moves) */
        ob_pose p = inst->applied[bi];
        if (cd->relative) {
            p.rotation += (t.rotation + cd->offset_rotation) * m.rotate;
            p.x += (t.x + cd->offset_x) * m.x;
            p.y += (t.y + cd->offset_y) * m.y;
            p.scale_x *= (t.scale_x - 1 + cd->offset_scale_x) * m.scale_x + 1;
            p.scale_y *= (t.scale_y - 1 + cd->offset_scale_y) * m.scale_y + 1;
            p.shear_y += (t.shear_y + cd->offset_shear) * m.shear_y;
        } else {
            if (m.rotate != 0) p.rotation += (t.rotation - p.rotation + cd->offset_rotation) * m.rotate;
            p.x += (t.x - p.x + cd->offset_x) * m.x;
            p.y += (t.y - p.y + cd->offset_y) * m.y;
            if (m.scale_x != 0 && p.scale_x != 0)
                p.scale_x = (p.scale_x + (t.scale_x - p.scale_x + cd->offset_scale_x) * m.scale_x) / p.scale_x;
            if (m.scale_y != 0 && p.scale_y != 0)
                p.scale_y = (p.scale_y + (t.scale_y - p.scale_y + cd->offset_scale_y) * m.scale_y) / p.scale_y;
            if (m.shear_y != 0) p.shear_y += (t.shear_y - p.shear_y + cd->offset_shear) * m.shear_y;
        }
        ob_bone_world_with_spine(inst, bi, p);
    }
}

/* spine-core 4.2 TransformConstraint.update: nothing when every mix is 0 */
void ob_apply_transform_spine(ob_instance *inst, int32_t c)
{
    const ob_constraint_data *cd = &inst->doc->constraints[c];
    const double *v = &inst->con_values[(size_t)c * OB_CV_COUNT];
    double mm = v[OB_CV_MIX] != 0 && !isnan(v[OB_CV_MIX]) ? v[OB_CV_MIX] : 1;  /* OpenBone's mix ‖ 1 (1 on import) */
    spine_mix m = {v[OB_CV_MIX_ROTATE] * mm, v[OB_CV_MIX_TRANSLATE] * mm, v[OB_CV_MIX_Y] * mm,
                   v[OB_CV_MIX_SCALE] * mm, v[OB_CV_MIX_SCALE_Y] * mm, v[OB_CV_MIX_SHEAR] * mm};
    if (cd->target < 0 ||
        (m.rotate == 0 && m.x == 0 && m.y == 0 && m.scale_x == 0 && m.scale_y == 0 && m.shear_y == 0))
        return;
    if (cd->local) spine_local(inst, cd, m);
    else spine_world(inst, c, m);
}
