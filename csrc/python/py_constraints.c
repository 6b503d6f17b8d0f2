/* py_constraints.c: Instance methods of the §7 constraints concern: live
** constraint values, the physics state (reset, trace) and two test hooks.
** Name resolution lives in openbone/constraints.py. */
#include "obpy.h"

#include "../constraints.h"
#include "../curve_spine.h"

#define NEED_INST(self) OBPY_NEED_INST(self)

static int check_constraint(const ob_instance *inst, long c)
{
    if (c < 0 || c >= inst->doc->constraint_count) {
        PyErr_Format(PyExc_IndexError, "constraint index %ld out of range", c);
        return 0;
    }
    return 1;
}

/* The live values a constraint kind uses, with their timeline property names. */
static const struct { int kind, slot; const char *name; } value_names[] = {
    {OB_CON_IK, OB_CV_MIX, "mix"}, {OB_CON_IK, OB_CV_SOFTNESS, "softness"}, {OB_CON_IK, OB_CV_BEND, "bend"},
    {OB_CON_IK, OB_CV_STRETCH, "stretch"}, {OB_CON_IK, OB_CV_COMPRESS, "compress"},
    {OB_CON_TRANSFORM, OB_CV_MIX, "mix"}, {OB_CON_TRANSFORM, OB_CV_MIX_ROTATE, "mixRotate"},
    {OB_CON_TRANSFORM, OB_CV_MIX_TRANSLATE, "mixTranslate"}, {OB_CON_TRANSFORM, OB_CV_MIX_SCALE, "mixScale"},
    {OB_CON_TRANSFORM, OB_CV_MIX_SHEAR, "mixShear"},
    {OB_CON_PATH, OB_CV_POSITION, "position"}, {OB_CON_PATH, OB_CV_SPACING, "spacing"},
    {OB_CON_PATH, OB_CV_MIX_ROTATE, "mixRotate"}, {OB_CON_PATH, OB_CV_MIX_X, "mixX"}, {OB_CON_PATH, OB_CV_MIX_Y, "mixY"},
    {OB_CON_PHYSICS, OB_CV_MIX, "mix"}, {OB_CON_PHYSICS, OB_CV_INERTIA, "inertia"},
    {OB_CON_PHYSICS, OB_CV_STRENGTH, "strength"}, {OB_CON_PHYSICS, OB_CV_DAMPING, "damping"},
    {OB_CON_PHYSICS, OB_CV_MASS, "mass"}, {OB_CON_PHYSICS, OB_CV_GRAVITY, "gravity"},
    {OB_CON_PHYSICS, OB_CV_WIND, "wind"},
};

static PyObject *constraint_values(obpy_instance *self, PyObject *arg)
{
    NEED_INST(self);
    long c = PyLong_AsLong(arg);
    if (c == -1 && PyErr_Occurred()) return NULL;
    if (!check_constraint(self->inst, c)) return NULL;
    int kind = self->inst->doc->constraints[c].kind;
    const double *v = &self->inst->con_values[(size_t)c * OB_CV_COUNT];
    PyObject *d = PyDict_New();
    if (!d) return NULL;
    for (size_t i = 0; i < sizeof value_names / sizeof value_names[0]; i++) {
        if (value_names[i].kind != kind) continue;
        PyObject *x = PyFloat_FromDouble(v[value_names[i].slot]);
        if (!x || PyDict_SetItemString(d, value_names[i].name, x) < 0) {
            Py_XDECREF(x);
            Py_DECREF(d);
            return NULL;
        }
        Py_DECREF(x);
    }
    return d;
}

static PyObject *reset_physics(obpy_instance *self, PyObject *unused)
{
    (void)unused;
    NEED_INST(self);
    ob_physics_reset(self->inst);
    Py_RETURN_NONE;
}

/* physics_state(c): None before the first call, else a dict of the state. */
static PyObject *physics_state(obpy_instance *self, PyObject *arg)
{
    NEED_INST(self);
    long c = PyLong_AsLong(arg);
    if (c == -1 && PyErr_Occurred()) return NULL;
    if (!check_constraint(self->inst, c)) return NULL;
    if (self->inst->doc->constraints[c].kind != OB_CON_PHYSICS) Py_RETURN_NONE;
    if (self->inst->doc->pose_model == OB_POSE_MODEL_SPINE) {  /* spine-core 4.2's fields */
        const ob_spine_physics *p = &self->inst->cons->spine_physics[c];
        return Py_BuildValue("{s:i,s:d,s:d,s:d,s:d,s:d,s:d,s:d,s:d,s:d,s:d,s:d,s:d,s:d,s:d,s:d,s:d}",
                             "reset", p->reset, "ux", p->ux, "uy", p->uy, "cx", p->cx, "cy", p->cy,
                             "tx", p->tx, "ty", p->ty, "x_offset", p->x_offset, "x_velocity", p->x_velocity,
                             "y_offset", p->y_offset, "y_velocity", p->y_velocity,
                             "rotate_offset", p->rotate_offset, "rotate_velocity", p->rotate_velocity,
                             "scale_offset", p->scale_offset, "scale_velocity", p->scale_velocity,
                             "remaining", p->remaining, "last_time", p->last_time);
    }
    const ob_physics_state *s = &self->inst->cons->physics[c];
    if (!s->initialised) Py_RETURN_NONE;
    return Py_BuildValue("{s:(dddddd),s:(dddddd),s:(dd),s:(dd),s:d,s:d}",
                         "origin", s->origin.x, s->origin.y, s->origin.vx, s->origin.vy, s->origin.px, s->origin.py,
                         "tip", s->tip.x, s->tip.y, s->tip.vx, s->tip.vy, s->tip.px, s->tip.py,
                         "last_origin", s->last_ox, s->last_oy, "last_tip", s->last_tx, s->last_ty,
                         "time", s->time, "steps", s->steps);
}

/* _trace_physics(dt, steps, c): advance `steps` times by dt, recording
** after each advance the physics particles and bone world of constraint c
** (-1: every physics constraint). */
static PyObject *trace_physics(obpy_instance *self, PyObject *args)
{
    NEED_INST(self);
    double dt;
    long steps, which;
    if (!PyArg_ParseTuple(args, "dll", &dt, &steps, &which)) return obpy_arg_error("_trace_physics");
    if (!OBPY_DT_OK(dt)) return obpy_bad_dt("_trace_physics", dt);
    ob_instance *inst = self->inst;
    const ob_document *doc = inst->doc;
    if (steps < 0 || steps > OBPY_MAX_BAKE_STEPS) {
        PyErr_SetString(obpy_error, "_trace_physics: steps must be 0..100000000");
        return NULL;
    }
    if (which >= 0 && (!check_constraint(inst, which) || doc->constraints[which].kind != OB_CON_PHYSICS)) {
        if (!PyErr_Occurred()) PyErr_SetString(obpy_error, "not a physics constraint");
        return NULL;
    }
    npy_intp n = 0;
    for (int32_t c = 0; c < doc->constraint_count; c++)
        n += doc->constraints[c].kind == OB_CON_PHYSICS && (which < 0 || which == c);
    npy_intp d1[1] = {steps}, dp[3] = {steps, n, 4}, dw[3] = {steps, n, 6}, dc[1] = {n};
    PyObject *time = PyArray_ZEROS(1, d1, NPY_DOUBLE, 0), *origin = PyArray_ZEROS(3, dp, NPY_DOUBLE, 0);
    PyObject *tip = PyArray_ZEROS(3, dp, NPY_DOUBLE, 0), *world = PyArray_ZEROS(3, dw, NPY_DOUBLE, 0);
    PyObject *idx = PyArray_ZEROS(1, dc, NPY_INT32, 0);
    PyObject *out = NULL;
    if (!time || !origin || !tip || !world || !idx) goto done;
    int32_t *ip = PyArray_DATA((PyArrayObject *)idx);
    npy_intp k = 0;
    for (int32_t c = 0; c < doc->constraint_count; c++)
        if (doc->constraints[c].kind == OB_CON_PHYSICS && (which < 0 || which == c)) ip[k++] = c;
    double *tp = PyArray_DATA((PyArrayObject *)time), *op = PyArray_DATA((PyArrayObject *)origin);
    double *pp = PyArray_DATA((PyArrayObject *)tip), *wp = PyArray_DATA((PyArrayObject *)world);
    for (long s = 0; s < steps; s++) {
        ob_instance_advance(inst, dt);
        tp[s] = inst->clock;
        for (npy_intp j = 0; j < n; j++) {
            const ob_physics_state *ps = &inst->cons->physics[ip[j]];
            double *o = &op[(s * n + j) * 4], *t = &pp[(s * n + j) * 4], *w = &wp[(s * n + j) * 6];
            o[0] = ps->origin.x; o[1] = ps->origin.y; o[2] = ps->origin.vx; o[3] = ps->origin.vy;
            t[0] = ps->tip.x; t[1] = ps->tip.y; t[2] = ps->tip.vx; t[3] = ps->tip.vy;
            int32_t b = doc->constraints[ip[j]].bone;
            ob_mat m = b >= 0 ? inst->world[b] : ob_mat_identity();
            w[0] = m.a; w[1] = m.b; w[2] = m.c; w[3] = m.d; w[4] = m.x; w[5] = m.y;
        }
    }
    out = Py_BuildValue("{s:O,s:O,s:O,s:O,s:O}", "time", time, "origin", origin, "tip", tip, "world", world,
                        "constraints", idx);
done:
    Py_XDECREF(time); Py_XDECREF(origin); Py_XDECREF(tip); Py_XDECREF(world); Py_XDECREF(idx);
    return out;
}

/* Test hook: sets bone b's local pose (x, y, rotation, scaleX, scaleY, shearX, shearY). */
static PyObject *set_local_pose(obpy_instance *self, PyObject *args)
{
    NEED_INST(self);
    long b;
    ob_pose p;
    if (!PyArg_ParseTuple(args, "l(ddddddd)", &b, &p.x, &p.y, &p.rotation, &p.scale_x, &p.scale_y, &p.shear_x,
                          &p.shear_y))
        return NULL;
    if (b < 0 || b >= self->inst->doc->bone_count) {
        PyErr_SetString(PyExc_IndexError, "bone index out of range");
        return NULL;
    }
    self->inst->local[b] = p;
    ob_instance_setup_touched(self->inst);  /* bones, issue 17: setToSetupPose restores every row */
    Py_RETURN_NONE;
}

/* Test hook: skeleton.update(dt) alone (clock and pending physics time). */
static PyObject *skeleton_update(obpy_instance *self, PyObject *arg)
{
    NEED_INST(self);
    double dt = PyFloat_AsDouble(arg);
    if (dt == -1 && PyErr_Occurred()) return NULL;
    ob_skeleton_update(self->inst, dt);
    Py_RETURN_NONE;
}

PyMethodDef obpy_constraint_methods[] = {
    {"_constraint_values", (PyCFunction)constraint_values, METH_O,
     "_constraint_values(index): dict of the constraint's live values (§3.1, §5.1)."},
    {"reset_physics", (PyCFunction)reset_physics, METH_NOARGS,
     "Forget every physics state (§7.4): the next update starts at rest."},
    {"_physics_state", (PyCFunction)physics_state, METH_O,
     "_physics_state(index): the §7.4 state of a physics constraint, None before its first update "
     "(the Spine pose model: spine-core 4.2's fields, always)."},
    {"_trace_physics", (PyCFunction)trace_physics, METH_VARARGS,
     "_trace_physics(dt, steps, index): advance steps times, recording physics particles and bone world."},
    {"_set_local_pose", (PyCFunction)set_local_pose, METH_VARARGS,
     "_set_local_pose(bone, (x, y, rotation, scaleX, scaleY, shearX, shearY)): test hook."},
    {"_skeleton_update", (PyCFunction)skeleton_update, METH_O,
     "_skeleton_update(dt): skeleton.update(dt) alone (test hook)."},
    {NULL, NULL, 0, NULL}};
PyGetSetDef obpy_constraint_getset[] = {{NULL, NULL, NULL, NULL, NULL}};
