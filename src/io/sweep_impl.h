// SPDX-License-Identifier: MIT
// Private layout of a sweep (rodrigues/sweep.h): its cases expanded, their overrides and ids.
#ifndef RD_SWEEP_IMPL_H
#define RD_SWEEP_IMPL_H

#include <stdatomic.h>
#include <stdint.h>

#include "rodrigues/sweep.h"

#define RD_MAGIC_SWEEP 0x52445357u      // "RDSW"
#define RD_MAGIC_COLLECTOR 0x5244434cu  // "RDCL"

// what a quantity takes of its samples
typedef enum { RD_SWEEP_MIN, RD_SWEEP_MAX, RD_SWEEP_ABSMAX, RD_SWEEP_FINAL } rdSweepOp;

struct rdSweep_ {
  uint32_t magic;
  rdContext* ctx;
  atomic_int children;  // collectors made for the sweep and not yet destroyed
  char* path;           // the sweep file
  char* deck;           // the base deck, resolved against the sweep file's directory
  // variables: deck paths and parameters that take values in the grid or the cases
  int nvar;
  char** var;     // nvar
  int* is_param;  // nvar: 1 for a parameter (not applied to the deck)
  char** var_at;  // nvar: "FILE:LINE:COL" of its first key in the grid or the cases
  // cases
  int ncase;
  char** value;             // ncase x nvar: YAML text, NULL where the case does not set it
  char** id;                // ncase
  char*** overrides;        // ncase: "KEY=VALUE" texts
  int* noverride;           // ncase
  char (*fingerprint)[17];  // ncase
  // collected quantities
  int nquantity;
  char** quantity;     // nquantity: "max(tip.z)"
  rdSweepOp* op;       // nquantity
  char** source;       // nquantity: "tip.z"
  char** quantity_at;  // nquantity: "FILE:LINE:COL"
  // every allocation above, freed together
  void** owned;
  int nowned, cowned;
};

// 1 if s is a live sweep
int rd_sweepValid(const rdSweep* s);

#endif  // RD_SWEEP_IMPL_H
