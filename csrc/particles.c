/* particles.c: §8.8 particle emitters: the realtime clock, emitter
** step/advance/spawn and the draw geometry.  State layout in particles.h. */
#include "particles.h"

#include <stdlib.h>
#include <string.h>

#include "atlas.h"
#include "rng.h"

/* Buffers larger than this are not preallocated; they grow on demand. */
#define PREALLOC_LIMIT 65536

/* JS Math.min / Math.max of two numbers: NaN if either is NaN. */
static double js_min(double a, double b) { return a != a || b != b ? NAN : a < b ? a : b; }
static double js_max(double a, double b) { return a != a || b != b ? NAN : a > b ? a : b; }

/* ---- creation ----------------------------------------------------- */

/* Particles a buffer may need for settings p: alive stays below
** ceil(maxParticles) + 2 (fractional counts spawn on i < n, emitter_advance)
** unless burst counts are negative. */
static double buffer_need(const ob_particle_settings *p)
{
    double m = p->max_particles;
    if (!(m > 0)) return 0;  /* NaN, negative: room is 0 */
    return ceil(m) + 2;
}

int ob_particles_create(ob_instance *inst)
{
    const ob_document *doc = inst->doc;
    int32_t ns = doc->slot_count;
    ob_particle_state *st = calloc(1, sizeof *st);
    if (!st) return -1;
    inst->particles = st;
    size_t n = ns > 0 ? (size_t)ns : 1;
    for (int32_t i = 0; i < doc->attachment_count && !st->any; i++) {
        const ob_attachment *a = &doc->attachments[i];
        st->any = a->type == OB_ATT_PARTICLES && a->particles && a->slot >= 0 && a->slot < ns;
    }
    st->pending = calloc(n, sizeof *st->pending);
    st->override = malloc(n);
    st->max_quads = calloc(n, sizeof *st->max_quads);
    if (!st->pending || !st->override || !st->max_quads) return -1;
    memset(st->override, -1, n);
    if (!st->any) return 0;  /* issue 17: no emitter can exist, so none is allocated (5 KB on spineboy) */
    st->emitters = calloc(n, sizeof *st->emitters);
    st->frame_att = calloc(n, sizeof *st->frame_att);
    double *need = calloc(n, sizeof *need);
    if (!st->emitters || !st->frame_att || !need) {
        free(need);
        return -1;
    }
    for (int32_t i = 0; i < doc->attachment_count; i++) {
        const ob_attachment *a = &doc->attachments[i];
        if (a->type != OB_ATT_PARTICLES || !a->particles || a->slot < 0 || a->slot >= ns) continue;
        double k = buffer_need(a->particles);
        if (k > need[a->slot]) need[a->slot] = k;
    }
    for (int32_t s = 0; s < ns; s++) {
        ob_emitter *e = &st->emitters[s];
        e->attachment = -1;
        double cap = need[s] < PREALLOC_LIMIT ? need[s] : PREALLOC_LIMIT;
        e->capacity = (int32_t)cap;
        st->max_quads[s] = e->capacity < OB_PARTICLES_MAX_DRAWN ? e->capacity : OB_PARTICLES_MAX_DRAWN;
        if (e->capacity > 0) {
            e->particles = malloc((size_t)e->capacity * sizeof *e->particles);
            if (!e->particles) { free(need); return -1; }
        }
    }
    free(need);
    return 0;
}

void ob_particles_free(ob_instance *inst)
{
    ob_particle_state *st = inst->particles;
    if (!st) return;
    if (st->emitters)
        for (int32_t s = 0; s < inst->doc->slot_count; s++) free(st->emitters[s].particles);
    free(st->emitters);
    free(st->pending);
    free(st->override);
    free(st->max_quads);
    free(st->frame_att);
    free(st);
    inst->particles = NULL;
}

/* ---- the emitter (particles.ts) ------------------------------------ */

/* A fresh emitter for attachment att on slot (the slot's buffer is kept). */
static void emitter_reset(const ob_instance *inst, ob_emitter *e, int32_t slot, int32_t att)
{
    const ob_document *doc = inst->doc;
    e->attachment = att;
    /* §8.8 seed (attachment.seed XOR fnv1a(slot.name)) >>> 0 */
    e->rng = doc->attachments[att].particles->seed ^ ob_fnv1a_utf16(doc->slots[slot].name);
    e->steps = 0;
    e->was_emitting = 0;
    e->cycle = e->acc = e->pending = 0;
    e->has_last = 0;
    e->last_x = e->last_y = 0;
    e->count = 0;
}

static int emitter_reserve(ob_particle_state *st, ob_emitter *e)
{
    if (e->count < e->capacity) return 1;
    if (e->capacity > (1 << 26)) return 0;  /* 64M particles: refuse, the spawn is skipped */
    int32_t cap = e->capacity > 0 ? e->capacity * 2 : 64;
    ob_emitter_particle *p = realloc(e->particles, (size_t)cap * sizeof *p);
    if (!p) return 0;
    e->particles = p;
    e->capacity = cap;
    st->growths++;
    return 1;
}

/* §8.8 spawn(preAge, origin): RNG calls in exactly the spec's order.
** Returns 0, or -1 when the buffer cannot grow (the caller stops spawning). */
static int spawn(ob_particle_state *st, ob_emitter *e, const ob_particle_settings *d, ob_mat m,
                  double pre_age, double ox, double oy)
{
    uint32_t *r = &e->rng;
    double rot = d->rotation * OB_DEG, half = d->angle / 2 * OB_DEG;
    double f = 0, s = 0;
    double dir = rot + ob_rng_between(r, -half, half);
    switch (d->shape) {
    case OB_EMIT_CIRCLE: {
        double a = ob_rng_next(r) * 2 * OB_PI;
        double rr = sqrt(ob_rng_next(r)) * d->radius;
        f = cos(a) * rr;
        s = sin(a) * rr;
        dir = rot + a;
        break;
    }
    case OB_EMIT_BOX:
        s = ob_rng_between(r, -d->width / 2, d->width / 2);
        f = ob_rng_between(r, -d->height / 2, d->height / 2);
        break;
    case OB_EMIT_CONE:
        s = ob_rng_between(r, -d->radius, d->radius);
        if (d->radius > 0) dir = rot + (s / d->radius) * half;
        break;
    default:
        break;
    }
    double cr = cos(rot), sr = sin(rot);
    double px = d->x + f * cr - s * sr, py = d->y + f * sr + s * cr;
    double speed = ob_rng_range(r, d->speed.min, d->speed.max);
    double vx = cos(dir) * speed, vy = sin(dir) * speed;
    if (!d->local_space) {
        /* §8.8 world space: pos = linear(m)·pos + origin; v = linear(m)·vel renormalised to |speed| */
        double wx = m.a * px + m.b * py + ox, wy = m.c * px + m.d * py + oy;
        px = wx;
        py = wy;
        double ux = m.a * vx + m.b * vy, uy = m.c * vx + m.d * vy;
        double len = hypot(ux, uy);
        if (len <= 1e-9) {
            vx = vy = 0;
        } else {
            double k = fabs(speed) / len;
            vx = ux * k;
            vy = uy * k;
        }
    }
    double life = js_max(1e-3, ob_rng_range(r, d->lifetime.min, d->lifetime.max));
    double size0 = ob_rng_range(r, d->start_size.min, d->start_size.max);
    double size1 = ob_rng_range(r, d->end_size.min, d->end_size.max);
    double rot0 = ob_rng_range(r, d->start_rotation.min, d->start_rotation.max);
    double rot1 = ob_rng_range(r, d->end_rotation.min, d->end_rotation.max);
    double spin = ob_rng_range(r, d->angular_velocity.min, d->angular_velocity.max);
    double age = 0;
    if (pre_age > 0) {  /* §8.8 pre-age: gravity and motion, no drag */
        age = pre_age;
        vy -= d->gravity * pre_age;
        px += vx * pre_age;
        py += vy * pre_age;
    }
    ob_emitter_particle p = {(float)px, (float)py, (float)vx, (float)vy, (float)age, (float)life,
                             (float)size0, (float)size1, (float)rot0, (float)rot1, (float)spin};
    if (!(p.age < p.life)) return 0;  /* keep if age < life */
    if (!emitter_reserve(st, e)) return -1;
    e->particles[e->count++] = p;
    return 0;
}

/* §8.8 advance(h, m, emitting, rate) */
static void emitter_advance(ob_particle_state *st, ob_emitter *e, const ob_particle_settings *d, double h,
                            ob_mat m, int emitting, double rate)
{
    /* aging, dropping, motion (each stored field rounds to float32, §12) */
    double damp = d->drag > 0 ? exp(-d->drag * h) : 1;
    int32_t alive = 0;
    for (int32_t i = 0; i < e->count; i++) {
        ob_emitter_particle p = e->particles[i];
        p.age = (float)((double)p.age + h);
        if (p.age >= p.life) continue;  /* drop if age ≥ life */
        p.vy = (float)((double)p.vy - d->gravity * h);
        p.vx = (float)((double)p.vx * damp);
        p.vy = (float)((double)p.vy * damp);
        p.x = (float)((double)p.x + (double)p.vx * h);
        p.y = (float)((double)p.y + (double)p.vy * h);
        e->particles[alive++] = p;
    }
    e->count = alive;

    if (emitting && !e->was_emitting) e->cycle = e->acc = 0;  /* §8.8 restart of the cycle */
    e->was_emitting = emitting;
    int active = emitting && (d->loop || e->cycle < d->duration);
    double burst = e->pending, streamed = 0;
    e->pending = 0;
    if (active) {
        e->acc += js_max(0, rate) * h;
        streamed = floor(e->acc);
        e->acc -= streamed;
        double start = e->cycle, end = start + h;
        int wraps = end >= d->duration - 1e-9;
        double rest = end - d->duration;
        for (int32_t k = 0; k < d->burst_count; k++) {
            const ob_burst *b = &d->bursts[k];
            if (b->time > d->duration + 1e-9) continue;
            if (start - 1e-9 <= b->time && b->time < end - 1e-9) burst += b->count;
            else if (wraps && d->loop && b->time < rest - 1e-9) burst += b->count;  /* the wrap rule */
        }
        e->cycle = wraps ? (d->loop ? (rest > 0 ? rest : 0) : d->duration) : end;
    }
    double room = js_max(0, d->max_particles - alive);
    double nb = js_min(burst, room);
    double ns = js_min(streamed, room - nb);
    double lx = e->has_last ? e->last_x : m.x, ly = e->has_last ? e->last_y : m.y;
    int full = 0;
    for (double i = 0; i < nb && !full; i++) full = spawn(st, e, d, m, 0, m.x, m.y) < 0;
    for (double i = 0; i < ns && !full; i++) {
        /* §8.8 streamed spawns spread along the bone's motion since the last step */
        double k = (i + 1) / ns;
        full = spawn(st, e, d, m, (1 - k) * h, lx + (m.x - lx) * k, ly + (m.y - ly) * k) < 0;
    }
    e->has_last = 1;
    e->last_x = m.x;
    e->last_y = m.y;
}

/* §8.8 step(h, m, values) */
static void emitter_step(ob_particle_state *st, ob_emitter *e, const ob_particle_settings *d, double h,
                         ob_mat m, const ob_particle_values *v)
{
    int emitting = v->has_emitting ? v->emitting : d->emitting;  /* values.emitting ?? data.emitting */
    double rate = v->has_rate ? v->rate : d->rate;
    if (e->steps == 0 && emitting && d->prewarm && d->loop) {
        /* §8.8 prewarm: min(600, ceil(duration/h − 1e-6)) advances, emitting */
        e->has_last = 1;
        e->last_x = m.x;
        e->last_y = m.y;
        double n = ceil(d->duration / h - 1e-6);
        if (n > 600) n = 600;
        for (double i = 0; i < n; i++) emitter_advance(st, e, d, h, m, 1, rate);
    }
    emitter_advance(st, e, d, h, m, emitting, rate);
    e->steps++;
}

/* ---- the realtime clock (skeleton.ts:advanceParticles) -------------- */

/* The slot's current attachment index if it is a particles attachment, else -1. */
static int32_t particles_attachment(const ob_instance *inst, int32_t slot)
{
    int32_t a = ob_skeleton_get_attachment(inst, slot, inst->slot_attachment[slot]);
    if (a < 0) return -1;
    const ob_attachment *att = &inst->doc->attachments[a];
    return att->type == OB_ATT_PARTICLES && att->particles ? a : -1;
}

__attribute__((noinline)) static void particles_steps(ob_instance *inst, double steps);

void ob_particles_advance(ob_instance *inst, double dt)
{
    ob_particle_state *st = inst->particles;
    if (!st) return;
    /* §8.8 clock: acc = frac + dt, n = floor(acc/STEP + 1e-6), min(n, 30) steps */
    double acc = st->frac + dt, x = acc / OB_PARTICLE_STEP + 1e-6;
    /* issue 17 (draw): floor of a positive x below 2^52 is its truncation (no libm call) */
    double n = x > 0 && x < 4503599627370496.0 ? (double)(int64_t)x : floor(x);
    double steps = n < OB_PARTICLE_MAX_STEPS ? n : OB_PARTICLE_MAX_STEPS;
    double frac = acc - n * OB_PARTICLE_STEP;
    st->frac = frac < 0 ? 0 : frac > OB_PARTICLE_STEP ? OB_PARTICLE_STEP : frac;
    if (st->any) particles_steps(inst, steps);  /* else no emitter can exist: only the clock runs */
}

/* issue 17 (draw): the emitters' steps apart from the clock, so a document
** without particles does not pay their register saves each frame */
__attribute__((noinline)) static void particles_steps(ob_instance *inst, double steps)
{
    ob_particle_state *st = inst->particles;
    const ob_document *doc = inst->doc;
    ob_particles_apply_overrides(inst);
    if (steps < 1) return;
    /* attachments do not change during the steps of one frame: resolve them once */
    for (int32_t s = 0; s < doc->slot_count; s++) st->frame_att[s] = particles_attachment(inst, s);
    for (double k = 0; k < steps; k++) {
        for (int32_t s = 0; s < doc->slot_count; s++) {
            int32_t bone = doc->slots[s].bone;
            if (bone < 0 || !inst->bone_active[bone]) continue;  /* §3.3 frozen: emitter kept */
            ob_emitter *e = &st->emitters[s];
            int32_t a = st->frame_att[s];
            if (a < 0) {  /* not particles ⇒ drop the emitter */
                e->attachment = -1;
                e->count = 0;
                continue;
            }
            if (e->attachment != a) emitter_reset(inst, e, s, a);  /* none, or another attachment */
            e->pending += st->pending[s];  /* emitParticles counts */
            st->pending[s] = 0;
            /* all steps of one frame see the same bone matrix */
            emitter_step(st, e, doc->attachments[a].particles, OB_PARTICLE_STEP, inst->world[bone],
                         &inst->particle_values[s]);
        }
    }
}

/* ---- actions ------------------------------------------------------ */

void ob_particles_emit(ob_instance *inst, int32_t slot, double count)
{
    if (!inst->particles || slot < 0 || slot >= inst->doc->slot_count) return;
    inst->particles->pending[slot] += count;
}

void ob_particles_set_emitter(ob_instance *inst, int32_t slot, int emitting)
{
    ob_particle_state *st = inst->particles;
    if (!st || slot < 0 || slot >= inst->doc->slot_count) return;
    int prev;
    if (st->override[slot] >= 0) {
        prev = st->override[slot];
    } else {
        int32_t a = particles_attachment(inst, slot);
        prev = a >= 0 ? inst->doc->attachments[a].particles->emitting : 0;
    }
    st->override[slot] = (int8_t)(emitting != 0);
    ob_emitter *e = st->emitters ? &st->emitters[slot] : NULL;  /* none without particles */
    if (emitting && !prev && e && e->attachment >= 0) {
        /* restart(): the cycle starts over (bursts replay); particles are kept */
        e->cycle = e->acc = 0;
        e->was_emitting = 0;
    }
}

void ob_particles_clear_overrides(ob_instance *inst)
{
    if (inst->particles) memset(inst->particles->override, -1, (size_t)inst->doc->slot_count);
}

void ob_particles_apply_overrides(ob_instance *inst)
{
    ob_particle_state *st = inst->particles;
    if (!st) return;
    for (int32_t s = 0; s < inst->doc->slot_count; s++) {
        if (st->override[s] < 0) continue;
        inst->particle_values[s].has_emitting = 1;  /* §9.1 step 10 */
        inst->particle_values[s].emitting = st->override[s];
    }
}

int32_t ob_particles_count(const ob_instance *inst, int32_t slot)
{
    const ob_emitter *e = ob_particles_emitter(inst, slot);
    return e ? e->count : 0;
}

const ob_emitter *ob_particles_emitter(const ob_instance *inst, int32_t slot)
{
    if (!inst->particles || !inst->particles->emitters || slot < 0 || slot >= inst->doc->slot_count) return NULL;
    const ob_emitter *e = &inst->particles->emitters[slot];
    return e->attachment >= 0 ? e : NULL;
}

/* ---- geometry (§8.8 geometry, particleItem) ----------------------- */

int32_t ob_particles_max_quads(const ob_instance *inst, int32_t slot)
{
    if (!inst->particles || slot < 0 || slot >= inst->doc->slot_count) return 0;
    return inst->particles->max_quads[slot];
}

/* §8.8 gradient: stops sorted by t (stable) only if unsorted; clamp to the
** first/last; else lerp between the bracketing stops. */
static int stops_sorted(const ob_particle_settings *d)
{
    for (int32_t i = 1; i < d->stop_count; i++)
        if (d->stops[i].t < d->stops[i - 1].t) return 0;
    return 1;
}

static void gradient(const ob_particle_settings *d, int sorted, double t, double out[4])
{
    int32_t n = d->stop_count;
    if (n <= 0) {  /* no stops: white */
        out[0] = out[1] = out[2] = out[3] = 1;
        return;
    }
    /* the stable order without copying: a sorted list is read directly */
    const ob_grad_stop *lo = NULL, *hi = NULL, *first = NULL, *last = NULL;
    if (sorted) {
        first = &d->stops[0];
        last = &d->stops[n - 1];
        if (t > first->t && t < last->t) {
            int32_t i = 0;
            while (i + 1 < n && d->stops[i + 1].t <= t) i++;
            lo = &d->stops[i];
            hi = &d->stops[i + 1];
        }
    } else {
        /* stable sort order: by t, ties by index.  first = min, last = max
        ** (the last of equal maxima), lo = the last stop (in that order) with
        ** t_lo <= t, hi = the next one. */
        for (int32_t i = 0; i < n; i++) {
            const ob_grad_stop *s = &d->stops[i];
            if (!first || s->t < first->t) first = s;
            if (!last || s->t >= last->t) last = s;
        }
        if (t > first->t && t < last->t) {
            for (int32_t i = 0; i < n; i++) {
                const ob_grad_stop *s = &d->stops[i];
                if (s->t <= t && (!lo || s->t >= lo->t)) lo = s;
            }
            for (int32_t i = 0; i < n; i++) {
                const ob_grad_stop *s = &d->stops[i];
                if (s->t > t && (!hi || s->t < hi->t)) hi = s;
            }
        }
    }
    if (!lo || !hi) {
        const ob_grad_stop *c = t <= first->t ? first : last;
        memcpy(out, c->color, 4 * sizeof(double));
        return;
    }
    double u = (t - lo->t) / (hi->t - lo->t);
    for (int k = 0; k < 4; k++) out[k] = lo->color[k] + (hi->color[k] - lo->color[k]) * u;
}

int32_t ob_particles_geometry(const ob_instance *inst, int32_t slot, float *vertices, float *uvs,
                              float *colors, uint32_t *indices, uint32_t base_vertex, int32_t *texture)
{
    const ob_document *doc = inst->doc;
    *texture = OB_TEXTURE_NONE;
    if (!inst->particles || !inst->particles->emitters || slot < 0 || slot >= doc->slot_count) return 0;
    int32_t bone = doc->slots[slot].bone;
    if (bone < 0 || !inst->bone_active[bone]) return 0;  /* §3.3: not drawn */
    int32_t a = particles_attachment(inst, slot);
    const ob_emitter *e = &inst->particles->emitters[slot];
    if (a < 0 || e->attachment != a) return 0;  /* no emitter for this attachment */
    const ob_particle_settings *d = doc->attachments[a].particles;

    /* texture and the uvs of one quad */
    double quv[8] = {0, 0, 1, 0, 1, 1, 0, 1};  /* unit: TL TR BR BL */
    float uv[8];
    int32_t tex;
    switch (d->look) {
    case OB_LOOK_IMAGE: {
        tex = ob_image_texture(doc, d->image);
        if (tex == OB_TEXTURE_NONE) return 0;  /* missing image: none */
        const ob_region_data *r = ob_atlas_region(doc, d->image);
        ob_uvmap map = r ? ob_atlas_uvmap(doc, r) : ob_uvmap_identity();
        ob_uvmap_apply(&map, quv, 4, uv);
        break;
    }
    case OB_LOOK_SQUARE: {
        double u, v;
        if (ob_white_uv(doc, &tex, &u, &v)) {  /* white block centre uvs */
            for (int k = 0; k < 4; k++) { quv[2 * k] = u; quv[2 * k + 1] = v; }
        }
        for (int k = 0; k < 8; k++) uv[k] = (float)quv[k];
        break;
    }
    default:  /* circle, spark */
        tex = ob_texture_particle_dot(doc);
        for (int k = 0; k < 8; k++) uv[k] = (float)quv[k];
        break;
    }

    ob_mat m = inst->world[bone];
    const double *tint = &inst->slot_color[4 * slot];
    double frac = inst->particles->frac;
    int local = d->local_space;
    double size_scale = local ? sqrt(fabs(m.a * m.d - m.b * m.c)) : 1;
    /* at most 16383; also never more than the caller's buffers hold (max_quads, only
    ** smaller than the count for documents whose bursts break the maxParticles bound) */
    int32_t n = e->count < inst->particles->max_quads[slot] ? e->count : inst->particles->max_quads[slot];
    int sorted = stops_sorted(d);
    int32_t q = 0;
    for (int32_t i = 0; i < n; i++) {
        const ob_emitter_particle *p = &e->particles[i];
        double life = p->life;
        double age = (double)p->age + frac;
        if (age > life) age = life;
        double t = age / life;
        double px = (double)p->x + (double)p->vx * frac, py = (double)p->y + (double)p->vy * frac;
        double vx = p->vx, vy = p->vy;
        if (local) {  /* slot-bone space → world */
            double wx = m.a * px + m.b * py + m.x, wy = m.c * px + m.d * py + m.y;
            px = wx;
            py = wy;
            double ux = m.a * vx + m.b * vy, uy = m.c * vx + m.d * vy;
            vx = ux;
            vy = uy;
        }
        double size = js_max(0, (double)p->size0 + ((double)p->size1 - (double)p->size0) * t) * size_scale;
        double c[4];
        gradient(d, sorted, t, c);
        double alpha = c[3] * tint[3];
        if (size <= 0 || alpha <= 0) continue;
        double spin_ang = ((double)p->rot0 + ((double)p->rot1 - (double)p->rot0) * t + (double)p->spin * age) * OB_DEG;
        double ux, uy;
        if (d->look == OB_LOOK_SPARK) {
            double sp = hypot(vx, vy);
            double len = size / 2 + sp * d->stretch / 2;
            double ang = sp > 1e-6 ? atan2(vy, vx) : spin_ang;
            ux = cos(ang) * len;
            uy = sin(ang) * len;
        } else {
            ux = cos(spin_ang) * size / 2;
            uy = sin(spin_ang) * size / 2;
        }
        double ul = hypot(ux, uy);
        if (ul == 0) ul = 1;
        double vx2 = -uy / ul * size / 2, vy2 = ux / ul * size / 2;  /* V = perp(U)/|U|·size/2 */
        float *vt = vertices + 8 * q;
        vt[0] = (float)(px - ux + vx2); vt[1] = (float)(py - uy + vy2);  /* TL */
        vt[2] = (float)(px + ux + vx2); vt[3] = (float)(py + uy + vy2);  /* TR */
        vt[4] = (float)(px + ux - vx2); vt[5] = (float)(py + uy - vy2);  /* BR */
        vt[6] = (float)(px - ux - vx2); vt[7] = (float)(py - uy - vy2);  /* BL */
        memcpy(uvs + 8 * q, uv, sizeof uv);
        float *cl = colors + 16 * q;
        for (int k = 0; k < 4; k++) {
            cl[4 * k] = (float)(c[0] * tint[0]);
            cl[4 * k + 1] = (float)(c[1] * tint[1]);
            cl[4 * k + 2] = (float)(c[2] * tint[2]);
            cl[4 * k + 3] = (float)alpha;
        }
        uint32_t b = base_vertex + 4 * (uint32_t)q;
        uint32_t *ix = indices + 6 * q;
        ix[0] = b; ix[1] = b + 1; ix[2] = b + 2; ix[3] = b; ix[4] = b + 2; ix[5] = b + 3;
        q++;
    }
    if (q > 0) *texture = tex;
    return q;
}
