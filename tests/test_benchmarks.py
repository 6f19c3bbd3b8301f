"""The benchmark scripts still run (tiny sizes; their figures are not checked here)."""

import subprocess
import sys
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"


@pytest.mark.parametrize("script, args, expect", [
    ("replay.py", ["--deals", "20", "--repeat", "2"], "deals/s"),
    ("pdf.py", ["--sizes", "30", "--repeat", "1"], "30"),
    ("web.py", ["--sizes", "20", "40", "--requests", "5"], "log-log slope"),
    ("flood.py", ["--games", "2", "--deals", "20"], "host's first list view: 200"),
])
def test_a_benchmark_runs_and_prints_its_figures(script, args, expect):
    """Each script runs to the end at a tiny size: a script broken by a change of the
    code it measures fails here, not on the day someone needs its figures."""
    done = subprocess.run([sys.executable, str(BENCHMARKS / script), *args],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    assert expect in done.stdout, done.stdout
