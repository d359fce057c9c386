extension Result {
  /// A publisher that publishes this result to each subscriber exactly once: the success value
  /// (then `.finished`), or the failure.
  ///
  /// ```swift
  /// let success: Result<Int, URLError> = .success(1)
  /// let cancellable = success.publisher.sink(
  ///   receiveCompletion: { print($0) }, receiveValue: { print($0) })
  /// // Prints: 1, finished
  /// ```
  @inlinable
  public var publisher: Publisher {
    Publisher(self)
  }

  /// A publisher that publishes an output to each subscriber exactly once then finishes, or
  /// fails immediately without producing any elements.
  ///
  /// If `result` is `.success`, each subscriber receives the value once it requests demand,
  /// followed by `.finished`. If it is `.failure`, each subscriber fails at once.
  ///
  /// In contrast with ``Just``, a `Result.Publisher` can fail; in contrast with
  /// `Optional.Publisher`, it always sends a value unless it fails.
  ///
  /// ```swift
  /// struct ParseError: Error {}
  /// let parsed = Result<Int, ParseError>.Publisher(.failure(ParseError()))
  /// let cancellable = parsed.sink(
  ///   receiveCompletion: { print($0) }, receiveValue: { print($0) })
  /// // Prints: failure(ParseError())
  /// ```
  @frozen
  public struct Publisher: CombineExCore.Publisher {
    /// The kind of values published by this publisher: the result's success type.
    public typealias Output = Success

    /// The result to deliver to each subscriber.
    public let result: Result<Output, Failure>

    /// Creates a publisher that delivers the specified result.
    @inlinable
    public init(_ result: Result<Output, Failure>) {
      self.result = result
    }

    /// Creates a publisher that sends the specified output to all subscribers and finishes
    /// normally.
    @inlinable
    public init(_ output: Output) {
      self.init(.success(output))
    }

    /// Creates a publisher that immediately terminates upon subscription with the given
    /// failure.
    @inlinable
    public init(_ failure: Failure) {
      self.init(.failure(failure))
    }

    /// Attaches the subscriber, which receives the value on its first demand, or the failure
    /// at once.
    @inlinable
    public func receive<S: Subscriber>(subscriber: S)
    where Output == S.Input, Failure == S.Failure {
      switch result {
      case .success(let output):
        let subscription = SingleValueSubscription(
          downstream: subscriber, value: output, name: "Once")
        handOver(subscription, reportingDetachTo: subscriber)
      case .failure(let failure):
        completeAtOnce(subscriber, with: .failure(failure))
      }
    }
  }
}

extension Result.Publisher: Equatable where Success: Equatable, Failure: Equatable {}
extension Result.Publisher: Sendable where Success: Sendable {}
