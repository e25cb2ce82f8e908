#!/usr/bin/env bash
# Keeps a committed NexusBloom MCP server in step with its catalogue, through review: pull the catalogue to a bundle,
# fail on drift (check) or rebuild it on a branch for a pull request (update), install and verify the package, and
# publish it to npm only from the reviewed branch (check).
#
#   regenerate.sh check    pull, then `nexusbloom-gen build --check`: exit 1 naming the files when SERVER_DIR drifted;
#                          then install, verify, and publish when PUBLISH=1 and the version is not yet on the registry
#   regenerate.sh update   pull, rebuild SERVER_DIR with its CHANGELOG.md and the version the changes suggest, commit
#                          the bundle and the package on BRANCH (never on the branch checked out), install and verify,
#                          then push BRANCH when PUSH=1. It never publishes: what it built is not reviewed yet.
#
# The generator is the repository's own devDependency (`npm ci` first), run with npx.
# Environment (defaults in brackets):
#   NEXUSBLOOM_API_URL   the catalogue API to pull (required when PULL=1); also the API `VERIFY=api` runs tools against
#   PULL                 1: pull the API into CATALOGUE_FILE first; 0: use the committed bundle as it is [1]
#   NEXUSBLOOM_API_KEY   sent as a bearer token when set
#   CATALOGUE_FILE       the committed bundle [catalogue.json]
#   SERVER_DIR           the committed package folder [server]
#   VERIFY               api: every tool through the real server against the package's mock API, then against
#                        NEXUSBLOOM_API_URL only the tools annotated read-only and those VERIFY_ALLOW names;
#                        mock: the mock API only; none: skip install and verify [api]
#   VERIFY_ALLOW         comma-separated slugs that may also run against the real API (e.g. a sandboxed write) []
#   BRANCH               the branch `update` commits to, reset to the current HEAD each run [nexusbloom/regenerate]
#   PUSH                 1: `update` pushes BRANCH to origin (forced: it is regenerated from HEAD every run) [0]
#   PUBLISH              1: `check` runs `npm publish` in SERVER_DIR unless its version is already on the registry [0]
#   GIT_COMMIT_MESSAGE   [Regenerate the MCP server from the catalogue]
set -euo pipefail

mode="${1:-check}"
gen=(npx --no-install nexusbloom-gen)
catalogue="${CATALOGUE_FILE:-catalogue.json}"
server="${SERVER_DIR:-server}"
verify="${VERIFY:-api}"
publish="${PUBLISH:-0}"
branch="${BRANCH:-nexusbloom/regenerate}"

step() { printf '\n== %s\n' "$*" >&2; }
# For GitHub Actions steps that follow (e.g. open the pull request only when something changed).
output() { if [ -n "${GITHUB_OUTPUT:-}" ]; then echo "$1" >> "$GITHUB_OUTPUT"; fi; }

case "$mode" in check | update) ;; *) echo "usage: $0 check|update" >&2; exit 2 ;; esac
case "$verify" in api | mock | none) ;; *) echo "VERIFY must be api, mock or none, not $verify" >&2; exit 2 ;; esac
if [ "$mode" = update ] && [ "$publish" = 1 ]; then
  echo "PUBLISH=1 is for check mode on the reviewed branch: update only proposes a change" >&2
  exit 2
fi

if [ "${PULL:-1}" = 1 ]; then
  : "${NEXUSBLOOM_API_URL:?set NEXUSBLOOM_API_URL to the catalogue API, e.g. https://nexusbloom.dev/api}"
  step "pull $NEXUSBLOOM_API_URL -> $catalogue"
  "${gen[@]}" pull --source "$NEXUSBLOOM_API_URL" --out "$catalogue"
fi

changed=0
if [ "$mode" = check ]; then
  step "drift check of $server against $catalogue"
  "${gen[@]}" build --check --source "$catalogue" --out "$server"
else
  step "build $server from $catalogue"
  # The install step below compiles the package (`npm run build`), so the generator only writes it here.
  # --changelog: CHANGELOG.md gets what changed for callers, package.json and server.json the version that follows.
  "${gen[@]}" build --no-compile --changelog --source "$catalogue" --out "$server"
  if [ -n "$(git status --porcelain -- "$catalogue" "$server")" ]; then
    changed=1
    message="$(mktemp)"
    trap 'rm -f "$message"' EXIT
    {
      echo "${GIT_COMMIT_MESSAGE:-Regenerate the MCP server from the catalogue}"
      # The newest CHANGELOG.md entry as the commit body: the pull request opens with what changed for callers.
      if [ -f "$server/CHANGELOG.md" ]; then echo; awk '/^## /{n++} n==1' "$server/CHANGELOG.md"; fi
    } > "$message"
    git switch --quiet -C "$branch"
    git add -A -- "$catalogue" "$server"
    git commit --quiet -F "$message"
    step "committed on $branch: $(git log -1 --format=%h)"
    git diff --stat HEAD~1 HEAD >&2 || true
  else
    step "no change: $server is up to date with $catalogue"
  fi
fi
output "changed=$changed"
output "branch=$branch"

if [ "$verify" != none ] || [ "$publish" = 1 ]; then
  step "install and compile $server (no lockfile, so the committed folder stays as generated)"
  (cd "$server" && npm install --no-audit --no-fund --no-package-lock && npm run build)
fi

if [ "$verify" != none ]; then
  step "verify $server against its mock API (every tool)"
  "${gen[@]}" verify "$server" --mock
fi
if [ "$verify" = api ]; then
  : "${NEXUSBLOOM_API_URL:?set NEXUSBLOOM_API_URL to the API VERIFY=api runs read-only tools against}"
  step "verify $server against $NEXUSBLOOM_API_URL (tools annotated read-only${VERIFY_ALLOW:+, and $VERIFY_ALLOW})"
  allow=()
  if [ -n "${VERIFY_ALLOW:-}" ]; then allow=(--allow "$VERIFY_ALLOW"); fi
  "${gen[@]}" verify "$server" --only-read-only ${allow[@]+"${allow[@]}"}
fi

if [ "$changed" = 1 ] && [ "${PUSH:-0}" = 1 ]; then
  step "push $branch for review"
  git push --quiet --force origin "HEAD:refs/heads/$branch"
fi

if [ "$publish" = 1 ]; then
  name="$(cd "$server" && node -p 'require("./package.json").name')"
  version="$(cd "$server" && node -p 'require("./package.json").version')"
  if (cd "$server" && npm view "$name@$version" version >/dev/null 2>&1); then
    step "$name@$version is already published: nothing to release (update mode raises the version with each change)"
  else
    step "publish $name@$version"
    # dist/ was compiled by the install step above, so its `prepack` need not run a second time.
    (cd "$server" && npm publish --ignore-scripts)
  fi
fi
