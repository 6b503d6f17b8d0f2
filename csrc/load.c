/* load.c: path-tracking JSON access for the loaders (see load.h). */
#include "load.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jsnum.h"

#define OB_PATH_FRAMES (sizeof ((ob_loader *)0)->frames / sizeof ((ob_loader *)0)->frames[0])

static size_t path_push(ob_loader *L, const char *key, int32_t index)
{
    size_t mark = L->depth;
    if (L->depth < OB_PATH_FRAMES) L->frames[L->depth] = (struct ob_path_frame){key, index};
    L->depth++;
    return mark;
}

size_t ob_path_key(ob_loader *L, const char *key) { return path_push(L, key, 0); }
size_t ob_path_index(ob_loader *L, int32_t index) { return path_push(L, NULL, index); }
void ob_path_pop(ob_loader *L, size_t mark) { L->depth = mark; }

/* Appends n bytes to the path text of *len bytes, truncated to fit. */
static void path_put(ob_loader *L, size_t *len, const char *s, size_t n)
{
    size_t room = sizeof L->path - 1 - *len;
    if (n > room) n = room;
    memcpy(L->path + *len, s, n);
    *len += n;
}

/* The path as text (`skeleton.bones[3]`), "" at the top; in L->path.  More
** frames than kept always fill the text (each is 2 bytes or more). */
static const char *path_text(ob_loader *L)
{
    size_t len = 0, n = L->depth < OB_PATH_FRAMES ? L->depth : OB_PATH_FRAMES;
    for (size_t f = 0; f < n; f++) {
        const struct ob_path_frame *fr = &L->frames[f];
        if (fr->key) {
            if (len) path_put(L, &len, ".", 1);
            path_put(L, &len, fr->key, strlen(fr->key));
        } else {
            char buf[16], *p = buf + sizeof buf;
            uint32_t u = fr->index < 0 ? 0u - (uint32_t)fr->index : (uint32_t)fr->index;
            *--p = ']';
            do *--p = (char)('0' + u % 10); while (u /= 10);
            if (fr->index < 0) *--p = '-';
            *--p = '[';
            path_put(L, &len, p, (size_t)(buf + sizeof buf - p));
        }
    }
    L->path[len] = '\0';
    return L->path;
}

static int place(ob_loader *L, const char *key, char *buf, size_t cap)
{
    const char *path = path_text(L);
    if (key) return snprintf(buf, cap, "%s%s%s", path, path[0] ? "." : "", key);
    return snprintf(buf, cap, "%s", path[0] ? path : "document");
}

void ob_fail(ob_loader *L, const char *key, const char *fmt, ...)
{
    char *m = L->err->message;
    size_t cap = sizeof L->err->message;
    int n = place(L, key, m, cap);
    if (n < 0) n = 0;
    if ((size_t)n < cap - 2) {
        m[n++] = ':';
        m[n++] = ' ';
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(m + n, cap - (size_t)n, fmt, ap);
        va_end(ap);
    }
    L->err->status = OB_ERR_SCHEMA;
    longjmp(L->fail, 1);
}

/* A short description of a JSON value, the way the error messages show it. */
static void describe(const cJSON *v, char *buf, size_t cap)
{
    if (!v) snprintf(buf, cap, "nothing");
    else if (cJSON_IsNull(v)) snprintf(buf, cap, "null");
    else if (cJSON_IsTrue(v)) snprintf(buf, cap, "true");
    else if (cJSON_IsFalse(v)) snprintf(buf, cap, "false");
    else if (cJSON_IsNumber(v)) {
        char num[OB_JSNUM_CAP];
        ob_js_to_string(v->valuedouble, num, sizeof num);
        snprintf(buf, cap, "%.40s", num);
    } else if (cJSON_IsString(v)) {
        const char *s = v->valuestring;
        size_t len = strlen(s);
        if (len > 40) snprintf(buf, cap, "\"%.40s...\"", s);
        else snprintf(buf, cap, "\"%s\"", s);
    } else if (cJSON_IsArray(v)) snprintf(buf, cap, "an array");
    else snprintf(buf, cap, "an object");
}

void ob_fail_type(ob_loader *L, const char *key, const char *what, const cJSON *got)
{
    char d[64];
    describe(got, d, sizeof d);
    ob_fail(L, key, "expected %s, got %s", what, d);
}

void ob_warn(ob_loader *L, const char *key, const char *fmt, ...)
{
    char buf[512];
    int n = place(L, key, buf, sizeof buf);
    if (n < 0) n = 0;
    if ((size_t)n < sizeof buf - 2) {
        buf[n++] = ':';
        buf[n++] = ' ';
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(buf + n, sizeof buf - (size_t)n, fmt, ap);
        va_end(ap);
    }
    if (L->warning_count == L->warning_cap) {
        int32_t cap = L->warning_cap ? L->warning_cap * 2 : 16;
        const char **w = realloc(L->warnings, (size_t)cap * sizeof *w);
        if (!w) return;  /* a lost warning is not worth failing the load */
        L->warnings = w;
        L->warning_cap = cap;
    }
    const char *copy = ob_arena_strdup(&L->doc->arena, buf);
    if (copy) L->warnings[L->warning_count++] = copy;
}

static _Noreturn void out_of_memory(ob_loader *L)
{
    const char *path = path_text(L);
    snprintf(L->err->message, sizeof L->err->message, "%s: out of memory", path[0] ? path : "document");
    L->err->status = OB_ERR_MEMORY;
    longjmp(L->fail, 1);
}

void *ob_alloc(ob_loader *L, size_t n, size_t size)
{
    void *p = ob_arena_array(&L->doc->arena, n ? n : 1, size);
    if (!p) out_of_memory(L);
    return p;
}

const char *ob_strdup(ob_loader *L, const char *s)
{
    if (!s) return NULL;
    const char *p = ob_arena_strdup(&L->doc->arena, s);
    if (!p) out_of_memory(L);
    return p;
}


const char *ob_str(ob_loader *L, const cJSON *obj, const char *key, const char *def)
{
    const cJSON *v = ob_get(obj, key);
    if (!v) return def;
    if (!cJSON_IsString(v)) ob_fail_type(L, key, "a string", v);
    return ob_strdup(L, v->valuestring);
}

const char *ob_ref(ob_loader *L, const cJSON *obj, const char *key)
{
    const cJSON *v = ob_get(obj, key);
    if (!v) return NULL;
    if (cJSON_IsString(v)) return ob_strdup(L, v->valuestring);
    if (cJSON_IsNumber(v)) {  /* an id written as a number: compare as JS String(n) */
        char num[OB_JSNUM_CAP];
        ob_js_to_string(v->valuedouble, num, sizeof num);
        return ob_strdup(L, num);
    }
    ob_fail_type(L, key, "an id (a string)", v);
}

const char *ob_ref_peek(ob_loader *L, const cJSON *obj, const char *key, char *buf)
{
    const cJSON *v = ob_get(obj, key);
    if (!v) return NULL;
    if (cJSON_IsString(v)) return v->valuestring;
    if (cJSON_IsNumber(v)) {
        ob_js_to_string(v->valuedouble, buf, OB_JSNUM_CAP);
        return buf;
    }
    ob_fail_type(L, key, "an id (a string)", v);
}

int ob_bool(ob_loader *L, const cJSON *obj, const char *key, int def)
{
    const cJSON *v = ob_get(obj, key);
    if (!v) return def;
    if (cJSON_IsBool(v)) return cJSON_IsTrue(v);
    if (cJSON_IsNumber(v)) return v->valuedouble != 0 && !isnan(v->valuedouble);
    ob_fail_type(L, key, "true or false", v);
}

const cJSON *ob_arr(ob_loader *L, const cJSON *obj, const char *key)
{
    const cJSON *v = ob_get(obj, key);
    if (!v) return NULL;
    if (!cJSON_IsArray(v)) ob_fail_type(L, key, "an array", v);
    return v;
}

const cJSON *ob_obj(ob_loader *L, const cJSON *obj, const char *key)
{
    const cJSON *v = ob_get(obj, key);
    if (!v) return NULL;
    if (!cJSON_IsObject(v)) ob_fail_type(L, key, "an object", v);
    return v;
}

void ob_expect_object(ob_loader *L, const cJSON *item)
{
    if (!cJSON_IsObject(item)) ob_fail_type(L, NULL, "an object", item);
}

ob_range ob_range_get(ob_loader *L, const cJSON *obj, const char *key, ob_range def)
{
    const cJSON *v = ob_get(obj, key);
    if (!v) return def;
    if (cJSON_IsNumber(v)) return (ob_range){v->valuedouble, v->valuedouble};
    if (!cJSON_IsArray(v) || ob_json_count(v) != 2 || !cJSON_IsNumber(v->child) ||
        !cJSON_IsNumber(v->child->next))
        ob_fail_type(L, key, "a [min, max] pair of numbers", v);
    return (ob_range){v->child->valuedouble, v->child->next->valuedouble};
}

double *ob_num_list(ob_loader *L, const cJSON *obj, const char *key, int32_t *count)
{
    const cJSON *a = ob_arr(L, obj, key);
    *count = 0;
    if (!a) return NULL;
    int n = ob_json_count(a);
    if (n == 0) return NULL;
    double *out = ob_alloc(L, (size_t)n, sizeof *out);
    int i = 0;
    for (const cJSON *c = a->child; c; c = c->next, i++) {
        if ((c->type & 0xFF) != cJSON_Number) {  /* cJSON_IsNumber, inline */
            size_t m = ob_path_key(L, key);
            ob_path_index(L, i);
            ob_fail_type(L, NULL, "a number", c);
            (void)m;
        }
        out[i] = c->valuedouble;
    }
    *count = n;
    return out;
}

static int hexval(char c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

/* §4.5 parseHex: drop the first '#'; 3/4 digits are doubled; alpha 1 unless
** 8 digits are given.  Colours are doubles, never clamped. */
void ob_parse_hex(ob_loader *L, const char *key, const char *text, double rgba[4])
{
    char h[9];
    const char *s = text[0] == '#' ? text + 1 : text;
    size_t n = strlen(s);
    if (n != 3 && n != 4 && n != 6 && n != 8) goto bad;
    for (size_t i = 0; i < n; i++)
        if (hexval(s[i]) < 0) goto bad;
    if (n <= 4) {
        for (size_t i = 0; i < n; i++) h[2 * i] = h[2 * i + 1] = s[i];
        n *= 2;
    } else {
        memcpy(h, s, n);
    }
    for (int i = 0; i < 4; i++)
        rgba[i] = (i < 3 || n >= 8) ? (hexval(h[2 * i]) * 16 + hexval(h[2 * i + 1])) / 255.0 : 1.0;
    return;
bad:
    ob_fail(L, key, "expected a hex colour like \"#rrggbb\" or \"#rrggbbaa\", got \"%.40s\"", text);
}

int ob_color(ob_loader *L, const cJSON *obj, const char *key, const double def[4], double out[4])
{
    const cJSON *v = ob_get(obj, key);
    if (!v) {
        if (def) memcpy(out, def, 4 * sizeof(double));
        return 0;
    }
    if (!cJSON_IsString(v)) ob_fail_type(L, key, "a hex colour string", v);
    ob_parse_hex(L, key, v->valuestring, out);
    return 1;
}

ob_value ob_value_get(ob_loader *L, const cJSON *obj, const char *key)
{
    ob_value r = {OB_VAL_NULL, 0, NULL};
    const cJSON *v = ob_get(obj, key);
    if (!v) return r;
    if (cJSON_IsNumber(v)) { r.kind = OB_VAL_NUMBER; r.number = v->valuedouble; }
    else if (cJSON_IsBool(v)) { r.kind = OB_VAL_BOOL; r.number = cJSON_IsTrue(v); }
    else if (cJSON_IsString(v)) { r.kind = OB_VAL_STRING; r.string = ob_strdup(L, v->valuestring); }
    else ob_fail_type(L, key, "a number, boolean or string", v);
    return r;
}

/* ---- hashed look-ups (issue 21) --------------------------------------- */

uint64_t ob_str_hash(const ob_loader *L, const char *s) { return ob_str_hash_seeded(L->seed, s); }

uint64_t ob_str_hash_seeded(uint64_t seed, const char *s)
{
    uint64_t h = 0xcbf29ce484222325ULL ^ seed;  /* FNV-1a, then a 64-bit finaliser */
    for (; *s; s++) {
        h ^= (unsigned char)*s;
        h *= 0x100000001b3ULL;
    }
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdULL;
    h ^= h >> 33;
    h *= 0xc4ceb9fe1a85ec53ULL;
    return h ^ (h >> 33);
}

static int htab_grow(ob_htab *t)
{
    uint32_t cap = t->cap ? t->cap * 2 : 64;
    if (cap > (1u << 30)) return -1;
    uint64_t *hash = malloc((size_t)cap * sizeof *hash);
    int32_t *index = malloc((size_t)cap * sizeof *index);
    if (!hash || !index) {
        free(hash);
        free(index);
        return -1;
    }
    memset(index, 0xff, (size_t)cap * sizeof *index);
    for (uint32_t i = 0; i < t->cap; i++) {  /* reinserted in probe order: equal keys keep their order */
        if (t->index[i] < 0) continue;
        uint32_t j = (uint32_t)t->hash[i] & (cap - 1);
        while (index[j] >= 0) j = (j + 1) & (cap - 1);
        hash[j] = t->hash[i];
        index[j] = t->index[i];
    }
    free(t->hash);
    free(t->index);
    t->hash = hash;
    t->index = index;
    t->cap = cap;
    return 0;
}

int ob_htab_add(ob_htab *t, uint64_t hash, int32_t index)
{
    if ((uint32_t)(t->used + 1) * 2 > t->cap && htab_grow(t) < 0) return -1;
    uint32_t j = (uint32_t)hash & (t->cap - 1);
    while (t->index[j] >= 0) j = (j + 1) & (t->cap - 1);
    t->hash[j] = hash;
    t->index[j] = index;
    t->used++;
    return 0;
}

int32_t ob_htab_find(const ob_htab *t, uint64_t hash, int (*eq)(const void *ctx, int32_t index), const void *ctx)
{
    if (!t->cap) return -1;
    for (uint32_t j = (uint32_t)hash & (t->cap - 1); t->index[j] >= 0; j = (j + 1) & (t->cap - 1))
        if (t->hash[j] == hash && eq(ctx, t->index[j])) return t->index[j];
    return -1;
}

void ob_htab_free(ob_htab *t)
{
    free(t->hash);
    free(t->index);
    *t = (ob_htab){0};
}

void ob_loader_free_tables(ob_loader *L)
{
    ob_htab_free(&L->name_tab);
    ob_htab_free(&L->channel_tab);
    for (int32_t i = 0; i < L->id_count; i++) ob_htab_free(&L->ids[i].tab);
    L->id_count = 0;
}

struct field_eq { const char *base; size_t stride, offset; const char *key; };

static int field_eq(const void *ctx, int32_t i)
{
    const struct field_eq *c = ctx;
    const char *s = *(const char *const *)(c->base + (size_t)i * c->stride + c->offset);
    return s && strcmp(s, c->key) == 0;
}

int32_t ob_lookup(ob_loader *L, const void *array, int32_t count, size_t stride, size_t offset, const char *key)
{
    if (!key || count <= 0) return -1;
    ob_id_cache *x = NULL;
    for (int32_t i = 0; i < L->id_count && !x; i++)
        if (L->ids[i].array == array && L->ids[i].stride == stride && L->ids[i].offset == offset) x = &L->ids[i];
    if (!x) {
        if (L->id_count == OB_ID_CACHES) {  /* never with this runtime's arrays: start over */
            ob_htab_free(&L->ids[0].tab);
            x = &L->ids[0];
        } else {
            x = &L->ids[L->id_count++];
        }
        *x = (ob_id_cache){array, 0, stride, offset, {0}};
    }
    struct field_eq c = {array, stride, offset, NULL};
    if (x->count > count) {  /* a shorter prefix than indexed: rebuild (the loaders do not do this) */
        ob_htab_free(&x->tab);
        x->count = 0;
    }
    for (; x->count < count; x->count++) {  /* index the elements added since: first occurrences only */
        c.key = *(const char *const *)((const char *)array + (size_t)x->count * stride + offset);
        if (!c.key) continue;
        uint64_t h = ob_str_hash(L, c.key);
        if (ob_htab_find(&x->tab, h, field_eq, &c) < 0 && ob_htab_add(&x->tab, h, x->count) < 0)
            ob_fail(L, NULL, "out of memory");
    }
    c.key = key;
    return ob_htab_find(&x->tab, ob_str_hash(L, key), field_eq, &c);
}

struct name_eq { const char *const *names; const char *key; };

static int name_eq(const void *ctx, int32_t i)
{
    const struct name_eq *c = ctx;
    return strcmp(c->names[i], c->key) == 0;
}

int32_t ob_intern_name(ob_loader *L, const char *name)
{
    uint64_t h = ob_str_hash(L, name);
    struct name_eq c = {L->names, name};
    int32_t found = ob_htab_find(&L->name_tab, h, name_eq, &c);
    if (found >= 0) return found;
    if (L->name_count == L->name_cap) {
        int32_t cap = L->name_cap ? L->name_cap * 2 : 32;
        const char **n = realloc(L->names, (size_t)cap * sizeof *n);
        if (!n) ob_fail(L, NULL, "out of memory");
        L->names = n;
        L->name_cap = cap;
    }
    L->names[L->name_count] = ob_strdup(L, name);
    if (ob_htab_add(&L->name_tab, h, L->name_count) < 0) ob_fail(L, NULL, "out of memory");
    return L->name_count++;
}

static int same(const char *a, const char *b)
{
    if (!a || !b) return a == b;
    return strcmp(a, b) == 0;
}

struct channel_eq { const struct ob_channel_key *channels, *key; };

static int channel_eq(const void *ctx, int32_t i)
{
    const struct channel_eq *c = ctx;
    const struct ob_channel_key *k = &c->channels[i], *q = c->key;
    return k->target == q->target && k->property == q->property && same(k->id, q->id) && same(k->att, q->att);
}

int32_t ob_intern_channel(ob_loader *L, int target, int property, const char *id, const char *att)
{
    struct ob_channel_key key = {target, property, id, att};
    uint64_t h = ((uint64_t)(uint32_t)target << 32 | (uint32_t)property) * 0x9e3779b97f4a7c15ULL;
    h ^= id ? ob_str_hash(L, id) : 0x51ed27;
    h = (h ^ (h >> 29)) * 0xbf58476d1ce4e5b9ULL;
    h ^= att ? ob_str_hash(L, att) : 0x2545f491;
    struct channel_eq c = {L->channels, &key};
    int32_t found = ob_htab_find(&L->channel_tab, h, channel_eq, &c);
    if (found >= 0) return found;
    if (L->channel_count == L->channel_cap) {
        int32_t cap = L->channel_cap ? L->channel_cap * 2 : 64;
        struct ob_channel_key *n = realloc(L->channels, (size_t)cap * sizeof *n);
        if (!n) ob_fail(L, NULL, "out of memory");
        L->channels = n;
        L->channel_cap = cap;
    }
    L->channels[L->channel_count] = key;
    if (ob_htab_add(&L->channel_tab, h, L->channel_count) < 0) ob_fail(L, NULL, "out of memory");
    return L->channel_count++;
}

int ob_parse_inherit(const char *s)
{
    static const char *names[] = {"normal", "onlyTranslation", "noRotation", "noScale",
                                  "noRotationOrReflection", "noScaleOrReflection"};
    for (int i = 0; i < (int)(sizeof names / sizeof *names); i++)
        if (strcmp(s, names[i]) == 0) return i;
    return -1;
}

int ob_parse_property(const char *s)
{
    static const char *names[] = {
        "rotation", "x", "y", "scaleX", "scaleY", "shearX", "shearY",
        "inherit", "color", "dark", "alpha", "attachment",
        "mix", "softness", "bend", "stretch", "compress",
        "mixRotate", "mixTranslate", "mixScale", "mixShear",
        "position", "spacing", "mixX", "mixY",
        "inertia", "strength", "damping", "mass", "gravity", "wind",
        "frame", "emitting", "rate", "offsets", "order",
        "influenceOffsets", "mixScaleY", "reset"};
    for (int i = 0; i < (int)(sizeof names / sizeof *names); i++)
        if (s[0] == names[i][0] && strcmp(s, names[i]) == 0) return i;  /* first byte inline: issue 17 */
    return -1;
}

int32_t ob_find_id(const void *array, int32_t count, size_t stride, const char *id)
{
    if (!id) return -1;
    const char *p = array;
    for (int32_t i = 0; i < count; i++) {
        const char *s = *(const char *const *)(p + (size_t)i * stride);
        if (s && strcmp(s, id) == 0) return i;
    }
    return -1;
}

int32_t ob_find_name_or_id(const void *array, int32_t count, size_t stride, size_t name_offset, const char *ref)
{
    if (!ref) return -1;
    const char *p = array;
    for (int32_t i = 0; i < count; i++) {
        const char *s = *(const char *const *)(p + (size_t)i * stride + name_offset);
        if (s && strcmp(s, ref) == 0) return i;
    }
    return ob_find_id(array, count, stride, ref);
}
