"""A server's TLS certificate, loaded again while the server runs.

A ladder serves for months and its certificate (Let's Encrypt's, say) is renewed every 60 to
90 days; restarting for each renewal would end the games in progress. :class:`ServerTls`
holds the certificate a server presents, and :meth:`ServerTls.reload` reads the files again
into a new context, complete before it is used: a reload that fails (a missing file, a key
that is not the certificate's, a renewal half-written) is one log line and changes nothing.
The server listens with one context whose SNI callback hands each new connection the latest
context; OpenSSL calls it for every client hello, with a server name or without, so every
handshake after a reload presents the new certificate, while connections already open keep
theirs.

At start and at each reload, every certificate of the file that has expired or expires
within :data:`EXPIRY_WARNING_DAYS` is a warning line.
"""

from __future__ import annotations

import datetime
import ssl
from pathlib import Path
from typing import Callable

from .certificate import CertificateError, read_pem_file, utc_text

# The server warns about a certificate that expires within this many days.
EXPIRY_WARNING_DAYS = 14


class TlsError(Exception):
    """The certificate or its key cannot be loaded; one line."""


def load_context(certificate: Path, key: Path | None) -> ssl.SSLContext:
    """A server context presenting the certificate chain in ``certificate`` with ``key``
    (``None``: the key is in the certificate's file), TLS 1.2 at least."""
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.minimum_version = ssl.TLSVersion.TLSv1_2
    try:
        context.load_cert_chain(certificate, key)
    except (OSError, ssl.SSLError) as error:
        raise TlsError(f"cannot load the TLS certificate {certificate} and key {key}: "
                       f"{getattr(error, 'strerror', None) or error}") from None
    return context


def expiry_warnings(path: Path, now: datetime.datetime) -> list[str]:
    """A line for each certificate in ``path`` that has expired at ``now`` or expires within
    :data:`EXPIRY_WARNING_DAYS`, naming the file, the certificate and the date."""
    try:
        certificates = read_pem_file(str(path))
    except CertificateError as error:
        return [f"warning: cannot read the dates of the certificate {path}: {error}"]
    warnings = []
    for certificate in certificates:
        names = f" (for {', '.join(certificate.names)})" if certificate.names else ""
        what = f"warning: the certificate {path}{names}"
        date = utc_text(certificate.not_after)
        if certificate.not_after <= now:
            warnings.append(f"{what} expired on {date}: participants' clients will refuse it; "
                            f"renew it, then send the server SIGHUP to load it")
        elif certificate.not_after - now <= datetime.timedelta(days=EXPIRY_WARNING_DAYS):
            warnings.append(f"{what} expires on {date}: renew it before then")
    return warnings


class ServerTls:
    """The certificate ``certificate`` and key ``key`` a server presents, loadable again;
    ``context`` is the one to listen with. ``log`` takes the warnings and the reloads' lines.
    Raises :class:`TlsError` when the files cannot be loaded at start."""

    def __init__(self, certificate: Path, key: Path | None,
                 log: Callable[[str], None]) -> None:
        self.certificate = certificate
        self.key = key
        self.log = log
        self.context = load_context(certificate, key)
        self.context.sni_callback = self._latest
        self._current = self.context
        self._warn()

    def _latest(self, connection: ssl.SSLObject, _server_name: str | None,
                _context: ssl.SSLContext) -> None:
        """At a client's hello: the connection goes on with the latest certificate."""
        connection.context = self._current

    def reload(self) -> bool:
        """Read the certificate and key again and present them to every new connection;
        whether that worked (if not, the certificate presented stays as it was)."""
        try:
            fresh = load_context(self.certificate, self.key)
        except TlsError as error:
            self.log(f"error: {error}; still presenting the certificate loaded before")
            return False
        self._current = fresh
        self.log(f"loaded the certificate {self.certificate} again{self._validity()}")
        self._warn()
        return True

    def _validity(self) -> str:
        """Until when the file's first certificate is valid, as the reload's line says it."""
        try:
            first = read_pem_file(str(self.certificate))[0]
        except (CertificateError, IndexError):
            return ""  # the warnings say why
        return f" (valid until {utc_text(first.not_after)})"

    def _warn(self) -> None:
        for warning in expiry_warnings(self.certificate,
                                       datetime.datetime.now(datetime.timezone.utc)):
            self.log(warning)
