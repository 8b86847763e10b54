"""tools/fetch_web_deps.py: the pinned three.js is checked against the lock and unpacked."""

from __future__ import annotations

import base64
import hashlib
import importlib.util
import io
import json
import re
import tarfile
from pathlib import Path
from types import ModuleType

import pytest

from spieltisch.server.app import WEB_DIR

ROOT = Path(__file__).resolve().parents[2]


def load_tool() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "fetch_web_deps", ROOT / "tools" / "fetch_web_deps.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def tarball(files: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as archive:
        for path, data in files.items():
            info = tarfile.TarInfo(f"package/{path}")
            info.size = len(data)
            archive.addfile(info, io.BytesIO(data))
    return buffer.getvalue()


def test_three_is_pinned_exactly_with_its_integrity() -> None:
    tool = load_tool()
    declared = json.loads((ROOT / "package.json").read_text())["dependencies"]["three"]
    assert re.fullmatch(r"\d+\.\d+\.\d+", declared), "an exact version, no range"
    locked = tool.locked_packages()["three"]
    assert locked["version"] == declared
    assert locked["resolved"].startswith("https://registry.npmjs.org/three/-/three-")
    assert locked["integrity"].startswith("sha512-")


def test_a_tarball_must_match_the_lock() -> None:
    tool = load_tool()
    data = b"some bytes"
    good = "sha512-" + base64.b64encode(hashlib.sha512(data).digest()).decode()
    tool.check_integrity(data, good)
    with pytest.raises(SystemExit, match="does not match"):
        tool.check_integrity(data + b"!", good)
    with pytest.raises(SystemExit, match="sha512"):
        tool.check_integrity(data, "sha1-abc")


def test_unpacking_writes_only_the_wanted_files_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    tool = load_tool()
    monkeypatch.setattr(tool, "VENDOR", tmp_path)
    files = {path: f"// {path}".encode() for path in tool.WANTED["three"]}
    tool.unpack("three", "1.2.3", tarball({**files, "src/other.js": b"not wanted"}))
    assert tool.is_current("three", "1.2.3") and not tool.is_current("three", "1.2.4")
    assert not (tmp_path / "three" / "src").exists()
    assert (tmp_path / "three" / "build" / "three.module.js").read_bytes().startswith(b"//")


def test_the_import_map_points_at_the_unpacked_files() -> None:
    tool = load_tool()
    page = (WEB_DIR / "index.html").read_text(encoding="utf-8")
    imports = json.loads(re.search(r'type="importmap">(.*?)</script>', page, re.S).group(1))  # type: ignore[union-attr]
    module = imports["imports"]["three"].removeprefix("/vendor/three/")
    assert module in tool.WANTED["three"]
    assert "examples/jsm/controls/OrbitControls.js" in tool.WANTED["three"]
    assert imports["imports"]["three/addons/"] == "/vendor/three/examples/jsm/"
