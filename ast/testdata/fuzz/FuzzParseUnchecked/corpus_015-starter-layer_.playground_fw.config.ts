go test fuzz v1
[]byte("import { fileURLToPath } from 'node:url'\n\nexport default defineFwConfig({\n  extends: ['..'],\n  modules: ['@fw/eslint'],\n  eslint: {\n    config: {\n      // Use the generated ESLint config for lint root project as well\n      rootDir: fileURLToPath(new URL('..', import.meta.url))\n    }\n  }\n})\n")
bool(true)
