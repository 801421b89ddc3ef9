import Foundation
@_spi(OpsDashInternals) import OpsKitViewer
import OpsWire

/// Why `opsdash attach` stops before it attaches: one line for standard error; exit 2.
struct AttachRefusal: Error {
    /// The line, without the `opsdash: ` prefix.
    var message: String
}

/// The steps of `AttachCommand.execute`, in the order it takes them.
extension AttachCommand {
    /// What the listing step left to do.
    enum Listing {
        /// The command is done: it listed, or ran the fleet list, and ended with this status.
        case ended(ExitStatus)
        /// Attach to one queue; these are this user's published queues.
        case attach([PublishedQueue])
    }

    /// Refuses a runtime directory another user could write to.
    static func requireOwn(_ directory: String) throws(AttachRefusal) {
        if let refusal = unsafe(directory) { throw AttachRefusal(message: "\(refusal)") }
    }

    /// `--list` (text, or with `--headless` the fleet's JSON Lines, hosts included), or the live
    /// fleet list when several queues or any hosts are there and nothing names one; otherwise the
    /// published queues to attach to.
    func listOrOpenFleet(in directory: String, signals: StopSignals, stdoutClosed: Bool) throws(AttachRefusal)
        -> Listing
    {
        let fleetHosts = !headless && record == nil && tokenFile == nil && target == nil
        var hosts: [HostsFile.Host] = []
        if list && headless || fleetHosts {
            switch HostsFile.hosts() {
            case .success(let listed): hosts = listed
            case .failure(let problem): throw AttachRefusal(message: "\(problem)")
            }
        }
        if list, headless {
            return .ended(listFleet(hosts, in: directory, stdoutClosed: stdoutClosed))
        }
        let published = PublishedQueue.list(in: directory)
        if list {
            return .ended(
                StandardStreams.answer(
                    AttachCommand.listing(published), what: "the list of published queues", stdoutClosed: stdoutClosed))
        }
        if fleetHosts, published.count > 1 || !hosts.isEmpty {
            return .ended(
                FleetScreen.run(
                    directory: directory, hosts: hosts, role: readOnly ? .observer : nil, sharedMemory: !socketOnly,
                    fps: fps, signals: signals, limits: HistoryWindowOption.limits(historyWindow)))
        }
        return .attach(published)
    }

    /// `--list --headless`: this machine's queues and each host's, one JSON line each; 1 when a
    /// host could not be listed.
    private func listFleet(_ hosts: [HostsFile.Host], in directory: String, stdoutClosed: Bool) -> ExitStatus {
        let remote = FleetHosts(hosts)
        remote.start()
        let entries = FleetWatcher.once(in: directory, timeout: FleetLines.answerTimeout)
        remote.waitForAnswers(timeout: FleetHosts.answerTimeout)
        let (lines, unreachable) = remote.lines(timeout: FleetHosts.answerTimeout)
        remote.stop()
        let written = StandardStreams.answer(
            FleetLines.text(entries) + lines, what: "the fleet list", stdoutClosed: stdoutClosed)
        return written == .success && unreachable > 0 ? .someFailed : written
    }

    /// The `--record` file, opened (an existing one only with `--overwrite`); nil without `--record`.
    func openRecorder() throws(AttachRefusal) -> AttachRecorder? {
        guard let record else { return nil }
        do { return try AttachRecorder(path: record, overwrite: overwrite) } catch {
            throw AttachRefusal(message: "\(error)")
        }
    }

    /// The target to connect to and whether it was found by name; a path the user gave is
    /// verified as their own socket and then named by its real path.
    func resolvedTarget(_ published: [PublishedQueue], directory: String, byNameOnly: Bool) throws(AttachRefusal)
        -> (RemoteTarget, named: Bool)
    {
        var resolved: RemoteTarget
        let named: Bool
        switch resolve(published, directory: directory) {
        case .success(let target, let byName):
            resolved = target
            named = byName
        case .failure(let message):
            throw AttachRefusal(message: message)
        }
        // A target that also reads as a path (app/queue) but was found by name: checked now.
        if named, !byNameOnly { try Self.requireOwn(directory) }
        if case .unix(let path) = resolved, !named {
            // A path the user gave: a socket of theirs that nobody else can swap; connected to
            // by its real path, so a symlink re-pointed later changes nothing.
            do { resolved = .unix(try NamedSocket.verify(path)) } catch {
                throw AttachRefusal(message: "\(error)")
            }
        }
        return (resolved, named)
    }

    /// The token a tcp:// target needs, read from `--token-file`, which goes with tcp:// targets
    /// only (they need it); nil for other targets.
    func token(for resolved: RemoteTarget) throws(AttachRefusal) -> String? {
        guard case .tcp = resolved else {
            if tokenFile != nil { throw AttachRefusal(message: "--token-file is only for tcp:// targets") }
            return nil
        }
        guard let tokenFile else { throw AttachRefusal(message: "\(resolved) needs --token-file") }
        do { return try TokenFile.load(tokenFile) } catch { throw AttachRefusal(message: "\(error)") }
    }

    /// Attaches: the dashboard, or with `--headless` the JSON Lines stream.
    func watch(
        _ resolved: RemoteTarget, token: String?, resolve: (@Sendable () -> RemoteTarget?)?, recorder: AttachRecorder?,
        signals: StopSignals, stdoutClosed: Bool
    ) -> ExitStatus {
        let role: RemoteRole? = readOnly ? .observer : nil
        if headless {
            if stdoutClosed { return HeadlessRunner.report(.writeFailed(EBADF)) }
            return HeadlessAttach(
                target: resolved, role: role, token: token, sharedMemory: !socketOnly, recorder: recorder,
                until: (try? UntilOption.conditions(until, headless: true)) ?? [],
                limits: HistoryWindowOption.limits(historyWindow)
            ).execute(signals: signals)
        }
        return RemoteSource.attach(
            target: resolved, role: role, token: token, sharedMemory: !socketOnly, fps: fps, signals: signals,
            resolve: resolve, recorder: recorder, limits: HistoryWindowOption.limits(historyWindow))
    }
}
