import Foundation
import NIOCore
import OpsMonitor
@testable import OpsWire
import Testing
@_spi(OpsDashInternals) @testable import OpsKitPublisher
@_spi(OpsDashInternals) @testable import OpsKitViewer

/// docs/PROTOCOL.md's example session is the publisher's real output: this test plays the
/// session's client lines and app events into a `PublisherCore` and compares every server line
/// with the document, then replays the server lines into a `ViewerCore`.
@Suite struct ProtocolDocTests {
    /// The session in the document: `C:` lines from the client, `S:` lines from the server.
    static func documentedSession() throws -> [String] {
        var directory = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { directory.deleteLastPathComponent() }
        let text = try String(contentsOf: directory.appendingPathComponent("docs/PROTOCOL.md"), encoding: .utf8)
        guard let start = text.range(of: "```session\n"),
            let end = text.range(of: "\n```", range: start.upperBound..<text.endIndex)
        else {
            return []
        }
        return text[start.upperBound..<end.lowerBound].split(separator: "\n").map(String.init)
    }

    /// Runs the example session and returns its transcript.
    static func playSession() -> [String] {
        var transcript: [String] = []
        var core = PublisherCore(
            identity: .init(app: "demo", queue: "images", pid: 4242, epoch: "5f3a9c1e"),
            access: .init(allowControl: true))
        var builder = EventSnapshotBuilder(maxConcurrentOperationCount: 2)
        var now = Duration.zero

        func publish(_ events: [MonitorEvent]) {
            for event in events { builder.apply(event) }
            core.publish(events, snapshot: core.needsKeyframe ? builder.snapshot() : nil, monitorTime: builder.time)
        }
        func record(_ outputs: [PublisherCore.Output]) {
            for output in outputs {
                switch output {
                case .send(_, let lines), .sendLaterAndClose(_, let lines, _):
                    for line in CoreHarness.split(lines) { transcript.append("S: " + line.dropLast()) }
                case .close: break
                case .status(let id, let request):
                    // What the shell does: the monitor's counts now.
                    let snapshot = builder.snapshot()
                    let status = PublisherMessage.Status(
                        request: request, time: builder.time, suspended: snapshot.isSuspended,
                        limit: snapshot.maxConcurrentOperationCount, counts: snapshot.counts, viewers: core.viewerCount)
                    record([.send(id, [ByteBuffer(bytes: PublisherMessage.status(status).encoded)])])
                case .execute(let id, let command, let request):
                    // What the shell does: carry it out (here: the monitor's event), then answer.
                    let before = RemoteCommand.Before(limit: builder.snapshot().maxConcurrentOperationCount)
                    if case .setLimit(let limit) = command {
                        publish([
                            .queue(
                                time: builder.time, isSuspended: false, maxConcurrentOperationCount: limit,
                                counts: builder.snapshot().counts,
                                reason: "concurrency limit \(before.limit ?? 0)→\(limit)")
                        ])
                    }
                    record(core.commandDone(id, command, request: request, before: before))
                }
            }
        }
        func client(_ line: String) {
            transcript.append("C: " + line)
            record(core.receive(1, line: Array(line.utf8), now: now))
        }
        func flush() { record(core.flush(now: now)) }

        publish([
            .added(
                time: .milliseconds(100), id: 1, name: "photo.jpg", kind: .download, totalBytes: 2_000_000,
                dependencies: []),
            .state(time: .milliseconds(100), id: 1, from: nil, to: .ready, outcome: nil, message: nil),
            .added(
                time: .milliseconds(100), id: 2, name: "thumbnail", kind: .process, unit: .items, totalBytes: 8,
                dependencies: [1]),
            .state(time: .milliseconds(100), id: 2, from: nil, to: .waiting, outcome: nil, message: nil),
            .state(time: .milliseconds(150), id: 1, from: .ready, to: .executing, outcome: nil, message: nil),
        ])
        core.userName = { $0 == 1000 ? "alice" : nil }
        core.connect(1, peer: .local(uid: 1000), now: now)
        client(#"{"cmd":"hello","min":1,"max":1,"client":"doc"}"#)
        publish([])
        flush()
        publish([
            .progress(
                time: .milliseconds(1_500), id: 1, completedBytes: 800_000, totalBytes: 2_000_000,
                bytesPerSecond: 600_000, retries: 0)
        ])
        flush()
        client(#"{"cmd":"set_limit","id":"r1","limit":4}"#)
        flush()
        client(#"{"cmd":"status","id":"s1"}"#)
        client(#"{"cmd":"cancel","id":"r2","op":9}"#)
        client(#"{"cmd":"pause","id":3}"#)
        now += .seconds(2)
        flush()
        publish([
            .progress(
                time: .milliseconds(3_300), id: 1, completedBytes: 2_000_000, totalBytes: 2_000_000, bytesPerSecond: 0,
                retries: 0),
            .state(
                time: .milliseconds(3_300), id: 1, from: .executing, to: .finished, outcome: .succeeded, message: nil),
            .state(time: .milliseconds(3_300), id: 2, from: .waiting, to: .ready, outcome: nil, message: nil),
        ])
        flush()
        record(core.shutdown(reason: "app shutting down"))
        return transcript
    }

    @Test func theDocumentedSessionIsWhatThePublisherSends() throws {
        let played = Self.playSession()
        let documented = try Self.documentedSession()
        #expect(documented == played, "docs/PROTOCOL.md differs; the session is:\n\(played.joined(separator: "\n"))")
    }

    @Test func aViewerRebuildsThePictureFromTheDocumentedLines() throws {
        var viewer = ViewerCore()
        for line in try Self.documentedSession() where line.hasPrefix("S: ") {
            _ = viewer.receive(Array(line.dropFirst(3).utf8))
        }
        let picture = viewer.builder.snapshot()
        #expect(viewer.lastSeq == 11)
        #expect(picture.counts == StateCounts(ready: 1, succeeded: 1))
        #expect(picture.maxConcurrentOperationCount == 4)
        #expect(picture.completedBytes == 2_000_000)
        #expect(picture.totalBytes == 2_000_000, "the thumbnail's 8 tiles are items, not bytes")
        #expect(picture.operation(id: 2)?.unit == .items)
        #expect(picture.operation(id: 2)?.dependencies == [1])
    }
}
