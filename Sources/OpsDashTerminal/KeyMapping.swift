import CNcurses
import OpsDashUI

/// ncurses key codes the mapping understands (values from curses.h, no curses calls).
enum CursesKeyCode {
    static let up = Int32(KEY_UP)
    static let down = Int32(KEY_DOWN)
    static let left = Int32(KEY_LEFT)
    static let right = Int32(KEY_RIGHT)
    static let pageUp = Int32(KEY_PPAGE)
    static let pageDown = Int32(KEY_NPAGE)
    static let home = Int32(KEY_HOME)
    static let end = Int32(KEY_END)
    static let enter = Int32(KEY_ENTER)
    static let backspace = Int32(KEY_BACKSPACE)
    static let resize = Int32(KEY_RESIZE)
}

/// Maps a `get_wch` result to a key: `isKeyCode` is true for `KEY_CODE_YES` (function keys),
/// false for a character. Nil for anything the dashboard ignores. Pure; no curses calls.
func mapKey(code: Int32, isKeyCode: Bool) -> Key? {
    if isKeyCode {
        switch code {
        case CursesKeyCode.up: return .up
        case CursesKeyCode.down: return .down
        case CursesKeyCode.left: return .left
        case CursesKeyCode.right: return .right
        case CursesKeyCode.pageUp: return .pageUp
        case CursesKeyCode.pageDown: return .pageDown
        case CursesKeyCode.home: return .home
        case CursesKeyCode.end: return .end
        case CursesKeyCode.enter: return .enter
        case CursesKeyCode.backspace: return .backspace
        default: return nil
        }
    }
    switch code {
    case 10, 13: return .enter
    case 27: return .escape
    case 8, 127: return .backspace
    case 9: return .tab
    case 1...26: return .control(Character(Unicode.Scalar(UInt8(code) + 0x60)))  // Ctrl-A … Ctrl-Z
    case ..<32: return nil
    default:
        guard let scalar = Unicode.Scalar(UInt32(bitPattern: code)),
            !scalar.properties.generalCategory.isControl || joiners.contains(scalar.value)
        else { return nil }
        return .character(Character(scalar))
    }
}

/// Format characters a typed name may need: the zero-width joiner and non-joiner, which join
/// emoji sequences (👨‍👩‍👧) and shape scripts. Other format characters (bidi overrides,
/// invisible spaces) are still dropped.
private let joiners: Set<UInt32> = [0x200D, 0x200C]

extension Unicode.GeneralCategory {
    fileprivate var isControl: Bool {
        switch self {
        case .control, .format, .surrogate, .privateUse, .unassigned: return true
        default: return false
        }
    }
}
