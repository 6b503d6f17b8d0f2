/* timeline.c: §4.3 curves, §5 sampling and applyAnimation (animation.ts),
** §5.1a mixing out, §5.1 localTime, §5.2 eventsBetween.
**
** One switch per timeline, no per-object dispatch, nothing allocated: values
** land in the instance's own arrays (local pose, slot state, live constraint
** values, keyed deform/sequence tables, particle values, draw order). */
#include "timeline.h"
#include "curve_spine.h"

#include <math.h>
#include <stddef.h>
#include <string.h>

#include "animation_state.h"

/* ---- §4.3 curves ---------------------------------------------------- */

double ob_curve_bezier(double x1, double y1, double x2, double y2, double t)
{
    /* §4.3: bisection only, 24 iterations, first probe s = t, no clamp */
    double lo = 0, hi = 1, s = t;
    for (int i = 0; i < 24; i++) {
        double u = 1 - s;
        double e = 3 * u * u * s * x1 + 3 * u * s * s * x2 + s * s * s - t;
        if (fabs(e) < 1e-6) break;
        if (e > 0) hi = s;
        else lo = s;
        s = (lo + hi) / 2;
    }
    double u = 1 - s;
    return 3 * u * u * s * y1 + 3 * u * s * s * y2 + s * s * s;
}

double ob_curve_eval(ob_curve_kind kind, const double c[4], double t)
{
    switch (kind) {
    case OB_CURVE_BEZIER: return ob_curve_bezier(c[0], c[1], c[2], c[3], t);
    case OB_CURVE_BEZIER_SPINE: return ob_curve_spine(c, t);  /* skeleton JSON import */
    case OB_CURVE_BEZIER_EXACT: return ob_curve_exact(c, t);
    case OB_CURVE_STEPPED: return t >= 1 ? 1 : 0;  /* holds the left key until the span ends */
    default: return t;
    }
}

/* ---- §5.1 localTime -------------------------------------------------- */

/* issue 17 (keys): fmod(total, d) = total − n·d (exact) for d ≤ total, n =
** trunc(total/d), without the call: k = ⌊total/d⌋ and k·d = p + e exactly
** (Dekker's product, Veltkamp's split: no overflow or underflow in the bounds
** taken); total − p is exact (Sterbenz: p/2 ≤ total ≤ 2p), so (total − p) − e
** is total − k·d rounded once: exact when k = n (the result is representable),
** else outside [0, d), which the caller checks (then fmod).  NaN when out of
** the bounds. */
static inline double rem_exact(double total, double d)
{
    if (!(total >= d && total < 0x1p900 && d > 0x1p-900)) return NAN;
    double q = total / d;
    if (!(q < 0x1p52)) return NAN;
    double k = (double)(int64_t)q;  /* ⌊q⌋, q ≥ 1 */
    double p = k * d;
    double kc = k * 134217729.0, kh = kc - (kc - k), kl = k - kh;  /* 2^27 + 1 */
    double dc = d * 134217729.0, dh = dc - (dc - d), dl = d - dh;
    double e = ((kh * dh - p) + kh * dl + kl * dh) + kl * dl;
    return (total - p) - e;
}

double ob_animation_local_time(const ob_document *doc, const ob_animation_data *anim, double total, int loop)
{
    double d = anim->length;  /* §5.1 animationDuration */
    if (!(d > 0)) return 0;
    if (loop && doc->pose_model == OB_POSE_MODEL_SPINE) {  /* Spine: time % duration */
        if (total >= 0 && total < d) return total;  /* fmod's result, without the call */
        double r = rem_exact(total, d);
        if (r >= 0 && r < d) return r;  /* fmod's result, without the call (issue 17, keys) */
        double t = fmod(total, d);
        return t < 0 ? t + d : t;
    }
    if (loop) return ob_mod_pos(total, d);  /* ((total % d) + d) % d */
    return total < 0 ? 0 : total > d ? d : total;
}

/* ---- §5 sampling ------------------------------------------------------ */

static inline double lerp(double a, double b, double t) { return a + (b - a) * t; }

/* §5 the key span around time, for times[0] < time < times[n − 1]: the i with
** times[i] ≤ time < times[i + 1], which is unique when the times ascend, so
** the binary search and a check of the previous call's span (or the next
** one: time moves forward a frame) give the same i.  Keys out of order
** (allowed, with a warning) always take the binary search, as written. */
static int32_t find_span_search(const double *times, int32_t n, double time, int32_t *hint);

static inline int32_t find_span_in(const double *times, int32_t n, int sorted, double time, int32_t *hint)
{
    int32_t h = *hint;
    if (sorted && h >= 0 && h < n - 1 && times[h] <= time) {
        if (time < times[h + 1]) return h;
        if (h + 2 < n && time < times[h + 2]) return *hint = h + 1;
    }
    return find_span_search(times, n, time, hint);
}

__attribute__((noinline)) static int32_t find_span_search(const double *times, int32_t n, double time, int32_t *hint)
{
    int32_t lo = 0, hi = n - 1;  /* times[lo] ≤ time < times[hi] */
    while (hi - lo > 1) {
        int32_t mid = (lo + hi) >> 1;
        if (times[mid] <= time) lo = mid;
        else hi = mid;
    }
    return *hint = lo;
}

static int32_t find_span(const ob_timeline *tl, double time, int32_t *hint)
{
    return find_span_in(tl->times, tl->key_count, tl->sorted, time, hint);
}

/* §5 locate: the key pair around time.  Returns the left key index a; *lerp_t
** is set to the curve-mapped fraction and *interp to 1 when a is lerped
** towards a + 1; *interp 0 = a's value as is (before the first key, at or
** after the last, or a stepped span). */
static int32_t locate(const ob_instance *inst, const ob_timeline *tl, double time, double *t, int *interp)
{
    const ob_key *k = tl->keys;
    int32_t n = tl->key_count;
    *t = 0;
    *interp = 0;
    if (time <= tl->times[0]) return 0;
    if (time >= tl->times[n - 1]) return n - 1;
    int32_t lo = find_span(tl, time, &inst->key_hint[tl->serial]);
    const ob_key_hot *h = &tl->hot[lo];  /* keys[lo]'s hot part: times[] and hot[] only */
    if (h->curve == OB_CURVE_STEPPED) return lo;
    const double *times = tl->times;
    double span = times[lo + 1] - times[lo];
    double f = (time - times[lo]) / (span != 0 ? span : 1);  /* (b.time − a.time) ‖ 1 */
    *t = h->curve == OB_CURVE_LINEAR     ? f
       : h->curve == OB_BKEY_SPINE_FAST ? ob_curve_spine_fast_eval(h->spine, f)
       : h->spine                       ? ob_curve_spine_sampled(h->spine, f)
                                        : ob_curve_eval(h->curve, k[lo].c, f);
    *interp = 1;
    return lo;
}

static inline double line_value(int32_t *restrict hints, const ob_bline *l, double time);

/* §5 sampled number (v[0]) */
static double sample_number(const ob_instance *inst, const ob_timeline *tl, double time)
{
    if (tl->line && fabs(time) <= OB_BLINE_TMAX) return line_value(inst->key_hint, tl->line, time);  /* keys */
    double t;
    int interp;
    int32_t a = locate(inst, tl, time, &t, &interp);
    if (!interp) return tl->hot[a].v0;
    return lerp(tl->hot[a].v0, tl->hot[a + 1].v0, t);
}

/* §5 sampleStep: the left key (first before it, last after it) */
static const ob_key *sample_step(const ob_instance *inst, const ob_timeline *tl, double time)
{
    const ob_key *k = tl->keys;
    int32_t n = tl->key_count;
    if (time <= tl->times[0]) return &k[0];
    if (time >= tl->times[n - 1]) return &k[n - 1];
    return &k[find_span(tl, time, &inst->key_hint[tl->serial])];
}

/* §5 sampled colour (v[0..3]), lerped by t */
static void sample_color(const ob_instance *inst, const ob_timeline *tl, double time, double out[4])
{
    double t;
    int interp;
    int32_t a = locate(inst, tl, time, &t, &interp);
    const ob_key *ka = &tl->keys[a];
    if (!interp) { memcpy(out, ka->v, 4 * sizeof *out); return; }
    for (int i = 0; i < 4; i++) out[i] = lerp(ka->v[i], ka[1].v[i], t);
}

/* ---- §5.1a what blends, what "into" keys ------------------------------ */

static int blends(const ob_timeline *tl)
{
    switch (tl->property) {
    case OB_P_INHERIT: case OB_P_ATTACHMENT: case OB_P_BEND: case OB_P_STRETCH: case OB_P_COMPRESS:
    case OB_P_EMITTING: case OB_P_FRAME: case OB_P_ORDER: case OB_P_RESET:
        return 0;
    default:
        return 1;
    }
}

static int keys_channel(const ob_animation_data *a, int32_t channel)
{
    int32_t lo = 0, hi = a->channel_count - 1;
    while (lo <= hi) {
        int32_t mid = (lo + hi) >> 1;
        if (a->channels[mid] == channel) return 1;
        if (a->channels[mid] < channel) lo = mid + 1;
        else hi = mid - 1;
    }
    return 0;
}

static int into_keys(const ob_document *doc, const ob_mix_out *mo, int32_t channel)
{
    for (int32_t i = 0; i < mo->into_count; i++) {
        int32_t a = mo->into[i];
        if (a >= 0 && a < doc->animation_count && keys_channel(&doc->animations[a], channel)) return 1;
    }
    return 0;
}

/* ---- §5.1 per target -------------------------------------------------- */

/* §5.1 bone timelines other than the seven pose values (those are applied
** by apply_bone_groups): inherit, stepped, curves ignored */
static void apply_bone(ob_instance *inst, const ob_timeline *tl, double time, double alpha)
{
    if (tl->property == OB_P_INHERIT && alpha >= 0.5)
        inst->inherit[tl->index] = (uint8_t)sample_step(inst, tl, time)->ref;
}

static void apply_slot(ob_instance *inst, const ob_timeline *tl, double time, double alpha)
{
    int32_t s = tl->index;
    switch (tl->property) {
    case OB_P_ATTACHMENT:  /* §5.1: alpha ≥ 0.5, stepped; null (-1) hides */
        if (alpha >= 0.5) inst->slot_attachment[s] = sample_step(inst, tl, time)->ref;
        return;
    case OB_P_COLOR:
    case OB_P_DARK: {
        double v[4];
        sample_color(inst, tl, time, v);
        double *c = tl->property == OB_P_COLOR ? &inst->slot_color[4 * s] : &inst->slot_dark[4 * s];
        if (tl->property == OB_P_DARK && !inst->slot_has_dark[s]) {
            /* §5.1: the dark mixing base is the current dark or [0,0,0,1] */
            c[0] = c[1] = c[2] = 0;
            c[3] = 1;
            inst->slot_has_dark[s] = 1;
        }
        if (alpha >= 1) memcpy(c, v, sizeof v);
        else for (int i = 0; i < 4; i++) c[i] = lerp(c[i], v[i], alpha);  /* §4.5 lerpColor */
        return;
    }
    default:
        return;
    }
}

/* §5.1 ik / transform / path / physics: live value slots OB_CV_* line up
** with OB_P_MIX.. OB_P_WIND */
_Static_assert(OB_P_WIND - OB_P_MIX == OB_CV_WIND - OB_CV_MIX, "OB_P_* and OB_CV_* must line up");

static void apply_constraint_values(ob_instance *inst, const ob_timeline *tl, double *values, int p, double time,
                                    double alpha);

static void apply_constraint(ob_instance *inst, const ob_timeline *tl, double time, double alpha)
{
    int p;
    if (tl->property >= OB_P_MIX && tl->property <= OB_P_WIND) p = OB_CV_MIX + (tl->property - OB_P_MIX);
    else if (tl->property == OB_P_MIX_SCALE_Y) p = OB_CV_MIX_SCALE_Y;  /* Spine pose model */
    else return;  /* reset keys fire from the track (physics.c) */
    if (tl->global) {
        /* spine-core 4.2: a physics timeline named "" sets every physics
        ** constraint whose *Global flag for the property is set; before its
        ** first key each keeps its own setup value */
        if (time < tl->times[0]) return;
        unsigned bit = p == OB_CV_MIX ? 7u : (unsigned)(p - OB_CV_INERTIA);
        for (int32_t c = tl->index; c < inst->doc->constraint_count; c++)
            if (inst->doc->constraints[c].pglobal & (1u << bit))
                apply_constraint_values(inst, tl, &inst->con_values[(size_t)c * OB_CV_COUNT], p, time, alpha);
        return;
    }
    apply_constraint_values(inst, tl, &inst->con_values[(size_t)tl->index * OB_CV_COUNT], p, time, alpha);
}

static void apply_constraint_values(ob_instance *inst, const ob_timeline *tl, double *values, int p, double time,
                                    double alpha)
{
    if (tl->property == OB_P_BEND || tl->property == OB_P_STRETCH || tl->property == OB_P_COMPRESS) {
        /* §5.1: Number(sampleStep) when alpha ≥ 0.5 */
        if (alpha >= 0.5) values[p] = sample_step(inst, tl, time)->v[0];
        return;
    }
    double cur = values[p];
    if (cur != cur) cur = 0;  /* values[p] ‖ 0 (NaN) */
    values[p] = lerp(cur, sample_number(inst, tl, time), alpha);  /* §5.1 */
}

static void apply_particles(ob_instance *inst, const ob_timeline *tl, double time, double alpha)
{
    int32_t s = tl->index;
    ob_particle_values *pv = &inst->particle_values[s];
    if (tl->property == OB_P_EMITTING) {
        if (alpha >= 0.5) {  /* §5.1: sampleStep */
            pv->has_emitting = 1;
            pv->emitting = sample_step(inst, tl, time)->v[0] != 0;
        }
        return;
    }
    if (tl->property != OB_P_RATE) return;
    /* §5.1: lerp(current rate ‖ attachment rate (0 if not particles), v, alpha) */
    double base = pv->has_rate ? pv->rate : 0;
    if (!(base == base && base != 0)) {
        int32_t att = ob_skeleton_get_attachment(inst, s, inst->slot_attachment[s]);
        const ob_attachment *a = att >= 0 ? &inst->doc->attachments[att] : NULL;
        base = a && a->type == OB_ATT_PARTICLES && a->particles ? a->particles->rate : 0;
    }
    pv->rate = lerp(base, sample_number(inst, tl, time), alpha);
    pv->has_rate = 1;
}

/* ---- deform (issue 17) ------------------------------------------------ */

/* §5 the curve-mapped fraction of a (not stepped) deform key's span at time */
static inline double dkey_fraction(const ob_dkey *a, double time)
{
    double f = (time - a->t0) / a->den;  /* / ((b.time − a.time) ‖ 1) */
    return a->kind == OB_CURVE_LINEAR       ? f
         : a->kind == OB_BKEY_SPINE_FAST    ? ob_curve_spine_fast_eval(a->curve, f)
         : a->kind == OB_DKEY_SAMPLED       ? ob_curve_spine_sampled(a->curve, f)
                                            : ob_curve_eval((ob_curve_kind)a->kind, a->curve, f);
}

/* §5 locate on a deform timeline's records (ob_dkey): the same key, fraction
** and divisions as locate, the hinted span read from the record itself */
static inline const ob_dkey *deform_locate(const ob_instance *inst, const ob_timeline *tl, double time, double *t,
                                           int *interp)
{
    const ob_dkey *k = tl->dkeys;
    int32_t n = tl->key_count, *hint = &inst->key_hint[tl->serial], h = *hint, lo;
    *t = 0;
    *interp = 0;
    /* strictly inside the hinted span of ascending keys (most frames): past
    ** the first key and before the last, so locate's first two checks pass */
    if (tl->sorted && (uint32_t)h < (uint32_t)(n - 1) && k[h].t0 < time && time < k[h].t1) {
        lo = h;
    } else {
        if (time <= k[0].t0) return k;
        if (time >= k[n - 1].t0) return k + n - 1;
        lo = find_span_in(tl->times, n, tl->sorted, time, hint);
    }
    const ob_dkey *a = k + lo;
    if (a->kind == OB_CURVE_STEPPED) return a;
    *t = dkey_fraction(a, time);
    *interp = 1;
    return a;
}

/* a + (b − a)·t per element: the difference read from the key's record,
** two or four lanes at a time (the same operation per element at every
** width, and in the fused vertex loop, attachment_vertices.c) */
static inline void settle_lanes(double *out, const double *pa, const double *pd, double t, int32_t i, int32_t n)
{
    ob_v2d vt = {t, t};
    for (; i + 2 <= n; i += 2) ob_v2_store(out + i, ob_v2_load(pa + i) + ob_v2_load(pd + i) * vt);
    if (i < n) out[i] = pa[i] + pd[i] * t;
}

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && defined(__linux__) && !defined(OB_NO_DISPATCH) && \
    !defined(__AVX2__)
#define SETTLE_AVX2 1
typedef double settle_v4 __attribute__((vector_size(32)));
__attribute__((target("avx2"))) static void settle_avx2(double *out, const double *pa, const double *pd, double t,
                                                         int32_t n)
{
    settle_v4 vt = {t, t, t, t};
    int32_t i = 0;
    for (; i + 4 <= n; i += 4) {
        settle_v4 a, b;
        memcpy(&a, pa + i, sizeof a);
        memcpy(&b, pd + i, sizeof b);
        a = a + b * vt;
        memcpy(out + i, &a, sizeof a);
    }
    settle_lanes(out, pa, pd, t, i, n);
}
#endif

void ob_deform_settle(ob_deform *d)
{
    const double *pa = d->lazy_v0, *pd = d->lazy_dv;
    int32_t n = d->count;
    double *out = d->values;
    d->lazy_v0 = d->lazy_dv = NULL;
    if (!pa || n <= 0) return;
    if (!pd) {
        memcpy(out, pa, (size_t)n * sizeof *out);
        return;
    }
#ifdef SETTLE_AVX2
    if (__builtin_cpu_supports("avx2")) {
        settle_avx2(out, pa, pd, d->lazy_t, n);
        return;
    }
#endif
    settle_lanes(out, pa, pd, d->lazy_t, 0, n);
}

static void apply_deform(ob_instance *inst, const ob_timeline *tl, double time, double alpha)
{
    int32_t e = tl->deform_entry;  /* the loader's index, checked (issue 17) */
    ob_deform *d = e >= 0 && e < inst->deform_count ? &inst->deforms[e] : NULL;
    if (!d || d->slot != tl->index || d->name_id != tl->attachment) d = ob_instance_deform(inst, tl->index, tl->attachment);
    if (!d || !tl->dkeys) return;
    /* §5 sampleArray: element-wise lerp to the longer length, missing = 0 */
    double t;
    int interp;
    const ob_dkey *a = deform_locate(inst, tl, time, &t, &interp), *b = interp ? a + 1 : NULL;
    /* offsets per vertex and per influence (the extension) do not mix: the
    ** other kind's values count as none */
    int per_influence = tl->property == OB_P_INFLUENCE_OFFSETS;
    if (alpha >= 1 && (!b || a->dv) && a->count <= d->capacity) {
        /* full weight, every value from both keys (dv: their lengths are
        ** equal) or a key held: the sample is recorded, not stored (issue 17);
        ** ob_deform_values stores it for the readers that need the values */
        d->per_influence = per_influence;
        d->count = a->count;
        d->lazy_v0 = a->v0;
        d->lazy_dv = b ? a->dv : NULL;
        d->lazy_t = t;
        return;
    }
    int32_t n = a->count;
    if (b && b->count > n) n = b->count;
    if (n > d->capacity) n = d->capacity;  /* cannot happen: sized for the longest key */
    int32_t old = d->per_influence == per_influence ? d->count : 0;
    d->per_influence = per_influence;
    if (alpha < 1 && old > 0) ob_deform_values(d);  /* the offsets mixed with */
    d->lazy_v0 = d->lazy_dv = NULL;
    for (int32_t i = 0; i < n; i++) {
        double va = i < a->count ? a->v0[i] : 0;
        double v = b ? lerp(va, i < b->count ? b->v0[i] : 0, t) : va;
        if (alpha < 1) {
            /* existing offsets: lerp(cur[i] ‖ 0, v, alpha); none: v·alpha */
            double cur = old > 0 && i < old ? d->values[i] : 0;
            if (cur != cur) cur = 0;
            v = old > 0 ? lerp(cur, v, alpha) : v * alpha;
        }
        d->values[i] = v;
    }
    d->count = n;
}

/* issue 17 (keys): alpha ≥ 1, no mix-out: the deform timelines from their
** records (ob_dline).  Strictly inside the hinted span (most frames) with its
** entry found and sized, the sample is recorded as apply_deform records it;
** anything else is apply_deform itself */
_Static_assert(offsetof(ob_dline, name_id) == offsetof(ob_dline, slot) + 4 &&
               offsetof(ob_deform, name_id) == offsetof(ob_deform, slot) + 4, "(slot, name_id) read as one");

__attribute__((noinline)) static void apply_deforms_plain(ob_instance *inst, const ob_animation_data *an, double time)
{
    ob_deform *deforms = inst->deforms;
    int32_t *hints = inst->key_hint;
    uint32_t nd = (uint32_t)inst->deform_count;
    const ob_dline *x = an->dlines, *end = x + an->dline_count;
    for (; x < end; x++) {
        uint32_t h = (uint32_t)hints[x->hint], e = (uint32_t)x->entry, last = (uint32_t)x->last;
        uint64_t want, have;
        ob_deform *d;
        const ob_dkey *a;
        memcpy(&want, &x->slot, sizeof want);  /* (slot, name_id) at once */
        if (e < nd && h < last && (memcpy(&have, &(d = &deforms[e])->slot, sizeof have), have == want) &&
            (a = x->keys + h)->t0 < time) {
            if (!(time < a->t1)) {  /* the next span (time moves forward), as find_span_in finds it */
                if (h + 1 < last && a[1].t0 < time && time < a[1].t1) {
                    hints[x->hint] = (int32_t)(h + 1);
                    a++;
                } else {
                    a = NULL;
                }
            }
            if (a && a->count <= d->capacity) {
                if (a->kind == OB_CURVE_STEPPED) {  /* held */
                    d->lazy_dv = NULL;
                    d->lazy_t = 0;
                } else if (a->dv) {
                    d->lazy_t = dkey_fraction(a, time);
                    d->lazy_dv = a->dv;
                } else {
                    a = NULL;
                }
                if (a) {
                    d->per_influence = x->per_influence;
                    d->count = a->count;
                    d->lazy_v0 = a->v0;
                    continue;
                }
            }
        }
        apply_deform(inst, &an->timelines[x->timeline], time, 1);
    }
}

static void apply_draw_order(ob_instance *inst, const ob_timeline *tl, double time)
{
    /* §5.1, like Spine: unlisted slots keep their setup index; the listed
    ** slots fill the remaining indices in listed order, back to front */
    const ob_key *k = sample_step(inst, tl, time);
    int32_t n = inst->doc->slot_count;
    uint8_t *listed = ob_anim_state_marks(inst);
    int32_t *order = inst->draw_order;
    if (!listed) return;
    memset(listed, 0, (size_t)n);
    for (int32_t j = 0; j < k->count; j++) listed[k->order[j]] = 1;
    int32_t j = 0;
    for (int32_t i = 0; i < n; i++) {
        if (!listed[i]) { order[i] = i; continue; }
        while (j < k->count && listed[k->order[j]] == 2) j++;  /* a slot listed twice: once */
        order[i] = k->order[j];
        listed[k->order[j]] = 2;
        j++;
    }
}

static void apply_timeline(ob_instance *inst, const ob_timeline *tl, double time, double alpha)
{
    switch (tl->target) {
    case OB_TL_BONE: apply_bone(inst, tl, time, alpha); break;
    case OB_TL_SLOT: apply_slot(inst, tl, time, alpha); break;
    case OB_TL_IK: case OB_TL_TRANSFORM: case OB_TL_PATH: case OB_TL_PHYSICS:
        apply_constraint(inst, tl, time, alpha);
        break;
    case OB_TL_PARTICLES: apply_particles(inst, tl, time, alpha); break;
    case OB_TL_DEFORM:
        if (tl->property == OB_P_OFFSETS || tl->property == OB_P_INFLUENCE_OFFSETS) apply_deform(inst, tl, time, alpha);
        break;
    case OB_TL_SEQUENCE:
        if (tl->property == OB_P_FRAME && alpha >= 0.5) {  /* §5.1: sampleNumber */
            ob_seqframe *f = ob_instance_seqframe(inst, tl->index, tl->attachment);
            if (f) {
                f->set = 1;
                f->frame = sample_number(inst, tl, time);
            }
        }
        break;
    case OB_TL_DRAW_ORDER:
        if (tl->property == OB_P_ORDER && alpha >= 0.5) apply_draw_order(inst, tl, time);
        break;
    default:
        break;
    }
}

/* ---- §5 applyAnimation ------------------------------------------------- */

/* §5 a group's span at time (as locate): the fraction f of the left key's
** span, or −1 for a key's value as is (at or before the first key, at or
** after the last); the span's key is left in the group's key hint */
static inline double group_fraction(const ob_instance *inst, const ob_bgroup *g, double time)
{
    if (time <= g->t_first || time >= g->t_last) return -1;
    int32_t *hint = &inst->key_hint[g->hint], h = *hint;
    if (g->sorted && h >= 0 && h < g->key_count - 1) {
        const ob_bspan *s = &g->spans[h];  /* find_span's first check: most frames stay in the span */
        if (s->t0 <= time && time < s->t1) return (time - s->t0) * s->inv;
    }
    int32_t lo = find_span_in(g->times, g->key_count, g->sorted, time, hint);
    *hint = lo;
    return (time - g->spans[lo].t0) * g->spans[lo].inv;  /* / ((b.time − a.time) ‖ 1), inverted at load */
}

/* §5 sampled number of one key's span at fraction f (locate + lerp): the
** OpenBone bisection, exact curves and Spine curves whose samples do not
** ascend */
static double bkey_value_slow(const ob_bkey *k, double f)
{
    if (k->kind == OB_CURVE_BEZIER_SPINE) return k->v0 + k->dv * ob_curve_spine_sampled(k->curve, f);
    return k->v0 + k->dv * ob_curve_eval((ob_curve_kind)k->kind, k->curve, f);
}

/* linear keys, then stepped and Spine curves (one form, ob_curve_spine_fast) */
static inline double bkey_value(const ob_bkey *k, double f)
{
    if (k->kind == OB_CURVE_LINEAR) return k->v0 + k->dv * f;
    if (__builtin_expect(k->kind == OB_BKEY_SPINE_FAST, 1))
        return k->v0 + k->dv * ob_curve_spine_fast_eval(k->curve, f);
    return bkey_value_slow(k, f);
}

/* §5.1 the bone value timelines, a group at a time: alpha ≥ 1 and no mix-out
** (the common case) stores each sampled value; otherwise §5.1's
** rules per timeline with its §5.1a alpha */
static void apply_bone_groups(ob_instance *inst, const ob_animation_data *a, double time, double alpha,
                              const ob_mix_out *mix_out)
{
    double *local = (double *)inst->local;  /* ob_pose: 7 doubles, field = index */
    double *frac = inst->tl_values;         /* one per group (groups ≤ timelines) */
    const ob_bchan *chans = a->bchans;
    int plain = alpha >= 1 && !mix_out;
    int32_t ng = a->bgroup_count;
    /* pass 1: every group's span, independent searches the pipeline overlaps */
    for (int32_t gi = 0; gi < ng; gi++) frac[gi] = group_fraction(inst, &a->bgroups[gi], time);
    /* pass 2: the members */
    for (int32_t gi = 0; gi < ng; gi++) {
        const ob_bgroup *g = &a->bgroups[gi];
        double f = frac[gi];
        int interp = f >= 0;
        int32_t k = interp ? inst->key_hint[g->hint] : time <= g->t_first ? 0 : g->key_count - 1;
        int32_t m = g->count;
        const ob_bkey *keys = g->keys + (size_t)k * (size_t)m;
        const ob_bchan *c = chans + g->first;
        if (plain) {
            if (!interp)
                for (int32_t j = 0; j < m; j++) local[7 * (size_t)c[j].bone + (size_t)c[j].field] = keys[j].v0;
            else
                for (int32_t j = 0; j < m; j++)
                    local[7 * (size_t)c[j].bone + (size_t)c[j].field] = bkey_value(&keys[j], f);
            continue;
        }
        for (int32_t j = 0; j < m; j++) {
            double al = alpha;
            /* §5.1a: a blending timeline that `into` doesn't key eases out */
            if (mix_out && !into_keys(inst->doc, mix_out, a->timelines[c[j].timeline].channel)) al = mix_out->alpha;
            if (!(al > 0)) continue;
            double v = interp ? bkey_value(&keys[j], f) : keys[j].v0;
            double *dst = &local[7 * (size_t)c[j].bone + (size_t)c[j].field];
            if (al >= 1) *dst = v;
            else if (c[j].rotation) *dst = *dst + ob_wrap_deg(v - *dst) * al;  /* §4.4 lerpAngle */
            else *dst = lerp(*dst, v, al);  /* §5.1 */
        }
    }
}

/* keys (issue 17, session 4): a line's value at time, from the piece that
** holds it: the instance's hint (the index of the piece of the previous
** frame, or one a little after: time moves forward; any value is checked,
** snapshots restore hints as bytes), else by bisection; |time| ≤ OB_BLINE_TMAX */
static inline double line_value_at(int32_t *restrict hint, const ob_bline *l, double time)
{
    uint32_t p = (uint32_t)*hint;
    const ob_bpiece *P = l->pieces, *q;
    if (p < (uint32_t)l->np && (q = P + p)->start <= time) {
        if (q[1].start <= time) {  /* forward (the last piece's end is +inf) */
            /* issue 17 (keys): two pieces a step; q[1] starting at or before
            ** time is a piece (not the +inf end), so q[2] exists */
            while (q[1].start <= time) {
                if (!(q[2].start <= time)) { q++, p++; break; }
                q += 2, p += 2;
            }
            *hint = (int32_t)p;
        }
    } else {
        int32_t lo = 0, hi = l->np;  /* P[lo].start ≤ time < P[hi].start */
        /* issue 17 (keys): a loop's wrap lands in the first pieces (the one
        ** holding time is unique: the starts ascend), else the bisection */
        if (!(P[1].start <= time)) hi = 1;
        else if (!(P[2].start <= time)) lo = 1, hi = 2;  /* P[1] is a piece: P[2] exists */
        else lo = 2;
        while (hi - lo > 1) {
            int32_t mid = (lo + hi) >> 1;
            if (P[mid].start <= time) lo = mid;
            else hi = mid;
        }
        q = P + lo;
        *hint = lo;
    }
    return q->a + q->b * (time - q->start);
}

static inline double line_value(int32_t *restrict hints, const ob_bline *l, double time)
{
    return line_value_at(&hints[l->hint], l, time);
}

/* issue 17 (keys): as apply_bone_lines_plain, line j's hint in hints[j] */
__attribute__((noinline)) static void apply_bone_lines_seq(double *restrict local, int32_t *restrict hints,
                                                           const ob_bline *lines, int32_t n, double time)
{
    for (int32_t j = 0; j < n; j++) local[lines[j].dst] = line_value_at(&hints[j], &lines[j], time);
}

/* alpha ≥ 1, no mix-out: each value stored (a loop of its own) */
__attribute__((noinline)) static void apply_bone_lines_plain(double *restrict local, int32_t *restrict hints,
                                                             const ob_bline *lines, int32_t n, double time)
{
    for (int32_t j = 0; j < n; j++) local[lines[j].dst] = line_value(hints, &lines[j], time);
}

/* §5.1 the bone value timelines as lines (ob_bline), in the groups' order:
** alpha ≥ 1 and no mix-out stores each value; otherwise §5.1's rules per
** timeline with its §5.1a alpha, as apply_bone_groups */
static void apply_bone_lines(ob_instance *inst, const ob_animation_data *a, double time, double alpha,
                             const ob_mix_out *mix_out)
{
    double *local = (double *)inst->local;
    int32_t *hints = inst->key_hint;
    const ob_bline *lines = a->blines;
    int32_t n = a->bchan_count;
    if (alpha >= 1 && !mix_out) {
        if (a->bvar_hint0 >= 0) apply_bone_lines_seq(local, hints + a->bvar_hint0, a->bvar, a->bvar_count, time);
        else apply_bone_lines_plain(local, hints, a->bvar, a->bvar_count, time);
        for (int32_t j = 0; j < a->bconst_count; j++) local[a->bconst[j].dst] = a->bconst[j].v;  /* issue 17 (keys) */
        return;
    }
    for (int32_t j = 0; j < n; j++) {
        const ob_bline *l = &lines[j];
        double al = alpha;
        /* §5.1a: a blending timeline that `into` doesn't key eases out */
        if (mix_out && !into_keys(inst->doc, mix_out, a->timelines[l->timeline].channel)) al = mix_out->alpha;
        if (!(al > 0)) continue;
        double v = line_value(hints, l, time);
        double *dst = &local[l->dst];
        if (al >= 1) *dst = v;
        else if (l->rotation) *dst = *dst + ob_wrap_deg(v - *dst) * al;  /* §4.4 lerpAngle */
        else *dst = lerp(*dst, v, al);  /* §5.1 */
    }
}

void ob_animation_apply_filtered(ob_instance *inst, int32_t anim, double time, double alpha,
                                 const ob_mix_out *mix_out, int which)
{
    const ob_document *doc = inst->doc;
    if (anim < 0 || anim >= doc->animation_count) return;
    if (!(alpha > 0)) return;  /* §5: alpha ≤ 0 does nothing */
    ob_instance_pose_mark(inst, anim);  /* bones, issue 17: the rows setToSetupPose restores */
    if (alpha >= 0.5 || !inst->has_animation_time) {  /* §5: the call's alpha, even mixing out */
        inst->animation_time = time;
        inst->has_animation_time = 1;
    }
    const ob_animation_data *a = &doc->animations[anim];
    /* issue 17: the bone pose values first, grouped by key times (they write
    ** the local pose only, which no other timeline reads or writes), then
    ** every other timeline in order */
    if (which & OB_APPLY_BONES) {
        if (a->blines && fabs(time) <= OB_BLINE_TMAX) apply_bone_lines(inst, a, time, alpha, mix_out);
        else apply_bone_groups(inst, a, time, alpha, mix_out);
    }
    if (alpha >= 1 && !mix_out) {  /* issue 17 (keys): the deform timelines as records, then the rest */
        if (which & OB_APPLY_OTHERS) apply_deforms_plain(inst, a, time);
        for (int32_t i = 0; i < a->rest_count; i++) {
            const ob_timeline *tl = &a->timelines[a->rest[i]];
            if (tl->target == OB_TL_SLOT && tl->property == OB_P_ATTACHMENT) {  /* apply_slot's, alpha ≥ 1 */
                if (which & OB_APPLY_OTHERS) inst->slot_attachment[tl->index] = sample_step(inst, tl, time)->ref;
                continue;
            }
            if (which & (tl->target == OB_TL_BONE ? OB_APPLY_BONES : OB_APPLY_OTHERS)) apply_timeline(inst, tl, time, alpha);
        }
        return;
    }
    for (int32_t i = 0; i < a->other_count; i++) {
        const ob_timeline *tl = &a->timelines[a->others[i]];
        if (!(which & (tl->target == OB_TL_BONE ? OB_APPLY_BONES : OB_APPLY_OTHERS))) continue;
        double al = alpha;
        /* §5.1a: a blending timeline that `into` doesn't key eases out */
        if (mix_out && blends(tl) && !into_keys(doc, mix_out, tl->channel)) al = mix_out->alpha;
        if (!(al > 0)) continue;
        apply_timeline(inst, tl, time, al);
    }
}

void ob_animation_apply(ob_instance *inst, int32_t anim, double time, double alpha, const ob_mix_out *mix_out)
{
    ob_animation_apply_filtered(inst, anim, time, alpha, mix_out, OB_APPLY_ALL);
}

/* ---- §5.2 eventsBetween / audioKeysBetween ---------------------------- */

/* fire when prev < c·d + k ≤ next, cycles floor(prev/d)..floor(next/d) */
/* §5.2 looping: the cycles c in [floor(prev/d), floor(next/d)] with
** prev < c·d + key ≤ next.  t(c) = c·d + key never decreases with c, so those
** cycles are consecutive: the cycles before floor((prev − key)/d) − 1 are
** skipped in O(1) and the walk stops at the first t > next.  An advance that
** crosses a key more than OB_MAX_CROSSINGS times (a jump of many cycles, not
** playback) fires it for its first OB_MAX_CROSSINGS crossings only, so one
** call is O(1) per key whatever dt is (issue 21; NOTES §5.2). */
typedef struct cycles { double prev, next, d, c0, c1; int loop; } cycles;

/* the cycle range of one call, shared by its keys (issue 17: two divisions
** per call, not three per key) */
static cycles crossing_span(double d, double prev, double next, int loop)
{
    cycles s = {prev, next, d, 0, 0, loop && d > 0};
    if (s.loop) {
        s.c0 = floor(prev / d);
        s.c1 = floor(next / d);
    }
    return s;
}

static void crossed_cycles(double key, const cycles *s, ob_key_fn fn, void *ctx, int32_t i)
{
    double prev = s->prev, next = s->next, d = s->d, c = s->c0, c1 = s->c1;
    double skip = floor((prev - key) / d) - 1;  /* t(skip) <= prev: so is every earlier cycle's */
    if (skip > c && skip * d + key <= prev) c = skip;
    int fired = 0, idle = 0;
    for (; c <= c1; c++) {
        double t = c * d + key;
        if (t > next) break;
        if (prev < t) {
            fn(ctx, i);
            if (++fired == OB_MAX_CROSSINGS) break;
        } else if (++idle > 4) {
            break;  /* rounding leaves at most ~3 such cycles after the skip */
        }
        if (c + 1 == c) break;  /* past 2^53 cycles: c++ no longer moves */
    }
}

static inline void crossed(double key, const cycles *s, ob_key_fn fn, void *ctx, int32_t i)
{
    if (!s->loop) {
        if (s->prev < key && key <= s->next) fn(ctx, i);
    } else if (s->c0 == s->c1) {  /* one cycle (most advances): the walk would run once, no skip */
        double t = s->c0 * s->d + key;
        if (s->prev < t && t <= s->next) fn(ctx, i);
    } else {
        crossed_cycles(key, s, fn, ctx, i);
    }
}

void ob_timeline_keys_between(const ob_animation_data *anim, const ob_timeline *tl, double prev, double next,
                              int loop, ob_key_fn fn, void *ctx)
{
    if (next <= prev) return;
    cycles s = crossing_span(anim->length, prev, next, loop);
    for (int32_t i = 0; i < tl->key_count; i++) crossed(tl->keys[i].time, &s, fn, ctx, i);
}

void ob_events_between(const ob_animation_data *anim, double prev, double next, int loop, ob_key_fn fn, void *ctx)
{
    if (next <= prev || anim->event_count == 0) return;
    cycles s = crossing_span(anim->length, prev, next, loop);
    for (int32_t i = 0; i < anim->event_count; i++)
        if (anim->events[i].event >= 0) crossed(anim->events[i].time, &s, fn, ctx, i);
}

void ob_audio_keys_between(const ob_animation_data *anim, double prev, double next, int loop, ob_key_fn fn,
                           void *ctx)
{
    if (next <= prev || anim->audio_count == 0) return;
    cycles s = crossing_span(anim->length, prev, next, loop);
    for (int32_t i = 0; i < anim->audio_count; i++) crossed(anim->audio[i].time, &s, fn, ctx, i);
}
