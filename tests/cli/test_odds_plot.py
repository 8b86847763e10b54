"""`spieltisch pickomino odds --plot FILE`: the odds table as a PNG or SVG chart."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("matplotlib")

from spieltisch.cli.main import main


def test_odds_plot_writes_png_and_svg(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    png, svg = tmp_path / "odds.png", tmp_path / "charts" / "odds.svg"
    assert main(["pickomino", "odds", "--grill", "21-26", "--plot", str(png)]) == 0
    assert " 21 " in capsys.readouterr().out  # the table is printed as before
    assert png.read_bytes().startswith(b"\x89PNG")
    assert main(["pickomino", "odds", "--grill", "21-26", "--plot", str(svg), "--json"]) == 0
    assert "<svg" in svg.read_text()


def test_odds_plot_names_the_allowed_file_types(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["pickomino", "odds", "--grill", "21", "--plot", str(tmp_path / "x.pdf")]) == 2
    assert "must end in .png or .svg" in capsys.readouterr().err
