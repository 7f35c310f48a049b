package main

import (
	"fmt"
	"slices"
	"strings"

	"github.com/fwmigrate/fwmigrate/compat"
	"github.com/fwmigrate/fwmigrate/internal/version"
	"github.com/spf13/cobra"
)

// buildVersion is fwmigrate's version, from internal/version (the embedded
// VERSION file), so that go build, go install and go run report the same
// version as the release binaries and the npm packages.
var buildVersion = version.String()

func init() {
	commands = append(commands, newVersionCmd)
}

func newVersionCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print fwmigrate's version and the framework versions it knows",
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) > 0 {
				return usageError{fmt.Errorf("version takes no arguments")}
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			var b strings.Builder
			fmt.Fprintf(&b, "fwmigrate %s\n", buildVersion)
			b.WriteString("framework majors and their compatibility versions (future.compatibilityVersion):\n")
			for _, m := range compat.Majors() {
				var vs []string
				for _, c := range m.Compat {
					v := fmt.Sprint(c)
					switch {
					case c == m.DefaultCompat:
						v += " (default)"
					case slices.Contains(m.Preview, c):
						v += " (preview)"
					}
					vs = append(vs, v)
				}
				fmt.Fprintf(&b, "  %d: %s\n", m.Major, strings.Join(vs, ", "))
			}
			b.WriteString("migration target: compatibility version 4, layout A\n")
			_, err := fmt.Fprint(cmd.OutOrStdout(), b.String())
			return err
		},
	}
}
