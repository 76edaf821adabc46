from django.contrib import admin
from django.urls import path, re_path

from common.spa import spa
from config.api import api

urlpatterns = [
    path("admin/", admin.site.urls),
    path("api/", api.urls),
    # Everything else is the React app (except /static/, served by whitenoise).
    re_path(r"^(?!api/|admin/|static/).*$", spa, name="spa"),
]
