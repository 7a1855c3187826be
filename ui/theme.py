"""Light and dark palettes that follow the system, and the few colours the views share.

Colour never carries meaning alone: every status, claim kind and highlight also has a word or a
glyph. The pairs here keep text contrast at or above WCAG AA (4.5:1) on their backgrounds.
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QFont, QPalette
from PySide6.QtWidgets import QApplication


@dataclass(frozen=True)
class Colours:
    dark: bool
    window: str
    base: str
    alt_base: str
    text: str
    muted: str  # secondary text (dates, durations)
    accent: str
    accent_text: str
    highlight_row: str  # the segment being played
    match_bg: str  # search match highlight
    match_text: str
    stated_bg: str
    stated_fg: str
    inferred_bg: str
    inferred_fg: str
    record: str
    ok: str
    warn: str
    error: str
    border: str


LIGHT = Colours(
    dark=False,
    window="#f4f4f2",
    base="#ffffff",
    alt_base="#f7f7f5",
    text="#1d1d1f",
    muted="#5f6368",
    accent="#1f5fbf",
    accent_text="#ffffff",
    highlight_row="#fff1b8",
    match_bg="#ffe066",
    match_text="#1d1d1f",
    stated_bg="#e6f4ea",
    stated_fg="#14532d",
    inferred_bg="#fdf0e1",
    inferred_fg="#7a3e00",
    record="#c62828",
    ok="#1e6b34",
    warn="#8a5300",
    error="#b3261e",
    border="#d0d0cc",
)

DARK = Colours(
    dark=True,
    window="#202124",
    base="#17181a",
    alt_base="#1f2023",
    text="#e8e8e6",
    muted="#a8abb0",
    accent="#7fb0ff",
    accent_text="#0b1a33",
    highlight_row="#4a3f12",
    match_bg="#8a6d00",
    match_text="#ffffff",
    stated_bg="#16351f",
    stated_fg="#b9ecc6",
    inferred_bg="#3d2a12",
    inferred_fg="#ffd8a8",
    record="#ff6b60",
    ok="#8fd19e",
    warn="#ffcc80",
    error="#ff8a80",
    border="#3c3d40",
)

_current = LIGHT


def colours() -> Colours:
    return _current


def system_prefers_dark(app: QApplication) -> bool:
    return app.styleHints().colorScheme() == Qt.ColorScheme.Dark


def _palette(c: Colours) -> QPalette:
    p = QPalette()
    roles = {
        QPalette.ColorRole.Window: c.window,
        QPalette.ColorRole.WindowText: c.text,
        QPalette.ColorRole.Base: c.base,
        QPalette.ColorRole.AlternateBase: c.alt_base,
        QPalette.ColorRole.Text: c.text,
        QPalette.ColorRole.Button: c.window,
        QPalette.ColorRole.ButtonText: c.text,
        QPalette.ColorRole.ToolTipBase: c.base,
        QPalette.ColorRole.ToolTipText: c.text,
        QPalette.ColorRole.PlaceholderText: c.muted,
        QPalette.ColorRole.Highlight: c.accent,
        QPalette.ColorRole.HighlightedText: c.accent_text,
        QPalette.ColorRole.Link: c.accent,
        QPalette.ColorRole.BrightText: c.error,
        QPalette.ColorRole.Mid: c.border,
        QPalette.ColorRole.Midlight: c.border,
    }
    for role, value in roles.items():
        p.setColor(role, QColor(value))
    for role in (QPalette.ColorRole.Text, QPalette.ColorRole.WindowText, QPalette.ColorRole.ButtonText):
        p.setColor(QPalette.ColorGroup.Disabled, role, QColor(c.muted))
    return p


def apply_theme(app: QApplication, *, dark: bool | None = None) -> Colours:
    """Fusion style with our palette; `dark=None` follows the system (and keeps following it)."""
    global _current
    app.setStyle("Fusion")
    _current = DARK if (system_prefers_dark(app) if dark is None else dark) else LIGHT
    app.setPalette(_palette(_current))
    font = app.font()
    if font.pointSizeF() < 10:
        font.setPointSizeF(10)
        app.setFont(font)
    return _current


def follow_system(app: QApplication, on_change: object = None) -> None:
    """Re-apply the palette when the system switches between light and dark."""

    def changed(_scheme: Qt.ColorScheme) -> None:
        apply_theme(app)
        if callable(on_change):
            on_change()

    app.styleHints().colorSchemeChanged.connect(changed)


def heading_font(base: QFont, *, scale: float = 1.25, bold: bool = True) -> QFont:
    font = QFont(base)
    font.setPointSizeF(base.pointSizeF() * scale)
    font.setBold(bold)
    return font
