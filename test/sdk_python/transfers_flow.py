"""catalogd.transfers against a live catalogd (run by transfers_test.go with the installed SDK):
CATALOGD_GRPC_TARGET, CATALOGD_TOKEN (a fresh tenant). An import with a failed line, a dry run,
then an export downloaded to a file and imported again (every line unchanged). Exits non-zero on the
first mismatch; prints "ok <step>" per step."""

import json
import os
import sys
import tempfile

import catalogd
from catalog.v1 import imports_pb2
from catalogd.transfers import export_to, import_file

LINES = [
    {"type": "locale", "code": "en-US"},
    {"type": "category", "code": "py-shoes"},
    {"type": "category", "code": "py-boots", "parent": "py-shoes"},
    {"type": "product", "code": "PY-BOOT-1", "kind": "simple", "categories": ["py-boots"]},
    {"type": "product", "code": "PY-BOOT-2", "kind": "simple", "categories": ["py-nowhere"]},
]
FILE = "".join(json.dumps(l) + "\n" for l in LINES).encode()


def check(cond, what):
    if not cond:
        print("FAIL " + what, file=sys.stderr)
        sys.exit(1)


def main():
    client = catalogd.connect(os.environ["CATALOGD_GRPC_TARGET"], os.environ["CATALOGD_TOKEN"])
    completed = imports_pb2.IMPORT_STATUS_COMPLETED

    dry = import_file(client, FILE, dry_run=True, file_name="catalog.ndjson")
    check(dry.import_.status == completed and dry.import_.dry_run, f"dry run: {dry.import_}")
    check(dry.import_.lines_read == 5 and dry.import_.failed_count == 1, f"dry run counts: {dry.import_}")
    check([(l.line, l.code, l.errors[0].code) for l in dry.failed_lines] == [(5, "PY-BOOT-2", "UNRESOLVED_REFERENCE")],
          f"dry run's failed lines: {dry.failed_lines}")
    print("ok dry-run: 5 lines, 1 failed, nothing written")

    tmp = tempfile.mkdtemp()
    path = os.path.join(tmp, "catalog.ndjson")
    with open(path, "wb") as f:
        f.write(FILE)
    seen = []
    res = import_file(client, path, on_progress=seen.append)
    imp = res.import_
    check(imp.status == completed and imp.file_name == "catalog.ndjson", f"import: {imp}")
    check(imp.failed_count == 1 and imp.created_count + imp.updated_count + imp.unchanged_count == 4, f"import counts: {imp}")
    check(len(res.failed_lines) == 1 and res.failed_lines[0].line == 5 and res.failed_lines[0].type == "product"
          and res.failed_lines[0].errors[0].code == "UNRESOLVED_REFERENCE", f"failed lines: {res.failed_lines}")
    check(seen[0].phase == "uploading" and seen[-1].phase == "completed" and seen[-1].bytes_done == len(FILE),
          f"progress: {[(p.phase, p.bytes_done) for p in seen]}")
    print("ok import: 4 lines applied, line 5 UNRESOLVED_REFERENCE, progress from uploading to completed")

    out = os.path.join(tmp, "export.ndjson")
    phases = []
    exp = export_to(client, out, on_progress=lambda p: phases.append(p.phase))
    with open(out, "rb") as f:
        check(f.read() == exp.data, "the file written is not the data returned")
    check(exp.export.size_bytes == len(exp.data) and phases[-1] == "downloading", f"export: {exp.export} {phases}")
    text = exp.data.decode()
    for code in ('"PY-BOOT-1"', '"py-boots"', '"py-shoes"'):
        check(code in text, f"the export lacks {code}:\n{text}")
    check("PY-BOOT-2" not in text, "the failed line's product was exported")
    print("ok export: downloaded, size and checksum checked")

    again = import_file(client, exp.data, file_name="export.ndjson").import_
    check(again.status == completed and again.failed_count == 0 and again.created_count + again.updated_count == 0
          and again.unchanged_count == again.lines_read, f"re-import of the export: {again}")
    print("ok reimport: every line unchanged")

    csv = export_to(client, format="csv", types=["product"]).data.decode()
    header = csv.split("\n")[0].lstrip("\ufeff").split(",")
    check("code" in header and "PY-BOOT-1" in csv, f"CSV export:\n{csv}")
    print("ok csv-export")
    client.close()
    print("transfers: 5 steps passed")


if __name__ == "__main__":
    main()
