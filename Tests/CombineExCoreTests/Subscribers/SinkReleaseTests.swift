import CombineExCore
import Foundation
import Testing

/// `cancel()` releases a sink's closures, and what they capture, for every kind of upstream:
/// subjects (whose subscription holds a `sink`'s closures itself), the core's sources that
/// report when they have forgotten a subscriber (`Just`, sequences), operators, and publishers
/// written by users, where a cancel may race a delivery on another thread.
@Suite("Subscribers.Sink: closures released on cancel")
struct SinkReleaseTests {
  @Test("subject.map.sink: cancel releases both the sink's and the map's closures")
  func subjectChainCancel() {
    let subject = PassthroughSubject<Int, Never>()
    weak var weakOwner: TestOwner?
    weak var weakMapOwner: TestOwner?
    let cancellable: AnyCancellable
    do {
      let owner = TestOwner()
      let mapOwner = TestOwner()
      weakOwner = owner
      weakMapOwner = mapOwner
      cancellable = subject.map { value -> Int in
        mapOwner.values.append(value)
        return value * 10
      }.sink { owner.values.append($0) }
      subject.send(1)
      #expect(owner.values == [10])
      #expect(mapOwner.values == [1])
    }
    cancellable.cancel()
    #expect(weakOwner == nil)
    #expect(weakMapOwner == nil)
    subject.send(2)
  }

  @Test("subject.filter.sink: the completion releases every closure while the cancellable is kept")
  func subjectChainCompletion() {
    let subject = CurrentValueSubject<Int, Never>(1)
    weak var weakOwner: TestOwner?
    weak var weakFilterOwner: TestOwner?
    var completions = 0
    let cancellable: AnyCancellable
    do {
      let owner = TestOwner()
      let filterOwner = TestOwner()
      weakOwner = owner
      weakFilterOwner = filterOwner
      cancellable = subject.filter { value in
        filterOwner.values.append(value)
        return value.isMultiple(of: 2) == false
      }.sink(
        receiveCompletion: { _ in completions += 1 },
        receiveValue: { owner.values.append($0) })
      subject.send(2)
      subject.send(3)
      #expect(owner.values == [1, 3])
      #expect(filterOwner.values == [1, 2, 3])
    }
    subject.send(completion: .finished)
    #expect(completions == 1)
    #expect(weakOwner == nil)
    #expect(weakFilterOwner == nil)
    withExtendedLifetime(cancellable) {}
  }

  @Test("a sink on a completed subject receives the completion and releases its closures")
  func sinkOnCompletedSubject() {
    let subject = PassthroughSubject<Int, Never>()
    subject.send(completion: .finished)
    weak var weakOwner: TestOwner?
    let cancellable: AnyCancellable
    do {
      let owner = TestOwner()
      weakOwner = owner
      cancellable = subject.sink(
        receiveCompletion: { _ in owner.values.append(-1) },
        receiveValue: { owner.values.append($0) })
      #expect(owner.values == [-1])
    }
    #expect(weakOwner == nil)
    withExtendedLifetime(cancellable) {}
  }

  @Test("Just: a cancel from inside receiveValue releases the closures when that call returns")
  func justCancelInsideReceiveValue() {
    weak var weakOwner: TestOwner?
    var sink: Subscribers.Sink<Int, Never>?
    var completions = 0
    do {
      let owner = TestOwner()
      weakOwner = owner
      sink = Subscribers.Sink(
        receiveCompletion: { _ in completions += 1 },
        receiveValue: { value in
          guard value >= 0 else { return owner.values.append(value) }  // A probe.
          sink?.cancel()
          // The sink still holds the running closure, and what it captured.
          sink?.receiveValue(-1)
          #expect(weakOwner != nil)
          owner.values.append(value)
        })
      Just(7).subscribe(sink!)
      #expect(owner.values == [-1, 7])
    }
    #expect(completions == 0)
    #expect(weakOwner == nil)
    withExtendedLifetime(sink) {}
  }

  @Test("a sequence: a cancel from inside receiveValue stops it and releases the closures")
  func sequenceCancelInsideReceiveValue() {
    weak var weakOwner: TestOwner?
    var sink: Subscribers.Sink<Int, Never>?
    var values: [Int] = []
    do {
      let owner = TestOwner()
      weakOwner = owner
      sink = Subscribers.Sink(
        receiveCompletion: { _ in values.append(-1) },
        receiveValue: { value in
          values.append(value)
          guard value >= 0 else { return }  // A probe.
          if value == 2 {
            sink?.cancel()
            sink?.receiveValue(-1)  // Still held while this call runs.
          }
          #expect(weakOwner != nil)
          owner.values.append(value)
        })
      [1, 2, 3, 4].publisher.subscribe(sink!)
    }
    #expect(values == [1, 2, -1])
    #expect(weakOwner == nil)
    withExtendedLifetime(sink) {}
  }

  @Test("an operator chain: cancel releases the sink's closures at once, outside any delivery")
  func operatorChainCancel() {
    let subject = PassthroughSubject<Int, Never>()
    weak var weakOwner: TestOwner?
    let sink: Subscribers.Sink<Int, Never>
    do {
      let owner = TestOwner()
      weakOwner = owner
      sink = Subscribers.Sink(
        receiveCompletion: { _ in }, receiveValue: { owner.values.append($0) })
      subject.removeDuplicates().scan(0, +).subscribe(sink)
      subject.send(1)
      subject.send(1)
      subject.send(2)
      #expect(owner.values == [1, 3])
    }
    sink.cancel()
    #expect(weakOwner == nil)
    subject.send(3)
    withExtendedLifetime(sink) {}
  }

  // In the tests below the sink itself stays alive (a user's subscription lets go of it on
  // cancel, which would free the closures anyway): only the cancel can release them.

  @Test("a user's publisher: cancel releases the closures when no delivery is running")
  func foreignUpstreamCancel() {
    let upstream = DirectPublisher()
    weak var weakOwner: TestOwner?
    let sink: Subscribers.Sink<Int, Never>
    do {
      let owner = TestOwner()
      weakOwner = owner
      sink = Subscribers.Sink(
        receiveCompletion: { _ in }, receiveValue: { owner.values.append($0) })
      upstream.subscribe(sink)
      _ = upstream.send(1)
      #expect(owner.values == [1])
    }
    sink.cancel()
    #expect(weakOwner == nil)
    #expect(upstream.subscription?.cancelled == true)
    _ = upstream.send(2)  // A late value after cancel reaches nothing.
    withExtendedLifetime(sink) {}
  }

  @Test("a user's publisher: a cancel from inside receiveValue releases after that call returns")
  func foreignUpstreamCancelInsideReceiveValue() {
    let upstream = DirectPublisher()
    weak var weakOwner: TestOwner?
    var sink: Subscribers.Sink<Int, Never>?
    do {
      let owner = TestOwner()
      weakOwner = owner
      sink = Subscribers.Sink(
        receiveCompletion: { _ in },
        receiveValue: { value in
          guard value >= 0 else { return owner.values.append(value) }  // A probe.
          sink?.cancel()
          sink?.receiveValue(-1)  // Still held while this call runs.
          #expect(weakOwner != nil)
          owner.values.append(value)
        })
      upstream.subscribe(sink!)
      _ = upstream.send(1)
      #expect(owner.values == [-1, 1])
    }
    #expect(weakOwner == nil)
    withExtendedLifetime(sink) {}
  }

  @Test("a user's publisher: a cancel from another thread waits for the delivery in progress")
  func foreignUpstreamCancelDuringDelivery() async {
    let upstream = DirectPublisher()
    let entered = Signal()
    let finished = Signal()
    let resume = DispatchSemaphore(value: 0)
    let owner = WeakBox()
    let probes = LockedBox(0)
    let sink: Subscribers.Sink<Int, Never>
    do {
      let captured = TestOwner()
      owner.object = captured
      sink = Subscribers.Sink(
        receiveCompletion: { _ in },
        receiveValue: { value in
          guard value >= 0 else { return probes.withLock { $0 += 1 } }
          entered.fire()
          // The test signals it; 600 s only bounds a broken run.
          _ = resume.wait(timeout: .now() + 600)
          captured.values.append(value)  // Still alive: the cancel came during this call.
        })
      upstream.subscribe(sink)
    }
    let deliverer = Thread {
      _ = upstream.send(1)
      finished.fire()
    }
    deliverer.start()
    await entered.wait()
    sink.cancel()
    // The sink keeps the closures until the running call returns.
    sink.receiveValue(-1)
    #expect(probes.withLock { $0 } == 1)
    #expect(owner.object != nil)
    resume.signal()
    await finished.wait()
    #expect(owner.object == nil)
    withExtendedLifetime(sink) {}
  }

  @Test("stress: cancels racing deliveries on another thread release the closures exactly once")
  func stressCancelRacingDeliveries() async {
    let failures = Counter()
    await concurrentPerform(64) { iteration in
      let upstream = DirectPublisher()
      let releases = Counter()
      let sink: Subscribers.Sink<Int, Never>
      do {
        let tracker = DeinitTracker(releases)
        sink = Subscribers.Sink(
          receiveCompletion: { _ in }, receiveValue: { tracker.touch($0) })
        upstream.subscribe(sink)
      }
      let done = DispatchSemaphore(value: 0)
      let deliverer = Thread {
        for value in 0..<200 { _ = upstream.send(value) }
        done.signal()
      }
      deliverer.start()
      for _ in 0..<(iteration % 40) { _ = upstream.send(-1) }  // Some deliveries here too.
      sink.cancel()
      if done.wait(timeout: .now() + 30) == .timedOut { failures.increment() }
      // Released once, by the cancel or by the delivery running when it came.
      if releases.value != 1 { failures.increment() }
      withExtendedLifetime(sink) {}
    }
    #expect(failures.value == 0)
  }
}

/// A publisher written as a user would: its subscription keeps the subscriber until cancelled,
/// and `send` delivers on the calling thread.
private final class DirectPublisher: Publisher, @unchecked Sendable {
  // @unchecked Sendable: `subscription` is written once, before any other thread reads it.
  typealias Output = Int
  typealias Failure = Never

  final class Subscription: CombineExCore.Subscription, @unchecked Sendable {
    // @unchecked Sendable: `downstream` and `cancelled` are guarded by `lock`.
    private let lock = NSLock()
    private var downstream: AnySubscriber<Int, Never>?
    private var isCancelled = false

    init(_ downstream: AnySubscriber<Int, Never>) { self.downstream = downstream }

    var cancelled: Bool { lock.withLock { isCancelled } }

    func request(_ demand: Subscribers.Demand) {}

    func cancel() {
      lock.withLock {
        isCancelled = true
        downstream = nil
      }
    }

    func send(_ value: Int) -> Subscribers.Demand {
      let downstream = lock.withLock { self.downstream }
      return downstream?.receive(value) ?? .none
    }
  }

  private(set) var subscription: Subscription?

  func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == Never {
    let subscription = Subscription(AnySubscriber(subscriber))
    self.subscription = subscription
    subscriber.receive(subscription: subscription)
  }

  func send(_ value: Int) -> Subscribers.Demand {
    subscription?.send(value) ?? .none
  }
}

/// Holds an object weakly, across threads.
private final class WeakBox: @unchecked Sendable {
  // @unchecked Sendable: weak references are loaded and stored atomically by the runtime.
  weak var object: TestOwner?
}

/// Counts its own deinitialization; `touch` fails loudly if it runs on a freed tracker.
private final class DeinitTracker: Sendable {
  private let releases: Counter
  private let alive = LockedBox(true)

  init(_ releases: Counter) { self.releases = releases }

  func touch(_ value: Int) {
    precondition(alive.withLock { $0 }, "a sink called a closure whose captures were released")
  }

  deinit {
    alive.withLock { $0 = false }
    releases.increment()
  }
}
