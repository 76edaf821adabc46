"""The desk's offline pieces, outside the API: its service worker and its web app manifest.

The service worker is the built app's ``desk-sw.js`` (frontend/public), served from the site's root
so that it may control ``/campaign/…`` pages; it must never be cached stale, as browsers compare it
byte for byte to update it.
"""

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe


@require_safe
def desk_service_worker(request: HttpRequest) -> HttpResponse:
    path = settings.FRONTEND_DIST / "desk-sw.js"
    if not path.exists():
        raise Http404("The frontend is not built.")
    response = HttpResponse(path.read_bytes(), content_type="text/javascript")
    response["Cache-Control"] = "no-cache"
    return response


@require_safe
def desk_manifest(request: HttpRequest, campaign_id: int) -> JsonResponse:
    """Makes the campaign's desk installable: it opens on its own, phone-sized, from the home screen."""
    response = JsonResponse(
        {
            "name": _("Harambee ushers' desk"),
            "short_name": _("Desk"),
            "start_url": f"/campaign/{campaign_id}/desk",
            "scope": f"/campaign/{campaign_id}/desk",
            "display": "standalone",
            "background_color": "#ffffff",
            "theme_color": "#15803d",
            "icons": [{"src": "/static/favicon.svg", "sizes": "any", "type": "image/svg+xml"}],
        },
        content_type="application/manifest+json",
    )
    response["Cache-Control"] = "no-cache"
    return response
