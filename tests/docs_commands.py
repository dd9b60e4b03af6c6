#!/usr/bin/env python3
"""docs_commands.py --bin DIR [--bin DIR ...] [--build DIR] SOURCE_DIR [FILE.md ...]

Runs the shell commands that README.md and docs/*.md show (or the FILEs given), as a reader
would type them at the repository's root after the quick start, and fails if one fails.

Which text is a command:
  - A fenced block whose info string is `sh`, `bash`, `shell` or `console`. Other blocks (c,
    cmake, json, output without a language) are not run.
  - In a `console` block only the lines that start with "$ " are commands; the rest is output.

Marking a block that must not run here: an HTML comment on the line right before its opening
fence, naming why:
      <!-- gpu -->              needs a CUDA device
      <!-- display -->          needs a display (the viewer's window)
      <!-- mpi -->              needs mpirun, srun or several machines
      <!-- slow: WHY -->        takes minutes
      <!-- not-run: WHY -->     changes the machine (packages, installs) or needs what this test
                                does not have (an installed library, the network, a full build)
  An unmarked block that names `--backend cuda`, `mpirun`, `srun`, `raycompact view`, `sudo`,
  `apt-get`, `scripts/setup.sh`, `demo.sh`, `test.sh`, `gpu.sh`, `fuzz.sh` or a `cmake -S`,
  `--build` or `--install` fails the test: such a command needs a marker, so none slips in
  unmarked (the scripts change to the repository's root: run here they would build there).

How they run: each file's blocks in order, each block as one `bash -euo pipefail` script, in a
fresh temporary directory per file that holds a symbolic link to every top-level entry of
SOURCE_DIR (so `scenes/cornell.json` and `scripts/...` resolve as at the root) and `build` ->
the build directory (--build). The --bin directories come first on PATH (where `raycompact`
and `compact` were built). A block fails on a non-zero exit status or after 120 seconds.

Exit status 0 when every block ran and passed, 1 otherwise (one line per failure, with the
block's file and line and the end of its output).
"""
import argparse
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

RUN_LANGS = {"sh", "bash", "shell", "console"}
MARKER = re.compile(r"^<!--\s*(gpu|display|mpi|slow|not-run)\b.*-->\s*$")
NEEDS_MARKER = [
    (re.compile(r"--backend\s+cuda\b"), "--backend cuda"),
    (re.compile(r"(^|[\s;&|(])mpirun\b"), "mpirun"),
    (re.compile(r"(^|[\s;&|(])srun\b"), "srun"),
    (re.compile(r"\braycompact\s+view\b(?!.*--help)"), "raycompact view"),
    (re.compile(r"(^|[\s;&|(])sudo\b"), "sudo"),
    (re.compile(r"\bapt-get\b"), "apt-get"),
    (re.compile(r"scripts/(setup|demo|test|gpu|fuzz)\.sh\b"), "a script that installs or builds"),
    (re.compile(r"\bcmake\s+(-S|--build|--install)\b"), "a build or install"),
]
BLOCK_TIMEOUT_S = 120


def blocks(path):
    """Yield (line number, info string, marker or None, text) for each fenced block."""
    with open(path, encoding="utf-8") as fh:
        lines = fh.read().split("\n")
    i = 0
    while i < len(lines):
        m = re.match(r"^(\s*)(`{3,}|~{3,})\s*([\w+-]*)", lines[i])
        if not m:
            i += 1
            continue
        fence, lang, start = m.group(2), m.group(3).lower(), i
        prev = lines[i - 1].strip() if i > 0 else ""
        marker = MARKER.match(prev)
        body = []
        i += 1
        while i < len(lines) and not lines[i].strip().startswith(fence):
            body.append(lines[i])
            i += 1
        i += 1
        yield start + 1, lang, marker.group(1) if marker else None, body


def script_of(lang, body):
    if lang != "console":
        return "\n".join(body) + "\n"
    cmds, cont = [], False
    for line in body:
        if line.startswith("$ "):
            cmds.append(line[2:])
            cont = line.rstrip().endswith("\\")
        elif cont:
            cmds.append(line)
            cont = line.rstrip().endswith("\\")
    return "\n".join(cmds) + "\n"


def workdir(source, build):
    d = tempfile.mkdtemp(prefix="docs_commands.")
    for name in sorted(os.listdir(source)):
        if name.startswith(".") or name.startswith("build") or name == "out":
            continue
        os.symlink(os.path.join(os.path.abspath(source), name), os.path.join(d, name))
    if build:
        os.symlink(os.path.abspath(build), os.path.join(d, "build"))
    return d


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--bin", action="append", default=[], help="a directory for PATH")
    ap.add_argument("--build", help="the build directory, linked as ./build")
    ap.add_argument("source")
    ap.add_argument("files", nargs="*")
    a = ap.parse_args()
    files = a.files or [os.path.join(a.source, "README.md")] + sorted(
        glob.glob(os.path.join(a.source, "docs", "*.md")))
    env = dict(os.environ)
    env["PATH"] = os.pathsep.join([os.path.abspath(b) for b in a.bin] + [env.get("PATH", "")])
    failures, ran, skipped = [], 0, 0
    t_all = time.monotonic()
    for path in files:
        rel = os.path.relpath(path, a.source)
        work = workdir(a.source, a.build)
        for line, lang, marker, body in blocks(path):
            if lang not in RUN_LANGS:
                continue
            script = script_of(lang, body)
            where = "%s:%d" % (rel, line)
            if marker:
                skipped += 1
                print("docs_commands: %s: not run (%s)" % (where, marker))
                continue
            bad = [name for pat, name in NEEDS_MARKER if pat.search(script)]
            if bad:
                failures.append("%s: unmarked block uses %s (mark it, see the top of "
                                "tests/docs_commands.py)" % (where, ", ".join(bad)))
                continue
            t0 = time.monotonic()
            try:
                p = subprocess.run(["bash", "-euo", "pipefail", "-c", script], cwd=work, env=env,
                                   stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                                   timeout=BLOCK_TIMEOUT_S)
                rc, out = p.returncode, p.stdout
            except subprocess.TimeoutExpired as e:
                rc = "timeout after %d s" % BLOCK_TIMEOUT_S
                out = e.stdout.decode(errors="replace") if isinstance(e.stdout, bytes) else (
                    e.stdout or "")
            ran += 1
            dt = time.monotonic() - t0
            if rc != 0:
                tail = "\n".join("    " + x for x in out.rstrip().split("\n")[-15:])
                failures.append("%s: exit %s\n    script:\n%s\n    output:\n%s" % (
                    where, rc, "\n".join("      " + x for x in script.rstrip().split("\n")),
                    tail))
                print("docs_commands: %s: FAILED (%s, %.1f s)" % (where, rc, dt))
            else:
                print("docs_commands: %s: ok (%.1f s)" % (where, dt))
        shutil.rmtree(work)  # the links only, never what they point to
    for f in failures:
        print("docs_commands: " + f)
    print("docs_commands: %d blocks run, %d failed, %d marked not to run, %.0f s" % (
        ran, len(failures), skipped, time.monotonic() - t_all))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
