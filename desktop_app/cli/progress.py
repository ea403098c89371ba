"""Progress bars on stderr, drawn by rich: live on a terminal; elsewhere (a pipe, a log file, the tests) one plain
line per finished bar, so a log keeps what was done without a screenful of redraws."""

from __future__ import annotations

from collections.abc import Callable

_OPEN_BARS: set[ProgressBar] = set()


class ProgressBar:
    """One labelled bar: `update(done, total)` as work proceeds, `close()` when it ends."""

    def __init__(self, label: str, total: int = 0, done: int = 0):
        # rich loads late: `docs` and `chats` draw no bar and should not pay for importing it.
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

        console = Console(stderr=True)  # resolves sys.stderr when it writes: tests (and callers) may swap it
        live = console.is_terminal
        self.label = label
        # On a terminal the finished bar gives way to what the command prints next (the "ready" line, the
        # table); off a terminal rich prints the finished bar once, as a plain line, when it stops.
        self._progress = Progress(
            TextColumn("{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            console=console,
            transient=live,
            auto_refresh=live,
            redirect_stdout=False,  # stdout stays the command's output, untouched by the bar
            redirect_stderr=False,
        )
        self._task = self._progress.add_task(label[:40], total=total, completed=done)
        self._progress.start()
        _OPEN_BARS.add(self)

    def update(self, done: int, total: int, note: str = "") -> None:
        """`note` follows the label ("about 12 min left"); the label alone says which bar this is."""
        description = f"{self.label[:40]}, {note}" if note else self.label[:40]
        self._progress.update(self._task, completed=done, total=total, description=description)

    def close(self) -> None:
        if self in _OPEN_BARS:
            _OPEN_BARS.discard(self)
            self._progress.stop()


def megabytes_bar(label: str) -> Callable[[int, int], None]:
    """A `(done_bytes, total_bytes)` callback, as model preparation takes, showing megabytes; the bar opens on the
    first call and closes when the bytes are all there."""
    bar: ProgressBar | None = None

    def show(done: int, total: int) -> None:
        nonlocal bar
        if bar is None:
            bar = ProgressBar(label)
        bar.update(done // 2**20, total // 2**20)
        if done >= total:
            bar.close()
            bar = None

    return show


def close_open_bars() -> None:
    """End every bar still drawn, so an error message starts on its own line and the terminal gets its cursor back."""
    for bar in list(_OPEN_BARS):
        bar.close()
