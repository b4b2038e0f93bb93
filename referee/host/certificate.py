"""What a certificate says about itself: the names it is for and the dates it is valid between.

The server warns at start about its own certificate running out, and a client refused the
server's certificate says what is wrong with it (expired on which date, made for which name).
The standard library verifies certificates but decodes one only after trusting it
(``getpeercert``), and never the server's own; so the few fields needed are read here straight
from the DER encoding (RFC 5280, section 4.1: the ``TBSCertificate``'s validity, subject and
subject alternative names), without a dependency. A peer's certificate is outside input:
whatever its bytes, reading it gives a :class:`Certificate` or a :class:`CertificateError`.
"""

from __future__ import annotations

import datetime
import ipaddress
import re
import socket
import ssl
from dataclasses import dataclass

SEQUENCE = 0x30
UTC_TIME = 0x17
GENERALIZED_TIME = 0x18
EXTENSIONS = 0xA3  # [3], after the version [0] and the issuer's and subject's unique ids
VERSION = 0xA0
DNS_NAME = 0x82  # GeneralName [2]
IP_ADDRESS = 0x87  # GeneralName [7]
SUBJECT_ALT_NAME = bytes((0x55, 0x1D, 0x11))  # 2.5.29.17
COMMON_NAME = bytes((0x55, 0x04, 0x03))  # 2.5.4.3
PEM_BLOCK = re.compile(r"-----BEGIN CERTIFICATE-----.*?-----END CERTIFICATE-----", re.DOTALL)


class CertificateError(ValueError):
    """Not a certificate that can be read; one line."""


@dataclass(frozen=True)
class Certificate:
    """The names a certificate is for (its DNS names and IP addresses, else its subject's
    common name) and the instants it is valid from and until (UTC)."""

    names: tuple[str, ...]
    not_before: datetime.datetime
    not_after: datetime.datetime


def utc_text(instant: datetime.datetime) -> str:
    """``instant`` as a certificate's date is shown to people: to the minute, in UTC."""
    return f"{instant.astimezone(datetime.timezone.utc):%Y-%m-%d %H:%M} UTC"


def read_der(der: bytes) -> Certificate:
    """The certificate encoded in ``der``; :class:`CertificateError` if it is not one."""
    try:
        (certificate,) = _elements(der)
        tbs = _elements(_contents(certificate, SEQUENCE))[0]
        fields = _elements(_contents(tbs, SEQUENCE))
        if fields[0][0] == VERSION:
            fields = fields[1:]
        _serial, _algorithm, _issuer, validity, subject, _key, *optional = fields
        not_before, not_after = (_instant(element)
                                 for element in _elements(_contents(validity, SEQUENCE)))
        names = _alternative_names(optional) or _common_names(_contents(subject, SEQUENCE))
    except (ValueError, IndexError) as error:  # UnicodeDecodeError is a ValueError
        raise CertificateError(f"not a certificate ({error})") from None
    return Certificate(names, not_before, not_after)


def read_pem_file(path: str) -> list[Certificate]:
    """The certificates in the PEM file ``path``, in order (a full chain has several)."""
    try:
        with open(path, encoding="ascii", errors="replace") as file:
            blocks = PEM_BLOCK.findall(file.read())
        return [read_der(ssl.PEM_cert_to_DER_cert(block)) for block in blocks]
    except OSError as error:
        raise CertificateError(f"cannot read {path}: {error.strerror or error}") from None
    except ValueError as error:  # a block that is not base64
        raise CertificateError(f"{path}: {error}") from None


def unverified_context() -> ssl.SSLContext:
    """A client context that accepts any certificate: for a look at what a server presents,
    never for a connection that carries anything."""
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE
    return context


def peer_certificate(host: str, port: int, timeout: float) -> Certificate:
    """The certificate the server at ``host:port`` presents, read without trusting it: only to
    say what is wrong with one that failed verification (the token never travels on it)."""
    try:
        with socket.create_connection((host, port), timeout) as plain, \
                unverified_context().wrap_socket(plain, server_hostname=host) as tls:
            der = tls.getpeercert(binary_form=True)
    except OSError as error:
        raise CertificateError(f"cannot fetch it again: {error}") from None
    if der is None:
        raise CertificateError("the server presented no certificate")
    return read_der(der)


def _elements(data: bytes) -> list[tuple[int, bytes]]:
    """The DER elements ``data`` is made of, each as its tag and its contents."""
    elements = []
    at = 0
    while at < len(data):
        tag, length = data[at], data[at + 1]
        at += 2
        if length & 0x80:  # the long form: the next (length & 0x7F) bytes hold the length
            size = length & 0x7F
            length = int.from_bytes(data[at:at + size], "big")
            at += size
        if at + length > len(data):
            raise CertificateError("an element longer than its container")
        elements.append((tag, data[at:at + length]))
        at += length
    return elements


def _contents(element: tuple[int, bytes], tag: int) -> bytes:
    """The contents of ``element``, which must have the tag ``tag``."""
    if element[0] != tag:
        raise CertificateError(f"tag {element[0]:#04x} where {tag:#04x} was expected")
    return element[1]


def _instant(element: tuple[int, bytes]) -> datetime.datetime:
    """A ``UTCTime`` (two-digit year: 50 to 99 are the 1900s) or ``GeneralizedTime``."""
    tag, contents = element
    text = contents.decode("ascii")
    if tag == UTC_TIME:
        text = ("19" if text[:2] >= "50" else "20") + text
    elif tag != GENERALIZED_TIME:
        raise CertificateError(f"tag {tag:#04x} where a time was expected")
    instant = datetime.datetime.strptime(text, "%Y%m%d%H%M%SZ")
    return instant.replace(tzinfo=datetime.timezone.utc)


def _alternative_names(optional: list[tuple[int, bytes]]) -> tuple[str, ...]:
    """The DNS names and IP addresses of the subject alternative name extension, if any."""
    for tag, contents in optional:
        if tag != EXTENSIONS:
            continue
        for extension in _elements(_contents(_elements(contents)[0], SEQUENCE)):
            parts = _elements(_contents(extension, SEQUENCE))  # id, [critical,] value
            if parts[0][1] == SUBJECT_ALT_NAME:
                names = _elements(_contents(_elements(parts[-1][1])[0], SEQUENCE))
                return tuple(_general_name(kind, value) for kind, value in names
                             if kind in (DNS_NAME, IP_ADDRESS))
    return ()


def _general_name(tag: int, value: bytes) -> str:
    return value.decode("ascii") if tag == DNS_NAME else str(ipaddress.ip_address(value))


def _common_names(subject: bytes) -> tuple[str, ...]:
    """The common names (CN) among the subject's attributes."""
    names = []
    for relative in _elements(subject):
        for attribute in _elements(relative[1]):
            kind, value = _elements(_contents(attribute, SEQUENCE))[:2]
            if kind[1] == COMMON_NAME:
                names.append(value[1].decode("utf-8"))
    return tuple(names)
