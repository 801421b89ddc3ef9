import ArgumentParser
import Foundation
@_spi(OpsDashInternals) import OpsKitViewer
import OpsMonitor
import OpsWire

/// `opsdash attach`: watch (and, when the app allows it, steer) a queue another process publishes.
struct AttachCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "opsdash attach",
        abstract: "Attach the dashboard to a queue published by a running app.",
        discussion: """
            With no TARGET: attaches when this user publishes exactly one queue; with several, or \
            hosts in $XDG_CONFIG_HOME/opsdash/hosts (one [LABEL] ssh://… a line), opens the fleet \
            list (one row per queue, those of each host over one ssh; Enter opens one, Esc comes \
            back; with --headless or --record: lists them and exits 2). --list ssh://HOST: that \
            host's queues alone. TARGET is a queue name (or app/queue), a socket path, \
            tcp://HOST:PORT with --token-file, or ssh://[USER@]HOST[:PORT][/NAME]: runs `ssh HOST opsdash relay NAME` \
            (key or agent login; OPSDASH_SSH_COMMAND replaces `ssh` and its options, \
            OPSDASH_REMOTE_COMMAND the remote `opsdash`). Exit codes: 0 quit with q (whatever the app's counts); with --headless, \
            0 or 1 by the app's counts when it says bye, 1 the connection was lost (--list: a host \
            could not be listed); 2 usage error \
            or nothing to attach to (over ssh: ssh or the remote relay ended before the app \
            answered, with ssh's last line); 3 --headless output could not be written; 4 an --until \
            condition became true; 129/130/131/143 \
            ended by a signal (129 also: the terminal closed); 141 the --headless output's reader \
            went away.
            """)

    @Argument(help: "Queue name, app/queue, PATH.sock, tcp://HOST:PORT or ssh://[USER@]HOST[:PORT][/NAME].")
    var target: String?

    @Flag(name: .long, help: "No screen: write the queue's events as JSON Lines (as `opsdash --headless`).")
    var headless = false

    @Flag(name: .long, help: "Ask for the observer role even when the app grants control.")
    var readOnly = false

    @Flag(
        name: .customLong("no-shared-memory"),
        help: "Read the app's changes from its socket only, not from the shared-memory stream it offers local viewers.")
    var socketOnly = false

    @Flag(
        name: .long,
        help:
            "List published queues and exit (with --headless: one JSON line per queue with its counts, the hosts file's too)."
    )
    var list = false

    @Option(name: .customLong("token-file"), help: "File holding the token for a tcp:// target.")
    var tokenFile: String?

    @Option(name: .long, parsing: .unconditional, help: "Dashboard frames per second (1...120).")
    var fps: Int = 20

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Write a recording of what the attached viewer sees to this file (replay it with 'opsdash replay FILE').",
            valueName: "file"))
    var record: String?

    @Flag(
        name: .long,
        help: "Let --record replace a file that already exists (without it, an existing file is refused).")
    var overwrite = false

    @Option(name: .long, parsing: .unconditionalSingleValue, help: UntilOption.help)
    var until: [String] = []

    @Option(name: .customLong("history-window"), parsing: .unconditional, help: HistoryWindowOption.attachHelp)
    var historyWindow: String?

    func validate() throws {
        _ = try UntilOption.conditions(until, headless: headless)
        if let historyWindow { _ = try HistoryWindowOption.seconds(historyWindow) }
        if record?.isEmpty == true { throw ValidationError("--record needs a file name") }
        if overwrite, record == nil { throw ValidationError("--overwrite is only for --record") }
        if !(1...120).contains(fps) {
            throw ValidationError("--fps must be between 1 and 120 (got \(fps))")
        }
    }

    /// Runs the command; returns the exit status. `stdoutClosed`: standard output was closed
    /// when `opsdash` started (headless mode then fails with 3 before connecting).
    func execute(signals: StopSignals, stdoutClosed: Bool = false) -> ExitStatus {
        if list, let target, target.hasPrefix("ssh://") {
            return listHost(target, signals: signals, stdoutClosed: stdoutClosed)
        }
        let directory = RuntimeDirectory.path()
        do {
            // Queues are listed, and found by name, only in a directory that is this user's alone
            // (a path or address the user gives does not need it).
            let byNameOnly =
                list || target.map { !Self.isAddress($0) && RemoteTarget(parsing: $0) == nil } ?? true
            if byNameOnly {
                try Self.requireOwn(directory)
                PublishedQueue.removeLeftovers(in: directory)
            }
            let published: [PublishedQueue]
            switch try listOrOpenFleet(in: directory, signals: signals, stdoutClosed: stdoutClosed) {
            case .ended(let status): return status
            case .attach(let listed): published = listed
            }
            let recorder = try openRecorder()
            defer { recorder?.finish() }
            let (resolved, named) = try resolvedTarget(published, directory: directory, byNameOnly: byNameOnly)
            return watch(
                resolved, token: try token(for: resolved),
                resolve: named ? resolver(for: resolved, in: published) : nil,
                recorder: recorder, signals: signals, stdoutClosed: stdoutClosed)
        } catch {
            StandardStreams.error("opsdash: \(error.message)")
            return .usage
        }
    }

    /// `--list ssh://…`: that host's published queues, as JSON Lines (`--headless`) or the
    /// live fleet list.
    private func listHost(_ target: String, signals: StopSignals, stdoutClosed: Bool) -> ExitStatus {
        guard let address = SSHAddress(parsing: target) else {
            StandardStreams.error("opsdash: bad address \(target): expected ssh://[USER@]HOST[:PORT][/NAME]")
            return .usage
        }
        let host = HostsFile.Host(label: address.host, address: address, line: 0)
        guard headless else {
            return FleetScreen.run(
                directory: nil, hosts: [host], role: readOnly ? .observer : nil, sharedMemory: false, fps: fps,
                signals: signals, limits: HistoryWindowOption.limits(historyWindow))
        }
        let remote = FleetHosts([host])
        remote.start()
        remote.waitForAnswers(timeout: FleetHosts.answerTimeout)
        let (text, unreachable) = remote.lines(timeout: FleetHosts.answerTimeout)
        remote.stop()
        let written = StandardStreams.answer(text, what: "the fleet list", stdoutClosed: stdoutClosed)
        return written == .success && unreachable > 0 ? .someFailed : written
    }

    /// Why the runtime directory may not be used, or nil (also when it does not exist yet).
    static func unsafe(_ directory: String) -> RemoteError? {
        guard FileManager.default.fileExists(atPath: directory) else { return nil }
        do { try RuntimeDirectory.verify(directory) } catch { return error }
        return nil
    }

    /// For a target picked by name (or the only one), finds the same app/queue again by its
    /// sidecar, so a restarted app (new pid, new socket) is found; a path or address stays fixed.
    func resolver(for resolved: RemoteTarget, in published: [PublishedQueue]) -> (
        @Sendable () -> RemoteTarget?
    )? {
        guard case .unix(let path) = resolved, let entry = published.first(where: { $0.socket == path })
        else { return nil }
        let label = entry.label
        return {
            PublishedQueue.list().last { $0.label == label }.map { RemoteTarget.unix($0.socket) }
        }
    }

    enum Resolution {
        /// `byName`: found among the published queues (by name, or the only one), not given as
        /// a path or address.
        case success(RemoteTarget, byName: Bool)
        /// Why nothing can be attached.
        case failure(String)
    }

    /// Why no single published queue was picked (one line).
    struct PickFailure: Error {
        var text: String
    }

    /// The published queue `name` (a queue, app/queue or app name, optionally with `@PID` to
    /// pick one of several instances) names in `directory`, or with no name the only one; else
    /// why not.
    static func pick(_ name: String?, among published: [PublishedQueue], in directory: String) -> Result<
        PublishedQueue, PickFailure
    > {
        guard let name else {
            switch published.count {
            case 0:
                return .failure(
                    PickFailure(text: "no published queues in \(directory) (start an app that publishes one)"))
            case 1: return .success(published[0])
            default: return .failure(PickFailure(text: severalPublished(published)))
            }
        }
        var matches = published.filter { $0.queue == name || $0.label == name || $0.app == name }
        if matches.isEmpty, let (base, pid) = Self.withPID(name) {
            // NAME@PID: one of several instances (what the fleet list's ssh:// addresses use).
            matches = published.filter { $0.pid == pid && ($0.queue == base || $0.label == base || $0.app == base) }
        }
        switch matches.count {
        case 1: return .success(matches[0])
        case 0: return .failure(PickFailure(text: notFound(name, among: published, in: directory)))
        default: return .failure(PickFailure(text: ambiguity(of: name, among: matches)))
        }
    }

    /// `NAME@PID` split, or nil when `text` does not end in `@` and a pid.
    static func withPID(_ text: String) -> (name: String, pid: Int)? {
        guard let at = text.lastIndex(of: "@"), at != text.startIndex else { return nil }
        let digits = text[text.index(after: at)...]
        guard !digits.isEmpty, digits.count <= 10, digits.allSatisfy({ ("0"..."9").contains($0) }),
            let pid = Int(digits), pid > 0
        else { return nil }
        return (String(text[..<at]), pid)
    }

    func resolve(_ published: [PublishedQueue], directory: String) -> Resolution {
        if target == nil, published.count > 1 { StandardStreams.write(AttachCommand.listing(published)) }
        guard let target else {
            switch Self.pick(nil, among: published, in: directory) {
            case .success(let entry): return .success(.unix(entry.socket), byName: true)
            case .failure(let failure): return .failure(failure.text)
            }
        }
        if target.hasPrefix("ssh://") {
            guard let parsed = RemoteTarget(parsing: target) else {
                return .failure("bad address \(target): expected ssh://[USER@]HOST[:PORT][/NAME]")
            }
            return .success(parsed, byName: false)
        }
        if target.hasPrefix("tcp://") {
            guard let parsed = RemoteTarget(parsing: target) else {
                return .failure("bad address \(target): expected tcp://HOST:PORT with PORT 1...65535")
            }
            return .success(parsed, byName: false)
        }
        // A published app/queue wins over a relative path that looks the same.
        let matches = published.filter { $0.queue == target || $0.label == target || $0.app == target }
        if matches.isEmpty, let parsed = RemoteTarget(parsing: target), !Self.isUnpublishedName(target) {
            return .success(parsed, byName: false)
        }
        switch Self.pick(target, among: published, in: directory) {
        case .success(let entry): return .success(.unix(entry.socket), byName: true)
        case .failure(let failure): return .failure(failure.text)
        }
    }

    /// Whether `target` is a `tcp://` or `ssh://` address (well formed or not).
    private static func isAddress(_ target: String) -> Bool {
        target.hasPrefix("tcp://") || target.hasPrefix("ssh://")
    }

    /// Whether `target` reads as an app/queue name (one `/`, not a path to an existing file):
    /// then "no published queue named …" says more than "No such file or directory".
    private static func isUnpublishedName(_ target: String) -> Bool {
        let parts = target.split(separator: "/", omittingEmptySubsequences: false)
        return parts.count == 2 && parts.allSatisfy { !$0.isEmpty && !$0.hasPrefix(".") } && !target.hasSuffix(".sock")
            && !FileManager.default.fileExists(atPath: target)
    }

    /// One line per queue, like `tmux ls`: "AppExample/images: pid 4242, since 12:03:04, 1 viewer (/run/…/x.sock)".
    static func listing(_ published: [PublishedQueue]) -> String {
        guard !published.isEmpty else { return "no published queues\n" }
        let formatter = DateFormatter()
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss"
        var text = ""
        for entry in published {
            let since = formatter.string(from: Date(timeIntervalSince1970: entry.started))
            text +=
                "\(entry.label): pid \(entry.pid), since \(since), \(entry.viewers) viewer\(entry.viewers == 1 ? "" : "s") (\(entry.socket))\n"
        }
        return text
    }
}
