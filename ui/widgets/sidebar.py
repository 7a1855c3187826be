"""The project list: "All projects", then each project with its note count and last activity.

Create, rename (F2, in place) and archive (reversible; archived notes stay searchable). Tens of
projects, so a list widget is enough; the timeline is where the thousands are.
"""

from __future__ import annotations

from datetime import date

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, QPoint, QRect, QSize, Qt, Signal
from PySide6.QtGui import QAction, QColor, QFont, QKeySequence, QPainter
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QHBoxLayout,
    QListWidget,
    QListWidgetItem,
    QMenu,
    QPushButton,
    QStyle,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QVBoxLayout,
    QWidget,
)

from app import project_service
from app.library import Library
from app.project_service import Project
from ui.format import last_activity, notes_count
from ui.operations import Change, Operations
from ui.theme import colours

ALL_PROJECTS = "All projects"
NAME_ROLE = Qt.ItemDataRole.UserRole  # the project's name; None for "All projects"
META_ROLE = Qt.ItemDataRole.UserRole + 1  # "12 notes · yesterday"
ARCHIVED_ROLE = Qt.ItemDataRole.UserRole + 2
NEW_ITEM_ROLE = Qt.ItemDataRole.UserRole + 3  # a row being typed in, not yet a project

Index = QModelIndex | QPersistentModelIndex


class _ProjectDelegate(QStyledItemDelegate):
    """Name on the first line, count and last activity underneath in a quieter colour."""

    def sizeHint(self, option: QStyleOptionViewItem, index: Index) -> QSize:
        lines = 2 if index.data(META_ROLE) else 1
        return QSize(option.rect.width(), option.fontMetrics.height() * lines + 14)

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: Index) -> None:
        self.initStyleOption(option, index)
        text, meta = option.text, index.data(META_ROLE)
        option.text = ""
        style = option.widget.style() if option.widget else None
        if style is not None:
            style.drawControl(QStyle.ControlElement.CE_ItemViewItem, option, painter, option.widget)
        selected = bool(option.state & QStyle.StateFlag.State_Selected)
        c = colours()
        painter.save()
        rect = option.rect.adjusted(10, 6, -8, -6)
        name_font = QFont(option.font)
        name_font.setBold(index.data(NAME_ROLE) is None or selected)
        painter.setFont(name_font)
        painter.setPen(
            option.palette.highlightedText().color() if selected else option.palette.text().color()
        )
        line = option.fontMetrics.height()
        name_rect = QRect(rect.left(), rect.top(), rect.width(), line)
        painter.drawText(
            name_rect,
            Qt.AlignmentFlag.AlignLeft,
            painter.fontMetrics().elidedText(text, Qt.TextElideMode.ElideRight, rect.width()),
        )
        if meta:
            painter.setFont(option.font)
            painter.setPen(option.palette.highlightedText().color() if selected else _muted(c.muted))
            meta_rect = QRect(rect.left(), rect.top() + line + 2, rect.width(), line)
            painter.drawText(
                meta_rect,
                Qt.AlignmentFlag.AlignLeft,
                painter.fontMetrics().elidedText(meta, Qt.TextElideMode.ElideRight, rect.width()),
            )
        painter.restore()


def _muted(value: str) -> QColor:
    return QColor(value)


class ProjectSidebar(QWidget):
    project_selected = Signal(object)  # str | None (None: all projects)
    connections_requested = Signal()  # the "Connections" button (Ctrl+3 does the same)
    commitments_requested = Signal()  # the "Commitments" button (Ctrl+4 does the same)
    trash_requested = Signal()  # the "Trash" button: deleted notes, restorable for 30 days
    projects_loaded = Signal(list)  # list[Project] (active ones), for pickers elsewhere

    def __init__(self, ops: Operations, library: Library, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ops = ops
        self.library = library
        self.projects = QListWidget()
        self.projects.setAccessibleName("Projects")
        self.projects.setAccessibleDescription("Choose a project to see its timeline. F2 renames.")
        self.projects.setItemDelegate(_ProjectDelegate(self.projects))
        # F2 or the context menu renames; a click on the project already selected does not (it
        # started a rename when the user only meant to go back to the project's timeline).
        self.projects.setEditTriggers(QAbstractItemView.EditTrigger.EditKeyPressed)
        self.projects.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.projects.customContextMenuRequested.connect(self.on_projects_context_menu)
        self.projects.currentItemChanged.connect(self.on_projects_current_changed)
        self.projects.itemChanged.connect(self.on_projects_item_changed)
        self.projects.itemClicked.connect(self.on_projects_item_clicked)
        self.new_button = QPushButton("New project")
        self.new_button.setAccessibleName("New project")
        self.new_button.setToolTip("Create a project (Ctrl+N)")
        self.new_button.clicked.connect(self.start_new_project)
        self.archive_button = QPushButton("Archive")
        self.archive_button.setAccessibleName("Archive or restore the selected project")
        self.archive_button.clicked.connect(self.on_archive_clicked)
        self.show_archived = QCheckBox("Show archived")
        self.show_archived.setAccessibleName("Show archived projects")
        self.show_archived.toggled.connect(lambda _on: self.refresh())
        self.connections_button = QPushButton("Connections")
        self.connections_button.setAccessibleName("Connections across projects")
        self.connections_button.setToolTip("Connections across projects (Ctrl+3)")
        self.connections_button.clicked.connect(self.connections_requested.emit)
        self.commitments_button = QPushButton("Commitments")
        self.commitments_button.setAccessibleName("Commitments across projects")
        self.commitments_button.setToolTip("Who owes what to whom by when, across projects (Ctrl+4)")
        self.commitments_button.clicked.connect(self.commitments_requested.emit)
        self.trash_button = QPushButton("Trash")
        self.trash_button.setAccessibleName("Trash: deleted notes, restorable for 30 days")
        self.trash_button.setToolTip("Deleted notes, kept 30 days: restore or empty")
        self.trash_button.clicked.connect(self.trash_requested.emit)
        buttons = QHBoxLayout()
        buttons.addWidget(self.new_button)
        buttons.addWidget(self.archive_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.projects, 1)
        layout.addWidget(self.connections_button)
        layout.addWidget(self.commitments_button)
        layout.addWidget(self.trash_button)
        layout.addLayout(buttons)
        layout.addWidget(self.show_archived)
        self._loaded: list[Project] = []
        self._select_after_load: str | None = None
        self._filling = False
        self._announced: str | None = None  # "All projects" is selected at start
        new_action = QAction("New project", self)
        new_action.setShortcut(QKeySequence.StandardKey.New)
        new_action.triggered.connect(self.start_new_project)
        self.addAction(new_action)
        self._add_all_item()

    def set_new_connections(self, count: int) -> None:
        """The badge: how many connections wait for a verdict."""
        self.connections_button.setText(f"Connections · {count} new" if count else "Connections")
        self.connections_button.setAccessibleName(
            f"Connections across projects, {count} new" if count else "Connections across projects"
        )

    def set_overdue_commitments(self, count: int) -> None:
        """The badge: how many commitments are past their due date and not said to be done."""
        self.commitments_button.setText(f"Commitments · {count} overdue" if count else "Commitments")
        self.commitments_button.setAccessibleName(
            f"Commitments across projects, {count} overdue" if count else "Commitments across projects"
        )

    def set_trash_count(self, count: int) -> None:
        """How many deleted notes wait in the trash."""
        self.trash_button.setText(f"Trash · {count}" if count else "Trash")
        self.trash_button.setAccessibleName(
            f"Trash: {count} deleted note{'s' if count != 1 else ''}, restorable for 30 days"
            if count
            else "Trash: deleted notes, restorable for 30 days"
        )

    # --- loading -----------------------------------------------------------------------------------
    def refresh(self) -> None:
        include = self.show_archived.isChecked()
        self.ops.query(
            lambda: project_service.list_projects(self.library, include_archived=include),
            finished=self.on_list_finished,
            label="list projects",
        )

    def on_list_finished(self, found: list[Project]) -> None:
        if self.projects.state() == QAbstractItemView.State.EditingState:
            return  # never pull a row away from under the user's typing; the next refresh comes
        keep = self._select_after_load or self.current_project()
        self._select_after_load = None
        self._loaded = found
        self._filling = True
        self.projects.clear()
        self._add_all_item(total=sum(p.recordings for p in found))
        today = date.today()
        for project in found:
            item = QListWidgetItem(project.name)
            item.setData(NAME_ROLE, project.name)
            archived = project.archived_at is not None
            meta = f"{notes_count(project.recordings)} · {last_activity(project.last_spoken_at, today)}"
            item.setData(META_ROLE, meta + (" · archived" if archived else ""))
            item.setData(ARCHIVED_ROLE, archived)
            item.setData(Qt.ItemDataRole.AccessibleTextRole, f"{project.name}, {meta}")
            item.setFlags(item.flags() | Qt.ItemFlag.ItemIsEditable)
            self.projects.addItem(item)
        self._select(keep)
        self._filling = False
        self._announce_selection()
        self.projects_loaded.emit([p for p in found if p.archived_at is None])

    def _add_all_item(self, total: int | None = None) -> None:
        item = QListWidgetItem(ALL_PROJECTS)
        item.setData(NAME_ROLE, None)
        if total is not None:
            item.setData(META_ROLE, notes_count(total))
        item.setData(Qt.ItemDataRole.AccessibleTextRole, ALL_PROJECTS)
        self.projects.addItem(item)

    def select_project(self, name: str | None) -> None:
        """Select a project by name (None: all projects), as a click would."""
        self._select(name)

    def _select(self, name: str | None) -> None:
        for row in range(self.projects.count()):
            if self.projects.item(row).data(NAME_ROLE) == name:
                self.projects.setCurrentRow(row)
                return
        self.projects.setCurrentRow(0)

    # --- selection ---------------------------------------------------------------------------------
    def current_project(self) -> str | None:
        item = self.projects.currentItem()
        return None if item is None else item.data(NAME_ROLE)

    def loaded_projects(self) -> list[Project]:
        return list(self._loaded)

    def on_projects_current_changed(self, current: QListWidgetItem | None, _previous: object) -> None:
        if not self._filling:
            self._announce_selection()

    def on_projects_item_clicked(self, item: QListWidgetItem) -> None:
        """A click on the selected project still means "show me its timeline"."""
        if not item.data(NEW_ITEM_ROLE) and item.data(NAME_ROLE) == self._announced:
            self.project_selected.emit(self._announced)

    def _announce_selection(self) -> None:
        """Tell the window when the selected project really changed (not on every reload)."""
        current = self.projects.currentItem()
        if current is None or current.data(NEW_ITEM_ROLE):
            return
        self.archive_button.setEnabled(current.data(NAME_ROLE) is not None)
        self.archive_button.setText("Restore" if current.data(ARCHIVED_ROLE) else "Archive")
        name = current.data(NAME_ROLE)
        if name != self._announced:
            self._announced = name
            self.project_selected.emit(name)

    # --- create, rename, archive ------------------------------------------------------------------
    def start_new_project(self) -> None:
        """Add a row in edit mode; Enter creates the project, Escape drops the row."""
        item = QListWidgetItem("")
        item.setData(NEW_ITEM_ROLE, True)
        item.setFlags(item.flags() | Qt.ItemFlag.ItemIsEditable)
        self._filling = True
        self.projects.addItem(item)
        self._filling = False
        self.projects.setCurrentItem(item)
        self.projects.setFocus()
        self.projects.editItem(item)
        editor = self.projects.indexWidget(self.projects.indexFromItem(item))
        if editor is not None:
            editor.setAccessibleName("New project name")
        self.projects.itemDelegate().closeEditor.connect(self._drop_unnamed_new_row)

    def _drop_unnamed_new_row(self, *_args: object) -> None:
        self.projects.itemDelegate().closeEditor.disconnect(self._drop_unnamed_new_row)
        for row in range(self.projects.count()):
            item = self.projects.item(row)
            if item.data(NEW_ITEM_ROLE) and not item.text().strip():
                self.projects.takeItem(row)
                self._select(None)
                return

    def on_projects_item_changed(self, item: QListWidgetItem) -> None:
        if self._filling:
            return
        text = item.text().strip()
        if item.data(NEW_ITEM_ROLE):
            if text:
                self.create_project(text)
            return
        old = item.data(NAME_ROLE)
        if old is not None and text and text != old:
            self.rename_project(old, text)

    def create_project(self, name: str) -> None:
        def created(project: Project) -> None:
            self._select_after_load = project.name

        self.ops.change(
            lambda: project_service.add_project(self.library, name),
            changes={Change.PROJECTS},
            finished=created,
            failed=self._failed_and_reload,
            label="create project",
        )

    def rename_project(self, old: str, new: str) -> None:
        def renamed(project: Project) -> None:
            self._select_after_load = project.name

        self.ops.change(
            lambda: project_service.rename_project(self.library, old, new),
            changes={Change.PROJECTS, Change.RECORDINGS},
            finished=renamed,
            failed=self._failed_and_reload,
            label="rename project",
        )

    def set_archived(self, name: str, archived: bool) -> None:
        self.ops.change(
            lambda: project_service.archive_project(self.library, name, archived=archived),
            changes={Change.PROJECTS},
            label="archive project",
        )

    def on_archive_clicked(self) -> None:
        item = self.projects.currentItem()
        if item is not None and item.data(NAME_ROLE) is not None:
            self.set_archived(item.data(NAME_ROLE), not item.data(ARCHIVED_ROLE))

    def _failed_and_reload(self, exc: BaseException) -> None:
        self.refresh()
        self.ops.report_error(exc)

    def on_projects_context_menu(self, pos: QPoint) -> None:
        item = self.projects.itemAt(pos)
        menu = QMenu(self)
        menu.addAction("New project", self.start_new_project)
        if item is not None and item.data(NAME_ROLE) is not None:
            menu.addAction("Rename", lambda: self.projects.editItem(item))
            label = "Restore" if item.data(ARCHIVED_ROLE) else "Archive"
            menu.addAction(
                label, lambda: self.set_archived(item.data(NAME_ROLE), not item.data(ARCHIVED_ROLE))
            )
        menu.exec(self.projects.mapToGlobal(pos))
