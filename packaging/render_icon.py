"""Render the app icon (drawn in code by ui/widgets/icons.py) to a PNG for the desktop entry.

QT_QPA_PLATFORM=offscreen .venv/bin/python packaging/render_icon.py OUT.png [SIZE]
"""

from __future__ import annotations

import sys
from pathlib import Path

from PySide6.QtGui import QGuiApplication

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ui.widgets.icons import app_icon


def main(argv: list[str]) -> int:
    out = Path(argv[0])
    size = int(argv[1]) if len(argv) > 1 else 256
    app = QGuiApplication([sys.argv[0]])
    out.parent.mkdir(parents=True, exist_ok=True)
    saved = app_icon(size).pixmap(size, size).save(str(out), "PNG")
    del app
    return 0 if saved else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
