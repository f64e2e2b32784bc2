"""What the Wayland checkers share: one line per check, "PASS <desktop>: <name>: <numbers>" or
"FAIL ...", counted; a check that raises fails with what it raised."""

results = {"pass": 0, "fail": 0}
prefix = ["?"]


def report(ok, name, detail=""):
    results["pass" if ok else "fail"] += 1
    print("%s %s: %s%s" % ("PASS" if ok else "FAIL", prefix[0], name, (": " + detail) if detail else ""), flush=True)
    return ok


def check(name):
    """Decorates a check fn(*args) -> (ok, detail): reports it under `name`; an exception fails it."""
    def wrap(fn):
        def run(*args):
            try:
                ok, detail = fn(*args)
            except Exception as e:  # the check's own failure, with what happened
                ok, detail = False, "%s: %s" % (type(e).__name__, e)
            return report(ok, name, detail)
        run.__name__ = fn.__name__
        return run
    return wrap
