// SPDX-License-Identifier: MIT
// Private layout of rdSpec: growable arrays of copied definitions.
#ifndef RD_SPEC_IMPL_H
#define RD_SPEC_IMPL_H

#include <stdint.h>

#include "rodrigues/spec.h"
#include "src/core/names.h"
#include "src/model/options.h"

// element types (one file each in elements/)
typedef enum rdElemType_ {
  RD_ELEM_RIGID_BODY = 0,
  RD_ELEM_POINT_MASS,
  RD_ELEM_SPRING,
  RD_ELEM_BUSHING,
  RD_ELEM_COUNT
} rdElemType;

typedef struct rdElemDef_ {
  int type;  // rdElemType
  union {
    rdRigidBodyDef body;
    rdPointMassDef mass;
    rdSpringDef spring;
    rdBushingDef bushing;
  } u;
} rdElemDef;

// a growable array: items of `size` bytes
typedef struct rdVec_ {
  void* items;
  int count;
  int capacity;
} rdVec;

// a beam section whose loads go to the history: beam index, span fraction of the element
typedef struct rdOutputSection_ {
  int beam;
  double s;
} rdOutputSection;

struct rdSpec_ {
  uint32_t magic;
  rdContext* ctx;
  rdVec nodes;                  // rdNodeDef (name copied)
  rdVec elems;                  // rdElemDef
  rdVec joints;                 // rdJointDef
  rdVec loads;                  // rdLoadDef
  rdVec timefns;                // rdTimeFnDef (name, expression, t, y copied)
  rdVec torques;                // rdTorqueLawDef (name, expressions copied)
  rdVec outputs;                // int node indices
  rdVec out_reactions;          // int joint indices (history.csv reaction columns)
  rdVec out_sections;           // rdOutputSection (history.csv section load columns)
  rdVec callbacks;              // rdLoadCallbackDef (name, nodes copied)
  rdVec users;                  // rdUserElementDef (name, nodes copied)
  rdVec beams;                  // rdBeamDef (name, nodes, station, stiffness, mass copied)
  rdVec subsystems;             // rdSubsystemDef (name, nodes copied)
  rdVec origins[RD_OBJ_COUNT];  // char* per object (NULL if none)
  // names to indices: one index per kind (the option kind unused), and the two kinds that
  // share a name space with another (user elements with elements, callbacks with loads)
  rdNameIndex names[RD_OBJ_COUNT];
  rdNameIndex user_names;
  rdNameIndex callback_names;
  rdNameIndex reaction_names;  // names of the joints in `out_reactions` (each once)
  unsigned char* output_mark;  // output_mark_size: 1 for a node already in `outputs`
  int output_mark_size;
  double gravity[3];
  rdOptions opt;
};

// name of an element definition
const char* rd_elemDefName(const rdElemDef* e);

// origin string of an object ("" if none)
const char* rd_specOrigin(const rdSpec* spec, rdObjKind kind, int index);

#endif  // RD_SPEC_IMPL_H
