go test fuzz v1
[]byte("import { defineFwConfig } from '@fw/bridge'\n\nexport default defineFwConfig({\n})\n")
bool(true)
