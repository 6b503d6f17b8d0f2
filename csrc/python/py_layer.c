/* py_layer.c: Instance methods of the instance layer (csrc/layer.c):
** bone offsets, joint limits, reaches and the skeleton placement.  Names and
** argument checks with their messages live in openbone/layer.py. */
#include "obpy.h"

#include "../instance.h"

#define NEED_INST(self) \
    if (!(self)->inst) { PyErr_SetString(PyExc_RuntimeError, "Instance not initialised"); return NULL; }

static PyObject *status(ob_status s, const char *what)
{
    if (s == OB_OK) Py_RETURN_NONE;
    if (s == OB_ERR_MEMORY) return PyErr_NoMemory();
    return PyErr_Format(obpy_error, "%s: invalid argument", what);
}

static PyObject *set_bone_offset(obpy_instance *self, PyObject *args)
{
    NEED_INST(self);
    int b;
    ob_bone_offset o;
    if (!PyArg_ParseTuple(args, "i(ddddddd)", &b, &o.rotation, &o.x, &o.y, &o.scale_x, &o.scale_y, &o.shear_x,
                          &o.shear_y))
        return NULL;
    return status(ob_instance_set_bone_offset(self->inst, b, &o), "set_bone_offset");
}

static PyObject *bone_offset(obpy_instance *self, PyObject *arg)
{
    NEED_INST(self);
    int b = (int)PyLong_AsLong(arg);
    if (b == -1 && PyErr_Occurred()) return NULL;
    ob_bone_offset o;
    if (ob_instance_get_bone_offset(self->inst, b, &o) != OB_OK) return status(OB_ERR_ARGUMENT, "bone_offset");
    return Py_BuildValue("(ddddddd)", o.rotation, o.x, o.y, o.scale_x, o.scale_y, o.shear_x, o.shear_y);
}

static PyObject *set_joint_limit(obpy_instance *self, PyObject *args)
{
    NEED_INST(self);
    int b, from;
    double lo, hi;
    if (!PyArg_ParseTuple(args, "iddi", &b, &lo, &hi, &from)) return NULL;
    return status(ob_instance_set_joint_limit(self->inst, b, lo, hi, (ob_limit_from)from), "set_joint_limit");
}

static PyObject *clear_joint_limit(obpy_instance *self, PyObject *arg)
{
    NEED_INST(self);
    int b = (int)PyLong_AsLong(arg);
    if (b == -1 && PyErr_Occurred()) return NULL;
    return status(ob_instance_clear_joint_limit(self->inst, b), "clear_joint_limit");
}

static PyObject *joint_limit(obpy_instance *self, PyObject *arg)
{
    NEED_INST(self);
    int b = (int)PyLong_AsLong(arg);
    if (b == -1 && PyErr_Occurred()) return NULL;
    double lo, hi;
    ob_limit_from from;
    if (!ob_instance_get_joint_limit(self->inst, b, &lo, &hi, &from)) Py_RETURN_NONE;
    return Py_BuildValue("(ddi)", lo, hi, (int)from);
}

static PyObject *set_reach(obpy_instance *self, PyObject *args)
{
    NEED_INST(self);
    ob_reach_def r = ob_default_reach_def();
    if (!PyArg_ParseTuple(args, "iiiiddidddi", &r.upper, &r.lower, &r.tip, &r.space, &r.x, &r.y, &r.offset_space,
                          &r.ox, &r.oy, &r.weight, &r.bend))
        return NULL;
    return status(ob_instance_set_reach(self->inst, &r), "set_reach");
}

static PyObject *clear_reach(obpy_instance *self, PyObject *arg)
{
    NEED_INST(self);
    int b = (int)PyLong_AsLong(arg);
    if (b == -1 && PyErr_Occurred()) return NULL;
    return status(ob_instance_clear_reach(self->inst, b), "clear_reach");
}

static PyObject *reaches(obpy_instance *self, PyObject *unused)
{
    (void)unused;
    NEED_INST(self);
    int n = ob_instance_reach_count(self->inst);
    PyObject *list = PyList_New(n);
    if (!list) return NULL;
    for (int i = 0; i < n; i++) {
        ob_reach_def r;
        ob_instance_get_reach(self->inst, i, &r);
        PyObject *t = Py_BuildValue("(iiiiddidddi)", r.upper, r.lower, r.tip, r.space, r.x, r.y, r.offset_space, r.ox,
                                    r.oy, r.weight, r.bend);
        if (!t) { Py_DECREF(list); return NULL; }
        PyList_SET_ITEM(list, i, t);
    }
    return list;
}

static PyObject *clear_layer(obpy_instance *self, PyObject *unused)
{
    (void)unused;
    NEED_INST(self);
    ob_instance_clear_layer(self->inst);
    Py_RETURN_NONE;
}

static PyObject *set_placement(obpy_instance *self, PyObject *args)
{
    NEED_INST(self);
    double x, y, sx, sy;
    if (!PyArg_ParseTuple(args, "dddd", &x, &y, &sx, &sy)) return NULL;
    ob_instance_set_placement(self->inst, x, y, sx, sy);
    Py_RETURN_NONE;
}

static PyObject *get_placement(obpy_instance *self, void *c)
{
    (void)c;
    NEED_INST(self);
    double x, y, sx, sy;
    ob_instance_get_placement(self->inst, &x, &y, &sx, &sy);
    return Py_BuildValue("(dddd)", x, y, sx, sy);
}

static PyObject *set_slot_attachment(obpy_instance *self, PyObject *args)
{
    NEED_INST(self);
    int slot, att;
    if (!PyArg_ParseTuple(args, "ii", &slot, &att)) return NULL;
    return status(ob_instance_set_slot_attachment(self->inst, slot, att), "set_slot_attachment");
}

static PyObject *set_slot_color(obpy_instance *self, PyObject *args)
{
    NEED_INST(self);
    int slot;
    double c[4];
    if (!PyArg_ParseTuple(args, "i(dddd)", &slot, &c[0], &c[1], &c[2], &c[3])) return NULL;
    return status(ob_instance_set_slot_color(self->inst, slot, c), "set_slot_color");
}

PyMethodDef obpy_layer_methods[] = {
    {"_set_slot_attachment", (PyCFunction)set_slot_attachment, METH_VARARGS, "_set_slot_attachment(slot, name_id or -1)."},
    {"_set_slot_color", (PyCFunction)set_slot_color, METH_VARARGS, "_set_slot_color(slot, (r, g, b, a))."},
    {"_set_bone_offset", (PyCFunction)set_bone_offset, METH_VARARGS, "_set_bone_offset(bone, (rot, x, y, sx, sy, shx, shy))."},
    {"_bone_offset", (PyCFunction)bone_offset, METH_O, "_bone_offset(bone) -> (rot, x, y, sx, sy, shx, shy)."},
    {"_set_joint_limit", (PyCFunction)set_joint_limit, METH_VARARGS, "_set_joint_limit(bone, min, max, from: 0 setup, 1 pose)."},
    {"_clear_joint_limit", (PyCFunction)clear_joint_limit, METH_O, "_clear_joint_limit(bone)."},
    {"_joint_limit", (PyCFunction)joint_limit, METH_O, "_joint_limit(bone) -> (min, max, from) or None."},
    {"_set_reach", (PyCFunction)set_reach, METH_VARARGS,
     "_set_reach(upper, lower, tip, space, x, y, offset_space, ox, oy, weight, bend)."},
    {"_clear_reach", (PyCFunction)clear_reach, METH_O, "_clear_reach(upper)."},
    {"_reaches", (PyCFunction)reaches, METH_NOARGS, "[(upper, lower, tip, space, x, y, offset_space, ox, oy, weight, bend)]."},
    {"clear_layer", (PyCFunction)clear_layer, METH_NOARGS, "Remove every bone offset, joint limit and reach."},
    {"_set_placement", (PyCFunction)set_placement, METH_VARARGS, "_set_placement(x, y, scale_x, scale_y)."},
    {NULL, NULL, 0, NULL}};

PyGetSetDef obpy_layer_getset[] = {
    {"placement", (getter)get_placement, NULL, "§3.2 skeleton placement (x, y, scale_x, scale_y).", NULL},
    {NULL, NULL, NULL, NULL, NULL}};
