go test fuzz v1
[]byte("/**\n * Layer Base - Configuração\n * Fundação da aplicação: Tailwind CSS, paleta da marca, componentes\n * shadcn-vue, app.vue, error.vue, composables, utilitários e tipos\n * compartilhados entre todos os layers.\n */\nimport { fileURLToPath } from 'node:url'\nimport { resolve } from 'node:path'\n\nconst dir = fileURLToPath(new URL('.', import.meta.url))\n\nexport default defineFwConfig({\n  css: [resolve(dir, './app/assets/css/main.css')],\n  alias: {\n    '#shared': resolve(dir, './shared')\n  }\n})\n")
bool(true)
