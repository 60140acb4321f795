// Reads an AsyncAPI document with the official parser (@asyncapi/parser, its default
// rules) and prints every diagnostic, one JSON object a line:
// {"severity": "error"|"warning"|"information"|"hint", "code", "message", "path"}.
// Exits 1 if any is an error (or the document could not be parsed at all), else 0.
//   node tools/asyncapi_check.mjs api/asyncapi.yaml
import { readFileSync } from "node:fs";
import { DiagnosticSeverity, Parser } from "@asyncapi/parser";

const path = process.argv[2];
if (!path) {
  console.error("usage: node tools/asyncapi_check.mjs <document>");
  process.exit(2);
}
const SEVERITY = {
  [DiagnosticSeverity.Error]: "error",
  [DiagnosticSeverity.Warning]: "warning",
  [DiagnosticSeverity.Information]: "information",
  [DiagnosticSeverity.Hint]: "hint",
};
const { document, diagnostics } = await new Parser().parse(readFileSync(path, "utf8"), { source: path });
for (const d of diagnostics) {
  console.log(JSON.stringify({ severity: SEVERITY[d.severity], code: d.code, message: d.message, path: d.path.join("/") }));
}
const errors = diagnostics.filter((d) => d.severity === DiagnosticSeverity.Error).length;
process.exit(errors > 0 || document === undefined ? 1 : 0);
