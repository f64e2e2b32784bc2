#!/usr/bin/env python3
"""Issue 31's benchmarks: for each simulated person (Benchmarks/people/NAME.json),

  best     the best fixed scan time, by sweeping autoScanningTime over NomonWeb's ladder
           (2·e^(−i/14) s) with `text stats --person` (frequency layout, auto grouping,
           8 predictions, one switch) on phrases 101–200 of the 500-phrase set;
  setup    `setup --person`'s recommended profile on the same phrases (target ≥ 0.9 × best,
           within 180 s of the person's time);
  adaptive adaptive timing from 1.0 s over phrases 1–200 in one session; its last half is
           phrases 101–200 (target ≥ 0.85 × best);
  table    the perfect user's words per minute beside the person's, same configuration.

Predictions come from the word list (`--predictor words`): the same words for every run and
no presage child, so a sweep of many runs stays fast. Writes every run's JSON to
.build/bench-person/ and the tables (markdown) to stdout. With --reuse, a run whose JSON is
already there is read instead of run again (for a table changed after a long run).
   python3 scripts/person/bench_person.py [--reuse] [NAME…]"""
import json, math, os, subprocess, sys, time

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
BIN = os.path.join(ROOT, ".build/release/switchscan")
OUT = os.path.join(ROOT, ".build/bench-person")
PHRASES = os.path.join(ROOT, "Benchmarks/phrases/mackenzie-soukoreff-500.txt")
CONFIG = "frequency auto 8p 1sw"
os.makedirs(OUT, exist_ok=True)

lines = [l for l in open(PHRASES, encoding="utf-8").read().split("\n") if l.strip()]
first200 = os.path.join(OUT, "phrases-1-200.txt")
last100 = os.path.join(OUT, "phrases-101-200.txt")
open(first200, "w").write("\n".join(lines[:200]) + "\n")
open(last100, "w").write("\n".join(lines[100:200]) + "\n")


def profile(name, scan_time=None, adaptive=False, base=None):
    p = dict(base or {})
    if scan_time is not None:
        p.setdefault("scanning", {})
        p["scanning"] = dict(p["scanning"], autoScanningTime=scan_time)
    if adaptive:
        p["adaptiveTiming"] = {"enabled": True, "minimum": 0.4, "maximum": 5}
    path = os.path.join(OUT, name + ".profile.json")
    json.dump(p, open(path, "w"), indent=1)
    return path


REUSE = "--reuse" in sys.argv[1:]
DEFAULT_DEBOUNCE = 0.025  # the built-in profile's debounce (libinput's 25 ms)


def stats(phrases, prof, person=None, tag=""):
    args = [BIN, "text", "stats", phrases, "--keyboard", "frequency", "--methods", "auto", "--predictions", "8",
            "--predictor", "words", "--profile", prof, "--format", "json"]
    if person:
        args += ["--person", person]
    t0 = time.time()
    saved = os.path.join(OUT, tag + ".json")
    if REUSE and os.path.exists(saved):
        d = json.load(open(saved))
    else:
        r = subprocess.run(args, capture_output=True, text=True, env=dict(os.environ, XDG_CONFIG_HOME=OUT + "/config"))
        if r.returncode != 0:
            sys.exit(f"{' '.join(args)}: {r.stderr}")
        d = json.loads(r.stdout)
        json.dump(d, open(saved, "w"), indent=1)
    c = next(c for c in d["configurations"] if c["name"] == CONFIG)
    c["_wall"] = time.time() - t0
    c["_cpu"] = d.get("cpuSeconds")
    return c


def rung(i):
    return round(2 * math.exp(-i / 14), 3)


def sweep(name, person, base=None, kind="fixed"):
    """Every second rung from about the mean reaction time to 3× it, then the rungs beside the best.
    `base`: the profile whose other settings to keep (the setup's switch settings), else the defaults."""
    model = json.load(open(person))
    mean = model["reactionTime"]["mean"]
    lo = max(0.45, mean * 1.0)
    hi = mean * 3 + 0.5
    rungs = [i for i in range(-20, 30) if lo <= rung(i) <= hi]
    results = {}

    def run(i):
        if i not in results:
            t = rung(i)
            results[i] = stats(last100, profile(f"{name}-{kind}-{t}", t, base=base), person, f"{name}-{kind}-{t}")
        return results[i]

    for i in rungs[::2]:
        run(i)
    best = max(results, key=lambda i: results[i]["wordsPerMinute"])
    for i in (best - 1, best + 1):
        run(i)
    best = max(results, key=lambda i: results[i]["wordsPerMinute"])
    return rung(best), results[best], {rung(i): results[i]["wordsPerMinute"] for i in sorted(results, reverse=True)}


def main():
    names = [a for a in sys.argv[1:] if a != "--reuse"] or ["quick", "typical", "variable", "tremor", "lapses", "slow"]
    rows = []
    perfect = stats(last100, profile("perfect-1.0", 1.0), None, "perfect-1.0")
    for name in names:
        person = os.path.join(ROOT, "Benchmarks/people", name + ".json")
        # Setup first: its recommended profile. Its switch settings (debounce, hold duration, pause
        # on the first item) are the person's; the best fixed scan time is swept with them, so the
        # comparison is of scan times (and swept with the defaults too, to show what they add).
        r = subprocess.run([BIN, "setup", "--person", person, "--format", "json"], capture_output=True, text=True,
                           env=dict(os.environ, XDG_CONFIG_HOME=OUT + "/config"))
        if r.returncode != 0:
            sys.exit(f"setup --person {name}: {r.stderr}")
        setup = json.loads(r.stdout)
        json.dump(setup, open(os.path.join(OUT, f"{name}-setup.json"), "w"), indent=1)
        setup_profile = os.path.join(OUT, f"{name}-setup.profile.json")
        json.dump(setup["profile"], open(setup_profile, "w"), indent=1)
        fs = setup["profile"]["switchStabilization"]
        fitted = fs["debounce"] != DEFAULT_DEBOUNCE or fs["holdDuration"] != 0 or setup["profile"]["scanning"]["pauseOnFirstItem"] != 0
        base = setup["profile"] if fitted else None
        kind = "fitted" if fitted else "fixed"
        best_t, best, curve = sweep(name, person, base, kind)
        default_best_t, default_best, default_curve = sweep(name, person) if fitted else (best_t, best, curve)
        with_setup = stats(last100, setup_profile, person, f"{name}-with-setup")
        # The setup's scan time alone, the other settings the defaults (what its filters add).
        setup_t = setup["profile"]["scanning"]["autoScanningTime"]
        setup_time_only = stats(last100, profile(f"{name}-setup-time-only", setup_t), person, f"{name}-setup-time-only")
        perfect_at_best = stats(last100, profile(f"perfect-{best_t}", best_t), None, f"perfect-{best_t}")
        at_one = stats(last100, profile(f"{name}-1.0", 1.0), person, f"{name}-1.0")
        adaptive = stats(first200, profile(f"{name}-{kind}-adaptive" if fitted else f"{name}-adaptive", 1.0, adaptive=True, base=base), person,
                         f"{name}-{kind}-adaptive" if fitted else f"{name}-adaptive")
        rows.append(dict(name=name, person=json.load(open(person)), fitted=fitted, best_t=best_t, best=best, curve=curve,
                         default_best_t=default_best_t, default_best=default_best, default_curve=default_curve, setup=setup,
                         with_setup=with_setup, setup_time_only=setup_time_only, perfect_at_best=perfect_at_best,
                         at_one=at_one, adaptive=adaptive))
        print(f"{name}: best {best_t} s {best['wordsPerMinute']} wpm ({kind}); defaults' best {default_best_t} s "
              f"{default_best['wordsPerMinute']} wpm; setup {setup_t} s {with_setup['wordsPerMinute']} wpm in {setup['seconds']} s; "
              f"adaptive {adaptive['autoScanningTime']['end']} s last half {adaptive['lastHalfWordsPerMinute']} wpm", file=sys.stderr)
    json.dump(dict(perfect=perfect, rows=rows), open(os.path.join(OUT, "summary.json"), "w"), indent=1)

    print(f"Configuration `{CONFIG}`, phrases 101–200 of `mackenzie-soukoreff-500.txt` (100 phrases), predictions from the word list.\n")
    print("| person | reaction time (CV) | best fixed scan time | wpm there | with the defaults' filters | setup's profile | its wpm | × best (≥ 0.9) | its scan time alone | setup's time (≤ 180 s) | adaptive from 1.0 s: end | last-half wpm | × best (≥ 0.85) |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    ok = lambda x, limit: f"**{x:.2f}**" if x >= limit else f"{x:.2f} ✗"
    for r in rows:
        rt = r["person"]["reactionTime"]
        b = r["best"]["wordsPerMinute"]
        s = r["with_setup"]["wordsPerMinute"]
        alone = r["setup_time_only"]["wordsPerMinute"]
        a = r["adaptive"]
        sc = r["setup"]["profile"]["scanning"]
        filters = r["setup"]["profile"]["switchStabilization"]
        extras = [f"debounce {filters['debounce']} s" for _ in [0] if filters.get("debounce")] + \
                 [f"hold {filters['holdDuration']} s" for _ in [0] if filters.get("holdDuration")] + \
                 [f"pause {sc['pauseOnFirstItem']} s" for _ in [0] if sc.get("pauseOnFirstItem")]
        secs = r["setup"]["seconds"]
        dflt = f"{r['default_best_t']} s: {r['default_best']['wordsPerMinute']:.3f}" if r["fitted"] else "the same"
        print(f"| `{r['name']}` | {rt['mean']} ± {rt['sd']} s ({rt['sd'] / rt['mean']:.2f}) | {r['best_t']} s | {b:.3f} | {dflt} | "
              f"{sc['autoScanningTime']} s{', ' + ', '.join(extras) if extras else ''} | {s:.3f} | {ok(s / b, 0.9)} | "
              f"{alone:.3f} ({alone / b:.2f}×) | {f'**{secs:.0f}**' if secs <= 180 else f'{secs:.0f} ✗'} s | "
              f"{a['autoScanningTime']['end']} s ({a['autoScanningTime']['changes']} changes) | "
              f"{a['lastHalfWordsPerMinute']:.3f} | {ok(a['lastHalfWordsPerMinute'] / b, 0.85)} |")
    print("\nThe honest table: today's error-free figure (the perfect user) beside each person, same configuration and profile: at 1.0 s a stop (the default) and at the person's best fixed scan time.\n")
    print("| person | at 1.0 s: perfect user | the person | × | late | missed | extra presses | corrections | at the best fixed scan time: perfect user | the person | × |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    p = perfect
    for r in rows:
        c = r["at_one"]
        pb, cb = r["perfect_at_best"]["wordsPerMinute"], r["best"]["wordsPerMinute"]
        print(f"| `{r['name']}` | {p['wordsPerMinute']:.3f} | {c['wordsPerMinute']:.3f} | {c['wordsPerMinute'] / p['wordsPerMinute']:.2f} | "
              f"{c['late']} of {c['selections']} ({100 * c['late'] / max(c['selections'], 1):.1f} %) | {c['missed']} | {c['extraPresses']} | {c['corrections']} | "
              f"{r['best_t']} s: {pb:.3f} | {cb:.3f} | {cb / pb:.2f} |")
    print("\nThe sweep (words per minute at each fixed scan time):\n")
    for r in rows:
        print(f"- `{r['name']}`{' (with the setup’s switch settings)' if r['fitted'] else ''}: " + ", ".join(f"{t} s {w:.3f}" for t, w in r["curve"].items()))
        if r["fitted"]:
            print(f"  - with the defaults' filters: " + ", ".join(f"{t} s {w:.3f}" for t, w in r["default_curve"].items()))


main()
