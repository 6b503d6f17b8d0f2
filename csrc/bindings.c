/* bindings.c: §9.6 applyBindings: each binding maps its input's number value
** linearly from [inMin, inMax] to [outMin, outMax], clamped, onto a bone's
** local property, a slot's alpha or colour, or a constraint's live value. */
#include <math.h>

#include "state_machine.h"

/* §9.6 bindingT = inMax == inMin ? (v ≥ inMax ? 1 : 0) : clamp((v − inMin)/(inMax − inMin), 0, 1) */
double ob_binding_t(double v, double in_min, double in_max)
{
    if (in_max == in_min) return v >= in_max ? 1 : 0;
    double t = (v - in_min) / (in_max - in_min);
    return t < 0 ? 0 : t > 1 ? 1 : t;
}

void ob_sm_apply_bindings(ob_instance *inst)
{
    const ob_sm_state *sm = inst->sm;
    if (!sm) return;
    const ob_machine_data *mc = sm->machine;
    const ob_document *doc = inst->doc;
    for (int32_t i = 0; i < mc->binding_count; i++) {  /* array order: later bindings win */
        const ob_binding_data *b = &mc->bindings[i];
        if (b->input < 0 || b->target < 0 || b->property == OB_P_UNKNOWN) continue;
        const ob_input_data *in = &mc->inputs[b->input];
        if (in->type == OB_INPUT_STRING) continue;  /* a text input is skipped */
        ob_value v = ob_sm_input_value(inst, b->input);
        double x = ob_js_number(&v);  /* Number(value), bool ⇒ 0/1 */
        if (!isfinite(x)) continue;
        double t = ob_binding_t(x, b->in_min, b->in_max);
        double out = b->out_min + (b->out_max - b->out_min) * t;  /* §9.6 lerp */
        switch (b->object) {
        case OB_BIND_BONE: {
            if (b->target >= doc->bone_count) break;
            double *p = ob_pose_field(&inst->local[b->target], b->property);
            if (p) *p = out;
            break;
        }
        case OB_BIND_SLOT: {
            if (b->target >= doc->slot_count) break;
            double *c = &inst->slot_color[(size_t)b->target * 4];
            if (b->property == OB_P_ALPHA) {
                c[3] = out;  /* replace colour alpha */
            } else if (b->property == OB_P_COLOR) {
                for (int k = 0; k < 4; k++)  /* per-channel lerp of parseHex(outMin), parseHex(outMax) */
                    c[k] = b->out_min_color[k] + (b->out_max_color[k] - b->out_min_color[k]) * t;
            }
            break;
        }
        case OB_BIND_CONSTRAINT:
            if (b->target >= doc->constraint_count || b->property < OB_P_MIX || b->property > OB_P_WIND) break;
            inst->con_values[(size_t)b->target * OB_CV_COUNT + OB_CV_MIX + (b->property - OB_P_MIX)] = out;
            break;
        default:
            break;
        }
    }
}
