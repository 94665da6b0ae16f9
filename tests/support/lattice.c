// SPDX-License-Identifier: MIT
// A mass-spring lattice: the symmetric positive definite case (tests/test_cholmod.c,
// bench/ga_lattice.c).
#include <math.h>
#include <stdio.h>

#include "tests/support/models.h"

// lattice node index of (i, j, k)
static int lattice_node(int nx, int ny, int i, int j, int k) {
  return i + nx * (j + ny * k);
}


static void lattice_spring(rdSpec* s, int a, int b, double k1, double k3, double c) {
  rdSpringDef sp = rd_defaultSpringDef();
  char name[64];
  snprintf(name, sizeof(name), "s%d_%d", a, b);
  sp.name = name;
  sp.node[0] = a;
  sp.node[1] = b;
  sp.stiffness[0] = k1;
  sp.stiffness[2] = k3;
  sp.damping = c;
  rds_addSpring(s, &sp);
}


rdSpec* model_lattice(rdContext* ctx, int nx, int ny, int nz, double v0, double c) {
  rdSpec* s = NULL;
  if (rd_createSpec(ctx, &s)) {
    return NULL;
  }
  char name[64];
  for (int k = 0; k < nz; k++) {
    for (int j = 0; j < ny; j++) {
      for (int i = 0; i < nx; i++) {
        int id = lattice_node(nx, ny, i, j, k);
        rdNodeDef n = rd_defaultNodeDef();
        snprintf(name, sizeof(name), "n%d", id);
        n.name = name;
        n.kind = RD_NODE_POINT;
        n.position[0] = i;
        n.position[1] = j;
        n.position[2] = k;
        n.velocity[0] = v0 * sin(0.7 * id);
        n.velocity[1] = v0 * cos(1.3 * id);
        n.velocity[2] = v0 * sin(2.1 * id);
        int node = rds_addNode(s, &n);
        rdPointMassDef pm = rd_defaultPointMassDef();
        snprintf(name, sizeof(name), "m%d", id);
        pm.name = name;
        pm.node = node;
        pm.mass = 1;
        rds_addPointMass(s, &pm);
      }
    }
  }
  const double k1 = 1e3, k3 = 1e4;
  for (int k = 0; k < nz; k++) {
    for (int j = 0; j < ny; j++) {
      for (int i = 0; i < nx; i++) {
        int a = lattice_node(nx, ny, i, j, k);
        if (i + 1 < nx) {
          lattice_spring(s, a, lattice_node(nx, ny, i + 1, j, k), k1, k3, c);
        }
        if (j + 1 < ny) {
          lattice_spring(s, a, lattice_node(nx, ny, i, j + 1, k), k1, k3, c);
        }
        if (k + 1 < nz) {
          lattice_spring(s, a, lattice_node(nx, ny, i, j, k + 1), k1, k3, c);
        }
        // face diagonals: shear stiffness
        if (i + 1 < nx && j + 1 < ny) {
          lattice_spring(s, a, lattice_node(nx, ny, i + 1, j + 1, k), k1, 0, 0);
        }
        if (i + 1 < nx && k + 1 < nz) {
          lattice_spring(s, a, lattice_node(nx, ny, i + 1, j, k + 1), k1, 0, 0);
        }
        if (j + 1 < ny && k + 1 < nz) {
          lattice_spring(s, a, lattice_node(nx, ny, i, j + 1, k + 1), k1, 0, 0);
        }
        if (k == 0) {
          for (int d = 0; d < 3; d++) {
            rdSpringDef sp = rd_defaultSpringDef();
            snprintf(name, sizeof(name), "g%d_%d", a, d);
            sp.name = name;
            sp.node[0] = a;
            sp.node[1] = RD_GROUND;
            sp.anchor[0] = i - (d == 0);
            sp.anchor[1] = j - (d == 1);
            sp.anchor[2] = k - (d == 2);
            sp.stiffness[0] = k1;
            rds_addSpring(s, &sp);
          }
        }
      }
    }
  }
  rds_setGravity(s, (double[3]){0, 0, -9.81});
  return s;
}
