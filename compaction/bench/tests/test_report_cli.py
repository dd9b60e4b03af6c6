"""benchreport's input checks (data.validate) and its command line (plot_bench.py and
`python3 -m benchreport`): a report from the fixture, and one line and exit status 2 for a
file that is not a bench report, with nothing written."""
import os
import subprocess
import sys

import pytest

from benchreport import data

from conftest import FIXTURE, TOOLS


def run(args, cwd=None):
    return subprocess.run([sys.executable] + args, capture_output=True, text=True, cwd=cwd)


GOOD = {"sweep": "size", "algorithm": "rlz", "kind": "algorithm", "n": 16, "removed": 0.5,
        "pattern": "random", "median_ms": 1.0, "gbps": 1.0}


@pytest.mark.parametrize("doc, where", [
    ([], "not a JSON object"),
    ({"tool": "compact bench"}, 'no "records" list'),
    ({"records": [1]}, "record 0 is not an object"),
    ({"records": [{"median_ms": 1.0}]}, 'record 0 has no "algorithm" string'),
    ({"records": [{"algorithm": "rlz", "median_ms": 1.0}]}, 'record 0 \\(rlz\\) has no "sweep"'),
    ({"records": [dict(GOOD, median_ms="1")]}, '"median_ms" is not a number'),
    ({"records": [dict(GOOD, n=True)]}, '"n" is not a number'),
    ({"records": [dict(GOOD, phases=[{"name": "mark"}])]}, '"phases" is not a list of'),
    ({"records": [dict(GOOD, phases=[{"name": "scan", "ms": "x"}])]}, '"phases" is not a list'),
    ({"records": [], "sweeps": [{"tag": "size"}]}, "sweep 0 has no tag, purpose and command"),
])
def test_validate_names_the_fault(doc, where):
    with pytest.raises(data.BenchDataError, match=where):
        data.validate(doc)


def test_a_null_phase_time_is_dropped():
    """bench_report.c writes a phase time that is not finite as null: the reader takes the file
    and leaves that phase out."""
    rec = dict(GOOD, phases=[{"name": "scan", "ms": None}, {"name": "scatter", "ms": 0.5}])
    doc = data.validate({"records": [rec]})
    assert doc["records"][0]["phases"] == [{"name": "scatter", "ms": 0.5}]


def test_a_null_time_is_left_out():
    """A non-finite time is written as null: such a record is no measurement."""
    doc = data.validate({"records": [dict(GOOD, median_ms=None), dict(GOOD, median_ms=1.5)]})
    assert [r["median_ms"] for r in data.Data(doc).records] == [1.5]


def test_report_from_the_fixture(tmp_path, compact):
    r = run([os.path.join(TOOLS, "plot_bench.py"), FIXTURE, "--out", str(tmp_path),
             "--compact", compact])
    assert r.returncode in (0, 3), r.stderr  # 3: no matplotlib, README without plots
    readme = (tmp_path / "README.md").read_text()
    assert "| claim | paper's figure | measured here | vs CUB / copy limit | reproduced? |" \
        in readme
    assert "| Phase 1 time grows with the red-zone share r" in readme
    assert r.stdout.splitlines()[0].split()[0] == "partly"  # claim_jj, first


def test_python_m_benchreport(tmp_path, compact):
    r = run(["-m", "benchreport", FIXTURE, "--out", str(tmp_path), "--compact", compact],
            cwd=TOOLS)
    assert r.returncode in (0, 3), r.stderr
    assert (tmp_path / "README.md").exists()


@pytest.mark.parametrize("text, message", [
    ("{", "not valid JSON"),
    ('{"records": {}}', 'no "records" list'),
])
def test_bad_json_one_line_nothing_written(tmp_path, compact, text, message):
    bad = tmp_path / "bench.json"
    bad.write_text(text)
    r = run([os.path.join(TOOLS, "plot_bench.py"), str(bad), "--compact", compact])
    assert r.returncode == 2
    assert r.stderr.count("\n") == 1 and r.stderr.startswith("plot_bench.py: ")
    assert message in r.stderr
    assert sorted(os.listdir(tmp_path)) == ["bench.json"]


def test_missing_file(tmp_path, compact):
    r = run([os.path.join(TOOLS, "plot_bench.py"), str(tmp_path / "none.json"),
             "--compact", compact])
    assert r.returncode == 2
    assert r.stderr.startswith("plot_bench.py: cannot read ") and r.stderr.count("\n") == 1
