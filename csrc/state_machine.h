/* state_machine.h: §9 StateMachineInstance (state-machine.ts): inputs,
** layers of states and transitions, listeners and pointer hit testing
** (listeners.c), input bindings (bindings.c), the §10 audio director of the
** machine and the §11 script hooks (scripts.c).
**
** One machine runs per instance (inst->sm, NULL when none).  Every buffer is
** sized when the machine is started (ob_sm_start): advancing allocates
** nothing, except the record pools (events with their strings, log records)
** which grow only when more records are emitted between two reports than
** ever before. */
#ifndef OB_STATE_MACHINE_H
#define OB_STATE_MACHINE_H

#include "audio.h"
#include "instance.h"
#include "jsnum.h"

#define OB_SM_MAX_POINTER 64     /* queued pointer events between two advances */
#define OB_SM_HOPS 4             /* §9.3 settle: up to 4 hops per layer */

/// A live input value: JS semantics of the value kinds (a bool input may hold
/// a number when its default was one, as in the reference).
typedef struct ob_sm_value {
    ob_value_kind kind;          /* OB_VAL_NULL = undefined */
    double number;               /* number, or bool 0/1 */
    char *string;                /* owned, NUL-terminated (kind STRING) */
    size_t capacity;
} ob_sm_value;

/// A state instance (§9: time = 0, prevTime = −1e-6): owner of its sounds.
typedef struct ob_sm_state_inst {
    int32_t state;               /* index in the layer's states, -1 = none */
    double time, prev_time;
    uint64_t serial;             /* audio owner (§10), unique per instance */
} ob_sm_state_inst;

/// §9 layer: current, from, mixTime, mixDuration, exited.
typedef struct ob_sm_layer {
    ob_sm_state_inst current, from;
    double mix_time, mix_duration;
    int exited;
    int32_t script_count;        /* §11 the current state's script handles */
    int32_t *scripts;            /* capacity: the layer's largest state script list */
} ob_sm_layer;

typedef enum ob_sm_pointer_type { OB_PTR_DOWN = 0, OB_PTR_UP, OB_PTR_MOVE } ob_sm_pointer_type;
typedef struct ob_sm_pointer_event { ob_sm_pointer_type type; double x, y; } ob_sm_pointer_event;

/// A queued or reported event (§9.4 animation events, §9.5 reportEvent,
/// §11 emit).  Strings are offsets into the pool of the record list.
typedef struct ob_sm_event {
    int32_t event;               /* document event index, -1 (script emit of an unknown name) */
    int32_t animation;           /* animation index (animation events), -1 */
    double time, int_value, float_value;
    size_t name, id, string;     /* pool offsets */
    int has_audio;               /* the event's audio (for onEvent) */
} ob_sm_event;

/// Log records (stateChange, inputChange, script log/error, notes).
typedef struct ob_sm_log {
    size_t type, text;           /* pool offsets */
    int32_t layer;               /* stateChange: layer index, else -1 */
    double time;                 /* elapsed when emitted */
} ob_sm_log;

/// A growable string pool (offsets stay valid when it grows).
typedef struct ob_sm_pool { char *data; size_t length, capacity; } ob_sm_pool;

struct ob_script_host;

typedef struct ob_sm_state {
    const ob_machine_data *machine;
    int32_t machine_index;
    int started;                 /* §9.1 step 1 done */
    double elapsed;
    uint64_t next_serial;

    /* inputs (§9), in the machine's order */
    ob_sm_value *values;
    uint8_t *fired;              /* triggers fired until step 6 */
    double *input_numbers;       /* §9.1 step 10 skeleton.inputValues (number inputs) */
    uint8_t *input_number_set;

    ob_sm_layer *layers;
    int32_t *blend_order;        /* scratch for §9.4 stable sorts, max entry count */

    /* §9.5 pointer */
    int32_t pointer_count;
    ob_sm_pointer_event pointers[OB_SM_MAX_POINTER];
    int32_t pointers_dropped;
    double pointer_x, pointer_y;
    int pointer_down;
    uint8_t *hovered, *pressed;  /* per listener */
    float *hit_vertices;         /* world polygon scratch (2 floats per point) */
    double *hit_scratch;
    int32_t hit_capacity;        /* points */
    int32_t *hit_names;          /* §9.5 key-order scratch (name ids) */
    int32_t hit_names_capacity;

    /* §9.5 setMute state: per bus, and the master */
    uint8_t *bus_muted;
    int master_muted;

    /* §10 audio of the machine */
    ob_audio_director audio;

    /* §9.4/§9.5/§11 events queued for step 13, and the report of the last advance */
    int32_t pending_count, pending_capacity;
    ob_sm_event *pending;
    ob_sm_pool pending_pool;
    int32_t report_count, report_capacity, reported;
    ob_sm_event *report;
    ob_sm_pool report_pool;

    /* log records, kept until ob_sm_take_log */
    int32_t log_count, log_capacity, log_dropped;
    ob_sm_log *log;
    ob_sm_pool log_pool;

    /* §11 scripts */
    struct ob_script_host *host; /* NULL: scripts disabled */
    int32_t *machine_scripts;    /* per machine script: host handle, -1 */
    int scripts_reported;        /* "scripts disabled" logged once */
    /* §11 persistent overrides (step 9) */
    uint8_t *bone_override;      /* per bone: mask of (1 << OB_P_*) set */
    ob_pose *bone_override_value;
    uint8_t *slot_color_override;
    double *slot_color_value;    /* 4 per slot */
    uint8_t *slot_attachment_override;
    int32_t *slot_attachment_value; /* name id, -1 = none */
} ob_sm_state;

/* ---- state_machine.c ------------------------------------------------ */

/// Starts machine `machine` (index) on the instance: inputs at their
/// defaults; the §9.1 step-1 start() runs at the first advance.  -1 when the
/// index is bad or memory runs out.  A running machine is replaced.
int ob_sm_start(ob_instance *inst, int32_t machine);
/// The running machine's state, NULL when none.
static inline ob_sm_state *ob_sm(const ob_instance *inst) { return inst->sm; }

/// An input by id or name (§9.5: the first input whose id or name matches), -1.
int32_t ob_sm_find_input(const ob_sm_state *sm, const char *ref);
/// §9.5 setInput(input index, value): trigger ⇒ fire; string ⇒ String(v);
/// bool ⇒ "true" or truthiness; number ⇒ Number(v), ignored if not finite.
/// Returns 1 when the value changed (inputChange), else 0.
int ob_sm_set_input(ob_instance *inst, int32_t input, const ob_value *value);
/// §9.5 fire: marks a trigger fired until step 6 (non-triggers: nothing).
void ob_sm_fire(ob_instance *inst, int32_t input);
/// The live value of an input (triggers read false).
ob_value ob_sm_input_value(const ob_instance *inst, int32_t input);
/// §9.3 conditionPasses (exposed for tests through the binding).
int ob_sm_condition_passes(const ob_sm_state *sm, const ob_condition *c);
/// §9.1 step 10 skeleton.inputValues[input id] (sliders, §7.5): 1 and *v when set.
int ob_sm_input_number(const ob_instance *inst, const char *input_id, double *v);
/// §8.9 lookup(name) with a running machine: its input by id or name
/// (triggers read false).  Returns 0 when no machine runs.
int ob_sm_text_lookup(const ob_instance *inst, const char *name, ob_tvalue *out);

/// Queues an event for step 13 (listener reportEvent, script emit).
void ob_sm_queue_event(ob_instance *inst, int32_t event, const char *name, const char *id, double int_value,
                       double float_value, const char *string_value);
#define OB_SM_LOG_MAX 10000          /* records kept between two takes */
#define OB_SM_LOG_BYTES (1 << 20)    /* bytes of text kept between two takes */
#define OB_SM_LOG_TEXT_MAX 16384     /* bytes of one record's text */
/// Appends a log record (type "stateChange", "inputChange", "log", "error", "warning").
void ob_sm_log_record(ob_instance *inst, const char *type, const char *text, int32_t layer);
/// Pool strings.
static inline const char *ob_sm_str(const ob_sm_pool *p, size_t off) { return p->data + off; }

/// The events of the last advance (count in *n), strings in the report pool.
const ob_sm_event *ob_sm_events(const ob_instance *inst, int32_t *n);
/// Plays an event's audio (§9.4 / §9.5: unowned or owned).
void ob_sm_play_event_audio(ob_instance *inst, int32_t event, uint64_t owner);

/// activeStates[layer]: "exit", the current state's name, or NULL.
const char *ob_sm_active_state(const ob_instance *inst, int32_t layer);

/* ---- listeners.c (§9.5) --------------------------------------------- */

/// pointer(type, x, y): queues the event in skeleton space (dropped, and
/// counted, past OB_SM_MAX_POINTER queued events).
void ob_sm_pointer(ob_instance *inst, ob_sm_pointer_type type, double x, double y);
/// §9.1 step 3 processPointer.
void ob_sm_process_pointer(ob_instance *inst);
/// §9.5 hitTest(slot) on the current world pose.
int ob_sm_hit_test(ob_instance *inst, int32_t slot, double x, double y);

/* ---- bindings.c (§9.6) ---------------------------------------------- */

/// §9.6 bindingT.
double ob_binding_t(double v, double in_min, double in_max);
/// §9.1 step 11 applyBindings.
void ob_sm_apply_bindings(ob_instance *inst);

/* ---- JS value helpers (state_machine.c) ------------------------------ */

/// Number(v) of a JS scalar (null ⇒ 0, undefined ⇒ NaN, strings parsed as JS does).
double ob_js_number(const ob_value *v);
/// Number(string) (StringToNumber): trims, "" ⇒ 0, 0x/0o/0b, Infinity, else NaN.
double ob_js_parse_number(const char *s);
/// JS truthiness of a scalar.
int ob_js_truthy(const ob_value *v);

#endif
