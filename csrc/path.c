/* path.c: §7.3 applyPath: core/path.ts buildSpline (knots, segments, the
** 32-step arc-length table), sample, and the bone placement; under the Spine
** pose model spine-core 4.2's PathConstraint (the behaviour reference:
** spine-runtimes 4.2, spine-ts/spine-core/src/PathConstraint.ts update and
** computeWorldPositions; our own code). */
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "attachment_vertices.h"
#include "constraints.h"
#include "curve_spine.h"

#define OB_PATH_STEPS 32

typedef struct spline {
    const double *v;             /* world vertices, 6 numbers per knot */
    int32_t knots, segs;
    const double *table;         /* segs·32 + 1 cumulative lengths */
    double length;
    int closed, constant_speed;
} spline;

void ob_path_scratch_size(const ob_document *doc, int32_t *max_vertices, int32_t *max_bones)
{
    int32_t nv = 0, nb = 0;
    for (int32_t i = 0; i < doc->attachment_count; i++)
        if (doc->attachments[i].type == OB_ATT_PATH && doc->attachments[i].vertex_count > nv)
            nv = doc->attachments[i].vertex_count;
    for (int32_t i = 0; i < doc->constraint_count; i++)
        if (doc->constraints[i].kind == OB_CON_PATH && doc->constraints[i].bone_count > nb)
            nb = doc->constraints[i].bone_count;
    *max_vertices = nv;
    *max_bones = nb;
}

/* §7.3 segment s = anchor(s), out-handle(s), in-handle(s+1), anchor(s+1), index (s+1) % knots */
static void seg_points(const spline *sp, int32_t s, double q[8])
{
    const double *v = sp->v;
    int32_t n = (s + 1) % sp->knots;
    q[0] = v[6 * s + 2]; q[1] = v[6 * s + 3];
    q[2] = v[6 * s + 4]; q[3] = v[6 * s + 5];
    q[4] = v[6 * n + 0]; q[5] = v[6 * n + 1];
    q[6] = v[6 * n + 2]; q[7] = v[6 * n + 3];
}

/* cubic bezier position */
static void bezier(const double q[8], double t, double *x, double *y)
{
    double u = 1 - t;
    double b0 = u * u * u, b1 = 3 * u * u * t, b2 = 3 * u * t * t, b3 = t * t * t;
    *x = b0 * q[0] + b1 * q[2] + b2 * q[4] + b3 * q[6];
    *y = b0 * q[1] + b1 * q[3] + b2 * q[5] + b3 * q[7];
}

/* The weights bezier() uses at t = j/32, j = 0..32, computed by the same
** expressions: with t = j/32 and u = (32 − j)/32 every product is an exact
** dyadic rational (numerators below 2^17), so the table holds exactly the
** values bezier() would compute and the sums below round alike. */
void ob_path_basis(double basis[4][34])
{
    for (int j = 0; j < 34; j++) {
        double t = (double)j / OB_PATH_STEPS, u = 1 - t, on = j <= OB_PATH_STEPS;
        basis[0][j] = on * (u * u * u);  /* one spare column (0), so the loops run pairs */
        basis[1][j] = on * (3 * u * u * t);
        basis[2][j] = on * (3 * u * t * t);
        basis[3][j] = on * (t * t * t);
    }
}

/* §7.3 point: position and tangent angle at (seg, t) */
static ob_path_point point(const spline *sp, int32_t seg, double t)
{
    double q[8];
    seg_points(sp, seg, q);
    ob_path_point r;
    bezier(q, t, &r.x, &r.y);
    double u = 1 - t;
    /* derivative: 3u²(P1 − P0) + 6ut(P2 − P1) + 3t²(P3 − P2) */
    double tx = 3 * u * u * (q[2] - q[0]) + 6 * u * t * (q[4] - q[2]) + 3 * t * t * (q[6] - q[4]);
    double ty = 3 * u * u * (q[3] - q[1]) + 6 * u * t * (q[5] - q[3]) + 3 * t * t * (q[7] - q[5]);
    if (tx * tx + ty * ty < 1e-12) {
        /* the difference across t ± 1e-3 (clamped) */
        double x0, y0, x1, y1;
        bezier(q, t - 1e-3 < 0 ? 0 : t - 1e-3, &x0, &y0);
        bezier(q, t + 1e-3 > 1 ? 1 : t + 1e-3, &x1, &y1);
        tx = x1 - x0;
        ty = y1 - y0;
        if (tx * tx + ty * ty < 1e-18) {  /* the chord anchor → anchor */
            tx = q[6] - q[0];
            ty = q[7] - q[1];
        }
    }
    r.tx = tx;
    r.ty = ty;  /* the angle is ob_atan2(ty, tx) */
    return r;
}

/* §7.3 sample(dist) */
static ob_path_point sample(const spline *sp, double dist, int32_t *hint)
{
    if (sp->segs == 0) return (ob_path_point){sp->v[2], sp->v[3], 1, 0};  /* angle 0 */
    double L = sp->length;
    const double *T = sp->table;
    int32_t n = sp->segs * OB_PATH_STEPS;
    if (sp->closed) {
        dist = ob_mod_pos(dist, L);  /* ((dist % L) + L) % L */
    } else if (dist <= 0 || dist >= L) {
        /* straight extension along the end tangent */
        ob_path_point p = dist <= 0 ? point(sp, 0, 0) : point(sp, sp->segs - 1, 1);
        double e = dist <= 0 ? dist : dist - L, angle = ob_atan2(p.ty, p.tx);
        p.x += ob_cos(angle) * e;
        p.y += ob_sin(angle) * e;
        return p;
    }
    if (!sp->constant_speed) {
        /* constantSpeed === false: the raw bezier parameter inside the segment */
        int32_t seg = 0;
        while (!(seg == sp->segs - 1 || T[(seg + 1) * OB_PATH_STEPS] > dist)) seg++;
        double start = T[seg * OB_PATH_STEPS], span = T[(seg + 1) * OB_PATH_STEPS] - start;
        double t = span > 0 ? (dist - start) / span : 0;
        return point(sp, seg, t < 1 ? t : 1);
    }
    /* binary search: the last entry ≤ dist */
    int32_t lo = 0, h = *hint;
    if (isfinite(L)) {
        /* finite lengths: T ascends, so the entry is unique.  The bones'
        ** distances mostly ascend too: walk on from the last sample's entry
        ** (a few steps), else search without branches to mispredict. */
        if (h >= 0 && h < n && T[h] <= dist) {
            int32_t end = h + 64 < n ? h + 64 : n;
            while (h < end && T[h + 1] <= dist) h++;
        } else {
            h = -1;
        }
        if (h >= 0 && (h == n || !(T[h + 1] <= dist))) {
            lo = h;
        } else {
            const double *base = T;
            for (int32_t len = n + 1; len > 1; len -= len / 2)
                base = base[len / 2] <= dist ? base + len / 2 : base;
            lo = (int32_t)(base - T);
        }
        *hint = lo;
    } else {
        int32_t hi = n;
        while (lo < hi) {
            int32_t mid = lo + (hi - lo + 1) / 2;
            if (T[mid] <= dist) lo = mid;
            else hi = mid - 1;
        }
    }
    if (lo >= n) lo = n - 1;
    double span = T[lo + 1] - T[lo];
    double f = span != 0 ? (dist - T[lo]) / span : 0;
    int32_t seg = lo / OB_PATH_STEPS;
    if (seg > sp->segs - 1) seg = sp->segs - 1;
    double t = (lo - seg * OB_PATH_STEPS + f) / OB_PATH_STEPS;
    return point(sp, seg, t < 1 ? t : 1);
}

void ob_apply_path(ob_instance *inst, int32_t c)
{
    const ob_document *doc = inst->doc;
    const ob_constraint_data *cd = &doc->constraints[c];
    ob_constraint_state *st = inst->cons;
    const double *v = &inst->con_values[(size_t)c * OB_CV_COUNT];
    double mix_rotate = v[OB_CV_MIX_ROTATE], mix_x = v[OB_CV_MIX_X], mix_y = v[OB_CV_MIX_Y];
    if ((mix_rotate <= 0 && mix_x <= 0 && mix_y <= 0) || cd->target < 0) return;
    int32_t slot = cd->target;
    int32_t ai = ob_skeleton_get_attachment(inst, slot, inst->slot_attachment[slot]);
    if (ai < 0 || doc->attachments[ai].type != OB_ATT_PATH) return;
    const ob_attachment *att = &doc->attachments[ai];
    ob_bones_flush(inst);  /* the path's vertices read any bone's world */

    /* §7.3 spline from the float32 world vertices (§8.3) */
    int32_t nv = ob_attachment_world_vertices(inst, slot, att, st->path_world);
    for (int32_t i = 0; i < 2 * nv; i++) st->path_vertices[i] = st->path_world[i];
    spline sp = {st->path_vertices, (2 * nv) / 6, 0, st->path_table, 0, att->closed,
                 att->constant_speed};
    sp.segs = sp.knots < 2 ? 0 : sp.closed ? sp.knots : sp.knots - 1;
    /* §7.3 arc-length table: 32 uniform parameter steps per segment */
    st->path_table[0] = 0;
    const double *B0 = st->path_basis[0], *B1 = st->path_basis[1], *B2 = st->path_basis[2],
                 *B3 = st->path_basis[3];
    for (int32_t s = 0; s < sp.segs; s++) {
        double q[8], xs[34], ys[34];
        seg_points(&sp, s, q);
        const double q0 = q[0], q1 = q[1], q2 = q[2], q3 = q[3], q4 = q[4], q5 = q[5], q6 = q[6], q7 = q[7];
        for (int32_t j = 0; j < 34; j++)  /* bezier(q, j/32), term by term (j = 33: unused) */
            xs[j] = B0[j] * q0 + B1[j] * q2 + B2[j] * q4 + B3[j] * q6;
        for (int32_t j = 0; j < 34; j++)
            ys[j] = B0[j] * q1 + B1[j] * q3 + B2[j] * q5 + B3[j] * q7;
        double len[OB_PATH_STEPS], *T = st->path_table + s * OB_PATH_STEPS;
        for (int32_t j = 0; j < OB_PATH_STEPS; j++) {  /* independent: vectorisable */
            double dx = xs[j + 1] - xs[j], dy = ys[j + 1] - ys[j];  /* sqrt, not hypot: 4× faster, within 1 ulp */
            len[j] = sqrt(dx * dx + dy * dy);
        }
        for (int32_t j = 1; j <= OB_PATH_STEPS; j++) T[j] = T[j - 1] + len[j - 1];
    }
    double L = sp.segs > 0 ? st->path_table[sp.segs * OB_PATH_STEPS] : 0;
    sp.length = L;
    if (L <= 1e-9) return;

    /* §7.3 placement */
    int32_t n = 0;
    for (int32_t k = 0; k < cd->bone_count; k++)
        if (cd->bones[k] >= 0) st->path_bones[n++] = cd->bones[k];
    double sum = 0;
    for (int32_t i = 0; i < n; i++) {
        int32_t b = st->path_bones[i];
        st->path_lengths[i] = doc->bones[b].length * ob_world_scale_x(inst->world[b]);
        sum += st->path_lengths[i];
    }
    double spacing = v[OB_CV_SPACING];
    st->path_dist[0] = cd->position_mode == OB_POS_PERCENT ? v[OB_CV_POSITION] * L : v[OB_CV_POSITION];
    for (int32_t i = 0; i < n; i++) {
        double gap;
        switch (cd->spacing_mode) {
        case OB_SPACE_FIXED: gap = spacing; break;
        case OB_SPACE_PERCENT: gap = spacing * L; break;
        case OB_SPACE_PROPORTIONAL: gap = spacing * L * (sum > 0 ? st->path_lengths[i] / sum : 1.0 / n); break;
        default: gap = st->path_lengths[i] + spacing; break;
        }
        st->path_dist[i + 1] = st->path_dist[i] + gap;
    }
    int32_t hint = -1;
    for (int32_t i = 0; i <= n; i++) st->path_points[i] = sample(&sp, st->path_dist[i], &hint); /* all before any bone moves */
    for (int32_t i = 0; i < n; i++) {
        int32_t b = st->path_bones[i];
        ob_bone_fresh(inst, b);  /* moved with an earlier bone of the chain */
        ob_bone_edit(inst, b);
        ob_mat *w = &inst->world[b];
        const ob_path_point *pt = &st->path_points[i];
        w->x += (pt->x - w->x) * mix_x;
        w->y += (pt->y - w->y) * mix_y;
        if (mix_rotate > 0) {
            double ang;
            double dx = st->path_points[i + 1].x - w->x, dy = st->path_points[i + 1].y - w->y;
            double d = cd->rotate_mode != OB_ROT_TANGENT ? hypot(dx, dy) : 0;
            if (!(d > 1e-6)) {
                ang = ob_atan2(pt->ty, pt->tx);  /* tangent, or a chain too short to aim along */
            } else {
                ang = ob_atan2(dy, dx);
                if (cd->rotate_mode == OB_ROT_CHAIN_SCALE && st->path_lengths[i] > 1e-6) {
                    double k = 1 + (d / st->path_lengths[i] - 1) * mix_rotate;
                    w->a *= k;
                    w->c *= k;
                }
            }
            ob_rotate_axes(w, ob_wrap_deg((ang + cd->offset_rotation * OB_DEG) * OB_RAD - ob_world_rotation(*w)) *
                                  mix_rotate * OB_DEG);
        }
        ob_bone_sync_applied(inst, b);  /* §3.2: world edited directly */
        ob_bone_update_subtree(inst, b, 0);
    }
}

/* ---- the Spine pose model ---------------------------------------------- */

/* spine-core 4.2 addBeforePosition / addAfterPosition: on the line through
** the path's first two points t[0..3] (last two), from the first (last) */
static void spine_add_before(double p, const double *t, double *out)
{
    double r = ob_atan2(t[3] - t[1], t[2] - t[0]);
    out[0] = t[0] + p * ob_cos(r);
    out[1] = t[1] + p * ob_sin(r);
    out[2] = r;
}

static void spine_add_after(double p, const double *t, double *out)
{
    double r = ob_atan2(t[3] - t[1], t[2] - t[0]);
    out[0] = t[2] + p * ob_cos(r);
    out[1] = t[3] + p * ob_sin(r);
    out[2] = r;
}

/* issue 17 (ik): a point's x and y in the two lanes of one vector: each
** lane does the scalar expression's operations in its order (IEEE, lane by
** lane), so the bits are the scalar form's; squares summed lane 0 + lane 1 */
static inline ob_v2d v2_at(const double *p) { return ob_v2_load(p); }
static inline double v2_norm2(ob_v2d d)
{
    ob_v2d s = d * d;
    return s[0] + s[1];
}

/* spine-core 4.2 addCurvePosition: the cubic at p, and its tangent angle
** (from the point a third of the way) when asked */
__attribute__((always_inline)) static inline void spine_add_curve(double p, const double q[8], double *out, int tangents)
{
    double x1 = q[0], y1 = q[1], cx1 = q[2], cy1 = q[3];
    if (p == 0 || isnan(p)) {
        out[0] = x1;
        out[1] = y1;
        out[2] = ob_atan2(cy1 - y1, cx1 - x1);
        return;
    }
    double tt = p * p, ttt = tt * p, u = 1 - p, uu = u * u, uuu = uu * u;
    double ut = u * p, ut3 = ut * 3, uut3 = u * ut3, utt3 = ut3 * p;
    /* issue 17 (ik): x and y in the lanes of one vector (v2_at) */
    ob_v2d P1 = v2_at(q), C1 = v2_at(q + 2), C2 = v2_at(q + 4), P2 = v2_at(q + 6);
    ob_v2d xy = P1 * uuu + C1 * uut3 + C2 * utt3 + P2 * ttt;
    out[0] = xy[0];
    out[1] = xy[1];
    if (tangents) {
        if (p < 0.001) out[2] = ob_atan2(cy1 - y1, cx1 - x1);
        else {
            ob_v2d d = xy - (P1 * uu + C1 * ut * 2.0 + C2 * tt);
            out[2] = ob_atan2(d[1], d[0]);
        }
    }
}

/* The curve holding p (lengths cumulative, p ≤ the last): p becomes the
** fraction inside it.  spine-core's scan, from *curve on. */
static int32_t spine_find(const double *lengths, int32_t n, double *p, int32_t curve)
{
    for (;; curve++) {
        double length = lengths[curve];
        if (*p > length && curve < n - 1) continue;  /* (n − 1: NaN and rounding stay in range) */
        if (curve == 0) *p /= length;
        else {
            double prev = lengths[curve - 1];
            *p = (*p - prev) / (length - prev);
        }
        return curve;
    }
}

/* two square roots in one instruction where the target has one (both are
** IEEE's correctly rounded sqrt, so the bits are the scalar calls') */
static inline ob_v2d v2_sqrt(ob_v2d v)
{
#if defined(__SSE2__)
    return (ob_v2d)_mm_sqrt_pd((__m128d)v);
#else
    return (ob_v2d){sqrt(v[0]), sqrt(v[1])};
#endif
}

/* spine-core 4.2's forward differences of the cubic q over n equal steps
** (k1, k2, k3 = 3/n, 3/n², 6/n³ as spine-core writes them; n even, ≤ 10):
** the chord lengths summed on from start, each partial sum into
** ends[0..n−1].  issue 17 (ik): the steps' (dfx, dfy) with x and y in the
** lanes of one vector, then the chords two steps at a time (dfx² + dfy² of
** both in the lanes, one sqrt instruction), summed in spine-core's order */
__attribute__((always_inline)) static inline double spine_steps(const double q[8], int n, double k1, double k2, double k3, double start, double *ends)
{
    ob_v2d p1 = v2_at(q), c1 = v2_at(q + 2), c2 = v2_at(q + 4), p2 = v2_at(q + 6);
    ob_v2d tmp = (p1 - c1 * 2.0 + c2) * k2;
    ob_v2d ddd = ((c1 - c2) * 3.0 - p1 + p2) * k3;
    ob_v2d dd = tmp * 2.0 + ddd;
    ob_v2d df = (c1 - p1) * k1 + tmp + ddd * 0.16666667, D[10];
    D[0] = df;
#pragma GCC unroll 10
    for (int i = 1; i < n - 2; i++) {
        df += dd;
        dd += ddd;
        D[i] = df;
    }
    df += dd;
    D[n - 2] = df;
    df += dd + ddd;
    D[n - 1] = df;
    double len = start;
#pragma GCC unroll 5
    for (int i = 0; i < n; i += 2) {
        ob_v2d x = {D[i][0], D[i + 1][0]}, y = {D[i][1], D[i + 1][1]};
        ob_v2d r = v2_sqrt(x * x + y * y);
        len += r[0];
        ends[i] = len;
        len += r[1];
        ends[i + 1] = len;
    }
    return len;
}

/* A position on the path: wrapped into [0, length) when closed; else −1
** before the start, 1 past the end, 0 on it */
__attribute__((always_inline)) static inline int spine_where(double *p, double path_length, int closed)
{
    if (closed) {
        /* issue 17: fmod's exact result without the call where it is known:
        ** p itself on (−L, L), p − L on [L, 2L) (exact: Sterbenz); on [2L, 4L)
        ** p − 2L (exact: Sterbenz on 2L), less L when still ≥ L (exact) */
        double q = *p;
        if (q >= path_length && q < 2 * path_length) q -= path_length;
        else if (q >= 2 * path_length && q < 4 * path_length) {
            q -= 2 * path_length;
            if (q >= path_length) q -= path_length;
        } else if (!(q > -path_length && q < path_length)) q = fmod(q, path_length);
        if (q < 0) q += path_length;
        *p = q;
        return 0;
    }
    return *p < 0 ? -1 : *p > path_length ? 1 : 0;
}

static double spine_multiplier(const ob_constraint_data *cd, double path_length, int32_t spaces_count)
{
    switch (cd->spacing_mode) {
    case OB_SPACE_PERCENT: return path_length;
    case OB_SPACE_PROPORTIONAL: return path_length / spaces_count;
    default: return 1;
    }
}

/* spine-core 4.2 computeWorldPositions, constantSpeed false: positions by
** the attachment's stored curve lengths and the raw bezier parameter.
** V: every world vertex of the path (doubles). */
static void spine_positions_raw(const ob_constraint_data *cd, const ob_attachment *att, const double *V,
                                double position, const double *spaces, int32_t spaces_count, int tangents,
                                double *out)
{
    int32_t vl = 2 * att->vertex_count, curve_count = vl / 6 - (att->closed ? 1 : 2);
    const double *lengths = att->lengths;
    double path_length = lengths[curve_count];
    if (cd->position_mode == OB_POS_PERCENT) position *= path_length;
    double multiplier = spine_multiplier(cd, path_length, spaces_count);
    for (int32_t i = 0, o = 0, curve = 0; i < spaces_count; i++, o += 3) {
        double space = spaces[i] * multiplier;
        position += space;
        double p = position;
        int where = spine_where(&p, path_length, att->closed);
        if (where < 0) {
            spine_add_before(p, V + 2, out + o);
            continue;
        } else if (where > 0) {
            spine_add_after(p - path_length, V + vl - 6, out + o);
            continue;
        }
        if (att->closed) curve = 0;
        curve = spine_find(lengths, curve_count + 1, &p, curve);
        double q[8];
        if (att->closed && curve == curve_count) {
            for (int j = 0; j < 4; j++) q[j] = V[vl - 4 + j];
            for (int j = 0; j < 4; j++) q[4 + j] = V[j];
        } else {
            for (int j = 0; j < 8; j++) q[j] = V[curve * 6 + 2 + j];
        }
        spine_add_curve(p, q, out + o, tangents || (i > 0 && space == 0));
    }
}

/* spine-core 4.2 computeWorldPositions, constantSpeed: curve lengths by
** forward differences (4 steps per curve, the path length their sum), then
** in the curve holding a position a 10-step segment table. */
static void spine_positions(ob_instance *inst, const ob_constraint_data *cd, const ob_attachment *att,
                            double *world, double position, const double *spaces, int32_t spaces_count,
                            int tangents, double *out)
{
    int32_t vl = 2 * att->vertex_count, curve_count = vl / 6;
    if (att->closed) {  /* world: the vertices from the first curve's start, then its first point again */
        double v0 = world[0], v1 = world[1];
        memmove(world, world + 2, (size_t)(vl - 2) * sizeof *world);
        world[vl - 2] = v0;
        world[vl - 1] = v1;
        world[vl] = world[0];
        world[vl + 1] = world[1];
        vl += 2;
    } else {
        curve_count--;
        vl -= 4;
        world += 2;
    }
    double *curves = inst->cons->path_table, path_length = 0, ends[4];
    for (int32_t i = 0; i < curve_count; i++) {  /* 4 steps a curve, summed on from the last */
        path_length = spine_steps(world + 6 * i, 4, 0.75, 0.1875, 0.09375, path_length, ends);
        curves[i] = path_length;
    }
    if (cd->position_mode == OB_POS_PERCENT) position *= path_length;
    double multiplier = spine_multiplier(cd, path_length, spaces_count);
    double segments[10], curve_length = 0;
    const double *q = world;  /* the curve's 8 values, in world (not moved below) */
    int32_t prev_curve = -1;
    for (int32_t i = 0, o = 0, curve = 0, segment = 0; i < spaces_count; i++, o += 3) {
        double space = spaces[i] * multiplier;
        position += space;
        double p = position;
        int where = spine_where(&p, path_length, att->closed);
        if (where < 0) {
            spine_add_before(p, world, out + o);
            continue;
        } else if (where > 0) {
            spine_add_after(p - path_length, world + vl - 4, out + o);
            continue;
        }
        /* a closed path scans from the first curve (positions wrap); from the
        ** last one found instead when p is past the curve before it (the
        ** lengths ascend: the scan would pass over those), the same curve */
        if (att->closed && !(curve > 0 && p > curves[curve - 1])) curve = 0;
        curve = spine_find(curves, curve_count, &p, curve);
        if (curve != prev_curve) {  /* the curve's segment lengths, 10 forward-difference steps */
            prev_curve = curve;
            q = world + curve * 6;
            curve_length = spine_steps(q, 10, 0.3, 0.03, 0.006, 0, segments);
            segment = 0;
        }
        /* weight by segment length */
        p *= curve_length;
        for (;; segment++) {
            double length = segments[segment];
            if (p > length && segment < 9) continue;
            if (segment == 0) p /= length;
            else {
                double prev = segments[segment - 1];
                p = segment + (p - prev) / (length - prev);
            }
            break;
        }
        spine_add_curve(p * 0.1, q, out + o, tangents || (i > 0 && space == 0));
    }
}

/* spine-core 4.2 PathConstraint.update */
void ob_apply_path_spine(ob_instance *inst, int32_t c)
{
    const ob_document *doc = inst->doc;
    const ob_constraint_data *cd = &doc->constraints[c];
    ob_constraint_state *st = inst->cons;
    const double *v = &inst->con_values[(size_t)c * OB_CV_COUNT];
    double mix_rotate = v[OB_CV_MIX_ROTATE], mix_x = v[OB_CV_MIX_X], mix_y = v[OB_CV_MIX_Y];
    if (cd->target < 0) return;
    int32_t slot = cd->target;
    int32_t ai = ob_skeleton_get_attachment(inst, slot, inst->slot_attachment[slot]);
    if (ai < 0 || doc->attachments[ai].type != OB_ATT_PATH) return;
    const ob_attachment *att = &doc->attachments[ai];
    if (mix_rotate == 0 && mix_x == 0 && mix_y == 0) return;
    if (att->vertex_count < (att->closed ? 3 : 6)) return;  /* no curve (spine-core would read past the end) */
    int tangents = cd->rotate_mode == OB_ROT_TANGENT, scale = cd->rotate_mode == OB_ROT_CHAIN_SCALE;
    /* the existing listed bones and their places in the list, found at creation (issue 17 (ik)) */
    const int32_t *path_bones = st->path_list + st->path_list_off[c];
    const int32_t *path_bone_k = st->path_list_k + st->path_list_off[c];
    int32_t n = st->path_list_n[c];
    int32_t spaces_count = tangents ? n : n + 1;
    double *spaces = st->path_dist, *lengths = st->path_lengths, spacing = v[OB_CV_SPACING];
    /* spaces[i + 1] after bone i, from its world length setupLength·|X| (lengths, for chainScale):
    ** percent: spacing; length: (setupLength + spacing)·length / setupLength; fixed:
    ** spacing·length / setupLength; proportional: length, then scaled to spacing·count / Σ;
    ** a bone shorter than spine-core's epsilon gets spacing (and length 0), except in percent */
    int length_spacing = cd->spacing_mode == OB_SPACE_LENGTH;
    double sum = 0;
    spaces[0] = 0;
    for (int32_t i = 0; i < spaces_count - 1; i++) {
        const ob_mat *w = &inst->world[path_bones[i]];
        double setup_length = doc->bones[path_bones[i]].length;
        double x = setup_length * w->a, y = setup_length * w->c, length = sqrt(x * x + y * y);
        if (cd->spacing_mode == OB_SPACE_PERCENT) {
            lengths[i] = length;
            spaces[i + 1] = spacing;
        } else if (setup_length < 0.00001) {
            lengths[i] = 0;
            spaces[i + 1] = spacing;
        } else if (cd->spacing_mode == OB_SPACE_PROPORTIONAL) {
            lengths[i] = length;
            spaces[i + 1] = length;
            sum += length;
        } else {
            lengths[i] = length;
            spaces[i + 1] = (length_spacing ? setup_length + spacing : spacing) * length / setup_length;
        }
    }
    if (cd->spacing_mode == OB_SPACE_PROPORTIONAL && sum > 0) {
        sum = spaces_count / sum * spacing;
        for (int32_t i = 1; i < spaces_count; i++) spaces[i] *= sum;
    }

    double *positions = st->spine_positions, *world = st->path_vertices;
    ob_attachment_world_vertices_d(inst, slot, att, world);
    int raw = !att->constant_speed && att->length_count >= att->vertex_count / 3 - (att->closed ? 0 : 1);
    if (raw) spine_positions_raw(cd, att, world, v[OB_CV_POSITION], spaces, spaces_count, tangents, positions);
    else spine_positions(inst, cd, att, world, v[OB_CV_POSITION], spaces, spaces_count, tangents, positions);

    double bone_x = positions[0], bone_y = positions[1], offset_rotation = cd->offset_rotation;
    int tip;
    if (offset_rotation == 0) {
        tip = cd->rotate_mode == OB_ROT_CHAIN;
    } else {
        tip = 0;
        const ob_mat *p = &inst->world[doc->slots[slot].bone];
        offset_rotation *= p->a * p->d - p->b * p->c > 0 ? OB_DEG : -OB_DEG;
    }
    /* issue 17: the bones in passes, the trig of independent angles four
    ** lanes per call.  Only the chain mode links the bones (each starts at
    ** the previous one's rotated tip), and only through its start: its
    ** angles from the path (r = G − atan2(c, a), G a path angle) come first,
    ** with their sin/cos.  On the chain, with r = θ − o, θ = atan2(dy, dx),
    ** o = atan2(c, a): the tip length·(cos r·a − sin r·c, sin r·a + cos r·c)
    ** is length·|(a, c)|/|(dx, dy)|·(dx, dy), and at mix 1 the rotation's
    ** cos r, sin r are (dx·a + dy·c, dy·a − dx·c)/(|(dx, dy)|·|(a, c)|)
    ** (turned by the offset's, a sin/cos per constraint): the same vectors
    ** without trig, to a few ulp (the trig form where a norm is 0 or huge).
    ** Then the atan2 and sin/cos that remain, the rotations. */
    size_t stride = (size_t)n + 4;
    double *TY = st->path_trig, *TX = TY + stride, *TH = TX + stride, *OY = TH + stride, *OX = OY + stride;
    double *OWN = OX + stride, *G = OWN + stride, *S1 = G + stride, *C1 = S1 + stride, *ANG = C1 + stride;
    double *S2 = ANG + stride, *C2 = S2 + stride;
    /* kind: 0 r = θ − o, 1 r = G − o, 2 r = G, 3 no rotation, 4 cos r, sin r in C1, S1 */
    uint8_t *kind = st->path_kind;
    int rotate = mix_rotate > 0, exact_mix = mix_rotate == 1;
    double off_s = 0, off_c = 1;
    if (rotate && exact_mix && !tip && offset_rotation != 0) ob_sincos(offset_rotation, &off_s, &off_c);
    /* a bone listed twice must see its first rotation: then one bone per run */
    int32_t run = st->path_unique[c] ? n : 1;
    for (int32_t i0 = 0, i1; i0 < n; i0 = i1) {
        i1 = i0 + run;
        int any_path_angle = 0, any_trig = 0;
        /* issue 17 (ik): the atan2 inputs OY, OX (the bone's X axis) and TY, TX
        ** (toward the next point) are filled only where a call reads them: the
        ** path angles' before the bones move, the rest after (any_trig) */
        for (int32_t i = i0; i < i1; i++) {
            if (!rotate) kind[i] = 3;
            else if (tangents || spaces[i + 1] == 0) {
                kind[i] = 1;
                G[i] = positions[tangents ? 3 * i + 2 : 3 * i + 5];
                any_path_angle = 1;
            } else kind[i] = 0;
        }
        for (int32_t j = i1; j < i1 + 3; j++) OY[j] = 0, OX[j] = 1, TY[j] = 0, TX[j] = 1, ANG[j] = 0;
        if (tip && any_path_angle) {
            for (int32_t i = i0; i < i1; i++) {
                const ob_mat *w = &inst->world[path_bones[i]];
                OY[i] = w->c;
                OX[i] = w->a;
            }
            ob_atan2_pairs(OY + i0, OX + i0, OWN + i0, i1 - i0);
            for (int32_t i = i0; i < i1; i++) ANG[i] = kind[i] == 1 ? G[i] - OWN[i] : 0;
            ob_sincos_pairs(ANG + i0, S1 + i0, C1 + i0, i1 - i0);
        }
        for (int32_t i = i0, p = 3 + 3 * i0; i < i1; i++, p += 3) {
            int32_t b = path_bones[i];
            ob_mat *w = &inst->world[b];
            w->x += (bone_x - w->x) * mix_x;
            w->y += (bone_y - w->y) * mix_y;
            double x = positions[p], y = positions[p + 1], dx = x - bone_x, dy = y - bone_y;
            if (scale) {
                double length = lengths[i];
                if (length != 0) {
                    double s = (sqrt(dx * dx + dy * dy) / length - 1) * mix_rotate + 1;
                    w->a *= s;
                    w->c *= s;
                }
            }
            bone_x = x;
            bone_y = y;
            if (kind[i] == 3) continue;
            double a = w->a, cc = w->c, cs, sn;
            if (kind[i] == 0) {
                TY[i] = dy;
                TX[i] = dx;
                double h2 = dx * dx + dy * dy, ac2 = a * a + cc * cc;
                if (h2 > 1e-300 && h2 < 1e300 && ac2 > 1e-300 && ac2 < 1e300) {
                    double h = sqrt(h2), na = sqrt(ac2);
                    if (exact_mix) {
                        double q = h * na;
                        cs = (dx * a + dy * cc) / q;
                        sn = (dy * a - dx * cc) / q;
                        C1[i] = cs * off_c - sn * off_s;
                        S1[i] = sn * off_c + cs * off_s;
                        kind[i] = 4;
                    } else {
                        any_trig = 1;
                    }
                    if (tip) {
                        double k = na / h, length = doc->bones[b].length;
                        bone_x += (length * (k * dx) - dx) * mix_rotate;
                        bone_y += (length * (k * dy) - dy) * mix_rotate;
                    }
                    continue;
                }
                if (!tip) {
                    any_trig = 1;
                    continue;
                }
                double r, own;  /* the trig form */
                ob_atan2_2(dy, dx, cc, a, &r, &own);
                r -= own;
                ob_sincos(r, &sn, &cs);
                kind[i] = 2;
                G[i] = r;
            } else {  /* a path angle */
                any_trig = 1;
                if (!tip) continue;
                cs = C1[i];
                sn = S1[i];
            }
            any_trig = 1;
            double length = doc->bones[b].length;
            double tx, ty;  /* (a, cc) turned */
            ob_turn(cs, sn, a, cc, &tx, &ty);
            bone_x += (length * tx - dx) * mix_rotate;
            bone_y += (length * ty - dy) * mix_rotate;
        }
        if (any_trig) {
            for (int32_t i = i0; i < i1; i++) {  /* the X axes scaled, not yet turned; TY, TX set for kind 0 */
                const ob_mat *w = &inst->world[path_bones[i]];
                OY[i] = w->c;
                OX[i] = w->a;
                if (kind[i] == 1 || kind[i] == 3) TY[i] = 0, TX[i] = 1;  /* (lanes not used: atan2(0, 1)) */
            }
            ob_atan2_pairs(TY + i0, TX + i0, TH + i0, i1 - i0);
            ob_atan2_pairs(OY + i0, OX + i0, OWN + i0, i1 - i0);
            for (int32_t i = i0; i < i1; i++) {
                double r;
                switch (kind[i]) {
                case 0: r = TH[i] - OWN[i]; break;
                case 1: r = G[i] - OWN[i]; break;
                case 2: r = G[i]; break;
                default: r = 0; break;
                }
                if (!tip) r += offset_rotation;
                ANG[i] = ob_wrap_pi(r) * mix_rotate;
            }
            ob_sincos_pairs(ANG + i0, S2 + i0, C2 + i0, i1 - i0);
        }
        for (int32_t i = i0; i < i1; i++) {
            int32_t b = path_bones[i];
            if (kind[i] != 3) {  /* ob_mat_rotate with this sin/cos */
                ob_mat *w = &inst->world[b];
                double a = w->a, bb = w->b, cc = w->c, d = w->d;
                double sn = kind[i] == 4 ? S1[i] : S2[i], cs = kind[i] == 4 ? C1[i] : C2[i];
                w->a = cs * a - sn * cc;
                w->b = cs * bb - sn * d;
                w->c = sn * a + cs * cc;
                w->d = sn * bb + cs * d;
            }
            ob_spine_applied_after(inst, c, path_bone_k[i], b);
        }
    }
}

