"""What the operating system said, in the judge's words: an ``errno`` by its name
("ENOENT"), the meaning from the catalog (``fieldjudge.po``), never the system's English
sentence alone (issue 25). Pure: the error's name and number come from the caller."""

from __future__ import annotations

import errno

from fieldjudge.rules.messages import Phrase

#: the errors a serial port, a socket or a file gives on a laptop in the field
OS_ERRORS: dict[str, Phrase] = {
    "ENOENT": Phrase("no such file or device"),
    "ENODEV": Phrase("no such device"),
    "ENXIO": Phrase("the device is gone"),
    "EIO": Phrase("input/output error: the device was unplugged"),
    "EBADF": Phrase("the port was closed"),
    "EISDIR": Phrase("it is a folder, not a file"),
    "EEXIST": Phrase("a file of that name is already there"),
    "ENOTDIR": Phrase("a part of the path is not a folder"),
    "EACCES": Phrase("permission denied"),
    "EPERM": Phrase("operation not permitted"),
    "EBUSY": Phrase("the device is busy"),
    "EADDRINUSE": Phrase("the address is already in use"),
    "EADDRNOTAVAIL": Phrase("the address is not on this computer"),
    "ECONNRESET": Phrase("the connection was reset"),
    "ENOSPC": Phrase("no space left on the disk"),
    "EROFS": Phrase("the disk is read-only"),
    "ETIMEDOUT": Phrase("timed out"),
}


def errno_name(code: int | str | None) -> str:
    """``5`` → ``"EIO"``; a name is kept; none → ``""``."""
    if isinstance(code, int):
        return errno.errorcode.get(code, f"errno {code}")
    return str(code or "")


def os_error_phrase(code: int | str | None) -> Phrase:
    """The error as the judge reads it: its meaning and its name ("the device is gone
    (ENXIO)"); an error not in the table: "system error ENAME"."""
    name = errno_name(code)
    meaning = OS_ERRORS.get(name)
    if meaning is None:
        return Phrase("system error {code}", code=name or "?")
    return Phrase("{why} ({code})", why=meaning, code=name)


def os_error_of(exc: BaseException) -> Phrase:
    """An exception's OS error as :func:`os_error_phrase` names it (its text when it has
    no errno)."""
    code = getattr(exc, "errno", None)
    return os_error_phrase(code) if code else Phrase("{error}", error=str(exc))
