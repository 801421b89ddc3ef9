/// Integer fields read as numbers first, so `1.5` or `1e30` get a message naming the field
/// (Foundation reports those without any path).
extension KeyedDecodingContainer<FieldKey> {
    /// The integer at `name`, nil when absent.
    func integer(_ name: String) throws -> Int? {
        let key = FieldKey(name)
        guard contains(key), try !decodeNil(forKey: key) else { return nil }
        guard let value = try? decode(Double.self, forKey: key) else {
            throw FieldProblem(codingPath + [key], "must be an integer")
        }
        guard value == value.rounded(), abs(value) < 9e15 else {
            throw FieldProblem(codingPath + [key], "must be an integer (got \(ScenarioProblem.format(value)))")
        }
        return Int(value)
    }

    /// The integer at `name`, required.
    func requiredInteger(_ name: String) throws -> Int {
        guard let value = try integer(name) else {
            throw FieldProblem(codingPath + [FieldKey(name)], "is required")
        }
        return value
    }
}
