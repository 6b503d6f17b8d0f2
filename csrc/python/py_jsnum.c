/* py_jsnum.c: openbone._core bindings of csrc/jsnum.c (runtime spec §12, §8.9).
** Thin glue: check and convert the arguments, call the C core, return str.
** Every argument error raises openbone.OpenBoneError (obpy_error). */
#include "obpy.h"

#include <string.h>

#include "../jsnum.h"

/* A JS number argument: int, float or anything with __float__/__index__,
** but not bool (True is not a number here) nor str. */
static int get_number(PyObject *o, const char *fn, const char *what, double *out)
{
    if (PyBool_Check(o) || !PyNumber_Check(o)) {
        PyErr_Format(obpy_error, "%s: %s must be a number, got %.200s", fn, what,
                     Py_TYPE(o)->tp_name);
        return -1;
    }
    double v = PyFloat_AsDouble(o);
    if (v == -1.0 && PyErr_Occurred()) {
        PyErr_Clear();
        PyErr_Format(obpy_error, "%s: %s must be a number convertible to float, "
                     "got %.200s", fn, what, Py_TYPE(o)->tp_name);
        return -1;
    }
    *out = v;
    return 0;
}

/* An integer argument in [lo, hi]. */
static int get_digits(PyObject *o, const char *fn, const char *what, int lo, int hi,
                      int *out)
{
    if (PyBool_Check(o) || !PyIndex_Check(o)) {
        PyErr_Format(obpy_error, "%s: %s must be an integer in %d..%d, got %.200s",
                     fn, what, lo, hi, Py_TYPE(o)->tp_name);
        return -1;
    }
    int overflow = 0;
    PyObject *idx = PyNumber_Index(o);
    if (idx == NULL)
        return -1;
    long v = PyLong_AsLongAndOverflow(idx, &overflow);
    Py_DECREF(idx);
    if (v == -1 && PyErr_Occurred())
        return -1;
    if (overflow != 0 || v < lo || v > hi) {
        PyErr_Format(obpy_error, "%s: %s must be an integer in %d..%d, got %S", fn,
                     what, lo, hi, o);
        return -1;
    }
    *out = (int)v;
    return 0;
}

/* UTF-8 of a str argument without NUL characters (the C core reads C strings). */
static const char *get_text(PyObject *o, const char *fn, const char *what)
{
    if (!PyUnicode_Check(o)) {
        PyErr_Format(obpy_error, "%s: %s must be a str, got %.200s", fn, what,
                     Py_TYPE(o)->tp_name);
        return NULL;
    }
    Py_ssize_t n;
    const char *s = PyUnicode_AsUTF8AndSize(o, &n);
    if (s == NULL) {
        PyErr_Clear();
        PyErr_Format(obpy_error, "%s: %s is not encodable as UTF-8", fn, what);
        return NULL;
    }
    if ((size_t)n != strlen(s)) {
        PyErr_Format(obpy_error, "%s: %s must not contain NUL characters", fn, what);
        return NULL;
    }
    return s;
}

static PyObject *to_str(const char *buf, int n, const char *fn)
{
    if (n < 0) {
        PyErr_Format(obpy_error, "%s: result too long", fn);
        return NULL;
    }
    return PyUnicode_DecodeUTF8(buf, n, "strict");
}

PyObject *obpy_js_to_string(PyObject *self, PyObject *arg)
{
    (void)self;
    double v;
    if (get_number(arg, "js_to_string", "v", &v) < 0)
        return NULL;
    char buf[OB_JSNUM_CAP];
    return to_str(buf, ob_js_to_string(v, buf, sizeof buf), "js_to_string");
}

PyObject *obpy_js_to_fixed(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *ov, *od;
    double v;
    int d;
    if (!PyArg_ParseTuple(args, "OO:js_to_fixed", &ov, &od))
        return NULL;
    if (get_number(ov, "js_to_fixed", "v", &v) < 0 ||
        get_digits(od, "js_to_fixed", "digits", 0, 100, &d) < 0)
        return NULL;
    char buf[OB_JSNUM_CAP];
    return to_str(buf, ob_js_to_fixed(v, d, buf, sizeof buf), "js_to_fixed");
}

PyObject *obpy_js_to_precision(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *ov, *op;
    double v;
    int p;
    if (!PyArg_ParseTuple(args, "OO:js_to_precision", &ov, &op))
        return NULL;
    if (get_number(ov, "js_to_precision", "v", &v) < 0 ||
        get_digits(op, "js_to_precision", "precision", 1, 100, &p) < 0)
        return NULL;
    char buf[OB_JSNUM_CAP];
    return to_str(buf, ob_js_to_precision(v, p, buf, sizeof buf), "js_to_precision");
}

PyObject *obpy_format_number(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *ov, *opat;
    double v;
    if (!PyArg_ParseTuple(args, "OO:format_number", &ov, &opat))
        return NULL;
    if (get_number(ov, "format_number", "v", &v) < 0)
        return NULL;
    const char *pat = get_text(opat, "format_number", "pattern");
    if (pat == NULL)
        return NULL;
    char small[1024];
    int n = ob_format_number(v, pat, small, sizeof small);
    if (n >= 0)
        return to_str(small, n, "format_number");
    /* prefix + suffix <= |pattern|; padding and separators <= 2 |pattern| */
    size_t cap = 2 * strlen(pat) + OB_JSNUM_CAP;
    char *big = PyMem_Malloc(cap);
    if (big == NULL)
        return PyErr_NoMemory();
    n = ob_format_number(v, pat, big, cap);
    PyObject *r = to_str(big, n, "format_number");
    PyMem_Free(big);
    return r;
}

/* format_template's lookup: values[name] for a Python mapping. */
typedef struct template_ctx {
    PyObject *values;
    PyObject *keep;  /* list holding the str values whose UTF-8 the core reads */
    int failed;      /* a Python error is set: answer MISSING from now on */
} template_ctx;

static ob_tvalue py_lookup(void *ud, const char *name)
{
    template_ctx *c = ud;
    ob_tvalue v;
    memset(&v, 0, sizeof v);
    v.kind = OB_TVALUE_MISSING;
    if (c->failed)
        return v;
    PyObject *key = PyUnicode_DecodeUTF8(name, (Py_ssize_t)strlen(name), "strict");
    if (key == NULL) {
        c->failed = 1;
        return v;
    }
    PyObject *item = PyObject_GetItem(c->values, key);
    if (item == NULL) {
        if (PyErr_ExceptionMatches(PyExc_KeyError))
            PyErr_Clear();  /* unknown name: left as written */
        else
            c->failed = 1;
        Py_DECREF(key);
        return v;
    }
    if (PyBool_Check(item)) {
        v.kind = OB_TVALUE_BOOL;
        v.boolean = item == Py_True;
    } else if (PyUnicode_Check(item)) {
        Py_ssize_t n;
        const char *s = PyUnicode_AsUTF8AndSize(item, &n);
        if (s == NULL) {
            PyErr_Clear();
            PyErr_Format(obpy_error, "format_template: value of %R is not "
                         "encodable as UTF-8", key);
            c->failed = 1;
        } else if ((size_t)n != strlen(s)) {
            PyErr_Format(obpy_error, "format_template: value of %R contains a "
                         "NUL character", key);
            c->failed = 1;
        } else if (PyList_Append(c->keep, item) < 0) {
            c->failed = 1;
        } else {
            v.kind = OB_TVALUE_STRING;
            v.string = s;
        }
    } else if (PyNumber_Check(item)) {
        double d = PyFloat_AsDouble(item);
        if (d == -1.0 && PyErr_Occurred()) {
            PyErr_Clear();
            PyErr_Format(obpy_error, "format_template: value of %R must be a "
                         "number, bool or str, got %.200s", key,
                         Py_TYPE(item)->tp_name);
            c->failed = 1;
        } else {
            v.kind = OB_TVALUE_NUMBER;
            v.number = d;
        }
    } else {
        PyErr_Format(obpy_error, "format_template: value of %R must be a number, "
                     "bool or str, got %.200s", key, Py_TYPE(item)->tp_name);
        c->failed = 1;
    }
    Py_DECREF(item);
    Py_DECREF(key);
    if (c->failed)
        v.kind = OB_TVALUE_MISSING;
    return v;
}

static int is_mapping(PyObject *o)
{
    if (PyDict_Check(o))
        return 1;
    PyObject *abc = PyImport_ImportModule("collections.abc");
    if (abc == NULL)
        return -1;
    PyObject *mapping = PyObject_GetAttrString(abc, "Mapping");
    Py_DECREF(abc);
    if (mapping == NULL)
        return -1;
    int r = PyObject_IsInstance(o, mapping);
    Py_DECREF(mapping);
    return r;
}

PyObject *obpy_format_template(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *otext, *values;
    if (!PyArg_ParseTuple(args, "OO:format_template", &otext, &values))
        return NULL;
    const char *text = get_text(otext, "format_template", "text");
    if (text == NULL)
        return NULL;
    int m = is_mapping(values);
    if (m < 0)
        return NULL;
    if (m == 0) {
        PyErr_Format(obpy_error, "format_template: values must be a mapping, "
                     "got %.200s", Py_TYPE(values)->tp_name);
        return NULL;
    }

    template_ctx ctx = {values, PyList_New(0), 0};
    if (ctx.keep == NULL)
        return NULL;
    char small[2048];
    char *buf = small;
    size_t cap = sizeof small;
    PyObject *result = NULL;
    /* The core reports the full length; grow once (or again if a mapping
    ** answers differently the second time). */
    for (int tries = 0; tries < 4; tries++) {
        size_t full = ob_format_template(text, py_lookup, &ctx, buf, cap);
        if (ctx.failed)
            break;
        if (full < cap) {
            result = PyUnicode_DecodeUTF8(buf, (Py_ssize_t)full, "strict");
            break;
        }
        if (buf != small)
            PyMem_Free(buf);
        cap = full + 1;
        buf = PyMem_Malloc(cap);
        if (buf == NULL) {
            PyErr_NoMemory();
            break;
        }
    }
    if (result == NULL && !PyErr_Occurred())
        PyErr_SetString(obpy_error, "format_template: the mapping kept changing "
                        "the result length");
    if (buf != small)
        PyMem_Free(buf);
    Py_DECREF(ctx.keep);
    return result;
}
