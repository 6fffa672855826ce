#!/usr/bin/env bash
# Makes a Python virtual environment holding sqlite-utils (from PyPI), the
# peer formstore-bench measures import against (README, Performance), and
# prints the path of its `sqlite-utils` command. Safe to run again: an
# environment that already has it is kept.
#
#   Scripts/sqlite-utils-venv.sh [DIRECTORY]     # default .build/sqlite-utils-venv
set -euo pipefail
cd "$(dirname "$0")/.."
venv="${1:-.build/sqlite-utils-venv}"
if [ ! -x "$venv/bin/sqlite-utils" ]; then
    # Debian's python3 keeps venv in a package of its own.
    if ! python3 -m venv --help >/dev/null 2>&1 || ! python3 -c 'import ensurepip' >/dev/null 2>&1; then
        export DEBIAN_FRONTEND=noninteractive
        apt-get update -qq && apt-get install -y -qq python3-venv >/dev/null
    fi
    python3 -m venv "$venv" >&2
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check sqlite-utils >&2
fi
echo "$(cd "$venv" && pwd)/bin/sqlite-utils"
