/* load_scene.c: §7 scene and cartoon programs: the cast and places (§7.1),
** scene hats and the scene order, the scene blocks (§7.2-§7.5, fields as the
** clarifications give them) and their validation. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "load.h"

static const char *const SIDES[4] = {"left", "right", "top", "bottom"};

/* ---- the cast and places ------------------------------------------------------------------------ */

static int known(const char *k, const char *const *list, int n)
{
    for (int i = 0; i < n; i++)
        if (!strcmp(k, list[i])) return 1;
    return 0;
}

static char *json_of(loader *L, const cJSON *v)
{
    char *t = jt_json_print(v);
    char *c = t ? jt_strdup(L, t) : NULL;
    free(t);
    if (!t) L->oom = 1;
    return c;
}

/* placement values (§7.2): numbers checked as written, formulas when they run */
static void placement_checks(loader *L, const cJSON *b)
{
    double v;
    if (jt_written(b, "facing", &v) && v != 1 && v != -1) jt_err(L, "facing", "facing is 1 (right) or -1 (left)");
    if (jt_written(b, "h", &v) && !(v > 0)) jt_err(L, "h", "h (the height, a fraction of the stage) is more than 0");
    if (jt_written(b, "y", &v) && !(v >= 0 && v <= 1)) jt_warn(L, "y", "y outside 0..1 puts the feet out of frame");
}

static void look_checks(loader *L, const cJSON *look)
{
    static const char *const LOOK[] = {"template", "style", "shape", "colors", "stretch", "options", "facing"};
    static const char *const COLORS[] = {"body", "skin", "acc"};
    if (!cJSON_IsObject(look)) {
        jt_err(L, "look", "a look is an object {template, style, shape, colors, stretch, options, facing}");
        return;
    }
    size_t m = jt_path_push(L, "look");
    for (const cJSON *c = look->child; c; c = c->next) {
        if (!known(c->string, LOOK, 7)) jt_warn(L, c->string, "a renderer cannot use a look's %s", c->string);
        else if (!strcmp(c->string, "colors")) {
            if (!cJSON_IsObject(c)) {
                jt_warn(L, "colors", "colors is an object {body, skin, acc}");
                continue;
            }
            size_t m2 = jt_path_push(L, "colors");
            for (const cJSON *k = c->child; k; k = k->next)
                if (!known(k->string, COLORS, 3)) jt_warn(L, k->string, "a renderer cannot use the colour %s", k->string);
            jt_path_pop(L, m2);
        }
    }
    jt_path_pop(L, m);
}

static void cast_entry(loader *L, jt_cast *c, const char *id, const cJSON *e)
{
    static const char *const FIELDS[] = {"name", "legs", "at", "voice", "pack", "look", "note"};
    memset(c, 0, sizeof *c);
    c->id = jt_strdup(L, id);
    c->legs = 2;
    c->json = json_of(L, e);
    for (int i = 0; i < 4; i++) c->at[i] = (jt_value){0, -1};
    size_t m = jt_path_push(L, "%s", id);
    if (cJSON_IsString(e)) {
        c->role = jt_strdup(L, e->valuestring);
        jt_path_pop(L, m);
        return;
    }
    if (!cJSON_IsObject(e)) {
        jt_err(L, NULL, "a cast entry is a role description (a text) or {name, legs, at, voice, pack, look}");
        jt_path_pop(L, m);
        return;
    }
    for (const cJSON *k = e->child; k; k = k->next)
        if (!known(k->string, FIELDS, 7)) jt_warn(L, k->string, "a cast entry has no field %s", k->string);
    const char *s;
    if ((s = jt_str(L, e, "name", 0))) c->name = jt_strdup(L, s);
    if ((s = jt_str(L, e, "voice", 0))) c->voice = jt_strdup(L, s);
    const cJSON *legs = jt_get(e, "legs");
    if (!jt_absent(legs)) {
        if (!cJSON_IsNumber(legs) || legs->valuedouble != floor(legs->valuedouble) || legs->valuedouble < 0 ||
            legs->valuedouble > 1000)
            jt_err(L, "legs", "legs is a whole number 0-1000");
        else c->legs = (int)legs->valuedouble;
    }
    const cJSON *at = jt_get(e, "at");
    if (!jt_absent(at)) {
        if (!cJSON_IsObject(at)) jt_err(L, "at", "at is {x, y, h, facing}");
        else {
            static const char *const AT[4] = {"x", "y", "h", "facing"};
            size_t m2 = jt_path_push(L, "at");
            for (const cJSON *k = at->child; k; k = k->next)
                if (!known(k->string, AT, 4)) jt_warn(L, k->string, "a placement has no field %s", k->string);
            for (int i = 0; i < 4; i++)
                if (jt_val(L, at, AT[i], 0, &c->at[i]) > 0) c->at_mask |= SM_X << i;
            placement_checks(L, at);
            jt_path_pop(L, m2);
        }
    }
    const cJSON *pack = jt_get(e, "pack");
    if (!jt_absent(pack)) {  /* "c4c:char:sunny" | {id, version?} */
        if (cJSON_IsString(pack)) c->pack_id = jt_strdup(L, pack->valuestring);
        else if (cJSON_IsObject(pack) && cJSON_IsString(jt_get(pack, "id")) &&
                 (jt_absent(jt_get(pack, "version")) || cJSON_IsString(jt_get(pack, "version")))) {
            c->pack_id = jt_strdup(L, jt_get(pack, "id")->valuestring);
            if (cJSON_IsString(jt_get(pack, "version"))) c->pack_version = jt_strdup(L, jt_get(pack, "version")->valuestring);
        } else {
            jt_err(L, "pack", "a pack is a pack id or {id, version}");
        }
    }
    if (!jt_absent(jt_get(e, "look"))) look_checks(L, jt_get(e, "look"));
    jt_path_pop(L, m);
}

void jt_scene_program(loader *L, const cJSON *root)
{
    jt_program *p = L->p;
    const cJSON *cast = jt_get(root, "cast");
    if (jt_absent(cast)) {
        if (L->kind == 2) jt_err(L, "cast", "a cartoon needs a cast {id: entry}");
    } else if (!cJSON_IsObject(cast)) {
        jt_err(L, "cast", "the cast is an object {id: entry}");
    } else {
        const char **keys;
        cJSON **vs;
        int n = jt_entries(cast, &keys, &vs);
        if (n < 0) L->oom = 1;
        p->cast = jt_alloc(L, (size_t)(n > 0 ? n : 1) * sizeof *p->cast);
        size_t m = jt_path_push(L, "cast");
        for (int i = 0; i < n && p->cast; i++) cast_entry(L, &p->cast[i], keys[i], vs[i]);
        jt_path_pop(L, m);
        p->ncast = n > 0 && p->cast ? n : 0;
        free(keys);
        free(vs);
    }
    const cJSON *places = jt_get(root, "places");
    if (!jt_absent(places)) {
        if (!cJSON_IsObject(places)) {
            jt_err(L, "places", "places is an object {name: background | {background, grade}}");
            return;
        }
        const char **keys;
        cJSON **vs;
        int n = jt_entries(places, &keys, &vs);
        if (n < 0) L->oom = 1;
        p->places = jt_alloc(L, (size_t)(n > 0 ? n : 1) * sizeof *p->places);
        size_t m = jt_path_push(L, "places");
        for (int i = 0; i < n && p->places; i++) {
            jt_place *pl = &p->places[i];
            pl->name = jt_strdup(L, keys[i]);
            if (cJSON_IsString(vs[i])) {
                pl->background = jt_strdup(L, vs[i]->valuestring);
            } else if (cJSON_IsObject(vs[i])) {
                size_t m2 = jt_path_push(L, "%s", keys[i]);
                static const char *const F[2] = {"background", "grade"};
                for (const cJSON *k = vs[i]->child; k; k = k->next)
                    if (!known(k->string, F, 2)) jt_warn(L, k->string, "a place has no field %s", k->string);
                const char *s;
                if ((s = jt_str(L, vs[i], "background", 0))) pl->background = jt_strdup(L, s);
                if ((s = jt_str(L, vs[i], "grade", 0))) pl->grade = jt_strdup(L, s);
                jt_path_pop(L, m2);
            } else {
                jt_err(L, keys[i], "a place is a background name or {background, grade}");
            }
        }
        jt_path_pop(L, m);
        p->nplaces = n > 0 && p->places ? n : 0;
        free(keys);
        free(vs);
    }
}

/* ---- scene hats and the scene order ---------------------------------------------------------------- */

static int scene_named(loader *L, const char *name)
{
    for (int i = 0; i < L->nscenes; i++)
        if (!strcmp(L->scenes[i].name, name)) return i;
    if (jt_grow((void **)&L->scenes, &L->capscenes, L->nscenes + 1, sizeof *L->scenes) < 0) { L->oom = 1; return 0; }
    int32_t *hp = realloc(L->scene_hat_path, (size_t)L->capscenes * sizeof *hp);
    if (!hp) { L->oom = 1; return 0; }
    L->scene_hat_path = hp;
    jt_scene_def *s = &L->scenes[L->nscenes];
    memset(s, 0, sizeof *s);
    s->name = jt_strdup(L, name);
    s->at = (jt_value){0, -1};
    s->countback_path = -1;
    L->scene_hat_path[L->nscenes] = -1;
    return L->nscenes++;
}

/* two scripts of one scene must not disagree (one that does not say agrees) */
static void agree(loader *L, const char *field, const char **kept, const char *given, const char *scene)
{
    if (!given) return;
    if (!*kept) *kept = jt_strdup(L, given);
    else if (strcmp(*kept, given)) jt_err(L, field, "two scripts of scene \"%.60s\" disagree about its %s", scene, field);
}

void jt_scene_hat(loader *L, const cJSON *hat, jt_script *s)
{
    int cartoon = L->kind == 2;
    const char *name = NULL;
    if (!hat) {
        if (cartoon) jt_err(L, "hat", "a cartoon's scripts start with a scene hat {on: \"scene\", name}");
    } else if (s->hat != HAT_SCENE) {
        jt_err(L, "on", "a %s's scripts have %sa scene hat", jt_kind_name(L->kind), cartoon ? "" : "no hat or ");
    } else {
        name = jt_str(L, hat, "name", cartoon);
    }
    if (!name) name = L->kind == 1 && L->nscenes ? L->scenes[0].name : L->p->name ? L->p->name : "scene";
    if (L->kind == 1 && L->nscenes) name = L->scenes[0].name;  /* a scene program is exactly one scene */
    int k = scene_named(L, name);
    if (L->oom) return;
    jt_scene_def *sc = &L->scenes[k];
    s->ctr = k;
    s->scene = sc->name;
    L->cur_scene = k;
    if (!hat || s->hat != HAT_SCENE) return;
    const char *place = jt_str(L, hat, "place", 0), *mood = jt_str(L, hat, "mood", 0);
    jt_value at = {0, -1};
    int has_at = jt_val(L, hat, "at", 0, &at) > 0;
    if (L->scene_hat_path[k] < 0) L->scene_hat_path[k] = jt_path_here(L);  /* the scene's first hat */
    agree(L, "place", &sc->place, place, sc->name);
    agree(L, "mood", &sc->mood, mood, sc->name);
    if (has_at) {
        char *a = jt_json_print(jt_get(hat, "at"));
        const char *kept = sc->at_json;
        agree(L, "at", &kept, a, sc->name);
        if (!sc->at_json) {
            sc->at_json = kept;
            sc->has_at = 1;
            sc->at = at;
        }
        free(a);
    }
    s->place = sc->place;
    s->mood = sc->mood;
    s->has_at = sc->has_at;
    s->at = sc->at;
}

void jt_scene_countback(loader *L)
{
    if (L->cur_scene < 0 || L->cur_scene >= L->nscenes) return;
    jt_scene_def *sc = &L->scenes[L->cur_scene];
    if (!sc->counts_back) {
        sc->counts_back = 1;
        sc->countback_path = jt_path_here(L);
    }
}

void jt_scene_finish(loader *L)
{
    jt_program *p = L->p;
    p->nscenes = L->nscenes;
    p->scenes = jt_alloc(L, (size_t)(L->nscenes ? L->nscenes : 1) * sizeof *p->scenes);
    if (!p->scenes) return;
    for (int k = 0; k < L->nscenes; k++) {
        jt_scene_def *sc = &L->scenes[k];
        int n = 0;
        for (int s = 0; s < p->nscripts; s++) n += p->scripts[s].ctr == k;
        sc->scripts = jt_alloc(L, (size_t)(n ? n : 1) * sizeof *sc->scripts);
        if (!sc->scripts) return;
        for (int s = 0; s < p->nscripts; s++)
            if (p->scripts[s].ctr == k) sc->scripts[sc->nscripts++] = s;
        p->scenes[k] = *sc;
    }
    /* §7.1 counting back from an end that is not pinned never arrives */
    for (int k = 0; k < L->nscenes; k++) {
        int pinned = k + 1 < L->nscenes && L->scenes[k + 1].has_at;
        if (L->scenes[k].counts_back && !pinned) {
            const char *where = L->paths[L->scenes[k].countback_path];
            jt_diag_add(L->d, 0, where, "counts back from the end of scene \"%.60s\", which is not pinned (the next "
                        "scene has no at): it never arrives", L->scenes[k].name);
        }
    }
    /* §7.6 a scene pinned before an earlier pinned one */
    double last = -INFINITY;
    for (int k = 0; k < L->nscenes; k++) {
        const jt_scene_def *sc = &L->scenes[k];
        if (!sc->has_at || sc->at.expr >= 0) continue;
        if (sc->at.k < last) {
            char path[300];
            snprintf(path, sizeof path, "%s.at", L->scene_hat_path[k] >= 0 ? L->paths[L->scene_hat_path[k]] : "scripts");
            jt_diag_add(L->d, 0, path, "scene \"%.60s\" is pinned at %g s, before an earlier pinned scene (%g s)",
                        sc->name, sc->at.k, last);
        }
        last = sc->at.k > last ? sc->at.k : last;
    }
}

/* ---- scene blocks ------------------------------------------------------------------------------------- */

static const char *who(loader *L, const cJSON *b)
{
    const char *w = jt_str(L, b, "who", 1);
    if (!w) return NULL;
    if (L->p->ncast) {
        int found = 0;
        for (int i = 0; i < L->p->ncast && !found; i++) found = !strcmp(L->p->cast[i].id, w);
        if (!found) jt_err(L, "who", "\"%.60s\" is not in the cast", w);
    }
    return jt_strdup(L, w);
}

static void optional_text(loader *L, const cJSON *b, const char *field, const char **out, jt_block *k, int bit)
{
    const char *s = jt_str(L, b, field, 0);
    if (s) {
        *out = jt_strdup(L, s);
        k->mask |= bit;
    }
}

/* does {behaviour}: a pack id, {id, version}, or an inline behaviour program */
static void does_behaviour(loader *L, const cJSON *b, jt_block *k)
{
    const cJSON *bv = jt_get(b, "behaviour");
    if (jt_absent(bv)) {
        jt_err(L, "behaviour", "does needs a behaviour (a pack id, {id, version} or a behaviour program)");
        return;
    }
    k->s3 = json_of(L, bv);
    if (cJSON_IsString(bv)) {
        k->str = jt_strdup(L, bv->valuestring);
        return;
    }
    if (!cJSON_IsObject(bv)) {
        jt_err(L, "behaviour", "a behaviour is a pack id, {id, version} or a behaviour program");
        return;
    }
    if (jt_absent(jt_get(bv, "scripts")) && jt_absent(jt_get(bv, "kind"))) {  /* {id, version} */
        const cJSON *id = jt_get(bv, "id"), *ver = jt_get(bv, "version");
        if (!cJSON_IsString(id) || (!jt_absent(ver) && !cJSON_IsString(ver))) {
            jt_err(L, "behaviour", "a pack reference is {id, version}");
            return;
        }
        k->str = jt_strdup(L, id->valuestring);
        if (cJSON_IsString(ver)) k->str2 = jt_strdup(L, ver->valuestring);
        return;
    }
    /* an inline behaviour: validated and compiled here, its messages under this path */
    char *text = jt_json_print(bv);
    if (!text) { L->oom = 1; return; }
    jt_diags *d = NULL;
    jt_program *sub = jt_program_load(text, strlen(text), &d);
    free(text);
    size_t m = jt_path_push(L, "behaviour");
    for (int i = 0; i < jt_diags_count(d); i++) {
        const jt_diag *g = jt_diags_get(d, i);
        char full[800];
        snprintf(full, sizeof full, "%s.%s", L->path, g->message);
        jt_diag_add(L->d, g->error, "", "%s", full);
    }
    jt_diags_free(d);
    if (sub && sub->kind != 0) {
        jt_err(L, "kind", "does runs a behaviour, not a %s", jt_kind_name(sub->kind));
        jt_program_free(sub);
        sub = NULL;
    }
    jt_path_pop(L, m);
    k->sub = sub;
    if (sub) {  /* freed with the program: kept in its list of inline behaviours */
        jt_program **list = realloc(L->p->subs, (size_t)(L->p->nsubs + 1) * sizeof *list);
        if (!list) { jt_program_free(sub); k->sub = NULL; L->oom = 1; return; }
        L->p->subs = list;
        L->p->subs[L->p->nsubs++] = sub;
    }
}

static void does_params(loader *L, const cJSON *b, jt_block *k)
{
    const cJSON *pv = jt_get(b, "params");
    if (jt_absent(pv)) return;
    if (!cJSON_IsObject(pv)) {
        jt_err(L, "params", "params is an object {name: value}");
        return;
    }
    const char **keys;
    cJSON **vs;
    int n = jt_entries(pv, &keys, &vs);
    if (n < 0) { L->oom = 1; return; }
    jt_value *v = jt_vals(L, 1 + n);
    k->pnames = jt_alloc(L, (size_t)(n ? n : 1) * sizeof *k->pnames);
    if (v && k->pnames) {
        v[0] = k->v[0];
        k->v = v;
        k->nval = 1 + n;
        k->np = n;
        size_t m = jt_path_push(L, "params");
        for (int i = 0; i < n; i++) {
            k->pnames[i] = jt_strdup(L, keys[i]);
            if (jt_val_node(L, vs[i], keys[i], 0, &k->v[1 + i]) == 0) jt_err(L, keys[i], "a param is a number or a formula");
            if (k->sub) {  /* a param the inline behaviour does not declare: passed anyway (a warning) */
                int declared = 0;
                for (int q = 0; q < k->sub->nparams && !declared; q++) declared = !strcmp(k->sub->params[q].name, keys[i]);
                if (!declared) jt_warn(L, keys[i], "the behaviour does not declare a param %s (it is passed anyway)", keys[i]);
            }
        }
        jt_path_pop(L, m);
    }
    free(keys);
    free(vs);
}

int jt_scene_block(loader *L, const char *op, const cJSON *b, bvec *out)
{
    jt_block k;
    if (!strcmp(op, "say")) {
        k = jt_blank(L, OP_SAY);
        k.who = who(L, b);
        const char *text = jt_str(L, b, "text", 1);
        k.str = text ? jt_strdup(L, text) : "";  /* literal: a text starting with = is not a formula */
        optional_text(L, b, "mood", &k.str2, &k, SM_MOOD);
        optional_text(L, b, "voice", &k.s3, &k, SM_VOICE);
        k.nval = 2;
        k.v = jt_vals(L, 2);
        if (!k.v) return 0;
        if (jt_val(L, b, "speed", 1, &k.v[SV_SPEED]) > 0) k.mask |= SM_SPEED;
        if (jt_val(L, b, "pitch", 1, &k.v[SV_PITCH]) > 0) k.mask |= SM_PITCH;
    } else if (!strcmp(op, "does")) {
        k = jt_blank(L, OP_DOES);
        k.who = who(L, b);
        k.nval = 1;
        k.v = jt_vals(L, 1);
        if (!k.v) return 0;
        if (jt_val(L, b, "for", INFINITY, &k.v[0]) > 0) k.mask |= SM_FOR;
        does_behaviour(L, b, &k);
        does_params(L, b, &k);
        const cJSON *also = jt_get(b, "also");
        if (!jt_absent(also)) {
            if (!cJSON_IsBool(also)) jt_err(L, "also", "also is true or false");
            else if (cJSON_IsTrue(also)) k.flags |= BF_ALSO;
        }
    } else if (!strcmp(op, "caption")) {
        k = jt_blank(L, OP_CAPTION);
        const char *text = jt_str(L, b, "text", 1);
        k.str = text ? jt_strdup(L, text) : "";
        k.nval = 1;
        k.v = jt_vals(L, 1);
        if (!k.v) return 0;
        if (jt_val(L, b, "for", INFINITY, &k.v[0]) > 0) k.mask |= SM_FOR;
    } else if (!strcmp(op, "cut")) {
        k = jt_blank(L, OP_CUT);
        optional_text(L, b, "place", &k.str, &k, SM_PLACE);
        optional_text(L, b, "mood", &k.str2, &k, SM_MOOD);
        if (!k.mask) jt_err(L, NULL, "cut needs a place or a mood");
    } else if (!strcmp(op, "place") || !strcmp(op, "enter") || !strcmp(op, "exit")) {
        int o = op[0] == 'p' ? OP_PLACE : op[1] == 'n' ? OP_ENTER : OP_EXIT;
        k = jt_blank(L, o);
        k.who = who(L, b);
        k.nval = PV_N;
        k.v = jt_vals(L, PV_N);
        if (!k.v) return 0;
        static const char *const F[4] = {"x", "y", "h", "facing"};
        for (int i = 0; i < 4; i++) {
            if (o != OP_PLACE && i >= 2) break;
            if (o == OP_EXIT) break;
            if (jt_val(L, b, F[i], 0, &k.v[i]) > 0) k.mask |= SM_X << i;
        }
        jt_val(L, b, "over", 0, &k.v[PV_OVER]);
        k.ease = (uint8_t)jt_ease_of(L, b);
        placement_checks(L, b);
        if (o == OP_ENTER) k.aux = jt_enum(L, b, "from", SIDES, 4, SIDE_LEFT);
        if (o == OP_EXIT) k.aux = jt_enum(L, b, "to", SIDES, 4, SIDE_RIGHT);
        if (o == OP_PLACE && !k.mask) jt_warn(L, NULL, "place without x, y, h or facing only shows the character");
    } else {  /* mood {who, mood} */
        k = jt_blank(L, OP_SMOOD);
        k.who = who(L, b);
        const char *m = jt_str(L, b, "mood", 1);
        k.str = m ? jt_strdup(L, m) : "";
    }
    jt_push(L, out, &k);
    return 0;
}
