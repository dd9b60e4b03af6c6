#!/usr/bin/env python3
"""install_example.py --build DIR [--cmake CMAKE] SOURCE_DIR

Runs docs/library.md's install example as a reader of the page would: its example program
written to keep_even.c, then the shell block marked `tests/install_example.py` (it installs the
build under ~/.local, compiles keep_even.c through pkg-config and runs it) with HOME in a
temporary folder and `build` a link to the build directory; the program must print what the
page says it prints. Then the installed raycompact and compact must start. LD_LIBRARY_PATH,
PKG_CONFIG_PATH and PKG_CONFIG_LIBDIR are unset first: nothing the page does not say helps.

Exit status 0 when all of it passed; 1 otherwise (with the failing step and its output); 77
(skipped) without a C compiler `cc` or pkg-config on PATH.
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

MARK = "tests/install_example.py"


def page_parts(path):
    """(the C example, the marked shell block, what the page says the program prints)."""
    text = open(path, encoding="utf-8").read()
    c = re.search(r"^```c\n(#include <raycompact/compaction.h>\n.*?)^```$", text, re.M | re.S)
    sh = re.search(r"^<!--[^\n]*" + re.escape(MARK) + r"[^\n]*-->\n```sh\n(.*?)^```$", text,
                   re.M | re.S)
    prints = re.search(r"prints `([^`]+)`:\n\n<!--[^\n]*" + re.escape(MARK), text)
    if not (c and sh and prints):
        sys.exit("install_example: %s: no example program, marked block or printed line" % path)
    return c.group(1), sh.group(1), prints.group(1)


def run(what, cmd, env, cwd):
    p = subprocess.run(cmd, env=env, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       universal_newlines=True, timeout=120)
    if p.returncode != 0:
        print("install_example: %s: exit %d\n%s" % (what, p.returncode, p.stdout[-3000:]))
        sys.exit(1)
    return p.stdout


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", required=True)
    ap.add_argument("--cmake", help="the cmake to put first on PATH")
    ap.add_argument("source")
    a = ap.parse_args()
    program, block, want = page_parts(os.path.join(a.source, "docs", "library.md"))
    env = {k: v for k, v in os.environ.items()
           if k not in ("LD_LIBRARY_PATH", "PKG_CONFIG_PATH", "PKG_CONFIG_LIBDIR")}
    if a.cmake:
        env["PATH"] = os.path.dirname(os.path.abspath(a.cmake)) + os.pathsep + env["PATH"]
    missing = [t for t in ("cc", "pkg-config") if not shutil.which(t, path=env["PATH"])]
    if missing:
        print("install_example: SKIPPED: no %s on PATH" % ", ".join(missing))
        return 77
    work = tempfile.mkdtemp(prefix="install_example.")
    try:
        env["HOME"] = os.path.join(work, "home")
        os.mkdir(env["HOME"])
        os.symlink(os.path.abspath(a.build), os.path.join(work, "build"))
        with open(os.path.join(work, "keep_even.c"), "w") as f:
            f.write(program)
        out = run("docs/library.md's install block", ["bash", "-euo", "pipefail", "-c", block],
                  env, work)
        if want not in out:
            print("install_example: the example printed\n%s\nnot '%s'" % (out[-2000:], want))
            return 1
        local = os.path.join(env["HOME"], ".local", "bin")
        for cmd in (["raycompact", "--version"], ["compact", "list"]):
            run("installed " + cmd[0], [os.path.join(local, cmd[0])] + cmd[1:], env, work)
        print("install_example: the page's commands printed '%s'; the installed raycompact and "
              "compact run without LD_LIBRARY_PATH" % want)
        return 0
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
