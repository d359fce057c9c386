import CombineExCore
import Foundation
import Testing

/// An upstream that keeps the subscriber an operator attaches to it, as attached (not erased),
/// and can hand it a subscription and values.
private final class CapturingUpstream<Output, Failure: Error>: Publisher {
  private(set) var attached: Any?
  private var subscriber: AnySubscriber<Output, Failure>?

  func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
    attached = subscriber
    self.subscriber = AnySubscriber(subscriber)
  }

  func subscribe() { subscriber?.receive(subscription: Subscriptions.empty) }

  func send(_ value: Output) { _ = subscriber?.receive(value) }
}

/// A subscriber that keeps its subscription and requests nothing.
private final class Holder<Input, Failure: Error>: Subscriber {
  var subscription: (any Subscription)?
  func receive(subscription: any Subscription) { self.subscription = subscription }
  func receive(_ input: Input) -> Subscribers.Demand { .none }
  func receive(completion: Subscribers.Completion<Failure>) {}
}

/// What a debugger shows of `value`: its description, its playground description and the
/// labels of its mirror's children (`nil` for a type that shows none of them).
private func reflection(_ value: Any?) -> (String?, String?, [String?]?) {
  guard let value else { return (nil, nil, nil) }
  return (
    (value as? any CustomStringConvertible)?.description,
    (value as? any CustomPlaygroundDisplayConvertible)?.playgroundDescription as? String,
    children(value)?.map(\.label)
  )
}

/// The children of `value`'s custom mirror (`nil` if it has none, or if `value` is `nil`).
private func children(_ value: Any?) -> [Mirror.Child]? {
  guard let value else { return nil }
  return (value as? any CustomReflectable).map { Array($0.customMirror.children) }
}

/// The subscriber `make` attaches to its upstream, before the upstream's subscription.
private func attached<P: Publisher>(
  _ make: (CapturingUpstream<Int, TestError>) -> P
) -> (Any?, CapturingUpstream<Int, TestError>, Holder<P.Output, P.Failure>) {
  let upstream = CapturingUpstream<Int, TestError>()
  let holder = Holder<P.Output, P.Failure>()
  make(upstream).subscribe(holder)
  return (upstream.attached, upstream, holder)
}

@Suite("Operators in a debugger: descriptions, mirrors and playground descriptions")
struct OperatorReflectionTests {
  @Test("each operator's subscriber shows Combine's name, playground value and mirror children")
  func operatorReflection() {
    let reducing = ["downstream", "result", "initial", "status"]
    var cases: [(name: String, children: [String], subscriber: Any?)] = []
    cases.append(("Map", [], attached { $0.map { $0 } }.0))
    cases.append(("Filter", [], attached { $0.filter { _ in true } }.0))
    cases.append(("CompactMap", [], attached { $0.compactMap { $0 } }.0))
    cases.append(("MapError", [], attached { $0.mapError { $0 } }.0))
    cases.append(("IgnoreOutput", [], attached { $0.ignoreOutput() }.0))
    cases.append(("TryMap", [], attached { $0.tryMap { $0 } }.0))
    cases.append(("TryFilter", ["downstream"], attached { $0.tryFilter { _ in true } }.0))
    cases.append(("Reduce", reducing, attached { $0.reduce(0, +) }.0))
    cases.append(("Count", reducing, attached { $0.count() }.0))
    cases.append(("Collect", ["count"], attached { $0.collect() }.0))
    cases.append(
      (
        "CollectByCount", ["downstream", "upstreamSubscription", "buffer", "count"],
        attached { $0.collect(2) }.0
      ))
    cases.append(
      ("RemoveDuplicates", ["downstream", "last"], attached { $0.removeDuplicates() }.0))
    cases.append(("Scan", ["downstream", "result"], attached { $0.scan(0, +) }.0))
    cases.append(("TryScan", ["downstream", "status", "result"], attached { $0.tryScan(0, +) }.0))
    cases.append(
      (
        "Catch", ["downstream", "demand"],
        attached { $0.catch { _ in Just(0).setFailureType(to: TestError.self) } }.0
      ))
    cases.append(("Retry", [], attached { $0.retry(1) }.0))
    cases.append(
      (
        "Buffer", ["values", "state", "downstreamDemand", "terminal"],
        attached { $0.buffer(size: 2, prefetch: .keepFull, whenFull: .dropNewest) }.0
      ))
    cases.append(("ValueForKey", ["keyPath"], attached { $0.map(\.self) }.0))
    cases.append(
      ("ValueForKeys", ["keyPath0", "keyPath1"], attached { $0.map(\.self, \.bitWidth) }.0))
    cases.append(
      (
        "FlatMap", [],
        attached { $0.flatMap { Just($0).setFailureType(to: TestError.self) } }.0
      ))
    for (name, children, subscriber) in cases {
      let (description, playground, labels) = reflection(subscriber)
      #expect(description == name)
      #expect(playground == name)
      #expect(labels == children, "\(name)")
    }
  }

  @Test("a reducing operator's mirror shows the result so far, computed when asked for")
  func reduceResult() {
    let (subscriber, upstream, _) = attached { $0.reduce(10, +) }
    upstream.subscribe()
    upstream.send(5)
    let children = children(subscriber)
    let result = children?.first { $0.label == "result" }?.value
    #expect(result.map { String(describing: $0) } == "Optional(15)")
  }

  @Test("a driver's mirror status shows the upstream's subscription while subscribed, then the end")
  func driverStatusShowsUpstream() {
    let (subscriber, upstream, holder) = attached { $0.tryScan(0, +) }
    func status() -> String? {
      children(subscriber)?.first { $0.label == "status" }.map { String(describing: $0.value) }
    }
    #expect(status() == "awaitingSubscription(pending: nil)")
    upstream.subscribe()
    #expect(status() == "subscribed(\(Subscriptions.empty))")
    holder.subscription?.cancel()
    #expect(status() == "terminated")
  }

  @Test("the driver's subscription, handed downstream, is the subscriber the upstream has")
  func driverSubscriptionMatchesSubscriber() {
    let (subscriber, upstream, holder) = attached { $0.tryMap { $0 } }
    upstream.subscribe()
    #expect(reflection(holder.subscription).0 == "TryMap")
    #expect((holder.subscription as AnyObject?) === (subscriber as AnyObject?))
  }

  @Test("assertNoFailure's mirror shows the file, the line and the prefix")
  func assertNoFailure() {
    let (subscriber, _, _) = attached { $0.assertNoFailure("P", file: "F.swift", line: 7) }
    let children = children(subscriber)
    #expect(children?.map { String(describing: $0.value) } == ["F.swift", "7", "P"])
  }

  @Test("a flatMap's input subscriber names the flatMap's subscription as its parent")
  func flatMapInputParent() {
    let inner = CapturingUpstream<Int, TestError>()
    let (outer, upstream, _) = attached { $0.flatMap { _ in inner } }
    upstream.subscribe()
    upstream.send(1)
    let children = children(inner.attached)
    let parent = children?.first { $0.label == "parentSubscription" }?.value
    #expect(reflection(inner.attached).0 == "FlatMap")
    #expect(parent as? CombineIdentifier == (outer as? any Subscriber)?.combineIdentifier)
  }

  @Test("a Record's subscription is described by its values, and mirrors them and the completion")
  func record() {
    let holder = Holder<Int, Never>()
    Record<Int, Never>(output: [1, 2], completion: .finished).subscribe(holder)
    let (description, playground, labels) = reflection(holder.subscription)
    #expect(description == "[1, 2]")
    #expect(playground == "[1, 2]")
    #expect(labels == ["sequence", "completion"])
  }

  @Test("a Future's subscription shows the future until it ends, then nothing")
  func future() {
    var promise: Future<Int, Never>.Promise?
    let future = Future<Int, Never> { promise = $0 }
    let holder = Holder<Int, Never>()
    future.subscribe(holder)
    let live = children(holder.subscription)
    #expect(live?.map(\.label) == ["parent", "downstream", "hasAnyDemand", "subject"])
    #expect((live?.first?.value as? Future<Int, Never>) === future)
    holder.subscription?.cancel()
    promise?(.success(1))
    let ended = children(holder.subscription)
    #expect(ended?.first.map { String(describing: $0.value) } == "nil")
    #expect(reflection(holder.subscription).1 == "Future")
  }
}
