"""The parent's side of the transcription process: start it, talk to it, keep it warm, stop it.

One idle worker (its model loaded) is kept for the next recording, so a batch import loads the
model once; it leaves by itself after WORKER_IDLE_SECONDS without work.
"""

from __future__ import annotations

import atexit
import contextlib
import multiprocessing
import os
import queue
import threading
from collections.abc import Iterator
from typing import Any

from capture.transcriber import WorkerRequest, worker_main

WORKER_IDLE_SECONDS = 30.0  # a worker waits this long for the next recording before it exits


class TranscriptionWorker:
    """One transcription child process, its request and event queues, and its cancel flag."""

    def __init__(self) -> None:
        context = multiprocessing.get_context("spawn")
        self.requests: Any = context.Queue()
        self.queue: Any = context.Queue()
        self.cancel = context.Event()
        self.process = context.Process(
            target=worker_main,
            args=(self.requests, self.queue, self.cancel, os.getpid(), WORKER_IDLE_SECONDS),
            daemon=True,
            name="verbatim-transcriber",
        )
        self.process.start()

    def submit(self, request: WorkerRequest) -> None:
        self.cancel.clear()
        self.requests.put(request)

    def events(self, poll: float = 0.25) -> Iterator[tuple[str, Any]]:
        """Messages from the child; ("idle", None) while it works quietly; ("exited", code) if it dies."""
        while True:
            try:
                yield self.queue.get(timeout=poll)
            except queue.Empty:
                if not self.process.is_alive():
                    try:  # anything the child managed to send before it died
                        while True:
                            yield self.queue.get(timeout=0.2)
                    except queue.Empty:
                        pass
                    yield "exited", self.process.exitcode
                    return
                yield "idle", None

    def stop(self, grace: float = 3.0) -> None:
        self.cancel.set()
        with contextlib.suppress(OSError, ValueError):
            self.requests.put(None)
        self.process.join(grace)
        if self.process.is_alive():
            self.process.kill()
            self.process.join(5)
        for channel in (self.requests, self.queue):
            channel.close()
            channel.cancel_join_thread()


_idle: list[
    TranscriptionWorker
] = []  # at most one: a worker whose model is loaded, waiting for the next file
_pool_lock = threading.Lock()


def take_worker() -> TranscriptionWorker:
    """The idle worker if it is still alive (its model is loaded), else a new one."""
    with _pool_lock:
        worker = _idle.pop() if _idle else None
    if worker is not None and worker.process.is_alive():
        return worker
    if worker is not None:
        worker.stop(0)
    return TranscriptionWorker()


def give_back(worker: TranscriptionWorker) -> None:
    with _pool_lock:
        surplus = list(_idle)
        _idle[:] = [worker]
    for other in surplus:
        other.stop()


def shutdown_workers() -> None:
    """Stop idle transcription processes (they also leave by themselves after a while)."""
    with _pool_lock:
        workers = list(_idle)
        _idle.clear()
    for worker in workers:
        worker.stop()


atexit.register(shutdown_workers)
