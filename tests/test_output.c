// SPDX-License-Identifier: MIT
// Tests of the result writers: history.csv columns, rows, round-trip, commit/abort; summary.json.
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "rodrigues/rodrigues.h"
#include "src/core/core.h"
#include "src/model/data_impl.h"
#include "tests/support/models.h"
#include "tests/test_macros.h"

// names that need quoting in CSV and escaping in JSON
#define PI 3.14159265358979323846

#define ODD_NAME "tip,\"a\"\tb\xc3\xa9\xff"

static char tmpdir[] = "/tmp/rd_test_output_XXXXXX";


// 1 if dir holds a file whose name starts with prefix (a temporary name from mkstemp)
static int temp_exists(const char* dir, const char* prefix) {
  DIR* d = opendir(dir);
  struct dirent* e;
  int found = 0;
  while (d && (e = readdir(d))) {
    found |= !strncmp(e->d_name, prefix, strlen(prefix));
  }
  if (d) {
    closedir(d);
  }
  return found;
}


static int file_exists(const char* dir, const char* name) {
  char path[512];
  snprintf(path, sizeof(path), "%s/%s", dir, name);
  struct stat sb;
  return stat(path, &sb) == 0;
}


// the whole file in a malloc'd string ("" if missing)
static char* slurp(const char* dir, const char* name) {
  char path[512];
  snprintf(path, sizeof(path), "%s/%s", dir, name);
  FILE* f = fopen(path, "rb");
  if (!f) {
    char* s = calloc(1, 1);
    return s;
  }
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char* s = calloc((size_t)n + 1, 1);
  if (fread(s, 1, (size_t)n, f) != (size_t)n) {
    s[0] = '\0';
  }
  fclose(f);
  return s;
}


// a rigid body "body" on a rigid node, and a point mass with a force on a point node named
// `point_name`; gravity along -z; solver options from `set` (pairs key, value, NULL-ended)
static rdModel* build(rdContext* ctx, const char* point_name, const char* const* set) {
  rdSpec* s = NULL;
  if (rd_createSpec(ctx, &s) != RD_OK) {
    return NULL;
  }
  rds_setGravity(s, (double[3]){0, 0, -9.81});
  rdNodeDef n = rd_defaultNodeDef();
  n.name = "body";
  n.position[0] = 1.0 / 3.0;
  n.velocity[1] = 0.7;
  n.angular_velocity[0] = 0.1;
  n.angular_velocity[1] = 2.0;
  n.angular_velocity[2] = 0.3;
  n.angular_velocity_frame = RD_FRAME_BODY;
  model_addRigidBody(s, &n, "rb", 2, (double[3]){1, 2, 3}, NULL);
  if (point_name) {
    n = rd_defaultNodeDef();
    n.name = point_name;
    n.kind = RD_NODE_POINT;
    n.position[2] = 1e-300;
    n.velocity[0] = -2.5e17;
    int p = rds_addNode(s, &n);
    rdPointMassDef pm = rd_defaultPointMassDef();
    pm.name = "pm";
    pm.node = p;
    pm.mass = 0.5;
    rds_addPointMass(s, &pm);
    rdLoadDef l = rd_defaultLoadDef();
    l.name = "push";
    l.node = p;
    l.kind = RD_LOAD_FORCE;
    l.value[0] = 1;
    rds_addLoad(s, &l);
  }
  for (int i = 0; set && set[i]; i += 2) {
    CHECK_MSG(rds_setOption(s, set[i], set[i + 1]) == RD_OK, "%s", rd_lastError(ctx));
  }
  rdModel* m = NULL;
  int st = rd_compile(s, &m);
  CHECK_MSG(st == RD_OK, "compile: %s", rd_lastError(ctx));
  rd_destroySpec(&s);
  return m;
}


// Until a stepper exists for a method, rd_createData refuses every model of that method. The
// writers only read the state, so a hand-made rdData at the initial conditions stands in.
static rdData* fake_data(const rdModel* m) {
  rdData* d = calloc(1, sizeof(rdData));
  size_t nn = (size_t)m->nnode;
  d->block = calloc(7 * nn + 18 * nn + (size_t)m->nconstraint + 1, sizeof(double));
  double* p = d->block;
  d->s.q = p;
  d->s.v = p + 7 * nn;
  d->s.vd = p + 13 * nn;
  d->s.a = p + 19 * nn;
  d->s.lambda = p + 25 * nn;
  memcpy(d->s.q, m->node_q0, 7 * nn * sizeof(double));
  memcpy(d->s.v, m->node_v0, 6 * nn * sizeof(double));
  d->s.t = m->opt.start_time;
  d->stats.min_rcond = 1;
  d->stats.min_step = INFINITY;
  d->magic = RD_MAGIC_DATA;
  d->model = m;
  d->ctx = m->ctx;
  return d;
}


static void free_fake(rdData** d) {
  if (*d) {
    free((*d)->block);
    free(*d);
    *d = NULL;
  }
}


// expected header line for the model's output nodes
static void expected_header(const rdModel* m, char* buf, size_t size) {
  static const char* const cols[16] = {"x",  "y",  "z",  "qw", "qx", "qy", "qz", "vx",
                                       "vy", "vz", "wx", "wy", "wz", "Wx", "Wy", "Wz"};
  rdModelInfo info;
  rd_modelInfo(m, &info);
  snprintf(buf, size, "time");
  for (int k = 0; k < info.noutput; k++) {
    const char* name = rd_nodeName(m, rd_outputNode(m, k));
    int quote = strpbrk(name, ",\"\r\n") != NULL;
    for (int c = 0; c < 16; c++) {
      strcat(buf, quote ? ",\"" : ",");
      for (const char* s = name; *s; s++) {
        size_t n = strlen(buf);
        if (*s == '"' && quote) {
          buf[n++] = '"';
        }
        buf[n++] = *s;
        buf[n] = '\0';
      }
      strcat(buf, ".");
      strcat(buf, cols[c]);
      if (quote) {
        strcat(buf, "\"");
      }
    }
  }
  strcat(buf,
         ",kinetic_energy,potential_energy,total_energy,momentum_x,momentum_y,momentum_z,angular_"
         "momentum_x,angular_momentum_y,angular_momentum_z,newton_iterations\n");
}


// number of data rows (lines after the header)
static int count_rows(const char* text) {
  int n = -1;
  for (const char* s = text; *s; s++) {
    n += *s == '\n';
  }
  return n;
}


// parse the numbers of data row `row` (0-based) into out[]; returns how many
static int parse_row(const char* text, int row, double* out, int max) {
  const char* s = strchr(text, '\n');
  for (int r = 0; s && r < row; r++) {
    s = strchr(s + 1, '\n');
  }
  if (!s) {
    return 0;
  }
  s++;
  int n = 0;
  while (*s && *s != '\n' && n < max) {
    char* end;
    out[n++] = strtod(s, &end);
    if (end == s) {
      return -1;
    }
    s = *end == ',' ? end + 1 : end;
  }
  return n;
}

// ---------------------------------------------------------------------------------------------
// a minimal JSON syntax checker (RFC 8259; enough to tell that a parser will accept the file)

static const char* json_value(const char* s, int depth);

static const char* json_ws(const char* s) {
  while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r') {
    s++;
  }
  return s;
}


static const char* json_string(const char* s) {
  if (*s++ != '"') {
    return NULL;
  }
  while (*s != '"') {
    unsigned char c = (unsigned char)*s;
    if (c < 0x20) {
      return NULL;
    }
    if (c == '\\') {
      s++;
      if (*s == 'u') {
        for (int i = 1; i <= 4; i++) {
          if (!isxdigit((unsigned char)s[i])) {
            return NULL;
          }
        }
        s += 4;
      } else if (!strchr("\"\\/bfnrt", *s) || !*s) {
        return NULL;
      }
    }
    s++;
  }
  return s + 1;
}


static const char* json_number(const char* s) {
  const char* p = s;
  if (*p == '-') {
    p++;
  }
  if (*p == '0') {
    p++;
  } else if (isdigit((unsigned char)*p)) {
    while (isdigit((unsigned char)*p)) {
      p++;
    }
  } else {
    return NULL;
  }
  if (*p == '.') {
    p++;
    if (!isdigit((unsigned char)*p)) {
      return NULL;
    }
    while (isdigit((unsigned char)*p)) {
      p++;
    }
  }
  if (*p == 'e' || *p == 'E') {
    p++;
    if (*p == '+' || *p == '-') {
      p++;
    }
    if (!isdigit((unsigned char)*p)) {
      return NULL;
    }
    while (isdigit((unsigned char)*p)) {
      p++;
    }
  }
  return p;
}


static const char* json_value(const char* s, int depth) {
  s = json_ws(s);
  if (depth > 32) {
    return NULL;
  }
  if (*s == '{' || *s == '[') {
    char close = *s == '{' ? '}' : ']';
    int object = *s == '{';
    s = json_ws(s + 1);
    if (*s == close) {
      return s + 1;
    }
    while (1) {
      if (object) {
        s = json_string(json_ws(s));
        if (!s) {
          return NULL;
        }
        s = json_ws(s);
        if (*s++ != ':') {
          return NULL;
        }
      }
      s = json_value(s, depth + 1);
      if (!s) {
        return NULL;
      }
      s = json_ws(s);
      if (*s == close) {
        return s + 1;
      }
      if (*s++ != ',') {
        return NULL;
      }
    }
  }
  if (*s == '"') {
    return json_string(s);
  }
  if (!strncmp(s, "true", 4) || !strncmp(s, "null", 4)) {
    return s + 4;
  }
  if (!strncmp(s, "false", 5)) {
    return s + 5;
  }
  return json_number(s);
}


static int json_valid(const char* text) {
  const char* end = json_value(text, 0);
  return end && *json_ws(end) == '\0';
}

// ---------------------------------------------------------------------------------------------

static void test_header_and_rows(rdContext* ctx) {
  rdModel* m = build(ctx, ODD_NAME, NULL);
  if (!m) {
    return;
  }
  rdData* d = fake_data(m);
  rdHistory* h = NULL;
  CHECK(rd_createHistory(m, tmpdir, &h) == RD_OK);
  CHECK(temp_exists(tmpdir, ".history.csv."));
  CHECK(!file_exists(tmpdir, "history.csv"));

  // rows at states that exercise 17-digit round-trip
  const double times[3] = {0, 0.1, 1.0 / 3.0};
  for (int r = 0; r < 3; r++) {
    d->s.t = times[r];
    d->s.q[0] = PI * (r + 1);
    d->s.q[7 + 1] = -1.0 / 7.0 * r;
    d->s.v[3] = 2.0 / 3.0 + r;
    d->stats.last_newton_iterations = r + 2;
    CHECK(rd_writeHistory(h, m, d) == RD_OK);
  }
  CHECK(rd_closeHistory(&h, 1) == RD_OK);
  CHECK(h == NULL);
  CHECK(!temp_exists(tmpdir, ".history.csv."));
  CHECK(file_exists(tmpdir, "history.csv"));

  char* text = slurp(tmpdir, "history.csv");
  char want[8192];
  expected_header(m, want, sizeof(want));
  CHECK_MSG(!strncmp(text, want, strlen(want)), "header\n%.*s\nwant\n%s",
            (int)(strchr(text, '\n') ? strchr(text, '\n') - text + 1 : 0), text, want);
  CHECK(count_rows(text) == 3);
  // 1 + 2 nodes * 16 + 3 energies + 6 momenta + newton
  double row[64];
  CHECK(parse_row(text, 2, row, 64) == 43);
  double x[3], q[4], v[3], w[3], W[3], ke, pe;
  rd_getNodeState(m, d, 0, x, q, v, w, W);
  rd_getEnergy(m, d, &ke, &pe);
  CHECK(row[0] == 1.0 / 3.0);
  CHECK(row[1] == x[0] && x[0] == 3 * PI);
  CHECK(row[11] == W[0] || row[14] == W[0]);
  CHECK(row[14] == W[0] && row[11] == w[0]);
  CHECK(row[17 + 2] == 1e-300);
  CHECK(row[17 + 7] == -2.5e17);
  CHECK(row[33] == ke && row[34] == pe && row[35] == ke + pe);
  double p[3], L[3];
  rd_getMomentum(m, d, p, L);
  CHECK(row[36] == p[0] && row[38] == p[2] && row[39] == L[0] && row[41] == L[2]);
  CHECK(row[42] == 4);
  // every number of every row must read back to the value written
  int exact = 1;
  for (int r = 0; r < 3; r++) {
    double vals[64];
    exact &= parse_row(text, r, vals, 64) == 43;
    exact &= vals[0] == times[r];
  }
  CHECK(exact);
  free(text);

  // a non-commit close leaves nothing; an earlier history.csv stays untouched
  CHECK(rd_createHistory(m, tmpdir, &h) == RD_OK);
  CHECK(rd_writeHistory(h, m, d) == RD_OK);
  CHECK(rd_closeHistory(&h, 0) == RD_OK);
  CHECK(!temp_exists(tmpdir, ".history.csv."));
  text = slurp(tmpdir, "history.csv");
  CHECK(count_rows(text) == 3);
  free(text);
  remove(strcat(strcpy(want, tmpdir), "/history.csv"));
  CHECK(rd_createHistory(m, tmpdir, &h) == RD_OK);
  CHECK(rd_closeHistory(&h, 0) == RD_OK);
  CHECK(!temp_exists(tmpdir, ".history.csv."));
  CHECK(!file_exists(tmpdir, "history.csv"));

  // summary: valid JSON, escaped names, non-finite as null
  snprintf(want, sizeof(want), "%s/summary.json", tmpdir);
  d->s.v[0] = NAN;
  CHECK(rd_writeSummary(m, d, want, 1.25) == RD_OK);
  CHECK(!temp_exists(tmpdir, ".summary.json."));
  text = slurp(tmpdir, "summary.json");
  CHECK_MSG(json_valid(text), "invalid JSON:\n%s", text);
  CHECK(strstr(text, "\"tip,\\\"a\\\"\\tb\xc3\xa9\\ufffd\": {") != NULL);
  CHECK(strstr(text, "\"vx\": null") != NULL);
  CHECK(strstr(text, "\"min_step\": null") != NULL);
  CHECK(strstr(text, "\"wall_time\": 1.25") != NULL);
  CHECK(strstr(text,
               "\"counts\": {\"nodes\": 2, \"elements\": 2, \"beams\": 0, \"user_elements\": 0, "
               "\"joints\": 0, \"dofs\": 9, "
               "\"constraints\": 0}") != NULL);
  CHECK(strstr(text, "\"method\": \"generalized_alpha\"") != NULL);
  CHECK(strstr(text, "\"steps\": 0") != NULL);
  free(text);

  // I/O errors: a directory that does not exist
  char missing[600];
  snprintf(missing, sizeof(missing), "%s/no/such/dir", tmpdir);
  CHECK(rd_createHistory(m, missing, &h) == RD_ERR_IO);
  CHECK(h == NULL);
  CHECK_MSG(strstr(rd_lastError(ctx), "cannot write '") &&
                strstr(rd_lastError(ctx), "/no/such/dir/history.csv'") &&
                strstr(rd_lastError(ctx), strerror(ENOENT)),
            "%s", rd_lastError(ctx));
  strcat(missing, "/summary.json");
  CHECK(rd_writeSummary(m, d, missing, 0) == RD_ERR_IO);
  CHECK_MSG(strstr(rd_lastError(ctx), "cannot write '") != NULL, "%s", rd_lastError(ctx));

  // misuse
  CHECK(rd_closeHistory(NULL, 1) == RD_OK);
  CHECK(rd_closeHistory(&h, 1) == RD_OK);
  CHECK(rd_createHistory(NULL, tmpdir, &h) == RD_ERR_HANDLE);
  CHECK(rd_createHistory(m, NULL, &h) == RD_ERR_ARG);
  CHECK(rd_writeHistory(NULL, m, d) == RD_ERR_HANDLE);
  CHECK(rd_writeSummary(m, d, NULL, 0) == RD_ERR_ARG);
  free_fake(&d);
  rd_destroyModel(&m);
}


// the observer of the stepping test
typedef struct {
  rdHistory* h;
  int rows;
} obs;

static int observe(const rdModel* m, const rdData* d, void* user) {
  obs* o = user;
  o->rows++;
  return rd_writeHistory(o->h, m, d) != RD_OK;
}


// rows written by rd_advance for output.every = `every` over `steps` steps of 0.01
static void check_rows(rdContext* ctx, const char* method, int every, const char* final,
                       int want_rows) {
  char every_s[16];
  snprintf(every_s, sizeof(every_s), "%d", every);
  const char* set[] = {"solver.method",
                       method,
                       "solver.time_step",
                       "0.01",
                       "solver.final_time",
                       final,
                       "output.every",
                       every_s,
                       NULL};
  rdModel* m = build(ctx, NULL, set);
  rdData* d = NULL;
  if (!m || rd_createData(m, &d) != RD_OK) {
    rd_destroyModel(&m);
    return;
  }
  CHECK(rd_initialize(m, d) == RD_OK);
  obs o = {NULL, 1};
  CHECK(rd_createHistory(m, tmpdir, &o.h) == RD_OK);
  CHECK(rd_writeHistory(o.h, m, d) == RD_OK);
  CHECK_MSG(rd_advance(m, d, rd_getOptionReal(m, "solver.final_time"), observe, &o) == RD_OK, "%s",
            rd_lastError(ctx));
  CHECK(rd_closeHistory(&o.h, 1) == RD_OK);
  char* text = slurp(tmpdir, "history.csv");
  CHECK_MSG(count_rows(text) == want_rows && o.rows == want_rows,
            "%s every %d to %s: %d rows, want %d", method, every, final, count_rows(text),
            want_rows);
  // the last row is at the final time, and the first at the start
  double row[40];
  CHECK(parse_row(text, count_rows(text) - 1, row, 40) == 27);
  CHECK(row[0] == rd_getOptionReal(m, "solver.final_time"));
  CHECK(parse_row(text, 0, row, 40) == 27 && row[0] == 0);
  free(text);

  // a stepped summary has finite statistics
  char path[600];
  snprintf(path, sizeof(path), "%s/summary.json", tmpdir);
  CHECK(rd_writeSummary(m, d, path, 0.5) == RD_OK);
  text = slurp(tmpdir, "summary.json");
  CHECK(json_valid(text));
  CHECK((strstr(text, "\"min_step\": null") == NULL) == (want_rows > 1));  // null: no step
  free(text);
  rd_destroyData(&d);
  rd_destroyModel(&m);
}


// the stepping checks, for the first method whose stepper accepts the model
static void test_stepping(rdContext* ctx) {
  for (int k = 0; rd_methodName(k); k++) {
    const char* set[] = {"solver.method", rd_methodName(k), NULL};
    rdModel* m = build(ctx, NULL, set);
    rdData* d = NULL;
    int ok = m && rd_createData(m, &d) == RD_OK;
    rd_destroyData(&d);
    rd_destroyModel(&m);
    if (!ok) {
      continue;
    }
    const char* method = rd_methodName(k);
    check_rows(ctx, method, 1, "0.1", 11);   // initial + 10
    check_rows(ctx, method, 3, "0.1", 5);    // initial + steps 3, 6, 9 + final
    check_rows(ctx, method, 5, "0.1", 3);    // initial + steps 5, 10
    check_rows(ctx, method, 4, "0.105", 4);  // 11 steps (last partial): initial + 4, 8 + final
    check_rows(ctx, method, 1, "0", 1);      // nothing to do: the initial row only
    return;
  }
  printf("note: no stepper accepts the test model yet; stepping checks skipped\n");
}


// output.reactions and output.section_loads: the NREL 5-MW blade in rotation (its root is a
// prescribed joint): the root loads in history.csv are those of rd_getJointReaction and
// rd_getBeamSectionLoad at every row, bit for bit
#define NREL_ROWS 64

typedef struct nrelRows_ {
  rdHistory* h;
  rdData* d;
  int rows;
  double reaction[NREL_ROWS][6];    // root: force, moment (global)
  double section[NREL_ROWS][2][6];  // blade at s = 0 and 0.5: N, M (section frame)
} nrelRows;

static int observe_nrel(const rdModel* m, const rdData* d, void* user) {
  nrelRows* o = user;
  if (o->rows >= NREL_ROWS || rd_writeHistory(o->h, m, d) != RD_OK) {
    return 1;
  }
  int st = rd_getJointReaction(m, d, 0, o->reaction[o->rows], o->reaction[o->rows] + 3);
  for (int k = 0; k < 2 && st == RD_OK; k++) {
    st = rd_getBeamSectionLoad(m, o->d, 0, k * 0.5, o->section[o->rows][k]);
  }
  o->rows++;
  return st != RD_OK;
}


// column of `name` in the header line of `text`, or -1
static int column(const char* text, const char* name) {
  size_t n = strlen(name);
  int c = 0;
  for (const char* s = text; *s && *s != '\n'; c++) {
    if (!strncmp(s, name, n) && (s[n] == ',' || s[n] == '\n')) {
      return c;
    }
    s = strchr(s, ',');
    if (!s) {
      break;
    }
    s++;
  }
  return -1;
}


static void test_reactions_nrel(rdContext* ctx) {
  const char* set[] = {"solver.final_time=0.1", "output.every=5", "output.reactions=[root]",
                       "output.section_loads=[{beam: blade, s: 0}, {beam: blade, s: 0.5}]"};
  rdSpec* spec = NULL;
  rdModel* m = NULL;
  int st = rd_readDeck(ctx, "input/beam/nrel5mw_rotating.yaml", set, 4, &spec);
  CHECK_MSG(st == RD_OK, "%s", rd_lastError(ctx));
  st = st ? st : rd_compile(spec, &m);
  rd_destroySpec(&spec);
  rdModelInfo info;
  CHECK(st == RD_OK && rd_modelInfo(m, &info) == RD_OK);
  if (st != RD_OK) {
    return;
  }
  CHECK(info.noutput_reaction == 1 && info.noutput_section == 2 && info.nbeam == 1);
  CHECK(rd_outputReaction(m, 0) == 0 && !strcmp(rd_jointName(m, 0), "root"));
  CHECK(rd_outputReaction(m, 1) == -1);
  int beam = -1;
  double s = -1;
  CHECK(rd_outputSectionLoad(m, 1, &beam, &s) == RD_OK && beam == 0 && s == 0.5);
  CHECK(rd_outputSectionLoad(m, 2, &beam, &s) == RD_ERR_ARG);
  CHECK(!strcmp(rd_beamName(m, 0), "blade") && rd_beamName(m, 1) == NULL);

  nrelRows* o = calloc(1, sizeof(nrelRows));
  CHECK(o && rd_createData(m, &o->d) == RD_OK && rd_initialize(m, o->d) == RD_OK);
  CHECK(rd_createHistory(m, tmpdir, &o->h) == RD_OK);
  CHECK(observe_nrel(m, o->d, o) == 0);
  CHECK_MSG(rd_advance(m, o->d, 0.1, observe_nrel, o) == RD_OK, "%s", rd_lastError(ctx));
  CHECK(rd_closeHistory(&o->h, 1) == RD_OK);
  char* text = slurp(tmpdir, "history.csv");
  int cr = column(text, "root.Fx"), c0 = column(text, "blade@0.Nx"),
      c1 = column(text, "blade@0.5.Nx");
  CHECK_MSG(cr > 0 && c0 == cr + 6 && c1 == c0 + 6 && column(text, "blade@0.5.Mz") == c1 + 5,
            "columns root.Fx %d, blade@0.Nx %d, blade@0.5.Nx %d", cr, c0, c1);
  CHECK(count_rows(text) == o->rows && o->rows == 11);  // t = 0, every 5 of 50 steps
  int same = 0, nonzero = 0;
  for (int r = 0; r < o->rows && cr > 0; r++) {
    double row[128];
    int n = parse_row(text, r, row, 128);
    CHECK(n == c1 + 6);
    for (int c = 0; c < 6 && n == c1 + 6; c++) {
      same += row[cr + c] == o->reaction[r][c];
      same += row[c0 + c] == o->section[r][0][c];
      same += row[c1 + c] == o->section[r][1][c];
      nonzero += row[cr + c] != 0;
    }
  }
  CHECK_MSG(same == 18 * o->rows, "%d of %d values equal to the API's", same, 18 * o->rows);
  // the rotating blade pulls on its root: the centrifugal force m w^2 r_c is about 3.5e5 N
  // (17.7 t, centre of mass 20 m out, 1 rad/s)
  const double* f = o->reaction[o->rows - 1];
  CHECK(nonzero >= 3 * o->rows && sqrt(f[0] * f[0] + f[1] * f[1] + f[2] * f[2]) > 1e5);
  free(text);
  rd_destroyData(&o->d);
  free(o);
  rd_destroyModel(&m);
}


// 1 if the file is a header and complete rows: it ends with a line feed
static int whole_rows(const char* path) {
  FILE* f = fopen(path, "rb");
  if (!f) {
    return 0;
  }
  int last = EOF;
  if (fseek(f, -1, SEEK_END) == 0) {
    last = fgetc(f);
  }
  fclose(f);
  return last == '\n';
}


// issue 16, finding 5: a history written in place by a run that may be killed is at every
// moment a header and complete rows (rows are written whole); a resumed run continues it,
// cutting the rows after the checkpoint's time and a torn last row
static void test_in_place(rdContext* ctx) {
  rdModel* m = build(ctx, "tip", NULL);
  if (!m) {
    return;
  }
  rdData* d = fake_data(m);
  char path[600];
  snprintf(path, sizeof(path), "%s/inplace.csv", tmpdir);
  rdHistory* h = NULL;
  long kept = -1;
  CHECK(rd_openHistory(m, path, -INFINITY, &h, &kept) == RD_OK && kept == 0);
  CHECK(whole_rows(path));  // the header is there at once
  int torn = 0, failed = 0;
  for (int r = 0; r < 3000; r++) {
    d->s.t = 0.001 * r;
    d->s.q[0] = PI * r;
    failed += rd_writeHistory(h, m, d) != RD_OK;
    torn += !whole_rows(path);
  }
  CHECK_MSG(failed == 0, "%d of 3000 rows failed", failed);
  CHECK_MSG(torn == 0, "%d of 3000 rows left the file ending inside a row", torn);
  CHECK(rd_flushHistory(h) == RD_OK);
  CHECK(rd_historyRows(h) == 3000);
  CHECK(rd_closeHistory(&h, 0) == RD_OK);  // in place: kept either way
  char* text = slurp(tmpdir, "inplace.csv");
  CHECK(count_rows(text) == 3000);
  free(text);
  // a killed writer's torn last row, and its copy linked to the file (what a writer killed
  // between its moves leaves), then a resume at the row of t = 1.999
  FILE* f = fopen(path, "ab");
  fputs("2.5,1,2,3", f);
  fclose(f);
  char copy[700];
  snprintf(copy, sizeof(copy), "%s/.inplace.csv.0", tmpdir);
  CHECK(link(path, copy) == 0);
  CHECK(rd_openHistory(m, path, 1.999, &h, &kept) == RD_OK);
  CHECK_MSG(kept == 2000, "kept %ld rows", kept);
  CHECK(whole_rows(path));  // the torn row is gone at once
  d->s.t = 2.0;
  CHECK(rd_writeHistory(h, m, d) == RD_OK);
  CHECK(rd_closeHistory(&h, 1) == RD_OK);
  text = slurp(tmpdir, "inplace.csv");
  CHECK(count_rows(text) == 2001 && whole_rows(path));
  CHECK(!file_exists(tmpdir, ".inplace.csv.0") && !file_exists(tmpdir, ".inplace.csv.1"));
  double row[64];
  CHECK(parse_row(text, 1999, row, 64) > 0 && row[0] == 0.001 * 1999);
  CHECK(parse_row(text, 2000, row, 64) > 0 && row[0] == 2.0);
  free(text);
  // an empty file (a writer killed before its header) is started afresh
  fclose(fopen(path, "wb"));
  CHECK(rd_openHistory(m, path, 10, &h, &kept) == RD_OK && kept == 0);
  CHECK(rd_closeHistory(&h, 1) == RD_OK);
  text = slurp(tmpdir, "inplace.csv");
  CHECK(count_rows(text) == 0 && whole_rows(path));
  free(text);
  // another model's history is not continued; -INFINITY keeps no row
  rdModel* other = build(ctx, NULL, NULL);
  CHECK(rd_openHistory(other, path, 10, &h, &kept) == RD_ERR_ARG && !h);
  CHECK(strstr(rd_lastError(ctx), "another header") != NULL);
  CHECK(rd_openHistory(m, path, -INFINITY, &h, &kept) == RD_OK && kept == 0);
  CHECK(rd_closeHistory(&h, 1) == RD_OK);
  text = slurp(tmpdir, "inplace.csv");
  CHECK(count_rows(text) == 0);
  free(text);
  remove(path);
  rd_destroyModel(&other);
  free(d->block);
  free(d);
  rd_destroyModel(&m);
}


// review finding: the row a run stopped by a signal writes where it stopped, between two rows
// of the output grid, is cut when the history is continued from a checkpoint at that time (the
// uninterrupted run has no such row); a row on the grid, and one at the final time, are kept
static void test_stop_row(rdContext* ctx) {
  const char* set[] = {
      "solver.time_step", "0.01", "output.every", "10", "solver.final_time", "1", NULL};
  rdModel* m = build(ctx, NULL, set);
  if (!m) {
    return;
  }
  rdData* d = fake_data(m);
  char path[600];
  snprintf(path, sizeof(path), "%s/stop.csv", tmpdir);
  // rows at t = 0, 0.1, ..., 0.5 (the grid), then one where a signal stopped the run
  const double stop[] = {0.53, 0.6, 1.0};
  const long want[] = {6, 7, 7};
  for (int c = 0; c < 3; c++) {
    rdHistory* h = NULL;
    long kept = -1;
    CHECK(rd_openHistory(m, path, -INFINITY, &h, &kept) == RD_OK);
    for (int k = 0; k <= 5; k++) {
      d->s.t = 0.1 * k;
      CHECK(rd_writeHistory(h, m, d) == RD_OK);
    }
    d->s.t = stop[c];
    CHECK(rd_writeHistory(h, m, d) == RD_OK);
    CHECK(rd_closeHistory(&h, 1) == RD_OK);
    CHECK(rd_openHistory(m, path, stop[c], &h, &kept) == RD_OK);
    CHECK_MSG(kept == want[c], "resumed at t = %g: kept %ld rows, want %ld", stop[c], kept,
              want[c]);
    CHECK(rd_closeHistory(&h, 1) == RD_OK);
  }
  remove(path);
  free_fake(&d);
  rd_destroyModel(&m);
}


int main(int argc, char** argv) {
  TEST_INIT(argc, argv);
  int made = mkdtemp(tmpdir) != NULL;
  CHECK_MSG(made, "cannot create a temporary directory: %s", strerror(errno));
  if (!made) {
    return TEST_SUMMARY();
  }
  rdContext* ctx = NULL;
  CHECK(rd_createContext(&ctx, NULL) == RD_OK);
  TEST_CASE(test_header_and_rows(ctx));
  TEST_CASE(test_stepping(ctx));
  TEST_CASE(test_reactions_nrel(ctx));
  TEST_CASE(test_in_place(ctx));
  TEST_CASE(test_stop_row(ctx));
  rd_destroyContext(&ctx);
  char path[600];
  const char* names[] = {"history.csv", "summary.json", ".history.csv.partial",
                         ".summary.json.partial"};
  for (int i = 0; i < 4; i++) {
    snprintf(path, sizeof(path), "%s/%s", tmpdir, names[i]);
    remove(path);
  }
  CHECK(rmdir(tmpdir) == 0);  // nothing else was left behind
  return TEST_SUMMARY();
}
