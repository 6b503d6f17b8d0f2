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
double ob_curve_spine_sampled(const double s[OB_SPINE_SAMPLES], double t);

/// rigby2d "solve x(t), then y": x handles are clamped to [0, 1] (so x(s) is
/// monotonic and the solution unique), x(s) = t is solved by bisection to
/// machine precision, and y(s) returned (not clamped).
double ob_curve_exact(const double c[4], double t);

#endif
