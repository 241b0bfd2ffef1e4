"""The clock a bridge run gives its protocol: the system's."""

from __future__ import annotations

import time

from roots_manager.bridge.protocol.clock import Clock

SYSTEM = Clock(monotonic=time.monotonic, wall=time.time, perf=time.perf_counter)
"""The system's clocks, as :class:`~roots_manager.bridge.protocol.clock.Clock` names them."""
