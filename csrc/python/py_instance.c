/* py_instance.c: openbone._core.Instance, a posed skeleton (§3).
** Arrays the C core owns are handed out as read-only NumPy views. */
#include "obpy.h"

#include "../instance.h"

typedef obpy_instance InstanceObject;

static int init(InstanceObject *self, PyObject *args, PyObject *kwargs)
{
    static char *kw[] = {"document", NULL};
    PyObject *doc;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O", kw, &doc)) return -1;
    ob_document *d = obpy_document_ptr(doc);
    if (!d) return -1;
    if (self->inst) {
        PyErr_SetString(PyExc_RuntimeError, "Instance already initialised");
        return -1;
    }
    ob_error err;
    self->inst = ob_instance_create(d, &err);
    if (!self->inst) {
        obpy_raise(&err);
        return -1;
    }
    Py_INCREF(doc);
    self->document = doc;
    return 0;
}

static void dealloc(InstanceObject *self)
{
    ob_instance_free(self->inst);
    Py_XDECREF(self->document);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

#define NEED_INST(self) OBPY_NEED_INST(self)

PyObject *obpy_view(PyObject *owner, void *data, int nd, npy_intp *dims, int type)
{
    static double empty[1];
    PyObject *arr = PyArray_SimpleNewFromData(nd, dims, type, data ? data : (void *)empty);
    if (!arr) return NULL;
    PyArray_CLEARFLAGS((PyArrayObject *)arr, NPY_ARRAY_WRITEABLE);
    Py_INCREF(owner);
    if (PyArray_SetBaseObject((PyArrayObject *)arr, owner) < 0) {
        Py_DECREF(arr);
        return NULL;
    }
    return arr;
}

#define view(self, data, nd, dims, type) obpy_view((PyObject *)(self), (data), (nd), (dims), (type))

static PyObject *set_skin(InstanceObject *self, PyObject *arg)
{
    NEED_INST(self);
    long skin = PyLong_AsLong(arg);
    if (skin == -1 && PyErr_Occurred()) return obpy_arg_error("set_skin");
    if (skin < -1 || skin >= self->inst->doc->skin_count) return PyErr_Format(obpy_error, "set_skin: no skin %ld", skin);
    ob_instance_set_skin(self->inst, (int)skin);
    Py_RETURN_NONE;
}

static PyObject *set_to_setup_pose(InstanceObject *self, PyObject *unused)
{
    (void)unused;
    NEED_INST(self);
    ob_instance_set_to_setup_pose(self->inst);
    Py_RETURN_NONE;
}

static PyObject *update_world_transform(InstanceObject *self, PyObject *unused)
{
    (void)unused;
    NEED_INST(self);
    ob_instance_update_world_transform(self->inst);
    Py_RETURN_NONE;
}

static PyObject *advance(InstanceObject *self, PyObject *arg)
{
    NEED_INST(self);
    double dt;
    if (obpy_double(arg, "advance", &dt) < 0) return NULL;
    if (!OBPY_DT_OK(dt)) return obpy_bad_dt("advance", dt);
    obpy_call c;
    if (obpy_begin(self, &c) < 0) return NULL;
    ob_instance_advance(self->inst, dt);  /* the GIL is released unless a script host may be called */
    obpy_end(self, &c);
    Py_RETURN_NONE;
}

static PyObject *get_world(InstanceObject *self, void *c)
{
    (void)c;
    NEED_INST(self);
    npy_intp dims[2] = {self->inst->doc->bone_count, 6};
    return view(self, self->inst->world, 2, dims, NPY_DOUBLE);
}

static PyObject *get_active_bones(InstanceObject *self, void *c)
{
    (void)c;
    NEED_INST(self);
    npy_intp dims[1] = {self->inst->doc->bone_count};
    return view(self, self->inst->bone_active, 1, dims, NPY_BOOL);
}

static PyObject *get_slot_colors(InstanceObject *self, void *c)
{
    (void)c;
    NEED_INST(self);
    npy_intp dims[2] = {self->inst->doc->slot_count, 4};
    return view(self, self->inst->slot_color, 2, dims, NPY_DOUBLE);
}

static PyObject *get_slot_darks(InstanceObject *self, void *c)
{
    (void)c;
    NEED_INST(self);
    npy_intp dims[2] = {self->inst->doc->slot_count, 4};
    return view(self, self->inst->slot_dark, 2, dims, NPY_DOUBLE);
}

static PyObject *get_slot_has_dark(InstanceObject *self, void *c)
{
    (void)c;
    NEED_INST(self);
    npy_intp dims[1] = {self->inst->doc->slot_count};
    return view(self, self->inst->slot_has_dark, 1, dims, NPY_BOOL);
}

static PyObject *get_slot_attachments(InstanceObject *self, void *c)
{
    (void)c;
    NEED_INST(self);
    const ob_document *d = self->inst->doc;
    PyObject *list = PyList_New(d->slot_count);
    if (!list) return NULL;
    for (int32_t i = 0; i < d->slot_count; i++) {
        int32_t n = self->inst->slot_attachment[i];
        PyObject *s = n >= 0 ? PyUnicode_FromString(d->att_names[n]) : Py_NewRef(Py_None);
        if (!s) { Py_DECREF(list); return NULL; }
        PyList_SET_ITEM(list, i, s);
    }
    return list;
}

static PyObject *get_draw_order(InstanceObject *self, void *c)
{
    (void)c;
    NEED_INST(self);
    npy_intp dims[1] = {self->inst->doc->slot_count};
    return view(self, self->inst->draw_order, 1, dims, NPY_INT32);
}

static PyObject *get_constraint_order(InstanceObject *self, void *c)
{
    (void)c;
    NEED_INST(self);
    npy_intp dims[1] = {self->inst->doc->constraint_count};
    return view(self, self->inst->con_order, 1, dims, NPY_INT32);
}

static PyObject *get_constraint_active(InstanceObject *self, void *c)
{
    (void)c;
    NEED_INST(self);
    npy_intp dims[1] = {self->inst->doc->constraint_count};
    return view(self, self->inst->con_active, 1, dims, NPY_BOOL);
}

static PyObject *get_skin(InstanceObject *self, void *c)
{
    (void)c;
    NEED_INST(self);
    return PyLong_FromLong(self->inst->skin);
}

static PyObject *get_time(InstanceObject *self, void *c)
{
    (void)c;
    NEED_INST(self);
    return PyFloat_FromDouble(self->inst->clock);
}

static PyMethodDef core_methods[] = {
    {"set_skin", (PyCFunction)set_skin, METH_O, "set_skin(index): §3.3 setSkin by index (-1 = none)."},
    {"set_to_setup_pose", (PyCFunction)set_to_setup_pose, METH_NOARGS, "§3.1 setToSetupPose."},
    {"update_world_transform", (PyCFunction)update_world_transform, METH_NOARGS, "§3.2 updateWorldTransform."},
    {"advance", (PyCFunction)advance, METH_O, "advance(dt): the §3 per-frame pipeline."},
    {NULL, NULL, 0, NULL}};

static PyGetSetDef core_getset[] = {
    {"world", (getter)get_world, NULL, "(n_bones, 6) float64 [a, b, c, d, x, y], read-only view.", NULL},
    {"active_bones", (getter)get_active_bones, NULL, "(n_bones,) bool, §3.3 active flags.", NULL},
    {"slot_colors", (getter)get_slot_colors, NULL, "(n_slots, 4) float64 RGBA, document slot order.", NULL},
    {"slot_darks", (getter)get_slot_darks, NULL, "(n_slots, 4) float64 dark RGBA (valid where slot_has_dark).", NULL},
    {"slot_has_dark", (getter)get_slot_has_dark, NULL, "(n_slots,) bool.", NULL},
    {"slot_attachments", (getter)get_slot_attachments, NULL, "Current attachment name per slot, or None.", NULL},
    {"draw_order", (getter)get_draw_order, NULL, "(n_slots,) int32 slot indices, back to front.", NULL},
    {"constraint_order", (getter)get_constraint_order, NULL, "§3.2 constraint order (indices into the default list).", NULL},
    {"constraint_active", (getter)get_constraint_active, NULL, "§3.3 active flags per constraint.", NULL},
    {"skin", (getter)get_skin, NULL, "Current skin index, -1 for none.", NULL},
    {"time", (getter)get_time, NULL, "The skeleton clock: every dt > 0 summed.", NULL},
    {NULL, NULL, NULL, NULL, NULL}};

PyTypeObject obpy_instance_type = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "openbone._core.Instance",
    .tp_basicsize = sizeof(InstanceObject),
    .tp_dealloc = (destructor)dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
    .tp_doc = "Instance(document): a skeleton posed from a document.",
    .tp_init = (initproc)init,
    .tp_new = PyType_GenericNew,
};

/* Concatenates NULL-terminated tables into one malloc'd table (kept for the
** life of the process, as type tables are). */
#define MERGE(T, NAME, out, ...)                                                     \
    do {                                                                       \
        T *parts[] = {__VA_ARGS__};                                            \
        size_t n = 0;                                                          \
        for (size_t p = 0; p < sizeof parts / sizeof *parts; p++)              \
            for (T *m = parts[p]; m->NAME; m++) n++;                           \
        T *all = PyMem_RawCalloc(n + 1, sizeof(T));                            \
        if (!all) return -1;                                                   \
        n = 0;                                                                 \
        for (size_t p = 0; p < sizeof parts / sizeof *parts; p++)              \
            for (T *m = parts[p]; m->NAME; m++) all[n++] = *m;                 \
        out = all;                                                             \
    } while (0)

int obpy_instance_prepare(void)
{
    MERGE(PyMethodDef, ml_name, obpy_instance_type.tp_methods, core_methods, obpy_animation_methods,
          obpy_constraint_methods, obpy_draw_methods, obpy_particle_methods, obpy_sm_methods,
          obpy_layer_methods, obpy_snapshot_methods);
    MERGE(PyGetSetDef, name, obpy_instance_type.tp_getset, core_getset, obpy_animation_getset,
          obpy_constraint_getset, obpy_draw_getset, obpy_particle_getset, obpy_sm_getset,
          obpy_layer_getset);
    return 0;
}
