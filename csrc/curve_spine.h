/* curve_spine.h: bezier curve kinds for documents imported from skeleton
** JSON 4.2 (Spine / Rigby2D), selected by the top-level "curveMode" field
** (absent ⇒ the OpenBone §4.3 bisection, which these never replace).
**
** Both take the key's normalised handles c = [x1, y1, x2, y2] (endpoints
** (0,0) and (1,1)) and the span fraction t, and return the eased fraction. */
#ifndef OB_CURVE_SPINE_H
#define OB_CURVE_SPINE_H

/* Curve modes (doc->curve_mode). */
enum { OB_CURVE_MODE_OPENBONE = 0, OB_CURVE_MODE_SPINE = 1, OB_CURVE_MODE_EXACT = 2 };

/// "curveMode" value → OB_CURVE_MODE_*; NULL or unknown ⇒ OB_CURVE_MODE_OPENBONE.
int ob_curve_mode_parse(const char *s);

/* Pose models (doc->pose_model, the top-level "poseModel" field): "spine"
** poses as the Spine runtime where OpenBone's rules differ from it, for
** documents imported from skeleton JSON 4.2 (conformance/NOTES.md, issues 9
** and 16): §5.1 a looping animation's local time is total % d (no "+ d"
** rounding); the world transform is spine-core 4.2's: its update cache and
** inherit formulas (skeleton.c), IK apply1/apply2 (ik.c), the transform
** constraint's four modes (transform.c), the path constraint (path.c),
** physics (physics.c), deform keyed per influence (the influenceOffsets
** extension, any document).  Absent or "openbone": the OpenBone rules. */
enum { OB_POSE_MODEL_OPENBONE = 0, OB_POSE_MODEL_SPINE = 1 };

/* spine-core 4.2's MathUtils.PI is the float 3.1415927 (spine-c's 3.14159274f):
** the Spine pose model uses π (obmath.h) instead, ≤ 1.5e-8 relative apart
** (conformance/NOTES.md). */

/// The Spine runtime's curve: the span is sampled once into 9 points by
/// forward differencing (spine-core CurveTimeline.setBezier, 10 straight
/// segments from (0,0) to (1,1)), then t is located among the samples' x and
/// y interpolated linearly (getBezierValue).  Handles whose time leaves the
/// span are sampled as they are, as Spine does (x may be non-monotonic: the
/// first sample with x ≥ t is used).
double ob_curve_spine(const double c[4], double t);

/// The same in two steps: the 9 samples (x0..x8, then y0..y8, then a flag:
/// 1 when x0 ≤ x1 ≤ … ≤ x8, so the look-up may bisect), computed once per
/// key at load, then the look-up; ob_curve_spine(c, t) is exactly
/// ob_curve_spine_sampled(samples of c, t).
#define OB_SPINE_SAMPLES 19
void ob_curve_spine_samples(const double c[4], double s[OB_SPINE_SAMPLES]);
/* inline: the per-frame sampling (timeline.c) calls it once per bezier value */
static inline double ob_curve_spine_sampled(const double s[OB_SPINE_SAMPLES], double t)
{
    const double *xs = s, *ys = s + 9;
    if (s[18] != 0 && !(xs[0] > t)) {
        /* x ascending: the first of x1..x8 with x ≥ t is 1 + the number
        ** of them below t (eight independent compares: no branch to
        ** mispredict, no chain of dependent loads), the same sample the scan
        ** below finds */
        int i = 1 + (xs[1] < t) + (xs[2] < t) + (xs[3] < t) + (xs[4] < t) + (xs[5] < t) + (xs[6] < t) +
                (xs[7] < t) + (xs[8] < t);  /* 1..9; 9: past the last sample */
        double px = xs[i - 1], py = ys[i - 1];
        double x = i < 9 ? xs[i] : 1, y = i < 9 ? ys[i] : 1, span = x - px;
        return span != 0 ? py + (t - px) / span * (y - py) : (i < 9 ? y : 1);
    }
    double px = 0, py = 0;  /* the previous point: the span start (0, 0) */
    for (int i = 0; i < 9; i++) {
        /* getBezierValue: the first sample with x ≥ t (the first one: x > t) */
        if (i == 0 ? xs[0] > t : xs[i] >= t) {
            double span = xs[i] - px;
            return span != 0 ? py + (t - px) / span * (ys[i] - py) : ys[i];
        }
        px = xs[i];
        py = ys[i];
    }
    /* past the 9th sample: towards the next key (1, 1) */
    double span = 1 - px;
    return span != 0 ? py + (t - px) / span * (1 - py) : 1;
}

/// keys (issue 17): the per-frame form of a curve whose samples ascend
/// (s[18] != 0), built at load: the look-up is eight compares two at a time
/// and one segment's py + (t − px)·slope, the slope of each of the ten
/// segments ((0,0) → sample 0 → … → sample 8 → (1,1)) divided once here.
/// Layout: x1..x8, x0, 0, then per segment i = 0..9 (px, py, slope); a
/// segment of zero width holds its end value (py = its end y, slope 0), as
/// ob_curve_spine_sampled does.  Equal to ob_curve_spine_sampled to rounding
/// (≤ a few ulp: (t − px)·(Δy/Δx) for (t − px)/Δx·Δy), tests/c/test_curve_spine.c.
#define OB_SPINE_FAST 40
/// Returns 0 (f unusable) when the samples do not ascend or a slope is not finite.
int ob_curve_spine_fast(const double s[OB_SPINE_SAMPLES], double f[OB_SPINE_FAST]);

/// The same form for a linear key (returns t) and a stepped one (returns +0).
extern const double ob_curve_fast_linear[OB_SPINE_FAST];
extern const double ob_curve_fast_hold[OB_SPINE_FAST];

typedef double ob_cs_v2d __attribute__((vector_size(16)));
typedef long long ob_cs_v2l __attribute__((vector_size(16)));

static inline double ob_curve_spine_fast_eval(const double f[OB_SPINE_FAST], double t)
{
    ob_cs_v2d x12, x34, x56, x78, tt = {t, t};
    __builtin_memcpy(&x12, f, sizeof x12);
    __builtin_memcpy(&x34, f + 2, sizeof x34);
    __builtin_memcpy(&x56, f + 4, sizeof x56);
    __builtin_memcpy(&x78, f + 6, sizeof x78);
    /* each compare is −1 where x < t: the first sample with x ≥ t */
    ob_cs_v2l below = (x12 < tt) + (x34 < tt) + (x56 < tt) + (x78 < tt);
    int i = (f[8] <= t) - (int)(below[0] + below[1]);  /* 0 when t < x0 (then every x > t) */
    const double *seg = f + 10 + 3 * i;
    return seg[1] + (t - seg[0]) * seg[2];
}

/// rigby2d "solve x(t), then y": x handles are clamped to [0, 1] (so x(s) is
/// monotonic and the solution unique), x(s) = t is solved by bisection to
/// machine precision, and y(s) returned (not clamped).
double ob_curve_exact(const double c[4], double t);

#endif
