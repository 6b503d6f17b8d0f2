/* state_machine.c: §9 StateMachineInstance (state-machine.ts): inputs, the
** §9.1 advance pipeline, entering states (§9.2), transitions (§9.3),
** applying states and collecting events (§9.4).  Listeners are in
** listeners.c, bindings in bindings.c, script hooks in scripts.c. */
#include "state_machine.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "particles.h"
#include "scripts.h"
#include "timeline.h"

/* ---- JS scalar semantics -------------------------------------------- */

static int is_js_space(unsigned char c) { return c == ' ' || (c >= 9 && c <= 13); }

double ob_js_parse_number(const char *s)
{
    /* StringToNumber: trimmed; "" ⇒ 0; 0x / 0o / 0b; [+-]Infinity; decimal literal */
    const char *b = s, *e = s + strlen(s);
    while (b < e && is_js_space((unsigned char)*b)) b++;
    while (e > b && is_js_space((unsigned char)e[-1])) e--;
    size_t n = (size_t)(e - b);
    if (n == 0) return 0;
    if (n > 2 && b[0] == '0' && strchr("xXoObB", b[1])) {
        int base = (b[1] == 'x' || b[1] == 'X') ? 16 : (b[1] == 'o' || b[1] == 'O') ? 8 : 2;
        double v = 0;
        for (const char *p = b + 2; p < e; p++) {
            int d = isdigit((unsigned char)*p) ? *p - '0'
                    : (*p >= 'a' && *p <= 'f') ? *p - 'a' + 10
                    : (*p >= 'A' && *p <= 'F') ? *p - 'A' + 10 : 99;
            if (d >= base) return NAN;
            v = v * base + d;
        }
        return v;
    }
    const char *p = b;
    int neg = 0;
    if (*p == '+' || *p == '-') neg = *p++ == '-';
    if ((size_t)(e - p) == 8 && strncmp(p, "Infinity", 8) == 0) return neg ? -INFINITY : INFINITY;
    /* digits [. digits] | . digits, then [eE][+-]digits */
    const char *q = p;
    int digits = 0;
    while (q < e && isdigit((unsigned char)*q)) q++, digits++;
    if (q < e && *q == '.') {
        q++;
        while (q < e && isdigit((unsigned char)*q)) q++, digits++;
    }
    if (!digits) return NAN;
    if (q < e && (*q == 'e' || *q == 'E')) {
        q++;
        if (q < e && (*q == '+' || *q == '-')) q++;
        int ed = 0;
        while (q < e && isdigit((unsigned char)*q)) q++, ed++;
        if (!ed) return NAN;
    }
    if (q != e) return NAN;
    char buf[512];
    if (n >= sizeof buf) return NAN;
    memcpy(buf, b, n);
    buf[n] = 0;
    return strtod(buf, NULL);
}

double ob_js_number(const ob_value *v)
{
    switch (v->kind) {
    case OB_VAL_NUMBER:
    case OB_VAL_BOOL: return v->number;
    case OB_VAL_STRING: return ob_js_parse_number(v->string ? v->string : "");
    case OB_VAL_NULL: break;
    }
    return NAN;  /* undefined */
}

int ob_js_truthy(const ob_value *v)
{
    switch (v->kind) {
    case OB_VAL_NUMBER:
    case OB_VAL_BOOL: return v->number != 0 && v->number == v->number;
    case OB_VAL_STRING: return v->string && v->string[0];
    case OB_VAL_NULL: break;
    }
    return 0;
}

/* String(v) into buf */
static const char *js_string(const ob_value *v, char *buf, size_t cap)
{
    switch (v->kind) {
    case OB_VAL_NUMBER: ob_js_to_string(v->number, buf, cap); return buf;
    case OB_VAL_BOOL: return v->number != 0 ? "true" : "false";
    case OB_VAL_STRING: return v->string ? v->string : "";
    case OB_VAL_NULL: break;
    }
    return "undefined";
}

/* v === w */
static int strict_equal(const ob_value *v, const ob_value *w)
{
    if (v->kind != w->kind) return 0;
    switch (v->kind) {
    case OB_VAL_NUMBER:
    case OB_VAL_BOOL: return v->number == w->number;
    case OB_VAL_STRING: return strcmp(v->string ? v->string : "", w->string ? w->string : "") == 0;
    case OB_VAL_NULL: break;
    }
    return 1;
}

/* ---- record pools ------------------------------------------------- */

static size_t pool_add(ob_sm_pool *p, const char *s)
{
    if (!s) s = "";
    size_t n = strlen(s) + 1;
    if (p->length + n > p->capacity) {
        size_t cap = p->capacity ? p->capacity : 256;
        while (cap < p->length + n) cap *= 2;
        char *d = realloc(p->data, cap);
        if (!d) return 0;  /* offset 0: the first string (or "" below) */
        p->data = d;
        p->capacity = cap;
    }
    memcpy(p->data + p->length, s, n);
    p->length += n;
    return p->length - n;
}

static void pool_reset(ob_sm_pool *p)
{
    p->length = 0;
    pool_add(p, "");  /* offset 0 is always "" */
}

static int grow(void **arr, int32_t *cap, int32_t need, size_t size)
{
    if (need <= *cap) return 0;
    int32_t c = *cap ? *cap * 2 : 16;
    while (c < need) c *= 2;
    void *d = realloc(*arr, (size_t)c * size);
    if (!d) return -1;
    *arr = d;
    *cap = c;
    return 0;
}

/* issue 21: a record's text keeps at most OB_SM_LOG_TEXT_MAX bytes (cut at a
** UTF-8 boundary, then "…"); between two takes the log keeps at most
** OB_SM_LOG_MAX records and OB_SM_LOG_BYTES bytes of text, and counts the
** records it drops (the binding reports them as one warning). */
void ob_sm_log_record(ob_instance *inst, const char *type, const char *text, int32_t layer)
{
    ob_sm_state *sm = inst->sm;
    if (!sm) return;
    if (!text) text = "";
    size_t n = strlen(text);
    char cut[OB_SM_LOG_TEXT_MAX + 4];
    if (n > OB_SM_LOG_TEXT_MAX) {
        n = OB_SM_LOG_TEXT_MAX;
        while (n > 0 && ((unsigned char)text[n] & 0xC0) == 0x80) n--;  /* not inside a character */
        memcpy(cut, text, n);
        memcpy(cut + n, "\xE2\x80\xA6", 4);  /* "…" and the NUL */
        text = cut;
        n += 3;
    }
    if (sm->log_count >= OB_SM_LOG_MAX || sm->log_pool.length + n + strlen(type) + 2 > OB_SM_LOG_BYTES ||
        grow((void **)&sm->log, &sm->log_capacity, sm->log_count + 1, sizeof *sm->log) < 0) {
        sm->log_dropped++;
        return;
    }
    ob_sm_log *r = &sm->log[sm->log_count++];
    r->type = pool_add(&sm->log_pool, type);
    r->text = pool_add(&sm->log_pool, text);
    r->layer = layer;
    r->time = sm->elapsed;
}

void ob_sm_queue_event(ob_instance *inst, int32_t event, const char *name, const char *id, double int_value,
                       double float_value, const char *string_value)
{
    ob_sm_state *sm = inst->sm;
    if (!sm) return;
    if (grow((void **)&sm->pending, &sm->pending_capacity, sm->pending_count + 1, sizeof *sm->pending) < 0) return;
    ob_sm_event *e = &sm->pending[sm->pending_count++];
    e->event = event;
    e->animation = -1;
    e->time = sm->elapsed;
    e->int_value = int_value;
    e->float_value = float_value;
    e->name = pool_add(&sm->pending_pool, name);
    e->id = pool_add(&sm->pending_pool, id);
    e->string = pool_add(&sm->pending_pool, string_value);
    e->has_audio = event >= 0 && inst->doc->events[event].audio != NULL;
}

const ob_sm_event *ob_sm_events(const ob_instance *inst, int32_t *n)
{
    const ob_sm_state *sm = inst->sm;
    *n = sm ? sm->report_count : 0;
    return sm ? sm->report : NULL;
}

/* ---- creation ------------------------------------------------------ */

int ob_sm_create(ob_instance *inst)
{
    inst->sm = NULL;  /* no machine until ob_sm_start */
    return 0;
}

static void value_set_string(ob_sm_value *v, const char *s)
{
    size_t n = strlen(s) + 1;
    if (n > v->capacity) {
        size_t cap = n < 32 ? 32 : n;
        char *d = realloc(v->string, cap);
        if (!d) return;
        v->string = d;
        v->capacity = cap;
    }
    memcpy(v->string, s, n);
    v->kind = OB_VAL_STRING;
}

static void value_assign(ob_sm_value *v, const ob_value *src)
{
    if (src->kind == OB_VAL_STRING) {
        value_set_string(v, src->string ? src->string : "");
        return;
    }
    v->kind = src->kind;
    v->number = src->number;
}

static ob_value value_view(const ob_sm_value *v)
{
    return (ob_value){v->kind, v->number, v->kind == OB_VAL_STRING ? v->string : NULL};
}

void ob_sm_free(ob_instance *inst)
{
    ob_sm_state *sm = inst->sm;
    if (!sm) return;
    ob_scripts_release(inst);
    if (sm->host && sm->host->destroy) sm->host->destroy(sm->host->ud);
    free(sm->host);
    const ob_machine_data *mc = sm->machine;
    for (int32_t i = 0; sm->values && i < mc->input_count; i++) free(sm->values[i].string);
    for (int32_t l = 0; sm->layers && l < mc->layer_count; l++) free(sm->layers[l].scripts);
    free(sm->values);
    free(sm->fired);
    free(sm->input_numbers);
    free(sm->input_number_set);
    free(sm->layers);
    free(sm->blend_order);
    free(sm->hovered);
    free(sm->pressed);
    free(sm->hit_vertices);
    free(sm->hit_scratch);
    free(sm->hit_names);
    free(sm->bus_muted);
    ob_audio_destroy(&sm->audio);
    free(sm->pending);
    free(sm->pending_pool.data);
    free(sm->report);
    free(sm->report_pool.data);
    free(sm->log);
    free(sm->log_pool.data);
    free(sm->machine_scripts);
    free(sm->bone_override);
    free(sm->bone_override_value);
    free(sm->slot_color_override);
    free(sm->slot_color_value);
    free(sm->slot_attachment_override);
    free(sm->slot_attachment_value);
    free(sm);
    inst->sm = NULL;
}

#define ALLOC(p, n) (((p) = calloc((size_t)(n) + 1, sizeof *(p))) == NULL)

int ob_sm_start(ob_instance *inst, int32_t machine)
{
    const ob_document *doc = inst->doc;
    if (machine < 0 || machine >= doc->machine_count) return -1;
    /* keep the host across a restart */
    ob_script_host *host = NULL;
    if (inst->sm) {
        ob_scripts_release(inst);
        host = inst->sm->host;
        inst->sm->host = NULL;
        ob_sm_free(inst);
    }
    ob_sm_state *sm = calloc(1, sizeof *sm);
    if (!sm) return -1;
    inst->sm = sm;
    sm->host = host;
    const ob_machine_data *mc = &doc->machines[machine];
    sm->machine = mc;
    sm->machine_index = machine;
    int32_t max_entries = 1, max_points = 8, max_names = 1;
    if (ALLOC(sm->values, mc->input_count) || ALLOC(sm->fired, mc->input_count) ||
        ALLOC(sm->input_numbers, mc->input_count) || ALLOC(sm->input_number_set, mc->input_count) ||
        ALLOC(sm->layers, mc->layer_count) || ALLOC(sm->hovered, mc->listener_count) ||
        ALLOC(sm->pressed, mc->listener_count) || ALLOC(sm->bus_muted, doc->audio_bus_count) ||
        ALLOC(sm->machine_scripts, mc->script_count) || ALLOC(sm->bone_override, doc->bone_count) ||
        ALLOC(sm->bone_override_value, doc->bone_count) || ALLOC(sm->slot_color_override, doc->slot_count) ||
        ALLOC(sm->slot_color_value, 4 * (size_t)doc->slot_count) ||
        ALLOC(sm->slot_attachment_override, doc->slot_count) || ALLOC(sm->slot_attachment_value, doc->slot_count))
        goto fail;
    /* §9: inputs start at their defaults (triggers false) */
    for (int32_t i = 0; i < mc->input_count; i++) {
        const ob_input_data *in = &mc->inputs[i];
        if (in->type == OB_INPUT_TRIGGER) {
            sm->values[i].kind = OB_VAL_BOOL;
            sm->values[i].number = 0;
        } else {
            value_assign(&sm->values[i], &in->def);
        }
    }
    for (int32_t l = 0; l < mc->layer_count; l++) {
        const ob_layer_data *ld = &mc->layers[l];
        int32_t max_scripts = 0;
        for (int32_t s = 0; s < ld->state_count; s++) {
            if (ld->states[s].entry_count > max_entries) max_entries = ld->states[s].entry_count;
            if (ld->states[s].script_count > max_scripts) max_scripts = ld->states[s].script_count;
        }
        if (ALLOC(sm->layers[l].scripts, max_scripts)) goto fail;
        sm->layers[l].current.state = sm->layers[l].from.state = -1;
    }
    if (ALLOC(sm->blend_order, max_entries)) goto fail;
    /* §9.5 hit polygons: the largest polygon any attachment can give */
    for (int32_t a = 0; a < doc->attachment_count; a++) {
        const ob_attachment *att = &doc->attachments[a];
        int32_t n = att->vertex_count;
        if (att->type == OB_ATT_SHAPE) n = att->point_count > 4 * 9 ? att->point_count : 4 * 9;
        if (n > max_points) max_points = n;
    }
    for (int32_t k = 0; k < doc->skin_count; k++) max_names += doc->skins[k].entry_count;
    sm->hit_capacity = max_points;
    sm->hit_names_capacity = max_names;
    if (ALLOC(sm->hit_vertices, 2 * (size_t)max_points) || ALLOC(sm->hit_scratch, 2 * (size_t)max_points) ||
        ALLOC(sm->hit_names, max_names))
        goto fail;
    for (int32_t b = 0; b < doc->audio_bus_count; b++) sm->bus_muted[b] = (uint8_t)doc->audio_buses[b].muted;
    sm->master_muted = doc->audio_muted;
    for (int32_t s = 0; s < mc->script_count; s++) sm->machine_scripts[s] = -1;
    if (ob_audio_init(&sm->audio, doc, 0, 0) < 0) goto fail;
    pool_reset(&sm->pending_pool);
    pool_reset(&sm->report_pool);
    pool_reset(&sm->log_pool);
    return 0;
fail:
    ob_sm_free(inst);
    return -1;
}

/* ---- inputs (§9.5 setInput, fire) ---------------------------------- */

int32_t ob_sm_find_input(const ob_sm_state *sm, const char *ref)
{
    if (!sm || !ref) return -1;
    const ob_machine_data *mc = sm->machine;
    for (int32_t i = 0; i < mc->input_count; i++) {
        const ob_input_data *in = &mc->inputs[i];
        if ((in->id && strcmp(in->id, ref) == 0) || (in->name && strcmp(in->name, ref) == 0)) return i;
    }
    return -1;
}

void ob_sm_fire(ob_instance *inst, int32_t input)
{
    ob_sm_state *sm = inst->sm;
    if (!sm || input < 0 || input >= sm->machine->input_count) return;
    if (sm->machine->inputs[input].type == OB_INPUT_TRIGGER) sm->fired[input] = 1;
}

int ob_sm_set_input(ob_instance *inst, int32_t input, const ob_value *value)
{
    ob_sm_state *sm = inst->sm;
    if (!sm || input < 0 || input >= sm->machine->input_count) return 0;
    const ob_input_data *in = &sm->machine->inputs[input];
    ob_sm_value *cur = &sm->values[input];
    ob_value old = value_view(cur);
    char buf[OB_JSNUM_CAP];
    ob_value nv = {OB_VAL_NULL, 0, NULL};
    switch (in->type) {
    case OB_INPUT_TRIGGER:
        ob_sm_fire(inst, input);  /* §9.5 trigger ⇒ fire */
        return 0;
    case OB_INPUT_STRING:
        nv.kind = OB_VAL_STRING;  /* String(value); JSON null reads "null" */
        nv.string = value->kind == OB_VAL_NULL ? "null" : js_string(value, buf, sizeof buf);
        break;
    case OB_INPUT_BOOL:
        nv.kind = OB_VAL_BOOL;  /* CLARIFICATIONS: a string is === "true", else truthiness */
        nv.number = value->kind == OB_VAL_STRING ? (value->string && strcmp(value->string, "true") == 0)
                                                 : ob_js_truthy(value);
        break;
    case OB_INPUT_NUMBER:
        nv.kind = OB_VAL_NUMBER;
        nv.number = value->kind == OB_VAL_NULL ? 0 : ob_js_number(value);  /* Number(null) = 0 */
        if (!isfinite(nv.number)) return 0;  /* ignored if not finite */
        break;
    }
    if (strict_equal(&old, &nv)) return 0;  /* no change ⇒ no inputChange */
    value_assign(cur, &nv);
    char text[OB_JSNUM_CAP + 64];
    ob_value now = value_view(cur);
    snprintf(text, sizeof text, "%s=%s", in->name ? in->name : "", js_string(&now, buf, sizeof buf));
    ob_sm_log_record(inst, "inputChange", text, -1);
    return 1;
}

ob_value ob_sm_input_value(const ob_instance *inst, int32_t input)
{
    const ob_sm_state *sm = inst->sm;
    if (!sm || input < 0 || input >= sm->machine->input_count) return (ob_value){OB_VAL_NULL, 0, NULL};
    if (sm->machine->inputs[input].type == OB_INPUT_TRIGGER) return (ob_value){OB_VAL_BOOL, 0, NULL};
    return value_view(&sm->values[input]);
}

int ob_sm_input_number(const ob_instance *inst, const char *input_id, double *v)
{
    const ob_sm_state *sm = inst->sm;
    if (!sm || !input_id) return 0;
    const ob_machine_data *mc = sm->machine;
    for (int32_t i = 0; i < mc->input_count; i++)
        if (mc->inputs[i].id && strcmp(mc->inputs[i].id, input_id) == 0) {
            if (!sm->input_number_set[i]) return 0;
            *v = sm->input_numbers[i];
            return 1;
        }
    return 0;
}

int ob_sm_text_lookup(const ob_instance *inst, const char *name, ob_tvalue *out)
{
    const ob_sm_state *sm = inst->sm;
    if (!sm) return 0;
    int32_t i = ob_sm_find_input(sm, name);
    *out = (ob_tvalue){OB_TVALUE_MISSING, 0, 0, NULL};
    if (i < 0) return 1;  /* the running machine has no such input: left as written */
    ob_value v = ob_sm_input_value(inst, i);
    switch (v.kind) {
    case OB_VAL_NUMBER: out->kind = OB_TVALUE_NUMBER; out->number = v.number; break;
    case OB_VAL_BOOL: out->kind = OB_TVALUE_BOOL; out->boolean = v.number != 0; break;
    case OB_VAL_STRING: out->kind = OB_TVALUE_STRING; out->string = v.string; break;
    case OB_VAL_NULL: break;
    }
    return 1;
}

/* ---- §9.3 conditions ------------------------------------------------ */

int ob_sm_condition_passes(const ob_sm_state *sm, const ob_condition *c)
{
    if (c->input < 0 || c->input >= sm->machine->input_count) return 0;  /* missing input ⇒ false */
    const ob_input_data *in = &sm->machine->inputs[c->input];
    if (in->type == OB_INPUT_TRIGGER) return sm->fired[c->input];  /* fired this frame */
    ob_value v = value_view(&sm->values[c->input]);
    const ob_value *w = &c->value;
    char b1[OB_JSNUM_CAP], b2[OB_JSNUM_CAP];
    if (in->type == OB_INPUT_STRING && (c->op == OB_OP_EQ || c->op == OB_OP_NE)) {
        /* §9.3 string inputs: String(v) vs String(w) */
        int eq = strcmp(js_string(&v, b1, sizeof b1), js_string(w, b2, sizeof b2)) == 0;
        return c->op == OB_OP_EQ ? eq : !eq;
    }
    double x, y;
    switch (c->op) {
    case OB_OP_EQ:  /* strict, or both numbers within 1e-9 */
        if (strict_equal(&v, w)) return 1;
        return v.kind == OB_VAL_NUMBER && w->kind == OB_VAL_NUMBER && fabs(v.number - w->number) <= 1e-9;
    case OB_OP_NE: return !strict_equal(&v, w);  /* strict, no epsilon */
    case OB_OP_GT: x = ob_js_number(&v); y = ob_js_number(w); return x > y;
    case OB_OP_LT: x = ob_js_number(&v); y = ob_js_number(w); return x < y;
    case OB_OP_GE: x = ob_js_number(&v); y = ob_js_number(w); return x >= y;
    case OB_OP_LE: x = ob_js_number(&v); y = ob_js_number(w); return x <= y;
    case OB_OP_NONE: break;
    }
    return 0;
}

/* ---- §9.4 blend pairs ----------------------------------------------- */

typedef struct blend_pair { int32_t lo, hi; double t; int ok; } blend_pair;

/* §9.4 blendPair: entries stably sorted by value; lo/hi are animation indices */
static blend_pair blend_pair_of(const ob_sm_state *sm, const ob_state_data *st)
{
    blend_pair r = {-1, -1, 0, 0};
    int32_t n = st->entry_count;
    if (n <= 0) return r;
    int32_t *o = sm->blend_order;
    for (int32_t i = 0; i < n; i++) {  /* insertion sort: stable */
        int32_t j = i;
        while (j > 0 && st->entries[o[j - 1]].value > st->entries[i].value) {
            o[j] = o[j - 1];
            j--;
        }
        o[j] = i;
    }
    double v = 0;  /* Number(input ?? 0) */
    if (st->input >= 0 && st->input < sm->machine->input_count) {
        ob_value iv = value_view(&sm->values[st->input]);
        if (sm->machine->inputs[st->input].type == OB_INPUT_TRIGGER) iv = (ob_value){OB_VAL_BOOL, 0, NULL};
        v = iv.kind == OB_VAL_NULL ? 0 : ob_js_number(&iv);
    }
    const ob_blend_entry *e = st->entries;
    r.ok = 1;
    if (v >= e[o[n - 1]].value) {
        r.lo = r.hi = e[o[n - 1]].animation;
        return r;
    }
    for (int32_t i = 0; i + 1 < n; i++) {
        double lo = e[o[i]].value, hi = e[o[i + 1]].value;
        if (lo <= v && v <= hi) {
            double d = hi - lo;
            if (d == 0 || d != d) d = 1;  /* (hi − lo) ‖ 1 */
            r.lo = e[o[i]].animation;
            r.hi = e[o[i + 1]].animation;
            r.t = (v - lo) / d;
            return r;
        }
    }
    r.lo = r.hi = e[o[0]].animation;  /* below the first */
    return r;
}

static const ob_animation_data *anim_of(const ob_document *doc, int32_t a)
{
    return a >= 0 && a < doc->animation_count ? &doc->animations[a] : NULL;
}

/* §9.3 progress(s) = d > 0 ? s.time / d : 1 */
static double progress(const ob_instance *inst, int32_t layer, const ob_sm_state_inst *s)
{
    const ob_sm_state *sm = inst->sm;
    const ob_state_data *st = &sm->machine->layers[layer].states[s->state];
    int32_t a = -1;
    if (st->type == OB_STATE_ANIMATION) a = st->animation;
    else if (st->type == OB_STATE_BLEND1D) {
        blend_pair p = blend_pair_of(sm, st);
        a = p.t >= 0.5 ? p.hi : p.lo;  /* the stronger entry */
    }
    const ob_animation_data *ad = anim_of(inst->doc, a);
    double d = ad ? ad->length : 0;
    return d > 0 ? s->time / d : 1;
}

/* ---- §9.2 entering a state ------------------------------------------ */

static void state_sounds(ob_instance *inst, const ob_state_data *st, int on_exit, uint64_t owner)
{
    ob_sm_state *sm = inst->sm;
    for (int32_t i = 0; i < st->sound_count; i++) {
        const ob_state_sound *s = &st->sounds[i];
        if (s->on_exit != on_exit || !s->sound) continue;
        if (s->stop) {
            ob_audio_stop_sound(&sm->audio, s->sound, 0, 0);  /* fade: the sound's fadeOut */
            continue;
        }
        ob_audio_play_opts o = {0};
        o.has_volume = s->has_volume;
        o.volume = s->volume;
        o.owner = owner;
        o.tag = (ob_audio_tag){"hook:", s->sound, -1};  /* tag hook:<sound> */
        o.source = (ob_audio_source){"state", st->name};
        ob_audio_play(&sm->audio, s->sound, &o);
    }
}

static void enter(ob_instance *inst, int32_t li, int32_t state, double mix)
{
    ob_sm_state *sm = inst->sm;
    ob_sm_layer *l = &sm->layers[li];
    const ob_layer_data *ld = &sm->machine->layers[li];
    if (state < 0 || state >= ld->state_count) return;
    const char *prev_name = NULL;
    if (l->current.state >= 0) {
        const ob_state_data *cur = &ld->states[l->current.state];
        prev_name = cur->name;
        ob_scripts_exit_state(inst, li);                        /* dispose its scripts */
        ob_audio_stop_owner(&sm->audio, l->current.serial, mix); /* fade max(mix, fadeOut) */
        state_sounds(inst, cur, 1, l->current.serial);           /* exit hooks */
    }
    const ob_state_data *st = &ld->states[state];
    ob_sm_state_inst none = {-1, 0, -1e-6, 0};
    if (st->type == OB_STATE_EXIT) {
        l->exited = 1;
        l->from = l->current;
        l->current = none;
        l->mix_time = 0;
        l->mix_duration = mix;
    } else {
        ob_sm_state_inst fresh = {state, 0, -1e-6, ++sm->next_serial};
        l->from = mix > 0 ? l->current : none;  /* an older from is dropped */
        l->current = fresh;
        l->mix_time = 0;
        l->mix_duration = mix;
        l->exited = 0;
        state_sounds(inst, st, 0, fresh.serial);
        for (int32_t i = 0; i < st->emitter_count; i++)
            if (st->emitters[i].slot >= 0) ob_particles_set_emitter(inst, st->emitters[i].slot, st->emitters[i].emitting);
        for (int32_t i = 0; i < st->input_count; i++)  /* setInput, only for inputs that exist */
            if (st->inputs[i].input >= 0) ob_sm_set_input(inst, st->inputs[i].input, &st->inputs[i].value);
        ob_scripts_enter_state(inst, li);
    }
    /* §9.2 "Emits stateChange": a log record "<from> -> <to>" */
    char text[512];
    snprintf(text, sizeof text, "%s -> %s", prev_name ? prev_name : "null",
             st->type == OB_STATE_EXIT ? "exit" : st->name ? st->name : "");
    ob_sm_log_record(inst, "stateChange", text, li);
}

/* ---- §9.3 transitions ------------------------------------------------ */

static int can_take(const ob_instance *inst, int32_t li, const ob_transition_data *t, const ob_sm_state_inst *s)
{
    const ob_sm_state *sm = inst->sm;
    int has_s = s->state >= 0;
    if (t->from != OB_FROM_ANY && has_s && t->to == s->state && t->condition_count == 0) return 0;
    if (t->from == OB_FROM_ANY && has_s && t->to == s->state) return 0;
    /* exitTime = t.exitTime ?? (no conditions ? 1 : null) */
    int has_exit = t->has_exit_time || t->condition_count == 0;
    double exit_time = t->has_exit_time ? t->exit_time : 1;
    if (has_exit && has_s && progress(inst, li, s) < exit_time) return 0;
    for (int32_t i = 0; i < t->condition_count; i++)
        if (!ob_sm_condition_passes(sm, &t->conditions[i])) return 0;
    return 1;
}

/* §9.3 evaluate: the transition taken, or NULL */
static const ob_transition_data *evaluate(ob_instance *inst, int32_t li)
{
    ob_sm_state *sm = inst->sm;
    ob_sm_layer *l = &sm->layers[li];
    const ob_layer_data *ld = &sm->machine->layers[li];
    if (l->exited) return NULL;
    int32_t cur = l->current.state;
    /* candidates stably sorted specific-first: from == current, then @any */
    for (int pass = 0; pass < 2; pass++)
        for (int32_t i = 0; i < ld->transition_count; i++) {
            const ob_transition_data *t = &ld->transitions[i];
            if (pass == 0 ? (cur < 0 || t->from != cur) : t->from != OB_FROM_ANY) continue;
            if (!can_take(inst, li, t, &l->current)) continue;
            if (t->to < 0) continue;  /* missing target: skipped, keeps its triggers */
            enter(inst, li, t->to, t->duration);
            return t;
        }
    if (cur >= 0) {
        const ob_state_data *st = &ld->states[cur];
        if (st->on_complete >= 0 && progress(inst, li, &l->current) >= 1) enter(inst, li, st->on_complete, 0.1);
    }
    return NULL;
}

static void settle(ob_instance *inst, int32_t li)
{
    ob_sm_state *sm = inst->sm;
    for (int hop = 0; hop < OB_SM_HOPS; hop++) {
        const ob_transition_data *t = evaluate(inst, li);
        if (!t) return;
        for (int32_t c = 0; c < t->condition_count; c++)  /* consume the triggers it used */
            if (t->conditions[c].input >= 0) sm->fired[t->conditions[c].input] = 0;
    }
}

/* ---- §9.4 applying states, collecting events ------------------------ */

/* animations(state) into out (≤ 2), returns the count */
static int32_t state_animations(const ob_sm_state *sm, int32_t li, const ob_sm_state_inst *s, int32_t out[2])
{
    if (s->state < 0) return 0;
    const ob_state_data *st = &sm->machine->layers[li].states[s->state];
    int32_t n = 0;
    if (st->type == OB_STATE_ANIMATION) {
        if (st->animation >= 0) out[n++] = st->animation;
    } else if (st->type == OB_STATE_BLEND1D) {
        blend_pair p = blend_pair_of(sm, st);
        if (p.lo >= 0) out[n++] = p.lo;
        if (p.hi >= 0) out[n++] = p.hi;  /* even when t = 0 or hi == lo */
    }
    return n;
}

static void apply_one(ob_instance *inst, int32_t a, const ob_sm_state_inst *s, int loop, double alpha,
                      const ob_mix_out *mo)
{
    const ob_animation_data *ad = anim_of(inst->doc, a);
    if (!ad) return;
    ob_animation_apply(inst, a, ob_animation_local_time(inst->doc, ad, s->time, loop), alpha, mo);
}

/* applyState(s, alpha, into, outAlpha) */
static void apply_state(ob_instance *inst, int32_t li, const ob_sm_state_inst *s, double alpha, const int32_t *into,
                        int32_t into_count, int has_into, double out_alpha)
{
    const ob_sm_state *sm = inst->sm;
    if (s->state < 0) return;
    const ob_state_data *st = &sm->machine->layers[li].states[s->state];
    ob_mix_out mo = {into, into_count, out_alpha};
    if (st->type == OB_STATE_ANIMATION) {
        apply_one(inst, st->animation, s, st->loop, alpha, has_into ? &mo : NULL);
    } else if (st->type == OB_STATE_BLEND1D) {
        blend_pair p = blend_pair_of(sm, st);
        if (!p.ok) return;
        apply_one(inst, p.lo, s, st->loop, alpha, has_into ? &mo : NULL);
        if (p.hi != p.lo && p.t > 0) {
            ob_mix_out mh = {into, into_count, out_alpha * p.t};  /* outAlpha·t for hi */
            apply_one(inst, p.hi, s, st->loop, alpha * p.t, has_into ? &mh : NULL);
        }
    }
}

typedef struct collect_ctx {
    ob_instance *inst;
    const ob_animation_data *anim;
    int32_t anim_index;
    uint64_t owner;
} collect_ctx;

static void on_audio_key(void *ctx, int32_t k)
{
    collect_ctx *c = ctx;
    ob_audio_play_key(&c->inst->sm->audio, c->anim, k, c->owner);
}

void ob_sm_play_event_audio(ob_instance *inst, int32_t event, uint64_t owner)
{
    const ob_event_data *ev = &inst->doc->events[event];
    if (!ev->audio) return;
    ob_audio_play_opts o = {0};
    o.has_volume = ev->has_volume;
    o.volume = ev->volume;
    o.owner = owner;
    o.source = (ob_audio_source){"event", ev->name};
    ob_audio_play(&inst->sm->audio, ev->audio, &o);
}

static void on_event_key(void *ctx, int32_t k)
{
    collect_ctx *c = ctx;
    ob_instance *inst = c->inst;
    const ob_event_key *key = &c->anim->events[k];
    const ob_event_data *ev = &inst->doc->events[key->event];
    ob_sm_play_event_audio(inst, key->event, c->owner);
    ob_sm_queue_event(inst, key->event, ev->name, ev->id, key->has_int ? key->int_value : ev->int_value,
                      key->has_float ? key->float_value : ev->float_value,
                      key->has_string ? key->string_value : ev->string_value);
    ob_sm_state *sm = inst->sm;
    sm->pending[sm->pending_count - 1].time = key->time;  /* the key's local time */
    sm->pending[sm->pending_count - 1].animation = c->anim_index;
}

/* §9.4 collectEvents(current): audio keys, then events, over (prevTime, time] */
static void collect_events(ob_instance *inst, int32_t li, const ob_sm_state_inst *s)
{
    ob_sm_state *sm = inst->sm;
    const ob_state_data *st = &sm->machine->layers[li].states[s->state];
    int32_t a = -1;
    if (st->type == OB_STATE_ANIMATION) a = st->animation;
    else if (st->type == OB_STATE_BLEND1D) {
        blend_pair p = blend_pair_of(sm, st);
        a = p.t >= 0.5 ? p.hi : p.lo;
    }
    const ob_animation_data *ad = anim_of(inst->doc, a);
    if (!ad) return;
    collect_ctx c = {inst, ad, a, s->serial};
    ob_audio_keys_between(ad, s->prev_time, s->time, st->loop, on_audio_key, &c);
    ob_events_between(ad, s->prev_time, s->time, st->loop, on_event_key, &c);
}

static void step_time(ob_sm_state_inst *s, double dt, double speed)
{
    s->prev_time = s->time > 0 ? s->time : fmin(s->prev_time, s->time);
    s->time += dt * speed;
}

/* ---- §9.1 advance ---------------------------------------------------- */

static size_t json_str(char *out, size_t cap, size_t n, const char *s)
{
    if (n < cap) out[n] = '"';
    n++;
    for (; s && *s; s++) {
        unsigned char ch = (unsigned char)*s;
        char esc[8];
        const char *w = esc;
        if (ch == '"' || ch == '\\') { esc[0] = '\\'; esc[1] = (char)ch; esc[2] = 0; }
        else if (ch < 0x20) snprintf(esc, sizeof esc, "\\u%04x", ch);
        else { esc[0] = (char)ch; esc[1] = 0; }
        for (; *w; w++, n++)
            if (n < cap) out[n] = *w;
    }
    if (n < cap) out[n] = '"';
    return n + 1;
}

static size_t json_num(char *out, size_t cap, size_t n, double v)
{
    char b[OB_JSNUM_CAP];
    if (!isfinite(v)) strcpy(b, "null");
    else ob_js_to_string(v, b, sizeof b);
    for (const char *w = b; *w; w++, n++)
        if (n < cap) out[n] = *w;
    return n;
}

static size_t json_raw(char *out, size_t cap, size_t n, const char *s)
{
    for (; *s; s++, n++)
        if (n < cap) out[n] = *s;
    return n;
}

/* §11 onEvent(e): e = {name, id, time, int, float, string, animation, audio?, volume?} */
static void event_to_scripts(ob_instance *inst, const ob_sm_event *e)
{
    ob_sm_state *sm = inst->sm;
    if (!sm->host || !ob_scripts_loaded(inst)) return;
    const ob_sm_pool *p = &sm->report_pool;
    char buf[2048];
    size_t cap = sizeof buf - 1, n = 0;
    n = json_raw(buf, cap, n, "[{\"name\":");
    n = json_str(buf, cap, n, ob_sm_str(p, e->name));
    n = json_raw(buf, cap, n, ",\"id\":");
    n = json_str(buf, cap, n, ob_sm_str(p, e->id));
    n = json_raw(buf, cap, n, ",\"time\":");
    n = json_num(buf, cap, n, e->time);
    n = json_raw(buf, cap, n, ",\"int\":");
    n = json_num(buf, cap, n, e->int_value);
    n = json_raw(buf, cap, n, ",\"float\":");
    n = json_num(buf, cap, n, e->float_value);
    n = json_raw(buf, cap, n, ",\"string\":");
    n = json_str(buf, cap, n, ob_sm_str(p, e->string));
    if (e->animation >= 0) {
        n = json_raw(buf, cap, n, ",\"animation\":");
        n = json_str(buf, cap, n, inst->doc->animations[e->animation].name);
    }
    if (e->event >= 0 && inst->doc->events[e->event].audio) {
        const ob_event_data *ev = &inst->doc->events[e->event];
        n = json_raw(buf, cap, n, ",\"audio\":");
        n = json_str(buf, cap, n, ev->audio);
        if (ev->has_volume) {
            n = json_raw(buf, cap, n, ",\"volume\":");
            n = json_num(buf, cap, n, ev->volume);
        }
    }
    n = json_raw(buf, cap, n, "}]");
    if (n > cap) return;  /* too long for the buffer: not delivered */
    buf[n] = 0;
    ob_scripts_event(inst, buf);
}

/* §9.1 step 13: pending events in order (those queued during it wait a frame) */
static void flush_events(ob_instance *inst)
{
    ob_sm_state *sm = inst->sm;
    int32_t n = sm->pending_count;
    for (int32_t i = 0; i < n; i++) {
        ob_sm_event e = sm->pending[i];
        if (grow((void **)&sm->report, &sm->report_capacity, sm->report_count + 1, sizeof *sm->report) < 0) break;
        e.name = pool_add(&sm->report_pool, ob_sm_str(&sm->pending_pool, sm->pending[i].name));
        e.id = pool_add(&sm->report_pool, ob_sm_str(&sm->pending_pool, sm->pending[i].id));
        e.string = pool_add(&sm->report_pool, ob_sm_str(&sm->pending_pool, sm->pending[i].string));
        sm->report[sm->report_count++] = e;  /* emit "event" */
        event_to_scripts(inst, &sm->report[sm->report_count - 1]);
    }
    /* keep what scripts queued during onEvent, with its strings */
    int32_t rest = sm->pending_count - n;
    if (rest > 0) {
        ob_sm_pool old = sm->pending_pool;
        sm->pending_pool = (ob_sm_pool){NULL, 0, 0};
        pool_reset(&sm->pending_pool);
        for (int32_t i = 0; i < rest; i++) {
            ob_sm_event e = sm->pending[n + i];
            e.name = pool_add(&sm->pending_pool, ob_sm_str(&old, e.name));
            e.id = pool_add(&sm->pending_pool, ob_sm_str(&old, e.id));
            e.string = pool_add(&sm->pending_pool, ob_sm_str(&old, e.string));
            sm->pending[i] = e;
        }
        free(old.data);
    } else {
        pool_reset(&sm->pending_pool);
    }
    sm->pending_count = rest;
}

/* issue 17 (draw): the machine's advance apart from the check every frame
** makes, so an instance without a machine does not pay its register saves */
__attribute__((noinline)) static int sm_advance(ob_instance *inst, double dt)
{
    ob_sm_state *sm = inst->sm;
    const ob_machine_data *mc = sm->machine;
    /* the report of this advance: drop the last one */
    sm->report_count = 0;
    pool_reset(&sm->report_pool);
    ob_audio_begin_frame(&sm->audio);

    if (!sm->started) {  /* 1: start() */
        sm->started = 1;
        ob_scripts_start(inst);
        for (int32_t l = 0; l < mc->layer_count; l++) enter(inst, l, mc->layers[l].entry, 0);
    }
    sm->elapsed += dt;  /* 2 */
    ob_audio_update(&sm->audio, dt);
    ob_sm_process_pointer(inst);  /* 3 */
    ob_scripts_update(inst, dt);  /* 4 */
    for (int32_t l = 0; l < mc->layer_count; l++) settle(inst, l);  /* 5 */
    memset(sm->fired, 0, (size_t)mc->input_count);  /* 6 */
    for (int32_t l = 0; l < mc->layer_count; l++) {  /* 7 */
        ob_sm_layer *ly = &sm->layers[l];
        const ob_layer_data *ld = &mc->layers[l];
        if (ly->current.state >= 0) step_time(&ly->current, dt, ld->states[ly->current.state].speed);
        if (ly->from.state >= 0) step_time(&ly->from, dt, ld->states[ly->from.state].speed);
        if (ly->current.state >= 0 && dt > 0) collect_events(inst, l, &ly->current);
        if (ly->from.state >= 0) {
            ly->mix_time += dt;
            if (ly->mix_time >= ly->mix_duration) ly->from.state = -1;
        }
    }
    ob_instance_set_to_setup_pose(inst);  /* 8 */
    for (int32_t l = 0; l < mc->layer_count; l++) {
        ob_sm_layer *ly = &sm->layers[l];
        double mix_a = ly->mix_duration > 0 ? fmin(1, ly->mix_time / ly->mix_duration) : 1;
        int has_from = ly->from.state >= 0, has_cur = ly->current.state >= 0;
        if (has_from) {
            if (has_cur) {
                int32_t into[2];
                int32_t n = state_animations(sm, l, &ly->current, into);
                apply_state(inst, l, &ly->from, 1, into, n, 1, 1 - mix_a);  /* §5.1a */
            } else {
                apply_state(inst, l, &ly->from, ly->exited ? 1 - mix_a : 1, NULL, 0, 0, 0);
            }
        }
        if (has_cur) apply_state(inst, l, &ly->current, has_from ? mix_a : 1, NULL, 0, 0, 0);
    }
    ob_scripts_apply_overrides(inst);  /* 9 */
    for (int32_t i = 0; i < mc->input_count; i++)  /* 10 */
        if (mc->inputs[i].type == OB_INPUT_NUMBER && sm->values[i].kind == OB_VAL_NUMBER) {
            sm->input_numbers[i] = sm->values[i].number;
            sm->input_number_set[i] = 1;
        }
    ob_particles_apply_overrides(inst);
    ob_sm_apply_bindings(inst);  /* 11 */
    ob_skeleton_update(inst, dt);  /* 12 */
    ob_instance_update_world_transform(inst);
    flush_events(inst);  /* 13 */
    ob_audio_end_frame(&sm->audio);
    return 1;
}

int ob_sm_advance(ob_instance *inst, double dt)
{
    return inst->sm ? sm_advance(inst, dt) : 0;
}

const char *ob_sm_active_state(const ob_instance *inst, int32_t layer)
{
    const ob_sm_state *sm = inst->sm;
    if (!sm || layer < 0 || layer >= sm->machine->layer_count) return NULL;
    const ob_sm_layer *l = &sm->layers[layer];
    if (l->exited) return "exit";
    if (l->current.state < 0) return NULL;
    return sm->machine->layers[layer].states[l->current.state].name;
}
