#!/usr/bin/python3
"""Checks for suite-presence.sh, each printing what it measured and exiting 0 (pass) or 1.

  check.py ring SHOT.png X Y W H RRGGBB T      cursor colour on the frame's edges (the ring, T px
                                               outside), not inside it
  check.py panel SHOT.png X Y RRGGBB ENTRY…    the menu panel at X,Y: OCR (tesseract) reads the
                                               entries in this order; the first row is marked
  check.py absent SHOT.png RRGGBB              no pixel of that colour anywhere
  check.py speech CMD…                         runs CMD (a switchscan run, JSONL); each phrase's
                                               audio ($UTT/*.wav) against the speech-time model
  check.py interrupted CMD…                    fast scanning: each phrase starts with its highlight
  check.py paced CMD…                          speech-paced: each dwell lasts its phrase's audio
  check.py cues CMD…                           sound cues: a tick ($ICONS/<start µs>-percussion-10.wav)
                                               per highlight, a click (…-percussion-12.wav) per
                                               selection (perform, menu opening), each with its line
                                               and holding the whole icon's audio
"""
import json, os, subprocess, sys, time

def ppm(path):
    data = subprocess.run(["convert", path, "ppm:-"], capture_output=True, check=True).stdout
    parts, pos = [], 0
    while len(parts) < 4:
        while data[pos:pos + 1].isspace(): pos += 1
        end = pos
        while not data[end:end + 1].isspace(): end += 1
        parts.append(data[pos:end]); pos = end
    w, h = int(parts[1]), int(parts[2])
    pix = data[pos + 1:]
    return w, h, lambda x, y: pix[3 * (y * w + x):3 * (y * w + x) + 3].hex()

def ring(shot, x, y, w, h, color, t):
    _, _, px = ppm(shot)
    x, y, w, h, t = map(int, (x, y, w, h, t))
    m = t // 2 + 1
    edges = [(x - m, y + h // 2), (x + w - 1 + m, y + h // 2), (x + w // 2, y - m), (x + w // 2, y + h - 1 + m),
             (x - t, y - t), (x + w + t - 1, y + h + t - 1)]
    inside = [(x + w // 2, y + h // 2), (x + 1, y + 1), (x + w - 2, y + h - 2), (x + 3, y + h // 2)]
    got_edges = [px(a, b) for a, b in edges]
    got_inside = [px(a, b) for a, b in inside]
    print(f"ring edges {got_edges}; inside {got_inside}")
    return all(c == color for c in got_edges) and not any(c == color for c in got_inside)

def panel(shot, x, y, color, entries):
    w, h, px = ppm(shot)
    x, y = int(x), int(y)
    # The panel's extent: its border is the cursor colour.
    right = x
    while right + 1 < w and px(right + 1, y + 1) == color: right += 1
    bottom = y
    while bottom + 1 < h and px(x + 1, bottom + 1) == color: bottom += 1
    crop = shot + ".panel.png"
    subprocess.run(["convert", shot, "-crop", f"{right - x + 1}x{bottom - y + 1}+{x}+{y}", "+repage",
                    "-colorspace", "Gray", "-threshold", "30%", "-resize", "200%", crop], check=True)
    text = subprocess.run(["tesseract", crop, "-", "--psm", "6"], capture_output=True, text=True).stdout
    lines = [l.strip() for l in text.splitlines() if l.strip()]
    marked = px(x + 8, y + 12) == color
    print(f"panel {right - x + 1}x{bottom - y + 1}+{x}+{y}; OCR: {lines}; first row marked: {marked}")
    return lines == entries and marked

def absent(shot, color):
    w, h, px = ppm(shot)
    n = sum(1 for yy in range(0, h, 2) for xx in range(0, w, 2) if px(xx, yy) == color)
    print(f"{n} sampled pixels of #{color}")
    return n == 0

def model_seconds(text, wpm=170):
    words = pauses = 0; alnum = False; prev = " "
    for ch in text + " ":
        if ch.isspace():
            if alnum: words += 1
            alnum = False
            if prev in ",;:.!?": pauses += 1
        elif ch.isalnum(): alnum = True
        prev = ch
    return (7 + 12 * words + 5 * pauses) * 6 / wpm

def writers_done(seconds=15):
    """Until nothing writes phrases into UTT or sound icons into ICONS any more (speak-to-file.sh,
    the suite's aplay): the last ones are whole once the run has ended."""
    patterns = ["speak-to-file.sh " + os.environ["UTT"]] if "UTT" in os.environ else []
    patterns += ["file:" + os.environ["ICONS"]] if "ICONS" in os.environ else []
    end = time.time() + seconds
    while time.time() < end:
        if all(subprocess.run(["pgrep", "-f", p], capture_output=True).returncode != 0 for p in patterns):
            return
        time.sleep(0.05)

def run(cmd):
    """Runs CMD (JSONL on stdout); returns its status and its highlight and speak lines."""
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, text=True)
    lines = [json.loads(l) for l in p.stdout]
    p.wait()
    writers_done()
    return p.returncode, [e for e in lines if e["type"] == "highlight"], [e for e in lines if e["type"] == "speak"]

def utterances():
    """The phrases' WAVs (speak-to-file.sh): (start in s, duration in s), in order."""
    d = os.environ["UTT"]
    files = sorted(f for f in os.listdir(d) if f.endswith(".wav"))
    out = []
    for f in files:
        dur = float(subprocess.run(["soxi", "-D", os.path.join(d, f)], capture_output=True, text=True).stdout or 0)
        out.append((int(f[:-4]) / 1e9, dur))
    return out

def speech(cmd):
    rc, highlights, spoken = run(cmd)
    utt = utterances()
    ok = rc == 0 and len(spoken) == 3 and len(utt) == 3
    for e, (_, dur) in zip(spoken, utt):
        model = model_seconds(e["text"])
        print(f"t={e['t']:.3f} \"{e['text']}\": {dur:.3f} s of audio, model {model:.3f} s (ratio {dur / model:.2f})")
        ok = ok and 0.6 <= dur / model <= 1.6
    print(f"exit status {rc}; {len(spoken)} phrases, {len(utt)} audio files")
    return ok

def interrupted(cmd):
    rc, highlights, spoken = run(cmd)
    utt = utterances()
    starts = [round(s - utt[0][0], 3) for s, _ in utt] if utt else []
    durs = [round(d, 3) for _, d in utt]
    times = [e["t"] for e in spoken]
    print(f"exit status {rc}; phrases at {times}; audio started at {starts} (relative), lasting {durs}")
    # Each phrase is longer than the 0.5 s dwell. Queued instead of interrupted, each would start
    # after the one before had ended; interrupted, each starts before the one before would have
    # ended. (On a loaded machine a phrase can be superseded before its audio starts, so fewer
    # phrases than highlights may be heard: never more, and at least three.)
    ok = rc == 0 and len(times) >= 5 and 3 <= len(utt) <= len(times) and all(d > 0.6 for d in durs)
    for k in range(1, len(utt)):
        ok = ok and starts[k] - starts[k - 1] < durs[k - 1]
    return ok

def paced(cmd):
    rc, highlights, spoken = run(cmd)
    utt = utterances()
    times = [e["t"] for e in highlights]
    gaps = [round(b - a, 3) for a, b in zip(times, times[1:])]
    durs = [round(d, 3) for _, d in utt]
    print(f"exit status {rc}; highlights at {times}; dwell {gaps}; their phrases last {durs}")
    # The dwell is 0.1 s, the phrases over 1 s: each dwell ends when its phrase has been heard
    # (its audio's length, plus speech-dispatcher's start-up and reporting: 0.5 s at most on a
    # quiet machine, 2 s beside a CPU hog), never at the 10 s cap of a phrase whose end is not
    # reported.
    ok = rc == 0 and len(gaps) >= 4
    for g, d in zip(gaps, durs):
        ok = ok and d - 0.05 <= g <= d + 2
    return ok

def wav_seconds(path):
    return float(subprocess.run(["soxi", "-D", path], capture_output=True, text=True).stdout or 0)

def peak(path):
    out = subprocess.run(["sox", path, "-n", "stat"], capture_output=True, text=True).stderr
    return next((float(l.split(":")[1]) for l in out.splitlines() if l.startswith("Maximum amplitude")), 0.0)

def cues(cmd, icons="/usr/share/sounds/sound-icons"):
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, text=True)
    lines = [json.loads(l) for l in p.stdout]
    p.wait()
    writers_done()
    highlights = [e["t"] for e in lines if e["type"] == "highlight"]
    selections = [e["t"] for e in lines if e["type"] == "perform" or (e["type"] == "menu" and e.get("open"))]
    d = os.environ["ICONS"]
    played = sorted((int(f.split("-", 1)[0]) / 1e6, f.split("-", 1)[1], os.path.join(d, f)) for f in os.listdir(d))
    ticks = [(t, path) for t, name, path in played if name == "percussion-10.wav"]
    clicks = [(t, path) for t, name, path in played if name == "percussion-12.wav"]
    print(f"exit status {p.returncode}; highlights at {highlights}, selections at {selections}")
    ok = p.returncode == 0 and len(highlights) >= 3 and len(selections) >= 1
    ok = ok and len(ticks) == len(highlights) and len(clicks) == len(selections) and len(played) == len(ticks) + len(clicks)
    if not ok or not ticks:
        print(f"{len(ticks)} ticks, {len(clicks)} clicks, {len(played) - len(ticks) - len(clicks)} other files")
        return False
    # Both clocks from the first tick / first highlight: each cue starts with its line.
    t0, h0 = ticks[0][0], highlights[0]
    for kind, heard, said, source in (("tick", ticks, highlights, "percussion-10.wav"), ("click", clicks, selections, "percussion-12.wav")):
        want, want_peak = wav_seconds(os.path.join(icons, source)), peak(os.path.join(icons, source))
        for (t, path), s in zip(heard, said):
            lag = (t - t0) - (s - h0)
            dur, amp = wav_seconds(path), peak(path)
            print(f"{kind} for the line at t={s:.3f}: started {lag:+.3f} s from it, {dur:.3f} s of audio, peak {amp:.3f} "
                  f"(the icon: {want:.3f} s, peak {want_peak:.3f})")
            # ALSA writes whole periods: the icon, then silence up to the period's end.
            ok = ok and abs(lag) < 0.3 and want <= dur <= want + 0.3 and abs(amp - want_peak) < 0.01
    return ok

def toggles(cmd):
    """Speech and sounds off in the profile, turned on from the scanner menu (issue 23): nothing is
    spoken or ticks before; afterwards speech-dispatcher speaks (WAVs of real speech in UTT) and
    plays the ticks (icon WAVs in ICONS), at most one per highlight after the setting."""
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, text=True)
    lines = [json.loads(l) for l in p.stdout]
    p.wait()
    writers_done()
    settings = [(e["t"], e["name"], e["to"]) for e in lines if e["type"] == "setting"]
    print(f"exit status {p.returncode}; settings {settings}")
    if p.returncode != 0 or [(n, v) for _, n, v in settings] != [("speech", True), ("soundEffects", True)]:
        return False
    t_speech, t_sounds = settings[0][0], settings[1][0]
    speaks = [e["t"] for e in lines if e["type"] == "speak"]
    spoken = sorted(os.listdir(os.environ["UTT"]))
    durations = [wav_seconds(os.path.join(os.environ["UTT"], f)) for f in spoken]
    print(f"{len(speaks)} speak lines (first at {speaks[:1]}), {len(spoken)} phrases spoken: {['%.2f s' % d for d in durations]}")
    ok = len(speaks) > 0 and min(speaks) >= t_speech and 0 < len(spoken) <= len(speaks) and all(d > 0.2 for d in durations)
    ticks = [f for f in os.listdir(os.environ["ICONS"]) if f.endswith("percussion-10.wav")]
    after = [e["t"] for e in lines if e["type"] == "highlight" and e["t"] >= t_sounds]
    print(f"{len(ticks)} ticks played; {len(after)} highlights after sounds were turned on at {t_sounds}")
    return ok and 0 < len(ticks) <= len(after)

def keyboard(cmd):
    """The scanning keyboard spoken (issue 18): keys and rows said as they are highlighted (their
    text kept by speak-to-file.sh in UTT/text), the word typed said after its space, and nothing
    of the password field's keyboard (its row 3 and its keys shift and z are never said; the
    message's keyboard never enters row 3)."""
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, text=True)
    lines = [json.loads(l) for l in p.stdout]
    p.wait()
    writers_done()
    d = os.path.join(os.environ["UTT"], "text")
    said = [open(os.path.join(d, f)).read().strip() for f in sorted(os.listdir(d))]
    typed = [e.get("text") for e in lines if e["type"] == "type"]
    print(f"exit status {p.returncode}; typed {typed}; said {said}")
    lower = [s.lower() for s in said if s]
    # A phrase cancelled by the next highlight before the module read its text leaves an empty
    # file (a loaded machine): what it was is then known only from the engine's speak lines.
    asked = [str(e.get("text", "")).lower() for e in lines if e["type"] == "speak"]
    cancelled = len(said) - len(lower)
    ok = p.returncode == 0 and typed == ["H", "i", " ", "•"]
    for key in ["a", "s", "d", "f", "g", "h", "q", "i", "hi"]:
        if key not in lower and not (cancelled and key in asked):
            print(f"not said: {key!r}"); ok = False
    for secret in ["z", "shift"]:
        if secret in lower or secret in asked:
            print(f"said in the password field: {secret!r}"); ok = False
    return ok

if __name__ == "__main__":
    what, args = sys.argv[1], sys.argv[2:]
    ok = {"ring": lambda: ring(*args), "panel": lambda: panel(args[0], args[1], args[2], args[3], args[4:]),
          "absent": lambda: absent(*args), "speech": lambda: speech(args), "paced": lambda: paced(args),
          "interrupted": lambda: interrupted(args), "cues": lambda: cues(args), "toggles": lambda: toggles(args),
          "keyboard": lambda: keyboard(args)}[what]()
    sys.exit(0 if ok else 1)
