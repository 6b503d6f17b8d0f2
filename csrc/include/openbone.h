/* openbone.h: the public C API of the openbone runtime.
**
** A document (ob_document) is parsed once from .obone JSON or .obonb binary
** into plain arrays of structs and is immutable afterwards; any number of
** instances (ob_instance) pose it.  Handles are opaque; every create has a
** matching free.  Nothing here keeps global state, and nothing allocates per
** frame.  Functions that can fail return an ob_status and fill an ob_error.
** Section numbers (§) refer to the OpenBone runtime specification.
*/
#ifndef OPENBONE_H
#define OPENBONE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ob_document ob_document;
typedef struct ob_instance ob_instance;

typedef enum ob_status {
    OB_OK = 0,
    OB_ERR_SYNTAX,   /* not JSON / not a valid .obonb buffer */
    OB_ERR_FORMAT,   /* wrong "format", unsupported "version" */
    OB_ERR_SCHEMA,   /* a field of the wrong type or shape */
    OB_ERR_ARGUMENT, /* a bad argument to an API call (unknown name...) */
    OB_ERR_MEMORY
} ob_status;

/// An error: its kind and a message naming the place, e.g.
/// `skeleton.bones[3].rotation: expected a number, got "ninety"`.
typedef struct ob_error {
    ob_status status;
    char message[512];
} ob_error;

/* ---- Documents (§2) -------------------------------------------------- */

/// Parses a document: JSON text, or binary when data starts with "OBNB".
/// Returns NULL on failure with err filled.  The data is not kept.
ob_document *ob_document_load(const void *data, size_t len, ob_error *err);

/// Frees a document.  Instances made from it must be freed first.
void ob_document_free(ob_document *doc);

/// The normalised document (§2) as compact JSON text, owned by doc.
const char *ob_document_json(const ob_document *doc);

/// Counts of the document's arrays.
int ob_document_bone_count(const ob_document *doc);
int ob_document_slot_count(const ob_document *doc);
int ob_document_skin_count(const ob_document *doc);
int ob_document_animation_count(const ob_document *doc);

/// Index of the bone/slot/skin/animation with this name, falling back to id;
/// -1 when none.  For set-up code, never per frame.
int ob_document_find_bone(const ob_document *doc, const char *name_or_id);
int ob_document_find_slot(const ob_document *doc, const char *name_or_id);
int ob_document_find_skin(const ob_document *doc, const char *name_or_id);
int ob_document_find_animation(const ob_document *doc, const char *name_or_id);

/* ---- Instances (§3) -------------------------------------------------- */

/// Constructs a skeleton instance (§2 Skeleton construction): active flags
/// for no skin, setToSetupPose, one updateWorldTransform.
ob_instance *ob_instance_create(const ob_document *doc, ob_error *err);
void ob_instance_free(ob_instance *inst);

/// §2/§3.3 setSkin: skin index, or -1 for none; recomputes active flags.
void ob_instance_set_skin(ob_instance *inst, int skin);
int ob_instance_skin(const ob_instance *inst);

/// §3.1 setToSetupPose.
void ob_instance_set_to_setup_pose(ob_instance *inst);

/// §3.2 updateWorldTransform.
void ob_instance_update_world_transform(ob_instance *inst);

/// The largest |dt| one advance accepts, in seconds (about 31.7 years).
#define OB_MAX_DT 1e9

/// §3 advance(dt): the per-frame pipeline.  dt may be negative (time runs
/// back; events fire only for dt > 0).  A non-finite dt or |dt| > OB_MAX_DT is
/// refused with OB_ERR_ARGUMENT and the instance is left as it was.
ob_status ob_instance_advance(ob_instance *inst, double dt);

/// World matrices, 6 doubles per bone [a, b, c, d, x, y], document order.
/// The pointer stays valid for the instance's life.
const double *ob_instance_world(const ob_instance *inst);

/// Active flags per bone (§3.3), 1 byte each.
const uint8_t *ob_instance_active_bones(const ob_instance *inst);

/// Summed clock time (§12: dt summed exactly as given).
double ob_instance_time(const ob_instance *inst);

/// An independent instance in the same state as inst (the document is
/// shared: it is immutable): advancing both the same way gives the same bits.
/// Everything is allocated here, once.  NULL with err filled when memory runs
/// out or the state cannot be copied (a state machine running scripts: the
/// live script host holds JS state outside the instance).
ob_instance *ob_instance_copy(const ob_instance *inst, ob_error *err);

/// A snapshot of the instance's whole state as bytes that another process
/// can restore into an instance of the same document (loaded from the same
/// .obonb bytes): writes at most cap bytes to buf and sets *len to the size
/// needed (call with buf NULL to ask).  Fails like ob_instance_copy.
ob_status ob_instance_snapshot(const ob_instance *inst, void *buf, size_t cap, size_t *len, ob_error *err);
/// Restores a snapshot into inst (made from the document the snapshot was
/// taken of; its state machine is started as the snapshot's was).  A
/// truncated or corrupted snapshot, or one of another document, is an error
/// (OB_ERR_FORMAT) that leaves inst as it was (the snapshot is applied to a
/// scratch instance first).  Snapshots are trusted data, like pickles: the
/// checksum and range checks find accidents, not forgeries.
ob_status ob_instance_restore(ob_instance *inst, const void *data, size_t len, ob_error *err);

/* ---- Animation (§6) ------------------------------------------------- */

/// §6 setAnimation on a track (0..15) by animation index; mix is the
/// cross-fade from the track's current entry (0.2 in the spec's default).
ob_status ob_instance_set_animation(ob_instance *inst, int track, int animation, int loop, double mix);
/// §6 addAnimation: starts now on an empty track, else queues after the
/// current entry (delay > 0: at that track time; else when it completes).
ob_status ob_instance_add_animation(ob_instance *inst, int track, int animation, int loop, double delay,
                                    double mix);
/// Empties a track (its looping sounds stop).
ob_status ob_instance_clear_track(ob_instance *inst, int track);
/// Fills *out with world matrices of `steps` advances of dt (steps × bones × 6
/// doubles), in one call: the bake of §3 frames, time summed as §12 says.
/// A dt ob_instance_advance refuses, steps < 0 or a NULL out (with steps > 0)
/// is OB_ERR_ARGUMENT, before anything is advanced.
ob_status ob_instance_bake(ob_instance *inst, double dt, int steps, double *out);

/* ---- State machines (§9) ---------------------------------------------- */

int ob_document_state_machine_count(const ob_document *doc);
int ob_document_find_state_machine(const ob_document *doc, const char *name_or_id);
/// Runs state machine `machine` from the next advance on (§9.1 replaces the
/// §3 pipeline).  Call once, after ob_instance_create.
ob_status ob_instance_start_state_machine(ob_instance *inst, int machine);
/// Input index of the running machine by name, then id; -1 when none.
int ob_instance_find_input(const ob_instance *inst, const char *name_or_id);
/// §9.5 setInput with its coercions (a trigger input fires); fire marks a
/// trigger until the next advance's step 6.
ob_status ob_instance_set_input_number(ob_instance *inst, int input, double value);
ob_status ob_instance_set_input_bool(ob_instance *inst, int input, int value);
ob_status ob_instance_set_input_string(ob_instance *inst, int input, const char *value);
ob_status ob_instance_fire(ob_instance *inst, int input);

typedef enum ob_pointer_type { OB_POINTER_DOWN = 0, OB_POINTER_UP, OB_POINTER_MOVE } ob_pointer_type;
/// §9.5 queues a pointer event in skeleton space (processed by the next advance).
/// Non-finite coordinates are refused (OB_ERR_ARGUMENT), nothing is queued.
ob_status ob_instance_pointer(ob_instance *inst, ob_pointer_type type, double x, double y);
/// §9.1 activeStates of layer `layer` of the running machine: a state name,
/// "exit", or NULL.  Valid until the next advance.
const char *ob_instance_active_state(const ob_instance *inst, int layer);

/* ---- Draw list (§8.4) ------------------------------------------------- */

/// One draw item: pointers into the instance's buffers, valid until the next
/// ob_instance_draw.  `indices` index the item's own vertices (0-based).
typedef struct ob_draw_item_info {
    int slot, attachment;            /* document indices */
    const char *type;                /* "region", "mesh", "sequence", "particles", "text", "shape" */
    const char *blend;               /* "normal", "additive", "multiply", "screen" */
    const char *texture;             /* atlas page id, image id, "@openbone/particle-dot", or NULL */
    int vertex_count;
    const float *vertices, *uvs;     /* 2 floats per vertex (float32, §12) */
    const float *colors;             /* 4 floats per vertex (particles), or NULL */
    int index_count;
    const uint32_t *indices;         /* into the shared index buffer: subtract first_vertex */
    int first_vertex;
    double color[4];
    int has_dark;
    double dark[4];
    int clip;                        /* index of the mask among those used, -1 none */
    const char *text;                /* §8.9 formatted text (text items), or NULL */
} ob_draw_item_info;

/// Builds the draw list of the current pose; returns the item count (no
/// allocation per frame), or -1 when memory ran out (formatted text only).
int ob_instance_draw(ob_instance *inst);
/// Item i of the last ob_instance_draw.
ob_status ob_instance_draw_item(const ob_instance *inst, int i, ob_draw_item_info *out);

/// World vertices only: for every slot in draw order whose bone is active and
/// whose attachment is a region or a mesh, the vertices ob_instance_draw would
/// give it (whatever the slot's alpha), without uvs, colours or indices.
/// Returns the entry count (nothing is allocated; -1 cannot happen for the
/// documents the instance was sized for).
int ob_instance_world_vertices(ob_instance *inst);
/// Entry i of the last ob_instance_world_vertices: its slot and attachment
/// (document indices), and its vertices (2 floats each), valid until the next call.
ob_status ob_instance_world_vertices_entry(const ob_instance *inst, int i, int *slot, int *attachment,
                                           int *vertex_count, const float **vertices);

/* ---- Host edits of the current pose ------------------------------------ */

/// Sets a slot's attachment by attachment name id (the document's interned
/// names; −1 = none) or its colour, on the current pose: like a key, it holds
/// until the next setToSetupPose (so set it after the animations are applied).
ob_status ob_instance_set_slot_attachment(ob_instance *inst, int slot, int attachment_name);
ob_status ob_instance_set_slot_color(ob_instance *inst, int slot, const double rgba[4]);

/* ---- The instance layer (layer.c) ------------------------------------- */
/* Host-driven posing on top of the rig's own animation: every
** updateWorldTransform (§3.2), after resetApplied and before the first
** constraint, (1) each bone's offset is added to its applied pose, (2) joint
** limits clamp, (3) each reach with weight > 0 solves its limb, (4) the
** limits of the reach's bones clamp again; then the rig's constraints run as
** usual.  The local pose is not changed (the layer is applied afresh every
** frame), setToSetupPose does not reset it, and an instance that never set
** anything pays one test per frame.  Setters allocate once, on first use;
** nothing allocates per frame. */

/// An additive offset of a bone's local pose: rotation (degrees), x, y (in
/// the parent's space), shear add; scale_x, scale_y multiply.
typedef struct ob_bone_offset {
    double rotation, x, y, scale_x, scale_y, shear_x, shear_y;
} ob_bone_offset;
/// The identity offset {0, 0, 0, 1, 1, 0, 0}.
ob_bone_offset ob_default_bone_offset(void);
/// Sets a bone's offset (values must be finite); the identity removes it.
ob_status ob_instance_set_bone_offset(ob_instance *inst, int bone, const ob_bone_offset *offset);
/// The bone's offset (the identity when none is set).
ob_status ob_instance_get_bone_offset(const ob_instance *inst, int bone, ob_bone_offset *out);

/// What a joint limit's angles are measured from: the bone's setup rotation
/// (an anatomical range, which clamps the rig's own animation too), or its
/// rotation in the pose under the layer (the animation's: only what the layer
/// adds is limited, the animation alone is never changed).
typedef enum ob_limit_from { OB_LIMIT_FROM_SETUP = 0, OB_LIMIT_FROM_POSE = 1 } ob_limit_from;
/// A joint limit: the bone's local rotation minus the reference rotation is
/// held to [min, max] degrees (compared by direction: 370 is 10).  It clamps
/// after the offsets, and again after a reach moved the bone.
ob_status ob_instance_set_joint_limit(ob_instance *inst, int bone, double min, double max, ob_limit_from from);
ob_status ob_instance_clear_joint_limit(ob_instance *inst, int bone);
/// 1 and the limit when the bone has one, else 0.
int ob_instance_get_joint_limit(const ob_instance *inst, int bone, double *min, double *max, ob_limit_from *from);

/// A reach: a two-bone IK of the limb upper → lower → tip toward a target,
/// blended with the FK pose by weight.  The target is (x, y) in bone
/// `space`'s frame (−1: world coordinates) plus (ox, oy) along bone
/// `offset_space`'s axes (−1: world axes).  Each of the two bones' local
/// rotations moves from its FK value by weight × the change the full solve
/// makes (wrapped to ±180): 1 is the solve, 0.5 half-way in angle.  The solve
/// puts the tip on the target when it is in reach (else as near as the
/// straightened or folded limb gets, on the line to it) and leaves the tip
/// bone's own local pose alone.
typedef struct ob_reach_def {
    int upper, lower;   /* the limb's bones; lower descends from upper */
    int tip;            /* a bone descending from lower whose origin is the tip; −1: the end of lower (its length) */
    int space;          /* the target's frame: a bone, or −1 for world coordinates */
    double x, y;
    int offset_space;   /* the offset's axes: a bone, or −1 for world axes */
    double ox, oy;
    double weight;      /* held to 0..1; 0 leaves the limb alone */
    int bend;           /* +1: the lower bone turns counter-clockwise from the upper one, −1 clockwise, as seen
                        ** in the upper bone's parent frame; 0: the side the FK pose bends to (the other side
                        ** when that breaks the lower bone's joint limit and the other keeps it) */
} ob_reach_def;
/// upper = lower = tip = space = offset_space = −1, zeros, weight 1, bend 0.
ob_reach_def ob_default_reach_def(void);
/// Sets the reach of def->upper (replacing its earlier one in place; reaches
/// run in the order they were first set).
ob_status ob_instance_set_reach(ob_instance *inst, const ob_reach_def *def);
ob_status ob_instance_clear_reach(ob_instance *inst, int upper);
int ob_instance_reach_count(const ob_instance *inst);
ob_status ob_instance_get_reach(const ob_instance *inst, int i, ob_reach_def *out);
/// Removes every offset, limit and reach.
void ob_instance_clear_layer(ob_instance *inst);

/// §3.2 skeleton placement: root = [scale_x 0; 0 scale_y | x, y] (identity
/// by default; scale_x = −1 mirrors the skeleton).  The scales are also the
/// placement factors of the §7 unit scale.
void ob_instance_set_placement(ob_instance *inst, double x, double y, double scale_x, double scale_y);
void ob_instance_get_placement(const ob_instance *inst, double *x, double *y, double *scale_x, double *scale_y);

/* ---- many instances (batch.c): one call steps a list across threads ---- */

/// A pool of threads that steps many instances per call.  Each instance is
/// advanced exactly as ob_instance_advance advances it alone (same bits,
/// whatever the thread count or order).  threads: 0 = the CPUs the process
/// may run on (its affinity, else the online cores), 1 = the calling thread
/// only, at most 256; the calling thread always works too, so threads - 1 are
/// started here; they spin 50 us after a call, then sleep (never spin when
/// threads exceed those CPUs), and on Linux a call keeps them off the calling
/// thread's CPU (their affinity; the caller's is not touched).  Calls on
/// one batch are serialised; a call allocates nothing after the first call of
/// its size.  An instance may be in one batch call at a time and must not be
/// used elsewhere during it; instances with a script host are stepped on the
/// pool's threads, so the host must then be thread-safe.
typedef struct ob_batch ob_batch;
ob_batch *ob_batch_create(int threads, ob_error *err);
void ob_batch_free(ob_batch *batch);
int ob_batch_threads(const ob_batch *batch);
/// ob_instance_advance(insts[i], dt) for every i.  A dt ob_instance_advance
/// refuses, a NULL instance or one named twice: OB_ERR_ARGUMENT with err
/// filled, before any instance moves.
ob_status ob_batch_advance(ob_batch *batch, ob_instance *const *insts, size_t n, double dt, ob_error *err);
/// ob_instance_bake(insts[i], dt, steps, out[i]) for every i: out[i] holds
/// steps * bones * 6 doubles.  Refused like ob_batch_advance, and for
/// steps < 0 or a NULL out[i] when steps > 0.
ob_status ob_batch_bake(ob_batch *batch, ob_instance *const *insts, size_t n, double dt, int steps,
                        double *const *out, ob_error *err);
/// Per thread slot (0 = the calling thread, then the pool's): CPU seconds
/// spent in batch calls and instances stepped, summed since creation.
ob_status ob_batch_thread_stats(ob_batch *batch, int slot, double *cpu_seconds, uint64_t *instances);

#ifdef __cplusplus
}
#endif
#endif
