/* py_earcut.c: openbone._core binding of csrc/earcut.c (runtime spec §8.5).
** Thin glue: check and convert the arguments, call the C core, return a
** NumPy uint32 array.  Every argument error raises openbone.OpenBoneError
** (obpy_error). */
#include "obpy.h"

#include <string.h>

#include "../earcut.h"

/* Vertex and hole indices are uint32 in the core; leave room for its nodes. */
#define MAX_VERTICES ((npy_intp)1 << 28)

/* vertices: any numeric array-like of shape (n, 2) or (2n,), as a C-contiguous
** float64 array; *n gets the vertex count.  NULL with obpy_error set on bad
** input. */
static PyArrayObject *get_vertices(PyObject *obj, npy_intp *n)
{
    PyArrayObject *arr = (PyArrayObject *)PyArray_FromAny(obj, NULL, 0, 0, 0, NULL);
    if (arr == NULL) {
        if (PyErr_ExceptionMatches(PyExc_ValueError) || PyErr_ExceptionMatches(PyExc_TypeError)) {
            PyErr_Clear();
            PyErr_SetString(obpy_error, "earcut: vertices must be a numeric array-like of "
                            "shape (n, 2) or (2n,)");
        }
        return NULL;
    }
    const char kind = PyArray_DESCR(arr)->kind;
    if (kind != 'i' && kind != 'u' && kind != 'f') {
        PyErr_Format(obpy_error, "earcut: vertices must be numeric (int or float), got "
                     "dtype %S", (PyObject *)PyArray_DESCR(arr));
        Py_DECREF(arr);
        return NULL;
    }
    const int nd = PyArray_NDIM(arr);
    const npy_intp *shape = PyArray_DIMS(arr);
    if (nd == 2 && shape[1] == 2) {
        *n = shape[0];
    } else if (nd == 1 && shape[0] % 2 == 0) {
        *n = shape[0] / 2;
    } else {
        PyObject *s = PyObject_GetAttrString((PyObject *)arr, "shape");
        if (s) {
            PyErr_Format(obpy_error, "earcut: vertices must have shape (n, 2) or (2n,), "
                         "got shape %S", s);
            Py_DECREF(s);
        }
        Py_DECREF(arr);
        return NULL;
    }
    if (*n > MAX_VERTICES) {
        PyErr_Format(obpy_error, "earcut: too many vertices (%zd)", (Py_ssize_t)*n);
        Py_DECREF(arr);
        return NULL;
    }
    PyArrayObject *f64 = (PyArrayObject *)PyArray_FromArray(
        arr, PyArray_DescrFromType(NPY_FLOAT64), NPY_ARRAY_IN_ARRAY | NPY_ARRAY_FORCECAST);
    Py_DECREF(arr);
    return f64;
}

/* holes: None or a sequence of vertex indices where hole rings start,
** strictly increasing and below n.  *out is PyMem-allocated (NULL if none). */
static int get_holes(PyObject *obj, npy_intp n, uint32_t **out, size_t *n_holes)
{
    *out = NULL;
    *n_holes = 0;
    if (obj == Py_None) return 0;
    if (PyUnicode_Check(obj) || PyBytes_Check(obj) || !PySequence_Check(obj)) {
        PyErr_Format(obpy_error, "earcut: holes must be None or a sequence of vertex "
                     "indices, got %.200s", Py_TYPE(obj)->tp_name);
        return -1;
    }
    PyObject *seq = PySequence_Fast(obj, "earcut: holes must be a sequence");
    if (seq == NULL) return -1;
    const Py_ssize_t len = PySequence_Fast_GET_SIZE(seq);
    uint32_t *h = PyMem_Malloc((size_t)(len > 0 ? len : 1) * sizeof(uint32_t));
    if (h == NULL) {
        Py_DECREF(seq);
        PyErr_NoMemory();
        return -1;
    }
    for (Py_ssize_t i = 0; i < len; i++) {
        PyObject *item = PySequence_Fast_GET_ITEM(seq, i);
        if (PyBool_Check(item) || !PyIndex_Check(item)) {
            PyErr_Format(obpy_error, "earcut: holes[%zd] must be an integer vertex index, "
                         "got %.200s", i, Py_TYPE(item)->tp_name);
            goto fail;
        }
        PyObject *idx = PyNumber_Index(item);
        if (idx == NULL) goto fail;
        int overflow = 0;
        long long v = PyLong_AsLongLongAndOverflow(idx, &overflow);
        Py_DECREF(idx);
        if (v == -1 && PyErr_Occurred()) goto fail;
        if (overflow != 0 || v < 0 || v >= (long long)n) {
            if (n == 0)
                PyErr_Format(obpy_error, "earcut: holes[%zd] = %S is out of range: the "
                             "polygon has no vertices", i, item);
            else
                PyErr_Format(obpy_error, "earcut: holes[%zd] = %S is out of range: hole "
                             "indices must be in 0..%zd (the polygon has %zd vertices)",
                             i, item, (Py_ssize_t)n - 1, (Py_ssize_t)n);
            goto fail;
        }
        if (i > 0 && (uint32_t)v <= h[i - 1]) {
            PyErr_Format(obpy_error, "earcut: holes must be strictly increasing, but "
                         "holes[%zd] = %lld follows %lu", i, v, (unsigned long)h[i - 1]);
            goto fail;
        }
        h[i] = (uint32_t)v;
    }
    Py_DECREF(seq);
    *out = h;
    *n_holes = (size_t)len;
    return 0;
fail:
    Py_DECREF(seq);
    PyMem_Free(h);
    return -1;
}

PyObject *obpy_earcut(PyObject *self, PyObject *args, PyObject *kwargs)
{
    static char *kwlist[] = {"vertices", "holes", NULL};
    PyObject *vobj, *hobj = Py_None;
    (void)self;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O|O:earcut", kwlist, &vobj, &hobj))
        return NULL;

    npy_intp n = 0;
    PyArrayObject *verts = get_vertices(vobj, &n);
    if (verts == NULL) return NULL;
    uint32_t *holes = NULL;
    size_t n_holes = 0;
    if (get_holes(hobj, n, &holes, &n_holes) < 0) {
        Py_DECREF(verts);
        return NULL;
    }

    /* a user entry point: one context per call */
    ob_earcut_ctx *ctx = ob_earcut_ctx_create();
    PyObject *result = NULL;
    if (ctx == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    const double *xy = (const double *)PyArray_DATA(verts);
    const uint32_t *tri = NULL;
    size_t n_tri = 0;
    int rc;
    Py_BEGIN_ALLOW_THREADS
    rc = ob_earcut(ctx, xy, (size_t)n, holes, n_holes, &tri, &n_tri);
    Py_END_ALLOW_THREADS
    if (rc != 0) {
        PyErr_NoMemory();
        goto done;
    }
    npy_intp dims[1] = {(npy_intp)n_tri};
    result = PyArray_SimpleNew(1, dims, NPY_UINT32);
    if (result != NULL && n_tri > 0)
        memcpy(PyArray_DATA((PyArrayObject *)result), tri, n_tri * sizeof(uint32_t));
done:
    ob_earcut_ctx_free(ctx);
    PyMem_Free(holes);
    Py_DECREF(verts);
    return result;
}
