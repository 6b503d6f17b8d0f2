/* py_animation.c: Instance methods of the animation concern (§4.3, §5, §6,
** §10) and the module function eval_curve.  Thin: names are resolved to
** indices by openbone/animation.py; the logic is in timeline.c,
** animation_state.c and audio.c. */
#include "obpy.h"

#include <stdio.h>
#include <string.h>

#include "../animation_state.h"
#include "../instance.h"
#include "../timeline.h"

#define NEED_INST(self) OBPY_NEED_INST(self)

typedef obpy_instance InstanceObject;

static PyObject *str_or_none(const char *s)
{
    if (!s) Py_RETURN_NONE;
    return PyUnicode_FromString(s);
}

/* ---- tracks --------------------------------------------------------------- */

static PyObject *set_animation(InstanceObject *self, PyObject *args)
{
    int track, anim, loop;
    double mix;
    NEED_INST(self);
    if (!PyArg_ParseTuple(args, "iipd", &track, &anim, &loop, &mix)) return obpy_arg_error("set_animation");
    if (!isfinite(mix)) return PyErr_Format(obpy_error, "set_animation: mix must be a finite number");
    int r = ob_anim_set_animation(self->inst, track, anim, loop, mix);
    if (r == -3) return PyErr_NoMemory();
    if (r < 0)
        return PyErr_Format(obpy_error, "set_animation: bad track %d or animation %d (tracks 0..%d)", track, anim,
                            OB_MAX_TRACKS - 1);
    Py_RETURN_NONE;
}

static PyObject *add_animation(InstanceObject *self, PyObject *args)
{
    int track, anim, loop;
    double delay, mix;
    NEED_INST(self);
    if (!PyArg_ParseTuple(args, "iipdd", &track, &anim, &loop, &delay, &mix)) return obpy_arg_error("add_animation");
    if (!isfinite(delay) || !isfinite(mix))
        return PyErr_Format(obpy_error, "add_animation: delay and mix must be finite numbers");
    int r = ob_anim_add_animation(self->inst, track, anim, loop, delay, mix);
    if (r == -3) return PyErr_NoMemory();
    if (r == -2) return PyErr_Format(obpy_error, "add_animation: the queue of track %d is full (%d entries)", track,
                                     OB_QUEUE_CAPACITY);
    if (r < 0)
        return PyErr_Format(obpy_error, "add_animation: bad track %d or animation %d (tracks 0..%d)", track, anim,
                            OB_MAX_TRACKS - 1);
    Py_RETURN_NONE;
}

static PyObject *clear_track(InstanceObject *self, PyObject *arg)
{
    NEED_INST(self);
    long track = PyLong_AsLong(arg);
    if (track == -1 && PyErr_Occurred()) return obpy_arg_error("clear_track");
    if (track < 0 || track >= OB_MAX_TRACKS || ob_anim_clear_track(self->inst, (int32_t)track) < 0)
        return PyErr_Format(obpy_error, "clear_track: no track %ld (tracks 0..%d)", track, OB_MAX_TRACKS - 1);
    Py_RETURN_NONE;
}

/* set_track_speed(track, speed) / set_track_alpha(track, alpha): §6 TrackEntry fields */
static PyObject *set_track_field(InstanceObject *self, PyObject *args, int alpha)
{
    NEED_INST(self);
    int track;
    double v;
    if (!PyArg_ParseTuple(args, "id", &track, &v)) return obpy_arg_error(alpha ? "set_track_alpha" : "set_track_speed");
    if (!isfinite(v))
        return PyErr_Format(obpy_error, "%s: expected a finite number", alpha ? "set_track_alpha" : "set_track_speed");
    int rc = alpha ? ob_anim_set_track_alpha(self->inst, track, v) : ob_anim_set_track_speed(self->inst, track, v);
    if (rc < 0) return PyErr_Format(obpy_error, "track %d has no animation", track);
    Py_RETURN_NONE;
}

static PyObject *set_track_speed(InstanceObject *self, PyObject *args) { return set_track_field(self, args, 0); }
static PyObject *set_track_alpha(InstanceObject *self, PyObject *args) { return set_track_field(self, args, 1); }

static PyObject *entry_dict(const ob_track_entry *e)
{
    return Py_BuildValue("{s:i,s:d,s:d,s:O,s:d,s:d,s:d,s:d,s:d,s:d}", "animation", (int)e->animation, "time", e->time,
                         "prev_time", e->prev_time, "loop", e->loop ? Py_True : Py_False, "speed", e->speed, "alpha",
                         e->alpha, "mix_time", e->mix_time, "mix_duration", e->mix_duration, "completed_loops",
                         e->completed_loops, "delay", e->delay);
}

/* _track(track) -> None | (entry dict, from dict | None, [queued dicts]) */
static PyObject *track_info(InstanceObject *self, PyObject *arg)
{
    NEED_INST(self);
    long ti = PyLong_AsLong(arg);
    if (ti == -1 && PyErr_Occurred()) return obpy_arg_error("track");
    const ob_track *t = ti >= 0 && ti < OB_MAX_TRACKS ? ob_anim_track(self->inst, (int32_t)ti) : NULL;
    if (!t) return PyErr_Format(obpy_error, "no track %ld (tracks 0..%d)", ti, OB_MAX_TRACKS - 1);
    if (!t->has_entry) Py_RETURN_NONE;
    PyObject *q = PyList_New(t->queue_count);
    if (!q) return NULL;
    for (int32_t i = 0; i < t->queue_count; i++) {
        PyObject *d = entry_dict(&t->queue[i]);
        if (!d) { Py_DECREF(q); return NULL; }
        PyObject *mix = PyFloat_FromDouble(t->queue[i].mix);
        if (!mix || PyDict_SetItemString(d, "mix", mix) < 0) { Py_XDECREF(mix); Py_DECREF(d); Py_DECREF(q); return NULL; }
        Py_DECREF(mix);
        PyList_SET_ITEM(q, i, d);
    }
    PyObject *e = entry_dict(&t->entry);
    PyObject *f = t->has_from ? entry_dict(&t->from) : (Py_INCREF(Py_None), Py_None);
    if (!e || !f) { Py_XDECREF(e); Py_XDECREF(f); Py_DECREF(q); return NULL; }
    return Py_BuildValue("(NNN)", e, f, q);
}

static PyObject *track_count(InstanceObject *self, void *unused)
{
    (void)self; (void)unused;
    return PyLong_FromLong(OB_MAX_TRACKS);
}

/* ---- events and audio of the last advance ------------------------------------ */

/* _events() -> [(event index, animation index, time, int, float, string, track)] */
static PyObject *events(InstanceObject *self, PyObject *unused)
{
    (void)unused;
    NEED_INST(self);
    int32_t n;
    const ob_anim_event *ev = ob_anim_events(self->inst, &n);
    PyObject *list = PyList_New(n);
    if (!list) return NULL;
    for (int32_t i = 0; i < n; i++) {
        PyObject *t = Py_BuildValue("(iidddNi)", (int)ev[i].event, (int)ev[i].animation, ev[i].time, ev[i].int_value,
                                    ev[i].float_value, str_or_none(ev[i].string_value ? ev[i].string_value : ""),
                                    (int)ev[i].track);
        if (!t) { Py_DECREF(list); return NULL; }
        PyList_SET_ITEM(list, i, t);
    }
    return list;
}

static PyObject *play_id(int32_t id) { return PyUnicode_FromFormat("play_%d", (int)id); }

static PyObject *source_str(ob_audio_source s)
{
    if (!s.kind && !s.name) Py_RETURN_NONE;
    return PyUnicode_FromFormat("%s:%s", s.kind ? s.kind : "", s.name ? s.name : "");
}

/* One command as its FORMAT.md dict (real ids "play_<n>"). */
PyObject *obpy_audio_command(const ob_audio_cmd *c)
{
    switch (c->type) {
    case OB_AUDIO_PLAY:
        return Py_BuildValue("{s:s,s:N,s:N,s:N,s:N,s:d,s:d,s:O,s:d,s:N}", "type", "play", "id", play_id(c->id), "sound",
                             str_or_none(c->sound), "asset", str_or_none(c->asset), "bus", str_or_none(c->bus),
                             "volume", c->volume, "rate", c->rate, "loop", c->loop ? Py_True : Py_False, "fadeIn",
                             c->fade_in, "source", source_str(c->source));
    case OB_AUDIO_STOP:
        return Py_BuildValue("{s:s,s:N,s:d}", "type", "stop", "id", play_id(c->id), "fade", c->fade);
    case OB_AUDIO_FADE:
        return Py_BuildValue("{s:s,s:N,s:d,s:d}", "type", "fade", "id", play_id(c->id), "volume", c->volume,
                             "duration", c->duration);
    default:
        return Py_BuildValue("{s:s,s:N,s:O}", "type", "mix", "bus", str_or_none(c->bus), "muted",
                             c->muted ? Py_True : Py_False);
    }
}

static PyObject *audio_commands(InstanceObject *self, PyObject *unused)
{
    (void)unused;
    NEED_INST(self);
    const ob_audio_director *a = ob_anim_audio(self->inst);
    int32_t n = ob_audio_report_count(a);
    PyObject *list = PyList_New(n);
    if (!list) return NULL;
    for (int32_t i = 0; i < n; i++) {
        PyObject *d = obpy_audio_command(&a->cmds[i]);
        if (!d) { Py_DECREF(list); return NULL; }
        PyList_SET_ITEM(list, i, d);
    }
    return list;
}

/* ---- direct director calls (tools, tests): commands are reported with the next advance ---- */

static int opt_double(PyObject *o, int *has, double *v)
{
    *has = o != Py_None;
    if (!*has) return 0;
    *v = PyFloat_AsDouble(o);
    return *v == -1 && PyErr_Occurred() ? -1 : 0;
}

/* _audio_play(ref, volume=None, rate=None, loop=None, source=None) -> id string | None (unowned, no tag) */
static PyObject *audio_play(InstanceObject *self, PyObject *args)
{
    const char *ref;
    PyObject *vol = Py_None, *rate = Py_None, *loop = Py_None;
    NEED_INST(self);
    if (!PyArg_ParseTuple(args, "s|OOO", &ref, &vol, &rate, &loop)) return obpy_arg_error(__func__);
    ob_audio_play_opts o;
    memset(&o, 0, sizeof o);
    if (opt_double(vol, &o.has_volume, &o.volume) < 0 || opt_double(rate, &o.has_rate, &o.rate) < 0) return NULL;
    if (loop != Py_None) {
        o.has_loop = 1;
        o.loop = PyObject_IsTrue(loop);
    }
    o.source = (ob_audio_source){"api", "play"};
    int32_t id = ob_audio_play(ob_anim_audio(self->inst), ref, &o);
    if (!id) Py_RETURN_NONE;
    return play_id(id);
}

static int parse_play_id(PyObject *o, int32_t *id)
{
    const char *s = PyUnicode_AsUTF8(o);
    int n = 0;
    if (!s) return -1;
    if (sscanf(s, "play_%d", &n) != 1) {
        PyErr_Format(obpy_error, "not an audio instance id: %R", o);
        return -1;
    }
    *id = n;
    return 0;
}

/* _audio_stop(id, fade=None) */
static PyObject *audio_stop(InstanceObject *self, PyObject *args)
{
    PyObject *ido, *fade = Py_None;
    NEED_INST(self);
    if (!PyArg_ParseTuple(args, "O|O", &ido, &fade)) return obpy_arg_error(__func__);
    int32_t id;
    int has;
    double f = 0;
    if (parse_play_id(ido, &id) < 0 || opt_double(fade, &has, &f) < 0) return NULL;
    ob_audio_stop(ob_anim_audio(self->inst), id, has, f);
    Py_RETURN_NONE;
}

/* _audio_stop_sound(ref, fade=None) */
static PyObject *audio_stop_sound(InstanceObject *self, PyObject *args)
{
    const char *ref;
    PyObject *fade = Py_None;
    NEED_INST(self);
    if (!PyArg_ParseTuple(args, "s|O", &ref, &fade)) return obpy_arg_error(__func__);
    int has;
    double f = 0;
    if (opt_double(fade, &has, &f) < 0) return NULL;
    ob_audio_stop_sound(ob_anim_audio(self->inst), ref, has, f);
    Py_RETURN_NONE;
}

static PyObject *audio_stop_all(InstanceObject *self, PyObject *unused)
{
    (void)unused;
    NEED_INST(self);
    ob_audio_stop_all(ob_anim_audio(self->inst));
    Py_RETURN_NONE;
}

/* _audio_playing() -> [(id, loop, end)] the director's bookkeeping */
static PyObject *audio_playing(InstanceObject *self, PyObject *unused)
{
    (void)unused;
    NEED_INST(self);
    const ob_audio_director *a = ob_anim_audio(self->inst);
    PyObject *l = PyList_New(a->playing_count);
    if (!l) return NULL;
    for (int32_t i = 0; i < a->playing_count; i++) {
        PyObject *t = Py_BuildValue("(NOd)", play_id(a->playing[i].id), a->playing[i].loop ? Py_True : Py_False,
                                    a->playing[i].end);
        if (!t) { Py_DECREF(l); return NULL; }
        PyList_SET_ITEM(l, i, t);
    }
    return l;
}

/* _anim_counters() -> (starts, completes, events dropped, commands dropped) of the last advance */
static PyObject *anim_counters(InstanceObject *self, PyObject *unused)
{
    (void)unused;
    NEED_INST(self);
    const ob_anim_state *st = self->inst->anim;
    return Py_BuildValue("(iiii)", (int)st->starts, (int)st->completes, (int)st->events_dropped,
                         (int)st->audio.dropped);
}

/* _notices() -> [(type, track, animation index)] of the last advance (§6 start/complete) */
static PyObject *anim_notices(InstanceObject *self, PyObject *unused)
{
    (void)unused;
    NEED_INST(self);
    int32_t n;
    const ob_anim_notice *ns = ob_anim_notices(self->inst, &n);
    PyObject *list = PyList_New(n);
    for (int32_t i = 0; list && i < n; i++) {
        PyObject *t = Py_BuildValue("(sii)", ns[i].type == OB_NOTICE_START ? "start" : "complete",
                                    (int)ns[i].track, (int)ns[i].animation);
        if (!t) { Py_DECREF(list); return NULL; }
        PyList_SET_ITEM(list, i, t);
    }
    return list;
}

/* ---- baking ------------------------------------------------------------------- */

/* bake(dt, steps) -> (steps, n_bones, 6): advance + copy the world per step, in
** C, with the GIL released (unless a script host may be called back).  The
** request is bounded: steps <= OBPY_MAX_BAKE_STEPS and the result at most
** OBPY_MAX_BAKE_BYTES (README "Limits"). */
static PyObject *bake(InstanceObject *self, PyObject *args)
{
    PyObject *odt, *osteps;
    NEED_INST(self);
    if (!PyArg_ParseTuple(args, "OO", &odt, &osteps)) return obpy_arg_error(__func__);
    double dt;
    if (obpy_double(odt, "bake", &dt) < 0) return NULL;
    if (!OBPY_DT_OK(dt)) return obpy_bad_dt("bake", dt);
    if (!PyLong_Check(osteps))
        return PyErr_Format(PyExc_TypeError, "bake: steps must be an int, got %.100s", Py_TYPE(osteps)->tp_name);
    int overflow;
    long long steps = PyLong_AsLongLongAndOverflow(osteps, &overflow);
    if (steps == -1 && PyErr_Occurred()) return NULL;
    if (overflow || steps < 0 || steps > OBPY_MAX_BAKE_STEPS)
        return PyErr_Format(obpy_error, "bake: steps must be 0..%lld, got %.40S", (long long)OBPY_MAX_BAKE_STEPS,
                            osteps);
    ob_instance *inst = self->inst;
    npy_intp nb = inst->doc->bone_count;
    double bytes = (double)steps * (double)nb * 6 * sizeof(double);
    if (bytes > OBPY_MAX_BAKE_BYTES)
        return PyErr_Format(obpy_error, "bake: %lld steps of %zd bones need %.0f bytes, more than the %lld a call "
                            "may return (bake in parts)", steps, (Py_ssize_t)nb, bytes, (long long)OBPY_MAX_BAKE_BYTES);
    npy_intp dims[3] = {(npy_intp)steps, nb, 6};
    /* keys (issue 17): every element is written below, so not zeroed first */
    PyObject *out = PyArray_EMPTY(3, dims, NPY_DOUBLE, 0);
    if (!out) return NULL;
    double *dst = (double *)PyArray_DATA((PyArrayObject *)out);
    obpy_call c;
    if (obpy_begin(self, &c) < 0) {
        Py_DECREF(out);
        return NULL;
    }
    ob_instance_bake(inst, dt, (int)steps, dst);  /* keys (issue 17): the C bake (streams long outputs) */
    obpy_end(self, &c);
    if (PyErr_Occurred()) {
        Py_DECREF(out);
        return NULL;
    }
    return out;
}

/* _constraint_live(index) -> copy of the OB_CV_COUNT live values */
static PyObject *constraint_live(InstanceObject *self, PyObject *arg)
{
    NEED_INST(self);
    long c = PyLong_AsLong(arg);
    if (c == -1 && PyErr_Occurred()) return NULL;
    if (c < 0 || c >= self->inst->doc->constraint_count) return PyErr_Format(obpy_error, "no constraint %ld", c);
    npy_intp dims[1] = {OB_CV_COUNT};
    PyObject *out = PyArray_SimpleNew(1, dims, NPY_DOUBLE);
    if (!out) return NULL;
    memcpy(PyArray_DATA((PyArrayObject *)out), &self->inst->con_values[(size_t)c * OB_CV_COUNT],
           OB_CV_COUNT * sizeof(double));
    return out;
}

/* _particle_live(slot) -> (has_emitting, emitting, has_rate, rate) */
static PyObject *particle_live(InstanceObject *self, PyObject *arg)
{
    NEED_INST(self);
    long s = PyLong_AsLong(arg);
    if (s == -1 && PyErr_Occurred()) return NULL;
    if (s < 0 || s >= self->inst->doc->slot_count) return PyErr_Format(obpy_error, "no slot %ld", s);
    const ob_particle_values *p = &self->inst->particle_values[s];
    return Py_BuildValue("(OOOd)", p->has_emitting ? Py_True : Py_False, p->emitting ? Py_True : Py_False,
                         p->has_rate ? Py_True : Py_False, p->rate);
}

/* _deform_live(slot, name_id) -> ndarray copy of the offsets (None: no entry) */
static PyObject *deform_live(InstanceObject *self, PyObject *args)
{
    int slot, name;
    NEED_INST(self);
    if (!PyArg_ParseTuple(args, "ii", &slot, &name)) return obpy_arg_error(__func__);
    if (slot < 0 || slot >= self->inst->doc->slot_count) return PyErr_Format(obpy_error, "no slot %d", slot);
    const ob_deform *d = ob_instance_deform(self->inst, slot, name);
    if (!d) Py_RETURN_NONE;
    npy_intp dims[1] = {d->count};
    PyObject *out = PyArray_SimpleNew(1, dims, NPY_DOUBLE);
    if (!out) return NULL;
    if (d->count) memcpy(PyArray_DATA((PyArrayObject *)out), ob_deform_values(d), (size_t)d->count * sizeof(double));
    return out;
}

/* _seqframe_live(slot, name_id) -> None (never keyed or not set) | frame */
static PyObject *seqframe_live(InstanceObject *self, PyObject *args)
{
    int slot, name;
    NEED_INST(self);
    if (!PyArg_ParseTuple(args, "ii", &slot, &name)) return obpy_arg_error(__func__);
    if (slot < 0 || slot >= self->inst->doc->slot_count) return PyErr_Format(obpy_error, "no slot %d", slot);
    const ob_seqframe *f = ob_instance_seqframe(self->inst, slot, name);
    if (!f || !f->set) Py_RETURN_NONE;
    return PyFloat_FromDouble(f->frame);
}

/* _att_name_id(name) -> the interned attachment name id, -1 when no timeline or skin uses it */
static PyObject *att_name_id(InstanceObject *self, PyObject *arg)
{
    NEED_INST(self);
    const char *name = PyUnicode_AsUTF8(arg);
    if (!name) return NULL;
    const ob_document *doc = self->inst->doc;
    for (int32_t i = 0; i < doc->att_name_count; i++)
        if (doc->att_names[i] && strcmp(doc->att_names[i], name) == 0) return PyLong_FromLong(i);
    return PyLong_FromLong(-1);
}

/* _inherit_live() -> list of live inherit modes (ints) */
static PyObject *inherit_live(InstanceObject *self, PyObject *unused)
{
    (void)unused;
    NEED_INST(self);
    int32_t n = self->inst->doc->bone_count;
    PyObject *l = PyList_New(n);
    if (!l) return NULL;
    for (int32_t i = 0; i < n; i++) PyList_SET_ITEM(l, i, PyLong_FromLong(self->inst->inherit[i]));
    return l;
}

/* _local_pose() -> (n_bones, 7) copy [x, y, rotation, scaleX, scaleY, shearX, shearY] */
static PyObject *local_pose(InstanceObject *self, PyObject *unused)
{
    (void)unused;
    NEED_INST(self);
    npy_intp dims[2] = {self->inst->doc->bone_count, 7};
    PyObject *out = PyArray_SimpleNew(2, dims, NPY_DOUBLE);
    if (!out) return NULL;
    memcpy(PyArray_DATA((PyArrayObject *)out), self->inst->local, (size_t)dims[0] * 7 * sizeof(double));
    return out;
}

/* _apply_animation(anim, time, alpha, into=None, out_alpha=None): §5 applyAnimation
** on the current pose (no setup reset, no world update); for tests and tools. */
static PyObject *apply_animation(InstanceObject *self, PyObject *args)
{
    int anim;
    double time, alpha, out_alpha = 0;
    PyObject *into = Py_None, *oa = Py_None;
    NEED_INST(self);
    if (!PyArg_ParseTuple(args, "idd|OO", &anim, &time, &alpha, &into, &oa)) return obpy_arg_error(__func__);
    int32_t ids[64];
    ob_mix_out mo = {ids, 0, 0};
    if (oa != Py_None) {
        out_alpha = PyFloat_AsDouble(oa);
        if (out_alpha == -1 && PyErr_Occurred()) return NULL;
        mo.alpha = out_alpha;
        if (into != Py_None) {
            PyObject *seq = PySequence_Fast(into, "into: a sequence of animation indices");
            if (!seq) return NULL;
            Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
            for (Py_ssize_t i = 0; i < n && i < 64; i++) {
                long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(seq, i));
                if (v == -1 && PyErr_Occurred()) { Py_DECREF(seq); return NULL; }
                ids[mo.into_count++] = (int32_t)v;
            }
            Py_DECREF(seq);
        }
    }
    if (anim < 0 || anim >= self->inst->doc->animation_count) return PyErr_Format(obpy_error, "no animation %d", anim);
    ob_animation_apply(self->inst, anim, time, alpha, oa != Py_None ? &mo : NULL);
    Py_RETURN_NONE;
}

static PyObject *animation_time(InstanceObject *self, void *unused)
{
    (void)unused;
    NEED_INST(self);
    if (!self->inst->has_animation_time) Py_RETURN_NONE;
    return PyFloat_FromDouble(self->inst->animation_time);
}

PyMethodDef obpy_animation_methods[] = {
    {"_set_animation", (PyCFunction)set_animation, METH_VARARGS, "_set_animation(track, anim_index, loop, mix)"},
    {"_add_animation", (PyCFunction)add_animation, METH_VARARGS,
     "_add_animation(track, anim_index, loop, delay, mix)"},
    {"clear_track", (PyCFunction)clear_track, METH_O,
     "clear_track(track)\nEmpties a track (current, mixing-from and queued entries); its looping sounds stop."},
    {"_track", (PyCFunction)track_info, METH_O, "_track(track) -> None | (entry, from | None, [queued])"},
    {"_events", (PyCFunction)events, METH_NOARGS, "_events() -> [(event, animation, time, int, float, string, track)]"},
    {"_audio_commands", (PyCFunction)audio_commands, METH_NOARGS, "_audio_commands() -> [dict] (FORMAT.md shapes)"},
    {"_anim_counters", (PyCFunction)anim_counters, METH_NOARGS,
     "_anim_counters() -> (starts, completes, events dropped, audio commands dropped)"},
    {"set_track_speed", (PyCFunction)set_track_speed, METH_VARARGS,
     "set_track_speed(track, speed): the current entry's time scale (§6 TrackEntry.speed)."},
    {"set_track_alpha", (PyCFunction)set_track_alpha, METH_VARARGS,
     "set_track_alpha(track, alpha): the weight the current entry is applied with (§6 TrackEntry.alpha)."},
    {"_notices", (PyCFunction)anim_notices, METH_NOARGS,
     "_notices() -> [(\"start\" | \"complete\", track, animation index)] of the last advance."},
    {"_audio_play", (PyCFunction)audio_play, METH_VARARGS, "_audio_play(ref, volume=None, rate=None, loop=None) -> id | None"},
    {"_audio_stop", (PyCFunction)audio_stop, METH_VARARGS, "_audio_stop(id, fade=None)"},
    {"_audio_stop_sound", (PyCFunction)audio_stop_sound, METH_VARARGS, "_audio_stop_sound(ref, fade=None)"},
    {"_audio_stop_all", (PyCFunction)audio_stop_all, METH_NOARGS, "_audio_stop_all()"},
    {"_audio_playing", (PyCFunction)audio_playing, METH_NOARGS, "_audio_playing() -> [(id, loop, end time)]"},
    {"bake", (PyCFunction)bake, METH_VARARGS,
     "bake(dt, steps) -> numpy.ndarray (steps, n_bones, 6)\nAdvances `steps` times by dt (summed exactly, §12) "
     "and copies the world [a, b, c, d, x, y] after each, in one C loop."},
    {"_constraint_live", (PyCFunction)constraint_live, METH_O, "_constraint_live(index) -> ndarray of the live values"},
    {"_particle_live", (PyCFunction)particle_live, METH_O, "_particle_live(slot) -> (has_emitting, emitting, has_rate, rate)"},
    {"_deform_live", (PyCFunction)deform_live, METH_VARARGS, "_deform_live(slot, name_id) -> ndarray | None"},
    {"_seqframe_live", (PyCFunction)seqframe_live, METH_VARARGS, "_seqframe_live(slot, name_id) -> float | None"},
    {"_att_name_id", (PyCFunction)att_name_id, METH_O, "_att_name_id(name) -> int (-1 unknown)"},
    {"_inherit_live", (PyCFunction)inherit_live, METH_NOARGS, "_inherit_live() -> [int] live inherit modes"},
    {"_local_pose", (PyCFunction)local_pose, METH_NOARGS, "_local_pose() -> ndarray (n_bones, 7)"},
    {"_apply_animation", (PyCFunction)apply_animation, METH_VARARGS,
     "_apply_animation(anim, time, alpha, into=None, out_alpha=None)\n§5 applyAnimation on the current local pose."},
    {NULL, NULL, 0, NULL}};

PyGetSetDef obpy_animation_getset[] = {
    {"track_count", (getter)track_count, NULL, "number of tracks (fixed)", NULL},
    {"animation_time", (getter)animation_time, NULL, "§5 sk.animationTime (None when null)", NULL},
    {NULL, NULL, NULL, NULL, NULL}};

/* ---- eval_curve ------------------------------------------------------------------ */

static int parse_curve(PyObject *curve, ob_curve_kind *kind, double c[4])
{
    memset(c, 0, 4 * sizeof *c);
    if (PyUnicode_Check(curve)) {
        const char *s = PyUnicode_AsUTF8(curve);
        if (!s) return -1;
        if (strcmp(s, "linear") == 0) { *kind = OB_CURVE_LINEAR; return 0; }
        if (strcmp(s, "stepped") == 0) { *kind = OB_CURVE_STEPPED; return 0; }
        PyErr_Format(obpy_error, "eval_curve: unknown curve %R (\"linear\", \"stepped\" or [x1, y1, x2, y2])", curve);
        return -1;
    }
    PyObject *seq = PySequence_Fast(curve, "eval_curve: curve must be \"linear\", \"stepped\" or [x1, y1, x2, y2]");
    if (!seq) return -1;
    if (PySequence_Fast_GET_SIZE(seq) != 4) {
        Py_DECREF(seq);
        PyErr_SetString(obpy_error, "eval_curve: a bezier curve has 4 numbers [x1, y1, x2, y2]");
        return -1;
    }
    for (int i = 0; i < 4; i++) {
        c[i] = PyFloat_AsDouble(PySequence_Fast_GET_ITEM(seq, i));
        if (c[i] == -1 && PyErr_Occurred()) { Py_DECREF(seq); return -1; }
    }
    Py_DECREF(seq);
    *kind = OB_CURVE_BEZIER;
    return 0;
}

static PyObject *eval_curve(PyObject *mod, PyObject *args)
{
    (void)mod;
    PyObject *curve, *t;
    if (!PyArg_ParseTuple(args, "OO", &curve, &t)) return obpy_arg_error(__func__);
    ob_curve_kind kind;
    double c[4];
    if (parse_curve(curve, &kind, c) < 0) return NULL;
    if (PyFloat_Check(t) || PyLong_Check(t)) {
        double v = PyFloat_AsDouble(t);
        if (v == -1 && PyErr_Occurred()) return NULL;
        return PyFloat_FromDouble(ob_curve_eval(kind, c, v));
    }
    PyArrayObject *in = (PyArrayObject *)PyArray_FROM_OTF(t, NPY_DOUBLE, NPY_ARRAY_IN_ARRAY);
    if (!in) return NULL;
    PyArrayObject *out = (PyArrayObject *)PyArray_SimpleNew(PyArray_NDIM(in), PyArray_DIMS(in), NPY_DOUBLE);
    if (!out) { Py_DECREF(in); return NULL; }
    const double *src = PyArray_DATA(in);
    double *dst = PyArray_DATA(out);
    npy_intp n = PyArray_SIZE(in);
    for (npy_intp i = 0; i < n; i++) dst[i] = ob_curve_eval(kind, c, src[i]);
    Py_DECREF(in);
    return (PyObject *)out;
}

PyMethodDef obpy_animation_functions[] = {
    {"eval_curve", eval_curve, METH_VARARGS,
     "eval_curve(curve, t) -> float | numpy.ndarray\n§4.3 evalCurve: curve is \"linear\", \"stepped\" or bezier "
     "[x1, y1, x2, y2]; t a number or an array (looped in C).  Bezier: bisection, 24 iterations, first probe s = t, "
     "no clamp.  \"stepped\" returns 0 for t < 1 and 1 for t >= 1 (sampling holds the left key)."},
    {NULL, NULL, 0, NULL}};
