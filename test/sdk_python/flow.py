"""The Python SDK (sdk/python) against a live catalogd: every step checks the answers itself and the
program exits non-zero on the first mismatch. sdk_python_test.go runs it with /usr/bin/python3 and the
SDK installed in a virtual environment, and reads what it prints: one "ok <step>: …" line per step,
then "flow: <n> steps passed".

Environment: CATALOGD_GRPC_TARGET (host:port of the gRPC server), CATALOGD_TOKEN (a token of a fresh
tenant with every scope), CATALOGD_READONLY_TOKEN (the same tenant, catalog:read only).
"""

from __future__ import annotations

import os
import sys
from typing import Any, Callable, List, NoReturn

import grpc

import catalogd
from catalog.v1 import (
    attribute_contents_pb2,
    attribute_contents_pb2_grpc,
    attributes_pb2,
    attributes_pb2_grpc,
    common_pb2,
    locales_pb2,
    locales_pb2_grpc,
)

TARGET = os.environ["CATALOGD_GRPC_TARGET"]
TOKEN = os.environ["CATALOGD_TOKEN"]
READONLY_TOKEN = os.environ["CATALOGD_READONLY_TOKEN"]

steps = 0


def fail(msg: str) -> NoReturn:
    print(f"FAIL: {msg}", file=sys.stderr)
    sys.exit(1)


def check(cond: bool, msg: str) -> None:
    if not cond:
        fail(msg)


def ok(step: str, detail: str) -> None:
    global steps
    steps += 1
    print(f"ok {step}: {detail}", flush=True)


def expect_error(call: Callable[[], Any], what: str) -> catalogd.CatalogError:
    """Runs a call that must fail and decodes its error."""
    try:
        res = call()
    except grpc.RpcError as e:
        err = catalogd.CatalogError.from_rpc_error(e)
        check(isinstance(err, grpc.RpcError), "CatalogError is not a grpc.RpcError")
        check(err.__cause__ is e, "CatalogError does not keep the grpc error as its cause")
        return err
    fail(f"{what}: no error, answer {res}")


def status_name(status: int) -> str:
    return attributes_pb2.AttributeStatus.Name(status)


client = catalogd.connect(TARGET, TOKEN)
check(isinstance(client.channel, grpc.Channel), "connect did not make a grpc.Channel")
attributes = client.stub(attributes_pb2_grpc.AttributeServiceStub)
check(client.stub(attributes_pb2_grpc.AttributeServiceStub) is attributes, "stub() is not cached per class")
contents = client.stub(attribute_contents_pb2_grpc.AttributeContentServiceStub)
locales = client.stub(locales_pb2_grpc.LocaleServiceStub)

# 1. A locale: the first one of the tenant becomes its default.
locale = locales.CreateLocale(
    locales_pb2.CreateLocaleRequest(locale=locales_pb2.LocaleCreate(code="en-US", display_name="English"))
).locale
check(len(locale.uuid) == 36 and locale.code == "en-US" and locale.is_default, f"created locale {locale}")
ok("create-locale", f"{locale.code} default={locale.is_default}")

# 2. An attribute, then its content in that locale.
color = attributes.CreateAttribute(
    attributes_pb2.CreateAttributeRequest(attribute=attributes_pb2.AttributeCreate(code="py_color", display_name="Color"))
).attribute
check(
    len(color.uuid) == 36
    and color.code == "py_color"
    and color.display_name == "Color"
    and color.status == attributes_pb2.ATTRIBUTE_STATUS_DRAFT
    and color.created_at.seconds > 0
    and not color.HasField("removed_at"),
    f"created attribute {color}",
)
content = contents.CreateAttributeContent(
    attribute_contents_pb2.CreateAttributeContentRequest(
        attribute_uuid=color.uuid,
        attribute_content=attribute_contents_pb2.AttributeContentCreate(
            locale_uuid=locale.uuid, display_name="Colour", description="Main colour of the product"
        ),
    )
).attribute_content
check(
    content.attribute_uuid == color.uuid
    and content.locale_uuid == locale.uuid
    and content.display_name == "Colour"
    and content.HasField("description")
    and content.description == "Main colour of the product",
    f"created content {content}",
)
ok("create-attribute", f"{color.uuid} {color.code} {status_name(color.status)} content {content.display_name!r}")

# 3. Two more in one atomic bulk call.
bulk = attributes.BulkCreateAttributes(
    attributes_pb2.BulkCreateAttributesRequest(
        items=[attributes_pb2.AttributeCreate(code="py_size"), attributes_pb2.AttributeCreate(code="py_material")]
    )
).items
check([a.code for a in bulk] == ["py_size", "py_material"], f"bulk created {[a.code for a in bulk]}")
size = bulk[0]
check(size.display_name == "py_size", f"displayName did not default to the code: {size}")
ok("bulk-create", ", ".join(a.code for a in bulk))

# 4. Lists with filters: a prefix and a status, ordered by code, with the contents expanded.
page = attributes.ListAttributes(
    attributes_pb2.ListAttributesRequest(
        code=common_pb2.StringFilter(starts="PY_"),
        statuses=common_pb2.StringsFilter(eq=["draft"]),
        order_by=[common_pb2.OrderBy(field="code", direction=common_pb2.SORT_DIRECTION_ASC)],
        expand=attributes_pb2.AttributeInclude(contents=True),
        size=2,
    )
)
codes = [a.code for a in page.items]
check(codes == ["py_color", "py_material"], f"first page of code[starts]=PY_ by code: {codes}")
p = page.pagination
check((p.page, p.size, p.total_items, p.total_pages) == (1, 2, 3, 2), f"pagination {p}")
check(
    [c.display_name for c in page.items[0].contents.items] == ["Colour"],
    f"expand[contents] of py_color: {page.items[0].contents}",
)
one = attributes.ListAttributes(attributes_pb2.ListAttributesRequest(codes=common_pb2.StringsFilter(eq=["py_size"]))).items
check([a.uuid for a in one] == [size.uuid], f"codes[eq]=py_size: {[a.code for a in one]}")
ok("list-filtered", f"code[starts]=PY_ statuses[eq]=draft → {', '.join(codes)} of {p.total_items}; codes[eq]=py_size → 1")

# 5. Lifecycle: publish py_color; it leaves the draft list and is the only published one.
published = attributes.TransitionAttribute(
    attributes_pb2.TransitionAttributeRequest(attribute_uuid=color.uuid, transition=attributes_pb2.ATTRIBUTE_TRANSITION_PUBLISH)
).attribute
check(published.status == attributes_pb2.ATTRIBUTE_STATUS_PUBLISHED, f"after publish: {status_name(published.status)}")
check(published.updated_at.ToNanoseconds() >= color.updated_at.ToNanoseconds(), "updatedAt went back")
now_published = attributes.ListAttributes(
    attributes_pb2.ListAttributesRequest(statuses=common_pb2.StringsFilter(eq=["published"]))
).items
check([a.uuid for a in now_published] == [color.uuid], f"statuses[eq]=published: {[a.code for a in now_published]}")
got = attributes.GetAttribute(attributes_pb2.GetAttributeRequest(attribute_uuid=color.uuid)).attribute
check(got.status == attributes_pb2.ATTRIBUTE_STATUS_PUBLISHED, f"get after publish: {status_name(got.status)}")
ok("transition", f"{color.uuid} {status_name(published.status)}")

# 6. Restoring it is an invalid transition (only a removed attribute can be restored); its meta
# keeps JSON types (a list).
err = expect_error(
    lambda: attributes.TransitionAttribute(
        attributes_pb2.TransitionAttributeRequest(attribute_uuid=color.uuid, transition=attributes_pb2.ATTRIBUTE_TRANSITION_RESTORE)
    ),
    "restore a published attribute",
)
check(
    err.code == grpc.StatusCode.FAILED_PRECONDITION and err.reason == "INVALID_TRANSITION" and err.status == 409,
    f"restore a published attribute: {err!r}",
)
check(err.domain == catalogd.ERROR_DOMAIN, f"domain {err.domain!r}")
check(err.meta.get("currentStatus") == "published", f"meta {err.meta}")
allowed = err.meta.get("allowedTransitions")
check(isinstance(allowed, list) and "unpublish" in allowed and "restore" not in allowed, f"meta {err.meta}")
check(err.metadata.get("currentStatus") == "published" and err.metadata.get("allowedTransitions", "").startswith("["),
      f"ErrorInfo metadata {err.metadata}")
ok("invalid-transition", f"{err.reason} currentStatus={err.meta['currentStatus']} allowed={allowed}")

# 7. Validation errors name the fields: a single create, and item 1 of a bulk create.
err = expect_error(
    lambda: attributes.CreateAttribute(attributes_pb2.CreateAttributeRequest(attribute=attributes_pb2.AttributeCreate(code=""))),
    "empty code",
)
check(
    err.code == grpc.StatusCode.INVALID_ARGUMENT and err.reason == "VALIDATION_FAILED" and err.status == 400,
    f"empty code: {err!r}",
)
violation = err.violation("code")
check(violation is not None and violation.description != "", f"no violation of code: {err.field_violations}")
check(err.detail != "" and str(err).startswith("VALIDATION_FAILED: "), f"str {str(err)!r}")
check(err.rpc_status is not None and err.rpc_status.code == grpc.StatusCode.INVALID_ARGUMENT.value[0], "rpc_status")
bulk_err = expect_error(
    lambda: attributes.BulkCreateAttributes(
        attributes_pb2.BulkCreateAttributesRequest(
            items=[attributes_pb2.AttributeCreate(code="py_ok"), attributes_pb2.AttributeCreate(code="x" * 101)]
        )
    ),
    "bulk with a long code",
)
fields: List[str] = [v.field for v in bulk_err.field_violations]
check(bulk_err.reason == "VALIDATION_FAILED" and fields == ["[1].code"], f"bulk: {bulk_err!r}")
check(
    not attributes.ListAttributes(attributes_pb2.ListAttributesRequest(codes=common_pb2.StringsFilter(eq=["py_ok"]))).items,
    "a failed bulk create left an item behind",
)
dup = expect_error(
    lambda: attributes.CreateAttribute(attributes_pb2.CreateAttributeRequest(attribute=attributes_pb2.AttributeCreate(code="py_size"))),
    "duplicate code",
)
check(dup.code == grpc.StatusCode.ALREADY_EXISTS and dup.reason == "ALREADY_EXISTS" and dup.status == 409, f"duplicate: {dup!r}")
ok("validation-error", f"{err.reason}: code: {violation.description}; bulk {fields}; duplicate {dup.reason}")

# 8. Authentication: no token, and a token that is not a JWT, are UNAUTHENTICATED; a read-only
# token may list but not write (FORBIDDEN).
with catalogd.connect(TARGET) as anonymous:
    err = expect_error(
        lambda: anonymous.stub(attributes_pb2_grpc.AttributeServiceStub).ListAttributes(attributes_pb2.ListAttributesRequest()),
        "no token",
    )
check(
    err.code == grpc.StatusCode.UNAUTHENTICATED and err.reason == "UNAUTHENTICATED" and err.status == 401 and err.detail != "",
    f"no token: {err!r}",
)
with catalogd.connect(TARGET, "not-a-jwt") as bad:
    bad_err = expect_error(
        lambda: bad.stub(attributes_pb2_grpc.AttributeServiceStub).ListAttributes(attributes_pb2.ListAttributesRequest()),
        "malformed token",
    )
check(bad_err.code == grpc.StatusCode.UNAUTHENTICATED and bad_err.reason == "UNAUTHENTICATED", f"bad token: {bad_err!r}")
with catalogd.connect(TARGET, READONLY_TOKEN) as reader:
    read_attributes = reader.stub(attributes_pb2_grpc.AttributeServiceStub)
    check(len(read_attributes.ListAttributes(attributes_pb2.ListAttributesRequest()).items) == 3, "read-only list")
    forbidden = expect_error(
        lambda: read_attributes.DeleteAttribute(attributes_pb2.DeleteAttributeRequest(attribute_uuid=size.uuid)),
        "delete with catalog:read",
    )
check(
    forbidden.code == grpc.StatusCode.PERMISSION_DENIED and forbidden.reason == "FORBIDDEN" and forbidden.status == 403,
    f"read-only delete: {forbidden!r}",
)
ok("unauthenticated", f"{err.reason}: {err.detail}; bad token {bad_err.reason}; read-only write {forbidden.reason}")

# 9. A token function is called for every call (so an application can refresh it); the token goes
# as call credentials on a channel with channel credentials (TLS in production; gRPC's local
# credentials here, the one kind it lets carry call credentials without TLS).
calls = 0


def token_source() -> str:
    global calls
    calls += 1
    return TOKEN


with catalogd.connect(TARGET, token_source) as refreshing:
    for _ in range(2):
        refreshing.stub(attributes_pb2_grpc.AttributeServiceStub).ListAttributes(attributes_pb2.ListAttributesRequest())
check(calls == 2, f"the token function ran {calls} times for 2 calls")
local = grpc.local_channel_credentials(grpc.LocalConnectionType.LOCAL_TCP)
with catalogd.connect(TARGET, token_source, tls=local) as credentialed:
    n = len(credentialed.stub(attributes_pb2_grpc.AttributeServiceStub).ListAttributes(attributes_pb2.ListAttributesRequest()).items)
check(n == 3 and calls == 3, f"call credentials: {n} items, token function ran {calls} times")
with catalogd.connect(TARGET, tls=local) as no_token:
    err = expect_error(
        lambda: no_token.stub(attributes_pb2_grpc.AttributeServiceStub).ListAttributes(attributes_pb2.ListAttributesRequest()),
        "channel credentials without a token",
    )
check(err.reason == "UNAUTHENTICATED", f"channel credentials without a token: {err!r}")
ok("token-source", f"function called per call ({calls}); call credentials on a credentialed channel list {n}")

# 10. Delete: the attribute is gone (NOT_FOUND), the others stay.
attributes.DeleteAttribute(attributes_pb2.DeleteAttributeRequest(attribute_uuid=size.uuid))
gone = expect_error(
    lambda: attributes.GetAttribute(attributes_pb2.GetAttributeRequest(attribute_uuid=size.uuid)),
    "get a deleted attribute",
)
check(gone.code == grpc.StatusCode.NOT_FOUND and gone.reason == "NOT_FOUND" and gone.status == 404, f"get deleted: {gone!r}")
left = attributes.ListAttributes(
    attributes_pb2.ListAttributesRequest(order_by=[common_pb2.OrderBy(field="code", direction=common_pb2.SORT_DIRECTION_ASC)])
).items
check([a.code for a in left] == ["py_color", "py_material"], f"after delete: {[a.code for a in left]}")
ok("delete", f"{size.uuid}, then get {gone.reason}")

# 11. A failure that never reached catalogd (nothing listens) has a gRPC code but no reason.
with catalogd.connect("127.0.0.1:1", TOKEN) as nowhere:
    err = expect_error(
        lambda: nowhere.stub(attributes_pb2_grpc.AttributeServiceStub).ListAttributes(
            attributes_pb2.ListAttributesRequest(), timeout=5
        ),
        "call to a closed port",
    )
check(err.code == grpc.StatusCode.UNAVAILABLE and err.reason == "" and err.status == 503 and err.rpc_status is None, f"{err!r}")
ok("transport-error", f"{err.code.name} reason={err.reason!r} status={err.status}")

client.close()
print(f"flow: {steps} steps passed")
