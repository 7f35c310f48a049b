package compat

import (
	"sort"
	"strings"
)

// HookKind says where a hook runs; a name may run in several places.
type HookKind uint8

const (
	BuildHook  HookKind = 1 << iota // build time: the hooks option of fw.config, fw.hook
	AppHook                         // the running app: fwApp.hook in plugins
	EngineHook                      // the server engine at run time: server plugins
)

func (k HookKind) String() string {
	var s []string
	for _, x := range []struct {
		k    HookKind
		name string
	}{{BuildHook, "build"}, {AppHook, "app"}, {EngineHook, "engine"}} {
		if k&x.k != 0 {
			s = append(s, x.name)
		}
	}
	return strings.Join(s, "|")
}

// Hook is a known hook name.
type Hook struct {
	Name string
	Kind HookKind
	Doc  string
}

// hooks lists hooks.md in its order (bundlerC repeats bundlerB's hooks),
// plus suspense:resolve from the reference's Events section.
var hooks = []Hook{
	{"kit:compatibility", BuildHook, "Lets modules extend the compatibility checks run against a module's declared requirements."},
	{"ready", BuildHook, "Called after framework initialisation, when the instance is ready to work."},
	{"close", BuildHook | EngineHook, "Called when the framework instance is closing gracefully."},
	{"restart", BuildHook, "Call to restart the current framework instance (`{ hard?: boolean }` tries a whole-process restart)."},
	{"modules:before", BuildHook, "Called during initialisation, before user modules are installed."},
	{"modules:done", BuildHook, "Called during initialisation, after user modules are installed."},
	{"module:before", BuildHook, "Called immediately before each individual module is set up (recent 4.x)."},
	{"module:done", BuildHook, "Called immediately after each module is set up, with its entry path and setup timings (recent 4.x)."},
	{"app:resolve", BuildHook, "Called after the app instance (app component, error component, plugins, layouts, middleware) is resolved."},
	{"app:templates", BuildHook, "Called while the app is generated; lets modules add, change or remove files in the build directory (virtual or written to `.fw`)."},
	{"app:templatesGenerated", BuildHook, "Called after templates are compiled into the virtual file system."},
	{"builder:generateApp", BuildHook, "Called before the app is generated (also used to trigger regeneration)."},
	{"builder:watch", BuildHook, "Called in development when the watcher sees a file or directory change. Arguments: the event (`add`, `addDir`, `change`, `unlink`, `unlinkDir`) and the **absolute** path (relative before v4)."},
	{"build:before", BuildHook, "Called before the bundle builder runs."},
	{"build:done", BuildHook, "Called after the bundle builder completes."},
	{"build:manifest", BuildHook, "Called while the client manifest is built; lets modules change the manifest the server uses to emit `<script>`/`<link>` tags."},
	{"build:analyze:done", BuildHook, "Called when the analyze command has finished."},
	{"build:error", BuildHook, "Called when an error occurs at build time."},
	{"pages:extend", BuildHook, "Called after page routes are scanned from the file system; add, remove or change routes."},
	{"pages:resolved", BuildHook, "Called after page routes have been augmented with scanned page metadata."},
	{"pages:routerOptions", BuildHook, "Called when resolving `router.options` files; add or reorder them (later items override earlier ones)."},
	{"imports:sources", BuildHook, "Lets modules extend the auto-import preset sources."},
	{"imports:extend", BuildHook, "Lets modules extend the list of auto-imports."},
	{"imports:context", BuildHook, "Called when the auto-import engine's context is created."},
	{"imports:dirs", BuildHook, "Lets modules extend the directories scanned for auto-imports."},
	{"components:dirs", BuildHook, "Called within `app:resolve`; extends the directories scanned for auto-registered components."},
	{"components:extend", BuildHook, "Lets modules add or change registered components."},
	{"server:routes", BuildHook, "Called when the framework needs the full set of server route handlers (for typing `$fetch`/`useFetch`); the server builder adds the handlers it discovered (recent 4.x)."},
	{"server:devHandler", BuildHook, "Called when the dev middleware is registered on the engine dev server."},
	{"engine:prepare:types", BuildHook, "Called before the engine writes `.fw/tsconfig.server.json`; add references and declarations."},
	{"engine:config", BuildHook, "Called before the engine is initialised; lets modules change the engine configuration."},
	{"engine:init", BuildHook, "Called after the engine instance is created; register engine hooks or interact with it directly."},
	{"engine:build:before", BuildHook, "Called before the engine instance is built."},
	{"engine:build:public-assets", BuildHook, "Called after public assets are copied, before the server is built; lets modules change public assets."},
	{"prerender:routes", BuildHook, "Lets modules extend the set of routes to prerender (`ctx.routes` is a `Set`)."},
	{"prepare:types", BuildHook, "Called before the CLI writes the generated tsconfig files (`.fw/tsconfig.app.json` etc.) and `.fw/fw.d.ts`; add references and declarations, or change the generated configs."},
	{"listen", BuildHook, "Called when the dev server starts listening."},
	{"schema:extend", BuildHook, "Lets modules extend the default config schema."},
	{"schema:resolved", BuildHook, "Lets modules extend the resolved schema."},
	{"schema:beforeWrite", BuildHook, "Called before the resolved schema is written."},
	{"schema:written", BuildHook, "Called after the schema is written."},
	{"bundlerA:extend", BuildHook, "Lets modules extend the bundlerA build context."},
	{"bundlerA:extendConfig", BuildHook, "Lets modules extend the bundlerA config (deprecated; with compat 5 it acts on one shared config instead of separate client/server configs)."},
	{"bundlerA:configResolved", BuildHook, "Read the resolved bundlerA config (deprecated; same compat-5 note)."},
	{"bundlerA:serverCreated", BuildHook, "Called when the bundlerA dev server is created."},
	{"bundlerA:compiled", BuildHook, "Called after the bundlerA dev server has compiled."},
	{"bundlerB:config", BuildHook, "Called before the bundlerB compilers are configured; change the config objects."},
	{"bundlerC:config", BuildHook, "Called before the bundlerC compilers are configured; change the config objects."},
	{"bundlerB:configResolved", BuildHook, "Read the resolved bundlerB configs."},
	{"bundlerC:configResolved", BuildHook, "Read the resolved bundlerC configs."},
	{"bundlerB:compile", BuildHook, "Called right before compilation (`{ name, compiler }`)."},
	{"bundlerC:compile", BuildHook, "Called right before compilation (`{ name, compiler }`)."},
	{"bundlerB:compiled", BuildHook, "Called after compilation finishes and resources are loaded (`{ name, compiler, stats }`)."},
	{"bundlerC:compiled", BuildHook, "Called after compilation finishes and resources are loaded (`{ name, compiler, stats }`)."},
	{"bundlerB:change", BuildHook, "Called on a progress-bar `change` event (short path of the changed file)."},
	{"bundlerC:change", BuildHook, "Called on a progress-bar `change` event (short path of the changed file)."},
	{"bundlerB:error", BuildHook, "Called on a progress-bar `done` event when there are errors."},
	{"bundlerC:error", BuildHook, "Called on a progress-bar `done` event when there are errors."},
	{"bundlerB:done", BuildHook, "Called on a progress-bar `allDone` event."},
	{"bundlerC:done", BuildHook, "Called on a progress-bar `allDone` event."},
	{"bundlerB:progress", BuildHook, "Called on a progress-bar `progress` event (array of states)."},
	{"bundlerC:progress", BuildHook, "Called on a progress-bar `progress` event (array of states)."},
	{"app:created", AppHook, "Called when the initial ui app instance is created."},
	{"app:error", AppHook, "Called when a fatal error occurs."},
	{"app:error:cleared", AppHook, "Called when a fatal error is cleared (`{ redirect? }`)."},
	{"ui:setup", AppHook, "Called when the setup of the root component runs; must be synchronous."},
	{"ui:error", AppHook, "Called when a ui error propagates to the root component (`err, target, info`)."},
	{"app:rendered", AppHook, "Called when SSR rendering is done (render context)."},
	{"app:redirected", AppHook, "Called before an SSR redirect."},
	{"app:beforeMount", AppHook, "Called before the app is mounted."},
	{"app:mounted", AppHook, "Called when the ui app is initialised and mounted in the browser."},
	{"app:suspense:resolve", AppHook, "Called on the root Suspense `resolve` event."},
	{"app:chunkError", AppHook, "Called when loading a bundler chunk fails (see `experimental.emitRouteChunkError`)."},
	{"app:manifest:update", AppHook, "Called when a newer build of the app is detected (`{ id, timestamp }`)."},
	{"app:data:refresh", AppHook, "Called when `refreshFwData` is called (`keys?`)."},
	{"link:prefetch", AppHook, "Called when an `<FwLink>` is observed and prefetched (`to`)."},
	{"page:start", AppHook, "Called on the Suspense `pending` event inside `<FwPage>`."},
	{"page:finish", AppHook, "Called on the Suspense `resolve` event inside `<FwPage>`."},
	{"page:loading:start", AppHook, "Called when a route navigation begins (before resolution) or when the page key changes."},
	{"page:loading:end", AppHook, "Called after `page:finish`."},
	{"page:transition:finish", AppHook, "Called after the page transition's `onAfterLeave` event."},
	{"page:view-transition:start", AppHook, "Called after `document.startViewTransition` when view transitions are enabled (`transition`)."},
	{"dev:ssr-logs", AppHook | EngineHook, "Called with the server-side logs passed to the client (when `features.devLogs` is on)."},
	{"render:html", EngineHook, "Called before the HTML document is assembled (`html, { event, streaming? }`)."},
	{"render:html:chunk", EngineHook, "Called for each chunk when the HTML is streamed."},
	{"render:html:close", EngineHook, "Called when a streamed HTML response closes."},
	{"render:route", EngineHook, "Called while a route is rendered (render-route context, `{ event }`)."},
	{"render:island", EngineHook, "Called before the island HTML response is built (`islandResponse, { event, islandContext }`)."},
	{"request", EngineHook, "Generic engine hook."},
	{"beforeResponse", EngineHook, "Generic engine hook."},
	{"afterResponse", EngineHook, "Generic engine hook."},
	{"error", EngineHook, "Generic engine hook."},
	{"render:response", EngineHook, "Generic engine hook."},
	{"suspense:resolve", AppHook, "Ends the display of the loading template when spaLoadingTemplateLocation is within (config reference, Events)."},
}

var hookIndex = map[string]*Hook{}

func init() {
	for i := range hooks {
		hookIndex[hooks[i].Name] = &hooks[i]
	}
}

// Hooks returns every known hook name, sorted.
func Hooks() []string {
	out := make([]string, 0, len(hooks))
	for _, h := range hooks {
		out = append(out, h.Name)
	}
	sort.Strings(out)
	return out
}

// FindHook returns the hook called name, or nil. Like KnownHook it accepts
// the product prefixes real configs keep in hook names (vite:extendConfig
// is bundlerA:extendConfig; see the corpus manifest).
func FindHook(name string) *Hook {
	if h := hookIndex[name]; h != nil {
		return h
	}
	if prefix, rest, ok := strings.Cut(name, ":"); ok {
		if n, ok := realWords[prefix]; ok {
			return hookIndex[n+":"+rest]
		}
	}
	return nil
}

// KnownHook reports whether name is a known hook, of any kind. Modules add
// hooks of their own (content:file:beforeParse), so an unknown name is not
// necessarily a mistake.
func KnownHook(name string) bool { return FindHook(name) != nil }

// HookName returns the hook that a nested hooks object names:
// hooks: {build: {done: fn}} is path ["build", "done"], hook "build:done".
// Segments that already hold colons join the same way.
func HookName(path []string) string { return strings.Join(path, ":") }

// SuggestHook returns the known hook a mistyped name most likely means, or "".
func SuggestHook(name string) string {
	if KnownHook(name) {
		return ""
	}
	return closest(name, Hooks())
}
