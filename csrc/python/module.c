/* module.c: openbone._core, the thin CPython binding of the C core. */
#define OBPY_MODULE_MAIN
#include "obpy.h"

PyObject *obpy_error = NULL;

extern PyTypeObject obpy_document_type;
extern PyTypeObject obpy_instance_type;
PyObject *obpy_load_bytes(PyObject *self, PyObject *arg);
PyObject *obpy_json_to_binary(PyObject *self, PyObject *args);
PyObject *obpy_binary_to_json(PyObject *self, PyObject *args);
int obpy_toon_prepare(PyObject *m);  /* py_toon.c: Jabbertoon */

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
    return m;
fail:
    Py_DECREF(m);
    return NULL;
}
