"""Icons drawn in code (no image files to ship): claim kinds, record, the app and tray icon.

A stated claim and an inferred one differ in shape (a solid square with a quote mark against a
dashed circle with a tilde), not only in colour, and always come with their word beside them.
"""

from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QFont, QIcon, QPainter, QPen, QPixmap

from ui.theme import colours


def _canvas(size: int) -> tuple[QPixmap, QPainter]:
    pixmap = QPixmap(size, size)
    pixmap.fill(Qt.GlobalColor.transparent)
    painter = QPainter(pixmap)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    return pixmap, painter


def _glyph(painter: QPainter, rect: QRectF, text: str, colour: str, scale: float) -> None:
    font = QFont()
    font.setBold(True)
    font.setPixelSize(max(6, int(rect.height() * scale)))
    painter.setFont(font)
    painter.setPen(QColor(colour))
    painter.drawText(rect, Qt.AlignmentFlag.AlignCenter, text)


def stated_pixmap(size: int = 18) -> QPixmap:
    c = colours()
    pixmap, painter = _canvas(size)
    rect = QRectF(1, 1, size - 2, size - 2)
    painter.setPen(Qt.PenStyle.NoPen)
    painter.setBrush(QColor(c.stated_fg))
    painter.drawRoundedRect(rect, 3, 3)
    _glyph(painter, rect.adjusted(0, size * 0.12, 0, 0), "❝", c.stated_bg, 0.8)
    painter.end()
    return pixmap


def inferred_pixmap(size: int = 18) -> QPixmap:
    c = colours()
    pixmap, painter = _canvas(size)
    rect = QRectF(1.5, 1.5, size - 3, size - 3)
    pen = QPen(QColor(c.inferred_fg), 1.6, Qt.PenStyle.DashLine)
    painter.setPen(pen)
    painter.setBrush(Qt.BrushStyle.NoBrush)
    painter.drawEllipse(rect)
    _glyph(painter, rect, "~", c.inferred_fg, 0.75)
    painter.end()
    return pixmap


def record_icon(size: int = 32, *, recording: bool = False) -> QIcon:
    """A red dot to start; a rounded square to stop."""
    c = colours()
    pixmap, painter = _canvas(size)
    painter.setPen(Qt.PenStyle.NoPen)
    painter.setBrush(QColor(c.record))
    if recording:
        inset = size * 0.25
        painter.drawRoundedRect(QRectF(inset, inset, size - 2 * inset, size - 2 * inset), 3, 3)
    else:
        painter.drawEllipse(QPointF(size / 2, size / 2), size * 0.32, size * 0.32)
    painter.end()
    return QIcon(pixmap)


def app_icon(size: int = 64) -> QIcon:
    """A speech bubble with a waveform: the window and tray icon."""
    pixmap, painter = _canvas(size)
    painter.setPen(Qt.PenStyle.NoPen)
    painter.setBrush(QColor("#1f5fbf"))
    painter.drawRoundedRect(
        QRectF(size * 0.06, size * 0.08, size * 0.88, size * 0.7), size * 0.16, size * 0.16
    )
    painter.drawPolygon(
        [
            QPointF(size * 0.25, size * 0.7),
            QPointF(size * 0.45, size * 0.7),
            QPointF(size * 0.22, size * 0.94),
        ]
    )
    painter.setPen(
        QPen(QColor("#ffffff"), max(2.0, size * 0.06), Qt.PenStyle.SolidLine, Qt.PenCapStyle.RoundCap)
    )
    heights = (0.16, 0.32, 0.22, 0.4, 0.18)
    for i, h in enumerate(heights):
        x = size * (0.26 + i * 0.12)
        painter.drawLine(QPointF(x, size * (0.43 - h / 2)), QPointF(x, size * (0.43 + h / 2)))
    painter.end()
    return QIcon(pixmap)
