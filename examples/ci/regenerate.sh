#!/usr/bin/env bash
# Keeps a committed NexusBloom MCP server in step with its catalogue: pull the catalogue to a bundle, fail on drift
# (check) or rebuild and commit (update), install and verify the package, and publish it to npm.
#
#   regenerate.sh check    pull, then `nexusbloom-gen build --check`: exit 1 naming the files when SERVER_DIR drifted
#   regenerate.sh update   pull, rebuild SERVER_DIR, and commit the bundle and the package when they changed
# then (both modes) install and verify SERVER_DIR, and publish it when PUBLISH=1.
#
# Environment (defaults in brackets):
#   NEXUSBLOOM_API_URL   the catalogue API to pull (required when PULL=1); also the API `VERIFY=api` runs tools against
#   PULL                 1: pull the API into CATALOGUE_FILE first; 0: use the committed bundle as it is [1]
#   NEXUSBLOOM_API_KEY   sent as a bearer token when set
#   NEXUSBLOOM_GEN       the generator command [npx --no-install nexusbloom-gen]
#   CATALOGUE_FILE       the committed bundle [catalogue.json]
#   SERVER_DIR           the committed package folder [server]
#   VERIFY               api: every tool through the real server against NEXUSBLOOM_API_URL; mock: against the
#                        package's mock API; none: skip install and verify [api]
#   PUBLISH              1: `npm publish` SERVER_DIR unless its version is already in the registry [0]
#   GIT_COMMIT_MESSAGE   [Regenerate the MCP server from the catalogue]
set -euo pipefail

mode="${1:-check}"
read -r -a gen <<< "${NEXUSBLOOM_GEN:-npx --no-install nexusbloom-gen}"
catalogue="${CATALOGUE_FILE:-catalogue.json}"
server="${SERVER_DIR:-server}"
verify="${VERIFY:-api}"
publish="${PUBLISH:-0}"

step() { printf '\n== %s\n' "$*" >&2; }

if [ "${PULL:-1}" = 1 ]; then
  : "${NEXUSBLOOM_API_URL:?set NEXUSBLOOM_API_URL to the catalogue API, e.g. https://nexusbloom.dev/api}"
  step "pull $NEXUSBLOOM_API_URL -> $catalogue"
  "${gen[@]}" pull --source "$NEXUSBLOOM_API_URL" --out "$catalogue"
fi

case "$mode" in
  check)
    step "drift check of $server against $catalogue"
    "${gen[@]}" build --check --source "$catalogue" --out "$server"
    ;;
  update)
    step "build $server from $catalogue"
    # The install step below compiles the package (`npm run build`), so the generator only writes it here.
    "${gen[@]}" build --no-compile --source "$catalogue" --out "$server"
    if [ -n "$(git status --porcelain -- "$catalogue" "$server")" ]; then
      git add -A -- "$catalogue" "$server"
      git commit --quiet -m "${GIT_COMMIT_MESSAGE:-Regenerate the MCP server from the catalogue}"
      step "committed: $(git log -1 --format=%h)"
      git diff --stat HEAD~1 HEAD >&2 || true
    else
      step "no change: $server is up to date with $catalogue"
    fi
    ;;
  *)
    echo "usage: $0 check|update" >&2
    exit 2
    ;;
esac

if [ "$verify" != none ] || [ "$publish" = 1 ]; then
  step "install and compile $server (no lockfile, so the committed folder stays as generated)"
  (cd "$server" && npm install --no-audit --no-fund --no-package-lock && npm run build)
fi

case "$verify" in
  api) step "verify $server against $NEXUSBLOOM_API_URL"; "${gen[@]}" verify "$server" ;;
  mock) step "verify $server against its mock API"; "${gen[@]}" verify "$server" --mock ;;
  none) ;;
  *) echo "VERIFY must be api, mock or none, not $verify" >&2; exit 2 ;;
esac

if [ "$publish" = 1 ]; then
  name="$(cd "$server" && node -p 'require("./package.json").name')"
  version="$(cd "$server" && node -p 'require("./package.json").version')"
  if (cd "$server" && npm view "$name@$version" version >/dev/null 2>&1); then
    step "$name@$version is already published: bump packageVersion (build --config) to publish this build"
  else
    step "publish $name@$version"
    # dist/ was compiled by the install step above, so its `prepack` need not run a second time.
    (cd "$server" && npm publish --ignore-scripts)
  fi
fi
