package lsp_test

import (
	"testing"

	"github.com/fwmigrate/fwmigrate/internal/testtree"
)

// TestMain: a -short run makes its temporary files on a tmpfs when there
// is one (see testtree.TmpfsWhenShort); testtree.Run keeps go test's
// cache check cheap.
func TestMain(m *testing.M) { testtree.MainShort(m) }
