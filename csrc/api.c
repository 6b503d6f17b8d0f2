/* api.c: the public C API of openbone.h over the concerns' internal
** functions (animation §6, state machines §9, the draw list §8.4).  Thin:
** argument checks and conversions only. */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "animation_state.h"
#include "atlas.h"
#include "drawlist.h"
#include "state_machine.h"

static const char *const TYPE_NAMES[] = {"region", "mesh", "shape", "boundingBox", "point", "text",
                                         "sequence", "particles", "clipping", "path", "unknown"};
static const char *const BLEND_NAMES[] = {"normal", "additive", "multiply", "screen"};

/* ---- animation (§6) ---------------------------------------------------- */

ob_status ob_instance_set_animation(ob_instance *inst, int track, int animation, int loop, double mix)
{
    int r = ob_anim_set_animation(inst, track, animation, loop, mix);
    return r == -3 ? OB_ERR_MEMORY : r < 0 ? OB_ERR_ARGUMENT : OB_OK;
}

ob_status ob_instance_add_animation(ob_instance *inst, int track, int animation, int loop, double delay, double mix)
{
    int r = ob_anim_add_animation(inst, track, animation, loop, delay, mix);
    return r == -3 ? OB_ERR_MEMORY : r < 0 ? OB_ERR_ARGUMENT : OB_OK;
}

ob_status ob_instance_clear_track(ob_instance *inst, int track)
{
    return ob_anim_clear_track(inst, track) < 0 ? OB_ERR_ARGUMENT : OB_OK;
}

/* keys (issue 17): a bake larger than this many bytes writes its frames with
** streaming stores (SSE2 movntpd), which do not read the output's lines into
** the cache first: the copy of a long bake otherwise costs as much as a
** fifth of its frames' poses (the world is 6 doubles a bone, so a frame is an
** even count of doubles and stays 16-byte aligned when the output is) */
#define OB_BAKE_STREAM_BYTES ((size_t)1 << 20)

ob_status ob_instance_bake(ob_instance *inst, double dt, int steps, double *out)
{
    if (!(fabs(dt) <= OB_MAX_DT) || steps < 0 || (steps > 0 && !out)) return OB_ERR_ARGUMENT;
    size_t frame = (size_t)inst->doc->bone_count * 6;
#if defined(__SSE2__)
    if ((size_t)steps * frame * sizeof *out >= OB_BAKE_STREAM_BYTES && ((uintptr_t)out & 15) == 0) {
        for (int i = 0; i < steps; i++) {
            ob_instance_advance(inst, dt);  /* §12: the instance sums dt itself */
            const double *w = (const double *)inst->world;
            double *o = out + (size_t)i * frame;
            for (size_t j = 0; j < frame; j += 2) _mm_stream_pd(o + j, _mm_loadu_pd(w + j));
        }
        _mm_sfence();  /* the streamed frames before anything the caller reads or writes */
        return OB_OK;
    }
#endif
    for (int i = 0; i < steps; i++) {
        ob_instance_advance(inst, dt);  /* §12: the instance sums dt itself */
        memcpy(out + (size_t)i * frame, inst->world, frame * sizeof *out);
    }
    return OB_OK;
}

/* ---- state machines (§9) ---------------------------------------------- */

int ob_document_state_machine_count(const ob_document *doc) { return doc->machine_count; }

int ob_document_find_state_machine(const ob_document *doc, const char *ref)
{
    return ob_find_name_or_id(doc->machines, doc->machine_count, sizeof *doc->machines,
                              offsetof(ob_machine_data, name), ref);
}

ob_status ob_instance_start_state_machine(ob_instance *inst, int machine)
{
    return ob_sm_start(inst, machine) < 0 ? OB_ERR_ARGUMENT : OB_OK;
}

int ob_instance_find_input(const ob_instance *inst, const char *ref)
{
    if (!inst->sm || !ref) return -1;
    const ob_machine_data *m = &inst->doc->machines[inst->sm->machine_index];
    for (int32_t i = 0; i < m->input_count; i++)  /* name first, then id (CLARIFICATIONS) */
        if (m->inputs[i].name && strcmp(m->inputs[i].name, ref) == 0) return i;
    for (int32_t i = 0; i < m->input_count; i++)
        if (m->inputs[i].id && strcmp(m->inputs[i].id, ref) == 0) return i;
    return -1;
}

static ob_status set_input(ob_instance *inst, int input, ob_value v)
{
    if (!inst->sm || input < 0 || input >= inst->doc->machines[inst->sm->machine_index].input_count)
        return OB_ERR_ARGUMENT;
    ob_sm_set_input(inst, input, &v);
    return OB_OK;
}

ob_status ob_instance_set_input_number(ob_instance *inst, int input, double value)
{
    return set_input(inst, input, (ob_value){OB_VAL_NUMBER, value, NULL});
}

ob_status ob_instance_set_input_bool(ob_instance *inst, int input, int value)
{
    return set_input(inst, input, (ob_value){OB_VAL_BOOL, value != 0, NULL});
}

ob_status ob_instance_set_input_string(ob_instance *inst, int input, const char *value)
{
    return set_input(inst, input, (ob_value){OB_VAL_STRING, 0, value ? value : ""});
}

ob_status ob_instance_fire(ob_instance *inst, int input)
{
    if (!inst->sm || input < 0 || input >= inst->doc->machines[inst->sm->machine_index].input_count)
        return OB_ERR_ARGUMENT;
    ob_sm_fire(inst, input);
    return OB_OK;
}

ob_status ob_instance_pointer(ob_instance *inst, ob_pointer_type type, double x, double y)
{
    if (!inst->sm || type < OB_POINTER_DOWN || type > OB_POINTER_MOVE) return OB_ERR_ARGUMENT;
    if (!isfinite(x) || !isfinite(y)) return OB_ERR_ARGUMENT;  /* issue 21: a NaN pointer means nothing */
    ob_sm_pointer(inst, (ob_sm_pointer_type)type, x, y);
    return OB_OK;
}

const char *ob_instance_active_state(const ob_instance *inst, int layer)
{
    if (!inst->sm || layer < 0 || layer >= inst->doc->machines[inst->sm->machine_index].layer_count) return NULL;
    return ob_sm_active_state(inst, layer);
}

/* ---- the draw list (§8.4) --------------------------------------------- */

int ob_instance_draw(ob_instance *inst) { return ob_draw_build(inst); }

ob_status ob_instance_draw_item(const ob_instance *inst, int i, ob_draw_item_info *out)
{
    const ob_draw_state *ds = inst->draw;
    if (!ds || i < 0 || i >= ds->item_count) return OB_ERR_ARGUMENT;
    const ob_draw_item *it = &ds->items[i];
    memset(out, 0, sizeof *out);
    out->slot = it->slot;
    out->attachment = it->attachment;
    out->type = TYPE_NAMES[it->type];
    out->blend = BLEND_NAMES[it->blend];
    out->texture = ob_texture_name(inst->doc, it->texture);
    out->vertex_count = it->vertex_count;
    out->vertices = ds->vertices + 2 * (size_t)it->first_vertex;
    out->uvs = ds->uvs + 2 * (size_t)it->first_vertex;
    out->colors = it->first_color >= 0 ? ds->colors + 4 * (size_t)it->first_color : NULL;
    out->index_count = it->index_count;
    out->indices = ds->indices + it->first_index;
    out->first_vertex = it->first_vertex;
    memcpy(out->color, it->color, sizeof out->color);
    out->has_dark = it->has_dark;
    memcpy(out->dark, it->dark, sizeof out->dark);
    out->clip = it->clip;
    out->text = it->text_offset >= 0 ? ds->text + it->text_offset : NULL;
    return OB_OK;
}

int ob_instance_world_vertices(ob_instance *inst) { return ob_world_vertices_build(inst); }

ob_status ob_instance_world_vertices_entry(const ob_instance *inst, int i, int *slot, int *attachment,
                                           int *vertex_count, const float **vertices)
{
    const ob_draw_state *ds = inst->draw;
    if (!ds || i < 0 || i >= ds->wv_count) return OB_ERR_ARGUMENT;
    if (slot) *slot = ds->wv_slot[i];
    if (attachment) *attachment = ds->wv_attachment[i];
    if (vertex_count) *vertex_count = ds->wv_vertices[i];
    if (vertices) *vertices = ds->wv + 2 * (size_t)ds->wv_first[i];
    return OB_OK;
}

/* ---- host edits of the current pose (layer.c's neighbours) ------------- */

ob_status ob_instance_set_slot_attachment(ob_instance *inst, int slot, int attachment_name)
{
    if (slot < 0 || slot >= inst->doc->slot_count || attachment_name < -1 ||
        attachment_name >= inst->doc->att_name_count)
        return OB_ERR_ARGUMENT;
    inst->slot_attachment[slot] = attachment_name;
    return OB_OK;
}

ob_status ob_instance_set_slot_color(ob_instance *inst, int slot, const double rgba[4])
{
    if (slot < 0 || slot >= inst->doc->slot_count || !rgba) return OB_ERR_ARGUMENT;
    memcpy(&inst->slot_color[4 * (size_t)slot], rgba, 4 * sizeof *rgba);
    ob_instance_setup_touched(inst);  /* bones, issue 17: setToSetupPose restores every row */
    return OB_OK;
}
