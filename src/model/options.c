// SPDX-License-Identifier: MIT
// The option table: every option's key, type, range, default and help, in one place.
#include "src/model/options.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "rodrigues/model.h"
#include "rodrigues/spec.h"
#include "src/core/core.h"
#include "src/core/strutil.h"

typedef enum { OPT_REAL, OPT_INT, OPT_BOOL, OPT_ENUM } optType;

typedef struct {
  const char* key;
  optType type;
  size_t offset;
  double min, max;           // inclusive bounds (REAL, INT)
  int min_open;              // 1: min itself is excluded
  const char* const* names;  // ENUM: value names, NULL-terminated
  const char* deflt;
  const char* help;
} optEntry;

static const char* const method_names[] = {
    "generalized_alpha", "static",   "nmb", "nms",    "liemid_e1", "liemid_e2",
    "liemid_ea",         "liemid_i", "sw",  "hstagm", "akw",       NULL};

static const char* const linsol_names[] = {"auto", "klu", "umfpack", "cholmod", "dense", NULL};

static const char* const formulation_names[] = {"index3", "stabilized", NULL};

static const char* const frame_names[] = {"spatial", "body", NULL};

static const char* const redundant_names[] = {"remove", "error", NULL};

static const char* const initial_acc_names[] = {"consistent", "zero", NULL};

static const char* const newton_test_names[] = {"estimate", "increment", NULL};

static const char* const bool_names[] = {"false", "true", NULL};

#define OFF(field) offsetof(rdOptions, field)

static const optEntry table[] = {
    {"solver.method", OPT_ENUM, OFF(method), 0, 0, 0, method_names, "generalized_alpha",
     "time-stepping method"},
    {"solver.start_time", OPT_REAL, OFF(start_time), -1e300, 1e300, 0, NULL, "0", "start time (s)"},
    {"solver.time_step", OPT_REAL, OFF(time_step), 0, 1e300, 1, NULL, "0.001",
     "time step (s), > 0"},
    {"solver.final_time", OPT_REAL, OFF(final_time), -1e300, 1e300, 0, NULL, "1",
     "final time (s), >= start_time"},
    {"solver.max_step_cuts", OPT_INT, OFF(max_step_cuts), 0, 30, 0, NULL, "8",
     "times a failed step may be halved"},
    {"solver.adaptive", OPT_BOOL, OFF(adaptive), 0, 1, 0, bool_names, "false",
     "choose the step from the local error estimate: the estimates of a run add up to at most "
     "solver.tolerance (time_step is the first step; rows are interpolated at the output times)"},
    {"solver.tolerance", OPT_REAL, OFF(tolerance), 0, 1e300, 1, NULL, "1e-3",
     "error the local error estimates of a run may add up to (m, rad): the adaptive steps' "
     "target; fixed-step runs warn when their estimate exceeds it"},
    {"solver.max_step", OPT_REAL, OFF(max_step), 0, 1e300, 0, NULL, "0",
     "adaptive: largest step (s); 0: no limit"},
    {"solver.max_iter", OPT_INT, OFF(max_iter), 1, 1000, 0, NULL, "20",
     "Newton iterations per step"},
    {"solver.atol", OPT_REAL, OFF(atol), 0, 1e300, 1, NULL, "1e-8",
     "absolute tolerance of the Arnold-Hante error norm"},
    {"solver.rtol", OPT_REAL, OFF(rtol), 0, 1, 0, NULL, "1e-6",
     "relative tolerance of the Arnold-Hante error norm"},
    {"solver.linear_solver", OPT_ENUM, OFF(linear_solver), 0, 0, 0, linsol_names, "auto",
     "sparse linear solver"},
    {"solver.modified_newton", OPT_BOOL, OFF(modified_newton), 0, 1, 0, bool_names, "false",
     "reuse the factorization while Newton converges fast"},
    {"solver.newton_test", OPT_ENUM, OFF(newton_test), 0, 0, 0, newton_test_names, "estimate",
     "generalized_alpha, full Newton: stop when the error estimated to remain in the iterate, "
     "theta / (1 - theta) times the last correction, is within atol, rtol (estimate), or only "
     "when the last correction is (increment: the iterate lands far inside them)"},
    {"solver.redundant_constraints", OPT_ENUM, OFF(redundant), 0, 0, 0, redundant_names, "remove",
     "generalized_alpha, static: constraint equations that depend on others at the initial "
     "configuration (closed loops such as Bricard's): remove (hold their multipliers at zero "
     "and list them in summary.json) or error (fail, naming them)"},
    {"solver.redundant_tolerance", OPT_REAL, OFF(redundant_tol), 0, 1, 1, NULL, "1e-8",
     "relative pivot of the rank-revealing QR of the loop equations below which an equation is "
     "redundant, (0, 1]"},
    {"solver.rho_inf", OPT_REAL, OFF(rho_inf), 0, 1, 0, NULL, "0.9",
     "generalized-alpha spectral radius at infinity, [0, 1]"},
    {"solver.initial_acceleration", OPT_ENUM, OFF(initial_acc), 0, 0, 0, initial_acc_names,
     "consistent",
     "generalized_alpha: the accelerations at the start, consistent (solved from the equations "
     "of motion and the constraints) or zero (a start from rest, as Kynema's)"},
    {"solver.formulation", OPT_ENUM, OFF(formulation), 0, 0, 0, formulation_names, "index3",
     "generalized-alpha constraints: index3 (positions) or stabilized (positions and "
     "velocities, index 2; needed for rho_inf near 1)"},
    {"solver.rotation_frame", OPT_ENUM, OFF(rotation_frame), 0, 0, 0, frame_names, "spatial",
     "generalized-alpha rotation update: spatial (R = exp(psi) R_n, spatial angular velocity; "
     "more accurate on spinning bodies) or body (R = R_n exp(psi), body angular velocity: the "
     "default of 0.1, kept for one release)"},
    {"solver.load_steps", OPT_INT, OFF(load_steps), 1, 1000000, 0, NULL, "1",
     "static: initial number of load increments"},
    {"solver.rigid_tolerance", OPT_REAL, OFF(rigid_tol), 0, 1e-2, 1, NULL, "1e-14",
     "rigid steppers: relative tolerance of the inner Newton solves"},
    {"solver.rigid_max_iter", OPT_INT, OFF(rigid_max_iter), 1, 1000, 0, NULL, "50",
     "rigid steppers: inner Newton iteration limit"},
    {"solver.threads", OPT_INT, OFF(threads), 0, 1024, 0, NULL, "1",
     "threads evaluating beam elements (builds with OpenMP; 0: OpenMP's default, e.g. "
     "OMP_NUM_THREADS); results do not depend on it"},
    {"output.netcdf", OPT_BOOL, OFF(output_netcdf), 0, 1, 0, bool_names, "false",
     "also write DIR/history.nc (NetCDF-4: node states, joint reactions, energies)"},
    {"output.netcdf_deflate", OPT_INT, OFF(output_netcdf_deflate), 0, 9, 0, NULL, "4",
     "history.nc: zlib deflate level of the numeric variables, with the shuffle filter "
     "(0: uncompressed)"},
    {"output.vtk", OPT_BOOL, OFF(output_vtk), 0, 1, 0, bool_names, "false",
     "also write DIR/results.pvd and DIR/vtk/*.vtu (ParaView: nodes, beams, section forces)"},
    {"output.every", OPT_INT, OFF(output_every), 1, 1000000000, 0, NULL, "1",
     "steps between history rows (the final time is always written)"},
};

#define NOPT ((int)(sizeof(table) / sizeof(table[0])))

// renamed keys, still read (with a warning) for one release after the rename; the index of an
// entry is its kind of warning (rd_warnOnce)
static const struct {
  const char* old;
  const char* key;
} renamed[] = {
    {"solver.rigid_tol", "solver.rigid_tolerance"},  // tolerances are spelled out, as
                                                     // solver.redundant_tolerance
};

#define NRENAMED ((int)(sizeof(renamed) / sizeof(renamed[0])))


static const optEntry* find(const char* key) {
  for (int i = 0; i < NOPT; i++) {
    if (!strcmp(table[i].key, key)) {
      return table + i;
    }
  }
  return NULL;
}


static int enum_index(const char* const* names, const char* value) {
  for (int i = 0; names[i]; i++) {
    if (!strcmp(names[i], value)) {
      return i;
    }
  }
  return -1;
}


static int enum_count(const char* const* names) {
  int n = 0;
  while (names[n]) {
    n++;
  }
  return n;
}


static int set_entry(rdContext* ctx, rdOptions* opt, const optEntry* e, const char* value) {
  char* base = (char*)opt + e->offset;
  if (e->type == OPT_ENUM || e->type == OPT_BOOL) {
    int k = enum_index(e->names, value);
    if (k < 0 && e->type == OPT_BOOL) {
      k = !strcmp(value, "1") ? 1 : !strcmp(value, "0") ? 0 : -1;
    }
    if (k < 0) {
      char list[512] = "";
      for (int i = 0; e->names[i]; i++) {
        strncat(list, i ? ", " : "", sizeof(list) - strlen(list) - 1);
        strncat(list, e->names[i], sizeof(list) - strlen(list) - 1);
      }
      const char* near = rd_closestName(value, e->names, enum_count(e->names));
      if (near) {
        return RD_ERROR(ctx, RD_ERR_ARG, "unknown value '%s' for %s (did you mean '%s'?)", value,
                        e->key, near);
      }
      return RD_ERROR(ctx, RD_ERR_ARG, "unknown value '%s' for %s (expected one of: %s)", value,
                      e->key, list);
    }
    *(int*)base = k;
    return RD_OK;
  }
  double v;
  if (e->type == OPT_INT) {
    int iv;
    if (rd_parseInt(value, &iv)) {
      return RD_ERROR(ctx, RD_ERR_ARG, "%s must be an integer, not '%s'", e->key, value);
    }
    v = iv;
  } else if (rd_parseReal(value, &v)) {
    return RD_ERROR(ctx, RD_ERR_ARG, "%s must be a finite number, not '%s'", e->key, value);
  }
  if (v < e->min || v > e->max || (e->min_open && v == e->min)) {
    if (e->min_open && e->max >= 1e300) {
      return RD_ERROR(ctx, RD_ERR_ARG, "%s must be > %g, got %s", e->key, e->min, value);
    }
    return RD_ERROR(ctx, RD_ERR_ARG, "%s must be in [%g, %g], got %s", e->key, e->min, e->max,
                    value);
  }
  if (e->type == OPT_INT) {
    *(int*)base = (int)v;
  } else {
    *(double*)base = v;
  }
  return RD_OK;
}


const char* rd_optionKey(rdContext* ctx, const char* key, const char* where) {
  for (int i = 0; key && i < NRENAMED; i++) {
    if (!strcmp(key, renamed[i].old)) {
      rd_warnOnce(ctx, i,
                  "%s%soption '%s' is deprecated: use '%s' (the old name is read for one "
                  "more release)",
                  where ? where : "", where ? ": " : "", key, renamed[i].key);
      return renamed[i].key;
    }
  }
  return key;
}


int rd_optionDeprecated(int i, const char** old, const char** key) {
  if (i >= 0 && i < NRENAMED) {
    if (old) {
      *old = renamed[i].old;
    }
    if (key) {
      *key = renamed[i].key;
    }
  }
  return NRENAMED;
}


int rd_optionSet(rdContext* ctx, rdOptions* opt, const char* key, const char* value) {
  if (!key || !value) {
    return RD_ERROR(ctx, RD_ERR_ARG, "option key and value are required");
  }
  key = rd_optionKey(ctx, key, NULL);
  const optEntry* e = find(key);
  if (!e) {
    const char* keys[NOPT];
    for (int i = 0; i < NOPT; i++) {
      keys[i] = table[i].key;
    }
    const char* near = rd_closestName(key, keys, NOPT);
    if (near) {
      return RD_ERROR(ctx, RD_ERR_ARG, "unknown option '%s' (did you mean '%s'?)", key, near);
    }
    return RD_ERROR(ctx, RD_ERR_ARG, "unknown option '%s'", key);
  }
  return set_entry(ctx, opt, e, value);
}


int rd_optionGet(const rdOptions* opt, const char* key, char* buf, int size) {
  const optEntry* e = key ? find(key) : NULL;
  if (!e || size < 0 || (!buf && size > 0)) {
    return RD_ERR_ARG;
  }
  const char* base = (const char*)opt + e->offset;
  switch (e->type) {
    case OPT_REAL:
      return snprintf(buf, (size_t)size, "%.17g", *(const double*)base);
    case OPT_INT:
      return snprintf(buf, (size_t)size, "%d", *(const int*)base);
    default:
      return snprintf(buf, (size_t)size, "%s", e->names[*(const int*)base]);
  }
}


int rd_optionGetText(rdContext* ctx, const rdOptions* opt, const char* fn, const char* key,
                     char* buf, int size) {
  key = rd_optionKey(ctx, key, NULL);
  if (!key || !find(key)) {
    return RD_ERROR(ctx, RD_ERR_ARG, "%s: unknown option '%s'", fn, key ? key : "(null)");
  }
  if (!buf || size <= 0) {
    return RD_ERROR(ctx, RD_ERR_ARG, "%s: no buffer for the value of '%s'", fn, key);
  }
  int n = rd_optionGet(opt, key, buf, size);
  if (n >= size) {
    buf[0] = '\0';
    return RD_ERROR(ctx, RD_ERR_ARG,
                    "%s: a buffer of %d bytes is too short for the value of '%s' (%d needed)", fn,
                    size, key, n + 1);
  }
  return RD_OK;
}


double rd_optionReal(const rdOptions* opt, const char* key) {
  const optEntry* e = key ? find(key) : NULL;
  if (!e) {
    return NAN;
  }
  const char* base = (const char*)opt + e->offset;
  if (e->type == OPT_REAL) {
    return *(const double*)base;
  }
  return (double)*(const int*)base;
}


int rd_optionIndex(const char* key) {
  const optEntry* e = key ? find(key) : NULL;
  return e ? (int)(e - table) : -1;
}


const char* rd_optionValueName(const char* key, int value) {
  const optEntry* e = key ? find(key) : NULL;
  if (!e || (e->type != OPT_ENUM && e->type != OPT_BOOL) || value < 0 ||
      value >= enum_count(e->names)) {
    return NULL;
  }
  return e->names[value];
}


void rd_defaultOptions(rdOptions* opt) {
  memset(opt, 0, sizeof(*opt));
  for (int i = 0; i < NOPT; i++) {
    // defaults are valid by construction; a failure here is a bug in the table
    rdContext dummy = {0};
    (void)set_entry(&dummy, opt, table + i, table[i].deflt);
  }
}


int rd_optionList(int i, const char** key, const char** type, const char** deflt,
                  const char** help) {
  static const char* const types[] = {"real", "int", "bool", "enum"};
  if (i >= 0 && i < NOPT) {
    if (key) {
      *key = table[i].key;
    }
    if (type) {
      *type = types[table[i].type];
    }
    if (deflt) {
      *deflt = table[i].deflt;
    }
    if (help) {
      *help = table[i].help;
    }
  }
  return NOPT;
}


const char* rd_methodName(int method) {
  if (method < 0 || method >= RD_METHOD_COUNT) {
    return NULL;
  }
  return method_names[method];
}
