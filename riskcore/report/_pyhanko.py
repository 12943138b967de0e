"""pyHanko's plumbing for :mod:`riskcore.report.sign`: quiet loggers, no event loop, reading,
certificates.

pyHanko logs an untrusted certificate with a traceback (:func:`quiet` silences it), and
its synchronous calls use :func:`asyncio.run`, which refuses to start inside a running
event loop (:func:`loop_running`, :func:`in_thread`).
"""

from __future__ import annotations

import asyncio
import io
import logging
import threading
import zlib
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from datetime import datetime
from typing import Any, TypeVar

from riskcore.errors import RiskcoreError
from riskcore.report.render import ATTACHMENT_NAME

_T = TypeVar("_T")


def loop_running() -> bool:
    """Return whether this thread runs an event loop.

    pyHanko's synchronous calls use :func:`asyncio.run`, which refuses to start inside a
    running loop (a notebook, an async server, Playwright's sync API): the public
    functions then run themselves in a worker thread (:func:`in_thread`).
    """
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return False
    return True


def in_thread(fn: Callable[..., _T], *args: Any, **kwargs: Any) -> _T:
    """Return ``fn(*args, **kwargs)`` computed in a worker thread (no event loop there)."""
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(fn, *args, **kwargs).result()


_QUIET_LOCK = threading.Lock()


@contextmanager
def quiet() -> Iterator[None]:
    """Silence pyHanko's loggers: an untrusted certificate is logged with a traceback.

    The level of the ``pyhanko`` and ``pyhanko_certvalidator`` loggers is raised (their
    children inherit it) and restored after; a lock keeps two sessions from restoring
    each other's level.
    """
    loggers = [logging.getLogger(n) for n in ("pyhanko", "pyhanko_certvalidator")]
    with _QUIET_LOCK:
        before = [lg.level for lg in loggers]
        for lg in loggers:
            lg.setLevel(logging.CRITICAL + 1)
        try:
            yield
        finally:
            for lg, was in zip(loggers, before, strict=True):
                lg.setLevel(was)


def read_pdf(pdf: bytes) -> Any:
    """Return pyHanko's reader of the PDF, or a RiskcoreError when it cannot be read."""
    from pyhanko.pdf_utils.misc import PdfError
    from pyhanko.pdf_utils.reader import PdfFileReader

    if not pdf.startswith(b"%PDF-"):
        raise RiskcoreError("the file is not a PDF")
    try:
        return PdfFileReader(io.BytesIO(pdf), strict=False)
    except (PdfError, ValueError, KeyError, TypeError, IndexError) as exc:
        raise RiskcoreError(f"the PDF cannot be read ({exc})") from None
    except Exception:  # damaged bytes raise anything: zlib.error, an unknown filter's
        # NotImplementedError, AssertionError, RecursionError (pyHanko parses as it goes)
        raise RiskcoreError("the PDF cannot be read (its structure is damaged)") from None


def embedded_twin(reader: Any) -> bytes | None:
    """Return the bytes of the embedded file named ``report.json``, or None.

    None too when the file's stream cannot be read: a damaged stream (a changed byte in its
    compressed data) raises ``zlib.error`` or one of pyHanko's errors while it is decoded.
    """
    from pyhanko.pdf_utils.misc import PdfError

    try:
        names = reader.root["/Names"]["/EmbeddedFiles"]["/Names"]
        items = [names[i] for i in range(len(names))]  # indexing resolves references
        pairs = dict(zip(map(str, items[::2]), items[1::2], strict=True))
        return bytes(pairs[ATTACHMENT_NAME]["/EF"]["/F"].data)
    except (KeyError, TypeError, ValueError, AttributeError, IndexError, PdfError, zlib.error):
        return None
    except (NotImplementedError, AssertionError, RecursionError):  # an unknown filter, ...
        return None


def trust_roots(trust: Sequence[bytes]) -> list[Any]:
    """Return the certificates given as trusted, read; RiskcoreError when one is not X.509."""
    roots = []
    for blob in trust:
        try:
            roots.append(load_certificate(blob))
        except ValueError:
            raise RiskcoreError("a trusted certificate is not PEM or DER X.509") from None
    return roots


def validation_context(roots: list[Any], at: datetime) -> Any:
    """Return pyHanko's validation context: these roots, the chain judged at ``at``."""
    from pyhanko_certvalidator import ValidationContext

    return ValidationContext(trust_roots=roots, allow_fetching=False, moment=at)


def load_certificate(blob: bytes) -> Any:
    """Return an X.509 certificate read from PEM or DER (asn1crypto; ValueError if not one)."""
    from asn1crypto import pem, x509

    if pem.detect(blob):
        _, _, blob = pem.unarmor(blob)
    return x509.Certificate.load(blob)


def zero_padded(sig: Any) -> bool:
    """Return whether the signature value (/Contents) holds nothing but the CMS structure and
    zeros after it: the one part of the file the signature cannot cover, so bytes hidden in
    its padding would otherwise ride along with a valid signature."""
    from asn1crypto.parser import parse

    raw = bytes(sig.pkcs7_content)
    try:
        _, _, _, header, contents, _ = parse(raw)
    except ValueError:
        return False
    return not raw[len(header) + len(contents) :].strip(b"\0")


def anchor_certificate(status: Any) -> Any:
    """Return the certificate of the trust anchor the chain ended at, or None."""
    try:
        return status.validation_path.trust_anchor.certificate
    except (AttributeError, NotImplementedError):  # no path, or an anchor without one
        return None
