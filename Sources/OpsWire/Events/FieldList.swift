import OpsMonitor

/// A line's fields in line order, looked up by a scan from the end (so a repeated name reads its
/// last value, as in a dictionary). For the handful of fields an event line has, scanning is
/// cheaper than hashing every name into a dictionary and hashing it again to look it up; a line
/// with more than `scanLimit` fields gets a dictionary, so that lookups stay cheap however many.
struct FieldList: Sendable {
    /// The most fields looked up by scanning.
    static let scanLimit = 32

    let members: [JSONLineParser.JSONMember]
    private let index: [String: JSONValue]?

    init(_ members: [JSONLineParser.JSONMember]) {
        self.members = members
        index =
            members.count > Self.scanLimit
            ? Dictionary(members.lazy.map { ($0.key, $0.value) }, uniquingKeysWith: { $1 }) : nil
    }

    init(_ object: [String: JSONValue]) {
        self.init(object.map { (key: $0.key, value: $0.value) })
    }

    subscript(name: String) -> JSONValue? {
        if let index { return index[name] }
        for member in members.reversed() where member.key == name { return member.value }
        return nil
    }

    /// The fields as a dictionary (the last value of a repeated name).
    var dictionary: [String: JSONValue] {
        index ?? Dictionary(members.lazy.map { ($0.key, $0.value) }, uniquingKeysWith: { $1 })
    }
}
