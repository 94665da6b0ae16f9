// SPDX-License-Identifier: MIT
// Beam sections of the benchmarks and straight beams on Gauss-Lobatto-Legendre nodes.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "elements/beam.h"
#include "tests/support/models.h"

const double model_b1Stiffness[6] = {1770e3, 1770e3, 1770e3, 8.16e3, 86.9e3, 215e3};

const double model_b3Stiffness[36] = {1368.17e3, 0,       0,       0,        0,        0,         //
                                      0,         88.56e3, 0,       0,        0,        0,         //
                                      0,         0,       38.78e3, 0,        0,        0,         //
                                      0,         0,       0,       16.96e3,  17.61e3,  -0.351e3,  //
                                      0,         0,       0,       17.61e3,  59.12e3,  -0.370e3,  //
                                      0,         0,       0,       -0.351e3, -0.370e3, 141.47e3};

const double model_b3Mass[6] = {8.538e-2, 8.538e-2, 8.538e-2, 1.4433e-2, 0.40972e-2, 1.0336e-2};

const double model_b3StaticTip[3] = {-0.090272662756563, -0.064748848625903, 1.229736482923724};


void model_diag6(double A[36], const double d[6]) {
  memset(A, 0, 36 * sizeof(double));
  for (int i = 0; i < 6; i++) {
    A[7 * i] = d[i];
  }
}


int model_addGllBeams(rdSpec* s, int E, int P, double L, const double K[36], const double M[36],
                      const char* name, int* nodes) {
  rdBeamDef proto = rd_defaultBeamDef();
  return model_addGllBeamsLike(s, E, P, L, K, M, name, nodes, &proto);
}


int model_addGllBeamsLike(rdSpec* s, int E, int P, double L, const double K[36], const double M[36],
                          const char* name, int* nodes, const rdBeamDef* proto) {
  double xi[RD_BEAM_MAX_NODES];
  if (E < 1 || P < 2 || P > RD_BEAM_MAX_NODES) {
    return RD_ERR_ARG;
  }
  int st = rd_gaussLobatto(P, xi);
  if (st) {
    return st;
  }
  const double h = L / E;
  int nn = E * (P - 1) + 1;
  char label[64];
  for (int k = 0; k < nn; k++) {
    int e = k / (P - 1), j = k % (P - 1);
    if (e == E) {
      e = E - 1;
      j = P - 1;
    }
    rdNodeDef n = rd_defaultNodeDef();
    snprintf(label, sizeof(label), "n%d", k);
    n.name = label;
    n.position[0] = h * e + 0.5 * h * (xi[j] + 1);
    nodes[k] = rds_addNode(s, &n);
    if (nodes[k] < 0) {
      return nodes[k];
    }
  }
  double station = 0;
  for (int e = 0; e < E; e++) {
    rdBeamDef b = *proto;
    if (E == 1) {
      snprintf(label, sizeof(label), "%s", name);
    } else {
      snprintf(label, sizeof(label), "%s%d", name, e);
    }
    b.name = label;
    b.nnode = P;
    b.nodes = nodes + e * (P - 1);
    b.nstation = 1;
    b.station = &station;
    b.stiffness = K;
    b.mass = M;
    b.span[0] = (double)e / E;
    b.span[1] = (double)(e + 1) / E;
    st = rds_addBeam(s, &b);
    if (st < 0) {
      return st;
    }
  }
  return 0;
}


rdSpec* model_cantilever(rdContext* ctx, int E, int P, double L, const double K[36],
                         const double M[36]) {
  rdSpec* s = NULL;
  if (rd_createSpec(ctx, &s) != RD_OK) {
    return NULL;
  }
  int* nodes = malloc(sizeof(int) * (size_t)(E * (P - 1) + 1));
  int st = nodes ? model_addGllBeams(s, E, P, L, K, M, "beam", nodes) : RD_ERR_NOMEM;
  if (st == 0) {
    st = model_addClamp(s, nodes[0]);
  }
  free(nodes);
  if (st < 0) {
    printf("cantilever: %s\n", rd_lastError(ctx));
    rd_destroySpec(&s);
  }
  return s;
}
