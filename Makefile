# The whole set-up is `make` (generate the example workspace, then build) and `make test`.
SWIFT ?= swift
TEMPLATES := $(wildcard templates/*.mustache)
BUILTIN := Sources/APIGenKit/Rendering/BuiltinTemplates.swift
BUILTIN_OUT ?= $(BUILTIN)

.PHONY: all generate build doc-samples docs peers test build-tsan test-tsan soak soak-tsan check rest-only plugin schema builtin-templates imported-fixture protoc protoc-gen-swift clean \
	bench bench-tools bench-generation bench-compile bench-runtime bench-loopback bench-transfers bench-clean-build

all: generate build

## Regenerate Sources/ExampleClient/Generated from apis/. The gRPC messages come from the committed
## record of their protos (Generated/Protos/.protoc-record.json) while no proto changed; after
## changing one, `make protoc` first.
generate:
	$(SWIFT) run apigen

## protoc and protoc-gen-swift, both built from the swift-protobuf dependency into .build/debug,
## where apigen looks first: nothing to install, and messages that match the runtime's version.
## Compiling protoc's C++ takes a few minutes; only a changed proto needs it.
protoc:
	$(SWIFT) build --product protoc
	$(SWIFT) build --product protoc-gen-swift

protoc-gen-swift:
	$(SWIFT) build --product protoc-gen-swift

## The libraries an app imports, built as the example client uses them, and the AsyncHTTPClient
## transport. Not a plain `swift build`: that also builds the plugins' tools, protoc's C++ among
## them, twice (CONTRIBUTING.md), and the compile-check fixtures, which `make test` builds.
build:
	$(SWIFT) build --target ExampleClient
	$(SWIFT) build --target APIAsyncHTTPClient

## The tests are built as their own product: a plain `swift test` also builds the tools of the
## package's plugins for the host (apigen-generate, and protoc's C++ and protoc-gen-swift a second
## time), which no test runs. The build description is made anew, as `make plugin` may have left
## the plugin fixture's in the build folder.
BUILD_TESTS := $(SWIFT) build --disable-build-manifest-caching --product apigenPackageTests

## Servers written by others that tests call (Tests/Peers: grpcio with trustme's certificates),
## installed from PyPI when missing.
peers:
	@python3 -c "import grpc, trustme" 2>/dev/null || python3 -m pip install --quiet -r Tests/Peers/requirements.txt

## The runtime's tests over URLSession (the default transport), the tests on the wire again over
## AsyncHTTPClient, then the generator's. The generator's tests run apart: they keep a core busy
## for a minute and more (long imports, apigen and protoc processes), and in the same process the
## calls on the wire, which time their deadlines, would wait for the cooperative pool's threads
## behind them.
GENERATOR_TESTS := APIGenKitTests|APIManifestTests
test: peers
	$(BUILD_TESTS)
	$(SWIFT) build --product apigen-serve
	$(SWIFT) build --product apigen-verify
	TEST_HTTP_TRANSPORT=urlsession $(SWIFT) test --skip-build --skip "$(GENERATOR_TESTS)"
	TEST_HTTP_TRANSPORT=asynchttpclient $(SWIFT) test --skip-build --filter "APIWireTests|GeneratedClientTests"
	$(SWIFT) test --skip-build --filter "$(GENERATOR_TESTS)"

## The REST-only client package (Tests/Fixtures/RESTOnly) built from clean in a folder of its own;
## fails if anything it compiled is gRPC, protobuf, AsyncHTTPClient or SwiftNIO's networking.
REST_ONLY_SCRATCH := .build-rest-only
rest-only:
	rm -rf $(REST_ONLY_SCRATCH)
	$(SWIFT) build --package-path Tests/Fixtures/RESTOnly --scratch-path $(REST_ONLY_SCRATCH)
	@compiled=$$(cd $(REST_ONLY_SCRATCH)/debug && for module in *.build; do \
	    ls $$module/*.o >/dev/null 2>&1 && echo $${module%.build}; done); \
	echo "compiled for the REST-only client:" $$compiled; \
	unwanted=$$(printf '%s\n' $$compiled | grep -E '^(GRPC|SwiftProtobuf|AsyncHTTPClient|NIOPosix|NIOHTTP|NIOSSL|CNIOBoringSSL|NIOCore$$|GRDB|APIDiskCache)' || true); \
	if [ -n "$$unwanted" ]; then echo "error: the REST-only client compiled" $$unwanted >&2; exit 1; fi

## The plugin fixture (Tests/Fixtures/Plugin), an app's package that depends on this one by path:
## its build plugins generate REST, JSON-RPC and gRPC clients with swift-protobuf's protoc, and it
## calls a loopback server through them. It builds in this package's build folder, whose
## dependencies it shares: in a folder of its own it would compile SwiftNIO, grpc-swift and
## BoringSSL again. SwiftPM keeps one build description per folder and would take the other
## package's as current, so every build here makes it anew. CI runs this on a clean clone, where
## the fixture's build is the one that compiles protoc. First, a target that uses the plugin
## without an apis/ folder must fail to build, naming the file to add: after the fixture's build
## it would compile protoc once more, as SwiftPM's plugin-tools build finds the files the main
## build wrote (CONTRIBUTING.md). Last, the command plugin runs from this package over the example
## workspace and the fixture's committed one, and must leave both as they are.
PLUGIN_PACKAGE := Tests/Fixtures/Plugin
PLUGIN_LOGS := .build/plugin-fixture
PLUGIN_BUILD := $(SWIFT) build --package-path $(PLUGIN_PACKAGE) --scratch-path .build --disable-build-manifest-caching
GENERATE_APIS := $(SWIFT) package --disable-build-manifest-caching --allow-writing-to-package-directory generate-apis
plugin:
	@mkdir -p $(PLUGIN_LOGS) && rm -f $(PLUGIN_LOGS)/port
	@if APIGEN_FIXTURE_BROKEN=1 $(PLUGIN_BUILD) --target NoAPIs > $(PLUGIN_LOGS)/no-apis.log 2>&1; then \
	  echo "error: a target using the plugin without apis/ built" >&2; exit 1; fi
	@grep "error: target 'NoAPIs' uses apigen's plugin but has no .*/Sources/NoAPIs/apis/workspace.yaml: add that file" $(PLUGIN_LOGS)/no-apis.log | head -1 \
	  || { cat $(PLUGIN_LOGS)/no-apis.log >&2; echo "error: the plugin's message for a target without apis/ is missing" >&2; exit 1; }
	$(PLUGIN_BUILD) --product plugin-smoke
	@python3 $(PLUGIN_PACKAGE)/server.py > $(PLUGIN_LOGS)/port & server=$$!; \
	for _ in 1 2 3 4 5 6 7 8 9 10; do [ -s $(PLUGIN_LOGS)/port ] && break; sleep 0.5; done; \
	.build/debug/plugin-smoke http://127.0.0.1:$$(cat $(PLUGIN_LOGS)/port); status=$$?; \
	kill $$server; exit $$status
	$(GENERATE_APIS)
	$(GENERATE_APIS) --workspace $(PLUGIN_PACKAGE)/apis/workspace.yaml
	@changed=$$(git status --porcelain -- Sources/ExampleClient $(PLUGIN_PACKAGE)/Sources/CommittedClient); \
	if [ -n "$$changed" ]; then echo "error: generate-apis changed the committed code:" >&2; echo "$$changed" >&2; exit 1; fi

## The runtime's tests under ThreadSanitizer (the manager, the transports, streams, gRPC), in a
## build folder of its own (.build-tsan), one test at a time: ThreadSanitizer slows each test
## several times over, and the bulk tests (10,000 events, multipart forms) run in parallel with the
## ones that time a deadline would starve them. The test product holds the runtime's test targets
## alone (APIGEN_TESTS=runtime in Package.swift): the generator's tests are single-threaded.
TSAN := --sanitize=thread --scratch-path .build-tsan
TSAN_ENV := APIGEN_TESTS=runtime TSAN_OPTIONS="halt_on_error=1 suppressions=$(CURDIR)/.ci/tsan-suppressions.txt"
build-tsan:
	APIGEN_TESTS=runtime $(SWIFT) build --product apigenPackageTests $(TSAN)

test-tsan: build-tsan peers
	$(TSAN_ENV) $(SWIFT) test --skip-build $(TSAN) --no-parallel

## The soak (Tests/APIWireTests/Soak): 10,000 mixed calls against loopback servers that fault,
## over each HTTP transport; each run prints its figures on a line starting "soak:". Swift
## Testing's backtrace of every thrown error is off: it would be counted as the runtime's memory.
SOAK_ENV := SWT_SWIFT_ERROR_BACKTRACING_ENABLED=0
soak:
	$(BUILD_TESTS)
	$(SOAK_ENV) SOAK_CALLS=10000 TEST_HTTP_TRANSPORT=urlsession $(SWIFT) test --skip-build --filter SoakTests
	$(SOAK_ENV) SOAK_CALLS=10000 TEST_HTTP_TRANSPORT=asynchttpclient $(SWIFT) test --skip-build --filter SoakTests

## A short soak, 1,000 calls, under ThreadSanitizer (in test-tsan's build folder), with
## a 6 s timeout per call, as ThreadSanitizer slows each call several times over; over
## AsyncHTTPClient: over URLSession on Linux, FoundationNetworking crashed once when a finished
## task was cancelled ("Trying to access a behaviour for a task that in not in the registry"); the
## transport no longer does that (BENCHMARKS.md), and `make soak` still runs URLSession.
soak-tsan: build-tsan
	$(SOAK_ENV) SOAK_CALLS=1000 SOAK_TIMEOUT=6 TEST_HTTP_TRANSPORT=asynchttpclient $(TSAN_ENV) $(SWIFT) test --skip-build $(TSAN) --filter SoakTests

## Exit 1 when the committed generated code (gRPC messages by the record of their protos, so no
## protoc is built; the plugin fixture's gRPC workspace, which has no committed output, is
## generated by `make plugin`), built-in templates, schema or extracted doc samples are stale, when a
## committed manifest does not validate against the schema (python3 with jsonschema and PyYAML),
## or when a workspace's exported OpenAPI document (openapi-spec-validator) or OpenRPC document
## (.ci/validate-openrpc.py: python-openrpc's models and jsonschema) is not valid.
check:
	$(SWIFT) run apigen check
	$(SWIFT) run apigen check --workspace Tests/Fixtures/Reference/apis/workspace.yaml
	$(SWIFT) run apigen check --workspace Tests/Fixtures/Init/apis/workspace.yaml
	$(SWIFT) run apigen check --workspace Tests/Fixtures/Hostile/apis/workspace.yaml
	$(SWIFT) run apigen check --workspace Tests/Fixtures/Shadowing/apis/workspace.yaml
	$(SWIFT) run apigen check --workspace Tests/Fixtures/RESTOnly/apis/workspace.yaml
	$(SWIFT) run apigen check --workspace Tests/Fixtures/Plugin/apis/workspace.yaml
	$(SWIFT) run apigen lint -q --workspace Tests/Fixtures/Plugin/Sources/NotesClient/apis/workspace.yaml
	$(SWIFT) run apigen check --workspace Benchmarks/Runtime/apis/workspace.yaml
	$(SWIFT) run apigen check --workspace Tests/Fixtures/Imported/apis/workspace.yaml
	$(SWIFT) run apigen schema | diff -u docs/manifest.schema.json - || { echo "error: docs/manifest.schema.json is stale: run 'make schema'" >&2; exit 1; }
	$(SWIFT) run apigen schema --markdown | diff -u docs/manifest-keys.md - || { echo "error: docs/manifest-keys.md is stale: run 'make schema'" >&2; exit 1; }
	@mkdir -p .build/export
	for workspace in apis Tests/Fixtures/Reference/apis Tests/Fixtures/Shadowing/apis Tests/Fixtures/Imported/apis; do \
	  $(SWIFT) run apigen export openapi -q -w $$workspace/workspace.yaml -o .build/export/openapi.json && \
	  python3 -m openapi_spec_validator .build/export/openapi.json || exit 1; \
	done
	for workspace in apis Tests/Fixtures/Reference/apis Tests/Fixtures/Shadowing/apis; do \
	  $(SWIFT) run apigen export openrpc -q -w $$workspace/workspace.yaml -o .build/export/openrpc.json && \
	  python3 .ci/validate-openrpc.py .build/export/openrpc.json || exit 1; \
	done
	python3 .ci/validate-schema.py
	@rm -rf .build/doc-samples && python3 Tests/DocSamples/extract.py .build/doc-samples
	@diff -r Tests/DocSamples/Extracted .build/doc-samples >/dev/null || { echo "error: Tests/DocSamples/Extracted is stale: run 'make doc-samples'" >&2; exit 1; }
	@$(MAKE) --no-print-directory -B $(BUILTIN) BUILTIN_OUT=$(BUILTIN).check >/dev/null
	@diff -q $(BUILTIN) $(BUILTIN).check >/dev/null && rm $(BUILTIN).check || { rm -f $(BUILTIN).check; echo "error: $(BUILTIN) is stale: run 'make builtin-templates'" >&2; exit 1; }

## Import the published OpenAPI documents of Tests/Fixtures/Imported again, and generate them;
## `make test` fails when the committed import differs from a new one.
IMPORTED := Tests/Fixtures/Imported
imported-fixture:
	for document in petstore read-only-write-only bookshop; do \
	  $(SWIFT) run apigen import openapi -q --force $(IMPORTED)/openapi/$$document.yaml -w $(IMPORTED)/apis/workspace.yaml || exit 1; \
	done
	$(SWIFT) run apigen -q -w $(IMPORTED)/apis/workspace.yaml

## The Swift samples of README.md and docs/, extracted into Tests/DocSamples for the DocSamples
## target, which `make test` compiles against the example client.
doc-samples:
	python3 Tests/DocSamples/extract.py

# The runtime's reference, with swift-docc-plugin: an archive per module in .build/docs
# (`swift package --disable-sandbox preview-documentation --target APIRuntime` serves one). A
# broken link is an error, and so is a public symbol without a documentation comment.
DOC_MODULES := APIRuntime APIWireFormat APIAsyncHTTPClient APIGRPC APIEventStreams APIDiskCache
docs:
	@rm -rf .build/docs && mkdir -p .build/docs
	$(SWIFT) package --allow-writing-to-directory .build/docs generate-documentation \
	  $(foreach module,$(DOC_MODULES),--target $(module)) --output-path .build/docs --warnings-as-errors
	python3 .ci/check-docs.py $(DOC_MODULES)

## The JSON Schema editors use to complete and check manifests.
schema:
	$(SWIFT) run apigen schema > docs/manifest.schema.json
	$(SWIFT) run apigen schema --markdown > docs/manifest-keys.md

## templates/ is the source of the built-in templates compiled into apigen.
builtin-templates: $(BUILTIN)

$(BUILTIN): $(TEMPLATES) Makefile
	@{ \
	  echo '// Generated from templates/*.mustache by `make builtin-templates`. Do not edit.'; \
	  echo; \
	  echo '/// The templates apigen falls back to when a workspace does not override them.'; \
	  echo 'enum BuiltinTemplates {'; \
	  echo '    static let all: [String: String] = ['; \
	  for file in $(sort $(TEMPLATES)); do \
	    name=$$(basename $$file .mustache); \
	    echo "        \"$$name\": #\"\"\""; \
	    cat $$file; \
	    echo; \
	    echo '"""#,'; \
	  done; \
	  echo '    ]'; \
	  echo '}'; \
	} > $(BUILTIN_OUT).tmp && mv $(BUILTIN_OUT).tmp $(BUILTIN_OUT)

## Benchmarks (BENCHMARKS.md). The peer, swift-openapi-generator 1.14.3, is built from source in
## release mode by the Benchmarks package; so are apigen and the runtime benchmark.
BENCH_SIZES ?= 100 1000 10000
APIGEN_RELEASE := .build/release/apigen
PEER_GENERATOR := Benchmarks/.build/release/swift-openapi-generator

bench: bench-generation bench-compile bench-runtime bench-loopback bench-transfers bench-clean-build

bench-tools:
	$(SWIFT) build -c release --product apigen
	$(SWIFT) build -c release --package-path Benchmarks --product swift-openapi-generator

bench-generation: bench-tools
	python3 Benchmarks/Generation/bench.py $(APIGEN_RELEASE) $(PEER_GENERATOR) $(BENCH_SIZES)

bench-compile: bench-tools
	python3 Benchmarks/Compile/bench.py . $(APIGEN_RELEASE) $(PEER_GENERATOR) 1000

bench-runtime:
	$(SWIFT) run -c release --package-path Benchmarks RuntimeBench

bench-loopback:
	$(SWIFT) run -c release --package-path Benchmarks LoopbackBench

## A 1 GiB download and upload through the manager on each HTTP transport against the raw client.
bench-transfers:
	$(SWIFT) run -c release --package-path Benchmarks TransferBench

## Clean debug builds of a REST-only client (its committed code, then apigen; and generated by
## apigen's build plugin) against the same client made with swift-openapi-generator's build plugin
## and its URLSession transport; then the plugin fixture's REST, JSON-RPC and gRPC app, once.
bench-clean-build:
	bash Benchmarks/CleanBuild/bench.sh

clean:
	rm -rf .build Benchmarks/.build
