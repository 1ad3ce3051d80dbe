#!/usr/bin/env python3
"""Fails when a public symbol declared in one of the given modules has no documentation comment,
or when `BaseAPI` has a public instance property the generator does not keep parameters from.

Reads the symbol graphs `swift package generate-documentation` extracted (under
.build/<triple>/extracted-symbols/). Members the compiler synthesizes (`hashValue`, `!=`) and
those that inherit their protocol requirement's comment count as documented; extension blocks
are not symbols of their own."""
import glob
import json
import re
import sys

# A generated class's stored property for a parameter may not share a name with a public instance
# property of `BaseAPI` (Swift takes it for an override); `SwiftIdentifier.apiMemberNames` lists
# the names that get `Parameter` after them instead.
MEMBER_NAMES_FILE = "Sources/APIGenKit/Swift/SwiftIdentifier.swift"
listed = re.search(r"apiMemberNames: Set<String> = \[([^\]]*)\]", open(MEMBER_NAMES_FILE).read())
member_names = set(re.findall(r'"(\w+)"', listed.group(1))) if listed else set()

missing = []
base_api_properties = {}
for module in sys.argv[1:]:
    graphs = glob.glob(f".build/*/extracted-symbols/*/{module}/{module}*.symbols.json")
    if not graphs:
        sys.exit(f"error: no symbol graphs for {module}: run `make docs` first")
    for graph in graphs:
        for symbol in json.load(open(graph))["symbols"]:
            path = symbol["pathComponents"]
            if symbol["kind"]["identifier"] == "swift.property" and len(path) == 2 and path[0] == "BaseAPI" \
                    and symbol.get("accessLevel") in ("public", "open"):
                base_api_properties[path[1]] = symbol.get("location", {}).get("uri", "").split("/Sources/", 1)[-1]
            if symbol.get("accessLevel") not in ("public", "open") or symbol.get("docComment"):
                continue
            if symbol["kind"]["identifier"] == "swift.extension" or "::SYNTHESIZED::" in symbol["identifier"]["precise"]:
                continue
            location = symbol.get("location")
            if not location:
                continue  # made by the compiler: a property wrapper's projection (`$current`)
            path = location["uri"].split("/Sources/", 1)[-1]
            line = location["position"]["line"] + 1
            missing.append(f"Sources/{path}:{line}: error: public '{'.'.join(symbol['pathComponents'])}' has no documentation comment")

if not listed:
    missing.append(f"{MEMBER_NAMES_FILE}: error: no `apiMemberNames` list found")
for name, path in sorted(base_api_properties.items()):
    if name not in member_names:
        missing.append(f"Sources/{path}: error: 'BaseAPI.{name}' is public, so a parameter named '{name}' "
                       f"would collide with it: add it to apiMemberNames in {MEMBER_NAMES_FILE}")
if "APIRuntime" in sys.argv[1:] and not base_api_properties:
    missing.append("error: no public property of BaseAPI in the symbol graphs: has the class moved?")

for line in sorted(set(missing)):
    print(line, file=sys.stderr)
if missing:
    sys.exit(1)
print(f"every public symbol of {', '.join(sys.argv[1:])} is documented")
