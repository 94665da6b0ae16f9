// SPDX-License-Identifier: MIT
// The columns of history.csv: their names and the values of one row (shared by the history
// writer and the sweep's collector, so that what is collected is what is written).
#ifndef RD_HISTORY_ROW_H
#define RD_HISTORY_ROW_H

#include <stddef.h>

#include "rodrigues/simulate.h"

// per-node column suffixes, in the order of rd_getNodeState's outputs
extern const char* const rd_historyNodeColumns[16];

// number of columns: time, 16 per output node, 10 after them
int rd_historyColumnCount(const rdModel* model);

// the name of column k ("time", "tip.qw", "total_energy") into buf; 0, or -1 if k is out of
// range or the name does not fit
int rd_historyColumnName(const rdModel* model, int k, char* buf, size_t size);

// the values of one row for the current state (rd_historyColumnCount of them; the last,
// newton_iterations, is an integer); RD_OK or the status of a query
int rd_historyRow(const rdModel* model, const rdData* data, double* row);

#endif  // RD_HISTORY_ROW_H
