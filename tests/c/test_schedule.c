/* test_schedule.c: the Spine pose model's run order (csrc/constraints.c spine_schedule, issue 17
** physics).  For each document given (DOC ANIM, pairs): one instance walks the cache in the
** scheduled order, a second the cache as built (its run order pointed at the cache, so nothing
** is rescheduled and the physics groups are made on the built order).  Checked over 200 frames
** of dt 1/30: the two give the same bits (world matrices, world vertices), and the run order is
** a permutation of the cache that keeps in order every two entries that touch a common bone
** (one writes a bone the other reads or writes: a bone entry reads its bone and its parent and
** writes its bone, a physics entry the same; any other constraint is a barrier that nothing
** crosses).  Prints per document the physics groups of each order:
**     DOC groups scheduled G1 built G2 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "constraints.h"
#include "document.h"
#include "include/openbone.h"
#include "instance.h"
#include "testutil.h"

static int fails;
#define CHECK(c, ...) do { if (!(c)) { fails++; printf("FAIL %s:%d: ", __FILE__, __LINE__); printf(__VA_ARGS__); printf("\n"); } } while (0)

/* an entry's bone, phys = 1 for a physics constraint; -1 a barrier */
static int32_t entry_bone(const ob_document *doc, int32_t e, int *phys)
{
    *phys = 0;
    if (e >= 0) return e;
    const ob_constraint_data *cd = &doc->constraints[-1 - e];
    if (cd->kind != OB_CON_PHYSICS) return -1;
    *phys = 1;
    return cd->bone;
}

/* whether entries e and f must keep their order */
static int ordered(const ob_document *doc, int32_t e, int32_t f)
{
    int pe, pf;
    int32_t a = entry_bone(doc, e, &pe), b = entry_bone(doc, f, &pf);
    if (a < 0 || b < 0) return 1;
    int32_t ap = doc->bones[a].parent, bp = doc->bones[b].parent;
    return a == b || a == bp || b == ap;  /* a write of one meets a read or write of the other */
}

static int groups(const ob_instance *inst)
{
    int n = 0;
    for (int32_t c = 0; c < inst->doc->constraint_count; c++)
        n += inst->doc->constraints[c].kind == OB_CON_PHYSICS &&
             inst->cons->physics_group[(size_t)c * (1 + OB_PHYSICS_GROUP)] > 0;
    return n;
}

int main(int argc, char **argv)
{
    for (int d = 1; d + 1 < argc; d += 2) {
        size_t len;
        char *buf = ob_test_slurp(argv[d], &len);
        CHECK(buf != NULL, "cannot read %s", argv[d]);
        if (!buf) continue;
        ob_error err;
        ob_document *doc = ob_document_load(buf, len, &err);
        free(buf);
        CHECK(doc != NULL, "%s: %s", argv[d], err.message);
        if (!doc) continue;
        ob_instance *a = ob_instance_create(doc, &err), *b = ob_instance_create(doc, &err);
        int anim = ob_document_find_animation(doc, argv[d + 1]);
        CHECK(a && b && anim >= 0, "%s: instance or animation %s", argv[d], argv[d + 1]);
        if (!a || !b || anim < 0) continue;
        b->spine_run = b->spine_cache;  /* the cache as built */
        b->spine_cache_gen++;
        ob_instance_set_animation(a, 0, anim, 1, 0);
        ob_instance_set_animation(b, 0, anim, 1, 0);
        int nb = ob_document_bone_count(doc), same = 1;
        for (int f = 0; f < 200 && same; f++) {
            ob_instance_advance(a, 1 / 30.);
            ob_instance_advance(b, 1 / 30.);
            same = memcmp(ob_instance_world(a), ob_instance_world(b), 6 * sizeof(double) * (size_t)nb) == 0;
            int na = ob_instance_world_vertices(a), nbv = ob_instance_world_vertices(b);
            same &= na == nbv;
            for (int k = 0; k < na && same; k++) {
                int sa, aa, va, sb, ab, vb;
                const float *pa, *pb;
                ob_instance_world_vertices_entry(a, k, &sa, &aa, &va, &pa);
                ob_instance_world_vertices_entry(b, k, &sb, &ab, &vb, &pb);
                same = sa == sb && aa == ab && va == vb && memcmp(pa, pb, 2 * sizeof(float) * (size_t)va) == 0;
            }
            CHECK(same, "%s: frame %d differs from the built order", argv[d], f + 1);
        }
        /* the order: a permutation that keeps every dependent pair */
        int32_t n = a->spine_cache_count, *pos = malloc(sizeof *pos * (size_t)(n ? n : 1)), *used = calloc((size_t)n + 1, sizeof *used);
        for (int32_t i = 0; i < n; i++) {
            pos[i] = -1;
            for (int32_t j = 0; j < n; j++)
                if (!used[j] && a->spine_run[j] == a->spine_cache[i]) { pos[i] = j; used[j] = 1; break; }
            CHECK(pos[i] >= 0, "%s: cache entry %d missing from the run order", argv[d], i);
        }
        int moved = 0;
        for (int32_t i = 0; i < n; i++) {
            moved += pos[i] != i;
            for (int32_t j = i + 1; j < n; j++)
                if (pos[i] >= 0 && pos[j] >= 0 && pos[i] > pos[j] && ordered(doc, a->spine_cache[i], a->spine_cache[j]))
                    CHECK(0, "%s: entries %d and %d (%d, %d) swapped", argv[d], i, j, a->spine_cache[i], a->spine_cache[j]);
        }
        free(pos);
        free(used);
        printf("%s groups scheduled %d built %d moved %d\n", argv[d], groups(a), groups(b), moved);
        ob_instance_free(a);
        ob_instance_free(b);
        ob_document_free(doc);
    }
    printf(fails ? "FAILED %d\n" : "ok\n", fails);
    return fails != 0;
}
