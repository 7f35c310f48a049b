go test fuzz v1
[]byte("// https://nuxt.com/docs/api/nuxt-config\nexport default defineFwConfig({\n  future: { compatibilityVersion: process.env.TEST_V4 === 'true' ? 4 : 3 },\n  experimental: {\n    externalVue: false,\n  },\n  ui: {\n    runtimeCompiler: true,\n  },\n  builder: process.env.TEST_BUILDER as 'bundlerB' | 'bundlerA' ?? 'bundlerA',\n})\n")
bool(true)
