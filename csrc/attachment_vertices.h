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
** The weighted meshes of a document as a plan built once per instance (at
** its first build), computed in two passes:
**   1. per bone, its influences two at a time, the bone's world in registers:
**      t = w · ((a, c)·(x + dx) + (b, d)·(y + dy) + (x, y)), four lanes;
**   2. per vertex, acc = 0, then acc + t over its influences in the file's
**      order; vertices grouped by influence count (fixed-length loops) and
**      paired, two vertices in four lanes (x0, y0, x1, y1).
** Every lane does world_vertices' operations in its order, so the result is
** ob_attachment_world_vertices' bit for bit, at either vector width (SSE2
** baseline or the AVX2 clone: the same operations per lane). */
typedef struct ob_wv_inf2 {      /* pass 1: two influences of one bone */
    double xy[4];                /* x0, y0, x1, y1: local positions */
    double w[4];                 /* w0, w0, w1, w1 */
    int32_t pos[2];              /* where their t go (doubles into ob_wv_plan.t) */
    int32_t flat[2];             /* their indices in att->weights (per-influence offsets) */
    int32_t vtx[2];              /* their vertices (per-vertex offsets) */
} ob_wv_inf2;
typedef struct ob_wv_run { int32_t bone, first, count; } ob_wv_run;  /* bone -1: the slot bone */
typedef struct ob_wv_group { int32_t k, pairs, step, vpair; } ob_wv_group;
typedef struct ob_wv_plan {
    int32_t *first, *count;      /* per attachment: its groups (count 0: not planned) */
    int32_t *rfirst, *rcount;    /* per attachment: its bone runs */
    ob_wv_run *runs;
    ob_wv_inf2 *inf;
    ob_wv_group *groups;
    int32_t *vpair;              /* 2 vertex indices per pair (an odd one: the vertex twice) */
    double *t;                   /* 4 per pass-2 step: the products, per build */
    int width;                   /* 0: by the CPU; tests: 1 SSE2 baseline, 2 AVX2 if the CPU has it, 3 no plan */
} ob_wv_plan;
int ob_wv_plan_build(const ob_document *doc, ob_wv_plan *plan);  /* -1: out of memory */
void ob_wv_plan_free(ob_wv_plan *plan);
/* 1 when the AVX2 clone exists and this CPU runs it. */
int ob_wv_have_avx2(void);

/* ob_attachment_world_vertices through the plan (meshes it planned; the
** others directly).  d: the deform that applies (ob_attachment_deform, or
** the draw list's cached look-up of it), NULL none. */
int32_t ob_attachment_world_vertices_planned(const ob_instance *inst, int32_t slot, int32_t ai, const ob_deform *d,
                                             ob_wv_plan *plan, float *out);

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
