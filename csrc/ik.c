/* ik.c: §7.1 applyIk, one-bone and two-bone inverse kinematics. */
#include "constraints.h"
#include "curve_spine.h"

/* §7.1 one bone b aiming at (tx, ty) */
static void ik_one(ob_instance *inst, int32_t b, double tx, double ty, int stretch, int compress,
                   int uniform, double mix)
{
    const ob_document *doc = inst->doc;
    ob_bone_fresh(inst, b);
    ob_mat P = ob_parent_world(inst, b);
    ob_pose *ap = ob_bone_applied(inst, b);
    double dx = tx - inst->world[b].x, dy = ty - inst->world[b].y;
    /* §7.1 (lx, ly) = linear part of invert(P) · (dx, dy) */
    ob_mat inv = ob_mat_invert(P);
    double lx = inv.a * dx + inv.b * dy, ly = inv.c * dx + inv.d * dy;
    double want = atan2(ly, lx) * OB_RAD - ap->shear_x;
    ap->rotation += ob_wrap_deg(want - ap->rotation) * mix;
    ob_bone_update_world(inst, b);
    double len = doc->bones[b].length * ob_world_scale_x(inst->world[b]);
    if ((stretch || compress) && len > 1e-6) {
        double k = hypot(dx, dy) / len;
        if ((k > 1 && stretch) || (k < 1 && compress)) {
            /* §7.1 s = 1 + (k − 1)·mix; world.a,c *= s; uniform: world.b,d *= s */
            double s = 1 + (k - 1) * mix;
            ob_mat *w = &inst->world[b];
            ob_bone_edit(inst, b);
            w->a *= s; w->c *= s;
            if (uniform) { w->b *= s; w->d *= s; }
            ob_bone_sync_applied(inst, b);  /* §3.2: world edited directly */
        }
    }
    ob_bone_update_subtree(inst, b, 0);
}

/* §7.1 two bones p, ch (compress ignored) */
static void ik_two(ob_instance *inst, int32_t p, int32_t ch, double tx, double ty, int bend_positive,
                   int stretch, int uniform, double softness, double mix)
{
    const ob_document *doc = inst->doc;
    ob_bone_fresh(inst, p);
    ob_bone_fresh(inst, ch);
    ob_mat *pw = &inst->world[p], *cw = &inst->world[ch];
    double px = pw->x, py = pw->y;
    double l1 = hypot(cw->x - px, cw->y - py);
    double l2 = doc->bones[ch].length * ob_world_scale_x(*cw);
    double reach = l1 + l2;
    double d_raw = hypot(tx - px, ty - py);
    /* §7.1 soft = min(softness·|usX|, reach) */
    double soft = softness * fabs(ob_unit_scale_x(inst));
    if (soft > reach) soft = reach;
    double d_soft = d_raw, d_eff;
    if (inst->doc->pose_model == OB_POSE_MODEL_SPINE) {
        /* the Spine pose model (curve_spine.h): spine-core's quadratic, which
        ** reaches the full length at twice the softness, and no 1e-4 margins */
        double sd = d_raw - reach + soft;
        if (soft > 0 && sd > 0) {
            double q = fmin(1, sd / (soft * 2)) - 1;
            d_soft = d_raw - (sd - soft * (1 - q * q));
        }
        d_eff = fmin(fmax(d_soft, fabs(l1 - l2)), reach);
    } else {
        if (soft > 1e-6 && d_raw > reach - soft)
            d_soft = reach - soft + soft * (1 - exp(-(d_raw - (reach - soft)) / soft));
        d_eff = fmin(fmax(d_soft, fabs(l1 - l2) + 1e-4), reach - 1e-4);
    }
    double ux = 1, uy = 0;
    if (d_raw > 1e-9) { ux = (tx - px) / d_raw; uy = (ty - py) / d_raw; }
    double ax = px + ux * d_eff, ay = py + uy * d_eff;  /* aim point */
    double den = 2 * l1 * d_eff;
    if (den == 0) den = 1;
    double cos_a = (l1 * l1 + d_eff * d_eff - l2 * l2) / den;
    cos_a = cos_a < -1 ? -1 : cos_a > 1 ? 1 : cos_a;
    double a1 = atan2(uy, ux) + (bend_positive ? -1 : 1) * acos(cos_a);
    double cur_dir = atan2(cw->y - py, cw->x - px);
    double delta_p = ob_wrap_deg((a1 - cur_dir) * OB_RAD) * ob_det_sign(ob_parent_world(inst, p));
    ob_pose *pa = ob_bone_applied(inst, p), *ca = ob_bone_applied(inst, ch);
    double p_rot = pa->rotation, c_rot = ca->rotation;
    pa->rotation = p_rot + delta_p;
    ob_bone_update_subtree(inst, p, 1);  /* §7.1 the full solve first */
    ob_bone_fresh(inst, p);
    ob_bone_fresh(inst, ch);
    double delta_c = ob_wrap_deg(atan2(ay - cw->y, ax - cw->x) * OB_RAD - ob_world_rotation(*cw)) *
                     ob_det_sign(*pw);
    pa->rotation = p_rot + delta_p * mix;
    ca->rotation = c_rot + delta_c * mix;
    ob_bone_update_world(inst, p);
    ob_bone_update_world(inst, ch);
    /* Spine stretches by the softened distance (so never while softness eases) */
    double d_st = inst->doc->pose_model == OB_POSE_MODEL_SPINE ? d_soft : d_raw;
    if (stretch && d_st > d_eff + 1e-9) {
        /* §7.1 s = 1 + (dRaw/dEff − 1)·mix; u = uniform ? s : 1 */
        double s = 1 + (d_st / d_eff - 1) * mix, u = uniform ? s : 1;
        ob_bone_edit(inst, p);
        ob_bone_edit(inst, ch);
        pw->a *= s; pw->c *= s; pw->b *= u; pw->d *= u;
        double cx = pw->a * ca->x + pw->b * ca->y + pw->x;  /* p.world·(ch.applied.x, y) */
        double cy = pw->c * ca->x + pw->d * ca->y + pw->y;
        *cw = (ob_mat){cw->a * s, cw->b * u, cw->c * s, cw->d * u, cx, cy};  /* ignores ch inherit */
        ob_bone_sync_applied(inst, p);   /* §3.2: worlds edited directly */
        ob_bone_sync_applied(inst, ch);
    }
    ob_bone_update_subtree(inst, ch, 0);
    for (int32_t k = 0; k < inst->child_count[p]; k++) {  /* every other child of p */
        int32_t o = inst->children[p][k];
        if (o != ch) ob_bone_update_subtree(inst, o, 1);
    }
}

void ob_apply_ik(ob_instance *inst, int32_t c)
{
    const ob_constraint_data *cd = &inst->doc->constraints[c];
    const double *v = &inst->con_values[(size_t)c * OB_CV_COUNT];
    double mix = v[OB_CV_MIX];
    if (mix <= 0 || cd->target < 0) return;  /* §7.1 skip */
    int32_t bones[2], n = 0;
    for (int32_t k = 0; k < cd->bone_count && n < 2; k++)  /* missing bones are left out */
        if (cd->bones[k] >= 0) bones[n++] = cd->bones[k];
    if (n == 0) return;
    ob_bone_fresh(inst, cd->target);
    double tx = inst->world[cd->target].x, ty = inst->world[cd->target].y;
    int bend_positive = v[OB_CV_BEND] > 0, stretch = v[OB_CV_STRETCH] > 0, compress = v[OB_CV_COMPRESS] > 0;
    if (n == 1) ik_one(inst, bones[0], tx, ty, stretch, compress, cd->uniform, mix);
    else ik_two(inst, bones[0], bones[1], tx, ty, bend_positive, stretch, cd->uniform, v[OB_CV_SOFTNESS], mix);
}
