go test fuzz v1
[]byte("export default defineFwConfig({})\n")
bool(true)
