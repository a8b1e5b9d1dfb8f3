#!/usr/bin/env bash
# `npm start`: the kiosk. The Electron app when Electron's binary can run here; otherwise one line
# saying why, and the loopback browser host (same IPC router, same renderer) with the URL to open.
# Both run on the embedded sandbox (demo data, a 'demo' badge) unless KIOSK_API_BASE_URL is set;
# the credentials then come from KIOSK_API_EMAIL/KIOSK_API_PASSWORD or the vault (KIOSK_VAULT,
# KIOSK_PROVISIONED_CREDENTIALS, as for kioskctl). KIOSK_HOST=browser|electron forces a host;
# KIOSK_SKIP_BUILD=1 serves whatever dist/renderer holds.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

say() { printf 'kiosk: %s\n' "$*"; }

# 1. The renderer, built when missing or older than its sources (a fresh clone has none).
if [ "${KIOSK_SKIP_BUILD:-}" != 1 ]; then
  if [ ! -f dist/renderer/index.html ] ||
    [ -n "$(find renderer shared vite.config.ts -newer dist/renderer/index.html -type f -print -quit 2>/dev/null)" ]; then
    say "building the renderer (npm run build:renderer)"
    log=$(mktemp)
    if ! npm run --silent build:renderer >"$log" 2>&1; then
      tail -n 20 "$log" >&2
      say "the renderer build failed (above); the host will say so on its page" >&2
    fi
    rm -f "$log"
  fi
fi

# 2. Can Electron run? The package is installed, but its binary is fetched from GitHub on the
#    first require('electron') (unreachable on these machines, and slow to fail), so the binary
#    is looked for where that require would find it, without triggering the download.
electron_problem() {
  local reason
  if ! reason=$(node -e '
    const { existsSync, readFileSync } = require("node:fs");
    const { dirname, join } = require("node:path");
    let dir;
    try {
      dir = dirname(require.resolve("electron/package.json"));
    } catch {
      console.log("the electron package is not installed");
      process.exit(1);
    }
    const pathFile = join(dir, "path.txt");
    const override = process.env.ELECTRON_OVERRIDE_DIST_PATH;
    const name = existsSync(pathFile) ? readFileSync(pathFile, "utf8") : undefined;
    const binary = override ? join(override, name || "electron") : name && join(dir, "dist", name);
    if (!binary || !existsSync(binary)) {
      console.log("its binary was never downloaded; it comes from GitHub on first use");
      process.exit(1);
    }' 2>/dev/null); then
    printf '%s' "${reason:-the electron package cannot be read}"
    return 0
  fi
  if [ "$(uname -s)" = Linux ] && [ -z "${DISPLAY:-}" ] && [ -z "${WAYLAND_DISPLAY:-}" ]; then
    printf 'no display: DISPLAY and WAYLAND_DISPLAY are unset'
    return 0
  fi
  return 1
}

host=${KIOSK_HOST:-auto}
if [ "$host" = auto ]; then
  if problem=$(electron_problem); then
    say "Electron is not available here ($problem): starting the browser host instead"
    host=browser
  else
    host=electron
  fi
fi

case "$host" in
  electron)
    say "starting the Electron kiosk"
    # The app imports the package's own entry points (dist/), as an integrator's app does.
    node build/build.ts >/dev/null
    # V8 flags of the main process go on the command line (electron/host/v8-flags.ts says why).
    exec npx --no-install electron --js-flags=--max-semi-space-size=16 dist/electron/host/main.js "$@"
    ;;
  browser)
    # Node's compile cache keeps each module's stripped and compiled code between starts: without
    # it a start spends about a second turning the host's TypeScript into code again
    # (test/bench/cold-start.bench.ts). Keyed by content, so an update only refills it.
    export NODE_COMPILE_CACHE="${NODE_COMPILE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/commerce-kiosk/node-compile-cache}"
    exec node --max-semi-space-size=16 electron/host/browser-main.ts "$@"
    ;;
  *)
    say "KIOSK_HOST must be auto, electron or browser (got \"$host\")" >&2
    exit 2
    ;;
esac
