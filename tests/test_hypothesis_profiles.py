"""The hypothesis profiles (tests/conftest.py): CI fails fast, a developer gets a shrunk case."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from hypothesis import Phase, settings

ROOT = Path(__file__).resolve().parents[1]


def _expected() -> str:
    """The profile this environment should have loaded."""
    ci = os.environ.get("CI", "").lower() not in ("", "0", "false")
    return os.environ.get("HYPOTHESIS_PROFILE") or ("ci" if ci else "dev")


def test_the_ci_profile_never_shrinks_and_has_a_deadline():
    """A broken rule must not shrink for minutes in CI; locally it is shrunk."""
    ci, dev = settings.get_profile("ci"), settings.get_profile("dev")
    assert Phase.shrink not in ci.phases and Phase.explain not in ci.phases
    assert ci.deadline is not None and ci.max_examples <= 100
    assert not ci.report_multiple_bugs
    assert Phase.shrink in dev.phases


def test_the_loaded_profile_matches_the_environment():
    """CI=true loads "ci", no CI "dev", HYPOTHESIS_PROFILE wins over both."""
    loaded, expected = settings.default, settings.get_profile(_expected())
    assert (loaded.phases, loaded.deadline, loaded.max_examples) == (
        expected.phases, expected.deadline, expected.max_examples)


def test_ci_true_selects_the_ci_profile():
    """The check above, run again in a pytest where CI=true, as a CI service sets it."""
    env = {k: v for k, v in os.environ.items() if k != "HYPOTHESIS_PROFILE"} | {"CI": "true"}
    test = f"{Path(__file__).relative_to(ROOT)}::test_the_loaded_profile_matches_the_environment"
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", test],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
