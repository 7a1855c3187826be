"""The ask panel (Ctrl+K): a question across all projects or the current one, the answer streaming in,
then checked claims with citations that open the recording at the moment they quote.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from app.library import Library
from ui.error_reporting import describe
from ui.operations import Op, Operations, Progress
from ui.theme import colours, heading_font
from ui.widgets.answer_view import AnswerView

ALL = "All projects"
INTRO = (
    "Every sentence of an answer is marked stated (your own words, with a play button) or inferred "
    "(a reading of them: the model's, or a due day or date worked out from them)."
)


class AskPanel(QWidget):
    open_requested = Signal(int, float)
    answered = Signal(dict)  # the answer's JSON, once checked

    def __init__(self, ops: Operations, library: Library, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ops = ops
        self.library = library
        self.current_project: str | None = None
        self.op: Op | None = None
        self.last_answer: dict[str, Any] | None = None
        self.include_archived = False  # the sidebar's "Show archived": archived projects are read too
        self._pieces: list[str] = []
        heading = QLabel("Ask your notes")
        heading.setFont(heading_font(self.font(), scale=1.2))
        self.question = QLineEdit()
        self.question.setPlaceholderText("Ask across your projects (Ctrl+K)")
        self.question.setAccessibleName("Question")
        self.question.returnPressed.connect(self.ask)
        self.scope = QComboBox()
        self.scope.setAccessibleName("Where to look")
        self.scope.addItem(ALL)
        self.ask_button = QPushButton("Ask")
        self.ask_button.setAccessibleName("Ask")
        self.ask_button.clicked.connect(self.ask)
        self.stop_button = QPushButton("Stop")
        self.stop_button.setAccessibleName("Stop answering")
        self.stop_button.clicked.connect(self.stop)
        self.stop_button.hide()
        self.status = QLabel(INTRO)
        self.status.setWordWrap(True)
        self.status.setAccessibleName("Answer status")
        self.status.setStyleSheet(f"color: {colours().muted};")
        self.answer = AnswerView()
        self.answer.open_requested.connect(self.open_requested.emit)
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        scroll.setWidget(self.answer)
        scroll.setAccessibleName("Answer")
        scroll.setFrameShape(QScrollArea.Shape.NoFrame)
        row = QHBoxLayout()
        row.addWidget(self.scope, 1)
        row.addWidget(self.ask_button)
        row.addWidget(self.stop_button)
        layout = QVBoxLayout(self)
        layout.addWidget(heading)
        layout.addWidget(self.question)
        layout.addLayout(row)
        layout.addWidget(self.status)
        layout.addWidget(scroll, 1)
        self.setTabOrder(self.question, self.scope)
        self.setTabOrder(self.scope, self.ask_button)
        self.setMinimumWidth(320)

    def reset(self) -> None:
        """Back to an empty panel (a running answer is stopped)."""
        self.stop()
        self.answer.clear()
        self.question.clear()
        self.last_answer = None
        self.status.setText(INTRO)

    def focus_question(self) -> None:
        self.question.setFocus(Qt.FocusReason.ShortcutFocusReason)
        self.question.selectAll()

    def set_current_project(self, project: str | None) -> None:
        """The scope offers "All projects" and the project selected in the sidebar."""
        was_project = self.scope.currentIndex() == 1
        self.current_project = project
        while self.scope.count() > 1:
            self.scope.removeItem(1)
        if project:
            self.scope.addItem(f"Only {project}")
            self.scope.setCurrentIndex(1 if was_project else 0)

    def scope_projects(self) -> list[str] | None:
        return [self.current_project] if self.scope.currentIndex() == 1 and self.current_project else None

    # --- asking ---------------------------------------------------------------------------------
    def ask(self) -> None:
        question = self.question.text().strip()
        if not question or self.op is not None:
            return
        projects = self.scope_projects()
        include_archived = self.include_archived
        self._pieces = []
        self.answer.clear()
        where = f"in {projects[0]}" if projects else "across all projects"
        self.status.setText(f"Looking {where}…")
        self.ask_button.hide()
        self.stop_button.show()

        def run(progress: Progress) -> dict[str, Any]:
            from app.ask import AskRequest, ask

            request = AskRequest(question, projects=projects, include_archived=include_archived)
            answer = ask(self.library, request, on_text=progress.emit, cancelled=progress.cancelled)
            return dict(answer.to_json())

        self.op = self.ops.task(
            run,
            label=f"Answering “{question[:40]}”",
            finished=self.on_answered,
            failed=self.on_failed,
            partial=self.on_text,
        )

    def on_text(self, piece: object) -> None:
        self._pieces.append(str(piece).strip())
        self.status.setText("Writing the answer…")
        self.answer.show_draft("\n".join(self._pieces))

    def on_answered(self, answer: dict[str, Any]) -> None:
        self._done()
        self.last_answer = answer
        self.answer.show_answer(answer)
        stated = sum(1 for c in self.answer.claims if c.kind == "stated")
        inferred = len(self.answer.claims) - stated
        if self.answer.not_found is not None:
            self.status.setText("Not in your notes.")
        else:
            self.status.setText(f"{stated} stated, {inferred} inferred. Click a citation to hear it.")
        self.answered.emit(answer)

    def on_failed(self, exc: BaseException) -> None:
        self._done()
        message = describe(exc)
        self.answer.clear()
        self.status.setText(f"{message.text} {message.fix}".strip())

    def stop(self) -> None:
        if self.op is not None:
            self.op.cancel()
            self.status.setText("Stopping…")

    def _done(self) -> None:
        self.op = None
        self.stop_button.hide()
        self.ask_button.show()
