// SPDX-License-Identifier: MIT
// The context: allocator, error and warning handlers, the last error.
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rd_config.h"
#include "src/core/core.h"

static void* default_malloc(size_t size, void* user) {
  (void)user;
  return malloc(size);
}


static void default_free(void* ptr, void* user) {
  (void)user;
  free(ptr);
}


int rd_contextValid(const rdContext* ctx) {
  return ctx && ctx->magic == RD_MAGIC_CONTEXT;
}


int rd_createContext(rdContext** ctx, const rdAllocator* alloc) {
  if (!ctx) {
    return RD_ERR_ARG;
  }
  *ctx = NULL;
  rdAllocator a = {default_malloc, default_free, NULL};
  if (alloc) {
    if (!alloc->malloc || !alloc->free) {
      return RD_ERR_ARG;
    }
    a = *alloc;
  }
  rdContext* c = a.malloc(sizeof(rdContext), a.user);
  if (!c) {
    return RD_ERR_NOMEM;
  }
  memset(c, 0, sizeof(*c));
  if (pthread_mutex_init(&c->lock, NULL) != 0) {
    a.free(c, a.user);
    return RD_ERR_NOMEM;
  }
  atomic_init(&c->children, 0);
  c->magic = RD_MAGIC_CONTEXT;
  c->alloc = a;
  *ctx = c;
  return RD_OK;
}


void rd_destroyContext(rdContext** ctx) {
  if (!ctx || !*ctx || (*ctx)->magic != RD_MAGIC_CONTEXT) {
    return;
  }
  rdContext* c = *ctx;
  // everything made with the context keeps a pointer to it: refuse while any of it is alive
  int live = atomic_load(&c->children);
  if (live > 0) {
    RD_ERROR(c, RD_ERR_STATE,
             "rd_destroyContext: %d spec%s, model%s or sweep%s made with this context %s not "
             "destroyed; destroy them first (the context is kept)",
             live, live > 1 ? "s" : "", live > 1 ? "s" : "", live > 1 ? "s" : "",
             live > 1 ? "are" : "is");
    return;
  }
  rdAllocator a = c->alloc;
  for (int k = 0; k < RD_KINDS; k++) {
    for (int i = 0; i < RD_GRAVEYARD; i++) {
      if (c->grave[k][i]) {
        a.free(c->grave[k][i], a.user);
      }
    }
  }
  pthread_mutex_destroy(&c->lock);
  c->magic = 0;
  a.free(c, a.user);
  *ctx = NULL;
}


void rd_bury(rdContext* ctx, int kind, void* obj) {
  pthread_mutex_lock(&ctx->lock);
  int i = ctx->grave_next[kind];
  void* oldest = ctx->grave[kind][i];
  ctx->grave[kind][i] = obj;
  ctx->grave_next[kind] = (i + 1) % RD_GRAVEYARD;
  pthread_mutex_unlock(&ctx->lock);
  if (oldest) {
    ctx->alloc.free(oldest, ctx->alloc.user);
  }
}


int rd_setErrorHandler(rdContext* ctx, rdErrorHandler handler, void* user) {
  if (!rd_contextValid(ctx)) {
    return RD_ERR_HANDLE;
  }
  ctx->handler = handler;
  ctx->handler_user = user;
  return RD_OK;
}


int rd_setWarningHandler(rdContext* ctx, rdWarningHandler handler, void* user) {
  if (!rd_contextValid(ctx)) {
    return RD_ERR_HANDLE;
  }
  ctx->warn = handler;
  ctx->warn_user = user;
  return RD_OK;
}


int rd_lastStatus(const rdContext* ctx) {
  return rd_contextValid(ctx) ? ctx->last_status : RD_ERR_HANDLE;
}


const char* rd_lastError(const rdContext* ctx) {
  return rd_contextValid(ctx) ? ctx->last_error : "invalid context";
}


int rd_lastErrorLocation(const rdContext* ctx, const char** file, int* line, const char** func) {
  if (!rd_contextValid(ctx)) {
    return RD_ERR_HANDLE;
  }
  if (file) {
    *file = ctx->err_file;
  }
  if (line) {
    *line = ctx->err_line;
  }
  if (func) {
    *func = ctx->err_func;
  }
  return RD_OK;
}


void rd_clearError(rdContext* ctx) {
  if (!rd_contextValid(ctx)) {
    return;
  }
  ctx->last_status = RD_OK;
  ctx->last_error[0] = '\0';
  ctx->err_file = NULL;
  ctx->err_line = 0;
  ctx->err_func = NULL;
}


int rd_raise(rdContext* ctx, int status, const char* file, int line, const char* func,
             const char* fmt, ...) {
  if (!rd_contextValid(ctx)) {
    return status;
  }
  // formatted aside first: callers may pass the last error itself as an argument ("...: %s",
  // rd_lastError(ctx)) to wrap it, which vsnprintf into the same buffer would garble
  char msg[RD_ERRLEN];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof(msg), fmt, ap);
  va_end(ap);
  memcpy(ctx->last_error, msg, strlen(msg) + 1);
  ctx->last_status = status;
  ctx->err_file = file;
  ctx->err_line = line;
  ctx->err_func = func;
  if (ctx->handler) {
    ctx->handler(status, ctx->last_error, ctx->handler_user);
  }
  return status;
}


void rd_warnOnce(rdContext* ctx, int kind, const char* fmt, ...) {
  uint32_t bit = kind >= 0 && kind < 32 ? (uint32_t)1 << kind : 0;
  if (!rd_contextValid(ctx) || (ctx->warned & bit)) {
    return;
  }
  ctx->warned |= bit;
  if (ctx->warn) {
    char msg[RD_ERRLEN];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    ctx->warn(msg, ctx->warn_user);
  }
}


void* rd_alloc(rdContext* ctx, size_t size) {
  if (size == 0) {
    size = 1;
  }
  void* p = ctx->alloc.malloc(size, ctx->alloc.user);
  if (!p) {
    RD_ERROR(ctx, RD_ERR_NOMEM, "out of memory (%zu bytes)", size);
  }
  return p;
}


void* rd_calloc(rdContext* ctx, size_t count, size_t size) {
  if (size && count > (size_t)-1 / size) {
    RD_ERROR(ctx, RD_ERR_NOMEM, "allocation size overflow");
    return NULL;
  }
  void* p = rd_alloc(ctx, count * size);
  if (p) {
    memset(p, 0, count * size > 0 ? count * size : 1);
  }
  return p;
}


void rd_free(rdContext* ctx, void* ptr) {
  if (ptr) {
    ctx->alloc.free(ptr, ctx->alloc.user);
  }
}


char* rd_strdup(rdContext* ctx, const char* s) {
  if (!s) {
    return NULL;
  }
  size_t n = strlen(s) + 1;
  char* p = rd_alloc(ctx, n);
  if (p) {
    memcpy(p, s, n);
  }
  return p;
}


const char* rd_version(void) {
  return RD_VERSION_STRING;
}
