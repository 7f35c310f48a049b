package compat

import (
	"fmt"
	"slices"
	"testing"
)

func TestLostAutoImports(t *testing.T) {
	for _, tc := range []struct {
		fromMajor, fromCompat, toMajor, toCompat int
		engine, set                              bool
		ctx                                      TSContext
		want                                     string
	}{
		// typescript-contexts.md §4.3: compat 5 on 4.x takes everything
		// from the server context, shared/utils and shared/types from the
		// shared one, the engine's presets from the app's.
		{4, 4, 4, 5, false, false, CtxServer, "[h3 engine server/utils shared/utils shared/types]"},
		{4, 4, 4, 5, false, false, CtxShared, "[shared/utils shared/types]"},
		{4, 4, 4, 5, false, false, CtxApp, "[h3 engine server/utils]"},
		{4, 4, 4, 5, false, false, CtxNode, "[]"},
		// The config keeps them.
		{4, 4, 4, 5, true, true, CtxServer, "[]"},
		// Already off today: nothing changes.
		{4, 4, 4, 5, false, true, CtxServer, "[]"},
		// Version 4 loses nothing the server had on 3.
		{3, 3, 4, 4, false, false, CtxServer, "[]"},
		{3, 4, 4, 4, false, false, CtxServer, "[]"},
		// Major 5 keeps the dirs, only the presets go when turned off.
		{4, 4, 5, 5, false, true, CtxServer, "[]"},
		{4, 4, 5, 5, true, false, CtxServer, "[h3 engine]"},
	} {
		got, ok := LostAutoImports(tc.fromMajor, tc.fromCompat, tc.toMajor, tc.toCompat, tc.engine, tc.set, tc.ctx)
		if !ok {
			t.Errorf("%+v: not known", tc)
			continue
		}
		if s := fmt.Sprint(append([]AutoImportSource{}, got...)); s != tc.want {
			t.Errorf("%d/%d -> %d/%d engine=%v set=%v %s: lost %s, want %s", tc.fromMajor, tc.fromCompat, tc.toMajor, tc.toCompat, tc.engine, tc.set, tc.ctx, s, tc.want)
		}
	}
	// The spec does not say what the shared context sees on major 5.
	if _, ok := LostAutoImports(4, 4, 5, 5, false, false, CtxShared); ok {
		t.Error("the shared context on major 5 is not in the spec, yet it is known")
	}
	if _, ok := AutoImportSources(2, 3, true, CtxApp); ok {
		t.Error("major 2 is known")
	}
}

func TestAutoImportNames(t *testing.T) {
	h3 := H3AutoImports()
	if len(h3) != 105 || !slices.IsSorted(h3) || !slices.Contains(h3, "defineEventHandler") || slices.Contains(h3, "use") {
		t.Errorf("h3 names: %d, sorted %v", len(h3), slices.IsSorted(h3))
	}
	for _, n := range h3 {
		if n[0] >= 'A' && n[0] <= 'Z' {
			t.Errorf("h3 preset takes no capitalised export, has %s", n)
		}
	}
	h3[0] = "changed"
	if H3AutoImports()[0] == "changed" {
		t.Error("H3AutoImports hands out its table")
	}
	if !slices.Contains(EngineAutoImports(), "useStorage") || !slices.Contains(SharedGlobals(), "defineAppConfig") || len(SharedGlobals()) != 5 {
		t.Error("engine or shared names missing")
	}
	if EngineModule != "" {
		t.Error("the spec names no module for the engine's helpers")
	}
}
