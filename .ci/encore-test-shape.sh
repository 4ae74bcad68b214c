#!/usr/bin/env bash
# What `encore test` does before it runs a test, checked without the Encore CLI: lay out encore.gen/ as
# the CLI's codegen writes it (tsparser/src/builder/codegen.rs), run the typecheck of `npm test` with it
# on disk, and collect the tests with ENCORE_RUNTIME_LIB set (vite.config.ts then uses Encore's documented
# "~encore" alias and the app's tests alone). Then runs the given command, if any, with encore.gen/ still
# on disk (CI passes `npm test`), and removes encore.gen/ whatever happens.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ -e encore.gen ]; then
  echo "encore.gen/ already exists (left by \`encore run\`?); move it away first, this script removes what it writes" >&2
  exit 1
fi
trap 'rm -rf encore.gen' EXIT

npx tsx local/cli.ts encore-gen
npx tsx local/cli.ts gen
echo "== tsc --noEmit with encore.gen/ on disk"
npx tsc --noEmit

list() { npx vitest list --filesOnly "$@" | sed 's/^\[[a-z]*\] //' | sort; }
# The path is never loaded: collecting files imports no test module.
under_encore_test="$(ENCORE_RUNTIME_LIB=/encore-test-shape/encore-runtime.node list)"
app_tests="$(list --project app)"
echo "== test files collected as under \`encore test\`: $(echo "$under_encore_test" | wc -l)"
if echo "$under_encore_test" | grep -q '^local/'; then
  echo "encore test would collect the local runtime's own tests:" >&2
  echo "$under_encore_test" | grep '^local/' >&2
  exit 1
fi
if [ "$under_encore_test" != "$app_tests" ]; then
  echo "encore test would collect other files than the app project:" >&2
  diff <(echo "$app_tests") <(echo "$under_encore_test") >&2 || true
  exit 1
fi

if [ "$#" -gt 0 ]; then
  echo "== $* (encore.gen/ on disk)"
  "$@"
fi
