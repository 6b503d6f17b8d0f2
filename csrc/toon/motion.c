/* motion.c: §3 motions (wave, hop, gait, drive), §8.2 chains and §8.3
** follow-through: start-or-keep, the values a motion adds at a time, and the
** follow grid's ticks (semi-implicit Euler, the damping implicit, only + - * /
** in the text's order). */
#include <math.h>
#include <string.h>

#include "rt.h"

static const double GAIT4[4] = {0, 0.5, 0.5, 0};
static const double GAIT6[6] = {0, 0.5, 0.5, 0, 0, 0.5};

/* §3 wave shapes, clarified: by p = (x / 2π) mod 1 */
static double shape(int sh, double x)
{
    double p;
    switch (sh) {
    case SH_COS: return cos(x);
    case SH_ABSSIN: return fabs(sin(x));
    case SH_POSSIN: return jt_js_max(sin(x), 0);
    case SH_SQUARE: p = jt_js_mod(x / (2 * JT_PI), 1); return isnan(p) ? NAN : p < 0.5 ? 1 : -1;
    case SH_SAW: p = jt_js_mod(x / (2 * JT_PI), 1); return 2 * p - 1;
    case SH_TRI:
        p = jt_js_mod(x / (2 * JT_PI), 1);
        return p < 0.25 ? 4 * p : p < 0.75 ? 2 - 4 * p : 4 * p - 4;
    default: return sin(x);  /* sin, dampsin */
    }
}

static double angular(int wkind, double v)
{
    if (wkind == W_W) return v;
    if (wkind == W_HZ) return 2 * JT_PI * v;
    return 2 * JT_PI / v;
}

static int fixed(jt_runtime *rt, jt_instance *in, jt_motion *m, const jt_block *b, int i, double now, double *out)
{
    return jt_inst_eval(rt, in, m, b, &b->v[i], now, 0, out);
}

/* start-or-keep (§2): a motion already running from this block in this scope is kept */
int jt_motion_start(jt_runtime *rt, jt_instance *in, const jt_block *b, uint64_t scope, double now)
{
    jt_motion *m = &in->mot[b->slot];
    if (m->live && m->scope == scope) return 0;
    if (m->live) jt_stop_motion(m);
    m->blk = b;
    m->scope = scope;
    m->t0 = now;
    m->tl0 = b->flags & BF_SYNC_START ? in->t_start : now;
    m->ticking = 0;
    const int32_t *map = in->chmap;
    switch (b->op) {  /* the fixed values, evaluated once now */
    case OP_WAVE:
        if (fixed(rt, in, m, b, WV_W, now, &m->w) < 0 || fixed(rt, in, m, b, WV_PHASE, now, &m->phase) < 0 ||
            (b->flags & BF_POW && fixed(rt, in, m, b, WV_POW, now, &m->pow) < 0) ||
            fixed(rt, in, m, b, WV_DECAY, now, &m->decay) < 0)
            return -1;
        m->w = angular(b->wkind, m->w);
        m->nch = 1;
        m->ch[0] = map[b->ch[0]];
        break;
    case OP_DRIVE:
        m->nch = 1;
        m->ch[0] = map[b->ch[0]];
        break;
    case OP_HOP:
        if (fixed(rt, in, m, b, HV_HZ, now, &m->hz) < 0) return -1;
        m->nch = 3;
        m->ch[0] = CH_DY;
        m->ch[1] = CH_SX;
        m->ch[2] = CH_SY;
        break;
    case OP_GAIT: {
        if (fixed(rt, in, m, b, GV_EVERY, now, &m->every) < 0) return -1;
        int legs = in->chr ? in->chr->legs : 0;
        const int32_t *g = legs == 2 ? rt->gait2 : legs == 4 ? rt->gait4 : legs == 6 ? rt->gait6 : NULL;
        int n = legs == 2 ? 8 : legs == 4 ? 10 : legs == 6 ? 14 : 2;
        for (int i = 0; i < n; i++) m->ch[i] = g ? g[i] : i == 0 ? CH_DY : CH_ROT;
        m->nch = n;
        break;
    }
    case OP_CHAIN:
        if (fixed(rt, in, m, b, CV_W, now, &m->w) < 0 || fixed(rt, in, m, b, CV_PHASE, now, &m->phase) < 0 ||
            fixed(rt, in, m, b, CV_DECAY, now, &m->decay) < 0 || fixed(rt, in, m, b, CV_LAG, now, &m->lag) < 0 ||
            fixed(rt, in, m, b, CV_FALLOFF, now, &m->falloff) < 0)
            return -1;
        m->w = angular(b->wkind, m->w);
        m->nch = b->nch;
        for (int i = 0; i < b->nch; i++) m->ch[i] = map[b->ch[i]];
        break;
    case OP_FOLLOW: {
        double hz, damping;
        if (fixed(rt, in, m, b, FV_HZ, now, &hz) < 0 || fixed(rt, in, m, b, FV_DAMPING, now, &damping) < 0) return -1;
        hz = hz > 0 ? (hz > 60 ? 60 : hz) : 0;   /* §8.3 held to 0..60; not a number counts as 0 */
        damping = damping > 0 ? damping : 0;
        m->hz = hz;
        double w = 2 * JT_PI * hz;
        const double h = 1.0 / FOLLOW_RATE;
        m->w2 = w * w;
        m->den = 1 + h * (2 * damping * w);
        m->src = map[b->aux];
        m->src_kind = rt->chparts[m->src].kind;
        m->chr = in->chr;
        m->k = 0;
        m->y = m->v = m->u = 0;
        m->nch = b->nch;
        for (int i = 0; i < b->nch; i++) m->ch[i] = map[b->ch[i]];
        m->ticking = hz > 0;  /* a spring of 0 Hz has no pull and never ticks */
        break;
    }
    }
    m->order = ++rt->order;
    m->serial++;
    m->live = 1;
    m->src_dirty = 1;
    m->nsrc_base = m->nsrc_mot = -1;
    jt_character *c = in->chr;
    if (c) jt_writers_changed(c);
    if (c) c->mot[c->nmot++] = m;  /* capacity reserved at start; the newest is last */
    m->cached = 0;
    if (m->ticking) {
        if (rt->exact_ticks) {
            if (jt_push_event(rt, now, 1, EV_TICK, m, in, m->serial, 0, m->order) < 0) {
                jt_fail(rt, JT_ERR_MEMORY, "out of memory");
                return -1;
            }
        } else {  /* capacity reserved when the instance started */
            m->fidx = rt->nfol++;
            rt->fmot[m->fidx] = m;
            rt->fnext[m->fidx] = now;
        }
    }
    return 0;
}

/* §3 gait: walkleg(p) -> (thigh, shin); s = 2p in the stance half, 2p - 1 in the swing half */
static void walkleg(double p, double stride, double give, double bend, double *thigh, double *shin)
{
    if (p < 0.5) {
        double s = 2 * p;
        *thigh = stride - 2 * stride * s;
        *shin = give * sin(s * JT_PI);
    } else {
        double s = 2 * p - 1;
        *thigh = -stride + 2 * stride * s;
        *shin = bend * sin(s * JT_PI);
    }
}

/* The values m adds at T, one per m->ch (a factor on sx/sy). */
int jt_motion_values(jt_runtime *rt, jt_motion *m, double T, int from_pose, double *out)
{
    jt_instance *in = m->inst;
    const jt_block *b = m->blk;
    double tl = T - m->tl0;
#define LIVE(i, dst) \
    if (jt_inst_eval(rt, in, m, b, &b->v[i], T, from_pose, &(dst)) < 0) return -1
    switch (b->op) {
    case OP_WAVE: {
        double amp, offset;
        LIVE(WV_AMP, amp);
        if (b->flags & BF_OFFSET) {
            LIVE(WV_OFFSET, offset);
        } else {
            offset = jt_rest_of(rt->chparts[m->ch[0]].kind);  /* the channel's rest: the wave is the factor on sx/sy */
        }
        double s = shape(b->shape, m->w * tl + m->phase);
        if (b->flags & BF_POW) s = jt_js_pow(s, m->pow);
        if (b->shape == SH_DAMPSIN) s *= exp(-m->decay * tl);
        if (b->clip == 1) s = jt_js_max(s, 0);
        else if (b->clip == 2) s = jt_js_min(s, 0);
        out[0] = offset + amp * s;
        return 0;
    }
    case OP_DRIVE:
        LIVE(0, out[0]);
        return 0;
    case OP_HOP: {  /* §3 hop */
        double amp;
        LIVE(HV_AMP, amp);
        double cyc = jt_js_mod(tl * m->hz, 1);
        if (cyc < 0.12) {
            double k = cyc / 0.12;
            out[0] = 6 * k;
            out[1] = 1 + 0.08 * k;
            out[2] = 1 - 0.08 * k;
        } else {
            double c = (cyc - 0.12) / 0.88, h = sin(c * JT_PI);
            out[0] = -amp * h;
            out[1] = 1 - 0.10 * h;
            out[2] = 1 + 0.12 * h;
            if (c > 0.86) {
                double k = (c - 0.86) / 0.14;
                out[1] = 1 + 0.11 * k;
                out[2] = 1 - 0.11 * k;
            }
        }
        return 0;
    }
    case OP_GAIT: {  /* §3 gait */
        double v[GV_N];
        for (int i = GV_STRIDE; i < GV_N; i++) LIVE(i, v[i]);
        double ph = jt_js_mod(tl, m->every) / m->every;
        int n = m->nch == 8 ? 2 : (m->nch - 2) / 2;  /* legs: 2 (with the arms), 4, 6, or 0 */
        for (int leg = 0; leg < n; leg++) {
            double off = n == 2 ? (leg ? 0.5 : 0) : n == 4 ? GAIT4[leg] : GAIT6[leg];
            double thigh, shin;
            walkleg(jt_js_mod(ph + off, 1), v[GV_STRIDE], v[GV_GIVE], v[GV_BEND], &thigh, &shin);
            if (n == 2) {
                out[leg] = thigh;
                out[2 + leg] = shin;
                out[4 + leg] = -thigh * v[GV_ARMSWING];  /* the arms counter-swing */
            } else {
                out[leg] = thigh;
                out[n + leg] = shin;
            }
        }
        int k = m->nch - 2;
        out[k] = v[GV_BASE] - v[GV_BOB] * fabs(sin(2 * JT_PI * ph));
        out[k + 1] = sin(2 * JT_PI * ph) * v[GV_ROLL];
        return 0;
    }
    case OP_CHAIN: {  /* §8.2 */
        double amp;
        LIVE(CV_AMP, amp);
        double f = 1;
        for (int i = 0; i < m->nch; i++) {
            if (i) f = f * m->falloff;  /* a running product, not pow */
            double ti = tl - i * m->lag;
            if (ti < 0) {
                out[i] = 0;
                continue;
            }
            double s = shape(b->shape, m->w * ti + m->phase);
            if (b->shape == SH_DAMPSIN) s *= exp(-m->decay * ti);
            out[i] = amp * f * s;
        }
        return 0;
    }
    case OP_FOLLOW: {  /* §8.3 rest + gain·(y − u) of the last tick */
        double gain;
        LIVE(FV_GAIN, gain);
        for (int i = 0; i < m->nch; i++) {
            double rest = jt_rest_of(rt->chparts[m->ch[i]].kind);
            out[i] = m->ticking ? rest + gain * (m->y - m->u) : rest;
        }
        return 0;
    }
    }
#undef LIVE
    return 0;
}

static void combine(int kind, double *acc, double v)
{
    int c = jt_combine_of(kind);
    if (c == COMB_ADD) *acc += v;
    else if (c == COMB_MUL) *acc *= v;
    else *acc = jt_js_max(*acc, v);
}

/* a motion's values at T, kept for the other followers reading it at the same tick */
static const double *values_at(jt_runtime *rt, jt_motion *m, double T, double *scratch)
{
    if (m->blk->flags & BF_RANDOM) return jt_motion_values(rt, m, T, 0, scratch) < 0 ? NULL : scratch;
    if (!m->cached || m->cache_t != T || m->cache_epoch != rt->epoch) {
        if (jt_motion_values(rt, m, T, 0, m->cache_v) < 0) return NULL;
        m->cached = 1;
        m->cache_t = T;
        m->cache_epoch = rt->epoch;
    }
    return m->cache_v;
}

/* §8.3 the source: the pose's value on that exact channel key, from every
** instance's base values and motions, leaving out every follow's output. */
int jt_channel_value(jt_runtime *rt, jt_character *c, int32_t ch, double T, double *out)
{
    int kind = rt->chparts[ch].kind;
    double acc = jt_rest_of(kind);
    for (int32_t i = 0; i < c->ninst; i++) {
        const jt_instance *in = c->inst[i];
        if (ch >= in->nrev) continue;
        int32_t pch = in->rev[ch];
        if (pch >= 0 && in->base[pch].state) combine(kind, &acc, jt_glide_at(&in->base[pch].g, T));
    }
    double vals[16];
    for (int32_t i = 0; i < c->nmot; i++) {
        jt_motion *m = c->mot[i];
        if (m->blk->op == OP_FOLLOW) continue;
        int at = -1;
        for (int k = 0; k < m->nch && at < 0; k++)
            if (m->ch[k] == ch) at = k;
        if (at < 0) continue;
        const double *v = values_at(rt, m, T, vals);
        if (!v) return -1;
        combine(kind, &acc, v[at]);
    }
    *out = acc;
    return 0;
}

void jt_writers_changed(jt_character *c)
{
    for (int32_t i = 0; i < c->nmot; i++)
        if (c->mot[i]->blk->op == OP_FOLLOW) c->mot[i]->src_dirty = 1;
}

/* the writers of m's source (as jt_channel_value finds them), kept while they stay */
static void source_writers(jt_motion *m)
{
    jt_character *c = m->inst->chr;
    int32_t ch = m->src;
    int nb = 0, nm = 0;
    for (int32_t i = 0; i < c->ninst && nb >= 0; i++) {
        const jt_instance *in = c->inst[i];
        if (ch >= in->nrev) continue;
        int32_t pch = in->rev[ch];
        if (pch >= 0 && in->base[pch].state) {
            if (nb == 4) nb = -1;
            else m->src_base[nb++] = &in->base[pch];
        }
    }
    for (int32_t i = 0; i < c->nmot && nm >= 0; i++) {
        jt_motion *w = c->mot[i];
        if (w->blk->op == OP_FOLLOW) continue;
        for (int k = 0; k < w->nch; k++)
            if (w->ch[k] == ch) {
                if (nm == 4) nm = -1;
                else {
                    m->src_mot[nm] = w;
                    m->src_at[nm++] = (uint8_t)k;
                }
                break;
            }
    }
    m->nsrc_base = (int8_t)(nm < 0 ? -1 : nb);
    m->nsrc_mot = (int8_t)(nb < 0 ? -1 : nm);
    m->src_dirty = 0;
}

/* the source at T (source_writers is up to date) */
static int follow_source(jt_runtime *rt, jt_motion *m, double T, double *out)
{
    if (m->nsrc_base < 0 || m->nsrc_mot < 0) return jt_channel_value(rt, m->chr, m->src, T, out);
    int kind = m->src_kind;
    double acc = jt_rest_of(kind), vals[16];
    for (int i = 0; i < m->nsrc_base; i++) combine(kind, &acc, jt_glide_at(&m->src_base[i]->g, T));
    for (int i = 0; i < m->nsrc_mot; i++) {
        const double *v = values_at(rt, m->src_mot[i], T, vals);
        if (!v) return -1;
        combine(kind, &acc, v[m->src_at[i]]);
    }
    *out = acc;
    return 0;
}

/* §8.3 one tick at T = t0 + k/240; returns the next tick's time in *next */
static int tick(jt_runtime *rt, jt_motion *m, double T, double *next)
{
    const double h = 1.0 / FOLLOW_RATE;
    double u;
    if (follow_source(rt, m, T, &u) < 0) return -1;
    if (m->k == 0 || !isfinite(m->y) || !isfinite(m->v)) {
        m->y = u;
        m->v = 0;
    } else {
        m->v = (m->v + h * (m->w2 * (u - m->y))) / m->den;
        m->y = m->y + h * m->v;
    }
    m->u = u;
    m->k++;
    *next = m->t0 + (double)m->k / FOLLOW_RATE;  /* k/240 first, then added */
    return 0;
}

int jt_follow_tick(jt_runtime *rt, jt_motion *m, double T)
{
    double next;
    if (m->src_dirty) source_writers(m);
    if (tick(rt, m, T, &next) < 0) return -1;
    if (jt_push_event(rt, next, 1, EV_TICK, m, m->inst, m->serial, 0, m->order) < 0) {
        jt_fail(rt, JT_ERR_MEMORY, "out of memory");
        return -1;
    }
    return 0;
}

/* Every listed follower's ticks before lim (at lim too when incl). */
int jt_follow_run(jt_runtime *rt, double lim, int incl)
{
    for (int32_t i = 0; i < rt->nfol; i++) {
        double t = rt->fnext[i];
        if (!(t < lim || (incl && t == lim))) continue;
        jt_motion *m = rt->fmot[i];
#ifdef __GNUC__
        if (i + 1 < rt->nfol) __builtin_prefetch(rt->fmot[i + 1]);
#endif
        if (m->src_dirty) source_writers(m);  /* only block events change the writers */
        do {
            if (tick(rt, m, t, &t) < 0) return -1;
        } while (t < lim || (incl && t == lim));
        rt->fnext[i] = t;
    }
    return 0;
}

/* The follow grid in exact order from now on: each follower's next tick becomes an event. */
int jt_follow_exact(jt_runtime *rt)
{
    if (rt->exact_ticks) return 0;
    rt->exact_ticks = 1;
    for (int32_t i = 0; i < rt->nfol; i++) {
        jt_motion *m = rt->fmot[i];
        m->fidx = -1;
        if (jt_push_event(rt, rt->fnext[i], 1, EV_TICK, m, m->inst, m->serial, 0, m->order) < 0) return -1;
    }
    rt->nfol = 0;
    return 0;
}
