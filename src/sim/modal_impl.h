// SPDX-License-Identifier: MIT
// Private layouts of the linearization, the modes and the state-space model (the public API is
// include/rodrigues/modal.h; the writers in src/io read these).
#ifndef RD_MODAL_IMPL_H
#define RD_MODAL_IMPL_H

#include "rodrigues/modal.h"
#include "solver/csc.h"
#include "solver/linearize.h"
#include "src/model/model_impl.h"

#define RD_MAGIC_LIN 0x52444c4eu    // "RDLN"
#define RD_MAGIC_MODES 0x52444d44u  // "RDMD"
#define RD_MAGIC_SS 0x52445353u     // "RDSS"

struct rdLinearization_ {
  uint32_t magic;
  const rdModel* model;
  rdContext* ctx;
  double t;                 // operating time
  rdLinFrame frame;         // omega = spin_rate * axis
  double spin_rate;         // rad/s
  double axis[3];           // unit spin axis (0 without a spin)
  double* q;                // nnode x 7: operating configuration
  double* v;                // nnode x 6: its velocities (of the spin, or the data's)
  double* vd;               // nnode x 6
  double* lam;              // nconstraint
  rdCsc mat[RD_LIN_COUNT];  // M, D, K, B, N, Mr, Dr, Kr
  int rank;                 // of B
  int symmetric;            // D = 0, M and K symmetric
  double residual;          // largest |residual| at the operating point
  int steady_iterations;
};

struct rdModes_ {
  uint32_t magic;
  const rdModel* model;
  rdContext* ctx;
  int count;
  int nnode;
  double* q;         // nnode x 7: the operating configuration
  double t;          // the operating time
  double spin_rate;  // rad/s
  double axis[3];    // unit spin axis (0 without)
  double center[3];  // spin center (the rotations of the mass fractions are about it)
  rdModeInfo* info;  // count
  double* re;        // count x nnode x 6
  double* im;        // count x nnode x 6
  rdModesInfo stats;
};

// one channel's name for files and messages ("force tip z", "reaction root moment x", ...)
void rd_ssChannelName(const rdModel* m, const rdSsChannel* c, int input, int rate, char* buf,
                      int size);

struct rdStateSpace_ {
  uint32_t magic;
  const rdModel* model;
  rdContext* ctx;
  int nx, nu, ny;
  double *A, *B, *C, *D;  // column-major
  char** uname;           // nu input names
  char** yname;           // ny output names
  double t;               // operating time
  double spin_rate;
};

// 1 if the handles are live
int rd_linValid(const rdLinearization* lin);
int rd_modesValid(const rdModes* modes);
int rd_ssValid(const rdStateSpace* ss);

#endif  // RD_MODAL_IMPL_H
