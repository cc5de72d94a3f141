// Parses an AsyncAPI document with @asyncapi/parser and prints each diagnostic, one line each:
//   <error|warning|info|hint> <code> <path> <message>
// then "parsed" or "not parsed". Exit 0 when the document parsed with no error and no warning, 1 otherwise.
// Usage: node check.mjs <asyncapi.yaml>   (relative $refs, such as schema/*.json, resolve beside the file)
import { Parser, fromFile } from '@asyncapi/parser';

const SEVERITY = ['error', 'warning', 'info', 'hint'];
const file = process.argv[2];
if (!file) {
  console.error('usage: node check.mjs <asyncapi.yaml>');
  process.exit(2);
}
const { document, diagnostics } = await fromFile(new Parser(), file).parse();
let failed = !document;
for (const d of diagnostics) {
  const severity = SEVERITY[d.severity] ?? String(d.severity);
  if (d.severity <= 1) failed = true;
  console.log(`${severity} ${d.code} ${d.path.join('.') || '(document)'} ${d.message}`);
}
console.log(document ? 'parsed' : 'not parsed');
process.exit(failed ? 1 : 0);
