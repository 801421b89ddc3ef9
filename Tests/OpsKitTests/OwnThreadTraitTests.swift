import Foundation
import OpsKitTesting
import Testing

/// The name of the thread that calls it (a synchronous function, so async tests can ask too).
private func currentThreadName() -> String? { DedicatedThreadExecutor.currentThreadName }

@Suite(.ownThread) struct OwnThreadTraitTests {
    @Test func aSynchronousTestRunsOnAThreadMadeForIt() {
        #expect(currentThreadName() == "test: aSynchronousTestRunsOnAThreadMadeForIt()")
    }

    @Test func anAsyncTestStaysThereAfterASuspension() async {
        await Task.yield()
        #expect(currentThreadName() == "test: anAsyncTestStaysThereAfterASuspension()")
    }

    /// A detached task goes to the cooperative pool, which the blocked test thread is not part of.
    @Test func aDetachedTaskRunsElsewhere() async {
        let name = await Task.detached { currentThreadName() }.value
        #expect(name != "test: aDetachedTaskRunsElsewhere()")
    }
}

@Suite struct TestSlotsTests {
    @Test func aTakerWaitsForAGiveAndAGiveWithNoWaiterFreesASlot() async {
        let slots = TestSlots(count: 1)
        await slots.take()
        #expect(slots.counts == (0, 0))
        let waiter = Task { await slots.take() }
        #expect(await eventually { slots.counts.waiting == 1 }, "the second take waits")
        slots.give()
        await waiter.value
        #expect(slots.counts == (0, 0), "the slot went to the waiter")
        slots.give()
        #expect(slots.counts == (1, 0))
    }
}
