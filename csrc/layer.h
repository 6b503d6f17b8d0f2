/* layer.h: the instance layer's state (layer.c), shared with snapshot.c,
** which copies and serialises it with the rest of the instance. */
#ifndef OB_LAYER_H
#define OB_LAYER_H

#include "include/openbone.h"
#include "instance.h"

typedef struct ob_layer_reach {
    ob_reach_def def;
} ob_layer_reach;

typedef struct ob_layer_state {
    ob_bone_offset *offset;      /* per bone (identity when unset) */
    uint8_t *has_offset;         /* per bone */
    int32_t *offset_bones;       /* the bones with an offset (any order) */
    int32_t offset_count;
    double *limit_min, *limit_max;  /* per bone, degrees from the reference rotation */
    uint8_t *has_limit;          /* per bone: 0 none, 1 + ob_limit_from */
    int32_t *limit_bones;
    int32_t limit_count;
    ob_layer_reach *reaches;     /* at most one per upper bone: bone_count entries */
    int32_t reach_count;
} ob_layer_state;

/* inst->layer, created on first use (set-up time, never per frame); NULL when out of memory */
ob_layer_state *ob_layer_get(ob_instance *inst);

#endif
