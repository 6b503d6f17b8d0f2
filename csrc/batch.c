/* batch.c: many instances stepped in one call across a pool of threads
** (issue 17, "many characters").  Each instance is advanced exactly as
** ob_instance_advance would advance it alone: the document is immutable and
** an instance touches only its own memory, so which thread steps it, and in
** which order, changes no bit of the result.  The pool is a handle (no global
** state); its threads are created once and sleep between calls, and a call
** allocates nothing unless it names more instances than any call before
** (the duplicate check's table then grows once).
**
** Waiting: a sleeping thread on a virtual machine takes tens of microseconds
** to wake (75 us measured for a two-instance call on the 2-core VM, against
** 3 us on one thread), which would cost the caller once when it waits for the
** workers' last instances and the workers once per call.  So the caller spins
** on the pending count (the workers are finishing their last instance), and a
** worker spins for OB_BATCH_SPIN_NS after a job before it sleeps, which
** catches back-to-back calls.  Both then fall back to the condition variables.
** A pool with more threads than the CPUs it may use never spins (a spinning
** thread would take a core from one still stepping).
**
** Placement (Linux): a call keeps the workers off the caller's CPU.  On the
** 2-core VM the kernel, seeing the halted vCPU as unavailable, wakes a worker
** that slept (a 60 fps loop's calls are 16 ms apart) onto the caller's own
** CPU; the two then share one core for the whole call, 2.9 ms against 1.9
** alone, until the balancer moves one.  So when the caller's CPU differs from
** the last call's, the workers' affinity becomes the caller's allowed CPUs
** less its own (a syscall per worker, only then); with one allowed CPU, or
** where the call fails, nothing is pinned.  The caller's affinity is never
** touched. */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L  /* clock_gettime, sysconf, pthreads under -std=c11 */
#endif
#if defined(__linux__) && !defined(_GNU_SOURCE)
#define _GNU_SOURCE  /* sched_getcpu, CPU_SET, pthread_setaffinity_np */
#endif
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <time.h>

/* Wheels: glibc 2.34 moved libpthread into libc and versioned pthread_create/pthread_join anew;
** binding the base versions (still exported) keeps the repaired wheel manylinux_2_17. */
#if defined(__GLIBC__) && defined(__x86_64__)
__asm__(".symver pthread_create,pthread_create@GLIBC_2.2.5");
__asm__(".symver pthread_join,pthread_join@GLIBC_2.2.5");
__asm__(".symver pthread_setaffinity_np,pthread_setaffinity_np@GLIBC_2.3.4");
#elif defined(__GLIBC__) && defined(__aarch64__)
__asm__(".symver pthread_create,pthread_create@GLIBC_2.17");
__asm__(".symver pthread_join,pthread_join@GLIBC_2.17");
__asm__(".symver pthread_setaffinity_np,pthread_setaffinity_np@GLIBC_2.17");
#endif
#if defined(__linux__)
#include <sched.h>
#define OB_BATCH_PIN 1
#else
#define OB_BATCH_PIN 0
#endif
#include <unistd.h>

#include "instance.h"

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define cpu_relax() _mm_pause()
#elif defined(__aarch64__)
#define cpu_relax() __asm__ __volatile__("yield")
#else
#define cpu_relax() ((void)0)
#endif

#define OB_BATCH_MAX_THREADS 256
#define OB_BATCH_SPIN_NS 50000       /* a worker's spin after a job, before it sleeps */
#define OB_BATCH_WAIT_SPIN_NS 2000000 /* the caller's spin for the workers' last instances */

typedef struct ob_batch_worker {
    ob_batch *batch;
    int slot;
    pthread_t thread;
    /* per slot statistics, written only by the thread of that slot */
    double cpu;      /* thread CPU seconds spent in jobs */
    uint64_t items;  /* instances it stepped */
} ob_batch_worker;

struct ob_batch {
    int threads;                  /* the caller plus threads - 1 workers */
    int spin;                     /* threads <= usable CPUs: wait by spinning first */
    int pinned_off;               /* the caller CPU the workers were last kept off, or -1 */
    pid_t pid;                    /* the process that started the workers (a fork's child has none) */
    ob_batch_worker *workers;     /* [threads]; slot 0 is the calling thread */
    int started;                  /* workers actually running (slots 1..started) */
    pthread_mutex_t call;         /* one call at a time */
    pthread_mutex_t m;
    pthread_cond_t go, done;
    _Atomic uint64_t generation;  /* bumped per job, under m (release); spun on without it */
    atomic_int quit;
    atomic_int pending;           /* workers still inside the current job */
    /* the job, set under m before go is broadcast */
    ob_instance *const *insts;
    size_t n;
    double dt;
    int steps;                    /* 0: one advance; > 0: a bake of that many frames */
    double *const *out;
    atomic_size_t next;           /* the next instance index to take */
    /* the duplicate check's open-addressing table (capacity a power of two) */
    const ob_instance **seen;
    size_t seen_cap;
};

static double thread_cpu_seconds(void)
{
    struct timespec ts;
    if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) != 0) return 0;
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Steps instances taken in chunks from the shared counter, guided: a chunk is
** a quarter of each thread's share of what remains (at least one), so 1,000
** instances on two threads take about 40 atomic updates instead of 1,000 (each
** one moves the counter's cache line between cores), and the last chunks are
** single instances, which keeps both cores busy to the end when instances cost
** different amounts.  The job's fields are read once.  Which thread steps an
** instance cannot change its result (each instance is independent). */
static void run_job(ob_batch *b, ob_batch_worker *w)
{
    double t0 = thread_cpu_seconds();
    uint64_t items = 0;
    ob_instance *const *insts = b->insts;
    double *const *out = b->out;
    const size_t n = b->n, share = 4 * (size_t)b->threads;
    const double dt = b->dt;
    const int steps = b->steps;
    size_t cur = atomic_load_explicit(&b->next, memory_order_relaxed);
    while (cur < n) {
        size_t chunk = (n - cur) / share;
        if (chunk == 0) chunk = 1;
        if (!atomic_compare_exchange_weak_explicit(&b->next, &cur, cur + chunk, memory_order_relaxed,
                                                   memory_order_relaxed))
            continue;  /* cur now holds the counter's value */
        for (size_t i = cur; i < cur + chunk; i++) {
            ob_instance *inst = insts[i];
            if (steps == 0) {
                ob_instance_advance(inst, dt);
            } else {
                size_t frame = (size_t)inst->doc->bone_count * 6;
                double *dst = out[i];
                for (int k = 0; k < steps; k++) {
                    ob_instance_advance(inst, dt);  /* §12: the instance sums dt itself */
                    memcpy(dst + (size_t)k * frame, inst->world, frame * sizeof *dst);
                }
            }
        }
        items += chunk;
        cur = atomic_load_explicit(&b->next, memory_order_relaxed);
    }
    w->cpu += thread_cpu_seconds() - t0;
    w->items += items;
}

static uint64_t monotonic_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* One pause of a spin bounded by limit_ns: 1 once the time is up (the clock
** read every 64 pauses; *t0 = 0 before the first). */
static int spin_pause(unsigned k, uint64_t *t0, uint64_t limit_ns)
{
    cpu_relax();
    if ((k & 63) != 63) return 0;
    uint64_t t = monotonic_ns();
    if (!*t0) *t0 = t;
    return t - *t0 >= limit_ns;
}

/* Spins until the generation differs from old, quit is set or limit_ns pass;
** returns the last generation read. */
static uint64_t spin_while_gen(ob_batch *b, uint64_t old, uint64_t limit_ns)
{
    uint64_t t0 = 0, g;
    for (unsigned k = 0;; k++) {
        g = atomic_load_explicit(&b->generation, memory_order_acquire);
        if (g != old || atomic_load_explicit(&b->quit, memory_order_relaxed) || spin_pause(k, &t0, limit_ns)) return g;
    }
}

/* Spins while workers are inside the job, for at most limit_ns. */
static void spin_while_pending(ob_batch *b, uint64_t limit_ns)
{
    uint64_t t0 = 0;
    for (unsigned k = 0; atomic_load_explicit(&b->pending, memory_order_acquire) > 0; k++)
        if (spin_pause(k, &t0, limit_ns)) return;
}

static void *worker_main(void *arg)
{
    ob_batch_worker *w = arg;
    ob_batch *b = w->batch;
    uint64_t seen = 0;
    for (;;) {
        uint64_t g = b->spin ? spin_while_gen(b, seen, OB_BATCH_SPIN_NS) : seen;
        if (g == seen && !atomic_load_explicit(&b->quit, memory_order_relaxed)) {
            pthread_mutex_lock(&b->m);
            while (!atomic_load_explicit(&b->quit, memory_order_relaxed) &&
                   (g = atomic_load_explicit(&b->generation, memory_order_acquire)) == seen)
                pthread_cond_wait(&b->go, &b->m);
            pthread_mutex_unlock(&b->m);
        }
        if (atomic_load_explicit(&b->quit, memory_order_relaxed)) break;
        seen = g;
        run_job(b, w);
        if (atomic_fetch_sub_explicit(&b->pending, 1, memory_order_acq_rel) == 1) {
            pthread_mutex_lock(&b->m);  /* the caller may have gone to sleep */
            pthread_cond_signal(&b->done);
            pthread_mutex_unlock(&b->m);
        }
    }
    return NULL;
}

#if OB_BATCH_PIN
/* The calling thread's allowed CPUs into *set; their count, 0 when unknown. */
static int allowed_cpus(cpu_set_t *set)
{
    CPU_ZERO(set);
    return sched_getaffinity(0, sizeof *set, set) == 0 ? CPU_COUNT(set) : 0;
}
#endif

/* The CPUs this process may run on: its affinity where the system has one (a
** container's cpuset or taskset gives fewer than the machine's online cores),
** else the online cores. */
static int usable_cpus(void)
{
#if OB_BATCH_PIN
    cpu_set_t set;
    int c = allowed_cpus(&set);
    if (c >= 1) return c > OB_BATCH_MAX_THREADS ? OB_BATCH_MAX_THREADS : c;
#endif
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1 : n > OB_BATCH_MAX_THREADS ? OB_BATCH_MAX_THREADS : (int)n;
}

#if defined(__GNUC__)
__attribute__((format(printf, 3, 4)))
#endif
static void set_error(ob_error *err, ob_status status, const char *fmt, ...)
{
    if (!err) return;
    err->status = status;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->message, sizeof err->message, fmt, ap);
    va_end(ap);
}

ob_batch *ob_batch_create(int threads, ob_error *err)
{
    if (threads < 0 || threads > OB_BATCH_MAX_THREADS) {
        set_error(err, OB_ERR_ARGUMENT, "batch: threads must be 0 (the usable CPUs) to %d, got %d", OB_BATCH_MAX_THREADS,
                  threads);
        return NULL;
    }
    ob_batch *b = calloc(1, sizeof *b);
    if (!b) goto oom;
    int cpus = usable_cpus();
    b->threads = threads ? threads : cpus;
    b->spin = b->threads <= cpus;
    b->pinned_off = -1;
    b->pid = getpid();
    b->workers = calloc((size_t)b->threads, sizeof *b->workers);
    if (!b->workers) {
        free(b);
        goto oom;
    }
    pthread_mutex_init(&b->call, NULL);
    pthread_mutex_init(&b->m, NULL);
    pthread_cond_init(&b->go, NULL);
    pthread_cond_init(&b->done, NULL);
    atomic_init(&b->next, 0);
    atomic_init(&b->generation, 0);
    atomic_init(&b->quit, 0);
    atomic_init(&b->pending, 0);
    for (int s = 0; s < b->threads; s++) {
        b->workers[s].batch = b;
        b->workers[s].slot = s;
    }
    for (int s = 1; s < b->threads; s++) {
        if (pthread_create(&b->workers[s].thread, NULL, worker_main, &b->workers[s]) != 0) {
            int total = b->threads;
            ob_batch_free(b);
            set_error(err, OB_ERR_MEMORY, "batch: could not start thread %d of %d", s, total);
            return NULL;
        }
        b->started = s;
    }
    return b;
oom:
    set_error(err, OB_ERR_MEMORY, "out of memory");
    return NULL;
}

void ob_batch_free(ob_batch *b)
{
    if (!b) return;
    if (getpid() == b->pid) {  /* in a fork's child the workers do not exist: nothing to join */
        pthread_mutex_lock(&b->m);
        atomic_store(&b->quit, 1);
        pthread_cond_broadcast(&b->go);
        pthread_mutex_unlock(&b->m);
        for (int s = 1; s <= b->started; s++) pthread_join(b->workers[s].thread, NULL);
    }
    pthread_cond_destroy(&b->go);
    pthread_cond_destroy(&b->done);
    pthread_mutex_destroy(&b->m);
    pthread_mutex_destroy(&b->call);
    free(b->seen);
    free(b->workers);
    free(b);
}

int ob_batch_threads(const ob_batch *b) { return b->threads; }

ob_status ob_batch_thread_stats(ob_batch *b, int slot, double *cpu_seconds, uint64_t *instances)
{
    if (slot < 0 || slot >= b->threads) return OB_ERR_ARGUMENT;
    pthread_mutex_lock(&b->call);  /* not while a call runs */
    if (cpu_seconds) *cpu_seconds = b->workers[slot].cpu;
    if (instances) *instances = b->workers[slot].items;
    pthread_mutex_unlock(&b->call);
    return OB_OK;
}

/* Every instance non-NULL, posed from a document, and named once; dt one
** that ob_instance_advance accepts.  Nothing moves before this passes. */
static ob_status check_job(ob_batch *b, ob_instance *const *insts, size_t n, double dt, ob_error *err)
{
    if (!(fabs(dt) <= OB_MAX_DT)) {
        set_error(err, OB_ERR_ARGUMENT, "batch: dt must be finite with |dt| <= %g, got %g", OB_MAX_DT, dt);
        return OB_ERR_ARGUMENT;
    }
    if (n > 0 && !insts) {
        set_error(err, OB_ERR_ARGUMENT, "batch: %zu instances but no array", n);
        return OB_ERR_ARGUMENT;
    }
    if (n > SIZE_MAX / 4 / sizeof *b->seen) {
        set_error(err, OB_ERR_ARGUMENT, "batch: %zu instances is too many", n);
        return OB_ERR_ARGUMENT;
    }
    size_t cap = 16;
    while (cap < 2 * n) cap *= 2;
    if (cap > b->seen_cap) {  /* grows once to the largest call's size */
        const ob_instance **t = malloc(cap * sizeof *t);
        if (!t) {
            set_error(err, OB_ERR_MEMORY, "out of memory");
            return OB_ERR_MEMORY;
        }
        free(b->seen);
        b->seen = t;
        b->seen_cap = cap;
    }
    cap = b->seen_cap;
    memset(b->seen, 0, cap * sizeof *b->seen);
    for (size_t i = 0; i < n; i++) {
        const ob_instance *inst = insts[i];
        if (!inst) {  /* not inst->doc: one cache miss per instance, serial, and never NULL from ob_instance_create */
            set_error(err, OB_ERR_ARGUMENT, "batch: instance %zu is NULL", i);
            return OB_ERR_ARGUMENT;
        }
        uint64_t h = (uint64_t)(uintptr_t)inst * 0x9e3779b97f4a7c15ULL;
        for (size_t k = (size_t)(h >> 32) & (cap - 1);; k = (k + 1) & (cap - 1)) {
            if (!b->seen[k]) {
                b->seen[k] = inst;
                break;
            }
            if (b->seen[k] == inst) {
                size_t first = 0;
                while (insts[first] != inst) first++;
                set_error(err, OB_ERR_ARGUMENT, "batch: instance %zu is instance %zu again (each instance once)", i,
                          first);
                return OB_ERR_ARGUMENT;
            }
        }
    }
    return OB_OK;
}

/* Keeps the workers off the calling thread's CPU (see the top of the file). */
static void place_workers(ob_batch *b)
{
#if OB_BATCH_PIN
    int cpu = sched_getcpu();
    if (cpu < 0 || cpu == b->pinned_off) return;
    b->pinned_off = cpu;
    cpu_set_t set;
    if (allowed_cpus(&set) < 2 || cpu >= CPU_SETSIZE || !CPU_ISSET(cpu, &set)) return;
    CPU_CLR(cpu, &set);
    for (int s = 1; s <= b->started; s++) (void)pthread_setaffinity_np(b->workers[s].thread, sizeof set, &set);
#else
    (void)b;
#endif
}

static ob_status run(ob_batch *b, ob_instance *const *insts, size_t n, double dt, int steps, double *const *out,
                     ob_error *err)
{
    pthread_mutex_lock(&b->call);
    ob_status st = check_job(b, insts, n, dt, err);
    if (st != OB_OK || n == 0) {
        pthread_mutex_unlock(&b->call);
        return st;
    }
    b->insts = insts;
    b->n = n;
    b->dt = dt;
    b->steps = steps;
    b->out = out;
    atomic_store_explicit(&b->next, 0, memory_order_relaxed);
    /* one instance: the caller alone; more: every worker (the idle ones return
    ** at once); in a fork's child (no workers there) the caller alone */
    int helpers = n > 1 && b->started > 0 && getpid() == b->pid;
    if (helpers) {
        place_workers(b);
        atomic_store_explicit(&b->pending, b->started, memory_order_relaxed);
        pthread_mutex_lock(&b->m);  /* the job's fields above are published by the release */
        atomic_fetch_add_explicit(&b->generation, 1, memory_order_release);
        pthread_cond_broadcast(&b->go);
        pthread_mutex_unlock(&b->m);
    }
    run_job(b, &b->workers[0]);
    if (helpers) {
        if (b->spin) spin_while_pending(b, OB_BATCH_WAIT_SPIN_NS);  /* the workers are on their last instances */
        pthread_mutex_lock(&b->m);
        while (atomic_load_explicit(&b->pending, memory_order_acquire) > 0) pthread_cond_wait(&b->done, &b->m);
        pthread_mutex_unlock(&b->m);
    }
    pthread_mutex_unlock(&b->call);
    return OB_OK;
}

ob_status ob_batch_advance(ob_batch *b, ob_instance *const *insts, size_t n, double dt, ob_error *err)
{
    return run(b, insts, n, dt, 0, NULL, err);
}

ob_status ob_batch_bake(ob_batch *b, ob_instance *const *insts, size_t n, double dt, int steps, double *const *out,
                        ob_error *err)
{
    if (steps < 0 || (steps > 0 && n > 0 && !out)) {
        if (steps < 0) set_error(err, OB_ERR_ARGUMENT, "batch: steps must be >= 0, got %d", steps);
        else set_error(err, OB_ERR_ARGUMENT, "batch: a bake of %d steps needs an output array", steps);
        return OB_ERR_ARGUMENT;
    }
    for (size_t i = 0; steps > 0 && i < n; i++)
        if (!out[i]) {
            set_error(err, OB_ERR_ARGUMENT, "batch: bake output %zu is NULL", i);
            return OB_ERR_ARGUMENT;
        }
    if (steps == 0) {  /* nothing to do, but the same checks */
        pthread_mutex_lock(&b->call);
        ob_status st = check_job(b, insts, n, dt, err);
        pthread_mutex_unlock(&b->call);
        return st;
    }
    return run(b, insts, n, dt, steps, out, err);
}
