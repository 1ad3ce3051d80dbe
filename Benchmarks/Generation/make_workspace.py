#!/usr/bin/env python3
"""Writes a benchmark workspace of N REST APIs and the equivalent OpenAPI 3 document.

Each API is a GET with a path parameter and two optional query parameters, answering a model of
four fields; manifests hold 50 APIs each. The OpenAPI document describes the same operations
and schemas for swift-openapi-generator, the peer measured in the same run.

    make_workspace.py N OUT   → OUT/apis/*.yaml, OUT/Generated/, OUT/openapi/{openapi.yaml,openapi-generator-config.yaml}
"""
import os, sys

def main():
    n, out = int(sys.argv[1]), sys.argv[2]
    apis = os.path.join(out, "apis")
    openapi = os.path.join(out, "openapi")
    os.makedirs(apis, exist_ok=True)
    os.makedirs(openapi, exist_ok=True)
    with open(os.path.join(apis, "workspace.yaml"), "w") as f:
        f.write("module: BenchClient\noutput: ../Generated\ndefaults:\n  baseURL: https://api.example.com/v1\n  timeout: 30\n")
    per_file = 50
    for start in range(0, n, per_file):
        lines = ["types:"]
        for i in range(start, min(start + per_file, n)):
            lines += [
                f"  Item{i}:",
                "    fields:",
                "      id: Int",
                "      name: String",
                "      price: Double",
                "      tags: \"[String]?\"",
            ]
        lines.append("apis:")
        for i in range(start, min(start + per_file, n)):
            lines += [
                f"  GetItem{i}:",
                "    method: GET",
                f"    path: /items{i}/{{id}}",
                "    parameters:",
                "      id: Int",
                "      limit: Int?",
                "      filter: String?",
                f"    response: Item{i}",
            ]
        with open(os.path.join(apis, f"items{start // per_file:04d}.yaml"), "w") as f:
            f.write("\n".join(lines) + "\n")

    doc = ["openapi: 3.1.0", "info:", "  title: Bench", "  version: 1.0.0",
           "servers:", "  - url: https://api.example.com/v1", "paths:"]
    for i in range(n):
        doc += [
            f"  /items{i}/{{id}}:",
            "    get:",
            f"      operationId: getItem{i}",
            "      parameters:",
            "        - { name: id, in: path, required: true, schema: { type: integer } }",
            "        - { name: limit, in: query, required: false, schema: { type: integer } }",
            "        - { name: filter, in: query, required: false, schema: { type: string } }",
            "      responses:",
            "        '200':",
            "          description: OK",
            "          content:",
            "            application/json:",
            f"              schema: {{ $ref: '#/components/schemas/Item{i}' }}",
        ]
    doc += ["components:", "  schemas:"]
    for i in range(n):
        doc += [
            f"    Item{i}:",
            "      type: object",
            "      required: [id, name, price]",
            "      properties:",
            "        id: { type: integer }",
            "        name: { type: string }",
            "        price: { type: number, format: double }",
            "        tags: { type: array, items: { type: string } }",
        ]
    with open(os.path.join(openapi, "openapi.yaml"), "w") as f:
        f.write("\n".join(doc) + "\n")
    with open(os.path.join(openapi, "openapi-generator-config.yaml"), "w") as f:
        f.write("generate:\n  - types\n  - client\naccessModifier: public\n")

if __name__ == "__main__":
    main()
