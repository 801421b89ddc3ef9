/// The dashboard's keys for text outside the screen (`opsdash --help`), read from
/// `KeyBinding.table` like the help overlay and the footer.
public enum KeyReference {
    /// Every key and what it does, in the help overlay's order, with ASCII key names.
    public static var entries: [(key: String, meaning: String)] {
        KeyBinding.table.map { ($0.label.ascii, $0.help) }
    }

    /// The list as aligned lines, two spaces of indent.
    public static var text: String {
        let width = entries.reduce(0) { max($0, $1.key.count) } + 2
        return entries.map { entry in
            "  " + entry.key + String(repeating: " ", count: width - entry.key.count) + entry.meaning
        }.joined(separator: "\n")
    }
}
