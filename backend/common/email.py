import logging
from typing import Any

from django.core.mail import EmailMultiAlternatives
from django.template.loader import render_to_string

logger = logging.getLogger(__name__)


def send_templated_email(*, to: str, subject: str, template: str, context: dict[str, Any]) -> bool:
    """Send ``<template>.txt`` with ``<template>.html`` as its HTML part.

    Returns False (and logs) when the mail server refuses: callers decide whether that matters.
    """
    text_body = render_to_string(f"{template}.txt", context)
    html_body = render_to_string(f"{template}.html", context)
    message = EmailMultiAlternatives(subject=subject, body=text_body, to=[to])
    message.attach_alternative(html_body, "text/html")
    try:
        message.send()
    except Exception:
        logger.exception("Could not send e-mail %r", template)
        return False
    return True
