/// A coding key for any field name, used to refuse unknown fields.
struct FieldKey: CodingKey, Hashable {
    var stringValue: String
    var intValue: Int? { nil }

    init(_ name: String) { stringValue = name }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }

    /// Throws a `FieldProblem` for the first key (in sorted order) not in `allowed`.
    static func requireOnly(_ allowed: Set<String>, in container: KeyedDecodingContainer<FieldKey>) throws {
        let unknown = container.allKeys.map(\.stringValue).filter { !allowed.contains($0) }.sorted()
        if let first = unknown.first {
            throw FieldProblem(container.codingPath + [FieldKey(first)], "is not a known field")
        }
    }
}
