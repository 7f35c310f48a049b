go test fuzz v1
[]byte("export default defineFwConfig({\n  modules: [\n    '@fw/ui',\n    '@fw/eslint',\n    '@nuxthub/core',\n    'fw-auth-utils',\n    '@pinia/nuxt',\n    '@pinia/colada-nuxt'\n  ],\n  devtools: {\n    enabled: true\n  },\n  css: ['~/assets/main.css'],\n  future: { compatibilityVersion: 4 },\n  compatibilityDate: '2025-08-07',\n  hub: {\n    db: 'sqlite'\n  },\n  // Development config\n  eslint: {\n    config: {\n      stylistic: {\n        quotes: 'single',\n        commaDangle: 'never'\n      }\n    }\n  }\n})\n")
bool(true)
