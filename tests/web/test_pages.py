"""The read-only page, downloads, import, rules sheet, manifest and languages."""

import io
import json
import re

from pypdf import PdfReader


def played(table):
    """A game with two deals; returns its edit path."""
    game = table.new_game()
    table.deal(game, declarer="1", contract="120", points_0="20", points_2="20",
               mar_1=["hearts"])
    table.deal(game, action="raspis", declarer="2", contract="110")
    return game


def test_read_only_page_answers_304_until_something_changes(table):
    """The read-only page's ETag answers 304 until a deal changes the game."""
    game = played(table)
    view = table.view_path(game)
    first = table.client.get(view)
    tag = first.headers["ETag"]
    assert first.status_code == 200 and tag
    assert f'data-etag="{tag}"' in first.get_data(as_text=True).replace("&#34;", '"')
    again = table.client.get(view, headers={"If-None-Match": tag})
    assert again.status_code == 304 and again.get_data() == b""
    table.deal(game, action="redeal")
    changed = table.client.get(view, headers={"If-None-Match": tag})
    assert changed.status_code == 200 and changed.headers["ETag"] != tag


def test_read_only_page_shows_the_same_totals(table):
    """The read-only page shows the scorekeeper's totals."""
    game = played(table)
    assert table.totals(table.view_path(game)) == table.totals(game) == [75, 175, -90]


def test_why_details_and_marks_legend(table):
    """Every number opens its reasons; the legend explains the marks shown."""
    game = played(table)
    html = table.client.get(game).get_data(as_text=True)
    # the reasons are not inlined: each number links the small "why" page of its row
    assert "заказ 120 сыгран" not in html
    links = re.findall(r'<a class="why" href="([^"]+/why/1)">', html)
    assert len(links) == 3
    why = table.client.get(links[0]).get_data(as_text=True)
    assert "заказ 120 сыгран" in why and "Борис" in why
    assert table.client.get(game + "/why/3").status_code == 404
    assert "Обозначения" in html and "роспись" in html
    assert re.search(r'<span class="mark">Р</span>', html)


def test_totals_say_why_the_last_deal_moved_them(table):
    """Each total's box words the newest deal's reasons, as that deal's why page does, on
    both links (the protocol's cells word none: they only link their why page)."""
    game = played(table)
    why = table.client.get(game + "/why/2").get_data(as_text=True).split("<dl>")[1]
    reasons = [re.sub(r" — <a .*", "", p) for p in re.findall(r"<dd><p>(.*?)</p></dd>", why)]
    assert reasons == ["за роспись +55", "за роспись +55", "роспись 110: −110"]
    for page in (game, table.view_path(game)):
        html = table.client.get(page).get_data(as_text=True)
        assert re.findall(r"Последний кон: ([^<]*)</p>", html) == reasons
        assert "заказ 120 сыгран" not in html  # deal 1's reasons are not on the page


def test_export_round_trips_through_import(app, table):
    """The exported log imports in another browser as a game with the same totals."""
    game = played(table)
    r = table.client.get(game + "/export.json")
    assert r.status_code == 200 and r.mimetype == "application/json"
    assert "attachment" in r.headers["Content-Disposition"]
    data = json.loads(r.get_data(as_text=True))
    assert data["format"] == "thousand-game/1" and len(data["deals"]) == 2
    view_export = table.client.get(table.view_path(game) + "/export.json")
    assert json.loads(view_export.get_data(as_text=True)) == data
    other = app.test_client()
    from webtable import Table

    t2 = Table(other)
    r = other.post("/import", data={"csrf_token": t2.token("/"),
                                    "file": (io.BytesIO(json.dumps(data).encode()), "g.json")},
                   content_type="multipart/form-data")
    assert r.status_code == 302
    assert t2.totals(r.headers["Location"]) == table.totals(game)


def test_import_refuses_bad_files_clearly(table):
    """Unreadable, misshapen and rule-breaking files are refused with the reason; none stored."""
    cases = [
        (b"{not json", "не читается как JSON"),
        (b"[1, 2]", "один объект JSON"),
        (json.dumps({"format": "thousand-game/1", "players": ["A", "B"],
                     "deals": [{"type": "play", "declarer": 0, "contract": 100,
                                "points": [60, 70]}]}).encode(), "кон 1: points"),
        (json.dumps({"format": "thousand-game/1", "players": ["A", "B", "C"],
                     "deals": [{"type": ["play"], "declarer": 0}]}).encode(), "кон 1: type"),
        (b"[" * 100_000 + b"]" * 100_000, "больше объектов и списков"),
    ]
    for raw, message in cases:
        r = table.client.post("/import", data={
            "csrf_token": table.token("/"), "file": (io.BytesIO(raw), "bad.json")},
            content_type="multipart/form-data")
        assert r.status_code == 422
        assert message in r.get_data(as_text=True), raw
    r = table.client.post("/import", data={"csrf_token": table.token("/")})
    assert r.status_code == 422
    assert table.client.get("/").get_data(as_text=True).count("/g/") == 0


def test_too_large_upload_is_413(app, table):
    """An upload over the size limit is refused with 413."""
    big = io.BytesIO(b" " * (app.config["MAX_CONTENT_LENGTH"] + 10))
    r = table.client.post("/import", data={"csrf_token": table.token("/"),
                                           "file": (big, "big.json")},
                          content_type="multipart/form-data")
    assert r.status_code == 413


def test_pdf_sheet_route(table):
    """Both links serve the PDF sheet, with the players' names in it."""
    game = played(table)
    for path in (game + "/sheet.pdf", table.view_path(game) + "/sheet.pdf"):
        r = table.client.get(path)
        assert r.status_code == 200 and r.mimetype == "application/pdf"
        text = "".join(p.extract_text() for p in PdfReader(io.BytesIO(r.data)).pages)
        assert "Борис" in text


def test_game_page_embeds_the_chart_and_print_css(table):
    """The game page carries the chart inline and links the print style sheet."""
    html = table.client.get(played(table)).get_data(as_text=True)
    assert '<section class="chart" id="chart"><svg' in html
    link = re.search(r'<link rel="stylesheet" media="print" href="(/static/print\.\w+\.css)">',
                     html)
    css = table.client.get(link.group(1))
    assert css.status_code == 200 and css.mimetype == "text/css"
    assert b"@media print" in css.data
    assert table.client.get("/print.css").data == css.data  # as linked by older pages


def test_rules_sheet_highlights_differences_from_classic(table):
    """The rules sheet marks each agreement that differs from classic, on both links."""
    game = table.new_game(golden=True, penalty=100)
    html = table.client.get(game + "/rules").get_data(as_text=True)
    assert html.count('class="rule differs') == 2
    assert re.search(r'class="rule differs" id="golden"', html)
    assert "2 договорённости отличаются от классики" in html
    view_html = table.client.get(table.view_path(game) + "/rules").get_data(as_text=True)
    assert view_html.count('class="rule differs') == 2


def test_new_game_form_is_built_from_the_catalog(table):
    """Every agreement and group of the catalog is on the new-game form, with its explanation."""
    from scorer.engine import catalog

    html = table.client.get("/new").get_data(as_text=True)
    for aid, spec in catalog().agreements.items():
        assert f'name="ag_{aid}"' in html, aid
        assert spec.explain["ru"][:30] in html
    for group in catalog().groups.values():
        assert group.title["ru"] in html


def test_new_game_check_shows_differences_and_preset_applies(table):
    """"Check" lists the differences from the preset; choosing a preset applies its values."""
    data = {"csrf_token": table.token(), "preset": "classic", "action": "check",
            "agreements_shown": "1", "name0": "Аня", "name1": "Борис", "first_dealer": "0"}
    from webtable import current_agreements

    data.update(current_agreements(table.client.get("/new").get_data(as_text=True)))
    data["ag_dark"] = "1"
    html = table.client.post("/new", data=data).get_data(as_text=True)
    diffs = html.split('id="diffs"', 1)[1].split("</section>", 1)[0]
    assert "Игра втёмную" in diffs
    data.update(action="preset", preset="polish")
    html = table.client.post("/new", data=data).get_data(as_text=True)
    assert re.search(r'<select id="ag_bid_step" name="ag_bid_step" data-ag="bid_step">\s*'
                     r'<option value="5" >5</option><option value="10" selected>', html)
    assert 'value="Аня"' in html


def test_new_game_agreement_error_is_beside_its_field(table):
    """A bad agreement value is refused beside its own field."""
    from webtable import current_agreements

    data = {"csrf_token": table.token(), "preset": "classic", "action": "start",
            "agreements_shown": "1", "name0": "Аня", "name1": "Борис", "first_dealer": "0"}
    data.update(current_agreements(table.client.get("/new").get_data(as_text=True)))
    data["ag_penalty"] = "много"
    r = table.client.post("/new", data=data)
    assert r.status_code == 422
    block = r.get_data(as_text=True).split('id="ag-penalty"', 1)[1].split("</div>", 1)[0]
    assert "Введите целое число" in block


def test_player_names_autocomplete_from_own_games_only(app, table):
    """Name suggestions come from this browser's games only."""
    table.new_game(names=("Аня", "Борис"))
    html = table.client.get("/new").get_data(as_text=True)
    datalist = html.split('<datalist id="known-names">', 1)[1].split("</datalist>", 1)[0]
    assert 'value="Аня"' in datalist and 'value="Борис"' in datalist
    stranger = app.test_client().get("/new").get_data(as_text=True)
    assert "Аня" not in stranger


def test_manifest_and_icons(client):
    """The web manifest and its icons are served."""
    r = client.get("/manifest.webmanifest")
    assert r.mimetype == "application/manifest+json"
    data = r.get_json()
    assert data["display"] == "standalone"
    for icon in data["icons"]:
        assert client.get(icon["src"]).status_code == 200
    assert client.get("/favicon.ico").status_code == 302


def test_no_external_requests_in_pages(table):
    """No page loads anything from another host."""
    game = played(table)
    for path in ("/", "/new", game, game + "/deal", game + "/share", game + "/rules",
                 table.view_path(game)):
        html = table.client.get(path).get_data(as_text=True)
        # the share page links to this very server (http://localhost in the test client)
        assert not re.search(r'(src|href)="(https?:)?//(?!localhost/)', html), path


def test_share_page_has_qr_codes(table):
    """The share page shows both links as QR codes."""
    game = table.new_game()
    html = table.client.get(game + "/share").get_data(as_text=True)
    assert html.count("<svg") == 2
    assert table.view_path(game) in html


def test_english_switch_and_plurals(table):
    """Switching to English keeps the page and uses English words, plurals and marks."""
    game = played(table)
    r = table.client.get("/lang/en?next=" + game)
    assert r.status_code == 302 and r.headers["Location"] == game
    html = table.client.get(game).get_data(as_text=True)
    assert "Penalty or bonus (adjustment)" in html and "Score sheet" in html
    assert "1 concession" in html and "0 concessions" in html
    assert re.search(r'<span class="mark">R</span>', html)
    table.client.get("/lang/ru")
    html = table.client.get(game).get_data(as_text=True)
    assert "1 роспись" in html and "0 росписей" in html


def test_language_switch_never_redirects_off_site(client):
    """The language switch never redirects to another site."""
    r = client.get("/lang/en?next=https://evil.example/")
    assert r.headers["Location"] == "/"


def test_error_pages(client):
    """Unknown pages get the app's 404 page; a form post without a token is 400."""
    r = client.get("/nowhere")
    assert r.status_code == 404 and "Здесь ничего нет" in r.get_data(as_text=True)
    assert client.post("/new", data={}).status_code == 400


def test_polling_the_read_only_page_sets_no_cookie(table):
    """Polling the read-only page does not rewrite the cookie."""
    game = played(table)
    view = table.view_path(game)
    table.client.get(view)
    again = table.client.get(view)
    assert "Set-Cookie" not in again.headers


def test_english_pages_have_no_russian_left(table):
    """In English no page shows Russian words other than the players' names."""
    game = table.new_game(names=("Ann", "Bob", "Kate"), golden=True)
    table.deal(game, declarer="1", contract="120", points_0="20", points_2="20",
               mar_1=["hearts"])
    table.client.get("/lang/en")
    slot = table.slot_ids(game)[0]
    for path in ("/", "/new", game, game + "/deal", f"{game}/deal/{slot}", game + "/share",
                 game + "/rules", table.view_path(game), "/nowhere"):
        html = table.client.get(path).get_data(as_text=True)
        body = html.split("<body", 1)[1]
        # The language switch names each language in its own words (Русский, Українська).
        body = re.sub(r'<details class="langs">.*?</details>', "", body, flags=re.S)
        text = re.sub(r"<[^>]+>", " ", body)
        text = text.replace("Тысяча", "")  # the game's own name may stay in the manifest
        russian = re.findall(r"[А-Яа-яЁё]+", text)
        assert not russian, (path, russian[:10])


def test_each_why_links_its_agreement_on_the_rules_sheet(table):
    """Reasons show no raw [agreement_id]; one naming an agreement links its rules entry."""
    from scorer.engine import catalog

    game = played(table)
    boxes = "".join(table.client.get(f"{game}/why/{n}").get_data(as_text=True).split(
        '<section class="why-page" id="why">', 1)[1].split("</section>", 1)[0] for n in (1, 2))
    assert boxes and not re.search(r"\[[a-z_0-9]+\]", boxes)
    links = re.findall(r'<a href="(/g/[^"#]+/rules)#([a-z_0-9]+)">([^<]+)</a>', boxes)
    assert links, "no reason links an agreement"
    specs = catalog().agreements
    rules = table.client.get(links[0][0]).get_data(as_text=True)
    for _url, aid, title in links:
        assert title == specs[aid].title["ru"]
        assert f'id="{aid}"' in rules
    view = table.client.get(table.view_path(game) + "/why/2").get_data(as_text=True)
    assert re.search(r'<a href="/v/[^"#]+/rules#[a-z_0-9]+">', view)


def test_the_games_list_replays_each_game_once(table, monkeypatch):
    """Viewing the list again replays nothing, even with far more games than 32."""
    from scorer.web.game import versions

    for i in range(40):
        table.new_game(names=(f"Аня{i}", "Борис"))
    calls = []
    real = versions.made

    def counted(row, *rest):
        """Replay, noting which game."""
        calls.append(row.id)
        return real(row, *rest)

    monkeypatch.setattr(versions, "made", counted)
    table.client.get("/")
    assert len(calls) == len(set(calls))  # each game once at most
    calls.clear()
    page = table.client.get("/").get_data(as_text=True)
    assert page.count("Аня3") >= 10 and calls == []


def test_rows_follow_the_language_and_the_link(table):
    """After the Russian edit page, the English one and the read-only one word their own
    rows; a new version shows the earlier rows as they were."""
    game = played(table)
    ru = table.client.get(game).get_data(as_text=True)
    assert 'aria-label="Исправить кон 1"' in ru
    table.client.get("/lang/en")
    en = table.client.get(game).get_data(as_text=True)
    assert 'aria-label="Edit deal 1"' in en and "Исправить кон" not in en
    assert "dealing:" in en
    view = table.client.get(table.view_path(game)).get_data(as_text=True)
    assert 'class="edit"' not in view and "/why/1" in view
    table.client.get("/lang/ru")
    table.deal(game, action="redeal")
    again = table.client.get(game).get_data(as_text=True)
    old_row = re.search(r'<tr id="row-1".*?</tr>', ru, re.S).group(0)
    assert old_row in again


def test_one_chart_per_version_shared_by_both_links(table):
    """Both links of a version show the same chart (drawn once); a new deal draws anew."""
    game = played(table)
    chart = re.compile(r'<svg [^>]*class="totals-chart".*?</svg>', re.S)
    edit = chart.search(table.client.get(game).get_data(as_text=True)).group(0)
    view = chart.search(table.client.get(table.view_path(game)).get_data(as_text=True)).group(0)
    assert edit == view
    table.deal(game, declarer="0", contract="100", points_1="20", points_2="20")
    after = chart.search(table.client.get(game).get_data(as_text=True)).group(0)
    assert after != edit and ">3</text>" in after  # the new deal's tick


def test_the_keyboard_shrinks_the_page_so_the_save_bar_stays_above_it(table):
    """The deal form's save bar is sticky at the bottom: on Android's Chrome the on-screen
    keypad covers it unless the viewport lets the keyboard resize the page's content."""
    game = table.new_game()
    for path in ("/", game, game + "/deal", table.view_path(game)):
        head = table.client.get(path).get_data(as_text=True)
        viewport = re.search(r'<meta name="viewport" content="([^"]*)"', head)
        assert viewport and "interactive-widget=resizes-content" in viewport.group(1), path
