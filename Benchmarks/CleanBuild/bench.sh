#!/usr/bin/env bash
# Clean debug builds of a REST-only client, dependencies included (BENCHMARKS.md):
#   ours, committed: Tests/Fixtures/RESTOnly (committed generated code on APIRuntime), then apigen;
#   ours, plugin: Benchmarks/CleanBuild/PluginREST, Tests/Fixtures/Plugin's NotesClient alone in a
#     package: the same four endpoints generated at build time by APIGenPlugin (its tool,
#     apigen-generate, included);
#   peer: Benchmarks/CleanBuild/Peer (swift-openapi-generator's build plugin, URLSession transport).
# Then, once, the whole plugin fixture: REST, JSON-RPC and gRPC clients through both plugins, with
# protoc built from source (plugin-smoke), and twice more with nothing changed.
# Each build starts from an empty scratch folder; the packages' sources are resolved first, untimed.
#     bash Benchmarks/CleanBuild/bench.sh [runs]      (default 3, the sides alternating)
set -euo pipefail
shopt -s inherit_errexit
cd "$(dirname "$0")/../.."
runs=${1:-3}
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

swift package --package-path Tests/Fixtures/RESTOnly --scratch-path "$scratch/ours" resolve >/dev/null
swift package --package-path Benchmarks/CleanBuild/Peer --scratch-path "$scratch/peer" resolve >/dev/null
swift package --scratch-path "$scratch/apigen" resolve >/dev/null
swift package --package-path Benchmarks/CleanBuild/PluginREST --scratch-path "$scratch/plugin-rest" resolve >/dev/null
swift package --package-path Tests/Fixtures/Plugin --scratch-path "$scratch/plugin" resolve >/dev/null

timed() {  # timed NAME BUILD-ARGS...: prints the whole wall seconds of a build from an empty .build
    local folder="$scratch/$1"; shift
    find "$folder" -mindepth 1 -maxdepth 1 ! -name checkouts ! -name repositories ! -name workspace-state.json -exec rm -rf {} +
    local start=$(date +%s%N)
    swift build --scratch-path "$folder" "$@" >/dev/null
    echo $(( ($(date +%s%N) - start) / 1000000000 ))
}

printf '| run | REST-only client, committed code | apigen | both | REST-only client through the plugin | peer (plugin + URLSession) |\n|---:|---:|---:|---:|---:|---:|\n'
for run in $(seq "$runs"); do
    if [ $((run % 2)) = 1 ]; then
        peer=$(timed peer --package-path Benchmarks/CleanBuild/Peer)
        plugin=$(timed plugin-rest --package-path Benchmarks/CleanBuild/PluginREST)
        ours=$(timed ours --package-path Tests/Fixtures/RESTOnly)
        apigen=$(timed apigen --product apigen)
    else
        ours=$(timed ours --package-path Tests/Fixtures/RESTOnly)
        apigen=$(timed apigen --product apigen)
        plugin=$(timed plugin-rest --package-path Benchmarks/CleanBuild/PluginREST)
        peer=$(timed peer --package-path Benchmarks/CleanBuild/Peer)
    fi
    printf '| %d | %d s | %d s | %d s | %d s | %d s |\n' "$run" "$ours" "$apigen" $((ours + apigen)) "$plugin" "$peer"
done
compiled=$(cd "$scratch/plugin-rest/debug" && for module in *.build; do ls "$module"/*.o >/dev/null 2>&1 && echo "${module%.build}"; done; true)
echo "the REST-only client through the plugin compiled OpenAPIKit: $(printf '%s\n' $compiled | grep -q '^OpenAPIKit' && echo yes || echo no); protoc: $(printf '%s\n' $compiled | grep -q '^protoc' && echo yes || echo no)"
echo "REST, JSON-RPC and gRPC through both plugins, protoc built from source (plugin-smoke): $(timed plugin --package-path Tests/Fixtures/Plugin --product plugin-smoke) s"
again() {  # again NAME BUILD-ARGS...: the wall seconds of a build over the last one's folder, nothing changed
    local folder="$scratch/$1"; shift
    local start=$(date +%s%N)
    swift build --scratch-path "$folder" "$@" >/dev/null
    echo $(( ($(date +%s%N) - start) / 1000000000 ))
}
second=$(again plugin --package-path Tests/Fixtures/Plugin --product plugin-smoke)
third=$(again plugin --package-path Tests/Fixtures/Plugin --product plugin-smoke)
echo "the same, built again with nothing changed: ${second} s, then ${third} s"
