"""The rules sheet of a game: every agreement in effect, with its explanation."""

from __future__ import annotations

from flask import Blueprint, render_template
from flask.typing import ResponseReturnValue

from scorer.engine import catalog, current_agreements
from scorer.web import access
from scorer.web.game import agreement_form
from scorer.web.game.agreement_form import label_of, loc
from scorer.web.game.versions import Broken, load

bp = Blueprint("rules", __name__)


@bp.get("/<any(g, v):link>/<token>/rules")
def page(link: str, token: str) -> ResponseReturnValue:
    """The sheet, reached from the game page of either link; agreements that differ from
    classic are highlighted."""
    editable = link == "g"
    row = access.game_for(token, edit=editable)
    loaded = load(row)
    if isinstance(loaded, Broken):
        return render_template("game/broken.html", row=row, error=loaded.error), 409
    agreements = current_agreements(loaded.game)  # the set in force now (RULES.md §11)
    differ = agreements.differences("classic")
    groups = []
    for group, fields in agreement_form.groups(dict(agreements), preset=agreements.preset):
        items = [
            {"spec": f.spec, "value": label_of(f.spec, f.value), "differs": f.spec.id in differ}
            for f in fields
        ]
        groups.append((group, items))
    preset = catalog().presets[agreements.preset]  # resolve_agreements checked the name
    return render_template(
        "game/rules.html", row=row, groups=groups, editable=editable, link=link,
        preset_title=loc(preset.title),
        differ_count=len(differ), token=token, loc=loc,
    )
