/* listeners.c: §9.5 pointer events, listeners and their actions: the
** queued pointer events are processed at §9.1 step 3 against last frame's
** world pose; a listener's slot is hit-tested on the polygon §9.5 picks. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "attachment_vertices.h"
#include "drawlist.h"
#include "particles.h"
#include "scripts.h"
#include "state_machine.h"

static const char *const pointer_names[] = {"down", "up", "move"};

void ob_sm_pointer(ob_instance *inst, ob_sm_pointer_type type, double x, double y)
{
    ob_sm_state *sm = inst->sm;
    if (!sm) return;
    if (sm->pointer_count >= OB_SM_MAX_POINTER) {
        sm->pointers_dropped++;
        return;
    }
    sm->pointers[sm->pointer_count++] = (ob_sm_pointer_event){type, x, y};
}

/* core/math.ts pointInPolygon: even-odd rule, edges (v[j] → v[i]), j the previous vertex */
static int point_in_polygon(const float *v, int32_t n, double x, double y)
{
    int inside = 0;
    for (int32_t i = 0, j = n - 1; i < n; j = i++) {
        double xi = v[2 * i], yi = v[2 * i + 1], xj = v[2 * j], yj = v[2 * j + 1];
        if (((yi > y) != (yj > y)) && x < (xj - xi) * (y - yi) / (yj - yi) + xi) inside = !inside;
    }
    return inside;
}

/* JS canonical array index ("0", "12"; not "01", "-1", "1.5") */
static int int_like(const char *s, double *v)
{
    if (!s[0] || (s[0] == '0' && s[1])) return 0;
    double x = 0;
    for (const char *p = s; *p; p++) {
        if (*p < '0' || *p > '9') return 0;
        x = x * 10 + (*p - '0');
    }
    if (x >= 4294967295.0) return 0;
    *v = x;
    return 1;
}

/* §9.5 the first boundingBox among the slot's attachments: the default skin's
** names overlaid by the active skin's, in JS object key order (integer-like
** names ascending, then insertion order); -1 when none. */
static int32_t first_bounding_box(ob_instance *inst, int32_t slot)
{
    const ob_document *doc = inst->doc;
    ob_sm_state *sm = inst->sm;
    int32_t *names = sm->hit_names, n = 0;
    for (int pass = 0; pass < 2; pass++) {
        int32_t s = pass == 0 ? 0 : inst->skin;
        if (s < 0 || s >= doc->skin_count || (pass == 1 && s == 0)) continue;
        const ob_skin_data *skin = &doc->skins[s];
        for (int32_t k = 0; k < skin->entry_count; k++) {
            if (skin->entries[k].slot != slot) continue;
            int32_t id = skin->entries[k].name_id, j = 0;
            while (j < n && names[j] != id) j++;
            if (j == n && n < sm->hit_names_capacity) names[n++] = id;  /* Object.assign: new keys appended */
        }
    }
    /* integer-like keys first, ascending; the others keep insertion order */
    int32_t best = -1;
    double best_v = 0;
    for (int32_t j = 0; j < n; j++) {
        double v;
        int32_t a = ob_skeleton_get_attachment(inst, slot, names[j]);
        if (a < 0 || doc->attachments[a].type != OB_ATT_BOUNDING_BOX) continue;
        if (int_like(doc->att_names[names[j]], &v) && (best < 0 || v < best_v)) {
            best = a;
            best_v = v;
        }
    }
    if (best >= 0) return best;
    for (int32_t j = 0; j < n; j++) {
        double v;
        if (int_like(doc->att_names[names[j]], &v)) continue;
        int32_t a = ob_skeleton_get_attachment(inst, slot, names[j]);
        if (a >= 0 && doc->attachments[a].type == OB_ATT_BOUNDING_BOX) return a;
    }
    return -1;
}

/* World polygon of an attachment for hit testing into sm->hit_vertices;
** returns the point count. */
static int32_t hit_polygon(ob_instance *inst, int32_t slot, const ob_attachment *att)
{
    ob_sm_state *sm = inst->sm;
    float *out = sm->hit_vertices;
    ob_mat m = inst->world[inst->doc->slots[slot].bone];
    switch (att->type) {
    case OB_ATT_BOUNDING_BOX:
    case OB_ATT_CLIPPING:
        if (att->vertex_count > sm->hit_capacity) return 0;
        return ob_attachment_world_vertices(inst, slot, att, out);
    case OB_ATT_MESH: {
        if (att->vertex_count > sm->hit_capacity) return 0;
        int32_t n = ob_attachment_world_vertices(inst, slot, att, out);
        return att->hull < n ? (att->hull > 0 ? att->hull : 0) : n;  /* mesh hull = first hull vertices */
    }
    case OB_ATT_REGION:
    case OB_ATT_SEQUENCE:
    case OB_ATT_TEXT: {
        /* §8.2 quad TL TR BR BL */
        int text = att->type == OB_ATT_TEXT;
        double hw = att->width / 2 * (text ? 1 : att->scale_x), hh = att->height / 2 * (text ? 1 : att->scale_y);
        double kx = text ? 0 : tan(att->skew_x * OB_DEG), ky = text ? 0 : tan(att->skew_y * OB_DEG);
        double c = cos(att->rotation * OB_DEG), s = sin(att->rotation * OB_DEG);
        const double corners[8] = {-hw, hh, hw, hh, hw, -hh, -hw, -hh};
        for (int i = 0; i < 4; i++) {
            double x = corners[2 * i], y = corners[2 * i + 1];
            double sx = x + kx * y, sy = y + ky * x;
            double lx = c * sx - s * sy + att->x, ly = s * sx + c * sy + att->y;
            out[2 * i] = (float)(m.a * lx + m.b * ly + m.x);
            out[2 * i + 1] = (float)(m.c * lx + m.d * ly + m.y);
        }
        return 4;
    }
    case OB_ATT_SHAPE: {
        int32_t n = ob_shape_outline_count(att);
        if (n > sm->hit_capacity) return 0;
        ob_shape_outline(att, sm->hit_scratch);  /* §8.5, slot-bone space */
        for (int32_t i = 0; i < n; i++) {
            double x = sm->hit_scratch[2 * i], y = sm->hit_scratch[2 * i + 1];
            out[2 * i] = (float)(m.a * x + m.b * y + m.x);
            out[2 * i + 1] = (float)(m.c * x + m.d * y + m.y);
        }
        return n;
    }
    default:
        return 0;
    }
}

int ob_sm_hit_test(ob_instance *inst, int32_t slot, double x, double y)
{
    const ob_document *doc = inst->doc;
    if (!inst->sm || slot < 0 || slot >= doc->slot_count) return 0;
    if (!inst->bone_active[doc->slots[slot].bone]) return 0;  /* inactive bone: nothing shown, nothing hit */
    int32_t cur = ob_skeleton_get_attachment(inst, slot, inst->slot_attachment[slot]);
    int32_t a = -1;
    if (cur >= 0 && doc->attachments[cur].type == OB_ATT_BOUNDING_BOX) a = cur;
    if (a < 0) a = first_bounding_box(inst, slot);
    if (a < 0) a = cur;
    if (a < 0) return 0;
    int32_t n = hit_polygon(inst, slot, &doc->attachments[a]);
    return point_in_polygon(inst->sm->hit_vertices, n, x, y);
}

/* ---- actions --------------------------------------------------------- */

static void run_actions(ob_instance *inst, const ob_listener_data *l)
{
    ob_sm_state *sm = inst->sm;
    const ob_document *doc = inst->doc;
    for (int32_t i = 0; i < l->action_count; i++) {
        const ob_action_data *a = &l->actions[i];
        switch (a->type) {
        case OB_ACT_SET_INPUT:
            ob_sm_set_input(inst, ob_sm_find_input(sm, a->input), &a->value);
            break;
        case OB_ACT_TOGGLE_INPUT: {  /* setInput(id, !value) */
            int32_t in = ob_sm_find_input(sm, a->input);
            if (in < 0) break;
            ob_value v = ob_sm_input_value(inst, in);
            ob_value nv = {OB_VAL_BOOL, !ob_js_truthy(&v), NULL};
            ob_sm_set_input(inst, in, &nv);
            break;
        }
        case OB_ACT_FIRE_TRIGGER:
            ob_sm_fire(inst, ob_sm_find_input(sm, a->input));
            break;
        case OB_ACT_REPORT_EVENT: {  /* play its audio, unowned; queue {name, id, time: elapsed, ...} */
            if (a->event < 0) break;
            const ob_event_data *ev = &doc->events[a->event];
            ob_sm_play_event_audio(inst, a->event, 0);
            ob_sm_queue_event(inst, a->event, ev->name, ev->id, ev->int_value, ev->float_value, ev->string_value);
            break;
        }
        case OB_ACT_PLAY_SOUND: {
            if (!a->sound) break;
            ob_audio_play_opts o = {0};
            o.has_volume = a->has_volume;
            o.volume = a->volume;
            o.source = (ob_audio_source){"listener", l->name};
            ob_audio_play(&sm->audio, a->sound, &o);
            break;
        }
        case OB_ACT_STOP_SOUND:
            if (a->sound) ob_audio_stop_sound(&sm->audio, a->sound, a->has_fade, a->fade);
            break;
        case OB_ACT_RUN_SCRIPT:
            if (a->script >= 0) ob_scripts_run(inst, a->script, a->fn ? a->fn : "run");
            break;
        case OB_ACT_SET_EMITTER:
            if (a->slot >= 0) ob_particles_set_emitter(inst, a->slot, a->emitting);
            break;
        case OB_ACT_EMIT_PARTICLES:
            if (a->slot >= 0) ob_particles_emit(inst, a->slot, a->count);
            break;
        case OB_ACT_SET_MUTE: {
            /* the current state starts from the document's muted flags */
            int32_t b = a->bus ? ob_find_id(doc->audio_buses, doc->audio_bus_count, sizeof *doc->audio_buses, a->bus)
                               : -1;
            int cur = a->bus ? (b >= 0 ? sm->bus_muted[b] : 0) : sm->master_muted;
            int muted = a->muted == 2 ? !cur : a->muted;
            if (b >= 0) sm->bus_muted[b] = (uint8_t)muted;
            else if (!a->bus) sm->master_muted = muted;
            ob_audio_mix(&sm->audio, a->bus, muted);
            break;
        }
        default:
            break;
        }
    }
}

void ob_sm_process_pointer(ob_instance *inst)
{
    ob_sm_state *sm = inst->sm;
    const ob_machine_data *mc = sm->machine;
    int32_t count = sm->pointer_count;
    for (int32_t k = 0; k < count && k < OB_SM_MAX_POINTER; k++) {
        ob_sm_pointer_event p = sm->pointers[k];
        sm->pointer_x = p.x;
        sm->pointer_y = p.y;
        if (p.type == OB_PTR_DOWN) sm->pointer_down = 1;
        else if (p.type == OB_PTR_UP) sm->pointer_down = 0;
        ob_scripts_pointer(inst, pointer_names[p.type], p.x, p.y);
        for (int32_t i = 0; i < mc->listener_count; i++) {
            const ob_listener_data *l = &mc->listeners[i];
            int hit = l->slot < 0 ? !l->has_slot : ob_sm_hit_test(inst, l->slot, p.x, p.y);
            int fire = 0;
            switch (l->event) {
            case OB_LE_DOWN: fire = p.type == OB_PTR_DOWN && hit; break;
            case OB_LE_UP: fire = p.type == OB_PTR_UP && hit; break;
            case OB_LE_MOVE: fire = p.type == OB_PTR_MOVE && hit; break;
            case OB_LE_CLICK:
                if (p.type == OB_PTR_DOWN && hit) sm->pressed[i] = 1;
                else if (p.type == OB_PTR_UP) {
                    fire = hit && sm->pressed[i];
                    sm->pressed[i] = 0;
                }
                break;
            case OB_LE_ENTER:
            case OB_LE_EXIT:
                if (hit && !sm->hovered[i]) {
                    sm->hovered[i] = 1;
                    fire = l->event == OB_LE_ENTER;
                } else if (!hit && sm->hovered[i]) {
                    sm->hovered[i] = 0;
                    fire = l->event == OB_LE_EXIT;
                }
                break;
            default:
                break;
            }
            if (fire) run_actions(inst, l);
        }
    }
    /* events queued while processing (by scripts) wait for the next frame */
    int32_t rest = sm->pointer_count - count;
    if (rest > 0) memmove(sm->pointers, sm->pointers + count, (size_t)rest * sizeof *sm->pointers);
    sm->pointer_count = rest > 0 ? rest : 0;
}
