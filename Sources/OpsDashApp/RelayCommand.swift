import ArgumentParser
import Foundation
@_spi(OpsDashInternals) import OpsKitViewer

/// `opsdash relay [NAME]`: what `opsdash attach ssh://host/NAME` runs on the remote host over
/// `ssh`. Connects to a queue published on this host, found as `opsdash attach` finds it (the
/// same runtime directory and checks, as the user `ssh` logged in as), and copies the
/// connection's bytes between the socket and standard input/output (`ByteRelay`) until either
/// side ends. Writes nothing else to standard output. With `--list`: this host's fleet list,
/// round by round (`RelayList`), for `opsdash attach --list ssh://…` and the hosts file.
struct RelayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "opsdash relay",
        abstract: "Carry a published queue's connection over standard input/output (what attach ssh:// runs remotely).",
        discussion: """
            NAME is a queue name, app/queue or app, as for opsdash attach; without it, the only \
            published queue. With --list: every queue published on this host, as summary lines \
            (one round a second) until standard input ends. Exit codes: 0 the viewer or the app closed the connection; 1 the \
            connection broke (a write failed, or a side took none of the waiting bytes for 30 \
            seconds); 2 usage error, or nothing to relay to (one line on stderr says why); \
            129/130/131/143 ended by a signal.
            """)

    @Argument(help: "Queue name or app/queue.")
    var name: String?

    @Flag(name: .long, help: "Write every published queue's summary, a round a second, instead of relaying one.")
    var list = false

    func validate() throws {
        if list, name != nil { throw ValidationError("--list takes no NAME") }
    }

    func execute() -> ExitStatus {
        let directory = RuntimeDirectory.path()
        if let refusal = AttachCommand.unsafe(directory) {
            StandardStreams.error("opsdash: \(refusal)")
            return .usage
        }
        PublishedQueue.removeLeftovers(in: directory)
        if list { return RelayList.run(directory: directory) }
        let published = PublishedQueue.list(in: directory)
        let entry: PublishedQueue
        switch AttachCommand.pick(name, among: published, in: directory) {
        case .success(let found): entry = found
        case .failure(let message):
            StandardStreams.error("opsdash: \(message.text)")
            return .usage
        }
        let socket: Int32
        switch UnixSocket.connect(entry.socket) {
        case .success(let descriptor): socket = descriptor
        case .failure(let error):
            StandardStreams.error("opsdash: \(error)")
            return .usage
        }
        defer { close(socket) }
        switch ByteRelay().run(input: 0, output: 1, socket: socket) {
        case .closed: return .success
        case .broken(let why):
            StandardStreams.error("opsdash: relay to \(entry.label) ended: \(why)")
            return .someFailed
        }
    }
}
