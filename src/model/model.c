// SPDX-License-Identifier: MIT
// The compiled model as the model layer sees it: validity, queries, consistency check, printing,
// and freeing what is not built by the layers above (src/sim/model_destroy.c frees the rest).
#include <math.h>
#include <string.h>

#include "src/core/core.h"
#include "src/model/model_impl.h"

int rd_modelValid(const rdModel* m) {
  return m && m->magic == RD_MAGIC_MODEL;
}


void rd_modelFree(rdModel* m) {
  rdContext* ctx = m->ctx;
  for (int i = 0; m->node_name && i < m->nnode; i++) {
    rd_free(ctx, m->node_name[i]);
  }
  for (int i = 0; m->node_origin && i < m->nnode; i++) {
    rd_free(ctx, (void*)m->node_origin[i]);
  }
  for (int i = 0; m->timefn && i < m->ntimefn; i++) {
    rdTimeFn* f = &m->timefn[i];
    rd_free(ctx, f->t);
    rd_free(ctx, f->y);
    if (f->expr) {
      rd_exprDestroy(f->expr);
      rd_free(ctx, f->expr);
    }
  }
  for (int i = 0; m->timefn_name && i < m->ntimefn; i++) {
    rd_free(ctx, m->timefn_name[i]);
  }
  for (int i = 0; m->elem && i < m->nelem; i++) {
    rd_free(ctx, (void*)rd_elemDefName(&m->elem[i].def));
    rd_free(ctx, (void*)m->elem[i].origin);
  }
  for (int i = 0; m->joint && i < m->njoint; i++) {
    rd_free(ctx, (void*)m->joint[i].def.name);
    rd_free(ctx, (void*)m->joint[i].origin);
  }
  for (int i = 0; m->load && i < m->nload; i++) {
    rd_free(ctx, (void*)m->load[i].def.name);
    rd_free(ctx, (void*)m->load[i].origin);
  }
  for (int i = 0; m->torque && i < m->ntorque; i++) {
    rdTorqueLaw* tl = &m->torque[i];
    rd_free(ctx, (void*)tl->def.name);
    rd_free(ctx, (void*)tl->origin);
    if (tl->expr) {
      for (int k = 0; k < 3; k++) {
        rd_exprDestroy(&tl->expr[k]);
      }
      rd_free(ctx, tl->expr);
    }
  }
  for (int i = 0; m->callback && i < m->ncallback; i++) {
    rd_free(ctx, (void*)m->callback[i].name);
    rd_free(ctx, (void*)m->callback[i].nodes);
  }
  rd_free(ctx, m->callback);
  for (int i = 0; m->user && i < m->nuser; i++) {
    rd_free(ctx, (void*)m->user[i].name);
    rd_free(ctx, (void*)m->user[i].nodes);
  }
  rd_free(ctx, m->user);
  for (int i = 0; m->beam && i < m->nbeam; i++) {
    rd_free(ctx, (void*)m->beam[i].def.name);
    rd_free(ctx, (void*)m->beam[i].def.nodes);
    rd_free(ctx, (void*)m->beam[i].origin);
  }
  rd_free(ctx, m->beam);
  for (int i = 0; m->sub && i < m->nsub; i++) {
    rdSubsystem* b = &m->sub[i];
    rd_free(ctx, b->name);
    rd_free(ctx, (void*)b->origin);
    rd_free(ctx, b->node);
    rd_free(ctx, b->pivot);
    rd_free(ctx, b->anchor);
  }
  rd_free(ctx, m->sub);
  rd_free(ctx, m->node_sub);
  rd_free(ctx, m->node_name);
  rd_nameIndexFree(ctx, &m->node_index);
  rd_free(ctx, (void*)m->node_origin);
  rd_free(ctx, m->node_kind);
  rd_free(ctx, m->node_dof);
  rd_free(ctx, m->node_q0);
  rd_free(ctx, m->node_v0);
  rd_free(ctx, m->timefn);
  rd_free(ctx, m->timefn_name);
  rd_free(ctx, m->elem);
  rd_free(ctx, m->joint);
  rd_free(ctx, m->load);
  rd_free(ctx, m->torque);
  rd_free(ctx, m->out_node);
  rd_free(ctx, m->out_reaction);
  rd_free(ctx, m->out_section_beam);
  rd_free(ctx, m->out_section_s);
  m->magic = RD_MAGIC_DEAD;
  rd_release(&ctx->children);
  rd_bury(ctx, RD_KIND_MODEL, m);
}


int rd_modelInfo(const rdModel* m, rdModelInfo* info) {
  if (!rd_modelValid(m)) {
    return RD_ERR_HANDLE;
  }
  if (!info) {
    return RD_ERROR(m->ctx, RD_ERR_ARG, "rd_modelInfo: NULL info");
  }
  memset(info, 0, sizeof(*info));
  info->nnode = m->nnode;
  info->nelement = m->nelem;
  info->nrigid_body = m->nbody;
  info->njoint = m->njoint;
  info->nload = m->nload;
  info->ntorque_law = m->ntorque;
  info->ntimefn = m->ntimefn;
  info->ndof = m->ndof;
  info->nconstraint = m->nconstraint;
  info->noutput = m->nout;
  info->method = m->opt.method;
  info->nbeam = m->nbeam;
  info->nuser_element = m->nuser;
  info->noutput_reaction = m->nout_reaction;
  info->noutput_section = m->nout_section;
  info->linear_solver = m->pattern ? rd_optionValueName("solver.linear_solver", m->linsol) : NULL;
  info->nsubsystem = m->nsub;
  return RD_OK;
}


int rd_subsystemInfo(const rdModel* m, int k, rdSubsystemInfo* info) {
  if (!rd_modelValid(m)) {
    return RD_ERR_HANDLE;
  }
  if (!info || k < 0 || k >= m->nsub) {
    return RD_ERROR(m->ctx, RD_ERR_ARG, "rd_subsystemInfo: no subsystem %d (the model has %d)", k,
                    m->nsub);
  }
  const rdSubsystem* b = &m->sub[k];
  info->name = b->name;
  info->method = b->method;
  info->substeps = b->substeps;
  info->nbody = b->nbody;
  return RD_OK;
}


int rd_subsystemBody(const rdModel* m, int k, int i) {
  if (!rd_modelValid(m) || k < 0 || k >= m->nsub || i < 0 || i >= m->sub[k].nbody) {
    return -1;
  }
  return m->sub[k].node[i];
}


int rd_nodeSubsystem(const rdModel* m, int i) {
  if (!rd_modelValid(m) || i < 0 || i >= m->nnode || !m->node_sub) {
    return -1;
  }
  return m->node_sub[i];
}


const char* rd_nodeName(const rdModel* m, int i) {
  if (!rd_modelValid(m) || i < 0 || i >= m->nnode) {
    return NULL;
  }
  return m->node_name[i];
}


const char* rd_jointName(const rdModel* m, int j) {
  if (!rd_modelValid(m) || j < 0 || j >= m->njoint) {
    return NULL;
  }
  return m->joint[j].def.name;
}


int rd_findNode(const rdModel* m, const char* name) {
  if (!rd_modelValid(m)) {
    return -1;
  }
  if (!name) {
    RD_ERROR(m->ctx, RD_ERR_ARG, "rd_findNode: NULL name");
    return -1;
  }
  return rd_nameIndexGet(&m->node_index, name);
}


int rd_outputNode(const rdModel* m, int k) {
  if (!rd_modelValid(m) || k < 0 || k >= m->nout) {
    return -1;
  }
  return m->out_node[k];
}


int rd_outputReaction(const rdModel* m, int k) {
  if (!rd_modelValid(m) || k < 0 || k >= m->nout_reaction) {
    return -1;
  }
  return m->out_reaction[k];
}


int rd_outputSectionLoad(const rdModel* m, int k, int* beam, double* s) {
  if (!rd_modelValid(m)) {
    return RD_ERR_HANDLE;
  }
  if (k < 0 || k >= m->nout_section) {
    return RD_ERROR(m->ctx, RD_ERR_ARG, "rd_outputSectionLoad: index %d out of range", k);
  }
  if (beam) {
    *beam = m->out_section_beam[k];
  }
  if (s) {
    *s = m->out_section_s[k];
  }
  return RD_OK;
}


const char* rd_beamName(const rdModel* m, int b) {
  if (!rd_modelValid(m) || b < 0 || b >= m->nbeam) {
    return NULL;
  }
  return m->beam[b].def.name;
}


int rd_getOption(const rdModel* m, const char* key, char* buf, int size) {
  if (!rd_modelValid(m)) {
    return RD_ERR_HANDLE;
  }
  return rd_optionGetText(m->ctx, &m->opt, "rd_getOption", key, buf, size);
}


double rd_getOptionReal(const rdModel* m, const char* key) {
  return rd_modelValid(m) ? rd_optionReal(&m->opt, rd_optionKey(m->ctx, key, NULL)) : NAN;
}


int rd_isOutputTime(const rdModel* m, double t) {
  double h = m->opt.time_step;
  int every = m->opt.output_every;
  if (t >= m->opt.final_time || !(h > 0) || every < 1) {
    return 1;
  }
  double k = (t - m->opt.start_time) / h, kr = round(k);
  return fabs(k - kr) <= 1e-9 * fmax(1, fabs(k)) && fmod(kr, every) == 0;
}


static int finite_all(const double* x, int n) {
  for (int i = 0; i < n; i++) {
    if (!isfinite(x[i])) {
      return 0;
    }
  }
  return 1;
}


int rd_checkModel(const rdModel* m) {
  if (!rd_modelValid(m)) {
    return RD_ERR_HANDLE;
  }
  rdContext* ctx = m->ctx;
  int dof = 0;
  for (int i = 0; i < m->nnode; i++) {
    if (m->node_dof[i] != dof) {
      return RD_ERROR(ctx, RD_ERR_MODEL, "node %d: DOF numbering inconsistent", i);
    }
    dof += m->node_kind[i] == RD_NODE_RIGID ? 6 : 3;
    const double* q = m->node_q0 + 7 * i;
    if (!finite_all(q, 7) || !finite_all(m->node_v0 + 6 * i, 6)) {
      return RD_ERROR(ctx, RD_ERR_MODEL, "node '%s': non-finite initial state", m->node_name[i]);
    }
    double n = q[3] * q[3] + q[4] * q[4] + q[5] * q[5] + q[6] * q[6];
    if (fabs(n - 1) > 1e-12) {
      return RD_ERROR(ctx, RD_ERR_MODEL, "node '%s': quaternion not normalized", m->node_name[i]);
    }
  }
  if (dof != m->ndof) {
    return RD_ERROR(ctx, RD_ERR_MODEL, "DOF count inconsistent (%d vs %d)", dof, m->ndof);
  }
  int row = 0;
  for (int j = 0; j < m->njoint; j++) {
    if (m->joint[j].row != row || m->joint[j].nrow <= 0) {
      return RD_ERROR(ctx, RD_ERR_MODEL, "joint '%s': multiplier numbering inconsistent",
                      m->joint[j].def.name);
    }
    row += m->joint[j].nrow;
  }
  if (row != m->nconstraint) {
    return RD_ERROR(ctx, RD_ERR_MODEL, "multiplier count inconsistent");
  }
  for (int k = 0; k < m->nout; k++) {
    if (m->out_node[k] < 0 || m->out_node[k] >= m->nnode) {
      return RD_ERROR(ctx, RD_ERR_MODEL, "output node %d out of range", k);
    }
  }
  return RD_OK;
}


int rd_printModel(const rdModel* m, FILE* out) {
  if (!rd_modelValid(m)) {
    return RD_ERR_HANDLE;
  }
  if (!out) {
    return RD_ERROR(m->ctx, RD_ERR_ARG, "rd_printModel: NULL stream");
  }
  int counts[RD_ELEM_COUNT] = {0};
  for (int i = 0; i < m->nelem; i++) {
    counts[m->elem[i].def.type]++;
  }
  int npoint = 0;
  for (int i = 0; i < m->nnode; i++) {
    npoint += m->node_kind[i] == RD_NODE_POINT;
  }
  fprintf(out, "nodes        %d (%d rigid, %d point)\n", m->nnode, m->nnode - npoint, npoint);
  fprintf(out,
          "elements     %d (rigid bodies %d, point masses %d, springs %d, bushings %d, beams %d, "
          "user %d)\n",
          m->nelem + m->nbeam + m->nuser, counts[RD_ELEM_RIGID_BODY], counts[RD_ELEM_POINT_MASS],
          counts[RD_ELEM_SPRING], counts[RD_ELEM_BUSHING], m->nbeam, m->nuser);
  fprintf(out, "joints       %d (%d constraint equations)\n", m->njoint, m->nconstraint);
  fprintf(out, "loads        %d nodal, %d torque laws, %d time functions\n", m->nload, m->ntorque,
          m->ntimefn);
  fprintf(out, "DOFs         %d (+ %d multipliers)\n", m->ndof, m->nconstraint);
  fprintf(out, "gravity      (%g, %g, %g)\n", m->gravity[0], m->gravity[1], m->gravity[2]);
  fprintf(out, "method       %s%s\n", rd_methodName(m->opt.method),
          m->nsub ? " (mixed: the rigid subsystems below inside it)" : "");
  for (int k = 0; k < m->nsub; k++) {
    const rdSubsystem* b = &m->sub[k];
    fprintf(out, "subsystem    %s: %s, %d sub-step%s, %d bod%s:", b->name, rd_methodName(b->method),
            b->substeps, b->substeps == 1 ? "" : "s", b->nbody, b->nbody == 1 ? "y" : "ies");
    for (int i = 0; i < b->nbody && i < 6; i++) {
      int rev = b->pivot[i] >= 0 && m->joint[b->pivot[i]].def.type == RD_JOINT_REVOLUTE;
      fprintf(out, " %s%s", m->node_name[b->node[i]],
              b->pivot[i] < 0             ? ""
              : b->anchor[i] == RD_GROUND ? " (pivot)"
              : rev                       ? " (revolute joint to the flexible part)"
                                          : " (pivot on the flexible part)");
    }
    fprintf(out, b->nbody > 6 ? " ...\n" : "\n");
  }
  if (m->pattern) {
    fprintf(out, "linsolver    %s%s\n", rd_optionValueName("solver.linear_solver", m->linsol),
            m->opt.linear_solver == RD_LINSOL_AUTO ? " (auto)" : "");
  }
  fprintf(out, "time         %g .. %g, step %g (%.0f steps), output every %d\n", m->opt.start_time,
          m->opt.final_time, m->opt.time_step,
          ceil((m->opt.final_time - m->opt.start_time) / m->opt.time_step - 1e-9),
          m->opt.output_every);
  fprintf(out, "outputs      %d node(s):", m->nout);
  for (int k = 0; k < m->nout && k < 8; k++) {
    fprintf(out, " %s", m->node_name[m->out_node[k]]);
  }
  fprintf(out, m->nout > 8 ? " ...\n" : "\n");
  return RD_OK;
}
