/* test_loaders.c: the events / animations / sliders / audio / scripts /
** state-machine loaders (csrc/load_animation.c, csrc/load_state_machine.c),
** through the public ob_document_load: the structs they fill (indices,
** defaults, values) and the messages of the errors they raise.
**
** Documents are written with ' for " to stay readable; q() swaps them. */
#include "document.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures = 0;
static int checks = 0;

#define CHECK(cond)                                                         \
    do {                                                                    \
        checks++;                                                           \
        if (!(cond)) {                                                      \
            failures++;                                                     \
            fprintf(stderr, "line %d: CHECK(%s) failed\n", __LINE__, #cond); \
        }                                                                   \
    } while (0)

#define EQ_INT(got, want)                                                                    \
    do {                                                                                     \
        long g_ = (long)(got), w_ = (long)(want);                                            \
        checks++;                                                                            \
        if (g_ != w_) {                                                                      \
            failures++;                                                                      \
            fprintf(stderr, "line %d: %s: got %ld, want %ld\n", __LINE__, #got, g_, w_);     \
        }                                                                                    \
    } while (0)

#define EQ_NUM(got, want)                                                                    \
    do {                                                                                     \
        double g_ = (got), w_ = (want);                                                      \
        checks++;                                                                            \
        if (!(fabs(g_ - w_) <= 1e-12)) {                                                     \
            failures++;                                                                      \
            fprintf(stderr, "line %d: %s: got %.17g, want %.17g\n", __LINE__, #got, g_, w_); \
        }                                                                                    \
    } while (0)

#define EQ_STR(got, want)                                                                      \
    do {                                                                                       \
        const char *g_ = (got), *w_ = (want);                                                  \
        checks++;                                                                              \
        if ((g_ == NULL) != (w_ == NULL) || (g_ && strcmp(g_, w_) != 0)) {                     \
            failures++;                                                                        \
            fprintf(stderr, "line %d: %s: got %s%s%s, want %s%s%s\n", __LINE__, #got,          \
                    g_ ? "\"" : "", g_ ? g_ : "NULL", g_ ? "\"" : "", w_ ? "\"" : "",          \
                    w_ ? w_ : "NULL", w_ ? "\"" : "");                                         \
        }                                                                                      \
    } while (0)

/* ' → " (the documents below never need a literal apostrophe). */
static char *q(const char *s)
{
    size_t n = strlen(s);
    char *out = malloc(n + 1);
    if (!out) abort();
    for (size_t i = 0; i <= n; i++) out[i] = s[i] == '\'' ? '"' : s[i];
    return out;
}

/* The skeleton every document shares: bones root, arm; slots s1, s2 (s3's bone
** is missing, so it is dropped); one constraint of each kind, where the ik and
** the transform share the id "c" (lookups stay inside a kind); a mesh "m". */
#define SKELETON                                                                                  \
    "'skeleton': {"                                                                               \
    "'bones': [{'id': 'root'}, {'id': 'arm', 'parent': 'root', 'length': 10}],"                  \
    "'slots': [{'id': 's1', 'bone': 'root'}, {'id': 's3', 'bone': 'nope'}, {'id': 's2', 'bone': 'arm'}]," \
    "'ik': [{'id': 'c', 'bones': ['arm'], 'target': 'root'}],"                                    \
    "'transform': [{'id': 'c', 'bones': ['arm'], 'target': 'root'}, {'id': 't2', 'bones': [], 'target': 'root'}]," \
    "'path': [{'id': 'p', 'bones': ['arm'], 'target': 's1'}],"                                    \
    "'physics': [{'id': 'ph', 'bone': 'arm'}],"                                                   \
    "'skins': [{'id': 'default', 'attachments': {'s1': {'m': {'type': 'mesh', 'vertices': [0,0, 1,0, 0,1],"  \
    "  'uvs': [0,0, 1,0, 0,1], 'triangles': [0,1,2], 'hull': 3}}}}]"

static ob_document *load(const char *text, ob_error *err)
{
    char *json = q(text);
    ob_document *doc = ob_document_load(json, strlen(json), err);
    free(json);
    return doc;
}

/* Loads a document that must load. */
static ob_document *load_ok(const char *text, int line)
{
    ob_error err;
    ob_document *doc = load(text, &err);
    checks++;
    if (!doc) {
        failures++;
        fprintf(stderr, "line %d: load failed: %s\n", line, err.message);
    }
    return doc;
}

/* Loads a document that must fail with exactly this message (' for "). */
static void expect_error(const char *text, const char *message, int line)
{
    ob_error err;
    ob_document *doc = load(text, &err);
    char *want = q(message);
    checks++;
    if (doc) {
        failures++;
        fprintf(stderr, "line %d: loaded, want error: %s\n", line, want);
        ob_document_free(doc);
    } else if (strcmp(err.message, want) != 0 || err.status != OB_ERR_SCHEMA) {
        failures++;
        fprintf(stderr, "line %d: error\n  got  %s (status %d)\n  want %s\n", line, err.message,
                (int)err.status, want);
    }
    free(want);
}

/* 1 when some load warning contains `part` (' for "). */
static int warned(const ob_document *doc, const char *part)
{
    char *p = q(part);
    int found = 0;
    for (int32_t i = 0; i < doc->warning_count && !found; i++) found = strstr(doc->warnings[i], p) != NULL;
    free(p);
    return found;
}

static int32_t att_name(const ob_document *doc, const char *name)
{
    for (int32_t i = 0; i < doc->att_name_count; i++)
        if (strcmp(doc->att_names[i], name) == 0) return i;
    return -1;
}

/* ---- events ------------------------------------------------------------ */

static void test_events(void)
{
    ob_document *doc = load_ok("{'format': 'openbone', 'version': 1, 'events': ["
                               "{'id': 'e1', 'name': 'step', 'int': 3, 'float': 0.5, 'string': 'hi', 'audio': 'snd', 'volume': 0.25},"
                               "{'id': 'e2'}]}",
                               __LINE__);
    if (!doc) return;
    EQ_INT(doc->event_count, 2);
    ob_event_data *e = &doc->events[0];
    EQ_STR(e->id, "e1");
    EQ_STR(e->name, "step");
    EQ_NUM(e->int_value, 3);
    EQ_NUM(e->float_value, 0.5);
    EQ_STR(e->string_value, "hi");
    EQ_STR(e->audio, "snd");
    EQ_INT(e->has_volume, 1);
    EQ_NUM(e->volume, 0.25);
    e = &doc->events[1];  /* defaults: int 0, float 0, string "", no audio / volume */
    EQ_STR(e->name, "e2");
    EQ_NUM(e->int_value, 0);
    EQ_NUM(e->float_value, 0);
    EQ_STR(e->string_value, "");
    EQ_STR(e->audio, NULL);
    EQ_INT(e->has_volume, 0);
    ob_document_free(doc);

    /* no events, animations, machines at all: empty arrays (§2) */
    doc = load_ok("{'format': 'openbone', 'version': 1}", __LINE__);
    if (!doc) return;
    EQ_INT(doc->event_count, 0);
    EQ_INT(doc->animation_count, 0);
    EQ_INT(doc->slider_count, 0);
    EQ_INT(doc->machine_count, 0);
    EQ_INT(doc->script_count, 0);
    EQ_INT(doc->has_audio, 0);
    EQ_NUM(doc->audio_master, 1);
    EQ_INT(doc->sound_count, 0);
    ob_document_free(doc);
}

/* ---- animations -------------------------------------------------------- */

static const char *ANIMS =
    "{'format': 'openbone', 'version': 1, " SKELETON "},"
    "'events': [{'id': 'ev', 'name': 'Ev'}],"
    "'animations': [{'id': 'a1', 'name': 'walk', 'timelines': ["
    /* 0 */ "{'target': 'bone', 'id': 'arm', 'property': 'rotation', 'keys': ["
    "   {'time': 0, 'value': 10, 'curve': [0.25, 0, 0.75, 1]}, {'time': 1, 'value': 20, 'curve': 'stepped'},"
    "   {'time': 2, 'value': 30, 'curve': 'linear'}]},"
    /* 1 */ "{'target': 'bone', 'id': 'root', 'property': 'inherit', 'keys': [{'time': 0, 'value': 'noScale'}]},"
    /* 2 */ "{'target': 'slot', 'id': 's2', 'property': 'color', 'keys': [{'time': 0, 'value': '#ff000080'}]},"
    /* 3 */ "{'target': 'slot', 'id': 's1', 'property': 'dark', 'keys': [{'time': 0, 'value': '0f0'}]},"
    /* 4 */ "{'target': 'slot', 'id': 's1', 'property': 'attachment', 'keys': [{'time': 0, 'value': 'm'},"
    "   {'time': 0.5, 'value': null}, {'time': 0.75, 'value': 'other'}]},"
    /* 5 */ "{'target': 'ik', 'id': 'c', 'property': 'bend', 'keys': [{'time': 0, 'value': true},"
    "   {'time': 1, 'value': false}, {'time': 2, 'value': -1}]},"
    /* 6 */ "{'target': 'transform', 'id': 'c', 'property': 'mixRotate', 'keys': [{'time': 0, 'value': 0.5}]},"
    /* 7 */ "{'target': 'transform', 'id': 't2', 'property': 'mix', 'keys': [{'time': 0, 'value': 0.25}]},"
    /* 8 */ "{'target': 'path', 'id': 'p', 'property': 'position', 'keys': [{'time': 0, 'value': 3}]},"
    /* 9 */ "{'target': 'physics', 'id': 'ph', 'property': 'wind', 'keys': [{'time': 0, 'value': 4}]},"
    /* 10 */ "{'target': 'deform', 'id': 's1', 'attachment': 'm', 'property': 'offsets', 'keys': ["
    "   {'time': 0, 'value': [1, 2, 3]}, {'time': 1, 'value': []}]},"
    /* 11 */ "{'target': 'sequence', 'id': 's2', 'attachment': 'seq', 'property': 'frame', 'keys': [{'time': 0, 'value': 7}]},"
    /* 12 */ "{'target': 'particles', 'id': 's2', 'property': 'emitting', 'keys': [{'time': 0, 'value': false}, {'time': 1, 'value': true}]},"
    /* 13 */ "{'target': 'drawOrder', 'id': 'skeleton', 'property': 'order', 'keys': ["
    "   {'time': 0, 'value': ['s2', 'nope', 's1', 's3']}, {'time': 1, 'value': []}]},"
    /* 14 */ "{'target': 'warp', 'id': 'arm', 'property': 'rotation', 'keys': [{'time': 9, 'value': 'anything'}]},"
    /* 15 */ "{'target': 'bone', 'id': 'arm', 'property': 'mix', 'keys': [{'time': 0, 'value': 1}]},"
    /* 16 */ "{'target': 'bone', 'id': 'ghost', 'property': 'x', 'keys': [{'time': 0, 'value': 1}]},"
    /* 17 */ "{'target': 'slot', 'id': 's3', 'property': 'color', 'keys': [{'time': 0, 'value': '#fff'}]},"
    /* 18 */ "{'target': 'bone', 'id': 'arm', 'property': 'rotation', 'keys': [{'time': 3, 'value': 1}, {'time': 1, 'value': 2}]},"
    /* 19 */ "{'target': 'bone', 'id': 'arm', 'property': 'y', 'keys': []},"
    /* 20 */ "{'target': 'particles', 'id': 's2', 'property': 'rate', 'keys': [{'time': 0, 'value': 12}]},"
    /* 21 */ "{'target': 'ik', 'id': 'c', 'property': 'mix'}"
    "], 'events': [{'time': 0.5, 'event': 'ev', 'int': 2, 'string': 's'}, {'time': 4, 'event': 'gone'}],"
    "   'audio': [{'time': 5, 'sound': 'boom', 'volume': 0.5, 'loop': true}]},"
    "{'id': 'a2', 'duration': 2, 'timelines': ["
    "   {'target': 'bone', 'id': 'arm', 'property': 'rotation', 'keys': [{'time': 9, 'value': 1}]},"
    "   {'target': 'bone', 'id': 'arm', 'property': 'x', 'keys': [{'time': 0, 'value': 1}]}]},"
    "{'id': 'a3', 'duration': 0, 'timelines': [{'target': 'bone', 'id': 'arm', 'property': 'x', 'keys': [{'time': -1, 'value': 1}]}]}"
    "]}";

static void test_animations(void)
{
    ob_document *doc = load_ok(ANIMS, __LINE__);
    if (!doc) return;
    EQ_INT(doc->slot_count, 2);  /* s3 dropped */
    EQ_INT(doc->animation_count, 3);
    ob_animation_data *a = &doc->animations[0];
    EQ_STR(a->id, "a1");
    EQ_STR(a->name, "walk");
    EQ_INT(a->timeline_count, 22);
    ob_timeline *t = a->timelines;

    /* bone rotation: curves */
    EQ_INT(t[0].target, OB_TL_BONE);
    EQ_INT(t[0].property, OB_P_ROTATION);
    EQ_INT(t[0].index, 1);
    EQ_STR(t[0].target_id, "arm");
    EQ_STR(t[0].attachment_name, NULL);
    EQ_INT(t[0].attachment, -1);
    EQ_INT(t[0].key_count, 3);
    EQ_INT(t[0].keys[0].curve, OB_CURVE_BEZIER);
    EQ_NUM(t[0].keys[0].c[0], 0.25);
    EQ_NUM(t[0].keys[0].c[2], 0.75);
    EQ_NUM(t[0].keys[0].c[3], 1);
    EQ_NUM(t[0].keys[0].v[0], 10);
    EQ_INT(t[0].keys[1].curve, OB_CURVE_STEPPED);
    EQ_INT(t[0].keys[2].curve, OB_CURVE_LINEAR);
    EQ_NUM(t[0].keys[2].time, 2);
    EQ_NUM(t[0].keys[2].v[0], 30);
    /* inherit */
    EQ_INT(t[1].index, 0);
    EQ_INT(t[1].property, OB_P_INHERIT);
    EQ_INT(t[1].keys[0].ref, OB_INHERIT_NO_SCALE);
    /* slot colours: §4.5 parseHex */
    EQ_INT(t[2].target, OB_TL_SLOT);
    EQ_INT(t[2].index, 1);  /* s2 is the second slot kept */
    EQ_NUM(t[2].keys[0].v[0], 1);
    EQ_NUM(t[2].keys[0].v[1], 0);
    EQ_NUM(t[2].keys[0].v[3], 128 / 255.0);
    EQ_INT(t[3].property, OB_P_DARK);
    EQ_NUM(t[3].keys[0].v[1], 1);
    EQ_NUM(t[3].keys[0].v[3], 1);
    /* attachment names interned, null = -1 */
    EQ_INT(t[4].keys[0].ref, att_name(doc, "m"));
    CHECK(t[4].keys[0].ref >= 0);
    EQ_INT(t[4].keys[1].ref, -1);
    EQ_INT(t[4].keys[2].ref, att_name(doc, "other"));
    CHECK(t[4].keys[2].ref >= 0);
    /* ik bend: Number(value) */
    EQ_INT(t[5].target, OB_TL_IK);
    EQ_INT(t[5].index, 0);
    EQ_NUM(t[5].keys[0].v[0], 1);
    EQ_NUM(t[5].keys[1].v[0], 0);
    EQ_NUM(t[5].keys[2].v[0], -1);
    /* constraint lookups stay inside their kind: transform "c" is index ik_count + 0 */
    EQ_INT(t[6].index, doc->ik_count + 0);
    EQ_INT(doc->constraints[t[6].index].kind, OB_CON_TRANSFORM);
    EQ_INT(t[7].index, doc->ik_count + 1);
    EQ_INT(t[7].property, OB_P_MIX);
    EQ_INT(t[8].index, doc->ik_count + doc->transform_count);
    EQ_INT(doc->constraints[t[8].index].kind, OB_CON_PATH);
    EQ_INT(t[9].index, doc->ik_count + doc->transform_count + doc->path_count);
    EQ_INT(doc->constraints[t[9].index].kind, OB_CON_PHYSICS);
    EQ_NUM(t[9].keys[0].v[0], 4);
    /* deform */
    EQ_INT(t[10].target, OB_TL_DEFORM);
    EQ_INT(t[10].index, 0);
    EQ_STR(t[10].attachment_name, "m");
    EQ_INT(t[10].attachment, att_name(doc, "m"));
    EQ_INT(t[10].keys[0].count, 3);
    EQ_NUM(t[10].keys[0].offsets[2], 3);
    EQ_INT(t[10].keys[1].count, 0);
    /* sequence */
    EQ_INT(t[11].index, 1);
    EQ_STR(t[11].attachment_name, "seq");
    EQ_INT(t[11].attachment, att_name(doc, "seq"));
    CHECK(t[11].attachment >= 0);
    EQ_NUM(t[11].keys[0].v[0], 7);
    /* particles emitting: booleans */
    EQ_NUM(t[12].keys[0].v[0], 0);
    EQ_NUM(t[12].keys[1].v[0], 1);
    /* draw order: existing slot ids, in listed order; unknown and dropped ids left out */
    EQ_INT(t[13].target, OB_TL_DRAW_ORDER);
    EQ_INT(t[13].index, 0);
    EQ_INT(t[13].keys[0].count, 2);
    EQ_INT(t[13].keys[0].order[0], 1);
    EQ_INT(t[13].keys[0].order[1], 0);
    EQ_INT(t[13].keys[1].count, 0);
    CHECK(warned(doc, "animations[0].timelines[13].keys[0].value[1]: no slot 'nope'"));
    /* unknown target / property, missing bone / dropped slot: kept, index -1, warned */
    EQ_INT(t[14].target, OB_TL_UNKNOWN);
    EQ_INT(t[14].index, -1);
    EQ_INT(t[14].key_count, 1);
    CHECK(warned(doc, "animations[0].timelines[14].target: unknown timeline target 'warp'"));
    EQ_INT(t[15].property, OB_P_UNKNOWN);
    EQ_INT(t[15].index, -1);
    CHECK(warned(doc, "animations[0].timelines[15].property: a bone timeline has no property 'mix'"));
    EQ_INT(t[16].index, -1);
    CHECK(warned(doc, "animations[0].timelines[16].id: no bone 'ghost'"));
    EQ_INT(t[17].index, -1);
    /* keys out of order: kept in file order, warned */
    EQ_NUM(t[18].keys[0].time, 3);
    EQ_NUM(t[18].keys[1].time, 1);
    CHECK(warned(doc, "animations[0].timelines[18].keys: key times are not in ascending order"));
    CHECK(!warned(doc, "animations[0].timelines[0].keys: key times"));
    EQ_INT(t[19].key_count, 0);
    EQ_NUM(t[20].keys[0].v[0], 12);
    EQ_INT(t[21].key_count, 0);  /* missing keys: [] */

    /* channels: the same (target, id, property, attachment) is one channel */
    EQ_INT(t[18].channel, t[0].channel);
    CHECK(t[0].channel != t[19].channel);
    CHECK(t[5].channel != t[21].channel);
    /* the animation's channels: sorted, unique, only timelines with keys (19, 21 have none) */
    int32_t expect_channels = 0;
    for (int32_t i = 0; i < a->timeline_count; i++) {
        int dup = 0;
        for (int32_t j = 0; j < i; j++) dup |= a->timelines[j].key_count && a->timelines[j].channel == t[i].channel;
        if (t[i].key_count && !dup) expect_channels++;
    }
    EQ_INT(a->channel_count, expect_channels);
    EQ_INT(a->channel_count, 19);
    for (int32_t i = 1; i < a->channel_count; i++) CHECK(a->channels[i - 1] < a->channels[i]);
    for (int32_t i = 0; i < a->channel_count; i++) CHECK(a->channels[i] != t[19].channel);
    CHECK(doc->channel_count >= a->channel_count);

    /* event keys */
    EQ_INT(a->event_count, 2);
    EQ_NUM(a->events[0].time, 0.5);
    EQ_INT(a->events[0].event, 0);
    EQ_INT(a->events[0].has_int, 1);
    EQ_NUM(a->events[0].int_value, 2);
    EQ_INT(a->events[0].has_float, 0);
    EQ_INT(a->events[0].has_string, 1);
    EQ_STR(a->events[0].string_value, "s");
    EQ_INT(a->events[1].event, -1);
    CHECK(warned(doc, "animations[0].events[1].event: no event 'gone'"));
    /* audio keys */
    EQ_INT(a->audio_count, 1);
    EQ_STR(a->audio[0].sound, "boom");
    EQ_INT(a->audio[0].has_volume, 1);
    EQ_NUM(a->audio[0].volume, 0.5);
    EQ_INT(a->audio[0].has_rate, 0);
    EQ_INT(a->audio[0].has_loop, 1);
    EQ_INT(a->audio[0].loop, 1);
    /* §5.1 animationDuration: no duration ⇒ max time of every key, event and audio key
    ** (timeline 14's key at 9 counts too: it is a key of the animation) */
    EQ_NUM(a->duration, 0);
    EQ_NUM(a->length, 9);

    /* a2: explicit duration wins; its channels match a1's */
    ob_animation_data *b = &doc->animations[1];
    EQ_STR(b->name, "a2");  /* no name: the id */
    EQ_NUM(b->length, 2);
    EQ_INT(b->timelines[0].channel, t[0].channel);
    EQ_INT(b->channel_count, 2);
    EQ_INT(b->audio_count, 0);
    EQ_INT(b->event_count, 0);
    /* a3: only negative key times ⇒ length 0 */
    EQ_NUM(doc->animations[2].length, 0);
    ob_document_free(doc);
}

/* ---- sliders (§7.5) ---------------------------------------------------- */

static void test_sliders(void)
{
    ob_document *doc = load_ok(
        "{'format': 'openbone', 'version': 1, " SKELETON ", 'sliders': ["
        "{'id': 'sl', 'name': 'Slide', 'animation': 'a', 'bone': 'arm', 'property': 'x', 'from': -1, 'to': 2,"
        " 'timeFrom': 0.5, 'timeTo': 0, 'mix': 0.75, 'loop': true, 'additive': true},"
        "{'id': 'sl2', 'animation': 'missing', 'input': 'knob'},"
        "{'id': 'sl3', 'animation': 'a', 'bone': 'ghost'}]},"
        "'animations': [{'id': 'a', 'duration': 1}]}",
        __LINE__);
    if (!doc) return;
    EQ_INT(doc->slider_count, 3);
    ob_slider_data *s = &doc->sliders[0];
    EQ_STR(s->name, "Slide");
    EQ_INT(s->animation, 0);
    EQ_INT(s->bone, 1);
    EQ_INT(s->has_bone, 1);
    EQ_INT(s->property, OB_P_X);
    EQ_STR(s->input, NULL);
    EQ_NUM(s->from, -1);
    EQ_NUM(s->to, 2);
    EQ_INT(s->has_time_from, 1);
    EQ_NUM(s->time_from, 0.5);
    EQ_INT(s->has_time_to, 1);
    EQ_NUM(s->time_to, 0);
    EQ_NUM(s->mix, 0.75);
    EQ_INT(s->loop, 1);
    EQ_INT(s->additive, 1);
    s = &doc->sliders[1];
    EQ_INT(s->animation, -1);
    CHECK(warned(doc, "skeleton.sliders[1].animation: no animation 'missing'"));
    EQ_INT(s->has_bone, 0);
    EQ_INT(s->bone, -1);
    EQ_INT(s->property, OB_P_ROTATION);  /* default rotation */
    EQ_STR(s->input, "knob");
    EQ_INT(s->has_time_from, 0);
    EQ_INT(s->has_time_to, 0);
    EQ_NUM(s->mix, 1);
    EQ_INT(s->loop, 0);
    EQ_INT(s->additive, 0);
    s = &doc->sliders[2];
    EQ_INT(s->has_bone, 1);
    EQ_INT(s->bone, -1);
    CHECK(warned(doc, "skeleton.sliders[2].bone: no bone 'ghost'"));
    ob_document_free(doc);
}

/* ---- audio, scripts ---------------------------------------------------- */

static void test_audio_scripts(void)
{
    ob_document *doc = load_ok(
        "{'format': 'openbone', 'version': 1, 'audio': {'master': 0.5, 'muted': true,"
        " 'assets': [{'id': 'as1', 'name': 'Boom', 'src': 'boom.wav', 'duration': 1.5}, {'id': 'as2'}],"
        " 'buses': [{'id': 'bus_sfx', 'name': 'sfx', 'volume': 0.8, 'muted': true}, {'id': 'bus_music'}],"
        " 'sounds': [{'id': 'snd', 'name': 'boom', 'asset': 'as2', 'bus': 'bus_music', 'volume': 0.3, 'rate': 2,"
        "   'loop': true, 'fadeIn': 0.1, 'fadeOut': 0.2},"
        "  {'id': 'snd2', 'asset': 'nope', 'bus': null}]},"
        "'scripts': [{'id': 'sc', 'name': 'Main', 'code': 'function run() {}'}, {'id': 'sc2'}]}",
        __LINE__);
    if (!doc) return;
    EQ_INT(doc->has_audio, 1);
    EQ_NUM(doc->audio_master, 0.5);
    EQ_INT(doc->audio_muted, 1);
    EQ_INT(doc->audio_asset_count, 2);
    EQ_STR(doc->audio_assets[0].src, "boom.wav");
    EQ_NUM(doc->audio_assets[0].duration, 1.5);
    EQ_NUM(doc->audio_assets[1].duration, 0);
    EQ_INT(doc->audio_bus_count, 2);
    EQ_STR(doc->audio_buses[0].name, "sfx");
    EQ_NUM(doc->audio_buses[0].volume, 0.8);
    EQ_INT(doc->audio_buses[0].muted, 1);
    EQ_NUM(doc->audio_buses[1].volume, 1);
    EQ_INT(doc->audio_buses[1].muted, 0);
    EQ_INT(doc->sound_count, 2);
    ob_sound_data *s = &doc->sounds[0];
    EQ_INT(s->asset, 1);
    EQ_INT(s->bus, 1);
    EQ_STR(s->asset_ref, "as2");
    EQ_NUM(s->volume, 0.3);
    EQ_NUM(s->rate, 2);
    EQ_INT(s->loop, 1);
    EQ_NUM(s->fade_in, 0.1);
    EQ_NUM(s->fade_out, 0.2);
    s = &doc->sounds[1];  /* defaults; missing asset, null bus */
    EQ_INT(s->asset, -1);
    EQ_STR(s->asset_ref, "nope");
    EQ_INT(s->bus, -1);
    EQ_STR(s->bus_ref, NULL);
    EQ_NUM(s->volume, 1);
    EQ_NUM(s->rate, 1);
    EQ_INT(s->loop, 0);
    EQ_NUM(s->fade_in, 0);
    EQ_NUM(s->fade_out, 0);
    CHECK(warned(doc, "audio.sounds[1].asset: no audio asset 'nope'"));
    EQ_INT(doc->script_count, 2);
    EQ_STR(doc->scripts[0].name, "Main");
    EQ_STR(doc->scripts[0].code, "function run() {}");
    EQ_STR(doc->scripts[1].code, "");
    ob_document_free(doc);
}

/* ---- state machines (§9) ----------------------------------------------- */

static const char *MACHINE =
    "{'format': 'openbone', 'version': 1, " SKELETON "},"
    "'events': [{'id': 'ev'}],"
    "'animations': [{'id': 'idle'}, {'id': 'run'}],"
    "'audio': {'buses': [{'id': 'bus_music'}]},"
    "'scripts': [{'id': 'sc1', 'code': ''}, {'id': 'sc2', 'code': ''}],"
    "'stateMachines': [{'id': 'sm', 'name': 'Main',"
    " 'inputs': [{'id': 'go', 'name': 'Go', 'type': 'bool', 'default': true},"
    "   {'id': 'speed', 'type': 'number', 'default': 1.5}, {'id': 'mode', 'type': 'string', 'default': 'a'},"
    "   {'id': 'jump', 'type': 'trigger'}],"
    " 'bindings': [{'id': 'b1', 'input': 'speed', 'object': 'bone', 'target': 'arm', 'property': 'rotation',"
    "   'inMin': 0, 'inMax': 10, 'outMin': -45, 'outMax': 45},"
    "  {'id': 'b2', 'input': 'speed', 'object': 'slot', 'target': 's2', 'property': 'color',"
    "   'outMin': '#000000', 'outMax': '#ff0000ff'},"
    "  {'id': 'b3', 'input': 'speed', 'object': 'constraint', 'target': 'ph', 'property': 'wind'},"
    "  {'id': 'b4', 'input': 'nope', 'object': 'constraint', 'target': 'ph', 'property': 'bend'},"
    "  {'id': 'b5', 'input': 'go', 'object': 'widget', 'target': 'x', 'property': 'x'}],"
    " 'layers': [{'id': 'L1', 'name': 'Base', 'entry': 'st_idle',"
    "   'states': [{'id': 'st_idle', 'name': 'Idle', 'type': 'animation', 'animation': 'idle', 'onComplete': 'st_run',"
    "      'sounds': [{'sound': 'hum', 'on': 'exit', 'action': 'stop', 'volume': 0.5}, {'sound': 'beep'}],"
    "      'emitters': [{'slot': 's2', 'emitting': true}, {'slot': 'gone', 'emitting': false}],"
    "      'inputs': [{'input': 'speed', 'value': 1}, {'input': 'mode', 'value': 'b'}],"
    "      'scripts': ['sc2', 'nope', 'sc1']},"
    "     {'id': 'st_run', 'type': 'blend1d', 'input': 'speed', 'loop': false, 'speed': 2,"
    "      'entries': [{'value': 1, 'animation': 'run'}, {'value': 0, 'animation': 'idle'}, {'value': 2, 'animation': 'zzz'}]},"
    "     {'id': 'st_exit', 'type': 'exit'},"
    "     {'id': 'st_odd', 'type': 'dance', 'animation': 'nope'}],"
    "   'transitions': [{'id': 't1', 'from': 'st_idle', 'to': 'st_run', 'duration': 0.25, 'exitTime': 0.5,"
    "      'conditions': [{'input': 'go', 'op': '==', 'value': true}, {'input': 'jump'},"
    "                     {'input': 'speed', 'op': '>=', 'value': 2}, {'input': 'mode', 'op': '!=', 'value': 'x'}]},"
    "     {'from': '@any', 'to': 'st_exit', 'exitTime': null, 'conditions': [{'input': 'jump', 'op': '==', 'value': 3}]},"
    "     {'from': 'st_gone', 'to': 'st_gone2'}]},"
    "  {'states': [], 'entry': 'x'}],"
    " 'listeners': [{'id': 'l1', 'name': 'Tap', 'slot': 's1', 'event': 'click', 'actions': ["
    "     {'type': 'setInput', 'input': 'Go', 'value': 'true'}, {'type': 'toggleInput', 'input': 'go'},"
    "     {'type': 'fireTrigger', 'input': 'jump'}, {'type': 'reportEvent', 'event': 'ev'},"
    "     {'type': 'playSound', 'sound': 'boom', 'volume': 0.5}, {'type': 'stopSound', 'sound': 'boom', 'fade': 1},"
    "     {'type': 'runScript', 'script': 'sc2', 'fn': 'go'}, {'type': 'setEmitter', 'slot': 's2', 'emitting': true},"
    "     {'type': 'emitParticles', 'slot': 's2', 'count': 5}, {'type': 'setMute', 'bus': 'bus_music', 'muted': 'toggle'},"
    "     {'type': 'setMute', 'bus': null, 'muted': true}, {'type': 'dance'}, {'type': 'runScript', 'script': 'sc1'},"
    "     {'type': 'stopSound', 'sound': 'boom'}]},"
    "  {'id': 'l2', 'slot': null, 'event': 'enter'},"
    "  {'id': 'l3', 'slot': 'gone', 'event': 'hover'}],"
    " 'scripts': ['sc1', 'zz']},"
    " {'id': 'empty'}]}";

static void test_state_machines(void)
{
    ob_document *doc = load_ok(MACHINE, __LINE__);
    if (!doc) return;
    EQ_INT(doc->machine_count, 2);
    ob_machine_data *m = &doc->machines[0];
    EQ_STR(m->name, "Main");
    /* inputs */
    EQ_INT(m->input_count, 4);
    EQ_STR(m->inputs[0].name, "Go");
    EQ_INT(m->inputs[0].type, OB_INPUT_BOOL);
    EQ_INT(m->inputs[0].def.kind, OB_VAL_BOOL);
    EQ_NUM(m->inputs[0].def.number, 1);
    EQ_INT(m->inputs[1].type, OB_INPUT_NUMBER);
    EQ_NUM(m->inputs[1].def.number, 1.5);
    EQ_INT(m->inputs[2].type, OB_INPUT_STRING);
    EQ_STR(m->inputs[2].def.string, "a");
    EQ_INT(m->inputs[3].type, OB_INPUT_TRIGGER);
    EQ_INT(m->inputs[3].def.kind, OB_VAL_NULL);
    /* bindings */
    EQ_INT(m->binding_count, 5);
    ob_binding_data *b = m->bindings;
    EQ_INT(b[0].input, 1);
    EQ_INT(b[0].object, OB_BIND_BONE);
    EQ_INT(b[0].target, 1);
    EQ_INT(b[0].property, OB_P_ROTATION);
    EQ_NUM(b[0].in_max, 10);
    EQ_NUM(b[0].out_min, -45);
    EQ_NUM(b[0].out_max, 45);
    EQ_INT(b[1].object, OB_BIND_SLOT);
    EQ_INT(b[1].target, 1);
    EQ_INT(b[1].property, OB_P_COLOR);
    EQ_NUM(b[1].out_min_color[0], 0);
    EQ_NUM(b[1].out_min_color[3], 1);
    EQ_NUM(b[1].out_max_color[0], 1);
    EQ_NUM(b[1].out_max_color[1], 0);
    EQ_NUM(b[1].in_min, 0);  /* defaults 0..1 */
    EQ_NUM(b[1].in_max, 1);
    EQ_INT(b[2].object, OB_BIND_CONSTRAINT);
    EQ_INT(doc->constraints[b[2].target].kind, OB_CON_PHYSICS);
    EQ_INT(b[2].property, OB_P_WIND);
    EQ_NUM(b[2].out_min, 0);
    EQ_NUM(b[2].out_max, 1);
    EQ_INT(b[3].input, -1);
    EQ_INT(b[3].property, OB_P_UNKNOWN);  /* physics has no bend */
    CHECK(warned(doc, "stateMachines[0].bindings[3].input: no input 'nope'"));
    CHECK(warned(doc, "stateMachines[0].bindings[3].property: a constraint binding cannot drive 'bend'"));
    EQ_INT(b[4].object, OB_BIND_UNKNOWN);
    EQ_INT(b[4].target, -1);
    /* layers and states */
    EQ_INT(m->layer_count, 2);
    ob_layer_data *l = &m->layers[0];
    EQ_STR(l->name, "Base");
    EQ_INT(l->entry, 0);
    EQ_INT(l->state_count, 4);
    ob_state_data *s = l->states;
    EQ_STR(s[0].name, "Idle");
    EQ_INT(s[0].type, OB_STATE_ANIMATION);
    EQ_INT(s[0].animation, 0);
    EQ_INT(s[0].loop, 1);  /* default true */
    EQ_NUM(s[0].speed, 1);
    EQ_INT(s[0].input, -1);
    EQ_INT(s[0].on_complete, 1);
    EQ_INT(s[0].sound_count, 2);
    EQ_STR(s[0].sounds[0].sound, "hum");
    EQ_INT(s[0].sounds[0].on_exit, 1);
    EQ_INT(s[0].sounds[0].stop, 1);
    EQ_INT(s[0].sounds[0].has_volume, 1);
    EQ_NUM(s[0].sounds[0].volume, 0.5);
    EQ_INT(s[0].sounds[1].on_exit, 0);  /* default on enter, play */
    EQ_INT(s[0].sounds[1].stop, 0);
    EQ_INT(s[0].sounds[1].has_volume, 0);
    EQ_INT(s[0].emitter_count, 2);
    EQ_INT(s[0].emitters[0].slot, 1);
    EQ_INT(s[0].emitters[0].emitting, 1);
    EQ_INT(s[0].emitters[1].slot, -1);
    EQ_INT(s[0].input_count, 2);
    EQ_INT(s[0].inputs[0].input, 1);
    EQ_INT(s[0].inputs[0].value.kind, OB_VAL_NUMBER);
    EQ_INT(s[0].inputs[1].input, 2);
    EQ_STR(s[0].inputs[1].value.string, "b");
    EQ_INT(s[0].script_count, 2);  /* unknown script ids left out */
    EQ_INT(s[0].scripts[0], 1);
    EQ_INT(s[0].scripts[1], 0);
    CHECK(warned(doc, "stateMachines[0].layers[0].states[0].scripts[1]: no script 'nope'"));
    EQ_INT(s[1].type, OB_STATE_BLEND1D);
    EQ_INT(s[1].input, 1);
    EQ_INT(s[1].loop, 0);
    EQ_NUM(s[1].speed, 2);
    EQ_INT(s[1].animation, -1);
    EQ_INT(s[1].on_complete, -1);
    EQ_INT(s[1].entry_count, 3);  /* file order (sorted at use) */
    EQ_NUM(s[1].entries[0].value, 1);
    EQ_INT(s[1].entries[0].animation, 1);
    EQ_INT(s[1].entries[1].animation, 0);
    EQ_INT(s[1].entries[2].animation, -1);
    EQ_INT(s[2].type, OB_STATE_EXIT);
    EQ_INT(s[3].type, OB_STATE_UNKNOWN);
    EQ_INT(s[3].animation, -1);
    CHECK(warned(doc, "stateMachines[0].layers[0].states[3].animation: no animation 'nope'"));
    /* transitions */
    EQ_INT(l->transition_count, 3);
    ob_transition_data *t = l->transitions;
    EQ_INT(t[0].from, 0);
    EQ_INT(t[0].to, 1);
    EQ_NUM(t[0].duration, 0.25);
    EQ_INT(t[0].has_exit_time, 1);
    EQ_NUM(t[0].exit_time, 0.5);
    EQ_INT(t[0].condition_count, 4);
    EQ_INT(t[0].conditions[0].input, 0);
    EQ_INT(t[0].conditions[0].op, OB_OP_EQ);
    EQ_INT(t[0].conditions[0].value.kind, OB_VAL_BOOL);
    EQ_INT(t[0].conditions[1].input, 3);
    EQ_INT(t[0].conditions[1].op, OB_OP_NONE);
    EQ_INT(t[0].conditions[2].op, OB_OP_GE);
    EQ_NUM(t[0].conditions[2].value.number, 2);
    EQ_INT(t[0].conditions[3].op, OB_OP_NE);
    EQ_STR(t[0].conditions[3].value.string, "x");
    EQ_INT(t[1].from, OB_FROM_ANY);
    EQ_INT(t[1].to, 2);
    EQ_NUM(t[1].duration, 0);
    EQ_INT(t[1].has_exit_time, 0);
    EQ_INT(t[1].conditions[0].op, OB_OP_NONE);  /* a trigger: op/value ignored */
    EQ_INT(t[1].conditions[0].value.kind, OB_VAL_NULL);
    EQ_INT(t[2].from, -1);
    EQ_INT(t[2].to, -1);
    EQ_INT(t[2].condition_count, 0);
    CHECK(warned(doc, "stateMachines[0].layers[0].transitions[2].to: no state 'st_gone2' in this layer"));
    EQ_INT(m->layers[1].entry, -1);
    EQ_INT(m->layers[1].state_count, 0);
    /* listeners and actions */
    EQ_INT(m->listener_count, 3);
    ob_listener_data *li = m->listeners;
    EQ_STR(li[0].name, "Tap");
    EQ_INT(li[0].has_slot, 1);
    EQ_INT(li[0].slot, 0);
    EQ_INT(li[0].event, OB_LE_CLICK);
    EQ_INT(li[0].action_count, 14);
    ob_action_data *a = li[0].actions;
    EQ_INT(a[0].type, OB_ACT_SET_INPUT);
    EQ_STR(a[0].input, "Go");
    EQ_STR(a[0].value.string, "true");
    CHECK(!warned(doc, "no input 'Go'"));  /* found by name */
    EQ_INT(a[1].type, OB_ACT_TOGGLE_INPUT);
    EQ_STR(a[1].input, "go");
    EQ_INT(a[2].type, OB_ACT_FIRE_TRIGGER);
    EQ_INT(a[3].type, OB_ACT_REPORT_EVENT);
    EQ_INT(a[3].event, 0);
    EQ_INT(a[4].type, OB_ACT_PLAY_SOUND);
    EQ_STR(a[4].sound, "boom");
    EQ_INT(a[4].has_volume, 1);
    EQ_NUM(a[4].volume, 0.5);
    EQ_INT(a[5].type, OB_ACT_STOP_SOUND);
    EQ_INT(a[5].has_fade, 1);
    EQ_NUM(a[5].fade, 1);
    EQ_INT(a[6].type, OB_ACT_RUN_SCRIPT);
    EQ_INT(a[6].script, 1);
    EQ_STR(a[6].fn, "go");
    EQ_INT(a[7].type, OB_ACT_SET_EMITTER);
    EQ_INT(a[7].slot, 1);
    EQ_INT(a[7].emitting, 1);
    EQ_INT(a[8].type, OB_ACT_EMIT_PARTICLES);
    EQ_NUM(a[8].count, 5);
    EQ_INT(a[9].type, OB_ACT_SET_MUTE);
    EQ_STR(a[9].bus, "bus_music");
    EQ_INT(a[9].muted, 2);
    EQ_STR(a[10].bus, NULL);
    EQ_INT(a[10].muted, 1);
    EQ_INT(a[11].type, OB_ACT_UNKNOWN);
    CHECK(warned(doc, "stateMachines[0].listeners[0].actions[11].type: unknown action type 'dance'"));
    EQ_INT(a[12].script, 0);
    EQ_STR(a[12].fn, "run");  /* CLARIFICATIONS: without fn, run */
    EQ_INT(a[13].has_fade, 0);
    EQ_INT(li[1].has_slot, 0);
    EQ_INT(li[1].slot, -1);
    EQ_INT(li[1].event, OB_LE_ENTER);
    EQ_INT(li[1].action_count, 0);
    EQ_INT(li[2].has_slot, 1);
    EQ_INT(li[2].slot, -1);
    EQ_INT(li[2].event, OB_LE_UNKNOWN);
    /* machine scripts */
    EQ_INT(m->script_count, 1);
    EQ_INT(m->scripts[0], 0);
    /* an empty machine: every list empty (§2: bindings ⇒ []) */
    m = &doc->machines[1];
    EQ_STR(m->name, "empty");
    EQ_INT(m->input_count, 0);
    EQ_INT(m->binding_count, 0);
    EQ_INT(m->layer_count, 0);
    EQ_INT(m->listener_count, 0);
    EQ_INT(m->script_count, 0);
    ob_document_free(doc);
}

/* ---- errors ------------------------------------------------------------ */

#define DOC(rest) "{'format': 'openbone', 'version': 1, " SKELETON "}, " rest "}"
#define TL(tl) DOC("'animations': [{'id': 'a', 'timelines': [" tl "]}]")

static void test_errors(void)
{
    /* events */
    expect_error(DOC("'events': {}"), "events: expected an array, got an object", __LINE__);
    expect_error(DOC("'events': [{'id': 'e'}, 3]"), "events[1]: expected an object, got 3", __LINE__);
    expect_error(DOC("'events': [{'id': 'e', 'int': '3'}]"), "events[0].int: expected a number, got '3'", __LINE__);
    expect_error(DOC("'events': [{'id': 'e', 'string': 3}]"), "events[0].string: expected a string, got 3", __LINE__);
    /* animations */
    expect_error(DOC("'animations': [{'id': 'a', 'duration': 'long'}]"),
                 "animations[0].duration: expected a number, got 'long'", __LINE__);
    expect_error(DOC("'animations': [{'id': 'a', 'timelines': {}}]"),
                 "animations[0].timelines: expected an array, got an object", __LINE__);
    expect_error(TL("{'target': 'bone', 'id': 'arm', 'property': 'x', 'keys': [{'time': 0, 'value': 1}]},"
                    "{'target': 'bone', 'id': 'arm', 'property': 'y', 'keys': []},"
                    "{'target': 'bone', 'id': 'arm', 'property': 'x', 'keys': [{'time': 0, 'value': 1}, {'time': 'x', 'value': 2}]}"),
                 "animations[0].timelines[2].keys[1].time: expected a number, got 'x'", __LINE__);
    expect_error(TL("{'target': 'bone', 'id': 'arm', 'property': 'x', 'keys': [{'value': 1}]}"),
                 "animations[0].timelines[0].keys[0].time: expected a number, got nothing", __LINE__);
    expect_error(TL("{'target': 'bone', 'id': 'arm', 'property': 'x', 'keys': [{'time': 0, 'value': '1'}]}"),
                 "animations[0].timelines[0].keys[0].value: expected a number, got '1'", __LINE__);
    expect_error(TL("{'target': 'bone', 'id': 'ghost', 'property': 'x', 'keys': [{'time': 0}]}"),
                 "animations[0].timelines[0].keys[0].value: expected a number, got nothing", __LINE__);
    expect_error(TL("{'target': 'bone', 'id': 'arm', 'property': 'x', 'keys': [{'time': 0, 'value': 1, 'curve': 'smooth'}]}"),
                 "animations[0].timelines[0].keys[0].curve: expected 'linear', 'stepped' or [cx1, cy1, cx2, cy2], got 'smooth'",
                 __LINE__);
    expect_error(TL("{'target': 'bone', 'id': 'arm', 'property': 'x', 'keys': [{'time': 0, 'value': 1, 'curve': [0, 1, 2]}]}"),
                 "animations[0].timelines[0].keys[0].curve: expected 'linear', 'stepped' or [cx1, cy1, cx2, cy2], got an array",
                 __LINE__);
    expect_error(TL("{'target': 'bone', 'id': 'arm', 'property': 'x', 'keys': [{'time': 0, 'value': 1, 'curve': [0, 1, 'a', 1]}]}"),
                 "animations[0].timelines[0].keys[0].curve[2]: expected a number, got 'a'", __LINE__);
    expect_error(TL("{'target': 'bone', 'id': 'arm', 'property': 'inherit', 'keys': [{'time': 0, 'value': 'sideways'}]}"),
                 "animations[0].timelines[0].keys[0].value: expected 'normal', 'onlyTranslation', 'noRotation' or 'noScale', got 'sideways'",
                 __LINE__);
    expect_error(TL("{'target': 'slot', 'id': 's1', 'property': 'color', 'keys': [{'time': 0, 'value': '#12345'}]}"),
                 "animations[0].timelines[0].keys[0].value: expected a hex colour like '#rrggbb' or '#rrggbbaa', got '#12345'",
                 __LINE__);
    expect_error(TL("{'target': 'slot', 'id': 's1', 'property': 'dark', 'keys': [{'time': 0, 'value': 255}]}"),
                 "animations[0].timelines[0].keys[0].value: expected a hex colour string, got 255", __LINE__);
    expect_error(TL("{'target': 'slot', 'id': 's1', 'property': 'attachment', 'keys': [{'time': 0, 'value': {}}]}"),
                 "animations[0].timelines[0].keys[0].value: expected an id (a string), got an object", __LINE__);
    expect_error(TL("{'target': 'ik', 'id': 'c', 'property': 'stretch', 'keys': [{'time': 0, 'value': 'yes'}]}"),
                 "animations[0].timelines[0].keys[0].value: expected a number or true/false, got 'yes'", __LINE__);
    expect_error(TL("{'target': 'particles', 'id': 's1', 'property': 'emitting', 'keys': [{'time': 0, 'value': 'on'}]}"),
                 "animations[0].timelines[0].keys[0].value: expected true or false, got 'on'", __LINE__);
    expect_error(TL("{'target': 'deform', 'id': 's1', 'attachment': 'm', 'property': 'offsets', 'keys': [{'time': 0, 'value': 1}]}"),
                 "animations[0].timelines[0].keys[0].value: expected an array, got 1", __LINE__);
    expect_error(TL("{'target': 'deform', 'id': 's1', 'attachment': 'm', 'property': 'offsets', 'keys': [{'time': 0, 'value': [1, null]}]}"),
                 "animations[0].timelines[0].keys[0].value[1]: expected a number, got null", __LINE__);
    expect_error(TL("{'target': 'drawOrder', 'id': 'skeleton', 'property': 'order', 'keys': [{'time': 0, 'value': ['s1', true]}]}"),
                 "animations[0].timelines[0].keys[0].value[1]: expected an id (a string), got true", __LINE__);
    expect_error(TL("{'target': 'drawOrder', 'id': 'skeleton', 'property': 'order', 'keys': [{'time': 0, 'value': 's1'}]}"),
                 "animations[0].timelines[0].keys[0].value: expected a list of slot ids, got 's1'", __LINE__);
    expect_error(TL("{'target': 5, 'id': 'arm', 'property': 'x', 'keys': []}"),
                 "animations[0].timelines[0].target: expected a string, got 5", __LINE__);
    expect_error(TL("{'target': 'bone', 'id': 'arm', 'property': 'x', 'keys': [[0, 1]]}"),
                 "animations[0].timelines[0].keys[0]: expected an object, got an array", __LINE__);
    expect_error(DOC("'events': [{'id': 'ev'}], 'animations': [{'id': 'a', 'events': [{'time': 1, 'event': 'ev', 'float': 'x'}]}]"),
                 "animations[0].events[0].float: expected a number, got 'x'", __LINE__);
    expect_error(DOC("'animations': [{'id': 'a', 'audio': [{'time': 1, 'sound': 's', 'loop': 'yes'}]}]"),
                 "animations[0].audio[0].loop: expected true or false, got 'yes'", __LINE__);
    /* sliders */
    expect_error("{'format': 'openbone', 'version': 1, 'skeleton': {'sliders': [{'id': 's', 'from': '0'}]}}",
                 "skeleton.sliders[0].from: expected a number, got '0'", __LINE__);
    expect_error("{'format': 'openbone', 'version': 1, 'skeleton': {'sliders': [{'id': 's', 'property': 'color'}]}}",
                 "skeleton.sliders[0].property: expected a bone property (rotation, x, y, scaleX, scaleY, shearX, shearY), got 'color'",
                 __LINE__);
    /* audio, scripts */
    expect_error(DOC("'audio': []"), "audio: expected an object, got an array", __LINE__);
    expect_error(DOC("'audio': {'master': '1'}"), "audio.master: expected a number, got '1'", __LINE__);
    expect_error(DOC("'audio': {'sounds': [{'id': 's', 'rate': true}]}"),
                 "audio.sounds[0].rate: expected a number, got true", __LINE__);
    expect_error(DOC("'audio': {'buses': [{'id': 'b', 'muted': 'no'}]}"),
                 "audio.buses[0].muted: expected true or false, got 'no'", __LINE__);
    expect_error(DOC("'scripts': [{'id': 's', 'code': 1}]"), "scripts[0].code: expected a string, got 1", __LINE__);
    /* state machines */
#define SM(body) DOC("'stateMachines': [{'id': 'sm', " body "}]")
    expect_error(SM("'inputs': [{'id': 'i', 'type': 'float'}]"),
                 "stateMachines[0].inputs[0].type: expected 'bool', 'number', 'string' or 'trigger', got 'float'", __LINE__);
    expect_error(SM("'inputs': [{'id': 'i'}]"),
                 "stateMachines[0].inputs[0].type: expected 'bool', 'number', 'string' or 'trigger', got nothing", __LINE__);
    expect_error(SM("'inputs': [{'id': 'i', 'type': 'number', 'default': [1]}]"),
                 "stateMachines[0].inputs[0].default: expected a number, boolean or string, got an array", __LINE__);
    expect_error(SM("'layers': [{'states': [{'id': 's', 'speed': 'fast'}]}]"),
                 "stateMachines[0].layers[0].states[0].speed: expected a number, got 'fast'", __LINE__);
    expect_error(SM("'layers': [{'states': [{'id': 's', 'loop': 'yes'}]}]"),
                 "stateMachines[0].layers[0].states[0].loop: expected true or false, got 'yes'", __LINE__);
    expect_error(SM("'layers': [{'states': [{'id': 's', 'sounds': [{'sound': 'x', 'on': 'start'}]}]}]"),
                 "stateMachines[0].layers[0].states[0].sounds[0].on: expected 'enter' or 'exit', got 'start'", __LINE__);
    expect_error(SM("'layers': [{'states': [{'id': 's', 'scripts': [{}]}]}]"),
                 "stateMachines[0].layers[0].states[0].scripts[0]: expected an id (a string), got an object", __LINE__);
    expect_error(SM("'layers': [{'states': [{'id': 's'}], 'transitions': [{'from': 's', 'to': 's', 'exitTime': 'end'}]}]"),
                 "stateMachines[0].layers[0].transitions[0].exitTime: expected a number, got 'end'", __LINE__);
    expect_error(SM("'inputs': [{'id': 'n', 'type': 'number'}], 'layers': [{'transitions': [{'conditions': "
                    "[{'input': 'n', 'op': '=>', 'value': 1}]}]}]"),
                 "stateMachines[0].layers[0].transitions[0].conditions[0].op: expected '==', '!=', '>', '<', '>=' or '<=', got '=>'",
                 __LINE__);
    expect_error(SM("'layers': [{'transitions': [{'conditions': {}}]}]"),
                 "stateMachines[0].layers[0].transitions[0].conditions: expected an array, got an object", __LINE__);
    expect_error(SM("'listeners': [{'id': 'l', 'actions': [{'type': 'setMute', 'muted': 'maybe'}]}]"),
                 "stateMachines[0].listeners[0].actions[0].muted: expected true, false or 'toggle', got 'maybe'", __LINE__);
    expect_error(SM("'listeners': [{'id': 'l', 'actions': [{'type': 'emitParticles', 'slot': 's1', 'count': '5'}]}]"),
                 "stateMachines[0].listeners[0].actions[0].count: expected a number, got '5'", __LINE__);
    expect_error(SM("'listeners': [{'id': 'l', 'event': 7}]"),
                 "stateMachines[0].listeners[0].event: expected a string, got 7", __LINE__);
    expect_error(SM("'bindings': [{'id': 'b', 'object': 'slot', 'target': 's1', 'property': 'color', 'outMax': 1}]"),
                 "stateMachines[0].bindings[0].outMax: expected a hex colour string, got 1", __LINE__);
    expect_error(SM("'bindings': [{'id': 'b', 'object': 'bone', 'target': 'arm', 'property': 'x', 'inMin': '0'}]"),
                 "stateMachines[0].bindings[0].inMin: expected a number, got '0'", __LINE__);
    expect_error(SM("'scripts': 'sc'"), "stateMachines[0].scripts: expected an array, got 'sc'", __LINE__);
#undef SM
}

int main(void)
{
    test_events();
    test_animations();
    test_sliders();
    test_audio_scripts();
    test_state_machines();
    test_errors();
    if (failures) {
        fprintf(stderr, "test_loaders: %d of %d checks failed\n", failures, checks);
        return 1;
    }
    printf("test_loaders: all %d checks passed\n", checks);
    return 0;
}
