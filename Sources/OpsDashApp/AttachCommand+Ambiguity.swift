import OpsKitRemote

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

    /// What `opsdash attach` without a target says after listing several queues: a name picks
    /// one unless an app/queue is listed more than once, which only its socket path picks.
    static func severalPublished(_ published: [PublishedQueue]) -> String {
        let labels = published.map(\.label)
        let howToPick = Set(labels).count == labels.count ? "opsdash attach NAME" : "opsdash attach NAME or PATH.sock"
        return "\(published.count) published queues: name one (\(howToPick))"
    }

    /// "a", "a or b", "a, b or c"; past `choicesShown`: "a, b, c and 2 more (opsdash attach --list)".
    private static func listed(_ items: [String]) -> String {
        guard items.count > choicesShown else {
            guard let last = items.last, items.count > 1 else { return items.last ?? "" }
            return items.dropLast().joined(separator: ", ") + " or " + last
        }
        let rest = items.count - choicesShown
        return items.prefix(choicesShown).joined(separator: ", ") + " and \(rest) more (opsdash attach --list)"
    }
}
