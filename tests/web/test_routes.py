"""One route per page: a page that both of a game's links show is one rule, and the link
it is opened under decides what it shows (the edit link needs the edit token)."""

from __future__ import annotations

from collections import defaultdict

from url_rules import BOTH_LINKS, link_free, rule_paths

from scorer.web.game import downloads


def test_no_two_rules_differ_only_by_the_game_link(app):
    """A page shown under /g/ and /v/ is one rule (/<any(g, v):link>/…), never two twins."""
    prefixes = defaultdict(set)
    for rule in app.url_map.iter_rules():
        prefixes[link_free(rule.rule)].add(rule.rule.split("/", 2)[1])
    twins = sorted(path for path, seen in prefixes.items() if len(seen) > 1)
    assert twins == []
    shared = [r.rule for r in app.url_map.iter_rules() if r.rule.startswith(BOTH_LINKS)]
    assert len(shared) == 8, shared  # the page, why, rules, compare and four downloads


def test_each_shared_page_answers_each_link_as_its_access_says(table, monkeypatch):
    """/g/ opens with the edit token only; /v/ with either token, read-only (the page
    itself sends an edit token to the view link); an unknown token is 404 on both."""
    monkeypatch.setattr(downloads, "render_in_child", lambda *a, **k: b"%PDF-1.7 stub")
    game = table.new_game()
    table.deal(game, action="redeal")
    edit, view = game.rsplit("/", 1)[1], table.view_path(game).rsplit("/", 1)[1]
    app = table.client.application
    checked = 0
    for path, rule in rule_paths(app):
        if not rule.rule.startswith(BOTH_LINKS):
            continue
        url = path.replace("<token>", "{}").replace("<int:n>", "1")
        answers = {kind: app.test_client().get(url.format(token)).status_code
                   for kind, token in (("edit", edit), ("view", view), ("none", "x" * 32))}
        if path.startswith("/g/"):
            assert answers == {"edit": 200, "view": 404, "none": 404}, (path, answers)
        else:
            edit_answer = 302 if path == "/v/<token>" else 200
            assert answers == {"edit": edit_answer, "view": 200, "none": 404}, (path, answers)
        checked += 1
    assert checked == 16
    read_only = app.test_client().get(f"/v/{edit}/why/1").get_data(as_text=True)
    assert f"/v/{view}" in read_only and f"/g/{edit}" not in read_only  # read-only
