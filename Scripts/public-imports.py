#!/usr/bin/env python3
"""Makes `public import` the imports the compiler says must be public.

Every target builds with the upcoming feature InternalImportsByDefault: an
`import M` is internal, and a file whose public declarations show M's types
(a parameter, a conformance, a public extension of M's type) must say
`public import M`. This reads a build's diagnostics and, for each file and
module they name, turns that file's `import M` into `public import M`. Run it
until the build has no such errors (each run may uncover the next layer of
modules):

    swift build --build-tests 2>&1 | python3 Scripts/public-imports.py

Only import lines change. It prints each file it changed.
"""
import re
import sys

LOCATION = re.compile(r"^(/[^:]+\.swift):\d+:\d+: (?:error|warning|note): (.*)$")
QUOTED = re.compile(r"'([A-Za-z_][A-Za-z0-9_]*)'")
IMPORT = re.compile(r"^(@preconcurrency |@testable )?import ([A-Za-z_][A-Za-z0-9_]*)\s*$")


def imported_modules(lines):
    return {m.group(2) for line in lines if (m := IMPORT.match(line))}


def main():
    wanted = {}
    path = None
    for line in sys.stdin:
        match = LOCATION.match(line.rstrip("\n"))
        if match:
            path, message = match.groups()
        elif path and "note:" in line:
            # The compiler's default style shows a note inside the quoted source
            # of the error's file: "`- note: struct 'URL' imported as 'internal' from 'Foundation' here".
            message = line.split("note:", 1)[1]
        else:
            continue
        # The diagnostics of an import's access level: "imported by this file
        # as 'internal' from 'M'", "'M' was not imported publicly", ...
        if "import" not in message or not ("internal" in message or "publicly" in message):
            continue
        wanted.setdefault(path, set()).update(QUOTED.findall(message))
    for path, names in sorted(wanted.items()):
        with open(path) as file:
            lines = file.read().split("\n")
        modules = imported_modules(lines) & names
        changed = False
        for index, line in enumerate(lines):
            match = IMPORT.match(line)
            if match and match.group(2) in modules:
                attribute = match.group(1) or ""
                lines[index] = f"{attribute}public import {match.group(2)}"
                changed = True
        if changed:
            with open(path, "w") as file:
                file.write("\n".join(lines))
            print(f"{path}: public import {', '.join(sorted(modules))}")


if __name__ == "__main__":
    main()
