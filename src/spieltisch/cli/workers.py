"""Several worker processes on one listening socket, kept running.

Each worker is started fresh ('spawn') and gets the listening socket, so the kernel hands
each new connection to one of them. A worker that dies (a crash, kill -9) is replaced; the
others go on meanwhile and take over its tables' timers (see `server.site`). Ctrl-C or
SIGTERM stops every worker gracefully, each letting its leases go.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import time
from collections.abc import Callable
from multiprocessing.process import BaseProcess
from types import FrameType
from typing import Any

__all__ = ["Supervisor"]

YOUNG = 10.0
"""A worker that dies within this many seconds of its start died young."""
PAUSE_MOST = 30.0
"""The longest pause before replacing a worker that keeps dying young."""
STOP_WAIT = 15.0
"""Seconds the workers get to stop by themselves before they are killed."""


class Supervisor:
    def __init__(self, count: int, target: Callable[..., None], args: tuple[Any, ...]) -> None:
        self.count = count
        self.target = target
        self.args = args
        self.context = multiprocessing.get_context("spawn")
        self.workers: list[tuple[BaseProcess, float]] = []
        self.stopping = False
        self.pause = 0.0

    def run(self) -> int:
        signal.signal(signal.SIGTERM, self._stop)
        signal.signal(signal.SIGINT, self._stop)
        self.workers = [self._start() for _ in range(self.count)]
        while not self.stopping:
            self._replace_dead()
            time.sleep(0.2)
        self._stop_all()
        return 0

    def _start(self) -> tuple[BaseProcess, float]:
        args = (os.getpid(), self.target, *self.args)
        process = self.context.Process(target=_run_worker, args=args, daemon=False)
        process.start()
        return process, time.monotonic()

    def _replace_dead(self) -> None:
        for number, (process, started) in enumerate(self.workers):
            if process.is_alive() or self.stopping:
                continue
            young = time.monotonic() - started < YOUNG
            self.pause = min(PAUSE_MOST, max(1.0, 2 * self.pause)) if young else 0.0
            print(
                f"worker {process.pid} stopped (exit code {process.exitcode}); "
                f"starting another in {self.pause:g} s",
                flush=True,
            )
            self._sleep(self.pause)
            if not self.stopping:
                self.workers[number] = self._start()

    def _sleep(self, seconds: float) -> None:
        end = time.monotonic() + seconds
        while not self.stopping and time.monotonic() < end:
            time.sleep(0.1)

    def _stop(self, _signal: int, _frame: FrameType | None) -> None:
        self.stopping = True

    def _stop_all(self) -> None:
        for process, _ in self.workers:
            if process.is_alive() and process.pid is not None:
                process.terminate()  # SIGTERM: uvicorn shuts down gracefully
        end = time.monotonic() + STOP_WAIT
        for process, _ in self.workers:
            process.join(max(0.1, end - time.monotonic()))
            if process.is_alive():
                process.kill()
                process.join(5)


def _run_worker(parent: int, target: Callable[..., None], *args: Any) -> None:
    """A worker in a process group of its own, so that Ctrl-C reaches only the supervisor
    (which stops the workers once, gracefully); it stops by itself if the supervisor dies."""
    from spieltisch.server.work import when_orphaned

    os.setpgrp()
    when_orphaned(parent, lambda: os.kill(os.getpid(), signal.SIGTERM), every=0.5)
    target(*args)
