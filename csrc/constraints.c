/* constraints.c: the §7 constraints concern: its state (physics state, the
** §7.2 setup-world cache, path and slider scratch, all sized here once) and
** the per-constraint dispatch called by updateWorldTransform (§3.2). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "constraints.h"
#include "curve_spine.h"

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

/* issue 17 (physics): physics_with / physics_prev as the member list each
** entry runs (ob_apply_physics_spine): 0 for a group's earlier members, else
** the chain of physics_prev back from it, at most OB_PHYSICS_GROUP */
static void physics_group_lists(ob_constraint_state *s, int32_t nc)
{
    for (int32_t c = 0; c < nc; c++) {
        int32_t *g = &s->physics_group[(size_t)c * (1 + OB_PHYSICS_GROUP)], m[OB_PHYSICS_GROUP], k = OB_PHYSICS_GROUP;
        if (s->physics_with[c] == -2) {
            g[0] = 0;
            continue;
        }
        for (int32_t q = c; q >= 0 && k > 0; q = s->physics_prev[q]) m[--k] = q;  /* the first member first */
        g[0] = OB_PHYSICS_GROUP - k;
        for (int32_t i = k; i < OB_PHYSICS_GROUP; i++) g[1 + i - k] = m[i];
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
    /* §7.2 setupWorld: read only by the OpenBone model's world-relative transform
    ** constraints (transform.c), so only its documents with one keep it (issue 17: memory) */
    int need_setup_world = 0;
    for (int32_t c = 0; c < doc->constraint_count && doc->pose_model != OB_POSE_MODEL_SPINE; c++)
        need_setup_world |= doc->constraints[c].kind == OB_CON_TRANSFORM;
    s->setup_world = calloc(need_setup_world ? nbones : 1, sizeof *s->setup_world);
    s->path_world = calloc(2 * (size_t)nv + 2, sizeof *s->path_world);
    s->path_vertices = calloc(2 * (size_t)nv + 2, sizeof *s->path_vertices);
    s->path_table = calloc(32 * ((size_t)nv / 3 + 1) + 1, sizeof *s->path_table);
    ob_path_basis(s->path_basis);
    s->path_lengths = calloc((size_t)nb + 1, sizeof *s->path_lengths);
    s->path_dist = calloc((size_t)nb + 2, sizeof *s->path_dist);
    s->path_points = calloc((size_t)nb + 2, sizeof *s->path_points);
    s->path_bones = calloc((size_t)nb + 1, sizeof *s->path_bones);
    s->spine_positions = calloc(3 * (size_t)nb + 5, sizeof *s->spine_positions);
    s->path_bone_k = calloc((size_t)nb + 1, sizeof *s->path_bone_k);
    s->path_trig = calloc(12 * ((size_t)nb + 4), sizeof *s->path_trig);
    s->path_kind = calloc((size_t)nb + 1, 1);
    /* §7.5: the additive sliders' scratch, only for a document with sliders (issue 17: memory) */
    size_t nsave = doc->slider_count > 0 ? nbones : 1;
    s->saved_pose = calloc(nsave, sizeof *s->saved_pose);
    s->saved_inherit = calloc(nsave, 1);
    s->keyed_inherit = calloc(nsave, 1);
    size_t nflags = 1;
    for (int32_t c = 0; c < doc->constraint_count; c++)
        nflags += doc->constraints[c].bone_count > 0 ? (size_t)doc->constraints[c].bone_count : 1;
    s->applied_off = calloc(ncons, sizeof *s->applied_off);
    s->applied_need = malloc(nflags);
    s->applied_read = calloc(nbones, 1);
    s->path_unique = calloc(ncons, 1);
    s->transform_offset = calloc(4 * ncons, sizeof *s->transform_offset);
    s->physics_with = malloc(ncons * sizeof *s->physics_with);
    s->physics_prev = malloc(ncons * sizeof *s->physics_prev);
    s->physics_group = malloc(ncons * (1 + OB_PHYSICS_GROUP) * sizeof *s->physics_group);
    s->ik_os = calloc(4 * ncons, sizeof *s->ik_os);  /* none set */
    s->ik_bones = calloc(5 * ncons, sizeof *s->ik_bones);
    size_t nlisted = 1;
    for (int32_t c = 0; c < doc->constraint_count; c++)
        nlisted += doc->constraints[c].bone_count > 0 ? (size_t)doc->constraints[c].bone_count : 0;
    s->path_list = calloc(nlisted, sizeof *s->path_list);
    s->path_list_k = calloc(nlisted, sizeof *s->path_list_k);
    s->path_list_off = calloc(ncons, sizeof *s->path_list_off);
    s->path_list_n = calloc(ncons, sizeof *s->path_list_n);
    s->physics_const = calloc(ncons, sizeof *s->physics_const);
    if (!s->applied_off || !s->applied_need || !s->applied_read || !s->path_unique ||
        !s->transform_offset || !s->physics_with || !s->physics_prev || !s->physics_group || !s->ik_os || !s->physics_const ||
        !s->ik_bones || !s->path_list || !s->path_list_k || !s->path_list_off || !s->path_list_n)
        return -1;
    for (int32_t c = 0, off = 0; c < doc->constraint_count; c++) {  /* issue 17 (ik): ob_apply_path_spine's bones */
        const ob_constraint_data *cd = &doc->constraints[c];
        s->path_list_off[c] = off;
        for (int32_t k = 0; k < cd->bone_count; k++)
            if (cd->bones[k] >= 0) {
                s->path_list[off + s->path_list_n[c]] = cd->bones[k];
                s->path_list_k[off + s->path_list_n[c]++] = k;
            }
        off += cd->bone_count > 0 ? cd->bone_count : 0;
    }
    for (size_t c = 0; c < ncons; c++) s->physics_with[c] = -1, s->physics_prev[c] = -1;
    physics_group_lists(s, (int32_t)ncons);
    for (int32_t c = 0; c < doc->constraint_count; c++) {  /* the angles spine_world turns by (transform.c) */
        double *o = s->transform_offset + 4 * (size_t)c, r = doc->constraints[c].offset_rotation;
        ob_sincos(r * OB_DEG, &o[0], &o[1]);
        ob_sincos(r * -OB_DEG, &o[2], &o[3]);
    }
    for (int32_t c = 0; c < doc->constraint_count; c++) {  /* issue 17 (ik): ob_apply_ik_spine's bones */
        const ob_constraint_data *cd = &doc->constraints[c];
        int32_t *ib = s->ik_bones + 5 * (size_t)c;
        ib[0] = ib[1] = -1;
        for (int32_t k = 0; k < cd->bone_count; k++)
            if (cd->bones[k] >= 0) {
                if (ib[0] < 0) ib[0] = cd->bones[k], ib[2] = k;
                ib[1] = cd->bones[k];
                ib[3] = k;
                ib[4]++;
            }
    }
    for (int32_t c = 0; c < doc->constraint_count; c++) {  /* physics.c's per-document values */
        const ob_constraint_data *cd = &doc->constraints[c];
        if (cd->kind != OB_CON_PHYSICS || cd->bone < 0 || cd->bone >= doc->bone_count) continue;
        ob_physics_const *k = &s->physics_const[c];
        k->step = 1 / cd->fps;
        if (!(k->step > 0)) k->step = INFINITY;
        k->length = doc->bones[cd->bone].length;
        k->h = k->length / doc->reference_scale;
        k->rs = cd->protate + cd->pshear_x;
        k->x = cd->px > 0;
        k->y = cd->py > 0;
        k->rsx = cd->protate > 0 || cd->pshear_x > 0;
        k->scale_x = cd->pscale_x > 0;
    }
    for (int32_t c = 0; c < doc->constraint_count; c++) {  /* applied_read: a scratch of bone marks here */
        const ob_constraint_data *cd = &doc->constraints[c];
        int unique = 1;
        for (int32_t k = 0; k < cd->bone_count; k++)
            if (cd->bones[k] >= 0 && cd->bones[k] < doc->bone_count) {
                unique &= !s->applied_read[cd->bones[k]];
                s->applied_read[cd->bones[k]] = 1;
            }
        for (int32_t k = 0; k < cd->bone_count; k++)
            if (cd->bones[k] >= 0 && cd->bones[k] < doc->bone_count) s->applied_read[cd->bones[k]] = 0;
        s->path_unique[c] = (uint8_t)unique;
    }
    memset(s->applied_need, 1, nflags);  /* until analysed: every applied pose computed */
    s->applied_count = (int32_t)nflags;
    for (int32_t c = 0, off = 0; c < doc->constraint_count; c++) {
        s->applied_off[c] = off;
        off += doc->constraints[c].bone_count > 0 ? doc->constraints[c].bone_count : 1;
    }
    if (!s->physics || !s->spine_physics || !s->setup_world || !s->path_world || !s->path_vertices || !s->path_table ||
        !s->path_lengths || !s->path_dist || !s->path_points || !s->path_bones || !s->spine_positions || !s->path_bone_k || !s->path_trig || !s->path_kind || !s->saved_pose ||
        !s->saved_inherit || !s->keyed_inherit)
        return -1;  /* freed by ob_constraints_free via ob_instance_free */
    if (need_setup_world) setup_world(doc, s->setup_world);  /* §7.2: computed once and cached */
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
    free(s->path_bone_k); free(s->path_trig); free(s->path_kind);
    free(s->saved_pose); free(s->saved_inherit); free(s->keyed_inherit);
    free(s->applied_off); free(s->applied_need); free(s->applied_read); free(s->path_unique);
    free(s->transform_offset); free(s->physics_with); free(s->physics_prev); free(s->physics_group); free(s->ik_os); free(s->physics_const);
    free(s->ik_bones); free(s->path_list); free(s->path_list_k); free(s->path_list_off); free(s->path_list_n);
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
    switch (inst->doc->constraints[c].kind) {  /* issue 17 (ik): idle IK (mix 0) and transforms: no call */
    case OB_CON_IK:
        if (inst->con_values[(size_t)c * OB_CV_COUNT + OB_CV_MIX] != 0) ob_apply_ik_spine(inst, c);
        break;
    case OB_CON_TRANSFORM:
        if (!ob_transform_spine_idle(&inst->con_values[(size_t)c * OB_CV_COUNT])) ob_apply_transform_spine(inst, c);
        break;
    case OB_CON_PATH: ob_apply_path_spine(inst, c); break;
    case OB_CON_PHYSICS: ob_apply_physics_spine(inst, c); break;
    }
}

/* issue 17 (cons): which updateAppliedTransform calls of the Spine pose
** model can matter.  A constraint that edits worlds (transform in world
** space, path, physics) re-derives each edited bone's applied pose; only
** these read applied poses later in the update cache: a bone entry (its
** world from its applied pose), IK (its first and last bones) and a local
** transform constraint (its target and its bones).  Scanning the cache
** backwards, a write is needed when some later entry reads that bone.  No
** write is taken as overwriting another (a later writer may skip at run
** time), so the flags are a superset of the needed ones.  Recomputed when
** the cache was rebuilt or restored (a skin change, a snapshot): its
** generation counter, inst->spine_cache_gen, moved. */
static void spine_applied_analyse(ob_instance *inst)
{
    const ob_document *doc = inst->doc;
    ob_constraint_state *s = inst->cons;
    memset(s->applied_read, 0, (size_t)doc->bone_count);
    for (int32_t c = 0; c < doc->constraint_count; c++) {
        const ob_constraint_data *cd = &doc->constraints[c];
        memset(s->applied_need + s->applied_off[c], 0, cd->bone_count > 0 ? (size_t)cd->bone_count : 1);
    }
    for (int32_t k = inst->spine_cache_count - 1; k >= 0; k--) {
        int32_t e = inst->spine_run[k];
        if (e >= 0) {
            if (e < doc->bone_count) s->applied_read[e] = 1;
            continue;
        }
        int32_t c = -1 - e;
        if (c >= doc->constraint_count) continue;
        const ob_constraint_data *cd = &doc->constraints[c];
        uint8_t *need = s->applied_need + s->applied_off[c];
        switch (cd->kind) {
        case OB_CON_PHYSICS:
            if (cd->bone >= 0) need[0] |= s->applied_read[cd->bone];
            break;
        case OB_CON_PATH:
            for (int32_t j = 0; j < cd->bone_count; j++)
                if (cd->bones[j] >= 0) need[j] |= s->applied_read[cd->bones[j]];
            break;
        case OB_CON_TRANSFORM:
            if (cd->local) {  /* reads its target's and its bones' applied poses; writes none */
                if (cd->target >= 0) s->applied_read[cd->target] = 1;
                for (int32_t j = 0; j < cd->bone_count; j++)
                    if (cd->bones[j] >= 0) s->applied_read[cd->bones[j]] = 1;
            } else {
                for (int32_t j = 0; j < cd->bone_count; j++)
                    if (cd->bones[j] >= 0) need[j] |= s->applied_read[cd->bones[j]];
            }
            break;
        case OB_CON_IK:  /* reads its bones' applied poses (every listed one: a superset), then
                          ** writes them (issue 17 (ik): a world made without the pose skips it) */
            for (int32_t j = 0; j < cd->bone_count; j++)
                if (cd->bones[j] >= 0) need[j] |= s->applied_read[cd->bones[j]];
            for (int32_t j = 0; j < cd->bone_count; j++)
                if (cd->bones[j] >= 0) s->applied_read[cd->bones[j]] = 1;
            break;
        }
    }
}

/* issue 17 (cons): physics constraints grouped (up to OB_PHYSICS_GROUP) to
** run in lockstep, their trig in shared calls (physics.c), all at the place
** of the group's last entry in the run order (spine_schedule).  A physics
** entry P may wait for a later one when nothing from P to there reads what P
** changes or changes what P reads
** (P reads and writes its bone's world; its applied pose reads the parent's
** world): no bone entry between and no later member's bone is P's bone or
** its parent, or a child of P's bone.  Then running P at the last member's
** place gives every entry the same inputs.  The cache is scanned once,
** greedily: a group ends at the first entry that breaks this for one of its
** members, or at a constraint entry that is not a free physics one.  A
** constraint listed twice in the cache (never, but a snapshot restores the
** cache) runs alone. */
static int physics_conflict(const ob_document *doc, int32_t member_bone, int32_t b)
{
    return b == member_bone || b == doc->bones[member_bone].parent || doc->bones[b].parent == member_bone;
}

static void spine_physics_groups(ob_instance *inst)
{
    const ob_document *doc = inst->doc;
    ob_constraint_state *s = inst->cons;
    int32_t nb = doc->bone_count, nc = doc->constraint_count, n = inst->spine_cache_count;
    int32_t *seen = s->physics_prev;  /* first a count of each constraint's entries */
    for (int32_t c = 0; c < nc; c++) s->physics_with[c] = -1, seen[c] = 0;
    for (int32_t k = 0; k < n; k++)
        if (inst->spine_run[k] < 0 && -1 - inst->spine_run[k] < nc) seen[-1 - inst->spine_run[k]]++;
    for (int32_t c = 0; c < nc; c++) {  /* −3: not grouped (once: cleared below) */
        const ob_constraint_data *cd = &doc->constraints[c];
        s->physics_with[c] = cd->kind == OB_CON_PHYSICS && seen[c] == 1 && cd->bone >= 0 && cd->bone < nb ? -1 : -3;
        seen[c] = -1;
    }
    for (int32_t k = 0; k < n; k++) {
        int32_t e = inst->spine_run[k];
        if (e >= 0 || -1 - e >= nc || s->physics_with[-1 - e] != -1 || s->physics_prev[-1 - e] != -1) continue;
        int32_t member[OB_PHYSICS_GROUP], m = 0, j = k;
        member[m++] = -1 - e;
        for (j = k + 1; j < n && m < OB_PHYSICS_GROUP; j++) {
            int32_t f = inst->spine_run[j], b;
            if (f >= 0) {
                b = f;
                if (b >= nb) break;
            } else {
                int32_t q = -1 - f;
                if (q >= nc || s->physics_with[q] != -1) break;
                b = doc->constraints[q].bone;
            }
            int ok = 1;
            for (int32_t i = 0; i < m && ok; i++) ok = !physics_conflict(doc, doc->constraints[member[i]].bone, b);
            if (!ok) break;
            if (f < 0) member[m++] = -1 - f;
        }
        for (int32_t i = 0; i < m; i++) {
            s->physics_with[member[i]] = i < m - 1 ? -2 : -1;
            s->physics_prev[member[i]] = i > 0 ? member[i - 1] : -1;
        }
    }
    for (int32_t c = 0; c < nc; c++)
        if (s->physics_with[c] == -3) s->physics_with[c] = -1;
}

/* issue 17 (physics): the order the walk runs the cache in (spine_run).  A
** chain of physics groups can only be as long as the cache lets its members
** wait for each other, and celestial-circus's cache, where a physics entry is
** followed by its bone's children (sortReset) before the next one, gave groups
** of 1.9 members on average (16 for 30 constraints): the groups' trig rounds,
** latency-bound, were half of its frame.  So, from each physics entry P, the
** entries after it are read in order, up to a barrier (a constraint entry that
** is not physics, or an index out of range) or until P's group has
** OB_PHYSICS_GROUP members: an entry that depends on P, on a later member or on
** an entry already put off (reads a bone one of them writes, or writes a bone
** one of them reads) is put off, after them all, in its order; any other entry
** keeps its place, and a physics one joins P.  A bone entry reads its bone and
** its parent's world and writes its bone's; a physics entry the same (its
** applied pose reads the parent's world).  Each entry then reads what it read
** in the cache's order, so every value is the same bits; the groups are then
** made on this order (spine_physics_groups) as on any.  Celestial: 13 groups,
** the fewest its dependences allow (a chain of six, one behind three
** barriers, then 23 constraints in six).  The cache itself stays as built
** (snapshots keep it; a restored one is scheduled again). */
#define SCHED_DEFER 32
static int32_t sched_bone(const ob_document *doc, int32_t e, int *phys)
{
    *phys = 0;
    if (e >= 0) return e < doc->bone_count ? e : -1;
    if (-1 - e >= doc->constraint_count) return -1;
    const ob_constraint_data *cd = &doc->constraints[-1 - e];
    if (cd->kind != OB_CON_PHYSICS || cd->bone < 0 || cd->bone >= doc->bone_count) return -1;
    *phys = 1;
    return cd->bone;
}

static void spine_schedule(ob_instance *inst)
{
    const ob_document *doc = inst->doc;
    const int32_t *cache = inst->spine_cache;
    int32_t *run = inst->spine_run, n = inst->spine_cache_count, out = 0, k = 0;
    if (run == cache) return;
    uint8_t *mark = inst->cons->applied_read;  /* scratch (spine_applied_analyse refills it): 1 written, 2 read */
    memset(mark, 0, (size_t)doc->bone_count);
    while (k < n) {
        int phys;
        int32_t e = cache[k++], b = sched_bone(doc, e, &phys);
        run[out++] = e;
        if (!phys) continue;
        int32_t defer[SCHED_DEFER], touched[2 * (OB_PHYSICS_GROUP + SCHED_DEFER)], nd = 0, nt = 0, m = 1;
#define SCHED_MARK(bone)                                                            \
        do {                                                                        \
            int32_t p_ = doc->bones[bone].parent;                                   \
            mark[bone] |= 3;                                                        \
            touched[nt++] = bone;                                                   \
            if (p_ >= 0) { mark[p_] |= 2; touched[nt++] = p_; }                    \
        } while (0)
        SCHED_MARK(b);
        while (k < n && m < OB_PHYSICS_GROUP && nd < SCHED_DEFER) {
            int ph;
            int32_t f = cache[k], c = sched_bone(doc, f, &ph);
            if (c < 0) break;  /* a barrier keeps its place, and so everything after it */
            int32_t p = doc->bones[c].parent;
            k++;
            if (mark[c] || (p >= 0 && (mark[p] & 1))) {
                defer[nd++] = f;
                SCHED_MARK(c);
            } else {
                run[out++] = f;
                if (ph) {
                    m++;
                    SCHED_MARK(c);
                }
            }
        }
#undef SCHED_MARK
        for (int32_t i = 0; i < nd; i++) run[out++] = defer[i];
        for (int32_t i = 0; i < nt; i++) mark[touched[i]] = 0;
    }
}
#undef SCHED_DEFER

void ob_constraints_spine_frame(ob_instance *inst)
{
    ob_constraint_state *s = inst->cons;
    int32_t n = inst->spine_cache_count;
    if (s->cache_seen && s->cache_gen_seen == inst->spine_cache_gen) return;
    if (n < 0 || n > inst->spine_cache_capacity) {  /* (never: the cache is bounded) every pose computed */
        memset(s->applied_need, 1, (size_t)s->applied_count);
        for (int32_t c = 0; c < inst->doc->constraint_count; c++) s->physics_with[c] = -1, s->physics_prev[c] = -1;
        physics_group_lists(s, inst->doc->constraint_count);
        if (inst->spine_run != inst->spine_cache && n > 0)
            memcpy(inst->spine_run, inst->spine_cache, (size_t)inst->spine_cache_capacity * sizeof *inst->spine_run);
        s->cache_seen = 0;
        return;
    }
    spine_schedule(inst);
    spine_applied_analyse(inst);
    spine_physics_groups(inst);
    physics_group_lists(s, inst->doc->constraint_count);
    s->cache_gen_seen = inst->spine_cache_gen;
    s->cache_seen = 1;
}
