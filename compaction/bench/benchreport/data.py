"""benchreport.data: the bench JSON, read and checked, and the algorithm table.

`load(path)` reads the JSON of `compact bench --report` and checks its shape (one line of
error, BenchDataError, for a file that is not such a report); `Data` answers the claims' and
the plots' queries over its records. The algorithms, and which of them are stable, come from
the library's table through `compact list --names` (`load_table`).
"""
import json
import math
import subprocess

MOREIRA = ["horn", "jumping-jack", "rlz", "binary-tree"]
MOREIRA_STABLE = ["horn", "rlz", "binary-tree"]
# The bench's own baselines, after the library's algorithms in plots and tables.
BASELINES = ["thrust-remove-if", "thrust-remove-list", "scatter-limit", "copy"]
# Set by load_table() from the library's table: every algorithm in table order, then the
# baselines; and the stable ones but the serial reference (the contenders of claim_bt).
ORDER = []
ALL_STABLE = []


def load_table(compact):
    """ORDER and ALL_STABLE from `compact list --names [--stable]`."""
    def names(*extra):
        out = subprocess.run([compact, "list", "--names"] + list(extra), check=True,
                             capture_output=True, text=True).stdout
        return out.split()
    ORDER[:] = names() + BASELINES
    ALL_STABLE[:] = [a for a in names("--stable") if a != "serial"]


# The fields every record has (null where they do not apply): the plots and the README read
# them without asking.
REQUIRED = ("sweep", "kind", "n", "removed", "pattern", "median_ms", "gbps")


class BenchDataError(ValueError):
    """The JSON is not a report of `compact bench --report`: the message says where."""


def _number(x):
    return isinstance(x, (int, float)) and not isinstance(x, bool)


def validate(doc):
    """Raise BenchDataError unless doc is a bench report: an object with a list of records,
    each an object with a string "algorithm" and numbers (or null) where the report reads
    numbers."""
    if not isinstance(doc, dict):
        raise BenchDataError("not a JSON object")
    records = doc.get("records")
    if not isinstance(records, list):
        raise BenchDataError("no \"records\" list")
    for i, r in enumerate(records):
        if not isinstance(r, dict):
            raise BenchDataError("record %d is not an object" % i)
        if not isinstance(r.get("algorithm"), str):
            raise BenchDataError("record %d has no \"algorithm\" string" % i)
        for key in REQUIRED:
            if key not in r:
                raise BenchDataError("record %d (%s) has no \"%s\"" % (i, r["algorithm"], key))
        if not _number(r.get("median_ms")) and r.get("median_ms") is not None:
            raise BenchDataError("record %d: \"median_ms\" is not a number" % i)
        for key in ("n", "removed", "red_share", "gbps", "x_cub", "pct_copy", "tile"):
            if r.get(key) is not None and not _number(r[key]):
                raise BenchDataError("record %d: \"%s\" is not a number" % (i, key))
        phases = r.get("phases", [])
        if not isinstance(phases, list) or not all(
                isinstance(p, dict) and isinstance(p.get("name"), str) and
                "ms" in p and (_number(p["ms"]) or p["ms"] is None) for p in phases):
            raise BenchDataError("record %d: \"phases\" is not a list of {name, ms}" % i)
    for i, s in enumerate(doc.get("sweeps", [])):
        if not isinstance(s, dict) or not all(isinstance(s.get(k), str)
                                              for k in ("tag", "purpose", "command")):
            raise BenchDataError("sweep %d has no tag, purpose and command strings" % i)
    # a phase whose time was not finite is written as null: it has no time to add up
    for r in records:
        if r.get("phases"):
            r["phases"] = [p for p in r["phases"] if p.get("ms") is not None]
    return doc


def load(path):
    """The report in path, checked by validate(); BenchDataError if it does not parse."""
    with open(path) as f:
        try:
            doc = json.load(f)
        except ValueError as e:
            raise BenchDataError("not valid JSON (%s)" % e) from None
    return validate(doc)


# ---------------------------------------------------------------- queries

class Data:
    """The records of a report; mismatched ones (differing from the serial reference) and
    ones without a time (a non-finite one is written as null) are left out of the queries."""

    def __init__(self, doc):
        self.doc = doc
        self.records = [r for r in doc["records"]
                        if r.get("check") != "MISMATCH" and r.get("median_ms") is not None]
        self.mismatches = [r for r in doc["records"] if r.get("check") == "MISMATCH"]

    def find(self, **kw):
        out = []
        for r in self.records:
            if all(_match(r.get(k), v) for k, v in kw.items()):
                out.append(r)
        return out

    def one(self, **kw):
        rows = self.find(**kw)
        return rows[0] if rows else None

    def ms(self, **kw):
        r = self.one(**kw)
        return r["median_ms"] if r else None

    def values(self, key, **kw):
        return sorted({r[key] for r in self.find(**kw) if r.get(key) is not None})


def _match(value, want):
    if callable(want):
        return want(value)
    if isinstance(want, float) and isinstance(value, (int, float)):
        return abs(value - want) < 1e-9
    return value == want


def near(x):
    return lambda v: v is not None and abs(v - x) < 1e-6


def density_at(algorithm, f, **kw):
    """The query (for Data.one, .ms, .find) of algorithm's density-sweep record at the removed
    fraction f, random pattern; kw narrows it (tile, order)."""
    return dict(sweep="density", algorithm=algorithm, removed=near(f), pattern="random", **kw)


def pct(x):
    return "%.0f %%" % (100 * x) if x is not None else "-"


def fmt_n(n):
    e = int(round(math.log2(n))) if n > 0 else 0
    return "2^%d" % e if n == 1 << e else str(n)


def order_key(name):
    return ORDER.index(name) if name in ORDER else len(ORDER)



def interior(fs):
    return [f for f in fs if 0 < f < 1]


def nearest(fs, targets, tol=0.16):
    """For each target, the closest of fs (0 < f < 1) within tol; no repeats."""
    out = []
    for t in targets:
        cands = [f for f in interior(fs) if abs(f - t) <= tol and f not in out]
        if cands:
            out.append(min(cands, key=lambda f: abs(f - t)))
    return out

