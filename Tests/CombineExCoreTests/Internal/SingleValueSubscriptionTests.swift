import CombineExCore
import Testing

/// The subscription of `Just`, `Optional.Publisher` and `Result.Publisher`, at Combine's edges.
@Suite("Just, Optional.Publisher and Result.Publisher subscriptions")
struct SingleValueSubscriptionTests {
  @Test("each describes itself as Combine's does: Just, Optional, Once")
  func descriptions() {
    var names: [String] = []
    let subscriber = AnySubscriber<Int, Never>(receiveSubscription: { names.append("\($0)") })
    Just(1).subscribe(subscriber)
    Optional(1).publisher.subscribe(subscriber)
    Result<Int, Never>.success(1).publisher.subscribe(subscriber)
    #expect(names == ["Just", "Optional", "Once"])
  }

  @Test("a request of zero to Just stops the program, as in Combine")
  func zeroRequestJust() async {
    await #expect(processExitsWith: .failure) {
      Just(1).subscribe(AnySubscriber(receiveSubscription: { $0.request(.none) }))
    }
  }

  @Test("a request of zero to Optional.Publisher stops the program")
  func zeroRequestOptional() async {
    await #expect(processExitsWith: .failure) {
      Optional(1).publisher.subscribe(
        AnySubscriber(receiveSubscription: { $0.request(.none) }))
    }
  }

  @Test("a request of zero to Result.Publisher stops the program")
  func zeroRequestResult() async {
    await #expect(processExitsWith: .failure) {
      Result<Int, Never>.success(1).publisher.subscribe(
        AnySubscriber(receiveSubscription: { $0.request(.none) }))
    }
  }

  @Test("a request, then a cancel, inside receive(subscription:) delivers the value and .finished")
  func requestThenCancelDuringSubscription() {
    for publisher in singleValuePublishers(7) {
      var events: [String] = []
      publisher.subscribe(
        AnySubscriber<Int, Never>(
          receiveSubscription: { subscription in
            events.append("request")
            subscription.request(.max(1))
            events.append("returned")
            subscription.cancel()
          },
          receiveValue: { value in
            events.append("\(value)")
            return .none
          },
          receiveCompletion: { _ in events.append("finished") }))
      #expect(events == ["request", "7", "finished", "returned"])
    }
  }

  @Test("a cancel, then a request, inside receive(subscription:) delivers nothing")
  func cancelThenRequestDuringSubscription() {
    for publisher in singleValuePublishers(7) {
      var events: [String] = []
      publisher.subscribe(
        AnySubscriber<Int, Never>(
          receiveSubscription: { subscription in
            subscription.cancel()
            subscription.request(.max(1))
          },
          receiveValue: { value in
            events.append("\(value)")
            return .none
          },
          receiveCompletion: { _ in events.append("finished") }))
      #expect(events.isEmpty)
    }
  }

  @Test("a request made from inside receive(_:) delivers nothing more")
  func reentrantRequest() {
    for publisher in singleValuePublishers(7) {
      var events: [String] = []
      var subscription: (any Subscription)?
      publisher.subscribe(
        AnySubscriber<Int, Never>(
          receiveSubscription: {
            subscription = $0
            $0.request(.unlimited)
          },
          receiveValue: { value in
            subscription?.request(.unlimited)
            events.append("\(value)")
            return .none
          },
          receiveCompletion: { _ in events.append("finished") }))
      #expect(events == ["7", "finished"])
    }
  }

  @Test("the mirror shows the value, unlabelled, until it is delivered; playgrounds show the name")
  func mirror() throws {
    let names = ["Just", "Optional", "Once"]
    for (publisher, name) in zip(singleValuePublishers(42), names) {
      var subscription: (any Subscription)?
      publisher.subscribe(
        AnySubscriber<Int, Never>(
          receiveSubscription: { subscription = $0 }, receiveValue: nil, receiveCompletion: nil))
      let waiting = Mirror(reflecting: try #require(subscription))
      #expect(waiting.children.map(\.label) == [nil])
      #expect(waiting.children.map { "\($0.value)" } == ["42"])
      let playground =
        (subscription as? any CustomPlaygroundDisplayConvertible)?
        .playgroundDescription as? String
      #expect(playground == name)
      subscription?.request(.max(1))
      #expect(Mirror(reflecting: try #require(subscription)).children.isEmpty)
    }
  }

  @Test(
    "the subscriber and the value are released at delivery, at cancel, or with the subscription",
    arguments: [SingleValueEnding.delivery, .cancel, .drop])
  func releasesSubscriberAndValue(ending: SingleValueEnding) {
    // A small value is kept in place beside the subscriber, a large one boxed: both.
    expectReleased(ending) { $0 }
    expectReleased(ending) { LargeValue(tracked: $0) }
  }

  @Test("the mirror shows a large value (kept boxed) until it is delivered")
  func mirrorOfLargeValue() throws {
    var subscription: (any Subscription)?
    var received: [LargeValue] = []
    Just(LargeValue(tracked: Tracked(), padding: (1, 2, 3, 4))).subscribe(
      AnySubscriber<LargeValue, Never>(
        receiveSubscription: { subscription = $0 },
        receiveValue: {
          received.append($0)
          return .none
        }, receiveCompletion: nil))
    let children = Mirror(reflecting: try #require(subscription)).children
    #expect(children.count == 1)
    #expect((children.first?.value as? LargeValue).map { $0.padding.3 } == 4)
    subscription?.request(.max(1))
    #expect(received.map(\.padding.3) == [4])
    #expect(Mirror(reflecting: try #require(subscription)).children.isEmpty)
  }

  @Test("stress: a mirror read while another thread requests delivers the value once")
  func stressMirrorWhileRequesting() async {
    for _ in 0..<200 {
      let values = LockedBox(0)
      let box = LockedBox<(any Subscription)?>(nil)
      Just(1).subscribe(
        AnySubscriber<Int, Never>(
          receiveSubscription: { subscription in box.withLock { $0 = subscription } },
          receiveValue: { _ in
            values.withLock { $0 += 1 }
            return .none
          },
          receiveCompletion: nil))
      let subscription = SendableSubscription(box.withLock { $0 })
      await concurrentPerform(2) { index in
        if index == 0 {
          subscription.value?.request(.max(1))
        } else {
          _ = subscription.value.map { Mirror(reflecting: $0).children.count }
        }
      }
      #expect(values.withLock { $0 } == 1)
    }
  }
}

/// How a test ends a `Just`'s subscription.
enum SingleValueEnding: CaseIterable, Sendable {
  /// Requests: the value and `.finished` are delivered.
  case delivery
  /// Cancels before any request.
  case cancel
  /// Lets go of the subscription, neither requested nor cancelled.
  case drop
}

/// An instance whose release a test watches.
private final class Tracked {}

/// A value too large to sit in place beside its subscriber (five words and more).
private struct LargeValue {
  let tracked: Tracked
  var padding = (0, 0, 0, 0)
}

/// Subscribes to `Just(makeValue(tracked))`, ends the subscription as `ending` says, and checks
/// that the value and the subscriber are released: at once after a delivery or a cancel (the
/// subscription still held), with the subscription when it is dropped.
private func expectReleased<Value>(
  _ ending: SingleValueEnding, _ makeValue: (Tracked) -> Value,
  sourceLocation: SourceLocation = #_sourceLocation
) {
  weak var weakValue: Tracked?
  weak var weakSubscriber: Tracked?
  var events: [String] = []
  var subscription: (any Subscription)?
  do {
    let tracked = Tracked()
    weakValue = tracked
    let owner = Tracked()  // Held by the subscriber's closures only.
    weakSubscriber = owner
    Just(makeValue(tracked)).subscribe(
      AnySubscriber<Value, Never>(
        receiveSubscription: { subscription = $0 },
        receiveValue: { _ in
          withExtendedLifetime(owner) { events.append("value") }
          return .none
        },
        receiveCompletion: { _ in events.append("finished") }))
  }
  #expect(weakValue != nil, "held until delivered", sourceLocation: sourceLocation)
  #expect(weakSubscriber != nil, "held until delivered", sourceLocation: sourceLocation)
  switch ending {
  case .delivery: subscription?.request(.max(1))
  case .cancel: subscription?.cancel()
  case .drop: subscription = nil
  }
  #expect(weakValue == nil, "value released (\(ending))", sourceLocation: sourceLocation)
  #expect(weakSubscriber == nil, "subscriber released (\(ending))", sourceLocation: sourceLocation)
  #expect(
    events == (ending == .delivery ? ["value", "finished"] : []), sourceLocation: sourceLocation)
  withExtendedLifetime(subscription) {}
}

/// The three publishers that share the single-value subscription, each publishing `value`.
private func singleValuePublishers(_ value: Int) -> [AnyPublisher<Int, Never>] {
  [
    Just(value).eraseToAnyPublisher(), Optional(value).publisher.eraseToAnyPublisher(),
    Result<Int, Never>.success(value).publisher.eraseToAnyPublisher(),
  ]
}

/// Hands a subscription to the stress test's threads (the core's subscriptions are thread safe).
private struct SendableSubscription: @unchecked Sendable {
  // @unchecked Sendable: subscriptions are safe to call from any thread (rule 5).
  let value: (any Subscription)?
  init(_ value: (any Subscription)?) { self.value = value }
}
