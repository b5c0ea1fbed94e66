// @catalogd/sdk/transfers: a whole file in and out of a catalog (API.md "Import and export (jobs)").
// importFile uploads a file (NDJSON of any line type, or CSV of products) the two-step way (create
// with its size and SHA-256, PUT to the signed URL, start), waits for the import with a progress
// callback and returns it with its failed lines; exportTo creates an export, waits for it and
// downloads the file, checking its size and SHA-256. The calls go through ImportService and
// ExportService on any transport of the SDK (gRPC, Connect, gRPC-Web); the file itself goes to and
// from the signed URLs with fetch. Node.js 20+ and browsers (Web Crypto); a file path (Node only) is
// read with node:fs.
import type { MessageInitShape } from "@bufbuild/protobuf";
import { createClient, type Transport } from "@connectrpc/connect";
import {
  ExportFormat,
  ExportService,
  ExportStatus,
  ImportFormat,
  ImportService,
  ImportStatus,
  ImportTransition,
  SortDirection,
  type Export,
  type Import,
  type ImportLine,
  type ProductFilterSchema,
} from "./gen/index.js";

/** A job's progress, given to onProgress after each look at it. */
export interface TransferProgress<J> {
  /** "uploading", then the job's status: "queued", "running", … ("downloading" for an export's file). */
  phase: string;
  /** The job as last read (undefined while uploading). */
  job?: J;
  /** Bytes done and the total, when known (upload, import's bytesRead, download). */
  bytesDone?: number;
  bytesTotal?: number;
}

/** Options of importFile. */
export interface ImportFileOptions {
  /** "ndjson" or "csv"; default: from the file name's extension (.ndjson, .jsonl, .csv), else ndjson. */
  format?: "ndjson" | "csv";
  /** Check and count every line, write nothing. */
  dryRun?: boolean;
  /** The file's name as the import records it (default: a path's base name). */
  fileName?: string;
  /** Called after each look at the job. */
  onProgress?: (p: TransferProgress<Import>) => void;
  /** Milliseconds between two looks at the job at most (default 1000; the first ones come sooner). */
  pollMs?: number;
  /** Stops waiting (the job goes on on the server). */
  signal?: AbortSignal;
}

/** What importFile returns: the finished import and its failed lines, in line order. */
export interface ImportResult {
  import: Import;
  failedLines: ImportLine[];
}

/** Options of exportTo. */
export interface ExportOptions {
  /** "ndjson" (default) or "csv" (products only). */
  format?: "ndjson" | "csv";
  /** Line types to export (locale, attribute, …, product); default all. */
  types?: string[];
  /** The products to export, with the product list's filters. */
  productFilter?: MessageInitShape<typeof ProductFilterSchema>;
  /** gzip the file. */
  gzip?: boolean;
  /** Node only: also write the file there (written whole once its checksum is checked). */
  path?: string;
  onProgress?: (p: TransferProgress<Export>) => void;
  pollMs?: number;
  signal?: AbortSignal;
}

/** What exportTo returns: the completed export and the file's bytes (checked against its SHA-256). */
export interface ExportResult {
  export: Export;
  data: Uint8Array;
}

/** The SHA-256 of bytes, lower-case hex. */
export async function sha256Hex(data: Uint8Array): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", data as Uint8Array<ArrayBuffer>);
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}

function formatOf(format: string | undefined, name: string | undefined): "ndjson" | "csv" {
  if (format === "ndjson" || format === "csv") return format;
  if (format !== undefined) throw new TypeError(`format must be "ndjson" or "csv", not ${JSON.stringify(format)}`);
  return name !== undefined && /\.csv$/i.test(name) ? "csv" : "ndjson";
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const t = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(t);
      reject(signal?.reason);
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/** Looks at a job until its status is final: often at first, then every pollMs. */
async function waitFor<J extends { status: number }>(
  get: () => Promise<J>,
  done: (j: J) => boolean,
  report: (j: J) => void,
  pollMs = 1000,
  signal?: AbortSignal,
): Promise<J> {
  let delay = Math.min(100, pollMs);
  for (;;) {
    const job = await get();
    report(job);
    if (done(job)) return job;
    await sleep(delay, signal);
    delay = Math.min(delay * 2, pollMs);
  }
}

async function readSource(source: string | Uint8Array): Promise<Uint8Array> {
  if (typeof source !== "string") return source;
  const fs = await import("node:fs/promises");
  return new Uint8Array(await fs.readFile(source));
}

/**
 * Imports a file: `source` is its bytes, or (Node) a path. Resolves when the import is over
 * (completed, failed or cancelled: look at `import.status` and `import.failedCount`), with its failed
 * lines. The file is held in memory: for files of gigabytes, use `catalogd import`.
 */
export async function importFile(transport: Transport, source: string | Uint8Array, options: ImportFileOptions = {}): Promise<ImportResult> {
  const client = createClient(ImportService, transport);
  const name = options.fileName ?? (typeof source === "string" ? source.split(/[\\/]/).pop() : undefined);
  const format = formatOf(options.format, name);
  const data = await readSource(source);
  const total = data.byteLength;
  const { upload: created } = await client.createImport(
    {
      import: {
        format: format === "csv" ? ImportFormat.CSV : ImportFormat.NDJSON,
        dryRun: options.dryRun ?? false,
        fileName: name,
        sizeBytes: BigInt(total),
        checksumSha256: await sha256Hex(data),
      },
    },
    { signal: options.signal },
  );
  if (!created?.import || !created.uploadUrl) throw new Error("catalogd gave no import or no upload URL");
  const uuid = created.import.uuid;
  options.onProgress?.({ phase: "uploading", bytesDone: 0, bytesTotal: total });
  const put = await fetch(created.uploadUrl, {
    method: created.uploadMethod || "PUT",
    headers: created.uploadHeaders,
    body: data as Uint8Array<ArrayBuffer>,
    signal: options.signal,
  });
  if (!put.ok) throw new Error(`upload of import ${uuid}: HTTP ${put.status}: ${(await put.text()).slice(0, 300)}`);
  options.onProgress?.({ phase: "uploading", bytesDone: total, bytesTotal: total });
  await client.transitionImport({ importUuid: uuid, transition: ImportTransition.START }, { signal: options.signal });

  const final = await waitFor(
    async () => (await client.getImport({ importUuid: uuid }, { signal: options.signal })).import!,
    (j) => j.status === ImportStatus.COMPLETED || j.status === ImportStatus.FAILED || j.status === ImportStatus.CANCELLED,
    (j) =>
      options.onProgress?.({
        phase: ImportStatus[j.status].toLowerCase(),
        job: j,
        bytesDone: Number(j.bytesRead),
        bytesTotal: Number(j.sizeBytes),
      }),
    options.pollMs,
    options.signal,
  );
  const failedLines: ImportLine[] = [];
  if (final.failedCount > 0n) {
    let cursor: string | undefined;
    do {
      const page = await client.listImportLines(
        { importUuid: uuid, size: 100, cursor, orderBy: [{ field: "line", direction: SortDirection.ASC }] },
        { signal: options.signal },
      );
      failedLines.push(...page.items);
      cursor = page.items.length > 0 ? page.pagination?.nextCursor : undefined;
    } while (cursor);
  }
  return { import: final, failedLines };
}

/**
 * Exports the catalog (or part of it) and downloads the file. Rejects when the export failed or
 * was cancelled, or when the bytes downloaded are not those the export wrote.
 */
export async function exportTo(transport: Transport, options: ExportOptions = {}): Promise<ExportResult> {
  const client = createClient(ExportService, transport);
  const created = await client.createExport(
    {
      export: {
        format: formatOf(options.format, undefined) === "csv" ? ExportFormat.CSV : ExportFormat.NDJSON,
        types: options.types ?? [],
        productFilter: options.productFilter,
        gzip: options.gzip ?? false,
      },
    },
    { signal: options.signal },
  );
  const uuid = created.export!.uuid;
  const final = await waitFor(
    async () => (await client.getExport({ exportUuid: uuid }, { signal: options.signal })).export!,
    (j) => j.status === ExportStatus.COMPLETED || j.status === ExportStatus.FAILED || j.status === ExportStatus.CANCELLED,
    (j) => options.onProgress?.({ phase: ExportStatus[j.status].toLowerCase(), job: j }),
    options.pollMs,
    options.signal,
  );
  if (final.status !== ExportStatus.COMPLETED) {
    throw new Error(`export ${uuid} ${ExportStatus[final.status].toLowerCase()}${final.failureReason ? ": " + final.failureReason : ""}`);
  }
  if (!final.downloadUrl || !final.checksumSha256) throw new Error(`export ${uuid}: no download URL or checksum`);
  const total = Number(final.sizeBytes);
  options.onProgress?.({ phase: "downloading", job: final, bytesDone: 0, bytesTotal: total });
  const got = await fetch(final.downloadUrl, { signal: options.signal });
  if (!got.ok) throw new Error(`download of export ${uuid}: HTTP ${got.status}`);
  const data = new Uint8Array(await got.arrayBuffer());
  if (data.byteLength !== total) throw new Error(`export ${uuid}: ${data.byteLength} bytes downloaded, the export wrote ${total}`);
  const sum = await sha256Hex(data);
  if (sum !== final.checksumSha256.toLowerCase()) {
    throw new Error(`export ${uuid}: the bytes downloaded have SHA-256 ${sum}, the export's is ${final.checksumSha256}`);
  }
  options.onProgress?.({ phase: "downloading", job: final, bytesDone: total, bytesTotal: total });
  if (options.path !== undefined) {
    const fs = await import("node:fs/promises");
    await fs.writeFile(options.path, data);
  }
  return { export: final, data };
}
