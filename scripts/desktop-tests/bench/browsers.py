"""The browsers of the web benchmark and survey, started as the desktop tests start them
(Tests/SwitchDesktopTests/WebLiveTests.swift: WebBrowser.start)."""
import os, subprocess

def start_browser(name, url, profile, checker):
    """Starts Chromium or Firefox ESR on `url` with a fresh profile folder and waits until it is on
    the accessibility bus (atspi-check.py wait); its process."""
    os.makedirs(profile, exist_ok=True)
    if name == "Chromium":
        argv = ["chromium", "--no-sandbox", "--force-renderer-accessibility", "--no-first-run", "--disable-gpu",
                "--user-data-dir=" + profile, "--window-size=1600,900", url]
    else:
        argv = ["firefox-esr", "--no-remote", "--profile", profile, "--width", "1600", "--height", "900", url]
    p = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    subprocess.run([checker, "wait", name, "60"], capture_output=True, timeout=120)
    return p
