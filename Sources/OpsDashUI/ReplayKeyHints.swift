/// The keys of a replay (`opsdash replay FILE`), for the help overlay and the footer: shown only
/// while the source is a recording (`SourceStatus.isReplay`).
enum ReplayKeyHints {
    /// The keys a replay takes over from the live dashboard (`ReplaySource` handles them).
    static let keys: Set<Key> = [
        .character(" "), .character("p"), .character("."), .left, .right, .character("["), .character("]"), .home,
        .end, .character("g"),
    ]

    /// Every replay key and what it does, for the help overlay's "Replay" section.
    static func entries(glyphs: GlyphSet) -> [(key: String, meaning: String)] {
        let arrows = glyphs == .unicode ? "←/→" : "Left/Right"
        return [
            ("space  p", "pause / play"),
            (".", "step to the next event (pauses)"),
            (arrows, "seek back / forward 10 s; in the history view (h): move its cursor one column (pauses)"),
            ("[  ]", "play slower / faster (halves / doubles the speed)"),
            ("Home/End", "jump to the start / the end of the recording"),
            (
                "g",
                "jump to when the selected operation last changed state (its failure, say; find it with / and n); pauses"
            ),
        ]
    }

    /// The footer's pairs while replaying: the transport first, then the keys that still apply.
    static func footer(glyphs: GlyphSet) -> [(String, String)] {
        [
            ("q", "quit"), ("?", "help"), ("space", "play/pause"), (".", "step"),
            (glyphs == .unicode ? "←→" : "Lt/Rt", "seek"), ("[]", "speed"), ("Home/End", "jump"),
            (glyphs.upDown, "move"), (glyphs.enterKey, "details"), ("/", "search"),
        ]
    }
}
