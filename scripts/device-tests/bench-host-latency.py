#!/usr/bin/python3
"""Native latency of the live loop on this host, where no kernel input device can be made:
`switchscan run` reads an umockdev-emulated one-key switch (real libevdev, umockdev's LD_PRELOAD
in place of the kernel's evdev node), this script writes N presses into the node and times, with
one monotonic clock, each write against the arrival of its `filter … accepted` transcript line.

It complements bench-vm.sh (the real kernel, but under TCG emulation, 6-19× slower): here the
kernel's input layer is missing but the CPU is native, so the engine's and the loop's own cost
shows at its real size. The reader is a Python thread, so the numbers include its wakeup too.

usage: /usr/bin/python3 scripts/device-tests/bench-host-latency.py [--presses N] [--gap-ms MS] [--binary PATH]
Needs Debian's python3-gi and gir1.2-umockdev-1.0, and a built switchscan (release by default).
"""
import argparse, json, os, struct, subprocess, sys, tempfile, threading, time
import gi
gi.require_version("UMockdev", "1.0")
from gi.repository import UMockdev

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
FIX = os.path.join(ROOT, "Tests/SwitchInputTests/Fixtures/devices")
EV_KEY, EV_SYN, KEY_SPACE = 1, 0, 57

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--presses", type=int, default=1000)
    ap.add_argument("--gap-ms", type=float, default=20)
    ap.add_argument("--binary", default=os.path.join(ROOT, ".build/release/switchscan"))
    a = ap.parse_args()

    work = tempfile.mkdtemp(prefix="switchscan-host-latency.")
    profile = os.path.join(work, "profile.json")
    json.dump({"name": "latency", "scanning": {"style": "manual"},
               "switches": [{"key": "KEY_SPACE", "action": "next"}],
               "switchStabilization": {"debounce": 0}}, open(profile, "w"))
    tree = os.path.join(ROOT, "Sources/switchscan/Demo/demo-tree.json")

    tb = UMockdev.Testbed.new()
    tb.add_from_file(os.path.join(FIX, "switch.umockdev"))
    tb.load_ioctl("/dev/input/event2", os.path.join(FIX, "switch.ioctl"))
    env = dict(os.environ, LD_PRELOAD="libumockdev-preload.so.0", UMOCKDEV_DIR=tb.get_root_dir())
    p = subprocess.Popen([a.binary, "run", "--tree", tree, "--profile", profile, "--device", "/dev/input/event2",
                          "--format", "jsonl"], env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, bufsize=0)
    arrivals = []
    started = threading.Event()

    def reader():
        buf = b""
        while True:
            chunk = os.read(p.stdout.fileno(), 65536)
            if not chunk:
                return
            now = time.monotonic_ns()
            buf += chunk
            *lines, buf = buf.split(b"\n")
            for line in lines:
                if b'"type":"scan"' in line:
                    started.set()
                if b'"decision":"accepted"' in line:
                    arrivals.append(now)
    t = threading.Thread(target=reader, daemon=True)
    t.start()
    if not started.wait(30):
        sys.exit("switchscan did not start")
    time.sleep(0.5)
    fd = tb.get_dev_fd("/dev/input/event2")
    writes = []
    def ev(typ, code, value):
        now = time.time()
        return struct.pack("<qqHHi", int(now), int((now % 1) * 1e6), typ, code, value)
    for _ in range(a.presses):
        w = time.monotonic_ns()
        os.write(fd, ev(EV_KEY, KEY_SPACE, 1) + ev(EV_SYN, 0, 0))
        writes.append(w)
        time.sleep(a.gap_ms / 2000)
        os.write(fd, ev(EV_KEY, KEY_SPACE, 0) + ev(EV_SYN, 0, 0))
        time.sleep(a.gap_ms / 2000)
    deadline = time.time() + 10
    while len(arrivals) < a.presses and time.time() < deadline:
        time.sleep(0.05)
    p.terminate()
    p.wait(10)
    n = min(len(arrivals), len(writes))
    lat = sorted((arrivals[k] - writes[k]) / 1e6 for k in range(n))
    if not lat:
        sys.exit("no presses came back")
    pct = lambda q: lat[min(len(lat) - 1, int(q * len(lat)))]
    print("host (umockdev) latency, write → transcript line: %d/%d presses, p50 %.3f ms, p99 %.3f ms, max %.3f ms"
          % (n, a.presses, pct(0.50), pct(0.99), lat[-1]))

main()
