/* obpy.h: shared declarations of the openbone._core binding files.
** The binding is thin: convert arguments, call the C core, wrap results. */
#ifndef OBPY_H
#define OBPY_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <math.h>

#include "../include/openbone.h"

/* One NumPy C-API table for every binding file; module.c defines
** OBPY_MODULE_MAIN and calls import_array(). */
#define NPY_NO_DEPRECATED_API NPY_1_7_API_VERSION
#define PY_ARRAY_UNIQUE_SYMBOL openbone_ARRAY_API
#ifndef OBPY_MODULE_MAIN
#define NO_IMPORT_ARRAY
#endif
#include <numpy/arrayobject.h>

/* openbone.OpenBoneError (a ValueError subclass), created in module.c. */
extern PyObject *obpy_error;

struct ob_error;
struct ob_document;
/* py_document.c */
extern PyTypeObject obpy_document_type;
/* Raises OpenBoneError (MemoryError for OB_ERR_MEMORY) with err's message; returns NULL. */
PyObject *obpy_raise(const struct ob_error *err);
/* The ob_document of a Document object, NULL with TypeError otherwise. */
struct ob_document *obpy_document_ptr(PyObject *o);
/* py_instance.c */
extern PyTypeObject obpy_instance_type;
struct ob_instance;
/* The Instance object: every binding file that adds methods sees this. */
typedef struct {
    PyObject_HEAD
    struct ob_instance *inst;
    PyObject *document;  /* keeps the Document alive */
    unsigned long busy;  /* the thread inside a long call on inst (obpy_begin), 0 when none */
} obpy_instance;

/* Threads (issue 21): a long call (advance, bake, draw_batch...) marks the
** instance busy with its thread and releases the GIL around the C work, unless
** a Python script host may be called back (then the GIL is kept).  While an
** instance is busy, calls on it from other threads raise RuntimeError (calls
** from the busy thread itself, the script host's, go through). */
typedef struct { unsigned long prev; PyThreadState *ts; } obpy_call;
int obpy_in_use(obpy_instance *self);          /* 1 with RuntimeError when busy in another thread */
int obpy_begin(obpy_instance *self, obpy_call *c);  /* -1 with RuntimeError */
void obpy_end(obpy_instance *self, obpy_call *c);
#define OBPY_NEED_INST(self)                                                                      \
    if (!(self)->inst) { PyErr_SetString(PyExc_RuntimeError, "Instance not initialised"); return NULL; } \
    if (obpy_in_use((obpy_instance *)(self))) return NULL;
/* A read-only NumPy view of C-owned memory, kept alive by owner. */
PyObject *obpy_view(PyObject *owner, void *data, int nd, npy_intp *dims, int type);

/* Instance methods and attributes contributed by each concern's binding
** file (NULL-terminated tables, merged into Instance at module init). */
extern PyMethodDef obpy_animation_methods[], obpy_constraint_methods[], obpy_draw_methods[],
    obpy_particle_methods[], obpy_sm_methods[], obpy_layer_methods[], obpy_snapshot_methods[];
extern PyGetSetDef obpy_animation_getset[], obpy_constraint_getset[], obpy_draw_getset[],
    obpy_particle_getset[], obpy_sm_getset[], obpy_layer_getset[];
/* Module-level functions contributed the same way (e.g. eval_curve). */
extern PyMethodDef obpy_animation_functions[], obpy_draw_functions[];
/* Merges the tables into the Instance type; called once before PyType_Ready. */
int obpy_instance_prepare(void);

/* module.c: argument conversions.  After a failed PyArg_Parse*, obpy_arg_error
** turns an OverflowError into OpenBoneError naming `what` (a TypeError stays);
** it returns NULL.  obpy_double: a number as a double (TypeError for a
** non-number, OpenBoneError when out of range); 0 or -1.  obpy_bad_dt raises
** the ob_instance_advance rule (finite, |dt| <= OB_MAX_DT) for dt. */
PyObject *obpy_arg_error(const char *what);
int obpy_double(PyObject *o, const char *what, double *out);
PyObject *obpy_bad_dt(const char *what, double dt);
#define OBPY_DT_OK(dt) (fabs(dt) <= OB_MAX_DT)
/* Instance.bake limits per call: steps, and bytes of the (steps, bones, 6) result */
#define OBPY_MAX_BAKE_STEPS 100000000LL
#define OBPY_MAX_BAKE_BYTES (1LL << 32)

/* py_earcut.c */
PyObject *obpy_earcut(PyObject *self, PyObject *args, PyObject *kwargs);

/* py_jsnum.c */
PyObject *obpy_js_to_string(PyObject *self, PyObject *arg);
PyObject *obpy_js_to_fixed(PyObject *self, PyObject *args);
PyObject *obpy_js_to_precision(PyObject *self, PyObject *args);
PyObject *obpy_format_number(PyObject *self, PyObject *args);
PyObject *obpy_format_template(PyObject *self, PyObject *args);

#endif
