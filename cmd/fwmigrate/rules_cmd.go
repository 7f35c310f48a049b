package main

import (
	"encoding/json"
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/fwmigrate/fwmigrate/compat"
	"github.com/fwmigrate/fwmigrate/rules"
	"github.com/fwmigrate/fwmigrate/rules/ruledocs"
)

func init() { commands = append(commands, newRulesCmd, newExplainCmd) }

func newRulesCmd() *cobra.Command {
	var format string
	cmd := &cobra.Command{
		Use:   "rules",
		Short: "List every rule with its code, name, category and default severity",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			all := rules.All()
			switch format {
			case "json":
				type jr struct {
					Code     string `json:"code"`
					Name     string `json:"name"`
					Category string `json:"category"`
					Severity string `json:"severity"`
					Summary  string `json:"summary"`
					Fixable  bool   `json:"fixable"`
				}
				out := []jr{}
				for _, r := range all {
					out = append(out, jr{r.Code, r.Name, string(r.Category), r.Severity.String(), r.Doc.Summary, r.Doc.HasFix()})
				}
				enc := json.NewEncoder(cmd.OutOrStdout())
				enc.SetIndent("", "  ")
				return enc.Encode(out)
			case "text":
				tw := tabwriter.NewWriter(cmd.OutOrStdout(), 0, 0, 2, ' ', 0)
				fmt.Fprintln(tw, "CODE\tNAME\tCATEGORY\tSEVERITY\tFIX\tSUMMARY")
				for _, r := range all {
					fix := ""
					if r.Doc.HasFix() {
						fix = "yes"
					}
					fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", r.Code, r.Name, r.Category, r.Severity, fix, r.Doc.Summary)
				}
				if err := tw.Flush(); err != nil {
					return err
				}
				fmt.Fprintf(cmd.OutOrStdout(), "\n%d rules. 'fwmigrate explain CODE' prints a rule's documentation.\n", len(all))
				return nil
			}
			return usageError{fmt.Errorf("--format must be text or json, not %q", format)}
		},
	}
	cmd.Flags().StringVar(&format, "format", "text", "output format: text or json")
	return cmd
}

func newExplainCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "explain CODE|NAME",
		Short: "Print a rule's documentation: what it finds, why, an example, and its fix",
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) != 1 {
				return usageError{fmt.Errorf("explain takes one rule code or name, e.g. 'fwmigrate explain FW201'")}
			}
			return nil
		},
		ValidArgsFunction: func(cmd *cobra.Command, args []string, toComplete string) ([]string, cobra.ShellCompDirective) {
			var out []string
			for _, r := range rules.All() {
				out = append(out, r.Code+"\t"+r.Name)
			}
			return out, cobra.ShellCompDirectiveNoFileComp
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			r := rules.Find(args[0])
			if r == nil {
				msg := fmt.Sprintf("no rule %q", args[0])
				if s := suggestRule(args[0]); s != "" {
					msg += fmt.Sprintf(" (did you mean %s?)", s)
				}
				return usageError{fmt.Errorf("%s; 'fwmigrate rules' lists them", msg)}
			}
			_, err := io.WriteString(cmd.OutOrStdout(), ruledocs.Explain(r))
			return err
		},
	}
}

// suggestRule finds the rule code or name closest to s.
func suggestRule(s string) string {
	var names []string
	for _, r := range rules.All() {
		names = append(names, r.Code, r.Name)
	}
	return compat.SuggestWord(s, names)
}
