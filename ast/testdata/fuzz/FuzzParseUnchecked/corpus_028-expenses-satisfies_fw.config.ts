go test fuzz v1
[]byte("import type { FwConfig } from 'fw/schema';\nimport {\n  app,\n  components,\n  css,\n  modules,\n  engine,\n  plugins,\n  routeRules,\n  runtimeConfig,\n  ssr,\n  typescript,\n} from './config';\n\nexport default {\n  app,\n  components,\n  css,\n  devtools: { enabled: true },\n  experimental: {\n    typescriptBundlerResolution: true,\n    externalVue: true,\n  },\n  ui: {\n    runtimeCompiler: true,\n  },\n  ssr,\n  modules,\n  engine,\n  plugins,\n  routeRules,\n  runtimeConfig,\n  typescript,\n} satisfies FwConfig;\n")
bool(true)
