import CombineEx
import CombineExTesting
import Testing

/// The tests that count registry entries give the sink a registry of their own
/// (`sink(duringLifetimeOf:in:...)`), so that their counts are exact. The one test of the shared
/// registry relies on this suite being serialized: no other suite binds to that registry.
@Suite("sink(duringLifetimeOf:)", .serialized)
struct SinkDuringLifetimeTests {
  final class Owner {
    var values: [Int] = []
  }

  @Test("the owner keeps the subscription alive without a stored cancellable")
  func ownerKeepsSubscription() {
    let subject = PassthroughSubject<Int, Never>()
    let owner = Owner()
    subject.sink(
      duringLifetimeOf: owner, receiveValue: { [unowned owner] in owner.values.append($0) })
    subject.send(1)
    subject.send(2)
    #expect(owner.values == [1, 2])
  }

  @Test("the owner is never retained")
  func ownerNotRetained() {
    weak var weakOwner: Owner?
    let subject = PassthroughSubject<Int, Never>()
    do {
      let owner = Owner()
      weakOwner = owner
      subject.sink(duringLifetimeOf: owner, receiveValue: { _ in })
    }
    #expect(weakOwner == nil)
  }

  @Test("once the owner is gone, the next event cancels the subscription with receiveCancel")
  func ownerGoneCancelsOnNextEvent() {
    let subject = PassthroughSubject<Int, Never>()
    let probe = SubscriptionProbe(subject)
    var received: [Int] = []
    var cancels = 0
    var owner: Owner? = Owner()
    probe.publisher.sink(
      duringLifetimeOf: owner!, receiveValue: { received.append($0) },
      receiveCancel: { cancels += 1 })
    subject.send(1)
    owner = nil
    subject.send(2)
    subject.send(3)
    #expect(received == [1])
    #expect(cancels == 1)
    #expect(probe.cancels == 1)
  }

  @Test("the returned cancellable cancels early and calls receiveCancel once")
  func cancelEarly() {
    let subject = PassthroughSubject<Int, Never>()
    let owner = Owner()
    var cancels = 0
    let cancellable = subject.sink(
      duringLifetimeOf: owner, receiveValue: { [unowned owner] in owner.values.append($0) },
      receiveCancel: { cancels += 1 })
    subject.send(1)
    cancellable.cancel()
    cancellable.cancel()
    subject.send(2)
    #expect(owner.values == [1])
    #expect(cancels == 1)
  }

  @Test("every handler is called: subscription, request, values, completion")
  func allHandlers() {
    let owner = Owner()
    var log: [String] = []
    [1, 2].publisher.sink(
      duringLifetimeOf: owner,
      receiveSubscription: { _ in log.append("subscription") },
      receiveValue: { log.append("value \($0)") },
      receiveCompletion: { log.append("completion \($0)") },
      receiveCancel: { log.append("cancel") },
      receiveRequest: { log.append("request \($0)") })
    #expect(
      log == [
        "subscription", "request unlimited", "value 1", "value 2", "completion finished",
      ])
  }

  @Test("10,000 finished sinks leave nothing behind: no registry entry, nothing captured")
  func finishedSinksAreForgotten() {
    let bindings = LifetimeBindings()
    let owner = Owner()
    weak var weakCaptured: Owner?
    do {
      let captured = Owner()
      weakCaptured = captured
      for value in 0..<10_000 {
        Just(value).sink(
          duringLifetimeOf: owner, in: bindings, receiveValue: { captured.values.append($0) })
      }
      #expect(captured.values.count == 10_000)
    }
    #expect(bindings.count == 0)
    #expect(weakCaptured == nil)
  }

  @Test("a sink is registered while it runs and unregistered when its publisher completes")
  func completionUnregisters() {
    let bindings = LifetimeBindings()
    let owner = Owner()
    let subject = PassthroughSubject<Int, TestFailure>()
    subject.sink(duringLifetimeOf: owner, in: bindings)
    subject.sink(duringLifetimeOf: owner, in: bindings)
    #expect(bindings.count == 2)
    subject.send(completion: .failure(TestFailure()))
    #expect(bindings.count == 0)
  }

  @Test("1,000 cancelled sinks leave no registry entry")
  func cancelledSinksAreForgotten() {
    let bindings = LifetimeBindings()
    let owner = Owner()
    let subject = PassthroughSubject<Int, Never>()
    let cancellables = (0..<1_000).map { _ in
      subject.sink(duringLifetimeOf: owner, in: bindings, receiveValue: { _ in })
    }
    #expect(bindings.count == 1_000)
    for cancellable in cancellables { cancellable.cancel() }
    #expect(bindings.count == 0)
  }

  @Test("1,000 sinks whose owners died leave no registry entry after the next event")
  func sinksOfDeadOwnersAreForgottenOnTheNextEvent() {
    let bindings = LifetimeBindings()
    let subject = PassthroughSubject<Int, Never>()
    var cancels = 0
    var received = 0
    var owners = (0..<1_000).map { _ in Owner() }
    for owner in owners {
      subject.sink(
        duringLifetimeOf: owner, in: bindings, receiveValue: { _ in received += 1 },
        receiveCancel: { cancels += 1 })
    }
    #expect(bindings.count == 1_000)
    owners.removeAll()
    subject.send(1)
    #expect(received == 0)
    #expect(cancels == 1_000)
    #expect(bindings.count == 0)
  }

  @Test("the public sink keeps its subscription in the shared registry until it ends")
  func publicSinkUsesTheSharedRegistry() {
    let owner = Owner()
    let subject = PassthroughSubject<Int, Never>()
    let start = LifetimeBindings.shared.count
    let cancellable = subject.sink(duringLifetimeOf: owner, receiveValue: { _ in })
    #expect(LifetimeBindings.shared.count == start + 1)
    cancellable.cancel()
    #expect(LifetimeBindings.shared.count == start)
    Just(1).sink(duringLifetimeOf: owner)
    #expect(LifetimeBindings.shared.count == start)
  }

  @Test("a sink ended because its owner is gone releases what its handlers captured")
  func ownerGoneReleasesHandlers() {
    let bindings = LifetimeBindings()
    let subject = PassthroughSubject<Int, Never>()
    weak var weakCaptured: Owner?
    var owner: Owner? = Owner()
    do {
      let captured = Owner()
      weakCaptured = captured
      subject.sink(
        duringLifetimeOf: owner!, in: bindings, receiveValue: { captured.values.append($0) },
        receiveCancel: { _ = captured })
    }
    owner = nil
    #expect(weakCaptured != nil)  // nothing has noticed yet: no event, no sweep
    subject.send(1)
    #expect(weakCaptured == nil)
    #expect(bindings.count == 0)
  }

  @Test("the registry's sweep ends a sink whose owner is gone without waiting for an event")
  func sweepEndsOrphansWithoutAnEvent() {
    // The registry sweeps when a new sink makes it reach its threshold, 64 entries at first
    // (then twice the live entries after each sweep): the orphan must be gone by then.
    let bindings = LifetimeBindings()
    let quiet = PassthroughSubject<Int, Never>()
    let probe = SubscriptionProbe(quiet)
    var cancels = 0
    weak var weakCaptured: Owner?
    var owner: Owner? = Owner()
    do {
      let captured = Owner()
      weakCaptured = captured
      probe.publisher.sink(
        duringLifetimeOf: owner!, in: bindings, receiveValue: { captured.values.append($0) },
        receiveCancel: { cancels += 1 })
    }
    owner = nil
    #expect(bindings.count == 1)
    let liveOwner = Owner()
    let others = PassthroughSubject<Int, Never>()
    var bound = 0
    while cancels == 0, bound < 63 {
      others.sink(duringLifetimeOf: liveOwner, in: bindings)
      bound += 1
    }
    #expect(cancels == 1)
    #expect(probe.cancels == 1)
    #expect(weakCaptured == nil)
    #expect(bindings.count == bound)
    quiet.send(1)
    #expect(cancels == 1)
  }

  @Test("sinks whose owners died never pile up: 10,000 of them keep the registry under 64")
  func orphansNeverPileUp() {
    let bindings = LifetimeBindings()
    let quiet = PassthroughSubject<Int, Never>()
    var largest = 0
    for _ in 0..<10_000 {
      let owner = Owner()
      quiet.sink(duringLifetimeOf: owner, in: bindings)
      largest = max(largest, bindings.count)
    }
    #expect(largest <= 64)
    #expect(bindings.count < 64)
  }

  @Test("a sweep keeps the sinks whose owners are alive")
  func sweepKeepsLiveSinks() {
    let bindings = LifetimeBindings()
    let liveOwner = Owner()
    let subject = PassthroughSubject<Int, Never>()
    var received = 0
    for _ in 0..<100 {
      subject.sink(duringLifetimeOf: liveOwner, in: bindings, receiveValue: { _ in received += 1 })
      subject.sink(duringLifetimeOf: Owner(), in: bindings, receiveValue: { _ in received += 1 })
    }
    subject.send(1)
    #expect(received == 100)
    #expect(bindings.count == 100)
  }

  @Test("cancelled sinks release what their handlers captured")
  func cancelledSinksRelease() {
    let owner = Owner()
    let subject = PassthroughSubject<Int, Never>()
    weak var weakCaptured: Owner?
    var cancellable: AnyCancellable?
    do {
      let captured = Owner()
      weakCaptured = captured
      cancellable = subject.sink(
        duringLifetimeOf: owner, receiveValue: { captured.values.append($0) })
    }
    #expect(weakCaptured != nil)
    cancellable?.cancel()
    #expect(weakCaptured == nil)
  }
}
