"""Asks the app's renderer (frontend/src/renderer.ts, a Node process beside gunicorn) for a page's
first HTML: the React app rendered on the server, which the browser then hydrates.

The renderer is an optimization, never a dependency: when it is not configured, down, slow or
failing, ``page_render`` answers None (and logs why) and the page goes out without it, for the
browser to render as it always could. After a failure the renderer is left alone for
``settings.RENDERER_RETRY_SECONDS`` in this process, so a renderer that hangs does not slow every
request by the timeout. Callers cache what they get: a render takes tens of milliseconds.
"""

import http.client
import json
import logging
import threading
import time
from dataclasses import dataclass
from urllib.parse import urlsplit

from django.conf import settings

from common.network import network_call_check

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class RenderedPage:
    html: str  # what goes into <div id="root">
    messages: dict[str, object]  # the compiled messages it shows, by id ({} in English): what hydrating it needs


_retry_at = 0.0  # time.monotonic() before which this process does not ask the renderer
_retry_lock = threading.Lock()


def page_render(*, path: str, language: str, queries_json: str) -> RenderedPage | None:
    """The app's root for ``path`` in ``language``, rendered from ``queries_json`` (a JSON list of
    ``{"queryKey", "data"}``: the answers the page's hooks would fetch, under their keys); None when
    no renderer answered in time."""
    global _retry_at
    if not settings.RENDERER_URL or time.monotonic() < _retry_at:
        return None
    network_call_check("The page renderer")
    address = urlsplit(settings.RENDERER_URL)
    # The queries go as they are: already JSON, and as large as the page's data.
    asked = f'{{"path":{json.dumps(path)},"language":{json.dumps(language)},"queries":{queries_json}}}'
    connection = http.client.HTTPConnection(
        address.hostname or "127.0.0.1", address.port or 80, timeout=settings.RENDERER_TIMEOUT_SECONDS
    )
    try:
        connection.request("POST", "/render", body=asked.encode(), headers={"Content-Type": "application/json"})
        response = connection.getresponse()
        answer = response.read()
        if response.status != 200:
            raise OSError(f"it answered {response.status}")
        rendered = json.loads(answer)
        page = RenderedPage(html=rendered["html"], messages=rendered["messages"])
    except (OSError, http.client.HTTPException, ValueError, KeyError, TypeError) as error:
        with _retry_lock:
            _retry_at = time.monotonic() + settings.RENDERER_RETRY_SECONDS
        logger.warning("The renderer did not render %s (%s): the page goes out for the browser to render", path, error)
        return None
    finally:
        connection.close()
    return page
