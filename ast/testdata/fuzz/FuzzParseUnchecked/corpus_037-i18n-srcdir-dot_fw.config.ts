go test fuzz v1
[]byte("// https://nuxt.com/docs/guide/directory-structure/nuxt.config\nexport default defineFwConfig({\n  extends: ['../common'],\n  modules: ['@nuxtjs/i18n'],\n\n  srcDir: '.',\n  i18n: {\n    baseUrl: 'http://localhost:3000',\n    // strategy: 'prefix',\n    locales: [\n      {\n        code: 'en',\n        language: 'en',\n        name: 'English'\n      },\n      {\n        code: 'fr',\n        language: 'fr-FR',\n        name: 'Français'\n      }\n    ],\n    defaultLocale: 'en',\n    vueI18n: './config/i18n.config.ts'\n  }\n})\n")
bool(true)
