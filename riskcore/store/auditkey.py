"""The audit log's key: kept outside the database, made on first use, never logged.

The audit chain is HMAC-SHA256 under a 256-bit key (:mod:`riskcore.store.chain`).
The key is, in this order:

1. the ``RISKCORE_AUDIT_KEY`` environment variable: 64 hexadecimal digits;
2. the file named by ``RISKCORE_AUDIT_KEY_FILE``;
3. the file beside the database, ``<database>.key`` (``riskcore.db.key``).

A key file holds the 64 hexadecimal digits (and an optional newline). A writer
makes it the first time a database is opened that holds no keyed entry yet
(a new or an old unkeyed file), with mode 0600, atomically (written aside and
linked into place, so two processes starting at once read the same key). The
key is never made when the database already holds keyed entries (that would
hide a lost key), nor by :func:`riskcore.store.verify.verify_file`, nor when
it comes from the environment. No message holds the key: errors name the file
only. A key file must be a regular file of at most :data:`MAX_KEY_FILE_BYTES`
bytes, so a FIFO or ``/dev/zero`` given as the key file is refused, not read.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import secrets
import stat
from pathlib import Path

from riskcore.errors import RiskcoreError

__all__ = [
    "KEY_ENV",
    "KEY_FILE_ENV",
    "MAX_KEY_FILE_BYTES",
    "AuditKeyError",
    "create_key",
    "key_check",
    "key_source",
    "load_key",
]

#: Environment variable holding the key itself (64 hexadecimal digits).
KEY_ENV = "RISKCORE_AUDIT_KEY"

#: Environment variable naming the key file.
KEY_FILE_ENV = "RISKCORE_AUDIT_KEY_FILE"

#: Largest key file read (the key is 64 digits; anything much larger is not a key file).
MAX_KEY_FILE_BYTES = 1024

_KEY_BYTES = 32


class AuditKeyError(RiskcoreError):
    """The audit key is missing, unreadable or not a key (the message never holds the key)."""


def key_source(db_path: str | Path) -> Path | None:
    """Return the key file of the database at ``db_path``; None when the key is in the environment.

    Parameters
    ----------
    db_path : str or Path
        The database file.

    Returns
    -------
    Path or None
        ``RISKCORE_AUDIT_KEY_FILE``, else ``<db_path>.key``; None when the
        environment variable ``RISKCORE_AUDIT_KEY`` is set.
    """
    if os.environ.get(KEY_ENV):
        return None
    named = os.environ.get(KEY_FILE_ENV)
    if named:
        return Path(named).expanduser()
    db = Path(db_path)
    return db.with_name(db.name + ".key")


def _parse(text: str, where: str) -> bytes:
    digits = text.strip()
    if len(digits) != 2 * _KEY_BYTES or any(c not in "0123456789abcdefABCDEF" for c in digits):
        raise AuditKeyError(
            f"the audit key in {where} is not {2 * _KEY_BYTES} hexadecimal digits; restore it "
            "from its backup (SECURITY.md, 'The audit log')"
        )
    return bytes.fromhex(digits)


def _read_file(path: Path) -> bytes | None:
    """Return the key in ``path``; None when there is no such file."""
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
    try:
        fd = os.open(path, flags)
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise AuditKeyError(
            f"the audit key file {str(path)!r} cannot be read: {exc.strerror}"
        ) from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise AuditKeyError(f"the audit key file {str(path)!r} is not a regular file")
        if info.st_size > MAX_KEY_FILE_BYTES:
            raise AuditKeyError(
                f"the audit key file {str(path)!r} is larger than {MAX_KEY_FILE_BYTES} bytes: "
                "it is not a key file"
            )
        raw = os.read(fd, MAX_KEY_FILE_BYTES + 1)
    except OSError as exc:
        raise AuditKeyError(
            f"the audit key file {str(path)!r} cannot be read: {exc.strerror}"
        ) from None
    finally:
        os.close(fd)
    try:
        text = raw.decode("ascii")
    except UnicodeDecodeError:
        text = "?"
    return _parse(text, repr(str(path)))


def load_key(db_path: str | Path) -> bytes | None:
    """Return the audit key of the database at ``db_path``, None when there is none (yet).

    Reads only: never makes a key.

    Parameters
    ----------
    db_path : str or Path
        The database file (the default key file is beside it).

    Returns
    -------
    bytes or None
        The 32-byte key; None when ``RISKCORE_AUDIT_KEY`` is unset and the key
        file does not exist.

    Raises
    ------
    AuditKeyError
        When the key is not 64 hexadecimal digits, or its file cannot be read,
        is not a regular file or is too large.
    """
    env = os.environ.get(KEY_ENV)
    if env:
        return _parse(env, f"the environment variable {KEY_ENV}")
    path = key_source(db_path)
    assert path is not None  # noqa: S101 (key_source returns None only when KEY_ENV is set)
    return _read_file(path)


def create_key(db_path: str | Path) -> bytes:
    """Return the audit key of the database at ``db_path``, making its key file when there is none.

    The new key (:func:`secrets.token_bytes`, 32 bytes) is written as hexadecimal
    digits to a file of mode 0600 beside the key file and linked into place, so
    that a process racing to make it reads the same key. Only a writer opening
    a database without keyed entries calls this.

    Parameters
    ----------
    db_path : str or Path
        The database file.

    Returns
    -------
    bytes

    Raises
    ------
    AuditKeyError
        When the key cannot be read or the key file cannot be written.
    """
    found = load_key(db_path)
    if found is not None:
        return found
    path = key_source(db_path)
    assert path is not None  # noqa: S101 (load_key found no key only when there is a file to make)
    key = secrets.token_bytes(_KEY_BYTES)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}.tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        try:
            os.write(fd, (key.hex() + "\n").encode("ascii"))
            os.fsync(fd)
        finally:
            os.close(fd)
        try:
            os.link(tmp, path)
        except FileExistsError:  # another process made it first: use theirs
            theirs = _read_file(path)
            if theirs is None:
                raise AuditKeyError(f"the audit key file {str(path)!r} vanished") from None
            return theirs
    except OSError as exc:
        raise AuditKeyError(
            f"the audit key file {str(path)!r} cannot be written: {exc.strerror}"
        ) from None
    finally:
        tmp.unlink(missing_ok=True)
    return key


def key_check(key: bytes) -> str:
    """Return the key's check value: HMAC-SHA256 of a fixed label, 16 hex digits.

    Stored in the database, it tells "this is not the key the log was written
    with" apart from "an entry was changed" without revealing the key.

    Parameters
    ----------
    key : bytes
        The audit key.

    Returns
    -------
    str
    """
    return hmac.new(key, b"riskcore audit key check", hashlib.sha256).hexdigest()[:16]
