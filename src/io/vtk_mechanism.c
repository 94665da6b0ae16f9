// SPDX-License-Identifier: MIT
// The mechanism part of the VTK series: each rigid body as the uniform box with its mass and
// inertia (the equivalent box: half extents a_i^2 = 3 (I_j + I_k - I_i) / (2 m) along the
// principal axes, centred at the centre of mass) and as its body frame (three lines from the
// node along the body axes), each joint as the line from its first node through the joint
// point (as carried by each node) to its second node or the ground.
#include "src/io/vtk_mechanism.h"

#include <math.h>
#include <string.h>

#include "rodrigues/liegroup.h"
#include "src/core/core.h"
#include "src/math/vec3.h"
#include "src/model/model_impl.h"

// last: lapacke.h brings complex.h
#include "src/core/lapack.h"

// how a joint is drawn
enum { JOINT_POINT, JOINT_LINE, JOINT_VERTEX };

// cells' kinds (cell data "kind")
enum { KIND_BODY, KIND_FRAME, KIND_JOINT };

typedef struct mechJoint_ {
  int draw;         // JOINT_*
  int node[2];      // node[1] may be RD_GROUND
  double at[2][3];  // the joint point on each node (its body frame), or on the ground (global)
} mechJoint;

struct rdVtkMechanism_ {
  int nbody;
  int* body_elem;     // nbody: element index
  int* body_node;     // nbody
  double* corner;     // nbody x 8 x 3: box corners from the node, body frame
  double* frame_len;  // nbody: length of the drawn body axes
  int njoint;
  mechJoint* joint;  // njoint
  int npoint, ncell, nconn;
};


// the equivalent box of a body in its node's frame: corners (8 x 3) and the largest half extent
static int body_box(const rdLapack* la, const rdRigidBodyDef* b, double corner[24],
                    double* largest) {
  double A[9], J[3];  // not I: lapacke.h brings complex.h, whose I is a macro
  memcpy(A, b->inertia, sizeof(A));
  if (la->dsyev(LAPACK_ROW_MAJOR, 'V', 'U', 3, A, 3, J) != 0) {
    return RD_ERR_LIBRARY;
  }
  // columns of A: principal axes; a right-handed set, so the hexahedron is not inside out
  double u[3] = {A[0], A[3], A[6]}, v[3] = {A[1], A[4], A[7]}, w[3];
  v3_cross(w, u, v);
  double half[3];
  *largest = 0;
  for (int i = 0; i < 3; i++) {
    double s = 1.5 * (J[(i + 1) % 3] + J[(i + 2) % 3] - J[i]) / b->mass;
    half[i] = s > 0 ? sqrt(s) : 0;
    *largest = fmax(*largest, half[i]);
  }
  // VTK_HEXAHEDRON order: the face at -w counter-clockwise about w, then the face at +w
  static const int sign[8][3] = {{-1, -1, -1}, {1, -1, -1}, {1, 1, -1}, {-1, 1, -1},
                                 {-1, -1, 1},  {1, -1, 1},  {1, 1, 1},  {-1, 1, 1}};
  for (int k = 0; k < 8; k++) {
    for (int j = 0; j < 3; j++) {
      corner[3 * k + j] = b->com[j] + sign[k][0] * half[0] * u[j] + sign[k][1] * half[1] * v[j] +
                          sign[k][2] * half[2] * w[j];
    }
  }
  return RD_OK;
}


// how joint j is drawn, and its point on each node from the reference configuration
static void joint_geometry(const rdModel* m, const rdJointDef* def, mechJoint* mj) {
  memcpy(mj->node, def->node, sizeof(mj->node));
  switch (def->type) {
    case RD_JOINT_FIXED:
    case RD_JOINT_PRESCRIBED:
      mj->draw = JOINT_VERTEX;
      break;
    case RD_JOINT_RIGID:
    case RD_JOINT_ROTATION_CONTROL:
      mj->draw = JOINT_LINE;
      break;
    default:
      mj->draw = JOINT_POINT;
      break;
  }
  for (int k = 0; k < 2; k++) {
    int n = mj->node[k];
    const double* ref =
        mj->draw == JOINT_POINT ? def->point : m->node_q0 + 7 * (n >= 0 ? n : mj->node[0]);
    if (n < 0) {
      v3_copy(mj->at[k], ref);  // the ground: fixed, global
    } else {
      double d[3];
      v3_sub(d, ref, m->node_q0 + 7 * n);
      rdu_quatRotateInv(mj->at[k], m->node_q0 + 7 * n + 3, d);
    }
  }
}


void rd_vtkMechanismDestroy(rdContext* ctx, rdVtkMechanism** mech) {
  if (!mech || !*mech) {
    return;
  }
  rdVtkMechanism* v = *mech;
  rd_free(ctx, v->body_elem);
  rd_free(ctx, v->body_node);
  rd_free(ctx, v->corner);
  rd_free(ctx, v->frame_len);
  rd_free(ctx, v->joint);
  rd_free(ctx, v);
  *mech = NULL;
}


int rd_vtkMechanismCreate(const rdModel* m, rdVtkMechanism** out) {
  *out = NULL;
  if (m->nbody == 0 && m->njoint == 0) {
    return RD_OK;
  }
  rdContext* ctx = m->ctx;
  rdVtkMechanism* v = rd_calloc(ctx, 1, sizeof(rdVtkMechanism));
  if (!v) {
    return RD_ERR_NOMEM;
  }
  size_t nb = (size_t)m->nbody + 1;
  v->body_elem = rd_calloc(ctx, nb, sizeof(int));
  v->body_node = rd_calloc(ctx, nb, sizeof(int));
  v->corner = rd_calloc(ctx, 24 * nb, sizeof(double));
  v->frame_len = rd_calloc(ctx, nb, sizeof(double));
  v->joint = rd_calloc(ctx, (size_t)m->njoint + 1, sizeof(mechJoint));
  if (!v->body_elem || !v->body_node || !v->corner || !v->frame_len || !v->joint) {
    rd_vtkMechanismDestroy(ctx, &v);
    return RD_ERR_NOMEM;
  }
  const rdLapack* la = NULL;  // LAPACKE, loaded at the first rigid body
  for (int e = 0; e < m->nelem; e++) {
    if (m->elem[e].def.type != RD_ELEM_RIGID_BODY) {
      continue;
    }
    const rdRigidBodyDef* b = &m->elem[e].def.u.body;
    int k = v->nbody++;
    double largest;
    if (!la && !(la = rd_lapack(ctx, "VTK output of rigid bodies"))) {
      rd_vtkMechanismDestroy(ctx, &v);
      return RD_ERR_IO;
    }
    if (body_box(la, b, v->corner + 24 * k, &largest) != RD_OK) {
      rd_vtkMechanismDestroy(ctx, &v);
      return RD_ERROR(ctx, RD_ERR_LIBRARY, "VTK: rigid body '%s': principal axes not found",
                      b->name);
    }
    v->body_elem[k] = e;
    v->body_node[k] = b->node;
    v->frame_len[k] = largest > 0 ? 1.5 * largest : 1;
  }
  v->njoint = m->njoint;
  for (int j = 0; j < m->njoint; j++) {
    joint_geometry(m, &m->joint[j].def, &v->joint[j]);
  }
  // sizes: a box (8 points, 1 cell of 8) and a frame (4 points, 3 lines) per body; a joint
  // as a polyline of 4 points, a line of 2 or a vertex
  v->npoint = 12 * v->nbody;
  v->ncell = 4 * v->nbody;
  v->nconn = 14 * v->nbody;
  for (int j = 0; j < v->njoint; j++) {
    int np = v->joint[j].draw == JOINT_POINT ? 4 : v->joint[j].draw == JOINT_LINE ? 2 : 1;
    v->npoint += np;
    v->ncell += 1;
    v->nconn += np;
  }
  *out = v;
  return RD_OK;
}


// the global position of the point `at` carried by node n (or `at` itself on the ground)
static void carried(double out[3], const rdData* d, int n, const double at[3]) {
  if (n < 0) {
    v3_copy(out, at);
    return;
  }
  const double* q = d->s.q + 7 * n;
  double r[3];
  rdu_quatRotate(r, q + 3, at);
  v3_add(out, q, r);
}


static void put_point(FILE* f, const double x[3]) {
  fprintf(f, "          %.15g %.15g %.15g\n", x[0], x[1], x[2]);
}


// one Int32 cell-data array: the value of cell c is value(c)
static void put_cell_ints(FILE* f, const char* name, const rdVtkMechanism* v, int what) {
  fprintf(f, "        <DataArray type=\"Int32\" Name=\"%s\" format=\"ascii\">\n", name);
  for (int k = 0; k < v->nbody; k++) {
    int box = what == 0 ? KIND_BODY : what == 1 ? -1 : v->body_elem[k];
    fprintf(f, "          %d", box);
    for (int a = 0; a < 3; a++) {
      fprintf(f, " %d", what == 0 ? KIND_FRAME : what == 1 ? a : v->body_elem[k]);
    }
    fputc('\n', f);
  }
  for (int j = 0; j < v->njoint; j++) {
    fprintf(f, "          %d\n", what == 0 ? KIND_JOINT : what == 1 ? -1 : j);
  }
  fprintf(f, "        </DataArray>\n");
}


void rd_vtkMechanismWrite(FILE* f, const rdVtkMechanism* v, const rdModel* m, const rdData* d) {
  fprintf(f,
          "<?xml version=\"1.0\"?>\n<VTKFile type=\"UnstructuredGrid\" version=\"0.1\" "
          "byte_order=\"LittleEndian\">\n  <UnstructuredGrid>\n");
  fprintf(f,
          "    <FieldData>\n      <DataArray type=\"Float64\" Name=\"TIME\" "
          "NumberOfTuples=\"1\" format=\"ascii\">%.17g</DataArray>\n    </FieldData>\n",
          rd_time(d));
  fprintf(f, "    <Piece NumberOfPoints=\"%d\" NumberOfCells=\"%d\">\n", v->npoint, v->ncell);
  // cell data: kind (0 body box, 1 body axis, 2 joint), axis (0, 1, 2 of a body axis, else
  // -1), index (the body's element index, the joint's index)
  fprintf(f, "      <CellData Scalars=\"kind\">\n");
  put_cell_ints(f, "kind", v, 0);
  put_cell_ints(f, "axis", v, 1);
  put_cell_ints(f, "index", v, 2);
  fprintf(f, "      </CellData>\n");
  fprintf(f,
          "      <Points>\n        <DataArray type=\"Float64\" NumberOfComponents=\"3\" "
          "format=\"ascii\">\n");
  for (int k = 0; k < v->nbody; k++) {
    int n = v->body_node[k];
    double x[3];
    for (int c = 0; c < 8; c++) {
      carried(x, d, n, v->corner + 24 * k + 3 * c);
      put_point(f, x);
    }
    put_point(f, d->s.q + 7 * n);
    for (int a = 0; a < 3; a++) {
      double axis[3] = {0, 0, 0};
      axis[a] = v->frame_len[k];
      carried(x, d, n, axis);
      put_point(f, x);
    }
  }
  for (int j = 0; j < v->njoint; j++) {
    const mechJoint* mj = &v->joint[j];
    double x[3], zero[3] = {0, 0, 0};
    put_point(f, d->s.q + 7 * mj->node[0]);
    if (mj->draw == JOINT_POINT) {
      carried(x, d, mj->node[0], mj->at[0]);
      put_point(f, x);
      carried(x, d, mj->node[1], mj->at[1]);
      put_point(f, x);
    }
    if (mj->draw != JOINT_VERTEX) {
      carried(x, d, mj->node[1], mj->node[1] < 0 ? mj->at[1] : zero);
      put_point(f, x);
    }
  }
  fprintf(f,
          "        </DataArray>\n      </Points>\n      <Cells>\n        <DataArray "
          "type=\"Int32\" Name=\"connectivity\" format=\"ascii\">\n");
  int p = 0;
  for (int k = 0; k < v->nbody; k++, p += 12) {
    fprintf(f, "          %d %d %d %d %d %d %d %d\n", p, p + 1, p + 2, p + 3, p + 4, p + 5, p + 6,
            p + 7);
    for (int a = 0; a < 3; a++) {
      fprintf(f, "          %d %d\n", p + 8, p + 9 + a);
    }
  }
  for (int j = 0; j < v->njoint; j++) {
    int np = v->joint[j].draw == JOINT_POINT ? 4 : v->joint[j].draw == JOINT_LINE ? 2 : 1;
    fprintf(f, "         ");
    for (int i = 0; i < np; i++) {
      fprintf(f, " %d", p++);
    }
    fputc('\n', f);
  }
  fprintf(f,
          "        </DataArray>\n        <DataArray type=\"Int32\" Name=\"offsets\" "
          "format=\"ascii\">\n");
  int off = 0;
  for (int k = 0; k < v->nbody; k++) {
    off += 8;
    fprintf(f, "          %d %d %d %d\n", off, off + 2, off + 4, off + 6);
    off += 6;
  }
  for (int j = 0; j < v->njoint; j++) {
    off += v->joint[j].draw == JOINT_POINT ? 4 : v->joint[j].draw == JOINT_LINE ? 2 : 1;
    fprintf(f, "          %d\n", off);
  }
  fprintf(f,
          "        </DataArray>\n        <DataArray type=\"UInt8\" Name=\"types\" "
          "format=\"ascii\">\n");
  for (int k = 0; k < v->nbody; k++) {
    fprintf(f, "          12 3 3 3\n");  // VTK_HEXAHEDRON, three VTK_LINE
  }
  for (int j = 0; j < v->njoint; j++) {
    int draw = v->joint[j].draw;
    fprintf(f, "          %d\n", draw == JOINT_POINT ? 4 : draw == JOINT_LINE ? 3 : 1);
  }
  fprintf(f,
          "        </DataArray>\n      </Cells>\n    </Piece>\n  </UnstructuredGrid>\n"
          "</VTKFile>\n");
}
