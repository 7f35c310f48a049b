go test fuzz v1
[]byte("export default defineFwConfig({\n  image: {\n    dir: './assets',\n  },\n})\n")
bool(true)
