/* test_jsnum.c: standalone tests of csrc/jsnum.c (runtime spec §12, §8.9, §2).
** Every expected string follows the ECMAScript rules worked out by hand; the
** non-obvious ones say why. */
#include "jsnum.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static int failures = 0;
static int checks = 0;

static void expect_str(const char *what, const char *got, int n, const char *want,
                       int line)
{
    checks++;
    if (n < 0 || strcmp(got, want) != 0 || (size_t)n != strlen(want)) {
        failures++;
        fprintf(stderr, "line %d: %s: got \"%s\" (%d), want \"%s\"\n", line, what,
                n < 0 ? "<error>" : got, n, want);
    }
}

static void expect_num(const char *what, double got, double want, int line)
{
    checks++;
    if (!(got == want && signbit(got) == signbit(want))) {
        failures++;
        fprintf(stderr, "line %d: %s: got %.17g, want %.17g\n", line, what, got, want);
    }
}

static void expect_int(const char *what, long got, long want, int line)
{
    checks++;
    if (got != want) {
        failures++;
        fprintf(stderr, "line %d: %s: got %ld, want %ld\n", line, what, got, want);
    }
}

#define TS(v, want) do { char b_[OB_JSNUM_CAP]; \
    int n_ = ob_js_to_string((v), b_, sizeof b_); \
    expect_str("toString(" #v ")", b_, n_, want, __LINE__); } while (0)
#define TF(v, d, want) do { char b_[OB_JSNUM_CAP]; \
    int n_ = ob_js_to_fixed((v), (d), b_, sizeof b_); \
    expect_str("toFixed(" #v ", " #d ")", b_, n_, want, __LINE__); } while (0)
#define TP(v, p, want) do { char b_[OB_JSNUM_CAP]; \
    int n_ = ob_js_to_precision((v), (p), b_, sizeof b_); \
    expect_str("toPrecision(" #v ", " #p ")", b_, n_, want, __LINE__); } while (0)
#define FN(v, pat, want) do { char b_[OB_JSNUM_CAP]; \
    int n_ = ob_format_number((v), (pat), b_, sizeof b_); \
    expect_str("formatNumber(" #v ", " #pat ")", b_, n_, want, __LINE__); } while (0)

static void test_to_string(void)
{
    TS(0.1, "0.1");
    TS(0.1 + 0.2, "0.30000000000000004");
    TS(100.0, "100");
    TS(-1.5, "-1.5");
    TS(0.0, "0");
    TS(-0.0, "0");
    TS(NAN, "NaN");
    TS(INFINITY, "Infinity");
    TS(-INFINITY, "-Infinity");
    TS(1e21, "1e+21");                /* n = 22 > 21: exponent form */
    TS(1e20, "100000000000000000000"); /* n = 21: still decimal */
    TS(123456789012345678901.0, "123456789012345680000"); /* 17 digits, padded */
    TS(1e-7, "1e-7");                 /* n = -6: exponent form */
    TS(123e-9, "1.23e-7");
    TS(0.000001, "0.000001");         /* n = -5 */
    TS(0.0000012, "0.0000012");
    TS(1.5e300, "1.5e+300");
    TS(5e-324, "5e-324");             /* one digit is enough for the least subnormal */
    TS(1.7976931348623157e308, "1.7976931348623157e+308");
    TS(123e-20, "1.23e-18");
    TS(-2.5e-10, "-2.5e-10");
    TS(9007199254740993.0, "9007199254740992"); /* 2^53 + 1 is not a double */
    TS(1e23, "1e+23");                /* the double is 9.99..e22 yet "1e+23" round-trips */
    /* 2^172 = 5.986310706507378352...e51: the closest 16 digits ...378 parse to
    ** the double below (the gap below a power of two is half the gap above), so
    ** the shortest round-trip is the neighbour ...379 */
    TS(5.9863107065073784e+51, "5.986310706507379e+51");
    TS(-123.456, "-123.456");
}

static void test_to_fixed(void)
{
    TF(2.5, 0, "3");          /* exact tie: larger n */
    TF(0.5, 0, "1");
    TF(-2.5, 0, "-3");
    TF(1.5, 0, "2");
    TF(1.005, 2, "1.00");     /* 1.00499999999999989341858963598497211933135986328125 */
    TF(1.255, 2, "1.25");     /* 1.25499999999999989341858963598497211933135986328125 */
    TF(1.125, 2, "1.13");     /* exact tie (1.125 = 9/8): up, printf would give 1.12 */
    TF(-0.0, 2, "0.00");      /* -0 < 0 is false: no sign */
    TF(-0.0001, 2, "-0.00");  /* x < 0: the sign stays even when n = 0 */
    TF(0.0, 0, "0");
    TF(1e21, 2, "1e+21");
    TF(-1e21, 2, "-1e+21");
    TF(1e20, 2, "100000000000000000000.00");
    TF(123.456, 0, "123");
    TF(0.000001, 6, "0.000001");
    TF(0.0000005, 6, "0.000000"); /* 4.99999999999999977e-7: 7th digit 4 */
    TF(0.05, 1, "0.1");       /* 0.05000000000000000277 */
    TF(0.15, 1, "0.1");       /* 0.1499999999999999944488848768742172978818416595458984375 */
    TF(99.995, 2, "100.00");  /* 99.9950000000000045474735088646411895751953125 */
    TF(9.995, 2, "9.99");     /* 9.9949999999999992184029906638897955417633056640625 */
    TF(9.5, 0, "10");         /* carry into a new digit */
    TF(0.1, 20, "0.10000000000000000555");
    TF(NAN, 2, "NaN");
    TF(INFINITY, 2, "Infinity");
    TF(-INFINITY, 0, "-Infinity");
    TF(5e-324, 100,
       "0.0000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000");
    {
        char b[8];
        expect_int("toFixed cap", ob_js_to_fixed(123.25, 2, b, 6), -1, __LINE__);
        expect_int("toFixed digits 101", ob_js_to_fixed(1, 101, b, sizeof b), -1, __LINE__);
        expect_int("toFixed digits -1", ob_js_to_fixed(1, -1, b, sizeof b), -1, __LINE__);
        expect_int("toFixed exact cap", ob_js_to_fixed(123.25, 2, b, 7), 6, __LINE__);
    }
}

static void test_to_precision(void)
{
    TP(123456.0, 2, "1.2e+5");     /* e = 5 >= p */
    TP(0.000001234, 2, "0.0000012"); /* e = -6: decimal */
    TP(0.0000001234, 2, "1.2e-7");   /* e = -7: exponent */
    TP(1.25, 2, "1.3");            /* exact tie: up */
    TP(1.35, 2, "1.4");            /* 1.350000000000000088817841970012523 */
    TP(1.45, 2, "1.4");            /* 1.4499999999999999555910790149937 */
    TP(99.99, 3, "100");           /* carry: e becomes 2 = p - 1 */
    TP(99.99, 2, "1.0e+2");        /* carry: e = 2 >= p */
    TP(0.0, 3, "0.00");
    TP(-0.0, 1, "0");
    TP(-1.5, 1, "-2");             /* |x| tie up */
    TP(123.0, 3, "123");
    TP(123.0, 5, "123.00");
    TP(1e21, 3, "1.00e+21");
    TP(5e-324, 3, "4.94e-324");
    TP(NAN, 3, "NaN");
    TP(-INFINITY, 3, "-Infinity");
    TP((double)0.1f, 7, "0.1000000"); /* 0.100000001490116119384765625 */
    TP((double)0.1f, 9, "0.100000001");
    {
        char b[64];
        expect_int("toPrecision 0", ob_js_to_precision(1, 0, b, sizeof b), -1, __LINE__);
        expect_int("toPrecision 101", ob_js_to_precision(1, 101, b, sizeof b), -1, __LINE__);
        expect_int("toPrecision 100",
                   ob_js_to_precision(1.0 / 3.0, 100, b, 64), -1, __LINE__);
    }
}

/* 1 when the fast ob_js_f32_round7 differs from the text route on the float
** with bits u (NaNs skipped); the first few differences are reported. */
static int f32_fast_differs(uint32_t u, int seen, int line)
{
    float f;
    memcpy(&f, &u, 4);
    if (f != f) return 0;
    double a = ob_js_f32_round7(f), b = ob_js_f32_round7_text(f);
    if (memcmp(&a, &b, 8) == 0) return 0;
    if (seen < 5) expect_num("f32 fast = text", a, b, line);
    return 1;
}

static void test_f32_round(void)
{
    expect_num("f32 0.1", ob_js_f32_round7(0.1f), 0.1, __LINE__);
    expect_num("f32 1/3", ob_js_f32_round7(1.0f / 3.0f), 0.3333333, __LINE__);
    expect_num("f32 16777217", ob_js_f32_round7(16777217.0f), 16777220.0, __LINE__);
    expect_num("f32 -0", ob_js_f32_round7(-0.0f), 0.0, __LINE__); /* (-0).toPrecision(7) is "0.000000" */
    expect_num("f32 1e-8", ob_js_f32_round7(1e-8f), 1e-8, __LINE__);
    expect_num("f32 1e7 - 1", ob_js_f32_round7(9999999.0f), 9999999.0, __LINE__);
    expect_num("f32 12345665 tie up", ob_js_f32_round7(12345665.0f), 12345670.0, __LINE__);
    expect_num("f32 -12345.675", ob_js_f32_round7(-12345.675f), -12345.67, __LINE__); /* f32 is 12345.6748046875 */
    {
        /* issue 17: the fast path (no text) against toPrecision's text read by
        ** strtod, bit for bit, on every 9973rd float32 pattern (every exponent,
        ** both signs) and the neighbours of every power of ten */
        int bad = 0;
        for (uint64_t w = 0; w < 0x100000000ull; w += 9973) bad += f32_fast_differs((uint32_t)w, bad, __LINE__);
        for (int e = -46; e <= 39; e++) {
            float p = (float)pow(10.0, e);
            uint32_t u;
            memcpy(&u, &p, 4);
            for (int k = -3; k <= 3; k++) bad += f32_fast_differs(u + (uint32_t)k, bad, __LINE__);
        }
        expect_int("f32 fast path mismatches", bad, 0, __LINE__);
    }
    expect_num("round4 1.23456", ob_js_round4(1.23456), 1.2346, __LINE__);
    expect_num("round4 -1.23456", ob_js_round4(-1.23456), -1.2346, __LINE__);
    expect_num("round4 -0.00004", ob_js_round4(-0.00004), 0.0, __LINE__);
    expect_num("round4 -0", ob_js_round4(-0.0), 0.0, __LINE__);
    expect_num("round4 0.00015", ob_js_round4(0.00015), 0.0001, __LINE__); /* 0.00015 * 1e4 = 1.4999999999999998 -> 1 */
    expect_num("round4 -0.00025", ob_js_round4(-0.00025), -0.0002, __LINE__); /* -2.5 -> -2 */
    {
        /* Math.round(0.49999999999999994) is 0: floor(x + 0.5) would give 1 */
        double x = 0.49999999999999994, v = x / 1e4;
        if (v * 1e4 == x)
            expect_num("round4 0.4999..", ob_js_round4(v), 0.0, __LINE__);
    }
    expect_num("round4 big", ob_js_round4(1e300), 1e300, __LINE__);
}

static void test_format_number(void)
{
    FN(123456.789, "#,##0.0#", "123,456.79");
    FN(1234567.0, "#,##0", "1,234,567");
    FN(1.5, "0.00x", "1.50x");
    FN(0.5, "#.##", ".5");        /* no 0 in int: integer part "0" dropped */
    FN(0.0, "#.##", "0");         /* no fraction left: "0" stays */
    FN(0.004, "#.##", "0");       /* "0.00" stripped to "0" */
    FN(5.0, "000", "005");
    FN(5.0, "0,000", "0,005");    /* pad first, then group */
    FN(-5.0, "+0", "-5");
    FN(5.0, "+0", "+5");
    FN(0.0, "+0", "+0");
    FN(-0.0, "+0", "+0");         /* -0 is not negative */
    FN(-0.001, "+0.00", "0.00");  /* negative but all digits zero: no sign at all */
    FN(-0.001, "0.00", "0.00");
    FN(0.256, "0%", "26%");       /* 25.6 */
    FN(0.5, "0.0%", "50.0%");
    FN(0.125, "0.#%", "12.5%");
    FN(12.5, "$#,##0.00 USD", "$12.50 USD");
    FN(2.5, "0", "3");            /* toFixed tie up */
    FN(1.005, "0.00", "1.00");
    FN(1.2, "0.0##", "1.2");
    FN(1.0, "0.0##", "1.0");
    FN(1.23456, "0.0##", "1.235");
    FN(NAN, "x0.0%y", "xNaN%y");
    FN(INFINITY, "+0", "Infinity");
    FN(-INFINITY, "a0b", "a-Infinityb");
    FN(3.0, "abc", "3abc");       /* no match: plain(v) + pattern */
    FN(0.1 + 0.2, "", "0.3");     /* plain: String(Number((0.1+0.2).toFixed(6))) */
    FN(1.5, "x+y", "1.5x+y");
    FN(7.0, "n=+0", "n=+7");      /* the prefix stops at the first + that leads a number */
    FN(7.0, "a,b", "a7b");        /* "," alone is an int group without 0: "7" */
    FN(1234.0, ",", "1,234");
    FN(7.0, "0.", "7.");          /* "." without digits goes to the suffix */
    FN(1e21, "#,##0.00", "1e+21");
    FN(-1e21, "0", "-1e+21");
    {
        char b[4];
        expect_int("formatNumber cap", ob_format_number(1234.0, "0", b, sizeof b), -1, __LINE__);
        expect_int("formatNumber fits", ob_format_number(123.0, "0", b, sizeof b), 3, __LINE__);
    }
}

/* A lookup over a fixed table. */
static ob_tvalue lookup(void *ud, const char *name)
{
    int *calls = ud;
    ob_tvalue v;
    memset(&v, 0, sizeof v);
    (*calls)++;
    if (strcmp(name, "multiplier") == 0) {
        v.kind = OB_TVALUE_NUMBER;
        v.number = 1.5;
    } else if (strcmp(name, "score") == 0) {
        v.kind = OB_TVALUE_NUMBER;
        v.number = 1234567.891;
    } else if (strcmp(name, "third") == 0) {
        v.kind = OB_TVALUE_NUMBER;
        v.number = 1.0 / 3.0;
    } else if (strcmp(name, "on") == 0) {
        v.kind = OB_TVALUE_BOOL;
        v.boolean = 1;
    } else if (strcmp(name, "off") == 0) {
        v.kind = OB_TVALUE_BOOL;
        v.boolean = 0;
    } else if (strcmp(name, "who") == 0) {
        v.kind = OB_TVALUE_STRING;
        v.string = "w\xc3\xb6rld";
    } else if (strcmp(name, "") == 0) {
        v.kind = OB_TVALUE_STRING;
        v.string = "<empty>";
    }
    return v;
}

#define TT(text, want) do { char b_[256]; int calls_ = 0; \
    size_t n_ = ob_format_template((text), lookup, &calls_, b_, sizeof b_); \
    expect_str("formatTemplate(" #text ")", b_, (int)n_, want, __LINE__); } while (0)

static void test_format_template(void)
{
    TT("plain text", "plain text");
    TT("x{multiplier:0.00x}", "x1.50x");
    TT("{multiplier}", "1.5");
    TT("{third}", "0.333333");                 /* Number((1/3).toFixed(6)) */
    TT("{score:#,##0.0}", "1,234,567.9");
    TT("{score}", "1234567.891");
    TT("{{multiplier}}", "{multiplier}");      /* escapes first, left to right */
    TT("{{{multiplier}}}", "{1.5}");
    TT("a}}b{{c", "a}b{c");
    TT("a}b", "a}b");                          /* lone } stays */
    TT("{nope}", "{nope}");
    TT("{nope:0.00}", "{nope:0.00}");
    TT("{ multiplier }", "1.5");               /* trimmed */
    TT("{\t\xc2\xa0multiplier\xe3\x80\x80\n}", "1.5"); /* JS trim(): NBSP, U+3000 */
    TT("{   }", "<empty>");                    /* trim("   ") is "" */
    TT("{on} {off}", "true false");
    TT("{on:0.00}", "true");                   /* pattern ignored for non-numbers */
    TT("hi {who}!", "hi w\xc3\xb6rld!");
    TT("{multiplier:}", "1.5");                /* empty pattern: no match: plain */
    TT("{}", "{}");                            /* name needs a character */
    TT("{:0}", "{:0}");
    TT("{a{multiplier}", "{a1.5");            /* first { has no match: move on one */
    TT("{multiplier:0{0}", "{multiplier:0{0}");
    TT("{multiplier", "{multiplier");
    TT("{multiplier:a:b}", "1.5a:b");         /* pattern may hold ':' */
    TT("{multiplier:0%}", "150%");
    {
        char b[8];
        int calls = 0;
        /* "abw\xc3\xb6rld" is 8 bytes; a cut never splits the two-byte \xc3\xb6 */
        size_t n = ob_format_template("ab{who}", lookup, &calls, b, 5);
        expect_int("template full length", (long)n, 8, __LINE__);
        expect_str("template truncated", b, (int)strlen(b), "abw", __LINE__);
        n = ob_format_template("ab{who}", lookup, &calls, b, 6);
        expect_str("template truncated 2", b, (int)strlen(b), "abw\xc3\xb6", __LINE__);
        n = ob_format_template("ab{who}", lookup, &calls, NULL, 0);
        expect_int("template length only", (long)n, 8, __LINE__);
        n = ob_format_template("{x}", NULL, NULL, b, sizeof b);
        expect_str("template no lookup", b, (int)n, "{x}", __LINE__);
    }
    {
        /* a name longer than the stack buffer */
        char text[700], want[700];
        text[0] = '{';
        memset(text + 1, 'n', 600);
        text[601] = '}';
        text[602] = '\0';
        memcpy(want, text, 603);
        char b[OB_JSNUM_CAP * 2];
        int calls = 0;
        size_t n = ob_format_template(text, lookup, &calls, b, sizeof b);
        expect_str("long name", b, (int)n, want, __LINE__);
        expect_int("long name looked up", calls, 1, __LINE__);
    }
}

int main(void)
{
    test_to_string();
    test_to_fixed();
    test_to_precision();
    test_f32_round();
    test_format_number();
    test_format_template();
    if (failures != 0) {
        fprintf(stderr, "test_jsnum: %d of %d checks failed\n", failures, checks);
        return 1;
    }
    printf("test_jsnum: %d checks passed\n", checks);
    return 0;
}
