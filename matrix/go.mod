module github.com/peguri/rfc3986/matrix

go 1.24.0

require (
	github.com/google/go-cmp v0.7.0
	github.com/peguri/rfc3986 v0.0.0-00010101000000-000000000000
)

require github.com/fredbi/uri v1.1.1

replace github.com/peguri/rfc3986 => ../
