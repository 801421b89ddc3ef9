import OpsDashUI
import OpsMonitor
import Testing

@Suite struct FilterEditingTests {
    @Test func slashStartsAFilterThatTypedCharactersEdit() {
        var state = Fixtures.state(Fixtures.midRun())
        state.press(.character("f"))
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
        state.press(.character("f"))
        state.type("video")
        #expect(state.rows.count(in: state.snapshot) == 3)
        state.press(.escape)
        #expect(!state.isEditingFilter)
        #expect(state.filter.isEmpty)
        #expect(state.rows.count(in: state.snapshot) == 12)
    }

    /// A terminal delivers an emoji family scalar by scalar (man, joiner, woman, joiner, girl):
    /// the filter holds it as one character, and one backspace removes it whole.
    @Test func aJoinedEmojiTypedScalarByScalarIsOneCharacter() {
        var state = Fixtures.state(Fixtures.midRun())
        state.press(.character("f"), .character("a"))
        for scalar in "👨\u{200D}👩\u{200D}👧".unicodeScalars { state.press(.character(Character(scalar))) }
        #expect(state.filter == "a👨‍👩‍👧")
        #expect(state.filter.count == 2)
        state.press(.backspace)
        #expect(state.filter == "a")
    }

    @Test func backspaceOnAnEmptyFilterIsHarmless() {
        var state = Fixtures.state(Fixtures.midRun())
        state.press(.character("f"), .backspace, .backspace)
        #expect(state.filter.isEmpty && state.isEditingFilter)
    }

    @Test func filterMatchesNameIdAndStateCaseInsensitively() {
        var state = Fixtures.state(Fixtures.midRun())
        state.press(.character("f"))
        state.type("FAILED")
        #expect(state.rows.count(in: state.snapshot) == 1)
        #expect(state.selectedID == 10)
        state.press(.escape, .character("f"))
        state.type("#12")
        #expect(state.rows.count(in: state.snapshot) == 1)
        #expect(state.selectedID == 12)
        state.press(.escape, .character("f"))
        state.type("running")
        #expect(state.rows.count(in: state.snapshot) == 3)
    }

    @Test func theFilterFindsEveryStateWordTheScreenShows() {
        let snapshot = Fixtures.midRun()
        for displayState in DisplayState.counted {
            var state = Fixtures.state(snapshot)
            state.press(.character("f"))
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
