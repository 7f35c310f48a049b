go test fuzz v1
[]byte("// https://nuxt.com/docs/api/configuration/nuxt-config\nexport default defineFwConfig({\n  devtools: { enabled: true },\n})\n")
bool(true)
