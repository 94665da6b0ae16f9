// SPDX-License-Identifier: MIT
// The context: allocator, error and warning handlers, last error. First object created, last
// destroyed.
#ifndef RODRIGUES_CONTEXT_H
#define RODRIGUES_CONTEXT_H

#include <stddef.h>

#include "rodrigues/export.h"
#include "rodrigues/status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct rdContext_ rdContext;

// Allocator used for every allocation the library makes. Functions receive `user`.
// `malloc` returns NULL on failure; `free` accepts NULL.
typedef struct rdAllocator_ {
  void* (*malloc)(size_t size, void* user);
  void (*free)(void* ptr, void* user);
  void* user;
} rdAllocator;

// Error handler, called once for every error raised inside the library (status < 0), and for
// recoverable statuses (> 0) that end a call. `message` is the full text, already stored as the
// context's last error. The handler must not call back into the library with this context.
typedef void (*rdErrorHandler)(int status, const char* message, void* user);

// Warning handler, called with the text of each warning: something the library read and
// accepted but that the caller should change (a deprecated option key). A warning does not end
// the call and changes no status; each kind is reported once per context.
typedef void (*rdWarningHandler)(const char* message, void* user);

// Create a context. `alloc` may be NULL (the C library malloc/free are used); it is copied.
// Returns RD_OK, RD_ERR_ARG (ctx NULL) or RD_ERR_NOMEM. No globals: any number of contexts may
// coexist in one process, one per host thread.
RD_API int rd_createContext(rdContext** ctx, const rdAllocator* alloc);

// Destroy a context and set *ctx to NULL. Accepts NULL and *ctx == NULL. While specs or models
// made with it exist it destroys nothing: *ctx stays, usable, with the last error RD_ERR_STATE.
// After it succeeds, every handle of the context, itself included, is invalid (undefined to use;
// docs/api.md "Handles").
RD_API void rd_destroyContext(rdContext** ctx);

// Set the error handler (NULL: none, the default). Returns RD_OK or RD_ERR_HANDLE.
RD_API int rd_setErrorHandler(rdContext* ctx, rdErrorHandler handler, void* user);

// Set the warning handler (NULL: none, the default; warnings are then dropped). Returns RD_OK or
// RD_ERR_HANDLE.
RD_API int rd_setWarningHandler(rdContext* ctx, rdWarningHandler handler, void* user);

// Status of the last error recorded in this context (RD_OK if none since the last clear).
RD_API int rd_lastStatus(const rdContext* ctx);

// Text of the last error recorded in this context ("" if none). Valid until the next call
// that records an error or clears it.
RD_API const char* rd_lastError(const rdContext* ctx);

// Source location (library file, line, function) where the last error was raised.
// Any of the outputs may be NULL. Returns RD_OK or RD_ERR_HANDLE.
RD_API int rd_lastErrorLocation(const rdContext* ctx, const char** file, int* line,
                                const char** func);

// Forget the last error.
RD_API void rd_clearError(rdContext* ctx);

// Version string of the library, e.g. "0.1.0".
RD_API const char* rd_version(void);

#ifdef __cplusplus
}
#endif

#endif  // RODRIGUES_CONTEXT_H
