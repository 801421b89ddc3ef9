import NIOCore
import OpsMonitor
@testable import OpsWire
import Testing
@_spi(OpsDashInternals) @testable import OpsKitPublisher
@_spi(OpsDashInternals) @testable import OpsKitViewer

/// The publisher core with a shared-memory stream: a local viewer that asks for it is told where
/// to read, gets its deltas there (byte for byte what a socket viewer is sent) and only
/// heartbeats on its socket; a snapshot re-announces the position; TCP viewers are not offered it.
@Suite struct SharedStreamCoreTests {
    /// A harness with a stream; viewer 1 reads the stream, viewer 2 its socket.
    static func streaming(_ configuration: PublisherCore.Configuration = .init()) throws -> (
        CoreHarness, SharedRingReader
    ) {
        let writer = try #require(SharedRingWriter(capacity: 1 << 16))
        var harness = CoreHarness(configuration: configuration, sharedRing: writer)
        harness.publish(Sample.added(1))
        harness.startStreaming(1)
        harness.startStreaming(2)
        return (harness, try #require(SharedRingReader(path: writer.path)))
    }

    static func readAll(_ reader: SharedRingReader, from position: UInt64) -> [String] {
        var at = position
        var bytes: [UInt8] = []
        while case .bytes = reader.read(from: &at, into: &bytes) {}
        return CoreHarness.split([ByteBuffer(bytes: bytes)])
    }

    @Test func aLocalViewerReadsItsDeltasFromTheStream() throws {
        var (harness, reader) = try Self.streaming()
        let welcome = try #require(harness.lines(1).first)
        #expect(welcome.contains(#","shm":"/proc/"#), "the welcome offers the stream: \(welcome)")
        _ = harness.lines(2)
        harness.say(1, #"{"cmd":"shm"}"#)
        harness.flush()
        #expect(harness.lines(1) == [#"{"event":"shm","position":0,"seq":2}"# + "\n"])
        harness.publish([Sample.progress(1, 10, at: .seconds(1)), Sample.progress(1, 20, at: .seconds(1))])
        harness.publish(Sample.added(2, at: .seconds(1)))
        harness.flush()
        let overSocket = harness.lines(2)
        #expect(overSocket.count == 4)
        #expect(harness.lines(1).isEmpty, "nothing numbered goes over the stream viewer's socket")
        #expect(Self.readAll(reader, from: 0) == overSocket, "the stream holds exactly the socket's lines")
        #expect(harness.core.deltasWaiting == 0, "a stream viewer is never waited for")
        harness.now = .seconds(2)
        harness.flush()
        #expect(harness.lines(1).map { $0.contains(#""event":"heartbeat","seq":6"#) } == [true])
    }

    @Test func deltasNotSentYetAreReadFromTheStream() throws {
        var (harness, reader) = try Self.streaming()
        _ = harness.lines(1)
        harness.publish(Sample.added(2, at: .seconds(1)))
        harness.say(1, #"{"cmd":"shm"}"#)
        harness.flush()
        #expect(harness.lines(1) == [#"{"event":"shm","position":0,"seq":2}"# + "\n"])
        #expect(Self.readAll(reader, from: 0).map { $0.hasSuffix(#""seq":3}"# + "\n") } == [true, false])
    }

    @Test func aSnapshotAfterAResyncSaysWhereTheStreamGoesOn() throws {
        var (harness, reader) = try Self.streaming()
        harness.say(1, #"{"cmd":"shm"}"#)
        harness.flush()
        harness.publish([Sample.progress(1, 10, at: .seconds(1))])
        _ = harness.lines(1)
        harness.say(1, #"{"cmd":"resync"}"#)
        #expect(harness.lines(1) == [#"{"event":"resync","reason":"asked","seq":3}"# + "\n"])
        harness.publish([], snapshot: QueueSnapshot())
        harness.flush()
        let lines = harness.lines(1)
        #expect(lines.first?.contains(#""event":"snapshot_begin","seq":3"#) == true)
        let position = try #require(reader.end > 0 ? reader.end : nil)
        #expect(lines.last == #"{"event":"shm","position":\#(position),"seq":3}"# + "\n")
    }

    @Test func aSnapshotGoesThroughTheStreamToViewersThatAskedForThat() throws {
        var (harness, reader) = try Self.streaming()
        harness.say(1, #"{"cmd":"shm","snapshots":true}"#)
        harness.say(2, #"{"cmd":"shm"}"#)
        harness.flush()
        _ = (harness.lines(1), harness.lines(2))
        harness.say(1, #"{"cmd":"resync"}"#)
        harness.say(2, #"{"cmd":"resync"}"#)
        _ = (harness.lines(1), harness.lines(2))
        let start = reader.end
        harness.publish([], snapshot: QueueSnapshot())
        harness.flush()
        #expect(
            harness.lines(1) == [#"{"event":"shm","position":\#(start),"seq":2,"snapshot":true}"# + "\n"],
            "no snapshot over the socket, only where it starts")
        let overSocket = harness.lines(2)
        #expect(overSocket.first?.contains(#""event":"snapshot_begin","seq":2"#) == true, "\(overSocket)")
        harness.publish(Sample.added(2, at: .seconds(1)))
        let stream = Self.readAll(reader, from: start)
        let snapshot = overSocket.filter { $0.contains("snapshot_") }
        #expect(Array(stream.prefix(snapshot.count)) == snapshot, "the same snapshot, once, in the stream")
        #expect(stream.dropFirst(snapshot.count).map { $0.hasSuffix(#""seq":3}"# + "\n") } == [true, false])
    }

    /// A picture of queued operations whose keyframe takes at least `bytes`.
    static func picture(ofAtLeast bytes: Int) -> QueueSnapshot {
        var store = MonitorStore()
        var count = 0
        while KeyframeEncoder.bytes(store.snapshot(time: .zero), seq: 2).count < bytes {
            _ = store.add(
                name: "op \(count)", kind: .download, lifecycle: .ready, totalBytes: 100, dependencies: [],
                time: .zero)
            count += 1
        }
        return store.snapshot(time: .zero)
    }

    @Test func aSnapshotOfUpToThreeQuartersOfTheStreamGoesThroughIt() throws {
        var (harness, _) = try Self.streaming()  // a 64 KiB stream
        harness.say(1, #"{"cmd":"shm","snapshots":true}"#)
        harness.flush()
        _ = harness.lines(1)
        for (size, inStream) in [(40 << 10, true), (50 << 10, false)] {
            harness.say(1, #"{"cmd":"resync"}"#)
            _ = harness.lines(1)
            harness.publish([], snapshot: Self.picture(ofAtLeast: size))
            harness.flush()
            let lines = harness.lines(1)
            #expect(
                lines.contains { $0.contains(#""snapshot":true"#) } == inStream,
                "\(size >> 10) KiB: \(lines.count) lines over the socket")
            #expect(lines.contains { $0.contains(#""event":"snapshot_begin""#) } == !inStream)
        }
    }

    @Test func aViewerThatAskedForTheStreamDuringABurstGetsItsSnapshotThere() throws {
        var (harness, reader) = try Self.streaming()
        harness.core.beginBurst(dropping: [], monitorTime: .seconds(1))
        harness.say(1, #"{"cmd":"shm","snapshots":true}"#)
        harness.flush()
        _ = harness.lines(1)
        let start = reader.end
        harness.core.endBurst(snapshot: QueueSnapshot())
        harness.flush()
        let lines = harness.lines(1)
        #expect(lines.count == 1, "no snapshot over the socket: \(lines)")
        #expect(lines.last == #"{"event":"shm","position":\#(start),"seq":2,"snapshot":true}"# + "\n")
        harness.publish(Sample.added(2, at: .seconds(2)))
        harness.flush()
        #expect(harness.lines(1).isEmpty, "its deltas come from the stream")
        #expect(Self.readAll(reader, from: start).last?.hasSuffix(#""seq":4}"# + "\n") == true)
    }

    @Test func ringTurnoverIsNoLagForAStreamViewer() throws {
        var configuration = PublisherCore.Configuration()
        configuration.ringCapacity = 4
        var (harness, _) = try Self.streaming(configuration)
        harness.say(1, #"{"cmd":"shm"}"#)
        harness.flush()
        _ = harness.lines(1)
        _ = harness.lines(2)
        for second in 1...10 { harness.publish([Sample.progress(1, Int64(second), at: .seconds(second))]) }
        harness.flush()
        #expect(harness.lines(1).isEmpty, "the stream viewer reads from the stream, not the ring")
        #expect(harness.lines(2).first?.contains(#""event":"resync","reason":"lagged""#) == true)
    }

    @Test func tcpViewersAreNotOfferedTheStream() throws {
        let writer = try #require(SharedRingWriter(capacity: 4_096))
        var harness = CoreHarness(access: .init(readToken: "r"), sharedRing: writer)
        harness.connect(1, peer: .network(address: "127.0.0.1:5000"))
        harness.say(1, #"{"cmd":"hello","min":1,"max":1,"token":"r"}"#)
        #expect(harness.lines(1).first?.contains("shm") == false)
        harness.say(1, #"{"cmd":"shm","id":7}"#)
        #expect(
            harness.lines(1) == [
                #"{"event":"reply","id":7,"ok":false,"error":"bad_argument","message":"no shared-memory stream for this connection"}"#
                    + "\n"
            ])
        var plain = CoreHarness()
        plain.startStreaming(1)
        #expect(plain.lines(1).first?.contains("shm") == false, "no stream, no offer")
    }
}
