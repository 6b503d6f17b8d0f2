/* py_batch.c: openbone._core.Batch, many instances stepped per call across
** threads (csrc/batch.c), with the GIL released.  openbone.advance_all and
** openbone.bake_all (openbone/batch.py) call it. */
#include "obpy.h"

#include <stdlib.h>

#include "../instance.h"

typedef struct {
    PyObject_HEAD
    ob_batch *batch;
} BatchObject;

static int batch_init(BatchObject *self, PyObject *args, PyObject *kwargs)
{
    static char *kw[] = {"threads", NULL};
    PyObject *othreads = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|O", kw, &othreads)) return -1;
    long threads = 0;
    if (othreads != Py_None) {
        if (!PyLong_Check(othreads)) {
            PyErr_Format(PyExc_TypeError, "Batch: threads must be an int or None, got %.100s",
                         Py_TYPE(othreads)->tp_name);
            return -1;
        }
        int overflow;
        threads = PyLong_AsLongAndOverflow(othreads, &overflow);
        if (threads == -1 && PyErr_Occurred()) return -1;
        if (overflow || threads < 1 || threads > 256) {
            PyErr_Format(obpy_error, "Batch: threads must be 1..256 or None (the CPUs this process may use), got %S", othreads);
            return -1;
        }
    }
    if (self->batch) {
        PyErr_SetString(PyExc_RuntimeError, "Batch already initialised");
        return -1;
    }
    ob_error err;
    self->batch = ob_batch_create((int)threads, &err);
    if (!self->batch) {
        obpy_raise(&err);
        return -1;
    }
    return 0;
}

static void batch_dealloc(BatchObject *self)
{
    ob_batch_free(self->batch);  /* joins the idle pool threads */
    Py_TYPE(self)->tp_free((PyObject *)self);
}

#define NEED_BATCH(self)                                                                   \
    if (!(self)->batch) {                                                                  \
        PyErr_SetString(PyExc_RuntimeError, "Batch not initialised");                      \
        return NULL;                                                                       \
    }

/* The instances of one call: a strong reference to each (the list may change
** while the GIL is released), their C handles, and which need the GIL.  One
** allocation holds every array and the duplicate check's table. */
typedef struct {
    Py_ssize_t n;
    obpy_instance **objs;
    ob_instance **free_threaded; /* stepped by the pool, GIL released */
    Py_ssize_t n_free;
    obpy_instance **gil;         /* a script host may call Python: stepped here, GIL held */
    Py_ssize_t n_gil;
    unsigned long *prev_busy;
    void *block;
} call_set;

static void call_set_clear(call_set *cs)
{
    for (Py_ssize_t i = 0; i < cs->n; i++) Py_DECREF(cs->objs[i]);
    PyMem_Free(cs->block);
    memset(cs, 0, sizeof *cs);
}

/* Checks every item before anything moves: an initialised openbone Instance,
** not busy in another thread, named once (an open-addressing table of the
** pointers: O(n), where a sort cost 40 us for 1,000 instances). */
static int call_set_build(call_set *cs, PyObject *seq, const char *what)
{
    memset(cs, 0, sizeof *cs);
    PyObject *fast = PySequence_Fast(seq, "");
    if (!fast) {
        PyErr_Clear();
        PyErr_Format(obpy_error, "%s: instances must be a sequence of openbone Instances, got %.100s", what,
                     Py_TYPE(seq)->tp_name);
        return -1;
    }
    Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
    size_t cap = 16;
    while (cap < 2 * (size_t)n) cap *= 2;
    size_t each = (size_t)n > 0 ? (size_t)n : 1;
    if (each > PY_SSIZE_T_MAX / 8 / (4 * sizeof(void *))) {
        Py_DECREF(fast);
        PyErr_NoMemory();
        return -1;
    }
    /* objs, free_threaded, gil: pointers; prev_busy: unsigned long; the table: cap pointers */
    cs->block = PyMem_Malloc(each * (3 * sizeof(void *) + sizeof(unsigned long)) + cap * sizeof(void *));
    if (!cs->block) {
        Py_DECREF(fast);
        PyErr_NoMemory();
        return -1;
    }
    cs->objs = cs->block;
    cs->free_threaded = (ob_instance **)(cs->objs + each);
    cs->gil = (obpy_instance **)(cs->free_threaded + each);
    cs->prev_busy = (unsigned long *)(cs->gil + each);
    const void **seen = (const void **)(cs->prev_busy + each);
    memset(seen, 0, cap * sizeof *seen);
    PyObject **items = PySequence_Fast_ITEMS(fast);
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *o = items[i];
        if (!PyObject_TypeCheck(o, &obpy_instance_type)) {
            PyErr_Format(obpy_error, "%s: item %zd is a %.100s, not an openbone Instance", what, i,
                         Py_TYPE(o)->tp_name);
            goto fail;
        }
        obpy_instance *inst = (obpy_instance *)o;
        if (!inst->inst) {
            PyErr_Format(obpy_error, "%s: item %zd is an Instance that was never initialised", what, i);
            goto fail;
        }
        if (obpy_in_use(inst)) goto fail;
        uint64_t h = (uint64_t)(uintptr_t)o * 0x9e3779b97f4a7c15ULL;
        for (size_t k = (size_t)(h >> 32) & (cap - 1);; k = (k + 1) & (cap - 1)) {
            if (!seen[k]) {
                seen[k] = o;
                break;
            }
            if (seen[k] == o) {
                Py_ssize_t first = 0;
                while (items[first] != o) first++;
                PyErr_Format(obpy_error, "%s: item %zd is item %zd again (each instance once per call)", what, i,
                             first);
                goto fail;
            }
        }
        Py_INCREF(o);
        cs->objs[cs->n++] = inst;
        if (obpy_needs_gil(inst)) cs->gil[cs->n_gil++] = inst;
        else cs->free_threaded[cs->n_free++] = inst->inst;
    }
    Py_DECREF(fast);
    return 0;
fail:
    Py_DECREF(fast);
    call_set_clear(cs);
    return -1;
}

static void mark_busy(call_set *cs)
{
    unsigned long me = PyThread_get_thread_ident();
    for (Py_ssize_t i = 0; i < cs->n; i++) {
        cs->prev_busy[i] = cs->objs[i]->busy;
        cs->objs[i]->busy = me;
    }
}

static void unmark_busy(call_set *cs)
{
    for (Py_ssize_t i = 0; i < cs->n; i++) cs->objs[i]->busy = cs->prev_busy[i];
}

static int parse_dt(PyObject *odt, const char *what, double *dt)
{
    if (obpy_double(odt, what, dt) < 0) return -1;
    if (!OBPY_DT_OK(*dt)) {
        obpy_bad_dt(what, *dt);
        return -1;
    }
    return 0;
}

static PyObject *batch_advance(BatchObject *self, PyObject *args, PyObject *kwargs)
{
    static char *kw[] = {"instances", "dt", NULL};
    PyObject *seq, *odt;
    NEED_BATCH(self);
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OO", kw, &seq, &odt)) return NULL;
    double dt;
    if (parse_dt(odt, "advance_all", &dt) < 0) return NULL;
    call_set cs;
    if (call_set_build(&cs, seq, "advance_all") < 0) return NULL;
    mark_busy(&cs);
    ob_error err;
    ob_status st;
    Py_BEGIN_ALLOW_THREADS
    st = ob_batch_advance(self->batch, cs.free_threaded, (size_t)cs.n_free, dt, &err);
    Py_END_ALLOW_THREADS
    if (st == OB_OK)
        for (Py_ssize_t i = 0; i < cs.n_gil; i++) ob_instance_advance(cs.gil[i]->inst, dt);
    unmark_busy(&cs);
    call_set_clear(&cs);
    if (st != OB_OK) return obpy_raise(&err);
    if (PyErr_Occurred()) return NULL;
    Py_RETURN_NONE;
}

static PyObject *batch_bake(BatchObject *self, PyObject *args, PyObject *kwargs)
{
    static char *kw[] = {"instances", "dt", "steps", NULL};
    PyObject *seq, *odt, *osteps;
    NEED_BATCH(self);
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OOO", kw, &seq, &odt, &osteps)) return NULL;
    double dt;
    if (parse_dt(odt, "bake_all", &dt) < 0) return NULL;
    if (!PyLong_Check(osteps))
        return PyErr_Format(PyExc_TypeError, "bake_all: steps must be an int, got %.100s", Py_TYPE(osteps)->tp_name);
    int overflow;
    long long steps = PyLong_AsLongLongAndOverflow(osteps, &overflow);
    if (steps == -1 && PyErr_Occurred()) return NULL;
    if (overflow || steps < 0 || steps > OBPY_MAX_BAKE_STEPS)
        return PyErr_Format(obpy_error, "bake_all: steps must be 0..%lld, got %.40S", (long long)OBPY_MAX_BAKE_STEPS,
                            osteps);
    call_set cs;
    if (call_set_build(&cs, seq, "bake_all") < 0) return NULL;
    double bytes = 0;
    for (Py_ssize_t i = 0; i < cs.n; i++) bytes += (double)steps * cs.objs[i]->inst->doc->bone_count * 6 * sizeof(double);
    if (bytes > OBPY_MAX_BAKE_BYTES) {
        call_set_clear(&cs);
        return PyErr_Format(obpy_error, "bake_all: %lld steps of these instances need %.0f bytes, more than the %lld "
                            "a call may return (bake in parts)", steps, bytes, (long long)OBPY_MAX_BAKE_BYTES);
    }
    PyObject *result = PyList_New(cs.n);
    double **out = PyMem_Calloc(cs.n > 0 ? (size_t)cs.n : 1, sizeof *out);
    double **out_free = PyMem_Calloc(cs.n > 0 ? (size_t)cs.n : 1, sizeof *out_free);
    if (!result || !out || !out_free) {
        Py_XDECREF(result);
        PyMem_Free(out);
        PyMem_Free(out_free);
        call_set_clear(&cs);
        return PyErr_NoMemory();
    }
    Py_ssize_t nf = 0;
    for (Py_ssize_t i = 0; i < cs.n; i++) {
        npy_intp dims[3] = {(npy_intp)steps, cs.objs[i]->inst->doc->bone_count, 6};
        PyObject *arr = PyArray_ZEROS(3, dims, NPY_DOUBLE, 0);
        if (!arr) {
            Py_DECREF(result);
            PyMem_Free(out);
            PyMem_Free(out_free);
            call_set_clear(&cs);
            return NULL;
        }
        PyList_SET_ITEM(result, i, arr);
        out[i] = (double *)PyArray_DATA((PyArrayObject *)arr);
        if (!obpy_needs_gil(cs.objs[i])) out_free[nf++] = out[i];  /* same order as cs.free_threaded */
    }
    mark_busy(&cs);
    ob_error err;
    ob_status st;
    Py_BEGIN_ALLOW_THREADS
    st = ob_batch_bake(self->batch, cs.free_threaded, (size_t)cs.n_free, dt, (int)steps, out_free, &err);
    Py_END_ALLOW_THREADS
    if (st == OB_OK)
        for (Py_ssize_t i = 0, g = 0; i < cs.n && g < cs.n_gil; i++)
            if (cs.objs[i] == cs.gil[g]) {
                ob_instance_bake(cs.gil[g]->inst, dt, (int)steps, out[i]);
                g++;
            }
    unmark_busy(&cs);
    call_set_clear(&cs);
    PyMem_Free(out);
    PyMem_Free(out_free);
    if (st != OB_OK) {
        Py_DECREF(result);
        return obpy_raise(&err);
    }
    if (PyErr_Occurred()) {
        Py_DECREF(result);
        return NULL;
    }
    return result;
}

static PyObject *batch_thread_stats(BatchObject *self, PyObject *unused)
{
    (void)unused;
    NEED_BATCH(self);
    int n = ob_batch_threads(self->batch);
    PyObject *list = PyList_New(n);
    if (!list) return NULL;
    for (int s = 0; s < n; s++) {
        double cpu = 0;
        uint64_t items = 0;
        Py_BEGIN_ALLOW_THREADS  /* waits for a call running in another thread */
        ob_batch_thread_stats(self->batch, s, &cpu, &items);
        Py_END_ALLOW_THREADS
        PyObject *t = Py_BuildValue("(dK)", cpu, (unsigned long long)items);
        if (!t) {
            Py_DECREF(list);
            return NULL;
        }
        PyList_SET_ITEM(list, s, t);
    }
    return list;
}

static PyObject *batch_get_threads(BatchObject *self, void *c)
{
    (void)c;
    NEED_BATCH(self);
    return PyLong_FromLong(ob_batch_threads(self->batch));
}

static PyMethodDef batch_methods[] = {
    {"advance_all", (PyCFunction)(void (*)(void))batch_advance, METH_VARARGS | METH_KEYWORDS,
     "advance_all(instances, dt): Instance.advance(dt) on every instance, across the pool's threads."},
    {"bake_all", (PyCFunction)(void (*)(void))batch_bake, METH_VARARGS | METH_KEYWORDS,
     "bake_all(instances, dt, steps) -> list of (steps, n_bones, 6) float64: Instance.bake on every instance."},
    {"thread_stats", (PyCFunction)batch_thread_stats, METH_NOARGS,
     "thread_stats() -> [(cpu_seconds, instances)] per thread slot (0 = the calling thread), since creation."},
    {NULL, NULL, 0, NULL}};

static PyGetSetDef batch_getset[] = {
    {"threads", (getter)batch_get_threads, NULL, "Threads that step instances (the caller's included).", NULL},
    {NULL, NULL, NULL, NULL, NULL}};

static PyTypeObject batch_type = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "openbone._core.Batch",
    .tp_basicsize = sizeof(BatchObject),
    .tp_dealloc = (destructor)batch_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Batch(threads=None): a pool of threads stepping many instances per call (None = the CPUs this process may use).",
    .tp_init = (initproc)batch_init,
    .tp_new = PyType_GenericNew,
    .tp_methods = batch_methods,
    .tp_getset = batch_getset,
};

int obpy_batch_prepare(PyObject *m)
{
    if (PyType_Ready(&batch_type) < 0) return -1;
    return PyModule_AddObjectRef(m, "Batch", (PyObject *)&batch_type);
}
