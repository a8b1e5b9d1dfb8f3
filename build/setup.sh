#!/usr/bin/env bash
# Installs what the project needs on a fresh Debian machine: Node 24 (when the system one is too
# old), the Debian packages the tests run for real (CONTRIBUTING.md), and node_modules.
# Idempotent; prints nothing when everything is already there.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

NODE_VERSION=24.21.0
DEBIAN_PACKAGES=(
  chromium cups cups-client cups-bsd printer-driver-cups-pdf poppler-utils
  libsecret-1-dev pkg-config gnome-keyring dbus dbus-x11 prometheus
)

say() { printf 'setup: %s\n' "$*"; }

# Runs a noisy step with its output kept aside, shown only when it fails.
quietly() {
  local log
  log=$(mktemp)
  if ! "$@" >"$log" 2>&1 </dev/null; then
    cat "$log" >&2
    rm -f "$log"
    say "failed: $*" >&2
    return 1
  fi
  rm -f "$log"
}

# The strictest engines range of the toolchain (jsdom 31); it also implies native type stripping.
node_is_recent() {
  "$1" -e '
    const [major, minor, patch] = process.versions.node.split(".").map(Number);
    const atLeast = (m, p) => minor > m || (minor === m && patch >= p);
    process.exit((major === 22 && atLeast(22, 2)) || (major === 24 && atLeast(15, 0)) || major >= 26 ? 0 : 1);
  ' 2>/dev/null
}

fetch_node() {
  local arch tmp
  case "$(uname -m)" in
    x86_64) arch=x64 ;;
    aarch64) arch=arm64 ;;
    *) say "no Node build for $(uname -m); install Node $NODE_VERSION yourself" >&2; return 1 ;;
  esac
  say "fetching Node $NODE_VERSION into .tools/node"
  mkdir -p .tools
  tmp=$(mktemp -d .tools/fetch.XXXXXX)
  # The npm registry serves the official Node builds as packages; npm pack checks their integrity.
  if command -v npm >/dev/null; then
    (cd "$tmp" && quietly npm pack "node-linux-$arch@$NODE_VERSION")
  else
    quietly curl -fsSLo "$tmp/node.tgz" \
      "https://registry.npmjs.org/node-linux-$arch/-/node-linux-$arch-$NODE_VERSION.tgz"
  fi
  tar -xzf "$tmp"/*.tgz -C "$tmp"
  "$tmp/package/bin/node" --version >/dev/null
  # Moved into place only once complete, so an interrupted fetch is never taken for a good one.
  rm -rf .tools/node
  mv "$tmp/package" .tools/node
  rm -rf "$tmp"
}

# 1. Node: .tools/node, once fetched, is the one build/env.sh puts first, so it must be current.
if [ -e .tools/node ]; then
  [ "$(.tools/node/bin/node --version 2>/dev/null)" = "v$NODE_VERSION" ] || fetch_node
  node_home=$PWD/.tools/node
elif command -v node >/dev/null && node_is_recent node; then
  node_home=$(dirname "$(dirname "$(command -v node)")")
else
  fetch_node
  node_home=$PWD/.tools/node
fi
export PATH="$node_home/bin:$PATH"
# Native addons (keytar) build against this Node's headers; the user npmrc may name another.
export npm_config_nodedir=$node_home

# 2. Debian packages
missing=()
for package in "${DEBIAN_PACKAGES[@]}"; do
  status=$(dpkg-query -W -f='${Status}' "$package" 2>/dev/null || true)
  [ "$status" = 'install ok installed' ] || missing+=("$package")
done
if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" -eq 0 ]; then
    say "installing Debian packages: ${missing[*]}"
    export DEBIAN_FRONTEND=noninteractive
    quietly apt-get update
    quietly apt-get install -y --no-install-recommends "${missing[@]}"
  else
    say "missing Debian packages (run as root to install them): ${missing[*]}" >&2
  fi
fi

# 3. node_modules, reinstalled when the lockfile or the Node version changed
stamp=node_modules/.setup-stamp
want="$(node --version) $(sha256sum package-lock.json | cut -d' ' -f1)"
if [ ! -d node_modules ] || [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
  say "npm ci (Node $(node --version))"
  quietly npm ci --no-audit --no-fund
  printf '%s\n' "$want" >"$stamp"
fi
