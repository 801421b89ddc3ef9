import Foundation
import Testing

@testable import OpsKit

/// A thread OpsDash starts is named where `top -H` and `ps -L` look.
@Suite struct ThreadNameTests {
    @Test func aNamedThreadShowsItsNameToTheSystem() throws {
        #if os(Linux)
        let seen = OpsMutex<String?>(nil)
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            nameCurrentThread("opsdash.test.thread")
            seen.withLock { $0 = try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8) }
            done.signal()
        }
        thread.start()
        done.wait()
        #expect(seen.withLock { $0 } == "opsdash.test.th\n", "the first 15 bytes, as the kernel keeps them")
        #endif
    }
}
