"""The agreement catalog and presets: every switchable rule, typed and explained.

``rules/catalog.toml`` names, types, defaults and explains each agreement;
``rules/presets/*.toml`` hold named sets that differ from the classic defaults.
Both are checked when they are read, so a typo in them fails loudly at start-up
instead of quietly changing a score.
"""

from __future__ import annotations

import functools
import re
import tomllib
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from types import MappingProxyType
from typing import Any

from scorer.engine.errors import RuleError
from scorer.engine.texts import LANGUAGES, N_, Translated, tr
from scorer.paths import data_dir

TYPES = ("bool", "int", "choice", "optional_int")
CLASSIC = "classic"
# Presets played under a country's own words: their agreements are also read under the
# gettext context "preset:NAME", so the Polish catalog can say bomba, musik, pod kreską there.
NATIVE_PRESETS = ("polish",)

_REQUIRED = ("group", "type", "enforced", "title_en", "explain_en")
_OPTIONAL = ("default", "min", "max", "values", "suggest", "labels", "changeable_mid_game")
_PRESET_KEYS = ("title_en", "description_en", "values")
_ID = re.compile(r"^[a-z][a-z0-9_]*$")
_PRESET_NAME = re.compile(r"^[a-z][a-z0-9-]*$")


class CatalogError(ValueError):
    """The catalog or a preset file itself is broken: names the file, the entry and the fault."""

    def __init__(self, path: Path | str, where: str, problem: str):
        self.path = str(path)
        self.where = where
        self.problem = problem
        super().__init__(f"{self.path}: {where}: {problem}")


def _is_int(value: Any) -> bool:
    """True for a real integer; bool is an int subclass in Python but not in JSON."""
    return isinstance(value, int) and not isinstance(value, bool)


@dataclass(frozen=True)
class Group:
    """A heading that agreements are shown under."""

    id: str
    title: Translated


def preset_context(preset: str) -> str | None:
    """The gettext context a preset's agreements are read under, if it has its own words."""
    return f"preset:{preset}" if preset in NATIVE_PRESETS else None


@dataclass(frozen=True)
class Spec:
    """One agreement: its type, classic default, allowed values and texts (msgids)."""

    id: str
    group: str
    type: str
    default: Any
    values: tuple[Any, ...] | None
    min: int | None
    max: int | None
    suggest: tuple[Any, ...]
    enforced: bool
    title: Translated
    explain: Translated
    labels: dict[Any, Translated]
    # Whether an "agreements" record may change it in a running game (docs/RULES.md §11).
    changeable: bool = True

    def under(self, context: str | None) -> Spec:
        """This agreement worded under a preset's context (see NATIVE_PRESETS)."""
        if context is None:
            return self
        return replace(self, title=self.title.under(context),
                       explain=self.explain.under(context),
                       labels={k: v.under(context) for k, v in self.labels.items()})

    def expected(self) -> str:
        """What a valid value looks like, worded the same in every language."""
        if self.type == "bool":
            return "true | false"
        if self.type == "choice" or self.values is not None:
            return " | ".join(str(v) for v in self.values or ())
        if self.min is not None and self.max is not None:
            shape = f"int {self.min}…{self.max}"
        elif self.min is not None:
            shape = f"int ≥ {self.min}"
        elif self.max is not None:
            shape = f"int ≤ {self.max}"
        else:
            shape = "int"
        return f"null | {shape}" if self.type == "optional_int" else shape

    def accepts(self, value: Any) -> bool:
        """Whether ``value`` is valid as it stands (no conversions: 1 is not true)."""
        if self.type == "bool":
            return isinstance(value, bool)
        if self.type == "choice":
            return isinstance(value, str) and value in (self.values or ())
        if value is None:
            return self.type == "optional_int"
        if not _is_int(value):
            return False
        if self.values is not None and value not in self.values:
            return False
        if self.min is not None and value < self.min:
            return False
        return self.max is None or value <= self.max

    def coerce(self, value: Any) -> Any:
        """Return ``value`` if valid, else raise a RuleError naming this agreement."""
        if not self.accepts(value):
            raise RuleError(None, "agreements", "agreements.value", agreement=self.id,
                            id=self.id, expected=self.expected(), got=value)
        return value

    def value_text(self, value: Any, lang: str = "ru") -> str:
        """How a value is shown on a form or the rules sheet."""
        lang = lang if lang in LANGUAGES else "en"
        label = self.labels.get(value) if not isinstance(value, bool) else None
        if label:
            return label[lang]
        # The same words as the web form (one catalog): on/off, none.
        if value is None:
            return tr(lang, N_("none"))
        if isinstance(value, bool):
            return tr(lang, N_("on") if value else N_("off"))
        if _is_int(value) and value < 0:
            return f"−{-value}"  # a real minus sign, as printed on the score sheet
        return str(value)


@dataclass(frozen=True)
class Preset:
    """A named agreement set; ``values`` holds only what differs from classic."""

    name: str
    title: Translated
    description: Translated
    values: dict[str, Any]


@dataclass(frozen=True)
class Catalog:
    """Everything read from rules/: groups, agreements and presets, in display order."""

    groups: dict[str, Group]
    agreements: dict[str, Spec]
    presets: dict[str, Preset]

    def spec(self, id: str) -> Spec:
        """The agreement ``id``, or a RuleError if there is no such agreement."""
        found = self.agreements.get(id) if isinstance(id, str) else None
        if found is None:
            raise RuleError(None, "agreements", "agreements.unknown", id=id)
        return found

    def coerce(self, id: str, value: Any) -> Any:
        """Check ``value`` for agreement ``id``; raise RuleError if unknown or invalid."""
        return self.spec(id).coerce(value)

    def defaults(self) -> dict[str, Any]:
        """The classic value of every agreement, in display order."""
        return {id: spec.default for id, spec in self.agreements.items()}

    def preset(self, name: str) -> Preset:
        """The preset ``name``, or a RuleError if there is none."""
        found = self.presets.get(name) if isinstance(name, str) else None
        if found is None:
            raise RuleError(None, "agreements", "agreements.preset", name=name)
        return found

    def preset_values(self, name: str) -> dict[str, Any]:
        """Every agreement's value under preset ``name``, in display order."""
        return {**self.defaults(), **self.preset(name).values}

    def specs_for(self, preset: str) -> dict[str, Spec]:
        """The agreements as a game of ``preset`` shows them: the ones it sets in its own
        words where it has them (NATIVE_PRESETS), the rest as everywhere."""
        context = preset_context(preset)
        found = self.presets.get(preset)
        if context is None or found is None:
            return self.agreements
        return {id: spec.under(context) if id in found.values else spec
                for id, spec in self.agreements.items()}


class Agreements(Mapping[str, Any]):
    """A game's frozen agreement set: read-only id -> value, remembering its preset."""

    __slots__ = ("_preset", "_values", "_overrides")
    _preset: str
    _values: Mapping[str, Any]
    _overrides: Mapping[str, Any]

    def __init__(self, preset: str, values: Mapping[str, Any], overrides: Mapping[str, Any]):
        object.__setattr__(self, "_preset", preset)
        object.__setattr__(self, "_values", MappingProxyType(dict(values)))
        object.__setattr__(self, "_overrides", MappingProxyType(dict(overrides)))

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("agreements are frozen for the game")

    def __getitem__(self, id: str) -> Any:
        return self._values[id]

    def __iter__(self) -> Iterator[str]:
        return iter(self._values)

    def __len__(self) -> int:
        return len(self._values)

    def __eq__(self, other: object) -> bool:
        # Two sets are the same game setting only if they also came from the same preset.
        if isinstance(other, Agreements):
            return self._preset == other._preset and dict(self._values) == dict(other._values)
        if isinstance(other, Mapping):
            return dict(self._values) == dict(other)
        return NotImplemented

    def __hash__(self) -> int:
        return hash((self._preset, tuple(self._values.items())))

    def __repr__(self) -> str:
        return f"Agreements(preset={self._preset!r}, overrides={dict(self._overrides)!r})"

    @property
    def preset(self) -> str:
        """The preset the game started from."""
        return self._preset

    @property
    def overrides(self) -> dict[str, Any]:
        """Only the agreements that differ from the preset (a fresh copy)."""
        return dict(self._overrides)

    def differences(self, base: str = "preset") -> dict[str, Any]:
        """Agreements whose value differs from ``base``: "preset", "classic" or a preset name."""
        if base == "preset":
            return self.overrides
        reference = catalog().preset_values(base)
        return {id: value for id, value in self._values.items() if value != reference[id]}

    def to_json(self) -> dict[str, Any]:
        """The ``agreements`` object of a thousand-game/1 log."""
        return {"preset": self._preset, "overrides": self.overrides}


def resolve_agreements(preset: str = CLASSIC,
                       overrides: Mapping[str, Any] | None = None) -> Agreements:
    """Build a game's agreement set from a preset name and overrides; RuleError if bad."""
    cat = catalog()
    base = cat.preset_values(preset)
    if overrides is None:
        overrides = {}
    if not isinstance(overrides, Mapping):
        raise RuleError(None, "agreements", "type", expected="{id: value}")
    values = dict(base)
    for id, value in overrides.items():
        values[id] = cat.coerce(id, value)
    changed = {id: value for id, value in values.items() if value != base[id]}
    return Agreements(preset, values, changed)


@functools.cache
def catalog() -> Catalog:
    """The catalog shipped with the app, read and checked once."""
    return load_catalog(data_dir("rules"))


def load_catalog(root: Path) -> Catalog:
    """Read and check ``root/catalog.toml`` and ``root/presets/*.toml``."""
    path = Path(root) / "catalog.toml"
    data = _read_toml(path)
    extra = set(data) - {"groups", "agreements"}
    if extra:
        raise CatalogError(path, "top level", f"unknown tables {sorted(extra)}")
    groups = _load_groups(path, data.get("groups"))
    specs = [_load_spec(path, id, raw, groups) for id, raw in _table(path, "agreements",
                                                                     data.get("agreements"))]
    if not specs:
        raise CatalogError(path, "agreements", "no agreements defined")
    order = list(groups)
    # Display order: by group, then as written within the group.
    specs.sort(key=lambda spec: order.index(spec.group))
    agreements = {spec.id: spec for spec in specs}
    presets = _load_presets(Path(root) / "presets", agreements)
    return Catalog(groups=groups, agreements=agreements, presets=presets)


def _read_toml(path: Path) -> dict[str, Any]:
    """Parse one TOML file, turning any failure into a CatalogError."""
    try:
        with open(path, "rb") as handle:
            return tomllib.load(handle)
    except OSError as exc:
        raise CatalogError(path, "file", f"cannot be read ({exc.strerror})") from exc
    except tomllib.TOMLDecodeError as exc:
        raise CatalogError(path, "file", f"not valid TOML ({exc})") from exc


def _table(path: Path, where: str, value: Any) -> list[tuple[str, Any]]:
    """The items of a required, non-empty TOML table."""
    if not isinstance(value, dict) or not value:
        raise CatalogError(path, where, "a non-empty table is required")
    return list(value.items())


def _texts(path: Path, where: str, raw: dict[str, Any], prefix: str) -> Translated:
    """The English ``prefix_en`` (or ``en``): a msgid, translated in messages.po."""
    key = f"{prefix}_en" if prefix else "en"
    text = raw.get(key)
    if not isinstance(text, str) or not text.strip():
        raise CatalogError(path, where, f"{key} must be a non-empty string")
    return Translated(text)


def _load_groups(path: Path, raw: Any) -> dict[str, Group]:
    """Read ``[groups.*]``: id -> Group, in file order."""
    groups = {}
    for id, entry in _table(path, "groups", raw):
        where = f"groups.{id}"
        if not _ID.match(id) or not isinstance(entry, dict):
            raise CatalogError(path, where, "a group is a table with en")
        if set(entry) - {"en"}:
            raise CatalogError(path, where, f"unknown keys {sorted(set(entry) - {'en'})} "
                               "(other languages live in messages.po)")
        groups[id] = Group(id=id, title=_texts(path, where, entry, ""))
    return groups


def _load_spec(path: Path, id: str, raw: Any, groups: dict[str, Group]) -> Spec:
    """Read one ``[agreements.ID]`` table and check it is complete and self-consistent."""
    where = f"agreements.{id}"
    if not _ID.match(id):
        raise CatalogError(path, where, "an id is lower_snake_case")
    if not isinstance(raw, dict):
        raise CatalogError(path, where, "must be a table")
    missing = [key for key in _REQUIRED if key not in raw]
    if missing:
        raise CatalogError(path, where, f"missing {', '.join(missing)}")
    unknown = set(raw) - set(_REQUIRED) - set(_OPTIONAL)
    if unknown:
        raise CatalogError(path, where, f"unknown keys {sorted(unknown)} "
                           "(other languages live in messages.po)")
    kind = raw["type"]
    if kind not in TYPES:
        raise CatalogError(path, where, f"type must be one of {', '.join(TYPES)}")
    if raw["group"] not in groups:
        raise CatalogError(path, where, f"unknown group {raw['group']!r}")
    if not isinstance(raw["enforced"], bool):
        raise CatalogError(path, where, "enforced must be true or false")
    if not isinstance(raw.get("changeable_mid_game", True), bool):
        raise CatalogError(path, where, "changeable_mid_game must be true or false")
    bounds = _bounds(path, where, kind, raw)
    values = _values(path, where, kind, raw.get("values"))
    spec = Spec(id=id, group=raw["group"], type=kind, default=raw.get("default"),
                values=values, min=bounds[0], max=bounds[1], suggest=(),
                enforced=raw["enforced"], title=_texts(path, where, raw, "title"),
                explain=_texts(path, where, raw, "explain"), labels={},
                changeable=raw.get("changeable_mid_game", True))
    _check_default(path, where, spec, raw)
    suggest = raw.get("suggest", [])
    if not isinstance(suggest, list) or any(not spec.accepts(v) for v in suggest):
        raise CatalogError(path, where, f"suggest must be a list of {spec.expected()}")
    labels = _labels(path, where, spec, raw.get("labels", {}))
    return replace(spec, suggest=tuple(suggest), labels=labels)


def _bounds(path: Path, where: str, kind: str,
            raw: dict[str, Any]) -> tuple[int | None, int | None]:
    """Read min/max: integers, only for int types, min not above max."""
    low, high = raw.get("min"), raw.get("max")
    if (low is not None or high is not None) and kind not in ("int", "optional_int"):
        raise CatalogError(path, where, "min/max apply only to int and optional_int")
    for name, bound in (("min", low), ("max", high)):
        if bound is not None and not _is_int(bound):
            raise CatalogError(path, where, f"{name} must be an integer")
    if low is not None and high is not None and low > high:
        raise CatalogError(path, where, "min is above max")
    return low, high


def _values(path: Path, where: str, kind: str, raw: Any) -> tuple[Any, ...] | None:
    """Read the allowed values: required strings for choice, optional ints for int."""
    if raw is None:
        if kind == "choice":
            raise CatalogError(path, where, "a choice needs values")
        return None
    if kind not in ("choice", "int"):
        raise CatalogError(path, where, "values apply only to choice and int")
    check = (lambda v: isinstance(v, str) and _ID.match(v)) if kind == "choice" else _is_int
    if not isinstance(raw, list) or len(raw) < 2 or not all(check(v) for v in raw):
        wanted = "lower_snake_case strings" if kind == "choice" else "integers"
        raise CatalogError(path, where, f"values must list at least two {wanted}")
    if len(set(raw)) != len(raw):
        raise CatalogError(path, where, "values repeat")
    return tuple(raw)


def _check_default(path: Path, where: str, spec: Spec, raw: dict[str, Any]) -> None:
    """The default must exist (none for optional_int) and pass the agreement's own check."""
    if spec.type == "optional_int":
        if "default" in raw:
            raise CatalogError(path, where, "optional_int has no default (it is unset)")
        return
    if "default" not in raw:
        raise CatalogError(path, where, "missing default")
    if not spec.accepts(spec.default):
        raise CatalogError(path, where, f"default {spec.default!r} is not {spec.expected()}")


def _labels(path: Path, where: str, spec: Spec, raw: Any) -> dict[Any, Translated]:
    """Read value labels: every value of a choice, optionally some values of an int."""
    if not isinstance(raw, dict) or (raw and spec.type == "bool"):
        raise CatalogError(path, where, "labels are a table, and not for bool")
    labels = {}
    for key, entry in raw.items():
        value = key if spec.type == "choice" else _int_key(key)
        if value is None or not spec.accepts(value) or not isinstance(entry, dict):
            raise CatalogError(path, f"{where}.labels.{key}", f"not a value: {spec.expected()}")
        if set(entry) - {"en"}:
            raise CatalogError(path, f"{where}.labels.{key}", "only en (other languages live "
                               "in messages.po)")
        labels[value] = _texts(path, f"{where}.labels.{key}", entry, "")
    if spec.type == "choice" and set(labels) != set(spec.values or ()):
        missing = [v for v in spec.values or () if v not in labels]
        raise CatalogError(path, f"{where}.labels", f"missing labels for {missing}")
    return labels


def _int_key(key: str) -> int | None:
    """A TOML table key read as an integer label key ("0", "-100"), else None."""
    try:
        return int(key)
    except ValueError:
        return None


def _load_presets(folder: Path, agreements: dict[str, Spec]) -> dict[str, Preset]:
    """Read every preset file; classic first, the rest by name."""
    files = sorted(folder.glob("*.toml"), key=lambda p: (p.stem != CLASSIC, p.stem))
    presets = {}
    for path in files:
        presets[path.stem] = _load_preset(path, agreements)
    if CLASSIC not in presets:
        raise CatalogError(folder / f"{CLASSIC}.toml", "file", "the classic preset is required")
    if presets[CLASSIC].values:
        raise CatalogError(folder / f"{CLASSIC}.toml", "values",
                           "classic is the catalog defaults: change catalog.toml instead")
    return presets


def _load_preset(path: Path, agreements: dict[str, Spec]) -> Preset:
    """Read one preset file: texts plus values that are known, valid and non-default."""
    name = path.stem
    if not _PRESET_NAME.match(name):
        raise CatalogError(path, "file", "a preset file name is lower-case-with-dashes")
    data = _read_toml(path)
    unknown = set(data) - set(_PRESET_KEYS)
    if unknown:
        raise CatalogError(path, "top level", f"unknown keys {sorted(unknown)} "
                           "(other languages live in messages.po)")
    values = data.get("values", {})
    if not isinstance(values, dict):
        raise CatalogError(path, "values", "must be a table")
    for id, value in values.items():
        spec = agreements.get(id)
        if spec is None:
            raise CatalogError(path, f"values.{id}", "unknown agreement")
        if not spec.accepts(value):
            raise CatalogError(path, f"values.{id}", f"{value!r} is not {spec.expected()}")
        if value == spec.default:
            raise CatalogError(path, f"values.{id}", "same as the classic default: leave it out")
    return Preset(name=name, title=_texts(path, "title", data, "title"),
                  description=_texts(path, "description", data, "description"),
                  values=dict(values))
