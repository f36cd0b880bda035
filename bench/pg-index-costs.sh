#!/usr/bin/env bash
# What each of `fco_carta`'s indexes and its reference trigger cost PostgreSQL's server when a bank's list writes
# its cartas, one at a time and cumulatively, as the ingestion writes them: ROWS cartas in statements of BATCH rows,
# in one transaction (rolled back), best of 3, each try after a CHECKPOINT. The indexes are read from the live table
# (`pg_indexes`), so the script follows the migrations: each line adds one index (or, last, the reference trigger) to
# a copy of `fco_carta` and prints the time and what it added.
#
#   bench/pg-index-costs.sh postgres://postgres@127.0.0.1:5432/test [ROWS (1000000)] [BATCH (25000)]
#
# It builds the release bench (or takes FOMENTO_BENCH, a built `fomento-bench`), generates a workbook of ROWS rows,
# ingests it into a scratch database `fomento_index_costs` (dropped at the end) and measures there.
set -euo pipefail
export PGOPTIONS="-c client_min_messages=warning"
admin=${1:?usage: bench/pg-index-costs.sh ADMIN_URL [ROWS] [BATCH]}
rows=${2:-1000000}
batch=${3:-25000}
db=fomento_index_costs
url="${admin%/*}/$db"
cd "$(dirname "$0")/.."
. bench/scratch.sh
scratch_bench "$admin"
scratch_workbook "$rows"
scratch_ingest "$db"

cols="number, bank_id, party_id, line, activity, financed_amount, municipality_code, stage, status, decision,
      decided_on, approved_on, contracted_on, contracted_amount, term_months, grace_months, presented_on,
      borrower_name, created_at, created_by_report"
# The cartas again, under new numbers, in the order the ingestion wrote them.
psql -q "$url" >/dev/null <<SQL
CREATE TABLE src AS SELECT row_number() OVER (ORDER BY id) AS rn, number || '/x' AS number, bank_id, party_id, line,
    activity, financed_amount, municipality_code, stage, status, decision, decided_on, approved_on, contracted_on,
    contracted_amount, term_months, grace_months, presented_on, borrower_name, created_at, created_by_report
  FROM fco_carta;
CREATE INDEX ON src (rn);
VACUUM ANALYZE src;
SQL

# The statements of one try: every row of src, BATCH at a time, into table $1.
inserts() {
  local sql="" lo=0
  while [ "$lo" -lt "$rows" ]; do
    sql="$sql INSERT INTO $1 ($cols) SELECT $cols FROM src WHERE rn > $lo AND rn <= $((lo + batch));"
    lo=$((lo + batch))
  done
  echo "$sql"
}

# Best of 3, in ms, of writing every row into table $1 in one transaction that is rolled back.
best() {
  local best="" sql
  sql="BEGIN; SET LOCAL jit = off; $(inserts "$1") ROLLBACK;"
  for _ in 1 2 3; do
    psql -q "$url" -c CHECKPOINT
    local s e
    s=$(date +%s%N)
    psql -q "$url" -c "$sql" >/dev/null
    e=$(date +%s%N)
    best=$(awk -v a="$(((e - s) / 1000000))" -v b="$best" 'BEGIN { print (b == "" || a < b) ? a : b }')
  done
  echo "$best"
}

# The primary key first, then the other indexes by name.
mapfile -t defs < <(psql -qAt "$url" -c "SELECT indexdef FROM pg_indexes WHERE tablename = 'fco_carta'
  ORDER BY indexname <> 'fco_carta_pkey', indexname")
echo "$rows cartas in statements of $batch, one transaction, server only (best of 3)"
printf '%-6s %9s %8s  %s\n' table ms added what
psql -q "$url" -c "CREATE TABLE t0 (LIKE fco_carta INCLUDING DEFAULTS INCLUDING IDENTITY)"
previous=$(best t0)
printf '%-6s %9s %8s  %s\n' t0 "$previous" "" "no index"
k=0
for def in "${defs[@]}" trigger; do
  k=$((k + 1))
  psql -q "$url" -c "CREATE TABLE t$k (LIKE t$((k - 1)) INCLUDING ALL)"
  if [ "$def" = trigger ]; then
    what="the reference trigger (fco_carta_references_check)"
    psql -q "$url" -c "CREATE TRIGGER t${k}_references AFTER INSERT ON t$k REFERENCING NEW TABLE AS new_rows
      FOR EACH STATEMENT EXECUTE FUNCTION fco_carta_references_check()"
  else
    what=$(sed -E 's/ ON public\.fco_carta USING btree//; s/^CREATE //' <<<"$def")
    # The same index on the copy, under a name of its own.
    psql -q "$url" -c "$(sed -E "s/ INDEX [^ ]+ ON public\.fco_carta / INDEX ON t$k /" <<<"$def")"
  fi
  ms=$(best "t$k")
  printf '%-6s %9s %8s  %s\n' "t$k" "$ms" "+$((ms - previous))" "$what"
  previous=$ms
done
