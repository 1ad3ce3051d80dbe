"""Validates an OpenRPC document (`apigen export openrpc`).

The OpenRPC meta-schema is not published on PyPI, so the document is checked with what is:
its objects with the OpenRPC models of python-openrpc (PyPI `openrpc`), each schema with
jsonschema's Draft 7 meta-schema (the dialect of OpenRPC 1.3), and the rules the specification
states in prose: unique method names, unique parameter names, required parameters before
optional ones, and `$ref`s that resolve.
"""
import json, sys
import jsonschema, openrpc

document = json.load(open(sys.argv[1]))
problems = []

# python-openrpc's Method requires `result`; OpenRPC 1.3 leaves it out for a notification
# ("If undefined, the method MUST only be used as a notification"). A notification's other
# members are validated with an empty result in its place.
checked = json.loads(json.dumps(document))
for method in checked.get("methods", []):
    method.setdefault("result", {"name": "result", "schema": {}})
try:
    openrpc.OpenRPC.model_validate(checked)
except Exception as error:
    problems.append(f"not an OpenRPC document: {error}")

schemas = document.get("components", {}).get("schemas", {})
def check_schema(where, schema):
    try:
        jsonschema.Draft7Validator.check_schema(schema)
    except jsonschema.SchemaError as error:
        problems.append(f"{where}: not a JSON Schema: {error.message}")
    text = json.dumps(schema)
    for ref in [part.split('"')[0] for part in text.split('"$ref": "')[1:]]:
        if not ref.startswith("#/components/schemas/") or ref.split("/")[-1] not in schemas:
            problems.append(f"{where}: $ref {ref} does not resolve")

for name, schema in schemas.items():
    check_schema(f"components/schemas/{name}", schema)
names = [method["name"] for method in document.get("methods", [])]
for name in {name for name in names if names.count(name) > 1}:
    problems.append(f"method {name} is named twice")
for method in document.get("methods", []):
    params = method.get("params", [])
    param_names = [param["name"] for param in params]
    if len(set(param_names)) != len(param_names):
        problems.append(f"{method['name']}: parameter names are not unique")
    required = [param.get("required", False) for param in params]
    if True in required and False in required[:len(required) - required[::-1].index(True)]:
        problems.append(f"{method['name']}: a required parameter follows an optional one")
    for param in params:
        check_schema(f"{method['name']}/params/{param['name']}", param["schema"])
    if "result" in method:
        check_schema(f"{method['name']}/result", method["result"]["schema"])

for problem in problems:
    print(f"{sys.argv[1]}: {problem}", file=sys.stderr)
if problems:
    sys.exit(1)
print(f"{sys.argv[1]}: OK ({len(names)} methods, {len(schemas)} schemas)")
