"""The HTML report of assay.report (what Jupyter shows through _repr_html_) loaded in headless
Chromium: it renders, shows the headline numbers and logs nothing on the console. A negative
control proves the console check can fail."""

import shutil
import subprocess

import numpy as np
import pytest

import assay

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="headless Chromium is not installed")


def load(page, tmp_path):
    profile = tmp_path / "profile"
    run = subprocess.run(
        [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync", "--disable-default-apps",
         "--enable-logging=stderr", "--v=0", f"--user-data-dir={profile}", "--dump-dom", f"file://{page}"],
        capture_output=True, text=True, timeout=120)
    console = [line for line in run.stderr.splitlines() if ":CONSOLE" in line or "Uncaught" in line]
    return run.returncode, run.stdout, console


def test_report_page_renders_without_console_messages(tmp_path, rng):
    y = rng.integers(0, 2, 500)
    r = assay.report(y, y_score=y * 0.5 + rng.random(500), ci=0.95)
    page = tmp_path / "report.html"
    r.save_html(page)
    assert page.read_text() == r._repr_html_()
    status, dom, console = load(page, tmp_path)
    assert status == 0
    assert console == []
    assert "ROC AUC" in dom and "<svg" in dom


def test_console_check_can_fail(tmp_path):
    page = tmp_path / "bad.html"
    page.write_text("<!doctype html><html><body><script>console.log('negative control')</script></body></html>")
    _, _, console = load(page, tmp_path)
    assert any("negative control" in line for line in console)


def test_sliced_report_page_renders_without_console_messages(tmp_path, rng):
    y = rng.integers(0, 2, 600)
    region = np.array(["north", "south", "east"])[rng.integers(0, 3, 600)]
    r = assay.report(y, y_score=y * 0.5 + rng.random(600), ci=0.95, by=region)
    page = tmp_path / "sliced.html"
    r.save_html(page)
    status, dom, console = load(page, tmp_path)
    assert status == 0
    assert console == []
    assert "ROC AUC by slice" in dom and dom.count("<svg") == 7
