import OpsDashUI
import Testing

@testable import OpsDashApp

/// Commands to an attached app: paced below its line limit, merged while they wait.
struct CommandOutboxTests {
    let start = ContinuousClock.now

    @Test func aBurstGoesAtOnceThenTenASecond() {
        var outbox = CommandOutbox(now: start)
        for id in 1...25 { outbox.add(.cancel(operationID: id)) }
        #expect(outbox.take(now: start) == (1...10).map { .cancel(operationID: $0) })
        #expect(outbox.take(now: start + .milliseconds(50)) == [])
        #expect(outbox.take(now: start + .milliseconds(100)) == [.cancel(operationID: 11)])
        #expect(outbox.take(now: start + .milliseconds(600)).count == 5)
        #expect(outbox.take(now: start + .seconds(60)).count == 9)
        #expect(outbox.waiting.isEmpty)
    }

    /// The app's default limit is 20 lines a second with a burst of 40; a key held down for a
    /// minute never sends more than the outbox allows, whatever the key rate.
    @Test func neverMoreThanTheAppAllows() {
        var outbox = CommandOutbox(now: start)
        var sentInLastSecond: [ContinuousClock.Instant] = []
        var limit = 4
        for frame in 0..<(60 * 30) {  // 30 key presses and one frame every 1/30 s
            let now = start + .milliseconds(frame * 1000 / 30)
            limit += 1
            outbox.add(.setMaxConcurrentOperationCount(limit))
            for _ in outbox.take(now: now) { sentInLastSecond.append(now) }
            sentInLastSecond.removeAll { now - $0 >= .seconds(1) }
            #expect(sentInLastSecond.count <= 20)
        }
        // Nothing is lost: the last limit asked for goes once the allowance comes back.
        let last = outbox.take(now: start + .seconds(61))
        #expect(last.isEmpty || last == [.setMaxConcurrentOperationCount(limit)])
        #expect(outbox.waiting.isEmpty)
    }

    @Test func theLastLimitAndTheLastPauseOrResumeWin() {
        var outbox = CommandOutbox(now: start)
        for _ in 0..<10 { outbox.add(.cancel(operationID: 99)) }
        outbox.add(.setMaxConcurrentOperationCount(5))
        outbox.add(.setSuspended(true))
        outbox.add(.setMaxConcurrentOperationCount(6))
        outbox.add(.setSuspended(false))
        outbox.add(.setMaxConcurrentOperationCount(7))
        #expect(outbox.waiting == [.cancel(operationID: 99), .setSuspended(false), .setMaxConcurrentOperationCount(7)])
    }

    @Test func cancelAllMakesWaitingCancelsRedundant() {
        var outbox = CommandOutbox(now: start)
        outbox.add(.cancel(operationID: 1))
        outbox.add(.setMaxConcurrentOperationCount(3))
        outbox.add(.cancelAll)
        outbox.add(.cancel(operationID: 2))
        outbox.add(.cancelAll)
        #expect(outbox.waiting == [.setMaxConcurrentOperationCount(3), .cancelAll])
        outbox.clear()
        #expect(outbox.take(now: start) == [])
    }
}

/// An attached dashboard sends a bulk cancel as one cancel per operation, each audited by the app.
struct BulkCancelOutgoingTests {
    @Test func cancelManyGoesAsSingleCancels() {
        #expect(
            RemoteSource.outgoing(.cancelMany(operationIDs: [12, 14, 15]))
                == [.cancel(operationID: 12), .cancel(operationID: 14), .cancel(operationID: 15)])
        #expect(RemoteSource.outgoing(.cancelAll) == [.cancelAll])
        #expect(RemoteSource.outgoing(.setSuspended(true)) == [.setSuspended(true)])
    }
}
