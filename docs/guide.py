#!/usr/bin/env python3
"""Regenerates the outputs shown in docs/guide.md from today's binary.

    python3 docs/guide.py            # rewrite docs/guide.md in place
    python3 docs/guide.py --check    # exit 1 and show the difference when it is stale

Every ```text block of the guide whose first line is `$ COMMAND` is run with bash
from the repository's root (`sudolab` is the binary named by SUDOLAB_BIN, default
target/release/sudolab), and the block's other lines become the command's output
(standard output and standard error, as a terminal shows them). A command that
needs what this machine lacks (an external solver or the shared data sets) keeps
its block and is named on standard error.
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GUIDE = os.path.join(ROOT, "docs", "guide.md")
BIN = os.path.abspath(os.environ.get("SUDOLAB_BIN", os.path.join(ROOT, "target", "release", "sudolab")))
DATA = os.environ.get("SUDOLAB_DATA", os.path.join(ROOT, "..", "shared", "data"))
NEEDS = {"minisat": lambda: shutil.which("minisat") is not None,
         "../shared/data": lambda: os.path.isdir(DATA)}


def run(command, work):
    """The output of one guide command, run in a scratch directory that
    links the repository's files the guide names (tests/, examples/)."""
    shell = f'sudolab() {{ "{BIN}" "$@"; }}; {command}'
    out = subprocess.run(["bash", "-c", shell], cwd=work, capture_output=True, text=True,
                         env={**os.environ, "NO_COLOR": "1"})
    text = out.stdout + out.stderr
    return text.rstrip("\n").split("\n") if text.strip() else []


def main():
    check = "--check" in sys.argv[1:]
    if not os.access(BIN, os.X_OK):
        sys.exit(f"{BIN}: no binary (cargo build --release, or set SUDOLAB_BIN)")
    lines = open(GUIDE, encoding="utf-8").read().split("\n")
    out, i, stale = [], 0, 0
    with tempfile.TemporaryDirectory() as work:
        for name in ("tests", "examples"):
            os.symlink(os.path.join(ROOT, name), os.path.join(work, name))
        while i < len(lines):
            line = lines[i]
            out.append(line)
            i += 1
            if line != "```text" or i >= len(lines) or not lines[i].startswith("$ "):
                continue
            end = lines.index("```", i)
            # A block may hold several commands, each followed by its output.
            starts = [k for k in range(i, end) if lines[k].startswith("$ ")]
            for n, k in enumerate(starts):
                stop = starts[n + 1] if n + 1 < len(starts) else end
                command = lines[k][2:]
                missing = [x for x, have in NEEDS.items() if x in command and not have()]
                if missing:
                    print(f"guide.py: kept as written (needs {', '.join(missing)}): {command}", file=sys.stderr)
                    out.extend(lines[k:stop])
                    continue
                got = run(command.replace("../shared/data", DATA), work)
                # A blank line before the next command stays.
                gap = [""] if stop < end and lines[stop - 1] == "" else []
                body = [lines[k]] + got + gap
                stale += body != lines[k:stop]
                out.extend(body)
            i = end
    new = "\n".join(out)
    if check:
        if stale:
            import difflib
            sys.stdout.writelines(difflib.unified_diff(
                open(GUIDE, encoding="utf-8").read().splitlines(True), new.splitlines(True),
                "docs/guide.md", "today's binary"))
            sys.exit(f"guide.py: {stale} block(s) of docs/guide.md differ from today's binary")
        return
    with open(GUIDE + ".tmp", "w", encoding="utf-8") as f:
        f.write(new)
    os.replace(GUIDE + ".tmp", GUIDE)
    print(f"guide.py: {stale} block(s) rewritten", file=sys.stderr)


if __name__ == "__main__":
    main()
