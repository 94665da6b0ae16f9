#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Print the build and run commands that the documentation gives to hosts, one per line, as
# "FILE<TAB>COMMAND", so that tests/test_examples.sh can run them exactly as written:
#   - in examples/*: the comment lines under a line ending "against an installed rodrigues:",
#     indented by two spaces after the comment marker (// ! #), up to the first line that is not;
#   - in README.md, docs/api.md, docs/python.md: lines of ```sh blocks that start with cc, g++,
#     gfortran, mpicc, cmake or python3.
# Lines ending in a backslash continue on the next. Commands are written for the source root.
# usage: doc_commands.py SOURCE_DIR
import glob
import os
import re
import sys

src = sys.argv[1]
tools = ("cc ", "g++ ", "gfortran ", "mpicc ", "cmake ", "python3 ")


def joined(lines):
    out, cur = [], ""
    for line in lines:
        line = line.strip()
        if line.endswith("\\"):
            cur += line[:-1].rstrip() + " "
        else:
            out.append(cur + line)
            cur = ""
    return out


for path in sorted(glob.glob(os.path.join(src, "examples", "**", "*"), recursive=True)):
    if not os.path.isfile(path):
        continue
    rel = os.path.relpath(path, src)
    lines, on = [], False
    for line in open(path, encoding="utf-8"):
        m = re.match(r"\s*(//|!|#)(.*)$", line.rstrip("\n"))
        text = m.group(2) if m else None
        if on and text is not None and text.startswith("   "):
            lines.append(text)
        elif on:
            break
        elif text is not None and text.rstrip().endswith("against an installed rodrigues:"):
            on = True
    for cmd in joined(lines):
        print(f"{rel}\t{cmd}")

for rel in ("README.md", "docs/api.md", "docs/python.md"):
    path = os.path.join(src, rel)
    if not os.path.exists(path):
        continue
    lines, block = [], None
    for line in open(path, encoding="utf-8"):
        if line.startswith("```"):
            block = line.strip()[3:] if block is None else None
            continue
        if block == "sh":
            lines.append(line)
    for cmd in joined(lines):
        if cmd.startswith(tools):
            print(f"{rel}\t{cmd}")
