/* bounds.c: §8.10 bounding-box queries (bounds.ts:SkeletonBounds, Skeleton.boundingBoxes()). */
#include <stdlib.h>

#include "attachment_vertices.h"
#include "bounds.h"

ob_bounds *ob_bounds_create(const ob_document *doc)
{
    ob_bounds *b = calloc(1, sizeof *b);
    if (!b) return NULL;
    int32_t ns = doc->slot_count;
    int32_t *need = calloc(ns > 0 ? (size_t)ns : 1, sizeof *need);
    if (!need) { free(b); return NULL; }
    for (int32_t k = 0; k < doc->skin_count; k++)
        for (int32_t e = 0; e < doc->skins[k].entry_count; e++) {
            const ob_skin_entry *en = &doc->skins[k].entries[e];
            if (en->slot < 0 || en->slot >= ns || en->attachment < 0) continue;
            const ob_attachment *a = &doc->attachments[en->attachment];
            if (a->type != OB_ATT_BOUNDING_BOX) continue;
            int32_t n = ob_attachment_world_vertex_count(a);
            if (n > need[en->slot]) need[en->slot] = n;
        }
    int64_t total = 0;
    for (int32_t s = 0; s < ns; s++) total += need[s];
    free(need);
    b->box_capacity = ns;
    b->vertex_capacity = (int32_t)total;
    b->boxes = calloc(ns > 0 ? (size_t)ns : 1, sizeof *b->boxes);
    b->vertices = calloc(total > 0 ? 2 * (size_t)total : 1, sizeof *b->vertices);
    if (!b->boxes || !b->vertices) { ob_bounds_free(b); return NULL; }
    return b;
}

void ob_bounds_free(ob_bounds *b)
{
    if (!b) return;
    free(b->boxes);
    free(b->vertices);
    free(b);
}

void ob_bounds_update(ob_bounds *b, const ob_instance *inst)
{
    const ob_document *doc = inst->doc;
    b->box_count = b->vertex_count = 0;
    b->min_x = b->min_y = b->max_x = b->max_y = 0;
    for (int32_t o = 0; o < doc->slot_count; o++) {
        int32_t slot = inst->draw_order[o];
        /* §8.10 slots whose bone is active and whose current attachment is a
        ** boundingBox with ≥ 6 vertex numbers */
        if (!inst->bone_active[doc->slots[slot].bone]) continue;
        int32_t ai = ob_skeleton_get_attachment(inst, slot, inst->slot_attachment[slot]);
        if (ai < 0) continue;
        const ob_attachment *a = &doc->attachments[ai];
        int32_t n = ob_attachment_world_vertex_count(a);
        if (a->type != OB_ATT_BOUNDING_BOX || n < 3) continue;
        if (b->box_count >= b->box_capacity || b->vertex_count + n > b->vertex_capacity) continue;
        ob_bounds_box *bx = &b->boxes[b->box_count++];
        float *v = b->vertices + 2 * b->vertex_count;
        ob_attachment_world_vertices(inst, slot, a, v);  /* §8.3, float32 */
        bx->slot = slot;
        bx->attachment = ai;
        bx->first_vertex = b->vertex_count;
        bx->vertex_count = n;
        bx->min_x = bx->max_x = v[0];
        bx->min_y = bx->max_y = v[1];
        for (int32_t i = 1; i < n; i++) {
            double x = v[2 * i], y = v[2 * i + 1];
            if (x < bx->min_x) bx->min_x = x;
            if (x > bx->max_x) bx->max_x = x;
            if (y < bx->min_y) bx->min_y = y;
            if (y > bx->max_y) bx->max_y = y;
        }
        b->vertex_count += n;
        if (b->box_count == 1) {
            b->min_x = bx->min_x; b->min_y = bx->min_y; b->max_x = bx->max_x; b->max_y = bx->max_y;
        } else {
            if (bx->min_x < b->min_x) b->min_x = bx->min_x;
            if (bx->min_y < b->min_y) b->min_y = bx->min_y;
            if (bx->max_x > b->max_x) b->max_x = bx->max_x;
            if (bx->max_y > b->max_y) b->max_y = bx->max_y;
        }
    }
}

int ob_bounds_point_in_polygon(const float *v, int32_t n, double x, double y)
{
    /* §9.5 even-odd: toggle on each edge crossing the ray to +x */
    int inside = 0;
    for (int32_t i = 0, j = n - 1; i < n; j = i++) {
        double xi = v[2 * i], yi = v[2 * i + 1], xj = v[2 * j], yj = v[2 * j + 1];
        if ((yi > y) != (yj > y) && x < (xj - xi) * (y - yi) / (yj - yi) + xi) inside = !inside;
    }
    return inside;
}

int ob_bounds_segments_intersect(double x1, double y1, double x2, double y2, double x3, double y3, double x4, double y4)
{
    /* §8.10 segmentsIntersect */
    double d = (x2 - x1) * (y4 - y3) - (y2 - y1) * (x4 - x3);
    if (d == 0) return 0;
    double ua = ((x3 - x1) * (y4 - y3) - (y3 - y1) * (x4 - x3)) / d;
    double ub = ((x3 - x1) * (y2 - y1) - (y3 - y1) * (x2 - x1)) / d;
    return ua >= 0 && ua <= 1 && ub >= 0 && ub <= 1;
}

int ob_bounds_aabb_contains_point(const ob_bounds *b, double x, double y)
{
    return b->box_count > 0 && b->min_x <= x && x <= b->max_x && b->min_y <= y && y <= b->max_y;
}

int ob_bounds_aabb_intersects(const ob_bounds *b, double x0, double y0, double x1, double y1)
{
    return b->box_count > 0 && x0 <= b->max_x && x1 >= b->min_x && y0 <= b->max_y && y1 >= b->min_y;
}

int ob_bounds_box_contains_point(const ob_bounds *b, int32_t i, double x, double y)
{
    const ob_bounds_box *bx = &b->boxes[i];
    if (x < bx->min_x || x > bx->max_x || y < bx->min_y || y > bx->max_y) return 0;
    return ob_bounds_point_in_polygon(b->vertices + 2 * bx->first_vertex, bx->vertex_count, x, y);
}

int ob_bounds_box_intersects_segment(const ob_bounds *b, int32_t i, double x1, double y1, double x2, double y2)
{
    const ob_bounds_box *bx = &b->boxes[i];
    double sx0 = x1 < x2 ? x1 : x2, sx1 = x1 < x2 ? x2 : x1;
    double sy0 = y1 < y2 ? y1 : y2, sy1 = y1 < y2 ? y2 : y1;
    /* §8.10 the segment's bounding rect not strictly outside the box's min/max */
    if (sx1 < bx->min_x || sx0 > bx->max_x || sy1 < bx->min_y || sy0 > bx->max_y) return 0;
    const float *v = b->vertices + 2 * bx->first_vertex;
    int32_t n = bx->vertex_count;
    for (int32_t k = 0, j = n - 1; k < n; j = k++)  /* edges v[j] → v[k], j starting at the last */
        if (ob_bounds_segments_intersect(x1, y1, x2, y2, v[2 * j], v[2 * j + 1], v[2 * k], v[2 * k + 1])) return 1;
    return ob_bounds_point_in_polygon(v, n, x1, y1);
}

int32_t ob_bounds_contains_point(const ob_bounds *b, double x, double y, int32_t from)
{
    for (int32_t i = from < 0 ? 0 : from; i < b->box_count; i++)
        if (ob_bounds_box_contains_point(b, i, x, y)) return i;
    return -1;
}

int32_t ob_bounds_intersects_segment(const ob_bounds *b, double x1, double y1, double x2, double y2, int32_t from)
{
    for (int32_t i = from < 0 ? 0 : from; i < b->box_count; i++)
        if (ob_bounds_box_intersects_segment(b, i, x1, y1, x2, y2)) return i;
    return -1;
}

static int polygons_cross(const float *a, int32_t na, const float *b, int32_t nb)
{
    for (int32_t i = 0, j = na - 1; i < na; j = i++)
        for (int32_t k = 0, l = nb - 1; k < nb; l = k++)
            if (ob_bounds_segments_intersect(a[2 * j], a[2 * j + 1], a[2 * i], a[2 * i + 1],
                                      b[2 * l], b[2 * l + 1], b[2 * k], b[2 * k + 1]))
                return 1;
    return 0;
}

int ob_bounds_intersects_bounds(const ob_bounds *b, const ob_bounds *o, int32_t *mine, int32_t *theirs)
{
    /* §8.10 null unless aabbIntersects(other's aabb) */
    if (!ob_bounds_aabb_intersects(b, o->min_x, o->min_y, o->max_x, o->max_y)) return 0;
    for (int32_t i = 0; i < b->box_count; i++) {
        const ob_bounds_box *p = &b->boxes[i];
        const float *pv = b->vertices + 2 * p->first_vertex;
        for (int32_t j = 0; j < o->box_count; j++) {
            const ob_bounds_box *q = &o->boxes[j];
            const float *qv = o->vertices + 2 * q->first_vertex;
            if (p->min_x > q->max_x || p->max_x < q->min_x || p->min_y > q->max_y || p->max_y < q->min_y) continue;
            if (polygons_cross(pv, p->vertex_count, qv, q->vertex_count) ||
                ob_bounds_point_in_polygon(qv, q->vertex_count, pv[0], pv[1]) ||
                ob_bounds_point_in_polygon(pv, p->vertex_count, qv[0], qv[1])) {
                *mine = i;
                *theirs = j;
                return 1;
            }
        }
    }
    return 0;
}
