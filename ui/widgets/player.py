"""Audio playback for one recording: play from a moment, follow the position, a small control bar.

QtMultimedia's player ignores a seek before the media has loaded, so a seek asked for early is
kept and applied once the file is ready: a citation can open a recording and land on its second.
The player (and FFmpeg behind it) is created when the first recording with audio is opened, not
at start-up.

The sound output is attached only when the system has an output device. Without one, Qt's FFmpeg
renderer keeps creating and deleting its audio sink on its own thread; each deletion asks PySide
(holding Qt's lock on the object's connections) for Python's GIL, while the main thread, holding
the GIL in stop(), play() or a seek, waits for that same lock: the window froze, in about one of
twenty quick play-and-stop cycles here (no sound card), and for good once when a test closed the
window after clicking a citation. With no output the player still plays, silently, by its own clock,
so a citation still lands on its second; the output is attached once a device appears.

With a device the same lock order froze the window too (a PulseAudio null sink, as on CI: about one
run of 150 quick play-and-stop cycles in four). So the player's slots that wait for its renderer
(stop, play, pause, a seek, a new source) are not called from Python: they are queued and the event
loop calls them, where PySide does not hold the GIL, and the renderer's thread can take it. A seek
or play asked for before the new source is set waits for it like any seek before loading.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import Q_ARG, QMetaObject, Qt, QUrl, Signal, Slot
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QSlider, QStyle, QWidget

from ui.format import clock

if TYPE_CHECKING:
    from PySide6.QtCore import QGenericArgumentHolder
    from PySide6.QtMultimedia import QAudioOutput, QMediaPlayer

log = logging.getLogger(__name__)


class PlayerBar(QWidget):
    position_changed = Signal(float)  # seconds
    problem_found = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._player: QMediaPlayer | None = None
        self._audio: QAudioOutput | None = None
        self.path: Path | None = None
        self._pending_seek_ms: int | None = None
        self._play_when_ready = False
        self._source_pending = False  # a new source is queued and not set yet
        self._dragging = False
        self.play_button = QPushButton()
        self.play_button.setAccessibleName("Play")
        self.play_button.setToolTip("Play or pause (Ctrl+Space)")
        self.play_button.setIcon(self.style().standardIcon(QStyle.StandardPixmap.SP_MediaPlay))
        self.play_button.clicked.connect(self.toggle)
        self.slider = QSlider(Qt.Orientation.Horizontal)
        self.slider.setAccessibleName("Playback position")
        self.slider.setRange(0, 0)
        self.slider.sliderPressed.connect(lambda: setattr(self, "_dragging", True))
        self.slider.sliderReleased.connect(self.on_slider_released)
        self.slider.actionTriggered.connect(self.on_slider_action)
        self.slider.setSingleStep(5000)
        self.slider.setPageStep(30000)
        self.time_label = QLabel("0:00 / 0:00")
        self.time_label.setAccessibleName("Playback time")
        self.time_label.setMinimumWidth(self.time_label.fontMetrics().horizontalAdvance("0:00:00 / 0:00:00"))
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.play_button)
        layout.addWidget(self.slider, 1)
        layout.addWidget(self.time_label)
        self.setEnabled(False)

    @property
    def player(self) -> QMediaPlayer:
        if self._player is None:
            from PySide6.QtMultimedia import QMediaPlayer

            self._player = QMediaPlayer(self)
            self._player.positionChanged.connect(self.on_player_position_changed)
            self._player.durationChanged.connect(self.on_player_duration_changed)
            self._player.mediaStatusChanged.connect(self.on_player_media_status_changed)
            self._player.playbackStateChanged.connect(self.on_player_playback_state_changed)
            self._player.errorOccurred.connect(self.on_player_error)
        return self._player

    def _attach_sound_output(self) -> None:
        """The sound output, once the system has a device to play to (see the module's note)."""
        from PySide6.QtMultimedia import QAudioOutput, QMediaDevices

        if self._audio is not None or not QMediaDevices.audioOutputs():
            return
        self._audio = QAudioOutput(self)
        self.player.setAudioOutput(self._audio)

    # --- loading and seeking ---------------------------------------------------------------------
    def load(self, path: Path | None) -> None:
        self._pending_seek_ms = None
        self._play_when_ready = False
        self.path = path
        self.setEnabled(path is not None)
        if path is not None or self._player is not None:
            self._attach_sound_output()
            self._source_pending = True
            self._later("stop")
            url = QUrl.fromLocalFile(str(path)) if path is not None else QUrl()
            self._later("setSource", Q_ARG(QUrl, url))
            QMetaObject.invokeMethod(self, "_on_source_set", Qt.ConnectionType.QueuedConnection)
        self.slider.setValue(0)
        self._show_time(0)

    def play_from(self, seconds: float, *, play: bool = True) -> None:
        """Go to `seconds` (and play); works before the media has finished loading."""
        if self.path is None:
            return
        ms = max(0, int(seconds * 1000))
        if self._ready():
            self._later("setPosition", Q_ARG("qint64", ms))
            self._pending_seek_ms = None
        else:
            self._pending_seek_ms = ms
        self._show_time(ms)
        self.slider.setValue(ms)
        if play:
            self._play_when_ready = not self._ready()
            if self._ready():
                self._later("play")

    def position_seconds(self) -> float:
        if self._pending_seek_ms is not None:
            return self._pending_seek_ms / 1000
        return self._player.position() / 1000 if self._player is not None else 0.0

    def toggle(self) -> None:
        if self.path is None:
            return
        self._later("pause" if self.playing() else "play")

    def playing(self) -> bool:
        return self._player is not None and self._player.isPlaying()

    def stop(self) -> None:
        if self._player is not None:
            self._later("stop")

    def _later(self, slot: str, *args: QGenericArgumentHolder) -> None:
        """Call a slot of the player from the event loop, not from Python (see the module's note)."""
        QMetaObject.invokeMethod(self.player, slot, Qt.ConnectionType.QueuedConnection, *args)

    @Slot()
    def _on_source_set(self) -> None:
        self._source_pending = False
        self._apply_pending()

    def _ready(self) -> bool:
        from PySide6.QtMultimedia import QMediaPlayer

        if self._source_pending:
            return False
        return self.player.mediaStatus() in (
            QMediaPlayer.MediaStatus.LoadedMedia,
            QMediaPlayer.MediaStatus.BufferedMedia,
            QMediaPlayer.MediaStatus.BufferingMedia,
            QMediaPlayer.MediaStatus.EndOfMedia,
        )

    # --- player signals ---------------------------------------------------------------------------
    def on_player_media_status_changed(self, status: QMediaPlayer.MediaStatus) -> None:
        from PySide6.QtMultimedia import QMediaPlayer

        if self._source_pending:
            return  # the old source's news
        if status == QMediaPlayer.MediaStatus.InvalidMedia:
            self.problem_found.emit("This recording's audio cannot be played.")
            return
        self._apply_pending()

    def _apply_pending(self) -> None:
        """The seek (and play) asked for before the media was ready, once it is."""
        if self._ready() and self._pending_seek_ms is not None:
            self._later("setPosition", Q_ARG("qint64", self._pending_seek_ms))
            self._pending_seek_ms = None
            if self._play_when_ready:
                self._play_when_ready = False
                self._later("play")

    def on_player_position_changed(self, ms: int) -> None:
        if self._pending_seek_ms is not None:
            return
        if not self._dragging:
            self.slider.setValue(ms)
        self._show_time(ms)
        self.position_changed.emit(ms / 1000)

    def on_player_duration_changed(self, ms: int) -> None:
        self.slider.setRange(0, max(0, ms))
        self._show_time(self.player.position())

    def on_player_playback_state_changed(self, state: QMediaPlayer.PlaybackState) -> None:
        from PySide6.QtMultimedia import QMediaPlayer

        playing = state == QMediaPlayer.PlaybackState.PlayingState
        icon = QStyle.StandardPixmap.SP_MediaPause if playing else QStyle.StandardPixmap.SP_MediaPlay
        self.play_button.setIcon(self.style().standardIcon(icon))
        self.play_button.setAccessibleName("Pause" if playing else "Play")

    def on_player_error(self, _error: QMediaPlayer.Error, message: str) -> None:
        log.warning("playback error: %s", message)
        self.problem_found.emit(f"Playback failed: {message}")

    def on_slider_action(self, action: int) -> None:
        if action != QSlider.SliderAction.SliderMove.value and not self._dragging:  # keys, page clicks
            self.play_from(self.slider.sliderPosition() / 1000, play=self.playing())

    def on_slider_released(self) -> None:
        self._dragging = False
        self.play_from(self.slider.value() / 1000, play=self.playing())

    def _show_time(self, ms: int) -> None:
        total = self._player.duration() if self._player is not None else 0
        self.time_label.setText(f"{clock(ms / 1000)} / {clock(total / 1000 if total > 0 else 0)}")
