import Foundation
import OpsKitTesting
import OpsWire
import Testing
@_spi(OpsDashInternals) @testable import OpsKitPublisher
@_spi(OpsDashInternals) @testable import OpsKitViewer

/// A `shm` path in a peer's welcome is hostile: a viewer never blocks on it, never opens one a
/// TCP peer names, and maps only a regular file of its own uid.
@Suite(.ownThread, .timeLimit(.minutes(1))) struct HostileSharedStreamTests {
    private static func temporaryDirectory() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("opsdash-shm-\(UUID().uuidString)")
            .path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        chmod(path, 0o700)
        return path
    }

    private static func welcome(naming path: String) -> String {
        #"{"event":"welcome","protocol":1,"app":"a","queue":"q","pid":7,"role":"observer","epoch":"e1","seq":0,"resumed":false,"shm":"#
            + "\"\(path)\"}"
    }

    /// A viewer of a fake publisher whose welcome names a FIFO, then says bye: the viewer reads
    /// the bye and ends, instead of hanging in `open`.
    private func viewerReadsByeAfterAFIFO(unix: Bool) throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let trap = try TrapFIFO(in: directory)
        defer { trap.release() }
        let fifo = trap.path
        let publisher = try FakePublisher(
            unixIn: unix ? directory : nil,
            lines: [Self.welcome(naming: fifo), #"{"event":"bye","reason":"app shutting down"}"#])
        let viewer = RemoteViewer(target: publisher.target, token: unix ? nil : "t", reconnect: false)
        #expect(viewer.start() == nil)
        let ended = viewer.waitUntilFinished(timeout: .seconds(20))
        #expect(ended, "the viewer blocked on the FIFO its peer named")
        #expect(viewer.endReason.bye, "\(viewer.endReason)")
        #expect(viewer.endReason.reason == "app shutting down")
        #expect(!viewer.readsSharedStream)
        viewer.stop()
        publisher.waitUntilDone()
    }

    @Test func aFIFONamedOverTCPIsNeverOpened() throws {
        try viewerReadsByeAfterAFIFO(unix: false)
    }

    @Test func aFIFONamedOverAUnixSocketDoesNotBlock() throws {
        try viewerReadsByeAfterAFIFO(unix: true)
    }

    @Test func aFIFOOrADirectoryIsNotMapped() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let fifo = directory + "/stream.fifo"
        #expect(mkfifo(fifo, 0o600) == 0)
        #expect(SharedRingReader(path: fifo) == nil)
        #expect(SharedRingReader(path: directory) == nil)
        #expect(SharedRingReader(path: "/dev/null") == nil)
    }

    @Test func aStreamOfAnotherUidIsRefusedAndOneOfOursMapped() throws {
        let writer = try #require(SharedRingWriter(capacity: 64 * 1_024))
        // A copy of the stream in an ordinary file: mapped while it is ours.
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let copy = directory + "/stream"
        let source = try Data(contentsOf: URL(fileURLWithPath: writer.path))
        try source.write(to: URL(fileURLWithPath: copy))
        #expect(SharedRingReader(path: copy) != nil, "a regular file of ours, of a stream's size")
        var info = stat()
        #expect(stat(copy, &info) == 0)
        #expect(SharedRingReader.isStream(info, owner: geteuid()))
        #expect(!SharedRingReader.isStream(info, owner: geteuid() &+ 1), "another uid's file is refused")
        guard geteuid() == 0 else { return }
        #expect(chown(copy, 65_534, 65_534) == 0)
        #expect(SharedRingReader(path: copy) == nil, "owned by uid 65534: refused")
    }

    @Test func aFileOfTheWrongSizeIsRefused() throws {
        var info = stat()
        info.st_mode = S_IFREG | 0o600
        info.st_uid = geteuid()
        info.st_size = off_t(SharedRingLayout.headerBytes)
        #expect(!SharedRingReader.isStream(info, owner: geteuid()), "header only")
        info.st_size = off_t(SharedRingReader.maximumLength + 1)
        #expect(!SharedRingReader.isStream(info, owner: geteuid()), "too large")
        info.st_size = off_t(SharedRingLayout.headerBytes + 4_096)
        #expect(SharedRingReader.isStream(info, owner: geteuid()))
    }
}
