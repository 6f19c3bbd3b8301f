"""The templates' _() and ngettext() (scorer/web/i18n.py) behave as Jinja's newstyle ones."""

import re

from flask import render_template_string
from flask_babel import get_translations
from jinja2.ext import _make_new_gettext, _make_new_ngettext

TEMPLATE = (
    '{{ _("Deal %(n)d", n=3) }}|{{ _("%(name)s wins!", name=who) }}|'
    '{% for k in [1, 2] %}{% set b = k %}{{ ngettext("%(num)d bolt", "%(num)d bolts", b) }};'
    '{% endfor %}|{{ _("100%% sure") }}|{{ _("<b>%(x)s</b>", x="<i>") }}'
)


def rendered(app, lang: str, callables: bool) -> str:
    """The template in a language, with the app's callables or Jinja's own."""
    with app.test_request_context("/", headers={"Cookie": f"lang={lang}"}):
        if not callables:
            app.jinja_env.globals.update(
                _=_make_new_gettext(lambda s: get_translations().ugettext(s)),
                ngettext=_make_new_ngettext(
                    lambda s, p, n: get_translations().ungettext(s, p, n)))
        return render_template_string(TEMPLATE, who="<Ann & Bob>")


def test_templates_translate_format_and_escape_as_jinja_newstyle_does(app):
    """Translated, formatted with the variables (escaped, not the translation: it is
    trusted markup), num set by ngettext, a lone %% kept as one, inside loops and blocks
    too; the same text as Jinja's newstyle callables give."""
    ru = rendered(app, "ru", callables=True)
    assert ru == ("Кон 3|&lt;Ann &amp; Bob&gt; побеждает!|1 болт;2 болта;|100% sure|"
                  "<b>&lt;i&gt;</b>")
    en = rendered(app, "en", callables=True)
    assert en.startswith("Deal 3|&lt;Ann &amp; Bob&gt; wins!|1 bolt;2 bolts;")
    assert rendered(app, "ru", callables=False) == ru


def test_a_plain_text_is_kept_per_language_not_shared(app):
    """A translation without variables is formatted once per catalog (i18n.plain_text):
    asked in turn in three languages it stays each language's own, and %% stays one %."""
    said = []
    for lang in ("ru", "en", "pl", "ru"):
        with app.test_request_context("/", headers={"Cookie": f"lang={lang}"}):
            said.append(render_template_string('{{ _("Thousand") }}|{{ _("100%% sure") }}'))
    assert said == ["Тысяча|100% sure", "Thousand|100% sure", "Tysiąc|100% sure",
                    "Тысяча|100% sure"]


def test_each_rows_edit_label_is_in_the_pages_language(table):
    """The protocol rows' «Исправить кон N» labels (worded once per page, then formatted
    per row) follow the language each request asks for, not the first one asked."""
    game = table.new_game()
    table.deal(game, action="redeal")
    table.deal(game, action="redeal")
    got = {}
    for lang in ("ru", "pl", "en", "uk", "ru"):
        table.client.set_cookie("lang", lang)
        got[lang] = re.findall(r'class="edit" href="[^"]*" aria-label="([^"]*)"',
                               table.client.get(game).get_data(as_text=True))
    assert got == {"ru": ["Исправить кон 2", "Исправить кон 1"],
                   "pl": ["Popraw rozdanie 2", "Popraw rozdanie 1"],
                   "en": ["Edit deal 2", "Edit deal 1"],
                   "uk": ["Виправити роздачу 2", "Виправити роздачу 1"]}
