/* load.c: §1 program JSON, validated (§1, §2, §4, §5, §8.6) and compiled in
** one pass: every message carries a dotted path ("scripts.0.body.2.ch:
** ..."); friendly blocks (§4, §8) are desugared into the primitive blocks of
** §3 as they are read; every "=formula" is compiled once (expr.c).  Scene
** blocks, cast and places are load_scene.c's. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../jsnum.h"
#include "load.h"

const char *jt_kind_name(int kind) { return kind == 0 ? "behaviour" : kind == 1 ? "scene" : "cartoon"; }

/* ---- paths and messages ------------------------------------------------------ */

size_t jt_path_push(loader *L, const char *fmt, ...)
{
    size_t mark = L->plen;
    char seg[300];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(seg, sizeof seg, fmt, ap);
    va_end(ap);
    if (n < 0) n = 0;
    if ((size_t)n >= sizeof seg) n = (int)sizeof seg - 1;
    size_t need = L->plen + (size_t)n + 2;
    if (need > L->pcap) {
        size_t c = L->pcap ? L->pcap * 2 : 256;
        while (c < need) c *= 2;
        char *np = realloc(L->path, c);
        if (!np) { L->oom = 1; return mark; }
        L->path = np;
        L->pcap = c;
    }
    if (L->plen) L->path[L->plen++] = '.';
    memcpy(L->path + L->plen, seg, (size_t)n);
    L->plen += (size_t)n;
    L->path[L->plen] = 0;
    return mark;
}

void jt_path_pop(loader *L, size_t mark)
{
    L->plen = mark;
    if (L->path) L->path[mark] = 0;
}

static void vdiag(loader *L, int error, const char *field, const char *fmt, va_list ap)
{
    char text[512];
    vsnprintf(text, sizeof text, fmt, ap);
    size_t mark = field ? jt_path_push(L, "%s", field) : L->plen;
    if (jt_diag_add(L->d, error, L->path ? L->path : "", "%s", text) < 0) L->oom = 1;
    jt_path_pop(L, mark);
}

void jt_err(loader *L, const char *field, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vdiag(L, 1, field, fmt, ap);
    va_end(ap);
}

void jt_warn(loader *L, const char *field, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vdiag(L, 0, field, fmt, ap);
    va_end(ap);
}

int32_t jt_path_here(loader *L)
{
    if (jt_grow((void **)&L->paths, &L->cappaths, L->npaths + 1, sizeof *L->paths) < 0) { L->oom = 1; return -1; }
    L->paths[L->npaths] = jt_strdup(L, L->path ? L->path : "");
    return L->npaths++;
}

void *jt_alloc(loader *L, size_t n)
{
    void *p = ob_arena_alloc(&L->p->arena, n ? n : 1);
    if (!p) L->oom = 1;
    return p;
}

char *jt_strdup(loader *L, const char *s)
{
    char *c = ob_arena_strdup(&L->p->arena, s ? s : "");
    if (!c) L->oom = 1;
    return c;
}

jt_block *jt_push(loader *L, bvec *out, const jt_block *b)
{
    if (jt_grow((void **)&out->v, &out->cap, out->n + 1, sizeof *out->v) < 0) { L->oom = 1; return NULL; }
    out->v[out->n] = *b;
    L->nblocks++;
    return &out->v[out->n++];
}

/* A short JSON rendering of a node for messages. */
static void show(const cJSON *v, char *buf, size_t cap)
{
    if (!v) { snprintf(buf, cap, "nothing"); return; }
    char *t = cJSON_PrintUnformatted(v);
    if (!t) { snprintf(buf, cap, "?"); return; }
    if (strlen(t) > 40) snprintf(buf, cap, "%.37s...", t);
    else snprintf(buf, cap, "%s", t);
    free(t);
}

static int absent(const cJSON *v) { return !v || cJSON_IsNull(v); }

/* ---- values ------------------------------------------------------------------ */

static void name_warnings(loader *L, const char *field)
{
    if (L->quiet) return;
    for (int32_t i = 0; i < L->b.nused; i++) {
        const char *n = L->b.names.keys[L->b.used[i]];
        if (jt_strtab_find(&L->paramtab, n) >= 0) continue;
        int32_t v = jt_strtab_find(&L->vartab, n);
        if (v >= 0 && v < L->ndeclared) continue;
        if (!strcmp(n, "dt"))
            jt_warn(L, field, "there is no dt (a value never depends on the step, §5): \"dt\" must be a param, a var or a page global");
        else
            jt_warn(L, field, "unknown name \"%s\": not a built-in, a param or a var (the page must set it in rt.vars)", n);
    }
}

static int compile_text(loader *L, const char *field, const char *text, jt_value *out)
{
    char msg[200];
    int e = jt_expr_compile(&L->b, text, strlen(text), msg, sizeof msg);
    if (e < 0) {
        jt_err(L, field, "%s in \"%.60s\"", msg, text);
        return -1;
    }
    out->expr = e;
    out->k = 0;
    name_warnings(L, field);
    if (L->kind != 0 && (L->b.exprs[e].uses & JT_USE_INPUT) && !L->quiet)
        jt_warn(L, field, "loud and talking belong to characters: a scene reads 0");
    return 0;
}

int jt_val_node(loader *L, const cJSON *v, const char *field, double dflt, jt_value *out)
{
    out->expr = -1;
    out->k = dflt;
    if (absent(v)) return 0;
    if (cJSON_IsNumber(v)) {
        out->k = v->valuedouble;
        return 1;
    }
    if (cJSON_IsString(v) && v->valuestring[0] == '=') return compile_text(L, field, v->valuestring + 1, out) < 0 ? -1 : 1;
    char s[64];
    show(v, s, sizeof s);
    jt_err(L, field, "expected a number or a \"=formula\", got %s", s);
    return -1;
}

int jt_val(loader *L, const cJSON *b, const char *field, double dflt, jt_value *out)
{
    return jt_val_node(L, jt_get(b, field), field, dflt, out);
}

static jt_value derive(loader *L, jt_value v, const int *ops, const double *ks, int n)
{
    int e = jt_expr_derive(&L->b, v.expr, ops, ks, n);
    if (e < 0) L->oom = 1;
    return (jt_value){0, e < 0 ? v.expr : e};
}

static jt_value vneg(loader *L, jt_value v)  /* "=-(x)" */
{
    if (v.expr < 0) return (jt_value){-v.k, -1};
    int op = X_NEG;
    return derive(L, v, &op, NULL, 1);
}

static jt_value vmul(loader *L, jt_value v, double k)  /* "=(x) * <String(k)>" */
{
    if (v.expr < 0) return (jt_value){v.k * k, -1};
    int ops[2] = {X_CONST, X_MUL};
    double ks[2] = {k, 0};
    return derive(L, v, ops, ks, 2);
}

static jt_value vdiv(loader *L, jt_value v, double n)  /* §8.2 "=(x) / n" */
{
    if (v.expr < 0) return (jt_value){v.k / n, -1};
    int ops[2] = {X_CONST, X_DIV};
    double ks[2] = {n, 0};
    return derive(L, v, ops, ks, 2);
}

static jt_value vone(loader *L, jt_value v, int sign)  /* squash: 1 + k, 1 - k (= -k + 1 exactly) */
{
    if (v.expr < 0) return (jt_value){sign > 0 ? 1 + v.k : 1 - v.k, -1};
    int ops[3] = {X_NEG, X_CONST, X_ADD};
    double ks[3] = {0, 1, 0};
    return sign > 0 ? derive(L, v, ops + 1, ks + 1, 2) : derive(L, v, ops, ks, 3);
}

static jt_value vcountback(loader *L, jt_value v)  /* §4 window: negative times count back from dur */
{
    if (v.expr < 0) {
        if (!(v.k < 0)) return v;
        char text[64];
        ob_js_to_string(v.k, text + 6, sizeof text - 6);
        memcpy(text, "dur + ", 6);
        int q = L->quiet;
        L->quiet = 1;
        jt_value out = v;
        compile_text(L, NULL, text, &out);
        L->quiet = q;
        return out;
    }
    int op = X_COUNTBACK;
    return derive(L, v, &op, NULL, 1);
}

const char *jt_str(loader *L, const cJSON *b, const char *field, int must)
{
    const cJSON *v = jt_get(b, field);
    if (absent(v)) {
        if (must) jt_err(L, field, "is required");
        return NULL;
    }
    if (!cJSON_IsString(v)) {
        char s[64];
        show(v, s, sizeof s);
        jt_err(L, field, "expected a text, got %s", s);
        return NULL;
    }
    return v->valuestring;
}

static int enum_field(loader *L, const cJSON *b, const char *field, const char *const *names, int n, int dflt)
{
    const cJSON *v = jt_get(b, field);
    if (absent(v)) return dflt;
    if (cJSON_IsString(v))
        for (int i = 0; i < n; i++)
            if (!strcmp(v->valuestring, names[i])) return i;
    char s[64];
    show(v, s, sizeof s);
    char list[200] = "";
    for (int i = 0; i < n; i++) {
        strncat(list, names[i], sizeof list - strlen(list) - 1);
        if (i + 1 < n) strncat(list, " ", sizeof list - strlen(list) - 1);
    }
    jt_err(L, field, "unknown %s %s (one of: %s)", field, s, list);
    return dflt;
}

static const char *const EASES[] = {"smooth", "linear", "in", "out", "snappy", "inout"};
static int ease_field(loader *L, const cJSON *b)
{
    int e = enum_field(L, b, "ease", EASES, 6, EASE_SMOOTH);
    return e == 5 ? EASE_SMOOTH : e;
}
static const char *const SHAPES[] = {"sin", "cos", "abssin", "possin", "dampsin", "square", "saw", "tri"};
static const char *const SYNCS[] = {"local", "start"};
static const char *const CLIPS[] = {"none", "pos", "neg"};
static const char *const VIEWS[] = {"front", "side", "back"};
static const char *const SPOTS[] = {"hip", "head", "chest", "mouth"};

/* A number as written (not a formula): 1 and *out, else 0. */
static int written(const cJSON *b, const char *field, double *out)
{
    const cJSON *v = jt_get(b, field);
    if (!cJSON_IsNumber(v)) return 0;
    *out = v->valuedouble;
    return 1;
}

/* ---- channels ----------------------------------------------------------------- */

static int32_t intern_channel(loader *L, const jt_part *pt)
{
    char name[96];
    jt_channel_format(pt, name, sizeof name);
    int added;
    int32_t i = jt_strtab_intern(&L->chtab, name, &added);
    if (i < 0) { L->oom = 1; return 0; }
    if (added) {
        if (jt_grow((void **)&L->chans, &L->capchans, L->chtab.n, sizeof *L->chans) < 0) { L->oom = 1; return 0; }
        L->chans[i].name = jt_strdup(L, name);
        L->chans[i].part = *pt;
    }
    return i;
}

#define CH_ALLOW_MOOD 1

static void undrawn_warning(loader *L, const char *field, const char *role, const char *what)
{
    if (jt_role_undrawn(role))
        jt_warn(L, field, "no character draws a %s, so %s moves nothing (v0.4.1)", role, what);
}

/* §2: a raw channel of a primitive block (node v, reported at field); -1 when invalid. */
static int32_t channel_node(loader *L, const cJSON *v, const char *field, int flags, jt_part *out)
{
    if (absent(v)) { jt_err(L, field, "is required"); return -1; }
    if (!cJSON_IsString(v)) { jt_err(L, field, "a channel is a text"); return -1; }
    const char *s = v->valuestring;
    jt_part pt;
    if (jt_channel_parse(s, &pt) < 0) {
        jt_err(L, field, "unknown channel \"%.60s\" (dx dy sx sy rot mouth blink mood, part:<role>[:<side>][#<index>], lift:...)", s);
        return -1;
    }
    if (pt.kind == CH_MOOD && !(flags & CH_ALLOW_MOOD)) {
        jt_err(L, field, "mood is not a number (set it with set {ch: \"mood\", to: \"name\"})");
        return -1;
    }
    if (pt.kind >= CH_PART) {
        if (!jt_role_known(pt.role)) jt_warn(L, field, "nothing draws \"%s\": %s is not a role a template has", s, pt.role);
        else undrawn_warning(L, field, pt.role, s);
    }
    if (out) *out = pt;
    return intern_channel(L, &pt);
}

static int32_t raw_channel(loader *L, const cJSON *b, const char *field, int flags, jt_part *out)
{
    return channel_node(L, jt_get(b, field), field, flags, out);
}

/* ---- friendly parts (§4) -------------------------------------------------------- */

typedef struct ptarget {
    jt_part ch;
    int sign;   /* the "lift outward" factor: -1 for a left part's angle */
} ptarget;

enum { PM_ANGLE, PM_LIFT, PM_CHAIN };

/* Resolves a part name into its targets (a side-less pair: both sides
** mirrored).  Returns the count (1 or 2), 0 when invalid (reported). */
static int part_targets(loader *L, const cJSON *b, const char *field, const char *dflt, int mode, ptarget out[2],
                        jt_part *named, const char *opname)
{
    const char *s = jt_str(L, b, field, dflt == NULL);
    if (!s) {
        if (!dflt) return 0;
        if (jt_get(b, field) && !absent(jt_get(b, field))) return 0;
        s = dflt;
    }
    jt_part w;
    if (jt_part_word(s, &w) < 0) {
        jt_err(L, field, "unknown part \"%.60s\"", s);
        return 0;
    }
    if (mode == PM_CHAIN) {
        if (w.kind == CH_LIFT) { jt_err(L, field, "%s bends a part: \"%.60s\" is a raise (lift:)", opname, s); return 0; }
        if (jt_role_chain(w.role) && w.index >= 0) {
            jt_err(L, field, "%s moves a whole chain: \"%.60s\" names one segment", opname, s);
            return 0;
        }
    }
    undrawn_warning(L, field, w.role, opname);
    if (named) *named = w;
    int kind = mode == PM_LIFT ? CH_LIFT : w.kind;
    int n = 0;
    if (w.side || !jt_role_paired(w.role)) {
        out[0].ch = w;
        out[0].ch.kind = kind;
        out[0].sign = kind == CH_PART && w.side < 0 ? -1 : 1;
        n = 1;
    } else {
        for (int s2 = 0; s2 < 2; s2++) {
            out[s2].ch = w;
            out[s2].ch.kind = kind;
            out[s2].ch.side = s2 ? 1 : -1;
            if (w.index >= 0) out[s2].ch.index = s2 ? (w.index | 1) : (w.index & ~1);
            out[s2].sign = kind == CH_PART && !s2 ? -1 : 1;
        }
        n = 2;
    }
    return n;
}

static jt_value signed_value(loader *L, jt_value v, int sign) { return sign < 0 ? vneg(L, v) : v; }

/* segments of a friendly chain block on role: n, or 1 for a part that is no chain */
static int chain_segments(loader *L, const cJSON *b, const char *role)
{
    int n = jt_role_chain(role);
    const cJSON *sv = jt_get(b, "segments");
    if (absent(sv)) return n ? n : 1;
    if (!cJSON_IsNumber(sv) || sv->valuedouble != floor(sv->valuedouble) || sv->valuedouble < 1 || sv->valuedouble > 16) {
        jt_err(L, "segments", "segments is a whole number 1-16");
        return n ? n : 1;
    }
    if (!n) {
        jt_warn(L, "segments", "%s is not a chain: it moves whole and segments is ignored", role);
        return 1;
    }
    return (int)sv->valuedouble;
}

/* ---- blocks -------------------------------------------------------------------- */

static jt_block blank(loader *L, int op)
{
    jt_block k;
    memset(&k, 0, sizeof k);
    k.op = (uint8_t)op;
    k.slot = -1;
    k.aux = -1;
    k.path = jt_path_here(L);
    return k;
}

static jt_value *vals(loader *L, int n)
{
    jt_value *v = jt_alloc(L, (size_t)n * sizeof *v);
    if (v)
        for (int i = 0; i < n; i++) v[i] = (jt_value){0, -1};
    return v;
}

static int32_t *chs(loader *L, int n) { return jt_alloc(L, (size_t)(n ? n : 1) * sizeof(int32_t)); }

static void glides(loader *L, int n)
{
    if (n > L->maxglides) L->maxglides = n;
}

/* w | hz | every (default every 1 s) */
/* w | hz | every; none given: every every_default, or hz_default when > 0 (shake) */
static void frequency(loader *L, const cJSON *b, jt_block *k, jt_value *w, double every_default, double hz_default)
{
    if (!absent(jt_get(b, "w"))) { k->wkind = W_W; jt_val(L, b, "w", 0, w); }
    else if (!absent(jt_get(b, "hz"))) { k->wkind = W_HZ; jt_val(L, b, "hz", 0, w); }
    else if (absent(jt_get(b, "every")) && hz_default > 0) { k->wkind = W_HZ; *w = (jt_value){hz_default, -1}; }
    else { k->wkind = W_EVERY; jt_val(L, b, "every", every_default, w); }
}

static void motion_common(loader *L, const cJSON *b, jt_block *k)
{
    k->slot = L->nmotions++;
    if (enum_field(L, b, "sync", SYNCS, 2, 0) == 1) k->flags |= BF_SYNC_START;
}

/* wave fields onto k (ch set by the caller); amp given. */
static void wave_fields(loader *L, const cJSON *b, jt_block *k, int shape_dflt, double hz_dflt)
{
    k->nval = WV_N;
    k->v = vals(L, WV_N);
    if (!k->v) return;
    k->shape = (uint8_t)enum_field(L, b, "shape", SHAPES, 8, shape_dflt);
    frequency(L, b, k, &k->v[WV_W], 1, hz_dflt);
    jt_val(L, b, "phase", 0, &k->v[WV_PHASE]);
    if (jt_val(L, b, "offset", 0, &k->v[WV_OFFSET]) > 0) k->flags |= BF_OFFSET;
    if (jt_val(L, b, "pow", 1, &k->v[WV_POW]) > 0) k->flags |= BF_POW;
    jt_val(L, b, "decay", 0, &k->v[WV_DECAY]);
    int clip = enum_field(L, b, "clip", CLIPS, 3, 0);
    k->clip = (uint8_t)clip;
    motion_common(L, b, k);
}

static void push_wave(loader *L, bvec *out, const cJSON *b, int32_t ch, jt_value amp, int shape, double hz)
{
    jt_block k = blank(L, OP_WAVE);
    k.nch = 1;
    k.ch = chs(L, 1);
    if (k.ch) k.ch[0] = ch;
    wave_fields(L, b, &k, shape, hz);
    if (k.v) k.v[WV_AMP] = amp;
    jt_push(L, out, &k);
}

/* a multi-channel ramp (to or by) that waits over once */
static void push_ramp_over(loader *L, bvec *out, const cJSON *b, int n, const int32_t *ch, const jt_value *to, int by,
                           double over)
{
    jt_block k = blank(L, OP_RAMP);
    k.nch = n;
    k.ch = chs(L, n);
    k.nval = n + 1;
    k.v = vals(L, n + 1);
    if (!k.ch || !k.v) return;
    for (int i = 0; i < n; i++) { k.ch[i] = ch[i]; k.v[i] = to[i]; }
    jt_val(L, b, "over", over, &k.v[n]);
    k.ease = (uint8_t)ease_field(L, b);
    if (by) k.flags |= BF_BY;
    glides(L, n);
    jt_push(L, out, &k);
}

static void push_ramp(loader *L, bvec *out, const cJSON *b, int n, const int32_t *ch, const jt_value *to, int by)
{
    push_ramp_over(L, out, b, n, ch, to, by, 0);
}

static int32_t fixed_channel(loader *L, int kind)
{
    jt_part pt;
    memset(&pt, 0, sizeof pt);
    pt.kind = kind;
    pt.index = -1;
    return intern_channel(L, &pt);
}

static void push_wait(loader *L, bvec *out, jt_value v, int until)
{
    jt_block k = blank(L, OP_WAIT);
    k.nval = 1;
    k.v = vals(L, 1);
    if (k.v) k.v[0] = v;
    if (until) k.flags |= BF_UNTIL;
    jt_push(L, out, &k);
}

/* ---- §8.4 reach / release ---------------------------------------------------------- */

static int limbs(loader *L, const cJSON *b, const char *opname)
{
    const char *s = jt_str(L, b, "part", 0);
    if (!s) {
        const cJSON *v = jt_get(b, "part");
        if (v && !absent(v)) return 0;
        return 2;  /* the right hand */
    }
    jt_part w;
    if (jt_part_word(s, &w) < 0 || w.kind != CH_PART || (strcmp(w.role, "hand") && strcmp(w.role, "foot")) ||
        w.index >= 0) {
        jt_err(L, "part", "%s names a hand or a foot, not \"%.60s\"", opname, s);
        return 0;
    }
    int base = strcmp(w.role, "hand") ? 4 : 1;
    return w.side < 0 ? base : w.side > 0 ? base << 1 : base | base << 1;
}

static int point_value(loader *L, const cJSON *b, const char *field, jt_value *out)
{
    const cJSON *v = jt_get(b, field);
    if (absent(v)) return 0;
    if (cJSON_IsNumber(v) || (cJSON_IsString(v) && v->valuestring[0] == '=')) return jt_val(L, b, field, 0, out) > 0;
    jt_err(L, field, "%s is a number or a \"=formula\"", field);
    return 0;
}

static void reach_block(loader *L, const cJSON *b, bvec *out)
{
    jt_block k = blank(L, OP_REACH);
    k.nval = RV_N;
    k.v = vals(L, RV_N);
    if (!k.v) return;
    k.mask = limbs(L, b, "reach");
    const cJSON *to = jt_get(b, "to"), *at = jt_get(b, "at");
    int has_to = !absent(to), has_at = !absent(at);
    int has_d = !absent(jt_get(b, "dx")) || !absent(jt_get(b, "dy"));
    if (has_to == has_at) jt_err(L, NULL, has_to ? "reach takes to or at, not both" : "reach needs to {x, y} or at (a spot)");
    if (has_to) {
        k.flags |= BF_POINT;
        int ok = cJSON_IsObject(to);
        int n = 0;
        for (const cJSON *c = ok ? to->child : NULL; c; c = c->next) {
            n++;
            if (strcmp(c->string, "x") && strcmp(c->string, "y")) ok = 0;
        }
        const cJSON *x = jt_get(to, "x"), *y = jt_get(to, "y");
        int good = ok && x && y;
        if (good) {
            size_t m = jt_path_push(L, "to");
            int gx = cJSON_IsNumber(x) || (cJSON_IsString(x) && x->valuestring[0] == '=');
            int gy = cJSON_IsNumber(y) || (cJSON_IsString(y) && y->valuestring[0] == '=');
            if (gx && gy) {
                jt_val(L, to, "x", 0, &k.v[RV_X]);
                jt_val(L, to, "y", 0, &k.v[RV_Y]);
            } else good = 0;
            jt_path_pop(L, m);
        }
        if (!good) jt_err(L, "to", "a point is {x, y}: two numbers or formulas, nothing else");
        if (has_d) jt_err(L, NULL, "dx and dy move a spot: they need at, not to");
    } else if (has_at) {
        k.aux = enum_field(L, b, "at", SPOTS, 4, 0);
        if (point_value(L, b, "dx", &k.v[RV_X]) | point_value(L, b, "dy", &k.v[RV_Y])) k.flags |= BF_OFFSET;
    } else if (has_d) {
        jt_err(L, NULL, "dx and dy move a spot: they need at");
    }
    jt_val(L, b, "over", 0.4, &k.v[RV_OVER]);
    k.ease = (uint8_t)ease_field(L, b);
    glides(L, 2);
    jt_push(L, out, &k);
    const cJSON *hold = jt_get(b, "hold");
    if (!absent(hold)) {  /* friendly: reach, wait hold, release the same way */
        jt_value h;
        double hv;
        if (jt_val(L, b, "hold", 0, &h) > 0 && written(b, "hold", &hv) && hv < 0)
            jt_warn(L, "hold", "a negative hold lets go at once");
        push_wait(L, out, h, 0);
        jt_block r = blank(L, OP_RELEASE);
        r.nval = RV_N;
        r.v = vals(L, RV_N);
        if (!r.v) return;
        r.mask = k.mask;
        r.v[RV_OVER] = k.v[RV_OVER];
        r.ease = k.ease;
        jt_push(L, out, &r);
    }
}

/* ---- §8.3 follow and letFollow ------------------------------------------------------- */

static void spring_checks(loader *L, const cJSON *b)
{
    double hz, damping;
    if (written(b, "hz", &hz)) {
        if (hz <= 0 || hz > 60) jt_err(L, "hz", "a spring's hz is more than 0 and at most 60");
        else if (hz > 6) jt_warn(L, "hz", "a spring above 6 per second swings further than the continuous spring (§8.3)");
    }
    if (written(b, "damping", &damping) && damping < 0) jt_err(L, "damping", "damping is 0 or more");
}

static void push_follow(loader *L, bvec *out, const cJSON *b, int n, const int32_t *targets, int32_t source,
                        jt_value gain)
{
    jt_block k = blank(L, OP_FOLLOW);
    k.nch = n;
    k.ch = chs(L, n);
    k.nval = FV_N;
    k.v = vals(L, FV_N);
    if (!k.ch || !k.v) return;
    memcpy(k.ch, targets, (size_t)n * sizeof *targets);
    k.aux = source;
    k.v[FV_GAIN] = gain;
    jt_val(L, b, "hz", 2, &k.v[FV_HZ]);
    jt_val(L, b, "damping", 0.3, &k.v[FV_DAMPING]);
    k.slot = L->nmotions++;
    jt_push(L, out, &k);
}

static void follow_block(loader *L, const cJSON *b, bvec *out)
{
    const cJSON *ch = jt_get(b, "ch");
    int32_t targets[64];
    int n = 0, bad = 0;
    if (absent(ch)) { jt_err(L, "ch", "follow needs ch (a channel or a list)"); bad = 1; }
    else if (cJSON_IsArray(ch)) {
        int m = cJSON_GetArraySize(ch);
        if (m == 0) { jt_err(L, "ch", "follow needs at least one channel"); bad = 1; }
        if (m > 64) { jt_err(L, "ch", "follow moves at most 64 channels"); bad = 1; m = 0; }
        size_t mark = jt_path_push(L, "ch");
        int i = 0;
        for (const cJSON *c = ch->child; c && i < m; c = c->next, i++) {
            char idx[16];
            snprintf(idx, sizeof idx, "%d", i);
            int32_t id = channel_node(L, c, idx, 0, NULL);
            if (id < 0) bad = 1;
            else targets[n++] = id;
        }
        jt_path_pop(L, mark);
    } else {
        int32_t id = raw_channel(L, b, "ch", 0, NULL);
        if (id < 0) bad = 1;
        else targets[n++] = id;
    }
    const cJSON *src = jt_get(b, "source");
    int32_t source = -1;
    if (absent(src)) { jt_err(L, "source", "follow needs a source channel"); bad = 1; }
    else if (!cJSON_IsString(src)) { jt_err(L, "source", "the source is one channel"); bad = 1; }
    else if ((source = raw_channel(L, b, "source", 0, NULL)) < 0) bad = 1;
    spring_checks(L, b);
    jt_value gain;
    jt_val(L, b, "gain", 1, &gain);
    if (!bad) push_follow(L, out, b, n, targets, source, gain);
}

/* a friendly part's channels: the plain one and, for a chain role, #1 … #(n-1) */
static int part_channels(loader *L, const jt_part *p, int n, int32_t *out)
{
    for (int i = 0; i < n; i++) {
        jt_part q = *p;
        q.index = i == 0 ? p->index : i;
        out[i] = intern_channel(L, &q);
    }
    return n;
}

static void let_follow(loader *L, const cJSON *b, bvec *out)
{
    ptarget tg[2];
    jt_part named;
    int nt = part_targets(L, b, "part", NULL, PM_CHAIN, tg, &named, "letFollow");
    if (!nt) return;
    int n = chain_segments(L, b, named.role);
    spring_checks(L, b);
    jt_value amount;
    jt_val(L, b, "amount", 1, &amount);
    const char *after = jt_str(L, b, "after", 0);
    if (!after && !absent(jt_get(b, "after"))) return;
    int32_t tch[2][16], all[32];
    int nall = 0;
    for (int s = 0; s < nt; s++) {
        part_channels(L, &tg[s].ch, n, tch[s]);
        for (int i = 0; i < n; i++) all[nall++] = tch[s][i];
    }
    if (!after || !strcmp(after, "body")) {  /* §8.3 body: the bounce dy per side, the tilt, the spine */
        for (int s = 0; s < nt; s++) {
            double f = (tg[s].ch.side < 0 ? -1 : 1) * 0.4 / n;
            push_follow(L, out, b, n, tch[s], fixed_channel(L, CH_DY), vmul(L, amount, f));
        }
        push_follow(L, out, b, nall, all, fixed_channel(L, CH_ROT), vmul(L, amount, 1.0 / n));
        jt_part torso;
        jt_part_word("torso", &torso);
        for (int i = 0; i < 2; i++) {
            jt_part q = torso;
            q.index = i ? 1 : -1;
            push_follow(L, out, b, nall, all, intern_channel(L, &q), vmul(L, amount, 1.0 / n));
        }
        return;
    }
    jt_part src;
    if (jt_part_word(after, &src) < 0 || src.kind != CH_PART) {
        jt_err(L, "after", "unknown after \"%.60s\" (body or a part)", after);
        return;
    }
    undrawn_warning(L, "after", src.role, "letFollow");
    int m = jt_role_chain(src.role) && src.index < 0 ? jt_role_chain(src.role) : 1;
    int pair = src.side == 0 && jt_role_paired(src.role);
    for (int i = 0; i < m; i++) {
        if (!pair) {
            jt_part q = src;
            if (i) q.index = i;
            push_follow(L, out, b, nall, all, intern_channel(L, &q), vmul(L, amount, 1.0 / n));
            continue;
        }
        for (int side = -1; side <= 1; side += 2) {  /* a side-less pair: both sides' channels */
            jt_part q = src;
            q.side = side;
            if (i) q.index = i;
            else if (src.index >= 0) q.index = side > 0 ? (src.index | 1) : (src.index & ~1);
            int32_t sc = intern_channel(L, &q);
            for (int s = 0; s < nt; s++) {
                if (tg[s].ch.side == side)
                    push_follow(L, out, b, n, tch[s], sc, vmul(L, amount, 1.0 / n));
                else if (tg[s].ch.side == 0)  /* a side-less target follows the pair's friendly angle */
                    push_follow(L, out, b, n, tch[s], sc, vmul(L, amount, side * 0.5 / n));
            }
        }
    }
}

/* ---- §8.2 chain and the friendly chain blocks ------------------------------------------- */

static void chain_fields(loader *L, const cJSON *b, jt_block *k, int shape_dflt, double every_dflt, double lag_dflt)
{
    k->nval = CV_N;
    k->v = vals(L, CV_N);
    if (!k->v) return;
    k->shape = (uint8_t)enum_field(L, b, "shape", SHAPES, 8, shape_dflt);
    frequency(L, b, k, &k->v[CV_W], every_dflt, 0);
    jt_val(L, b, "phase", 0, &k->v[CV_PHASE]);
    jt_val(L, b, "decay", 0, &k->v[CV_DECAY]);
    jt_val(L, b, "lag", lag_dflt, &k->v[CV_LAG]);
    jt_val(L, b, "falloff", 1, &k->v[CV_FALLOFF]);
    double x;
    if (written(b, "lag", &x) && (x < 0 || x > 1)) jt_warn(L, "lag", "a lag below 0 or above 1 s");
    if (written(b, "falloff", &x) && (x <= 0 || x > 2)) jt_warn(L, "falloff", "a falloff of 0 or less, or above 2");
    motion_common(L, b, k);
}

static void push_chain(loader *L, bvec *out, const cJSON *b, const jt_part *p, int n, jt_value amp, int shape,
                       double lag)
{
    jt_block k = blank(L, OP_CHAIN);
    k.nch = n;
    k.ch = chs(L, n);
    if (!k.ch) return;
    part_channels(L, p, n, k.ch);
    chain_fields(L, b, &k, shape, 1, lag);
    if (k.v) k.v[CV_AMP] = amp;
    jt_push(L, out, &k);
}

static void chain_block(loader *L, const cJSON *b, bvec *out)
{
    jt_part pt;
    int32_t ch = raw_channel(L, b, "ch", 0, &pt);
    if (ch < 0) return;
    if (pt.kind < CH_PART || pt.index >= 0) {
        jt_err(L, "ch", "a chain runs down one part channel without an index (part:tail, part:ear:1)");
        return;
    }
    if (jt_role_known(pt.role) && !jt_role_undrawn(pt.role)) {
        if (jt_role_leg(pt.role)) jt_warn(L, "ch", "a chain down a leg: its #i is the leg number (§2)");
        else if (!jt_role_chain(pt.role)) jt_warn(L, "ch", "nothing draws %s as a chain", pt.role);
    }
    const cJSON *sv = jt_get(b, "segments");
    int n = 4;
    if (!absent(sv)) {
        if (!cJSON_IsNumber(sv) || sv->valuedouble != floor(sv->valuedouble) || sv->valuedouble < 1 || sv->valuedouble > 16)
            jt_err(L, "segments", "segments is a whole number 1-16");
        else n = (int)sv->valuedouble;
    }
    jt_value amp;
    jt_val(L, b, "amp", 1, &amp);
    push_chain(L, out, b, &pt, n, amp, SH_SIN, 0.08);
}

/* swish, flop, bend, bow: the chain targets of part (default dflt_part), their
** segment count and deg (default ddeg); 0 when there is no target */
static int chain_targets(loader *L, const cJSON *b, const char *opname, const char *dflt_part, double ddeg,
                         ptarget tg[2], jt_part *named, int *n, jt_value *deg)
{
    int nt = part_targets(L, b, "part", dflt_part, PM_CHAIN, tg, named, opname);
    if (!nt) return 0;
    *n = chain_segments(L, b, named->role);
    jt_val(L, b, "deg", ddeg, deg);
    return nt;
}

/* swish / flop: a wave down each target's chain, deg spread over its segments */
static void swish(loader *L, const cJSON *b, bvec *out, const char *opname, const char *dflt_part, int shape)
{
    ptarget tg[2];
    jt_part named;
    int n = 0;
    jt_value deg;
    int nt = chain_targets(L, b, opname, dflt_part, 20, tg, &named, &n, &deg);
    for (int s = 0; s < nt; s++) {
        jt_value amp = signed_value(L, jt_role_chain(named.role) ? vdiv(L, deg, n) : deg, tg[s].sign);
        push_chain(L, out, b, &tg[s].ch, n, amp, shape, shape == SH_ABSSIN ? 0.1 : 0.08);
    }
}

/* bend: ramp every segment to its share of deg */
static void bend(loader *L, const cJSON *b, bvec *out, const char *opname, const char *dflt_part, int forward)
{
    ptarget tg[2];
    jt_part named;
    int n = 0;
    jt_value deg;
    int nt = chain_targets(L, b, opname, dflt_part, forward ? 30 : 0, tg, &named, &n, &deg);
    if (!nt) return;
    if (forward) deg = vneg(L, deg);  /* bow: forward, clockwise for a character drawn facing right */
    int32_t ch[32];
    jt_value to[32];
    int m = 0;
    for (int s = 0; s < nt; s++) {
        jt_value share = signed_value(L, jt_role_chain(named.role) ? vdiv(L, deg, n) : deg, tg[s].sign);
        m += part_channels(L, &tg[s].ch, n, ch + m);
        for (int i = 0; i < n; i++) to[m - n + i] = share;
    }
    push_ramp_over(L, out, b, m, ch, to, 0, forward ? 0.6 : 0);
}

/* ---- §8.5 view and turnView --------------------------------------------------------------- */

static void push_view(loader *L, bvec *out, int view)
{
    jt_block k = blank(L, OP_VIEW);
    k.aux = view;
    jt_push(L, out, &k);
}

static void turn_view(loader *L, const cJSON *b, bvec *out, int *threads, int *depth)
{
    int view = enum_field(L, b, "to", VIEWS, 3, 1);
    jt_value over;
    jt_val(L, b, "over", 0.24, &over);
    if (over.expr < 0 && !(over.k > 0)) {
        jt_warn(L, "over", "a turn of 0 s or less switches at once");
        push_view(L, out, view);
        return;
    }
    /* together { for over: drive sx "=abs(cos(pi*local/over))" } { wait over/2; view {to} } */
    char text[300];
    const cJSON *ov = jt_get(b, "over");
    if (over.expr < 0) {
        char num[40];
        ob_js_to_string(over.k, num, sizeof num);
        snprintf(text, sizeof text, "abs(cos(pi*local/%s))", num);
    } else {
        snprintf(text, sizeof text, "abs(cos(pi*local/(%.200s)))", ov->valuestring + 1);
    }
    jt_block tg = blank(L, OP_TOGETHER);
    tg.nbranches = 2;
    tg.branches = jt_alloc(L, 2 * sizeof *tg.branches);
    if (!tg.branches) return;
    /* branch 1: for over { drive sx } */
    jt_block *f = jt_alloc(L, sizeof *f);
    jt_block *dr = jt_alloc(L, sizeof *dr);
    jt_block *br2 = jt_alloc(L, 2 * sizeof *br2);
    if (!f || !dr || !br2) return;
    *f = blank(L, OP_FOR);
    f->nval = 1;
    f->v = vals(L, 1);
    if (!f->v) return;
    f->v[0] = over;
    *dr = blank(L, OP_DRIVE);
    dr->nch = 1;
    dr->ch = chs(L, 1);
    dr->nval = 1;
    dr->v = vals(L, 1);
    if (!dr->ch || !dr->v) return;
    dr->ch[0] = fixed_channel(L, CH_SX);
    int q = L->quiet;
    L->quiet = 1;
    compile_text(L, "over", text, &dr->v[0]);
    L->quiet = q;
    dr->slot = L->nmotions++;
    f->body = (jt_body){dr, 1};
    tg.branches[0] = (jt_body){f, 1};
    /* branch 2: wait over/2; view */
    br2[0] = blank(L, OP_WAIT);
    br2[0].nval = 1;
    br2[0].v = vals(L, 1);
    if (!br2[0].v) return;
    br2[0].v[0] = vdiv(L, over, 2);
    br2[1] = blank(L, OP_VIEW);
    br2[1].aux = view;
    tg.branches[1] = (jt_body){br2, 2};
    L->nblocks += 4;
    jt_push(L, out, &tg);
    if (*threads < 2) *threads = 2;
    if (*depth < 3) *depth = 3;
}

/* ---- §4 the friendly moves ----------------------------------------------------------------- */

static void part_ramp(loader *L, const cJSON *b, bvec *out, const char *opname, int mode, const char *amount, int by)
{
    ptarget tg[2];
    int nt = part_targets(L, b, "part", NULL, mode, tg, NULL, opname);
    if (!nt) return;
    jt_value v;
    if (jt_val(L, b, amount, 0, &v) == 0) jt_err(L, amount, "%s needs %s", opname, amount);
    int32_t ch[2];
    jt_value to[2];
    for (int s = 0; s < nt; s++) {
        ch[s] = intern_channel(L, &tg[s].ch);
        to[s] = mode == PM_LIFT ? v : signed_value(L, v, tg[s].sign);
    }
    push_ramp(L, out, b, nt, ch, to, by);
}

static void friendly_ramp(loader *L, const cJSON *b, bvec *out, const char *const *fields, const int *kinds, int n,
                          int by)
{
    int32_t ch[2];
    jt_value to[2];
    int m = 0;
    for (int i = 0; i < n; i++)
        if (jt_val(L, b, fields[i], 0, &to[m]) > 0) ch[m++] = fixed_channel(L, kinds[i]);
    if (m) push_ramp(L, out, b, m, ch, to, by);
    else {  /* nothing to move: the block still takes its time */
        jt_value over;
        jt_val(L, b, "over", 0, &over);
        push_wait(L, out, over, 0);
    }
}

static void wiggle(loader *L, const cJSON *b, bvec *out, const char *op)
{
    jt_value amp;
    if (!strcmp(op, "bob")) {
        jt_val(L, b, "amp", 10, &amp);
        push_wave(L, out, b, fixed_channel(L, CH_DY), vneg(L, amp), SH_ABSSIN, 0);
    } else if (!strcmp(op, "sway")) {
        jt_val(L, b, "deg", 5, &amp);
        push_wave(L, out, b, fixed_channel(L, CH_ROT), amp, SH_SIN, 0);
    } else if (!strcmp(op, "wobble")) {
        jt_val(L, b, "px", 5, &amp);
        push_wave(L, out, b, fixed_channel(L, CH_DX), amp, SH_SIN, 0);
    } else if (!strcmp(op, "shake")) {  /* 6 times a second unless it gives w, hz or every */
        jt_val(L, b, "px", 5, &amp);
        push_wave(L, out, b, fixed_channel(L, CH_DX), amp, SH_SIN, 6);
        jt_value deg;
        if (jt_val(L, b, "deg", 0, &deg) > 0) push_wave(L, out, b, fixed_channel(L, CH_ROT), deg, SH_SIN, 6);
    } else {  /* swingPart */
        ptarget tg[2];
        int nt = part_targets(L, b, "part", NULL, PM_ANGLE, tg, NULL, "swingPart");
        if (!nt) return;
        jt_val(L, b, "deg", 20, &amp);
        for (int s = 0; s < nt; s++)
            push_wave(L, out, b, intern_channel(L, &tg[s].ch), signed_value(L, amp, tg[s].sign), SH_SIN, 0);
    }
}

/* ---- control blocks and the dispatcher -------------------------------------------------------- */

static const char *const SCENE_ONLY[] = {"say", "does", "caption", "cut", "place", "enter", "exit", "mood"};
static const char *const CONTROL[] = {"wait", "for", "while", "until", "repeat", "forever", "together", "if", "stop",
                                      "stopAll", "setVar", "changeVar", "window"};

static int in(const char *s, const char *const *list, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!strcmp(s, list[i])) return 1;
    return 0;
}

static int32_t var_slot(loader *L, const char *name)
{
    int added;
    int32_t v = jt_strtab_intern(&L->vartab, name, &added);
    if (v < 0) { L->oom = 1; return 0; }
    if (added) {
        if (jt_grow((void **)&L->varinit, &L->capvar, L->vartab.n, sizeof *L->varinit) < 0) { L->oom = 1; return 0; }
        L->varinit[v] = 0;
    }
    return v;
}

static void timed(loader *L, const cJSON *b, jt_block *k, const char *opname)
{
    k->nval = 1;
    k->v = vals(L, 1);
    if (!k->v) return;
    int hf = !absent(jt_get(b, "for")), hu = !absent(jt_get(b, "until"));
    if (hf && hu) jt_err(L, NULL, "%s takes for or until, not both", opname);
    else if (!hf && !hu) jt_err(L, NULL, "%s needs for (seconds) or until (a time)", opname);
    if (hu) {
        k->flags |= BF_UNTIL;
        jt_val(L, b, "until", 0, &k->v[0]);
    } else {
        jt_val(L, b, "for", 0, &k->v[0]);
    }
}

/* "=dur" itself: the scene's end (held when it is not pinned), not a count back from it */
static int plain_dur(const cJSON *v)
{
    if (!cJSON_IsString(v)) return 0;
    const char *s = v->valuestring + 1;
    while (*s == ' ') s++;
    if (strncmp(s, "dur", 3)) return 0;
    s += 3;
    while (*s == ' ') s++;
    return !*s;
}

static void compile_block(loader *L, const cJSON *b, bvec *out, int *threads, int *depth)
{
    if (!cJSON_IsObject(b)) {
        jt_err(L, NULL, "a block is an object with an op");
        return;
    }
    const cJSON *opv = jt_get(b, "op");
    if (!cJSON_IsString(opv)) {
        jt_err(L, "op", absent(opv) ? "a block needs an op" : "op is a text");
        return;
    }
    const char *op = opv->valuestring;
    int scene = L->kind != 0;
    if (in(op, SCENE_ONLY, 8)) {
        if (!scene) { jt_err(L, "op", "%s is a scene block: a behaviour cannot use it", op); return; }
        jt_scene_block(L, op, b, out);
        return;
    }
    int control = in(op, CONTROL, 13);
    static const char *const KNOWN[] = {"set", "ramp", "drive", "wave", "hop", "gait", "chain", "follow", "reach",
                                        "release", "view", "move", "moveTo", "turn", "turnTo", "scaleTo", "squash",
                                        "setPart", "turnPart", "liftPart", "bob", "sway", "wobble", "shake",
                                        "swingPart", "swish", "flop", "bend", "bow", "letFollow", "turnView"};
    if (!control && !in(op, KNOWN, sizeof KNOWN / sizeof *KNOWN)) {
        jt_err(L, "op", "unknown op \"%.60s\"", op);
        return;
    }
    if (!control && scene) {
        jt_err(L, "op", "%s moves a character: in a scene say does {who, behaviour}", op);
        return;
    }
    jt_block k;
    int c = 0, d = 0;
    if (!strcmp(op, "set")) {
        jt_part pt;
        int32_t ch = raw_channel(L, b, "ch", CH_ALLOW_MOOD, &pt);
        if (ch < 0) return;
        if (pt.kind == CH_MOOD) {
            k = blank(L, OP_MOODSET);
            const char *m = jt_str(L, b, "to", 1);
            if (!m) return;
            k.str = jt_strdup(L, m);
            jt_push(L, out, &k);
            return;
        }
        k = blank(L, OP_SET);
        k.nch = 1;
        k.ch = chs(L, 1);
        k.nval = 1;
        k.v = vals(L, 1);
        if (!k.ch || !k.v) return;
        k.ch[0] = ch;
        if (jt_val(L, b, "to", 0, &k.v[0]) == 0) jt_err(L, "to", "set needs to");
        jt_push(L, out, &k);
    } else if (!strcmp(op, "ramp")) {
        int32_t ch = raw_channel(L, b, "ch", 0, NULL);
        int ht = !absent(jt_get(b, "to")), hb = !absent(jt_get(b, "by"));
        if (ht && hb) jt_err(L, NULL, "ramp takes to or by, not both");
        else if (!ht && !hb) jt_err(L, NULL, "ramp needs to or by");
        jt_value v;
        jt_val(L, b, hb && !ht ? "by" : "to", 0, &v);
        if (ch >= 0) push_ramp(L, out, b, 1, &ch, &v, hb && !ht);
    } else if (!strcmp(op, "drive")) {
        k = blank(L, OP_DRIVE);
        int32_t ch = raw_channel(L, b, "ch", 0, NULL);
        k.nch = 1;
        k.ch = chs(L, 1);
        k.nval = 1;
        k.v = vals(L, 1);
        if (!k.ch || !k.v) return;
        k.ch[0] = ch;
        if (jt_val(L, b, "value", 0, &k.v[0]) == 0) jt_err(L, "value", "drive needs value");
        k.slot = L->nmotions++;
        if (ch >= 0) jt_push(L, out, &k);
    } else if (!strcmp(op, "wave")) {
        int32_t ch = raw_channel(L, b, "ch", 0, NULL);
        jt_value amp;
        jt_val(L, b, "amp", 1, &amp);
        if (ch >= 0) push_wave(L, out, b, ch, amp, SH_SIN, 0);
    } else if (!strcmp(op, "hop")) {
        k = blank(L, OP_HOP);
        k.nval = HV_N;
        k.v = vals(L, HV_N);
        if (!k.v) return;
        jt_val(L, b, "hz", 2, &k.v[HV_HZ]);
        jt_val(L, b, "amp", 30, &k.v[HV_AMP]);
        motion_common(L, b, &k);
        jt_push(L, out, &k);
    } else if (!strcmp(op, "gait")) {
        static const char *const F[GV_N] = {"every", "stride", "give", "bend", "armSwing", "bob", "base", "roll"};
        static const double D[GV_N] = {1, 20, 5, 30, 1, 0, 0, 0};
        k = blank(L, OP_GAIT);
        k.nval = GV_N;
        k.v = vals(L, GV_N);
        if (!k.v) return;
        for (int i = 0; i < GV_N; i++) jt_val(L, b, F[i], D[i], &k.v[i]);
        motion_common(L, b, &k);
        jt_push(L, out, &k);
    } else if (!strcmp(op, "chain")) {
        chain_block(L, b, out);
    } else if (!strcmp(op, "follow")) {
        follow_block(L, b, out);
    } else if (!strcmp(op, "reach")) {
        reach_block(L, b, out);
    } else if (!strcmp(op, "release")) {
        k = blank(L, OP_RELEASE);
        k.nval = RV_N;
        k.v = vals(L, RV_N);
        if (!k.v) return;
        k.mask = limbs(L, b, "release");
        jt_val(L, b, "over", 0.4, &k.v[RV_OVER]);
        k.ease = (uint8_t)ease_field(L, b);
        glides(L, 2);
        jt_push(L, out, &k);
    } else if (!strcmp(op, "view")) {
        if (absent(jt_get(b, "to"))) { jt_err(L, "to", "view needs to (front, side or back)"); return; }
        push_view(L, out, enum_field(L, b, "to", VIEWS, 3, 0));
    } else if (!strcmp(op, "turnView")) {
        turn_view(L, b, out, &c, &d);
    } else if (!strcmp(op, "move") || !strcmp(op, "moveTo")) {
        static const char *const MF[2] = {"dx", "dy"}, *const TF[2] = {"x", "y"};
        static const int K[2] = {CH_DX, CH_DY};
        friendly_ramp(L, b, out, op[4] ? TF : MF, K, 2, !op[4]);
    } else if (!strcmp(op, "turn") || !strcmp(op, "turnTo")) {
        static const char *const F[1] = {"deg"};
        static const int K[1] = {CH_ROT};
        friendly_ramp(L, b, out, F, K, 1, !op[4]);
    } else if (!strcmp(op, "scaleTo")) {
        static const char *const F[2] = {"sx", "sy"};
        static const int K[2] = {CH_SX, CH_SY};
        jt_value s;
        if (jt_val(L, b, "s", 1, &s) > 0) {
            int32_t ch[2] = {fixed_channel(L, CH_SX), fixed_channel(L, CH_SY)};
            jt_value to[2] = {s, s};
            push_ramp(L, out, b, 2, ch, to, 0);
        } else {
            friendly_ramp(L, b, out, F, K, 2, 0);
        }
    } else if (!strcmp(op, "squash")) {
        jt_value kk;
        jt_val(L, b, "k", 0, &kk);
        int32_t ch[2] = {fixed_channel(L, CH_SX), fixed_channel(L, CH_SY)};
        jt_value to[2] = {vone(L, kk, 1), vone(L, kk, -1)};
        push_ramp(L, out, b, 2, ch, to, 0);
    } else if (!strcmp(op, "setPart") || !strcmp(op, "turnPart")) {
        part_ramp(L, b, out, op, PM_ANGLE, "deg", op[0] == 't');
    } else if (!strcmp(op, "liftPart")) {
        part_ramp(L, b, out, op, PM_LIFT, "px", 0);
    } else if (!strcmp(op, "bob") || !strcmp(op, "sway") || !strcmp(op, "wobble") || !strcmp(op, "shake") ||
               !strcmp(op, "swingPart")) {
        wiggle(L, b, out, op);
    } else if (!strcmp(op, "swish")) {
        swish(L, b, out, "swish", "tail", SH_SIN);
    } else if (!strcmp(op, "flop")) {
        swish(L, b, out, "flop", "ears", SH_ABSSIN);
    } else if (!strcmp(op, "bend")) {
        bend(L, b, out, "bend", "body", 0);
    } else if (!strcmp(op, "bow")) {
        bend(L, b, out, "bow", "body", 1);
    } else if (!strcmp(op, "letFollow")) {
        let_follow(L, b, out);
    } else if (!strcmp(op, "wait")) {
        k = blank(L, OP_WAIT);
        timed(L, b, &k, "wait");
        if (scene && k.v && k.v[0].expr >= 0 && (L->b.exprs[k.v[0].expr].uses & JT_USE_DUR) &&
            !plain_dur(jt_get(b, k.flags & BF_UNTIL ? "until" : "for")))
            jt_scene_countback(L);
        jt_push(L, out, &k);
    } else if (!strcmp(op, "for") || !strcmp(op, "while") || !strcmp(op, "until") || !strcmp(op, "repeat") ||
               !strcmp(op, "forever")) {  /* a body in a frame of its own */
        static const char *const NAMES[5] = {"for", "while", "until", "repeat", "forever"};
        static const int OPS[5] = {OP_FOR, OP_WHILE, OP_UNTIL, OP_REPEAT, OP_FOREVER};
        static const char *const FIELD[5] = {NULL, "cond", "cond", "times", NULL};
        int w = 0;
        while (strcmp(op, NAMES[w])) w++;
        k = blank(L, OPS[w]);
        if (w == 0) {
            timed(L, b, &k, "for");
            if (scene && k.v && k.v[0].expr >= 0 && (L->b.exprs[k.v[0].expr].uses & JT_USE_DUR) &&
                !plain_dur(jt_get(b, k.flags & BF_UNTIL ? "until" : "for")))
                jt_scene_countback(L);
        } else if (FIELD[w]) {
            k.nval = 1;
            k.v = vals(L, 1);
            if (!k.v) return;
            if (jt_val(L, b, FIELD[w], 0, &k.v[0]) == 0) jt_err(L, FIELD[w], "%s needs %s", op, FIELD[w]);
        }
        jt_load_body(L, jt_get(b, "body"), "body", &k.body, &c, &d);
        d++;
        jt_push(L, out, &k);
    } else if (!strcmp(op, "if")) {
        k = blank(L, OP_IF);
        k.nval = 1;
        k.v = vals(L, 1);
        if (!k.v) return;
        if (jt_val(L, b, "cond", 0, &k.v[0]) == 0) jt_err(L, "cond", "if needs cond");
        int c2 = 0, d2 = 0;
        /* an if runs then/else: a body there is an unknown field, ignored (clarifications), so say so */
        if (absent(jt_get(b, "then")) && !absent(jt_get(b, "body")))
            jt_warn(L, "body", "if runs then (and else), not body: this body is ignored");
        jt_load_body(L, jt_get(b, "then"), "then", &k.body, &c, &d);
        jt_load_body(L, jt_get(b, "else"), "else", &k.alt, &c2, &d2);
        if (c2 > c) c = c2;
        if (d2 > d) d = d2;
        d++;
        jt_push(L, out, &k);
    } else if (!strcmp(op, "together")) {
        k = blank(L, OP_TOGETHER);
        const cJSON *br = jt_get(b, "branches");
        if (!absent(br) && !cJSON_IsArray(br)) { jt_err(L, "branches", "branches is a list of block lists"); return; }
        int n = br ? cJSON_GetArraySize(br) : 0;
        k.nbranches = n;
        k.branches = jt_alloc(L, (size_t)(n ? n : 1) * sizeof *k.branches);
        if (!k.branches) return;
        size_t mark = jt_path_push(L, "branches");
        int i = 0;
        for (const cJSON *x = br ? br->child : NULL; x; x = x->next, i++) {
            char idx[16];
            snprintf(idx, sizeof idx, "%d", i);
            int ci = 0, di = 0;
            if (!cJSON_IsArray(x)) {
                jt_err(L, idx, "a branch is a list of blocks");
                continue;
            }
            size_t m2 = jt_path_push(L, "%d", i);
            jt_load_body(L, x, NULL, &k.branches[i], &ci, &di);
            jt_path_pop(L, m2);
            c += 1 + ci;
            if (1 + di > d) d = 1 + di;
        }
        jt_path_pop(L, mark);
        if (d < 1) d = 1;
        jt_push(L, out, &k);
    } else if (!strcmp(op, "stop") || !strcmp(op, "stopAll")) {
        k = blank(L, op[4] ? OP_STOPALL : OP_STOP);
        jt_push(L, out, &k);
    } else if (!strcmp(op, "setVar") || !strcmp(op, "changeVar")) {
        int set = op[0] == 's';
        k = blank(L, set ? OP_SETVAR : OP_CHANGEVAR);
        const char *name = jt_str(L, b, "var", 1);
        k.nval = 1;
        k.v = vals(L, 1);
        if (!k.v) return;
        if (set) {
            if (jt_val(L, b, "value", 0, &k.v[0]) == 0) jt_err(L, "value", "setVar needs value");
        } else {
            jt_val(L, b, "by", 1, &k.v[0]);
        }
        if (!name) return;
        k.slot = var_slot(L, name);
        k.str = jt_strdup(L, name);
        jt_push(L, out, &k);
    } else if (!strcmp(op, "window")) {  /* §4: wait until from, then for until to (count back from dur) */
        jt_value from, to;
        jt_val(L, b, "from", 0, &from);
        int has_to = jt_val(L, b, "to", INFINITY, &to) > 0;
        push_wait(L, out, vcountback(L, from), 1);
        k = blank(L, OP_FOR);
        k.nval = 1;
        k.v = vals(L, 1);
        if (!k.v) return;
        k.v[0] = has_to ? vcountback(L, to) : to;
        k.flags |= BF_UNTIL;
        jt_load_body(L, jt_get(b, "body"), "body", &k.body, &c, &d);
        d++;
        jt_push(L, out, &k);
        double x;
        if (scene && ((written(b, "from", &x) && x < 0) || (written(b, "to", &x) && x < 0) ||
                      (from.expr >= 0 && (L->b.exprs[from.expr].uses & JT_USE_DUR) && !plain_dur(jt_get(b, "from"))) ||
                      (has_to && to.expr >= 0 && (L->b.exprs[to.expr].uses & JT_USE_DUR) && !plain_dur(jt_get(b, "to")))))
            jt_scene_countback(L);  /* counts back from the scene's end (warned when it is not pinned) */
    }
    if (c > *threads) *threads = c;
    if (d > *depth) *depth = d;
}

int jt_load_body(loader *L, const cJSON *arr, const char *field, jt_body *out, int *threads, int *depth)
{
    out->items = NULL;
    out->n = 0;
    if (absent(arr)) return 0;
    size_t mark = field ? jt_path_push(L, "%s", field) : L->plen;
    if (!cJSON_IsArray(arr)) {
        jt_err(L, NULL, "expected a list of blocks");
        jt_path_pop(L, mark);
        return -1;
    }
    bvec v = {0};
    int i = 0;
    for (const cJSON *b = arr->child; b; b = b->next, i++) {
        size_t m2 = jt_path_push(L, "%d", i);
        compile_block(L, b, &v, threads, depth);
        jt_path_pop(L, m2);
    }
    if (v.n) {
        out->items = jt_alloc(L, (size_t)v.n * sizeof *out->items);
        if (out->items) {
            memcpy(out->items, v.v, (size_t)v.n * sizeof *v.v);
            out->n = v.n;
        }
    }
    free(v.v);
    jt_path_pop(L, mark);
    return 0;
}

/* ---- the program ----------------------------------------------------------------------------------- */

static const char *const HATS[HAT_COUNT] = {"start", "talk-start", "talk-end", "key", "click", "scene", "beat",
                                            "loud", "every", "touch"};

static void hat(loader *L, const cJSON *h, jt_script *s)
{
    s->hat = HAT_START;
    if (absent(h)) {
        if (L->kind != 0) jt_scene_hat(L, NULL, s);
        return;
    }
    size_t mark = jt_path_push(L, "hat");
    if (!cJSON_IsObject(h)) {
        jt_err(L, NULL, "a hat is an object {on: ...}");
        jt_path_pop(L, mark);
        return;
    }
    s->hat = enum_field(L, h, "on", HATS, HAT_COUNT, HAT_START);
    if (absent(jt_get(h, "on"))) jt_err(L, "on", "a hat needs on");
    if (s->hat == HAT_KEY) {
        const char *k = jt_str(L, h, "key", 0);
        if (k) s->key = jt_strdup(L, k);
    }
    if (L->kind != 0) jt_scene_hat(L, h, s);
    else if (s->hat == HAT_SCENE) {
        const char *n = jt_str(L, h, "name", 0);
        if (n) s->scene = jt_strdup(L, n);
    }
    jt_path_pop(L, mark);
}

/* §1 params and vars: Object.entries (a list or a text adds its entries by index) */
static int entries_of(const cJSON *v, const char ***keys, cJSON ***vals, cJSON **owned)
{
    *owned = NULL;
    *keys = NULL;
    *vals = NULL;
    if (cJSON_IsObject(v)) return jt_entries(v, keys, vals);
    cJSON *obj = NULL;
    if (cJSON_IsArray(v)) {
        obj = cJSON_CreateObject();
        int i = 0;
        for (const cJSON *c = v->child; c && obj; c = c->next, i++) {
            char k[16];
            snprintf(k, sizeof k, "%d", i);
            cJSON_AddItemToObject(obj, k, cJSON_Duplicate(c, 1));
        }
    } else if (cJSON_IsString(v)) {  /* its UTF-16 code units */
        obj = cJSON_CreateObject();
        const unsigned char *s = (const unsigned char *)v->valuestring;
        int i = 0;
        while (*s && obj) {
            int n = *s < 0x80 ? 1 : (*s & 0xE0) == 0xC0 ? 2 : (*s & 0xF0) == 0xE0 ? 3 : 4;
            int units = n == 4 ? 2 : 1;
            char unit[8] = {0};
            for (int u = 0; u < units; u++) {
                char k[16];
                snprintf(k, sizeof k, "%d", i++);
                if (units == 1) {
                    memcpy(unit, s, (size_t)n);
                    unit[n] = 0;
                } else {
                    strcpy(unit, "\xEF\xBF\xBD");  /* a lone surrogate shows as U+FFFD */
                }
                cJSON_AddItemToObject(obj, k, cJSON_CreateString(unit));
            }
            for (int q = 0; q < n && *s; q++) s++;
        }
    } else {
        return 0;
    }
    *owned = obj;
    return obj ? jt_entries(obj, keys, vals) : -1;
}

static void params_vars(loader *L, const cJSON *root)
{
    const char **keys;
    cJSON **vs;
    cJSON *owned;
    int n = entries_of(jt_get(root, "vars"), &keys, &vs, &owned);
    size_t mark = jt_path_push(L, "vars");
    for (int i = 0; i < n; i++) {
        int32_t slot = var_slot(L, keys[i]);
        if (!cJSON_IsNumber(vs[i]) || !isfinite(vs[i]->valuedouble)) {
            char s[64];
            show(vs[i], s, sizeof s);
            jt_err(L, keys[i], "a variable starts at a number, not %s", s);
        } else if (!L->oom) {
            L->varinit[slot] = vs[i]->valuedouble;
        }
    }
    L->ndeclared = L->vartab.n;
    jt_path_pop(L, mark);
    free(keys);
    free(vs);
    cJSON_Delete(owned);
    if (n < 0) L->oom = 1;
    n = entries_of(jt_get(root, "params"), &keys, &vs, &owned);
    for (int i = 0; i < n; i++) jt_strtab_intern(&L->paramtab, keys[i], NULL);  /* every param is a known name */
    mark = jt_path_push(L, "params");
    for (int i = 0; i < n; i++) {
        jt_param_def pd;
        pd.name = jt_strdup(L, keys[i]);
        pd.value = (jt_value){0, -1};
        if (cJSON_IsNull(vs[i])) jt_err(L, keys[i], "a param's default is a number or a \"=formula\", not null");
        else jt_val_node(L, vs[i], keys[i], 0, &pd.value);
        if (jt_grow((void **)&L->params, &L->capparams, L->nparams + 1, sizeof *L->params) < 0) { L->oom = 1; break; }
        L->params[L->nparams++] = pd;
    }
    jt_path_pop(L, mark);
    free(keys);
    free(vs);
    cJSON_Delete(owned);
}

static void script_bounds(jt_script *s, int threads, int depth)
{
    s->threads = 1 + threads;
    s->depth = 1 + depth;
}

static int load_root(loader *L, const cJSON *root)
{
    if (!cJSON_IsObject(root)) {
        jt_err(L, "program", "a program is an object {v: 1, kind, scripts}");
        return -1;
    }
    const cJSON *v = jt_get(root, "v");
    if (!cJSON_IsNumber(v) || v->valuedouble != 1) {
        char s[64];
        show(v, s, sizeof s);
        jt_err(L, "v", "the program version is 1, not %s", s);
    }
    const cJSON *kind = jt_get(root, "kind");
    L->kind = 0;
    if (cJSON_IsString(kind) && !strcmp(kind->valuestring, "scene")) L->kind = 1;
    else if (cJSON_IsString(kind) && !strcmp(kind->valuestring, "cartoon")) L->kind = 2;
    else if (!cJSON_IsString(kind) || strcmp(kind->valuestring, "behaviour")) {
        char s[64];
        show(kind, s, sizeof s);
        jt_err(L, "kind", "kind is behaviour, scene or cartoon, not %s", s);
    }
    L->p->kind = L->kind;
    L->b.in_scene = L->kind != 0;
    const char *name = jt_str(L, root, "name", 0);
    L->p->name = name ? jt_strdup(L, name) : NULL;
    params_vars(L, root);
    if (L->kind != 0) jt_scene_program(L, root);
    const cJSON *scripts = jt_get(root, "scripts");
    if (!cJSON_IsArray(scripts)) {
        jt_err(L, "scripts", "scripts is a list of {hat?, body}");
        return 0;
    }
    int n = cJSON_GetArraySize(scripts);
    L->p->scripts = jt_alloc(L, (size_t)(n ? n : 1) * sizeof *L->p->scripts);
    if (!L->p->scripts) return -1;
    L->p->nscripts = n;
    int i = 0;
    for (const cJSON *s = scripts->child; s; s = s->next, i++) {
        size_t mark = jt_path_push(L, "scripts.%d", i);
        jt_script *sc = &L->p->scripts[i];
        memset(sc, 0, sizeof *sc);
        L->cur_script = i;
        if (!cJSON_IsObject(s)) {
            jt_err(L, NULL, "a script is an object {hat?, body}");
            jt_path_pop(L, mark);
            script_bounds(sc, 0, 0);
            continue;
        }
        hat(L, jt_get(s, "hat"), sc);
        int threads = 0, depth = 0;
        if (absent(jt_get(s, "body"))) jt_err(L, "body", "a script needs a body (a list of blocks)");
        else jt_load_body(L, jt_get(s, "body"), "body", &sc->body, &threads, &depth);
        script_bounds(sc, threads, depth);
        jt_path_pop(L, mark);
    }
    if (L->kind != 0) jt_scene_finish(L);
    return 0;
}

/* the live values of a motion block (evaluated when the pose is read, or at a tick) */
static void mark_random(jt_program *p, jt_body *body)
{
    for (int32_t i = 0; i < body->n; i++) {
        jt_block *b = &body->items[i];
        int lo = 0, hi = 0;
        switch (b->op) {
        case OP_WAVE: lo = WV_AMP; hi = WV_OFFSET; break;
        case OP_DRIVE: lo = 0; hi = 0; break;
        case OP_HOP: lo = hi = HV_AMP; break;
        case OP_GAIT: lo = GV_STRIDE; hi = GV_ROLL; break;
        case OP_CHAIN: lo = hi = CV_AMP; break;
        case OP_FOLLOW: lo = hi = FV_GAIN; break;
        default: lo = 1; hi = 0; break;
        }
        for (int k = lo; k <= hi && b->v; k++)
            if (b->v[k].expr >= 0 && (p->exprs[b->v[k].expr].uses & JT_USE_RANDOM)) {
                b->flags |= BF_RANDOM;
                p->live_random = 1;
            }
        mark_random(p, &b->body);
        mark_random(p, &b->alt);
        for (int k = 0; k < b->nbranches; k++) mark_random(p, &b->branches[k]);
    }
}

static void finish(loader *L)
{
    jt_program *p = L->p;
    jt_builder *b = &L->b;
    p->code = jt_alloc(L, (size_t)b->ncode * sizeof *p->code);
    p->ncode = b->ncode;
    p->consts = jt_alloc(L, (size_t)b->nconsts * sizeof *p->consts);
    p->exprs = jt_alloc(L, (size_t)b->nexprs * sizeof *p->exprs);
    p->nexprs = b->nexprs;
    p->names = jt_alloc(L, (size_t)b->names.n * sizeof *p->names);
    p->nnames = b->names.n;
    p->channels = jt_alloc(L, (size_t)L->chtab.n * sizeof *p->channels);
    p->nchannels = L->chtab.n;
    p->var_names = jt_alloc(L, (size_t)L->vartab.n * sizeof *p->var_names);
    p->var_init = jt_alloc(L, (size_t)L->vartab.n * sizeof *p->var_init);
    p->nvars = L->vartab.n;
    p->ndeclared_vars = L->ndeclared;
    p->params = jt_alloc(L, (size_t)L->nparams * sizeof *p->params);
    p->nparams = L->nparams;
    p->paths = jt_alloc(L, (size_t)L->npaths * sizeof *p->paths);
    p->npaths = L->npaths;
    if (L->oom) return;
    if (b->ncode) memcpy(p->code, b->code, (size_t)b->ncode * sizeof *p->code);
    if (b->nconsts) memcpy(p->consts, b->consts, (size_t)b->nconsts * sizeof *p->consts);
    if (b->nexprs) memcpy(p->exprs, b->exprs, (size_t)b->nexprs * sizeof *p->exprs);
    for (int i = 0; i < b->names.n; i++) p->names[i] = jt_strdup(L, b->names.keys[i]);
    if (L->chtab.n) memcpy(p->channels, L->chans, (size_t)L->chtab.n * sizeof *p->channels);
    for (int i = 0; i < L->vartab.n; i++) {
        p->var_names[i] = jt_strdup(L, L->vartab.keys[i]);
        p->var_init[i] = L->varinit[i];
    }
    if (L->nparams) memcpy(p->params, L->params, (size_t)L->nparams * sizeof *p->params);
    if (L->npaths) memcpy(p->paths, L->paths, (size_t)L->npaths * sizeof *p->paths);
    p->nmotions = L->nmotions;
    for (int s = 0; s < p->nscripts; s++) mark_random(p, &p->scripts[s].body);
    p->maxglides = L->maxglides < 1 ? 1 : L->maxglides;
    p->nblocks = L->nblocks;
}

static void loader_free(loader *L)
{
    free(L->b.code);
    free(L->b.consts);
    free(L->b.exprs);
    jt_strtab_free(&L->b.names);
    free(L->b.used);
    free(L->b.usedmark);
    free(L->path);
    jt_strtab_free(&L->chtab);
    free(L->chans);
    jt_strtab_free(&L->vartab);
    free(L->varinit);
    jt_strtab_free(&L->paramtab);
    free(L->params);
    free(L->paths);
    free(L->scenes);
    free(L->scene_hat_path);
}

jt_program *jt_program_load(const char *json, size_t len, jt_diags **diags)
{
    if (diags) *diags = NULL;
    jt_diags *d = calloc(1, sizeof *d);
    jt_program *p = calloc(1, sizeof *p);
    if (!d || !p) { free(d); free(p); return NULL; }
    cJSON *root = cJSON_ParseWithLength(json, len);
    if (!root) {
        jt_diag_add(d, 1, "program", "not JSON (or nested deeper than %d levels)", CJSON_NESTING_LIMIT);
        free(p);
        if (diags) *diags = d;
        else jt_diags_free(d);
        return NULL;
    }
    loader L;
    memset(&L, 0, sizeof L);
    L.p = p;
    L.d = d;
    L.b.p = p;
    L.cur_scene = -1;
    int fixed[JT_FIXED_CHANNELS];
    for (int i = 0; i < JT_FIXED_CHANNELS; i++) fixed[i] = fixed_channel(&L, i);  /* channel i is the fixed one */
    (void)fixed;
    load_root(&L, root);
    finish(&L);
    p->json = L.oom ? NULL : strndup(json, len);
    if (L.oom) jt_diag_add(d, 1, "program", "out of memory");
    loader_free(&L);
    cJSON_Delete(root);
    if (d->nerrors || L.oom) {  /* (inline behaviours compiled so far are freed with it) */
        jt_program_free(p);
        p = NULL;
    }
    if (diags) *diags = d;
    else jt_diags_free(d);
    return p;
}

void jt_program_free(jt_program *p)
{
    if (!p) return;
    for (int i = 0; i < p->nsubs; i++) jt_program_free(p->subs[i]);
    free(p->subs);
    free(p->json);
    ob_arena_free(&p->arena);
    free(p);
}

const char *jt_program_kind(const jt_program *p) { return jt_kind_name(p->kind); }

/* ---- helpers for load_scene.c ------------------------------------------------------------------- */

void jt_show(const cJSON *v, char *buf, size_t cap) { show(v, buf, cap); }
int jt_absent(const cJSON *v) { return absent(v); }
int jt_enum(loader *L, const cJSON *b, const char *field, const char *const *names, int n, int dflt)
{
    return enum_field(L, b, field, names, n, dflt);
}
int jt_written(const cJSON *b, const char *field, double *out) { return written(b, field, out); }
jt_value *jt_vals(loader *L, int n) { return vals(L, n); }
jt_block jt_blank(loader *L, int op) { return blank(L, op); }
int jt_ease_of(loader *L, const cJSON *b) { return ease_field(L, b); }
