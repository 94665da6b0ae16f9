// SPDX-License-Identifier: MIT
// Example C++ host: a rigid rod on a revolute joint (a compound pendulum released at rest from
// 1 rad), built through the spec API with the handles held by std::unique_ptr, stepped by
// rd_advance with a lambda as observer. Checks the joint reaction at release against Newton's
// law and the state after one exact period (the complete elliptic integral) against the start.
// Build (from the source root) against an installed rodrigues:
//   g++ -std=c++11 examples/host_cpp.cpp $(pkg-config --cflags --libs rodrigues) -o host_cpp
#include <rodrigues/rodrigues.h>

#include <cmath>
#include <cstdio>
#include <memory>
#include <stdexcept>
#include <string>

namespace {

struct ContextDeleter {
  void operator()(rdContext* p) const {
    rd_destroyContext(&p);
  }
};
struct SpecDeleter {
  void operator()(rdSpec* p) const {
    rd_destroySpec(&p);
  }
};
struct ModelDeleter {
  void operator()(rdModel* p) const {
    rd_destroyModel(&p);
  }
};
struct DataDeleter {
  void operator()(rdData* p) const {
    rd_destroyData(&p);
  }
};
using Context = std::unique_ptr<rdContext, ContextDeleter>;
using Spec = std::unique_ptr<rdSpec, SpecDeleter>;
using Model = std::unique_ptr<rdModel, ModelDeleter>;
using Data = std::unique_ptr<rdData, DataDeleter>;

// a status < 0 (an index >= 0 is fine) becomes an exception with the library's message
int check(rdContext* ctx, int status, const char* what) {
  if (status < 0) {
    throw std::runtime_error(std::string(what) + ": " + rd_lastError(ctx));
  }
  return status;
}


// complete elliptic integral of the first kind K(k) by the arithmetic-geometric mean
double elliptic_k(double k) {
  double a = 1, b = std::sqrt(1 - k * k);
  for (int i = 0; i < 30; i++) {
    double an = (a + b) / 2;
    b = std::sqrt(a * b);
    a = an;
  }
  return std::acos(-1.0) / (2 * a);
}

const double kMass = 1, kLength = 1, kGravity = 9.81, kTheta0 = 1;
const double kArm = kLength / 2;                            // pivot to centre of mass
const double kInertiaCom = kMass * kLength * kLength / 12;  // about the centre of mass
const double kInertiaPivot = kInertiaCom + kMass * kArm * kArm;


Model build(rdContext* ctx) {
  rdSpec* raw = nullptr;
  check(ctx, rd_createSpec(ctx, &raw), "rd_createSpec");
  Spec spec(raw);
  rdNodeDef node = rd_defaultNodeDef();
  node.name = "rod";
  node.position[0] = kArm * std::sin(kTheta0);
  node.position[2] = -kArm * std::cos(kTheta0);
  int rod = check(ctx, rds_addNode(spec.get(), &node), "rds_addNode");
  rdRigidBodyDef body = rd_defaultRigidBodyDef();
  body.name = "body";
  body.node = rod;
  body.mass = kMass;
  for (int i = 0; i < 3; i++) {
    body.inertia[4 * i] = kInertiaCom;
  }
  check(ctx, rds_addRigidBody(spec.get(), &body), "rds_addRigidBody");
  rdJointDef pivot = rd_defaultJointDef();
  pivot.name = "pivot";
  pivot.type = RD_JOINT_REVOLUTE;
  pivot.node[0] = rod;
  pivot.axis[1] = 1;
  check(ctx, rds_addJoint(spec.get(), &pivot), "rds_addJoint");
  const double g[3] = {0, 0, -kGravity};
  check(ctx, rds_setGravity(spec.get(), g), "rds_setGravity");
  check(ctx, rds_setOption(spec.get(), "solver.rho_inf", "1"), "rds_setOption");
  check(ctx, rds_setOption(spec.get(), "solver.rtol", "1e-12"), "rds_setOption");
  check(ctx, rds_setOption(spec.get(), "solver.atol", "1e-12"), "rds_setOption");
  rdModel* model = nullptr;
  check(ctx, rd_compile(spec.get(), &model), "rd_compile");
  return Model(model);
}


// the angle from the downward vertical towards +x, from the node's position
double angle(const rdModel* m, const rdData* d) {
  double x[3];
  rd_getNodeState(m, d, 0, x, nullptr, nullptr, nullptr, nullptr);
  return std::atan2(x[0], -x[2]);
}

}  // namespace


int main() {
  rdContext* raw = nullptr;
  if (rd_createContext(&raw, nullptr) != RD_OK) {
    return 1;
  }
  Context ctx(raw);
  try {
    Model model = build(ctx.get());
    rdData* d = nullptr;
    check(ctx.get(), rd_createData(model.get(), &d), "rd_createData");
    Data data(d);
    check(ctx.get(), rd_initialize(model.get(), data.get()), "rd_initialize");

    // reaction at release (at rest): radial m g cos(theta0) towards the pivot, tangential
    // m g sin(theta0) (1 - m d^2 / I_pivot) along increasing theta
    double f[3];
    check(ctx.get(), rd_getJointReaction(model.get(), data.get(), 0, f, nullptr), "reaction");
    double s = std::sin(kTheta0), c = std::cos(kTheta0);
    double radial = f[0] * s - f[2] * c, tangential = f[0] * c + f[2] * s;
    double radial_exact = -kMass * kGravity * c;
    double tangential_exact = kMass * kGravity * s * (1 - kMass * kArm * kArm / kInertiaPivot);
    double reaction_error = std::fabs(radial - radial_exact) +
                            std::fabs(tangential - tangential_exact) + std::fabs(f[1]);

    // one period: T = 4 K(sin(theta0 / 2)) / omega0, omega0^2 = m g d / I_pivot
    double omega0 = std::sqrt(kMass * kGravity * kArm / kInertiaPivot);
    double period = 4 * elliptic_k(std::sin(kTheta0 / 2)) / omega0;
    double lowest = kTheta0;
    auto observer = [](const rdModel* m, const rdData* dd, void* user) -> int {
      double* low = static_cast<double*>(user);
      *low = std::fmin(*low, angle(m, dd));
      return 0;
    };
    // a quarter period: at the bottom, where a phase error shows to first order
    check(ctx.get(), rd_advance(model.get(), data.get(), period / 4, observer, &lowest),
          "rd_advance");
    double bottom = std::fabs(angle(model.get(), data.get()));
    check(ctx.get(), rd_advance(model.get(), data.get(), period, observer, &lowest), "rd_advance");
    double back = std::fabs(angle(model.get(), data.get()) - kTheta0);
    std::printf(
        "C++ host: reaction at release off by %.2e N; T = %.6f s; angle at T/4 %.2e rad "
        "(exact 0), at T %.2e rad from the start, lowest %.6f rad\n",
        reaction_error, period, bottom, back, lowest);
    bool ok =
        reaction_error < 1e-8 && bottom < 1e-4 && back < 1e-6 && std::fabs(lowest + kTheta0) < 1e-4;
    std::printf("%s\n", ok ? "OK" : "MISMATCH");
    return ok ? 0 : 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "host_cpp: %s\n", e.what());
    return 1;
  }
}
