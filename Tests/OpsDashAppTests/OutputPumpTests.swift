import Foundation
import Testing

@testable import OpsDashApp

/// A pipe whose ends the test owns.
private struct TestPipe {
    let read: Int32
    let write: Int32

    init() throws {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { throw CocoaError(.fileWriteUnknown) }
        read = ends[0]
        write = ends[1]
    }
}

@Suite struct OutputPumpTests {
    @Test func aReaderThatWentAwayIsABrokenPipe() throws {
        signal(SIGPIPE, SIG_IGN)  // as opsdash does: EPIPE from write instead of dying
        let ends = try TestPipe()
        close(ends.read)
        defer { close(ends.write) }
        let pump = OutputPump(descriptor: ends.write)
        pump.write("{\"event\":\"added\"}\n")
        #expect(pump.waitUntilWritten(before: Date(timeIntervalSinceNow: 10)))
        #expect(pump.failure == .brokenPipe)
        pump.write("more\n")  // dropped after a failure
        #expect(pump.pendingBytes == 0)
        pump.close()
    }

    @Test func aNonBlockingPipeGetsEverythingInOrder() throws {
        let ends = try TestPipe()
        defer { close(ends.read) }
        #expect(fcntl(ends.write, F_SETFL, fcntl(ends.write, F_GETFL) | O_NONBLOCK) == 0)
        let pump = OutputPump(descriptor: ends.write)
        let lines = (0..<20_000).map { "{\"line\":\($0)}\n" }
        for line in lines { pump.write(line) }
        pump.close()
        // More than a pipe holds: the writer met EAGAIN before the first read.
        #expect(pump.pendingBytes > 65_536)
        var received = Data()
        var buffer = [UInt8](repeating: 0, count: 65_536)
        let expected = lines.reduce(0) { $0 + $1.utf8.count }
        while received.count < expected {
            let count = buffer.withUnsafeMutableBytes { read(ends.read, $0.baseAddress, $0.count) }
            guard count > 0 else { break }
            received.append(contentsOf: buffer[0..<count])
        }
        #expect(pump.waitUntilWritten(before: Date(timeIntervalSinceNow: 10)))
        #expect(pump.failure == nil)
        #expect(String(decoding: received, as: UTF8.self) == lines.joined())
        close(ends.write)
    }
}
