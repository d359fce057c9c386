import CombineExCore
import CombineExTesting
import Foundation
import Testing

/// `receive(on: ImmediateScheduler.shared)` delivers at once. A `sink` (which lets go of its
/// subscription when the stream ends) gets a lock-free delivery path; any other subscriber gets
/// the general one. Both must behave the same, which these tests check side by side.
@Suite("receive(on: ImmediateScheduler)")
struct ReceiveOnImmediateTests {
  /// The two kinds of subscriber, which take the two delivery paths.
  enum Downstream: String, CaseIterable, CustomTestStringConvertible {
    case sink, customSubscriber
    var testDescription: String { rawValue }

    /// Subscribes to `publisher`, logging into `log`; `onValue` runs inside `receive(_:)`.
    func attach(
      to publisher: some Publisher<Int, Never>, log: LockedBox<[String]>,
      onValue: @escaping (Int) -> Void = { _ in }
    ) -> AnyCancellable {
      switch self {
      case .sink:
        return publisher.sink(
          receiveCompletion: { _ in log.withLock { $0.append("finished") } },
          receiveValue: { value in
            log.withLock { $0.append("\(value)") }
            onValue(value)
          })
      case .customSubscriber:
        let recorder = TestSubscriber<Int, Never>()
        let logging = publisher.handleEvents(
          receiveOutput: { value in
            log.withLock { $0.append("\(value)") }
            onValue(value)
          },
          receiveCompletion: { _ in log.withLock { $0.append("finished") } })
        logging.subscribe(recorder)
        return AnyCancellable { recorder.cancel() }
      }
    }
  }

  @Test("values and the completion arrive at once, in order", arguments: Downstream.allCases)
  func deliversAtOnce(downstream: Downstream) {
    let subject = PassthroughSubject<Int, Never>()
    let log = LockedBox<[String]>([])
    let cancellable = downstream.attach(
      to: subject.receive(on: ImmediateScheduler.shared), log: log)
    subject.send(1)
    #expect(log.withLock { $0 } == ["1"])
    subject.send(2)
    subject.send(completion: .finished)
    subject.send(3)
    #expect(log.withLock { $0 } == ["1", "2", "finished"])
    cancellable.cancel()
  }

  @Test(
    "a value sent from inside the subscriber arrives after the current one returns",
    arguments: Downstream.allCases)
  func reentrantSendIsQueued(downstream: Downstream) {
    let subject = PassthroughSubject<Int, Never>()
    let log = LockedBox<[String]>([])
    let cancellable = downstream.attach(
      to: subject.receive(on: ImmediateScheduler.shared), log: log
    ) { value in
      if value < 3 {
        subject.send(value + 10)
        log.withLock { $0.append("sent \(value + 10)") }
      }
    }
    subject.send(1)
    #expect(log.withLock { $0 } == ["1", "sent 11", "11"])
    subject.send(2)
    subject.send(completion: .finished)
    #expect(log.withLock { $0 } == ["1", "sent 11", "11", "2", "sent 12", "12", "finished"])
    cancellable.cancel()
  }

  @Test(
    "a completion sent from inside the subscriber comes after the values sent before it",
    arguments: Downstream.allCases)
  func reentrantCompletionIsQueued(downstream: Downstream) {
    let subject = PassthroughSubject<Int, Never>()
    let log = LockedBox<[String]>([])
    let cancellable = downstream.attach(
      to: subject.receive(on: ImmediateScheduler.shared), log: log
    ) { value in
      if value == 1 {
        subject.send(2)
        subject.send(completion: .finished)
        subject.send(3)
      }
    }
    subject.send(1)
    #expect(log.withLock { $0 } == ["1", "2", "finished"])
    cancellable.cancel()
  }

  @Test("cancelling from inside the subscriber stops delivery at once")
  func cancelFromInside() {
    let subject = PassthroughSubject<Int, Never>()
    var received: [Int] = []
    var cancellable: AnyCancellable?
    cancellable = subject.receive(on: ImmediateScheduler.shared).sink { value in
      received.append(value)
      if value == 1 {
        subject.send(2)  // Queued behind this delivery, then dropped by the cancel.
        cancellable?.cancel()
      }
    }
    subject.send(1)
    subject.send(3)
    #expect(received == [1])
  }

  @Test("cancel releases the subscriber and cancels the upstream")
  func cancelReleases() {
    weak var weakOwner: TestOwner?
    var cancelled = false
    var cancellable: AnyCancellable?
    let subject = PassthroughSubject<Int, Never>()
    do {
      let owner = TestOwner()
      weakOwner = owner
      cancellable =
        subject
        .handleEvents(receiveCancel: { cancelled = true })
        .receive(on: ImmediateScheduler.shared)
        .sink { owner.values.append($0) }
    }
    subject.send(1)
    #expect(weakOwner?.values == [1])
    cancellable?.cancel()
    #expect(cancelled)
    #expect(weakOwner == nil)
  }

  @Test("the completion releases the subscriber's closures")
  func completionReleases() {
    weak var weakOwner: TestOwner?
    let subject = PassthroughSubject<Int, Never>()
    var cancellable: AnyCancellable?
    do {
      let owner = TestOwner()
      weakOwner = owner
      cancellable = subject.receive(on: ImmediateScheduler.shared).sink { owner.values.append($0) }
    }
    subject.send(completion: .finished)
    #expect(weakOwner == nil)
    withExtendedLifetime(cancellable) {}
  }

  @Test("demand reaches the upstream: a sequence publisher delivers everything to a sink")
  func demandPassesThrough() {
    var received: [Int] = []
    var finished = false
    let cancellable = (1...5).publisher.receive(on: ImmediateScheduler.shared).sink(
      receiveCompletion: { _ in finished = true }, receiveValue: { received.append($0) })
    #expect(received == [1, 2, 3, 4, 5])
    #expect(finished)
    cancellable.cancel()
  }

  @Test("the upstream's demand is the subscriber's, and values after a cancel are dropped")
  func demandAndCarelessUpstream() {
    let upstream = ScriptedUpstream<Int, Never>()
    var received: [Int] = []
    let cancellable = upstream.receive(on: ImmediateScheduler.shared).sink { received.append($0) }
    #expect(upstream.requests == [.unlimited])
    upstream.send(1)
    cancellable.cancel()
    #expect(upstream.cancels == 1)
    upstream.send(2)  // A careless upstream: still sending after the cancel.
    upstream.send(completion: .finished)
    #expect(received == [1])
  }

  @Test(
    "stress: 8 threads sending through receive(on: ImmediateScheduler) to a sink, with a cancel racing: every value before the cancel, once, serially"
  )
  func stressSendsAndCancel() async {
    let subject = PassthroughSubject<Int, Never>()
    let checker = SerialDeliveryChecker()
    let kept = subject.receive(on: ImmediateScheduler.shared).sink { checker.receive($0) }
    // Thread 0 cancels `raced` halfway, then sends negative markers: once its cancel has
    // returned, none of them may reach `raced`.
    let markerAfterCancel = LockedBox(false)
    let raced = subject.receive(on: ImmediateScheduler.shared).sink { value in
      if value < 0 { markerAfterCancel.withLock { $0 = true } }
    }
    let threads = 8
    let perThread = 2_000
    await concurrentPerform(threads) { thread in
      for index in 0..<perThread {
        if thread == 0, index == perThread / 2 { raced.cancel() }
        subject.send(thread * perThread + index)
        if thread == 0, index > perThread / 2 { subject.send(-index) }
      }
    }
    #expect(checker.overlaps == 0)
    let values = checker.values.filter { $0 >= 0 }
    #expect(values.sorted() == Array(0..<(threads * perThread)))
    #expect(!markerAfterCancel.withLock { $0 })
    kept.cancel()
  }
}

// Behind a subject, which reports when it has forgotten its subscriber, the operator passes
// the report on to a `sink` (which then counts nothing per value): its closures must still go
// on cancel, while the sink itself is kept.
extension ReceiveOnImmediateTests {
  @Test("behind a subject, cancel releases a kept sink's closures")
  func subjectCancelReleasesClosures() {
    weak var weakOwner: TestOwner?
    let subject = PassthroughSubject<Int, Never>()
    let sink: Subscribers.Sink<Int, Never>
    do {
      let owner = TestOwner()
      weakOwner = owner
      sink = Subscribers.Sink(
        receiveCompletion: { _ in }, receiveValue: { owner.values.append($0) })
    }
    subject.receive(on: ImmediateScheduler.shared).subscribe(sink)
    subject.send(1)
    #expect(weakOwner?.values == [1])
    sink.cancel()
    #expect(weakOwner == nil)
    withExtendedLifetime(sink) {}
  }

  @Test(
    "behind a subject, a cancel from inside a delivery releases a kept sink's closures after it")
  func subjectCancelFromInsideReleasesClosures() {
    weak var weakOwner: TestOwner?
    let subject = PassthroughSubject<Int, Never>()
    let received = Log<Int>()
    let kept = KeptSink()
    do {
      let owner = TestOwner()
      weakOwner = owner
      kept.sink = Subscribers.Sink(
        receiveCompletion: { _ in },
        receiveValue: { value in
          owner.values.append(value)
          received.append(value)
          kept.sink?.cancel()
        })
    }
    subject.receive(on: ImmediateScheduler.shared).subscribe(kept.sink!)
    subject.send(1)
    subject.send(2)
    #expect(received.values == [1])
    #expect(weakOwner == nil)
  }
}

extension ReceiveOnImmediateTests {
  @Test("values sent from inside the subscriber are released once delivered, not at the end")
  func reentrantValuesAreReleased() {
    let counter = InstanceCounter()
    let subject = PassthroughSubject<Counted, Never>()
    let mostAlive = LockedBox(0)
    let cancellable = subject.receive(on: ImmediateScheduler.shared).sink { value in
      mostAlive.withLock { $0 = max($0, counter.alive) }
      // Each value sends the next from inside its delivery: 1,000 re-entrant values in a row.
      if value.value < 1_000 { subject.send(counter.make(value.value + 1)) }
    }
    subject.send(counter.make(0))
    #expect(mostAlive.withLock { $0 } <= 2, "the value delivered and the first one sent")
    #expect(counter.alive == 0)
    cancellable.cancel()
  }
}
