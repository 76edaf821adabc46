from django.conf import settings
from django.contrib import admin
from django.urls import include, path, re_path

from common.spa import spa
from config.api import api

urlpatterns = [
    path("admin/", admin.site.urls),
    path("api/", api.urls),
    # Everything else is the React app (except /static/, served by whitenoise, and /simulators/).
    re_path(r"^(?!api/|admin/|static/|simulators/).*$", spa, name="spa"),
]
if settings.PAYMENT_SIMULATORS_ENABLED:
    # Local stand-ins for Safaricom's Daraja and Paystack (backend/simulators); never in production.
    urlpatterns.insert(-1, path("simulators/", include("simulators.urls")))
