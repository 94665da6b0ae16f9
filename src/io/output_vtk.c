// SPDX-License-Identifier: MIT
// VTK time series: one ASCII XML UnstructuredGrid per output time and a .pvd index.
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "elements/beam.h"
#include "rodrigues/liegroup.h"
#include "rodrigues/output_vtk.h"
#include "src/core/atomic_file.h"
#include "src/core/core.h"
#include "src/io/vtk_mechanism.h"
#include "src/math/vec3.h"
#include "src/model/data_impl.h"
#include "src/model/model_impl.h"
#include "src/sim/query_beam.h"

#define RD_MAGIC_VTK 0x5244564bu  // "RDVK"
#define VTK_BUFSIZE 65536

struct rdVtk_ {
  uint32_t magic;
  rdContext* ctx;
  const rdModel* model;
  FILE* pvd;        // the index, open as a partial file until close
  char* pvd_tmp;    // its partial name (rd_atomicOpen)
  char* pvd_path;   // DIR/results.pvd
  char* dir;        // DIR/vtk
  char* frame;      // DIR/vtk/results_NNNNNN.vtu (rewritten per frame)
  char* frame_tmp;  // DIR/vtk/.results_NNNNNN.vtu.partial
  char* buf;        // stdio buffer of the frames (VTK_BUFSIZE)
  int made_dir;     // rd_createVtk created DIR/vtk
  int nframe;       // frames written
  int failed;       // a write failed: the index cannot be committed
  int ncell;
  unsigned char* inbeam;  // nnode: node belongs to a beam
  int* ncount;            // nnode: beam elements at the node (for averaging)
  int* g0;                // per beam node (beams concatenated): lower quadrature point
  double* tw;             // per beam node: weight of the upper point
  double* work;           // beam evaluation: r and kernel workspace (rd_beamSectionWork), then F
  size_t work_f;          // offset of F (quadrature points x 6) in work
  double* nodeF;          // nnode x 6 interpolated section forces
  rdVtkMechanism* mech;   // rigid bodies and joints (NULL: the model has none)
  char* mframe;           // DIR/vtk/mechanism_NNNNNN.vtu (rewritten per frame)
  char* mframe_tmp;       // DIR/vtk/.mechanism_NNNNNN.vtu.partial
};


static int io_error(rdContext* ctx, const char* path, int err) {
  return RD_ERROR(ctx, RD_ERR_IO, "cannot write '%s': %s", path, strerror(err));
}


static void free_vtk(rdVtk* v) {
  rdContext* ctx = v->ctx;
  rd_free(ctx, v->pvd_tmp);
  rd_free(ctx, v->pvd_path);
  rd_free(ctx, v->dir);
  rd_free(ctx, v->frame);
  rd_free(ctx, v->frame_tmp);
  rd_free(ctx, v->buf);
  rd_free(ctx, v->inbeam);
  rd_free(ctx, v->ncount);
  rd_free(ctx, v->g0);
  rd_free(ctx, v->tw);
  rd_free(ctx, v->work);
  rd_free(ctx, v->nodeF);
  rd_free(ctx, v->mframe);
  rd_free(ctx, v->mframe_tmp);
  rd_vtkMechanismDestroy(ctx, &v->mech);
  if (v->magic == RD_MAGIC_VTK) {
    rd_release(&((rdModel*)v->model)->children);
  }
  v->magic = RD_MAGIC_DEAD;
  rd_bury(ctx, RD_KIND_WRITER, v);
}


// frame k's final and partial names (and the mechanism's)
static void frame_names(rdVtk* v, int k) {
  sprintf(v->frame, "%s/results_%06d.vtu", v->dir, k);
  sprintf(v->frame_tmp, "%s/.results_%06d.vtu.partial", v->dir, k);
  if (v->mech) {
    sprintf(v->mframe, "%s/mechanism_%06d.vtu", v->dir, k);
    sprintf(v->mframe_tmp, "%s/.mechanism_%06d.vtu.partial", v->dir, k);
  }
}


// interpolation of quadrature-point values to the element nodes: linear in xi between the
// neighbouring points, extrapolated beyond the first and last
static void node_weights(const rdBeam* b, int* g0, double* tw) {
  int n = rd_beamNodes(b);
  double xn[RD_BEAM_MAX_NODES];
  rd_gaussLobatto(n, xn);
  for (int k = 0; k < n; k++) {
    rd_beamQuadInterp(b, xn[k], g0 + k, tw + k);
  }
}


int rd_createVtk(const rdModel* m, const char* dir, rdVtk** out) {
  if (!out) {
    return RD_ERR_ARG;
  }
  *out = NULL;
  if (!rd_modelValid(m) || !dir) {
    return RD_ERR_HANDLE;
  }
  rdContext* ctx = m->ctx;
  rdVtk* v = rd_alloc(ctx, sizeof(rdVtk));
  if (!v) {
    return RD_ERR_NOMEM;
  }
  memset(v, 0, sizeof(*v));
  v->magic = RD_MAGIC_VTK;
  v->ctx = ctx;
  v->model = m;
  rd_adopt(&((rdModel*)m)->children);
  size_t dl = strlen(dir);
  int slash = dl > 0 && dir[dl - 1] != '/';
  int nnode = m->nnode, nbn = 0, maxq = 0;
  for (int e = 0; e < m->nbeam; e++) {
    nbn += m->beam[e].def.nnode;
  }
  v->work_f = rd_beamSectionWork(m, m->nbeam, &maxq, NULL);
  v->pvd_path = rd_alloc(ctx, dl + 16);
  v->dir = rd_alloc(ctx, dl + 8);
  v->frame = rd_alloc(ctx, dl + 48);
  v->frame_tmp = rd_alloc(ctx, dl + 48);
  v->buf = rd_alloc(ctx, VTK_BUFSIZE);
  v->inbeam = rd_alloc(ctx, (size_t)nnode + 1);
  v->ncount = rd_alloc(ctx, sizeof(int) * ((size_t)nnode + 1));
  v->g0 = rd_alloc(ctx, sizeof(int) * ((size_t)nbn + 1));
  v->tw = rd_alloc(ctx, sizeof(double) * ((size_t)nbn + 1));
  v->work = rd_alloc(ctx, sizeof(double) * (v->work_f + 6 * (size_t)maxq + 1));
  v->nodeF = rd_alloc(ctx, sizeof(double) * (6 * (size_t)nnode + 1));
  int st = rd_vtkMechanismCreate(m, &v->mech);
  if (st != RD_OK) {
    free_vtk(v);
    return st;
  }
  if (v->mech) {
    v->mframe = rd_alloc(ctx, dl + 48);
    v->mframe_tmp = rd_alloc(ctx, dl + 48);
  }
  if (!v->pvd_path || !v->dir || !v->frame || !v->frame_tmp || !v->buf || !v->inbeam ||
      !v->ncount || !v->g0 || !v->tw || !v->work || !v->nodeF ||
      (v->mech && (!v->mframe || !v->mframe_tmp))) {
    free_vtk(v);
    return RD_ERR_NOMEM;
  }
  sprintf(v->pvd_path, "%s%sresults.pvd", dir, slash ? "/" : "");
  sprintf(v->dir, "%s%svtk", dir, slash ? "/" : "");
  // topology: one polyline per beam element, one vertex per node of no beam
  memset(v->inbeam, 0, (size_t)nnode);
  memset(v->ncount, 0, sizeof(int) * (size_t)nnode);
  int off = 0;
  for (int e = 0; e < m->nbeam; e++) {
    const rdBeamDef* bd = &m->beam[e].def;
    for (int k = 0; k < bd->nnode; k++) {
      v->inbeam[bd->nodes[k]] = 1;
      v->ncount[bd->nodes[k]]++;
    }
    node_weights(m->beam[e].kernel, v->g0 + off, v->tw + off);
    off += bd->nnode;
  }
  v->ncell = m->nbeam;
  for (int i = 0; i < nnode; i++) {
    v->ncell += !v->inbeam[i];
  }
  if (mkdir(v->dir, 0777) == 0) {
    v->made_dir = 1;
  } else if (errno != EEXIST) {
    st = io_error(ctx, v->dir, errno);
    free_vtk(v);
    return st;
  }
  v->pvd = rd_atomicOpen(ctx, v->pvd_path, &v->pvd_tmp);
  if (!v->pvd) {
    if (v->made_dir) {
      rmdir(v->dir);
    }
    free_vtk(v);
    return RD_ERR_IO;
  }
  fprintf(v->pvd,
          "<?xml version=\"1.0\"?>\n<VTKFile type=\"Collection\" version=\"0.1\" "
          "byte_order=\"LittleEndian\">\n  <Collection>\n");
  *out = v;
  return RD_OK;
}


// section forces of every beam interpolated to the nodes (nodeF)
static int section_forces(rdVtk* v, const rdModel* m, const rdData* d) {
  memset(v->nodeF, 0, sizeof(double) * 6 * (size_t)m->nnode);
  double* F = v->work + v->work_f;
  int off = 0;
  for (int e = 0; e < m->nbeam; e++) {
    const rdModelBeam* mb = &m->beam[e];
    double* r = v->work;
    int st = rd_beamSectionForcesIn(m, d, e, r, r + 6 * (size_t)mb->def.nnode, NULL, F);
    if (st != RD_OK) {
      return st;
    }
    int nq = rd_beamQuadPoints(mb->kernel);
    for (int k = 0; k < mb->def.nnode; k++) {
      int g = v->g0[off + k];
      double t = v->tw[off + k];
      double* dst = v->nodeF + 6 * mb->def.nodes[k];
      double c = 1.0 / v->ncount[mb->def.nodes[k]];
      for (int j = 0; j < 6; j++) {
        double val = nq == 1 ? F[j] : (1 - t) * F[6 * g + j] + t * F[6 * (g + 1) + j];
        dst[j] += c * val;
      }
    }
    off += mb->def.nnode;
  }
  return RD_OK;
}


// one point-data array of nc components per node, from get(node, out)
static void put_array(FILE* f, const char* name, int nc, const rdModel* m, const rdData* d,
                      const rdVtk* v, int which) {
  fprintf(f,
          "        <DataArray type=\"Float64\" Name=\"%s\" NumberOfComponents=\"%d\" "
          "format=\"ascii\">\n",
          name, nc);
  for (int i = 0; i < m->nnode; i++) {
    const double* q = d->s.q + 7 * i;
    const double* vel = d->s.v + 6 * i;
    double val[4] = {0, 0, 0, 0};
    switch (which) {
      case 0:  // displacement
        v3_sub(val, q, m->node_q0 + 7 * i);
        break;
      case 1:  // rotation vector
        rdu_quatToRotvec(val, q + 3);
        break;
      case 2:  // orientation
        memcpy(val, q + 3, 4 * sizeof(double));
        break;
      case 3:  // velocity
        v3_copy(val, vel);
        break;
      case 4:  // angular velocity, global
        if (m->node_kind[i] == RD_NODE_RIGID) {
          rdu_quatRotate(val, q + 3, vel + 3);
        }
        break;
      case 5:  // section force
        v3_copy(val, v->nodeF + 6 * i);
        break;
      default:  // section moment
        v3_copy(val, v->nodeF + 6 * i + 3);
        break;
    }
    fprintf(f, "         ");
    for (int j = 0; j < nc; j++) {
      fprintf(f, " %.12g", val[j]);
    }
    fputc('\n', f);
  }
  fprintf(f, "        </DataArray>\n");
}


static void write_frame(FILE* f, const rdVtk* v, const rdModel* m, const rdData* d) {
  fprintf(f,
          "<?xml version=\"1.0\"?>\n<VTKFile type=\"UnstructuredGrid\" version=\"0.1\" "
          "byte_order=\"LittleEndian\">\n  <UnstructuredGrid>\n");
  fprintf(f,
          "    <FieldData>\n      <DataArray type=\"Float64\" Name=\"TIME\" "
          "NumberOfTuples=\"1\" format=\"ascii\">%.17g</DataArray>\n    </FieldData>\n",
          rd_time(d));
  fprintf(f, "    <Piece NumberOfPoints=\"%d\" NumberOfCells=\"%d\">\n", m->nnode, v->ncell);
  fprintf(f, "      <PointData Vectors=\"displacement\">\n");
  static const char* const names[7] = {"displacement",  "rotation_vector",  "orientation",
                                       "velocity",      "angular_velocity", "section_force",
                                       "section_moment"};
  for (int k = 0; k < 7; k++) {
    put_array(f, names[k], k == 2 ? 4 : 3, m, d, v, k);
  }
  fprintf(f,
          "      </PointData>\n      <Points>\n        <DataArray type=\"Float64\" "
          "NumberOfComponents=\"3\" format=\"ascii\">\n");
  for (int i = 0; i < m->nnode; i++) {
    const double* q = d->s.q + 7 * i;
    fprintf(f, "          %.15g %.15g %.15g\n", q[0], q[1], q[2]);
  }
  fprintf(f,
          "        </DataArray>\n      </Points>\n      <Cells>\n        <DataArray "
          "type=\"Int32\" Name=\"connectivity\" format=\"ascii\">\n");
  for (int e = 0; e < m->nbeam; e++) {
    fprintf(f, "         ");
    for (int k = 0; k < m->beam[e].def.nnode; k++) {
      fprintf(f, " %d", m->beam[e].def.nodes[k]);
    }
    fputc('\n', f);
  }
  for (int i = 0; i < m->nnode; i++) {
    if (!v->inbeam[i]) {
      fprintf(f, "          %d\n", i);
    }
  }
  fprintf(f,
          "        </DataArray>\n        <DataArray type=\"Int32\" Name=\"offsets\" "
          "format=\"ascii\">\n");
  int off = 0;
  for (int e = 0; e < m->nbeam; e++) {
    off += m->beam[e].def.nnode;
    fprintf(f, "          %d\n", off);
  }
  for (int i = 0; i < m->nnode; i++) {
    if (!v->inbeam[i]) {
      fprintf(f, "          %d\n", ++off);
    }
  }
  fprintf(f,
          "        </DataArray>\n        <DataArray type=\"UInt8\" Name=\"types\" "
          "format=\"ascii\">\n");
  for (int c = 0; c < v->ncell; c++) {
    fprintf(f, "          %d\n", c < m->nbeam ? 4 : 1);  // VTK_POLY_LINE, VTK_VERTEX
  }
  fprintf(f,
          "        </DataArray>\n      </Cells>\n    </Piece>\n  </UnstructuredGrid>\n"
          "</VTKFile>\n");
}


// write one file of the frame (mech: the mechanism's, else the nodes and beams) as `tmp`,
// flushed, synced and renamed to `final`; a failure marks the series failed
static int write_file(rdVtk* v, const char* tmp, const char* final, const rdModel* m,
                      const rdData* d, int mech) {
  FILE* f = fopen(tmp, "wb");
  if (!f) {
    v->failed = 1;
    return io_error(v->ctx, tmp, errno);
  }
  setvbuf(f, v->buf, _IOFBF, VTK_BUFSIZE);
  if (mech) {
    rd_vtkMechanismWrite(f, v->mech, m, d);
  } else {
    write_frame(f, v, m, d);
  }
  int bad = ferror(f) || fflush(f) != 0 || fsync(fileno(f)) != 0;
  int err = errno;
  if (fclose(f) != 0 && !bad) {
    bad = 1;
    err = errno;
  }
  if (bad || rename(tmp, final) != 0) {
    err = bad ? err : errno;
    remove(tmp);
    v->failed = 1;
    return io_error(v->ctx, final, err);
  }
  return RD_OK;
}


int rd_writeVtk(rdVtk* v, const rdModel* m, const rdData* d) {
  if (!v || v->magic != RD_MAGIC_VTK || !rd_modelValid(m) || !d || d->magic != RD_MAGIC_DATA) {
    return RD_ERR_HANDLE;
  }
  if (m != v->model || d->model != m) {
    return RD_ERROR(v->ctx, RD_ERR_ARG, "rd_writeVtk: model or data differ from rd_createVtk's");
  }
  if (v->failed) {
    return RD_ERROR(v->ctx, RD_ERR_IO, "rd_writeVtk: an earlier write failed");
  }
  int st = section_forces(v, m, d);
  if (st != RD_OK) {
    return st;
  }
  frame_names(v, v->nframe);
  st = write_file(v, v->frame_tmp, v->frame, m, d, 0);
  if (st == RD_OK && v->mech) {
    st = write_file(v, v->mframe_tmp, v->mframe, m, d, 1);
    if (st != RD_OK) {
      remove(v->frame);  // the frame goes with its mechanism
    }
  }
  if (st != RD_OK) {
    return st;
  }
  v->nframe++;
  fprintf(v->pvd, "    <DataSet timestep=\"%.17g\" part=\"0\" file=\"vtk/results_%06d.vtu\"/>\n",
          rd_time(d), v->nframe - 1);
  if (v->mech) {
    fprintf(v->pvd,
            "    <DataSet timestep=\"%.17g\" part=\"1\" file=\"vtk/mechanism_%06d.vtu\"/>\n",
            rd_time(d), v->nframe - 1);
  }
  if (ferror(v->pvd)) {
    v->failed = 1;
    return io_error(v->ctx, v->pvd_tmp, errno);
  }
  return RD_OK;
}


int rd_closeVtk(rdVtk** pv, int commit) {
  if (!pv || !*pv) {
    return RD_OK;
  }
  if ((*pv)->magic != RD_MAGIC_VTK) {
    return RD_ERR_HANDLE;
  }
  rdVtk* v = *pv;
  *pv = NULL;
  int st = RD_OK;
  if (commit && !v->failed) {
    fprintf(v->pvd, "  </Collection>\n</VTKFile>\n");
    st = rd_atomicCommit(v->ctx, v->pvd, v->pvd_tmp, v->pvd_path, 0);
  } else {
    rd_atomicAbort(v->ctx, v->pvd, v->pvd_tmp);
    st = commit ? RD_ERROR(v->ctx, RD_ERR_IO, "VTK series: an earlier write failed") : RD_OK;
  }
  if (st != RD_OK || !commit) {
    // nothing half-written stays: the frames go with the index
    for (int k = 0; k < v->nframe; k++) {
      frame_names(v, k);
      remove(v->frame);
      if (v->mech) {
        remove(v->mframe);
      }
    }
    if (v->made_dir) {
      rmdir(v->dir);
    }
  }
  free_vtk(v);
  return st;
}
