// Package repotest holds the repository's own checks, as tests: what is
// tracked (no binaries, no executables, no large files: TestHygiene), the
// import rules of docs/ARCHITECTURE.md (TestArchitecture), that a module
// using the library gets no dependency of ours (TestConsumerModule), and
// the Markdown documentation: links and anchors that resolve
// (TestDocLinks), shell blocks marked runnable (TestRunMarkers, and
// TestRunDocs, which runs them when RFC3986_RUN_DOCS=1, as .ci/run's docs
// step does).
//
// It is a package of its own, with no code but its tests, so that these
// checks run alone (go test ./internal/repotest), in seconds, apart from
// the library's tests, and so that nothing can import it.
package repotest
