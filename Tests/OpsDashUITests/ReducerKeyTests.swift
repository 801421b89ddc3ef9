import OpsDashUI
import OpsMonitor
import Testing

@Suite struct ReducerKeyTests {
    @Test func qQuits() {
        var state = Fixtures.state(Fixtures.midRun())
        #expect(state.press(.character("q")) == [.quit])
    }

    @Test func arrowsAndVimKeysMoveTheSelection() {
        var state = Fixtures.state(Fixtures.midRun())
        #expect(state.selectedID == 1)
        state.press(.down)
        #expect(state.selectedID == 2)
        state.press(.character("j"), .character("j"))
        #expect(state.selectedID == 4)
        state.press(.up)
        #expect(state.selectedID == 3)
        state.press(.character("k"), .character("k"), .character("k"))
        #expect(state.selectedID == 1)
    }

    @Test func pageKeysMoveByTheVisibleRowsAndHomeEndJump() {
        var state = Fixtures.state(Fixtures.plain(100), width: 80, height: 20)
        let page = Layout(state).visibleRows
        state.press(.pageDown)
        #expect(state.selectedID == 1 + page)
        state.press(.pageUp)
        #expect(state.selectedID == 1)
        state.press(.end)
        #expect(state.selectedID == 100)
        #expect(state.scrollOffset == 100 - page)
        state.press(.home)
        #expect(state.selectedID == 1)
        #expect(state.scrollOffset == 0)
    }

    @Test func cCancelsTheSelectedUnfinishedOperation() {
        var state = Fixtures.state(Fixtures.midRun())
        state.press(.down)
        #expect(state.press(.character("c")) == [.cancel(operationID: 2)])
    }

    @Test func cOnAFinishedOperationDoesNothingAndSaysSo() {
        var state = Fixtures.state(Fixtures.midRun())
        #expect(state.selectedID == 1)
        #expect(state.press(.character("c")).isEmpty)
        #expect(state.message == "#1 already succeeded; nothing to cancel")
        #expect(render(state).lines[39].hasPrefix("#1 already succeeded; nothing to cancel"))
        state.press(.down)
        #expect(state.message == nil, "the next key clears the message")
        #expect(render(state).lines[39].hasPrefix("q quit"))
    }

    @Test func capitalCAsksAndYConfirmsCancelAll() {
        var state = Fixtures.state(Fixtures.midRun())
        #expect(state.press(.character("C")).isEmpty)
        #expect(state.prompt == .cancelAll(count: 9))
        #expect(state.press(.character("y")) == [.cancelAll])
        #expect(state.prompt == nil)
    }

    @Test func anyOtherKeyDismissesTheCancelAllQuestion() {
        var state = Fixtures.state(Fixtures.midRun())
        state.press(.character("C"))
        #expect(state.press(.character("n")).isEmpty)
        #expect(state.prompt == nil)
        state.press(.character("C"))
        #expect(state.press(.character("q")).isEmpty, "q answers the question, it does not quit")
        #expect(state.prompt == nil)
        state.press(.character("C"))
        #expect(state.press(.escape).isEmpty)
        #expect(state.prompt == nil)
    }

    @Test func cancelAllIsNotAskedWhenEverythingFinishedAndSaysSo() {
        let done = OperationSnapshot(id: 1, name: "a", lifecycle: .finished, outcome: .succeeded)
        var state = Fixtures.state(Fixtures.snapshot([done]))
        state.press(.character("C"))
        #expect(state.prompt == nil)
        #expect(state.message == "nothing left to cancel: every operation has finished")
    }

    @Test func theCancelAllQuestionCountsLive() {
        var state = Fixtures.state(Fixtures.midRun())
        state.press(.character("C"))
        #expect(render(state).lines[39].hasPrefix(" Cancel all 9 unfinished operations? (y/n)"))
        var fewer = Fixtures.midRun(version: 2)
        var operations = Array(fewer.operations)
        operations[1].lifecycle = .finished
        operations[1].outcome = .succeeded
        fewer = Fixtures.snapshot(operations, version: 2)
        _ = reduce(&state, .tick(fewer))
        #expect(state.prompt == .cancelAll(count: 8))
        #expect(render(state).lines[39].hasPrefix(" Cancel all 8 unfinished operations? (y/n)"))
    }

    @Test func pAndSpaceToggleSuspension() {
        var running = Fixtures.state(Fixtures.midRun())
        #expect(running.press(.character("p")) == [.setSuspended(true)])
        #expect(running.press(.character(" ")) == [.setSuspended(true)])
        var paused = Fixtures.state(Fixtures.midRun(suspended: true))
        #expect(paused.press(.character("p")) == [.setSuspended(false)])
    }

    @Test func plusAndMinusChangeConcurrencyAndShowItAtOnce() {
        var state = Fixtures.state(Fixtures.midRun())
        #expect(state.press(.character("+")) == [.setMaxConcurrentOperationCount(4)])
        #expect(state.effectiveConcurrency == 4)
        #expect(state.press(.character("=")) == [.setMaxConcurrentOperationCount(5)])
        #expect(state.press(.character("-")) == [.setMaxConcurrentOperationCount(4)])
        // A snapshot still showing the old limit does not undo the request…
        _ = reduce(&state, .tick(Fixtures.midRun(version: 2)))
        #expect(state.effectiveConcurrency == 4)
        #expect(state.pendingConcurrency == 4)
        // …one confirming it clears the override.
        var confirmed = Fixtures.midRun(version: 3)
        confirmed.maxConcurrentOperationCount = 4
        _ = reduce(&state, .tick(confirmed))
        #expect(state.pendingConcurrency == nil)
        #expect(state.effectiveConcurrency == 4)
    }

    @Test func concurrencyStopsAtOneAndSaysSo() {
        var snapshot = Fixtures.midRun()
        snapshot.maxConcurrentOperationCount = 2
        var state = Fixtures.state(snapshot)
        #expect(state.press(.character("-")) == [.setMaxConcurrentOperationCount(1)])
        #expect(state.message == nil)
        #expect(state.press(.character("-")).isEmpty)
        #expect(state.effectiveConcurrency == 1)
        #expect(state.message == "concurrency limit already at the minimum (1)")
    }

    @Test func concurrencyStopsAtTheTopOfTheFlagRangeAndSaysSo() {
        #expect(concurrencyRange == 1...1024)
        var snapshot = Fixtures.midRun()
        snapshot.maxConcurrentOperationCount = 1023
        var state = Fixtures.state(snapshot)
        #expect(state.press(.character("+")) == [.setMaxConcurrentOperationCount(1024)])
        #expect(state.press(.character("+")).isEmpty)
        #expect(state.effectiveConcurrency == 1024)
        #expect(state.message == "concurrency limit already at the maximum (1024)")
    }

    @Test(arguments: [2, 64, 65, 100, 1024, 5000])
    func plusNeverLowersAndMinusNeverRaisesTheLimit(limit: Int) {
        var snapshot = Fixtures.midRun()
        snapshot.maxConcurrentOperationCount = limit
        var up = Fixtures.state(snapshot)
        for command in up.press(.character("+")) {
            guard case .setMaxConcurrentOperationCount(let next) = command else { continue }
            #expect(next > limit, "+ at \(limit) asked for \(next)")
        }
        #expect(up.effectiveConcurrency >= limit)
        var down = Fixtures.state(snapshot)
        #expect(down.press(.character("-")) == [.setMaxConcurrentOperationCount(limit - 1)])
    }

    @Test func plusAboveSixtyFourRaisesTheLimit() {
        var snapshot = Fixtures.midRun()
        snapshot.maxConcurrentOperationCount = 100
        var state = Fixtures.state(snapshot)
        #expect(state.press(.character("+")) == [.setMaxConcurrentOperationCount(101)])
    }

    @Test func aLimitAboveTheRangeStaysOnPlus() {
        var snapshot = Fixtures.midRun()
        snapshot.maxConcurrentOperationCount = 5000
        var state = Fixtures.state(snapshot)
        #expect(state.press(.character("+")).isEmpty)
        #expect(state.effectiveConcurrency == 5000)
        #expect(state.message == "concurrency limit 5000 is above what + sets (1024)")
    }

    @Test func anUnlimitedQueueStepsDownToTheTopOfTheRange() {
        var snapshot = Fixtures.midRun()
        snapshot.maxConcurrentOperationCount = -1
        var state = Fixtures.state(snapshot)
        #expect(state.press(.character("+")).isEmpty)
        #expect(state.message == "the queue has no concurrency limit")
        #expect(state.press(.character("-")) == [.setMaxConcurrentOperationCount(1024)])
    }

    @Test func dEnterAndQuestionMarkTogglePanes() {
        var state = Fixtures.state(Fixtures.midRun())
        state.press(.character("d"))
        #expect(state.showDependencies)
        state.press(.character("d"))
        #expect(!state.showDependencies)
        state.press(.enter)
        #expect(state.showDetails)
        state.press(.enter)
        #expect(!state.showDetails)
        state.press(.character("?"))
        #expect(state.showHelp)
        state.press(.character("?"))
        #expect(!state.showHelp)
    }

    @Test func escapeClosesHelpAndHelpSwallowsOtherKeys() {
        var state = Fixtures.state(Fixtures.midRun())
        state.press(.character("?"))
        #expect(state.press(.character("c")).isEmpty)
        #expect(state.press(.down).isEmpty)
        #expect(state.selectedID == 1)
        state.press(.escape)
        #expect(!state.showHelp)
        state.press(.character("?"))
        #expect(state.press(.character("q")) == [.quit])
    }

    @Test func escapeClosesDetailsThenTreeThenClearsFilter() {
        var state = Fixtures.state(Fixtures.midRun())
        state.press(.character("/"))
        state.type("video")
        state.press(.enter, .character("d"), .enter)
        #expect(state.showDetails && state.showDependencies && state.filter == "video")
        state.press(.escape)
        #expect(!state.showDetails && state.showDependencies)
        state.press(.escape)
        #expect(!state.showDependencies && state.filter == "video")
        state.press(.escape)
        #expect(state.filter.isEmpty)
    }

    @Test func sCyclesTheSortOrder() {
        var state = Fixtures.state(Fixtures.midRun())
        var seen: [SortOrder] = [state.sort]
        for _ in 0..<4 {
            state.press(.character("s"))
            seen.append(state.sort)
        }
        #expect(seen == [.id, .state, .progress, .rate, .id])
    }

    @Test func resizeUpdatesTheSize() {
        var state = Fixtures.state(Fixtures.midRun())
        #expect(reduce(&state, .resize(width: 70, height: 15)).isEmpty)
        #expect(state.width == 70 && state.height == 15)
    }
}

@Suite struct FilterEditingTests {
    @Test func slashStartsAFilterThatTypedCharactersEdit() {
        var state = Fixtures.state(Fixtures.midRun())
        state.press(.character("/"))
        #expect(state.isEditingFilter)
        #expect(state.type("transq").isEmpty, "q is text while editing, not quit")
        #expect(state.filter == "transq")
        state.press(.backspace)
        #expect(state.filter == "trans")
        state.press(.enter)
        #expect(!state.isEditingFilter)
        #expect(state.filter == "trans")
        #expect(state.rows.count(in: state.snapshot) == 2)
        #expect(state.selectedID == 5)
    }

    @Test func escapeClearsTheFilter() {
        var state = Fixtures.state(Fixtures.midRun())
        state.press(.character("/"))
        state.type("video")
        #expect(state.rows.count(in: state.snapshot) == 3)
        state.press(.escape)
        #expect(!state.isEditingFilter)
        #expect(state.filter.isEmpty)
        #expect(state.rows.count(in: state.snapshot) == 12)
    }

    @Test func backspaceOnAnEmptyFilterIsHarmless() {
        var state = Fixtures.state(Fixtures.midRun())
        state.press(.character("/"), .backspace, .backspace)
        #expect(state.filter.isEmpty && state.isEditingFilter)
    }

    @Test func filterMatchesNameIdAndStateCaseInsensitively() {
        var state = Fixtures.state(Fixtures.midRun())
        state.press(.character("/"))
        state.type("FAILED")
        #expect(state.rows.count(in: state.snapshot) == 1)
        #expect(state.selectedID == 10)
        state.press(.escape, .character("/"))
        state.type("#12")
        #expect(state.rows.count(in: state.snapshot) == 1)
        #expect(state.selectedID == 12)
        state.press(.escape, .character("/"))
        state.type("running")
        #expect(state.rows.count(in: state.snapshot) == 3)
    }

    @Test func theFilterFindsEveryStateWordTheScreenShows() {
        let snapshot = Fixtures.midRun()
        for displayState in DisplayState.counted {
            var state = Fixtures.state(snapshot)
            state.press(.character("/"))
            state.type(displayState.word)
            let shown = (0..<state.rows.count(in: snapshot)).compactMap {
                state.rows.operation(at: $0, in: snapshot)
            }
            let expected = snapshot.operations.filter { DisplayState($0) == displayState }
            #expect(!expected.isEmpty, "the fixture has a \(displayState.word) operation")
            #expect(shown.map(\.id) == expected.map(\.id), "/\(displayState.word)")
            // Every row found shows the word in its STATE column.
            let screen = render(state)
            for line in screen.lines[4..<(4 + shown.count)] {
                #expect(line.contains(" \(displayState.word) "), "\(line)")
            }
        }
    }
}

@Suite struct HeaderContentTests {
    @Test func evictedCountShowsOnlyWhenNonZero() {
        let plain = render(Fixtures.state(Fixtures.midRun()))
        #expect(!plain.lines[1].contains("evicted"))
        var snapshot = Fixtures.midRun()
        snapshot.evictedCount = 250
        let evicted = render(Fixtures.state(snapshot))
        #expect(evicted.lines[1].hasSuffix("total 12  evicted 250"))
    }

    @Test func theCancelAllQuestionGoesAwayWhenNothingIsLeftToCancel() {
        var state = Fixtures.state(Fixtures.midRun())
        state.press(.character("C"))
        let done = OperationSnapshot(id: 1, name: "a", lifecycle: .finished, outcome: .succeeded)
        _ = reduce(&state, .tick(Fixtures.snapshot([done], version: 2)))
        #expect(state.prompt == nil)
    }

    @Test func anUnlimitedQueueShowsInfinity() {
        var snapshot = Fixtures.midRun()
        snapshot.maxConcurrentOperationCount = -1
        #expect(render(Fixtures.state(snapshot)).lines[0].contains("running 3/∞"))
        let ascii = render(Fixtures.state(snapshot, glyphs: .ascii))
        #expect(ascii.lines[0].contains("running 3/max"))
    }
}

@Suite struct VocabularyTests {
    @Test func headerTableTreeAndDetailsUseTheSameStateWords() {
        var state = Fixtures.state(Fixtures.midRun())
        let table = render(state)
        #expect(table.lines[1].hasPrefix("waiting 5  ready 1  running 3  succeeded 1  failed 1  cancelled 1"))
        #expect(table.lines[0].contains("running 3/3"))
        #expect(table.lines[4].contains(" succeeded "))
        let words = Set(DisplayState.allCases.map(\.word))
        for line in table.lines[4..<16] {
            let stateColumn = line.dropFirst(25).prefix(9).trimmingCharacters(in: .whitespaces)
            #expect(words.contains(stateColumn), "\(line)")
        }
        state.press(.character("d"))
        let tree = render(state)
        #expect(tree.lines[4].hasPrefix("#1 ↓ fetch-manifest.json succeeded"))
        state.press(.escape, .down, .enter)
        let details = render(state).lines.joined(separator: "\n")
        #expect(details.contains("depends on #1 fetch-manifest.json succeeded"))
        #expect(!details.contains(" done") && !details.contains("executing"))
    }

    @Test func theEventLogSaysRunningAndSucceeded() {
        var store = MonitorStore()
        let id = store.add(
            name: "fetch", kind: .download, lifecycle: .ready, totalBytes: 10, dependencies: [],
            time: .zero)
        store.transition(id, to: .executing, time: .seconds(1))
        store.transition(id, to: .finished, outcome: .succeeded, time: .seconds(2))
        let unicode = render(Fixtures.state(store.snapshot(time: .seconds(3)))).lines
        #expect(unicode.contains { $0.hasSuffix("#1 fetch: ready → running") })
        #expect(unicode.contains { $0.hasSuffix("#1 fetch: running → succeeded") })
        let ascii = render(Fixtures.state(store.snapshot(time: .seconds(3)), glyphs: .ascii)).lines
        #expect(ascii.contains { $0.hasSuffix("#1 fetch: running -> succeeded") })
    }

    @Test func processingStepsAreUnitsNotBytes() {
        let step = OperationSnapshot(
            id: 1, name: "resize", kind: .process, lifecycle: .executing, completedBytes: 250,
            totalBytes: 800, bytesPerSecond: 100, startedAt: .zero)
        let download = OperationSnapshot(
            id: 2, name: "fetch", kind: .download, lifecycle: .executing, completedBytes: 250_000,
            totalBytes: 800_000, bytesPerSecond: 100_000, startedAt: .zero)
        let lines = render(Fixtures.state(Fixtures.snapshot([step, download]))).lines
        #expect(lines[4].contains("250/800 units"))
        #expect(lines[4].contains("100/s"))
        #expect(!lines[4].contains(" B"))
        #expect(lines[5].contains("250.0/800.0 kB"))
        #expect(lines[5].contains("100.0 kB/s"))
    }

    @Test func speedIsShownNextToElapsed() {
        var state = Fixtures.state(Fixtures.midRun())
        #expect(render(state).lines[0].hasSuffix("elapsed 1:05"))
        state.speed = 20
        #expect(render(state).lines[0].hasSuffix("elapsed 1:05 ×20"))
        state.glyphs = .ascii
        #expect(render(state).lines[0].hasSuffix("elapsed 1:05 x20"))
    }
}
