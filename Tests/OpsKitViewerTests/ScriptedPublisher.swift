import Foundation
@_spi(OpsDashInternals) @testable import OpsKitViewer
import RemoteTestSupport

/// A publisher a test scripts step by step, on a Unix socket: it listens, takes a viewer's
/// connection when told (answering its hello with a welcome, or not), says lines, hangs up, goes
/// away (the socket file removed) and comes back at the same path.
final class ScriptedPublisher {
    static let welcome =
        #"{"event":"welcome","protocol":1,"app":"a","queue":"q","pid":7,"role":"controller","epoch":"e1","seq":0,"resumed":false}"#

    let path: String
    private var listener: Int32 = -1

    /// Listens at `directory`/app.sock.
    init(in directory: String) throws {
        path = directory + "/app.sock"
        try comeBack()
    }

    deinit { goAway() }

    /// Listens (again) at `path`.
    func comeBack() throws {
        listener = try FakePublisher.listeningSocket(at: path)
    }

    /// Stops listening and removes the socket file: connecting fails until `comeBack()`.
    func goAway() {
        guard listener >= 0 else { return }
        close(listener)
        unlink(path)
        listener = -1
    }

    /// Takes the next connection (waiting at most 10 s of wall time for a viewer to connect), reads
    /// its hello and, with `welcoming`, answers it. Nil when no viewer connected.
    func accept(welcoming: Bool = true) -> LineClient? {
        var poller = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
        guard poll(&poller, 1, 10_000) > 0 else { return nil }
        let descriptor = Foundation.accept(listener, nil, nil)
        guard descriptor >= 0 else { return nil }
        let client = LineClient(accepted: descriptor)
        guard client.line(containing: "hello") != nil else { return nil }
        if welcoming { client.send(Self.welcome + "\n") }
        return client
    }
}

extension LineClient {
    /// Ends the connection (the descriptor stays open until the client goes).
    func hangUp() {
        shutdown(descriptor, Int32(SHUT_RDWR))
    }
}
