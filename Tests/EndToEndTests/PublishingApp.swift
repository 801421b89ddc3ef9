import Foundation

/// `Demos/AppExample` running in its own process, publishing its queue into a private runtime
/// directory (`XDG_RUNTIME_DIR`); killed in deinit whatever happens in the test.
final class PublishingApp {
    let runtime: String
    let process = Process()

    /// A fresh private runtime directory for a test.
    static func makeRuntime() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("opsdash-rt-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(
            atPath: path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        return path
    }

    /// Starts AppExample with `arguments` and waits (up to 20 s) until its socket and the
    /// sidecar that lists it are there (the sidecar is written just after the socket is bound).
    init(_ arguments: [String], runtime: String) throws {
        self.runtime = runtime
        guard let opsdash = opsdashBinaryPath() else { throw CocoaError(.fileNoSuchFile) }
        let binary = URL(fileURLWithPath: opsdash).deletingLastPathComponent().appendingPathComponent("AppExample")
        process.executableURL = binary
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_RUNTIME_DIR"] = runtime
        environment["SWIFT_BACKTRACE"] = "enable=no"
        process.environment = environment
        process.standardOutput = FileHandle(forWritingAtPath: "/dev/null")
        process.standardError = FileHandle(forWritingAtPath: "/dev/null")
        process.standardInput = FileHandle(forReadingAtPath: "/dev/null")
        try process.run()
        let deadline = ContinuousClock.now + .seconds(20)
        while !isListed {
            guard ContinuousClock.now < deadline, process.isRunning else {
                throw CocoaError(
                    .fileNoSuchFile, userInfo: [NSLocalizedDescriptionKey: "AppExample published no socket"])
            }
            Thread.sleep(forTimeInterval: 0.05)
        }
    }

    /// Whether `opsdash attach` can find the app: its socket and its sidecar exist.
    var isListed: Bool {
        guard let socket = socketPath else { return false }
        return FileManager.default.fileExists(atPath: (socket as NSString).deletingPathExtension + ".json")
    }

    /// The app's socket, once published.
    var socketPath: String? {
        let directory = runtime + "/opsdash"
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return names.first { $0.hasSuffix(".\(process.processIdentifier).sock") }.map { directory + "/" + $0 }
    }

    /// Sends `signal` and waits (bounded) for the process to end.
    func stop(_ signal: Int32 = SIGTERM) {
        guard process.isRunning else { return }
        kill(process.processIdentifier, signal)
        let deadline = ContinuousClock.now + .seconds(10)
        while process.isRunning, ContinuousClock.now < deadline { Thread.sleep(forTimeInterval: 0.02) }
    }

    /// Waits (bounded) for the app to finish on its own.
    func waitForExit(timeout: Duration = .seconds(60)) -> Bool {
        let deadline = ContinuousClock.now + timeout
        while process.isRunning, ContinuousClock.now < deadline { Thread.sleep(forTimeInterval: 0.02) }
        return !process.isRunning
    }

    deinit { stop(SIGKILL) }
}
