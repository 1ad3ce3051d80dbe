// `Client` and `Components` are generated at build time from openapi.yaml by
// swift-openapi-generator's build plugin; this file gives the target a source of its own.
