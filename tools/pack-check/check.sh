#!/usr/bin/env bash
# npm pack proof: build @fw/core and @fw/query-core, pack both, install the two tarballs into an
# empty project (nothing else from the workspace), and run @fw/query-core's README example there.
# usage: bash tools/pack-check/check.sh   (needs the npm registry for third-party dependencies)
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
HERE="$ROOT/tools/pack-check"
TMP="$(mktemp -d "${TMPDIR:-/tmp}/fw-pack-check-XXXXXX")"
trap 'rm -rf "$TMP"' EXIT
EXPECTED='ROWS [{"id":1,"title":"Dune","price":9.99},{"id":2,"title":"Dune Messiah","price":8.5}] MAXROWS 2'

cd "$ROOT"
echo "== build"
npm run build -w @fw/core -w @fw/query-core --silent
echo "== pack"
mkdir -p "$TMP/tarballs" "$TMP/app"
npm pack -w @fw/core -w @fw/query-core --pack-destination "$TMP/tarballs" --silent
ls "$TMP/tarballs"

echo "== install into an empty project"
cd "$TMP/app"
npm init -y --silent > /dev/null
flock /tmp/fw-npm.lock npm install --no-audit --no-fund --silent "$TMP"/tarballs/*.tgz
test ! -e node_modules/@fw/core/src || { echo "pack-check: the @fw/core tarball ships its sources" >&2; exit 1; }
test -f node_modules/@fw/query-core/dist/index.d.ts || { echo "pack-check: @fw/query-core has no type declarations" >&2; exit 1; }

echo "== run the README example"
node "$HERE/extract-readme-example.mjs" "$ROOT/libs/query-core/README.md" "$TMP/app"
OUTPUT="$(FW_LOG_LEVEL=silent node example.mjs)"
echo "$OUTPUT"
if [ "$(echo "$OUTPUT" | grep '^ROWS ')" != "$EXPECTED" ]; then
  echo "pack-check: FAILED, expected: $EXPECTED" >&2
  exit 1
fi
echo "pack-check: OK (the README example runs from the packed tarballs)"
