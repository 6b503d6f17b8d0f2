/* animation_state.c: §6 AnimationState (animation-state.ts): tracks,
** TrackEntries, the queue, cross-fades; §5.2 events and §10 audio keys fired
** during update.  Owns the §10 audio director of the instance. */
#include "animation_state.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "constraints.h"
#include "timeline.h"

/* load (issue 17): the event buffer holds what n tracks can fire in one
** advance (OB_MAX_CROSSINGS per event key and track, timeline.c), at most
** OB_EVENT_CAPACITY: the same events are kept and dropped as with a buffer of
** OB_EVENT_CAPACITY, in less memory for documents with few event keys. */
int ob_anim_reserve_events(ob_anim_state *st, int32_t n)
{
    if (n > OB_EVENT_CAPACITY) n = OB_EVENT_CAPACITY;
    if (n <= st->event_capacity && st->events) return 0;
    if (n < st->event_capacity) n = st->event_capacity;
    ob_anim_event *e = realloc(st->events, (size_t)(n > 0 ? n : 1) * sizeof *e);
    if (!e) return -1;
    st->events = e;
    st->event_capacity = n;
    return 0;
}

static int32_t events_for_tracks(const ob_anim_state *st, int32_t tracks)
{
    double n = (double)st->events_per_track * (tracks > 1 ? tracks : 1);
    return n < OB_EVENT_CAPACITY ? (int32_t)n : OB_EVENT_CAPACITY;
}

int ob_anim_state_create(ob_instance *inst)
{
    ob_anim_state *st = calloc(1, sizeof *st);
    if (!st) return -1;
    double keys = 0;  /* the most event keys one animation has */
    for (int32_t a = 0; a < inst->doc->animation_count; a++)
        if (inst->doc->animations[a].event_count > keys) keys = inst->doc->animations[a].event_count;
    keys *= OB_MAX_CROSSINGS;
    st->events_per_track = keys < OB_EVENT_CAPACITY ? (int32_t)keys : OB_EVENT_CAPACITY;
    st->marks = calloc((size_t)inst->doc->slot_count + 1, 1);
    if (!st->marks || ob_anim_reserve_events(st, events_for_tracks(st, 1)) < 0 ||
        ob_audio_init(&st->audio, inst->doc, 0, 0) < 0) {
        free(st->marks);
        free(st->events);
        free(st);
        return -1;
    }
    inst->anim = st;
    return 0;
}

void ob_anim_state_free(ob_instance *inst)
{
    ob_anim_state *st = inst->anim;
    if (!st) return;
    ob_audio_destroy(&st->audio);
    free(st->marks);
    free(st->tracks);
    free(st->events);
    free(st);
    inst->anim = NULL;
}

int ob_anim_reserve_tracks(ob_anim_state *st, int32_t n)
{
    if (n <= st->track_capacity) return 0;
    if (ob_anim_reserve_events(st, events_for_tracks(st, n)) < 0) return -1;  /* load (issue 17) */
    ob_track *t = realloc(st->tracks, (size_t)n * sizeof *t);
    if (!t) return -1;
    memset(t + st->track_capacity, 0, (size_t)(n - st->track_capacity) * sizeof *t);
    st->tracks = t;
    st->track_capacity = n;
    return 0;
}

uint8_t *ob_anim_state_marks(ob_instance *inst) { return inst->anim ? inst->anim->marks : NULL; }
ob_audio_director *ob_anim_audio(ob_instance *inst) { return &inst->anim->audio; }

const ob_track *ob_anim_track(const ob_instance *inst, int32_t track)
{
    static const ob_track never_used;  /* constant: no state */
    if (track < 0 || track >= OB_MAX_TRACKS) return NULL;
    return track < inst->anim->track_capacity ? &inst->anim->tracks[track] : &never_used;
}

const ob_anim_event *ob_anim_events(const ob_instance *inst, int32_t *n)
{
    *n = inst->anim->event_reported;
    return inst->anim->events;
}

/* §6 a fresh TrackEntry {time 0, prevTime −1e-6, speed 1, alpha 1, completedLoops 0} */
static ob_track_entry new_entry(ob_anim_state *st, int32_t anim, int loop, double delay, double mix)
{
    ob_track_entry e;
    memset(&e, 0, sizeof e);
    e.animation = anim;
    e.loop = loop;
    e.prev_time = -1e-6;
    e.speed = 1;
    e.alpha = 1;
    e.delay = delay;
    e.mix = mix;
    e.serial = ++st->next_serial;
    return e;
}

static int valid(const ob_instance *inst, int32_t track, int32_t anim)
{
    return track >= 0 && track < OB_MAX_TRACKS && anim >= 0 && anim < inst->doc->animation_count;
}

/* §6 emit "start" / "complete" */
static void notify(ob_anim_state *st, ob_anim_notice_type type, int32_t track, int32_t anim)
{
    if (type == OB_NOTICE_START) st->pending_starts++;
    else st->pending_completes++;
    if (st->notice_count < OB_NOTICE_CAPACITY)
        st->notices[st->notice_count++] = (ob_anim_notice){type, track, anim};
    else
        st->notices_dropped++;
}

int ob_anim_set_animation(ob_instance *inst, int32_t track, int32_t anim, int loop, double mix)
{
    if (!valid(inst, track, anim)) return -1;
    ob_anim_state *st = inst->anim;
    if (ob_anim_reserve_tracks(st, track + 1) < 0) return -3;
    ob_track *t = &st->tracks[track];
    ob_track_entry e = new_entry(st, anim, loop, 0, mix);
    if (t->has_entry) {
        ob_audio_stop_owner(&st->audio, t->entry.serial, mix);  /* fade max(mix, fadeOut) */
        if (mix > 0) {  /* §6: mixingFrom = cur, cur.mixingFrom = null */
            t->from = t->entry;
            t->has_from = 1;
            e.mix_duration = mix;
        } else {
            t->has_from = 0;
        }
    }
    t->entry = e;
    t->has_entry = 1;
    t->queue_count = 0;  /* queued entries dropped */
    notify(st, OB_NOTICE_START, track, anim);
    return 0;
}

int ob_anim_add_animation(ob_instance *inst, int32_t track, int32_t anim, int loop, double delay, double mix)
{
    if (!valid(inst, track, anim)) return -1;
    ob_anim_state *st = inst->anim;
    if (ob_anim_reserve_tracks(st, track + 1) < 0) return -3;
    ob_track *t = &st->tracks[track];
    if (!t->has_entry) {  /* §6: empty track ⇒ start now */
        t->entry = new_entry(st, anim, loop, delay, mix);
        t->has_entry = 1;
        t->has_from = 0;
        notify(st, OB_NOTICE_START, track, anim);
        return 0;
    }
    if (t->queue_count >= OB_QUEUE_CAPACITY) return -2;
    t->queue[t->queue_count++] = new_entry(st, anim, loop, delay, mix);
    return 0;
}

int ob_anim_clear_track(ob_instance *inst, int32_t track)
{
    if (track < 0 || track >= OB_MAX_TRACKS) return -1;
    ob_anim_state *st = inst->anim;
    if (track >= st->track_capacity) return 0;  /* never used: empty */
    ob_track *t = &st->tracks[track];
    if (t->has_entry) ob_audio_stop_owner(&st->audio, t->entry.serial, 0);
    t->has_entry = t->has_from = 0;
    t->queue_count = 0;
    return 0;
}

/* ---- §6 update ---------------------------------------------------------- */

typedef struct fire_ctx {
    ob_instance *inst;
    ob_track_entry *entry;
    int32_t track;
} fire_ctx;

/* §10 audio key: play(key.sound, {volume, rate, loop from the key, owner,
** tag "<animId>#<keyIndex>", source "key:<anim name>"}) */
static void fire_audio_key(void *ctx, int32_t k)
{
    fire_ctx *f = ctx;
    ob_audio_play_key(&f->inst->anim->audio, &f->inst->doc->animations[f->entry->animation], k,
                      f->entry->serial);
}

/* §5.2 a crossed event: play its audio (owner = entry), then emit it */
static void fire_event(void *ctx, int32_t k)
{
    fire_ctx *f = ctx;
    ob_anim_state *st = f->inst->anim;
    const ob_document *doc = f->inst->doc;
    const ob_animation_data *a = &doc->animations[f->entry->animation];
    const ob_event_key *key = &a->events[k];
    const ob_event_data *ev = &doc->events[key->event];
    if (ev->audio) {
        ob_audio_play_opts o;
        memset(&o, 0, sizeof o);
        o.has_volume = ev->has_volume;
        o.volume = ev->volume;
        o.owner = f->entry->serial;
        o.source = (ob_audio_source){"event", ev->name};
        ob_audio_play(&st->audio, ev->audio, &o);
    }
    if (st->event_count >= st->event_capacity) {  /* = OB_EVENT_CAPACITY whenever this can be reached */
        st->events_dropped++;
        return;
    }
    ob_anim_event *e = &st->events[st->event_count++];
    e->event = key->event;
    e->animation = f->entry->animation;
    e->track = f->track;
    e->time = key->time;  /* the key's local time */
    e->int_value = key->has_int ? key->int_value : ev->int_value;
    e->float_value = key->has_float ? key->float_value : ev->float_value;
    e->string_value = key->has_string && key->string_value ? key->string_value : ev->string_value;
}

/* drop what the last advance reported; keep what came since (FORMAT.md) */
static void begin_frame(ob_anim_state *st)
{
    /* issue 17 (keys): nothing reported (most frames) moves nothing */
    int32_t r = st->event_reported;
    if (r) memmove(st->events, st->events + r, (size_t)(st->event_count - r) * sizeof *st->events);
    st->event_count -= r;
    st->event_reported = 0;
    st->starts = st->completes = 0;
    r = st->notice_reported;
    if (r) memmove(st->notices, st->notices + r, (size_t)(st->notice_count - r) * sizeof *st->notices);
    st->notice_count -= r;
    st->notice_reported = 0;
    if (st->audio.cmd_reported) ob_audio_begin_frame(&st->audio);  /* else it moves nothing */
}

static void update_track(ob_instance *inst, int32_t ti, double dt)
{
    ob_anim_state *st = inst->anim;
    ob_track *t = &st->tracks[ti];
    if (!t->has_entry) return;
    ob_track_entry *e = &t->entry;
    const ob_animation_data *a = &inst->doc->animations[e->animation];
    /* §6: the first step keeps −1e-6, so keys at 0 fire once */
    e->prev_time = e->time > 0 ? e->time : fmin(e->prev_time, e->time);
    e->time += dt * e->speed;  /* §12: summed, never i·dt */
    if (t->has_from) {
        t->from.prev_time = t->from.time;
        t->from.time += dt * t->from.speed;
        e->mix_time += dt;
        if (e->mix_time >= e->mix_duration) t->has_from = 0;
    }
    if (dt > 0) {  /* the mixed-out entry fires nothing */
        fire_ctx f = {inst, e, ti};
        /* issue 17 (keys): each call only for an animation that has such keys */
        if (a->audio_count) ob_audio_keys_between(a, e->prev_time, e->time, e->loop, fire_audio_key, &f);
        if (a->event_count) ob_events_between(a, e->prev_time, e->time, e->loop, fire_event, &f);
        if (a->has_resets)  /* Spine pose model */
            ob_physics_resets_between(inst, e->animation, e->prev_time, e->time, e->loop);
    }
    double d = a->length;
    if (d > 0) {
        double loops = floor(e->time / d);
        if (e->loop ? loops > e->completed_loops : (e->prev_time < d && d <= e->time)) {
            e->completed_loops = loops;
            notify(st, OB_NOTICE_COMPLETE, ti, e->animation);  /* emit "complete" */
            if (!e->loop) ob_audio_stop_owner(&st->audio, e->serial, 0);
        }
    }
    if (t->queue_count > 0) {
        ob_track_entry *q = &t->queue[0];
        int due = q->delay > 0 ? e->time >= q->delay
                               : (!e->loop && e->time >= d) || (e->loop && d > 0 && e->time >= d);
        if (due) {
            ob_audio_stop_owner(&st->audio, e->serial, q->mix);  /* fade q.mix */
            t->from = *e;
            t->has_from = 1;
            ob_track_entry next = *q;
            next.mix_duration = q->mix;
            next.mix_time = 0;
            memmove(&t->queue[0], &t->queue[1], (size_t)(t->queue_count - 1) * sizeof *t->queue);
            t->queue_count--;
            t->entry = next;
            notify(st, OB_NOTICE_START, ti, next.animation);  /* emit "start" */
        }
    }
}

void ob_anim_state_update(ob_instance *inst, double dt)
{
    ob_anim_state *st = inst->anim;
    begin_frame(st);
    ob_audio_update(&st->audio, dt);  /* §6: audio.update(dt) first */
    for (int32_t i = 0; i < st->track_capacity; i++) update_track(inst, i, dt);
    /* this advance's report: every event and command present now */
    st->event_reported = st->event_count;
    st->notice_reported = st->notice_count;
    st->starts = st->pending_starts;
    st->completes = st->pending_completes;
    st->pending_starts = st->pending_completes = 0;
    ob_audio_end_frame(&st->audio);
}

/* ---- §6 apply ----------------------------------------------------------- */

void ob_anim_state_apply(ob_instance *inst)
{
    ob_anim_state *st = inst->anim;
    const ob_document *doc = inst->doc;
    for (int32_t i = 0; i < st->track_capacity; i++) {
        const ob_track *t = &st->tracks[i];
        if (!t->has_entry) continue;
        const ob_track_entry *e = &t->entry;
        double lt = ob_animation_local_time(doc, &doc->animations[e->animation], e->time, e->loop);
        if (t->has_from) {
            const ob_track_entry *f = &t->from;
            double md = e->mix_duration != 0 ? e->mix_duration : 1;  /* mixDuration ‖ 1 */
            double mix = fmin(1, e->mix_time / md);
            ob_mix_out mo = {&e->animation, 1, e->alpha * (1 - mix)};
            double flt = ob_animation_local_time(doc, &doc->animations[f->animation], f->time, f->loop);
            ob_animation_apply(inst, f->animation, flt, e->alpha, &mo);  /* §5.1a */
            ob_animation_apply(inst, e->animation, lt, e->alpha * mix, NULL);
        } else {
            ob_animation_apply(inst, e->animation, lt, e->alpha, NULL);
        }
    }
}

const ob_anim_notice *ob_anim_notices(const ob_instance *inst, int32_t *n)
{
    *n = inst->anim->notice_reported;
    return inst->anim->notices;
}

int ob_anim_set_track_speed(ob_instance *inst, int32_t track, double speed)
{
    if (track < 0 || track >= inst->anim->track_capacity || !inst->anim->tracks[track].has_entry) return -1;
    inst->anim->tracks[track].entry.speed = speed;
    return 0;
}

int ob_anim_set_track_alpha(ob_instance *inst, int32_t track, double alpha)
{
    if (track < 0 || track >= inst->anim->track_capacity || !inst->anim->tracks[track].has_entry) return -1;
    inst->anim->tracks[track].entry.alpha = alpha;
    return 0;
}
