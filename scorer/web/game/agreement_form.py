"""The agreements part of the new-game form, generated from the engine's catalog.

Nothing here lists an agreement by hand: groups, types, labels and explanations all
come from ``catalog()``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from flask_babel import gettext as _

from scorer.engine import Agreements, Group, RuleError, Spec, catalog, resolve_agreements
from scorer.web.i18n import lang

PREFIX = "ag_"


def loc(value: Any) -> str:
    """Pick the current language from a {"ru", "en"} dict (or pass a string through)."""
    if isinstance(value, Mapping):
        return str(value.get(lang()) or value.get("ru") or value.get("en") or "")
    return "" if value is None else str(value)


@dataclass
class Field:
    """One agreement as the form shows it."""

    spec: Spec
    value: Any
    widget: str  # "check", "select", "number"
    error: str | None = None

    @property
    def name(self) -> str:
        """The form field name."""
        return PREFIX + self.spec.id

    def choices(self) -> list[tuple[str, str]]:
        """(value, label) pairs for a select."""
        return [(str(v), label_of(self.spec, v)) for v in (self.spec.values or [])]


def label_of(spec: Spec, value: Any) -> str:
    """How a value of an agreement is shown in the current language."""
    labels = spec.labels or {}
    for key in (value, str(value)):
        if key in labels:
            return loc(labels[key])
    if spec.type == "bool" or value is None:
        return spec.value_text(value, lang())  # the catalog's on/off/none, as on the sheet
    return str(value)


def widget_of(spec: Spec) -> str:
    """Which input suits an agreement type."""
    if spec.type == "bool":
        return "check"
    if spec.type == "choice" or (spec.type == "int" and spec.values):
        return "select"
    return "number"


def groups(values: Mapping[str, Any], errors: dict[str, str] | None = None,
           preset: str | None = None) -> list[tuple[Group, list[Field]]]:
    """The catalog's groups in order, each with its fields filled from ``values``; worded
    as ``preset`` words its agreements (the polish preset in Polish rules' words)."""
    cat = catalog()
    specs = cat.specs_for(preset) if preset else cat.agreements
    errors = errors or {}
    out = []
    for gid, group in cat.groups.items():
        fields = [
            Field(spec, values[spec.id], widget_of(spec), errors.get(spec.id))
            for spec in specs.values()
            if spec.group == gid
        ]
        if fields:
            out.append((group, fields))
    return out


def read_value(spec: Spec, form: Mapping[str, str]) -> Any:
    """Turn the submitted text for one agreement into a typed value (ValueError if bad)."""
    raw = form.get(PREFIX + spec.id)
    if spec.type == "bool":
        return raw is not None and raw not in ("", "0", "off", "false")
    raw = (raw or "").strip()
    if spec.type == "optional_int" and raw == "":
        return None
    if spec.type == "choice" or spec.values:
        for v in spec.values or []:
            if str(v) == raw:
                return v
        raise ValueError(raw)
    return int(raw)


def parse(form: Mapping[str, str], preset: str) -> tuple[Agreements | None, dict[str, str]]:
    """Read every agreement from the form; return (Agreements or None, errors by id)."""
    base = resolve_agreements(preset)
    overrides: dict[str, Any] = {}
    errors: dict[str, str] = {}
    if not form.get("agreements_shown"):
        return base, {}  # a form without the agreement fields: the preset as it is
    for spec in catalog().agreements.values():
        if PREFIX + spec.id not in form and spec.type != "bool":
            continue  # not on the form: keep the preset's value
        try:
            value = read_value(spec, form)
        except ValueError:
            errors[spec.id] = _("Enter a whole number.")
            continue
        if value != base[spec.id]:
            overrides[spec.id] = value
    if errors:
        return None, errors
    try:
        return resolve_agreements(preset, overrides), {}
    except RuleError as err:
        return None, {err.agreement or err.params.get("id") or "": err.text(lang())}


def differences(agreements: Agreements, base: str = "preset") -> list[tuple[Spec, str]]:
    """(spec, shown value) for each agreement that differs from the preset or classic."""
    specs = catalog().specs_for(agreements.preset)
    diff = agreements.differences(base)
    return [(specs[aid], label_of(specs[aid], value)) for aid, value in diff.items()]
