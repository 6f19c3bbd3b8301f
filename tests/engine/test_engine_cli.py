"""``python -m scorer agreements`` and the replay command's refusals of unreadable input."""

import os
import subprocess
import sys
from pathlib import Path

from scorer.engine import catalog, resolve_agreements


def scorer(*args: str, cwd) -> subprocess.CompletedProcess:
    """Run ``python -m scorer ARGS`` in ``cwd`` and return the finished process (the
    checkout's code first on the path, not an installed copy)."""
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
    return subprocess.run([sys.executable, "-m", "scorer", *args], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=60)


def test_agreements_prints_every_agreement_of_a_preset(tmp_path):
    """Each catalog agreement appears once, with its title; what differs from classic is starred."""
    done = scorer("agreements", "--preset", "polish", "--lang", "en", cwd=tmp_path)
    assert done.returncode == 0 and done.stderr == ""
    lines = done.stdout.splitlines()
    assert lines[0] == f"{catalog().presets['polish'].title['en']} (polish)"
    changed = resolve_agreements("polish").differences("classic")
    assert changed
    for spec in catalog().agreements.values():
        [line] = [line for line in lines if line.endswith(f"[{spec.id}]")
                  or f"[{spec.id}] (" in line]
        assert spec.title["en"] in line
        assert line.startswith("*") == (spec.id in changed), line


def test_agreements_in_russian_marks_advisory_ones(tmp_path):
    """Russian by default; an advisory agreement says so."""
    done = scorer("agreements", cwd=tmp_path)
    assert done.returncode == 0
    advisory = next(s for s in catalog().agreements.values() if not s.enforced)
    [line] = [line for line in done.stdout.splitlines() if f"[{advisory.id}]" in line]
    assert line.endswith("(совет)") and advisory.title["ru"] in line


def test_unknown_preset_is_one_line_and_status_2(tmp_path):
    """An unknown preset name is refused like any other bad setting."""
    done = scorer("agreements", "--preset", "nope", "--lang", "en", cwd=tmp_path)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr == "game: agreements: unknown preset 'nope'\n"


def test_unreadable_files_are_one_line_in_either_language(tmp_path):
    """A missing file and a file that is not UTF-8 are named, not called bad JSON."""
    (tmp_path / "latin1.json").write_bytes(b'{"players": ["\xe9"]}')
    cases = [("nope.json", "game: file: cannot read nope.json", "игра: file: не удаётся"),
             ("latin1.json", "game: file: latin1.json is not UTF-8", "игра: file: latin1.json")]
    for name, english, russian in cases:
        for lang, start in (("en", english), ("ru", russian)):
            done = scorer("replay", name, "--lang", lang, cwd=tmp_path)
            assert done.returncode == 2 and done.stdout == ""
            assert len(done.stderr.splitlines()) == 1 and done.stderr.startswith(start)


def test_deeply_nested_json_is_one_line(tmp_path):
    """JSON nested past Python's recursion limit is refused in one line, not a traceback
    (by the count of objects and lists, before anything is decoded)."""
    (tmp_path / "deep.json").write_text("[" * 100_000 + "]" * 100_000, encoding="utf-8")
    for command in (("replay", "deep.json"), ("pdf", "deep.json", "-o", "out.pdf")):
        done = scorer(*command, "--lang", "en", cwd=tmp_path)
        assert done.returncode == 2 and done.stdout == ""
        assert done.stderr == ("game: json: more objects and lists (100000) than any game "
                               "log holds (at most 23000)\n")
