import Foundation
import OpsKitTesting
import Testing

/// Runs `script` with bash (`$0` is the opsdash binary, `$1`… the `arguments`); its stdout,
/// stderr and status.
func runBash(_ script: String, binary: String, _ arguments: String...) throws -> ProcessResult {
    let (process, out, err) = try startProcess(
        executableOnPath("bash") ?? "/bin/bash", ["-c", script, binary] + arguments)
    let errData = ReadAll(err.fileHandleForReading)
    let outData = out.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return ProcessResult(
        status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
        stderr: String(decoding: errData.wait(), as: UTF8.self))
}

/// Bytes waiting in a pipe (FIONREAD).
func bytesWaiting(in fd: Int32) -> Int {
    var count: Int32 = 0
    return ioctl(fd, UInt(FIONREAD), &count) == 0 ? Int(count) : -1
}

/// Waits until the pipe read by `fd` is full to within a page (its writer can't go on), or 20 s.
func waitUntilFull(_ fd: Int32) -> Bool {
    let getPipeSize: Int32 = 1032  // F_GETPIPE_SZ (Linux), which Glibc doesn't export to Swift
    let capacity = Int(fcntl(fd, getPipeSize))
    let deadline = ContinuousClock.now + .seconds(20)
    while bytesWaiting(in: fd) < capacity - 4096 {
        if ContinuousClock.now >= deadline { return false }
        Thread.sleep(forTimeInterval: 0.01)
    }
    return true
}

/// What headless mode does when its output can't be written as fast as it comes, or at all.
@Suite(.ownThread) struct HeadlessOutputTests {
    @Test(arguments: OpsdashBuild.allCases)
    func aReaderThatGoesAwayEndsTheRunAtOnceQuietlyWith141(_ build: OpsdashBuild) throws {
        let binary = try build.binary()  // the release build happens on first use: not timed
        let started = ContinuousClock.now
        // `pipeline` takes about 22 s at --speed 1: ending long before that means it stopped.
        let result = try runBash(
            #""$0" --headless --scenario pipeline | head -1 > /dev/null; echo "${PIPESTATUS[0]}""#,
            binary: binary)
        #expect(result.stdout == "141\n")
        #expect(result.stderr == "")
        #expect(ContinuousClock.now - started < .seconds(15))
    }

    @Test func aFullDiskIsReportedOnceAndExitsThree() throws {
        let result = try runBash(
            #""$0" --headless --scenario burst --speed 1000 > /dev/full; echo "$?""#,
            binary: try OpsdashBuild.debug.binary())
        #expect(result.stdout == "3\n")
        #expect(result.stderr == "opsdash: cannot write the event stream to standard output: No space left on device\n")
    }

    /// Listings and help answer on stdout: a write that fails is said as headless output's is.
    @Test func aListingOrHelpThatCannotBeWrittenExitsThree() throws {
        let cases = [
            ("--list-scenarios", "the scenario list"), ("help", "the help"), ("--help", "the help"),
            ("replay --help", "the help"),
            ("attach --list", "the list of published queues"),
        ]
        for (arguments, what) in cases {
            for (redirect, reason) in [("> /dev/full", "No space left on device"), (">&-", "Bad file descriptor")] {
                let result = try runBash(
                    "XDG_RUNTIME_DIR=$(mktemp -d) \"$0\" \(arguments) \(redirect); echo \"$?\"",
                    binary: try OpsdashBuild.debug.binary())
                #expect(result.stdout == "3\n", "\(arguments) \(redirect)")
                #expect(result.stderr == "opsdash: cannot write \(what) to standard output: \(reason)\n")
            }
        }
    }

    @Test func aClosedStdoutIsReportedOnceAndExitsThree() throws {
        let result = try runBash(
            #""$0" --headless --scenario mixed --speed 1000 >&-; echo "$?""#, binary: try OpsdashBuild.debug.binary())
        #expect(result.stdout == "3\n")
        #expect(result.stderr == "opsdash: cannot write the event stream to standard output: Bad file descriptor\n")
    }

    @Test func aNonBlockingPipeLosesNothing() throws {
        let pipe = Pipe()
        let writeEnd = pipe.fileHandleForWriting.fileDescriptor
        #expect(fcntl(writeEnd, F_SETFL, fcntl(writeEnd, F_GETFL) | O_NONBLOCK) == 0)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try OpsdashBuild.debug.binary())
        process.arguments = ["--headless", "--scenario", "burst", "--speed", "1000", "--seed", "3"]
        process.standardOutput = pipe
        let err = Pipe()
        process.standardError = err
        process.standardInput = FileHandle(forReadingAtPath: "/dev/null")
        try process.run()
        try pipe.fileHandleForWriting.close()
        let errData = ReadAll(err.fileHandleForReading)
        // The first lines alone (10,000 `added`) overflow the pipe: the writer meets EAGAIN.
        #expect(waitUntilFull(pipe.fileHandleForReading.fileDescriptor))
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        var checker = EventStreamChecker(limit: 32)
        checker.check(String(decoding: output, as: UTF8.self))
        #expect(checker.problems.prefix(10) == [])
        #expect(checker.outcomes.count == 10_000)
        #expect(String(decoding: errData.wait(), as: UTF8.self) == "")
        #expect(process.terminationStatus == (checker.outcomes.values.allSatisfy { $0 == "succeeded" } ? 0 : 1))
    }

    @Test(arguments: OpsdashBuild.allCases, [SIGTERM, SIGINT])
    func stopSignalsWorkWhileTheReaderIsStalled(_ build: OpsdashBuild, _ signal: Int32) throws {
        let pipe = Pipe()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try build.binary())
        process.arguments = ["--headless", "--scenario", "burst", "--speed", "1000"]
        process.standardOutput = pipe
        process.standardError = FileHandle(forWritingAtPath: "/dev/null")
        process.standardInput = FileHandle(forReadingAtPath: "/dev/null")
        try process.run()
        try pipe.fileHandleForWriting.close()
        defer { if process.isRunning { process.terminate() } }
        #expect(waitUntilFull(pipe.fileHandleForReading.fileDescriptor), "the output never stalled")
        #expect(kill(process.processIdentifier, signal) == 0)
        #expect(waitForEnd(of: process.processIdentifier, timeout: .seconds(5)), "still running, reader stalled")
        if !process.isRunning || waitForEnd(of: process.processIdentifier, timeout: .zero) {
            process.waitUntilExit()
            #expect(process.terminationStatus == 128 + signal)
        }
    }
}
