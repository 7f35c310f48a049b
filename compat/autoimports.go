package compat

import "sort"

// Auto-imports per generated TypeScript context, as typescript-contexts.md
// §4 gives them: which sources of auto-imported names each context sees,
// for a framework major and compatibility version. The names of the two
// presets (the engine's HTTP library's and the engine's own helpers) are
// data too: code that loses them must import them.
//
// What the spec does not say is not guessed: AutoImportSources answers
// known=false for it (the shared context on major 5), and EngineModule is
// "" (the spec names no module the engine's helpers are exported from, so
// no fix can import them).

// TSContext is one of the generated TypeScript contexts.
type TSContext uint8

const (
	// CtxApp is the app context (.fw/tsconfig.app.json, and on major 3
	// the one .fw/tsconfig.json, which covers the whole root).
	CtxApp TSContext = iota
	// CtxServer is the engine's context (.fw/tsconfig.server.json): the
	// server directory.
	CtxServer
	// CtxShared is the shared context (.fw/tsconfig.shared.json, major 4
	// and later): the shared directory.
	CtxShared
	// CtxNode is the node context (.fw/tsconfig.node.json): the config and
	// local modules.
	CtxNode
)

var ctxNames = [...]string{"app", "server", "shared", "node"}

func (c TSContext) String() string {
	if int(c) < len(ctxNames) {
		return ctxNames[c]
	}
	return "unknown"
}

// AutoImportSource is where a set of auto-imported names comes from.
type AutoImportSource uint8

const (
	// SourceH3 is the engine's preset of its HTTP library: every export of
	// h3 that does not start with a capital letter, but `use`
	// (H3AutoImports), imported from H3Module.
	SourceH3 AutoImportSource = iota
	// SourceEngine is the engine's preset of its own helpers
	// (EngineAutoImports).
	SourceEngine
	// SourceServerUtils are the exports of every layer's
	// <serverDir>/utils/**/* (recursive).
	SourceServerUtils
	// SourceSharedUtils are the exports of every layer's
	// <rootDir>/<dir.shared>/utils (top-level files and */index.*).
	SourceSharedUtils
	// SourceSharedTypes are the exports of <rootDir>/<dir.shared>/types
	// (the same scan).
	SourceSharedTypes
	// SourceSharedGlobals are the five globals the shared context's
	// declarations write by hand (SharedGlobals).
	SourceSharedGlobals
)

var sourceNames = [...]string{"h3", "engine", "server/utils", "shared/utils", "shared/types", "shared globals"}

func (s AutoImportSource) String() string {
	if int(s) < len(sourceNames) {
		return sourceNames[s]
	}
	return "unknown"
}

// H3Module is the module the engine's preset imports its HTTP library's
// helpers from (typescript-contexts.md keeps h3's name; nitro v2
// src/core/config/resolvers/imports.ts: `from: "h3"`).
const H3Module = "h3"

// EngineModule is the module the engine's own helpers (useStorage,
// defineCachedEventHandler, ...) would be imported from: the spec does not
// name it, so it is empty, and code that loses them gets no fix.
const EngineModule = ""

// h3AutoImports are the names the engine's preset takes from h3: the
// exports of h3 1.15.11 (the 1.x line engine v2 depends on) whose name
// does not start with a capital letter, but `use` (nitro v2
// src/core/config/resolvers/imports.ts filters resolveModuleExportNames("h3")
// the same way). Read from the published package's dist/index.mjs.
var h3AutoImports = []string{
	"appendCorsHeaders", "appendCorsPreflightHeaders", "appendHeader", "appendHeaders",
	"appendResponseHeader", "appendResponseHeaders", "assertMethod", "callNodeListener",
	"clearResponseHeaders", "clearSession", "createApp", "createAppEventHandler", "createError",
	"createEvent", "createEventStream", "createRouter", "defaultContentType", "defineEventHandler",
	"defineLazyEventHandler", "defineNodeListener", "defineNodeMiddleware", "defineRequestMiddleware",
	"defineResponseMiddleware", "defineWebSocket", "defineWebSocketHandler", "deleteCookie",
	"dynamicEventHandler", "eventHandler", "fetchWithEvent", "fromNodeMiddleware", "fromPlainHandler",
	"fromWebHandler", "getCookie", "getHeader", "getHeaders", "getMethod", "getProxyRequestHeaders",
	"getQuery", "getRequestFingerprint", "getRequestHeader", "getRequestHeaders", "getRequestHost",
	"getRequestIP", "getRequestPath", "getRequestProtocol", "getRequestURL", "getRequestWebStream",
	"getResponseHeader", "getResponseHeaders", "getResponseStatus", "getResponseStatusText",
	"getRouterParam", "getRouterParams", "getSession", "getValidatedQuery", "getValidatedRouterParams",
	"handleCacheHeaders", "handleCors", "isCorsOriginAllowed", "isError", "isEvent", "isEventHandler",
	"isMethod", "isPreflightRequest", "isStream", "isWebResponse", "lazyEventHandler", "parseCookies",
	"promisifyNodeListener", "proxyRequest", "readBody", "readFormData", "readMultipartFormData",
	"readRawBody", "readValidatedBody", "removeResponseHeader", "sanitizeStatusCode",
	"sanitizeStatusMessage", "sealSession", "send", "sendError", "sendIterable", "sendNoContent",
	"sendProxy", "sendRedirect", "sendStream", "sendWebResponse", "serveStatic", "setCookie",
	"setHeader", "setHeaders", "setResponseHeader", "setResponseHeaders", "setResponseStatus",
	"splitCookiesString", "toEventHandler", "toNodeListener", "toPlainHandler", "toWebHandler",
	"toWebRequest", "unsealSession", "updateSession", "useBase", "useSession", "writeEarlyHints",
}

// engineAutoImports are the engine's own helpers (nitro v2
// src/core/config/resolvers/imports.ts getNitroImportsPreset), with the
// engine's name in them written as the spec writes it (real
// nitroAutoImports is engineAutoImports there): defineNitroPlugin is
// defineEnginePlugin.
var engineAutoImports = []string{
	"useEngineApp", "useRuntimeConfig", "useAppConfig", "defineEnginePlugin", "enginePlugin",
	"defineCachedFunction", "defineCachedEventHandler", "cachedFunction", "cachedEventHandler",
	"escapeKey", "useStorage", "defineRenderHandler", "defineRouteMeta", "getRouteRules", "useEvent",
	"defineTask", "runTask", "defineEngineErrorHandler",
}

// sharedGlobals are the globals the shared context's declarations
// (types/shared-imports.d.ts, since 4.3.0) write by hand, which stay under
// compatibility version 5.
var sharedGlobals = []string{"useRuntimeConfig", "useAppConfig", "defineAppConfig", "createError", "setResponseStatus"}

// H3AutoImports returns the names the engine's preset imports from h3,
// sorted. The slice is a copy.
func H3AutoImports() []string { return sortedCopy(h3AutoImports) }

// EngineAutoImports returns the engine's own auto-imported helpers,
// sorted. The slice is a copy.
func EngineAutoImports() []string { return sortedCopy(engineAutoImports) }

// SharedGlobals returns the five globals of the shared context's
// declarations, sorted. The slice is a copy.
func SharedGlobals() []string { return sortedCopy(sharedGlobals) }

func sortedCopy(s []string) []string {
	out := append([]string(nil), s...)
	sort.Strings(out)
	return out
}

// AutoImportSources returns the sources of auto-imported names that code
// in context ctx sees, on framework major with compatibility version
// compat (the one the project runs with) and experimental.engineAutoImports
// (its default: compat < 5; pass the config's value when it sets one).
// known is false where typescript-contexts.md does not say (the shared
// context on major 5; a major other than 3 to 5). The node context sees
// none. The app context's own auto-imports (composables, utils, the
// framework's presets) are not listed: no version takes them away.
//
//   - major 3: the app context (one file for the whole root) and the
//     server context see the engine's imports (h3, engine, server/utils),
//     and shared/utils and shared/types only under compatibility 4 (§4.2).
//   - major 4 with engine auto-imports (compat 4): the server context sees
//     all five; the app context too (it references the engine's
//     declarations); the shared context sees shared/utils, shared/types and
//     the five globals (since 4.3.0; none before).
//   - major 4 without them (compat 5, or engineAutoImports: false): the
//     engine gets `imports: false`: the server context sees nothing, the
//     shared context the five globals only, the app context keeps
//     shared/utils and shared/types (its own scan) but loses the engine's.
//   - major 5 (main): the engine's imports stay, with shared/utils,
//     shared/types and server/utils; engineAutoImports: false clears the
//     presets only (§4.3, read, not run).
func AutoImportSources(major, compat int, engineAutoImports bool, ctx TSContext) (sources []AutoImportSource, known bool) {
	engine := []AutoImportSource{SourceH3, SourceEngine, SourceServerUtils}
	shared := []AutoImportSource{SourceSharedUtils, SourceSharedTypes}
	switch major {
	case 3:
		switch ctx {
		case CtxApp, CtxServer:
			if compat >= 4 {
				return append(engine, shared...), true
			}
			return engine, true
		case CtxShared, CtxNode:
			// No such context on major 3: shared/ is part of the app's.
			return nil, true
		}
	case 4:
		switch ctx {
		case CtxServer:
			if !engineAutoImports {
				return nil, true
			}
			return append(engine, shared...), true
		case CtxApp:
			if !engineAutoImports {
				return shared, true
			}
			return append(engine, shared...), true
		case CtxShared:
			if !engineAutoImports {
				return []AutoImportSource{SourceSharedGlobals}, true
			}
			return append(shared, SourceSharedGlobals), true
		case CtxNode:
			return nil, true
		}
	case 5:
		switch ctx {
		case CtxServer, CtxApp:
			out := []AutoImportSource{SourceServerUtils, SourceSharedUtils, SourceSharedTypes}
			if engineAutoImports {
				out = append([]AutoImportSource{SourceH3, SourceEngine}, out...)
			}
			return out, true
		case CtxNode:
			return nil, true
		}
	}
	return nil, false
}

// LostAutoImports returns the sources that context ctx sees on major
// fromMajor with compatibility fromCompat and no longer sees on toMajor
// with toCompat (each with engineAutoImports at its default, or the value
// the config sets when set is true): the names code there used without
// importing them and must now import. known is false when either side is
// not known.
func LostAutoImports(fromMajor, fromCompat, toMajor, toCompat int, engineAutoImports, set bool, ctx TSContext) (lost []AutoImportSource, known bool) {
	fromEngine, toEngine := fromCompat < 5, toCompat < 5
	if set {
		fromEngine, toEngine = engineAutoImports, engineAutoImports
	}
	from, ok1 := AutoImportSources(fromMajor, fromCompat, fromEngine, ctx)
	to, ok2 := AutoImportSources(toMajor, toCompat, toEngine, ctx)
	if !ok1 || !ok2 {
		return nil, false
	}
	for _, s := range from {
		kept := false
		for _, t := range to {
			kept = kept || s == t
		}
		if !kept {
			lost = append(lost, s)
		}
	}
	return lost, true
}
