/* attachment_vertices.c: §8.3 world vertices of mesh, path, boundingBox and
** clipping attachments (float32, deform offsets and weights included). */
#include "attachment_vertices.h"

#include <string.h>
#if defined(__SSE2__) || defined(__x86_64__)
#include <immintrin.h>
#endif

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
static int32_t world_vertices_off(const ob_instance *inst, int32_t slot, const ob_attachment *att, offsets off,
                                  float *of, double *od)
{
    int32_t n = ob_attachment_world_vertex_count(att);
    if (n == 0) return 0;
    const ob_mat *world = inst->world, sb = world[inst->doc->slots[slot].bone];
    if (att->weight_start == NULL || att->type == OB_ATT_CLIPPING) {
        /* §8.3 unweighted: (vx + dx, vy + dy) through the slot bone's world
        ** (per-influence offsets of an unweighted attachment: one per vertex) */
        const double *lv = att->vertices;
        if (of && (off.count == 0 || off.count >= 2 * n)) {
            /* no offsets, or one for every value: the same sums without the
            ** per-value checks, two lanes at a time (issue 17) */
            const double *ov = off.count ? off.v : NULL;
            ob_v2d ma = {sb.a, sb.c}, mb = {sb.b, sb.d}, mx = {sb.x, sb.y};
            int32_t v = 0;
#ifdef __SSE2__
            /* the same sums, two vertices a store, converted together (issue 17) */
            __m128d MA = (__m128d)ma, MB = (__m128d)mb, MX = (__m128d)mx;
#define WV_UNWEIGHTED(P, R)                                                                                   \
            for (; v + 2 <= n; v += 2) {                                                              \
                __m128d p = (P), r = (R);                                                             \
                __m128d wp = _mm_add_pd(_mm_add_pd(_mm_mul_pd(MA, _mm_unpacklo_pd(p, p)), _mm_mul_pd(MB, _mm_unpackhi_pd(p, p))), MX); \
                __m128d wr = _mm_add_pd(_mm_add_pd(_mm_mul_pd(MA, _mm_unpacklo_pd(r, r)), _mm_mul_pd(MB, _mm_unpackhi_pd(r, r))), MX); \
                _mm_storeu_ps(of + 2 * v, _mm_movelh_ps(_mm_cvtpd_ps(wp), _mm_cvtpd_ps(wr)));        \
            }
            if (ov) WV_UNWEIGHTED(_mm_add_pd(_mm_loadu_pd(lv + 2 * v), _mm_loadu_pd(ov + 2 * v)),
                                  _mm_add_pd(_mm_loadu_pd(lv + 2 * v + 2), _mm_loadu_pd(ov + 2 * v + 2)))
            else WV_UNWEIGHTED(_mm_add_pd(_mm_loadu_pd(lv + 2 * v), _mm_setzero_pd()),
                               _mm_add_pd(_mm_loadu_pd(lv + 2 * v + 2), _mm_setzero_pd()))
#undef WV_UNWEIGHTED
#endif
            for (; v < n; v++) {
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

static int32_t world_vertices(const ob_instance *inst, int32_t slot, const ob_attachment *att, float *of,
                              double *od)
{
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
    free(P->first); free(P->count); free(P->groups); free(P->vtx); free(P->flat); free(P->step); free(P->bone);
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

int ob_wv_plan_build(const ob_document *doc, ob_wv_plan *P)
{
    int32_t na = doc->attachment_count;
    memset(P, 0, sizeof *P);
    size_t ng = 0, nq = 0, ns = 0, maxv = 1;
    int64_t *key = NULL;
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
            P->groups = calloc(ng ? ng : 1, sizeof *P->groups);
            P->vtx = calloc(nq ? 4 * nq : 1, sizeof *P->vtx);
            P->flat = calloc(nq ? 4 * nq : 1, sizeof *P->flat);
            P->step = alloc64(24 * ns * sizeof *P->step);
            P->bone = calloc(ns ? 4 * ns : 1, sizeof *P->bone);
            if (!P->groups || !P->vtx || !P->flat || !P->step || !P->bone) goto oom;
            ng = nq = ns = 0;
        }
        for (int32_t i = 0; i < na; i++) {
            const ob_attachment *a = &doc->attachments[i];
            if (!plannable(doc, a)) continue;
            const int32_t *ws = a->weight_start;
            int32_t n = a->vertex_count;
            /* groups by influence count, file order inside, four vertices a quad */
            for (int32_t v = 0; v < n; v++) key[v] = ((int64_t)(ws[v + 1] - ws[v]) << 32) | v;
            qsort(key, (size_t)n, sizeof *key, cmp_key);
            if (pass == 1) P->first[i] = (int32_t)ng;
            for (int32_t j = 0; j < n;) {
                int32_t k = (int32_t)(key[j] >> 32), e = j;
                while (e < n && (int32_t)(key[e] >> 32) == k) e++;
                int32_t quads = (e - j + 3) / 4;
                if (pass == 1) {
                    P->groups[ng] = (ob_wv_group){k, e - j, (int32_t)ns, (int32_t)nq};
                    for (int32_t q = 0; q < quads; q++)
                        for (int l = 0; l < 4; l++) {
                            int32_t at = j + 4 * q + l < e ? j + 4 * q + l : e - 1;  /* padded: the last again */
                            int32_t v = (int32_t)(key[at] & 0xffffffff);
                            P->vtx[4 * (nq + q) + l] = v;
                            P->flat[4 * (nq + q) + l] = ws[v];
                            for (int32_t t = 0; t < k; t++) {
                                size_t s = ns + (size_t)q * k + t;
                                const ob_weight *w = &a->weights[ws[v] + t];
                                double *S = P->step + 24 * s;
                                S[2 * l] = S[2 * l + 1] = w->weight * w->x;
                                S[8 + 2 * l] = S[8 + 2 * l + 1] = w->weight * w->y;
                                S[16 + 2 * l] = S[16 + 2 * l + 1] = w->weight;
                                P->bone[4 * s + l] = w->bone;
                            }
                        }
                }
                ng++;
                nq += (size_t)quads;
                ns += (size_t)quads * (size_t)k;
                j = e;
            }
            if (pass == 1) P->count[i] = (int32_t)ng - P->first[i];
            if (ng > INT32_MAX / 32 || nq > INT32_MAX / 32 || ns > INT32_MAX / 32) goto oom;
        }
    }
    free(key);
    return 0;
oom:
    free(key);
    ob_wv_plan_free(P);
    return -1;
}

size_t ob_wv_plan_bytes(const ob_document *doc, const ob_wv_plan *P)
{
    size_t ng = 0, nq = 0, ns = 0;
    for (int32_t i = 0; i < doc->attachment_count; i++)
        for (int32_t g = P->first[i]; g < P->first[i] + P->count[i]; g++) {
            ng++;
            nq += ((size_t)P->groups[g].n + 3) / 4;
            ns += ((size_t)P->groups[g].n + 3) / 4 * (size_t)P->groups[g].k;
        }
    return 2 * sizeof(int32_t) * (size_t)doc->attachment_count + ng * sizeof(ob_wv_group) + 8 * nq * sizeof(int32_t) +
           ns * (24 * sizeof(double) + 4 * sizeof(int32_t));
}

/* The kernels.  mode 0: no offsets; 1: one pair per vertex; 2: one pair per
** influence.  Lanes: SSE2 one vertex (x, y), AVX2 two (x0, y0, x1, y1),
** AVX-512 four; each lane does the scalar loop's operations in its order. */
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

/* a group's quads, one vertex at a time */
WV_INLINE void wv_group_sse2(const wv_args *A, const ob_wv_group *G, const int mode, const int k)
{
    const ob_wv_plan *P = A->P;
    const double *S = P->step + 24 * (size_t)G->step;
    const int32_t *B = P->bone + 4 * (size_t)G->step, *V = P->vtx + 4 * (size_t)G->quad, *F = P->flat + 4 * (size_t)G->quad;
    for (int32_t left = G->n; left > 0; left -= 4, S += 24 * k, B += 4 * k, V += 4, F += 4) {
        for (int l = 0; l < 4 && l < left; l++) {
            __m128d acc = _mm_setzero_pd(), dxx = acc, dyy = acc;
            if (mode == 1) {
                __m128d d = _mm_loadu_pd(A->off + 2 * V[l]);
                dxx = _mm_unpacklo_pd(d, d);
                dyy = _mm_unpackhi_pd(d, d);
            }
            for (int j = 0; j < k; j++) {
                const double *s = S + 24 * j + 2 * l;
                const ob_mat *m = A->world + B[4 * j + l];
                __m128d ab = _mm_loadu_pd(&m->a), cd = _mm_loadu_pd(&m->c), mt = _mm_loadu_pd(&m->x);
                __m128d px = _mm_load_pd(s), py = _mm_load_pd(s + 8), w = _mm_load_pd(s + 16);
                if (mode == 2) {
                    __m128d d = _mm_loadu_pd(A->off + 2 * (F[l] + j));
                    dxx = _mm_unpacklo_pd(d, d);
                    dyy = _mm_unpackhi_pd(d, d);
                }
                if (mode) {
                    px = _mm_add_pd(px, _mm_mul_pd(w, dxx));
                    py = _mm_add_pd(py, _mm_mul_pd(w, dyy));
                }
                __m128d t = _mm_add_pd(_mm_add_pd(_mm_mul_pd(_mm_unpacklo_pd(ab, cd), px), _mm_mul_pd(_mm_unpackhi_pd(ab, cd), py)),
                                       _mm_mul_pd(mt, w));
                acc = j ? _mm_add_pd(acc, t) : t;
            }
            _mm_storel_pi((__m64 *)(void *)(A->out + 2 * V[l]), _mm_cvtpd_ps(acc));
        }
    }
}

#ifdef WV_AVX2
#define WV_AVX __attribute__((target("avx2")))
/* two vertices at a time (a quad's halves) */
WV_AVX WV_INLINE void wv_group_avx2(const wv_args *A, const ob_wv_group *G, const int mode, const int k)
{
    const ob_wv_plan *P = A->P;
    const double *S = P->step + 24 * (size_t)G->step;
    const int32_t *B = P->bone + 4 * (size_t)G->step, *V = P->vtx + 4 * (size_t)G->quad, *F = P->flat + 4 * (size_t)G->quad;
    for (int32_t left = G->n; left > 0; left -= 4, S += 24 * k, B += 4 * k, V += 4, F += 4) {
        for (int h = 0; h < 4 && h < left; h += 2) {
            __m256d acc = _mm256_setzero_pd(), dxx = acc, dyy = acc;
            if (mode == 1) {
                __m256d d = _mm256_loadu2_m128d(A->off + 2 * V[h + 1], A->off + 2 * V[h]);
                dxx = _mm256_unpacklo_pd(d, d);
                dyy = _mm256_unpackhi_pd(d, d);
            }
            for (int j = 0; j < k; j++) {
                const double *s = S + 24 * j + 2 * h;
                const ob_mat *m0 = A->world + B[4 * j + h], *m1 = A->world + B[4 * j + h + 1];
                __m256d ab = _mm256_loadu2_m128d(&m1->a, &m0->a), cd = _mm256_loadu2_m128d(&m1->c, &m0->c);
                __m256d mt = _mm256_loadu2_m128d(&m1->x, &m0->x);
                __m256d px = _mm256_load_pd(s), py = _mm256_load_pd(s + 8), w = _mm256_load_pd(s + 16);
                if (mode == 2) {
                    __m256d d = _mm256_loadu2_m128d(A->off + 2 * (F[h + 1] + j), A->off + 2 * (F[h] + j));
                    dxx = _mm256_unpacklo_pd(d, d);
                    dyy = _mm256_unpackhi_pd(d, d);
                }
                if (mode) {
                    px = _mm256_add_pd(px, _mm256_mul_pd(w, dxx));
                    py = _mm256_add_pd(py, _mm256_mul_pd(w, dyy));
                }
                __m256d t = _mm256_add_pd(_mm256_add_pd(_mm256_mul_pd(_mm256_unpacklo_pd(ab, cd), px),
                                                        _mm256_mul_pd(_mm256_unpackhi_pd(ab, cd), py)),
                                          _mm256_mul_pd(mt, w));
                acc = j ? _mm256_add_pd(acc, t) : t;
            }
            __m128 f = _mm256_cvtpd_ps(acc);
            _mm_storeh_pi((__m64 *)(void *)(A->out + 2 * V[h + 1]), f);  /* a padded lane: the same vertex, the same value */
            _mm_storel_pi((__m64 *)(void *)(A->out + 2 * V[h]), f);
        }
    }
}
#endif

/* one body per width; in each loop the mode and (1-4) the influence count are constants */
#define WV_BODY(GROUP)                                                                           \
    for (int32_t g = g0; g < g0 + ng; g++) {                                                     \
        const ob_wv_group *G = &A->P->groups[g];                                                 \
        switch (G->k) {                                                                          \
        case 0:                                                                                  \
            for (int32_t i = 0; i < G->n; i++) {                                                 \
                int32_t v = A->P->vtx[4 * (size_t)G->quad + i];                                  \
                A->out[2 * v] = A->out[2 * v + 1] = 0.0f;  /* no influence: the empty sum */     \
            }                                                                                    \
            break;                                                                               \
        case 1: GROUP(A, G, mode, 1); break;                                                     \
        case 2: GROUP(A, G, mode, 2); break;                                                     \
        case 3: GROUP(A, G, mode, 3); break;                                                     \
        case 4: GROUP(A, G, mode, 4); break;                                                     \
        default: GROUP(A, G, mode, G->k); break;                                                 \
        }                                                                                        \
    }

WV_INLINE void weighted_sse2_m(const wv_args *A, int32_t g0, int32_t ng, const int mode) { WV_BODY(wv_group_sse2) }
static void weighted_sse2(const wv_args *A, int32_t g0, int32_t ng, int mode)
{
    if (mode == 0) weighted_sse2_m(A, g0, ng, 0);
    else if (mode == 1) weighted_sse2_m(A, g0, ng, 1);
    else weighted_sse2_m(A, g0, ng, 2);
}
#ifdef WV_AVX2
WV_AVX WV_INLINE void weighted_avx2_m(const wv_args *A, int32_t g0, int32_t ng, const int mode) { WV_BODY(wv_group_avx2) }
WV_AVX static void weighted_avx2(const wv_args *A, int32_t g0, int32_t ng, int mode)
{
    if (mode == 0) weighted_avx2_m(A, g0, ng, 0);
    else if (mode == 1) weighted_avx2_m(A, g0, ng, 1);
    else weighted_avx2_m(A, g0, ng, 2);
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
    offsets off = d && att->type != OB_ATT_CLIPPING ? (offsets){d->values, d->count, d->per_influence} : (offsets){NULL, 0, 0};
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
