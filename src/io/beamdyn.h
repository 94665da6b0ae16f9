// SPDX-License-Identifier: MIT
// OpenFAST BeamDyn (v5) input files: readers of the driver, primary and blade files
// (beamdyn_files.c) and BeamDyn's reference line, key-point fit and section frames
// (beamdyn_line.c). One code path for the importer (import_beamdyn.c) and the deck reader
// (deck_beamdyn.c); docs/import.md.
#ifndef RD_BEAMDYN_H
#define RD_BEAMDYN_H

#include "rodrigues/context.h"
#include "rodrigues/spec.h"

#define RD_BD_MAXPATH 4096

// Errors of the readers. With `where` NULL (the importer): "FILE:LINE: message" (or "FILE:
// message"), RD_ERR_IO for a file that cannot be read, RD_ERR_DECK for malformed or unsupported
// input. With `where` the position of a deck value ("DECK:LINE:COL"): "WHERE: beamdyn KIND file
// 'FILE' line LINE: message" (or "... 'FILE': message"), always RD_ERR_DECK. RD_ERR_NOMEM
// passes through. File names inside a file are resolved against that file's directory.

// driver file
typedef struct rdBdDriver_ {
  int dynamic;                  // DynamicSolve
  double t0, tf, dt;            // t_initial, t_final, dt
  double g[3];                  // Gx Gy Gz (global)
  double pos[3];                // GlbPos: origin of the blade frame (global)
  double dcm[9];                // GlbDCM, row-major, a rotation: v_blade = GlbDCM v_global
  double rootvel[3];            // RootVel(4:6), global
  double distr[6], tip[6];      // DistrLoad, TipLoad
  char primary[RD_BD_MAXPATH];  // InputFile
} rdBdDriver;

// primary file (one member)
typedef struct rdBdPrimary_ {
  int qsi_line;               // line of QuasiStaticInit when it is True, else 0
  double rhoinf, dtbeam;      // rhoinf; DTBeam (0: "DEFAULT")
  int quadrature;             // 1 Gauss, 2 trapezoidal over the stations (refine 1 only)
  int order;                  // order_elem (1 .. RD_BEAM_MAX_NODES - 1)
  int nkp;                    // kp_total (>= 3)
  double* kp;                 // nkp x 4: kp_xr, kp_yr, kp_zr (blade frame), twist (deg)
  char blade[RD_BD_MAXPATH];  // BldFile
} rdBdPrimary;

// blade file, in rodrigues' section frame (beam axis x): C' = Q C Q^T, Q = diag(P, P),
// P = [[0,0,1],[1,0,0],[0,1,0]], for the stiffness and mass, mu permuted likewise
typedef struct rdBdBlade_ {
  int nst;        // station_total
  int damp_type;  // 0 or 1 (2, modal, is refused)
  double mu[6];   // damping (0 for damp_type 0)
  double* eta;    // nst stations, 0 .. 1 strictly increasing
  double* K;      // nst x 36 stiffness
  double* M;      // nst x 36 mass per length
} rdBdBlade;

// the element's nodes in global coordinates
typedef struct rdBdNodes_ {
  int n;                           // order + 1
  double x[RD_BEAM_MAX_NODES][3];  // positions
  double q[RD_BEAM_MAX_NODES][4];  // orientations (body x along the tangent)
} rdBdNodes;

// read a driver file
int rd_bdReadDriver(rdContext* ctx, const char* path, rdBdDriver* d);

// read a primary file; free with rd_bdFreePrimary (also after an error)
int rd_bdReadPrimary(rdContext* ctx, const char* path, const char* where, rdBdPrimary* p);
void rd_bdFreePrimary(rdContext* ctx, rdBdPrimary* p);

// read a blade file; free with rd_bdFreeBlade (also after an error)
int rd_bdReadBlade(rdContext* ctx, const char* path, const char* where, rdBdBlade* b);
void rd_bdFreeBlade(rdContext* ctx, rdBdBlade* b);

// the nodes of the primary's element: BeamDyn's least-squares fit of the key points, at the
// GLL points of the element, with BeamDyn's section frames, placed by the blade frame (origin
// `pos`, axes the columns of `Rb`, global): x = pos + Rb p, R_node = Rb [e3 e1 e2]
int rd_bdNodes(rdContext* ctx, const rdBdPrimary* p, const double pos[3], const double Rb[9],
               rdBdNodes* out);

#endif  // RD_BEAMDYN_H
