// Fails when an operation of operations.graphql uses a field, argument, input field or enum value that
// schema.graphql marks deprecated (graphql-js's NoDeprecatedCustomRule): the client is written against the new
// conventions only (issue 45).
import { readFileSync } from "node:fs";
import { buildSchema, parse, validate, specifiedRules, NoDeprecatedCustomRule } from "graphql";

const schema = buildSchema(readFileSync(new URL("../../schema.graphql", import.meta.url), "utf8"));
const operations = parse(readFileSync(new URL("operations.graphql", import.meta.url), "utf8"));
const errors = validate(schema, operations, [...specifiedRules, NoDeprecatedCustomRule]);
for (const e of errors) {
  const at = (e.locations ?? []).map((l) => `operations.graphql:${l.line}:${l.column}`).join(", ");
  console.error(`${at}: ${e.message}`);
}
if (errors.length > 0) {
  process.exit(1);
}
console.log("operations.graphql: no deprecated field, argument or enum value");
