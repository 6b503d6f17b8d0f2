/* ik.c: §7.1 applyIk, one-bone and two-bone inverse kinematics; under the
** Spine pose model spine-core 4.2's IkConstraint.apply1 / apply2 (the
** behaviour reference: spine-runtimes 4.2, spine-ts/spine-core/src/
** IkConstraint.ts; our own code). */
#include "constraints.h"
#include "curve_spine.h"
#include "obtrig_inv.h"

/* issue 17 (ik6): whether AVX2 runs, where a four-lane kernel is one register
** (as OB_TRIG_CLONES decides; the SSE2 baseline takes pairs).  Only the cost
** depends on it: each lane gets the same bits either way */
#if defined(__AVX2__)
#define IK_WIDE 1
#elif defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && defined(__linux__) && !defined(OB_NO_DISPATCH)
#define IK_WIDE __builtin_cpu_supports("avx2")
#else
#define IK_WIDE 0
#endif

/* issue 17 (ik6): GCC's SLP vectorizer builds ik1_fast's few two-lane
** operations from scalars by shuffles that cost more than they save (11
** instructions a call); off there.  Either way the same operations on the
** same values (elementwise IEEE, no contraction): the same bits */
#if defined(__GNUC__) && !defined(__clang__)
#define IK_NO_SLP __attribute__((optimize("no-tree-slp-vectorize")))
#else
#define IK_NO_SLP
#endif

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
    double want = ob_atan2(ly, lx) * OB_RAD - ap->shear_x;
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
    double a1 = ob_atan2(uy, ux) + (bend_positive ? -1 : 1) * acos(cos_a);
    double cur_dir = ob_atan2(cw->y - py, cw->x - px);
    double delta_p = ob_wrap_deg((a1 - cur_dir) * OB_RAD) * ob_det_sign(ob_parent_world(inst, p));
    ob_pose *pa = ob_bone_applied(inst, p), *ca = ob_bone_applied(inst, ch);
    double p_rot = pa->rotation, c_rot = ca->rotation;
    pa->rotation = p_rot + delta_p;
    ob_bone_update_subtree(inst, p, 1);  /* §7.1 the full solve first */
    ob_bone_fresh(inst, p);
    ob_bone_fresh(inst, ch);
    double delta_c = ob_wrap_deg(ob_atan2(ay - cw->y, ax - cw->x) * OB_RAD - ob_world_rotation(*cw)) *
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

/* ---- the Spine pose model ---------------------------------------------- */

static inline double wrap180(double r) { return r > 180 ? r - 360 : r < -180 ? r + 360 : r; }

/* issue 17 (ik6): the localMatrix trig of two normal bones (their applied
** poses set) and ob_bone_world_spine of both, inlined: two stale entries in
** one call, a lane a bone with equal shears, else four lanes (each lane's
** bits those of ob_trig_set's pair: tests/test_trig_lanes.py), then the
** worlds as ob_bone_world_spine makes them (b0's first: b1's parent may be b0) */
__attribute__((always_inline)) static inline void ik_worlds_two(ob_instance *inst, int32_t b0, int32_t b1)
{
    const ob_pose *p0 = &inst->applied[b0], *p1 = &inst->applied[b1];
    ob_trig *t0 = &inst->trig[b0], *t1 = &inst->trig[b1];
    int c0 = ob_trig_current(p0, t0), c1 = ob_trig_current(p1, t1);
    if (!c0 && !c1) {
        if (ob_same_bits(p0->shear_x, p0->shear_y) && ob_same_bits(p1->shear_x, p1->shear_y)) {
            /* equal shears: θy = θx bit for bit, one lane per bone (as ob_trig_set's pair) */
            ob_v2d x = {ob_angle_x(p0), ob_angle_x(p1)}, sn, cs;
            ob_sincos_v2p(&x, &sn, &cs);  /* the kernel inlined */
            ob_trig_store(t0, p0, sn[0], cs[0], sn[0], cs[0]);
            ob_trig_store(t1, p1, sn[1], cs[1], sn[1], cs[1]);
        } else {
            ob_v4d x = {ob_angle_x(p0), ob_angle_y(p0), ob_angle_x(p1), ob_angle_y(p1)}, sn, cs;
            ob_sincos_v4p(&x, &sn, &cs);
            ob_trig_store(t0, p0, sn[0], cs[0], sn[1], cs[1]);
            ob_trig_store(t1, p1, sn[2], cs[2], sn[3], cs[3]);
        }
    } else if (!c0) {
        ob_trig_set(t0, p0);
    } else if (!c1) {
        ob_trig_set(t1, p1);
    }
    int32_t q0 = inst->spine_parent[b0];
    inst->world[b0] = ob_mat_mul(q0 >= 0 ? inst->world[q0] : inst->root, ob_local_matrix_trig(p0, t0));
    int32_t q1 = inst->spine_parent[b1];
    inst->world[b1] = ob_mat_mul(q1 >= 0 ? inst->world[q1] : inst->root, ob_local_matrix_trig(p1, t1));
}

/* spine-core 4.2 IkConstraint.apply1: the bone's applied rotation (and X
** scale when stretching / compressing) aimed at the target, in its parent's
** space as its inherit mode sees it.  need: the applied pose is read later in
** the update cache (issue 17 (ik): else a trig-free world skips its angle) */
__attribute__((always_inline)) static inline void ik1_spine(ob_instance *inst, int32_t b, double target_x,
                                                            double target_y, int compress, int stretch, int uniform,
                                                            double alpha, int need)
{
    const ob_document *doc = inst->doc;
    int32_t pi = doc->bones[b].parent;
    ob_mat P = pi >= 0 ? inst->world[pi] : inst->root;  /* spine-core requires a parent: root placement */
    double pa = P.a, pb = P.b, pc = P.c, pd = P.d;
    const ob_pose ap = inst->applied[b];
    const ob_mat w = inst->world[b];
    double rotation_ik = -ap.shear_x - ap.rotation, tx, ty, rt = 0;
    int inherit = inst->inherit[b], later = 0;  /* later: rt = atan2(ty, tx), taken when needed */
    if (inherit == OB_INHERIT_ONLY_TRANSLATION) {
        tx = target_x - w.x;  /* · signum(skeleton scale) = 1 */
        ty = target_y - w.y;
        rt = ob_atan2(ty, tx);
    } else {
        int nror = inherit == OB_INHERIT_NO_ROTATION_OR_REFLECTION;
        if (nror) {
            double s = fabs(pa * pd - pb * pc) / fmax(0.0001, pa * pa + pc * pc);
            pb = -pc * s;
            pd = pa * s;
        }
        double x = target_x - P.x, y = target_y - P.y, d = pa * pd - pb * pc;
        if (fabs(d) <= 0.0001) {
            tx = 0;
            ty = 0;
        } else {
            tx = (x * pd - y * pb) / d - ap.x;
            ty = (y * pa - x * pc) / d - ap.y;
        }
        if (nror) {  /* the parent's angle and the target's in one call (issue 17) */
            double rp;
            ob_atan2_2(pc, pa, ty, tx, &rp, &rt);
            rotation_ik += rp * OB_RAD;
        } else if (inherit == OB_INHERIT_NORMAL) {
            later = 1;  /* rt from these (tx, ty), which stay: taken below only where needed */
        } else {
            rt = ob_atan2(ty, tx);
        }
    }
    double sx = ap.scale_x, sy = ap.scale_y;
    if (compress || stretch) {
        double ux = tx, uy = ty;  /* the angle's (tx, ty) stay (rt is taken: the no-scale modes) */
        if (inherit == OB_INHERIT_NO_SCALE || inherit == OB_INHERIT_NO_SCALE_OR_REFLECTION) {
            ux = target_x - w.x;
            uy = target_y - w.y;
        }
        double bl = doc->bones[b].length * sx;
        if (bl > 0.0001) {
            double dd = ux * ux + uy * uy;
            if ((compress && dd < bl * bl) || (stretch && dd > bl * bl)) {
                double s = (sqrt(dd) / bl - 1) * alpha + 1;
                sx *= s;
                if (uniform) sy *= s;
            }
        }
    }
    double h2 = tx * tx + ty * ty;
    int trig_free = alpha == 1 && inherit == OB_INHERIT_NORMAL && pi >= 0 && ob_same_bits(ap.shear_x, ap.shear_y) &&
                    h2 > 1e-300 && h2 < 1e300;
    if (!trig_free || need) {
        if (later) rt = ob_atan2(ty, tx);
        rotation_ik += rt * OB_RAD;
        if (ap.scale_x < 0) rotation_ik += 180;
        rotation_ik = wrap180(rotation_ik);
        inst->applied[b] = (ob_pose){ap.x, ap.y, ap.rotation + rotation_ik * alpha, sx, sy, ap.shear_x, ap.shear_y};
    }
    if (trig_free) {
        /* issue 17: at alpha 1 the new localMatrix angle θx = (rotation + shearX)·π/180
        ** is atan2(ty, tx) (+ π for a negative X scale) up to whole turns and
        ** rounding, and θy = θx (equal shears): its cos and sin are (tx, ty)/|t|
        ** (negated) without trig, to a few ulp.  The world as ob_bone_world_spine
        ** makes it for a normal bone; the trig entry keyed by the old angles
        ** stays for whoever needs the kernel's.  The applied pose is set only
        ** when a later entry reads it (issue 17 (ik)): it is internal, and the
        ** next frame resets it from the local pose */
        double h = sqrt(h2), cs = tx / h, sn = ty / h;
        if (ap.scale_x < 0) cs = -cs, sn = -sn;
        inst->world[b] = ob_mat_mul(P, (ob_mat){cs * sx, -sn * sy, sn * sx, cs * sy, ap.x, ap.y});
        return;
    }
    ob_bone_world_spine(inst, b);
}

/* issue 17 (ik6): ik1_spine's every case in one function (ik2_spine's rare case) */
static __attribute__((noinline)) void ik1_any(ob_instance *inst, int32_t b, double target_x, double target_y,
                                              int compress, int stretch, int uniform, double alpha, int need)
{
    ik1_spine(inst, b, target_x, target_y, compress, stretch, uniform, alpha, need);
}

/* issue 17 (ik6): ik1_fast's other cases: constraint c's values and bone (ib:
** cons->ik_bones) read here */
static __attribute__((noinline)) void ik1_general(ob_instance *inst, int32_t c, const int32_t *ib)
{
    const ob_constraint_data *cd = &inst->doc->constraints[c];
    const double *v = &inst->con_values[(size_t)c * OB_CV_COUNT];
    double mix = v[OB_CV_MIX];
    if (mix == 0) return;
    const ob_mat *tw = &inst->world[cd->target];
    ik1_any(inst, ib[0], tw->x, tw->y, v[OB_CV_COMPRESS] != 0, v[OB_CV_STRETCH] != 0, cd->uniform, mix,
            ob_spine_applied_needed(inst, c, ib[2]));
}

/* issue 17 (ik6): ik1_spine's common case in a function of its own (its values
** stay in registers): alpha 1, normal inherit, a parent, equal shears, the
** applied pose not read later, |t|² in range: the trig-free world, with the
** same operations in the same order as ik1_spine's; any other case (decided
** before anything is written; the pose tests first) goes to ik1_general,
** which starts over */
OB_TRIG_CLONES IK_NO_SLP static __attribute__((noinline)) void ik1_fast(ob_instance *inst, int32_t c, const int32_t *ib)
{
    const ob_document *doc = inst->doc;
    int32_t b = ib[0], pi = doc->bones[b].parent;
    const ob_pose *ap = &inst->applied[b];
    if (inst->inherit[b] != OB_INHERIT_NORMAL || pi < 0 || !ob_same_bits(ap->shear_x, ap->shear_y)) goto general;
    const double *v = &inst->con_values[(size_t)c * OB_CV_COUNT];
    if (v[OB_CV_MIX] != 1 || ob_spine_applied_needed(inst, c, ib[2])) goto general;
    const ob_constraint_data *cd = &doc->constraints[c];
    const ob_mat *tw = &inst->world[cd->target];
    double target_x = tw->x, target_y = tw->y;
    const ob_mat P = inst->world[pi];
    double pa = P.a, pb = P.b, pc = P.c, pd = P.d;
    double x = target_x - P.x, y = target_y - P.y, d = pa * pd - pb * pc;
    if (fabs(d) <= 0.0001) goto general;  /* (tx, ty) = 0: not trig-free */
    double apx = ap->x, apy = ap->y, sx = ap->scale_x, sy = ap->scale_y;
    double tx = (x * pd - y * pb) / d - apx, ty = (y * pa - x * pc) / d - apy;
    int flip = sx < 0;
    if (v[OB_CV_COMPRESS] != 0 || v[OB_CV_STRETCH] != 0) {  /* read where needed */
        int compress = v[OB_CV_COMPRESS] != 0, stretch = v[OB_CV_STRETCH] != 0;
        double bl = doc->bones[b].length * sx;
        if (bl > 0.0001) {
            double dd = tx * tx + ty * ty;
            if ((compress && dd < bl * bl) || (stretch && dd > bl * bl)) {
                double s = (sqrt(dd) / bl - 1) + 1;  /* · alpha = 1: exact */
                sx *= s;
                if (cd->uniform) sy *= s;
            }
        }
    }
    double h2 = tx * tx + ty * ty;
    if (!(h2 > 1e-300 && h2 < 1e300)) goto general;
    double h = sqrt(h2), cs = tx / h, sn = ty / h;
    if (flip) cs = -cs, sn = -sn;
    inst->world[b] = ob_mat_mul(P, (ob_mat){cs * sx, -sn * sy, sn * sx, cs * sy, apx, apy});
    return;
general:
    ik1_general(inst, c, ib);
}

/* spine-core 4.2 IkConstraint.apply2: law of cosines in the parent's parent
** space on applied values (uniform IK parent scale), else the ellipse the
** child's tip traces under a non-uniform one; the child placed at (cx, 0)
** when stretching or non-uniform; nothing unless both inherit normally */
/* issue 17: atan2(cy, cx) of constraint c's child position, kept while its
** bits stay (an unkeyed child keeps it from frame to frame): the value the
** call gives */
static double ik_os(ob_instance *inst, int32_t c, double cy, double cx)
{
    double *k = inst->cons->ik_os + 4 * (size_t)c;  /* y, x, atan2, 1 when set */
    if (k[3] != 1 || !ob_same_bits(k[0], cy) || !ob_same_bits(k[1], cx)) {
        k[0] = cy;
        k[1] = cx;
        k[2] = ob_atan2(cy, cx);
        k[3] = 1;
    }
    return k[2];
}

/* issue 17 (ik): inlined in its one caller (its many arguments stay in registers) */
__attribute__((always_inline)) static inline void ik2_spine(ob_instance *inst, int32_t con, int32_t parent,
                                                            int32_t child, double target_x, double target_y,
                                                            double bend_dir, int stretch, int uniform,
                                                            double softness, double alpha, int need_p, int need_c)
{
    if (inst->inherit[parent] != OB_INHERIT_NORMAL || inst->inherit[child] != OB_INHERIT_NORMAL) return;
    const ob_document *doc = inst->doc;
    /* the two applied poses' values, read before anything is written (parent may be child) */
    const ob_pose *ppp = &inst->applied[parent], *cpp = &inst->applied[child];
    double px = ppp->x, py = ppp->y, psx = ppp->scale_x, psy = ppp->scale_y, sx = psx, sy = psy;
    const double c_sx = cpp->scale_x, c_sy = cpp->scale_y, c_hx = cpp->shear_x, c_hy = cpp->shear_y, c_y = cpp->y;
    double csx = c_sx;
    double os1, os2, s2;
    if (psx < 0) {
        psx = -psx;
        os1 = 180;
        s2 = -1;
    } else {
        os1 = 0;
        s2 = 1;
    }
    if (psy < 0) {
        psy = -psy;
        s2 = -s2;
    }
    if (csx < 0) {
        csx = -csx;
        os2 = 180;
    } else {
        os2 = 0;
    }
    const ob_mat pw = inst->world[parent];
    double cx = cpp->x, cy, cwx, cwy, a = pw.a, b = pw.b, c = pw.c, d = pw.d;
    int u = fabs(psx - psy) <= 0.0001;
    if (!u || stretch) {
        cy = 0;
        cwx = a * cx + pw.x;
        cwy = c * cx + pw.y;
    } else {
        cy = c_y;
        cwx = a * cx + b * cy + pw.x;
        cwy = c * cx + d * cy + pw.y;
    }
    int32_t ppi = doc->bones[parent].parent;
    const ob_mat PP = ppi >= 0 ? inst->world[ppi] : inst->root;  /* spine-core requires one */
    a = PP.a;
    b = PP.b;
    c = PP.c;
    d = PP.d;
    double id = a * d - b * c, x = cwx - PP.x, y = cwy - PP.y;
    id = fabs(id) <= 0.0001 ? 0 : 1 / id;
    double dx = (x * d - y * b) * id - px, dy = (y * a - x * c) * id - py;
    double l1 = sqrt(dx * dx + dy * dy), l2 = doc->bones[child].length * csx, a1, a2;
    if (l1 < 0.0001) {
        ik1_any(inst, parent, target_x, target_y, 0, stretch, 0, alpha, 1);
        ob_bone_world_with_spine(inst, child, (ob_pose){cx, cy, 0, c_sx, c_sy, c_hx, c_hy});
        return;
    }
    x = target_x - PP.x;
    y = target_y - PP.y;
    double tx = (x * d - y * b) * id - px, ty = (y * a - x * c) * id - py;
    double dd = tx * tx + ty * ty;
    if (softness != 0) {
        softness *= psx * (csx + 1) * 0.5;
        double td = sqrt(dd), sd = td - l1 - l2 * psx + softness;
        if (sd > 0) {
            double p = fmin(1, sd / (softness * 2)) - 1;
            p = (sd - softness * (1 - p * p)) / td;
            tx -= p * tx;
            ty -= p * ty;
            dd = tx * tx + ty * ty;
        }
    }
    /* the angles' cos/sin for the trig-free worlds below: a1 = atan2(ay1, ax1), a2 from its cos, sin */
    double ay1 = 0, ax1 = 1, ca2 = 1, sa2 = 0, sn_a2 = 0;
    int trig_free = 0, later = 0;  /* later: a2, a1 from the pair call below, taken when needed */
    if (u) {
        int have_a1 = 0;
        l2 *= psx;
        double cs = (dd - l1 * l1 - l2 * l2) / (2 * l1 * l2);
        if (cs < -1) {
            cs = -1;
            a2 = OB_PI * bend_dir;
            b = l2 * ob_sin(a2);
        } else if (cs > 1) {
            cs = 1;
            a2 = 0;
            if (stretch) {
                a = (sqrt(dd) / (l1 + l2) - 1) * alpha + 1;
                sx *= a;
                if (uniform) sy *= a;
            }
            b = l2 * ob_sin(a2);
        } else {
            /* issue 17: acos(cs) = atan2(sin, cs) with sin = √((1 − cs)(1 + cs)),
            ** which is also sin(acos cs) (obtrig_inv.h's form): no acos and no
            ** sin, and a1's atan2 (which needs only that sin) in the same call,
            ** made below when the applied poses are needed */
            double sn = sqrt((1 - cs) * (1 + cs));
            b = l2 * (sn * bend_dir);
            a = l1 + l2 * cs;
            ay1 = ty * a - tx * b;
            ax1 = tx * a + ty * b;
            a1 = a2 = 0;
            later = 1;
            sn_a2 = sn;
            ca2 = cs;
            sa2 = sn * bend_dir;
            have_a1 = 1;
            trig_free = alpha == 1;
        }
        if (!have_a1) {
            a = l1 + l2 * cs;
            a1 = ob_atan2(ty * a - tx * b, tx * a + ty * b);
        }
    } else {
        /* the ellipse branch: the child's tip on an ellipse of radii psx·l2, psy·l2 */
        a = psx * l2;
        b = psy * l2;
        double aa = a * a, bb = b * b, ta;  /* atan2(ty, tx), in the call below that needs one */
        c = bb * l1 * l1 + aa * dd - aa * bb;
        double c1 = -2 * bb * l1, c2 = bb - aa;
        d = c1 * c1 - 4 * c2 * c;
        int solved = 0;
        if (d >= 0) {
            double q = sqrt(d);
            if (c1 < 0) q = -q;
            q = -(c1 + q) * 0.5;
            double r0 = q / c2, r1 = c / q;
            double r = fabs(r0) < fabs(r1) ? r0 : r1;
            r0 = dd - r * r;
            if (r0 >= 0) {
                y = sqrt(r0) * bend_dir;
                /* issue 17 (ik6): ta with t1 and a2, the kernels inlined: one four-lane
                ** call where AVX2 runs (each lane's bits those of ob_atan2:
                ** tests/test_trig_lanes.py), else two pairs */
                double y2 = y / psy, x2 = (r - l1) / psx;
                if (IK_WIDE) {  /* one AVX register */
                    ob_v4d vy = {ty, y, y2, y2}, vx = {tx, r, x2, x2}, vr;
                    ob_atan2_v4p(&vy, &vx, &vr);
                    ta = vr[0];
                    a1 = ta - vr[1];
                    a2 = vr[2];
                } else {  /* SSE2: two pairs (its four-lane form costs more) */
                    ob_v2d vy = {ty, y}, vx = {tx, r}, vr, wy = {y2, y2}, wx = {x2, x2}, wr;
                    ob_atan2_v2p(&vy, &vx, &vr);
                    ob_atan2_v2p(&wy, &wx, &wr);
                    ta = vr[0];
                    a1 = ta - vr[1];
                    a2 = wr[0];
                }
                solved = 1;
            }
        }
        if (!solved) {  /* out of reach: the nearest or farthest point of the ellipse */
            double min_angle = OB_PI, min_x = l1 - a, min_dist = min_x * min_x, min_y = 0;
            double max_angle = 0, max_x = l1 + a, max_dist = max_x * max_x, max_y = 0;
            c = -a * l1 / (aa - bb);
            if (c >= -1 && c <= 1) {
                c = acos(c);
                x = a * ob_cos(c) + l1;
                y = b * ob_sin(c);
                d = x * x + y * y;
                if (d < min_dist) {
                    min_angle = c;
                    min_dist = d;
                    min_x = x;
                    min_y = y;
                }
                if (d > max_dist) {
                    max_angle = c;
                    max_dist = d;
                    max_x = x;
                    max_y = y;
                }
            }
            double ey, ex, t1;  /* the chosen point's angle and ta in one call (issue 17 (ik6)) */
            if (dd <= (min_dist + max_dist) * 0.5) {
                ey = min_y * bend_dir;
                ex = min_x;
                a2 = min_angle * bend_dir;
            } else {
                ey = max_y * bend_dir;
                ex = max_x;
                a2 = max_angle * bend_dir;
            }
            ob_atan2_2(ty, tx, ey, ex, &ta, &t1);
            a1 = ta - t1;
        }
    }
    double n1 = ay1 * ay1 + ax1 * ax1, nc = cy * cy + cx * cx;
    trig_free = trig_free && n1 > 1e-300 && n1 < 1e300 && nc > 1e-300 && nc < 1e300 &&
                ob_same_bits(c_hx, c_hy) && (s2 == 1 || c_hx == 0);
    if (!trig_free || need_p || need_c) {  /* the applied poses: the worlds' input, or read later */
        if (later) {
            ob_atan2_2(sn_a2, ca2, ay1, ax1, &a2, &a1);
            a2 *= bend_dir;
        }
        double os = ik_os(inst, con, cy, cx) * s2;
        double rotation = ppp->rotation, c_rot = cpp->rotation;
        a1 = wrap180((a1 - os) * OB_RAD + os1 - rotation);
        inst->applied[parent] = (ob_pose){px, py, rotation + a1 * alpha, sx, sy, 0, 0};
        rotation = c_rot;
        a2 = wrap180(((a2 + os) * OB_RAD - c_hx) * s2 + os2 - rotation);
        inst->applied[child] = (ob_pose){cx, cy, rotation + a2 * alpha, c_sx, c_sy, c_hx, c_hy};
    }
    if (trig_free) {
        /* issue 17: at alpha 1 the localMatrix angles are, up to whole turns and
        ** rounding, a1 − os (+ π) for the parent (no shear) and s2·(a2 + os)
        ** (+ π) for the child (equal shears, cancelled when s2 = 1 or 0): their
        ** cos/sin by the angle-sum identities from the unit vectors of a1's and
        ** os's atan2 and a2's cos/sin, without trig, to a few ulp; the worlds as
        ** ob_bone_world_spine makes them for normal bones.  The applied poses
        ** only when a later entry reads one (issue 17 (ik): internal, reset
        ** from the local pose next frame): no atan2 otherwise */
        double q1 = sqrt(n1), qc = sqrt(nc), c1 = ax1 / q1, s1 = ay1 / q1, co = cx / qc, so = s2 * (cy / qc);
        double cpa = c1 * co + s1 * so, spa = s1 * co - c1 * so;  /* a1 − os */
        if (os1 != 0) cpa = -cpa, spa = -spa;
        double cca = ca2 * co - sa2 * so, sca = sa2 * co + ca2 * so;  /* a2 + os */
        if (s2 < 0) sca = -sca;
        if (os2 != 0) cca = -cca, sca = -sca;
        inst->world[parent] = ob_mat_mul(PP, (ob_mat){cpa * sx, -spa * sy, spa * sx, cpa * sy, px, py});
        int32_t cq = inst->spine_parent[child];
        inst->world[child] = ob_mat_mul(cq >= 0 ? inst->world[cq] : inst->root,
                                        (ob_mat){cca * c_sx, -sca * c_sy, sca * c_sx, cca * c_sy, cx, cy});
        return;
    }
    ik_worlds_two(inst, parent, child);
}

/* issue 17 (ik6): ik2_spine's every case in one function (ik2_fast's others):
** constraint con's values and bones (ib: cons->ik_bones) read here */
OB_TRIG_CLONES static __attribute__((noinline)) void ik2_general(ob_instance *inst, int32_t con, const int32_t *ib)
{
    const ob_constraint_data *cd = &inst->doc->constraints[con];
    const double *v = &inst->con_values[(size_t)con * OB_CV_COUNT];
    double mix = v[OB_CV_MIX];
    if (mix == 0) return;
    const ob_mat *tw = &inst->world[cd->target];
    ik2_spine(inst, con, ib[0], ib[1], tw->x, tw->y, v[OB_CV_BEND] > 0 ? 1 : -1, v[OB_CV_STRETCH] != 0, cd->uniform,
              v[OB_CV_SOFTNESS], mix, ob_spine_applied_needed(inst, con, ib[2]),
              ob_spine_applied_needed(inst, con, ib[3]));
}

/* issue 17 (ik6): ik2_spine's common case in a function of its own (its values
** stay in registers): alpha 1, neither applied pose read later, both bones
** normal, a uniform parent scale, equal child shears (shear X 0 when s2 = −1),
** the law of cosines' in-range branch and its norms in range: the trig-free
** worlds, with the same operations in the same order as ik2_spine's.  Any
** other case (decided before anything is written; the pose tests first, the
** cheapest) goes to ik2_general, which starts over */
OB_TRIG_CLONES static __attribute__((noinline)) void ik2_fast(ob_instance *inst, int32_t con, const int32_t *ib)
{
    int32_t parent = ib[0], child = ib[1];
    /* ik2_spine's first test, at any mix (at mix 0 nothing either way) */
    if (inst->inherit[parent] != OB_INHERIT_NORMAL || inst->inherit[child] != OB_INHERIT_NORMAL) return;
    const ob_pose *ppp = &inst->applied[parent], *cpp = &inst->applied[child];
    const double c_hx = cpp->shear_x, c_hy = cpp->shear_y;
    double psx = ppp->scale_x, psy = ppp->scale_y, sx = psx, sy = psy;
    int flip1 = psx < 0, flipy = psy < 0;
    if (flip1) psx = -psx;
    if (flipy) psy = -psy;
    double s2 = flip1 == flipy ? 1 : -1;
    if (!ob_same_bits(c_hx, c_hy) || !(flip1 == flipy || c_hx == 0) || !(fabs(psx - psy) <= 0.0001)) goto general;
    const double *v = &inst->con_values[(size_t)con * OB_CV_COUNT];
    if (v[OB_CV_MIX] != 1 || ob_spine_applied_needed(inst, con, ib[2]) || ob_spine_applied_needed(inst, con, ib[3]))
        goto general;
    const ob_document *doc = inst->doc;
    const ob_mat *tw = &inst->world[doc->constraints[con].target];
    double target_x = tw->x, target_y = tw->y, softness = v[OB_CV_SOFTNESS];
    double bend_dir = v[OB_CV_BEND] > 0 ? 1 : -1;
    int stretch = v[OB_CV_STRETCH] != 0;
    const double c_sx = cpp->scale_x, c_sy = cpp->scale_y, px = ppp->x, py = ppp->y;
    double csx = c_sx;
    int flip2 = csx < 0;
    if (flip2) csx = -csx;
    const ob_mat *pw = &inst->world[parent];
    double cx = cpp->x, cy, cwx, cwy;
    if (stretch) {
        cy = 0;
        cwx = pw->a * cx + pw->x;
        cwy = pw->c * cx + pw->y;
    } else {
        cy = cpp->y;
        cwx = pw->a * cx + pw->b * cy + pw->x;
        cwy = pw->c * cx + pw->d * cy + pw->y;
    }
    int32_t ppi = doc->bones[parent].parent;
    const ob_mat *PP = ppi >= 0 ? &inst->world[ppi] : &inst->root;  /* read before any write */
    double a = PP->a, b = PP->b, c = PP->c, d = PP->d;
    double id = a * d - b * c, x = cwx - PP->x, y = cwy - PP->y;
    id = fabs(id) <= 0.0001 ? 0 : 1 / id;
    double dx = (x * d - y * b) * id - px, dy = (y * a - x * c) * id - py;
    double l1 = sqrt(dx * dx + dy * dy), l2 = doc->bones[child].length * csx;
    if (l1 < 0.0001) goto general;
    x = target_x - PP->x;
    y = target_y - PP->y;
    double tx = (x * d - y * b) * id - px, ty = (y * a - x * c) * id - py;
    double dd = tx * tx + ty * ty;
    if (softness != 0) {
        double soft = softness * (psx * (csx + 1) * 0.5);
        double td = sqrt(dd), sd = td - l1 - l2 * psx + soft;
        if (sd > 0) {
            double q = sd / (soft * 2);
            q = (q < 1 ? q : 1) - 1;  /* fmin(1, q) - 1, NaN included */
            q = (sd - soft * (1 - q * q)) / td;
            tx -= q * tx;
            ty -= q * ty;
            dd = tx * tx + ty * ty;
        }
    }
    l2 *= psx;
    double cs = (dd - l1 * l1 - l2 * l2) / (2 * l1 * l2);
    if (cs < -1 || cs > 1) goto general;
    double sn = sqrt((1 - cs) * (1 + cs)), sa2 = sn * bend_dir;
    double bb = l2 * sa2, aa = l1 + l2 * cs;
    double ay1 = ty * aa - tx * bb, ax1 = tx * aa + ty * bb;
    double n1 = ay1 * ay1 + ax1 * ax1, nc = cy * cy + cx * cx;
    if (!(n1 > 1e-300 && n1 < 1e300 && nc > 1e-300 && nc < 1e300)) goto general;
    /* ik2_spine's trig-free worlds */
    double q1 = sqrt(n1), qc = sqrt(nc), c1 = ax1 / q1, s1 = ay1 / q1, co = cx / qc, so = s2 * (cy / qc);
    double cpa = c1 * co + s1 * so, spa = s1 * co - c1 * so;  /* a1 − os */
    if (flip1) cpa = -cpa, spa = -spa;
    double cca = cs * co - sa2 * so, sca = sa2 * co + cs * so;  /* a2 + os */
    if (s2 < 0) sca = -sca;
    if (flip2) cca = -cca, sca = -sca;
    ob_mat *w = inst->world;
    const ob_mat np = ob_mat_mul(*PP, (ob_mat){cpa * sx, -spa * sy, spa * sx, cpa * sy, px, py});
    w[parent] = np;
    int32_t cq = inst->spine_parent[child];  /* mostly parent: its new world from registers */
    const ob_mat CP = cq == parent ? np : cq >= 0 ? w[cq] : inst->root;
    w[child] = ob_mat_mul(CP, (ob_mat){cca * c_sx, -sca * c_sy, sca * c_sx, cca * c_sy, cx, cy});
    return;
general:
    ik2_general(inst, con, ib);
}

/* spine-core 4.2 IkConstraint.update: nothing when mix is 0 (a negative mix
** applies); one bone or two (the first and last listed), else nothing (the
** bones found at creation: cons->ik_bones).  issue 17 (ik6): its caller,
** ob_constraint_apply_spine, skips mix 0 already; ik1_fast / ik2_fast read the
** constraint's values (and skip mix 0 in their general branch) */
void ob_apply_ik_spine(ob_instance *inst, int32_t c)
{
    if (inst->doc->constraints[c].target < 0) return;
    const int32_t *ib = inst->cons->ik_bones + 5 * (size_t)c;  /* first, last, their places, count */
    if (ib[4] == 1) ik1_fast(inst, c, ib);
    else if (ib[4] == 2) ik2_fast(inst, c, ib);
}
