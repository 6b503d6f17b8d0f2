/* attachment_vertices.c: §8.3 world vertices of mesh, path, boundingBox and
** clipping attachments (float32, deform offsets and weights included). */
#include "attachment_vertices.h"

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

int32_t ob_attachment_world_vertices(const ob_instance *inst, int32_t slot,
                                     const ob_attachment *att, float *out)
{
    int32_t n = ob_attachment_world_vertex_count(att);
    if (n == 0) return 0;
    ob_mat sb = inst->world[inst->doc->slots[slot].bone];
    const ob_deform *d = att->type == OB_ATT_CLIPPING ? NULL : ob_attachment_deform(inst, slot, att);
    const double *off = d ? d->values : NULL;
    int32_t off_count = d ? d->count : 0;
    int weighted = att->weight_start != NULL && att->type != OB_ATT_CLIPPING;
    for (int32_t v = 0; v < n; v++) {
        /* §8.3 deform values missing at the end of a short array count as 0 */
        double dx = 2 * v < off_count ? off[2 * v] : 0;
        double dy = 2 * v + 1 < off_count ? off[2 * v + 1] : 0;
        double wx = 0, wy = 0;
        if (!weighted) {
            /* §8.3 unweighted: (vx + dx, vy + dy) through the slot bone's world */
            double x = att->vertices[2 * v] + dx, y = att->vertices[2 * v + 1] + dy;
            wx = sb.a * x + sb.b * y + sb.x;
            wy = sb.c * x + sb.d * y + sb.y;
        } else {
            /* §8.3 weighted: Σ weight · bone.world·(inf.x + dx, inf.y + dy) */
            for (int32_t i = att->weight_start[v]; i < att->weight_start[v + 1]; i++) {
                const ob_weight *w = &att->weights[i];
                ob_mat m = w->bone >= 0 ? inst->world[w->bone] : sb;
                double x = w->x + dx, y = w->y + dy;
                wx += w->weight * (m.a * x + m.b * y + m.x);
                wy += w->weight * (m.c * x + m.d * y + m.y);
            }
        }
        out[2 * v] = (float)wx;
        out[2 * v + 1] = (float)wy;
    }
    return n;
}
