#!/usr/bin/env python3
"""Extracts the Swift samples of README.md, docs/*.md and the DocC articles
(Sources/*/*.docc/*.md) into Tests/DocSamples/Extracted, a file per document, so that the DocSamples target compiles every one of them (`make doc-samples` writes
them; `make check` fails when they are stale).

A sample is a ```swift block. Its `import` lines go to the top of the file; a sample that
declares types is kept at the top level, any other becomes the body of a function of its own.
A block right after `<!-- not compiled: why -->` is left out: a fragment of Package.swift, or an
excerpt of generated code, which the reference tests compare instead."""
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]
DOCUMENTS = (
    ["README.md"]
    + sorted(f"docs/{p.name}" for p in (ROOT / "docs").glob("*.md"))
    + sorted(str(p.relative_to(ROOT)) for p in (ROOT / "Sources").glob("*/*.docc/*.md"))
)
BLOCK = re.compile(r"(<!-- not compiled: [^>]*-->\n)?```swift\n(.*?)```", re.S)
DECLARATION = re.compile(r"^(public |private |fileprivate |internal |final |nonisolated )*(struct|class|enum|actor|extension|protocol|func) ", re.M)


def extract(document: str) -> str | None:
    text = (ROOT / document).read_text()
    imports, bodies = set(), []
    for match in BLOCK.finditer(text):
        if match.group(1):
            continue
        line = text[: match.start(2)].count("\n") + 1
        code = [l for l in match.group(2).splitlines() if not l.startswith("import ")]
        imports |= {l for l in match.group(2).splitlines() if l.startswith("import ")}
        body = "\n".join(code).strip("\n")
        if DECLARATION.search(body):
            bodies.append(f"// {document}:{line}\n{body}\n")
        else:
            indented = "\n".join(("    " + l) if l else l for l in body.splitlines())
            bodies.append(f"// {document}:{line}\nstatic func sample{line}() async throws {{\n{indented}\n}}\n")
    if not bodies:
        return None
    name = file_name(document)
    header = f"// Extracted from {document} by `make doc-samples`. Do not edit.\n\n"
    header += "".join(f"{i}\n" for i in sorted(imports | {"import APIRuntime", "import ExampleClient", "import Foundation"}))
    type_name = "".join(part[:1].upper() + part[1:] for part in re.split(r"[-_]", name))
    source = header + f"\nenum {type_name}Samples {{\n" + "\n".join(
        "    " + b.replace("\n", "\n    ") for b in bodies
    ).rstrip() + "\n}\n"
    return "\n".join(l.rstrip() for l in source.split("\n"))


def file_name(document: str) -> str:
    """`calling` for docs/calling.md, `APIRuntime-CallPath` for an article of APIRuntime.docc."""
    path = pathlib.Path(document)
    if path.parent.suffix == ".docc":
        return f"{path.parent.stem}-{path.stem}"
    return path.stem


def main() -> None:
    out = pathlib.Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "Tests/DocSamples/Extracted"
    out.mkdir(parents=True, exist_ok=True)
    wanted = {}
    for document in DOCUMENTS:
        source = extract(document)
        if source:
            wanted[file_name(document) + ".swift"] = source
    for stale in out.glob("*.swift"):
        if stale.name not in wanted:
            stale.unlink()
    for name, source in wanted.items():
        path = out / name
        if not path.exists() or path.read_text() != source:
            path.write_text(source)


main()
