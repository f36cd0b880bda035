// The graphql-http conformance audit of GraphQL over HTTP against a running Fomento: every MUST ("error" when it
// fails) and every SHOULD ("warn") must pass; a "notice" (MAY) is printed only. Usage: node audit.mjs URL
import { auditServer } from 'graphql-http';

const url = process.argv[2] ?? 'http://127.0.0.1:8080/graphql';
const results = await auditServer({ url });
let failed = 0;
for (const r of results) {
  const line = `${r.status.padEnd(6)} ${r.id} ${r.name}`;
  if (r.status === 'ok') {
    console.log(line);
  } else {
    if (r.status !== 'notice') failed += 1;
    console.log(`${line}\n       ${r.reason}`);
  }
}
const ok = results.filter((r) => r.status === 'ok').length;
console.log(`graphql-http audit of ${url}: ${ok} ok, ${failed} MUST/SHOULD failed, ${results.length} audits`);
process.exit(failed === 0 ? 0 : 1);
