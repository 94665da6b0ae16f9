// SPDX-License-Identifier: MIT
// Private core: the context struct, error raising, allocation helpers, handle magic numbers.
#ifndef RD_CORE_H
#define RD_CORE_H

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

// value put in def cookies by rd_default*Def
#define RD_DEF_COOKIE 0x5244

#define RD_ERRLEN 2048

struct rdContext_ {
  uint32_t magic;
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

// kinds of warning (rd_warnOnce): renamed options take 0 .. (their count - 1) (options.c)
#define RD_WARN_CHECKPOINT_CHANGED 31  // a checkpoint resumed with a changed model

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
