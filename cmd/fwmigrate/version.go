package main

import (
	"fmt"
	"runtime/debug"
	"slices"
	"strings"

	"github.com/fwmigrate/fwmigrate/compat"
	"github.com/spf13/cobra"
)

// buildVersion is fwmigrate's version. Release builds set it with
// -ldflags "-X main.buildVersion=v1.2.3"; otherwise it is the module
// version when built by go install, else "dev".
var buildVersion = "dev"

func init() {
	commands = append(commands, newVersionCmd)
	if buildVersion == "dev" {
		if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
			buildVersion = bi.Main.Version
		}
	}
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
