"""A server's process tree on Windows: a job object that ends with the bridge.

POSIX has process groups: the ladder signals the whole group, so ``node`` started by ``npx``
stops with it. Windows has no such thing, and ``TerminateProcess`` ends the direct child only.
Each server is put in a job object with *kill on close*: ``TerminateJobObject`` ends every
process in it, and if the bridge itself dies, Windows closes the handle and ends them all, so no
server outlives its bridge. The graceful step of the ladder is ``CTRL_BREAK_EVENT`` to the
server's own process group (it is started with ``CREATE_NEW_PROCESS_GROUP``).

Windows only; untested here (no Windows machine): checked by ``mypy --platform win32``.
"""

from __future__ import annotations

import sys

assert sys.platform == "win32"

import ctypes  # noqa: E402
import subprocess  # noqa: E402
from ctypes import wintypes  # noqa: E402

_JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE = 0x2000
_JOB_OBJECT_EXTENDED_LIMIT_INFORMATION = 9
_JOB_OBJECT_BASIC_ACCOUNTING_INFORMATION = 1


class _IoCounters(ctypes.Structure):
    _fields_ = [(n, ctypes.c_ulonglong) for n in (
        "ReadOperationCount", "WriteOperationCount", "OtherOperationCount",
        "ReadTransferCount", "WriteTransferCount", "OtherTransferCount",
    )]  # fmt: skip


class _BasicLimits(ctypes.Structure):
    _fields_ = [
        ("PerProcessUserTimeLimit", ctypes.c_longlong),
        ("PerJobUserTimeLimit", ctypes.c_longlong),
        ("LimitFlags", wintypes.DWORD),
        ("MinimumWorkingSetSize", ctypes.c_size_t),
        ("MaximumWorkingSetSize", ctypes.c_size_t),
        ("ActiveProcessLimit", wintypes.DWORD),
        ("Affinity", ctypes.c_size_t),
        ("PriorityClass", wintypes.DWORD),
        ("SchedulingClass", wintypes.DWORD),
    ]


class _ExtendedLimits(ctypes.Structure):
    _fields_ = [
        ("BasicLimitInformation", _BasicLimits),
        ("IoInfo", _IoCounters),
        ("ProcessMemoryLimit", ctypes.c_size_t),
        ("JobMemoryLimit", ctypes.c_size_t),
        ("PeakProcessMemoryUsed", ctypes.c_size_t),
        ("PeakJobMemoryUsed", ctypes.c_size_t),
    ]


class _Accounting(ctypes.Structure):
    _fields_ = [
        ("TotalUserTime", ctypes.c_longlong),
        ("TotalKernelTime", ctypes.c_longlong),
        ("ThisPeriodTotalUserTime", ctypes.c_longlong),
        ("ThisPeriodTotalKernelTime", ctypes.c_longlong),
        ("TotalPageFaultCount", wintypes.DWORD),
        ("TotalProcesses", wintypes.DWORD),
        ("ActiveProcesses", wintypes.DWORD),
        ("TotalTerminatedProcesses", wintypes.DWORD),
    ]


_kernel32 = ctypes.WinDLL("kernel32", use_last_error=True)
_jobs: dict[int, int] = {}
"""The job handle of each server, by process id."""


def contain(proc: subprocess.Popen[bytes]) -> None:
    """Put *proc* (just started) in a job that ends with this process; best effort."""
    job = _kernel32.CreateJobObjectW(None, None)
    if not job:
        return
    limits = _ExtendedLimits()
    limits.BasicLimitInformation.LimitFlags = _JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE
    ok = _kernel32.SetInformationJobObject(
        job, _JOB_OBJECT_EXTENDED_LIMIT_INFORMATION, ctypes.byref(limits), ctypes.sizeof(limits)
    )
    handle = getattr(proc, "_handle", None)
    if not ok or handle is None or not _kernel32.AssignProcessToJobObject(job, int(handle)):
        _kernel32.CloseHandle(job)
        return
    _jobs[proc.pid] = job


def kill(pid: int) -> bool:
    """End every process of *pid*'s job; False if it has none."""
    job = _jobs.get(pid)
    return job is not None and bool(_kernel32.TerminateJobObject(job, 1))


def alive(pid: int) -> bool:
    """Whether any process of *pid*'s job still runs."""
    job = _jobs.get(pid)
    if job is None:
        return False
    info = _Accounting()
    ok = _kernel32.QueryInformationJobObject(
        job, _JOB_OBJECT_BASIC_ACCOUNTING_INFORMATION, ctypes.byref(info), ctypes.sizeof(info), None
    )
    return bool(ok) and info.ActiveProcesses > 0


def release(pid: int) -> None:
    """Forget *pid*'s job (closing the handle ends what is left in it)."""
    job = _jobs.pop(pid, None)
    if job is not None:
        _kernel32.CloseHandle(job)
