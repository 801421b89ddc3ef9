import Testing

@testable import OpsMonitor

/// `QueueHistory.stitched`: pieces of history (a recording's keyframes) make one longer one,
/// the newest piece winning where they overlap, a gap between them quiet at the levels before.
@Suite struct QueueHistoryStitchingTests {
    static func piece(window: Int, succeededAt seconds: [Int64], runningAt running: Int, until end: Int64)
        -> QueueHistory
    {
        var history = QueueHistory(window: window)
        for second in seconds {
            history.record(at: .seconds(second), finished: .succeeded, running: running, waiting: 0)
        }
        history.record(at: .seconds(end), running: running, waiting: 0)
        return history
    }

    @Test func overlappingPiecesMakeOneHistoryAndTheNewestWins() {
        let old = Self.piece(window: 10, succeededAt: [1, 3], runningAt: 2, until: 9)
        let new = Self.piece(window: 10, succeededAt: [12], runningAt: 5, until: 15)
        let whole = QueueHistory.stitched([new, old], window: 100)
        #expect(whole.window == 100)
        let succeeded = whole.values(.succeeded, endingAt: .seconds(15), count: 100)
        #expect(succeeded == [1, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0], "seconds 1 to 15")
        #expect(whole.values(.running, endingAt: .seconds(15), count: 100).last == 5)
    }

    @Test func aGapRepeatsTheLevelsBeforeItAndTheWindowKeepsTheNewest() {
        let old = Self.piece(window: 3, succeededAt: [2], runningAt: 4, until: 3)
        let new = Self.piece(window: 3, succeededAt: [10], runningAt: 1, until: 10)
        let whole = QueueHistory.stitched([old, new], window: 100)
        #expect(whole.values(.succeeded, endingAt: .seconds(10), count: 100) == [1, 0, 0, 0, 0, 0, 0, 0, 1])
        #expect(whole.values(.running, endingAt: .seconds(10), count: 100) == [4, 4, 4, 4, 4, 4, 4, 4, 1])
        let short = QueueHistory.stitched([old, new], window: 4)
        // Seconds 7 to 9: no piece holds them nor anything before them in the window.
        #expect(short.values(.succeeded, endingAt: .seconds(10), count: 100) == [1])
        #expect(QueueHistory.stitched([], window: 10).isEmpty)
    }
}
