// SPDX-License-Identifier: MIT
// OpenFAST BeamDyn's output channels for a rodrigues beam model, and BeamDyn's output rows read
// back (beamdyn_rows.c): what tests/test_beamdyn.c and bench/beamdyn_rows.c compare.
//
// The 18 channels of BeamDyn's r-test rows, in this order: RootFxr RootFyr RootFzr RootMxr
// RootMyr RootMzr (the root reaction, in the root frame r), N1Fxl N1Fyl N1Fzl N1Mxl N1Myl N1Mzl
// (the same force and moment in the first node's section frame l), TipTDxr TipTDyr TipTDzr (the
// tip's displacement relative to the root's rigid motion, in r), TipRDxr TipRDyr TipRDzr (the
// tip's rotation relative to it, Wiener-Milenkovic c = 4 tan(theta/4) n, in r). Frames as
// BeamDyn's Calc_WriteOutput: r is the blade frame turned with the root, l a node's section
// frame with BeamDyn's axis order (x, y the section axes, z along the beam: our body y, z, x).
#ifndef RD_TEST_BEAMDYN_ROWS_H
#define RD_TEST_BEAMDYN_ROWS_H

#include "rodrigues/rodrigues.h"

enum { BD_NCHAN = 18 };

// the channel names, in the order above
extern const char* const BD_CHANNEL[BD_NCHAN];

// what the channels are measured from: the root and tip nodes, the joint holding the root (its
// reaction is the root force) and their states at the start
typedef struct {
  int root, tip, joint;
  double dcm[9];  // BeamDyn's GlbDCM, rows: global -> blade frame at the start
  double xr0[3], qr0[4], xt0[3], qt0[4];
} bdProbe;

// at the model's current (initial) state; dcm NULL: identity. The joint is the one named "root".
// Returns 0, or -1 if a node or the joint is missing.
int bd_probeInit(bdProbe* p, const rdModel* m, const rdData* d, const char* root, const char* tip,
                 const double* dcm);

// the 18 channels at the current state
void bd_probeChannels(const bdProbe* p, const rdModel* m, const rdData* d, double out[BD_NCHAN]);

// BeamDyn output rows: time and the 18 channels above (NAN where the file has no such channel)
typedef struct {
  int n;
  double* t;  // n
  double* v;  // n x BD_NCHAN
} bdRows;

// reads BeamDyn's .out (a header line starting with "Time" names the channels; its units line
// and the banner are skipped) or headerless rows in the channel order above (the *_tight.out
// files). Returns 0 or -1 (message printed); free with bd_freeRows.
int bd_readRows(const char* path, bdRows* r);
void bd_freeRows(bdRows* r);

#endif  // RD_TEST_BEAMDYN_ROWS_H
