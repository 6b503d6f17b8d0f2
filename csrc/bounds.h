/* bounds.h: §8.10 bounding-box queries (bounds.ts:SkeletonBounds).
**
** A snapshot of the current world pose: the bounding boxes of the slots in
** draw order, their world vertices (float32) and min/max, and the overall
** aabb.  Sized once for a document; updating allocates nothing. */
#ifndef OB_BOUNDS_H
#define OB_BOUNDS_H

#include "instance.h"

typedef struct ob_bounds_box {
    int32_t slot, attachment;    /* doc slot index, doc attachment index */
    int32_t first_vertex, vertex_count;
    double min_x, min_y, max_x, max_y;
} ob_bounds_box;

typedef struct ob_bounds {
    int32_t box_count, box_capacity;
    ob_bounds_box *boxes;
    int32_t vertex_count, vertex_capacity;
    float *vertices;             /* x, y pairs of every box */
    double min_x, min_y, max_x, max_y;  /* all 0 when there is no box */
} ob_bounds;

/* A bounds object sized for every bounding box the document's slots can show. */
ob_bounds *ob_bounds_create(const ob_document *doc);
void ob_bounds_free(ob_bounds *b);
/* §8.10 Skeleton.boundingBoxes(): takes the snapshot of inst's current pose. */
void ob_bounds_update(ob_bounds *b, const ob_instance *inst);

/* §8.10 queries; boxes are returned as indices (-1 for none). */
int ob_bounds_aabb_contains_point(const ob_bounds *b, double x, double y);
int ob_bounds_aabb_intersects(const ob_bounds *b, double x0, double y0, double x1, double y1);
/* Box i: the point inside its min/max (inclusive) and its polygon (even-odd). */
int ob_bounds_box_contains_point(const ob_bounds *b, int32_t i, double x, double y);
/* Box i touched by the segment (x1, y1) → (x2, y2). */
int ob_bounds_box_intersects_segment(const ob_bounds *b, int32_t i, double x1, double y1, double x2, double y2);
/* The first box at index ≥ from containing the point / touched by the segment, -1. */
int32_t ob_bounds_contains_point(const ob_bounds *b, double x, double y, int32_t from);
int32_t ob_bounds_intersects_segment(const ob_bounds *b, double x1, double y1, double x2, double y2, int32_t from);
/* intersectsBounds(other): 1 and the first pair (mine, theirs), else 0. */
int ob_bounds_intersects_bounds(const ob_bounds *b, const ob_bounds *other, int32_t *mine, int32_t *theirs);

/* §9.5 core/math.ts:pointInPolygon, even-odd, n vertices (x, y pairs). */
int ob_bounds_point_in_polygon(const float *v, int32_t n, double x, double y);
/* §8.10 segmentsIntersect(p1, p2, p3, p4), doubles. */
int ob_bounds_segments_intersect(double x1, double y1, double x2, double y2, double x3, double y3, double x4, double y4);

#endif
