"""Every table is read and written through the store layer (docs/DESIGN.md, «Where the
data is read and written»): no SQL outside scorer/store.py, scorer/club_store.py,
scorer/store_checks.py and scorer/store_files.py.

The scan reads the package's source as Python tokens (comments and docstrings that merely
mention a word are not code): a call of execute/executemany/executescript/query/
rows_where/table, a subscript of ``db`` (sqlite-utils' table access), a new connection,
or a string that begins like an SQL statement, anywhere outside the store layer, fails.
"""

from __future__ import annotations

import io
import re
import tokenize
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "scorer"

# The store layer (pyproject.toml's import-linter contract): the only SQL in the package.
STORE_LAYER = {"scorer/store.py", "scorer/club_store.py", "scorer/store_checks.py",
               "scorer/store_files.py"}

# Files outside the store layer still allowed to hold SQL, each with the reason. None is
# left: backup, restore and export-all's whole-file work (online backup, an attached copy
# checked table by table, the totals made again) lives in scorer/store_files.py.
ALLOWED: set[str] = set()

# Python 3.12 splits an f-string into tokens; its text is FSTRING_MIDDLE.
STRINGS = {tokenize.STRING, getattr(tokenize, "FSTRING_MIDDLE", tokenize.STRING)}
CALLS = {"execute", "executemany", "executescript", "query", "rows_where", "table"}
CONNECTS = {("sqlite3", "connect")}
STATEMENT = re.compile(
    r"^\s*(select\s.*\bfrom\b|insert\s+(or\s+\w+\s+)?into\s|update\s+\w+\s+set\s|"
    r"delete\s+from\s|create\s+(unique\s+)?(table|index|view|trigger)\s|"
    r"drop\s+(table|index)\s|alter\s+table\s|pragma\s+[\w.]+\s*(=|\(|$)|"
    r"attach\s+database\s|with\s+\w+\s+as\s*\()",
    re.IGNORECASE | re.DOTALL)
# A string token: its prefix, its quotes and what is between them.
LITERAL = re.compile(r"^[rbuf]*('''|\"\"\"|'|\")(.*)\1$", re.IGNORECASE | re.DOTALL)


def sql_in(source: str) -> list[tuple[int, str]]:
    """(line, what) for each piece of SQL access in a module's source."""
    tokens = [t for t in tokenize.generate_tokens(io.StringIO(source).readline)
              if t.type not in (tokenize.NL, tokenize.NEWLINE, tokenize.COMMENT,
                                tokenize.INDENT, tokenize.DEDENT)]
    found = []
    for i, tok in enumerate(tokens):
        before = tokens[i - 1] if i else None
        after = tokens[i + 1] if i + 1 < len(tokens) else None
        if tok.type == tokenize.NAME and after is not None:
            if tok.string in CALLS and after.string == "(" and before and before.string == ".":
                found.append((tok.start[0], f".{tok.string}("))
            elif tok.string == "db" and after.string == "[":
                found.append((tok.start[0], "db["))
            elif tok.string == "Database" and after.string == "(":
                found.append((tok.start[0], "Database("))
            elif i >= 2 and (tokens[i - 2].string, tok.string) in CONNECTS \
                    and before and before.string == "." and after.string == "(":
                found.append((tok.start[0], f"{tokens[i - 2].string}.{tok.string}("))
        elif tok.type in STRINGS:
            literal = LITERAL.match(tok.string)
            text = literal.group(2) if literal else tok.string  # an f-string's text (3.12)
            first = text.split(maxsplit=1)[0] if text.strip() else ""
            # SQL here is written in lower case (or upper): a sentence starts with a capital.
            if STATEMENT.match(text) and (first.islower() or first.isupper()):
                found.append((tok.start[0], "an SQL statement"))
    return found


def modules() -> list[Path]:
    """Every module of the package."""
    return sorted(PACKAGE.rglob("*.py"))


def test_no_sql_outside_the_store_layer():
    """No module outside the store layer (and the documented exceptions) touches SQL."""
    outside = []
    for path in modules():
        name = path.relative_to(ROOT).as_posix()
        if name in STORE_LAYER or name in ALLOWED:
            continue
        outside += [f"{name}:{line}: {what}"
                    for line, what in sql_in(path.read_text(encoding="utf-8"))]
    assert outside == []


def test_the_exceptions_are_still_needed_and_the_store_layer_is_seen():
    """Each allowed file still holds SQL (else it leaves the list), and the scan finds the
    store layer's own statements: it can see what it forbids."""
    for name in ALLOWED | STORE_LAYER:
        assert sql_in((ROOT / name).read_text(encoding="utf-8")), name


def test_the_scan_sees_each_way_in():
    """Every form of SQL access is found; words in comments and docstrings are not."""
    found = sql_in(
        'c.db.execute("select 1")\n'
        'db.conn.executemany(SQL, rows)\n'
        'rows = st.db.query(SQL)\n'
        'db["players"].insert({"name": "Аня"})\n'
        'db.table("players").rows_where("id = ?", [1])\n'
        'conn = sqlite3.connect(path)\n'
        'made = sqlite_utils.Database(conn)\n'
        'made = Database(conn)\n'
        'SQL = ("insert or replace into club_games (game_id) values (?)")\n'
        "x = f'''update seasons set name = ? where id = {n}'''\n"
        "PRAGMA = 'pragma quick_check'\n")
    assert [line for line, _ in found] == [1, 2, 3, 4, 5, 5, 6, 7, 8, 9, 10, 11]
    assert sql_in('"""Run the query (execute it) on db[x]."""\n'
                  "# c.db.execute('select 1 from games')\n"
                  "text = 'Select the players from the list'\n"
                  "note = 'update the page'\n") == []
