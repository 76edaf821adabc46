"""Helpers of the wizard, draft and media tests: subscribers and real image files."""

import io
from datetime import timedelta
from typing import Any

from django.utils import timezone
from PIL import ExifTags, Image

from accounts.models import User
from payments.models import Payment, Subscription

# Nairobi, more or less.
GPS_LATITUDE = (1.0, 17.0, 30.0)
GPS_LONGITUDE = (36.0, 49.0, 12.0)


def make_subscriber(user: User) -> Subscription:
    """A paid subscription covering today: the user has_paid."""
    payment = Payment.objects.create(
        provider=Payment.Provider.CARD,
        purpose=Payment.Purpose.SUBSCRIPTION,
        amount=2500,
        user=user,
        status=Payment.Status.SUCCEEDED,
    )
    now = timezone.now()
    return Subscription.objects.create(
        user=user, payment=payment, starts_at=now - timedelta(days=1), ends_at=now + timedelta(days=30)
    )


def gps_exif() -> Image.Exif:
    exif = Image.Exif()
    exif[ExifTags.Base.Make] = "PhoneMaker"
    exif[ExifTags.Base.Orientation] = 1
    gps = exif.get_ifd(ExifTags.IFD.GPSInfo)
    gps[ExifTags.GPS.GPSLatitudeRef] = "S"
    gps[ExifTags.GPS.GPSLatitude] = GPS_LATITUDE
    gps[ExifTags.GPS.GPSLongitudeRef] = "E"
    gps[ExifTags.GPS.GPSLongitude] = GPS_LONGITUDE
    return exif


def image_bytes(file_format: str = "PNG", size: tuple[int, int] = (64, 48), **save: Any) -> bytes:
    mode = "RGB" if file_format == "JPEG" else "RGBA"
    image = Image.new(mode, size, (200, 30, 30) if mode == "RGB" else (200, 30, 30, 255))
    image.paste((20, 120, 200), (0, 0, size[0] // 2, size[1] // 2))  # a corner, to see rotations
    buffer = io.BytesIO()
    image.save(buffer, file_format, **save)
    return buffer.getvalue()


def animated_gif_bytes(frames: int = 3) -> bytes:
    # Consecutive frames differ (the GIF encoder merges equal ones).
    colours = [(60 * index % 256, (200 - 60 * index) % 256, 90) for index in range(frames)]
    images = [Image.new("RGB", (40, 30), colour) for colour in colours]
    buffer = io.BytesIO()
    images[0].save(buffer, "GIF", save_all=True, append_images=images[1:], duration=120, loop=0)
    return buffer.getvalue()
