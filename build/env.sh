#!/usr/bin/env bash
# The project's environment: the Node that build/setup.sh chose, and the settings the tools need
# on these machines. Either `. build/env.sh` into a shell, or `build/env.sh COMMAND...`.

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
if [ -x "$root/.tools/node/bin/node" ]; then
  PATH="$root/.tools/node/bin:$PATH"
fi
export PATH

# Native addons build against the headers of the Node in use; the user npmrc may say /usr.
if command -v node >/dev/null; then
  npm_config_nodedir=$(dirname "$(dirname "$(command -v node)")")
  export npm_config_nodedir
fi
export REDOCLY_TELEMETRY=off
# Debian's chromium: Playwright's own browser download is not reachable here.
CHROMIUM_PATH=${CHROMIUM_PATH:-$(command -v chromium || echo /usr/bin/chromium)}
export CHROMIUM_PATH

if [ "${BASH_SOURCE[0]}" != "$0" ]; then
  return 0
fi
if [ $# -eq 0 ]; then
  echo "usage: build/env.sh COMMAND [ARGS...]   (or: . build/env.sh)" >&2
  exit 2
fi
exec "$@"
