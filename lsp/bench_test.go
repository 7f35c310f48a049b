package lsp_test

import (
	"flag"
	"os"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/fwmigrate/fwmigrate/internal/appgen"
	"github.com/fwmigrate/fwmigrate/internal/testtree"
	"github.com/fwmigrate/fwmigrate/lsp"
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
	for i := 0; i < b.N; i++ {
		editLatency(b, cfg, text, at, 200)
	}
}

var appFiles = flag.Int("appfiles", 2000, "BenchmarkEditLatencyApp: the generated app's source files")

// editLatency opens path with text, types a character at pos edits
// times, each once the previous one's diagnostics are in, and reports
// the latencies' median, 90th percentile and maximum in ms.
func editLatency(b *testing.B, path, text string, pos lsp.Position, edits int) {
	c := startClient(b, lsp.Options{})
	uri := c.open(path, text)
	c.waitDiags(uri, version(1))
	lat := make([]time.Duration, 0, edits)
	for v := 2; v < edits+2; v++ {
		change := lsp.DidChangeTextDocumentParams{
			TextDocument:   lsp.VersionedTextDocumentIdentifier{URI: uri, Version: v},
			ContentChanges: []lsp.TextDocumentContentChangeEvent{{Range: &lsp.Range{Start: pos, End: pos}, Text: "x"}},
		}
		start := time.Now()
		c.notify("textDocument/didChange", change)
		c.waitDiags(uri, version(v))
		lat = append(lat, time.Since(start))
		pos.Character++
	}
	// What the server holds between edits: the live heap once collected
	// (client and server share the process; the client holds little).
	runtime.GC()
	live := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(live)
	b.ReportMetric(float64(live[0].Value.Uint64())/(1<<20), "live-MB")
	c.shutdown()
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	ms := func(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
	b.ReportMetric(ms(lat[len(lat)/2]), "median-ms")
	b.ReportMetric(ms(lat[len(lat)*9/10]), "p90-ms")
	b.ReportMetric(ms(lat[len(lat)-1]), "max-ms")
}

// BenchmarkEditLatencyApp is BenchmarkEditLatency on a generated app of
// 2,000 source files (internal/appgen; -appfiles sets another size),
// typing into one of its pages: the check of the whole project after each
// edit is what the user waits for.
//
//	go test ./lsp -run '^$' -bench EditLatencyApp -benchtime 1x [-args -appfiles 5000]
func BenchmarkEditLatencyApp(b *testing.B) {
	dir := genApp(b)
	page := filepath.Join(dir, "pages", "section0", "[id]-0.vue")
	src, err := os.ReadFile(page)
	if err != nil {
		b.Fatal(err)
	}
	text := string(src)
	i := strings.Index(text, "</template>")
	if i < 0 {
		b.Fatal("no template in the generated page")
	}
	at := utf16Pos(text, i)
	edits := 200
	if testing.Short() {
		edits = 20
	}
	for n := 0; n < b.N; n++ {
		editLatency(b, page, text, at, edits)
	}
}

// BenchmarkEditLatencyAppConfig is BenchmarkEditLatencyApp typing into a
// comment of the app's config: a config's text is what every file's
// results depend on, so each check reads the whole project again (every
// file parsed: the server keeps no tree), over 20 edits.
//
//	go test ./lsp -run '^$' -bench EditLatencyAppConfig -benchtime 1x [-args -appfiles 5000]
func BenchmarkEditLatencyAppConfig(b *testing.B) {
	dir := genApp(b)
	cfg := filepath.Join(dir, "fw.config.ts")
	src, err := os.ReadFile(cfg)
	if err != nil {
		b.Fatal(err)
	}
	text := string(src)
	at := utf16Pos(text, strings.Index(text, "// x")+len("// x"))
	edits := 20
	if testing.Short() {
		edits = 5
	}
	for n := 0; n < b.N; n++ {
		editLatency(b, cfg, text, at, edits)
	}
}

// genApp writes the generated app of -appfiles files, with its config and
// package.json, and returns its folder.
func genApp(b *testing.B) string {
	dir := b.TempDir()
	files := map[string]string{
		"fw.config.ts": "export default defineFwConfig({\n  // x\n  ssr: true,\n})\n",
		"package.json": `{"dependencies": {"fw": "^3.12.0"}}`,
	}
	for name, src := range appgen.Files(*appFiles) {
		files[name] = string(src)
	}
	testtree.Map(b, dir, files)
	return dir
}
