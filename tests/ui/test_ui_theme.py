"""Both palettes keep text readable: WCAG AA contrast (4.5:1) for every pair the views paint."""

from __future__ import annotations

import pytest

from ui.theme import DARK, LIGHT, Colours


def _luminance(hex_colour: str) -> float:
    channels = [int(hex_colour.lstrip("#")[i : i + 2], 16) / 255 for i in (0, 2, 4)]
    linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(a: str, b: str) -> float:
    hi, lo = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def _pairs(c: Colours) -> dict[str, tuple[str, str]]:
    pairs = {
        "text on base": (c.text, c.base),
        "text on window": (c.text, c.window),
        "muted on base": (c.muted, c.base),
        "muted on window": (c.muted, c.window),
        "selected row": (c.accent_text, c.accent),
        "playing line": (c.text, c.highlight_row),
        "search match": (c.match_text, c.match_bg),
        "stated claim": (c.stated_fg, c.stated_bg),
        "stated claim text": (c.text, c.stated_bg),
        "inferred claim": (c.inferred_fg, c.inferred_bg),
        "inferred claim text": (c.text, c.inferred_bg),
        "link": (c.accent, c.window),
        "citation in a stated claim": (c.accent, c.stated_bg),
        "citation in an inferred claim": (c.accent, c.inferred_bg),
        "notice text": (c.text, c.alt_base),
        "notice warning": (c.warn, c.alt_base),
        "notice error": (c.error, c.alt_base),
    }
    for name in ("record", "ok", "warn", "error"):
        pairs[f"{name} status on base"] = (getattr(c, name), c.base)
    return pairs


@pytest.mark.parametrize("palette", [LIGHT, DARK], ids=["light", "dark"])
def test_every_painted_pair_meets_aa(palette: Colours) -> None:
    ratios = {name: round(contrast(*pair), 2) for name, pair in _pairs(palette).items()}
    weak = {name: ratio for name, ratio in ratios.items() if ratio < 4.5}
    assert weak == {}


def test_contrast_formula_matches_known_values() -> None:
    assert contrast("#000000", "#ffffff") == pytest.approx(21.0)
    assert contrast("#777777", "#ffffff") == pytest.approx(4.48, abs=0.01)
