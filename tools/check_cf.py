#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Check a NetCDF file against the rules of the CF conventions (1.8) that rodrigues' history.nc
# relies on; Debian packages no CF checker, so this script tests them one by one (docs/cli.md,
# "history.nc and the CF conventions"):
#   2.3  names start with a letter and hold letters, digits and underscores only;
#   2.6  the global attribute Conventions names CF-1.8 or later;
#   3.1  every numeric variable but the labels has a units attribute, a string that UDUNITS-2
#        parses (through libudunits2, as the CF checker does), and a long_name or standard_name;
#   4.4  a variable that CF would take for a time axis (units with "since", axis T or
#        standard_name time) has a reference time in its units; `time` is a duration instead:
#        units convertible to seconds, none of those three;
#   5    a coordinate variable (one dimension, its own name) is numeric and strictly monotonic,
#        or a string label (netCDF-4, as the NUG allows) with unique values; the dimensions
#        node, joint and section (when present) each have one;
#   6.1  labels are strings.
# usage: check_cf.py FILE.nc...   (needs python3-netcdf4, python3-numpy, libudunits2-0;
# prints "N passed, M failed", exits 1 on a failure)
import ctypes
import ctypes.util
import re
import sys

import netCDF4
import numpy as np

passed = failed = 0


def check(ok, message):
    global passed, failed
    if ok:
        passed += 1
    else:
        failed += 1
        print("FAIL: " + message)


class Udunits:
    """UDUNITS-2 through its C library: parse a unit string, compare two units."""

    def __init__(self):
        name = ctypes.util.find_library("udunits2") or "libudunits2.so.0"
        self.lib = ctypes.CDLL(name)
        self.lib.ut_read_xml.restype = ctypes.c_void_p
        self.lib.ut_read_xml.argtypes = [ctypes.c_char_p]
        self.lib.ut_parse.restype = ctypes.c_void_p
        self.lib.ut_parse.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_int]
        self.lib.ut_are_convertible.argtypes = [ctypes.c_void_p, ctypes.c_void_p]
        self.lib.ut_free.argtypes = [ctypes.c_void_p]
        # quiet: errors are reported here, not on stderr
        self.lib.ut_set_error_message_handler.argtypes = [ctypes.c_void_p]
        self.lib.ut_set_error_message_handler(ctypes.cast(self.lib.ut_ignore, ctypes.c_void_p))
        self.system = self.lib.ut_read_xml(None)
        if not self.system:
            raise RuntimeError("UDUNITS-2: cannot read its unit database")

    def parse(self, text):
        return self.lib.ut_parse(self.system, text.encode(), 0)  # UT_ASCII

    def valid(self, text):
        u = self.parse(text)
        self.lib.ut_free(u)
        return bool(u)

    def convertible(self, a, b):
        ua, ub = self.parse(a), self.parse(b)
        ok = bool(ua and ub and self.lib.ut_are_convertible(ua, ub))
        self.lib.ut_free(ua)
        self.lib.ut_free(ub)
        return ok


def check_file(path, units):
    ds = netCDF4.Dataset(path)
    conv = getattr(ds, "Conventions", "")
    m = re.fullmatch(r"CF-1\.(\d+)", conv)
    check(m is not None and int(m.group(1)) >= 8, f"{path}: Conventions is '{conv}', not CF-1.8+")
    for name in list(ds.dimensions) + list(ds.variables):
        check(re.fullmatch(r"[A-Za-z][A-Za-z0-9_]*", name) is not None, f"{path}: name '{name}'")
    for dim in ("node", "joint", "section"):
        if dim in ds.dimensions:
            check(dim in ds.variables, f"{path}: dimension {dim} has no coordinate variable")
    for name, var in ds.variables.items():
        where = f"{path}: {name}"
        is_string = var.dtype == str
        is_coord = var.dimensions == (name,)
        attrs = var.ncattrs()
        check("long_name" in attrs or "standard_name" in attrs, f"{where}: no long_name")
        if is_string:
            check(is_coord, f"{where}: a string variable that labels no dimension")
            values = list(var[:])
            check(len(set(values)) == len(values), f"{where}: labels repeat")
            check("units" not in attrs, f"{where}: a label with units")
            continue
        check("units" in attrs, f"{where}: no units")
        u = getattr(var, "units", "")
        check(isinstance(u, str) and units.valid(u), f"{where}: UDUNITS-2 cannot parse '{u}'")
        looks_time = ("since" in u or getattr(var, "axis", "") == "T"
                      or getattr(var, "standard_name", "") == "time")
        if looks_time:
            check(re.search(r"\bsince\b", u) is not None,
                  f"{where}: a time axis needs a reference time in its units")
        if name == "time":
            check(not looks_time and units.convertible(u, "s"),
                  f"{where}: time must be a duration convertible to seconds (got '{u}')")
        if is_coord:
            v = np.asarray(var[:], dtype=float)
            d = np.diff(v)
            check(v.size < 2 or np.all(d > 0) or np.all(d < 0),
                  f"{where}: coordinate values not strictly monotonic")
    ds.close()


def main():
    units = Udunits()
    for path in sys.argv[1:]:
        check_file(path, units)
    print(f"{passed} passed, {failed} failed")
    return 1 if failed or len(sys.argv) < 2 else 0


if __name__ == "__main__":
    sys.exit(main())
