import CombineExCore
import Foundation
import Testing

// `_Introspection` is global: an enabled object sees every pipeline of the process, and the
// subscriptions made meanwhile hand out wrapped subscribers and subscriptions. So every test
// that enables one runs in a process of its own (an exit test) and prints what it saw; the
// other tests of the run, in parallel, never see the hooks.

@Suite("_Introspection")
struct IntrospectionTests {
  /// The lines a child process printed (none when it did not run).
  private static func transcript(
    _ result: ExitTest.Result?
  ) -> [String] {
    let output = String(decoding: result?.standardOutputContent ?? [], as: UTF8.self)
    return output.split(separator: "\n").map(String.init)
  }

  @Test("with nothing enabled, subscribe hands the publisher the subscriber itself")
  func disabledPassesSubscriberThrough() {
    let source = Source()
    let subscriber = Sub()
    source.subscribe(subscriber)
    #expect(source.received as AnyObject === subscriber)
    #expect(subscriber.subscriptions.first is Token)
  }

  @Test("subscribe reports the publisher receiving the subscriber, around the subscription")
  func reportsSubscribe() async {
    let result = await #expect(
      processExitsWith: .success, observing: [\.standardOutputContent]
    ) {
      let log = IntrospectionLog()
      log.enable()
      let source = Source()
      source.subscribe(Sub())
      log.disable()
    }
    #expect(
      Self.transcript(result) == [
        "willReceive(publisher: Source, subscriber: Sub)",
        "willReceive(subscriber: Sub, subscription: Token)",
        "didReceive(subscriber: Sub, subscription: Token)",
        "didReceive(publisher: Source, subscriber: Sub)",
      ])
  }

  @Test("values and the demand they return, and the completion, are reported around delivery")
  func reportsValuesAndCompletion() async {
    let result = await #expect(
      processExitsWith: .success, observing: [\.standardOutputContent]
    ) {
      let log = IntrospectionLog(skipSubscribe: true)
      log.enable()
      let source = Source()
      source.subscribe(Sub(demandPerValue: .max(2)))
      _ = source.send(1)
      _ = source.send(2)
      source.finish()
      log.disable()
    }
    #expect(
      Self.transcript(result) == [
        "willReceive(subscriber: Sub, input: 1)",
        "Sub got 1",
        "didReceive(subscriber: Sub, input: 1, resultingDemand: max(2))",
        "willReceive(subscriber: Sub, input: 2)",
        "Sub got 2",
        "didReceive(subscriber: Sub, input: 2, resultingDemand: max(2))",
        "willReceive(subscriber: Sub, completion: finished)",
        "Sub got finished",
        "didReceive(subscriber: Sub, completion: finished)",
      ])
  }

  @Test("requests and cancel through the subscription are reported around the call")
  func reportsRequestAndCancel() async {
    let result = await #expect(
      processExitsWith: .success, observing: [\.standardOutputContent]
    ) {
      let log = IntrospectionLog(skipSubscribe: true)
      log.enable()
      let source = Source()
      let subscriber = Sub()
      source.subscribe(subscriber)
      subscriber.subscriptions[0].request(.max(3))
      subscriber.subscriptions[0].cancel()
      log.disable()
    }
    #expect(
      Self.transcript(result) == [
        "willRequest(subscription: Token, max(3))",
        "Token request max(3)",
        "didRequest(subscription: Token, max(3))",
        "willCancel(subscription: Token)",
        "Token cancel",
        "didCancel(subscription: Token)",
      ])
  }

  @Test("the wrappers keep the identity and description of what they wrap, and nothing else")
  func wrappersKeepIdentity() async {
    await #expect(processExitsWith: .success) {
      let log = IntrospectionLog()
      log.enable()
      let source = Source()
      let subscriber = Sub()
      source.subscribe(subscriber)
      log.disable()
      let wrapper = source.received!
      precondition(wrapper as AnyObject !== subscriber, "the subscriber is not wrapped")
      precondition(!(wrapper is AnySubscriber<Int, Never>))
      precondition(wrapper.combineIdentifier == subscriber.combineIdentifier)
      precondition((wrapper as? CustomStringConvertible)?.description == "Sub")
      precondition(!(wrapper is CustomReflectable) && !(wrapper is CustomDebugStringConvertible))
      let subscription = subscriber.subscriptions[0]
      precondition(!(subscription is Token), "the subscription is not wrapped")
      precondition(subscription.combineIdentifier == source.token.combineIdentifier)
      precondition((subscription as? CustomStringConvertible)?.description == "Token")
      precondition(!(subscription is CustomPlaygroundDisplayConvertible))
    }
  }

  @Test("a subscription made while nothing was enabled reports nothing, later either")
  func earlierSubscriptionIsNotReported() async {
    let result = await #expect(
      processExitsWith: .success, observing: [\.standardOutputContent]
    ) {
      let source = Source()
      source.subscribe(Sub())
      let log = IntrospectionLog()
      log.enable()
      _ = source.send(1)
      source.finish()
      log.disable()
    }
    #expect(Self.transcript(result) == ["Sub got 1", "Sub got finished"])
  }

  @Test("events after disable are delivered and not reported; each object sees its own window")
  func enableWindows() async {
    let result = await #expect(
      processExitsWith: .success, observing: [\.standardOutputContent]
    ) {
      let first = IntrospectionLog(name: "first", skipSubscribe: true)
      let second = IntrospectionLog(name: "second", skipSubscribe: true)
      first.enable()
      let source = Source()
      source.subscribe(Sub())
      _ = source.send(1)
      second.enable()
      _ = source.send(2)
      first.disable()
      _ = source.send(3)
      second.disable()
      _ = source.send(4)
    }
    #expect(
      Self.transcript(result) == [
        "first: willReceive(subscriber: Sub, input: 1)",
        "Sub got 1",
        "first: didReceive(subscriber: Sub, input: 1, resultingDemand: max(0))",
        "first: willReceive(subscriber: Sub, input: 2)",
        "second: willReceive(subscriber: Sub, input: 2)",
        "Sub got 2",
        "first: didReceive(subscriber: Sub, input: 2, resultingDemand: max(0))",
        "second: didReceive(subscriber: Sub, input: 2, resultingDemand: max(0))",
        "second: willReceive(subscriber: Sub, input: 3)",
        "Sub got 3",
        "second: didReceive(subscriber: Sub, input: 3, resultingDemand: max(0))",
        "Sub got 4",
      ])
  }

  @Test("isEnabled follows enable and disable; enabling twice and disabling twice are harmless")
  func isEnabled() async {
    await #expect(processExitsWith: .success) {
      let first = IntrospectionLog()
      let second = IntrospectionLog()
      precondition(!first.isEnabled && !second.isEnabled)
      first.enable()
      first.enable()
      precondition(first.isEnabled && !second.isEnabled)
      second.enable()
      first.disable()
      precondition(!first.isEnabled && second.isEnabled)
      second.disable()
      second.disable()
      precondition(!first.isEnabled && !second.isEnabled)
      // Enabled twice, disabled once: off (a set, not a count, as in Combine).
      first.enable()
      first.enable()
      first.disable()
      precondition(!first.isEnabled)
      // Once all are disabled, subscribe no longer wraps.
      let source = Source()
      let subscriber = Sub()
      source.subscribe(subscriber)
      precondition(source.received as AnyObject === subscriber)
    }
  }

  @Test("a publisher that passes the subscriber on: both report it, and it is wrapped once")
  func passedOnSubscriberIsWrappedOnce() async {
    let result = await #expect(
      processExitsWith: .success, observing: [\.standardOutputContent]
    ) {
      let log = IntrospectionLog()
      log.enable()
      let source = Source()
      let subscriber = Sub()
      Relay(upstream: source).subscribe(subscriber)
      _ = source.send(5)
      log.disable()
      print(subscriber.subscriptions.count, terminator: "\n")
    }
    #expect(
      Self.transcript(result) == [
        "willReceive(publisher: Relay, subscriber: Sub)",
        "willReceive(publisher: Source, subscriber: Sub)",
        "willReceive(subscriber: Sub, subscription: Token)",
        "didReceive(subscriber: Sub, subscription: Token)",
        "didReceive(publisher: Source, subscriber: Sub)",
        "didReceive(publisher: Relay, subscriber: Sub)",
        "willReceive(subscriber: Sub, input: 5)",
        "Sub got 5",
        "didReceive(subscriber: Sub, input: 5, resultingDemand: max(0))",
        "1",
      ])
  }

  @Test("through an operator, the operator's own subscriber is reported too, as in Combine")
  func operatorReportsItsOwnSubscriber() async {
    // Combine's order (OpenCombine's IntrospectionTests.testWithMapOperator, checked against
    // Apple's Combine): map subscribes its own subscriber ("Map") to the source through the
    // hook, inside the pipeline's subscribe.
    let result = await #expect(
      processExitsWith: .success, observing: [\.standardOutputContent]
    ) {
      let log = IntrospectionLog()
      log.enable()
      let source = Source()
      source.map { $0 * 10 }.subscribe(Sub())
      _ = source.send(1)
      log.disable()
    }
    #expect(
      Self.transcript(result) == [
        "willReceive(publisher: Map<Source, Int>(upstream: Source, transform: (Function)), subscriber: Sub)",
        "willReceive(publisher: Source, subscriber: Map)",
        "willReceive(subscriber: Map, subscription: Token)",
        "willReceive(subscriber: Sub, subscription: Token)",
        "didReceive(subscriber: Sub, subscription: Token)",
        "didReceive(subscriber: Map, subscription: Token)",
        "didReceive(publisher: Source, subscriber: Map)",
        "didReceive(publisher: Map<Source, Int>(upstream: Source, transform: (Function)), subscriber: Sub)",
        "willReceive(subscriber: Map, input: 1)",
        "willReceive(subscriber: Sub, input: 10)",
        "Sub got 10",
        "didReceive(subscriber: Sub, input: 10, resultingDemand: max(0))",
        "didReceive(subscriber: Map, input: 1, resultingDemand: max(0))",
      ])
  }

  @Test("every stage of a chain reports its own subscriber, inlined operators and others alike")
  func chainReportsEveryStage() async {
    // filter and compactMap are inlined into the pipeline; scan and removeDuplicates run on
    // the operator driver: each stage's subscriber reaches the hook, outermost first.
    let result = await #expect(
      processExitsWith: .success, observing: [\.standardOutputContent]
    ) {
      let log = IntrospectionLog()
      log.enable()
      let source = Source()
      source.scan(0, +).filter { $0 > 0 }.removeDuplicates().compactMap { $0 }
        .subscribe(Sub())
      log.disable()
    }
    let subscribed = Self.transcript(result).filter { $0.hasPrefix("willReceive(publisher:") }
      .map { $0.components(separatedBy: "subscriber: ").last ?? "" }
    #expect(subscribed == ["Sub)", "CompactMap)", "RemoveDuplicates)", "Filter)", "Scan)"])
  }

  @Test("flatMap reports its own subscriber, and the one it gives each inner publisher")
  func flatMapReportsInnerSubscriptions() async {
    let result = await #expect(
      processExitsWith: .success, observing: [\.standardOutputContent]
    ) {
      let log = IntrospectionLog(name: "log")
      log.enable()
      let source = Source()
      source.flatMap { Just($0 * 10) }.subscribe(Sub(demandPerValue: .max(1)))
      _ = source.send(1)
      _ = source.send(2)
      log.disable()
    }
    let transcript = Self.transcript(result)
    let subscribed = transcript.filter { $0.hasPrefix("log: willReceive(publisher:") }
    #expect(subscribed.count == 4)
    #expect(subscribed.first?.hasSuffix("subscriber: Sub)") == true)
    #expect(subscribed.filter { $0.contains("publisher: Just<Int>") }.count == 2)
  }

  @Test("after disable, the inlined operators subscribe their upstream directly again")
  func disabledOperatorsSubscribeDirectly() async {
    await #expect(processExitsWith: .success) {
      let log = IntrospectionLog(quiet: true)
      log.enable()
      log.disable()
      let source = Source()
      source.map { $0 + 1 }.subscribe(Sub())
      precondition("\(type(of: source.received!))".hasPrefix("MapSubscriber<"), "wrapped")
    }
  }

  @Test("a disabled object and a cancelled pipeline are released: the hooks keep nothing")
  func releasesObjects() async {
    await #expect(processExitsWith: .success) {
      weak var weakLog: IntrospectionLog?
      weak var weakOwner: AnyObject?
      let subject = PassthroughSubject<Int, Never>()
      var cancellable: AnyCancellable?
      do {
        let log = IntrospectionLog()
        weakLog = log
        log.enable()
        let owner = NSObject()
        weakOwner = owner
        cancellable = subject.sink { _ in _ = owner }
        subject.send(1)
        log.disable()
      }
      precondition(weakLog == nil, "the registry keeps a disabled object")
      precondition(weakOwner != nil)
      cancellable?.cancel()
      precondition(weakOwner == nil, "the wrapped pipeline keeps its subscriber after cancel")
      withExtendedLifetime(cancellable) {}
    }
  }

  @Test("stress: enable and disable on several threads while pipelines run on others")
  func stressEnableDisable() async {
    await #expect(processExitsWith: .success) {
      let logs = (0..<4).map { IntrospectionLog(name: "\($0)", skipSubscribe: false, quiet: true) }
      let delivered = LockedBox(0)
      await concurrentPerform(400) { index in
        let log = logs[index % logs.count]
        switch index % 3 {
        case 0:
          log.enable()
          _ = log.isEnabled
        case 1:
          log.disable()
        default:
          let subject = PassthroughSubject<Int, Never>()
          let cancellable = subject.sink { _ in delivered.withLock { $0 += 1 } }
          subject.send(index)
          cancellable.cancel()
        }
      }
      for log in logs { log.disable() }
      precondition(logs.allSatisfy { !$0.isEnabled })
      precondition(delivered.withLock { $0 } == 133)
      let source = Source()
      let subscriber = Sub()
      source.subscribe(subscriber)
      precondition(source.received as AnyObject === subscriber, "still wrapping")
    }
  }
}

// MARK: - Helpers

/// Prints every event it is told about as a line, as it happens, so that the lines interleave
/// with what the test's publisher, subscription and subscriber print.
private final class IntrospectionLog: _Introspection, Sendable {
  private let prefix: String
  private let skipSubscribe: Bool
  private let quiet: Bool

  init(name: String? = nil, skipSubscribe: Bool = false, quiet: Bool = false) {
    prefix = name.map { "\($0): " } ?? ""
    self.skipSubscribe = skipSubscribe
    self.quiet = quiet
  }

  private func add(_ line: String, subscribing: Bool = false) {
    guard !quiet, !(skipSubscribe && subscribing) else { return }
    print(prefix + line)
  }

  func willReceive<P: Publisher, S: Subscriber>(publisher: P, subscriber: S)
  where P.Failure == S.Failure, P.Output == S.Input {
    add("willReceive(publisher: \(publisher), subscriber: \(subscriber))", subscribing: true)
  }

  func didReceive<P: Publisher, S: Subscriber>(publisher: P, subscriber: S)
  where P.Failure == S.Failure, P.Output == S.Input {
    add("didReceive(publisher: \(publisher), subscriber: \(subscriber))", subscribing: true)
  }

  func willReceive<S: Subscriber>(subscriber: S, subscription: any Subscription) {
    add("willReceive(subscriber: \(subscriber), subscription: \(subscription))", subscribing: true)
  }

  func didReceive<S: Subscriber>(subscriber: S, subscription: any Subscription) {
    add("didReceive(subscriber: \(subscriber), subscription: \(subscription))", subscribing: true)
  }

  func willReceive<S: Subscriber>(subscriber: S, input: S.Input) {
    add("willReceive(subscriber: \(subscriber), input: \(input))")
  }

  func didReceive<S: Subscriber>(
    subscriber: S, input: S.Input, resultingDemand: Subscribers.Demand
  ) {
    add(
      "didReceive(subscriber: \(subscriber), input: \(input), resultingDemand: \(resultingDemand))")
  }

  func willReceive<S: Subscriber>(subscriber: S, completion: Subscribers.Completion<S.Failure>) {
    add("willReceive(subscriber: \(subscriber), completion: \(completion))")
  }

  func didReceive<S: Subscriber>(subscriber: S, completion: Subscribers.Completion<S.Failure>) {
    add("didReceive(subscriber: \(subscriber), completion: \(completion))")
  }

  func willRequest(subscription: any Subscription, _ demand: Subscribers.Demand) {
    add("willRequest(subscription: \(subscription), \(demand))")
  }

  func didRequest(subscription: any Subscription, _ demand: Subscribers.Demand) {
    add("didRequest(subscription: \(subscription), \(demand))")
  }

  func willCancel(subscription: any Subscription) {
    add("willCancel(subscription: \(subscription))")
  }

  func didCancel(subscription: any Subscription) {
    add("didCancel(subscription: \(subscription))")
  }
}

/// A publisher described as "Source": it hands each subscriber its `Token` and lets the test
/// send to the last one.
private final class Source: Publisher, CustomStringConvertible {
  typealias Output = Int
  typealias Failure = Never

  let token = Token()
  private(set) var received: (any Subscriber<Int, Never>)?

  var description: String { "Source" }

  func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == Never {
    received = subscriber
    subscriber.receive(subscription: token)
  }

  func send(_ value: Int) -> Subscribers.Demand { received?.receive(value) ?? .none }

  func finish() { received?.receive(completion: .finished) }
}

/// A publisher described as "Relay" that subscribes its subscriber to its upstream with
/// `subscribe(_:)`, as an operator without a subscriber of its own would.
private struct Relay<Upstream: Publisher>: Publisher, CustomStringConvertible {
  typealias Output = Upstream.Output
  typealias Failure = Upstream.Failure

  let upstream: Upstream

  var description: String { "Relay" }

  func receive<S: Subscriber>(subscriber: S)
  where S.Input == Upstream.Output, S.Failure == Upstream.Failure {
    upstream.subscribe(subscriber)
  }
}

/// A subscription described as "Token" that prints what it is asked.
private final class Token: Subscription, CustomStringConvertible {
  var description: String { "Token" }
  func request(_ demand: Subscribers.Demand) { print("Token request \(demand)") }
  func cancel() { print("Token cancel") }
}

/// A subscriber described as "Sub" that keeps its subscriptions and prints what it gets.
private final class Sub: Subscriber, CustomStringConvertible {
  typealias Input = Int
  typealias Failure = Never

  private let demandPerValue: Subscribers.Demand
  private(set) var subscriptions: [any Subscription] = []

  init(demandPerValue: Subscribers.Demand = .none) {
    self.demandPerValue = demandPerValue
  }

  var description: String { "Sub" }

  func receive(subscription: any Subscription) { subscriptions.append(subscription) }

  func receive(_ input: Int) -> Subscribers.Demand {
    print("Sub got \(input)")
    return demandPerValue
  }

  func receive(completion: Subscribers.Completion<Never>) { print("Sub got \(completion)") }
}
