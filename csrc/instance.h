/* instance.h: the state of one posed skeleton (skeleton.ts:Skeleton and the
** instance around it).  Every array is sized at creation from the document;
** nothing is allocated per frame.  Each concern keeps its state in its own
** struct here, updated by its own file. */
#ifndef OB_INSTANCE_H
#define OB_INSTANCE_H

#include "document.h"
#include "obmath.h"

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
    uint8_t *bone_active;
    int32_t **children;          /* per bone: children in creation order */
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

    /* clocks (§3, §12: dt summed exactly as given) */
    double clock;
    double physics_pending;      /* dt since the last updateWorldTransform */
    double particle_pending;
    int has_animation_time;      /* §5: sk.animationTime (null when 0) */
    double animation_time;
};

/* skeleton.c internals used by other concerns */
void ob_skeleton_update_active(ob_instance *inst);
/* §3.2 updateSubtree: recompute world from applied for bone (if include_self)
** and all its descendants, depth-first; returns at once on an inactive bone. */
void ob_bone_update_subtree(ob_instance *inst, int32_t bone, int include_self);
/* §4.2 boneWorld for one bone from its applied pose and live inherit mode. */
void ob_bone_update_world(ob_instance *inst, int32_t bone);
/* §3.2 syncApplied: local values matching the bone's current world. */
void ob_bone_sync_applied(ob_instance *inst, int32_t bone);
/* The active attachment (§8.1 getAttachment) for a slot and name id, -1. */
int32_t ob_skeleton_get_attachment(const ob_instance *inst, int32_t slot, int32_t name_id);
/* §7 unit scale */
double ob_unit_scale_x(const ob_instance *inst);
double ob_unit_scale_y(const ob_instance *inst);

#endif
