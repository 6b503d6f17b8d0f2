/* atlas.h: §8.7 packed atlas uv maps (core/atlas.ts:atlasUvMap, remapUvs) and
** the texture an image is drawn from.  Everything here is a pure function of
** the document: no state, no allocation. */
#ifndef OB_ATLAS_H
#define OB_ATLAS_H

#include "document.h"

/* An affine uv map: u' = u0 + uu·u + uv·v, v' = v0 + vu·u + vv·v. */
typedef struct ob_uvmap { double u0, uu, uv, v0, vu, vv; } ob_uvmap;

/* The identity map (a loose image). */
ob_uvmap ob_uvmap_identity(void);
/* §8.7 atlasUvMap(r, P): image uv (0..1 of the original image) → page uv;
** rotated regions included. */
ob_uvmap ob_atlas_uvmap(const ob_document *doc, const ob_region_data *r);
/* Writes n remapped uv pairs (float32) from n pairs of doubles. */
void ob_uvmap_apply(const ob_uvmap *m, const double *uv, int32_t n, float *out);
/* §8.7 a region is trimmed when an offset is non-zero or its size differs
** from the original size. */
int ob_region_trimmed(const ob_region_data *r);
/* §8.7 trim box [offX/origW, offY/origH, (offX+w)/origW, (offY+h)/origH]. */
void ob_region_trim_box(const ob_region_data *r, double box[4]);
/* The packed region of an image, NULL when the image is loose or missing. */
const ob_region_data *ob_atlas_region(const ob_document *doc, int32_t image);

/* Texture ids: one integer space for every texture a draw item can name.
** [0, page_count) pages, [page_count, page_count + image_count) images,
** then the particle dot (§8.8); OB_TEXTURE_NONE for null. */
#define OB_TEXTURE_NONE (-1)
int32_t ob_texture_page(const ob_document *doc, int32_t page);
int32_t ob_texture_image(const ob_document *doc, int32_t image);
int32_t ob_texture_particle_dot(const ob_document *doc);
int32_t ob_texture_count(const ob_document *doc);
/* The id string of a texture ("@openbone/particle-dot" for the dot), NULL for none. */
const char *ob_texture_name(const ob_document *doc, int32_t texture);
/* §8.4 texture of an image: its atlas page if packed, else the image, none if missing. */
int32_t ob_image_texture(const ob_document *doc, int32_t image);
/* §8.4/§8.7 the white block: its page texture and the uv of its centre;
** returns 0 (and OB_TEXTURE_NONE) when the atlas has none. */
int ob_white_uv(const ob_document *doc, int32_t *texture, double *u, double *v);

#endif
