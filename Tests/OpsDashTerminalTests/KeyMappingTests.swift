import OpsDashUI
import Testing

@testable import OpsDashTerminal

@Suite struct KeyMappingTests {
    @Test func functionKeys() {
        let expected: [(Int32, Key)] = [
            (CursesKeyCode.up, .up), (CursesKeyCode.down, .down),
            (CursesKeyCode.left, .left), (CursesKeyCode.right, .right),
            (CursesKeyCode.pageUp, .pageUp), (CursesKeyCode.pageDown, .pageDown),
            (CursesKeyCode.home, .home), (CursesKeyCode.end, .end),
            (CursesKeyCode.enter, .enter), (CursesKeyCode.backspace, .backspace),
        ]
        for (code, key) in expected {
            #expect(mapKey(code: code, isKeyCode: true) == key)
        }
        #expect(mapKey(code: CursesKeyCode.resize, isKeyCode: true) == nil)
    }

    @Test func controlCharacters() {
        #expect(mapKey(code: 10, isKeyCode: false) == .enter)
        #expect(mapKey(code: 13, isKeyCode: false) == .enter)
        #expect(mapKey(code: 27, isKeyCode: false) == .escape)
        #expect(mapKey(code: 127, isKeyCode: false) == .backspace)
        #expect(mapKey(code: 8, isKeyCode: false) == .backspace)
        #expect(mapKey(code: 9, isKeyCode: false) == .tab)
        #expect(mapKey(code: 12, isKeyCode: false) == .control("l"))
        #expect(mapKey(code: 1, isKeyCode: false) == .control("a"))
        #expect(mapKey(code: 26, isKeyCode: false) == .control("z"))
        #expect(mapKey(code: 0, isKeyCode: false) == nil)
        #expect(mapKey(code: 28, isKeyCode: false) == nil)
    }

    @Test func printableCharacters() {
        #expect(mapKey(code: 0x71, isKeyCode: false) == .character("q"))
        #expect(mapKey(code: 0x43, isKeyCode: false) == .character("C"))
        #expect(mapKey(code: 0x20, isKeyCode: false) == .character(" "))
        #expect(mapKey(code: 0x2B, isKeyCode: false) == .character("+"))
        #expect(mapKey(code: 0xE9, isKeyCode: false) == .character("é"))
        #expect(mapKey(code: 0xD800, isKeyCode: false) == nil)
        // Joiners are kept (an emoji family typed into the filter stays one character);
        // other format characters are not.
        #expect(mapKey(code: 0x200D, isKeyCode: false) == .character("\u{200D}"))
        #expect(mapKey(code: 0x200C, isKeyCode: false) == .character("\u{200C}"))
        #expect(mapKey(code: 0x202E, isKeyCode: false) == nil)
        #expect(mapKey(code: 0x200B, isKeyCode: false) == nil)
        #expect(mapKey(code: -1, isKeyCode: false) == nil)
    }

    @Test func aKeyCodeIsNeverACharacter() {
        // 0x71 as a key code is not 'q'.
        #expect(mapKey(code: 0x71, isKeyCode: true) == nil)
    }
}
