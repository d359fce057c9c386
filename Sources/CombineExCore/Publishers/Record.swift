/// A publisher that allows for recording a series of inputs and a completion, for later
/// playback to each subscriber.
///
/// Each subscriber receives the recorded values as it requests them, then the recorded
/// completion, sent right after the last value without waiting for more demand (a recording
/// without values completes at once).
///
/// ```swift
/// let record = Record<Int, Never> { recording in
///   recording.receive(1)
///   recording.receive(2)
///   recording.receive(completion: .finished)
/// }
/// let cancellable = record.sink(
///   receiveCompletion: { print($0) }, receiveValue: { print($0) })
/// // Prints: 1, 2, finished
/// ```
///
/// A record is `Codable` when its output and failure are, so that recordings can be saved and
/// replayed, in tests for instance.
public struct Record<Output, Failure: Error>: Publisher {
  /// The recorded output and completion.
  public let recording: Recording

  /// Creates a publisher to interactively record a series of outputs and a completion.
  ///
  /// - Parameter record: A closure that receives an empty recording to fill with
  ///   `receive(_:)` and `receive(completion:)`. Without a completion, the recording finishes.
  public init(record: (inout Recording) -> Void) {
    var recording = Recording()
    record(&recording)
    self.init(recording: recording)
  }

  /// Creates a record publisher from an existing recording.
  public init(recording: Recording) {
    self.recording = recording
  }

  /// Creates a record publisher to publish the provided output and completion.
  public init(output: [Output], completion: Subscribers.Completion<Failure>) {
    self.init(recording: Recording(output: output, completion: completion))
  }

  /// Attaches the subscriber, which receives the recorded values as it requests them, then
  /// the recorded completion.
  @inlinable
  public func receive<S: Subscriber>(subscriber: S) where Output == S.Input, Failure == S.Failure {
    let output = recording.output
    guard !output.isEmpty else {
      subscriber.receive(subscription: Subscriptions.empty)
      subscriber.receive(completion: recording.completion)
      return
    }
    // The loop runs from inside `request(_:)`, as specialized code (see DrainState).
    let subscription = RecordSubscription(
      downstream: subscriber, output: output, completion: recording.completion)
    subscriber.receive(subscription: subscription)
  }
}

extension Record {
  /// A recorded sequence of outputs, followed by a completion.
  ///
  /// Fill a recording with ``receive(_:)`` and ``receive(completion:)``. Receiving anything
  /// after the completion is a programming error that stops the program, as in Combine.
  ///
  /// ```swift
  /// var recording = Record<Int, Never>.Recording()
  /// recording.receive(1)
  /// recording.receive(2)
  /// recording.receive(completion: .finished)
  /// let cancellable = Record(recording: recording).sink { print($0) }
  /// // Prints: 1, 2
  /// ```
  public struct Recording {
    /// The kind of values the recording receives.
    public typealias Input = Output

    /// The output which will be sent to a subscriber.
    public private(set) var output: [Output]

    /// The completion which will be sent to a subscriber (`.finished` until one is
    /// received).
    public private(set) var completion: Subscribers.Completion<Failure>

    /// Whether the completion was received; nothing more may be recorded then.
    private var isComplete: Bool

    /// Creates a new, empty recording, ready to receive values and a completion.
    public init() {
      output = []
      completion = .finished
      isComplete = false
    }

    /// Creates a complete recording with the given output and completion.
    public init(output: [Output], completion: Subscribers.Completion<Failure> = .finished) {
      self.output = output
      self.completion = completion
      isComplete = true
    }

    /// Records a value. The recording must not have received its completion.
    public mutating func receive(_ input: Input) {
      checkAPI(!isComplete, "Record.Recording received a value after its completion")
      output.append(input)
    }

    /// Records the completion. The recording must not have received one already.
    public mutating func receive(completion: Subscribers.Completion<Failure>) {
      checkAPI(!isComplete, "Record.Recording received a second completion")
      self.completion = completion
      isComplete = true
    }
  }
}

extension Record: Sendable where Output: Sendable {}
extension Record.Recording: Sendable where Output: Sendable {}

extension Record: Codable where Output: Codable, Failure: Codable {}

extension Record.Recording: Codable where Output: Codable, Failure: Codable {
  private enum CodingKeys: String, CodingKey {
    case output
    case completion
  }

  /// Decodes a complete recording.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    self.init(
      output: try container.decode([Output].self, forKey: .output),
      completion: try container.decode(Subscribers.Completion<Failure>.self, forKey: .completion))
  }

  /// Encodes the recording's output and completion.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(output, forKey: .output)
    try container.encode(completion, forKey: .completion)
  }

  /// Encodes the recording's output and completion (the same as ``encode(to:)``; Combine has
  /// both spellings).
  public func encode(into encoder: any Encoder) throws {
    try encode(to: encoder)
  }
}

/// The subscription of ``Record``: a lock-free production loop over ``DrainState`` that
/// delivers the recorded values as demanded, then the recorded completion.
///
/// As Combine's, it shows the recorded values as its description and in its mirror (children
/// `sequence` and `completion`) until it ends, then "Cancelled Events" and no values.
@usableFromInline
final class RecordSubscription<Downstream: Subscriber>: Subscription, CustomStringConvertible,
  CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
{
  // @unchecked Sendable: `drain` is atomic; `output`, `index` and `downstream` are touched only
  // by the thread that owns the drainer role (or, after cancel, the one that cleans up).
  @usableFromInline
  let drain = DrainState()

  /// Runs ``produce()``: a closure without captures, made in specialized code, so that a
  /// `request(_:)` that reaches this class through `any Subscription` runs the specialized
  /// loop.
  @usableFromInline
  let producer: (RecordSubscription) -> Void

  @usableFromInline
  var output: [Downstream.Input]

  @usableFromInline
  var index = 0

  @usableFromInline
  let completion: Subscribers.Completion<Downstream.Failure>

  @usableFromInline
  var downstream: Downstream?

  @inlinable
  init(
    downstream: Downstream, output: [Downstream.Input],
    completion: Subscribers.Completion<Downstream.Failure>
  ) {
    self.downstream = downstream
    self.output = output
    self.completion = completion
    producer = { $0.produce() }
  }

  @usableFromInline
  var description: String {
    if drain.isEnded { return "Cancelled Events" }
    return reading { "\($0)" } ?? "Record"
  }

  @usableFromInline
  var customMirror: Mirror {
    Mirror(self, children: ["sequence": reading { $0 } ?? [], "completion": completion])
  }

  @usableFromInline
  var playgroundDescription: Any { description }

  /// Reads the recorded values while holding the drainer role; `nil` once ended, or while a
  /// delivery runs.
  @usableFromInline
  func reading<T>(_ read: ([Downstream.Input]) -> T) -> T? {
    guard drain.borrow() else { return nil }
    let result = read(output)
    if !drain.stopDraining() { producer(self) }
    return result
  }

  @inlinable
  func request(_ demand: Subscribers.Demand) {
    guard demand != .none, drain.add(demand) else { return }
    producer(self)
  }

  @inlinable
  func cancel() {
    if drain.cancel() { cleanUp() }
  }

  /// The production loop, run by the drainer only.
  @inlinable
  func produce() {
    guard let downstream else {
      if drain.demandIfLive() == nil { cleanUp() } else { _ = drain.stopDraining() }
      return
    }
    var index = self.index
    while true {
      guard let demand = drain.demandIfLive() else {
        cleanUp()
        return
      }
      if demand == 0 {
        self.index = index
        if drain.stopDraining() { return }
        continue
      }
      drain.consumeOne(of: demand)
      let element = output[index]
      index += 1
      let more = downstream.receive(element)
      if index == output.count {
        // Unless the subscriber cancelled from inside `receive`, the last value is followed by
        // the completion at once, without waiting for more demand.
        let wasLive = drain.demandIfLive() != nil
        drain.finish()
        cleanUp()
        if wasLive { downstream.receive(completion: completion) }
        return
      }
      if more != .none { _ = drain.add(more) }
    }
  }

  @inlinable
  func cleanUp() {
    downstream = nil
    output = []
  }
}
