"""The Python half of `make install` on a fresh machine: a new virtual environment, then the hashed lock
(backend/requirements-dev.txt) installed by pip alone (as before) and by uv, which pip installs first (as
`make install` does now). Each way RUNS times (default 3), alternating, with the package caches warm as on a
machine that has installed them once; the medians and their ratio go to bench/results/install.json."""

import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from support import BACKEND, RESULTS_DIR

RUNS = int(os.environ.get("RUNS", "3"))
LOCK = BACKEND / "requirements-dev.txt"
INSTALLER = BACKEND / "requirements-install.txt"


def fresh_venv(folder: Path) -> Path:
    subprocess.run([sys.executable, "-m", "venv", str(folder)], check=True)
    return folder / "bin"


def with_pip(folder: Path) -> None:
    pip = fresh_venv(folder) / "pip"
    subprocess.run([str(pip), "install", "--quiet", "--require-hashes", "-r", str(LOCK)], check=True)


def with_uv(folder: Path) -> None:
    bin_dir = fresh_venv(folder)
    subprocess.run([str(bin_dir / "pip"), "install", "--quiet", "--require-hashes", "-r", str(INSTALLER)], check=True)
    uv = [str(bin_dir / "uv"), "pip", "install", "--quiet", "--python", str(bin_dir / "python")]
    subprocess.run([*uv, "--require-hashes", "-r", str(LOCK)], check=True)


def main() -> None:
    seconds: dict[str, list[float]] = {"pip": [], "pip, then uv": []}
    for _ in range(RUNS):
        for name, install in (("pip", with_pip), ("pip, then uv", with_uv)):
            folder = Path(tempfile.mkdtemp(prefix="bench-install-"))
            try:
                started = time.perf_counter()
                install(folder / "venv")
                seconds[name].append(round(time.perf_counter() - started, 1))
            finally:
                shutil.rmtree(folder)
    medians = {name: statistics.median(times) for name, times in seconds.items()}
    result = {
        "benchmark": "a fresh virtual environment and the hashed lock requirements-dev.txt (caches warm)",
        "runs": RUNS,
        "seconds": seconds,
        "median_seconds": medians,
        "ratio_pip_to_uv": round(medians["pip"] / medians["pip, then uv"], 1),
    }
    (RESULTS_DIR / "install.json").write_text(json.dumps(result, indent=1) + "\n")
    print(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()
