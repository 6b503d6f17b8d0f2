/* util.c: string tables, growth, diagnostics and the JSON helpers of the
** Jabbertoon loader (§1, §5 "names are data": own-property look-ups). */
#include <cjson/cJSON.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "toon.h"

static uint32_t hash_str(const char *s)
{
    uint32_t h = 2166136261u;
    while (*s) h = (h ^ (unsigned char)*s++) * 16777619u;
    return h;
}

int32_t jt_strtab_find(const jt_strtab *t, const char *s)
{
    if (!t->nslots) return -1;
    uint32_t m = (uint32_t)t->nslots - 1, i = hash_str(s) & m;
    for (;;) {
        int32_t v = t->slots[i];
        if (!v) return -1;
        if (!strcmp(t->keys[v - 1], s)) return v - 1;
        i = (i + 1) & m;
    }
}

static int rehash(jt_strtab *t, int32_t nslots)
{
    int32_t *slots = calloc((size_t)nslots, sizeof *slots);
    if (!slots) return -1;
    uint32_t m = (uint32_t)nslots - 1;
    for (int32_t k = 0; k < t->n; k++) {
        uint32_t i = hash_str(t->keys[k]) & m;
        while (slots[i]) i = (i + 1) & m;
        slots[i] = k + 1;
    }
    free(t->slots);
    t->slots = slots;
    t->nslots = nslots;
    return 0;
}

int32_t jt_strtab_intern(jt_strtab *t, const char *s, int *added)
{
    if (added) *added = 0;
    int32_t f = jt_strtab_find(t, s);
    if (f >= 0) return f;
    if ((t->n + 1) * 2 > t->nslots && rehash(t, t->nslots ? t->nslots * 2 : 16) < 0) return -1;
    if (jt_grow((void **)&t->keys, &t->cap, t->n + 1, sizeof *t->keys) < 0) return -1;
    char *copy = strdup(s);
    if (!copy) return -1;
    t->keys[t->n] = copy;
    uint32_t m = (uint32_t)t->nslots - 1, i = hash_str(s) & m;
    while (t->slots[i]) i = (i + 1) & m;
    t->slots[i] = ++t->n;
    if (added) *added = 1;
    return t->n - 1;
}

void jt_strtab_free(jt_strtab *t)
{
    for (int32_t k = 0; k < t->n; k++) free(t->keys[k]);
    free(t->keys);
    free(t->slots);
    memset(t, 0, sizeof *t);
}

int jt_grow(void **arr, int32_t *cap, int32_t need, size_t size)
{
    if (need <= *cap) return 0;
    if (need > (int32_t)(0x7fffffff / 2) || (size_t)need > ((size_t)-1) / 2 / size) return -1;
    int32_t c = *cap ? *cap : 8;
    while (c < need) c *= 2;
    void *p = realloc(*arr, (size_t)c * size);
    if (!p) return -1;
    *arr = p;
    *cap = c;
    return 0;
}

int jt_diag_add(jt_diags *d, int error, const char *path, const char *fmt, ...)
{
    if (d->n >= 100000) return 0;  /* a bound on what one validation reports */
    if (jt_grow((void **)&d->d, &d->cap, d->n + 1, sizeof *d->d) < 0) return -1;
    char text[600];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    size_t n = strlen(path) + strlen(text) + 3;
    char *m = malloc(n);
    if (!m) return -1;
    if (*path) snprintf(m, n, "%s: %s", path, text);
    else snprintf(m, n, "%s", text);
    d->d[d->n].error = error;
    d->d[d->n].message = m;
    d->n++;
    d->nerrors += error != 0;
    return 0;
}

int jt_diags_count(const jt_diags *d) { return d ? d->n : 0; }
const jt_diag *jt_diags_get(const jt_diags *d, int i) { return d && i >= 0 && i < d->n ? &d->d[i] : NULL; }
int jt_diags_errors(const jt_diags *d) { return d ? d->nerrors : 0; }

void jt_diags_free(jt_diags *d)
{
    if (!d) return;
    for (int i = 0; i < d->n; i++) free((char *)d->d[i].message);
    free(d->d);
    free(d);
}

cJSON *jt_get(const cJSON *obj, const char *key)
{
    if (!cJSON_IsObject(obj)) return NULL;
    cJSON *found = NULL;
    for (cJSON *c = obj->child; c; c = c->next)
        if (c->string && !strcmp(c->string, key)) found = c;
    return found;
}

/* An array index key: a canonical uint32 below 2^32 - 1 ("0", "7", not "07"). */
static int index_key(const char *s, uint32_t *v)
{
    if (!*s || (s[0] == '0' && s[1])) return 0;
    uint64_t x = 0;
    for (const char *p = s; *p; p++) {
        if (*p < '0' || *p > '9') return 0;
        x = x * 10 + (uint64_t)(*p - '0');
        if (x >= 4294967295ull) return 0;
    }
    *v = (uint32_t)x;
    return 1;
}

typedef struct entry { const char *key; cJSON *val; uint32_t idx; int isidx; int pos; } entry;

static int entry_cmp(const void *a, const void *b)
{
    const entry *x = a, *y = b;
    if (x->isidx != y->isidx) return x->isidx ? -1 : 1;
    if (x->isidx) return x->idx < y->idx ? -1 : x->idx > y->idx;
    return x->pos - y->pos;
}

int jt_entries(const cJSON *obj, const char ***keys, cJSON ***vals)
{
    *keys = NULL;
    *vals = NULL;
    int n = 0;
    for (cJSON *c = obj ? obj->child : NULL; c; c = c->next) n++;
    if (!n) return 0;
    entry *e = malloc((size_t)n * sizeof *e);
    jt_strtab seen = {0};
    int m = 0;
    if (!e) return -1;
    for (cJSON *c = obj->child; c; c = c->next) {
        const char *k = c->string ? c->string : "";
        int added;
        int32_t at = jt_strtab_intern(&seen, k, &added);
        if (at < 0) { free(e); jt_strtab_free(&seen); return -1; }
        if (!added) { e[at].val = c; continue; }  /* the last value at the first position */
        e[m].key = k;
        e[m].val = c;
        e[m].pos = m;
        e[m].isidx = index_key(k, &e[m].idx);
        m++;
    }
    jt_strtab_free(&seen);
    qsort(e, (size_t)m, sizeof *e, entry_cmp);
    *keys = malloc((size_t)m * sizeof **keys);
    *vals = malloc((size_t)m * sizeof **vals);
    if (!*keys || !*vals) { free(e); free(*keys); free(*vals); *keys = NULL; *vals = NULL; return -1; }
    for (int i = 0; i < m; i++) { (*keys)[i] = e[i].key; (*vals)[i] = e[i].val; }
    free(e);
    return m;
}

/* ---- printing JSON exactly ------------------------------------------------------------------------------------
** cJSON_Print writes a number with 15 digits unless that reads back "equal" within a relative
** epsilon, so 0.30000000000000004 comes back as 0.3: a program re-read after merging (a cartoon
** pack's cast, a pack's content, a does' inline behaviour) must keep every bit (§0 exact time). */
typedef struct { char *s; size_t n, cap; int oom; } jbuf;

static void jb_put(jbuf *b, const char *t, size_t n)
{
    if (b->oom) return;
    if (b->n + n + 1 > b->cap) {
        size_t c = b->cap ? b->cap : 256;
        while (c < b->n + n + 1) c *= 2;
        char *p = realloc(b->s, c);
        if (!p) { b->oom = 1; return; }
        b->s = p;
        b->cap = c;
    }
    memcpy(b->s + b->n, t, n);
    b->n += n;
    b->s[b->n] = 0;
}

static void jb_str(jbuf *b, const char *s)
{
    jb_put(b, "\"", 1);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        char esc[8];
        if (*p == '"' || *p == '\\') { esc[0] = '\\'; esc[1] = (char)*p; jb_put(b, esc, 2); }
        else if (*p < 0x20) { snprintf(esc, sizeof esc, "\\u%04x", *p); jb_put(b, esc, 6); }
        else jb_put(b, (const char *)p, 1);
    }
    jb_put(b, "\"", 1);
}

static void jb_value(jbuf *b, const cJSON *v)
{
    char num[40];
    if (cJSON_IsNumber(v)) {
        double d = v->valuedouble;
        int n = isfinite(d) ? snprintf(num, sizeof num, "%.17g", d) : snprintf(num, sizeof num, "null");
        jb_put(b, num, (size_t)n);
    } else if (cJSON_IsString(v)) {
        jb_str(b, v->valuestring ? v->valuestring : "");
    } else if (cJSON_IsArray(v) || cJSON_IsObject(v)) {
        int obj = cJSON_IsObject(v);
        jb_put(b, obj ? "{" : "[", 1);
        for (const cJSON *c = v->child; c; c = c->next) {
            if (obj) {
                jb_str(b, c->string ? c->string : "");
                jb_put(b, ":", 1);
            }
            jb_value(b, c);
            if (c->next) jb_put(b, ",", 1);
        }
        jb_put(b, obj ? "}" : "]", 1);
    } else if (cJSON_IsTrue(v)) {
        jb_put(b, "true", 4);
    } else if (cJSON_IsFalse(v)) {
        jb_put(b, "false", 5);
    } else {
        jb_put(b, "null", 4);
    }
}

char *jt_json_print(const cJSON *v)
{
    jbuf b = {NULL, 0, 0, 0};
    jb_value(&b, v);
    if (b.oom) {
        free(b.s);
        return NULL;
    }
    return b.s;
}
