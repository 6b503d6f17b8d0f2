/* earcut.c: polygon triangulation (runtime spec §8.5, §12).
**
** An independent C port of the algorithm of mapbox/earcut 3.2.4
** (https://github.com/mapbox/earcut), written from its JavaScript source so
** that the triangle indices come out identical, in the same order.  earcut is
** by Vladimir Agafonkin and distributed under the ISC License:
**
**   ISC License
**
**   Copyright (c) 2026, Mapbox
**
**   Permission to use, copy, modify, and/or distribute this software for any
**   purpose with or without fee is hereby granted, provided that the above
**   copyright notice and this permission notice appear in all copies.
**
**   THE SOFTWARE IS PROVIDED "AS IS" AND THE AUTHOR DISCLAIMS ALL WARRANTIES
**   WITH REGARD TO THIS SOFTWARE INCLUDING ALL IMPLIED WARRANTIES OF
**   MERCHANTABILITY AND FITNESS. IN NO EVENT SHALL THE AUTHOR BE LIABLE FOR
**   ANY SPECIAL, DIRECT, INDIRECT, OR CONSEQUENTIAL DAMAGES OR ANY DAMAGES
**   WHATSOEVER RESULTING FROM LOSS OF USE, DATA OR PROFITS, WHETHER IN AN
**   ACTION OF CONTRACT, NEGLIGENCE OR OTHER TORTIOUS ACTION, ARISING OUT OF
**   OR IN CONNECTION WITH THE USE OR PERFORMANCE OF THIS SOFTWARE.
**
** Exactness rules.  Every floating-point expression keeps earcut's operand
** order; build with -ffp-contract=off and without -ffast-math (no FMA, no
** reassociation).  Math.min/Math.max propagate NaN (js_min/js_max), `x | 0`
** is ECMAScript ToInt32 (js_int32), and a number used as a condition is
** false for 0 and NaN (js_truthy).
**
** Memory.  Nodes are plain structs in one grow-only array of ctx, linked by
** 32-bit indices (NIL ends the z-order list), so the array may move while a
** call runs: never hold a node pointer across new_node().  All scratch
** arrays grow on demand and are kept for the next call.  Running out of
** memory longjmps back to ob_earcut(), which returns -1.
**
** Recursion.  earcut's splitEarcut() recursively triangulates both halves,
** first one then the other; here the halves go on an explicit stack (second
** half pushed first), which runs the same operations in the same order
** without deep C recursion.
**
** Hole order.  earcut sorts the holes with Array.prototype.sort; V8's
** TimSort is reproduced exactly (sort_holes), because compareXYSlope is not
** a consistent order when a slope is NaN, and then the order depends on the
** exact sequence of comparisons.
**
** Where earcut would throw (a hole ring with no vertices: a hole index equal
** to the next one or to n_vertices) the empty ring is skipped; hole indices
** past n_vertices are clamped to it.  -0 is kept as given: it can change a
** slope's sign, as it does in JavaScript.
*/
#include "earcut.h"

#include <math.h>
#include <setjmp.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define NIL UINT32_MAX
#define BLOCK_EDGES 16          /* earcut's K: ring edges per hole-bridge block */
#define MAX_NODES (UINT32_MAX - 1u)

typedef struct ec_node {
    double x, y;
    uint32_t i;                 /* vertex index */
    int32_t z;                  /* z-order value; block id during eliminateHoles */
    uint32_t prev, next;        /* polygon ring */
    uint32_t prev_z, next_z;    /* z-order list, NIL at the ends */
    unsigned char steiner;      /* single-vertex hole: filterPoints keeps it */
} ec_node;

/* A grow-only array. */
typedef struct ec_buf {
    void *p;
    size_t cap;                 /* elements */
} ec_buf;

struct ob_earcut_ctx {
    ec_node *nodes;
    size_t n_nodes, cap_nodes;
    uint32_t *tri;              /* output indices */
    size_t n_tri, cap_tri;
    ec_buf queue, queue_tmp;    /* hole queue (leftmost nodes) and sort scratch */
    ec_buf bbox;                /* 4 doubles per hole-bridge block */
    ec_buf block_head, block_stop;
    size_t n_blocks;
    ec_buf sort_a, sort_b, z_a, z_b;  /* indexCurve sort scratch */
    ec_buf stack;               /* rings waiting for earcutLinked */
    size_t n_stack;

    /* per call */
    double min_x, min_y, inv_size;
    int hashing;                /* earcut's `if (invSize)` */
    int filtered_out;           /* filterPoints removed a node */
    int index_active;           /* removeNode keeps block bboxes live */
    jmp_buf oom;
};

/* ------------------------------------------------------------------------ */
/* JavaScript number semantics */

static int js_truthy(double v) { return v != 0 && v == v; }

static double js_min(double a, double b)
{
    if (a != a || b != b) return NAN;
    return a < b ? a : b;
}

static double js_max(double a, double b)
{
    if (a != a || b != b) return NAN;
    return a > b ? a : b;
}

/* ECMAScript ToInt32, as raw bits: `v | 0`. */
static uint32_t js_int32(double v)
{
    if (!isfinite(v)) return 0;
    double m = fmod(trunc(v), 4294967296.0);
    if (m < 0) m += 4294967296.0;
    return (uint32_t)m;
}

static int32_t u32_to_i32(uint32_t u)
{
    return u <= INT32_MAX ? (int32_t)u : (int32_t)(u - 0x80000000u) - INT32_MAX - 1;
}

/* ------------------------------------------------------------------------ */
/* memory */

static void *grow_raw(ob_earcut_ctx *c, void *p, size_t *cap, size_t need, size_t elem)
{
    if (need <= *cap) return p;
    size_t n = *cap ? *cap : 16;
    while (n < need) n = n > SIZE_MAX / 2 ? need : n * 2;
    if (n > SIZE_MAX / elem) longjmp(c->oom, 1);
    void *q = realloc(p, n * elem);
    if (!q) longjmp(c->oom, 1);
    *cap = n;
    return q;
}

static void *reserve(ob_earcut_ctx *c, ec_buf *b, size_t need, size_t elem)
{
    b->p = grow_raw(c, b->p, &b->cap, need, elem);
    return b->p;
}

static uint32_t new_node(ob_earcut_ctx *c, uint32_t i, double x, double y)
{
    if (c->n_nodes >= MAX_NODES) longjmp(c->oom, 1);
    if (c->n_nodes == c->cap_nodes)
        c->nodes = grow_raw(c, c->nodes, &c->cap_nodes, c->n_nodes + 1, sizeof(ec_node));
    uint32_t k = (uint32_t)c->n_nodes++;
    ec_node *p = &c->nodes[k];
    p->x = x;
    p->y = y;
    p->i = i;
    p->z = 0;
    p->prev = p->next = k;
    p->prev_z = p->next_z = NIL;
    p->steiner = 0;
    return k;
}

static void push_triangle(ob_earcut_ctx *c, uint32_t a, uint32_t b, uint32_t d)
{
    if (c->n_tri + 3 > c->cap_tri)
        c->tri = grow_raw(c, c->tri, &c->cap_tri, c->n_tri + 3, sizeof(uint32_t));
    c->tri[c->n_tri++] = a;
    c->tri[c->n_tri++] = b;
    c->tri[c->n_tri++] = d;
}

static void push_ring(ob_earcut_ctx *c, uint32_t ring)
{
    uint32_t *s = reserve(c, &c->stack, c->n_stack + 1, sizeof(uint32_t));
    s[c->n_stack++] = ring;
}

/* ------------------------------------------------------------------------ */
/* geometry predicates (earcut's helpers, same operand order) */

/* area(): signed area of triangle p, q, r (negative when counter-clockwise
** in earcut's y-down sense, i.e. a convex corner of the ring). */
static double area(const ec_node *nd, uint32_t p, uint32_t q, uint32_t r)
{
    const ec_node *P = &nd[p], *Q = &nd[q], *R = &nd[r];
    return (Q->y - P->y) * (R->x - Q->x) - (Q->x - P->x) * (R->y - Q->y);
}

static int equals(const ec_node *nd, uint32_t a, uint32_t b)
{
    return nd[a].x == nd[b].x && nd[a].y == nd[b].y;
}

/* pointInTriangle(): p inside or on triangle a, b, c. */
static int point_in_triangle(double ax, double ay, double bx, double by,
                             double cx, double cy, double px, double py)
{
    return (cx - px) * (ay - py) >= (ax - px) * (cy - py) &&
           (ax - px) * (by - py) >= (bx - px) * (ay - py) &&
           (bx - px) * (cy - py) >= (cx - px) * (by - py);
}

/* onSegment(): for collinear p, q, r, whether q lies on segment pr. */
static int on_segment(const ec_node *nd, uint32_t p, uint32_t q, uint32_t r)
{
    const ec_node *P = &nd[p], *Q = &nd[q], *R = &nd[r];
    return Q->x <= js_max(P->x, R->x) && Q->x >= js_min(P->x, R->x) &&
           Q->y <= js_max(P->y, R->y) && Q->y >= js_min(P->y, R->y);
}

/* intersects(): segments p1q1 and p2q2 cross; with include_boundary also
** when they touch collinearly. */
static int intersects(const ec_node *nd, uint32_t p1, uint32_t q1, uint32_t p2,
                      uint32_t q2, int include_boundary)
{
    double o1 = area(nd, p1, q1, p2);
    double o2 = area(nd, p1, q1, q2);
    double o3 = area(nd, p2, q2, p1);
    double o4 = area(nd, p2, q2, q1);

    if (((o1 > 0 && o2 < 0) || (o1 < 0 && o2 > 0)) &&
        ((o3 > 0 && o4 < 0) || (o3 < 0 && o4 > 0))) return 1;
    if (!include_boundary) return 0;
    if (o1 == 0 && on_segment(nd, p1, p2, q1)) return 1;
    if (o2 == 0 && on_segment(nd, p1, q2, q1)) return 1;
    if (o3 == 0 && on_segment(nd, p2, p1, q2)) return 1;
    if (o4 == 0 && on_segment(nd, p2, q1, q2)) return 1;
    return 0;
}

/* intersectsPolygon(): diagonal ab crosses a ring edge (edges whose bbox
** misses the diagonal's are skipped, edges touching a or b ignored). */
static int intersects_polygon(const ec_node *nd, uint32_t a, uint32_t b)
{
    const double min_x = js_min(nd[a].x, nd[b].x), max_x = js_max(nd[a].x, nd[b].x);
    const double min_y = js_min(nd[a].y, nd[b].y), max_y = js_max(nd[a].y, nd[b].y);
    const uint32_t ai = nd[a].i, bi = nd[b].i;
    uint32_t p = a;
    do {
        uint32_t n = nd[p].next;
        const ec_node *P = &nd[p], *N = &nd[n];
        if (!((P->x > max_x && N->x > max_x) || (P->x < min_x && N->x < min_x) ||
              (P->y > max_y && N->y > max_y) || (P->y < min_y && N->y < min_y)) &&
            P->i != ai && N->i != ai && P->i != bi && N->i != bi &&
            intersects(nd, p, n, a, b, 1)) return 1;
        p = n;
    } while (p != a);
    return 0;
}

/* locallyInside(): diagonal ab starts inside the ring's corner at a. */
static int locally_inside(const ec_node *nd, uint32_t a, uint32_t b)
{
    uint32_t ap = nd[a].prev, an = nd[a].next;
    return area(nd, ap, a, an) < 0 ?
        area(nd, a, b, an) >= 0 && area(nd, a, ap, b) >= 0 :
        area(nd, a, b, ap) < 0 || area(nd, a, an, b) < 0;
}

/* middleInside(): the midpoint of ab is inside the ring (even-odd rule). */
static int middle_inside(const ec_node *nd, uint32_t a, uint32_t b)
{
    const double px = (nd[a].x + nd[b].x) / 2;
    const double py = (nd[a].y + nd[b].y) / 2;
    int inside = 0;
    uint32_t p = a;
    do {
        const ec_node *P = &nd[p], *N = &nd[P->next];
        if ((P->y > py) != (N->y > py) &&
            px < (N->x - P->x) * (py - P->y) / (N->y - P->y) + P->x)
            inside = !inside;
        p = P->next;
    } while (p != a);
    return inside;
}

/* sectorContainsSector(): the corner at m contains the corner at p (both
** at the same coordinates). */
static int sector_contains_sector(const ec_node *nd, uint32_t m, uint32_t p)
{
    return area(nd, nd[m].prev, m, nd[p].prev) < 0 &&
           area(nd, nd[p].next, m, nd[m].next) < 0;
}

/* isValidDiagonal(): ab lies in the polygon's interior (or is a zero-length
** join of two convex corners). */
static int is_valid_diagonal(const ec_node *nd, uint32_t a, uint32_t b)
{
    const int zero_length = equals(nd, a, b) &&
        area(nd, nd[a].prev, a, nd[a].next) > 0 && area(nd, nd[b].prev, b, nd[b].next) > 0;
    return nd[nd[a].next].i != nd[b].i &&
           (zero_length || (locally_inside(nd, a, b) && locally_inside(nd, b, a) &&
                            (area(nd, nd[a].prev, a, nd[b].prev) != 0 ||
                             area(nd, a, nd[b].prev, b) != 0))) &&
           !intersects_polygon(nd, a, b) &&
           (zero_length || middle_inside(nd, a, b));
}

/* ------------------------------------------------------------------------ */
/* hole-bridge block index (earcut 3.2's buildBlockIndex .. liveBlockHead):
** one bbox per BLOCK_EDGES consecutive ring edges, appended as the outer
** ring and each merged hole are indexed, scanned in append order. */

static void grow_block(ob_earcut_ctx *c, uint32_t head, uint32_t tail)
{
    const ec_node *nd = c->nodes;
    size_t b = (size_t)(uint32_t)nd[head].z;
    if (b >= c->n_blocks) return;       /* cannot happen: z is a block id here */
    double *g = (double *)c->bbox.p + 4 * b;
    const double tx = nd[tail].x, ty = nd[tail].y;
    if (tx < g[0]) g[0] = tx;
    if (ty < g[1]) g[1] = ty;
    if (tx > g[2]) g[2] = tx;
    if (ty > g[3]) g[3] = ty;
}

/* indexSegment(): blocks over the ring run head..stop (exclusive; head ==
** stop means the whole ring), each bounding both ends of its edges. */
static void index_segment(ob_earcut_ctx *c, uint32_t head, uint32_t stop)
{
    ec_node *nd = c->nodes;
    uint32_t p = head;
    do {
        size_t b = c->n_blocks;
        double *bb = reserve(c, &c->bbox, 4 * (b + 1), sizeof(double));
        uint32_t *bh = reserve(c, &c->block_head, b + 1, sizeof(uint32_t));
        uint32_t *bs = reserve(c, &c->block_stop, b + 1, sizeof(uint32_t));
        c->n_blocks++;
        bh[b] = p;
        double min_x = INFINITY, min_y = INFINITY, max_x = -INFINITY, max_y = -INFINITY;
        int k = 0;
        do {
            uint32_t q = nd[p].next;
            nd[p].z = (int32_t)b;
            if (nd[p].x < min_x) min_x = nd[p].x;
            if (nd[p].x > max_x) max_x = nd[p].x;
            if (nd[p].y < min_y) min_y = nd[p].y;
            if (nd[p].y > max_y) max_y = nd[p].y;
            if (nd[q].x < min_x) min_x = nd[q].x;
            if (nd[q].x > max_x) max_x = nd[q].x;
            if (nd[q].y < min_y) min_y = nd[q].y;
            if (nd[q].y > max_y) max_y = nd[q].y;
            p = q;
        } while (++k < BLOCK_EDGES && p != stop);
        bs[b] = p;
        bb[4 * b] = min_x;
        bb[4 * b + 1] = min_y;
        bb[4 * b + 2] = max_x;
        bb[4 * b + 3] = max_y;
    } while (p != stop);
}

static int is_live(const ec_node *nd, uint32_t p) { return nd[nd[p].prev].next == p; }

/* liveBlockStop() / liveBlockHead(): step a removed bound forward to a live node. */
static uint32_t live_block_stop(ob_earcut_ctx *c, size_t b)
{
    uint32_t *bs = c->block_stop.p;
    uint32_t s = bs[b];
    while (!is_live(c->nodes, s)) s = c->nodes[s].next;
    return bs[b] = s;
}

static uint32_t live_block_head(ob_earcut_ctx *c, size_t b)
{
    uint32_t *bh = c->block_head.p;
    uint32_t h = bh[b];
    while (!is_live(c->nodes, h)) h = c->nodes[h].next;
    return bh[b] = h;
}

/* ------------------------------------------------------------------------ */
/* linked list */

static uint32_t insert_node(ob_earcut_ctx *c, uint32_t i, double x, double y, uint32_t last)
{
    uint32_t p = new_node(c, i, x, y);
    ec_node *nd = c->nodes;
    if (last != NIL) {
        nd[p].next = nd[last].next;
        nd[p].prev = last;
        nd[nd[last].next].prev = p;
        nd[last].next = p;
    }
    return p;
}

/* removeNode(): unlink p from its ring and the z-order list; p keeps its own
** links (earcut reads p.next after removing p). */
static void remove_node(ob_earcut_ctx *c, uint32_t p)
{
    ec_node *nd = c->nodes;
    nd[nd[p].next].prev = nd[p].prev;
    nd[nd[p].prev].next = nd[p].next;
    if (nd[p].prev_z != NIL) nd[nd[p].prev_z].next_z = nd[p].next_z;
    if (nd[p].next_z != NIL) nd[nd[p].next_z].prev_z = nd[p].prev_z;
    if (c->index_active) grow_block(c, nd[p].prev, nd[p].next);
}

/* signedArea() of vertices [start, end). */
static double signed_area(const double *xy, size_t start, size_t end)
{
    double sum = 0;
    for (size_t i = start, j = end - 1; i < end; i++) {
        sum += (xy[2 * j] - xy[2 * i]) * (xy[2 * i + 1] + xy[2 * j + 1]);
        j = i;
    }
    return sum;
}

/* linkedList(): a ring over vertices [start, end) in the given winding
** (clockwise for the outer ring, counter-clockwise for holes, y up);
** returns its last node, NIL when empty. */
static uint32_t linked_list(ob_earcut_ctx *c, const double *xy, size_t start, size_t end,
                            int clockwise)
{
    uint32_t last = NIL;
    if (clockwise == (signed_area(xy, start, end) > 0)) {
        for (size_t i = start; i < end; i++)
            last = insert_node(c, (uint32_t)i, xy[2 * i], xy[2 * i + 1], last);
    } else {
        for (size_t i = end; i-- > start;)
            last = insert_node(c, (uint32_t)i, xy[2 * i], xy[2 * i + 1], last);
    }
    if (last != NIL && equals(c->nodes, last, c->nodes[last].next)) {
        remove_node(c, last);
        last = c->nodes[last].next;
    }
    return last;
}

/* filterPoints(): remove coincident and collinear nodes.  end == start
** sweeps the whole ring until nothing is removable; otherwise only the
** window start..end is healed.  Returns the (possibly moved) end. */
static uint32_t filter_points(ob_earcut_ctx *c, uint32_t start, uint32_t end)
{
    ec_node *nd = c->nodes;
    const int full = end == start;
    uint32_t p = start;
    int again;
    do {
        again = 0;
        if (p != nd[p].next && !nd[p].steiner &&
            (equals(nd, p, nd[p].next) || area(nd, nd[p].prev, p, nd[p].next) == 0)) {
            if (full || p == end) end = nd[p].prev;
            c->filtered_out = 1;
            remove_node(c, p);
            p = nd[p].prev;
            again = 1;
        } else if (full || p != end) {
            p = nd[p].next;
            again = !full;
        }
    } while (again || p != end);
    return end;
}

/* splitPolygon(): link a and b with a bridge.  Within one ring this splits
** it in two (a keeps one half, the returned copy of b the other); between
** the outer ring and a hole it merges them. */
static uint32_t split_polygon(ob_earcut_ctx *c, uint32_t a, uint32_t b)
{
    uint32_t a2 = new_node(c, c->nodes[a].i, c->nodes[a].x, c->nodes[a].y);
    uint32_t b2 = new_node(c, c->nodes[b].i, c->nodes[b].x, c->nodes[b].y);
    ec_node *nd = c->nodes;
    uint32_t an = nd[a].next, bp = nd[b].prev;

    nd[a].next = b;
    nd[b].prev = a;
    nd[a2].next = an;
    nd[an].prev = a2;
    nd[b2].next = a2;
    nd[a2].prev = b2;
    nd[bp].next = b2;
    nd[b2].prev = bp;
    return b2;
}

/* ------------------------------------------------------------------------ */
/* z-order hashing */

/* zOrder(): interleave the 15-bit grid coordinates, as JS int32 maths. */
static int32_t z_order(double x, double y, double min_x, double min_y, double inv_size)
{
    uint32_t xi = js_int32((x - min_x) * inv_size);
    uint32_t yi = js_int32((y - min_y) * inv_size);

    xi = (xi | (xi << 8)) & 0x00FF00FFu;
    xi = (xi | (xi << 4)) & 0x0F0F0F0Fu;
    xi = (xi | (xi << 2)) & 0x33333333u;
    xi = (xi | (xi << 1)) & 0x55555555u;

    yi = (yi | (yi << 8)) & 0x00FF00FFu;
    yi = (yi | (yi << 4)) & 0x0F0F0F0Fu;
    yi = (yi | (yi << 2)) & 0x33333333u;
    yi = (yi | (yi << 1)) & 0x55555555u;

    return u32_to_i32(xi | (yi << 1));
}

/* radixPass(): stable scatter of n nodes by one 8-bit digit of z. */
static void radix_pass(size_t n, const uint32_t *src, const uint32_t *src_z,
                       uint32_t *dst, uint32_t *dst_z, unsigned shift)
{
    size_t counts[256] = {0};
    for (size_t i = 0; i < n; i++) counts[(src_z[i] >> shift) & 0xFF]++;
    size_t sum = 0;
    for (int b = 0; b < 256; b++) {
        size_t k = counts[b];
        counts[b] = sum;
        sum += k;
    }
    for (size_t i = 0; i < n; i++) {
        size_t pos = counts[(src_z[i] >> shift) & 0xFF]++;
        dst[pos] = src[i];
        dst_z[pos] = src_z[i];
    }
}

/* indexCurve(): z for every node of the ring, then link them in z order.
** sortNodes(): insertion sort on the signed z up to 32 nodes, else LSD radix
** on z as uint32 (both stable, as in earcut). */
static void index_curve(ob_earcut_ctx *c, uint32_t start)
{
    uint32_t *arr = reserve(c, &c->sort_a, c->n_nodes, sizeof(uint32_t));
    ec_node *nd = c->nodes;
    size_t n = 0;
    uint32_t p = start;
    do {
        nd[p].z = z_order(nd[p].x, nd[p].y, c->min_x, c->min_y, c->inv_size);
        arr[n++] = p;
        p = nd[p].next;
    } while (p != start);

    if (n <= 32) {
        for (size_t i = 1; i < n; i++) {
            uint32_t node = arr[i];
            int32_t z = nd[node].z;
            size_t j = i;
            while (j > 0 && nd[arr[j - 1]].z > z) {
                arr[j] = arr[j - 1];
                j--;
            }
            arr[j] = node;
        }
    } else {
        uint32_t *buf = reserve(c, &c->sort_b, n, sizeof(uint32_t));
        uint32_t *za = reserve(c, &c->z_a, n, sizeof(uint32_t));
        uint32_t *zb = reserve(c, &c->z_b, n, sizeof(uint32_t));
        for (size_t i = 0; i < n; i++) za[i] = (uint32_t)nd[arr[i]].z;
        radix_pass(n, arr, za, buf, zb, 0);
        radix_pass(n, buf, zb, arr, za, 8);
        radix_pass(n, arr, za, buf, zb, 16);
        radix_pass(n, buf, zb, arr, za, 24);
    }

    uint32_t prev = NIL;
    for (size_t i = 0; i < n; i++) {
        uint32_t node = arr[i];
        nd[node].prev_z = prev;
        if (prev != NIL) nd[prev].next_z = node;
        prev = node;
    }
    nd[prev].next_z = NIL;
}

/* ------------------------------------------------------------------------ */
/* ear slicing */

/* isEar(): no other vertex of the ring lies in the ear's triangle (the
** reflex test is done by the caller). */
static int is_ear(const ec_node *nd, uint32_t ear)
{
    const uint32_t a = nd[ear].prev, c = nd[ear].next;
    const double ax = nd[a].x, bx = nd[ear].x, cx = nd[c].x;
    const double ay = nd[a].y, by = nd[ear].y, cy = nd[c].y;
    const double x0 = js_min(js_min(ax, bx), cx), y0 = js_min(js_min(ay, by), cy);
    const double x1 = js_max(js_max(ax, bx), cx), y1 = js_max(js_max(ay, by), cy);

    uint32_t p = nd[c].next;
    while (p != a) {
        const double px = nd[p].x, py = nd[p].y;
        if (px >= x0 && px <= x1 && py >= y0 && py <= y1 && !(ax == px && ay == py) &&
            point_in_triangle(ax, ay, bx, by, cx, cy, px, py) &&
            area(nd, nd[p].prev, p, nd[p].next) >= 0) return 0;
        p = nd[p].next;
    }
    return 1;
}

/* isEarHashed(): isEar() over the nodes whose z lies in the z range of the
** triangle's bbox, walking down then up the z-order list. */
static int is_ear_hashed(const ob_earcut_ctx *ctx, uint32_t ear)
{
    const ec_node *nd = ctx->nodes;
    const uint32_t a = nd[ear].prev, c = nd[ear].next;
    const double ax = nd[a].x, bx = nd[ear].x, cx = nd[c].x;
    const double ay = nd[a].y, by = nd[ear].y, cy = nd[c].y;
    const double x0 = js_min(js_min(ax, bx), cx), y0 = js_min(js_min(ay, by), cy);
    const double x1 = js_max(js_max(ax, bx), cx), y1 = js_max(js_max(ay, by), cy);
    const int32_t min_z = z_order(x0, y0, ctx->min_x, ctx->min_y, ctx->inv_size);
    const int32_t max_z = z_order(x1, y1, ctx->min_x, ctx->min_y, ctx->inv_size);

    uint32_t p = nd[ear].prev_z;
    while (p != NIL && nd[p].z >= min_z) {
        const double px = nd[p].x, py = nd[p].y;
        if (px >= x0 && px <= x1 && py >= y0 && py <= y1 && p != c &&
            !(ax == px && ay == py) && point_in_triangle(ax, ay, bx, by, cx, cy, px, py) &&
            area(nd, nd[p].prev, p, nd[p].next) >= 0) return 0;
        p = nd[p].prev_z;
    }
    uint32_t n = nd[ear].next_z;
    while (n != NIL && nd[n].z <= max_z) {
        const double px = nd[n].x, py = nd[n].y;
        if (px >= x0 && px <= x1 && py >= y0 && py <= y1 && n != c &&
            !(ax == px && ay == py) && point_in_triangle(ax, ay, bx, by, cx, cy, px, py) &&
            area(nd, nd[n].prev, n, nd[n].next) >= 0) return 0;
        n = nd[n].next_z;
    }
    return 1;
}

/* cureLocalIntersections(): where edge (prev, p) crosses edge (p.next,
** p.next.next), cut the triangle (prev, p, p.next.next) and drop p and
** p.next. */
static uint32_t cure_local_intersections(ob_earcut_ctx *c, uint32_t start)
{
    ec_node *nd = c->nodes;
    uint32_t p = start;
    int cured = 0;
    do {
        uint32_t a = nd[p].prev, b = nd[nd[p].next].next;
        if (intersects(nd, a, p, nd[p].next, b, 0) && locally_inside(nd, a, b) &&
            locally_inside(nd, b, a)) {
            push_triangle(c, nd[a].i, nd[p].i, nd[b].i);
            remove_node(c, p);
            remove_node(c, nd[p].next);
            p = start = b;
            cured = 1;
        }
        p = nd[p].next;
    } while (p != start);
    return cured ? filter_points(c, p, p) : p;
}

/* splitEarcut(): find a valid diagonal, split the ring along it and queue
** both halves (the first half runs first). */
static void split_earcut(ob_earcut_ctx *c, uint32_t start)
{
    const ec_node *nd = c->nodes;
    uint32_t a = start;
    do {
        uint32_t b = nd[nd[a].next].next;
        while (b != nd[a].prev) {
            if (nd[a].i != nd[b].i && is_valid_diagonal(nd, a, b)) {
                uint32_t h = split_polygon(c, a, b);
                a = filter_points(c, a, c->nodes[a].next);
                h = filter_points(c, h, c->nodes[h].next);
                push_ring(c, h);
                push_ring(c, a);
                return;
            }
            b = nd[b].next;
        }
        a = nd[a].next;
    } while (a != start);
}

/* earcutLinked() for one ring: cut ears; when a full lap finds none, filter
** points (again while that removes any), then cure local intersections once,
** then split the ring. */
static void earcut_ring(ob_earcut_ctx *c, uint32_t ear)
{
    if (c->hashing) index_curve(c, ear);
    const ec_node *nd = c->nodes;
    uint32_t stop = ear;
    int cured = 0;

    while (nd[ear].prev != nd[ear].next) {
        uint32_t prev = nd[ear].prev, next = nd[ear].next;

        if (area(nd, prev, ear, next) < 0 &&
            (c->hashing ? is_ear_hashed(c, ear) : is_ear(nd, ear))) {
            push_triangle(c, nd[prev].i, nd[ear].i, nd[next].i);
            remove_node(c, ear);
            ear = next;
            stop = next;
            continue;
        }
        ear = next;

        if (ear == stop) {
            c->filtered_out = 0;
            ear = filter_points(c, ear, ear);
            if (c->filtered_out) {
                stop = ear;
                continue;
            }
            if (!cured) {
                ear = cure_local_intersections(c, ear);
                stop = ear;
                cured = 1;
                continue;
            }
            split_earcut(c, ear);       /* may move c->nodes: leave now */
            break;
        }
    }
}

/* earcutLinked(): the ring, then the halves splitEarcut() queued, depth first. */
static void earcut_linked(ob_earcut_ctx *c, uint32_t ear)
{
    c->n_stack = 0;
    push_ring(c, ear);
    while (c->n_stack > 0) {
        uint32_t ring = ((uint32_t *)c->stack.p)[--c->n_stack];
        earcut_ring(c, ring);
    }
}

/* ------------------------------------------------------------------------ */
/* holes */

/* getLeftmost(): leftmost node of a ring, the lowest y among ties. */
static uint32_t get_leftmost(const ec_node *nd, uint32_t start)
{
    uint32_t p = start, left = start;
    do {
        if (nd[p].x < nd[left].x || (nd[p].x == nd[left].x && nd[p].y < nd[left].y)) left = p;
        p = nd[p].next;
    } while (p != start);
    return left;
}

/* compareXYSlope(): by x, then y, then slope of the outgoing edge, with
** JavaScript's `||` (0 and NaN fall through) and sort's NaN-as-equal. */
static double compare_xy_slope(const ec_node *nd, uint32_t a, uint32_t b)
{
    double r = nd[a].x - nd[b].x;
    if (js_truthy(r)) return r;
    r = nd[a].y - nd[b].y;
    if (js_truthy(r)) return r;
    const ec_node *A = &nd[a], *An = &nd[A->next], *B = &nd[b], *Bn = &nd[B->next];
    r = (An->y - A->y) / (An->x - A->x) - (Bn->y - B->y) / (Bn->x - B->x);
    return r == r ? r : 0;
}

/* The hole queue is sorted with Array.prototype.sort, i.e. V8's TimSort
** (v8/third_party/v8/builtins/array-sort.tq), reproduced step by step below:
** compareXYSlope can be inconsistent (a NaN slope compares equal to
** everything), and then only the same sequence of comparisons gives the
** same order. */

#define TS_MIN_GALLOP 7         /* kMinGallopWins */
#define TS_MIN_LEN 10           /* kMinTimSortLen: below, binary insertion only */
#define TS_MAX_RUNS 85          /* kMaxMergePending */

typedef struct tim_sort {
    const ec_node *nd;
    uint32_t *a;                /* the array being sorted */
    uint32_t *tmp;              /* merge scratch, n elements */
    ptrdiff_t min_gallop;
    ptrdiff_t run_base[TS_MAX_RUNS], run_len[TS_MAX_RUNS];
    int n_runs;
} tim_sort;

static int ts_less(const tim_sort *s, uint32_t x, uint32_t y)
{
    return compare_xy_slope(s->nd, x, y) < 0;
}

/* BinaryInsertionSort(): [low, start) is sorted; insert [start, high). */
static void ts_binary_insertion(tim_sort *s, ptrdiff_t low, ptrdiff_t start, ptrdiff_t high)
{
    uint32_t *a = s->a;
    if (start == low) start++;
    for (; start < high; start++) {
        ptrdiff_t left = low, right = start;
        const uint32_t pivot = a[start];
        while (left < right) {
            const ptrdiff_t mid = left + ((right - left) >> 1);
            if (ts_less(s, pivot, a[mid])) right = mid;
            else left = mid + 1;
        }
        memmove(a + left + 1, a + left, (size_t)(start - left) * sizeof(uint32_t));
        a[left] = pivot;
    }
}

/* CountAndMakeRun(): length of the ascending (or strictly descending, then
** reversed) run starting at low. */
static ptrdiff_t ts_count_run(tim_sort *s, ptrdiff_t low, ptrdiff_t high)
{
    uint32_t *a = s->a;
    if (low + 1 == high) return 1;
    ptrdiff_t run = 2;
    const int desc = ts_less(s, a[low + 1], a[low]);
    for (ptrdiff_t i = low + 2; i < high; i++) {
        const int lt = ts_less(s, a[i], a[i - 1]);
        if (desc ? !lt : lt) break;
        run++;
    }
    for (ptrdiff_t i = low, j = low + run - 1; desc && i < j; i++, j--) {
        const uint32_t t = a[i];
        a[i] = a[j];
        a[j] = t;
    }
    return run;
}

/* GallopLeft(): offset k in 0..n where key belongs, left of equal elements. */
static ptrdiff_t ts_gallop_left(const tim_sort *s, const uint32_t *arr, uint32_t key,
                                ptrdiff_t base, ptrdiff_t n, ptrdiff_t hint)
{
    ptrdiff_t last = 0, ofs = 1;
    if (ts_less(s, arr[base + hint], key)) {
        const ptrdiff_t max = n - hint;
        while (ofs < max && ts_less(s, arr[base + hint + ofs], key)) {
            last = ofs;
            ofs = (ofs << 1) + 1;
        }
        if (ofs > max) ofs = max;
        last += hint;
        ofs += hint;
    } else {
        const ptrdiff_t max = hint + 1;
        while (ofs < max && !ts_less(s, arr[base + hint - ofs], key)) {
            last = ofs;
            ofs = (ofs << 1) + 1;
        }
        if (ofs > max) ofs = max;
        const ptrdiff_t t = last;
        last = hint - ofs;
        ofs = hint - t;
    }
    last++;
    while (last < ofs) {
        const ptrdiff_t m = last + ((ofs - last) >> 1);
        if (ts_less(s, arr[base + m], key)) last = m + 1;
        else ofs = m;
    }
    return ofs;
}

/* GallopRight(): as ts_gallop_left, right of equal elements. */
static ptrdiff_t ts_gallop_right(const tim_sort *s, const uint32_t *arr, uint32_t key,
                                 ptrdiff_t base, ptrdiff_t n, ptrdiff_t hint)
{
    ptrdiff_t last = 0, ofs = 1;
    if (ts_less(s, key, arr[base + hint])) {
        const ptrdiff_t max = hint + 1;
        while (ofs < max && ts_less(s, key, arr[base + hint - ofs])) {
            last = ofs;
            ofs = (ofs << 1) + 1;
        }
        if (ofs > max) ofs = max;
        const ptrdiff_t t = last;
        last = hint - ofs;
        ofs = hint - t;
    } else {
        const ptrdiff_t max = n - hint;
        while (ofs < max && !ts_less(s, key, arr[base + hint + ofs])) {
            last = ofs;
            ofs = (ofs << 1) + 1;
        }
        if (ofs > max) ofs = max;
        last += hint;
        ofs += hint;
    }
    last++;
    while (last < ofs) {
        const ptrdiff_t m = last + ((ofs - last) >> 1);
        if (ts_less(s, key, arr[base + m])) ofs = m;
        else last = m + 1;
    }
    return ofs;
}

static void ts_copy(uint32_t *dst, const uint32_t *src, ptrdiff_t n)
{
    memmove(dst, src, (size_t)n * sizeof(uint32_t));
}

/* MergeLow(): merge runs A and B (len_a <= len_b) from the left. */
static void ts_merge_low(tim_sort *s, ptrdiff_t base_a, ptrdiff_t len_a, ptrdiff_t base_b,
                         ptrdiff_t len_b)
{
    uint32_t *a = s->a, *t = s->tmp;
    ts_copy(t, a + base_a, len_a);
    ptrdiff_t dest = base_a, ct = 0, cb = base_b;
    a[dest++] = a[cb++];
    if (--len_b == 0) goto succeed;
    if (len_a == 1) goto copy_b;

    ptrdiff_t min_gallop = s->min_gallop;
    for (;;) {
        ptrdiff_t wins_a = 0, wins_b = 0;
        for (;;) {
            if (ts_less(s, a[cb], t[ct])) {
                a[dest++] = a[cb++];
                wins_b++;
                len_b--;
                wins_a = 0;
                if (len_b == 0) goto succeed;
                if (wins_b >= min_gallop) break;
            } else {
                a[dest++] = t[ct++];
                wins_a++;
                len_a--;
                wins_b = 0;
                if (len_a == 1) goto copy_b;
                if (wins_a >= min_gallop) break;
            }
        }
        min_gallop++;
        int first = 1;
        while (wins_a >= TS_MIN_GALLOP || wins_b >= TS_MIN_GALLOP || first) {
            first = 0;
            min_gallop = min_gallop - 1 > 1 ? min_gallop - 1 : 1;
            s->min_gallop = min_gallop;

            wins_a = ts_gallop_right(s, t, a[cb], ct, len_a, 0);
            if (wins_a > 0) {
                ts_copy(a + dest, t + ct, wins_a);
                dest += wins_a;
                ct += wins_a;
                len_a -= wins_a;
                if (len_a == 1) goto copy_b;
                if (len_a == 0) goto succeed;   /* inconsistent comparator */
            }
            a[dest++] = a[cb++];
            if (--len_b == 0) goto succeed;

            wins_b = ts_gallop_left(s, a, t[ct], cb, len_b, 0);
            if (wins_b > 0) {
                ts_copy(a + dest, a + cb, wins_b);
                dest += wins_b;
                cb += wins_b;
                len_b -= wins_b;
                if (len_b == 0) goto succeed;
            }
            a[dest++] = t[ct++];
            if (--len_a == 1) goto copy_b;
        }
        min_gallop++;
        s->min_gallop = min_gallop;
    }
succeed:
    if (len_a > 0) ts_copy(a + dest, t + ct, len_a);
    return;
copy_b:
    ts_copy(a + dest, a + cb, len_b);
    a[dest + len_b] = t[ct];
}

/* MergeHigh(): merge runs A and B (len_a >= len_b) from the right. */
static void ts_merge_high(tim_sort *s, ptrdiff_t base_a, ptrdiff_t len_a, ptrdiff_t base_b,
                          ptrdiff_t len_b)
{
    uint32_t *a = s->a, *t = s->tmp;
    ts_copy(t, a + base_b, len_b);
    ptrdiff_t dest = base_b + len_b - 1, ct = len_b - 1, ca = base_a + len_a - 1;
    a[dest--] = a[ca--];
    if (--len_a == 0) goto succeed;
    if (len_b == 1) goto copy_a;

    ptrdiff_t min_gallop = s->min_gallop;
    for (;;) {
        ptrdiff_t wins_a = 0, wins_b = 0;
        for (;;) {
            if (ts_less(s, t[ct], a[ca])) {
                a[dest--] = a[ca--];
                wins_a++;
                len_a--;
                wins_b = 0;
                if (len_a == 0) goto succeed;
                if (wins_a >= min_gallop) break;
            } else {
                a[dest--] = t[ct--];
                wins_b++;
                len_b--;
                wins_a = 0;
                if (len_b == 1) goto copy_a;
                if (wins_b >= min_gallop) break;
            }
        }
        min_gallop++;
        int first = 1;
        while (wins_a >= TS_MIN_GALLOP || wins_b >= TS_MIN_GALLOP || first) {
            first = 0;
            min_gallop = min_gallop - 1 > 1 ? min_gallop - 1 : 1;
            s->min_gallop = min_gallop;

            ptrdiff_t k = ts_gallop_right(s, a, t[ct], base_a, len_a, len_a - 1);
            wins_a = len_a - k;
            if (wins_a > 0) {
                dest -= wins_a;
                ca -= wins_a;
                ts_copy(a + dest + 1, a + ca + 1, wins_a);
                len_a -= wins_a;
                if (len_a == 0) goto succeed;
            }
            a[dest--] = t[ct--];
            if (--len_b == 1) goto copy_a;

            k = ts_gallop_left(s, t, a[ca], 0, len_b, len_b - 1);
            wins_b = len_b - k;
            if (wins_b > 0) {
                dest -= wins_b;
                ct -= wins_b;
                ts_copy(a + dest + 1, t + ct + 1, wins_b);
                len_b -= wins_b;
                if (len_b == 1) goto copy_a;
                if (len_b == 0) goto succeed;   /* inconsistent comparator */
            }
            a[dest--] = a[ca--];
            if (--len_a == 0) goto succeed;
        }
        min_gallop++;
        s->min_gallop = min_gallop;
    }
succeed:
    if (len_b > 0) ts_copy(a + dest - (len_b - 1), t, len_b);
    return;
copy_a:
    dest -= len_a;
    ca -= len_a;
    ts_copy(a + dest + 1, a + ca + 1, len_a);
    a[dest] = t[ct];
}

/* MergeAt(): merge pending runs i and i + 1. */
static void ts_merge_at(tim_sort *s, int i)
{
    ptrdiff_t base_a = s->run_base[i], len_a = s->run_len[i];
    const ptrdiff_t base_b = s->run_base[i + 1];
    ptrdiff_t len_b = s->run_len[i + 1];
    s->run_len[i] = len_a + len_b;
    if (i == s->n_runs - 3) {
        s->run_base[i + 1] = s->run_base[i + 2];
        s->run_len[i + 1] = s->run_len[i + 2];
    }
    s->n_runs--;

    const ptrdiff_t k = ts_gallop_right(s, s->a, s->a[base_b], base_a, len_a, 0);
    base_a += k;
    len_a -= k;
    if (len_a == 0) return;
    len_b = ts_gallop_left(s, s->a, s->a[base_a + len_a - 1], base_b, len_b, len_b - 1);
    if (len_b == 0) return;
    if (len_a <= len_b) ts_merge_low(s, base_a, len_a, base_b, len_b);
    else ts_merge_high(s, base_a, len_a, base_b, len_b);
}

/* RunInvariantEstablished(). */
static int ts_invariant(const tim_sort *s, int n)
{
    if (n < 2) return 1;
    return s->run_len[n - 2] > s->run_len[n - 1] + s->run_len[n];
}

/* MergeCollapse(). */
static void ts_merge_collapse(tim_sort *s)
{
    while (s->n_runs > 1) {
        int n = s->n_runs - 2;
        if (!ts_invariant(s, n + 1) || !ts_invariant(s, n)) {
            if (s->run_len[n - 1] < s->run_len[n + 1]) n--;
            ts_merge_at(s, n);
        } else if (s->run_len[n] <= s->run_len[n + 1]) {
            ts_merge_at(s, n);
        } else {
            break;
        }
    }
}

/* MergeForceCollapse(). */
static void ts_merge_force_collapse(tim_sort *s)
{
    while (s->n_runs > 1) {
        int n = s->n_runs - 2;
        if (n > 0 && s->run_len[n - 1] < s->run_len[n + 1]) n--;
        ts_merge_at(s, n);
    }
}

/* queue.sort(compareXYSlope): ArrayTimSort() on n node ids. */
static void sort_holes(ob_earcut_ctx *c, uint32_t *q, size_t n)
{
    tim_sort s;
    s.nd = c->nodes;
    s.a = q;
    s.tmp = NULL;
    s.min_gallop = TS_MIN_GALLOP;
    s.n_runs = 0;
    if (n < 2) return;
    if (n < TS_MIN_LEN) {
        ts_binary_insertion(&s, 0, 0, (ptrdiff_t)n);
        return;
    }
    s.tmp = reserve(c, &c->queue_tmp, n, sizeof(uint32_t));

    ptrdiff_t min_run = (ptrdiff_t)n, r = 0;   /* ComputeMinRunLength() */
    while (min_run >= 64) {
        r |= min_run & 1;
        min_run >>= 1;
    }
    min_run += r;

    ptrdiff_t low = 0, remaining = (ptrdiff_t)n;
    while (remaining != 0) {
        ptrdiff_t run = ts_count_run(&s, low, low + remaining);
        if (run < min_run) {
            const ptrdiff_t forced = min_run < remaining ? min_run : remaining;
            ts_binary_insertion(&s, low, low + run, low + forced);
            run = forced;
        }
        s.run_base[s.n_runs] = low;
        s.run_len[s.n_runs] = run;
        s.n_runs++;
        ts_merge_collapse(&s);
        low += run;
        remaining -= run;
    }
    ts_merge_force_collapse(&s);
}

/* findHoleBridge(): David Eberly's bridge from the hole's leftmost point to
** the outer ring: the nearest edge crossed by the leftward ray, then the
** ring vertex of smallest angle inside the triangle it spans.  Scans the
** block index; NIL if no edge is crossed. */
static uint32_t find_hole_bridge(ob_earcut_ctx *c, uint32_t hole, uint32_t outer)
{
    const ec_node *nd = c->nodes;
    const double hx = nd[hole].x, hy = nd[hole].y;
    double qx = -INFINITY;
    uint32_t m = NIL, p = outer;

    if (equals(nd, hole, p)) return p;

    for (size_t b = 0; b < c->n_blocks; b++) {
        const double *g = (const double *)c->bbox.p + 4 * b;
        if (hy < g[1] || hy > g[3] || g[0] > hx || g[2] <= qx) continue;
        uint32_t stop = live_block_stop(c, b);
        p = live_block_head(c, b);
        do {
            if (is_live(nd, p)) {
                uint32_t pn = nd[p].next;
                if (equals(nd, hole, pn)) return pn;
                const double px = nd[p].x, py = nd[p].y, nx = nd[pn].x, ny = nd[pn].y;
                if (hy <= py && hy >= ny && ny != py) {
                    const double x = px + (hy - py) * (nx - px) / (ny - py);
                    if (x <= hx && x > qx) {
                        qx = x;
                        m = px < nx ? p : pn;
                        if (x == hx) return m;  /* hole touches the edge */
                    }
                }
            }
            p = nd[p].next;
        } while (p != stop);
    }
    if (m == NIL) return NIL;

    const double mx = nd[m].x, my = nd[m].y;
    const double tmin_y = js_min(hy, my), tmax_y = js_max(hy, my);
    double tan_min = INFINITY;

    for (size_t b = 0; b < c->n_blocks; b++) {
        const double *g = (const double *)c->bbox.p + 4 * b;
        if (g[2] < mx || g[0] > hx || g[3] < tmin_y || g[1] > tmax_y) continue;
        uint32_t stop = live_block_stop(c, b);
        p = live_block_head(c, b);
        do {
            const double px = nd[p].x, py = nd[p].y;
            if (is_live(nd, p) && hx >= px && px >= mx && hx != px &&
                point_in_triangle(hy < my ? hx : qx, hy, mx, my, hy < my ? qx : hx, hy, px, py)) {
                const double tan = fabs(hy - py) / (hx - px);
                const uint32_t pn = nd[p].next;
                /* a hole point on p's horizontal edge (T-junction) is valid too */
                if ((locally_inside(nd, p, hole) || (py == hy && nd[pn].y == hy && nd[pn].x > hx)) &&
                    (tan < tan_min ||
                     (tan == tan_min && (px > nd[m].x ||
                                         (px == nd[m].x && sector_contains_sector(nd, m, p)))))) {
                    m = p;
                    tan_min = tan;
                }
            }
            p = nd[p].next;
        } while (p != stop);
    }
    return m;
}

/* eliminateHole(): bridge the hole into the outer ring, index the spliced
** run, heal both slit edges. */
static uint32_t eliminate_hole(ob_earcut_ctx *c, uint32_t hole, uint32_t outer)
{
    uint32_t bridge = find_hole_bridge(c, hole, outer);
    if (bridge == NIL) return outer;

    uint32_t rev = split_polygon(c, bridge, hole);
    uint32_t bridge2 = c->nodes[rev].next;
    index_segment(c, bridge, c->nodes[bridge2].next);
    filter_points(c, rev, c->nodes[rev].next);
    return filter_points(c, bridge, c->nodes[bridge].next);
}

/* eliminateHoles(): merge every hole into the outer ring, left to right. */
static uint32_t eliminate_holes(ob_earcut_ctx *c, const double *xy, size_t n,
                                const uint32_t *holes, size_t n_holes, uint32_t outer)
{
    uint32_t *q = reserve(c, &c->queue, n_holes, sizeof(uint32_t));
    size_t nq = 0;
    for (size_t i = 0; i < n_holes; i++) {
        size_t start = holes[i] < n ? holes[i] : n;
        size_t end = i + 1 < n_holes ? (holes[i + 1] < n ? holes[i + 1] : n) : n;
        if (start >= end) continue;     /* empty ring (earcut would throw) */
        uint32_t list = linked_list(c, xy, start, end, 0);
        if (list == c->nodes[list].next) c->nodes[list].steiner = 1;
        q[nq++] = get_leftmost(c->nodes, list);
    }
    sort_holes(c, q, nq);

    c->n_blocks = 0;
    index_segment(c, outer, outer);
    c->index_active = 1;
    for (size_t i = 0; i < nq; i++)
        outer = eliminate_hole(c, ((uint32_t *)c->queue.p)[i], outer);
    c->index_active = 0;
    return filter_points(c, outer, outer);
}

/* ------------------------------------------------------------------------ */
/* API */

ob_earcut_ctx *ob_earcut_ctx_create(void)
{
    return calloc(1, sizeof(ob_earcut_ctx));
}

void ob_earcut_ctx_free(ob_earcut_ctx *ctx)
{
    if (!ctx) return;
    free(ctx->nodes);
    free(ctx->tri);
    ec_buf *bufs[] = {&ctx->queue, &ctx->queue_tmp, &ctx->bbox, &ctx->block_head,
                      &ctx->block_stop, &ctx->sort_a, &ctx->sort_b, &ctx->z_a,
                      &ctx->z_b, &ctx->stack};
    for (size_t i = 0; i < sizeof bufs / sizeof bufs[0]; i++) free(bufs[i]->p);
    free(ctx);
}

/* earcut(data, holeIndices, 2) into c->tri; longjmps on out of memory. */
static void run(ob_earcut_ctx *c, const double *xy, size_t n,
                const uint32_t *holes, size_t n_holes)
{
    c->n_nodes = 0;
    c->n_tri = 0;
    c->n_blocks = 0;
    c->n_stack = 0;
    c->index_active = 0;
    c->hashing = 0;
    c->min_x = c->min_y = c->inv_size = 0;

    if (n > (MAX_NODES - 16) / 3 || n_holes > (MAX_NODES - 16) / 6 ||
        n + 2 * n_holes > (MAX_NODES - 16) / 3) longjmp(c->oom, 1);
    c->nodes = grow_raw(c, c->nodes, &c->cap_nodes, n + 2 * n_holes + 16, sizeof(ec_node));
    c->tri = grow_raw(c, c->tri, &c->cap_tri, 3 * n + 3, sizeof(uint32_t));

    size_t outer_len = n_holes ? (holes[0] < n ? holes[0] : n) : n;
    uint32_t outer = linked_list(c, xy, 0, outer_len, 1);
    if (outer == NIL || c->nodes[outer].next == c->nodes[outer].prev) return;

    if (n_holes) outer = eliminate_holes(c, xy, n, holes, n_holes, outer);

    /* z-order hashing above 80 vertices (all rings counted), bbox of the
    ** outer ring only */
    if (n > 80) {
        double min_x = xy[0], min_y = xy[1], max_x = min_x, max_y = min_y;
        for (size_t i = 1; i < outer_len; i++) {
            const double x = xy[2 * i], y = xy[2 * i + 1];
            if (x < min_x) min_x = x;
            if (y < min_y) min_y = y;
            if (x > max_x) max_x = x;
            if (y > max_y) max_y = y;
        }
        double inv = js_max(max_x - min_x, max_y - min_y);
        c->inv_size = inv != 0 ? 32767 / inv : 0;
        c->min_x = min_x;
        c->min_y = min_y;
        c->hashing = js_truthy(c->inv_size);
    }

    earcut_linked(c, outer);
}

int ob_earcut(ob_earcut_ctx *ctx, const double *xy, size_t n_vertices,
              const uint32_t *holes, size_t n_holes,
              const uint32_t **out, size_t *n_indices)
{
    *out = NULL;
    *n_indices = 0;
    if (setjmp(ctx->oom)) {
        ctx->n_tri = 0;
        ctx->index_active = 0;
        return -1;
    }
    run(ctx, xy, n_vertices, holes, n_holes);
    *out = ctx->tri;
    *n_indices = ctx->n_tri;
    return 0;
}
