/* sequence.c: §8.6 sequences (Skeleton.sequenceCounter, core/sequence.ts). */
#include <math.h>

#include "atlas.h"
#include "drawlist.h"
#include "state_machine.h"

int ob_sequence_input_value(const ob_instance *inst, const ob_attachment *att, double *v)
{
    const ob_document *doc = inst->doc;
    const ob_draw_state *ds = inst->draw;
    int32_t code = ds ? ds->seq_input[att - doc->attachments] : -1;
    if (code < 0) return 0;
    /* §8.6 input set: the number input's value (skeleton.inputValues, §9.1
    ** step 10, while a machine runs), else its default */
    if (ob_sm_input_number(inst, att->input_ref, v)) return 1;
    const ob_input_data *in = &doc->machines[code >> 16].inputs[code & 0xffff];
    if (in->def.kind == OB_VAL_NUMBER) { *v = in->def.number; return 1; }
    if (in->def.kind == OB_VAL_BOOL) { *v = in->def.number != 0; return 1; }
    return 0;
}

double ob_sequence_counter(const ob_instance *inst, int32_t slot, const ob_attachment *att)
{
    const ob_seqframe *k = ob_instance_seqframe(inst, slot, att->name_id);
    double v, counter;
    if (k && k->set)
        counter = floor(k->frame + 1e-6) + att->offset;       /* §8.6 keyed frame */
    else if (ob_sequence_input_value(inst, att, &v))
        counter = floor(v + 1e-6) + att->offset;              /* §8.6 input */
    else {
        double t = inst->has_animation_time ? inst->animation_time : inst->clock;
        counter = floor(t * att->fps + 1e-6) + att->offset;   /* §8.6 (animationTime ?? clock)·fps */
    }
    return floor(counter);
}

int32_t ob_sequence_index(ob_seq_mode mode, double f, int32_t n)
{
    if (n <= 0 || !isfinite(f)) return -1;
    switch (mode) {
    case OB_SEQ_LOOP: {
        double k = ob_mod_pos(f, n);                          /* §8.6 ((f % n) + n) % n */
        return (int32_t)k;
    }
    case OB_SEQ_ONCE:
        if (f < 0) return 0;                                  /* §8.6 once */
        return f >= n ? -1 : (int32_t)f;
    case OB_SEQ_HOLD_LAST:
        return f < 0 ? 0 : f > n - 1 ? n - 1 : (int32_t)f;    /* §8.6 clamp(f, 0, n−1) */
    case OB_SEQ_PINGPONG: {
        if (n == 1) return 0;
        double p = 2.0 * n - 2;                               /* §8.6 P = 2n − 2 */
        double k = ob_mod_pos(f, p);                          /* ((f % P) + P) % P */
        return (int32_t)(k < n ? k : p - k);
    }
    }
    return -1;
}

int ob_sequence_layout(const ob_document *doc, const ob_seq_frame *fr, double uv[4], double q[4])
{
    const ob_image_data *im = &doc->images[fr->image];
    double iw = im->width, ih = im->height;
    double rw = fr->has_rect ? fr->rect[2] : iw, rh = fr->has_rect ? fr->rect[3] : ih;
    /* §8.6 uv = rect / imageSize, the whole image without rect */
    if (fr->has_rect) {
        uv[0] = fr->rect[0] / iw; uv[1] = fr->rect[1] / ih;
        uv[2] = (fr->rect[0] + fr->rect[2]) / iw; uv[3] = (fr->rect[1] + fr->rect[3]) / ih;
    } else {
        uv[0] = 0; uv[1] = 0; uv[2] = 1; uv[3] = 1;
    }
    /* §8.6 quad = [trim.x/sw, trim.y/sh, (trim.x+rect.w)/sw, (trim.y+rect.h)/sh] or [0,0,1,1] */
    if (fr->has_trim) {
        double sw = fr->trim[2], sh = fr->trim[3];
        q[0] = fr->trim[0] / sw; q[1] = fr->trim[1] / sh;
        q[2] = (fr->trim[0] + rw) / sw; q[3] = (fr->trim[1] + rh) / sh;
    } else {
        q[0] = 0; q[1] = 0; q[2] = 1; q[3] = 1;
    }
    const ob_region_data *r = ob_atlas_region(doc, fr->image);
    if (r && ob_region_trimmed(r)) {
        /* §8.6 packed and trimmed: intersect uv with the packed part, none if
        ** empty, map the quad fractions linearly */
        double t[4];
        ob_region_trim_box(r, t);
        double a0 = fmax(uv[0], t[0]), b0 = fmax(uv[1], t[1]);
        double a1 = fmin(uv[2], t[2]), b1 = fmin(uv[3], t[3]);
        if (!(a1 > a0) || !(b1 > b0)) return 0;
        double du = uv[2] - uv[0], dv = uv[3] - uv[1];
        double nq[4] = {
            q[0] + (q[2] - q[0]) * (a0 - uv[0]) / du, q[1] + (q[3] - q[1]) * (b0 - uv[1]) / dv,
            q[0] + (q[2] - q[0]) * (a1 - uv[0]) / du, q[1] + (q[3] - q[1]) * (b1 - uv[1]) / dv,
        };
        for (int i = 0; i < 4; i++) q[i] = nq[i];
        uv[0] = a0; uv[1] = b0; uv[2] = a1; uv[3] = b1;
    }
    return 1;
}
