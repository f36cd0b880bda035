// The graphql-http conformance audit of GraphQL over HTTP against a running Fomento: every MUST ("error" when it
// fails) and every SHOULD ("warn") must pass; a "notice" (MAY) is printed only. Usage: FOMENTO_KEY=fmt_… node audit.mjs URL
import { auditServer } from 'graphql-http';

const url = process.argv[2] ?? 'http://127.0.0.1:8080/graphql';
// Every request carries the API key in FOMENTO_KEY (Fomento answers 401 without one).
const key = process.env.FOMENTO_KEY;
const fetchFn = (input, init = {}) => {
  const headers = new Headers(init.headers);
  if (key) headers.set('authorization', `Bearer ${key}`);
  return fetch(input, { ...init, headers });
};
const results = await auditServer({ url, fetchFn });
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
