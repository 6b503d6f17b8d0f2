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
UV_AVX static void unweighted_avx2(const ob_mat *m, const double *lv, const double *ov, const double *od, double t,
                                   int32_t n, float *of)
{
    __m256d MA = _mm256_set_pd(m->c, m->a, m->c, m->a), MB = _mm256_set_pd(m->d, m->b, m->d, m->b);
    __m256d MX = _mm256_set_pd(m->y, m->x, m->y, m->x), T = _mm256_set1_pd(t);
    int32_t v = 0;
#define UV_W(P) _mm256_add_pd(_mm256_add_pd(_mm256_mul_pd(MA, _mm256_unpacklo_pd(P, P)), \
                                            _mm256_mul_pd(MB, _mm256_unpackhi_pd(P, P))), MX)
#define UV_LOOP(P)                                                                        \
    for (; v + 4 <= n; v += 4) {                                                          \
        int32_t i = 2 * v;                                                                \
        __m256d p = (P);                                                                  \
        i += 4;                                                                           \
        __m256d r = (P);                                                                  \
        _mm_storeu_ps(of + 2 * v, _mm256_cvtpd_ps(UV_W(p)));                              \
        _mm_storeu_ps(of + 2 * v + 4, _mm256_cvtpd_ps(UV_W(r)));                          \
    }                                                                                     \
    for (; v + 2 <= n; v += 2) {                                                          \
        int32_t i = 2 * v;                                                                \
        __m256d p = (P);                                                                  \
        _mm_storeu_ps(of + 2 * v, _mm256_cvtpd_ps(UV_W(p)));                              \
    }
    if (od) {
        UV_LOOP(_mm256_add_pd(_mm256_loadu_pd(lv + i),
                              _mm256_add_pd(_mm256_loadu_pd(ov + i), _mm256_mul_pd(_mm256_loadu_pd(od + i), T))))
    } else if (ov) {
        UV_LOOP(_mm256_add_pd(_mm256_loadu_pd(lv + i), _mm256_loadu_pd(ov + i)))
    } else {
        UV_LOOP(_mm256_add_pd(_mm256_loadu_pd(lv + i), _mm256_setzero_pd()))
    }
#undef UV_LOOP
#undef UV_W
    if (v < n) {  /* the last vertex: the same operations, two lanes */
        __m128d p = _mm_loadu_pd(lv + 2 * v), d = _mm_setzero_pd();
        if (od) d = _mm_add_pd(_mm_loadu_pd(ov + 2 * v), _mm_mul_pd(_mm_loadu_pd(od + 2 * v), _mm256_castpd256_pd128(T)));
        else if (ov) d = _mm_loadu_pd(ov + 2 * v);
        p = _mm_add_pd(p, d);
        __m128d w = _mm_add_pd(_mm_add_pd(_mm_mul_pd(_mm256_castpd256_pd128(MA), _mm_unpacklo_pd(p, p)),
                                          _mm_mul_pd(_mm256_castpd256_pd128(MB), _mm_unpackhi_pd(p, p))),
                               _mm256_castpd256_pd128(MX));
        _mm_storel_pi((__m64 *)(void *)(of + 2 * v), _mm_cvtpd_ps(w));
    }
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

static int32_t world_vertices(const ob_instance *inst, int32_t slot, const ob_attachment *att, float *of,
                              double *od)
{
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

/* ---- the weighted plan (issue 17) ------------------------------------ */

#include <stdlib.h>

static int cmp_key(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return x < y ? -1 : x > y;
}

void ob_wv_plan_free(ob_wv_plan *P)
{
    free(P->first); free(P->count); free(P->rfirst); free(P->rcount); free(P->runs); free(P->inf);
    free(P->groups); free(P->vpair); free(P->t);
    int width = P->width;
    memset(P, 0, sizeof *P);
    P->width = width;
}

/* Only meshes are planned (what the draw list and ob_world_vertices_build
** draw); the other polygon types keep world_vertices. */
static int planned(const ob_attachment *a)
{
    return a->type == OB_ATT_MESH && a->weight_start && a->vertex_count > 0;
}

int ob_wv_plan_build(const ob_document *doc, ob_wv_plan *P)
{
    int32_t na = doc->attachment_count;
    int width = P->width;
    memset(P, 0, sizeof *P);
    P->width = width;
    size_t ng = 0, np = 0, nst = 0, nr = 0, ni = 0, maxv = 1, maxw = 1;
    int64_t *key = NULL, *bkey = NULL;
    int32_t *tpos = NULL;
    P->first = calloc(na > 0 ? (size_t)na : 1, sizeof *P->first);
    P->count = calloc(na > 0 ? (size_t)na : 1, sizeof *P->count);
    P->rfirst = calloc(na > 0 ? (size_t)na : 1, sizeof *P->rfirst);
    P->rcount = calloc(na > 0 ? (size_t)na : 1, sizeof *P->rcount);
    if (!P->first || !P->count || !P->rfirst || !P->rcount) goto oom;
    for (int32_t i = 0; i < na; i++) {
        const ob_attachment *a = &doc->attachments[i];
        if (!planned(a)) continue;
        if ((size_t)a->vertex_count > maxv) maxv = (size_t)a->vertex_count;
        if ((size_t)a->weight_start[a->vertex_count] > maxw) maxw = (size_t)a->weight_start[a->vertex_count];
    }
    key = malloc(maxv * sizeof *key);
    bkey = malloc(maxw * sizeof *bkey);
    tpos = malloc(maxw * sizeof *tpos);
    if (!key || !bkey || !tpos) goto oom;
    for (int pass = 0; pass < 2; pass++) {
        if (pass == 1) {
            P->groups = calloc(ng ? ng : 1, sizeof *P->groups);
            P->vpair = calloc(np ? 2 * np : 1, sizeof *P->vpair);
            P->t = calloc(nst ? 4 * nst : 1, sizeof *P->t);
            P->runs = calloc(nr ? nr : 1, sizeof *P->runs);
            P->inf = calloc(ni ? ni : 1, sizeof *P->inf);
            if (!P->groups || !P->vpair || !P->t || !P->runs || !P->inf) goto oom;
            ng = np = nst = nr = ni = 0;
        }
        for (int32_t i = 0; i < na; i++) {
            const ob_attachment *a = &doc->attachments[i];
            if (!planned(a)) continue;
            const int32_t *ws = a->weight_start;
            int32_t n = a->vertex_count, nw = ws[n];
            /* pass 2's layout: (count, vertex) ascending, so groups by count,
            ** file order inside; pairs; k steps per pair, step j of a pair holds
            ** influence j of both vertices.  tpos[flat] = where its t goes. */
            for (int32_t v = 0; v < n; v++) key[v] = ((int64_t)(ws[v + 1] - ws[v]) << 32) | v;
            qsort(key, (size_t)n, sizeof *key, cmp_key);
            if (pass == 1) P->first[i] = (int32_t)ng;
            for (int32_t j = 0; j < n;) {
                int32_t k = (int32_t)(key[j] >> 32), e = j;
                while (e < n && (int32_t)(key[e] >> 32) == k) e++;
                int32_t pairs = (e - j + 1) / 2;
                if (pass == 1) {
                    P->groups[ng] = (ob_wv_group){k, pairs, (int32_t)nst, (int32_t)np};
                    for (int32_t q = 0; q < pairs; q++) {
                        int32_t v0 = (int32_t)(key[j + 2 * q] & 0xffffffff);
                        int32_t v1 = j + 2 * q + 1 < e ? (int32_t)(key[j + 2 * q + 1] & 0xffffffff) : -1;
                        P->vpair[2 * (np + q)] = v0;
                        P->vpair[2 * (np + q) + 1] = v1 >= 0 ? v1 : v0;
                        for (int32_t t = 0; t < k; t++) {
                            size_t step = nst + (size_t)q * k + t;
                            tpos[ws[v0] + t] = (int32_t)(4 * step);
                            if (v1 >= 0) tpos[ws[v1] + t] = (int32_t)(4 * step + 2);
                        }
                        /* an odd vertex: its lanes 2-3 sum what the influences write there (zeros) */
                    }
                }
                ng++;
                np += (size_t)pairs;
                nst += (size_t)pairs * (size_t)k;
                j = e;
            }
            if (pass == 1) P->count[i] = (int32_t)ng - P->first[i];
            /* pass 1's layout: influences by bone (file order inside), two an
            ** entry; a bone's odd last one is written twice */
            for (int32_t v = 0; v < n; v++)
                for (int32_t f = ws[v]; f < ws[v + 1]; f++) {
                    int32_t b = a->weights[f].bone >= 0 ? a->weights[f].bone : -1;
                    bkey[f] = ((int64_t)(b + 1) << 32) | f;
                }
            qsort(bkey, (size_t)nw, sizeof *bkey, cmp_key);
            if (pass == 1) P->rfirst[i] = (int32_t)nr;
            for (int32_t j = 0; j < nw;) {
                int32_t b = (int32_t)(bkey[j] >> 32) - 1, e = j;
                while (e < nw && (int32_t)(bkey[e] >> 32) - 1 == b) e++;
                int32_t cnt = (e - j + 1) / 2;
                if (pass == 1) {
                    P->runs[nr] = (ob_wv_run){b, (int32_t)ni, cnt};
                    for (int32_t q = 0; q < cnt; q++) {
                        int32_t f0 = (int32_t)(bkey[j + 2 * q] & 0xffffffff);
                        int32_t f1 = j + 2 * q + 1 < e ? (int32_t)(bkey[j + 2 * q + 1] & 0xffffffff) : f0;
                        const ob_weight *w0 = &a->weights[f0], *w1 = &a->weights[f1];
                        /* vertices of f0, f1: ws is ascending */
                        int32_t lo = 0, hi = n - 1, u0, u1;
                        while (lo < hi) { int32_t m = (lo + hi + 1) / 2; if (ws[m] <= f0) lo = m; else hi = m - 1; }
                        u0 = lo;
                        lo = 0; hi = n - 1;
                        while (lo < hi) { int32_t m = (lo + hi + 1) / 2; if (ws[m] <= f1) lo = m; else hi = m - 1; }
                        u1 = lo;
                        P->inf[ni + q] = (ob_wv_inf2){{w0->x, w0->y, w1->x, w1->y},
                                                      {w0->weight, w0->weight, w1->weight, w1->weight},
                                                      {tpos[f0], tpos[f1]}, {f0, f1}, {u0, u1}};
                    }
                }
                nr++;
                ni += (size_t)cnt;
                j = e;
            }
            if (pass == 1) P->rcount[i] = (int32_t)nr - P->rfirst[i];
            if (ng > INT32_MAX / 8 || np > INT32_MAX / 8 || nst > INT32_MAX / 8 || nr > INT32_MAX / 8 ||
                ni > INT32_MAX / 8)
                goto oom;
        }
    }
    free(key); free(bkey); free(tpos);
    return 0;
oom:
    free(key); free(bkey); free(tpos);
    ob_wv_plan_free(P);
    return -1;
}

/* The kernels.  mode 0: no offsets (+0 added, as the formula reads); 1: one
** pair per vertex; 2: one pair per influence.  The SSE2 baseline computes
** the two halves of every AVX2 four-lane value with the same operations. */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && defined(__linux__) && !defined(OB_NO_DISPATCH)
#define WV_AVX2 1
#endif
#if defined(__SSE2__) || defined(__x86_64__)
#define WV_SIMD 1
#define WV_INLINE static inline __attribute__((always_inline))

typedef struct wv_args {
    const ob_wv_plan *P;
    int32_t r0, nr, g0, ng;
    const ob_mat *world, *sb;
    const double *off;
    float *out;
} wv_args;

/* pass 1, one run of a bone: t = w · ((a, c)·x + (b, d)·y + (x, y)) */
WV_INLINE void wv_run_sse2(const ob_wv_inf2 *e, int32_t cnt, const ob_mat *m, const double *off, const int mode,
                           double *t)
{
    __m128d ab = _mm_loadu_pd(&m->a), cd = _mm_loadu_pd(&m->c);
    __m128d M01 = _mm_unpacklo_pd(ab, cd), M23 = _mm_unpackhi_pd(ab, cd), M45 = _mm_loadu_pd(&m->x);
    const __m128d z = _mm_setzero_pd();
    for (int32_t q = 0; q < cnt; q++, e++) {
        __m128d d0 = z, d1 = z;
        if (mode == 1) { d0 = _mm_loadu_pd(off + 2 * e->vtx[0]); d1 = _mm_loadu_pd(off + 2 * e->vtx[1]); }
        if (mode == 2) { d0 = _mm_loadu_pd(off + 2 * e->flat[0]); d1 = _mm_loadu_pd(off + 2 * e->flat[1]); }
        __m128d p0 = _mm_add_pd(_mm_loadu_pd(e->xy), d0), p1 = _mm_add_pd(_mm_loadu_pd(e->xy + 2), d1);
        __m128d t0 = _mm_add_pd(_mm_add_pd(_mm_mul_pd(M01, _mm_unpacklo_pd(p0, p0)), _mm_mul_pd(M23, _mm_unpackhi_pd(p0, p0))), M45);
        __m128d t1 = _mm_add_pd(_mm_add_pd(_mm_mul_pd(M01, _mm_unpacklo_pd(p1, p1)), _mm_mul_pd(M23, _mm_unpackhi_pd(p1, p1))), M45);
        _mm_storeu_pd(t + e->pos[0], _mm_mul_pd(_mm_loadu_pd(e->w), t0));
        _mm_storeu_pd(t + e->pos[1], _mm_mul_pd(_mm_loadu_pd(e->w + 2), t1));
    }
}

/* pass 2, the pairs of a group: acc = 0, acc + t in the file's order */
WV_INLINE void wv_pairs_sse2(const double *t, const int32_t *vp, int32_t np, const int k, float *out)
{
    for (int32_t p = 0; p < np; p++, vp += 2) {
        __m128d acc0 = _mm_setzero_pd(), acc1 = _mm_setzero_pd();
        for (int i = 0; i < k; i++, t += 4) {
            acc0 = _mm_add_pd(acc0, _mm_loadu_pd(t));
            acc1 = _mm_add_pd(acc1, _mm_loadu_pd(t + 2));
        }
        __m128 f = _mm_movelh_ps(_mm_cvtpd_ps(acc0), _mm_cvtpd_ps(acc1));
        _mm_storeh_pi((__m64 *)(void *)(out + 2 * vp[1]), f);
        _mm_storel_pi((__m64 *)(void *)(out + 2 * vp[0]), f);  /* after: an odd vertex's own lanes win */
    }
}

#ifdef WV_AVX2
#define WV_AVX __attribute__((target("avx2")))
WV_AVX WV_INLINE void wv_run_avx2(const ob_wv_inf2 *e, int32_t cnt, const ob_mat *m, const double *off, const int mode,
                                  double *t)
{
    __m128d ab = _mm_loadu_pd(&m->a), cd = _mm_loadu_pd(&m->c);
    __m128d a01 = _mm_unpacklo_pd(ab, cd), a23 = _mm_unpackhi_pd(ab, cd), a45 = _mm_loadu_pd(&m->x);
    __m256d M01 = _mm256_set_m128d(a01, a01), M23 = _mm256_set_m128d(a23, a23), M45 = _mm256_set_m128d(a45, a45);
    for (int32_t q = 0; q < cnt; q++, e++) {
        __m256d d = _mm256_setzero_pd();
        if (mode == 1) d = _mm256_loadu2_m128d(off + 2 * e->vtx[1], off + 2 * e->vtx[0]);
        if (mode == 2) d = _mm256_loadu2_m128d(off + 2 * e->flat[1], off + 2 * e->flat[0]);
        __m256d p = _mm256_add_pd(_mm256_loadu_pd(e->xy), d);
        __m256d r = _mm256_mul_pd(_mm256_loadu_pd(e->w),
                                  _mm256_add_pd(_mm256_add_pd(_mm256_mul_pd(M01, _mm256_unpacklo_pd(p, p)),
                                                              _mm256_mul_pd(M23, _mm256_unpackhi_pd(p, p))), M45));
        _mm_storeu_pd(t + e->pos[0], _mm256_castpd256_pd128(r));
        _mm_storeu_pd(t + e->pos[1], _mm256_extractf128_pd(r, 1));
    }
}

WV_AVX WV_INLINE void wv_pairs_avx2(const double *t, const int32_t *vp, int32_t np, const int k, float *out)
{
    for (int32_t p = 0; p < np; p++, vp += 2) {
        __m256d acc = _mm256_setzero_pd();
        /* t is read as the halves pass 1 stored (store forwarding works per half) */
        for (int i = 0; i < k; i++, t += 4) acc = _mm256_add_pd(acc, _mm256_loadu2_m128d(t + 2, t));
        __m128 f = _mm256_cvtpd_ps(acc);
        _mm_storeh_pi((__m64 *)(void *)(out + 2 * vp[1]), f);
        _mm_storel_pi((__m64 *)(void *)(out + 2 * vp[0]), f);
    }
}
#endif

/* one body per width; in each loop the mode and (1-4) the influence count are constants */
#define WV_BODY(RUN, PAIRS)                                                                      \
    const ob_wv_plan *P = A->P;                                                                 \
    double *t = P->t;                                                                           \
    for (int32_t r = A->r0; r < A->r0 + A->nr; r++) {                                           \
        const ob_wv_run *R = &P->runs[r];                                                       \
        const ob_mat *m = R->bone >= 0 ? &A->world[R->bone] : A->sb;                            \
        if (mode == 0) RUN(P->inf + R->first, R->count, m, A->off, 0, t);                       \
        else if (mode == 1) RUN(P->inf + R->first, R->count, m, A->off, 1, t);                  \
        else RUN(P->inf + R->first, R->count, m, A->off, 2, t);                                 \
    }                                                                                           \
    for (int32_t g = A->g0; g < A->g0 + A->ng; g++) {                                           \
        const ob_wv_group *G = &P->groups[g];                                                   \
        const double *tg = t + 4 * (size_t)G->step;                                             \
        const int32_t *vp = P->vpair + 2 * (size_t)G->vpair;                                    \
        switch (G->k) {                                                                         \
        case 1: PAIRS(tg, vp, G->pairs, 1, A->out); break;                                      \
        case 2: PAIRS(tg, vp, G->pairs, 2, A->out); break;                                      \
        case 3: PAIRS(tg, vp, G->pairs, 3, A->out); break;                                      \
        case 4: PAIRS(tg, vp, G->pairs, 4, A->out); break;                                      \
        default: PAIRS(tg, vp, G->pairs, G->k, A->out); break;                                  \
        }                                                                                       \
    }

static void weighted_sse2(const wv_args *A, int mode) { WV_BODY(wv_run_sse2, wv_pairs_sse2) }
#ifdef WV_AVX2
WV_AVX static void weighted_avx2(const wv_args *A, int mode) { WV_BODY(wv_run_avx2, wv_pairs_avx2) }
int ob_wv_have_avx2(void) { return __builtin_cpu_supports("avx2") != 0; }
#else
int ob_wv_have_avx2(void) { return 0; }
#endif
#else
int ob_wv_have_avx2(void) { return 0; }
#endif

int32_t ob_attachment_world_vertices_planned(const ob_instance *inst, int32_t slot, int32_t ai, const ob_deform *d,
                                             ob_wv_plan *plan, float *out)
{
    const ob_attachment *att = &inst->doc->attachments[ai];
    if (fused(inst, d, att)) return world_vertices_fused(inst, slot, att, d, out);  /* deform (issue 17) */
    offsets off = offsets_for(d, att);  /* deform (issue 17): a pending sample stored */
#ifdef WV_SIMD
    int32_t n = att->vertex_count;
    if (!planned(att) || plan->count[ai] == 0 || plan->width == 3) return world_vertices_off(inst, slot, att, off, out, NULL);
    int mode = off.count == 0 ? 0
             : !off.per_influence && off.count >= 2 * n ? 1
             : off.per_influence && off.count / 2 >= att->weight_start[n] ? 2 : -1;
    if (mode < 0) return world_vertices_off(inst, slot, att, off, out, NULL);  /* a short array */
    wv_args A = {plan, plan->rfirst[ai], plan->rcount[ai], plan->first[ai], plan->count[ai], inst->world,
                 &inst->world[inst->doc->slots[slot].bone], off.v, out};
#ifdef WV_AVX2
    if (plan->width != 1 && ob_wv_have_avx2()) { weighted_avx2(&A, mode); return n; }
#endif
    weighted_sse2(&A, mode);
    return n;
#else
    (void)plan; (void)ai;
    return world_vertices_off(inst, slot, att, off, out, NULL);
#endif
}
