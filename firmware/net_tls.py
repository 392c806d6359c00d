# TLS to the club's broker (firmware/net.py, docs/network.md), imported only where /secrets.json
# says "tls": the board's ssl (MicroPython 1.23+: micropython-lib's ssl over mbedtls).
import ssl  # pyright: ignore[reportMissingImports]


class Tls:
    """umqtt.simple's ssl for a TLS link (secrets s): the broker's certificate checked against
    the CA file s["ca"] names, its name or address against s["broker"]; without a CA the link
    is encrypted but the broker not proven. Keeps the TCP socket under the TLS (tcp): the TLS
    socket of MicroPython has no settimeout, and that socket's timeout bounds the TLS reads."""

    def __init__(self, s):
        ctx = self.ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
        if s.get("ca"):
            ctx.load_verify_locations(cafile=s["ca"])
            ctx.verify_mode = ssl.CERT_REQUIRED
        else:
            ctx.verify_mode = ssl.CERT_NONE
        self.tcp = None

    def wrap_socket(self, sock, server_hostname=None):
        self.tcp = sock
        return self.ctx.wrap_socket(sock, server_hostname=server_hostname)
