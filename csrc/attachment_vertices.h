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

/* The same for a renderer's pass over many attachments: pairs holds every
** bone's world as (a, c), (b, d), (x, y) (ob_world_pairs), so that x and y
** are computed together, two lanes of the same double operations: the
** result is ob_attachment_world_vertices' bit for bit. */
void ob_world_pairs(const ob_instance *inst, double *pairs);  /* 6 per bone */
int32_t ob_attachment_world_vertices_pairs(const ob_instance *inst, int32_t slot, const ob_attachment *att,
                                           const double *pairs, float *out);

/* The deform entry that applies to att in slot (linked mesh ⇒ the source
** mesh's name), NULL when none is set (absent or count 0). */
const ob_deform *ob_attachment_deform(const ob_instance *inst, int32_t slot,
                                      const ob_attachment *att);

#endif
