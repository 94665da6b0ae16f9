// SPDX-License-Identifier: MIT
// BeamDyn's output channels of a beam model and BeamDyn's rows read back (beamdyn_rows.h).
#include "tests/support/beamdyn_rows.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char* const BD_CHANNEL[BD_NCHAN] = {"RootFxr", "RootFyr", "RootFzr", "RootMxr", "RootMyr",
                                          "RootMzr", "N1Fxl",   "N1Fyl",   "N1Fzl",   "N1Mxl",
                                          "N1Myl",   "N1Mzl",   "TipTDxr", "TipTDyr", "TipTDzr",
                                          "TipRDxr", "TipRDyr", "TipRDzr"};


int bd_probeInit(bdProbe* p, const rdModel* m, const rdData* d, const char* root, const char* tip,
                 const double* dcm) {
  static const double eye[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
  memset(p, 0, sizeof(*p));
  memcpy(p->dcm, dcm ? dcm : eye, sizeof(p->dcm));
  p->root = rd_findNode(m, root);
  p->tip = rd_findNode(m, tip);
  p->joint = -1;
  rdModelInfo info;
  rd_modelInfo(m, &info);
  for (int j = 0; j < info.njoint; j++) {
    if (!strcmp(rd_jointName(m, j), "root")) {
      p->joint = j;
    }
  }
  if (p->root < 0 || p->tip < 0 || p->joint < 0) {
    return -1;
  }
  rd_getNodeState(m, d, p->root, p->xr0, p->qr0, NULL, NULL, NULL);
  rd_getNodeState(m, d, p->tip, p->xt0, p->qt0, NULL, NULL, NULL);
  return 0;
}


// v_r = DCM R_rel^T v (R_rel: the root's rotation since the start)
static void to_root(double out[3], const double dcm[9], const double qrel[4], const double v[3]) {
  double t[3];
  rdu_quatRotateInv(t, qrel, v);
  for (int i = 0; i < 3; i++) {
    out[i] = dcm[3 * i] * t[0] + dcm[3 * i + 1] * t[1] + dcm[3 * i + 2] * t[2];
  }
}


// v in a node's section frame, BeamDyn's axis order (x, y the section axes, z along the beam)
static void to_local(double out[3], const double q[4], const double v[3]) {
  double b[3];
  rdu_quatRotateInv(b, q, v);
  out[0] = b[1];
  out[1] = b[2];
  out[2] = b[0];
}


void bd_probeChannels(const bdProbe* p, const rdModel* m, const rdData* d, double out[BD_NCHAN]) {
  double f[3], mo[3], xr[3], qr[4], xt[3], qt[4], qrel[4], a[4], b[4];
  rd_getJointReaction(m, d, p->joint, f, mo);
  rd_getNodeState(m, d, p->root, xr, qr, NULL, NULL, NULL);
  rd_getNodeState(m, d, p->tip, xt, qt, NULL, NULL, NULL);
  // what the blade applies to the root: minus the joint's reaction on it
  for (int i = 0; i < 3; i++) {
    f[i] = -f[i];
    mo[i] = -mo[i];
  }
  rdu_quatConj(a, p->qr0);
  rdu_quatMul(qrel, qr, a);
  to_root(out, p->dcm, qrel, f);
  to_root(out + 3, p->dcm, qrel, mo);
  to_local(out + 6, qr, f);
  to_local(out + 9, qr, mo);
  // tip displacement (x_t - x_r) - R_rel (x_t0 - x_r0)
  double d0[3], u[3];
  for (int i = 0; i < 3; i++) {
    d0[i] = p->xt0[i] - p->xr0[i];
  }
  rdu_quatRotate(u, qrel, d0);
  for (int i = 0; i < 3; i++) {
    u[i] = xt[i] - xr[i] - u[i];
  }
  to_root(out + 12, p->dcm, qrel, u);
  // tip rotation R_t R_t0^T R_rel^T (global axes) as Wiener-Milenkovic parameters
  double c[4], psi[3];
  rdu_quatConj(a, p->qt0);
  rdu_quatMul(b, qt, a);
  rdu_quatConj(a, qrel);
  rdu_quatMul(c, b, a);
  rdu_quatToRotvec(psi, c);
  double th = sqrt(psi[0] * psi[0] + psi[1] * psi[1] + psi[2] * psi[2]);
  double s = th > 0 ? 4 * tan(th / 4) / th : 1;
  for (int i = 0; i < 3; i++) {
    psi[i] *= s;
  }
  to_root(out + 15, p->dcm, qrel, psi);
}


int bd_readRows(const char* path, bdRows* r) {
  memset(r, 0, sizeof(*r));
  FILE* f = fopen(path, "r");
  if (!f) {
    printf("bd_readRows: cannot open %s\n", path);
    return -1;
  }
  // column -> channel (-1: not one of ours); headerless files: the channel order
  int map[64], ncol = 1 + BD_NCHAN, cap = 0;
  for (int c = 0; c < 64; c++) {
    map[c] = c >= 1 && c <= BD_NCHAN ? c - 1 : -1;
  }
  char line[8192];
  while (fgets(line, sizeof(line), f)) {
    char* tok[64];
    int nt = 0;
    for (char* s = strtok(line, " \t\r\n"); s && nt < 64; s = strtok(NULL, " \t\r\n")) {
      tok[nt++] = s;
    }
    if (nt > 0 && !strcmp(tok[0], "Time")) {
      ncol = nt;
      for (int c = 0; c < nt; c++) {
        map[c] = -1;
        for (int k = 0; k < BD_NCHAN; k++) {
          if (!strcmp(tok[c], BD_CHANNEL[k])) {
            map[c] = k;
          }
        }
      }
      continue;
    }
    double v[64];
    int ok = nt == ncol;
    for (int c = 0; c < nt && ok; c++) {
      char* e;
      v[c] = strtod(tok[c], &e);
      ok = *e == 0;
    }
    if (!ok) {
      continue;  // banner, units, blank lines
    }
    if (r->n == cap) {
      cap = cap ? 2 * cap : 1024;
      double* t = realloc(r->t, sizeof(double) * (size_t)cap);
      double* w = t ? realloc(r->v, sizeof(double) * (size_t)cap * BD_NCHAN) : NULL;
      if (t) {
        r->t = t;
      }
      if (!w) {
        fclose(f);
        bd_freeRows(r);
        return -1;
      }
      r->v = w;
    }
    double* row = r->v + (size_t)r->n * BD_NCHAN;
    for (int k = 0; k < BD_NCHAN; k++) {
      row[k] = NAN;
    }
    for (int c = 1; c < nt; c++) {
      if (map[c] >= 0) {
        row[map[c]] = v[c];
      }
    }
    r->t[r->n++] = v[0];
  }
  fclose(f);
  if (r->n == 0) {
    printf("bd_readRows: no rows in %s\n", path);
    return -1;
  }
  return 0;
}


void bd_freeRows(bdRows* r) {
  free(r->t);
  free(r->v);
  memset(r, 0, sizeof(*r));
}
