// A target that uses APIGenPlugin but has no apis/ folder: built only when APIGEN_FIXTURE_BROKEN
// is set, by `make plugin`, which expects the build to fail naming the file to add.
