/* jsnum.h: JavaScript number semantics in C (runtime spec §12, §8.9, §2).
**
** ECMAScript formats numbers in ways C's printf does not: toFixed/toPrecision
** round exact decimal ties up (printf rounds them to even), and String(number)
** is the shortest round-trip form with its own exponent thresholds.  Every
** function here writes a NUL-terminated string into buf (cap bytes, cap >= 32
** is always enough except for toFixed of huge digit counts: use OB_JSNUM_CAP)
** and returns its length, or -1 when cap is too small.
*/
#ifndef OB_JSNUM_H
#define OB_JSNUM_H

#include <stddef.h>

#define OB_JSNUM_CAP 512  /* enough for every function below, digits <= 100 */

/* String(v) / Number.prototype.toString(): shortest round-trip form, "1e+21",
** "1e-7", "0.1", "-0" is written "0", "NaN", "Infinity", "-Infinity". */
int ob_js_to_string(double v, char *buf, size_t cap);

/* v.toFixed(digits), 0 <= digits <= 100: exact decimal ties round up (away
** from zero in magnitude); |v| >= 1e21 gives String(v). */
int ob_js_to_fixed(double v, int digits, char *buf, size_t cap);

/* v.toPrecision(p), 1 <= p <= 100: exact decimal ties round up. */
int ob_js_to_precision(double v, int p, char *buf, size_t cap);

/* Number(Math.fround(f).toPrecision(7)): §2 binary float32 decoding. */
double ob_js_f32_round7(float f);
/* The same through toPrecision's text and strtod (the slow reference). */
double ob_js_f32_round7_text(float f);

/* Math.round(v * 1e4) / 1e4 with -0 -> 0: the conformance sample rounding. */
double ob_js_round4(double v);

/* §8.9 formatNumber(v, pattern). */
int ob_format_number(double v, const char *pattern, char *buf, size_t cap);

/* §8.9 template values: what lookup(name) found. */
typedef enum ob_tvalue_kind {
    OB_TVALUE_MISSING = 0,  /* unknown name: the {...} stays as written */
    OB_TVALUE_NUMBER,
    OB_TVALUE_BOOL,
    OB_TVALUE_STRING
} ob_tvalue_kind;

typedef struct ob_tvalue {
    ob_tvalue_kind kind;
    double number;
    int boolean;
    const char *string;  /* UTF-8, owned by the caller of the lookup */
} ob_tvalue;

/* Looks a (trimmed) name up; name is NUL-terminated. */
typedef ob_tvalue (*ob_template_lookup)(void *ud, const char *name);

/* §8.9 formatTemplate(text, lookup).  Output is truncated to cap - 1 bytes
** (at a UTF-8 boundary); returns the full length the result would need, so a
** caller can grow its buffer and call again. */
size_t ob_format_template(const char *text, ob_template_lookup lookup, void *ud,
                          char *buf, size_t cap);

#endif
