/* drawlist.h: §8.4 the draw list, as plain arrays the bindings read.
**
** ob_draw_build(inst) walks the slots in draw order and writes one item per
** drawn attachment into buffers sized at instance creation (the largest
** attachment each slot can show), so building allocates nothing per frame.
** Vertices and uvs are float32 pairs; indices are uint32 and already rebased
** into the shared vertex array (item-local index = index − first_vertex).
** The only buffer that can grow is the formatted text (its length depends on
** input values); every growth is counted in `growths`. */
#ifndef OB_DRAWLIST_H
#define OB_DRAWLIST_H

#include "attachment_vertices.h"
#include "instance.h"
#include "jsnum.h"

typedef struct ob_draw_item {
    int32_t slot;                /* doc slot index */
    int32_t attachment;          /* doc attachment index */
    ob_attachment_type type;     /* region, mesh, sequence, particles, text, shape */
    ob_blend blend;
    int32_t texture;             /* atlas.h texture id, OB_TEXTURE_NONE for null */
    int32_t first_vertex, vertex_count;
    int32_t first_index, index_count;
    int32_t first_color;         /* per-vertex colours (particles): 4 floats per vertex, -1 none */
    double color[4];
    int has_dark;
    double dark[4];
    int32_t clip;                /* index among the masks used in this list, -1 none */
    int32_t text_offset, text_length; /* formatted text record (§8.9) in text, -1 none */
} ob_draw_item;

/* A clipping mask used by at least one item of the list (§8.4). */
typedef struct ob_draw_mask {
    int32_t slot, attachment;
    int32_t first_vertex, vertex_count; /* world polygon in mask_vertices */
    int32_t first_index, index_count;   /* earcut of the local vertices, in mask_indices */
} ob_draw_mask;

typedef struct ob_draw_state {
    int32_t item_count, vertex_count, index_count, color_count, mask_count;
    ob_draw_item *items;         /* capacity: one per slot */
    float *vertices, *uvs;       /* 2 per vertex */
    uint32_t *indices;
    float *colors;               /* 4 per vertex (particles) */
    ob_draw_mask *masks;
    float *mask_vertices;
    uint32_t *mask_indices;
    char *text;                  /* formatted texts, each NUL-terminated */
    size_t text_length, text_capacity;
    uint64_t growths;            /* buffer growths after creation (must stay 0 but for text) */
    int32_t vertex_capacity, index_capacity, color_capacity, mask_vertex_capacity, mask_index_capacity;

    char **text_override;        /* per slot: §8.9 setText template, NULL none */

    /* per attachment caches, built at creation (local outlines never change) */
    int32_t *outline_start;      /* shapes: first pair in outline, -1 */
    int32_t *outline_count;
    double *outline;             /* §8.5 local outlines */
    double *local_quad;          /* §8.2 per attachment: TL TR BR BL in slot-bone space */
    /* regions and meshes: what §8.2/§8.3/§8.7 derive from the document alone,
    ** so a frame only transforms and copies */
    int32_t *uv_start;           /* per attachment: first pair in uv_pool, -1 */
    int32_t *uv_count;           /* pairs (= the item's vertex count) */
    float *uv_pool;              /* §8.7 mapped uvs, float32 as drawn */
    int32_t *pt_start;           /* regions: first pair in pt_pool (trimmed / packed polygon), -1 plain */
    double *pt_pool;             /* quad fractions fed to §8.6 quadPoints */
    /* ob_world_vertices_build: world vertices of every region and mesh */
    int32_t wv_count, wv_vertex_count;
    int32_t *wv_slot, *wv_attachment, *wv_first, *wv_vertices;  /* per entry (≤ one per slot) */
    float *wv;                   /* 2 per vertex */
    /* verts (issue 17): built with the outputs (the first build) */
    ob_wv_use wv_plan;           /* the document's weighted-mesh plan (attachment_vertices.h), the kernel width */
    struct ob_slot_cache {       /* per slot: §8.1 getAttachment(skin, name) and its deform entries */
        int32_t name, skin, attachment, def_linked, def_own;
        /* draw (issue 17): the slot's bone, and what the attachment is to
        ** ob_world_vertices_build: kind (-1 not an entry, else as the records),
        ** vertex count, record operand (quad_dup offset for a plain region, else the attachment) */
        int32_t bone, kind, count, aux;
    } *slot_cache;
    int32_t *tri_start;          /* shapes and unweighted clipping: earcut indices */
    int32_t *tri_count;
    uint32_t *tris;
    int particles_sized;         /* particle capacity added (first build) */
    int outputs_sized;           /* output buffers allocated (the first build) */
    int32_t *seq_input;          /* per attachment: sequence input (machine << 16 | input), -1 */
    int32_t wv_capacity;         /* vertices wv holds */
    int wv_sized;                /* world-vertex buffers allocated (the first build of either kind) */
    /* draw (issue 17): ob_world_vertices_build's entries depend only on the
    ** skin, the draw order, the slots' attachment names and the active bones;
    ** they are decided again only when one of these differs from the copy
    ** kept in wv_key, and a frame otherwise runs the records: plain regions
    ** (a slot bone's world matrix, byte offset; the corners in quad_dup; the
    ** output pair), other regions, and meshes, each kind in draw order */
    int wv_planned;              /* wv_key and the records describe the entries */
    int32_t wv_key_skin;
    int32_t *wv_key;             /* draw order (slot count), attachment names (slot count), active flags (bytes) */
    int32_t *wv_slot_entry;      /* per slot: its entry (-1 none), its record; when only names changed, a slot whose
                                 ** new attachment is an entry of the same kind and count is patched */
    struct ob_wv_rec *wv_rec;    /* (attachment_vertices.h) quads {bone offset, quad_dup pair, out},
                                 ** polygons {slot, ai, out} from wv_poly_base, meshes {slot, ai, out,
                                 ** linked, own} from wv_mesh_base */
    int32_t wv_quad_count, wv_poly_count, wv_mesh_count;
    int32_t wv_poly_base, wv_mesh_base; /* the kinds' first records (capacities: slots that can show each kind) */
    /* shared: per attachment its corners in quad_dup (-1 none), which holds each
    ** local corner as (x, x, y, y), so the corner transform reads its
    ** operands as they are multiplied (plain regions only) */
    int32_t *quad_dup_start;
    double *quad_dup;            /* 16 doubles a region, 64-byte aligned */
} ob_draw_state;

/* Builds the draw list of the current pose into inst->draw; returns the item
** count, or -1 when memory ran out (formatted text only). */
int32_t ob_draw_build(ob_instance *inst);

/* World vertices only (the issue 9 benchmark's "world vertices of every
** region and mesh", what a renderer with its own uvs and indices needs): for
** every slot in draw order whose bone is active and whose attachment is a
** region or a mesh, its vertices exactly as ob_draw_build writes them, alpha
** not considered; no uvs, colours, indices or clipping.  Returns the entry
** count; nothing is allocated. */
int32_t ob_world_vertices_build(ob_instance *inst);

/* §8.9 setText: replaces the template of a slot (NULL restores the
** attachment's).  Returns -1 when memory runs out. */
int ob_draw_set_text(ob_instance *inst, int32_t slot, const char *text);

/* §8.1 the slot's current attachment (ob_skeleton_get_attachment); -1 when none. */
int32_t ob_draw_slot_attachment(ob_instance *inst, int32_t slot);

/* ---- shapes.c (§8.5) ---------------------------------------------- */
/* Number of outline points of a shape attachment. */
int32_t ob_shape_outline_count(const ob_attachment *att);
/* Writes the outline (rotated, translated: slot-bone space) as pairs. */
int32_t ob_shape_outline(const ob_attachment *att, double *out);

/* ---- sequence.c (§8.6) -------------------------------------------- */
/* The frame counter f = floor(counter) of a sequence in slot. */
double ob_sequence_counter(const ob_instance *inst, int32_t slot, const ob_attachment *att);
/* The frame index for counter f, or -1 when hidden (once, past the end). */
int32_t ob_sequence_index(ob_seq_mode mode, double f, int32_t n);
/* The frame layout of frame fr: uvs (image space, [u0,v0,u1,v1]) and quad
** fractions (q).  Packed and trimmed frames are intersected with the packed
** part; returns 0 when nothing remains (no item). */
int ob_sequence_layout(const ob_document *doc, const ob_seq_frame *fr, double uv[4], double q[4]);
/* The number value of a sequence's input (§8.6 "input set"): returns 1 and
** *v when the input exists (the running machine's value, else its default). */
int ob_sequence_input_value(const ob_instance *inst, const ob_attachment *att, double *v);

/* ---- text.c (§8.9) ------------------------------------------------ */
/* lookup(name): the running state machine's input by id or name (triggers
** read false); without one, the default of the first non-trigger input with
** that name across state machines.  The state-machine issue extends this. */
ob_tvalue ob_text_lookup(const ob_instance *inst, const char *name);
/* The template a text slot shows: the override, else att->text. */
const char *ob_text_template(const ob_instance *inst, int32_t slot, const ob_attachment *att);

/* ---- helpers shared by the draw files ------------------------------ */
/* §8.2 the quad TL, TR, BR, BL (8 doubles) of a region, sequence or text
** attachment in slot-bone space (skewed, rotated, translated). */
void ob_quad_local(const ob_attachment *att, double quad[8]);
/* §8.2 the world quad TL, TR, BR, BL (8 doubles) of a region, sequence or
** text attachment on the slot bone's world matrix m. */
void ob_quad_world(const ob_attachment *att, ob_mat m, double quad[8]);
/* §8.6 trimQuad / §8.7 quadPoints: TL + U·u + V·v for n (u, v) pairs (floats out). */
void ob_quad_points(const double quad[8], const double *uv, int32_t n, float *out);

#endif
