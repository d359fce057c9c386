import CombineEx
import Foundation
import Testing

/// `MutableProperty` follows the subjects' threading contract (ARCHITECTURE.md rule 5): a set
/// returns after every subscriber has received the value, on the setting thread.
@Suite("MutableProperty: threading and misuse")
struct MutablePropertyThreadingTests {
  @Test("stress: a set returns after the setter's own subscriber has received the value")
  func stressSetReturnsAfterDelivery() async {
    let property = MutableProperty(-1)
    let early = LockedBox(0)
    await concurrentPerform(8) { thread in
      for round in 0..<250 {
        let value = thread * 1_000 + round
        let received = LockedBox(false)
        let cancellable = property.sink { if $0 == value { received.withLock { $0 = true } } }
        property.value = value
        if !received.withLock({ $0 }) { early.withLock { $0 += 1 } }
        cancellable.cancel()
      }
    }
    #expect(early.withLock { $0 } == 0, "sets that returned before their own delivery")
  }

  @Test("a set from another thread during a delivery waits for it, then delivers on its thread")
  func setFromAnotherThreadWaits() async {
    let property = MutableProperty(0)
    struct Seen: Sendable {
      var events: [String] = []
      var setterThread: UInt = 0
      var deliveryThread: UInt = 0
    }
    let seen = await withCheckedContinuation { (continuation: CheckedContinuation<Seen, Never>) in
      Thread {
        let log = LockedBox(Seen())
        let started = DispatchSemaphore(value: 0)
        let returned = DispatchSemaphore(value: 0)
        let cancellable = property.dropFirst().sink { value in
          if value == 2 { log.withLock { $0.deliveryThread = threadNumber() } }
          guard value == 1 else { return }
          started.signal()
          if returned.wait(timeout: .now() + 0.3) == .success {
            log.withLock { $0.events.append("set returned during the delivery") }
          }
          log.withLock { $0.events.append("delivery of 1 ends") }
        }
        let done = DispatchSemaphore(value: 0)
        Thread {
          _ = started.wait(timeout: .now() + 10)
          log.withLock { $0.setterThread = threadNumber() }
          property.value = 2
          log.withLock { $0.events.append("set returned") }
          returned.signal()
          done.signal()
        }.start()
        property.value = 1
        _ = done.wait(timeout: .now() + 10)
        cancellable.cancel()
        continuation.resume(returning: log.withLock { $0 })
      }.start()
    }
    #expect(seen.events == ["delivery of 1 ends", "set returned"])
    #expect(seen.deliveryThread == seen.setterThread)
  }

  @Test("a set from inside a subscriber is delivered before the outer set returns")
  func reentrantSetDeliveredBeforeOuterSetReturns() {
    let property = MutableProperty(0)
    var log: [String] = []
    let first = property.dropFirst().sink { value in
      log.append("first \(value)")
      if value == 1 { property.value = 2 }
    }
    let second = property.dropFirst().sink { log.append("second \($0)") }
    property.value = 1
    log.append("set returned")
    #expect(log == ["first 1", "second 1", "first 2", "second 2", "set returned"])
    _ = (first, second)
  }

  @Test("a replaced value whose deinit reads the property does not deadlock")
  func replacedValueDeinitReadsValue() {
    final class Reader {
      var onDeinit: () -> Void = {}
      deinit { onDeinit() }
    }
    let property = MutableProperty<Reader?>(Reader())
    var readInDeinit = false
    property.value?.onDeinit = { [unowned property] in
      _ = property.value
      readInDeinit = true
    }
    property.value = nil
    #expect(readInDeinit)
  }

  @Test("modify whose closure sets the same property stops with a message instead of looping")
  func modifySettingItselfTraps() async {
    await #expect(processExitsWith: .failure) {
      let property = MutableProperty(0)
      property.modify { value in
        property.value = 10
        value += 1
      }
    }
  }
}

/// A number identifying the calling thread.
private func threadNumber() -> UInt {
  #if canImport(Darwin)
    return UInt(bitPattern: pthread_self())
  #else
    return UInt(pthread_self())
  #endif
}
