"""Keyboard first and readable by assistive technology: names on controls, shortcuts, tab order."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractItemView,
    QApplication,
    QComboBox,
    QLineEdit,
    QPlainTextEdit,
    QSlider,
    QWidget,
)

from app.ingest.imports import import_corpus
from tests.support.ui_helpers import WAIT_MS, note, write_corpus

pytestmark = pytest.mark.slow  # the real window: it loads the embedding and chat models at start (warm-up)

CONTROLS = (QAbstractButton, QLineEdit, QComboBox, QAbstractItemView, QSlider, QPlainTextEdit)


def _inside_a_control(widget: QWidget) -> bool:
    parent = widget.parentWidget()
    while parent is not None:
        if isinstance(parent, (QComboBox, QAbstractItemView)):
            return True
        parent = parent.parentWidget()
    return False


def _unnamed(root: QWidget) -> list[str]:
    missing = []
    for widget in root.findChildren(QWidget):
        if not isinstance(widget, CONTROLS) or widget.parent() is None:
            continue
        if type(widget).__name__ == "QToolButton" or _inside_a_control(widget):
            continue  # the tool bar's extension arrow; headers and popups that belong to a named control
        label = widget.accessibleName() or (widget.text() if isinstance(widget, QAbstractButton) else "")
        if not label.strip():
            missing.append(f"{type(widget).__name__} in {type(widget.parent()).__name__}")
    return missing


def test_every_control_has_a_name(window, qtbot) -> None:  # type: ignore[no-untyped-def]
    from ui.dialogs.settings_dialog import SettingsDialog

    assert _unnamed(window) == []
    dialog = SettingsDialog(window.ops, window.library, [], window)
    qtbot.addWidget(dialog)
    assert _unnamed(dialog) == []


def test_shortcuts_reach_each_area(window, qtbot, library, tmp_path) -> None:  # type: ignore[no-untyped-def]
    import_corpus(
        library, write_corpus(tmp_path / "n.jsonl", [note("a", "Atlas", "2026-06-01T08:00:00", ["Hi."])])
    )
    window.check_for_outside_changes()
    qtbot.waitUntil(lambda: len(window.timeline_model.row_of_id) == 1, timeout=WAIT_MS)
    window.activateWindow()
    ctrl = Qt.KeyboardModifier.ControlModifier
    for key, target in (
        (Qt.Key.Key_K, window.ask_panel.question),
        (Qt.Key.Key_F, window.search_box),
        (Qt.Key.Key_1, window.projects),
        (Qt.Key.Key_2, window.timeline.view),
    ):
        qtbot.keyClick(window, key, ctrl)
        assert QApplication.focusWidget() is target, key


def test_tab_moves_from_the_record_button_through_the_main_areas(window) -> None:  # type: ignore[no-untyped-def]
    order = []
    widget = window.record_bar.button
    for _ in range(200):
        order.append(widget)
        widget = widget.nextInFocusChain()
        if widget is window.record_bar.button:
            break
    focusable = [w for w in order if w.focusPolicy() & Qt.FocusPolicy.TabFocus]
    wanted = [window.record_bar.button, window.record_bar.project, window.search_box, window.projects]
    positions = [focusable.index(w) for w in wanted]
    assert positions == sorted(positions), positions
    assert window.timeline.view in focusable and window.ask_panel.question in focusable
