"""Where the live log's longest GUI stalls go: one 30k events/s ingest of ``bench_log.py``,
instrumented.

Run: ``python bench/stall_probe.py`` (``--ingest``, ``--rate``, ``--load-procs``, ``--top``
change the run; ``--switch-interval``, ``--feed-step-ms`` and ``--gc on|freeze|off`` try the
hypotheses). For the longest gaps between the heartbeats it prints:

- how the GUI thread spent the gap, from the kernel's ``/proc/self/task/<id>/schedstat``: on a
  CPU, waiting for a CPU (runnable, while other programs had the cores), and the rest, asleep
  or waiting for the interpreter lock;
- the GUI thread's handlers that ran in the gap (the feed's indexing slices, the model's
  flushes, the table's and the timeline's paints, ...), with their wall and CPU times;
- the garbage collector's passes in the gap;
- with ``--sample-ms``, what a sampling thread saw the GUI thread doing (its innermost Python
  frames; the sampler takes the interpreter lock each time, which costs stalls of its own).

Then the handlers' totals over the run. Compare stall figures from ``bench_log.py``, not from
here: the timing wrappers cost a little.
"""

from __future__ import annotations

import argparse
import collections
import functools
import gc
import os
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import bench_log

GAP_MS = 20.0


class Recorder:
    """Spans of named work on the GUI thread, gc passes, heartbeat gaps and stack samples."""

    def __init__(self) -> None:
        self.spans: list[tuple[float, float, float, str]] = []  # start, end, cpu, name
        self.gcs: list[tuple[float, float, int]] = []
        self.gaps: list[tuple[float, float]] = []
        self.samples: list[tuple[float, str]] = []
        self.cpu: list[tuple[float, float]] = []  # perf_counter, process_time
        self.main = threading.get_ident()
        self._gc_start = 0.0
        self._stop = threading.Event()
        self.counts: collections.Counter[str] = collections.Counter()
        self.active = False
        self._sched_path = f"/proc/self/task/{threading.get_native_id()}/schedstat"
        self.last_sched = self.schedstat()
        self.gap_sched: list[tuple[float, ...]] = []
        self.threads: list[tuple[str, float]] = []

    def schedstat(self) -> tuple[float, float, float]:
        """The GUI thread's CPU time, time waiting for a CPU (both in seconds) and thread CPU
        time as Python sees it."""
        with open(self._sched_path) as f:
            run, wait, _ = f.read().split()
        return int(run) / 1e9, int(wait) / 1e9, time.thread_time()

    def wrap(self, cls: type, name: str, label: str | None = None) -> None:
        original = getattr(cls, name)
        label = label or f"{cls.__name__}.{name}"
        spans = self.spans

        @functools.wraps(original)
        def timed(*args: Any, **kwargs: Any) -> Any:
            t0, c0 = time.perf_counter(), time.thread_time()
            try:
                return original(*args, **kwargs)
            finally:
                spans.append((t0, time.perf_counter(), time.thread_time() - c0, label))

        setattr(cls, name, timed)

    def count(self, cls: type, name: str) -> None:
        original = getattr(cls, name)
        counts = self.counts
        label = f"{cls.__name__}.{name}"

        @functools.wraps(original)
        def counted(*args: Any, **kwargs: Any) -> Any:
            counts[label] += 1
            return original(*args, **kwargs)

        setattr(cls, name, counted)

    def on_gc(self, phase: str, info: dict[str, Any]) -> None:
        if threading.get_ident() != self.main:
            return
        if phase == "start":
            self._gc_start = time.perf_counter()
        else:
            self.gcs.append((self._gc_start, time.perf_counter(), int(info["generation"])))

    def sample(self, every: float) -> None:
        frames = sys._current_frames
        main = self.main
        while not self._stop.wait(every):
            now = time.perf_counter()
            self.cpu.append((now, time.process_time()))
            f = frames().get(main)
            names = []
            while f is not None and len(names) < 4:
                names.append(f"{f.f_code.co_name}:{Path(f.f_code.co_filename).stem}")
                f = f.f_back
            self.samples.append((now, " < ".join(names) if names else "<waiting>"))

    def start_sampler(self, every: float) -> None:
        threading.Thread(target=self.sample, args=(every,), daemon=True).start()

    def stop(self) -> None:
        self._stop.set()


def thread_cpu() -> list[tuple[str, float]]:
    """Each thread of this process: its name and the CPU it used so far (seconds)."""
    tick = os.sysconf("SC_CLK_TCK")
    got = []
    for task in sorted(Path("/proc/self/task").iterdir()):
        name = (task / "comm").read_text().strip()
        fields = (task / "stat").read_text().rsplit(")", 1)[1].split()
        got.append((name, (int(fields[11]) + int(fields[12])) / tick))
    return got


def report(rec: Recorder, top: int) -> None:
    gaps = sorted(rec.gaps, key=lambda g: g[0] - g[1])[:top]
    print(f"{len(rec.gaps)} gaps over {GAP_MS:.0f} ms; the {len(gaps)} longest:")
    sched = dict(zip(rec.gaps, rec.gap_sched, strict=True))
    for g0, g1 in sorted(gaps):
        run, queued, _ = sched[(g0, g1)]
        print(
            f"\n== gap {1000 * (g1 - g0):.1f} ms: GUI thread on a CPU {1000 * run:.1f} ms,"
            f" waiting for a CPU {1000 * queued:.1f} ms,"
            f" asleep or waiting for the GIL {1000 * (g1 - g0 - run - queued):.1f} ms"
        )
        cpu = [c for t, c in rec.cpu if g0 <= t <= g1]
        if len(cpu) > 1:
            print(f"   process CPU in the gap: {1000 * (cpu[-1] - cpu[0]):.1f} ms (all threads)")
        inside: dict[str, list[float]] = collections.defaultdict(lambda: [0, 0.0, 0.0, 1e9])
        for s0, s1, c, name in rec.spans:
            if s1 >= g0 and s0 <= g1:
                row = inside[name]
                row[0] += 1
                row[1] += s1 - s0
                row[2] += c
                row[3] = min(row[3], s0 - g0)
        for name, (n, wall, c, first) in sorted(inside.items(), key=lambda kv: kv[1][3]):
            print(
                f"   from {1000 * first:7.1f} ms  {name:34} x{n:<4} wall {1000 * wall:6.1f}"
                f"  cpu {1000 * c:6.1f}"
            )
        for s0, s1, gen in rec.gcs:
            if s1 >= g0 and s0 <= g1:
                print(f"   {1000 * (s0 - g0):7.1f} ms  gc gen {gen} {1000 * (s1 - s0):6.1f} ms")
        seen = collections.Counter(s for t, s in rec.samples if g0 <= t <= g1)
        for what, n in seen.most_common(6):
            print(f"   samples {n:4}  {what}")
    total = collections.defaultdict(lambda: [0, 0.0, 0.0, 0.0])
    for s0, s1, c, name in rec.spans:
        row = total[name]
        row[0] += 1
        row[1] += s1 - s0
        row[2] += c
        row[3] = max(row[3], s1 - s0)
    print("\nhandlers over the whole run: calls, wall s, cpu s, longest ms")
    for name, (n, wall, cpu, longest) in sorted(total.items(), key=lambda kv: -kv[1][1]):
        print(f"   {name:34} {n:7} {wall:8.2f} {cpu:8.2f} {1000 * longest:8.1f}")
    gc_total = collections.Counter(g for _, _, g in rec.gcs)
    gc_long = max((b - a for a, b, _ in rec.gcs), default=0.0)
    print(f"gc passes by generation: {dict(gc_total)}, longest {1000 * gc_long:.1f} ms")
    for name, n in rec.counts.most_common():
        print(f"   calls {name:34} {n}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--ingest", type=int, default=300_000)
    ap.add_argument("--runs", type=int, default=4)
    ap.add_argument("--rate", type=float, default=bench_log.PACED_RATE)
    ap.add_argument("--load-procs", type=int, default=0)
    ap.add_argument("--switch-interval", type=float, default=0.0, help="sys.setswitchinterval")
    ap.add_argument("--top", type=int, default=5)
    ap.add_argument("--sample-ms", type=float, default=0.0, help="stack samples (0: none)")
    ap.add_argument("--feed-step-ms", type=int, default=0, help="LogFeed.STEP_MS")
    ap.add_argument("--gc", choices=("on", "freeze", "off"), default="on")
    ap.add_argument("home", nargs="?", default="")
    a = ap.parse_args()
    if a.switch_interval:
        sys.setswitchinterval(a.switch_interval)

    from roots_manager.gui.common.placeholder_view import PlaceholderTableView
    from roots_manager.gui.log.log_feed import LogFeed
    from roots_manager.gui.log.log_model import LogModel
    from roots_manager.gui.log.log_view import LogPanel
    from roots_manager.gui.log.timeline_view import TimelineView

    if a.feed_step_ms:
        LogFeed.STEP_MS = a.feed_step_ms
    if a.gc == "off":
        gc.disable()
    elif a.gc == "freeze":
        gc.freeze()
    rec = Recorder()
    for cls, name in (
        (LogFeed, "_pump"),
        (LogFeed, "_pump_soon"),
        (LogModel, "_flush"),
        (LogModel, "refresh_soon"),
        (LogModel, "_format"),
        (LogPanel, "_on_indexed"),
        (LogPanel, "_update_status"),
        (LogPanel, "_on_rows_appended"),
        (PlaceholderTableView, "paintEvent"),
        (TimelineView, "refresh"),
        (TimelineView, "paintEvent"),
    ):
        rec.wrap(cls, name)
    rec.count(LogModel, "data")

    def beat(self: Any) -> None:
        now = time.perf_counter()
        gap = now - self.last
        sched = rec.schedstat()
        if rec.active and gap * 1000 > GAP_MS:
            rec.gaps.append((self.last, now))
            rec.gap_sched.append(tuple(b - a for a, b in zip(rec.last_sched, sched, strict=True)))
        rec.last_sched = sched
        self.max_gap = max(self.max_gap, gap)
        self.last = now

    wait = bench_log._wait

    def tracked_wait(app: Any, cond: Any, what: str) -> None:
        rec.active = what == "the ingest"
        try:
            wait(app, cond, what)
        finally:
            rec.active = False
        if what == "the ingest":
            rec.threads = thread_cpu()

    bench_log._wait = tracked_wait

    bench_log._Heartbeat.beat = beat  # type: ignore[method-assign]
    gc.callbacks.append(rec.on_gc)
    busy = [
        subprocess.Popen([sys.executable, bench_log.__file__, "_busy"], start_new_session=True)
        for _ in range(a.load_procs)
    ]
    print(f"load average before: {os.getloadavg()}")
    if a.sample_ms:
        rec.start_sampler(a.sample_ms / 1000)
    try:
        with tempfile.TemporaryDirectory(prefix="rm-stall-") as tmp:
            bench_log.child_ingest(a.home or tmp, a.ingest, a.runs, a.rate)
    finally:
        rec.stop()
        for p in busy:
            p.kill()
            p.wait()
    print(f"load average after: {os.getloadavg()}")
    report(rec, a.top)
    print("CPU per thread of the app, start to the end of the ingest (s):")
    for name, cpu in rec.threads:
        print(f"   {name:24} {cpu:7.2f}")
    print(
        f"switch interval {sys.getswitchinterval() * 1000:.1f} ms, feed step {LogFeed.STEP_MS} ms"
    )


if __name__ == "__main__":
    main()
