/* py_toon.c: openbone._core bindings of the Jabbertoon runtime (csrc/toon/,
** csrc/include/jabbertoon.h).  Thin glue: programs arrive as JSON text (the
** Python side serialises dicts), arguments are checked and converted, the
** pose comes back as the §6 dict.  The speech and packs providers of §7 are
** Python callables called through the C callback interface.  Errors raise
** openbone.toon.ToonError (a subclass of openbone.OpenBoneError). */
#include "obpy.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../include/jabbertoon.h"
#include "../toon/toon.h"

PyObject *obpy_toon_error = NULL;

/* ---- programs --------------------------------------------------------------------------- */

typedef struct {
    PyObject_HEAD
    jt_program *p;
} ProgramObject;

/* PyErr_Format has no %g: the number is formatted here, as repr() writes it. */
static void bad_number(const char *what, double v)
{
    char *text = PyOS_double_to_string(v, 'r', 0, Py_DTSF_ADD_DOT_0, NULL);
    PyErr_Format(obpy_toon_error, "%s, got %s", what, text ? text : "?");
    PyMem_Free(text);
}

static void program_dealloc(ProgramObject *self)
{
    jt_program_free(self->p);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *program_kind(ProgramObject *self, void *c)
{
    (void)c;
    return PyUnicode_FromString(jt_program_kind(self->p));
}

/* scenes() -> [{name, place, mood, at, scripts}] (§7.1 scenesOf) */
static PyObject *program_scenes(ProgramObject *self, PyObject *unused)
{
    (void)unused;
    const jt_program *p = self->p;
    PyObject *json = PyImport_ImportModule("json");
    PyObject *l = json ? PyList_New(0) : NULL;
    for (int k = 0; l && k < p->nscenes; k++) {
        const jt_scene_def *sc = &p->scenes[k];
        PyObject *scripts = PyList_New(sc->nscripts);
        for (int i = 0; scripts && i < sc->nscripts; i++) PyList_SET_ITEM(scripts, i, PyLong_FromLong(sc->scripts[i]));
        PyObject *at = sc->at_json ? PyObject_CallMethod(json, "loads", "s", sc->at_json) : (Py_INCREF(Py_None), Py_None);
        PyObject *d = scripts && at ? Py_BuildValue("{s:s,s:z,s:z,s:O,s:O}", "name", sc->name, "place", sc->place, "mood",
                                                    sc->mood, "at", at, "scripts", scripts)
                                    : NULL;
        Py_XDECREF(scripts);
        Py_XDECREF(at);
        if (!d || PyList_Append(l, d) < 0) {
            Py_XDECREF(d);
            Py_CLEAR(l);
            break;
        }
        Py_DECREF(d);
    }
    Py_XDECREF(json);
    return l;
}

static PyMethodDef program_methods[] = {
    {"scenes", (PyCFunction)program_scenes, METH_NOARGS, "scenes() -> the scenes in the order they run (§7.1)"},
    {NULL, NULL, 0, NULL}};

static PyGetSetDef program_getset[] = {
    {"kind", (getter)program_kind, NULL, "behaviour, scene or cartoon", NULL},
    {NULL, NULL, NULL, NULL, NULL}};

PyTypeObject obpy_toon_program_type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "openbone._core.ToonProgram",
    .tp_basicsize = sizeof(ProgramObject),
    .tp_dealloc = (destructor)program_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "A compiled Jabbertoon program (immutable).",
    .tp_getset = program_getset,
    .tp_methods = program_methods,
};

static PyObject *diag_lists(jt_diags *d)
{
    PyObject *errors = PyList_New(0), *warnings = PyList_New(0);
    if (!errors || !warnings) goto fail;
    for (int i = 0; i < jt_diags_count(d); i++) {
        const jt_diag *g = jt_diags_get(d, i);
        PyObject *s = PyUnicode_DecodeUTF8(g->message, (Py_ssize_t)strlen(g->message), "replace");
        if (!s || PyList_Append(g->error ? errors : warnings, s) < 0) {
            Py_XDECREF(s);
            goto fail;
        }
        Py_DECREF(s);
    }
    return Py_BuildValue("(NN)", errors, warnings);
fail:
    Py_XDECREF(errors);
    Py_XDECREF(warnings);
    return NULL;
}

/* toon_load(text) -> (ToonProgram | None, errors, warnings) */
static PyObject *toon_load(PyObject *self, PyObject *arg)
{
    (void)self;
    const char *text;
    Py_ssize_t len;
    if (PyUnicode_Check(arg)) {
        text = PyUnicode_AsUTF8AndSize(arg, &len);
        if (!text) return NULL;
    } else if (PyBytes_Check(arg)) {
        text = PyBytes_AS_STRING(arg);
        len = PyBytes_GET_SIZE(arg);
    } else {
        PyErr_SetString(PyExc_TypeError, "toon_load: program JSON text (str or bytes)");
        return NULL;
    }
    jt_diags *d = NULL;
    jt_program *p;
    Py_BEGIN_ALLOW_THREADS
    p = jt_program_load(text, (size_t)len, &d);
    Py_END_ALLOW_THREADS
    if (!d) {
        jt_program_free(p);
        return PyErr_NoMemory();
    }
    PyObject *lists = diag_lists(d);
    jt_diags_free(d);
    if (!lists) {
        jt_program_free(p);
        return NULL;
    }
    PyObject *prog = Py_None;
    Py_INCREF(prog);
    if (p) {
        ProgramObject *o = PyObject_New(ProgramObject, &obpy_toon_program_type);
        if (!o) {
            jt_program_free(p);
            Py_DECREF(lists);
            return NULL;
        }
        o->p = p;
        Py_DECREF(prog);
        prog = (PyObject *)o;
    }
    PyObject *r = Py_BuildValue("(NOO)", prog, PyTuple_GET_ITEM(lists, 0), PyTuple_GET_ITEM(lists, 1));
    Py_DECREF(lists);
    return r;
}

/* ---- runtimes ----------------------------------------------------------------------------- */

/* the dicts' keys, interned once per runtime object (building a pose or a frame reuses them) */
#define KEYS(X) X(dx) X(dy) X(sx) X(sy) X(rot) X(parts) X(lift) X(mouth) X(blink) X(mood) X(reach) X(view) \
    X(x) X(y) X(w) X(spot) X(t) X(scene) X(place) X(background) X(grade) X(caption) X(characters) X(order) X(h) \
    X(facing) X(visible) X(pose) X(talking) X(dur) X(kind) X(who) X(name) X(text) X(voice) X(speed) X(pitch) \
    X(behaviour) X(also) X(from) X(to) X(say) X(does) X(cut) X(enter) X(exit)
#define KEY_ENUM(n) K_##n,
enum { KEYS(KEY_ENUM) K_COUNT };

typedef struct {
    PyObject_HEAD
    jt_runtime *rt;
    PyObject *programs;  /* every program an instance has run: they outlive the runtime's use */
    PyObject *speech, *packs;
    PyObject *keys;      /* channel id -> the pose dict's key (str) */
    PyObject *k[K_COUNT];
    int interrupt;       /* jt_runtime_def.interrupt: a provider raised KeyboardInterrupt / SystemExit */
    PyObject *pending[3];  /* that exception, re-raised when start_cartoon returns */
} RuntimeObject;

static PyObject *raise_rt(RuntimeObject *self, jt_status st)
{
    if (PyErr_Occurred()) return NULL;  /* a provider raised something we pass on */
    if (st == JT_ERR_MEMORY) return PyErr_NoMemory();
    PyErr_SetString(obpy_toon_error, jt_runtime_error(self->rt));
    return NULL;
}

static int get_double(PyObject *o, const char *what, double *out)
{
    if (PyBool_Check(o)) {
        *out = o == Py_True;
        return 0;
    }
    if (!PyNumber_Check(o) || PyUnicode_Check(o)) {
        PyErr_Format(obpy_toon_error, "%s must be a number, got %.100s", what, Py_TYPE(o)->tp_name);
        return -1;
    }
    double v = PyFloat_AsDouble(o);
    if (v == -1.0 && PyErr_Occurred()) return -1;
    *out = v;
    return 0;
}

int obpy_toon_speech(void *ud, const char *text, const jt_speech_opts *opts, double *seconds, char *why, size_t cap);
char *obpy_toon_packs(void *ud, const char *id, const char *version, char *why, size_t cap);

static int runtime_init(RuntimeObject *self, PyObject *args, PyObject *kw)
{
    static char *kwlist[] = {"seed", "fps", "aspect", "max_duration", "live", "speech", "packs", NULL};
    jt_runtime_def def = jt_runtime_def_default();
    PyObject *seed = NULL, *speech = Py_None, *packs = Py_None;
    int live = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "|OdddpOO", kwlist, &seed, &def.fps, &def.aspect, &def.max_duration,
                                     &live, &speech, &packs))
        return -1;
    if (seed && seed != Py_None && get_double(seed, "seed", &def.seed) < 0) return -1;
    if (!(def.fps > 0) || !isfinite(def.fps)) {
        bad_number("fps must be a positive number", def.fps);
        return -1;
    }
    if (!(def.aspect > 0) || !isfinite(def.aspect)) {
        bad_number("aspect must be a positive number", def.aspect);
        return -1;
    }
    if (!(def.max_duration > 0) || isnan(def.max_duration)) {
        bad_number("max_duration must be a positive number", def.max_duration);
        return -1;
    }
    def.live = live;
    self->interrupt = 0;
    def.interrupt = &self->interrupt;
    if (speech != Py_None) {
        def.speech = obpy_toon_speech;
        def.speech_ud = self;
    }
    if (packs != Py_None) {
        def.packs = obpy_toon_packs;
        def.packs_ud = self;
    }
    jt_runtime_free(self->rt);
    self->rt = jt_runtime_create(&def);
    if (!self->rt) {
        PyErr_NoMemory();
        return -1;
    }
    Py_XSETREF(self->programs, PyList_New(0));
    Py_XSETREF(self->keys, PyList_New(0));
#define KEY_MAKE(n) if (!self->k[K_##n] && !(self->k[K_##n] = PyUnicode_InternFromString(#n))) return -1;
    KEYS(KEY_MAKE)
    Py_INCREF(speech);
    Py_XSETREF(self->speech, speech);
    Py_INCREF(packs);
    Py_XSETREF(self->packs, packs);
    return self->programs && self->keys ? 0 : -1;
}

static void runtime_dealloc(RuntimeObject *self)
{
    PyObject_GC_UnTrack(self);
    jt_runtime_free(self->rt);
    Py_XDECREF(self->programs);
    Py_XDECREF(self->speech);
    Py_XDECREF(self->packs);
    Py_XDECREF(self->keys);
    for (int i = 0; i < K_COUNT; i++) Py_XDECREF(self->k[i]);
    for (int i = 0; i < 3; i++) Py_XDECREF(self->pending[i]);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static int runtime_traverse(RuntimeObject *self, visitproc visit, void *arg)
{
    Py_VISIT(self->programs);
    Py_VISIT(self->speech);
    Py_VISIT(self->packs);
    return 0;
}

static int runtime_clear(RuntimeObject *self)
{
    Py_CLEAR(self->speech);
    Py_CLEAR(self->packs);
    for (int i = 0; i < 3; i++) Py_CLEAR(self->pending[i]);
    return 0;
}

#define NEED_RT(self) \
    if (!(self)->rt) { PyErr_SetString(PyExc_RuntimeError, "ToonRuntime not initialised"); return NULL; }

static PyObject *rt_add_character(RuntimeObject *self, PyObject *args)
{
    NEED_RT(self);
    const char *id;
    PyObject *legs_o;
    if (!PyArg_ParseTuple(args, "sO", &id, &legs_o)) return NULL;
    double legs;
    if (get_double(legs_o, "legs", &legs) < 0) return NULL;
    if (!(legs >= 0 && legs <= 1000 && legs == floor(legs))) {
        bad_number("legs is a whole number 0-1000", legs);
        return NULL;
    }
    jt_status st = jt_add_character(self->rt, id, (int)legs);
    if (st) return raise_rt(self, st);
    Py_RETURN_NONE;
}

/* params: a sequence of (name, number) pairs */
static int get_params(PyObject *seq, jt_param **out, int *n, PyObject **keep)
{
    *out = NULL;
    *n = 0;
    *keep = NULL;
    if (seq == Py_None) return 0;
    PyObject *fast = PySequence_Fast(seq, "params must be a sequence of (name, value) pairs");
    if (!fast) return -1;
    Py_ssize_t m = PySequence_Fast_GET_SIZE(fast);
    jt_param *ps = PyMem_Calloc((size_t)m + 1, sizeof *ps);
    if (!ps) {
        Py_DECREF(fast);
        PyErr_NoMemory();
        return -1;
    }
    for (Py_ssize_t i = 0; i < m; i++) {
        PyObject *pair = PySequence_Fast_GET_ITEM(fast, i);
        PyObject *name, *value;
        if (!PyTuple_Check(pair) || PyTuple_GET_SIZE(pair) != 2) {
            PyErr_SetString(PyExc_TypeError, "params: (name, value) pairs");
            goto fail;
        }
        name = PyTuple_GET_ITEM(pair, 0);
        value = PyTuple_GET_ITEM(pair, 1);
        ps[i].name = PyUnicode_Check(name) ? PyUnicode_AsUTF8(name) : NULL;
        if (!ps[i].name) {
            if (!PyErr_Occurred()) PyErr_SetString(obpy_toon_error, "a param's name is a text");
            goto fail;
        }
        if (get_double(value, "a param", &ps[i].value) < 0) goto fail;
    }
    *out = ps;
    *n = (int)m;
    *keep = fast;
    return 0;
fail:
    PyMem_Free(ps);
    Py_DECREF(fast);
    return -1;
}

static PyObject *rt_start_behaviour(RuntimeObject *self, PyObject *args)
{
    NEED_RT(self);
    const char *id;
    PyObject *prog, *dur_o, *params_o;
    if (!PyArg_ParseTuple(args, "sO!OO", &id, &obpy_toon_program_type, &prog, &dur_o, &params_o)) return NULL;
    double dur = INFINITY;
    if (dur_o != Py_None && get_double(dur_o, "dur", &dur) < 0) return NULL;
    jt_param *ps;
    int n;
    PyObject *keep;
    if (get_params(params_o, &ps, &n, &keep) < 0) return NULL;
    if (PySequence_Contains(self->programs, prog) == 0 && PyList_Append(self->programs, prog) < 0) {
        PyMem_Free(ps);
        Py_XDECREF(keep);
        return NULL;
    }
    uint64_t inst = 0;
    jt_status st = jt_start_behaviour(self->rt, id, ((ProgramObject *)prog)->p, dur, ps, n, &inst);
    PyMem_Free(ps);
    Py_XDECREF(keep);
    if (st) return raise_rt(self, st);
    return PyLong_FromUnsignedLongLong(inst);
}

static PyObject *rt_stop_behaviour(RuntimeObject *self, PyObject *arg)
{
    NEED_RT(self);
    unsigned long long id = PyLong_AsUnsignedLongLong(arg);
    if (id == (unsigned long long)-1 && PyErr_Occurred()) return NULL;
    jt_status st = jt_stop_behaviour(self->rt, id);
    if (st) return raise_rt(self, st);
    Py_RETURN_NONE;
}

static PyObject *rt_set_inputs(RuntimeObject *self, PyObject *args)
{
    NEED_RT(self);
    const char *id;
    PyObject *loud_o, *talking_o;
    if (!PyArg_ParseTuple(args, "sOO", &id, &loud_o, &talking_o)) return NULL;
    double loud = 0, talking = 0;
    if (loud_o != Py_None && get_double(loud_o, "loud", &loud) < 0) return NULL;
    if (talking_o != Py_None && get_double(talking_o, "talking", &talking) < 0) return NULL;
    jt_status st = jt_set_inputs(self->rt, id, loud_o != Py_None, loud, talking_o != Py_None, talking);
    if (st) return raise_rt(self, st);
    Py_RETURN_NONE;
}

static PyObject *rt_emit(RuntimeObject *self, PyObject *args)
{
    NEED_RT(self);
    const char *event, *id = NULL, *key = NULL, *name = NULL;
    if (!PyArg_ParseTuple(args, "s|zzz", &event, &id, &key, &name)) return NULL;
    jt_status st = jt_emit(self->rt, event, id, key, name);
    if (st) return raise_rt(self, st);
    Py_RETURN_NONE;
}

static PyObject *rt_step_to(RuntimeObject *self, PyObject *arg)
{
    NEED_RT(self);
    double T;
    if (get_double(arg, "T", &T) < 0) return NULL;
    jt_status st = jt_step_to(self->rt, T);
    if (st) return raise_rt(self, st);
    Py_RETURN_NONE;
}

static PyObject *rt_step(RuntimeObject *self, PyObject *arg)
{
    NEED_RT(self);
    double dt;
    if (get_double(arg, "dt", &dt) < 0) return NULL;
    jt_status st = jt_step(self->rt, dt);
    if (st) return raise_rt(self, st);
    Py_RETURN_NONE;
}

/* the pose dict's key of a part/lift channel: the name without its prefix */
static PyObject *channel_key(RuntimeObject *self, int32_t ch)
{
    Py_ssize_t n = PyList_GET_SIZE(self->keys);
    while (n <= ch) {
        if (PyList_Append(self->keys, Py_None) < 0) return NULL;
        n++;
    }
    PyObject *k = PyList_GET_ITEM(self->keys, ch);
    if (k == Py_None) {
        const char *name = jt_channel_name(self->rt, ch);
        k = PyUnicode_FromString(name + 5);
        if (!k) return NULL;
        PyList_SetItem(self->keys, ch, k);  /* steals */
    }
    return k;
}

static int set_num(PyObject *d, PyObject *key, double v)
{
    PyObject *f = PyFloat_FromDouble(v);
    if (!f) return -1;
    int r = PyDict_SetItem(d, key, f);
    Py_DECREF(f);
    return r;
}

/* d[key] = v, v's reference taken */
static int put_k(PyObject *d, PyObject *key, PyObject *v)
{
    if (!v) return -1;
    int r = PyDict_SetItem(d, key, v);
    Py_DECREF(v);
    return r;
}

static const char *const VIEW_NAMES[3] = {"front", "side", "back"};

PyObject *obpy_toon_pose_dict(RuntimeObject *self, const jt_pose *p)
{
    PyObject **k = self->k;
    PyObject *d = PyDict_New(), *parts = PyDict_New(), *lift = PyDict_New(), *reach = PyDict_New();
    if (!d || !parts || !lift || !reach) goto fail;
    for (int i = 0; i < p->nchannels; i++) {
        int is_lift = 0;
        jt_channel_parts(self->rt, p->channel[i], &is_lift, NULL, NULL, NULL);
        PyObject *key = channel_key(self, p->channel[i]);
        PyObject *v = key ? PyFloat_FromDouble(p->value[i]) : NULL;
        if (!v || PyDict_SetItem(is_lift ? lift : parts, key, v) < 0) {
            Py_XDECREF(v);
            goto fail;
        }
        Py_DECREF(v);
    }
    for (int i = 0; i < p->nreach; i++) {
        const jt_reach *r = &p->reach[i];
        PyObject *e = PyDict_New();
        if (!e) goto fail;
        int bad = 0;
        if (!r->spot) {
            bad |= set_num(e, k[K_x], r->x) < 0 || set_num(e, k[K_y], r->y) < 0;
        } else {
            bad |= put_k(e, k[K_spot], PyUnicode_FromString(r->spot)) < 0;
            if (r->has_offset) bad |= set_num(e, k[K_dx], r->dx) < 0 || set_num(e, k[K_dy], r->dy) < 0;
        }
        bad |= set_num(e, k[K_w], r->w) < 0;
        bad |= PyDict_SetItemString(reach, r->limb, e) < 0;
        Py_DECREF(e);
        if (bad) goto fail;
    }
    PyObject *mood = p->mood ? PyUnicode_FromString(p->mood) : (Py_INCREF(Py_None), Py_None);
    PyObject *view = p->view >= 0 ? PyUnicode_FromString(VIEW_NAMES[p->view]) : (Py_INCREF(Py_None), Py_None);
    int bad = !mood || !view;
    bad = bad || set_num(d, k[K_dx], p->dx) < 0 || set_num(d, k[K_dy], p->dy) < 0 || set_num(d, k[K_sx], p->sx) < 0 ||
          set_num(d, k[K_sy], p->sy) < 0 || set_num(d, k[K_rot], p->rot) < 0 || PyDict_SetItem(d, k[K_parts], parts) < 0 ||
          PyDict_SetItem(d, k[K_lift], lift) < 0 || set_num(d, k[K_mouth], p->mouth) < 0 ||
          set_num(d, k[K_blink], p->blink) < 0 || PyDict_SetItem(d, k[K_mood], mood) < 0 ||
          PyDict_SetItem(d, k[K_reach], reach) < 0 || PyDict_SetItem(d, k[K_view], view) < 0;
    Py_XDECREF(mood);
    Py_XDECREF(view);
    if (bad) goto fail;
    Py_DECREF(parts);
    Py_DECREF(lift);
    Py_DECREF(reach);
    return d;
fail:
    Py_XDECREF(d);
    Py_XDECREF(parts);
    Py_XDECREF(lift);
    Py_XDECREF(reach);
    return NULL;
}

static int char_index(RuntimeObject *self, PyObject *arg)
{
    const char *id = PyUnicode_Check(arg) ? PyUnicode_AsUTF8(arg) : NULL;
    if (!id) {
        if (!PyErr_Occurred()) PyErr_Format(obpy_toon_error, "a character id is a text, got %.100s", Py_TYPE(arg)->tp_name);
        return -1;
    }
    int i = jt_character_index(self->rt, id);
    if (i < 0) PyErr_Format(obpy_toon_error, "unknown character \"%.100s\"", id);
    return i;
}

static PyObject *rt_pose(RuntimeObject *self, PyObject *arg)
{
    NEED_RT(self);
    int i = char_index(self, arg);
    if (i < 0) return NULL;
    jt_pose p;
    jt_status st = jt_pose_read(self->rt, i, &p);
    if (st) return raise_rt(self, st);
    return obpy_toon_pose_dict(self, &p);
}

/* pose_channels(id) -> (names tuple, values tuple): the raw channel view for hosts */
static PyObject *rt_characters(RuntimeObject *self, PyObject *unused)
{
    (void)unused;
    NEED_RT(self);
    int n = jt_character_count(self->rt);
    PyObject *l = PyList_New(n);
    if (!l) return NULL;
    for (int i = 0; i < n; i++) {
        PyObject *s = PyUnicode_FromString(jt_character_id(self->rt, i));
        if (!s) {
            Py_DECREF(l);
            return NULL;
        }
        PyList_SET_ITEM(l, i, s);
    }
    return l;
}

static PyObject *rt_global_get(RuntimeObject *self, PyObject *arg)
{
    NEED_RT(self);
    const char *name = PyUnicode_AsUTF8(arg);
    if (!name) return NULL;
    double v;
    if (!jt_global_get(self->rt, name, &v)) {
        PyErr_SetObject(PyExc_KeyError, arg);
        return NULL;
    }
    return PyFloat_FromDouble(v);
}

static PyObject *rt_global_set(RuntimeObject *self, PyObject *args)
{
    NEED_RT(self);
    const char *name;
    double v;
    if (!PyArg_ParseTuple(args, "sd", &name, &v)) return NULL;
    jt_status st = jt_global_set(self->rt, name, v);
    if (st) return raise_rt(self, st);
    Py_RETURN_NONE;
}

static PyObject *rt_global_delete(RuntimeObject *self, PyObject *arg)
{
    NEED_RT(self);
    const char *name = PyUnicode_AsUTF8(arg);
    if (!name) return NULL;
    if (!jt_global_get(self->rt, name, NULL)) {
        PyErr_SetObject(PyExc_KeyError, arg);
        return NULL;
    }
    jt_global_delete(self->rt, name);
    Py_RETURN_NONE;
}

static PyObject *rt_global_names(RuntimeObject *self, PyObject *unused)
{
    (void)unused;
    NEED_RT(self);
    int n = jt_global_count(self->rt);
    PyObject *l = PyList_New(n);
    if (!l) return NULL;
    for (int i = 0; i < n; i++) {
        PyObject *s = PyUnicode_FromString(jt_global_name(self->rt, i, NULL));
        if (!s) {
            Py_DECREF(l);
            return NULL;
        }
        PyList_SET_ITEM(l, i, s);
    }
    return l;
}

static PyObject *rt_get_t(RuntimeObject *self, void *c)
{
    (void)c;
    NEED_RT(self);
    return PyFloat_FromDouble(jt_runtime_time(self->rt));
}

static PyObject *rt_get_flag(RuntimeObject *self, void *c)
{
    NEED_RT(self);
    int v = c == (void *)0 ? jt_runtime_polled(self->rt) : c == (void *)1 ? jt_runtime_inputs_read(self->rt)
                                                                          : jt_runtime_pose_drew_random(self->rt);
    return PyBool_FromLong(v);
}


static PyObject *rt_start_cartoon(RuntimeObject *self, PyObject *args);
static PyObject *rt_timeline(RuntimeObject *self, PyObject *args);
static PyObject *rt_warnings(RuntimeObject *self, PyObject *unused);
static PyObject *rt_frame(RuntimeObject *self, PyObject *unused);
static PyObject *rt_stage(RuntimeObject *self, PyObject *unused);
static PyObject *rt_stats(RuntimeObject *self, PyObject *unused);
static PyObject *rt_duration(RuntimeObject *self, void *c);

static PyMethodDef runtime_methods[] = {
    {"add_character", (PyCFunction)rt_add_character, METH_VARARGS, "add_character(id, legs)"},
    {"start_behaviour", (PyCFunction)rt_start_behaviour, METH_VARARGS,
     "start_behaviour(id, program, dur, params) -> instance id"},
    {"stop_behaviour", (PyCFunction)rt_stop_behaviour, METH_O, "stop_behaviour(instance id)"},
    {"set_inputs", (PyCFunction)rt_set_inputs, METH_VARARGS, "set_inputs(id, loud, talking) (None: unchanged)"},
    {"emit", (PyCFunction)rt_emit, METH_VARARGS, "emit(event, char_id=None, key=None, name=None)"},
    {"step_to", (PyCFunction)rt_step_to, METH_O, "step_to(T)"},
    {"step", (PyCFunction)rt_step, METH_O, "step(dt)"},
    {"pose", (PyCFunction)rt_pose, METH_O, "pose(id) -> the §6 pose dict"},
    {"characters", (PyCFunction)rt_characters, METH_NOARGS, "the character ids in the order added"},
    {"global_get", (PyCFunction)rt_global_get, METH_O, "a page global (KeyError when absent)"},
    {"global_set", (PyCFunction)rt_global_set, METH_VARARGS, "global_set(name, value)"},
    {"global_delete", (PyCFunction)rt_global_delete, METH_O, "global_delete(name)"},
    {"global_names", (PyCFunction)rt_global_names, METH_NOARGS, "the page globals' names"},
    {"start_cartoon", (PyCFunction)rt_start_cartoon, METH_VARARGS, "start_cartoon(text, params) -> duration"},
    {"timeline", (PyCFunction)rt_timeline, METH_VARARGS, "timeline(start=0, run=False) -> the plan's records (run: the run's own)"},
    {"warnings", (PyCFunction)rt_warnings, METH_NOARGS, "rt.warnings"},
    {"frame", (PyCFunction)rt_frame, METH_NOARGS, "frame() -> the §7.8 dict"},
    {"stage", (PyCFunction)rt_stage, METH_NOARGS, "stage() -> (t, scene, place, background, grade, caption)"},
    {"stats", (PyCFunction)rt_stats, METH_NOARGS, "the director's working state (§7.7)"},
    {NULL, NULL, 0, NULL}};

static PyGetSetDef runtime_getset[] = {
    {"t", (getter)rt_get_t, NULL, "runtime time", NULL},
    {"polled", (getter)rt_get_flag, NULL, "a thread has yielded to a step (§0)", (void *)0},
    {"inputs_read", (getter)rt_get_flag, NULL, "a block or tick has read loud/talking", (void *)1},
    {"pose_drew_random", (getter)rt_get_flag, NULL, "a pose has drawn random", (void *)2},
    {"duration", (getter)rt_duration, NULL, "rt.duration: the cartoon's length, None when it does not end", NULL},
    {NULL, NULL, NULL, NULL, NULL}};

PyTypeObject obpy_toon_runtime_type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "openbone._core.ToonRuntime",
    .tp_basicsize = sizeof(RuntimeObject),
    .tp_dealloc = (destructor)runtime_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
    .tp_doc = "The Jabbertoon runtime (§6): use openbone.toon.create_runtime.",
    .tp_traverse = (traverseproc)runtime_traverse,
    .tp_clear = (inquiry)runtime_clear,
    .tp_methods = runtime_methods,
    .tp_getset = runtime_getset,
    .tp_init = (initproc)runtime_init,
    .tp_new = PyType_GenericNew,
};

/* ---- the providers (§7.4, §7.5) --------------------------------------------------------------- */

/* A provider raised something that is not an Exception (KeyboardInterrupt, SystemExit): it is kept
** for start_cartoon to re-raise, and the runtime's interrupt flag makes the cartoon fail at once. */
static int interrupted_by(RuntimeObject *self)
{
    if (!PyErr_Occurred() || PyErr_ExceptionMatches(PyExc_Exception)) return 0;
    if (!self->pending[0]) PyErr_Fetch(&self->pending[0], &self->pending[1], &self->pending[2]);
    else PyErr_Clear();
    self->interrupt = 1;
    return 1;
}

/* why <- the pending Python exception ("raised ValueError: ..."), cleared */
static void exception_text(char *why, size_t cap, const char *what)
{
    PyObject *type, *value, *tb;
    PyErr_Fetch(&type, &value, &tb);
    PyObject *s = value ? PyObject_Str(value) : NULL;
    const char *msg = s ? PyUnicode_AsUTF8(s) : NULL;
    snprintf(why, cap, "%s raised %s%s%.200s", what, type ? ((PyTypeObject *)type)->tp_name : "an exception",
             msg && *msg ? ": " : "", msg ? msg : "");
    PyErr_Clear();
    Py_XDECREF(s);
    Py_XDECREF(type);
    Py_XDECREF(value);
    Py_XDECREF(tb);
}

static int put(PyObject *d, const char *k, PyObject *v)
{
    if (!v) return -1;
    int r = PyDict_SetItemString(d, k, v);
    Py_DECREF(v);
    return r;
}

int obpy_toon_speech(void *ud, const char *text, const jt_speech_opts *o, double *seconds, char *why, size_t cap)
{
    RuntimeObject *self = ud;
    PyObject *opts = PyDict_New();
    if (!opts || put(opts, "who", PyUnicode_FromString(o->who)) < 0 ||
        (o->voice && put(opts, "voice", PyUnicode_FromString(o->voice)) < 0) ||
        (o->mood && put(opts, "mood", PyUnicode_FromString(o->mood)) < 0) ||
        (o->has_speed && put(opts, "speed", PyFloat_FromDouble(o->speed)) < 0) ||
        (o->has_pitch && put(opts, "pitch", PyFloat_FromDouble(o->pitch)) < 0)) {
        Py_XDECREF(opts);
        exception_text(why, cap, "building the options");
        return -1;
    }
    PyObject *r = PyObject_CallFunction(self->speech, "sO", text, opts);
    Py_DECREF(opts);
    if (!r && interrupted_by(self)) {
        snprintf(why, cap, "interrupted");
        return -1;
    }
    if (!r) {
        exception_text(why, cap, "it");
        return -1;
    }
    int ok = !PyBool_Check(r) && (PyFloat_Check(r) || PyLong_Check(r));
    if (ok) {
        *seconds = PyFloat_AsDouble(r);
        if (*seconds == -1.0 && PyErr_Occurred()) {
            exception_text(why, cap, "converting its answer");
            ok = 0;
        }
    } else {
        snprintf(why, cap, "it returned %.60s, not a number", Py_TYPE(r)->tp_name);
    }
    Py_DECREF(r);
    return ok ? 0 : -1;
}

char *obpy_toon_packs(void *ud, const char *id, const char *version, char *why, size_t cap)
{
    RuntimeObject *self = ud;
    PyObject *r = version ? PyObject_CallFunction(self->packs, "ss", id, version)
                          : PyObject_CallFunction(self->packs, "sO", id, Py_None);
    if (!r && interrupted_by(self)) {
        snprintf(why, cap, "interrupted");
        return NULL;
    }
    if (!r) {
        exception_text(why, cap, "the packs provider");
        return NULL;
    }
    if (r == Py_None) {
        Py_DECREF(r);
        snprintf(why, cap, "the packs provider has no such pack");
        return NULL;
    }
    PyObject *mod = PyImport_ImportModule("openbone.toon.runtime");
    PyObject *text = mod ? PyObject_CallMethod(mod, "program_json", "O", r) : NULL;
    Py_XDECREF(mod);
    Py_DECREF(r);
    if (!text) {
        exception_text(why, cap, "reading the pack");
        return NULL;
    }
    Py_ssize_t n;
    const char *s = PyUnicode_AsUTF8AndSize(text, &n);
    char *out = s ? malloc((size_t)n + 1) : NULL;
    if (out) memcpy(out, s, (size_t)n + 1);
    else {
        if (PyErr_Occurred()) exception_text(why, cap, "reading the pack");
        else snprintf(why, cap, "out of memory");
    }
    Py_DECREF(text);
    return out;
}

/* ---- cartoons (§7) ---------------------------------------------------------------------------------- */

static PyObject *rt_start_cartoon(RuntimeObject *self, PyObject *args)
{
    NEED_RT(self);
    const char *text;
    Py_ssize_t len;
    PyObject *params_o;
    if (!PyArg_ParseTuple(args, "s#O", &text, &len, &params_o)) return NULL;
    jt_param *ps;
    int n;
    PyObject *keep;
    if (get_params(params_o, &ps, &n, &keep) < 0) return NULL;
    double dur;
    jt_status st = jt_start_cartoon(self->rt, text, (size_t)len, ps, n, &dur);
    PyMem_Free(ps);
    Py_XDECREF(keep);
    self->interrupt = 0;
    if (self->pending[0]) {  /* KeyboardInterrupt in a provider: the cartoon failed, the interrupt goes on */
        PyErr_Restore(self->pending[0], self->pending[1], self->pending[2]);
        self->pending[0] = self->pending[1] = self->pending[2] = NULL;
        return NULL;
    }
    if (st) return raise_rt(self, st);
    if (isnan(dur)) Py_RETURN_NONE;
    return PyFloat_FromDouble(dur);
}

static PyObject *str_or_none(const char *s)
{
    if (!s) Py_RETURN_NONE;
    return PyUnicode_FromString(s);
}

static PyObject *kind_key(RuntimeObject *self, const char *kind)
{
    static const char *const NAMES[9] = {"scene", "say", "does", "caption", "cut", "place", "enter", "exit", "mood"};
    static const int KS[9] = {K_scene, K_say, K_does, K_caption, K_cut, K_place, K_enter, K_exit, K_mood};
    for (int i = 0; i < 9; i++)
        if (!strcmp(kind, NAMES[i])) {
            Py_INCREF(self->k[KS[i]]);
            return self->k[KS[i]];
        }
    return PyUnicode_FromString(kind);
}

/* a does record's behaviour, parsed once per block (cache: the C text's address -> the object) */
static PyObject *behaviour_object(const char *text, PyObject *loads, PyObject *cache)
{
    if (!text) Py_RETURN_NONE;
    PyObject *key = PyLong_FromVoidPtr((void *)text);
    if (!key) return NULL;
    PyObject *hit = PyDict_GetItemWithError(cache, key);
    if (hit) {
        Py_DECREF(key);
        Py_INCREF(hit);
        return hit;
    }
    PyObject *v = PyErr_Occurred() ? NULL : PyObject_CallFunction(loads, "s", text);
    if (v && PyDict_SetItem(cache, key, v) < 0) Py_CLEAR(v);
    Py_DECREF(key);
    return v;
}

static PyObject *record_dict(RuntimeObject *self, const jt_record_view *r, PyObject *loads, PyObject *cache)
{
    PyObject **k = self->k;
    PyObject *d = PyDict_New();
    if (!d) return NULL;
    int bad = set_num(d, k[K_t], r->t) < 0 || set_num(d, k[K_dur], r->dur) < 0 ||
              put_k(d, k[K_kind], kind_key(self, r->kind)) < 0;
    const char *kd = r->kind;
    if (!bad && !strcmp(kd, "scene"))
        bad = put_k(d, k[K_name], str_or_none(r->name)) < 0 || put_k(d, k[K_place], str_or_none(r->place)) < 0 ||
              put_k(d, k[K_grade], str_or_none(r->grade)) < 0;
    else if (!bad && !strcmp(kd, "say")) {
        bad = put_k(d, k[K_who], str_or_none(r->who)) < 0 || put_k(d, k[K_text], str_or_none(r->text)) < 0 ||
              put_k(d, k[K_voice], str_or_none(r->voice)) < 0 || put_k(d, k[K_mood], str_or_none(r->mood)) < 0 ||
              (r->has_speed && set_num(d, k[K_speed], r->speed) < 0) ||
              (r->has_pitch && set_num(d, k[K_pitch], r->pitch) < 0);
    } else if (!bad && !strcmp(kd, "does")) {
        bad = put_k(d, k[K_who], str_or_none(r->who)) < 0 ||
              put_k(d, k[K_behaviour], behaviour_object(r->behaviour, loads, cache)) < 0 ||
              (r->also && put_k(d, k[K_also], (Py_INCREF(Py_True), Py_True)) < 0);
    } else if (!bad && !strcmp(kd, "caption")) {
        bad = put_k(d, k[K_text], str_or_none(r->text)) < 0;
    } else if (!bad && !strcmp(kd, "cut")) {
        bad = put_k(d, k[K_place], str_or_none(r->place)) < 0 || put_k(d, k[K_grade], str_or_none(r->grade)) < 0;
    } else if (!bad && !strcmp(kd, "place")) {
        bad = put_k(d, k[K_who], str_or_none(r->who)) < 0 || (r->has_x && set_num(d, k[K_x], r->x) < 0) ||
              (r->has_y && set_num(d, k[K_y], r->y) < 0) || (r->has_h && set_num(d, k[K_h], r->h) < 0) ||
              (r->has_facing && set_num(d, k[K_facing], r->facing) < 0);
    } else if (!bad && (!strcmp(kd, "enter") || !strcmp(kd, "exit"))) {
        bad = put_k(d, k[K_who], str_or_none(r->who)) < 0 ||
              put_k(d, kd[1] == 'n' ? k[K_from] : k[K_to], str_or_none(r->side)) < 0;
    } else if (!bad) {
        bad = put_k(d, k[K_who], str_or_none(r->who)) < 0 || put_k(d, k[K_mood], str_or_none(r->mood)) < 0;
    }
    if (bad) {
        Py_DECREF(d);
        return NULL;
    }
    return d;
}

/* timeline(start=0, run=False) -> the records from start on (a list of dicts) */
static PyObject *rt_timeline(RuntimeObject *self, PyObject *args)
{
    NEED_RT(self);
    int start = 0, run = 0;
    if (!PyArg_ParseTuple(args, "|ip", &start, &run)) return NULL;
    int n = run ? jt_run_timeline_count(self->rt) : jt_timeline_count(self->rt);
    PyObject *json = PyImport_ImportModule("json");
    PyObject *loads = json ? PyObject_GetAttrString(json, "loads") : NULL;
    Py_XDECREF(json);
    PyObject *cache = loads ? PyDict_New() : NULL;
    if (start < 0) start = 0;
    PyObject *l = cache ? PyList_New(n > start ? n - start : 0) : NULL;
    /* the records are plain dicts of numbers and texts (no cycles): the cyclic collector would only
    ** rescan the growing list, so it waits until they are built (a third of the time at 150,000) */
    int gc_was = PyGC_Disable();
    for (int i = start; l && i < n; i++) {
        jt_record_view r;
        if (run) jt_run_timeline_get(self->rt, i, &r);
        else jt_timeline_get(self->rt, i, &r);
        PyObject *d = record_dict(self, &r, loads, cache);
        if (!d) {
            Py_CLEAR(l);
            break;
        }
        PyList_SET_ITEM(l, i - start, d);
    }
    if (gc_was) PyGC_Enable();
    Py_XDECREF(loads);
    Py_XDECREF(cache);
    return l;
}

static PyObject *rt_warnings(RuntimeObject *self, PyObject *unused)
{
    (void)unused;
    NEED_RT(self);
    int n = jt_warning_count(self->rt);
    PyObject *l = PyList_New(n);
    for (int i = 0; l && i < n; i++) {
        PyObject *s = PyUnicode_DecodeUTF8(jt_warning_get(self->rt, i), (Py_ssize_t)strlen(jt_warning_get(self->rt, i)),
                                           "replace");
        if (!s) {
            Py_CLEAR(l);
            break;
        }
        PyList_SET_ITEM(l, i, s);
    }
    return l;
}

static PyObject *rt_duration(RuntimeObject *self, void *c)
{
    (void)c;
    NEED_RT(self);
    double d = jt_cartoon_duration(self->rt);
    if (isnan(d)) Py_RETURN_NONE;
    return PyFloat_FromDouble(d);
}

/* frame() -> the §7.8 dict */
static PyObject *rt_frame(RuntimeObject *self, PyObject *unused)
{
    (void)unused;
    NEED_RT(self);
    PyObject **k = self->k;
    jt_stage_view sv;
    jt_stage_read(self->rt, &sv);
    PyObject *f = PyDict_New(), *chars = PyDict_New();
    int n = jt_character_count(self->rt);
    PyObject *order = PyList_New(n);
    if (!f || !chars || !order) goto fail;
    if (set_num(f, k[K_t], sv.t) < 0 || put_k(f, k[K_scene], str_or_none(sv.scene)) < 0 ||
        put_k(f, k[K_place], str_or_none(sv.place)) < 0 || put_k(f, k[K_background], str_or_none(sv.background)) < 0 ||
        put_k(f, k[K_grade], str_or_none(sv.grade)) < 0 || put_k(f, k[K_caption], str_or_none(sv.caption)) < 0)
        goto fail;
    for (int i = 0; i < n; i++) {
        jt_placement pl;
        jt_pose pose;
        jt_placement_read(self->rt, i, &pl);
        jt_status st = jt_pose_read(self->rt, i, &pose);
        if (st) {
            raise_rt(self, st);
            goto fail;
        }
        PyObject *id = PyUnicode_FromString(jt_character_id(self->rt, i));
        PyObject *c = PyDict_New();
        PyObject *pd = c ? obpy_toon_pose_dict(self, &pose) : NULL;
        int bad = !id || !c || !pd || set_num(c, k[K_x], pl.x) < 0 || set_num(c, k[K_y], pl.y) < 0 ||
                  set_num(c, k[K_h], pl.h) < 0 || set_num(c, k[K_facing], pl.facing) < 0 ||
                  put_k(c, k[K_visible], PyBool_FromLong(pl.visible)) < 0 || put_k(c, k[K_pose], pd) < 0 ||
                  put_k(c, k[K_talking], PyLong_FromLong(pl.talking)) < 0 || PyDict_SetItem(chars, id, c) < 0;
        Py_XDECREF(c);
        if (bad) {
            Py_XDECREF(id);
            goto fail;
        }
        PyList_SET_ITEM(order, i, id);
    }
    if (PyDict_SetItem(f, k[K_characters], chars) < 0 || PyDict_SetItem(f, k[K_order], order) < 0) goto fail;
    Py_DECREF(chars);
    Py_DECREF(order);
    return f;
fail:
    Py_XDECREF(f);
    Py_XDECREF(chars);
    Py_XDECREF(order);
    return NULL;
}

/* stage() -> (t, scene, place, background, grade, caption): the frame without the characters */
static PyObject *rt_stage(RuntimeObject *self, PyObject *unused)
{
    (void)unused;
    NEED_RT(self);
    jt_stage_view sv;
    jt_stage_read(self->rt, &sv);
    return Py_BuildValue("(dNNNNN)", sv.t, str_or_none(sv.scene), str_or_none(sv.place), str_or_none(sv.background),
                         str_or_none(sv.grade), str_or_none(sv.caption));
}

static PyObject *rt_stats(RuntimeObject *self, PyObject *unused)
{
    (void)unused;
    NEED_RT(self);
    jt_director_stats st;
    jt_director_stats_read(self->rt, &st);
    return Py_BuildValue("{s:i,s:i,s:i,s:i,s:i}", "live_items", st.live_items, "displayed_captions",
                         st.displayed_captions, "open_scopes", st.open_scopes, "queue", st.queue, "open_records",
                         st.open_records);
}

static PyObject *toon_cartoon_program(PyObject *self, PyObject *arg)
{
    (void)self;
    Py_ssize_t len;
    const char *text = PyUnicode_AsUTF8AndSize(arg, &len);
    if (!text) return NULL;
    char err[300];
    char *out = jt_cartoon_program(text, (size_t)len, err, sizeof err);
    if (!out) {
        PyErr_SetString(obpy_toon_error, err);
        return NULL;
    }
    PyObject *r = PyUnicode_FromString(out);
    free(out);
    return r;
}

static PyObject *toon_estimate_speech(PyObject *self, PyObject *args)
{
    (void)self;
    const char *text;
    double speed = 1;
    if (!PyArg_ParseTuple(args, "s|d", &text, &speed)) return NULL;
    return PyFloat_FromDouble(jt_estimate_speech(text, speed));
}

double jt_js_to_number(const char *s);

static PyObject *toon_to_number(PyObject *self, PyObject *arg)
{
    (void)self;
    const char *s = PyUnicode_AsUTF8(arg);
    if (!s) return NULL;
    return PyFloat_FromDouble(jt_js_to_number(s));
}

PyMethodDef obpy_toon_functions[] = {
    {"toon_cartoon_program", toon_cartoon_program, METH_O,
     "toon_cartoon_program(text) -> text\n§7.1 cartoonProgram: a pack content's outer cast and places merged in."},
    {"toon_estimate_speech", toon_estimate_speech, METH_VARARGS,
     "toon_estimate_speech(text, speed=1) -> seconds\n§7.4 the default line length."},
    {"toon_to_number", toon_to_number, METH_O, "toon_to_number(text) -> float\nJavaScript ToNumber of a text."},
    {"toon_load", toon_load, METH_O,
     "toon_load(text) -> (ToonProgram | None, errors, warnings)\nValidate and compile Jabbertoon program JSON."},
    {NULL, NULL, 0, NULL}};

int obpy_toon_prepare(PyObject *m)
{
    obpy_toon_error = PyErr_NewExceptionWithDoc(
        "openbone.toon.ToonError",
        "An invalid Jabbertoon program, an unknown character, a formula error at run time (a ValueError).",
        obpy_error, NULL);
    if (!obpy_toon_error || PyModule_AddObjectRef(m, "ToonError", obpy_toon_error) < 0) return -1;
    if (PyType_Ready(&obpy_toon_program_type) < 0 || PyType_Ready(&obpy_toon_runtime_type) < 0) return -1;
    if (PyModule_AddObjectRef(m, "ToonProgram", (PyObject *)&obpy_toon_program_type) < 0) return -1;
    if (PyModule_AddObjectRef(m, "ToonRuntime", (PyObject *)&obpy_toon_runtime_type) < 0) return -1;
    return PyModule_AddFunctions(m, obpy_toon_functions);
}
