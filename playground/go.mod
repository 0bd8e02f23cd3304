module github.com/peguri/rfc3986/playground

go 1.25.0

replace github.com/peguri/rfc3986 => ..

require (
	github.com/chromedp/cdproto v0.160.1
	github.com/chromedp/chromedp v0.23.1
	github.com/google/go-cmp v0.7.0
	github.com/peguri/rfc3986 v0.0.0-00010101000000-000000000000
)

require github.com/go-json-experiment/json v0.0.0-20260213210345-44df1a37e875 // indirect
