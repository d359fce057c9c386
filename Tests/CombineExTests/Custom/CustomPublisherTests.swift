import CombineEx
import CombineExTesting
import Foundation
import Testing

/// Keeps the handler a custom publisher's closure received, so that a test can drive it.
private final class HandlerBox<Output, Failure: Error>: @unchecked Sendable {
  // @unchecked Sendable: `handlers` is guarded by `lock`.
  private let lock = NSLock()
  private var handlers: [any Publishers.CustomSubscriptionHandler<Output, Failure>] = []

  func store(_ handler: any Publishers.CustomSubscriptionHandler<Output, Failure>) {
    lock.withLock { handlers.append(handler) }
  }

  var count: Int { lock.withLock { handlers.count } }

  /// The handler of the last subscription.
  var last: any Publishers.CustomSubscriptionHandler<Output, Failure> {
    lock.withLock { handlers.last! }
  }

  /// A publisher whose closure stores its handler here.
  var publisher: Publishers.Custom<Output, Failure> {
    Publishers.Custom { [self] in store($0) }
  }
}

@Suite("Publishers.Custom and DeferredCustom")
struct CustomPublisherTests {
  @Test("the closure sends values and a completion to the subscriber")
  func valuesAndCompletion() {
    let recorder = Publishers.Custom<Int, ColdTestError> { handler in
      handler.sendValue(1)
      handler.sendValue(2)
      handler.sendCompletion(.failure(ColdTestError(3)))
    }.record()
    #expect(recorder.values == [1, 2])
    #expect(recorder.receivedCompletion == .failure(ColdTestError(3)))
  }

  @Test("the closure runs once per subscription, after the subscriber got its subscription")
  func oncePerSubscription() {
    let box = HandlerBox<Int, Never>()
    let publisher = box.publisher
    #expect(box.count == 0)
    let first = publisher.record()
    #expect(box.count == 1)
    #expect(first.isSubscribed)
    let second = publisher.record()
    #expect(box.count == 2)
    box.last.sendValue(5)
    #expect(second.values == [5])
    #expect(first.values.isEmpty)
  }

  @Test("values sent without demand wait, in order, and are delivered when asked for")
  func honoursDemand() {
    let box = HandlerBox<Int, Never>()
    let recorder = box.publisher.record(initialDemand: .none)
    box.last.sendValue(1)
    box.last.sendValue(2)
    box.last.sendValue(3)
    #expect(recorder.values.isEmpty)
    recorder.request(.max(2))
    #expect(recorder.values == [1, 2])
    box.last.sendValue(4)
    recorder.request(.max(5))
    #expect(recorder.values == [1, 2, 3, 4])
  }

  @Test("the completion waits behind the values still waiting for demand")
  func completionAfterWaitingValues() {
    let box = HandlerBox<Int, ColdTestError>()
    let recorder = box.publisher.record(initialDemand: .max(1))
    box.last.sendValue(1)
    box.last.sendValue(2)
    box.last.sendCompletion(.failure(ColdTestError(1)))
    #expect(recorder.values == [1])
    #expect(recorder.receivedCompletion == nil)
    recorder.request(.max(1))
    #expect(recorder.values == [1, 2])
    #expect(recorder.receivedCompletion == .failure(ColdTestError(1)))
  }

  @Test("values and completions after the first completion are dropped")
  func nothingAfterCompletion() {
    let box = HandlerBox<Int, ColdTestError>()
    let recorder = box.publisher.record()
    box.last.sendValue(1)
    box.last.sendCompletion(.finished)
    box.last.sendValue(2)
    box.last.sendCompletion(.failure(ColdTestError(1)))
    #expect(recorder.values == [1])
    #expect(recorder.receivedCompletion == .finished)
    #expect(recorder.completionCount == 1)
  }

  @Test("after a cancel everything is dropped, cancelled turns true and the subscriber is freed")
  func cancel() {
    let box = HandlerBox<Int, Never>()
    weak var weakRecorder: TestSubscriber<Int, Never>?
    do {
      let recorder = box.publisher.record()
      weakRecorder = recorder
      #expect(box.last.cancelled.value == false)
      box.last.sendValue(1)
      recorder.cancel()
      box.last.sendValue(2)
      box.last.sendCompletion(.finished)
      #expect(recorder.values == [1])
      #expect(recorder.receivedCompletion == nil)
    }
    #expect(box.last.cancelled.value == true)
    #expect(weakRecorder == nil)
  }

  @Test("cancelled publishes false, then true once")
  func cancelledProperty() {
    let box = HandlerBox<Int, Never>()
    let recorder = box.publisher.record()
    let cancelled = box.last.cancelled.record()
    recorder.cancel()
    recorder.cancel()
    #expect(cancelled.values == [false, true])
  }

  @Test("demand shows what the subscriber asked for and has not received yet")
  func demandProperty() {
    let box = HandlerBox<Int, Never>()
    let recorder = box.publisher.record(initialDemand: .none)
    let demand = box.last.demand
    #expect(demand.value == .none)
    recorder.request(.max(3))
    #expect(demand.value == .max(3))
    box.last.sendValue(1)
    #expect(demand.value == .max(2))
    box.last.sendValue(2)
    box.last.sendValue(3)
    #expect(demand.value == .none)
    box.last.sendValue(4)
    #expect(demand.value == .none)
    recorder.request(.max(2))
    #expect(recorder.values == [1, 2, 3, 4])
    #expect(demand.value == .max(1))
    recorder.request(.unlimited)
    #expect(demand.value == .unlimited)
    recorder.cancel()
    #expect(demand.value == .none)
  }

  @Test("a source can send only what is asked for by watching demand")
  func backPressure() {
    let sent = RunCounter()
    let observers = LockedBox<[AnyCancellable]>([])
    let recorder = Publishers.Custom<Int, Never> { handler in
      let observer = handler.demand.sink { _ in
        while handler.demand.value > .none {
          handler.sendValue(sent.increment())
        }
      }
      observers.withLock { $0.append(observer) }
    }.record(initialDemand: .max(2))
    #expect(recorder.values == [1, 2])
    #expect(sent.value == 2)
    recorder.request(.max(1))
    #expect(recorder.values == [1, 2, 3])
    #expect(sent.value == 3)
    recorder.cancel()
  }

  @Test("re-entrant: a value sent from inside receive is delivered after it returns")
  func reentrantSend() {
    let box = HandlerBox<Int, Never>()
    var received: [Int] = []
    var depth = 0
    let cancellable = box.publisher.sink { value in
      depth += 1
      #expect(depth == 1)
      received.append(value)
      if value == 1 { box.last.sendValue(2) }
      depth -= 1
    }
    box.last.sendValue(1)
    #expect(received == [1, 2])
    cancellable.cancel()
  }

  @Test("re-entrant: a cancel from inside receive stops delivery at once")
  func reentrantCancel() {
    let box = HandlerBox<Int, Never>()
    var received: [Int] = []
    var cancellable: AnyCancellable?
    cancellable = box.publisher.sink { value in
      received.append(value)
      cancellable?.cancel()
    }
    box.last.sendValue(1)
    box.last.sendValue(2)
    #expect(received == [1])
  }

  @Test("the closure is not called when the subscriber cancels in receive(subscription:)")
  func cancelledBeforeHandler() {
    let box = HandlerBox<Int, Never>()
    let subscriber = AnySubscriber<Int, Never>(
      receiveSubscription: { $0.cancel() }, receiveValue: { _ in .none },
      receiveCompletion: { _ in })
    box.publisher.subscribe(subscriber)
    #expect(box.count == 0)
  }

  @Test("DeferredCustom is cold, runs its closure per subscription, and erases")
  func deferredCustom() {
    let runs = RunCounter()
    let custom = DeferredCustom<Int, ColdTestError> { handler in
      handler.sendValue(runs.increment())
      handler.sendCompletion(.finished)
    }
    #expect(runs.value == 0)
    #expect(custom.record().values == [1])
    let erased: AnyDeferredPublisher<Int, ColdTestError> = custom.eraseToAnyDeferredPublisher()
    #expect(erased.record().values == [2])
    let made = custom.createPublisher()
    #expect(made is Publishers.Custom<Int, ColdTestError>)
    #expect(runs.value == 2)
    #expect(isCold(custom))
    #expect(isCold(Publishers.Custom<Int, Never> { _ in }))
  }

  @Test(
    "a value handed to the subscriber is released while later values wait for demand",
    arguments: ["Publishers.Custom", "DeferredCustom"])
  func deliveredValuesAreReleased(_ kind: String) {
    let counter = InstanceCounter()
    let box = HandlerBox<Counted, Never>()
    let subscriber = CountingSubscriber<Counted, Never>(initialDemand: .none)
    if kind == "DeferredCustom" {
      DeferredCustom<Counted, Never> { [box] in box.store($0) }.subscribe(subscriber)
    } else {
      box.publisher.subscribe(subscriber)
    }
    let handler = box.last
    // The source stays one value ahead of a subscriber that asks for one at a time, so the
    // waiting values never drain.
    handler.sendValue(counter.make(0))
    for index in 0..<10_000 {
      handler.sendValue(counter.make(index + 1))
      subscriber.request(.max(1))
    }
    #expect(subscriber.count == 10_000)
    #expect(counter.alive == 1, "only the value waiting for demand is alive")
    subscriber.cancel()
    #expect(counter.alive == 0)
  }

  @Test("stress: 8 threads send while the subscriber asks for one value at a time")
  func stressConcurrentSends() async {
    let box = HandlerBox<Int, Never>()
    let concurrent = LockedBox((inside: 0, maximum: 0))
    let recorder = box.publisher
      .handleValue { _ in
        concurrent.withLock {
          $0.inside += 1; $0.maximum = max($0.maximum, $0.inside)
        }
        concurrent.withLock { $0.inside -= 1 }
      }
      .record(initialDemand: .max(1))
    let handler = box.last
    await concurrentPerform(8) { thread in
      for index in 0..<500 {
        handler.sendValue(thread * 1000 + index)
        if index.isMultiple(of: 2) { recorder.request(.max(1)) }
      }
    }
    // 2 000 requested in all, plus the first: the rest wait for demand.
    #expect(recorder.values.count == 2001)
    #expect(handler.demand.value == .none)
    recorder.request(.unlimited)
    let values = recorder.values
    #expect(values.count == 4000)
    #expect(concurrent.withLock { $0.maximum } == 1)
    for thread in 0..<8 {
      let own = values.filter { $0 / 1000 == thread }
      #expect(own == own.sorted())
    }
  }
}
