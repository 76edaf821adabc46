from django.conf import settings
from django.contrib import admin
from django.urls import include, path, re_path
from django.views.static import serve

from champions.views import champion_page
from common.views import healthz, readyz
from config.api import api
from config.embed import embed_campaign, embed_loader
from config.pledge_form import pledge_page, pledge_receipt_page
from config.spa import spa
from desk.views import desk_manifest, desk_service_worker

urlpatterns = [
    path("admin/", admin.site.urls),
    path("api/", api.urls),
    # For the load balancer (deploy/nginx): is the process up, can it serve.
    path("healthz", healthz, name="healthz"),
    path("readyz", readyz, name="readyz"),
    # The ushers' desk works offline: its service worker (scope /campaign/) and its manifest.
    path("desk-sw.js", desk_service_worker, name="desk-service-worker"),
    path("campaign/<int:campaign_id>/desk.webmanifest", desk_manifest, name="desk-manifest"),
    # The pledge page, whose form also posts here without JavaScript (config/pledge_form.py).
    re_path(r"^campaign/(?P<campaign_id>\d+)/pledge/?$", pledge_page, name="pledge-page"),
    # A champion's page: plain server-rendered HTML (champions.views).
    re_path(r"^campaign/(?P<campaign_id>\d+)/c/(?P<code>[^/]{1,12})/?$", champion_page, name="champion-page"),
    # A pledge's page, whose 'Pay now' form also posts here without JavaScript (same module).
    re_path(r"^pledges/(?P<code>[^/]{1,20})/?$", pledge_receipt_page, name="pledge-receipt-page"),
    # The embed other websites show in a frame, and the script that puts it there (config/embed.py).
    re_path(r"^embed/campaign/(?P<campaign_id>\d+)/?$", embed_campaign, name="embed-campaign"),
    path("embed.js", embed_loader, name="embed-loader"),
    # Everything else is the React app (except /static/, served by whitenoise, and /simulators/).
    re_path(r"^(?!api/|admin/|static/|simulators/|healthz$|readyz$).*$", spa, name="spa"),
]
if settings.SERVE_MEDIA:
    # Uploaded covers from MEDIA_ROOT (Django's static() helper does this only with DEBUG on).
    urlpatterns.insert(-1, re_path(r"^media/(?P<path>.*)$", serve, {"document_root": settings.MEDIA_ROOT}))
if settings.PAYMENT_SIMULATORS_ENABLED:
    # Local stand-ins for Safaricom's Daraja and Paystack (backend/simulators); never in production.
    urlpatterns.insert(-1, path("simulators/", include("simulators.urls")))
