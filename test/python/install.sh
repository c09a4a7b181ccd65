#!/usr/bin/env bash
# Installs the real transformers releases the real-transformers tier loads configs with, one venv per release
# under .cache/py/ (gitignored): .cache/py/torch holds CPU torch once, and each .cache/py/transformers-<version>
# venv sees it through a .pth file instead of installing it again (~1 GB saved per release).
# Usage: bash test/python/install.sh [version …]   (default: the releases in test/python/versions)
# Exits non-zero when an install fails; .ci/run turns that into a failed run.
set -euo pipefail
cd "$(dirname "$0")/../.."

PY=${PYTHON:-python3}
ROOT=.cache/py
# The machine's pip configuration names its indexes; an unreachable one is given up at once instead of retried.
PIP_FLAGS=(--quiet --retries 0 --timeout 15 --disable-pip-version-check)
TORCH=${ROPE_LENS_TORCH:-torch==2.13.0+cpu}

versions=("$@")
if [ ${#versions[@]} -eq 0 ]; then
  mapfile -t versions < <(grep -v '^#' test/python/versions | grep .)
fi

mkdir -p "$ROOT"
if ! "$ROOT/torch/bin/python" -c 'import torch, numpy' >/dev/null 2>&1; then
  rm -rf "$ROOT/torch"
  "$PY" -m venv "$ROOT/torch"
  "$ROOT/torch/bin/pip" install "${PIP_FLAGS[@]}" "$TORCH" numpy
fi
site() { "$1/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])'; }
torch_site=$(cd "$(site "$ROOT/torch")" && pwd)

for v in "${versions[@]}"; do
  venv="$ROOT/transformers-$v"
  if [ -x "$venv/bin/python" ] && [ "$("$venv/bin/python" -c 'import importlib.metadata as m; print(m.version("transformers"))' 2>/dev/null)" = "$v" ]; then
    continue
  fi
  rm -rf "$venv"
  "$PY" -m venv "$venv"
  echo "$torch_site" >"$(site "$venv")/torch-base.pth"
  case "$v" in
    4.*)
      # 4.x pins huggingface-hub < 1.0, which the offline index does not serve: the library without its
      # dependency resolution, then the dependencies it imports (the oracle stands down 4.x's version check).
      "$venv/bin/pip" install "${PIP_FLAGS[@]}" --no-deps "transformers==$v"
      "$venv/bin/pip" install "${PIP_FLAGS[@]}" huggingface-hub 'tokenizers>=0.22,<=0.23.0' safetensors pyyaml regex requests tqdm packaging filelock
      ;;
    *) "$venv/bin/pip" install "${PIP_FLAGS[@]}" "transformers==$v" ;;
  esac
  echo '[]' | "$venv/bin/python" test/python/transformers_oracle.py >/dev/null || {
    echo "install.sh: transformers $v installed but the oracle cannot import it" >&2
    exit 1
  }
done
