# Sourced by the PostgreSQL scripts that measure over a bank's ingested list (pg-carta-costs.sh, pg-index-costs.sh,
# list-pages.sh): the bench binary, a work directory, and scratch databases holding an ingested workbook, all removed
# on exit. Run from the repository's root.

# Sets `bench` (FOMENTO_BENCH, else the release `fomento-bench`, built) and `work` (a temporary directory), and the
# EXIT trap that removes `work` and drops every database named in `scratch_dbs` on the server of `scratch_admin`.
scratch_dbs=()
scratch_bench() {
  scratch_admin=$1
  bench=${FOMENTO_BENCH:-}
  if [ -z "$bench" ]; then
    cargo build -q --release -p fomento-bench
    bench=${CARGO_TARGET_DIR:-target}/release/fomento-bench
  fi
  work=$(mktemp -d)
  trap scratch_cleanup EXIT
}

scratch_cleanup() {
  rm -rf "$work"
  local d
  for d in "${scratch_dbs[@]}"; do
    psql -q "$scratch_admin" -c "DROP DATABASE IF EXISTS $d WITH (FORCE)" >/dev/null 2>&1 || true
  done
}

# Generates `$work/report.xlsx`, a bank's list of $1 rows.
scratch_workbook() {
  "$bench" phase generate "$work/report.xlsx" "$1" >/dev/null
}

# (Re)creates database $1 on the admin URL's server and ingests the workbook into it, with `fomento-bench` $2 (by
# default `bench`); it is dropped on exit.
scratch_ingest() {
  local db=$1 ingester=${2:-$bench}
  scratch_dbs+=("$db")
  psql -q "$scratch_admin" -c "DROP DATABASE IF EXISTS $db WITH (FORCE)" -c "CREATE DATABASE $db" >/dev/null
  "$ingester" phase ingest "${scratch_admin%/*}/$db" "$work/report.xlsx" "$work/store-$db" >/dev/null
}
