#!/usr/bin/env bash
# Pages of the lists over a million of a bank's cartas (most of a bank's are undated), on PostgreSQL or SQLite: the
# first page, the next one by cursor and the last one of `financings` (both programmes, through the `financing` view),
# the bank's first page of `financings`, and the first and last pages of a second bank that lists 10 cartas, each
# timed end to end by curl (best of 5), with its ratio to the first page of `fcoCartas` (one programme's own table,
# read from its index; the same page for the next and the last) measured in the same run as the floor.
#
#   bench/list-pages.sh ADMIN_URL|sqlite [ROWS (1000000)] [--before-bin PATH]
#
# It builds the release `fomento` and `fomento-bench` (or takes FOMENTO_BIN and FOMENTO_BENCH), generates a workbook of
# ROWS rows, ingests it into a scratch database `fomento_list_pages` (on ADMIN_URL's PostgreSQL server, or a SQLite
# file in a temporary directory with `sqlite`; removed at the end), and serves it. With --before-bin it also times
# PATH's pages over a second database, `fomento_list_pages_before`, ingested by FOMENTO_BEFORE_BENCH (the
# `fomento-bench` of PATH's build; by default the current one, which is right only when both builds have the same
# migrations: a `fomento` refuses a database migrated past what it knows).
set -euo pipefail
export PGOPTIONS="-c client_min_messages=warning"
admin=${1:?usage: bench/list-pages.sh ADMIN_URL|sqlite [ROWS] [--before-bin PATH]}
shift
rows=1000000
if [ $# -gt 0 ] && [ "${1:0:2}" != "--" ]; then rows=$1; shift; fi
before_bin=""
if [ "${1:-}" = --before-bin ]; then before_bin=${2:?--before-bin PATH}; fi
cd "$(dirname "$0")/.."
bin=${FOMENTO_BIN:-}
if [ -z "$bin" ]; then
  cargo build -q --release -p fomento-api --bin fomento
  bin=${CARGO_TARGET_DIR:-target}/release/fomento
fi
. bench/scratch.sh
scratch_bench "$admin"
scratch_workbook "$rows"
# A second bank's list of 10 cartas, ingested beside the million: the pages of a small bank among a large one's. Always
# by the current bench, which names the bank (`phase ingest … PEQUENO`; an older one would create `BB` again).
"$bench" phase generate "$work/small.xlsx" 10 >/dev/null
small() { "$bench" phase ingest "$(url_of "$1")" "$work/small.xlsx" "$work/store-$1" PEQUENO >/dev/null; }
# url_of: the URL of scratch database $1; ingest: the million and the small bank's list into it, with bench $2.
if [ "$admin" = sqlite ]; then
  backend=SQLite
  url_of() { echo "sqlite://$work/$1.db?mode=rwc"; }
  ingest() {
    "${2:-$bench}" phase ingest "$(url_of "$1")" "$work/report.xlsx" "$work/store-$1" >/dev/null
    small "$1"
  }
else
  backend=PostgreSQL
  url_of() { echo "${admin%/*}/$1"; }
  ingest() { scratch_ingest "$@" && small "$1" && psql -q "$(url_of "$1")" -c "ANALYZE" >/dev/null; }
fi
ingest fomento_list_pages
[ -n "$before_bin" ] && ingest fomento_list_pages_before "${FOMENTO_BEFORE_BENCH:-$bench}"

port_free() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

# Times the pages of binary $1 serving database $2, labelled $3.
pages() {
  local fomento=$1 url=$2 label=$3 port key pid
  port=$(port_free)
  key=$(DATABASE_URL="$url" "$fomento" keys create --role analyst 2>/dev/null | tail -n 1)
  DATABASE_URL="$url" "$fomento" serve --listen "127.0.0.1:$port" >"$work/serve-$label.log" 2>&1 &
  pid=$!
  for _ in $(seq 1 60); do curl -s -o /dev/null "http://127.0.0.1:$port/health" && break; sleep 1; done
  ask() {
    curl -s -o "$work/out.json" -w '%{time_total}' "http://127.0.0.1:$port/graphql" \
      -H "Authorization: Bearer $key" -H 'content-type: application/json' -d "$1"
  }
  best() {
    local b=""
    for _ in 1 2 3 4 5; do
      local t
      t=$(ask "$1")
      b=$(awk -v a="$t" -v b="$b" 'BEGIN { print (b == "" || a < b) ? a : b }')
    done
    grep -q '"errors"' "$work/out.json" && { echo "the query failed: $(head -c 300 "$work/out.json")" >&2; exit 1; }
    echo "$b"
  }
  # $1 the list's field, $2 what to select of it: the body of a first page, of the page after its last cursor, of
  # the last page.
  body() { printf '{"query":"{ %s }"}' "$1"; }
  local list
  for list in financings fcoCartas; do
    local edges="edges { cursor node { id amount } }"
    local first next last cursor
    first=$(best "$(body "$list(first: 20) { $edges }")")
    cursor=$(python3 -c "import json; print(json.load(open('$work/out.json'))['data']['$list']['edges'][-1]['cursor'])")
    next=$(best "$(body "$list(first: 20, after: \\\"$cursor\\\") { $edges }")")
    last=$(best "$(body "$list(last: 20) { $edges }")")
    eval "${list}_first=$first ${list}_next=$next ${list}_last=$last"
  done
  local bank small_first small_last
  of_bank() { body "bankByCode(code: \\\"$1\\\") { financings($2: 20) { edges { node { id } } } }"; }
  bank=$(best "$(of_bank BB first)")
  small_first=$(best "$(of_bank PEQUENO first)")
  small_last=$(best "$(of_bank PEQUENO last)")
  kill "$pid"
  wait "$pid" 2>/dev/null || true
  # shellcheck disable=SC2154 # set by eval above
  for row in "first:$financings_first:$fcoCartas_first" "next:$financings_next:$fcoCartas_next" \
    "last:$financings_last:$fcoCartas_last" "bank's first:$bank:$fcoCartas_first" \
    "small bank's first:$small_first:$fcoCartas_first" "small bank's last:$small_last:$fcoCartas_first"; do
    IFS=: read -r page t floor <<<"$row"
    printf '%-8s %-22s %10.4f %10.4f %7.1f\n' "$label" "$page" "$t" "$floor" "$(awk -v a="$t" -v b="$floor" 'BEGIN { print a / b }')"
  done
}

echo "$rows cartas of one bank on $backend; seconds per request, best of 5; floor: the same page of fcoCartas"
printf '%-8s %-22s %10s %10s %7s\n' binary "financings page" seconds floor ratio
pages "$bin" "$(url_of fomento_list_pages)" current
if [ -n "$before_bin" ]; then
  pages "$before_bin" "$(url_of fomento_list_pages_before)" before
fi
