import CombineEx
import CombineExTesting
import Dispatch
import Testing

@Suite("Property lift")
struct PropertyLiftTests {
  @Test("lift applies a publisher transform: the property takes each transformed value")
  func appliesTransform() {
    let clicks = MutableProperty(1)
    let total = clicks.lift { $0.scan(0, +) }
    let recorder = total.record()
    clicks.value = 2
    clicks.value = 3
    #expect(total.value == 6)
    #expect(recorder.values == [1, 3, 6])
  }

  @Test("lift subscribes to the transformed stream once, at once, and shares it")
  func subscribesOnce() {
    let source = MutableProperty(1)
    let runs = LockedBox(0)
    let lifted = source.lift { stream in
      stream.map { value -> Int in
        runs.withLock { $0 += 1 }
        return value * 10
      }
    }
    #expect(runs.withLock { $0 } == 1)
    let first = lifted.record()
    let second = lifted.record()
    source.value = 2
    #expect(runs.withLock { $0 } == 2)
    #expect(first.values == [10, 20])
    #expect(second.values == [10, 20])
  }

  @Test("a value the lifted stream sends after its completion changes nothing")
  func valueAfterCompletionIgnored() {
    let source = MutableProperty(0)
    let unruly = ContractBreakingPublisher(first: 1)
    let lifted = source.lift { _ in unruly }
    let recorder = lifted.record()
    unruly.send(2)
    unruly.finish()
    unruly.send(3)  // after the completion: the contract is broken, the property ignores it
    #expect(lifted.value == 2)
    #expect(recorder.values == [1, 2])
    #expect(recorder.completionCount == 1)
  }

  @Test("a subscriber that comes later receives the latest lifted value")
  func lateSubscriber() {
    let source = MutableProperty(1)
    let lifted = source.lift { $0.map { $0 + 100 } }
    source.value = 5
    #expect(lifted.record().values == [105])
  }

  @Test("when the transformed stream finishes, the property keeps its value and finishes")
  func finishes() {
    let source = MutableProperty(1)
    let lifted = source.lift { $0.prefix(2) }
    let recorder = lifted.record()
    source.value = 2
    source.value = 3
    #expect(lifted.value == 2)
    #expect(recorder.values == [1, 2])
    #expect(recorder.receivedCompletion == .finished)
    #expect(lifted.record().events == [.subscription, .value(2), .completion(.finished)])
  }

  @Test("a transform that ends at once (Just) gives a constant property")
  func justTransform() {
    let source = MutableProperty(1)
    let lifted = source.lift { _ in Just("fixed") }
    #expect(lifted.value == "fixed")
    #expect(lifted.record().events == [.subscription, .value("fixed"), .completion(.finished)])
  }

  @Test("demand is honoured: a subscriber with max(1) gets the latest value when it asks again")
  func demand() {
    let source = MutableProperty(1)
    let lifted = source.lift { $0.map { $0 * 2 } }
    let recorder = lifted.record(initialDemand: .max(1))
    source.value = 2
    source.value = 3
    #expect(recorder.values == [2])
    recorder.request(.max(1))
    #expect(recorder.values == [2, 6])
  }

  @Test("a cancelled subscriber receives nothing more")
  func cancel() {
    let source = MutableProperty(1)
    let lifted = source.lift { $0.map { $0 * 2 } }
    let recorder = lifted.record()
    recorder.cancel()
    source.value = 2
    #expect(recorder.values == [2])
    #expect(lifted.value == 4)
  }

  @Test("dropping the lifted property and its subscribers cancels the transformed stream")
  func releasesUpstream() {
    let source = MutableProperty(1)
    let probe = SubscriptionProbe(source)
    weak var weakLifted: Property<Int>?
    do {
      let lifted = source.lift { _ in probe.publisher.map { $0 * 2 } }
      weakLifted = lifted
      let recorder = lifted.record()
      source.value = 2
      #expect(recorder.values == [2, 4])
      #expect(probe.cancels == 0)
      recorder.cancel()
    }
    #expect(weakLifted == nil)
    #expect(probe.cancels == 1)
  }

  @Test("a subscriber keeps the lifted state following after the property is dropped")
  func subscriberKeepsItFollowing() {
    let source = MutableProperty(1)
    var lifted: Property<Int>? = source.lift { $0.map { $0 * 2 } }
    let recorder = lifted?.record()
    lifted = nil
    source.value = 3
    #expect(recorder?.values == [2, 6])
  }

  @Test("the lifted property keeps its source alive, as the original's does, until it goes")
  func sourceRetained() {
    weak var weakSource: MutableProperty<Int>?
    weak var weakLifted: Property<Int>?
    var lifted: Property<Int>?
    do {
      let source = MutableProperty(1)
      weakSource = source
      lifted = source.lift { $0.map { $0 + 1 } }
      weakLifted = lifted
    }
    #expect(weakSource != nil)
    #expect(lifted?.value == 2)
    lifted = nil
    #expect(weakLifted == nil)
    #expect(weakSource == nil)
  }

  @Test("a value set from inside a subscriber of the lifted property is delivered after it")
  func reentrantSet() {
    let source = MutableProperty(0)
    let lifted = source.lift { $0.map { $0 * 10 } }
    var seen: [Int] = []
    let cancellable = lifted.sink { value in
      seen.append(value)
      if value == 10 { source.value = 2 }
    }
    source.value = 1
    #expect(seen == [0, 10, 20])
    #expect(lifted.value == 20)
    cancellable.cancel()
  }

  @Test("stress: with 8 threads setting the source, deliveries are serial and end on the last")
  func stressSerialAndFinal() async {
    let source = MutableProperty(0)
    let lifted = source.lift { $0.map { $0 * 2 } }
    let log = DeliveryLog<Int>()
    let cancellable = lifted.sink { log.receive($0) }
    await concurrentPerform(8) { thread in
      for index in 1...200 { source.value = thread * 1_000 + index }
    }
    #expect(log.overlaps == 0)
    #expect(lifted.value == source.value * 2)
    #expect(log.values.last == source.value * 2)
    cancellable.cancel()
  }
}

/// A publisher that sends what the test says to its one subscriber, even after a completion
/// (which a publisher must not do). Single-threaded tests only.
final class ContractBreakingPublisher: Publisher, @unchecked Sendable {
  // @unchecked Sendable: used on one thread only.
  typealias Output = Int
  typealias Failure = Never

  private let first: Int
  private var subscriber: AnySubscriber<Int, Never>?

  init(first: Int) {
    self.first = first
  }

  func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == Never {
    let subscriber = AnySubscriber(subscriber)
    self.subscriber = subscriber
    subscriber.receive(subscription: Subscriptions.empty)
    _ = subscriber.receive(first)
  }

  func send(_ value: Int) {
    _ = subscriber?.receive(value)
  }

  func finish() {
    subscriber?.receive(completion: .finished)
  }
}
