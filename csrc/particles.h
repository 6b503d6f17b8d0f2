/* particles.h: §8.8 particle emitters (particles.ts, skeleton.ts:stepParticles,
** advanceParticles, particleItem).
**
** One emitter per slot, created by the realtime clock (§3.2 calls
** ob_particles_advance) when the slot shows a particles attachment.  Each
** slot owns a particle buffer sized at instance creation for the largest
** maxParticles among the particles attachments it can show, so stepping
** allocates nothing (a buffer grows only for documents whose counts break the
** maxParticles bound, e.g. negative bursts; such growths are counted).
**
** §12 float32 storage: every per-particle field (position, velocity, age,
** life, sizes, rotations, spin) is stored as float; each statement of the
** spec computes in double and rounds once when it stores.  Emitter state
** (cycle, acc, pending, last position, the clock's frac) is double. */
#ifndef OB_PARTICLES_H
#define OB_PARTICLES_H

#include "instance.h"

/* §8.8 realtime clock step and the per-frame step cap. */
#define OB_PARTICLE_STEP (1.0 / 60.0)
#define OB_PARTICLE_MAX_STEPS 30
/* §8.8 geometry draws at most this many particles per item. */
#define OB_PARTICLES_MAX_DRAWN 16383

typedef struct ob_emitter_particle { /* §12: float32 particle buffer */
    float x, y, vx, vy;          /* world space, or slot-bone space when local */
    float age, life;
    float size0, size1, rot0, rot1, spin;
} ob_emitter_particle;

typedef struct ob_emitter {
    int32_t attachment;          /* doc attachment index, -1 = no emitter */
    uint32_t rng;                /* mulberry32 state */
    int64_t steps;
    int was_emitting;
    double cycle, acc, pending;
    int has_last;
    double last_x, last_y;
    int32_t count, capacity;
    ob_emitter_particle *particles; /* the slot's buffer */
} ob_emitter;

typedef struct ob_particle_state {
    double frac;                 /* §8.8 clock remainder, in [0, STEP] */
    ob_emitter *emitters;        /* per slot; NULL when the document has no particles (any == 0) */
    double *pending;             /* per slot: emitParticles counts for the next step */
    int8_t *override;            /* per slot: setEmitter override, -1 none, 0 off, 1 on */
    int32_t *max_quads;          /* per slot: most particles one item can draw */
    int32_t *frame_att;          /* per slot: particles attachment this frame, -1 (scratch); NULL as emitters */
    uint64_t growths;            /* buffer growths after creation (0 for sane documents) */
    int any;                     /* the document has a particles attachment (else steps are no-ops) */
} ob_particle_state;

/* ---- hooks (instance.h) -------------------------------------------- */
/* int ob_particles_create(ob_instance *inst);
** void ob_particles_free(ob_instance *inst);
** void ob_particles_advance(ob_instance *inst, double dt);  §8.8 realtime clock */

/* ---- actions (§9.5 listener actions, FORMAT.md setEmitter/emitParticles) */

/// Adds count to the slot's pending emitParticles count, used at its next
/// particle step.  Out-of-range slots are ignored.
void ob_particles_emit(ob_instance *inst, int32_t slot, double count);

/// Sets the slot's emitter override (applied to particleValues[slot].emitting
/// every frame, §9.1 step 10).  Switching on restarts the slot's emitter when
/// the previous value (the last override, else the current attachment's
/// emitting) was off.
void ob_particles_set_emitter(ob_instance *inst, int32_t slot, int emitting);

/// Drops every override (the host's clearOverrides).
void ob_particles_clear_overrides(ob_instance *inst);

/// §9.1 step 10: writes the emitter overrides into particleValues.  Called
/// by ob_particles_advance before it steps; a state machine may call it at
/// its step 10 too (idempotent).
void ob_particles_apply_overrides(ob_instance *inst);

/// Number of live particles in the slot's emitter (0 without one).
int32_t ob_particles_count(const ob_instance *inst, int32_t slot);

/// The slot's emitter, NULL when it has none.
const ob_emitter *ob_particles_emitter(const ob_instance *inst, int32_t slot);

/* ---- geometry (§8.8 geometry/particleItem) ------------------------- */

/// Most particles an item of this slot can draw (min(16383, buffer size));
/// a caller sizes its buffers for 4 vertices and 6 indices per particle.
/// Depends only on the document, so buffers can be sized at creation.
int32_t ob_particles_max_quads(const ob_instance *inst, int32_t slot);

/// Writes the §8.8 geometry of the slot's current particles attachment:
/// per drawn particle 4 vertices (vertices, uvs: 2 floats each; colors: RGBA,
/// 4 floats each) and 6 indices base + [0,1,2,0,2,3] where base starts at
/// base_vertex.  *texture gets the atlas.h texture id (OB_TEXTURE_NONE for
/// null).  Returns the number of particles drawn; 0 means no item (no emitter
/// for this attachment, nothing visible, inactive bone, or an image look whose
/// image is missing).  Reads inst's current pose; writes nothing else.
int32_t ob_particles_geometry(const ob_instance *inst, int32_t slot, float *vertices, float *uvs,
                              float *colors, uint32_t *indices, uint32_t base_vertex, int32_t *texture);

#endif
