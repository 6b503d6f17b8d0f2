/* document.h: the document model, parsed once (§2) into plain structs.
**
** Cross-references are resolved to indices at load (-1 = missing, which the
** runtime treats as the spec says for a missing target).  Strings (ids, names)
** live in the document's arena.  Nothing is looked up by name per frame: a
** name that changes at run time (a slot's attachment) is an interned integer
** (an "attachment name id", index into doc->att_names).
*/
#ifndef OB_DOCUMENT_H
#define OB_DOCUMENT_H

#include <stdatomic.h>
#include <stdint.h>
#include "include/openbone.h"
#include "arena.h"

/* ---- Skeleton ------------------------------------------------------- */

typedef enum ob_inherit {        /* §4.2 */
    OB_INHERIT_NORMAL = 0,
    OB_INHERIT_ONLY_TRANSLATION,
    OB_INHERIT_NO_ROTATION,
    OB_INHERIT_NO_SCALE,
    /* Spine-only modes (skeleton JSON 4.2 import), with the Rigby2D formulas */
    OB_INHERIT_NO_ROTATION_OR_REFLECTION,
    OB_INHERIT_NO_SCALE_OR_REFLECTION,
    OB_INHERIT_COUNT
} ob_inherit;

typedef struct ob_bone_data {
    const char *id, *name;
    int32_t parent;              /* among earlier bones, else -1 (§2) */
    double length, x, y, rotation, scale_x, scale_y, shear_x, shear_y;
    ob_inherit inherit;
} ob_bone_data;

typedef enum ob_blend { OB_BLEND_NORMAL = 0, OB_BLEND_ADDITIVE, OB_BLEND_MULTIPLY, OB_BLEND_SCREEN } ob_blend;

typedef struct ob_slot_data {
    const char *id, *name;
    int32_t bone;
    double color[4];
    int has_dark;
    double dark[4];
    int32_t attachment;          /* setup attachment name id, -1 = none */
    ob_blend blend;
    int32_t source_index;        /* index in the file's slots array (before drops) */
} ob_slot_data;

/* ---- Attachments ---------------------------------------------------- */

typedef enum ob_attachment_type {
    OB_ATT_REGION = 0, OB_ATT_MESH, OB_ATT_SHAPE, OB_ATT_BOUNDING_BOX, OB_ATT_POINT,
    OB_ATT_TEXT, OB_ATT_SEQUENCE, OB_ATT_PARTICLES, OB_ATT_CLIPPING, OB_ATT_PATH,
    OB_ATT_UNKNOWN
} ob_attachment_type;

typedef struct ob_weight {       /* one influence of a weighted vertex */
    int32_t bone;                /* -1: missing, the slot bone is used (§8.3) */
    double x, y, weight;
} ob_weight;

typedef enum ob_shape_kind { OB_SHAPE_RECT = 0, OB_SHAPE_ELLIPSE, OB_SHAPE_POLYGON } ob_shape_kind;
typedef enum ob_seq_mode { OB_SEQ_LOOP = 0, OB_SEQ_ONCE, OB_SEQ_PINGPONG, OB_SEQ_HOLD_LAST } ob_seq_mode;

typedef struct ob_seq_frame {
    int32_t image;               /* -1 missing */
    int has_rect, has_trim;
    double rect[4];              /* x, y, width, height (image pixels, y-down) */
    double trim[4];              /* x, y, sourceWidth, sourceHeight */
} ob_seq_frame;

typedef struct ob_range { double min, max; } ob_range;
typedef struct ob_burst { double time, count; } ob_burst;
typedef struct ob_grad_stop { double t; double color[4]; } ob_grad_stop;

typedef enum ob_emit_shape { OB_EMIT_POINT = 0, OB_EMIT_CIRCLE, OB_EMIT_BOX, OB_EMIT_CONE } ob_emit_shape;
typedef enum ob_particle_look { OB_LOOK_CIRCLE = 0, OB_LOOK_SQUARE, OB_LOOK_SPARK, OB_LOOK_IMAGE } ob_particle_look;

typedef struct ob_particle_settings { /* §8.8, defaults from CLARIFICATIONS (§2) */
    int emitting, loop, prewarm, local_space;
    double rate, max_particles, duration;
    int32_t burst_count; ob_burst *bursts;
    ob_emit_shape shape;
    double x, y, rotation, angle, radius, width, height;
    ob_range lifetime, speed, start_size, end_size, start_rotation, end_rotation, angular_velocity;
    double gravity, drag, stretch;
    int32_t stop_count; ob_grad_stop *stops;  /* as in the file (sorted at use, §8.8) */
    ob_blend blend;
    ob_particle_look look;
    int32_t image;               /* image index, -1 none/missing */
    uint32_t seed;
} ob_particle_settings;

typedef struct ob_attachment {
    ob_attachment_type type;
    const char *name;            /* the key in the skin map */
    int32_t name_id;             /* interned name (doc->att_names) */
    int32_t slot, skin;
    double color[4];
    /* placement: region, sequence, text, shape, point */
    double x, y, rotation, scale_x, scale_y, width, height, skew_x, skew_y;
    int32_t image;               /* region: image index, -1 missing */
    const char *image_ref;       /* region: the image id as written */
    /* polygons: mesh, path, boundingBox, clipping */
    int32_t vertex_count;        /* vertices (2 numbers each) */
    double *vertices;            /* unweighted local x,y pairs (also kept when weighted) */
    int32_t *weight_start;       /* weighted: vertex_count + 1 offsets into weights, else NULL */
    ob_weight *weights;
    double *uvs;                 /* mesh: 2 per vertex (as many as the file gives, uv_count) */
    int32_t uv_count;
    uint32_t *triangles; int32_t triangle_count; /* indices (multiple of 3 not enforced) */
    int32_t hull;
    int32_t linked_mesh;         /* linked mesh: name id of the source mesh, else -1 */
    int linked_deform;
    int closed, constant_speed;  /* path */
    int32_t length_count; double *lengths; /* path, Spine pose model: "lengths" (for constantSpeed false) */
    int32_t end_slot;            /* clipping: slot index, -1 = null/missing */
    const char *end_slot_id;
    /* shape */
    ob_shape_kind shape;
    double radius, stroke_width;
    int has_fill, has_stroke;
    double fill[4], stroke[4];
    int32_t point_count; double *points; /* polygon points (pairs) */
    /* text */
    const char *text, *font, *weight_name, *align;
    double size;
    int has_outline; double outline[4]; double outline_width;
    /* sequence */
    int32_t frame_count; ob_seq_frame *frames;
    double fps, offset;
    ob_seq_mode mode;
    int32_t input;               /* state-machine input id, interned in doc->input_ids; -1 none */
    const char *input_ref;
    /* particles */
    ob_particle_settings *particles;
} ob_attachment;

typedef struct ob_skin_entry {   /* one (slot, name) → attachment of a skin */
    int32_t slot, name_id, attachment;
} ob_skin_entry;

typedef struct ob_skin_data {
    const char *id, *name;
    int32_t entry_count;
    ob_skin_entry *entries;      /* in file (JS key) order, grouped by slot key */
    int32_t *slot_first;         /* per slot: its first entry and count (2 per slot), */
                                 /* so that §8.1 look-ups scan one slot's entries */
    int32_t bone_count; int32_t *bones;             /* bone indices (unknown ids dropped) */
    int32_t constraint_count; const char **constraints; /* constraint ids as written */
} ob_skin_data;

/* ---- Constraints (§7) ---------------------------------------------- */

typedef enum ob_constraint_kind { OB_CON_IK = 0, OB_CON_TRANSFORM, OB_CON_PATH, OB_CON_PHYSICS } ob_constraint_kind;

/* Live values (§3.1 setupValues, §5.1): one array per constraint, indexed by
** these slots; the kind decides which are used. */
enum {
    OB_CV_MIX = 0,
    OB_CV_SOFTNESS, OB_CV_BEND, OB_CV_STRETCH, OB_CV_COMPRESS,           /* ik */
    OB_CV_MIX_ROTATE, OB_CV_MIX_TRANSLATE, OB_CV_MIX_SCALE, OB_CV_MIX_SHEAR, /* transform */
    OB_CV_POSITION, OB_CV_SPACING, OB_CV_MIX_X, OB_CV_MIX_Y,            /* path (+ mixRotate) */
    OB_CV_INERTIA, OB_CV_STRENGTH, OB_CV_DAMPING, OB_CV_MASS, OB_CV_GRAVITY, OB_CV_WIND, /* physics */
    OB_CV_MIX_SCALE_Y,           /* transform, Spine pose model only (mixScaleX is OB_CV_MIX_SCALE,
                                 ** mixY OB_CV_MIX_Y); absent ⇒ the X value */
    OB_CV_COUNT
};

typedef enum ob_position_mode { OB_POS_FIXED = 0, OB_POS_PERCENT } ob_position_mode;
typedef enum ob_spacing_mode { OB_SPACE_LENGTH = 0, OB_SPACE_FIXED, OB_SPACE_PERCENT, OB_SPACE_PROPORTIONAL } ob_spacing_mode;
typedef enum ob_rotate_mode { OB_ROT_TANGENT = 0, OB_ROT_CHAIN, OB_ROT_CHAIN_SCALE } ob_rotate_mode;

typedef struct ob_constraint_data {
    ob_constraint_kind kind;
    const char *id, *name;
    int has_order; double order;
    int32_t bone_count; int32_t *bones;  /* listed bones (-1 for unknown ids) */
    int32_t target;              /* ik/transform: bone; path: slot; -1 missing */
    int32_t bone;                /* physics: the bone, -1 missing */
    double setup[OB_CV_COUNT];   /* §3.1 setupValues (non-number ⇒ 0) */
    /* ik */
    int uniform;
    /* transform */
    double offset_rotation, offset_x, offset_y, offset_scale_x, offset_scale_y, offset_shear;
    int local, relative;
    /* path */
    ob_position_mode position_mode; ob_spacing_mode spacing_mode; ob_rotate_mode rotate_mode;
    /* physics (read from the data, not keyable) */
    double px, py, protate, pscale_x, fps;
    /* physics under the Spine pose model (spine-core 4.2 PhysicsConstraintData):
    ** shearX, limit, and which live values a physics timeline without a
    ** constraint id reaches (bit OB_CV_x − OB_CV_INERTIA per *Global flag,
    ** bit 7 for mixGlobal) */
    double pshear_x, plimit;
    uint8_t pglobal;
} ob_constraint_data;

typedef struct ob_slider_data {  /* §7.5 */
    const char *id, *name;
    int32_t animation;           /* -1 missing */
    int32_t bone;                /* -1 none/missing */
    int has_bone;                /* the file names a bone (missing bone ⇒ skip) */
    int property;                /* OB_P_ROTATION... (bone local property) */
    const char *input;           /* input id, NULL none */
    double from, to, time_from, time_to, mix;
    int has_time_from, has_time_to;
    int loop, additive;
} ob_slider_data;

/* ---- Events, animations (§5) --------------------------------------- */

typedef struct ob_event_data {
    const char *id, *name;
    double int_value, float_value;
    const char *string_value;
    const char *audio;           /* sound id/name, NULL none */
    int has_volume; double volume;
} ob_event_data;

typedef enum ob_tl_target {
    OB_TL_BONE = 0, OB_TL_SLOT, OB_TL_IK, OB_TL_TRANSFORM, OB_TL_PATH, OB_TL_PHYSICS,
    OB_TL_SEQUENCE, OB_TL_PARTICLES, OB_TL_DEFORM, OB_TL_DRAW_ORDER, OB_TL_UNKNOWN
} ob_tl_target;

typedef enum ob_property {
    OB_P_ROTATION = 0, OB_P_X, OB_P_Y, OB_P_SCALE_X, OB_P_SCALE_Y, OB_P_SHEAR_X, OB_P_SHEAR_Y,
    OB_P_INHERIT, OB_P_COLOR, OB_P_DARK, OB_P_ALPHA, OB_P_ATTACHMENT,
    OB_P_MIX, OB_P_SOFTNESS, OB_P_BEND, OB_P_STRETCH, OB_P_COMPRESS,
    OB_P_MIX_ROTATE, OB_P_MIX_TRANSLATE, OB_P_MIX_SCALE, OB_P_MIX_SHEAR,
    OB_P_POSITION, OB_P_SPACING, OB_P_MIX_X, OB_P_MIX_Y,
    OB_P_INERTIA, OB_P_STRENGTH, OB_P_DAMPING, OB_P_MASS, OB_P_GRAVITY, OB_P_WIND,
    OB_P_FRAME, OB_P_EMITTING, OB_P_RATE, OB_P_OFFSETS, OB_P_ORDER,
    /* extensions: deform offsets keyed per influence of a weighted attachment
    ** (any document); under the Spine pose model, transform mixScaleY (and
    ** mixY, OB_P_MIX_Y) and physics reset keys */
    OB_P_INFLUENCE_OFFSETS, OB_P_MIX_SCALE_Y, OB_P_RESET,
    OB_P_UNKNOWN
} ob_property;

/* Bezier keys are solved by §4.3 bisection; documents imported from skeleton
** JSON 4.2 say "curveMode": "spine" or "exact" (curve_spine.h), and their
** bezier keys get that kind at load instead. */
typedef enum ob_curve_kind {
    OB_CURVE_LINEAR = 0, OB_CURVE_STEPPED, OB_CURVE_BEZIER, OB_CURVE_BEZIER_SPINE, OB_CURVE_BEZIER_EXACT
} ob_curve_kind;
/* keys (issue 17): the per-frame kind of a Spine curve whose samples ascend,
** or of a stepped bone value key (ob_curve_spine_fast form, curve_spine.h) */
enum { OB_BKEY_SPINE_FAST = 16 };

typedef struct ob_key {
    double time;
    ob_curve_kind curve;
    double c[4];                 /* bezier handles cx1, cy1, cx2, cy2 */
    double v[4];                 /* number in v[0]; colour RGBA; bool/enum in v[0] */
    const double *spine;         /* OB_CURVE_BEZIER_SPINE: its 18 samples (curve_spine.h), else NULL */
    int32_t ref;                 /* attachment name id (-1 = null), inherit mode */
    int32_t count;               /* deform offsets / draw order length */
    double *offsets;             /* deform */
    int32_t *order;              /* draw order: slot indices that exist */
} ob_key;

/* The part of a key the per-frame search and sample read (issue 17): kept
** contiguous per timeline so a look-up touches a line or two, not a 112-byte
** key and its neighbour.  Filled by the loader from keys[] (the same values). */
typedef struct ob_key_hot {
    double v0;                   /* keys[i].v[0] */
    const double *spine;         /* keys[i].spine, or its ob_curve_spine_fast form (curve
                                 ** OB_BKEY_SPINE_FAST, keys issue 17) */
    int32_t curve;               /* keys[i].curve, or OB_BKEY_SPINE_FAST */
} ob_key_hot;

/* deform (issue 17): one key of a deform timeline as the per-frame sample
** reads it, in one 64-byte record: its span, its offsets and the difference
** to the next key's (so the lerp a + (b − a)·t is one multiply-add stream),
** its curve.  Built by the loader from keys[] and hot[] (the same values). */
typedef struct ob_dkey {
    double t0, t1;               /* times[i], times[i + 1] (the last key: t1 = t0) */
    double den;                  /* (t1 − t0) ‖ 1, the §5 fraction's divisor */
    const double *v0;            /* keys[i].offsets */
    const double *dv;            /* keys[i + 1].offsets − keys[i].offsets, element-wise, when
                                 ** both keys have count values; else NULL */
    const double *curve;         /* OB_BKEY_SPINE_FAST / OB_DKEY_SAMPLED: hot[i].spine;
                                 ** else keys[i].c */
    int32_t count;               /* keys[i].count */
    int32_t kind;                /* hot[i].curve, or OB_DKEY_SAMPLED */
} ob_dkey;
enum { OB_DKEY_SAMPLED = 17 };   /* a Spine curve whose samples do not ascend (ob_curve_spine_sampled) */

typedef struct ob_timeline {
    ob_tl_target target;
    ob_property property;
    const char *target_id;       /* id as written ("skeleton" for draw order) */
    const char *attachment_name; /* deform, sequence: as written, else NULL */
    int32_t index;               /* bone/slot/constraint index; -1 missing ⇒ skipped */
    int32_t attachment;          /* attachment name id (deform, sequence), -1 */
    int32_t channel;             /* interned (target, id, property, attachment): §5.1a matching */
    int32_t key_count;
    ob_key *keys;
    double *times;               /* keys[i].time, contiguous for the §5 key search */
    ob_key_hot *hot;             /* keys[i]'s v[0], spine samples, curve kind, contiguous */
    int32_t serial;              /* 0.. over the document's timelines: the instance's key hint */
    int sorted;                  /* key times ascending (the hint is used only then) */
    int global;                  /* Spine pose model physics timeline with id "": index is the
                                 ** first physics constraint, every one whose flag is set is keyed */
    const ob_dkey *dkeys;        /* deform (issue 17): key_count records for an offsets /
                                 ** influenceOffsets timeline, else NULL */
    int32_t deform_entry;        /* deform (issue 17): its (slot, attachment) entry's index in
                                 ** ob_instance.deforms (the same order skeleton.c builds), -1 */
    const struct ob_bline *line; /* keys (issue 17, session 4): a number sampled (constraint
                                 ** values, particle rate, sequence frame) as pieces, or NULL */
} ob_timeline;

/* keys (issue 17): the bone pose value timelines of an animation (the seven
** OB_P_ROTATION..OB_P_SHEAR_Y bone properties, resolved, keyed) in a list of
** their own, grouped by identical key times (Spine's translate/scale/shear
** import as an x and a y timeline keyed at the same times), so that one span
** search and one fraction serve the group.  Built by the loader from
** timelines[] (load_animation.c); the same values. */
typedef struct ob_bkey {         /* one key of one bone value timeline, as sampled */
    double v0;                   /* keys[i].v[0] */
    double dv;                   /* keys[i + 1].v[0] − keys[i].v[0]; 0 for the last key */
    const double *curve;         /* OB_BKEY_SPINE_FAST: its ob_curve_spine_fast block;
                                 ** OB_CURVE_BEZIER_SPINE: its samples; bezier/exact: keys[i].c */
    int32_t kind;                /* keys[i].curve, or OB_BKEY_SPINE_FAST */
    int32_t pad;
} ob_bkey;

typedef struct ob_bchan {        /* one bone value timeline of a group */
    int32_t field;               /* the double of ob_pose it writes (0 x .. 6 shear_y) */
    int32_t bone;                /* inst->local index */
    int32_t timeline;            /* its index in timelines[] (the §5.1a channel) */
    int32_t rotation;            /* field is the rotation: lerpAngle when mixed */
} ob_bchan;

typedef struct ob_bspan {         /* key span k of a group: [t0, t1) and 1 / ((t1 − t0) ‖ 1) */
    double t0, t1, inv;
} ob_bspan;

typedef struct ob_bgroup {       /* bone value timelines with the same key times */
    double t_first, t_last;      /* times[0], times[key_count − 1] */
    const double *times;         /* the members' key times (the first member's array) */
    const ob_bspan *spans;       /* key_count − 1 spans: the hinted look-up reads one */
    const ob_bkey *keys;         /* key-major: key k of member m at keys[k·count + m], so a
                                 ** frame reads one contiguous run per group */
    int32_t key_count;
    int32_t hint;                /* inst->key_hint slot (the first member's serial) */
    int32_t first, count;        /* its members: bchans[first .. first + count) */
    int32_t sorted;
} ob_bgroup;

/* keys (issue 17, session 4): one bone value timeline as pieces linear in
** time, built at load from its group's keys: piece p covers time in
** [pieces[p].start, pieces[p + 1].start) (start −DBL_MAX for the first; a
** piece of start +inf follows the np) and samples a + b·(time − start), a
** its value at start: the hold before the first key, each span's linear or
** stepped key or each segment of its Spine curve (ob_curve_spine_fast), the
** hold from the last key on.  The groups' values to rounding (24 bytes a
** piece: a frame reads one per value, and fewer cache lines pay more than
** the groups' exact operations for linear keys). */
typedef struct ob_bpiece { double start, a, b; } ob_bpiece;
/* the largest |key time| lines are built for and |time| they are sampled at
** (else the groups): time − start stays finite */
#define OB_BLINE_TMAX 1e290
typedef struct ob_bline {
    const ob_bpiece *pieces;     /* np, then one of start +inf */
    int32_t np;
    int32_t hint;                /* inst->key_hint slot (its timeline's serial): the index of
                                 ** the piece last used */
    int32_t dst;                 /* 7·bone + field: the double of inst->local it writes */
    int32_t timeline;            /* its index in timelines[] (the §5.1a channel) */
    int32_t rotation;            /* lerpAngle when mixed */
    int32_t pad;
} ob_bline;

/* issue 17 (keys): a bone line whose every piece gives one value */
typedef struct ob_bconst { double v; int32_t dst, pad; } ob_bconst;

/* issue 17 (keys): a deform timeline (offsets / influenceOffsets, sorted keys)
** as one record of what the plain apply reads */
typedef struct ob_dline {
    const ob_dkey *keys;         /* its dkeys */
    int32_t last;                /* key_count − 1 */
    int32_t hint;                /* inst->key_hint slot (its timeline's serial) */
    int32_t slot, name_id;       /* the entry's (slot, attachment): ob_deform's first two */
    int32_t entry;               /* its deform_entry */
    int32_t per_influence;       /* OB_P_INFLUENCE_OFFSETS */
    int32_t timeline;            /* its index in timelines[] */
    int32_t pad;
} ob_dline;

typedef struct ob_event_key {
    double time;
    int32_t event;               /* -1: no such event, never fires */
    int has_int, has_float, has_string;
    double int_value, float_value;
    const char *string_value;
} ob_event_key;

typedef struct ob_audio_key {
    double time;
    const char *sound;
    int has_volume, has_rate, has_loop;
    double volume, rate;
    int loop;
} ob_audio_key;

typedef struct ob_animation_data {
    const char *id, *name;
    double duration;             /* the explicit field (0 when absent) */
    double length;               /* §5.1 animationDuration: explicit if > 0, else max key time */
    int32_t timeline_count; ob_timeline *timelines;
    int32_t event_count; ob_event_key *events;
    int32_t audio_count; ob_audio_key *audio;
    int32_t channel_count; int32_t *channels; /* sorted channels keyed (≥ 1 key) */
    int has_resets;              /* a physics reset timeline (the Spine pose model) */
    /* keys (issue 17): the bone value timelines grouped (ob_bgroup), and the
    ** indices of every other timeline applyAnimation runs (keyed, resolved,
    ** known property), in timeline order */
    int32_t bgroup_count; ob_bgroup *bgroups;
    int32_t bchan_count; ob_bchan *bchans;
    int32_t other_count; int32_t *others;
    /* keys (issue 17, session 4): bchan_count lines in bchans' order, or NULL
    ** when a key is not linear, stepped or a Spine curve in its fast form, the
    ** keys are out of order, or a time or value is too large (then the groups) */
    const ob_bline *blines;
    /* issue 17 (keys): the plain apply's (alpha ≥ 1, no mix-out) lists, built
    ** by the loader: the lines that vary (bvar: blines itself when a bone value
    ** is written twice) and the constant ones' values (bconst); the sorted
    ** deform timelines as records (dlines) and the rest of others[] (rest),
    ** each in timeline order */
    int32_t bvar_count; const ob_bline *bvar;
    int32_t bvar_hint0;          /* ≥ 0: bvar[j]'s hint slot is bvar_hint0 + j (else its own) */
    int32_t bconst_count; const struct ob_bconst *bconst;
    int32_t dline_count; const struct ob_dline *dlines;
    int32_t rest_count; int32_t *rest;
} ob_animation_data;

/* ---- Audio (§10) ---------------------------------------------------- */

typedef struct ob_audio_asset { const char *id, *name, *src; double duration; } ob_audio_asset;
typedef struct ob_audio_bus { const char *id, *name; double volume; int muted; } ob_audio_bus;
typedef struct ob_sound_data {
    const char *id, *name;
    int32_t asset, bus;          /* indices, -1 missing / null */
    const char *asset_ref, *bus_ref;
    double volume, rate, fade_in, fade_out;
    int loop;
} ob_sound_data;

/* ---- State machines (§9) ------------------------------------------ */

typedef enum ob_value_kind { OB_VAL_NULL = 0, OB_VAL_NUMBER, OB_VAL_BOOL, OB_VAL_STRING } ob_value_kind;
typedef struct ob_value { ob_value_kind kind; double number; const char *string; } ob_value;

typedef enum ob_input_type { OB_INPUT_BOOL = 0, OB_INPUT_NUMBER, OB_INPUT_STRING, OB_INPUT_TRIGGER } ob_input_type;
typedef struct ob_input_data { const char *id, *name; ob_input_type type; ob_value def; } ob_input_data;

typedef enum ob_bind_object { OB_BIND_BONE = 0, OB_BIND_SLOT, OB_BIND_CONSTRAINT, OB_BIND_UNKNOWN } ob_bind_object;
typedef struct ob_binding_data {
    const char *id;
    int32_t input;               /* index in the machine's inputs, -1 missing */
    ob_bind_object object;
    int32_t target;              /* bone / slot / constraint index, -1 missing */
    ob_property property;
    double in_min, in_max, out_min, out_max;
    double out_min_color[4], out_max_color[4]; /* slot color (hex outputs) */
} ob_binding_data;

typedef struct ob_state_sound { const char *sound; int on_exit, stop; int has_volume; double volume; } ob_state_sound;
typedef struct ob_state_emitter { int32_t slot; int emitting; } ob_state_emitter;
typedef struct ob_state_input { int32_t input; ob_value value; } ob_state_input;
typedef struct ob_blend_entry { double value; int32_t animation; } ob_blend_entry;

typedef enum ob_state_type { OB_STATE_ANIMATION = 0, OB_STATE_BLEND1D, OB_STATE_EXIT, OB_STATE_UNKNOWN } ob_state_type;
typedef struct ob_state_data {
    const char *id, *name;
    ob_state_type type;
    int32_t animation;           /* -1 missing */
    int loop;
    double speed;
    int32_t input;               /* blend1d input index, -1 */
    int32_t entry_count; ob_blend_entry *entries;  /* as in the file (sorted at use) */
    int32_t on_complete;         /* state index, -1 */
    int32_t sound_count; ob_state_sound *sounds;
    int32_t emitter_count; ob_state_emitter *emitters;
    int32_t input_count; ob_state_input *inputs;
    int32_t script_count; int32_t *scripts; /* document script indices */
} ob_state_data;

typedef enum ob_cond_op { OB_OP_EQ = 0, OB_OP_NE, OB_OP_GT, OB_OP_LT, OB_OP_GE, OB_OP_LE, OB_OP_NONE } ob_cond_op;
typedef struct ob_condition { int32_t input; ob_cond_op op; ob_value value; } ob_condition;

#define OB_FROM_ANY (-2)
typedef struct ob_transition_data {
    const char *id;
    int32_t from;                /* state index, OB_FROM_ANY, -1 missing */
    int32_t to;                  /* state index, -1 missing */
    double duration;
    int has_exit_time; double exit_time;
    int32_t condition_count; ob_condition *conditions;
} ob_transition_data;

typedef struct ob_layer_data {
    const char *id, *name;
    int32_t entry;               /* state index, -1 */
    int32_t state_count; ob_state_data *states;
    int32_t transition_count; ob_transition_data *transitions;
} ob_layer_data;

typedef enum ob_action_type {
    OB_ACT_SET_INPUT = 0, OB_ACT_TOGGLE_INPUT, OB_ACT_FIRE_TRIGGER, OB_ACT_REPORT_EVENT,
    OB_ACT_PLAY_SOUND, OB_ACT_STOP_SOUND, OB_ACT_RUN_SCRIPT, OB_ACT_SET_EMITTER,
    OB_ACT_EMIT_PARTICLES, OB_ACT_SET_MUTE, OB_ACT_UNKNOWN
} ob_action_type;
typedef struct ob_action_data {
    ob_action_type type;
    const char *input;           /* id or name (setInput/toggle/fire) */
    ob_value value;
    int32_t event;               /* reportEvent: event index, -1 */
    const char *sound;
    int has_volume, has_fade; double volume, fade;
    int32_t script; const char *fn;
    int32_t slot; int emitting; double count;
    const char *bus;             /* NULL = master */
    int muted;                   /* 0, 1, or 2 = toggle */
} ob_action_data;

typedef enum ob_listener_event { OB_LE_DOWN = 0, OB_LE_UP, OB_LE_MOVE, OB_LE_CLICK, OB_LE_ENTER, OB_LE_EXIT, OB_LE_UNKNOWN } ob_listener_event;
typedef struct ob_listener_data {
    const char *id, *name;
    int32_t slot;                /* -1: null (everywhere) */
    int has_slot;                /* a slot id was given (missing slot ⇒ never hits) */
    ob_listener_event event;
    int32_t action_count; ob_action_data *actions;
} ob_listener_data;

typedef struct ob_machine_data {
    const char *id, *name;
    int32_t input_count; ob_input_data *inputs;
    int32_t binding_count; ob_binding_data *bindings;
    int32_t layer_count; ob_layer_data *layers;
    int32_t listener_count; ob_listener_data *listeners;
    int32_t script_count; int32_t *scripts;  /* document script indices */
} ob_machine_data;

typedef struct ob_script_data { const char *id, *name, *code; } ob_script_data;

/* ---- Images and atlas (§8.7) -------------------------------------- */

typedef struct ob_image_data { const char *id, *name, *src; double width, height; } ob_image_data;
typedef struct ob_page_data { const char *id, *name, *src; double width, height; } ob_page_data;
typedef struct ob_region_data {
    int32_t image, page;
    double x, y, width, height, offset_x, offset_y, original_width, original_height;
    int rotation, empty; /* rotation: clockwise degrees the image is turned on the page: 0, 90, 180, 270 */
    int32_t polygon_count; double *polygon; /* pairs, used when ≥ 3 points */
} ob_region_data;

/* ---- The document --------------------------------------------------- */

struct ob_document {
    ob_arena arena;
    _Atomic(char *) json;        /* normalised document, compact JSON (malloc'd), written on first
                                 ** ob_document_json from source (a cache: thread-safe) */
    void *source;                /* a copy of the bytes loaded (.obone text or .obonb) */
    size_t source_len;
    const char *name;
    double width, height, origin_x, origin_y, fps;
    const char *background;
    double reference_scale;      /* default 100 */
    int curve_mode;              /* OB_CURVE_MODE_* (curve_spine.h): "curveMode", an import extension */
    int pose_model;              /* OB_POSE_MODEL_* (curve_spine.h): "poseModel", an import extension */
    int has_influence_offsets;   /* a deform timeline keys influenceOffsets (the extension) */
    int32_t timeline_total;      /* timelines over every animation (ob_timeline.serial) */

    int32_t bone_count; ob_bone_data *bones;
    int32_t slot_count; ob_slot_data *slots;
    int32_t skin_count; ob_skin_data *skins;
    int32_t attachment_count; ob_attachment *attachments;
    int32_t att_name_count; const char **att_names;  /* interned attachment names */

    int32_t ik_count, transform_count, path_count, physics_count;
    int32_t constraint_count; ob_constraint_data *constraints; /* default list: ik, transform, path, physics */
    int32_t slider_count; ob_slider_data *sliders;

    int32_t event_count; ob_event_data *events;
    int32_t animation_count; ob_animation_data *animations;
    int32_t channel_count;

    int has_audio; double audio_master; int audio_muted;
    int32_t audio_asset_count; ob_audio_asset *audio_assets;
    int32_t audio_bus_count; ob_audio_bus *audio_buses;
    int32_t sound_count; ob_sound_data *sounds;

    int32_t machine_count; ob_machine_data *machines;
    int32_t script_count; ob_script_data *scripts;

    int32_t image_count; ob_image_data *images;
    int has_atlas;
    int32_t page_count; ob_page_data *pages;
    int32_t region_count; ob_region_data *regions;
    int32_t *image_region;       /* per image: region index (first wins), -1 */
    int has_white; int32_t white_page; double white[4];
    int premultiplied_alpha;
    double atlas_scale;

    int32_t warning_count; const char **warnings; /* lenient-spec notes for `validate` */

    /* load (issue 17): what every instance of the document would otherwise
    ** copy, built once at load and pointed at by each instance (instance.h's
    ** setup_* arrays, laid out like its live arrays, and its bone children) */
    struct ob_pose *setup_local;        /* per bone */
    uint8_t *setup_inherit;             /* per bone */
    double *setup_color, *setup_dark;   /* 4 per slot */
    uint8_t *setup_has_dark;            /* per slot */
    int32_t *setup_attachment, *setup_order; /* per slot */
    double *setup_con_values;           /* OB_CV_COUNT per constraint */
    int32_t **bone_children;            /* per bone: its children in creation order */
    int32_t *bone_child_count;
    /* drawlist.c's per-attachment caches, shared by the instances: built by
    ** the first (an atomic cache, as json); a struct whose first member is
    ** its free function, which ob_document_free calls */
    _Atomic(void *) draw_shared;
};

/* Looks an id up in an array of structs whose first member is `const char *id`
** (first wins, CLARIFICATIONS); -1 when absent.  Load time only. */
int32_t ob_find_id(const void *array, int32_t count, size_t stride, const char *id);
/* Name first, then id (the public API's rule). */
int32_t ob_find_name_or_id(const void *array, int32_t count, size_t stride, size_t name_offset, const char *ref);

#endif
