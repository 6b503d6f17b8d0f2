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
** The weighted meshes of a document as a plan built once per document (by
** the first vertex build of any of its instances, drawlist.c) and only read
** afterwards, by all its instances at once.  A mesh's vertices are grouped
** into classes: vertices with the same bones in the same order (file order
** inside a class), two a pair (an odd class repeats its last vertex).  Per
** pair and influence j: w·x, w·y and w of both vertices, premultiplied at
** build and duplicated for the x and y lanes.  One pass per class, its k
** bone worlds loaded once as (a, c), (b, d), (tx, ty):
**     px = w·x (+ w·dx with offsets), py = w·y (+ w·dy),
**     t_j = (a·px + b·py) + tx·w,  (c·px + d·py) + ty·w,
**     vertex = t_0 + t_1 + ... + t_{k-1}  (0 when k = 0).
** world_vertices' weighted loop does the same operations in the same order,
** so every path gives the same bits: that loop, the SSE2 baseline (a vertex
** in two lanes), the AVX2 clone (a pair in four), and the scalar loop for
** classes of more than 6 influences.  Meshes with a slot-bone influence
** (bone -1) are not planned. */
typedef struct ob_wv_class {     /* vertices with the same bones, in the same order */
    int32_t k, n;                /* influences per vertex, vertices */
    int32_t bone;                /* its k bones: from ob_wv_plan.bones[bone] */
    int32_t vtx;                 /* its pairs: from ob_wv_plan.vtx[4 * vtx] */
    int32_t step;                /* its steps (k per pair): from ob_wv_plan.step[12 * step] */
} ob_wv_class;
typedef struct ob_wv_plan {
    int32_t *first, *count;      /* per attachment: its classes (count 0: not planned) */
    ob_wv_class *classes;
    int32_t *bones;              /* per class: its bones' byte offsets into the world matrices */
    int32_t *vtx;                /* 4 per pair: 2·v0, 2·v1 (odd: the last twice), their first influences */
    double *step;                /* 12 per step, 64-byte aligned: (w·x, w·x) ×2, (w·y, w·y) ×2, (w, w) ×2 */
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

/* ob_attachment_world_vertices through the plan (meshes it planned; the
** others directly).  d: the deform that applies (ob_attachment_deform, or
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

/* The deform entry that applies to att in slot (linked mesh ⇒ the source
** mesh's name), NULL when none is set (absent or count 0). */
const ob_deform *ob_attachment_deform(const ob_instance *inst, int32_t slot,
                                      const ob_attachment *att);

#endif
