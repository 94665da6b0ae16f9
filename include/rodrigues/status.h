// SPDX-License-Identifier: MIT
// Status codes: 0 ok, >0 recoverable (the step can be cut and retried), <0 fatal.
#ifndef RODRIGUES_STATUS_H
#define RODRIGUES_STATUS_H

#include "rodrigues/export.h"

#ifdef __cplusplus
extern "C" {
#endif

// X(name, value, text): the one list that makes the enum and rd_statusString
#define RD_STATUS_LIST(X)                                             \
  X(RD_OK, 0, "ok")                                                   \
  X(RD_RECOVER_NEWTON, 1, "Newton iteration did not converge")        \
  X(RD_RECOVER_SINGULAR, 2, "singular iteration matrix")              \
  X(RD_RECOVER_NONFINITE, 3, "non-finite value in the solution")      \
  X(RD_RECOVER_CALLBACK, 4, "user callback asked for a smaller step") \
  X(RD_ERR_ARG, -1, "invalid argument")                               \
  X(RD_ERR_NOMEM, -2, "out of memory")                                \
  X(RD_ERR_IO, -3, "input/output error")                              \
  X(RD_ERR_DECK, -4, "invalid input deck")                            \
  X(RD_ERR_MODEL, -5, "invalid model")                                \
  X(RD_ERR_STATE, -6, "call out of sequence")                         \
  X(RD_ERR_UNSUPPORTED, -7, "method cannot handle this model")        \
  X(RD_ERR_NUMERIC, -8, "numerical failure")                          \
  X(RD_ERR_CALLBACK, -9, "user callback failed")                      \
  X(RD_ERR_HANDLE, -10, "invalid or destroyed handle")                \
  X(RD_ERR_LIBRARY, -11, "external library failure")

typedef enum rdStatus_ {
#define RD_STATUS_ENUM(name, value, text) name = value,
  RD_STATUS_LIST(RD_STATUS_ENUM)
#undef RD_STATUS_ENUM
} rdStatus;

// Return the fixed English text of a status code ("unknown status" for any other value).
RD_API const char* rd_statusString(int status);

// Return the identifier of a status code, e.g. "RD_ERR_ARG" ("RD_UNKNOWN" for any other value).
RD_API const char* rd_statusName(int status);

#ifdef __cplusplus
}
#endif

#endif  // RODRIGUES_STATUS_H
