// SPDX-License-Identifier: MIT
// Sparsity pattern of the iteration matrix (CSC) and block scatter maps, built once per model.
#ifndef RD_PATTERN_H
#define RD_PATTERN_H

#include "src/model/model_impl.h"

// blocks are the nodes (ndof_i columns) followed by the joints (nrow_j multiplier columns);
// every coupled block pair is stored as a full dense block
typedef struct rdPattern_ {
  int n;  // ndof + nconstraint
  int nnz;
  int nblock;    // nnode + njoint
  int* boff;     // nblock: first row/column of the block
  int* bsize;    // nblock: rows/columns of the block
  int* Ap;       // n + 1: CSC column pointers
  int* Ai;       // nnz: CSC row indices (sorted in each column)
  int* adj_ptr;  // nblock + 1: coupled block rows of block column J in adj_row[adj_ptr[J]..]
  int* adj_row;  // block row index I, sorted
  int* adj_pos;  // 6 per entry: value index of (boff[I], boff[J] + k), k < bsize[J]
} rdPattern;

// build m->pattern (the implicit methods' rdStepper.prepare); RD_OK or RD_ERR_NOMEM
int rd_patternBuild(rdModel* m);

// free m->pattern (accepts a model without it)
void rd_patternDestroy(rdModel* m);

// value positions of block (I, J): pos[k] + i is the index of entry (boff[I] + i, boff[J] + k);
// NULL if the blocks are not coupled
const int* rd_patternBlock(const rdPattern* p, int I, int J);

#endif  // RD_PATTERN_H
