/* path.c: §7.3 applyPath: core/path.ts buildSpline (knots, segments, the
** 32-step arc-length table), sample, and the bone placement. */
#include "attachment_vertices.h"
#include "constraints.h"

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
    r.ty = ty;  /* the angle is atan2(ty, tx) */
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
        double e = dist <= 0 ? dist : dist - L, angle = atan2(p.ty, p.tx);
        p.x += cos(angle) * e;
        p.y += sin(angle) * e;
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
                ang = atan2(pt->ty, pt->tx);  /* tangent, or a chain too short to aim along */
            } else {
                ang = atan2(dy, dx);
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
