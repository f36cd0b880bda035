#!/usr/bin/env bash
# Where PostgreSQL's time goes in one ingestion: runs `fomento-bench` with every statement logged by the server
# (`log_min_duration_statement = 0`, set with ALTER SYSTEM and reset afterwards) and sums the logged durations per
# statement of the ingest phase, largest first. The logging itself slows the run: compare totals between builds, not
# with a run of the benchmark.
#
# Usage: bench/pg-statements.sh FOMENTO_BENCH_BINARY ROWS [POSTGRES_URL] [SERVER_LOG]
# Needs psql, and the server's log readable here (Debian's /var/log/postgresql/postgresql-*-main.log by default).
set -euo pipefail
bin="$1"
rows="$2"
url="${3:-postgres://postgres@127.0.0.1:5432/test}"
log="${4:-$(ls /var/log/postgresql/postgresql-*-main.log | head -n 1)}"
psql "$url" -qtA -c "ALTER SYSTEM SET log_min_duration_statement = 0" -c "SELECT pg_reload_conf()" >/dev/null
trap 'psql "$url" -qtA -c "ALTER SYSTEM RESET log_min_duration_statement" -c "SELECT pg_reload_conf()" >/dev/null' EXIT
from=$(($(wc -l <"$log") + 1))
(cd /tmp && "$bin" --rows "$rows" --postgres "$url" 2>&1 | grep -E "^(backend|PostgreSQL)")
tail -n +"$from" "$log" | grep "fomento_bench_ingest.*duration:" |
  sed -E 's/.*duration: ([0-9.]+) ms  (statement|execute [a-z_0-9]*|parse [a-z_0-9]*|bind [a-z_0-9]*): ?(.{0,70}).*/\1 \2 \3/' |
  awk '{ key = $2; for (i = 3; i <= 8; i++) key = key " " $i; t[key] += $1; c[key]++; all += $1 }
       END { for (k in t) printf "%9.1f ms %5d× %s\n", t[k], c[k], k; printf "%9.1f ms in all\n", all }' |
  sort -rn | head -n 16
