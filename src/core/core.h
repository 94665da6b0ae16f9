// SPDX-License-Identifier: MIT
// Private core: the context struct, error raising, allocation helpers, handle magic numbers.
#ifndef RD_CORE_H
#define RD_CORE_H

#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "rodrigues/context.h"
#include "rodrigues/status.h"

// magic numbers at the start of every opaque object; zeroed on destroy
#define RD_MAGIC_CONTEXT 0x52444358u  // "RDCX"
#define RD_MAGIC_SPEC 0x52445350u     // "RDSP"
#define RD_MAGIC_MODEL 0x52444d4fu    // "RDMO"
#define RD_MAGIC_DATA 0x52444441u     // "RDDA"
#define RD_MAGIC_HISTORY 0x52444853u  // "RDHS"

#define RD_MAGIC_DEAD 0x44454144u  // "DEAD": a destroyed object kept as a tombstone

// Destroyed objects (specs, models, data, writers, sweeps, collectors) are not freed at once: their
// memory stays allocated with the magic RD_MAGIC_DEAD, so that a stale copy of the handle is
// refused (RD_ERR_HANDLE) instead of read after free. Each context keeps the last RD_GRAVEYARD
// tombstones of each kind and frees the oldest beyond that, and all of them when it is
// destroyed (docs/api.md "Handles").
enum { RD_KIND_SPEC = 0, RD_KIND_MODEL, RD_KIND_DATA, RD_KIND_WRITER, RD_KIND_SWEEP, RD_KINDS };
#define RD_GRAVEYARD 64

// value put in def cookies by rd_default*Def
#define RD_DEF_COOKIE 0x5244

#define RD_ERRLEN 2048

struct rdContext_ {
  uint32_t magic;
  atomic_int children;   // specs, models and sweeps made with this context, not yet destroyed
  pthread_mutex_t lock;  // guards the graveyard (objects may be destroyed in several threads)
  void* grave[RD_KINDS][RD_GRAVEYARD];  // tombstones, oldest at grave_next
  int grave_next[RD_KINDS];
  rdAllocator alloc;
  rdErrorHandler handler;
  void* handler_user;
  int last_status;
  char last_error[RD_ERRLEN];
  const char* err_file;
  int err_line;
  const char* err_func;
  rdWarningHandler warn;
  void* warn_user;
  uint32_t warned;  // kinds of warning already given (rd_warnOnce)
};

// record an error in ctx (message from fmt), call the handler; returns status
int rd_raise(rdContext* ctx, int status, const char* file, int line, const char* func,
             const char* fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 6, 7)))
#endif
    ;

#define RD_ERROR(ctx, status, ...) \
  rd_raise((ctx), (status), __FILE__, __LINE__, __func__, __VA_ARGS__)

// kinds of warning (rd_warnOnce), one bit each of rdContext.warned (0..31): the renamed options
// take 0 .. (their count - 1), their indices in the table of renamed keys (options.c); the others
// count down from 31
enum {
  RD_WARN_CHECKPOINT_CHANGED = 31,  // a checkpoint resumed with a changed model
  RD_WARN_ADAPTIVE_INDEX3 = 30,     // solver.adaptive switched index 3 to the stabilized form
  RD_WARN_ERROR_ESTIMATE = 29       // a fixed-step run's error estimates passed solver.tolerance
};

// pass a warning (message from fmt) to ctx's warning handler, unless warning `kind` (0..31, one
// per kind of warning) was given in ctx before
void rd_warnOnce(rdContext* ctx, int kind, const char* fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

// allocation through the context allocator; raise RD_ERR_NOMEM on failure
void* rd_alloc(rdContext* ctx, size_t size);
void* rd_calloc(rdContext* ctx, size_t count, size_t size);
void rd_free(rdContext* ctx, void* ptr);
char* rd_strdup(rdContext* ctx, const char* s);  // NULL in -> NULL out (no error)

// 1 if ctx is a live context
int rd_contextValid(const rdContext* ctx);

// keep the destroyed object `obj` of `kind` (its magic already RD_MAGIC_DEAD, what it owned
// freed) as a tombstone of ctx, freeing the oldest one of its kind beyond RD_GRAVEYARD
void rd_bury(rdContext* ctx, int kind, void* obj);

// a parent's count of live children (a context's specs and models, a model's data and
// writers): one more, one fewer; atomic (data may be made and destroyed in several threads)
static inline void rd_adopt(atomic_int* children) {
  atomic_fetch_add(children, 1);
}

static inline void rd_release(atomic_int* children) {
  atomic_fetch_sub(children, 1);
}

// Work arrays carved from one block of doubles, each piece rounded to 64 bytes. One layout
// function serves for the size (base NULL: only counts) and for the pointers, so the two
// cannot disagree.
typedef struct {
  double* base;  // NULL: count only
  size_t used;   // doubles taken so far
} rdCarve;

// the next piece of n doubles (NULL when only counting)
static inline double* rd_carve(rdCarve* c, size_t n) {
  double* p = c->base ? c->base + c->used : NULL;
  c->used += (n + 8) & ~(size_t)7;
  return p;
}

// internal invariants: compiled in with -Dvalidate=true; never for user input
#if defined(RD_VALIDATE)
#define RD_ASSERT(ctx, cond) \
  ((cond) ? (void)0 : (void)RD_ERROR((ctx), RD_ERR_NUMERIC, "internal check failed: %s", #cond))
#else
#define RD_ASSERT(ctx, cond) ((void)0)
#endif

#endif  // RD_CORE_H
