// SPDX-License-Identifier: MIT
// The functions of netCDF-C that the history.nc, sweep.nc and modes.nc writers call, loaded when
// a run first asks for them: a run without output.netcdf does not load the library and the 45 it
// depends on.
#ifndef RD_NETCDF_LIB_H
#define RD_NETCDF_LIB_H

#include <netcdf.h>

#include "rodrigues/context.h"

typedef struct rdNetcdfLib_ {
  __typeof__(&nc_create) create;
  __typeof__(&nc_close) close;
  __typeof__(&nc_def_dim) def_dim;
  __typeof__(&nc_def_var) def_var;
  __typeof__(&nc_def_var_chunking) def_var_chunking;
  __typeof__(&nc_def_var_deflate) def_var_deflate;
  __typeof__(&nc_enddef) enddef;
  __typeof__(&nc_put_att_double) put_att_double;
  __typeof__(&nc_put_att_int) put_att_int;
  __typeof__(&nc_put_att_text) put_att_text;
  __typeof__(&nc_put_var1_double) put_var1_double;
  __typeof__(&nc_put_var1_int) put_var1_int;
  __typeof__(&nc_put_var1_longlong) put_var1_longlong;
  __typeof__(&nc_put_var1_string) put_var1_string;
  __typeof__(&nc_put_var_double) put_var_double;
  __typeof__(&nc_put_var_int) put_var_int;
  __typeof__(&nc_put_var_string) put_var_string;
  __typeof__(&nc_put_vara_double) put_vara_double;
  __typeof__(&nc_strerror) strerror;
} rdNetcdfLib;

// the functions, loaded once per process (src/core/lazylib.h), or NULL with RD_ERR_IO raised in
// ctx saying why (the library or a function not found)
const rdNetcdfLib* rd_netcdfLib(rdContext* ctx);

#endif  // RD_NETCDF_LIB_H
