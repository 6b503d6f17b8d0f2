/* load_state_machine.c: the audio section, document scripts and state
** machines, from the JSON tree into document structs (format "Audio", "State
** machines"; runtime spec §9, §10, §11; CLARIFICATIONS "State machines").
**
** Ids become indices here: a sound's asset and bus, a state's animation and
** onComplete, a transition's from/to, a condition's or binding's input, a
** listener's slot, script id lists.  A reference to something that does not
** exist is kept as -1 (the runtime treats it as the spec says for a missing
** target) and noted with ob_warn; a value of the wrong type fails the load.
*/
#include "load.h"

#include <stddef.h>
#include <string.h>

#include "jsnum.h"

/* An optional array member: its first element and *n; NULL when absent (§2:
** a missing array reads as []). */
static const cJSON *list(ob_loader *L, const cJSON *obj, const char *key, int32_t *n)
{
    const cJSON *a = ob_arr(L, obj, key);
    *n = a ? (int32_t)ob_json_count(a) : 0;
    return a ? a->child : NULL;
}

/* An id inside a list (element i): a string, or a number written as JS's
** String(n) into buf (as ob_ref does for members). */
static const char *elem_ref(ob_loader *L, const cJSON *s, int32_t i, char *buf, size_t cap)
{
    if (cJSON_IsString(s)) return s->valuestring;
    if (cJSON_IsNumber(s)) {
        ob_js_to_string(s->valuedouble, buf, cap);
        return buf;
    }
    ob_path_index(L, i);
    ob_fail_type(L, NULL, "an id (a string)", s);
}

#define FIND(arr, count, id) OB_LOOKUP_ID(L, (arr), (count), (id))  /* hashed (issue 21) */

/* A name; absent ⇒ the id, else "" (as document.c does for bones and slots). */
static const char *name_of(ob_loader *L, const cJSON *o, const char *id)
{
    return ob_str(L, o, "name", id ? id : "");
}

/* Resolves the id member `key` among arr[0..count) (first wins); -1 with a
** warning naming `what` when the file names one that does not exist. */
#define RESOLVE(L, o, key, arr, count, what) resolve((L), (o), (key), (arr), (count), sizeof *(arr), (what))

static int32_t resolve(ob_loader *L, const cJSON *o, const char *key, const void *arr, int32_t count,
                       size_t stride, const char *what)
{
    const char *id = ob_ref(L, o, key);
    if (!id) return -1;
    int32_t i = ob_lookup(L, arr, count, stride, 0, id);
    if (i < 0) ob_warn(L, key, "no %s \"%s\"", what, id);
    return i;
}

/* A string member that must be one of names[0..n); absent ⇒ def.  Returns
** the index. */
static int one_of(ob_loader *L, const cJSON *o, const char *key, const char *const *names, int n, int def,
                  const char *what)
{
    const cJSON *v = ob_get(o, key);
    if (!v) return def;
    if (cJSON_IsString(v))
        for (int i = 0; i < n; i++)
            if (strcmp(v->valuestring, names[i]) == 0) return i;
    ob_fail_type(L, key, what, v);
}

/* ---- Audio (format "Audio", §10) --------------------------------------- */

static void load_asset(ob_loader *L, const cJSON *o, ob_audio_asset *a)
{
    a->id = ob_ref(L, o, "id");
    a->name = name_of(L, o, a->id);
    a->src = ob_str(L, o, "src", "");
    a->duration = ob_num(L, o, "duration", 0);  /* seconds, 0 if unknown */
}

static void load_bus(ob_loader *L, const cJSON *o, ob_audio_bus *b)
{
    b->id = ob_ref(L, o, "id");
    b->name = name_of(L, o, b->id);
    b->volume = ob_num(L, o, "volume", 1);
    b->muted = ob_bool(L, o, "muted", 0);
}

static void load_sound(ob_loader *L, const cJSON *o, ob_sound_data *s)
{
    ob_document *doc = L->doc;
    s->id = ob_ref(L, o, "id");
    s->name = name_of(L, o, s->id);
    s->asset_ref = ob_ref(L, o, "asset");
    s->asset = RESOLVE(L, o, "asset", doc->audio_assets, doc->audio_asset_count, "audio asset");
    s->bus_ref = ob_ref(L, o, "bus");  /* null: straight into the master */
    s->bus = RESOLVE(L, o, "bus", doc->audio_buses, doc->audio_bus_count, "audio bus");
    s->volume = ob_num(L, o, "volume", 1);
    s->rate = ob_num(L, o, "rate", 1);
    s->loop = ob_bool(L, o, "loop", 0);
    s->fade_in = ob_num(L, o, "fadeIn", 0);
    s->fade_out = ob_num(L, o, "fadeOut", 0);
}

/* Loads the array `key` of obj into *out / *count, element by element with
** fn(C, element, &out[i]); C is the loader or a machine context. */
#define LOAD_LIST(L, C, obj, key, out, count, fn)                       \
    do {                                                                \
        int32_t n_;                                                     \
        const cJSON *it_ = list((L), (obj), (key), &n_);                \
        (out) = ob_alloc((L), (size_t)n_, sizeof *(out));               \
        (count) = n_;                                                   \
        size_t m0_ = ob_path_key((L), (key));                           \
        for (int32_t i_ = 0; it_; it_ = it_->next, i_++) {              \
            size_t m_ = ob_path_index((L), i_);                         \
            ob_expect_object((L), it_);                                 \
            fn((C), it_, &(out)[i_]);                                   \
            ob_path_pop((L), m_);                                       \
        }                                                               \
        ob_path_pop((L), m0_);                                          \
    } while (0)

void ob_load_audio(ob_loader *L, const cJSON *root)
{
    ob_document *doc = L->doc;
    const cJSON *a = ob_obj(L, root, "audio");  /* optional */
    doc->has_audio = a != NULL;
    doc->audio_master = 1;
    doc->audio_muted = 0;
    size_t m = ob_path_key(L, "audio");
    if (a) {
        doc->audio_master = ob_num(L, a, "master", 1);
        doc->audio_muted = ob_bool(L, a, "muted", 0);
    }
    /* assets and buses first: sounds resolve against them */
    LOAD_LIST(L, L, a, "assets", doc->audio_assets, doc->audio_asset_count, load_asset);
    LOAD_LIST(L, L, a, "buses", doc->audio_buses, doc->audio_bus_count, load_bus);
    LOAD_LIST(L, L, a, "sounds", doc->sounds, doc->sound_count, load_sound);
    ob_path_pop(L, m);
}

/* ---- Scripts (§11) ----------------------------------------------------- */

static void load_script(ob_loader *L, const cJSON *o, ob_script_data *s)
{
    s->id = ob_ref(L, o, "id");
    s->name = name_of(L, o, s->id);
    s->code = ob_str(L, o, "code", "");
}

void ob_load_scripts(ob_loader *L, const cJSON *root)
{
    ob_document *doc = L->doc;
    LOAD_LIST(L, L, root, "scripts", doc->scripts, doc->script_count, load_script);
}

/* A list of document script ids (machine / state `scripts`) as script
** indices; unknown ids are left out with a warning. */
static int32_t *script_list(ob_loader *L, const cJSON *o, int32_t *count)
{
    int32_t n;
    const cJSON *it = list(L, o, "scripts", &n);
    int32_t *out = ob_alloc(L, (size_t)n, sizeof *out);
    size_t m = ob_path_key(L, "scripts");
    *count = 0;
    for (int32_t i = 0; it; it = it->next, i++) {
        char num[OB_JSNUM_CAP];
        const char *id = elem_ref(L, it, i, num, sizeof num);
        int32_t s = FIND(L->doc->scripts, L->doc->script_count, id);
        if (s < 0) {
            size_t mi = ob_path_index(L, i);
            ob_warn(L, NULL, "no script \"%s\"; left out", id);
            ob_path_pop(L, mi);
            continue;
        }
        out[(*count)++] = s;
    }
    ob_path_pop(L, m);
    return out;
}

/* ---- State machines (§9, CLARIFICATIONS "State machines") -------------- */

/* What a machine's parts resolve against: its inputs, the layer's states. */
typedef struct sm_ctx {
    ob_loader *L;
    ob_document *doc;
    ob_machine_data *machine;
    ob_layer_data *layer;        /* NULL outside a layer */
} sm_ctx;

static const char *const input_types[] = {"bool", "number", "string", "trigger"};
#define INPUT_TYPES "\"bool\", \"number\", \"string\" or \"trigger\""

static void load_input(ob_loader *L, const cJSON *o, ob_input_data *in)
{
    in->id = ob_ref(L, o, "id");
    in->name = name_of(L, o, in->id);
    if (!ob_has(o, "type")) ob_fail_type(L, "type", INPUT_TYPES, NULL);
    in->type = (ob_input_type)one_of(L, o, "type", input_types, 4, 0, INPUT_TYPES);
    in->def = ob_value_get(L, o, "default");  /* triggers start false whatever it says (§9) */
}

/* A machine input by id: its index, -1 (with a warning) when missing. */
static int32_t machine_input(sm_ctx *S, const cJSON *o, const char *key)
{
    ob_machine_data *mc = S->machine;
    return RESOLVE(S->L, o, key, mc->inputs, mc->input_count, "input");
}

#define P(x) ((uint64_t)1 << (x))
#define BONE_LOCAL (P(OB_P_ROTATION) | P(OB_P_X) | P(OB_P_Y) | P(OB_P_SCALE_X) | P(OB_P_SCALE_Y) | \
                    P(OB_P_SHEAR_X) | P(OB_P_SHEAR_Y))

/* Keyable values per constraint kind (format table "Animations and
** timelines"), which bindings may drive (format "Input bindings"). */
static const uint64_t constraint_props[] = {
    [OB_CON_IK] = P(OB_P_MIX) | P(OB_P_SOFTNESS) | P(OB_P_BEND) | P(OB_P_STRETCH) | P(OB_P_COMPRESS),
    [OB_CON_TRANSFORM] = P(OB_P_MIX) | P(OB_P_MIX_ROTATE) | P(OB_P_MIX_TRANSLATE) | P(OB_P_MIX_SCALE) |
                         P(OB_P_MIX_SHEAR),
    [OB_CON_PATH] = P(OB_P_POSITION) | P(OB_P_SPACING) | P(OB_P_MIX_ROTATE) | P(OB_P_MIX_X) | P(OB_P_MIX_Y),
    [OB_CON_PHYSICS] = P(OB_P_MIX) | P(OB_P_INERTIA) | P(OB_P_STRENGTH) | P(OB_P_DAMPING) | P(OB_P_MASS) |
                       P(OB_P_GRAVITY) | P(OB_P_WIND),
};

/* A constraint of any kind by id, first in the default list (ik, transform,
** path, physics), through a hashed index (the struct does not start with its
** id). */
static int32_t find_constraint(ob_loader *L, const char *id)
{
    const ob_document *doc = L->doc;
    return ob_lookup(L, doc->constraints, doc->constraint_count, sizeof *doc->constraints,
                     offsetof(ob_constraint_data, id), id);
}

static const char *const bind_objects[] = {"bone", "slot", "constraint"};

/* A binding output: a number, or for slot colour a hex string (format "Input
** bindings": "hex outputs, blended per channel"). */
static void binding_output(ob_loader *L, const cJSON *o, const char *key, ob_binding_data *b, double def,
                           double *num, double color[4])
{
    static const double white[4] = {1, 1, 1, 1};
    if (b->object == OB_BIND_SLOT && b->property == OB_P_COLOR) ob_color(L, o, key, white, color);
    else *num = ob_num(L, o, key, def);
}

static void load_binding(sm_ctx *S, const cJSON *o, ob_binding_data *b)
{
    ob_loader *L = S->L;
    ob_document *doc = S->doc;
    b->id = ob_ref(L, o, "id");
    b->input = machine_input(S, o, "input");

    const char *object = ob_str(L, o, "object", NULL);
    b->object = OB_BIND_UNKNOWN;
    for (int i = 0; object && i < 3; i++)
        if (strcmp(object, bind_objects[i]) == 0) b->object = (ob_bind_object)i;
    if (b->object == OB_BIND_UNKNOWN)
        ob_warn(L, "object", "unknown binding object \"%s\"; the binding is skipped", object ? object : "");

    const char *target = ob_ref(L, o, "target");
    b->target = -1;
    uint64_t allowed = 0;
    switch (b->object) {
    case OB_BIND_BONE:
        b->target = FIND(doc->bones, doc->bone_count, target);
        allowed = BONE_LOCAL;
        break;
    case OB_BIND_SLOT:
        b->target = FIND(doc->slots, doc->slot_count, target);
        allowed = P(OB_P_COLOR) | P(OB_P_ALPHA);
        break;
    case OB_BIND_CONSTRAINT:
        b->target = find_constraint(L, target);
        if (b->target >= 0) allowed = constraint_props[doc->constraints[b->target].kind];
        else
            for (int k = OB_CON_IK; k <= OB_CON_PHYSICS; k++) allowed |= constraint_props[k];
        break;
    default:
        break;
    }
    if (b->object != OB_BIND_UNKNOWN && b->target < 0)
        ob_warn(L, "target", "no %s \"%s\"; the binding is skipped", object, target ? target : "");

    const char *prop = ob_str(L, o, "property", NULL);
    int p = prop ? ob_parse_property(prop) : -1;
    b->property = OB_P_UNKNOWN;
    if (p >= 0 && (allowed & P(p))) b->property = (ob_property)p;
    else if (b->object != OB_BIND_UNKNOWN)
        ob_warn(L, "property", "a %s binding cannot drive \"%s\"; the binding is skipped", object,
                prop ? prop : "");

    /* §9.6 bindingT / lerp */
    b->in_min = ob_num(L, o, "inMin", 0);
    b->in_max = ob_num(L, o, "inMax", 1);
    binding_output(L, o, "outMin", b, 0, &b->out_min, b->out_min_color);
    binding_output(L, o, "outMax", b, 1, &b->out_max, b->out_max_color);
}

static void load_state_sound(sm_ctx *S, const cJSON *o, ob_state_sound *s)
{
    static const char *const on[] = {"enter", "exit"}, *const action[] = {"play", "stop"};
    ob_loader *L = S->L;
    s->sound = ob_ref(L, o, "sound");
    s->on_exit = one_of(L, o, "on", on, 2, 0, "\"enter\" or \"exit\"");
    s->stop = one_of(L, o, "action", action, 2, 0, "\"play\" or \"stop\"");
    s->has_volume = ob_has(o, "volume");
    s->volume = ob_num(L, o, "volume", 1);
}

static void load_state_emitter(sm_ctx *S, const cJSON *o, ob_state_emitter *e)
{
    e->slot = RESOLVE(S->L, o, "slot", S->doc->slots, S->doc->slot_count, "slot");
    e->emitting = ob_bool(S->L, o, "emitting", 0);
}

static void load_state_input(sm_ctx *S, const cJSON *o, ob_state_input *in)
{
    in->input = machine_input(S, o, "input");  /* §9.2: only inputs that exist are set */
    in->value = ob_value_get(S->L, o, "value");
}

static void load_blend_entry(sm_ctx *S, const cJSON *o, ob_blend_entry *e)
{
    e->value = ob_num(S->L, o, "value", 0);
    e->animation = RESOLVE(S->L, o, "animation", S->doc->animations, S->doc->animation_count, "animation");
}

static const char *const state_types[] = {"animation", "blend1d", "exit"};

/* A state; onComplete is resolved by the layer once every state is known. */
static void load_state(sm_ctx *S, const cJSON *o, ob_state_data *s)
{
    ob_loader *L = S->L;
    ob_document *doc = S->doc;
    s->id = ob_ref(L, o, "id");
    s->name = name_of(L, o, s->id);
    const char *type = ob_str(L, o, "type", NULL);
    s->type = OB_STATE_ANIMATION;
    if (type) {
        s->type = OB_STATE_UNKNOWN;
        for (int i = 0; i < 3; i++)
            if (strcmp(type, state_types[i]) == 0) s->type = (ob_state_type)i;
        if (s->type == OB_STATE_UNKNOWN)
            ob_warn(L, "type", "unknown state type \"%s\"; the state plays nothing", type);
    }
    s->animation = RESOLVE(L, o, "animation", doc->animations, doc->animation_count, "animation");
    s->loop = ob_bool(L, o, "loop", 1);
    s->speed = ob_num(L, o, "speed", 1);
    s->input = machine_input(S, o, "input");  /* blend1d */
    LOAD_LIST(L, S, o, "entries", s->entries, s->entry_count, load_blend_entry);
    s->on_complete = -1;
    LOAD_LIST(L, S, o, "sounds", s->sounds, s->sound_count, load_state_sound);
    LOAD_LIST(L, S, o, "emitters", s->emitters, s->emitter_count, load_state_emitter);
    LOAD_LIST(L, S, o, "inputs", s->inputs, s->input_count, load_state_input);
    s->scripts = script_list(L, o, &s->script_count);
}

static const char *const ops[] = {"==", "!=", ">", "<", ">=", "<="};

static void load_condition(sm_ctx *S, const cJSON *o, ob_condition *c)
{
    ob_loader *L = S->L;
    c->input = machine_input(S, o, "input");
    c->op = OB_OP_NONE;
    c->value = (ob_value){OB_VAL_NULL, 0, NULL};
    if (c->input >= 0 && S->machine->inputs[c->input].type == OB_INPUT_TRIGGER)
        return;  /* a trigger condition: fired this frame (§9.3); no op/value */
    c->op = (ob_cond_op)one_of(L, o, "op", ops, 6, OB_OP_NONE, "\"==\", \"!=\", \">\", \"<\", \">=\" or \"<=\"");
    if (c->op == OB_OP_NONE && c->input >= 0)
        ob_warn(L, "op", "a condition on a non-trigger input without an op never passes");
    c->value = ob_value_get(L, o, "value");
}

/* A state of the current layer by id (first wins); "@any" when allowed. */
static int32_t state_ref(sm_ctx *S, const cJSON *o, const char *key, int any)
{
    const char *id = ob_ref(S->L, o, key);
    if (!id) return -1;
    if (any && strcmp(id, "@any") == 0) return OB_FROM_ANY;
    int32_t i = OB_LOOKUP_ID(S->L, S->layer->states, S->layer->state_count, id);
    if (i < 0) ob_warn(S->L, key, "no state \"%s\" in this layer", id);
    return i;
}

static void load_transition(sm_ctx *S, const cJSON *o, ob_transition_data *t)
{
    ob_loader *L = S->L;
    t->id = ob_ref(L, o, "id");
    t->from = state_ref(S, o, "from", 1);
    t->to = state_ref(S, o, "to", 0);  /* §9.3: one to a missing state is skipped */
    t->duration = ob_num(L, o, "duration", 0);
    t->has_exit_time = ob_has(o, "exitTime");  /* null ⇒ §9.3 `t.exitTime ?? ...` */
    t->exit_time = ob_num(L, o, "exitTime", 0);
    LOAD_LIST(L, S, o, "conditions", t->conditions, t->condition_count, load_condition);
}

static void load_layer(sm_ctx *S, const cJSON *o, ob_layer_data *l)
{
    ob_loader *L = S->L;
    l->id = ob_ref(L, o, "id");
    l->name = name_of(L, o, l->id);
    LOAD_LIST(L, S, o, "states", l->states, l->state_count, load_state);
    S->layer = l;
    /* onComplete names a state of the same layer: resolved once all are known */
    int32_t n;
    const cJSON *it = list(L, o, "states", &n);
    size_t m0 = ob_path_key(L, "states");
    for (int32_t i = 0; it; it = it->next, i++) {
        size_t m = ob_path_index(L, i);
        l->states[i].on_complete = state_ref(S, it, "onComplete", 0);
        ob_path_pop(L, m);
    }
    ob_path_pop(L, m0);
    l->entry = state_ref(S, o, "entry", 0);
    LOAD_LIST(L, S, o, "transitions", l->transitions, l->transition_count, load_transition);
    S->layer = NULL;
}

static const char *const action_types[OB_ACT_UNKNOWN] = {
    "setInput", "toggleInput", "fireTrigger", "reportEvent", "playSound",
    "stopSound", "runScript", "setEmitter", "emitParticles", "setMute"};

/* §9.5 actions (CLARIFICATIONS shapes); only the fields of the action's type
** are read. */
static void load_action(sm_ctx *S, const cJSON *o, ob_action_data *a)
{
    ob_loader *L = S->L;
    ob_document *doc = S->doc;
    ob_machine_data *mc = S->machine;
    const char *type = ob_str(L, o, "type", NULL);
    a->type = OB_ACT_UNKNOWN;
    for (int i = 0; type && i < OB_ACT_UNKNOWN; i++)
        if (strcmp(type, action_types[i]) == 0) a->type = (ob_action_type)i;
    a->event = a->script = a->slot = -1;
    switch (a->type) {
    case OB_ACT_SET_INPUT:
        a->value = ob_value_get(L, o, "value");
        /* fall through */
    case OB_ACT_TOGGLE_INPUT:
    case OB_ACT_FIRE_TRIGGER:
        a->input = ob_ref(L, o, "input");  /* by id or name at run time (§9.5) */
        if (ob_lookup(L, mc->inputs, mc->input_count, sizeof *mc->inputs, offsetof(ob_input_data, name), a->input) < 0 &&
            OB_LOOKUP_ID(L, mc->inputs, mc->input_count, a->input) < 0)
            ob_warn(L, "input", "no input \"%s\"", a->input ? a->input : "");
        break;
    case OB_ACT_REPORT_EVENT:
        a->event = RESOLVE(L, o, "event", doc->events, doc->event_count, "event");
        break;
    case OB_ACT_PLAY_SOUND:
        a->sound = ob_ref(L, o, "sound");
        a->has_volume = ob_has(o, "volume");
        a->volume = ob_num(L, o, "volume", 1);
        break;
    case OB_ACT_STOP_SOUND:
        a->sound = ob_ref(L, o, "sound");
        a->has_fade = ob_has(o, "fade");  /* absent: the sound's fadeOut (§9.5) */
        a->fade = ob_num(L, o, "fade", 0);
        break;
    case OB_ACT_RUN_SCRIPT:
        a->script = RESOLVE(L, o, "script", doc->scripts, doc->script_count, "script");
        a->fn = ob_str(L, o, "fn", "run");  /* CLARIFICATIONS: without fn, `run` */
        break;
    case OB_ACT_SET_EMITTER:
        a->slot = RESOLVE(L, o, "slot", doc->slots, doc->slot_count, "slot");
        a->emitting = ob_bool(L, o, "emitting", 0);
        break;
    case OB_ACT_EMIT_PARTICLES:
        a->slot = RESOLVE(L, o, "slot", doc->slots, doc->slot_count, "slot");
        a->count = ob_num(L, o, "count", 0);
        break;
    case OB_ACT_SET_MUTE: {
        a->bus = ob_ref(L, o, "bus");  /* NULL: the master */
        const cJSON *v = ob_get(o, "muted");
        if (!v) a->muted = 0;
        else if (cJSON_IsBool(v)) a->muted = cJSON_IsTrue(v);
        else if (cJSON_IsString(v) && strcmp(v->valuestring, "toggle") == 0) a->muted = 2;
        else ob_fail_type(L, "muted", "true, false or \"toggle\"", v);
        if (a->bus && FIND(doc->audio_buses, doc->audio_bus_count, a->bus) < 0)
            ob_warn(L, "bus", "no audio bus \"%s\"", a->bus);
        break;
    }
    default:
        ob_warn(L, "type", "unknown action type \"%s\"; the action does nothing", type ? type : "");
        break;
    }
}

static const char *const listener_events[OB_LE_UNKNOWN] = {"down", "up", "move", "click", "enter", "exit"};

static void load_listener(sm_ctx *S, const cJSON *o, ob_listener_data *l)
{
    ob_loader *L = S->L;
    l->id = ob_ref(L, o, "id");
    l->name = name_of(L, o, l->id);
    /* §9.5: slot null hits everywhere; a slot id that does not exist never hits */
    l->has_slot = ob_has(o, "slot");
    l->slot = RESOLVE(L, o, "slot", S->doc->slots, S->doc->slot_count, "slot");
    const char *event = ob_str(L, o, "event", NULL);
    l->event = OB_LE_UNKNOWN;
    for (int i = 0; event && i < OB_LE_UNKNOWN; i++)
        if (strcmp(event, listener_events[i]) == 0) l->event = (ob_listener_event)i;
    if (l->event == OB_LE_UNKNOWN)
        ob_warn(L, "event", "unknown listener event \"%s\"; the listener never fires", event ? event : "");
    LOAD_LIST(L, S, o, "actions", l->actions, l->action_count, load_action);
}

static void load_machine(ob_loader *L, const cJSON *o, ob_machine_data *mc)
{
    sm_ctx S = {L, L->doc, mc, NULL};
    mc->id = ob_ref(L, o, "id");
    mc->name = name_of(L, o, mc->id);
    /* inputs first: bindings, states, conditions resolve against them */
    LOAD_LIST(L, L, o, "inputs", mc->inputs, mc->input_count, load_input);
    LOAD_LIST(L, &S, o, "bindings", mc->bindings, mc->binding_count, load_binding);  /* §2: missing ⇒ [] */
    LOAD_LIST(L, &S, o, "layers", mc->layers, mc->layer_count, load_layer);
    LOAD_LIST(L, &S, o, "listeners", mc->listeners, mc->listener_count, load_listener);
    mc->scripts = script_list(L, o, &mc->script_count);
}

void ob_load_state_machines(ob_loader *L, const cJSON *root)
{
    ob_document *doc = L->doc;
    LOAD_LIST(L, L, root, "stateMachines", doc->machines, doc->machine_count, load_machine);
}
