package pipeline

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam/log"
)

// QuietLogs keeps Beam's warnings and errors only: the in-process
// runners log the whole plan, each file read and each job state at info,
// a screenful before every run. prism logs with slog's default logger,
// the SDK with its own. beam.Init sets slog's from log.LogLevel, so this
// comes after it, and sets both.
func QuietLogs() {
	log.LogLevel = "warn"
	log.SetLogger(quiet{})
	slog.SetDefault(slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn})))
}

type quiet struct{}

func (quiet) Log(_ context.Context, sev log.Severity, _ int, msg string) {
	if sev >= log.SevWarn {
		fmt.Fprintf(os.Stderr, "beam: %s\n", strings.TrimSuffix(msg, "\n"))
	}
}
