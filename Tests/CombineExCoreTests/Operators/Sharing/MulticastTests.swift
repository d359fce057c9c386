import CombineExCore
import CombineExTesting
import Foundation
import Testing

@Suite("multicast")
struct MulticastTests {
  // MARK: Normal path

  @Test("nothing flows until connect(); then every subscriber receives the same values")
  func connectBroadcasts() {
    let log = UpstreamLog()
    let multicast:
      Publishers.Multicast<
        UpstreamProbe<Publishers.Sequence<[Int], Never>>, PassthroughSubject<Int, Never>
      > =
        [1, 2, 3].publisher.probed(log).multicast { PassthroughSubject<Int, Never>() }
    let first = multicast.record()
    let second = multicast.record()
    #expect(first.values.isEmpty)
    #expect(log.subscriptions == 0)
    let connection = multicast.connect()
    #expect(log.subscriptions == 1)
    #expect(first.values == [1, 2, 3])
    #expect(second.values == [1, 2, 3])
    #expect(first.receivedCompletion.isFinished)
    #expect(second.receivedCompletion.isFinished)
    connection.cancel()
  }

  @Test("the subject factory runs once, lazily")
  func factoryRunsOnceLazily() {
    var made = 0
    let multicast = PassthroughSubject<Int, Never>().multicast {
      () -> PassthroughSubject<Int, Never> in
      made += 1
      return PassthroughSubject()
    }
    #expect(made == 0)
    let first = multicast.record()
    let second = multicast.record()
    let connection = multicast.connect()
    #expect(made == 1)
    withExtendedLifetime((first, second)) {}
    connection.cancel()
  }

  @Test("connect() before any subscriber creates the subject too")
  func connectCreatesSubject() {
    var made = 0
    let upstream = PassthroughSubject<Int, Never>()
    let multicast = upstream.multicast { () -> PassthroughSubject<Int, Never> in
      made += 1
      return PassthroughSubject()
    }
    let connection = multicast.connect()
    #expect(made == 1)
    let recorder = multicast.record()
    upstream.send(1)
    #expect(recorder.values == [1])
    #expect(made == 1)
    connection.cancel()
  }

  @Test("multicast(subject:) delivers through the given subject")
  func givenSubject() {
    let upstream = PassthroughSubject<Int, Never>()
    let subject = PassthroughSubject<Int, Never>()
    let multicast = upstream.multicast(subject: subject)
    let recorder = multicast.record()
    let connection = multicast.connect()
    upstream.send(1)
    subject.send(2)  // the subject is shared: what it sends reaches the subscribers too
    #expect(recorder.values == [1, 2])
    connection.cancel()
  }

  @Test("the subject receives the upstream's subscription and decides the demand")
  func subjectDecidesDemand() {
    let log = UpstreamLog()
    let multicast = PassthroughSubject<Int, Never>().probed(log).multicast(
      subject: CurrentValueSubject<Int, Never>(0))
    let connection = multicast.connect()
    #expect(log.requests == [.unlimited])
    connection.cancel()
    #expect(log.cancels == 1)
  }

  @Test("a CurrentValueSubject replays its value to each subscriber")
  func currentValueSubject() {
    let upstream = PassthroughSubject<Int, Never>()
    let multicast = upstream.multicast(subject: CurrentValueSubject<Int, Never>(0))
    let connection = multicast.connect()
    upstream.send(5)
    let late = multicast.record()
    #expect(late.values == [5])
    connection.cancel()
  }

  @Test("Multicast is a class: its copies share the subject")
  func isAClass() {
    var made = 0
    let upstream = PassthroughSubject<Int, Never>()
    let multicast = upstream.multicast { () -> PassthroughSubject<Int, Never> in
      made += 1
      return PassthroughSubject()
    }
    let copy = multicast
    #expect(copy === multicast)
    let recorder = copy.record()
    let connection = multicast.connect()
    upstream.send(1)
    #expect(recorder.values == [1])
    #expect(made == 1)
    connection.cancel()
  }

  @Test("a subscriber's subscription is the multicast's own, named Multicast, as in Combine")
  func subscriptionName() {
    let multicast = PassthroughSubject<Int, Never>().multicast(subject: CurrentValueSubject(0))
    var description: String?
    multicast.subscribe(
      AnySubscriber<Int, Never>(receiveSubscription: {
        description = String(describing: $0)
        $0.cancel()
      }))
    #expect(description == "Multicast")
  }

  @Test("a subscriber's subscription shows Multicast as its playground value, and no children")
  func subscriptionReflection() throws {
    let multicast = PassthroughSubject<Int, Never>().multicast { PassthroughSubject<Int, Never>() }
    let keeper = SubscriptionKeeper<Int, Never>()
    multicast.subscribe(keeper)
    let view = DebuggerView(try #require(keeper.subscription))
    #expect(view.description == "Multicast")
    #expect(view.playgroundDescription == "Multicast")
    #expect(view.labels == [])
  }

  @Test("the demand a subscriber returns for a value is requested from the subject")
  func returnedDemandReachesSubject() {
    let upstream = PassthroughSubject<Int, Never>()
    let multicast = upstream.multicast { PassthroughSubject<Int, Never>() }
    var received: [Int] = []
    let subscriber = AnySubscriber<Int, Never>(
      receiveSubscription: { $0.request(.max(1)) },
      receiveValue: { value in
        received.append(value)
        return .max(1)
      })
    multicast.subscribe(subscriber)
    let connection = multicast.connect()
    upstream.send(1)
    upstream.send(2)  // only requested through the demand returned for 1
    upstream.send(3)
    #expect(received == [1, 2, 3])
    connection.cancel()
  }

  // MARK: Connection

  @Test("each connect() subscribes the subject to the upstream again, as in Combine")
  func connectTwice() {
    let log = UpstreamLog()
    let upstream = PassthroughSubject<Int, Never>()
    let multicast = upstream.probed(log).multicast { PassthroughSubject<Int, Never>() }
    let recorder = multicast.record()
    let first = multicast.connect()
    let second = multicast.connect()
    #expect(log.subscriptions == 2)
    upstream.send(1)
    #expect(recorder.values == [1, 1])
    second.cancel()
    #expect(log.cancels == 1)
    upstream.send(2)
    #expect(recorder.values == [1, 1, 2])
    first.cancel()
    #expect(log.cancels == 2)
  }

  @Test("the connection holds the subject weakly: a subject nothing holds goes, and cancels")
  func connectionHoldsSubjectWeakly() {
    let log = UpstreamLog()
    weak var weakSubject: PassthroughSubject<Int, Never>?
    var connection: (any Cancellable)?
    do {
      let subject = PassthroughSubject<Int, Never>()
      weakSubject = subject
      connection = PassthroughSubject<Int, Never>().probed(log).multicast(subject: subject)
        .connect()
    }
    #expect(weakSubject == nil)
    #expect(log.cancels == 1)
    connection?.cancel()
    #expect(log.cancels == 1)
  }

  @Test("a subscriber keeps the subject alive while it is attached")
  func subscriberKeepsSubject() {
    let upstream = PassthroughSubject<Int, Never>()
    var recorder: TestSubscriber<Int, Never>?
    var connection: (any Cancellable)?
    do {
      let multicast = upstream.multicast { PassthroughSubject<Int, Never>() }
      recorder = multicast.record()
      connection = multicast.connect()
    }
    upstream.send(1)
    #expect(recorder?.values == [1])
    connection?.cancel()
  }

  @Test("cancelling the connection cancels the upstream; a later connect() subscribes anew")
  func reconnect() {
    let log = UpstreamLog()
    let upstream = PassthroughSubject<Int, Never>()
    let multicast = upstream.probed(log).multicast { PassthroughSubject<Int, Never>() }
    let recorder = multicast.record()
    let connection = multicast.connect()
    upstream.send(1)
    connection.cancel()
    upstream.send(2)
    let again = multicast.connect()
    upstream.send(3)
    #expect(log.subscriptions == 2)
    #expect(recorder.values == [1, 3])
    #expect(recorder.receivedCompletion == nil)
    again.cancel()
  }

  @Test("after the upstream completes, late subscribers get only the completion")
  func afterCompletion() {
    let multicast = [1].publisher.multicast { PassthroughSubject<Int, Never>() }
    let early = multicast.record()
    let connection = multicast.connect()
    let late = multicast.record()
    let again = multicast.connect()  // the subject has completed: nothing more reaches anyone
    #expect(early.values == [1])
    #expect(early.receivedCompletion.isFinished)
    #expect(late.values.isEmpty)
    #expect(late.receivedCompletion.isFinished)
    again.cancel()
    connection.cancel()
  }

  @Test("the upstream's failure reaches every subscriber")
  func failure() {
    let upstream = PassthroughSubject<Int, TestError>()
    let multicast = upstream.multicast { PassthroughSubject<Int, TestError>() }
    let first = multicast.record()
    let second = multicast.record()
    let connection = multicast.connect()
    upstream.send(completion: .failure(TestError(4)))
    #expect(first.receivedCompletion?.failure == TestError(4))
    #expect(second.receivedCompletion?.failure == TestError(4))
    connection.cancel()
  }

  // MARK: Demand

  @Test("a subscriber without demand misses values, as with a PassthroughSubject")
  func demand() {
    let upstream = PassthroughSubject<Int, Never>()
    let multicast = upstream.multicast { PassthroughSubject<Int, Never>() }
    let recorder = multicast.record(initialDemand: .none)
    let connection = multicast.connect()
    upstream.send(1)
    recorder.request(.max(1))
    upstream.send(2)
    upstream.send(3)
    #expect(recorder.values == [2])
    connection.cancel()
  }

  // MARK: Cancel and lifetime

  @Test("a subscriber's cancel releases it; the others keep receiving")
  func subscriberCancel() {
    weak var weakOwner: TestOwner?
    let upstream = PassthroughSubject<Int, Never>()
    let multicast = upstream.multicast { PassthroughSubject<Int, Never>() }
    let other = multicast.record()
    let connection = multicast.connect()
    var cancellable: AnyCancellable?
    do {
      let owner = TestOwner()
      weakOwner = owner
      cancellable = multicast.sink { owner.values.append($0) }
    }
    upstream.send(1)
    #expect(weakOwner?.values == [1])
    cancellable?.cancel()
    upstream.send(2)
    #expect(weakOwner == nil)
    #expect(other.values == [1, 2])
    connection.cancel()
  }

  @Test("the multicast and its subject are freed once the connection ends and nothing holds them")
  func freed() {
    weak var weakMulticast:
      Publishers.Multicast<PassthroughSubject<Int, Never>, PassthroughSubject<Int, Never>>?
    weak var weakSubject: PassthroughSubject<Int, Never>?
    let upstream = PassthroughSubject<Int, Never>()
    do {
      let multicast = upstream.multicast { () -> PassthroughSubject<Int, Never> in
        let subject = PassthroughSubject<Int, Never>()
        weakSubject = subject
        return subject
      }
      weakMulticast = multicast
      let recorder = multicast.record()
      let connection = multicast.connect()
      upstream.send(1)
      #expect(recorder.values == [1])
      connection.cancel()
      recorder.cancel()
    }
    #expect(weakMulticast == nil)
    #expect(weakSubject == nil)
  }

  // MARK: Stress

  @Test("stress: eight threads subscribing at once to a fresh multicast create one subject")
  func stressFactoryOnce() async {
    for _ in 0..<20 {
      let made = Counter()
      let upstream = PassthroughSubject<Int, Never>()
      let multicast = upstream.multicast { () -> PassthroughSubject<Int, Never> in
        made.increment()
        return PassthroughSubject()
      }
      let subscribers = (0..<8).map { _ in OrderedStressSubscriber<Int, Never>() }
      await runOnThreads(8) { thread in
        multicast.subscribe(subscribers[thread])
      }
      let connection = multicast.connect()
      upstream.send(7)
      #expect(made.value == 1)
      for subscriber in subscribers { #expect(subscriber.values == [7]) }
      connection.cancel()
    }
  }

  @Test(
    "stress: connecting and cancelling from eight threads cancels every upstream subscription"
  )
  func stressConnect() async {
    let log = UpstreamLog()
    let multicast = PassthroughSubject<Int, Never>().probed(log).multicast {
      PassthroughSubject<Int, Never>()
    }
    await runOnThreads(8) { _ in
      for _ in 0..<200 {
        let connection = multicast.connect()
        connection.cancel()
      }
    }
    #expect(log.subscriptions == log.cancels)
    #expect(log.subscriptions >= 1)
  }

  @Test("a subscriber arriving while another thread runs createSubject sleeps until it is made")
  func waitsForSubjectCreationWithoutSpinning() async {
    let cpuSeconds = await onOwnThread { () -> Double in
      let creating = DispatchSemaphore(value: 0)
      let release = DispatchSemaphore(value: 0)
      let multicast = Empty<Int, Never>(completeImmediately: false).multicast {
        () -> PassthroughSubject<Int, Never> in
        creating.signal()
        _ = waitBounded(release, seconds: 10)
        return PassthroughSubject()
      }
      let creator = SideThread { _ = multicast.sink { _ in } }
      _ = waitBounded(creating)
      let cpu = LockedBox(0.0)
      let waiter = SideThread {
        let start = threadCPUSeconds()
        let cancellable = multicast.sink { _ in }
        cpu.withLock { $0 = threadCPUSeconds() - start }
        cancellable.cancel()
      }
      // Let the waiter find the subject being created, then finish creating it.
      _ = waiter.join(seconds: 0.5)
      release.signal()
      _ = waiter.join()
      _ = creator.join()
      return cpu.withLock { $0 }
    }
    #expect(cpuSeconds < 0.05, "the waiting thread used \(cpuSeconds) s of processor time")
  }
}
