/* jabbertoon.h: the public C API of the Jabbertoon block-language runtime.
**
** A program (jt_program) is Jabbertoon program JSON (§1) parsed once with
** cJSON, validated (§1, §2, §4, §5, §8.6), desugared (friendly blocks of §4
** and §8 become the primitive blocks of §3) and compiled (every "=formula"
** becomes bytecode once); it is immutable afterwards and any number of
** runtimes may run it.  A runtime (jt_runtime) is the discrete-event
** scheduler of §0: characters, behaviour instances, threads, motions, the
** 240 Hz follow grid, the pose.  Handles are opaque, every create has a
** matching free, nothing here keeps global state, and once a program has
** started nothing allocates per step.  Functions that can fail return a
** jt_status and fill the runtime's (or the caller's) message.
** Section numbers (§) refer to the Jabbertoon block-language text.
*/
#ifndef JABBERTOON_H
#define JABBERTOON_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct jt_program jt_program;
typedef struct jt_runtime jt_runtime;

typedef enum jt_status {
    JT_OK = 0,
    JT_ERR_INVALID,   /* an invalid program (validation errors) */
    JT_ERR_ARGUMENT,  /* a bad argument: unknown character, step backwards ... */
    JT_ERR_RUN,       /* a formula or block failed while running (§5 unknown name) */
    JT_ERR_MEMORY
} jt_status;

/* ---- Programs (§1) ------------------------------------------------------ */

/// One validation message: "path: text" with a dotted path (§1).
typedef struct jt_diag {
    int error;            /* 1 = error, 0 = warning */
    const char *message;  /* owned by the diagnostics list */
} jt_diag;

/// The messages of one validation, owned by the caller (jt_diags_free).
typedef struct jt_diags jt_diags;
int jt_diags_count(const jt_diags *d);
const jt_diag *jt_diags_get(const jt_diags *d, int i);
int jt_diags_errors(const jt_diags *d);
void jt_diags_free(jt_diags *d);

/// Validates and compiles program JSON (UTF-8, len bytes).  Returns NULL when
/// the program is invalid (or not JSON), with the messages in *diags (when
/// diags is not NULL); on success *diags holds the warnings.
jt_program *jt_program_load(const char *json, size_t len, jt_diags **diags);
void jt_program_free(jt_program *p);

/// "behaviour", "scene" or "cartoon".
const char *jt_program_kind(const jt_program *p);

/* ---- Runtimes (§6) ------------------------------------------------------ */

/// §7.4 the speech provider: the length in seconds of a line.  Returns 0 with
/// *seconds set (the runtime checks it is a finite number >= 0), or -1 when it
/// failed, with a reason in why (the runtime then uses the default rule and
/// warns).  Asked once per distinct line and options.
typedef struct jt_speech_opts {
    const char *who, *voice, *mood;  /* NULL when not given */
    int has_speed, has_pitch;
    double speed, pitch;
} jt_speech_opts;
typedef int (*jt_speech_fn)(void *ud, const char *text, const jt_speech_opts *opts, double *seconds, char *why,
                            size_t whycap);

/// §7.5 the packs provider: the program JSON (or pack JSON, whose content is
/// used) of a pack id; version may be NULL.  Returns malloc'd UTF-8 text that
/// the runtime frees, or NULL when the pack is missing (a reason in why).
typedef char *(*jt_packs_fn)(void *ud, const char *id, const char *version, char *why, size_t whycap);

/// createRuntime options (§6).  jt_runtime_def_default() gives the defaults.
typedef struct jt_runtime_def {
    int live;             /* clock: 0 timeline, 1 live (no block behaves differently) */
    double seed;          /* random: mulberry32 seeded with ToUint32(seed) */
    double fps;           /* 24: the cartoon plan's frame grid (§7.7) */
    double aspect;        /* 16/9: off-stage positions (§7.2) */
    double max_duration;  /* 3600: the plan's horizon; step_to(Infinity)'s limit */
    jt_speech_fn speech; void *speech_ud;
    jt_packs_fn packs; void *packs_ud;
    volatile int *interrupt;  /* NULL, or the host's flag: set (e.g. by a provider that was interrupted),
                                 the cartoon being planned or played fails at once ("interrupted") */
} jt_runtime_def;
jt_runtime_def jt_runtime_def_default(void);

jt_runtime *jt_runtime_create(const jt_runtime_def *def);
void jt_runtime_free(jt_runtime *rt);

/// The message of the last failed call on rt.
const char *jt_runtime_error(const jt_runtime *rt);

/// addCharacter(id, {legs}); an existing id keeps its state and takes legs.
jt_status jt_add_character(jt_runtime *rt, const char *id, int legs);
/// Index of a character (in the order added), -1 when unknown.
int jt_character_index(const jt_runtime *rt, const char *id);
int jt_character_count(const jt_runtime *rt);
const char *jt_character_id(const jt_runtime *rt, int index);

/// A caller's param (§1): a name and a number.
typedef struct jt_param {
    const char *name;
    double value;
} jt_param;

/// startBehaviour(char, program, {dur, params}): runs the start-hat scripts
/// at rt.t.  dur: INFINITY when not given.  Returns the instance id (> 0) in
/// *instance.
jt_status jt_start_behaviour(jt_runtime *rt, const char *char_id, const jt_program *p, double dur,
                             const jt_param *params, int nparams, uint64_t *instance);
/// stopBehaviour(inst): its threads, motions, base values, reach and view go.
jt_status jt_stop_behaviour(jt_runtime *rt, uint64_t instance);

/// setInputs(id, {loud, talking}); has_* says which are given.
jt_status jt_set_inputs(jt_runtime *rt, const char *char_id, int has_loud, double loud, int has_talking,
                        double talking);

/// emit(event, {charId, key, name}): char_id NULL = every character.
jt_status jt_emit(jt_runtime *rt, const char *event, const char *char_id, const char *key, const char *name);

/// stepTo(T) (T >= rt.t) and step(dt).
jt_status jt_step_to(jt_runtime *rt, double T);
jt_status jt_step(jt_runtime *rt, double dt);

/// rt.t, rt.polled (a thread has yielded to a step), rt.inputsRead (a block
/// or tick has read loud/talking), and whether a pose has drawn random.
double jt_runtime_time(const jt_runtime *rt);
int jt_runtime_polled(const jt_runtime *rt);
int jt_runtime_inputs_read(const jt_runtime *rt);
int jt_runtime_pose_drew_random(const jt_runtime *rt);

/// rt.vars, the page's globals (§5).  get returns 0 when absent.
jt_status jt_global_set(jt_runtime *rt, const char *name, double value);
int jt_global_get(const jt_runtime *rt, const char *name, double *value);
jt_status jt_global_delete(jt_runtime *rt, const char *name);
int jt_global_count(const jt_runtime *rt);
/// The i-th present global (0 <= i < count), in the order first set.
const char *jt_global_name(const jt_runtime *rt, int i, double *value);

/* ---- The pose (§2, §8) -------------------------------------------------- */

typedef enum jt_view { JT_VIEW_NONE = -1, JT_VIEW_FRONT = 0, JT_VIEW_SIDE = 1, JT_VIEW_BACK = 2 } jt_view;

/// One pose.reach entry: limb "hand:1" etc.; spot NULL for a point {x, y, w}.
typedef struct jt_reach {
    const char *limb;   /* "hand:-1" "hand:1" "foot:-1" "foot:1" */
    const char *spot;   /* "hip" "head" "chest" "mouth", or NULL: a point */
    int has_offset;     /* {spot, dx, dy, w} */
    double x, y, dx, dy, w;
} jt_reach;

/// rt.pose(id).  The part arrays point into the runtime and stay valid until
/// the next pose or step call.  channel ids name part:/lift: channels
/// (jt_channel_name); they list every channel some live base value or motion
/// writes, in combining order.
typedef struct jt_pose {
    double dx, dy, sx, sy, rot, mouth, blink;
    const char *mood;  /* NULL = null */
    jt_view view;
    int nchannels;
    const int32_t *channel;
    const double *value;
    int nreach;
    jt_reach reach[4];
} jt_pose;
jt_status jt_pose_read(jt_runtime *rt, int character, jt_pose *out);

/// The name of a runtime channel id ("part:arm:-1", "lift:hand:1#2").
const char *jt_channel_name(const jt_runtime *rt, int32_t id);
/// A channel's parts: is_lift, role ("arm"), side (-1, 0, 1), index (-1: none).
int jt_channel_parts(const jt_runtime *rt, int32_t id, int *is_lift, const char **role, int *side, int *index);

/* ---- Scenes and cartoons (§7) ------------------------------------------------ */

/// cartoonProgram(content): a cartoon pack's content {cast?, places?, program}
/// (or a whole pack {content}) as one program, the outer cast and places merged
/// in; any other program is returned as it is.  malloc'd JSON, NULL with a
/// message in err (errcap bytes) when the text is not JSON.
char *jt_cartoon_program(const char *json, size_t len, char *err, size_t errcap);

/// startCartoon(program | content, {params}): plans the cartoon on a twin
/// runtime (§7.7), then starts it at rt.t.  On failure no cartoon is running
/// (§6).  *duration: the cartoon's length, NAN when it does not end within
/// max_duration.
jt_status jt_start_cartoon(jt_runtime *rt, const char *json, size_t len, const jt_param *params, int nparams,
                           double *duration);

/// rt.duration (NAN: null or no cartoon yet), and whether a cartoon is running.
double jt_cartoon_duration(const jt_runtime *rt);
int jt_cartoon_running(const jt_runtime *rt);

/// One rt.timeline record (§7.7); strings NULL when the record has no such field.
typedef struct jt_record_view {
    const char *kind;                 /* scene say does caption cut place enter exit mood */
    double t, dur;
    const char *who, *name, *place, *grade, *text, *voice, *mood, *side;  /* side: enter's from, exit's to */
    const char *behaviour;            /* does: the behaviour as written (JSON) */
    int also;
    int has_x, has_y, has_h, has_facing, has_speed, has_pitch;
    double x, y, h, facing, speed, pitch;
} jt_record_view;
int jt_timeline_count(const jt_runtime *rt);
int jt_timeline_get(const jt_runtime *rt, int i, jt_record_view *out);
/// The records the run itself wrote so far (the plan's are rt.timeline): equal when the run follows the plan.
int jt_run_timeline_count(const jt_runtime *rt);
int jt_run_timeline_get(const jt_runtime *rt, int i, jt_record_view *out);

/// rt.warnings (§7.6 and the providers' fallbacks), oldest first.
int jt_warning_count(const jt_runtime *rt);
const char *jt_warning_get(const jt_runtime *rt, int i);

/// rt.frame() (§7.8): the stage now, and each character's placement.
typedef struct jt_stage_view {
    double t;
    const char *scene, *place, *background, *grade, *caption;  /* NULL = null */
} jt_stage_view;
jt_status jt_stage_read(jt_runtime *rt, jt_stage_view *out);
typedef struct jt_placement {
    double x, y, h, facing;
    int visible, talking;
} jt_placement;
jt_status jt_placement_read(jt_runtime *rt, int character, jt_placement *out);

/// The director's working state, for the §7.7 bounds: live items (does and
/// captions still running, lines), captions kept for display, scopes with
/// open records, event queue entries.
typedef struct jt_director_stats {
    int live_items, displayed_captions, open_scopes, queue, open_records;
} jt_director_stats;
void jt_director_stats_read(const jt_runtime *rt, jt_director_stats *out);

/// estimateSpeech(text, {speed}): §7.4's default rule (0.06 s per UTF-16 unit
/// + 0.25 s, at least 0.6 s, divided by speed).
double jt_estimate_speech(const char *text, double speed);

#ifdef __cplusplus
}
#endif

#endif
