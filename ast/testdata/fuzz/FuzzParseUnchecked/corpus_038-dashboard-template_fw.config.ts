go test fuzz v1
[]byte("// https://nuxt.com/docs/api/configuration/nuxt-config\nexport default defineFwConfig({\n  modules: [\n    '@fw/eslint',\n    '@fw/ui',\n    '@vueuse/nuxt'\n  ],\n\n  devtools: {\n    enabled: true\n  },\n\n  css: ['~/assets/css/main.css'],\n\n  routeRules: {\n    '/api/**': {\n      cors: true\n    }\n  },\n\n  compatibilityDate: '2026-06-30',\n\n  eslint: {\n    config: {\n      stylistic: {\n        commaDangle: 'never',\n        braceStyle: '1tbs'\n      }\n    }\n  }\n})\n")
bool(true)
