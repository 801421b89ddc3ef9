import Foundation
import OpsKitPublisher
import OpsKitViewer

/// Starts `count` viewer processes on `socket` and waits until they are attached: `RemoteViewer`s
/// that decode every line as `opsdash attach` does, each until it has its first picture (it
/// says so on its stdout; a viewer still attaching when a measurement starts would charge the
/// app a snapshot of whatever the queue holds then), or with `raw`, readers that only count
/// lines (`runRawViewer`), until the publisher counts them; `sharedMemory: false` keeps raw
/// readers on the socket.
func spawnViewers(
    _ count: Int, socket: String, publisher: QueuePublisher, raw: Bool = false, sharedMemory: Bool = true
) -> [Process] {
    var pipes: [Pipe] = []
    let processes = (0..<count).map { _ -> Process in
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
        process.arguments = [raw ? "--raw-viewer" : "--viewer", socket] + (sharedMemory ? [] : ["--socket-only"])
        if raw {
            process.standardOutput = FileHandle(forWritingAtPath: "/dev/null")
        } else {
            let pipe = Pipe()
            pipes.append(pipe)
            process.standardOutput = pipe
        }
        try? process.run()
        return process
    }
    let deadline = ContinuousClock.now + .seconds(30)
    while (publisher.statistics()?.viewers ?? 0) < count, ContinuousClock.now < deadline {
        Thread.sleep(forTimeInterval: 0.01)
    }
    // A viewer the publisher never counted (refused, or ended) would leave the table measuring
    // fewer viewers than its row says.
    let attached = publisher.statistics()?.viewers ?? 0
    if attached < count {
        FileHandle.standardError.write(Data("RemoteBench: \(attached) of \(count) viewers attached in 30 s\n".utf8))
        for process in processes where process.isRunning { process.terminate() }
        exit(1)
    }
    // Each says "attached\n" (or ends: an empty read), within the same deadline: a viewer that
    // connected but never got its picture would otherwise hang the benchmark.
    for (index, pipe) in pipes.enumerated() where !isReadable(pipe, before: deadline) {
        FileHandle.standardError.write(
            Data("RemoteBench: viewer \(index + 1) of \(count) did not attach in 30 s\n".utf8))
        for process in processes where process.isRunning { process.terminate() }
        exit(1)
    }
    for pipe in pipes { _ = pipe.fileHandleForReading.availableData }
    return processes
}

/// Whether `pipe` has something to read (or has ended) before `deadline`.
private func isReadable(_ pipe: Pipe, before deadline: ContinuousClock.Instant) -> Bool {
    var entry = pollfd(fd: pipe.fileHandleForReading.fileDescriptor, events: Int16(POLLIN), revents: 0)
    while true {
        let left = deadline - ContinuousClock.now
        guard left > .zero else { return false }
        let ready = poll(&entry, 1, Int32(clamping: Int64((left / .milliseconds(1)).rounded(.up))))
        if ready > 0 { return true }
        if ready < 0, errno != EINTR { return true }  // let the read below report it
    }
}

func reap(_ processes: [Process]) {
    for process in processes {
        let deadline = ContinuousClock.now + .seconds(30)
        while process.isRunning, ContinuousClock.now < deadline { Thread.sleep(forTimeInterval: 0.01) }
        if process.isRunning { process.terminate() }
    }
}
