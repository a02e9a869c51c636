"""wirespeed.system.browser finds the Chromium the browser tests launch: the environment variable first,
never a snap wrapper, and a clear message when there is none."""

from __future__ import annotations

import subprocess
import sys

import pytest

from wirespeed.system import browser
def executable(path, text="#!/bin/sh\nexit 0\n"):
    path.write_text(text)
    path.chmod(0o755)
    return path


def test_the_environment_variable_comes_first(tmp_path, monkeypatch):
    chrome = executable(tmp_path / "my-chrome")
    monkeypatch.setenv(browser.ENV, str(chrome))
    assert browser.chromium_executable() == str(chrome)


def test_an_environment_variable_naming_no_executable_is_refused(tmp_path, monkeypatch):
    monkeypatch.setenv(browser.ENV, str(tmp_path / "missing"))
    with pytest.raises(browser.BrowserNotFound, match=f"{browser.ENV}=.*missing: not an executable file"):
        browser.chromium_executable()


def test_snap_wrappers_are_skipped_and_none_found_says_what_was_tried(tmp_path, monkeypatch):
    wrapper = executable(tmp_path / "chromium-browser", "#!/bin/sh\nexec /snap/bin/chromium \"$@\"\n")
    real = executable(tmp_path / "google-chrome")
    assert browser._is_snap(wrapper) and not browser._is_snap(real)
    monkeypatch.delenv(browser.ENV, raising=False)
    monkeypatch.setattr(browser, "FIXED", ())
    monkeypatch.setenv("PATH", str(tmp_path))
    assert browser.chromium_executable() == str(real)
    real.unlink()
    monkeypatch.setattr(browser, "_playwright_chromium", lambda: None)
    with pytest.raises(browser.BrowserNotFound, match="no Chromium found .*snap.*WIRESPEED_CHROMIUM"):
        browser.chromium_executable()


def test_the_command_prints_the_browser_the_tests_use():
    proc = subprocess.run([sys.executable, "-m", "wirespeed.system.browser"], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == browser.chromium_executable()
