#!/usr/bin/env python3
"""asyncio_pool.py: seed 000's WorkerPool in plain asyncio, for the benchmark.

Written here from the seed (the capstone pool that docs/engine-contract.md
translates into GLib) so that bench-pool can compare Sluice with it. Standard library only.

    python3 asyncio_pool.py --items 50000     # throughput, one JSON line
    python3 asyncio_pool.py --check           # the seed's example: 4, 1, 0
    /usr/bin/python3 asyncio_pool.py --uvloop # the same on uvloop (Debian's
                                              # python3-uvloop; exit 3 without it)

The throughput scenario is bench-pool's: an `ok 0` handler
(`await asyncio.sleep(0)`), 64 workers, queue 256, item timeout 10 s,
N items. tests/bench/gopool is the same pool in Go.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import platform
import sys
import time
from collections.abc import AsyncGenerator, AsyncIterator, Awaitable, Callable
from typing import Generic, TypeVar

T = TypeVar("T")
R = TypeVar("R")

MAX_CANCEL_ROUNDS = 3


class Sentinel:
    """The end marker of a queue: never a value a source or handler gives."""


SENTINEL = Sentinel()


class _Item(Generic[T]):
    """Wraps every input and result, so None or a Sentinel stays a value."""

    __slots__ = ("value",)

    def __init__(self, value: T) -> None:
        self.value = value


class WorkerPool(Generic[T, R]):
    def __init__(
        self,
        handle: Callable[[T], Awaitable[R]],
        *,
        workers: int,
        queue_size: int,
        item_timeout: float,
        retryable: tuple[type[Exception], ...] = (),
        max_retries: int = 0,
        metrics: Callable[[str, str], None] | None = None,
    ) -> None:
        if not isinstance(workers, int) or workers <= 0:
            raise ValueError(f"workers must be positive, got {workers!r}")
        if not isinstance(queue_size, int) or queue_size <= 0:
            raise ValueError(f"queue_size must be positive, got {queue_size!r}")
        if (not isinstance(item_timeout, (int, float)) or not math.isfinite(item_timeout)
                or item_timeout <= 0):
            raise ValueError(f"item_timeout must be finite and positive, got {item_timeout!r}")
        if not isinstance(max_retries, int) or max_retries < 0:
            raise ValueError(f"max_retries must be zero or more, got {max_retries!r}")
        self._handle = handle
        self._workers = workers
        self._queue_size = queue_size
        self._timeout = float(item_timeout)
        self._retryable = tuple(retryable)
        self._max_retries = max_retries
        self._metrics = metrics
        self._used = False
        self._stopping = False
        self._errors: list[Exception] = []
        self._producer: asyncio.Task[None] | None = None
        self._producer_wakeable = False
        self._producer_woken = False

    # -- stop ----------------------------------------------------------

    def request_stop(self) -> None:
        self._stopping = True
        # Wake the producer if it waits on the source or on a full queue.
        if self._producer is not None and self._producer_wakeable and not self._producer_woken:
            self._producer_woken = True
            self._producer.cancel()

    def _record(self, exc: Exception) -> None:
        self._errors.append(exc)

    def _metric(self, event: str, subject: object) -> None:
        if self._metrics is None:
            return
        try:
            self._metrics(event, repr(subject))
        except Exception:
            pass

    # -- producer ------------------------------------------------------

    def _woken_by_stop(self) -> bool:
        """A CancelledError that was our own wake-up, not the driver's cancel."""
        task = asyncio.current_task()
        if self._producer_woken and task is not None and task.cancelling() == 1:
            task.uncancel()
            return True
        return False

    async def _produce(self, source: AsyncIterator[T], queue: asyncio.Queue[object]) -> None:
        while not self._stopping:
            self._producer_wakeable = True
            try:
                value = await source.__anext__()
            except StopAsyncIteration:
                return
            except asyncio.CancelledError:
                if self._woken_by_stop():
                    return
                task = asyncio.current_task()
                if task is not None and task.cancelling() > 0:
                    raise  # the driver is being cancelled
                if not self._stopping:
                    self._record(RuntimeError("source cancelled itself"))
                    self.request_stop()
                return
            except Exception as exc:
                self._record(exc)
                self.request_stop()
                return
            finally:
                self._producer_wakeable = False
            if self._stopping:
                return  # pulled after the stop: never handled
            self._producer_wakeable = True
            try:
                await queue.put(_Item(value))
            except asyncio.CancelledError:
                if self._woken_by_stop():
                    return
                raise
            finally:
                self._producer_wakeable = False

    # -- attempts ------------------------------------------------------

    async def _stop_attempt(self, task: asyncio.Task[R]) -> bool:
        """Cancel and wait, three rounds, then wait however long it takes.
        Returns whether the caller cancelled us meanwhile."""
        interrupted = False
        rounds = 0
        while not task.done():
            if rounds < MAX_CANCEL_ROUNDS:
                rounds += 1
                task.cancel()
                timeout: float | None = self._timeout
            else:
                timeout = None
            try:
                await asyncio.wait((task,), timeout=timeout)
            except asyncio.CancelledError:
                interrupted = True
        return interrupted

    async def _attempt(self, value: T) -> R:
        # A new task per attempt: its own copy of the context.
        task = asyncio.get_running_loop().create_task(self._handle(value))  # type: ignore[arg-type]
        timed_out = False
        try:
            done, _ = await asyncio.wait((task,), timeout=self._timeout)
        except asyncio.CancelledError:
            await self._stop_attempt(task)
            if not task.cancelled():
                task.exception()
            raise
        if not done:
            timed_out = True
            interrupted = await self._stop_attempt(task)
            if not task.cancelled():
                task.exception()  # retrieved, so asyncio logs nothing
            if interrupted:
                raise asyncio.CancelledError()
        if timed_out:
            raise TimeoutError("item timed out")
        if task.cancelled():
            raise RuntimeError("handler cancelled itself")
        exc = task.exception()
        if exc is not None:
            raise exc
        return task.result()

    async def _handle_item(self, value: T, results: asyncio.Queue[object]) -> None:
        attempts = 0
        while True:
            attempts += 1
            try:
                result = await self._attempt(value)
            except Exception as exc:
                if isinstance(exc, self._retryable) and attempts <= self._max_retries:
                    self._metric("retry", exc)
                    continue
                self._metric("failure", exc)
                self._record(exc)
                self.request_stop()
                return
            self._metric("ok", value)
            results.put_nowait(_Item(result))
            return

    async def _consume(self, queue: asyncio.Queue[object], results: asyncio.Queue[object]) -> None:
        while True:
            item = await queue.get()
            if item is SENTINEL:
                return
            assert isinstance(item, _Item)
            await self._handle_item(item.value, results)

    # -- driver and run ------------------------------------------------

    async def _drive(self, source: AsyncIterator[T], results: asyncio.Queue[object]) -> None:
        queue: asyncio.Queue[object] = asyncio.Queue(maxsize=self._queue_size)
        try:
            async with asyncio.TaskGroup() as group:
                for _ in range(self._workers):
                    group.create_task(self._consume(queue, results))
                self._producer = group.create_task(self._produce(source, queue))
                await asyncio.wait((self._producer,))
                for _ in range(self._workers):
                    await queue.put(SENTINEL)
        finally:
            results.put_nowait(SENTINEL)

    async def run(self, source: AsyncIterator[T]) -> AsyncGenerator[R, None]:
        if self._used:
            raise RuntimeError("pool is single-use")
        self._used = True
        if self._stopping:
            return
        results: asyncio.Queue[object] = asyncio.Queue()
        driver = asyncio.get_running_loop().create_task(self._drive(source, results))
        try:
            while True:
                item = await results.get()
                if item is SENTINEL:
                    break
                assert isinstance(item, _Item)
                yield item.value
        except BaseException:
            # Cancelled or closed: cancel the driver, wait for every task
            # of the pool (through further cancellations), then re-raise.
            driver.cancel()
            while not driver.done():
                try:
                    await asyncio.wait((driver,))
                except asyncio.CancelledError:
                    pass
            if not driver.cancelled():
                driver.exception()
            raise
        await driver
        if self._errors:
            raise ExceptionGroup("worker pool failed", list(self._errors))


# -- the benchmark scenario -------------------------------------------------


async def numbers(count: int) -> AsyncIterator[int]:
    for n in range(count):
        yield n


async def ok0(item: int) -> int:
    await asyncio.sleep(0)
    return item


def ok_after(delay: float) -> Callable[[int], Awaitable[int]]:
    """`ok DELAY`: the item back after delay seconds."""
    async def handler(item: int) -> int:
        await asyncio.sleep(delay)
        return item
    return handler


async def throughput(items: int, workers: int, queue_size: int, timeout: float,
                     event_loop: str, delay: float = 0.0) -> dict[str, object]:
    pool: WorkerPool[int, int] = WorkerPool(ok_after(delay) if delay > 0 else ok0, workers=workers,
                                            queue_size=queue_size, item_timeout=timeout)
    count = 0
    started = time.perf_counter()
    cpu_started = time.process_time()
    async for _ in pool.run(numbers(items)):
        count += 1
    seconds = time.perf_counter() - started
    cpu = time.process_time() - cpu_started
    assert count == items, (count, items)
    return {
        "implementation": "asyncio",
        "python": platform.python_version(),
        "event_loop": event_loop,
        "items": items,
        "workers": workers,
        "queue_size": queue_size,
        "item_timeout": timeout,
        "seconds": seconds,
        "cpu_seconds": cpu,
        "items_per_s": items / seconds,
        "us_per_item": seconds * 1e6 / items,
    }


async def check() -> None:
    async def slow_square(n: int) -> int:
        await asyncio.sleep(0.1 * (3 - n))
        return n * n

    pool: WorkerPool[int, int] = WorkerPool(slow_square, workers=3, queue_size=3, item_timeout=1.0)
    got = [square async for square in pool.run(numbers(3))]
    assert got == [4, 1, 0], got

    async def hang(n: int) -> int:
        await asyncio.sleep(3600)
        return n

    pool = WorkerPool(hang, workers=2, queue_size=2, item_timeout=0.05)
    try:
        async for _ in pool.run(numbers(2)):
            pass
    except ExceptionGroup as group:
        assert all(isinstance(e, TimeoutError) for e in group.exceptions), group.exceptions
    else:
        raise AssertionError("no ExceptionGroup")
    print("ok")


def use_uvloop() -> str:
    """Installs uvloop's event loop policy; exits 3 when uvloop is missing."""
    try:
        import uvloop  # type: ignore[import-not-found]
    except ImportError as exc:
        print(f"asyncio_pool.py: --uvloop: {exc} ({sys.executable}; Debian: python3-uvloop)",
              file=sys.stderr)
        sys.exit(3)
    asyncio.set_event_loop_policy(uvloop.EventLoopPolicy())
    return f"uvloop {uvloop.__version__}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--items", type=int, default=50_000)
    parser.add_argument("--workers", type=int, default=64)
    parser.add_argument("--queue-size", type=int, default=256)
    parser.add_argument("--timeout", type=float, default=10.0, help="item timeout in seconds")
    parser.add_argument("--delay", type=float, default=0.0,
                        help="the handler's delay in seconds (ok DELAY; 0: ok 0)")
    parser.add_argument("--uvloop", action="store_true",
                        help="run on uvloop's event loop (exit status 3 when it cannot be imported)")
    parser.add_argument("--check", action="store_true", help="run the seed's example and exit")
    args = parser.parse_args()
    event_loop = "asyncio"
    if args.uvloop:
        event_loop = use_uvloop()
    if args.check:
        asyncio.run(check())
        return
    result = asyncio.run(throughput(args.items, args.workers, args.queue_size, args.timeout,
                                    event_loop, args.delay))
    json.dump(result, sys.stdout)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
