module github.com/peguri/rfc3986

go 1.24.0

require github.com/google/go-cmp v0.7.0

require (
	github.com/mna/pigeon v1.3.0 // indirect
	golang.org/x/mod v0.21.0 // indirect
	golang.org/x/sync v0.8.0 // indirect
	golang.org/x/tools v0.25.0 // indirect
)

tool github.com/mna/pigeon
