/* py_trig.c: openbone._core._trig, a test hook of csrc/obtrig.h (issue 17):
** the runtime's own sin/cos/atan2 over float64 arrays, through the array
** (vector) forms or one scalar call per value, for the error-bound and
** scalar/vector bit-equality tests. */
#include "obpy.h"

#include <string.h>

#include "../obtrig.h"

static PyArrayObject *as_f64(PyObject *o)
{
    return (PyArrayObject *)PyArray_FROMANY(o, NPY_FLOAT64, 1, 1, NPY_ARRAY_IN_ARRAY);
}

PyObject *obpy_trig(PyObject *self, PyObject *args)
{
    (void)self;
    const char *kind;
    PyObject *ao, *bo;
    int vector;
    if (!PyArg_ParseTuple(args, "sOOp", &kind, &ao, &bo, &vector)) return NULL;
    int sincos = !strcmp(kind, "sincos");
    if (!sincos && strcmp(kind, "atan2"))
        return PyErr_Format(obpy_error, "_trig: kind must be 'sincos' or 'atan2', got %.50s", kind);
    PyArrayObject *a = as_f64(ao), *b = NULL, *r0 = NULL, *r1 = NULL;
    if (!a) return NULL;
    npy_intp n = PyArray_DIM(a, 0);
    if (n > INT32_MAX) { PyErr_SetString(obpy_error, "_trig: too many values"); goto fail; }
    if (!sincos) {
        if (!(b = as_f64(bo))) goto fail;
        if (PyArray_DIM(b, 0) != n) { PyErr_SetString(obpy_error, "_trig: y and x differ in length"); goto fail; }
    }
    r0 = (PyArrayObject *)PyArray_SimpleNew(1, &n, NPY_FLOAT64);
    r1 = (PyArrayObject *)PyArray_SimpleNew(1, &n, NPY_FLOAT64);
    if (!r0 || !r1) goto fail;
    const double *x = PyArray_DATA(a), *y = b ? PyArray_DATA(b) : NULL;
    double *o0 = PyArray_DATA(r0), *o1 = PyArray_DATA(r1);
    if (sincos && vector) ob_sincos_n(x, o0, o1, (int32_t)n);
    else if (sincos) for (npy_intp i = 0; i < n; i++) ob_sincos(x[i], o0 + i, o1 + i);
    else if (vector) ob_atan2_n(x, y, o0, (int32_t)n);
    else for (npy_intp i = 0; i < n; i++) o0[i] = ob_atan2(x[i], y[i]);
    Py_DECREF(a);
    Py_XDECREF(b);
    if (!sincos) { Py_DECREF(r1); return (PyObject *)r0; }
    return Py_BuildValue("(NN)", r0, r1);
fail:
    Py_XDECREF(a); Py_XDECREF(b); Py_XDECREF(r0); Py_XDECREF(r1);
    return NULL;
}
