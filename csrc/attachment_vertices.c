/* attachment_vertices.c: §8.3 world vertices of mesh, path, boundingBox and
** clipping attachments (float32, deform offsets and weights included). */
#include "attachment_vertices.h"

#include <string.h>

int32_t ob_attachment_world_vertex_count(const ob_attachment *att)
{
    switch (att->type) {
    case OB_ATT_MESH: case OB_ATT_PATH: case OB_ATT_BOUNDING_BOX: case OB_ATT_CLIPPING:
        return att->vertex_count;
    default:
        return 0;
    }
}

const ob_deform *ob_attachment_deform(const ob_instance *inst, int32_t slot,
                                      const ob_attachment *att)
{
    /* §8.3 Deform offsets: for a mesh with linked.deform, slot.deform[linked.mesh]
    ** if present, else slot.deform[own name] */
    const ob_deform *d;
    if (att->type == OB_ATT_MESH && att->linked_mesh >= 0 && att->linked_deform) {
        d = ob_instance_deform(inst, slot, att->linked_mesh);
        if (d && d->count > 0) return d;
    }
    d = ob_instance_deform(inst, slot, att->name_id);
    return d && d->count > 0 ? d : NULL;
}

/* §8.3 the deform offsets a vertex adds: values missing at the end of a
** short array count as 0.  Under the influenceOffsets extension (a weighted
** attachment's deform keyed per influence, as spine-core 4.2 keys it) the
** pair belongs to an influence, indexed over the attachment's flat weights. */
typedef struct offsets { const double *v; int32_t count; int per_influence; } offsets;

static offsets offsets_of(const ob_instance *inst, int32_t slot, const ob_attachment *att)
{
    const ob_deform *d = att->type == OB_ATT_CLIPPING ? NULL : ob_attachment_deform(inst, slot, att);
    return d ? (offsets){d->values, d->count, d->per_influence} : (offsets){NULL, 0, 0};
}

static inline void offset_at(offsets o, int32_t v, double *dx, double *dy)
{
    *dx = 2 * v < o.count ? o.v[2 * v] : 0;
    *dy = 2 * v + 1 < o.count ? o.v[2 * v + 1] : 0;
}

/* One pass for both outputs: float32 (of, the draw list) or doubles (od,
** the Spine pose model's path, which spine-core computes in doubles). */
static int32_t world_vertices(const ob_instance *inst, int32_t slot, const ob_attachment *att, float *of,
                              double *od)
{
    int32_t n = ob_attachment_world_vertex_count(att);
    if (n == 0) return 0;
    const ob_mat *world = inst->world, sb = world[inst->doc->slots[slot].bone];
    offsets off = offsets_of(inst, slot, att);
    if (att->weight_start == NULL || att->type == OB_ATT_CLIPPING) {
        /* §8.3 unweighted: (vx + dx, vy + dy) through the slot bone's world
        ** (per-influence offsets of an unweighted attachment: one per vertex) */
        const double *lv = att->vertices;
        if (of && (off.count == 0 || off.count >= 2 * n)) {
            /* no offsets, or one for every value: the same sums without the
            ** per-value checks, two lanes at a time (issue 17) */
            const double *ov = off.count ? off.v : NULL;
            ob_v2d ma = {sb.a, sb.c}, mb = {sb.b, sb.d}, mx = {sb.x, sb.y};
            for (int32_t v = 0; v < n; v++) {
                ob_v2d p = ob_v2_load(lv + 2 * v) + (ov ? ob_v2_load(ov + 2 * v) : (ob_v2d){0, 0});
                ob_v2d w = ma * (ob_v2d){p[0], p[0]} + mb * (ob_v2d){p[1], p[1]} + mx;
                of[2 * v] = (float)w[0];
                of[2 * v + 1] = (float)w[1];
            }
            return n;
        }
        for (int32_t v = 0; v < n; v++) {
            double dx, dy;  /* added even when 0, as the formula reads (−0 + 0 = 0) */
            offset_at(off, v, &dx, &dy);
            double x = lv[2 * v] + dx, y = lv[2 * v + 1] + dy;
            double wx = sb.a * x + sb.b * y + sb.x, wy = sb.c * x + sb.d * y + sb.y;
            if (od) { od[2 * v] = wx; od[2 * v + 1] = wy; }
            else { of[2 * v] = (float)wx; of[2 * v + 1] = (float)wy; }
        }
        return n;
    }
    /* §8.3 weighted: Σ weight · bone.world·(inf.x + dx, inf.y + dy) */
    const int32_t *ws = att->weight_start;
    const ob_weight *w = att->weights;
    for (int32_t v = 0; v < n; v++) {
        double dx, dy, wx = 0, wy = 0;
        offset_at(off, v, &dx, &dy);
        for (int32_t i = ws[v], e = ws[v + 1]; i < e; i++) {
            const ob_mat *m = w[i].bone >= 0 ? &world[w[i].bone] : &sb;
            if (off.per_influence) offset_at(off, i, &dx, &dy);
            double x = w[i].x + dx, y = w[i].y + dy;
            wx += w[i].weight * (m->a * x + m->b * y + m->x);
            wy += w[i].weight * (m->c * x + m->d * y + m->y);
        }
        if (od) { od[2 * v] = wx; od[2 * v + 1] = wy; }
        else { of[2 * v] = (float)wx; of[2 * v + 1] = (float)wy; }
    }
    return n;
}

int32_t ob_attachment_world_vertices(const ob_instance *inst, int32_t slot,
                                     const ob_attachment *att, float *out)
{
    return world_vertices(inst, slot, att, out, NULL);
}

int32_t ob_attachment_world_vertices_d(const ob_instance *inst, int32_t slot,
                                       const ob_attachment *att, double *out)
{
    return world_vertices(inst, slot, att, NULL, out);
}

void ob_world_pairs(const ob_instance *inst, double *pairs)
{
    for (int32_t i = 0; i < inst->doc->bone_count; i++) {
        const ob_mat *m = &inst->world[i];
        double *p = pairs + 6 * (size_t)i;
        p[0] = m->a; p[1] = m->c; p[2] = m->b; p[3] = m->d; p[4] = m->x; p[5] = m->y;
    }
}

#if defined(__GNUC__) || defined(__clang__)
typedef double ob_v2 __attribute__((vector_size(16)));
static inline ob_v2 v2_load(const double *p) { ob_v2 v; memcpy(&v, p, sizeof v); return v; }
#endif

int32_t ob_attachment_world_vertices_pairs(const ob_instance *inst, int32_t slot, const ob_attachment *att,
                                           const double *pairs, float *out)
{
#if defined(__GNUC__) || defined(__clang__)
    int32_t n = ob_attachment_world_vertex_count(att);
    if (n == 0 || att->weight_start == NULL || att->type == OB_ATT_CLIPPING)
        return ob_attachment_world_vertices(inst, slot, att, out);
    const double *sb = pairs + 6 * (size_t)inst->doc->slots[slot].bone;
    offsets off = offsets_of(inst, slot, att);
    const int32_t *ws = att->weight_start;
    const ob_weight *w = att->weights;
    if (off.count == 0) {
        /* no offsets (dx = dy = 0, still added as the formula reads): the
        ** loop without the per-influence checks (issue 17) */
        for (int32_t v = 0; v < n; v++) {
            ob_v2 acc = {0, 0};
            for (int32_t i = ws[v], e = ws[v + 1]; i < e; i++) {
                const double *m = w[i].bone >= 0 ? pairs + 6 * (size_t)w[i].bone : sb;
                double x = w[i].x + 0.0, y = w[i].y + 0.0;
                acc += (ob_v2){w[i].weight, w[i].weight} *
                       (v2_load(m) * (ob_v2){x, x} + v2_load(m + 2) * (ob_v2){y, y} + v2_load(m + 4));
            }
            out[2 * v] = (float)acc[0];
            out[2 * v + 1] = (float)acc[1];
        }
        return n;
    }
    for (int32_t v = 0; v < n; v++) {
        double dx, dy;
        offset_at(off, v, &dx, &dy);
        ob_v2 acc = {0, 0};
        for (int32_t i = ws[v], e = ws[v + 1]; i < e; i++) {
            const double *m = w[i].bone >= 0 ? pairs + 6 * (size_t)w[i].bone : sb;
            if (off.per_influence) offset_at(off, i, &dx, &dy);
            double x = w[i].x + dx, y = w[i].y + dy;
            ob_v2 X = {x, x}, Y = {y, y}, W = {w[i].weight, w[i].weight};
            /* lanes: (a·x + b·y + x0, c·x + d·y + y0), then weight·(...) summed */
            acc += W * (v2_load(m) * X + v2_load(m + 2) * Y + v2_load(m + 4));
        }
        out[2 * v] = (float)acc[0];
        out[2 * v + 1] = (float)acc[1];
    }
    return n;
#else
    (void)pairs;
    return ob_attachment_world_vertices(inst, slot, att, out);
#endif
}
