/* constraints.h: internal declarations of the §7 constraints concern
** (constraints.c dispatch and shared helpers; ik.c, transform.c, path.c,
** physics.c, sliders.c). */
#ifndef OB_CONSTRAINTS_H
#define OB_CONSTRAINTS_H

#include "instance.h"

/* §7.4 one spring particle */
typedef struct ob_particle { double x, y, vx, vy, px, py; } ob_particle;

/* §7.4 physics state of one constraint (survives setToSetupPose) */
typedef struct ob_physics_state {
    int initialised;             /* 0: the next call starts at rest */
    ob_particle origin, tip;
    double last_ox, last_oy, last_tx, last_ty;
    double time, steps;
    double decay_arg, decay;     /* exp(decay_arg), kept while the damping and fps stay */
} ob_physics_state;

/* the Spine pose model's physics state of one constraint (spine-core 4.2
** PhysicsConstraint's fields; survives setToSetupPose) */
typedef struct ob_spine_physics {
    int reset;                   /* the next update starts over (spine-core's _reset) */
    double ux, uy, cx, cy, tx, ty;
    double x_offset, x_velocity, y_offset, y_velocity;
    double rotate_offset, rotate_velocity, scale_offset, scale_velocity;
    double remaining, last_time;
    double pow_damping, pow_step, pow_value; /* damping^(60·step), kept while both stay (a cache) */
} ob_spine_physics;

/* issue 17: a Spine-model physics constraint's per-document values, taken
** once at creation (physics.c reads them every update) */
typedef struct ob_physics_const {
    double step;                 /* 1/fps, +inf unless > 0 */
    double length;               /* its bone's setup length */
    double h;                    /* issue 17 (physics): length / referenceScale (the rotate loop's) */
    double rs;                   /* issue 17 (physics): protate + pshearX (times mix: the rotation's) */
    uint8_t x, y, rsx, scale_x;  /* px > 0, py > 0, protate or pshearX > 0, pscaleX > 0 */
} ob_physics_const;

/* §7.3 one sampled path point: position and tangent direction (tx, ty);
** its angle atan2(ty, tx) is taken only where a rotate mode uses it */
typedef struct ob_path_point { double x, y, tx, ty; } ob_path_point;

/* physics constraints run in lockstep, at most (constraints.c, physics.c) */
#define OB_PHYSICS_GROUP 4

/* The constraints concern's state, inst->cons.  Sized at creation. */
typedef struct ob_constraint_state {
    ob_physics_state *physics;   /* per constraint (used by physics ones) */
    ob_spine_physics *spine_physics; /* per constraint, the Spine pose model's */
    ob_mat *setup_world;         /* per bone: §7.2 setupWorld without root (OpenBone-model transforms only) */
    /* §7.3 scratch, sized for the largest path attachment / constraint */
    float *path_world;           /* 2 per vertex */
    double *path_vertices;       /* the same as doubles */
    double *path_table;          /* 32 per segment + 1 */
    double path_basis[4][34];    /* the cubic's Bernstein weights at t = j/32, j ≤ 32 (exact dyadics; [33] = 0) */
    double *path_lengths;        /* per bone */
    double *path_dist;           /* bones + 1 */
    ob_path_point *path_points;  /* bones + 1 */
    int32_t *path_bones;         /* per listed bone (existing ones) */
    int32_t *path_bone_k;        /* the Spine pose model: each one's index in the constraint's list */
    int32_t *path_list;          /* issue 17 (ik): per constraint from path_list_off[c], its existing
                                 ** listed bones (path_list_n[c] of them), then at path_list_k the same
                                 ** places their indices in its list (found at creation) */
    int32_t *path_list_k, *path_list_off, *path_list_n;
    double *path_trig;           /* its batched trig: 12 arrays of bones + 4 */
    uint8_t *path_kind;          /* per bone: how its rotation angle is made (path.c) */
    uint8_t *path_unique;        /* per constraint: no bone listed twice (path.c's passes) */
    double *transform_offset;    /* per constraint: sin, cos of offsetRotation·(π/180), then of its negation */
    int32_t *physics_with;       /* per constraint: −1 runs (alone, or its group's last), −2 run by a later member (physics.c) */
    int32_t *physics_prev;       /* per constraint: its group's member before it, −1 none */
    int32_t *physics_group;      /* issue 17 (physics): per constraint, 1 + OB_PHYSICS_GROUP: the count of
                                 ** members it runs (0: run by a later member), then those, the first first */
    ob_physics_const *physics_const; /* per constraint (physics ones filled) */
    double *ik_os;               /* per constraint: the Spine model's two-bone IK child angle, keyed (ik.c) */
    int32_t *ik_bones;           /* issue 17 (ik): per constraint, 5: its first and last existing listed
                                 ** bone, their places in its list and the count of existing ones */
    double *spine_positions;     /* the Spine pose model's path: 3 per bone + 5 */
    /* §7.5 scratch: saved local pose and inherit per bone, setup values */
    ob_pose *saved_pose;
    uint8_t *saved_inherit;
    uint8_t *keyed_inherit;      /* per bone: the slider animation keys inherit */
    /* issue 17 (cons): the Spine pose model's updateAppliedTransform after a
    ** world edit is done only where a later entry of the update cache can read
    ** that bone's applied pose (ob_constraints_spine_frame) */
    int32_t *applied_off;        /* per constraint: its first flag in applied_need */
    uint8_t *applied_need;       /* per listed bone of each constraint (physics: 1) */
    int32_t applied_count;       /* flags in applied_need */
    uint8_t *applied_read;       /* per bone: scratch of the analysis */
    uint32_t cache_gen_seen;     /* inst->spine_cache_gen the flags were computed for */
    int32_t cache_seen;          /* 0: none yet (every flag set) */
} ob_constraint_state;

/* §7 det(m) = sign(a·d − b·c) ‖ 1 */
static inline double ob_det_sign(ob_mat m)
{
    double d = m.a * m.d - m.b * m.c;
    return d > 0 ? 1 : d < 0 ? -1 : 1;
}

/* §7.2 rotateAxes(w, r): left-multiplies the linear part by rotation r
** (radians); no-op when r is exactly 0. */
static inline void ob_rotate_axes(ob_mat *w, double r)
{
    if (r == 0) return;
    double cs = cos(r), sn = sin(r);
    double a = w->a, b = w->b, c = w->c, d = w->d;
    w->a = cs * a - sn * c;
    w->c = sn * a + cs * c;
    w->b = cs * b - sn * d;
    w->d = sn * b + cs * d;
}

/* The parent world of a bone (§7: root for a root bone). */
static inline ob_mat ob_parent_world(const ob_instance *inst, int32_t bone)
{
    int32_t p = inst->doc->bones[bone].parent;
    return p >= 0 ? inst->world[p] : inst->root;
}

/* the Spine pose model (spine-core 4.2), each in its concern's file */

void ob_apply_ik_spine(ob_instance *inst, int32_t c);           /* ik.c */
void ob_apply_transform_spine(ob_instance *inst, int32_t c);    /* transform.c */
void ob_apply_path_spine(ob_instance *inst, int32_t c);         /* path.c */
/* issue 17 (ik): a Spine-model transform constraint with values v that does
** nothing for its mixes alone: every channel's value ±0 and the mix not
** infinite (0·inf would be NaN), so each product ob_apply_transform_spine
** makes is ±0; decided on the bits (the dispatch skips the call) */
static inline int ob_transform_spine_idle(const double *v)
{
    uint64_t z = ob_bits(v[OB_CV_MIX_ROTATE]) | ob_bits(v[OB_CV_MIX_TRANSLATE]) | ob_bits(v[OB_CV_MIX_Y]) |
                 ob_bits(v[OB_CV_MIX_SCALE]) | ob_bits(v[OB_CV_MIX_SCALE_Y]) | ob_bits(v[OB_CV_MIX_SHEAR]);
    return (z << 1) == 0 && !isinf(v[OB_CV_MIX]);
}
void ob_apply_physics_spine(ob_instance *inst, int32_t c);      /* physics.c */
/* physics.c: spine-core 4.2 PhysicsConstraint.reset of constraint c; the
** reset keys of animation anim crossed from track time prev to next */
void ob_physics_reset_spine(ob_instance *inst, int32_t c);
void ob_physics_resets_between(ob_instance *inst, int32_t anim, double prev, double next, int loop);

/* issue 17 (cons), at the start of every Spine-model updateWorldTransform:
** the applied-pose flags brought up to date with inst->spine_cache */
void ob_constraints_spine_frame(ob_instance *inst);
/* spine-core 4.2 Bone.updateAppliedTransform of bone b, listed k-th by
** constraint c, after c edited its world: skipped when nothing later in the
** update cache reads b's applied pose (applied poses are internal: the next
** frame resets them from the local pose, as the OpenBone model drops its
** pending syncs) */
static inline void ob_spine_applied_after(ob_instance *inst, int32_t c, int32_t k, int32_t b)
{
    const ob_constraint_state *s = inst->cons;
    if (s->applied_need[s->applied_off[c] + k]) ob_bone_applied_spine(inst, b);
}

/* issue 17 (ik): whether the applied pose constraint c writes for its k-th
** listed bone is read later in the update cache (ob_constraints_spine_frame;
** IK: a world it can make without that pose skips it) */
static inline int ob_spine_applied_needed(const ob_instance *inst, int32_t c, int32_t k)
{
    const ob_constraint_state *s = inst->cons;
    return s->applied_need[s->applied_off[c] + k];
}

void ob_apply_ik(ob_instance *inst, int32_t c);                 /* ik.c */
void ob_apply_transform(ob_instance *inst, int32_t c);          /* transform.c */
void ob_apply_path(ob_instance *inst, int32_t c);               /* path.c */
void ob_apply_physics(ob_instance *inst, int32_t c, double dt); /* physics.c */

/* path.c: the Bernstein weights of the §7.3 arc-length steps */
void ob_path_basis(double basis[4][34]);
/* path.c: scratch sizes needed by the document */
void ob_path_scratch_size(const ob_document *doc, int32_t *max_vertices, int32_t *max_bones);

/* physics.c: forget every physics state (next call starts at rest) */
void ob_physics_reset(ob_instance *inst);

/* sliders.c: §7.5 value of a state-machine input for a slider: the running
** machine's value when one exists (state-machine concern), else the first
** state-machine default for that input id, else 0. */
double ob_slider_input_value(const ob_instance *inst, const char *input_id);

#endif
