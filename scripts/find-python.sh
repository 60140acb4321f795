#!/usr/bin/env bash
# Prints the path of a Python 3.12 or newer (Django 6 needs it), or fails saying so.
set -u
ok() { "$1" -c 'import sys; sys.exit(0 if sys.version_info >= (3, 12) else 1)' >/dev/null 2>&1; }
candidates=()
[ -n "${PYTHON:-}" ] && candidates+=("$PYTHON")
candidates+=(python3.13 python3.12 python3.14 python3)
# pyenv installs versions that its shims only expose when selected; look at them directly.
for root in "${PYENV_ROOT:-}" "$HOME/.pyenv" /root/.pyenv; do
  [ -n "$root" ] && [ -d "$root/versions" ] || continue
  for p in "$root"/versions/3.1[2-9]*/bin/python3; do [ -x "$p" ] && candidates+=("$p"); done
done
for c in "${candidates[@]}"; do
  if command -v "$c" >/dev/null 2>&1 && ok "$c"; then
    command -v "$c"
    exit 0
  fi
done
echo "error: Python 3.12 or newer is required (Django 6); none was found." >&2
echo "       Install python3.12 or python3.13, or set PYTHON=/path/to/python3.12." >&2
exit 1
