"""The websites allowed to show an organization's campaigns in a frame (config/embed.py): checking
what an owner typed is an origin, exactly as a browser writes one.

An origin is a scheme, a host and a port, nothing else: ``https://www.example.org`` or
``https://example.org:8443``. Only https, except plain http on this machine (``http://localhost``,
``http://127.0.0.1``, for trying a site before it goes live). No path, query, fragment, user name,
wildcard or IP address (other than 127.0.0.1); the default port is dropped and the host written in
lower case, so the stored text is the one a browser compares with ``frame-ancestors``.
"""

import re
from urllib.parse import urlsplit

from django.utils.translation import gettext as _

from common.errors import FieldValidationError

MAX_LENGTH = 300
LOOPBACK_HOSTS = frozenset({"localhost", "127.0.0.1"})
DEFAULT_PORTS = {"https": 443, "http": 80}
# A DNS name: labels of letters, digits and inner hyphens; a top-level label that is not all digits.
HOST_NAME = re.compile(
    r"^(?!-)[a-z0-9-]{1,63}(?<!-)(\.(?!-)[a-z0-9-]{1,63}(?<!-))*\.(?!-)[a-z0-9-]*[a-z][a-z0-9-]*(?<!-)$"
)
PORT = re.compile(r"^[0-9]{1,5}$")


def _refused(message: str) -> FieldValidationError:
    return FieldValidationError(_("Please correct the errors below"), field_errors={"origin": message})


def embed_origin_checked(text: str) -> str:
    """The origin ``text`` names, as a browser writes it; FieldValidationError (field ``origin``) when it
    is not one this allows."""
    typed = text.strip()
    not_an_origin = _(
        "Enter the website's address as https://name.example (no path): the scheme, the name and, if any, the port."
    )
    if not typed or len(typed) > MAX_LENGTH or any(c.isspace() or ord(c) < 33 or ord(c) > 126 for c in typed):
        raise _refused(not_an_origin)
    if "*" in typed:
        raise _refused(_("Enter one website at a time: wildcards are not allowed."))
    try:
        parts = urlsplit(typed)
        parts.port  # noqa: B018 - refuses a port that is not a number or out of range
    except ValueError:  # e.g. "https://[", "https://a.example:x"
        raise _refused(not_an_origin) from None
    scheme = parts.scheme.lower()
    rest = typed[len(parts.scheme) + 3 :] if typed[len(parts.scheme) : len(parts.scheme) + 3] == "://" else ""
    if scheme not in DEFAULT_PORTS or not rest or parts.username is not None or parts.password is not None:
        raise _refused(not_an_origin)
    if parts.path not in ("", "/") or parts.query or parts.fragment or "?" in typed or "#" in typed:
        raise _refused(not_an_origin)
    netloc = parts.netloc.lower()
    host, _colon, port_text = netloc.partition(":")
    if port_text and not PORT.match(port_text):
        raise _refused(not_an_origin)
    port = int(port_text) if port_text else DEFAULT_PORTS[scheme]
    if not 1 <= port <= 65535:
        raise _refused(not_an_origin)
    if host not in LOOPBACK_HOSTS and not HOST_NAME.match(host):
        raise _refused(not_an_origin)
    if scheme == "http" and host not in LOOPBACK_HOSTS:
        raise _refused(_("Only secure websites (https://) can show the campaign, except http://localhost."))
    return f"{scheme}://{host}" + ("" if port == DEFAULT_PORTS[scheme] else f":{port}")
