#!/usr/bin/env bash
# What one statement inserting N cartas costs PostgreSQL's server, by what the table carries: no index, the primary key,
# the two unique indexes, all five indexes, five indexes + the statement-level reference check (migration 8), five
# indexes + the five foreign keys it replaced. Each is an `INSERT … SELECT` of the same rows (from a table, no client
# involved), rolled back, best of 3, printed with its ratio to the same rows into a plain 13-column table (the shape of
# the benchmark's insert floor) measured in the same run.
#
#   bench/pg-carta-costs.sh postgres://postgres@127.0.0.1:5432/test [ROWS]
#
# It builds the release bench (or takes FOMENTO_BENCH, a built `fomento-bench`), generates a workbook of ROWS
# (100000) rows, ingests it into a scratch database `fomento_carta_costs` (dropped at the end) and measures there.
set -euo pipefail
export PGOPTIONS="-c client_min_messages=warning"
admin=${1:?usage: bench/pg-carta-costs.sh ADMIN_URL [ROWS]}
rows=${2:-100000}
db=fomento_carta_costs
url="${admin%/*}/$db"
cd "$(dirname "$0")/.."
. bench/scratch.sh
scratch_bench "$admin"
scratch_workbook "$rows"
scratch_ingest "$db"

cols="number, bank_id, party_id, line, activity, financed_amount, municipality_code, stage, status, decision,
      decided_on, approved_on, contracted_on, contracted_amount, term_months, grace_months, created_at"
psql -q "$url" >/dev/null <<SQL
CREATE TABLE src AS SELECT c.number || '/x' AS number, c.bank_id, p.document, c.line, c.activity, c.financed_amount,
    c.municipality_code, c.stage, c.status, c.decision, c.decided_on, c.approved_on, c.contracted_on,
    c.contracted_amount, c.term_months, c.grace_months, c.created_at, p.name
  FROM fco_carta c JOIN party p ON p.id = c.party_id;
CREATE TABLE plain (number TEXT, borrower TEXT, document TEXT, municipality INTEGER, uf TEXT, line TEXT, activity TEXT,
    purpose TEXT, amount BIGINT, approved DATE, contracted DATE, term INTEGER, grace INTEGER);
CREATE TABLE no_index (LIKE fco_carta INCLUDING DEFAULTS INCLUDING IDENTITY);
CREATE TABLE primary_key (LIKE fco_carta INCLUDING DEFAULTS INCLUDING IDENTITY);
ALTER TABLE primary_key ADD PRIMARY KEY (id);
CREATE TABLE unique_keys (LIKE primary_key INCLUDING ALL);
CREATE UNIQUE INDEX ON unique_keys (bank_id, number);
CREATE TABLE five_indexes (LIKE fco_carta INCLUDING ALL);
CREATE TABLE statement_check (LIKE fco_carta INCLUDING ALL);
CREATE TRIGGER statement_check_refs AFTER INSERT ON statement_check REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION fco_carta_references_check();
CREATE TABLE foreign_keys (LIKE fco_carta INCLUDING ALL);
ALTER TABLE foreign_keys ADD FOREIGN KEY (bank_id) REFERENCES bank (id),
    ADD FOREIGN KEY (party_id) REFERENCES party (id),
    ADD FOREIGN KEY (municipality_code) REFERENCES municipality (ibge_code),
    ADD FOREIGN KEY (chamber_meeting_id) REFERENCES chamber_meeting (id),
    ADD FOREIGN KEY (resubmission_of) REFERENCES foreign_keys (id);
VACUUM ANALYZE;
SQL

# Best of 3, in ms, of one statement run in a transaction that is rolled back.
best() {
  local best=
  for _ in 1 2 3; do
    local ms
    ms=$(printf '\\timing on\nBEGIN;\nSET LOCAL jit = off;\n%s;\nROLLBACK;\n' "$1" | psql -q "$url" |
      sed -n 's/^Time: \([0-9.]*\) ms.*/\1/p' | sort -n | tail -1)
    best=$(awk -v a="$ms" -v b="$best" 'BEGIN { print (b == "" || a < b) ? a : b }')
  done
  echo "$best"
}

floor=$(best "INSERT INTO plain SELECT number, name, document, municipality_code, 'MT', line, activity, 'INVESTMENT',
  financed_amount, approved_on, contracted_on, term_months, grace_months FROM src")
echo "one INSERT of $rows cartas, server only (best of 3)"
printf '%-18s %8s  %6s\n' "table" "ms" "ratio"
printf '%-18s %8.0f  %6.2f\n' "plain (floor)" "$floor" 1
for t in no_index primary_key unique_keys five_indexes statement_check foreign_keys; do
  ms=$(best "INSERT INTO $t ($cols) SELECT s.number, s.bank_id, p.id, s.line, s.activity, s.financed_amount,
    s.municipality_code, s.stage, s.status, s.decision, s.decided_on, s.approved_on, s.contracted_on,
    s.contracted_amount, s.term_months, s.grace_months, s.created_at FROM src s JOIN party p ON p.document = s.document")
  printf '%-18s %8.0f  %6.2f\n' "$t" "$ms" "$(awk -v a="$ms" -v b="$floor" 'BEGIN { print a / b }')"
done
