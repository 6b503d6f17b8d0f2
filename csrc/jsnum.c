/* jsnum.c: JavaScript number semantics in C (runtime spec §12, §8.9, §2).
**
** §12 lists the JS number behaviours a port must copy: String(number) is the
** shortest round-trip form with ECMAScript's layout, toFixed/toPrecision round
** exact decimal ties up (C's printf rounds them to even), Math.round rounds .5
** towards +Infinity.  §8.9 builds text templates (formatTemplate,
** formatNumber) on them, and §2 decodes binary float32 values through
** Number(f32.toPrecision(7)).
**
** Everything here starts from the exact decimal expansion of the double
** (a double m * 2^e is m * 5^-e / 10^-e: at most 767 significant digits),
** computed with a small base-1e9 bignum on the stack, then rounded by hand.
** No global state; the only allocation is for template names longer than a
** stack buffer.
*/
#include "jsnum.h"

#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define EXACT_CAP 800           /* >= 767 digits of the longest double */
#define LIMB_CAP 96             /* base-1e9 limbs: 767 digits need 86 */
#define LIMB_BASE 1000000000u
#define MAX_DIGITS 100          /* toFixed / toPrecision digit limit (ES2018+) */

/* ------------------------------------------------------------------------ */
/* Output sink: counts the full length, writes what fits, keeps a NUL.      */

typedef struct sink {
    char *buf;
    size_t cap;
    size_t len;   /* full length of everything put */
    size_t pos;   /* bytes actually written */
    int stopped;  /* ran out of room: write nothing more */
} sink;

static void sink_init(sink *o, char *buf, size_t cap)
{
    o->buf = buf;
    o->cap = cap;
    o->len = 0;
    o->pos = 0;
    o->stopped = (cap == 0 || buf == NULL);
    if (!o->stopped)
        buf[0] = '\0';
}

/* Appends n bytes; on overflow truncates at a UTF-8 boundary and stops. */
static void put(sink *o, const char *p, size_t n)
{
    o->len += n;
    if (o->stopped || n == 0)
        return;
    size_t room = o->cap - 1 - o->pos;
    if (n <= room) {
        memcpy(o->buf + o->pos, p, n);
        o->pos += n;
    } else {
        size_t k = room;
        while (k > 0 && ((unsigned char)p[k] & 0xC0) == 0x80)
            k--;  /* p[k] is the first byte dropped: not inside a character */
        memcpy(o->buf + o->pos, p, k);
        o->pos += k;
        o->stopped = 1;
    }
    o->buf[o->pos] = '\0';
}

static void puts_(sink *o, const char *s) { put(o, s, strlen(s)); }
static void putc_(sink *o, char c) { put(o, &c, 1); }

/* The int-returning API: length, or -1 (and "") when cap is too small. */
static int sink_result(sink *o)
{
    if (o->len >= o->cap || o->len > (size_t)INT_MAX) {
        if (o->cap > 0 && o->buf != NULL)
            o->buf[0] = '\0';
        return -1;
    }
    return (int)o->len;
}

/* ------------------------------------------------------------------------ */
/* Exact decimal expansion.                                                 */

static void mul_small(uint32_t *limb, int *n, uint32_t mult)
{
    uint64_t carry = 0;
    for (int i = 0; i < *n; i++) {
        uint64_t t = (uint64_t)limb[i] * mult + carry;  /* < 1.3e18 */
        limb[i] = (uint32_t)(t % LIMB_BASE);
        carry = t / LIMB_BASE;
    }
    while (carry != 0 && *n < LIMB_CAP) {
        limb[(*n)++] = (uint32_t)(carry % LIMB_BASE);
        carry /= LIMB_BASE;
    }
}

/* a > 0 finite.  Writes the significant digits of a's exact value into dig
** (no leading or trailing zeros, not NUL-terminated) and returns their count
** L; a = 0.d1d2...dL * 10^point. */
static int exact_decimal(double a, char *dig, int *point)
{
    int e2;
    double f = frexp(a, &e2);
    uint64_t m = (uint64_t)ldexp(f, 53);  /* exact: f has <= 53 bits */
    e2 -= 53;
    while (e2 < 0 && (m & 1u) == 0) {
        m >>= 1;
        e2++;
    }

    uint32_t limb[LIMB_CAP];
    int n = 0;
    while (m != 0) {
        limb[n++] = (uint32_t)(m % LIMB_BASE);
        m /= LIMB_BASE;
    }
    int k = 0;  /* value = limbs / 10^k */
    if (e2 >= 0) {
        int s = e2;
        for (; s >= 29; s -= 29)
            mul_small(limb, &n, 1u << 29);
        if (s > 0)
            mul_small(limb, &n, 1u << s);
    } else {
        k = -e2;  /* m * 2^-k = m * 5^k / 10^k */
        int s = k;
        for (; s >= 13; s -= 13)
            mul_small(limb, &n, 1220703125u);  /* 5^13 */
        uint32_t p5 = 1;
        for (; s > 0; s--)
            p5 *= 5;
        if (p5 > 1)
            mul_small(limb, &n, p5);
    }

    int L = 0;
    {
        char tmp[10];
        int t = 0;
        uint32_t top = limb[n - 1];
        while (top != 0) {
            tmp[t++] = (char)('0' + top % 10);
            top /= 10;
        }
        while (t > 0)
            dig[L++] = tmp[--t];
    }
    for (int i = n - 2; i >= 0; i--) {
        uint32_t x = limb[i];
        for (int j = 8; j >= 0; j--) {
            dig[L + j] = (char)('0' + x % 10);
            x /= 10;
        }
        L += 9;
    }
    *point = L - k;
    while (L > 1 && dig[L - 1] == '0')
        L--;
    return L;
}

/* Adds one to the decimal digit string s[0..n); returns 1 on carry out (then
** s is all zeros). */
static int inc_digits(char *s, int n)
{
    for (int i = n - 1; i >= 0; i--) {
        if (s[i] != '9') {
            s[i]++;
            return 0;
        }
        s[i] = '0';
    }
    return 1;
}

static void dec_digits(char *s, int n)
{
    for (int i = n - 1; i >= 0; i--) {
        if (s[i] != '0') {
            s[i]--;
            return;
        }
        s[i] = '9';
    }
}

static void put_int(sink *o, int v)
{
    char tmp[16];
    int n = snprintf(tmp, sizeof tmp, "%d", v);
    put(o, tmp, (size_t)n);
}

static void put_zeros(sink *o, int n)
{
    for (; n > 0; n--)
        putc_(o, '0');
}

/* ------------------------------------------------------------------------ */
/* Number::toString (§12): shortest round-trip digits, ECMAScript layout.   */

/* strtod(c * 10^q) == a?  (no decimal point: locale independent) */
static int round_trips(const char *c, int cn, int q, double a)
{
    char s[48];
    memcpy(s, c, (size_t)cn);
    snprintf(s + cn, sizeof s - (size_t)cn, "e%d", q);
    return strtod(s, NULL) == a;
}

/* Is there a p-digit decimal that parses back to a?  If so, writes the one
** closest to a (ties: the even one) as c[0..p) * 10^q.  Only three can
** qualify: the closest p-digit decimal, else its neighbour on the other side
** of a (the rounding interval of a power of two is lopsided); one further
** away is more than a gap from a, wider than the interval on that side. */
static int round_trip_at(const char *dig, int L, int P, int p, double a,
                         char *c, int *q)
{
    *q = P - p;
    if (p >= L) {  /* the exact value: it is a */
        memcpy(c, dig, (size_t)L);
        memset(c + L, '0', (size_t)(p - L));
        return 1;
    }
    memcpy(c, dig, (size_t)p);
    int r = dig[p] - '0';
    int up = r > 5 || (r == 5 && (L > p + 1 || ((c[p - 1] - '0') & 1)));
    if (up && inc_digits(c, p)) {
        c[0] = '1';  /* 99..9 + 1 = 10..0 one place up */
        (*q)++;
    }
    if (round_trips(c, p, *q, a))
        return 1;
    char u[24];
    int uq = *q;
    memcpy(u, c, (size_t)p);
    if (inc_digits(u, p)) {
        u[0] = '1';
        uq++;
    }
    if (!round_trips(u, p, uq, a)) {
        int pow10 = c[0] == '1';
        for (int i = 1; i < p && pow10; i++)
            pow10 = c[i] == '0';
        memcpy(u, c, (size_t)p);
        uq = *q;
        if (pow10) {
            memset(u, '9', (size_t)p);  /* below 10..0 the grid is finer */
            uq--;
        } else {
            dec_digits(u, p);
        }
        if (!round_trips(u, p, uq, a))
            return 0;
    }
    memcpy(c, u, (size_t)p);
    *q = uq;
    return 1;
}

/* a > 0 finite.  Writes the ECMAScript digits s (k digits, no trailing
** zeros) and returns k; *npos is ECMAScript's n (a = 0.s * 10^n).  k is the
** least count for which some k-digit decimal parses back to a; among those,
** the closest to a (ties: the even one). */
static int shortest_digits(double a, char *s, int *npos)
{
    char dig[EXACT_CAP];
    int P;
    int L = exact_decimal(a, dig, &P);
    char c[24], t[24];
    int q = 0, tq;
    /* A p-digit decimal is also a (p+1)-digit one, so "some p-digit decimal
    ** round-trips" is monotonic in p: binary search it.  17 digits always
    ** round-trip, and so do the L exact ones. */
    int lo = 1, hi = L < 17 ? L : 17, have = 0;
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        if (round_trip_at(dig, L, P, mid, a, t, &tq)) {
            hi = mid;
            memcpy(c, t, (size_t)mid);
            q = tq;
            have = mid;
        } else {
            lo = mid + 1;
        }
    }
    if (have != hi)
        round_trip_at(dig, L, P, hi, a, c, &q);
    int cn = hi;
    while (cn > 1 && c[cn - 1] == '0') {
        cn--;
        q++;
    }
    memcpy(s, c, (size_t)cn);
    *npos = q + cn;
    return cn;
}

static void put_exponent(sink *o, int e)
{
    putc_(o, 'e');
    putc_(o, e < 0 ? '-' : '+');
    put_int(o, e < 0 ? -e : e);
}

static void put_js_string(sink *o, double v)
{
    if (isnan(v)) {
        puts_(o, "NaN");
        return;
    }
    if (v == 0) {  /* -0 too */
        putc_(o, '0');
        return;
    }
    if (v < 0) {
        putc_(o, '-');
        v = -v;
    }
    if (isinf(v)) {
        puts_(o, "Infinity");
        return;
    }
    char s[24];
    int n;
    int k = shortest_digits(v, s, &n);
    /* §12 / ECMAScript Number::toString layout */
    if (k <= n && n <= 21) {
        put(o, s, (size_t)k);
        put_zeros(o, n - k);
    } else if (0 < n && n <= 21) {
        put(o, s, (size_t)n);
        putc_(o, '.');
        put(o, s + n, (size_t)(k - n));
    } else if (-6 < n && n <= 0) {
        puts_(o, "0.");
        put_zeros(o, -n);
        put(o, s, (size_t)k);
    } else {
        putc_(o, s[0]);
        if (k > 1) {
            putc_(o, '.');
            put(o, s + 1, (size_t)(k - 1));
        }
        put_exponent(o, n - 1);
    }
}

int ob_js_to_string(double v, char *buf, size_t cap)
{
    sink o;
    sink_init(&o, buf, cap);
    put_js_string(&o, v);
    return sink_result(&o);
}

/* ------------------------------------------------------------------------ */
/* Number.prototype.toFixed: exact value, ties to the larger n.             */

static void put_js_fixed(sink *o, double v, int f)
{
    if (!isfinite(v)) {
        put_js_string(o, v);
        return;
    }
    int neg = v < 0;  /* false for -0: "If x < 0" */
    double x = neg ? -v : v;
    if (x >= 1e21) {
        if (neg)
            putc_(o, '-');
        put_js_string(o, x);
        return;
    }
    /* n = round-half-up(x * 10^f), as a digit string */
    char n[EXACT_CAP + 2];
    int nn;
    if (x == 0) {
        n[0] = '0';
        nn = 1;
    } else {
        char dig[EXACT_CAP];
        int P;
        int L = exact_decimal(x, dig, &P);
        int cut = P + f;  /* digits of x * 10^f before its point */
        if (cut < 0) {
            n[0] = '0';
            nn = 1;
        } else if (cut == 0) {
            n[0] = dig[0] >= '5' ? '1' : '0';
            nn = 1;
        } else {
            for (int i = 0; i < cut; i++)
                n[i] = i < L ? dig[i] : '0';
            nn = cut;
            if (cut < L && dig[cut] >= '5' && inc_digits(n, nn)) {
                n[0] = '1';  /* 99..9 -> 100..0 */
                n[nn++] = '0';
            }
        }
    }
    if (neg)
        putc_(o, '-');
    if (f == 0) {
        put(o, n, (size_t)nn);
        return;
    }
    if (nn <= f) {  /* pad to f + 1 digits: 0.00d */
        putc_(o, '0');
        putc_(o, '.');
        put_zeros(o, f - nn);
        put(o, n, (size_t)nn);
    } else {
        put(o, n, (size_t)(nn - f));
        putc_(o, '.');
        put(o, n + nn - f, (size_t)f);
    }
}

int ob_js_to_fixed(double v, int digits, char *buf, size_t cap)
{
    sink o;
    sink_init(&o, buf, cap);
    if (digits < 0 || digits > MAX_DIGITS)
        return -1;
    put_js_fixed(&o, v, digits);
    return sink_result(&o);
}

/* ------------------------------------------------------------------------ */
/* Number.prototype.toPrecision: p significant digits, ties up.             */

static void put_js_precision(sink *o, double v, int p)
{
    if (!isfinite(v)) {
        put_js_string(o, v);
        return;
    }
    char m[MAX_DIGITS + 1];
    int e;
    if (v < 0) {
        putc_(o, '-');
        v = -v;
    }
    if (v == 0) {
        memset(m, '0', (size_t)p);
        e = 0;
    } else {
        char dig[EXACT_CAP];
        int P;
        int L = exact_decimal(v, dig, &P);
        e = P - 1;
        for (int i = 0; i < p; i++)
            m[i] = i < L ? dig[i] : '0';
        if (p < L && dig[p] >= '5' && inc_digits(m, p)) {
            m[0] = '1';
            e++;
        }
    }
    if (e < -6 || e >= p) {  /* exponential form */
        putc_(o, m[0]);
        if (p != 1) {
            putc_(o, '.');
            put(o, m + 1, (size_t)(p - 1));
        }
        put_exponent(o, e);
    } else if (e == p - 1) {
        put(o, m, (size_t)p);
    } else if (e >= 0) {
        put(o, m, (size_t)(e + 1));
        putc_(o, '.');
        put(o, m + e + 1, (size_t)(p - e - 1));
    } else {
        puts_(o, "0.");
        put_zeros(o, -(e + 1));
        put(o, m, (size_t)p);
    }
}

int ob_js_to_precision(double v, int p, char *buf, size_t cap)
{
    sink o;
    sink_init(&o, buf, cap);
    if (p < 1 || p > MAX_DIGITS)
        return -1;
    put_js_precision(&o, v, p);
    return sink_result(&o);
}

/* §2: Number(Math.fround(f).toPrecision(7)) */
/* The text route: toPrecision's digits, read back by strtod (the reference
** for the fast path below; tests/c/test_jsnum.c compares the two). */
double ob_js_f32_round7_text(float f)
{
    char b[64];
    if (ob_js_to_precision((double)f, 7, b, sizeof b) < 0)
        return (double)f;
    return strtod(b, NULL);
}

/* issue 17 (load time): the same value without text.  toPrecision(7) picks
** the integer n, 10^6 <= n <= 10^7, nearest to |x| * 10^(6-e), ties up, and
** the result is the double nearest n * 10^(e-6).  For 1e-6 <= |x| < 1e7 the
** scaled y = |x| * 10^p (p = 6 - e, 0 <= p <= 12) is exact in double (24-bit
** mantissa times 5^p < 2^28), so n and the tie are decided exactly, and n /
** 10^p is one correctly rounded division of exact operands (what strtod gives
** for the text).  For 1e7 <= |x| < 1e18, x is an integer (float32 >= 2^23):
** n comes from uint64 arithmetic, the result is n * 10^q, exact operands
** again.  Anything else (tiny, huge, non-finite) takes the text route. */
double ob_js_f32_round7(float f)
{
    static const double p10[13] = {1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12};
    static const uint64_t u10[19] = {1ull, 10ull, 100ull, 1000ull, 10000ull, 100000ull, 1000000ull, 10000000ull,
                                     100000000ull, 1000000000ull, 10000000000ull, 100000000000ull,
                                     1000000000000ull, 10000000000000ull, 100000000000000ull,
                                     1000000000000000ull, 10000000000000000ull, 100000000000000000ull,
                                     1000000000000000000ull};
    double x = (double)f, a = fabs(x);
    if (a == 0) return 0.0;  /* "0.000000": +0 for both zeros */
    if (a >= 1e-6 && a < 1e7) {
        int e2;
        frexp(a, &e2);                      /* 2^(e2-1) <= a < 2^e2 */
        int e = (int)floor((e2 - 1) * 0.30102999566398120);  /* <= floor(log10 a), at most one below */
        if (e < -6) e = -6;
        int p = 6 - e;
        double y = a * p10[p];              /* exact */
        if (y >= 1e7 && p > 0) y = a * p10[--p];
        if (y >= 1e6 && y < 1e7) {
            double n = floor(y);
            if (y - n >= 0.5) n += 1;       /* ties up, as toPrecision */
            double r = n / p10[p];
            return f < 0 ? -r : r;
        }
    } else if (a >= 1e7 && a < 1e18) {
        uint64_t X = (uint64_t)a;           /* a is an integer */
        int e = 7;
        while (e < 17 && X >= u10[e + 1]) e++;  /* 10^e <= X < 10^(e+1) */
        int q = e - 6;                      /* 1 <= q <= 11 */
        uint64_t d = u10[q], n = X / d, rem = X % d;
        if (2 * rem >= d) n++;
        double r = (double)n * p10[q];
        return f < 0 ? -r : r;
    }
    return ob_js_f32_round7_text(f);
}

/* §12: Math.round, the integral value closest to x, ties towards +Infinity. */
static double js_math_round(double x)
{
    if (!isfinite(x) || x == 0 || fabs(x) >= 4503599627370496.0)
        return x;  /* |x| >= 2^52 is already integral */
    double r = floor(x);
    if (x - r >= 0.5)  /* x - floor(x) is exact below 2^52 */
        r += 1.0;
    if (r == 0 && x < 0)
        return -0.0;
    return r;
}

double ob_js_round4(double v)
{
    double r = js_math_round(v * 1e4) / 1e4;
    return r == 0 ? 0.0 : r;  /* -0 -> 0 */
}

/* ------------------------------------------------------------------------ */
/* §8.9 formatNumber.                                                       */

/* One match of ^([^#0]*?)(\+?)([#0,]+)(?:\.([0#]+))?(%?)(.*)$ (dot-all). */
typedef struct numpat {
    const char *prefix;
    size_t prefix_n;
    int plus;
    const char *intp;
    size_t int_n;
    const char *frac;  /* NULL when the group did not take part */
    size_t frac_n;
    int pct;
    const char *suffix;
    size_t suffix_n;
} numpat;

static int int_char(char c) { return c == '#' || c == '0' || c == ','; }
static int frac_char(char c) { return c == '#' || c == '0'; }

/* Backtracking semantics by hand: the lazy prefix takes the first length at
** which the rest matches; every later group is greedy and (.*)$ always
** matches under dot-all, so the first choice at that length is the match. */
static int match_pattern(const char *p, size_t n, numpat *m)
{
    for (size_t i = 0; i <= n; i++) {
        if (i > 0 && frac_char(p[i - 1]))
            return 0;  /* the prefix cannot hold '#' or '0' */
        size_t j = i;
        int plus = 0;
        if (j + 1 < n && p[j] == '+' && int_char(p[j + 1])) {
            plus = 1;
            j++;
        } else if (!(j < n && int_char(p[j]))) {
            continue;
        }
        size_t k = j;
        while (k < n && int_char(p[k]))
            k++;
        m->prefix = p;
        m->prefix_n = i;
        m->plus = plus;
        m->intp = p + j;
        m->int_n = k - j;
        m->frac = NULL;
        m->frac_n = 0;
        if (k + 1 < n && p[k] == '.' && frac_char(p[k + 1])) {
            size_t f = k + 1;
            while (f < n && frac_char(p[f]))
                f++;
            m->frac = p + k + 1;
            m->frac_n = f - (k + 1);
            k = f;
        }
        m->pct = k < n && p[k] == '%';
        if (m->pct)
            k++;
        m->suffix = p + k;
        m->suffix_n = n - k;
        return 1;
    }
    return 0;
}

/* §8.9 String(Number(v.toFixed(6))): a template number without pattern, and
** (our reading of "plain(v)") formatNumber's no-match case. */
static void put_plain(sink *o, double v)
{
    char b[OB_JSNUM_CAP];
    sink t;
    sink_init(&t, b, sizeof b);
    put_js_fixed(&t, v, 6);
    put_js_string(o, strtod(b, NULL));  /* "NaN"/"Infinity" parse back too */
}

static void put_format_number(sink *o, double v, const char *pat, size_t patn)
{
    numpat m;
    if (!match_pattern(pat, patn, &m)) {
        put_plain(o, v);  /* §8.9 no match ⇒ plain(v) + pattern */
        put(o, pat, patn);
        return;
    }
    if (m.pct)
        v = v * 100;  /* §8.9 % ⇒ v·100 */
    if (!isfinite(v)) {  /* §8.9 prefix + String(v) + pct + suffix */
        put(o, m.prefix, m.prefix_n);
        put_js_string(o, v);
        if (m.pct)
            putc_(o, '%');
        put(o, m.suffix, m.suffix_n);
        return;
    }
    /* §8.9 minFrac = leading 0s of frac, maxFrac = |frac|.  Our choice where
    ** JS would throw (toFixed(> 100) is a RangeError): clamp to 100. */
    int max_frac = (int)(m.frac_n > MAX_DIGITS ? MAX_DIGITS : m.frac_n);
    int min_frac = 0;
    while (min_frac < max_frac && m.frac[min_frac] == '0')
        min_frac++;
    size_t int_zeros = 0;
    int group = 0;
    for (size_t i = 0; i < m.int_n; i++) {
        int_zeros += m.intp[i] == '0';
        group |= m.intp[i] == ',';
    }

    char s[OB_JSNUM_CAP];
    sink t;
    sink_init(&t, s, sizeof s);
    put_js_fixed(&t, fabs(v), max_frac);  /* s = |v|.toFixed(maxFrac) */
    size_t len = t.pos;
    const char *ip = s, *fp = "";
    size_t ipn = len, fpn = 0, pad = 0;
    /* Our choice, the spec being silent: |v| >= 1e21 makes toFixed return
    ** "1e+21"-style text, used as is (no strip, pad or separators). */
    int exp_form = memchr(s, 'e', len) != NULL;
    if (!exp_form) {
        /* §8.9 strip up to maxFrac − minFrac trailing zeros (and a bare .) */
        for (int drop = max_frac - min_frac; drop > 0 && s[len - 1] == '0'; drop--)
            len--;
        if (s[len - 1] == '.')
            len--;
        const char *dot = memchr(s, '.', len);
        if (dot != NULL) {
            ipn = (size_t)(dot - s);
            fp = dot + 1;
            fpn = len - ipn - 1;
        } else {
            ipn = len;
        }
        /* §8.9 pad the integer part to the number of 0s in int */
        pad = int_zeros > ipn ? int_zeros - ipn : 0;
        /* §8.9 no 0 in int, integer part "0" and a fraction left: drop it */
        if (int_zeros == 0 && ipn == 1 && ip[0] == '0' && fpn > 0)
            ipn = 0;
    }
    int nonzero = 0;
    for (size_t i = 0; i < len && !nonzero; i++)
        nonzero = s[i] >= '1' && s[i] <= '9';

    put(o, m.prefix, m.prefix_n);
    /* §8.9 - only if negative and some digit is non-zero, else + if plus */
    if (v < 0 && nonzero)
        putc_(o, '-');
    else if (m.plus && !(v < 0))
        putc_(o, '+');
    if (exp_form) {
        put(o, s, len);
    } else {
        size_t total = pad + ipn;  /* §8.9 , in int ⇒ groups of 3 from the right */
        for (size_t i = 0; i < total; i++) {
            if (group && i > 0 && (total - i) % 3 == 0)
                putc_(o, ',');
            putc_(o, i < pad ? '0' : ip[i - pad]);
        }
        if (fpn > 0) {
            putc_(o, '.');
            put(o, fp, fpn);
        }
    }
    if (m.pct)
        putc_(o, '%');
    put(o, m.suffix, m.suffix_n);
}

int ob_format_number(double v, const char *pattern, char *buf, size_t cap)
{
    sink o;
    sink_init(&o, buf, cap);
    if (pattern == NULL)
        pattern = "";
    put_format_number(&o, v, pattern, strlen(pattern));
    return sink_result(&o);
}

/* ------------------------------------------------------------------------ */
/* §8.9 formatTemplate.                                                     */

/* Byte length of the JS trim() whitespace character (WhiteSpace or
** LineTerminator) starting at p, 0 if none. */
static size_t ws_at(const unsigned char *p, size_t n)
{
    if (n >= 1 && (p[0] == ' ' || (p[0] >= 0x09 && p[0] <= 0x0D)))
        return 1;
    if (n >= 2 && p[0] == 0xC2 && p[1] == 0xA0)  /* U+00A0 */
        return 2;
    if (n >= 3) {
        unsigned a = p[0], b = p[1], c = p[2];
        if (a == 0xE1 && b == 0x9A && c == 0x80)  /* U+1680 */
            return 3;
        if (a == 0xE2 && b == 0x80 &&
            ((c >= 0x80 && c <= 0x8A) || c == 0xA8 || c == 0xA9 || c == 0xAF))
            return 3;  /* U+2000..200A, U+2028, U+2029, U+202F */
        if (a == 0xE2 && b == 0x81 && c == 0x9F)  /* U+205F */
            return 3;
        if (a == 0xE3 && b == 0x80 && c == 0x80)  /* U+3000 */
            return 3;
        if (a == 0xEF && b == 0xBB && c == 0xBF)  /* U+FEFF */
            return 3;
    }
    return 0;
}

static void trim(const char **b, const char **e)
{
    const unsigned char *p = (const unsigned char *)*b;
    const unsigned char *q = (const unsigned char *)*e;
    size_t w;
    while (p < q && (w = ws_at(p, (size_t)(q - p))) > 0)
        p += w;
    for (;;) {
        size_t n = (size_t)(q - p);
        if (n >= 1 && ws_at(q - 1, 1) == 1)
            q -= 1;
        else if (n >= 2 && ws_at(q - 2, 2) == 2)
            q -= 2;
        else if (n >= 3 && ws_at(q - 3, 3) == 3)
            q -= 3;
        else
            break;
    }
    *b = (const char *)p;
    *e = (const char *)q;
}

/* Replaces one {name[:pattern]} match [mb, me); pb is NULL without ':'. */
static void put_field(sink *o, const char *mb, const char *me,
                      const char *nb, const char *ne,
                      const char *pb, const char *pe,
                      ob_template_lookup lookup, void *ud)
{
    trim(&nb, &ne);  /* §8.9 value of trim(name) */
    size_t nn = (size_t)(ne - nb);
    char small[256];
    char *name = small;
    if (nn >= sizeof small) {
        name = malloc(nn + 1);  /* only for very long names */
        if (name == NULL) {
            put(o, mb, (size_t)(me - mb));
            return;
        }
    }
    memcpy(name, nb, nn);
    name[nn] = '\0';
    ob_tvalue val;
    memset(&val, 0, sizeof val);
    if (lookup != NULL)
        val = lookup(ud, name);
    if (name != small)
        free(name);

    switch (val.kind) {
    case OB_TVALUE_NUMBER:
        if (pb != NULL)  /* §8.9 number with pattern ⇒ formatNumber */
            put_format_number(o, val.number, pb, (size_t)(pe - pb));
        else  /* §8.9 String(Number(v.toFixed(6))) */
            put_plain(o, val.number);
        break;
    case OB_TVALUE_BOOL:
        puts_(o, val.boolean ? "true" : "false");
        break;
    case OB_TVALUE_STRING:
        if (val.string != NULL)
            puts_(o, val.string);
        break;
    default:  /* unknown ⇒ left as written */
        put(o, mb, (size_t)(me - mb));
        break;
    }
}

size_t ob_format_template(const char *text, ob_template_lookup lookup, void *ud,
                          char *buf, size_t cap)
{
    sink o;
    sink_init(&o, buf, cap);
    if (text == NULL)
        return 0;
    /* §8.9 /\{\{|\}\}|\{([^{}:]+)(?::([^{}]*))?\}/g, left to right */
    const char *p = text, *lit = text;
    while (*p != '\0') {
        if (*p != '{' && *p != '}') {
            p++;
            continue;
        }
        if ((p[0] == '{' && p[1] == '{') || (p[0] == '}' && p[1] == '}')) {
            put(&o, lit, (size_t)(p - lit));
            putc_(&o, p[0]);  /* {{ → {, }} → } */
            p += 2;
            lit = p;
            continue;
        }
        if (p[0] == '{') {
            const char *nb = p + 1, *ne = nb;
            while (*ne != '\0' && *ne != '{' && *ne != '}' && *ne != ':')
                ne++;
            const char *pb = NULL, *pe = NULL, *end = NULL;
            if (ne > nb) {
                if (*ne == '}') {
                    end = ne;
                } else if (*ne == ':') {
                    pb = pe = ne + 1;
                    while (*pe != '\0' && *pe != '{' && *pe != '}')
                        pe++;
                    if (*pe == '}')
                        end = pe;
                }
            }
            if (end != NULL) {
                put(&o, lit, (size_t)(p - lit));
                put_field(&o, p, end + 1, nb, ne, pb, pe, lookup, ud);
                p = end + 1;
                lit = p;
                continue;
            }
        }
        p++;  /* no match here: the regex moves on one character */
    }
    put(&o, lit, (size_t)(p - lit));
    return o.len;
}
