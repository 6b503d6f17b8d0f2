/* binary.c: the .obonb codec (file format § Binary documents, runtime §2)
** and a JSON writer that formats like JSON.stringify (runtime §12).
**
** Layout: "OBNB", version byte 1, varint string count, strings (varint byte
** length + UTF-8), then one tagged value.  Varints are unsigned LEB128.
** Tags: 0 null, 1 false, 2 true, 3 unsigned varint, 4 negative integer
** (varint of -n-1), 5 float32 LE, 6 float64 LE, 7 string index, 8 array,
** 9 object (key index + value pairs), 10 data URL (mime index, bytes).
**
** The decoder reads untrusted input: every read is bounds-checked, every
** count is checked against the bytes left before anything is allocated, and
** nesting is limited, so a bad file fails with a message naming the offset.
** Choices where the format text is silent (each matches what a JavaScript
** decoder built on DataView/TextDecoder/plain objects would produce):
**   - varints hold up to 64 bits (10 bytes); tag 3/4 values are converted to
**     double once (exact up to 2^53, nearest double beyond, like JS Number).
**     Non-minimal varints (e.g. 0x80 0x00) are accepted.
**   - invalid UTF-8 in the string table becomes U+FFFD (WHATWG TextDecoder
**     replacement); a leading BOM is kept.  U+0000 cannot live in a C string
**     (cJSON), so a string holding a NUL byte is rejected.
**   - NaN and ±Infinity (tags 5, 6) become null, as JSON.stringify writes them.
**   - a repeated object key keeps the first key's position and the last value
**     (JS object semantics); keys equal after UTF-8 repair count as the same.
**   - keys keep insertion order (no JS "integer keys first" reordering).
*/
#include "binary.h"
#include "jsnum.h"

#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Containers nest at most this deep, in both directions: the same limit as
** cJSON_Parse, so every JSON text cJSON accepts can be encoded and decoded. */
#define OB_BINARY_MAX_DEPTH CJSON_NESTING_LIMIT

enum {
    TAG_NULL = 0, TAG_FALSE = 1, TAG_TRUE = 2, TAG_UINT = 3, TAG_NEGINT = 4,
    TAG_F32 = 5, TAG_F64 = 6, TAG_STRING = 7, TAG_ARRAY = 8, TAG_OBJECT = 9,
    TAG_DATAURL = 10
};

static const uint8_t MAGIC[4] = { 'O', 'B', 'N', 'B' };

int ob_binary_is_binary(const uint8_t *data, size_t len)
{
    return data != NULL && len >= 4 && memcmp(data, MAGIC, 4) == 0;
}

/* ------------------------------------------------------------------ */
/* Shared helpers                                                      */

static void set_err(char *err, size_t errcap, const char *fmt, ...)
{
    va_list ap;
    if (err == NULL || errcap == 0) return;
    va_start(ap, fmt);
    vsnprintf(err, errcap, fmt, ap);
    va_end(ap);
}

static uint64_t fnv1a(const char *s, size_t n)
{
    uint64_t h = 1469598103934665603ULL;
    for (size_t i = 0; i < n; i++) {
        h ^= (uint8_t)s[i];
        h *= 1099511628211ULL;
    }
    return h;
}

static const char B64[] =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/* Standard base64 with '=' padding; out needs 4 * ceil(n / 3) bytes. */
static size_t b64_encode(const uint8_t *in, size_t n, char *out)
{
    size_t o = 0, i = 0;
    for (; i + 3 <= n; i += 3) {
        uint32_t v = (uint32_t)in[i] << 16 | (uint32_t)in[i + 1] << 8 | in[i + 2];
        out[o++] = B64[v >> 18];
        out[o++] = B64[(v >> 12) & 63];
        out[o++] = B64[(v >> 6) & 63];
        out[o++] = B64[v & 63];
    }
    if (n - i == 1) {
        uint32_t v = (uint32_t)in[i] << 16;
        out[o++] = B64[v >> 18];
        out[o++] = B64[(v >> 12) & 63];
        out[o++] = '=';
        out[o++] = '=';
    } else if (n - i == 2) {
        uint32_t v = (uint32_t)in[i] << 16 | (uint32_t)in[i + 1] << 8;
        out[o++] = B64[v >> 18];
        out[o++] = B64[(v >> 12) & 63];
        out[o++] = B64[(v >> 6) & 63];
        out[o++] = '=';
    }
    return o;
}

static int b64_value(char c)
{
    if (c >= 'A' && c <= 'Z') return c - 'A';
    if (c >= 'a' && c <= 'z') return c - 'a' + 26;
    if (c >= '0' && c <= '9') return c - '0' + 52;
    if (c == '+') return 62;
    if (c == '/') return 63;
    return -1;
}

/* Decodes canonical base64 only: length a multiple of 4, '=' only as the
** final padding, unused bits zero (so re-encoding gives the same text).
** out needs 3 * n / 4 bytes.  Returns 0 when the text is not canonical. */
static int b64_decode_canonical(const char *s, size_t n, uint8_t *out, size_t *outlen)
{
    size_t pad = 0, o = 0;
    if (n % 4 != 0) return 0;
    if (n >= 1 && s[n - 1] == '=') pad++;
    if (n >= 2 && s[n - 2] == '=') pad++;
    for (size_t i = 0; i < n; i += 4) {
        int v[4];
        int last = (i + 4 == n);
        for (int k = 0; k < 4; k++) {
            if (last && k >= 4 - (int)pad) { v[k] = 0; continue; }
            v[k] = b64_value(s[i + k]);
            if (v[k] < 0) return 0;
        }
        uint32_t w = (uint32_t)v[0] << 18 | (uint32_t)v[1] << 12 | (uint32_t)v[2] << 6 | (uint32_t)v[3];
        if (last && pad == 2) {
            if (w & 0xFFFF) return 0;       /* unused bits must be zero */
            out[o++] = (uint8_t)(w >> 16);
        } else if (last && pad == 1) {
            if (w & 0xFF) return 0;
            out[o++] = (uint8_t)(w >> 16);
            out[o++] = (uint8_t)(w >> 8);
        } else {
            out[o++] = (uint8_t)(w >> 16);
            out[o++] = (uint8_t)(w >> 8);
            out[o++] = (uint8_t)w;
        }
    }
    *outlen = o;
    return 1;
}

/* WHATWG UTF-8 decode with replacement: the length of s[0..n) once every
** maximal invalid subpart is replaced by U+FFFD (EF BF BD); when out is not
** NULL the repaired text is written there; *bad (when not NULL) counts the
** replacements and *first the offset of the first (n when none). */
size_t ob_utf8_repair(const uint8_t *s, size_t n, char *out, size_t *bad, size_t *first)
{
    size_t o = 0, i = 0, nbad = 0;
    if (first) *first = n;
    while (i < n) {
        if (!out) {  /* counting: skip ASCII 8 bytes at a time (issue 17: a .obone load scans its text) */
            while (i + 8 <= n) {
                uint64_t w;
                memcpy(&w, s + i, 8);
                if (w & 0x8080808080808080ull) break;
                i += 8;
                o += 8;
            }
            if (i >= n) break;
        }
        uint8_t b = s[i];
        size_t need;
        uint8_t lo = 0x80, hi = 0xBF;
        if (b < 0x80) {
            if (out) out[o] = (char)b;
            o++;
            i++;
            continue;
        } else if (b >= 0xC2 && b <= 0xDF) {
            need = 1;
        } else if (b >= 0xE0 && b <= 0xEF) {
            need = 2;
            if (b == 0xE0) lo = 0xA0;
            if (b == 0xED) hi = 0x9F;
        } else if (b >= 0xF0 && b <= 0xF4) {
            need = 3;
            if (b == 0xF0) lo = 0x90;
            if (b == 0xF4) hi = 0x8F;
        } else {
            need = 0;
        }
        size_t j = i + 1, seen = 0;
        while (seen < need && j < n) {
            uint8_t c = s[j];
            if (c < lo || c > hi) break;
            lo = 0x80;
            hi = 0xBF;
            seen++;
            j++;
        }
        if (need > 0 && seen == need) {
            if (out) memcpy(out + o, s + i, need + 1);
            o += need + 1;
        } else {
            if (out) memcpy(out + o, "\xEF\xBF\xBD", 3);
            o += 3;
            if (first && nbad == 0) *first = i;
            nbad++;
        }
        i = j;   /* the byte that broke the sequence is read again */
    }
    if (bad) *bad = nbad;
    return o;
}

static size_t utf8_repair(const uint8_t *s, size_t n, char *out) { return ob_utf8_repair(s, n, out, NULL, NULL); }

/* ------------------------------------------------------------------ */
/* Decoder                                                             */

typedef struct {
    const uint8_t *data;
    size_t len;
    size_t pos;
    char *err;
    size_t errcap;
    size_t nstr;
    char *arena;      /* every string, NUL-terminated, back to back */
    size_t *soff;     /* string i starts at arena + soff[i] */
    size_t *canon;    /* first index holding the same text as string i */
    ob_binary_pool *pool; /* ob_binary_decode_pooled: nodes and strings live here */
} ob_dec;

/* ---- the pool of ob_binary_decode_pooled: blocks freed at once.  Not
** zeroed (mk fills every field of a node; issue 17: calloc's memset was 5% of
** a load).  The first block is sized from the input (POOL_PER_BYTE, below),
** so that a load makes one large temporary allocation, then 64 KB blocks if
** the tree outgrows it.  issue 17: with 64 KB blocks only, the tree's blocks
** went back to the top of the heap when the tree was dropped, glibc trimmed
** them back to the system, and the next load faulted every page in again
** (page faults were 45% of a load in perf, 0.9 µs per 4 KB page); one large
** block is what glibc's allocator keeps for the next one of its size (its
** dynamic mmap threshold: after the first is freed, it comes from the heap). */
#define POOL_BLOCK 65536
#define POOL_PER_BYTE 12                  /* tree bytes per .obonb byte: 10-14 for the example rigs */
#define POOL_FIRST_MAX ((size_t)64 << 20) /* past this, 64 KB blocks */
/* at least this: a small first block (cloud-pot's 216 KB) left glibc's trim
** threshold (twice the largest block freed) under what a load frees, and every
** load faulted its pages in again (1643 page faults against 389 for a driver
** run); untouched pages of the block cost nothing.  Inputs under
** POOL_SMALL keep 12x (tiny documents, fuzzers' inputs) */
#define POOL_FIRST_MIN ((size_t)1 << 20)
#define POOL_SMALL ((size_t)16 << 10)
struct ob_binary_pool_block {
    struct ob_binary_pool_block *next;
    size_t cap, used;
    max_align_t data[];
};

static void *pool_alloc(ob_binary_pool *p, size_t n)
{
    const size_t align = sizeof(max_align_t);
    n = (n + align - 1) / align * align;
    struct ob_binary_pool_block *b = p->head;
    if (__builtin_expect(!b || b->cap - b->used < n, 0)) {
        size_t cap = POOL_BLOCK - sizeof *b;
        if (!b && p->first > POOL_BLOCK) cap = p->first - sizeof *b;
        if (cap < n) cap = n;
        b = malloc(sizeof *b + cap);
        if (!b && cap > n && cap > POOL_BLOCK) {  /* the sized block is only a hint */
            cap = n > POOL_BLOCK - sizeof *b ? n : POOL_BLOCK - sizeof *b;
            b = malloc(sizeof *b + cap);
        }
        if (!b) return NULL;
        b->cap = cap;
        b->used = 0;
        b->next = p->head;
        p->head = b;
    }
    void *r = (char *)b->data + b->used;
    b->used += n;
    return r;
}

void ob_binary_pool_free(ob_binary_pool *p)
{
    for (struct ob_binary_pool_block *b = p->head, *next; b; b = next) {
        next = b->next;
        free(b);
    }
    p->head = NULL;
    p->first = 0;
}

static int dfail(ob_dec *d, size_t at, const char *fmt, ...)
{
    char msg[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    set_err(d->err, d->errcap, "binary: offset %zu: %s", at, msg);
    return 0;
}

static size_t left(const ob_dec *d) { return d->len - d->pos; }

static int rd_varint(ob_dec *d, uint64_t *out, const char *what)
{
    if (d->pos < d->len && d->data[d->pos] < 0x80) {  /* one byte: most of them */
        *out = d->data[d->pos++];
        return 1;
    }
    size_t start = d->pos;
    uint64_t v = 0;
    for (int i = 0;; i++) {
        if (d->pos >= d->len)
            return dfail(d, start, "%s: varint runs past the end of the data", what);
        uint8_t b = d->data[d->pos++];
        if (i == 9 && b > 1)  /* 10th byte carries bit 63 only */
            return dfail(d, start, "%s: varint overflows 64 bits", what);
        v |= (uint64_t)(b & 0x7F) << (7 * i);
        if (!(b & 0x80)) break;
    }
    *out = v;
    return 1;
}

/* A string-table index read at the current position. */
static int rd_index(ob_dec *d, size_t *out, const char *what)
{
    size_t at = d->pos;
    uint64_t v;
    if (!rd_varint(d, &v, what)) return 0;
    if (v >= d->nstr)
        return dfail(d, at, "%s %llu out of range (table has %zu strings)",
                     what, (unsigned long long)v, d->nstr);
    *out = (size_t)v;
    return 1;
}

static const char *dstr(const ob_dec *d, size_t i) { return d->arena + d->soff[i]; }
static size_t dlen(const ob_dec *d, size_t i) { return d->soff[i + 1] - d->soff[i] - 1; }

/* Reads the string table in two passes: the first checks every length
** against the data and sizes the repaired text, the second fills one arena.
** Then each string gets its canonical index (first string with that text). */
static int read_table(ob_dec *d)
{
    size_t at = d->pos, n, i, body, total = 0;
    int any_bad = 0;
    uint64_t count;
    if (!rd_varint(d, &count, "string count")) return 0;
    /* every string needs at least its length byte */
    if (count > left(d))
        return dfail(d, at, "string count %llu exceeds the %zu bytes left",
                     (unsigned long long)count, left(d));
    n = (size_t)count;
    d->nstr = n;
    d->soff = malloc((n + 1) * sizeof *d->soff);
    d->canon = malloc((n + 1) * sizeof *d->canon);
    if (!d->soff || !d->canon) return dfail(d, at, "out of memory for %zu strings", n);
    body = d->pos;
    for (i = 0; i < n; i++) {
        size_t sat = d->pos;
        uint64_t slen;
        if (!rd_varint(d, &slen, "string length")) return 0;
        if (slen > left(d))
            return dfail(d, sat, "string %zu length %llu runs past the end of the data (%zu bytes left)",
                         i, (unsigned long long)slen, left(d));
        if (memchr(d->data + d->pos, 0, (size_t)slen) != NULL)
            return dfail(d, sat, "string %zu contains a NUL character (not supported)", i);
        d->soff[i] = total;
        /* invalid UTF-8 → U+FFFD, as TextDecoder does */
        size_t bad;
        total += ob_utf8_repair(d->data + d->pos, (size_t)slen, NULL, &bad, NULL) + 1;
        any_bad |= bad != 0;
        d->pos += (size_t)slen;
    }
    d->soff[n] = total;
    d->arena = d->pool ? pool_alloc(d->pool, total ? total : 1) : malloc(total ? total : 1);
    if (!d->arena) return dfail(d, at, "out of memory for the string table");
    {
        /* second pass: the lengths were all checked above */
        size_t end = d->pos;
        d->pos = body;
        for (i = 0; i < n; i++) {
            uint64_t slen;
            rd_varint(d, &slen, "string length");
            if (!any_bad)  /* valid UTF-8: as is */
                memcpy(d->arena + d->soff[i], d->data + d->pos, (size_t)slen);
            else
                utf8_repair(d->data + d->pos, (size_t)slen, d->arena + d->soff[i]);
            d->arena[d->soff[i + 1] - 1] = '\0';
            d->pos += (size_t)slen;
        }
        d->pos = end;
    }
    {
        /* object keys are compared by text, as JS property names are */
        size_t cap = 16;
        size_t *slots;
        while (cap < 2 * n) cap *= 2;
        slots = malloc(cap * sizeof *slots);
        if (!slots) return dfail(d, at, "out of memory for the string table");
        for (i = 0; i < cap; i++) slots[i] = (size_t)-1;
        for (i = 0; i < n; i++) {
            size_t h = (size_t)fnv1a(dstr(d, i), dlen(d, i)) & (cap - 1);
            d->canon[i] = i;
            while (slots[h] != (size_t)-1) {
                size_t j = slots[h];
                if (dlen(d, j) == dlen(d, i) && memcmp(dstr(d, j), dstr(d, i), dlen(d, i)) == 0) {
                    d->canon[i] = j;
                    break;
                }
                h = (h + 1) & (cap - 1);
            }
            if (d->canon[i] == i) slots[h] = i;
        }
        free(slots);
    }
    return 1;
}

/* Keys seen in one object: canonical string index -> item (open addressing,
** grown as pairs arrive, so memory follows the bytes actually read). */
typedef struct {
    size_t cap, used;
    size_t *key;
    cJSON **item;
    size_t key0[16];
    cJSON *item0[16];
} keymap;

static void keymap_init(keymap *m)
{
    m->cap = 16;
    m->used = 0;
    m->key = m->key0;
    m->item = m->item0;
    for (size_t i = 0; i < 16; i++) m->key0[i] = (size_t)-1;
}

static void keymap_free(keymap *m)
{
    if (m->key != m->key0) {
        free(m->key);
        free(m->item);
    }
}

static size_t keymap_hash(size_t k, size_t cap)
{
    return (size_t)(((uint64_t)k * 0x9E3779B97F4A7C15ULL) >> 32) & (cap - 1);
}

/* The slot for key k (inserting it with a NULL item when new); NULL on OOM. */
static cJSON **keymap_slot(keymap *m, size_t k)
{
    size_t h;
    if ((m->used + 1) * 2 > m->cap) {
        size_t ncap = m->cap * 2, i;
        size_t *nk = malloc(ncap * sizeof *nk);
        cJSON **ni = malloc(ncap * sizeof *ni);
        if (!nk || !ni) {
            free(nk);
            free(ni);
            return NULL;
        }
        for (i = 0; i < ncap; i++) nk[i] = (size_t)-1;
        for (i = 0; i < m->cap; i++) {
            size_t g;
            if (m->key[i] == (size_t)-1) continue;
            g = keymap_hash(m->key[i], ncap);
            while (nk[g] != (size_t)-1) g = (g + 1) & (ncap - 1);
            nk[g] = m->key[i];
            ni[g] = m->item[i];
        }
        keymap_free(m);
        m->key = nk;
        m->item = ni;
        m->cap = ncap;
    }
    h = keymap_hash(k, m->cap);
    while (m->key[h] != (size_t)-1 && m->key[h] != k) h = (h + 1) & (m->cap - 1);
    if (m->key[h] != k) {
        m->key[h] = k;
        m->item[h] = NULL;
        m->used++;
    }
    return &m->item[h];
}

/* ---- tree nodes: cJSON's own (freed with cJSON_Delete) or, pooled, bump
** allocated with their strings (the string table stays, each text once) and
** freed with the pool: a document's tree is read once and dropped (issue 17) */
static cJSON *mk(ob_dec *d, int type)
{
    if (!d->pool) {
        switch (type) {
        case cJSON_NULL: return cJSON_CreateNull();
        case cJSON_False: return cJSON_CreateFalse();
        case cJSON_True: return cJSON_CreateTrue();
        case cJSON_Array: return cJSON_CreateArray();
        case cJSON_Object: return cJSON_CreateObject();
        default: return NULL;
        }
    }
    cJSON *v = pool_alloc(d->pool, sizeof *v);
    if (v) *v = (cJSON){.type = type};
    return v;
}

static cJSON *mk_number(ob_dec *d, double x)
{
    if (!d->pool) return cJSON_CreateNumber(x);
    cJSON *v = mk(d, cJSON_Number);
    if (!v) return NULL;
    v->valuedouble = x;  /* valueint as cJSON_CreateNumber sets it */
    v->valueint = x >= INT_MAX ? INT_MAX : x <= (double)INT_MIN ? INT_MIN : (int)x;
    return v;
}

/* s stays valid as long as the tree (the string table, or pooled memory) */
static cJSON *mk_string(ob_dec *d, const char *s)
{
    if (!d->pool) return cJSON_CreateString(s);
    cJSON *v = mk(d, cJSON_String);
    if (v) v->valuestring = (char *)s;
    return v;
}

static void drop(ob_dec *d, cJSON *v)
{
    if (!d->pool) cJSON_Delete(v);
}

/* Appends v to the array or object parent (key: the object key); 0 when out of memory. */
static int append(ob_dec *d, cJSON *parent, const char *key, cJSON *v)
{
    if (!d->pool) return key ? cJSON_AddItemToObject(parent, key, v) : cJSON_AddItemToArray(parent, v);
    if (key) v->string = (char *)key;
    if (!parent->child) {  /* cJSON's list: the first child's prev is the last */
        parent->child = v;
        v->prev = v;
    } else {
        cJSON *last = parent->child->prev;
        last->next = v;
        v->prev = last;
        parent->child->prev = v;
    }
    return 1;
}

/* Moves nv's value into old (which keeps its key and list position) and
** frees nv together with old's previous value. */
static void replace_value(ob_dec *d, cJSON *old, cJSON *nv)
{
    cJSON *child = old->child;
    char *vs = old->valuestring;
    int type = old->type;
    old->child = nv->child;
    old->valuestring = nv->valuestring;
    old->valuedouble = nv->valuedouble;
    old->valueint = nv->valueint;
    old->type = (nv->type & (0xFF | OB_JSON_COUNTED)) | (type & cJSON_StringIsConst);
    nv->child = child;
    nv->valuestring = vs;
    nv->type = type & ~cJSON_StringIsConst;
    nv->string = NULL;
    drop(d, nv);
}

static cJSON *dec_value(ob_dec *d, int depth);

/* The node of a float32 whose 4 little-endian bytes are at q. */
static cJSON *f32_node(ob_dec *d, const uint8_t *q)
{
    uint32_t w = (uint32_t)q[0] | (uint32_t)q[1] << 8 | (uint32_t)q[2] << 16 | (uint32_t)q[3] << 24;
    float f;
    memcpy(&f, &w, 4);
    /* §2: float32 → Number(f.toPrecision(7)); NaN/±Infinity → null */
    if (isnan(f) || isinf(f)) return mk(d, cJSON_NULL);
    return mk_number(d, ob_js_f32_round7(f));
}

static cJSON *doom(ob_dec *d, size_t at)
{
    dfail(d, at, "out of memory");
    return NULL;
}

static cJSON *dec_array(ob_dec *d, size_t at, int depth)
{
    size_t cat = d->pos;
    uint64_t n;
    cJSON *arr;
    if (depth >= OB_BINARY_MAX_DEPTH) {
        dfail(d, at, "nesting deeper than %d levels", OB_BINARY_MAX_DEPTH);
        return NULL;
    }
    if (!rd_varint(d, &n, "array length")) return NULL;
    if (n > left(d)) {  /* each value needs at least its tag byte */
        dfail(d, cat, "array length %llu exceeds the %zu bytes left",
              (unsigned long long)n, left(d));
        return NULL;
    }
    arr = mk(d, cJSON_Array);
    if (!arr) return doom(d, at);
    for (uint64_t i = 0; i < n; i++) {
        cJSON *v;
        if (left(d) >= 5 && d->data[d->pos] == TAG_F32) {
            /* issue 17: a float32 element (vertices, uvs, curves) without the
            ** general dispatch */
            v = f32_node(d, d->data + d->pos + 1);
            d->pos += 5;
            if (!v) {
                drop(d, arr);
                return doom(d, d->pos - 5);
            }
        } else {
            v = dec_value(d, depth + 1);
        }
        if (!v) {
            drop(d, arr);
            return NULL;
        }
        if (!append(d, arr, NULL, v)) {
            drop(d, v);
            drop(d, arr);
            return doom(d, at);
        }
    }
    if (d->pool && n <= INT_MAX) {  /* issue 17: the loaders' counts, O(1) (binary.h) */
        arr->valueint = (int)n;
        arr->type |= OB_JSON_COUNTED;
    }
    return arr;
}

static cJSON *dec_object(ob_dec *d, size_t at, int depth)
{
    size_t cat = d->pos;
    uint64_t n;
    cJSON *obj;
    keymap km;
    if (depth >= OB_BINARY_MAX_DEPTH) {
        dfail(d, at, "nesting deeper than %d levels", OB_BINARY_MAX_DEPTH);
        return NULL;
    }
    if (!rd_varint(d, &n, "object count")) return NULL;
    if (n > left(d) / 2) {  /* each pair needs a key byte and a tag byte */
        dfail(d, cat, "object count %llu exceeds the %zu bytes left",
              (unsigned long long)n, left(d));
        return NULL;
    }
    obj = mk(d, cJSON_Object);
    if (!obj) return doom(d, at);
    /* the keys seen so far: a short list compared by canonical index (most
    ** objects have a few keys), the hashed keymap past 16 (issue 17) */
    size_t few_key[16];
    cJSON *few_item[16];
    int few = 0, hashed = 0, count = 0;
    for (uint64_t i = 0; i < n; i++) {
        size_t k, ck;
        cJSON *v, **slot = NULL;
        if (!rd_index(d, &k, "key string index")) goto fail;
        v = dec_value(d, depth + 1);
        if (!v) goto fail;
        ck = d->canon[k];
        if (!hashed) {
            for (int j = 0; j < few; j++)
                if (few_key[j] == ck) {
                    slot = &few_item[j];
                    break;
                }
            if (!slot && few < 16) {
                few_key[few] = ck;
                few_item[few] = NULL;
                slot = &few_item[few++];
            } else if (!slot) {
                keymap_init(&km);
                hashed = 1;
                int j = 0;
                for (cJSON **s; j < few && (s = keymap_slot(&km, few_key[j])) != NULL; j++) *s = few_item[j];
                if (j == few) slot = keymap_slot(&km, ck);  /* else out of memory: slot stays NULL */
            }
        } else {
            slot = keymap_slot(&km, ck);
        }
        if (!slot) {
            drop(d, v);
            doom(d, at);
            goto fail;
        }
        if (*slot) {
            /* §2 "the same JSON value": a repeated key keeps the first
            ** position and the last value, as in a JS object */
            replace_value(d, *slot, v);
            continue;
        }
        if (!append(d, obj, dstr(d, k), v)) {
            drop(d, v);
            doom(d, at);
            goto fail;
        }
        *slot = v;
        count++;
    }
    if (hashed) keymap_free(&km);
    if (d->pool) {
        obj->valueint = count;
        obj->type |= OB_JSON_COUNTED;
    }
    return obj;
fail:
    if (hashed) keymap_free(&km);
    drop(d, obj);
    return NULL;
}

static cJSON *dec_dataurl(ob_dec *d, size_t at)
{
    size_t mime, lat, mlen, blen, total;
    uint64_t n;
    char *s;
    cJSON *v;
    if (!rd_index(d, &mime, "mime string index")) return NULL;
    lat = d->pos;
    if (!rd_varint(d, &n, "data length")) return NULL;
    if (n > left(d)) {
        dfail(d, lat, "data length %llu runs past the end of the data (%zu bytes left)",
              (unsigned long long)n, left(d));
        return NULL;
    }
    /* §2: tag 10 becomes data:<mime>;base64,<bytes> */
    mlen = dlen(d, mime);
    blen = ((size_t)n + 2) / 3 * 4;
    total = 5 + mlen + 8 + blen + 1;
    s = d->pool ? pool_alloc(d->pool, total) : malloc(total);
    if (!s) return doom(d, at);
    memcpy(s, "data:", 5);
    memcpy(s + 5, dstr(d, mime), mlen);
    memcpy(s + 5 + mlen, ";base64,", 8);
    b64_encode(d->data + d->pos, (size_t)n, s + 13 + mlen);
    s[total - 1] = '\0';
    d->pos += (size_t)n;
    v = mk_string(d, s);
    if (!d->pool) free(s);
    if (!v) return doom(d, at);
    return v;
}

static cJSON *dec_value(ob_dec *d, int depth)
{
    size_t at = d->pos;
    uint8_t tag;
    if (d->pos >= d->len) {
        dfail(d, at, "expected a value tag, found the end of the data");
        return NULL;
    }
    tag = d->data[d->pos++];
    {
        cJSON *v = NULL;
        switch (tag) {
        case TAG_NULL: v = mk(d, cJSON_NULL); break;
        case TAG_FALSE: v = mk(d, cJSON_False); break;
        case TAG_TRUE: v = mk(d, cJSON_True); break;
        case TAG_UINT:
        case TAG_NEGINT: {
            uint64_t u;
            if (!rd_varint(d, &u, tag == TAG_UINT ? "unsigned integer" : "negative integer"))
                return NULL;
            /* converted to double once: exact up to 2^53 (JS Number) */
            v = mk_number(d, tag == TAG_UINT ? (double)u : -(double)u - 1.0);
            break;
        }
        case TAG_F32:
            if (left(d) < 4) {
                dfail(d, d->pos, "float32 needs 4 bytes, %zu left", left(d));
                return NULL;
            }
            v = f32_node(d, d->data + d->pos);
            d->pos += 4;
            break;
        case TAG_F64: {
            uint64_t w = 0;
            double x;
            if (left(d) < 8) {
                dfail(d, d->pos, "float64 needs 8 bytes, %zu left", left(d));
                return NULL;
            }
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
            memcpy(&w, d->data + d->pos, 8);
#else
            for (int i = 7; i >= 0; i--) w = w << 8 | d->data[d->pos + (size_t)i];
#endif
            d->pos += 8;
            memcpy(&x, &w, 8);
            /* §2: float64 as is; NaN/±Infinity → null (JSON cannot hold them) */
            if (isnan(x) || isinf(x)) v = mk(d, cJSON_NULL);
            else v = mk_number(d, x);
            break;
        }
        case TAG_STRING: {
            size_t k;
            if (!rd_index(d, &k, "string index")) return NULL;
            v = mk_string(d, dstr(d, k));
            break;
        }
        case TAG_ARRAY: return dec_array(d, at, depth);
        case TAG_OBJECT: return dec_object(d, at, depth);
        case TAG_DATAURL: return dec_dataurl(d, at);
        default:
            dfail(d, at, "unknown tag %u (expected 0-10)", (unsigned)tag);
            return NULL;
        }
        if (!v) return doom(d, at);
        return v;
    }
}

/* ---- the pooled decoder's fast path (issue 17: building the tree was half
** of a .obonb load).  The same tree as dec_value builds into a pool, with
** the same checks, read through pointers with the node bump and the one-byte
** varints inline.  On any failure it gives up and decode() runs the checked
** decoder above, so every message stays as that decoder words it. */
typedef struct {
    const uint8_t *p, *end;
    const ob_dec *d;              /* the string table */
    ob_binary_pool *pool;
    unsigned char *cur, *lim;     /* the rest of the pool's head block */
} fdec;

/* n bytes (a multiple of the alignment) from a new head block of the pool. */
static void *fbump_slow(fdec *f, size_t n)
{
    struct ob_binary_pool_block *h = f->pool->head;
    if (h) h->used = h->cap - (size_t)(f->lim - f->cur);
    if (!pool_alloc(f->pool, n)) return NULL;  /* a fresh block (n is more than the rest) */
    h = f->pool->head;
    f->cur = (unsigned char *)h->data + h->used;
    f->lim = (unsigned char *)h->data + h->cap;
    return f->cur - n;
}

static inline void *fbump(fdec *f, size_t n)
{
    if (__builtin_expect((size_t)(f->lim - f->cur) >= n, 1)) {
        f->cur += n;
        return f->cur - n;
    }
    return fbump_slow(f, n);
}

static inline cJSON *fnode(fdec *f, int type)
{
    _Static_assert(sizeof(cJSON) % sizeof(max_align_t) == 0, "nodes keep the pool's alignment");
    cJSON *v = fbump(f, sizeof(cJSON));
    if (v) *v = (cJSON){.type = type};
    return v;
}

static int fvar_slow(fdec *f, uint64_t *out)
{
    uint64_t v = 0;
    for (int i = 0;; i++) {
        if (f->p >= f->end) return 0;
        uint8_t b = *f->p++;
        if (i == 9 && b > 1) return 0;  /* the 10th byte carries bit 63 only */
        v |= (uint64_t)(b & 0x7F) << (7 * i);
        if (!(b & 0x80)) break;
    }
    *out = v;
    return 1;
}

static inline int fvar(fdec *f, uint64_t *out)
{
    if (__builtin_expect(f->p < f->end && *f->p < 0x80, 1)) {
        *out = *f->p++;
        return 1;
    }
    return fvar_slow(f, out);
}

static inline cJSON *fnumber(fdec *f, double x)
{
    cJSON *v = fnode(f, cJSON_Number);
    if (v) {
        v->valuedouble = x;  /* valueint as cJSON_CreateNumber sets it */
        v->valueint = x >= INT_MAX ? INT_MAX : x <= (double)INT_MIN ? INT_MIN : (int)x;
    }
    return v;
}

static inline cJSON *ff32(fdec *f, const uint8_t *q)
{
    uint32_t w = (uint32_t)q[0] | (uint32_t)q[1] << 8 | (uint32_t)q[2] << 16 | (uint32_t)q[3] << 24;
    float x;
    memcpy(&x, &w, 4);
    /* §2: float32 → Number(f.toPrecision(7)); NaN/±Infinity → null */
    if (isnan(x) || isinf(x)) return fnode(f, cJSON_NULL);
    return fnumber(f, ob_js_f32_round7(x));
}

static inline cJSON *ff64(fdec *f, const uint8_t *q)
{
    uint64_t w = 0;
    double x;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    memcpy(&w, q, 8);
#else
    for (int i = 7; i >= 0; i--) w = w << 8 | q[i];
#endif
    memcpy(&x, &w, 8);
    /* §2: float64 as is; NaN/±Infinity → null (JSON cannot hold them) */
    if (isnan(x) || isinf(x)) return fnode(f, cJSON_NULL);
    return fnumber(f, x);
}

static cJSON *fvalue(fdec *f, int depth);

/* the fast decoder's append: v after *last (the first child's prev, cJSON's
** last-child link, is set once the container is complete) */
static inline void flink(cJSON *parent, cJSON **last, cJSON *v)
{
    if (*last) {
        (*last)->next = v;
        v->prev = *last;
    } else {
        parent->child = v;
    }
    *last = v;
}

static cJSON *farray(fdec *f, int depth)
{
    uint64_t n;
    if (depth >= OB_BINARY_MAX_DEPTH || !fvar(f, &n) || n > (uint64_t)(f->end - f->p) || n > INT_MAX) return NULL;
    cJSON *arr = fnode(f, cJSON_Array | OB_JSON_COUNTED), *last = NULL;
    if (!arr) return NULL;
    for (uint64_t i = 0; i < n; i++) {
        cJSON *v;
        if (f->end - f->p >= 9 && f->p[0] == TAG_F64) {  /* numbers without the dispatch */
            v = ff64(f, f->p + 1);
            f->p += 9;
        } else if (f->end - f->p >= 5 && f->p[0] == TAG_F32) {
            v = ff32(f, f->p + 1);
            f->p += 5;
        } else {
            v = fvalue(f, depth + 1);
        }
        if (!v) return NULL;
        flink(arr, &last, v);
    }
    if (last) arr->child->prev = last;  /* cJSON's list: the first child's prev is the last */
    arr->valueint = (int)n;
    return arr;
}

static cJSON *fobject(fdec *f, int depth)
{
    uint64_t n;
    if (depth >= OB_BINARY_MAX_DEPTH || !fvar(f, &n) || n > (uint64_t)(f->end - f->p) / 2) return NULL;
    cJSON *obj = fnode(f, cJSON_Object | OB_JSON_COUNTED), *last = NULL;
    if (!obj) return NULL;
    const ob_dec *d = f->d;
    keymap km;
    int hashed = n > 32, count = 0;  /* short objects: a 64-bit mask of the keys seen, then a list walk */
    uint64_t seen = 0;
    if (hashed) keymap_init(&km);
    for (uint64_t i = 0; i < n; i++) {
        uint64_t k;
        if (!fvar(f, &k) || k >= d->nstr) goto fail;
        cJSON *v = fvalue(f, depth + 1);
        if (!v) goto fail;
        size_t ck = d->canon[k];
        const char *key = dstr(d, ck);  /* one pointer per text: equal keys, equal pointers */
        cJSON *old = NULL, **slot = NULL;
        if (hashed) {
            if (!(slot = keymap_slot(&km, ck))) goto fail;
            old = *slot;
        } else if (seen & (1ull << (ck & 63))) {
            for (cJSON *c = obj->child; c; c = c->next)
                if (c->string == key) {
                    old = c;
                    break;
                }
        }
        seen |= 1ull << (ck & 63);
        if (old) {  /* §2: a repeated key keeps the first position and the last value */
            old->child = v->child;
            old->valuestring = v->valuestring;
            old->valuedouble = v->valuedouble;
            old->valueint = v->valueint;
            old->type = v->type;
            continue;
        }
        v->string = (char *)key;
        if (slot) *slot = v;
        flink(obj, &last, v);
        count++;
    }
    if (hashed) keymap_free(&km);
    if (last) obj->child->prev = last;
    obj->valueint = count;
    return obj;
fail:
    if (hashed) keymap_free(&km);
    return NULL;
}

static cJSON *fvalue(fdec *f, int depth)
{
    if (f->p >= f->end) return NULL;
    uint8_t tag = *f->p++;
    switch (tag) {
    case TAG_NULL: return fnode(f, cJSON_NULL);
    case TAG_FALSE: return fnode(f, cJSON_False);
    case TAG_TRUE: return fnode(f, cJSON_True);
    case TAG_UINT:
    case TAG_NEGINT: {
        uint64_t u;
        if (!fvar(f, &u)) return NULL;
        /* converted to double once: exact up to 2^53 (JS Number) */
        return fnumber(f, tag == TAG_UINT ? (double)u : -(double)u - 1.0);
    }
    case TAG_F32: {
        if (f->end - f->p < 4) return NULL;
        cJSON *v = ff32(f, f->p);
        f->p += 4;
        return v;
    }
    case TAG_F64: {
        if (f->end - f->p < 8) return NULL;
        cJSON *v = ff64(f, f->p);
        f->p += 8;
        return v;
    }
    case TAG_STRING: {
        uint64_t k;
        if (!fvar(f, &k) || k >= f->d->nstr) return NULL;
        cJSON *v = fnode(f, cJSON_String);
        if (v) v->valuestring = (char *)dstr(f->d, (size_t)k);
        return v;
    }
    case TAG_ARRAY: return farray(f, depth);
    case TAG_OBJECT: return fobject(f, depth);
    case TAG_DATAURL: {
        uint64_t mime, n;
        if (!fvar(f, &mime) || mime >= f->d->nstr || !fvar(f, &n) || n > (uint64_t)(f->end - f->p)) return NULL;
        /* §2: tag 10 becomes data:<mime>;base64,<bytes> */
        size_t mlen = dlen(f->d, (size_t)mime), blen = ((size_t)n + 2) / 3 * 4, total = 5 + mlen + 8 + blen + 1;
        char *s = fbump(f, (total + sizeof(max_align_t) - 1) / sizeof(max_align_t) * sizeof(max_align_t));
        cJSON *v = s ? fnode(f, cJSON_String) : NULL;
        if (!v) return NULL;
        memcpy(s, "data:", 5);
        memcpy(s + 5, dstr(f->d, (size_t)mime), mlen);
        memcpy(s + 5 + mlen, ";base64,", 8);
        b64_encode(f->p, (size_t)n, s + 13 + mlen);
        s[total - 1] = '\0';
        f->p += n;
        v->valuestring = s;
        return v;
    }
    default:
        return NULL;
    }
}

/* The tree of the value at d->pos to the end of the data, or NULL (nothing
** said: the caller decodes again with the checked decoder for the message). */
static cJSON *fast_decode(ob_dec *d)
{
    fdec f = {d->data + d->pos, d->data + d->len, d, d->pool, NULL, NULL};
    struct ob_binary_pool_block *h = d->pool->head;  /* the string table's block: its rest first */
    if (h) {
        f.cur = (unsigned char *)h->data + h->used;
        f.lim = (unsigned char *)h->data + h->cap;
    }
    cJSON *v = fvalue(&f, 0);
    if ((h = d->pool->head) != NULL) h->used = h->cap - (size_t)(f.lim - f.cur);
    return v && f.p == f.end ? v : NULL;
}

static cJSON *decode(const uint8_t *data, size_t len, char *err, size_t errcap, ob_binary_pool *pool)
{
    ob_dec d;
    cJSON *v = NULL;
    memset(&d, 0, sizeof d);
    d.pool = pool;
    d.data = data;
    d.len = data ? len : 0;
    d.err = err;
    d.errcap = errcap;
    if (err && errcap) err[0] = '\0';
    if (d.len < 4 || memcmp(data, MAGIC, 4) != 0) {
        dfail(&d, 0, "not a binary document (expected the magic \"OBNB\")");
        return NULL;
    }
    d.pos = 4;
    if (d.pos >= d.len) {
        dfail(&d, 4, "version byte missing (data ends after the magic)");
        return NULL;
    }
    if (data[4] != 1) {
        dfail(&d, 4, "unsupported version %u (expected 1)", (unsigned)data[4]);
        return NULL;
    }
    d.pos = 5;
    if (pool && !pool->head && !pool->first)
        pool->first = len < POOL_SMALL ? len * POOL_PER_BYTE
                    : len < POOL_FIRST_MIN / POOL_PER_BYTE ? POOL_FIRST_MIN
                    : len < POOL_FIRST_MAX / POOL_PER_BYTE ? len * POOL_PER_BYTE : POOL_FIRST_MAX;
    if (!read_table(&d)) goto done;
    if (pool) {
        if ((v = fast_decode(&d)) != NULL) goto done;
        /* bad data (or out of memory): again, checked, for the message */
        ob_binary_pool_free(pool);
        free(d.soff);
        free(d.canon);
        d.soff = NULL;
        d.canon = NULL;
        d.pos = 5;
        if (!read_table(&d)) goto done;
    }
    v = dec_value(&d, 0);
    if (v && d.pos != d.len) {
        dfail(&d, d.pos, "trailing data: %zu bytes after the value", d.len - d.pos);
        drop(&d, v);
        v = NULL;
    }
done:
    if (!pool) free(d.arena);
    free(d.soff);
    free(d.canon);
    return v;
}

cJSON *ob_binary_decode(const uint8_t *data, size_t len, char *err, size_t errcap)
{
    return decode(data, len, err, errcap, NULL);
}

cJSON *ob_binary_decode_pooled(const uint8_t *data, size_t len, char *err, size_t errcap, ob_binary_pool *pool)
{
    return decode(data, len, err, errcap, pool);
}

/* ------------------------------------------------------------------ */
/* Growable byte buffer                                                */

typedef struct {
    uint8_t *p;
    size_t len, cap;
    int oom;
} obuf;

static int ob_reserve(obuf *b, size_t extra)
{
    size_t ncap;
    uint8_t *np;
    if (b->oom) return 0;
    if (extra <= b->cap - b->len) return 1;
    if (extra > SIZE_MAX / 2 - b->len) {
        b->oom = 1;
        return 0;
    }
    ncap = b->cap ? b->cap : 256;
    while (ncap - b->len < extra) ncap *= 2;
    np = realloc(b->p, ncap);
    if (!np) {
        b->oom = 1;
        return 0;
    }
    b->p = np;
    b->cap = ncap;
    return 1;
}

static void ob_put(obuf *b, const void *s, size_t n)
{
    if (n == 0 || !ob_reserve(b, n)) return;
    memcpy(b->p + b->len, s, n);
    b->len += n;
}

static void ob_byte(obuf *b, uint8_t c)
{
    if (!ob_reserve(b, 1)) return;
    b->p[b->len++] = c;
}

static void ob_varint(obuf *b, uint64_t v)
{
    uint8_t tmp[10];
    size_t n = 0;
    do {
        uint8_t c = v & 0x7F;
        v >>= 7;
        tmp[n++] = (uint8_t)(c | (v ? 0x80 : 0));
    } while (v);
    ob_put(b, tmp, n);
}

/* ------------------------------------------------------------------ */
/* Encoder                                                             */

typedef struct {
    const char *s;   /* text (valid UTF-8), not NUL-terminated */
    size_t len;
    int owned;       /* s is a repaired copy to free */
} enc_str;

typedef struct {
    obuf val;          /* the value, written while the table is built */
    enc_str *strs;
    size_t nstr, capstr;
    size_t *slots;     /* hash of strs: index or (size_t)-1 */
    size_t capslots;
    char *err;
    size_t errcap;
    int failed;
} ob_enc;

static int efail(ob_enc *e, const char *msg)
{
    if (!e->failed) set_err(e->err, e->errcap, "binary: %s", msg);
    e->failed = 1;
    return 0;
}

/* The table index of text s[0..n), appending it on first appearance.
** Invalid UTF-8 is stored repaired (U+FFFD) so the file stays valid. */
static int enc_intern(ob_enc *e, const char *s, size_t n, size_t *out)
{
    size_t bad, rlen = ob_utf8_repair((const uint8_t *)s, n, NULL, &bad, NULL);
    char *copy = NULL;
    size_t h;
    if (bad) {  /* not rlen != n: a truncated 4-byte sequence (3 bytes) repairs to 3 bytes */
        copy = malloc(rlen ? rlen : 1);
        if (!copy) return efail(e, "out of memory");
        utf8_repair((const uint8_t *)s, n, copy);
        s = copy;
        n = rlen;
    }
    if ((e->nstr + 1) * 2 > e->capslots) {
        size_t ncap = e->capslots ? e->capslots * 2 : 64, i;
        size_t *ns = malloc(ncap * sizeof *ns);
        if (!ns) {
            free(copy);
            return efail(e, "out of memory");
        }
        for (i = 0; i < ncap; i++) ns[i] = (size_t)-1;
        for (i = 0; i < e->nstr; i++) {
            size_t g = (size_t)fnv1a(e->strs[i].s, e->strs[i].len) & (ncap - 1);
            while (ns[g] != (size_t)-1) g = (g + 1) & (ncap - 1);
            ns[g] = i;
        }
        free(e->slots);
        e->slots = ns;
        e->capslots = ncap;
    }
    h = (size_t)fnv1a(s, n) & (e->capslots - 1);
    while (e->slots[h] != (size_t)-1) {
        const enc_str *t = &e->strs[e->slots[h]];
        if (t->len == n && memcmp(t->s, s, n) == 0) {
            free(copy);
            *out = e->slots[h];
            return 1;
        }
        h = (h + 1) & (e->capslots - 1);
    }
    if (e->nstr == e->capstr) {
        size_t ncap = e->capstr ? e->capstr * 2 : 64;
        enc_str *ns = realloc(e->strs, ncap * sizeof *ns);
        if (!ns) {
            free(copy);
            return efail(e, "out of memory");
        }
        e->strs = ns;
        e->capstr = ncap;
    }
    e->strs[e->nstr].s = s;
    e->strs[e->nstr].len = n;
    e->strs[e->nstr].owned = copy != NULL;
    e->slots[h] = e->nstr;
    *out = e->nstr++;
    return 1;
}

/* A string value: tag 10 when it is data:<mime>;base64,<canonical base64>
** (decoding gives the identical text back), else tag 7. */
static int enc_string(ob_enc *e, const char *s)
{
    size_t n = strlen(s), idx;
    if (n >= 13 && memcmp(s, "data:", 5) == 0) {
        const char *sep = NULL;
        for (const char *p = s + 5; p + 8 <= s + n; p++) {
            if (memcmp(p, ";base64,", 8) == 0) {
                sep = p;
                break;
            }
        }
        if (sep) {
            const char *pay = sep + 8;
            size_t plen = (size_t)(s + n - pay), blen = 0;
            size_t mlen = (size_t)(sep - (s + 5));
            uint8_t *bytes = malloc(plen / 4 * 3 + 1);
            if (!bytes) return efail(e, "out of memory");
            /* the mime must be valid UTF-8 too, or its repair would change
            ** the text the decoder rebuilds */
            size_t mime_bad;
            ob_utf8_repair((const uint8_t *)s + 5, mlen, NULL, &mime_bad, NULL);
            if (!mime_bad &&
                b64_decode_canonical(pay, plen, bytes, &blen)) {
                if (!enc_intern(e, s + 5, mlen, &idx)) {
                    free(bytes);
                    return 0;
                }
                ob_byte(&e->val, TAG_DATAURL);
                ob_varint(&e->val, idx);
                ob_varint(&e->val, blen);
                ob_put(&e->val, bytes, blen);
                free(bytes);
                return 1;
            }
            free(bytes);
        }
    }
    if (!enc_intern(e, s, n, &idx)) return 0;
    ob_byte(&e->val, TAG_STRING);
    ob_varint(&e->val, idx);
    return 1;
}

static void enc_number(ob_enc *e, double v)
{
    if (isnan(v) || isinf(v)) {
        /* not JSON: written as null, as JSON.stringify does */
        ob_byte(&e->val, TAG_NULL);
        return;
    }
    if (v == floor(v) && fabs(v) < 9007199254740992.0 && !(v == 0 && signbit(v))) {
        if (v >= 0) {
            ob_byte(&e->val, TAG_UINT);
            ob_varint(&e->val, (uint64_t)v);
        } else {
            ob_byte(&e->val, TAG_NEGINT);
            ob_varint(&e->val, (uint64_t)(-v - 1.0));
        }
        return;
    }
    /* float32 only when §2's decoding (7 significant digits) gives v back;
    ** -0 is excluded above (it would decode as 0) and goes to float64 */
    if (v != 0 && fabs(v) <= FLT_MAX) {
        float f = (float)v;
        if (ob_js_f32_round7(f) == v) {
            uint32_t w;
            uint8_t b[4];
            memcpy(&w, &f, 4);
            for (int i = 0; i < 4; i++) b[i] = (uint8_t)(w >> (8 * i));
            ob_byte(&e->val, TAG_F32);
            ob_put(&e->val, b, 4);
            return;
        }
    }
    {
        uint64_t w;
        uint8_t b[8];
        memcpy(&w, &v, 8);
        for (int i = 0; i < 8; i++) b[i] = (uint8_t)(w >> (8 * i));
        ob_byte(&e->val, TAG_F64);
        ob_put(&e->val, b, 8);
    }
}

static int enc_value(ob_enc *e, const cJSON *v, int depth)
{
    switch (v->type & 0xFF) {
    case cJSON_NULL: ob_byte(&e->val, TAG_NULL); return 1;
    case cJSON_False: ob_byte(&e->val, TAG_FALSE); return 1;
    case cJSON_True: ob_byte(&e->val, TAG_TRUE); return 1;
    case cJSON_Number: enc_number(e, v->valuedouble); return 1;
    case cJSON_String:
        if (!v->valuestring) return efail(e, "string item without text");
        return enc_string(e, v->valuestring);
    case cJSON_Array:
    case cJSON_Object: {
        int isobj = (v->type & 0xFF) == cJSON_Object;
        size_t n = 0;
        const cJSON *c;
        if (depth >= OB_BINARY_MAX_DEPTH) return efail(e, "nesting too deep to encode");
        for (c = v->child; c; c = c->next) n++;
        ob_byte(&e->val, isobj ? TAG_OBJECT : TAG_ARRAY);
        ob_varint(&e->val, n);
        for (c = v->child; c; c = c->next) {
            if (isobj) {
                size_t k;
                if (!c->string) return efail(e, "object member without a key");
                /* key before value: first-appearance order of the table */
                if (!enc_intern(e, c->string, strlen(c->string), &k)) return 0;
                ob_varint(&e->val, k);
            }
            if (!enc_value(e, c, depth + 1)) return 0;
        }
        return 1;
    }
    default:
        return efail(e, "cannot encode this cJSON item (raw or invalid)");
    }
}

uint8_t *ob_binary_encode(const cJSON *value, size_t *len, char *err, size_t errcap)
{
    ob_enc e;
    obuf out = { NULL, 0, 0, 0 };
    uint8_t *result = NULL;
    memset(&e, 0, sizeof e);
    e.err = err;
    e.errcap = errcap;
    if (err && errcap) err[0] = '\0';
    if (len) *len = 0;
    if (!value) {
        efail(&e, "nothing to encode");
        return NULL;
    }
    if (!enc_value(&e, value, 0)) goto done;
    if (e.val.oom) {
        efail(&e, "out of memory");
        goto done;
    }
    ob_put(&out, MAGIC, 4);
    ob_byte(&out, 1);
    ob_varint(&out, e.nstr);
    for (size_t i = 0; i < e.nstr; i++) {
        ob_varint(&out, e.strs[i].len);
        ob_put(&out, e.strs[i].s, e.strs[i].len);
    }
    ob_put(&out, e.val.p, e.val.len);
    if (out.oom) {
        efail(&e, "out of memory");
        free(out.p);
        goto done;
    }
    result = out.p;
    if (len) *len = out.len;
done:
    for (size_t i = 0; i < e.nstr; i++)
        if (e.strs[i].owned) free((void *)e.strs[i].s);
    free(e.strs);
    free(e.slots);
    free(e.val.p);
    return result;
}

/* ------------------------------------------------------------------ */
/* JSON writer: JSON.stringify(v) / JSON.stringify(v, null, 2)         */

static void js_string(obuf *b, const char *s)
{
    static const char hex[] = "0123456789abcdef";
    const char *run = s;
    ob_byte(b, '"');
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        const char *esc = NULL;
        char u[6];
        if (c >= 0x20 && c != '"' && c != '\\') continue;
        ob_put(b, run, (size_t)(s - run));
        switch (c) {
        case '"': esc = "\\\""; break;
        case '\\': esc = "\\\\"; break;
        case '\b': esc = "\\b"; break;
        case '\f': esc = "\\f"; break;
        case '\n': esc = "\\n"; break;
        case '\r': esc = "\\r"; break;
        case '\t': esc = "\\t"; break;
        default:
            /* other control characters: \u00xx, lower-case hex as in JS */
            u[0] = '\\'; u[1] = 'u'; u[2] = '0'; u[3] = '0';
            u[4] = hex[c >> 4]; u[5] = hex[c & 15];
            ob_put(b, u, 6);
            break;
        }
        if (esc) ob_put(b, esc, strlen(esc));
        run = s + 1;
    }
    ob_put(b, run, (size_t)(s - run));
    ob_byte(b, '"');
}

static void js_indent(obuf *b, int pretty, int depth)
{
    if (!pretty) return;
    ob_byte(b, '\n');
    for (int i = 0; i < depth; i++) ob_put(b, "  ", 2);
}

static void js_value(obuf *b, const cJSON *v, int pretty, int depth)
{
    switch (v->type & 0xFF) {
    case cJSON_False: ob_put(b, "false", 5); break;
    case cJSON_True: ob_put(b, "true", 4); break;
    case cJSON_Number: {
        char num[40];
        int n;
        /* §12: String(number), shortest round trip; NaN/Infinity → null */
        if (isnan(v->valuedouble) || isinf(v->valuedouble)) {
            ob_put(b, "null", 4);
            break;
        }
        n = ob_js_to_string(v->valuedouble, num, sizeof num);
        if (n < 0) b->oom = 1;
        else ob_put(b, num, (size_t)n);
        break;
    }
    case cJSON_String: js_string(b, v->valuestring ? v->valuestring : ""); break;
    case cJSON_Raw:
        if (v->valuestring) ob_put(b, v->valuestring, strlen(v->valuestring));
        else ob_put(b, "null", 4);
        break;
    case cJSON_Array:
    case cJSON_Object: {
        int isobj = (v->type & 0xFF) == cJSON_Object;
        const cJSON *c;
        ob_byte(b, isobj ? '{' : '[');
        if (!v->child) {  /* JSON.stringify writes {} and [] even when pretty */
            ob_byte(b, isobj ? '}' : ']');
            break;
        }
        for (c = v->child; c; c = c->next) {
            js_indent(b, pretty, depth + 1);
            if (isobj) {
                js_string(b, c->string ? c->string : "");
                if (pretty) ob_put(b, ": ", 2);
                else ob_byte(b, ':');
            }
            js_value(b, c, pretty, depth + 1);
            if (c->next) ob_byte(b, ',');
        }
        js_indent(b, pretty, depth);
        ob_byte(b, isobj ? '}' : ']');
        break;
    }
    default: ob_put(b, "null", 4); break;
    }
}

char *ob_json_write(const cJSON *value, int pretty)
{
    obuf b = { NULL, 0, 0, 0 };
    if (!value) return NULL;
    js_value(&b, value, pretty, 0);
    ob_byte(&b, '\0');
    if (b.oom) {
        free(b.p);
        return NULL;
    }
    return (char *)b.p;
}
