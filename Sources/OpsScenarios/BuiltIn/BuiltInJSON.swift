/// The built-in scenarios' JSON texts, one file per scenario.
enum BuiltInJSON {}
