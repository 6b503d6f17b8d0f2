/* skeleton.c: the skeleton instance: construction (§2), setToSetupPose
** (§3.1), updateWorldTransform and the constraint order (§3.2), skins and
** active flags (§3.3), attachment lookup (§8.1).
**
** Under the Spine pose model ("poseModel": "spine") the world transform
** follows spine-core 4.2 instead (the behaviour reference: spine-runtimes
** 4.2, spine-ts/spine-core/src/Skeleton.ts updateCache / sort* /
** updateWorldTransform and Bone.ts updateWorldTransformWith /
** updateAppliedTransform; our own code): bones and constraints run in the
** order of an update cache built with the active flags, each bone's world is
** computed when the cache reaches it, with Spine's inherit formulas. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "constraints.h"
#include "curve_spine.h"
#include "instance.h"
#include "load.h"  /* ob_htab, the loaders' hash table */
#include "particles.h"  /* ob_particle_state.any (setToSetupPose) */

static int32_t spine_cache_bound(const ob_instance *inst);
static void spine_update_cache(ob_instance *inst);

/* ---- construction (§2 Skeleton construction) ------------------------ */

struct con_id_eq { const ob_document *doc; const char *key; };

static int con_id_eq(const void *ctx, int32_t j)
{
    const struct con_id_eq *q = ctx;
    return strcmp(q->doc->constraints[j].id, q->key) == 0;
}

/* Stable sort of the default constraint list by (order ?? index, index), §3.2:
** qsort on that total key, O(n log n) whatever the count (issue 21). */
struct order_key { double key; int32_t index; };

static int cmp_order(const void *a, const void *b)
{
    const struct order_key *x = a, *y = b;
    if (x->key != y->key) return x->key < y->key ? -1 : 1;
    return (x->index > y->index) - (x->index < y->index);
}

static int constraint_order(const ob_document *doc, int32_t *order)
{
    int any = 0;
    for (int32_t i = 0; i < doc->constraint_count; i++) {
        order[i] = i;
        any |= doc->constraints[i].has_order;
    }
    if (!any) return 0;
    struct order_key *k = malloc((size_t)doc->constraint_count * sizeof *k);
    if (!k) return -1;
    for (int32_t i = 0; i < doc->constraint_count; i++)
        k[i] = (struct order_key){doc->constraints[i].has_order ? doc->constraints[i].order : (double)i, i};
    qsort(k, (size_t)doc->constraint_count, sizeof *k, cmp_order);
    for (int32_t i = 0; i < doc->constraint_count; i++) order[i] = k[i].index;
    free(k);
    return 0;
}

/* Sorts (slot, name id) pairs and merges duplicates keeping the largest
** capacity; returns the new count. */
static int cmp_pair(const void *a, const void *b)
{
    const int32_t *x = a, *y = b;
    if (x[0] != y[0]) return x[0] < y[0] ? -1 : 1;
    if (x[1] != y[1]) return x[1] < y[1] ? -1 : 1;
    return 0;
}

/* §5.1 deform offsets and sequence frames are stored per (slot, attachment
** name); every pair some timeline keys gets its entry and buffer here. */
static int build_keyed_tables(ob_instance *inst)
{
    const ob_document *doc = inst->doc;
    int32_t nd = 0, nq = 0;
    for (int32_t a = 0; a < doc->animation_count; a++)
        for (int32_t t = 0; t < doc->animations[a].timeline_count; t++) {
            const ob_timeline *tl = &doc->animations[a].timelines[t];
            if (tl->index < 0 || tl->attachment < 0) continue;
            if (tl->target == OB_TL_DEFORM) nd++;
            else if (tl->target == OB_TL_SEQUENCE) nq++;
        }
    int32_t *dp = calloc((size_t)nd * 3 + 1, sizeof *dp), *qp = calloc((size_t)nq * 3 + 1, sizeof *qp);
    inst->slot_deform_start = calloc((size_t)doc->slot_count + 1, sizeof(int32_t));
    inst->slot_seqframe_start = calloc((size_t)doc->slot_count + 1, sizeof(int32_t));
    if (!dp || !qp || !inst->slot_deform_start || !inst->slot_seqframe_start) { free(dp); free(qp); return -1; }
    nd = nq = 0;
    for (int32_t a = 0; a < doc->animation_count; a++)
        for (int32_t t = 0; t < doc->animations[a].timeline_count; t++) {
            const ob_timeline *tl = &doc->animations[a].timelines[t];
            if (tl->index < 0 || tl->attachment < 0) continue;
            if (tl->target == OB_TL_DEFORM) {
                int32_t cap = 0;
                for (int32_t k = 0; k < tl->key_count; k++)
                    if (tl->keys[k].count > cap) cap = tl->keys[k].count;
                dp[3 * nd] = tl->index; dp[3 * nd + 1] = tl->attachment; dp[3 * nd + 2] = cap; nd++;
            } else if (tl->target == OB_TL_SEQUENCE) {
                qp[3 * nq] = tl->index; qp[3 * nq + 1] = tl->attachment; nq++;
            }
        }
    qsort(dp, (size_t)nd, 3 * sizeof *dp, cmp_pair);
    qsort(qp, (size_t)nq, 3 * sizeof *qp, cmp_pair);
    int32_t ud = 0, uq = 0;
    for (int32_t i = 0; i < nd; i++) {
        if (ud && dp[3 * (ud - 1)] == dp[3 * i] && dp[3 * (ud - 1) + 1] == dp[3 * i + 1]) {
            if (dp[3 * i + 2] > dp[3 * (ud - 1) + 2]) dp[3 * (ud - 1) + 2] = dp[3 * i + 2];
        } else {
            memmove(&dp[3 * ud], &dp[3 * i], 3 * sizeof *dp);
            ud++;
        }
    }
    for (int32_t i = 0; i < nq; i++)
        if (!uq || qp[3 * (uq - 1)] != qp[3 * i] || qp[3 * (uq - 1) + 1] != qp[3 * i + 1]) {
            memmove(&qp[3 * uq], &qp[3 * i], 3 * sizeof *qp);
            uq++;
        }
    size_t total = 0;
    for (int32_t i = 0; i < ud; i++) total += (size_t)dp[3 * i + 2];
    inst->deforms = calloc((size_t)ud + 1, sizeof *inst->deforms);
    inst->seqframes = calloc((size_t)uq + 1, sizeof *inst->seqframes);
    double *pool = calloc(total + 1, sizeof *pool);
    inst->deform_pool = pool;
    if (!inst->deforms || !inst->seqframes || !pool) { free(dp); free(qp); return -1; }
    for (int32_t i = 0; i < ud; i++) {
        inst->deforms[i] = (ob_deform){dp[3 * i], dp[3 * i + 1], dp[3 * i + 2], 0, 0, pool, NULL, NULL, 0};
        pool += dp[3 * i + 2];
        inst->slot_deform_start[dp[3 * i] + 1]++;
    }
    for (int32_t i = 0; i < uq; i++) {
        inst->seqframes[i] = (ob_seqframe){qp[3 * i], qp[3 * i + 1], 0, 0};
        inst->slot_seqframe_start[qp[3 * i] + 1]++;
    }
    for (int32_t s = 0; s < doc->slot_count; s++) {
        inst->slot_deform_start[s + 1] += inst->slot_deform_start[s];
        inst->slot_seqframe_start[s + 1] += inst->slot_seqframe_start[s];
    }
    inst->deform_count = ud;
    inst->seqframe_count = uq;
    free(dp);
    free(qp);
    return 0;
}

ob_deform *ob_instance_deform(const ob_instance *inst, int32_t slot, int32_t name_id)
{
    for (int32_t i = inst->slot_deform_start[slot]; i < inst->slot_deform_start[slot + 1]; i++)
        if (inst->deforms[i].name_id == name_id) return &inst->deforms[i];
    return NULL;
}

ob_seqframe *ob_instance_seqframe(const ob_instance *inst, int32_t slot, int32_t name_id)
{
    for (int32_t i = inst->slot_seqframe_start[slot]; i < inst->slot_seqframe_start[slot + 1]; i++)
        if (inst->seqframes[i].name_id == name_id) return &inst->seqframes[i];
    return NULL;
}

/* issue 17 (bones): the rows of the slot colours and constraint values that
** a timeline of the document can write (ob_instance_set_to_setup_pose restores
** only those unless setup_full is set); one allocation, lists in index order */
static int build_setup_lists(ob_instance *inst)
{
    const ob_document *doc = inst->doc;
    int32_t ns = doc->slot_count, nc = doc->constraint_count;
    uint8_t *mark = calloc(2 * (size_t)ns + 1, 1);  /* colour rows, then particle values */
    uint32_t *fields = calloc((size_t)nc + 1, sizeof *fields);  /* per constraint: the OB_CV_* keyed */
    inst->setup_slot_list = calloc(2 * (size_t)ns + 2 * (size_t)nc + 1, sizeof(int32_t));
    if (!mark || !fields || !inst->setup_slot_list) { free(mark); free(fields); return -1; }
    _Static_assert(OB_CV_COUNT <= 32, "a constraint's values in one mask");
    for (int32_t a = 0; a < doc->animation_count; a++)
        for (int32_t t = 0; t < doc->animations[a].timeline_count; t++) {
            const ob_timeline *tl = &doc->animations[a].timelines[t];
            if (tl->index < 0) continue;
            int pr = (int)tl->property;  /* the value timeline.c apply_constraint writes, -1 none */
            int f = pr >= OB_P_MIX && pr <= OB_P_WIND ? OB_CV_MIX + (pr - OB_P_MIX) : pr == OB_P_MIX_SCALE_Y ? OB_CV_MIX_SCALE_Y : -1;
            switch (tl->target) {
            case OB_TL_SLOT:  /* colour and dark (apply_slot); attachment keys are not these rows */
                if (tl->property != OB_P_ATTACHMENT && tl->index < ns) mark[tl->index] = 1;
                if (tl->property == OB_P_DARK) inst->setup_keyed_bytes |= 2;  /* slot_has_dark (timeline.c) */
                break;
            case OB_TL_BONE:
                if (tl->property == OB_P_INHERIT) inst->setup_keyed_bytes |= 1;
                break;
            case OB_TL_PARTICLES:  /* the slot's particle values (apply_particles) */
                if (tl->index < ns) mark[ns + tl->index] = 1;
                break;
            case OB_TL_IK: case OB_TL_TRANSFORM: case OB_TL_PATH: case OB_TL_PHYSICS:
                /* the value it writes; a global physics timeline's, from its index on */
                for (int32_t c = tl->index; f >= 0 && c < nc && (c == tl->index || tl->global); c++)
                    fields[c] |= 1u << f;
                break;
            default:
                break;
            }
        }
    inst->setup_particle_list = inst->setup_slot_list + ns;
    inst->setup_con_list = inst->setup_particle_list + ns;
    for (int32_t i = 0; i < ns; i++) {
        if (mark[i]) inst->setup_slot_list[inst->setup_slot_count++] = i;
        if (mark[ns + i]) inst->setup_particle_list[inst->setup_particle_count++] = i;
    }
    for (int32_t c = 0; c < nc; c++) {  /* (first value, count): the keyed values' span */
        if (!fields[c]) continue;
        int lo = __builtin_ctz(fields[c]), hi = 32 - __builtin_clz(fields[c]);
        int32_t *sp = &inst->setup_con_list[2 * inst->setup_con_count];
        /* issue 17 (bones): spans less than 16 values apart in one: the values
        ** between are no timeline's and every other writer sets setup_full, so
        ** they hold their setup values here and restoring them changes nothing */
        if (inst->setup_con_count && c * OB_CV_COUNT + lo - (sp[-2] + sp[-1]) <= 16) {
            sp[-1] = c * OB_CV_COUNT + hi - sp[-2];
            continue;
        }
        sp[0] = c * OB_CV_COUNT + lo;
        sp[1] = hi - lo;
        inst->setup_con_count++;
    }
    free(mark);
    free(fields);
    inst->setup_full = 1;  /* the arrays start zeroed */
    /* the bones each animation's bone timelines write (any property:
    ** conservative), when the bitsets stay small (≤ 512 KB) */
    int32_t nb = doc->bone_count, w = (nb + 63) / 64;
    if (nb == 0 || doc->slider_count > 0 || (int64_t)w * (doc->animation_count + 1) > 65536) return 0;
    inst->pose_keys = calloc((size_t)w * ((size_t)doc->animation_count + 4) + ((size_t)nb + 1) / 2, sizeof(uint64_t));
    if (!inst->pose_keys) return -1;
    inst->pose_pending = inst->pose_keys + (size_t)w * (size_t)doc->animation_count;
    inst->pose_changed = inst->pose_pending + w;
    inst->pose_constrained = inst->pose_changed + w;
    inst->pose_rows_mask = inst->pose_constrained + w;  /* zero: the empty list */
    inst->pose_rows = (uint32_t *)(inst->pose_rows_mask + w);
    for (int32_t c = 0; c < doc->constraint_count; c++) {  /* the bones whose applied pose constraints write */
        const ob_constraint_data *cd = &doc->constraints[c];
        if (cd->kind == OB_CON_PHYSICS && cd->bone >= 0 && cd->bone < nb)
            inst->pose_constrained[cd->bone >> 6] |= 1ull << (cd->bone & 63);
        for (int32_t k = 0; k < cd->bone_count; k++)
            if (cd->bones[k] >= 0 && cd->bones[k] < nb)
                inst->pose_constrained[cd->bones[k] >> 6] |= 1ull << (cd->bones[k] & 63);
    }
    inst->pass_all = 1;
    for (int32_t a = 0; a < doc->animation_count; a++) {
        uint64_t *k = inst->pose_keys + (size_t)w * (size_t)a;
        const ob_animation_data *an = &doc->animations[a];
        for (int32_t t = 0; t < an->timeline_count; t++) {
            const ob_timeline *tl = &an->timelines[t];
            if (tl->target == OB_TL_BONE && tl->index >= 0 && tl->index < nb)
                k[tl->index >> 6] |= 1ull << (tl->index & 63);
        }
        for (int32_t j = 0; j < an->bchan_count; j++) {
            int32_t b = an->bchans[j].bone;
            if (b >= 0 && b < nb) k[b >> 6] |= 1ull << (b & 63);
        }
    }
    inst->pose_words = w;
    return 0;
}

ob_instance *ob_instance_create(const ob_document *doc, ob_error *err)
{
    ob_instance *inst = calloc(1, sizeof *inst);
    if (!inst) goto oom;
    int32_t nb = doc->bone_count, ns = doc->slot_count, nc = doc->constraint_count;
    inst->doc = doc;
    inst->root = ob_mat_identity();
    inst->scale_x = inst->scale_y = 1;
    inst->skin = -1;
    inst->active_for_skin = -2;
#define ALLOC(field, n) do { size_t n_ = (size_t)(n); inst->field = calloc(n_ > 0 ? n_ : 1, sizeof *inst->field); if (!inst->field) goto oom; } while (0)
    ALLOC(bone_required, nb);
    ALLOC(con_required, nc);
    ALLOC(skin_cons, doc->skin_count);
    ALLOC(skin_con_count, doc->skin_count);
    ALLOC(local, nb);
    ALLOC(applied, nb);
    ALLOC(inherit, nb);
    ALLOC(world, nb);
    ALLOC(trig, nb);
    ALLOC(stale, nb);
    ALLOC(sync_pending, nb);
    ALLOC(sync_pending_children, nb);
    ALLOC(chain, nb);
    ALLOC(bone_active, nb);
    ALLOC(slot_color, 4 * (size_t)ns);
    ALLOC(slot_dark, 4 * (size_t)ns);
    ALLOC(slot_has_dark, ns);
    ALLOC(slot_attachment, ns);
    ALLOC(draw_order, ns);
    ALLOC(con_values, (size_t)OB_CV_COUNT * (size_t)nc);
    ALLOC(con_active, nc);
    ALLOC(con_order, nc);
    ALLOC(spine_sorted, nb);
    ALLOC(particle_values, ns);
    ALLOC(key_hint, doc->timeline_total);
    int32_t max_tl = 0;  /* the longest animation's timelines: tl_values (timeline.c) */
    for (int32_t a = 0; a < doc->animation_count; a++)
        if (doc->animations[a].timeline_count > max_tl) max_tl = doc->animations[a].timeline_count;
    ALLOC(tl_values, max_tl);
    /* constants: the document's (document.c build_instance_constants, issue 17) */
    inst->setup_local = doc->setup_local;
    inst->setup_inherit = doc->setup_inherit;
    inst->setup_color = doc->setup_color;
    inst->setup_dark = doc->setup_dark;
    inst->setup_has_dark = doc->setup_has_dark;
    inst->setup_attachment = doc->setup_attachment;
    inst->setup_order = doc->setup_order;
    inst->setup_con_values = doc->setup_con_values;
    inst->children = doc->bone_children;
    inst->child_count = doc->bone_child_count;

    /* §3.3 identity for bones never posed */
    for (int32_t i = 0; i < nb; i++) inst->world[i] = ob_mat_identity();
    for (int32_t i = 0; i < nb; i++)  /* never matches */
        inst->trig[i] = (ob_trig){OB_TRIG_NEVER, OB_TRIG_NEVER, OB_TRIG_NEVER, 0, 0, 0, 0};
    /* §3.3 skin-only bones and constraints (ids resolved once, hashed: issue 21) */
    ob_htab con_ids = {0};
    uint64_t seed = (uint64_t)(uintptr_t)inst * 0x9e3779b97f4a7c15ULL;
    struct con_id_eq q = {doc, NULL};
    for (int32_t j = 0; j < nc && doc->skin_count; j++) {  /* first occurrences only: first wins */
        if (!(q.key = doc->constraints[j].id)) continue;
        uint64_t h = ob_str_hash_seeded(seed, q.key);
        if (ob_htab_find(&con_ids, h, con_id_eq, &q) < 0 && ob_htab_add(&con_ids, h, j) < 0) {
            ob_htab_free(&con_ids);
            goto oom;
        }
    }
    for (int32_t s = 0; s < doc->skin_count; s++) {
        const ob_skin_data *skin = &doc->skins[s];
        for (int32_t k = 0; k < skin->bone_count; k++)
            if (skin->bones[k] >= 0) inst->bone_required[skin->bones[k]] = 1;
        inst->skin_cons[s] = calloc(skin->constraint_count > 0 ? (size_t)skin->constraint_count : 1, sizeof(int32_t));
        if (!inst->skin_cons[s]) {
            ob_htab_free(&con_ids);
            goto oom;
        }
        for (int32_t k = 0; k < skin->constraint_count; k++) {
            q.key = skin->constraints[k];  /* first wins (CLARIFICATIONS) */
            int32_t c = q.key ? ob_htab_find(&con_ids, ob_str_hash_seeded(seed, q.key), con_id_eq, &q) : -1;
            if (c >= 0) {
                inst->con_required[c] = 1;
                inst->skin_cons[s][inst->skin_con_count[s]++] = c;
            }
        }
    }
    ob_htab_free(&con_ids);
#undef ALLOC
    if (constraint_order(doc, inst->con_order) < 0) goto oom;
    if (doc->pose_model == OB_POSE_MODEL_SPINE) {
        inst->spine_cache_capacity = spine_cache_bound(inst);
        int own_run = doc->physics_count >= 2;  /* issue 17 (physics): a run order of its own where groups can form */
        size_t rows = own_run ? 6 : 5;
        inst->spine_cache = calloc(rows * (size_t)inst->spine_cache_capacity + (size_t)nb, sizeof *inst->spine_cache);
        if (!inst->spine_cache) goto oom;
        inst->spine_parent = inst->spine_cache + inst->spine_cache_capacity;  /* bones, issue 17 */
        inst->walk_plan = inst->spine_parent + nb;
        inst->spine_run = own_run ? inst->walk_plan + 4 * (size_t)inst->spine_cache_capacity : inst->spine_cache;
        for (int32_t i = 0; i < nb; i++) inst->spine_parent[i] = doc->bones[i].parent;
    }
    if (build_keyed_tables(inst) < 0) goto oom;
    if (build_setup_lists(inst) < 0) goto oom;  /* bones, issue 17 */
    /* particles before the draw state: the draw list sizes its particle
    ** buffers from the emitters' capacities */
    if (ob_anim_state_create(inst) < 0 || ob_constraints_create(inst) < 0 || ob_particles_create(inst) < 0 ||
        ob_draw_state_create(inst) < 0 || ob_sm_create(inst) < 0)
        goto oom;

    ob_skeleton_update_active(inst);
    ob_instance_set_to_setup_pose(inst);
    ob_instance_update_world_transform(inst);
    /* the Spine pose model: the creation's pose is Physics.none for physics
    ** (conformance/NOTES.md), so the first update starts at rest where the
    ** first frame puts the bones, as the golden poses show */
    if (doc->pose_model == OB_POSE_MODEL_SPINE) ob_physics_reset(inst);
    return inst;
oom:
    ob_instance_free(inst);
    if (err) {
        err->status = OB_ERR_MEMORY;
        strcpy(err->message, "out of memory");
    }
    return NULL;
}

void ob_instance_free(ob_instance *inst)
{
    if (!inst) return;
    ob_sm_free(inst);
    ob_layer_free(inst);
    ob_draw_state_free(inst);
    ob_particles_free(inst);
    ob_constraints_free(inst);
    ob_anim_state_free(inst);
    free(inst->deform_pool);
    ob_arena_free(&inst->restored);
    free(inst->deforms); free(inst->seqframes);
    free(inst->slot_deform_start); free(inst->slot_seqframe_start);
    free(inst->particle_values);
    if (inst->skin_cons)
        for (int32_t i = 0; i < inst->doc->skin_count; i++) free(inst->skin_cons[i]);
    free(inst->bone_required); free(inst->con_required); free(inst->skin_cons); free(inst->skin_con_count);
    free(inst->local); free(inst->applied); free(inst->inherit); free(inst->world);
    free(inst->trig); free(inst->stale); free(inst->chain); free(inst->key_hint); free(inst->tl_values);
    free(inst->sync_pending); free(inst->sync_pending_children);
    free(inst->bone_active);
    free(inst->slot_color); free(inst->slot_dark); free(inst->slot_has_dark);
    free(inst->slot_attachment); free(inst->draw_order);
    free(inst->con_values); free(inst->con_active); free(inst->con_order);
    free(inst->spine_cache); free(inst->spine_sorted);
    free(inst->setup_slot_list);  /* with setup_con_list (bones, issue 17) */
    free(inst->pose_keys);        /* with pose_pending */
    free(inst);
}

/* ---- §3.3 skins and active flags ----------------------------------- */

static int bone_off(const ob_instance *inst, int32_t b) { return b >= 0 && !inst->bone_active[b]; }

void ob_skeleton_update_active(ob_instance *inst)
{
    const ob_document *doc = inst->doc;
    int any_required = 0;
    for (int32_t i = 0; i < doc->bone_count; i++) any_required |= inst->bone_required[i];
    const ob_skin_data *cur = inst->skin >= 0 ? &doc->skins[inst->skin] : NULL;
    for (int32_t i = 0; i < doc->bone_count; i++) {
        if (!any_required) { inst->bone_active[i] = 1; continue; }
        int32_t p = doc->bones[i].parent;
        int active = p < 0 || inst->bone_active[p];  /* parents come first */
        if (active && inst->bone_required[i]) {
            int mine = 0;
            for (int32_t k = 0; cur && k < cur->bone_count; k++) mine |= cur->bones[k] == i;
            active = mine;
        }
        inst->bone_active[i] = (uint8_t)active;
    }
    for (int32_t i = 0; i < doc->constraint_count; i++) {
        const ob_constraint_data *c = &doc->constraints[i];
        int skip = 0;
        if (inst->con_required[i]) {
            int mine = 0;
            for (int32_t k = 0; inst->skin >= 0 && k < inst->skin_con_count[inst->skin]; k++)
                mine |= inst->skin_cons[inst->skin][k] == i;
            skip = !mine;
        }
        if (!skip && any_required) {
            switch (c->kind) {
            case OB_CON_PHYSICS:
                skip = bone_off(inst, c->bone);
                break;
            case OB_CON_PATH:
                for (int32_t k = 0; k < c->bone_count; k++) skip |= bone_off(inst, c->bones[k]);
                if (c->target >= 0) skip |= bone_off(inst, doc->slots[c->target].bone);
                break;
            default:
                for (int32_t k = 0; k < c->bone_count; k++) skip |= bone_off(inst, c->bones[k]);
                skip |= bone_off(inst, c->target);
                break;
            }
        }
        inst->con_active[i] = (uint8_t)!skip;
    }
    inst->active_for_skin = inst->skin;
    inst->pass_all = 1;  /* bones turned active: the trig pass copies and checks every row */
    if (doc->pose_model == OB_POSE_MODEL_SPINE) spine_update_cache(inst);
}

/* ---- the Spine pose model: spine-core 4.2 Skeleton.updateCache ------ */

/* Bones pushed ≤ bones + the bones every constraint's sortReset can unsort
** (the descendants of its bones): the cache's capacity, fixed at creation. */
static int32_t spine_cache_bound(const ob_instance *inst)
{
    const ob_document *doc = inst->doc;
    int32_t nb = doc->bone_count, *desc = calloc((size_t)nb + 1, sizeof *desc);
    if (!desc) return nb + doc->constraint_count + 1;  /* the calloc after this one fails too */
    for (int32_t i = nb - 1; i >= 0; i--)  /* parents come first (§2) */
        if (doc->bones[i].parent >= 0) desc[doc->bones[i].parent] += desc[i] + 1;
    int64_t total = (int64_t)nb + doc->constraint_count + 1;
    for (int32_t c = 0; c < doc->constraint_count; c++) {
        const ob_constraint_data *cd = &doc->constraints[c];
        int64_t n = cd->kind == OB_CON_PHYSICS && cd->bone >= 0 ? desc[cd->bone] : 0;
        for (int32_t k = 0; k < cd->bone_count; k++)
            if (cd->bones[k] >= 0) n += desc[cd->bones[k]];
        total += n < nb ? n : nb;
    }
    free(desc);
    return total < INT32_MAX ? (int32_t)total : INT32_MAX;
}

static void spine_push(ob_instance *inst, int32_t entry)
{
    if (inst->spine_cache_count < inst->spine_cache_capacity)  /* always: see spine_cache_bound */
        inst->spine_cache[inst->spine_cache_count++] = entry;
}

/* spine-core 4.2: sortBone (parents first) */
static void spine_sort_bone(ob_instance *inst, int32_t b)
{
    if (b < 0 || inst->spine_sorted[b]) return;
    spine_sort_bone(inst, inst->doc->bones[b].parent);
    inst->spine_sorted[b] = 1;
    spine_push(inst, b);
}

/* spine-core 4.2: sortReset(bone.children): active descendants are sorted again later */
static void spine_sort_reset(ob_instance *inst, int32_t b)
{
    for (int32_t k = 0; k < inst->child_count[b]; k++) {
        int32_t c = inst->children[b][k];
        if (!inst->bone_active[c]) continue;
        if (inst->spine_sorted[c]) spine_sort_reset(inst, c);
        inst->spine_sorted[c] = 0;
    }
}

/* spine-core 4.2: sortPathConstraintAttachment(With), every skin's path
** attachments in the path's slot: their bones (weighted) or the slot bone */
static void spine_sort_path_attachments(ob_instance *inst, int32_t slot)
{
    const ob_document *doc = inst->doc;
    int32_t slot_bone = doc->slots[slot].bone;
    for (int32_t s = 0; s < doc->skin_count; s++) {
        const ob_skin_data *skin = &doc->skins[s];
        const ob_skin_entry *e = skin->entries + skin->slot_first[2 * slot];
        for (int32_t k = 0, n = skin->slot_first[2 * slot + 1]; k < n; k++) {
            const ob_attachment *a = e[k].attachment >= 0 ? &doc->attachments[e[k].attachment] : NULL;
            if (!a || a->type != OB_ATT_PATH) continue;
            if (!a->weight_start) { spine_sort_bone(inst, slot_bone); continue; }
            for (int32_t i = 0; i < a->weight_start[a->vertex_count]; i++)
                spine_sort_bone(inst, a->weights[i].bone >= 0 ? a->weights[i].bone : slot_bone);
        }
    }
}

/* transform and path: the constraint, then its bones' descendants are sorted
** again later and its bones not (they keep the world the constraint gave) */
static void spine_push_constrained(ob_instance *inst, int32_t c)
{
    const ob_constraint_data *cd = &inst->doc->constraints[c];
    spine_push(inst, -1 - c);
    for (int32_t j = 0; j < cd->bone_count; j++)
        if (cd->bones[j] >= 0) spine_sort_reset(inst, cd->bones[j]);
    for (int32_t j = 0; j < cd->bone_count; j++)
        if (cd->bones[j] >= 0) inst->spine_sorted[cd->bones[j]] = 1;
}

static int bone_on(const ob_instance *inst, int32_t b) { return b >= 0 && inst->bone_active[b]; }

/* spine-core 4.2 updateCache: constraints in order (inst->con_order: the
** same sequence as Spine's "order == i" loop when the orders are 0..n−1),
** each after the bones it reads; a constraint is active when its target
** (path: the slot's bone; physics: its bone) is and its skin lists it. */
static void spine_update_cache(ob_instance *inst)
{
    const ob_document *doc = inst->doc;
    inst->spine_cache_count = 0;
    inst->spine_cache_gen++;  /* issue 17 (cons): the constraints re-analyse the cache */
    for (int32_t i = 0; i < doc->bone_count; i++) inst->spine_sorted[i] = !inst->bone_active[i];
    for (int32_t k = 0; k < doc->constraint_count; k++) {
        int32_t c = inst->con_order[k];
        const ob_constraint_data *cd = &doc->constraints[c];
        int active = 1;
        if (inst->con_required[c]) {
            active = 0;
            for (int32_t j = 0; inst->skin >= 0 && j < inst->skin_con_count[inst->skin]; j++)
                active |= inst->skin_cons[inst->skin][j] == c;
        }
        int32_t first = -1, last = -1, n = 0;
        for (int32_t j = 0; j < cd->bone_count; j++)
            if (cd->bones[j] >= 0) { if (first < 0) first = cd->bones[j]; last = cd->bones[j]; n++; }
        switch (cd->kind) {
        case OB_CON_IK:
            active &= bone_on(inst, cd->target) && n > 0;
            if (!active) break;
            spine_sort_bone(inst, cd->target);
            spine_sort_bone(inst, first);
            if (n > 1) spine_sort_bone(inst, last);
            spine_push(inst, -1 - c);
            spine_sort_reset(inst, first);
            if (n > 1) inst->spine_sorted[last] = 1;
            break;
        case OB_CON_TRANSFORM:
            active &= bone_on(inst, cd->target);
            if (!active) break;
            spine_sort_bone(inst, cd->target);
            for (int32_t j = 0; j < cd->bone_count; j++) {
                if (cd->bones[j] < 0) continue;
                if (cd->local) spine_sort_bone(inst, doc->bones[cd->bones[j]].parent);
                spine_sort_bone(inst, cd->bones[j]);
            }
            spine_push_constrained(inst, c);
            break;
        case OB_CON_PATH:
            active &= cd->target >= 0 && bone_on(inst, doc->slots[cd->target].bone);
            if (!active) break;
            spine_sort_path_attachments(inst, cd->target);
            for (int32_t j = 0; j < cd->bone_count; j++) spine_sort_bone(inst, cd->bones[j]);
            spine_push_constrained(inst, c);
            break;
        case OB_CON_PHYSICS:
            active &= bone_on(inst, cd->bone);
            if (!active) break;
            spine_sort_bone(inst, cd->bone);
            spine_push(inst, -1 - c);
            spine_sort_reset(inst, cd->bone);
            inst->spine_sorted[cd->bone] = 1;
            break;
        }
        inst->con_active[c] = (uint8_t)active;
    }
    for (int32_t i = 0; i < doc->bone_count; i++) spine_sort_bone(inst, i);
}

void ob_instance_set_skin(ob_instance *inst, int skin)
{
    if (skin < -1 || skin >= inst->doc->skin_count) skin = -1;  /* unknown ⇒ none */
    inst->skin = skin;
    if (inst->active_for_skin != skin) ob_skeleton_update_active(inst);
}

int ob_instance_skin(const ob_instance *inst) { return inst->skin; }

/* §8.1 getAttachment: the skin's entry, else the default (first) skin's. */
int32_t ob_skeleton_get_attachment(const ob_instance *inst, int32_t slot, int32_t name_id)
{
    const ob_document *doc = inst->doc;
    if (name_id < 0) return -1;
    for (int pass = 0; pass < 2; pass++) {
        int32_t s = pass == 0 ? inst->skin : 0;
        if (s < 0 || s >= doc->skin_count || (pass == 1 && inst->skin == 0)) continue;
        const ob_skin_data *skin = &doc->skins[s];
        const ob_skin_entry *e = skin->entries + skin->slot_first[2 * slot];
        for (int32_t k = 0, n = skin->slot_first[2 * slot + 1]; k < n; k++)
            if (e[k].name_id == name_id) return e[k].attachment;
    }
    return -1;
}

/* ---- §3.1 setToSetupPose ------------------------------------------- */

/* The per-frame block copies (setup pose, applied = local), issue 17: 64
** bytes per step in SSE2 registers.  glibc's memcpy takes `rep movsb` above ~2 KB
** on CPUs with fast short rep-mov (this AMD EPYC), which perf showed costing
** 6-8% of spineboy's frame for these L1-resident 2-4 KB blocks. */
/* issue 17 (trig2): the moves are 32-byte generic vectors: two SSE2 registers
** each in the baseline (the same code as 16-byte ones), one YMM register in
** an AVX2 clone (ob_instance_set_to_setup_pose's, bones_trig_pass's): copies
** only, no arithmetic, so the width changes no result */
static inline __attribute__((always_inline)) void copy_block(void *restrict dst, const void *restrict src, size_t bytes)
{
    unsigned char *d = dst;
    const unsigned char *s = src;
    size_t i = 0;
    for (; i + 64 <= bytes; i += 64) {
        ob_v4d v0, v1;
        memcpy(&v0, s + i, sizeof v0);
        memcpy(&v1, s + i + 32, sizeof v1);
        memcpy(d + i, &v0, sizeof v0);
        memcpy(d + i + 32, &v1, sizeof v1);
    }
    if (i == bytes) return;
    /* the tail (< 64 bytes) without a libc call (issue 17: the short blocks,
    ** a slot's attachments and draw order, were 3% of a 21-bone rig's frame
    ** in glibc's memcpy): two moves of a power-of-two width that overlap in
    ** the middle, as small memcpys do; dst and src do not overlap, so a byte
    ** written twice gets the same value */
    if (bytes >= 64) {
        ob_v4d v0, v1;
        memcpy(&v0, s + bytes - 64, sizeof v0);
        memcpy(&v1, s + bytes - 32, sizeof v1);
        memcpy(d + bytes - 64, &v0, sizeof v0);
        memcpy(d + bytes - 32, &v1, sizeof v1);
        return;
    }
#define COPY_TWO(W)                                                                       \
    do {                                                                                  \
        unsigned char a_[W], b_[W];                                                       \
        memcpy(a_, s, W);                                                                 \
        memcpy(b_, s + bytes - W, W);                                                     \
        memcpy(d, a_, W);                                                                 \
        memcpy(d + bytes - W, b_, W);                                                     \
    } while (0)
    if (bytes >= 32) COPY_TWO(32);
    else if (bytes >= 16) COPY_TWO(16);
    else if (bytes >= 8) COPY_TWO(8);
    else if (bytes >= 4) COPY_TWO(4);
    else if (bytes >= 2) COPY_TWO(2);
    else d[0] = s[0];  /* (bytes is 1 here: 0 returned above) */
#undef COPY_TWO
}

/* issue 17 (bones): the bits set in a word, inline (the x86-64 baseline has
** no popcnt: __builtin_popcountll is a libgcc call there) */
static inline size_t bits_set(uint64_t x)
{
    x = x - ((x >> 1) & 0x5555555555555555ULL);
    x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
    x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0fULL;
    return (size_t)((x * 0x0101010101010101ULL) >> 56);
}

/* issue 17 (trig2): an AVX2 clone for copy_block's 32-byte moves (the
** block copies are most of this function's cost) */
OB_TRIG_CLONES void ob_instance_set_to_setup_pose(ob_instance *inst)
{
    const ob_document *doc = inst->doc;
    size_t nb = (size_t)doc->bone_count, ns = (size_t)doc->slot_count;
    int full = inst->setup_full || inst->sm;  /* a running machine's bindings and scripts write any row */
    size_t pending = 0;  /* rows to restore: most of them ⇒ the block copy */
    for (int32_t w = 0; w < inst->pose_words && !full; w++) pending += bits_set(inst->pose_pending[w]);
    if (full) inst->pass_all = 1;  /* any row may have changed since the last trig pass */
    else  /* the rows restored: changed since the last trig pass (bones_trig_pass) */
        for (int32_t w = 0; w < inst->pose_words; w++) inst->pose_changed[w] |= inst->pose_pending[w];
    if (full || !inst->pose_words || 3 * pending > 2 * nb) {
        copy_block(inst->local, inst->setup_local, nb * sizeof *inst->local);
        for (int32_t w = 0; w < inst->pose_words; w++) inst->pose_pending[w] = 0;
    } else {
        /* issue 17: only the rows the animations applied since the last call write */
        uint64_t out = 1;  /* pending rows the trig pass's row list lacks */
        if (2 * (size_t)inst->pose_row_count <= 3 * pending) {  /* (a list row costs 2/3 of a scanned one) */
            out = 0;
            for (int32_t w = 0; w < inst->pose_words; w++) out |= inst->pose_pending[w] & ~inst->pose_rows_mask[w];
        }
        if (!out) {
            /* issue 17 (bones): the rows of that list, a superset (each frame's
            ** the same while the animations are): a row no animation wrote
            ** since the last call holds its setup values (the last call restored
            ** it or it was never written; any other writer sets setup_full),
            ** so restoring it changes nothing */
            char *lb = (char *)inst->local;
            const char *sb = (const char *)inst->setup_local;
            for (int32_t j = 0, n = inst->pose_row_count; j < n; j++) {
                uint32_t off = inst->pose_rows[j];
                *(ob_pose *)(lb + off) = *(const ob_pose *)(sb + off);
            }
            for (int32_t w = 0; w < inst->pose_words; w++) inst->pose_pending[w] = 0;
        } else {
            for (int32_t w = 0; w < inst->pose_words; w++) {
                uint64_t m = inst->pose_pending[w];
                inst->pose_pending[w] = 0;
                while (m) {
                    size_t i = (size_t)w * 64 + (size_t)__builtin_ctzll(m);
                    m &= m - 1;
                    inst->local[i] = inst->setup_local[i];
                }
            }
        }
    }
    /* issue 17 (bones): the live inherit modes and dark flags only when a
    ** timeline of the document can have written them (other writers: sliders,
    ** with no pose_words, and those that set setup_full) */
    int bytes = full || !inst->pose_words ? 3 : inst->setup_keyed_bytes;
    if (bytes & 1) copy_block(inst->inherit, inst->setup_inherit, nb);
    if (bytes & 2) copy_block(inst->slot_has_dark, inst->setup_has_dark, ns);
    copy_block(inst->slot_attachment, inst->setup_attachment, ns * sizeof *inst->slot_attachment);
    copy_block(inst->draw_order, inst->setup_order, ns * sizeof *inst->draw_order);
    size_t nc = (size_t)doc->constraint_count;
    if (full) {
        copy_block(inst->slot_color, inst->setup_color, 4 * ns * sizeof *inst->slot_color);
        copy_block(inst->slot_dark, inst->setup_dark, 4 * ns * sizeof *inst->slot_dark);
        copy_block(inst->con_values, inst->setup_con_values, nc * OB_CV_COUNT * sizeof *inst->con_values);
        inst->setup_full = inst->sm != NULL;  /* a running machine's bindings and scripts write any row */
    } else {
        /* issue 17: only the rows the document's timelines can have written
        ** since the last call (every other writer sets setup_full) */
        for (int32_t k = 0; k < inst->setup_slot_count; k++) {
            size_t i = 4 * (size_t)inst->setup_slot_list[k];
            memcpy(&inst->slot_color[i], &inst->setup_color[i], 4 * sizeof *inst->slot_color);
            memcpy(&inst->slot_dark[i], &inst->setup_dark[i], 4 * sizeof *inst->slot_dark);
        }
        for (int32_t k = 0; k < inst->setup_con_count; k++) {
            size_t i = (size_t)inst->setup_con_list[2 * k];
            int32_t n = inst->setup_con_list[2 * k + 1];
            if (n >= 8) copy_block(&inst->con_values[i], &inst->setup_con_values[i], (size_t)n * sizeof *inst->con_values);
            else  /* (short: no libc call for a tail) */
                for (int32_t j = 0; j < n; j++) inst->con_values[i + j] = inst->setup_con_values[i + j];
        }
    }
    /* deform cleared (issue 17, trig2: four entries a step, the loop's own
    ** instructions were most of its cost) */
    {
        int32_t i = 0, nd = inst->deform_count;
        ob_deform *df = inst->deforms;
        for (; i + 4 <= nd; i += 4) df[i].count = df[i + 1].count = df[i + 2].count = df[i + 3].count = 0;
        for (; i < nd; i++) df[i].count = 0;
    }
    for (int32_t i = 0; i < inst->seqframe_count; i++) inst->seqframes[i].set = 0; /* keyed frames cleared */
    /* particle values: the slots particle timelines key, unless particles.c's
    ** emitter overrides (a document with emitters) may have set any */
    if (full || (inst->particles && inst->particles->any)) {
        memset(inst->particle_values, 0, (size_t)doc->slot_count * sizeof *inst->particle_values);
    } else {
        for (int32_t k = 0; k < inst->setup_particle_count; k++)
            inst->particle_values[inst->setup_particle_list[k]] = (ob_particle_values){0, 0, 0, 0};
    }
    inst->has_animation_time = 0;  /* animationTime ← null */
    inst->animation_time = 0;
}

/* ---- §3.2 updateWorldTransform ------------------------------------- */

static ob_mat bone_world_other(ob_mat P, ob_mat L, const ob_pose *local, int inherit);

/* §4.2 boneWorld(P, local, inherit) */
ob_mat ob_bone_world(ob_mat P, const ob_pose *local, int inherit)
{
    ob_mat L = ob_local_matrix(local);
    if (inherit == OB_INHERIT_NORMAL) return ob_mat_mul(P, L);
    return bone_world_other(P, L, local, inherit);
}

/* §4.2 boneWorld for the inherit modes other than normal, L = localMatrix(local) */
static ob_mat bone_world_other(ob_mat P, ob_mat L, const ob_pose *local, int inherit)
{
    double wx = P.a * local->x + P.b * local->y + P.x;
    double wy = P.c * local->x + P.d * local->y + P.y;
    ob_mat w;
    switch (inherit) {
    case OB_INHERIT_ONLY_TRANSLATION:
        w = L;
        break;
    case OB_INHERIT_NO_ROTATION: {
        double sx = hypot(P.a, P.c), sy = hypot(P.b, P.d);
        w = (ob_mat){L.a * sx, L.b * sy, L.c * sx, L.d * sy, 0, 0};
        break;
    }
    case OB_INHERIT_NO_ROTATION_OR_REFLECTION:
    case OB_INHERIT_NO_SCALE_OR_REFLECTION: {
        /* rigby2d § World transforms (Spine's modes), in this runtime's
        ** column convention (first column (a, c)): s = |first column|,
        ** u = its direction; s < 1e-12 counts as 0 (u = (1, 0)) */
        double s = hypot(P.a, P.c), det = P.a * P.d - P.b * P.c, ux = 1, uy = 0;
        if (s < 1e-12) s = 0;
        else { ux = P.a / s; uy = P.c / s; }
        ob_mat Q = inherit == OB_INHERIT_NO_ROTATION_OR_REFLECTION
                       ? (ob_mat){s, 0, 0, s > 0 ? fabs(det) / s : 0, 0, 0}
                       : (ob_mat){ux, -uy, uy, ux, 0, 0};
        w = ob_mat_mul(Q, L);
        break;
    }
    default: { /* OB_INHERIT_NO_SCALE */
        double sx = hypot(P.a, P.c), sy = hypot(P.b, P.d);
        if (sx == 0) sx = 1;  /* JS: hypot(...) || 1 */
        if (sy == 0) sy = 1;
        ob_mat N = {P.a / sx, P.b / sy, P.c / sx, P.d / sy, 0, 0};
        w = ob_mat_mul(N, L);
        break;
    }
    }
    w.x = wx;
    w.y = wy;
    return w;
}

void ob_bone_update_world(ob_instance *inst, int32_t i)
{
    int32_t p = inst->doc->bones[i].parent;
    ob_bone_edit(inst, i);  /* deferred syncs that read this world (its own, its children's) first */
    if (inst->doc->pose_model == OB_POSE_MODEL_SPINE) {  /* the instance layer's reads (below) */
        inst->stale[i] = 0;
        ob_bone_world_spine(inst, i);
        return;
    }
    const ob_pose *ap = &inst->applied[i];
    ob_mat L = ob_local_matrix_cached(ap, &inst->trig[i]);
    inst->stale[i] = 0;
    if (p < 0) inst->world[i] = ob_mat_mul(inst->root, L);  /* root bones: normal with P = root */
    else if (inst->inherit[i] == OB_INHERIT_NORMAL) inst->world[i] = ob_mat_mul(inst->world[p], L);
    else inst->world[i] = bone_world_other(inst->world[p], L, ap, inst->inherit[i]);
}

void ob_bone_update_subtree(ob_instance *inst, int32_t bone, int include_self)
{
    if (!inst->bone_active[bone]) return;
    if (include_self) {
        /* a stale bone's (active) descendants are all stale already: marking
        ** covers whole subtrees, and freshening a bone freshens its stale
        ** ancestors first (ob_bone_refresh) */
        if (inst->stale[bone]) return;
        inst->stale[bone] = 1;
    }
    for (int32_t k = 0; k < inst->child_count[bone]; k++)
        ob_bone_update_subtree(inst, inst->children[bone][k], 1);
}

/* The stale bones from the highest stale ancestor down to bone, top first
** (a stale bone's parent is fresh or stale itself: marking covers subtrees). */
void ob_bone_refresh(ob_instance *inst, int32_t bone)
{
    const ob_bone_data *bones = inst->doc->bones;
    int32_t n = 0;
    for (int32_t b = bone; b >= 0 && inst->stale[b]; b = bones[b].parent) inst->chain[n++] = b;
    while (n > 0) ob_bone_update_world(inst, inst->chain[--n]);
}

void ob_bones_flush(ob_instance *inst)
{
    for (int32_t i = 0; i < inst->doc->bone_count; i++)  /* parents come first (§2) */
        if (inst->stale[i]) ob_bone_update_world(inst, i);
}

void ob_bone_sync_applied(ob_instance *inst, int32_t i)
{
    if (inst->sync_pending[i]) return;  /* already recorded: the worlds have not changed since */
    inst->sync_pending[i] = 1;
    int32_t p = inst->doc->bones[i].parent;
    if (p >= 0) inst->sync_pending_children[p]++;
}

void ob_bone_sync_children(ob_instance *inst, int32_t bone)
{
    for (int32_t k = 0; k < inst->child_count[bone] && inst->sync_pending_children[bone] > 0; k++) {
        int32_t c = inst->children[bone][k];
        if (inst->sync_pending[c]) ob_bone_sync_now(inst, c);
    }
}

/* §3.2 syncApplied via core/math.ts:localFromWorld: the local values that
** reproduce the bone's current world under its parent, with the live
** inherit mode: a full decomposition for normal (shear X kept), the
** position only for the other modes. */
void ob_bone_sync_now(ob_instance *inst, int32_t i)
{
    int32_t p = inst->doc->bones[i].parent;
    if (inst->sync_pending[i]) {
        inst->sync_pending[i] = 0;
        if (p >= 0) inst->sync_pending_children[p]--;
    }
    ob_mat P = p >= 0 ? inst->world[p] : inst->root;
    int inherit = p >= 0 ? inst->inherit[i] : OB_INHERIT_NORMAL;
    ob_mat inv = ob_mat_invert(P);
    ob_mat W = inst->world[i];
    ob_pose *ap = &inst->applied[i];
    ap->x = inv.a * W.x + inv.b * W.y + inv.x;
    ap->y = inv.c * W.x + inv.d * W.y + inv.y;
    if (inherit != OB_INHERIT_NORMAL) return;
    ob_mat L = ob_mat_mul(inv, W);
    double sx = hypot(L.a, L.c), sy = hypot(L.b, L.d);
    double det = L.a * L.d - L.b * L.c;
    if (det < 0) sy = -sy;
    ap->scale_x = sx;
    ap->scale_y = sy;
    ap->rotation = ob_atan2(L.c, L.a) * OB_RAD - ap->shear_x;
    if (sy != 0) {
        double ry = ob_atan2(L.d / sy, L.b / sy) * OB_RAD;
        ap->shear_y = ob_wrap_deg(ry - 90 - ap->rotation);
    }
}

/* ---- the Spine pose model: spine-core 4.2 Bone ----------------------- */

/* spine-core 4.2 Bone.updateWorldTransformWith (skeleton scale 1, at the
** origin: this runtime has no skeleton placement) from the applied pose */
void ob_bone_world_spine(ob_instance *inst, int32_t i)
{
    int32_t p = inst->spine_parent[i];
    const ob_pose *ap = &inst->applied[i];
    int inherit = inst->inherit[i];
    if (p < 0 || inherit == OB_INHERIT_NORMAL || inherit == OB_INHERIT_ONLY_TRANSLATION) {
        ob_mat L = ob_local_matrix_cached(ap, &inst->trig[i]);
        if (p < 0) inst->world[i] = ob_mat_mul(inst->root, L);
        else if (inherit == OB_INHERIT_NORMAL) inst->world[i] = ob_mat_mul(inst->world[p], L);
        else {
            ob_mat P = inst->world[p];
            L.x = P.a * ap->x + P.b * ap->y + P.x;
            L.y = P.c * ap->x + P.d * ap->y + P.y;
            inst->world[i] = L;
        }
        return;
    }
    ob_mat P = inst->world[p], w;
    double pa = P.a, pb = P.b, pc = P.c, pd = P.d;
    w.x = pa * ap->x + pb * ap->y + P.x;
    w.y = pc * ap->x + pd * ap->y + P.y;
    switch (inherit) {
    case OB_INHERIT_NO_ROTATION_OR_REFLECTION: {
        /* spine-core 4.2: the parent's X axis and a perpendicular Y axis of
        ** length |det|/|X|, the local rotation taken back by the X angle */
        /* the local angles less the parent's X angle φ, spine-core's
        ** (rotation + shear − prx)·π/180 with prx = atan2(pc, pa) in degrees,
        ** by the angle-difference identities from the bone's localMatrix trig
        ** (obmath.h, current after the trig pass) and cos φ, sin φ from the
        ** parent's X axis: no atan2 and no sin/cos here (issue 17) */
        double s = pa * pa + pc * pc, cf, sf;
        if (s > 0.0001) {
            double r = sqrt(s);
            cf = pa / r;
            sf = pc / r;
            s = fabs(pa * pd - pb * pc) / s;
            pb = pc * s;
            pd = pa * s;
        } else {
            /* prx = 90 − atan2(pd, pb)·180/π: cos φ = sin atan2(pd, pb), sin φ = cos atan2(pd, pb) */
            double r = sqrt(pb * pb + pd * pd);
            cf = r > 0 ? pd / r : 0;
            sf = r > 0 ? pb / r : copysign(1, pb);  /* atan2(±0, pb) is 0 or ±π */
            pa = 0;
            pc = 0;
        }
        ob_trig *t = &inst->trig[i];
        ob_trig_update(ap, t);
        /* t: a = cos θx, c = sin θx, b = −sin θy, d = cos θy */
        double la = (t->a * cf + t->c * sf) * ap->scale_x, lc = (t->c * cf - t->a * sf) * ap->scale_x;
        double lb = (t->b * cf + t->d * sf) * ap->scale_y, ld = (t->d * cf - t->b * sf) * ap->scale_y;
        w.a = pa * la - pb * lc;
        w.b = pa * lb - pb * ld;
        w.c = pc * la + pd * lc;
        w.d = pc * lb + pd * ld;
        break;
    }
    case OB_INHERIT_NO_SCALE:
    case OB_INHERIT_NO_SCALE_OR_REFLECTION: {
        /* spine-core 4.2: the local rotation mapped through the parent,
        ** normalised, and a perpendicular (flipped under reflection for
        ** noScale), then the local shear and scale */
        /* the rotation's and both shears' sin/cos in one call (θy as in
        ** obmath.h's localMatrix, no +90) */
        double cr, sr, la, lb, lc, ld;
        if ((ob_bits(ap->shear_x) | ob_bits(ap->shear_y)) == 0) {
            /* both shears +0 (nearly always): the rotation's sin/cos are the
            ** bone's localMatrix trig (θx = (rotation + 0)·π/180), the shears'
            ** are exactly 1 and 0 (what the kernel gives for 0) */
            ob_trig *t = &inst->trig[i];
            ob_trig_update(ap, t);
            cr = t->a;
            sr = t->c;
            la = ap->scale_x;
            lc = 0 * ap->scale_x;
            lb = -0.0 * ap->scale_y;
            ld = ap->scale_y;
        } else {
            ob_v4d ang = {ap->rotation * OB_DEG, ap->shear_x * OB_DEG, ap->shear_y * OB_DEG, 0}, sn, cs;
            ob_sincos_v4p(&ang, &sn, &cs);
            cr = cs[0];
            sr = sn[0];
            la = cs[1] * ap->scale_x;
            lb = -sn[2] * ap->scale_y;
            lc = sn[1] * ap->scale_x;
            ld = cs[2] * ap->scale_y;
        }
        double za = pa * cr + pb * sr, zc = pc * cr + pd * sr;
        double s = sqrt(za * za + zc * zc);
        if (s > 0.00001) s = 1 / s;
        za *= s;
        zc *= s;
        /* spine-core: s = |z|, negated for noScale under reflection, then
        ** zb = cos(π/2 + atan2(zc, za))·s and zd = sin(π/2 + atan2(zc, za))·s,
        ** which are −zc·sign(s) and za·sign(s) (cos(π/2 + φ) = −sin φ = −zc/|z|,
        ** sin(π/2 + φ) = cos φ = za/|z|): no atan2, no sin/cos (issue 17) */
        int flip = inherit == OB_INHERIT_NO_SCALE && pa * pd - pb * pc < 0;
        double zb = flip ? zc : -zc, zd = flip ? -za : za;
        w.a = za * la + zb * lc;
        w.b = za * lb + zb * ld;
        w.c = zc * la + zd * lc;
        w.d = zc * lb + zd * ld;
        break;
    }
    default:  /* noRotation is not a Spine mode: §4.2 */
        w = ob_bone_world(P, ap, inherit);
        break;
    }
    inst->world[i] = w;
}

/* spine-core 4.2 Bone.updateAppliedTransform: the applied pose that gives
** the bone's world under its parent's (shear X 0), through the parent the
** inherit mode sees (noScale: built from the local rotation, as Spine does) */
void ob_bone_applied_spine(ob_instance *inst, int32_t i)
{
    int32_t p = inst->doc->bones[i].parent;
    const ob_mat W = inst->world[i];
    ob_pose *ap = &inst->applied[i];
    if (p < 0) {
        ob_mat R = inst->root;
        ap->x = W.x - R.x;
        ap->y = W.y - R.y;
        double rot, sh;
        ob_atan2_2(W.c, W.a, W.a * W.b + W.c * W.d, W.a * W.d - W.b * W.c, &rot, &sh);
        ap->rotation = rot * OB_RAD;
        ap->scale_x = sqrt(W.a * W.a + W.c * W.c);
        ap->scale_y = sqrt(W.b * W.b + W.d * W.d);
        ap->shear_x = 0;
        ap->shear_y = sh * OB_RAD;
        return;
    }
    const ob_mat P = inst->world[p];
    double pa = P.a, pb = P.b, pc = P.c, pd = P.d;
    double pid = 1 / (pa * pd - pb * pc);
    double ia = pd * pid, ib = pb * pid, ic = pc * pid, id = pa * pid;
    double dx = W.x - P.x, dy = W.y - P.y;
    ap->x = dx * ia - dy * ib;
    ap->y = dy * id - dx * ic;
    int inherit = inst->inherit[i];
    double ra, rb, rc, rd;
    if (inherit == OB_INHERIT_ONLY_TRANSLATION) {
        ra = W.a; rb = W.b; rc = W.c; rd = W.d;
    } else {
        if (inherit == OB_INHERIT_NO_ROTATION_OR_REFLECTION) {
            double s = fabs(pa * pd - pb * pc) / (pa * pa + pc * pc);
            pb = -pc * s;
            pd = pa * s;
            pid = 1 / (pa * pd - pb * pc);
            ia = pd * pid;
            ib = pb * pid;
        } else if (inherit == OB_INHERIT_NO_SCALE || inherit == OB_INHERIT_NO_SCALE_OR_REFLECTION) {
            double r0 = inst->local[i].rotation * OB_DEG, cs, sn;
            ob_sincos(r0, &sn, &cs);
            pa = pa * cs + pb * sn;
            pc = pc * cs + pd * sn;
            double s = sqrt(pa * pa + pc * pc);
            if (s > 0.00001) s = 1 / s;
            pa *= s;
            pc *= s;
            /* spine-core: pb = cos(π/2 + atan2(pc, pa))·s, pd = sin(...)·s with
            ** s = ±|(pa, pc)|: −pc·sign(s) and pa·sign(s), as in ob_bone_world_spine */
            int flip = inherit == OB_INHERIT_NO_SCALE && pid < 0;
            pb = flip ? pc : -pc;
            pd = flip ? -pa : pa;
            pid = 1 / (pa * pd - pb * pc);
            ia = pd * pid;
            ib = pb * pid;
            ic = pc * pid;
            id = pa * pid;
        }
        ra = ia * W.a - ib * W.c;
        rb = ia * W.b - ib * W.d;
        rc = id * W.c - ic * W.a;
        rd = id * W.d - ic * W.b;
    }
    ap->shear_x = 0;
    ap->scale_x = sqrt(ra * ra + rc * rc);
    if (ap->scale_x > 0.0001) {
        double det = ra * rd - rb * rc;
        ap->scale_y = det / ap->scale_x;
        double sh, rot;
        ob_atan2_2(ra * rb + rc * rd, det, rc, ra, &sh, &rot);  /* issue 17: both in one call */
        ap->shear_y = -sh * OB_RAD;
        ap->rotation = rot * OB_RAD;
    } else {
        ap->scale_x = 0;
        ap->scale_y = sqrt(rb * rb + rd * rd);
        ap->shear_y = 0;
        ap->rotation = 90 - ob_atan2(rd, rb) * OB_RAD;
    }
}

/* The two-pass bone pipeline (issue 17), pass 1: the localMatrix trig of
** every active bone whose rotation or shears changed, in a loop of its own
** (the kernel calls overlap there, where a call inside the world walk waits
** for the parent multiply).  A bone with shearX = shearY (nearly all) needs
** θx only (θy = θx bit for bit, obmath.h): those are listed without a branch
** and their angles computed four at a time; a bone whose shears differ is
** done on its own.  When copy is given, applied = copy is done in the same
** loop.  Pass 2, the walk in order, finds the trig current; a constraint that
** moves a bone later recomputes that bone's entry. */

/* issue 17 (bones): the listed bones' θx through the four-lane kernel in one
** stream (the staging buffer of TRIG_STAGE angles on the stack), then their
** entries' values (the keys were stored when they were listed) */
#define TRIG_STAGE 64
__attribute__((always_inline)) static inline void trig_flush(char *restrict tb, const int32_t *restrict idx,
                                                             double *restrict xa, int32_t n)
{  /* idx: the rows' byte offsets in trig */
    xa[n] = xa[n + 1] = xa[n + 2] = 0;  /* the last step's spare lanes: finite */
    for (int32_t l = 0; l < n; l += 4) {
        ob_v4d vx, vs, vc;
        memcpy(&vx, xa + l, sizeof vx);
        ob_sincos_v4p(&vx, &vs, &vc);
        /* each row's a, b, c, d = cos, −sin, sin, cos (ob_trig_store's values
        ** with θy = θx), four rows from the two results */
        ob_v4d ns = -vs;
        ob_v4d x0 = OB_SHUF4(vc, ns, 0, 4, 2, 6), x1 = OB_SHUF4(vc, ns, 1, 5, 3, 7);
        ob_v4d y0 = OB_SHUF4(vs, vc, 0, 4, 2, 6), y1 = OB_SHUF4(vs, vc, 1, 5, 3, 7);
        ob_v4d r[4] = {OB_SHUF4(x0, y0, 0, 1, 4, 5), OB_SHUF4(x1, y1, 0, 1, 4, 5),
                       OB_SHUF4(x0, y0, 2, 3, 6, 7), OB_SHUF4(x1, y1, 2, 3, 6, 7)};
        const size_t oa = offsetof(ob_trig, a);
        if (n - l >= 4) {
            memcpy(tb + (uint32_t)idx[l] + oa, &r[0], sizeof r[0]);
            memcpy(tb + (uint32_t)idx[l + 1] + oa, &r[1], sizeof r[1]);
            memcpy(tb + (uint32_t)idx[l + 2] + oa, &r[2], sizeof r[2]);
            memcpy(tb + (uint32_t)idx[l + 3] + oa, &r[3], sizeof r[3]);
        } else {
            for (int32_t j = 0; j < n - l; j++) memcpy(tb + (uint32_t)idx[l + j] + oa, &r[j], sizeof r[j]);
        }
    }
}

/* applied = copy and the trig on the listed rows (bones_trig_pass); cmp: a
** row whose keys match its entry's is left as it is.  Returns the rows left
** (0 without cmp) */
__attribute__((always_inline)) static inline int32_t trig_rows(const char *restrict cb, char *restrict apb, char *restrict tb,
                                                               const uint32_t *restrict rows, int32_t nr, const int cmp)
{
    int32_t idx[TRIG_STAGE];
    double xa[TRIG_STAGE + 4];
    int32_t n = 0, same = 0;
    for (int32_t j = 0; j < nr; j++) {
        uint32_t off = rows[j];
        const ob_pose *p = (const ob_pose *)(cb + off);
        ob_trig *t = (ob_trig *)(tb + off);
        *(ob_pose *)(apb + off) = *p;
        uint64_t kr = ob_bits(p->rotation), kx = ob_bits(p->shear_x), ky = ob_bits(p->shear_y);
        /* (an inactive bone's entry too: it stays what its angles give) */
        if (cmp && ((kr ^ t->rotation) | (kx ^ t->shear_x) | (ky ^ t->shear_y)) == 0) {
            same++;
            continue;
        }
        if (__builtin_expect(kx != ky, 0)) {
            ob_trig_set(t, p);
            continue;
        }
        t->rotation = kr;
        t->shear_x = kx;
        t->shear_y = ky;
        xa[n] = ob_angle_x(p);
        idx[n++] = (int32_t)off;
        if (n == TRIG_STAGE) {
            trig_flush(tb, idx, xa, n);
            n = 0;
        }
    }
    if (n) trig_flush(tb, idx, xa, n);
    return same;
}

/* (the loop without compares as a function of its own: inlined beside the
** other it costs that one ~2 instructions a row) */
OB_TRIG_CLONES __attribute__((noinline)) static int32_t trig_rows_all(const char *restrict cb, char *restrict apb, char *restrict tb,
                                                                      const uint32_t *restrict rows, int32_t nr)
{
    return trig_rows(cb, apb, tb, rows, nr, 0);
}

OB_TRIG_CLONES static void bones_trig_pass(ob_instance *inst, const ob_pose *copy)
{
    const int32_t nb = inst->doc->bone_count;
    const uint8_t *restrict active = inst->bone_active;
    ob_pose *ap = inst->applied;
    ob_trig *restrict trig = inst->trig;
    int32_t w = inst->pose_words;
    if (copy && w && !inst->pass_all) {
        /* issue 17: applied = local and the trig on the rows that can differ
        ** from last frame's only: local rows an animation wrote or setToSetupPose
        ** restored since the last pass, and the bones constraints write the
        ** applied pose of; any other writer sets pass_all (skeleton.c).  Every
        ** such row's trig is recomputed without comparing its keys (bones,
        ** issue 17: the kernel's lane costs less than the three compares, and
        ** most of these rows are keyed rotations that changed): the values are
        ** those of its angles, which is what the cache holds in any case */
        const uint64_t *pend = inst->pose_pending, *cons = inst->pose_constrained;
        uint64_t *chg = inst->pose_changed, *rm = inst->pose_rows_mask, diff = 0;
        for (int32_t k = 0; k < w; k++) diff |= (pend[k] | chg[k] | cons[k]) ^ rm[k];
        if (diff) {  /* (the set is the same frame after frame while the animations are) */
            int32_t c = 0;
            for (int32_t k = 0; k < w; k++) {
                uint64_t m = rm[k] = pend[k] | chg[k] | cons[k];
                while (m) {
                    inst->pose_rows[c++] = (uint32_t)(k * 64 + __builtin_ctzll(m)) * (uint32_t)sizeof(ob_pose);
                    m &= m - 1;
                }
            }
            inst->pose_row_count = c;
        }
        for (int32_t k = 0; k < w; k++) chg[k] = 0;
        const uint32_t *rows = inst->pose_rows;
        _Static_assert(sizeof(ob_trig) == sizeof(ob_pose), "one byte offset for a bone's pose and trig rows");
        char *apb = (char *)ap, *tb = (char *)trig;
        const char *cb = (const char *)copy;
        /* issue 17 (trig2): the key compares cost ~10 instructions a row, a
        ** row recomputed that kept its angles ~30 (its kernel lane): they are
        ** skipped while under a fifth of the rows kept theirs at the frames
        ** that compared (every 16th frame compares, to follow the
        ** animations; a full pass restarts the average at every bone).  A recomputed entry gets the values it holds already */
        int32_t nr = inst->pose_row_count;
        int cmp = (inst->trig_frames++ & 15) == 0 || 5 * inst->trig_same >= nr;
        int32_t same = cmp ? trig_rows(cb, apb, tb, rows, nr, 1) : trig_rows_all(cb, apb, tb, rows, nr);
        if (cmp) inst->trig_same = (inst->trig_same + same) / 2;  /* (smoothed: one odd frame decides little) */
        return;
    }
    int32_t *restrict todo = inst->chain, n = 0;  /* scratch: the bones listed */
    /* applied = copy in one block copy; the check then reads the source */
    const ob_pose *restrict src = ap;
    if (copy) {
        copy_block(ap, copy, (size_t)nb * sizeof *ap);
        src = copy;
    }
    /* the check: three key compares per bone, the bone listed without a branch */
    for (int32_t i = 0; i < nb; i++) {
        const ob_pose *p = &src[i];
        uint64_t kr = ob_bits(p->rotation), kx = ob_bits(p->shear_x), ky = ob_bits(p->shear_y);
        const ob_trig *t = &trig[i];
        int need = active[i] & (((kr ^ t->rotation) | (kx ^ t->shear_x) | (ky ^ t->shear_y)) != 0);
        if (__builtin_expect(need & (kx != ky), 0)) {
            ob_trig_set(&trig[i], p);
            need = 0;
        }
        todo[n] = i;
        n += need;
    }
    if (copy && w) {
        inst->pass_all = 0;
        inst->trig_same = nb;  /* (compares until the frames after show few rows keep their angles) */
        memset(inst->pose_changed, 0, (size_t)w * sizeof(uint64_t));
    }
    /* the listed bones' θx, a staging buffer at a time */
    for (int32_t k = 0; k < n; k += TRIG_STAGE) {
        int32_t m = n - k < TRIG_STAGE ? n - k : TRIG_STAGE;
        double xa[TRIG_STAGE + 4];
        for (int32_t l = 0; l < m; l++) {
            int32_t i = todo[k + l];
            const ob_pose *p = &ap[i];
            trig[i].rotation = ob_bits(p->rotation);
            trig[i].shear_x = ob_bits(p->shear_x);
            trig[i].shear_y = ob_bits(p->shear_y);
            xa[l] = ob_angle_x(p);
        }
        if (nb >= (1 << 25)) {  /* (byte offsets would not fit in int32: one at a time) */
            for (int32_t l = 0; l < m; l++) ob_trig_set(&trig[todo[k + l]], &ap[todo[k + l]]);
            continue;
        }
        for (int32_t l = 0; l < m; l++) todo[k + l] *= (int32_t)sizeof(ob_trig);  /* byte offsets */
        trig_flush((char *)trig, todo + k, xa, m);
    }
}
#undef TRIG_STAGE

/* issue 17 (bones): the walk's plan, four int32 per spine_cache entry: a
** code, then for a bone its byte offsets in world, in trig and applied (the
** same: 56-byte rows), and its parent's in world.  The code: b for a bone whose
** trig the walk may take as the trig pass left it (a parent, and no
** constraint writes its applied pose: its applied pose and trig are those of
** pass 1), WALK_CHECK + b for a bone whose applied pose a constraint writes
** or a root (its trig checked first), −1 − c for constraint c */
#define WALK_CHECK 0x40000000
#define WALK_SLOW 0x20000000  /* (with WALK_CHECK) a bone ob_bone_world_spine does whole */
/* WALK_LIVE + b: as b, its live inherit mode read first.  A plain b is a bone
** whose mode is normal and stays so: no inherit timeline in the document, pose
** tracking (no sliders) and the live modes the setup's when the plan is built
** (a snapshot restore rebuilds it), so only setToSetupPose writes them, with
** the setup's (issue 17, bones) */
#define WALK_LIVE 0x10000000
_Static_assert(sizeof(ob_trig) == sizeof(ob_pose), "one byte offset for a bone's trig and applied rows");
static void spine_walk_plan(ob_instance *inst)
{
    const ob_document *doc = inst->doc;
    int32_t nb = doc->bone_count, nc = doc->constraint_count, *mark = inst->chain;  /* (scratch) */
    for (int32_t b = 0; b < nb; b++) mark[b] = 0;
    for (int32_t c = 0; c < nc; c++) {  /* the bones whose applied pose constraints write */
        const ob_constraint_data *cd = &doc->constraints[c];
        if (cd->kind == OB_CON_PHYSICS && cd->bone >= 0 && cd->bone < nb) mark[cd->bone] = 1;
        for (int32_t k = 0; k < cd->bone_count; k++)
            if (cd->bones[k] >= 0 && cd->bones[k] < nb) mark[cd->bones[k]] = 1;
    }
    /* byte offsets in int32: bones below 2^24 (else every bone the slow way) */
    int fits = nb < (1 << 24);
    int fixed = inst->pose_words > 0 && !(inst->setup_keyed_bytes & 1);
    for (int32_t b = 0; b < nb && fixed; b++) fixed = inst->inherit[b] == inst->setup_inherit[b];
    for (int32_t k = 0; k < inst->spine_cache_count; k++) {
        int32_t e = inst->spine_run[k], *step = &inst->walk_plan[4 * k];
        if (e < 0) {
            step[0] = e;
            continue;
        }
        int32_t p = inst->spine_parent[e];
        step[0] = !fits ? WALK_CHECK + WALK_SLOW : p < 0 || mark[e] ? WALK_CHECK + e
                : fixed && inst->setup_inherit[e] == OB_INHERIT_NORMAL ? e : WALK_LIVE + e;
        step[1] = fits ? e * (int32_t)sizeof(ob_mat) : 0;
        step[2] = fits ? e * (int32_t)sizeof(ob_pose) : 0;
        step[3] = fits && p >= 0 ? p * (int32_t)sizeof(ob_mat) : -1;
        if (!fits) step[1] = e;  /* (the bone, for ob_bone_world_spine) */
    }
    inst->walk_gen = inst->spine_cache_gen;
    inst->walk_built = 1;
}

/* world = P·localMatrix from a current trig entry: ob_mat_mul(P,
** ob_local_matrix_trig(ap, t)) lane by lane, the same operations in the same
** order (issue 17, bones: the 2×2 in four lanes, the translation in two) */
__attribute__((always_inline)) static inline void walk_mul(ob_mat *restrict w, const ob_mat *P, const ob_trig *t,
                                                           const ob_pose *ap)
{
    ob_v4d T, Pm;
    memcpy(&T, &t->a, sizeof T);     /* a, b, c, d */
    memcpy(&Pm, &P->a, sizeof Pm);   /* a, b, c, d */
    ob_v2d sc = ob_v2_load(&ap->scale_x), xy = ob_v2_load(&ap->x), pt = ob_v2_load(&P->x);
    ob_v4d S = {sc[0], sc[1], sc[0], sc[1]}, XY = {xy[0], xy[1], xy[0], xy[1]};
    ob_v4d L = T * S;  /* localMatrix a, b, c, d */
    ob_v4d A = OB_SHUF4(Pm, Pm, 0, 0, 2, 2), B = OB_SHUF4(Pm, Pm, 1, 1, 3, 3);
    ob_v4d L01 = OB_SHUF4(L, L, 0, 1, 0, 1), L23 = OB_SHUF4(L, L, 2, 3, 2, 3);
    ob_v4d R = A * L01 + B * L23;
    ob_v4d Q = Pm * XY;  /* P.a·x, P.b·y, P.c·x, P.d·y */
    ob_v2d q0 = {Q[0], Q[2]}, q1 = {Q[1], Q[3]};
    ob_v2d tr = (q0 + q1) + pt;
    memcpy(&w->a, &R, sizeof R);
    ob_v2_store(&w->x, tr);
}

/* pass 2, the walk: the update cache in order (the pointers in locals: the
** calls cannot move them) */
OB_TRIG_CLONES static void spine_walk(ob_instance *inst)
{
    if (!inst->walk_built || inst->walk_gen != inst->spine_cache_gen) spine_walk_plan(inst);
    const int32_t *plan = inst->walk_plan;
    const uint8_t *inherit = inst->inherit;
    char *world = (char *)inst->world;
    const char *applied = (const char *)inst->applied;
    char *trig = (char *)inst->trig;
    for (int32_t k = 0, n = inst->spine_cache_count; k < n; k++) {
        const int32_t *step = &plan[4 * k];
        int32_t e = step[0];
        if (__builtin_expect(e >= 0 && e < WALK_LIVE, 1)) {  /* the common case */
            walk_mul((ob_mat *)(world + step[1]), (const ob_mat *)(world + step[3]), (const ob_trig *)(trig + step[2]),
                     (const ob_pose *)(applied + step[2]));
            continue;
        }
        if (e >= WALK_LIVE && e < WALK_CHECK) {
            if (inherit[e - WALK_LIVE] == OB_INHERIT_NORMAL)
                walk_mul((ob_mat *)(world + step[1]), (const ob_mat *)(world + step[3]),
                         (const ob_trig *)(trig + step[2]), (const ob_pose *)(applied + step[2]));
            else
                ob_bone_world_spine(inst, e - WALK_LIVE);
            continue;
        }
        if (e < 0) {
            ob_constraint_apply_spine(inst, -1 - e);
            continue;
        }
        if (e == WALK_CHECK + WALK_SLOW) {
            ob_bone_world_spine(inst, step[1]);
            continue;
        }
        int32_t b = e & (WALK_CHECK - 1);
        if (step[3] < 0) {  /* a root: root·localMatrix whatever its inherit (ob_bone_world_spine) */
            ob_trig *t = (ob_trig *)(trig + step[2]);
            const ob_pose *ap = (const ob_pose *)(applied + step[2]);
            ob_trig_update(ap, t);
            walk_mul((ob_mat *)(world + step[1]), &inst->root, t, ap);
        } else if (inherit[b] == OB_INHERIT_NORMAL) {  /* a constrained bone */
            ob_trig *t = (ob_trig *)(trig + step[2]);
            const ob_pose *ap = (const ob_pose *)(applied + step[2]);
            ob_trig_update(ap, t);
            walk_mul((ob_mat *)(world + step[1]), (const ob_mat *)(world + step[3]), t, ap);
        } else {
            ob_bone_world_spine(inst, b);
        }
    }
}
#undef WALK_SLOW
#undef WALK_LIVE
#undef WALK_CHECK

/* spine-core 4.2 Skeleton.updateWorldTransform: applied = local for every
** bone, then the update cache in order */
static void spine_update_world_transform(ob_instance *inst)
{
    const ob_document *doc = inst->doc;
    inst->physics_pending = 0;  /* spine physics reads the clock (skeleton.time) */
    const ob_pose *copy = inst->local;  /* applied = local: in the trig pass, without the layer */
    ob_constraints_spine_frame(inst);  /* issue 17 (cons): which applied poses are read */
    if (inst->layer) {
        memcpy(inst->applied, inst->local, (size_t)doc->bone_count * sizeof *inst->applied);
        copy = NULL;
        inst->pass_all = 1;  /* the layer writes any bone's applied pose: next frame copies every row */
        /* the instance layer (layer.c) on the applied pose before the constraints, as in
        ** the OpenBone pipeline; the worlds it reads come through the deferred updates
        ** (ob_bone_update_world: this model's formulas); the cache then recomputes all */
        for (int32_t i = 0; i < doc->bone_count; i++) inst->stale[i] = inst->bone_active[i];
        ob_layer_apply(inst);
        ob_bones_flush(inst);
        memset(inst->sync_pending, 0, (size_t)doc->bone_count);
        memset(inst->sync_pending_children, 0, (size_t)doc->bone_count * sizeof *inst->sync_pending_children);
    }
    bones_trig_pass(inst, copy);
    spine_walk(inst);
}

double ob_unit_scale_x(const ob_instance *inst) { return inst->doc->reference_scale / 100 * inst->scale_x; }
double ob_unit_scale_y(const ob_instance *inst) { return inst->doc->reference_scale / 100 * inst->scale_y; }

void ob_instance_update_world_transform(ob_instance *inst)
{
    const ob_document *doc = inst->doc;
    ob_sliders_apply(inst);  /* §7.5: first, on the local pose */
    if (doc->pose_model == OB_POSE_MODEL_SPINE) {
        spine_update_world_transform(inst);
        if (inst->particle_pending > 0) ob_particles_advance(inst, inst->particle_pending); /* §8.8 */
        inst->particle_pending = 0;
        return;
    }
    for (int32_t i = 0; i < doc->bone_count; i++) {
        if (!inst->bone_active[i]) continue;  /* §3.3: world left as it was */
        inst->applied[i] = inst->local[i];  /* resetApplied */
        inst->stale[i] = 1;  /* boneWorld, deferred like updateSubtree: a bone a constraint
                             ** moves is computed once, after it moved, not before as well */
    }
    bones_trig_pass(inst, NULL);  /* issue 17: pass 1 of the two-pass bone pipeline */
    /* the instance layer (layer.c): host offsets, joint limits and reaches on
    ** the applied pose, after the rig's own animation, before the constraints */
    if (inst->layer) ob_layer_apply(inst);
    double dt = inst->physics_pending;
    inst->physics_pending = 0;
    for (int32_t k = 0; k < doc->constraint_count; k++) {
        int32_t c = inst->con_order[k];
        if (!inst->con_active[c]) continue;  /* §3.3: skipped, the frame's dt still consumed */
        ob_constraint_apply(inst, c, dt);    /* §7.1-§7.4 */
    }
    ob_bones_flush(inst);  /* the deferred updateSubtree calls */
    /* syncs nobody needed: dropped (the applied pose is internal, reset next frame) */
    memset(inst->sync_pending, 0, (size_t)doc->bone_count);
    memset(inst->sync_pending_children, 0, (size_t)doc->bone_count * sizeof *inst->sync_pending_children);
    if (inst->particle_pending > 0) ob_particles_advance(inst, inst->particle_pending); /* §8.8 */
    inst->particle_pending = 0;
}

/* ---- §3 the per-frame pipeline ------------------------------------- */

ob_status ob_instance_advance(ob_instance *inst, double dt)
{
    if (!(fabs(dt) <= OB_MAX_DT)) return OB_ERR_ARGUMENT;  /* NaN, ±inf, enormous: refused (issue 21) */
    if (ob_sm_advance(inst, dt)) return OB_OK;  /* §9.1 replaces the pipeline */
    ob_anim_state_update(inst, dt);        /* §6 update */
    ob_instance_set_to_setup_pose(inst);   /* §3.1 */
    ob_anim_state_apply(inst);             /* §6 apply */
    ob_skeleton_update(inst, dt);
    ob_instance_update_world_transform(inst);
    return OB_OK;
}

/* skeleton.update(dt): §12 times summed exactly as given */
void ob_skeleton_update(ob_instance *inst, double dt)
{
    if (dt > 0) {
        inst->clock += dt;
        inst->physics_pending += dt;
        inst->particle_pending += dt;
    }
}

const double *ob_instance_world(const ob_instance *inst) { return (const double *)inst->world; }
const uint8_t *ob_instance_active_bones(const ob_instance *inst) { return inst->bone_active; }
double ob_instance_time(const ob_instance *inst) { return inst->clock; }
