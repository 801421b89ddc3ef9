import OpsDashUI
import OpsWire
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

/// An attached dashboard sends a bulk cancel as `cancel_many` commands within the protocol's
/// limit of operations per command.
struct BulkCancelOutgoingTests {
    @Test func cancelManyGoesAsOneCommandPerLimitOfOperations() {
        #expect(
            RemoteSource.outgoing(.cancelMany(operationIDs: [12, 14, 15])) == [.cancelMany(operationIDs: [12, 14, 15])])
        let limit = RemoteProtocol.maximumCancelMany
        let many = Array(1...(2 * limit + 5))
        #expect(
            RemoteSource.outgoing(.cancelMany(operationIDs: many)) == [
                .cancelMany(operationIDs: Array(1...limit)),
                .cancelMany(operationIDs: Array((limit + 1)...(2 * limit))),
                .cancelMany(operationIDs: Array((2 * limit + 1)...(2 * limit + 5))),
            ])
        // Long ids: each command's ids fit a line.
        let long = Array(1_000_000_000_000..<1_000_000_010_000)
        let batches = RemoteSource.outgoing(.cancelMany(operationIDs: long))
        #expect(batches.count == 3)
        for case .cancelMany(let ids) in batches {
            #expect(ids.map { String($0).utf8.count + 1 }.reduce(0, +) < RemoteProtocol.maximumLineLength - 1_000)
        }
        let sent = batches.flatMap { batch -> [Int] in
            guard case .cancelMany(let ids) = batch else { return [] }
            return ids
        }
        #expect(sent == long)
        #expect(RemoteSource.outgoing(.cancelAll) == [.cancelAll])
        #expect(RemoteSource.outgoing(.setSuspended(true)) == [.setSuspended(true)])
    }
}
