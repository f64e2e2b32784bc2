#!/usr/bin/env python3
"""The doc test's checker: runs a manual's examples and resolves its links.

    check_docs.py --root DIR --bin DIR [options]

DIR holds README.md and docs/ (the project, or a fixture under scripts/docs/fixtures/). The
conventions it enforces are written for people in docs/README.md; in short, a fenced block's
info string says what it is:

    ```sh                        run (bash -euo pipefail) in a sandbox: it must exit 0
    ```console                   `$ command` lines, each followed by its expected output;
                                 a line `…` matches any lines, `…` inside a line any text;
                                 a last line `[N]` expects exit status N (else 0)
    ```sh no-run: needs REASON   shown, not run (a switch, a desktop, root …)
    ```sh synopsis               a command's shape with UPPERCASE placeholders: not run
    ```json / ```jsonl           must parse
    anything else (text, …)      shown; an unlabelled fence or ```bash is an error

Every `switchscan …` line of any sh or console block, run or not, names only subcommands and
options that `switchscan help …` lists, so a renamed option fails here even where the example
cannot run. Links between pages must resolve, #anchors included (GitHub's heading slugs).

The sandbox: a temporary folder per page with a symbolic link to every top-level entry of DIR
(so `Profiles/…` and `Sources/…` read the checkout, while files an example writes stay in the
sandbox), HOME and the XDG folders inside it, no display, no session bus, PATH starting with
--bin (the debug build). A page's blocks run in order in the same sandbox.

One line per check (`ok   …` or `FAIL …` with indented details), then `N passed, M failed`.
Exit status 1 when anything failed.
"""

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unicodedata
from concurrent.futures import ThreadPoolExecutor
from urllib.parse import unquote

ELLIPSIS = "…"
TIMEOUT = 60
FORBIDDEN_LANGS = {"bash", "shell", "zsh", "shell-session", "sh-session", "shellsession", "terminal"}
NO_RUN = re.compile(r"^no-run:\s*(needs\s+\S.*)$")
PLACEHOLDER = re.compile(r"(?<![\w$-])[A-Z][A-Z0-9]+(?:[._-][A-Z0-9]+)*(?![\w])")
# Words in capitals that are not placeholders: evdev names, environment variables, file names.
NOT_PLACEHOLDERS = re.compile(r"^(KEY|BTN|EV|SYN|ABS|REL|MSC|SW|LED|INPUT|XDG|SWITCHSCAN|PATH|HOME)([_A-Z0-9]*)$")
SHELL_OPERATORS = {"|", "||", "&&", ";", ">", ">>", "<", "2>", "2>&1", "&", "#", "(", "then", "do"}
COMMAND_PREFIXES = {"sudo", "exec", "time", "nice", "env", "!"}


# --- Markdown: fences, headings, links ---------------------------------------------------------

class Block:
    def __init__(self, page, line, info, lines):
        self.page, self.line, self.info, self.lines = page, line, info.strip(), lines
        parts = self.info.split(None, 1)
        self.lang = parts[0] if parts else ""
        self.rest = parts[1].strip() if len(parts) > 1 else ""

    def where(self):
        return f"{self.page}:{self.line}"


def split_fences(text):
    """The page's fenced blocks, and its prose with every fenced line blanked (for links and
    headings; line numbers are kept)."""
    blocks, prose = [], []
    lines = text.split("\n")
    k = 0
    while k < len(lines):
        m = re.match(r"^( {0,3})(`{3,}|~{3,})(.*)$", lines[k])
        if not m or ("`" in m.group(3) and m.group(2)[0] == "`"):
            prose.append(lines[k])
            k += 1
            continue
        fence, info, indent = m.group(2), m.group(3), len(m.group(1))
        start = k
        body = []
        k += 1
        while k < len(lines) and not re.match(r"^ {0,3}" + re.escape(fence[0]) + "{" + str(len(fence)) + r",}\s*$", lines[k]):
            body.append(lines[k][indent:] if lines[k][:indent].strip() == "" else lines[k])
            k += 1
        blocks.append((start + 1, info, body))
        prose.extend([""] * (k - start + 1))
        k += 1
    return blocks, "\n".join(prose[: len(lines)])


def strip_code_spans(line):
    return re.sub(r"(`+)(.+?)\1", lambda m: " " * len(m.group(0)), line)


def heading_text(raw):
    """What GitHub renders of a heading's inline markup: code, links and emphasis unwrapped."""
    t = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", raw)
    t = re.sub(r"<[^>]+>", "", t)
    t = t.replace("`", "")
    t = re.sub(r"(\*\*|__|\*)", "", t)
    return t.strip()


def slug(text):
    """GitHub's anchor for a heading (github-slugger): lower case, punctuation and symbols
    dropped, spaces to hyphens (letters, digits, `_` and `-` stay)."""
    out = []
    for ch in text.lower():
        if ch == " ":
            out.append("-")
        elif ch in "-_":
            out.append(ch)
        elif unicodedata.category(ch)[0] in "LNM":
            out.append(ch)
    return "".join(out)


def headings(prose):
    found = []
    for n, line in enumerate(prose.split("\n"), 1):
        m = re.match(r"^ {0,3}(#{1,6})\s+(.*?)\s*#*\s*$", line)
        if m:
            found.append((n, len(m.group(1)), heading_text(m.group(2))))
    return found


def anchors(prose):
    seen, result = {}, set()
    for _, _, text in headings(prose):
        s = slug(text)
        if s in seen:
            seen[s] += 1
            s2 = f"{s}-{seen[s]}"
        else:
            seen[s] = 0
            s2 = s
        result.add(s2)
    for m in re.finditer(r"<a\s+(?:id|name)=\"([^\"]+)\"", prose):
        result.add(m.group(1))
    return result


def links(prose):
    """(line, target) for inline links and images, reference definitions and HTML href/src."""
    found = []
    for n, line in enumerate(prose.split("\n"), 1):
        line = strip_code_spans(line)
        for m in re.finditer(r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]*)>?(?:\s+\"[^\"]*\")?\s*\)", line):
            found.append((n, m.group(1)))
        m = re.match(r"^ {0,3}\[[^\]]+\]:\s*<?(\S+?)>?(\s|$)", line)
        if m:
            found.append((n, m.group(1)))
        for m in re.finditer(r"\b(?:href|src)=\"([^\"]*)\"", line):
            found.append((n, m.group(1)))
    return found


# --- Commands named in examples: subcommands and options from `switchscan help` ----------------

class Help:
    def __init__(self, binary):
        self.binary, self.cache = binary, {}

    def of(self, path):
        key = tuple(path)
        if key not in self.cache:
            r = subprocess.run([self.binary, "help", *path], capture_output=True, text=True, timeout=TIMEOUT)
            text = r.stdout if r.returncode == 0 else None
            subs, opts = set(), {"-h", "--help", "--version"}
            if text:
                section = None
                for line in text.split("\n"):
                    if re.match(r"^[A-Z][A-Z ]+:$", line):
                        section = line[:-1]
                        continue
                    if section == "SUBCOMMANDS":
                        m = re.match(r"^  (\S+)", line)
                        if m:
                            subs.add(m.group(1))
                    elif section == "OPTIONS":
                        m = re.match(r"^  (-\S.*?)(?:\s{2,}|$)", line)
                        if m:
                            for o in re.findall(r"(?<![\w-])(--?[A-Za-z][\w-]*)", m.group(1)):
                                opts.add(o)
                if not path:
                    opts.add("--generate-completion-script")
            self.cache[key] = (text is not None, subs, opts)
        return self.cache[key]


def command_lines(block):
    """The logical lines of a shell block (continuations joined, `$ ` prompts dropped, output
    lines of a console block left out)."""
    out, current = [], None
    for raw in block.lines:
        if block.lang == "console":
            if current is None:
                if not raw.startswith("$ "):
                    continue
                raw = raw[2:]
        if current is not None:
            current += " " + raw.strip()
        else:
            current = raw
        if current.endswith("\\"):
            current = current[:-1]
            continue
        out.append(current)
        current = None
    if current is not None:
        out.append(current)
    return out


def check_switchscan_words(block, helper):
    """Problems with the subcommands and options of every `switchscan` command in the block."""
    problems = []
    for line in command_lines(block):
        tokens = line.split()
        for k, tok in enumerate(tokens):
            if tok.lstrip("$(") != "switchscan" and not tok.endswith("/switchscan"):
                continue
            # Only where the shell would run it: first on the line, after an operator, `sudo`,
            # `VAR=value` … (not `man switchscan`, `systemctl --user stop switchscan`).
            before = tokens[k - 1] if k > 0 else None
            if not (before is None or tok.startswith("$(") or before in SHELL_OPERATORS or before in COMMAND_PREFIXES
                    or re.match(r"^[A-Za-z_][A-Za-z0-9_]*=", before)):
                continue
            path, rest = [], tokens[k + 1:]
            if rest and rest[0] == "help":
                rest = rest[1:]
            while rest:
                word = rest[0].strip("[]()")
                ok, subs, _ = helper.of(path)
                if word in subs:
                    path.append(word)
                    rest = rest[1:]
                else:
                    break
            ok, subs, opts = helper.of(path)
            if not ok:
                problems.append(f"`switchscan {' '.join(path)}`: no such command (switchscan help {' '.join(path)} fails)")
                continue
            word = rest[0].strip("[]()") if rest else ""
            if subs and word and not word.startswith("-") and word not in SHELL_OPERATORS and not word.startswith(("#", ">", "|")):
                problems.append(f"`switchscan {' '.join(path)}` has no subcommand {word} (see `switchscan help {' '.join(path)}`)")
                continue
            for word in rest:
                if word in SHELL_OPERATORS or word.startswith(("#", ">", "|", "2>")):
                    break
                for opt in re.findall(r"(?:^|[\[(|])(--?[A-Za-z][\w-]*)", word):
                    if opt not in opts:
                        problems.append(f"`switchscan {' '.join(path)}` has no option {opt} (see `switchscan help {' '.join(path)}`)".replace("  ", " "))
    return problems


# --- Running examples --------------------------------------------------------------------------

class Sandbox:
    def __init__(self, root, bindir):
        self.dir = tempfile.mkdtemp(prefix="switchscan-docs.")
        self.cwd = os.path.join(self.dir, "repo")
        os.mkdir(self.cwd)
        for entry in sorted(os.listdir(root)):
            if entry in (".git", ".build", ".ci", ".swiftpm"):
                continue
            os.symlink(os.path.join(root, entry), os.path.join(self.cwd, entry))
        home = os.path.join(self.dir, "home")
        runtime = os.path.join(self.dir, "run")
        for d in (home, runtime):
            os.mkdir(d, 0o700)
        env = {k: v for k, v in os.environ.items()
               if not k.startswith(("SWITCHSCAN_", "XDG_", "DBUS_", "AT_SPI", "SPEECHD"))
               and k not in ("DISPLAY", "WAYLAND_DISPLAY", "HOME", "PWD", "OLDPWD")}
        env.update({
            "HOME": home, "XDG_CONFIG_HOME": os.path.join(home, ".config"),
            "XDG_DATA_HOME": os.path.join(home, ".local/share"), "XDG_CACHE_HOME": os.path.join(home, ".cache"),
            "XDG_STATE_HOME": os.path.join(home, ".local/state"), "XDG_RUNTIME_DIR": runtime,
            "PATH": os.path.abspath(bindir) + os.pathsep + env.get("PATH", "/usr/bin:/bin"),
            "LC_ALL": "C.UTF-8", "TERM": "dumb", "COLUMNS": "100",
        })
        self.env = env

    def run(self, script):
        try:
            r = subprocess.run(["bash", "-c", script], cwd=self.cwd, env=self.env, stdin=subprocess.DEVNULL,
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=TIMEOUT)
            return r.returncode, r.stdout.decode("utf-8", "replace")
        except subprocess.TimeoutExpired as e:
            return 124, (e.stdout or b"").decode("utf-8", "replace") + f"\n(timed out after {TIMEOUT} s)"

    def close(self):
        shutil.rmtree(self.dir, ignore_errors=True)


def expected_pattern(expected):
    parts = []
    for line in expected:
        if line.strip() == ELLIPSIS:
            parts.append(r"(?:[^\n]*\n)*?")
        else:
            parts.append(".*?".join(re.escape(p) for p in line.rstrip().split(ELLIPSIS)) + r"[ \t]*\n")
    return re.compile("".join(parts))


def normalise_output(text):
    lines = [l.rstrip() for l in text.replace("\r\n", "\n").split("\n")]
    while lines and lines[-1] == "":
        lines.pop()
    return "".join(l + "\n" for l in lines)


def console_steps(block):
    """[(line, command, expected lines, expected status)]"""
    steps, k, lines = [], 0, block.lines
    while k < len(lines):
        if not lines[k].startswith("$ "):
            return None, f"line {block.line + 1 + k}: expected `$ command`, found {lines[k]!r}"
        start = k
        cmd = lines[k][2:]
        while cmd.endswith("\\") and k + 1 < len(lines):
            k += 1
            cmd = cmd + "\n" + lines[k]
        k += 1
        expected = []
        while k < len(lines) and not lines[k].startswith("$ "):
            expected.append(lines[k])
            k += 1
        while expected and expected[-1].strip() == "":
            expected.pop()
        status = 0
        if expected and re.fullmatch(r"\[\d+\]", expected[-1].strip()):
            status = int(expected.pop().strip()[1:-1])
        steps.append((block.line + 1 + start, cmd, expected, status))
    return steps, None


def run_block(block, box):
    """None when the example did what it says, else the details of what went wrong."""
    if block.lang == "sh":
        status, out = box.run("set -euo pipefail\n" + "\n".join(block.lines))
        if status != 0:
            return f"exit status {status}\n{out}"
        return None
    steps, problem = console_steps(block)
    if problem:
        return problem
    for line, cmd, expected, want in steps:
        status, out = box.run(cmd)
        actual = normalise_output(out)
        if status != want:
            return f"line {line}: `{cmd}` exited with {status}, expected {want}\n{actual}"
        if not expected_pattern(expected).fullmatch(actual):
            return f"line {line}: `{cmd}` printed something else. Expected:\n" + "\n".join(expected) + "\nGot:\n" + actual
    return None


# --- The checks --------------------------------------------------------------------------------

class Report:
    def __init__(self):
        self.passed = self.failed = 0

    def ok(self, what):
        self.passed += 1
        print(f"ok   {what}", flush=True)

    def fail(self, what, details=""):
        self.failed += 1
        print(f"FAIL {what}", flush=True)
        for line in details.rstrip("\n").split("\n")[:40] if details else []:
            print(f"     {line}")

    def check(self, what, problems):
        if problems:
            self.fail(what, "\n".join(problems))
        else:
            self.ok(what)


def manual_pages(root):
    pages = ["README.md"] if os.path.exists(os.path.join(root, "README.md")) else []
    docs = os.path.join(root, "docs")
    for dirpath, _, files in sorted(os.walk(docs)):
        for f in sorted(files):
            if f.endswith(".md"):
                pages.append(os.path.relpath(os.path.join(dirpath, f), root))
    return pages


def link_pages(root):
    """Every Markdown page whose links are checked: the manual and the other top-level pages."""
    extra = sorted(f for f in os.listdir(root) if f.endswith(".md") and f != "README.md")
    return manual_pages(root) + extra


def in_installed(rel, installed):
    return any(rel == i or rel.startswith(i.rstrip("/") + "/") for i in installed)


def check_links(root, page, prose, anchor_cache, installed):
    problems, count = [], 0
    here = os.path.dirname(page)
    for n, target in links(prose):
        count += 1
        if re.match(r"^[a-z][a-z0-9+.-]*:", target, re.I):
            continue  # http:, https:, mailto: … are not followed (no network in the tests)
        path, _, anchor = target.partition("#")
        path = unquote(path)
        if path.startswith("/"):
            problems.append(f"line {n}: {target}: an absolute link; write it relative to {page}")
            continue
        rel = os.path.normpath(os.path.join(here, path)) if path else page
        full = os.path.join(root, rel)
        if not os.path.exists(full) or rel.startswith(".."):
            problems.append(f"line {n}: {target}: no such file ({rel})")
            continue
        if installed is not None and in_installed(page, installed) and not in_installed(rel, installed):
            problems.append(f"line {n}: {target}: {rel} is not installed with the manual (share/doc/switchscan); write the path as `code`")
            continue
        if anchor and rel.endswith(".md"):
            if rel not in anchor_cache:
                with open(full, encoding="utf-8") as f:
                    anchor_cache[rel] = anchors(split_fences(f.read())[1])
            if anchor not in anchor_cache[rel]:
                problems.append(f"line {n}: {target}: no heading with the anchor #{anchor} in {rel}")
    return count, problems


def check_page(root, page, args, helper, anchor_cache, run_examples):
    """The checks of one page, as (what, problems) pairs in page order."""
    results = []
    with open(os.path.join(root, page), encoding="utf-8") as f:
        text = f.read()
    raw_blocks, prose = split_fences(text)
    blocks = [Block(page, line, info, body) for line, info, body in raw_blocks]

    fence_problems = []
    for b in blocks:
        if b.lang == "":
            fence_problems.append(f"line {b.line}: a fence without a kind: say what it is (sh, console, text, json …)")
        elif b.lang in FORBIDDEN_LANGS:
            fence_problems.append(f"line {b.line}: ```{b.lang}: write ```sh (a command that is run), ```console (a command and its output) or ```sh no-run: needs …")
        elif b.lang in ("sh", "console") and b.rest and b.rest != "synopsis" and not NO_RUN.match(b.rest):
            fence_problems.append(f"line {b.line}: ```{b.info}: after {b.lang}, only `no-run: needs REASON` or `synopsis`")
    if args.links_only:
        count, problems = check_links(root, page, prose, anchor_cache, args.installed)
        return [(f"{page}: {count} links resolve", problems)]
    results.append((f"{page}: every code block says what it is ({len(blocks)} blocks)", fence_problems))

    box = None
    try:
        for b in blocks:
            if b.lang in ("json", "jsonl"):
                problems = []
                items = ["\n".join(b.lines)] if b.lang == "json" else [l for l in b.lines if l.strip()]
                for item in items:
                    try:
                        json.loads(item)
                    except ValueError as e:
                        problems.append(f"not {b.lang}: {e}")
                results.append((f"{b.where()} {b.lang} parses", problems))
                continue
            if b.lang not in ("sh", "console") or b.lang in FORBIDDEN_LANGS:
                continue
            words = check_switchscan_words(b, helper) if helper else []
            kind = b.lang if not b.rest else f"{b.lang} {b.rest}"
            if b.rest == "synopsis":
                placeholders = [w for w in PLACEHOLDER.findall("\n".join(b.lines)) if not NOT_PLACEHOLDERS.match(w)]
                if not placeholders:
                    words.append("a synopsis without an UPPERCASE placeholder is an example: make it ```sh (run) or ```sh no-run: needs …")
                results.append((f"{b.where()} synopsis: its commands and options exist", words))
                continue
            if NO_RUN.match(b.rest):
                results.append((f"{b.where()} {kind}: not run; its commands and options exist", words))
                continue
            if not run_examples:
                results.append((f"{b.where()} {kind}: its commands and options exist", words))
                continue
            if box is None:
                box = Sandbox(root, args.bin)
            problem = run_block(b, box)
            problems = words + ([problem] if problem else [])
            results.append((f"{b.where()} {kind}: runs as written", problems))
    finally:
        if box:
            box.close()

    count, problems = check_links(root, page, prose, anchor_cache, args.installed)
    results.append((f"{page}: {count} links resolve", problems))
    return results


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--root", required=True, help="the folder with README.md and docs/")
    ap.add_argument("--bin", help="the folder of the switchscan binary to run the examples with")
    ap.add_argument("--headings", help="a file of headings (one a line) that must each be a heading of the manual")
    ap.add_argument("--max-lines", action="append", default=[], metavar="PAGE=N", help="PAGE has at most N lines")
    ap.add_argument("--index", help="a page that must link every page of the manual and every top-level page")
    ap.add_argument("--generated", action="append", default=[], metavar="FILE=COMMAND",
                    help="FILE (committed) is exactly what COMMAND prints, run in the sandbox")
    ap.add_argument("--installed", nargs="*", help="what is installed with the manual: links from it stay inside")
    ap.add_argument("--links-only", action="store_true",
                    help="only the links (an installed copy of the manual: no binary, no examples)")
    ap.add_argument("--jobs", type=int, default=2)
    args = ap.parse_args()
    if not args.links_only and not args.bin:
        ap.error("--bin is needed to run the examples (or --links-only)")
    root = os.path.abspath(args.root)
    report = Report()
    helper = None
    if not args.links_only:
        binary = os.path.join(args.bin, "switchscan")
        helper = Help(binary) if os.access(binary, os.X_OK) else None
        if helper is None:
            report.fail(f"{binary}: no switchscan binary to run the examples with (swift build first)")

    pages = link_pages(root)
    manual = set(manual_pages(root))
    anchor_cache = {}
    with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        futures = [pool.submit(check_page, root, p, args, helper, anchor_cache, helper is not None and p in manual) for p in pages]
        for fut in futures:
            for what, problems in fut.result():
                report.check(what, problems)

    if args.headings:
        present = {}
        for p in manual:
            with open(os.path.join(root, p), encoding="utf-8") as f:
                for _, _, text in headings(split_fences(f.read())[1]):
                    present.setdefault(" ".join(text.split()), p)
        with open(args.headings, encoding="utf-8") as f:
            wanted = [l.rstrip("\n") for l in f if l.strip() and not l.startswith("#")]
        missing = [w for w in wanted if " ".join(heading_text(w).split()) not in present]
        report.check(f"each of the {len(wanted)} headings of {os.path.basename(args.headings)} is a heading of README.md or docs/",
                     [f"missing: {m}" for m in missing])

    for spec in args.max_lines:
        page, _, n = spec.rpartition("=")
        with open(os.path.join(root, page), encoding="utf-8") as f:
            count = len(f.read().splitlines())
        report.check(f"{page} has {count} lines (at most {n})", [] if count <= int(n) else [f"{count} lines, more than {n}"])

    if args.index:
        with open(os.path.join(root, args.index), encoding="utf-8") as f:
            prose = split_fences(f.read())[1]
        here = os.path.dirname(args.index)
        linked = {os.path.normpath(os.path.join(here, unquote(t.partition("#")[0]))) for _, t in links(prose)}
        unlinked = [p for p in pages if p != args.index and p not in linked]
        report.check(f"{args.index} links every page ({len(pages) - 1})", [f"not linked: {p}" for p in unlinked])

    for spec in args.generated:
        target, _, command = spec.partition("=")
        if helper is None:
            continue
        box = Sandbox(root, args.bin)
        try:
            r = subprocess.run(["bash", "-c", command], cwd=box.cwd, env=box.env, capture_output=True, timeout=TIMEOUT)
        finally:
            box.close()
        try:
            with open(os.path.join(root, target), "rb") as f:
                committed = f.read()
        except OSError as e:
            committed = None
            problems = [str(e)]
        if committed is not None:
            if r.returncode != 0:
                problems = [f"`{command}` exited with {r.returncode}: {r.stderr.decode(errors='replace')}"]
            elif r.stdout != committed:
                problems = [f"{target} differs from what `{command}` prints now: run it again (from the repository's root: {command} > {target})"]
            else:
                problems = []
        report.check(f"{target} is what `{command}` prints", problems)

    print(f"{report.passed} passed, {report.failed} failed")
    return 1 if report.failed else 0


if __name__ == "__main__":
    sys.exit(main())
