/* fuzz_toon_expr.c: libFuzzer harness for the §5 expression compiler and its
** evaluator (csrc/toon/expr.c): bytes -> jt_expr_compile -> jt_eval with every
** name defined (a name's value is its index).  Bad formulas must only ever give
** a message; a compiled one must evaluate within its stack. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "toon/toon.h"

static int name_value(jt_env *e, int32_t idx, double *out)
{
    (void)e;
    *out = idx % 3 == 2 ? NAN : idx;
    return idx % 5 == 4 ? -1 : 0;  /* every fifth name is unknown at run time */
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    jt_builder b;
    memset(&b, 0, sizeof b);
    char msg[256];
    int e = jt_expr_compile(&b, (const char *)data, size, msg, sizeof msg);
    if (e >= 0) {
        jt_program p;
        memset(&p, 0, sizeof p);
        p.code = b.code;
        p.ncode = b.ncode;
        p.consts = b.consts;
        p.exprs = b.exprs;
        p.nexprs = b.nexprs;
        p.names = (const char **)b.names.keys;
        p.nnames = b.names.n;
        uint32_t rng = 1;
        int drew = 0, read = 0;
        char err[128];
        jt_env env = {1.5, 0.75, 0.25, INFINITY, 0.5, 1, &rng, &drew, &read, name_value, NULL, &p, err, sizeof err};
        double out;
        jt_eval(&p, e, &env, &out);
        if (b.exprs[e].depth > JT_STACK_MAX) abort();
    }
    free(b.code);
    free(b.consts);
    free(b.exprs);
    jt_strtab_free(&b.names);
    free(b.used);
    free(b.usedmark);
    return 0;
}
