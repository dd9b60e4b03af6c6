"""pytest setup for the tools' Python tests: the tools directory on the path (for benchreport
and plot_policy), the algorithm table read once from the compact tool ($COMPACT, else compact
on PATH), and the checked-in fixture (fixtures/bench_h100.json, see README.md here)."""
import copy
import json
import os
import shutil
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
TOOLS = os.path.dirname(HERE)
sys.path.insert(0, TOOLS)

from benchreport import data  # noqa: E402

FIXTURE = os.path.join(HERE, "fixtures", "bench_h100.json")


@pytest.fixture(scope="session")
def compact():
    path = os.environ.get("COMPACT") or shutil.which("compact")
    if not path:
        pytest.fail("set $COMPACT to the compact tool (the algorithm table comes from it)")
    return path


@pytest.fixture(scope="session")
def table(compact):
    data.load_table(compact)
    return compact


@pytest.fixture(scope="session")
def fixture_doc():
    with open(FIXTURE) as f:
        return json.load(f)


@pytest.fixture
def doc(fixture_doc, table):
    """A fresh copy of the fixture (tests edit it), with the table loaded."""
    return copy.deepcopy(fixture_doc)
