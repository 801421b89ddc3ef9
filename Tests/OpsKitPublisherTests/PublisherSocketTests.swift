import Foundation
import OpsKit
import OpsKitTesting
import OpsMonitor
import ServiceLifecycle
import Logging
import Testing
@_spi(OpsDashInternals) @testable import OpsKitPublisher
@_spi(OpsDashInternals) @testable import OpsKitViewer
import RemoteTestSupport

@Suite(.ownThread, .serialized) struct PublisherSocketTests {
    /// A publisher killed without stopping leaves its sidecar and socket; the next attach removes
    /// them (its pid no longer exists) and keeps a live publisher's.
    @Test func leftoversOfPublishersThatDiedAreRemovedAndLiveOnesKept() throws {
        let published = try Published()
        try published.publisher.start()
        let gone = Process()
        gone.executableURL = URL(fileURLWithPath: "/bin/true")
        try gone.run()
        gone.waitUntilExit()
        let socket = published.directory + "/dead.work.\(gone.processIdentifier).sock"
        let sidecar = published.directory + "/dead.work.\(gone.processIdentifier).json"
        #expect(FileManager.default.createFile(atPath: socket, contents: Data()))
        try PublishedQueue(
            app: "dead", queue: "work", pid: Int(gone.processIdentifier), started: 1, socket: socket, viewers: 0
        ).write(to: sidecar)
        #expect(PublishedQueue.removeLeftovers(in: published.directory) == 1)
        #expect(!FileManager.default.fileExists(atPath: socket) && !FileManager.default.fileExists(atPath: sidecar))
        #expect(PublishedQueue.list(in: published.directory).map(\.label) == ["tests/work"], "the live one stays")
        #expect(FileManager.default.fileExists(atPath: published.publisher.socketPath))
    }

    @Test func aStoppedMonitorCannotBePublished() throws {
        let published = try Published()
        published.monitor.stop()
        #expect(throws: RemoteError("cannot publish tests/work: its QueueMonitor was stopped")) {
            try published.publisher.start()
        }
        #expect(PublishedQueue.list(in: published.directory).isEmpty, "nothing was published")
    }

    @Test func aViewerSeesTheQueueAndGracefulStopSaysByeAndRemovesTheFiles() throws {
        let published = try Published()
        try published.publisher.start()
        published.add(3)
        let listed = PublishedQueue.list(in: published.directory)
        #expect(listed.map(\.label) == ["tests/work"])
        #expect(listed.first?.socket == published.publisher.socketPath)
        var mode = stat()
        stat(published.publisher.socketPath, &mode)
        #expect(mode.st_mode & 0o777 == 0o600)
        stat(published.directory, &mode)
        #expect(mode.st_mode & 0o777 == 0o700)
        let viewer = RemoteViewer(target: .unix(published.publisher.socketPath), reconnect: false)
        #expect(viewer.start() == nil)
        try #require(eventually(timeout: .seconds(10)) { viewer.snapshot.counts.total == 3 })
        #expect(viewer.snapshot.counts.ready == 3)
        #expect(viewer.status.welcome?.role == .observer)
        #expect(viewer.perform(.suspend).failureCode == "forbidden")
        published.publisher.stop()
        viewer.waitUntilFinished()
        #expect(viewer.endReason.bye)
        #expect(viewer.endReason.reason == "app shutting down")
        #expect(!FileManager.default.fileExists(atPath: published.publisher.socketPath))
        #expect(PublishedQueue.list(in: published.directory).isEmpty)
    }

    @Test func localViewersReadTheSharedStreamAndSeeWhatSocketViewersSee() throws {
        let published = try Published(allowControl: true)
        try published.publisher.start()
        published.add(4)
        let shared = RemoteViewer(target: .unix(published.publisher.socketPath), reconnect: false)
        let socketOnly = RemoteViewer(
            target: .unix(published.publisher.socketPath), reconnect: false, sharedMemory: false)
        #expect(shared.start() == nil)
        #expect(socketOnly.start() == nil)
        try #require(eventually(timeout: .seconds(10)) { shared.readsSharedStream })
        // Both have their first picture (the 4 operations) before the audited command: a
        // viewer whose first snapshot came after it would never see its audit line.
        for viewer in [shared, socketOnly] {
            try #require(eventually(timeout: .seconds(10)) { viewer.snapshot.operations.count == 4 })
        }
        #expect(shared.status.welcome?.sharedStream?.hasPrefix("/proc/") == true)
        #expect(!socketOnly.readsSharedStream)
        #expect(shared.perform(.setLimit(3)).isSuccess, "a reply waits for its event from the stream")
        #expect(shared.snapshot.maxConcurrentOperationCount == 3)
        published.queue.isSuspended = false
        published.add(20)
        published.queue.waitUntilAllOperationsAreFinished()
        for viewer in [shared, socketOnly] {
            try #require(eventually(timeout: .seconds(10)) { viewer.snapshot.counts.succeeded == 24 })
        }
        #expect(shared.snapshot.operations.map(\.name) == socketOnly.snapshot.operations.map(\.name))
        #expect(shared.snapshot.log.count == socketOnly.snapshot.log.count)
        #expect(shared.readsSharedStream, "no resync was needed")
        published.publisher.stop()
        shared.waitUntilFinished()
        socketOnly.waitUntilFinished()
        #expect(shared.endReason.bye)
    }

    @Test func aStreamViewerThatFallsBehindTheRingResyncsAndCatchesUp() throws {
        let published = try Published { options in options.configuration.ringBytes = 4_096 }
        try published.publisher.start()
        let viewer = RemoteViewer(target: .unix(published.publisher.socketPath), reconnect: false)
        #expect(viewer.start() == nil)
        try #require(eventually(timeout: .seconds(60)) { viewer.readsSharedStream })
        // Far more than 4 KiB of lines in one pump: the stream overwrites what the viewer did not
        // read yet, the viewer notices and asks for a snapshot.
        published.queue.isSuspended = false
        published.add(2_000)
        published.queue.waitUntilAllOperationsAreFinished()
        try #require(eventually(timeout: .seconds(60)) { viewer.snapshot.counts.succeeded == 2_000 })
        try #require(eventually(timeout: .seconds(60)) { viewer.readsSharedStream })
        let resyncs = try #require(published.publisher.tally()).resyncs
        #expect(resyncs["asked", default: 0] >= 1, "the viewer asked for a snapshot: \(resyncs)")
        viewer.stop()
    }

    @Test func aControllerCommandIsCarriedOutAndReadYourWrites() throws {
        let published = try Published(allowControl: true)
        try published.publisher.start()
        published.add(2)
        let viewer = RemoteViewer(target: .unix(published.publisher.socketPath), reconnect: false)
        #expect(viewer.start() == nil)
        try #require(eventually(timeout: .seconds(10)) { viewer.snapshot.counts.total == 2 })
        #expect(viewer.status.welcome?.role == .controller)
        #expect(viewer.perform(.setLimit(5)).isSuccess)
        #expect(viewer.snapshot.maxConcurrentOperationCount == 5, "the reply waits for the event that shows it")
        #expect(published.queue.maxConcurrentOperationCount == 5)
        #expect(viewer.perform(.cancel(operationID: 99)).failureCode == "not_found")
        #expect(viewer.perform(.resume).isSuccess)
        #expect(viewer.snapshot.isSuspended == false)
        // The tally is copied out at each pump: wait (bounded) for the last command to show.
        try #require(
            eventually(timeout: .seconds(10)) { published.publisher.tally()?.commands["resume"]?["ok"] == 1 })
        let tally = try #require(published.publisher.tally())
        #expect(tally.clients == ["controller": 1, "observer": 0])
        #expect(tally.commands["set_limit"]?["ok"] == 1)
        #expect(tally.commands["cancel"]?["not_found"] == 1)
        #expect(tally.commands["resume"]?["ok"] == 1)
        viewer.stop()
    }

    @Test func malformedOversizedAndInvalidUTF8LinesAreRefused() throws {
        let published = try Published()
        try published.publisher.start()
        let client = try LineClient(.unix(published.publisher.socketPath))
        client.send(#"{"cmd":"hello","min":1,"max":1}"# + "\n")
        #expect(client.line(containing: "snapshot_end") != nil)
        client.send("not json\n")
        #expect(
            client.line()
                == #"{"event":"error","code":"bad_line","message":"invalid JSON at byte 1: unexpected character"}"#)
        client.send(Array(#"{"cmd":""#.utf8) + [0xC3, 0x28] + Array("\"}\n".utf8))
        #expect(client.line()?.contains("not valid UTF-8") == true)
        client.send(#"{"cmd":"frobnicate","id":7}"# + "\n")
        #expect(
            client.line()
                == #"{"event":"reply","id":7,"ok":false,"error":"unknown_cmd","message":"unknown command \"frobnicate\""}"#
        )
        client.send(String(repeating: "x", count: 70_000) + "\n")
        #expect(
            client.line(containing: "line_too_long")
                == #"{"event":"error","code":"line_too_long","message":"line longer than 65536 bytes"}"#)
        #expect(client.closed())
    }

    @Test func aPeerWithAnotherUIDIsClosedBeforeAnythingIsSent() throws {
        // The kernel reports this process's uid; with it not allowed, this process is the stranger.
        let published = try Published {
            $0.allowsOwnUID = false
            $0.allowedUIDs = [UInt32(geteuid()) &+ 1]
        }
        try published.publisher.start()
        let client = try LineClient(.unix(published.publisher.socketPath))
        client.send(#"{"cmd":"hello","min":1,"max":1}"# + "\n")
        #expect(client.line(timeout: .seconds(2)) == nil, "not a byte")
        #expect(client.closed())
        #expect(published.publisher.statistics()?.viewers == 0)
    }

    @Test func aConnectionThatSaysNoHelloIsClosed() throws {
        let published = try Published { $0.configuration.helloTimeout = .milliseconds(200) }
        try published.publisher.start()
        let client = try LineClient(.unix(published.publisher.socketPath))
        #expect(client.line() == #"{"event":"bye","reason":"no hello within 0.2 s"}"#)
        #expect(client.closed())
    }

    @Test func aFloodOfCommandsIsRateLimited() throws {
        let published = try Published(allowControl: true)
        try published.publisher.start()
        let client = try LineClient(.unix(published.publisher.socketPath))
        client.send(#"{"cmd":"hello","min":1,"max":1}"# + "\n")
        #expect(client.line(containing: "snapshot_end") != nil)
        client.send(String(repeating: #"{"cmd":"ping"}"# + "\n", count: 100))
        var limited = 0
        // Read until enough refusals came (each line's wait is a bound for a loaded machine;
        // the deadline ends the loop should they never come, as heartbeats keep lines coming).
        let deadline = ContinuousClock.now + .seconds(60)
        while limited < 50, ContinuousClock.now < deadline, let line = client.line(timeout: .seconds(10)) {
            if line.contains("rate_limited") { limited += 1 }
        }
        #expect(limited >= 50)
        #expect(published.queue.isSuspended, "nothing was carried out")
    }

    @Test func tcpRefusesAWrongTokenAfterADelayAndAcceptsTheReadToken() throws {
        let published = try Published(allowControl: true, tcp: true)
        try published.publisher.start()
        let port = try #require(published.publisher.tcpPort)
        let root = (published.directory as NSString).deletingLastPathComponent
        var mode = stat()
        stat(root + "/read.token", &mode)
        #expect(mode.st_mode & 0o777 == 0o600, "the token file is the owner's alone")
        let wrong = try LineClient(.tcp(host: "127.0.0.1", port: port))
        let start = ContinuousClock.now
        wrong.send(#"{"cmd":"hello","min":1,"max":1,"token":"not-the-token-at-all"}"# + "\n")
        #expect(wrong.line() == #"{"event":"error","code":"unauthorized","message":"wrong token"}"#)
        #expect(ContinuousClock.now - start >= .milliseconds(900))
        #expect(wrong.closed())
        let token = try TokenFile.load(root + "/read.token")
        let viewer = RemoteViewer(target: .tcp(host: "127.0.0.1", port: port), token: token, reconnect: false)
        #expect(viewer.start() == nil)
        try #require(eventually(timeout: .seconds(10)) { viewer.status.welcome != nil })
        #expect(viewer.status.welcome?.role == .observer, "the read token gives read-only access")
        viewer.stop()
    }

    @Test func aViewerWithAWrongTokenIsToldWhyAndDoesNotRetry() throws {
        let published = try Published(allowControl: true, tcp: true)
        try published.publisher.start()
        let port = try #require(published.publisher.tcpPort)
        let viewer = RemoteViewer(
            target: .tcp(host: "127.0.0.1", port: port), token: "not-the-token-at-all", reconnect: true)
        #expect(viewer.start() == nil)
        #expect(
            viewer.waitForFirstAnswer(timeout: .seconds(30))
                == .refused(RemoteViewer.Refusal(code: "unauthorized", message: "wrong token")))
        try #require(eventually(timeout: .seconds(10)) { viewer.isFinished }, "a refused viewer does not reconnect")
        #expect(viewer.status.link == .disconnected)
        #expect(viewer.status.detail == "wrong token (unauthorized)")
        #expect(viewer.endReason.reason == "wrong token (unauthorized)")
    }

    @Test func aStalledViewerCostsBoundedMemoryAndOthersKeepUp() throws {
        let published = try Published {
            $0.configuration.ringCapacity = 2_000
            $0.configuration.ringBytes = 256 * 1024
        }
        try published.publisher.start()
        let stalled = try LineClient(.unix(published.publisher.socketPath))
        stalled.send(#"{"cmd":"hello","min":1,"max":1}"# + "\n")  // and never reads again
        let viewer = RemoteViewer(target: .unix(published.publisher.socketPath), reconnect: false)
        #expect(viewer.start() == nil)
        for _ in 0..<10 { published.add(1_000) }
        published.queue.isSuspended = false
        published.queue.waitUntilAllOperationsAreFinished()
        #expect(
            eventually(timeout: .seconds(20)) { viewer.snapshot.counts.succeeded == 10_000 },
            "the reading viewer saw everything")
        let statistics = try #require(published.publisher.statistics())
        #expect(statistics.ringBytes <= 256 * 1024)
        #expect(statistics.viewers == 2)
        viewer.stop()
    }

    @Test func aDirectoryWithTheWrongModeOrOwnerIsRefused() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("opsdash-dir-\(UUID().uuidString)")
            .path
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: root) }
        let open = root + "/open"
        mkdir(open, 0o755)
        chmod(open, 0o755)
        #expect(throws: RemoteError("refusing \(open): mode 755 lets others in (needs 700)")) {
            try RuntimeDirectory.prepare(open)
        }
        let link = root + "/link"
        symlink(open, link)
        #expect(throws: RemoteError("refusing \(link): not a directory")) { try RuntimeDirectory.prepare(link) }
        if geteuid() == 0 {
            let other = root + "/other"
            mkdir(other, 0o700)
            chown(other, 1, 1)
            #expect(throws: RemoteError("refusing \(other): owned by uid 1, not 0")) {
                try RuntimeDirectory.prepare(other)
            }
        }
        let fresh = root + "/fresh"
        #expect(try RuntimeDirectory.prepare(fresh) == fresh)
        #expect(RuntimeDirectory.path(environment: ["XDG_RUNTIME_DIR": "/run/user/7"]) == "/run/user/7/opsdash")
        #expect(RuntimeDirectory.path(environment: ["TMPDIR": "/var/tmp"]) == "/var/tmp/opsdash-\(geteuid())")
        let published = try Published { $0.directory = open }
        #expect(throws: RemoteError("refusing \(open): mode 755 lets others in (needs 700)")) {
            try published.publisher.start()
        }
    }

    @Test func aStaleSocketIsRemovedOnlyAfterAFailedProbe() throws {
        let first = try Published()
        try first.publisher.start()
        // A second publisher with the same name and pid finds the first one alive.
        let second = try Published { $0.directory = first.directory }
        #expect(throws: RemoteError("\(first.publisher.socketPath) is in use by a running publisher")) {
            try second.publisher.start()
        }
        // Left behind by a process that died: the socket file is there, nobody listens.
        first.publisher.stop()
        let stale = socket(AF_UNIX, UnixSocket.streamType, 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in first.publisher.socketPath.utf8.enumerated() { raw[index] = byte }
        }
        _ = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(stale, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        close(stale)
        #expect(FileManager.default.fileExists(atPath: first.publisher.socketPath))
        try second.publisher.start()
        #expect(UnixSocket.canConnect(second.publisher.socketPath))
    }

    @Test func runsInAServiceGroupAndStopsOnGracefulShutdown() async throws {
        let published = try Published()
        let group = ServiceGroup(services: [published.publisher], logger: Logger(label: "test"))
        let running = Task { try await group.run() }
        #expect(
            await eventually(timeout: .seconds(10)) {
                FileManager.default.fileExists(atPath: published.publisher.socketPath)
            })
        await group.triggerGracefulShutdown()
        try await running.value
        #expect(!FileManager.default.fileExists(atPath: published.publisher.socketPath))
    }
}

extension Result where Failure == RemoteViewer.Refusal {
    var failureCode: String? {
        if case .failure(let refusal) = self { return refusal.code }
        return nil
    }

    var isSuccess: Bool {
        if case .success = self { return true }
        return false
    }
}

/// The publisher's lifecycle at its edges: its last reference dropped on its own event loop, and
/// a `ServiceGroup` cancelled instead of shut down gracefully.
