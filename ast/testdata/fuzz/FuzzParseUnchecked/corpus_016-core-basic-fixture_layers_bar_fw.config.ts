go test fuzz v1
[]byte("export default defineFwConfig({\n  modules: [\n    function (_options, fw) {\n      // @ts-expect-error not valid fw option\n      fw.options.__installed_layer = true\n    },\n  ],\n})\n")
bool(true)
