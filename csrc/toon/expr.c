/* expr.c: §5 expressions: a recursive-descent parser that emits stack
** bytecode once per formula, and its evaluator, with JavaScript number
** semantics (doubles; x/0 = ±Infinity; Math.pow; Math.min/max with NaN
** winning) and the clarified operators (% floored as in Python, round =
** floor(x + ½), comparisons and ! give 1/0, || && short-circuit). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../rng.h"
#include "toon.h"

/* ---- JS number helpers ---------------------------------------------------- */

double jt_js_mod(double a, double b)  /* §5: floored modulo (Python float %), x % 0 NaN */
{
    if (b == 0 || isnan(a) || isnan(b) || isinf(a)) return NAN;
    double m = fmod(a, b);
    if (m != 0) {
        if ((b < 0) != (m < 0)) m += b;
    } else {
        m = copysign(0.0, b);
    }
    return m;
}

double jt_js_pow(double a, double b)  /* Math.pow: NaN exponent, ±1 ** ±Infinity are NaN */
{
    if (isnan(b)) return NAN;
    if (isinf(b) && fabs(a) == 1) return NAN;
    return pow(a, b);
}

double jt_js_max(double a, double b)
{
    if (isnan(a) || isnan(b)) return NAN;
    if (a == 0 && b == 0) return signbit(a) && signbit(b) ? -0.0 : 0.0;
    return a > b ? a : b;
}

double jt_js_min(double a, double b)
{
    if (isnan(a) || isnan(b)) return NAN;
    if (a == 0 && b == 0) return signbit(a) || signbit(b) ? -0.0 : 0.0;
    return a < b ? a : b;
}

uint32_t jt_to_uint32(double v)  /* ToUint32 */
{
    if (!isfinite(v)) return 0;
    double t = trunc(v);
    double m = fmod(t, 4294967296.0);
    if (m < 0) m += 4294967296.0;
    return (uint32_t)m;
}

double jt_hopair(double x)  /* §3 hop: h, 0 on the ground (the argument is cyc, taken mod 1) */
{
    double cyc = jt_js_mod(x, 1);
    if (cyc < 0.12) return 0;
    double c = (cyc - 0.12) / 0.88;
    return sin(c * JT_PI);
}

double jt_ease(int ease, double u)  /* §3 timing args, clarified */
{
    switch (ease) {
    case EASE_LINEAR: return u;
    case EASE_IN: return u * u;
    case EASE_OUT: return sin(u * JT_PI / 2);
    case EASE_SNAPPY: {
        double v = u - 1;
        return 1 + 2.70158 * (v * v * v) + 1.70158 * (v * v);
    }
    default: return u * u * (3 - 2 * u);
    }
}

/* JS StringToNumber: whitespace trimmed, "" = 0, Infinity, 0x/0o/0b, decimals. */
static int js_space(const unsigned char *s, int *len)
{
    unsigned c = s[0];
    if (c == ' ' || (c >= 9 && c <= 13)) { *len = 1; return 1; }
    if (c == 0xC2 && s[1] == 0xA0) { *len = 2; return 1; }                       /* U+00A0 */
    if (c == 0xEF && s[1] == 0xBB && s[2] == 0xBF) { *len = 3; return 1; }       /* U+FEFF */
    if (c == 0xE1 && s[1] == 0x9A && s[2] == 0x80) { *len = 3; return 1; }       /* U+1680 */
    if (c == 0xE2 && s[1] == 0x80 && ((s[2] >= 0x80 && s[2] <= 0x8A) || s[2] == 0xA8 || s[2] == 0xA9 || s[2] == 0xAF)) {
        *len = 3; return 1;
    }
    if (c == 0xE2 && s[1] == 0x81 && s[2] == 0x9F) { *len = 3; return 1; }       /* U+205F */
    if (c == 0xE3 && s[1] == 0x80 && s[2] == 0x80) { *len = 3; return 1; }       /* U+3000 */
    return 0;
}

double jt_js_to_number(const char *str)
{
    const unsigned char *s = (const unsigned char *)str;
    size_t n = strlen(str);
    int l;
    while (n && js_space(s, &l)) { s += l; n -= (size_t)l; }
    while (n) {  /* trailing: test each suffix start (UTF-8 lengths 1..3) */
        int trimmed = 0;
        for (int k = 1; k <= 3 && (size_t)k <= n; k++)
            if (js_space(s + n - k, &l) && l == k) { n -= (size_t)k; trimmed = 1; break; }
        if (!trimmed) break;
    }
    if (!n) return 0;
    char buf[64];
    char *tmp = n < sizeof buf ? buf : malloc(n + 1);
    if (!tmp) return NAN;
    memcpy(tmp, s, n);
    tmp[n] = 0;
    double r = NAN;
    const char *p = tmp;
    if (!strcmp(p, "Infinity") || !strcmp(p, "+Infinity")) r = INFINITY;
    else if (!strcmp(p, "-Infinity")) r = -INFINITY;
    else if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X' || p[1] == 'o' || p[1] == 'O' || p[1] == 'b' || p[1] == 'B')) {
        int base = (p[1] == 'x' || p[1] == 'X') ? 16 : (p[1] == 'o' || p[1] == 'O') ? 8 : 2;
        double v = 0;
        int any = 0, ok = 1;
        for (const char *q = p + 2; *q; q++) {
            int d = *q >= '0' && *q <= '9' ? *q - '0' : *q >= 'a' && *q <= 'f' ? *q - 'a' + 10
                  : *q >= 'A' && *q <= 'F' ? *q - 'A' + 10 : 99;
            if (d >= base) { ok = 0; break; }
            v = v * base + d;
            any = 1;
        }
        if (ok && any) r = v;
    } else {
        const char *q = p;
        if (*q == '+' || *q == '-') q++;
        int digits = 0;
        while (*q >= '0' && *q <= '9') { q++; digits++; }
        if (*q == '.') {
            q++;
            while (*q >= '0' && *q <= '9') { q++; digits++; }
        }
        if (digits && (*q == 'e' || *q == 'E')) {
            const char *e = q + 1;
            if (*e == '+' || *e == '-') e++;
            if (*e >= '0' && *e <= '9') {
                while (*e >= '0' && *e <= '9') e++;
                q = e;
            } else {
                q = "x";  /* a dangling exponent: not a number */
            }
        }
        if (digits && !*q) r = strtod(p, NULL);
    }
    if (tmp != buf) free(tmp);
    return r;
}

/* ---- the compiler --------------------------------------------------------- */

static const struct { const char *name; int minargs, maxargs; } FUNCS[F_COUNT] = {
    [F_SIN] = {"sin", 1, 1}, [F_COS] = {"cos", 1, 1}, [F_TAN] = {"tan", 1, 1}, [F_ABS] = {"abs", 1, 1},
    [F_EXP] = {"exp", 1, 1}, [F_SQRT] = {"sqrt", 1, 1}, [F_FLOOR] = {"floor", 1, 1}, [F_CEIL] = {"ceil", 1, 1},
    [F_ROUND] = {"round", 1, 1}, [F_SIGN] = {"sign", 1, 1}, [F_POW] = {"pow", 2, 2}, [F_MIN] = {"min", 0, 65535},
    [F_MAX] = {"max", 0, 65535}, [F_MOD] = {"mod", 2, 2}, [F_CLAMP] = {"clamp", 3, 3},
    [F_SMOOTHSTEP] = {"smoothstep", 1, 3}, [F_HOPAIR] = {"hopair", 1, 1}, [F_LERP] = {"lerp", 3, 3},
    [F_STEP] = {"step", 2, 2},
};

typedef struct parser {
    jt_builder *b;
    const char *s, *end, *at;
    int depth, sp, maxsp;
    int failed;
    char *msg;
    size_t cap;
    uint32_t uses;
    int32_t start;  /* the expression's first instruction: jumps are relative to it */
} parser;

static void fail(parser *ps, const char *fmt, const char *what)
{
    if (ps->failed) return;
    ps->failed = 1;
    char w[16];
    size_t n = 0;
    if (what && what >= ps->s && what <= ps->end) {  /* a piece of the input, which has no NUL */
        n = (size_t)(ps->end - what);
        if (n > 12) n = 12;
        memcpy(w, what, n);
    } else if (what) {
        n = strlen(what);
        if (n > 12) n = 12;
        memcpy(w, what, n);
    }
    w[n] = 0;
    snprintf(ps->msg, ps->cap, fmt, w, (int)(ps->at - ps->s) + 1);
}

static void skip_ws(parser *ps)
{
    while (ps->at < ps->end && (*ps->at == ' ' || *ps->at == '\t' || *ps->at == '\n' || *ps->at == '\r')) ps->at++;
}

static int emit(parser *ps, int op, int fn, int argc, int32_t arg, int effect)
{
    jt_builder *b = ps->b;
    if (jt_grow((void **)&b->code, &b->capcode, b->ncode + 1, sizeof *b->code) < 0) {
        fail(ps, "out of memory%s", "");
        return -1;
    }
    b->code[b->ncode] = (jt_instr){(uint8_t)op, (uint8_t)fn, (uint16_t)argc, arg};
    ps->sp += effect;
    if (ps->sp > ps->maxsp) ps->maxsp = ps->sp;
    if (ps->maxsp > JT_STACK_MAX) fail(ps, "too many values at once (the limit is 1024)%s", "");
    return b->ncode++;
}

static void emit_const(parser *ps, double k)
{
    jt_builder *b = ps->b;
    if (jt_grow((void **)&b->consts, &b->capconsts, b->nconsts + 1, sizeof *b->consts) < 0) {
        fail(ps, "out of memory%s", "");
        return;
    }
    b->consts[b->nconsts] = k;
    emit(ps, X_CONST, 0, 0, b->nconsts++, 1);
}

static int peek2(parser *ps, const char *op)
{
    size_t n = strlen(op);
    return (size_t)(ps->end - ps->at) >= n && !memcmp(ps->at, op, n);
}

static int name_start(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '$'; }
static int name_char(char c) { return name_start(c) || (c >= '0' && c <= '9'); }

static void parse_or(parser *ps);
static void parse_unary(parser *ps);
static int deeper(parser *ps);

static void use_name(parser *ps, int32_t idx)
{
    jt_builder *b = ps->b;
    int32_t old = b->capmark;
    if (jt_grow((void **)&b->usedmark, &b->capmark, b->names.n, 1) < 0) { fail(ps, "out of memory%s", ""); return; }
    if (b->capmark > old) memset(b->usedmark + old, 0, (size_t)(b->capmark - old));
    if (idx < b->capmark && b->usedmark[idx]) return;
    if (jt_grow((void **)&b->used, &b->capused, b->nused + 1, sizeof *b->used) < 0) { fail(ps, "out of memory%s", ""); return; }
    b->usedmark[idx] = 1;
    b->used[b->nused++] = idx;
}

static void parse_atom(parser *ps)
{
    skip_ws(ps);
    if (ps->failed) return;
    if (ps->at >= ps->end) { fail(ps, "the formula ends too soon%s", ""); return; }
    char c = *ps->at;
    if ((c >= '0' && c <= '9') || (c == '.' && ps->at + 1 < ps->end && ps->at[1] >= '0' && ps->at[1] <= '9')) {
        const char *q = ps->at;
        while (q < ps->end && *q >= '0' && *q <= '9') q++;
        if (q < ps->end && *q == '.') {
            q++;
            while (q < ps->end && *q >= '0' && *q <= '9') q++;
        }
        if (q < ps->end && (*q == 'e' || *q == 'E')) {
            const char *e = q + 1;
            if (e < ps->end && (*e == '+' || *e == '-')) e++;
            if (e < ps->end && *e >= '0' && *e <= '9') {
                while (e < ps->end && *e >= '0' && *e <= '9') e++;
                q = e;
            }
        }
        size_t n = (size_t)(q - ps->at);
        char buf[64];
        char *tmp = n < sizeof buf ? buf : malloc(n + 1);
        if (!tmp) { fail(ps, "out of memory%s", ""); return; }
        memcpy(tmp, ps->at, n);
        tmp[n] = 0;
        double v = strtod(tmp, NULL);
        if (tmp != buf) free(tmp);
        ps->at = q;
        if (ps->at < ps->end && name_char(*ps->at)) { fail(ps, "unexpected \"%s\" at %d", ps->at); return; }
        emit_const(ps, v);
        return;
    }
    if (name_start(c)) {
        const char *q = ps->at;
        while (q < ps->end && name_char(*q)) q++;
        size_t n = (size_t)(q - ps->at);
        char buf[64];
        char *name = n < sizeof buf ? buf : malloc(n + 1);
        if (!name) { fail(ps, "out of memory%s", ""); return; }
        memcpy(name, ps->at, n);
        name[n] = 0;
        const char *start = ps->at;
        ps->at = q;
        skip_ws(ps);
        if (ps->at < ps->end && *ps->at == '(') {  /* a call: the function is looked up as an own name */
            int fn = -1;
            for (int i = 0; i < F_COUNT; i++)
                if (!strcmp(FUNCS[i].name, name)) fn = i;
            if (fn < 0) {
                ps->at = start;
                fail(ps, "unknown function \"%s\" at %d", name);
                if (name != buf) free(name);
                return;
            }
            if (name != buf) free(name);
            ps->at++;
            if (!deeper(ps)) return;
            int argc = 0;
            skip_ws(ps);
            if (ps->at < ps->end && *ps->at == ')') {
                ps->at++;
            } else {
                for (;;) {
                    parse_or(ps);
                    if (ps->failed) return;
                    argc++;
                    skip_ws(ps);
                    if (ps->at < ps->end && *ps->at == ',') { ps->at++; continue; }
                    if (ps->at < ps->end && *ps->at == ')') { ps->at++; break; }
                    fail(ps, "expected \",\" or \")\" at %2$d%1$s", "");
                    return;
                }
            }
            ps->depth--;
            if (argc < FUNCS[fn].minargs || argc > FUNCS[fn].maxargs || (fn == F_SMOOTHSTEP && argc == 2)) {
                fail(ps, "%s() is given the wrong number of arguments (at %d)", FUNCS[fn].name);
                return;
            }
            emit(ps, X_CALL, fn, argc, 0, 1 - argc);
            return;
        }
        int op = -1;
        double k = 0;
        if (!strcmp(name, "tau")) op = X_TAU;
        else if (!strcmp(name, "local")) op = X_LOCAL;
        else if (!strcmp(name, "t")) op = X_T;
        else if (!strcmp(name, "dur")) op = X_DUR, ps->uses |= JT_USE_DUR;
        else if (!strcmp(name, "loud")) op = X_LOUD, ps->uses |= JT_USE_INPUT;
        else if (!strcmp(name, "talking")) op = X_TALKING, ps->uses |= JT_USE_INPUT;
        else if (!strcmp(name, "random")) op = X_RANDOM, ps->uses |= JT_USE_RANDOM;
        else if (!strcmp(name, "pi")) op = X_CONST, k = JT_PI;
        else if (!strcmp(name, "e")) op = X_CONST, k = JT_E;
        if (op == X_CONST) {
            emit_const(ps, k);
        } else if (op >= 0) {
            emit(ps, op, 0, 0, 0, 1);
        } else {
            int32_t idx = jt_strtab_intern(&ps->b->names, name, NULL);
            if (idx < 0) fail(ps, "out of memory%s", "");
            else {
                use_name(ps, idx);
                emit(ps, X_NAME, 0, 0, idx, 1);
            }
        }
        if (name != buf) free(name);
        return;
    }
    if (c == '(') {
        ps->at++;
        if (!deeper(ps)) return;
        parse_or(ps);
        ps->depth--;
        skip_ws(ps);
        if (ps->failed) return;
        if (ps->at >= ps->end || *ps->at != ')') { fail(ps, "expected \")\" at %2$d%1$s", ""); return; }
        ps->at++;
        return;
    }
    fail(ps, "unexpected \"%s\" at %d", ps->at);
}

static void parse_power(parser *ps)  /* atom ('^' unary)?: right-assoc, the exponent may carry a sign */
{
    parse_atom(ps);
    skip_ws(ps);
    if (!ps->failed && ps->at < ps->end && *ps->at == '^') {
        ps->at++;
        if (!deeper(ps)) return;
        parse_unary(ps);
        ps->depth--;
        emit(ps, X_POW, 0, 0, 0, -1);
    }
}

static int deeper(parser *ps)
{
    if (++ps->depth <= JT_PARSE_DEPTH) return 1;
    fail(ps, "the formula is nested too deeply (at %2$d)%1$s", "");
    return 0;
}

static void parse_unary(parser *ps)
{
    skip_ws(ps);
    if (ps->at < ps->end && (*ps->at == '-' || *ps->at == '+' || (*ps->at == '!' && !peek2(ps, "!=")))) {
        char c = *ps->at++;
        if (!deeper(ps)) return;
        parse_unary(ps);
        ps->depth--;
        emit(ps, c == '-' ? X_NEG : c == '+' ? X_POS : X_NOT, 0, 0, 0, 0);
    } else {
        parse_power(ps);
    }
}

static void parse_mul(parser *ps)
{
    parse_unary(ps);
    for (;;) {
        skip_ws(ps);
        if (ps->failed || ps->at >= ps->end) return;
        char c = *ps->at;
        if (c != '*' && c != '/' && c != '%') return;
        ps->at++;
        parse_unary(ps);
        emit(ps, c == '*' ? X_MUL : c == '/' ? X_DIV : X_MOD, 0, 0, 0, -1);
    }
}

static void parse_add(parser *ps)
{
    parse_mul(ps);
    for (;;) {
        skip_ws(ps);
        if (ps->failed || ps->at >= ps->end) return;
        char c = *ps->at;
        if (c != '+' && c != '-') return;
        ps->at++;
        parse_mul(ps);
        emit(ps, c == '+' ? X_ADD : X_SUB, 0, 0, 0, -1);
    }
}

static void parse_cmp(parser *ps)  /* the six comparisons share one level, left-assoc */
{
    parse_add(ps);
    for (;;) {
        skip_ws(ps);
        if (ps->failed) return;
        int op;
        if (peek2(ps, "==")) op = X_EQ, ps->at += 2;
        else if (peek2(ps, "!=")) op = X_NE, ps->at += 2;
        else if (peek2(ps, "<=")) op = X_LE, ps->at += 2;
        else if (peek2(ps, ">=")) op = X_GE, ps->at += 2;
        else if (peek2(ps, "<")) op = X_LT, ps->at += 1;
        else if (peek2(ps, ">")) op = X_GT, ps->at += 1;
        else return;
        parse_add(ps);
        emit(ps, op, 0, 0, 0, -1);
    }
}

static void parse_and(parser *ps)
{
    parse_cmp(ps);
    for (;;) {
        skip_ws(ps);
        if (ps->failed || !peek2(ps, "&&")) return;
        ps->at += 2;
        int j = emit(ps, X_AND, 0, 0, 0, -1);
        parse_cmp(ps);
        emit(ps, X_TRUTH, 0, 0, 0, 0);
        if (j >= 0) ps->b->code[j].arg = ps->b->ncode - ps->start;
    }
}

static void parse_or(parser *ps)
{
    parse_and(ps);
    for (;;) {
        skip_ws(ps);
        if (ps->failed || !peek2(ps, "||")) break;
        ps->at += 2;
        int j = emit(ps, X_OR, 0, 0, 0, -1);
        parse_and(ps);
        emit(ps, X_TRUTH, 0, 0, 0, 0);
        if (j >= 0) ps->b->code[j].arg = ps->b->ncode - ps->start;
    }
}

int jt_expr_compile(jt_builder *b, const char *text, size_t len, char *msg, size_t cap)
{
    for (int32_t i = 0; i < b->nused; i++) b->usedmark[b->used[i]] = 0;
    b->nused = 0;
    int32_t start = b->ncode;
    parser ps = {b, text, text + len, text, 0, 0, 0, 0, msg, cap, 0, start};
    skip_ws(&ps);
    if (ps.at >= ps.end) {
        snprintf(msg, cap, "an empty formula");
        return -1;
    }
    parse_or(&ps);
    skip_ws(&ps);
    if (!ps.failed && ps.at < ps.end) fail(&ps, "unexpected \"%s\" at %d", ps.at);
    if (ps.failed) {
        b->ncode = start;
        return -1;
    }
    if (jt_grow((void **)&b->exprs, &b->capexprs, b->nexprs + 1, sizeof *b->exprs) < 0) {
        snprintf(msg, cap, "out of memory");
        return -1;
    }
    b->exprs[b->nexprs] = (jt_expr){start, b->ncode - start, ps.maxsp, ps.uses};
    return b->nexprs++;
}

int jt_expr_derive(jt_builder *b, int expr, const int *ops, const double *ks, int n)
{
    jt_expr x = b->exprs[expr];
    if (jt_grow((void **)&b->code, &b->capcode, b->ncode + x.len + n, sizeof *b->code) < 0 ||
        jt_grow((void **)&b->consts, &b->capconsts, b->nconsts + n, sizeof *b->consts) < 0 ||
        jt_grow((void **)&b->exprs, &b->capexprs, b->nexprs + 1, sizeof *b->exprs) < 0)
        return -1;
    int32_t start = b->ncode;
    memcpy(b->code + start, b->code + x.start, (size_t)x.len * sizeof *b->code);
    b->ncode += x.len;
    int depth = x.depth;
    for (int i = 0; i < n; i++) {
        int32_t arg = 0;
        if (ops[i] == X_CONST) {
            b->consts[b->nconsts] = ks[i];
            arg = b->nconsts++;
            if (depth < 2) depth = 2;
        }
        b->code[b->ncode++] = (jt_instr){(uint8_t)ops[i], 0, 0, arg};
    }
    b->exprs[b->nexprs] = (jt_expr){start, b->ncode - start, depth, x.uses};
    return b->nexprs++;
}

/* ---- the evaluator ---------------------------------------------------------- */

static int truthy(double x) { return x != 0 && !isnan(x); }

static double call(int fn, const double *a, int n)
{
    switch (fn) {
    case F_SIN: return sin(a[0]);
    case F_COS: return cos(a[0]);
    case F_TAN: return tan(a[0]);
    case F_ABS: return fabs(a[0]);
    case F_EXP: return exp(a[0]);
    case F_SQRT: return sqrt(a[0]);
    case F_FLOOR: return floor(a[0]);
    case F_CEIL: return ceil(a[0]);
    case F_ROUND: return floor(a[0] + 0.5);
    case F_SIGN: return isnan(a[0]) ? NAN : a[0] > 0 ? 1 : a[0] < 0 ? -1 : a[0];
    case F_POW: return jt_js_pow(a[0], a[1]);
    case F_MIN: {
        double r = INFINITY;
        for (int i = 0; i < n; i++) r = jt_js_min(r, a[i]);
        return r;
    }
    case F_MAX: {
        double r = -INFINITY;
        for (int i = 0; i < n; i++) r = jt_js_max(r, a[i]);
        return r;
    }
    case F_MOD: return jt_js_mod(a[0], a[1]);
    case F_CLAMP: return jt_js_min(jt_js_max(a[0], a[1]), a[2]);
    case F_SMOOTHSTEP: {
        double u = n == 1 ? a[0] : (a[2] - a[0]) / (a[1] - a[0]);
        u = jt_js_min(jt_js_max(u, 0), 1);
        return u * u * (3 - 2 * u);
    }
    case F_HOPAIR: return jt_hopair(a[0]);
    case F_LERP: return a[0] + (a[1] - a[0]) * a[2];
    case F_STEP: return a[1] < a[0] ? 0 : 1;
    }
    return NAN;
}

int jt_eval(const jt_program *p, int32_t expr, jt_env *env, double *out)
{
    const jt_expr *x = &p->exprs[expr];
    const jt_instr *code = p->code + x->start;
    double st[JT_STACK_MAX];
    int sp = 0;
    for (int32_t pc = 0; pc < x->len; pc++) {
        const jt_instr *in = &code[pc];
        switch (in->op) {
        case X_CONST: st[sp++] = p->consts[in->arg]; break;
        case X_NAME:
            if (env->name(env, in->arg, &st[sp]) < 0) {
                if (env->err) snprintf(env->err, env->errcap, "unknown name \"%s\"", p->names[in->arg]);
                return -1;
            }
            sp++;
            break;
        case X_TAU: st[sp++] = env->tau; break;
        case X_LOCAL: st[sp++] = env->local; break;
        case X_T: st[sp++] = env->now; break;
        case X_DUR: st[sp++] = env->dur; break;
        case X_LOUD:
        case X_TALKING:
            if (env->read_inputs) *env->read_inputs = 1;
            st[sp++] = in->op == X_LOUD ? env->loud : env->talking;
            break;
        case X_RANDOM:
            if (env->drew_random) *env->drew_random = 1;
            st[sp++] = ob_rng_next(env->rng);
            break;
        case X_NEG: st[sp - 1] = -st[sp - 1]; break;
        case X_POS: break;
        case X_NOT: st[sp - 1] = truthy(st[sp - 1]) ? 0 : 1; break;
        case X_TRUTH: st[sp - 1] = truthy(st[sp - 1]) ? 1 : 0; break;
        case X_AND:
            if (!truthy(st[sp - 1])) { st[sp - 1] = 0; pc = in->arg - 1; }
            else sp--;
            break;
        case X_OR:
            if (truthy(st[sp - 1])) { st[sp - 1] = 1; pc = in->arg - 1; }
            else sp--;
            break;
        case X_COUNTBACK:
            if (st[sp - 1] < 0) st[sp - 1] = env->dur + st[sp - 1];
            break;
        case X_CALL: {
            int n = in->argc;
            double r = call(in->fn, st + sp - n, n);
            sp -= n;
            st[sp++] = r;
            break;
        }
        default: {
            double b = st[--sp], a = st[sp - 1], r;
            switch (in->op) {
            case X_ADD: r = a + b; break;
            case X_SUB: r = a - b; break;
            case X_MUL: r = a * b; break;
            case X_DIV: r = a / b; break;
            case X_MOD: r = jt_js_mod(a, b); break;
            case X_POW: r = jt_js_pow(a, b); break;
            case X_EQ: r = a == b; break;
            case X_NE: r = a != b; break;
            case X_LT: r = a < b; break;
            case X_LE: r = a <= b; break;
            case X_GT: r = a > b; break;
            default: r = a >= b; break;
            }
            st[sp - 1] = r;
        }
        }
    }
    *out = sp > 0 ? st[sp - 1] : NAN;
    return 0;
}
