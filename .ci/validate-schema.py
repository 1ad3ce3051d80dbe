"""Validates manifests against docs/manifest.schema.json: the examples must pass, broken ones fail."""
import glob, json, sys
import jsonschema, yaml

schema = json.load(open("docs/manifest.schema.json"))
jsonschema.Draft7Validator.check_schema(schema)
validator = jsonschema.Draft7Validator(schema)
failures = 0
for path in sorted(glob.glob("apis/*.yaml") + glob.glob("Tests/Fixtures/*/apis/*.yaml")
                     + glob.glob("Tests/Fixtures/*/Sources/*/apis/**/*.yaml", recursive=True)):
    for error in validator.iter_errors(yaml.safe_load(open(path))):
        print(f"{path}: schema: {error.message}", file=sys.stderr)
        failures += 1
broken = yaml.safe_load("apis:\n  A:\n    method: GTE\n    path: /a\n    respons: x\n")
if not list(validator.iter_errors(broken)):
    print("schema accepts a broken manifest", file=sys.stderr)
    failures += 1
sys.exit(1 if failures else 0)
