import os

from django.core.wsgi import get_wsgi_application

from common.checks import refuse_unsafe_settings

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
application = get_wsgi_application()
# A production server with unsafe settings (common/checks.py) stops here, before it serves anyone.
refuse_unsafe_settings()
