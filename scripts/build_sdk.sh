#!/usr/bin/env bash
# The SDKs of sdk/ (README there): each generated from the OpenAPI document, then built.
#   Python:     openapi-python-client writes sdk/python/src/gameserver_client/generated/,
#               _version.py takes the document's info.version, `python -m build` makes the
#               wheel and sdist in sdk/python/dist/.
#   TypeScript: openapi-typescript writes sdk/typescript/src/generated/schema.ts,
#               package.json takes the document's info.version, tsc builds dist/ (JS and
#               .d.ts), `npm pack` makes the tarball in sdk/typescript/.
# Neither generated code nor what is built is checked in (sdk/.gitignore).
#
# Environment: SDK_DOCUMENT, the document (api/openapi.yaml); SDK_DIR, the sdk folder to
# build in (sdk/; the tests build a copy); SDK_PACKAGES=0 stops short of the wheel, sdist
# and tarball (the tests import and run what is generated and compiled).
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
VENV=${VENV:-$ROOT/.venv}
PY=$VENV/bin/python
DOCUMENT=$(realpath "${SDK_DOCUMENT:-$ROOT/api/openapi.yaml}")
SDK=$(realpath "${SDK_DIR:-$ROOT/sdk}")
PACKAGES=${SDK_PACKAGES:-1}

VERSION=$("$PY" -c 'import sys, yaml; print(yaml.safe_load(open(sys.argv[1]))["info"]["version"])' "$DOCUMENT")
echo "API document $DOCUMENT, version $VERSION"

# Python.
PACKAGE=$SDK/python/src/gameserver_client
rm -rf "$PACKAGE/generated"
"$VENV/bin/openapi-python-client" generate --path "$DOCUMENT" --meta none \
  --config "$SDK/python/openapi-python-client.yaml" --output-path "$PACKAGE/generated" \
  > "$SDK/python/generator.log" 2>&1 || { cat "$SDK/python/generator.log" >&2; exit 1; }
printf '# Written by scripts/build_sdk.sh: the OpenAPI document'"'"'s info.version.\n__version__ = "%s"\n' \
  "$VERSION" > "$PACKAGE/_version.py"
if [ "$PACKAGES" = 1 ]; then
  rm -rf "$SDK/python/dist"
  # No isolation: the build backend (hatchling) is the project's own, pinned; nothing is
  # downloaded.
  "$PY" -m build --no-isolation --outdir "$SDK/python/dist" "$SDK/python"
fi

# TypeScript.
cd "$SDK/typescript"
[ -d node_modules ] || npm ci --no-audit --no-fund --loglevel=error
mkdir -p src/generated
node_modules/.bin/openapi-typescript "$DOCUMENT" --output src/generated/schema.ts --silent
npm pkg set version="$VERSION"
rm -rf dist
node_modules/.bin/tsc -p tsconfig.json --pretty false
if [ "$PACKAGES" = 1 ]; then
  rm -f gameserver-client-*.tgz
  npm pack --silent
fi
echo "SDKs of API $VERSION built in $SDK"
