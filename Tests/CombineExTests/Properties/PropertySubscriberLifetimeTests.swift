import CombineEx
import Foundation
import Testing

/// An eager property's subscribers keep its state alive (the value and the subscription to its
/// source) after the property itself is gone, and let go of it with the last of them: however
/// they end (a cancel, from outside or from inside a delivery, or the completion).
@Suite("Property: what a freed property's subscribers keep alive")
struct PropertySubscriberLifetimeTests {
  @Test("a freed map lives while any of its subscribers does, and goes with the last one")
  func freedMapLivesWhileAnySubscriberDoes() {
    let live = InstanceCounter()
    let source = MutableProperty(1)
    var mapped: Property<Counted>? = source.map { live.make($0) }
    let first = LockedBox<[Int]>([])
    let second = LockedBox<[Int]>([])
    let firstCancellable = mapped!.sink { counted in first.withLock { $0.append(counted.value) } }
    let secondCancellable = mapped!.sink { counted in
      second.withLock { $0.append(counted.value) }
    }
    mapped = nil
    source.value = 2
    firstCancellable.cancel()
    source.value = 3
    #expect(first.withLock { $0 } == [1, 2])
    #expect(second.withLock { $0 } == [1, 2, 3])
    #expect(live.alive == 1)
    secondCancellable.cancel()
    #expect(live.alive == 0)
    source.value = 4  // the cancelled subscription to the source makes nothing
    #expect(live.alive == 0)
  }

  @Test("a freed map whose last subscriber cancels inside its delivery is released after it")
  func lastSubscriberCancellingInsideDelivery() {
    let live = InstanceCounter()
    let source = MutableProperty(1)
    var mapped: Property<Counted>? = source.map { live.make($0) }
    let received = LockedBox<[Int]>([])
    let cancellable = LockedBox<AnyCancellable?>(nil)
    cancellable.withLock { slot in
      slot = mapped!.sink { counted in
        received.withLock { $0.append(counted.value) }
        if counted.value == 2 { cancellable.withLock { $0 }?.cancel() }
      }
    }
    mapped = nil
    source.value = 2
    source.value = 3
    #expect(received.withLock { $0 } == [1, 2])
    #expect(live.alive == 0)
    cancellable.withLock { $0 = nil }
  }

  @Test("a freed property's subscribers release it when the publisher it follows finishes")
  func releasedWhenFollowedPublisherFinishes() {
    let live = InstanceCounter()
    let values = PassthroughSubject<Counted, Never>()
    weak var weakProperty: Property<Counted>?
    var property: Property<Counted>? = Property(initial: live.make(0), then: values)
    weakProperty = property
    let received = LockedBox<[Int]>([])
    let finished = LockedBox(false)
    let cancellable = property!.sink(
      receiveCompletion: { _ in finished.withLock { $0 = true } },
      receiveValue: { counted in received.withLock { $0.append(counted.value) } })
    property = nil
    #expect(weakProperty == nil)
    values.send(live.make(1))
    #expect(live.alive == 1)
    values.send(completion: .finished)
    #expect(received.withLock { $0 } == [0, 1])
    #expect(finished.withLock { $0 })
    #expect(live.alive == 0)
    _ = cancellable
  }

  @Test("a subscriber of a freed map with limited demand keeps it alive and catches up")
  func limitedDemandSubscriberKeepsItAlive() {
    let live = InstanceCounter()
    let source = MutableProperty(1)
    var mapped: Property<Counted>? = source.map { live.make($0) }
    let subscriber = DemandingSubscriber()
    mapped!.subscribe(subscriber)
    mapped = nil
    source.value = 2
    source.value = 3
    #expect(subscriber.received.withLock { $0 } == [1])
    subscriber.request(1)
    #expect(subscriber.received.withLock { $0 } == [1, 3])
    subscriber.cancel()
    #expect(live.alive == 0)
  }

  /// A subscriber that asks for one value at first, then for what the test requests.
  final class DemandingSubscriber: Subscriber, @unchecked Sendable {
    // @unchecked Sendable: the test uses it from one thread.
    typealias Input = Counted
    typealias Failure = Never

    let received = LockedBox<[Int]>([])
    var subscription: (any Subscription)?

    func receive(subscription: any Subscription) {
      self.subscription = subscription
      subscription.request(.max(1))
    }

    func receive(_ input: Counted) -> Subscribers.Demand {
      received.withLock { $0.append(input.value) }
      return .none
    }

    func receive(completion: Subscribers.Completion<Never>) {}

    func request(_ demand: Int) {
      subscription?.request(.max(demand))
    }

    func cancel() {
      subscription?.cancel()
      subscription = nil
    }
  }
}
