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

/* a vertex as the plan sorts it: by influence count, then its bones in the
** file's order, then its index */
typedef struct wv_key { const ob_weight *w; int32_t k, v; } wv_key;

static int cmp_key(const void *pa, const void *pb)
{
    const wv_key *a = pa, *b = pb;
    if (a->k != b->k) return a->k < b->k ? -1 : 1;
    for (int32_t j = 0; j < a->k; j++)
        if (a->w[j].bone != b->w[j].bone) return a->w[j].bone < b->w[j].bone ? -1 : 1;
    return a->v < b->v ? -1 : a->v > b->v;
}

void ob_wv_plan_free(ob_wv_plan *P)
{
    free(P->first); free(P->count); free(P->classes); free(P->bones); free(P->vtx); free(P->step);
    memset(P, 0, sizeof *P);
}

/* Only meshes are planned (what the draw list and ob_world_vertices_build
** draw), and only those whose influences all name a bone (the slot bone's
** -1 keeps world_vertices); the other polygon types keep world_vertices. */
static int plannable(const ob_document *doc, const ob_attachment *a)
{
    if (a->type != OB_ATT_MESH || !a->weight_start || a->vertex_count <= 0) return 0;
    for (int32_t f = 0; f < a->weight_start[a->vertex_count]; f++)
        if (a->weights[f].bone < 0 || a->weights[f].bone >= doc->bone_count) return 0;
    return 1;
}

static void *alloc64(size_t bytes)
{
    bytes = (bytes + 63) & ~(size_t)63;
    return aligned_alloc(64, bytes ? bytes : 64);
}

static int same_bones(const wv_key *a, const wv_key *b)
{
    if (a->k != b->k) return 0;
    for (int32_t j = 0; j < a->k; j++)
        if (a->w[j].bone != b->w[j].bone) return 0;
    return 1;
}

int ob_wv_plan_build(const ob_document *doc, ob_wv_plan *P)
{
    int32_t na = doc->attachment_count;
    memset(P, 0, sizeof *P);
    size_t nc = 0, nb = 0, np = 0, ns = 0, maxv = 1;
    wv_key *key = NULL;
    P->first = calloc(na > 0 ? (size_t)na : 1, sizeof *P->first);
    P->count = calloc(na > 0 ? (size_t)na : 1, sizeof *P->count);
    if (!P->first || !P->count) goto oom;
    for (int32_t i = 0; i < na; i++) {
        const ob_attachment *a = &doc->attachments[i];
        if (plannable(doc, a) && (size_t)a->vertex_count > maxv) maxv = (size_t)a->vertex_count;
    }
    key = malloc(maxv * sizeof *key);
    if (!key) goto oom;
    for (int pass = 0; pass < 2; pass++) {
        if (pass == 1) {
            P->classes = calloc(nc ? nc : 1, sizeof *P->classes);
            P->bones = calloc(nb ? nb : 1, sizeof *P->bones);
            P->vtx = calloc(np ? 4 * np : 1, sizeof *P->vtx);
            P->step = alloc64(12 * ns * sizeof *P->step);
            if (!P->classes || !P->bones || !P->vtx || !P->step) goto oom;
            nc = nb = np = ns = 0;
        }
        for (int32_t i = 0; i < na; i++) {
            const ob_attachment *a = &doc->attachments[i];
            if (!plannable(doc, a)) continue;
            const int32_t *ws = a->weight_start;
            int32_t n = a->vertex_count;
            for (int32_t v = 0; v < n; v++) key[v] = (wv_key){a->weights + ws[v], ws[v + 1] - ws[v], v};
            qsort(key, (size_t)n, sizeof *key, cmp_key);
            if (pass == 1) P->first[i] = (int32_t)nc;
            for (int32_t j = 0; j < n;) {
                int32_t k = key[j].k, e = j + 1;
                while (e < n && same_bones(&key[j], &key[e])) e++;
                int32_t pairs = (e - j + 1) / 2;
                if (pass == 1) {
                    P->classes[nc] = (ob_wv_class){k, e - j, (int32_t)nb, (int32_t)np, (int32_t)ns};
                    for (int32_t t = 0; t < k; t++) P->bones[nb + t] = key[j].w[t].bone * (int32_t)sizeof(ob_mat);  /* bytes */
                    for (int32_t q = 0; q < pairs; q++)
                        for (int l = 0; l < 2; l++) {
                            const wv_key *kv = &key[j + 2 * q + l < e ? j + 2 * q + l : e - 1];  /* odd: the last again */
                            P->vtx[4 * (np + q) + l] = 2 * kv->v;  /* its first float (and offset) */
                            P->vtx[4 * (np + q) + 2 + l] = ws[kv->v];
                            for (int32_t t = 0; t < k; t++) {
                                double *S = P->step + 12 * (ns + (size_t)q * k + t);
                                const ob_weight *w = &kv->w[t];
                                S[2 * l] = S[2 * l + 1] = w->weight * w->x;
                                S[4 + 2 * l] = S[4 + 2 * l + 1] = w->weight * w->y;
                                S[8 + 2 * l] = S[8 + 2 * l + 1] = w->weight;
                            }
                        }
                }
                nc++;
                nb += (size_t)k;
                np += (size_t)pairs;
                ns += (size_t)pairs * (size_t)k;
                j = e;
            }
            if (pass == 1) P->count[i] = (int32_t)nc - P->first[i];
            if (doc->bone_count > INT32_MAX / 64 || nc > INT32_MAX / 32 || nb > INT32_MAX / 32 || np > INT32_MAX / 32 || ns > INT32_MAX / 32) goto oom;
        }
    }
    free(key);
    return 0;
oom:
    free(key);
    ob_wv_plan_free(P);
    return -1;
}

/* The kernels.  mode 0: no offsets; 1: one pair per vertex; 2: one pair per
** influence.  Lanes: SSE2 one vertex (x, y), AVX2 two (x0, y0, x1, y1); the
** class's bone worlds are loaded once, as (a, c), (b, d), (tx, ty) per lane
** pair; each lane does the scalar loop's operations in its order. */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && defined(__linux__) && !defined(OB_NO_DISPATCH)
#define WV_AVX2 1
#endif
#if defined(__SSE2__) || defined(__x86_64__)
#define WV_SIMD 1
#define WV_INLINE static inline __attribute__((always_inline))

typedef struct wv_args {
    const ob_wv_plan *P;
    const ob_mat *world;
    const double *off;
    float *out;
} wv_args;

/* SSE2: per vertex (lane l of each pair), two lanes (x, y) */
#define WV_CLASS_BODY(VEC, LOAD, LOADM, ADD, MUL, ZERO, UNLO, UNHI, LOADD, STORE, LANES)                 \
    const ob_wv_plan *P = A->P;                                                                           \
    const double *s = P->step + 12 * (size_t)C->step;                                                      \
    const int32_t *vp = P->vtx + 4 * (size_t)C->vtx;                                                       \
    const ob_mat *world = A->world;                                                                        \
    const double *off = A->off;                                                                            \
    float *out = A->out;                                                                                   \
    VEC ac[KMAX], bd[KMAX], mt[KMAX];                                                                      \
    _Pragma("GCC unroll 6")                                                                                \
    for (int j = 0; j < k; j++) {                                                                          \
        const ob_mat *m = (const ob_mat *)(const void *)((const char *)world + P->bones[C->bone + j]);     \
        VEC r0 = LOADM(&m->a), r1 = LOADM(&m->c);                                                          \
        ac[j] = UNLO(r0, r1);                                                                              \
        bd[j] = UNHI(r0, r1);                                                                              \
        mt[j] = LOADM(&m->x);                                                                              \
    }                                                                                                      \
    const int32_t n = C->n;                                                                                \
    for (int32_t i = 0; i < n; i += LANES) {                                                               \
        /* SSE2: lane i & 1 of pair i / 2 (its entries 2 doubles on); AVX2: the pair */                   \
        const int32_t *q = vp + (i & 1);                                                                   \
        const double *e = s + 2 * (i & 1);                                                                 \
        VEC acc = ZERO, dxx = acc, dyy = acc;                                                              \
        if (mode == 1) {                                                                                   \
            VEC d = LOADD(q[0], q[1]);                                                                     \
            dxx = UNLO(d, d);                                                                              \
            dyy = UNHI(d, d);                                                                              \
        }                                                                                                  \
        _Pragma("GCC unroll 6")                                                                            \
        for (int j = 0; j < k; j++) {                                                                      \
            VEC px = LOAD(e + 12 * j), py = LOAD(e + 12 * j + 4), w = LOAD(e + 12 * j + 8);                \
            if (mode == 2) {                                                                               \
                VEC d = LOADD(2 * (q[2] + j), 2 * (q[3] + j));                                             \
                dxx = UNLO(d, d);                                                                          \
                dyy = UNHI(d, d);                                                                          \
            }                                                                                              \
            if (mode) {                                                                                    \
                px = ADD(px, MUL(w, dxx));                                                                 \
                py = ADD(py, MUL(w, dyy));                                                                 \
            }                                                                                              \
            VEC t = ADD(ADD(MUL(ac[j], px), MUL(bd[j], py)), MUL(mt[j], w));                               \
            acc = j ? ADD(acc, t) : t;                                                                     \
        }                                                                                                  \
        STORE(q, acc);                                                                                     \
        if (LANES == 2 || (i & 1)) {                                                                       \
            vp += 4;                                                                                       \
            s += 12 * k;                                                                                   \
        }                                                                                                  \
    }

#define WV_KMAX 6  /* classes of up to 6 influences keep their bones in registers */

#define S2_LOADD(a, b) _mm_loadu_pd(off + (a))
#define S2_STORE(vp, acc) _mm_storel_pi((__m64 *)(void *)(out + (vp)[0]), _mm_cvtpd_ps(acc))
WV_INLINE void wv_class_sse2(const wv_args *A, const ob_wv_class *C, const int mode, const int k)
{
    enum { KMAX = WV_KMAX };
    WV_CLASS_BODY(__m128d, _mm_load_pd, _mm_loadu_pd, _mm_add_pd, _mm_mul_pd, _mm_setzero_pd(), _mm_unpacklo_pd,
                  _mm_unpackhi_pd, S2_LOADD, S2_STORE, 1)
}

#ifdef WV_AVX2
#define WV_AVX __attribute__((target("avx2")))
#define A2_LOADD(a, b) _mm256_loadu2_m128d(off + (b), off + (a))
#define A2_BCAST(p) _mm256_broadcast_pd((const __m128d *)(const void *)(p))
#define A2_STORE(vp, acc)                                                                                  \
    do {                                                                                                   \
        __m128 f_ = _mm256_cvtpd_ps(acc);                                                                  \
        _mm_storeh_pi((__m64 *)(void *)(out + (vp)[1]), f_);  /* odd: the same vertex, value */           \
        _mm_storel_pi((__m64 *)(void *)(out + (vp)[0]), f_);                                                \
    } while (0)
WV_AVX WV_INLINE void wv_class_avx2(const wv_args *A, const ob_wv_class *C, const int mode, const int k)
{
    enum { KMAX = WV_KMAX };
    WV_CLASS_BODY(__m256d, _mm256_load_pd, A2_BCAST, _mm256_add_pd, _mm256_mul_pd, _mm256_setzero_pd(),
                  _mm256_unpacklo_pd, _mm256_unpackhi_pd, A2_LOADD, A2_STORE, 2)
}
#endif

/* a class of more than WV_KMAX influences: the scalar loop's operations on its entries */
static void wv_class_long(const wv_args *A, const ob_wv_class *C, int mode)
{
    const ob_wv_plan *P = A->P;
    for (int32_t i = 0; i < C->n; i++) {
        const int32_t *vp = P->vtx + 4 * ((size_t)C->vtx + (size_t)i / 2) + (i & 1);
        const double *s = P->step + 12 * ((size_t)C->step + (size_t)C->k * (i / 2)) + 2 * (i & 1);
        double wx = 0, wy = 0, dx = 0, dy = 0;
        if (mode == 1) { dx = A->off[vp[0]]; dy = A->off[vp[0] + 1]; }
        for (int32_t j = 0; j < C->k; j++, s += 12) {
            const ob_mat *m = (const ob_mat *)(const void *)((const char *)A->world + P->bones[C->bone + j]);
            double wt = s[8], px = s[0], py = s[4];
            if (mode == 2) { dx = A->off[2 * (vp[2] + j)]; dy = A->off[2 * (vp[2] + j) + 1]; }
            if (mode) {
                px = px + wt * dx;
                py = py + wt * dy;
            }
            double tx = m->a * px + m->b * py + m->x * wt, ty = m->c * px + m->d * py + m->y * wt;
            if (j) { wx += tx; wy += ty; }
            else { wx = tx; wy = ty; }
        }
        A->out[vp[0]] = (float)wx;
        A->out[vp[0] + 1] = (float)wy;
    }
}

/* one body per width; in each loop the mode and (1-4) the influence count are constants */
#define WV_BODY(CLASS)                                                                           \
    for (int32_t c = c0; c < c0 + nc; c++) {                                                     \
        const ob_wv_class *C = &A->P->classes[c];                                                \
        switch (C->k) {                                                                          \
        case 0:                                                                                  \
            for (int32_t i = 0; i < C->n; i++) {                                                 \
                int32_t v = A->P->vtx[4 * ((size_t)C->vtx + (size_t)i / 2) + (i & 1)];           \
                A->out[v] = A->out[v + 1] = 0.0f;  /* no influence: the empty sum */             \
            }                                                                                    \
            break;                                                                               \
        case 1: CLASS(A, C, mode, 1); break;                                                     \
        case 2: CLASS(A, C, mode, 2); break;                                                     \
        case 3: CLASS(A, C, mode, 3); break;                                                     \
        case 4: CLASS(A, C, mode, 4); break;                                                     \
        case 5: CLASS(A, C, mode, 5); break;                                                     \
        case 6: CLASS(A, C, mode, 6); break;                                                     \
        default: wv_class_long(A, C, mode); break;                                               \
        }                                                                                        \
    }

WV_INLINE void weighted_sse2_m(const wv_args *A, int32_t c0, int32_t nc, const int mode) { WV_BODY(wv_class_sse2) }
static void weighted_sse2(const wv_args *A, int32_t c0, int32_t nc, int mode)
{
    if (mode == 0) weighted_sse2_m(A, c0, nc, 0);
    else if (mode == 1) weighted_sse2_m(A, c0, nc, 1);
    else weighted_sse2_m(A, c0, nc, 2);
}
#ifdef WV_AVX2
WV_AVX WV_INLINE void weighted_avx2_m(const wv_args *A, int32_t c0, int32_t nc, const int mode) { WV_BODY(wv_class_avx2) }
WV_AVX static void weighted_avx2(const wv_args *A, int32_t c0, int32_t nc, int mode)
{
    if (mode == 0) weighted_avx2_m(A, c0, nc, 0);
    else if (mode == 1) weighted_avx2_m(A, c0, nc, 1);
    else weighted_avx2_m(A, c0, nc, 2);
}
int ob_wv_have_avx2(void) { return __builtin_cpu_supports("avx2") != 0; }
#else
int ob_wv_have_avx2(void) { return 0; }
#endif
#else
int ob_wv_have_avx2(void) { return 0; }
#endif

int32_t ob_attachment_world_vertices_planned(const ob_instance *inst, int32_t slot, int32_t ai, const ob_deform *d,
                                             const ob_wv_use *use, float *out)
{
    const ob_attachment *att = &inst->doc->attachments[ai];
    if (fused(inst, d, att)) return world_vertices_fused(inst, slot, att, d, out);  /* deform (issue 17) */
    offsets off = offsets_for(d, att);  /* deform (issue 17): a pending sample stored */
#ifdef WV_SIMD
    const ob_wv_plan *P = use->plan;
    int32_t n = att->vertex_count;
    if (!P || P->count[ai] == 0 || use->width == 3) return world_vertices_off(inst, slot, att, off, out, NULL);
    int mode = off.count == 0 ? 0
             : !off.per_influence && off.count >= 2 * n ? 1
             : off.per_influence && off.count / 2 >= att->weight_start[n] ? 2 : -1;
    if (mode < 0) return world_vertices_off(inst, slot, att, off, out, NULL);  /* a short array */
    wv_args A = {P, inst->world, off.v, out};
#ifdef WV_AVX2
    if (use->width != 1 && ob_wv_have_avx2()) { weighted_avx2(&A, P->first[ai], P->count[ai], mode); return n; }
#endif
    weighted_sse2(&A, P->first[ai], P->count[ai], mode);
    return n;
#else
    (void)use; (void)ai;
    return world_vertices_off(inst, slot, att, off, out, NULL);
#endif
}
