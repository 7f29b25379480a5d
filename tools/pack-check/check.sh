#!/usr/bin/env bash
# npm pack proof of every publishable package (see README.md): node check.mjs does the work.
# usage: bash tools/pack-check/check.sh [--no-build]   (needs the npm registry and PostgreSQL)
set -euo pipefail
exec node "$(cd "$(dirname "$0")" && pwd)/check.mjs" "$@"
