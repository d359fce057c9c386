import CombineEx
import CombineExTesting
import Testing

@Suite("sink(duringLifetimeOf:)")
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

  @Test("10,000 finished sinks leave nothing behind")
  func finishedSinksAreForgotten() {
    let owner = Owner()
    weak var weakCaptured: Owner?
    do {
      let captured = Owner()
      weakCaptured = captured
      for value in 0..<10_000 {
        Just(value).sink(duringLifetimeOf: owner, receiveValue: { captured.values.append($0) })
      }
      #expect(captured.values.count == 10_000)
    }
    #expect(weakCaptured == nil)
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
