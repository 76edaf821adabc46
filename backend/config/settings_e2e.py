"""The end-to-end test server's settings (scripts/e2e-server.sh and the template database of scripts/e2e.sh):
the local settings, with a fast password hasher.

That server is a test server, never a deployment: its users are the demo data's and those the specs sign up,
none real. Argon2's deliberate cost (about 0.17 s of CPU and 100 MB per hash here) would be paid at every
sign-up, sign-in and password change of a run, on the two cores the shards share. Production keeps
config.settings' Argon2; this module refuses to load there.
"""

from django.core.exceptions import ImproperlyConfigured

from .settings import *  # noqa: F403

if IS_PRODUCTION:  # noqa: F405
    raise ImproperlyConfigured("config.settings_e2e is for the end-to-end test server only.")

# MD5 for every password set here; Argon2 still checks one set under config.settings (a spec's `manage.py shell`).
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher", *PASSWORD_HASHERS]  # noqa: F405
