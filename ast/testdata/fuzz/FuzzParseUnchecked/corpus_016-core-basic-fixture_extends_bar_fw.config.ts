go test fuzz v1
[]byte("export default defineFwConfig({\n  modules: [undefined],\n  app: {\n    head: {\n      meta: [\n        { name: 'viewport', content: 'width=1024, initial-scale=1' },\n        { charset: 'utf-8' },\n      ],\n    },\n  },\n})\n")
bool(true)
