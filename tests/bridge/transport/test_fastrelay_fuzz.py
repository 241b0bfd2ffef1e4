"""A fuzz run of the relay's hot path in C against the Python relay, for as long as asked.

Each round builds a random stream from the fragments that exercise the C path's reasons to hand
a line over, random bytes, long lines with patterns at random places, and random cuts between
reads, and asserts that what comes out, and what the handler saw, is what the Python relay alone
makes of it. ``ROOTS_MANAGER_FUZZ_SECONDS`` sets how long (``scripts/sanitize-relay`` runs it for
two minutes with the C code built under AddressSanitizer and UndefinedBehaviorSanitizer); a
plain test run fuzzes for a few seconds. A failing round prints its seed, to replay it.
"""

from __future__ import annotations

import os
import random
import time

from roots_manager.bridge.transport.writer import fastrelay
from tests.bridge.transport import test_fastrelay
from tests.bridge.transport.test_fastrelay import FRAGMENTS, cut_at, same

pytestmark = test_fastrelay.pytestmark  # where the C hot path is built

SECONDS = float(os.environ.get("ROOTS_MANAGER_FUZZ_SECONDS", "3"))
ENDS = (b"\n", b"\r\n")


def stream(rng: random.Random) -> bytes:
    parts = []
    for _ in range(rng.randint(1, 16)):
        kind = rng.random()
        if kind < 0.55:
            body = rng.choice(FRAGMENTS)
        elif kind < 0.8:
            body = bytes(rng.getrandbits(8) for _ in range(rng.randint(0, 80))).replace(b"\n", b"")
        else:
            pad = bytearray(b"p" * rng.choice((100, 5_000, 70_000, 300_000)))
            for _ in range(rng.randint(0, 3)):
                at = rng.randrange(len(pad))
                pad[at : at + 5] = rng.choice((b"roots", b"\\u00", b"\xe6\x97", b"\xff"))
            body = b'{"pad":"' + bytes(pad) + b'"}'
        parts.append(body + rng.choice(ENDS))
    if rng.random() < 0.2:
        parts.append(rng.choice(FRAGMENTS))  # the stream ends inside a line
    return b"".join(parts)


def test_random_streams_come_out_as_the_python_relay_lets_them() -> None:
    assert fastrelay is not None, "the C hot path did not build"
    end = time.monotonic() + SECONDS
    rounds = 0
    while time.monotonic() < end or rounds == 0:
        seed = random.randrange(1 << 32)
        rng = random.Random(seed)
        data = stream(rng)
        cuts = [rng.randint(1, max(1, len(data))) for _ in range(rng.randint(0, 8))]
        guarded = rng.random() < 0.5
        # Where a long line is cut, or whether an open one streams, depends on where the reads
        # fell, which differs from run to run: the limits are set so that every line's fate
        # is fixed by its bytes alone (held whole when guarded; held or relayed, never streamed,
        # when open), and the C path must decide each exactly as the Python relay does.
        longest = max(len(line) for line in data.split(b"\n")) + 2
        threshold = rng.choice((1024, 64 * 1024))
        if not guarded:
            threshold = max(threshold, longest)
        try:
            same(
                cut_at(data, cuts),
                guarded=guarded,
                threshold=threshold,
                max_held=max(rng.choice((1 << 16, 1 << 20)), longest),
                pause=rng.choice((0.0, 0.0005)),
            )
        except AssertionError as exc:
            raise AssertionError(f"round {rounds} (seed {seed}) differs: {exc}") from exc
        rounds += 1
    print(f"{rounds} random streams relayed alike in {SECONDS:.0f} s")
