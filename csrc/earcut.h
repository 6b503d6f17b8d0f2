/* earcut.h: polygon triangulation, an exact port of mapbox/earcut 3.x (§8.5, §12). */
#ifndef OB_EARCUT_H
#define OB_EARCUT_H

#include <stddef.h>
#include <stdint.h>

/* Reusable scratch memory: grows on demand, never shrinks, so triangulating
** the same outlines frame after frame allocates nothing after the first. */
typedef struct ob_earcut_ctx ob_earcut_ctx;

ob_earcut_ctx *ob_earcut_ctx_create(void);
void ob_earcut_ctx_free(ob_earcut_ctx *ctx);

/* Triangulates n_vertices points (xy flat, 2 doubles each) with hole rings
** starting at the vertex indices holes[0..n_holes) (earcut's holeIndices).
** On success returns 0, sets *out to n_indices (a multiple of 3) vertex
** indices owned by ctx and valid until the next call.  Returns -1 only when
** memory runs out. */
int ob_earcut(ob_earcut_ctx *ctx, const double *xy, size_t n_vertices,
              const uint32_t *holes, size_t n_holes,
              const uint32_t **out, size_t *n_indices);

#endif
