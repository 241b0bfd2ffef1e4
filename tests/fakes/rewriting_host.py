"""A host that keeps rewriting its ``~/.claude.json`` as Claude Code does: a real process.

Run as ``python rewriting_host.py FILE CONTROL SEED``. Every 0-30 ms it reads FILE, puts one new
prompt at the head of the history of its project (``"prompt N"``, N counting up from 1) and
saves the whole file again, parsed and written out whole as Claude Code does (indented by two
spaces), as a new file renamed into its place.

Like Claude Code it does not look whether the file changed between its read and its rename:
a write made in between is overwritten by its own. That is the host's race, not Roots
Manager's, so it is counted: the host swaps its file in (``renameat2(RENAME_EXCHANGE)``), and
when the file it took away is not the one it read, it has overwritten someone's write
(``clobbers``). It never loses a prompt of its own that way: what it writes holds all it read.

The folder CONTROL steers it: a file ``pause`` there makes it stop between two saves and say so
in ``paused`` (a JSON object: the last prompt saved and the clobbers so far); ``stop`` ends it.
"""

from __future__ import annotations

import json
import os
import random
import sys
import time
from pathlib import Path

from roots_manager.platform.linux.rename_exchange import exchange

PROJECT = "/home/me/work/racing"


def _say(control: Path, name: str, doc: dict[str, int]) -> None:
    tmp = control / f"{name}.tmp"
    tmp.write_text(json.dumps(doc))
    os.replace(tmp, control / name)


def main(path: Path, control: Path, seed: int) -> None:
    rng = random.Random(seed)
    pause, paused, stop = control / "pause", control / "paused", control / "stop"
    saved = clobbers = 0
    while not stop.exists():
        if pause.exists():
            _say(control, "paused", {"saved": saved, "clobbers": clobbers})
            while pause.exists() and not stop.exists():
                time.sleep(0.001)
            paused.unlink(missing_ok=True)
            continue
        time.sleep(rng.uniform(0, 0.03))
        data = path.read_bytes()
        doc = json.loads(data)
        project = doc.setdefault("projects", {}).setdefault(PROJECT, {"history": []})
        project["history"].insert(0, {"display": f"prompt {saved + 1}", "pastedContents": {}})
        tmp = path.with_name(f"{path.name}.tmp.{os.getpid()}.{saved + 1}")
        with open(tmp, "wb") as f:
            f.write(json.dumps(doc, indent=2, ensure_ascii=False).encode("utf-8"))
            f.flush()
            os.fsync(f.fileno())
        if not exchange(str(tmp), str(path)):  # pragma: no cover - a file system that cannot
            os.replace(tmp, path)
        else:
            if tmp.read_bytes() != data:
                clobbers += 1
            tmp.unlink()
        saved += 1


if __name__ == "__main__":
    main(Path(sys.argv[1]), Path(sys.argv[2]), int(sys.argv[3]))
