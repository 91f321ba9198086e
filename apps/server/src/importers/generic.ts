// The generic format (docs/cli.md): NDJSON, a JSON array, or `{"users": [...]}` of import records, exactly as
// `gatehouse export` writes them.
import { checked, type SourceItem } from "./record.ts";
import { jsonOrNdjsonRows } from "./sources.ts";

export async function* readGeneric(path: string): AsyncGenerator<SourceItem> {
  for await (const row of jsonOrNdjsonRows(path, "users")) {
    if ("fatal" in row) yield row;
    else yield checked(row.line, row.value);
  }
}
