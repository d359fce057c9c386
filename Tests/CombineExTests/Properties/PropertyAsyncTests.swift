import CombineEx
import Dispatch
import Testing

@Suite("Property async(_:)")
struct PropertyAsyncTests {
  @Test("async() returns the current value")
  func currentValue() async {
    let property = Property(value: 3)
    #expect(await property.async() == 3)
  }

  @Test("async(queue) reads on that queue, after the work queued there before it")
  func readsOnQueue() async {
    let queue = DispatchQueue(label: "PropertyAsyncTests")
    let key = DispatchSpecificKey<Int>()
    queue.setSpecific(key: key, value: 1)
    let count = MutableProperty(0)
    queue.async { count.value = 5 }
    #expect(await count.async(queue) == 5)
    #expect(await QueueReadingProperty(key).async(queue) == 1)
  }
}

/// A property whose value is the reading queue's value for `key`.
private final class QueueReadingProperty: PropertyProtocol, @unchecked Sendable {
  // @unchecked Sendable: immutable; DispatchSpecificKey is only compared by identity.
  typealias Output = Int?
  typealias Failure = Never

  let key: DispatchSpecificKey<Int>

  init(_ key: DispatchSpecificKey<Int>) { self.key = key }

  var value: Int? { DispatchQueue.getSpecific(key: key) }

  func receive<S: Subscriber>(subscriber: S) where S.Input == Int?, S.Failure == Never {
    Just(value).receive(subscriber: subscriber)
  }
}
