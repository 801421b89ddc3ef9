import Foundation
import OpsKitTesting
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

@Suite(.ownThread) struct OutputPumpTests {
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

/// Into a pipe, the pump writes whole lines only: whenever the process ended, its reader would
/// have whole lines.
@Suite(.ownThread) struct WholeLineWriteTests {
    @Test func aPipeOnlyEverHoldsWholeLines() throws {
        let ends = try TestPipe()
        defer { close(ends.read) }
        let pump = OutputPump(descriptor: ends.write)
        // One big chunk (as a drain of thousands of events is), lines of many lengths, some
        // longer than PIPE_BUF.
        var text = ""
        for index in 0..<4_000 {
            let name = String(repeating: "n", count: index % 97 == 0 ? 9_000 : index % 131)
            text += "{\"line\":\(index),\"op\":\"\(name)\"}\n"
        }
        pump.write(text)
        pump.close()
        // Whatever the pipe holds at any moment is what a reader would keep if opsdash ended
        // then: read exactly that much each time, and it must end at a line's end.
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        var cutOff = 0
        while received.count < text.utf8.count {
            var queued: Int32 = 0
            guard ioctl(ends.read, UInt(FIONREAD), &queued) == 0 else { break }
            if queued == 0 {
                var ready = pollfd(fd: ends.read, events: Int16(POLLIN), revents: 0)
                _ = poll(&ready, 1, 10_000)
                continue
            }
            let count = buffer.withUnsafeMutableBytes { read(ends.read, $0.baseAddress, Int(queued)) }
            guard count > 0 else { break }
            received += buffer[0..<count]
            if received.last != 0x0A { cutOff += 1 }
        }
        #expect(cutOff == 0, "the pipe held the start of a line \(cutOff) times")
        #expect(String(decoding: received, as: UTF8.self) == text)
        close(ends.write)
    }

    @Test func piecesEndAfterANewlineAndFitAnAtomicWrite() {
        let text = Array("aaa\nbb\n\(String(repeating: "c", count: 10))\nd\nee".utf8)
        let ends = WholeLineWrites.pieceEnds(text, limit: 8)
        #expect(ends == [7, 18, 22])
        #expect(WholeLineWrites.pieceEnds([], limit: 8).isEmpty)
    }

    @Test func aStopBeforeTheRunStartedStillGetsASummary() throws {
        let ends = try TestPipe()
        defer {
            close(ends.read)
            close(ends.write)
        }
        HeadlessRunner.summaryBeforeStart(descriptor: ends.write, statusLine: false)(SIGINT)
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = buffer.withUnsafeMutableBytes { read(ends.read, $0.baseAddress, $0.count) }
        let line = String(decoding: buffer[0..<max(0, count)], as: UTF8.self)
        #expect(line.hasPrefix(#"{"t":0.000,"event":"summary","operations":0,"#))
        #expect(line.hasSuffix(#""interrupted":true}"# + "\n"))
    }
}
