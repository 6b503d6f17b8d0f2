/* load_animation.c: events, animations (timelines, event and audio keys) and
** sliders, from the JSON tree into document structs (format "Animations and
** timelines", "Sliders"; runtime spec §2, §5, §7.5; CLARIFICATIONS "Timelines").
**
** Cross-references become indices here, once: a timeline's target id, an
** event key's event, a draw-order key's slot ids, a slider's animation and
** bone.  What the spec treats leniently (a missing target, an unknown target or
** property) is kept with index -1, which the runtime skips, and noted with
** ob_warn; a value of the wrong type fails the load, naming its place.
*/
#include "curve_spine.h"
#include "load.h"

#include <float.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "jsnum.h"
#include "obmath.h"

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

/* ---- Events (format "The document at a glance") ------------------------ */

static void load_event(ob_loader *L, const cJSON *o, ob_event_data *e)
{
    e->id = ob_ref(L, o, "id");
    e->name = name_of(L, o, e->id);
    e->int_value = ob_num(L, o, "int", 0);
    e->float_value = ob_num(L, o, "float", 0);
    e->string_value = ob_str(L, o, "string", "");
    e->audio = ob_ref(L, o, "audio");          /* §10: a sound id, played when it fires */
    e->has_volume = ob_has(o, "volume");
    e->volume = ob_num(L, o, "volume", 1);
}

void ob_load_events(ob_loader *L, const cJSON *root)
{
    ob_document *doc = L->doc;
    int32_t n;
    const cJSON *it = list(L, root, "events", &n);
    doc->events = ob_alloc(L, (size_t)n, sizeof *doc->events);
    doc->event_count = n;
    size_t m0 = ob_path_key(L, "events");
    for (int32_t i = 0; it; it = it->next, i++) {
        size_t m = ob_path_index(L, i);
        ob_expect_object(L, it);
        load_event(L, it, &doc->events[i]);
        ob_path_pop(L, m);
    }
    ob_path_pop(L, m0);
}

/* ---- Timelines (§5, CLARIFICATIONS "Timelines") ------------------------ */

static const char *const target_names[OB_TL_UNKNOWN] = {
    "bone", "slot", "ik", "transform", "path", "physics",
    "sequence", "particles", "deform", "drawOrder"};

#define P(x) ((uint64_t)1 << (x))
#define BONE_LOCAL (P(OB_P_ROTATION) | P(OB_P_X) | P(OB_P_Y) | P(OB_P_SCALE_X) | P(OB_P_SCALE_Y) | \
                    P(OB_P_SHEAR_X) | P(OB_P_SHEAR_Y))

/* The properties each target keys (format table "Animations and timelines";
** slot "dark" from §5.1). */
static const uint64_t target_props[OB_TL_UNKNOWN] = {
    [OB_TL_BONE] = BONE_LOCAL | P(OB_P_INHERIT),
    [OB_TL_SLOT] = P(OB_P_COLOR) | P(OB_P_DARK) | P(OB_P_ATTACHMENT),
    [OB_TL_IK] = P(OB_P_MIX) | P(OB_P_SOFTNESS) | P(OB_P_BEND) | P(OB_P_STRETCH) | P(OB_P_COMPRESS),
    [OB_TL_TRANSFORM] = P(OB_P_MIX) | P(OB_P_MIX_ROTATE) | P(OB_P_MIX_TRANSLATE) | P(OB_P_MIX_SCALE) |
                        P(OB_P_MIX_SHEAR),
    [OB_TL_PATH] = P(OB_P_POSITION) | P(OB_P_SPACING) | P(OB_P_MIX_ROTATE) | P(OB_P_MIX_X) | P(OB_P_MIX_Y),
    [OB_TL_PHYSICS] = P(OB_P_MIX) | P(OB_P_INERTIA) | P(OB_P_STRENGTH) | P(OB_P_DAMPING) | P(OB_P_MASS) |
                      P(OB_P_GRAVITY) | P(OB_P_WIND),
    [OB_TL_SEQUENCE] = P(OB_P_FRAME),
    [OB_TL_PARTICLES] = P(OB_P_EMITTING) | P(OB_P_RATE),
    [OB_TL_DEFORM] = P(OB_P_OFFSETS) | P(OB_P_INFLUENCE_OFFSETS), /* an extension (conformance/NOTES.md) */
    [OB_TL_DRAW_ORDER] = P(OB_P_ORDER),
};

static ob_tl_target parse_target(const char *s)
{
    for (int i = 0; i < OB_TL_UNKNOWN; i++)
        if (strcmp(s, target_names[i]) == 0) return (ob_tl_target)i;
    return OB_TL_UNKNOWN;
}

/* A constraint of one kind by id.  doc->constraints holds all ik, then
** transform, path, physics (§3.2 default list); the lookup stays inside the
** kind's range, first wins (a hashed index per kind: the struct does not
** start with its id). */
static int32_t find_constraint(ob_loader *L, ob_constraint_kind kind, const char *id)
{
    const ob_document *doc = L->doc;
    int32_t start = 0, count = 0;
    switch (kind) {
    case OB_CON_IK: start = 0; count = doc->ik_count; break;
    case OB_CON_TRANSFORM: start = doc->ik_count; count = doc->transform_count; break;
    case OB_CON_PATH: start = doc->ik_count + doc->transform_count; count = doc->path_count; break;
    case OB_CON_PHYSICS:
        start = doc->ik_count + doc->transform_count + doc->path_count;
        count = doc->physics_count;
        break;
    }
    if (!id || start >= doc->constraint_count) return -1;
    if (count > doc->constraint_count - start) count = doc->constraint_count - start;
    int32_t i = ob_lookup(L, doc->constraints + start, count, sizeof *doc->constraints,
                          offsetof(ob_constraint_data, id), id);
    return i < 0 ? -1 : start + i;
}

/* The bone / slot / constraint a timeline writes; -1 when missing (§5:
** "timelines whose target is missing are skipped"). */
static int32_t resolve_target(ob_loader *L, ob_tl_target t, const char *id)
{
    const ob_document *doc = L->doc;
    switch (t) {
    case OB_TL_BONE: return FIND(doc->bones, doc->bone_count, id);
    case OB_TL_SLOT:
    case OB_TL_SEQUENCE:
    case OB_TL_PARTICLES:
    case OB_TL_DEFORM: return FIND(doc->slots, doc->slot_count, id); /* dropped slots are absent (§2) */
    case OB_TL_IK: return find_constraint(L, OB_CON_IK, id);
    case OB_TL_TRANSFORM: return find_constraint(L, OB_CON_TRANSFORM, id);
    case OB_TL_PATH: return find_constraint(L, OB_CON_PATH, id);
    case OB_TL_PHYSICS: return find_constraint(L, OB_CON_PHYSICS, id);
    case OB_TL_DRAW_ORDER: return 0;  /* the skeleton's draw order (id "skeleton") */
    default: return -1;
    }
}

/* A key's curve: absent or "linear", "stepped", or bezier handles
** [cx1, cy1, cx2, cy2] (format "Each key is {time, value, curve}", §4.3). */
static void parse_curve(ob_loader *L, const cJSON *k, ob_key *key)
{
    static const char *what = "\"linear\", \"stepped\" or [cx1, cy1, cx2, cy2]";
    const cJSON *c = ob_get(k, "curve");
    key->curve = OB_CURVE_LINEAR;
    if (!c) return;
    if (cJSON_IsString(c)) {
        if (strcmp(c->valuestring, "linear") == 0) return;
        if (strcmp(c->valuestring, "stepped") == 0) { key->curve = OB_CURVE_STEPPED; return; }
        ob_fail_type(L, "curve", what, c);
    }
    if (!cJSON_IsArray(c) || ob_json_count(c) != 4) ob_fail_type(L, "curve", what, c);
    int32_t i = 0;
    for (const cJSON *h = c->child; h; h = h->next, i++) {
        if (!cJSON_IsNumber(h)) {
            ob_path_key(L, "curve");
            ob_path_index(L, i);
            ob_fail_type(L, NULL, "a number", h);
        }
        key->c[i] = h->valuedouble;
    }
    /* a document imported from skeleton JSON 4.2 picks how its beziers are eased */
    key->curve = L->doc->curve_mode == OB_CURVE_MODE_SPINE ? OB_CURVE_BEZIER_SPINE
               : L->doc->curve_mode == OB_CURVE_MODE_EXACT ? OB_CURVE_BEZIER_EXACT
               : OB_CURVE_BEZIER;
    if (key->curve == OB_CURVE_BEZIER_SPINE) {  /* sampled once here, as Spine's setBezier does */
        double *samples = ob_alloc(L, OB_SPINE_SAMPLES, sizeof *samples);
        ob_curve_spine_samples(key->c, samples);
        key->spine = samples;
    }
}

/* §5.1 draw-order key: the listed slot ids that exist, in listed order (back
** to front); unknown ids are dropped with a warning.  null / absent lists no
** slot, i.e. the setup order (Spine's reset key). */
static void parse_draw_order(ob_loader *L, const cJSON *k, ob_key *key)
{
    const cJSON *v = ob_get(k, "value");
    key->count = 0;
    if (!v) return;
    if (!cJSON_IsArray(v)) ob_fail_type(L, "value", "a list of slot ids", v);
    int32_t n = (int32_t)ob_json_count(v);
    key->order = ob_alloc(L, (size_t)n, sizeof *key->order);
    size_t m = ob_path_key(L, "value");
    int32_t i = 0;
    for (const cJSON *s = v->child; s; s = s->next, i++) {
        char num[OB_JSNUM_CAP];
        const char *id = elem_ref(L, s, i, num, sizeof num);
        int32_t slot = FIND(L->doc->slots, L->doc->slot_count, id);
        if (slot < 0) {
            size_t mi = ob_path_index(L, i);
            ob_warn(L, NULL, "no slot \"%s\"; left out of the draw order", id);
            ob_path_pop(L, mi);
            continue;
        }
        key->order[key->count++] = slot;
    }
    ob_path_pop(L, m);
}

/* A key's value, by property (§5.1, CLARIFICATIONS "Timelines"). */
static void parse_value(ob_loader *L, const ob_timeline *tl, const cJSON *k, ob_key *key)
{
    const cJSON *v = ob_get(k, "value");
    key->ref = -1;
    if (tl->target == OB_TL_UNKNOWN) return;  /* skipped at run time: nothing to check */
    switch (tl->property) {
    case OB_P_UNKNOWN:
        return;
    case OB_P_INHERIT: {  /* an inherit-mode string, always stepped */
        if (!v || !cJSON_IsString(v)) ob_fail_type(L, "value", "an inherit mode string", v);
        int mode = ob_parse_inherit(v->valuestring);
        if (mode < 0)
            ob_fail(L, "value", "expected \"normal\", \"onlyTranslation\", \"noRotation\" or \"noScale\", got \"%.40s\"",
                    v->valuestring);
        key->ref = mode;
        return;
    }
    case OB_P_COLOR:
    case OB_P_DARK:  /* hex strings (CLARIFICATIONS), §4.5 parseHex */
        if (!v || !cJSON_IsString(v)) ob_fail_type(L, "value", "a hex colour string", v);
        ob_parse_hex(L, "value", v->valuestring, key->v);
        return;
    case OB_P_ATTACHMENT: {  /* a name, or null: hides (§5.1) */
        const char *name = ob_ref(L, k, "value");
        key->ref = name ? ob_intern_name(L, name) : -1;
        return;
    }
    case OB_P_BEND:
    case OB_P_STRETCH:
    case OB_P_COMPRESS:  /* §5.1: Number(sampleStep): true ⇒ 1, false ⇒ 0 */
        if (v && cJSON_IsBool(v)) key->v[0] = cJSON_IsTrue(v) ? 1 : 0;
        else if (v && cJSON_IsNumber(v)) key->v[0] = v->valuedouble;
        else ob_fail_type(L, "value", "a number or true/false", v);
        return;
    case OB_P_EMITTING:  /* boolean keys (format table); numbers by truthiness */
        if (!v) ob_fail_type(L, "value", "true or false", v);
        key->v[0] = ob_bool(L, k, "value", 0);
        return;
    case OB_P_RESET:  /* a time only */
        return;
    case OB_P_OFFSETS:  /* flat offsets (CLARIFICATIONS) */
    case OB_P_INFLUENCE_OFFSETS:  /* the extension: 2 per influence */
        if (!v) ob_fail_type(L, "value", "an array of numbers", v);
        key->offsets = ob_num_list(L, k, "value", &key->count);
        return;
    case OB_P_ORDER:
        parse_draw_order(L, k, key);
        return;
    default:  /* every other property keys a number */
        key->v[0] = ob_num_req(L, k, "value");
        return;
    }
}

/* deform (issue 17): the per-frame records of a deform timeline's keys
** (ob_dkey): span, divisor, offsets, the difference to the next key's offsets
** (b − a per element, the double subtraction §5's lerp does), curve */
static void deform_keys(ob_loader *L, ob_timeline *tl)
{
    int32_t n = tl->key_count;
    if (n == 0) return;
    ob_dkey *dk = ob_alloc(L, (size_t)n, sizeof *dk);
    for (int32_t i = 0; i < n; i++) {
        const ob_key *a = &tl->keys[i], *b = i + 1 < n ? a + 1 : NULL;
        ob_dkey *k = &dk[i];
        k->t0 = tl->times[i];
        k->t1 = b ? tl->times[i + 1] : k->t0;
        double span = k->t1 - k->t0;
        k->den = span != 0 ? span : 1;  /* (b.time − a.time) ‖ 1 */
        k->v0 = a->offsets;
        k->count = a->count;
        k->kind = tl->hot[i].curve;
        k->curve = a->c;
        if (tl->hot[i].spine) {
            k->curve = tl->hot[i].spine;
            if (k->kind != OB_BKEY_SPINE_FAST) k->kind = OB_DKEY_SAMPLED;
        }
        if (b && b->count == a->count && a->count > 0) {
            double *dv = ob_alloc(L, (size_t)a->count, sizeof *dv);
            for (int32_t j = 0; j < a->count; j++) dv[j] = b->offsets[j] - a->offsets[j];
            k->dv = dv;
        }
    }
    tl->dkeys = dk;
}

static void load_timeline(ob_loader *L, const cJSON *o, ob_timeline *tl)
{
    const char *target = ob_str(L, o, "target", NULL);
    const char *property = ob_str(L, o, "property", NULL);
    tl->target_id = ob_ref(L, o, "id");
    tl->target = target ? parse_target(target) : OB_TL_UNKNOWN;
    tl->property = OB_P_UNKNOWN;
    tl->attachment = -1;
    tl->index = -1;

    if (!target) {
        ob_warn(L, "target", "a timeline without a target is skipped");
    } else if (tl->target == OB_TL_UNKNOWN) {
        ob_warn(L, "target", "unknown timeline target \"%s\"; the timeline is skipped", target);
    } else {
        int p = property ? ob_parse_property(property) : -1;
        uint64_t props = target_props[tl->target];
        if (L->doc->pose_model == OB_POSE_MODEL_SPINE) {  /* spine-core 4.2's transform and physics keys */
            if (tl->target == OB_TL_TRANSFORM) props |= P(OB_P_MIX_Y) | P(OB_P_MIX_SCALE_Y);
            if (tl->target == OB_TL_PHYSICS) props |= P(OB_P_RESET);
        }
        if (p >= 0 && (props & P(p))) tl->property = (ob_property)p;
        else
            ob_warn(L, "property", "a %s timeline has no property \"%s\"; the timeline is skipped", target,
                    property ? property : "");
        if (tl->property == OB_P_INFLUENCE_OFFSETS) L->doc->has_influence_offsets = 1;
    }
    if (tl->target == OB_TL_DEFORM || tl->target == OB_TL_SEQUENCE) {
        /* (id: slot, attachment): the attachment name as written, interned */
        tl->attachment_name = ob_ref(L, o, "attachment");
        if (tl->attachment_name) tl->attachment = ob_intern_name(L, tl->attachment_name);
        else ob_warn(L, "attachment", "a %s timeline names no attachment; it matches none", target);
    }
    if (tl->target == OB_TL_PHYSICS && tl->property != OB_P_UNKNOWN && L->doc->pose_model == OB_POSE_MODEL_SPINE &&
        tl->target_id && !tl->target_id[0]) {
        /* spine-core 4.2: a physics timeline named "" keys every physics
        ** constraint (whose *Global flag is set; reset: all of them) */
        tl->global = 1;
        tl->index = L->doc->physics_count > 0 ? L->doc->constraint_count - L->doc->physics_count : -1;
    } else if (tl->target != OB_TL_UNKNOWN && tl->property != OB_P_UNKNOWN) {
        tl->index = resolve_target(L, tl->target, tl->target_id);
        if (tl->index < 0)
            ob_warn(L, "id", "no %s \"%s\"; the timeline is skipped", target, tl->target_id ? tl->target_id : "");
    }
    /* §5.1a: timelines match by (target, id, property, attachment) */
    tl->channel = ob_intern_channel(L, tl->target, tl->property, tl->target_id, tl->attachment_name);

    int32_t n;
    const cJSON *it = list(L, o, "keys", &n);
    tl->keys = ob_alloc(L, (size_t)n, sizeof *tl->keys);
    tl->times = ob_alloc(L, (size_t)n, sizeof *tl->times);
    tl->key_count = n;
    tl->serial = L->doc->timeline_total++;
    size_t m0 = ob_path_key(L, "keys");
    int sorted = 1;
    for (int32_t i = 0; it; it = it->next, i++) {
        size_t m = ob_path_index(L, i);
        ob_expect_object(L, it);
        ob_key *key = &tl->keys[i];
        key->time = ob_num_req(L, it, "time");
        tl->times[i] = key->time;
        parse_curve(L, it, key);
        parse_value(L, tl, it, key);
        if (i > 0 && key->time < tl->keys[i - 1].time) sorted = 0;
        ob_path_pop(L, m);
    }
    ob_path_pop(L, m0);
    tl->hot = ob_alloc(L, (size_t)n, sizeof *tl->hot);  /* issue 17: the search's and sample's reads */
    for (int32_t i = 0; i < n; i++) {
        tl->hot[i] = (ob_key_hot){tl->keys[i].v[0], tl->keys[i].spine, (int32_t)tl->keys[i].curve};
        if (tl->keys[i].spine) {  /* keys (issue 17): the per-frame form when the samples ascend */
            double *fast = ob_alloc(L, OB_SPINE_FAST, sizeof *fast);
            if (ob_curve_spine_fast(tl->keys[i].spine, fast)) {
                tl->hot[i].spine = fast;
                tl->hot[i].curve = OB_BKEY_SPINE_FAST;
            }
        }
    }
    /* §5 locate binary-searches: keys are kept in file order, as the reference does */
    if (!sorted) ob_warn(L, "keys", "key times are not in ascending order");
    tl->sorted = sorted;
    if (tl->target == OB_TL_DEFORM && (tl->property == OB_P_OFFSETS || tl->property == OB_P_INFLUENCE_OFFSETS))
        deform_keys(L, tl);
}

/* ---- Event and audio keys (§5.2, §10) ---------------------------------- */

static void load_event_key(ob_loader *L, const cJSON *o, ob_event_key *k)
{
    k->time = ob_num_req(L, o, "time");
    const char *id = ob_ref(L, o, "event");
    k->event = FIND(L->doc->events, L->doc->event_count, id);
    if (k->event < 0)  /* §5.2: only keys "whose event exists" fire */
        ob_warn(L, "event", "no event \"%s\"; the key never fires", id ? id : "");
    k->has_int = ob_has(o, "int");
    k->int_value = ob_num(L, o, "int", 0);
    k->has_float = ob_has(o, "float");
    k->float_value = ob_num(L, o, "float", 0);
    k->has_string = ob_has(o, "string");
    k->string_value = ob_str(L, o, "string", NULL);
}

static void load_audio_key(ob_loader *L, const cJSON *o, ob_audio_key *k)
{
    k->time = ob_num_req(L, o, "time");
    k->sound = ob_ref(L, o, "sound");  /* resolved by the audio director (§10 resolveSound) */
    k->has_volume = ob_has(o, "volume");
    k->volume = ob_num(L, o, "volume", 1);
    k->has_rate = ob_has(o, "rate");
    k->rate = ob_num(L, o, "rate", 1);
    k->has_loop = ob_has(o, "loop");
    k->loop = ob_bool(L, o, "loop", 0);
}

/* ---- Animations -------------------------------------------------------- */

/* keys (issue 17): a timeline of one of the seven bone pose values, resolved and keyed */
static int bone_value_timeline(const ob_timeline *tl)
{
    return tl->target == OB_TL_BONE && tl->property >= OB_P_ROTATION && tl->property <= OB_P_SHEAR_Y &&
           tl->index >= 0 && tl->key_count > 0;
}

static int pose_field(ob_property p)
{
    switch (p) {
    case OB_P_X: return (int)(offsetof(ob_pose, x) / sizeof(double));
    case OB_P_Y: return (int)(offsetof(ob_pose, y) / sizeof(double));
    case OB_P_ROTATION: return (int)(offsetof(ob_pose, rotation) / sizeof(double));
    case OB_P_SCALE_X: return (int)(offsetof(ob_pose, scale_x) / sizeof(double));
    case OB_P_SCALE_Y: return (int)(offsetof(ob_pose, scale_y) / sizeof(double));
    case OB_P_SHEAR_X: return (int)(offsetof(ob_pose, shear_x) / sizeof(double));
    default: return (int)(offsetof(ob_pose, shear_y) / sizeof(double));
    }
}

static int same_times(const ob_timeline *a, const ob_timeline *b)
{
    return a->key_count == b->key_count && a->sorted == b->sorted &&
           memcmp(a->times, b->times, (size_t)a->key_count * sizeof *a->times) == 0;
}

static uint64_t times_hash(const ob_timeline *tl)
{
    uint64_t h = 1469598103934665603u ^ (uint64_t)tl->key_count;  /* FNV-1a over the bytes */
    const unsigned char *p = (const unsigned char *)tl->times;
    for (size_t i = 0; i < (size_t)tl->key_count * sizeof *tl->times; i++) h = (h ^ p[i]) * 1099511628211u;
    return h;
}

/* One member of a group as ob_bline pieces; 0 (nothing usable) when a key is
** not linear, stepped or a Spine fast form, or a number is not finite.
** Piece bounds are half-open in time, [lo, hi); a piece is its value at lo
** (a) and slope in time (b); the §5 rules they encode: time ≤ t_first ⇒
** key 0's value (the piece from −DBL_MAX to the next double above t_first,
** b = −0: a + (−0)·(positive) = a, −0 included); time ≥ t_last ⇒ the last
** key's value (b = −0); a span [t_k, t_k+1) of length 0 is never located; a
** linear key: a = v0 + dv·((lo − t_k)·inv), b = dv·inv; a stepped one: v0
** (b = −0); a Spine curve segment i from (px, py) with slope s in the span's
** fraction f = (time − t_k)·inv, from t_k + x_{i−1}·span on:
** a = v0 + dv·(py + ((lo − t_k)·inv − px)·s), b = dv·s·inv, the same line as
** the groups' v0 + dv·(py + (f − px)·s) to rounding (the segment whose time
** range holds time, where the fast form compares f with the samples' x:
** they differ only where two segments meet). */
static int build_line(ob_loader *L, const ob_bgroup *G, int32_t mi, ob_bline *out)
{
    int32_t n = G->key_count, m = G->count;
    const double *times = G->times;
    size_t cap = 2;
    if (!G->sorted || !(fabs(G->t_first) <= OB_BLINE_TMAX) || !(fabs(G->t_last) <= OB_BLINE_TMAX)) return 0;
    for (int32_t k = 0; k + 1 < n; k++) {
        const ob_bkey *key = &G->keys[(size_t)k * (size_t)m + (size_t)mi];
        if (key->kind == OB_CURVE_LINEAR || (key->kind == OB_BKEY_SPINE_FAST && key->curve == ob_curve_fast_hold))
            cap += 1;
        else if (key->kind == OB_BKEY_SPINE_FAST) cap += 10;
        else return 0;
    }
    ob_bpiece *pc = ob_alloc(L, cap + 1, sizeof *pc);  /* + one of start +inf: the last piece's end */
    int32_t np = 0;
    double lo = -DBL_MAX;  /* |time| ≤ OB_BLINE_TMAX: time − lo stays finite */
    /* a piece from lo to hi: A (its value at lo, may read lo) + B·(time − lo) */
#define OB_PIECE(hi, A, B)                                     \
    do {                                                       \
        double hi_ = (hi);                                     \
        if (hi_ > lo) {                                        \
            pc[np++] = (ob_bpiece){lo, (A), (B)};              \
            lo = hi_;                                          \
        }                                                      \
    } while (0)
    OB_PIECE(nextafter(G->t_first, INFINITY), G->keys[mi].v0, -0.0);  /* time ≤ t_first */
    for (int32_t k = 0; k + 1 < n; k++) {
        double t0 = times[k], t1 = times[k + 1], span = t1 - t0;
        if (!(span > 0)) continue;  /* never located */
        double inv = 1 / span;      /* as the group's spans */
        const ob_bkey *key = &G->keys[(size_t)k * (size_t)m + (size_t)mi];
        double v0 = key->v0, dv = key->dv;
        if (key->kind == OB_CURVE_LINEAR) {
            OB_PIECE(t1, v0 + dv * ((lo - t0) * inv), dv * inv);
        } else if (key->curve == ob_curve_fast_hold) {
            OB_PIECE(t1, v0, -0.0);
        } else {
            const double *f = key->curve;  /* x1..x8, x0, 0, then (px, py, slope) × 10 */
            for (int i = 0; i < 10; i++) {
                const double *seg = f + 10 + 3 * i;
                double hi = i == 0 ? t0 + f[8] * span : i < 9 ? t0 + f[i - 1] * span : t1;
                if (hi > t1) hi = t1;
                OB_PIECE(hi, v0 + dv * (seg[1] + ((lo - t0) * inv - seg[0]) * seg[2]), dv * seg[2] * inv);
            }
        }
    }
    OB_PIECE(INFINITY, G->keys[(size_t)(n - 1) * (size_t)m + (size_t)mi].v0, -0.0);  /* time ≥ t_last */
#undef OB_PIECE
    pc[np].start = INFINITY;
    for (int32_t p = 0; p < np; p++)
        if (!(pc[p].a - pc[p].a == 0 && pc[p].b - pc[p].b == 0)) return 0;
    out->pieces = pc;
    out->np = np;
    return 1;
}

/* keys (issue 17): key k of a number timeline as a group key {v0, v1 − v0,
** its curve}: stepped keys hold (v0 + (−0)·(+0) = v0, exactly), a Spine
** curve takes its fast form, built once by load_timeline (the same function
** of the same samples), else the scan of its samples */
static void bkey_of(const ob_timeline *tl, int32_t k, ob_bkey *b)
{
    const ob_key *key = &tl->keys[k];
    b->v0 = key->v[0];
    b->dv = k + 1 < tl->key_count ? tl->keys[k + 1].v[0] - key->v[0] : 0;  /* lerp's (b − a) */
    b->kind = (int32_t)key->curve;
    b->curve = key->curve == OB_CURVE_BEZIER_SPINE ? key->spine : key->c;
    if (key->curve == OB_CURVE_STEPPED) {
        b->kind = OB_BKEY_SPINE_FAST;
        b->curve = ob_curve_fast_hold;
        b->dv = -0.0;
    } else if (tl->hot[k].curve == OB_BKEY_SPINE_FAST) {
        b->kind = OB_BKEY_SPINE_FAST;
        b->curve = tl->hot[k].spine;
    }
}

/* keys (issue 17, session 4): a timeline other than the bone values whose
** every sample is §5 sampleNumber (locate + lerp: the bone values' rules)
** as a line of its own; stepped keys hold, linear and Spine fast keys as the
** groups' (the fraction by the span's reciprocal, as theirs) */
static void plan_number_line(ob_loader *L, ob_timeline *tl)
{
    int number;
    switch (tl->target) {
    case OB_TL_IK: case OB_TL_TRANSFORM: case OB_TL_PATH: case OB_TL_PHYSICS:
        number = tl->property != OB_P_BEND && tl->property != OB_P_STRETCH && tl->property != OB_P_COMPRESS &&
                 tl->property != OB_P_RESET;
        break;
    case OB_TL_PARTICLES: number = tl->property == OB_P_RATE; break;
    case OB_TL_SEQUENCE: number = tl->property == OB_P_FRAME; break;
    default: number = 0;
    }
    int32_t n = tl->key_count;
    if (!number || n < 1 || !tl->sorted) return;
    ob_bkey *keys = ob_alloc(L, (size_t)n, sizeof *keys);
    for (int32_t k = 0; k < n; k++) bkey_of(tl, k, &keys[k]);
    ob_bgroup G = {tl->times[0], tl->times[n - 1], tl->times, NULL, keys, n, tl->serial, 0, 1, tl->sorted};
    ob_bline *l = ob_alloc(L, 1, sizeof *l);
    if (!build_line(L, &G, 0, l)) return;
    l->hint = tl->serial;
    l->dst = -1;
    l->timeline = -1;
    tl->line = l;
}

static int cmp_i32(const void *a, const void *b);

/* keys (issue 17, session 4): every group member as a line, in bchans' order */
static void plan_lines(ob_loader *L, ob_animation_data *a, int shared)
{
    ob_bline *lines = ob_alloc(L, (size_t)a->bchan_count, sizeof *lines);
    for (int32_t g = 0; g < a->bgroup_count; g++) {
        const ob_bgroup *G = &a->bgroups[g];
        for (int32_t mi = 0; mi < G->count; mi++) {
            const ob_bchan *c = &a->bchans[G->first + mi];
            ob_bline *l = &lines[G->first + mi];
            if (!build_line(L, G, mi, l)) return;  /* the groups */
            l->hint = a->timelines[c->timeline].serial;
            l->dst = 7 * c->bone + c->field;
            l->timeline = c->timeline;
            l->rotation = c->rotation;
        }
    }
    a->blines = lines;
    a->bvar = lines;
    a->bvar_count = a->bchan_count;
    a->bvar_hint0 = -1;
    a->bconst_count = 0;
    if (!shared) return;  /* a bone value written twice: the lines in order */
    /* issue 17 (keys): every bone value is written once, so the lines may run
    ** in any order: those whose every piece gives one value v (a + b·x with
    ** b = ±0 and x = time − start ≥ 0 is a + b, the same for every x) store v */
    int32_t nc = 0;
    uint8_t *is_const = ob_alloc(L, (size_t)a->bchan_count, 1);
    for (int32_t j = 0; j < a->bchan_count; j++) {
        const ob_bline *l = &lines[j];
        double v = l->pieces[0].a + l->pieces[0].b;
        int c = 1;
        for (int32_t p = 0; p < l->np && c; p++) {
            double w = l->pieces[p].a + l->pieces[p].b;
            c = l->pieces[p].b == 0 && memcmp(&w, &v, sizeof v) == 0;
        }
        is_const[j] = (uint8_t)c;
        nc += c;
    }
    ob_bline *var = ob_alloc(L, (size_t)(a->bchan_count - nc), sizeof *var);
    ob_bconst *con = ob_alloc(L, (size_t)(nc > 0 ? nc : 1), sizeof *con);
    int32_t nv = 0;
    nc = 0;
    for (int32_t j = 0; j < a->bchan_count; j++) {
        if (!is_const[j]) { var[nv++] = lines[j]; continue; }
        con[nc].v = lines[j].pieces[0].a + lines[j].pieces[0].b;
        con[nc++].dst = lines[j].dst;
    }
    /* the varying lines take the lines' hint slots in ascending order (the
    ** slots are caches, checked on use: one shared with another line in the
    ** other paths costs a search when they alternate); consecutive slots are
    ** read without the line's index */
    int32_t *slots = ob_alloc(L, (size_t)a->bchan_count, sizeof *slots);
    for (int32_t j = 0; j < a->bchan_count; j++) slots[j] = lines[j].hint;
    qsort(slots, (size_t)a->bchan_count, sizeof *slots, cmp_i32);
    for (int32_t j = 0; j < nv; j++) var[j].hint = slots[j];
    if (nv > 0 && slots[nv - 1] - slots[0] == nv - 1) a->bvar_hint0 = slots[0];
    a->bvar = var;
    a->bvar_count = nv;
    a->bconst = con;
    a->bconst_count = nc;
}

/* keys (issue 17): the per-frame plan of an animation, built once here (the
** binary .obonb loader decodes into the same JSON tree, so both reach this).
** Bone value timelines with identical key times share an ob_bgroup: one span
** search and one fraction per group per frame.  Members of a group are applied
** together, so the bone values land in another order than the timelines'; that
** is the same pose unless two timelines write the same bone value, and then
** every timeline keeps a group of its own, in timeline order. */
static void plan_animation(ob_loader *L, ob_animation_data *a)
{
    int32_t n = a->timeline_count, nb = 0, no = 0;
    for (int32_t i = 0; i < n; i++) {
        const ob_timeline *tl = &a->timelines[i];
        if (bone_value_timeline(tl)) nb++;
        else if (tl->key_count > 0 && tl->index >= 0 && tl->property != OB_P_UNKNOWN) no++;
    }
    a->others = ob_alloc(L, (size_t)no, sizeof *a->others);
    for (int32_t i = 0; i < n; i++) {
        ob_timeline *tl = &a->timelines[i];
        if (!bone_value_timeline(tl) && tl->key_count > 0 && tl->index >= 0 && tl->property != OB_P_UNKNOWN) {
            a->others[a->other_count++] = i;
            plan_number_line(L, tl);
        }
    }
    if (nb == 0) return;

    /* a bone value written twice (two timelines, one bone, one property)? */
    int32_t *tl_of = ob_alloc(L, (size_t)nb, sizeof *tl_of), *group_of = ob_alloc(L, (size_t)nb, sizeof *group_of);
    int32_t m = 0;
    for (int32_t i = 0; i < n; i++)
        if (bone_value_timeline(&a->timelines[i])) tl_of[m++] = i;
    size_t cap = 16;
    while (cap < 2 * (size_t)nb) cap *= 2;
    int32_t *table = ob_alloc(L, cap, sizeof *table);  /* open addressing: 1 + slot, 0 empty */
    int shared = 1;
    for (int32_t j = 0; j < nb && shared; j++) {
        const ob_timeline *tl = &a->timelines[tl_of[j]];
        uint64_t key = (uint64_t)tl->index * 8 + (uint64_t)tl->property;
        for (size_t h = (size_t)(key * 0x9E3779B97F4A7C15u >> 32) & (cap - 1);; h = (h + 1) & (cap - 1)) {
            if (!table[h]) { table[h] = j + 1; break; }
            const ob_timeline *o = &a->timelines[tl_of[table[h] - 1]];
            if (o->index == tl->index && o->property == tl->property) { shared = 0; break; }
        }
    }

    /* groups: by identical times (hashed), else one per timeline */
    memset(table, 0, cap * sizeof *table);
    int32_t *first_of = ob_alloc(L, (size_t)nb, sizeof *first_of), *count_of = ob_alloc(L, (size_t)nb, sizeof *count_of);
    int32_t ng = 0;
    for (int32_t j = 0; j < nb; j++) {
        const ob_timeline *tl = &a->timelines[tl_of[j]];
        int32_t g = -1;
        if (shared)
            for (size_t h = (size_t)(times_hash(tl) >> 7) & (cap - 1);; h = (h + 1) & (cap - 1)) {
                if (!table[h]) { table[h] = ng + 1; break; }
                if (same_times(&a->timelines[tl_of[first_of[table[h] - 1]]], tl)) { g = table[h] - 1; break; }
            }
        if (g < 0) {
            g = ng++;
            first_of[g] = j;
            count_of[g] = 0;
        }
        group_of[j] = g;
        count_of[g]++;
    }

    a->bgroups = ob_alloc(L, (size_t)ng, sizeof *a->bgroups);
    a->bgroup_count = ng;
    a->bchans = ob_alloc(L, (size_t)nb, sizeof *a->bchans);
    a->bchan_count = nb;
    size_t total = 0;
    for (int32_t g = 0; g < ng; g++) {
        const ob_timeline *tl = &a->timelines[tl_of[first_of[g]]];
        ob_bgroup *G = &a->bgroups[g];
        G->times = tl->times;
        G->t_first = tl->times[0];
        G->t_last = tl->times[tl->key_count - 1];
        ob_bspan *spans = ob_alloc(L, (size_t)tl->key_count, sizeof *spans);
        for (int32_t k = 0; k + 1 < tl->key_count; k++) {
            double span = tl->times[k + 1] - tl->times[k];
            /* §5 locate's (b.time − a.time) ‖ 1, inverted once */
            spans[k] = (ob_bspan){tl->times[k], tl->times[k + 1], 1 / (span != 0 ? span : 1)};
        }
        G->spans = spans;
        G->key_count = tl->key_count;
        G->hint = tl->serial;
        G->sorted = tl->sorted;
        G->first = g > 0 ? a->bgroups[g - 1].first + count_of[g - 1] : 0;
        G->count = 0;
        total += (size_t)tl->key_count * (size_t)count_of[g];
    }
    ob_bkey *keys = ob_alloc(L, total, sizeof *keys);
    for (int32_t g = 0; g < ng; g++) {
        a->bgroups[g].keys = keys;
        keys += (size_t)a->bgroups[g].key_count * (size_t)count_of[g];
    }
    for (int32_t j = 0; j < nb; j++) {  /* members in timeline order within a group */
        ob_bgroup *G = &a->bgroups[group_of[j]];
        const ob_timeline *tl = &a->timelines[tl_of[j]];
        int32_t mi = G->count++;
        a->bchans[G->first + mi] = (ob_bchan){pose_field(tl->property), tl->index, tl_of[j],
                                              tl->property == OB_P_ROTATION};
        ob_bkey *out = (ob_bkey *)G->keys;
        for (int32_t k = 0; k < tl->key_count; k++) {
            bkey_of(tl, k, &out[(size_t)k * (size_t)count_of[group_of[j]] + (size_t)mi]);
        }
    }
    plan_lines(L, a, shared);
}

static int cmp_i32(const void *a, const void *b)
{
    int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
    return (x > y) - (x < y);
}

static void load_animation(ob_loader *L, const cJSON *o, ob_animation_data *a)
{
    a->id = ob_ref(L, o, "id");
    a->name = name_of(L, o, a->id);
    a->duration = ob_num(L, o, "duration", 0);
    double max_time = 0;  /* §5.1 animationDuration: max time of every key */

    int32_t n;
    const cJSON *it = list(L, o, "timelines", &n);
    a->timelines = ob_alloc(L, (size_t)n, sizeof *a->timelines);
    a->timeline_count = n;
    size_t m0 = ob_path_key(L, "timelines");
    int32_t keyed = 0;
    for (int32_t i = 0; it; it = it->next, i++) {
        size_t m = ob_path_index(L, i);
        ob_expect_object(L, it);
        ob_timeline *tl = &a->timelines[i];
        load_timeline(L, it, tl);
        for (int32_t k = 0; k < tl->key_count; k++)
            if (tl->keys[k].time > max_time) max_time = tl->keys[k].time;
        if (tl->key_count > 0) keyed++;
        ob_path_pop(L, m);
    }
    ob_path_pop(L, m0);

    /* §5.1a: the channels this animation keys (timelines with ≥ 1 key),
    ** sorted and unique, for the mix-out "into keys it" test */
    a->channels = ob_alloc(L, (size_t)keyed, sizeof *a->channels);
    int32_t c = 0;
    for (int32_t i = 0; i < a->timeline_count; i++)
        if (a->timelines[i].key_count > 0) a->channels[c++] = a->timelines[i].channel;
    qsort(a->channels, (size_t)c, sizeof *a->channels, cmp_i32);
    a->channel_count = 0;
    for (int32_t i = 0; i < c; i++)
        if (i == 0 || a->channels[i] != a->channels[i - 1]) a->channels[a->channel_count++] = a->channels[i];

    it = list(L, o, "events", &n);
    a->events = ob_alloc(L, (size_t)n, sizeof *a->events);
    a->event_count = n;
    m0 = ob_path_key(L, "events");
    for (int32_t i = 0; it; it = it->next, i++) {
        size_t m = ob_path_index(L, i);
        ob_expect_object(L, it);
        load_event_key(L, it, &a->events[i]);
        if (a->events[i].time > max_time) max_time = a->events[i].time;
        ob_path_pop(L, m);
    }
    ob_path_pop(L, m0);

    it = list(L, o, "audio", &n);  /* optional (§2: treated as absent/empty) */
    a->audio = ob_alloc(L, (size_t)n, sizeof *a->audio);
    a->audio_count = n;
    m0 = ob_path_key(L, "audio");
    for (int32_t i = 0; it; it = it->next, i++) {
        size_t m = ob_path_index(L, i);
        ob_expect_object(L, it);
        load_audio_key(L, it, &a->audio[i]);
        if (a->audio[i].time > max_time) max_time = a->audio[i].time;
        ob_path_pop(L, m);
    }
    ob_path_pop(L, m0);

    /* §5.1 localTime: explicit duration if > 0, else the max key time */
    a->length = a->duration > 0 ? a->duration : max_time;
    for (int32_t i = 0; i < a->timeline_count; i++)
        a->has_resets |= a->timelines[i].property == OB_P_RESET && a->timelines[i].index >= 0;
    plan_animation(L, a);  /* keys (issue 17) */
}

/* deform (issue 17): each deform timeline's entry in ob_instance.deforms,
** which holds one entry per (slot, attachment name) keyed by a deform
** timeline of any animation, sorted by slot then name (skeleton.c); apply
** checks the entry's pair before using it */
static int cmp_pair_i32(const void *a, const void *b)
{
    const int32_t *x = a, *y = b;
    return x[0] != y[0] ? (x[0] > y[0]) - (x[0] < y[0]) : (x[1] > y[1]) - (x[1] < y[1]);
}

static void deform_entries(ob_loader *L, ob_document *doc)
{
    int32_t n = 0, u = 0;
    for (int32_t a = 0; a < doc->animation_count; a++)
        for (int32_t t = 0; t < doc->animations[a].timeline_count; t++) {
            ob_timeline *tl = &doc->animations[a].timelines[t];
            tl->deform_entry = -1;
            n += tl->target == OB_TL_DEFORM && tl->index >= 0 && tl->attachment >= 0;
        }
    if (n == 0) return;
    int32_t *pairs = ob_alloc(L, 2 * (size_t)n, sizeof *pairs);
    for (int32_t a = 0; a < doc->animation_count; a++)
        for (int32_t t = 0; t < doc->animations[a].timeline_count; t++) {
            const ob_timeline *tl = &doc->animations[a].timelines[t];
            if (tl->target != OB_TL_DEFORM || tl->index < 0 || tl->attachment < 0) continue;
            pairs[2 * u] = tl->index;
            pairs[2 * u + 1] = tl->attachment;
            u++;
        }
    qsort(pairs, (size_t)n, 2 * sizeof *pairs, cmp_pair_i32);
    u = 0;
    for (int32_t i = 0; i < n; i++)
        if (u == 0 || cmp_pair_i32(&pairs[2 * (u - 1)], &pairs[2 * i]) != 0) {
            pairs[2 * u] = pairs[2 * i];
            pairs[2 * u + 1] = pairs[2 * i + 1];
            u++;
        }
    for (int32_t a = 0; a < doc->animation_count; a++)
        for (int32_t t = 0; t < doc->animations[a].timeline_count; t++) {
            ob_timeline *tl = &doc->animations[a].timelines[t];
            if (tl->target != OB_TL_DEFORM || tl->index < 0 || tl->attachment < 0) continue;
            int32_t lo = 0, hi = u - 1, key[2] = {tl->index, tl->attachment};
            while (lo < hi) {  /* the first pair ≥ key: present, as every pair was listed */
                int32_t mid = (lo + hi) >> 1;
                if (cmp_pair_i32(&pairs[2 * mid], key) < 0) lo = mid + 1;
                else hi = mid;
            }
            tl->deform_entry = lo;
        }
}

/* issue 17 (keys): others[] split for the plain apply into the deform
** timelines (records, in order) and the rest (in order).  Deform timelines
** write their (slot, attachment) entries only, which no other timeline reads
** or writes, so running them after the rest is the same; when one of them
** has no record (keys out of order, no entry), every one stays in the rest */
static void plan_plain_others(ob_loader *L, ob_animation_data *a)
{
    int32_t nd = 0, ok = 1;
    for (int32_t i = 0; i < a->other_count; i++) {
        const ob_timeline *tl = &a->timelines[a->others[i]];
        if (tl->target != OB_TL_DEFORM) continue;
        nd++;
        ok &= (tl->property == OB_P_OFFSETS || tl->property == OB_P_INFLUENCE_OFFSETS) && tl->dkeys &&
              tl->sorted && tl->deform_entry >= 0 && tl->key_count > 0;
    }
    if (!ok) nd = 0;
    ob_dline *dl = ob_alloc(L, (size_t)nd, sizeof *dl);
    a->rest = ob_alloc(L, (size_t)(a->other_count - nd), sizeof *a->rest);
    a->dlines = dl;
    a->dline_count = nd;
    a->rest_count = 0;
    for (int32_t i = 0, j = 0; i < a->other_count; i++) {
        const ob_timeline *tl = &a->timelines[a->others[i]];
        if (nd > 0 && tl->target == OB_TL_DEFORM)
            dl[j++] = (ob_dline){tl->dkeys, tl->key_count - 1, tl->serial, tl->index, tl->attachment, tl->deform_entry,
                                 tl->property == OB_P_INFLUENCE_OFFSETS, a->others[i], 0};
        else
            a->rest[a->rest_count++] = a->others[i];
    }
}

void ob_load_animations(ob_loader *L, const cJSON *root)
{
    ob_document *doc = L->doc;
    int32_t n;
    const cJSON *it = list(L, root, "animations", &n);
    doc->animations = ob_alloc(L, (size_t)n, sizeof *doc->animations);
    doc->animation_count = n;
    size_t m0 = ob_path_key(L, "animations");
    for (int32_t i = 0; it; it = it->next, i++) {
        size_t m = ob_path_index(L, i);
        ob_expect_object(L, it);
        load_animation(L, it, &doc->animations[i]);
        ob_path_pop(L, m);
    }
    ob_path_pop(L, m0);
    deform_entries(L, doc);  /* deform (issue 17) */
    for (int32_t i = 0; i < n; i++) plan_plain_others(L, &doc->animations[i]);  /* issue 17 (keys) */
}

/* ---- Sliders (§7.5, format "Sliders") ---------------------------------- */

static void load_slider(ob_loader *L, const cJSON *o, ob_slider_data *s)
{
    ob_document *doc = L->doc;
    s->id = ob_ref(L, o, "id");
    s->name = name_of(L, o, s->id);

    const char *anim = ob_ref(L, o, "animation");
    s->animation = FIND(doc->animations, doc->animation_count, anim);
    if (s->animation < 0)  /* §7.5: skipped when the animation is missing */
        ob_warn(L, "animation", "no animation \"%s\"; the slider is skipped", anim ? anim : "");

    const char *bone = ob_ref(L, o, "bone");
    s->has_bone = bone != NULL;
    s->bone = FIND(doc->bones, doc->bone_count, bone);
    if (bone && s->bone < 0)
        ob_warn(L, "bone", "no bone \"%s\"; the slider is skipped", bone);

    /* §7.5: bone[property ‖ "rotation"], a bone's local property */
    const char *prop = ob_str(L, o, "property", NULL);
    s->property = OB_P_ROTATION;
    if (prop && prop[0]) {
        int p = ob_parse_property(prop);
        if (p < 0 || !(BONE_LOCAL & P(p)))
            ob_fail(L, "property", "expected a bone property (rotation, x, y, scaleX, scaleY, shearX, shearY), got \"%.40s\"",
                    prop);
        s->property = p;
    }
    s->input = ob_ref(L, o, "input");  /* a number input id, read at run time */
    s->from = ob_num(L, o, "from", 0);
    s->to = ob_num(L, o, "to", 0);
    s->has_time_from = ob_has(o, "timeFrom");
    s->time_from = ob_num(L, o, "timeFrom", 0);
    s->has_time_to = ob_has(o, "timeTo");
    s->time_to = ob_num(L, o, "timeTo", 0);
    s->mix = ob_num(L, o, "mix", 1);
    s->loop = ob_bool(L, o, "loop", 0);
    s->additive = ob_bool(L, o, "additive", 0);
}

void ob_load_sliders(ob_loader *L, const cJSON *skeleton)
{
    ob_document *doc = L->doc;
    int32_t n;  /* the caller has pushed "skeleton" on the path */
    const cJSON *it = list(L, skeleton, "sliders", &n);  /* optional (§2) */
    doc->sliders = ob_alloc(L, (size_t)n, sizeof *doc->sliders);
    doc->slider_count = n;
    size_t m0 = ob_path_key(L, "sliders");
    for (int32_t i = 0; it; it = it->next, i++) {
        size_t m = ob_path_index(L, i);
        ob_expect_object(L, it);
        load_slider(L, it, &doc->sliders[i]);
        ob_path_pop(L, m);
    }
    ob_path_pop(L, m0);
}
