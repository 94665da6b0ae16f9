// SPDX-License-Identifier: MIT
// Deck reader: the `elements` section (rigid bodies, point masses, springs, bushings, beams).
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "elements/beam.h"
#include "src/core/core.h"
#include "src/io/deck_impl.h"
#include "src/model/spec_impl.h"

static const char* const elem_types[] = {"rigid_body", "point_mass", "spring", "bushing", "beam",
                                         NULL};
enum { ELEM_RIGID_BODY, ELEM_POINT_MASS, ELEM_SPRING, ELEM_BUSHING, ELEM_BEAM };

static const char* const elem_keys[] = {
    "name",          "type",   "node",      "nodes",   "mass",        "inertia", "com",
    "inertia_about", "anchor", "stiffness", "damping", "rest_length", "from",    "to",
    "sections",      "quadrature", "span",  "load",    "arc",         "key_points", "twist",
    "rotation_field", "virtual_rotation", "beamdyn", NULL};
static const char* const body_keys[] = {"name",    "type", "node",          "mass",
                                        "inertia", "com",  "inertia_about", NULL};
static const char* const mass_keys[] = {"name", "type", "node", "mass", NULL};
static const char* const spring_keys[] = {"name",      "type",    "node",        "nodes", "anchor",
                                          "stiffness", "damping", "rest_length", NULL};
static const char* const bushing_keys[] = {"name",      "type",    "node", "nodes",
                                           "stiffness", "damping", NULL};
static const char* const beam_keys[] = {"name",     "type",       "nodes",      "from",    "to",
                                        "arc",      "key_points", "twist",      "sections",
                                        "quadrature", "span",     "damping",    "load",
                                        "rotation_field", "virtual_rotation", "beamdyn", NULL};
// a beam from a BeamDyn primary file: the files give the rest
static const char* const beamdyn_beam_keys[] = {"name", "type", "beamdyn", "load", NULL};
static const char* const* const type_keys[] = {body_keys, mass_keys, spring_keys, bushing_keys,
                                               beam_keys};

static const char* const inertia_refs[] = {"com", "node", NULL};


void rd_deckInertiaToCom(double jcom[9], const double jnode[9], double mass, const double c[3]) {
  double cc = c[0] * c[0] + c[1] * c[1] + c[2] * c[2];
  for (int i = 0; i < 3; i++) {
    for (int j = 0; j < 3; j++) {
      jcom[3 * i + j] = jnode[3 * i + j] - mass * ((i == j) * cc - c[i] * c[j]);
    }
  }
}


int rd_deckGetNodePair(rdDeck* dk, struct fy_node* map, int node[2]) {
  struct fy_node *k1, *k2;
  (void)rd_deckLookup(map, "node", &k1);
  struct fy_node* two = rd_deckLookup(map, "nodes", &k2);
  if (k1 && k2) {
    return rd_deckError(dk, k2, "give either 'node' or 'nodes', not both");
  }
  if (!k1 && !k2) {
    return rd_deckError(dk, map,
                        "missing required key 'nodes' (or 'node' to connect a node to "
                        "the ground)");
  }
  node[1] = RD_GROUND;
  if (k1) {
    int st = rd_deckGetNode(dk, map, "node", 0, 1, &node[0]);
    return st < 0 ? st : RD_OK;
  }
  if (!fy_node_is_sequence(two) || fy_node_sequence_item_count(two) != 2) {
    return rd_deckError(dk, rd_deckIsNull(two) ? k2 : two,
                        "'nodes' must be a list of 2 node names");
  }
  int st = rd_deckNodeRef(dk, fy_node_sequence_get_by_index(two, 0), "nodes[0]", 0, &node[0]);
  if (st == RD_OK) {
    st = rd_deckNodeRef(dk, fy_node_sequence_get_by_index(two, 1), "nodes[1]", 1, &node[1]);
  }
  if (st == RD_OK && node[0] == node[1]) {
    return rd_deckError(dk, two, "'nodes' must name two different nodes");
  }
  return st;
}


// the element's relayed error or its origin
static int added(rdDeck* dk, struct fy_node* map, int idx) {
  return idx < 0 ? rd_deckRelay(dk, map, idx) : rd_deckOrigin(dk, map, RD_OBJ_ELEMENT, idx);
}


// a 3x3 inertia must be symmetric (positive definiteness is checked by rd_compile)
static int check_symmetric(rdDeck* dk, struct fy_node* map, const double J[9]) {
  double scale = 0;
  for (int k = 0; k < 9; k++) {
    scale = fmax(scale, fabs(J[k]));
  }
  for (int i = 0; i < 3; i++) {
    for (int j = i + 1; j < 3; j++) {
      if (fabs(J[3 * i + j] - J[3 * j + i]) > 1e-9 * scale) {
        return rd_deckError(dk, rd_deckLookup(map, "inertia", NULL),
                            "inertia must be symmetric: inertia[%d][%d] = %g but "
                            "inertia[%d][%d] = %g",
                            i, j, J[3 * i + j], j, i, J[3 * j + i]);
      }
    }
  }
  return RD_OK;
}


static int read_rigid_body(rdDeck* dk, struct fy_node* map, const char* name) {
  rdRigidBodyDef def = rd_defaultRigidBodyDef();
  def.name = name;
  double J[9];
  int about = 0;
  int st = rd_deckGetNode(dk, map, "node", 0, 1, &def.node);
  if (st >= 0) {
    st = rd_deckGetReal(dk, map, "mass", 1, &def.mass);
  }
  if (st >= 0) {
    st = rd_deckGetMatrix(dk, map, "inertia", 3, 1, J);
  }
  if (st >= 0) {
    st = check_symmetric(dk, map, J);
  }
  if (st >= 0) {
    st = rd_deckGetVec(dk, map, "com", 3, 0, def.com);
  }
  if (st >= 0) {
    st = rd_deckGetEnum(dk, map, "inertia_about", inertia_refs, 0, &about);
  }
  if (st < 0) {
    return st;
  }
  if (about == 1) {
    rd_deckInertiaToCom(def.inertia, J, def.mass, def.com);
  } else {
    memcpy(def.inertia, J, sizeof(J));
  }
  return added(dk, map, rds_addRigidBody(dk->spec, &def));
}


static int read_point_mass(rdDeck* dk, struct fy_node* map, const char* name) {
  rdPointMassDef def = rd_defaultPointMassDef();
  def.name = name;
  int st = rd_deckGetNode(dk, map, "node", 0, 1, &def.node);
  if (st >= 0) {
    st = rd_deckGetReal(dk, map, "mass", 1, &def.mass);
  }
  return st < 0 ? st : added(dk, map, rds_addPointMass(dk->spec, &def));
}


// spring stiffness: k1, or [k1], [k1, k2] or [k1, k2, k3]
static int spring_stiffness(rdDeck* dk, struct fy_node* map, double k[3]) {
  struct fy_node* key;
  struct fy_node* v = rd_deckLookup(map, "stiffness", &key);
  if (!key || !v || !fy_node_is_sequence(v)) {
    int st = rd_deckGetReal(dk, map, "stiffness", 1, &k[0]);
    return st < 0 ? st : RD_OK;
  }
  int n = fy_node_sequence_item_count(v);
  if (n < 1 || n > 3) {
    return rd_deckError(dk, v, "'stiffness' must be k1 or a list [k1, k2, k3] of 1 to 3 numbers");
  }
  return rd_deckVec(dk, v, "stiffness", n, k);
}


static int read_spring(rdDeck* dk, struct fy_node* map, const char* name) {
  rdSpringDef def = rd_defaultSpringDef();
  def.name = name;
  int st = rd_deckGetNodePair(dk, map, def.node);
  if (st >= 0) {
    struct fy_node* k;
    (void)rd_deckLookup(map, "anchor", &k);
    if (k && def.node[1] != RD_GROUND) {
      return rd_deckError(dk, k, "'anchor' is only used by a spring to the ground");
    }
    st = rd_deckGetVec(dk, map, "anchor", 3, def.node[1] == RD_GROUND, def.anchor);
  }
  if (st >= 0) {
    st = spring_stiffness(dk, map, def.stiffness);
  }
  if (st >= 0) {
    st = rd_deckGetReal(dk, map, "damping", 0, &def.damping);
  }
  if (st >= 0 && (st = rd_deckGetReal(dk, map, "rest_length", 0, &def.rest_length)) == 1 &&
      def.rest_length < 0) {
    return rd_deckError(dk, rd_deckLookup(map, "rest_length", NULL),
                        "'rest_length' must be >= 0 (leave it out to use the initial length)");
  }
  return st < 0 ? st : added(dk, map, rds_addSpring(dk->spec, &def));
}


static int read_bushing(rdDeck* dk, struct fy_node* map, const char* name) {
  rdBushingDef def = rd_defaultBushingDef();
  def.name = name;
  int st = rd_deckGetNodePair(dk, map, def.node);
  if (st >= 0) {
    st = rd_deckGetMatrix(dk, map, "stiffness", 6, 1, def.stiffness);
  }
  if (st >= 0) {
    st = rd_deckGetMatrix(dk, map, "damping", 6, 0, def.damping);
  }
  return st < 0 ? st : added(dk, map, rds_addBushing(dk->spec, &def));
}


// ---------------------------------------------------------------------------------------------
// beams

static const char* const quad_names[] = {"full", "reduced", "stations", NULL};
static const char* const field_names[] = {"total", "displacement", NULL};
static const char* const virtual_names[] = {"field", "interpolated", NULL};
static const char* const frame_names[] = {"global", "body", NULL};  // rdFrame order
static const char* const section_keys[] = {"s", "stiffness", "mass", NULL};
static const char* const load_keys[] = {"force", "moment", "frame", "function", NULL};


// quaternion of the smallest rotation taking the x axis to the unit vector e
static void x_to(double q[4], const double e[3]) {
  // q = (1 + x.e, x cross e), normalized; opposite to x: half a turn about z
  double r[4] = {1 + e[0], 0, -e[2], e[1]};
  if (e[0] < -1 + 1e-14) {
    r[0] = r[1] = r[2] = 0;
    r[3] = 1;
  }
  double n = sqrt(r[0] * r[0] + r[2] * r[2] + r[3] * r[3]);
  for (int k = 0; k < 4; k++) {
    q[k] = r[k] / n;
  }
}


// ---------------------------------------------------------------------------------------------
// reference lines of generated nodes: straight (`from`, `to`), an exact circular arc (`arc`) or a
// natural cubic spline through key points (`key_points`); nodes at the GLL points of arc length

#define DECK_MAX_KEYPOINTS 64
#define RD_DECK_PI 3.14159265358979323846

enum { LINE_STRAIGHT, LINE_ARC, LINE_SPLINE };

typedef struct {
  int kind;
  double a[3], b[3];         // straight: ends
  double c[3], r0[3], n[3];  // arc: centre, start - centre, unit normal
  double angle;              // arc: radians
  int nk;                    // spline: key points
  double u[DECK_MAX_KEYPOINTS];         // chord-length parameter of the key points
  double p[DECK_MAX_KEYPOINTS][3];      // key points
  double m2[DECK_MAX_KEYPOINTS][3];     // second derivatives at the key points
  double sk[DECK_MAX_KEYPOINTS];        // arc length at the key points
  double length;
} beamLine;

static const char* const arc_keys[] = {"center", "start", "angle", "normal", NULL};


static double norm3(const double v[3]) {
  return sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
}


static void cross3(const double a[3], const double b[3], double c[3]) {
  c[0] = a[1] * b[2] - a[2] * b[1];
  c[1] = a[2] * b[0] - a[0] * b[2];
  c[2] = a[0] * b[1] - a[1] * b[0];
}


// spline segment i at parameter u: position x and derivative dx (either may be NULL)
static void spline_eval(const beamLine* L, int i, double u, double x[3], double dx[3]) {
  double h = L->u[i + 1] - L->u[i], A = (L->u[i + 1] - u) / h, B = (u - L->u[i]) / h;
  for (int j = 0; j < 3; j++) {
    double y0 = L->p[i][j], y1 = L->p[i + 1][j], m0 = L->m2[i][j], m1 = L->m2[i + 1][j];
    if (x) {
      x[j] = A * y0 + B * y1 + ((A * A * A - A) * m0 + (B * B * B - B) * m1) * h * h / 6;
    }
    if (dx) {
      dx[j] = (y1 - y0) / h + (-(3 * A * A - 1) * m0 + (3 * B * B - 1) * m1) * h / 6;
    }
  }
}


// arc length of segment i from u[i] to u (16-point Gauss)
static double spline_length(const beamLine* L, int i, double u) {
  double xg[16], wg[16], len = 0;
  rd_beamGauss(16, xg, wg);
  double a = L->u[i], half = 0.5 * (u - a);
  for (int g = 0; g < 16; g++) {
    double d[3];
    spline_eval(L, i, a + half * (xg[g] + 1), NULL, d);
    len += wg[g] * half * norm3(d);
  }
  return len;
}


// natural cubic spline through the key points in chord length, and its arc length
static void spline_setup(beamLine* L) {
  int n = L->nk;
  double c[DECK_MAX_KEYPOINTS], d[DECK_MAX_KEYPOINTS][3];
  L->u[0] = 0;
  for (int i = 1; i < n; i++) {
    double e[3] = {L->p[i][0] - L->p[i - 1][0], L->p[i][1] - L->p[i - 1][1],
                   L->p[i][2] - L->p[i - 1][2]};
    L->u[i] = L->u[i - 1] + norm3(e);
  }
  // tridiagonal system for the second derivatives (zero at both ends), Thomas algorithm
  for (int j = 0; j < 3; j++) {
    L->m2[0][j] = L->m2[n - 1][j] = 0;
  }
  c[0] = 0;
  for (int j = 0; j < 3; j++) {
    d[0][j] = 0;
  }
  for (int i = 1; i < n - 1; i++) {
    double h0 = L->u[i] - L->u[i - 1], h1 = L->u[i + 1] - L->u[i];
    double a = h0 / 6, b = (h0 + h1) / 3, cc = h1 / 6;
    double den = b - a * c[i - 1];
    c[i] = cc / den;
    for (int j = 0; j < 3; j++) {
      double rhs = (L->p[i + 1][j] - L->p[i][j]) / h1 - (L->p[i][j] - L->p[i - 1][j]) / h0;
      d[i][j] = (rhs - a * d[i - 1][j]) / den;
    }
  }
  for (int i = n - 2; i >= 1; i--) {
    for (int j = 0; j < 3; j++) {
      L->m2[i][j] = d[i][j] - c[i] * L->m2[i + 1][j];
    }
  }
  L->sk[0] = 0;
  for (int i = 0; i < n - 1; i++) {
    L->sk[i + 1] = L->sk[i] + spline_length(L, i, L->u[i + 1]);
  }
  L->length = L->sk[n - 1];
}


// point x and unit tangent t at the fraction s of the arc length
static void line_eval(const beamLine* L, double s, double x[3], double t[3]) {
  if (L->kind == LINE_STRAIGHT) {
    double e[3] = {L->b[0] - L->a[0], L->b[1] - L->a[1], L->b[2] - L->a[2]};
    double len = norm3(e);
    for (int j = 0; j < 3; j++) {
      x[j] = L->a[j] + s * e[j];
      t[j] = e[j] / len;
    }
  } else if (L->kind == LINE_ARC) {
    // Rodrigues' formula: r0 turned by phi about n (n perpendicular to r0)
    double phi = s * L->angle, nr[3];
    cross3(L->n, L->r0, nr);
    double R = norm3(L->r0);
    for (int j = 0; j < 3; j++) {
      x[j] = L->c[j] + cos(phi) * L->r0[j] + sin(phi) * nr[j];
      t[j] = (-sin(phi) * L->r0[j] + cos(phi) * nr[j]) / R;
    }
  } else {
    double target = s * L->length;
    int i = 0;
    while (i < L->nk - 2 && L->sk[i + 1] < target) {
      i++;
    }
    // Newton on the arc length within segment i, safeguarded by bisection
    double lo = L->u[i], hi = L->u[i + 1], u = lo + (hi - lo) * (target - L->sk[i]) /
                                                   (L->sk[i + 1] - L->sk[i]);
    for (int it = 0; it < 60; it++) {
      double d[3];
      double f = L->sk[i] + spline_length(L, i, u) - target;
      if (fabs(f) < 1e-13 * L->length) {
        break;
      }
      if (f > 0) {
        hi = u;
      } else {
        lo = u;
      }
      spline_eval(L, i, u, NULL, d);
      double un = u - f / norm3(d);
      u = un > lo && un < hi ? un : 0.5 * (lo + hi);
    }
    spline_eval(L, i, u, x, t);
    double len = norm3(t);
    for (int j = 0; j < 3; j++) {
      t[j] /= len;
    }
  }
}


// `arc: {center, start, angle, normal}`: start turned about normal (right hand) by angle degrees
static int read_arc(rdDeck* dk, struct fy_node* v, beamLine* L) {
  double c[3], p[3], n[3], deg;
  int st = rd_deckCheckMap(dk, v, "arc", arc_keys);
  st = st < 0 ? st : rd_deckGetVec(dk, v, "center", 3, 1, c);
  st = st < 0 ? st : rd_deckGetVec(dk, v, "start", 3, 1, p);
  st = st < 0 ? st : rd_deckGetReal(dk, v, "angle", 1, &deg);
  st = st < 0 ? st : rd_deckGetVec(dk, v, "normal", 3, 1, n);
  if (st < 0) {
    return st;
  }
  double R, nn = norm3(n);
  for (int j = 0; j < 3; j++) {
    L->c[j] = c[j];
    L->r0[j] = p[j] - c[j];
  }
  R = norm3(L->r0);
  if (!(R > 0)) {
    return rd_deckError(dk, rd_deckLookup(v, "start", NULL),
                        "'start' and 'center' are the same point (zero radius)");
  }
  if (!(nn > 0)) {
    return rd_deckError(dk, rd_deckLookup(v, "normal", NULL), "'normal' must not be zero");
  }
  for (int j = 0; j < 3; j++) {
    L->n[j] = n[j] / nn;
  }
  if (fabs(L->n[0] * L->r0[0] + L->n[1] * L->r0[1] + L->n[2] * L->r0[2]) > 1e-9 * R) {
    return rd_deckError(dk, rd_deckLookup(v, "normal", NULL),
                        "'normal' must be perpendicular to start - center");
  }
  if (!(deg > 0 && deg <= 360)) {
    return rd_deckError(dk, rd_deckLookup(v, "angle", NULL),
                        "'angle' must be in (0, 360] degrees, got %g (turn the 'normal' over "
                        "to curve the other way)", deg);
  }
  L->angle = deg * RD_DECK_PI / 180;
  L->length = R * L->angle;
  L->kind = LINE_ARC;
  return RD_OK;
}


// `key_points: [[x, y, z], ...]`: at least 3, consecutive ones distinct
static int read_key_points(rdDeck* dk, struct fy_node* v, beamLine* L) {
  if (!fy_node_is_sequence(v) || fy_node_sequence_item_count(v) < 3 ||
      fy_node_sequence_item_count(v) > DECK_MAX_KEYPOINTS) {
    return rd_deckError(dk, v, "'key_points' must be a list of 3 to %d points [x, y, z]",
                        DECK_MAX_KEYPOINTS);
  }
  L->nk = fy_node_sequence_item_count(v);
  for (int i = 0; i < L->nk; i++) {
    char what[32];
    snprintf(what, sizeof(what), "key_points[%d]", i);
    struct fy_node* it = fy_node_sequence_get_by_index(v, i);
    int st = rd_deckVec(dk, it, what, 3, L->p[i]);
    if (st < 0) {
      return st;
    }
    if (i > 0 && L->p[i][0] == L->p[i - 1][0] && L->p[i][1] == L->p[i - 1][1] &&
        L->p[i][2] == L->p[i - 1][2]) {
      return rd_deckError(dk, it, "key_points[%d] repeats the point before it", i);
    }
  }
  L->kind = LINE_SPLINE;
  spline_setup(L);
  return RD_OK;
}


// exactly one of `from`/`to`, `arc` and `key_points`
static int read_line(rdDeck* dk, struct fy_node* map, beamLine* L) {
  struct fy_node *kf, *kt, *ka, *kk;
  (void)rd_deckLookup(map, "from", &kf);
  (void)rd_deckLookup(map, "to", &kt);
  struct fy_node* arc = rd_deckLookup(map, "arc", &ka);
  struct fy_node* kp = rd_deckLookup(map, "key_points", &kk);
  if ((kf || kt) + !!ka + !!kk > 1) {
    return rd_deckError(dk, kk ? kk : ka,
                        "give one reference line: 'from' and 'to', 'arc' or 'key_points'");
  }
  if (ka) {
    return read_arc(dk, arc, L);
  }
  if (kk) {
    return read_key_points(dk, kp, L);
  }
  int st = rd_deckGetVec(dk, map, "from", 3, 1, L->a);
  if (st >= 0) {
    st = rd_deckGetVec(dk, map, "to", 3, 1, L->b);
  }
  if (st < 0) {
    return st;
  }
  double e[3] = {L->b[0] - L->a[0], L->b[1] - L->a[1], L->b[2] - L->a[2]};
  L->length = norm3(e);
  if (!(L->length > 0)) {
    return rd_deckError(dk, rd_deckLookup(map, "to", NULL), "'from' and 'to' are the same point");
  }
  L->kind = LINE_STRAIGHT;
  return RD_OK;
}


int rd_deckAddBeamNode(rdDeck* dk, struct fy_node* at, const char* name, int k, const double x[3],
                       const double q[4], const double w[3], int* idx) {
  char nm[512];
  snprintf(nm, sizeof(nm), "%s_%d", name, k);
  rdNodeDef def = rd_defaultNodeDef();
  def.name = nm;
  memcpy(def.position, x, sizeof(def.position));
  memcpy(def.orientation, q, sizeof(def.orientation));
  if (w) {
    def.velocity[0] = w[1] * x[2] - w[2] * x[1];
    def.velocity[1] = w[2] * x[0] - w[0] * x[2];
    def.velocity[2] = w[0] * x[1] - w[1] * x[0];
    memcpy(def.angular_velocity, w, sizeof(def.angular_velocity));  // global frame
  }
  *idx = rds_addNode(dk->spec, &def);
  if (*idx < 0) {
    return rd_deckRelay(dk, at, *idx);
  }
  // the spec's copy of the name stays put (the document has none to point to)
  const char* kept = ((const rdNodeDef*)dk->spec->nodes.items)[*idx].name;
  int st = rd_deckAddName(dk, &dk->nodes, kept, def.position);
  return st < 0 ? st : rd_deckOrigin(dk, at, RD_OBJ_NODE, *idx);
}


// `nodes: N` with a reference line: N rigid nodes NAME_0 .. NAME_{N-1} at the GLL points of arc
// length, body x along the tangent (the smallest rotation taking x to it), turned by the
// `twist` [deg at s = 0, deg at s = 1] about it
static int generate_nodes(rdDeck* dk, struct fy_node* map, struct fy_node* v, const char* name,
                          int* nodes, int* n) {
  double cnt, xi[RD_BEAM_MAX_NODES], tw[2] = {0, 0};
  int st = rd_deckReal(dk, v, "nodes", &cnt);
  if (st < 0) {
    return st;
  }
  if (cnt != floor(cnt) || cnt < 2 || cnt > RD_BEAM_MAX_NODES) {
    return rd_deckError(dk, v, "'nodes' must be a list of node names or a count from 2 to %d",
                        RD_BEAM_MAX_NODES);
  }
  beamLine* L = rd_alloc(dk->ctx, sizeof(beamLine));
  if (!L) {
    return RD_ERR_NOMEM;
  }
  st = read_line(dk, map, L);
  if (st >= 0) {
    st = rd_deckGetVec(dk, map, "twist", 2, 0, tw);
  }
  *n = (int)cnt;
  rd_beamGLL(*n, xi);  // the kernel's GLL points of [-1, 1]
  for (int k = 0; k < *n && st >= 0; k++) {
    double s = 0.5 * (xi[k] + 1), x[3], t[3], q[4], qt[4];
    line_eval(L, s, x, t);
    x_to(q, t);
    double th = (tw[0] + s * (tw[1] - tw[0])) * RD_DECK_PI / 360;  // half the twist angle, rad
    double c = cos(th), sn = sin(th);
    qt[0] = q[0] * c - q[1] * sn;  // q * (cos, sin x)
    qt[1] = q[1] * c + q[0] * sn;
    qt[2] = q[2] * c + q[3] * sn;
    qt[3] = q[3] * c - q[2] * sn;
    st = rd_deckAddBeamNode(dk, v, name, k, x, qt, NULL, &nodes[k]);
  }
  rd_free(dk->ctx, L);
  return st < 0 ? st : RD_OK;
}


// `nodes`: a list of node names or a count with `from` and `to`
static int beam_nodes(rdDeck* dk, struct fy_node* map, const char* name, int* nodes, int* n) {
  struct fy_node* key;
  struct fy_node* v = rd_deckLookup(map, "nodes", &key);
  if (!key || rd_deckIsNull(v)) {
    return rd_deckError(dk, key ? key : map, "missing required key 'nodes'");
  }
  struct fy_node *kf, *kt, *ka, *kk, *kw;
  (void)rd_deckLookup(map, "from", &kf);
  (void)rd_deckLookup(map, "to", &kt);
  (void)rd_deckLookup(map, "arc", &ka);
  (void)rd_deckLookup(map, "key_points", &kk);
  (void)rd_deckLookup(map, "twist", &kw);
  if (!fy_node_is_sequence(v)) {
    return generate_nodes(dk, map, v, name, nodes, n);
  }
  if (kf || kt) {
    return rd_deckError(dk, kf ? kf : kt,
                        "'from' and 'to' only go with a node count ('nodes: 15'), not a list");
  }
  if (ka || kk || kw) {
    return rd_deckError(dk, ka ? ka : kk ? kk : kw,
                        "'%s' only goes with a node count ('nodes: 15'), not a list",
                        ka ? "arc" : kk ? "key_points" : "twist");
  }
  *n = fy_node_sequence_item_count(v);
  if (*n < 2 || *n > RD_BEAM_MAX_NODES) {
    return rd_deckError(dk, v, "a beam element has 2 to %d nodes, got %d", RD_BEAM_MAX_NODES, *n);
  }
  for (int k = 0; k < *n; k++) {
    char what[32];
    snprintf(what, sizeof(what), "nodes[%d]", k);
    int st = rd_deckNodeRef(dk, fy_node_sequence_get_by_index(v, k), what, 0, &nodes[k]);
    if (st < 0) {
      return st;
    }
  }
  return RD_OK;
}


// `sections`: [{s, stiffness, mass}, ...] into eta, K, M (room for nmax stations)
static int beam_sections(rdDeck* dk, struct fy_node* map, int nmax, double* eta, double* K,
                         double* M, int* ns) {
  struct fy_node* seq;
  int st = rd_deckList(dk, map, "sections", &seq);
  if (st < 0) {
    return st;
  }
  if (st == 0 || fy_node_sequence_item_count(seq) < 1) {
    return rd_deckError(dk, seq ? seq : map, "a beam needs 'sections' with at least one station");
  }
  *ns = fy_node_sequence_item_count(seq);
  if (*ns > nmax) {
    return rd_deckError(dk, seq, "at most %d section stations", nmax);
  }
  for (int i = 0; i < *ns && st >= 0; i++) {
    struct fy_node* it = fy_node_sequence_get_by_index(seq, i);
    st = rd_deckCheckMap(dk, it, "section", section_keys);
    if (st >= 0) {
      st = rd_deckGetReal(dk, it, "s", 1, &eta[i]);
    }
    if (st >= 0) {
      st = rd_deckGetMatrix(dk, it, "stiffness", 6, 1, K + 36 * i);
    }
    if (st >= 0) {
      st = rd_deckGetMatrix(dk, it, "mass", 6, 1, M + 36 * i);
    }
  }
  return st < 0 ? st : RD_OK;
}


// optional `load: {force, moment, frame, function}`: distributed load per length
static int beam_load(rdDeck* dk, struct fy_node* map, rdBeamDef* def) {
  struct fy_node* v = rd_deckLookup(map, "load", NULL);
  if (!v || rd_deckIsNull(v)) {
    return RD_OK;
  }
  int frame = 0;
  int st = rd_deckCheckMap(dk, v, "beam load", load_keys);
  if (st >= 0) {
    st = rd_deckGetVec(dk, v, "force", 3, 0, def->force);
  }
  if (st >= 0) {
    st = rd_deckGetVec(dk, v, "moment", 3, 0, def->moment);
  }
  if (st >= 0) {
    st = rd_deckGetEnum(dk, v, "frame", frame_names, 0, &frame);
  }
  if (st >= 0) {
    st = rd_deckGetTimeFn(dk, v, "function", &def->timefn);
  }
  def->load_frame = (rdFrame)frame;
  return st < 0 ? st : RD_OK;
}


#define DECK_MAX_STATIONS 256

// nodes, stations, damping and quadrature from `beamdyn: {primary, ...}` (the files say it all)
static int beam_from_primary(rdDeck* dk, struct fy_node* map, const char* name, rdBeamDef* def,
                             int* nodes, rdBdBlade* b) {
  int quad = 0;
  int st = rd_deckCheckTyped(dk, map, "a beam from a BeamDyn primary file ('beamdyn')", elem_keys,
                             beamdyn_beam_keys);
  if (st >= 0) {
    st = rd_deckBeamDynBeam(dk, rd_deckLookup(map, "beamdyn", NULL), name, nodes, &def->nnode, b,
                            &quad);
  }
  memcpy(def->damping, b->mu, sizeof(def->damping));
  def->quadrature = (rdBeamQuadrature)quad;
  def->rotation_field = RD_BEAM_ROTATION_DISPLACEMENT;  // BeamDyn's reference frames
  def->virtual_rotation = RD_BEAM_VIRTUAL_ROTATION_INTERPOLATED;  // and its weak form
  return st;
}


// `sections: {beamdyn_blade: FILE}`: stations and damping from a BeamDyn blade file
static int sections_from_blade(rdDeck* dk, struct fy_node* map, rdBeamDef* def, rdBdBlade* b) {
  struct fy_node* kd;
  (void)rd_deckLookup(map, "damping", &kd);
  if (kd) {
    return rd_deckError(dk, kd, "'damping' comes from the BeamDyn blade file (damp_type, mu1 ... "
                        "mu6) when the sections do");
  }
  int st = rd_deckBeamDynSections(dk, rd_deckLookup(map, "sections", NULL), b);
  memcpy(def->damping, b->mu, sizeof(def->damping));
  return st;
}


static int read_beam(rdDeck* dk, struct fy_node* map, const char* name) {
  rdBeamDef def = rd_defaultBeamDef();
  def.name = name;
  int nodes[RD_BEAM_MAX_NODES], quad = 0, field = 0, virt = 0, st;
  rdBdBlade blade;
  memset(&blade, 0, sizeof(blade));
  double* buf = NULL;
  if (rd_deckLookup(map, "beamdyn", NULL)) {
    st = beam_from_primary(dk, map, name, &def, nodes, &blade);
  } else {
    st = beam_nodes(dk, map, name, nodes, &def.nnode);
    struct fy_node* sec = rd_deckLookup(map, "sections", NULL);
    if (st >= 0 && sec && fy_node_is_mapping(sec)) {
      st = sections_from_blade(dk, map, &def, &blade);
    } else if (st >= 0) {
      buf = rd_alloc(dk->ctx, sizeof(double) * DECK_MAX_STATIONS * 73);
      st = buf ? RD_OK : RD_ERR_NOMEM;
      if (st >= 0) {
        blade.eta = buf;
        blade.K = buf + DECK_MAX_STATIONS;
        blade.M = blade.K + 36 * DECK_MAX_STATIONS;
        st = beam_sections(dk, map, DECK_MAX_STATIONS, blade.eta, blade.K, blade.M, &blade.nst);
      }
      if (st >= 0) {
        st = rd_deckGetVec(dk, map, "damping", 6, 0, def.damping);
      }
    }
    if (st >= 0) {
      st = rd_deckGetEnum(dk, map, "quadrature", quad_names, 0, &quad);
    }
    if (st >= 0) {
      st = rd_deckGetEnum(dk, map, "rotation_field", field_names, 0, &field);
    }
    if (st >= 0) {
      st = rd_deckGetEnum(dk, map, "virtual_rotation", virtual_names, 0, &virt);
    }
    if (st >= 0) {
      st = rd_deckGetVec(dk, map, "span", 2, 0, def.span);
    }
    def.quadrature = (rdBeamQuadrature)quad;
    def.rotation_field = (rdBeamRotationField)field;
    def.virtual_rotation = (rdBeamVirtualRotation)virt;
  }
  if (st >= 0) {
    st = beam_load(dk, map, &def);
  }
  if (st >= 0) {
    def.nodes = nodes;
    def.nstation = blade.nst;
    def.station = blade.eta;
    def.stiffness = blade.K;
    def.mass = blade.M;
    int idx = rds_addBeam(dk->spec, &def);
    st = idx < 0 ? rd_deckRelay(dk, map, idx) : rd_deckOrigin(dk, map, RD_OBJ_BEAM, idx);
  }
  if (buf) {
    rd_free(dk->ctx, buf);  // blade points into it
  } else {
    rd_bdFreeBlade(dk->ctx, &blade);  // NULL pointers or the BeamDyn reader's arrays
  }
  return st;
}


static int read_element(rdDeck* dk, struct fy_node* map) {
  int type = 0;
  int st = rd_deckCheckMap(dk, map, "element", elem_keys);
  if (st >= 0) {
    st = rd_deckGetEnum(dk, map, "type", elem_types, 1, &type);
  }
  char what[64];
  snprintf(what, sizeof(what), "a %s element", elem_types[type]);
  if (st >= 0) {
    st = rd_deckCheckTyped(dk, map, what, elem_keys, type_keys[type]);
  }
  const char* name = NULL;
  if (st >= 0) {
    st = rd_deckGetName(dk, map, RD_OBJ_ELEMENT, "element", &name);
  }
  if (st < 0) {
    return st;
  }
  switch (type) {
    case ELEM_RIGID_BODY:
      return read_rigid_body(dk, map, name);
    case ELEM_POINT_MASS:
      return read_point_mass(dk, map, name);
    case ELEM_SPRING:
      return read_spring(dk, map, name);
    case ELEM_BEAM:
      return read_beam(dk, map, name);
    default:
      return read_bushing(dk, map, name);
  }
}


int rd_deckReadElements(rdDeck* dk, struct fy_node* root) {
  return rd_deckEach(dk, root, "elements", read_element);
}
