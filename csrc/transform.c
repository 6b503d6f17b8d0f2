/* transform.c: §7.2 applyTransform (local and world, absolute and relative). */
#include "constraints.h"
#include "curve_spine.h"

/* §7.2 a channel applies when its mix is > 0; under the Spine pose model
** (curve_spine.h) when it is ≠ 0, as spine-core does (a negative mix mirrors) */
static inline int on(int spine, double m) { return spine ? m != 0 && !isnan(m) : m > 0; }

/* §7.2 local mode has no per-channel gate (CLARIFICATIONS "Runtime rules the text leaves
** open"): every channel runs with its mix as it is, negative included (§4.3 no clamp);
** the Spine pose model keeps spine-core's m ≠ 0 */
static inline int on_local(int spine, double m) { return spine ? on(1, m) : 1; }

/* §7.2 skewOf(m) = wrap((atan2(d, b) − atan2(c, a))·RAD − 90) */
static double skew_of(ob_mat m) { return ob_wrap_deg((atan2(m.d, m.b) - atan2(m.c, m.a)) * OB_RAD - 90); }

/* §7.2 setSkew(w, k): ly = hypot(b, d), ang = atan2(c, a) + (90 + k)·DEG */
static void set_skew(ob_mat *w, double k)
{
    double ly = hypot(w->b, w->d), ang = atan2(w->c, w->a) + (90 + k) * OB_DEG;
    w->b = cos(ang) * ly;
    w->d = sin(ang) * ly;
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
