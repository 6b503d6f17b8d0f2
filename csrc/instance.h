/* instance.h: the state of one posed skeleton (skeleton.ts:Skeleton and the
** instance around it).  Every array is sized at creation from the document;
** nothing is allocated per frame.  Each concern keeps its state in its own
** struct here, updated by its own file. */
#ifndef OB_INSTANCE_H
#define OB_INSTANCE_H

#include "document.h"
#include "obmath.h"

typedef struct ob_deform {
    int32_t slot, name_id;
    int32_t capacity;            /* doubles available in values */
    int32_t count;               /* offsets currently set; 0 = none (§3.1 cleared) */
    int per_influence;           /* the values are 2 per influence (the influenceOffsets extension) */
    double *values;
    /* deform (issue 17): a full-weight sample not yet stored.  lazy_v0 != NULL:
    ** values[i] = lazy_v0[i] + lazy_dv[i]·lazy_t for i < count (lazy_dv NULL:
    ** lazy_v0[i]), the keys' arrays of the document; an unweighted mesh draws
    ** straight from them (attachment_vertices.c).  Every other reader stores
    ** them first: ob_deform_values. */
    const double *lazy_v0, *lazy_dv;
    double lazy_t;
} ob_deform;

/* deform (issue 17): stores d's pending sample in d->values (timeline.c) */
void ob_deform_settle(ob_deform *d);
/* d's values, stored first if pending (a cache: readers holding a const
** entry may call it; one thread per instance at a time, as every call) */
static inline const double *ob_deform_values(const ob_deform *d)
{
    if (d->lazy_v0) ob_deform_settle((ob_deform *)d);
    return d->values;
}

typedef struct ob_seqframe {
    int32_t slot, name_id;
    int set;                     /* a sequence key wrote it since setToSetupPose */
    double frame;
} ob_seqframe;

typedef struct ob_particle_values {
    int has_emitting, emitting;
    int has_rate;
    double rate;
} ob_particle_values;

struct ob_instance {
    const ob_document *doc;
    ob_mat root;                 /* §3.2 skeleton placement, identity by default */
    double scale_x, scale_y;     /* placement scale (unit scale, §7) */

    /* skins and active flags (§3.3) */
    int32_t skin;                /* -1 = none */
    int32_t active_for_skin;     /* the skin the flags were computed for, -2 = never */
    uint8_t *bone_required;      /* listed in some skin's bones */
    uint8_t *con_required;       /* listed in some skin's constraints */
    int32_t **skin_cons;         /* per skin: constraint indices listed (resolved ids) */
    int32_t *skin_con_count;

    /* bones */
    ob_pose *local;              /* local pose: setup, then animations, sliders */
    ob_pose *applied;            /* §3.2 applied pose (what constraints edit) */
    uint8_t *inherit;            /* live inherit mode (ob_inherit) */
    ob_mat *world;               /* world matrices; kept when inactive (§3.3) */
    ob_trig *trig;               /* per bone: localMatrix cos/sin cache (obmath.h) */
    uint8_t *stale;              /* per bone: world awaits an updateSubtree (ob_bone_fresh) */
    uint8_t *sync_pending;       /* per bone: a syncApplied not done yet (ob_bone_applied) */
    int32_t *sync_pending_children; /* per bone: how many of its children have one */
    int32_t *chain;              /* per bone: scratch for ob_bone_refresh */
    uint8_t *bone_active;
    int32_t **children;          /* per bone: children in creation order (the document's) */
    int32_t *child_count;

    /* slots (index = doc slot index) */
    double *slot_color;          /* 4 per slot */
    double *slot_dark;           /* 4 per slot */
    uint8_t *slot_has_dark;
    int32_t *slot_attachment;    /* attachment name id, -1 none */
    int32_t *draw_order;         /* slot indices back to front */

    /* constraints */
    double *con_values;          /* OB_CV_COUNT live values per constraint */
    uint8_t *con_active;
    int32_t *con_order;          /* §3.2 constraintOrder: indices into doc->constraints */

    /* the Spine pose model (skeleton.c): spine-core 4.2's update cache, built
    ** with the active flags: a bone b as b, a constraint c as −1 − c */
    int32_t *spine_cache;
    int32_t spine_cache_count, spine_cache_capacity;
    uint8_t *spine_sorted;       /* per bone: scratch of the cache's sort */
    /* bones (issue 17): per bone, its parent (doc->bones[i].parent), packed
    ** so the walk reads no document struct; after spine_cache in its allocation */
    int32_t *spine_parent;
    /* issue 17 (bones): the walk's plan of spine_cache (skeleton.c spine_walk),
    ** rebuilt when spine_cache_gen moves: after spine_parent in its allocation */
    int32_t *walk_plan;
    /* issue 17 (physics): spine_cache in the order the walk runs it (constraints.c
    ** spine_schedule), physics entries brought together; spine_cache itself where the
    ** document has fewer than two physics constraints; after walk_plan otherwise */
    int32_t *spine_run;
    uint32_t walk_gen;
    int walk_built;

    /* keyed per-attachment slot state (§5.1 deform offsets, sequence frame):
    ** one entry per (slot, attachment name) that some timeline keys, with a
    ** buffer sized for the longest key, so applying allocates nothing */
    int32_t deform_count;
    ob_deform *deforms;          /* sorted by slot, then name id */
    double *deform_pool;         /* the buffers of every entry (one allocation) */
    int32_t *slot_deform_start;  /* per slot: first entry index (slot_count + 1) */
    int32_t seqframe_count;
    ob_seqframe *seqframes;
    int32_t *slot_seqframe_start;
    /* §5.1 particle live values per slot (particleValues[slot]) */
    ob_particle_values *particle_values;

    /* §5 per timeline (ob_timeline.serial): the key span found last time, where
    ** the next search starts (a hint only: any value gives the same result) */
    int32_t *key_hint;
    /* issue 17: scratch of ob_animation_apply_filtered, one per bone value
    ** group of the animation being applied (≤ its timelines): the group's span
    ** fraction (timeline.c, keys) */
    double *tl_values;

    /* §3.1 the setup values laid out like the live arrays above, so that
    ** setToSetupPose is a few memcpy calls: the document's (shared by its
    ** instances, never written; issue 17) */
    const ob_pose *setup_local;
    const uint8_t *setup_inherit;
    const double *setup_color, *setup_dark;   /* 4 per slot */
    const uint8_t *setup_has_dark;
    const int32_t *setup_attachment, *setup_order;
    const double *setup_con_values;           /* OB_CV_COUNT per constraint */

    /* each concern's state (owned and freed by its file) */
    struct ob_anim_state *anim;        /* animation_state.c: tracks, audio (§6, §10) */
    struct ob_constraint_state *cons;  /* constraints.c: physics state, caches (§7) */
    struct ob_draw_state *draw;        /* drawlist.c: draw list buffers (§8) */
    struct ob_particle_state *particles; /* particles.c: emitters (§8.8) */
    struct ob_sm_state *sm;            /* state_machine.c (§9) */
    struct ob_layer_state *layer;      /* layer.c: offsets, limits, reaches; NULL until first used */

    /* clocks (§3, §12: dt summed exactly as given) */
    double clock;
    double physics_pending;      /* dt since the last updateWorldTransform */
    double particle_pending;
    int has_animation_time;      /* §5: sk.animationTime (null when 0) */
    double animation_time;

    /* snapshot.c: strings a restored snapshot brought (audio tags, reported
    ** events), allocated at restore time */
    ob_arena restored;

    /* issue 17 (cons): bumped wherever spine_cache is rebuilt or restored
    ** (spine_update_cache, snapshot.c), so the constraints' analysis of the
    ** cache (ob_constraints_spine_frame) is redone only then */
    uint32_t spine_cache_gen;
    /* issue 17 (bones): setToSetupPose restores the slot colours and the
    ** constraint values of the rows some timeline of the document can write
    ** (skeleton.c build_setup_lists), all of them while setup_full is set:
    ** at creation, after a snapshot restore or ob_instance_set_slot_color,
    ** and while a state machine runs (its bindings and scripts write any) */
    int32_t *setup_slot_list;    /* slots a colour or dark timeline keys */
    int32_t setup_slot_count;
    int32_t *setup_con_list;     /* constraints a constraint timeline keys: (first value
                                 ** index into con_values, count) pairs, the keyed values' span */
    int32_t setup_con_count;
    int setup_full;              /* the next setToSetupPose copies every row */
    int setup_keyed_bytes;       /* issue 17 (bones): 1 some inherit timeline, 2 some dark
                                 ** timeline (else inherit, slot_has_dark hold their setup values) */
    int32_t *setup_particle_list; /* slots a particles timeline keys (their particle values) */
    int32_t setup_particle_count;
    /* issue 17 (bones): the local pose rows the same way: per animation, a
    ** bitset of the bones its bone timelines write (pose_words words each);
    ** ob_animation_apply_filtered ORs it into pose_pending, and setToSetupPose
    ** restores the pending rows only (every row while setup_full is set or
    ** the document has sliders; pose_words 0: no tracking, every row) */
    uint64_t *pose_keys;
    uint64_t *pose_pending;
    int32_t pose_words;
    /* and the trig pass (Spine pose model): applied = local only on the rows
    ** that can differ from last frame's: pose_pending, pose_changed (rows
    ** setToSetupPose restored since the last pass), pose_constrained (bones
    ** constraints write the applied pose of); every row while pass_all */
    uint64_t *pose_changed;
    uint64_t *pose_constrained;
    int pass_all;
    /* issue 17 (bones): the trig pass's rows (pose_pending | pose_changed |
    ** pose_constrained) as a list of byte offsets of 56-byte rows, rebuilt when
    ** that set differs from pose_rows_mask (pose_words words, in pose_keys' allocation) */
    uint64_t *pose_rows_mask;
    uint32_t *pose_rows;
    int32_t pose_row_count;
    /* issue 17 (trig2): the trig pass's key compares are skipped while few
    ** listed rows keep their angles (trig_same: how many did at the last
    ** frame that compared; every 16th frame compares); either way the same bits */
    uint32_t trig_frames;
    int32_t trig_same;
};

/* An animation is applied: the local pose rows its timelines write are
** restored by the next setToSetupPose (timeline.c calls it). */
static inline void ob_instance_pose_mark(ob_instance *inst, int32_t anim)
{
    int32_t w = inst->pose_words;
    if (!w) return;
    const uint64_t *k = inst->pose_keys + (size_t)anim * (size_t)w;
    for (int32_t i = 0; i < w; i++) inst->pose_pending[i] |= k[i];
}

/* A writer other than the document's timelines changed slot colours or
** constraint values: the next setToSetupPose restores every row. */
static inline void ob_instance_setup_touched(ob_instance *inst)
{
    inst->setup_full = 1;
    inst->pass_all = 1;
}

/* The field of a local pose that a bone property names (timelines, sliders,
** bindings and script overrides all write through it); NULL for a property
** that is not one of the seven bone values. */
static inline double *ob_pose_field(ob_pose *p, int property)
{
    switch (property) {
    case OB_P_ROTATION: return &p->rotation;
    case OB_P_X: return &p->x;
    case OB_P_Y: return &p->y;
    case OB_P_SCALE_X: return &p->scale_x;
    case OB_P_SCALE_Y: return &p->scale_y;
    case OB_P_SHEAR_X: return &p->shear_x;
    case OB_P_SHEAR_Y: return &p->shear_y;
    default: return NULL;
    }
}

/* skeleton.c internals used by other concerns */
void ob_skeleton_update_active(ob_instance *inst);
/* §3.2 updateSubtree: recompute world from applied for bone (if include_self)
** and all its descendants, depth-first; returns at once on an inactive bone.
**
** Deferred: the bones are only marked stale, and a stale world is recomputed
** when it is next read, so a bone that several constraints move is
** recomputed once, not once per constraint.  The values are the ones the
** eager recursion gives, provided that (1) a constraint calls ob_bone_fresh
** on a bone before it reads its world (or edits its applied pose), which
** also freshens its ancestors, and (2) every world edit is followed by an
** updateSubtree over the bones that eager updating would recompute (the
** constraints here all do both).  updateWorldTransform's first pass only
** marks every active bone stale too, and it freshens every stale bone after
** the last constraint (ob_bones_flush). */
void ob_bone_update_subtree(ob_instance *inst, int32_t bone, int include_self);
void ob_bone_refresh(ob_instance *inst, int32_t bone);
static inline void ob_bone_fresh(ob_instance *inst, int32_t bone)
{
    if (inst->stale[bone]) ob_bone_refresh(inst, bone);
}
void ob_bones_flush(ob_instance *inst);
/* §4.2 boneWorld(P, local, inherit): a world matrix from a parent world. */
ob_mat ob_bone_world(ob_mat P, const ob_pose *local, int inherit);
/* §4.2 boneWorld for one bone from its applied pose and live inherit mode. */
void ob_bone_update_world(ob_instance *inst, int32_t bone);
/* The Spine pose model (spine-core 4.2 Bone): updateWorldTransformWith the
** applied pose, its inherit rules (ob_bone_world_spine); updateAppliedTransform
** (the applied pose from the world, at once); updateWorldTransformWith(pose)
** (the applied pose set to *p, then the world). */
void ob_bone_world_spine(ob_instance *inst, int32_t bone);
void ob_bone_applied_spine(ob_instance *inst, int32_t bone);
static inline void ob_bone_world_with_spine(ob_instance *inst, int32_t bone, ob_pose p)
{
    inst->applied[bone] = p;
    ob_bone_world_spine(inst, bone);
}
/* §3.2 syncApplied: local values matching the bone's current world.
**
** Deferred too: the call only records that the bone's applied pose is to be
** re-derived from its world and its parent's world as they are now, and the
** work is done when the applied pose is next needed (ob_bone_applied, or the
** bone's world being recomputed), or just before either world changes (a
** recompute: ob_bone_update_world; an edit: ob_bone_edit).  A sync nobody
** needs before the end of updateWorldTransform is dropped: the applied pose is
** internal (no API reads it) and the next frame resets it from the local pose.
** Equal to syncing at once provided that constraint code reads and writes
** applied poses only through ob_bone_applied and calls ob_bone_edit before it
** writes a world directly (the constraints here all do). */
void ob_bone_sync_applied(ob_instance *inst, int32_t bone);
void ob_bone_sync_now(ob_instance *inst, int32_t bone);
void ob_bone_sync_children(ob_instance *inst, int32_t bone);
static inline ob_pose *ob_bone_applied(ob_instance *inst, int32_t bone)
{
    if (inst->sync_pending[bone]) ob_bone_sync_now(inst, bone);
    return &inst->applied[bone];
}
/* Before a constraint writes bone's world directly: its own pending sync and
** its children's are done with the world as it is. */
static inline void ob_bone_edit(ob_instance *inst, int32_t bone)
{
    if (inst->sync_pending[bone]) ob_bone_sync_now(inst, bone);
    if (inst->sync_pending_children[bone]) ob_bone_sync_children(inst, bone);
}
/* The active attachment (§8.1 getAttachment) for a slot and name id, -1. */
int32_t ob_skeleton_get_attachment(const ob_instance *inst, int32_t slot, int32_t name_id);
/* The deform entry of (slot, attachment name id), NULL when no timeline
** keys it.  Its count is 0 while no offsets are set. */
ob_deform *ob_instance_deform(const ob_instance *inst, int32_t slot, int32_t name_id);
/* The keyed sequence frame entry of (slot, name id), NULL when never keyed. */
ob_seqframe *ob_instance_seqframe(const ob_instance *inst, int32_t slot, int32_t name_id);

/* §3 skeleton.update(dt): adds dt (if > 0) to the clock and the pending
** physics and particle time. */
void ob_skeleton_update(ob_instance *inst, double dt);

/* Hooks into the other concerns (each file implements its own). */
int ob_anim_state_create(ob_instance *inst);       /* animation_state.c */
void ob_anim_state_free(ob_instance *inst);
void ob_anim_state_update(ob_instance *inst, double dt); /* §6 update */
void ob_anim_state_apply(ob_instance *inst);       /* §6 apply */
int ob_constraints_create(ob_instance *inst);      /* constraints.c */
void ob_constraints_free(ob_instance *inst);
void ob_sliders_apply(ob_instance *inst);          /* §7.5, first in updateWorldTransform */
void ob_constraint_apply(ob_instance *inst, int32_t c, double dt); /* §7.1-7.4 */
void ob_constraint_apply_spine(ob_instance *inst, int32_t c);      /* the Spine pose model */
int ob_draw_state_create(ob_instance *inst);       /* drawlist.c */
void ob_draw_state_free(ob_instance *inst);
int ob_particles_create(ob_instance *inst);        /* particles.c */
void ob_particles_free(ob_instance *inst);
void ob_particles_advance(ob_instance *inst, double dt); /* §8.8 realtime clock */
/* layer.c: applied in updateWorldTransform between resetApplied and the
** constraints when inst->layer is set; freed with the instance */
void ob_layer_apply(ob_instance *inst);
void ob_layer_free(ob_instance *inst);
int ob_sm_create(ob_instance *inst);               /* state_machine.c */
void ob_sm_free(ob_instance *inst);
/* §9.1: with a state machine running, its advance replaces the §3 pipeline;
** returns 0 when no machine runs (the plain pipeline is used). */
int ob_sm_advance(ob_instance *inst, double dt);

/* §7 unit scale */
double ob_unit_scale_x(const ob_instance *inst);
double ob_unit_scale_y(const ob_instance *inst);

#endif
