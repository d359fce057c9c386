import CombineExCore
import Foundation
import Testing

/// A subscriber that keeps its subscription, requests `initialDemand`, and runs `onEvent`
/// inside each delivery (a value or the completion).
private final class FutureKeeper<Input, Failure: Error>: Subscriber {
  var subscription: (any Subscription)?
  var onEvent: (() -> Void)?
  private let initialDemand: Subscribers.Demand

  init(initialDemand: Subscribers.Demand) { self.initialDemand = initialDemand }

  func receive(subscription: any Subscription) {
    self.subscription = subscription
    if initialDemand != .none { subscription.request(initialDemand) }
  }

  func receive(_ input: Input) -> Subscribers.Demand {
    onEvent?()
    return .none
  }

  func receive(completion: Subscribers.Completion<Failure>) { onEvent?() }
}

/// What a subscription's mirror shows as its `parent`: "future" (the given one), "nil",
/// "other" or "missing" (no such child).
private func parent<Output, Failure>(
  of subscription: (any Subscription)?, _ future: Future<Output, Failure>
) -> String {
  // Unwrapped first: `Optional` is itself reflectable.
  guard let subscription, let reflectable = subscription as? any CustomReflectable,
    let child = reflectable.customMirror.children.first(where: { $0.label == "parent" })
  else { return "missing" }
  guard let shown = child.value as? Future<Output, Failure>? else { return "other" }
  guard let shown else { return "nil" }
  return shown === future ? "future" : "other"
}

@Suite("Future in a debugger: description, mirror and playground description")
struct FutureReflectionTests {
  @Test("its subscription shows Combine's name, playground value and mirror children")
  func subscriptionReflection() {
    let future = Future<Int, Never> { _ in }
    let keeper = FutureKeeper<Int, Never>(initialDemand: .none)
    future.subscribe(keeper)
    #expect(keeper.subscription.map { "\($0)" } == "Future")
    #expect(
      keeper.subscription.flatMap {
        ($0 as? any CustomPlaygroundDisplayConvertible)?.playgroundDescription as? String
      } == "Future")
    let mirror = keeper.subscription.flatMap { ($0 as? any CustomReflectable)?.customMirror }
    #expect(
      mirror?.children.map(\.label) == ["parent", "downstream", "hasAnyDemand", "subject"])
    #expect(parent(of: keeper.subscription, future) == "future")
  }

  @Test("a failure's subscriber sees the future in the mirror while it receives the failure")
  func failureShowsFutureDuringDelivery() {
    var promise: Future<Int, TestError>.Promise?
    let future = Future<Int, TestError> { promise = $0 }
    let keeper = FutureKeeper<Int, TestError>(initialDemand: .unlimited)
    var seenDuring: String?
    keeper.onEvent = { seenDuring = parent(of: keeper.subscription, future) }
    future.subscribe(keeper)
    promise?(.failure(TestError(1)))
    #expect(seenDuring == "future")
    #expect(parent(of: keeper.subscription, future) == "nil")
  }

  @Test("a value the promise delivers: the mirror shows the future during, nil afterwards")
  func valueFromPromiseForgetsFuture() {
    var promise: Future<Int, Never>.Promise?
    let future = Future<Int, Never> { promise = $0 }
    let keeper = FutureKeeper<Int, Never>(initialDemand: .unlimited)
    var seenDuring: [String] = []
    keeper.onEvent = { seenDuring.append(parent(of: keeper.subscription, future)) }
    future.subscribe(keeper)
    promise?(.success(42))
    #expect(seenDuring == ["future", "future"])
    #expect(parent(of: keeper.subscription, future) == "nil")
  }

  @Test("a value delivered on a later request leaves the future in the mirror, as Combine's")
  func valueOnRequestKeepsFutureInMirror() {
    var promise: Future<Int, Never>.Promise?
    let future = Future<Int, Never> { promise = $0 }
    let keeper = FutureKeeper<Int, Never>(initialDemand: .none)
    future.subscribe(keeper)
    promise?(.success(42))
    keeper.subscription?.request(.max(1))
    #expect(parent(of: keeper.subscription, future) == "future")
  }

  @Test("the mirror does not keep the future alive after a delivery on request")
  func mirrorDoesNotRetainFuture() {
    weak var weakFuture: Future<Int, Never>?
    let keeper = FutureKeeper<Int, Never>(initialDemand: .none)
    do {
      var promise: Future<Int, Never>.Promise?
      let future = Future<Int, Never> { promise = $0 }
      weakFuture = future
      future.subscribe(keeper)
      promise?(.success(42))
      keeper.subscription?.request(.max(1))
      promise = nil
    }
    #expect(weakFuture == nil)
    #expect(keeper.subscription != nil)
  }

  @Test("after a cancel the mirror shows no future")
  func cancelForgetsFuture() {
    let future = Future<Int, Never> { _ in }
    let keeper = FutureKeeper<Int, Never>(initialDemand: .max(1))
    future.subscribe(keeper)
    keeper.subscription?.cancel()
    #expect(parent(of: keeper.subscription, future) == "nil")
  }
}
