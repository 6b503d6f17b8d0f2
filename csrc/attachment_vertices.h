/* attachment_vertices.h: §8.3 world vertices of polygon attachments (mesh,
** path, boundingBox, clipping).
**
** FOR THE DRAW-LIST ENGINEER (and anyone else): this is the shared helper for
** attachment world vertices; use it rather than re-implementing §8.3.  Owned
** by the constraints issue (csrc/attachment_vertices.c).  Usage:
**
**     float *xy = buffer of 2 * ob_attachment_world_vertex_count(att) floats
**     ob_attachment_world_vertices(inst, slot, att, xy);
**
** It computes, per vertex, world (x, y) rounded to float32:
**   unweighted: slot bone world · (x + dx, y + dy)
**   weighted:   Σ weight · bone.world · (x + dx, y + dy) over the vertex's
**               influences (a missing bone, index -1, uses the slot bone),
** with (dx, dy) the vertex's §5.1 deform offsets (the same pair added to
** every influence of a weighted vertex; values missing at the end of a short
** array count as 0; under the influenceOffsets extension one pair per
** influence, over the flat weights) from ob_attachment_deform below: for a mesh with
** linked_deform, the deform of its linked_mesh name if present (count > 0),
** else the deform of its own name.  clipping: the local vertices through the
** slot bone (no weights, no deform).  Nothing is allocated. */
#ifndef OB_ATTACHMENT_VERTICES_H
#define OB_ATTACHMENT_VERTICES_H

#include "instance.h"

/* Number of vertices (pairs) ob_attachment_world_vertices writes. */
int32_t ob_attachment_world_vertex_count(const ob_attachment *att);

/* Writes 2 * vertex_count floats (x, y pairs) into out.  slot = the slot the
** attachment is shown in (its bone is the unweighted/missing-bone basis).
** Returns the number of vertices written (0 for other attachment types). */
int32_t ob_attachment_world_vertices(const ob_instance *inst, int32_t slot,
                                     const ob_attachment *att, float *out);

/* The same in doubles, not rounded (the Spine pose model's path constraint). */
int32_t ob_attachment_world_vertices_d(const ob_instance *inst, int32_t slot,
                                       const ob_attachment *att, double *out);

/* ---- a renderer's pass over many attachments (issue 17) -------------
** The meshes (and weighted paths) of a document as a plan built once per
** document (by the first vertex build of any of its instances, drawlist.c)
** and only read afterwards, by all its instances at once.  Per attachment an
** ob_wv_mesh: unweighted meshes (kind 1) go through the slot bone's matrix,
** the (x, y) of two vertices a 256-bit value: (x0, x0, x1, x1)·(a, c, a, c)
** + (y0, y0, y1, y1)·(b, d, b, d) + (tx, ty, tx, ty), i.e. (a·x + b·y) + tx
** per value, as the direct loop.  Weighted ones (kind 2): the vertices grouped into classes,
** vertices with the same bones in the same order (file order inside a
** class), two a pair (an odd class repeats its last vertex); the classes
** sorted by influence count k, each run of one k a loop of constant k.  A
** class in ob_wv_plan.blob: a 32-byte-aligned header (pairs, bytes, k,
** vertices, the k bones' byte offsets into the world matrices), then per
** pair 32 bytes of indices (2·v0, 2·v1, 2·first influence of each) and per
** influence (w·x0, w·y0, w·x1, w·y1), (w0, w0, w1, w1), premultiplied at
** build.  One pass per class, its bones loaded once as (a, b), (c, d),
** (tx, ty) in both halves:
**     P = (w·x, w·y) (+ w·(dx, dy) with offsets), per vertex,
**     t_j = ((a, c)·(px, px) + (b, d)·(py, py)) + (tx, ty)·w = (a·px + b·py) + tx·w, ...
**     vertex = t_0 + t_1 + ... + t_{k-1}  (0 when k = 0).
** world_vertices' weighted loop does the same operations in the same order,
** so every path gives the same bits: that loop, the SSE2 baseline (a vertex
** in two lanes), the AVX2 clone (a pair in four), and the scalar loop for
** classes of k = 0 or more than 6 influences.  Attachments with a slot-bone
** influence (bone -1) are not planned.  A pending deform sample
** (ob_deform.lazy_dv) is read fused, v0 + dv·t per value, as ob_deform_settle
** computes it (float32 output; the doubles' output stores it first). */
typedef struct ob_wv_mesh {
    int32_t kind;                /* 0 not planned (the direct loop), 1 unweighted mesh, 2 weighted */
    int32_t n;                   /* vertices */
    int32_t ninf;                /* weighted: influences (per-influence offsets); unweighted: 1 if a local value is -0.0 */
    int32_t first;               /* weighted: its first class, a byte offset into ob_wv_plan.blob;
                                 ** unweighted: its slot's bone, a byte offset into the world matrices */
    int32_t slot;                /* unweighted: the attachment's slot (its skin entry's), -1 none */
    int32_t runs;                /* weighted: runs of classes of one k */
    union {
        struct {
            uint8_t run_k[8];    /* per run: k (1-6), or 0 (k = 0 or more than 6: the scalar loop) */
            int32_t run_n[8];    /* per run: its classes */
        } w;
        const double *lv;        /* unweighted: the local vertices (the document's) */
    } u;
} ob_wv_mesh;
typedef struct ob_wv_plan {
    ob_wv_mesh *mesh;            /* per attachment */
    char *blob;                  /* the classes, 64-byte aligned */
} ob_wv_plan;
int ob_wv_plan_build(const ob_document *doc, ob_wv_plan *plan);  /* -1: out of memory */
void ob_wv_plan_free(ob_wv_plan *plan);
/* An instance's use of its document's plan. */
typedef struct ob_wv_use {
    const ob_wv_plan *plan;      /* NULL until the first vertex build */
    int width;                   /* 0: by the CPU; tests: 1 SSE2 baseline, 2 AVX2 if the CPU has it, 3 no plan */
} ob_wv_use;
/* 1 when the AVX2 clone exists and this CPU runs it. */
int ob_wv_have_avx2(void);

/* ob_attachment_world_vertices through the plan (attachments it planned;
** the others directly).  d: the deform that applies (ob_attachment_deform, or
** the draw list's cached look-up of it), NULL none. */
int32_t ob_attachment_world_vertices_planned(const ob_instance *inst, int32_t slot, int32_t ai, const ob_deform *d,
                                             const ob_wv_use *use, float *out);

/* The entries ob_attachment_deform reads for att in slot, as indices into
** inst->deforms (-1 none): the linked mesh's (if linked deform) and its own.
** ob_attachment_deform = the first of them with count > 0. */
void ob_attachment_deform_entries(const ob_instance *inst, int32_t slot, const ob_attachment *att,
                                  int32_t *linked, int32_t *own);
static inline const ob_deform *ob_deform_of_entries(const ob_instance *inst, int32_t linked, int32_t own)
{
    if (linked >= 0 && inst->deforms[linked].count > 0) return &inst->deforms[linked];
    return own >= 0 && inst->deforms[own].count > 0 ? &inst->deforms[own] : NULL;
}

/* issue 17 (draw): a draw-list world-vertex record (drawlist.h's
** ob_draw_state.wv_rec): quads {bone offset, quad_dup pair, out, slot},
** polygons {slot, ai, out}, meshes {slot, ai, out, linked, own}. */
struct ob_wv_rec { int32_t a, b, c, d, e; };
/* ob_attachment_world_vertices_planned over n mesh records (the deform
** ob_deform_of_entries(linked, own), out at wv + out), the width and CPU
** decided once for all: the same kernels, the same bits.  The batch's set-up
** (about 40 instructions) pays from five meshes on; fewer go one by one. */
void ob_wv_meshes_batch(const ob_instance *inst, const struct ob_wv_rec *r, int32_t n, const ob_wv_use *use, float *wv);
static inline void ob_wv_meshes(const ob_instance *inst, const struct ob_wv_rec *r, int32_t n, const ob_wv_use *use,
                                float *wv)
{
    if (n > 4) {
        ob_wv_meshes_batch(inst, r, n, use, wv);
        return;
    }
    for (const struct ob_wv_rec *end = r + n; r < end; r++)
        ob_attachment_world_vertices_planned(inst, r->a, r->b, ob_deform_of_entries(inst, r->d, r->e), use, wv + r->c);
}

/* The deform entry that applies to att in slot (linked mesh ⇒ the source
** mesh's name), NULL when none is set (absent or count 0). */
const ob_deform *ob_attachment_deform(const ob_instance *inst, int32_t slot,
                                      const ob_attachment *att);

#endif
