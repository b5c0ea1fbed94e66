"""A whole file in and out of a catalog (API.md "Import and export (jobs)").

:func:`import_file` uploads a file (NDJSON of any line type, or CSV of products) the two-step way
(create with its size and SHA-256, PUT to the signed URL, start), waits for the import with a
progress callback and returns it with its failed lines. :func:`export_to` creates an export, waits
for it and downloads the file, checking its size and SHA-256. The calls go through ImportService and
ExportService on the client's gRPC channel; the file itself goes to and from the signed URLs over
HTTP (urllib, no dependency of its own).
"""

from __future__ import annotations

import hashlib
import os
import time
import urllib.request
from typing import Any, Callable, Iterable, List, Mapping, NamedTuple, Optional, Union

from catalog.v1 import exports_pb2, exports_pb2_grpc, imports_pb2, imports_pb2_grpc
from catalog.v1 import common_pb2

from catalogd.client import Client

__all__ = ["ExportResult", "ImportResult", "Progress", "export_to", "import_file"]


class Progress(NamedTuple):
    """A job's progress, given to ``on_progress`` after each look at it."""

    #: "uploading", then the job's status in lower case: "queued", "running", "completed", …;
    #: "downloading" for an export's file.
    phase: str
    #: The job as last read (an imports_pb2.Import or exports_pb2.Export; None while uploading).
    job: Any = None
    bytes_done: Optional[int] = None
    bytes_total: Optional[int] = None


class ImportResult(NamedTuple):
    """The finished import and its failed lines (imports_pb2.ImportLine), in line order."""

    import_: imports_pb2.Import
    failed_lines: List[imports_pb2.ImportLine]


class ExportResult(NamedTuple):
    """The completed export and the file's bytes, checked against its SHA-256."""

    export: exports_pb2.Export
    data: bytes


_IMPORT_DONE = {imports_pb2.IMPORT_STATUS_COMPLETED, imports_pb2.IMPORT_STATUS_FAILED, imports_pb2.IMPORT_STATUS_CANCELLED}
_EXPORT_DONE = {exports_pb2.EXPORT_STATUS_COMPLETED, exports_pb2.EXPORT_STATUS_FAILED, exports_pb2.EXPORT_STATUS_CANCELLED}


def _phase(enum: Any, value: int, prefix: str) -> str:
    return enum.Name(value)[len(prefix):].lower()


def _format(fmt: Optional[str], name: Optional[str]) -> str:
    if fmt in ("ndjson", "csv"):
        return fmt
    if fmt is not None:
        raise ValueError(f'format must be "ndjson" or "csv", not {fmt!r}')
    return "csv" if name and name.lower().endswith(".csv") else "ndjson"


def _wait(get: Callable[[], Any], done: Callable[[Any], bool], report: Callable[[Any], None], poll: float) -> Any:
    """Looks at a job until it is over: often at first, then every poll seconds."""
    delay = min(0.1, poll)
    while True:
        job = get()
        report(job)
        if done(job):
            return job
        time.sleep(delay)
        delay = min(delay * 2, poll)


def _http(method: str, url: str, data: Optional[bytes] = None, headers: Optional[Mapping[str, str]] = None, timeout: float = 600) -> bytes:
    req = urllib.request.Request(url, data=data, method=method, headers=dict(headers or {}))
    with urllib.request.urlopen(req, timeout=timeout) as resp:  # an HTTP error raises urllib.error.HTTPError
        return resp.read()


def import_file(
    client: Client,
    source: Union[str, os.PathLike, bytes],
    *,
    format: Optional[str] = None,
    dry_run: bool = False,
    file_name: Optional[str] = None,
    on_progress: Optional[Callable[[Progress], None]] = None,
    poll: float = 1.0,
) -> ImportResult:
    """Imports a file: ``source`` is a path or the file's bytes. Returns when the import is over
    (completed, failed or cancelled: see ``import_.status`` and ``import_.failed_count``), with its
    failed lines. format: "ndjson" or "csv", by default from the file name's extension (.csv), else
    ndjson. The file is held in memory: for files of gigabytes, use ``catalogd import``."""
    if isinstance(source, (bytes, bytearray)):
        data = bytes(source)
    else:
        path = os.fspath(source)
        with open(path, "rb") as f:
            data = f.read()
        file_name = file_name or os.path.basename(path)
    fmt = _format(format, file_name)
    report = on_progress or (lambda p: None)
    stub = client.stub(imports_pb2_grpc.ImportServiceStub)
    create = imports_pb2.ImportCreate(
        format=imports_pb2.IMPORT_FORMAT_CSV if fmt == "csv" else imports_pb2.IMPORT_FORMAT_NDJSON,
        dry_run=dry_run,
        size_bytes=len(data),
        checksum_sha256=hashlib.sha256(data).hexdigest(),
    )
    if file_name:
        create.file_name = file_name
    # "import" is a Python keyword: the request's field is set by name.
    created = stub.CreateImport(imports_pb2.CreateImportRequest(**{"import": create})).upload
    uuid = getattr(created, "import").uuid
    if not created.upload_url:
        raise RuntimeError(f"import {uuid}: catalogd gave no upload URL")
    report(Progress("uploading", None, 0, len(data)))
    _http(created.upload_method or "PUT", created.upload_url, data, created.upload_headers)
    report(Progress("uploading", None, len(data), len(data)))
    stub.TransitionImport(imports_pb2.TransitionImportRequest(import_uuid=uuid, transition=imports_pb2.IMPORT_TRANSITION_START))

    final = _wait(
        lambda: getattr(stub.GetImport(imports_pb2.GetImportRequest(import_uuid=uuid)), "import"),
        lambda j: j.status in _IMPORT_DONE,
        lambda j: report(Progress(_phase(imports_pb2.ImportStatus, j.status, "IMPORT_STATUS_"), j, j.bytes_read, j.size_bytes)),
        poll,
    )
    failed: List[imports_pb2.ImportLine] = []
    if final.failed_count > 0:
        cursor: Optional[str] = None
        while True:
            req = imports_pb2.ListImportLinesRequest(
                import_uuid=uuid, size=100, order_by=[common_pb2.OrderBy(field="line", direction=common_pb2.SORT_DIRECTION_ASC)]
            )
            if cursor:
                req.cursor = cursor
            page = stub.ListImportLines(req)
            failed.extend(page.items)
            cursor = page.pagination.next_cursor if page.items and page.pagination.HasField("next_cursor") else None
            if not cursor:
                break
    return ImportResult(final, failed)


def export_to(
    client: Client,
    path: Optional[Union[str, os.PathLike]] = None,
    *,
    format: str = "ndjson",
    types: Iterable[str] = (),
    product_filter: Optional[Mapping[str, Any]] = None,
    gzip: bool = False,
    on_progress: Optional[Callable[[Progress], None]] = None,
    poll: float = 1.0,
) -> ExportResult:
    """Exports the catalog (or part of it: ``types``, and the products of ``product_filter``, a
    mapping of ProductFilter's fields, e.g. ``{"statuses": ["active"]}``), downloads the file, checks
    its size and SHA-256 and, with ``path``, writes it there. Raises RuntimeError when the export
    failed or was cancelled, or when the bytes downloaded are not those it wrote."""
    fmt = _format(format, None)
    report = on_progress or (lambda p: None)
    stub = client.stub(exports_pb2_grpc.ExportServiceStub)
    create = exports_pb2.ExportCreate(
        format=exports_pb2.EXPORT_FORMAT_CSV if fmt == "csv" else exports_pb2.EXPORT_FORMAT_NDJSON,
        types=list(types),
        product_filter=exports_pb2.ProductFilter(**dict(product_filter or {})),
        gzip=gzip,
    )
    uuid = stub.CreateExport(exports_pb2.CreateExportRequest(export=create)).export.uuid
    final = _wait(
        lambda: stub.GetExport(exports_pb2.GetExportRequest(export_uuid=uuid)).export,
        lambda j: j.status in _EXPORT_DONE,
        lambda j: report(Progress(_phase(exports_pb2.ExportStatus, j.status, "EXPORT_STATUS_"), j)),
        poll,
    )
    if final.status != exports_pb2.EXPORT_STATUS_COMPLETED:
        reason = f": {final.failure_reason}" if final.failure_reason else ""
        raise RuntimeError(f"export {uuid} {_phase(exports_pb2.ExportStatus, final.status, 'EXPORT_STATUS_')}{reason}")
    if not final.download_url or not final.checksum_sha256:
        raise RuntimeError(f"export {uuid}: no download URL or checksum")
    report(Progress("downloading", final, 0, final.size_bytes))
    data = _http("GET", final.download_url)
    if len(data) != final.size_bytes:
        raise RuntimeError(f"export {uuid}: {len(data)} bytes downloaded, the export wrote {final.size_bytes}")
    digest = hashlib.sha256(data).hexdigest()
    if digest != final.checksum_sha256.lower():
        raise RuntimeError(f"export {uuid}: the bytes downloaded have SHA-256 {digest}, the export's is {final.checksum_sha256}")
    report(Progress("downloading", final, len(data), final.size_bytes))
    if path is not None:
        with open(path, "wb") as f:
            f.write(data)
    return ExportResult(final, data)
