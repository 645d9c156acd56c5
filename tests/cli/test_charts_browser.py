#!/usr/bin/python3
"""tests/cli/test_charts_browser.py — the SVG charts of `alea stats --svg`, as a browser draws them.

For each case of tests/cli/charts/cases.txt (NAME: the words after `alea stats`), alea writes the
chart, headless Chromium takes a screenshot of it at the chart's own size, and the screenshot is
compared with the reference tests/cli/charts/NAME.png, pixel by pixel. The structure of the charts
(curves, legends, axis titles, tooltips) is checked in test_stats.py and test_compare.py; this test
sees what a user sees: that the chart renders at all, and that nothing moved, overlapped or went
off the canvas.

Tolerance: both images are halved (each pixel the mean of a 2x2 block), and a pixel differs when
one of its channels differs by more than 48 of 255; they match when at most 100 pixels differ.
Halving averages away the antialiasing of an edge, which may shift by a step between Chromium's
versions; a missing legend or curve, a moved axis, another font, or text a few characters longer
changes hundreds of halved pixels (removing one small legend from a panel changed 412).

A failure writes the screenshot and a difference image (the differing pixels in red) to
`chart-screenshots/` next to the alea program. After a deliberate change to the charts, look at
them, then rewrite the references:

    ALEA_UPDATE_CHART_REFERENCES=1 /usr/bin/python3 tests/cli/test_charts_browser.py build/cli/alea

Needs Debian's chromium, python3-pil and fonts-dejavu-core (ALEA_BROWSER_PACKAGES in
scripts/setup.sh, which scripts/test installs); without them it fails and says so, never skips.

Usage: /usr/bin/python3 test_charts_browser.py /path/to/alea
"""
import os
import shutil
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from clitest import ALEA, check, finish, run  # noqa: E402

HERE = Path(__file__).resolve().parent / "charts"
CHROMIUM = "/usr/bin/chromium"
CHANNEL_STEP = 48
MAX_DIFFERING = 100
UPDATE = os.environ.get("ALEA_UPDATE_CHART_REFERENCES") == "1"

try:
    from PIL import Image, ImageChops
except ImportError:
    print("test_charts_browser: FAIL: no PIL module (Debian: python3-pil; scripts/test installs it)")
    sys.exit(1)
if not os.access(CHROMIUM, os.X_OK):
    print(f"test_charts_browser: FAIL: no {CHROMIUM} (Debian: chromium; scripts/test installs it)")
    sys.exit(1)


def ok(name, cond, detail=""):
    """check(), returning whether it held."""
    check(name, cond, detail)
    return cond


def cases():
    """(name, words) of each line of cases.txt."""
    out = []
    for line in (HERE / "cases.txt").read_text().splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        name, words = line.split(":", 1)
        out.append((name.strip(), words.split()))
    return out


def screenshot(svg, png, profile):
    """Chromium's screenshot of the SVG file at the size its root declares."""
    root = ET.parse(svg).getroot()
    width, height = int(float(root.get("width"))), int(float(root.get("height")))
    # No network, no first-run work, no background services: the machine has no network, and
    # Chromium would otherwise try to reach its servers at each start.
    args = [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
            "--disable-background-networking", "--disable-component-update", "--disable-sync",
            "--hide-scrollbars", "--force-device-scale-factor=1", f"--user-data-dir={profile}",
            f"--window-size={width},{height}", f"--screenshot={png}", Path(svg).as_uri()]
    p = subprocess.run(args, capture_output=True, text=True, timeout=120)
    if p.returncode != 0 or not os.path.exists(png):
        raise RuntimeError(f"chromium exited {p.returncode}: {p.stderr[-800:]}")
    return width, height


def differing(actual, reference):
    """How many pixels of the halved images differ by more than CHANNEL_STEP in a channel, and a
    full-size mask of where."""
    red, green, blue = ImageChops.difference(actual.reduce(2), reference.reduce(2)).split()
    largest = ImageChops.lighter(ImageChops.lighter(red, green), blue)  # each pixel's largest channel
    mask = largest.point(lambda v: 255 if v > CHANNEL_STEP else 0)
    count = sum(1 for v in mask.getdata() if v)
    return count, mask.resize(actual.size)


def main():
    failed_dir = Path(ALEA).resolve().parent / "chart-screenshots"
    with tempfile.TemporaryDirectory() as tmp:
        for name, words in cases():
            svg = os.path.join(tmp, name + ".svg")
            rc, _, err = run(["stats"] + words + ["--svg", svg])
            if not ok(f"{name}: alea stats {' '.join(words)} --svg", rc == 0, err[-400:]):
                continue
            png = os.path.join(tmp, name + ".png")
            try:
                width, height = screenshot(svg, png, os.path.join(tmp, "profile-" + name))
            except (RuntimeError, subprocess.TimeoutExpired) as e:
                check(f"{name}: chromium draws it", False, str(e))
                continue
            actual = Image.open(png).convert("RGB")
            ok(f"{name}: the screenshot is the chart's size", actual.size == (width, height),
                  f"{actual.size} against {(width, height)}")
            reference_path = HERE / (name + ".png")
            if UPDATE:
                actual.save(reference_path, optimize=True)
                print(f"{name}: wrote {reference_path}")
                continue
            if not ok(f"{name}: a reference exists", reference_path.exists(),
                         f"no {reference_path}; write it with ALEA_UPDATE_CHART_REFERENCES=1"):
                continue
            reference = Image.open(reference_path).convert("RGB")
            if not ok(f"{name}: the same size as the reference", reference.size == actual.size,
                         f"{actual.size} against the reference's {reference.size}"):
                continue
            count, mask = differing(actual, reference)
            if not ok(f"{name}: matches the reference", count <= MAX_DIFFERING,
                      f"{count} halved pixels differ (at most {MAX_DIFFERING}); see {failed_dir}"):
                failed_dir.mkdir(exist_ok=True)
                shutil.copy(png, failed_dir / (name + ".png"))
                red = Image.new("RGB", actual.size, (255, 0, 0))
                Image.composite(red, actual.convert("L").convert("RGB"), mask).save(failed_dir / (name + ".diff.png"))
    finish("test_charts_browser")


main()
