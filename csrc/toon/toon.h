/* toon.h: the Jabbertoon runtime's private structures (csrc/toon/).
**
** A program is compiled into plain arrays in one arena: blocks (primitive
** ops only, friendly blocks desugared), bodies (runs of blocks), values
** (a number or an expression index), expressions (bytecode), channels and
** names by index.  A runtime binds a program's channels and names to its own
** indices once per program, and every instance gets fixed-size pools
** (threads, frames, motion slots, base slots) when it starts, so a step
** never allocates.  Section numbers refer to the Jabbertoon text.
** Behaviour reference: the text describes the JS engine (engine/runtime.js,
** engine/desugar.js, validate.js); no code of it is used here.
*/
#ifndef JT_TOON_H
#define JT_TOON_H

#include <stddef.h>
#include <stdint.h>

#include "../arena.h"
#include "../include/jabbertoon.h"

#define JT_STACK_MAX 1024   /* evaluation stack of one expression */
#define JT_PARSE_DEPTH 256  /* nesting of one expression: parentheses, unary signs, exponents */
#define FOLLOW_RATE 240     /* §8.3 */
#define JT_PI 3.141592653589793   /* Math.PI */
#define JT_E 2.718281828459045    /* Math.E */

/* ---- expressions (§5, expr.c) ------------------------------------------ */

enum jt_xop {
    X_CONST, X_NAME, X_TAU, X_LOCAL, X_T, X_DUR, X_LOUD, X_TALKING, X_RANDOM,
    X_NEG, X_POS, X_NOT, X_ADD, X_SUB, X_MUL, X_DIV, X_MOD, X_POW,
    X_EQ, X_NE, X_LT, X_LE, X_GT, X_GE,
    X_AND, X_OR,   /* arg: jump target; short-circuit (§5) */
    X_TRUTH,       /* x -> 1/0 */
    X_CALL,        /* arg: function, argc */
    X_COUNTBACK    /* x < 0 ? dur + x : x (window, §4) */
};

enum jt_fn {
    F_SIN, F_COS, F_TAN, F_ABS, F_EXP, F_SQRT, F_FLOOR, F_CEIL, F_ROUND, F_SIGN, F_POW, F_MIN, F_MAX,
    F_MOD, F_CLAMP, F_SMOOTHSTEP, F_HOPAIR, F_LERP, F_STEP, F_COUNT
};

typedef struct jt_instr {
    uint8_t op;
    uint8_t fn;
    uint16_t argc;
    int32_t arg;   /* constant index, name index or jump target */
} jt_instr;

typedef struct jt_expr {
    int32_t start, len;  /* into program code */
    int32_t depth;       /* stack needed */
    uint32_t uses;       /* JT_USE_* bits */
} jt_expr;

#define JT_USE_RANDOM 1u
#define JT_USE_INPUT 2u
#define JT_USE_DUR 4u

/* A value: a number, or expression expr (>= 0). */
typedef struct jt_value {
    double k;
    int32_t expr;
} jt_value;

/* ---- channels (§2, parts.c) --------------------------------------------- */

enum jt_chkind { CH_DX, CH_DY, CH_SX, CH_SY, CH_ROT, CH_MOUTH, CH_BLINK, CH_MOOD, CH_PART, CH_LIFT };
#define JT_FIXED_CHANNELS 8

enum jt_combine { COMB_ADD, COMB_MUL, COMB_MAX };

/* A parsed channel or part name. */
typedef struct jt_part {
    int kind;          /* CH_* */
    char role[24];     /* part/lift only */
    int side;          /* -1, 0, 1 */
    int index;         /* -1 none */
} jt_part;

/* parts.c */
int jt_channel_parse(const char *s, jt_part *out);    /* 0 ok, -1 malformed */
int jt_channel_format(const jt_part *p, char *buf, size_t cap);
int jt_role_known(const char *role);       /* engine/parts.js ROLES */
int jt_role_undrawn(const char *role);     /* UNDRAWN_ROLES: neck */
int jt_role_paired(const char *role);
int jt_role_chain(const char *role);       /* CHAIN_SEGMENTS count, 0 when no chain */
int jt_role_leg(const char *role);         /* leg shin foot */
/* partChannel(name) for the friendly blocks (§4): channels, legacy names,
** words.  Returns 0 and fills out, or -1 (unknown part).  pair: a friendly
** pair (side-less paired role, or "front legs"). */
int jt_part_word(const char *name, jt_part *out);
int jt_combine_of(int kind);
double jt_rest_of(int kind);

/* ---- blocks (§3, §4, §8; load.c) ---------------------------------------- */

enum jt_op {
    /* motions: a motion slot each (block.slot) */
    OP_WAVE, OP_HOP, OP_GAIT, OP_DRIVE, OP_CHAIN, OP_FOLLOW,
    /* base values and skeleton state */
    OP_SET, OP_RAMP, OP_MOODSET, OP_REACH, OP_RELEASE, OP_VIEW,
    /* control */
    OP_WAIT, OP_FOR, OP_WHILE, OP_UNTIL, OP_REPEAT, OP_FOREVER, OP_IF, OP_TOGETHER,
    OP_STOP, OP_STOPALL, OP_SETVAR, OP_CHANGEVAR,
    /* scene blocks (§7, director.c) */
    OP_SAY, OP_DOES, OP_CAPTION, OP_CUT, OP_PLACE, OP_ENTER, OP_EXIT, OP_SMOOD,
    OP_COUNT
};
#define OP_IS_MOTION(op) ((op) <= OP_FOLLOW)

enum jt_ease { EASE_SMOOTH, EASE_LINEAR, EASE_IN, EASE_OUT, EASE_SNAPPY };
enum jt_shape { SH_SIN, SH_COS, SH_ABSSIN, SH_POSSIN, SH_DAMPSIN, SH_SQUARE, SH_SAW, SH_TRI };
enum jt_wkind { W_EVERY, W_W, W_HZ };

/* value positions */
enum { WV_AMP, WV_W, WV_PHASE, WV_OFFSET, WV_POW, WV_DECAY, WV_N };           /* wave */
enum { HV_HZ, HV_AMP, HV_N };                                                 /* hop */
enum { GV_EVERY, GV_STRIDE, GV_GIVE, GV_BEND, GV_ARMSWING, GV_BOB, GV_BASE, GV_ROLL, GV_N };
enum { CV_AMP, CV_W, CV_PHASE, CV_DECAY, CV_LAG, CV_FALLOFF, CV_N };          /* chain */
enum { FV_GAIN, FV_HZ, FV_DAMPING, FV_N };                                    /* follow */
enum { RV_X, RV_Y, RV_OVER, RV_N };  /* reach: x,y point or dx,dy offset; release: over */

#define BF_BY 1u        /* ramp by */
#define BF_UNTIL 2u     /* wait/for until */
#define BF_OFFSET 4u    /* wave offset / reach offset given */
#define BF_POW 8u       /* wave pow given */
#define BF_SYNC_START 16u
#define BF_POINT 32u    /* reach to a point */
#define BF_ALSO 64u     /* does also */
#define BF_HAS_A 128u   /* scene blocks: optional fields present */
#define BF_RANDOM 256u  /* a motion whose live values draw random (the follow grid then runs in exact order) */

typedef struct jt_block jt_block;
typedef struct jt_body {
    jt_block *items;
    int32_t n;
} jt_body;

struct jt_block {
    uint8_t op, ease, shape, wkind, clip;  /* clip: 0 none, 1 pos, 2 neg */
    uint32_t flags;
    int32_t slot;      /* motion slot; var index; segments (chain) */
    int32_t aux;       /* follow source channel; view; spot; reach limb mask; scene who */
    int32_t nch;
    int32_t *ch;       /* program channel indices */
    int32_t nval;
    jt_value *v;
    jt_body body, alt;
    int32_t nbranches;
    jt_body *branches;
    const char *str;   /* mood text, say/caption text, ... */
    const char *str2;
    int32_t path;      /* index into program paths: where the block came from */
    int32_t mask;      /* scene blocks: which optional fields were given (SM_*) */
    const char *who;   /* scene blocks: the cast id */
    const char *s3;    /* say: voice; does: the behaviour as written (JSON) */
    int32_t np;        /* does: the params given */
    const char **pnames;
    struct jt_program *sub;  /* does: an inline behaviour */
};

/* scene block fields given (block.mask) */
#define SM_MOOD 1
#define SM_VOICE 2
#define SM_SPEED 4
#define SM_PITCH 8
#define SM_FOR 16
#define SM_X 32
#define SM_Y 64
#define SM_H 128
#define SM_FACING 256
#define SM_PLACE 512
enum { SV_SPEED, SV_PITCH };                              /* say values */
enum { PV_X, PV_Y, PV_H, PV_FACING, PV_OVER, PV_N };      /* place / enter / exit values */
enum { SIDE_LEFT, SIDE_RIGHT, SIDE_TOP, SIDE_BOTTOM };

/* §7.1 a cast entry, a place, a scene */
typedef struct jt_cast {
    const char *id, *name, *voice, *role;   /* role: the entry written as a text */
    int legs;
    int at_mask;                            /* SM_X | SM_Y | SM_H | SM_FACING given in at */
    jt_value at[4];
    const char *pack_id, *pack_version;
    const char *json;                       /* the entry as written */
} jt_cast;

typedef struct jt_place {
    const char *name, *background, *grade;  /* background NULL: the name */
} jt_place;

typedef struct jt_scene_def {
    const char *name, *place, *mood;
    int has_at;
    jt_value at;
    int nscripts;
    int32_t *scripts;
    const char *at_json;                    /* at as written (scripts of one scene must agree) */
    int counts_back;                        /* some value counts back from its end (warned if unpinned) */
    int32_t countback_path;
} jt_scene_def;

enum jt_hat { HAT_START, HAT_TALK_START, HAT_TALK_END, HAT_KEY, HAT_CLICK, HAT_SCENE, HAT_BEAT, HAT_LOUD,
              HAT_EVERY, HAT_TOUCH, HAT_COUNT };

typedef struct jt_script {
    int hat;
    const char *key;     /* key hat: NULL = every key */
    const char *scene;   /* scene hat name (NULL none) */
    const char *place, *mood;
    int has_at;
    jt_value at;
    jt_body body;
    int32_t threads;     /* thread pool bound (1 + concurrent together branches) */
    int32_t depth;       /* frame stack bound */
    int32_t ctr;         /* director: scene index (§7) */
} jt_script;

typedef struct jt_chan {
    const char *name;
    jt_part part;
} jt_chan;

typedef struct jt_param_def {
    const char *name;
    jt_value value;
} jt_param_def;

struct jt_program {
    ob_arena arena;
    int kind;                  /* 0 behaviour, 1 scene, 2 cartoon */
    const char *name;
    int nscripts;
    jt_script *scripts;
    int nparams;
    jt_param_def *params;      /* in declaration order (JS key order) */
    int nvars;                 /* declared vars first, then setVar targets */
    int ndeclared_vars;
    const char **var_names;
    double *var_init;
    int nnames;                /* names the expressions use (not built-ins) */
    const char **names;
    int nexprs;
    jt_expr *exprs;
    jt_instr *code;
    int32_t ncode;
    double *consts;
    int nchannels;
    jt_chan *channels;
    int nmotions;              /* motion slots */
    int live_random;           /* some motion's live value draws random */
    int maxglides;             /* the most channels one ramp/reach glides */
    int nblocks;
    int npaths;
    const char **paths;
    struct jt_cast *cast;      /* §7 (director.c) */
    int ncast;
    struct jt_place *places;
    int nplaces;
    int nscenes;
    struct jt_scene_def *scenes;
    char *json;                /* the program JSON as given (to_text, packs) */
    int nsubs;
    struct jt_program **subs;  /* inline behaviours of does blocks (freed with the program) */
};

/* load.c helpers shared with director.c */
const char *jt_kind_name(int kind);

/* ---- utilities (util.c) --------------------------------------------------- */

/* A string -> index table (open addressing); strings are copied. */
typedef struct jt_strtab {
    char **keys;
    int32_t *slots;   /* hash slots: index + 1, 0 empty */
    int32_t n, cap, nslots;
} jt_strtab;
int32_t jt_strtab_find(const jt_strtab *t, const char *s);
/* find or add; -1 out of memory. *added set when new. */
int32_t jt_strtab_intern(jt_strtab *t, const char *s, int *added);
void jt_strtab_free(jt_strtab *t);

/* grow *arr (elements of size) to hold at least need; 0 or -1 */
int jt_grow(void **arr, int32_t *cap, int32_t need, size_t size);

struct jt_diags {
    int n, cap, nerrors;
    jt_diag *d;
};
int jt_diag_add(jt_diags *d, int error, const char *path, const char *fmt, ...);

/* JSON helpers: the last member named key (JSON.parse keeps the last). */
struct cJSON;
struct cJSON *jt_get(const struct cJSON *obj, const char *key);
/* JSON text of a node with every number's bits kept (cJSON_Print rounds some); malloc'd, NULL: no memory */
char *jt_json_print(const struct cJSON *v);
/* Object.entries order: array-index keys ascending, then the others as
** written, duplicates at the first position with the last value.  Fills
** keys/vals (caller frees both with free); returns the count or -1. */
int jt_entries(const struct cJSON *obj, const char ***keys, struct cJSON ***vals);

/* ---- expressions (expr.c) ------------------------------------------------ */

typedef struct jt_builder {
    jt_program *p;
    jt_instr *code;
    int32_t ncode, capcode;
    double *consts;
    int32_t nconsts, capconsts;
    jt_expr *exprs;
    int32_t nexprs, capexprs;
    jt_strtab names;       /* expression names that are not built-ins */
    int32_t *used;         /* names the last compiled expression used */
    int32_t nused, capused;
    uint8_t *usedmark;
    int32_t capmark;
    int in_scene;          /* §7: loud/talking read 0 in a scene */
} jt_builder;
/* Compiles formula text (after the '='); returns the expression index or -1
** with msg filled. */
int jt_expr_compile(jt_builder *b, const char *text, size_t len, char *msg, size_t cap);
/* A new expression: expr's code followed by n more instructions (ops[i],
** with ks[i] for X_CONST), e.g. "(x) / 3" is expr, CONST 3, DIV. */
int jt_expr_derive(jt_builder *b, int expr, const int *ops, const double *ks, int n);

/* What an expression reads (§5): filled by the runtime for each evaluation. */
typedef struct jt_env {
    double now, tau, local, dur, loud, talking;
    uint32_t *rng;          /* random: mulberry32 state */
    int *drew_random;       /* set to 1 when random is drawn (or NULL) */
    int *read_inputs;       /* set to 1 when loud/talking are read (or NULL) */
    /* a program name (params, vars, page globals); 0 or -1 unknown */
    int (*name)(struct jt_env *e, int32_t idx, double *out);
    void *ud;
    const jt_program *p;
    char *err;              /* message buffer for a failure */
    size_t errcap;
} jt_env;

/* Evaluates; returns 0, or -1 with env->err filled. */
int jt_eval(const jt_program *p, int32_t expr, jt_env *env, double *out);
/* A value: its number, or its expression evaluated. */
static inline int jt_value_eval(const jt_program *p, const jt_value *v, jt_env *env, double *out)
{
    if (v->expr < 0) { *out = v->k; return 0; }
    return jt_eval(p, v->expr, env, out);
}

double jt_js_mod(double a, double b);
double jt_js_pow(double a, double b);
double jt_js_max(double a, double b);
double jt_js_min(double a, double b);
double jt_js_to_number(const char *s);
double jt_hopair(double x);
double jt_ease(int ease, double u);
uint32_t jt_to_uint32(double v);

#endif
