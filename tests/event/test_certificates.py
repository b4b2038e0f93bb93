"""The event's certificate, over real TLS on 127.0.0.1: a client refused the server's certificate,
or given ``ws://`` for a TLS server or ``wss://`` for a plain one, ends at once with status 2
and one line saying what to do; the server warns at start about a certificate that has expired
or soon will, and starts all the same; SIGHUP makes it present a renewed certificate; and the
certificate reader agrees with the ``cryptography`` package and survives any bytes.

Certificates are made in each test (:func:`~.helpers.make_certificate`) with the names and
dates the case needs.
"""

from __future__ import annotations

import datetime
import os
import signal
import socket
import ssl

import pytest
from cryptography import x509
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.host.certificate import CertificateError, read_der, read_pem_file
from referee.host.server_tls import ServerTls

from .helpers import connect, make_certificate, start_event, write_event

TLS = {"certificate": "cert.pem", "key": "key.pem"}


def expiry(cert_path) -> str:
    """The certificate's expiry as the lines show it (to the minute, UTC)."""
    certificate = x509.load_pem_x509_certificate(cert_path.read_bytes())
    return f"{certificate.not_valid_after_utc:%Y-%m-%d %H:%M} UTC"


def refused_at_once(client) -> str:
    """The client's last line, once it ended with status 2 without trying again."""
    assert client.wait(15) == 2, client.output
    assert "connecting again" not in client.output
    return client.lines[-1]


def test_a_certificate_this_machine_does_not_trust_says_to_add_ca(tmp_path, processes):
    make_certificate(tmp_path)
    server, url = start_event(write_event(tmp_path, listen=TLS))
    client = connect(url, "Alpha")  # no --ca
    processes += [server, client]
    port = url.rsplit(":", 1)[1].strip("/")
    line = refused_at_once(client)
    assert line.startswith(f"olympiad-referee: error: the server's certificate (127.0.0.1:{port}) "
                           f"is not trusted by this machine ("), line
    assert line.endswith("): ask the organiser for the server's cert.pem and add --ca cert.pem")


def test_an_expired_certificate_says_when_and_to_tell_the_organiser(tmp_path, processes):
    cert_path, _ = make_certificate(tmp_path, start_days=-30, days=-2)
    server, url = start_event(write_event(tmp_path, listen=TLS))
    client = connect(url, "Alpha", ca=cert_path)
    processes += [server, client]
    line = refused_at_once(client)
    assert f"expired on {expiry(cert_path)}: tell the organiser" in line, line


def test_a_certificate_for_another_name_says_which_to_connect_to(tmp_path, processes):
    cert_path, _ = make_certificate(tmp_path, names=("events.example.org",))
    server, url = start_event(write_event(tmp_path, listen=TLS))
    client = connect(url, "Alpha", ca=cert_path)
    processes += [server, client]
    port = url.rsplit(":", 1)[1].strip("/")
    line = refused_at_once(client)
    assert ("the server's certificate is for events.example.org, not 127.0.0.1: connect to "
            f"wss://events.example.org:{port}/") in line, line


def test_a_ws_address_for_a_server_that_speaks_tls_says_to_use_wss(tmp_path, processes):
    make_certificate(tmp_path)
    server, url = start_event(write_event(tmp_path, listen=TLS))
    port = url.rsplit(":", 1)[1].strip("/")
    client = connect(f"ws://127.0.0.1:{port}/", "Alpha")
    processes += [server, client]
    assert refused_at_once(client) == (f"olympiad-referee: error: the server at 127.0.0.1:{port} "
                                       f"speaks TLS: connect to wss://127.0.0.1:{port}/")


def test_a_wss_address_for_a_server_without_tls_says_to_use_ws(tmp_path, processes):
    """The server closes a connection whose TLS hello it cannot read as HTTP (at once, or at
    its ``hello`` limit: 1 s here)."""
    server, url = start_event(write_event(tmp_path, limits={"hello": 1}))
    port = url.rsplit(":", 1)[1].strip("/")
    client = connect(f"wss://127.0.0.1:{port}/", "Alpha")
    processes += [server, client]
    assert refused_at_once(client) == (f"olympiad-referee: error: the server at 127.0.0.1:{port} "
                                       f"does not speak TLS: connect to ws://127.0.0.1:{port}/")


@pytest.mark.parametrize("days, warning", [
    (-2, "expired on {date}: participants' clients will refuse it"),
    (3, "expires on {date}: renew it before then"),
    (60, None),
])
def test_the_server_warns_about_a_certificate_that_expired_or_soon_will(
        tmp_path, processes, days, warning):
    cert_path, _ = make_certificate(tmp_path, start_days=min(days, 0) - 30, days=days)
    server, _ = start_event(write_event(tmp_path, listen=TLS))  # it starts all the same
    processes.append(server)
    lines = [line for line in server.lines if "warning" in line]
    if warning is None:
        assert not lines
    else:
        assert len(lines) == 1, server.output
        assert f"the certificate {cert_path} (for localhost, 127.0.0.1) " in lines[0]
        assert warning.format(date=expiry(cert_path)) in lines[0]


def presented(port: int, ca_file) -> str:
    """The expiry of the certificate the server on ``port`` presents, after a handshake that
    verifies it against ``ca_file`` (the server holds its key)."""
    context = ssl.create_default_context(cafile=str(ca_file))
    with socket.create_connection(("127.0.0.1", port), 10) as plain, \
            context.wrap_socket(plain, server_hostname="127.0.0.1") as tls:
        der = tls.getpeercert(binary_form=True)
    certificate = x509.load_der_x509_certificate(der)
    return f"{certificate.not_valid_after_utc:%Y-%m-%d %H:%M} UTC"


def test_sighup_makes_the_server_present_a_renewed_certificate(tmp_path, processes):
    server, url = start_event(write_event(tmp_path, tls=True))
    processes.append(server)
    port = int(url.rsplit(":", 1)[1].strip("/"))
    first = tmp_path / "first.pem"
    first.write_bytes((tmp_path / "cert.pem").read_bytes())
    assert presented(port, first) == expiry(first)
    renewed, _ = make_certificate(tmp_path, days=90)  # a new key too, in place of the old
    os.kill(server.popen.pid, signal.SIGHUP)
    server.wait_for(f"loaded the certificate {renewed} again "
                    rf"\(valid until {expiry(renewed)}\)")
    assert presented(port, renewed) == expiry(renewed) != expiry(first)
    (tmp_path / "key.pem").write_text("half-written\n")
    os.kill(server.popen.pid, signal.SIGHUP)
    server.wait_for(r"error: cannot load the TLS certificate .*; still presenting the "
                    r"certificate loaded before")
    assert presented(port, renewed) == expiry(renewed)
    assert server.popen.poll() is None and "Traceback" not in server.output


def test_a_failed_reload_keeps_the_certificate_and_says_so_in_one_line(tmp_path):
    cert_path, key_path = make_certificate(tmp_path, days=5)
    lines: list[str] = []
    tls = ServerTls(cert_path, key_path, lines.append)
    assert len(lines) == 1 and "expires on" in lines[0]  # within the warning's 14 days
    cert_path.unlink()
    assert not tls.reload()
    assert lines[1] == (f"error: cannot load the TLS certificate {cert_path} and key "
                        f"{key_path}: No such file or directory; still presenting the "
                        f"certificate loaded before")


@pytest.mark.parametrize("names", [("localhost", "127.0.0.1", "::1"), ("events.example.org",)])
def test_the_reader_finds_the_names_and_dates_cryptography_finds(tmp_path, names):
    cert_path, _ = make_certificate(tmp_path, names, start_days=-9000, days=9000)  # 2001-2051
    (read,) = read_pem_file(str(cert_path))
    made = x509.load_pem_x509_certificate(cert_path.read_bytes())
    assert read.names == names
    assert read.not_before == made.not_valid_before_utc
    assert read.not_after == made.not_valid_after_utc


def test_a_certificate_without_alternative_names_is_for_its_common_name(tmp_path):
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.hazmat.primitives.hashes import SHA256
    from cryptography.x509.oid import NameOID

    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.ORGANIZATION_NAME, "Olympiad"),
                      x509.NameAttribute(NameOID.COMMON_NAME, "events.example.org")])
    start = datetime.datetime(2030, 1, 1, tzinfo=datetime.timezone.utc)
    made = (x509.CertificateBuilder().subject_name(name).issuer_name(name)
            .public_key(key.public_key()).serial_number(1).not_valid_before(start)
            .not_valid_after(start + datetime.timedelta(days=1)).sign(key, SHA256()))
    read = read_der(made.public_bytes(serialization.Encoding.DER))
    assert read.names == ("events.example.org",)
    assert read.not_before == start


@pytest.fixture(scope="module")
def real_der(tmp_path_factory) -> bytes:
    """A certificate made as the other tests make theirs, in DER."""
    cert_path, _ = make_certificate(tmp_path_factory.mktemp("der"))
    return ssl.PEM_cert_to_DER_cert(cert_path.read_text())


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 1000), st.lists(st.tuples(st.integers(0, 1000), st.integers(1, 255)),
                                      max_size=4))
def test_any_bytes_are_read_as_a_certificate_or_refused_in_one_line(real_der, cut, flips):
    """What a server presents is outside input: a real certificate cut after ``cut`` bytes and
    with some bytes changed (XOR with the values of ``flips``) gives a certificate or a
    :class:`CertificateError`, nothing else."""
    data = bytearray(real_der[:cut])
    for place, mask in flips:
        if data:
            data[place % len(data)] ^= mask
    try:
        read_der(bytes(data))
    except CertificateError as error:
        assert "\n" not in str(error)
