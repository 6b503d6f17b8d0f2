/* attachment_vertices.c: §8.3 world vertices of mesh, path, boundingBox and
** clipping attachments (float32, deform offsets and weights included). */
#include "attachment_vertices.h"
#include "drawlist.h"

#include <string.h>
#if defined(__SSE2__) || defined(__x86_64__)
#include <immintrin.h>
#endif

static inline int32_t vertex_count(const ob_attachment *att)
{
    switch (att->type) {
    case OB_ATT_MESH: case OB_ATT_PATH: case OB_ATT_BOUNDING_BOX: case OB_ATT_CLIPPING:
        return att->vertex_count;
    default:
        return 0;
    }
}

int32_t ob_attachment_world_vertex_count(const ob_attachment *att) { return vertex_count(att); }

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

void ob_attachment_deform_entries(const ob_instance *inst, int32_t slot, const ob_attachment *att,
                                  int32_t *linked, int32_t *own)
{
    const ob_deform *d = NULL;
    *linked = *own = -1;
    if (att->type == OB_ATT_CLIPPING) return;  /* clipping: no deform (world_vertices) */
    if (att->type == OB_ATT_MESH && att->linked_mesh >= 0 && att->linked_deform &&
        (d = ob_instance_deform(inst, slot, att->linked_mesh)) != NULL)
        *linked = (int32_t)(d - inst->deforms);
    if ((d = ob_instance_deform(inst, slot, att->name_id)) != NULL) *own = (int32_t)(d - inst->deforms);
}

/* §8.3 the deform offsets a vertex adds: values missing at the end of a
** short array count as 0.  Under the influenceOffsets extension (a weighted
** attachment's deform keyed per influence, as spine-core 4.2 keys it) the
** pair belongs to an influence, indexed over the attachment's flat weights. */
typedef struct offsets { const double *v; int32_t count; int per_influence; } offsets;

/* The offsets of d as att's vertices read them (clipping: none): a pending
** sample (ob_deform.lazy_v0) of a held key is that key's own values, any
** other is stored first (ob_deform_values) */
static inline offsets offsets_for(const ob_deform *d, const ob_attachment *att)
{
    if (!d || att->type == OB_ATT_CLIPPING) return (offsets){NULL, 0, 0};
    if (d->lazy_v0 && !d->lazy_dv) return (offsets){d->lazy_v0, d->count, d->per_influence};
    return (offsets){ob_deform_values(d), d->count, d->per_influence};
}

static offsets offsets_of(const ob_instance *inst, int32_t slot, const ob_attachment *att)
{
    return offsets_for(att->type == OB_ATT_CLIPPING ? NULL : ob_attachment_deform(inst, slot, att), att);
}

static inline void offset_at(offsets o, int32_t v, double *dx, double *dy)
{
    *dx = 2 * v < o.count ? o.v[2 * v] : 0;
    *dy = 2 * v + 1 < o.count ? o.v[2 * v + 1] : 0;
}

/* §8.3 unweighted, float32 out, every vertex with its offsets (ov: one per
** value, NULL none; od: a pending sample's differences, ov + od·t fused here
** with the operations ob_deform_settle does): w = M·(v + o), the sums in the
** formula's order, two vertices a store (issue 17: the matrix in registers,
** no per-value checks, no stored offsets read back) */
static void unweighted_f32(const ob_mat *m, const double *lv, const double *ov, const double *od, double t, int32_t n,
                           float *of)
{
    int32_t v = 0;
#ifdef __SSE2__
    __m128d MA = _mm_set_pd(m->c, m->a), MB = _mm_set_pd(m->d, m->b), MX = _mm_set_pd(m->y, m->x);
#define WV_UNWEIGHTED(P, R)                                                                                   \
    for (; v + 2 <= n; v += 2) {                                                                              \
        __m128d p = (P), r = (R);                                                                             \
        __m128d wp = _mm_add_pd(_mm_add_pd(_mm_mul_pd(MA, _mm_unpacklo_pd(p, p)), _mm_mul_pd(MB, _mm_unpackhi_pd(p, p))), MX); \
        __m128d wr = _mm_add_pd(_mm_add_pd(_mm_mul_pd(MA, _mm_unpacklo_pd(r, r)), _mm_mul_pd(MB, _mm_unpackhi_pd(r, r))), MX); \
        _mm_storeu_ps(of + 2 * v, _mm_movelh_ps(_mm_cvtpd_ps(wp), _mm_cvtpd_ps(wr)));                          \
    }
#define WV_LERP(i) _mm_add_pd(_mm_loadu_pd(ov + (i)), _mm_mul_pd(_mm_loadu_pd(od + (i)), T))
    if (od) {
        __m128d T = _mm_set1_pd(t);
        WV_UNWEIGHTED(_mm_add_pd(_mm_loadu_pd(lv + 2 * v), WV_LERP(2 * v)),
                      _mm_add_pd(_mm_loadu_pd(lv + 2 * v + 2), WV_LERP(2 * v + 2)))
    } else if (ov) {
        WV_UNWEIGHTED(_mm_add_pd(_mm_loadu_pd(lv + 2 * v), _mm_loadu_pd(ov + 2 * v)),
                      _mm_add_pd(_mm_loadu_pd(lv + 2 * v + 2), _mm_loadu_pd(ov + 2 * v + 2)))
    } else {
        WV_UNWEIGHTED(_mm_add_pd(_mm_loadu_pd(lv + 2 * v), _mm_setzero_pd()),
                      _mm_add_pd(_mm_loadu_pd(lv + 2 * v + 2), _mm_setzero_pd()))
    }
#undef WV_LERP
#undef WV_UNWEIGHTED
#endif
    ob_v2d ma = {m->a, m->c}, mb = {m->b, m->d}, mx = {m->x, m->y}, vt = {t, t};
    for (; v < n; v++) {
        ob_v2d d = {0, 0};
        if (od) d = ob_v2_load(ov + 2 * v) + ob_v2_load(od + 2 * v) * vt;
        else if (ov) d = ob_v2_load(ov + 2 * v);
        ob_v2d p = ob_v2_load(lv + 2 * v) + d;
        ob_v2d w = ma * (ob_v2d){p[0], p[0]} + mb * (ob_v2d){p[1], p[1]} + mx;
        of[2 * v] = (float)w[0];
        of[2 * v + 1] = (float)w[1];
    }
}

/* The same loop four lanes wide (issue 17): the two vertices of a 256-bit
** value go through exactly the operations unweighted_f32 does to each, so
** the output is the same bits; built with -mavx2, or as a clone picked at
** run time (the weighted kernels' rule), never under OB_NO_DISPATCH alone. */
#if defined(__AVX2__)
#define UV_AVX2 1
#define UV_AVX2_HERE() 1
#define UV_AVX
#elif defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && defined(__linux__) && !defined(OB_NO_DISPATCH)
#define UV_AVX2 1
#define UV_AVX2_HERE() (__builtin_cpu_supports("avx2") != 0)
#define UV_AVX __attribute__((target("avx2")))
#endif
#ifdef UV_AVX2
UV_AVX static inline __attribute__((always_inline)) void unweighted_avx2_inline(const ob_mat *m, const double *lv,
    const double *ov, const double *od, double t, int32_t n, float *of, int zero)
{
    /* two vertices p = (x0, y0, x1, y1) a value: (x0, x0, x1, x1)·(a, c, a, c)
    ** + (y0, y0, y1, y1)·(b, d, b, d) = (a·x0 + b·y0, c·x0 + d·y0, ...), then
    ** + (tx, ty, tx, ty): unweighted_f32's sums, the same products summed in
    ** the same order as the hadd this was (issue 17: two one-uop shuffles for
    ** hadd's several; 21 meshes of 12 vertices, 441 → 416 ticks, Zen 3) */
    __m256d AB = _mm256_broadcast_pd((const __m128d *)(const void *)&m->a);
    __m256d CD = _mm256_broadcast_pd((const __m128d *)(const void *)&m->c);
    __m256d AC = _mm256_unpacklo_pd(AB, CD), BD = _mm256_unpackhi_pd(AB, CD);
    __m256d TT = _mm256_broadcast_pd((const __m128d *)(const void *)&m->x), T = _mm256_set1_pd(t);
    const int32_t e = 2 * (n & ~3);
#define UV_W(P) _mm256_add_pd(_mm256_add_pd(_mm256_mul_pd(_mm256_movedup_pd(P), AC), \
                                            _mm256_mul_pd(_mm256_permute_pd(P, 15), BD)), TT)
#define UV_W1(P) _mm_add_pd(_mm_add_pd(_mm_mul_pd(_mm_movedup_pd(P), _mm256_castpd256_pd128(AC)), \
                                       _mm_mul_pd(_mm_permute_pd(P, 3), _mm256_castpd256_pd128(BD))), \
                            _mm256_castpd256_pd128(TT))
    /* four vertices a step, then two, then one (the same operations in two lanes) */
#define UV_LOOP(P, P1)                                                                    \
    {                                                                                     \
        int32_t i = 0;                                                                    \
        for (; i < e; i += 8) {                                                           \
            __m256d p = P(i), r = P(i + 4);                                               \
            _mm_storeu_ps(of + i, _mm256_cvtpd_ps(UV_W(p)));                              \
            _mm_storeu_ps(of + i + 4, _mm256_cvtpd_ps(UV_W(r)));                          \
        }                                                                                 \
        if (n & 2) {                                                                      \
            __m256d p = P(i);                                                             \
            _mm_storeu_ps(of + i, _mm256_cvtpd_ps(UV_W(p)));                              \
            i += 4;                                                                       \
        }                                                                                 \
        if (n & 1) {                                                                      \
            __m128d p = P1(i);                                                            \
            _mm_storel_pi((__m64 *)(void *)(of + i), _mm_cvtpd_ps(UV_W1(p)));            \
        }                                                                                 \
    }
    if (od) {
        const __m128d T1 = _mm256_castpd256_pd128(T);
#define UV_P(i) _mm256_add_pd(_mm256_loadu_pd(lv + (i)), _mm256_add_pd(_mm256_loadu_pd(ov + (i)), \
                                                                       _mm256_mul_pd(_mm256_loadu_pd(od + (i)), T)))
#define UV_P1(i) _mm_add_pd(_mm_loadu_pd(lv + (i)), _mm_add_pd(_mm_loadu_pd(ov + (i)), _mm_mul_pd(_mm_loadu_pd(od + (i)), T1)))
        UV_LOOP(UV_P, UV_P1)
#undef UV_P
#undef UV_P1
    } else if (ov) {
#define UV_P(i) _mm256_add_pd(_mm256_loadu_pd(lv + (i)), _mm256_loadu_pd(ov + (i)))
#define UV_P1(i) _mm_add_pd(_mm_loadu_pd(lv + (i)), _mm_loadu_pd(ov + (i)))
        UV_LOOP(UV_P, UV_P1)
#undef UV_P
#undef UV_P1
    } else if (zero) {  /* + 0 as the formula adds it: -0 becomes +0 */
#define UV_P(i) _mm256_add_pd(_mm256_loadu_pd(lv + (i)), _mm256_setzero_pd())
#define UV_P1(i) _mm_add_pd(_mm_loadu_pd(lv + (i)), _mm_setzero_pd())
        UV_LOOP(UV_P, UV_P1)
#undef UV_P
#undef UV_P1
    } else {            /* the plan found no -0: x + 0 = x */
#define UV_P(i) _mm256_loadu_pd(lv + (i))
#define UV_P1(i) _mm_loadu_pd(lv + (i))
        UV_LOOP(UV_P, UV_P1)
#undef UV_P
#undef UV_P1
    }
#undef UV_LOOP
#undef UV_W
#undef UV_W1
}

UV_AVX static void unweighted_avx2(const ob_mat *m, const double *lv, const double *ov, const double *od, double t,
                                   int32_t n, float *of)
{
    unweighted_avx2_inline(m, lv, ov, od, t, n, of, 1);
}
#endif

/* unweighted_f32 at the widest width here; the tests' width switch
** (ob_wv_plan.width 1: the SSE2 baseline) holds for it too */
static inline void unweighted(const ob_instance *inst, const ob_mat *m, const double *lv, const double *ov,
                              const double *od, double t, int32_t n, float *of)
{
#ifdef UV_AVX2
    if ((!inst->draw || inst->draw->wv_plan.width != 1) && UV_AVX2_HERE()) {
        unweighted_avx2(m, lv, ov, od, t, n, of);
        return;
    }
#else
    (void)inst;
#endif
    unweighted_f32(m, lv, ov, od, t, n, of);
}

/* width 3 (the tests' direct loop): the per-value loop below, on stored offsets */
static inline int direct(const ob_instance *inst) { return inst->draw && inst->draw->wv_plan.width == 3; }

/* One pass for both outputs: float32 (of, the draw list) or doubles (od,
** the Spine pose model's path, which spine-core computes in doubles). */
static int32_t world_vertices_off(const ob_instance *inst, int32_t slot, const ob_attachment *att, offsets off,
                                  float *of, double *od)
{
    int32_t n = vertex_count(att);
    if (n == 0) return 0;
    const ob_mat *world = inst->world, *m = &world[inst->doc->slots[slot].bone];
    if (att->weight_start == NULL || att->type == OB_ATT_CLIPPING) {
        /* §8.3 unweighted: (vx + dx, vy + dy) through the slot bone's world
        ** (per-influence offsets of an unweighted attachment: one per vertex) */
        const double *lv = att->vertices;
        if (of && (off.count == 0 || off.count >= 2 * n) && !direct(inst)) {
            /* no offsets, or one for every value: the same sums without the
            ** per-value checks (issue 17) */
            unweighted(inst, m, lv, off.count ? off.v : NULL, NULL, 0, n, of);
            return n;
        }
        for (int32_t v = 0; v < n; v++) {
            double dx, dy;  /* added even when 0, as the formula reads (−0 + 0 = 0) */
            offset_at(off, v, &dx, &dy);
            double x = lv[2 * v] + dx, y = lv[2 * v + 1] + dy;
            double wx = m->a * x + m->b * y + m->x, wy = m->c * x + m->d * y + m->y;
            if (od) { od[2 * v] = wx; od[2 * v + 1] = wy; }
            else { of[2 * v] = (float)wx; of[2 * v + 1] = (float)wy; }
        }
        return n;
    }
    const ob_mat sb = *m;
    /* §8.3 weighted: Σ weight · bone.world·(inf.x + dx, inf.y + dy), computed
    ** with the weight premultiplied (issue 17; the plan's kernels do exactly
    ** these operations in this order): per influence
    **     px = w·x (+ w·dx when there are offsets), py likewise,
    **     t = (a·px + b·py) + tx·w,  (c·px + d·py) + ty·w,
    ** and the vertex is t_0 + t_1 + ... in the file's order (0 with none). */
    const int32_t *ws = att->weight_start;
    const ob_weight *w = att->weights;
    for (int32_t v = 0; v < n; v++) {
        double dx, dy, wx = 0, wy = 0;
        offset_at(off, v, &dx, &dy);
        for (int32_t i = ws[v], e = ws[v + 1]; i < e; i++) {
            const ob_mat *m = w[i].bone >= 0 ? &world[w[i].bone] : &sb;
            if (off.per_influence) offset_at(off, i, &dx, &dy);
            double wt = w[i].weight, px = wt * w[i].x, py = wt * w[i].y;
            if (off.count) {
                px = px + wt * dx;
                py = py + wt * dy;
            }
            double tx = m->a * px + m->b * py + m->x * wt, ty = m->c * px + m->d * py + m->y * wt;
            if (i == ws[v]) { wx = tx; wy = ty; }
            else { wx += tx; wy += ty; }
        }
        if (od) { od[2 * v] = wx; od[2 * v + 1] = wy; }
        else { of[2 * v] = (float)wx; of[2 * v + 1] = (float)wy; }
    }
    return n;
}

/* issue 17: a pending sample (ob_deform.lazy_dv) of an unweighted mesh with
** a value for every vertex is read fused, never stored: ob_deform_settle's
** values (the same operations), then world_vertices_off's sums */
static inline int fused(const ob_instance *inst, const ob_deform *d, const ob_attachment *att)
{
    return d && d->lazy_dv && att->type != OB_ATT_CLIPPING && att->weight_start == NULL &&
           d->count >= 2 * vertex_count(att) && vertex_count(att) > 0 && !direct(inst);
}

static int32_t world_vertices_fused(const ob_instance *inst, int32_t slot, const ob_attachment *att,
                                    const ob_deform *d, float *of)
{
    int32_t n = att->vertex_count;  /* fused(): a polygon attachment */
    unweighted(inst, &inst->world[inst->doc->slots[slot].bone], att->vertices, d->lazy_v0, d->lazy_dv, d->lazy_t, n, of);
    return n;
}

static int plan_run(const ob_instance *inst, int32_t slot, const ob_wv_plan *P, int32_t ai, const ob_deform *d,
                    int width, float *of, double *od);

static int32_t world_vertices(const ob_instance *inst, int32_t slot, const ob_attachment *att, float *of,
                              double *od)
{
    /* issue 17: an attachment of the document's plan through it (the same bits) */
    const ob_draw_state *ds = inst->draw;
    const ob_document *doc = inst->doc;
    if (ds && ds->wv_plan.plan && ds->wv_plan.width != 3 && att >= doc->attachments &&
        att < doc->attachments + doc->attachment_count) {
        const ob_wv_plan *P = ds->wv_plan.plan;
        int32_t ai = (int32_t)(att - doc->attachments);
        if (P->mesh[ai].kind && (of || P->mesh[ai].kind == 2) &&
            plan_run(inst, slot, P, ai, ob_attachment_deform(inst, slot, att), ds->wv_plan.width, of, od))
            return P->mesh[ai].n;  /* of: the planned entry (the direct loop if it needs it) */
    }
    if (of) {
        const ob_deform *d = att->type == OB_ATT_CLIPPING ? NULL : ob_attachment_deform(inst, slot, att);
        if (fused(inst, d, att)) return world_vertices_fused(inst, slot, att, d, of);
    }
    return world_vertices_off(inst, slot, att, offsets_of(inst, slot, att), of, od);
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


/* ---- the plan (issue 17) --------------------------------------------- */

#include <stdlib.h>

/* a vertex as the plan sorts it: by influence count, then its bones in the
** file's order, then its index */
typedef struct wv_key { const ob_weight *w; int32_t k, v; } wv_key;

static inline int key_less(const wv_key *a, const wv_key *b)
{
    if (a->k != b->k) return a->k < b->k;
    for (int32_t j = 0; j < a->k; j++)
        if (a->w[j].bone != b->w[j].bone) return a->w[j].bone < b->w[j].bone;
    return a->v < b->v;
}

/* a stable merge sort, bottom up (keys start in index order), tmp as long */
static void sort_keys(wv_key *key, wv_key *tmp, int32_t n)
{
    for (int32_t i = 1; i < n; i++) {  /* runs of 8 by insertion */
        if ((i & 7) == 0) continue;
        wv_key x = key[i];
        int32_t j = i;
        for (; (j & 7) && key_less(&x, &key[j - 1]); j--) key[j] = key[j - 1];
        key[j] = x;
    }
    for (int32_t w = 8; w < n; w *= 2) {
        for (int32_t lo = 0; lo < n; lo += 2 * w) {
            int32_t mid = lo + w < n ? lo + w : n, hi = lo + 2 * w < n ? lo + 2 * w : n, i = lo, j = mid, o = lo;
            if (mid >= hi || !key_less(&key[mid], &key[mid - 1])) continue;  /* already in order */
            while (i < mid && j < hi) tmp[o++] = key_less(&key[j], &key[i]) ? key[j++] : key[i++];
            while (i < mid) tmp[o++] = key[i++];
            while (j < hi) tmp[o++] = key[j++];
            memcpy(key + lo, tmp + lo, (size_t)(hi - lo) * sizeof *key);
        }
        if (w > INT32_MAX / 4) break;
    }
}

static int same_bones(const wv_key *a, const wv_key *b)
{
    if (a->k != b->k) return 0;
    for (int32_t j = 0; j < a->k; j++)
        if (a->w[j].bone != b->w[j].bone) return 0;
    return 1;
}

void ob_wv_plan_free(ob_wv_plan *P)
{
    free(P->mesh);
    free(P->blob);
    memset(P, 0, sizeof *P);
}

/* Weighted meshes and paths whose influences all name a bone (the slot
** bone's -1 keeps world_vertices), and unweighted meshes; the other polygon
** types keep world_vertices. */
static int weighted_plannable(const ob_document *doc, const ob_attachment *a)
{
    if ((a->type != OB_ATT_MESH && a->type != OB_ATT_PATH) || !a->weight_start || a->vertex_count <= 0) return 0;
    if (doc->bone_count > INT32_MAX / (int32_t)sizeof(ob_mat)) return 0;
    for (int32_t f = 0; f < a->weight_start[a->vertex_count]; f++)
        if (a->weights[f].bone < 0 || a->weights[f].bone >= doc->bone_count) return 0;
    return 1;
}

static void *alloc64(size_t bytes)
{
    bytes = (bytes + 63) & ~(size_t)63;
    return aligned_alloc(64, bytes ? bytes : 64);
}

#define WV_HDR(k) (((size_t)16 + 4 * (size_t)(k) + 31) & ~(size_t)31)  /* a class's header bytes */
#define WV_PAIR(k) ((size_t)32 + 64 * (size_t)(k))                      /* a pair's bytes */
#define WV_RUN(k) ((k) >= 1 && (k) <= 6 ? (k) : 0)                     /* its run's code */

int ob_wv_plan_build(const ob_document *doc, ob_wv_plan *P)
{
    int32_t na = doc->attachment_count;
    memset(P, 0, sizeof *P);
    size_t total = 0, maxv = 1, bytes = 0;
    wv_key *key = NULL, *tmp = NULL;
    P->mesh = calloc(na > 0 ? (size_t)na : 1, sizeof *P->mesh);
    if (!P->mesh) goto oom;
    for (int32_t i = 0; i < na; i++) {  /* kind -1 while building: weighted, plannable */
        const ob_attachment *a = &doc->attachments[i];
        if (!weighted_plannable(doc, a)) continue;
        P->mesh[i].kind = -1;
        total += (size_t)a->vertex_count;
        if ((size_t)a->vertex_count > maxv) maxv = (size_t)a->vertex_count;
    }
    key = malloc((total ? total : 1) * sizeof *key);
    tmp = malloc(maxv * sizeof *tmp);
    if (!key || !tmp) goto oom;
    /* pass 0: sort each attachment's vertices once, size the blob */
    for (int32_t i = 0, base = 0; i < na; i++) {
        const ob_attachment *a = &doc->attachments[i];
        ob_wv_mesh *M = &P->mesh[i];
        if (a->type == OB_ATT_MESH && !a->weight_start && a->vertex_count > 0) {
            M->kind = 1;
            M->n = a->vertex_count;
            M->slot = a->slot >= 0 && a->slot < doc->slot_count && doc->slots[a->slot].bone >= 0 &&
                      doc->slots[a->slot].bone < doc->bone_count && doc->bone_count <= INT32_MAX / (int32_t)sizeof(ob_mat)
                          ? a->slot : -1;
            if (M->slot >= 0) M->first = doc->slots[a->slot].bone * (int32_t)sizeof(ob_mat);
            M->u.lv = a->vertices;
            for (int32_t v = 0; v < 2 * a->vertex_count; v++)
                if (a->vertices[v] == 0 && signbit(a->vertices[v])) M->ninf = 1;  /* a -0.0: x + 0 shows */
            continue;
        }
        if (M->kind != -1) continue;
        const int32_t *ws = a->weight_start;
        int32_t n = a->vertex_count;
        wv_key *K = key + base;
        base += n;
        for (int32_t v = 0; v < n; v++) K[v] = (wv_key){a->weights + ws[v], ws[v + 1] - ws[v], v};
        sort_keys(K, tmp, n);
        size_t b = 0;
        int32_t runs = 0, last = -1, ok = 1;
        uint8_t run_k[8];
        int32_t run_n[8];
        for (int32_t j = 0; j < n;) {
            int32_t k = K[j].k, e = j + 1;
            while (e < n && same_bones(&K[j], &K[e])) e++;
            if (k > INT32_MAX / 128 || (size_t)(e - j) > INT32_MAX / WV_PAIR(k)) { ok = 0; break; }
            b += WV_HDR(k) + (size_t)((e - j + 1) / 2) * WV_PAIR(k);
            int code = WV_RUN(k);
            if (code != last) {  /* k = 0, 1, ..., 6, more: at most 8 runs */
                if (runs == 8) { ok = 0; break; }
                run_k[runs] = (uint8_t)code;
                run_n[runs++] = 0;
                last = code;
            }
            run_n[runs - 1]++;
            j = e;
        }
        if (!ok || b > INT32_MAX / 4 || bytes + b > INT32_MAX / 2) {  /* too big: the direct loop */
            M->kind = -2;
            continue;
        }
        M->kind = 2;
        M->n = n;
        M->ninf = ws[n];
        M->first = (int32_t)bytes;
        M->runs = runs;
        memcpy(M->u.w.run_k, run_k, (size_t)runs);
        memcpy(M->u.w.run_n, run_n, (size_t)runs * sizeof *run_n);
        bytes += b;
    }
    P->blob = alloc64(bytes);
    if (!P->blob) goto oom;
    /* pass 1: the classes (the headers' and pairs' padding is never read) */
    for (int32_t i = 0, base = 0; i < na; i++) {
        const ob_attachment *a = &doc->attachments[i];
        if (P->mesh[i].kind >= 0 && P->mesh[i].kind != 2) continue;
        const int32_t *ws = a->weight_start;
        int32_t n = a->vertex_count;
        const wv_key *K = key + base;
        base += n;
        if (P->mesh[i].kind == -2) {
            P->mesh[i].kind = 0;
            continue;
        }
        char *p = P->blob + P->mesh[i].first;
        for (int32_t j = 0; j < n;) {
            int32_t k = K[j].k, e = j + 1;
            while (e < n && same_bones(&K[j], &K[e])) e++;
            int32_t pairs = (e - j + 1) / 2;
            int32_t *h = (int32_t *)(void *)p;
            h[0] = pairs;
            h[1] = (int32_t)(WV_HDR(k) + (size_t)pairs * WV_PAIR(k));
            h[2] = k;
            h[3] = e - j;
            for (int32_t t = 0; t < k; t++) h[4 + t] = K[j].w[t].bone * (int32_t)sizeof(ob_mat);  /* bytes */
            p += WV_HDR(k);
            for (int32_t q = 0; q < pairs; q++, p += WV_PAIR(k)) {
                int32_t *ix = (int32_t *)(void *)p;
                double *S = (double *)(void *)(p + 32);
                for (int l = 0; l < 2; l++) {
                    const wv_key *kv = &K[j + 2 * q + l < e ? j + 2 * q + l : e - 1];  /* odd: the last again */
                    ix[l] = 2 * kv->v;                /* its first float (and offset) */
                    ix[2 + l] = 2 * ws[kv->v];        /* its first influence's offset */
                    for (int32_t t = 0; t < k; t++) {
                        const ob_weight *w = &kv->w[t];
                        S[8 * t + 2 * l] = w->weight * w->x;
                        S[8 * t + 2 * l + 1] = w->weight * w->y;
                        S[8 * t + 4 + 2 * l] = S[8 * t + 4 + 2 * l + 1] = w->weight;
                    }
                }
            }
            j = e;
        }
    }
    free(key);
    free(tmp);
    return 0;
oom:
    free(key);
    free(tmp);
    ob_wv_plan_free(P);
    return -1;
}

/* The offsets a plan's pass reads: ov one pair per vertex (mode 1) or per
** influence (mode 2), od the pending sample's differences (lazy: ov + od·t,
** ob_deform_settle's operations), NULL none. */
typedef struct wv_src { const double *ov, *od; double t; } wv_src;

static inline void wv_offset(const wv_src *S, int32_t i, double *dx, double *dy)
{
    *dx = S->ov[i];
    *dy = S->ov[i + 1];
    if (S->od) {
        *dx = *dx + S->od[i] * S->t;
        *dy = *dy + S->od[i + 1] * S->t;
    }
}

/* a class of k = 0 or more than 6 influences: the scalar loop's operations
** on its entries; returns the next class */
#if defined(__GNUC__)
__attribute__((unused))  /* only the SIMD widths use it */
#endif
static const char *wv_class_scalar(const char *p, const ob_mat *world, const wv_src *S, int mode, float *of,
                                   double *od)
{
    const int32_t *h = (const int32_t *)(const void *)p;
    int32_t k = h[2];
    const char *q = p + WV_HDR(k), *end = p + h[1];
    for (; q != end; q += WV_PAIR(k)) {
        const int32_t *ix = (const int32_t *)(const void *)q;
        for (int l = 0; l < 2; l++) {
            const double *s = (const double *)(const void *)(q + 32) + 2 * l;
            double wx = 0, wy = 0, dx = 0, dy = 0;
            if (mode == 1) wv_offset(S, ix[l], &dx, &dy);
            for (int32_t j = 0; j < k; j++, s += 8) {
                const ob_mat *m = (const ob_mat *)(const void *)((const char *)world + h[4 + j]);
                double wt = s[4], px = s[0], py = s[1];
                if (mode == 2) wv_offset(S, ix[2 + l] + 2 * j, &dx, &dy);
                if (mode) {
                    px = px + wt * dx;
                    py = py + wt * dy;
                }
                double tx = m->a * px + m->b * py + m->x * wt, ty = m->c * px + m->d * py + m->y * wt;
                if (j) { wx += tx; wy += ty; }
                else { wx = tx; wy = ty; }
            }
            if (od) { od[ix[l]] = wx; od[ix[l] + 1] = wy; }
            else { of[ix[l]] = (float)wx; of[ix[l] + 1] = (float)wy; }
        }
    }
    return end;
}

/* The kernels, one per width: in each class loop k, the offsets' mode (0
** none, 1 per vertex, 2 per influence), lazy (a pending sample) and the
** output (float32 or doubles) are constants. */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && defined(__linux__) && !defined(OB_NO_DISPATCH)
#define WV_AVX2 1
#endif
#if defined(__SSE2__) || defined(__x86_64__)
#define WV_SIMD 1
#define WV_INLINE static inline __attribute__((always_inline))

/* SSE2: per vertex (the pair's halves in turn), two lanes (x, y) */
WV_INLINE const char *wv_class_sse2(const char *p, const ob_mat *world, const wv_src *S, float *of, double *od,
                                    const int k, const int mode, const int lazy)
{
    const int32_t *h = (const int32_t *)(const void *)p;
    __m128d AB[6], CD[6], TT[6];
    _Pragma("GCC unroll 6")
    for (int j = 0; j < k; j++) {
        const double *m = (const double *)(const void *)((const char *)world + h[4 + j]);
        AB[j] = _mm_loadu_pd(m);
        CD[j] = _mm_loadu_pd(m + 2);
        TT[j] = _mm_loadu_pd(m + 4);
    }
    const __m128d T = _mm_set1_pd(S->t);
    const char *q = p + WV_HDR(k), *end = p + h[1];
    for (; q != end; q += WV_PAIR(k)) {
        const int32_t *ix = (const int32_t *)(const void *)q;
        const double *s = (const double *)(const void *)(q + 32);
        for (int l = 0; l < 2; l++) {
            __m128d acc = _mm_setzero_pd(), D = acc;
#define S2_OFF(i) (lazy ? _mm_add_pd(_mm_loadu_pd(S->ov + (i)), _mm_mul_pd(_mm_loadu_pd(S->od + (i)), T)) \
                        : _mm_loadu_pd(S->ov + (i)))
            if (mode == 1) D = S2_OFF(ix[l]);
            _Pragma("GCC unroll 6")
            for (int j = 0; j < k; j++) {
                __m128d P = _mm_load_pd(s + 8 * j + 2 * l), W = _mm_load_pd(s + 8 * j + 4 + 2 * l);
                if (mode == 2) D = S2_OFF(ix[2 + l] + 2 * j);
                if (mode) P = _mm_add_pd(P, _mm_mul_pd(W, D));
                __m128d x = _mm_mul_pd(AB[j], P), y = _mm_mul_pd(CD[j], P);  /* (a·px, b·py), (c·px, d·py) */
                __m128d t = _mm_add_pd(_mm_add_pd(_mm_unpacklo_pd(x, y), _mm_unpackhi_pd(x, y)), _mm_mul_pd(TT[j], W));
                acc = j ? _mm_add_pd(acc, t) : t;
            }
#undef S2_OFF
            if (od) _mm_storeu_pd(od + ix[l], acc);
            else _mm_storel_pi((__m64 *)(void *)(of + ix[l]), _mm_cvtpd_ps(acc));
        }
    }
    return end;
}

#ifdef WV_AVX2
#define WV_AVX __attribute__((target("avx2")))
#define A2_BCAST(p) _mm256_broadcast_pd((const __m128d *)(const void *)(p))
/* AVX2: the pair, four lanes (x0, y0, x1, y1) */
WV_AVX WV_INLINE const char *wv_class_avx2(const char *p, const ob_mat *world, const wv_src *S, float *of, double *od,
                                           const int k, const int mode, const int lazy)
{
    const int32_t *h = (const int32_t *)(const void *)p;
    __m256d AC[6], BD[6], TT[6];
    _Pragma("GCC unroll 6")
    for (int j = 0; j < k; j++) {
        const double *m = (const double *)(const void *)((const char *)world + h[4 + j]);
        __m256d AB = A2_BCAST(m), CD = A2_BCAST(m + 2);
        AC[j] = _mm256_unpacklo_pd(AB, CD);  /* (a, c, a, c) */
        BD[j] = _mm256_unpackhi_pd(AB, CD);  /* (b, d, b, d) */
        TT[j] = A2_BCAST(m + 4);
    }
    const __m256d T = _mm256_set1_pd(S->t);
    const char *q = p + WV_HDR(k), *end = p + h[1];
    for (; q != end; q += WV_PAIR(k)) {
        const int32_t *ix = (const int32_t *)(const void *)q;
        const double *s = (const double *)(const void *)(q + 32);
        __m256d acc = _mm256_setzero_pd(), D = acc;
#define A2_OFF(a, b) (lazy ? _mm256_add_pd(_mm256_loadu2_m128d(S->ov + (b), S->ov + (a)),                        \
                                           _mm256_mul_pd(_mm256_loadu2_m128d(S->od + (b), S->od + (a)), T))       \
                           : _mm256_loadu2_m128d(S->ov + (b), S->ov + (a)))
        if (mode == 1) D = A2_OFF(ix[0], ix[1]);
        _Pragma("GCC unroll 6")
        for (int j = 0; j < k; j++) {
            __m256d P = _mm256_load_pd(s + 8 * j), W = _mm256_load_pd(s + 8 * j + 4);
            if (mode == 2) D = A2_OFF(ix[2] + 2 * j, ix[3] + 2 * j);
            if (mode) P = _mm256_add_pd(P, _mm256_mul_pd(W, D));
            /* (a·px + b·py, c·px + d·py) per vertex: (px, px)·(a, c) + (py, py)·(b, d),
            ** the products and sums hadd(AB·P, CD·P) gave, shuffles in its place (issue 17) */
            __m256d t = _mm256_add_pd(_mm256_add_pd(_mm256_mul_pd(AC[j], _mm256_movedup_pd(P)),
                                                    _mm256_mul_pd(BD[j], _mm256_permute_pd(P, 15))),
                                      _mm256_mul_pd(TT[j], W));
            acc = j ? _mm256_add_pd(acc, t) : t;
        }
#undef A2_OFF
        if (od) {
            _mm_storeu_pd(od + ix[0], _mm256_castpd256_pd128(acc));
            _mm_storeu_pd(od + ix[1], _mm256_extractf128_pd(acc, 1));  /* odd: the same vertex, value */
        } else {
            __m128 f = _mm256_cvtpd_ps(acc);
            _mm_storel_pi((__m64 *)(void *)(of + ix[0]), f);
            _mm_storeh_pi((__m64 *)(void *)(of + ix[1]), f);
        }
    }
    return end;
}
#endif

/* one body per width: the runs of one k in turn */
#define WV_MESH(CLASS, ATTR, NAME)                                                                              \
    ATTR WV_INLINE void NAME##_m(const char *p, const ob_wv_mesh *M, const ob_mat *world, const wv_src *S,      \
                                 float *of, double *od, const int mode, const int lazy)                          \
    {                                                                                                            \
        for (int32_t r = 0; r < M->runs; r++) {                                                                  \
            int32_t c = M->u.w.run_n[r];                                                                             \
            switch (M->u.w.run_k[r]) {                                                                               \
            case 1: do p = CLASS(p, world, S, of, od, 1, mode, lazy); while (--c); break;                       \
            case 2: do p = CLASS(p, world, S, of, od, 2, mode, lazy); while (--c); break;                       \
            case 3: do p = CLASS(p, world, S, of, od, 3, mode, lazy); while (--c); break;                       \
            case 4: do p = CLASS(p, world, S, of, od, 4, mode, lazy); while (--c); break;                       \
            case 5: do p = CLASS(p, world, S, of, od, 5, mode, lazy); while (--c); break;                       \
            case 6: do p = CLASS(p, world, S, of, od, 6, mode, lazy); while (--c); break;                       \
            default: do p = wv_class_scalar(p, world, S, mode, of, od); while (--c); break;                     \
            }                                                                                                    \
        }                                                                                                        \
    }                                                                                                            \
    /* variant: 0 none, 1 per vertex, 2 per vertex pending, 3 per influence, 4 per influence pending */        \
    ATTR WV_INLINE void NAME##_f(const char *p, const ob_wv_mesh *M, const ob_mat *world, const wv_src *S,      \
                                 int variant, float *of)                                                         \
    {                                                                                                            \
        switch (variant) {                                                                                       \
        case 0: NAME##_m(p, M, world, S, of, NULL, 0, 0); break;                                                \
        case 1: NAME##_m(p, M, world, S, of, NULL, 1, 0); break;                                                \
        case 2: NAME##_m(p, M, world, S, of, NULL, 1, 1); break;                                                \
        case 3: NAME##_m(p, M, world, S, of, NULL, 2, 0); break;                                                \
        default: NAME##_m(p, M, world, S, of, NULL, 2, 1); break;                                               \
        }                                                                                                        \
    }                                                                                                            \
    /* doubles: the offsets stored (variant 0, 1 or 3) */                                                       \
    ATTR WV_INLINE void NAME##_d(const char *p, const ob_wv_mesh *M, const ob_mat *world, const wv_src *S,      \
                                 int variant, double *od)                                                        \
    {                                                                                                            \
        if (variant == 0) NAME##_m(p, M, world, S, NULL, od, 0, 0);                                             \
        else if (variant == 1) NAME##_m(p, M, world, S, NULL, od, 1, 0);                                        \
        else NAME##_m(p, M, world, S, NULL, od, 2, 0);                                                          \
    }

WV_MESH(wv_class_sse2, , weighted_sse2)
#ifdef WV_AVX2
WV_MESH(wv_class_avx2, WV_AVX, weighted_avx2)
WV_AVX static void weighted_avx2_d_call(const char *p, const ob_wv_mesh *M, const ob_mat *world, const wv_src *S,
                                        int variant, double *od)
{
    weighted_avx2_d(p, M, world, S, variant, od);
}
int ob_wv_have_avx2(void) { return __builtin_cpu_supports("avx2") != 0; }
#else
int ob_wv_have_avx2(void) { return 0; }
#endif
#else
int ob_wv_have_avx2(void) { return 0; }
#endif

/* The offsets an attachment's pass through the plan reads: the variant
** (0-4 as above) and S, or -1 when they need the direct loop (a short array).
** A pending sample is read fused for float32 output, stored first for doubles. */
static inline int plan_offsets(const ob_wv_mesh *M, const ob_deform *d, int doubles, wv_src *S)
{
    *S = (wv_src){NULL, NULL, 0};
    if (!d || d->count <= 0) return 0;
    int per_influence = M->kind == 2 && d->per_influence;
    if (d->count < 2 * (int64_t)(per_influence ? M->ninf : M->n)) return -1;
    int variant = 1;
    if (d->lazy_v0 && d->lazy_dv && !doubles) {  /* pending: fused, never stored */
        *S = (wv_src){d->lazy_v0, d->lazy_dv, d->lazy_t};
        variant = 2;
    } else {
        S->ov = d->lazy_v0 && !d->lazy_dv ? d->lazy_v0 : ob_deform_values(d);
    }
    return per_influence ? variant + 2 : variant;
}

#if defined(__GNUC__) && !defined(__clang__)
#define WV_NOINLINE static __attribute__((noipa))  /* a sibling call from the planned entry, its arguments as they are */
#else
#define WV_NOINLINE static __attribute__((noinline))
#endif
/* the direct loop (float32), where the plan does not apply */
WV_NOINLINE int32_t direct_f32(const ob_instance *inst, int32_t slot, int32_t ai, const ob_deform *d, float *out)
{
    const ob_attachment *att = &inst->doc->attachments[ai];
    if (fused(inst, d, att)) return world_vertices_fused(inst, slot, att, d, out);  /* deform (issue 17) */
    return world_vertices_off(inst, slot, att, offsets_for(d, att), out, NULL);
}

static inline const ob_mat *slot_world(const ob_instance *inst, int32_t slot)
{
    return &inst->world[inst->doc->slots[slot].bone];
}

/* ob_attachment_world_vertices_planned for a planned attachment, one per
** width and kind (use->plan set, use->width not 3).  Unweighted: the
** offsets as plan_offsets picks them, without the look-ups: a pending
** sample's lazy_dv is NULL when it is a key's own values. */
#define WV_UNWEIGHTED_BODY(KERNEL)                                                                              \
    {                                                                                                           \
        const ob_mat *m = slot == M->slot ? (const ob_mat *)(const void *)((const char *)inst->world + M->first) \
                                          : slot_world(inst, slot);                                             \
        int32_t n = M->n;                                                                                       \
        if (!d || d->count <= 0) KERNEL(m, M->u.lv, NULL, NULL, 0, n, out, M->ninf);                            \
        else if (d->count < 2 * (int64_t)n) return direct_f32(inst, slot, (int32_t)(M - P->mesh), d, out);     \
        else if (d->lazy_v0) KERNEL(m, M->u.lv, d->lazy_v0, d->lazy_dv, d->lazy_t, n, out, 1);                 \
        else KERNEL(m, M->u.lv, d->values, NULL, 0, n, out, 1);                                                 \
        return n;                                                                                               \
    }
#define WV_PLAN_UNWEIGHTED(NAME, ATTR, KERNEL)                                                                     \
    ATTR WV_NOINLINE int32_t NAME(const ob_instance *inst, int32_t slot, const ob_wv_mesh *M, const ob_deform *d, \
                                  const ob_wv_plan *P, float *out)                                              \
    WV_UNWEIGHTED_BODY(KERNEL)                                                                                  \
    /* the same inlined into a batch loop (issue 17, draw) */                                                   \
    ATTR static inline __attribute__((always_inline)) int32_t NAME##_in(const ob_instance *inst, int32_t slot,  \
                                  const ob_wv_mesh *M, const ob_deform *d, const ob_wv_plan *P, float *out)      \
    WV_UNWEIGHTED_BODY(KERNEL)
#define WV_PLAN_WEIGHTED(NAME, ATTR, KERNEL)                                                                     \
    ATTR WV_NOINLINE int32_t NAME(const ob_instance *inst, int32_t slot, const ob_wv_mesh *M, const ob_deform *d, \
                                  const ob_wv_plan *P, float *out)                                              \
    {                                                                                                           \
        wv_src S;                                                                                               \
        int variant = plan_offsets(M, d, 0, &S);                                                                \
        if (variant < 0) return direct_f32(inst, slot, (int32_t)(M - P->mesh), d, out);                        \
        KERNEL(P->blob + M->first, M, inst->world, &S, variant, out);                                           \
        return M->n;                                                                                            \
    }
#define UF32(m, lv, ov, od, t, n, of, zero) unweighted_f32(m, lv, ov, od, t, n, of)
WV_PLAN_UNWEIGHTED(plan_unweighted_sse2, , UF32)
#undef UF32
#ifdef WV_SIMD
WV_PLAN_WEIGHTED(plan_weighted_sse2, , weighted_sse2_f)
#endif
#ifdef WV_AVX2
WV_PLAN_UNWEIGHTED(plan_unweighted_avx2, WV_AVX, unweighted_avx2_inline)
WV_PLAN_WEIGHTED(plan_weighted_avx2, WV_AVX, weighted_avx2_f)
#endif

/* world_vertices through the plan: 0 when it does not apply */
static int plan_run(const ob_instance *inst, int32_t slot, const ob_wv_plan *P, int32_t ai, const ob_deform *d,
                    int width, float *of, double *od)
{
    const ob_wv_mesh *M = &P->mesh[ai];
    if (of) {
        ob_wv_use use = {P, width};
        return (int)ob_attachment_world_vertices_planned(inst, slot, ai, d, &use, of);
    }
    wv_src S;
    int variant = plan_offsets(M, d, 1, &S);
    if (variant < 0 || M->kind != 2) return 0;
#ifdef WV_SIMD
#ifdef WV_AVX2
    if (width != 1 && __builtin_cpu_supports("avx2")) {
        weighted_avx2_d_call(P->blob + M->first, M, inst->world, &S, variant, od);
        return 1;
    }
#endif
    weighted_sse2_d(P->blob + M->first, M, inst->world, &S, variant, od);
    return 1;
#else
    (void)slot; (void)width; (void)inst;
    return 0;
#endif
}

int32_t ob_attachment_world_vertices_planned(const ob_instance *inst, int32_t slot, int32_t ai, const ob_deform *d,
                                             const ob_wv_use *use, float *out)
{
    const ob_wv_plan *P = use->plan;
    if (__builtin_expect(P != NULL && use->width != 3, 1)) {
        const ob_wv_mesh *M = P->mesh + ai;
        int kind = M->kind;
#ifdef WV_AVX2
        if (use->width != 1 && __builtin_cpu_supports("avx2")) {
            if (kind == 2) return plan_weighted_avx2(inst, slot, M, d, P, out);
            if (kind == 1) return plan_unweighted_avx2(inst, slot, M, d, P, out);
        }
#endif
#ifdef WV_SIMD
        if (kind == 2) return plan_weighted_sse2(inst, slot, M, d, P, out);
#endif
        if (kind == 1) return plan_unweighted_sse2(inst, slot, M, d, P, out);
    }
    return direct_f32(inst, slot, ai, d, out);
}

/* issue 17 (draw): the draw list's meshes in one call a frame: the width and
** the CPU decided once, then per record the kind's entry as
** ob_attachment_world_vertices_planned picks it (the unweighted one inlined),
** so the same kernels and the same bits */
#define WV_MESHES(NAME, ATTR, UNWEIGHTED, WEIGHTED)                                                               \
    ATTR static __attribute__((noinline)) void NAME(const ob_instance *inst, const struct ob_wv_rec *r,          \
                                                    const struct ob_wv_rec *end, const ob_wv_plan *P, float *wv) \
    {                                                                                                            \
        for (; r < end; r++) {                                                                                   \
            const ob_wv_mesh *M = P->mesh + r->b;                                                                \
            const ob_deform *d = ob_deform_of_entries(inst, r->d, r->e);                                         \
            if (M->kind == 1) UNWEIGHTED(inst, r->a, M, d, P, wv + r->c);                                        \
            else WEIGHTED;                                                                                       \
        }                                                                                                        \
    }
#ifdef WV_SIMD
#define WV_W_SSE2 if (M->kind == 2) plan_weighted_sse2(inst, r->a, M, d, P, wv + r->c); \
                  else direct_f32(inst, r->a, r->b, d, wv + r->c)
#else
#define WV_W_SSE2 direct_f32(inst, r->a, r->b, d, wv + r->c)
#endif
WV_MESHES(meshes_sse2, , plan_unweighted_sse2_in, WV_W_SSE2)
#undef WV_W_SSE2
#ifdef WV_AVX2
WV_MESHES(meshes_avx2, WV_AVX, plan_unweighted_avx2_in,
          if (M->kind == 2) plan_weighted_avx2(inst, r->a, M, d, P, wv + r->c);
          else direct_f32(inst, r->a, r->b, d, wv + r->c))
#endif

/* width 3, or no plan: the direct loop */
static __attribute__((noinline)) void meshes_direct(const ob_instance *inst, const struct ob_wv_rec *r,
                                                    const struct ob_wv_rec *end, float *wv)
{
    for (; r < end; r++) direct_f32(inst, r->a, r->b, ob_deform_of_entries(inst, r->d, r->e), wv + r->c);
}

void ob_wv_meshes_batch(const ob_instance *inst, const struct ob_wv_rec *r, int32_t n, const ob_wv_use *use, float *wv)
{
    const ob_wv_plan *P = use->plan;
    const struct ob_wv_rec *end = r + n;
    if (__builtin_expect(P != NULL && use->width != 3, 1)) {
#ifdef WV_AVX2
        if (use->width != 1 && __builtin_cpu_supports("avx2")) {
            meshes_avx2(inst, r, end, P, wv);
            return;
        }
#endif
        meshes_sse2(inst, r, end, P, wv);
        return;
    }
    meshes_direct(inst, r, end, wv);
}
