#!/usr/bin/env bash
# Electronegativity (Electron misconfigurations and anti-patterns) over electron/, offline.
# Fails when it reports any HIGH severity finding (its exit code does not reflect severity), and
# prints its report then; prints nothing on success. Usage: build/electronegativity.sh [DIR]
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
target=${1:-"$root/electron"}
tool="$root/node_modules/@doyensec/electronegativity/dist/index.js"
electron_version=$(node -p "require('$root/node_modules/electron/package.json').version")

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
report="$work/electronegativity.csv"

# Excluded checks, one reason each:
# - AvailableSecurityFixesGlobalCheck: downloads Electron's release list from GitHub at every run,
#   which these machines cannot reach; Electron's own version is kept current through npm instead.
excluded=AvailableSecurityFixesGlobalCheck

# -e: electron/ has no package.json of its own to read Electron's version from; take the
# installed one so version-dependent defaults (contextIsolation, sandbox) are judged right.
# --import: see build/electronegativity-offline.js (no translation download, no start-up crash).
if ! node --import "$root/build/electronegativity-offline.js" "$tool" \
  -i "$target" -r -e "$electron_version" -x "$excluded" -o "$report" >"$work/log" 2>&1 ||
  [ ! -s "$report" ]; then
  echo "electronegativity: the scan failed:" >&2
  cat "$work/log" >&2
  exit 1
fi

high=$(awk -F, 'NR > 1 && $2 == "\"HIGH\""' "$report")
if [ -n "$high" ]; then
  echo "electronegativity: HIGH severity findings in $target (suppress one only with" >&2
  echo "/* eng-disable CHECK_NAME */ and a written reason beside it):" >&2
  echo "$high" >&2
  exit 1
fi
