/* runtime.c: §0 the discrete-event scheduler, §6 the runtime contract, and
** the threads that run the blocks of §3 (friendly blocks arrive desugared).
**
** Events run in (time, class, queue order): class 0 is every block event,
** class 1 the §8.3 follow ticks, so at one instant the ticks run after the
** block events, in follower start order.  A thread is a stack of frames over
** the compiled bodies; a wait queues one wake, a poll (a loop iteration that
** took no time) puts the thread on the yield list that the next step queues
** at its T.  A stale event (a thread cut off, a follower stopped) stays in
** the heap until the heap fills up, when it is compacted (which cannot change
** the order, the keys being a total order).  No allocation happens here once
** an instance has started: its pools, the heap and the lists were reserved
** by jt_start_behaviour. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rt.h"

/* ---- errors ------------------------------------------------------------------------ */

jt_status jt_fail(jt_runtime *rt, jt_status st, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(rt->err, sizeof rt->err, fmt, ap);
    va_end(ap);
    return st;
}

const char *jt_runtime_error(const jt_runtime *rt) { return rt->err; }

/* ---- creation ------------------------------------------------------------------------ */

jt_runtime_def jt_runtime_def_default(void)
{
    jt_runtime_def d;
    memset(&d, 0, sizeof d);
    d.fps = 24;
    d.aspect = 16.0 / 9;
    d.max_duration = 3600;
    return d;
}

void jt_glide_start(jt_glide *g, double a, double b, double t0, double over, int ease)
{
    g->a = a;
    g->b = b;
    g->t0 = t0;
    g->over = over;
    g->ease = (uint8_t)ease;
    g->moving = over > 0;  /* over <= 0 or NaN: instant */
}

int32_t jt_rt_channel(jt_runtime *rt, const jt_part *p)
{
    char name[96];
    jt_channel_format(p, name, sizeof name);
    int added;
    int32_t i = jt_strtab_intern(&rt->chtab, name, &added);
    if (i < 0) return -1;
    if (added) {
        if (jt_grow((void **)&rt->chparts, &rt->capchparts, rt->chtab.n, sizeof *rt->chparts) < 0) return -1;
        rt->chparts[i] = *p;
    }
    return i;
}

static int32_t named_channel(jt_runtime *rt, const char *name)
{
    jt_part p;
    if (jt_channel_parse(name, &p) < 0) return -1;
    return jt_rt_channel(rt, &p);
}

jt_runtime *jt_runtime_create(const jt_runtime_def *def)
{
    jt_runtime *rt = calloc(1, sizeof *rt);
    if (!rt) return NULL;
    rt->def = def ? *def : jt_runtime_def_default();
    rt->rng = jt_to_uint32(rt->def.seed);
    rt->drng = rt->rng;
    rt->scope_next = 1;
    rt->inst_next = 1;
    static const char *const FIXED[JT_FIXED_CHANNELS] = {"dx", "dy", "sx", "sy", "rot", "mouth", "blink", "mood"};
    int ok = 1;
    for (int i = 0; i < JT_FIXED_CHANNELS; i++) ok &= named_channel(rt, FIXED[i]) == i;
    /* §3 gait's channels: two legs, four, six */
    static const char *const G2[8] = {"part:leg:-1", "part:leg:1", "part:shin:-1", "part:shin:1",
                                      "part:arm:-1", "part:arm:1", "dy", "rot"};
    for (int i = 0; i < 8; i++) ok &= (rt->gait2[i] = named_channel(rt, G2[i])) >= 0;
    for (int n = 4; n <= 6; n += 2) {
        int32_t *g = n == 4 ? rt->gait4 : rt->gait6;
        for (int i = 0; i < n; i++) {
            char a[32], b[32];
            snprintf(a, sizeof a, "part:leg#%d", i);
            snprintf(b, sizeof b, "part:shin#%d", i);
            ok &= (g[i] = named_channel(rt, a)) >= 0;
            ok &= (g[n + i] = named_channel(rt, b)) >= 0;
        }
        g[2 * n] = CH_DY;
        g[2 * n + 1] = CH_ROT;
    }
    int jt_scratch_reserve(jt_runtime *rt);
    if (!ok || jt_reserve(rt, 64, 16) < 0 || jt_scratch_reserve(rt) < 0) {
        jt_runtime_free(rt);
        return NULL;
    }
    return rt;
}

void jt_director_free(jt_runtime *rt);

void jt_runtime_free(jt_runtime *rt)
{
    if (!rt) return;
    jt_director_free(rt);
    while (rt->ninsts) jt_instance_stop(rt, rt->insts[rt->ninsts - 1]);
    jt_spares_free(rt);
    for (int32_t i = 0; i < rt->nchars; i++) {
        jt_character *c = rt->chars[i];
        free(c->id);
        free(c->inst);
        free(c->mot);
        free(c->stage);
        free(c);
    }
    free(rt->chars);
    jt_strtab_free(&rt->charids);
    jt_strtab_free(&rt->chtab);
    free(rt->chparts);
    for (int32_t i = 0; i < rt->nbinds; i++) free(rt->binds[i].map);
    free(rt->binds);
    jt_strtab_free(&rt->gnames);
    free(rt->gval);
    free(rt->gset);
    free(rt->ev);
    free(rt->yield);
    free(rt->acc);
    free(rt->mark);
    free(rt->plist);
    free(rt->pval);
    free(rt->insts);
    free(rt->hat_ins);
    free(rt->fmot);
    free(rt->fnext);
    free(rt->hat_scripts);
    free(rt);
}

double jt_runtime_time(const jt_runtime *rt) { return rt->t; }
int jt_runtime_polled(const jt_runtime *rt) { return rt->polled; }
int jt_runtime_inputs_read(const jt_runtime *rt) { return rt->inputs_read; }
int jt_runtime_pose_drew_random(const jt_runtime *rt) { return rt->pose_random; }

const char *jt_channel_name(const jt_runtime *rt, int32_t id)
{
    return id >= 0 && id < rt->chtab.n ? rt->chtab.keys[id] : NULL;
}

int jt_channel_parts(const jt_runtime *rt, int32_t id, int *is_lift, const char **role, int *side, int *index)
{
    if (id < JT_FIXED_CHANNELS || id >= rt->chtab.n) return -1;
    const jt_part *p = &rt->chparts[id];
    if (is_lift) *is_lift = p->kind == CH_LIFT;
    if (role) *role = p->role;
    if (side) *side = p->side;
    if (index) *index = p->index;
    return 0;
}

/* ---- page globals (rt.vars) --------------------------------------------------------------- */

static int32_t global_slot(jt_runtime *rt, const char *name)
{
    int added;
    int32_t g = jt_strtab_intern(&rt->gnames, name, &added);
    if (g < 0) return -1;
    if (added) {
        int32_t cap = rt->capg;
        if (jt_grow((void **)&rt->gval, &cap, rt->gnames.n, sizeof *rt->gval) < 0) return -1;
        cap = rt->capg;
        if (jt_grow((void **)&rt->gset, &cap, rt->gnames.n, sizeof *rt->gset) < 0) return -1;
        rt->capg = cap;
        rt->gval[g] = 0;
        rt->gset[g] = 0;
    }
    return g;
}

jt_status jt_global_set(jt_runtime *rt, const char *name, double value)
{
    int32_t g = global_slot(rt, name);
    if (g < 0) return jt_fail(rt, JT_ERR_MEMORY, "out of memory");
    rt->gval[g] = value;
    rt->gset[g] = 1;
    rt->epoch++;
    return JT_OK;
}

int jt_global_get(const jt_runtime *rt, const char *name, double *value)
{
    int32_t g = jt_strtab_find(&rt->gnames, name);
    if (g < 0 || !rt->gset[g]) return 0;
    if (value) *value = rt->gval[g];
    return 1;
}

jt_status jt_global_delete(jt_runtime *rt, const char *name)
{
    int32_t g = jt_strtab_find(&rt->gnames, name);
    if (g >= 0) rt->gset[g] = 0;
    rt->epoch++;
    return JT_OK;
}

int jt_global_count(const jt_runtime *rt)
{
    int n = 0;
    for (int32_t i = 0; i < rt->gnames.n; i++) n += rt->gset[i];
    return n;
}

const char *jt_global_name(const jt_runtime *rt, int i, double *value)
{
    for (int32_t g = 0; g < rt->gnames.n; g++)
        if (rt->gset[g] && i-- == 0) {
            if (value) *value = rt->gval[g];
            return rt->gnames.keys[g];
        }
    return NULL;
}

/* ---- characters ------------------------------------------------------------------------------- */

jt_character *jt_find_char(jt_runtime *rt, const char *id)
{
    int32_t i = id ? jt_strtab_find(&rt->charids, id) : -1;
    return i < 0 ? NULL : rt->chars[i];
}
#define find_char jt_find_char

jt_status jt_add_character(jt_runtime *rt, const char *id, int legs)
{
    if (legs < 0 || legs > 1000) return jt_fail(rt, JT_ERR_ARGUMENT, "legs is a whole number 0-1000, not %d", legs);
    jt_character *c = find_char(rt, id);
    if (c) {
        c->legs = legs;
        return JT_OK;
    }
    int added;
    int32_t i = jt_strtab_intern(&rt->charids, id, &added);
    if (i < 0 || jt_grow((void **)&rt->chars, &rt->capchars, rt->nchars + 1, sizeof *rt->chars) < 0)
        return jt_fail(rt, JT_ERR_MEMORY, "out of memory");
    c = calloc(1, sizeof *c);
    if (!c || !(c->id = strdup(id))) {
        free(c);
        return jt_fail(rt, JT_ERR_MEMORY, "out of memory");
    }
    c->index = rt->nchars;
    c->legs = legs;
    rt->chars[rt->nchars++] = c;
    return JT_OK;
}

int jt_character_index(const jt_runtime *rt, const char *id)
{
    return id ? jt_strtab_find(&rt->charids, id) : -1;
}

int jt_character_count(const jt_runtime *rt) { return rt->nchars; }
const char *jt_character_id(const jt_runtime *rt, int i) { return i >= 0 && i < rt->nchars ? rt->chars[i]->id : NULL; }

jt_status jt_set_inputs(jt_runtime *rt, const char *id, int has_loud, double loud, int has_talking, double talking)
{
    jt_character *c = find_char(rt, id);
    if (!c) return jt_fail(rt, JT_ERR_ARGUMENT, "unknown character \"%.100s\"", id ? id : "");
    if (has_loud) c->loud = loud;
    if (has_talking) c->talking = talking;
    rt->epoch++;
    return JT_OK;
}

/* ---- the event heap ---------------------------------------------------------------------------- */

static int ev_less(const jt_event *a, const jt_event *b)
{
    if (a->t != b->t) return a->t < b->t;
    if (a->cls != b->cls) return a->cls < b->cls;
    return a->seq < b->seq;
}

static void sift_down(jt_event *h, int32_t n, int32_t i)
{
    for (;;) {
        int32_t l = 2 * i + 1, r = l + 1, m = i;
        if (l < n && ev_less(&h[l], &h[m])) m = l;
        if (r < n && ev_less(&h[r], &h[m])) m = r;
        if (m == i) return;
        jt_event t = h[i];
        h[i] = h[m];
        h[m] = t;
        i = m;
    }
}

static void sift_up(jt_event *h, int32_t i)
{
    while (i > 0) {
        int32_t p = (i - 1) / 2;
        if (!ev_less(&h[i], &h[p])) return;
        jt_event t = h[i];
        h[i] = h[p];
        h[p] = t;
        i = p;
    }
}

static int ev_stale(const jt_event *e)
{
    switch (e->kind) {
    case EV_WAKE: {
        const jt_thread *th = e->ptr;
        return th->gen != e->gen || th->status != TH_WAIT;
    }
    case EV_DEADLINE: {
        const jt_thread *th = e->ptr;
        return th->status == TH_FREE || e->aux >= th->depth || th->frames[e->aux].kind != FR_FOR ||
               th->frames[e->aux].serial != e->gen;
    }
    case EV_TICK: {
        const jt_motion *m = e->ptr;
        return !m->live || m->serial != e->gen;
    }
    default: {
        int jt_director_timer_stale(const jt_event *e);
        return jt_director_timer_stale(e);
    }
    }
}

/* Drops stale events (and, with in != NULL, every event of in); keeps the order. */
static void compact(jt_runtime *rt, const jt_instance *in)
{
    int32_t n = 0;
    for (int32_t i = 0; i < rt->nev; i++)
        if (!ev_stale(&rt->ev[i]) && (!in || rt->ev[i].inst != in)) rt->ev[n++] = rt->ev[i];
    rt->nev = n;
    for (int32_t i = n / 2 - 1; i >= 0; i--) sift_down(rt->ev, n, i);
}

int jt_reserve(jt_runtime *rt, int32_t more_events, int32_t more_threads)
{
    rt->reserve += more_events;
    int32_t need = 2 * rt->reserve + 64;
    if (need > rt->capev) {
        jt_event *e = realloc(rt->ev, (size_t)need * sizeof *e);
        if (!e) return -1;
        rt->ev = e;
        rt->capev = need;
    }
    rt->nthreads_total += more_threads;  /* the yield list holds at most every live thread */
    if (jt_grow((void **)&rt->yield, &rt->capyield, rt->nthreads_total + 1, sizeof *rt->yield) < 0) return -1;
    return 0;
}

int jt_push_event(jt_runtime *rt, double t, int cls, int kind, void *ptr, jt_instance *in, uint32_t gen,
                  int32_t aux, uint64_t seq)
{
    if (rt->nev == rt->capev) {
        compact(rt, NULL);
        if (rt->nev * 2 > rt->capev) {  /* genuinely full: grow (more live entries than reserved) */
            int32_t c = rt->capev * 2;
            jt_event *e = realloc(rt->ev, (size_t)c * sizeof *e);
            if (!e) return -1;
            rt->ev = e;
            rt->capev = c;
        }
    }
    jt_event *e = &rt->ev[rt->nev];
    e->t = t;
    e->cls = (uint8_t)cls;
    e->kind = (uint8_t)kind;
    e->ptr = ptr;
    e->inst = in;
    e->gen = gen;
    e->aux = aux;
    e->seq = cls ? seq : ++rt->seq;
    sift_up(rt->ev, rt->nev++);
    return 0;
}

static jt_event pop_event(jt_runtime *rt)
{
    jt_event top = rt->ev[0];
    rt->ev[0] = rt->ev[--rt->nev];
    sift_down(rt->ev, rt->nev, 0);
    return top;
}

/* ---- evaluation ---------------------------------------------------------------------------------- */

static int env_name(jt_env *e, int32_t idx, double *out)
{
    jt_instance *in = e->ud;
    int32_t p = in->bind_param[idx];
    if (p >= 0 && in->pset[p]) { *out = in->pval[p]; return 0; }
    int32_t v = in->bind_var[idx];
    if (v >= 0 && in->vset[v]) { *out = in->vval[v]; return 0; }
    int32_t g = in->bind_global[idx];
    if (g >= 0 && in->rt->gset[g]) { *out = in->rt->gval[g]; return 0; }
    return -1;
}

void jt_make_env(jt_runtime *rt, jt_instance *in, const jt_motion *m, double now, int from_pose, jt_env *env)
{
    env->now = now;
    env->tau = now - in->t_start;
    env->local = m ? now - m->t0 : env->tau;
    env->dur = in->dur;
    env->loud = in->chr ? in->chr->loud : 0;
    env->talking = in->chr ? in->chr->talking : 0;
    env->rng = in->chr ? &rt->rng : &rt->drng;
    env->drew_random = from_pose ? &rt->pose_random : NULL;
    env->read_inputs = from_pose || !in->chr ? NULL : &rt->inputs_read;
    env->name = env_name;
    env->ud = in;
    env->p = in->prog;
    env->err = rt->err;
    env->errcap = sizeof rt->err;
}

int jt_inst_eval(jt_runtime *rt, jt_instance *in, const jt_motion *m, const jt_block *b, const jt_value *v,
                 double now, int from_pose, double *out)
{
    if (v->expr < 0) {
        *out = v->k;
        return 0;
    }
    jt_env env;
    jt_make_env(rt, in, m, now, from_pose, &env);
    if (jt_eval(in->prog, v->expr, &env, out) == 0) return 0;
    if (b && b->path >= 0) {  /* name the place: "scripts.0.body.2: unknown name ..." */
        char msg[sizeof rt->err];
        snprintf(msg, sizeof msg, "%s", rt->err);
        snprintf(rt->err, sizeof rt->err, "%.200s: %.380s", in->prog->paths[b->path], msg);
    }
    return -1;
}

#define EVAL(b, v, out) jt_inst_eval(rt, th->inst, NULL, (b), (v), now, 0, (out))

/* ---- base channels and scopes --------------------------------------------------------------------- */

double jt_base_value(const jt_instance *in, int32_t pch, double T)
{
    const jt_base *b = &in->base[pch];
    if (!b->state) return jt_rest_of(in->prog->channels[pch].part.kind);
    return jt_glide_at(&b->g, T);
}

void jt_stop_motion(jt_motion *m)
{
    if (!m->live) return;
    m->live = 0;
    m->serial++;
    jt_runtime *rt = m->inst->rt;
    if (m->fidx >= 0 && m->fidx < rt->nfol && rt->fmot[m->fidx] == m) {  /* out of the follower list */
        int32_t last = --rt->nfol;
        rt->fmot[m->fidx] = rt->fmot[last];
        rt->fnext[m->fidx] = rt->fnext[last];
        rt->fmot[m->fidx]->fidx = m->fidx;
    }
    m->fidx = -1;
    jt_character *c = m->inst->chr;
    if (!c) return;
    jt_writers_changed(c);
    for (int32_t i = 0; i < c->nmot; i++)
        if (c->mot[i] == m) {
            memmove(c->mot + i, c->mot + i + 1, (size_t)(c->nmot - i - 1) * sizeof *c->mot);
            c->nmot--;
            break;
        }
}

void jt_director_close_scope(jt_instance *in, uint64_t scope, double now);

void jt_close_scope(jt_instance *in, uint64_t scope)
{
    for (int32_t i = 0; i < in->prog->nmotions; i++)
        if (in->mot[i].live && in->mot[i].scope == scope) jt_stop_motion(&in->mot[i]);
    if (in->director) jt_director_close_scope(in, scope, in->rt->now);
}

/* ---- threads ----------------------------------------------------------------------------------------- */

void jt_director_freeze(jt_instance *in, int32_t slot, uint32_t serial, double now);

/* Freezes what the thread was gliding (a ramp, a reach: "cut off, it freezes")
** and makes its pending wake stale. */
static void interrupt(jt_runtime *rt, jt_thread *th, double now)
{
    jt_instance *in = th->inst;
    for (int32_t i = 0; i < th->nowned; i++) {
        const jt_owned *o = &th->owned[i];
        if (o->limb == 0) {
            jt_base *b = &in->base[o->slot];
            if (b->serial == o->serial && b->g.moving) {
                b->g.b = jt_glide_at(&b->g, now);
                b->g.moving = 0;
            }
        } else if (o->limb == 1) {
            jt_limb *l = &in->limb[o->slot];
            if (l->serial == o->serial) {
                jt_glide *g[3] = {&l->w, &l->x, &l->y};
                for (int k = 0; k < 3; k++)
                    if (g[k]->moving) {
                        g[k]->b = jt_glide_at(g[k], now);
                        g[k]->moving = 0;
                    }
            }
        } else {
            jt_director_freeze(in, o->slot, o->serial, now);
        }
    }
    th->nowned = 0;
    if (th->status == TH_POLL && th->yield_at >= 0 && th->yield_at < rt->nyield && rt->yield[th->yield_at] == th)
        rt->yield[th->yield_at] = NULL;
    th->gen++;
}

static void kill_children(jt_runtime *rt, jt_thread *th, double now);

static void pop_frame(jt_runtime *rt, jt_thread *th, double now)
{
    jt_frame *f = &th->frames[th->depth - 1];
    if (f->kind == FR_TOGETHER) kill_children(rt, th, now);
    th->depth--;
    if (f->opened) jt_close_scope(th->inst, f->scope);
}

void jt_kill_thread(jt_runtime *rt, jt_thread *th, double now)
{
    if (th->status == TH_FREE) return;
    interrupt(rt, th, now);
    while (th->depth > 0) pop_frame(rt, th, now);
    th->status = TH_FREE;
    th->gen++;
    if (th->parent && th->parent->children > 0) th->parent->children--;
    th->parent = NULL;
}

static void kill_children(jt_runtime *rt, jt_thread *th, double now)
{
    jt_instance *in = th->inst;
    int32_t off = in->script_off[th->script], end = in->script_off[th->script + 1];
    for (int32_t i = off; i < end; i++)
        if (in->thr[i].status != TH_FREE && in->thr[i].parent == th) jt_kill_thread(rt, &in->thr[i], now);
    th->children = 0;
}

static jt_thread *spawn(jt_instance *in, jt_thread *parent)
{
    int32_t off = in->script_off[parent->script], end = in->script_off[parent->script + 1];
    for (int32_t i = off + 1; i < end; i++)
        if (in->thr[i].status == TH_FREE) {
            jt_thread *c = &in->thr[i];
            c->parent = parent;
            c->status = TH_RUN;
            c->depth = 0;
            c->children = 0;
            c->nowned = 0;
            c->gen++;
            return c;
        }
    return NULL;
}

static jt_frame *push_frame(jt_thread *th, int kind, const jt_body *body, const jt_block *blk, int new_scope)
{
    if (th->depth >= th->cap) return NULL;
    jt_frame *below = th->depth ? &th->frames[th->depth - 1] : NULL;
    jt_frame *f = &th->frames[th->depth++];
    memset(f, 0, sizeof *f);
    f->kind = (uint8_t)kind;
    f->body = body;
    f->blk = blk;
    f->scope = below ? below->scope : th->base_scope;
    if (new_scope) {
        f->scope = th->inst->rt->scope_next++;
        f->opened = 1;
    }
    return f;
}

static uint64_t cur_scope(const jt_thread *th)
{
    return th->depth ? th->frames[th->depth - 1].scope : th->base_scope;
}

static int wake_at(jt_runtime *rt, jt_thread *th, double t)
{
    th->status = TH_WAIT;
    if (jt_push_event(rt, t, 0, EV_WAKE, th, th->inst, th->gen, 0, 0) < 0) {
        jt_fail(rt, JT_ERR_MEMORY, "out of memory");
        return R_ERR;
    }
    return R_YIELD;
}

static void yield_to_step(jt_runtime *rt, jt_thread *th)
{
    th->status = TH_POLL;
    th->yield_at = rt->nyield;
    rt->yield[rt->nyield++] = th;  /* capacity: every thread of every live instance */
    rt->polled = 1;
}

/* for director.c: wait until t owning what the block glides; the thread's current scope */
int jt_thread_wait(jt_runtime *rt, jt_thread *th, double t) { return wake_at(rt, th, t); }
void jt_thread_own(jt_thread *th, int kind, int32_t slot, uint32_t serial)
{
    jt_owned *o = &th->owned[th->nowned++];
    o->limb = (uint8_t)kind;
    o->slot = slot;
    o->serial = serial;
}
uint64_t jt_thread_scope(const jt_thread *th) { return cur_scope(th); }

/* ---- blocks ----------------------------------------------------------------------------------------------- */

static int loop_next(jt_runtime *rt, jt_thread *th, double now)
{
    jt_frame *f = &th->frames[th->depth - 1];
    const jt_block *b = f->blk;
    int go = 1;
    if (b->op == OP_REPEAT) {
        go = f->i < f->count;
    } else if (b->op == OP_WHILE || b->op == OP_UNTIL) {
        double c;
        if (EVAL(b, &b->v[0], &c) < 0) return R_ERR;
        int truth = c != 0 && !isnan(c);
        go = b->op == OP_WHILE ? truth : !truth;
    }
    if (go) {
        f->pc = 0;
        f->iter_start = now;
    } else {
        pop_frame(rt, th, now);
    }
    return R_CONTINUE;
}

int jt_director_exec(jt_runtime *rt, jt_thread *th, const jt_block *b, double now);

static int own(jt_thread *th, int limb, int32_t slot, uint32_t serial)
{
    jt_owned *o = &th->owned[th->nowned++];
    o->limb = (uint8_t)limb;
    o->slot = slot;
    o->serial = serial;
    return 0;
}

static const double *limb_target_now(const jt_limb *l, double now, double out[2])
{
    out[0] = jt_glide_at(&l->x, now);
    out[1] = jt_glide_at(&l->y, now);
    return out;
}

/* §8.4 reach / release on one limb of this instance */
static int reach_limb(jt_runtime *rt, jt_thread *th, const jt_block *b, int li, double now, double over)
{
    jt_instance *in = th->inst;
    jt_instance *who = NULL;
    double w0 = 0, cur[2] = {0, 0};
    const jt_limb *c = NULL;
    if (jt_limb_winner(in->chr, li, &who) == 0) {  /* the limb as the pose has it when the block runs */
        c = &who->limb[li];
        w0 = jt_js_min(jt_js_max(jt_glide_at(&c->w, now), 0), 1);
        limb_target_now(c, now, cur);
    }
    jt_limb *l = &in->limb[li];
    jt_limb old = c ? *c : (jt_limb){0};
    int had = c && old.has_target;
    l->set = 1;
    l->seq = ++rt->wseq;
    l->serial = ++in->serial;
    if (b->op == OP_RELEASE) {
        jt_glide_start(&l->w, w0, 0, now, over, b->ease);
        l->has_target = (uint8_t)had;
        l->point = old.point;
        l->spot = old.spot;
        jt_glide_start(&l->x, cur[0], cur[0], now, 0, b->ease);
        jt_glide_start(&l->y, cur[1], cur[1], now, 0, b->ease);
    } else {
        double x = 0, y = 0;
        if ((b->flags & (BF_POINT | BF_OFFSET)) && (EVAL(b, &b->v[RV_X], &x) < 0 || EVAL(b, &b->v[RV_Y], &y) < 0))
            return R_ERR;
        jt_glide_start(&l->w, w0, 1, now, over, b->ease);
        int glide;
        if (b->flags & BF_POINT) glide = had && old.point && w0 > 0;
        else glide = had && !old.point && old.spot == b->aux && w0 > 0;
        l->has_target = 1;
        l->point = (uint8_t)((b->flags & BF_POINT) != 0);
        l->spot = (uint8_t)(l->point ? 0 : b->aux);
        jt_glide_start(&l->x, glide ? cur[0] : x, x, now, glide ? over : 0, b->ease);
        jt_glide_start(&l->y, glide ? cur[1] : y, y, now, glide ? over : 0, b->ease);
    }
    own(th, 1, li, l->serial);
    return R_CONTINUE;
}

static int exec(jt_runtime *rt, jt_thread *th, const jt_block *b, double now)
{
    jt_instance *in = th->inst;
    switch (b->op) {
    case OP_WAVE: case OP_HOP: case OP_GAIT: case OP_DRIVE: case OP_CHAIN: case OP_FOLLOW:
        return jt_motion_start(rt, in, b, cur_scope(th), now) < 0 ? R_ERR : R_CONTINUE;
    case OP_SET: {
        double v;
        if (EVAL(b, &b->v[0], &v) < 0) return R_ERR;
        jt_base *s = &in->base[b->ch[0]];
        if (!s->state && in->chr) jt_writers_changed(in->chr);  /* a new writer of this channel */
        s->state = 1;
        s->serial = ++in->serial;
        jt_glide_start(&s->g, v, v, now, 0, 0);
        return R_CONTINUE;
    }
    case OP_RAMP: {
        double over, tv[64];
        int n = b->nch;
        if (EVAL(b, &b->v[n], &over) < 0) return R_ERR;
        for (int i = 0; i < n; i++) {  /* every target first, then every start (a ramp on dx and dy at once) */
            if (EVAL(b, &b->v[i], &tv[i & 63]) < 0) return R_ERR;
        }
        th->nowned = 0;
        for (int i = 0; i < n; i++) {
            int32_t pch = b->ch[i];
            double a = jt_base_value(in, pch, now);  /* this instance's own base value */
            double target = b->flags & BF_BY ? a + tv[i & 63] : tv[i & 63];
            jt_base *s = &in->base[pch];
            if (!s->state && in->chr) jt_writers_changed(in->chr);
            s->state = 1;
            s->serial = ++in->serial;
            jt_glide_start(&s->g, a, target, now, over, b->ease);
            if (over > 0) own(th, 0, pch, s->serial);
        }
        if (!(over > 0)) return R_CONTINUE;
        return wake_at(rt, th, now + over);
    }
    case OP_MOODSET:
        in->mood = b->str;
        in->mood_seq = ++rt->wseq;
        in->mood_t = now;
        return R_CONTINUE;
    case OP_VIEW:
        in->view = b->aux;
        in->view_seq = ++rt->wseq;
        return R_CONTINUE;
    case OP_REACH:
    case OP_RELEASE: {
        double over;
        if (EVAL(b, &b->v[RV_OVER], &over) < 0) return R_ERR;
        th->nowned = 0;
        for (int li = 0; li < JT_LIMBS; li++)
            if ((b->mask >> li) & 1)
                if (reach_limb(rt, th, b, li, now, over) == R_ERR) return R_ERR;
        if (!(over > 0)) {
            th->nowned = 0;
            return R_CONTINUE;
        }
        return wake_at(rt, th, now + over);
    }
    case OP_WAIT: {
        double d;
        if (EVAL(b, &b->v[0], &d) < 0) return R_ERR;
        double end = b->flags & BF_UNTIL ? in->t_start + d : now + d;
        if (!(end > now)) return R_CONTINUE;  /* 0, negative, past or NaN: no wait */
        if (end == INFINITY) {
            th->status = TH_HOLD;
            return R_YIELD;
        }
        return wake_at(rt, th, end);
    }
    case OP_FOR: {
        double d;
        if (EVAL(b, &b->v[0], &d) < 0) return R_ERR;
        double end = b->flags & BF_UNTIL ? in->t_start + d : now + d;
        if (isnan(end) || end < now) end = now;  /* for of NaN counts as 0 s */
        jt_frame *f = push_frame(th, FR_FOR, &b->body, b, 1);
        if (!f) return jt_fail(rt, JT_ERR_RUN, "internal: frame stack"), R_ERR;
        f->serial = ++rt->serial;
        f->deadline = end;
        if (end != INFINITY &&
            jt_push_event(rt, end, 0, EV_DEADLINE, th, in, f->serial, th->depth - 1, 0) < 0)
            return jt_fail(rt, JT_ERR_MEMORY, "out of memory"), R_ERR;
        return R_CONTINUE;
    }
    case OP_WHILE:
    case OP_UNTIL:
    case OP_REPEAT:
    case OP_FOREVER: {
        double times = 0;
        if (b->op == OP_REPEAT && EVAL(b, &b->v[0], &times) < 0) return R_ERR;
        jt_frame *f = push_frame(th, FR_LOOP, &b->body, b, b->op == OP_WHILE || b->op == OP_UNTIL);
        if (!f) return jt_fail(rt, JT_ERR_RUN, "internal: frame stack"), R_ERR;
        f->count = times;
        return loop_next(rt, th, now);
    }
    case OP_IF: {
        double c;
        if (EVAL(b, &b->v[0], &c) < 0) return R_ERR;
        const jt_body *body = c != 0 && !isnan(c) ? &b->body : &b->alt;
        if (!body->n) return R_CONTINUE;
        if (!push_frame(th, FR_SEQ, body, b, 0)) return jt_fail(rt, JT_ERR_RUN, "internal: frame stack"), R_ERR;
        return R_CONTINUE;
    }
    case OP_TOGETHER: {
        if (!b->nbranches) return R_CONTINUE;
        uint64_t scope = cur_scope(th);
        if (!push_frame(th, FR_TOGETHER, NULL, b, 0)) return jt_fail(rt, JT_ERR_RUN, "internal: frame stack"), R_ERR;
        th->children = 0;
        for (int i = 0; i < b->nbranches; i++) {  /* every branch exists before the first runs */
            jt_thread *c = spawn(in, th);
            if (!c) return jt_fail(rt, JT_ERR_RUN, "internal: thread pool"), R_ERR;
            c->base_scope = scope;
            push_frame(c, FR_SEQ, &b->branches[i], b, 0);
            th->children++;
        }
        th->status = TH_JOIN;
        th->spawning = 1;
        uint32_t gen = th->gen;
        int resume(jt_runtime *rt, jt_thread *th, double now);
        /* spawn takes the lowest free slots, so the pool order is the branch order */
        int32_t off = in->script_off[th->script], end = in->script_off[th->script + 1];
        for (int32_t j = off + 1; j < end; j++) {
            jt_thread *c = &in->thr[j];
            if (c->parent != th || c->status != TH_RUN) continue;
            if (resume(rt, c, now) == R_ERR) return R_ERR;
            if (th->gen != gen || th->status == TH_FREE) return R_KILLED;
        }
        th->spawning = 0;
        if (th->children == 0) {
            th->depth--;
            th->status = TH_RUN;
            return R_CONTINUE;
        }
        return R_YIELD;
    }
    case OP_STOP:
        return R_DONE;
    case OP_STOPALL: {
        void jt_director_stop_all(jt_runtime *rt, jt_instance *in, jt_thread *th, double now);
        if (in->director) {
            jt_director_stop_all(rt, in, th, now);
            return R_KILLED;
        }
        for (int s = 0; s < in->prog->nscripts; s++) jt_kill_thread(rt, &in->thr[in->script_off[s]], now);
        return R_KILLED;
    }
    case OP_SETVAR:
    case OP_CHANGEVAR: {
        double v;
        if (EVAL(b, &b->v[0], &v) < 0) return R_ERR;
        int32_t slot = b->slot;
        int32_t g = -1;
        if (!in->vset[slot]) {
            g = jt_strtab_find(&rt->gnames, b->str);
            if (g >= 0 && !rt->gset[g]) g = -1;
        }
        double cur = in->vset[slot] ? in->vval[slot] : g >= 0 ? rt->gval[g] : 0;
        double nv = b->op == OP_SETVAR ? v : cur + v;
        if (g >= 0) rt->gval[g] = nv;  /* a page global it names */
        else {
            in->vval[slot] = nv;
            in->vset[slot] = 1;
        }
        return R_CONTINUE;
    }
    default:
        return jt_director_exec(rt, th, b, now);
    }
}

/* Runs th until it waits, ends or is killed. */
static int thread_run(jt_runtime *rt, jt_thread *th, double now)
{
    uint32_t gen = th->gen;
    th->status = TH_RUN;
    for (;;) {
        if (th->depth == 0) return R_DONE;
        jt_frame *f = &th->frames[th->depth - 1];
        if (f->kind == FR_TOGETHER) {  /* every branch has ended */
            th->depth--;
            continue;
        }
        if (f->polled) {  /* back from a step */
            f->polled = 0;
            if (loop_next(rt, th, now) == R_ERR) return R_ERR;
            continue;
        }
        if (f->pc < f->body->n) {
            const jt_block *b = &f->body->items[f->pc++];
            int r = exec(rt, th, b, now);
            if (th->gen != gen || th->status == TH_FREE) return r == R_ERR ? R_ERR : R_KILLED;
            if (r == R_CONTINUE) {
                th->status = TH_RUN;
                continue;
            }
            return r;
        }
        switch (f->kind) {
        case FR_SEQ:
            th->depth--;
            continue;
        case FR_FOR:  /* a for whose body ended early waits until its time is up */
            th->status = TH_HOLD;
            return R_YIELD;
        default:      /* FR_LOOP: an iteration that took no time waits for the next step */
            if (f->blk->op == OP_REPEAT) f->i += 1;
            if (now == f->iter_start) {
                f->polled = 1;
                yield_to_step(rt, th);
                return R_YIELD;
            }
            if (loop_next(rt, th, now) == R_ERR) return R_ERR;
            continue;
        }
    }
}

/* Runs th; a branch that ends lets its together go on when it was the last. */
int resume(jt_runtime *rt, jt_thread *th, double now)
{
    for (;;) {
        int r = thread_run(rt, th, now);
        if (r == R_ERR) {
            jt_kill_thread(rt, th, now);
            return R_ERR;
        }
        if (r != R_DONE) return r;
        jt_thread *p = th->parent;
        jt_kill_thread(rt, th, now);  /* closes what a stop left open; a branch counts itself out */
        if (!p) return R_DONE;  /* a scene's end is checked after the event (director.c) */
        if (p->status != TH_JOIN || p->children > 0 || p->spawning) return R_DONE;
        p->depth--;  /* the together's frame */
        p->status = TH_RUN;
        th = p;
    }
}

static int run_event(jt_runtime *rt, const jt_event *e)
{
    double now = e->t;
    rt->now = now;
    switch (e->kind) {
    case EV_WAKE: {
        jt_thread *th = e->ptr;
        if (th->inst->director) {  /* a line ends, a glide lands (§7.2, §7.4) */
            void jt_director_landed(jt_instance *in, const jt_owned *o, double now);
            for (int32_t i = 0; i < th->nowned; i++)
                if (th->owned[i].limb == 2) jt_director_landed(th->inst, &th->owned[i], now);
        }
        th->nowned = 0;  /* a glide that ran its time has landed */
        return resume(rt, th, now) == R_ERR ? -1 : 0;
    }
    case EV_DEADLINE: {  /* a for's time is up: cut off what runs inside it, go on after it */
        jt_thread *th = e->ptr;
        interrupt(rt, th, now);
        while (th->depth > e->aux + 1) pop_frame(rt, th, now);
        pop_frame(rt, th, now);
        th->status = TH_RUN;
        return resume(rt, th, now) == R_ERR ? -1 : 0;
    }
    case EV_TICK:
        return jt_follow_tick(rt, e->ptr, now);
    default: {
        int jt_director_timer(jt_runtime *rt, const jt_event *e);
        return jt_director_timer(rt, e);
    }
    }
}

int jt_run_due(jt_runtime *rt, double T)
{
    for (;;) {
        while (rt->nev > 0 && ev_stale(&rt->ev[0])) pop_event(rt);
        double te = rt->nev ? rt->ev[0].t : INFINITY;
        if (rt->nfol) {  /* the follow grid up to the next block event (at an equal time, after it) */
            double lim = te <= T ? te : T;
            if (lim > rt->def.max_duration && T == INFINITY) {
                jt_fail(rt, JT_ERR_RUN, "step_to(Infinity): a follower still ticks at max_duration (%g s)",
                        rt->def.max_duration);
                return -1;
            }
            if (jt_follow_run(rt, lim, te > T) < 0) return -1;
        }
        if (!rt->nev || te > T) return 0;
        if (T == INFINITY && te > rt->def.max_duration) {
            jt_fail(rt, JT_ERR_RUN, "step_to(Infinity): still running at max_duration (%g s)", rt->def.max_duration);
            return -1;
        }
        jt_event e = pop_event(rt);
        if (e.t > rt->t) rt->t = e.t;
        if (run_event(rt, &e) < 0) return -1;
        if (e.inst && e.inst->director) {  /* the scene may have ended (§7.6) */
            int jt_director_check(jt_runtime *rt, jt_instance *in, double now);
            if (jt_director_check(rt, e.inst, e.t) < 0) return -1;
        }
    }
}

jt_status jt_step_to(jt_runtime *rt, double T)
{
    if (isnan(T) || T < rt->t) return jt_fail(rt, JT_ERR_ARGUMENT, "time only moves forward: step_to(%g) at t = %g", T, rt->t);
    double t0 = rt->t;
    for (int32_t i = 0; i < rt->nyield; i++) {  /* the polls: queued at T in yield order */
        jt_thread *th = rt->yield[i];
        if (!th || th->status != TH_POLL) continue;
        th->status = TH_WAIT;
        if (jt_push_event(rt, T, 0, EV_WAKE, th, th->inst, th->gen, 0, 0) < 0) return jt_fail(rt, JT_ERR_MEMORY, "out of memory");
    }
    rt->nyield = 0;
    int r = jt_run_due(rt, T);
    if (r < 0) return JT_ERR_RUN;
    rt->t = T > t0 ? T : t0;
    return JT_OK;
}

jt_status jt_step(jt_runtime *rt, double dt)
{
    if (isnan(dt) || dt < 0) return jt_fail(rt, JT_ERR_ARGUMENT, "step(%g): dt is a number of seconds >= 0", dt);
    return jt_step_to(rt, rt->t + dt);
}

/* ---- instances ---------------------------------------------------------------------------------------------- */

static const int32_t *bind_program(jt_runtime *rt, const jt_program *p)
{
    for (int32_t i = 0; i < rt->nbinds; i++)
        if (rt->binds[i].p == p) {
            /* a program freed and another allocated at its address: check the names still agree */
            int same = 1;
            for (int c = 0; c < p->nchannels && same; c++)
                same = rt->binds[i].map[c] >= 0 && !strcmp(rt->chtab.keys[rt->binds[i].map[c]], p->channels[c].name);
            if (same) return rt->binds[i].map;
            for (int c = 0; c < p->nchannels; c++) rt->binds[i].map[c] = -1;
            int32_t *m = realloc(rt->binds[i].map, (size_t)(p->nchannels ? p->nchannels : 1) * sizeof *m);
            if (!m) return NULL;
            rt->binds[i].map = m;
            for (int c = 0; c < p->nchannels; c++)
                if ((m[c] = jt_rt_channel(rt, &p->channels[c].part)) < 0) return NULL;
            return m;
        }
    if (jt_grow((void **)&rt->binds, &rt->capbinds, rt->nbinds + 1, sizeof *rt->binds) < 0) return NULL;
    int32_t *m = malloc((size_t)(p->nchannels ? p->nchannels : 1) * sizeof *m);
    if (!m) return NULL;
    for (int c = 0; c < p->nchannels; c++)
        if ((m[c] = jt_rt_channel(rt, &p->channels[c].part)) < 0) { free(m); return NULL; }
    rt->binds[rt->nbinds].p = p;
    rt->binds[rt->nbinds].map = m;
    rt->nbinds++;
    return m;
}

static int motion_cap(const jt_block *b)
{
    switch (b->op) {
    case OP_HOP: return 3;
    case OP_GAIT: return 14;
    case OP_WAVE: case OP_DRIVE: return 1;
    default: return b->nch;
    }
}

static void size_motions(const jt_body *body, int32_t *caps)
{
    for (int32_t i = 0; i < body->n; i++) {
        const jt_block *b = &body->items[i];
        if (OP_IS_MOTION(b->op) && b->slot >= 0) caps[b->slot] = motion_cap(b);
        size_motions(&b->body, caps);
        size_motions(&b->alt, caps);
        for (int k = 0; k < b->nbranches; k++) size_motions(&b->branches[k], caps);
    }
}

static void instance_free(jt_instance *in)
{
    if (!in) return;
    free(in->rev);
    free(in->pname);
    free(in->pval);
    free(in->pset);
    free(in->bind_param);
    free(in->bind_var);
    free(in->bind_global);
    free(in->vval);
    free(in->vset);
    free(in->base);
    free(in->mot);
    free(in->motch);
    free(in->motcap);
    free(in->thr);
    free(in->script_off);
    free(in->frames);
    free(in->owned);
    free(in);
}

/* A stopped behaviour instance is kept (a few) for the next one whose arrays fit: a scene's does loop
** then starts behaviours without allocating (§7.7, the no-allocation-per-step rule). */
static void instance_release(jt_runtime *rt, jt_instance *in)
{
    if (in && in->chr && rt->nspare < (int32_t)(sizeof rt->spare / sizeof *rt->spare)) {
        rt->spare[rt->nspare++] = in;
        return;
    }
    instance_free(in);
}

void jt_spares_free(jt_runtime *rt)
{
    while (rt->nspare) instance_free(rt->spare[--rt->nspare]);
}

int jt_thread_held(const jt_thread *th)
{
    if (th->status == TH_FREE) return 1;
    if (th->status != TH_HOLD && th->status != TH_JOIN) return 0;
    for (int32_t i = 0; i < th->depth; i++)  /* a for with a time queued will wake it */
        if (th->frames[i].kind == FR_FOR && th->frames[i].deadline != INFINITY) return 0;
    if (th->status == TH_JOIN) {
        const jt_instance *in = th->inst;
        int32_t off = in->script_off[th->script], end = in->script_off[th->script + 1];
        for (int32_t i = off; i < end; i++)
            if (in->thr[i].status != TH_FREE && in->thr[i].parent == th && !jt_thread_held(&in->thr[i])) return 0;
    }
    return 1;
}

static int32_t inst_reserve(const jt_instance *in)
{
    int32_t n = in->prog->nmotions + 4;
    for (int s = 0; s < in->prog->nscripts; s++)
        n += in->prog->scripts[s].threads * (1 + in->prog->scripts[s].depth);
    return n;
}

/* A new instance (not yet started): pools, bindings, params evaluated. */
jt_instance *jt_instance_new(jt_runtime *rt, jt_character *chr, const jt_program *p, double dur,
                             const jt_param *params, int nparams)
{
    /* the sizes its arrays need */
    int np = p->nparams;
    for (int i = 0; i < nparams; i++) {
        int found = 0;
        for (int k = 0; k < p->nparams && !found; k++) found = !strcmp(p->params[k].name, params[i].name);
        np += !found;
    }
    int nn = p->nnames;
    int32_t nthr = 0, nframes = 0;
    for (int s = 0; s < p->nscripts; s++) {
        nthr += p->scripts[s].threads;
        nframes += p->scripts[s].threads * p->scripts[s].depth;
    }
    jt_instance *in = NULL;
    for (int32_t i = rt->nspare - 1; i >= 0 && !in; i--) {  /* a stopped one whose arrays fit */
        jt_instance *x = rt->spare[i];
        if (x->cap.np >= np && x->cap.nn >= nn && x->cap.nvars >= p->nvars && x->cap.nch >= p->nchannels &&
            x->cap.nmot >= p->nmotions && x->cap.nthr >= nthr && x->cap.nframes >= nframes &&
            x->cap.nowned >= nthr * p->maxglides && x->cap.nscripts >= p->nscripts && x->nrev >= rt->chtab.n) {
            in = x;
            rt->spare[i] = rt->spare[--rt->nspare];
        }
    }
    if (in) {  /* cleared as calloc would have left it; its arrays kept */
        jt_instance keep = *in;
        memset(in, 0, sizeof *in);
        in->cap = keep.cap;
        in->nrev = keep.nrev;
        in->rev = keep.rev;
        in->pname = keep.pname;
        in->pval = keep.pval;
        in->pset = keep.pset;
        in->bind_param = keep.bind_param;
        in->bind_var = keep.bind_var;
        in->bind_global = keep.bind_global;
        in->vval = keep.vval;
        in->vset = keep.vset;
        in->base = keep.base;
        in->mot = keep.mot;
        in->motch = keep.motch;
        in->motcap = keep.motcap;
        in->thr = keep.thr;
        in->script_off = keep.script_off;
        in->frames = keep.frames;
        in->owned = keep.owned;
        memset(in->pname, 0, ((size_t)np + 1) * sizeof *in->pname);
        memset(in->pval, 0, ((size_t)np + 1) * sizeof *in->pval);
        memset(in->pset, 0, (size_t)np + 1);
        memset(in->vval, 0, ((size_t)p->nvars + 1) * sizeof *in->vval);
        memset(in->vset, 0, (size_t)p->nvars + 1);
        memset(in->base, 0, ((size_t)p->nchannels + 1) * sizeof *in->base);
        memset(in->mot, 0, ((size_t)p->nmotions + 1) * sizeof *in->mot);
        memset(in->motcap, 0, ((size_t)p->nmotions + 1) * sizeof *in->motcap);
        memset(in->script_off, 0, ((size_t)p->nscripts + 1) * sizeof *in->script_off);
        memset(in->thr, 0, ((size_t)nthr + 1) * sizeof *in->thr);
        memset(in->frames, 0, ((size_t)nframes + 1) * sizeof *in->frames);
        memset(in->owned, 0, ((size_t)nthr * (size_t)p->maxglides + 1) * sizeof *in->owned);
    } else {
        in = calloc(1, sizeof *in);
        if (!in) { jt_fail(rt, JT_ERR_MEMORY, "out of memory"); return NULL; }
        in->cap.np = np;
        in->cap.nn = nn;
        in->cap.nvars = p->nvars;
        in->cap.nch = p->nchannels;
        in->cap.nmot = p->nmotions;
        in->cap.nthr = nthr;
        in->cap.nframes = nframes;
        in->cap.nowned = nthr * p->maxglides;
        in->cap.nscripts = p->nscripts;
        in->pname = calloc((size_t)np + 1, sizeof *in->pname);
        in->pval = calloc((size_t)np + 1, sizeof *in->pval);
        in->pset = calloc((size_t)np + 1, 1);
        in->bind_param = malloc(((size_t)nn + 1) * sizeof(int32_t));
        in->bind_var = malloc(((size_t)nn + 1) * sizeof(int32_t));
        in->bind_global = malloc(((size_t)nn + 1) * sizeof(int32_t));
        in->vval = calloc((size_t)p->nvars + 1, sizeof *in->vval);
        in->vset = calloc((size_t)p->nvars + 1, 1);
        in->base = calloc((size_t)p->nchannels + 1, sizeof *in->base);
        in->mot = calloc((size_t)p->nmotions + 1, sizeof *in->mot);
        in->motcap = calloc((size_t)p->nmotions + 1, sizeof *in->motcap);
        in->script_off = calloc((size_t)p->nscripts + 1, sizeof *in->script_off);
        in->thr = calloc((size_t)nthr + 1, sizeof *in->thr);
        in->frames = calloc((size_t)nframes + 1, sizeof *in->frames);
        in->owned = calloc((size_t)nthr * (size_t)p->maxglides + 1, sizeof *in->owned);
        in->nrev = rt->chtab.n;
        in->rev = malloc(((size_t)in->nrev + 1) * sizeof *in->rev);
        if (!in->pname || !in->pval || !in->pset || !in->bind_param || !in->bind_var || !in->bind_global ||
            !in->vval || !in->vset || !in->base || !in->mot || !in->motcap || !in->script_off || !in->thr ||
            !in->frames || !in->owned || !in->rev)
            goto oom;
    }
    in->rt = rt;
    in->chr = chr;
    in->prog = p;
    in->id = rt->inst_next++;
    in->t_start = rt->t;
    in->dur = isnan(dur) ? INFINITY : dur;
    in->view = -1;
    in->chmap = bind_program(rt, p);
    if (!in->chmap) goto oom;
    in->nparams = np;
    for (int s = 0; s < p->nscripts; s++) size_motions(&p->scripts[s].body, in->motcap);
    int32_t total = 0;
    for (int i = 0; i < p->nmotions; i++) total += in->motcap[i];
    if (!in->motch || in->cap.nmotch < total) {
        free(in->motch);
        in->motch = calloc((size_t)total + 1, sizeof *in->motch);
        in->cap.nmotch = total;
        if (!in->motch) goto oom;
    } else {
        memset(in->motch, 0, ((size_t)total + 1) * sizeof *in->motch);
    }
    for (int i = 0, off = 0; i < p->nmotions; i++) {
        in->mot[i].ch = in->motch + off;
        in->mot[i].inst = in;
        in->mot[i].fidx = -1;
        off += in->motcap[i];
    }
    /* threads: a pool per script */
    for (int s = 0, k = 0; s < p->nscripts; s++) {
        in->script_off[s] = k;
        k += p->scripts[s].threads;
    }
    in->script_off[p->nscripts] = nthr;
    in->nthr = nthr;
    for (int s = 0, fo = 0, k = 0; s < p->nscripts; s++)
        for (int i = 0; i < p->scripts[s].threads; i++, k++) {
            jt_thread *th = &in->thr[k];
            th->inst = in;
            th->script = s;
            th->cap = p->scripts[s].depth;
            th->frames = in->frames + fo;
            th->owned = in->owned + (size_t)k * (size_t)p->maxglides;
            th->yield_at = -1;
            fo += th->cap;
        }
    /* runtime channel -> program channel, for the follow sources (binding may have added channels) */
    if (rt->chtab.n > in->nrev) {
        int32_t *rev = realloc(in->rev, ((size_t)rt->chtab.n + 1) * sizeof *rev);
        if (!rev) goto oom;
        in->rev = rev;
    }
    in->nrev = rt->chtab.n;
    for (int32_t i = 0; i < in->nrev; i++) in->rev[i] = -1;
    for (int c = 0; c < p->nchannels; c++) in->rev[in->chmap[c]] = c;
    for (int i = 0; i < p->nparams; i++) in->pname[i] = p->params[i].name;
    for (int i = 0, k = p->nparams; i < nparams; i++) {
        int at = -1;
        for (int q = 0; q < p->nparams && at < 0; q++)
            if (!strcmp(p->params[q].name, params[i].name)) at = q;
        if (at < 0) {
            at = k++;
            in->pname[at] = params[i].name;  /* the caller's text: only read while binding below */
        }
        in->pval[at] = params[i].value;
        in->pset[at] = 1;
    }
    for (int i = 0; i < p->nvars; i++) {
        in->vval[i] = p->var_init[i];
        in->vset[i] = i < p->ndeclared_vars;
    }
    for (int i = 0; i < nn; i++) {
        const char *name = p->names[i];
        in->bind_param[i] = -1;
        for (int q = 0; q < np && in->bind_param[i] < 0; q++)
            if (!strcmp(in->pname[q], name)) in->bind_param[i] = q;
        in->bind_var[i] = -1;
        for (int q = 0; q < p->nvars && in->bind_var[i] < 0; q++)
            if (!strcmp(p->var_names[q], name)) in->bind_var[i] = q;
        if ((in->bind_global[i] = global_slot(rt, name)) < 0) goto oom;
    }
    for (int i = p->nparams; i < np; i++) in->pname[i] = NULL;  /* the caller's names are not kept */
    /* defaults, in declaration order (they may use dur and earlier params) */
    for (int i = 0; i < p->nparams; i++) {
        if (in->pset[i]) continue;
        double v;
        jt_env env;
        jt_make_env(rt, in, NULL, rt->t, 0, &env);
        if (jt_value_eval(p, &p->params[i].value, &env, &v) < 0) {
            char msg[sizeof rt->err];
            snprintf(msg, sizeof msg, "%s", rt->err);
            jt_fail(rt, JT_ERR_RUN, "params.%.100s: %.400s", p->params[i].name, msg);
            instance_free(in);
            return NULL;
        }
        in->pval[i] = v;
        in->pset[i] = 1;
    }
    return in;
oom:
    instance_free(in);
    jt_fail(rt, JT_ERR_MEMORY, "out of memory");
    return NULL;
}

int jt_scratch_reserve(jt_runtime *rt)
{
    int32_t n = rt->chtab.n;
    if (n <= rt->capscratch) return 0;
    double *acc = realloc(rt->acc, (size_t)n * sizeof *acc);
    if (acc) rt->acc = acc;
    uint32_t *mark = realloc(rt->mark, (size_t)n * sizeof *mark);
    if (mark) rt->mark = mark;
    int32_t *pl = realloc(rt->plist, (size_t)n * sizeof *pl);
    if (pl) rt->plist = pl;
    double *pv = realloc(rt->pval, (size_t)n * sizeof *pv);
    if (pv) rt->pval = pv;
    if (!acc || !mark || !pl || !pv) return -1;
    for (int32_t i = rt->capscratch; i < n; i++) rt->mark[i] = 0;
    rt->capscratch = n;
    return 0;
}

/* Adds a new instance to its character and the runtime (allocation happens here). */
int jt_attach(jt_runtime *rt, jt_instance *in)
{
    jt_character *c = in->chr;
    if (jt_grow((void **)&rt->insts, &rt->capinsts, rt->ninsts + 1, sizeof *rt->insts) < 0) return -1;
    if (c) {
        if (jt_grow((void **)&c->inst, &c->capinst, c->ninst + 1, sizeof *c->inst) < 0) return -1;
        if (jt_grow((void **)&c->mot, &c->capmot, c->nmot + in->prog->nmotions + 1, sizeof *c->mot) < 0) return -1;
        c->inst[c->ninst++] = in;
        jt_writers_changed(c);
    }
    rt->folreserve += in->prog->nmotions;
    if (rt->folreserve > rt->capfol) {
        jt_motion **fm = realloc(rt->fmot, (size_t)rt->folreserve * sizeof *fm);
        if (fm) rt->fmot = fm;
        double *fn = realloc(rt->fnext, (size_t)rt->folreserve * sizeof *fn);
        if (fn) rt->fnext = fn;
        if (!fm || !fn) {
            if (c) c->ninst--;
            rt->folreserve -= in->prog->nmotions;
            return -1;
        }
        rt->capfol = rt->folreserve;
    }
    if (in->prog->live_random && jt_follow_exact(rt) < 0) {
        if (c) c->ninst--;
        return -1;
    }
    in->nreserve = inst_reserve(in);
    if (jt_reserve(rt, in->nreserve, in->nthr) < 0 || jt_scratch_reserve(rt) < 0) {
        if (c) c->ninst--;
        return -1;
    }
    int32_t need = rt->nscripts_live + in->prog->nscripts + 1;
    if (need > rt->caphat) {
        int32_t cap = rt->caphat;
        if (jt_grow((void **)&rt->hat_ins, &cap, need, sizeof *rt->hat_ins) < 0) return -1;
        cap = rt->caphat;
        if (jt_grow((void **)&rt->hat_scripts, &cap, need, sizeof *rt->hat_scripts) < 0) return -1;
        rt->caphat = cap;
    }
    rt->nscripts_live += in->prog->nscripts;
    rt->insts[rt->ninsts++] = in;
    in->alive = 1;
    return 0;
}

void jt_instance_stop(jt_runtime *rt, jt_instance *in)
{
    if (!in) return;
    if (in->alive) {
        double now = rt->t;
        for (int32_t i = 0; i < in->nthr; i++)
            if (in->thr[i].status != TH_FREE && !in->thr[i].parent) jt_kill_thread(rt, &in->thr[i], now);
        for (int i = 0; i < in->prog->nmotions; i++) jt_stop_motion(&in->mot[i]);
        compact(rt, in);  /* its events go (nothing may point into it afterwards) */
        for (int32_t i = 0; i < rt->nyield; i++)
            if (rt->yield[i] && rt->yield[i]->inst == in) rt->yield[i] = NULL;
        jt_character *c = in->chr;
        if (c)
            for (int32_t i = 0; i < c->ninst; i++)
                if (c->inst[i] == in) {
                    memmove(c->inst + i, c->inst + i + 1, (size_t)(c->ninst - i - 1) * sizeof *c->inst);
                    c->ninst--;
                    jt_writers_changed(c);
                    break;
                }
        for (int32_t i = 0; i < rt->ninsts; i++)
            if (rt->insts[i] == in) {
                memmove(rt->insts + i, rt->insts + i + 1, (size_t)(rt->ninsts - i - 1) * sizeof *rt->insts);
                rt->ninsts--;
                break;
            }
        rt->reserve -= in->nreserve;
        rt->folreserve -= in->prog->nmotions;
        rt->nthreads_total -= in->nthr;
        rt->nscripts_live -= in->prog->nscripts;
        in->alive = 0;
    }
    instance_release(rt, in);
}

/* Starts scripts: every thread exists before the first runs (in order). */
int jt_run_scripts(jt_runtime *rt, jt_instance **ins, const int32_t *scripts, int n, double now)
{
    rt->now = now;
    for (int i = 0; i < n; i++) {
        jt_instance *in = ins[i];
        jt_thread *root = &in->thr[in->script_off[scripts[i]]];
        jt_kill_thread(rt, root, now);  /* a hat firing while its script runs restarts it */
        root->status = TH_RUN;
        root->parent = NULL;
        root->depth = 0;
        root->base_scope = in->root_scope;
        root->gen++;
        push_frame(root, FR_SEQ, &in->prog->scripts[scripts[i]].body, NULL, 0);
    }
    for (int i = 0; i < n; i++) {
        jt_instance *in = ins[i];
        if (!in->alive) continue;
        jt_thread *root = &in->thr[in->script_off[scripts[i]]];
        if (root->status != TH_RUN || root->depth != 1 || root->frames[0].pc != 0) continue;
        if (resume(rt, root, now) == R_ERR) return -1;
    }
    return 0;
}

jt_instance *jt_find_instance(jt_runtime *rt, uint64_t id)
{
    for (int32_t i = 0; i < rt->ninsts; i++)
        if (rt->insts[i]->id == id) return rt->insts[i];
    return NULL;
}

uint64_t jt_start_instance(jt_runtime *rt, jt_character *c, const jt_program *p, double dur, const jt_param *params,
                           int nparams, int run_due, int *skipped)
{
    if (skipped) *skipped = 0;
    jt_instance *in = jt_instance_new(rt, c, p, dur, params, nparams);
    if (!in) {
        if (skipped) *skipped = 1;
        return 0;
    }
    if (jt_attach(rt, in) < 0) {
        instance_free(in);
        jt_fail(rt, JT_ERR_MEMORY, "out of memory");
        return 0;
    }
    int32_t scripts_s[16] = {0};  /* the usual few start scripts need no allocation (zeroed: gcc 12 cannot see that none is read when n = 0) */
    jt_instance *ins_s[16];
    int big = p->nscripts > 16;
    int32_t *scripts = big ? malloc(((size_t)p->nscripts + 1) * sizeof *scripts) : scripts_s;
    jt_instance **ins = big ? malloc(((size_t)p->nscripts + 1) * sizeof *ins) : ins_s;
    if (!scripts || !ins) {
        if (big) free(scripts);
        if (big) free(ins);
        jt_instance_stop(rt, in);
        jt_fail(rt, JT_ERR_MEMORY, "out of memory");
        return 0;
    }
    int n = 0;
    for (int s = 0; s < p->nscripts; s++)
        if (p->scripts[s].hat == HAT_START) {
            scripts[n] = s;
            ins[n++] = in;
        }
    uint64_t id = in->id;
    int r = jt_run_scripts(rt, ins, scripts, n, rt->t);
    if (big) {
        free(scripts);
        free(ins);
    }
    if (r == 0 && run_due) r = jt_run_due(rt, rt->t);
    if (r < 0) {  /* a behaviour failing at once is not started */
        char msg[sizeof rt->err];
        snprintf(msg, sizeof msg, "%s", rt->err);
        jt_instance *still = jt_find_instance(rt, id);
        if (still) jt_instance_stop(rt, still);
        snprintf(rt->err, sizeof rt->err, "%s", msg);
        return 0;
    }
    return id;
}

jt_status jt_start_behaviour(jt_runtime *rt, const char *char_id, const jt_program *p, double dur,
                             const jt_param *params, int nparams, uint64_t *instance)
{
    if (instance) *instance = 0;
    jt_character *c = find_char(rt, char_id);
    if (!c) return jt_fail(rt, JT_ERR_ARGUMENT, "unknown character \"%.100s\"", char_id ? char_id : "");
    if (!p) return jt_fail(rt, JT_ERR_ARGUMENT, "no program");
    if (p->kind != 0) return jt_fail(rt, JT_ERR_ARGUMENT, "start_behaviour runs a behaviour, not a %s", jt_kind_name(p->kind));
    uint64_t id = jt_start_instance(rt, c, p, dur, params, nparams, 1, NULL);
    if (!id) return strstr(rt->err, "out of memory") ? JT_ERR_MEMORY : JT_ERR_RUN;
    if (instance) *instance = id;
    return JT_OK;
}

jt_status jt_stop_behaviour(jt_runtime *rt, uint64_t id)
{
    jt_instance *in = jt_find_instance(rt, id);
    if (!in || !in->chr) return JT_OK;  /* already stopped: nothing to do */
    jt_instance_stop(rt, in);
    return JT_OK;
}

/* ---- emit ------------------------------------------------------------------------------------------------------- */

jt_status jt_emit(jt_runtime *rt, const char *event, const char *char_id, const char *key, const char *name)
{
    static const char *const EVENTS[HAT_COUNT] = {"start", "talk-start", "talk-end", "key", "click", "scene",
                                                  "beat", "loud", "every", "touch"};
    int hat = -1;
    for (int i = 0; i < HAT_COUNT; i++)
        if (event && !strcmp(event, EVENTS[i])) hat = i;
    if (hat < 0) return jt_fail(rt, JT_ERR_ARGUMENT, "unknown event \"%.60s\" (a hat's on: start talk-start talk-end key click scene beat loud every touch)", event ? event : "");
    jt_character *only = NULL;
    if (char_id) {
        only = find_char(rt, char_id);
        if (!only) return jt_fail(rt, JT_ERR_ARGUMENT, "unknown character \"%.100s\"", char_id);
    }
    int err = 0;
    jt_fire_hats(rt, only, hat, key, name, rt->t, &err);
    int r = err ? -1 : 0;
    if (r == 0) r = jt_run_due(rt, rt->t);
    return r < 0 ? JT_ERR_RUN : JT_OK;
}

/* Every (instance, script) with this hat (on one character or all) runs at now: talk-start and
** talk-end set the talking input first. */
void jt_fire_hats(jt_runtime *rt, jt_character *only, int hat, const char *key, const char *name, double now, int *err)
{
    jt_instance **ins = rt->hat_ins;  /* reserved when the instances started: no allocation */
    int32_t *scripts = rt->hat_scripts;
    int n = 0;
    for (int32_t ci = 0; ci < rt->nchars; ci++) {
        jt_character *c = rt->chars[ci];
        if (only && c != only) continue;
        if (hat == HAT_TALK_START) c->talking = 1;
        if (hat == HAT_TALK_END) c->talking = 0;
        rt->epoch++;
        for (int32_t k = 0; k < c->ninst; k++) {
            jt_instance *in = c->inst[k];
            for (int s = 0; s < in->prog->nscripts; s++) {
                const jt_script *sc = &in->prog->scripts[s];
                if (sc->hat != hat) continue;
                if (hat == HAT_KEY && sc->key && (!key || strcmp(sc->key, key))) continue;
                if (hat == HAT_SCENE && sc->scene && (!name || strcmp(sc->scene, name))) continue;
                ins[n] = in;
                scripts[n++] = s;
            }
        }
    }
    if (n && jt_run_scripts(rt, ins, scripts, n, now) < 0) *err = 1;
}
