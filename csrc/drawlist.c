/* drawlist.c: §8.4 the draw list (Skeleton.drawList).
**
** Buffers are sized at creation from the attachments each slot can show
** (every skin's entries), and the triangulations of shape outlines and
** clipping polygons are computed once then (local outlines never change), so
** ob_draw_build allocates nothing per frame. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "atlas.h"
#include "attachment_vertices.h"
#include "drawlist.h"
#include "earcut.h"
#include "particles.h"

#ifdef __SSE2__
#include <emmintrin.h>
#endif
/* draw (issue 17): the plain regions' corner transform four lanes wide (two
** corners, each lane the operations of the SSE2 and scalar forms, so the same
** bits), built with -mavx2 or as a clone picked at run time, the rule of the
** vertex kernels (attachment_vertices.c) */
#if defined(__AVX2__)
#define QD_AVX2 1
#define QD_AVX2_HERE() 1
#define QD_AVX
#elif defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && defined(__linux__) && !defined(OB_NO_DISPATCH)
#define QD_AVX2 1
#define QD_AVX2_HERE() (__builtin_cpu_supports("avx2") != 0)
#define QD_AVX __attribute__((target("avx2")))
#endif
#ifdef QD_AVX2
#include <immintrin.h>
#endif


/* ---- geometry helpers (§8.2, §8.6, §8.7) --------------------------- */

void ob_quad_local(const ob_attachment *att, double quad[8])
{
    int text = att->type == OB_ATT_TEXT;
    /* §8.2 hw = width/2 · (text ? 1 : scaleX); hh = height/2 · (text ? 1 : scaleY) */
    double hw = att->width / 2 * (text ? 1 : att->scale_x);
    double hh = att->height / 2 * (text ? 1 : att->scale_y);
    double p[8] = {-hw, hh, hw, hh, hw, -hh, -hw, -hh};  /* TL TR BR BL, y-up */
    double kx = 0, ky = 0;
    if (!text) {
        kx = tan(att->skew_x * OB_DEG);  /* §8.2 skew: (x, y) → (x + kx·y, y + ky·x) */
        ky = tan(att->skew_y * OB_DEG);
    }
    double c = cos(att->rotation * OB_DEG), s = sin(att->rotation * OB_DEG);
    for (int i = 0; i < 4; i++) {
        double x = p[2 * i], y = p[2 * i + 1];
        if (!text) {
            double sx = x + kx * y, sy = y + ky * x;
            x = sx;
            y = sy;
        }
        /* §8.2 rotate by rotation, add (att.x, att.y) */
        quad[2 * i] = c * x - s * y + att->x;
        quad[2 * i + 1] = s * x + c * y + att->y;
    }
}

/* §8.2 then the slot bone's world matrix */
static void quad_to_world(const double local[8], ob_mat m, double quad[8])
{
    for (int i = 0; i < 4; i++) {
        double lx = local[2 * i], ly = local[2 * i + 1];
        quad[2 * i] = m.a * lx + m.b * ly + m.x;
        quad[2 * i + 1] = m.c * lx + m.d * ly + m.y;
    }
}

void ob_quad_world(const ob_attachment *att, ob_mat m, double quad[8])
{
    double local[8];
    ob_quad_local(att, local);
    quad_to_world(local, m, quad);
}

/* The world quad from the local corners cached at creation. */
static void cached_quad(const ob_instance *inst, int32_t slot, int32_t ai, double quad[8])
{
    quad_to_world(inst->draw->local_quad + 8 * (size_t)ai, inst->world[inst->doc->slots[slot].bone], quad);
}

void ob_quad_points(const double q[8], const double *uv, int32_t n, float *out)
{
    /* §8.6 trimQuad / §8.7 quadPoints: U = TR − TL, V = BL − TL, TL + U·u + V·v */
    double ux = q[2] - q[0], uy = q[3] - q[1], vx = q[6] - q[0], vy = q[7] - q[1];
    int32_t i = 0;
#ifdef __SSE2__
    /* the same sums, x and y in two lanes, two points a store (issue 17) */
    __m128d Q = _mm_loadu_pd(q), U = _mm_set_pd(uy, ux), V = _mm_set_pd(vy, vx);
    for (; i + 2 <= n; i += 2) {
        __m128d a = _mm_loadu_pd(uv + 2 * i), b = _mm_loadu_pd(uv + 2 * i + 2);
        __m128d pa = _mm_add_pd(_mm_add_pd(Q, _mm_mul_pd(U, _mm_unpacklo_pd(a, a))), _mm_mul_pd(V, _mm_unpackhi_pd(a, a)));
        __m128d pb = _mm_add_pd(_mm_add_pd(Q, _mm_mul_pd(U, _mm_unpacklo_pd(b, b))), _mm_mul_pd(V, _mm_unpackhi_pd(b, b)));
        _mm_storeu_ps(out + 2 * i, _mm_movelh_ps(_mm_cvtpd_ps(pa), _mm_cvtpd_ps(pb)));
    }
#endif
    for (; i < n; i++) {
        double u = uv[2 * i], v = uv[2 * i + 1];
        out[2 * i] = (float)(q[0] + ux * u + vx * v);
        out[2 * i + 1] = (float)(q[1] + uy * u + vy * v);
    }
}

static const double UNIT_UVS[8] = {0, 0, 1, 0, 1, 1, 0, 1};  /* §8.2 TL TR BR BL, v down */

static void box_corners(const double b[4], double out[8])
{
    const double c[8] = {b[0], b[1], b[2], b[1], b[2], b[3], b[0], b[3]};
    memcpy(out, c, sizeof c);
}

/* ---- creation ------------------------------------------------------- */

static int32_t packed_polygon_count(const ob_document *doc, const ob_attachment *a)
{
    const ob_region_data *r = ob_atlas_region(doc, a->image);
    return r && r->polygon_count >= 3 ? r->polygon_count : 0;  /* §8.7 used when length ≥ 6 */
}

/* What one attachment can need when drawn: vertices, indices, per-vertex
** colours, mask vertices and mask indices. */
static void attachment_need(const ob_document *doc, const ob_draw_state *ds, int32_t ai, int32_t need[5])
{
    const ob_attachment *a = &doc->attachments[ai];
    memset(need, 0, 5 * sizeof *need);
    switch (a->type) {
    case OB_ATT_REGION: {
        int32_t n = packed_polygon_count(doc, a);
        need[0] = n ? n : 4;
        need[1] = n ? 3 * (n - 2) : 6;
        break;
    }
    case OB_ATT_MESH:
        need[0] = ob_attachment_world_vertex_count(a);
        need[1] = a->triangle_count;
        break;
    case OB_ATT_SHAPE:
        need[0] = ds->outline_count[ai];
        need[1] = ds->tri_count[ai];
        break;
    case OB_ATT_TEXT:
    case OB_ATT_SEQUENCE:
        need[0] = 4;
        need[1] = 6;
        break;
    case OB_ATT_PARTICLES:  /* sized at the first build (ob_particles_max_quads) */
        break;
    case OB_ATT_CLIPPING:
        need[3] = ob_attachment_world_vertex_count(a);
        need[4] = ds->tri_start[ai] >= 0 ? ds->tri_count[ai] : 0;
        break;
    default:
        break;
    }
}

/* Appends tris to a growing creation-time array. */
static int push_tris(ob_draw_state *ds, size_t *cap, size_t *len, const uint32_t *t, size_t n)
{
    if (*len + n > *cap) {
        size_t nc = (*cap ? *cap * 2 : 256);
        while (nc < *len + n) nc *= 2;
        uint32_t *p = realloc(ds->tris, nc * sizeof *p);
        if (!p) return -1;
        ds->tris = p;
        *cap = nc;
    }
    if (n) memcpy(ds->tris + *len, t, n * sizeof *t);
    *len += n;
    return 0;
}

static int32_t find_input(const ob_document *doc, const char *id)
{
    if (!id) return -1;
    for (int32_t m = 0; m < doc->machine_count && m < 0x8000; m++)
        for (int32_t i = 0; i < doc->machines[m].input_count && i < 0x10000; i++)
            if (doc->machines[m].inputs[i].id && strcmp(doc->machines[m].inputs[i].id, id) == 0)
                return (m << 16) | i;
    return -1;
}

#define XALLOC(p, n) do { size_t n_ = (size_t)(n); (p) = calloc(n_ > 0 ? n_ : 1, sizeof *(p)); if (!(p)) return -1; } while (0)

/* Pairs a region attachment draws (§8.7: packed polygon points, else 4). */
static int32_t region_points(const ob_document *doc, const ob_attachment *a)
{
    int32_t np = packed_polygon_count(doc, a);
    return np ? np : 4;
}

/* The uvs and quad fractions of regions and meshes, computed once with the
** arithmetic a frame would use (so the copies are the same float32 values). */
static int build_region_mesh_caches(const ob_document *doc, ob_draw_state *ds)
{
    int32_t na = doc->attachment_count;
    XALLOC(ds->uv_start, na);
    XALLOC(ds->uv_count, na);
    XALLOC(ds->pt_start, na);
    int64_t nuv = 0, npt = 0;
    for (int32_t i = 0; i < na; i++) {
        const ob_attachment *a = &doc->attachments[i];
        ds->uv_start[i] = ds->pt_start[i] = -1;
        int32_t n = a->type == OB_ATT_REGION ? region_points(doc, a)
                  : a->type == OB_ATT_MESH ? ob_attachment_world_vertex_count(a) : -1;
        if (n < 0) continue;
        ds->uv_start[i] = (int32_t)nuv;
        ds->uv_count[i] = n;
        nuv += n;
        const ob_region_data *r = ob_atlas_region(doc, a->image);
        if (a->type == OB_ATT_REGION && (packed_polygon_count(doc, a) || (r && ob_region_trimmed(r)))) {
            ds->pt_start[i] = (int32_t)npt;
            npt += n;
        }
        if (nuv > INT32_MAX / 4 || npt > INT32_MAX / 4) return -1;
    }
    XALLOC(ds->uv_pool, 2 * (size_t)nuv);
    XALLOC(ds->pt_pool, 2 * (size_t)npt);
    for (int32_t i = 0; i < na; i++) {
        if (ds->uv_start[i] < 0) continue;
        const ob_attachment *a = &doc->attachments[i];
        const ob_region_data *r = ob_atlas_region(doc, a->image);
        ob_uvmap map = r ? ob_atlas_uvmap(doc, r) : ob_uvmap_identity();
        float *uv = ds->uv_pool + 2 * (size_t)ds->uv_start[i];
        double *p = ds->pt_start[i] >= 0 ? ds->pt_pool + 2 * (size_t)ds->pt_start[i] : NULL;
        int32_t n = ds->uv_count[i];
        if (a->type == OB_ATT_MESH) {
            /* §8.3 the file's uvs (missing pairs read as 0), §8.7 remapped as is if packed */
            int32_t have = a->uv_count < n ? a->uv_count : n;
            ob_uvmap_apply(&map, a->uvs, have, uv);
            static const double zero[2] = {0, 0};
            for (int32_t k = have; k < n; k++) ob_uvmap_apply(&map, zero, 1, uv + 2 * k);
        } else if (packed_polygon_count(doc, a)) {
            /* §8.7 polygons: img[i] = (polygon[2i]/origW, polygon[2i+1]/origH) as float32,
            ** vertices = quadPoints on the untrimmed quad, uvs remapped */
            for (int32_t k = 0; k < n; k++) {
                p[2 * k] = (float)(r->polygon[2 * k] / r->original_width);
                p[2 * k + 1] = (float)(r->polygon[2 * k + 1] / r->original_height);
            }
            ob_uvmap_apply(&map, p, n, uv);
        } else if (p) {
            /* §8.7 trimmed: trimQuad on vertices, remapped trim-box uvs */
            double box[4];
            ob_region_trim_box(r, box);
            box_corners(box, p);
            ob_uvmap_apply(&map, p, 4, uv);
        } else {
            ob_uvmap_apply(&map, UNIT_UVS, 4, uv);
        }
    }
    return 0;
}

/* draw (issue 17): the local corners of the plain regions (no packed
** polygon, not trimmed), 64-byte aligned, for the world-vertex records'
** corner transform: per pair of corners (x0, x0, x1, x1, y0, y0, y1, y1),
** so both lane widths read their operands as they are multiplied. */
static int build_quad_dup(const ob_document *doc, ob_draw_state *ds)
{
    int32_t na = doc->attachment_count, nq = 0;
    XALLOC(ds->quad_dup_start, na);
    for (int32_t i = 0; i < na; i++) {
        ds->quad_dup_start[i] = -1;
        if (doc->attachments[i].type == OB_ATT_REGION && ds->uv_start[i] >= 0 && ds->pt_start[i] < 0) {
            if (nq >= INT32_MAX / 32) return -1;
            ds->quad_dup_start[i] = 16 * nq++;
        }
    }
    size_t bytes = ((size_t)(nq > 0 ? nq : 1) * 16 * sizeof(double) + 63) & ~(size_t)63;
    ds->quad_dup = aligned_alloc(64, bytes);
    if (!ds->quad_dup) return -1;
    for (int32_t i = 0; i < na; i++) {
        if (ds->quad_dup_start[i] < 0) continue;
        const double *l = ds->local_quad + 8 * (size_t)i;
        double *q = ds->quad_dup + ds->quad_dup_start[i];
        for (int k = 0; k < 4; k++) {
            double *c = q + 8 * (k / 2) + 2 * (k % 2);
            c[0] = c[1] = l[2 * k];
            c[4] = c[5] = l[2 * k + 1];
        }
    }
    return 0;
}

/* The per-attachment caches (outlines, local quads, uvs, quad fractions,
** earcut indices, sequence inputs) depend on the document alone: built once
** per document, by its first instance, and shared by all (issue 17: 14 KB of
** each spineboy instance).  Kept in the document as an atomic cache, like its
** JSON text; freed with it through the cache's own free function. */
typedef struct draw_shared {
    void (*free)(void *self);    /* first: what ob_document_free calls (document.h) */
    ob_draw_state k;             /* only the cache fields are set */
    _Atomic(ob_wv_plan *) plan;  /* the weighted meshes' plan: built by the first vertex build */
} draw_shared;

static void free_caches(ob_draw_state *ds)
{
    free(ds->outline_start); free(ds->outline_count); free(ds->outline); free(ds->local_quad);
    free(ds->uv_start); free(ds->uv_count); free(ds->uv_pool); free(ds->pt_start); free(ds->pt_pool);
    free(ds->tri_start); free(ds->tri_count); free(ds->tris);
    free(ds->seq_input);
    free(ds->quad_dup_start); free(ds->quad_dup);
}

static void draw_shared_free(void *p)
{
    draw_shared *s = p;
    free_caches(&s->k);
    ob_wv_plan *plan = atomic_load(&s->plan);
    if (plan) ob_wv_plan_free(plan);
    free(plan);
    free(s);
}

static int build_caches(const ob_document *doc, ob_draw_state *ds)
{
    int32_t na = doc->attachment_count;
    XALLOC(ds->outline_start, na);
    XALLOC(ds->outline_count, na);
    XALLOC(ds->tri_start, na);
    XALLOC(ds->tri_count, na);
    XALLOC(ds->seq_input, na);

    /* §8.5 local outlines of shapes */
    int32_t total = 0;
    for (int32_t i = 0; i < na; i++) {
        const ob_attachment *a = &doc->attachments[i];
        ds->outline_start[i] = ds->tri_start[i] = ds->seq_input[i] = -1;
        if (a->type == OB_ATT_SHAPE) {
            ds->outline_start[i] = total;
            ds->outline_count[i] = ob_shape_outline_count(a);
            total += ds->outline_count[i];
        }
        if (a->type == OB_ATT_SEQUENCE) ds->seq_input[i] = find_input(doc, a->input_ref);
    }
    XALLOC(ds->outline, 2 * (size_t)total);
    /* §8.2 local quads of regions, sequences and texts (placement never changes) */
    XALLOC(ds->local_quad, 8 * (size_t)na);
    for (int32_t i = 0; i < na; i++) {
        ob_attachment_type t = doc->attachments[i].type;
        if (t == OB_ATT_REGION || t == OB_ATT_SEQUENCE || t == OB_ATT_TEXT)
            ob_quad_local(&doc->attachments[i], ds->local_quad + 8 * (size_t)i);
    }
    if (build_region_mesh_caches(doc, ds) < 0) return -1;
    if (build_quad_dup(doc, ds) < 0) return -1;
    ob_earcut_ctx *ec = ob_earcut_ctx_create();
    if (!ec) return -1;
    /* earcut of the shape outlines and of unweighted clipping vertices (§8.4, §8.5) */
    size_t tcap = 0, tlen = 0;
    for (int32_t i = 0; i < na; i++) {
        const ob_attachment *a = &doc->attachments[i];
        const double *xy = NULL;
        int32_t n = 0;
        if (a->type == OB_ATT_SHAPE) {
            double *o = ds->outline + 2 * ds->outline_start[i];
            n = ob_shape_outline(a, o);
            xy = o;
        } else if (a->type == OB_ATT_CLIPPING && a->vertex_count >= 3) {
            xy = a->vertices;
            n = a->vertex_count;
        } else {
            continue;
        }
        const uint32_t *t = NULL;
        size_t nt = 0;
        if ((n >= 3 && ob_earcut(ec, xy, (size_t)n, NULL, 0, &t, &nt) < 0) || push_tris(ds, &tcap, &tlen, t, nt) < 0) {
            ob_earcut_ctx_free(ec);
            return -1;
        }
        ds->tri_start[i] = (int32_t)(tlen - nt);
        ds->tri_count[i] = (int32_t)nt;
    }
    ob_earcut_ctx_free(ec);
    return 0;
}

static const ob_draw_state *shared_caches(const ob_document *doc)
{
    ob_document *d = (ob_document *)doc;  /* a cache: the document is not changed */
    draw_shared *s = atomic_load(&d->draw_shared);
    if (s) return &s->k;
    s = calloc(1, sizeof *s);
    if (!s) return NULL;
    s->free = draw_shared_free;
    atomic_init(&s->plan, NULL);
    if (build_caches(doc, &s->k) < 0) {
        draw_shared_free(s);
        return NULL;
    }
    void *none = NULL;
    if (!atomic_compare_exchange_strong(&d->draw_shared, &none, s)) {  /* another instance built it first */
        draw_shared_free(s);
        s = none;
    }
    return &s->k;
}

/* The document's weighted-vertex plan, built once (by whichever instance
** asks first; a loser of the race frees its copy), read-only afterwards. */
static const ob_wv_plan *shared_plan(const ob_document *doc)
{
    draw_shared *s = atomic_load(&((ob_document *)doc)->draw_shared);  /* set at instance creation */
    ob_wv_plan *p = atomic_load(&s->plan);
    if (p) return p;
    p = malloc(sizeof *p);
    if (!p) return NULL;
    if (ob_wv_plan_build(doc, p) < 0) {
        free(p);
        return NULL;
    }
    ob_wv_plan *none = NULL;
    if (!atomic_compare_exchange_strong(&s->plan, &none, p)) {
        ob_wv_plan_free(p);
        free(p);
        p = none;
    }
    return p;
}

int ob_draw_state_create(ob_instance *inst)
{
    const ob_document *doc = inst->doc;
    ob_draw_state *ds = calloc(1, sizeof *ds);
    if (!ds) return -1;
    inst->draw = ds;
    int32_t na = doc->attachment_count, ns = doc->slot_count;
    const ob_draw_state *k = shared_caches(doc);
    if (!k) return -1;
    ds->outline_start = k->outline_start; ds->outline_count = k->outline_count; ds->outline = k->outline;
    ds->local_quad = k->local_quad;
    ds->uv_start = k->uv_start; ds->uv_count = k->uv_count; ds->uv_pool = k->uv_pool;
    ds->pt_start = k->pt_start; ds->pt_pool = k->pt_pool;
    ds->tri_start = k->tri_start; ds->tri_count = k->tri_count; ds->tris = k->tris;
    ds->seq_input = k->seq_input;
    ds->quad_dup_start = k->quad_dup_start; ds->quad_dup = k->quad_dup;
    XALLOC(ds->text_override, ns);

    /* buffer sizes: per slot, the largest need over the attachments it can show */
    int32_t (*slot_need)[5] = calloc(ns > 0 ? (size_t)ns : 1, sizeof *slot_need);
    if (!slot_need) return -1;
    for (int32_t k = 0; k < doc->skin_count; k++) {
        const ob_skin_data *skin = &doc->skins[k];
        for (int32_t e = 0; e < skin->entry_count; e++) {
            int32_t s = skin->entries[e].slot, ai = skin->entries[e].attachment;
            if (s < 0 || s >= ns || ai < 0) continue;
            int32_t need[5];
            attachment_need(doc, ds, ai, need);
            for (int j = 0; j < 5; j++)
                if (need[j] > slot_need[s][j]) slot_need[s][j] = need[j];
        }
    }
    int64_t sum[5] = {0};
    for (int32_t s = 0; s < ns; s++)
        for (int j = 0; j < 5; j++) sum[j] += slot_need[s][j];
    free(slot_need);
    for (int j = 0; j < 5; j++)
        if (sum[j] > INT32_MAX / 4) return -1;
    ds->vertex_capacity = (int32_t)sum[0];
    ds->index_capacity = (int32_t)sum[1];
    ds->color_capacity = (int32_t)sum[2];
    ds->mask_vertex_capacity = (int32_t)sum[3];
    ds->mask_index_capacity = (int32_t)sum[4];
    /* formatted text: the templates' length with room to spare (grows, counted, if a value is long) */
    size_t text = 256;
    for (int32_t i = 0; i < na; i++)
        if (doc->attachments[i].type == OB_ATT_TEXT && doc->attachments[i].text)
            text += 2 * strlen(doc->attachments[i].text) + 64;
    ds->text_capacity = text;
    /* the output buffers are allocated by the first build that needs them
    ** (size_outputs), with the capacities above: an
    ** instance only advanced (a crowd, a bake) never holds them (issue 17) */
    return 0;
}

/* An entry's record kind: 0 mesh, 1 plain region, 2 other region. */
static inline int wv_kind(const ob_document *doc, const ob_draw_state *ds, int32_t ai)
{
    return doc->attachments[ai].type == OB_ATT_MESH ? 0 : ds->quad_dup_start[ai] >= 0 ? 1 : 2;
}

/* What ob_world_vertices_build writes and reads, once, at the first build
** of either kind: its entries, its vertices (as the draw list sizes them),
** the per-slot attachment cache and the document's shared weighted plan. */
static int size_world_vertices(ob_instance *inst)
{
    ob_draw_state *ds = inst->draw;
    const ob_document *doc = inst->doc;
    int32_t ns = doc->slot_count;
    if (!(ds->wv_plan.plan = shared_plan(inst->doc))) return -1;
    /* a build after one that ran out of memory allocates again: free what it left */
    free(ds->wv_slot); free(ds->wv_attachment); free(ds->wv_first); free(ds->wv_vertices); free(ds->wv);
    free(ds->slot_cache); free(ds->wv_key); free(ds->wv_rec); free(ds->wv_slot_entry);
    ds->wv_slot = ds->wv_attachment = ds->wv_first = ds->wv_vertices = NULL;
    ds->wv = NULL;
    ds->slot_cache = NULL;
    ds->wv_key = NULL;
    ds->wv_rec = NULL;
    ds->wv_slot_entry = NULL;
    ds->wv_planned = 0;
    XALLOC(ds->wv_slot, ns);
    XALLOC(ds->wv_attachment, ns);
    XALLOC(ds->wv_first, ns);
    XALLOC(ds->wv_vertices, ns);
    XALLOC(ds->wv, 2 * (size_t)ds->vertex_capacity);
    ds->wv_capacity = ds->vertex_capacity;
    XALLOC(ds->slot_cache, ns);
    XALLOC(ds->wv_key, 2 * (size_t)ns + ((size_t)inst->doc->bone_count + 3) / 4);
    XALLOC(ds->wv_slot_entry, 2 * (size_t)ns);
    for (int32_t s = 0; s < ns; s++) {
        ds->slot_cache[s].skin = INT32_MIN;  /* nothing cached */
        ds->slot_cache[s].bone = doc->slots[s].bone;
    }
    /* the records: per kind, one for each slot some skin lets show that kind */
    uint8_t *can = calloc(ns > 0 ? (size_t)ns : 1, 1);
    if (!can) return -1;
    for (int32_t k = 0; k < doc->skin_count; k++)
        for (int32_t e = 0; e < doc->skins[k].entry_count; e++) {
            int32_t s = doc->skins[k].entries[e].slot, ai = doc->skins[k].entries[e].attachment;
            if (s >= 0 && s < ns && ai >= 0 && ai < doc->attachment_count && ds->uv_start[ai] >= 0)
                can[s] |= (uint8_t)(1u << wv_kind(doc, ds, ai));
        }
    int32_t cap[3] = {0, 0, 0};
    for (int32_t s = 0; s < ns; s++)
        for (int k = 0; k < 3; k++) cap[k] += (can[s] >> k) & 1;
    free(can);
    ds->wv_poly_base = cap[1];
    ds->wv_mesh_base = cap[1] + cap[2];
    XALLOC(ds->wv_rec, (size_t)cap[0] + cap[1] + cap[2]);
    ds->wv_sized = 1;
    return 0;
}

/* The output buffers of the draw list, once, at its first build (an
** instance only advanced, or only asked for world vertices, never holds
** them: issue 17). */
static int size_outputs(ob_instance *inst)
{
    ob_draw_state *ds = inst->draw;
    int32_t ns = inst->doc->slot_count;
    if (!ds->wv_sized && size_world_vertices(inst) < 0) return -1;
    XALLOC(ds->items, ns);
    XALLOC(ds->masks, ns);
    XALLOC(ds->vertices, 2 * (size_t)ds->vertex_capacity);
    XALLOC(ds->uvs, 2 * (size_t)ds->vertex_capacity);
    XALLOC(ds->indices, ds->index_capacity);
    XALLOC(ds->colors, 4 * (size_t)ds->color_capacity);
    XALLOC(ds->mask_vertices, 2 * (size_t)ds->mask_vertex_capacity);
    XALLOC(ds->mask_indices, ds->mask_index_capacity);
    XALLOC(ds->text, ds->text_capacity);
    ds->outputs_sized = 1;
    return 0;
}

void ob_draw_state_free(ob_instance *inst)
{
    ob_draw_state *ds = inst->draw;
    if (!ds) return;
    if (ds->text_override)
        for (int32_t s = 0; s < inst->doc->slot_count; s++) free(ds->text_override[s]);
    free(ds->text_override);
    /* the caches are the document's (shared_caches) */
    free(ds->wv_slot); free(ds->wv_attachment); free(ds->wv_first); free(ds->wv_vertices); free(ds->wv);
    free(ds->slot_cache); free(ds->wv_key); free(ds->wv_rec); free(ds->wv_slot_entry);
    free(ds->items); free(ds->masks);
    free(ds->vertices); free(ds->uvs); free(ds->indices); free(ds->colors);
    free(ds->mask_vertices); free(ds->mask_indices);
    free(ds->text);
    free(ds);
    inst->draw = NULL;
}

int ob_draw_set_text(ob_instance *inst, int32_t slot, const char *text)
{
    ob_draw_state *ds = inst->draw;
    if (slot < 0 || slot >= inst->doc->slot_count) return 0;
    char *copy = NULL;
    if (text) {
        size_t n = strlen(text) + 1;
        copy = malloc(n);
        if (!copy) return -1;
        memcpy(copy, text, n);
    }
    free(ds->text_override[slot]);
    ds->text_override[slot] = copy;
    return 0;
}


/* The slot's cache entry, resolved again when its attachment name or the
** skin changed (the document, and so the look-up, never changes). */
static inline const struct ob_slot_cache *slot_cached(ob_instance *inst, int32_t slot)
{
    struct ob_slot_cache *c = &inst->draw->slot_cache[slot];
    int32_t name = inst->slot_attachment[slot];
    if (c->name != name || c->skin != inst->skin) {
        c->name = name;
        c->skin = inst->skin;
        c->attachment = ob_skeleton_get_attachment(inst, slot, name);  /* §8.1 */
        c->def_linked = c->def_own = -1;
        c->kind = -1;
        c->count = c->aux = 0;
        int32_t ai = c->attachment;
        if (ai >= 0) {
            const ob_draw_state *ds = inst->draw;
            ob_attachment_deform_entries(inst, slot, &inst->doc->attachments[ai], &c->def_linked, &c->def_own);
            if (ds->uv_start[ai] >= 0) {  /* regions and meshes: world-vertex entries */
                c->kind = wv_kind(inst->doc, ds, ai);
                c->count = ds->uv_count[ai];
                c->aux = c->kind == 1 ? ds->quad_dup_start[ai] : ai;
            }
        }
    }
    return c;
}

int32_t ob_draw_slot_attachment(ob_instance *inst, int32_t slot)
{
    if (inst->draw->slot_cache) return slot_cached(inst, slot)->attachment;
    return ob_skeleton_get_attachment(inst, slot, inst->slot_attachment[slot]);  /* §8.1 */
}

/* The deform the slot's attachment reads (ob_attachment_deform), from the cache. */
static const ob_deform *slot_deform(ob_instance *inst, int32_t slot)
{
    const struct ob_slot_cache *c = slot_cached(inst, slot);
    return ob_deform_of_entries(inst, c->def_linked, c->def_own);
}

/* ---- building ------------------------------------------------------- */

/* Makes room for one item's vertices and indices.  Never grows in a
** document the creation-time sizing covers; counted if it does. */
static int reserve(ob_draw_state *ds, int32_t nv, int32_t ni, int32_t nc)
{
    if (ds->vertex_count + nv > ds->vertex_capacity) {
        int32_t cap = 2 * (ds->vertex_count + nv);
        float *v = realloc(ds->vertices, 2 * (size_t)cap * sizeof *v);
        if (!v) return -1;
        ds->vertices = v;
        float *u = realloc(ds->uvs, 2 * (size_t)cap * sizeof *u);
        if (!u) return -1;
        ds->uvs = u;
        ds->vertex_capacity = cap;
        ds->growths++;
    }
    if (ds->index_count + ni > ds->index_capacity) {
        int32_t cap = 2 * (ds->index_count + ni);
        uint32_t *p = realloc(ds->indices, (size_t)cap * sizeof *p);
        if (!p) return -1;
        ds->indices = p;
        ds->index_capacity = cap;
        ds->growths++;
    }
    if (ds->color_count + nc > ds->color_capacity) {
        int32_t cap = 2 * (ds->color_count + nc);
        float *p = realloc(ds->colors, 4 * (size_t)cap * sizeof *p);
        if (!p) return -1;
        ds->colors = p;
        ds->color_capacity = cap;
        ds->growths++;
    }
    return 0;
}

static ob_draw_item *begin_item(ob_instance *inst, int32_t slot, int32_t ai, const double color[4],
                                int32_t texture, int32_t nv, int32_t ni)
{
    ob_draw_state *ds = inst->draw;
    const ob_document *doc = inst->doc;
    if (reserve(ds, nv, ni, 0) < 0) return NULL;
    ob_draw_item *it = &ds->items[ds->item_count++];
    it->slot = slot;
    it->attachment = ai;
    it->type = doc->attachments[ai].type;
    it->blend = doc->slots[slot].blend;  /* §8.4 blend = slot blend */
    it->texture = texture;
    it->first_vertex = ds->vertex_count;
    it->vertex_count = nv;
    it->first_index = ds->index_count;
    it->index_count = ni;
    it->first_color = -1;
    memcpy(it->color, color, 4 * sizeof *color);
    it->has_dark = inst->slot_has_dark[slot];  /* §8.4 dark = slot dark if set */
    if (it->has_dark) memcpy(it->dark, &inst->slot_dark[4 * slot], 4 * sizeof(double));
    else memset(it->dark, 0, sizeof it->dark);
    it->clip = -1;
    it->text_offset = it->text_length = -1;
    ds->vertex_count += nv;
    ds->index_count += ni;
    return it;
}

static void quad_indices(uint32_t *out, uint32_t base)
{
    static const uint32_t q[6] = {0, 1, 2, 0, 2, 3};  /* §8.2 */
    for (int i = 0; i < 6; i++) out[i] = base + q[i];
}

static void tint(const double *slot, const double *att, double out[4])
{
    for (int i = 0; i < 4; i++) out[i] = slot[i] * att[i];  /* §8.4 slot.color × att.color */
}

/* §8.2 a plain region's world corners, float32: quad_to_world's sums on the
** corners as quad_dup holds them, x and y in two lanes, two corners a store
** (issue 17). m: the slot bone's world matrix. */
static inline void quad_dup_world(const double *m, const double *l, float *v)
{
#ifdef __SSE2__
    __m128d ma = _mm_loadh_pd(_mm_load_sd(m), m + 2), mb = _mm_loadh_pd(_mm_load_sd(m + 1), m + 3);
    __m128d mx = _mm_loadu_pd(m + 4);
    __m128d w0 = _mm_add_pd(_mm_add_pd(_mm_mul_pd(ma, _mm_load_pd(l)), _mm_mul_pd(mb, _mm_load_pd(l + 4))), mx);
    __m128d w1 = _mm_add_pd(_mm_add_pd(_mm_mul_pd(ma, _mm_load_pd(l + 2)), _mm_mul_pd(mb, _mm_load_pd(l + 6))), mx);
    __m128d w2 = _mm_add_pd(_mm_add_pd(_mm_mul_pd(ma, _mm_load_pd(l + 8)), _mm_mul_pd(mb, _mm_load_pd(l + 12))), mx);
    __m128d w3 = _mm_add_pd(_mm_add_pd(_mm_mul_pd(ma, _mm_load_pd(l + 10)), _mm_mul_pd(mb, _mm_load_pd(l + 14))), mx);
    _mm_storeu_ps(v, _mm_movelh_ps(_mm_cvtpd_ps(w0), _mm_cvtpd_ps(w1)));
    _mm_storeu_ps(v + 4, _mm_movelh_ps(_mm_cvtpd_ps(w2), _mm_cvtpd_ps(w3)));
#else
    for (int i = 0; i < 4; i++) {
        double lx = l[8 * (i / 2) + 2 * (i % 2)], ly = l[8 * (i / 2) + 2 * (i % 2) + 4];
        v[2 * i] = (float)(m[0] * lx + m[1] * ly + m[4]);
        v[2 * i + 1] = (float)(m[2] * lx + m[3] * ly + m[5]);
    }
#endif
}

#ifdef QD_AVX2
/* The plain regions' records [r, end): quad_dup_world two corners a lane
** pair (the matrix as (a, c, a, c), (b, d, b, d), (x, y, x, y)). */
QD_AVX static void quads_avx2(const struct ob_wv_rec *r, const struct ob_wv_rec *end, const char *world,
                              const double *dup, float *wv)
{
    for (; r < end; r++) {
        const double *m = (const double *)(world + r->a), *l = dup + r->b;
        __m256d abcd = _mm256_loadu_pd(m);
        __m256d ma = _mm256_permute4x64_pd(abcd, 0x88), mb = _mm256_permute4x64_pd(abcd, 0xdd);
        __m256d mx = _mm256_broadcast_pd((const __m128d *)(const void *)(m + 4));
        __m256d w01 = _mm256_add_pd(_mm256_add_pd(_mm256_mul_pd(ma, _mm256_load_pd(l)), _mm256_mul_pd(mb, _mm256_load_pd(l + 4))), mx);
        __m256d w23 = _mm256_add_pd(_mm256_add_pd(_mm256_mul_pd(ma, _mm256_load_pd(l + 8)), _mm256_mul_pd(mb, _mm256_load_pd(l + 12))), mx);
        _mm_storeu_ps(wv + r->c, _mm256_cvtpd_ps(w01));
        _mm_storeu_ps(wv + r->c + 4, _mm256_cvtpd_ps(w23));
    }
}
#endif

/* §8.2 / §8.7 the world vertices of a region: the quad through the slot
** bone, then quadPoints for a packed polygon or a trimmed region. */
static void region_world(const ob_instance *inst, int32_t slot, int32_t ai, float *v)
{
    const ob_draw_state *ds = inst->draw;
    if (ds->pt_start[ai] >= 0) {
        double q[8];
        cached_quad(inst, slot, ai, q);
        ob_quad_points(q, ds->pt_pool + 2 * (size_t)ds->pt_start[ai], ds->uv_count[ai], v);
        return;
    }
    quad_dup_world(&inst->world[inst->doc->slots[slot].bone].a, ds->quad_dup + ds->quad_dup_start[ai], v);
}

static int draw_region(ob_instance *inst, int32_t slot, int32_t ai)
{
    const ob_document *doc = inst->doc;
    ob_draw_state *ds = inst->draw;
    const ob_attachment *a = &doc->attachments[ai];
    double color[4];
    tint(&inst->slot_color[4 * slot], a->color, color);
    if (color[3] <= 0) return 0;  /* §8.4 skip if alpha ≤ 0 */
    int32_t n = ds->uv_count[ai], np = packed_polygon_count(doc, a);
    ob_draw_item *it = begin_item(inst, slot, ai, color, ob_image_texture(doc, a->image), n, np ? 3 * (np - 2) : 6);
    if (!it) return -1;
    region_world(inst, slot, ai, ds->vertices + 2 * it->first_vertex);
    memcpy(ds->uvs + 2 * it->first_vertex, ds->uv_pool + 2 * (size_t)ds->uv_start[ai], 2 * (size_t)n * sizeof(float));
    uint32_t *ix = ds->indices + it->first_index, base = (uint32_t)it->first_vertex;
    if (np) {
        for (int32_t i = 0; i + 2 < np; i++) {  /* §8.7 fan */
            ix[3 * i] = base;
            ix[3 * i + 1] = base + (uint32_t)i + 1;
            ix[3 * i + 2] = base + (uint32_t)i + 2;
        }
    } else {
        quad_indices(ix, base);
    }
    return 0;
}

static int draw_mesh(ob_instance *inst, int32_t slot, int32_t ai)
{
    const ob_document *doc = inst->doc;
    ob_draw_state *ds = inst->draw;
    const ob_attachment *a = &doc->attachments[ai];
    double color[4];
    tint(&inst->slot_color[4 * slot], a->color, color);
    if (color[3] <= 0) return 0;
    int32_t nv = ob_attachment_world_vertex_count(a);
    ob_draw_item *it = begin_item(inst, slot, ai, color, ob_image_texture(doc, a->image), nv, a->triangle_count);
    if (!it) return -1;
    /* §8.3 world vertices (weights, deform, linked deform key), float32 */
    ob_attachment_world_vertices_planned(inst, slot, ai, slot_deform(inst, slot), &ds->wv_plan,
                                         ds->vertices + 2 * it->first_vertex);
    /* §8.3 / §8.7 uvs: mapped at creation */
    memcpy(ds->uvs + 2 * it->first_vertex, ds->uv_pool + 2 * (size_t)ds->uv_start[ai], 2 * (size_t)nv * sizeof(float));
    uint32_t *ix = ds->indices + it->first_index;
    for (int32_t i = 0; i < a->triangle_count; i++) ix[i] = (uint32_t)it->first_vertex + a->triangles[i];
    return 0;
}

static int draw_sequence(ob_instance *inst, int32_t slot, int32_t ai)
{
    const ob_document *doc = inst->doc;
    ob_draw_state *ds = inst->draw;
    const ob_attachment *a = &doc->attachments[ai];
    /* §8.6 counter, index; hidden or missing image ⇒ none */
    int32_t k = ob_sequence_index(a->mode, ob_sequence_counter(inst, slot, a), a->frame_count);
    if (k < 0 || a->frames[k].image < 0) return 0;
    const ob_seq_frame *fr = &a->frames[k];
    double color[4];
    tint(&inst->slot_color[4 * slot], a->color, color);
    if (color[3] <= 0) return 0;
    double uvb[4], qf[4];
    if (!ob_sequence_layout(doc, fr, uvb, qf)) return 0;
    double q[8];
    cached_quad(inst, slot, ai, q);
    ob_draw_item *it = begin_item(inst, slot, ai, color, ob_image_texture(doc, fr->image), 4, 6);
    if (!it) return -1;
    float *v = ds->vertices + 2 * it->first_vertex, *uv = ds->uvs + 2 * it->first_vertex;
    double c[8];
    if (qf[0] != 0 || qf[1] != 0 || qf[2] != 1 || qf[3] != 1) {
        box_corners(qf, c);
        ob_quad_points(q, c, 4, v);  /* §8.6 shrunk by trimQuad(quad) */
    } else {
        for (int i = 0; i < 8; i++) v[i] = (float)q[i];
    }
    /* §8.6 uvs [u0,v0, u1,v0, u1,v1, u0,v1], remapped if packed */
    box_corners(uvb, c);
    const ob_region_data *r = ob_atlas_region(doc, fr->image);
    ob_uvmap map = r ? ob_atlas_uvmap(doc, r) : ob_uvmap_identity();
    ob_uvmap_apply(&map, c, 4, uv);
    quad_indices(ds->indices + it->first_index, (uint32_t)it->first_vertex);
    return 0;
}

/* §8.8 particleItem: the particles issue writes the geometry (particles.c). */
static int draw_particles(ob_instance *inst, int32_t slot, int32_t ai)
{
    const ob_document *doc = inst->doc;
    ob_draw_state *ds = inst->draw;
    int32_t cap = ob_particles_max_quads(inst, slot);
    if (cap <= 0) return 0;
    if (reserve(ds, 4 * cap, 6 * cap, 4 * cap) < 0) return -1;
    int32_t tex, fv = ds->vertex_count;
    int32_t n = ob_particles_geometry(inst, slot, ds->vertices + 2 * fv, ds->uvs + 2 * fv,
                                      ds->colors + 4 * (size_t)ds->color_count, ds->indices + ds->index_count,
                                      (uint32_t)fv, &tex);
    if (n <= 0) return 0;  /* no emitter for this attachment or no particle drawn */
    ob_draw_item *it = begin_item(inst, slot, ai, &inst->slot_color[4 * slot], tex, 4 * n, 6 * n);
    if (!it) return -1;
    it->blend = doc->attachments[ai].particles->blend;  /* §8.4 particles: attachment blend */
    it->has_dark = 0;  /* §8.8 the item carries color and colors only: dark null (NOTES §8.8) */
    memset(it->dark, 0, sizeof it->dark);
    it->first_color = ds->color_count;                  /* colors per vertex */
    ds->color_count += 4 * n;
    return 0;
}

/* Adds every slot's particle capacity to the buffers, once (the particle
** state is created after the draw state). */
static int size_particles(ob_instance *inst)
{
    ob_draw_state *ds = inst->draw;
    int64_t quads = 0;
    for (int32_t s = 0; s < inst->doc->slot_count; s++) {
        int32_t q = ob_particles_max_quads(inst, s);
        if (q > 0) quads += q;
    }
    ds->particles_sized = 1;
    if (quads == 0) return 0;
    if (quads > INT32_MAX / 8) return -1;
    uint64_t g = ds->growths;
    int32_t q = (int32_t)quads;
    int32_t nv = ds->vertex_capacity + 4 * q, ni = ds->index_capacity + 6 * q, nc = ds->color_capacity + 4 * q;
    ds->vertex_count = ds->vertex_capacity;  /* grow to exactly these sizes */
    ds->index_count = ds->index_capacity;
    ds->color_count = ds->color_capacity;
    int rc = reserve(ds, nv - ds->vertex_capacity, ni - ds->index_capacity, nc - ds->color_capacity);
    ds->vertex_count = ds->index_count = ds->color_count = 0;
    ds->growths = g;  /* sizing, not a per-frame growth */
    return rc;
}

static ob_tvalue lookup_cb(void *ud, const char *name) { return ob_text_lookup((const ob_instance *)ud, name); }

static int draw_text(ob_instance *inst, int32_t slot, int32_t ai)
{
    const ob_document *doc = inst->doc;
    ob_draw_state *ds = inst->draw;
    const ob_attachment *a = &doc->attachments[ai];
    const double *color = &inst->slot_color[4 * slot];  /* §8.4 text: color = slot.color */
    if (color[3] <= 0) return 0;
    double q[8];
    cached_quad(inst, slot, ai, q);  /* the unscaled box quad */
    ob_draw_item *it = begin_item(inst, slot, ai, color, OB_TEXTURE_NONE, 4, 6);
    if (!it) return -1;
    float *v = ds->vertices + 2 * it->first_vertex, *uv = ds->uvs + 2 * it->first_vertex;
    for (int i = 0; i < 8; i++) {
        v[i] = (float)q[i];
        uv[i] = (float)UNIT_UVS[i];
    }
    quad_indices(ds->indices + it->first_index, (uint32_t)it->first_vertex);
    /* §8.9 text = formatTemplate(override ?? att.text, lookup) */
    const char *tpl = ob_text_template(inst, slot, a);
    size_t room = ds->text_capacity - ds->text_length;
    size_t n = ob_format_template(tpl, lookup_cb, inst, ds->text + ds->text_length, room);
    if (n + 1 > room) {
        size_t cap = 2 * (ds->text_length + n + 1);
        char *p = realloc(ds->text, cap);
        if (!p) return -1;
        ds->text = p;
        ds->text_capacity = cap;
        ds->growths++;
        ob_format_template(tpl, lookup_cb, inst, ds->text + ds->text_length, cap - ds->text_length);
    }
    it->text_offset = (int32_t)ds->text_length;
    it->text_length = (int32_t)n;
    ds->text_length += n + 1;
    return 0;
}

static int draw_shape(ob_instance *inst, int32_t slot, int32_t ai)
{
    const ob_document *doc = inst->doc;
    ob_draw_state *ds = inst->draw;
    const ob_attachment *a = &doc->attachments[ai];
    const double *sc = &inst->slot_color[4 * slot];
    static const double none[4] = {0, 0, 0, 0};
    double color[4];
    tint(sc, a->has_fill ? a->fill : none, color);  /* §8.4 slot.color × fill (no fill: transparent) */
    /* §8.4 skip if alpha ≤ 0 unless it has a visible stroke */
    int stroke = a->has_stroke && a->stroke_width > 0 && a->stroke[3] * sc[3] > 0;
    if (color[3] <= 0 && !stroke) return 0;
    int32_t tex;
    double wu, wv;
    ob_white_uv(doc, &tex, &wu, &wv);
    int32_t n = ds->outline_count[ai], nt = ds->tri_count[ai];
    ob_draw_item *it = begin_item(inst, slot, ai, color, tex, n, nt);
    if (!it) return -1;
    ob_mat m = inst->world[doc->slots[slot].bone];
    const double *o = ds->outline + 2 * ds->outline_start[ai];
    float *v = ds->vertices + 2 * it->first_vertex, *uv = ds->uvs + 2 * it->first_vertex;
    for (int32_t i = 0; i < n; i++) {
        double x = o[2 * i], y = o[2 * i + 1];
        v[2 * i] = (float)(m.a * x + m.b * y + m.x);
        v[2 * i + 1] = (float)(m.c * x + m.d * y + m.y);
        uv[2 * i] = (float)wu;  /* white block centre, else zero */
        uv[2 * i + 1] = (float)wv;
    }
    /* §8.5 indices = earcut of the local outline (cached at creation) */
    uint32_t *ix = ds->indices + it->first_index;
    for (int32_t i = 0; i < nt; i++) ix[i] = (uint32_t)it->first_vertex + ds->tris[ds->tri_start[ai] + i];
    return 0;
}

/* Records a mask the first time it clips an item: its world polygon and
** triangles.  Returns the mask index. */
static int32_t use_mask(ob_instance *inst, int32_t slot, int32_t ai)
{
    const ob_document *doc = inst->doc;
    ob_draw_state *ds = inst->draw;
    const ob_attachment *a = &doc->attachments[ai];
    ob_draw_mask *mk = &ds->masks[ds->mask_count];
    int32_t nv = ob_attachment_world_vertex_count(a);
    int32_t fv = ds->mask_count ? ds->masks[ds->mask_count - 1].first_vertex + ds->masks[ds->mask_count - 1].vertex_count : 0;
    int32_t fi = ds->mask_count ? ds->masks[ds->mask_count - 1].first_index + ds->masks[ds->mask_count - 1].index_count : 0;
    if (fv + nv > ds->mask_vertex_capacity) {
        float *p = realloc(ds->mask_vertices, 2 * (size_t)(fv + nv) * sizeof *p);
        if (!p) return -1;
        ds->mask_vertices = p;
        ds->mask_vertex_capacity = fv + nv;
        ds->growths++;
    }
    float *w = ds->mask_vertices + 2 * fv;
    ob_attachment_world_vertices(inst, slot, a, w);
    /* §8.4 indices = earcut of the local vertices (cached at creation) */
    const uint32_t *t = ds->tris + ds->tri_start[ai];
    size_t nt = (size_t)ds->tri_count[ai];
    if ((size_t)fi + nt > (size_t)ds->mask_index_capacity) {
        uint32_t *p = realloc(ds->mask_indices, ((size_t)fi + nt) * sizeof *p);
        if (!p) return -1;
        ds->mask_indices = p;
        ds->mask_index_capacity = fi + (int32_t)nt;
        ds->growths++;
    }
    memcpy(ds->mask_indices + fi, t, nt * sizeof *t);
    *mk = (ob_draw_mask){slot, ai, fv, nv, fi, (int32_t)nt};
    return ds->mask_count++;
}

int32_t ob_draw_build(ob_instance *inst)
{
    const ob_document *doc = inst->doc;
    ob_draw_state *ds = inst->draw;
    if (!ds->outputs_sized && size_outputs(inst) < 0) return -1;
    if (!ds->particles_sized && size_particles(inst) < 0) return -1;
    ds->item_count = ds->vertex_count = ds->index_count = ds->color_count = ds->mask_count = 0;
    ds->text_length = 0;
    int32_t mask_slot = -1, mask_att = -1, mask_end = -1, mask_index = -1;
    for (int32_t o = 0; o < doc->slot_count; o++) {
        int32_t slot = inst->draw_order[o];
        int32_t bone = doc->slots[slot].bone;
        /* §8.4 none if the slot's bone is inactive (§3.3) */
        int32_t ai = inst->bone_active[bone] ? ob_draw_slot_attachment(inst, slot) : -1;
        int32_t first = ds->item_count;
        int rc = 0;
        if (ai >= 0) {
            const ob_attachment *a = &doc->attachments[ai];
            switch (a->type) {
            case OB_ATT_CLIPPING:
                /* §8.4 becomes the active mask if none is and it has ≥ 3 points
                ** (clipping vertices go through the slot bone, §8.3) */
                if (mask_att < 0 && a->vertex_count >= 3 && ds->tri_start[ai] >= 0) {
                    mask_slot = slot;
                    mask_att = ai;
                    mask_end = a->end_slot;
                    mask_index = -1;
                }
                break;
            case OB_ATT_REGION: rc = draw_region(inst, slot, ai); break;
            case OB_ATT_MESH: rc = draw_mesh(inst, slot, ai); break;
            case OB_ATT_SEQUENCE: rc = draw_sequence(inst, slot, ai); break;
            case OB_ATT_TEXT: rc = draw_text(inst, slot, ai); break;
            case OB_ATT_SHAPE: rc = draw_shape(inst, slot, ai); break;
            case OB_ATT_PARTICLES: rc = draw_particles(inst, slot, ai); break;
            default: break;                /* boundingBox, point, path: nothing */
            }
        }
        if (rc < 0) return -1;
        /* §8.4 after the slot's items: clip them if a mask of another slot is active */
        if (mask_att >= 0 && mask_slot != slot && ds->item_count > first) {
            if (mask_index < 0) mask_index = use_mask(inst, mask_slot, mask_att);
            if (mask_index < 0) return -1;
            for (int32_t i = first; i < ds->item_count; i++) ds->items[i].clip = mask_index;
        }
        /* then the mask ends at its end slot (also when the slot drew nothing) */
        if (mask_att >= 0 && slot == mask_end) mask_att = -1;
    }
    return ds->item_count;
}

/* ---- world vertices only (issue 9) ---------------------------------- */


/* The entries (§8.4 draw order, active slot bone, a region or a mesh shown),
** decided again: the entry arrays, the records and the key they hold for
** (draw, issue 17).  Returns the entry count, -1 if the buffer is short. */
static int32_t wv_plan_entries(ob_instance *inst)
{
    const ob_document *doc = inst->doc;
    ob_draw_state *ds = inst->draw;
    const int32_t *order = inst->draw_order, *names = inst->slot_attachment;
    const int32_t ns = doc->slot_count, nb = doc->bone_count, skin = inst->skin, cap = ds->wv_capacity;
    const uint8_t *active = inst->bone_active;
    struct ob_slot_cache *cache = ds->slot_cache;
    int32_t *e_slot = ds->wv_slot, *e_att = ds->wv_attachment, *e_first = ds->wv_first, *e_count = ds->wv_vertices;
    int32_t *slot_entry = ds->wv_slot_entry;
    /* the records of each kind from the kind's base, in draw order (one pass) */
    struct ob_wv_rec *base[3] = {ds->wv_rec + ds->wv_mesh_base, ds->wv_rec, ds->wv_rec + ds->wv_poly_base};
    struct ob_wv_rec *next[3] = {base[0], base[1], base[2]};
    int32_t n = 0, nv = 0;
    ds->wv_planned = 0;
    for (int32_t s = 0; s < ns; s++) slot_entry[2 * s] = -1;
    for (int32_t o = 0; o < ns; o++) {
        int32_t slot = order[o];
        const struct ob_slot_cache *c = &cache[slot];
        if (!active[c->bone]) continue;  /* §8.4 */
        if (c->name != names[slot] || c->skin != skin) c = slot_cached(inst, slot);
        int kind = c->kind;
        if (kind < 0) continue;  /* regions and meshes only */
        int32_t k = c->count;
        if (nv + k > cap) return -1;  /* cannot happen: sized per slot */
        e_slot[n] = slot;
        e_att[n] = c->attachment;
        e_first[n] = nv;
        e_count[n] = k;
        slot_entry[2 * slot] = n;
        struct ob_wv_rec *r = next[kind]++;
        slot_entry[2 * slot + 1] = (int32_t)(r - ds->wv_rec);
        if (kind == 1) *r = (struct ob_wv_rec){(int32_t)(c->bone * (int32_t)sizeof(ob_mat)), c->aux, 2 * nv, slot, 0};
        else *r = (struct ob_wv_rec){slot, c->aux, 2 * nv, c->def_linked, c->def_own};
        n++;
        nv += k;
    }
    ds->wv_mesh_count = (int32_t)(next[0] - base[0]);
    ds->wv_quad_count = (int32_t)(next[1] - base[1]);
    ds->wv_poly_count = (int32_t)(next[2] - base[2]);
    ds->wv_count = n;
    ds->wv_vertex_count = nv;
    ds->wv_key_skin = skin;
    memcpy(ds->wv_key, order, (size_t)ns * sizeof *order);
    memcpy(ds->wv_key + ns, names, (size_t)ns * sizeof *names);
    memcpy(ds->wv_key + 2 * (size_t)ns, active, (size_t)nb);
    ds->wv_planned = 1;
    return n;
}

/* The kinds' records: first, count (of the three kinds, as slot_cache.kind). */
static inline struct ob_wv_rec *wv_group(ob_draw_state *ds, int kind, int32_t **count)
{
    *count = kind == 0 ? &ds->wv_mesh_count : kind == 1 ? &ds->wv_quad_count : &ds->wv_poly_count;
    return ds->wv_rec + (kind == 0 ? ds->wv_mesh_base : kind == 1 ? 0 : ds->wv_poly_base);
}

/* The slot a record is for (quads keep it in d). */
static inline int32_t wv_rec_slot(int kind, const struct ob_wv_rec *r) { return kind == 1 ? r->d : r->a; }

/* Every record whose output starts at or after pair `from` moves by `by` floats. */
static void wv_shift_out(ob_draw_state *ds, int32_t from, int32_t by)
{
    for (int kind = 0; kind < 3; kind++) {
        int32_t *cnt;
        struct ob_wv_rec *g = wv_group(ds, kind, &cnt);
        for (int32_t i = 0; i < *cnt; i++)
            if (g[i].c >= from) g[i].c += by;
    }
}

/* Removes slot s's entry (draw, issue 17: a name change hid it). */
static void wv_remove(ob_draw_state *ds, int32_t s, int kind)
{
    int32_t e = ds->wv_slot_entry[2 * s], ri = ds->wv_slot_entry[2 * s + 1], k = ds->wv_vertices[e];
    int32_t out = 2 * ds->wv_first[e];
    for (int32_t i = e + 1; i < ds->wv_count; i++) {  /* the later entries, one back */
        ds->wv_slot[i - 1] = ds->wv_slot[i];
        ds->wv_attachment[i - 1] = ds->wv_attachment[i];
        ds->wv_first[i - 1] = ds->wv_first[i] - k;
        ds->wv_vertices[i - 1] = ds->wv_vertices[i];
        ds->wv_slot_entry[2 * ds->wv_slot[i - 1]] = i - 1;
    }
    ds->wv_count--;
    ds->wv_vertex_count -= k;
    int32_t *cnt;
    struct ob_wv_rec *g = wv_group(ds, kind, &cnt);
    for (int32_t i = (int32_t)(ds->wv_rec + ri - g) + 1; i < *cnt; i++) {  /* the kind's later records */
        g[i - 1] = g[i];
        ds->wv_slot_entry[2 * wv_rec_slot(kind, &g[i - 1]) + 1] = (int32_t)(g + i - 1 - ds->wv_rec);
    }
    (*cnt)--;
    wv_shift_out(ds, out, -2 * k);
    ds->wv_slot_entry[2 * s] = -1;
}

/* Inserts slot s's entry for cache c at its draw position (draw, issue 17:
** a name change showed it).  Returns -1 if the buffer is short. */
static int wv_insert(ob_instance *inst, int32_t s, const struct ob_slot_cache *c)
{
    ob_draw_state *ds = inst->draw;
    const int32_t *order = inst->draw_order;
    int32_t k = c->count, e = 0, kind = c->kind;
    if (ds->wv_vertex_count + k > ds->wv_capacity) return -1;
    for (int32_t o = 0; o < inst->doc->slot_count && order[o] != s; o++)
        e += ds->wv_slot_entry[2 * order[o]] >= 0;  /* the entries drawn before it */
    int32_t first = e < ds->wv_count ? ds->wv_first[e] : ds->wv_vertex_count;
    wv_shift_out(ds, 2 * first, 2 * k);
    for (int32_t i = ds->wv_count - 1; i >= e; i--) {  /* the later entries, one on */
        ds->wv_slot[i + 1] = ds->wv_slot[i];
        ds->wv_attachment[i + 1] = ds->wv_attachment[i];
        ds->wv_first[i + 1] = ds->wv_first[i] + k;
        ds->wv_vertices[i + 1] = ds->wv_vertices[i];
        ds->wv_slot_entry[2 * ds->wv_slot[i + 1]] = i + 1;
    }
    ds->wv_slot[e] = s;
    ds->wv_attachment[e] = c->attachment;
    ds->wv_first[e] = first;
    ds->wv_vertices[e] = k;
    ds->wv_slot_entry[2 * s] = e;
    ds->wv_count++;
    ds->wv_vertex_count += k;
    int32_t *cnt;
    struct ob_wv_rec *g = wv_group(ds, kind, &cnt);
    int32_t j = 0;
    while (j < *cnt && g[j].c < 2 * first) j++;  /* the kind's records stay in draw order */
    for (int32_t i = *cnt - 1; i >= j; i--) {
        g[i + 1] = g[i];
        ds->wv_slot_entry[2 * wv_rec_slot(kind, &g[i + 1]) + 1] = (int32_t)(g + i + 1 - ds->wv_rec);
    }
    (*cnt)++;
    if (kind == 1) g[j] = (struct ob_wv_rec){(int32_t)(c->bone * (int32_t)sizeof(ob_mat)), c->aux, 2 * first, s, 0};
    else g[j] = (struct ob_wv_rec){s, c->aux, 2 * first, c->def_linked, c->def_own};
    ds->wv_slot_entry[2 * s + 1] = (int32_t)(g + j - ds->wv_rec);
    return 0;
}

/* Only attachment names changed since the entries were decided: a slot
** whose new attachment is an entry of the old one's kind and vertex count is
** patched in place, one that shows or hides an entry (or changes its kind or
** count) has it inserted or removed, the later entries moved (draw, issue 17:
** timelines swapping, showing and hiding regions).  Returns -1 when the
** entries must be decided again. */
static int wv_patch_names(ob_instance *inst)
{
    const ob_document *doc = inst->doc;
    ob_draw_state *ds = inst->draw;
    const int32_t ns = doc->slot_count, *names = inst->slot_attachment;
    const uint8_t *active = inst->bone_active;
    int32_t *kn = ds->wv_key + ns;
    for (int32_t s = 0; s < ns; s++) {
        if (kn[s] == names[s]) continue;
        kn[s] = names[s];
        if (!active[ds->slot_cache[s].bone]) continue;  /* §8.4: never an entry */
        const struct ob_slot_cache *c = slot_cached(inst, s);
        int32_t e = ds->wv_slot_entry[2 * s];
        int old = e >= 0 ? wv_kind(doc, ds, ds->wv_attachment[e]) : -1;
        if (e >= 0 && c->kind == old && c->count == ds->wv_vertices[e]) {
            struct ob_wv_rec *r = &ds->wv_rec[ds->wv_slot_entry[2 * s + 1]];
            r->b = c->aux;
            if (old != 1) {
                r->d = c->def_linked;
                r->e = c->def_own;
            }
            ds->wv_attachment[e] = c->attachment;
            continue;
        }
        if (e >= 0) wv_remove(ds, s, old);
        if (c->kind >= 0 && wv_insert(inst, s, c) < 0) return -1;
    }
    return 0;
}

int32_t ob_world_vertices_build(ob_instance *inst)
{
    const ob_document *doc = inst->doc;
    ob_draw_state *ds = inst->draw;
    if (!ds->wv_sized && size_world_vertices(inst) < 0) return -1;
    const int32_t ns = doc->slot_count;
    /* draw (issue 17): the entries of the last frame, unless what decides them changed */
    if (!ds->wv_planned || ds->wv_key_skin != inst->skin ||
        memcmp(ds->wv_key, inst->draw_order, (size_t)ns * sizeof(int32_t)) != 0 ||
        memcmp(ds->wv_key + 2 * (size_t)ns, inst->bone_active, (size_t)doc->bone_count) != 0 ||
        (memcmp(ds->wv_key + ns, inst->slot_attachment, (size_t)ns * sizeof(int32_t)) != 0 && wv_patch_names(inst) < 0)) {
        if (wv_plan_entries(inst) < 0) return -1;
    }
    float *wv = ds->wv;
    const struct ob_wv_rec *r = ds->wv_rec, *end = r + ds->wv_quad_count;
    /* §8.2 plain regions: the slot bone's world matrix on the cached corners */
    const char *world = (const char *)inst->world;
    const double *dup = ds->quad_dup;
#ifdef QD_AVX2
    if (ds->wv_plan.width != 1 && QD_AVX2_HERE()) {  /* width 1: the SSE2 baseline (tests) */
        quads_avx2(r, end, world, dup, wv);
        r = end;
    }
#endif
    for (; r < end; r++) quad_dup_world((const double *)(world + r->a), dup + r->b, wv + r->c);
    /* §8.7 packed polygons and trimmed regions */
    for (r = ds->wv_rec + ds->wv_poly_base, end = r + ds->wv_poly_count; r < end; r++)
        region_world(inst, r->a, r->b, wv + r->c);
    /* §8.3 meshes: the deform that applies (its count is the frame's) */
    ob_wv_meshes(inst, ds->wv_rec + ds->wv_mesh_base, ds->wv_mesh_count, &ds->wv_plan, wv);  /* issue 17: one call */
    return ds->wv_count;
}
