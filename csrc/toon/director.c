/* director.c: §7 scenes and cartoons.  The director is an instance that is
** never drawn: its scripts are the scene scripts, run by the same scheduler
** (§0).  It owns the stage (place, grade, captions), each character's
** placement (§7.2), the lines being spoken (§7.4) and the behaviours a scene
** starts with does (§7.5); it writes the timeline and the loss reports (§7.6).
**
** startCartoon plans first (§7.7): the same director runs alone on a twin
** runtime (no behaviours), stepped on the cartoon's own frames, which gives the
** timeline, the duration and the warnings; then it runs on this runtime.  The
** director keeps only what is still running: live items (does, captions with a
** for, lines, glides) in a small array, the captions it may still show, and
** per scope the timeline records still open (a caption without for). */
#include <cjson/cJSON.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../jsnum.h"
#include "rt.h"

#define EXACT 1e-6  /* §7.6: what ends at most a microsecond after the scene lost nothing */

enum { REC_SCENE, REC_SAY, REC_DOES, REC_CAPTION, REC_CUT, REC_PLACE, REC_ENTER, REC_EXIT, REC_MOOD };
static const char *const REC_NAMES[] = {"scene", "say", "does", "caption", "cut", "place", "enter", "exit", "mood"};
static const char *const SIDE_NAMES[4] = {"left", "right", "top", "bottom"};

typedef struct record {
    uint8_t kind, also;
    int32_t mask;
    double t, dur;
    const char *who, *a, *b, *c;  /* scene: name place grade; say: text voice mood; does: behaviour;
                                  ** caption: text; cut: place grade; enter/exit: side; mood: mood */
    double n[4];                  /* place: x y h facing; say: speed pitch */
    int32_t next_open;            /* its scope's next open caption record */
} record;

enum { IT_DOES, IT_CAPTION, IT_LINE, IT_GLIDE };
typedef struct item {
    uint8_t kind, alive, has_for, shown, op;
    int32_t who;                  /* character index */
    uint64_t scope, order;
    double t0, end, total;
    int32_t rec;
    uint64_t inst;                /* does: the behaviour instance (0 in the twin, or skipped) */
    uint32_t gen;
    const char *text;
    const jt_thread *thread;      /* lines, glides: the thread waiting on it */
    int script;
    uint32_t vserial[4];          /* glides: the stage values it writes (0: not) */
} item;

typedef struct stage {
    jt_glide v[4];                /* x y h facing */
    uint32_t vserial[4];
    uint8_t set[4];               /* placed (else the default spread) */
    int visible;
    uint8_t has_spot[2];
    double spot[2];
    const char *mood;
    double mood_t;
    int lines;                    /* lines being spoken (overlapping lines: one talk-start, one talk-end) */
} stage;

enum { D_IDLE, D_WAITING, D_RUNNING, D_HOLDING, D_BETWEEN, D_ENDED };
enum { T_PIN, T_FIRST, T_NEXT, T_DOES };
enum { CAUSE_END, CAUSE_PIN, CAUSE_STOPALL };

typedef struct open_scope {
    uint64_t id;
    int32_t head, count;
} open_scope;

typedef struct pack_entry {
    char *key;
    jt_program *p;  /* NULL: missing or invalid (why) */
    char *why;
} pack_entry;

typedef struct jt_director {
    jt_runtime *rt;
    jt_program *prog;
    jt_instance *inst;
    int twin, state, scene;
    double t0, scene_t0, end_t;
    double *pins;            /* per scene: the pinned start (NAN: none) */
    double *plan_ends;       /* per scene: its end in the plan (does learns the rest of its scene) */
    uint32_t timer_gen;
    int squeezed;
    const char *place, *background, *grade;
    int32_t cut_rec, scene_rec;
    uint64_t scene_scope;
    item *it;
    int32_t nit, capit;
    uint64_t order;
    record *rec;
    int32_t nrec, caprec;
    open_scope *open;
    int32_t nopen, capopen;
    char *loss;              /* the current scene's losses, "; "-separated */
    size_t losslen, losscap;
    int loss_waiting;           /* the losses include blocks a script had not reached */
    pack_entry *packs;
    int32_t npacks, cappacks;
    const jt_block **warned; /* does blocks already warned about a pack's params */
    int32_t nwarned, capwarned;
    jt_param *params;
    int nparams;
    char **msgs;             /* the twin: the plan's warnings; the run: the plan's, to match */
    uint8_t *matched;
    int32_t nmsgs, capmsgs;
    record *plan_rec;        /* rt.timeline: the plan's records */
    int32_t nplan_rec;
    double duration;         /* rt.duration: NAN null */
    int32_t *scr;            /* scratch: the scripts of a scene */
    jt_instance **scr_in;
} jt_director;

static const char *const NORMAL = "normal";

int jt_director_check(jt_runtime *rt, jt_instance *in, double now);

/* ---- small helpers --------------------------------------------------------------------------- */

static stage *stage_of(jt_character *c)
{
    if (!c->stage) c->stage = calloc(1, sizeof(stage));
    return c->stage;
}

static void rt_warning(jt_runtime *rt, const char *text)
{
    if (jt_grow((void **)&rt->warnings, &rt->capwarnings, rt->nwarnings + 1, sizeof *rt->warnings) < 0) return;
    char *c = strdup(text);
    if (c) rt->warnings[rt->nwarnings++] = c;
}

/* A warning: the plan collects its own; a run adds what the plan did not say already. */
static void dwarn(jt_director *d, const char *fmt, ...)
{
    char text[1400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    if (d->twin) {
        if (jt_grow((void **)&d->msgs, &d->capmsgs, d->nmsgs + 1, sizeof *d->msgs) < 0) return;
        char *c = strdup(text);
        if (c) d->msgs[d->nmsgs++] = c;
        return;
    }
    for (int32_t i = 0; i < d->nmsgs; i++)
        if (!d->matched[i] && !strcmp(d->msgs[i], text)) {  /* the plan said it */
            d->matched[i] = 1;
            return;
        }
    rt_warning(d->rt, text);
}

/* §7.6 amounts: 3 decimals, more when 3 would print two different amounts alike */
static void amounts(double a, double b, char *sa, char *sb, size_t cap)
{
    for (int digits = 3; digits <= 17; digits++) {
        ob_js_to_fixed(a, digits, sa, cap);
        ob_js_to_fixed(b, digits, sb, cap);
        if (strcmp(sa, sb) || a == b || digits == 17) break;
    }
    for (char *s = sa; s; s = s == sa ? sb : NULL) {  /* trailing zeros go: "0.3", "2" */
        if (!strchr(s, '.')) continue;
        size_t n = strlen(s);
        while (n && s[n - 1] == '0') s[--n] = 0;
        if (n && s[n - 1] == '.') s[--n] = 0;
    }
}

static void secs(double v, char *buf, size_t cap) { ob_js_to_string(v, buf, cap); }

static void loss(jt_director *d, const char *fmt, ...)
{
    char text[600];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    size_t n = strlen(text), need = d->losslen + n + 3;
    if (need > d->losscap) {
        size_t c = d->losscap ? d->losscap * 2 : 256;
        while (c < need) c *= 2;
        char *p = realloc(d->loss, c);
        if (!p) return;
        d->loss = p;
        d->losscap = c;
    }
    if (d->losslen) {
        memcpy(d->loss + d->losslen, "; ", 2);
        d->losslen += 2;
    }
    memcpy(d->loss + d->losslen, text, n + 1);
    d->losslen += n;
}

static int32_t new_record(jt_director *d, int kind, double t)
{
    if (jt_grow((void **)&d->rec, &d->caprec, d->nrec + 1, sizeof *d->rec) < 0) return -1;
    record *r = &d->rec[d->nrec];
    memset(r, 0, sizeof *r);
    r->kind = (uint8_t)kind;
    r->t = t;
    r->next_open = -1;
    return d->nrec++;
}

static int32_t new_item(jt_director *d, int kind)
{
    int32_t i = 0;
    while (i < d->nit && d->it[i].alive) i++;  /* the live items are few (§7.7) */
    if (i == d->nit) {
        if (jt_grow((void **)&d->it, &d->capit, d->nit + 1, sizeof *d->it) < 0) return -1;
        d->nit++;
    }
    item *x = &d->it[i];
    uint32_t gen = x->gen + 1;
    memset(x, 0, sizeof *x);
    x->gen = gen;
    x->kind = (uint8_t)kind;
    x->alive = 1;
    x->rec = -1;
    x->who = -1;
    x->order = ++d->order;
    return i;
}

static void drop_item(jt_director *d, int32_t i)
{
    d->it[i].alive = 0;
    d->it[i].gen++;
    while (d->nit && !d->it[d->nit - 1].alive) d->nit--;
}

static jt_character *who_char(jt_director *d, const jt_block *b)
{
    jt_character *c = jt_find_char(d->rt, b->who);
    if (!c) jt_fail(d->rt, JT_ERR_RUN, "%s: unknown character \"%.100s\"", d->prog->paths[b->path], b->who ? b->who : "");
    return c;
}

static const jt_cast *cast_of(const jt_program *p, const char *id)
{
    for (int i = 0; i < p->ncast; i++)
        if (!strcmp(p->cast[i].id, id)) return &p->cast[i];
    return NULL;
}

static int eval(jt_director *d, const jt_block *b, const jt_value *v, double now, double *out)
{
    return jt_inst_eval(d->rt, d->inst, NULL, b, v, now, 0, out);
}

/* ---- the stage -------------------------------------------------------------------------------- */

/* §7.2 defaults: spread in cast order, then the other characters; y 0.92, h 0.5, facing +1 */
static double default_value(jt_director *d, jt_runtime *rt, const jt_character *c, int v)
{
    if (v == 1) return 0.92;
    if (v == 2) return 0.5;
    if (v == 3) return 1;
    int n = rt->nchars, i = -1;
    if (d && d->prog) {
        int k = 0;
        for (int q = 0; q < d->prog->ncast; q++) {
            if (!jt_find_char(rt, d->prog->cast[q].id)) continue;
            if (!strcmp(d->prog->cast[q].id, c->id)) i = k;
            k++;
        }
        if (i < 0)
            for (int q = 0; q < rt->nchars; q++) {
                if (cast_of(d->prog, rt->chars[q]->id)) continue;
                if (rt->chars[q] == c) i = k;
                k++;
            }
    } else {
        i = c->index;
    }
    return (double)(i + 1) / (n + 1);
}

static double stage_value(jt_runtime *rt, jt_director *d, jt_character *c, int v, double T)
{
    stage *s = stage_of(c);
    if (!s || !s->set[v]) return default_value(d, rt, c, v);
    return jt_glide_at(&s->v[v], T);
}

/* the last writer of a value wins (§7.2); returns the writer's serial */
static uint32_t set_value(jt_director *d, jt_character *c, int v, double from, double to, double now, double over,
                          int ease)
{
    stage *s = stage_of(c);
    if (!s) return 0;
    jt_glide_start(&s->v[v], from, to, now, over, ease);
    s->set[v] = 1;
    s->vserial[v] = (uint32_t)++d->order;  /* the director's own counter: no global state */
    return s->vserial[v];
}

static const jt_place *place_entry(const jt_program *p, const char *name)
{
    for (int i = 0; i < p->nplaces; i++)
        if (!strcmp(p->places[i].name, name)) return &p->places[i];
    return NULL;
}

/* §7.6 cut {place, mood}: the grade is mood, else the place entry's grade, else "normal" */
static void apply_cut(jt_director *d, const char *place, const char *mood)
{
    if (place) {
        const jt_place *e = place_entry(d->prog, place);
        d->place = place;
        d->background = e && e->background ? e->background : place;
        d->grade = mood ? mood : e && e->grade ? e->grade : NORMAL;
    } else if (mood) {
        d->grade = mood;
    }
}

static void finish_record(jt_director *d, int32_t r, double t)
{
    if (r >= 0 && r < d->nrec) d->rec[r].dur = t - d->rec[r].t;
}

/* an item with a length of its own (a line, a glide, a does … for, a caption … for) keeps that
** length as its record's dur unless it was cut off before its end */
static void finish_cut(jt_director *d, const item *x, double t)
{
    if (t < x->end) finish_record(d, x->rec, t);
}

/* ---- lines, talking ------------------------------------------------------------------------------ */

static void talk(jt_director *d, jt_character *c, int start, double now)
{
    stage *s = stage_of(c);
    if (!s) return;
    if (start) {
        if (s->lines++ > 0) return;
    } else {
        if (--s->lines > 0) return;
        s->lines = 0;
    }
    c->talking = start;
    d->rt->epoch++;
    if (d->twin) return;
    int err = 0;
    jt_fire_hats(d->rt, c, start ? HAT_TALK_START : HAT_TALK_END, NULL, NULL, now, &err);
    (void)err;  /* a behaviour failing in a talk hat: its step reports it (rt->err stays) */
}

static void end_line(jt_director *d, int32_t i, double t)
{
    item *x = &d->it[i];
    finish_cut(d, x, t);
    if (x->who >= 0 && x->who < d->rt->nchars) talk(d, d->rt->chars[x->who], 0, t);
    drop_item(d, i);
}

/* ---- scopes and live items -------------------------------------------------------------------------- */

static void stop_does(jt_director *d, int32_t i, double t)
{
    item *x = &d->it[i];
    if (x->inst) {
        jt_instance *in = jt_find_instance(d->rt, x->inst);
        if (in) jt_instance_stop(d->rt, in);  /* a stopped behaviour's offsets disappear at once */
    }
    if (x->has_for) finish_cut(d, x, t);
    else finish_record(d, x->rec, t);
    drop_item(d, i);
}

static open_scope *find_open(jt_director *d, uint64_t scope, int add)
{
    for (int32_t i = 0; i < d->nopen; i++)
        if (d->open[i].id == scope) return &d->open[i];
    if (!add || jt_grow((void **)&d->open, &d->capopen, d->nopen + 1, sizeof *d->open) < 0) return NULL;
    open_scope *o = &d->open[d->nopen++];
    o->id = scope;
    o->head = -1;
    o->count = 0;
    return o;
}

/* A scope ends: what was started in it ends (§7.5, §7.6), its open records get their dur. */
static void close_scope(jt_director *d, uint64_t scope, double now)
{
    for (int32_t i = 0; i < d->nit; i++) {
        item *x = &d->it[i];
        if (!x->alive || x->scope != scope) continue;
        if (x->kind == IT_DOES) stop_does(d, i, now);
        else if (x->kind == IT_CAPTION) {
            if (x->has_for && isfinite(x->end)) finish_cut(d, x, now);
            drop_item(d, i);
        }
    }
    open_scope *o = find_open(d, scope, 0);
    if (o) {
        for (int32_t r = o->head; r >= 0; r = d->rec[r].next_open) finish_record(d, r, now);
        *o = d->open[--d->nopen];
    }
}

void jt_director_close_scope(jt_instance *in, uint64_t scope, double now)
{
    jt_director *d = in->director;
    if (d) close_scope(d, scope, now);
}

/* what a waiting thread glides or says: cut off, it freezes / ends then (§7.2, §7.4) */
void jt_director_freeze(jt_instance *in, int32_t slot, uint32_t serial, double now)
{
    jt_director *d = in->director;
    if (!d || slot < 0 || slot >= d->nit || !d->it[slot].alive || d->it[slot].gen != serial) return;
    item *x = &d->it[slot];
    if (x->kind == IT_LINE) {
        end_line(d, slot, now);
        return;
    }
    if (x->kind != IT_GLIDE) return;
    jt_character *c = d->rt->chars[x->who];
    stage *s = stage_of(c);
    int landed = now >= x->end;  /* cut off at the very instant it lands, it has landed */
    for (int v = 0; v < 4 && s; v++)
        if (x->vserial[v] && s->vserial[v] == x->vserial[v] && s->v[v].moving) {
            s->v[v].b = jt_glide_at(&s->v[v], now);
            s->v[v].moving = 0;
        }
    if (x->op == OP_EXIT && landed && s) {
        int still = 0;
        for (int v = 0; v < 2; v++) still |= x->vserial[v] && s->vserial[v] == x->vserial[v];
        if (still) s->visible = 0;
    }
    finish_cut(d, x, now);
    drop_item(d, slot);
}

/* a line or a glide ran its time */
void jt_director_landed(jt_instance *in, const jt_owned *o, double now)
{
    jt_director *d = in->director;
    if (!d || o->slot < 0 || o->slot >= d->nit || !d->it[o->slot].alive || d->it[o->slot].gen != o->serial) return;
    item *x = &d->it[o->slot];
    if (x->kind == IT_LINE) {
        end_line(d, o->slot, now);
        return;
    }
    jt_character *c = d->rt->chars[x->who];
    stage *s = stage_of(c);
    if (x->op == OP_EXIT && s) {  /* an exit whose value was taken over does not hide */
        int still = 0;
        for (int v = 0; v < 2; v++) still |= x->vserial[v] && s->vserial[v] == x->vserial[v];
        if (still) s->visible = 0;
    }
    drop_item(d, o->slot);  /* it ran its whole length: the record keeps it */
}

/* ---- captions (§7.6, §7.7) ------------------------------------------------------------------------------ */

static void show_caption(jt_director *d, const char *text, double now, double end, int has_for, uint64_t scope,
                         int32_t rec)
{
    /* the new caption pops every caption of its scope it hides (ending no later) and every one that ended */
    for (int32_t i = 0; i < d->nit; i++) {
        item *x = &d->it[i];
        if (x->alive && x->kind == IT_CAPTION && x->scope == scope && (x->end <= end || x->end <= now)) drop_item(d, i);
    }
    if (isnan(end)) return;  /* an end that is not a number keeps nothing at all */
    int32_t i = new_item(d, IT_CAPTION);
    if (i < 0) return;
    item *x = &d->it[i];
    x->text = text;
    x->t0 = now;
    x->end = end;
    x->total = end - now;
    x->has_for = (uint8_t)has_for;
    x->scope = scope;
    x->rec = rec;
    x->shown = 1;
}

/* ---- the scene blocks ------------------------------------------------------------------------------------ */

/* the earliest deadline of the for blocks around th (its own frames and, in a together, its parents') */
static int known_end(const jt_thread *th, double *end)
{
    int found = 0;
    for (; th; th = th->parent)
        for (int32_t i = th->depth - 1; i >= 0; i--)
            if (th->frames[i].kind == FR_FOR && th->frames[i].deadline != INFINITY &&
                (!found || th->frames[i].deadline < *end)) {
                *end = th->frames[i].deadline;
                found = 1;
            }
    return found;
}

/* the host's interrupt flag (jt_runtime_def.interrupt), set inside a provider: the cartoon fails */
static int interrupted(jt_director *d)
{
    if (!d->rt->def.interrupt || !*d->rt->def.interrupt) return 0;
    jt_fail(d->rt, JT_ERR_RUN, "interrupted");
    return 1;
}

static double speech_default(const char *text, double speed)
{
    /* 0.06 s per character (UTF-16 code units) + 0.25 s, at least 0.6 s, divided by speed */
    size_t units = 0;
    for (const unsigned char *p = (const unsigned char *)text; *p; p++)
        if ((*p & 0xC0) != 0x80) units += (*p & 0xF8) == 0xF0 ? 2 : 1;
    double s = 0.06 * (double)units + 0.25;
    if (s < 0.6) s = 0.6;
    return s / speed;
}

double jt_estimate_speech(const char *text, double speed) { return speech_default(text ? text : "", speed); }

static double speech(jt_director *d, const char *who, const char *text, const jt_speech_opts *o)
{
    jt_runtime *rt = d->rt;
    double speed = o->has_speed ? o->speed : 1;
    char key[2048], sp[40] = "", pi[40] = "";
    if (o->has_speed) ob_js_to_string(o->speed, sp, sizeof sp);
    if (o->has_pitch) ob_js_to_string(o->pitch, pi, sizeof pi);
    const char *parts[6] = {text, who, o->voice ? o->voice : "\x1e", o->mood ? o->mood : "\x1e", sp, pi};
    size_t kn = 0;  /* the line and its options, \x1f between (a line per distinct pair, §7.4) */
    for (int i = 0; i < 6; i++) {
        size_t n = strlen(parts[i]);
        if (kn + n + 2 > sizeof key) n = sizeof key - kn - 2;
        memcpy(key + kn, parts[i], n);
        kn += n;
        key[kn++] = i < 5 ? '\x1f' : 0;
    }
    int32_t k = jt_strtab_find(&rt->speech_keys, key);
    if (k >= 0) return rt->speech_s[k];
    double s;
    if (!rt->def.speech) {
        s = speech_default(text, speed);
    } else {
        char why[300] = "";
        double v = NAN;
        int r = rt->def.speech(rt->def.speech_ud, text, o, &v, why, sizeof why);
        if (r == 0 && isfinite(v) && v >= 0) {
            s = v;
        } else {
            s = speech_default(text, speed);
            char num[40];
            secs(s, num, sizeof num);
            if (r == 0) {
                char got[40];
                secs(v, got, sizeof got);
                snprintf(why, sizeof why, "it gave %s, not a finite number >= 0", got);
            }
            dwarn(d, "speech: the provider failed for \"%.80s\" (%s): %s s by the default rule", text, why, num);
        }
    }
    int added;
    k = jt_strtab_intern(&rt->speech_keys, key, &added);
    if (k >= 0 && jt_grow((void **)&rt->speech_s, &rt->capspeech, rt->speech_keys.n, sizeof *rt->speech_s) == 0)
        rt->speech_s[k] = s;
    return s;
}

/* §7.5 a pack id through the packs provider (cached): its program, or the content of the pack */
static jt_program *load_pack_text(const char *text, char *why, size_t cap)
{
    cJSON *root = cJSON_Parse(text);
    if (!root) {
        snprintf(why, cap, "not JSON");
        return NULL;
    }
    const cJSON *prog = root;
    if (cJSON_IsObject(root) && !cJSON_GetObjectItemCaseSensitive(root, "scripts") &&
        cJSON_IsObject(cJSON_GetObjectItemCaseSensitive(root, "content")))
        prog = cJSON_GetObjectItemCaseSensitive(root, "content");  /* a whole pack: its content */
    char *p = jt_json_print(prog);
    cJSON_Delete(root);
    if (!p) {
        snprintf(why, cap, "out of memory");
        return NULL;
    }
    jt_diags *dg = NULL;
    jt_program *out = jt_program_load(p, strlen(p), &dg);
    free(p);
    if (!out) snprintf(why, cap, "invalid: %s", jt_diags_count(dg) ? jt_diags_get(dg, 0)->message : "?");
    else if (out->kind != 0) {
        snprintf(why, cap, "a %s, not a behaviour", jt_kind_name(out->kind));
        jt_program_free(out);
        out = NULL;
    }
    jt_diags_free(dg);
    return out;
}

static int resolve(jt_director *d, const char *id, const char *version, jt_program **out, char *why, size_t cap)
{
    char key[600];
    snprintf(key, sizeof key, "%s@%s", id, version ? version : "");
    for (int32_t i = 0; i < d->npacks; i++)
        if (!strcmp(d->packs[i].key, key)) {
            *out = d->packs[i].p;
            if (!*out) snprintf(why, cap, "%s", d->packs[i].why ? d->packs[i].why : "missing");
            return *out ? 0 : -1;
        }
    jt_program *p = NULL;
    if (!d->rt->def.packs) {
        snprintf(why, cap, "no packs provider");
    } else {
        char *text = d->rt->def.packs(d->rt->def.packs_ud, id, version, why, cap);
        if (text) {
            p = load_pack_text(text, why, cap);
            free(text);
        } else if (!why[0]) {
            snprintf(why, cap, "missing");
        }
    }
    if (jt_grow((void **)&d->packs, &d->cappacks, d->npacks + 1, sizeof *d->packs) == 0) {
        d->packs[d->npacks].key = strdup(key);
        d->packs[d->npacks].p = p;
        d->packs[d->npacks].why = p ? NULL : strdup(why);
        if (d->packs[d->npacks].key) d->npacks++;
        else jt_program_free(p);
    } else {
        jt_program_free(p);
        p = NULL;
    }
    *out = p;
    return p ? 0 : -1;
}

static int exec_does(jt_director *d, jt_thread *th, const jt_block *b, double now)
{
    jt_runtime *rt = d->rt;
    jt_character *c = who_char(d, b);
    if (!c) return R_ERR;
    double forv = INFINITY;
    if ((b->mask & SM_FOR) && eval(d, b, &b->v[0], now, &forv) < 0) return R_ERR;
    if (isnan(forv)) forv = 0;
    jt_param ps[64];
    int np = b->np < 64 ? b->np : 64;
    for (int i = 0; i < np; i++) {  /* scene expressions, evaluated now with the scene's names */
        ps[i].name = b->pnames[i];
        if (eval(d, b, &b->v[1 + i], now, &ps[i].value) < 0) return R_ERR;
    }
    jt_program *p = b->sub;
    if (!p && b->str) {
        char why[400] = "";
        if (resolve(d, b->str, b->str2, &p, why, sizeof why) < 0) {
            if (interrupted(d)) return R_ERR;
            char why2[400] = "";
            int fb = strcmp(b->str, "c4c:beh:idle") ? resolve(d, "c4c:beh:idle", NULL, &p, why2, sizeof why2) : -1;
            if (interrupted(d)) return R_ERR;
            dwarn(d, "%s: behaviour \"%.100s\" (%s): %s", d->prog->paths[b->path], b->str, why,
                  fb == 0 ? "c4c:beh:idle runs instead" : "nothing runs (no c4c:beh:idle either)");
            if (fb < 0) p = NULL;
        }
        if (p) {  /* a param the pack does not declare: passed anyway (a warning, once per block) */
            int seen = 0;
            for (int32_t i = 0; i < d->nwarned && !seen; i++) seen = d->warned[i] == b;
            if (!seen && jt_grow((void **)&d->warned, &d->capwarned, d->nwarned + 1, sizeof *d->warned) == 0) {
                d->warned[d->nwarned++] = b;
                for (int i = 0; i < np; i++) {
                    int declared = 0;
                    for (int q = 0; q < p->nparams && !declared; q++) declared = !strcmp(p->params[q].name, ps[i].name);
                    if (!declared)
                        dwarn(d, "%s: behaviour \"%.100s\" does not declare a param %s (passed anyway)",
                              d->prog->paths[b->path], b->str, ps[i].name);
                }
            }
        }
    }
    /* §7.5 dur: for, else the earliest known end of its scope (a for, else the scene's end in the plan) */
    double dur = forv, end;
    if (!(b->mask & SM_FOR)) {  /* the earliest of the ends known now: the fors around it, the scene's */
        double scene_end = d->plan_ends && isfinite(d->plan_ends[d->scene]) ? d->plan_ends[d->scene] : INFINITY;
        if (!known_end(th, &end) || end > scene_end) end = scene_end;
        dur = end == INFINITY ? INFINITY : end - now;
    }
    if (!(b->flags & BF_ALSO))  /* replaces every behaviour the scene started on this character */
        for (int32_t i = 0; i < d->nit; i++)
            if (d->it[i].alive && d->it[i].kind == IT_DOES && d->it[i].who == c->index) stop_does(d, i, now);
    int32_t r = new_record(d, REC_DOES, now);
    int32_t i = new_item(d, IT_DOES);
    if (r < 0 || i < 0) return jt_fail(rt, JT_ERR_MEMORY, "out of memory"), R_ERR;
    record *rc = &d->rec[r];
    rc->who = b->who;
    rc->a = b->s3;
    rc->also = (b->flags & BF_ALSO) != 0;
    rc->dur = forv;  /* until it ends (for, replaced, its scope) */
    item *x = &d->it[i];
    x->who = c->index;
    x->scope = jt_thread_scope(th);
    x->t0 = now;
    x->has_for = (b->mask & SM_FOR) != 0;
    x->end = x->has_for ? now + forv : INFINITY;
    x->total = forv;
    x->rec = r;
    x->text = b->str ? b->str : "an inline behaviour";
    uint32_t gen = x->gen;
    if (x->has_for && x->end != INFINITY &&
        jt_push_event(rt, x->end < now ? now : x->end, 0, EV_TIMER, d, d->inst, gen, i * 4 + T_DOES, 0) < 0)
        return jt_fail(rt, JT_ERR_MEMORY, "out of memory"), R_ERR;
    if (d->twin || !p) return R_CONTINUE;
    int skipped = 0;
    uint64_t id = jt_start_instance(rt, c, p, dur, ps, np, 0, &skipped);
    if (!id && skipped) {  /* a behaviour that cannot start is skipped */
        char msg[sizeof rt->err];
        snprintf(msg, sizeof msg, "%s", rt->err);
        dwarn(d, "%s: %s's behaviour \"%.100s\" cannot start (%s): skipped", d->prog->paths[b->path], c->id,
              x->text, msg);
        return R_CONTINUE;
    }
    if (!id) return R_ERR;  /* it failed at once: the run fails */
    if (i < d->nit && d->it[i].alive && d->it[i].gen == gen) d->it[i].inst = id;
    return R_CONTINUE;
}

static int exec_say(jt_director *d, jt_thread *th, const jt_block *b, double now)
{
    jt_character *c = who_char(d, b);
    if (!c) return R_ERR;
    jt_speech_opts o;
    memset(&o, 0, sizeof o);
    const jt_cast *ce = cast_of(d->prog, c->id);
    o.who = c->id;
    o.voice = b->mask & SM_VOICE ? b->s3 : ce ? ce->voice : NULL;
    o.mood = b->mask & SM_MOOD ? b->str2 : NULL;
    if ((b->mask & SM_SPEED) && eval(d, b, &b->v[SV_SPEED], now, &o.speed) < 0) return R_ERR;
    if ((b->mask & SM_PITCH) && eval(d, b, &b->v[SV_PITCH], now, &o.pitch) < 0) return R_ERR;
    o.has_speed = (b->mask & SM_SPEED) != 0;
    o.has_pitch = (b->mask & SM_PITCH) != 0;
    double s = speech(d, c->id, b->str, &o);
    if (interrupted(d)) return R_ERR;
    int32_t r = new_record(d, REC_SAY, now);
    int32_t i = new_item(d, IT_LINE);
    if (r < 0 || i < 0) return jt_fail(d->rt, JT_ERR_MEMORY, "out of memory"), R_ERR;
    record *rc = &d->rec[r];
    rc->who = b->who;
    rc->a = b->str;
    rc->b = o.voice;
    rc->c = o.mood;
    rc->dur = s;
    rc->mask = b->mask & (SM_SPEED | SM_PITCH);
    rc->n[0] = o.speed;
    rc->n[1] = o.pitch;
    item *x = &d->it[i];
    x->who = c->index;
    x->t0 = now;
    x->end = now + s;
    x->total = s;
    x->rec = r;
    x->text = b->str;
    x->thread = th;
    x->script = th->script;
    x->scope = jt_thread_scope(th);
    uint32_t gen = x->gen;
    if (o.mood) {  /* the mood applies from the line's start */
        stage *st = stage_of(c);
        if (st) {
            st->mood = o.mood;
            st->mood_t = now;
        }
    }
    talk(d, c, 1, now);
    if (!(s > 0)) {
        if (i < d->nit && d->it[i].alive && d->it[i].gen == gen) end_line(d, i, now);
        return R_CONTINUE;
    }
    th->nowned = 0;
    jt_thread_own(th, 2, i, gen);
    return jt_thread_wait(d->rt, th, now + s);  /* the block waits exactly that long */
}

static double offstage(jt_director *d, int side, double h)
{
    double a = d->rt->def.aspect;
    switch (side) {
    case SIDE_LEFT: return -(0.02 + h / a);
    case SIDE_RIGHT: return 1 + 0.02 + h / a;
    case SIDE_TOP: return -0.02;
    default: return 1 + h + 0.02;
    }
}

static int exec_glide(jt_director *d, jt_thread *th, const jt_block *b, double now)
{
    jt_character *c = who_char(d, b);
    if (!c) return R_ERR;
    stage *s = stage_of(c);
    if (!s) return jt_fail(d->rt, JT_ERR_MEMORY, "out of memory"), R_ERR;
    double over, val[4] = {0, 0, 0, 0};
    if (eval(d, b, &b->v[PV_OVER], now, &over) < 0) return R_ERR;
    for (int v = 0; v < 4; v++)
        if ((b->mask & (SM_X << v)) && eval(d, b, &b->v[v], now, &val[v]) < 0) return R_ERR;
    double cur[4];
    for (int v = 0; v < 4; v++) cur[v] = stage_value(d->rt, d, c, v, now);
    int32_t r = new_record(d, b->op == OP_PLACE ? REC_PLACE : b->op == OP_ENTER ? REC_ENTER : REC_EXIT, now);
    int32_t i = new_item(d, IT_GLIDE);
    if (r < 0 || i < 0) return jt_fail(d->rt, JT_ERR_MEMORY, "out of memory"), R_ERR;
    record *rc = &d->rec[r];
    rc->who = b->who;
    item *x = &d->it[i];
    x->op = b->op;
    x->who = c->index;
    x->t0 = now;
    x->end = over > 0 ? now + over : now;
    x->total = over > 0 ? over : 0;
    x->rec = r;
    x->thread = th;
    x->script = th->script;
    x->scope = jt_thread_scope(th);
    uint32_t gen = x->gen;
    s->visible = 1;
    if (b->op == OP_PLACE) {
        rc->mask = b->mask & (SM_X | SM_Y | SM_H | SM_FACING);
        for (int v = 0; v < 4; v++)
            if (b->mask & (SM_X << v)) {
                rc->n[v] = val[v];
                x->vserial[v] = set_value(d, c, v, cur[v], val[v], now, over, b->ease);
            }
        for (int v = 0; v < 2; v++)  /* place with x / y sets a new spot */
            if (b->mask & (SM_X << v)) {
                s->has_spot[v] = 1;
                s->spot[v] = val[v];
            }
    } else if (b->op == OP_ENTER) {
        rc->c = SIDE_NAMES[b->aux];
        int axis = b->aux <= SIDE_RIGHT ? 0 : 1;
        double target[2];
        for (int v = 0; v < 2; v++) {  /* x / y given, else the spot an exit left, else where it is */
            if (b->mask & (SM_X << v)) target[v] = val[v];
            else if (s->has_spot[v]) target[v] = s->spot[v];
            else target[v] = cur[v];
        }
        double start[2] = {target[0], target[1]};
        start[axis] = offstage(d, b->aux, cur[2]);
        for (int v = 0; v < 2; v++) {
            x->vserial[v] = set_value(d, c, v, start[v], target[v], now, over, b->ease);
            if (b->mask & (SM_X << v)) {
                s->has_spot[v] = 1;
                s->spot[v] = val[v];
            }
        }
    } else {  /* exit: remember the spot on the axis it leaves by */
        rc->c = SIDE_NAMES[b->aux];
        int axis = b->aux <= SIDE_RIGHT ? 0 : 1;
        s->has_spot[axis] = 1;
        s->spot[axis] = cur[axis];
        x->vserial[axis] = set_value(d, c, axis, cur[axis], offstage(d, b->aux, cur[2]), now, over, b->ease);
    }
    rc->dur = x->total;
    if (!(over > 0)) {
        jt_owned o = {2, i, gen};
        jt_director_landed(d->inst, &o, now);
        return R_CONTINUE;
    }
    th->nowned = 0;
    jt_thread_own(th, 2, i, gen);
    return jt_thread_wait(d->rt, th, now + over);
}

int jt_director_exec(jt_runtime *rt, jt_thread *th, const jt_block *b, double now)
{
    jt_director *d = th->inst->director;
    if (!d) return jt_fail(rt, JT_ERR_RUN, "a scene block outside a scene"), R_ERR;
    switch (b->op) {
    case OP_SAY: return exec_say(d, th, b, now);
    case OP_DOES: return exec_does(d, th, b, now);
    case OP_CAPTION: {
        double forv = INFINITY;
        if ((b->mask & SM_FOR) && eval(d, b, &b->v[0], now, &forv) < 0) return R_ERR;
        int32_t r = new_record(d, REC_CAPTION, now);
        if (r < 0) return jt_fail(rt, JT_ERR_MEMORY, "out of memory"), R_ERR;
        d->rec[r].a = b->str;
        d->rec[r].dur = forv;
        uint64_t scope = jt_thread_scope(th);
        double end = now + forv;
        if (end == INFINITY) {  /* lasts until its scope ends: its record stays open until then */
            open_scope *o = find_open(d, scope, 1);
            if (o) {
                d->rec[r].next_open = o->head;
                o->head = r;
                o->count++;
            }
        }
        show_caption(d, b->str, now, end, end != INFINITY, scope, r);
        return R_CONTINUE;
    }
    case OP_CUT: {
        finish_record(d, d->cut_rec, now);
        apply_cut(d, b->mask & SM_PLACE ? b->str : NULL, b->mask & SM_MOOD ? b->str2 : NULL);
        int32_t r = new_record(d, REC_CUT, now);
        if (r < 0) return jt_fail(rt, JT_ERR_MEMORY, "out of memory"), R_ERR;
        d->rec[r].a = d->place;
        d->rec[r].b = d->grade;
        d->rec[r].dur = INFINITY;  /* until the next cut or the scene's end */
        d->cut_rec = r;
        return R_CONTINUE;
    }
    case OP_PLACE: case OP_ENTER: case OP_EXIT:
        return exec_glide(d, th, b, now);
    case OP_SMOOD: {
        jt_character *c = who_char(d, b);
        if (!c) return R_ERR;
        stage *s = stage_of(c);
        if (s) {
            s->mood = b->str;
            s->mood_t = now;
        }
        int32_t r = new_record(d, REC_MOOD, now);
        if (r < 0) return jt_fail(rt, JT_ERR_MEMORY, "out of memory"), R_ERR;
        d->rec[r].who = b->who;
        d->rec[r].c = b->str;
        return R_CONTINUE;
    }
    }
    return jt_fail(rt, JT_ERR_RUN, "unknown block"), R_ERR;
}

/* ---- scenes (§7.6) --------------------------------------------------------------------------------------- */

static int pinned_next(const jt_director *d) { return d->scene + 1 < d->prog->nscenes && !isnan(d->pins[d->scene + 1]); }

/* blocks a thread had not reached: a forever / while / until loop cut off is expected, not a loss */
static int unreached(const jt_thread *th)
{
    int n = 0;
    for (int32_t i = th->depth - 1; i >= 0; i--) {
        const jt_frame *f = &th->frames[i];
        if (f->kind == FR_LOOP && f->blk && f->blk->op != OP_REPEAT) return n;
        if (f->body) n += f->body->n - f->pc;
    }
    return n;
}

static const char *scene_name(const jt_director *d) { return d->prog->scenes[d->scene].name; }

static void collect_losses(jt_director *d, double now, int cause, const jt_thread *stopper)
{
    char a[64], b[64], t[40];
    if (cause == CAUSE_PIN && d->squeezed) {
        secs(now - d->pins[d->scene + 1], a, sizeof a);
        if (d->scene_t0 > d->pins[d->scene + 1]) {
            secs(d->scene_t0 - d->pins[d->scene + 1], a, sizeof a);
            loss(d, "it ran 0 s: the pin of \"%s\" had passed (it starts %s s late)",
                 d->prog->scenes[d->scene + 1].name, a);
        } else {
            loss(d, "it ran 0 s: the pin of \"%s\" came at its start", d->prog->scenes[d->scene + 1].name);
        }
    }
    jt_instance *in = d->inst;
    int stop_script = stopper ? stopper->script : -1;
    int nsc = d->prog->nscripts;
    for (int s = 0; s < nsc; s++) {  /* blocks not reached, per script */
        if (d->prog->scripts[s].ctr != d->scene || s == stop_script) continue;
        int n = 0;
        for (int32_t k = in->script_off[s]; k < in->script_off[s + 1]; k++)
            if (in->thr[k].status != TH_FREE) n += unreached(&in->thr[k]);
        if (n) {
            loss(d, "scripts.%d had not reached %d block%s", s, n, n == 1 ? "" : "s");
            d->loss_waiting = 1;
        }
    }
    for (int32_t i = 0; i < d->nit; i++) {
        item *x = &d->it[i];
        if (!x->alive) continue;
        const char *who = x->who >= 0 ? d->rt->chars[x->who]->id : "";
        if (x->kind == IT_LINE || x->kind == IT_GLIDE) {
            if (x->thread == stopper) continue;  /* the stopping thread means to stop there */
            double ran = now - x->t0;
            if (x->kind == IT_LINE) {
                if (x->end > now + EXACT) {
                    amounts(ran, x->total, a, b, sizeof a);
                    loss(d, "%s's line \"%.60s\" was cut off (%s of %s s spoken)", who, x->text, a, b);
                }
            } else if (x->end > now + EXACT) {
                amounts(ran, x->total, a, b, sizeof a);
                loss(d, "%s's %s was cut off (%s of %s s ran)%s", who, REC_NAMES[d->rec[x->rec].kind], a, b,
                     x->op == OP_EXIT ? ": it stays on stage" : ": it stays where it froze");
            } else if (x->end > now && x->op == OP_EXIT) {
                snprintf(t, sizeof t, "%.2g", x->end - now);  /* "5.6e-17" */
                loss(d, "%s's exit lands %s s after the scene ends (rounding): it stays on stage, out of frame", who, t);
            }
        } else if (x->has_for && x->end > now + EXACT) {  /* does … for, caption … for running past */
            if (cause == CAUSE_STOPALL && x->scope == d->scene_scope) continue;  /* reported when the scene ends */
            amounts(now - x->t0, x->total, a, b, sizeof a);
            if (x->kind == IT_DOES) loss(d, "%s does %.60s for %s s: %s s of it ran", who, x->text, b, a);
            else loss(d, "caption \"%.60s\" for %s s: shown %s s", x->text, b, a);
        }
    }
}

static void kill_scene_threads(jt_director *d, double now)
{
    jt_instance *in = d->inst;
    for (int s = 0; s < d->prog->nscripts; s++) jt_kill_thread(d->rt, &in->thr[in->script_off[s]], now);
}

static void emit_losses(jt_director *d, double now, int cause)
{
    if (!d->losslen) return;
    char t[40], p[40];
    secs(now - d->t0, t, sizeof t);
    if (cause == CAUSE_PIN) {
        secs(d->pins[d->scene + 1] - d->t0, p, sizeof p);
        dwarn(d, "scene \"%s\" ended at %s s, cut off by the pinned start of \"%s\" (at %s s): %s", scene_name(d), t,
              d->prog->scenes[d->scene + 1].name, p, d->loss);
    } else if (cause == CAUSE_STOPALL) {
        dwarn(d, "scene \"%s\" ended at %s s by \"stop all\": %s", scene_name(d), t, d->loss);
    } else if (d->loss_waiting) {
        dwarn(d, "scene \"%s\" ended at %s s with scripts waiting for an end that never comes: %s (pin the next scene "
                 "with at, or wait for a time)", scene_name(d), t, d->loss);
    } else {  /* only a caption or a does ... for that ran past: neither waits */
        dwarn(d, "scene \"%s\" ended at %s s: %s (a caption or a does does not wait: add a wait to hold the scene)",
              scene_name(d), t, d->loss);
    }
    d->losslen = 0;
    d->loss_waiting = 0;
}

static int push_timer(jt_director *d, double t, int kind, uint32_t gen)
{
    if (jt_push_event(d->rt, t, 0, EV_TIMER, d, d->inst, gen, kind, 0) < 0) {
        jt_fail(d->rt, JT_ERR_MEMORY, "out of memory");
        return -1;
    }
    return 0;
}

static int end_scene(jt_director *d, double now, int cause, const jt_thread *stopper)
{
    collect_losses(d, now, cause, stopper);
    kill_scene_threads(d, now);
    close_scope(d, d->scene_scope, now);
    finish_record(d, d->cut_rec, now);
    finish_record(d, d->scene_rec, now);
    d->cut_rec = -1;
    emit_losses(d, now, cause);
    d->timer_gen++;
    d->inst->root_scope = 0;
    if (d->scene + 1 < d->prog->nscenes) {
        d->state = D_BETWEEN;
        return push_timer(d, now, T_NEXT, d->timer_gen);
    }
    d->state = D_ENDED;
    d->end_t = now;
    d->scene = -1;
    return 0;
}

static int start_scene(jt_director *d, int k, double now)
{
    jt_runtime *rt = d->rt;
    jt_instance *in = d->inst;
    const jt_scene_def *sc = &d->prog->scenes[k];
    d->scene = k;
    d->state = D_RUNNING;
    d->scene_t0 = now;
    in->t_start = now;  /* tau: time since the scene started */
    in->dur = pinned_next(d) ? d->pins[k + 1] - now : INFINITY;
    d->scene_scope = rt->scope_next++;
    in->root_scope = d->scene_scope;
    d->squeezed = pinned_next(d) && d->pins[k + 1] <= now;
    apply_cut(d, sc->place, sc->mood);
    int32_t r = new_record(d, REC_SCENE, now);
    if (r < 0) return jt_fail(rt, JT_ERR_MEMORY, "out of memory"), -1;
    d->rec[r].a = sc->name;
    d->rec[r].b = d->place;
    d->rec[r].c = d->grade;
    d->rec[r].dur = INFINITY;  /* until it ends */
    d->scene_rec = r;
    int err = 0;
    if (!d->twin) jt_fire_hats(rt, NULL, HAT_SCENE, NULL, sc->name, now, &err);  /* behaviours hear the scene */
    if (err) return -1;
    d->timer_gen++;
    if (pinned_next(d) && push_timer(d, d->pins[k + 1] > now ? d->pins[k + 1] : now, T_PIN, d->timer_gen) < 0) return -1;
    for (int i = 0; i < sc->nscripts; i++) {
        d->scr[i] = sc->scripts[i];
        d->scr_in[i] = in;
    }
    if (jt_run_scripts(rt, d->scr_in, d->scr, sc->nscripts, now) < 0) return -1;
    return jt_director_check(rt, in, now);
}

/* After a director event: has the scene ended (every script ended or held, §7.1)? */
int jt_director_check(jt_runtime *rt, jt_instance *in, double now)
{
    (void)rt;
    jt_director *d = in->director;
    if (!d || d->state != D_RUNNING) return 0;
    for (int s = 0; s < d->prog->nscripts; s++) {
        if (d->prog->scripts[s].ctr != d->scene) continue;
        if (!jt_thread_held(&in->thr[in->script_off[s]])) return 0;
    }
    if (pinned_next(d) && d->pins[d->scene + 1] > now) {  /* it holds its stage until the pin */
        d->state = D_HOLDING;
        return 0;
    }
    return end_scene(d, now, CAUSE_END, NULL);
}

void jt_director_stop_all(jt_runtime *rt, jt_instance *in, jt_thread *th, double now)
{
    (void)rt;
    jt_director *d = in->director;
    if (!d || (d->state != D_RUNNING && d->state != D_HOLDING)) return;
    collect_losses(d, now, CAUSE_STOPALL, th);
    kill_scene_threads(d, now);
    if (pinned_next(d) && d->pins[d->scene + 1] > now) {  /* the stage holds until the pin */
        if (d->losslen) {
            char t[40], p[40];
            secs(now - d->t0, t, sizeof t);
            secs(d->pins[d->scene + 1] - d->t0, p, sizeof p);
            dwarn(d, "scene \"%s\" was stopped at %s s by \"stop all\" and held its stage until the pinned start of "
                     "\"%s\" at %s s: %s", scene_name(d), t, d->prog->scenes[d->scene + 1].name, p, d->loss);
            d->losslen = 0;
        }
        d->loss_waiting = 0;
        d->state = D_HOLDING;
        return;
    }
    end_scene(d, now, CAUSE_STOPALL, th);
}

int jt_director_timer_stale(const jt_event *e)
{
    const jt_director *d = e->ptr;
    int kind = e->aux & 3;
    if (kind == T_DOES) {
        int32_t i = e->aux >> 2;
        return i >= d->nit || !d->it[i].alive || d->it[i].gen != e->gen;
    }
    return d->timer_gen != e->gen;
}

int jt_director_timer(jt_runtime *rt, const jt_event *e)
{
    jt_director *d = e->ptr;
    double now = e->t;
    switch (e->aux & 3) {
    case T_DOES: {  /* a does … for ran its time */
        int32_t i = e->aux >> 2;
        stop_does(d, i, now);
        return 0;
    }
    case T_PIN:
        if (d->state == D_RUNNING || d->state == D_HOLDING) return end_scene(d, now, CAUSE_PIN, NULL);
        return 0;
    case T_FIRST:
        return start_scene(d, 0, now);
    default:
        if (d->state == D_BETWEEN) return start_scene(d, d->scene + 1, now);
        return 0;
    }
    (void)rt;
}

const char *jt_director_mood(jt_runtime *rt, jt_character *c, double *t)
{
    (void)rt;
    stage *s = c->stage;
    if (!s || !s->mood) return NULL;
    *t = s->mood_t;
    return s->mood;
}

/* ---- directors: create, plan, run ------------------------------------------------------------------------ */

static void director_free(jt_director *d)
{
    if (!d) return;
    for (int32_t i = 0; i < d->nit; i++) {  /* its behaviours run its programs (inline, packs): they go first */
        item *x = &d->it[i];
        if (!x->alive || x->kind != IT_DOES || !x->inst) continue;
        jt_instance *in = jt_find_instance(d->rt, x->inst);
        if (in) jt_instance_stop(d->rt, in);
        x->inst = 0;
    }
    if (d->inst) {
        jt_instance *in = d->inst;
        d->inst = NULL;
        in->director = NULL;
        jt_instance_stop(d->rt, in);
    }
    if (d->plan_rec != d->rec) free(d->plan_rec);
    free(d->rec);
    free(d->it);
    free(d->open);
    free(d->loss);
    for (int32_t i = 0; i < d->npacks; i++) {
        free(d->packs[i].key);
        free(d->packs[i].why);
        jt_program_free(d->packs[i].p);
    }
    free(d->packs);
    free(d->warned);
    for (int32_t i = 0; i < d->nmsgs; i++) free(d->msgs[i]);
    free(d->msgs);
    free(d->matched);
    free(d->pins);
    free(d->plan_ends);
    free(d->scr);
    free(d->scr_in);
    if (d->params) {
        for (int i = 0; i < d->nparams; i++) free((char *)d->params[i].name);
        free(d->params);
    }
    jt_program_free(d->prog);
    free(d);
}

void jt_director_free(jt_runtime *rt)
{
    director_free(rt->dir);
    rt->dir = NULL;
    for (int32_t i = 0; i < rt->nwarnings; i++) free(rt->warnings[i]);
    free(rt->warnings);
    rt->warnings = NULL;
    rt->nwarnings = 0;
    jt_strtab_free(&rt->speech_keys);
    free(rt->speech_s);
    rt->speech_s = NULL;
}

/* Every character gets a fresh stage: nobody placed, no moods (§7.7). */
static void fresh_stage(jt_runtime *rt)
{
    for (int32_t i = 0; i < rt->nchars; i++) {
        stage *s = stage_of(rt->chars[i]);
        if (s) memset(s, 0, sizeof *s);
    }
}

/* A director for program p on rt (not started); p is owned by it. */
static jt_director *director_new(jt_runtime *rt, jt_program *p, const jt_param *params, int nparams, int twin)
{
    jt_director *d = calloc(1, sizeof *d);
    if (!d) return NULL;
    d->rt = rt;
    d->prog = p;
    d->twin = twin;
    d->scene = -1;
    d->cut_rec = d->scene_rec = -1;
    d->duration = NAN;
    d->grade = NORMAL;
    d->pins = calloc((size_t)p->nscenes + 1, sizeof *d->pins);
    d->scr = calloc((size_t)p->nscripts + 1, sizeof *d->scr);
    d->scr_in = calloc((size_t)p->nscripts + 1, sizeof *d->scr_in);
    d->params = calloc((size_t)nparams + 1, sizeof *d->params);
    if (!d->pins || !d->scr || !d->scr_in || !d->params) {
        free(d->pins);
        free(d->scr);
        free(d->scr_in);
        free(d->params);
        free(d);
        return NULL;
    }
    for (int i = 0; i < nparams; i++) {
        d->params[i].name = strdup(params[i].name);
        d->params[i].value = params[i].value;
        d->nparams++;
    }
    return d;
}

/* begin: the director instance, the pins, the cast's at, the first scene (or its pin) */
static int director_begin(jt_director *d, double t0)
{
    jt_runtime *rt = d->rt;
    jt_instance *in = jt_instance_new(rt, NULL, d->prog, INFINITY, d->params, d->nparams);
    if (!in) return -1;
    in->director = d;
    if (jt_attach(rt, in) < 0) {
        in->director = NULL;
        jt_instance_stop(rt, in);
        jt_fail(rt, JT_ERR_MEMORY, "out of memory");
        return -1;
    }
    d->inst = in;
    d->t0 = t0;
    in->t_start = t0;
    rt->now = t0;
    for (int k = 0; k < d->prog->nscenes; k++) {  /* pins: seconds from the cartoon's start */
        const jt_scene_def *sc = &d->prog->scenes[k];
        d->pins[k] = NAN;
        if (!sc->has_at) continue;
        double at;
        jt_env env;
        jt_make_env(rt, in, NULL, t0, 0, &env);
        if (jt_value_eval(d->prog, &sc->at, &env, &at) < 0) {
            char msg[sizeof rt->err];
            snprintf(msg, sizeof msg, "%s", rt->err);
            jt_fail(rt, JT_ERR_RUN, "scene \"%.60s\" at: %.400s", sc->name, msg);
            return -1;
        }
        d->pins[k] = isnan(at) ? NAN : t0 + at;
    }
    for (int i = 0; i < d->prog->ncast; i++) {  /* a cast entry's at: visible from the start */
        const jt_cast *ce = &d->prog->cast[i];
        if (!ce->at_mask) continue;
        jt_character *c = jt_find_char(rt, ce->id);
        stage *s = c ? stage_of(c) : NULL;
        if (!s) continue;
        for (int v = 0; v < 4; v++) {
            if (!(ce->at_mask & (SM_X << v))) continue;
            double x;
            jt_env env;
            jt_make_env(rt, in, NULL, t0, 0, &env);
            if (jt_value_eval(d->prog, &ce->at[v], &env, &x) < 0) {
                char msg[sizeof rt->err];
                snprintf(msg, sizeof msg, "%s", rt->err);
                jt_fail(rt, JT_ERR_RUN, "cast.%.60s.at: %.400s", ce->id, msg);
                return -1;
            }
            set_value(d, c, v, x, x, t0, 0, 0);
        }
        s->visible = 1;
    }
    if (!d->prog->nscenes) {
        d->state = D_ENDED;
        d->end_t = t0;
        return 0;
    }
    if (!isnan(d->pins[0]) && d->pins[0] > t0) {
        d->state = D_WAITING;
        return push_timer(d, d->pins[0], T_FIRST, d->timer_gen);
    }
    return start_scene(d, 0, t0);
}

static int running(const jt_director *d) { return d && d->state != D_ENDED && d->state != D_IDLE; }
int jt_cartoon_running(const jt_runtime *rt) { return running(rt->dir); }
double jt_cartoon_duration(const jt_runtime *rt) { return rt->dir ? rt->dir->duration : NAN; }

static int add_cast(jt_runtime *rt, const jt_program *p)
{
    for (int i = 0; i < p->ncast; i++)
        if (jt_character_index(rt, p->cast[i].id) < 0 && jt_add_character(rt, p->cast[i].id, p->cast[i].legs) != JT_OK)
            return -1;
    return 0;
}

/* §7.7 the plan: the director alone on a twin runtime, stepped on t0 + k/fps up to max_duration */
static int plan(jt_runtime *rt, const char *json, size_t len, const jt_param *params, int nparams, jt_director **out)
{
    *out = NULL;
    jt_diags *dg = NULL;
    jt_program *p = jt_program_load(json, len, &dg);
    if (!p) {
        int n = jt_diags_count(dg);
        char msg[500] = "";
        for (int i = 0, used = 0; i < n && used < 400; i++) {
            const jt_diag *g = jt_diags_get(dg, i);
            if (!g->error) continue;
            used += snprintf(msg + used, sizeof msg - (size_t)used, "%s%s", used ? "; " : "", g->message);
        }
        jt_diags_free(dg);
        return jt_fail(rt, JT_ERR_INVALID, "invalid program: %s", msg), -1;
    }
    jt_diags_free(dg);
    if (p->kind == 0) {
        jt_program_free(p);
        return jt_fail(rt, JT_ERR_ARGUMENT, "start_cartoon runs a scene or a cartoon, not a behaviour"), -1;
    }
    jt_runtime *tw = jt_runtime_create(&rt->def);
    if (!tw) {
        jt_program_free(p);
        return jt_fail(rt, JT_ERR_MEMORY, "out of memory"), -1;
    }
    tw->twin = 1;
    tw->t = rt->t;
    tw->drng = rt->drng;  /* the director's stream as it stands: the run draws the same */
    for (int32_t g = 0; g < rt->gnames.n; g++)  /* page globals as they are now */
        if (rt->gset[g]) jt_global_set(tw, rt->gnames.keys[g], rt->gval[g]);
    for (int32_t i = 0; i < rt->nchars; i++) jt_add_character(tw, rt->chars[i]->id, rt->chars[i]->legs);
    for (int32_t k = 0; k < rt->speech_keys.n; k++) {  /* the answers already given */
        int added;
        int32_t q = jt_strtab_intern(&tw->speech_keys, rt->speech_keys.keys[k], &added);
        if (q >= 0 && jt_grow((void **)&tw->speech_s, &tw->capspeech, tw->speech_keys.n, sizeof *tw->speech_s) == 0)
            tw->speech_s[q] = rt->speech_s[k];
    }
    int ok = add_cast(tw, p) == 0;
    jt_director *d = ok ? director_new(tw, p, params, nparams, 1) : NULL;
    if (!d) {
        jt_program_free(p);
        jt_runtime_free(tw);
        return jt_fail(rt, JT_ERR_MEMORY, "out of memory"), -1;
    }
    tw->dir = d;
    double t0 = rt->t, fps = rt->def.fps;
    int r = director_begin(d, t0);
    if (r == 0) r = jt_run_due(tw, t0);
    for (int64_t k = 1; r == 0 && running(d); k++) {
        double T = t0 + (double)k / fps;
        if (T - t0 > rt->def.max_duration) break;
        if (jt_step_to(tw, T) != JT_OK) r = -1;
    }
    if (r < 0) {
        jt_fail(rt, JT_ERR_RUN, "%s", tw->err);
        jt_runtime_free(tw);  /* the plan's speech answers and warnings go with it */
        return -1;
    }
    /* what the run needs: the records, the duration, the scene ends, the warnings, answers, packs */
    d->duration = d->state == D_ENDED ? d->end_t - t0 : NAN;
    tw->dir = NULL;
    jt_instance *tin = d->inst;
    if (tin) {
        d->inst = NULL;
        tin->director = NULL;
        jt_instance_stop(tw, tin);
    }
    for (int32_t k = 0; k < tw->speech_keys.n; k++) {
        int added;
        int32_t q = jt_strtab_intern(&rt->speech_keys, tw->speech_keys.keys[k], &added);
        if (q >= 0 && jt_grow((void **)&rt->speech_s, &rt->capspeech, rt->speech_keys.n, sizeof *rt->speech_s) == 0)
            rt->speech_s[q] = tw->speech_s[k];
    }
    jt_runtime_free(tw);
    d->rt = rt;
    *out = d;
    return 0;
}

/* the scene ends of the plan, scene by scene */
static double *scene_ends(const jt_director *d)
{
    double *e = calloc((size_t)d->prog->nscenes + 1, sizeof *e);
    if (!e) return NULL;
    for (int k = 0; k < d->prog->nscenes; k++) e[k] = NAN;
    int k = 0;
    for (int32_t i = 0; i < d->nrec && k < d->prog->nscenes; i++)
        if (d->rec[i].kind == REC_SCENE) e[k++] = d->rec[i].t + d->rec[i].dur;
    return e;
}

jt_status jt_start_cartoon(jt_runtime *rt, const char *json, size_t len, const jt_param *params, int nparams,
                           double *duration)
{
    if (duration) *duration = NAN;
    if (rt->twin) return jt_fail(rt, JT_ERR_ARGUMENT, "the plan's twin runs no cartoon");
    if (running(rt->dir)) return jt_fail(rt, JT_ERR_ARGUMENT, "a cartoon is running: one at a time (§7.7)");
    char err[300];
    char *merged = jt_cartoon_program(json, len, err, sizeof err);
    if (!merged) return jt_fail(rt, JT_ERR_INVALID, "invalid program: %s", err);
    jt_director *pl = NULL;
    int r = plan(rt, merged, strlen(merged), params, nparams, &pl);
    if (r < 0) {
        free(merged);
        return strstr(rt->err, "invalid program") ? JT_ERR_INVALID : strstr(rt->err, "not a behaviour") ? JT_ERR_ARGUMENT : JT_ERR_RUN;
    }
    /* the plan's warnings are the runtime's now (also if the run fails) */
    for (int32_t i = 0; i < pl->nmsgs; i++) rt_warning(rt, pl->msgs[i]);
    /* the run: the cast joins, a fresh stage, the same program (the plan's records point into it) */
    free(merged);
    double *ends = scene_ends(pl);
    jt_program *p = pl->prog;
    jt_director *d = director_new(rt, p, params, nparams, 0);
    if (d) pl->prog = NULL;
    if (!d || !ends || add_cast(rt, p) < 0) {
        free(ends);
        if (d) director_free(d);
        director_free(pl);
        return jt_fail(rt, JT_ERR_MEMORY, "out of memory");
    }
    d->plan_rec = pl->rec;
    d->nplan_rec = pl->nrec;
    d->duration = pl->duration;
    d->plan_ends = ends;
    d->msgs = pl->msgs;
    d->nmsgs = pl->nmsgs;
    d->matched = calloc((size_t)pl->nmsgs + 1, 1);
    d->packs = pl->packs;
    d->npacks = pl->npacks;
    d->cappacks = pl->cappacks;
    pl->rec = NULL;
    pl->msgs = NULL;
    pl->nmsgs = 0;
    pl->packs = NULL;
    pl->npacks = 0;
    director_free(pl);
    jt_director *old = rt->dir;
    fresh_stage(rt);
    rt->dir = d;
    double t0 = rt->t;
    r = director_begin(d, t0);
    if (r == 0) r = jt_run_due(rt, t0);
    if (r < 0) {  /* what the failed cartoon started is stopped; the runtime has the cartoon it had */
        char msg[sizeof rt->err];
        snprintf(msg, sizeof msg, "%s", rt->err);
        for (int32_t i = 0; i < d->nit; i++)
            if (d->it[i].alive && d->it[i].kind == IT_DOES) stop_does(d, i, t0);
        rt->dir = old;
        director_free(d);
        snprintf(rt->err, sizeof rt->err, "%s", msg);
        return JT_ERR_RUN;
    }
    director_free(old);
    if (duration) *duration = d->duration;
    return JT_OK;
}

/* ---- cartoonProgram (§7.1) --------------------------------------------------------------------------------- */

char *jt_cartoon_program(const char *json, size_t len, char *err, size_t errcap)
{
    cJSON *root = cJSON_ParseWithLength(json, len);
    if (!root) {
        snprintf(err, errcap, "not JSON (or nested deeper than %d levels)", CJSON_NESTING_LIMIT);
        return NULL;
    }
    cJSON *content = root;
    if (cJSON_IsObject(root) && !jt_get(root, "scripts") && cJSON_IsObject(jt_get(root, "content")))
        content = jt_get(root, "content");  /* a whole pack */
    cJSON *prog = cJSON_IsObject(content) && !jt_get(content, "scripts") ? jt_get(content, "program") : NULL;
    char *out;
    if (cJSON_IsObject(prog)) {  /* {cast?, places?, program}: the outer cast and places merged into the program */
        cJSON *merged = cJSON_Duplicate(prog, 1);
        for (int w = 0; w < 2 && merged; w++) {
            const char *field = w ? "places" : "cast";
            cJSON *outer = jt_get(content, field);
            if (!cJSON_IsObject(outer)) continue;
            cJSON *inner = jt_get(merged, field);
            if (!cJSON_IsObject(inner)) {
                cJSON_DeleteItemFromObjectCaseSensitive(merged, field);
                inner = cJSON_AddObjectToObject(merged, field);
            }
            for (cJSON *c = outer->child; c && inner; c = c->next) {  /* {...program.cast, ...content.cast} */
                cJSON *dup = cJSON_Duplicate(c, 1);
                if (!dup) continue;
                if (cJSON_GetObjectItemCaseSensitive(inner, c->string)) cJSON_ReplaceItemInObjectCaseSensitive(inner, c->string, dup);
                else cJSON_AddItemToObject(inner, c->string, dup);
            }
        }
        out = merged ? jt_json_print(merged) : NULL;
        cJSON_Delete(merged);
    } else {
        out = jt_json_print(content);
    }
    cJSON_Delete(root);
    if (!out) snprintf(err, errcap, "out of memory");
    return out;
}

/* ---- reading: timeline, warnings, the stage ------------------------------------------------------------------ */

int jt_timeline_count(const jt_runtime *rt) { return rt->dir ? rt->dir->nplan_rec : 0; }
int jt_run_timeline_count(const jt_runtime *rt) { return rt->dir ? rt->dir->nrec : 0; }

static void record_view(const record *r, jt_record_view *o);

int jt_timeline_get(const jt_runtime *rt, int i, jt_record_view *o)
{
    if (!rt->dir || i < 0 || i >= rt->dir->nplan_rec) return -1;
    record_view(&rt->dir->plan_rec[i], o);
    return 0;
}

int jt_run_timeline_get(const jt_runtime *rt, int i, jt_record_view *o)
{
    if (!rt->dir || i < 0 || i >= rt->dir->nrec) return -1;
    record_view(&rt->dir->rec[i], o);
    return 0;
}

static void record_view(const record *r, jt_record_view *o)
{
    memset(o, 0, sizeof *o);
    o->kind = REC_NAMES[r->kind];
    o->t = r->t;
    o->dur = r->dur;
    o->who = r->who;
    switch (r->kind) {
    case REC_SCENE: o->name = r->a; o->place = r->b; o->grade = r->c; break;
    case REC_SAY:
        o->text = r->a; o->voice = r->b; o->mood = r->c;
        o->has_speed = (r->mask & SM_SPEED) != 0;
        o->has_pitch = (r->mask & SM_PITCH) != 0;
        o->speed = r->n[0];
        o->pitch = r->n[1];
        break;
    case REC_DOES: o->behaviour = r->a; o->also = r->also; break;
    case REC_CAPTION: o->text = r->a; break;
    case REC_CUT: o->place = r->a; o->grade = r->b; break;
    case REC_PLACE:
        o->has_x = (r->mask & SM_X) != 0; o->has_y = (r->mask & SM_Y) != 0;
        o->has_h = (r->mask & SM_H) != 0; o->has_facing = (r->mask & SM_FACING) != 0;
        o->x = r->n[0]; o->y = r->n[1]; o->h = r->n[2]; o->facing = r->n[3];
        break;
    case REC_ENTER: case REC_EXIT: o->side = r->c; break;
    default: o->mood = r->c; break;
    }
}

int jt_warning_count(const jt_runtime *rt) { return rt->nwarnings; }
const char *jt_warning_get(const jt_runtime *rt, int i) { return i >= 0 && i < rt->nwarnings ? rt->warnings[i] : NULL; }

jt_status jt_stage_read(jt_runtime *rt, jt_stage_view *o)
{
    jt_director *d = rt->dir;
    memset(o, 0, sizeof *o);
    o->t = rt->t;
    o->grade = NORMAL;
    if (!d) return JT_OK;
    o->scene = d->scene >= 0 && (d->state == D_RUNNING || d->state == D_HOLDING) ? scene_name(d) : NULL;
    o->place = d->place;
    o->background = d->background;
    o->grade = d->grade ? d->grade : NORMAL;
    /* the latest-started caption still showing: a caption block or a line (a frame pops what ended) */
    const item *best = NULL;
    for (int32_t i = 0; i < d->nit; i++) {
        item *x = &d->it[i];
        if (!x->alive) continue;
        if (x->kind == IT_CAPTION && x->end <= rt->t) {
            drop_item(d, i);
            continue;
        }
        if ((x->kind == IT_CAPTION || (x->kind == IT_LINE && x->end > rt->t)) && (!best || x->order > best->order))
            best = x;
    }
    o->caption = best ? best->text : NULL;
    return JT_OK;
}

jt_status jt_placement_read(jt_runtime *rt, int index, jt_placement *o)
{
    if (index < 0 || index >= rt->nchars) return jt_fail(rt, JT_ERR_ARGUMENT, "unknown character");
    jt_character *c = rt->chars[index];
    jt_director *d = rt->dir;
    for (int v = 0; v < 4; v++) {
        double x = stage_value(rt, d, c, v, rt->t);
        if (v == 0) o->x = x;
        else if (v == 1) o->y = x;
        else if (v == 2) o->h = x;
        else o->facing = x;
    }
    stage *s = c->stage;
    o->visible = d ? (s && s->visible) : 1;  /* without a cartoon, everyone at the default placement */
    o->talking = c->talking != 0;
    return JT_OK;
}

void jt_director_stats_read(const jt_runtime *rt, jt_director_stats *o)
{
    memset(o, 0, sizeof *o);
    o->queue = rt->nev;
    const jt_director *d = rt->dir;
    if (!d) return;
    for (int32_t i = 0; i < d->nit; i++)
        if (d->it[i].alive) {
            o->live_items++;
            o->displayed_captions += d->it[i].kind == IT_CAPTION;
        }
    o->open_scopes = d->nopen;
    for (int32_t i = 0; i < d->nopen; i++) o->open_records += d->open[i].count;
}
