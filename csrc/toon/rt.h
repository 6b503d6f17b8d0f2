/* rt.h: the runtime's private state (runtime.c, motion.c, pose.c, director.c).
** Everything an instance needs is allocated when it starts (fixed pools);
** the event heap, the yield list and the pose scratch are reserved then
** too, so a step allocates nothing. */
#ifndef JT_RT_H
#define JT_RT_H

#include "toon.h"

/* A glide of one value: a ramp (§3), a reach weight or point (§8.4), a
** placement (§7.2).  Exactly b once T >= t0 + over. */
typedef struct jt_glide {
    double a, b, t0, over;
    uint8_t ease, moving;
} jt_glide;

static inline double jt_glide_at(const jt_glide *g, double T)
{
    if (!g->moving || T >= g->t0 + g->over) return g->b;
    return g->a + (g->b - g->a) * jt_ease(g->ease, (T - g->t0) / g->over);
}
void jt_glide_start(jt_glide *g, double a, double b, double t0, double over, int ease);

typedef struct jt_base {
    uint8_t state;     /* 0 never written, 1 written */
    jt_glide g;
    uint32_t serial;   /* a waiting thread's ramp is this one while it matches */
} jt_base;

#define JT_LIMBS 4     /* hand:-1 hand:1 foot:-1 foot:1 */
typedef struct jt_limb {
    uint8_t set, has_target, point, spot;
    uint64_t seq;      /* the write order: the latest reach/release wins */
    jt_glide w, x, y;  /* a point's x, y or a spot's dx, dy */
    uint32_t serial;
} jt_limb;

struct jt_instance;
struct jt_character;

typedef struct jt_motion {
    /* §8.3 follow: what a tick touches first, together */
    double y, v, u, w2, den, t0;
    int64_t k;
    int32_t src, src_kind;
    struct jt_character *chr;
    uint8_t src_dirty;            /* the character's writers changed: find them again */
    int8_t nsrc_base, nsrc_mot;   /* -1: more than fit, scan them all */
    uint8_t src_at[4];
    const jt_base *src_base[4];
    struct jt_motion *src_mot[4];
    const jt_block *blk;
    struct jt_instance *inst;
    uint64_t scope;
    uint64_t order;    /* start order */
    uint32_t serial;   /* changes at each start and stop (tick events check it) */
    uint8_t live, ticking;
    double tl0;        /* the clock's origin (sync local: t0, the start time; start: the instance's start) */
    double w, phase, pow, decay, every, hz, lag, falloff;  /* fixed when the motion starts */
    int32_t nch;
    int32_t *ch;       /* runtime channels written */
    int32_t fidx;      /* its place in the runtime's follower list (-1: none) */
    /* the values at one time, reused by the followers that read this motion at that tick */
    uint8_t cached;
    uint32_t cache_epoch;
    double cache_t;
    double cache_v[16];
} jt_motion;

enum { FR_SEQ, FR_LOOP, FR_FOR, FR_TOGETHER };

typedef struct jt_frame {
    const jt_body *body;
    int32_t pc;
    const jt_block *blk;
    uint8_t kind, polled;
    double iter_start, i, count;
    uint64_t scope;    /* the scope blocks in this frame start motions in */
    uint32_t serial;   /* FR_FOR: matches its deadline event */
    double deadline;   /* FR_FOR: its end (Infinity: none queued) */
    uint8_t opened;    /* this frame opened its scope */
} jt_frame;

enum { TH_FREE, TH_RUN, TH_WAIT, TH_POLL, TH_JOIN, TH_HOLD };

typedef struct jt_owned {
    uint8_t limb;      /* 0 a base slot, 1 a limb, 2 a director glide */
    int32_t slot;
    uint32_t serial;
} jt_owned;

typedef struct jt_thread {
    struct jt_instance *inst;
    struct jt_thread *parent;
    int32_t script;
    uint8_t status, spawning;
    uint32_t gen;      /* changes whenever a pending wake becomes stale */
    int32_t depth, cap;
    jt_frame *frames;
    int32_t children;
    uint64_t base_scope;
    int32_t nowned;
    jt_owned *owned;
    int32_t yield_at;  /* index in the yield list while TH_POLL */
} jt_thread;

typedef struct jt_instance {
    struct jt_runtime *rt;
    struct jt_character *chr;   /* NULL: the director (§7) */
    const jt_program *prog;
    const int32_t *chmap;       /* program channel -> runtime channel */
    int32_t nrev;
    int32_t *rev;               /* runtime channel -> program channel (-1) */
    uint64_t id;
    double t_start, dur;
    int alive;
    int32_t nparams;
    const char **pname;
    double *pval;
    uint8_t *pset;
    int32_t *bind_param, *bind_var, *bind_global;  /* per program name */
    double *vval;
    uint8_t *vset;
    jt_base *base;              /* per program channel */
    const char *mood;
    uint64_t mood_seq;
    int view;
    uint64_t view_seq;
    jt_limb limb[JT_LIMBS];
    jt_motion *mot;
    int32_t *motch;
    jt_thread *thr;
    int32_t nthr;
    int32_t *script_off;        /* per script: its first thread */
    jt_frame *frames;
    jt_owned *owned;
    uint32_t serial;
    void *director;             /* director.c's state for a scene/cartoon instance */
    uint64_t root_scope;        /* the scope its scripts' top level starts motions/items in */
    double mood_t;              /* when mood was written (§7.4: at equal times the scene's wins) */
    int32_t nreserve;           /* what it reserved in the runtime's heap */
    struct { int32_t np, nn, nvars, nch, nmot, nmotch, nthr, nframes, nowned, nscripts; } cap;  /* array sizes */
    int32_t *motcap;            /* per motion: its channel capacity */
} jt_instance;

typedef struct jt_character {
    char *id;
    int32_t index;
    int legs;
    double loud, talking;
    int32_t ninst, capinst;
    jt_instance **inst;         /* start order */
    int32_t nmot, capmot;
    jt_motion **mot;            /* live motions, start order */
    void *stage;                /* director.c: placement */

} jt_character;

enum { EV_WAKE, EV_DEADLINE, EV_TICK, EV_TIMER };

typedef struct jt_event {
    double t;
    uint64_t seq;
    uint8_t cls, kind;
    uint32_t gen;
    void *ptr;
    jt_instance *inst;
    int32_t aux;
} jt_event;

typedef struct jt_bind {
    const jt_program *p;
    int32_t *map;
} jt_bind;

enum { R_CONTINUE, R_YIELD, R_DONE, R_KILLED, R_ERR };

struct jt_runtime {
    jt_runtime_def def;
    double t;
    double now;                 /* the time of the event being run */
    uint32_t rng, drng;         /* random: the behaviours' and the director's streams (§7.1) */
    uint64_t seq, order, wseq, scope_next, inst_next;
    uint32_t serial;
    jt_event *ev;
    int32_t nev, capev, reserve;
    jt_thread **yield;
    int32_t nyield, capyield, nthreads_total;
    jt_character **chars;
    int32_t nchars, capchars;
    jt_strtab charids;
    jt_strtab chtab;
    jt_part *chparts;
    int32_t capchparts;
    int32_t gait2[8], gait4[10], gait6[14];
    jt_bind *binds;
    int32_t nbinds, capbinds;
    jt_instance *spare[8];      /* stopped instances kept for reuse: a does loop allocates nothing */
    int32_t nspare;
    jt_strtab gnames;
    double *gval;
    uint8_t *gset;
    int32_t capg;
    int polled, inputs_read, pose_random;
    char err[600];
    /* the pose's scratch, one entry per runtime channel */
    double *acc;
    uint32_t *mark;
    uint32_t markgen;
    int32_t *plist;
    double *pval;
    int32_t capscratch;
    int32_t ninsts, capinsts;
    jt_instance **insts;        /* every live instance */
    jt_instance **hat_ins;      /* emit's scratch: (instance, script) pairs, one per live script */
    int32_t *hat_scripts;
    int32_t caphat, nscripts_live;
    /* §8.3 the follow grid: while no source draws random, every follower's ticks between two
    ** block events run follower by follower (the same bits: a tick reads only sources,
    ** which only block events change); else (exact_ticks) each tick is a heap event. */
    jt_motion **fmot;
    double *fnext;
    int32_t nfol, capfol, folreserve;
    int exact_ticks;
    uint32_t epoch;             /* bumps when inputs or page globals change: motion caches expire */
    struct jt_director *dir;    /* director.c: the cartoon running, or the last one */
    char **warnings;            /* rt.warnings */
    int32_t nwarnings, capwarnings;
    jt_strtab speech_keys;      /* §7.4 the provider's answers, per line and options */
    double *speech_s;
    int32_t capspeech;
    int twin;                   /* the plan's twin runtime (§7.7) */
};

/* runtime.c */
jt_status jt_fail(jt_runtime *rt, jt_status st, const char *fmt, ...);
void jt_make_env(jt_runtime *rt, jt_instance *in, const jt_motion *m, double now, int from_pose, jt_env *env);
int jt_inst_eval(jt_runtime *rt, jt_instance *in, const jt_motion *m, const jt_block *b, const jt_value *v,
                 double now, int from_pose, double *out);
int jt_push_event(jt_runtime *rt, double t, int cls, int kind, void *ptr, jt_instance *in, uint32_t gen,
                  int32_t aux, uint64_t seq);
int jt_reserve(jt_runtime *rt, int32_t more_events, int32_t more_threads);
double jt_base_value(const jt_instance *in, int32_t pch, double T);
void jt_stop_motion(jt_motion *m);
void jt_close_scope(jt_instance *in, uint64_t scope);
void jt_spares_free(jt_runtime *rt);
jt_instance *jt_instance_new(jt_runtime *rt, jt_character *chr, const jt_program *p, double dur,
                             const jt_param *params, int nparams);
void jt_instance_stop(jt_runtime *rt, jt_instance *in);
int jt_run_scripts(jt_runtime *rt, jt_instance **ins, const int32_t *scripts, int n, double now);
int jt_run_due(jt_runtime *rt, double T);
void jt_kill_thread(jt_runtime *rt, jt_thread *th, double now);
int32_t jt_rt_channel(jt_runtime *rt, const jt_part *p);

/* motion.c */
/* The character's writers changed (a motion started or stopped, an instance came or went, a
** base channel was written the first time): its followers find their sources' writers again. */
void jt_writers_changed(struct jt_character *c);
int jt_motion_start(jt_runtime *rt, jt_instance *in, const jt_block *b, uint64_t scope, double now);
int jt_motion_values(jt_runtime *rt, jt_motion *m, double T, int from_pose, double *out);
int jt_follow_tick(jt_runtime *rt, jt_motion *m, double T);
int jt_follow_run(jt_runtime *rt, double lim, int incl);
int jt_follow_exact(jt_runtime *rt);
int jt_channel_value(jt_runtime *rt, jt_character *c, int32_t ch, double T, double *out);

/* Starts an instance of a behaviour on c now: pools, params, start-hat scripts run, then the events
** due now when run_due.  Returns the instance id (0 with rt->err: JT_ERR_RUN a param default or a
** start script failed, memory). *skipped is set when the instance could not even be created. */
uint64_t jt_start_instance(jt_runtime *rt, jt_character *c, const jt_program *p, double dur, const jt_param *params,
                           int nparams, int run_due, int *skipped);
jt_instance *jt_find_instance(jt_runtime *rt, uint64_t id);
jt_character *jt_find_char(jt_runtime *rt, const char *id);
int jt_attach(jt_runtime *rt, jt_instance *in);
void jt_fire_hats(jt_runtime *rt, jt_character *only, int hat, const char *key, const char *name, double now, int *err);
int jt_thread_held(const jt_thread *th);
int jt_thread_wait(jt_runtime *rt, jt_thread *th, double t);
void jt_thread_own(jt_thread *th, int kind, int32_t slot, uint32_t serial);
uint64_t jt_thread_scope(const jt_thread *th);

/* pose.c */
int jt_limb_winner(jt_character *c, int li, jt_instance **who);

#endif
