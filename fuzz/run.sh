#!/usr/bin/env bash
# Fuzzes each parser that meets outside input for a bounded time (default 60 s per target), outside `.ci/run`: the
# fuzz build (nightly, AddressSanitizer) rebuilds the world. Needs `cargo install cargo-fuzz` and the nightly
# toolchain. New inputs that reach new code go to fuzz/corpus/TARGET, crashes to fuzz/artifacts/TARGET; the ordinary
# tests run both (tests/it/fuzz_corpus.rs), so commit a crash with its fix. Usage: fuzz/run.sh [SECONDS] [TARGET...]
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-60}"
shift || true
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  targets=(documents money_and_dates csv_line headers sheet graphql_id scrub)
fi
cargo +nightly fuzz build
status=0
mkdir -p fuzz/logs
for t in "${targets[@]}"; do
  echo "== $t: ${seconds}s"
  if cargo +nightly fuzz run "$t" -- -max_total_time="$seconds" -rss_limit_mb=2048 -max_len=65536 \
      > "fuzz/logs/$t.log" 2>&1; then
    grep -E "^Done [0-9]+ runs" "fuzz/logs/$t.log" || true
  else
    status=1
    grep -E "panicked|ERROR|SUMMARY|Test unit written" "fuzz/logs/$t.log" | head -5 || true
  fi
  if ls fuzz/artifacts/"$t"/crash-* >/dev/null 2>&1; then
    echo "!! $t: crashes in fuzz/artifacts/$t"
    status=1
  fi
done
exit $status
