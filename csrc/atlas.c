/* atlas.c: §8.7 packed atlas uv maps and texture ids. */
#include "atlas.h"

ob_uvmap ob_uvmap_identity(void) { return (ob_uvmap){0, 1, 0, 0, 0, 1}; }

ob_uvmap ob_atlas_uvmap(const ob_document *doc, const ob_region_data *r)
{
    const ob_page_data *p = &doc->pages[r->page];
    double pw = p->width, ph = p->height, ow = r->original_width, oh = r->original_height;
    switch (r->rotation) {
    case 90: /* §8.7 rotated: u' = (r.x + r.height + offY)/P.w − v·origH/P.w, v' = (r.y − offX)/P.h + u·origW/P.h */
        return (ob_uvmap){(r->x + r->height + r->offset_y) / pw, 0, -oh / pw, (r->y - r->offset_x) / ph, ow / ph, 0};
    case 180: /* extension (NOTES, Spine import): packed pixel (px, py) at page (x + w − px, y + h − py) */
        return (ob_uvmap){(r->x + r->width + r->offset_x) / pw, -ow / pw, 0,
                          (r->y + r->height + r->offset_y) / ph, 0, -oh / ph};
    case 270: /* extension (NOTES, Spine import): packed pixel (px, py) at page (x + py, y + w − px) */
        return (ob_uvmap){(r->x - r->offset_y) / pw, 0, oh / pw, (r->y + r->width + r->offset_x) / ph, -ow / ph, 0};
    default: /* §8.7 u' = (r.x − offX)/P.w + u·origW/P.w, v' = (r.y − offY)/P.h + v·origH/P.h */
        return (ob_uvmap){(r->x - r->offset_x) / pw, ow / pw, 0, (r->y - r->offset_y) / ph, 0, oh / ph};
    }
}

void ob_uvmap_apply(const ob_uvmap *m, const double *uv, int32_t n, float *out)
{
    for (int32_t i = 0; i < n; i++) {
        double u = uv[2 * i], v = uv[2 * i + 1];
        /* written as the formulas read: offset + u·scale, so the map and the spec round alike */
        out[2 * i] = (float)(m->u0 + (m->uu * u + m->uv * v));
        out[2 * i + 1] = (float)(m->v0 + (m->vu * u + m->vv * v));
    }
}

int ob_region_trimmed(const ob_region_data *r)
{
    return r->offset_x != 0 || r->offset_y != 0 || r->width != r->original_width ||
           r->height != r->original_height;
}

void ob_region_trim_box(const ob_region_data *r, double box[4])
{
    box[0] = r->offset_x / r->original_width;
    box[1] = r->offset_y / r->original_height;
    box[2] = (r->offset_x + r->width) / r->original_width;
    box[3] = (r->offset_y + r->height) / r->original_height;
}

const ob_region_data *ob_atlas_region(const ob_document *doc, int32_t image)
{
    if (image < 0 || image >= doc->image_count || !doc->image_region) return NULL;
    int32_t r = doc->image_region[image];
    return r >= 0 ? &doc->regions[r] : NULL;
}

int32_t ob_texture_page(const ob_document *doc, int32_t page) { (void)doc; return page; }
int32_t ob_texture_image(const ob_document *doc, int32_t image) { return doc->page_count + image; }
int32_t ob_texture_particle_dot(const ob_document *doc) { return doc->page_count + doc->image_count; }
int32_t ob_texture_count(const ob_document *doc) { return doc->page_count + doc->image_count + 1; }

const char *ob_texture_name(const ob_document *doc, int32_t t)
{
    if (t < 0) return NULL;
    if (t < doc->page_count) return doc->pages[t].id;
    t -= doc->page_count;
    if (t < doc->image_count) return doc->images[t].id;
    return "@openbone/particle-dot";
}

int32_t ob_image_texture(const ob_document *doc, int32_t image)
{
    if (image < 0 || image >= doc->image_count) return OB_TEXTURE_NONE;
    const ob_region_data *r = ob_atlas_region(doc, image);
    return r ? ob_texture_page(doc, r->page) : ob_texture_image(doc, image);
}

int ob_white_uv(const ob_document *doc, int32_t *texture, double *u, double *v)
{
    if (!doc->has_white || doc->white_page < 0) {
        *texture = OB_TEXTURE_NONE;
        *u = *v = 0;
        return 0;
    }
    const ob_page_data *p = &doc->pages[doc->white_page];
    /* §8.7 the white block's uv is its centre */
    *u = (doc->white[0] + doc->white[2] / 2) / p->width;
    *v = (doc->white[1] + doc->white[3] / 2) / p->height;
    *texture = ob_texture_page(doc, doc->white_page);
    return 1;
}
