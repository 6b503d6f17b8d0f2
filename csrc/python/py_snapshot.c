/* py_snapshot.c: Instance._copy_core, _snapshot, _restore (csrc/snapshot.c):
** the C half of Instance.copy() and of pickling. */
#include "obpy.h"

#include "../include/openbone.h"

static PyObject *copy_core(obpy_instance *self, PyObject *unused)
{
    (void)unused;
    if (!self->inst) {
        PyErr_SetString(PyExc_RuntimeError, "Instance not initialised");
        return NULL;
    }
    ob_error err;
    ob_instance *copy = ob_instance_copy(self->inst, &err);
    if (!copy) return obpy_raise(&err);
    PyTypeObject *type = Py_TYPE(self);
    obpy_instance *o = (obpy_instance *)type->tp_alloc(type, 0);
    if (!o) {
        ob_instance_free(copy);
        return NULL;
    }
    o->inst = copy;
    o->document = Py_NewRef(self->document);
    return (PyObject *)o;
}

static PyObject *snapshot(obpy_instance *self, PyObject *unused)
{
    (void)unused;
    if (!self->inst) {
        PyErr_SetString(PyExc_RuntimeError, "Instance not initialised");
        return NULL;
    }
    ob_error err;
    size_t n = 0;
    if (ob_instance_snapshot(self->inst, NULL, 0, &n, &err) != OB_OK) return obpy_raise(&err);
    PyObject *out = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)n);
    if (!out) return NULL;
    if (ob_instance_snapshot(self->inst, PyBytes_AS_STRING(out), n, &n, &err) != OB_OK) {
        Py_DECREF(out);
        return obpy_raise(&err);
    }
    return out;
}

static PyObject *restore(obpy_instance *self, PyObject *arg)
{
    if (!self->inst) {
        PyErr_SetString(PyExc_RuntimeError, "Instance not initialised");
        return NULL;
    }
    Py_buffer view;
    if (PyObject_GetBuffer(arg, &view, PyBUF_SIMPLE) < 0) return NULL;
    ob_error err;
    ob_status st = ob_instance_restore(self->inst, view.buf, (size_t)view.len, &err);
    PyBuffer_Release(&view);
    if (st != OB_OK) return obpy_raise(&err);
    Py_RETURN_NONE;
}

PyMethodDef obpy_snapshot_methods[] = {
    {"_copy_core", (PyCFunction)copy_core, METH_NOARGS,
     "A new instance of the same type in the same C state (ob_instance_copy); Python attributes not copied."},
    {"_snapshot", (PyCFunction)snapshot, METH_NOARGS, "The whole C state as bytes (ob_instance_snapshot)."},
    {"_restore", (PyCFunction)restore, METH_O, "Restores bytes from _snapshot (ob_instance_restore)."},
    {NULL, NULL, 0, NULL}};
