"""Benchmark: what one cover upload costs (POST /api/media's work, campaigns/uploads.py).

Times and peak memory of the largest uploads the rules allow (a 16 MP photo of noise, the worst case for
every encoder; 100 frames of 400 x 400 noise), and of refusing the GIF bomb (50 frames of 2000 x 2000,
refused from its header). Each upload runs in a fresh interpreter, whose peak resident memory above what
it held before the upload is reported. Goal: the bomb refused within 2 s; every upload under 200 MB.

    .venv/bin/python bench/media_uploads.py

Writes bench/results/media_uploads.json. Not part of ``make test``; ``make bench`` runs it.
"""

import io
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from support import BACKEND, RESULTS_DIR

RESULTS = RESULTS_DIR / "media_uploads.json"
GOAL_REFUSAL_SECONDS = 2.0
GOAL_PEAK_MB = 200


def inputs(directory: Path) -> dict[str, Path]:
    from PIL import Image

    photo = io.BytesIO()
    Image.effect_noise((4000, 4000), 60).convert("RGB").save(photo, "JPEG")
    frames = [
        Image.effect_noise((400, 400), 60 + index).convert("RGB")
        for index in range(100)
    ]
    animation = io.BytesIO()
    frames[0].save(animation, "GIF", save_all=True, append_images=frames[1:])
    # The bomb: one 2000 x 2000 frame written 50 times (as backend/campaigns/tests/test_media.py builds it).
    single = io.BytesIO()
    Image.new("P", (2000, 2000), 1).save(single, "GIF")
    one = single.getvalue()
    header = 13 + (3 * 2 ** ((one[10] & 7) + 1) if one[10] & 0x80 else 0)
    bomb = one[:header] + one[header:-1] * 50 + b";"
    files = {
        "16 MP photo (JPEG, noise)": photo.getvalue(),
        "100 frames of 400 x 400 (GIF, noise)": animation.getvalue(),
        "GIF bomb: 50 frames of 2000 x 2000 (refused)": bomb,
    }
    paths = {}
    for index, (name, content) in enumerate(files.items()):
        paths[name] = directory / f"{index}.bin"
        paths[name].write_bytes(content)
    return paths


def upload_once(path: str) -> None:
    """In the child: one upload through the service, as the endpoint calls it."""
    sys.path.insert(0, str(BACKEND))
    os.environ["DJANGO_SETTINGS_MODULE"] = "config.settings_test"
    import django

    django.setup()
    from accounts.models import User
    from campaigns import uploads
    from common.errors import ServiceError
    from django.core.files.uploadedfile import SimpleUploadedFile

    upload = SimpleUploadedFile("upload", Path(path).read_bytes())
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    started = time.perf_counter()
    try:
        uploads.media_upload(user=User(pk=1), file=upload)
        outcome = "stored"
    except ServiceError as error:
        outcome = f"refused: {error.message}"
    seconds = time.perf_counter() - started
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(
        json.dumps(
            {
                "seconds": round(seconds, 2),
                "peak_mb": round((peak - before) / 1024),
                "outcome": outcome,
            }
        )
    )


def main() -> None:
    results = {}
    with tempfile.TemporaryDirectory() as directory:
        for name, path in inputs(Path(directory)).items():
            answer = subprocess.run(
                [sys.executable, __file__, "--one", str(path)],
                capture_output=True,
                text=True,
                check=True,
            )
            results[name] = {
                "bytes": path.stat().st_size,
                **json.loads(answer.stdout.strip().splitlines()[-1]),
            }
            print(name, results[name])
    RESULTS.write_text(
        json.dumps(
            {
                "goal": f"bomb refused within {GOAL_REFUSAL_SECONDS} s; each upload under {GOAL_PEAK_MB} MB",
                "machine": f"{os.cpu_count()} CPUs",
                "uploads": results,
            },
            indent=2,
        )
        + "\n"
    )


if __name__ == "__main__":
    if sys.argv[1:2] == ["--one"]:
        upload_once(sys.argv[2])
    else:
        main()
