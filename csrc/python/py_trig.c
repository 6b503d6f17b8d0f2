/* py_trig.c: openbone._core._trig, a test hook of csrc/obtrig.h (issue 17):
** the runtime's own sin/cos/atan2 over float64 arrays, through the array
** (vector) forms or one scalar call per value, for the error-bound and
** scalar/vector bit-equality tests; and _bench_bare_pose, a bench baseline. */
#include "obpy.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../obmath.h"
#include "../obtrig_inv.h"

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
    int sincos = !strcmp(kind, "sincos"), acos_ = !strcmp(kind, "acos");  /* acos: (acos, sin(acos)) */
    if (!sincos && !acos_ && strcmp(kind, "atan2"))
        return PyErr_Format(obpy_error, "_trig: kind must be 'sincos', 'acos' or 'atan2', got %.50s", kind);
    PyArrayObject *a = as_f64(ao), *b = NULL, *r0 = NULL, *r1 = NULL;
    if (!a) return NULL;
    npy_intp n = PyArray_DIM(a, 0);
    if (n > INT32_MAX) { PyErr_SetString(obpy_error, "_trig: too many values"); goto fail; }
    if (!sincos && !acos_) {
        if (!(b = as_f64(bo))) goto fail;
        if (PyArray_DIM(b, 0) != n) { PyErr_SetString(obpy_error, "_trig: y and x differ in length"); goto fail; }
    }
    r0 = (PyArrayObject *)PyArray_SimpleNew(1, &n, NPY_FLOAT64);
    r1 = (PyArrayObject *)PyArray_SimpleNew(1, &n, NPY_FLOAT64);
    if (!r0 || !r1) goto fail;
    const double *x = PyArray_DATA(a), *y = b ? PyArray_DATA(b) : NULL;
    double *o0 = PyArray_DATA(r0), *o1 = PyArray_DATA(r1);
    if (acos_) for (npy_intp i = 0; i < n; i++) { double r; o0[i] = ob_acos_sin(x[i], 0, 1, o1 + i, &r); }
    else if (sincos && vector) ob_sincos_n(x, o0, o1, (int32_t)n);
    else if (sincos) for (npy_intp i = 0; i < n; i++) ob_sincos(x[i], o0 + i, o1 + i);
    else if (vector) ob_atan2_n(x, y, o0, (int32_t)n);
    else for (npy_intp i = 0; i < n; i++) o0[i] = ob_atan2(x[i], y[i]);
    Py_DECREF(a);
    Py_XDECREF(b);
    if (!sincos && !acos_) { Py_DECREF(r1); return (PyObject *)r0; }
    return Py_BuildValue("(NN)", r0, r1);
fail:
    Py_XDECREF(a); Py_XDECREF(b); Py_XDECREF(r0); Py_XDECREF(r1);
    return NULL;
}

/* _bench_bare_pose(parents int32[B], poses float64[F, B, 7], repeat) -> best ns per
** pass: the floor bench/bench_bake_bare.py compares Instance.bake with (issue 17): per frame
** and bone, §4.1 localMatrix with libm cos/sin and the parent multiply (normal inheritance,
** parents before children), nothing else.  Timed here so the loop is C on both sides. */
PyObject *obpy_bench_bare_pose(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *po, *qo;
    int repeat;
    if (!PyArg_ParseTuple(args, "OOi", &po, &qo, &repeat)) return NULL;
    PyArrayObject *par = (PyArrayObject *)PyArray_FROMANY(po, NPY_INT32, 1, 1, NPY_ARRAY_IN_ARRAY);
    if (!par) return NULL;
    PyArrayObject *pos = (PyArrayObject *)PyArray_FROMANY(qo, NPY_FLOAT64, 3, 3, NPY_ARRAY_IN_ARRAY);
    if (!pos) { Py_DECREF(par); return NULL; }
    npy_intp nb = PyArray_DIM(par, 0), nf = PyArray_DIM(pos, 0);
    const int32_t *parent = PyArray_DATA(par);
    int ok = PyArray_DIM(pos, 1) == nb && PyArray_DIM(pos, 2) == 7 && repeat > 0;
    for (npy_intp i = 0; ok && i < nb; i++) ok = parent[i] < i;
    ob_mat *world = ok ? malloc((size_t)(nb > 0 ? nb : 1) * sizeof *world) : NULL;
    if (!world) {
        Py_DECREF(par); Py_DECREF(pos);
        if (ok) return PyErr_NoMemory();
        return PyErr_Format(obpy_error, "_bench_bare_pose: poses must be (frames, %zd, 7), parents before children",
                            (Py_ssize_t)nb);
    }
    const double *q = PyArray_DATA(pos);
    double best = INFINITY, sink = 0;
    for (int r = 0; r < repeat; r++) {
        struct timespec t0, t1;
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t0);
        for (npy_intp f = 0; f < nf; f++) {
            for (npy_intp i = 0; i < nb; i++) {
                const double *p = q + 7 * (size_t)(f * nb + i);  /* x y rotation scaleX scaleY shearX shearY */
                double rx = (p[2] + p[5]) * OB_DEG, ry = (p[2] + 90 + p[6]) * OB_DEG;
                ob_mat L = {cos(rx) * p[3], cos(ry) * p[4], sin(rx) * p[3], sin(ry) * p[4], p[0], p[1]};
                world[i] = parent[i] < 0 ? L : ob_mat_mul(world[parent[i]], L);
            }
            sink += world[nb - 1].x;
        }
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t1);
        double ns = (double)(t1.tv_sec - t0.tv_sec) * 1e9 + (double)(t1.tv_nsec - t0.tv_nsec);
        if (ns < best) best = ns;
    }
    free(world);
    Py_DECREF(par); Py_DECREF(pos);
    return Py_BuildValue("(dd)", best, sink);
}
