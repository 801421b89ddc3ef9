import OpsDashUI
import Testing

@testable import OpsDashLoop

@Suite struct LoopInboxTests {
    private func texts(_ actions: [Action]) -> [String] {
        actions.map { action in
            switch action {
            case .notice(let text): "notice \(text)"
            case .noticeExpired(let text): "expired \(text)"
            case .refused(let text, _): "refused \(text)"
            case .source(let status): "source \(status.label)"
            default: "other"
            }
        }
    }

    @Test func actionsAreTakenOnceInTheOrderSent() {
        let inbox = LoopInbox()
        inbox.send(.notice("a"))
        inbox.send(.refused("b"))
        #expect(texts(inbox.take(now: .now)) == ["notice a", "refused b"])
        #expect(inbox.take(now: .now).isEmpty)
    }

    @Test func anActionSentForLaterWaitsUntilItIsDue() {
        let inbox = LoopInbox()
        let start = ContinuousClock.now
        inbox.send(.noticeExpired("late"), at: start + .seconds(10))
        inbox.send(.noticeExpired("early"), at: start + .seconds(5))
        #expect(inbox.take(now: start + .seconds(4)).isEmpty)
        #expect(texts(inbox.take(now: start + .seconds(11))) == ["expired early", "expired late"])
        #expect(inbox.take(now: start + .seconds(20)).isEmpty)
    }

    @Test func onlyTheNewestLinkStateWaits() {
        let inbox = LoopInbox()
        inbox.send(.source(SourceStatus(label: "old", detail: "", link: .connecting)))
        inbox.send(.notice("n"))
        inbox.send(.source(SourceStatus(label: "new", detail: "", link: .connected)))
        #expect(texts(inbox.take(now: .now)) == ["notice n", "source new"])
    }

    @Test func aSenderThatOutpacesTheLoopKeepsOnlyTheNewest() {
        let inbox = LoopInbox()
        for number in 0..<(LoopInbox.limit + 10) { inbox.send(.notice("\(number)")) }
        let taken = texts(inbox.take(now: .now))
        #expect(taken.count == LoopInbox.limit)
        #expect(taken.first == "notice 10")
        #expect(taken.last == "notice \(LoopInbox.limit + 9)")
    }

    @Test func theFirstStopWins() {
        let inbox = LoopInbox()
        #expect(inbox.stopSignal == nil)
        inbox.stop(signal: 15)
        inbox.stop(signal: 2)
        #expect(inbox.stopSignal == 15)
    }
}
