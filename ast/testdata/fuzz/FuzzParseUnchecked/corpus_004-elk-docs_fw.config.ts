go test fuzz v1
[]byte("// https://nuxt.com/docs/api/configuration/nuxt-config\nexport default defineFwConfig({\n  extends: ['docus'],\n\n  css: ['~/assets/css/main.css'],\n\n  site: {\n    name: 'Elk',\n    url: 'https://docs.elk.zone',\n  },\n\n  llms: {\n    domain: 'https://docs.elk.zone',\n  },\n\n  bundlerA: {\n    optimizeDeps: {\n      include: ['scule'],\n    },\n  },\n\n  compatibilityDate: '2024-11-07',\n})\n")
bool(true)
