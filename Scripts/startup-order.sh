#!/usr/bin/env bash
# Writes Linking/startup-order.txt: the functions the release `formstore` runs
# in typical commands (show, list, set, export), which the release link places
# together so a start touches few pages of code (docs/binary.md, "Start-up").
# Run it again when the start-up path has changed much; a stale list is
# harmless (a function it no longer names is placed elsewhere), only slower.
# Needs valgrind (Debian's package) and a release build; takes a few minutes.
#
#   Scripts/startup-order.sh
set -euo pipefail
cd "$(dirname "$0")/.."
command -v valgrind >/dev/null || { echo "startup-order.sh: needs valgrind (apt-get install valgrind)" >&2; exit 1; }

# The same objects, linked with their symbols kept, so callgrind can name them.
FORMSTORE_KEEP_SYMBOLS=1 swift build -c release --static-swift-stdlib --product formstore >&2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# valgrind cannot read the debug info lld writes; the symbol table is enough.
strip --strip-debug .build/release/formstore -o "$work/formstore"

# A table like the bench's (formstore-bench, CommandCases).
sqlite3 "$work/db.sqlite" "PRAGMA journal_mode=wal;
  CREATE TABLE rows (id INTEGER PRIMARY KEY, name TEXT NOT NULL, email TEXT, age INTEGER, score REAL, joined TEXT);
  WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 100)
  INSERT INTO rows SELECT i, 'Name ' || i, 'user' || i || '@example.com', 20 + i % 60, i / 8.0,
    '2024-01-' || printf('%02d', 1 + i % 28) FROM n;" >/dev/null

trace() {
    valgrind --tool=callgrind --demangle=no --callgrind-out-file="$work/cg.$1" \
        "$work/formstore" --db "$work/db.sqlite" "${@:2}" >/dev/null 2>"$work/valgrind.$1" \
        || { cat "$work/valgrind.$1" >&2; exit 1; }
}
trace show show rows 42 --format json
trace list list rows
trace set set rows 42 name=Renamed
trace export export rows --format ndjson

# Every function named in any trace, once, `show`'s first (the start the bench
# times): callgrind writes `fn=(id) name` the first time it names one, then only `(id)`.
for command in show list set export; do
    sed -nE 's/^c?fn=\([0-9]+\) ([^ ]+)$/\1/p' "$work/cg.$command" | grep -v '^0x' | sort -u
done | awk '!seen[$0]++' > Linking/startup-order.txt
echo "Linking/startup-order.txt: $(wc -l < Linking/startup-order.txt) functions" >&2

# Link the release build again as usual, in the new order, symbols stripped.
rm -f .build/release/formstore
swift build -c release --static-swift-stdlib --product formstore >&2
