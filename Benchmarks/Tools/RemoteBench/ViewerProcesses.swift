import Foundation
import OpsKitRemote

/// Starts `count` viewer processes on `socket` and waits until the publisher counts them.
func spawnViewers(_ count: Int, socket: String, publisher: QueuePublisher) -> [Process] {
    let processes = (0..<count).map { _ -> Process in
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
        process.arguments = ["--viewer", socket]
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
