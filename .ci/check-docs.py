#!/usr/bin/env python3
"""Fails when a public symbol declared in one of the given modules has no documentation comment.

Reads the symbol graphs `swift package generate-documentation` extracted (under
.build/<triple>/extracted-symbols/). Members the compiler synthesizes (`hashValue`, `!=`) and
those that inherit their protocol requirement's comment count as documented; extension blocks
are not symbols of their own."""
import glob
import json
import sys

missing = []
for module in sys.argv[1:]:
    graphs = glob.glob(f".build/*/extracted-symbols/*/{module}/{module}*.symbols.json")
    if not graphs:
        sys.exit(f"error: no symbol graphs for {module}: run `make docs` first")
    for graph in graphs:
        for symbol in json.load(open(graph))["symbols"]:
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

for line in sorted(set(missing)):
    print(line, file=sys.stderr)
if missing:
    sys.exit(1)
print(f"every public symbol of {', '.join(sys.argv[1:])} is documented")
