"""A switch pressed by the benchmark as it reads the transcript (web-inside.py's scroll and page-change
steps): `switchscan run --desktop --app APP` on an emulated keyboard (umockdev's GI API, as
scripts/device-tests/umockdev-live.py), its JSONL lines and traced stderr read as they come, and
each press written only once the line it waits for came, so the presses never lose step with the
highlight however slow the page is. Needs Debian's /usr/bin/python3 (gir1.2-umockdev-1.0)."""
import json, os, re, struct, subprocess, threading, time
import gi
gi.require_version("UMockdev", "1.0")
from gi.repository import UMockdev

EV_KEY, KEYS = 1, {"SPACE": 57, "ENTER": 28, "M": 50, "ESC": 1}
NODE = "/dev/input/event10"

class LiveSwitch:
    def __init__(self, switchscan, app, profile, devices, trace=True):
        self.tb = UMockdev.Testbed.new()
        self.tb.add_from_file(devices + "/keyboard.umockdev")
        self.tb.load_ioctl(NODE, devices + "/keyboard.ioctl")
        env = dict(os.environ)
        env["LD_PRELOAD"] = "libumockdev-preload.so.0" + (":" + env["LD_PRELOAD"] if env.get("LD_PRELOAD") else "")
        env["UMOCKDEV_DIR"] = self.tb.get_root_dir()
        if trace:
            env["SWITCHSCAN_DESKTOP_TRACE"] = "1"
        self.lines, self.err = [], []
        self.last = 0.0
        self.times = []
        self.cond = threading.Condition()
        self.p = subprocess.Popen([switchscan, "run", "--desktop", "--app", app, "--profile", profile, "--format", "jsonl", "--no-show"],
                                  env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, bufsize=1)
        threading.Thread(target=self._read, args=(self.p.stdout, True), daemon=True).start()
        threading.Thread(target=self._read, args=(self.p.stderr, False), daemon=True).start()

    def _read(self, stream, jsonl):
        for line in stream:
            with self.cond:
                if jsonl:
                    try:
                        self.lines.append(json.loads(line))
                        self.times.append(time.monotonic())
                    except ValueError:
                        pass
                else:
                    self.err.append((time.monotonic(), line))
                self.cond.notify_all()

    # The profile's debounce rejects a press that comes sooner than this after the last one.
    GAP = 0.15

    def press(self, key):
        """A press and a release of KEY (SPACE moves, ENTER selects, M opens the menu), at least
        GAP s after the last one."""
        time.sleep(max(0.0, self.last + self.GAP - time.monotonic()))
        fd = self.tb.get_dev_fd(NODE)
        for value in (1, 0):
            now = time.time()
            stamp = (int(now), int((now % 1) * 1e6))
            os.write(fd, struct.pack("<qqHHi", stamp[0], stamp[1], EV_KEY, KEYS[key], value))
            os.write(fd, struct.pack("<qqHHi", stamp[0], stamp[1], 0, 0, 0))
            time.sleep(0.02)
        self.last = time.monotonic()

    def err_time(self, index):
        """The monotonic time at which JSONL line `index` was read (the clock `err` and `wait_err` use)."""
        with self.cond:
            return self.times[index] if index < len(self.times) else time.monotonic()

    def mark(self):
        """Where the lines written from now on start."""
        with self.cond:
            return len(self.lines)

    def wait(self, pred, since, timeout=10):
        """The first line from index `since` on that `pred` accepts, as (index, line); None after `timeout` s."""
        end = time.monotonic() + timeout
        k = since
        with self.cond:
            while True:
                while k < len(self.lines):
                    if pred(self.lines[k]):
                        return k, self.lines[k]
                    k += 1
                left = end - time.monotonic()
                if left <= 0 or self.p.poll() is not None:
                    return None
                self.cond.wait(left)

    def wait_err(self, pattern, since=0.0, timeout=60):
        """The first traced stderr line (after monotonic time `since`) that regex `pattern` finds."""
        end = time.monotonic() + timeout
        with self.cond:
            while True:
                for t, l in self.err:
                    if t >= since and re.search(pattern, l):
                        return t, l
                left = end - time.monotonic()
                if left <= 0 or self.p.poll() is not None:
                    return None
                self.cond.wait(min(left, 0.5))

    def press_and_wait(self, key, pred, timeout=10):
        """Presses KEY, then waits for the first line after it that `pred` accepts."""
        since = self.mark()
        self.press(key)
        return self.wait(pred, since, timeout)

    def stop(self):
        self.p.send_signal(2)
        try:
            self.p.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.p.kill()
            self.p.wait()
