#!/usr/bin/env python3
"""Scaffold the service block and request/response messages of a standard resource family.

Every family in catalogd has the same operations (list, create, bulk create, bulk update, get,
update, delete, and optionally lifecycle). Bulk RPCs come after the {uuid} RPCs of the same verb:
the gateway tries the pattern registered last first, so `/bulk` must not be read as a {uuid}. This prints them for one family so that new protos
start out uniform; the resource, create/update bodies and filters are written by hand.

usage: crudproto.py Singular Plural path_base id_param [parent_param ...] [--lifecycle] [--include Include]
  e.g. crudproto.py AttributeContent AttributeContents /v1/attributes/{attribute_uuid}/contents attribute_content_uuid attribute_uuid
"""
import sys

def main(argv):
    lifecycle = "--lifecycle" in argv
    argv = [a for a in argv if a != "--lifecycle"]
    include = None
    if "--include" in argv:
        i = argv.index("--include"); include = argv[i + 1]; del argv[i:i + 2]
    sing, plural, base, idp, *parents = argv
    snake = "".join("_" + c.lower() if c.isupper() else c for c in sing).lstrip("_")
    human = snake.replace("_", " ")
    out = []
    w = out.append
    w(f"service {sing}Service {{")
    def rpc(name, req, resp, scope, verb, path, body=None, rbody=None, doc=""):
        w(f"  // {doc}")
        w(f"  rpc {name}({req}) returns ({resp}) {{")
        w(f'    option (required_scope) = "{scope}";')
        w("    option (google.api.http) = {")
        w(f'      {verb}: "{path}"')
        if body: w(f'      body: "{body}"')
        if rbody: w(f'      response_body: "{rbody}"')
        w("    };")
        w("  }")
    item = f"{base}/{{{idp}}}"
    rpc(f"List{plural}", f"List{plural}Request", f"List{plural}Response", "catalog:read", "get", base, doc=f"List {human}s.")
    rpc(f"Create{sing}", f"Create{sing}Request", f"Create{sing}Response", "catalog:write", "post", base, snake, snake, doc=f"Create a {human}.")
    rpc(f"BulkCreate{plural}", f"BulkCreate{plural}Request", f"BulkCreate{plural}Response", "catalog:write", "post", base + "/bulk", "items", "items", doc=f"Create 1 to 100 {human}s atomically.")
    rpc(f"Get{sing}", f"Get{sing}Request", f"Get{sing}Response", "catalog:read", "get", item, None, snake, doc=f"Get a {human}.")
    rpc(f"Update{sing}", f"Update{sing}Request", f"Update{sing}Response", "catalog:write", "patch", item, snake, snake, doc=f"Update a {human}; only the fields given change.")
    rpc(f"Delete{sing}", f"Delete{sing}Request", f"Delete{sing}Response", "catalog:write", "delete", item, doc=f"Delete a {human} permanently.")
    rpc(f"BulkUpdate{plural}", f"BulkUpdate{plural}Request", f"BulkUpdate{plural}Response", "catalog:write", "patch", base + "/bulk", "items", "items", doc=f"Update 1 to 100 {human}s atomically.")
    if lifecycle:
        rpc(f"Transition{sing}", f"Transition{sing}Request", f"Transition{sing}Response", "catalog:write", "patch", item + "/actions/lifecycle", "*", snake, doc=f"Move a {human} through its lifecycle.")
        rpc(f"BulkTransition{plural}", f"BulkTransition{plural}Request", f"BulkTransition{plural}Response", "catalog:write", "patch", base + "/bulk/actions/lifecycle", "*", "items", doc=f"Move 1 to 100 {human}s through their lifecycle atomically.")
    w("}")
    w("")
    pf = "".join(f"  string {p} = {i + 1};\n" for i, p in enumerate(parents))
    n = len(parents)
    def msg(name, body):
        w(f"message {name} {{"); w(body.rstrip("\n")) if body.strip() else None; w("}"); w("")
    msg(f"List{plural}Response", f"  repeated {sing} items = 1;\n  Pagination pagination = 2;")
    msg(f"Create{sing}Request", pf + f"  {sing}Create {snake} = {n + 1};")
    msg(f"Create{sing}Response", f"  {sing} {snake} = 1;")
    msg(f"BulkCreate{plural}Request", pf + f"  repeated {sing}Create items = {n + 1};")
    msg(f"BulkCreate{plural}Response", f"  repeated {sing} items = 1;")
    msg(f"BulkUpdate{plural}Request", pf + f"  repeated {sing}Update items = {n + 1};")
    msg(f"BulkUpdate{plural}Response", f"  repeated {sing} items = 1;")
    inc = f"  {include} include = {n + 2};\n  {include} expand = {n + 3};\n" if include else ""
    msg(f"Get{sing}Request", pf + f"  string {idp} = {n + 1};\n" + inc)
    msg(f"Get{sing}Response", f"  {sing} {snake} = 1;")
    msg(f"Update{sing}Request", pf + f"  string {idp} = {n + 1};\n  {sing}Update {snake} = {n + 2};")
    msg(f"Update{sing}Response", f"  {sing} {snake} = 1;")
    msg(f"Delete{sing}Request", pf + f"  string {idp} = {n + 1};")
    msg(f"Delete{sing}Response", "")
    if lifecycle:
        msg(f"Transition{sing}Request", pf + f"  string {idp} = {n + 1};\n  {sing}Transition transition = {n + 2};")
        msg(f"Transition{sing}Response", f"  {sing} {snake} = 1;")
        msg(f"BulkTransition{plural}Request", pf + f"  {sing}Transition transition = {n + 1};\n  repeated string uuids = {n + 2};")
        msg(f"BulkTransition{plural}Response", f"  repeated {sing} items = 1;")
    print("\n".join(out))

if __name__ == "__main__":
    main(sys.argv[1:])
