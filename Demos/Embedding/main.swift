// An app that ran its work on a plain OperationQueue, with OpsDash added: `opsdash attach` (in
// another terminal) watches its operations until Ctrl-C or SIGTERM ends it gracefully.
import Foundation
import Logging
import OpsKit
import OpsKitPublisher
import OpsMonitor
import ServiceLifecycle

/// The app's own download, unchanged: it reports through Foundation's `Progress`.
final class FetchOperation: Operation, ProgressReporting, @unchecked Sendable {
    let progress = Progress(totalUnitCount: 4_000_000)
    override init() {
        super.init()
        progress.kind = .file  // bytes, shown as ↓ download
        progress.setUserInfoObject(Progress.FileOperationKind.downloading, forKey: .fileOperationKindKey)
    }
    override func main() {
        while progress.completedUnitCount < progress.totalUnitCount && !isCancelled {
            Thread.sleep(forTimeInterval: 0.5)  // a 100 kB chunk arrives
            progress.completedUnitCount += 100_000
        }
    }
}

let queue = ObservableOperationQueue()  // was: OperationQueue()
let monitor = QueueMonitor(queue: queue)
let publisher = QueuePublisher(monitor: monitor, name: "work")
let fetch = FetchOperation()
fetch.name = "fetch"
let warm = BlockOperation { print("cache warmed") }
warm.name = "warm-cache"
let notify = BlockOperation { print("fetched") }
notify.name = "notify"
notify.addDependency(fetch)
queue.addOperations([fetch, warm, notify], waitUntilFinished: false)
// Publishes until SIGTERM or SIGINT; then says bye to viewers and removes its socket.
let services = ServiceGroup(
    services: [publisher], gracefulShutdownSignals: [.sigterm, .sigint], logger: Logger(label: "embedding"))
try await services.run()
queue.cancelAllOperations()
queue.waitUntilAllOperationsAreFinished()
