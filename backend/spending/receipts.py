"""Receipts and invoices of spending lines: a photo (JPEG, PNG, GIF) or a PDF, judged by its bytes.

A photo is checked and encoded again exactly as a campaign cover is (``campaigns.uploads``: bounded
decoding cost, no metadata left, such as a phone's GPS position); a PDF must start with the PDF
signature. At most ``RECEIPT_MAX_BYTES``. Receipts go through Django's default storage (local files,
or a bucket at scale) under ``receipts/``, never under a public address: they are served by
GET /api/spending/{id}/receipt, to the team always and to visitors only when the team published it.
"""

import secrets

from django.core.files.base import ContentFile, File
from django.core.files.storage import default_storage
from django.utils import timezone
from django.utils.translation import gettext as _

from campaigns.uploads import picture_reencoded
from common.errors import FieldValidationError
from spending.models import ReceiptType

RECEIPT_MAX_BYTES = 10 * 1024 * 1024
RECEIPT_DIR = "receipts"
PDF_MAGIC = b"%PDF-"
CONTENT_TYPES = {"jpg": "image/jpeg", "png": "image/png", "gif": "image/gif", "pdf": "application/pdf"}


def _refused(message: str, code: str) -> FieldValidationError:
    return FieldValidationError(message, code=code, field_errors={"receipt": message})


def receipt_store(*, file: File) -> tuple[str, str]:
    """Store a receipt and answer its name in the storage and its ``ReceiptType``; FieldValidationError
    for a file too large or of another type. Called before the line's transaction (a bucket is a network)."""
    if (file.size or 0) > RECEIPT_MAX_BYTES:
        raise _refused(_("A receipt may be at most 10 MB."), "file_too_large")
    stem = f"{RECEIPT_DIR}/{timezone.now():%Y%m%d%H%M%S}-{secrets.token_hex(8)}"
    picture = picture_reencoded(file)
    if picture is not None:
        content, extension = picture
        return default_storage.save(f"{stem}.{extension}", ContentFile(content)), ReceiptType.IMAGE
    file.seek(0)
    if file.read(len(PDF_MAGIC)) != PDF_MAGIC:
        raise _refused(_("A receipt must be a photo (JPG, PNG, GIF) or a PDF."), "file_type")
    file.seek(0)
    return default_storage.save(f"{stem}.pdf", file), ReceiptType.PDF


def receipt_content_type(name: str) -> str:
    return CONTENT_TYPES.get(name.rsplit(".", 1)[-1], "application/octet-stream")
