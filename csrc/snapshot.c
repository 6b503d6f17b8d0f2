/* snapshot.c: an instance's whole state as bytes, and copies of instances
** (ob_instance_copy, ob_instance_snapshot, ob_instance_restore).
**
** One walk visits every piece of mutable state (instance.h and each
** concern's struct) in a fixed order; it writes (or only measures) a
** snapshot, or applies one to another instance of the same document,
** checking counts and indices as it reads.  What a concern derives from
** the document alone (setup values, children lists, caches built at
** creation) and per-call scratch are not visited.  A copy is a snapshot taken with raw string pointers (the
** document is shared) and applied to a fresh instance; a portable snapshot
** (pickling) carries strings by content, which the restored instance keeps
** in its own arena.  Strings are only ever compared by content (audio tags)
** or reported, so either form behaves the same.
**
** Layout: "OBST", version, the document's shape (counts), the machine index,
** the payload length, an FNV-1a 64 checksum of the payload, the payload. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "include/openbone.h"
#include "animation_state.h"
#include "constraints.h"
#include "curve_spine.h"
#include "drawlist.h"
#include "instance.h"
#include "layer.h"
#include "particles.h"
#include "state_machine.h"
#include "scripts.h"

#define SNAP_MAGIC "OBST"
#define SNAP_VERSION 2u
#define SNAP_SHAPE 12
#define SNAP_HEADER (4 + 4 + 4 * SNAP_SHAPE + 4 + 8 + 8)

enum { SER_WRITE, SER_APPLY };

typedef struct ser {
    int mode;
    int portable;                /* strings by content, else raw pointers */
    unsigned char *buf;          /* SER_WRITE: NULL = measure only */
    size_t cap, pos, len;        /* len: bytes available (reading) */
    int failed;                  /* 1 truncated/corrupt, 2 out of memory */
    const char *why;
    ob_instance *inst;           /* the instance walked */
} ser;

static void fail(ser *s, int kind, const char *why)
{
    if (!s->failed) {
        s->failed = kind;
        s->why = why;
    }
}

/* n bytes at p: written, or read (applied when SER_APPLY) */
static void blob(ser *s, void *p, size_t n)
{
    if (s->failed || n == 0) return;
    if (s->mode == SER_WRITE) {
        if (s->buf && s->pos + n <= s->cap) memcpy(s->buf + s->pos, p, n);
        s->pos += n;
        return;
    }
    if (n > s->len - s->pos) {
        fail(s, 1, "the snapshot is truncated");
        return;
    }
    if (s->mode == SER_APPLY) memcpy(p, s->buf + s->pos, n);
    s->pos += n;
}

#define V(s, x) blob((s), &(x), sizeof(x))
#define A(s, p, n) blob((s), (p), (size_t)(n) * sizeof *(p))

/* A count: written as is; read, it must lie in [0, max] (the receiving
** buffer grows to it when max allows more than it holds). */
static int32_t count(ser *s, int32_t *c, int32_t max)
{
    int32_t v = *c;
    blob(s, &v, sizeof v);
    if (s->failed) return 0;
    if (v < 0 || v > max) {
        fail(s, 1, "the snapshot is corrupt (a count out of range)");
        return 0;
    }
    if (s->mode == SER_APPLY) *c = v;
    return v;
}

/* Makes *arr hold n elements (apply only; restore time may allocate). */
static void reserve(ser *s, void **arr, int32_t *capacity, int32_t n, size_t size)
{
    if (s->failed || s->mode != SER_APPLY || n <= *capacity) return;
    void *p = realloc(*arr, (size_t)n * size);
    if (!p) {
        fail(s, 2, "out of memory");
        return;
    }
    *arr = p;
    *capacity = n;
}

/* A string field (NULL allowed). */
static void str(ser *s, const char **p)
{
    if (!s->portable) {
        blob(s, (void *)p, sizeof *p);
        return;
    }
    int32_t n = -1;
    if (s->mode == SER_WRITE && *p) n = (int32_t)strlen(*p);
    blob(s, &n, sizeof n);
    if (s->failed || n < 0) {
        if (s->mode == SER_APPLY) *p = NULL;
        return;
    }
    if (s->mode == SER_WRITE) {
        blob(s, (void *)*p, (size_t)n);
        return;
    }
    if ((size_t)n > s->len - s->pos) {
        fail(s, 1, "the snapshot is truncated");
        return;
    }
    if (s->mode == SER_APPLY) {
        char *d = ob_arena_strndup(&s->inst->restored, (const char *)s->buf + s->pos, (size_t)n);
        if (!d) {
            fail(s, 2, "out of memory");
            return;
        }
        *p = d;
    }
    s->pos += (size_t)n;
}

/* An owned, malloc'd string (input values, text overrides): by content. */
static void owned_str(ser *s, char **p, size_t *capacity)
{
    int32_t n = -1;
    if (s->mode == SER_WRITE && *p) n = (int32_t)strlen(*p);
    blob(s, &n, sizeof n);
    if (s->failed) return;
    if (n < 0) {
        if (s->mode == SER_APPLY) {
            free(*p);
            *p = NULL;
            if (capacity) *capacity = 0;
        }
        return;
    }
    if (s->mode == SER_WRITE) {
        blob(s, *p, (size_t)n);
        return;
    }
    if ((size_t)n > s->len - s->pos) {
        fail(s, 1, "the snapshot is truncated");
        return;
    }
    if (s->mode == SER_APPLY) {
        size_t need = (size_t)n + 1, have = capacity ? *capacity : 0;
        if (!*p || need > have) {
            char *d = realloc(*p, need);
            if (!d) {
                fail(s, 2, "out of memory");
                return;
            }
            *p = d;
            if (capacity) *capacity = need;
        }
        memcpy(*p, s->buf + s->pos, (size_t)n);
        (*p)[n] = 0;
    }
    s->pos += (size_t)n;
}

static void audio(ser *s, ob_audio_director *a)
{
    V(s, a->now);
    V(s, a->next_id);
    int32_t np = count(s, &a->playing_count, 1 << 20);
    reserve(s, (void **)&a->playing, &a->playing_capacity, np, sizeof *a->playing);
    for (int32_t i = 0; i < np && !s->failed; i++) {
        ob_audio_playing *p = &a->playing[i];
        V(s, p->id);
        V(s, p->sound);
        V(s, p->loop);
        V(s, p->end);
        V(s, p->fade_out);
        V(s, p->owner);
        str(s, &p->tag.prefix);
        str(s, &p->tag.str);
        V(s, p->tag.num);
    }
    int32_t nc = count(s, &a->cmd_count, 1 << 20);
    reserve(s, (void **)&a->cmds, &a->cmd_capacity, nc, sizeof *a->cmds);
    V(s, a->cmd_reported);
    V(s, a->dropped);
    if (s->mode == SER_APPLY && (a->cmd_reported < 0 || a->cmd_reported > nc))
        fail(s, 1, "the snapshot is corrupt (audio report)");
    for (int32_t i = 0; i < nc && !s->failed; i++) {
        ob_audio_cmd *c = &a->cmds[i];
        V(s, c->type);
        V(s, c->id);
        str(s, &c->sound);
        str(s, &c->asset);
        str(s, &c->bus);
        V(s, c->volume);
        V(s, c->rate);
        V(s, c->fade_in);
        V(s, c->loop);
        str(s, &c->source.kind);
        str(s, &c->source.name);
        V(s, c->fade);
        V(s, c->duration);
        V(s, c->muted);
    }
}

static void pool(ser *s, ob_sm_pool *p)
{
    size_t n = p->length;
    V(s, n);
    if (s->failed) return;
    if (n > s->len - s->pos && s->mode != SER_WRITE) {
        fail(s, 1, "the snapshot is truncated");
        return;
    }
    if (s->mode == SER_APPLY && n > p->capacity) {
        char *d = realloc(p->data, n);
        if (!d) {
            fail(s, 2, "out of memory");
            return;
        }
        p->data = d;
        p->capacity = n;
    }
    if (s->mode == SER_APPLY) p->length = n;
    blob(s, p->data, n);
}

/* Growable record arrays of the machine: count, then the records. */
#define RECORDS(s, arr, cnt, capacity)                                              \
    do {                                                                           \
        int32_t n_ = count((s), &(cnt), 1 << 24);                                  \
        reserve((s), (void **)&(arr), &(capacity), n_, sizeof *(arr));             \
        A((s), (arr), n_);                                                         \
    } while (0)

static void machine(ser *s, ob_sm_state *sm)
{
    const ob_machine_data *mc = sm->machine;
    const ob_document *doc = s->inst->doc;
    V(s, sm->started);
    V(s, sm->elapsed);
    V(s, sm->next_serial);
    for (int32_t i = 0; i < mc->input_count; i++) {
        ob_sm_value *v = &sm->values[i];
        V(s, v->kind);
        V(s, v->number);
        owned_str(s, &v->string, &v->capacity);
    }
    A(s, sm->fired, mc->input_count);
    A(s, sm->input_numbers, mc->input_count);
    A(s, sm->input_number_set, mc->input_count);
    for (int32_t l = 0; l < mc->layer_count; l++) {
        ob_sm_layer *ly = &sm->layers[l];
        V(s, ly->current);
        V(s, ly->from);
        V(s, ly->mix_time);
        V(s, ly->mix_duration);
        V(s, ly->exited);
        int32_t st_count = mc->layers[l].state_count;
        if (s->mode == SER_APPLY && (ly->current.state < -1 || ly->current.state >= st_count ||
                                     ly->from.state < -1 || ly->from.state >= st_count))
            fail(s, 1, "the snapshot is corrupt (a state index)");
    }
    int32_t np = count(s, &sm->pointer_count, OB_SM_MAX_POINTER);
    A(s, sm->pointers, np);
    V(s, sm->pointers_dropped);
    V(s, sm->pointer_x);
    V(s, sm->pointer_y);
    V(s, sm->pointer_down);
    A(s, sm->hovered, mc->listener_count);
    A(s, sm->pressed, mc->listener_count);
    A(s, sm->bus_muted, doc->audio_bus_count);
    V(s, sm->master_muted);
    audio(s, &sm->audio);
    RECORDS(s, sm->pending, sm->pending_count, sm->pending_capacity);
    pool(s, &sm->pending_pool);
    RECORDS(s, sm->report, sm->report_count, sm->report_capacity);
    V(s, sm->reported);
    pool(s, &sm->report_pool);
    RECORDS(s, sm->log, sm->log_count, sm->log_capacity);
    V(s, sm->log_dropped);
    pool(s, &sm->log_pool);
    V(s, sm->scripts_reported);
    A(s, sm->bone_override, doc->bone_count);
    A(s, sm->bone_override_value, doc->bone_count);
    A(s, sm->slot_color_override, doc->slot_count);
    A(s, sm->slot_color_value, 4 * (size_t)doc->slot_count);
    A(s, sm->slot_attachment_override, doc->slot_count);
    A(s, sm->slot_attachment_value, doc->slot_count);
}

/* The walk: every piece of mutable state, in a fixed order. */
static void walk(ser *s, ob_instance *inst)
{
    const ob_document *doc = inst->doc;
    int32_t nb = doc->bone_count, ns = doc->slot_count, nc = doc->constraint_count;
    V(s, inst->root);
    V(s, inst->scale_x);
    V(s, inst->scale_y);
    V(s, inst->skin);
    V(s, inst->active_for_skin);
    A(s, inst->local, nb);
    A(s, inst->applied, nb);
    A(s, inst->inherit, nb);
    A(s, inst->world, nb);
    A(s, inst->trig, nb);
    A(s, inst->stale, nb);
    A(s, inst->sync_pending, nb);
    A(s, inst->sync_pending_children, nb);
    A(s, inst->bone_active, nb);
    A(s, inst->slot_color, 4 * (size_t)ns);
    A(s, inst->slot_dark, 4 * (size_t)ns);
    A(s, inst->slot_has_dark, ns);
    A(s, inst->slot_attachment, ns);
    A(s, inst->draw_order, ns);
    A(s, inst->con_values, (size_t)OB_CV_COUNT * (size_t)nc);
    A(s, inst->con_active, nc);
    A(s, inst->con_order, nc);
    for (int32_t i = 0; i < inst->deform_count && !s->failed; i++) {  /* §5.1 deform offsets */
        ob_deform *d = &inst->deforms[i];
        ob_deform_values(d);  /* deform (issue 17): a pending sample stored, so the values are the state */
        int32_t n = count(s, &d->count, d->capacity);
        A(s, d->values, n);
    }
    for (int32_t i = 0; i < inst->seqframe_count; i++) {
        V(s, inst->seqframes[i].set);
        V(s, inst->seqframes[i].frame);
    }
    A(s, inst->particle_values, ns);
    A(s, inst->key_hint, doc->timeline_total);
    V(s, inst->clock);
    V(s, inst->physics_pending);
    V(s, inst->particle_pending);
    V(s, inst->has_animation_time);
    V(s, inst->animation_time);
    if (s->mode == SER_APPLY && !s->failed) {
        int bad = inst->skin < -1 || inst->skin >= doc->skin_count;
        for (int32_t i = 0; i < ns && !bad; i++)
            bad = inst->draw_order[i] < 0 || inst->draw_order[i] >= ns || inst->slot_attachment[i] < -1 ||
                  inst->slot_attachment[i] >= doc->att_name_count;
        for (int32_t i = 0; i < nc && !bad; i++) bad = inst->con_order[i] < 0 || inst->con_order[i] >= nc;
        if (bad) fail(s, 1, "the snapshot is corrupt (skin, draw order, attachment or constraint order)");
    }

    /* animation_state.c (§6): tracks, the last report, audio (§10) */
    ob_anim_state *an = inst->anim;
    /* OB_MAX_TRACKS tracks in the snapshot (those never used as empty ones);
    ** applied, the instance gets the tracks up to the last one not empty */
    for (int32_t t = 0; t < OB_MAX_TRACKS && !s->failed; t++) {
        ob_track tmp;
        memset(&tmp, 0, sizeof tmp);
        if (s->mode == SER_WRITE) {
            blob(s, t < an->track_capacity ? &an->tracks[t] : &tmp, sizeof tmp);
            continue;
        }
        V(s, tmp);
        if (s->failed || s->mode != SER_APPLY) continue;
        if (t >= an->track_capacity && !tmp.has_entry && !tmp.has_from && tmp.queue_count == 0) continue;
        if (ob_anim_reserve_tracks(an, t + 1) < 0) fail(s, 2, "out of memory");
        else an->tracks[t] = tmp;
    }
    if (s->mode == SER_APPLY && !s->failed)
        for (int32_t t = 0; t < an->track_capacity; t++) {
            const ob_track *tr = &an->tracks[t];
            int bad = tr->queue_count < 0 || tr->queue_count > OB_QUEUE_CAPACITY;
            bad = bad || (tr->has_entry && (tr->entry.animation < 0 || tr->entry.animation >= doc->animation_count));
            bad = bad || (tr->has_from && (tr->from.animation < 0 || tr->from.animation >= doc->animation_count));
            for (int32_t q = 0; !bad && q < tr->queue_count; q++)
                bad = tr->queue[q].animation < 0 || tr->queue[q].animation >= doc->animation_count;
            if (bad) fail(s, 1, "the snapshot is corrupt (a track entry)");
        }
    V(s, an->next_serial);
    int32_t ne = count(s, &an->event_count, OB_EVENT_CAPACITY);
    if (s->mode == SER_APPLY && !s->failed && ob_anim_reserve_events(an, ne) < 0) fail(s, 2, "out of memory");
    V(s, an->event_reported);
    V(s, an->events_dropped);
    for (int32_t i = 0; i < ne && !s->failed; i++) {
        ob_anim_event *e = &an->events[i];
        V(s, e->event);
        V(s, e->animation);
        V(s, e->track);
        V(s, e->time);
        V(s, e->int_value);
        V(s, e->float_value);
        str(s, &e->string_value);
    }
    V(s, an->starts);
    V(s, an->completes);
    V(s, an->pending_starts);
    V(s, an->pending_completes);
    int32_t nn = count(s, &an->notice_count, OB_NOTICE_CAPACITY);
    V(s, an->notice_reported);
    V(s, an->notices_dropped);
    A(s, an->notices, nn);
    if (s->mode == SER_APPLY && (an->event_reported < 0 || an->event_reported > ne || an->notice_reported < 0 ||
                                 an->notice_reported > nn))
        fail(s, 1, "the snapshot is corrupt (a report count)");
    audio(s, &an->audio);

    /* constraints.c (§7): physics state */
    A(s, inst->cons->physics, nc);

    /* particles.c (§8.8): emitters and their particles */
    ob_particle_state *ps = inst->particles;
    V(s, ps->frac);
    for (int32_t i = 0; i < ns && !s->failed; i++) {
        ob_emitter idle = {.attachment = -1};  /* a document without particles has no emitters (load, issue 17) */
        ob_emitter *e = ps->emitters ? &ps->emitters[i] : &idle;
        V(s, e->attachment);
        V(s, e->rng);
        V(s, e->steps);
        V(s, e->was_emitting);
        V(s, e->cycle);
        V(s, e->acc);
        V(s, e->pending);
        V(s, e->has_last);
        V(s, e->last_x);
        V(s, e->last_y);
        int32_t n = count(s, &e->count, 1 << 26);
        reserve(s, (void **)&e->particles, &e->capacity, n, sizeof *e->particles);
        A(s, e->particles, n);
        if (s->mode == SER_APPLY && (e->attachment < -1 || e->attachment >= doc->attachment_count ||
                                     (e == &idle && (e->attachment != -1 || n != 0))))
            fail(s, 1, "the snapshot is corrupt (an emitter)");
        if (e == &idle) free(idle.particles);
    }
    A(s, ps->pending, ns);
    A(s, ps->override, ns);
    A(s, ps->max_quads, ns);

    /* drawlist.c (§8.9): setText templates */
    for (int32_t i = 0; i < ns && !s->failed; i++) owned_str(s, &inst->draw->text_override[i], NULL);

    /* state_machine.c (§9) */
    if (inst->sm) machine(s, inst->sm);

    /* the Spine pose model (skeleton.c, physics.c) and the influenceOffsets extension
    ** (timeline.c): which deforms hold offsets per influence, spine-core's physics
    ** states, the update cache (documents with neither keep the layout without them) */
    if (doc->pose_model == OB_POSE_MODEL_SPINE || doc->has_influence_offsets) {
        for (int32_t i = 0; i < inst->deform_count; i++) V(s, inst->deforms[i].per_influence);
        A(s, inst->cons->spine_physics, nc);
        int32_t nk = count(s, &inst->spine_cache_count, inst->spine_cache_capacity);
        A(s, inst->spine_cache, nk);
        if (s->mode == SER_APPLY) inst->spine_cache_gen++;  /* issue 17 (cons): a new cache */
        if (s->mode == SER_APPLY && !s->failed) {
            int bad = 0;
            for (int32_t i = 0; i < inst->deform_count && !bad; i++)
                bad = inst->deforms[i].per_influence != 0 && inst->deforms[i].per_influence != 1;
            for (int32_t i = 0; i < nk && !bad; i++) bad = inst->spine_cache[i] < -nc || inst->spine_cache[i] >= nb;
            if (bad) fail(s, 1, "the snapshot is corrupt (the Spine pose model's state)");
        }
    }

    /* layer.c: the host's offsets, limits and reaches */
    int32_t has_layer = inst->layer != NULL;
    V(s, has_layer);
    if (s->failed) return;
    if (!has_layer) {
        if (s->mode == SER_APPLY) ob_layer_free(inst);
        return;
    }
    ob_layer_state *L = s->mode == SER_APPLY ? ob_layer_get(inst) : inst->layer;
    if (!L) {
        fail(s, 2, "out of memory");
        return;
    }
    A(s, L->offset, nb);
    A(s, L->has_offset, nb);
    int32_t no = count(s, &L->offset_count, nb);
    A(s, L->offset_bones, no);
    A(s, L->limit_min, nb);
    A(s, L->limit_max, nb);
    A(s, L->has_limit, nb);
    int32_t nl = count(s, &L->limit_count, nb);
    A(s, L->limit_bones, nl);
    int32_t nr = count(s, &L->reach_count, nb);
    A(s, L->reaches, nr);
    if (s->mode == SER_APPLY && !s->failed) {
        int bad = 0;
        for (int32_t i = 0; i < no && !bad; i++) bad = L->offset_bones[i] < 0 || L->offset_bones[i] >= nb;
        for (int32_t i = 0; i < nl && !bad; i++) bad = L->limit_bones[i] < 0 || L->limit_bones[i] >= nb;
        for (int32_t i = 0; i < nb && !bad; i++) bad = L->has_limit[i] > 2 || L->has_offset[i] > 1;
        for (int32_t i = 0; i < nr && !bad; i++) {
            const ob_reach_def *d = &L->reaches[i].def;
            bad = d->upper < 0 || d->upper >= nb || d->lower < 0 || d->lower >= nb || d->tip < -1 || d->tip >= nb ||
                  d->space < -1 || d->space >= nb || d->offset_space < -1 || d->offset_space >= nb;
        }
        if (bad) fail(s, 1, "the snapshot is corrupt (the instance layer)");
    }
}

static uint64_t fnv64(const unsigned char *p, size_t n)
{
    uint64_t h = 1469598103934665603ull;
    for (size_t i = 0; i < n; i++) {
        h ^= p[i];
        h *= 1099511628211ull;
    }
    return h;
}

static void shape(const ob_instance *inst, uint32_t out[SNAP_SHAPE])
{
    const ob_document *d = inst->doc;
    uint32_t v[SNAP_SHAPE] = {(uint32_t)d->bone_count, (uint32_t)d->slot_count, (uint32_t)d->constraint_count,
                              (uint32_t)d->skin_count, (uint32_t)d->animation_count, (uint32_t)d->timeline_total,
                              (uint32_t)d->attachment_count, (uint32_t)d->att_name_count,
                              (uint32_t)d->machine_count, (uint32_t)inst->deform_count,
                              (uint32_t)inst->seqframe_count, (uint32_t)d->audio_bus_count};
    memcpy(out, v, sizeof v);
}

static ob_status set_err(ob_error *err, ob_status st, const char *msg)
{
    if (err) {
        err->status = st;
        snprintf(err->message, sizeof err->message, "%s", msg);
    }
    return st;
}

static int copyable(const ob_instance *inst, ob_error *err)
{
    if (inst->sm && inst->sm->host) {
        set_err(err, OB_ERR_ARGUMENT,
                "the instance's state machine runs scripts: the live script host (its JS state) cannot be "
                "copied or saved");
        return 0;
    }
    return 1;
}

/* Writes the snapshot into buf (cap bytes; NULL measures); returns its size. */
static size_t write_snapshot(const ob_instance *inst, int portable, unsigned char *buf, size_t cap)
{
    ser s = {SER_WRITE, portable, buf, cap, SNAP_HEADER, 0, 0, NULL, (ob_instance *)inst};
    walk(&s, (ob_instance *)inst);
    size_t total = s.pos;
    if (buf && total <= cap) {
        unsigned char *h = buf;
        memcpy(h, SNAP_MAGIC, 4);
        uint32_t ver = SNAP_VERSION | (portable ? 0x100u : 0u);
        memcpy(h + 4, &ver, 4);
        uint32_t sh[SNAP_SHAPE];
        shape(inst, sh);
        memcpy(h + 8, sh, sizeof sh);
        int32_t m = inst->sm ? inst->sm->machine_index : -1;
        memcpy(h + 8 + sizeof sh, &m, 4);
        uint64_t plen = (uint64_t)(total - SNAP_HEADER);
        memcpy(h + 12 + sizeof sh, &plen, 8);
        uint64_t sum = fnv64(buf + SNAP_HEADER, total - SNAP_HEADER);
        memcpy(h + 20 + sizeof sh, &sum, 8);
    }
    return total;
}

ob_status ob_instance_snapshot(const ob_instance *inst, void *buf, size_t cap, size_t *len, ob_error *err)
{
    if (!copyable(inst, err)) return OB_ERR_ARGUMENT;
    size_t n = write_snapshot(inst, 1, NULL, 0);
    if (len) *len = n;
    if (!buf) return OB_OK;
    if (cap < n) return set_err(err, OB_ERR_ARGUMENT, "snapshot buffer too small");
    write_snapshot(inst, 1, buf, cap);
    return OB_OK;
}

static ob_status restore(ob_instance *inst, const unsigned char *data, size_t len, int want_portable, ob_error *err)
{
    if (len < SNAP_HEADER || memcmp(data, SNAP_MAGIC, 4) != 0)
        return set_err(err, OB_ERR_FORMAT, "not an openbone instance snapshot");
    uint32_t ver, sh[SNAP_SHAPE], mine[SNAP_SHAPE];
    memcpy(&ver, data + 4, 4);
    if ((ver & 0xffu) != SNAP_VERSION || ((ver & 0x100u) != 0) != want_portable)
        return set_err(err, OB_ERR_FORMAT, "unsupported instance snapshot version");
    memcpy(sh, data + 8, sizeof sh);
    shape(inst, mine);
    if (memcmp(sh, mine, sizeof sh) != 0)
        return set_err(err, OB_ERR_FORMAT, "the snapshot was taken of another document");
    int32_t m;
    uint64_t plen, sum;
    memcpy(&m, data + 8 + sizeof sh, 4);
    memcpy(&plen, data + 12 + sizeof sh, 8);
    memcpy(&sum, data + 20 + sizeof sh, 8);
    if (plen != (uint64_t)(len - SNAP_HEADER)) return set_err(err, OB_ERR_FORMAT, "the snapshot is truncated");
    if (fnv64(data + SNAP_HEADER, len - SNAP_HEADER) != sum)
        return set_err(err, OB_ERR_FORMAT, "the snapshot is corrupt (checksum)");
    if (m < -1 || m >= inst->doc->machine_count)
        return set_err(err, OB_ERR_FORMAT, "the snapshot is corrupt (machine index)");
    /* the machine the snapshot ran (its arrays are sized by the document) */
    if (m >= 0 && (!inst->sm || inst->sm->machine_index != m)) {
        if (ob_sm_start(inst, m) < 0) return set_err(err, OB_ERR_MEMORY, "out of memory");
    } else if (m < 0 && inst->sm) {
        ob_sm_free(inst);
    }
    ser s = {SER_APPLY, want_portable, (unsigned char *)data, 0, SNAP_HEADER, len, 0, NULL, inst};
    walk(&s, inst);
    ob_instance_setup_touched(inst);  /* bones, issue 17: any slot colour or constraint value may be set */
    if (!s.failed && s.pos != len) fail(&s, 1, "the snapshot is corrupt (trailing bytes)");
    if (s.failed) return set_err(err, s.failed == 2 ? OB_ERR_MEMORY : OB_ERR_FORMAT, s.why);
    return OB_OK;
}

ob_status ob_instance_restore(ob_instance *inst, const void *data, size_t len, ob_error *err)
{
    if (inst->sm && inst->sm->host)
        return set_err(err, OB_ERR_ARGUMENT, "cannot restore into an instance whose state machine runs scripts");
    /* applied to a scratch instance first, so that a bad snapshot leaves inst as it was */
    ob_instance *scratch = ob_instance_create(inst->doc, err);
    if (!scratch) return OB_ERR_MEMORY;
    ob_status st = restore(scratch, data, len, 1, err);
    ob_instance_free(scratch);
    if (st != OB_OK) return st;
    return restore(inst, data, len, 1, err);
}

ob_instance *ob_instance_copy(const ob_instance *src, ob_error *err)
{
    if (!copyable(src, err)) return NULL;
    size_t n = write_snapshot(src, 0, NULL, 0);
    unsigned char *buf = malloc(n);
    ob_instance *dst = buf ? ob_instance_create(src->doc, err) : NULL;
    if (!dst) {
        free(buf);
        set_err(err, OB_ERR_MEMORY, "out of memory");
        return NULL;
    }
    write_snapshot(src, 0, buf, n);
    ob_status st = restore(dst, buf, n, 0, err);
    free(buf);
    if (st != OB_OK) {
        ob_instance_free(dst);
        return NULL;
    }
    return dst;
}
