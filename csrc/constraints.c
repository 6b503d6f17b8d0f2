/* constraints.c: the §7 constraints concern: its state (physics state, the
** §7.2 setup-world cache, path and slider scratch, all sized here once) and
** the per-constraint dispatch called by updateWorldTransform (§3.2). */
#include <stdlib.h>

#include "constraints.h"

/* §7.2 core/setup.ts:setupWorld: every bone's setup local pose through
** boneWorld with its data inherit, roots under identity (root applied at use). */
static void setup_world(const ob_document *doc, ob_mat *out)
{
    for (int32_t i = 0; i < doc->bone_count; i++) {
        const ob_bone_data *b = &doc->bones[i];
        ob_pose p = {b->x, b->y, b->rotation, b->scale_x, b->scale_y, b->shear_x, b->shear_y};
        out[i] = b->parent >= 0 ? ob_bone_world(out[b->parent], &p, (int)b->inherit)
                                : ob_bone_world(ob_mat_identity(), &p, OB_INHERIT_NORMAL);
    }
}

int ob_constraints_create(ob_instance *inst)
{
    const ob_document *doc = inst->doc;
    ob_constraint_state *s = calloc(1, sizeof *s);
    if (!s) return -1;
    inst->cons = s;
    int32_t nv = 0, nb = 0;
    ob_path_scratch_size(doc, &nv, &nb);
    size_t nbones = (size_t)doc->bone_count + 1, ncons = (size_t)doc->constraint_count + 1;
    s->physics = calloc(ncons, sizeof *s->physics);
    s->spine_physics = calloc(ncons, sizeof *s->spine_physics);
    s->setup_world = calloc(nbones, sizeof *s->setup_world);
    s->path_world = calloc(2 * (size_t)nv + 2, sizeof *s->path_world);
    s->path_vertices = calloc(2 * (size_t)nv + 2, sizeof *s->path_vertices);
    s->path_table = calloc(32 * ((size_t)nv / 3 + 1) + 1, sizeof *s->path_table);
    ob_path_basis(s->path_basis);
    s->path_lengths = calloc((size_t)nb + 1, sizeof *s->path_lengths);
    s->path_dist = calloc((size_t)nb + 2, sizeof *s->path_dist);
    s->path_points = calloc((size_t)nb + 2, sizeof *s->path_points);
    s->path_bones = calloc((size_t)nb + 1, sizeof *s->path_bones);
    s->spine_positions = calloc(3 * (size_t)nb + 5, sizeof *s->spine_positions);
    s->saved_pose = calloc(nbones, sizeof *s->saved_pose);
    s->saved_inherit = calloc(nbones, 1);
    s->keyed_inherit = calloc(nbones, 1);
    if (!s->physics || !s->spine_physics || !s->setup_world || !s->path_world || !s->path_vertices || !s->path_table ||
        !s->path_lengths || !s->path_dist || !s->path_points || !s->path_bones || !s->spine_positions || !s->saved_pose ||
        !s->saved_inherit || !s->keyed_inherit)
        return -1;  /* freed by ob_constraints_free via ob_instance_free */
    setup_world(doc, s->setup_world);  /* §7.2: computed once and cached */
    for (int32_t c = 0; c < doc->constraint_count; c++) {
        s->spine_physics[c].reset = 1;
        s->spine_physics[c].pow_step = NAN;  /* no damping^(60·step) cached yet */
    }
    return 0;
}

void ob_constraints_free(ob_instance *inst)
{
    ob_constraint_state *s = inst->cons;
    if (!s) return;
    free(s->physics); free(s->spine_physics); free(s->setup_world);
    free(s->path_world); free(s->path_vertices); free(s->path_table);
    free(s->path_lengths); free(s->path_dist); free(s->path_points); free(s->path_bones); free(s->spine_positions);
    free(s->saved_pose); free(s->saved_inherit); free(s->keyed_inherit);
    free(s);
    inst->cons = NULL;
}

/* §3.2: ik ⇒ applyIk | transform ⇒ applyTransform | path ⇒ applyPath | physics ⇒ applyPhysics(dt) */
void ob_constraint_apply(ob_instance *inst, int32_t c, double dt)
{
    switch (inst->doc->constraints[c].kind) {
    case OB_CON_IK: ob_apply_ik(inst, c); break;
    case OB_CON_TRANSFORM: ob_apply_transform(inst, c); break;
    case OB_CON_PATH: ob_apply_path(inst, c); break;
    case OB_CON_PHYSICS: ob_apply_physics(inst, c, dt); break;
    }
}

/* The Spine pose model: spine-core 4.2's IkConstraint, TransformConstraint,
** PathConstraint and PhysicsConstraint update(), called from the update
** cache (skeleton.c) */
void ob_constraint_apply_spine(ob_instance *inst, int32_t c)
{
    switch (inst->doc->constraints[c].kind) {
    case OB_CON_IK: ob_apply_ik_spine(inst, c); break;
    case OB_CON_TRANSFORM: ob_apply_transform_spine(inst, c); break;
    case OB_CON_PATH: ob_apply_path_spine(inst, c); break;
    case OB_CON_PHYSICS: ob_apply_physics_spine(inst, c); break;
    }
}
