// SPDX-License-Identifier: MIT
// The columns of history.csv: names and the values of one row.
#include <stdio.h>
#include <string.h>

#include "src/core/core.h"
#include "src/io/history_row.h"
#include "src/model/data_impl.h"

const char* const rd_historyNodeColumns[16] = {"x",  "y",  "z",  "qw", "qx", "qy", "qz", "vx",
                                               "vy", "vz", "wx", "wy", "wz", "Wx", "Wy", "Wz"};

// the columns after the nodes' (newton_iterations last)
static const char* const tail_columns[10] = {
    "kinetic_energy",     "potential_energy", "total_energy",       "momentum_x",
    "momentum_y",         "momentum_z",       "angular_momentum_x", "angular_momentum_y",
    "angular_momentum_z", "newton_iterations"};


int rd_historyColumnCount(const rdModel* model) {
  return 1 + 16 * model->nout + 10;
}


int rd_historyColumnName(const rdModel* model, int k, char* buf, size_t size) {
  int n;
  if (k == 0) {
    n = snprintf(buf, size, "time");
  } else if (k <= 16 * model->nout) {
    const char* node = model->node_name[model->out_node[(k - 1) / 16]];
    n = snprintf(buf, size, "%s.%s", node, rd_historyNodeColumns[(k - 1) % 16]);
  } else if (k < rd_historyColumnCount(model)) {
    n = snprintf(buf, size, "%s", tail_columns[k - 1 - 16 * model->nout]);
  } else {
    return -1;
  }
  return n >= 0 && (size_t)n < size ? 0 : -1;
}


int rd_historyRow(const rdModel* model, const rdData* data, double* row) {
  double ke = 0, pe = 0;
  int st = rd_getEnergy(model, data, &ke, &pe);
  if (st != RD_OK) {
    return st;
  }
  row[0] = data->s.t;
  double* r = row + 1;
  for (int k = 0; k < model->nout; k++, r += 16) {
    st = rd_getNodeState(model, data, model->out_node[k], r, r + 3, r + 7, r + 10, r + 13);
    if (st != RD_OK) {
      return st;
    }
  }
  // invariants: total linear momentum and angular momentum about the origin (global frame)
  double p[3] = {0, 0, 0}, L[3] = {0, 0, 0};
  rd_getMomentum(model, data, p, L);
  const double tail[10] = {ke,   pe,   ke + pe, p[0], p[1],
                           p[2], L[0], L[1],    L[2], (double)data->stats.last_newton_iterations};
  memcpy(r, tail, sizeof(tail));
  return RD_OK;
}
