package lsp

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"
)

// BenchmarkEditLatency times what a user waits for: from a didChange of
// examples/shop/fw.config.ts (one character typed into a string) to the
// publishDiagnostics of that version, over 200 edits, in process. The
// debounce is 0, so the figures are the work alone: add --debounce (100 ms
// by default) for what an editor sees. It reports the median and the 90th
// percentile in ms (median-ms, p90-ms):
//
//	go test ./lsp -run '^$' -bench EditLatency -benchtime 1x
func BenchmarkEditLatency(b *testing.B) {
	cfg, err := filepath.Abs("../examples/shop/fw.config.ts")
	if err != nil {
		b.Fatal(err)
	}
	src, err := os.ReadFile(cfg)
	if err != nil {
		b.Fatal(err)
	}
	text := string(src)
	at := utf16Pos(text, strings.Index(text, "'Shop'")+len("'Shop"))
	const edits = 200
	for i := 0; i < b.N; i++ {
		c := startClient(b, Options{})
		uri := c.open(cfg, text)
		c.waitDiags(uri, version(1))
		lat := make([]time.Duration, 0, edits)
		pos := at
		for v := 2; v < edits+2; v++ {
			change := DidChangeTextDocumentParams{
				TextDocument:   VersionedTextDocumentIdentifier{URI: uri, Version: v},
				ContentChanges: []TextDocumentContentChangeEvent{{Range: &Range{Start: pos, End: pos}, Text: "x"}},
			}
			start := time.Now()
			c.notify("textDocument/didChange", change)
			c.waitDiags(uri, version(v))
			lat = append(lat, time.Since(start))
			pos.Character++
		}
		c.shutdown()
		sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
		ms := func(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
		b.ReportMetric(ms(lat[len(lat)/2]), "median-ms")
		b.ReportMetric(ms(lat[len(lat)*9/10]), "p90-ms")
		b.ReportMetric(ms(lat[len(lat)-1]), "max-ms")
	}
}
