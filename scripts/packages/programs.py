#!/usr/bin/env python3
"""Every program the tests and scripts call, and the Debian package it comes from (issue 32).

    programs.py check [--root DIR]     one line per program (ok / FAIL with the reason), then
                                       "N passed, M failed"; exit status 1 when anything failed
    programs.py list [--root DIR]      every program found, where it is called, its package here
    programs.py missing PROGRAM…       "missing: PROGRAM (Debian package P)" for each one absent here;
                                       exit status 1 when one is (the scripts' and tests' helper)

A fresh CI machine has Debian's essential packages, the Swift toolchain and what
scripts/setup.sh --tests installs from scripts/apt/*.list: nothing else. A test that calls a
program from any other package passes on a developer's machine and fails (or skips) on CI. So the
calls are found in the files themselves, and each is held to the table scripts/apt/programs.txt
(`PROGRAM PACKAGE`, from `dpkg -S`):

  - Swift (Tests/, Sources/): absolute paths of programs (/usr/bin/X, /bin/X, /usr/sbin/X,
    /usr/libexec/…); `"/usr/bin/env", "X"`; `run(["X"` (a program found on PATH).
  - Python (scripts/, Tests/): subprocess's `["X", …]`, shutil.which("X"), absolute paths.
  - Shell (scripts/**/*.sh, .ci/run, Tests/**/*.sh, and the docs' examples that the doc test
    runs): the command word of every simple command (after assignments, redirections and
    prefixes such as exec, nice, timeout, env, sudo), in pipelines, lists, $( ) and ` `,
    `bash -c '…'`; `command -v X`, `which X`, `type -P X`; not heredocs' bodies (other languages,
    or scripts for the test VM), not functions defined in the scripts, not shell builtins.
  - Shebang lines of the scripts and fixtures.

Each program then passes when: the table names its package; that package is named in a
scripts/apt/*.list, or is Essential (every Debian has it), or the program is the Swift
toolchain's (`swift` in the table) or this project's own (`switchscan`); it is here (else
"missing: PROGRAM (Debian package P)"); and `dpkg -S` agrees with the table. A row nothing calls
any more fails too, so the table stays the exact list. Files run inside the test VM (busybox) are
named in the table with `vm FILE` and not read.
"""

import os
import re
import subprocess
import sys

SELF = os.path.dirname(os.path.abspath(__file__))
DEFAULT_ROOT = os.path.normpath(os.path.join(SELF, "..", ".."))
TABLE = "scripts/apt/programs.txt"
PATH_DIRS = ("/usr/local/bin", "/usr/bin", "/bin", "/usr/sbin", "/sbin")
DEBIAN_DIRS = ("/usr/bin", "/bin", "/usr/sbin", "/sbin", "/usr/games")
# Packages that are not Debian's: the Swift toolchain (/opt/swift or wherever `swift` is) and
# what this project builds.
NOT_DEBIAN = {"swift", "switchscan"}
# This project's own installed files (scripts/install.sh, the .deb): no Debian package but ours.
OWN_FILE = re.compile(r"^/usr/(?:share|lib|libexec)/switchscan/")

BUILTINS = set("""
. : [ [[ ]] alias bg bind break builtin caller case cd command compgen complete compopt continue
declare dirs disown do done echo elif else enable esac eval exec exit export false fc fg fi for
function getopts hash help history if in jobs kill let local logout mapfile popd printf pushd pwd
read readarray readonly return select set shift shopt source suspend test then time times trap
true type typeset ulimit umask unalias unset until wait while { } ! coproc
""".split())
# Words that run the command after them (with their own options).
PREFIXES = {
    "exec": set(), "command": set(), "builtin": set(), "time": {"-p"},
    "nice": {"-n"}, "timeout": {"-s", "-k", "--signal", "--kill-after"}, "env": {"-u", "-C", "-S"},
    "sudo": {"-u", "-g"}, "setsid": set(), "nohup": set(), "stdbuf": {"-i", "-o", "-e"},
    "ionice": {"-c", "-n"}, "chrt": set(), "taskset": set(), "xargs": {"-n", "-I", "-P", "-d", "-L", "-s", "-a"},
    "flock": {"-w", "-E"}, "unshare": {"--propagation", "-S", "-G", "--setuid", "--setgid", "-R", "-w"}, "setpriv": set(),
    "strace": {"-o", "-e", "-p"},
    # GNU time (/usr/bin/time), not bash's keyword: its format and output file come before the command.
    "/usr/bin/time": {"-f", "--format", "-o", "--output"},
}
# Prefixes whose first operand is not the command (timeout DURATION, taskset MASK, chrt PRIO, flock FILE).
PREFIX_OPERANDS = {"timeout": 1, "taskset": 1, "chrt": 1, "flock": 1}
SEPARATORS = {";", "&", "&&", "||", "|", "|&", "(", ")", "{", "}", "!", ";;", ";&", ";;&", "\n"}
COMMAND_KEYWORDS = {"then", "do", "else", "elif", "if", "while", "until", "time", "!", "{", "coproc"}

ARRAY_ASSIGNMENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*(\[[^]]*\])?\+?=$")
SH_PATH = re.compile(r"(?<![\w./$-])((?:/usr)?/(?:s?bin|games)/[A-Za-z0-9_.+-]+|/usr/libexec/[A-Za-z0-9_.+/-]+)")
# Files of packages a test reads (a layout, a model, headers, examples): held to the table like
# programs. In Swift and Python string literals, whole (no interpolation).
FILE_PATH = re.compile(r"""["'](/usr/(?:share|lib|include)/[A-Za-z0-9_.+/-]+?)/?["']""")
SWIFT_ENV = re.compile(r'"/usr/bin/env",\s*(?:"[A-Z_]+=[^"]*",\s*)*"([A-Za-z0-9_.+-]+)"')
SWIFT_RUN = re.compile(r'\brun\(\[\s*"([a-z][A-Za-z0-9_.+-]*)"')
PY_CALL = re.compile(r"""\b(?:subprocess\.)?(?:run|Popen|call|check_call|check_output)\(\s*\[\s*(?:f?["'])([^"'\s]+)["']""")
PY_WHICH = re.compile(r"""shutil\.which\(\s*["']([^"']+)["']""")
SHEBANG = re.compile(r"^#!\s*(\S+)(?:\s+(\S+))?")


class Call:
    def __init__(self, program, where):
        self.program, self.where = program, where


def program_key(word):
    """A program as the table keys it: a name found on PATH by its name, an absolute path in a
    PATH folder by its name (merged /usr: /bin/sh is /usr/bin/sh), any other path as it is."""
    if word.startswith("/"):
        d, b = os.path.split(word)
        return b if d in PATH_DIRS else word
    return word


# --- Shell ----------------------------------------------------------------------------------------

class ShellScanner:
    """The command words of a bash script: a small lexer that knows quoting, $( ), heredocs, case
    arms, for lists, [[ ]] and (( )), enough for this project's scripts. Not a full parser: what
    it cannot place is reported as a program the table does not know, never dropped silently."""

    # Functions of the scripts that run their arguments (shell_runners), set before scanning.
    runners = {}

    def __init__(self, text, where, functions):
        self.s, self.where, self.functions = text, where, functions
        self.calls = []
        self.last_command = None

    def scan(self):
        self.i = 0
        self.line = 1
        self.heredocs = []
        self.script(end=None)
        return self.calls

    # Low level -----------------------------------------------------------------------------
    def peek(self, k=0):
        j = self.i + k
        return self.s[j] if j < len(self.s) else ""

    def advance(self, n=1):
        for _ in range(n):
            if self.i < len(self.s) and self.s[self.i] == "\n":
                self.line += 1
            self.i += 1

    def skip_blanks(self):
        while True:
            c = self.peek()
            if c in (" ", "\t"):
                self.advance()
            elif c == "\\" and self.peek(1) == "\n":
                self.advance(2)
            elif c == "#":
                while self.peek() not in ("", "\n"):
                    self.advance()
            else:
                return

    def newline(self):
        self.advance()
        # Heredoc bodies start after the line that opened them: skipped (another language, or a
        # script for the VM, or text).
        while self.heredocs:
            delim, strip = self.heredocs.pop(0)
            while self.i < len(self.s):
                start = self.i
                while self.peek() not in ("", "\n"):
                    self.advance()
                body = self.s[start:self.i]
                self.advance()
                if (body.lstrip("\t") if strip else body) == delim:
                    break

    def word(self):
        """One word (quotes kept, substitutions inside scanned); None at an operator or the end."""
        start, depth = self.i, 0
        out = []
        while True:
            c = self.peek()
            if c == "" or (c in " \t\n;&|<>()" and depth == 0):
                if c == "(" and ARRAY_ASSIGNMENT.match("".join(out)):
                    depth += 1  # NAME=( … ): its words are not commands
                    out.append(c)
                    self.advance()
                    continue
                if c in "()" and out and out[-1] in ("@", "?", "*", "+", "!") and c == "(":
                    depth += 1  # extglob
                    out.append(c)
                    self.advance()
                    continue
                break
            if c == "\\":
                out.append(c + self.peek(1))
                self.advance(2)
            elif c == "'":
                self.advance()
                while self.peek() not in ("", "'"):
                    out.append(self.peek())
                    self.advance()
                self.advance()
                out.append("'")  # marks the word as quoted
            elif c == '"':
                self.advance()
                out.append('"')
                while self.peek() not in ("", '"'):
                    if self.peek() == "\\":
                        self.advance(2)
                    elif self.peek() == "$" and self.peek(1) == "(":
                        self.substitution()
                    elif self.peek() == "`":
                        self.backtick()
                    else:
                        out.append(self.peek())
                        self.advance()
                self.advance()
                out.append('"')
            elif c == "$" and self.peek(1) == "(":
                self.substitution()
                out.append("$(…)")
            elif c == "$" and self.peek(1) == "{":
                d = 0
                while self.peek() != "":
                    ch = self.peek()
                    self.advance()
                    if ch == "{":
                        d += 1
                    elif ch == "}":
                        d -= 1
                        if d == 0:
                            break
                out.append("${…}")
            elif c == "`":
                self.backtick()
                out.append("`…`")
            elif c in "()":
                # Inside a word: an array assignment's list (NAME=( … )) or a glob's group.
                depth += 1 if c == "(" else -1
                out.append(c)
                self.advance()
            else:
                out.append(c)
                self.advance()
        if self.i == start:
            return None
        return "".join(out)

    def substitution(self):
        """$( … ) or $(( … )): a script inside (arithmetic skipped)."""
        if self.peek(2) == "(":
            self.advance(3)
            d = 2
            while self.peek() != "" and d > 0:
                d += {"(": 1, ")": -1}.get(self.peek(), 0)
                self.advance()
            return
        self.advance(2)
        self.script(end=")")
        self.advance()

    def backtick(self):
        self.advance()
        start = self.i
        while self.peek() not in ("", "`"):
            self.advance(2 if self.peek() == "\\" else 1)
        inner = self.s[start:self.i]
        self.advance()
        self.calls += ShellScanner(inner, self.where_at(), self.functions).scan()

    def where_at(self):
        return f"{self.where}:{self.line}"

    def operator(self):
        for op in (";;&", ";;", ";&", "&&", "||", "|&", ">>", "<<<", "<<-", "<<", "<&", ">&", "&>", ";", "&", "|", "<", ">", "(", ")"):
            if self.s.startswith(op, self.i):
                self.advance(len(op))
                return op
        return None

    # Structure -----------------------------------------------------------------------------
    def script(self, end):
        """Commands until `end` (")" of a substitution) or the end of the text."""
        expect = "command"   # command | args | case-word | case-in | pattern | for-words
        case_depth = []
        while True:
            self.skip_blanks()
            c = self.peek()
            if c == "":
                return
            if c == "\n":
                self.newline()
                if expect == "args" or expect == "for-words":
                    expect = "command"
                continue
            if end == ")" and c == ")" and expect != "pattern":
                return
            # Case patterns: everything up to the unquoted ")" is a pattern.
            if expect == "pattern":
                w = self.word()
                if w == "esac":
                    case_depth.pop()
                    expect = "args"
                    continue
                if w is None:
                    op = self.operator()
                    if op == ")":
                        expect = "command"
                    elif op is None:
                        self.advance()
                continue
            if c in ";&|<>()":
                if c in "<>" or self.s.startswith("&>", self.i):
                    op = self.operator()
                    self.skip_blanks()
                    if op in ("<<", "<<-"):
                        self.skip_blanks()
                        delim = self.word() or ""
                        self.heredocs.append((delim.replace("'", "").replace('"', "").replace("\\", ""), op == "<<-"))
                    else:
                        if self.peek() == "(":  # process substitution <( … )
                            self.advance()
                            self.script(end=")")
                            self.advance()
                        else:
                            self.word()
                    continue
                op = self.operator()
                if op in (";;", ";&", ";;&") and case_depth:
                    expect = "pattern"
                    continue
                if op == "(" and expect == "args":
                    # name() { …: a function definition
                    self.skip_blanks()
                    if self.peek() == ")":
                        self.advance()
                    expect = "command"
                    continue
                if op == "(" and self.peek() == "(":
                    # (( arithmetic ))
                    d = 1
                    while self.peek() != "" and d > 0:
                        d += {"(": 1, ")": -1}.get(self.peek(), 0)
                        self.advance()
                    if self.peek() == ")":
                        self.advance()
                    expect = "args"
                    continue
                if op == ")" and end == ")":
                    self.i -= 1
                    return
                expect = "command"
                continue
            w = self.word()
            if w is None:
                self.advance()
                continue
            if (w.isdigit() or re.match(r"^\{[A-Za-z_][A-Za-z0-9_]*\}$", w)) and self.peek() in ("<", ">"):
                continue  # 2>file, {fd}<&0: a redirection; its operator and target come next
            if expect == "case-word":
                expect = "case-in"
                continue
            if expect == "case-in":
                if w == "in":
                    expect = "pattern"
                continue
            if expect == "for-words":
                if w == "do":
                    expect = "command"
                continue
            if expect == "args":
                if w == "-c" and self.last_command in ("bash", "sh") and self.peek_quoted():
                    self.inner_script()
                self.path_operand(w)
                continue
            # A command position.
            if re.match(r"^[A-Za-z_][A-Za-z0-9_]*(\[[^]]*\])?\+?=", w):
                continue  # an assignment before the command (its $( ) was scanned)
            if w in COMMAND_KEYWORDS or w in ("fi", "done", "esac", "}", "in"):
                if w == "esac" and case_depth:
                    case_depth.pop()
                continue
            if w == "case":
                case_depth.append(True)
                expect = "case-word"
                continue
            if w in ("for", "select"):
                expect = "for-words"
                continue
            if w == "function":
                self.skip_blanks()
                name = self.word()
                if name:
                    self.functions.add(name)
                expect = "args"
                continue
            if w == "[[":
                self.skip_test()
                expect = "args"
                self.last_command = w
                continue
            self.command(w)
            expect = "args"

    def skip_test(self):
        """The rest of `[[ … ]]`: operands and a regex (`=~ ^(a|b)$`), never commands; $( ) inside
        is still read."""
        while self.peek() != "":
            if self.s.startswith("]]", self.i):
                self.advance(2)
                return
            c = self.peek()
            if c == "\\":
                self.advance(2)
            elif c == "'":
                self.advance()
                while self.peek() not in ("", "'"):
                    self.advance()
                self.advance()
            elif c == "$" and self.peek(1) == "(":
                self.substitution()
            else:
                self.advance()

    def path_operand(self, w):
        """An operand that is a package's program or file by its path (`cp /usr/bin/kwin_wayland …`,
        `[ -x /usr/libexec/…/x ]`): used by the script as surely as a command."""
        bare = w.replace('"', "").replace("'", "")
        if "$" not in w and "…" not in w and (SH_PATH.fullmatch(bare) or FILE_PATH.fullmatch('"' + bare + '"')):
            self.calls.append(Call(bare.rstrip("/"), self.where_at()))

    def peek_quoted(self):
        self.skip_blanks()
        return self.peek() in ("'", '"')

    def inner_script(self):
        """The script of `bash -c '…'`: scanned as a script of its own."""
        q = self.peek()
        self.advance()
        start, line = self.i, self.line
        while self.peek() not in ("", q):
            self.advance(2 if (q == '"' and self.peek() == "\\") else 1)
        inner = self.s[start:self.i]
        if q == '"':
            inner = re.sub(r'\\([$`"\\])', r"\1", inner)  # what the inner shell reads
        self.advance()
        sub = ShellScanner(inner, f"{self.where}:{line}", self.functions)
        self.calls += sub.scan()

    def command(self, w):
        """A word in command position: a program, unless a builtin, a function, a variable or a
        file of the project; prefixes such as `exec` and `timeout 5` pass to the next word."""
        self.last_command = w
        # A function definition: name() or name () {.
        save_i, save_line = self.i, self.line
        self.skip_blanks()
        if self.s.startswith("()", self.i):
            self.functions.add(w)
            self.advance(2)
            return
        self.i, self.line = save_i, save_line
        bare = w.replace('"', "").replace("'", "")
        if "$" in w or "`" in w or "…" in w or bare == "":
            return  # a command held in a variable: not knowable here
        if bare in BUILTINS:
            if bare in ("command", "type", "hash") and self.lookup_form(bare):
                return
            if bare in PREFIXES:
                self.prefix(bare)
            return
        if bare.startswith("/"):
            self.calls.append(Call(bare, self.where_at()))
        elif "/" in bare:
            return  # a file of the project (scripts/…, ./x)
        else:
            self.calls.append(Call(bare, self.where_at()))
        name = os.path.basename(bare)
        if bare in ShellScanner.runners:
            self.prefix(bare, operands=ShellScanner.runners[bare])
        elif name == "which":
            self.lookup_operands()
        elif name == "time":
            self.prefix("/usr/bin/time")
        elif name in PREFIXES:
            self.prefix(name)

    def lookup_form(self, builtin):
        """`command -v X`, `type -P X`, `hash X`: X is a program looked up (True: consumed)."""
        save_i, save_line = self.i, self.line
        self.skip_blanks()
        w = self.word()
        if builtin == "command" and w in ("-v", "-V"):
            self.lookup_operands()
            return True
        if builtin == "type" and w in ("-P", "-p", "-t", "-a"):
            self.lookup_operands()
            return True
        if builtin == "hash" and w:
            self.calls.append(Call(w.replace('"', "").replace("'", ""), self.where_at()))
            return True
        self.i, self.line = save_i, save_line
        return False

    def lookup_operands(self):
        while True:
            self.skip_blanks()
            if self.peek() in ("", "\n", ";", "&", "|", ")", ">", "<"):
                return
            w = self.word()
            if w is None:
                return
            bare = w.replace('"', "").replace("'", "")
            if bare.startswith("-") or "$" in w or "…" in w or (("/" in bare) and not bare.startswith("/")):
                continue
            self.calls.append(Call(bare, self.where_at()))

    def prefix(self, name, operands=None):
        """The command a prefix runs: its options skipped, then the next word is a command."""
        takes = PREFIXES.get(name, set())
        operands = PREFIX_OPERANDS.get(name, 0) if operands is None else operands
        while True:
            self.skip_blanks()
            if self.peek() in ("<", ">"):
                self.operator()
                self.skip_blanks()
                self.word()
                continue
            save_i, save_line = self.i, self.line
            w = self.word()
            if w is None:
                return
            if (w.isdigit() or re.match(r"^\{[A-Za-z_][A-Za-z0-9_]*\}$", w)) and self.peek() in ("<", ">"):
                continue
            bare = w.replace('"', "").replace("'", "")
            if bare.startswith("-") and operands == 0:
                if bare in takes:
                    self.skip_blanks()
                    self.word()
                continue
            if name == "env" and re.match(r"^[A-Za-z_][A-Za-z0-9_]*=", bare):
                continue
            if operands > 0:
                operands -= 1
                continue
            self.i, self.line = save_i, save_line
            w = self.word()
            if w in ("-v", "-V") and name == "command":
                return
            if re.match(r"^[A-Za-z_][A-Za-z0-9_]*=", bare):
                continue
            self.command(w)
            return


def shell_calls(text, where, functions):
    return ShellScanner(text, where, functions).scan()


RUNS_ARGS = re.compile(r'(?:^|[;&|({]|\$\(|\b(?:then|do|if|until|while)\b|!)\s*"\$@"', re.M)


def shell_runners(text):
    """Functions that run their arguments as a command (`check NAME CMD…`: `shift; "$@"`), with how
    many leading arguments they shift off first: the word after those is a command."""
    runners = {}
    lines = text.split("\n")
    for k, line in enumerate(lines):
        m = re.match(r"^(\s*)(?:function\s+)?([A-Za-z_][A-Za-z0-9_-]*)\s*\(\)\s*\{(.*)$", line)
        if not m:
            continue
        body = m.group(3)
        if not body.rstrip().endswith("}"):
            for rest in lines[k + 1:]:
                if rest.strip() == "}" and len(rest) - len(rest.lstrip()) <= len(m.group(1)):
                    break
                body += "\n" + rest
        run = RUNS_ARGS.search(body)
        if run:
            shifts = sum(int(n or 1) for n in re.findall(r"\bshift\b(?:\s+(\d+))?", body[:run.start()]))
            runners[m.group(2)] = shifts
    return runners


def shell_functions(text):
    return set(re.findall(r"^\s*(?:function\s+)?([A-Za-z_][A-Za-z0-9_-]*)\s*\(\)\s*\{?", text, re.M)) | \
        set(re.findall(r"^\s*function\s+([A-Za-z_][A-Za-z0-9_-]*)", text, re.M))


# --- Files ----------------------------------------------------------------------------------------

def walk(root, folders, suffixes):
    for folder in folders:
        top = os.path.join(root, folder)
        if os.path.isfile(top):
            yield os.path.relpath(top, root)
            continue
        for d, dirs, files in os.walk(top):
            # The checker's own fixture projects (scripts/*/fixtures) are not the project's.
            dirs[:] = sorted(x for x in dirs if x not in (".build", ".git", "fixtures"))
            for f in sorted(files):
                if f.endswith(suffixes):
                    yield os.path.relpath(os.path.join(d, f), root)


def read(root, rel):
    try:
        with open(os.path.join(root, rel), encoding="utf-8") as f:
            return f.read()
    except (UnicodeDecodeError, OSError):
        return None


def doc_blocks(root):
    """The docs' examples the doc test runs (```sh and ```console, not no-run or synopsis)."""
    sys.path.insert(0, os.path.join(root, "scripts", "docs"))
    try:
        import check_docs
    except ImportError:
        return []
    pages = ["README.md"] + sorted("docs/" + f for f in os.listdir(os.path.join(root, "docs")) if f.endswith(".md")) \
        if os.path.isdir(os.path.join(root, "docs")) else []
    out = []
    for page in pages:
        text = read(root, page)
        if text is None:
            continue
        blocks, _ = check_docs.split_fences(text)
        for line, info, body in blocks:
            b = check_docs.Block(page, line, info, body)
            if b.lang not in ("sh", "console") or b.rest:
                continue
            out.append((f"{page}:{line}", "\n".join(check_docs.command_lines(b))))
    return out


def find_calls(root, vm_files):
    calls = []
    shell_files = [f for f in walk(root, ["scripts", "Tests", ".ci/run"], (".sh", "run")) if f not in vm_files]
    functions = set()
    runners = {}
    texts = {}
    for f in shell_files:
        t = read(root, f)
        if t is not None:
            texts[f] = t
            functions |= shell_functions(t)
            runners.update(shell_runners(t))
    ShellScanner.runners = runners
    docs = doc_blocks(root)
    for where, text in docs:
        functions |= shell_functions(text)
    for f, t in texts.items():
        calls += shell_calls(t, f, functions)
    for where, text in docs:
        calls += shell_calls(text, where, functions)
    calls = [c for c in calls if c.program not in functions]

    for f in walk(root, ["Tests", "Sources"], (".swift",)):
        t = read(root, f) or ""
        for n, line in enumerate(t.split("\n"), 1):
            code = line.split("//", 1)[0] if not line.lstrip().startswith("///") else ""
            if line.lstrip().startswith("//"):
                continue
            for rx in (SH_PATH, FILE_PATH):
                for m in rx.finditer(code):
                    calls.append(Call(m.group(1), f"{f}:{n}"))
            for rx in (SWIFT_ENV, SWIFT_RUN) if f.startswith("Sources/") else (SWIFT_ENV,):
                for m in rx.finditer(code):
                    calls.append(Call(m.group(1), f"{f}:{n}"))
    for f in walk(root, ["scripts", "Tests"], (".py",)):
        if f in vm_files or f == "scripts/packages/programs.py":
            continue
        # Docstrings name programs in prose: blanked (lines kept for the places).
        t = re.sub(r'("""|\'\'\')[\s\S]*?\1', lambda m: "\n" * m.group(0).count("\n"), read(root, f) or "")
        for n, line in enumerate(t.split("\n"), 1):
            code = line.split("#", 1)[0] if n > 1 else line
            if n == 1:
                m = SHEBANG.match(line)
                if m:
                    calls += shebang_calls(m, f"{f}:1")
                continue
            for rx in (SH_PATH, FILE_PATH):
                for m in rx.finditer(code):
                    calls.append(Call(m.group(1), f"{f}:{n}"))
            for rx in (PY_CALL, PY_WHICH):
                for m in rx.finditer(code):
                    p = m.group(1)
                    if "{" in p or (("/" in p) and not p.startswith("/")) or p.startswith("-"):
                        continue
                    calls.append(Call(p, f"{f}:{n}"))
    # Shebangs of the shell scripts (the Python ones are read above).
    for f in texts:
        m = SHEBANG.match(texts[f].split("\n", 1)[0])
        if m:
            calls += shebang_calls(m, f"{f}:1")
    return calls


def shebang_calls(m, where):
    out = [Call(m.group(1), where)]
    if os.path.basename(m.group(1)) == "env" and m.group(2):
        out.append(Call(m.group(2), where))
    return out


# --- The table and the packages -------------------------------------------------------------------

def load_table(root):
    """{program: (package, line)}, the VM's files, problems."""
    table, vm, problems = {}, set(), []
    path = os.path.join(root, TABLE)
    try:
        lines = open(path, encoding="utf-8").read().split("\n")
    except OSError as e:
        return table, vm, [f"{TABLE}: cannot read it: {e.strerror}"]
    for n, raw in enumerate(lines, 1):
        words = raw.split("#", 1)[0].split()
        if not words:
            continue
        if words[0] == "vm" and len(words) == 2:
            vm.add(words[1])
        elif len(words) == 2:
            if words[0] in table:
                problems.append(f"{TABLE}:{n}: {words[0]} is listed twice (first at line {table[words[0]][1]})")
            table[words[0]] = (words[1], n)
        else:
            problems.append(f"{TABLE}:{n}: expected `PROGRAM PACKAGE` or `vm FILE`, found {raw.strip()!r}")
    return table, vm, problems


def listed_packages(root):
    """{package: the lists naming it} over every scripts/apt/*.list (build and test)."""
    out = {}
    d = os.path.join(root, "scripts", "apt")
    for f in sorted(os.listdir(d)) if os.path.isdir(d) else []:
        if not f.endswith(".list"):
            continue
        for raw in open(os.path.join(d, f), encoding="utf-8"):
            words = raw.split("#", 1)[0].split()
            if words:
                out.setdefault(words[0], []).append(f)
    return out


class Dpkg:
    """What dpkg knows here, asked in a few batched calls (each dpkg-query takes a while)."""

    def __init__(self):
        self.owners = {}
        self.packages = None

    def ask_owners(self, paths):
        paths = [p for p in dict.fromkeys(paths) if p not in self.owners and os.path.lexists(p)]
        for p in paths:
            self.owners[p] = None
        for k in range(0, len(paths), 200):
            try:
                r = subprocess.run(["dpkg-query", "-S"] + paths[k:k + 200], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                   text=True, timeout=120)
            except (OSError, subprocess.TimeoutExpired):
                return
            for line in r.stdout.split("\n"):
                if ": " not in line or line.startswith("diversion"):
                    continue
                pkgs, path = line.split(": ", 1)
                if path in self.owners and self.owners[path] is None:
                    self.owners[path] = pkgs.split(",")[0].split(":")[0].strip()

    def installed(self):
        """{package: (essential, [packages it depends on])}"""
        if self.packages is None:
            self.packages = {}
            try:
                r = subprocess.run(["dpkg-query", "-W", "-f=${Package}\t${Essential}\t${Priority}\t${Pre-Depends}, ${Depends}\n"],
                                   stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, timeout=120)
                out = r.stdout
            except (OSError, subprocess.TimeoutExpired):
                out = ""
            for line in out.split("\n"):
                parts = line.split("\t")
                if len(parts) == 4:
                    deps = [d.strip().split(" ")[0].split(":")[0] for alt in parts[3].split(",") for d in alt.split("|")]
                    self.packages[parts[0]] = (parts[1] == "yes" or parts[2] == "required", [d for d in deps if d])
        return self.packages

    def essential(self, package):
        """Essential, or of priority required: every Debian has it (debootstrap's minbase, the
        Debian container images)."""
        return self.installed().get(package, (False, []))[0]

    def brings(self, package, owner):
        """The listed package is the owner, or depends on it directly (python3 → python3-minimal,
        imagemagick → imagemagick-6.q16)."""
        return package == owner or owner in self.installed().get(package, (False, []))[1]

    @staticmethod
    def candidates(key):
        paths = [key] if key.startswith("/") else [os.path.join(d, key) for d in DEBIAN_DIRS]
        out = []
        for c in paths:
            out.append(c)
            if c.startswith("/usr/") and c.split("/")[2] in ("bin", "sbin"):
                out.append(c[4:])
            elif c.split("/")[1] in ("bin", "sbin"):
                out.append("/usr" + c)
        return out

    def owner(self, key):
        """The Debian package that has the program here (merged /usr: /bin and /usr/bin both asked;
        a symbolic link's target too, as for alternatives)."""
        paths = self.candidates(key)
        self.ask_owners(paths)
        for c in paths:
            if self.owners.get(c):
                return self.owners[c]
        reals = [os.path.realpath(c) for c in paths if os.path.lexists(c)]
        self.ask_owners(reals)
        for c in reals:
            if self.owners.get(c):
                return self.owners[c]
        return None


DPKG = Dpkg()


def owner(key):
    return DPKG.owner(key)


def is_file(key):
    """A package's file or folder the tests read, not a program."""
    return FILE_PATH.match('"' + key + '"') is not None and not key.startswith("/usr/lib/") or \
        (key.startswith("/usr/lib/") and not os.access(key, os.X_OK)) or (key.startswith("/usr/lib/") and os.path.isdir(key))


def locate(key):
    """Where the program is here, as Debian installs it (a name: in the Debian folders, not in
    ~/.pyenv or /usr/local), or None."""
    if is_file(key):
        return key if os.path.exists(key) else None
    if key.startswith("/"):
        return key if os.access(key, os.X_OK) and os.path.isfile(key) else None
    for d in DEBIAN_DIRS:
        p = os.path.join(d, key)
        if os.access(p, os.X_OK) and os.path.isfile(p):
            return p
    return None


def swift_program(key):
    """The Swift toolchain's own program (next to `swift`), not a Debian package's."""
    name = os.path.basename(key)
    for d in os.environ.get("PATH", "").split(os.pathsep):
        if os.path.isfile(os.path.join(d, "swift")) and os.path.isfile(os.path.join(d, name)):
            return os.path.join(d, name)
    return None


def missing_message(key, table):
    pkg = table.get(key, (None,))[0]
    name = key
    if pkg is None:
        return f"missing: {name} (no Debian package for it in {TABLE})"
    if pkg in NOT_DEBIAN:
        return f"missing: {name} ({'the Swift toolchain' if pkg == 'swift' else 'build switchscan: swift build'})"
    return f"missing: {name} (Debian package {pkg})"


# --- Commands -------------------------------------------------------------------------------------

def check(root):
    table, vm, problems = load_table(root)
    lists = listed_packages(root)
    calls = find_calls(root, vm)
    by_key = {}
    for c in calls:
        by_key.setdefault(program_key(c.program), []).append(c)
    DPKG.ask_owners([c for key in by_key for c in Dpkg.candidates(key)])
    passed = failed = 0

    def fail(what, detail):
        nonlocal failed
        failed += 1
        print(f"FAIL {what}: {detail}")

    for p in problems:
        fail("the table", p)
    for key in sorted(by_key):
        where = by_key[key]
        first = where[0].where + (f" and {len(where) - 1} more" if len(where) > 1 else "")
        if key not in table and OWN_FILE.match(key):
            passed += 1
            print(f"ok   {key}: installed by this project ({first})")
            continue
        if key not in table:
            here = owner(key)
            # The package a list names that brings the owner (python3 for python3-minimal's).
            here = next((p for p in sorted(lists) if here and here not in lists and DPKG.brings(p, here)), here)
            hint = f"`{key} {here}` (dpkg -S)" if here else (f"`{key} swift`" if swift_program(key) else "`" + key + " PACKAGE` (find it with apt-file search)")
            fail(key, f"called at {first}, but {TABLE} does not say which Debian package has it: add {hint}")
            continue
        pkg = table[key][0]
        if pkg == "switchscan":
            passed += 1
            print(f"ok   {key}: built by this project ({first})")
            continue
        if pkg == "swift":
            if swift_program(key) and not owner(key):
                passed += 1
                print(f"ok   {key}: the Swift toolchain's ({first})")
            else:
                fail(key, f"{TABLE} says the Swift toolchain has it, but it is not next to `swift` here" + (f" (Debian package {owner(key)})" if owner(key) else ""))
            continue
        how = ", ".join(lists[pkg]) if pkg in lists else ("Essential or required" if DPKG.essential(pkg) else None)
        if how is None:
            fail(key, f"called at {first}; its Debian package {pkg} is named in no scripts/apt/*.list and is neither Essential nor of priority required, so a fresh machine lacks it: add {pkg} to the scripts/apt/test-*.list of the area that calls it")
            continue
        if not locate(key):
            fail(key, f"{missing_message(key, table)}, called at {first} ({pkg} is in {how}: scripts/setup.sh --tests installs it)")
            continue
        have = owner(key)
        if not have or not DPKG.brings(pkg, have):
            fail(key, f"{TABLE} says Debian package {pkg}, but dpkg -S says {have or 'no package'} has {locate(key)}")
            continue
        passed += 1
        print(f"ok   {key}: {pkg} ({how}), called at {first}")
    for key in sorted(set(table) - set(by_key)):
        fail(key, f"{TABLE}:{table[key][1]} lists it, but nothing calls it any more: remove the row")
    for f in sorted(vm):
        if not os.path.exists(os.path.join(root, f)):
            fail(f, f"{TABLE} names it as a file run inside the test VM, but there is no such file")
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


def list_calls(root):
    table, vm, _ = load_table(root)
    by_key = {}
    for c in find_calls(root, vm):
        by_key.setdefault(program_key(c.program), []).append(c.where)
    DPKG.ask_owners([c for key in by_key for c in Dpkg.candidates(key)])
    for key in sorted(by_key):
        print(f"{key}\t{table.get(key, ('?',))[0]}\t{owner(key) or '-'}\t{', '.join(by_key[key][:3])}")
    return 0


def missing(root, programs):
    table, _, _ = load_table(root)
    status = 0
    for p in programs:
        key = program_key(p)
        if not locate(p if p.startswith("/") else key) and not (table.get(key, ("",))[0] == "swift" and swift_program(key)):
            print(missing_message(key, table))
            status = 1
    return status


def main(argv):
    root = DEFAULT_ROOT
    args = list(argv)
    if "--root" in args:
        k = args.index("--root")
        root = os.path.abspath(args[k + 1])
        del args[k:k + 2]
    if not args or args[0] not in ("check", "list", "missing"):
        print(__doc__.strip().split("\n\n")[1], file=sys.stderr)
        return 2
    if args[0] == "check":
        return check(root)
    if args[0] == "list":
        return list_calls(root)
    return missing(root, args[1:])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
