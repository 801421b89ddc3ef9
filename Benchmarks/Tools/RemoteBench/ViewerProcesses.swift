import Foundation
import OpsKitRemote

/// Starts `count` viewer processes on `socket` and waits until the publisher counts them:
/// `RemoteViewer`s that decode every line as `opsdash attach` does, or with `raw`, readers that
/// only count lines (`runRawViewer`); `sharedMemory: false` keeps raw readers on the socket.
func spawnViewers(
    _ count: Int, socket: String, publisher: QueuePublisher, raw: Bool = false, sharedMemory: Bool = true
) -> [Process] {
    let processes = (0..<count).map { _ -> Process in
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
        process.arguments = [raw ? "--raw-viewer" : "--viewer", socket] + (sharedMemory ? [] : ["--socket-only"])
        process.standardOutput = FileHandle(forWritingAtPath: "/dev/null")
        try? process.run()
        return process
    }
    let deadline = ContinuousClock.now + .seconds(30)
    while (publisher.statistics()?.viewers ?? 0) < count, ContinuousClock.now < deadline {
        Thread.sleep(forTimeInterval: 0.01)
    }
    return processes
}

func reap(_ processes: [Process]) {
    for process in processes {
        let deadline = ContinuousClock.now + .seconds(30)
        while process.isRunning, ContinuousClock.now < deadline { Thread.sleep(forTimeInterval: 0.01) }
        if process.isRunning { process.terminate() }
    }
}
