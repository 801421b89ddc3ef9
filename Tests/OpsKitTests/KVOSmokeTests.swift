import Foundation
import Synchronization
import OpsKitTesting
import Testing
@testable import OpsKit

@Test func downloadPublishesStateAndProgressOnManualClock() {
    let clock = ManualClock()
    let op = DownloadOperation(
        name: "a", plan: TransferPlan(totalBytes: 1000, bandwidth: 1000, chunkBytes: 500), clock: clock)
    let recorder = Recorder()
    let t1 = op.observe(\.isFinished, options: [.initial, .old, .new, .prior]) { _, c in
        recorder.add(
            "isFinished prior=\(c.isPrior) old=\(String(describing: c.oldValue)) new=\(String(describing: c.newValue))")
    }
    let t2 = op.observe(\.completedBytes, options: [.new]) { _, c in
        recorder.add("bytes \(c.newValue ?? -1) at \(clock.now)")
    }
    op.start()
    clock.advance(by: .seconds(2))
    #expect(op.isFinished)
    #expect(
        recorder.all == [
            "isFinished prior=false old=nil new=Optional(false)",
            "bytes 500 at 0.5 seconds",
            "bytes 1000 at 1.0 seconds",
            "isFinished prior=true old=Optional(false) new=nil",
            "isFinished prior=false old=Optional(false) new=Optional(true)",
        ])
    t1.invalidate(); _ = t2
}
