extension Publisher {
  /// Prints log messages for all publishing events.
  ///
  /// ```swift
  /// let cancellable = (1...2).publisher
  ///   .print("numbers")
  ///   .sink { _ in }
  /// // Prints:
  /// //   numbers: receive subscription: (1...2)
  /// //   numbers: request unlimited
  /// //   numbers: receive value: (1)
  /// //   numbers: receive value: (2)
  /// //   numbers: receive finished
  /// ```
  ///
  /// The messages are Combine's: `receive subscription: (…)`, `request unlimited`,
  /// `request max: (n)`, `receive value: (…)`, `receive finished`, `receive error: (…)` and
  /// `receive cancel`; demand that the subscriber returns from `receive(_:)` is logged as
  /// `request max: (n) (synchronous)` (or `request unlimited (synchronous)`) when it is not
  /// `.none`. Each message is prefixed with `prefix` and `": "` when `prefix` is not empty, and
  /// written as one line.
  ///
  /// - Parameters:
  ///   - prefix: A string with which to prefix all log messages. The default is empty.
  ///   - stream: A stream for text output that receives messages; standard output by default.
  ///     Messages from several threads are written one at a time, in order.
  public func print(_ prefix: String = "", to stream: (any TextOutputStream)? = nil)
    -> Publishers.Print<Self>
  {
    Publishers.Print(upstream: self, prefix: prefix, to: stream)
  }
}

extension Publishers {
  /// A publisher that prints log messages for all publishing events, optionally prefixed with a
  /// given string.
  public struct Print<Upstream: Publisher>: Publisher {
    /// The kind of values published by this publisher: the upstream's.
    public typealias Output = Upstream.Output

    /// The kind of errors this publisher might publish: the upstream's.
    public typealias Failure = Upstream.Failure

    /// A string with which to prefix all log messages.
    public let prefix: String

    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream

    /// The stream that receives the messages, or `nil` for standard output.
    public let stream: (any TextOutputStream)?

    /// Creates a publisher that prints log messages for all publishing events.
    public init(upstream: Upstream, prefix: String, to stream: (any TextOutputStream)? = nil) {
      self.upstream = upstream
      self.prefix = prefix
      self.stream = stream
    }

    /// Attaches the subscriber; each subscription logs to its own copy of `stream`.
    @inlinable
    public func receive<S: Subscriber>(subscriber: S)
    where Upstream.Output == S.Input, Upstream.Failure == S.Failure {
      upstream.subscribe(
        OperatorDriver(
          PrintLogic<Output, Failure>(log: PrintLog(prefix: prefix, stream: stream)),
          downstream: subscriber))
    }
  }
}

/// `print`: logs each event, then passes it on. Like Combine, every request and cancel is
/// logged, even one that comes too late to matter.
@usableFromInline
struct PrintLogic<Input, Failure: Error>: OperatorLogic {
  @usableFromInline
  typealias UpstreamFailure = Failure
  @usableFromInline let log: PrintLog

  @inlinable
  init(log: PrintLog) {
    self.log = log
  }

  @inlinable
  var name: String { "Print" }

  /// As in Combine: a cancel before the upstream's subscription is only noted (the
  /// subscription that arrives is handed on untouched), and a completion before it is printed
  /// and passed on.
  @inlinable
  var misusePolicy: MisusePolicy { .notesEarlyCancel.endingOnEarlyCompletion }

  @inlinable
  func subscribed(to upstream: any Subscription) {
    log.write("receive subscription: (\(upstream))")
  }

  /// As in Combine, every subscription is logged, also one that is rejected (and cancelled).
  @inlinable
  func rejected(_ subscription: any Subscription, whileConnected: Bool) {
    subscribed(to: subscription)
  }

  @inlinable
  func receive(_ input: Input, _: inout Void) -> OperatorStep<Input, Failure> {
    log.write("receive value: (\(input))")
    return .emit(input)
  }

  @inlinable
  func receive(
    completion: Subscribers.Completion<Failure>, _: inout Void
  ) -> OperatorEnding<Input, Failure> {
    switch completion {
    case .finished: log.write("receive finished")
    case .failure(let error): log.write("receive error: (\(error))")
    }
    return .completion(completion)
  }

  @inlinable
  func returning(_ demand: Subscribers.Demand, isLive: () -> Bool) -> Subscribers.Demand {
    if demand > 0 { log.write("\(Self.describe(demand)) (synchronous)") }
    return demand
  }

  @inlinable
  func request(_ demand: Subscribers.Demand, from upstream: (any Subscription)?) {
    log.write(Self.describe(demand))
    upstream?.request(demand)
  }

  @inlinable
  func cancel(_ upstream: (any Subscription)?) {
    log.write("receive cancel")
    upstream?.cancel()
  }

  @usableFromInline
  static func describe(_ demand: Subscribers.Demand) -> String {
    if let max = demand.max { return "request max: (\(max))" }
    return "request unlimited"
  }
}

/// The destination of a `print` operator's lines: writes them in order, one thread at a time.
// @unchecked Sendable: `queue`, `isWriting` and `stream` are guarded by `lock`; while
// `isWriting` is set, only the writing thread touches `stream`.
@usableFromInline
final class PrintLog: @unchecked Sendable {
  private let lock = Lock()
  private let prefix: String
  private var stream: (any TextOutputStream)?
  private var queue: [String] = []
  private var isWriting = false

  @usableFromInline
  init(prefix: String, stream: (any TextOutputStream)?) {
    self.prefix = prefix.isEmpty ? "" : "\(prefix): "
    self.stream = stream
  }

  /// Writes `message`, prefixed, as one line.
  @usableFromInline
  func write(_ message: String) {
    let line = prefix + message
    let isWriter = lock.withLock { () -> Bool in
      queue.append(line)
      if isWriting { return false }
      isWriting = true
      return true
    }
    guard isWriter else { return }
    while true {
      let (lines, stream) = lock.withLock { () -> ([String], (any TextOutputStream)?) in
        defer { queue.removeAll() }
        if queue.isEmpty { isWriting = false }
        return (queue, self.stream)
      }
      if lines.isEmpty { return }
      guard var stream else {
        for line in lines { Swift.print(line) }
        continue
      }
      // The writes Combine's `print` makes (through `Swift.print`), so that a stream that
      // records them sees the same: an empty string, the line, the newline.
      for line in lines {
        stream.write("")
        stream.write(line)
        stream.write("\n")
      }
      // A struct stream accumulates in this copy; keep it for the next messages.
      lock.withLock { self.stream = stream }
    }
  }
}
