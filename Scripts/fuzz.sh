#!/usr/bin/env bash
# Fuzzing, not run by CI: builds the libFuzzer targets in Fuzz/ with
# `swiftc -sanitize=fuzzer,address` and runs each for RUNS executions
# (default 100000; the transform target is the slow one,
# a few hundred runs a second, as every date parse makes a DateFormatter):
#
#   spec       FormSpec.decode (and encode/decode round trips)
#   transform  Field.parse and format, on every kind and extra transform
#   editor     EditorDocument.parse (and render/parse round trips)
#
# Each target is compiled from the sources it needs (FormCore, plus the editor
# document's files from FormStoreCLI) as one module, so internal API is reachable
# without @testable. Its corpus grows in .build/fuzz/<target>/corpus; a crash
# stops the run and leaves its input in .build/fuzz/<target>/crash-*. Fix it,
# keep the input in Fuzz/crashes/<target>/ (each run starts from those), and add
# a case to Fixtures/bad/cases.json so the command is checked too.
#
#   Scripts/fuzz.sh            # 100000 runs each
#   Scripts/fuzz.sh 5000000    # longer
set -euo pipefail
cd "$(dirname "$0")/.."

runs=${1:-100000}
out=.build/fuzz
mkdir -p "$out/bin"
mapfile -t core < <(find Sources/FormCore -name '*.swift' | sort)
editor_sources=(Sources/FormStoreCLI/Editor/EditorDocument.swift Sources/FormStoreCLI/Input/InputError.swift
                Sources/FormStoreCLI/Arguments/Suggestion.swift Sources/FormStoreCLI/Arguments/FieldInput.swift)

build() {
    local name=$1; shift
    echo "== building $name"
    # The linker's notes on sanitizer symbols are noise: shown only when the build fails.
    if ! swiftc -sanitize=fuzzer,address -parse-as-library -O -swift-version 6 -module-name FormCore \
        -suppress-warnings "$@" -o "$out/bin/$name" > "$out/$name.build.log" 2>&1; then
        cat "$out/$name.build.log"
        exit 1
    fi
}

build spec "${core[@]}" Fuzz/SpecFuzz.swift
build transform "${core[@]}" Fuzz/TransformFuzz.swift
build editor "${core[@]}" "${editor_sources[@]}" Fuzz/EditorFuzz.swift

run() {
    local name=$1; shift
    echo "== fuzzing $name: $runs runs"
    mkdir -p "$out/$name/corpus"
    # No leak checks: Foundation's DateFormatter leaks a character set per parse (not ours to fix).
    ASAN_OPTIONS=detect_leaks=0 "$out/bin/$name" -runs="$runs" -max_len=4096 -timeout=10 -detect_leaks=0 \
        -print_final_stats=1 \
        -artifact_prefix="$out/$name/" "$out/$name/corpus" "$@"
}

mkdir -p Fuzz/crashes/spec Fuzz/crashes/transform Fuzz/crashes/editor
run spec Fuzz/crashes/spec Fixtures/forms
run transform Fuzz/crashes/transform
run editor Fuzz/crashes/editor Fixtures/bad/editor
echo "== no crash in $runs runs of each target"
