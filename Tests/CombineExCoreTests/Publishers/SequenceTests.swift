import CombineExCore
import Testing

@Suite("Publishers.Sequence")
struct SequenceTests {
  @Test("a request made inside receive(subscription:) delivers before it returns, as in Combine")
  func deliversInsideRequestDuringSubscription() {
    var events: [String] = []
    (0..<3).publisher.subscribe(
      AnySubscriber<Int, Never>(
        receiveSubscription: { subscription in
          events.append("request")
          subscription.request(.max(2))
          events.append("returned")
          subscription.cancel()
        },
        receiveValue: { value in
          events.append("\(value)")
          return .none
        },
        receiveCompletion: { _ in events.append("finished") }))
    #expect(events == ["request", "0", "1", "returned"])
  }

  @Test("a request, then a cancel, inside receive(subscription:) delivers the requested value")
  func requestThenCancelDuringSubscription() {
    var values: [Int] = []
    var subscription: (any Subscription)?
    (0..<3).publisher.subscribe(
      AnySubscriber<Int, Never>(
        receiveSubscription: {
          subscription = $0
          $0.request(.max(1))
          $0.cancel()
        },
        receiveValue: { value in
          values.append(value)
          return .none
        },
        receiveCompletion: nil))
    subscription?.request(.max(1))
    #expect(values == [0])
  }

  @Test("a request made inside receive(_:) delivers iteratively, without recursion")
  func reentrantRequestIsIterative() {
    let subscriber = ReentrantRequester<Int, Never>()
    (1...5).publisher.subscribe(subscriber)
    #expect(subscriber.values == [1, 2, 3, 4, 5])
    #expect(subscriber.deepest == 1)
    #expect(subscriber.completions == 1)
  }

  @Test("a cancel inside receive(subscription:) releases the subscriber at once")
  func cancelDuringSubscriptionReleases() {
    weak var weakOwner: TestOwner?
    do {
      let owner = TestOwner()
      weakOwner = owner
      [1, 2].publisher.subscribe(
        AnySubscriber<Int, Never>(
          receiveSubscription: { $0.cancel() },
          receiveValue: { value in
            owner.values.append(value)
            return .none
          },
          receiveCompletion: nil))
    }
    #expect(weakOwner == nil)
  }

  @Test("describes itself by its sequence until it ends, then as Sequence, as Combine does")
  func description() {
    var subscription: (any Subscription)?
    (1...3).publisher.subscribe(
      AnySubscriber<Int, Never>(
        receiveSubscription: { subscription = $0 }, receiveValue: nil, receiveCompletion: nil))
    #expect(subscription.map { "\($0)" } == "1...3")
    let playground =
      (subscription as? any CustomPlaygroundDisplayConvertible)?
      .playgroundDescription as? String
    #expect(playground == "1...3")
    subscription?.request(.unlimited)
    #expect(subscription.map { "\($0)" } == "Sequence")
  }

  @Test("its mirror shows the sequence, and no elements once it ended")
  func mirror() throws {
    var subscription: (any Subscription)?
    [1, 2].publisher.subscribe(
      AnySubscriber<Int, Never>(
        receiveSubscription: { subscription = $0 }, receiveValue: nil, receiveCompletion: nil))
    let live = Mirror(reflecting: try #require(subscription))
    #expect(live.children.map(\.label) == ["sequence"])
    #expect(live.children.map { "\($0.value)" } == ["[1, 2]"])
    subscription?.cancel()
    let ended = Mirror(reflecting: try #require(subscription))
    #expect(ended.children.map { "\($0.value)" } == ["[]"])
  }

  @Test("stress: descriptions read while other threads request deliver every value once")
  func stressDescriptionWhileRequesting() async {
    for _ in 0..<50 {
      let values = LockedBox<[Int]>([])
      let box = LockedBox<(any Subscription)?>(nil)
      (0..<200).publisher.subscribe(
        AnySubscriber<Int, Never>(
          receiveSubscription: { subscription in box.withLock { $0 = subscription } },
          receiveValue: { value in
            values.withLock { $0.append(value) }
            return .none
          },
          receiveCompletion: nil))
      let subscription = UncheckedSubscription(box.withLock { $0 })
      await concurrentPerform(4) { index in
        for _ in 0..<50 {
          if index.isMultiple(of: 2) {
            subscription.value?.request(.max(1))
          } else {
            _ = subscription.value.map { "\($0)" }
            _ = subscription.value.map { Mirror(reflecting: $0).children.count }
          }
        }
      }
      #expect(values.withLock { $0 } == Array(0..<100))
    }
  }
}

/// Hands a subscription to the stress test's threads (the core's subscriptions are thread safe).
private struct UncheckedSubscription: @unchecked Sendable {
  // @unchecked Sendable: subscriptions are safe to call from any thread (rule 5).
  let value: (any Subscription)?
  init(_ value: (any Subscription)?) { self.value = value }
}
