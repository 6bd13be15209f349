#!/usr/bin/env bash
# Debian's packages the test suites use, installed when missing (as root, with apt-get): Chromium for
# Lighthouse and the benches, its headless shell for the journeys (e2e/browser.ts), nginx with its brotli_static
# module in front of the app processes in the load suite and the proxy checks (docs/decisions/0072), openssl
# for their certificates. Called by `npm test` (scripts/lib/test-needs.mjs) and by .ci/run.
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive

missing=()
[ -x /usr/bin/chromium ] || missing+=(chromium)
[ -x /usr/bin/chromium-headless-shell ] || missing+=(chromium-headless-shell)
[ -x /usr/sbin/nginx ] || missing+=(nginx-light)
[ -f /usr/lib/nginx/modules/ngx_http_brotli_static_module.so ] || missing+=(libnginx-mod-http-brotli-static)
command -v openssl >/dev/null || missing+=(openssl)
[ ${#missing[@]} -gt 0 ] || exit 0

if [ "$(id -u)" != 0 ]; then
  echo "The tests need Debian's ${missing[*]}: run \`sudo bash scripts/install-test-tools.sh\` (or \`npm run test:quick\`, which needs none)." >&2
  exit 1
fi
echo "Installing ${missing[*]} (apt-get)"
apt-get update -qq
# policy-rc.d: the package must not start a system nginx on port 80; the suites start their own.
made_policy=false
if [ ! -e /usr/sbin/policy-rc.d ]; then
  printf '#!/bin/sh\nexit 101\n' > /usr/sbin/policy-rc.d && chmod +x /usr/sbin/policy-rc.d
  made_policy=true
fi
apt-get install -y -qq "${missing[@]}"
if [ "$made_policy" = true ]; then rm -f /usr/sbin/policy-rc.d; fi
