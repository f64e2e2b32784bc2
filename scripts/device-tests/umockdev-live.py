#!/usr/bin/python3
"""Drive a program against emulated evdev nodes, live, from a scenario (umockdev's GI API):
events are written when the scenario says (stamped with CLOCK_REALTIME now, like a kernel
without EVIOCSCLOCKID), devices can be removed and added back mid-run, and signals sent.
Adapted from shared/tools/umockdev_live.py; owned by this project.

usage: /usr/bin/python3 umockdev-live.py --device X.umockdev [--device …] \
           --ioctl /dev/input/eventN=X.ioctl [--ioctl …] --scenario FILE [--log FILE] [--tee FILE] -- prog args…

--log FILE: one line per event written, "<CLOCK_REALTIME stamp, s> <node> <type> <code> <value>":
the times the events really have (a loaded machine writes them later than the scenario says).
--tee FILE: the program's stdout lines also go to FILE as they come, for a watcher beside the
run (a test that acts when the run has said something).

Scenario lines (# comments):
  wait <text>                  until the program printed a line containing <text> (stdout or stderr; 30 s)
  mark                         where `expect` starts looking
  expect <regex>               until the program printed, since the last `mark`, a line matching <regex> (30 s)
  settle                       until the program printed a switch-filter line ("type":"filter") for every
                               press written so far (30 s): it has read them all (before a signal that
                               ends it, or a check of what the presses did)
  waitfile <path> <regex>      until the file's whole text matches <regex> (30 s): a watcher beside the
                               program saw something, or the program wrote what the test waits for
  sleep <ms>
  event <node> <type> <code> <value>   one struct input_event (names from input-event-codes.h or numbers)
  press <node> <KEY> / release <node> <KEY> / repeat <node> <KEY>   EV_KEY 1/0/2 + SYN_REPORT
  remove <sysfs path>          Testbed.remove_device (the node disappears)
  add <X.umockdev> <node>=<X.ioctl>   add a device again
  signal INT|TERM|HUP|STOP|CONT
  copy <src> <dst>             copy a file (e.g. a new tree before a SIGHUP)
The program's stdout and stderr are passed through; the exit status is the program's (124 when it
has not ended 20 s after the scenario).
Must run with Debian's /usr/bin/python3 (python3-gi, gir1.2-umockdev-1.0).
"""
import argparse, os, re, signal, struct, subprocess, sys, threading, time
import gi
gi.require_version("UMockdev", "1.0")
from gi.repository import UMockdev

CODES = {}
for line in open("/usr/include/linux/input-event-codes.h"):
    m = re.match(r"#define\s+(\w+)\s+(0x[0-9a-fA-F]+|\d+)\b", line)
    if m:
        CODES[m.group(1)] = int(m.group(2), 0)

def num(x):
    return CODES[x] if x in CODES else int(x, 0)

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--device", action="append", default=[])
    ap.add_argument("--ioctl", action="append", default=[])
    ap.add_argument("--scenario", required=True)
    ap.add_argument("--log")
    ap.add_argument("--tee")
    ap.add_argument("cmd", nargs=argparse.REMAINDER)
    a = ap.parse_args()
    cmd = a.cmd[1:] if a.cmd and a.cmd[0] == "--" else a.cmd

    tb = UMockdev.Testbed.new()
    for d in a.device:
        tb.add_from_file(d)
    for spec in a.ioctl:
        dev, f = spec.split("=", 1)
        tb.load_ioctl(dev, f)
    env = dict(os.environ)
    env["LD_PRELOAD"] = "libumockdev-preload.so.0" + (":" + env["LD_PRELOAD"] if env.get("LD_PRELOAD") else "")
    env["UMOCKDEV_DIR"] = tb.get_root_dir()
    p = subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, bufsize=1)
    seen = []
    cond = threading.Condition()
    tee = open(a.tee, "w", buffering=1) if a.tee else None

    def pump(stream, out):
        for line in stream:
            out.write(line)
            out.flush()
            if tee and out is sys.stdout:
                tee.write(line)
            with cond:
                seen.append(line)
                cond.notify_all()
        with cond:
            seen.append(None)
            cond.notify_all()
    threads = [threading.Thread(target=pump, args=(p.stdout, sys.stdout), daemon=True),
               threading.Thread(target=pump, args=(p.stderr, sys.stderr), daemon=True)]
    for t in threads:
        t.start()

    log = open(a.log, "w", buffering=1) if a.log else None

    def write(node, typ, code, val):
        now = time.time()
        sec, usec = int(now), int((now % 1) * 1e6)
        os.write(tb.get_dev_fd(node), struct.pack("<qqHHi", sec, usec, typ, code, val))
        if log:
            log.write("%d.%06d %s %d %d %d\n" % (sec, usec, node, typ, code, val))

    mark = 0
    presses = 0
    for raw in open(a.scenario):
        words = raw.split("#", 1)[0].split()
        if not words:
            continue
        op, args = words[0], words[1:]
        if op == "wait":
            text = " ".join(args)
            with cond:
                ok = cond.wait_for(lambda: any(l is not None and text in l for l in seen) or seen.count(None) == 2, 30)
            if not ok or not any(l is not None and text in l for l in seen):
                print("umockdev-live: never saw %r" % text, file=sys.stderr)
        elif op == "mark":
            with cond:
                mark = len(seen)
        elif op == "expect":
            pattern = re.compile(raw.split("#", 1)[0].strip()[len("expect"):].strip())
            found = lambda: any(l is not None and pattern.search(l) for l in seen[mark:])
            with cond:
                ok = cond.wait_for(lambda: found() or seen.count(None) == 2, 30)
            if not ok or not found():
                print("umockdev-live: never saw a line matching %r" % pattern.pattern, file=sys.stderr)
        elif op == "settle":
            filtered = lambda: sum(1 for l in seen if l is not None and '"type":"filter"' in l)
            with cond:
                ok = cond.wait_for(lambda: filtered() >= presses or seen.count(None) == 2, 30)
            if not ok or filtered() < presses:
                print("umockdev-live: the program read %d of the %d presses" % (filtered(), presses), file=sys.stderr)
        elif op == "waitfile":
            path = args[0]
            pattern = re.compile(raw.split("#", 1)[0].strip()[len("waitfile"):].strip()[len(path):].strip())
            text = pattern.pattern
            end = time.time() + 30
            def holds():
                try:
                    return pattern.search(open(path).read()) is not None
                except OSError:
                    return False
            while not holds() and time.time() < end:
                time.sleep(0.02)
            if not holds():
                print("umockdev-live: %s never held %r" % (path, text), file=sys.stderr)
        elif op == "sleep":
            time.sleep(float(args[0]) / 1000.0)
        elif op == "event":
            write(args[0], num(args[1]), num(args[2]), int(args[3], 0))
        elif op in ("press", "release", "repeat"):
            value = {"press": 1, "release": 0, "repeat": 2}[op]
            presses += 1 if value == 1 else 0
            write(args[0], CODES["EV_KEY"], num(args[1]), value)
            write(args[0], 0, 0, 1 if value == 2 else 0)
        elif op == "remove":
            tb.remove_device(args[0])
        elif op == "add":
            tb.add_from_file(args[0])
            dev, f = args[1].split("=", 1)
            tb.load_ioctl(dev, f)
        elif op == "signal":
            p.send_signal(getattr(signal, "SIG" + args[0]))
        elif op == "copy":
            with open(args[0], "rb") as src, open(args[1] + ".tmp", "wb") as dst:
                dst.write(src.read())
            os.replace(args[1] + ".tmp", args[1])
        else:
            print("umockdev-live: unknown scenario line: " + raw.strip(), file=sys.stderr)
            p.kill()
            sys.exit(2)
    try:
        rc = p.wait(20)
    except subprocess.TimeoutExpired:
        p.kill()
        rc = 124
    for t in threads:
        t.join(5)
    sys.exit(rc)

if __name__ == "__main__":
    main()
