#!/usr/bin/env bash
# Shows that the door's limits refuse nothing legitimate: starts `fomento serve --demo` on a fresh SQLite file (or
# on PostgreSQL with DATABASE_URL=postgres://…), creates a key with a high rate of its own (`keys create --rate`), and
# drives the graph with wrk at 50 and 200 connections: every answer must be 200 (no 429, no 503). Then the same load
# with a key at the default rate (50/s), which the limit is for: its excess is refused with 429.
# Usage: bench/limits.sh [SECONDS per run, default 10]. Needs wrk; builds the debug binary if needed
# (FOMENTO_BIN=target/release/fomento to use a release build).
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-10}"
command -v wrk >/dev/null || { echo "wrk is not installed (apt-get install wrk)"; exit 2; }
bin="${FOMENTO_BIN:-target/debug/fomento}"
[ -x "$bin" ] || cargo build -q -p fomento-api --bin fomento
work="$(mktemp -d)"
trap 'kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; rm -rf "$work"' EXIT
db="${DATABASE_URL:-sqlite://$work/limits.db?mode=rwc}"
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
FOMENTO_LOG=warn "$bin" --database-url "$db" --file-store "$work/store" serve --demo --listen "127.0.0.1:$port" \
  > "$work/serve.out" 2>&1 &
server=$!
for _ in $(seq 1 600); do
  curl -sf "http://127.0.0.1:$port/ready" >/dev/null && break
  sleep 0.1
done
high=$("$bin" --database-url "$db" keys create --role analyst --name "load test" --rate 1000000 | tail -n 1)
normal=$(grep -E '^\s+analyst\s+fmt_' "$work/serve.out" | awk '{print $2}')
cat > "$work/post.lua" <<'LUA'
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Authorization"] = "Bearer " .. os.getenv("FOMENTO_KEY")
wrk.body = '{"query":"{ fcoCartas(first: 20) { totalCount edges { node { amount } } } }"}'
LUA
run() { # key connections
  FOMENTO_KEY="$1" wrk -t2 -c"$2" -d"${seconds}s" --latency -s "$work/post.lua" "http://127.0.0.1:$port/graphql" \
    > "$work/wrk.out" 2>&1
  local total non2xx rps p99
  total=$(grep -Eo '[0-9]+ requests in' "$work/wrk.out" | awk '{print $1}' || true)
  non2xx=$(grep -Eo 'Non-2xx or 3xx responses: [0-9]+' "$work/wrk.out" | awk '{print $NF}' || true)
  rps=$(grep -E '^Requests/sec' "$work/wrk.out" | awk '{print $2}' || true)
  p99=$(grep -E '^\s+99%' "$work/wrk.out" | awk '{print $2}' || true)
  errors=$(grep -E 'Socket errors' "$work/wrk.out" || true)
  [ -n "$errors" ] && echo "   $errors"
  echo "${non2xx:-0}" > "$work/refused"
  printf '%-28s %4s conns: %8s requests, %8s rps, p99 %8s, refused %s\n' "$3" "$2" "$total" "$rps" "$p99" "${non2xx:-0}"
}
echo "fomento at 127.0.0.1:$port ($db), ${seconds}s per run, binary $bin"
status=0
for c in 50 200; do
  run "$high" "$c" "key with --rate 1000000"
  if [ "$(cat "$work/refused")" != "0" ]; then status=1; echo "!! legitimate requests refused"; fi
done
run "$normal" 50 "key at the default 50/s"
if [ "$(cat "$work/refused")" = "0" ]; then status=1; echo "!! the default rate refused nothing"; fi
exit $status
