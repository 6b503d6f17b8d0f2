/* py_document.c: openbone._core.Document, a loaded document (§2). */
#include "obpy.h"

#include <cjson/cJSON.h>
#include <stdlib.h>

#include "../binary.h"
#include "../document.h"

typedef struct {
    PyObject_HEAD
    ob_document *doc;
} DocumentObject;

PyObject *obpy_raise(const ob_error *err)
{
    PyErr_SetString(err->status == OB_ERR_MEMORY ? PyExc_MemoryError : obpy_error, err->message);
    return NULL;
}

static int get_bytes(PyObject *arg, Py_buffer *view)
{
    if (PyUnicode_Check(arg)) {
        PyErr_SetString(PyExc_TypeError, "expected bytes (encode text as UTF-8 first)");
        return -1;
    }
    return PyObject_GetBuffer(arg, view, PyBUF_SIMPLE);
}

PyObject *obpy_load_bytes(PyObject *self, PyObject *arg)
{
    (void)self;
    Py_buffer view;
    if (get_bytes(arg, &view) < 0) return NULL;
    ob_error err;
    ob_document *doc;
    Py_BEGIN_ALLOW_THREADS
    doc = ob_document_load(view.buf, (size_t)view.len, &err);
    Py_END_ALLOW_THREADS
    PyBuffer_Release(&view);
    if (!doc) return obpy_raise(&err);
    DocumentObject *o = PyObject_New(DocumentObject, &obpy_document_type);
    if (!o) {
        ob_document_free(doc);
        return NULL;
    }
    o->doc = doc;
    return (PyObject *)o;
}

ob_document *obpy_document_ptr(PyObject *o)
{
    if (!PyObject_TypeCheck(o, &obpy_document_type)) {
        PyErr_SetString(PyExc_TypeError, "expected an openbone Document");
        return NULL;
    }
    return ((DocumentObject *)o)->doc;
}

PyObject *obpy_json_to_binary(PyObject *self, PyObject *args)
{
    (void)self;
    const char *text;
    Py_ssize_t len;
    if (!PyArg_ParseTuple(args, "s#", &text, &len)) return obpy_arg_error(__func__);
    cJSON *root = cJSON_ParseWithLength(text, (size_t)len);
    if (!root) return PyErr_Format(obpy_error, "not valid JSON");
    char msg[512] = "";
    size_t n = 0;
    uint8_t *bytes = ob_binary_encode(root, &n, msg, sizeof msg);
    cJSON_Delete(root);
    if (!bytes) return PyErr_Format(obpy_error, "%s", msg[0] ? msg : "cannot encode");
    PyObject *r = PyBytes_FromStringAndSize((const char *)bytes, (Py_ssize_t)n);
    free(bytes);
    return r;
}

PyObject *obpy_binary_to_json(PyObject *self, PyObject *args)
{
    (void)self;
    Py_buffer view;
    int pretty = 0;
    if (!PyArg_ParseTuple(args, "y*|p", &view, &pretty)) return obpy_arg_error(__func__);
    char msg[512] = "";
    cJSON *root;
    if (ob_binary_is_binary(view.buf, (size_t)view.len))
        root = ob_binary_decode(view.buf, (size_t)view.len, msg, sizeof msg);
    else
        root = cJSON_ParseWithLength(view.buf, (size_t)view.len);
    PyBuffer_Release(&view);
    if (!root) return PyErr_Format(obpy_error, "%s", msg[0] ? msg : "not valid JSON");
    char *text = ob_json_write(root, pretty);
    cJSON_Delete(root);
    if (!text) return PyErr_NoMemory();
    PyObject *r = PyUnicode_FromString(text);
    free(text);
    return r;
}

static void dealloc(DocumentObject *self)
{
    ob_document_free(self->doc);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *str_or_none(const char *s)
{
    if (!s) Py_RETURN_NONE;
    return PyUnicode_FromString(s);
}

/* Builds a list of n dicts with fill(i) → dict. */
#define LIST_OF(n, expr)                                   \
    do {                                                   \
        PyObject *list = PyList_New(n);                    \
        if (!list) return NULL;                            \
        for (Py_ssize_t i = 0; i < (n); i++) {             \
            PyObject *item = (expr);                       \
            if (!item) { Py_DECREF(list); return NULL; }   \
            PyList_SET_ITEM(list, i, item);                \
        }                                                  \
        return list;                                       \
    } while (0)

static const char *INHERIT[] = {"normal", "onlyTranslation", "noRotation", "noScale",
                                "noRotationOrReflection", "noScaleOrReflection"};
static const char *BLEND[] = {"normal", "additive", "multiply", "screen"};
static const char *CON_KIND[] = {"ik", "transform", "path", "physics"};
static const char *ATT_TYPE[] = {"region", "mesh", "shape", "boundingBox", "point", "text",
                                 "sequence", "particles", "clipping", "path", "unknown"};
static const char *INPUT_TYPE[] = {"bool", "number", "string", "trigger"};

static PyObject *bone_dict(const ob_document *d, Py_ssize_t i)
{
    const ob_bone_data *b = &d->bones[i];
    return Py_BuildValue("{s:n,s:s,s:s,s:i,s:d,s:d,s:d,s:d,s:d,s:d,s:d,s:d,s:s}",
                         "index", i, "id", b->id ? b->id : "", "name", b->name, "parent", (int)b->parent,
                         "length", b->length, "x", b->x, "y", b->y, "rotation", b->rotation,
                         "scaleX", b->scale_x, "scaleY", b->scale_y, "shearX", b->shear_x,
                         "shearY", b->shear_y, "inherit", INHERIT[b->inherit]);
}

static PyObject *color_tuple(const double c[4]) { return Py_BuildValue("(dddd)", c[0], c[1], c[2], c[3]); }

static PyObject *slot_dict(const ob_document *d, Py_ssize_t i)
{
    const ob_slot_data *s = &d->slots[i];
    PyObject *dark = s->has_dark ? color_tuple(s->dark) : Py_NewRef(Py_None);
    return Py_BuildValue("{s:n,s:s,s:s,s:i,s:N,s:N,s:N,s:s}", "index", i, "id", s->id ? s->id : "",
                         "name", s->name, "bone", (int)s->bone, "color", color_tuple(s->color),
                         "dark", dark,
                         "attachment", str_or_none(s->attachment >= 0 ? d->att_names[s->attachment] : NULL),
                         "blend", BLEND[s->blend]);
}

static PyObject *skin_dict(const ob_document *d, Py_ssize_t i)
{
    const ob_skin_data *s = &d->skins[i];
    PyObject *atts = PyList_New(s->entry_count);
    if (!atts) return NULL;
    for (int32_t k = 0; k < s->entry_count; k++) {
        const ob_attachment *a = &d->attachments[s->entries[k].attachment];
        PyList_SET_ITEM(atts, k, Py_BuildValue("(sss)", d->slots[a->slot].name, a->name, ATT_TYPE[a->type]));
    }
    PyObject *bones = PyList_New(s->bone_count);
    for (int32_t k = 0; bones && k < s->bone_count; k++) PyList_SET_ITEM(bones, k, PyLong_FromLong(s->bones[k]));
    PyObject *cons = PyList_New(s->constraint_count);
    for (int32_t k = 0; cons && k < s->constraint_count; k++) PyList_SET_ITEM(cons, k, PyUnicode_FromString(s->constraints[k]));
    return Py_BuildValue("{s:n,s:s,s:s,s:N,s:N,s:N}", "index", i, "id", s->id ? s->id : "", "name", s->name,
                         "attachments", atts, "bones", bones, "constraints", cons);
}

static PyObject *animation_dict(const ob_document *d, Py_ssize_t i)
{
    const ob_animation_data *a = &d->animations[i];
    return Py_BuildValue("{s:n,s:s,s:s,s:d,s:d,s:i,s:i,s:i}", "index", i, "id", a->id ? a->id : "",
                         "name", a->name ? a->name : "", "duration", a->duration, "length", a->length,
                         "timelines", (int)a->timeline_count, "events", (int)a->event_count,
                         "audio", (int)a->audio_count);
}

static PyObject *event_dict(const ob_document *d, Py_ssize_t i)
{
    const ob_event_data *e = &d->events[i];
    return Py_BuildValue("{s:n,s:s,s:s,s:d,s:d,s:s,s:N}", "index", i, "id", e->id ? e->id : "",
                         "name", e->name ? e->name : "", "int", e->int_value, "float", e->float_value,
                         "string", e->string_value ? e->string_value : "", "audio", str_or_none(e->audio));
}

static PyObject *constraint_dict(const ob_document *d, Py_ssize_t i)
{
    const ob_constraint_data *c = &d->constraints[i];
    PyObject *order = c->has_order ? PyFloat_FromDouble(c->order) : Py_NewRef(Py_None);
    return Py_BuildValue("{s:n,s:s,s:s,s:s,s:N}", "index", i, "id", c->id ? c->id : "",
                         "name", c->name, "kind", CON_KIND[c->kind], "order", order);
}

static PyObject *machine_dict(const ob_document *d, Py_ssize_t i)
{
    const ob_machine_data *m = &d->machines[i];
    PyObject *inputs = PyList_New(m->input_count);
    for (int32_t k = 0; inputs && k < m->input_count; k++)
        PyList_SET_ITEM(inputs, k, Py_BuildValue("(ss)", m->inputs[k].name ? m->inputs[k].name : "",
                                                 INPUT_TYPE[m->inputs[k].type]));
    PyObject *layers = PyList_New(m->layer_count);
    for (int32_t k = 0; layers && k < m->layer_count; k++) {
        const ob_layer_data *l = &m->layers[k];
        PyObject *states = PyList_New(l->state_count);
        for (int32_t s = 0; states && s < l->state_count; s++)
            PyList_SET_ITEM(states, s, PyUnicode_FromString(l->states[s].name ? l->states[s].name : ""));
        PyList_SET_ITEM(layers, k, states);
    }
    return Py_BuildValue("{s:n,s:s,s:s,s:N,s:N,s:i}", "index", i, "id", m->id ? m->id : "",
                         "name", m->name ? m->name : "", "inputs", inputs, "layers", layers,
                         "listeners", (int)m->listener_count);
}

static PyObject *image_dict(const ob_document *d, Py_ssize_t i)
{
    const ob_image_data *im = &d->images[i];
    return Py_BuildValue("{s:n,s:s,s:s,s:s,s:d,s:d,s:i}", "index", i, "id", im->id ? im->id : "",
                         "name", im->name, "src", im->src, "width", im->width, "height", im->height,
                         "region", d->image_region ? (int)d->image_region[i] : -1);
}

#define TABLE(fn, n, maker) \
    static PyObject *fn(DocumentObject *self, PyObject *unused) { (void)unused; const ob_document *d = self->doc; LIST_OF((Py_ssize_t)(n), maker(d, i)); }
TABLE(get_bones, d->bone_count, bone_dict)
TABLE(get_slots, d->slot_count, slot_dict)
TABLE(get_skins, d->skin_count, skin_dict)
TABLE(get_animations, d->animation_count, animation_dict)
TABLE(get_events, d->event_count, event_dict)
TABLE(get_constraints, d->constraint_count, constraint_dict)
TABLE(get_machines, d->machine_count, machine_dict)
TABLE(get_images, d->image_count, image_dict)

static PyObject *get_warnings(DocumentObject *self, PyObject *unused)
{
    (void)unused;
    const ob_document *d = self->doc;
    LIST_OF((Py_ssize_t)d->warning_count, PyUnicode_FromString(d->warnings[i]));
}

static PyObject *get_meta(DocumentObject *self, PyObject *unused)
{
    (void)unused;
    const ob_document *d = self->doc;
    static const char *const curve_modes[] = {"openbone", "spine", "exact"};
    static const char *const pose_models[] = {"openbone", "spine"};
    return Py_BuildValue("{s:s,s:d,s:d,s:d,s:d,s:d,s:N,s:d,s:i,s:i,s:i,s:i,s:i,s:i,s:s,s:s}",
                         "name", d->name, "width", d->width, "height", d->height,
                         "originX", d->origin_x, "originY", d->origin_y, "fps", d->fps,
                         "background", str_or_none(d->background), "referenceScale", d->reference_scale,
                         "pages", (int)d->page_count, "regions", (int)d->region_count,
                         "sounds", (int)d->sound_count, "scripts", (int)d->script_count,
                         "sliders", (int)d->slider_count, "attachments", (int)d->attachment_count,
                         "curveMode", curve_modes[d->curve_mode], "poseModel", pose_models[d->pose_model]);
}

static PyObject *get_json(DocumentObject *self, void *closure)
{
    (void)closure;
    return PyUnicode_FromString(ob_document_json(self->doc));
}

static PyMethodDef doc_methods[] = {
    {"bones", (PyCFunction)get_bones, METH_NOARGS, "Bones in document order, as dicts."},
    {"slots", (PyCFunction)get_slots, METH_NOARGS, "Slots (dropped ones left out), as dicts."},
    {"skins", (PyCFunction)get_skins, METH_NOARGS, "Skins with their (slot, name, type) attachments."},
    {"animations", (PyCFunction)get_animations, METH_NOARGS, "Animations, as dicts."},
    {"events", (PyCFunction)get_events, METH_NOARGS, "Events, as dicts."},
    {"constraints", (PyCFunction)get_constraints, METH_NOARGS, "Constraints in the default list order."},
    {"state_machines", (PyCFunction)get_machines, METH_NOARGS, "State machines, as dicts."},
    {"images", (PyCFunction)get_images, METH_NOARGS, "Images, as dicts."},
    {"warnings", (PyCFunction)get_warnings, METH_NOARGS, "What the lenient load rules dropped or fixed."},
    {"meta", (PyCFunction)get_meta, METH_NOARGS, "Document metadata, as a dict."},
    {NULL, NULL, 0, NULL}};

static PyGetSetDef doc_getset[] = {
    {"json", (getter)get_json, NULL, "The document as compact JSON text.", NULL},
    {NULL, NULL, NULL, NULL, NULL}};

PyTypeObject obpy_document_type = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "openbone._core.Document",
    .tp_basicsize = sizeof(DocumentObject),
    .tp_dealloc = (destructor)dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "A parsed OpenBone document (use openbone.load / openbone.loads).",
    .tp_methods = doc_methods,
    .tp_getset = doc_getset,
};
