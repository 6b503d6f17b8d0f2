/* layer.c: the instance layer, host-driven posing on top of the rig's own
** animation: per-bone additive offsets on the local pose, per-bone joint
** limits, and reach targets (a two-bone IK per limb blended with the FK pose
** by a weight).  Jabbertoon poses rigs through it (openbone/toon/rig.py,
** issue 15), but it is a plain instance feature: any host can use it.
**
** Where it runs: in updateWorldTransform (§3.2), right after resetApplied and
** before the first constraint, on the applied pose (so the local pose that
** animations, sliders and bindings wrote is left as it is, and the layer is
** applied afresh every frame: nothing accumulates).  The rig's constraints
** then run as usual on the result.  An instance that never used the layer
** has inst->layer == NULL and the pipeline skips it with one test.
**
** Order inside the layer: (1) offsets, (2) limits clamp every limited bone,
** (3) each reach with weight > 0 in the order the reaches were first set,
** (4) the limits of the reach's two bones clamp again.  See
** conformance/NOTES.md "Instance layer" for the rules where they are choices.
**
** Memory: one allocation of per-bone arrays the first time a layer setter is
** called (never per frame); ob_instance_free releases it. */
#include <stdlib.h>
#include <string.h>

#include "constraints.h"
#include "include/openbone.h"
#include "layer.h"


static const ob_bone_offset IDENTITY = {0, 0, 0, 1, 1, 0, 0};

ob_bone_offset ob_default_bone_offset(void) { return IDENTITY; }

ob_reach_def ob_default_reach_def(void)
{
    return (ob_reach_def){-1, -1, -1, -1, 0, 0, -1, 0, 0, 1, 0};
}

void ob_layer_free(ob_instance *inst)
{
    ob_layer_state *L = inst->layer;
    if (!L) return;
    free(L->offset); free(L->has_offset); free(L->offset_bones);
    free(L->limit_min); free(L->limit_max); free(L->has_limit); free(L->limit_bones);
    free(L->reaches);
    free(L);
    inst->layer = NULL;
}

/* The layer state, created on first use (set-up time, never per frame). */
ob_layer_state *ob_layer_get(ob_instance *inst)
{
    if (inst->layer) return inst->layer;
    size_t n = (size_t)inst->doc->bone_count + 1;
    ob_layer_state *L = calloc(1, sizeof *L);
    if (!L) return NULL;
    inst->layer = L;
    L->offset = malloc(n * sizeof *L->offset);
    L->has_offset = calloc(n, 1);
    L->offset_bones = calloc(n, sizeof *L->offset_bones);
    L->limit_min = calloc(n, sizeof *L->limit_min);
    L->limit_max = calloc(n, sizeof *L->limit_max);
    L->has_limit = calloc(n, 1);
    L->limit_bones = calloc(n, sizeof *L->limit_bones);
    L->reaches = calloc(n, sizeof *L->reaches);
    if (!L->offset || !L->has_offset || !L->offset_bones || !L->limit_min || !L->limit_max || !L->has_limit ||
        !L->limit_bones || !L->reaches) {
        ob_layer_free(inst);
        return NULL;
    }
    for (size_t i = 0; i < n; i++) L->offset[i] = IDENTITY;
    return L;
}

static int bone_ok(const ob_instance *inst, int b) { return b >= 0 && b < inst->doc->bone_count; }

/* Removes b from a list of bone indices (order does not matter). */
static void list_remove(int32_t *list, int32_t *count, int32_t b)
{
    for (int32_t k = 0; k < *count; k++)
        if (list[k] == b) {
            list[k] = list[--*count];
            return;
        }
}

static int is_identity(const ob_bone_offset *o)
{
    return o->rotation == 0 && o->x == 0 && o->y == 0 && o->scale_x == 1 && o->scale_y == 1 && o->shear_x == 0 &&
           o->shear_y == 0;
}

static int finite_offset(const ob_bone_offset *o)
{
    return isfinite(o->rotation) && isfinite(o->x) && isfinite(o->y) && isfinite(o->scale_x) &&
           isfinite(o->scale_y) && isfinite(o->shear_x) && isfinite(o->shear_y);
}

ob_status ob_instance_set_bone_offset(ob_instance *inst, int bone, const ob_bone_offset *offset)
{
    if (!bone_ok(inst, bone) || !offset || !finite_offset(offset)) return OB_ERR_ARGUMENT;
    if (is_identity(offset)) {  /* the identity removes the offset */
        ob_layer_state *L = inst->layer;
        if (L && L->has_offset[bone]) {
            L->has_offset[bone] = 0;
            L->offset[bone] = IDENTITY;
            list_remove(L->offset_bones, &L->offset_count, bone);
        }
        return OB_OK;
    }
    ob_layer_state *L = ob_layer_get(inst);
    if (!L) return OB_ERR_MEMORY;
    if (!L->has_offset[bone]) {
        L->has_offset[bone] = 1;
        L->offset_bones[L->offset_count++] = bone;
    }
    L->offset[bone] = *offset;
    return OB_OK;
}

ob_status ob_instance_get_bone_offset(const ob_instance *inst, int bone, ob_bone_offset *out)
{
    if (!bone_ok(inst, bone) || !out) return OB_ERR_ARGUMENT;
    *out = inst->layer ? inst->layer->offset[bone] : IDENTITY;
    return OB_OK;
}

ob_status ob_instance_set_joint_limit(ob_instance *inst, int bone, double min, double max, ob_limit_from from)
{
    if (!bone_ok(inst, bone) || !isfinite(min) || !isfinite(max) || min > max ||
        (from != OB_LIMIT_FROM_SETUP && from != OB_LIMIT_FROM_POSE))
        return OB_ERR_ARGUMENT;
    ob_layer_state *L = ob_layer_get(inst);
    if (!L) return OB_ERR_MEMORY;
    if (!L->has_limit[bone]) L->limit_bones[L->limit_count++] = bone;
    L->has_limit[bone] = (uint8_t)(1 + from);
    L->limit_min[bone] = min;
    L->limit_max[bone] = max;
    return OB_OK;
}

ob_status ob_instance_clear_joint_limit(ob_instance *inst, int bone)
{
    if (!bone_ok(inst, bone)) return OB_ERR_ARGUMENT;
    ob_layer_state *L = inst->layer;
    if (L && L->has_limit[bone]) {
        L->has_limit[bone] = 0;
        list_remove(L->limit_bones, &L->limit_count, bone);
    }
    return OB_OK;
}

int ob_instance_get_joint_limit(const ob_instance *inst, int bone, double *min, double *max, ob_limit_from *from)
{
    if (!bone_ok(inst, bone) || !inst->layer || !inst->layer->has_limit[bone]) return 0;
    if (min) *min = inst->layer->limit_min[bone];
    if (max) *max = inst->layer->limit_max[bone];
    if (from) *from = (ob_limit_from)(inst->layer->has_limit[bone] - 1);
    return 1;
}

/* Whether bone d is a proper descendant of bone a. */
static int descends(const ob_document *doc, int32_t d, int32_t a)
{
    for (int32_t b = doc->bones[d].parent; b >= 0; b = doc->bones[b].parent)
        if (b == a) return 1;
    return 0;
}

ob_status ob_instance_set_reach(ob_instance *inst, const ob_reach_def *def)
{
    const ob_document *doc = inst->doc;
    if (!def || !bone_ok(inst, def->upper) || !bone_ok(inst, def->lower) || !descends(doc, def->lower, def->upper))
        return OB_ERR_ARGUMENT;
    if (def->tip != -1 && (!bone_ok(inst, def->tip) || !descends(doc, def->tip, def->lower))) return OB_ERR_ARGUMENT;
    if ((def->space != -1 && !bone_ok(inst, def->space)) ||
        (def->offset_space != -1 && !bone_ok(inst, def->offset_space)))
        return OB_ERR_ARGUMENT;
    if (!isfinite(def->x) || !isfinite(def->y) || !isfinite(def->ox) || !isfinite(def->oy) || isnan(def->weight) ||
        def->bend < -1 || def->bend > 1)
        return OB_ERR_ARGUMENT;
    ob_layer_state *L = ob_layer_get(inst);
    if (!L) return OB_ERR_MEMORY;
    ob_reach_def d = *def;
    d.weight = d.weight < 0 ? 0 : d.weight > 1 ? 1 : d.weight;  /* held to 0..1 */
    for (int32_t k = 0; k < L->reach_count; k++)
        if (L->reaches[k].def.upper == def->upper) {  /* one reach per upper bone: replaced in place */
            L->reaches[k].def = d;
            return OB_OK;
        }
    L->reaches[L->reach_count++].def = d;  /* at most bone_count: one per upper bone */
    return OB_OK;
}

ob_status ob_instance_clear_reach(ob_instance *inst, int upper)
{
    if (!bone_ok(inst, upper)) return OB_ERR_ARGUMENT;
    ob_layer_state *L = inst->layer;
    if (!L) return OB_OK;
    for (int32_t k = 0; k < L->reach_count; k++)
        if (L->reaches[k].def.upper == upper) {  /* keep the others' order */
            memmove(&L->reaches[k], &L->reaches[k + 1], (size_t)(L->reach_count - k - 1) * sizeof *L->reaches);
            L->reach_count--;
            break;
        }
    return OB_OK;
}

int ob_instance_reach_count(const ob_instance *inst) { return inst->layer ? inst->layer->reach_count : 0; }

ob_status ob_instance_get_reach(const ob_instance *inst, int i, ob_reach_def *out)
{
    if (!inst->layer || i < 0 || i >= inst->layer->reach_count || !out) return OB_ERR_ARGUMENT;
    *out = inst->layer->reaches[i].def;
    return OB_OK;
}

void ob_instance_clear_layer(ob_instance *inst)
{
    ob_layer_state *L = inst->layer;
    if (!L) return;
    for (int32_t k = 0; k < L->offset_count; k++) {
        L->offset[L->offset_bones[k]] = IDENTITY;
        L->has_offset[L->offset_bones[k]] = 0;
    }
    for (int32_t k = 0; k < L->limit_count; k++) L->has_limit[L->limit_bones[k]] = 0;
    L->offset_count = L->limit_count = L->reach_count = 0;
}

/* §3.2 root = [scaleX 0; 0 scaleY | x, y], the skeleton placement (and the §7
** unit scale's placement factors) */
void ob_instance_set_placement(ob_instance *inst, double x, double y, double scale_x, double scale_y)
{
    inst->root = (ob_mat){scale_x, 0, 0, scale_y, x, y};
    inst->scale_x = scale_x;
    inst->scale_y = scale_y;
}

void ob_instance_get_placement(const ob_instance *inst, double *x, double *y, double *scale_x, double *scale_y)
{
    if (x) *x = inst->root.x;
    if (y) *y = inst->root.y;
    if (scale_x) *scale_x = inst->scale_x;
    if (scale_y) *scale_y = inst->scale_y;
}

/* ---- applying the layer (once per updateWorldTransform) ------------------ */

/* A limit's reference rotation: the setup rotation, or the pose's under the
** layer (the local pose: resetApplied copied it and the layer never writes it). */
static double limit_ref(const ob_instance *inst, int32_t b)
{
    return inst->layer->has_limit[b] == 1 + OB_LIMIT_FROM_POSE ? inst->local[b].rotation
                                                               : inst->setup_local[b].rotation;
}

/* The applied rotation's angle from the reference, compared by direction: taken
** to the turn nearest the middle of the range, so 370 and 10 are alike. */
static double limit_angle(ob_instance *inst, int32_t b, double ref)
{
    const ob_layer_state *L = inst->layer;
    double mid = (L->limit_min[b] + L->limit_max[b]) / 2;
    return mid + ob_wrap_deg(ob_bone_applied(inst, b)->rotation - ref - mid);
}

/* Holds a bone's applied rotation to its limit.  Returns whether it changed
** (a rotation inside the range keeps its bits). */
static int clamp_limit(ob_instance *inst, int32_t b)
{
    const ob_layer_state *L = inst->layer;
    double ref = limit_ref(inst, b), d = limit_angle(inst, b, ref);
    ob_pose *ap = ob_bone_applied(inst, b);
    if (d < L->limit_min[b]) ap->rotation = ref + L->limit_min[b];
    else if (d > L->limit_max[b]) ap->rotation = ref + L->limit_max[b];
    else return 0;
    return 1;
}

/* How a change of the bone's local rotation turns its world matrix: by the
** same angle (+1) or the opposite (−1, a reflecting parent).  §4.2: normal and
** noScale keep the parent's reflection; the other modes drop it. */
static double rotation_sign(const ob_instance *inst, int32_t b)
{
    int32_t p = inst->doc->bones[b].parent;
    if (p < 0) return ob_det_sign(inst->root);
    int inherit = inst->inherit[b];
    if (inherit == OB_INHERIT_NORMAL || inherit == OB_INHERIT_NO_SCALE) return ob_det_sign(inst->world[p]);
    return 1;
}

/* The world position of a bone-space point; bone −1 = world coordinates. */
static void to_world(ob_instance *inst, int32_t bone, double x, double y, double *wx, double *wy)
{
    if (bone < 0) { *wx = x; *wy = y; return; }
    ob_bone_fresh(inst, bone);
    const ob_mat *m = &inst->world[bone];
    *wx = m->a * x + m->b * y + m->x;
    *wy = m->c * x + m->d * y + m->y;
}

/* The limb's tip in world coordinates: the tip bone's origin, or the end of
** the lower bone (its length along its x axis). */
static void tip_world(ob_instance *inst, const ob_reach_def *r, double *tx, double *ty)
{
    if (r->tip >= 0) to_world(inst, r->tip, 0, 0, tx, ty);
    else to_world(inst, r->lower, inst->doc->bones[r->lower].length, 0, tx, ty);
}

static double angle_of(double x, double y) { return atan2(y, x) * OB_RAD; }

/* Turns bone b by a world angle (degrees) through its local rotation. */
static void turn(ob_instance *inst, int32_t b, double world_deg)
{
    ob_bone_fresh(inst, b);  /* its parent's world decides the sign */
    double s = rotation_sign(inst, b);
    ob_bone_applied(inst, b)->rotation += world_deg * s;
    ob_bone_update_subtree(inst, b, 1);
}

/* The full two-bone solve toward (gx, gy) with the elbow on side s (+1: the
** lower bone turns counter-clockwise from the upper one in world space).
** With a conformal chain (uniform scales) one pass puts the tip on the aim
** point up to rounding; other chains converge over a few passes (at most 8,
** stopping when the tip is within 1e-12 of the limb's length). */
static void solve_full(ob_instance *inst, const ob_reach_def *r, double gx, double gy, double s)
{
    for (int pass = 0; pass < 8; pass++) {
        double px, py, ex, ey, tx, ty;
        to_world(inst, r->upper, 0, 0, &px, &py);
        to_world(inst, r->lower, 0, 0, &ex, &ey);
        tip_world(inst, r, &tx, &ty);
        double l1 = hypot(ex - px, ey - py), l2 = hypot(tx - ex, ty - ey);
        if (!(l1 > 1e-9 && l2 > 1e-9)) return;  /* a limb without length cannot aim */
        double d = hypot(gx - px, gy - py);
        double lo = fabs(l1 - l2), hi = l1 + l2;
        double de = d < lo ? lo : d > hi ? hi : d;  /* out of reach: the nearest the limb gets */
        double ux, uy;
        if (d > 1e-12 * hi) { ux = (gx - px) / d; uy = (gy - py) / d; }
        else {  /* the target on the shoulder: aim the way the limb points now */
            double t = hypot(tx - px, ty - py);
            ux = t > 0 ? (tx - px) / t : 1;
            uy = t > 0 ? (ty - py) / t : 0;
        }
        double ax = px + ux * de, ay = py + uy * de;  /* the aim point */
        double den = 2 * l1 * de;
        double cos_a = den > 0 ? (l1 * l1 + de * de - l2 * l2) / den : 1;
        cos_a = cos_a < -1 ? -1 : cos_a > 1 ? 1 : cos_a;
        double elbow = atan2(uy, ux) - s * acos(cos_a);  /* s = +1: the elbow clockwise of the aim line */
        turn(inst, r->upper, ob_wrap_deg(elbow * OB_RAD - angle_of(ex - px, ey - py)));
        to_world(inst, r->lower, 0, 0, &ex, &ey);
        tip_world(inst, r, &tx, &ty);
        turn(inst, r->lower, ob_wrap_deg(angle_of(ax - ex, ay - ey) - angle_of(tx - ex, ty - ey)));
        tip_world(inst, r, &tx, &ty);
        if (hypot(tx - ax, ty - ay) <= 1e-12 * hi) return;
    }
}

/* The lower bone's rotation is inside its limit (or it has none). */
static int lower_within_limit(ob_instance *inst, int32_t b)
{
    const ob_layer_state *L = inst->layer;
    if (!L->has_limit[b]) return 1;
    double d = limit_angle(inst, b, limit_ref(inst, b));
    return d >= L->limit_min[b] && d <= L->limit_max[b];
}

static void set_rotations(ob_instance *inst, const ob_reach_def *r, double ru, double rl)
{
    ob_bone_fresh(inst, r->lower);  /* (and the upper bone) before their applied poses change */
    ob_bone_applied(inst, r->upper)->rotation = ru;
    ob_bone_applied(inst, r->lower)->rotation = rl;
    ob_bone_update_subtree(inst, r->upper, 1);
}

static int active(const ob_instance *inst, int32_t b) { return b < 0 || inst->bone_active[b]; }

/* One reach: the full solve, then each bone's local rotation moves from its
** FK value by weight × the (wrapped) change the solve made, as §7.1 mixes an
** IK: weight 1 is the solve, 0.5 half-way in angle. */
static void reach_apply(ob_instance *inst, const ob_reach_def *r)
{
    if (!(r->weight > 0) || !active(inst, r->upper) || !active(inst, r->lower) || !active(inst, r->tip) ||
        !active(inst, r->space) || !active(inst, r->offset_space))
        return;
    double gx, gy;
    to_world(inst, r->space, r->x, r->y, &gx, &gy);
    if (r->ox != 0 || r->oy != 0) {  /* the offset along offset_space's axes */
        if (r->offset_space >= 0) {
            ob_bone_fresh(inst, r->offset_space);
            const ob_mat *m = &inst->world[r->offset_space];
            gx += m->a * r->ox + m->b * r->oy;
            gy += m->c * r->ox + m->d * r->oy;
        } else {
            gx += r->ox;
            gy += r->oy;
        }
    }
    double ru = ob_bone_applied(inst, r->upper)->rotation, rl = ob_bone_applied(inst, r->lower)->rotation;
    /* the side the elbow bends to: as asked (in the upper bone's parent frame,
    ** so a mirrored placement keeps it), else as the FK pose bends */
    double px, py, ex, ey, tx, ty;
    to_world(inst, r->upper, 0, 0, &px, &py);
    to_world(inst, r->lower, 0, 0, &ex, &ey);
    tip_world(inst, r, &tx, &ty);
    double s;
    if (r->bend != 0) {
        int32_t p = inst->doc->bones[r->upper].parent;
        s = r->bend * ob_det_sign(p >= 0 ? inst->world[p] : inst->root);
    } else {
        /* a straight limb (the cross product rounding's size) bends positive */
        double cross = (ex - px) * (ty - ey) - (ey - py) * (tx - ex);
        double size = hypot(ex - px, ey - py) * hypot(tx - ex, ty - ey);
        s = cross < -1e-9 * size ? -1 : 1;
    }
    solve_full(inst, r, gx, gy, s);
    if (r->bend == 0 && !lower_within_limit(inst, r->lower)) {
        /* the FK side breaks the lower bone's limit: the other side, if that keeps it */
        double fu = ob_bone_applied(inst, r->upper)->rotation, fl = ob_bone_applied(inst, r->lower)->rotation;
        set_rotations(inst, r, ru, rl);
        solve_full(inst, r, gx, gy, -s);
        if (!lower_within_limit(inst, r->lower)) set_rotations(inst, r, fu, fl);
    }
    if (r->weight < 1) {
        double fu = ob_bone_applied(inst, r->upper)->rotation, fl = ob_bone_applied(inst, r->lower)->rotation;
        set_rotations(inst, r, ru + ob_wrap_deg(fu - ru) * r->weight, rl + ob_wrap_deg(fl - rl) * r->weight);
    }
    const ob_layer_state *L = inst->layer;
    int changed = 0;
    if (L->has_limit[r->upper]) changed |= clamp_limit(inst, r->upper);
    if (L->has_limit[r->lower]) changed |= clamp_limit(inst, r->lower);
    if (changed) ob_bone_update_subtree(inst, r->upper, 1);
}

void ob_layer_apply(ob_instance *inst)
{
    const ob_layer_state *L = inst->layer;
    /* (1), (2): every active bone is still stale from resetApplied here, so
    ** the applied poses are edited with no world to mark */
    for (int32_t k = 0; k < L->offset_count; k++) {
        int32_t b = L->offset_bones[k];
        if (!inst->bone_active[b]) continue;  /* §3.3: not posed */
        const ob_bone_offset *o = &L->offset[b];
        ob_pose *ap = ob_bone_applied(inst, b);
        ap->rotation += o->rotation;
        ap->x += o->x;
        ap->y += o->y;
        ap->scale_x *= o->scale_x;
        ap->scale_y *= o->scale_y;
        ap->shear_x += o->shear_x;
        ap->shear_y += o->shear_y;
    }
    for (int32_t k = 0; k < L->limit_count; k++)
        if (inst->bone_active[L->limit_bones[k]]) clamp_limit(inst, L->limit_bones[k]);
    /* (3), (4) */
    for (int32_t k = 0; k < L->reach_count; k++) reach_apply(inst, &L->reaches[k].def);
}
