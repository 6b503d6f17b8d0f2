/* py_particles.c: Instance methods of the particles concern (§8.8).
** Thin: slot indices in, C core called, copies out as NumPy arrays.  Name
** resolution and dicts live in openbone/particles.py. */
#include "obpy.h"

#include "../atlas.h"
#include "../particles.h"
#include "../rng.h"

#define NEED_INST(self) OBPY_NEED_INST(self)

static int slot_arg(obpy_instance *self, PyObject *o, int32_t *slot)
{
    long s = PyLong_AsLong(o);
    if (s == -1 && PyErr_Occurred()) return -1;
    if (s < 0 || s >= self->inst->doc->slot_count) {
        PyErr_Format(obpy_error, "no slot with index %ld", s);
        return -1;
    }
    *slot = (int32_t)s;
    return 0;
}

static PyObject *emit_particles_at(obpy_instance *self, PyObject *args)
{
    PyObject *so;
    double count;
    NEED_INST(self);
    if (!PyArg_ParseTuple(args, "Od", &so, &count)) return obpy_arg_error(__func__);
    int32_t slot;
    if (slot_arg(self, so, &slot) < 0) return NULL;
    ob_particles_emit(self->inst, slot, count);
    Py_RETURN_NONE;
}

static PyObject *set_emitter_at(obpy_instance *self, PyObject *args)
{
    PyObject *so;
    int on;
    NEED_INST(self);
    if (!PyArg_ParseTuple(args, "Op", &so, &on)) return obpy_arg_error(__func__);
    int32_t slot;
    if (slot_arg(self, so, &slot) < 0) return NULL;
    ob_particles_set_emitter(self->inst, slot, on);
    Py_RETURN_NONE;
}

static PyObject *clear_emitter_overrides(obpy_instance *self, PyObject *unused)
{
    (void)unused;
    NEED_INST(self);
    ob_particles_clear_overrides(self->inst);
    Py_RETURN_NONE;
}

static PyObject *new_array(int nd, npy_intp *dims, int type, const void *src, size_t bytes)
{
    PyObject *a = PyArray_SimpleNew(nd, dims, type);
    if (a && bytes) memcpy(PyArray_DATA((PyArrayObject *)a), src, bytes);
    return a;
}

/* A dict of copies of the slot's particle buffer, None without an emitter. */
static PyObject *particle_state_at(obpy_instance *self, PyObject *so)
{
    NEED_INST(self);
    int32_t slot;
    if (slot_arg(self, so, &slot) < 0) return NULL;
    const ob_emitter *e = ob_particles_emitter(self->inst, slot);
    if (!e) Py_RETURN_NONE;
    npy_intp n = e->count;
    npy_intp d2[2] = {n, 2}, d1[1] = {n};
    PyObject *pos = PyArray_SimpleNew(2, d2, NPY_FLOAT32), *vel = PyArray_SimpleNew(2, d2, NPY_FLOAT32);
    PyObject *f[7];
    for (int k = 0; k < 7; k++) f[k] = PyArray_SimpleNew(1, d1, NPY_FLOAT32);
    PyObject *out = NULL;
    int ok = pos && vel;
    for (int k = 0; k < 7; k++) ok = ok && f[k];
    if (ok) {
        float *pp = PyArray_DATA((PyArrayObject *)pos), *vv = PyArray_DATA((PyArrayObject *)vel);
        float *ff[7];
        for (int k = 0; k < 7; k++) ff[k] = PyArray_DATA((PyArrayObject *)f[k]);
        for (npy_intp i = 0; i < n; i++) {
            const ob_emitter_particle *p = &e->particles[i];
            pp[2 * i] = p->x; pp[2 * i + 1] = p->y;
            vv[2 * i] = p->vx; vv[2 * i + 1] = p->vy;
            ff[0][i] = p->age; ff[1][i] = p->life; ff[2][i] = p->size0; ff[3][i] = p->size1;
            ff[4][i] = p->rot0; ff[5][i] = p->rot1; ff[6][i] = p->spin;
        }
        out = Py_BuildValue("{s:O,s:O,s:O,s:O,s:O,s:O,s:O,s:O,s:O,s:s,s:d,s:d,s:d,s:i,s:L,s:k}",
                            "positions", pos, "velocities", vel, "ages", f[0], "lives", f[1],
                            "size0", f[2], "size1", f[3], "rot0", f[4], "rot1", f[5], "spin", f[6],
                            "attachment", self->inst->doc->attachments[e->attachment].name,
                            "cycle", e->cycle, "acc", e->acc, "pending", e->pending,
                            "emitting", e->was_emitting, "steps", (long long)e->steps,
                            "rng", (unsigned long)e->rng);
    }
    Py_XDECREF(pos);
    Py_XDECREF(vel);
    for (int k = 0; k < 7; k++) Py_XDECREF(f[k]);
    return out;
}

static const char *BLENDS[] = {"normal", "additive", "multiply", "screen"};

/* The slot's §8.8 item as a tuple (attachment, blend, texture, vertices,
** uvs, colors, indices), None when it draws nothing. */
static PyObject *particle_geometry_at(obpy_instance *self, PyObject *so)
{
    NEED_INST(self);
    int32_t slot;
    if (slot_arg(self, so, &slot) < 0) return NULL;
    ob_instance *inst = self->inst;
    int32_t cap = ob_particles_max_quads(inst, slot);
    if (cap <= 0) Py_RETURN_NONE;
    float *buf = PyMem_Malloc((size_t)cap * (8 + 8 + 16) * sizeof(float));
    uint32_t *ix = PyMem_Malloc((size_t)cap * 6 * sizeof(uint32_t));
    if (!buf || !ix) {
        PyMem_Free(buf);
        PyMem_Free(ix);
        return PyErr_NoMemory();
    }
    float *vt = buf, *uv = buf + 8 * (size_t)cap, *cl = buf + 16 * (size_t)cap;
    int32_t tex;
    int32_t q = ob_particles_geometry(inst, slot, vt, uv, cl, ix, 0, &tex);
    PyObject *out = NULL;
    if (q <= 0) {
        out = Py_NewRef(Py_None);
    } else {
        const ob_attachment *a = &inst->doc->attachments[inst->particles->emitters[slot].attachment];
        const char *tname = ob_texture_name(inst->doc, tex);
        npy_intp dv[1] = {8 * (npy_intp)q}, dc[1] = {16 * (npy_intp)q}, di[1] = {6 * (npy_intp)q};
        PyObject *v = new_array(1, dv, NPY_FLOAT32, vt, (size_t)dv[0] * sizeof(float));
        PyObject *u = new_array(1, dv, NPY_FLOAT32, uv, (size_t)dv[0] * sizeof(float));
        PyObject *c = new_array(1, dc, NPY_FLOAT32, cl, (size_t)dc[0] * sizeof(float));
        PyObject *i = new_array(1, di, NPY_UINT32, ix, (size_t)di[0] * sizeof(uint32_t));
        PyObject *t = tname ? PyUnicode_FromString(tname) : Py_NewRef(Py_None);
        if (v && u && c && i && t)
            out = Py_BuildValue("(ssOOOOO)", a->name, BLENDS[a->particles->blend & 3], t, v, u, c, i);
        Py_XDECREF(v); Py_XDECREF(u); Py_XDECREF(c); Py_XDECREF(i); Py_XDECREF(t);
    }
    PyMem_Free(buf);
    PyMem_Free(ix);
    return out;
}

static PyObject *get_particle_counts(obpy_instance *self, void *c)
{
    (void)c;
    NEED_INST(self);
    npy_intp n = self->inst->doc->slot_count;
    PyObject *a = PyArray_SimpleNew(1, &n, NPY_INT32);
    if (!a) return NULL;
    int32_t *d = PyArray_DATA((PyArrayObject *)a);
    for (npy_intp i = 0; i < n; i++) d[i] = ob_particles_count(self->inst, (int32_t)i);
    return a;
}

static PyObject *get_particle_frac(obpy_instance *self, void *c)
{
    (void)c;
    NEED_INST(self);
    return PyFloat_FromDouble(self->inst->particles ? self->inst->particles->frac : 0);
}

static PyObject *get_particle_growths(obpy_instance *self, void *c)
{
    (void)c;
    NEED_INST(self);
    return PyLong_FromUnsignedLongLong(self->inst->particles ? self->inst->particles->growths : 0);
}

/* Static helpers for tests: the §8.8 hash and generator on their own. */
static PyObject *fnv1a(PyObject *unused, PyObject *arg)
{
    (void)unused;
    const char *s = PyUnicode_AsUTF8(arg);
    if (!s) return NULL;
    return PyLong_FromUnsignedLong(ob_fnv1a_utf16(s));
}

static PyObject *mulberry32(PyObject *unused, PyObject *args)
{
    (void)unused;
    unsigned long long seed;
    Py_ssize_t n;
    if (!PyArg_ParseTuple(args, "Kn", &seed, &n)) return obpy_arg_error(__func__);
    if (n < 0) n = 0;
    npy_intp dims[1] = {n};
    PyObject *a = PyArray_SimpleNew(1, dims, NPY_DOUBLE);
    if (!a) return NULL;
    double *d = PyArray_DATA((PyArrayObject *)a);
    uint32_t s = (uint32_t)seed;
    for (Py_ssize_t i = 0; i < n; i++) d[i] = ob_rng_next(&s);
    return a;
}

PyMethodDef obpy_particle_methods[] = {
    {"_emit_particles", (PyCFunction)emit_particles_at, METH_VARARGS,
     "_emit_particles(slot_index, count): adds to the slot's pending emitParticles count."},
    {"_set_emitter", (PyCFunction)set_emitter_at, METH_VARARGS,
     "_set_emitter(slot_index, emitting): the slot's emitter override (restarts when switched on)."},
    {"clear_emitter_overrides", (PyCFunction)clear_emitter_overrides, METH_NOARGS,
     "Drops every setEmitter override."},
    {"_particle_state", (PyCFunction)particle_state_at, METH_O,
     "_particle_state(slot_index): copies of the emitter's particle buffer (dict) or None."},
    {"_particle_geometry", (PyCFunction)particle_geometry_at, METH_O,
     "_particle_geometry(slot_index): (attachment, blend, texture, vertices, uvs, colors, indices) or None."},
    {"_fnv1a", (PyCFunction)fnv1a, METH_O | METH_STATIC, "§8.8 fnv1a over the UTF-16 code units of a str."},
    {"_mulberry32", (PyCFunction)mulberry32, METH_VARARGS | METH_STATIC,
     "_mulberry32(seed, n): the first n numbers of §8.8 mulberry32."},
    {NULL, NULL, 0, NULL}};

PyGetSetDef obpy_particle_getset[] = {
    {"particle_counts", (getter)get_particle_counts, NULL,
     "(n_slots,) int32: live particles per slot (document order), 0 without an emitter.", NULL},
    {"particle_frac", (getter)get_particle_frac, NULL, "§8.8 particle clock remainder (seconds).", NULL},
    {"particle_growths", (getter)get_particle_growths, NULL,
     "Particle buffer growths after creation (0 unless counts break maxParticles).", NULL},
    {NULL, NULL, NULL, NULL, NULL}};
