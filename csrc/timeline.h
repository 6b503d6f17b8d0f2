/* timeline.h: §4.3 curves, §5 sampling and applyAnimation (with the §5.1a
** mix-out), §5.1 localTime and §5.2 eventsBetween.
**
** Used by the AnimationState (§6), the sliders (§7.5) and the state machine
** (§9.4).  Nothing here allocates: applying writes into the instance's
** buffers, which were sized at creation. */
#ifndef OB_TIMELINE_H
#define OB_TIMELINE_H

#include "instance.h"

/// §4.3 bezier [x1, y1, x2, y2] from (0,0) to (1,1), solved by bisection
/// (24 iterations, first probe s = t, |e| < 1e-6 stops); y is not clamped.
double ob_curve_bezier(double x1, double y1, double x2, double y2, double t);

/// §4.3 evalCurve of one key's curve at span fraction t: linear ⇒ t;
/// bezier ⇒ ob_curve_bezier; stepped ⇒ 0 for t < 1, 1 for t ≥ 1 (sampling
/// itself never calls this for a stepped key: it holds the left key).
double ob_curve_eval(ob_curve_kind kind, const double c[4], double t);

/// §5.1 localTime(anim, total, loop) with d = anim->length: d ≤ 0 ⇒ 0;
/// loop ⇒ ((total % d) + d) % d; else clamp(total, 0, d).
double ob_animation_local_time(const ob_document *doc, const ob_animation_data *anim, double total, int loop);

/// §5.1a mixOut = {into, alpha}: the animations being faded to (document
/// animation indices, -1 entries ignored) and the outgoing weight.  An empty
/// `into` is valid (every blending timeline then uses `alpha`).
typedef struct ob_mix_out {
    const int32_t *into;
    int32_t into_count;
    double alpha;
} ob_mix_out;

/// Which timelines ob_animation_apply_filtered runs (sliders, §7.5 additive).
enum {
    OB_APPLY_BONES = 1,          /* bone timelines (every bone property, inherit included) */
    OB_APPLY_OTHERS = 2,         /* every other target */
    OB_APPLY_ALL = 3
};

/// §5 applyAnimation(sk, anim, time, alpha, mixOut): applies every timeline of
/// document animation `anim` sampled at local `time` (the caller applies
/// localTime) with weight alpha; mix_out NULL = no mix-out.  Sets
/// inst->animation_time per the §5 rule (alpha ≥ 0.5 or not yet set).
/// A negative or out-of-range anim does nothing.
void ob_animation_apply(ob_instance *inst, int32_t anim, double time, double alpha, const ob_mix_out *mix_out);

/// As ob_animation_apply, restricted to the timelines selected by `which`
/// (OB_APPLY_*).  The animationTime rule applies whatever `which` is.
void ob_animation_apply_filtered(ob_instance *inst, int32_t anim, double time, double alpha,
                                 const ob_mix_out *mix_out, int which);

/// Called once per crossed key with its index in the key array.
typedef void (*ob_key_fn)(void *ctx, int32_t key);

/// Most times one key fires in one call (a looping advance spanning more
/// cycles fires each key for its first OB_MAX_CROSSINGS crossings; NOTES §5.2).
#define OB_MAX_CROSSINGS 100

/// §5.2 eventsBetween: for total (unwrapped) times prev (exclusive) → next
/// (inclusive) calls fn for each crossed event key whose event exists, in key
/// array order, loop cycles ascending per key (d = anim->length); O(1) per key.
void ob_events_between(const ob_animation_data *anim, double prev, double next, int loop, ob_key_fn fn,
                       void *ctx);

/// §5.2 audioKeysBetween: the same rule over anim->audio (every key).
/* The keys of one timeline crossed the same way (the Spine pose model's
** physics reset keys). */
void ob_timeline_keys_between(const ob_animation_data *anim, const ob_timeline *tl, double prev, double next,
                              int loop, ob_key_fn fn, void *ctx);
void ob_audio_keys_between(const ob_animation_data *anim, double prev, double next, int loop, ob_key_fn fn,
                           void *ctx);

#endif
