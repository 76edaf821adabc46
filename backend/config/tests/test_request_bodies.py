"""What the API does with bodies it did not ask for: too large ones are refused with 413 in the API's
error format; unknown fields are ignored, by every operation alike (django-ninja's default, kept
on purpose: older clients send legacy fields such as a pledge's ``campaignTitle``)."""

import io
import os

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test.client import MULTIPART_CONTENT
from PIL import Image

from config.tests.test_authorization_matrix import (
    ACTORS,
    MATRIX,
    REQUESTS,
    shared_world,
    unsafe_request_path,
    world,
)

# The matrix's fixtures: its world, built once per module (shared_world) and copied for each test (world).
__all__ = ["shared_world", "world"]

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("payment_providers")]

TOO_LARGE = {"detail": "This request is too large.", "code": "too_large", "field_errors": {}}
OVER_A_MEGABYTE = "x" * (1024 * 1024 + 1)


def test_an_oversized_json_body_is_refused_with_413(api_client):
    response = api_client.post("/api/feedback", {"message": OVER_A_MEGABYTE})

    assert response.status_code == 413
    assert response.json() == TOO_LARGE


def test_an_oversized_body_of_a_signed_in_edit_is_refused_with_413(signed_in_client):
    response = signed_in_client.patch("/api/profile", {"first_name": OVER_A_MEGABYTE})

    assert response.status_code == 413
    assert response.json() == TOO_LARGE


def test_a_cover_upload_over_a_megabyte_is_not_held_to_the_body_limit(signed_in_client):
    """Uploaded files have their own limit (25 MB, campaigns/uploads.py)."""
    noise = Image.frombytes("RGB", (700, 700), os.urandom(700 * 700 * 3))
    buffer = io.BytesIO()
    noise.save(buffer, "PNG")
    assert buffer.tell() > 1024 * 1024

    response = signed_in_client.post(
        "/api/media",
        {"file": SimpleUploadedFile("cover.png", buffer.getvalue(), content_type="image/png")},
        content_type=MULTIPART_CONTENT,
    )

    assert response.status_code == 201


@pytest.mark.parametrize("operation", sorted(operation for operation in REQUESTS if not operation.startswith("GET ")))
def test_unknown_fields_are_ignored_by_every_operation(operation, world, make_api_client):
    """The organizer's request of the authorization matrix, with a field no operation knows (in a
    form for the uploads)."""
    method, template = operation.split(" ", 1)
    client = make_api_client(signed_in_as=world.organizer)
    request = REQUESTS[operation](world, world.organizer)
    if "multipart" in request:
        body, content_type = {**request["multipart"], "unexpected_field": "ignored"}, MULTIPART_CONTENT
    else:
        body, content_type = {**request.get("json", {}), "unexpected_field": "ignored"}, "application/json"

    response = getattr(client, method.lower())(
        unsafe_request_path(template, world, request, operation), body, content_type=content_type
    )

    assert response.status_code == MATRIX[operation][ACTORS.index("owner")], response.content[:300]
