@_spi(OpsDashInternals) import OpsKitViewer

extension AttachCommand {
    /// How many app/queue names or socket paths a one-line message lists before "and N more".
    static let choicesShown = 3

    /// Why `target` names no single queue, and what does: the app/queue names when they tell
    /// the matches apart, else (one app running twice) their pids and socket paths, e.g.
    /// "2 published queues match AppExample/images (pids 123, 456): attach by socket path:
    /// /run/…/AppExample.images.123.sock or /run/…/AppExample.images.456.sock".
    static func ambiguity(of target: String, among matches: [PublishedQueue]) -> String {
        let matches = matches.sorted { ($0.label, $0.pid) < ($1.label, $1.pid) }
        let lead = "\(matches.count) published queues match \(target)"
        let labels = matches.map(\.label)
        if Set(labels).count == labels.count {
            return "\(lead): name one as app/queue: \(listed(labels))"
        }
        let pids = matches.map { String($0.pid) }.joined(separator: ", ")
        return "\(lead) (pids \(pids)): attach by socket path: \(listed(matches.map(\.socket)))"
    }

    /// What `opsdash attach` without a target says (exit 2) after listing several queues: a name
    /// picks one, except an app/queue published by several processes, which only a socket path
    /// picks: that app/queue with its pids and socket paths, e.g. "2 published queues:
    /// AppExample/images runs as pids 10, 11: attach one by socket path: opsdash attach
    /// /run/…/AppExample.images.10.sock or /run/…/AppExample.images.11.sock".
    static func severalPublished(_ published: [PublishedQueue]) -> String {
        let lead = "\(published.count) published queues"
        let byLabel = Dictionary(grouping: published, by: \.label)
        let repeated = byLabel.filter { $0.value.count > 1 }.sorted { $0.key < $1.key }
        guard let (label, instances) = repeated.first else { return "\(lead): name one (opsdash attach NAME)" }
        let sorted = instances.sorted { $0.pid < $1.pid }
        let pids = sorted.map { String($0.pid) }.joined(separator: ", ")
        var text =
            "\(lead): \(label) runs as pids \(pids): attach one by socket path: opsdash attach \(listed(sorted.map(\.socket)))"
        if repeated.count > 1 {
            text += " (\(repeated.count - 1) more app/queue runs several times: opsdash attach --list)"
        }
        if byLabel.count > repeated.count { text += "; name any other (opsdash attach NAME)" }
        return text
    }

    /// Why `target` names no published queue, with what is published (app/queue, pid and socket
    /// path of each, the first `choicesShown`) or that nothing is, and where it looked.
    static func notFound(_ target: String, among published: [PublishedQueue], in directory: String) -> String {
        let lead = "no published queue named \(target) in \(directory)"
        guard !published.isEmpty else { return "\(lead): none is published there" }
        let sorted = published.sorted { ($0.label, $0.pid) < ($1.label, $1.pid) }
        let entries = sorted.map { "\($0.label) (pid \($0.pid), \($0.socket))" }
        return "\(lead); published: \(listed(entries, joiner: ", "))"
    }

    /// "a", "a or b", "a, b or c"; past `choicesShown`: "a, b, c and 2 more (opsdash attach --list)".
    private static func listed(_ items: [String], joiner: String = " or ") -> String {
        guard items.count > choicesShown else {
            guard let last = items.last, items.count > 1 else { return items.last ?? "" }
            return items.dropLast().joined(separator: ", ") + joiner + last
        }
        let rest = items.count - choicesShown
        return items.prefix(choicesShown).joined(separator: ", ") + " and \(rest) more (opsdash attach --list)"
    }
}
