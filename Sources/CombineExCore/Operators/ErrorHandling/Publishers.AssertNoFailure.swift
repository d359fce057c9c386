extension Publisher {
  /// Raises a fatal error when its upstream publisher fails, and otherwise republishes all
  /// received input.
  ///
  /// Use it for internal integrity checks: like `fatalError(_:file:line:)`, it stops the program
  /// in debug and release builds alike. The message starts with `prefix` (followed by `": "`
  /// when it is not empty), then the error, and names `file` and `line`.
  ///
  /// ```swift
  /// let subject = CurrentValueSubject<String, any Error>("initial value")
  /// let cancellable = subject
  ///   .assertNoFailure("settings")
  ///   .sink { print($0) }
  /// subject.send("second value")
  /// // Prints: initial value, second value
  /// // subject.send(completion: .failure(SomeError())) would stop the program with
  /// // "settings: SomeError()" at this file and line.
  /// ```
  ///
  /// - Parameters:
  ///   - prefix: A string used at the beginning of the fatal error message.
  ///   - file: A filename used in the error message. This defaults to `#file`.
  ///   - line: A line number used in the error message. This defaults to `#line`.
  public func assertNoFailure(
    _ prefix: String = "", file: StaticString = #file, line: UInt = #line
  ) -> Publishers.AssertNoFailure<Self> {
    Publishers.AssertNoFailure(upstream: self, prefix: prefix, file: file, line: line)
  }
}

extension Publishers {
  /// A publisher that raises a fatal error upon receiving any failure, and otherwise
  /// republishes all received input.
  public struct AssertNoFailure<Upstream: Publisher>: Publisher {
    /// The kind of values published by this publisher: the upstream's.
    public typealias Output = Upstream.Output

    /// The kind of errors this publisher might publish: none, since a failure stops the
    /// program.
    public typealias Failure = Never

    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream

    /// The string used at the beginning of the fatal error message.
    public let prefix: String

    /// The filename used in the error message.
    public let file: StaticString

    /// The line number used in the error message.
    public let line: UInt

    /// Creates a publisher that stops the program if `upstream` fails.
    public init(upstream: Upstream, prefix: String, file: StaticString, line: UInt) {
      self.upstream = upstream
      self.prefix = prefix
      self.file = file
      self.line = line
    }

    /// Attaches the subscriber, through a stateless subscriber that checks the completion.
    public func receive<S: Subscriber>(subscriber: S)
    where Upstream.Output == S.Input, S.Failure == Never {
      upstream.subscribe(
        AssertNoFailureSubscriber<S, Upstream.Failure>(
          downstream: subscriber, prefix: prefix, file: file, line: line))
    }
  }
}

/// The subscriber `Publishers.AssertNoFailure` attaches upstream: stateless, like
/// ``MapSubscriber``; a failure stops the program.
struct AssertNoFailureSubscriber<Downstream: Subscriber, Failure: Error>: Subscriber,
  CustomStringConvertible
where Downstream.Failure == Never {
  typealias Input = Downstream.Input

  let downstream: Downstream
  let prefix: String
  let file: StaticString
  let line: UInt

  /// The downstream's identifier: this stateless link adds no identity of its own.
  var combineIdentifier: CombineIdentifier { downstream.combineIdentifier }

  var description: String { "AssertNoFailure" }

  func receive(subscription: any Subscription) {
    downstream.receive(subscription: subscription)
  }

  func receive(_ input: Input) -> Subscribers.Demand {
    downstream.receive(input)
  }

  func receive(completion: Subscribers.Completion<Failure>) {
    switch completion {
    case .finished:
      downstream.receive(completion: .finished)
    case .failure(let error):
      let lead = prefix.isEmpty ? "" : "\(prefix): "
      fatalError("\(lead)\(error)", file: file, line: line)
    }
  }
}

// As in Combine: where the assertion was made, and its prefix.
extension AssertNoFailureSubscriber: NamedReflection {
  var customMirror: Mirror {
    Mirror(self, children: ["file": file, "line": line, "prefix": prefix])
  }
}
