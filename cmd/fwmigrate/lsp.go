package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/spf13/cobra"

	"github.com/fwmigrate/fwmigrate/internal/text"
	"github.com/fwmigrate/fwmigrate/lsp"
)

func init() { commands = append(commands, newLSPCmd) }

func newLSPCmd() *cobra.Command {
	var (
		stdio    bool
		debounce time.Duration
	)
	cmd := &cobra.Command{
		Use:   "lsp",
		Short: "Run the language server for editors (LSP over standard input and output)",
		Long: `lsp runs fwmigrate's language server: an editor starts it and talks the
Language Server Protocol over its standard input and output. It checks
fw.config.* files, .env files and app code (.vue, .ts, .js, ...) as you type,
with each project's settings file, and offers every fix as a code action,
a fwmigrate-ignore comment for each finding, hovers on option keys and rule
codes, and completion of option keys and values. It never writes a file:
edits go back to the editor. The README shows the setup of VS Code, Neovim,
Zed and Helix.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if !stdio {
				return usageError{errors.New("--stdio=false: standard input and output are the only transport")}
			}
			if debounce < 0 {
				return usageError{fmt.Errorf("--debounce=%s: want a delay of 0 or more", debounce)}
			}
			ctx := cmd.Context()
			if ctx == nil {
				ctx = context.Background()
			}
			errOut := cmd.ErrOrStderr()
			err := lsp.Serve(ctx, stdioConn{cmd.InOrStdin(), cmd.OutOrStdout()}, lsp.Options{
				Debounce: debounce,
				Version:  buildVersion,
				// A log line may name a file of the tree.
				Logf: func(format string, args ...any) { fmt.Fprintln(errOut, text.Escape(fmt.Sprintf(format, args...))) },
			})
			if errors.Is(err, lsp.ErrNoShutdown) {
				return exitCodeError{exitFindings} // the protocol's exit status 1
			}
			return err
		},
	}
	cmd.Flags().BoolVar(&stdio, "stdio", true, "talk over standard input and output (the only transport; accepted because clients pass it)")
	cmd.Flags().DurationVar(&debounce, "debounce", lsp.DefaultDebounce, "how long to wait after a change before checking")
	return cmd
}

// stdioConn is standard input and output as one stream. Closing it closes
// the input, which ends the server's read of it.
type stdioConn struct {
	io.Reader
	io.Writer
}

func (c stdioConn) Close() error {
	if cl, ok := c.Reader.(io.Closer); ok {
		return cl.Close()
	}
	return nil
}
