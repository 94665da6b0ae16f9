// SPDX-License-Identifier: MIT
// netCDF-C on demand (netcdf_lib.h): from dlopen with RD_NETCDF_SONAME (meson reads the soname
// of the library it builds against), else linked.
#include "src/io/netcdf_lib.h"

#include "src/core/core.h"
#include "src/core/lazylib.h"

#ifdef RD_NETCDF_SONAME

static rdNetcdfLib g_nc;
static rdLazyLib g_lib = {"netCDF", RD_NETCDF_SONAME, 0, ""};

#define SYM(name, field) \
  { name, &g_nc.field, sizeof(g_nc.field) }


const rdNetcdfLib* rd_netcdfLib(rdContext* ctx) {
  const rdLazySym syms[] = {
      SYM("nc_create", create),
      SYM("nc_close", close),
      SYM("nc_def_dim", def_dim),
      SYM("nc_def_var", def_var),
      SYM("nc_def_var_chunking", def_var_chunking),
      SYM("nc_def_var_deflate", def_var_deflate),
      SYM("nc_enddef", enddef),
      SYM("nc_put_att_double", put_att_double),
      SYM("nc_put_att_int", put_att_int),
      SYM("nc_put_att_text", put_att_text),
      SYM("nc_put_var1_double", put_var1_double),
      SYM("nc_put_var1_int", put_var1_int),
      SYM("nc_put_var1_longlong", put_var1_longlong),
      SYM("nc_put_var1_string", put_var1_string),
      SYM("nc_put_var_double", put_var_double),
      SYM("nc_put_var_int", put_var_int),
      SYM("nc_put_var_string", put_var_string),
      SYM("nc_put_vara_double", put_vara_double),
      SYM("nc_strerror", strerror),
  };
  int n = (int)(sizeof(syms) / sizeof(syms[0]));
  return rd_lazyLoad(ctx, &g_lib, syms, n, "NetCDF output") == RD_OK ? &g_nc : NULL;
}

#else

const rdNetcdfLib* rd_netcdfLib(rdContext* ctx) {
  static const rdNetcdfLib linked = {nc_create,
                                     nc_close,
                                     nc_def_dim,
                                     nc_def_var,
                                     nc_def_var_chunking,
                                     nc_def_var_deflate,
                                     nc_enddef,
                                     nc_put_att_double,
                                     nc_put_att_int,
                                     nc_put_att_text,
                                     nc_put_var1_double,
                                     nc_put_var1_int,
                                     nc_put_var1_longlong,
                                     nc_put_var1_string,
                                     nc_put_var_double,
                                     nc_put_var_int,
                                     nc_put_var_string,
                                     nc_put_vara_double,
                                     nc_strerror};
  (void)ctx;
  return &linked;
}

#endif
