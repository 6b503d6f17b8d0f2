/* scripts.c: §11 script hooks of the state machine (scripting.ts): machine
** scripts (loaded at start, onStart), state scripts (loaded fresh on enter,
** disposed on exit), onUpdate / onPointer / onEvent, runScript, and the
** persistent overrides of ob.setBone / ob.slot applied at §9.1 step 9.
** The JavaScript engine is the host's (scripts.h). */
#include "scripts.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jsnum.h"
#include "particles.h"
#include "state_machine.h"

void ob_sm_set_script_host(ob_instance *inst, const ob_script_host *host)
{
    ob_sm_state *sm = inst->sm;
    if (!sm) {
        if (host && host->destroy) host->destroy(host->ud);
        return;
    }
    ob_scripts_release(inst);
    if (sm->host) {
        if (sm->host->destroy) sm->host->destroy(sm->host->ud);
        free(sm->host);
        sm->host = NULL;
    }
    if (!host) return;
    sm->host = malloc(sizeof *sm->host);
    if (!sm->host) {
        if (host->destroy) host->destroy(host->ud);
        return;
    }
    *sm->host = *host;
}

static int32_t load(ob_instance *inst, int32_t script)
{
    ob_sm_state *sm = inst->sm;
    const ob_script_data *s = &inst->doc->scripts[script];
    return sm->host->load(sm->host->ud, script, s->name ? s->name : "", s->code ? s->code : "");
}

static void call(ob_instance *inst, int32_t handle, const char *fn, const char *args)
{
    ob_sm_state *sm = inst->sm;
    if (handle >= 0 && sm->host) sm->host->call(sm->host->ud, handle, fn, args);
}

static int any_scripts(const ob_sm_state *sm)
{
    if (sm->machine->script_count) return 1;
    for (int32_t l = 0; l < sm->machine->layer_count; l++)
        for (int32_t s = 0; s < sm->machine->layers[l].state_count; s++)
            if (sm->machine->layers[l].states[s].script_count) return 1;
    return 0;
}

void ob_scripts_start(ob_instance *inst)
{
    ob_sm_state *sm = inst->sm;
    if (!sm->host) {
        if (any_scripts(sm) && !sm->scripts_reported) {
            sm->scripts_reported = 1;
            ob_sm_log_record(inst, "warning", "scripts are disabled (no script host; pip install openbone[scripts])",
                             -1);
        }
        return;
    }
    /* §11 onStart: machine scripts, first advance, before the entry states */
    for (int32_t i = 0; i < sm->machine->script_count; i++) {
        sm->machine_scripts[i] = load(inst, sm->machine->scripts[i]);
        if (!sm->host) return;
        call(inst, sm->machine_scripts[i], "onStart", "[]");
    }
}

void ob_scripts_enter_state(ob_instance *inst, int32_t li)
{
    ob_sm_state *sm = inst->sm;
    ob_sm_layer *l = &sm->layers[li];
    l->script_count = 0;
    if (!sm->host || l->current.state < 0) return;
    const ob_state_data *st = &sm->machine->layers[li].states[l->current.state];
    for (int32_t i = 0; i < st->script_count; i++) l->scripts[l->script_count++] = load(inst, st->scripts[i]);
    for (int32_t i = 0; i < l->script_count; i++) call(inst, l->scripts[i], "onStart", "[]");
}

void ob_scripts_exit_state(ob_instance *inst, int32_t li)
{
    ob_sm_state *sm = inst->sm;
    ob_sm_layer *l = &sm->layers[li];
    for (int32_t i = 0; i < l->script_count; i++)
        if (l->scripts[i] >= 0 && sm->host) sm->host->free(sm->host->ud, l->scripts[i]);
    l->script_count = 0;
}

static void call_all(ob_instance *inst, const char *fn, const char *args, int states)
{
    ob_sm_state *sm = inst->sm;
    if (!sm->host) return;
    for (int32_t i = 0; i < sm->machine->script_count; i++) call(inst, sm->machine_scripts[i], fn, args);
    if (!states) return;
    for (int32_t li = 0; li < sm->machine->layer_count; li++) {
        ob_sm_layer *l = &sm->layers[li];
        for (int32_t i = 0; i < l->script_count; i++) call(inst, l->scripts[i], fn, args);
    }
}

/* Whether any script is loaded (formatting arguments costs more than a frame). */
static int loaded(const ob_sm_state *sm)
{
    if (!sm->host) return 0;
    for (int32_t i = 0; i < sm->machine->script_count; i++)
        if (sm->machine_scripts[i] >= 0) return 1;
    for (int32_t li = 0; li < sm->machine->layer_count; li++)
        if (sm->layers[li].script_count) return 1;
    return 0;
}

int ob_scripts_loaded(const ob_instance *inst) { return inst->sm && loaded(inst->sm); }

void ob_scripts_update(ob_instance *inst, double dt)
{
    if (!loaded(inst->sm)) return;
    char args[OB_JSNUM_CAP + 4];
    char num[OB_JSNUM_CAP];
    ob_js_to_string(dt, num, sizeof num);
    snprintf(args, sizeof args, "[%s]", num);
    call_all(inst, "onUpdate", args, 1);
}

void ob_scripts_pointer(ob_instance *inst, const char *type, double x, double y)
{
    if (!loaded(inst->sm)) return;
    char args[2 * OB_JSNUM_CAP + 64], nx[OB_JSNUM_CAP], ny[OB_JSNUM_CAP];
    ob_js_to_string(x, nx, sizeof nx);
    ob_js_to_string(y, ny, sizeof ny);
    snprintf(args, sizeof args, "[{\"type\":\"%s\",\"x\":%s,\"y\":%s}]", type, nx, ny);
    call_all(inst, "onPointer", args, 0);  /* machine scripts only */
}

void ob_scripts_event(ob_instance *inst, const char *json_event) { call_all(inst, "onEvent", json_event, 1); }

void ob_scripts_run(ob_instance *inst, int32_t script, const char *fn)
{
    ob_sm_state *sm = inst->sm;
    if (!sm->host) return;
    for (int32_t i = 0; i < sm->machine->script_count; i++)
        if (sm->machine->scripts[i] == script) {
            call(inst, sm->machine_scripts[i], fn, "[]");
            return;
        }
}

void ob_scripts_release(ob_instance *inst)
{
    ob_sm_state *sm = inst->sm;
    if (!sm) return;
    for (int32_t li = 0; sm->layers && li < sm->machine->layer_count; li++) ob_scripts_exit_state(inst, li);
    for (int32_t i = 0; sm->machine_scripts && i < sm->machine->script_count; i++) {
        if (sm->machine_scripts[i] >= 0 && sm->host) sm->host->free(sm->host->ud, sm->machine_scripts[i]);
        sm->machine_scripts[i] = -1;
    }
}

/* ---- overrides (§9.1 step 9) ----------------------------------------- */

void ob_script_set_bone(ob_instance *inst, int32_t bone, unsigned mask, const ob_pose *values)
{
    ob_sm_state *sm = inst->sm;
    if (!sm || bone < 0 || bone >= inst->doc->bone_count) return;
    ob_pose *dst = &sm->bone_override_value[bone];
    for (int p = OB_P_ROTATION; p <= OB_P_SHEAR_Y; p++)
        if (mask & (1u << p)) *ob_pose_field(dst, p) = *ob_pose_field((ob_pose *)values, p);
    sm->bone_override[bone] |= (uint8_t)mask;
}

void ob_script_set_slot(ob_instance *inst, int32_t slot, int has_color, const double color[4], int has_attachment,
                        int32_t attachment)
{
    ob_sm_state *sm = inst->sm;
    if (!sm || slot < 0 || slot >= inst->doc->slot_count) return;
    if (has_color) {
        sm->slot_color_override[slot] = 1;
        memcpy(&sm->slot_color_value[(size_t)slot * 4], color, 4 * sizeof(double));
    }
    if (has_attachment) {
        sm->slot_attachment_override[slot] = 1;
        sm->slot_attachment_value[slot] = attachment;
    }
}

void ob_script_clear_overrides(ob_instance *inst)
{
    ob_sm_state *sm = inst->sm;
    if (!sm) return;
    memset(sm->bone_override, 0, (size_t)inst->doc->bone_count);
    memset(sm->slot_color_override, 0, (size_t)inst->doc->slot_count);
    memset(sm->slot_attachment_override, 0, (size_t)inst->doc->slot_count);
    ob_particles_clear_overrides(inst);  /* setEmitter overrides (§9.1 step 10) too */
}

void ob_scripts_apply_overrides(ob_instance *inst)
{
    ob_sm_state *sm = inst->sm;
    const ob_document *doc = inst->doc;
    for (int32_t b = 0; b < doc->bone_count; b++) {  /* Object.assign onto the local pose */
        unsigned m = sm->bone_override[b];
        if (!m) continue;
        for (int p = OB_P_ROTATION; p <= OB_P_SHEAR_Y; p++)
            if (m & (1u << p)) *ob_pose_field(&inst->local[b], p) = *ob_pose_field(&sm->bone_override_value[b], p);
    }
    for (int32_t s = 0; s < doc->slot_count; s++) {
        if (sm->slot_color_override[s])
            memcpy(&inst->slot_color[(size_t)s * 4], &sm->slot_color_value[(size_t)s * 4], 4 * sizeof(double));
        if (sm->slot_attachment_override[s]) inst->slot_attachment[s] = sm->slot_attachment_value[s];
    }
}
