"""Players and links: merge, rename, re-link, counting a stranger's game, history and undo."""

from __future__ import annotations

import pytest
from club_games import add, finished_logs, seated

from scorer.club import Club, ClubError

ADDITIVE = ("games", "finished", "wins", "contracts_taken", "contracts_made", "raspis",
            "bolts", "barrel_entries", "barrel_falls", "samosvals")


def three(names: list[str], date: str, cut: int | None = None) -> dict:
    """The finished 3-player game re-seated."""
    log = next(g for g in finished_logs() if len(g["players"]) == 3)
    return seated(log, names, date=date, cut=cut)


def by_name(club: Club) -> dict[str, int]:
    """{name: player id} of the roster."""
    return {p.name: p.id for p in club.roster()}


def test_a_merge_adds_the_two_players_figures_and_undo_splits_them(st):
    """«Аня» of two games and «Анна» of two others merge into one player whose figures are
    the sums; undo gives both back their own."""
    for i, first in enumerate(["Аня", "Аня", "Анна", "Анна"]):
        add(st, three([first, "Борис", "Вика"], f"2026-10-0{i + 1}", cut=None if i % 2 else 40))
    club = Club(st.db)
    ids = by_name(club)
    one, two = club.player(ids["Аня"]).counts(), club.player(ids["Анна"]).counts()
    change = club.merge(ids["Аня"], ids["Анна"])
    merged = club.player(ids["Аня"]).counts()
    assert {k: merged[k] for k in ADDITIVE} == {k: one[k] + two[k] for k in ADDITIVE}
    assert "Анна" not in by_name(club)
    assert club.match("Анна") == ids["Аня"]  # the old spelling still finds the player
    club.undo(change.id)
    assert club.player(ids["Анна"]).counts() == two
    assert club.player(ids["Аня"]).counts() == one
    assert [c.undone is not None for c in club.history()] == [True]


def test_a_merge_of_two_players_of_one_game_is_refused(st):
    """Two people who sat at one table are not one person."""
    add(st, three(["Аня", "Борис", "Вика"], "2026-10-01"))
    club = Club(st.db)
    ids = by_name(club)
    with pytest.raises(ClubError, match="one table"):
        club.merge(ids["Аня"], ids["Борис"])
    assert club.history() == []


def test_rename_keeps_the_log_and_is_undoable(st):
    """A rename changes the player's name, not the game log; undo restores it."""
    game = add(st, three(["Аня", "Борис", "Вика"], "2026-10-01"))
    club = Club(st.db)
    ids = by_name(club)
    change = club.rename(ids["Аня"], "Анна Петровна")
    assert "Анна Петровна" in by_name(club)
    assert st.stored(game).head["players"][0] == "Аня"
    assert club.match("Аня") == ids["Аня"]
    with pytest.raises(ClubError, match="merge"):
        club.rename(ids["Борис"], "Анна Петровна")
    club.undo(change.id)
    assert by_name(club)["Аня"] == ids["Аня"]


def test_relink_moves_one_seat_and_undo_moves_it_back(st):
    """A seat linked to the wrong player is re-linked; the figures follow; undo restores."""
    first = add(st, three(["Аня", "Борис", "Вика"], "2026-10-01"))
    add(st, three(["Аня", "Борис", "Гоша"], "2026-10-02"))
    club = Club(st.db)
    ids = by_name(club)
    change = club.relink(first, 2, ids["Гоша"])
    assert club.player(ids["Гоша"])["games"].value == 2
    assert club.player(ids["Вика"])["games"].value == 0
    with pytest.raises(ClubError, match="another seat"):
        club.relink(first, 1, ids["Гоша"])
    club.undo(change.id)
    assert club.player(ids["Вика"])["games"].value == 1
    fresh = club.relink(first, 0, None)  # a new player named as written
    assert fresh.data["created"] and club.player(fresh.data["after"])["games"].value == 1


def test_an_undo_after_a_later_change_is_refused(st):
    """Undoing a rename the player has been renamed again since is refused, nothing lost."""
    add(st, three(["Аня", "Борис", "Вика"], "2026-10-01"))
    club = Club(st.db)
    ids = by_name(club)
    first = club.rename(ids["Аня"], "Анна")
    club.rename(ids["Аня"], "Нюра")
    with pytest.raises(ClubError, match="changed again"):
        club.undo(first.id)
    assert by_name(club)["Нюра"] == ids["Аня"]


def test_a_strangers_game_enters_the_hosts_table_only_when_counted(st):
    """A guest's game is apart until the host counts it; undo takes it out again."""
    add(st, three(["Аня", "Борис", "Вика"], "2026-10-01"))
    guest = add(st, three(["Аня", "Борис", "Гоша"], "2026-10-02"), guest=True)
    club = Club(st.db)
    table = club.season_table()
    assert guest not in table.games and "Гоша" not in by_name(club)
    assert club.games_apart() == [guest]
    change = club.count_game(guest, True)
    assert guest in club.season_table().games
    assert club.player(by_name(club)["Аня"])["games"].value == 2
    assert club.games_apart() == []
    club.undo(change.id)
    assert guest not in club.season_table().games
    assert "Гоша" not in by_name(club)  # the player the count made is gone again
    assert club.count_game(guest, False) is None


def test_a_deleted_game_counts_nowhere(st):
    """A deleted game leaves the table; undeleted, it is back."""
    game = add(st, three(["Аня", "Борис", "Вика"], "2026-10-01"))
    club = Club(st.db)
    assert club.season_table().games == (game,)
    st.set_shelf(game, "delete")
    assert club.season_table().games == ()
    st.set_shelf(game, "undelete")
    assert club.season_table().games == (game,)


def test_link_new_game_matches_known_players_and_makes_new_ones(st):
    """Typed names that match a known player (names.py comparison) link to it."""
    add(st, three(["Аня", "Борис", "Вика"], "2026-10-01"))
    club = Club(st.db)
    ids = by_name(club)
    game = st.create_game({**{k: v for k, v in three(["Aня", "Борис", "Дина"], "2026-10-02")
                              .items() if k != "deals"}}).id  # Latin «A»
    linked = club.link_new_game(game, ["Aня", "Борис", "Дина"])
    assert linked[:2] == [ids["Аня"], ids["Борис"]]
    assert linked[2] not in ids.values()
