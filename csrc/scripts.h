/* scripts.h: the §11 script host interface.  The C core knows nothing of
** JavaScript: a host (QuickJS from Python in openbone/scripting.py, or any
** embedding's engine) plugs in through this struct of callbacks.  Arguments
** and results cross as JSON text, as in the reference (undefined fields
** disappear).
**
** Budgets (§11): a load may run for OB_SCRIPT_LOAD_MS, a call for
** OB_SCRIPT_CALL_MS; the host enforces them.  Errors and timeouts are the
** host's to report (as "error" log records, ob_sm_log_record) and are
** swallowed: the machine keeps running. */
#ifndef OB_SCRIPTS_H
#define OB_SCRIPTS_H

#include <stdint.h>

#include "instance.h"

#define OB_SCRIPT_CALL_MS 16
#define OB_SCRIPT_LOAD_MS 50

typedef struct ob_script_host {
    void *ud;
    /// Compiles and runs a script's top level (budget OB_SCRIPT_LOAD_MS);
    /// returns a handle ≥ 0, or -1 on error (reported by the host).
    int32_t (*load)(void *ud, int32_t script, const char *name, const char *code);
    /// Calls global function fn of a loaded script with a JSON array of
    /// arguments (budget OB_SCRIPT_CALL_MS).  A missing function does nothing.
    /// Returns 0 (ok or missing) or -1 (error/timeout, reported by the host).
    int (*call)(void *ud, int32_t handle, const char *fn, const char *json_args);
    /// Frees one loaded script.
    void (*free)(void *ud, int32_t handle);
    /// Releases the host itself (the instance is freed or another host set).
    void (*destroy)(void *ud);
} ob_script_host;

/// Plugs a host in (copied; NULL = scripts disabled).  The previous host,
/// if any, has its scripts freed and is destroyed.
void ob_sm_set_script_host(ob_instance *inst, const ob_script_host *host);

/* Used by state_machine.c (§9.1, §9.2, §11 hooks). */
/// §9.1 step 1: loads every machine script and calls onStart (or logs once
/// that scripts are disabled).
void ob_scripts_start(ob_instance *inst);
/// §9.2: loads the state's scripts fresh into the layer and calls onStart.
void ob_scripts_enter_state(ob_instance *inst, int32_t layer);
/// §9.2: disposes the layer's current-state scripts.
void ob_scripts_exit_state(ob_instance *inst, int32_t layer);
/// §9.1 step 4 onUpdate(dt): machine scripts, then each layer's current-state scripts.
void ob_scripts_update(ob_instance *inst, double dt);
/// §9.1 step 3: machine scripts onPointer({type, x, y}).
void ob_scripts_pointer(ob_instance *inst, const char *type, double x, double y);
/// §9.1 step 13: onEvent(e) for machine scripts, then current-state scripts.
void ob_scripts_event(ob_instance *inst, const char *json_event);
/// §9.5 runScript: the machine-level handle of `script` (document index), fn.
void ob_scripts_run(ob_instance *inst, int32_t script, const char *fn);
/// §9.1 step 9: bone props, slot colour and attachment overrides.
void ob_scripts_apply_overrides(ob_instance *inst);
/// Whether any machine or state script is loaded.
int ob_scripts_loaded(const ob_instance *inst);
/// Frees every handle (instance freed / machine replaced).
void ob_scripts_release(ob_instance *inst);

/* The `ob` global's effects, called back by the host during a call. */
/// ob.setBone(n, props): mask of (1 << OB_P_*) set in `values` merged into the override.
void ob_script_set_bone(ob_instance *inst, int32_t bone, unsigned mask, const ob_pose *values);
/// ob.slot(n, {color, attachment}): has_color with RGBA; has_attachment with a name id (-1 none).
void ob_script_set_slot(ob_instance *inst, int32_t slot, int has_color, const double color[4], int has_attachment,
                        int32_t attachment);
/// Drops every override (host clearOverrides()).
void ob_script_clear_overrides(ob_instance *inst);

#endif
