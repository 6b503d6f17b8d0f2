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

/// §3 advance(dt): the per-frame pipeline.
void ob_instance_advance(ob_instance *inst, double dt);

/// World matrices, 6 doubles per bone [a, b, c, d, x, y], document order.
/// The pointer stays valid for the instance's life.
const double *ob_instance_world(const ob_instance *inst);

/// Active flags per bone (§3.3), 1 byte each.
const uint8_t *ob_instance_active_bones(const ob_instance *inst);

/// Summed clock time (§12: dt summed exactly as given).
double ob_instance_time(const ob_instance *inst);

#ifdef __cplusplus
}
#endif
#endif
