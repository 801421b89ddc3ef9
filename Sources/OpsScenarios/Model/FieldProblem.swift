/// A problem found while decoding, tied to a field path; the loader adds the file name.
struct FieldProblem: Error {
    let path: [any CodingKey]
    let message: String

    init(_ path: [any CodingKey], _ message: String) {
        self.path = path
        self.message = message
    }

    /// `operations[3].size` style rendering of a coding path.
    static func render(_ path: [any CodingKey]) -> String {
        var text = ""
        for key in path {
            if let index = key.intValue {
                text += "[\(index)]"
            } else {
                text += text.isEmpty ? key.stringValue : ".\(key.stringValue)"
            }
        }
        return text
    }
}
