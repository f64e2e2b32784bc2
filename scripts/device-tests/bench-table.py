#!/usr/bin/env python3
"""bench-table.py RAW: the "BENCH key=value" lines of bench-vm.sh as Markdown tables.

A line is "BENCH [group] key=value key=value …" (values may be "quoted"); a bare first word names
the group ("BENCH latency_evtest presses=1000 …"), otherwise the keys are global.
"""
import shlex
import sys


def parse(path):
    groups, glob = {}, {}
    for line in open(path, encoding="utf-8", errors="replace"):
        if not line.startswith("BENCH "):
            continue
        words = shlex.split(line[6:].strip())
        target = glob
        if words and "=" not in words[0]:
            target = groups.setdefault(words[0], {})
            words = words[1:]
        for w in words:
            if "=" in w:
                k, v = w.split("=", 1)
                target[k] = v
    return groups, glob


def main():
    groups, g = parse(sys.argv[1])
    get = lambda grp, key: groups.get(grp, {}).get(key, "n/a")
    readers = [("switchscan", "switchscan run"), ("evtest", "evtest"), ("libevdev_loop", "bare libevdev loop")]
    print(f"Run {g.get('date', '?')} at {g.get('commit', '?')}: {g.get('presses', '?')} presses {g.get('gap_ms', '?')} ms apart "
          f"({g.get('rounds', '?')} rounds, the readers taking turns); "
          f"a 1 kHz touch stream of {g.get('stream_seconds', '?')} s per reader and round; {g.get('idle_seconds', '?')} s idle.")
    print(f"Host: {g.get('host_cpu', '?')} ({g.get('host_cpus', '?')} cores), {g.get('qemu', '?')}, TCG, -M {g.get('machine', '?')}. "
          f"VM: Debian kernel {g.get('vm_kernel', '?')}, 1 vCPU ({g.get('vm_cpu', '?')}), clocksource {g.get('vm_clocksource', '?')}. "
          f"{g.get('swift', '?')}, release build.")
    try:
        factor = float(g["calib_vm_ms"]) / float(g["calib_host_ms"])
        print(f"TCG calibration: `simulate` of 20,000 presses takes {g['calib_host_ms']} ms on the host and {g['calib_vm_ms']} ms "
              f"in the VM: this code runs {factor:.0f}× slower under TCG.")
    except (KeyError, ValueError, ZeroDivisionError):
        pass
    print()
    print("| reader | latency p50 | latency p99 | latency max | presses seen | CPU per press | 1 kHz touch stream: CPU | CPU per frame (rounds' range) | wakeups per frame |")
    print("|---|---|---|---|---|---|---|---|---|")
    for key, name in readers:
        lat, st = f"latency_{key}", f"stream_{key}"
        us = lambda v: v if v == "n/a" else f"{int(v) / 1000:.3f} ms"
        seen = f"{get(lat, 'lines')}/{get(lat, 'presses')}"
        print(f"| {name} | {us(get(lat, 'p50_us'))} | {us(get(lat, 'p99_us'))} | {us(get(lat, 'max_us'))} | {seen} | {get(lat, 'cpu_us_per_press')} µs | "
              f"{get(st, 'cpu_percent')} % | {get(st, 'cpu_us_per_frame')} µs ({get(st, 'cpu_us_per_frame_min')}–{get(st, 'cpu_us_per_frame_max')}) | {get(st, 'wakeups_per_frame')} |")
    print()
    ss, loop = groups.get("stream_switchscan", {}), groups.get("stream_libevdev_loop", {})
    try:
        ratio = float(ss["cpu_us_per_frame"]) / float(loop["cpu_us_per_frame"])
        print(f"switchscan's CPU per frame is {ratio:.2f}× the bare libevdev loop's (target: at most 2×).")
    except (KeyError, ValueError, ZeroDivisionError):
        print("switchscan's CPU per frame vs the bare loop: n/a")
    try:
        ratio = float(groups["latency_switchscan"]["cpu_us_per_press"]) / float(groups["latency_libevdev_loop"]["cpu_us_per_press"])
        print(f"switchscan's CPU per switch press (2 frames, 2 transcript lines) is {ratio:.2f}× the bare loop's (4 printed lines).")
    except (KeyError, ValueError, ZeroDivisionError):
        pass
    print()
    print("| switchscan idle | CPU | wakeups per second |")
    print("|---|---|---|")
    for key, name in [("idle_manual", "manual scanning (no timers), nobody pressing"),
                      ("idle_auto_scanning", "auto scanning (a step a second), nobody pressing")]:
        print(f"| {name} | {get(key, 'cpu_percent')} % | {get(key, 'wakeups_per_s')} |")
    if "error" in g:
        print(f"\nerror: {g['error']}")


main()
