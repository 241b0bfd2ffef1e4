"""The calls to Windows behind :mod:`roots_manager.platform.windows.folder_acl`: the user's SID, a folder's DACL.

Standard library only (``ctypes`` over advapi32 and kernel32); what Windows allocates for an
answer is handed back with ``LocalFree``. The module satisfies :class:`acl.AclSystem`.

Windows only; untested here (no Windows machine): checked by ``mypy --platform win32``.
"""

from __future__ import annotations

import sys

assert sys.platform == "win32"

import ctypes  # noqa: E402
from ctypes import wintypes  # noqa: E402
from pathlib import Path  # noqa: E402

_TOKEN_QUERY = 0x0008
_TOKEN_USER = 1  # the TOKEN_INFORMATION_CLASS of the token's user
_SDDL_REVISION_1 = 1
_SE_FILE_OBJECT = 1
_DACL_SECURITY_INFORMATION = 0x00000004
_PROTECTED_DACL_SECURITY_INFORMATION = 0x80000000
_ERROR_INSUFFICIENT_BUFFER = 122

_advapi32 = ctypes.WinDLL("advapi32", use_last_error=True)
_kernel32 = ctypes.WinDLL("kernel32", use_last_error=True)

_kernel32.GetCurrentProcess.restype = wintypes.HANDLE
_kernel32.GetCurrentProcess.argtypes = []
_kernel32.CloseHandle.argtypes = [wintypes.HANDLE]
_kernel32.LocalFree.restype = wintypes.HLOCAL
_kernel32.LocalFree.argtypes = [wintypes.HLOCAL]
_advapi32.OpenProcessToken.argtypes = [
    wintypes.HANDLE,
    wintypes.DWORD,
    ctypes.POINTER(wintypes.HANDLE),
]
_advapi32.GetTokenInformation.argtypes = [
    wintypes.HANDLE, ctypes.c_int, ctypes.c_void_p, wintypes.DWORD, ctypes.POINTER(wintypes.DWORD)
]  # fmt: skip
_advapi32.ConvertSidToStringSidW.argtypes = [ctypes.c_void_p, ctypes.POINTER(wintypes.LPWSTR)]
_advapi32.ConvertStringSecurityDescriptorToSecurityDescriptorW.argtypes = [
    wintypes.LPCWSTR, wintypes.DWORD, ctypes.POINTER(ctypes.c_void_p), ctypes.POINTER(wintypes.ULONG)
]  # fmt: skip
_advapi32.ConvertSecurityDescriptorToStringSecurityDescriptorW.argtypes = [
    ctypes.c_void_p, wintypes.DWORD, wintypes.DWORD, ctypes.POINTER(wintypes.LPWSTR),
    ctypes.POINTER(wintypes.ULONG),
]  # fmt: skip
_advapi32.GetSecurityDescriptorDacl.argtypes = [
    ctypes.c_void_p, ctypes.POINTER(wintypes.BOOL), ctypes.POINTER(ctypes.c_void_p),
    ctypes.POINTER(wintypes.BOOL),
]  # fmt: skip
_advapi32.GetNamedSecurityInfoW.restype = wintypes.DWORD
_advapi32.GetNamedSecurityInfoW.argtypes = [
    wintypes.LPCWSTR, ctypes.c_int, wintypes.DWORD, ctypes.c_void_p, ctypes.c_void_p,
    ctypes.c_void_p, ctypes.c_void_p, ctypes.POINTER(ctypes.c_void_p),
]  # fmt: skip
_advapi32.SetNamedSecurityInfoW.restype = wintypes.DWORD
_advapi32.SetNamedSecurityInfoW.argtypes = [
    wintypes.LPWSTR, ctypes.c_int, wintypes.DWORD, ctypes.c_void_p, ctypes.c_void_p,
    ctypes.c_void_p, ctypes.c_void_p,
]  # fmt: skip


class _SidAndAttributes(ctypes.Structure):
    _fields_ = [("Sid", ctypes.c_void_p), ("Attributes", wintypes.DWORD)]


def _failed(call: str, code: int | None = None) -> OSError:
    code = ctypes.get_last_error() if code is None else code
    return OSError(code, f"{call} failed: {ctypes.FormatError(code).strip()}")


def current_user_sid() -> str:
    """The string SID of the user this process runs as (its token's user)."""
    token = wintypes.HANDLE()
    if not _advapi32.OpenProcessToken(
        _kernel32.GetCurrentProcess(), _TOKEN_QUERY, ctypes.byref(token)
    ):
        raise _failed("OpenProcessToken")
    try:
        size = wintypes.DWORD()
        _advapi32.GetTokenInformation(token, _TOKEN_USER, None, 0, ctypes.byref(size))
        if ctypes.get_last_error() != _ERROR_INSUFFICIENT_BUFFER:
            raise _failed("GetTokenInformation")
        buffer = ctypes.create_string_buffer(size.value)
        if not _advapi32.GetTokenInformation(token, _TOKEN_USER, buffer, size, ctypes.byref(size)):
            raise _failed("GetTokenInformation")
        user = _SidAndAttributes.from_buffer(buffer)  # TOKEN_USER holds one SID_AND_ATTRIBUTES
        text = wintypes.LPWSTR()
        if not _advapi32.ConvertSidToStringSidW(user.Sid, ctypes.byref(text)):
            raise _failed("ConvertSidToStringSidW")
        try:
            return str(text.value)
        finally:
            _kernel32.LocalFree(ctypes.cast(text, wintypes.HLOCAL))
    finally:
        _kernel32.CloseHandle(token)


def _descriptor(sddl: str) -> ctypes.c_void_p:
    """A security descriptor from *sddl*; the caller hands it to ``LocalFree``."""
    sd = ctypes.c_void_p()
    if not _advapi32.ConvertStringSecurityDescriptorToSecurityDescriptorW(
        sddl, _SDDL_REVISION_1, ctypes.byref(sd), None
    ):
        raise _failed("ConvertStringSecurityDescriptorToSecurityDescriptorW")
    return sd


def _dacl_text(sd: ctypes.c_void_p) -> str:
    text = wintypes.LPWSTR()
    if not _advapi32.ConvertSecurityDescriptorToStringSecurityDescriptorW(
        sd, _SDDL_REVISION_1, _DACL_SECURITY_INFORMATION, ctypes.byref(text), None
    ):
        raise _failed("ConvertSecurityDescriptorToStringSecurityDescriptorW")
    try:
        return str(text.value)
    finally:
        _kernel32.LocalFree(ctypes.cast(text, wintypes.HLOCAL))


def canonical(sddl: str) -> str:
    """*sddl* as Windows writes it back, to compare with what a folder has."""
    sd = _descriptor(sddl)
    try:
        return _dacl_text(sd)
    finally:
        _kernel32.LocalFree(ctypes.cast(sd, wintypes.HLOCAL))


def read_dacl(path: Path) -> str:
    """The DACL of *path*, in SDDL."""
    sd = ctypes.c_void_p()
    code = _advapi32.GetNamedSecurityInfoW(
        str(path), _SE_FILE_OBJECT, _DACL_SECURITY_INFORMATION, None, None, None, None, ctypes.byref(sd)
    )  # fmt: skip
    if code:
        raise _failed("GetNamedSecurityInfoW", code)
    try:
        return _dacl_text(sd)
    finally:
        _kernel32.LocalFree(ctypes.cast(sd, wintypes.HLOCAL))


def set_protected_dacl(path: Path, sddl: str) -> None:
    """Give *path* the protected DACL *sddl*.

    ``SetNamedSecurityInfoW`` rather than ``SetFileSecurityW``: it also passes the inheritable
    entries on to the files and folders already inside (an older, unprotected folder's).
    """
    sd = _descriptor(sddl)
    try:
        present, defaulted, dacl = wintypes.BOOL(), wintypes.BOOL(), ctypes.c_void_p()
        if not _advapi32.GetSecurityDescriptorDacl(
            sd, ctypes.byref(present), ctypes.byref(dacl), ctypes.byref(defaulted)
        ):
            raise _failed("GetSecurityDescriptorDacl")
        code = _advapi32.SetNamedSecurityInfoW(
            str(path),
            _SE_FILE_OBJECT,
            _DACL_SECURITY_INFORMATION | _PROTECTED_DACL_SECURITY_INFORMATION,
            None,
            None,
            dacl,
            None,
        )
        if code:
            raise _failed("SetNamedSecurityInfoW", code)
    finally:
        _kernel32.LocalFree(ctypes.cast(sd, wintypes.HLOCAL))
