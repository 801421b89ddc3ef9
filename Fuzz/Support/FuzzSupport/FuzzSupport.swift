import CFuzzDriver

#if canImport(Glibc)
import Glibc
#endif

/// The body of the running target (one per process; libFuzzer's callback cannot capture).
nonisolated(unsafe) private var currentBody: ((UnsafeRawBufferPointer) -> Void)?

/// Runs libFuzzer with the process's arguments, calling `body` with each input.
public func fuzz(_ body: @escaping (UnsafeRawBufferPointer) -> Void) -> Never {
    currentBody = body
    var argc = CommandLine.argc
    var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
    let status = LLVMFuzzerRunDriver(&argc, &argv) { data, size in
        currentBody?(UnsafeRawBufferPointer(start: data, count: size))
        return 0
    }
    exit(status)
}

/// Stops the run with a finding (libFuzzer saves the input) when `condition` is false.
public func check(
    _ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String, file: StaticString = #fileID,
    line: UInt = #line
) {
    guard !condition() else { return }
    let text = Array("fuzz check failed (\(file):\(line)): \(message())\n".utf8)
    _ = text.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
    abort()
}
