/* test_binary.c: the .obonb codec and the JSON writer (csrc/binary.c).
** Build: see the test_binary target in tests/c/Makefile. */
#include "binary.h"
#include "jsnum.h"
#include "testutil.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures = 0, checks = 0;

#define CHECK(cond, ...) do { \
    checks++; \
    if (!(cond)) { \
        failures++; \
        fprintf(stderr, "%s:%d: FAIL %s: ", __FILE__, __LINE__, #cond); \
        fprintf(stderr, __VA_ARGS__); \
        fputc('\n', stderr); \
    } \
} while (0)

/* ------------------------------------------------------------------ */
/* Helpers                                                             */

/* Exact structural equality: same types, same key order, same number bits
** (so -0 and 0 differ), same strings. */
static int same(const cJSON *a, const cJSON *b)
{
    if ((a->type & 0xFF) != (b->type & 0xFF)) return 0;
    switch (a->type & 0xFF) {
    case cJSON_Number:
        return memcmp(&a->valuedouble, &b->valuedouble, sizeof(double)) == 0;
    case cJSON_String:
        return strcmp(a->valuestring, b->valuestring) == 0;
    case cJSON_Array:
    case cJSON_Object: {
        const cJSON *x = a->child, *y = b->child;
        for (; x && y; x = x->next, y = y->next) {
            if ((a->type & 0xFF) == cJSON_Object && strcmp(x->string, y->string) != 0) return 0;
            if (!same(x, y)) return 0;
        }
        return x == NULL && y == NULL;
    }
    default:
        return 1;
    }
}

typedef struct { uint8_t b[4096]; size_t n; } buf;

static void put(buf *w, const void *p, size_t n) { memcpy(w->b + w->n, p, n); w->n += n; }
static void byte(buf *w, unsigned v) { w->b[w->n++] = (uint8_t)v; }
static void varint(buf *w, unsigned long long v)
{
    do {
        uint8_t c = v & 0x7F;
        v >>= 7;
        byte(w, c | (v ? 0x80 : 0));
    } while (v);
}
static void str(buf *w, const char *s) { varint(w, strlen(s)); put(w, s, strlen(s)); }
static void header(buf *w) { w->n = 0; put(w, "OBNB\x01", 5); }
static void f32(buf *w, float f) { uint32_t u; memcpy(&u, &f, 4); for (int i = 0; i < 4; i++) byte(w, (u >> (8 * i)) & 0xFF); }
static void f64(buf *w, double d) { uint64_t u; memcpy(&u, &d, 8); for (int i = 0; i < 8; i++) byte(w, (unsigned)(u >> (8 * i)) & 0xFF); }

/* Every array's and object's count (OB_JSON_COUNTED) is its children's. */
static int counts_right(const cJSON *v)
{
    if (!cJSON_IsArray(v) && !cJSON_IsObject(v)) return 1;
    int n = 0;
    for (const cJSON *c = v->child; c; c = c->next, n++)
        if (!counts_right(c)) return 0;
    return (v->type & OB_JSON_COUNTED) && v->valueint == n && (!v->child || v->child->prev);
}

/* The pooled decoder (ob_document_load's, a faster path, issue 17) must give
** what ob_binary_decode gives: the same value, or the same message. */
static int pooled_differs(const uint8_t *p, size_t n, const cJSON *v, const char *err)
{
    char perr[256] = "";
    ob_binary_pool pool = {0};
    cJSON *pv = ob_binary_decode_pooled(p, n, perr, sizeof perr, &pool);
    int bad = v ? !pv || !same(v, pv) || !counts_right(pv) : pv != NULL || strcmp(err, perr) != 0;
    if (bad) fprintf(stderr, "pooled decode differs: %s / %s\n", v ? "value" : err, pv ? "value" : perr);
    ob_binary_pool_free(&pool);
    return bad;
}

/* Decodes and writes compact JSON (or returns the error prefixed "ERR:"). */
static char *dec_json(const uint8_t *p, size_t n)
{
    char err[256];
    cJSON *v = ob_binary_decode(p, n, err, sizeof err);
    char *s;
    checks++;
    failures += pooled_differs(p, n, v, err);
    if (!v) {
        s = malloc(strlen(err) + 5);
        sprintf(s, "ERR:%s", err);
        return s;
    }
    s = ob_json_write(v, 0);
    cJSON_Delete(v);
    return s;
}

/* Every truncation and many one-byte changes of an encoded value: the pooled
** decoder agrees with the checked one on each. */
static void sweep_pooled(const uint8_t *b, size_t n)
{
    static const uint8_t xs[] = {0x01, 0x80, 0xFF, 0x7F, 0x08, 0x09};
    uint8_t *m = malloc(n ? n : 1);
    for (size_t cut = 0; cut <= n; cut++) free(dec_json(b, cut));
    for (size_t i = 0; i < n; i++)
        for (size_t x = 0; x < sizeof xs; x++) {
            memcpy(m, b, n);
            m[i] ^= xs[x];
            free(dec_json(m, n));
        }
    free(m);
}

static void expect_json(const buf *w, const char *want, int line)
{
    char *got = dec_json(w->b, w->n);
    checks++;
    if (strcmp(got, want) != 0) {
        failures++;
        fprintf(stderr, "line %d: decoded %s, want %s\n", line, got, want);
    }
    free(got);
}
#define EXPECT_JSON(w, want) expect_json(w, want, __LINE__)

static void expect_err(const uint8_t *p, size_t n, const char *want, int line)
{
    char err[256] = "untouched";
    cJSON *v = ob_binary_decode(p, n, err, sizeof err);
    checks++;
    failures += pooled_differs(p, n, v, err);
    if (v || strstr(err, want) == NULL) {
        failures++;
        fprintf(stderr, "line %d: want error containing \"%s\", got %s\n", line, want,
                v ? "success" : err);
    }
    cJSON_Delete(v);
}
#define EXPECT_ERR(w, want) expect_err((w)->b, (w)->n, want, __LINE__)

static void expect_write(const char *json, int pretty, const char *want, int line)
{
    cJSON *v = cJSON_Parse(json);
    char *got = v ? ob_json_write(v, pretty) : NULL;
    checks++;
    if (!got || strcmp(got, want) != 0) {
        failures++;
        fprintf(stderr, "line %d: ob_json_write(%s) = %s, want %s\n", line, json, got ? got : "NULL", want);
    }
    free(got);
    cJSON_Delete(v);
}
#define EXPECT_WRITE(json, pretty, want) expect_write(json, pretty, want, __LINE__)

/* encode → decode must give the identical value back */
static int roundtrip(const cJSON *v, uint8_t **out, size_t *outlen)
{
    char err[256];
    size_t n;
    uint8_t *b = ob_binary_encode(v, &n, err, sizeof err);
    cJSON *back;
    int ok;
    if (!b) {
        fprintf(stderr, "encode failed: %s\n", err);
        return 0;
    }
    back = ob_binary_decode(b, n, err, sizeof err);
    if (!back) {
        fprintf(stderr, "decode of encoded failed: %s\n", err);
        free(b);
        return 0;
    }
    ok = same(v, back);
    if (!ok) {
        char *x = ob_json_write(v, 0), *y = ob_json_write(back, 0);
        fprintf(stderr, "round trip differs:\n  %s\n  %s\n", x, y);
        free(x);
        free(y);
    }
    cJSON_Delete(back);
    if (out) {
        *out = b;
        *outlen = n;
    } else {
        free(b);
    }
    return ok;
}

/* ------------------------------------------------------------------ */

static void test_tags(void)
{
    buf w;
    CHECK(ob_binary_is_binary((const uint8_t *)"OBNB\x01", 5), "magic");
    CHECK(!ob_binary_is_binary((const uint8_t *)"OBN", 3), "short");
    CHECK(!ob_binary_is_binary((const uint8_t *)"{\"a\"", 4), "json");

    /* minimal document {"format":"openbone","version":1} */
    header(&w);
    varint(&w, 3); str(&w, "format"); str(&w, "openbone"); str(&w, "version");
    byte(&w, 9); varint(&w, 2);
    varint(&w, 0); byte(&w, 7); varint(&w, 1);
    varint(&w, 2); byte(&w, 3); varint(&w, 1);
    EXPECT_JSON(&w, "{\"format\":\"openbone\",\"version\":1}");

    /* every tag in one array */
    header(&w);
    varint(&w, 2); str(&w, "s"); str(&w, "image/png");
    byte(&w, 8); varint(&w, 12);
    byte(&w, 0);                              /* null */
    byte(&w, 1);                              /* false */
    byte(&w, 2);                              /* true */
    byte(&w, 3); varint(&w, 300);             /* 300 */
    byte(&w, 4); varint(&w, 0);               /* -1 */
    byte(&w, 4); varint(&w, 299);             /* -300 */
    byte(&w, 5); f32(&w, 0.1f);               /* 0.1 */
    byte(&w, 6); f64(&w, 0.1);                /* 0.1 */
    byte(&w, 7); varint(&w, 0);               /* "s" */
    byte(&w, 8); varint(&w, 0);               /* [] */
    byte(&w, 9); varint(&w, 0);               /* {} */
    byte(&w, 10); varint(&w, 1); varint(&w, 3); put(&w, "\x89PN", 3);
    EXPECT_JSON(&w, "[null,false,true,300,-1,-300,0.1,0.1,\"s\",[],{},\"data:image/png;base64,iVBO\"]");

    /* tag 10 lengths 0, 1, 2 (padding) */
    header(&w);
    varint(&w, 1); str(&w, "audio/wav");
    byte(&w, 8); varint(&w, 3);
    byte(&w, 10); varint(&w, 0); varint(&w, 0);
    byte(&w, 10); varint(&w, 0); varint(&w, 1); byte(&w, 0xFF);
    byte(&w, 10); varint(&w, 0); varint(&w, 2); byte(&w, 0xFF); byte(&w, 0xEE);
    EXPECT_JSON(&w, "[\"data:audio/wav;base64,\",\"data:audio/wav;base64,/w==\",\"data:audio/wav;base64,/+4=\"]");

    /* §2 float32 → Number(f.toPrecision(7)), ties round up */
    header(&w);
    varint(&w, 0);
    byte(&w, 8); varint(&w, 9);
    byte(&w, 5); f32(&w, 1.0f / 3.0f);       /* 0.3333333 */
    byte(&w, 5); f32(&w, 0.00048828125f);    /* 2^-11 = 0.00048828125: tie → 0.0004882813 */
    byte(&w, 5); f32(&w, 12345665.0f);       /* tie at the 8th digit → 12345670 */
    byte(&w, 5); f32(&w, 1234566.5f);        /* tie → 1234567 */
    byte(&w, 5); f32(&w, -2.5f);
    byte(&w, 5); f32(&w, NAN);               /* NaN → null */
    byte(&w, 5); f32(&w, -INFINITY);         /* → null */
    byte(&w, 6); f64(&w, INFINITY);          /* → null */
    byte(&w, 5); f32(&w, 16777217.0f);       /* rounds to 16777216 in float32 → 16777220 */
    EXPECT_JSON(&w, "[0.3333333,0.0004882813,12345670,1234567,-2.5,null,null,null,16777220]");

    /* large varints: 2^53, 2^64-1 (converted to the nearest double) */
    header(&w);
    varint(&w, 0);
    byte(&w, 8); varint(&w, 3);
    byte(&w, 3); varint(&w, 9007199254740992ULL);
    byte(&w, 3); varint(&w, 18446744073709551615ULL);
    byte(&w, 4); varint(&w, 9007199254740991ULL);
    EXPECT_JSON(&w, "[9007199254740992,18446744073709552000,-9007199254740992]");

    /* non-minimal varint accepted */
    header(&w);
    varint(&w, 0);
    byte(&w, 3); byte(&w, 0x85); byte(&w, 0x80); byte(&w, 0x00);
    EXPECT_JSON(&w, "5");

    /* duplicate keys: first position, last value (JS object semantics);
    ** two table entries with the same text are the same key */
    header(&w);
    varint(&w, 4); str(&w, "a"); str(&w, "b"); str(&w, "a"); str(&w, "c");
    byte(&w, 9); varint(&w, 4);
    varint(&w, 0); byte(&w, 8); varint(&w, 1); byte(&w, 3); varint(&w, 1);
    varint(&w, 1); byte(&w, 3); varint(&w, 2);
    varint(&w, 2); byte(&w, 9); varint(&w, 1); varint(&w, 3); byte(&w, 2);
    varint(&w, 0); byte(&w, 7); varint(&w, 3);
    EXPECT_JSON(&w, "{\"a\":\"c\",\"b\":2}");

    /* many duplicate keys (hash map growth) */
    header(&w);
    varint(&w, 40);
    for (int i = 0; i < 40; i++) { char k[16]; snprintf(k, sizeof k, "k%d", i); str(&w, k); }
    byte(&w, 9); varint(&w, 120);
    for (int i = 0; i < 120; i++) { varint(&w, (unsigned)(i % 40)); byte(&w, 3); varint(&w, (unsigned)i); }
    {
        char *got = dec_json(w.b, w.n);
        CHECK(strncmp(got, "{\"k0\":80,\"k1\":81,", 17) == 0 && strstr(got, "\"k39\":119}") != NULL, "%s", got);
        free(got);
    }

    /* invalid UTF-8 → U+FFFD per maximal subpart (WHATWG TextDecoder) */
    header(&w);
    varint(&w, 1);
    varint(&w, 9); put(&w, "a\xC3" "b\xE2\x82" "c\xF0\x9F\xFF", 9);
    byte(&w, 7); varint(&w, 0);
    EXPECT_JSON(&w, "\"a\xEF\xBF\xBD" "b\xEF\xBF\xBD" "c\xEF\xBF\xBD\xEF\xBF\xBD\"");
    header(&w);
    varint(&w, 1);
    varint(&w, 6); put(&w, "\xED\xA0\x80\xC0\xAF\x80", 6);   /* surrogate, overlong, lone cont. */
    byte(&w, 7); varint(&w, 0);
    EXPECT_JSON(&w, "\"\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD\"");
}

static void test_errors(void)
{
    buf w;
    uint8_t big[4096];

    expect_err((const uint8_t *)"", 0, "offset 0: not a binary document", __LINE__);
    expect_err((const uint8_t *)"OBNX\x01\x00\x00", 7, "offset 0: not a binary document", __LINE__);
    expect_err((const uint8_t *)"OBNB", 4, "offset 4: version byte missing", __LINE__);
    expect_err((const uint8_t *)"OBNB\x02\x00\x00", 7, "offset 4: unsupported version 2 (expected 1)", __LINE__);
    expect_err((const uint8_t *)"OBNB\x01", 5, "offset 5: string count: varint runs past the end", __LINE__);
    expect_err((const uint8_t *)"OBNB\x01\x00", 6, "offset 6: expected a value tag", __LINE__);
    expect_err((const uint8_t *)"OBNB\x01\x00\x0B", 7, "offset 6: unknown tag 11", __LINE__);

    /* truncated varint */
    header(&w); varint(&w, 0); byte(&w, 3); byte(&w, 0x80); byte(&w, 0x80);
    EXPECT_ERR(&w, "offset 7: unsigned integer: varint runs past the end of the data");
    /* varint longer than 64 bits */
    header(&w); varint(&w, 0); byte(&w, 3);
    for (int i = 0; i < 9; i++) byte(&w, 0xFF);
    byte(&w, 0x02);
    EXPECT_ERR(&w, "offset 7: unsigned integer: varint overflows 64 bits");
    header(&w); varint(&w, 0); byte(&w, 3);
    for (int i = 0; i < 12; i++) byte(&w, 0x80);
    byte(&w, 0x00);
    EXPECT_ERR(&w, "offset 7: unsigned integer: varint overflows 64 bits");

    /* string index out of range */
    header(&w); varint(&w, 2); str(&w, "a"); str(&w, "b"); byte(&w, 7); varint(&w, 42);
    EXPECT_ERR(&w, "offset 11: string index 42 out of range (table has 2 strings)");
    header(&w); varint(&w, 0); byte(&w, 9); varint(&w, 1); varint(&w, 0); byte(&w, 0);
    EXPECT_ERR(&w, "offset 8: key string index 0 out of range (table has 0 strings)");
    header(&w); varint(&w, 0); byte(&w, 10); varint(&w, 0); varint(&w, 0);
    EXPECT_ERR(&w, "offset 7: mime string index 0 out of range");

    /* huge counts fail before allocating */
    header(&w); varint(&w, 0); byte(&w, 8); varint(&w, 0xFFFFFFFFFFFFULL);
    EXPECT_ERR(&w, "offset 7: array length 281474976710655 exceeds the 0 bytes left");
    header(&w); varint(&w, 0); byte(&w, 9); varint(&w, 3); byte(&w, 0); byte(&w, 0); byte(&w, 0); byte(&w, 0);
    EXPECT_ERR(&w, "offset 7: object count 3 exceeds the 4 bytes left");
    header(&w); varint(&w, 1ULL << 40); byte(&w, 0);
    EXPECT_ERR(&w, "offset 5: string count 1099511627776 exceeds the 1 bytes left");
    header(&w); varint(&w, 1); varint(&w, 1ULL << 62); put(&w, "abc", 3);
    EXPECT_ERR(&w, "offset 6: string 0 length 4611686018427387904 runs past the end of the data (3 bytes left)");
    header(&w); varint(&w, 1); str(&w, "x"); byte(&w, 10); varint(&w, 0); varint(&w, 100); put(&w, "ab", 2);
    EXPECT_ERR(&w, "offset 10: data length 100 runs past the end of the data (2 bytes left)");
    header(&w); varint(&w, 1); varint(&w, 3); put(&w, "a\0b", 3); byte(&w, 0);
    EXPECT_ERR(&w, "offset 6: string 0 contains a NUL character");

    /* truncated floats */
    header(&w); varint(&w, 0); byte(&w, 5); put(&w, "\0\0\0", 3);
    EXPECT_ERR(&w, "offset 7: float32 needs 4 bytes, 3 left");
    header(&w); varint(&w, 0); byte(&w, 6); put(&w, "\0\0\0\0\0\0\0", 7);
    EXPECT_ERR(&w, "offset 7: float64 needs 8 bytes, 7 left");

    /* trailing bytes */
    header(&w); varint(&w, 0); byte(&w, 0); byte(&w, 0); byte(&w, 0);
    EXPECT_ERR(&w, "offset 7: trailing data: 2 bytes after the value");

    /* truncated inside a container */
    header(&w); varint(&w, 0); byte(&w, 8); varint(&w, 2); byte(&w, 3); byte(&w, 5);
    EXPECT_ERR(&w, "offset 10: expected a value tag, found the end of the data");

    /* depth: 1000 nested arrays decode, 1001 do not; a depth bomb fails */
    memcpy(big, "OBNB\x01\x00", 6);
    for (int i = 0; i < 1000; i++) { big[6 + 2 * i] = 8; big[7 + 2 * i] = 1; }
    big[2006] = 0;
    {
        char err[256];
        cJSON *v = ob_binary_decode(big, 2007, err, sizeof err);
        CHECK(v != NULL, "1000 levels: %s", err);
        if (v) CHECK(roundtrip(v, NULL, NULL), "1000 levels round trip");
        cJSON_Delete(v);
        for (int i = 0; i < 1001; i++) { big[6 + 2 * i] = 8; big[7 + 2 * i] = 1; }
        big[2008] = 0;
        expect_err(big, 2009, "offset 2006: nesting deeper than 1000 levels", __LINE__);
        /* {"k":{"k":{...: 9 1 0 repeated */
        memcpy(big, "OBNB\x01\x01\x01k", 8);
        for (int i = 0; i < 1362; i++) { big[8 + 3 * i] = 9; big[9 + 3 * i] = 1; big[10 + 3 * i] = 0; }
        expect_err(big, 4096, "nesting deeper than 1000 levels", __LINE__);
    }
}

static void test_encoder(void)
{
    uint8_t *b;
    size_t n;
    cJSON *v;

    /* table order: first appearance, key before value; mime types too */
    v = cJSON_Parse("{\"b\":\"x\",\"a\":[\"b\",\"y\",{\"x\":\"data:image/png;base64,AAAA\"}],\"y\":\"z\"}");
    CHECK(roundtrip(v, &b, &n), "table order");
    {
        /* b (key), x, a, y, image/png (mime of the data URL), z */
        const char *order[] = { "b", "x", "a", "y", "image/png" , "z" };
        size_t p = 6;
        CHECK(n > 6 && b[5] == 6, "table count %u", n > 5 ? b[5] : 0);
        for (int i = 0; i < 6 && p < n; i++) {
            size_t l = b[p++];
            CHECK(l == strlen(order[i]) && memcmp(b + p, order[i], l) == 0, "table entry %d", i);
            p += l;
        }
        /* value: object 3 pairs */
        CHECK(p + 2 < n && b[p] == 9 && b[p + 1] == 3, "object tag");
        free(b);
    }
    cJSON_Delete(v);

    /* number tags */
    {
        struct { const char *json; uint8_t tag; size_t len; } cases[] = {
            /* 6 header bytes (magic, version, empty table), then the tag */
            { "0", 3, 8 }, { "127", 3, 8 }, { "128", 3, 9 }, { "-1", 4, 8 },
            { "9007199254740991", 3, 15 }, { "-9007199254740991", 4, 15 },
            /* 2^53: no integer tag (|v| < 2^53 only); float32 holds it
            ** exactly but 7 digits do not, so float64 */
            { "9007199254740992", 6, 15 },
            { "0.1", 5, 11 }, { "0.3333333", 5, 11 }, { "1.5", 5, 11 },
            { "0.30000000000000004", 6, 15 }, { "1e300", 6, 15 }, { "-0", 6, 15 },
            { "1e20", 5, 11 }, { "123456.7", 5, 11 }, { "1234567.8", 6, 15 },
            { "-0.5", 5, 11 }, { "3.402823e38", 5, 11 }, { "1e-45", 6, 15 },
        };
        for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
            char err[256];
            cJSON *x = cJSON_Parse(cases[i].json);
            uint8_t *e = ob_binary_encode(x, &n, err, sizeof err);
            int ok = roundtrip(x, NULL, NULL);
            CHECK(e && n == cases[i].len && e[6] == cases[i].tag && ok,
                  "%s: tag %u len %zu", cases[i].json, e ? e[6] : 255, n);
            free(e);
            cJSON_Delete(x);
        }
        /* -0 keeps its sign */
        v = cJSON_CreateNumber(-0.0);
        CHECK(roundtrip(v, NULL, NULL), "-0");
        cJSON_Delete(v);
        /* NaN/Infinity encode as null */
        v = cJSON_CreateNumber(NAN);
        b = ob_binary_encode(v, &n, NULL, 0);
        CHECK(b && n == 7 && b[6] == 0, "NaN → null");
        free(b);
        cJSON_Delete(v);
    }

    /* data URLs: canonical base64 → tag 10, anything else stays a string */
    {
        struct { const char *s; uint8_t tag; } cases[] = {
            { "data:image/png;base64,iVBORw0KGgo=", 10 },
            { "data:image/png;base64,", 10 },
            { "data:;base64,AA==", 10 },
            { "data:a;base64,b;base64,AAAA", 7 },
            { "data:image/png;base64,iVBORw0KGgp=", 7 },   /* unused bits set */
            { "data:image/png;base64,AA=", 7 },
            { "data:image/png;base64,AA==AA==", 7 },
            { "data:image/png;base64,A-_A", 7 },
            { "data:image/png;base64, AAA", 7 },
            { "data:image/png,AAAA", 7 },
            { "DATA:image/png;base64,AAAA", 7 },
            { "data:text/plain;charset=utf-8;base64,SGk=", 10 },
        };
        for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
            cJSON *x = cJSON_CreateString(cases[i].s);
            char err[256];
            uint8_t *e = ob_binary_encode(x, &n, err, sizeof err);
            size_t p = 6;
            CHECK(e != NULL, "%s", err);
            if (e) {
                for (unsigned k = 0; k < e[5] && p < n; k++) p += 1 + (size_t)e[p];  /* skip the table */
                CHECK(p < n && e[p] == cases[i].tag, "%s: tag %u", cases[i].s, p < n ? e[p] : 255);
            }
            CHECK(roundtrip(x, NULL, NULL), "%s", cases[i].s);
            free(e);
            cJSON_Delete(x);
        }
    }

    /* invalid UTF-8 is stored repaired */
    {
        cJSON *x = cJSON_CreateString("a\xFF" "b");
        char *s;
        b = ob_binary_encode(x, &n, NULL, 0);
        s = dec_json(b, n);
        CHECK(strcmp(s, "\"a\xEF\xBF\xBD" "b\"") == 0, "%s", s);
        free(s);
        free(b);
        cJSON_Delete(x);
    }
    {
        /* a truncated 4-byte sequence repairs to one U+FFFD of the same
        ** length (3 bytes): still invalid, still repaired (issue 17 review) */
        cJSON *x = cJSON_CreateString("\xF0\x90\x80" "A");
        char *s;
        b = ob_binary_encode(x, &n, NULL, 0);
        size_t nbad = 1;
        ob_utf8_repair(b, n, NULL, &nbad, NULL);
        CHECK(nbad == 0, "the encoded file holds %zu invalid UTF-8 sequences", nbad);
        s = dec_json(b, n);
        CHECK(strcmp(s, "\"\xEF\xBF\xBD" "A\"") == 0, "%s", s);
        free(s);
        free(b);
        cJSON_Delete(x);
    }

    /* too deep / raw items fail with a message */
    {
        cJSON *root = cJSON_CreateArray(), *cur = root;
        char err[256];
        for (int i = 0; i < 1000; i++) {
            cJSON *c = cJSON_CreateArray();
            cJSON_AddItemToArray(cur, c);
            cur = c;
        }
        b = ob_binary_encode(root, &n, err, sizeof err);
        CHECK(b == NULL && strstr(err, "nesting") != NULL, "1001 levels: %s", err);
        cJSON_Delete(root);
        root = cJSON_CreateRaw("1");
        b = ob_binary_encode(root, &n, err, sizeof err);
        CHECK(b == NULL && strstr(err, "binary: ") == err, "raw: %s", err);
        cJSON_Delete(root);
    }
}

/* Random JSON values for the round-trip property. */
static uint64_t rng_state = 88172645463325252ULL;
static uint64_t rnd(void) { return ob_test_xorshift64(&rng_state); }

static double rnd_number(void)
{
    switch (rnd() % 8) {
    case 0: return (double)(int64_t)(rnd() % 2000) - 1000;
    case 1: return (double)(rnd() >> 11) * (rnd() & 1 ? 1 : -1);
    case 2: { float f; uint32_t u = (uint32_t)rnd(); memcpy(&f, &u, 4); return isfinite(f) ? ob_js_f32_round7(f) : 0.5; }
    case 3: { double d; uint64_t u = rnd(); memcpy(&d, &u, 8); return isfinite(d) ? d : -0.0; }
    case 4: return (double)(rnd() % 100000) / 1000.0;
    case 5: return ldexp((double)(rnd() % 1000), (int)(rnd() % 200) - 100);
    case 6: return -0.0;
    default: return (double)(rnd() % 10000000) / 10000.0;
    }
}

static const char *rnd_string(char *tmp)
{
    static const char *pool[] = { "", "a", "id", "name", "x", "é", "日本", "\xF0\x9F\x98\x80",
                                  "data:image/png;base64,AAAA", "data:audio/wav;base64,UklGRg==",
                                  "data:x;base64,AA=", "line\nbreak\t\"q\"\\", "\x01\x1f" };
    if (rnd() % 4 == 0) {
        int n = (int)(rnd() % 6);
        for (int i = 0; i < n; i++) tmp[i] = (char)('a' + rnd() % 26);
        tmp[n] = 0;
        return tmp;
    }
    return pool[rnd() % (sizeof pool / sizeof pool[0])];
}

static cJSON *rnd_value(int depth)
{
    char tmp[16];
    unsigned k = (unsigned)(rnd() % (depth > 5 ? 6 : 8));
    switch (k) {
    case 0: return cJSON_CreateNull();
    case 1: return cJSON_CreateFalse();
    case 2: return cJSON_CreateTrue();
    case 3: case 4: return cJSON_CreateNumber(rnd_number());
    case 5: return cJSON_CreateString(rnd_string(tmp));
    case 6: {
        cJSON *a = cJSON_CreateArray();
        int n = (int)(rnd() % 6);
        for (int i = 0; i < n; i++) cJSON_AddItemToArray(a, rnd_value(depth + 1));
        return a;
    }
    default: {
        cJSON *o = cJSON_CreateObject();
        int n = (int)(rnd() % 6);
        for (int i = 0; i < n; i++) {
            const char *key = rnd_string(tmp);
            if (cJSON_GetObjectItemCaseSensitive(o, key)) continue;  /* JSON values have unique keys */
            cJSON_AddItemToObject(o, key, rnd_value(depth + 1));
        }
        return o;
    }
    }
}

static void test_roundtrip(void)
{
    int bad = 0;
    for (int i = 0; i < 3000; i++) {
        cJSON *v = rnd_value(0);
        char *a, *b2;
        cJSON *re;
        if (!roundtrip(v, NULL, NULL)) bad++;
        /* the writer's text parses back to the same value */
        a = ob_json_write(v, i & 1);
        re = cJSON_Parse(a);
        if (!re) {
            bad++;
        } else {
            b2 = ob_json_write(re, i & 1);
            if (strcmp(a, b2) != 0) bad++;
            free(b2);
            cJSON_Delete(re);
        }
        free(a);
        cJSON_Delete(v);
    }
    CHECK(bad == 0, "%d random values failed", bad);
}

static void test_writer(void)
{
    EXPECT_WRITE("{\"a\":[1,2,{}],\"b\":{\"c\":[]},\"d\":\"x\"}", 0, "{\"a\":[1,2,{}],\"b\":{\"c\":[]},\"d\":\"x\"}");
    EXPECT_WRITE("{\"a\":[1,2,{}],\"b\":{\"c\":[]},\"d\":\"x\"}", 1,
                 "{\n  \"a\": [\n    1,\n    2,\n    {}\n  ],\n  \"b\": {\n    \"c\": []\n  },\n  \"d\": \"x\"\n}");
    EXPECT_WRITE("[]", 1, "[]");
    EXPECT_WRITE("{}", 1, "{}");
    EXPECT_WRITE("[[]]", 1, "[\n  []\n]");
    EXPECT_WRITE("\"x\"", 1, "\"x\"");
    EXPECT_WRITE("[1e21, 1e-7, 123e-20, 0.1, 100, -0, 1.5e300, 0.000001, 5e-324]", 0,
                 "[1e+21,1e-7,1.23e-18,0.1,100,0,1.5e+300,0.000001,5e-324]");
    EXPECT_WRITE("[true,false,null]", 0, "[true,false,null]");
    EXPECT_WRITE("\"q\\\" b\\\\ \\b\\f\\n\\r\\t \\u0001\\u001F \\u007f / \\u00e9 \\u2028\"", 0,
                 "\"q\\\" b\\\\ \\b\\f\\n\\r\\t \\u0001\\u001f \x7f / \xC3\xA9 \xE2\x80\xA8\"");
    EXPECT_WRITE("{\"k\\n\":1}", 0, "{\"k\\n\":1}");
    {
        cJSON *v = cJSON_CreateArray();
        char *s;
        cJSON_AddItemToArray(v, cJSON_CreateNumber(NAN));
        cJSON_AddItemToArray(v, cJSON_CreateNumber(-INFINITY));
        s = ob_json_write(v, 0);
        CHECK(s && strcmp(s, "[null,null]") == 0, "%s", s ? s : "NULL");
        free(s);
        cJSON_Delete(v);
    }
}

static void test_pooled(void)
{
    /* duplicate keys (short objects, and one past the short-object limit),
    ** every tag, nesting, a data URL */
    const char *docs[] = {
        "{\"a\":1,\"b\":[1.5,-2,3e300,\"x\",null,true,false,{\"a\":2,\"a\":[3]}],\"a\":{\"c\":0.1},\"d\":\"data:image/png;base64,AAEC\"}",
        "[[[[]]],{},[{\"k\":1,\"k\":2,\"k\":3}],-0,4294967296,-9007199254740993]",
    };
    for (size_t i = 0; i < sizeof docs / sizeof *docs; i++) {
        cJSON *v = cJSON_Parse(docs[i]);
        char err[256];
        size_t n;
        uint8_t *b = ob_binary_encode(v, &n, err, sizeof err);
        CHECK(b != NULL, "encode %zu", i);
        if (b) sweep_pooled(b, n);
        free(b);
        cJSON_Delete(v);
    }
    {   /* 40 keys, then every one again: the hashed path keeps first places, last values */
        buf w;
        header(&w);
        varint(&w, 40);
        for (int k = 0; k < 40; k++) {
            char name[8];
            snprintf(name, sizeof name, "k%d", k);
            str(&w, name);
        }
        byte(&w, 9);
        varint(&w, 80);
        for (int k = 0; k < 80; k++) {
            varint(&w, (unsigned)(k % 40));
            byte(&w, 3);
            varint(&w, (unsigned)k);
        }
        char *got = dec_json(w.b, w.n);
        CHECK(strncmp(got, "{\"k0\":40,\"k1\":41,", 17) == 0, "%s", got);
        free(got);
        sweep_pooled(w.b, w.n);
    }
}

int main(void)
{
    test_pooled();
    test_tags();
    test_errors();
    test_encoder();
    test_roundtrip();
    test_writer();
    printf("test_binary: %d checks, %d failures\n", checks, failures);
    return failures ? 1 : 0;
}
