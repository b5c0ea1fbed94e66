// Tests of @catalogd/sdk/transfers (node:test), run by transfers_test.go on the packed SDK against a
// live catalogd (CATALOGD_URL, CATALOGD_TOKEN: a fresh tenant): an import with a failed line, a dry
// run, then an export downloaded and imported again (every line unchanged).
import assert from "node:assert/strict";
import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { ImportStatus } from "@catalogd/sdk";
import { connectTransport } from "@catalogd/sdk/node";
import { exportTo, importFile, sha256Hex, type TransferProgress } from "@catalogd/sdk/transfers";

const transport = connectTransport({ baseUrl: process.env.CATALOGD_URL!, token: process.env.CATALOGD_TOKEN! });
const lines = [
  { type: "locale", code: "en-US" },
  { type: "category", code: "ts-shoes" },
  { type: "category", code: "ts-boots", parent: "ts-shoes" },
  { type: "product", code: "TS-BOOT-1", kind: "simple", categories: ["ts-boots"] },
  { type: "product", code: "TS-BOOT-2", kind: "simple", categories: ["ts-nowhere"] },
];
const file = new TextEncoder().encode(lines.map((l) => JSON.stringify(l)).join("\n") + "\n");

test("sha256Hex is SHA-256 in lower-case hex", async () => {
  assert.equal(await sha256Hex(new TextEncoder().encode("abc")), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
});

test("importFile: a dry run writes nothing and reports what would fail", async () => {
  const { import: imp, failedLines } = await importFile(transport, file, { dryRun: true, fileName: "catalog.ndjson" });
  assert.equal(imp.status, ImportStatus.COMPLETED);
  assert.equal(imp.dryRun, true);
  assert.equal(imp.linesRead, 5n);
  assert.equal(imp.failedCount, 1n);
  assert.deepEqual(failedLines.map((l) => [l.line, l.code, l.errors[0]?.code]), [[5n, "TS-BOOT-2", "UNRESOLVED_REFERENCE"]]);
});

test("importFile then exportTo, and the export imported again changes nothing", async () => {
  const dir = await mkdtemp(join(tmpdir(), "catalogd-transfers-"));
  const path = join(dir, "catalog.ndjson");
  await writeFile(path, file);
  const seen: TransferProgress<unknown>[] = [];
  const { import: imp, failedLines } = await importFile(transport, path, { onProgress: (p) => seen.push(p) });
  assert.equal(imp.status, ImportStatus.COMPLETED);
  assert.equal(imp.fileName, "catalog.ndjson");
  assert.equal(imp.failedCount, 1n);
  assert.equal(imp.createdCount + imp.updatedCount + imp.unchangedCount, 4n);
  assert.equal(failedLines.length, 1);
  assert.equal(failedLines[0]!.line, 5n);
  assert.equal(failedLines[0]!.type, "product");
  assert.equal(failedLines[0]!.errors[0]!.code, "UNRESOLVED_REFERENCE");
  // The upload, then the job's statuses, the last one final with every byte read.
  assert.equal(seen[0]!.phase, "uploading");
  const last = seen[seen.length - 1]!;
  assert.equal(last.phase, "completed");
  assert.equal(last.bytesDone, file.byteLength);

  const out = join(dir, "export.ndjson");
  const exported: string[] = [];
  const { export: exp, data } = await exportTo(transport, { path: out, onProgress: (p) => exported.push(p.phase) });
  assert.equal(exported[exported.length - 1], "downloading");
  assert.equal(Number(exp.sizeBytes), data.byteLength);
  assert.deepEqual(new Uint8Array(await readFile(out)), data);
  const text = new TextDecoder().decode(data);
  for (const code of ['"TS-BOOT-1"', '"ts-boots"', '"ts-shoes"']) assert.ok(text.includes(code), `the export lacks ${code}:\n${text}`);
  assert.ok(!text.includes("TS-BOOT-2"), "the failed line's product was exported");

  const again = await importFile(transport, data, { fileName: "export.ndjson" });
  assert.equal(again.import.status, ImportStatus.COMPLETED);
  assert.equal(again.import.failedCount, 0n);
  assert.equal(again.import.createdCount + again.import.updatedCount, 0n);
  assert.equal(again.import.unchangedCount, again.import.linesRead);
});

test("exportTo: a CSV of products", async () => {
  const { data } = await exportTo(transport, { format: "csv", types: ["product"] });
  const text = new TextDecoder().decode(data);
  const header = text.split("\n")[0]!.replace(/^\uFEFF/, "").split(",");
  assert.ok(header.includes("code"), `the CSV's header: ${header}`);
  assert.ok(text.includes("TS-BOOT-1"));
});
