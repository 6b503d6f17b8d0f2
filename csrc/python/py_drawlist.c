/* py_drawlist.c: Instance methods of the draw-list concern (§8.4-§8.10).
** Thin glue: build in C, copy the buffers into NumPy arrays. */
#include "obpy.h"

#include <string.h>

#include "../atlas.h"
#include "../bounds.h"
#include "../drawlist.h"

#define NEED_INST(self) OBPY_NEED_INST(self)

/* A new array of n rows × cols of type, copied from data. */
static PyObject *copy_array(const void *data, npy_intp n, npy_intp cols, int type)
{
    npy_intp dims[2] = {n, cols};
    PyObject *a = PyArray_SimpleNew(cols > 0 ? 2 : 1, dims, type);
    if (!a) return NULL;
    size_t bytes = (size_t)PyArray_NBYTES((PyArrayObject *)a);
    if (bytes && data) memcpy(PyArray_DATA((PyArrayObject *)a), data, bytes);
    return a;
}

static int set_steal(PyObject *d, const char *key, PyObject *v)
{
    if (!v) return -1;
    int rc = PyDict_SetItemString(d, key, v);
    Py_DECREF(v);
    return rc;
}

static PyObject *build(obpy_instance *self)
{
    obpy_call c;
    if (obpy_begin(self, &c) < 0) return NULL;  /* the GIL is released around the build */
    int rc = ob_draw_build(self->inst);
    obpy_end(self, &c);
    if (rc < 0) return PyErr_NoMemory();
    return (PyObject *)self;
}

static int32_t build_world_vertices(obpy_instance *self)
{
    obpy_call c;
    if (obpy_begin(self, &c) < 0) return -2;
    int32_t n = ob_world_vertices_build(self->inst);
    obpy_end(self, &c);
    if (n < 0) PyErr_NoMemory();
    return n;
}

static PyObject *draw_build(obpy_instance *self, PyObject *unused)
{
    (void)unused;
    NEED_INST(self);
    if (!build(self)) return NULL;
    return PyLong_FromLong(self->inst->draw->item_count);
}

/* World vertices of every region and mesh (ob_world_vertices_build), in place. */
static PyObject *world_vertices_build(obpy_instance *self, PyObject *unused)
{
    (void)unused;
    NEED_INST(self);
    int32_t n = build_world_vertices(self);
    if (n < 0) return NULL;
    return PyLong_FromLong(n);
}

/* _world_vertices() -> (vertices (N, 2) float32, slots, attachments, first, count (int32 arrays)) */
static PyObject *world_vertices(obpy_instance *self, PyObject *unused)
{
    (void)unused;
    NEED_INST(self);
    if (build_world_vertices(self) < 0) return NULL;
    const ob_draw_state *ds = self->inst->draw;
    npy_intp n = ds->wv_count;
    return Py_BuildValue("(NNNNN)", copy_array(ds->wv, ds->wv_vertex_count, 2, NPY_FLOAT32),
                         copy_array(ds->wv_slot, n, 0, NPY_INT32), copy_array(ds->wv_attachment, n, 0, NPY_INT32),
                         copy_array(ds->wv_first, n, 0, NPY_INT32), copy_array(ds->wv_vertices, n, 0, NPY_INT32));
}

/* The whole draw list as one batch: shared vertex/uv/index arrays (indices
** rebased into the shared vertices) and an item table of arrays. */
static PyObject *draw_batch(obpy_instance *self, PyObject *unused)
{
    (void)unused;
    NEED_INST(self);
    if (!build(self)) return NULL;
    const ob_draw_state *ds = self->inst->draw;
    npy_intp n = ds->item_count;
    PyObject *d = PyDict_New(), *items = PyDict_New();
    if (!d || !items) goto fail;
    if (set_steal(d, "vertices", copy_array(ds->vertices, ds->vertex_count, 2, NPY_FLOAT32)) < 0 ||
        set_steal(d, "uvs", copy_array(ds->uvs, ds->vertex_count, 2, NPY_FLOAT32)) < 0 ||
        set_steal(d, "indices", copy_array(ds->indices, ds->index_count, 0, NPY_UINT32)) < 0 ||
        set_steal(d, "colors", copy_array(ds->colors, ds->color_count, 4, NPY_FLOAT32)) < 0)
        goto fail;
    PyObject *cols[14];
    static const char *names[14] = {"slot", "attachment", "type", "blend", "texture", "first_vertex",
                                    "vertex_count", "first_index", "index_count", "first_color", "clip",
                                    "color", "dark", "has_dark"};
    npy_intp d1[1] = {n}, d2[2] = {n, 4};
    for (int k = 0; k < 14; k++) {
        int type = k < 11 ? NPY_INT32 : k < 13 ? NPY_FLOAT64 : NPY_BOOL;
        cols[k] = PyArray_SimpleNew(k == 11 || k == 12 ? 2 : 1, k == 11 || k == 12 ? d2 : d1, type);
        if (!cols[k]) {
            while (k--) Py_DECREF(cols[k]);
            goto fail;
        }
    }
    PyObject *texts = PyList_New(n);
    if (!texts) {
        for (int k = 0; k < 14; k++) Py_DECREF(cols[k]);
        goto fail;
    }
    for (npy_intp i = 0; i < n; i++) {
        const ob_draw_item *it = &ds->items[i];
        int32_t v[11] = {it->slot, it->attachment, (int32_t)it->type, (int32_t)it->blend, it->texture,
                         it->first_vertex, it->vertex_count, it->first_index, it->index_count, it->first_color,
                         it->clip};
        for (int k = 0; k < 11; k++) ((int32_t *)PyArray_DATA((PyArrayObject *)cols[k]))[i] = v[k];
        memcpy((double *)PyArray_DATA((PyArrayObject *)cols[11]) + 4 * i, it->color, 4 * sizeof(double));
        memcpy((double *)PyArray_DATA((PyArrayObject *)cols[12]) + 4 * i, it->dark, 4 * sizeof(double));
        ((npy_bool *)PyArray_DATA((PyArrayObject *)cols[13]))[i] = (npy_bool)(it->has_dark != 0);
        PyObject *t;
        if (it->text_offset >= 0) {
            t = PyUnicode_DecodeUTF8(ds->text + it->text_offset, it->text_length, "replace");
        } else {
            t = Py_None;
            Py_INCREF(t);
        }
        if (!t) {
            Py_DECREF(texts);
            for (int k = 0; k < 14; k++) Py_DECREF(cols[k]);
            goto fail;
        }
        PyList_SET_ITEM(texts, i, t);
    }
    int bad = 0;
    for (int k = 0; k < 14; k++) bad |= set_steal(items, names[k], cols[k]) < 0;
    bad |= set_steal(items, "text", texts) < 0;
    if (bad || PyDict_SetItemString(d, "items", items) < 0) goto fail;
    /* masks used by the list (§8.4): slot, attachment and world polygon */
    PyObject *masks = PyList_New(ds->mask_count);
    if (!masks) goto fail;
    for (int32_t i = 0; i < ds->mask_count; i++) {
        const ob_draw_mask *m = &ds->masks[i];
        PyObject *md = Py_BuildValue("{s:i,s:i,s:N,s:N}", "slot", m->slot, "attachment", m->attachment,
                                     "vertices", copy_array(ds->mask_vertices + 2 * m->first_vertex, m->vertex_count, 2, NPY_FLOAT32),
                                     "indices", copy_array(ds->mask_indices + m->first_index, m->index_count, 0, NPY_UINT32));
        if (!md) {
            Py_DECREF(masks);
            goto fail;
        }
        PyList_SET_ITEM(masks, i, md);
    }
    if (set_steal(d, "masks", masks) < 0) goto fail;
    Py_DECREF(items);
    return d;
fail:
    Py_XDECREF(d);
    Py_XDECREF(items);
    return NULL;
}

static PyObject *color_tuple(const double *c)
{
    return Py_BuildValue("(dddd)", c[0], c[1], c[2], c[3]);
}

/* One tuple per item: (slot, attachment, type, blend, texture, vertices, uvs,
** indices, color, dark, colors, clip, text); indices item-local, uint16 when
** the item has fewer than 65536 vertices.  Arrays are copies. */
static PyObject *draw_items(obpy_instance *self, PyObject *unused)
{
    (void)unused;
    NEED_INST(self);
    if (!build(self)) return NULL;
    const ob_draw_state *ds = self->inst->draw;
    PyObject *list = PyList_New(ds->item_count);
    if (!list) return NULL;
    for (int32_t i = 0; i < ds->item_count; i++) {
        const ob_draw_item *it = &ds->items[i];
        int small = it->vertex_count < 65536;
        npy_intp ni = it->index_count;
        PyObject *ix = PyArray_SimpleNew(1, &ni, small ? NPY_UINT16 : NPY_UINT32);
        if (!ix) { Py_DECREF(list); return NULL; }
        const uint32_t *src = ds->indices + it->first_index;
        uint32_t base = (uint32_t)it->first_vertex;
        if (small) {
            uint16_t *dst = PyArray_DATA((PyArrayObject *)ix);
            for (npy_intp k = 0; k < ni; k++) dst[k] = (uint16_t)(src[k] - base);
        } else {
            uint32_t *dst = PyArray_DATA((PyArrayObject *)ix);
            for (npy_intp k = 0; k < ni; k++) dst[k] = src[k] - base;
        }
        PyObject *text, *dark, *colors, *clip;
        if (it->text_offset >= 0) text = PyUnicode_DecodeUTF8(ds->text + it->text_offset, it->text_length, "replace");
        else { text = Py_None; Py_INCREF(text); }
        if (it->has_dark) dark = color_tuple(it->dark);
        else { dark = Py_None; Py_INCREF(dark); }
        if (it->first_color >= 0) colors = copy_array(ds->colors + 4 * (size_t)it->first_color, it->vertex_count, 4, NPY_FLOAT32);
        else { colors = Py_None; Py_INCREF(colors); }
        if (it->clip >= 0) clip = PyLong_FromLong(it->clip);
        else { clip = Py_None; Py_INCREF(clip); }
        PyObject *t = Py_BuildValue("(iiiiiNNNNNNNN)", it->slot, it->attachment, (int)it->type, (int)it->blend,
                                    it->texture,
                                    copy_array(ds->vertices + 2 * (size_t)it->first_vertex, it->vertex_count, 2, NPY_FLOAT32),
                                    copy_array(ds->uvs + 2 * (size_t)it->first_vertex, it->vertex_count, 2, NPY_FLOAT32),
                                    ix, color_tuple(it->color), dark, colors, clip, text);
        if (!t) { Py_DECREF(list); return NULL; }
        PyList_SET_ITEM(list, i, t);
    }
    return list;
}

static PyObject *set_text(obpy_instance *self, PyObject *args)
{
    NEED_INST(self);
    int slot;
    PyObject *text;
    if (!PyArg_ParseTuple(args, "iO", &slot, &text)) return obpy_arg_error(__func__);
    if (slot < 0 || slot >= self->inst->doc->slot_count) {
        PyErr_Format(obpy_error, "set_text: no slot %d", slot);
        return NULL;
    }
    const char *s = NULL;
    if (text != Py_None) {
        s = PyUnicode_AsUTF8(text);
        if (!s) return NULL;
    }
    if (ob_draw_set_text(self->inst, slot, s) < 0) return PyErr_NoMemory();
    Py_RETURN_NONE;
}

static PyObject *get_growths(obpy_instance *self, void *closure)
{
    (void)closure;
    NEED_INST(self);
    return PyLong_FromUnsignedLongLong(self->inst->draw->growths);
}

static PyObject *get_texture_names(obpy_instance *self, void *closure)
{
    (void)closure;
    NEED_INST(self);
    const ob_document *doc = self->inst->doc;
    int32_t n = ob_texture_count(doc);
    PyObject *l = PyList_New(n);
    if (!l) return NULL;
    for (int32_t i = 0; i < n; i++) {
        const char *s = ob_texture_name(doc, i);
        PyObject *o = PyUnicode_FromString(s ? s : "");
        if (!o) { Py_DECREF(l); return NULL; }
        PyList_SET_ITEM(l, i, o);
    }
    return l;
}

static PyObject *get_attachment_names(obpy_instance *self, void *closure)
{
    (void)closure;
    NEED_INST(self);
    const ob_document *doc = self->inst->doc;
    PyObject *l = PyList_New(doc->attachment_count);
    if (!l) return NULL;
    for (int32_t i = 0; i < doc->attachment_count; i++) {
        const char *s = doc->attachments[i].name;
        PyObject *o = PyUnicode_FromString(s ? s : "");
        if (!o) { Py_DECREF(l); return NULL; }
        PyList_SET_ITEM(l, i, o);
    }
    return l;
}

/* ---- _core.Bounds: a §8.10 snapshot ------------------------------- */

typedef struct {
    PyObject_HEAD
    ob_bounds *b;
    PyObject *owner;  /* the Instance it was taken from (keeps the document alive) */
} BoundsObject;

static void bounds_dealloc(BoundsObject *self)
{
    ob_bounds_free(self->b);
    Py_XDECREF(self->owner);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *b_aabb_contains_point(BoundsObject *self, PyObject *args)
{
    double x, y;
    if (!PyArg_ParseTuple(args, "dd", &x, &y)) return obpy_arg_error(__func__);
    return PyBool_FromLong(ob_bounds_aabb_contains_point(self->b, x, y));
}

static PyObject *b_aabb_intersects(BoundsObject *self, PyObject *args)
{
    double x0, y0, x1, y1;
    if (!PyArg_ParseTuple(args, "dddd", &x0, &y0, &x1, &y1)) return obpy_arg_error(__func__);
    return PyBool_FromLong(ob_bounds_aabb_intersects(self->b, x0, y0, x1, y1));
}

static PyObject *index_or_none(int32_t i)
{
    if (i < 0) Py_RETURN_NONE;
    return PyLong_FromLong(i);
}

static PyObject *b_contains_point(BoundsObject *self, PyObject *args)
{
    double x, y;
    if (!PyArg_ParseTuple(args, "dd", &x, &y)) return obpy_arg_error(__func__);
    return index_or_none(ob_bounds_contains_point(self->b, x, y, 0));
}

static PyObject *b_contains_point_all(BoundsObject *self, PyObject *args)
{
    double x, y;
    if (!PyArg_ParseTuple(args, "dd", &x, &y)) return obpy_arg_error(__func__);
    PyObject *l = PyList_New(0);
    for (int32_t i = ob_bounds_contains_point(self->b, x, y, 0); l && i >= 0;
         i = ob_bounds_contains_point(self->b, x, y, i + 1)) {
        PyObject *o = PyLong_FromLong(i);
        if (!o || PyList_Append(l, o) < 0) { Py_XDECREF(o); Py_DECREF(l); return NULL; }
        Py_DECREF(o);
    }
    return l;
}

static PyObject *b_intersects_segment(BoundsObject *self, PyObject *args)
{
    double x1, y1, x2, y2;
    if (!PyArg_ParseTuple(args, "dddd", &x1, &y1, &x2, &y2)) return obpy_arg_error(__func__);
    return index_or_none(ob_bounds_intersects_segment(self->b, x1, y1, x2, y2, 0));
}

static PyObject *b_intersects_segment_all(BoundsObject *self, PyObject *args)
{
    double x1, y1, x2, y2;
    if (!PyArg_ParseTuple(args, "dddd", &x1, &y1, &x2, &y2)) return obpy_arg_error(__func__);
    PyObject *l = PyList_New(0);
    for (int32_t i = ob_bounds_intersects_segment(self->b, x1, y1, x2, y2, 0); l && i >= 0;
         i = ob_bounds_intersects_segment(self->b, x1, y1, x2, y2, i + 1)) {
        PyObject *o = PyLong_FromLong(i);
        if (!o || PyList_Append(l, o) < 0) { Py_XDECREF(o); Py_DECREF(l); return NULL; }
        Py_DECREF(o);
    }
    return l;
}

static PyTypeObject bounds_type;

static PyObject *b_intersects_bounds(BoundsObject *self, PyObject *other)
{
    if (!PyObject_TypeCheck(other, &bounds_type)) {
        PyErr_SetString(PyExc_TypeError, "intersects_bounds: expected a _core.Bounds");
        return NULL;
    }
    int32_t i, j;
    if (!ob_bounds_intersects_bounds(self->b, ((BoundsObject *)other)->b, &i, &j)) Py_RETURN_NONE;
    return Py_BuildValue("(ii)", i, j);
}

static PyObject *b_get_boxes(BoundsObject *self, void *closure)
{
    (void)closure;
    const ob_bounds *b = self->b;
    PyObject *l = PyList_New(b->box_count);
    if (!l) return NULL;
    for (int32_t i = 0; i < b->box_count; i++) {
        const ob_bounds_box *bx = &b->boxes[i];
        PyObject *o = Py_BuildValue("{s:i,s:i,s:N,s:d,s:d,s:d,s:d}", "slot", bx->slot, "attachment", bx->attachment,
                                    "vertices", copy_array(b->vertices + 2 * bx->first_vertex, bx->vertex_count, 2, NPY_FLOAT32),
                                    "minX", bx->min_x, "minY", bx->min_y, "maxX", bx->max_x, "maxY", bx->max_y);
        if (!o) { Py_DECREF(l); return NULL; }
        PyList_SET_ITEM(l, i, o);
    }
    return l;
}

static PyObject *b_get_aabb(BoundsObject *self, void *closure)
{
    (void)closure;
    return Py_BuildValue("(dddd)", self->b->min_x, self->b->min_y, self->b->max_x, self->b->max_y);
}

static PyMethodDef bounds_methods[] = {
    {"aabb_contains_point", (PyCFunction)b_aabb_contains_point, METH_VARARGS, "§8.10 aabbContainsPoint(x, y)."},
    {"aabb_intersects", (PyCFunction)b_aabb_intersects, METH_VARARGS, "§8.10 aabbIntersects(x0, y0, x1, y1)."},
    {"contains_point", (PyCFunction)b_contains_point, METH_VARARGS, "§8.10 containsPoint: first box index or None."},
    {"contains_point_all", (PyCFunction)b_contains_point_all, METH_VARARGS, "§8.10 containsPointAll: box indices."},
    {"intersects_segment", (PyCFunction)b_intersects_segment, METH_VARARGS, "§8.10 intersectsSegment: first box index or None."},
    {"intersects_segment_all", (PyCFunction)b_intersects_segment_all, METH_VARARGS, "§8.10 intersectsSegmentAll: box indices."},
    {"intersects_bounds", (PyCFunction)b_intersects_bounds, METH_O, "§8.10 intersectsBounds(other): (mine, theirs) or None."},
    {NULL, NULL, 0, NULL}};

static PyGetSetDef bounds_getset[] = {
    {"boxes", (getter)b_get_boxes, NULL, "Boxes: dicts with slot, attachment (indices), vertices (n, 2) float32, minX..maxY.", NULL},
    {"aabb", (getter)b_get_aabb, NULL, "(minX, minY, maxX, maxY) over every box, zeros when none.", NULL},
    {NULL, NULL, NULL, NULL, NULL}};

static PyTypeObject bounds_type = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "openbone._core.Bounds",
    .tp_basicsize = sizeof(BoundsObject),
    .tp_dealloc = (destructor)bounds_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "A §8.10 bounding-box snapshot of an instance's current pose (Instance._bounds()).",
    .tp_methods = bounds_methods,
    .tp_getset = bounds_getset,
};

static PyObject *take_bounds(obpy_instance *self, PyObject *unused)
{
    (void)unused;
    NEED_INST(self);
    if (!(bounds_type.tp_flags & Py_TPFLAGS_READY) && PyType_Ready(&bounds_type) < 0) return NULL;
    BoundsObject *o = PyObject_New(BoundsObject, &bounds_type);
    if (!o) return NULL;
    o->owner = NULL;
    o->b = ob_bounds_create(self->inst->doc);
    if (!o->b) {
        Py_DECREF(o);
        return PyErr_NoMemory();
    }
    ob_bounds_update(o->b, self->inst);
    Py_INCREF(self);
    o->owner = (PyObject *)self;
    return (PyObject *)o;
}

/* Tests only (issue 17): which kernel weighted meshes go through, 0 by the CPU,
** 1 the SSE2 baseline, 2 the AVX2 clone (if the CPU has it), 3 none (the
** direct loop).  Returns whether the AVX2 clone can run here. */
static PyObject *set_vertex_width(obpy_instance *self, PyObject *args)
{
    int w;
    NEED_INST(self);
    if (!PyArg_ParseTuple(args, "i", &w)) return NULL;
    if (w < 0 || w > 3) {
        PyErr_SetString(PyExc_ValueError, "width must be 0-3");
        return NULL;
    }
    self->inst->draw->wv_plan.width = w;
    return PyBool_FromLong(ob_wv_have_avx2());
}

PyMethodDef obpy_draw_methods[] = {
    {"_set_vertex_width", (PyCFunction)set_vertex_width, METH_VARARGS,
     "_set_vertex_width(w) -> bool (tests): weighted-mesh kernel 0 auto, 1 SSE2, 2 AVX2, 3 direct; whether AVX2 runs."},
    {"_world_vertices_build", (PyCFunction)world_vertices_build, METH_NOARGS,
     "_world_vertices_build() -> int: world vertices of every region and mesh, in place (no copies)."},
    {"_world_vertices", (PyCFunction)world_vertices, METH_NOARGS,
     "_world_vertices() -> (vertices, slots, attachments, first, count): world vertices of every region and mesh."},
    {"_draw_build", (PyCFunction)draw_build, METH_NOARGS, "_draw_build() -> int: §8.4 build the draw list in place (no copies)."},
    {"draw_batch_raw", (PyCFunction)draw_batch, METH_NOARGS,
     "draw_batch_raw() -> dict: the §8.4 draw list as shared arrays (indices rebased) plus an item table."},
    {"_draw_items", (PyCFunction)draw_items, METH_NOARGS,
     "_draw_items() -> list of tuples: the §8.4 items (see openbone.drawing.DrawItem)."},
    {"_set_text", (PyCFunction)set_text, METH_VARARGS, "_set_text(slot_index, text_or_None): §8.9 setText."},
    {"_bounds", (PyCFunction)take_bounds, METH_NOARGS, "_bounds() -> _core.Bounds: §8.10 snapshot."},
    {NULL, NULL, 0, NULL}};

PyGetSetDef obpy_draw_getset[] = {
    {"draw_growths", (getter)get_growths, NULL, "Draw buffer growths since creation (0 when nothing grew per frame).", NULL},
    {"texture_names", (getter)get_texture_names, NULL, "Texture ids by texture index: pages, images, then the particle dot.", NULL},
    {"attachment_names", (getter)get_attachment_names, NULL, "Attachment names by document attachment index.", NULL},
    {NULL, NULL, NULL, NULL, NULL}};

PyMethodDef obpy_draw_functions[] = {{NULL, NULL, 0, NULL}};
