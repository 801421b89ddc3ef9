import OpsKit
import OpsMonitor

/// What `.` in a replay applied, in a few words for the status line, e.g.
/// "step: seq 12 #3 thumb-3 ready → executing".
enum ReplayStepText {
    static func describe(_ event: MonitorEvent, seq: UInt64, in snapshot: QueueSnapshot) -> String {
        func name(_ id: Int) -> String {
            let operation = snapshot.operations.first { $0.id == id }
            // A name from a file: escaped, so it can hold no escape sequence.
            return "#\(id)" + (operation.map { " " + ControlCharacterEscaping.escape($0.name) } ?? "")
        }
        let what: String
        switch event {
        case .added(_, let id, let added, _, _, _, _):
            what = "#\(id) \(ControlCharacterEscaping.escape(added)) added"
        case .linked(_, let id, let dependencies):
            what = "\(name(id)) after " + dependencies.map { "#\($0)" }.joined(separator: ", ")
        case .state(_, let id, let from, let to, let outcome, _):
            let before = from.map { "\($0)" } ?? "new"
            what = "\(name(id)) \(before) → \(to)" + (outcome.map { " (\($0))" } ?? "")
        case .progress(_, let id, let done, let total, _, _, _, _): what = "\(name(id)) progress \(done)/\(total)"
        case .queue(_, let suspended, let limit, _, let reason):
            what = "queue \(suspended ? "paused" : "running"), limit \(limit)" + (reason.isEmpty ? "" : " (\(reason))")
        }
        return "step: seq \(seq) \(what)"
    }
}
