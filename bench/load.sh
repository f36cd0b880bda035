#!/usr/bin/env bash
# The graph under load (issue 17): starts `fomento serve --demo` on SQLite and on PostgreSQL, with a key whose rate
# is high enough not to limit, and drives each query shape with wrk (-t2, on this machine): the 20-item list, the
# nested 50 (bank, borrower, municipality) at 50 and 200 connections, 20 financings with compliance and deadlines, and
# a mixed read workload at 200 connections (requests over 2 s count as errors: wrk --timeout 2s). In the same run it
# measures each list's bare SQL floor: pgbench -M prepared on PostgreSQL, a tight prepared-statement loop through
# sqlx on SQLite (fomento-bench-sqlfloor), and prints rps, p50, p99, errors and the ratio to the floor.
#
# With --before REV it also builds REV in a git worktree and runs the same shapes against it in the same run (the
# noisy machine is then the same for both). With --instructions it counts the server's instructions per request of
# each shape under valgrind --tool=callgrind (exact and repeatable, unlike time; 50 requests each, one at a time).
#
# With --before-flag FLAG the "before" is the current binary started with FLAG (`--no-plain-reads`: every field
# through async-graphql's executor), so a switchable change is compared without a second build.
#
# Usage: bench/load.sh [--seconds N (10)] [--before REV | --before-bin PATH | --before-flag FLAG] [--instructions]
#        [--no-load (only the instructions)] [--sqlite-only]
#        FOMENTO_BENCH_POSTGRES=postgres://postgres@127.0.0.1:5432/test (the admin URL; a database is created)
#        FOMENTO_BIN=path (skip the build of the current binary)
#        FOMENTO_FLOOR_BIN=path (fomento-bench-sqlfloor built elsewhere; built here when absent)
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=10 before="" before_bin="" before_flag="" instructions=0 sqlite_only=0 no_load=0
while [ $# -gt 0 ]; do
  case "$1" in
    --seconds) seconds="$2"; shift 2 ;;
    --before) before="$2"; shift 2 ;;
    --before-bin) before_bin="$2"; shift 2 ;;
    --before-flag) before_flag="$2"; shift 2 ;;
    --instructions) instructions=1; shift ;;
    --no-load) no_load=1; instructions=1; shift ;;
    --sqlite-only) sqlite_only=1; shift ;;
    *) echo "unknown argument $1"; exit 2 ;;
  esac
done
admin="${FOMENTO_BENCH_POSTGRES:-postgres://postgres@127.0.0.1:5432/test}"
for tool in wrk pgbench psql curl python3; do
  command -v "$tool" >/dev/null || { echo "$tool is not installed"; exit 2; }
done
work="$(mktemp -d)"
servers=()
cleanup() {
  for pid in "${servers[@]}"; do kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; done
  [ -n "$before" ] && git worktree remove --force "$work/before" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

# The binaries: the current tree, and REV when asked.
floor_bin="${FOMENTO_FLOOR_BIN:-target/release/fomento-bench-sqlfloor}"
if [ -z "${FOMENTO_BIN:-}" ]; then
  cargo build --release -q -p fomento-api --bin fomento -p fomento-bench --bin fomento-bench-sqlfloor
fi
[ -x "$floor_bin" ] || cargo build --release -q -p fomento-bench --bin fomento-bench-sqlfloor
binaries=("current=${FOMENTO_BIN:-target/release/fomento}")
if [ -n "$before" ]; then
  git worktree add -q --detach "$work/before" "$before"
  # A target directory of its own, kept between runs (the first build is cold, later ones reuse it).
  before_target="$PWD/target/bench-before"
  (cd "$work/before" && CARGO_TARGET_DIR="$before_target" cargo build --release -q -p fomento-api --bin fomento)
  cp "$before_target/release/fomento" "$work/fomento-before"
  binaries+=("before=$work/fomento-before")
elif [ -n "$before_bin" ]; then
  binaries+=("before=$before_bin")
elif [ -n "$before_flag" ]; then
  binaries+=("before=${FOMENTO_BIN:-target/release/fomento}")
fi
# The flags a label's server starts with.
flags_of() { [ "$1" = before ] && [ -n "$before_flag" ] && echo "$before_flag" || true; }

port_free() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

# The shapes: name, connections, body (the mixed workload is a Lua list of bodies).
q_list='{ fcoCartas(first: 20) { totalCount edges { node { amount } } } }'
q_nested='{ fcoCartas(first: 50) { totalCount edges { node { amount bank { name } party { name document } municipality { name } } } } }'
q_compliance='{ financings(first: 20) { edges { node { ... on FcoCarta { compliance { ruleCode status } deadlines { ruleCode status } } ... on SocialFuelProject { compliance { ruleCode status } deadlines { ruleCode status } } } } } }'
q_filtered='{ fcoCartas(first: 20, filter: { stages: [CONTRACTED] }) { totalCount nodes { number amount stage } } }'
body() { python3 -c 'import json,sys; print(json.dumps({"query": sys.argv[1]}))' "$1"; }

# Starts a server on a database URL; sets $base, $key, $pid.
start() { # binary url label [flags]
  local port; port=$(port_free)
  # shellcheck disable=SC2086
  FOMENTO_LOG=warn "$1" ${4:-} --database-url "$2" --file-store "$work/store-$3" serve --demo --listen "127.0.0.1:$port" \
    > "$work/serve-$3.out" 2>&1 &
  pid=$!
  servers+=("$pid")
  for _ in $(seq 1 1200); do
    curl -sf "http://127.0.0.1:$port/ready" >/dev/null && break
    sleep 0.1
  done
  base="http://127.0.0.1:$port"
  key=$("$1" --database-url "$2" keys create --role analyst --name "load $3" --rate 1000000 | tail -n 1)
}
stop() { kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; }

wrk_script() { # file, then one or more bodies (a random one per request)
  local file="$1"; shift
  {
    echo 'wrk.method = "POST"'
    echo 'wrk.headers["Content-Type"] = "application/json"'
    echo 'wrk.headers["Authorization"] = "Bearer " .. os.getenv("FOMENTO_KEY")'
    echo 'local bodies = {}'
    for b in "$@"; do printf 'table.insert(bodies, [==[%s]==])\n' "$(body "$b")"; done
    echo 'request = function() return wrk.format(nil, nil, nil, bodies[math.random(#bodies)]) end'
  } > "$file"
}

# One wrk run: prints "rps p50 p99 errors requests".
drive() { # connections script
  FOMENTO_KEY="$key" wrk -t2 -c"$1" -d"${seconds}s" --timeout 2s --latency -s "$2" "$base/graphql" > "$work/wrk.out" 2>&1
  local rps p50 p99 non2xx sock requests
  rps=$(awk '/^Requests\/sec/ {print $2}' "$work/wrk.out")
  p50=$(awk '$1=="50%" {print $2}' "$work/wrk.out")
  p99=$(awk '$1=="99%" {print $2}' "$work/wrk.out")
  requests=$(grep -Eo '[0-9]+ requests in' "$work/wrk.out" | awk '{print $1}')
  non2xx=$(grep -Eo 'Non-2xx or 3xx responses: [0-9]+' "$work/wrk.out" | awk '{print $NF}' || true)
  sock=$(grep -Eo 'Socket errors: .*' "$work/wrk.out" | grep -Eo '[0-9]+' | awk '{s += $1} END {print s + 0}' || true)
  echo "${rps:-0} ${p50:--} ${p99:--} $(( ${non2xx:-0} + ${sock:-0} )) ${requests:-0}"
}

floor_pg() { # sql -> tps with 50 clients
  echo "$1;" > "$work/floor.sql"
  pgbench -n -M prepared -c 50 -j 2 -T "$seconds" -f "$work/floor.sql" "$2" 2>/dev/null | awk '/^tps/ {print $3; exit}'
}
floor_sqlite() { # sql url -> statements per second, 50 clients over Fomento's 4 connections
  "$floor_bin" "$2" "$1" --clients 50 --pool 4 --seconds "$seconds"
}

sql_list='SELECT id, financed_amount, status FROM fco_carta ORDER BY id DESC LIMIT 20'
sql_nested='SELECT c.id, c.financed_amount, b.name, p.name, p.document, m.name FROM fco_carta c JOIN bank b ON b.id = c.bank_id JOIN party p ON p.id = c.party_id JOIN municipality m ON m.ibge_code = c.municipality_code ORDER BY c.id DESC LIMIT 50'

# Instructions per request of each shape: the server under callgrind, instrumentation switched on around a run of
# requests (one at a time); the count of 10 requests taken from that of 60, divided by 50, leaves out what switching
# costs.
count_instructions() { # binary url label [flags]
  local port; port=$(port_free)
  # shellcheck disable=SC2086
  FOMENTO_LOG=warn valgrind --tool=callgrind --instr-atstart=no --callgrind-out-file="$work/cg-$3.%p" \
    "$1" ${4:-} --database-url "$2" --file-store "$work/store-$3" serve --listen "127.0.0.1:$port" > "$work/cg-$3.out" 2>&1 &
  cg=$!
  cg_label="$3"
  servers+=("$cg")
  for _ in $(seq 1 3000); do curl -sf "http://127.0.0.1:$port/ready" >/dev/null && break; sleep 0.2; done
  send() { # n
    for _ in $(seq 1 "$1"); do
      curl -sf -H "Authorization: Bearer $key" -H 'Content-Type: application/json' -d @"$work/body.json" \
        "http://127.0.0.1:$port/graphql" > /dev/null
    done
  }
  counted() { # n -> instructions of n requests
    callgrind_control -i on "$cg" > /dev/null 2>&1
    callgrind_control -z "$cg" > /dev/null 2>&1
    send "$1"
    callgrind_control -i off "$cg" > /dev/null 2>&1
    rm -f "$work/cg-$cg_label.$cg".*
    callgrind_control -d "$cg" > /dev/null 2>&1
    sleep 0.5
    awk '/^totals:/ {print $2; exit}' "$work/cg-$cg_label.$cg".*
  }
  for shape in list nested compliance; do
    local q="q_$shape"
    body "${!q}" > "$work/body.json"
    send 3  # warm: the first requests fill caches
    local ten sixty
    ten=$(counted 10)
    sixty=$(counted 60)
    printf '%-11s %-8s %-12s %16s\n' "$backend" "$3" "$shape" "$(( (sixty - ten) / 50 ))"
  done
  kill "$cg" 2>/dev/null || true; wait "$cg" 2>/dev/null || true
}

backends=(sqlite)
[ "$sqlite_only" = 1 ] || backends+=(postgresql)
wrk_script "$work/list.lua" "$q_list"
wrk_script "$work/nested.lua" "$q_nested"
wrk_script "$work/compliance.lua" "$q_compliance"

echo "load benchmark, ${seconds}s per run, wrk -t2, $(nproc) cores, $(date -u +%FT%TZ)"
printf '%-11s %-8s %-22s %5s %9s %9s %9s %7s %10s %7s\n' backend binary shape conns rps p50 p99 errors floor ratio
results="$work/results"
: > "$results"
for backend in "${backends[@]}"; do
  for entry in "${binaries[@]}"; do
    label="${entry%%=*}" bin="${entry#*=}"
    if [ "$backend" = sqlite ]; then
      url="sqlite://$work/load-$label.db?mode=rwc"
    else
      db="fomento_load_$label"
      psql -q "$admin" -c "DROP DATABASE IF EXISTS $db WITH (FORCE)" -c "CREATE DATABASE $db" > /dev/null
      url="${admin%/*}/$db"
    fi
    start "$bin" "$url" "$backend-$label" "$(flags_of "$label")"
    document=$(curl -s -H "Authorization: Bearer $key" -H 'Content-Type: application/json' \
      -d "$(body '{ fcoCartas(first: 1) { nodes { party { document } } } }')" "$base/graphql" |
      python3 -c 'import json,sys; print(json.load(sys.stdin)["data"]["fcoCartas"]["nodes"][0]["party"]["document"])')
    q_party="{ party(document: \"$document\") { name financings(first: 10) { totalCount nodes { amount } } } }"
    wrk_script "$work/mixed.lua" "$q_list" "$q_nested" "$q_filtered" "$q_party" "$q_compliance"
    # The floors, once per backend (the data are the same demo), beside the first binary's runs.
    if [ "$no_load" = 1 ]; then
      stop
      echo "$url|$key" > "$work/instr-$backend-$label"
      continue
    fi
    if [ "$label" = current ]; then
      if [ "$backend" = sqlite ]; then
        floor_list=$(floor_sqlite "$sql_list" "$url"); floor_nested=$(floor_sqlite "$sql_nested" "$url")
      else
        floor_list=$(floor_pg "$sql_list" "$url"); floor_nested=$(floor_pg "$sql_nested" "$url")
      fi
    fi
    drive 20 "$work/list.lua" > /dev/null  # warm-up
    for run in "list 50 list.lua $floor_list" "nested 50 nested.lua $floor_nested" "nested 200 nested.lua $floor_nested" \
               "compliance 50 compliance.lua -" "mixed 200 mixed.lua -"; do
      set -- $run
      read -r rps p50 p99 errors requests < <(drive "$2" "$work/$3")
      ratio="-"
      [ "$4" != "-" ] && ratio=$(python3 -c "print(f'{$rps / $4:.3f}')")
      printf '%-11s %-8s %-22s %5s %9s %9s %9s %7s %10s %7s\n' "$backend" "$label" "$1" "$2" "$rps" "$p50" "$p99" "$errors" "$4" "$ratio" | tee -a "$results"
    done
    stop
    if [ "$instructions" = 1 ]; then
      echo "$url|$key" > "$work/instr-$backend-$label"
    fi
  done
done
if [ "${#binaries[@]}" -gt 1 ]; then
  echo
  echo "current / before, requests per second:"
  awk '{k = $1 " " $3 " " $4; if ($2 == "current") c[k] = $5; else b[k] = $5}
       END {for (k in c) if (b[k] > 0) printf "  %-32s %6.2fx\n", k, c[k] / b[k]}' "$results" | sort
fi
if [ "$instructions" = 1 ]; then
  echo
  printf '%-11s %-8s %-12s %16s\n' backend binary shape "instr/request"
  for backend in "${backends[@]}"; do
    for entry in "${binaries[@]}"; do
      label="${entry%%=*}" bin="${entry#*=}"
      url=$(cut -d'|' -f1 "$work/instr-$backend-$label")
      key=$(cut -d'|' -f2 "$work/instr-$backend-$label")
      count_instructions "$bin" "$url" "$label" "$(flags_of "$label")"
    done
  done
fi
