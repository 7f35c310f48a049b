package main

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/fwmigrate/fwmigrate/compat"
	"github.com/fwmigrate/fwmigrate/rules"
)

// Shell completion of flag values (cobra's `fwmigrate completion bash|zsh|
// fish|powershell` scripts ask through `fwmigrate __complete`), and the
// "did you mean" of unknown flags.

// completeValues completes flag name with a fixed list of values.
func completeValues(cmd *cobra.Command, name string, values ...string) {
	cmd.RegisterFlagCompletionFunc(name, cobra.FixedCompletions(values, cobra.ShellCompDirectiveNoFileComp))
}

// completeSelectors completes --select and --ignore: rule codes with their
// names, categories, and after a comma the next item of the list.
func completeSelectors(cmd *cobra.Command, args []string, toComplete string) ([]string, cobra.ShellCompDirective) {
	prefix := ""
	if i := strings.LastIndexByte(toComplete, ','); i >= 0 {
		prefix = toComplete[:i+1]
	}
	var out []string
	for _, c := range rules.Categories {
		out = append(out, prefix+string(c)+"\tcategory")
	}
	for _, r := range rules.All() {
		out = append(out, prefix+r.Code+"\t"+r.Name)
	}
	return out, cobra.ShellCompDirectiveNoFileComp | cobra.ShellCompDirectiveNoSpace
}

// flagError adds the nearest known flag to pflag's "unknown flag" errors.
func flagError(c *cobra.Command, err error) error {
	msg := err.Error()
	name, ok := strings.CutPrefix(msg, "unknown flag: --")
	if !ok {
		return usageError{err}
	}
	var names []string
	c.Flags().VisitAll(func(f *pflag.Flag) { names = append(names, f.Name) })
	c.InheritedFlags().VisitAll(func(f *pflag.Flag) { names = append(names, f.Name) })
	if s := compat.SuggestWord(name, names); s != "" {
		return usageError{fmt.Errorf("%s (did you mean --%s?)", msg, s)}
	}
	return usageError{err}
}
