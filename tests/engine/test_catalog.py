"""The agreement catalog and presets against docs/RULES.md §7–§8, and the loader's strictness."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from scorer.engine import Agreements, RuleError, catalog, resolve_agreements
from scorer.engine.catalog import CatalogError, load_catalog
from scorer.engine.texts import LANGUAGES
from scorer.paths import data_dir

# docs/RULES.md §7 written out as data; test_committed_list_matches_rules_md checks the
# two agree, so neither the spec nor this list can drift alone.
ENFORCED = {
    "target": 1000, "penalty": 120, "rounding": "nearest5", "round_declarer": False,
    "declarer_scores": "contract", "max_contract": 300, "bid_step": 5,
    "ace_marriage": False, "half_marriage": False, "marriage_on_first_lead": False,
    "bolt_counts": "no_tricks", "bolt_penalty": "every_third", "bolt_own_game_exempt": False,
    "barrel": True, "barrel_threshold": 880, "barrel_clamp": True,
    "barrel_failed_contract": "subtract", "barrel_defender_win": False,
    "barrel_direct_win": False, "barrel_attempts": 3, "barrel_fall": "penalty",
    "barrel_three_falls_zero": True, "barrel_push_off": True, "barrel_single": True,
    "barrel_win_over_target": False, "barrel_count_sitting_out": False,
    "samosval": 555, "samosval_negative": False,
    "raspis": True, "raspis_payout": "half", "raspis_subtract": True,
    "raspis_third_penalty": False, "raspis_limit": 0, "raspis_barrel": "not_barrel_player",
    "raspis_golden": False,
    "golden": False, "golden_on_fail": "reset", "golden_raise": False,
    "golden_double_bolts": False,
    "dark": False, "dark_cap_240": True, "dark_double_defenders": True,
    "dark_double_bolts": False, "dark_raspis": True, "dark_not_on_barrel": False,
    "four_dealer_prikup": "points", "four_nines_bonus": 0, "cut_nines_penalty": True,
    "forced_bid_seat": "first_hand",
}
ADVISORY = {
    "bid_jumps_forbidden": False, "bid_over_120_without_marriage": False,
    "silence_below": None, "pit_below": None, "hundred_prikup_hidden": False,
    "discard_face_down": False, "dark_hidden_prikup": True, "dark_undark": True,
    "dark_undark_no_bidding": False, "no_lead_foreign_trump": False, "must_lead_trump": False,
    "redeal_prikup_below": None, "redeal_hand_below": None, "redeal_four_nines": True,
    "redeal_two_nines_prikup": False, "redeal_four_nines_after_discard": False,
    "redeal_only_on_100": False,
}
# Agreements added where the seeds disagree and docs/RULES.md made no agreement (see the
# "seed disagreements" part of catalog.toml); their defaults keep docs/RULES.md's reading.
SEED_AGREEMENTS = {
    "double_marriages": True, "golden_double_penalties": False, "three_falls_count": "all",
    "misdeal_passes_deal": False, "talon_rounding": True, "dark_double_talon_marriage": False,
}

# docs/RULES.md §8: what each preset changes from classic (kinga also hides the talon taken
# at 100, as seed 004 describes; "bolts by tricks" and "samosval on" are classic already).
PRESETS = {
    "classic": {},
    "kinga": {"raspis_third_penalty": True, "raspis_barrel": "nobody_if_barrel",
              "barrel_win_over_target": True, "hundred_prikup_hidden": True,
              "barrel_direct_win": True, "dark_cap_240": False},
    "app-matveev": {"golden": True, "golden_on_fail": "replay", "dark": True,
                    "bolt_counts": "zero_points"},
    "two-players": {"barrel": False, "declarer_scores": "taken"},
    "polish": {"bid_step": 10, "rounding": "nearest10", "barrel_threshold": 800,
               "barrel_clamp": False, "barrel_attempts": 0, "barrel_push_off": False,
               "barrel_single": False, "barrel_three_falls_zero": False, "samosval": 0,
               "bolt_penalty": "none", "raspis_subtract": False, "raspis_payout": "sixty",
               "raspis_limit": 1, "four_dealer_prikup": "aces"},
}

RULES_MD = Path(__file__).resolve().parents[2] / "docs" / "RULES.md"
CYRILLIC = re.compile("[а-яё]", re.IGNORECASE)


def _section_tables(text: str) -> list[list[list[str]]]:
    """The markdown tables of docs/RULES.md §7, each as rows of cells (header dropped)."""
    section = text.split("## 7.", 1)[1].split("\n## 8.", 1)[0]
    tables, rows = [], None
    for line in section.splitlines():
        if line.startswith("|"):
            cells = [c.strip() for c in re.split(r"(?<!\\)\|", line.strip())[1:-1]]
            if rows is None:
                rows = []
            elif not set(cells[0]) <= set("-: "):
                rows.append(cells)
        elif rows is not None:
            tables.append(rows)
            rows = None
    if rows is not None:
        tables.append(rows)
    return tables


def _spec_default(type_cell: str):
    """The default written last in brackets in a §7 type cell: on/off/none/number/word."""
    token = re.search(r"\(([^()]*)\)\s*$", type_cell).group(1).split(";")[0].strip().strip("`")
    words = {"on": True, "off": False, "none": None}
    if token in words:
        return words[token]
    return int(token) if token.lstrip("-").isdigit() else token


def _spec_choices(type_cell: str) -> list[str]:
    """The backquoted alternatives of a §7 choice type, e.g. nearest5 | nearest10 | none."""
    return re.findall(r"`(\w+)`", type_cell.rsplit("(", 1)[0])


def test_committed_list_matches_rules_md():
    """The three §7 tables list exactly the ids, defaults and choices copied above."""
    tables = _section_tables(RULES_MD.read_text(encoding="utf-8"))
    assert len(tables) == 3
    for table, expected in zip(tables, (ENFORCED, SEED_AGREEMENTS, ADVISORY), strict=True):
        parsed = {cells[0].strip("`"): cells[1] for cells in table}
        assert list(parsed) == list(expected)
        assert {i: _spec_default(cell) for i, cell in parsed.items()} == expected
        for id, cell in parsed.items():
            choices = _spec_choices(cell)
            if choices:
                assert list(catalog().agreements[id].values) == choices, id


def test_every_id_of_rules_md_is_in_the_catalog():
    """Catalog ids are exactly §7's, with §7's defaults and enforced/advisory split."""
    specs = catalog().agreements
    assert set(specs) == set(ENFORCED) | set(ADVISORY) | set(SEED_AGREEMENTS)
    for table, enforced in ((ENFORCED, True), (ADVISORY, False), (SEED_AGREEMENTS, True)):
        for id, default in table.items():
            assert specs[id].enforced is enforced, id
            assert specs[id].default == default and type(specs[id].default) is type(default), id


@pytest.mark.parametrize("id", list(ENFORCED) + list(ADVISORY) + list(SEED_AGREEMENTS))
def test_spec_is_complete_and_consistent(id):
    """Title and explanation read in every language, in the right script (the catalog keeps
    the English msgid, messages.po the rest); type and default agree."""
    spec = catalog().agreements[id]
    assert spec.id == id and spec.group in catalog().groups
    for texts in (spec.title, spec.explain):
        assert set(texts) == set(LANGUAGES)
        assert all(texts[lang].strip() for lang in LANGUAGES)
        assert CYRILLIC.search(texts["ru"]) and CYRILLIC.search(texts["uk"])
        assert not CYRILLIC.search(texts["en"]) and texts["en"] == texts.msgid
    assert spec.coerce(spec.default) == spec.default
    if spec.type == "bool":
        assert isinstance(spec.default, bool) and spec.values is None and not spec.labels
    elif spec.type == "choice":
        assert spec.default in spec.values and set(spec.labels) == set(spec.values)
    elif spec.type == "int":
        assert type(spec.default) is int
    else:
        assert spec.type == "optional_int" and spec.default is None
    assert all(spec.accepts(v) for v in spec.suggest)
    for label in spec.labels.values():
        assert all(label[lang].strip() for lang in LANGUAGES)


def test_known_scoring_facts_are_in_the_explanations():
    """A few explanations must quote the exact effect (samosval, raspis payout, dark)."""
    specs = catalog().agreements
    assert "555" in specs["samosval"].explain["en"] and "0" in specs["samosval"].explain["en"]
    assert "105 → 55" in specs["raspis_payout"].explain["ru"]
    assert "240" in specs["dark"].explain["ru"] and "240" in specs["dark"].explain["en"]
    assert "Reading chosen" in specs["samosval_negative"].explain["en"]
    assert "Принятое толкование" in specs["samosval_negative"].explain["ru"]


def test_agreements_are_shown_grouped_in_group_order():
    """Display order runs through the groups in order, each group contiguous."""
    cat = catalog()
    seen = [spec.group for spec in cat.agreements.values()]
    runs = [g for i, g in enumerate(seen) if i == 0 or seen[i - 1] != g]
    assert runs == [g for g in cat.groups if g in seen]
    assert all(g.title[lang] for g in cat.groups.values() for lang in LANGUAGES)


@pytest.mark.parametrize("name", list(PRESETS))
def test_preset_matches_rules_md_section_8(name):
    """Each preset loads and differs from classic in exactly the §8 agreements."""
    cat = catalog()
    preset = cat.presets[name]
    assert preset.name == name and preset.values == PRESETS[name]
    assert all(preset.title[lang] and preset.description[lang] for lang in LANGUAGES)
    agreements = resolve_agreements(name)
    assert agreements.preset == name and agreements.overrides == {}
    assert agreements.differences("classic") == PRESETS[name]
    assert dict(agreements) == {**cat.defaults(), **PRESETS[name]}


def test_presets_listed_classic_first():
    """classic leads the preset list; the others are the §8 set."""
    names = list(catalog().presets)
    assert names[0] == "classic" and set(names) == set(PRESETS)


@pytest.mark.parametrize(("id", "value"), [
    ("target", True),            # a JSON bool is not an int
    ("target", 1000.0),
    ("target", "1000"),
    ("target", 99),              # below min
    ("target", 10001),           # above max
    ("bid_step", 7),             # not one of 5, 10
    ("barrel", 1),               # 0/1 are not bools
    ("barrel", "true"),
    ("barrel", None),
    ("rounding", "nearest3"),
    ("rounding", 5),
    ("samosval", -555),
    ("silence_below", True),
    ("silence_below", "none"),
    ("redeal_prikup_below", 34),
])
def test_coerce_refuses_wrong_values(id, value):
    """Wrong types and out-of-range values are refused, naming the agreement."""
    with pytest.raises(RuleError) as caught:
        catalog().coerce(id, value)
    err = caught.value
    assert (err.deal, err.field, err.rule) == (None, "agreements", "agreements.value")
    assert err.agreement == id and err.params["id"] == id and err.params["got"] == value
    assert str(err).startswith(f"game: agreements: {id} must be ")
    assert err.message("ru").startswith(f"игра: agreements: {id}: нужно ")


@pytest.mark.parametrize(("id", "value"), [
    ("target", 1500), ("barrel", False), ("bid_step", 10), ("rounding", "none"),
    ("silence_below", None), ("silence_below", -120), ("samosval", 0),
])
def test_coerce_accepts_valid_values(id, value):
    """Valid values come back unchanged and with their own type."""
    got = catalog().coerce(id, value)
    assert got == value and type(got) is type(value)


def test_unknown_agreement_and_preset():
    """An unknown id or preset is a RuleError naming it."""
    with pytest.raises(RuleError) as caught:
        catalog().coerce("no_such_rule", True)
    assert caught.value.rule == "agreements.unknown"
    assert "no_such_rule" in str(caught.value)
    with pytest.raises(RuleError) as caught:
        resolve_agreements("classic", {"barel": True})
    assert caught.value.rule == "agreements.unknown" and caught.value.params["id"] == "barel"
    for name in ("hungarian", None, 3):
        with pytest.raises(RuleError) as caught:
            resolve_agreements(name)
        assert caught.value.rule == "agreements.preset" and caught.value.field == "agreements"
    with pytest.raises(RuleError) as caught:
        resolve_agreements("classic", ["dark"])
    assert caught.value.field == "agreements"


def test_resolve_refuses_bad_override_value():
    """An override of the wrong type is refused, whatever the preset."""
    with pytest.raises(RuleError) as caught:
        resolve_agreements("polish", {"dark": 1})
    assert caught.value.rule == "agreements.value" and caught.value.agreement == "dark"


def test_overrides_are_normalised_against_the_preset():
    """Only values that differ from the preset stay as overrides."""
    agreements = resolve_agreements("polish", {"bid_step": 10, "dark": True, "target": 1000})
    assert agreements.overrides == {"dark": True}
    assert agreements.differences() == {"dark": True}
    assert agreements.differences("preset") == {"dark": True}
    assert agreements.differences("classic") == {**PRESETS["polish"], "dark": True}
    # Against another preset: polish's own values, plus dark, minus what two-players changes.
    against = agreements.differences("two-players")
    assert against["barrel"] is True and against["declarer_scores"] == "contract"
    assert against["dark"] is True and against["bid_step"] == 10
    # Setting an override back to the preset value removes it.
    kinga = resolve_agreements("kinga", {"raspis_barrel": "nobody_if_barrel", "golden": False})
    assert kinga.overrides == {}
    classic = resolve_agreements("classic", {"bid_step": 10})
    assert classic.overrides == {"bid_step": 10} and classic["bid_step"] == 10
    assert resolve_agreements().preset == "classic"
    assert resolve_agreements(overrides=None) == resolve_agreements("classic", {})


def test_agreements_are_a_read_only_mapping():
    """Agreements behave like a dict for reading and refuse every kind of write."""
    agreements = resolve_agreements("kinga", {"dark": True})
    assert isinstance(agreements, Agreements)
    assert len(agreements) == len(ENFORCED) + len(ADVISORY) + len(SEED_AGREEMENTS)
    assert list(agreements) == list(catalog().agreements)
    assert agreements["dark"] is True and agreements.get("nope") is None
    assert "barrel" in agreements
    with pytest.raises(TypeError):
        agreements["dark"] = False
    with pytest.raises(TypeError):
        del agreements["dark"]
    with pytest.raises(AttributeError):
        agreements.preset = "classic"
    with pytest.raises(AttributeError):
        agreements._values = {}
    copy = agreements.overrides
    copy["golden"] = True
    assert agreements.overrides == {"dark": True} and agreements["golden"] is False


def test_agreements_equality_hash_and_json():
    """Equal when preset and values match; to_json round-trips through resolve_agreements."""
    one = resolve_agreements("kinga", {"dark": True})
    two = resolve_agreements("kinga", {"dark": True, "golden": False})
    assert one == two and hash(one) == hash(two)
    assert one != resolve_agreements("kinga")
    # Same values reached from another preset are a different game setting.
    same_values = resolve_agreements("classic", PRESETS["kinga"] | {"dark": True})
    assert dict(same_values) == dict(one) and same_values != one
    assert one == dict(one)
    assert one.to_json() == {"preset": "kinga", "overrides": {"dark": True}}
    assert resolve_agreements(**one.to_json()) == one
    assert "kinga" in repr(one)


def test_catalog_is_cached_and_read_from_data_dir():
    """catalog() is read once; a fresh load of the same folder gives the same content."""
    assert catalog() is catalog()
    fresh = load_catalog(data_dir("rules"))
    assert fresh == catalog()


def test_value_text():
    """Values are shown with labels, yes/no and a real minus sign."""
    specs = catalog().agreements
    assert specs["barrel"].value_text(True, "ru") == "вкл."
    assert specs["barrel"].value_text(False, "en") == "off"
    assert specs["rounding"].value_text("none", "en") == "No rounding"
    assert specs["samosval"].value_text(0, "en") == "off"
    assert specs["samosval"].value_text(555, "ru") == "555"
    assert specs["pit_below"].value_text(-100, "ru") == "−100"
    assert specs["pit_below"].value_text(None, "en") == "none"


# ---------------------------------------------------------------- the loader's own checks

@pytest.fixture
def rules(tmp_path):
    """A copy of the shipped rules folder to break on purpose."""
    target = tmp_path / "rules"
    shutil.copytree(data_dir("rules"), target, ignore=shutil.ignore_patterns("__pycache__"))
    return target


def _edit(path: Path, old: str, new: str) -> None:
    """Replace one exact piece of a file (failing loudly if it is not there)."""
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, old
    path.write_text(text.replace(old, new), encoding="utf-8")


def _load_fails(root: Path, *fragments: str) -> CatalogError:
    """Loading ``root`` must fail with a message holding every fragment."""
    with pytest.raises(CatalogError) as caught:
        load_catalog(root)
    for fragment in fragments:
        assert fragment in str(caught.value)
    return caught.value


def test_loader_accepts_the_copy(rules):
    """The untouched copy loads (so the failures below are due to each edit)."""
    assert load_catalog(rules) == catalog()


def test_loader_refuses_missing_explanation(rules):
    """A spec without an English explanation names the file and the id."""
    _edit(rules / "catalog.toml", 'explain_en = "A bolt on a golden deal counts as two."\n', "")
    _load_fails(rules, "catalog.toml", "agreements.golden_double_bolts", "explain_en")


def test_loader_refuses_default_outside_its_own_rule(rules):
    """A default that its own coercion refuses is caught."""
    _edit(rules / "catalog.toml", "default = 1000\nmin = 100", "default = 50\nmin = 100")
    _load_fails(rules, "agreements.target", "default 50")


def test_loader_refuses_bool_default_for_int(rules):
    """true is not an integer default."""
    _edit(rules / "catalog.toml", "default = 555", "default = true")
    _load_fails(rules, "agreements.samosval", "default True")


def test_loader_refuses_choice_without_label(rules):
    """Every choice value needs its label."""
    _edit(rules / "catalog.toml", '[agreements.barrel_fall.labels.zero]\nen = "To zero"\n', "")
    _load_fails(rules, "agreements.barrel_fall.labels", "zero")


def test_loader_refuses_unknown_key_and_type(rules):
    """A misspelt key or type is reported, not ignored."""
    _edit(rules / "catalog.toml", 'type = "optional_int"\nmin = 1\nmax = 33',
          'type = "optional_int"\nmnin = 1\nmax = 33')
    _load_fails(rules, "agreements.redeal_prikup_below", "mnin")


def test_loader_refuses_preset_with_unknown_id(rules):
    """A preset naming an agreement the catalog lacks names the preset file and id."""
    _edit(rules / "presets" / "kinga.toml", "raspis_third_penalty = true",
          "raspis_third_penalty = true\nraspis_fourth_penalty = true")
    _load_fails(rules, "kinga.toml", "values.raspis_fourth_penalty", "unknown agreement")


def test_loader_refuses_preset_with_wrong_value(rules):
    """A preset value of the wrong type or equal to the default is refused."""
    _edit(rules / "presets" / "polish.toml", "bid_step = 10", "bid_step = 15")
    _load_fails(rules, "polish.toml", "values.bid_step", "5 | 10")
    _edit(rules / "presets" / "polish.toml", "bid_step = 15", "bid_step = 5")
    _load_fails(rules, "polish.toml", "values.bid_step", "classic default")


def test_loader_requires_classic_and_valid_toml(rules):
    """No classic preset, or a file that is not TOML, stops the load."""
    (rules / "presets" / "two-players.toml").write_text("barrel = \n", encoding="utf-8")
    _load_fails(rules, "two-players.toml", "not valid TOML")
    (rules / "presets" / "two-players.toml").unlink()
    (rules / "presets" / "classic.toml").unlink()
    _load_fails(rules, "classic.toml", "required")
