/* module.c: openbone._core, the thin CPython binding of the C core. */
#define OBPY_MODULE_MAIN
#include "obpy.h"

#include <stdio.h>

#include "../state_machine.h"

PyObject *obpy_error = NULL;

extern PyTypeObject obpy_document_type;
extern PyTypeObject obpy_instance_type;
PyObject *obpy_load_bytes(PyObject *self, PyObject *arg);
PyObject *obpy_json_to_binary(PyObject *self, PyObject *args);
PyObject *obpy_binary_to_json(PyObject *self, PyObject *args);
int obpy_toon_prepare(PyObject *m);  /* py_toon.c: Jabbertoon */
int obpy_batch_prepare(PyObject *m);  /* py_batch.c: many instances per call */
PyObject *obpy_trig(PyObject *self, PyObject *args);  /* py_trig.c: test hook of obtrig.h */
PyObject *obpy_bench_bare_pose(PyObject *self, PyObject *args);  /* py_trig.c: bench baseline */

/* ---- threads (obpy.h) ------------------------------------------------------ */

int obpy_in_use(obpy_instance *self)
{
    if (self->busy && self->busy != PyThread_get_thread_ident()) {
        PyErr_SetString(PyExc_RuntimeError, "this Instance is in use by another thread (advance, bake, draw...); "
                                            "an Instance may be used by one thread at a time");
        return 1;
    }
    return 0;
}

int obpy_needs_gil(const obpy_instance *self)
{
    /* the shared document first: a rig without scripts answers without a load
    ** from the instance's own memory (advance_all asks for every instance) */
    const ob_document *doc = self->document ? obpy_document_ptr(self->document) : self->inst->doc;
    if (doc->script_count == 0) return 0;
    const ob_sm_state *sm = self->inst->sm;
    return sm && sm->host;
}

int obpy_begin(obpy_instance *self, obpy_call *c)
{
    if (obpy_in_use(self)) return -1;
    c->prev = self->busy;
    c->ts = NULL;
    self->busy = PyThread_get_thread_ident();
    if (!obpy_needs_gil(self))
        c->ts = PyEval_SaveThread();  /* no Python can be called back: no host, or no script to run */
    return 0;
}

void obpy_end(obpy_instance *self, obpy_call *c)
{
    if (c->ts) PyEval_RestoreThread(c->ts);
    self->busy = c->prev;
}

/* ---- argument conversions shared by the binding files (obpy.h) ---------- */

PyObject *obpy_arg_error(const char *what)
{
    if (PyErr_ExceptionMatches(PyExc_OverflowError)) {  /* 10**400, 2**40 for an index... */
        PyObject *type, *value, *tb;
        PyErr_Fetch(&type, &value, &tb);
        PyErr_Format(obpy_error, "%s: a number is out of range (%S)", what, value ? value : Py_None);
        Py_XDECREF(type); Py_XDECREF(value); Py_XDECREF(tb);
    } else if (PyErr_ExceptionMatches(PyExc_UnicodeEncodeError)) {  /* a str holding a lone surrogate */
        PyErr_Clear();
        PyErr_Format(obpy_error, "%s: the text is not valid Unicode (a lone surrogate)", what);
    }
    return NULL;
}

int obpy_double(PyObject *o, const char *what, double *out)
{
    *out = PyFloat_AsDouble(o);
    if (*out == -1 && PyErr_Occurred()) {
        if (PyErr_ExceptionMatches(PyExc_TypeError)) {
            PyErr_Clear();
            PyErr_Format(PyExc_TypeError, "%s: expected a number, got %.100s", what, Py_TYPE(o)->tp_name);
        } else {
            obpy_arg_error(what);
        }
        return -1;
    }
    return 0;
}

PyObject *obpy_bad_dt(const char *what, double dt)
{
    char got[32];
    snprintf(got, sizeof got, "%g", dt);
    return PyErr_Format(obpy_error, "%s: dt must be a finite number of seconds with |dt| <= 1e9, got %s", what, got);
}

static PyMethodDef methods[] = {
    {"load_bytes", obpy_load_bytes, METH_O,
     "load_bytes(data: bytes) -> Document\nParse a .obone (JSON) or .obonb (binary, by its OBNB magic) document."},
    {"json_to_binary", obpy_json_to_binary, METH_VARARGS,
     "json_to_binary(text: str) -> bytes\nEncode JSON text as .obonb."},
    {"binary_to_json", obpy_binary_to_json, METH_VARARGS,
     "binary_to_json(data: bytes, pretty: bool = False) -> str\nDecode .obonb (or re-print JSON) as JSON text."},
    {"earcut", (PyCFunction)(void (*)(void))obpy_earcut, METH_VARARGS | METH_KEYWORDS,
     "earcut(vertices, holes=None) -> numpy.ndarray[uint32]\nTriangulate a polygon exactly as earcut 3.x."},
    {"js_to_string", obpy_js_to_string, METH_O, "js_to_string(v: float) -> str\nJavaScript String(v)."},
    {"js_to_fixed", obpy_js_to_fixed, METH_VARARGS, "js_to_fixed(v: float, digits: int) -> str\nJavaScript v.toFixed(digits)."},
    {"js_to_precision", obpy_js_to_precision, METH_VARARGS, "js_to_precision(v: float, p: int) -> str\nJavaScript v.toPrecision(p)."},
    {"format_number", obpy_format_number, METH_VARARGS, "format_number(v: float, pattern: str) -> str\n§8.9 formatNumber."},
    {"format_template", obpy_format_template, METH_VARARGS, "format_template(text: str, values: Mapping) -> str\n§8.9 formatTemplate."},
    {"_trig", obpy_trig, METH_VARARGS,
     "_trig(kind, a, b, vector) -> (sin, cos) of a | atan2(a, b)\nThe runtime's own trig (obtrig.h), for its tests."},
    {"_bench_bare_pose", obpy_bench_bare_pose, METH_VARARGS,
     "_bench_bare_pose(parents, poses, repeat) -> (best ns, checksum)\nA bare localMatrix + parent multiply loop (bench)."},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef moduledef = {
    PyModuleDef_HEAD_INIT, "openbone._core",
    "The openbone C core: documents, instances and the JS-exact helpers.", -1, methods,
    NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__core(void)
{
    import_array();
    PyObject *m = PyModule_Create(&moduledef);
    if (!m) return NULL;
    obpy_error = PyErr_NewExceptionWithDoc("openbone.OpenBoneError",
        "A document or argument the runtime cannot accept; the message names the place.",
        PyExc_ValueError, NULL);
    if (!obpy_error || PyModule_AddObjectRef(m, "OpenBoneError", obpy_error) < 0) goto fail;
    if (obpy_instance_prepare() < 0) goto fail;
    if (PyType_Ready(&obpy_document_type) < 0 || PyType_Ready(&obpy_instance_type) < 0) goto fail;
    if (PyModule_AddFunctions(m, obpy_animation_functions) < 0 || PyModule_AddFunctions(m, obpy_draw_functions) < 0)
        goto fail;
    if (PyModule_AddObjectRef(m, "Document", (PyObject *)&obpy_document_type) < 0) goto fail;
    if (PyModule_AddObjectRef(m, "Instance", (PyObject *)&obpy_instance_type) < 0) goto fail;
    if (obpy_toon_prepare(m) < 0) goto fail;
    if (obpy_batch_prepare(m) < 0) goto fail;
    return m;
fail:
    Py_DECREF(m);
    return NULL;
}
