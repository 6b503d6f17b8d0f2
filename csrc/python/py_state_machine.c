/* py_state_machine.c: Instance methods of the §9 state-machine concern:
** starting a machine, inputs, pointer events, active states, the events,
** audio commands and log records of the machine, and the §11 script host
** plumbing (a Python host object plugged in as an ob_script_host).
** Names and conveniences live in openbone/state_machine.py. */
#include "obpy.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "../scripts.h"
#include "../state_machine.h"

typedef obpy_instance InstanceObject;

#define NEED_INST(self) OBPY_NEED_INST(self)
#define NEED_SM(self)                                                                   \
    NEED_INST(self);                                                                    \
    if (!(self)->inst->sm) { PyErr_SetString(obpy_error, "no state machine is running"); return NULL; }

/* A Python scalar as a JS scalar: bool, int/float, str, None (null). */
static int to_value(PyObject *o, ob_value *v)
{
    *v = (ob_value){OB_VAL_NULL, 0, NULL};
    if (o == Py_None) return 0;
    if (PyBool_Check(o)) {
        v->kind = OB_VAL_BOOL;
        v->number = o == Py_True;
        return 0;
    }
    if (PyLong_Check(o) || PyFloat_Check(o)) {
        v->kind = OB_VAL_NUMBER;
        return obpy_double(o, "set_input", &v->number);  /* 10**400: OpenBoneError */
    }
    if (PyUnicode_Check(o)) {
        v->kind = OB_VAL_STRING;
        v->string = PyUnicode_AsUTF8(o);
        if (!v->string && PyErr_ExceptionMatches(PyExc_UnicodeEncodeError)) {
            PyErr_Clear();
            PyErr_SetString(obpy_error, "set_input: the string is not valid Unicode (a lone surrogate)");
        }
        return v->string ? 0 : -1;
    }
    PyErr_Format(PyExc_TypeError, "set_input: expected a bool, number, string or None, got %.100s",
                 Py_TYPE(o)->tp_name);
    return -1;
}

static PyObject *from_value(ob_value v)
{
    switch (v.kind) {
    case OB_VAL_NUMBER: return PyFloat_FromDouble(v.number);
    case OB_VAL_BOOL: return PyBool_FromLong(v.number != 0);
    case OB_VAL_STRING: return PyUnicode_FromString(v.string ? v.string : "");
    case OB_VAL_NULL: break;
    }
    Py_RETURN_NONE;
}

static PyObject *sm_start(InstanceObject *self, PyObject *arg)
{
    NEED_INST(self);
    long m = PyLong_AsLong(arg);
    if (m == -1 && PyErr_Occurred()) return NULL;
    if (ob_sm_start(self->inst, (int32_t)m) < 0) {
        PyErr_SetString(obpy_error, "cannot start the state machine (bad index or out of memory)");
        return NULL;
    }
    Py_RETURN_NONE;
}

static PyObject *sm_find_input(InstanceObject *self, PyObject *arg)
{
    NEED_SM(self);
    const char *ref = PyUnicode_AsUTF8(arg);
    if (!ref) return NULL;
    return PyLong_FromLong(ob_sm_find_input(self->inst->sm, ref));
}

static PyObject *sm_set_input(InstanceObject *self, PyObject *args)
{
    NEED_SM(self);
    int i;
    PyObject *o;
    if (!PyArg_ParseTuple(args, "iO", &i, &o)) return obpy_arg_error("set_input");
    ob_value v;
    if (to_value(o, &v) < 0) return NULL;
    return PyBool_FromLong(ob_sm_set_input(self->inst, i, &v));
}

static PyObject *sm_fire(InstanceObject *self, PyObject *arg)
{
    NEED_SM(self);
    long i = PyLong_AsLong(arg);
    if (i == -1 && PyErr_Occurred()) return NULL;
    ob_sm_fire(self->inst, (int32_t)i);
    Py_RETURN_NONE;
}

static PyObject *sm_input_value(InstanceObject *self, PyObject *arg)
{
    NEED_SM(self);
    long i = PyLong_AsLong(arg);
    if (i == -1 && PyErr_Occurred()) return NULL;
    return from_value(ob_sm_input_value(self->inst, (int32_t)i));
}

static PyObject *sm_fired(InstanceObject *self, PyObject *arg)
{
    NEED_SM(self);
    long i = PyLong_AsLong(arg);
    if (i == -1 && PyErr_Occurred()) return NULL;
    const ob_sm_state *sm = self->inst->sm;
    return PyBool_FromLong(i >= 0 && i < sm->machine->input_count && sm->fired[i]);
}

static PyObject *sm_pointer(InstanceObject *self, PyObject *args)
{
    NEED_SM(self);
    int type;
    double x, y;
    if (!PyArg_ParseTuple(args, "idd", &type, &x, &y)) return obpy_arg_error("pointer");
    if (type < 0 || type > 2) {
        PyErr_SetString(PyExc_ValueError, "pointer type must be 0 (down), 1 (up) or 2 (move)");
        return NULL;
    }
    if (!isfinite(x) || !isfinite(y))
        return PyErr_Format(obpy_error, "pointer: x and y must be finite numbers, got (%R, %R)",
                            PyTuple_GET_ITEM(args, 1), PyTuple_GET_ITEM(args, 2));
    ob_sm_pointer(self->inst, (ob_sm_pointer_type)type, x, y);
    Py_RETURN_NONE;
}

static PyObject *sm_hit_test(InstanceObject *self, PyObject *args)
{
    NEED_SM(self);
    int slot;
    double x, y;
    if (!PyArg_ParseTuple(args, "idd", &slot, &x, &y)) return obpy_arg_error("hit_test");
    return PyBool_FromLong(ob_sm_hit_test(self->inst, slot, x, y));
}

static PyObject *get_sm_index(InstanceObject *self, void *c)
{
    (void)c;
    NEED_INST(self);
    return PyLong_FromLong(self->inst->sm ? self->inst->sm->machine_index : -1);
}

static PyObject *get_sm_active_states(InstanceObject *self, void *c)
{
    (void)c;
    NEED_INST(self);
    const ob_sm_state *sm = self->inst->sm;
    if (!sm) return PyList_New(0);
    PyObject *list = PyList_New(sm->machine->layer_count);
    if (!list) return NULL;
    for (int32_t l = 0; l < sm->machine->layer_count; l++) {
        const char *s = ob_sm_active_state(self->inst, l);
        PyObject *o = s ? PyUnicode_FromString(s) : Py_NewRef(Py_None);
        if (!o) { Py_DECREF(list); return NULL; }
        PyList_SET_ITEM(list, l, o);
    }
    return list;
}

static const char *const input_types[] = {"bool", "number", "string", "trigger"};

/* [(id, name, type, value)] in the machine's order (triggers read False) */
static PyObject *get_sm_inputs(InstanceObject *self, void *c)
{
    (void)c;
    NEED_INST(self);
    const ob_sm_state *sm = self->inst->sm;
    if (!sm) return PyList_New(0);
    PyObject *list = PyList_New(sm->machine->input_count);
    if (!list) return NULL;
    for (int32_t i = 0; i < sm->machine->input_count; i++) {
        const ob_input_data *in = &sm->machine->inputs[i];
        PyObject *t = Py_BuildValue("(zzsN)", in->id, in->name, input_types[in->type],
                                    from_value(ob_sm_input_value(self->inst, i)));
        if (!t) { Py_DECREF(list); return NULL; }
        PyList_SET_ITEM(list, i, t);
    }
    return list;
}

static PyObject *get_sm_elapsed(InstanceObject *self, void *c)
{
    (void)c;
    NEED_INST(self);
    return PyFloat_FromDouble(self->inst->sm ? self->inst->sm->elapsed : 0);
}

static PyObject *get_sm_pointer_state(InstanceObject *self, void *c)
{
    (void)c;
    NEED_SM(self);
    const ob_sm_state *sm = self->inst->sm;
    return Py_BuildValue("(ddO)", sm->pointer_x, sm->pointer_y, sm->pointer_down ? Py_True : Py_False);
}

static PyObject *get_sm_events(InstanceObject *self, void *c)
{
    (void)c;
    NEED_INST(self);
    int32_t n;
    const ob_sm_event *ev = ob_sm_events(self->inst, &n);
    PyObject *list = PyList_New(n);
    if (!list) return NULL;
    const ob_sm_pool *p = self->inst->sm ? &self->inst->sm->report_pool : NULL;
    for (int32_t i = 0; i < n; i++) {
        const ob_sm_event *e = &ev[i];
        PyObject *anim = e->animation >= 0 ? PyUnicode_FromString(self->inst->doc->animations[e->animation].name)
                                           : Py_NewRef(Py_None);
        PyObject *d = anim ? Py_BuildValue("{s:s,s:s,s:d,s:d,s:d,s:s,s:N}", "name", ob_sm_str(p, e->name), "id",
                                           ob_sm_str(p, e->id), "time", e->time, "int", e->int_value, "float",
                                           e->float_value, "string", ob_sm_str(p, e->string), "animation", anim)
                           : NULL;
        if (!d) { Py_DECREF(list); return NULL; }
        PyList_SET_ITEM(list, i, d);
    }
    return list;
}

static PyObject *audio_cmd(const ob_audio_cmd *c)
{
    char id[32];
    snprintf(id, sizeof id, "play_%d", (int)c->id);
    switch (c->type) {
    case OB_AUDIO_PLAY: {
        char src[512] = "";
        if (c->source.kind) snprintf(src, sizeof src, "%s:%s", c->source.kind, c->source.name ? c->source.name : "");
        return Py_BuildValue("{s:s,s:s,s:z,s:z,s:z,s:d,s:d,s:O,s:d,s:z}", "type", "play", "id", id, "sound", c->sound,
                             "asset", c->asset, "bus", c->bus, "volume", c->volume, "rate", c->rate, "loop",
                             c->loop ? Py_True : Py_False, "fadeIn", c->fade_in, "source",
                             c->source.kind ? src : NULL);
    }
    case OB_AUDIO_STOP: return Py_BuildValue("{s:s,s:s,s:d}", "type", "stop", "id", id, "fade", c->fade);
    case OB_AUDIO_FADE:
        return Py_BuildValue("{s:s,s:s,s:d,s:d}", "type", "fade", "id", id, "volume", c->volume, "duration",
                             c->duration);
    case OB_AUDIO_MIX:
        return Py_BuildValue("{s:s,s:z,s:O}", "type", "mix", "bus", c->bus, "muted", c->muted ? Py_True : Py_False);
    }
    Py_RETURN_NONE;
}

static PyObject *get_sm_audio(InstanceObject *self, void *c)
{
    (void)c;
    NEED_INST(self);
    const ob_sm_state *sm = self->inst->sm;
    int32_t n = sm ? ob_audio_report_count(&sm->audio) : 0;
    PyObject *list = PyList_New(n);
    if (!list) return NULL;
    for (int32_t i = 0; i < n; i++) {
        PyObject *d = audio_cmd(&sm->audio.cmds[i]);
        if (!d) { Py_DECREF(list); return NULL; }
        PyList_SET_ITEM(list, i, d);
    }
    return list;
}

static PyObject *sm_take_log(InstanceObject *self, PyObject *unused)
{
    (void)unused;
    NEED_INST(self);
    ob_sm_state *sm = self->inst->sm;
    if (!sm) return PyList_New(0);
    PyObject *list = PyList_New(sm->log_count);
    if (!list) return NULL;
    if (sm->log_dropped) {  /* issue 21: the caps of ob_sm_log_record, reported once per take */
        char text[160];
        snprintf(text, sizeof text, "%d log records dropped (at most %d records and %d bytes are kept between "
                 "two reads of the log)", (int)sm->log_dropped, OB_SM_LOG_MAX, OB_SM_LOG_BYTES);
        PyObject *d = Py_BuildValue("{s:s,s:s,s:O,s:d}", "type", "warning", "text", text, "layer", Py_None,
                                    "time", sm->elapsed);
        if (!d || PyList_Append(list, d) < 0) { Py_XDECREF(d); Py_DECREF(list); return NULL; }
        Py_DECREF(d);
        sm->log_dropped = 0;
    }
    for (int32_t i = 0; i < sm->log_count; i++) {
        const ob_sm_log *r = &sm->log[i];
        PyObject *layer = r->layer >= 0 ? PyLong_FromLong(r->layer) : Py_NewRef(Py_None);
        PyObject *d = layer ? Py_BuildValue("{s:s,s:s,s:N,s:d}", "type", ob_sm_str(&sm->log_pool, r->type), "text",
                                            ob_sm_str(&sm->log_pool, r->text), "layer", layer, "time", r->time)
                            : NULL;
        if (!d) { Py_DECREF(list); return NULL; }
        PyList_SET_ITEM(list, i, d);
    }
    sm->log_count = 0;
    sm->log_pool.length = 0;
    sm->log_pool.data[sm->log_pool.length++] = 0;  /* offset 0 stays "" */
    return list;
}

static PyObject *sm_log(InstanceObject *self, PyObject *args)
{
    NEED_SM(self);
    const char *type, *text;
    if (!PyArg_ParseTuple(args, "ss", &type, &text)) return obpy_arg_error(__func__);
    ob_sm_log_record(self->inst, type, text, -1);
    Py_RETURN_NONE;
}

/* §11 ob.emit(name, payload): event by name or id: play its audio; queue
** {name, id: event id ?? name, time: elapsed, payload ?? event ?? 0/""} */
static PyObject *sm_emit(InstanceObject *self, PyObject *args)
{
    NEED_SM(self);
    const char *ref;
    PyObject *pi, *pf, *ps;
    if (!PyArg_ParseTuple(args, "sOOO", &ref, &pi, &pf, &ps)) return obpy_arg_error(__func__);
    const ob_document *doc = self->inst->doc;
    int32_t e = ob_find_name_or_id(doc->events, doc->event_count, sizeof *doc->events,
                                   offsetof(ob_event_data, name), ref);
    const ob_event_data *ev = e >= 0 ? &doc->events[e] : NULL;
    double iv = ev ? ev->int_value : 0, fv = ev ? ev->float_value : 0;
    const char *sv = ev && ev->string_value ? ev->string_value : "";
    if (pi != Py_None) { iv = PyFloat_AsDouble(pi); if (PyErr_Occurred()) return NULL; }
    if (pf != Py_None) { fv = PyFloat_AsDouble(pf); if (PyErr_Occurred()) return NULL; }
    if (ps != Py_None) { sv = PyUnicode_AsUTF8(ps); if (!sv) return NULL; }
    if (e >= 0) ob_sm_play_event_audio(self->inst, e, 0);
    ob_sm_queue_event(self->inst, e, ev ? ev->name : ref, ev ? ev->id : ref, iv, fv, sv);
    Py_RETURN_NONE;
}

static PyObject *sm_bone(InstanceObject *self, PyObject *arg)
{
    NEED_INST(self);
    long b = PyLong_AsLong(arg);
    if (b == -1 && PyErr_Occurred()) return NULL;
    if (b < 0 || b >= self->inst->doc->bone_count) Py_RETURN_NONE;
    const ob_pose *p = &self->inst->local[b];
    ob_mat m = self->inst->world[b];
    return Py_BuildValue("{s:d,s:d,s:d,s:d,s:d,s:d,s:d,s:d}", "x", p->x, "y", p->y, "rotation", p->rotation, "scaleX",
                         p->scale_x, "scaleY", p->scale_y, "worldX", m.x, "worldY", m.y, "worldRotation",
                         ob_world_rotation(m));
}

static PyObject *sm_set_bone(InstanceObject *self, PyObject *args)
{
    NEED_SM(self);
    int bone;
    PyObject *props;
    if (!PyArg_ParseTuple(args, "iO!", &bone, &PyDict_Type, &props)) return obpy_arg_error(__func__);
    static const char *names[] = {"rotation", "x", "y", "scaleX", "scaleY", "shearX", "shearY"};
    double vals[7] = {0};
    unsigned mask = 0;
    for (int k = 0; k < 7; k++) {
        PyObject *v = PyDict_GetItemString(props, names[k]);
        if (!v || v == Py_None || !(PyLong_Check(v) || PyFloat_Check(v))) continue;
        vals[k] = PyFloat_AsDouble(v);
        if (PyErr_Occurred()) return NULL;
        mask |= 1u << k;
    }
    ob_pose p = {vals[OB_P_X], vals[OB_P_Y], vals[OB_P_ROTATION], vals[OB_P_SCALE_X], vals[OB_P_SCALE_Y],
                 vals[OB_P_SHEAR_X], vals[OB_P_SHEAR_Y]};
    ob_script_set_bone(self->inst, bone, mask, &p);
    Py_RETURN_NONE;
}

static PyObject *sm_set_slot(InstanceObject *self, PyObject *args)
{
    NEED_SM(self);
    int slot, has_att;
    PyObject *color, *att;
    if (!PyArg_ParseTuple(args, "iOpO", &slot, &color, &has_att, &att)) return obpy_arg_error(__func__);
    double rgba[4] = {1, 1, 1, 1};
    int has_color = color != Py_None;
    if (has_color && !PyArg_ParseTuple(color, "dddd", &rgba[0], &rgba[1], &rgba[2], &rgba[3])) return NULL;
    int32_t name_id = -1;
    if (has_att && att != Py_None) {
        const char *name = PyUnicode_AsUTF8(att);
        if (!name) return NULL;
        const ob_document *doc = self->inst->doc;
        for (int32_t i = 0; i < doc->att_name_count; i++)
            if (strcmp(doc->att_names[i], name) == 0) { name_id = i; break; }
    }
    ob_script_set_slot(self->inst, slot, has_color, rgba, has_att, name_id);
    Py_RETURN_NONE;
}

static PyObject *sm_clear_overrides(InstanceObject *self, PyObject *unused)
{
    (void)unused;
    NEED_INST(self);
    ob_script_clear_overrides(self->inst);
    Py_RETURN_NONE;
}

/* ---- the Python script host ------------------------------------------ */

static int32_t host_load(void *ud, int32_t script, const char *name, const char *code)
{
    PyObject *r = PyObject_CallMethod((PyObject *)ud, "load", "iss", (int)script, name, code);
    if (!r) {
        PyErr_WriteUnraisable((PyObject *)ud);
        return -1;
    }
    long h = PyLong_Check(r) ? PyLong_AsLong(r) : -1;
    Py_DECREF(r);
    if (PyErr_Occurred()) PyErr_Clear();
    return (int32_t)h;
}

static int host_call(void *ud, int32_t handle, const char *fn, const char *json_args)
{
    PyObject *r = PyObject_CallMethod((PyObject *)ud, "call", "iss", (int)handle, fn, json_args);
    if (!r) {
        PyErr_WriteUnraisable((PyObject *)ud);
        return -1;
    }
    int ok = r != Py_False;
    Py_DECREF(r);
    return ok ? 0 : -1;
}

static void host_free(void *ud, int32_t handle)
{
    PyObject *r = PyObject_CallMethod((PyObject *)ud, "free", "i", (int)handle);
    if (!r) PyErr_WriteUnraisable((PyObject *)ud);
    Py_XDECREF(r);
}

static void host_destroy(void *ud) { Py_DECREF((PyObject *)ud); }

static PyObject *sm_set_script_host(InstanceObject *self, PyObject *host)
{
    NEED_SM(self);
    if (host == Py_None) {
        ob_sm_set_script_host(self->inst, NULL);
        Py_RETURN_NONE;
    }
    Py_INCREF(host);
    ob_script_host h = {host, host_load, host_call, host_free, host_destroy};
    ob_sm_set_script_host(self->inst, &h);
    Py_RETURN_NONE;
}

PyMethodDef obpy_sm_methods[] = {
    {"_sm_start", (PyCFunction)sm_start, METH_O, "_sm_start(index): start state machine `index` (§9)."},
    {"_sm_find_input", (PyCFunction)sm_find_input, METH_O, "Input index by id or name (§9.5), -1."},
    {"_sm_set_input", (PyCFunction)sm_set_input, METH_VARARGS, "_sm_set_input(i, value) -> changed (§9.5)."},
    {"_sm_fire", (PyCFunction)sm_fire, METH_O, "_sm_fire(i): fire a trigger (§9.5)."},
    {"_sm_input_value", (PyCFunction)sm_input_value, METH_O, "The live value of input i."},
    {"_sm_fired", (PyCFunction)sm_fired, METH_O, "Whether trigger i is fired (until step 6)."},
    {"_sm_pointer", (PyCFunction)sm_pointer, METH_VARARGS, "_sm_pointer(type, x, y): queue a pointer event."},
    {"_sm_hit_test", (PyCFunction)sm_hit_test, METH_VARARGS, "_sm_hit_test(slot, x, y): §9.5 hitTest."},
    {"_sm_take_log", (PyCFunction)sm_take_log, METH_NOARGS, "The log records since the last call."},
    {"_sm_log", (PyCFunction)sm_log, METH_VARARGS, "_sm_log(type, text): add a log record."},
    {"_sm_emit", (PyCFunction)sm_emit, METH_VARARGS, "_sm_emit(ref, int, float, string): §11 ob.emit."},
    {"_sm_bone", (PyCFunction)sm_bone, METH_O, "§11 ob.bone(i)."},
    {"_sm_set_bone", (PyCFunction)sm_set_bone, METH_VARARGS, "§11 ob.setBone(i, props)."},
    {"_sm_set_slot", (PyCFunction)sm_set_slot, METH_VARARGS, "§11 ob.slot(i, color, has_att, att)."},
    {"clear_overrides", (PyCFunction)sm_clear_overrides, METH_NOARGS, "§11 clearOverrides(): drop script overrides."},
    {"_sm_set_script_host", (PyCFunction)sm_set_script_host, METH_O, "Plug a §11 script host in (None: off)."},
    {NULL, NULL, 0, NULL}};

PyGetSetDef obpy_sm_getset[] = {
    {"_sm_index", (getter)get_sm_index, NULL, "Index of the running machine, -1.", NULL},
    {"_sm_active_states", (getter)get_sm_active_states, NULL, "activeStates per layer.", NULL},
    {"_sm_inputs", (getter)get_sm_inputs, NULL, "[(id, name, type, value)] of the running machine.", NULL},
    {"_sm_elapsed", (getter)get_sm_elapsed, NULL, "§9.1 elapsed.", NULL},
    {"_sm_pointer_state", (getter)get_sm_pointer_state, NULL, "(x, y, down) of §11 ob.pointer().", NULL},
    {"_sm_events", (getter)get_sm_events, NULL, "Events of the last advance (machine).", NULL},
    {"_sm_audio", (getter)get_sm_audio, NULL, "Audio commands of the last advance (machine).", NULL},
    {NULL, NULL, NULL, NULL, NULL}};
