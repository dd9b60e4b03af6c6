"""The verdicts of the bench report's claims (benchreport/claims.py) on the checked-in fixture
(the first H100 run of the report, 2026-11-22, the records the claims read; docs/bench/h100
now holds a later run), and on copies of it edited so
that the data says otherwise: each edit must move its claim's verdict, to the verdict the
rule gives, and no other claim's unless the test names it."""
import pytest

from benchreport import claims, data

# What the report said about that run (docs/bench/h100/README.md of 2026-11-22).
REAL = {
    "claim_jj": "partly",
    "claim_bt": "partly",
    "claim_rlz": "no",
    "claim_scan": "no",
    "claim_redzone": "partly",
    "claim_phase1": "yes",
    "claim_breakeven": "no",
    "claim_r": "yes",
    "claim_billeter": "yes",
}


def verdicts(doc):
    _, by = claims.evaluate(data.Data(doc))
    return {name: c["verdict"] for name, c in by.items()}


def records(doc, **where):
    """The records whose fields match where (floats within 1e-9, callables as predicates)."""
    return [r for r in doc["records"] if all(data._match(r.get(k), v) for k, v in where.items())]


def ms(doc, **where):
    rows = records(doc, **where)
    assert rows, where
    return rows[0]["median_ms"]


def scale(doc, factor, **where):
    for r in records(doc, **where):
        r["median_ms"] *= factor
    return doc


def assert_moves(doc, claim, want, also=None):
    """Only claim (and the claims in also: name -> verdict) differ from REAL, as given."""
    got = verdicts(doc)
    moved = {k: got[k] for k in got if got[k] != REAL[k]}
    assert moved == dict({claim: want}, **(also or {}))


def interior(r):
    return 0 < r["removed"] < 1


def test_the_real_run(doc):
    assert verdicts(doc) == REAL


def test_the_claims_run_on_the_whole_run_alike(doc):
    """The fixture keeps every record a claim reads: the sentences equal those of the whole
    run's report."""
    by = claims.evaluate(data.Data(doc))[1]
    assert by["claim_bt"]["measured"] == (
        "binary-tree fastest of horn/rlz/binary-tree at 17 of 24 (tile, removed >= 60 %) "
        "points; fastest stable of all at 95 % removed: single-pass (0.035 ms; binary-tree "
        "0.066 ms)")
    assert by["claim_billeter"]["vs"].startswith("billeter 2^26: ")


def test_table_from_the_library(table):
    assert "jumping-jack" in data.ORDER
    assert "binary-tree" in data.ALL_STABLE
    assert "jumping-jack" not in data.ALL_STABLE  # unstable
    assert "serial" not in data.ALL_STABLE  # the reference is no contender


# ---- Jumping Jack against Horn

def test_jj_slower_than_horn_everywhere(doc):
    assert_moves(scale(doc, 5, algorithm="jumping-jack"), "claim_jj", "no")


def test_jj_as_the_paper_says(doc):
    """JJ 20 % faster than Horn below 75 % removed, 20 % slower above: the crossover falls
    in the paper's range at every tile. JJ's time now follows Horn's, whose spread over the
    densities is larger than the measured JJ's: RLZ becomes the least spread at a tile."""
    for r in records(doc, sweep="density", algorithm="jumping-jack", pattern="random"):
        if interior(r):
            h = ms(doc, sweep="density", algorithm="horn", tile=r["tile"],
                   removed=data.near(r["removed"]), pattern="random")
            r["median_ms"] = h / 1.25 if r["removed"] < 0.75 else h * 1.25
    assert_moves(doc, "claim_jj", "yes", also={"claim_rlz": "partly"})


def test_jj_not_measured(doc):
    doc["records"] = [r for r in doc["records"] if r["algorithm"] != "jumping-jack"]
    assert verdicts(doc)["claim_jj"] == "not measured"


# ---- Binary-Tree on sparse streams

def test_bt_fastest_everywhere(doc):
    assert_moves(scale(doc, 0.2, algorithm="binary-tree"), "claim_bt", "yes")


def test_bt_never_fastest(doc):
    assert_moves(scale(doc, 5, algorithm="binary-tree"), "claim_bt", "no")


# ---- RLZ the least data-dependent

def test_rlz_independent_of_density(doc):
    """RLZ's time the same at every density (its slowest): the least spread at every tile."""
    for t in data.Data(doc).values("tile", sweep="density", algorithm="rlz"):
        rows = [r for r in records(doc, sweep="density", algorithm="rlz", tile=t,
                                   pattern="random") if interior(r)]
        slowest = max(r["median_ms"] for r in rows)
        for r in rows:
            r["median_ms"] = slowest
    assert_moves(doc, "claim_rlz", "yes")


# ---- Hillis-Steele against Blelloch

def test_scan_as_the_paper_says(doc):
    """Blelloch 20 % slower than Hillis-Steele below tile 128, 20 % faster above."""
    for r in records(doc, sweep="scan", scan="blelloch"):
        hs = ms(doc, sweep="scan", algorithm=r["algorithm"], tile=r["tile"],
                scan="hillis-steele")
        r["median_ms"] = hs * (1.2 if r["tile"] < 128 else 0.8)
    assert_moves(doc, "claim_scan", "yes")


def test_scan_ties_count_against(doc):
    """Every pair within 3 %: ties, which the rule counts as disagreeing."""
    for r in records(doc, sweep="scan", scan="blelloch"):
        r["median_ms"] = 1.01 * ms(doc, sweep="scan", algorithm=r["algorithm"],
                                   tile=r["tile"], scan="hillis-steele")
    assert verdicts(doc)["claim_scan"] == "no"


# ---- Redzone against thrust::remove, and its break-even

def redzone_speedup(doc, speedup):
    """Redzone (random-order lists) at thrust-remove-list's time / speedup(removed)."""
    for r in records(doc, sweep="density", algorithm="redzone", order="random",
                     pattern="random"):
        if interior(r):
            t = ms(doc, sweep="density", algorithm="thrust-remove-list", order="random",
                   removed=data.near(r["removed"]), pattern="random")
            r["median_ms"] = t / speedup(r["removed"])
    return doc


def test_redzone_slow(doc):
    assert_moves(scale(doc, 10, algorithm="redzone"), "claim_redzone", "no")


def test_redzone_as_the_paper_says(doc):
    """8x at 2 %, on par at 50 %, 0.8x at 90 %: yes. Its break-even (the same curve) then
    falls at 45-50 % removed, inside the break-even claim's range."""
    redzone_speedup(doc, lambda f: 8.0 if f < 0.45 else 1.0 if f < 0.7 else 0.8)
    assert_moves(doc, "claim_redzone", "yes", also={"claim_breakeven": "yes"})


def test_breakeven_in_range(doc):
    """2x faster than thrust below 60 % removed, 2x slower above: break-even at 55-60 %."""
    redzone_speedup(doc, lambda f: 2.0 if f < 0.6 else 0.5)
    assert_moves(doc, "claim_breakeven", "yes")


# ---- Redzone's phase 1

def scale_mark(doc, fn, **where):
    for r in records(doc, algorithm="redzone", **where):
        for p in r.get("phases", []):
            if p["name"] == "mark":
                p["ms"] = fn(p["ms"], r)
    return doc


def test_phase1_small(doc):
    scale_mark(doc, lambda m, r: m * 0.01, sweep="density")
    assert_moves(doc, "claim_phase1", "no")


def test_phase1_falls_with_r(doc):
    """Mark time falling as the red-zone share r grows, at every k."""
    scale_mark(doc, lambda m, r: 1.0 - 0.5 * r["red_share"], sweep="redzone-r")
    assert_moves(doc, "claim_r", "no")


def test_phase1_without_phases(doc):
    for r in records(doc, algorithm="redzone"):
        r.pop("phases", None)
    got = verdicts(doc)
    assert got["claim_phase1"] == "not measured"
    assert got["claim_r"] == "no"  # mark time 0 everywhere: it does not grow


# ---- Billeter against Spataro

def test_billeter_slower_than_spataro(doc):
    assert_moves(scale(doc, 3, algorithm="billeter"), "claim_billeter", "no")


def test_billeter_faster_by_more_than_a_constant(doc):
    assert_moves(scale(doc, 0.5, algorithm="billeter"), "claim_billeter", "partly")


def test_billeter_not_constant(doc):
    """Within 1.2-2x on median, but 1.2x at one end and 2x at the other: not a constant
    factor (coefficient of variation over n above 0.2), so partly."""
    ns = data.Data(doc).values("n", sweep="size", algorithm="billeter")
    big = [n for n in ns if n >= max(ns) / 64]
    for i, n in enumerate(big):
        s = ms(doc, sweep="size", algorithm="spataro", n=n)
        q = 1.01 if i < len(big) // 2 else 2.0
        for r in records(doc, sweep="size", algorithm="billeter", n=n):
            r["median_ms"] = s / q
    assert_moves(doc, "claim_billeter", "partly")


# ---- what every claim does with data it cannot use

def test_mismatches_are_left_out(doc):
    for r in records(doc, algorithm="billeter"):
        r["check"] = "MISMATCH"
    assert_moves(doc, "claim_billeter", "not measured")


@pytest.mark.parametrize("sweep", ["density", "scan", "redzone-r", "size", "pattern",
                                   "vector-io"])
def test_a_missing_sweep_is_not_measured(doc, sweep):
    doc["records"] = [r for r in doc["records"] if r.get("sweep") != sweep]
    got = verdicts(doc)
    assert set(got.values()) <= {"yes", "partly", "no", "not measured"}
    reads = {"density": ["claim_jj", "claim_bt", "claim_redzone", "claim_phase1",
                         "claim_breakeven"],
             "scan": ["claim_scan"], "redzone-r": ["claim_r"], "size": ["claim_billeter"]}
    for name in reads.get(sweep, []):
        assert got[name] == "not measured", name
