"""Campaign cover uploads (POST /api/media): images and videos, judged by their content.

The type is decided by the bytes, never by the file's name or declared type: Pillow must open the
file as JPEG, PNG or GIF, or it must start with an MP4 (``ftyp`` box of an MP4 brand) or WebM
(EBML header with DocType ``webm``) signature. Two signatures do not justify another dependency.

Images are decoded and encoded again, which leaves every piece of metadata behind (EXIF with GPS
position, camera serials, comments), turned upright first by their EXIF orientation. Beside the
re-encoded original come a full-size WebP and WebP renditions for phones, named
``<stem>-<width>.webp`` for each of ``IMAGE_WIDTHS`` (never wider than the original). Videos are
stored as sent. Files go through Django's default storage (local files, or a bucket by settings)
under ``uploads/<timestamp>-<random>``.
"""

import io
import secrets
from dataclasses import dataclass, field

from django.core.files.base import ContentFile, File
from django.core.files.storage import default_storage
from django.core.files.uploadhandler import FileUploadHandler, SkipFile
from django.http import HttpRequest
from django.utils import timezone
from django.utils.translation import gettext as _
from PIL import Image, ImageOps, ImageSequence, UnidentifiedImageError

from common.errors import FieldValidationError

MEDIA_MAX_BYTES = 25 * 1024 * 1024
IMAGE_WIDTHS = (480, 960, 1440)
UPLOAD_DIR = "uploads"
IMAGE_FORMATS = ("JPEG", "PNG", "GIF")
# Decoding cost guards: one frame's pixels, and all frames' pixels of an animated GIF.
MAX_FRAME_PIXELS = 50_000_000
MAX_TOTAL_PIXELS = 200_000_000
JPEG_QUALITY = 85
WEBP_QUALITY = 80
# ISO base media brands of MP4 files (not QuickTime 'qt  ', 3GP or HEIF images, which share the box).
MP4_BRANDS = {b"isom", b"iso2", b"iso4", b"iso5", b"iso6", b"mp41", b"mp42", b"avc1", b"dash", b"M4V ", b"mmp4"}
WEBM_MAGIC = b"\x1a\x45\xdf\xa3"
# Set on the request by ``MediaUploadSizeLimitHandler`` when it dropped a file.
TOO_LARGE_FLAG = "harambee_upload_too_large"


def file_too_large_error() -> FieldValidationError:
    message = _("File size must not exceed 25MB")
    return FieldValidationError(message, code="file_too_large", field_errors={"file": message})


def _wrong_type() -> FieldValidationError:
    message = _("Only JPG, GIF, PNG images and MP4, WebM videos are allowed")
    return FieldValidationError(message, code="file_type", field_errors={"file": message})


class MediaUploadSizeLimitHandler(FileUploadHandler):
    """Drops any uploaded file as soon as it passes ``MEDIA_MAX_BYTES``, before it fills a disk.

    The rest of the file is read and thrown away; the view then answers the size message.
    """

    def receive_data_chunk(self, raw_data: bytes, start: int) -> bytes:
        if start + len(raw_data) > MEDIA_MAX_BYTES:
            if self.request is not None:
                setattr(self.request, TOO_LARGE_FLAG, True)
            raise SkipFile
        return raw_data

    def file_complete(self, file_size: int) -> None:
        return None  # the next handler keeps the file


def upload_was_too_large(request: HttpRequest) -> bool:
    return bool(getattr(request, TOO_LARGE_FLAG, False))


@dataclass
class StoredMedia:
    url: str
    media_type: str  # "image" or "video"
    webp_url: str = ""
    srcset: list[dict[str, object]] = field(default_factory=list)


def _video_extension(head: bytes) -> str | None:
    if len(head) >= 12 and head[4:8] == b"ftyp" and head[8:12] in MP4_BRANDS:
        return "mp4"
    if head.startswith(WEBM_MAGIC) and b"webm" in head[:64]:
        return "webm"
    return None


def _open_image(upload: File) -> Image.Image | None:
    """The upload as a JPEG, PNG or GIF image checked by Pillow, or None when it is not one."""
    try:
        upload.seek(0)
        with Image.open(upload, formats=IMAGE_FORMATS) as probe:
            probe.verify()
        upload.seek(0)
        image = Image.open(upload, formats=IMAGE_FORMATS)
    except (UnidentifiedImageError, OSError, SyntaxError, ValueError, Image.DecompressionBombError):
        return None
    width, height = image.size
    frames = getattr(image, "n_frames", 1) if image.format == "GIF" else 1
    if width * height > MAX_FRAME_PIXELS or width * height * frames > MAX_TOTAL_PIXELS:
        message = _("This image is too large to process.")
        raise FieldValidationError(message, code="file_too_large", field_errors={"file": message})
    return image


def _frames(image: Image.Image) -> tuple[list[Image.Image], dict[str, object]]:
    """Decoded frames without any metadata, and the animation settings of an animated GIF."""
    if image.format == "GIF" and getattr(image, "n_frames", 1) > 1:
        frames = [frame.convert("RGBA") for frame in ImageSequence.Iterator(image)]
        animation = {"save_all": True, "duration": image.info.get("duration", 100), "loop": image.info.get("loop", 0)}
    else:
        frames = [ImageOps.exif_transpose(image)]
        animation = {}
    for frame in frames:
        # Nothing of the original's metadata may reach an encoder; a palette's transparent colour is
        # part of the picture, not metadata.
        frame.info = {key: value for key, value in frame.info.items() if key == "transparency"}
    return frames, animation


def _encode(frames: list[Image.Image], file_format: str, animation: dict[str, object], **options: object) -> bytes:
    buffer = io.BytesIO()
    first, *rest = frames
    if rest:
        first.save(buffer, file_format, append_images=rest, **animation, **options)
    else:
        first.save(buffer, file_format, **options)
    return buffer.getvalue()


def _resized(frames: list[Image.Image], width: int) -> list[Image.Image]:
    original_width, original_height = frames[0].size
    if width >= original_width:
        return frames
    height = max(round(original_height * width / original_width), 1)
    return [frame.resize((width, height), Image.Resampling.LANCZOS) for frame in frames]


def _webp_ready(frames: list[Image.Image]) -> list[Image.Image]:
    return [frame if frame.mode in ("RGB", "RGBA") else frame.convert("RGBA") for frame in frames]


def _original(image: Image.Image, frames: list[Image.Image], animation: dict[str, object]) -> tuple[bytes, str]:
    """The picture encoded again in its own format: (bytes, file extension)."""
    if image.format == "JPEG":
        rgb = [frame if frame.mode in ("RGB", "L") else frame.convert("RGB") for frame in frames]
        return _encode(rgb, "JPEG", {}, quality=JPEG_QUALITY, optimize=True, progressive=True), "jpg"
    if image.format == "GIF":
        return _encode(frames, "GIF", animation, optimize=True), "gif"
    return _encode(frames, "PNG", {}, optimize=True), "png"


def _new_stem() -> str:
    return f"{UPLOAD_DIR}/{timezone.now():%Y%m%d%H%M%S}-{secrets.token_hex(8)}"


def _store(name: str, content: bytes) -> str:
    return default_storage.url(default_storage.save(name, ContentFile(content)))


def media_upload(*, file: File | None) -> StoredMedia:
    """Store a campaign cover and answer where it is.

    At most ``MEDIA_MAX_BYTES``; JPEG, PNG, GIF, MP4 or WebM by content, else FieldValidationError.
    """
    if file is None:
        message = _("Please choose a file to upload.")
        raise FieldValidationError(message, code="required", field_errors={"file": message})
    if (file.size or 0) > MEDIA_MAX_BYTES:
        raise file_too_large_error()
    stem = _new_stem()
    image = _open_image(file)
    if image is None:
        file.seek(0)
        extension = _video_extension(file.read(64))
        if extension is None:
            raise _wrong_type()
        file.seek(0)
        return StoredMedia(
            url=default_storage.url(default_storage.save(f"{stem}.{extension}", file)), media_type="video"
        )

    with image:
        try:
            frames, animation = _frames(image)
            original, extension = _original(image, frames, animation)
            webp_frames = _webp_ready(frames)
            full_webp = _encode(webp_frames, "WEBP", animation, quality=WEBP_QUALITY)
            renditions = [
                (width, _encode(_resized(webp_frames, width), "WEBP", animation, quality=WEBP_QUALITY))
                for width in IMAGE_WIDTHS
            ]
        except (OSError, ValueError, SyntaxError):  # a truncated or corrupt image fails only when decoded
            raise _wrong_type() from None
        original_width = frames[0].width
    stored = StoredMedia(
        url=_store(f"{stem}.{extension}", original), media_type="image", webp_url=_store(f"{stem}.webp", full_webp)
    )
    # Every rendition is stored, so its name can be derived from the cover's; a picture narrower
    # than a rendition width appears once in the srcset, at its own width.
    for width, content in renditions:
        url = _store(f"{stem}-{width}.webp", content)
        if all(entry["width"] != min(width, original_width) for entry in stored.srcset):
            stored.srcset.append({"url": url, "width": min(width, original_width)})
    return stored
