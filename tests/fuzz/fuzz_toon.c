/* fuzz_toon.c: libFuzzer harness for the Jabbertoon program loader and runtime
** (csrc/toon/): bytes -> jt_program_load (JSON, validation, desugaring, formula
** compilation) -> when it loads, a runtime with characters of 0, 2 and 4 legs runs
** it: start, steps at 24 fps, a jump, emits, poses.  Any crash, leak, hang or
** sanitizer report is a bug: bad input must only ever produce diagnostics or a
** jt_status with a message.
**
** The mutator knows the language: when the input parses as JSON it edits one node
** of the tree with words of the vocabulary (ops, channels, part words, formulas,
** hats, eases, extreme numbers) before libFuzzer's own byte mutations get a turn. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "include/jabbertoon.h"

size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t max_size);

/* providers for the cartoon paths (§7.4, §7.5): answers that depend on the text, some invalid */
static int fuzz_speech(void *ud, const char *text, const jt_speech_opts *opts, double *seconds, char *why, size_t whycap)
{
    (void)ud, (void)opts;
    size_t n = strlen(text);
    if (n % 5 == 4) {
        snprintf(why, whycap, "no audio");
        return -1;
    }
    *seconds = n % 5 == 3 ? NAN : n % 5 == 2 ? -1 : 0.05 * (double)n;
    return 0;
}

static char *fuzz_packs(void *ud, const char *id, const char *version, char *why, size_t whycap)
{
    (void)ud, (void)version;
    static const char *const answers[3] = {
        "{\"v\": 1, \"kind\": \"behaviour\", \"params\": {\"h\": 4}, \"scripts\": [{\"body\": [{\"op\": \"bob\", \"amp\": \"=h\"}]}]}",
        "{\"id\": \"c4c:beh:idle\", \"content\": {\"v\": 1, \"kind\": \"behaviour\", \"scripts\": [{\"body\": [{\"op\": \"sway\"}]}]}}",
        "[1, 2"};
    size_t n = strlen(id);
    if (n % 4 == 3) {
        snprintf(why, whycap, "not in the catalog");
        return NULL;
    }
    return strdup(answers[n % 4 == 2 ? 2 : !strcmp(id, "c4c:beh:idle") ? 1 : 0]);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    jt_diags *d = NULL;
    jt_program *p = jt_program_load((const char *)data, size, &d);
    jt_diags_free(d);
    if (!p) return 0;
    if (strcmp(jt_program_kind(p), "behaviour")) {  /* a scene or a cartoon: plan it, play a few frames */
        jt_runtime_def def = jt_runtime_def_default();
        def.max_duration = 20;
        if (size % 2) {
            def.speech = fuzz_speech;
            def.packs = fuzz_packs;
        }
        jt_runtime *rt = jt_runtime_create(&def);
        if (rt) {
            jt_add_character(rt, "A", 2);
            double dur;
            if (jt_start_cartoon(rt, (const char *)data, size, NULL, 0, &dur) == JT_OK) {
                jt_stage_view sv;
                jt_placement pl;
                jt_pose pose;
                for (int k = 1; k <= 48; k++) {
                    if (jt_step_to(rt, k / 12.0) != JT_OK) break;
                    jt_stage_read(rt, &sv);
                    for (int i = 0; i < jt_character_count(rt); i++) {
                        jt_placement_read(rt, i, &pl);
                        jt_pose_read(rt, i, &pose);
                    }
                }
                jt_record_view r;
                for (int i = 0; i < jt_timeline_count(rt); i++) jt_timeline_get(rt, i, &r);
            }
            jt_runtime_free(rt);
        }
        jt_program_free(p);
        return 0;
    }
    jt_runtime *rt = jt_runtime_create(NULL);
    if (rt) {
        static const char *const ids[3] = {"a", "b", "c"};
        for (int i = 0; i < 3; i++) jt_add_character(rt, ids[i], 2 * i);
        jt_global_set(rt, "g", 0.5);
        uint64_t inst[3] = {0, 0, 0};
        for (int i = 0; i < 3; i++) {
            jt_param prm = {"speed", 2};
            jt_start_behaviour(rt, ids[i], p, i == 2 ? INFINITY : 3, &prm, i > 0, &inst[i]);
        }
        jt_pose pose;
        for (int k = 1; k <= 30; k++) {
            if (jt_step_to(rt, k / 24.0) != JT_OK) break;
            for (int i = 0; i < 3; i++) jt_pose_read(rt, i, &pose);
            if (k == 7) jt_emit(rt, "key", NULL, "a", NULL);
            if (k == 11) jt_emit(rt, "talk-start", "b", NULL, NULL);
            if (k == 13) jt_set_inputs(rt, "c", 1, 0.7, 1, 1);
            if (k == 17) jt_stop_behaviour(rt, inst[0]);
        }
        if (jt_step_to(rt, 2.5) == JT_OK)
            for (int i = 0; i < 3; i++) jt_pose_read(rt, i, &pose);
        jt_runtime_free(rt);
    }
    jt_program_free(p);
    return 0;
}

static uint32_t rnd(uint32_t *s)  /* xorshift32, the state on the caller's stack */
{
    uint32_t x = *s;
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    return *s = x ? x : 0x2545f491u;
}

static const char *const WORDS[] = {
    "set", "ramp", "drive", "wave", "hop", "gait", "chain", "follow", "reach", "release", "view", "wait", "for",
    "while", "until", "repeat", "forever", "if", "together", "stop", "stopAll", "setVar", "changeVar", "window",
    "move", "moveTo", "turn", "turnTo", "scaleTo", "squash", "setPart", "turnPart", "liftPart", "bob", "sway",
    "wobble", "shake", "swingPart", "swish", "flop", "bend", "bow", "letFollow", "turnView",
    "dx", "dy", "sx", "sy", "rot", "mouth", "blink", "mood", "part:tail", "part:ear:1", "part:arm:-1", "lift:hand:1",
    "part:leg#2", "part:torso#1", "part:elbow", "part:neck", "arms", "left arm", "front legs", "paws", "back paws",
    "tail", "ears", "body", "head", "hands", "feet", "constructor", "__proto__", "hip", "chest", "mouth", "side",
    "back", "front", "smooth", "snappy", "out", "dampsin", "tri", "square", "start", "local", "key", "scene",
    "talk-start", "=tau", "=sin(tau*6)*20", "=random", "=loud", "=0/0", "=1/0", "=-1e308*10", "=g", "=n + 1",
    "=dur - 1", "=2^3^2", "=hopair(tau)", "=min()", "=x", "=((((1))))", "=tau < 1 && talking", "=speed",
    "say", "does", "caption", "cut", "place", "enter", "exit", "cartoon", "scene", "A", "B", "c4c:beh:idle",
    "right", "bottom", "=dur", "park",
};
static const double NUMBERS[] = {0, -0.0, 1, -1, 0.5, 1e-9, 1e9, 1e300, -1e300, 16, 17, 60, 61, 6.5, 1e12,
                                 0.004166666666666667, 4294967296.0, -0.25};

static int nodes(const cJSON *n)
{
    int k = 1;
    for (const cJSON *c = n->child; c; c = c->next) k += nodes(c);
    return k;
}

static cJSON *pick(cJSON *n, int *k, cJSON **parent, cJSON *up)
{
    if ((*k)-- == 0) {
        *parent = up;
        return n;
    }
    for (cJSON *c = n->child; c; c = c->next) {
        cJSON *r = pick(c, k, parent, n);
        if (r) return r;
    }
    return NULL;
}

static void edit(cJSON *root, uint32_t *s)
{
    int k = (int)(rnd(s) % (uint32_t)nodes(root));
    cJSON *parent = NULL, *node = pick(root, &k, &parent, NULL);
    if (!node) return;
    const char *word = WORDS[rnd(s) % (sizeof WORDS / sizeof *WORDS)];
    switch (rnd(s) % 7) {
    case 0:
        if (cJSON_IsString(node)) cJSON_SetValuestring(node, word);
        break;
    case 1:
        if (cJSON_IsNumber(node)) cJSON_SetNumberHelper(node, NUMBERS[rnd(s) % (sizeof NUMBERS / sizeof *NUMBERS)]);
        break;
    case 2:
        if (parent) cJSON_Delete(cJSON_DetachItemViaPointer(parent, node));
        break;
    case 3:
        if (parent && cJSON_IsArray(parent)) cJSON_AddItemToArray(parent, cJSON_Duplicate(node, 1));
        break;
    case 4:  /* a field from the vocabulary on an object */
        if (cJSON_IsObject(node)) {
            static const char *const FIELDS[] = {"op", "ch", "to", "by", "over", "for", "until", "body", "part",
                                                 "deg", "amp", "hz", "every", "segments", "source", "at", "dx",
                                                 "hold", "times", "cond", "branches", "var", "value", "from"};
            const char *f = FIELDS[rnd(s) % (sizeof FIELDS / sizeof *FIELDS)];
            cJSON_DeleteItemFromObjectCaseSensitive(node, f);
            if (rnd(s) & 1) cJSON_AddStringToObject(node, f, word);
            else cJSON_AddNumberToObject(node, f, NUMBERS[rnd(s) % (sizeof NUMBERS / sizeof *NUMBERS)]);
        }
        break;
    case 5:  /* a block wrapped in a loop or a for */
        if (cJSON_IsObject(node) && parent && cJSON_IsArray(parent)) {
            cJSON *wrap = cJSON_CreateObject();
            cJSON *body = cJSON_CreateArray();
            if (wrap && body) {
                cJSON_AddStringToObject(wrap, "op", (rnd(s) & 1) ? "forever" : "for");
                cJSON_AddNumberToObject(wrap, "for", 0.3);
                cJSON_AddItemToArray(body, cJSON_Duplicate(node, 1));
                cJSON_AddItemToObject(wrap, "body", body);
                cJSON_ReplaceItemViaPointer(parent, node, wrap);
            } else {
                cJSON_Delete(wrap);
                cJSON_Delete(body);
            }
        }
        break;
    default:
        if (parent) cJSON_ReplaceItemViaPointer(parent, node, (rnd(s) & 1) ? cJSON_CreateNull() : cJSON_CreateObject());
        break;
    }
}

size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int seed)
{
    uint32_t s = seed ? seed : 7;
    if (rnd(&s) % 3) {
        cJSON *root = cJSON_ParseWithLength((const char *)data, size);
        int fits = 0;
        if (root) {  /* edited, then printed back in place when it fits */
            for (int i = 1 + (int)(rnd(&s) % 3); i > 0; i--) edit(root, &s);
            fits = max_size > 1 && max_size < 0x7fffffff &&
                   cJSON_PrintPreallocated(root, (char *)data, (int)max_size - 1, 0);
            cJSON_Delete(root);
        }
        if (fits) return strlen((const char *)data);
    }
    return LLVMFuzzerMutate(data, size, max_size);
}
