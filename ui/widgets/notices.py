"""A strip of plain notices under the toolbar: errors with their fix, guidance, announcements.

Instead of dialog chains: each notice says what happened and what to do, may offer one action,
and can be dismissed. The same notice (by key) is never stacked twice.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from ui.theme import colours

GLYPHS = {"error": "⚠", "warning": "⚠", "info": "ℹ"}
WORDS = {"error": "Problem", "warning": "Note", "info": "Info"}


class Notice(QFrame):
    def __init__(
        self,
        key: str,
        text: str,
        *,
        severity: str = "info",
        fix: str = "",
        action: tuple[str, Callable[[], None]] | None = None,
        on_close: Callable[[Notice], None],
    ) -> None:
        super().__init__()
        self.key = key
        self.severity = severity
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.setAutoFillBackground(True)
        c = colours()
        fg = {"error": c.error, "warning": c.warn}.get(severity, c.accent)
        palette = self.palette()
        palette.setColor(QPalette.ColorRole.Window, QColor(c.alt_base))
        self.setPalette(palette)
        glyph = QLabel(f"{GLYPHS[severity]} {WORDS[severity]}:")
        glyph.setStyleSheet(f"color: {fg}; font-weight: bold;")
        body = text + (f" <i>Fix: {fix}</i>" if fix else "")
        self.label = QLabel(body)
        self.label.setWordWrap(True)
        self.label.setTextFormat(Qt.TextFormat.RichText)
        self.label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.setAccessibleName(f"{WORDS[severity]}: {text}" + (f" Fix: {fix}" if fix else ""))
        layout = QHBoxLayout(self)
        layout.setContentsMargins(10, 6, 6, 6)
        layout.addWidget(glyph, 0, Qt.AlignmentFlag.AlignTop)
        layout.addWidget(self.label, 1)
        self.action_button: QPushButton | None = None
        if action is not None:
            label, callback = action
            self.action_button = QPushButton(label)
            self.action_button.setAccessibleName(label)
            self.action_button.clicked.connect(callback)
            layout.addWidget(self.action_button, 0, Qt.AlignmentFlag.AlignTop)
        close = QPushButton("Dismiss")
        close.setAccessibleName(f"Dismiss: {text[:60]}")
        close.clicked.connect(lambda: on_close(self))
        layout.addWidget(close, 0, Qt.AlignmentFlag.AlignTop)


class NoticeBar(QWidget):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._layout = QVBoxLayout(self)
        self._layout.setContentsMargins(8, 4, 8, 0)
        self._layout.setSpacing(4)
        self.notices: dict[str, Notice] = {}
        self.hide()

    def show_notice(
        self,
        key: str,
        text: str,
        *,
        severity: str = "info",
        fix: str = "",
        action: tuple[str, Callable[[], None]] | None = None,
    ) -> Notice:
        self.dismiss(key)
        notice = Notice(key, text, severity=severity, fix=fix, action=action, on_close=self._close)
        self.notices[key] = notice
        self._layout.addWidget(notice)
        self.show()
        return notice

    def dismiss(self, key: str) -> None:
        notice = self.notices.pop(key, None)
        if notice is not None:
            notice.setParent(None)
            notice.deleteLater()
        self.setVisible(bool(self.notices))

    def _close(self, notice: Notice) -> None:
        self.dismiss(notice.key)

    def texts(self) -> list[str]:
        return [n.accessibleName() for n in self.notices.values()]
