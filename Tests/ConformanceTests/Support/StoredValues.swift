import CombineEx
import Foundation

/// A value the sources of a ``CaseTraits/storesValues`` case send: an object, so that the
/// harness can tell whether the pipeline still holds it, that knows which source sent it and
/// its place in that source's sequence. It prints as its script value, so a run's events read
/// the same as with `Int`s.
final class TrackedValue: Sendable, CustomStringConvertible {
  /// The script's value.
  let value: Int
  /// The index of the source that sent it, among the environment's sources.
  let source: Int
  /// Its place among the values that source sent (0 for the first).
  let number: Int

  init(value: Int, source: Int, number: Int) {
    self.value = value
    self.source = source
    self.number = number
  }

  var description: String { "\(value)" }
}

/// Makes the tracked values of one run and watches them weakly.
final class ValueTracker: @unchecked Sendable {
  // @unchecked Sendable: `made` and `sent` are guarded by `lock` (a stress round's threads
  // make values concurrently).
  private struct Made {
    let source: Int
    let number: Int
    weak var value: TrackedValue?
  }

  private let lock = NSLockBox()
  private var made: [Made] = []
  /// How many values each source has sent, by source index.
  private var sent: [Int: Int] = [:]

  /// A new value for source `source`, numbered after the ones it made before.
  func make(_ value: Int, source: Int) -> TrackedValue {
    lock.withLock {
      let number = sent[source, default: 0]
      sent[source] = number + 1
      let tracked = TrackedValue(value: value, source: source, number: number)
      made.append(Made(source: source, number: number, value: tracked))
      return tracked
    }
  }

  /// The values the pipeline still holds but must have let go of: a value that the subscriber
  /// received, or that a more recent value of its source overtook (it was received, dropped or
  /// evicted), unless it is one of the `keepsLatest` most recent values its source sent (a
  /// replay buffer, a current value, the latest value of a `combineLatest` input) or one of
  /// the values in `kept` (a property's current value).
  ///
  /// - Parameters:
  ///   - delivered: the highest number the subscriber received from each source.
  ///   - kept: (source, number) pairs the publisher may keep.
  func retained(
    delivered: [Int: Int], keepsLatest: Int, kept: Set<SourceValue> = []
  ) -> [SourceValue] {
    lock.withLock {
      made.compactMap { entry in
        guard entry.value != nil, let latest = delivered[entry.source], entry.number <= latest,
          entry.number < sent[entry.source, default: 0] - keepsLatest
        else { return nil }
        let value = SourceValue(source: entry.source, number: entry.number)
        return kept.contains(value) ? nil : value
      }
    }
  }
}

/// A tracked value's identity: its source and its place in that source's sequence.
struct SourceValue: Hashable {
  let source: Int
  let number: Int
}

/// The subscriber of the stored-values check: a slow one, which asks for one value at a time
/// when the harness says so. It keeps none of the values it receives: it notes, for each
/// source, the most recent tracked value it saw in them (in a tuple, an array, or alone).
final class ReleaseProbe<Input, Failure: Error>: Subscriber, Cancellable, @unchecked Sendable {
  // @unchecked Sendable: every mutable property is guarded by `lock`.
  private let lock = NSLockBox()
  private let initialDemand: Subscribers.Demand
  private var subscription: (any Subscription)?
  private var latest: [Int: Int] = [:]
  private var lastOutput: Set<SourceValue> = []
  private var received = 0
  private var ended = false

  init(initialDemand: Subscribers.Demand) {
    self.initialDemand = initialDemand
  }

  /// The highest number received from each source, by source index.
  var delivered: [Int: Int] { lock.withLock { latest } }
  /// The tracked values in the latest value received.
  var latestOutput: Set<SourceValue> { lock.withLock { lastOutput } }
  /// How many values arrived.
  var count: Int { lock.withLock { received } }
  /// Whether the stream ended (completion or cancel).
  var hasEnded: Bool { lock.withLock { ended } }

  func receive(subscription: any Subscription) {
    lock.withLock { self.subscription = subscription }
    subscription.request(initialDemand)
  }

  func receive(_ input: Input) -> Subscribers.Demand {
    let values = Self.trackedValues(in: input, depth: 0)
    lock.withLock {
      received += 1
      lastOutput = Set(values.map { SourceValue(source: $0.source, number: $0.number) })
      for value in values where value.number > latest[value.source, default: -1] {
        latest[value.source] = value.number
      }
    }
    return .none
  }

  func receive(completion: Subscribers.Completion<Failure>) {
    lock.withLock {
      ended = true
      subscription = nil
    }
  }

  /// Asks for `demand` more.
  func request(_ demand: Subscribers.Demand) {
    lock.withLock { subscription }?.request(demand)
  }

  func cancel() {
    let subscription = lock.withLock { () -> (any Subscription)? in
      ended = true
      defer { self.subscription = nil }
      return self.subscription
    }
    subscription?.cancel()
  }

  /// The tracked values in an output: the output itself, or its elements (a tuple, an array),
  /// a few levels deep.
  private static func trackedValues(in value: Any, depth: Int) -> [TrackedValue] {
    if let tracked = value as? TrackedValue { return [tracked] }
    guard depth < 3 else { return [] }
    return Mirror(reflecting: value).children.flatMap {
      trackedValues(in: $0.value, depth: depth + 1)
    }
  }
}

extension Harness {
  /// Rounds of the stored-values check.
  static let storedValueRounds = 30

  /// Rule 3 for values: while the subscription lives, a value the publisher delivered, dropped
  /// or evicted is no longer retained (``CaseTraits/storesValues``).
  ///
  /// A slow subscriber asks for two values, then for one more after each round; a source that
  /// stays ahead: in the first round the first source sends as many values as it can (up to
  /// four: a subject or a callback sends them whatever the demand, a scripted source as far as
  /// the publisher asked), then every source sends one value per round. So the publisher always
  /// has a value waiting when it hands one out, which is when a queue that does not clear
  /// what it hands out keeps it. After each round, every tracked value still alive must be
  /// one the subscriber has not received and no later value of its source overtook, one of the
  /// `keepsLatest` most recent values its source sent, or (``CaseTraits/keepsLatestOutput``)
  /// one in the latest output.
  static func storedValuesReleased<P: Publisher>(
    traits: CaseTraits, keepsLatest: Int, build: (ConformanceEnvironment) -> P
  ) -> [String] {
    let script = SourceScript(values: (0..<(storedValueRounds + 4)).map { $0 % 4 }, end: .open)
    let scenario = Scenario(
      seed: 0x5707_ED, delivery: .pumped, behaviour: ProbeBehaviour(), steps: [],
      scripts: Array(repeating: script, count: 16))
    let environment = ConformanceEnvironment(scenario: scenario)
    let subscriber = ReleaseProbe<P.Output, P.Failure>(initialDemand: .max(2))
    build(environment).subscribe(subscriber)
    var problems: [String] = []
    for round in 0..<storedValueRounds {
      for (index, source) in environment.sources.enumerated() {
        var remaining = round == 0 && index == 0 ? 4 : 1
        while remaining > 0, source.sendNext() { remaining -= 1 }
      }
      subscriber.request(.max(1))
      let retained = environment.tracker.retained(
        delivered: subscriber.delivered, keepsLatest: keepsLatest,
        kept: traits.contains(.keepsLatestOutput) ? subscriber.latestOutput : [])
      if !retained.isEmpty {
        let labels = environment.sources.map(\.label)
        let listed = retained.prefix(4).map { "value #\($0.number + 1) of \(labels[$0.source])" }
        problems.append(
          "after round \(round + 1) (\(subscriber.count) values received), the publisher "
            + "still holds \(retained.count) value(s) it delivered, dropped or evicted: "
            + listed.joined(separator: ", ") + (retained.count > 4 ? ", ..." : ""))
        break
      }
      if subscriber.hasEnded { break }
    }
    if problems.isEmpty, subscriber.count < storedValueRounds / 2 {
      problems.append(
        "only \(subscriber.count) values arrived in \(storedValueRounds) rounds: the check "
          + "did not exercise the publisher")
    }
    subscriber.cancel()
    for source in environment.sources {
      source.settleAfterEnd()
      source.releaseSubscribers()
    }
    return problems
  }
}

extension ConformanceEnvironment {
  /// A scripted source of ``TrackedValue``s that may fail with a ``ConformanceError``.
  func trackedInts() -> ScriptedSource<TrackedValue, ConformanceError> {
    let index = sources.count
    return source(
      value: { [tracker] in tracker.make($0, source: index) }, failure: ConformanceError.init)
  }

  /// A tracked value counted as sent by the next source created: the values a subject holds
  /// before the harness drives it (a `CurrentValueSubject`'s initial value).
  func trackedValueOfNextSource(_ value: Int) -> TrackedValue {
    tracker.make(value, source: sources.count)
  }

  /// Registers a subject (or anything driven from outside) that sends tracked values.
  func driveTracked(
    _ label: String, keepAlive: AnyObject, canFail: Bool,
    send: @escaping (TrackedValue) -> Void, complete: ((ScriptEnd) -> Void)?
  ) {
    let index = sources.count
    drive(
      label, keepAlive: keepAlive, canFail: canFail,
      send: { [tracker] in send(tracker.make($0, source: index)) }, complete: complete)
  }

  /// A `MutableProperty` of tracked values driven by the harness, as a read-only `Property`.
  func drivenTrackedProperty() -> Property<TrackedValue> {
    let property = MutableProperty(trackedValueOfNextSource(-1))
    driveTracked(
      "MutableProperty", keepAlive: property, canFail: false, send: { property.value = $0 },
      complete: nil)
    return Property(property)
  }
}
