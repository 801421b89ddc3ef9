// A batch of work in a Swift task group, with OpsDash added: at most 3 children run at once, and
// `opsdash attach` (in another terminal) shows each as a row, cancels one, pauses the rest or
// changes the width, until Ctrl-C or SIGTERM ends the app gracefully.
import Logging
import OpsKit
import OpsKitPublisher
import OpsMonitor
import ServiceLifecycle

/// The app's own work: renders `tiles` tiles, one every 0.3 s, reporting each; stops when cancelled.
func render(tiles: Int64, progress: ObservedTaskProgress) async throws -> Int64 {
    for tile in 1...tiles {
        try await Task.sleep(for: .milliseconds(300))
        progress.report(completed: tile, total: tiles)
    }
    return tiles
}

let queue = ObservableOperationQueue()
queue.maxConcurrentOperationCount = 3  // the group's width: `+` and `-` on the dashboard change it
let monitor = QueueMonitor(queue: queue)
var options = QueuePublisher.Options()
options.allowControl = true  // viewers may cancel a child, pause and change the width
let publisher = QueuePublisher(monitor: monitor, name: "thumbnails", options: options)
let batch = Task {
    let tiles = try await withObservedTaskGroup(of: Int64.self, on: queue) { group in
        for photo in 1...12 {
            group.addTask(name: "render photo-\(photo).jpg") { progress in
                try await render(tiles: 20, progress: progress)
            }
        }
        var tiles: Int64 = 0
        // nextResult() carries on past a child cancelled from the dashboard (CancellationError).
        while let result = await group.nextResult() { tiles += (try? result.get()) ?? 0 }
        return tiles
    }
    print("rendered \(tiles) tiles")
}
// Publishes until SIGTERM or SIGINT; then says bye to viewers and removes its socket.
let services = ServiceGroup(
    services: [publisher], gracefulShutdownSignals: [.sigterm, .sigint], logger: Logger(label: "task-group"))
try await services.run()
batch.cancel()  // cancels every child still running or waiting
_ = await batch.result
