package project

import (
	"github.com/fwmigrate/fwmigrate/ast"
	"github.com/fwmigrate/fwmigrate/compat"
)

// Project is one config file and what surrounds it.
type Project struct {
	// Root is the directory holding the config (the rootDir), absolute.
	Root string
	// ConfigPath is the config file, absolute; ConfigDisplay is the same
	// path as shown to the user (relative to the working directory).
	ConfigPath    string
	ConfigDisplay string

	// Src is the config's text (nil when it could not be read). File is
	// the parsed config, nil when reading or parsing failed: Err then says
	// why (an *ast.SyntaxError for syntax errors).
	Src  []byte
	File *ast.File
	Err  error

	// Detection is the project's layout, nil when Detect failed (DetectErr).
	Detection *compat.Detection
	DetectErr error

	// Framework is the framework major, 0 when unknown; FrameworkSource says
	// where it comes from: "package.json", "the projects that extend it" (a
	// layer without a major of its own), or "--framework".
	Framework       int
	FrameworkSource string

	// Env holds the project's .env* files, sorted by name.
	Env []*EnvFile

	// Extends are the layer sources the config declares (theme, then the
	// extends entries) followed by the auto-registered <Root>/layers/*
	// directories, in priority order, each with the local layer it resolves
	// to. See LayerRef.
	Extends []*LayerRef
	// Layers are the local layers the project inherits from, in priority
	// order (highest first): each source's layer followed by the layers that
	// one extends, depth first, each once. The project is not among them.
	// Each layer resolves its own srcDir, dir.* and compatibility version
	// (Layer.Detection); RuntimeConfigKeys merges their runtimeConfig keys.
	Layers []*Layer

	self *Layer // the project's config as a layer
	key  string // its Loader cache key
}

// LoadProject reads, parses and inspects the project whose config is at
// configPath, with its layers. display is how to show configPath to the
// user. It never fails: problems are recorded in the Project for Check to
// report. To load many projects that may share layers, use one Loader.
func LoadProject(configPath, display string) *Project {
	return NewLoader().Load(configPath, display)
}
