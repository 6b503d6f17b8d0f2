/* test_drawlist_alloc.c: §8.4 builds the draw list without allocating.
**
** Linked with -Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc (no LD_PRELOAD): every
** allocation made while ob_draw_build / ob_bounds_update run is counted.  After the
** first build (which sizes the particle buffers once) the count must stay 0, and the
** draw state's growth counter too.  Built (with every csrc .c file) and run by
** tests/test_drawlist_c.py:  ./test_drawlist_alloc [--layer] fixture.obone [more.obone ...]
** The first animation of each document plays, looping.  With --layer the
** instance layer (csrc/layer.c) is in use too: an offset and a joint limit on
** every bone and a reach on every three-bone chain, all rewritten every frame
** (inside the counted window), so its setters and its solve are covered. */
#include <stdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "animation_state.h"
#include "bounds.h"
#include "drawlist.h"
#include "instance.h"
#include "testutil.h"

void *__real_malloc(size_t n);
void *__real_calloc(size_t n, size_t m);
void *__real_realloc(void *p, size_t n);
static long counting, allocations;
void *__wrap_malloc(size_t n) { allocations += counting; return __real_malloc(n); }
void *__wrap_calloc(size_t n, size_t m) { allocations += counting; return __real_calloc(n, m); }
void *__wrap_realloc(void *p, size_t n) { allocations += counting; return __real_realloc(p, n); }

/* --layer: offsets, limits and reaches on every bone, varied by frame. */
static void layer_frame(ob_instance *inst, int frame)
{
    const ob_document *doc = inst->doc;
    for (int32_t b = 0; b < doc->bone_count; b++) {
        ob_bone_offset o = ob_default_bone_offset();
        o.rotation = 3 * sin(0.1 * frame + b);
        o.x = 0.5 * cos(0.2 * frame + b);
        o.scale_y = 1 + 0.01 * (b % 3);
        ob_instance_set_bone_offset(inst, b, &o);
        if (b % 2) ob_instance_set_joint_limit(inst, b, -20 - b % 7, 15 + b % 5, (ob_limit_from)(b % 4 == 1));
        else ob_instance_clear_joint_limit(inst, b);
        int32_t p = doc->bones[b].parent, g = p >= 0 ? doc->bones[p].parent : -1;
        if (g < 0) continue;
        ob_reach_def r = ob_default_reach_def();
        r.upper = g, r.lower = p, r.tip = b % 3 ? b : -1;
        r.space = b % 4 ? -1 : 0;  /* world, or the first bone's frame */
        r.x = 40 * cos(0.05 * frame + b), r.y = 40 * sin(0.05 * frame + b);
        r.offset_space = g, r.ox = 1, r.oy = -1;
        r.weight = 0.5 + 0.5 * sin(0.3 * frame + b);
        r.bend = (int)(b % 3) - 1;
        ob_instance_set_reach(inst, &r);  /* one per upper bone: later chains replace earlier ones */
    }
}

int main(int argc, char **argv)
{
    int failed = 0, layer = argc > 1 && strcmp(argv[1], "--layer") == 0;
    for (int a = 1 + layer; a < argc; a++) {
        size_t len;
        char *text = ob_test_slurp(argv[a], &len);
        ob_error err;
        ob_document *doc = text ? ob_document_load(text, len, &err) : NULL;
        if (!doc) { printf("FAIL %s: cannot load\n", argv[a]); failed = 1; free(text); continue; }
        ob_instance *inst = ob_instance_create(doc, &err);
        ob_bounds *b = ob_bounds_create(doc);
        if (!inst || !b) { printf("FAIL %s: cannot create\n", argv[a]); return 1; }
        if (doc->animation_count > 0) ob_anim_set_animation(inst, 0, 0, 1, 0);
        if (layer) layer_frame(inst, 0);  /* the layer's one allocation */
        ob_instance_advance(inst, 1.0 / 60);
        if (ob_draw_build(inst) < 0) { printf("FAIL %s: build\n", argv[a]); return 1; }  /* first build */
        long items = 0;
        allocations = 0;
        for (int frame = 0; frame < 120; frame++) {
            counting = 1;
            if (layer) layer_frame(inst, frame);
            ob_instance_advance(inst, 1.0 / 60);   /* the whole frame: pose, constraints, particles */
            items += ob_draw_build(inst);
            if (ob_world_vertices_build(inst) < 0) { printf("FAIL %s: world vertices\n", argv[a]); return 1; }
            ob_bounds_update(b, inst);
            counting = 0;
        }
        int ok = allocations == 0 && inst->draw->growths == 0;
        printf("%s %s: %ld items over 120 frames, %ld allocations, %llu growths\n", ok ? "ok  " : "FAIL", argv[a],
               items, allocations, (unsigned long long)inst->draw->growths);
        failed |= !ok;
        ob_bounds_free(b);
        ob_instance_free(inst);
        ob_document_free(doc);
        free(text);
    }
    return failed;
}
