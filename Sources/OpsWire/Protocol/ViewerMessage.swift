/// A line a viewer sends (`cmd`): the hello, a controller's command, or a request any role may
/// make (docs/PROTOCOL.md). `encoded` writes the exact bytes of the wire; `decode` reads a
/// hostile peer's line into one, or a `ViewerMessageError` that says how to refuse it.
package enum ViewerMessage: Sendable, Equatable {
    /// The first line of a connection.
    case hello(Hello)
    /// A command that changes the queue (controllers only).
    case control(RemoteCommand, request: RequestID?)
    /// Asks for a fresh snapshot.
    case resync(request: RequestID?)
    /// Asks for the deltas (with `snapshots`, also the snapshots) through the shared-memory stream.
    case sharedStream(snapshots: Bool, request: RequestID?)
    /// Asks for a `pong`.
    case ping(request: RequestID?)
    /// Asks for a `status` line: the queue's counts and settings (any role).
    case status(request: RequestID?)

    /// What `hello` says.
    package struct Hello: Sendable, Equatable {
        /// Where a reconnecting viewer left off.
        package struct Resume: Sendable, Equatable {
            package var epoch: String
            package var seq: UInt64

            package init(epoch: String, seq: UInt64) {
                self.epoch = epoch
                self.seq = seq
            }
        }

        package var request: RequestID?
        /// The protocol versions the viewer speaks.
        package var minimum: Int64
        package var maximum: Int64
        package var client: String?
        /// The role asked for (nil: none, or one this build does not know).
        package var role: RemoteRole?
        /// The TCP token (nil: none, or not a string).
        package var token: String?
        /// Nil: none, or not an object with an `epoch` string and a `seq` of at least 0.
        package var resume: Resume?
        /// Summary only (`"summary":true`): no snapshot and no deltas, only answers to `status`
        /// (a fleet list's connection, which costs the app no event recording).
        package var summary: Bool

        package init(
            request: RequestID? = nil, minimum: Int64 = Int64(RemoteProtocol.versions.lowerBound),
            maximum: Int64 = Int64(RemoteProtocol.versions.upperBound), client: String?, role: RemoteRole? = nil,
            token: String? = nil, resume: Resume? = nil, summary: Bool = false
        ) {
            self.request = request
            self.minimum = minimum
            self.maximum = maximum
            self.client = client
            self.role = role
            self.token = token
            self.resume = resume
            self.summary = summary
        }
    }

    /// The wire name (`cmd`).
    package var name: String {
        switch self {
        case .hello: "hello"
        case .control(let command, _): command.name
        case .resync: "resync"
        case .sharedStream: "shm"
        case .ping: "ping"
        case .status: "status"
        }
    }

    /// The `id` the line carried, for its reply.
    package var request: RequestID? {
        switch self {
        case .hello(let hello): hello.request
        case .control(_, let request), .resync(let request), .sharedStream(_, let request), .ping(let request),
            .status(let request):
            request
        }
    }
}

/// Why a viewer's line is refused: the code and message of the refusal, and what of the line
/// could be read (its `id` for the reply, its `cmd`).
package struct ViewerMessageError: Error, Sendable, Equatable {
    package var code: RemoteErrorCode
    package var message: String
    /// The line's usable `id` (nil: none, or the line is no JSON object).
    package var request: RequestID?
    /// The line's `cmd` (nil: none, or the line is no JSON object).
    package var command: String?
    /// The line is no JSON object at all (refused before it counts against the rate limit).
    package var isUnreadable: Bool

    package init(
        _ code: RemoteErrorCode, _ message: String, request: RequestID? = nil, command: String? = nil,
        isUnreadable: Bool = false
    ) {
        self.code = code
        self.message = message
        self.request = request
        self.command = command
        self.isUnreadable = isUnreadable
    }

    /// The control command a refusal is counted against (`RemoteTally`), nil for others.
    package var countedCommand: String? {
        guard code == .badArgument, let command, RemoteCommand.names.contains(command) else { return nil }
        return command
    }
}
