import Foundation
import OpsKit
import OpsKitTesting
import Synchronization
import Testing

/// `opsdash attach --headless tcp://…` against a hostile peer: its welcome names a FIFO as the
/// shared stream (never opened over TCP), then it stalls. SIGTERM still ends the viewer with
/// 143 and the summary.
@Suite(.ownThread) struct AttachStalledPeerTests {
    @Test func sigtermEndsAnAttachWhosePeerStalls() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "opsdash-stall-\(UUID().uuidString)"
        )
        .path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let trap = try TrapFIFO(in: directory)
        defer { trap.release() }
        let fifo = trap.path
        let tokenFile = directory + "/token"
        try Data("0123456789abcdef0123".utf8).write(to: URL(fileURLWithPath: tokenFile))
        chmod(tokenFile, 0o600)
        let (listener, port) = try ListeningPort.loopbackSocket(listening: true)
        defer { close(listener) }
        let lines = [
            #"{"event":"welcome","protocol":1,"app":"a","queue":"q","pid":7,"role":"observer","epoch":"e1","seq":2,"resumed":false,"heartbeat":2,"shm":"\#(fifo)"}"#,
            #"{"t":1.0,"event":"snapshot_begin","seq":2,"suspended":false,"limit":2,"waiting":0,"ready":1,"executing":0,"succeeded":0,"failed":0,"cancelled":0,"bytes":0,"total":100,"rate":0,"evicted":0,"operations":1,"log":0}"#,
            #"{"event":"snapshot_op","id":1,"op":"one","kind":"download","state":"ready","bytes":0,"total":100,"rate":0,"retries":0,"after":[],"added":0.5,"history":[{"t":0.5,"state":"ready"}]}"#,
            #"{"event":"snapshot_end","seq":2}"#,
        ]
        let stalled = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else { return }
            var byte: UInt8 = 0
            while read(connection, &byte, 1) == 1, byte != UInt8(ascii: "\n") {}
            let bytes = Array(lines.map { $0 + "\n" }.joined().utf8)
            _ = bytes.withUnsafeBytes { send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            stalled.wait()  // says nothing more, not even a heartbeat, until the test ends
            close(connection)
        }
        defer { stalled.signal() }
        // A viewer that never prints its first line (stuck in the FIFO) is killed, so the test
        // fails instead of hanging.
        let watchdog = Watchdog()
        DispatchQueue.global().asyncAfter(deadline: .now() + 30) { watchdog.fire() }
        let viewer = try HeadlessViewer(
            ["tcp://127.0.0.1:\(port)", "--token-file", tokenFile], environment: [:], started: watchdog.watch)
        watchdog.disarm()
        #expect(viewer.isAttached, "no line from the viewer: it blocked on the FIFO its peer named")
        viewer.process.terminate()  // SIGTERM
        let seen = viewer.finish()
        #expect(seen.status == 143, "\(seen.stderr)")
        #expect(seen.stdout.contains(#""event":"summary""#) && seen.stdout.contains(#""interrupted":true"#))
    }
}

/// Kills (SIGKILL: a stuck viewer may not heed SIGTERM) the process it watches when it fires
/// before it is disarmed.
private final class Watchdog: Sendable {
    private let pid = OpsMutex<pid_t?>(nil)

    func watch(_ process: Process) { pid.withLock { $0 = process.processIdentifier } }
    func disarm() { pid.withLock { $0 = nil } }
    func fire() {
        if let pid = pid.withLock({ $0 }) { kill(pid, SIGKILL) }
    }
}
