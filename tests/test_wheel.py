"""The wheel as a user gets it: built from this checkout, installed into a fresh virtual
environment, its two commands run from outside the checkout (a match, then its report), so that
a module or data file left out of the distribution fails here and not on a user's machine."""

from __future__ import annotations

import configparser
import os
import subprocess
import sys
import zipfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
DISTRIBUTION = "gtp-olympiad"  # "olympiad" on the package index is another project's


def run(argv: list[str], cwd: Path, env: dict[str, str] | None = None,
        timeout: float = 120) -> subprocess.CompletedProcess:
    done = subprocess.run(argv, cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=timeout)
    assert done.returncode == 0, f"{argv[:4]}: {done.returncode}\n{done.stdout}\n{done.stderr}"
    return done


def test_the_distribution_is_named_as_it_can_be_published():
    config = configparser.ConfigParser()
    config.read(REPO / "setup.cfg")
    assert config["metadata"]["name"] == DISTRIBUTION
    scripts = config["options.entry_points"]["console_scripts"]
    assert "olympiad-engine = " in scripts and "olympiad-referee = " in scripts


def test_the_installed_wheel_plays_a_match_and_writes_its_report(tmp_path):
    wheels = tmp_path / "wheels"
    run([sys.executable, "-m", "pip", "wheel", str(REPO), "--no-deps", "--quiet",
         "-w", str(wheels)], tmp_path)
    (wheel,) = wheels.glob("*.whl")
    assert wheel.name.startswith(DISTRIBUTION.replace("-", "_") + "-")
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
    for asset in ("report.css", "report.js", "play.css", "play.js"):
        assert f"referee/report/{asset}" in names
    venv = tmp_path / "venv"
    run([sys.executable, "-m", "venv", str(venv)], tmp_path)
    bin_dir = venv / "bin"
    run([str(bin_dir / "python"), "-m", "pip", "install", "--quiet",
         "--disable-pip-version-check", str(wheel)], tmp_path, timeout=300)
    # Outside the checkout, with nothing of it on the path: only the installed files count.
    env = {key: value for key, value in os.environ.items()
           if key not in ("PYTHONPATH", "VIRTUAL_ENV")}
    env["PATH"] = os.pathsep.join([str(bin_dir), env.get("PATH", "")])
    work = tmp_path / "work"
    work.mkdir()
    where = run([str(bin_dir / "python"), "-c", "import referee; print(referee.__file__)"],
                work, env).stdout
    assert where.startswith(str(venv))
    run([str(bin_dir / "olympiad-engine"), "--version"], work, env)
    run([str(bin_dir / "olympiad-referee"), "match", "--game", "breakthrough", "--boardsize",
         "5", "--engine", "olympiad-engine --algorithm random", "--engine",
         "olympiad-engine --algorithm random", "--games", "2", "--max-moves", "6",
         "--time", "10", "--out", "out"], work, env)
    out = work / "out"
    assert len((out / "results.jsonl").read_text().splitlines()) == 2
    assert len(list((out / "games").glob("*.sgf"))) == 2
    (out / "report.html").unlink()
    run([str(bin_dir / "olympiad-referee"), "report", "out"], work, env)
    page = (out / "report.html").read_text()
    for asset in ("report.css", "report.js"):  # inlined from the installed package's files
        assert (REPO / "referee/report" / asset).read_text() in page
