/* sliders.c: §7.5 applySliders: a bone property or a state-machine input
** scrubs an animation, blended (mix) or added (additive) onto the local pose. */
#include <stdlib.h>
#include <string.h>

#include "constraints.h"
#include "state_machine.h"
#include "timeline.h"

/* §7.5 input ? inputValues[input] ‖ first state-machine default for that
** input id ‖ 0: the running machine's value (state_machine.c), else the
** defaults of the document's machines. */
double ob_slider_input_value(const ob_instance *inst, const char *input_id)
{
    const ob_document *doc = inst->doc;
    if (!input_id) return 0;
    double live;  /* state_machine.c: skeleton.inputValues (§9.1 step 10) ‖ ... */
    if (ob_sm_input_number(inst, input_id, &live) && live != 0 && live == live) return live;
    for (int32_t m = 0; m < doc->machine_count; m++)
        for (int32_t i = 0; i < doc->machines[m].input_count; i++) {
            const ob_input_data *in = &doc->machines[m].inputs[i];
            if (!in->id || strcmp(in->id, input_id) != 0) continue;
            double v = 0;
            switch (in->def.kind) {  /* JS Number(default), then ‖ 0 */
            case OB_VAL_NUMBER: v = in->def.number; break;
            case OB_VAL_BOOL: v = in->def.number != 0; break;
            case OB_VAL_STRING: {
                char *end;
                const char *s = in->def.string ? in->def.string : "";
                v = strtod(s, &end);
                if (*s && *end) v = NAN;
                break;
            }
            default: v = 0; break;
            }
            return v != 0 && !isnan(v) ? v : 0;
        }
    return 0;
}

/* §7.5 additive: the animation's change from the setup pose, times mix, added */
static void apply_additive(ob_instance *inst, const ob_slider_data *sl, double t)
{
    const ob_document *doc = inst->doc;
    ob_constraint_state *st = inst->cons;
    int32_t nb = doc->bone_count;
    memcpy(st->saved_pose, inst->local, (size_t)nb * sizeof *inst->local);
    memcpy(st->saved_inherit, inst->inherit, (size_t)nb);
    memset(st->keyed_inherit, 0, (size_t)nb);
    const ob_animation_data *a = &doc->animations[sl->animation];
    for (int32_t i = 0; i < a->timeline_count; i++) {
        const ob_timeline *tl = &a->timelines[i];
        if (tl->target == OB_TL_BONE && tl->property == OB_P_INHERIT && tl->index >= 0 && tl->key_count > 0)
            st->keyed_inherit[tl->index] = 1;
    }
    for (int32_t i = 0; i < nb; i++) {  /* all bones ← setup pose (inherit too) */
        const ob_bone_data *b = &doc->bones[i];
        inst->local[i] = (ob_pose){b->x, b->y, b->rotation, b->scale_x, b->scale_y, b->shear_x, b->shear_y};
        inst->inherit[i] = (uint8_t)b->inherit;
    }
    ob_animation_apply_filtered(inst, sl->animation, t, 1, NULL, OB_APPLY_BONES);
    for (int32_t i = 0; i < nb; i++) {
        const ob_bone_data *b = &doc->bones[i];
        const ob_pose *cur = &inst->local[i], *sv = &st->saved_pose[i];
        /* §7.5 value = saved + delta·mix, delta = cur − setup (rotation wrapped) */
        ob_pose r;
        r.rotation = sv->rotation + ob_wrap_deg(cur->rotation - b->rotation) * sl->mix;
        r.x = sv->x + (cur->x - b->x) * sl->mix;
        r.y = sv->y + (cur->y - b->y) * sl->mix;
        r.scale_x = sv->scale_x + (cur->scale_x - b->scale_x) * sl->mix;
        r.scale_y = sv->scale_y + (cur->scale_y - b->scale_y) * sl->mix;
        r.shear_x = sv->shear_x + (cur->shear_x - b->shear_x) * sl->mix;
        r.shear_y = sv->shear_y + (cur->shear_y - b->shear_y) * sl->mix;
        inst->local[i] = r;
        /* previous inherit back, except a keyed one when mix ≥ 0.5 */
        if (!(st->keyed_inherit[i] && sl->mix >= 0.5)) inst->inherit[i] = st->saved_inherit[i];
    }
    ob_animation_apply_filtered(inst, sl->animation, t, sl->mix, NULL, OB_APPLY_OTHERS);
}

/* issue 17 (draw): the sliders' loop apart from the check every frame makes,
** so a document without sliders does not pay its register saves */
__attribute__((noinline)) static void sliders_apply(ob_instance *inst)
{
    const ob_document *doc = inst->doc;
    int had_time = inst->has_animation_time;
    double saved_time = inst->animation_time;
    for (int32_t k = 0; k < doc->slider_count; k++) {
        const ob_slider_data *sl = &doc->sliders[k];
        if (!(sl->mix > 0) || sl->animation < 0) continue;  /* §7.5 skip */
        double v;
        if (sl->has_bone) {
            if (sl->bone < 0) continue;  /* bone missing ⇒ skip */
            const double *f = ob_pose_field(&inst->local[sl->bone], sl->property);
            v = f ? *f : inst->local[sl->bone].rotation;  /* default property: rotation */
        } else {
            v = ob_slider_input_value(inst, sl->input);
        }
        /* §7.5 f = to == from ? 0 : (v − from)/(to − from); loop ? f − floor(f) : clamp */
        double f = sl->to == sl->from ? 0 : (v - sl->from) / (sl->to - sl->from);
        if (sl->loop) f = f - floor(f);
        else f = f < 0 ? 0 : f > 1 ? 1 : f;
        double tf = sl->time_from != 0 && !isnan(sl->time_from) ? sl->time_from : 0;
        double tt = sl->time_to != 0 && !isnan(sl->time_to) ? sl->time_to : doc->animations[sl->animation].length;
        double t = tf + f * (tt - tf);
        if (!sl->additive) ob_animation_apply(inst, sl->animation, t, sl->mix, NULL);
        else apply_additive(inst, sl, t);
    }
    /* §7.5 animationTime is restored after all sliders */
    inst->has_animation_time = had_time;
    inst->animation_time = saved_time;
}

void ob_sliders_apply(ob_instance *inst)
{
    if (inst->doc->slider_count > 0) sliders_apply(inst);
}
