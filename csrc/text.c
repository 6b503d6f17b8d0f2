/* text.c: §8.9 text records (Skeleton.textContent, core/template.ts). */
#include <string.h>

#include "drawlist.h"
#include "state_machine.h"

static ob_tvalue input_value(const ob_input_data *in)
{
    ob_tvalue v = {OB_TVALUE_MISSING, 0, 0, NULL};
    switch (in->def.kind) {
    case OB_VAL_NUMBER: v.kind = OB_TVALUE_NUMBER; v.number = in->def.number; break;
    case OB_VAL_BOOL: v.kind = OB_TVALUE_BOOL; v.boolean = in->def.number != 0; break;
    case OB_VAL_STRING: v.kind = OB_TVALUE_STRING; v.string = in->def.string ? in->def.string : ""; break;
    case OB_VAL_NULL: break;  /* no default: the {name} stays as written */
    }
    return v;
}

ob_tvalue ob_text_lookup(const ob_instance *inst, const char *name)
{
    const ob_document *doc = inst->doc;
    /* §8.9 with a running state machine: its input by id or name (triggers read false) */
    ob_tvalue v;
    if (ob_sm_text_lookup(inst, name, &v)) return v;

    /* §8.9 without one: the default of the first non-trigger input with that
    ** name across state machines */
    for (int32_t m = 0; m < doc->machine_count; m++) {
        const ob_machine_data *md = &doc->machines[m];
        for (int32_t i = 0; i < md->input_count; i++) {
            const ob_input_data *in = &md->inputs[i];
            if (in->type != OB_INPUT_TRIGGER && in->name && strcmp(in->name, name) == 0) return input_value(in);
        }
    }
    return (ob_tvalue){OB_TVALUE_MISSING, 0, 0, NULL};
}

const char *ob_text_template(const ob_instance *inst, int32_t slot, const ob_attachment *att)
{
    const ob_draw_state *ds = inst->draw;
    if (ds && ds->text_override[slot]) return ds->text_override[slot];  /* override ?? att.text */
    return att->text ? att->text : "";
}
