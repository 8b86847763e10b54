#!/usr/bin/env python3
"""Fetch the web client's browser modules (three.js; axe-core for the browser tests' accessibility
checks) from the npm registry, without node.

Reads package-lock.json, downloads each needed package tarball from its `resolved` URL,
checks it against the lock's `integrity` (sha512), and unpacks only the ES module files the
client imports into src/spieltisch/web/vendor/ (git-ignored; the server serves it, an import
map in index.html points at it). Idempotent: a package whose files are present with the
locked version stamp is skipped. Standard library only.

    python tools/fetch_web_deps.py [--force]
"""

from __future__ import annotations

import argparse
import base64
import hashlib
import io
import json
import sys
import tarfile
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LOCK = ROOT / "package-lock.json"
VENDOR = ROOT / "src" / "spieltisch" / "web" / "vendor"

WANTED = {
    "three": (
        "LICENSE",
        "build/three.module.js",
        "build/three.core.js",
        "examples/jsm/controls/OrbitControls.js",
    ),
    "axe-core": ("LICENSE", "axe.min.js"),  # accessibility checks of the browser tests
}
"""Per package: the files (paths inside the package) the web client needs."""

STAMP = ".version"
TIMEOUT = 60


def locked_packages(lock_path: Path = LOCK) -> dict[str, dict[str, str]]:
    """Name -> {'version', 'resolved', 'integrity'} of every wanted package in the lock."""
    lock = json.loads(lock_path.read_text(encoding="utf-8"))
    found = {}
    for name in WANTED:
        entry = lock.get("packages", {}).get(f"node_modules/{name}")
        if not entry or not all(k in entry for k in ("version", "resolved", "integrity")):
            raise SystemExit(f"{lock_path.name} has no complete entry for '{name}'")
        found[name] = {k: entry[k] for k in ("version", "resolved", "integrity")}
    return found


def check_integrity(data: bytes, integrity: str) -> None:
    """Raise unless `data` matches the lock's Subresource-Integrity string (sha512)."""
    algorithm, _, expected = integrity.partition("-")
    if algorithm != "sha512":
        raise SystemExit(f"unsupported integrity algorithm '{algorithm}' (expected sha512)")
    actual = base64.b64encode(hashlib.sha512(data).digest()).decode("ascii")
    if actual != expected:
        raise SystemExit("the downloaded tarball does not match the lock's integrity; not unpacked")


def is_current(name: str, version: str) -> bool:
    target = VENDOR / name
    stamp = target / STAMP
    present = all((target / path).is_file() for path in WANTED[name])
    return present and stamp.is_file() and stamp.read_text(encoding="utf-8").strip() == version


def unpack(name: str, version: str, data: bytes) -> None:
    """Write the wanted files of the tarball (entries are under 'package/')."""
    target = VENDOR / name
    with tarfile.open(fileobj=io.BytesIO(data), mode="r:gz") as archive:
        for path in WANTED[name]:
            member = archive.extractfile(f"package/{path}")
            if member is None:
                raise SystemExit(f"{name}@{version} has no file {path}")
            out = target / path
            out.parent.mkdir(parents=True, exist_ok=True)
            out.write_bytes(member.read())
    (target / STAMP).write_text(version + "\n", encoding="utf-8")


def download(url: str) -> bytes:
    if not url.startswith("https://registry.npmjs.org/"):
        raise SystemExit(f"refusing to download from {url}: only registry.npmjs.org is used")
    with urllib.request.urlopen(url, timeout=TIMEOUT) as response:
        data: bytes = response.read()
    return data


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--force", action="store_true", help="fetch even when present")
    args = parser.parse_args(argv)
    for name, entry in locked_packages().items():
        if not args.force and is_current(name, entry["version"]):
            continue
        print(f"fetching {name}@{entry['version']} for the web client", file=sys.stderr)
        data = download(entry["resolved"])
        check_integrity(data, entry["integrity"])
        unpack(name, entry["version"], data)
    return 0


if __name__ == "__main__":
    sys.exit(main())
