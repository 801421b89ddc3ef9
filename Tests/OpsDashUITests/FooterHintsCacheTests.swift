import OpsMonitor
import Testing

@testable import OpsDashUI

/// The footer's hints kept in the render cache (`RenderCache.footerHints`) are those made for
/// the state at hand: one cache meets a seeded sequence of states that change, one at a time
/// or several at once, everything the hints follow (pause, sort, opened from the fleet,
/// glyphs, a read-only or replay source) and what replaces them (a message), and each footer
/// equals the one made without a cache.
@Suite struct FooterHintsCacheTests {
    @Test func cachedHintsAreTheHintsOfTheStateAtHand() {
        let cache = RenderCache()
        let sources: [SourceStatus?] = [
            nil,
            SourceStatus(label: "app/queue", detail: "connected", link: .connected),
            SourceStatus(label: "app/queue", detail: "connected (read-only)", link: .connected, isReadOnly: true),
            SourceStatus(label: "run.opsrec", detail: "", link: .connected, isReplay: true),
        ]
        var state = DashboardState(width: 80, height: 24)
        var seed: UInt64 = 28
        func next(_ bound: Int) -> Int {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((seed >> 33) % UInt64(bound))
        }
        var kinds = Set<Int>()
        for step in 0..<600 {
            // Mostly one change at a time (the cache's key must tell each apart), sometimes none.
            for _ in 0..<(1 + next(2)) {
                let change = next(7)
                kinds.insert(change)
                switch change {
                case 0: state.snapshot = QueueSnapshot(isSuspended: !state.snapshot.isSuspended)
                case 1: state.sort = SortOrder.allCases[next(SortOrder.allCases.count)]
                case 2: state.openedFromFleet.toggle()
                case 3: state.glyphs = state.glyphs == .unicode ? .ascii : .unicode
                case 4: state.source = sources[next(sources.count)]
                case 5: state.message = state.message == nil ? "nothing selected to cancel" : nil
                default: break
                }
            }
            let cached = FooterView(state, cache: cache)
            #expect(cached == FooterView(state), "step \(step)")
        }
        #expect(kinds.count == 7)
    }

    @Test func theWordsFollowThePauseTheSortAndTheFleet() {
        func words(_ state: DashboardState) -> [String] {
            guard case .hints(let hints) = FooterView(state, cache: RenderCache()).content else { return [] }
            return hints.map(\.word)
        }
        var state = DashboardState(width: 80, height: 24)
        #expect(words(state).contains("pause") && words(state).contains("quit") && words(state).contains("sort:id"))
        state.snapshot = QueueSnapshot(isSuspended: true)
        state.sort = .state
        state.openedFromFleet = true
        #expect(words(state).contains("resume") && words(state).contains("back") && words(state).contains("sort:state"))
    }

    @Test func anEqualKeyGivesTheSameArray() {
        // What the frame saves: the footer's key compares the kept array by its storage.
        let cache = RenderCache()
        let state = DashboardState(width: 80, height: 24)
        let first = cache.footerHints(FooterView.HintsKey(state))
        let second = cache.footerHints(FooterView.HintsKey(state))
        first.withUnsafeBufferPointer { mine in
            second.withUnsafeBufferPointer { theirs in #expect(mine.baseAddress == theirs.baseAddress) }
        }
    }
}
