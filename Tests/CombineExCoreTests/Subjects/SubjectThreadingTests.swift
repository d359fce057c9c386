import CombineExCore
import Foundation
import Testing

/// Combine's threading contract for subjects (ARCHITECTURE.md rules 5 and 6): a send returns
/// after delivery, on the sender's thread; a send or an attach from another thread during a
/// delivery waits for it; a cancel or a request from another thread never waits.
@Suite("Subjects: the threading contract")
struct SubjectThreadingTests {
  @Test("stress: a send returns after the sender's own subscriber has received the value")
  func stressSendReturnsAfterDelivery() async {
    let subject = PassthroughSubject<Int, Never>()
    let early = LockedBox(0)
    await concurrentPerform(8) { thread in
      for round in 0..<250 {
        let value = thread * 1_000 + round
        let received = LockedBox(false)
        let cancellable = subject.sink { if $0 == value { received.withLock { $0 = true } } }
        subject.send(value)
        if !received.withLock({ $0 }) { early.withLock { $0 += 1 } }
        cancellable.cancel()
      }
    }
    #expect(early.withLock { $0 } == 0, "sends that returned before their own delivery")
  }

  @Test("stress: a CurrentValueSubject's send returns after the sender's subscriber received it")
  func stressCurrentValueSendReturnsAfterDelivery() async {
    let subject = CurrentValueSubject<Int, Never>(-1)
    let early = LockedBox(0)
    await concurrentPerform(8) { thread in
      for round in 0..<250 {
        let value = thread * 1_000 + round
        let received = LockedBox(false)
        let cancellable = subject.sink { if $0 == value { received.withLock { $0 = true } } }
        subject.send(value)
        if !received.withLock({ $0 }) { early.withLock { $0 += 1 } }
        cancellable.cancel()
      }
    }
    #expect(early.withLock { $0 } == 0, "sends that returned before their own delivery")
  }

  /// What ``sendDuringDelivery(subject:)`` observed.
  struct SendDuringDelivery: Sendable {
    var deliveryThreads: [Int: UInt] = [:]
    var events: [String] = []
    var secondThread: UInt = 0
    var joined = true
  }

  /// Thread A sends 1; while A's subscriber holds the delivery, thread B sends 2.
  static func sendDuringDelivery(
    send: @escaping @Sendable (Int) -> Void,
    subscribe: (@escaping @Sendable (Int) -> Void) -> AnyCancellable
  ) -> SendDuringDelivery {
    let log = LockedBox(SendDuringDelivery())
    let secondStarts = DispatchSemaphore(value: 0)
    let secondReturned = DispatchSemaphore(value: 0)
    var second: SideThread?
    let cancellable = subscribe { value in
      log.withLock { $0.deliveryThreads[value] = currentThreadNumber() }
      guard value == 1 else { return }
      secondStarts.signal()
      // Give B time to send while this delivery runs: it must not return meanwhile.
      if waitBounded(secondReturned, seconds: 0.3) {
        log.withLock { $0.events.append("second send returned during the first delivery") }
      }
      log.withLock { $0.events.append("first delivery ends") }
    }
    second = SideThread {
      _ = waitBounded(secondStarts)
      log.withLock { $0.secondThread = currentThreadNumber() }
      send(2)
      log.withLock { $0.events.append("second send returned") }
      secondReturned.signal()
    }
    send(1)
    let joined = second?.join() ?? false
    cancellable.cancel()
    return log.withLock {
      $0.joined = joined
      return $0
    }
  }

  @Test("a send from another thread during a delivery waits for it, then delivers on its thread")
  func sendFromAnotherThreadWaits() async {
    let subject = PassthroughSubject<Int, Never>()
    let seen = await onOwnThread {
      Self.sendDuringDelivery(
        send: { subject.send($0) }, subscribe: { subject.sink(receiveValue: $0) })
    }
    #expect(seen.joined)
    #expect(seen.events == ["first delivery ends", "second send returned"])
    #expect(seen.deliveryThreads[2] == seen.secondThread)
  }

  @Test("a CurrentValueSubject's send from another thread during a delivery waits for it")
  func currentValueSendFromAnotherThreadWaits() async {
    let subject = CurrentValueSubject<Int, Never>(0)
    let seen = await onOwnThread {
      Self.sendDuringDelivery(
        send: { subject.send($0) }, subscribe: { subject.dropFirst().sink(receiveValue: $0) })
    }
    #expect(seen.joined)
    #expect(seen.events == ["first delivery ends", "second send returned"])
    #expect(seen.deliveryThreads[2] == seen.secondThread)
    #expect(subject.value == 2)
  }

  @Test("a completion sent from another thread during a delivery waits for it")
  func completionFromAnotherThreadWaits() async {
    let subject = PassthroughSubject<Int, Never>()
    let events = await onOwnThread { () -> [String] in
      let log = LockedBox<[String]>([])
      let started = DispatchSemaphore(value: 0)
      let returned = DispatchSemaphore(value: 0)
      let cancellable = subject.sink(
        receiveCompletion: { _ in log.withLock { $0.append("completion") } },
        receiveValue: { _ in
          started.signal()
          if waitBounded(returned, seconds: 0.3) { log.withLock { $0.append("returned early") } }
          log.withLock { $0.append("value delivered") }
        })
      let other = SideThread {
        _ = waitBounded(started)
        subject.send(completion: .finished)
        log.withLock { $0.append("send(completion:) returned") }
        returned.signal()
      }
      subject.send(1)
      _ = other.join()
      cancellable.cancel()
      return log.withLock { $0 }
    }
    #expect(events == ["value delivered", "completion", "send(completion:) returned"])
  }

  @Test("subscribing from another thread during a delivery waits; the replay runs on that thread")
  func attachFromAnotherThreadWaits() async {
    let subject = CurrentValueSubject<Int, Never>(0)
    struct Seen: Sendable {
      var events: [String] = []
      var replayThread: UInt = 0
      var subscriberThread: UInt = 0
    }
    let seen = await onOwnThread { () -> Seen in
      let log = LockedBox(Seen())
      let started = DispatchSemaphore(value: 0)
      let subscribed = DispatchSemaphore(value: 0)
      let first = subject.dropFirst().sink { _ in
        started.signal()
        if waitBounded(subscribed, seconds: 0.3) {
          log.withLock { $0.events.append("subscribed during the delivery") }
        }
        log.withLock { $0.events.append("delivery ends") }
      }
      let late = LockedBox<AnyCancellable?>(nil)
      let other = SideThread {
        _ = waitBounded(started)
        log.withLock { $0.subscriberThread = currentThreadNumber() }
        let cancellable = subject.sink { value in
          log.withLock {
            $0.events.append("late subscriber got \(value)")
            $0.replayThread = currentThreadNumber()
          }
        }
        late.withLock { $0 = cancellable }
        log.withLock { $0.events.append("subscribe returned") }
        subscribed.signal()
      }
      subject.send(1)
      _ = other.join()
      first.cancel()
      late.withLock { $0?.cancel() }
      return log.withLock { $0 }
    }
    #expect(seen.events == ["delivery ends", "late subscriber got 1", "subscribe returned"])
    #expect(seen.replayThread == seen.subscriberThread)
  }

  @Test("a subscriber cancelled from another thread during a delivery is not waited for")
  func cancelFromAnotherThreadDoesNotWait() async {
    let subject = PassthroughSubject<Int, Never>()
    let events = await onOwnThread { () -> [String] in
      let log = LockedBox<[String]>([])
      let cancelled = DispatchSemaphore(value: 0)
      let box = LockedBox<AnyCancellable?>(nil)
      let cancellable = subject.sink { value in
        log.withLock { $0.append("received \(value)") }
        guard value == 1 else { return }
        // The delivery waits for another thread that cancels this very subscriber: a cancel
        // that waited for the delivery would deadlock here.
        let other = SideThread { box.withLock { $0?.cancel() } }
        log.withLock { $0.append(other.join(seconds: 10) ? "cancel returned" : "cancel waited") }
        cancelled.signal()
      }
      box.withLock { $0 = cancellable }
      subject.send(1)
      subject.send(2)  // nothing after cancel
      return log.withLock { $0 }
    }
    #expect(events == ["received 1", "cancel returned"])
  }

  @Test("a request from another thread during a delivery is not waited for")
  func requestFromAnotherThreadDoesNotWait() async {
    let subject = CurrentValueSubject<Int, Never>(0)
    let seen = await onOwnThread { () -> (events: [String], joined: Bool) in
      let log = LockedBox<[String]>([])
      let slow = DemandlessSubscriber(log: log)
      subject.subscribe(slow)
      var joined = true
      let cancellable = subject.dropFirst().sink { value in
        // The delivery waits for another thread that asks for values on the other subscriber.
        let other = SideThread { slow.request(.max(1)) }
        joined = other.join(seconds: 10)
        log.withLock { $0.append("delivery of \(value) ends") }
      }
      subject.send(1)
      // The holder delivered the value the request made due before its send returned.
      log.withLock { $0.append("send returned") }
      cancellable.cancel()
      return (log.withLock { $0 }, joined)
    }
    #expect(seen.joined)
    #expect(seen.events == ["delivery of 1 ends", "slow got 1", "send returned"])
  }

  @Test("a thread waiting for another thread's delivery sleeps instead of spinning")
  func waitingThreadSleeps() async {
    let subject = PassthroughSubject<Int, Never>()
    let cpuSeconds = await onOwnThread { () -> Double in
      let started = DispatchSemaphore(value: 0)
      let cpu = LockedBox(0.0)
      var waiter: SideThread?
      let cancellable = subject.sink { value in
        guard value == 1 else { return }
        started.signal()
        // Hold the delivery for a while: the other thread's send waits for it.
        _ = waiter?.join(seconds: 0.3)
      }
      waiter = SideThread {
        _ = waitBounded(started)
        let start = threadCPUSeconds()
        subject.send(2)
        cpu.withLock { $0 = threadCPUSeconds() - start }
      }
      subject.send(1)
      _ = waiter?.join()
      cancellable.cancel()
      return cpu.withLock { $0 }
    }
    #expect(cpuSeconds < 0.1, "the waiting thread used \(cpuSeconds) s of processor time")
  }

  @Test("stress: sends, subscribes and cancels on 8 threads deliver serially, without loss")
  func stressMixed() async {
    let subject = PassthroughSubject<Int, Never>()
    let checker = LockedBox((inside: false, overlaps: 0, total: 0))
    let keeper = subject.sink { _ in
      let overlapped = checker.withLock { state -> Bool in
        defer { state.inside = true }
        return state.inside
      }
      if overlapped { checker.withLock { $0.overlaps += 1 } }
      checker.withLock {
        $0.inside = false
        $0.total += 1
      }
    }
    await concurrentPerform(8) { thread in
      for round in 0..<300 {
        if thread.isMultiple(of: 2) {
          subject.send(round)
        } else {
          let cancellable = subject.sink { _ in }
          subject.send(-round)
          cancellable.cancel()
        }
      }
    }
    #expect(checker.withLock { $0.overlaps } == 0)
    #expect(checker.withLock { $0.total } == 8 * 300)
    keeper.cancel()
  }
}

/// A subscriber that requests nothing until told to, and logs what it receives.
final class DemandlessSubscriber: Subscriber, @unchecked Sendable {
  // @unchecked Sendable: `subscription` is guarded by `lock`; `log` is thread-safe.
  typealias Input = Int
  typealias Failure = Never

  private let lock = NSLock()
  private var subscription: (any Subscription)?
  let log: LockedBox<[String]>

  init(log: LockedBox<[String]>) {
    self.log = log
  }

  func receive(subscription: any Subscription) {
    lock.withLock { self.subscription = subscription }
  }

  func receive(_ input: Int) -> Subscribers.Demand {
    log.withLock { $0.append("slow got \(input)") }
    return .none
  }

  func receive(completion: Subscribers.Completion<Never>) {}

  func request(_ demand: Subscribers.Demand) {
    lock.withLock { subscription }?.request(demand)
  }
}
