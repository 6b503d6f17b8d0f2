/* pose.c: §2 the pose: rest ⊕ every instance's base values (instances in
** start order) ⊕ every motion (start order): dx dy rot and part channels add,
** sx sy multiply, mouth blink take the max (NaN wins, as Math.max), mood and
** §8.5 view the latest write, §8.4 reach per limb the latest reach/release. */
#include <math.h>
#include <string.h>

#include "rt.h"

static const char *const LIMBS[JT_LIMBS] = {"hand:-1", "hand:1", "foot:-1", "foot:1"};
static const char *const SPOTS[4] = {"hip", "head", "chest", "mouth"};

int jt_limb_winner(jt_character *c, int li, jt_instance **who)
{
    jt_instance *best = NULL;
    for (int32_t i = 0; c && i < c->ninst; i++) {
        jt_instance *in = c->inst[i];
        if (in->limb[li].set && (!best || in->limb[li].seq >= best->limb[li].seq)) best = in;
    }
    *who = best;
    return best ? 0 : -1;
}

static void touch(jt_runtime *rt, int32_t ch, int *n)
{
    if (rt->mark[ch] == rt->markgen) return;
    rt->mark[ch] = rt->markgen;
    rt->acc[ch] = jt_rest_of(rt->chparts[ch].kind);
    if (ch >= JT_FIXED_CHANNELS) rt->plist[(*n)++] = ch;
}

static void add(jt_runtime *rt, int32_t ch, double v, int *n)
{
    touch(rt, ch, n);
    int c = jt_combine_of(rt->chparts[ch].kind);
    if (c == COMB_ADD) rt->acc[ch] += v;
    else if (c == COMB_MUL) rt->acc[ch] *= v;
    else rt->acc[ch] = jt_js_max(rt->acc[ch], v);
}

const char *jt_director_mood(jt_runtime *rt, jt_character *c, double *t);

jt_status jt_pose_read(jt_runtime *rt, int index, jt_pose *out)
{
    if (index < 0 || index >= rt->nchars) return jt_fail(rt, JT_ERR_ARGUMENT, "unknown character");
    jt_character *c = rt->chars[index];
    double T = rt->t;
    int jt_scratch_reserve(jt_runtime *rt);
    if (rt->capscratch < rt->chtab.n && jt_scratch_reserve(rt) < 0) return jt_fail(rt, JT_ERR_MEMORY, "out of memory");
    if (++rt->markgen == 0) {
        for (int32_t i = 0; i < rt->capscratch; i++) rt->mark[i] = 0;
        rt->markgen = 1;
    }
    int n = 0;
    for (int32_t ch = 0; ch < CH_MOOD; ch++) touch(rt, ch, &n);
    for (int32_t i = 0; i < c->ninst; i++) {
        const jt_instance *in = c->inst[i];
        for (int pch = 0; pch < in->prog->nchannels; pch++)
            if (in->base[pch].state) add(rt, in->chmap[pch], jt_glide_at(&in->base[pch].g, T), &n);
    }
    double vals[64];
    for (int32_t i = 0; i < c->nmot; i++) {
        jt_motion *m = c->mot[i];
        if (jt_motion_values(rt, m, T, 1, vals) < 0) return JT_ERR_RUN;
        for (int k = 0; k < m->nch; k++) add(rt, m->ch[k], vals[k], &n);
    }
    out->dx = rt->acc[CH_DX];
    out->dy = rt->acc[CH_DY];
    out->sx = rt->acc[CH_SX];
    out->sy = rt->acc[CH_SY];
    out->rot = rt->acc[CH_ROT];
    out->mouth = rt->acc[CH_MOUTH];
    out->blink = rt->acc[CH_BLINK];
    for (int i = 0; i < n; i++) rt->pval[i] = rt->acc[rt->plist[i]];
    out->nchannels = n;
    out->channel = rt->plist;
    out->value = rt->pval;
    /* mood and view: the latest write of a live instance (ties: the later instance) */
    uint64_t ms = 0, vs = 0;
    double mt = -INFINITY;
    out->mood = NULL;
    out->view = JT_VIEW_NONE;
    for (int32_t i = 0; i < c->ninst; i++) {
        const jt_instance *in = c->inst[i];
        if (in->mood && in->mood_seq >= ms) { ms = in->mood_seq; out->mood = in->mood; mt = in->mood_t; }
        if (in->view >= 0 && in->view_seq >= vs) { vs = in->view_seq; out->view = (jt_view)in->view; }
    }
    double dt;
    const char *dm = jt_director_mood(rt, c, &dt);  /* §7.4 a scene's mood: the latest wins, at equal times the scene's */
    if (dm && (!out->mood || dt >= mt)) out->mood = dm;
    out->nreach = 0;
    for (int li = 0; li < JT_LIMBS; li++) {
        jt_instance *who;
        if (jt_limb_winner(c, li, &who) < 0) continue;
        const jt_limb *l = &who->limb[li];
        if (!l->has_target) continue;
        jt_reach *r = &out->reach[out->nreach++];
        r->limb = LIMBS[li];
        r->w = jt_js_min(jt_js_max(jt_glide_at(&l->w, T), 0), 1);  /* the pose holds the weight to 0..1 */
        r->x = r->y = r->dx = r->dy = 0;
        r->has_offset = 0;
        if (l->point) {
            r->spot = NULL;
            r->x = jt_glide_at(&l->x, T);
            r->y = jt_glide_at(&l->y, T);
        } else {
            r->spot = SPOTS[l->spot];
            r->dx = jt_glide_at(&l->x, T);
            r->dy = jt_glide_at(&l->y, T);
            r->has_offset = !(r->dx == 0 && r->dy == 0);  /* an offset of 0, 0 is the spot itself */
        }
    }
    return JT_OK;
}
