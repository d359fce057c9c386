import CombineExCore
import Foundation
import Testing

/// `sink` on a subject, or on `map`, `filter` or `compactMap` of one, keeps its closures in the
/// subject's own subscription instead of a `Subscribers.Sink` (one object instead of three).
/// These tests run each behaviour both ways, `sink(...)` and `subscribe(Subscribers.Sink(...))`
/// on the same chain, and expect the same result.
@Suite("subject.sink: closures kept in the subject's subscription")
struct SubjectSinkTests {
  /// The two ways of attaching closures that must behave alike.
  enum Attach: CaseIterable, CustomStringConvertible, Sendable {
    case sinkMethod
    case sinkSubscriber

    var description: String { self == .sinkMethod ? "sink(...)" : "subscribe(Subscribers.Sink)" }

    func attach<P: Publisher>(
      _ publisher: P,
      completion: @escaping (Subscribers.Completion<P.Failure>) -> Void = { _ in },
      value: @escaping (P.Output) -> Void
    ) -> AnyCancellable {
      switch self {
      case .sinkMethod:
        return publisher.sink(receiveCompletion: completion, receiveValue: value)
      case .sinkSubscriber:
        let sink = Subscribers.Sink<P.Output, P.Failure>(
          receiveCompletion: completion, receiveValue: value)
        publisher.subscribe(sink)
        return AnyCancellable(sink)
      }
    }
  }

  @Test(
    "values through map, filter and compactMap arrive in order, then the completion once",
    arguments: Attach.allCases)
  func valuesThenCompletion(_ attach: Attach) {
    let subject = CurrentValueSubject<Int, TestError>(0)
    var log: [String] = []
    let cancellable = attach.attach(
      subject.map { $0 * 2 }.filter { $0 != 4 }.compactMap { $0 < 10 ? $0 : nil },
      completion: { log.append("\($0)") }, value: { log.append("\($0)") })
    for value in 1...6 { subject.send(value) }
    subject.send(completion: .failure(TestError(1)))
    subject.send(7)
    subject.send(completion: .finished)
    #expect(log == ["0", "2", "6", "8", "failure(TestError(1))"])
    withExtendedLifetime(cancellable) {}
  }

  @Test("demand is unlimited: a thousand sends are all delivered", arguments: Attach.allCases)
  func unlimitedDemand(_ attach: Attach) {
    let subject = PassthroughSubject<Int, Never>()
    var total = 0
    let cancellable = attach.attach(subject) { total += $0 }
    for value in 1...1000 { subject.send(value) }
    #expect(total == 500_500)
    withExtendedLifetime(cancellable) {}
  }

  @Test(
    "a value sent from inside receiveValue is delivered nested, as Combine does",
    arguments: Attach.allCases)
  func reentrantSend(_ attach: Attach) {
    let subject = PassthroughSubject<Int, Never>()
    var log: [String] = []
    let first = attach.attach(subject.map { $0 + 100 }) { value in
      log.append("a\(value) begin")
      if value == 101 { subject.send(2) }
      log.append("a\(value) end")
    }
    let second = attach.attach(subject) { log.append("b\($0)") }
    subject.send(1)
    #expect(log == ["a101 begin", "a102 begin", "a102 end", "b2", "a101 end", "b1"])
    withExtendedLifetime((first, second)) {}
  }

  @Test(
    "a completion sent from inside receiveValue is delivered at once, and nothing after it",
    arguments: Attach.allCases)
  func reentrantCompletion(_ attach: Attach) {
    let subject = PassthroughSubject<Int, Never>()
    var log: [String] = []
    let cancellable = attach.attach(
      subject, completion: { log.append("\($0)") },
      value: { value in
        log.append("\(value) begin")
        subject.send(completion: .finished)
        subject.send(value + 1)
        log.append("\(value) end")
      })
    subject.send(1)
    #expect(log == ["1 begin", "finished", "1 end"])
    withExtendedLifetime(cancellable) {}
  }

  @Test(
    "a cancel from inside receiveValue stops later values; the closures go when it returns",
    arguments: Attach.allCases)
  func cancelInsideReceiveValue(_ attach: Attach) {
    let subject = PassthroughSubject<Int, Never>()
    weak var weakOwner: TestOwner?
    var cancellable: AnyCancellable?
    var aliveDuringCall: Bool?
    do {
      let owner = TestOwner()
      weakOwner = owner
      cancellable = attach.attach(subject.filter { _ in owner.values.count < 100 }) { value in
        owner.values.append(value)
        if value == 2 {
          cancellable?.cancel()
          subject.send(99)  // Not delivered: cancelled.
          aliveDuringCall = weakOwner != nil
        }
      }
      subject.send(1)
      subject.send(2)
      subject.send(3)
      #expect(owner.values == [1, 2])
    }
    #expect(aliveDuringCall == true)
    #expect(weakOwner == nil)
    withExtendedLifetime(cancellable) {}
  }

  @Test("dropping the cancellable cancels and releases the closures", arguments: Attach.allCases)
  func droppingCancellable(_ attach: Attach) {
    let subject = PassthroughSubject<Int, Never>()
    weak var weakOwner: TestOwner?
    var values: [Int] = []
    do {
      let owner = TestOwner()
      weakOwner = owner
      let cancellable = attach.attach(subject) { value in
        owner.values.append(value)
        values.append(value)
      }
      subject.send(1)
      withExtendedLifetime(cancellable) {}
    }
    subject.send(2)
    #expect(values == [1])
    #expect(weakOwner == nil)
  }

  @Test("cancel twice, or after the completion, does nothing", arguments: Attach.allCases)
  func cancelTwice(_ attach: Attach) {
    let subject = PassthroughSubject<Int, Never>()
    var log: [String] = []
    let first = attach.attach(subject, completion: { log.append("\($0)") }) { log.append("\($0)") }
    let second = attach.attach(subject) { log.append("second \($0)") }
    subject.send(1)
    first.cancel()
    first.cancel()
    subject.send(2)
    subject.send(completion: .finished)
    second.cancel()
    #expect(log == ["1", "second 1", "second 2"])
  }

  @Test(
    "a sink on a failed subject gets the failure at once and nothing else",
    arguments: Attach.allCases)
  func completedSubject(_ attach: Attach) {
    let subject = CurrentValueSubject<Int, TestError>(5)
    subject.send(completion: .failure(TestError(2)))
    weak var weakOwner: TestOwner?
    var log: [String] = []
    let cancellable: AnyCancellable
    do {
      let owner = TestOwner()
      weakOwner = owner
      cancellable = attach.attach(
        subject.map { $0 + 1 }, completion: { log.append("\($0) \(owner.values)") },
        value: { owner.values.append($0) })
    }
    subject.send(6)
    #expect(log == ["failure(TestError(2)) []"])
    #expect(weakOwner == nil)
    withExtendedLifetime(cancellable) {}
  }

  @Test(
    "a sink attached from inside a delivery receives only the later values",
    arguments: Attach.allCases)
  func attachDuringDelivery(_ attach: Attach) {
    let subject = PassthroughSubject<Int, Never>()
    var late: [Int] = []
    var inner: AnyCancellable?
    let outer = attach.attach(subject) { value in
      if inner == nil { inner = attach.attach(subject) { late.append($0) } }
    }
    subject.send(1)
    subject.send(2)
    #expect(late == [2])
    withExtendedLifetime((outer, inner)) {}
  }

  @Test(
    "a cancel from another thread during a delivery lets it finish, then releases the closures",
    arguments: Attach.allCases)
  func cancelFromAnotherThreadDuringDelivery(_ attach: Attach) async {
    let subject = PassthroughSubject<Int, Never>()
    let entered = Signal()
    let sent = Signal()
    let resume = DispatchSemaphore(value: 0)
    let received = LockedBox<[Int]>([])
    let owner = WeakOwner()
    let cancellable: AnyCancellable
    do {
      let captured = TestOwner()
      owner.object = captured
      cancellable = attach.attach(subject) { value in
        received.withLock { $0.append(value) }
        entered.fire()
        // The test signals it; 600 s only bounds a broken run.
        _ = resume.wait(timeout: .now() + 600)
        captured.values.append(value)
      }
    }
    let sender = Thread {
      subject.send(1)
      subject.send(2)
      sent.fire()
    }
    sender.start()
    await entered.wait()
    cancellable.cancel()
    #expect(owner.object != nil)  // The running call still holds what it captured.
    resume.signal()
    await sent.wait()
    #expect(received.withLock { $0 } == [1])
    #expect(owner.object == nil)
  }

  @Test("a sink on any other publisher still hands it a Subscribers.Sink described as Sink")
  func otherUpstreamGetsSink() {
    let recorder = SubscriberRecorder()
    let cancellable = recorder.sink { _ in }
    #expect(recorder.descriptions == ["Sink"])
    #expect(recorder.wasSink)
    withExtendedLifetime(cancellable) {}
  }

  @Test("stress: sinks attached, fed and cancelled on many threads release their closures once")
  func stressAttachSendCancel() async {
    let subject = PassthroughSubject<Int, Never>()
    let releases = Counter()
    let deliveries = Counter()
    await concurrentPerform(64) { iteration in
      let cancellable: AnyCancellable
      do {
        let tracker = ReleaseTracker(releases)
        let attach = iteration.isMultiple(of: 2) ? Attach.sinkMethod : .sinkSubscriber
        cancellable = attach.attach(subject.map { $0 + 1 }) { value in
          tracker.touch(value)
          deliveries.increment()
        }
      }
      for value in 0..<(iteration % 16) { subject.send(value) }
      cancellable.cancel()
      subject.send(-1)
    }
    // Every sink was cancelled: its closures are gone once the deliveries in progress ended,
    // which they have (every send returned).
    #expect(releases.value == 64)
    #expect(deliveries.value > 0)
  }
}

/// Holds an object weakly, across threads.
private final class WeakOwner: @unchecked Sendable {
  // @unchecked Sendable: weak references are loaded and stored atomically by the runtime.
  weak var object: TestOwner?
}

/// Counts its own deinitialization; `touch` fails loudly if it runs on a released tracker.
private final class ReleaseTracker: Sendable {
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

/// A publisher that records the subscribers it is given, and hands each a subscription that
/// does nothing.
private final class SubscriberRecorder: Publisher, @unchecked Sendable {
  // @unchecked Sendable: used on one thread only.
  typealias Output = Int
  typealias Failure = Never

  private(set) var descriptions: [String] = []
  private(set) var wasSink = false

  func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == Never {
    descriptions.append(String(describing: subscriber))
    wasSink = subscriber is Subscribers.Sink<Int, Never>
    subscriber.receive(subscription: Subscriptions.empty)
  }
}
