/* load.h: the loader's state, shared by load.c (§1–§5, §8 blocks) and
** load_scene.c (§7 scene blocks, cast, places). */
#ifndef JT_LOAD_H
#define JT_LOAD_H

#include <cjson/cJSON.h>

#include "toon.h"

typedef struct bvec {
    jt_block *v;
    int32_t n, cap;
} bvec;

typedef struct loader {
    jt_builder b;
    jt_program *p;
    jt_diags *d;
    int kind;                 /* 0 behaviour, 1 scene, 2 cartoon */
    char *path;
    size_t plen, pcap;
    jt_strtab chtab;
    jt_chan *chans;
    int32_t capchans;
    jt_strtab vartab;         /* declared vars, then setVar/changeVar targets */
    double *varinit;
    int32_t capvar;
    int ndeclared;
    jt_strtab paramtab;
    jt_param_def *params;
    int32_t nparams, capparams;
    const char **paths;
    int32_t npaths, cappaths;
    int nmotions, maxglides, nblocks;
    int quiet;                /* derived values: no name warnings */
    int oom;
    int cur_script;
    int held;                 /* unused */
    int cur_scene;            /* the scene of the script being compiled (§7) */
    int nscenes, capscenes;
    jt_scene_def *scenes;
    int32_t *scene_hat_path;  /* the first hat of each scene (for messages) */
} loader;

/* paths: push returns the old length; pop restores it */
size_t jt_path_push(loader *L, const char *fmt, ...);
void jt_path_pop(loader *L, size_t mark);
void jt_err(loader *L, const char *field, const char *fmt, ...);
void jt_warn(loader *L, const char *field, const char *fmt, ...);
int32_t jt_path_here(loader *L);

/* a value field: 1 present, 0 absent (out = dflt), -1 invalid (reported) */
int jt_val(loader *L, const cJSON *b, const char *field, double dflt, jt_value *out);
int jt_val_node(loader *L, const cJSON *v, const char *field, double dflt, jt_value *out);
/* a string field: NULL when absent (or not a string: an error when must) */
const char *jt_str(loader *L, const cJSON *b, const char *field, int must);
char *jt_strdup(loader *L, const char *s);
void *jt_alloc(loader *L, size_t n);
jt_block *jt_push(loader *L, bvec *out, const jt_block *b);
/* a body (a list of blocks); *threads / *depth as for scripts */
int jt_load_body(loader *L, const cJSON *arr, const char *field, jt_body *out, int *threads, int *depth);

/* load.c's helpers for load_scene.c */
void jt_show(const cJSON *v, char *buf, size_t cap);
int jt_absent(const cJSON *v);
int jt_enum(loader *L, const cJSON *b, const char *field, const char *const *names, int n, int dflt);
int jt_written(const cJSON *b, const char *field, double *out);
jt_value *jt_vals(loader *L, int n);
jt_block jt_blank(loader *L, int op);
int jt_ease_of(loader *L, const cJSON *b);
/* a timed value in a scene that counts back from the scene's end (warned when it is not pinned) */
void jt_scene_countback(loader *L);

/* load_scene.c: a §7 scene block into out; 0 handled, 1 not a scene op */
int jt_scene_block(loader *L, const char *op, const cJSON *b, bvec *out);
/* the cast and places of a scene or cartoon (§7.1) */
void jt_scene_program(loader *L, const cJSON *root);
/* a scene or cartoon script's hat (§7.1) */
void jt_scene_hat(loader *L, const cJSON *hat, jt_script *s);
void jt_scene_finish(loader *L);

#endif
