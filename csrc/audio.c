/* audio.c: §10 AudioDirector (audio.ts): play/stop/fade/mix commands in
** emission order and the bookkeeping of playing instances.  Fixed tables
** sized at ob_audio_init; nothing allocated afterwards. */
#include "audio.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define DEFAULT_PLAYING 128
#define DEFAULT_COMMANDS 256

static int same(const char *a, const char *b) { return a && b && strcmp(a, b) == 0; }

int ob_audio_init(ob_audio_director *a, const ob_document *doc, int32_t max_playing, int32_t max_commands)
{
    memset(a, 0, sizeof *a);
    a->doc = doc;
    a->playing_capacity = max_playing > 0 ? max_playing : DEFAULT_PLAYING;
    a->cmd_capacity = max_commands > 0 ? max_commands : DEFAULT_COMMANDS;
    /* bytes per instance (issue 17): with no sound and no asset nothing can
    ** play, so no play/stop command is possible either; only a state
    ** machine's listeners can still mix a bus */
    if (doc->sound_count == 0 && doc->audio_asset_count == 0) {
        a->playing_capacity = 0;
        if (doc->machine_count == 0) a->cmd_capacity = 0;
    }
    a->playing = calloc(a->playing_capacity > 0 ? (size_t)a->playing_capacity : 1, sizeof *a->playing);
    a->cmds = calloc(a->cmd_capacity > 0 ? (size_t)a->cmd_capacity : 1, sizeof *a->cmds);
    if (!a->playing || !a->cmds) {
        ob_audio_destroy(a);
        return -1;
    }
    a->sfx_bus = -1;  /* §10: the bus named "sfx" (first wins) */
    for (int32_t i = 0; i < doc->audio_bus_count; i++)
        if (same(doc->audio_buses[i].name, "sfx")) { a->sfx_bus = i; break; }
    return 0;
}

void ob_audio_destroy(ob_audio_director *a)
{
    free(a->playing);
    free(a->cmds);
    a->playing = NULL;
    a->cmds = NULL;
    a->playing_count = a->cmd_count = a->cmd_reported = 0;
}

static ob_audio_cmd *emit(ob_audio_director *a, ob_audio_cmd_type type)
{
    if (a->cmd_count >= a->cmd_capacity) {
        a->dropped++;
        return NULL;
    }
    ob_audio_cmd *c = &a->cmds[a->cmd_count++];
    memset(c, 0, sizeof *c);
    c->type = type;
    return c;
}

static void forget(ob_audio_director *a, int32_t i)
{
    memmove(&a->playing[i], &a->playing[i + 1], (size_t)(a->playing_count - i - 1) * sizeof *a->playing);
    a->playing_count--;
}

void ob_audio_update(ob_audio_director *a, double dt)
{
    a->now += dt;  /* §10 update: forget ended instances, no command */
    for (int32_t i = 0; i < a->playing_count;)
        if (a->playing[i].end <= a->now) forget(a, i);
        else i++;
}

/* §10 resolveSound: a sound by id, then name (index ≥ 0); else an audio
** asset by id, then name (-2 - asset index); -1 unknown. */
static int32_t resolve(const ob_document *doc, const char *ref)
{
    if (!ref) return -1;
    for (int32_t i = 0; i < doc->sound_count; i++)
        if (same(doc->sounds[i].id, ref)) return i;
    for (int32_t i = 0; i < doc->sound_count; i++)
        if (same(doc->sounds[i].name, ref)) return i;
    for (int32_t i = 0; i < doc->audio_asset_count; i++)
        if (same(doc->audio_assets[i].id, ref)) return -2 - i;
    for (int32_t i = 0; i < doc->audio_asset_count; i++)
        if (same(doc->audio_assets[i].name, ref)) return -2 - i;
    return -1;
}

static int same_tag(const ob_audio_tag *x, const ob_audio_tag *y)
{
    if (!x->str || !y->str || x->num != y->num || strcmp(x->str, y->str) != 0) return 0;
    if (!x->prefix || !y->prefix) return x->prefix == y->prefix;
    return strcmp(x->prefix, y->prefix) == 0;
}

static double fade_out_of(const ob_audio_director *a, int32_t sound)
{
    return sound >= 0 ? a->doc->sounds[sound].fade_out : 0;
}

int32_t ob_audio_play(ob_audio_director *a, const char *ref, const ob_audio_play_opts *opts)
{
    static const ob_audio_play_opts none;
    const ob_document *doc = a->doc;
    if (!opts) opts = &none;
    int32_t s = resolve(doc, ref);
    if (s == -1) return 0;  /* unknown ⇒ nothing */
    const char *sound_id, *asset, *bus;
    double volume, rate, fade_in, duration;
    int loop;
    if (s >= 0) {
        const ob_sound_data *sd = &doc->sounds[s];
        sound_id = sd->id;
        asset = sd->asset >= 0 ? doc->audio_assets[sd->asset].id : sd->asset_ref;
        bus = sd->bus >= 0 ? doc->audio_buses[sd->bus].id : sd->bus_ref;
        volume = sd->volume;
        rate = sd->rate;
        fade_in = sd->fade_in;
        loop = sd->loop;
        duration = sd->asset >= 0 ? doc->audio_assets[sd->asset].duration : 0;
    } else {  /* an asset played directly: {id = asset id, bus "sfx", 1, 1, no loop, no fades} */
        const ob_audio_asset *as = &doc->audio_assets[-2 - s];
        sound_id = asset = as->id;
        bus = a->sfx_bus >= 0 ? doc->audio_buses[a->sfx_bus].id : NULL;
        volume = 1;
        rate = 1;
        fade_in = 0;
        loop = 0;
        duration = as->duration;
    }
    if (opts->has_loop) loop = opts->loop;  /* loop = opt ?? sound.loop */
    if (loop && opts->tag.str) {  /* a looping (owner, tag) already playing: skipped */
        for (int32_t i = 0; i < a->playing_count; i++) {
            const ob_audio_playing *p = &a->playing[i];
            if (p->loop && p->owner == opts->owner && same_tag(&p->tag, &opts->tag)) return 0;
        }
    }
    volume *= opts->has_volume ? opts->volume : 1;  /* sound.volume × (opt ?? 1) */
    if (opts->has_rate) rate = opts->rate;
    int32_t id = ++a->next_id;
    if (a->playing_count == a->playing_capacity) {  /* full: forget the oldest one-shot, else the oldest */
        int32_t victim = 0;
        for (int32_t i = 0; i < a->playing_count; i++)
            if (!a->playing[i].loop) { victim = i; break; }
        forget(a, victim);
    }
    ob_audio_playing *p = &a->playing[a->playing_count++];
    p->id = id;
    p->sound = s;
    p->loop = loop;
    /* §10 end time: loop ⇒ never; else now + (duration > 0 ? duration/rate : 10) */
    p->end = loop ? INFINITY : a->now + (duration > 0 ? duration / rate : 10);
    p->fade_out = fade_out_of(a, s);
    p->owner = opts->owner;
    p->tag = opts->tag;
    ob_audio_cmd *c = emit(a, OB_AUDIO_PLAY);
    if (c) {
        c->id = id;
        c->sound = sound_id;
        c->asset = asset;
        c->bus = bus;
        c->volume = volume;
        c->rate = rate;
        c->loop = loop;
        c->fade_in = fade_in;
        c->source = opts->source;
    }
    return id;
}

static void stop_at(ob_audio_director *a, int32_t i, double fade)
{
    ob_audio_cmd *c = emit(a, OB_AUDIO_STOP);
    if (c) {
        c->id = a->playing[i].id;
        c->fade = fade;
    }
    forget(a, i);
}

void ob_audio_stop(ob_audio_director *a, int32_t id, int has_fade, double fade)
{
    for (int32_t i = 0; i < a->playing_count; i++)
        if (a->playing[i].id == id) {
            stop_at(a, i, has_fade ? fade : a->playing[i].fade_out);  /* fade ?? sound.fadeOut */
            return;
        }
}

void ob_audio_stop_sound(ob_audio_director *a, const char *ref, int has_fade, double fade)
{
    int32_t s = resolve(a->doc, ref);
    if (s == -1) return;
    for (int32_t i = 0; i < a->playing_count;)
        if (a->playing[i].sound == s) stop_at(a, i, has_fade ? fade : a->playing[i].fade_out);
        else i++;
}

void ob_audio_stop_owner(ob_audio_director *a, uint64_t owner, double fade)
{
    for (int32_t i = 0; i < a->playing_count;) {
        const ob_audio_playing *p = &a->playing[i];
        if (p->owner == owner && p->loop) stop_at(a, i, fade > p->fade_out ? fade : p->fade_out); /* max(fade, fadeOut) */
        else i++;
    }
}

void ob_audio_stop_all(ob_audio_director *a)
{
    while (a->playing_count > 0) stop_at(a, 0, 0);
}

void ob_audio_fade(ob_audio_director *a, int32_t id, double volume, double duration)
{
    ob_audio_cmd *c = emit(a, OB_AUDIO_FADE);
    if (c) {
        c->id = id;
        c->volume = volume;
        c->duration = duration;
    }
}

void ob_audio_mix(ob_audio_director *a, const char *bus, int muted)
{
    ob_audio_cmd *c = emit(a, OB_AUDIO_MIX);
    if (c) {
        c->bus = bus;
        c->muted = muted;
    }
}

void ob_audio_begin_frame(ob_audio_director *a)
{
    int32_t r = a->cmd_reported;
    memmove(a->cmds, a->cmds + r, (size_t)(a->cmd_count - r) * sizeof *a->cmds);
    a->cmd_count -= r;
    a->cmd_reported = 0;
}

void ob_audio_end_frame(ob_audio_director *a) { a->cmd_reported = a->cmd_count; }

void ob_audio_play_key(ob_audio_director *a, const ob_animation_data *anim, int32_t k, uint64_t owner)
{
    const ob_audio_key *key = &anim->audio[k];
    if (!key->sound) return;
    ob_audio_play_opts o;
    memset(&o, 0, sizeof o);
    o.has_volume = key->has_volume;
    o.volume = key->volume;
    o.has_rate = key->has_rate;
    o.rate = key->rate;
    o.has_loop = key->has_loop;
    o.loop = key->loop;
    o.owner = owner;
    o.tag = (ob_audio_tag){NULL, anim->id ? anim->id : "", k};
    o.source = (ob_audio_source){"key", anim->name};
    ob_audio_play(a, key->sound, &o);
}
