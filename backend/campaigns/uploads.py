"""Campaign cover uploads (POST /api/media): images and videos, judged by their content.

The type is decided by the bytes, never by the file's name or declared type: Pillow must open the
file as JPEG, PNG or GIF, or it must start with an MP4 (``ftyp`` box of an MP4 brand) or WebM
(EBML header with DocType ``webm``) signature. Two signatures do not justify another dependency.

Images are decoded and encoded again, which leaves every piece of metadata behind (EXIF with GPS
position, camera serials, comments), turned upright first by their EXIF orientation. What decoding
costs is bounded before any pixel is decoded (``Image.open`` reads only the header; a GIF's frames are
counted without decoding them): at most ``MAX_TOTAL_PIXELS`` over all frames and ``MAX_FRAMES`` frames.
Each output decodes the frames again, one at a time, and resizes each before it is kept, so only the
encoder being fed holds a whole animation (16 MP as RGBA: 64 MB). Beside the
re-encoded original come a full-size WebP and WebP renditions for phones, named
``<stem>-<width>.webp`` for each of ``IMAGE_WIDTHS`` (never wider than the original). Videos are
stored as sent. Files go through Django's default storage (local files, or a bucket by settings)
under ``uploads/<timestamp>-<random>``.
"""

import io
import re
import secrets
from collections.abc import Iterator
from dataclasses import dataclass, field

from django.conf import settings
from django.core.files.base import ContentFile, File
from django.core.files.storage import default_storage
from django.core.files.uploadhandler import FileUploadHandler, SkipFile
from django.http import HttpRequest
from django.utils import timezone
from django.utils.translation import gettext as _
from PIL import ExifTags, Image, ImageOps, ImageSequence, UnidentifiedImageError

from accounts.models import User
from common import ratelimit
from common.errors import FieldValidationError

MEDIA_MAX_BYTES = 25 * 1024 * 1024
IMAGE_WIDTHS = (480, 960, 1440)
UPLOAD_DIR = "uploads"
IMAGE_FORMATS = ("JPEG", "PNG", "GIF")
# Decoding cost: the pixels of all frames together, and the frames of an animated GIF. A 235 KB GIF of
# 50 frames of 2000 x 2000 (200 MP) cost a worker 37 s and 1.5 GB; 16 MP is a 4000 x 4000 photo, or an
# animation of 100 frames of 400 x 400.
MAX_TOTAL_PIXELS = 16_000_000
MAX_FRAMES = 100
# The stored copies (the re-encoded original and its full-size WebP) are at most this long on each side,
# resized before they are encoded: an encoder's memory grows with the pixels it is given.
MAX_STORED_SIDE = 2560
JPEG_QUALITY = 85
WEBP_QUALITY = 80
# ISO base media brands of MP4 files (not QuickTime 'qt  ', 3GP or HEIF images, which share the box).
MP4_BRANDS = {b"isom", b"iso2", b"iso4", b"iso5", b"iso6", b"mp41", b"mp42", b"avc1", b"dash", b"M4V ", b"mmp4"}
WEBM_MAGIC = b"\x1a\x45\xdf\xa3"
# What ``media_upload`` names a stored picture (``_new_stem``), wherever the storage keeps it.
STORED_PICTURE = re.compile(rf"^(?P<stem>[^?#]*/{UPLOAD_DIR}/\d{{14}}-[0-9a-f]{{16}})\.(?:jpg|png|gif)$")
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


def picture_renditions(url: str) -> list[dict[str, object]]:
    """The srcset of a picture ``media_upload`` stored: its WebP renditions, by the names it gave them;
    [] for any other address. A picture narrower than a width was stored under that width's name at its
    own width: a browser picking it gets fewer pixels than it counted on, shown at the same size."""
    stored = STORED_PICTURE.match(url)
    if stored is None:
        return []
    return [{"url": f"{stored['stem']}-{width}.webp", "width": width} for width in IMAGE_WIDTHS]


def _video_extension(head: bytes) -> str | None:
    if len(head) >= 12 and head[4:8] == b"ftyp" and head[8:12] in MP4_BRANDS:
        return "mp4"
    if head.startswith(WEBM_MAGIC) and b"webm" in head[:64]:
        return "webm"
    return None


def _image_too_large() -> FieldValidationError:
    message = _("Images may have at most 16 megapixels, over all the frames of an animation, and 100 frames.")
    return FieldValidationError(message, code="image_too_large", field_errors={"file": message})


def _frame_count(image: Image.Image) -> int:
    """A GIF's frames, counted by seeking (nothing decoded) and only up to one past ``MAX_FRAMES``:
    past the limit the number does not matter, and Pillow's ``n_frames`` would count 1.6 million 1 x 1
    frames (23 s) before the refusal. Left at the first frame."""
    if image.format != "GIF":
        return 1
    count = 1
    try:
        while count <= MAX_FRAMES:
            image.seek(count)
            count += 1
    except EOFError:
        pass
    image.seek(0)
    return count


def _open_image(upload: File) -> Image.Image | None:
    """The upload as a JPEG, PNG or GIF image checked by Pillow, or None when it is not one; refused
    when decoding it would cost more than ``MAX_TOTAL_PIXELS`` or ``MAX_FRAMES`` (nothing decoded yet)."""
    try:
        upload.seek(0)
        with Image.open(upload, formats=IMAGE_FORMATS) as probe:
            probe.verify()
        upload.seek(0)
        image = Image.open(upload, formats=IMAGE_FORMATS)
    except (UnidentifiedImageError, OSError, SyntaxError, ValueError, Image.DecompressionBombError):
        return None
    width, height = image.size
    frames = _frame_count(image)
    if frames > MAX_FRAMES or width * height * frames > MAX_TOTAL_PIXELS:
        image.close()
        raise _image_too_large()
    return image


def _animation(image: Image.Image) -> dict[str, object]:
    """The encoder options that keep an animated GIF animated; none for a still picture."""
    if _frame_count(image) == 1:
        return {}
    return {"save_all": True, "duration": image.info.get("duration", 100), "loop": image.info.get("loop", 0)}


def _frames(
    image: Image.Image, *, keep_modes: tuple[str, ...] = (), convert_to: str = "", width: int = 0
) -> Iterator[Image.Image]:
    """The frames, decoded one at a time from the first, without any metadata: converted to
    ``convert_to`` unless in one of ``keep_modes``, and made at most ``width`` wide (when given),
    before the next frame is decoded. A still picture is turned upright by its EXIF orientation."""
    animated = _frame_count(image) > 1
    if not animated:
        # Decoded once, turned in place: no copy of a 16 MP picture per output.
        ImageOps.exif_transpose(image, in_place=True)
    for decoded in ImageSequence.Iterator(image) if animated else [image]:
        frame = decoded.convert("RGBA") if animated else decoded
        if convert_to and frame.mode not in keep_modes:
            frame = frame.convert(convert_to)
        if width and width < frame.width:
            frame = frame.resize((width, max(round(frame.height * width / frame.width), 1)), Image.Resampling.LANCZOS)
        # Nothing of the original's metadata may reach an encoder; a palette's transparent colour is
        # part of the picture, not metadata.
        frame.info = {key: value for key, value in frame.info.items() if key == "transparency"}
        yield frame


def _encode(frames: Iterator[Image.Image], file_format: str, animation: dict[str, object], **options: object) -> bytes:
    buffer = io.BytesIO()
    first = next(frames)
    if animation:
        first.save(buffer, file_format, append_images=frames, **animation, **options)
    else:
        first.save(buffer, file_format, **options)
    return buffer.getvalue()


def _upright_size(image: Image.Image) -> tuple[int, int]:
    """The picture's size once turned upright (EXIF orientations 5 to 8 turn it a quarter)."""
    turned = _frame_count(image) == 1 and image.getexif().get(ExifTags.Base.Orientation, 1) in (5, 6, 7, 8)
    return (image.height, image.width) if turned else image.size


def _stored_width(image: Image.Image) -> int:
    """The width of the stored copies: the picture's own, or less so neither side passes ``MAX_STORED_SIDE``."""
    width, height = _upright_size(image)
    return min(width, width * MAX_STORED_SIDE // max(width, height))


def _original(image: Image.Image) -> tuple[bytes, str]:
    """The picture encoded again in its own format: (bytes, file extension)."""
    width = _stored_width(image)
    if image.format == "JPEG":
        frames = _frames(image, keep_modes=("RGB", "L"), convert_to="RGB", width=width)
        return _encode(frames, "JPEG", {}, quality=JPEG_QUALITY, optimize=True, progressive=True), "jpg"
    if image.format == "GIF":
        return _encode(_frames(image, width=width), "GIF", _animation(image), optimize=True), "gif"
    return _encode(_frames(image, width=width), "PNG", {}, optimize=True), "png"


def picture_reencoded(upload: File) -> tuple[bytes, str] | None:
    """The upload as a JPEG, PNG or GIF picture checked and encoded again without its metadata (as a
    cover's original): (bytes, file extension); None when it is not such a picture. Refused as a cover
    is when decoding it would cost too much (a receipt's photo: spending/receipts.py)."""
    image = _open_image(upload)
    if image is None:
        return None
    with image:
        try:
            return _original(image)
        except (OSError, ValueError, SyntaxError, EOFError):
            return None


def _webp(image: Image.Image, *, width: int) -> bytes:
    frames = _frames(image, keep_modes=("RGB", "RGBA"), convert_to="RGBA", width=width)
    return _encode(frames, "WEBP", _animation(image), quality=WEBP_QUALITY)


def _new_stem() -> str:
    return f"{UPLOAD_DIR}/{timezone.now():%Y%m%d%H%M%S}-{secrets.token_hex(8)}"


def _store(name: str, content: bytes) -> str:
    return default_storage.url(default_storage.save(name, ContentFile(content)))


def media_upload(*, user: User, file: File | None) -> StoredMedia:
    """Store a campaign cover and answer where it is.

    At most ``MEDIA_MAX_BYTES``; JPEG, PNG, GIF, MP4 or WebM by content, else FieldValidationError.
    Each user may try ``RATE_LIMIT_MEDIA_UPLOAD`` uploads (20 an hour), as each may cost seconds of work.
    """
    ratelimit.enforce(
        scope="media-upload",
        identifiers=[str(user.pk)],
        limit=settings.RATE_LIMIT_MEDIA_UPLOAD,
        message=_("Too many uploads. Please wait a while and try again."),
    )
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
            original, extension = _original(image)
            original_width = _stored_width(image)
            full_webp = _webp(image, width=original_width)
            renditions = [(width, _webp(image, width=width)) for width in IMAGE_WIDTHS]
        except (OSError, ValueError, SyntaxError, EOFError):  # a truncated or corrupt image fails only when decoded
            raise _wrong_type() from None
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
