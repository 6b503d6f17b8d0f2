/* document.c: §2 loading: JSON or binary in, plain structs out.
**
** ob_document_load parses the bytes once (cJSON, or binary.c for .obonb),
** checks the header (§2 step 1), resolves JavaScript's duplicate-key rule,
** keeps a compact JSON copy for dumps, then walks the tree with the loaders
** (this file: images, atlas, skeleton, skins, attachments, constraints;
** load_animation.c and load_state_machine.c: the rest).  No cJSON tree is
** kept afterwards.
*/
#include <math.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "binary.h"
#include "curve_spine.h"
#include "jsnum.h"
#include "load.h"
#include "obmath.h"

static const double WHITE[4] = {1, 1, 1, 1};

/* ---- images and atlas (file format § Images and the texture atlas) ---- */

static void load_images(ob_loader *L, const cJSON *root)
{
    ob_document *doc = L->doc;
    const cJSON *arr = ob_arr(L, root, "images");
    size_t m0 = ob_path_key(L, "images");
    doc->image_count = arr ? ob_json_count(arr) : 0;
    doc->images = ob_alloc(L, (size_t)doc->image_count, sizeof *doc->images);
    int32_t i = 0;
    for (const cJSON *o = arr ? arr->child : NULL; o; o = o->next, i++) {
        size_t m = ob_path_index(L, i);
        ob_expect_object(L, o);
        ob_image_data *im = &doc->images[i];
        im->id = ob_ref(L, o, "id");
        im->name = ob_str(L, o, "name", "");
        im->src = ob_str(L, o, "src", "");
        im->width = ob_num(L, o, "width", 0);
        im->height = ob_num(L, o, "height", 0);
        ob_path_pop(L, m);
    }
    ob_path_pop(L, m0);
}

static void load_atlas(ob_loader *L, const cJSON *root)
{
    ob_document *doc = L->doc;
    doc->image_region = ob_alloc(L, (size_t)doc->image_count, sizeof(int32_t));
    for (int32_t i = 0; i < doc->image_count; i++) doc->image_region[i] = -1;
    doc->white_page = -1;
    doc->atlas_scale = 1;
    const cJSON *atlas = ob_obj(L, root, "atlas");
    if (!atlas) return;
    size_t m0 = ob_path_key(L, "atlas");
    doc->has_atlas = 1;
    doc->premultiplied_alpha = ob_bool(L, atlas, "premultipliedAlpha", 0);
    doc->atlas_scale = ob_num(L, atlas, "scale", 1);

    const cJSON *pages = ob_arr(L, atlas, "pages");
    doc->page_count = pages ? ob_json_count(pages) : 0;
    doc->pages = ob_alloc(L, (size_t)doc->page_count, sizeof *doc->pages);
    size_t m1 = ob_path_key(L, "pages");
    int32_t i = 0;
    for (const cJSON *o = pages ? pages->child : NULL; o; o = o->next, i++) {
        size_t m = ob_path_index(L, i);
        ob_expect_object(L, o);
        ob_page_data *p = &doc->pages[i];
        p->id = ob_ref(L, o, "id");
        p->name = ob_str(L, o, "name", "");
        p->src = ob_str(L, o, "src", "");
        p->width = ob_num(L, o, "width", 0);
        p->height = ob_num(L, o, "height", 0);
        ob_path_pop(L, m);
    }
    ob_path_pop(L, m1);

    const cJSON *regions = ob_arr(L, atlas, "regions");
    int32_t n = regions ? ob_json_count(regions) : 0;
    doc->regions = ob_alloc(L, (size_t)n, sizeof *doc->regions);
    m1 = ob_path_key(L, "regions");
    i = 0;
    for (const cJSON *o = regions ? regions->child : NULL; o; o = o->next, i++) {
        size_t m = ob_path_index(L, i);
        ob_expect_object(L, o);
        const char *image = ob_ref(L, o, "image"), *page = ob_ref(L, o, "page");
        ob_region_data r = {0};
        r.image = OB_LOOKUP_ID(L, doc->images, doc->image_count, image);
        r.page = OB_LOOKUP_ID(L, doc->pages, doc->page_count, page);
        r.x = ob_num(L, o, "x", 0);
        r.y = ob_num(L, o, "y", 0);
        r.width = ob_num(L, o, "width", 0);
        r.height = ob_num(L, o, "height", 0);
        r.offset_x = ob_num(L, o, "offsetX", 0);
        r.offset_y = ob_num(L, o, "offsetY", 0);
        r.original_width = ob_num(L, o, "originalWidth", r.width);
        r.original_height = ob_num(L, o, "originalHeight", r.height);
        r.rotation = ob_bool(L, o, "rotated", 0) ? 90 : 0;
        if (cJSON_GetObjectItemCaseSensitive(o, "rotation")) {
            /* extension (conformance/NOTES.md, Spine import): 0, 90, 180 or 270 clockwise; wins over rotated */
            double deg = ob_num(L, o, "rotation", 0);
            if (deg == 0 || deg == 90 || deg == 180 || deg == 270)
                r.rotation = (int)deg;
            else
                ob_warn(L, "rotation", "region rotation %g is not 0, 90, 180 or 270: rotated used", deg);
        }
        r.empty = ob_bool(L, o, "empty", 0);
        int32_t pc;
        r.polygon = ob_num_list(L, o, "polygon", &pc);
        r.polygon_count = pc / 2;
        if (r.image < 0 || r.page < 0) {  /* §2: regions with a missing page or image are ignored */
            ob_warn(L, NULL, "region ignored: %s \"%s\" does not exist",
                    r.image < 0 ? "image" : "page", r.image < 0 ? (image ? image : "") : (page ? page : ""));
        } else {
            doc->regions[doc->region_count] = r;
            if (doc->image_region[r.image] < 0) doc->image_region[r.image] = doc->region_count;
            doc->region_count++;
        }
        ob_path_pop(L, m);
    }
    ob_path_pop(L, m1);

    const cJSON *white = ob_obj(L, atlas, "white");
    if (white) {
        m1 = ob_path_key(L, "white");
        doc->white_page = OB_LOOKUP_ID(L, doc->pages, doc->page_count, ob_ref(L, white, "page"));
        doc->has_white = doc->white_page >= 0;
        doc->white[0] = ob_num(L, white, "x", 0);
        doc->white[1] = ob_num(L, white, "y", 0);
        doc->white[2] = ob_num(L, white, "width", 0);
        doc->white[3] = ob_num(L, white, "height", 0);
        ob_path_pop(L, m1);
    }
    ob_path_pop(L, m0);
}

/* ---- bones and slots (§2 Skeleton construction) ---------------------- */

static void load_bones(ob_loader *L, const cJSON *sk)
{
    ob_document *doc = L->doc;
    const cJSON *arr = ob_arr(L, sk, "bones");
    size_t m0 = ob_path_key(L, "bones");
    doc->bone_count = arr ? ob_json_count(arr) : 0;
    doc->bones = ob_alloc(L, (size_t)doc->bone_count, sizeof *doc->bones);
    /* every bone's id up front (as ob_ref reads it; NULL when absent or not an
    ** id), hashed: a parent is then found in O(1), and so is whether it is
    ** listed later (issue 21: no quadratic look-up) */
    const char **ids = ob_alloc(L, (size_t)doc->bone_count, sizeof *ids);
    int32_t *last = ob_alloc(L, (size_t)doc->bone_count, sizeof *last);
    int32_t i = 0;
    for (const cJSON *o = arr ? arr->child : NULL; o; o = o->next, i++) {
        const cJSON *v = ob_get(o, "id");
        if (cJSON_IsString(v)) {
            ids[i] = v->valuestring;
        } else if (cJSON_IsNumber(v)) {
            char num[OB_JSNUM_CAP];
            ob_js_to_string(v->valuedouble, num, sizeof num);
            ids[i] = ob_strdup(L, num);
        }
    }
    for (i = 0; i < doc->bone_count; i++) {
        int32_t f = ob_lookup(L, ids, doc->bone_count, sizeof *ids, 0, ids[i]);
        if (f >= 0) last[f] = i;
    }
    i = 0;
    for (const cJSON *o = arr ? arr->child : NULL; o; o = o->next, i++) {
        size_t m = ob_path_index(L, i);
        ob_expect_object(L, o);
        ob_bone_data *b = &doc->bones[i];
        b->id = ob_ref(L, o, "id");
        b->name = ob_str(L, o, "name", b->id ? b->id : "");
        /* §2: the parent is looked up among the bones already created */
        const char *parent = ob_ref(L, o, "parent");
        int32_t f = ob_lookup(L, ids, doc->bone_count, sizeof *ids, 0, parent);
        b->parent = f >= 0 && f < i ? f : -1;
        if (parent && b->parent < 0) {
            int later = f >= 0 && last[f] > i;
            ob_warn(L, "parent", "parent \"%s\" %s: this bone is a root", parent,
                    later ? "is listed after this bone" : "does not exist");
        }
        b->length = ob_num(L, o, "length", 0);
        b->x = ob_num(L, o, "x", 0);
        b->y = ob_num(L, o, "y", 0);
        b->rotation = ob_num(L, o, "rotation", 0);
        b->scale_x = ob_num(L, o, "scaleX", 1);
        b->scale_y = ob_num(L, o, "scaleY", 1);
        b->shear_x = ob_num(L, o, "shearX", 0);
        b->shear_y = ob_num(L, o, "shearY", 0);
        const char *inherit = ob_str(L, o, "inherit", "normal");
        int mode = ob_parse_inherit(inherit);
        if (mode < 0)
            ob_fail(L, "inherit", "expected \"normal\", \"onlyTranslation\", \"noRotation\" or \"noScale\", got \"%.40s\"", inherit);
        if (mode >= OB_INHERIT_NO_ROTATION_OR_REFLECTION)
            ob_warn(L, "inherit", "\"%s\" is a Spine inherit mode (an extension of this runtime)", inherit);
        b->inherit = (ob_inherit)mode;
        ob_path_pop(L, m);
    }
    ob_path_pop(L, m0);
}

static int parse_blend(ob_loader *L, const cJSON *o, const char *key)
{
    const char *s = ob_str(L, o, key, "normal");
    static const char *names[] = {"normal", "additive", "multiply", "screen"};
    for (int i = 0; i < 4; i++)
        if (strcmp(s, names[i]) == 0) return i;
    ob_fail(L, key, "expected \"normal\", \"additive\", \"multiply\" or \"screen\", got \"%.40s\"", s);
}

static void load_slots(ob_loader *L, const cJSON *sk)
{
    ob_document *doc = L->doc;
    const cJSON *arr = ob_arr(L, sk, "slots");
    size_t m0 = ob_path_key(L, "slots");
    int32_t n = arr ? ob_json_count(arr) : 0;
    doc->slots = ob_alloc(L, (size_t)n, sizeof *doc->slots);
    int32_t i = 0;
    for (const cJSON *o = arr ? arr->child : NULL; o; o = o->next, i++) {
        size_t m = ob_path_index(L, i);
        ob_expect_object(L, o);
        ob_slot_data s = {0};
        s.id = ob_ref(L, o, "id");
        s.name = ob_str(L, o, "name", s.id ? s.id : "");
        const char *bone = ob_ref(L, o, "bone");
        s.bone = OB_LOOKUP_ID(L, doc->bones, doc->bone_count, bone);
        ob_color(L, o, "color", WHITE, s.color);
        s.has_dark = ob_color(L, o, "dark", NULL, s.dark);
        const char *att = ob_str(L, o, "attachment", NULL);
        s.attachment = att ? ob_intern_name(L, att) : -1;
        s.blend = (ob_blend)parse_blend(L, o, "blend");
        s.source_index = i;
        if (s.bone < 0) /* §2: slots whose bone is missing are dropped */
            ob_warn(L, "bone", "slot \"%s\" dropped: bone \"%s\" does not exist", s.name, bone ? bone : "");
        else
            doc->slots[doc->slot_count++] = s;
        ob_path_pop(L, m);
    }
    ob_path_pop(L, m0);
}

/* ---- constraints (§7, file format § Constraints) ------------------- */

static int32_t *bone_list(ob_loader *L, const cJSON *o, const char *key, int32_t *count)
{
    ob_document *doc = L->doc;
    const cJSON *arr = ob_arr(L, o, key);
    *count = arr ? ob_json_count(arr) : 0;
    int32_t *out = ob_alloc(L, (size_t)*count, sizeof *out);
    int32_t i = 0;
    for (const cJSON *c = arr ? arr->child : NULL; c; c = c->next, i++) {
        if (!cJSON_IsString(c)) {
            size_t m = ob_path_key(L, key);
            ob_path_index(L, i);
            ob_fail_type(L, NULL, "a bone id", c);
            (void)m;
        }
        out[i] = OB_LOOKUP_ID(L, doc->bones, doc->bone_count, c->valuestring);
        if (out[i] < 0) ob_warn(L, key, "unknown bone \"%s\"", c->valuestring);
    }
    return out;
}

static int parse_enum(ob_loader *L, const cJSON *o, const char *key, const char *def,
                      const char *const *names, int n)
{
    const char *s = ob_str(L, o, key, def);
    for (int i = 0; i < n; i++)
        if (strcmp(s, names[i]) == 0) return i;
    char list[256] = "";
    for (int i = 0; i < n; i++) {
        strncat(list, i ? ", \"" : "\"", sizeof list - strlen(list) - 1);
        strncat(list, names[i], sizeof list - strlen(list) - 1);
        strncat(list, "\"", sizeof list - strlen(list) - 1);
    }
    ob_fail(L, key, "expected one of %s, got \"%.40s\"", list, s);
}

static void load_constraint(ob_loader *L, const cJSON *o, ob_constraint_kind kind, ob_constraint_data *c)
{
    ob_document *doc = L->doc;
    c->kind = kind;
    c->id = ob_ref(L, o, "id");
    c->name = ob_str(L, o, "name", c->id ? c->id : "");
    const cJSON *order = ob_get(o, "order");
    if (order) {
        if (!cJSON_IsNumber(order)) ob_fail_type(L, "order", "a number", order);
        c->has_order = 1;
        c->order = order->valuedouble;
    }
    c->target = c->bone = -1;
    double *v = c->setup;  /* §3.1 setupValues: every keyable property, absent ⇒ 0 */
    switch (kind) {
    case OB_CON_IK: {
        c->bones = bone_list(L, o, "bones", &c->bone_count);
        const char *t = ob_ref(L, o, "target");
        c->target = OB_LOOKUP_ID(L, doc->bones, doc->bone_count, t);
        if (t && c->target < 0) ob_warn(L, "target", "unknown bone \"%s\"", t);
        v[OB_CV_MIX] = ob_num(L, o, "mix", 0);
        v[OB_CV_SOFTNESS] = ob_num(L, o, "softness", 0);            /* §2 default 0 */
        v[OB_CV_BEND] = ob_bool(L, o, "bendPositive", 0) ? 1 : -1;  /* §3.1 */
        v[OB_CV_STRETCH] = ob_bool(L, o, "stretch", 0);
        v[OB_CV_COMPRESS] = ob_bool(L, o, "compress", 0);
        c->uniform = ob_bool(L, o, "uniform", 0);
        break;
    }
    case OB_CON_TRANSFORM: {
        c->bones = bone_list(L, o, "bones", &c->bone_count);
        const char *t = ob_ref(L, o, "target");
        c->target = OB_LOOKUP_ID(L, doc->bones, doc->bone_count, t);
        if (t && c->target < 0) ob_warn(L, "target", "unknown bone \"%s\"", t);
        v[OB_CV_MIX] = 1;  /* §3.1: transform constraints also get mix = 1 */
        v[OB_CV_MIX_ROTATE] = ob_num(L, o, "mixRotate", 0);
        v[OB_CV_MIX_TRANSLATE] = ob_num(L, o, "mixTranslate", 0);
        v[OB_CV_MIX_SCALE] = ob_num(L, o, "mixScale", 0);
        v[OB_CV_MIX_SHEAR] = ob_num(L, o, "mixShear", 0);
        c->offset_rotation = ob_num(L, o, "offsetRotation", 0);
        c->offset_x = ob_num(L, o, "offsetX", 0);
        c->offset_y = ob_num(L, o, "offsetY", 0);
        c->offset_scale_x = ob_num(L, o, "offsetScaleX", 0);
        c->offset_scale_y = ob_num(L, o, "offsetScaleY", 0);
        c->offset_shear = ob_num(L, o, "offsetShear", 0);
        c->local = ob_bool(L, o, "local", 0);
        c->relative = ob_bool(L, o, "relative", 0);
        if (doc->pose_model == OB_POSE_MODEL_SPINE) {
            /* spine-core 4.2 TransformConstraintData: mixY, mixScaleY (absent ⇒ the X value) */
            v[OB_CV_MIX_Y] = ob_num(L, o, "mixY", v[OB_CV_MIX_TRANSLATE]);
            v[OB_CV_MIX_SCALE_Y] = ob_num(L, o, "mixScaleY", v[OB_CV_MIX_SCALE]);
        }
        break;
    }
    case OB_CON_PATH: {
        static const char *pos[] = {"fixed", "percent"};
        static const char *spc[] = {"length", "fixed", "percent", "proportional"};
        static const char *rot[] = {"tangent", "chain", "chainScale"};
        c->bones = bone_list(L, o, "bones", &c->bone_count);
        const char *t = ob_ref(L, o, "target");
        c->target = OB_LOOKUP_ID(L, doc->slots, doc->slot_count, t);
        if (t && c->target < 0) ob_warn(L, "target", "unknown slot \"%s\"", t);
        c->position_mode = (ob_position_mode)parse_enum(L, o, "positionMode", "percent", pos, 2);
        c->spacing_mode = (ob_spacing_mode)parse_enum(L, o, "spacingMode", "length", spc, 4);
        c->rotate_mode = (ob_rotate_mode)parse_enum(L, o, "rotateMode", "tangent", rot, 3);
        c->offset_rotation = ob_num(L, o, "offsetRotation", 0);
        v[OB_CV_POSITION] = ob_num(L, o, "position", 0);
        v[OB_CV_SPACING] = ob_num(L, o, "spacing", 0);
        v[OB_CV_MIX_ROTATE] = ob_num(L, o, "mixRotate", 0);
        v[OB_CV_MIX_X] = ob_num(L, o, "mixX", 0);
        v[OB_CV_MIX_Y] = ob_num(L, o, "mixY", 0);
        break;
    }
    case OB_CON_PHYSICS: {
        const char *b = ob_ref(L, o, "bone");
        c->bone = OB_LOOKUP_ID(L, doc->bones, doc->bone_count, b);
        if (c->bone < 0) ob_warn(L, "bone", "unknown bone \"%s\"", b ? b : "");
        c->px = ob_num(L, o, "x", 0);
        c->py = ob_num(L, o, "y", 0);
        c->protate = ob_num(L, o, "rotate", 0);
        c->pscale_x = ob_num(L, o, "scaleX", 0);
        c->fps = ob_num(L, o, "fps", 60);
        /* spine-core 4.2 PhysicsConstraintData under the Spine pose model: its
        ** fields and defaults (damping a per-1/60 s factor, mass the inverse of
        ** massInverse, wind/gravity in Spine units); else §7.4, absent ⇒ 0 */
        int sp = doc->pose_model == OB_POSE_MODEL_SPINE;
        v[OB_CV_MIX] = ob_num(L, o, "mix", sp);
        v[OB_CV_INERTIA] = ob_num(L, o, "inertia", sp);
        v[OB_CV_STRENGTH] = ob_num(L, o, "strength", sp ? 100 : 0);
        v[OB_CV_DAMPING] = ob_num(L, o, "damping", sp);
        v[OB_CV_MASS] = ob_num(L, o, "mass", sp);
        v[OB_CV_GRAVITY] = ob_num(L, o, "gravity", 0);
        v[OB_CV_WIND] = ob_num(L, o, "wind", 0);
        if (sp) {
            static const char *const flags[] = {"inertiaGlobal", "strengthGlobal", "dampingGlobal",
                                                "massGlobal", "gravityGlobal", "windGlobal"};
            c->pshear_x = ob_num(L, o, "shearX", 0);
            c->plimit = ob_num(L, o, "limit", 5000);
            for (int k = 0; k < 6; k++)
                if (ob_bool(L, o, flags[k], 0)) c->pglobal |= (uint8_t)(1u << k);
            if (ob_bool(L, o, "mixGlobal", 0)) c->pglobal |= 1u << 7;
        }
        break;
    }
    }
}

static void load_constraints(ob_loader *L, const cJSON *sk)
{
    static const char *keys[] = {"ik", "transform", "path", "physics"};
    ob_document *doc = L->doc;
    const cJSON *arrs[4];
    int32_t total = 0;
    for (int k = 0; k < 4; k++) {
        arrs[k] = ob_arr(L, sk, keys[k]);
        total += arrs[k] ? ob_json_count(arrs[k]) : 0;
    }
    doc->constraints = ob_alloc(L, (size_t)total, sizeof *doc->constraints);
    for (int k = 0; k < 4; k++) {
        size_t m0 = ob_path_key(L, keys[k]);
        int32_t i = 0;
        for (const cJSON *o = arrs[k] ? arrs[k]->child : NULL; o; o = o->next, i++) {
            size_t m = ob_path_index(L, i);
            ob_expect_object(L, o);
            load_constraint(L, o, (ob_constraint_kind)k, &doc->constraints[doc->constraint_count++]);
            ob_path_pop(L, m);
        }
        int32_t *count = k == 0 ? &doc->ik_count : k == 1 ? &doc->transform_count
                       : k == 2 ? &doc->path_count : &doc->physics_count;
        *count = i;
        ob_path_pop(L, m0);
    }
}

/* ---- attachments (file format § Attachments, CLARIFICATIONS) ------- */

/* Polygon vertices: `vertices` flat, or per-vertex `weights` when non-empty. */
static void load_vertices(ob_loader *L, const cJSON *o, ob_attachment *a)
{
    ob_document *doc = L->doc;
    int32_t n;
    a->vertices = ob_num_list(L, o, "vertices", &n);
    a->vertex_count = n / 2;
    const cJSON *w = ob_arr(L, o, "weights");
    if (!w || ob_json_count(w) == 0) return;
    size_t m0 = ob_path_key(L, "weights");
    int32_t nv = ob_json_count(w), total = 0;
    for (const cJSON *v = w->child; v; v = v->next) total += cJSON_IsArray(v) ? ob_json_count(v) : 0;
    a->weight_start = ob_alloc(L, (size_t)nv + 1, sizeof(int32_t));
    a->weights = ob_alloc(L, (size_t)total, sizeof(ob_weight));
    int32_t i = 0, k = 0;
    for (const cJSON *v = w->child; v; v = v->next, i++) {
        size_t m = ob_path_index(L, i);
        if (!cJSON_IsArray(v)) ob_fail_type(L, NULL, "a list of influences", v);
        a->weight_start[i] = k;
        int32_t j = 0;
        for (const cJSON *inf = v->child; inf; inf = inf->next, j++) {
            size_t mj = ob_path_index(L, j);
            ob_expect_object(L, inf);
            ob_weight *wt = &a->weights[k++];
            char num[OB_JSNUM_CAP];
            const char *bone = ob_ref_peek(L, inf, "bone", num);
            wt->bone = OB_LOOKUP_ID(L, doc->bones, doc->bone_count, bone);
            if (wt->bone < 0) ob_warn(L, "bone", "unknown bone \"%s\": the slot bone is used", bone ? bone : "");
            wt->x = ob_num(L, inf, "x", 0);
            wt->y = ob_num(L, inf, "y", 0);
            wt->weight = ob_num(L, inf, "weight", 0);
            ob_path_pop(L, mj);
        }
        ob_path_pop(L, m);
    }
    a->weight_start[nv] = k;
    a->vertex_count = nv;
    ob_path_pop(L, m0);
}

static void load_placement(ob_loader *L, const cJSON *o, ob_attachment *a)
{
    a->x = ob_num(L, o, "x", 0);
    a->y = ob_num(L, o, "y", 0);
    a->rotation = ob_num(L, o, "rotation", 0);
    a->scale_x = ob_num(L, o, "scaleX", 1);
    a->scale_y = ob_num(L, o, "scaleY", 1);
    a->width = ob_num(L, o, "width", 0);
    a->height = ob_num(L, o, "height", 0);
    a->skew_x = ob_num(L, o, "skewX", 0);
    a->skew_y = ob_num(L, o, "skewY", 0);
}

static int32_t image_ref(ob_loader *L, const cJSON *o, const char *key, const char **ref)
{
    const char *id = ob_ref(L, o, key);
    if (ref) *ref = id;
    return OB_LOOKUP_ID(L, L->doc->images, L->doc->image_count, id);
}

static const char *const ATT_TYPES[] = {"region", "mesh", "shape", "boundingBox", "point", "text",
                                        "sequence", "particles", "clipping", "path"};

static void load_sequence(ob_loader *L, const cJSON *o, ob_attachment *a)
{
    static const char *modes[] = {"loop", "once", "pingPong", "holdLast"};
    const cJSON *frames = ob_arr(L, o, "frames");
    a->frame_count = frames ? ob_json_count(frames) : 0;
    a->frames = ob_alloc(L, (size_t)a->frame_count, sizeof *a->frames);
    size_t m0 = ob_path_key(L, "frames");
    int32_t i = 0;
    for (const cJSON *f = frames ? frames->child : NULL; f; f = f->next, i++) {
        size_t m = ob_path_index(L, i);
        ob_expect_object(L, f);
        ob_seq_frame *fr = &a->frames[i];
        fr->image = image_ref(L, f, "image", NULL);
        const cJSON *rect = ob_obj(L, f, "rect"), *trim = ob_obj(L, f, "trim");
        if (rect) {
            size_t mr = ob_path_key(L, "rect");
            fr->has_rect = 1;
            fr->rect[0] = ob_num(L, rect, "x", 0);
            fr->rect[1] = ob_num(L, rect, "y", 0);
            fr->rect[2] = ob_num(L, rect, "width", 0);
            fr->rect[3] = ob_num(L, rect, "height", 0);
            ob_path_pop(L, mr);
        }
        if (trim) {
            size_t mt = ob_path_key(L, "trim");
            fr->has_trim = 1;
            fr->trim[0] = ob_num(L, trim, "x", 0);
            fr->trim[1] = ob_num(L, trim, "y", 0);
            fr->trim[2] = ob_num(L, trim, "sourceWidth", 0);
            fr->trim[3] = ob_num(L, trim, "sourceHeight", 0);
            ob_path_pop(L, mt);
        }
        ob_path_pop(L, m);
    }
    ob_path_pop(L, m0);
    a->fps = ob_num(L, o, "fps", 0);
    a->mode = (ob_seq_mode)parse_enum(L, o, "mode", "loop", modes, 4);
    a->offset = ob_num(L, o, "offset", 0);
    a->input_ref = ob_ref(L, o, "input");
    a->input = -1;
}

/* §2: every missing particle field takes CLARIFICATIONS' default. */
static void load_particles(ob_loader *L, const cJSON *o, ob_attachment *a)
{
    static const char *shapes[] = {"point", "circle", "box", "cone"};
    static const char *looks[] = {"circle", "square", "spark", "image"};
    static const char *spaces[] = {"world", "local"};
    ob_particle_settings *p = ob_alloc(L, 1, sizeof *p);
    a->particles = p;
    p->emitting = ob_bool(L, o, "emitting", 1);
    p->rate = ob_num(L, o, "rate", 20);
    p->max_particles = ob_num(L, o, "maxParticles", 200);
    p->duration = ob_num(L, o, "duration", 1);
    p->loop = ob_bool(L, o, "loop", 1);
    p->prewarm = ob_bool(L, o, "prewarm", 0);
    p->shape = (ob_emit_shape)parse_enum(L, o, "shape", "point", shapes, 4);
    p->x = ob_num(L, o, "x", 0);
    p->y = ob_num(L, o, "y", 0);
    p->rotation = ob_num(L, o, "rotation", 90);
    p->angle = ob_num(L, o, "angle", 30);
    p->radius = ob_num(L, o, "radius", 10);
    p->width = ob_num(L, o, "width", 20);
    p->height = ob_num(L, o, "height", 20);
    p->local_space = parse_enum(L, o, "space", "world", spaces, 2);
    p->lifetime = ob_range_get(L, o, "lifetime", (ob_range){1, 1});
    p->speed = ob_range_get(L, o, "speed", (ob_range){100, 100});
    p->gravity = ob_num(L, o, "gravity", 0);
    p->drag = ob_num(L, o, "drag", 0);
    p->start_size = ob_range_get(L, o, "startSize", (ob_range){16, 16});
    p->end_size = ob_range_get(L, o, "endSize", (ob_range){0, 0});
    p->start_rotation = ob_range_get(L, o, "startRotation", (ob_range){0, 0});
    p->end_rotation = ob_range_get(L, o, "endRotation", (ob_range){0, 0});
    p->angular_velocity = ob_range_get(L, o, "angularVelocity", (ob_range){0, 0});
    p->blend = (ob_blend)parse_blend(L, o, "blend");
    p->look = (ob_particle_look)parse_enum(L, o, "look", "circle", looks, 4);
    p->stretch = ob_num(L, o, "stretch", 0.05);
    double seed = ob_num(L, o, "seed", 1);
    /* §8.8: the seed enters `seed XOR hash` as a JS 32-bit integer (ToInt32) */
    double m = fmod(trunc(isfinite(seed) ? seed : 0), 4294967296.0);
    if (m < 0) m += 4294967296.0;
    p->seed = (uint32_t)m;
    p->image = image_ref(L, o, "image", NULL);

    const cJSON *bursts = ob_arr(L, o, "bursts");
    p->burst_count = bursts ? ob_json_count(bursts) : 0;
    p->bursts = ob_alloc(L, (size_t)p->burst_count, sizeof *p->bursts);
    size_t m0 = ob_path_key(L, "bursts");
    int32_t i = 0;
    for (const cJSON *b = bursts ? bursts->child : NULL; b; b = b->next, i++) {
        size_t mi = ob_path_index(L, i);
        ob_expect_object(L, b);
        p->bursts[i].time = ob_num(L, b, "time", 0);
        p->bursts[i].count = ob_num(L, b, "count", 0);
        ob_path_pop(L, mi);
    }
    ob_path_pop(L, m0);

    const cJSON *colors = ob_arr(L, o, "colors");
    if (!colors) {
        p->stop_count = 2;
        p->stops = ob_alloc(L, 2, sizeof *p->stops);
        p->stops[0] = (ob_grad_stop){0, {1, 1, 1, 1}};
        p->stops[1] = (ob_grad_stop){1, {1, 1, 1, 0}};
    } else {
        p->stop_count = ob_json_count(colors);
        p->stops = ob_alloc(L, (size_t)p->stop_count, sizeof *p->stops);
        m0 = ob_path_key(L, "colors");
        i = 0;
        for (const cJSON *c = colors->child; c; c = c->next, i++) {
            size_t mi = ob_path_index(L, i);
            ob_expect_object(L, c);
            p->stops[i].t = ob_num(L, c, "t", 0);
            ob_color(L, c, "color", WHITE, p->stops[i].color);
            ob_path_pop(L, mi);
        }
        ob_path_pop(L, m0);
    }
}

static void load_attachment(ob_loader *L, const cJSON *o, ob_attachment *a)
{
    ob_document *doc = L->doc;
    const char *type = ob_str(L, o, "type", "region");
    a->type = OB_ATT_UNKNOWN;
    for (int i = 0; i < (int)(sizeof ATT_TYPES / sizeof *ATT_TYPES); i++)
        if (strcmp(type, ATT_TYPES[i]) == 0) a->type = (ob_attachment_type)i;
    if (a->type == OB_ATT_UNKNOWN) ob_warn(L, "type", "unknown attachment type \"%s\": drawn as nothing", type);
    ob_color(L, o, "color", WHITE, a->color);
    a->scale_x = a->scale_y = 1;
    a->image = a->linked_mesh = a->end_slot = a->input = -1;
    switch (a->type) {
    case OB_ATT_REGION:
        load_placement(L, o, a);
        a->image = image_ref(L, o, "image", &a->image_ref);
        break;
    case OB_ATT_MESH: {
        a->image = image_ref(L, o, "image", &a->image_ref);
        load_vertices(L, o, a);
        a->uvs = ob_num_list(L, o, "uvs", &a->uv_count);
        a->uv_count /= 2;
        const cJSON *tris = ob_arr(L, o, "triangles");
        a->triangle_count = tris ? ob_json_count(tris) : 0;
        a->triangles = ob_alloc(L, (size_t)a->triangle_count, sizeof(uint32_t));
        int32_t i = 0;
        for (const cJSON *t = tris ? tris->child : NULL; t; t = t->next, i++) {
            if (!cJSON_IsNumber(t) || t->valuedouble < 0 || t->valuedouble >= a->vertex_count ||
                t->valuedouble != floor(t->valuedouble)) {
                size_t m = ob_path_key(L, "triangles");
                ob_path_index(L, i);
                if (!cJSON_IsNumber(t)) ob_fail_type(L, NULL, "a vertex index", t);
                ob_fail(L, NULL, "vertex index %g out of range (the mesh has %d vertices)",
                        t->valuedouble, (int)a->vertex_count);
                (void)m;
            }
            a->triangles[i] = (uint32_t)t->valuedouble;
        }
        if (a->uv_count < a->vertex_count)
            ob_warn(L, "uvs", "%d uv pairs for %d vertices: missing uvs read as 0",
                    (int)a->uv_count, (int)a->vertex_count);
        {   /* the outline is the first `hull` vertices (§9.5): a count, so it is
            ** truncated like a JS slice bound and kept within 0..vertex_count */
            double hull = ob_num(L, o, "hull", a->vertex_count);
            hull = isnan(hull) ? a->vertex_count : trunc(hull);
            a->hull = hull < 0 ? 0 : hull > a->vertex_count ? a->vertex_count : (int32_t)hull;
        }
        const cJSON *linked = ob_obj(L, o, "linked");
        if (linked) {
            size_t m = ob_path_key(L, "linked");
            const char *src = ob_str(L, linked, "mesh", NULL);
            if (src) a->linked_mesh = ob_intern_name(L, src);
            a->linked_deform = ob_bool(L, linked, "deform", 0);
            ob_path_pop(L, m);
        }
        break;
    }
    case OB_ATT_SHAPE: {
        static const char *kinds[] = {"rect", "ellipse", "polygon"};
        load_placement(L, o, a);
        a->shape = (ob_shape_kind)parse_enum(L, o, "shape", "rect", kinds, 3);
        a->radius = ob_num(L, o, "radius", 0);
        int32_t n;
        a->points = ob_num_list(L, o, "points", &n);
        a->point_count = n / 2;
        a->has_fill = ob_color(L, o, "fill", NULL, a->fill);
        a->has_stroke = ob_color(L, o, "stroke", NULL, a->stroke);
        a->stroke_width = ob_num(L, o, "strokeWidth", 0);
        break;
    }
    case OB_ATT_BOUNDING_BOX:
    case OB_ATT_PATH:
        load_vertices(L, o, a);
        a->closed = ob_bool(L, o, "closed", 0);
        a->constant_speed = ob_bool(L, o, "constantSpeed", 1);  /* CLARIFICATIONS: absent ⇒ true */
        if (a->type == OB_ATT_PATH && doc->pose_model == OB_POSE_MODEL_SPINE && ob_get(o, "lengths"))
            a->lengths = ob_num_list(L, o, "lengths", &a->length_count);  /* spine-core: per curve, cumulative */
        break;
    case OB_ATT_CLIPPING: {
        /* §8.3: clipping vertices go through the slot bone: `weights`, if a
        ** file has them, are not used, so the polygon is the local vertices */
        int32_t n;
        a->vertices = ob_num_list(L, o, "vertices", &n);
        a->vertex_count = n / 2;
        if (ob_arr(L, o, "weights")) ob_warn(L, "weights", "clipping weights are not used (§8.3)");
        a->end_slot_id = ob_ref(L, o, "end");
        a->end_slot = OB_LOOKUP_ID(L, doc->slots, doc->slot_count, a->end_slot_id);
        break;
    }
    case OB_ATT_POINT:
        a->x = ob_num(L, o, "x", 0);
        a->y = ob_num(L, o, "y", 0);
        a->rotation = ob_num(L, o, "rotation", 0);
        break;
    case OB_ATT_TEXT:
        load_placement(L, o, a);
        a->text = ob_str(L, o, "text", "");
        a->font = ob_str(L, o, "font", "");
        a->size = ob_num(L, o, "size", 0);
        {   /* "weight" may be a number (CSS) or a string */
            const cJSON *w = ob_get(o, "weight");
            if (w && cJSON_IsNumber(w)) {
                char buf[OB_JSNUM_CAP];
                ob_js_to_string(w->valuedouble, buf, sizeof buf);
                a->weight_name = ob_strdup(L, buf);
            } else {
                a->weight_name = ob_str(L, o, "weight", "");
            }
        }
        a->align = ob_str(L, o, "align", "left");
        a->has_outline = ob_color(L, o, "outline", NULL, a->outline);
        a->outline_width = ob_num(L, o, "outlineWidth", 0);
        break;
    case OB_ATT_SEQUENCE:
        load_placement(L, o, a);
        load_sequence(L, o, a);
        break;
    case OB_ATT_PARTICLES:
        load_particles(L, o, a);
        break;
    case OB_ATT_UNKNOWN:
        break;
    }
}

static void load_skins(ob_loader *L, const cJSON *sk)
{
    ob_document *doc = L->doc;
    const cJSON *arr = ob_arr(L, sk, "skins");
    size_t m0 = ob_path_key(L, "skins");
    doc->skin_count = arr ? ob_json_count(arr) : 0;
    doc->skins = ob_alloc(L, (size_t)doc->skin_count, sizeof *doc->skins);
    int32_t total = 0;  /* attachments over every skin */
    for (const cJSON *o = arr ? arr->child : NULL; o; o = o->next) {
        const cJSON *atts = cJSON_IsObject(o) ? ob_get(o, "attachments") : NULL;
        if (!cJSON_IsObject(atts)) continue;
        for (const cJSON *s = atts->child; s; s = s->next)
            if (cJSON_IsObject(s)) total += ob_json_count(s);
    }
    doc->attachments = ob_alloc(L, (size_t)total, sizeof *doc->attachments);
    int32_t i = 0;
    for (const cJSON *o = arr ? arr->child : NULL; o; o = o->next, i++) {
        size_t m = ob_path_index(L, i);
        ob_expect_object(L, o);
        ob_skin_data *skin = &doc->skins[i];
        skin->id = ob_ref(L, o, "id");
        skin->name = ob_str(L, o, "name", skin->id ? skin->id : "");
        const cJSON *atts = ob_obj(L, o, "attachments");
        int32_t n = 0;
        for (const cJSON *s = atts ? atts->child : NULL; s; s = s->next)
            if (cJSON_IsObject(s)) n += ob_json_count(s);
        skin->entries = ob_alloc(L, (size_t)n, sizeof *skin->entries);
        size_t ma = ob_path_key(L, "attachments");
        for (const cJSON *s = atts ? atts->child : NULL; s; s = s->next) {
            size_t ms = ob_path_key(L, s->string);
            if (!cJSON_IsObject(s)) ob_fail_type(L, NULL, "an object of attachments", s);
            int32_t slot = OB_LOOKUP_ID(L, doc->slots, doc->slot_count, s->string);
            if (slot < 0) ob_warn(L, NULL, "attachments of unknown or dropped slot \"%s\" ignored", s->string);
            for (const cJSON *a = s->child; a; a = a->next) {
                size_t mn = ob_path_key(L, a->string);
                ob_expect_object(L, a);
                if (slot >= 0) {
                    ob_attachment *att = &doc->attachments[doc->attachment_count];
                    att->name = ob_strdup(L, a->string);
                    att->name_id = ob_intern_name(L, a->string);
                    att->slot = slot;
                    att->skin = i;
                    load_attachment(L, a, att);
                    skin->entries[skin->entry_count++] =
                        (ob_skin_entry){slot, att->name_id, doc->attachment_count++};
                } else {
                    ob_attachment scratch = {0};
                    load_attachment(L, a, &scratch);  /* still validated */
                }
                ob_path_pop(L, mn);
            }
            ob_path_pop(L, ms);
        }
        ob_path_pop(L, ma);
        /* a slot key appears once per skin (duplicate keys were merged), so
        ** each slot's entries are contiguous */
        skin->slot_first = ob_alloc(L, 2 * (size_t)doc->slot_count, sizeof(int32_t));
        for (int32_t k = skin->entry_count - 1; k >= 0; k--) {
            skin->slot_first[2 * skin->entries[k].slot] = k;
            skin->slot_first[2 * skin->entries[k].slot + 1]++;
        }
        skin->bones = bone_list(L, o, "bones", &skin->bone_count);
        const cJSON *cons = ob_arr(L, o, "constraints");
        skin->constraint_count = cons ? ob_json_count(cons) : 0;
        skin->constraints = ob_alloc(L, (size_t)skin->constraint_count, sizeof(char *));
        int32_t k = 0;
        for (const cJSON *c = cons ? cons->child : NULL; c; c = c->next, k++) {
            if (!cJSON_IsString(c)) {
                ob_path_key(L, "constraints");
                ob_path_index(L, k);
                ob_fail_type(L, NULL, "a constraint id", c);
            }
            skin->constraints[k] = ob_strdup(L, c->valuestring);
        }
        if (i == 0 && (skin->bone_count || skin->constraint_count))
            ob_warn(L, NULL, "the default (first) skin cannot list bones or constraints");
        ob_path_pop(L, m);
    }
    ob_path_pop(L, m0);
}

void ob_load_skeleton(ob_loader *L, const cJSON *root)
{
    load_images(L, root);
    load_atlas(L, root);
    const cJSON *sk = ob_obj(L, root, "skeleton");
    size_t m = ob_path_key(L, "skeleton");
    L->doc->reference_scale = sk ? ob_num(L, sk, "referenceScale", 100) : 100;
    if (sk) {
        load_bones(L, sk);
        load_slots(L, sk);
        load_constraints(L, sk);
        load_skins(L, sk);
    }
    ob_path_pop(L, m);
}

/* ---- the document --------------------------------------------------- */

/* JSON.parse keeps the last value of a duplicated key, at the position of
** the first: make the tree look like that, so everything downstream (the
** loaders, the kept JSON copy, the binary encoder) sees what JS sees.  Keys
** are hashed (issue 21: an object of 80,000 keys is linear, not quadratic);
** objects of a few keys compare directly.  -1 when out of memory. */
struct key_eq { cJSON *const *first; const char *key; };

static int key_eq(const void *ctx, int32_t i)
{
    const struct key_eq *c = ctx;
    return strcmp(c->first[i]->string, c->key) == 0;
}

/* Also gives every array and object its count (OB_JSON_COUNTED, binary.h). */
static void set_count(cJSON *v, int32_t n)
{
    v->valueint = n;
    v->type |= OB_JSON_COUNTED;
}

static int dedupe_keys(cJSON *v)
{
    int32_t n = 0;
    for (cJSON *c = v->child; c; c = c->next, n++)
        if (c->child && dedupe_keys(c) < 0) return -1;
    if (cJSON_IsArray(v)) set_count(v, n);
    if (!cJSON_IsObject(v)) return 0;
    if (n <= 16) {
        for (cJSON *c = v->child; c; c = c->next) {
            for (cJSON *d = c->next; d;) {
                cJSON *next = d->next;
                if (d->string && c->string && d->string[0] == c->string[0] && strcmp(c->string, d->string) == 0) {
                    cJSON_DetachItemViaPointer(v, d);
                    cJSON_ReplaceItemViaPointer(v, c, d);  /* frees c; d takes its place */
                    c = d;
                    n--;
                }
                d = next;
            }
        }
        set_count(v, n);
        return 0;
    }
    cJSON **first = malloc((size_t)n * sizeof *first);  /* first[k]: the node at the k-th distinct key's place */
    ob_htab tab = {0};
    uint64_t seed = (uint64_t)(uintptr_t)v * 0x9e3779b97f4a7c15ULL;
    int32_t k = 0;
    int rc = first ? 0 : -1;
    for (cJSON *c = v->child; c && rc == 0;) {
        cJSON *next = c->next;
        if (c->string) {
            uint64_t h = ob_str_hash_seeded(seed, c->string);
            struct key_eq q = {first, c->string};
            int32_t f = ob_htab_find(&tab, h, key_eq, &q);
            if (f >= 0) {
                cJSON_DetachItemViaPointer(v, c);
                cJSON_ReplaceItemViaPointer(v, first[f], c);  /* frees the earlier value; c takes its place */
                first[f] = c;
            } else {
                first[k] = c;
                rc = ob_htab_add(&tab, h, k++);
            }
        }
        c = next;
    }
    ob_htab_free(&tab);
    free(first);
    set_count(v, k);
    return rc;
}

/* The offset of the first U+0000 inside a string of the JSON text s[0..n)
** (a raw NUL byte or a \u0000 escape), n when none.  s is text cJSON parsed,
** so strings are well formed and the scan needs no more than quotes and
** escapes. */
static size_t nul_in_strings(const char *s, size_t n)
{
    /* outside strings, valid JSON holds neither a NUL byte nor a backslash,
    ** so two memchr scans do it (issue 17: the byte loop cost a .obone load
    ** as much as a tenth of cJSON_Parse) */
    const char *z = memchr(s, '\0', n);
    size_t limit = z ? (size_t)(z - s) : n;
    for (size_t i = 0; i < limit;) {
        const char *p = memchr(s + i, '\\', limit - i);
        if (!p) break;
        i = (size_t)(p - s);
        if (i + 5 < n && s[i + 1] == 'u' && memcmp(s + i + 2, "0000", 4) == 0) return i;
        i += 2;  /* the backslash and the escaped character */
    }
    return limit;
}

/* issue 17: the setup pose as ob_instance lays it out, and the bones'
** children, once per document instead of once per instance (document.h). */
static void build_instance_constants(ob_loader *L)
{
    ob_document *doc = L->doc;
    int32_t nb = doc->bone_count, ns = doc->slot_count, nc = doc->constraint_count;
    doc->setup_local = ob_alloc(L, (size_t)nb, sizeof *doc->setup_local);
    doc->setup_inherit = ob_alloc(L, (size_t)nb, sizeof *doc->setup_inherit);
    doc->setup_color = ob_alloc(L, 4 * (size_t)ns, sizeof *doc->setup_color);
    doc->setup_dark = ob_alloc(L, 4 * (size_t)ns, sizeof *doc->setup_dark);
    doc->setup_has_dark = ob_alloc(L, (size_t)ns, sizeof *doc->setup_has_dark);
    doc->setup_attachment = ob_alloc(L, (size_t)ns, sizeof *doc->setup_attachment);
    doc->setup_order = ob_alloc(L, (size_t)ns, sizeof *doc->setup_order);
    doc->setup_con_values = ob_alloc(L, (size_t)OB_CV_COUNT * (size_t)nc, sizeof *doc->setup_con_values);
    for (int32_t i = 0; i < nb; i++) {
        const ob_bone_data *b = &doc->bones[i];
        doc->setup_local[i] = (ob_pose){b->x, b->y, b->rotation, b->scale_x, b->scale_y, b->shear_x, b->shear_y};
        doc->setup_inherit[i] = (uint8_t)b->inherit;
    }
    for (int32_t i = 0; i < ns; i++) {
        const ob_slot_data *s = &doc->slots[i];
        memcpy(&doc->setup_color[4 * i], s->color, sizeof s->color);
        memcpy(&doc->setup_dark[4 * i], s->dark, sizeof s->dark);
        doc->setup_has_dark[i] = (uint8_t)s->has_dark;
        doc->setup_attachment[i] = s->attachment;
        doc->setup_order[i] = i;
    }
    for (int32_t i = 0; i < nc; i++)
        memcpy(&doc->setup_con_values[(size_t)i * OB_CV_COUNT], doc->constraints[i].setup,
               sizeof doc->constraints[i].setup);
    /* children lists, creation order (updateSubtree, §3.2): one array */
    doc->bone_children = ob_alloc(L, (size_t)nb, sizeof *doc->bone_children);
    doc->bone_child_count = ob_alloc(L, (size_t)nb, sizeof *doc->bone_child_count);
    int32_t *all = ob_alloc(L, (size_t)nb, sizeof *all), at = 0;
    for (int32_t i = 0; i < nb; i++)
        if (doc->bones[i].parent >= 0) doc->bone_child_count[doc->bones[i].parent]++;
    for (int32_t i = 0; i < nb; i++) {
        doc->bone_children[i] = all + at;
        at += doc->bone_child_count[i];
        doc->bone_child_count[i] = 0;
    }
    for (int32_t i = 0; i < nb; i++) {
        int32_t p = doc->bones[i].parent;
        if (p >= 0) doc->bone_children[p][doc->bone_child_count[p]++] = i;
    }
}

/* Runs every section loader; -1 when one failed (the message is in L->err).
** Kept apart from ob_document_load so that setjmp's frame holds nothing else. */
static int run_loaders(ob_loader *L, const cJSON *root)
{
    ob_document *doc = L->doc;
    if (setjmp(L->fail)) return -1;
    doc->name = ob_str(L, root, "name", "");
    doc->width = ob_num(L, root, "width", 0);
    doc->height = ob_num(L, root, "height", 0);
    doc->origin_x = ob_num(L, root, "originX", 0);
    doc->origin_y = ob_num(L, root, "originY", 0);
    doc->fps = ob_num(L, root, "fps", 30);
    doc->background = ob_str(L, root, "background", NULL);
    {   /* not OpenBone: documents imported from skeleton JSON 4.2 (issue 9) */
        const char *mode = ob_str(L, root, "curveMode", NULL);
        doc->curve_mode = ob_curve_mode_parse(mode);
        if (mode && doc->curve_mode == OB_CURVE_MODE_OPENBONE && strcmp(mode, "openbone") != 0)
            ob_warn(L, "curveMode", "unknown curve mode \"%s\": keys use the §4.3 bisection", mode);
        const char *model = ob_str(L, root, "poseModel", NULL);
        doc->pose_model = model && strcmp(model, "spine") == 0 ? OB_POSE_MODEL_SPINE : OB_POSE_MODEL_OPENBONE;
        if (model && strcmp(model, "spine") != 0 && strcmp(model, "openbone") != 0)
            ob_warn(L, "poseModel", "unknown pose model \"%s\": the OpenBone rules apply", model);
    }

    ob_load_skeleton(L, root);
    ob_load_events(L, root);
    ob_load_animations(L, root);
    {
        const cJSON *sk = ob_get(root, "skeleton");
        size_t m = ob_path_key(L, "skeleton");
        if (sk) ob_load_sliders(L, sk);
        ob_path_pop(L, m);
    }
    ob_load_audio(L, root);
    ob_load_scripts(L, root);
    ob_load_state_machines(L, root);

    build_instance_constants(L);

    /* keep the interned tables in the arena */
    doc->att_name_count = L->name_count;
    doc->att_names = ob_alloc(L, (size_t)L->name_count, sizeof(char *));
    if (L->name_count) memcpy((void *)doc->att_names, L->names, (size_t)L->name_count * sizeof(char *));
    doc->channel_count = L->channel_count;
    doc->warning_count = L->warning_count;
    doc->warnings = ob_alloc(L, (size_t)L->warning_count, sizeof(char *));
    if (L->warning_count) memcpy((void *)doc->warnings, L->warnings, (size_t)L->warning_count * sizeof(char *));

    return 0;
}

/* The document's JSON tree from .obonb or .obone bytes (BOM dropped, invalid
** UTF-8 repaired and counted, duplicate keys resolved), or NULL with err set. */
/* A tree parse_root gave back (a binary one lives in the pool). */
static void drop_root(cJSON *root, ob_binary_pool *pool)
{
    if (pool->head) ob_binary_pool_free(pool);
    else cJSON_Delete(root);
}

static cJSON *parse_root(const void *data, size_t len, ob_error *err, size_t *utf8_bad_out, size_t *utf8_first_out,
                         ob_binary_pool *pool)
{
    cJSON *root;
    size_t utf8_bad = 0, utf8_first = 0;
    *utf8_bad_out = *utf8_first_out = 0;
    if (ob_binary_is_binary(data, len)) {
        root = ob_binary_decode_pooled(data, len, err->message, sizeof err->message, pool);
        if (!root) {
            ob_binary_pool_free(pool);
            err->status = OB_ERR_SYNTAX;
            return NULL;
        }
        return root;  /* the decoder resolved duplicate keys as dedupe_keys does */
    } else {
        /* The text is decoded as TextDecoder does (issue 21; NOTES §2): a
        ** leading BOM is dropped and invalid UTF-8 becomes U+FFFD (a warning);
        ** offsets in messages count bytes of the file. */
        const char *text = data;
        size_t n = len, skip = 0;
        if (n >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0) skip = 3;
        text += skip;
        n -= skip;
        char *repaired = NULL;
        size_t rn = ob_utf8_repair((const uint8_t *)text, n, NULL, &utf8_bad, &utf8_first);
        if (utf8_bad) {
            repaired = malloc(rn ? rn : 1);
            if (!repaired) {
                err->status = OB_ERR_MEMORY;
                snprintf(err->message, sizeof err->message, "out of memory");
                return NULL;
            }
            ob_utf8_repair((const uint8_t *)text, n, repaired, NULL, NULL);
            text = repaired;
            n = rn;
            utf8_first += skip;
        }
        const char *end = NULL;
        root = cJSON_ParseWithLengthOpts(text, n, &end, 0);
        size_t at = end && end >= text && end <= text + n ? (size_t)(end - text) + skip : 0;
        const char *after = utf8_bad ? " (counted after replacing invalid UTF-8)" : "";
        if (!root) {
            err->status = OB_ERR_SYNTAX;
            snprintf(err->message, sizeof err->message, "not a valid document: JSON syntax error at byte %zu%s", at,
                     after);
            free(repaired);
            return NULL;
        }
        /* only whitespace may follow the value */
        const char *p = end, *stop = text + n;
        while (p && p < stop && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r' || *p == '\0')) p++;
        size_t nul = p && p >= stop ? nul_in_strings(text, (size_t)(end - text)) : 0;
        if (p && p < stop) {
            cJSON_Delete(root);
            err->status = OB_ERR_SYNTAX;
            snprintf(err->message, sizeof err->message,
                     "not a valid document: unexpected text after the JSON value at byte %zu%s", at, after);
            free(repaired);
            return NULL;
        }
        if (nul < (size_t)(end - text)) {  /* C strings cannot hold U+0000: refused, never truncated */
            cJSON_Delete(root);
            err->status = OB_ERR_SYNTAX;
            snprintf(err->message, sizeof err->message,
                     "not a valid document: a string holds U+0000 at byte %zu%s (names and texts cannot contain it)",
                     nul + skip, after);
            free(repaired);
            return NULL;
        }
        free(repaired);
    }
    if (dedupe_keys(root) < 0) {
        cJSON_Delete(root);
        err->status = OB_ERR_MEMORY;
        snprintf(err->message, sizeof err->message, "out of memory");
        return NULL;
    }
    *utf8_bad_out = utf8_bad;
    *utf8_first_out = utf8_first;
    return root;
}

ob_document *ob_document_load(const void *data, size_t len, ob_error *err_arg)
{
    ob_error scratch;
    ob_error *const err = err_arg ? err_arg : &scratch;
    err->status = OB_OK;
    err->message[0] = '\0';
    if (!data) {
        err->status = OB_ERR_ARGUMENT;
        snprintf(err->message, sizeof err->message, "no data");
        return NULL;
    }
    size_t utf8_bad, utf8_first;
    ob_binary_pool pool = {0};
    cJSON *root = parse_root(data, len, err, &utf8_bad, &utf8_first, &pool);
    if (!root) return NULL;
    /* §2 step 1: format and version */
    if (!cJSON_IsObject(root)) {
        drop_root(root, &pool);
        err->status = OB_ERR_FORMAT;
        snprintf(err->message, sizeof err->message, "document: expected a JSON object");
        return NULL;
    }
    const cJSON *fmt = ob_get(root, "format"), *ver = ob_get(root, "version");
    if (!cJSON_IsString(fmt) || strcmp(fmt->valuestring, "openbone") != 0) {
        char d[80];
        if (cJSON_IsString(fmt)) snprintf(d, sizeof d, "\"%.40s\"", fmt->valuestring);
        else snprintf(d, sizeof d, "%s", fmt ? "a non-string" : "nothing");
        drop_root(root, &pool);
        err->status = OB_ERR_FORMAT;
        snprintf(err->message, sizeof err->message, "format: expected \"openbone\", got %s", d);
        return NULL;
    }
    if (ver && (!cJSON_IsNumber(ver) || ver->valuedouble > 1)) {
        char d[64];
        if (cJSON_IsNumber(ver)) snprintf(d, sizeof d, "%g", ver->valuedouble);
        else snprintf(d, sizeof d, "a non-number");
        drop_root(root, &pool);
        err->status = OB_ERR_FORMAT;
        snprintf(err->message, sizeof err->message, "version: unsupported version %s (this runtime reads version 1)", d);
        return NULL;
    }

    ob_document *doc = calloc(1, sizeof *doc);
    ob_loader *L = calloc(1, sizeof *L);
    if (!doc || !L) {
        free(doc);
        free(L);
        drop_root(root, &pool);
        err->status = OB_ERR_MEMORY;
        snprintf(err->message, sizeof err->message, "out of memory");
        return NULL;
    }
    L->doc = doc;
    L->err = err;
    L->seed = (uint64_t)(uintptr_t)L * 0x9e3779b97f4a7c15ULL;  /* per load: no global state */
    if (utf8_bad)
        ob_warn(L, NULL, "invalid UTF-8 at byte %zu: %zu sequence%s replaced with U+FFFD (as TextDecoder does)",
                utf8_first, utf8_bad, utf8_bad == 1 ? "" : "s");
    /* issue 17: the normalised JSON text is written when first asked for
    ** (ob_document_json), from a copy of the bytes: writing it costs several
    ** times the load itself (JS number formatting of every value) */
    doc->source = malloc(len ? len : 1);
    if (doc->source) memcpy(doc->source, data, len);
    doc->source_len = len;
    atomic_init(&doc->json, NULL);
    atomic_init(&doc->draw_shared, NULL);
    if (!doc->source || run_loaders(L, root) < 0) {
        if (err->status == OB_OK) {
            err->status = OB_ERR_MEMORY;
            snprintf(err->message, sizeof err->message, "out of memory");
        }
        ob_loader_free_tables(L);
        free(L->names);
        free(L->channels);
        free(L->warnings);
        free(L);
        drop_root(root, &pool);
        ob_document_free(doc);
        return NULL;
    }
    ob_loader_free_tables(L);
    free(L->names);
    free(L->channels);
    free(L->warnings);
    free(L);
    drop_root(root, &pool);
    return doc;
}

void ob_document_free(ob_document *doc)
{
    if (!doc) return;
    free(atomic_load(&doc->json));
    void *shared = atomic_load(&doc->draw_shared);
    if (shared) (*(void (**)(void *))shared)(shared);  /* drawlist.c's cache frees itself */
    free(doc->source);
    ob_arena_free(&doc->arena);
    free(doc);
}

const char *ob_document_json(const ob_document *doc)
{
    char *json = atomic_load_explicit(&doc->json, memory_order_acquire);
    if (json) return json;
    /* the bytes loaded once already: parsed the same way, they cannot fail but for memory */
    ob_error err;
    size_t bad, first;
    ob_binary_pool pool = {0};
    cJSON *root = parse_root(doc->source, doc->source_len, &err, &bad, &first, &pool);
    if (!root) return NULL;
    json = ob_json_write(root, 0);
    drop_root(root, &pool);
    if (!json) return NULL;
    char *expected = NULL;  /* several threads may race here: the first one's text is kept */
    if (!atomic_compare_exchange_strong_explicit((_Atomic(char *) *)&doc->json, &expected, json, memory_order_acq_rel,
                                                 memory_order_acquire)) {
        free(json);
        return expected;
    }
    return json;
}
int ob_document_bone_count(const ob_document *doc) { return doc->bone_count; }
int ob_document_slot_count(const ob_document *doc) { return doc->slot_count; }
int ob_document_skin_count(const ob_document *doc) { return doc->skin_count; }
int ob_document_animation_count(const ob_document *doc) { return doc->animation_count; }

#define FIND(arr, n, T, ref) ob_find_name_or_id((arr), (n), sizeof(T), offsetof(T, name), (ref))
int ob_document_find_bone(const ob_document *d, const char *r) { return FIND(d->bones, d->bone_count, ob_bone_data, r); }
int ob_document_find_slot(const ob_document *d, const char *r) { return FIND(d->slots, d->slot_count, ob_slot_data, r); }
int ob_document_find_skin(const ob_document *d, const char *r) { return FIND(d->skins, d->skin_count, ob_skin_data, r); }
int ob_document_find_animation(const ob_document *d, const char *r) { return FIND(d->animations, d->animation_count, ob_animation_data, r); }
